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

/* @path opened for reading, or NULL with *@err the negative errno (-EISDIR, -ENOENT ...). */
FILE *kfsim_infile_open(const char *path, int *err);

#endif /* KFSIM_CORE_INFILE_H */
