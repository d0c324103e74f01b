// SPDX-License-Identifier: MIT
/*
 * The program's memory, read and written as the kernel's copy_from_user() and copy_to_user()
 * do it: a pointer the program may not use is EFAULT, never a fault in the shim.
 *
 * The shim reads a call's arguments before the kernel does (an ioctl's interface name, a
 * sockaddr_nl, a msghdr and its iovecs) and writes some answers itself (getsockname()'s
 * address, getsockopt()'s int).  Done with plain loads and stores, a pointer the kernel would
 * have refused with EFAULT killed the program with SIGSEGV instead (ioctl(fd, SIOCGIFFLAGS, 8),
 * bind(fd, 8, 12), sendmsg(fd, 8, 0): attack "shim_bad_args").
 *
 * process_vm_readv() and process_vm_writev() on the process itself do the copy in the kernel
 * and answer EFAULT (or a short count) where the memory is not there.  Where they are refused
 * (a seccomp profile without them: ENOSYS, EPERM), the memory is used directly, as before.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "user_copy.h"

static int copy(void *dst, const void *src, size_t len, bool to_user)
{
	struct iovec local = { .iov_base = to_user ? (void *)src : dst, .iov_len = len };
	struct iovec remote = { .iov_base = to_user ? dst : (void *)src, .iov_len = len };
	int saved = errno, ret = 0;
	pid_t self;
	ssize_t n;

	if (!len)
		return 0;
	/*
	 * The calling thread, not getpid(): once the main thread has exited (pthread_exit()) the
	 * leader has no memory, and the call answered ESRCH, so a bad pointer was used directly
	 * and killed the program (attacks.py "shim_signals", leader-gone).
	 */
	self = (pid_t)syscall(SYS_gettid);

	n = to_user ? process_vm_writev(self, &local, 1, &remote, 1, 0) :
		      process_vm_readv(self, &local, 1, &remote, 1, 0);
	if (n >= 0 && (size_t)n != len)
		ret = -EFAULT;
	else if (n < 0 && errno == EFAULT)
		ret = -EFAULT;
	else if (n < 0)
		memcpy(dst, src, len);	/* not allowed here: as the shim did before */
	errno = saved;
	return ret;
}

int shim_copy_from_user(void *dst, const void *src, size_t len)
{
	return copy(dst, src, len, false);
}

int shim_copy_to_user(void *dst, const void *src, size_t len)
{
	return copy(dst, src, len, true);
}
