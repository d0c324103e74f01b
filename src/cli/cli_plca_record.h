/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_PLCA_RECORD_H
#define KFSIM_CLI_PLCA_RECORD_H

/* A point of `kfsim plca sweep` as a record of a slice's partial file: its table of fields. */
#include <kfsim/plca_sim.h>
#include "cli_record.h"

/* struct plca_sweep_point's fields, every one of them (cli_record.h) */
extern const struct kfsim_rec_table kfsim_plca_sweep_point_table;

#endif /* KFSIM_CLI_PLCA_RECORD_H */
