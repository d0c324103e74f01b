/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_PLCA_SIM_H
#define KFSIM_PLCA_SIM_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * A discrete-event simulator of a 10BASE-T1S multidrop segment (IEEE 802.3cg): every node runs
 * either the Clause 148 PLCA Reconciliation Sublayer over a Clause 4 CSMA/CD MAC, or plain
 * CSMA/CD.  Each node's PLCA settings are the struct phy_plca_cfg that ethtool netlink and the
 * PHY registers carry, so a configuration flows unchanged from `kfsim ethtool` to the bus.
 *
 * Time is kept in nanoseconds; one bit time (BT) is 100 ns at 10 Mb/s.  A simulation is a value:
 * create it, run it (in steps if you want to change settings at run time), read the statistics,
 * destroy it.  The same seed gives the same run, bit for bit.
 *
 * Out-of-range settings are rejected with -EINVAL and nothing is created or changed.  Settings a
 * real segment can have but that are wrong (duplicate node ids, two coordinators, a follower id
 * beyond the node count, no coordinator, different to_tmr values) are simulated and reported in
 * struct plca_sim_report's @misconfig: a node whose to_tmr differs from the coordinator's counts
 * its transmit opportunities with its own to_timer, and a second node id 0 runs its own cycle
 * and sends its own BEACONs (see docs/plca-bus.md, "Misconfigurations").
 */
#include <stdbool.h>
#include <stdio.h>
#include <kfsim/kernel.h>
#include <kfsim/phy.h>
#include <kfsim/types.h>

struct kfsim_trace;
struct kfsim_plca_net;

#define PLCA_SIM_NS_PER_BT 100
#define PLCA_SIM_MAX_NODES 255
#define PLCA_SIM_MAX_SEGMENT_M 25.0
#define PLCA_SIM_MAX_PAYLOAD 1500
#define PLCA_SIM_MIN_PAYLOAD 46	   /* shorter payloads are padded: minimum frame 64 bytes */
#define PLCA_SIM_FRAME_OVERHEAD 18 /* MAC header 14 + FCS 4 */
#define PLCA_SIM_WIRE_OVERHEAD 9   /* preamble/SFD 8 + ESD 1, in bytes on the wire */

/* Clause 4 and Clause 148 constants, in bit times. */
#define PLCA_SIM_IFG_BT 96
#define PLCA_SIM_SLOT_BT 512
#define PLCA_SIM_JAM_BT 32
#define PLCA_SIM_ATTEMPT_LIMIT 16
#define PLCA_SIM_BACKOFF_LIMIT 10
#define PLCA_SIM_BEACON_BT 20
#define PLCA_SIM_PENDING_BT 512
#define PLCA_SIM_COMMIT_BT 288
#define PLCA_SIM_HOLD_BT 400	  /* delay line of 100 nibbles */
#define PLCA_SIM_STATUS_BT 130090 /* plca_status_timer */

/**
 * enum plca_sim_load_kind - how a node's frames arrive
 * @PLCA_SIM_LOAD_NONE: the node only receives (frames can still be injected)
 * @PLCA_SIM_LOAD_SATURATED: a new frame is always waiting (arrival = when it reaches the queue
 * head)
 * @PLCA_SIM_LOAD_POISSON: exponential inter-arrival times with mean @interval_us
 * @PLCA_SIM_LOAD_PERIODIC: one frame every @interval_us, starting at a random phase
 */
enum plca_sim_load_kind {
	PLCA_SIM_LOAD_NONE,
	PLCA_SIM_LOAD_SATURATED,
	PLCA_SIM_LOAD_POISSON,
	PLCA_SIM_LOAD_PERIODIC,
};

/**
 * struct plca_sim_node_cfg - one node on the segment
 * @plca: PLCA settings.  enabled 0 (or node_id 255) = plain CSMA/CD.  A field of -1 ("not set")
 *        takes the OPEN Alliance reset default (enabled 0, node_id 255, node_cnt 8, to_tmr 32,
 *        burst_cnt 0, burst_tmr 128); @plca.version is ignored.
 * @position_m: position on the cable, 0..25 m (propagation 5 ns/m)
 * @load: arrival process
 * @interval_us: mean (Poisson) or period (periodic) in microseconds, > 0 for those loads
 * @payload_min: smallest MAC payload in bytes (0..1500; below 46 it is padded)
 * @payload_max: largest, >= @payload_min; sizes are uniform in the range
 * @queue_limit: frames the node buffers (1..65536); 0 means 256.  Arrivals beyond it are dropped.
 * @ignores_collisions: fault: the MAC ignores the collision signal (it neither jams nor retries)
 * @no_collision_detect: the PHY's physical collision detection is off (a LAN867x whose
 *                       COL_DET_CTRL0 bit 15 is clear, as lan86xx_plca_set_cfg() leaves it
 *                       with PLCA enabled, Linux 6.13+): it never signals a collision on the
 *                       wire to the MAC, which sends the frame to its end; the frame is lost
 *                       (@lost_fault).  Logical collisions of the PLCA RS still reach the MAC.
 * @stops_on_foreign_beacon: a coordinator (node id 0) that hears a BEACON it did not send stops
 *                           sending its own and follows the other one (Microchip LAN867x
 *                           errata; kfsim_plca_sim_nodes_from_net() sets it for LAN867x PHYs)
 */
struct plca_sim_node_cfg {
	struct phy_plca_cfg plca;
	double position_m;
	enum plca_sim_load_kind load;
	double interval_us;
	u32 payload_min;
	u32 payload_max;
	u32 queue_limit;
	bool ignores_collisions;
	bool no_collision_detect;
	bool stops_on_foreign_beacon;
};

/*
 * MDI-to-CRS latency (a term of Eq. 148-1): a node's carrier sense follows a signal reaching its
 * MDI by this much, on and off, so the window in which two nodes both start is propagation plus
 * it.  Default 1 us (10 BT): the "carrier sense turn-on delay" 10 Mb/s PHY datasheets give as
 * their maximum (TI DP83843, T5.16.1).  It is the segment's, not a node's.
 */
#define PLCA_SIM_CRS_DELAY_DEFAULT_NS 1000
#define PLCA_SIM_CRS_DELAY_MAX_NS 10000

/**
 * struct plca_sim_cfg - a segment
 * @nodes: the nodes
 * @nr_nodes: how many, 1..255
 * @seed: random seed (backoff draws, arrivals, frame sizes)
 * @crs_delay_ns: MDI-to-CRS latency in ns: 0 = PLCA_SIM_CRS_DELAY_DEFAULT_NS, -1 = none (carrier
 *                sensed the instant a signal reaches the MDI), else 1..PLCA_SIM_CRS_DELAY_MAX_NS
 * @bit_level: run every signal, carrier check and timer (the reference path).  By default the
 *             simulator models a transmit opportunity in one step wherever nothing can differ
 *             (the TO after a frame on a quiet PLCA segment, without a trace also the
 *             BEACON's TO between two such TOs, whole idle cycles with nothing pending); the
 *             results are the same to the bit for a given seed, and
 *             tests/plcasim/test_sim_fastpath.c checks that against this switch.  A uniform
 *             PLCA segment with Poisson, periodic or no load is taken over at its first quiet
 *             moment by a second engine (src/plcasim/bus_sparse.c) that gives the same
 *             statistics, histograms, counts and random state (tests/plcasim/test_sim_sparse.c)
 *             and rebuilds the rest by replaying the run before a setting, a link, a scripted
 *             frame or a trace changes anything: such a call then costs a run from the start.
 */
struct plca_sim_cfg {
	const struct plca_sim_node_cfg *nodes;
	u32 nr_nodes;
	u64 seed;
	int crs_delay_ns;
	bool bit_level;
};

/* Misconfiguration flags in struct plca_sim_report: simulated, not rejected. */
#define PLCA_SIM_MISCONF_DUP_ID BIT(0)	      /* two PLCA nodes share a node id */
#define PLCA_SIM_MISCONF_ID_BEYOND_CNT BIT(1) /* a follower id >= the coordinator's node_cnt */
#define PLCA_SIM_MISCONF_NO_COORD BIT(2)      /* PLCA nodes but no node id 0 with PLCA on */
#define PLCA_SIM_MISCONF_TO_MISMATCH BIT(3)   /* to_tmr differs between PLCA nodes */

/**
 * struct plca_sim_node_stats - what one node did
 * @generated: frames that arrived (including injected ones)
 * @delivered: frames sent without a collision
 * @dropped_attempts: frames given up after 16 attempts (excessive collisions)
 * @dropped_queue: arrivals refused because the queue was full
 * @lost_fault: frames the faulty MAC believed sent but that collided (ignores_collisions)
 * @queued: frames still waiting or in flight when statistics were read
 * @payload_bytes: payload bytes delivered
 * @frame_bytes: MAC frame bytes (header + payload + FCS) delivered
 * @collisions: collisions the MAC saw (physical + logical)
 * @phys_collisions: collisions of signals on the wire involving this node
 * @logical_collisions: collisions PLCA signalled to the MAC to hold a frame back
 * @deferrals: times the MAC found the carrier on (or inside the IFG) and waited
 * @tos: transmit opportunities of this node's id that began while its PLCA was active (by
 *	the time of the read: a TO beginning at that very instant counts once its decision ran)
 * @tos_used: those it committed to (sent at least one frame)
 * @beacons: BEACONs seen (sent, for the coordinator)
 * @beacons_sent: BEACONs this node put on the wire (a coordinator, or a second one)
 * @lat_mean_ns: mean latency, arrival to end of the successful transmission
 * @lat_p99_ns: 99th percentile (<kfsim/sim_hist.h>: nearest rank, at most 1.6 % above)
 * @lat_max_ns: maximum
 * @access_mean_ns: mean arrival to start of the successful transmission
 * @access_max_ns: maximum of that
 * @plca_status: PST: beacons seen (follower) or sent (coordinator) recently
 */
struct plca_sim_node_stats {
	u64 generated;
	u64 delivered;
	u64 dropped_attempts;
	u64 dropped_queue;
	u64 lost_fault;
	u64 queued;
	u64 payload_bytes;
	u64 frame_bytes;
	u64 collisions;
	u64 phys_collisions;
	u64 logical_collisions;
	u64 deferrals;
	u64 tos;
	u64 tos_used;
	u64 beacons;
	u64 beacons_sent;
	double lat_mean_ns;
	u64 lat_p99_ns;
	u64 lat_max_ns;
	double access_mean_ns;
	u64 access_max_ns;
	bool plca_status;
};

/**
 * struct plca_sim_report - the segment as a whole
 * @now_ns: simulated time reached
 * @events: events the simulator ran so far: queued timers that fired (withdrawn ones not
 *	counted) plus transmit-opportunity decisions.  A diagnostic of the event queue, not a
 *	simulated quantity: work the simulator proves cannot change the outcome is not queued
 *	(a commit_timer the MAC beats, a pending_timer outside an idle run, the carrier
 *	re-check at the end of an undisturbed IFG), so the count may drop between kfsim
 *	versions while every simulated figure stays the same for a given seed.  A quiet uniform
 *	PLCA segment may be run by a second engine (src/plcasim/bus_sparse.c), which counts its
 *	own events: the same run gives another count with struct plca_sim_cfg.bit_level.
 * @cycles: PLCA cycles (BEACONs sent)
 * @throughput_mbps: MAC frame bits delivered per second, all nodes, in Mb/s
 * @goodput_mbps: payload bits delivered per second
 * @utilisation: fraction of time the wire carried delivered frames (preamble to ESD)
 * @lat_mean_ns: mean latency over all delivered frames
 * @lat_p99_ns: 99th percentile over all delivered frames (as <kfsim/sim_hist.h>)
 * @lat_max_ns: worst latency of any node
 * @jain: Jain's fairness index of the throughput of the nodes that generate load (1 = fair)
 * @collisions: sum of the nodes' MAC collisions
 * @phys_collisions: collisions on the wire (counted once per node involved)
 * @misconfig: PLCA_SIM_MISCONF_* flags
 */
struct plca_sim_report {
	u64 now_ns;
	u64 events;
	u64 cycles;
	double throughput_mbps;
	double goodput_mbps;
	double utilisation;
	double lat_mean_ns;
	u64 lat_p99_ns;
	u64 lat_max_ns;
	double jain;
	u64 collisions;
	u64 phys_collisions;
	u32 misconfig;
};

struct plca_sim;

/**
 * kfsim_plca_sim_create() - build a segment from @cfg (copied)
 *
 * Return: the simulation at time 0; ERR_PTR(-EINVAL) for an out-of-range setting (a message
 * naming it goes to the log), ERR_PTR(-ENOMEM).
 */
struct plca_sim *kfsim_plca_sim_create(const struct plca_sim_cfg *cfg);

/** kfsim_plca_sim_destroy() - free @sim (NULL and error pointers are ignored). */
void kfsim_plca_sim_destroy(struct plca_sim *sim);

/**
 * kfsim_plca_sim_run_until() - process every event up to and including @t_ns
 *
 * Return: 0; -EINVAL when @t_ns is before the current time; -ENOMEM when the event queue could
 * not grow (the run stops there for good: the statistics so far stay readable).
 */
int kfsim_plca_sim_run_until(struct plca_sim *sim, u64 t_ns);

/** kfsim_plca_sim_now() - the current simulated time in ns. */
u64 kfsim_plca_sim_now(const struct plca_sim *sim);

/**
 * kfsim_plca_sim_inject() - a frame of @payload bytes arrives at @node at time @t_ns
 *
 * Return: 0; -EINVAL for a bad node, a payload over 1500 or a time in the past; -ENOMEM.
 */
int kfsim_plca_sim_inject(struct plca_sim *sim, u32 node, u64 t_ns, u32 payload);

/**
 * kfsim_plca_sim_set_plca() - change a node's PLCA settings now (as ethtool --set-plca-cfg does)
 *
 * Fields of -1 keep their current value.  Changing anything resets the node's PLCA state: it
 * leaves its transmit opportunity, its plca_status drops, and it waits for the next BEACON.
 * Return: 0; -EINVAL for a bad node or an out-of-range value (nothing changed then).
 */
int kfsim_plca_sim_set_plca(struct plca_sim *sim, u32 node, const struct phy_plca_cfg *cfg);

/** kfsim_plca_sim_reset_plca() - PLCA reset (PLCA_CTRL0.RST) of @node; -EINVAL for a bad node. */
int kfsim_plca_sim_reset_plca(struct plca_sim *sim, u32 node);

/**
 * kfsim_plca_sim_set_link() - connect or disconnect @node (a coordinator lost and back)
 *
 * A disconnected node stops transmitting at once; arrivals keep queueing.
 * Return: 0; -EINVAL for a bad node.
 */
int kfsim_plca_sim_set_link(struct plca_sim *sim, u32 node, bool up);

/** kfsim_plca_sim_get_plca_cfg() - @node's PLCA settings (version -1); -EINVAL for a bad node. */
int kfsim_plca_sim_get_plca_cfg(const struct plca_sim *sim, u32 node, struct phy_plca_cfg *cfg);

/** kfsim_plca_sim_get_status() - @node's plca_status (PST); -EINVAL for a bad node. */
int kfsim_plca_sim_get_status(const struct plca_sim *sim, u32 node, struct phy_plca_status *st);

/** kfsim_plca_sim_node_stats() - @node's statistics so far; -EINVAL for a bad node. */
int kfsim_plca_sim_node_stats(const struct plca_sim *sim, u32 node, struct plca_sim_node_stats *st);

/** kfsim_plca_sim_report() - totals so far. */
void kfsim_plca_sim_report(const struct plca_sim *sim, struct plca_sim_report *rep);

/** kfsim_plca_sim_nr_nodes() - the number of nodes. */
u32 kfsim_plca_sim_nr_nodes(const struct plca_sim *sim);

/**
 * kfsim_plca_sim_set_trace() - write beacons, transmit opportunities, COMMITs, frames and
 * collisions as Perfetto "X" events to @trace (NULL stops); @pid is the process id to use.
 */
void kfsim_plca_sim_set_trace(struct plca_sim *sim, struct kfsim_trace *trace, int pid);

/** kfsim_plca_misconf_name() - a short text for one PLCA_SIM_MISCONF_* bit, or NULL. */
const char *kfsim_plca_misconf_name(u32 bit);

/**
 * kfsim_plca_idle_cycle_bt() - closed form of an idle PLCA cycle: BEACON + node_cnt TOs
 *
 * Return: 20 + @node_cnt * @to_tmr bit times.
 */
u64 kfsim_plca_idle_cycle_bt(u32 node_cnt, u32 to_tmr);

/** kfsim_plca_wire_bt() - bit times a frame with @payload bytes occupies on the wire. */
u64 kfsim_plca_wire_bt(u32 payload);

/**
 * enum plca_sim_mode - what the nodes of a segment built by kfsim_plca_segment_nodes() run
 * @PLCA_SIM_MODE_PLCA: all PLCA: node i has id i, node 0 is the coordinator, node_cnt = nodes
 * @PLCA_SIM_MODE_CSMA: all plain CSMA/CD
 * @PLCA_SIM_MODE_MIXED: the first half (rounded up) PLCA as above, the rest CSMA/CD
 */
enum plca_sim_mode {
	PLCA_SIM_MODE_PLCA,
	PLCA_SIM_MODE_CSMA,
	PLCA_SIM_MODE_MIXED,
};

/**
 * struct plca_sim_segment - a uniform segment, as the CLI and the sweep describe one
 * @nr_nodes: nodes, 1..255, evenly spaced over @length_m
 * @nr_senders: how many of them (the first ones) generate load; 0 = all
 * @mode: PLCA, CSMA/CD or mixed
 * @to_tmr: to_timer of every PLCA node, 0..255
 * @burst_cnt: burst count, 0..255
 * @burst_tmr: burst timer, 0..255
 * @load: arrival process of the senders
 * @interval_us: its mean or period
 * @payload_min: payload range in bytes
 * @payload_max: payload range in bytes
 * @length_m: cable length, 0..25 m
 */
struct plca_sim_segment {
	u32 nr_nodes;
	u32 nr_senders;
	enum plca_sim_mode mode;
	int to_tmr;
	int burst_cnt;
	int burst_tmr;
	enum plca_sim_load_kind load;
	double interval_us;
	u32 payload_min;
	u32 payload_max;
	double length_m;
};

/**
 * kfsim_plca_cfg_reset_default() - a PHY's PLCA settings after reset
 * @cfg: filled with the OPEN Alliance TC14 register reset values (PLCA_CTRL1 0x08ff,
 *       PLCA_TOTMR 0x20, PLCA_BURST 0x0080): enabled 0, node_id 255, node_cnt 8, to_tmr 32
 *       bit times, burst_cnt 0, burst_tmr 128 bit times (@cfg->version -1: not reported).
 *       The PHYs of <kfsim/plca.h> start from the same registers (the NCN26000's silicon
 *       reports to_tmr 24, which its driver corrects to 32, as the kernel's does).
 *
 * What a field of -1 in struct plca_sim_node_cfg's @plca takes.
 */
void kfsim_plca_cfg_reset_default(struct phy_plca_cfg *cfg);

/**
 * kfsim_plca_segment_default() - the segment `kfsim plca` and the tour simulate unless told
 * otherwise
 * @seg: filled with: node_cnt of the reset settings (8) nodes, all PLCA (node i has id i,
 *       node 0 coordinates) with the reset timers (to_tmr 32, burst_cnt 0, burst_tmr 128), every
 *       node a saturated sender of 64-byte payloads (the onsemi comparison), over the longest
 *       mixing segment, PLCA_SIM_MAX_SEGMENT_M (25 m)
 */
void kfsim_plca_segment_default(struct plca_sim_segment *seg);

/**
 * struct plca_sim_bus_config - one run of the bus simulator as `kfsim plca` describes it
 * @seg: the segment
 * @duration_ns: simulated time of a run (of each run, in a sweep)
 * @seed: the random seed of every run
 */
struct plca_sim_bus_config {
	struct plca_sim_segment seg;
	u64 duration_ns;
	u64 seed;
};

/**
 * kfsim_plca_bus_config_default() - `kfsim plca sim`'s run: kfsim_plca_segment_default() for
 * one simulated second, seed 1
 * @cfg: filled
 */
void kfsim_plca_bus_config_default(struct plca_sim_bus_config *cfg);

/**
 * kfsim_plca_sweep_config_default() - `kfsim plca sweep`'s runs: as
 * kfsim_plca_bus_config_default() but 200 ms each (a sweep of N nodes makes 2N runs)
 * @cfg: filled
 */
void kfsim_plca_sweep_config_default(struct plca_sim_bus_config *cfg);

/**
 * kfsim_plca_segment_nodes() - fill @nodes[0 .. @seg->nr_nodes) for @seg
 *
 * Return: 0; -EINVAL for an out-of-range field (the node settings are checked again, and
 * reported, by kfsim_plca_sim_create()).
 */
int kfsim_plca_segment_nodes(const struct plca_sim_segment *seg, struct plca_sim_node_cfg *nodes);

/**
 * struct plca_sweep_point - one run of a sweep
 * @senders: transmitting nodes
 * @mode: PLCA_SIM_MODE_PLCA or PLCA_SIM_MODE_CSMA
 * @rep: its report
 */
struct plca_sweep_point {
	u32 senders;
	enum plca_sim_mode mode;
	struct plca_sim_report rep;
};

/**
 * kfsim_plca_sweep() - PLCA against CSMA/CD for 1 .. @seg->nr_nodes transmitting nodes
 * @seg: the segment (its @mode and @nr_senders are set by the sweep)
 * @duration_ns: simulated time of each run
 * @seed: seed of each run
 * @points: room for 2 * @seg->nr_nodes points, PLCA then CSMA/CD per sender count
 *
 * Return: the number of points; -EINVAL for a bad segment, -ENOMEM.
 */
int kfsim_plca_sweep(const struct plca_sim_segment *seg, u64 duration_ns, u64 seed,
		     struct plca_sweep_point *points);

/**
 * kfsim_plca_sweep_progress() - kfsim_plca_sweep(), calling @progress(@arg, done, total)
 * before each pair of runs with the runs done so far and the runs in all (for a progress line)
 */
int kfsim_plca_sweep_progress(const struct plca_sim_segment *seg, u64 duration_ns, u64 seed,
			      struct plca_sweep_point *points,
			      void (*progress)(void *arg, u32 done, u32 total), void *arg);

/**
 * kfsim_plca_sweep_point() - point @idx of kfsim_plca_sweep() alone: @idx / 2 + 1 senders,
 * PLCA for an even @idx, CSMA/CD for an odd one, with the sweep's @seed (the points of a sweep
 * are independent, so they can run in any order, on any thread or machine)
 *
 * Return: 0; -EINVAL for a bad segment or @idx >= 2 * @seg->nr_nodes; -ENOMEM.
 */
int kfsim_plca_sweep_point(const struct plca_sim_segment *seg, u64 duration_ns, u64 seed, u32 idx,
			   struct plca_sweep_point *point);

/** kfsim_plca_sweep_csv() - write @nr @points as CSV with a header line; -EIO on error. */
int kfsim_plca_sweep_csv(const struct plca_sweep_point *points, u32 nr, FILE *out);

/**
 * kfsim_plca_sweep_svg() - draw throughput and latency (log axis) against transmitting nodes
 *
 * Writes @prefix-throughput.svg and @prefix-latency.svg, both or neither (kfsim_outfile):
 * names that do not fit are -ENAMETOOLONG before anything is written, and a failed write
 * leaves both old files as they were.
 * Return: 0, or the negative errno of the first file that failed.
 */
int kfsim_plca_sweep_svg(const struct plca_sweep_point *points, u32 nr, const char *prefix);

/**
 * kfsim_plca_sweep_svg_write() - the two plots of kfsim_plca_sweep_svg() into streams
 * @points: the sweep's points, PLCA and CSMA/CD for each sender count in turn
 * @nr: how many (even, at least 2)
 * @throughput: where the throughput plot goes
 * @latency: where the latency plot goes
 *
 * For a caller that commits the plots together with files of its own (the command's CSV).
 * Return: 0, -EINVAL for fewer than two points, -ENOMEM, or the first write's error.
 */
int kfsim_plca_sweep_svg_write(const struct plca_sweep_point *points, u32 nr,
			       FILE *throughput, FILE *latency);

struct kfsim_outfile;

/**
 * kfsim_plca_sweep_svg_open() - open @prefix-throughput.svg and @prefix-latency.svg (@files[0], [1])
 *
 * Both names are checked before either file is made; nothing is committed (kfsim_outfile).
 * Return: 0, -ENAMETOOLONG, or kfsim_outfile_open()'s error (then neither is open).
 */
int kfsim_plca_sweep_svg_open(const char *prefix, struct kfsim_outfile *files);

/**
 * kfsim_plca_sim_nodes_from_net() - the segment of a kfsim_plca_net (<kfsim/plca.h>) as nodes
 * @net: the namespace whose PHYs `kfsim ethtool` configures
 * @dev_name: a device on the wanted segment, or NULL for the first device with a PLCA PHY
 * @nodes: filled with one node per PLCA-capable PHY on that segment, in ifindex order, each
 *         with the settings phy_ethtool_get_plca_cfg() reports (load and position left 0)
 * @max: room in @nodes
 * @names: NULL, or room for @max device names
 *
 * Return: the number of nodes; -ENODEV when no device is named @dev_name (or, with @dev_name
 * NULL, when no device has a PLCA PHY); -EOPNOTSUPP when the device @dev_name has no PHY or its
 * PHY cannot report PLCA settings (ethtool's netlink answers so for a device without a PHY or
 * PLCA hooks, 6.12; here also for a PHY whose phy_ethtool_get_plca_cfg() fails otherwise);
 * -E2BIG when more than @max PHYs share the segment.
 */
int kfsim_plca_sim_nodes_from_net(struct kfsim_plca_net *net, const char *dev_name,
				  struct plca_sim_node_cfg *nodes, u32 max, char (*names)[16]);

#pragma GCC visibility pop
#endif /* KFSIM_PLCA_SIM_H */
