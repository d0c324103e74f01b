// SPDX-License-Identifier: MIT
/* Opening a user's input file without blocking on a FIFO or taking a directory (infile.h). */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "infile.h"

FILE *kfsim_infile_open(const char *path, int *err)
{
	struct stat st;
	FILE *file;
	int fd, flags;

	/* O_NONBLOCK: open(2) of a FIFO returns at once rather than waiting for a writer */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	if (fstat(fd, &st)) {
		*err = -errno;
		close(fd);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		*err = -EISDIR;
		return NULL;
	}
	/* reads block again: a pipe whose writer is slow is waited for, a FIFO without one ends */
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 || !(file = fdopen(fd, "r"))) {
		*err = -errno;
		close(fd);
		return NULL;
	}
	return file;
}
