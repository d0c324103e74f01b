/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_OUTFILE_H
#define KFSIM_OUTFILE_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Output files that never lose the user's data.
 *
 * The promise, for every file kfsim writes (SVG pictures, Perfetto traces, JSON, generated C):
 * after the call that finishes it, the named file is either complete and new, or exactly what it
 * was before; nothing outside the named path is written.  How:
 *
 *  - The path is checked first: longer than PATH_MAX - 1, or a component longer than NAME_MAX,
 *    is -ENAMETOOLONG; a directory where the file should be is -EISDIR; a symlink loop is
 *    -ELOOP.  Nothing has been created or written at that point.
 *  - A symlink is followed (as far as it goes, dangling or not) and its TARGET is replaced; the
 *    link itself stays.  Every writer treats links the same way this way.  Except, as Linux's
 *    fs.protected_symlinks: a link in a sticky world-writable directory (/tmp) whose owner is
 *    neither the caller nor the directory's owner is -EACCES, so root writing /tmp/x never
 *    replaces the file another user's link there names.
 *  - An existing file the caller may not write (mode 0444 for a normal user) is refused with
 *    -EACCES, as open(2) would refuse it, rather than replaced through the directory.
 *  - The data goes to a temporary in the target's own directory (created with mode 0666, so the
 *    umask applies exactly as for open(2)), is fsync()ed, given the old file's mode (and owner,
 *    where permitted) if there was one, and rename()d over the target.  A failure anywhere
 *    removes the temporary and reports the first error seen, with its own errno: a short write
 *    under RLIMIT_FSIZE is -EFBIG, a full disk -ENOSPC, a read-only directory -EACCES or -EROFS.
 *  - A target that exists and is not a regular file (/dev/null, /dev/full, a FIFO, a terminal)
 *    cannot be replaced: it is opened and written in place, and its write errors are reported
 *    the same way ("kfsim rbtree --svg /dev/full" fails with -ENOSPC).
 *  - kfsim_outfile_commit_all() makes a group of files one transaction: all are written and
 *    synced first, then renamed; if a rename fails, the ones already renamed are put back.
 *
 * Writers write through @file with stdio.  The structure is the caller's (usually on the stack);
 * one of commit, commit_all or abort must end every successful open.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/**
 * struct kfsim_outfile - an output file being written
 * @file: write the content here (stdio); NULL after commit or abort
 * @path: the path the caller named (a copy)
 * @target: what will be replaced: @path with symlinks followed
 * @tmp: the temporary in @target's directory; NULL when a non-regular target is written in place
 * @err: the first error seen (negative errno), 0 while all is well
 * @fd: the descriptor under @file (the temporary, or the in-place target)
 * @had_target: @target existed (a regular file) when the file was opened
 * @in_place: @target is not a regular file and is written directly
 * @target_mode: its permission bits, which the new file keeps
 * @target_uid: its owner, kept where the caller may set it
 * @target_gid: its group, likewise
 */
struct kfsim_outfile {
	FILE *file;
	char *path;
	char *target;
	char *tmp;
	int fd;
	int err;
	bool had_target;
	bool in_place;
	mode_t target_mode;
	uid_t target_uid;
	gid_t target_gid;
};

/**
 * kfsim_outfile_check_path() - whether @path can name an output file at all
 * @path: the path
 *
 * Only the name is checked (length, components); nothing is opened.  Commands call this for
 * every output path while they validate their options, before any work starts.
 *
 * Return: 0, -EINVAL for NULL or "", -ENAMETOOLONG for a path of PATH_MAX bytes or more or a
 * component longer than NAME_MAX.
 */
int kfsim_outfile_check_path(const char *path);

/**
 * kfsim_path_join() - @dir "/" @name into @buf, or -ENAMETOOLONG
 * @buf: the result
 * @size: bytes in @buf
 * @dir: a directory ("" or NULL means the current one: @name alone)
 * @name: the file name, which may itself have a prefix ("run-") glued on by the caller
 *
 * The way to build an output path: never truncates.  Also refuses (-ENAMETOOLONG) a result
 * that kfsim_outfile_check_path() would refuse.
 *
 * Return: 0 or -ENAMETOOLONG (then @buf holds "").
 */
int kfsim_path_join(char *buf, size_t size, const char *dir, const char *name);

/**
 * kfsim_mkdir_p() - create directory @dir and its missing parents (mode 0777 less the umask)
 * @dir: the directory
 *
 * What the commands that take an output directory (--out DIR) do first, so that a documented
 * "--out /tmp/x/y" works on a fresh machine.
 *
 * Return: 0 (also when it exists), -ENOTDIR when @dir or a parent is not a directory,
 * -ENAMETOOLONG, or mkdir(2)'s error (-EACCES, -EROFS ...).
 */
int kfsim_mkdir_p(const char *dir);

/**
 * kfsim_outfile_open() - start writing @path
 * @of: the state, filled in
 * @path: the output path
 *
 * Return: 0, or a negative errno with nothing created: the errors of kfsim_outfile_check_path(),
 * -EISDIR, -ELOOP, -ENOENT (no such directory), -EACCES/-EROFS (the directory cannot take a
 * new file, or an existing file is not writable), -ENOMEM.
 */
int kfsim_outfile_open(struct kfsim_outfile *of, const char *path);

/**
 * kfsim_outfile_commit() - finish the file: flush, fsync, set the mode, rename over the target
 * @of: an open output file
 *
 * On failure the temporary is removed and the target is untouched.
 *
 * Return: 0, or the first error seen while writing (-EFBIG, -ENOSPC, -EIO ...) or committing.
 */
int kfsim_outfile_commit(struct kfsim_outfile *of);

/**
 * kfsim_outfile_abort() - drop the file: remove the temporary, leave the target as it was
 * @of: an open output file, or one already ended (then nothing happens)
 */
void kfsim_outfile_abort(struct kfsim_outfile *of);

/**
 * kfsim_outfile_commit_all() - commit @nr files as one transaction: all of them or none
 * @files: open output files
 * @nr: how many
 *
 * Every file is flushed and synced first; only when all succeeded are they renamed.  A rename
 * that fails puts back the targets already replaced (kept as hard links meanwhile) and removes
 * the new files that had no target.  In-place targets (devices, FIFOs) cannot be taken back.
 * On return every file is ended, whatever the result.
 *
 * Return: 0, or the first error (and then no target has changed); -EINVAL when two of the
 * files replace the same file (one would be lost in silence).
 */
int kfsim_outfile_commit_all(struct kfsim_outfile *files, size_t nr);

/**
 * kfsim_outfile_commit_group() - kfsim_outfile_commit_all() for files that are not one array
 * @files: pointers to the open output files (each stays where it was opened: its stream writes
 *         through its address, so an open kfsim_outfile must never be copied or moved)
 * @nr: how many
 *
 * Return: as kfsim_outfile_commit_all().
 */
int kfsim_outfile_commit_group(struct kfsim_outfile *const *files, size_t nr);

/**
 * kfsim_outfile_fail() - record @err as the file's error (the content turned out wrong)
 * @of: an open output file
 * @err: a negative errno
 *
 * Commit will then fail with @err (unless an earlier error is already recorded).
 */
void kfsim_outfile_fail(struct kfsim_outfile *of, int err);

/**
 * kfsim_outfile_write() - write @len bytes of @buf to @of (for data that is not text)
 *
 * Return: 0, or the file's error.
 */
int kfsim_outfile_write(struct kfsim_outfile *of, const void *buf, size_t len);

/**
 * kfsim_outfile_save() - write @path with @len bytes of @buf in one go (open, write, commit)
 *
 * Return: 0 or the negative errno of whichever step failed; the old file is kept then.
 */
int kfsim_outfile_save(const char *path, const void *buf, size_t len);

#pragma GCC visibility pop
#endif /* KFSIM_OUTFILE_H */
