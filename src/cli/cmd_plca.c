// SPDX-License-Identifier: MIT
/*
 * kfsim plca sim|sweep: the 10BASE-T1S bus simulator on the command line.  `sim` runs one
 * segment and prints a table per node (or --json, or a Perfetto --trace); `sweep` compares PLCA
 * with CSMA/CD for 1..N transmitting nodes and writes CSV and SVG plots.  Thin over
 * <kfsim/plca_sim.h>: options become a struct plca_sim_segment.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/plca.h>
#include <kfsim/plca_sim.h>
#include <kfsim/slab.h>
#include <kfsim/trace_event.h>
#include "cli.h"

#define CMD "plca"

struct plca_opts {
	struct plca_sim_segment seg;
	u64 duration_ms;
	u64 seed;
	bool json;
	const char *trace;
	const char *csv;
	const char *svg_prefix;
	const char *config; /* build the segment from these PHYs ("builtin": kfsim ethtool's) */
	const char *dev;    /* ... the segment of this device */
	const char *segment_opt; /* an option that --config replaces, if given */
};

static void plca_help(void)
{
	printf("Usage: kfsim plca sim [options] [--json] [--trace FILE] [--config FILE [--dev "
	       "NAME]]\n"
	       "       kfsim plca sweep [options] [--json] [--csv FILE] [--svg-prefix P]\n\n"
	       "Simulate a 10BASE-T1S multidrop segment (IEEE 802.3cg): PLCA (Clause 148) over\n"
	       "CSMA/CD, or plain CSMA/CD.  'sim' prints throughput, latency, collisions,\n"
	       "deferrals and transmit-opportunity use per node; 'sweep' compares PLCA with\n"
	       "CSMA/CD for 1..N transmitting nodes.\n\n"
	       "  --nodes N          nodes on the segment, 1..255 (default 8)\n"
	       "  --mode M           plca, csma or mixed (first half PLCA) (default plca)\n"
	       "  --to-tmr BT        transmit opportunity timer, 0..255 bit times (default 32)\n"
	       "  --burst-cnt N      extra frames per TO, 0..255 (default 0)\n"
	       "  --burst-tmr BT     burst timer, 0..255 bit times (default 128)\n"
	       "  --load L           saturated, poisson:MEAN_US or periodic:US (default "
	       "saturated)\n"
	       "  --frame B|MIN-MAX  MAC payload bytes, 0..1500 (default 64)\n"
	       "  --length M         cable length in metres, 0..25 (default 25)\n"
	       "  --duration MS      simulated time per run, 1..600000 ms (default 1000; sweep "
	       "200)\n"
	       "  --seed S           random seed (default 1)\n"
	       "  --json             one JSON document on stdout\n"
	       "  --trace FILE       (sim) Perfetto/Chrome trace of beacons, TOs, frames, "
	       "collisions\n"
	       "  --config FILE      (sim) nodes and PLCA settings from the PHYs of a 'kfsim "
	       "ethtool\n"
	       "                     --config' file, or 'builtin' for kfsim ethtool's built-in\n"
	       "                     devices; replaces --nodes, --mode, --to-tmr, --burst-*\n"
	       "  --dev NAME         (sim, with --config) the segment of this device's PHY\n"
	       "  --csv FILE         (sweep) results as CSV\n"
	       "  --svg-prefix P     (sweep) write P-throughput.svg and P-latency.svg\n");
}

static int parse_load(const char *text, struct plca_sim_segment *seg)
{
	const char *colon = strchr(text, ':');
	double value;

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
	if (kfsim_cli_parse_double(CMD, "--load", colon + 1, 0.1, 1e9, &value))
		return -EINVAL;
	seg->interval_us = value;
	return 0;
bad:
	kfsim_cli_usage(CMD,
			"invalid value '%s' for --load: expected saturated, poisson:MEAN_US "
			"or periodic:US",
			text);
	return -EINVAL;
}

static int parse_frame(const char *text, struct plca_sim_segment *seg)
{
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
	if (kfsim_cli_parse_u64(CMD, "--frame", buf, 0, PLCA_SIM_MAX_PAYLOAD, &lo))
		return -EINVAL;
	hi = lo;
	if (dash && kfsim_cli_parse_u64(CMD, "--frame", dash + 1, lo, PLCA_SIM_MAX_PAYLOAD, &hi))
		return -EINVAL;
	seg->payload_min = (u32)lo;
	seg->payload_max = (u32)hi;
	return 0;
bad:
	kfsim_cli_usage(CMD, "invalid value '%s' for --frame: expected BYTES or MIN-MAX (0..1500)",
			text);
	return -EINVAL;
}

static int parse_int_opt(const char *opt, const char *text, u64 min, u64 max, int *out)
{
	u64 value;

	if (kfsim_cli_parse_u64(CMD, opt, text, min, max, &value))
		return -EINVAL;
	*out = (int)value;
	return 0;
}

/* Return: 0, or KFSIM_EXIT_USAGE after the one-line message. */
static int parse_opts(int argc, char **argv, bool sweep, struct plca_opts *o)
{
	static const struct option longopts[] = {
		{"nodes", required_argument, NULL, 'n'},
		{"mode", required_argument, NULL, 'm'},
		{"to-tmr", required_argument, NULL, 't'},
		{"burst-cnt", required_argument, NULL, 'b'},
		{"burst-tmr", required_argument, NULL, 'B'},
		{"load", required_argument, NULL, 'l'},
		{"frame", required_argument, NULL, 'f'},
		{"length", required_argument, NULL, 'L'},
		{"duration", required_argument, NULL, 'd'},
		{"seed", required_argument, NULL, 's'},
		{"json", no_argument, NULL, 'j'},
		{"trace", required_argument, NULL, 'T'},
		{"csv", required_argument, NULL, 'c'},
		{"svg-prefix", required_argument, NULL, 'p'},
		{"config", required_argument, NULL, 'C'},
		{"dev", required_argument, NULL, 'D'},
		{NULL, 0, NULL, 0},
	};
	int opt, nodes = 8;
	u64 value;

	*o = (struct plca_opts){
		.seg = {.mode = PLCA_SIM_MODE_PLCA,
			.to_tmr = 32,
			.burst_cnt = 0,
			.burst_tmr = 128,
			.load = PLCA_SIM_LOAD_SATURATED,
			.payload_min = 64,
			.payload_max = 64,
			.length_m = 25.0},
		.duration_ms = sweep ? 200 : 1000,
		.seed = 1,
	};
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		int ret = 0;

		switch (opt) {
		case 'n':
			o->segment_opt = "--nodes";
			break;
		case 'm':
			o->segment_opt = "--mode";
			break;
		case 't':
			o->segment_opt = "--to-tmr";
			break;
		case 'b':
			o->segment_opt = "--burst-cnt";
			break;
		case 'B':
			o->segment_opt = "--burst-tmr";
			break;
		}
		switch (opt) {
		case 'n':
			ret = parse_int_opt("--nodes", optarg, 1, PLCA_SIM_MAX_NODES, &nodes);
			break;
		case 'm':
			if (!strcmp(optarg, "plca"))
				o->seg.mode = PLCA_SIM_MODE_PLCA;
			else if (!strcmp(optarg, "csma"))
				o->seg.mode = PLCA_SIM_MODE_CSMA;
			else if (!strcmp(optarg, "mixed"))
				o->seg.mode = PLCA_SIM_MODE_MIXED;
			else
				return kfsim_cli_usage(CMD,
						       "invalid value '%s' for --mode: expected "
						       "plca, csma or mixed",
						       optarg);
			break;
		case 't':
			ret = parse_int_opt("--to-tmr", optarg, 0, 255, &o->seg.to_tmr);
			break;
		case 'b':
			ret = parse_int_opt("--burst-cnt", optarg, 0, 255, &o->seg.burst_cnt);
			break;
		case 'B':
			ret = parse_int_opt("--burst-tmr", optarg, 0, 255, &o->seg.burst_tmr);
			break;
		case 'l':
			ret = parse_load(optarg, &o->seg);
			break;
		case 'f':
			ret = parse_frame(optarg, &o->seg);
			break;
		case 'L':
			ret = kfsim_cli_parse_double(CMD, "--length", optarg, 0, 25,
						     &o->seg.length_m);
			break;
		case 'd':
			ret = kfsim_cli_parse_u64(CMD, "--duration", optarg, 1, 600000,
						  &o->duration_ms);
			break;
		case 's':
			ret = kfsim_cli_parse_u64(CMD, "--seed", optarg, 0, UINT64_MAX, &value);
			o->seed = value;
			break;
		case 'j':
			o->json = true;
			break;
		case 'T':
			if (sweep)
				return kfsim_cli_usage(CMD, "--trace is an option of 'plca sim'");
			o->trace = optarg;
			break;
		case 'C':
		case 'D':
			if (sweep)
				return kfsim_cli_usage(CMD, "%s is an option of 'plca sim'",
						       opt == 'C' ? "--config" : "--dev");
			if (!*optarg)
				return kfsim_cli_usage(
					CMD, "invalid value '' for %s: expected a %s",
					opt == 'C' ? "--config" : "--dev",
					opt == 'C' ? "file name or 'builtin'" : "device name");
			if (opt == 'C')
				o->config = optarg;
			else
				o->dev = optarg;
			break;
		case 'c':
		case 'p':
			if (!sweep)
				return kfsim_cli_usage(CMD, "%s is an option of 'plca sweep'",
						       opt == 'c' ? "--csv" : "--svg-prefix");
			if (opt == 'c')
				o->csv = optarg;
			else
				o->svg_prefix = optarg;
			break;
		default:
			return kfsim_cli_bad_option(CMD, argv, opt);
		}
		if (ret)
			return KFSIM_EXIT_USAGE;
	}
	if (optind < argc)
		return kfsim_cli_usage(CMD, "unexpected argument '%s'", argv[optind]);
	if (o->config && o->segment_opt)
		return kfsim_cli_usage(CMD,
				       "%s does not go with --config: the PHYs' settings are used",
				       o->segment_opt);
	if (o->dev && !o->config)
		return kfsim_cli_usage(CMD, "--dev needs --config");
	o->seg.nr_nodes = (u32)nodes;
	return 0;
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
	kfsim_json_kv_uint(json, "duration_ms", o->duration_ms);
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
		       "them), payload %u-%u B, %llu ms, seed %llu\n\n",
		       o->seg.nr_nodes,
		       strcmp(o->config, "builtin") ? o->config
						    : "kfsim ethtool's built-in devices",
		       o->seg.payload_min, o->seg.payload_max, (unsigned long long)o->duration_ms,
		       (unsigned long long)o->seed);
	else
		printf("10BASE-T1S segment: %u nodes, %s, to_tmr %d BT, burst %d/%d BT, payload "
		       "%u-%u B, %llu ms, seed %llu\n\n",
		       o->seg.nr_nodes, mode_text(o->seg.mode), o->seg.to_tmr, o->seg.burst_cnt,
		       o->seg.burst_tmr, o->seg.payload_min, o->seg.payload_max,
		       (unsigned long long)o->duration_ms, (unsigned long long)o->seed);
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
	char err[256] = "";
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
	kfsim_plca_net_destroy(net);
	if (nr < 0) {
		*status = kfsim_cli_fail(CMD, nr, "%s: %s has no PHY with PLCA settings", o->config,
					 o->dev ? o->dev : "no device");
		return -1;
	}
	for (int i = 0; i < nr; i++) {
		nodes[i].position_m = nr > 1 ? o->seg.length_m * i / (nr - 1) : 0;
		nodes[i].load = o->seg.load;
		nodes[i].interval_us = o->seg.interval_us;
		nodes[i].payload_min = o->seg.payload_min;
		nodes[i].payload_max = o->seg.payload_max;
	}
	return nr;
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
		kfsim_plca_sim_set_trace(sim, &trace, 1);
	}
	kfsim_plca_sim_run_until(sim, o->duration_ms * 1000000);
	kfsim_plca_sim_report(sim, &rep);
	if (o->json)
		json_sim(sim, o, &rep, o->config ? names : NULL);
	else
		print_sim(sim, o, &rep, o->config ? names : NULL);
	kfsim_plca_sim_destroy(sim);
	kfree(names);
	if (o->trace) {
		ret = kfsim_trace_close(&trace);
		if (ret)
			return kfsim_cli_fail(CMD, ret, "writing trace file '%s' failed", o->trace);
		if (!o->json)
			printf("trace written to %s (open it in ui.perfetto.dev)\n", o->trace);
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

static int plca_sweep_cmd(const struct plca_opts *o)
{
	struct plca_sweep_point *points =
		kcalloc(2 * (size_t)o->seg.nr_nodes, sizeof(*points), GFP_KERNEL);
	int nr, ret = 0;

	if (!points)
		return kfsim_cli_fail(CMD, -ENOMEM, "no memory for the sweep");
	nr = kfsim_plca_sweep(&o->seg, o->duration_ms * 1000000, o->seed, points);
	if (nr < 0) {
		kfree(points);
		return kfsim_cli_fail(CMD, nr, "sweep failed");
	}
	if (o->csv) {
		FILE *f = fopen(o->csv, "w");

		ret = f ? kfsim_plca_sweep_csv(points, (u32)nr, f) : -errno;
		if (f && fclose(f) && !ret)
			ret = -EIO;
		if (ret) {
			kfree(points);
			return kfsim_cli_fail(CMD, ret, "cannot write CSV file '%s'", o->csv);
		}
	}
	if (o->svg_prefix) {
		ret = kfsim_plca_sweep_svg(points, (u32)nr, o->svg_prefix);
		if (ret) {
			kfree(points);
			return kfsim_cli_fail(CMD, ret, "cannot write plots '%s-*.svg'",
					      o->svg_prefix);
		}
	}
	if (o->json)
		json_sweep(o, points, nr);
	else
		print_sweep(points, nr);
	kfree(points);
	return KFSIM_EXIT_OK;
}

static int plca_run(int argc, char **argv)
{
	struct plca_opts opts;
	bool sweep;
	int ret;

	if (kfsim_cli_wants_help(argc, argv)) {
		plca_help();
		return KFSIM_EXIT_OK;
	}
	if (argc < 2)
		return kfsim_cli_usage(CMD, "missing sub-command: expected 'sim' or 'sweep'");
	if (strcmp(argv[1], "sim") && strcmp(argv[1], "sweep"))
		return kfsim_cli_usage(CMD, "unknown sub-command '%s': expected 'sim' or 'sweep'",
				       argv[1]);
	sweep = !strcmp(argv[1], "sweep");
	ret = parse_opts(argc - 1, argv + 1, sweep, &opts);
	if (ret)
		return ret;
	return sweep ? plca_sweep_cmd(&opts) : plca_sim_cmd(&opts);
}

const struct kfsim_cli_command kfsim_cmd_plca = {
	.name = "plca",
	.summary = "10BASE-T1S bus simulator: PLCA (Clause 148) against CSMA/CD",
	.run = plca_run,
};
