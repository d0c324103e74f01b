// SPDX-License-Identifier: MIT
/* Opening a user's file without waiting on a FIFO; an input, not taking a directory (infile.h). */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "infile.h"

int kfsim_open_nowait(const char *path, int flags)
{
	int fd, fl;

	/* O_NONBLOCK: open(2) of a FIFO returns at once rather than waiting for the other end */
	fd = open(path, flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* I/O blocks again: a pipe whose other end is slow is waited for */
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		fl = -errno;
		close(fd);
		return fl;
	}
	return fd;
}

FILE *kfsim_infile_open(const char *path, int *err)
{
	struct stat st;
	FILE *file;
	int fd = kfsim_open_nowait(path, O_RDONLY);

	if (fd < 0) {
		*err = fd;
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
	/* a FIFO without a writer reads as empty */
	if (!(file = fdopen(fd, "r"))) {
		*err = -errno;
		close(fd);
		return NULL;
	}
	return file;
}
