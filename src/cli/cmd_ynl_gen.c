// SPDX-License-Identifier: MIT
/*
 * kfsim ynl-gen: the YNL generator (same code and options as the kfsim-ynl-gen program).
 */
#include <kfsim/ynl_gen.h>
#include "cli.h"

static int ynl_gen_run(int argc, char **argv)
{
	return kfsim_ynl_gen_main("kfsim ynl-gen", argc, argv);
}

const struct kfsim_cli_command kfsim_cmd_ynl_gen = {
	.name = "ynl-gen",
	.summary = "generate C from YNL netlink specs (uapi, kernel policies, user put/parse)",
	.run = ynl_gen_run,
};
