// SPDX-License-Identifier: MIT
/* Symbolic errno names, as lib/errname.c gives them to %pe. */
#include <kfsim/err.h>
#include <kfsim/kernel.h>

#define E(name) [name] = #name
static const char *const errnames[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG), E(ENOEXEC),
	E(EBADF), E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(ENOTBLK), E(EBUSY),
	E(EEXIST), E(EXDEV), E(ENODEV), E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE),
	E(ENOTTY), E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK), E(EPIPE),
	E(EDOM), E(ERANGE), E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK), E(ENOSYS), E(ENOTEMPTY),
	E(ELOOP), E(ENOMSG), E(EIDRM), E(ENOSTR), E(ENODATA), E(ETIME), E(ENOSR), E(ENOLINK),
	E(EPROTO), E(EBADMSG), E(EOVERFLOW), E(EILSEQ), E(EUSERS), E(ENOTSOCK), E(EDESTADDRREQ),
	E(EMSGSIZE), E(EPROTOTYPE), E(ENOPROTOOPT), E(EPROTONOSUPPORT), E(ESOCKTNOSUPPORT),
	E(EOPNOTSUPP), E(EPFNOSUPPORT), E(EAFNOSUPPORT), E(EADDRINUSE), E(EADDRNOTAVAIL),
	E(ENETDOWN), E(ENETUNREACH), E(ENETRESET), E(ECONNABORTED), E(ECONNRESET), E(ENOBUFS),
	E(EISCONN), E(ENOTCONN), E(ESHUTDOWN), E(ETOOMANYREFS), E(ETIMEDOUT), E(ECONNREFUSED),
	E(EHOSTDOWN), E(EHOSTUNREACH), E(EALREADY), E(EINPROGRESS), E(ESTALE), E(EDQUOT),
	E(ECANCELED), E(EOWNERDEAD), E(ENOTRECOVERABLE), E(ERFKILL), E(EHWPOISON),
	E(ERESTARTSYS), E(ENOIOCTLCMD), E(EPROBE_DEFER), E(ENOTSUPP),
};
#undef E

const char *kfsim_errname(int err)
{
	/* negated as unsigned: -INT_MIN overflows, and the compiler may then index with it */
	unsigned int nr = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;

	if (nr < ARRAY_SIZE(errnames) && errnames[nr])
		return errnames[nr];
	return "E?";
}
