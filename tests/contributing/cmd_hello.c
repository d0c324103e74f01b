// SPDX-License-Identifier: MIT
/*
 * An example command written exactly as CONTRIBUTING.md ("A command") tells a newcomer: copied
 * to src/cli/cmd_hello.c of a scratch tree by check_guide.sh, it must build and run as
 * `kfsim hello` with nothing else edited.
 */
#include <stddef.h>
#include <stdio.h>

#include <kfsim/kernel.h>
#include "cli.h"

struct hello_opts {
	bool json;
};

static int hello_run(void *opts, const struct kfsim_cli_args *args)
{
	const struct hello_opts *o = opts;

	if (o->json)
		printf("{\"hello\": \"world\"}\n");
	else
		printf("hello, world\n");
	return KFSIM_EXIT_OK;
}

static const struct kfsim_opt hello_opts_table[] = {
	{ "json", KFSIM_OPT_FLAG, offsetof(struct hello_opts, json), NULL, "print JSON" },
};

static const struct kfsim_cli_spec hello_spec = {
	.name = "hello",
	.usage = "kfsim hello [--json]",
	.about = "Say hello: the guide's example command.",
	.opts = hello_opts_table,
	.nr_opts = ARRAY_SIZE(hello_opts_table),
	.opts_size = sizeof(struct hello_opts),
	.run = hello_run,
};

const struct kfsim_cli_command kfsim_cmd_hello = {
	.name = "hello",
	.summary = "the guide's example command",
	.spec = &hello_spec,
};
