/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CORE_INFILE_H
#define KFSIM_CORE_INFILE_H

/*
 * Opening a file the user names for reading (job files, device lists, specs, partial results),
 * the same way everywhere: a directory is -EISDIR at once (fopen() takes one and only its reads
 * fail, told as a vague read error), and a FIFO nobody writes to is opened without waiting for a
 * writer (fopen() would block in open(2) for ever): it reads as empty, while a pipe that has a
 * writer (bash's <(...), /dev/stdin) reads as ever.
 *
 * Internal to kfsim (hidden in libkfsim.so).
 */
#include <stdio.h>

/*
 * open(2) of @path with @flags (O_CLOEXEC and O_NOCTTY added) that does not wait for the other
 * end of a FIFO: for reading one nobody writes to opens (and reads as empty), for writing one
 * nobody reads is -ENXIO (kfsim_outfile_open()); the descriptor then blocks as usual.
 * Return: the descriptor, or the negative errno.
 */
int kfsim_open_nowait(const char *path, int flags);

/* @path opened for reading, or NULL with *@err the negative errno (-EISDIR, -ENOENT ...). */
FILE *kfsim_infile_open(const char *path, int *err);

#endif /* KFSIM_CORE_INFILE_H */
