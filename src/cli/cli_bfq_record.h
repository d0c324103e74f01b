/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_BFQ_RECORD_H
#define KFSIM_CLI_BFQ_RECORD_H

/*
 * A point of `kfsim bfq compare` and `kfsim bfq ablate` (one run's struct kfsim_bfq_sim_result)
 * as a record of a slice's partial file, and back (cli_record.h): one table of the result's
 * fields, walked to write the record and to read it.
 */
#include <stddef.h>
#include <kfsim/bfq_sim.h>
#include "cli_record.h"

/* struct kfsim_bfq_sim_result's fields, every one of them (those left out with their reason) */
extern const struct kfsim_rec_table kfsim_bfq_result_table;

/* @res as a record (free() it), or NULL without memory. */
char *kfsim_bfq_result_record(const struct kfsim_bfq_sim_result *res);

/*
 * @rec back into @res: 0, or -EINVAL with the damaged field in @why; -ENOMEM.  What it allocated
 * (the jobs, their steady-state samples) kfsim_bfq_result_release() frees.
 */
int kfsim_bfq_result_unrecord(const char *rec, struct kfsim_bfq_sim_result *res, char *why,
			      size_t why_size);
void kfsim_bfq_result_release(struct kfsim_bfq_sim_result *res);

#endif /* KFSIM_CLI_BFQ_RECORD_H */
