// SPDX-License-Identifier: MIT
/*
 * A plca sweep point as a record and back (cli_plca_record.h): every member of struct
 * plca_sweep_point and struct plca_sim_report is a row of the tables below
 * (tests/grid/test_records.c checks that they cover the structs byte for byte).
 */
#include <stddef.h>

#include <kfsim/kernel.h>
#include "cli_plca_record.h"

#define REP(m, k, ...) KFSIM_REC_FIELD(struct plca_sim_report, m, k, __VA_ARGS__)
static const struct kfsim_rec_field report_fields[] = {
	REP(now_ns, KFSIM_REC_U64),
	REP(events, KFSIM_REC_U64),
	REP(cycles, KFSIM_REC_U64),
	REP(throughput_mbps, KFSIM_REC_DOUBLE),
	REP(goodput_mbps, KFSIM_REC_DOUBLE),
	REP(utilisation, KFSIM_REC_DOUBLE),
	REP(lat_mean_ns, KFSIM_REC_DOUBLE),
	REP(lat_p99_ns, KFSIM_REC_U64),
	REP(lat_max_ns, KFSIM_REC_U64),
	REP(jain, KFSIM_REC_DOUBLE),
	REP(collisions, KFSIM_REC_U64),
	REP(phys_collisions, KFSIM_REC_U64),
	REP(misconfig, KFSIM_REC_UINT),
};
static const struct kfsim_rec_table report_table =
	KFSIM_REC_TABLE(struct plca_sim_report, report_fields);

#define POINT(m, k, ...) KFSIM_REC_FIELD(struct plca_sweep_point, m, k, __VA_ARGS__)
static const struct kfsim_rec_field sweep_point_fields[] = {
	POINT(senders, KFSIM_REC_UINT, .max = PLCA_SIM_MAX_NODES),
	/* an enum: unsigned int's size (checked by the table's check) */
	POINT(mode, KFSIM_REC_UINT, .max = PLCA_SIM_MODE_MIXED),
	POINT(rep, KFSIM_REC_STRUCT, .sub = &report_table),
};
const struct kfsim_rec_table kfsim_plca_sweep_point_table =
	KFSIM_REC_TABLE(struct plca_sweep_point, sweep_point_fields);

