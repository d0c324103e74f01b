// SPDX-License-Identifier: MIT
/*
 * kfsim ynl-gen: the YNL generator (same code and options as the kfsim-ynl-gen program).
 */
#include "cli.h"
#include "ynl/ynl_gen_cli.h"

const struct kfsim_cli_command kfsim_cmd_ynl_gen = {
	.name = "ynl-gen",
	.summary = "generate C from YNL netlink specs (uapi, kernel policies, user put/parse)",
	.spec = &ynl_gen_spec,
};
