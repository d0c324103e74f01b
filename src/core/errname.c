// SPDX-License-Identifier: MIT
/*
 * Symbolic errno names, as lib/errname.c gives them (Linux 6.12, x86): errname(-EINVAL) is
 * "-EINVAL", errname(EINVAL) is "EINVAL", a number without a name (0, ENOGRACE, 4000) is NULL.
 * Aliases take the name the kernel prints: EWOULDBLOCK is EAGAIN, EDEADLOCK is EDEADLK,
 * ENOTSUP is EOPNOTSUPP.  The kernel-internal codes 512..530 are named too.
 */
#include <stdlib.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>

/* Each name is stored with its minus sign; a positive errno skips it. */
#define E(name) [name] = "-" #name
static const char *const errnames[] = {
	E(E2BIG), E(EACCES), E(EADDRINUSE), E(EADDRNOTAVAIL), E(EADV), E(EAFNOSUPPORT), E(EAGAIN),
	E(EALREADY), E(EBADE), E(EBADF), E(EBADFD), E(EBADMSG), E(EBADR), E(EBADRQC), E(EBADSLT),
	E(EBFONT), E(EBUSY), E(ECANCELED), E(ECHILD), E(ECHRNG), E(ECOMM), E(ECONNABORTED),
	E(ECONNREFUSED), E(ECONNRESET), E(EDEADLK), E(EDESTADDRREQ), E(EDOM), E(EDOTDOT), E(EDQUOT),
	E(EEXIST), E(EFAULT), E(EFBIG), E(EHOSTDOWN), E(EHOSTUNREACH), E(EHWPOISON), E(EIDRM),
	E(EILSEQ), E(EINPROGRESS), E(EINTR), E(EINVAL), E(EIO), E(EISCONN), E(EISDIR), E(EISNAM),
	E(EKEYEXPIRED), E(EKEYREJECTED), E(EKEYREVOKED), E(EL2HLT), E(EL2NSYNC), E(EL3HLT), E(EL3RST),
	E(ELIBACC), E(ELIBBAD), E(ELIBEXEC), E(ELIBMAX), E(ELIBSCN), E(ELNRNG), E(ELOOP),
	E(EMEDIUMTYPE), E(EMFILE), E(EMLINK), E(EMSGSIZE), E(EMULTIHOP), E(ENAMETOOLONG), E(ENAVAIL),
	E(ENETDOWN), E(ENETRESET), E(ENETUNREACH), E(ENFILE), E(ENOANO), E(ENOBUFS), E(ENOCSI),
	E(ENODATA), E(ENODEV), E(ENOENT), E(ENOEXEC), E(ENOKEY), E(ENOLCK), E(ENOLINK), E(ENOMEDIUM),
	E(ENOMEM), E(ENOMSG), E(ENONET), E(ENOPKG), E(ENOPROTOOPT), E(ENOSPC), E(ENOSR), E(ENOSTR),
	E(ENOSYS), E(ENOTBLK), E(ENOTCONN), E(ENOTDIR), E(ENOTEMPTY), E(ENOTNAM), E(ENOTRECOVERABLE),
	E(ENOTSOCK), E(ENOTTY), E(ENOTUNIQ), E(ENXIO), E(EOPNOTSUPP), E(EOVERFLOW), E(EOWNERDEAD),
	E(EPERM), E(EPFNOSUPPORT), E(EPIPE), E(EPROTO), E(EPROTONOSUPPORT), E(EPROTOTYPE), E(ERANGE),
	E(EREMCHG), E(EREMOTE), E(EREMOTEIO), E(ERESTART), E(ERFKILL), E(EROFS), E(ESHUTDOWN),
	E(ESOCKTNOSUPPORT), E(ESPIPE), E(ESRCH), E(ESRMNT), E(ESTALE), E(ESTRPIPE), E(ETIME),
	E(ETIMEDOUT), E(ETOOMANYREFS), E(ETXTBSY), E(EUCLEAN), E(EUNATCH), E(EUSERS), E(EXDEV),
	E(EXFULL), E(ERESTARTSYS), E(ERESTARTNOINTR), E(ERESTARTNOHAND), E(ENOIOCTLCMD),
	E(ERESTART_RESTARTBLOCK), E(EPROBE_DEFER), E(EOPENSTALE), E(ENOPARAM), E(EBADHANDLE),
	E(ENOTSYNC), E(EBADCOOKIE), E(ENOTSUPP), E(ETOOSMALL), E(ESERVERFAULT), E(EBADTYPE),
	E(EJUKEBOX), E(EIOCBQUEUED), E(ERECALLCONFLICT),
};
#undef E

const char *errname(int err)
{
	/* negated as unsigned: -INT_MIN overflows */
	unsigned int nr = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;
	const char *name;

	if (nr >= ARRAY_SIZE(errnames) || !errnames[nr])
		return NULL;
	name = errnames[nr];
	return err > 0 ? name + 1 : name;
}

const char *kfsim_errname(int err)
{
	const char *name = errname(err);

	if (!name)
		return "E?";
	return name[0] == '-' ? name + 1 : name;
}
