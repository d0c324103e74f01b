// SPDX-License-Identifier: MIT
/*
 * kfsim playground --out DIR: write the playground, one self-contained page (DIR/playground.html)
 * that runs kfsim itself, compiled to WebAssembly, in the browser: the red-black tree, the BPF
 * graph collections, PLCA against CSMA/CD and BFQ on a dual-actuator disk, each panel driven by
 * the same commands as this program (src/playground/ has the page; cmake/kfsim_wasm.cmake builds
 * the module and puts the page into this program: cli_playground.c).  The page needs no network
 * and no server: it opens from file://.
 *
 * A build without -DKFSIM_WASM=ON has no page: the command says so and fails.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include <kfsim/kernel.h>
#include "cli.h"
#include "cli_playground.h"

struct playground_opts {
	const char *out_dir;
};

static void playground_defaults(void *opts, unsigned int verb)
{
	*(struct playground_opts *)opts = (struct playground_opts){ .out_dir = "." };
}

static const struct kfsim_opt playground_opts_table[] = {
	{ "out", KFSIM_OPT_STRING, offsetof(struct playground_opts, out_dir), "DIR",
	  "where playground.html goes (created if missing)" },
};

static int playground_main(void *opts, const struct kfsim_cli_args *args)
{
	const struct playground_opts *o = opts;
	char path[4096];
	int ret = kfsim_playground_write(o->out_dir, path, sizeof(path));

	if (ret == -EOPNOTSUPP)
		return kfsim_cli_fail("playground", ret,
				      "this kfsim was built without the WebAssembly playground "
				      "(configure with -DKFSIM_WASM=ON, which needs emscripten)");
	if (ret)
		return kfsim_cli_fail("playground", ret, "cannot write '%s/%s'", o->out_dir,
				      KFSIM_PLAYGROUND_FILE);
	printf("%s\n", path);
	return KFSIM_EXIT_OK;
}

static const struct kfsim_cli_spec playground_spec = {
	.name = "playground",
	.usage = "kfsim playground [--out DIR]",
	.about = "Write DIR/playground.html: kfsim itself, compiled to WebAssembly, in one page\n"
		 "that opens from file:// with no network and no server.  Four panels run the\n"
		 "same commands as this program: a kernel red-black tree step by step, the BPF\n"
		 "graph collections call by call, PLCA against CSMA/CD, and BFQ on a\n"
		 "dual-actuator disk (6.2 against 6.3).  Prints the file's path.",
	.opts = playground_opts_table,
	.nr_opts = ARRAY_SIZE(playground_opts_table),
	.defaults = playground_defaults,
	.opts_size = sizeof(struct playground_opts),
	.run = playground_main,
	.notes = "Exit status: 0 ok, 1 runtime failure (or a build without the page), 2 bad command\n"
		 "line.\n",
};

const struct kfsim_cli_command kfsim_cmd_playground = {
	.name = "playground",
	.summary = "write the WebAssembly playground page (kfsim in the browser)",
	.spec = &playground_spec,
};
