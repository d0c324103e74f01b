/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_YNL_GEN_CLI_H
#define KFSIM_YNL_GEN_CLI_H

/*
 * The generator's command line as a spec (src/cliopts/cliopts.h): the kfsim program's
 * "ynl-gen" row carries it; kfsim-ynl-gen and kfsim_ynl_gen_main() run it under their own name.
 */
#include "cliopts/cliopts.h"

extern const struct kfsim_cli_spec ynl_gen_spec;

#endif /* KFSIM_YNL_GEN_CLI_H */
