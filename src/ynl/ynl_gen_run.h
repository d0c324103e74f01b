/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_YNL_GEN_RUN_H
#define KFSIM_YNL_GEN_RUN_H
/*
 * One generator run over several specs (ynl_gen.c), for the command line (ynl_gen_cli.c): the
 * library part of "kfsim-ynl-gen SPEC..." without any of its argument handling.
 */
#include <stddef.h>

#define YNL_GEN_IDENT_MAX 256

/**
 * ynl_gen_run_specs() - generate @modes for every spec of @specs into @out_dir, all or nothing
 * @idents: receives each spec's family identifier (the files are "<out_dir>/<ident>-uapi.h"...)
 *
 * Creates @out_dir (and its parents) when missing, loads and emits every spec in memory, then
 * writes all files together.  Return: 0, or the -errno of the first failure with the reason in
 * @err ("file:line:column: message" for a bad spec); no file is written then.
 */
int ynl_gen_run_specs(char *const *specs, int nr_specs, const char *out_dir, unsigned int modes,
		      char (*idents)[YNL_GEN_IDENT_MAX], char *err, size_t err_size);

#endif /* KFSIM_YNL_GEN_RUN_H */
