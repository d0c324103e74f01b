// SPDX-License-Identifier: MIT
/*
 * kfsim plca sim|sweep: the 10BASE-T1S bus simulator on the command line.  `sim` runs one
 * segment and prints a table per node (or --json, or a Perfetto --trace); `sweep` compares PLCA
 * with CSMA/CD for 1..N transmitting nodes and writes CSV and SVG plots.  Thin over
 * <kfsim/plca_sim.h>: options become a struct plca_sim_segment.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/kernel.h>
#include <kfsim/outfile.h>
#include <kfsim/plca.h>
#include <kfsim/plca_sim.h>
#include <kfsim/slab.h>
#include <kfsim/trace_event.h>
#include <kfsim/cmdline.h>
#include "cli.h"
#include "cli_grid.h"
#include "cli_plca_record.h"

#define CMD "plca"

struct plca_opts {
	struct plca_sim_segment seg;
	u64 duration_ns;
	u64 seed;
	unsigned int nodes;
	unsigned int mode;
	bool json;
	bool force;
	bool quiet;
	u64 trace_max;
	const char *trace;
	const char *csv;
	const char *svg_prefix;
	const char *config; /* build the segment from these PHYs ("builtin": kfsim ethtool's) */
	const char *dev;    /* ... the segment of this device */
	struct kfsim_grid_opts grid; /* sweep: --shard, --jobs (cli_grid.h) */
};

static int parse_load(void *opts, const char *text, char *why, size_t why_size)
{
	struct plca_sim_segment *seg = &((struct plca_opts *)opts)->seg;
	const char *colon = strchr(text, ':');
	double value;
	char *end;

	if (!strcmp(text, "saturated")) {
		seg->load = PLCA_SIM_LOAD_SATURATED;
		return 0;
	}
	if (colon && !strncmp(text, "poisson:", 8))
		seg->load = PLCA_SIM_LOAD_POISSON;
	else if (colon && !strncmp(text, "periodic:", 9))
		seg->load = PLCA_SIM_LOAD_PERIODIC;
	else
		goto bad;
	value = strtod(colon + 1, &end);
	if (end == colon + 1 || *end || strpbrk(colon + 1, "xX") || !(value >= 0.1 && value <= 1e9))
		goto bad;
	seg->interval_us = value;
	return 0;
bad:
	snprintf(why, why_size, "expected saturated, poisson:MEAN_US or periodic:US "
		 "(0.1 to 1e9 microseconds)");
	return -EINVAL;
}

static int parse_bytes(const char *text, u64 min, u64 *out)
{
	char *end;
	unsigned long long v;

	if (!*text || *text < '0' || *text > '9')
		return -EINVAL;
	v = strtoull(text, &end, 10);
	if (*end || v < min || v > PLCA_SIM_MAX_PAYLOAD)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_frame(void *opts, const char *text, char *why, size_t why_size)
{
	struct plca_sim_segment *seg = &((struct plca_opts *)opts)->seg;
	char buf[64];
	char *dash;
	u64 lo, hi;

	if (strlen(text) >= sizeof(buf))
		goto bad;
	strcpy(buf, text);
	dash = strchr(buf, '-');
	if (dash == buf)
		goto bad;
	if (dash)
		*dash = '\0';
	if (parse_bytes(buf, 0, &lo))
		goto bad;
	hi = lo;
	if (dash && parse_bytes(dash + 1, lo, &hi))
		goto bad;
	seg->payload_min = (u32)lo;
	seg->payload_max = (u32)hi;
	return 0;
bad:
	snprintf(why, why_size, "expected BYTES or MIN-MAX (0..1500, MIN <= MAX)");
	return -EINVAL;
}

static void format_load(const void *opts, char *buf, size_t size)
{
	const struct plca_sim_segment *seg = &((const struct plca_opts *)opts)->seg;

	if (seg->load == PLCA_SIM_LOAD_SATURATED)
		snprintf(buf, size, "saturated");
	else
		snprintf(buf, size, "%s:%g", seg->load == PLCA_SIM_LOAD_POISSON ? "poisson" :
					     "periodic", seg->interval_us);
}

static void format_frame(const void *opts, char *buf, size_t size)
{
	const struct plca_sim_segment *seg = &((const struct plca_opts *)opts)->seg;

	if (seg->payload_min == seg->payload_max)
		snprintf(buf, size, "%u", seg->payload_min);
	else
		snprintf(buf, size, "%u-%u", seg->payload_min, seg->payload_max);
}

enum { VERB_SIM, VERB_SWEEP };
#define SIM_ONLY (1u << VERB_SIM)
#define SWEEP_ONLY (1u << VERB_SWEEP)
#define O(field) offsetof(struct plca_opts, field)

/*
 * The run budget, in simulated events: measured about 5e4 events per simulated second on a
 * saturated segment (kfsim plca sim --duration 10s --json: "events"), times the runs (a sweep
 * makes two per node count), plus one event per generated frame: a Poisson or periodic load
 * faster than the wire takes frames still arrives, each arrival an event, queued or dropped
 * (--nodes 32 --load poisson:0.1 --duration 100ms: 32,018,624 events for 320 million
 * arrivals a second, 2026-12-07).  Beyond 2e7, about ten seconds here (kfsim plca sim
 * --duration 100s: 4,989,989 events in 2.9 s, 2026-12-03, 2 shared vCPUs), a run asks for
 * --force.
 */
#define PLCA_EVENTS_PER_SIM_S 5e4
#define PLCA_BUDGET_EVENTS 2e7

static const char *const mode_names[] = { "plca", "csma", "mixed", NULL };

static int plca_sim_verb(void *opts, const struct kfsim_cli_args *args);
static int plca_sweep_verb(void *opts, const struct kfsim_cli_args *args);

static const struct kfsim_cli_verb plca_verbs[] = {
	[VERB_SIM] = { "sim", "one segment: throughput, latency, collisions and TO use per node",
		       .run = plca_sim_verb },
	[VERB_SWEEP] = { "sweep", "PLCA against CSMA/CD for 1..N transmitting nodes (CSV, SVG plots)",
			 .run = plca_sweep_verb },
};

static const struct kfsim_opt plca_opts_table[] = {
	{ "nodes", KFSIM_OPT_UINT, O(nodes), "N", "nodes on the segment, 1..255",
	  .min = 1, .max = PLCA_SIM_MAX_NODES },
	{ "mode", KFSIM_OPT_CHOICE, O(mode), "M",
	  "plca, csma or mixed (first half PLCA)", .choices = mode_names },
	{ "to-tmr", KFSIM_OPT_INT, O(seg.to_tmr), "BT",
	  "transmit opportunity timer, 0..255 bit times", .max = 255 },
	{ "burst-cnt", KFSIM_OPT_INT, O(seg.burst_cnt), "N",
	  "extra frames per TO, 0..255", .max = 255 },
	{ "burst-tmr", KFSIM_OPT_INT, O(seg.burst_tmr), "BT",
	  "burst timer, 0..255 bit times", .max = 255 },
	{ "load", KFSIM_OPT_CALL, 0, "L",
	  "saturated, poisson:MEAN_US or periodic:US", .call = parse_load,
	  .format = format_load },
	{ "frame", KFSIM_OPT_CALL, 0, "B|MIN-MAX", "MAC payload bytes, 0..1500",
	  .call = parse_frame, .format = format_frame },
	{ "length", KFSIM_OPT_DOUBLE, O(seg.length_m), "M",
	  "cable length in metres, 0..25", .dmin = 0, .dmax = 25 },
	{ "duration", KFSIM_OPT_DURATION, O(duration_ns), "TIME",
	  "simulated time per run, 1us..600s\n"
	  "(a bare number is milliseconds)",
	  .min = NSEC_PER_USEC, .max = 600ULL * NSEC_PER_SEC, .unit = NSEC_PER_MSEC },
	{ "seed", KFSIM_OPT_U64, O(seed), "S", "random seed", .max = UINT64_MAX },
	{ "json", KFSIM_OPT_FLAG, O(json), NULL, "one JSON document on stdout" },
	{ "trace", KFSIM_OPT_OUTPUT, O(trace), "FILE",
	  "Perfetto/Chrome trace of beacons, TOs, frames, collisions", .verbs = SIM_ONLY },
	{ "trace-max", KFSIM_OPT_SIZE, O(trace_max), "SIZE",
	  "largest trace file; later events are dropped and the\n"
	  "window actually traced is reported",
	  .min = 4096, .max = 1ULL << 40, .verbs = SIM_ONLY },
	{ "config", KFSIM_OPT_INPUT, O(config), "FILE",
	  "nodes and PLCA settings from the PHYs of a 'kfsim ethtool\n"
	  "--config' file, or 'builtin' for kfsim ethtool's built-in\n"
	  "devices; replaces --nodes, --mode, --to-tmr, --burst-*",
	  .verbs = SIM_ONLY },
	{ "dev", KFSIM_OPT_STRING, O(dev), "NAME",
	  "(with --config) the segment of this device's PHY", .verbs = SIM_ONLY },
	{ "csv", KFSIM_OPT_OUTPUT, O(csv), "FILE", "results as CSV", .verbs = SWEEP_ONLY },
	{ "svg", KFSIM_OPT_OUTPUT, O(svg_prefix), "PREFIX",
	  "write PREFIX-throughput.svg and PREFIX-latency.svg", .verbs = SWEEP_ONLY },
	{ "svg-prefix", KFSIM_OPT_OUTPUT, O(svg_prefix), "PREFIX", NULL, .alias_of = "svg",
	  .verbs = SWEEP_ONLY },
	{ "force", KFSIM_OPT_FLAG, O(force), NULL,
	  "run even when the estimated cost is beyond the budget (below)" },
	{ "quiet", KFSIM_OPT_FLAG, O(quiet), NULL, "no progress line on stderr" },
	KFSIM_GRID_OPT_ROWS(O(grid), SWEEP_ONLY),
};

/* The library's runs (<kfsim/plca_sim.h>): a sweep's runs are shorter than sim's one. */
static void plca_defaults(void *opts, unsigned int verb)
{
	struct plca_opts *o = opts;
	struct plca_sim_bus_config bus;

	if (verb == VERB_SWEEP)
		kfsim_plca_sweep_config_default(&bus);
	else
		kfsim_plca_bus_config_default(&bus);
	*o = (struct plca_opts){
		.seg = bus.seg,
		.duration_ns = bus.duration_ns,
		.seed = bus.seed,
		.nodes = bus.seg.nr_nodes,
		.mode = bus.seg.mode,
		.trace_max = KFSIM_TRACE_MAX_DEFAULT,
	};
}

static const struct kfsim_cli_spec plca_spec = {
	.name = CMD,
	.usage = "kfsim plca sim [options] [--json] [--trace FILE] [--config FILE [--dev NAME]]\n"
		 "       kfsim plca sweep [options] [--json] [--csv FILE] [--svg PREFIX]",
	.about = "Simulate a 10BASE-T1S multidrop segment (IEEE 802.3cg): PLCA (Clause 148) over\n"
		 "CSMA/CD, or plain CSMA/CD.  'sim' prints throughput, latency, collisions,\n"
		 "deferrals and transmit-opportunity use per node; 'sweep' compares PLCA with\n"
		 "CSMA/CD for 1..N transmitting nodes.",
	.verbs = plca_verbs,
	.nr_verbs = ARRAY_SIZE(plca_verbs),
	.opts = plca_opts_table,
	.nr_opts = ARRAY_SIZE(plca_opts_table),
	.defaults = plca_defaults,
	.opts_size = sizeof(struct plca_opts),
	.notes = "Times take units: 500ms, 2s, 10us; a bare --duration is milliseconds.\n"
		 "Budget: a run estimated beyond 2e7 simulated events (5e4 per simulated second,\n"
		 "times the runs: two per node count in a sweep; plus one per frame a Poisson\n"
		 "or periodic load generates, sent or dropped) asks for --force.\n"
		 "Progress: sim and sweep draw a progress line on stderr when it is a terminal\n"
		 "(--quiet: none).  Output files are replaced only when complete; the two\n"
		 "--svg plots are written both or neither.\n"
		 "Exit status: 0 ok, 1 runtime failure, 2 bad command line.\n",
};

/*
 * The budget of @runs runs whose senders add up to @senders: the cycle's events, and one per
 * frame the load generates.  Exit status, or 0.
 */
static int plca_budget(const struct plca_opts *o, double runs, double senders)
{
	double per_s = PLCA_EVENTS_PER_SIM_S * runs;

	if (o->seg.load != PLCA_SIM_LOAD_SATURATED)
		per_s += senders * 1e6 / o->seg.interval_us;
	return kfsim_cli_budget(CMD, (double)o->duration_ns / 1e9 * per_s, PLCA_BUDGET_EVENTS,
				"simulated events", o->force);
}

/* Cross-option rules and the budget: exit status, or 0. */
static int check_opts(struct plca_opts *o, const struct kfsim_cli_args *args)
{
	static const char *const segment_opts[] = { "nodes", "mode", "to-tmr", "burst-cnt",
						    "burst-tmr" };
	double runs = args->verb == VERB_SWEEP ? 2.0 * o->nodes : 1;

	for (size_t i = 0; o->config && i < ARRAY_SIZE(segment_opts); i++)
		if (kfsim_cli_given(&plca_spec, args, segment_opts[i]))
			return kfsim_cli_usage(CMD, "--%s does not go with --config: the PHYs' "
					       "settings are used", segment_opts[i]);
	if (o->dev && !o->config)
		return kfsim_cli_usage(CMD, "--dev needs --config");
	if (o->svg_prefix) {
		char path[PATH_MAX];

		/* the longer of the two names must fit, or nothing is written */
		if (snprintf(path, sizeof(path), "%s-throughput.svg", o->svg_prefix) >=
			    (int)sizeof(path) || kfsim_outfile_check_path(path))
			return kfsim_cli_usage(CMD, "invalid value for --svg: '%.40s...-throughput.svg' "
					       "is too long a path (-ENAMETOOLONG)", o->svg_prefix);
	}
	o->seg.nr_nodes = o->nodes;
	o->seg.mode = (enum plca_sim_mode)o->mode;
	/* with --config the senders are the PHYs', counted once they are read (plca_sim_cmd()) */
	if (o->config)
		return plca_budget(o, 1, 0);
	if (args->verb == VERB_SWEEP)	/* 1 .. N senders, each count under both modes */
		return plca_budget(o, runs, (double)o->nodes * (o->nodes + 1));
	return plca_budget(o, 1, o->seg.nr_senders ? o->seg.nr_senders : o->nodes);
}

static const char *mode_text(enum plca_sim_mode mode)
{
	return mode == PLCA_SIM_MODE_PLCA ? "plca" : mode == PLCA_SIM_MODE_CSMA ? "csma" : "mixed";
}

static void json_config(struct kfsim_json *json, const struct plca_opts *o)
{
	kfsim_json_key(json, "config");
	kfsim_json_object_begin(json);
	kfsim_json_kv_uint(json, "nodes", o->seg.nr_nodes);
	if (o->config) {
		kfsim_json_kv_string(json, "from", o->config);
	} else {
		kfsim_json_kv_string(json, "mode", mode_text(o->seg.mode));
		kfsim_json_kv_int(json, "to_tmr", o->seg.to_tmr);
		kfsim_json_kv_int(json, "burst_cnt", o->seg.burst_cnt);
		kfsim_json_kv_int(json, "burst_tmr", o->seg.burst_tmr);
	}
	kfsim_json_kv_string(json, "load",
			     o->seg.load == PLCA_SIM_LOAD_SATURATED ? "saturated"
			     : o->seg.load == PLCA_SIM_LOAD_POISSON ? "poisson"
								    : "periodic");
	if (o->seg.load != PLCA_SIM_LOAD_SATURATED)
		kfsim_json_kv_double(json, "interval_us", o->seg.interval_us);
	kfsim_json_kv_uint(json, "payload_min", o->seg.payload_min);
	kfsim_json_kv_uint(json, "payload_max", o->seg.payload_max);
	kfsim_json_kv_double(json, "length_m", o->seg.length_m);
	kfsim_json_kv_double(json, "duration_ms", (double)o->duration_ns / 1e6);
	kfsim_json_kv_uint(json, "seed", o->seed);
	kfsim_json_object_end(json);
}

static void json_total(struct kfsim_json *json, const struct plca_sim_report *r)
{
	kfsim_json_kv_double(json, "throughput_mbps", r->throughput_mbps);
	kfsim_json_kv_double(json, "goodput_mbps", r->goodput_mbps);
	kfsim_json_kv_double(json, "utilisation", r->utilisation);
	kfsim_json_kv_double(json, "lat_mean_us", r->lat_mean_ns / 1e3);
	kfsim_json_kv_double(json, "lat_p99_us", (double)r->lat_p99_ns / 1e3);
	kfsim_json_kv_double(json, "lat_max_us", (double)r->lat_max_ns / 1e3);
	kfsim_json_kv_double(json, "jain", r->jain);
	kfsim_json_kv_uint(json, "collisions", r->collisions);
	kfsim_json_kv_uint(json, "phys_collisions", r->phys_collisions);
	kfsim_json_kv_uint(json, "cycles", r->cycles);
	kfsim_json_kv_uint(json, "events", r->events);
}

static double node_mbps(const struct plca_sim_node_stats *st, u64 now)
{
	return now ? (double)st->frame_bytes * 8e3 / (double)now : 0;
}

static void json_sim(struct plca_sim *sim, const struct plca_opts *o,
		     const struct plca_sim_report *rep, char (*names)[16])
{
	struct kfsim_json json;

	kfsim_json_init(&json, stdout, true);
	kfsim_json_object_begin(&json);
	json_config(&json, o);
	kfsim_json_key(&json, "nodes");
	kfsim_json_array_begin(&json);
	for (u32 i = 0; i < kfsim_plca_sim_nr_nodes(sim); i++) {
		struct plca_sim_node_stats st;
		struct phy_plca_cfg cfg;

		kfsim_plca_sim_node_stats(sim, i, &st);
		kfsim_plca_sim_get_plca_cfg(sim, i, &cfg);
		kfsim_json_object_begin(&json);
		kfsim_json_kv_uint(&json, "node", i);
		if (names)
			kfsim_json_kv_string(&json, "dev", names[i]);
		kfsim_json_kv_bool(&json, "plca", cfg.enabled && cfg.node_id < 255);
		kfsim_json_kv_int(&json, "node_id", cfg.node_id);
		kfsim_json_kv_double(&json, "throughput_mbps", node_mbps(&st, rep->now_ns));
		kfsim_json_kv_double(&json, "lat_mean_us", st.lat_mean_ns / 1e3);
		kfsim_json_kv_double(&json, "lat_p99_us", (double)st.lat_p99_ns / 1e3);
		kfsim_json_kv_double(&json, "lat_max_us", (double)st.lat_max_ns / 1e3);
		kfsim_json_kv_double(&json, "access_mean_us", st.access_mean_ns / 1e3);
		kfsim_json_kv_uint(&json, "generated", st.generated);
		kfsim_json_kv_uint(&json, "delivered", st.delivered);
		kfsim_json_kv_uint(&json, "dropped_attempts", st.dropped_attempts);
		kfsim_json_kv_uint(&json, "dropped_queue", st.dropped_queue);
		kfsim_json_kv_uint(&json, "lost_fault", st.lost_fault);
		kfsim_json_kv_uint(&json, "queued", st.queued);
		kfsim_json_kv_uint(&json, "collisions", st.collisions);
		kfsim_json_kv_uint(&json, "phys_collisions", st.phys_collisions);
		kfsim_json_kv_uint(&json, "logical_collisions", st.logical_collisions);
		kfsim_json_kv_uint(&json, "deferrals", st.deferrals);
		kfsim_json_kv_uint(&json, "tos", st.tos);
		kfsim_json_kv_uint(&json, "tos_used", st.tos_used);
		kfsim_json_kv_bool(&json, "plca_status", st.plca_status);
		kfsim_json_object_end(&json);
	}
	kfsim_json_array_end(&json);
	kfsim_json_key(&json, "total");
	kfsim_json_object_begin(&json);
	json_total(&json, rep);
	kfsim_json_object_end(&json);
	kfsim_json_key(&json, "misconfig");
	kfsim_json_array_begin(&json);
	for (u32 bit = 0; bit < 32; bit++) {
		if (rep->misconfig & BIT(bit))
			kfsim_json_string(&json, kfsim_plca_misconf_name(BIT(bit)));
	}
	kfsim_json_array_end(&json);
	kfsim_json_object_end(&json);
	kfsim_json_finish(&json);
}

static void print_sim(struct plca_sim *sim, const struct plca_opts *o,
		      const struct plca_sim_report *rep, char (*names)[16])
{
	if (names)
		printf("10BASE-T1S segment: %u nodes from %s (PLCA settings as their PHYs report "
		       "them), payload %u-%u B, %g ms, seed %llu\n\n",
		       o->seg.nr_nodes,
		       strcmp(o->config, "builtin") ? o->config
						    : "kfsim ethtool's built-in devices",
		       o->seg.payload_min, o->seg.payload_max, (double)o->duration_ns / 1e6,
		       (unsigned long long)o->seed);
	else
		printf("10BASE-T1S segment: %u nodes, %s, to_tmr %d BT, burst %d/%d BT, payload "
		       "%u-%u B, %g ms, seed %llu\n\n",
		       o->seg.nr_nodes, mode_text(o->seg.mode), o->seg.to_tmr, o->seg.burst_cnt,
		       o->seg.burst_tmr, o->seg.payload_min, o->seg.payload_max,
		       (double)o->duration_ns / 1e6, (unsigned long long)o->seed);
	printf("%snode  id   Mb/s   lat mean us    p99 us    max us  collisions (phys/logic)  "
	       "defer   TO use  sent/dropped/queued\n",
	       names ? "dev   " : "");
	for (u32 i = 0; i < kfsim_plca_sim_nr_nodes(sim); i++) {
		struct plca_sim_node_stats st;
		struct phy_plca_cfg cfg;
		char id[16], to_use[24];

		kfsim_plca_sim_node_stats(sim, i, &st);
		kfsim_plca_sim_get_plca_cfg(sim, i, &cfg);
		if (cfg.enabled && cfg.node_id < 255)
			snprintf(id, sizeof(id), "%d", cfg.node_id);
		else
			snprintf(id, sizeof(id), "csma");
		if (names)
			printf("%-6s", names[i]);
		if (st.tos)
			snprintf(to_use, sizeof(to_use), "%5.1f %%", 100.0 * st.tos_used / st.tos);
		else
			snprintf(to_use, sizeof(to_use), "      -");
		printf("%4u %4s %6.3f %12.1f %9.1f %9.1f %11llu (%llu/%llu) %6llu  %s  "
		       "%llu/%llu/%llu\n",
		       i, id, node_mbps(&st, rep->now_ns), st.lat_mean_ns / 1e3,
		       st.lat_p99_ns / 1e3, st.lat_max_ns / 1e3, (unsigned long long)st.collisions,
		       (unsigned long long)st.phys_collisions,
		       (unsigned long long)st.logical_collisions, (unsigned long long)st.deferrals,
		       to_use, (unsigned long long)st.delivered,
		       (unsigned long long)(st.dropped_attempts + st.dropped_queue + st.lost_fault),
		       (unsigned long long)st.queued);
	}
	printf("%stotal     %6.3f %12.1f %9.1f %9.1f %11llu\n", names ? "      " : "",
	       rep->throughput_mbps, rep->lat_mean_ns / 1e3, rep->lat_p99_ns / 1e3,
	       rep->lat_max_ns / 1e3, (unsigned long long)rep->collisions);
	printf("\ngoodput %.3f Mb/s, wire carrying frames %.1f %%, Jain's fairness %.4f, "
	       "%llu PLCA cycles, %llu events\n",
	       rep->goodput_mbps, rep->utilisation * 100, rep->jain,
	       (unsigned long long)rep->cycles, (unsigned long long)rep->events);
	for (u32 bit = 0; bit < 32; bit++) {
		if (rep->misconfig & BIT(bit))
			printf("misconfiguration: %s\n", kfsim_plca_misconf_name(BIT(bit)));
	}
}

/* The nodes from the PHYs of a kfsim ethtool configuration, with the command line's load. */
static int nodes_from_config(const struct plca_opts *o, struct plca_sim_node_cfg *nodes,
			     char (*names)[16], int *status)
{
	struct kfsim_plca_net *net;
	char err[1024] = "";
	int nr;

	if (!strcmp(o->config, "builtin"))
		net = kfsim_plca_net_default();
	else
		net = kfsim_plca_net_load(o->config, err, sizeof(err));
	if (IS_ERR_OR_NULL(net)) {
		*status = kfsim_cli_fail(CMD, net ? (int)PTR_ERR(net) : -ENOMEM, "%s: %s",
					 o->config, *err ? err : "cannot build the devices");
		return -1;
	}
	nr = kfsim_plca_sim_nodes_from_net(net, o->dev, nodes, PLCA_SIM_MAX_NODES, names);
	/* the library's code and whether a device was named say which case it is */
	if (nr == -E2BIG)
		*status = kfsim_cli_fail(CMD, nr, "%s: more than %u PLCA PHYs on the segment",
					 o->config, PLCA_SIM_MAX_NODES);
	else if (nr == -EOPNOTSUPP)
		*status = kfsim_cli_fail(CMD, nr, "%s: %s has no PHY with PLCA settings", o->config,
					 o->dev);
	else if (nr < 0 && o->dev)
		*status = kfsim_cli_fail(CMD, nr, "%s: no device %s", o->config, o->dev);
	else if (nr < 0)
		*status = kfsim_cli_fail(CMD, nr, "%s: no device has a PHY with PLCA settings",
					 o->config);
	kfsim_plca_net_destroy(net);
	if (nr < 0)
		return -1;
	for (int i = 0; i < nr; i++) {
		nodes[i].position_m = nr > 1 ? o->seg.length_m * i / (nr - 1) : 0;
		nodes[i].load = o->seg.load;
		nodes[i].interval_us = o->seg.interval_us;
		nodes[i].payload_min = o->seg.payload_min;
		nodes[i].payload_max = o->seg.payload_max;
	}
	return nr;
}

/* Run to the end; in 100 slices with a progress line when someone watches a terminal. */
static int run_with_progress(struct plca_sim *sim, const struct plca_opts *o)
{
	struct kfsim_cli_progress progress;
	int ret = 0;

	kfsim_cli_progress_begin(&progress, "kfsim plca sim", o->quiet);
	if (progress.on) {
		for (int slice = 1; slice < 100 && !ret; slice++) {
			u64 until = o->duration_ns / 100 * (u64)slice;

			ret = kfsim_plca_sim_run_until(sim, until);
			kfsim_cli_progress_update(&progress, slice / 100.0, (double)until / 1e9);
		}
	}
	if (!ret)
		ret = kfsim_plca_sim_run_until(sim, o->duration_ns);
	kfsim_cli_progress_end(&progress);
	return ret;
}

static int plca_sim_cmd(struct plca_opts *o)
{
	struct plca_sim_node_cfg *nodes = kcalloc(PLCA_SIM_MAX_NODES, sizeof(*nodes), GFP_KERNEL);
	char(*names)[16] = kcalloc(PLCA_SIM_MAX_NODES, sizeof(*names), GFP_KERNEL);
	struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = o->seg.nr_nodes, .seed = o->seed};
	struct plca_sim_report rep;
	struct kfsim_trace trace;
	struct plca_sim *sim;
	int ret, status;

	if (!nodes || !names) {
		kfree(nodes);
		kfree(names);
		return kfsim_cli_fail(CMD, -ENOMEM, "no memory for %u nodes", o->seg.nr_nodes);
	}
	if (o->config) {
		ret = nodes_from_config(o, nodes, names, &status);
		if (ret < 0) {
			kfree(nodes);
			kfree(names);
			return status;
		}
		cfg.nr_nodes = o->seg.nr_nodes = (u32)ret;
		ret = 0;
		/* every PHY's node carries the load */
		status = plca_budget(o, 1, cfg.nr_nodes);
		if (status) {
			kfree(nodes);
			kfree(names);
			return status;
		}
	} else {
		ret = kfsim_plca_segment_nodes(&o->seg, nodes);
	}
	sim = ret ? ERR_PTR(ret) : kfsim_plca_sim_create(&cfg);
	kfree(nodes);
	if (IS_ERR(sim)) {
		kfree(names);
		return kfsim_cli_fail(CMD, (int)PTR_ERR(sim), "cannot build the segment");
	}
	if (o->trace) {
		ret = kfsim_trace_open(&trace, o->trace);
		if (ret) {
			kfsim_plca_sim_destroy(sim);
			kfree(names);
			return kfsim_cli_fail(CMD, ret, "cannot create trace file '%s'", o->trace);
		}
		kfsim_trace_set_max(&trace, o->trace_max);
		kfsim_plca_sim_set_trace(sim, &trace, 1);
	}
	ret = run_with_progress(sim, o);
	if (ret) {
		/* the run stopped short (its event queue out of memory): no figures for part of it */
		if (o->trace)
			kfsim_trace_abort(&trace);
		kfsim_plca_sim_destroy(sim);
		kfree(names);
		return kfsim_cli_fail(CMD, ret, "the simulation stopped before %llu ns",
				      (unsigned long long)o->duration_ns);
	}
	kfsim_plca_sim_report(sim, &rep);
	if (o->trace) {
		/* the trace is complete before any result is printed: a failure prints none */
		ret = kfsim_trace_close(&trace);
		if (ret) {
			kfsim_plca_sim_destroy(sim);
			kfree(names);
			return kfsim_cli_fail(CMD, ret, "writing trace file '%s' failed", o->trace);
		}
	}
	if (o->json)
		json_sim(sim, o, &rep, o->config ? names : NULL);
	else
		print_sim(sim, o, &rep, o->config ? names : NULL);
	kfsim_plca_sim_destroy(sim);
	kfree(names);
	if (o->trace && !o->json) {
		printf("trace written to %s (open it in ui.perfetto.dev)\n", o->trace);
		if (trace.nr_dropped)
			printf("trace capped at %llu bytes (--trace-max): %.3f ms to %.3f ms traced, "
			       "%lu later events dropped\n", (unsigned long long)trace.max_bytes,
			       trace.first_ts_us / 1e3, trace.last_ts_us / 1e3, trace.nr_dropped);
	}
	return KFSIM_EXIT_OK;
}

static void print_sweep(const struct plca_sweep_point *p, int nr)
{
	printf("senders  mode   Mb/s   lat mean us    p99 us     max us   Jain  collisions\n");
	for (int i = 0; i < nr; i++) {
		const struct plca_sim_report *r = &p[i].rep;

		printf("%7u  %-5s %6.3f %12.1f %9.1f %10.1f %6.4f %11llu\n", p[i].senders,
		       mode_text(p[i].mode), r->throughput_mbps, r->lat_mean_ns / 1e3,
		       r->lat_p99_ns / 1e3, r->lat_max_ns / 1e3, r->jain,
		       (unsigned long long)r->collisions);
	}
}

static void json_sweep(const struct plca_opts *o, const struct plca_sweep_point *p, int nr)
{
	struct kfsim_json json;

	kfsim_json_init(&json, stdout, true);
	kfsim_json_object_begin(&json);
	json_config(&json, o);
	kfsim_json_key(&json, "points");
	kfsim_json_array_begin(&json);
	for (int i = 0; i < nr; i++) {
		kfsim_json_object_begin(&json);
		kfsim_json_kv_uint(&json, "senders", p[i].senders);
		kfsim_json_kv_string(&json, "mode", mode_text(p[i].mode));
		json_total(&json, &p[i].rep);
		kfsim_json_object_end(&json);
	}
	kfsim_json_array_end(&json);
	kfsim_json_object_end(&json);
	kfsim_json_finish(&json);
}

struct sweep_progress {
	struct kfsim_cli_progress line;
	double run_s; /* simulated seconds per run */
};

static void on_sweep_progress(void *arg, u32 done, u32 total)
{
	struct sweep_progress *p = arg;

	kfsim_cli_progress_update(&p->line, (double)done / total, done * p->run_s);
}

/* A sweep point as a record of a partial result (cli_grid.h, cli_plca_record.c). */
static char *sweep_record(const struct plca_sweep_point *p)
{
	struct kfsim_rec rec;

	kfsim_rec_init(&rec);
	kfsim_rec_put_table(&rec, &kfsim_plca_sweep_point_table, p);
	return kfsim_rec_finish(&rec);
}

struct sweep_run {
	const struct plca_opts *o;
	struct kfsim_grid *grid;
	struct plca_sweep_point *points;
	struct sweep_progress *progress;
	bool shown;
};

/* Point @i of the sweep (grid order: 1 sender PLCA, 1 CSMA/CD, 2 PLCA, ...). */
static int sweep_point(void *ctx, u32 i)
{
	struct sweep_run *run = ctx;
	const struct plca_opts *o = run->o;
	char *rec;
	int ret;

	if (run->shown && i % 2 == 0)
		on_sweep_progress(run->progress, i, 2 * o->seg.nr_nodes);
	ret = kfsim_plca_sweep_point(&o->seg, o->duration_ns, o->seed, i, &run->points[i]);
	if (ret || run->grid->mode != KFSIM_GRID_SHARD)
		return ret;
	rec = sweep_record(&run->points[i]);
	ret = rec ? kfsim_grid_put(run->grid, i, rec) : -ENOMEM;
	free(rec);
	return ret;
}

/* The sweep's points: run (all, or a slice, on --jobs threads) or read back by kfsim merge. */
static int sweep_points(const struct plca_opts *o, struct kfsim_grid *grid,
			struct plca_sweep_point *points)
{
	u32 nr = 2 * o->seg.nr_nodes;
	unsigned int damaged = 0;
	struct sweep_progress progress;
	struct sweep_run run = { o, grid, points, &progress, false };
	int ret;

	kfsim_cli_progress_begin(&progress.line, "kfsim plca sweep",
				 o->quiet || kfsim_grid_threads(grid) > 1 ||
					 grid->mode == KFSIM_GRID_MERGE);
	progress.run_s = (double)o->duration_ns / 1e9;
	run.shown = progress.line.on;
	ret = kfsim_grid_run(grid, sweep_point, &run);
	kfsim_cli_progress_end(&progress.line);
	if (ret)
		return kfsim_cli_fail(CMD, ret, "sweep failed");
	/* every damaged record is told, with its file and line, before the merge is refused */
	for (u32 i = 0; grid->mode == KFSIM_GRID_MERGE && i < nr; i++) {
		char bad[256];

		if (kfsim_rec_get_table(kfsim_grid_record(grid, i), &kfsim_plca_sweep_point_table,
					&points[i], bad, sizeof(bad)))
			damaged += kfsim_grid_damaged(grid, i, bad);
	}
	if (damaged)
		return kfsim_cli_fail("merge", -EINVAL, "refused: %u damaged point record(s) in "
				      "the partial files; nothing written", damaged);
	return 0;
}

/*
 * The CSV and both plots are written to temporaries and renamed together (or none is): a sweep
 * whose outputs cannot all be written leaves every old one as it was.  Printed last: the files
 * are what a later run reads, stdout what a person reads.
 */
static int sweep_outputs(const struct plca_opts *o, const struct plca_sweep_point *points,
			 int nr)
{
	struct kfsim_outfile files[3], *group[3];
	size_t nr_files = 0;
	int ret = 0;

	if (o->csv) {
		ret = kfsim_outfile_open(&files[0], o->csv);
		if (ret)
			return kfsim_cli_fail(CMD, ret, "cannot write CSV file '%s'", o->csv);
		group[nr_files++] = &files[0];
		ret = kfsim_plca_sweep_csv(points, (u32)nr, files[0].file);
		if (!ret && fflush(files[0].file))
			ret = -EIO;	/* a device (/dev/full) fails here, named as the CSV */
		if (ret && files[0].err)
			ret = files[0].err; /* the write's own errno (-ENOSPC), not stdio's */
		if (ret) {
			kfsim_outfile_abort(&files[0]);
			return kfsim_cli_fail(CMD, ret, "cannot write CSV file '%s'", o->csv);
		}
	}
	if (o->svg_prefix) {
		ret = kfsim_plca_sweep_svg_open(o->svg_prefix, &files[1]);
		if (!ret) {
			group[nr_files++] = &files[1];
			group[nr_files++] = &files[2];
			ret = kfsim_plca_sweep_svg_write(points, (u32)nr, files[1].file,
							 files[2].file);
		}
		if (ret) {
			for (size_t i = 0; i < nr_files; i++)
				kfsim_outfile_abort(group[i]);
			return kfsim_cli_fail(CMD, ret, "cannot write plots '%s-*.svg'",
					      o->svg_prefix);
		}
	}
	ret = kfsim_cli_commit_files(CMD, group, nr_files);
	if (ret)
		return ret;
	if (o->json)
		json_sweep(o, points, nr);
	else
		print_sweep(points, nr);
	return KFSIM_EXIT_OK;
}

static int plca_sweep_cmd(const struct plca_opts *o)
{
	struct kfsim_grid grid;
	struct plca_sweep_point *points = NULL;
	int nr = 2 * (int)o->seg.nr_nodes, ret;

	ret = kfsim_grid_begin(&grid, CMD, "sweep", &o->grid, (u32)nr);
	if (ret)
		goto out;
	points = kcalloc((size_t)nr, sizeof(*points), GFP_KERNEL);
	if (!points) {
		ret = kfsim_cli_fail(CMD, -ENOMEM, "no memory for the sweep");
		goto out;
	}
	ret = sweep_points(o, &grid, points);
	if (ret)
		goto out;
	if (grid.mode == KFSIM_GRID_SHARD)
		ret = kfsim_grid_finish(&grid, CMD);
	else
		ret = sweep_outputs(o, points, nr);
out:
	kfsim_grid_end(&grid);
	kfree(points);
	return ret;
}

static int plca_sim_verb(void *opts, const struct kfsim_cli_args *args)
{
	int ret = check_opts(opts, args);

	return ret ? ret : plca_sim_cmd(opts);
}

static int plca_sweep_verb(void *opts, const struct kfsim_cli_args *args)
{
	int ret = check_opts(opts, args);

	return ret ? ret : plca_sweep_cmd(opts);
}

const struct kfsim_cli_command kfsim_cmd_plca = {
	.name = "plca",
	.summary = "10BASE-T1S bus simulator: PLCA (Clause 148) against CSMA/CD",
	.spec = &plca_spec,
	.oldest_kver = KERNEL_VERSION(6, 3, 0),
	.kver_why = "PLCA configuration over ethtool and genphy_c45_plca_* arrived in 6.3",
	.grid_verbs = (const char *const[]){ "sweep", NULL },
};
