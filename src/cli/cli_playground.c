// SPDX-License-Identifier: MIT
/*
 * The playground page's bytes, when the build has them: cmake/kfsim_wasm.cmake puts
 * playground.html into the program with .incbin between kfsim_playground_html and
 * kfsim_playground_html_end.  A build without it leaves both weak symbols NULL.
 */
#include <errno.h>
#include <stdio.h>

#include <kfsim/outfile.h>
#include "cli_playground.h"

extern const char kfsim_playground_html[] __attribute__((weak));
extern const char kfsim_playground_html_end[] __attribute__((weak));

int kfsim_playground_write(const char *out_dir, char *path, size_t path_size)
{
	struct kfsim_outfile of;
	int ret;

	if (!kfsim_playground_html || !kfsim_playground_html_end)
		return -EOPNOTSUPP;
	ret = kfsim_path_join(path, path_size, out_dir, KFSIM_PLAYGROUND_FILE);
	if (!ret)
		ret = kfsim_mkdir_p(out_dir);
	if (!ret)
		ret = kfsim_outfile_open(&of, path);
	if (ret)
		return ret;
	fwrite(kfsim_playground_html, 1, (size_t)(kfsim_playground_html_end - kfsim_playground_html),
	       of.file);
	return kfsim_outfile_commit(&of);
}
