/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_PLAYGROUND_H
#define KFSIM_CLI_PLAYGROUND_H

/*
 * The playground page (src/playground/, built by -DKFSIM_WASM=ON) as this program carries it:
 * written by 'kfsim playground' and, beside its own page, by 'kfsim tour'.
 */
#include <stddef.h>

#define KFSIM_PLAYGROUND_FILE "playground.html"

/**
 * kfsim_playground_write() - write the playground page into @out_dir
 * @out_dir: the directory (created with its parents if missing)
 * @path: the file written, for the caller's message
 * @path_size: bytes in @path
 *
 * Return: 0, -EOPNOTSUPP when this build has no page (configured without -DKFSIM_WASM=ON), or
 * the errors of kfsim_mkdir_p() and kfsim_outfile (the file is complete and new, or as it was).
 */
int kfsim_playground_write(const char *out_dir, char *path, size_t path_size);

#endif /* KFSIM_CLI_PLAYGROUND_H */
