// SPDX-License-Identifier: MIT
/*
 * Output files written to a temporary and renamed into place (see <kfsim/outfile.h> for the
 * promise).  Invariant: until kfsim_outfile_commit() renames, the only file this code has
 * created or written is the temporary, which every failure path removes; a non-regular target
 * (a device or FIFO) is the one exception, written in place because it cannot be replaced.
 *
 * The stream is a fopencookie() stream over our own write loop so that the errno of the write
 * that failed is kept (-EFBIG for RLIMIT_FSIZE, -ENOSPC) instead of whatever a later call left
 * in errno.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <kfsim/outfile.h>
#include "infile.h"

/* Linux's MAXSYMLINKS: how many links a path walk follows before -ELOOP. */
#define OUTFILE_MAX_SYMLINKS 40

int kfsim_outfile_check_path(const char *path)
{
	const char *component;

	if (!path || !*path)
		return -EINVAL;
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	for (component = path; *component;) {
		size_t len = strcspn(component, "/");

		if (len > NAME_MAX)
			return -ENAMETOOLONG;
		component += len;
		component += strspn(component, "/");
	}
	return 0;
}

int kfsim_path_join(char *buf, size_t size, const char *dir, const char *name)
{
	bool has_dir = dir && *dir;
	bool slash = has_dir && dir[strlen(dir) - 1] != '/';
	int len;

	if (!size)
		return -ENAMETOOLONG;
	len = snprintf(buf, size, "%s%s%s", has_dir ? dir : "", slash ? "/" : "", name);
	if (len < 0 || (size_t)len >= size || kfsim_outfile_check_path(buf)) {
		buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

int kfsim_mkdir_p(const char *dir)
{
	char path[PATH_MAX];
	size_t len = dir ? strlen(dir) : 0;
	struct stat st;

	if (!len)
		return -EINVAL;
	if (len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (char *slash = path + 1; *slash; slash++) {
		if (*slash != '/')
			continue;
		*slash = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return -errno;
		*slash = '/';
	}
	if (mkdir(path, 0777) && errno != EEXIST)
		return -errno;
	/* EEXIST also covers a regular file of that name */
	if (stat(path, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static ssize_t outfile_cookie_write(void *cookie, const char *buf, size_t size)
{
	struct kfsim_outfile *of = cookie;
	size_t done = 0;

	if (of->err)
		return 0;
	while (done < size) {
		ssize_t n = write(of->fd, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* a short write is followed by the failing one, which says why */
			of->err = n < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int outfile_cookie_close(void *cookie)
{
	struct kfsim_outfile *of = cookie;
	int ret = 0;

	if (of->fd >= 0 && close(of->fd) && errno != EINTR) {
		if (!of->err)
			of->err = -errno;
		ret = -1;
	}
	of->fd = -1;
	return ret;
}

static void outfile_free(struct kfsim_outfile *of)
{
	free(of->path);
	free(of->target);
	free(of->tmp);
	of->path = of->target = of->tmp = NULL;
}

/* The directory part of @path ("." when there is none), into a new string. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/*
 * May we follow the link @cur (lstat()ed into @link)?  Not one another user planted in a sticky
 * world-writable directory such as /tmp, unless that user owns the directory: the rule of Linux's
 * fs.protected_symlinks (may_follow_link()), which the kernel applies to open(2) but cannot apply
 * here, where the link is read by hand.  Without it root's `--out /tmp/x.svg` would replace
 * whatever file a local user's /tmp/x.svg link names.  Applied whatever the sysctl says.
 */
static int may_follow(const char *cur, const struct stat *link)
{
	char *dir = dir_of(cur);
	struct stat parent;
	int err;

	if (!dir)
		return -ENOMEM;
	err = stat(dir, &parent) ? -errno : 0;
	free(dir);
	if (err)
		return err;
	if ((parent.st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return 0;
	if (link->st_uid == geteuid() || link->st_uid == parent.st_uid)
		return 0;
	return -EACCES;
}

/*
 * Follow the symlinks of the last component of @path; *@target gets the file they end at
 * (which may not exist).  Directory components are left to the kernel's path walk.
 */
static int resolve_target(const char *path, char **target)
{
	char *cur = strdup(path);

	for (int hops = 0; cur; hops++) {
		char link[PATH_MAX];
		struct stat st;
		char *next, *dir;
		ssize_t len;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode)) {
			*target = cur;
			return 0;
		}
		if (hops == OUTFILE_MAX_SYMLINKS) {
			free(cur);
			return -ELOOP;
		}
		len = may_follow(cur, &st);
		if (len) {
			free(cur);
			return (int)len;
		}
		len = readlink(cur, link, sizeof(link) - 1);
		if (len < 0) {
			int err = -errno;

			free(cur);
			return err;
		}
		link[len] = '\0';
		if (link[0] == '/' || !strchr(cur, '/')) {
			next = strdup(link);
		} else {
			dir = dir_of(cur);
			next = dir ? malloc(strlen(dir) + (size_t)len + 2) : NULL;
			if (next)
				sprintf(next, "%s/%s", dir, link);
			free(dir);
		}
		free(cur);
		cur = next;
		if (cur && kfsim_outfile_check_path(cur)) {
			free(cur);
			return -ENAMETOOLONG;
		}
	}
	return -ENOMEM;
}

/* Create the temporary beside @of->target: ".<name>.<random>.tmp", mode 0666 & ~umask. */
static int create_tmp(struct kfsim_outfile *of)
{
	const char *slash = strrchr(of->target, '/');
	const char *base = slash ? slash + 1 : of->target;
	size_t dir_len = slash ? (size_t)(slash - of->target) + 1 : 0;
	size_t size = dir_len + NAME_MAX + 2;

	of->tmp = malloc(size);
	if (!of->tmp)
		return -ENOMEM;
	for (int attempt = 0; attempt < 32; attempt++) {
		uint32_t nonce;

		if (getentropy(&nonce, sizeof(nonce)))
			nonce = (uint32_t)time(NULL) ^ (uint32_t)getpid() ^ (uint32_t)attempt * 2654435761u;
		/* 200 bytes of the name keep the temporary's component within NAME_MAX */
		snprintf(of->tmp, size, "%.*s.%.200s.%08x.tmp", (int)dir_len, of->target, base,
			 nonce);
		if (strlen(of->tmp) >= PATH_MAX)
			return -ENAMETOOLONG;
		of->fd = open(of->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (of->fd >= 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* A device, FIFO or terminal cannot be replaced: write it in place. */
static int open_in_place(struct kfsim_outfile *of)
{
	/* a FIFO nobody reads is -ENXIO rather than a wait for a reader for ever */
	int fd = kfsim_open_nowait(of->target, O_WRONLY | O_TRUNC);

	if (fd < 0)
		return fd;
	of->fd = fd;
	return 0;
}

int kfsim_outfile_open(struct kfsim_outfile *of, const char *path)
{
	static const cookie_io_functions_t io = {
		.write = outfile_cookie_write,
		.close = outfile_cookie_close,
	};
	bool exists = false;
	struct stat st;
	int err;

	*of = (struct kfsim_outfile){ .fd = -1 };
	err = kfsim_outfile_check_path(path);
	if (err)
		return err;
	if (path[strlen(path) - 1] == '/')
		return -EISDIR;
	of->path = strdup(path);
	if (!of->path)
		return -ENOMEM;
	err = resolve_target(path, &of->target);
	if (err)
		goto fail;
	if (!stat(of->target, &st)) {
		exists = true;
		if (S_ISDIR(st.st_mode)) {
			err = -EISDIR;
			goto fail;
		}
		/*
		 * A file the caller could not open for writing is not replaced behind its back
		 * either: the same -EACCES as open(2) (root passes, as with open(2)).
		 */
		if (S_ISREG(st.st_mode) && faccessat(AT_FDCWD, of->target, W_OK, AT_EACCESS)) {
			err = -errno;
			goto fail;
		}
		if (S_ISREG(st.st_mode)) {
			of->had_target = true;
			of->target_mode = st.st_mode & 07777;
			of->target_uid = st.st_uid;
			of->target_gid = st.st_gid;
		}
	} else if (errno != ENOENT) {
		err = -errno;
		goto fail;
	}
	of->in_place = exists && !of->had_target;
	err = of->in_place ? open_in_place(of) : create_tmp(of);
	if (err)
		goto fail;
	of->file = fopencookie(of, "w", io);
	if (!of->file) {
		err = -ENOMEM;
		goto fail;
	}
	return 0;
fail:
	if (of->fd >= 0)
		close(of->fd);
	if (of->tmp && of->fd >= 0)
		unlink(of->tmp);
	of->fd = -1;
	outfile_free(of);
	return err;
}

void kfsim_outfile_fail(struct kfsim_outfile *of, int err)
{
	if (!of->err)
		of->err = err;
}

int kfsim_outfile_write(struct kfsim_outfile *of, const void *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, of->file) != len && !of->err)
		of->err = -EIO;
	return of->err;
}

/* Everything but the rename: flush, sync, mode, close.  Ends @of->file. */
static int outfile_finish_data(struct kfsim_outfile *of)
{
	if (fflush(of->file) && !of->err)
		of->err = -EIO;
	if (of->tmp && !of->err) {
		/* keep the replaced file's owner (where we may: not an error otherwise) and mode */
		if (of->had_target && fchown(of->fd, of->target_uid, of->target_gid))
			errno = 0;
		if (of->had_target && fchmod(of->fd, of->target_mode))
			of->err = -errno;
		else if (fsync(of->fd))
			of->err = -errno;
	}
	fclose(of->file); /* closes the fd through the cookie; a close error lands in of->err */
	of->file = NULL;
	return of->err;
}

void kfsim_outfile_abort(struct kfsim_outfile *of)
{
	if (of->file) {
		fclose(of->file);
		of->file = NULL;
	}
	if (of->tmp)
		unlink(of->tmp);
	outfile_free(of);
}

/* Make the rename itself durable; a file system that cannot sync a directory loses nothing. */
static void sync_dir_of(const char *path)
{
	char *dir = dir_of(path);
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int kfsim_outfile_commit(struct kfsim_outfile *of)
{
	return kfsim_outfile_commit_group(&of, 1);
}

/* A hard link to @target beside it, so that a failed group commit can put it back. */
static char *keep_old(const char *target)
{
	size_t size = strlen(target) + 32;
	char *keep = malloc(size);

	if (!keep)
		return NULL;
	for (int attempt = 0; attempt < 32; attempt++) {
		uint32_t nonce;

		if (getentropy(&nonce, sizeof(nonce)))
			nonce = (uint32_t)time(NULL) ^ (uint32_t)attempt * 2654435761u;
		snprintf(keep, size, "%s.%08x.old", target, nonce);
		if (!link(target, keep))
			return keep;
		if (errno != EEXIST)
			break;
	}
	free(keep);
	return NULL;
}

/*
 * Do @a and @b replace the same file?  The same name in the same directory, however the two
 * paths spell it ("x" and "./x"): each rename() would succeed and the second would replace the
 * first in silence, so a group that names one file twice is refused instead.
 */
static bool same_target(const struct kfsim_outfile *a, const struct kfsim_outfile *b)
{
	const char *name_a = strrchr(a->target, '/'), *name_b = strrchr(b->target, '/');
	char *dir_a, *dir_b;
	struct stat st_a, st_b;
	bool same;

	if (!strcmp(a->target, b->target))
		return true;
	name_a = name_a ? name_a + 1 : a->target;
	name_b = name_b ? name_b + 1 : b->target;
	if (strcmp(name_a, name_b))
		return false;
	dir_a = dir_of(a->target);
	dir_b = dir_of(b->target);
	same = dir_a && dir_b && !stat(dir_a, &st_a) && !stat(dir_b, &st_b) &&
	       st_a.st_dev == st_b.st_dev && st_a.st_ino == st_b.st_ino;
	free(dir_a);
	free(dir_b);
	return same;
}

int kfsim_outfile_commit_group(struct kfsim_outfile *const *files, size_t nr)
{
	char **kept = nr > 1 ? calloc(nr, sizeof(*kept)) : NULL;
	size_t i, renamed = 0;
	int err = 0;

	if (nr > 1 && !kept)
		err = -ENOMEM;
	for (i = 0; i < nr && !err; i++)
		for (size_t j = i + 1; j < nr && !err; j++)
			if (files[i]->tmp && files[j]->tmp && same_target(files[i], files[j]))
				err = -EINVAL;
	for (i = 0; i < nr; i++) {
		int ret = outfile_finish_data(files[i]);

		if (ret && !err)
			err = ret;
	}
	for (i = 0; i < nr && !err; i++, renamed++) {
		struct kfsim_outfile *of = files[i];

		if (!of->tmp)
			continue;
		if (kept && of->had_target)
			kept[i] = keep_old(of->target);
		if (rename(of->tmp, of->target)) {
			err = -errno;
			break;
		}
		free(of->tmp);
		of->tmp = NULL;
	}
	if (err) {
		/* put back what was replaced, remove what was new */
		for (i = 0; i < renamed; i++) {
			if (kept && kept[i] && !rename(kept[i], files[i]->target)) {
				free(kept[i]);
				kept[i] = NULL;
			} else if (!files[i]->had_target && !files[i]->in_place) {
				unlink(files[i]->target);
			}
		}
	}
	for (i = 0; i < nr; i++) {
		if (!err && files[i]->target && !files[i]->in_place)
			sync_dir_of(files[i]->target);
		if (kept && kept[i]) {
			unlink(kept[i]);
			free(kept[i]);
		}
		kfsim_outfile_abort(files[i]);
	}
	free(kept);
	return err;
}

int kfsim_outfile_commit_all(struct kfsim_outfile *files, size_t nr)
{
	struct kfsim_outfile **group = calloc(nr ? nr : 1, sizeof(*group));
	int err;

	if (!group) {
		for (size_t i = 0; i < nr; i++)
			kfsim_outfile_abort(&files[i]);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++)
		group[i] = &files[i];
	err = kfsim_outfile_commit_group(group, nr);
	free(group);
	return err;
}

int kfsim_outfile_save(const char *path, const void *buf, size_t len)
{
	struct kfsim_outfile of;
	int err = kfsim_outfile_open(&of, path);

	if (err)
		return err;
	kfsim_outfile_write(&of, buf, len);
	return kfsim_outfile_commit(&of);
}
