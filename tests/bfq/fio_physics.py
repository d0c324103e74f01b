#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Physics as the referee: random fio job files run through kfsim, each result checked
against what the drive it ran on can do.

No real drive is the referee here (kfsim's drive is a model), so the checks are ones any
drive obeys, with the model's own parameters (src/bfq/disk_model.c's defaults, or the
--disk-param the run overrides):

  - an actuator delivers no more than its outer-zone media rate (spt_od x 512 B x rpm/60)
    over the run (read-ahead is media time, so reads from its cache count too), unless the
    write cache is on (writes then complete at the link's speed);
  - the drive delivers no more than its host link (link_mb_s) and no more than its
    actuators' media rates together;
  - a direct I/O completes no earlier than its bytes take to cross the link and the drive
    takes its command overhead (a read, a cached write) or to write them (a write streaming on
    from the one before): mean, p99 and largest latency >= bs / link_mb_s + min(overhead,
    bs / media rate);
  - nothing invented or lost: a job without time_based moves at most its size, exactly its
    size when it ended before the run did, in exactly size / bs requests; the jobs'
    requests add up to the completions, the completions plus what is left in flight to the
    submissions, the actuators' I/Os to the completions (buffered jobs copy into the page
    cache: the flusher's I/Os are the disk's, so these two checks skip files with them);
  - rate=R[,W] is never exceeded: a job's bytes in each direction <= R x active time + one
    block (the first is issued at once);
  - times in order: 0 <= active_s <= duration, utilisation in [0, 1], mean and p99 latency
    <= the largest;
  - the write cache holds at most write_cache_mib: the drive's writes (direct jobs' and the
    page cache's writeback) <= the actuators' media rates x the run + the write cache;
  - reads alone: an actuator serves one command at a time, each paying cmd_overhead_ms, so
    its reads/s <= 1 / cmd_overhead_ms;
  - Little's law: a job's requests x mean latency (the I/Os it had in flight, summed over
    time) <= iodepth x its active time;
  - end_fsync: a job that ended wrote no more than the media can take in its active time
    (its data is on the media when its sync returns);
  - trims on this disk (it has no discard): the job ends before any I/O with EOPNOTSUPP.

Job files come from a seeded generator of its own (block sizes 512 B to 4 MiB, every rw
mix, iodepth 1 to 256, numjobs, direct and buffered, rate limits, offsets), each run on one
of several drives (one, two or four actuators, 5400 to 15000 rpm, a slow link, the write
cache on).  --wide draws what it does not make (gen_file_wide(): bs=R,W, bssplits of three
to five sizes, odd sizes, iodepth up to 4096, up to 8 jobs and 16 clones, offset_increment,
zonemode=strided streams, rw=read:64k, trims, fsync/fdatasync/end_fsync, io_size, loops,
rate=R,W) on drives drawn from the model's range (1 to 16 actuators, 64 to 8000 sectors a
track, 20 MB/s to 1.2 GB/s links, NCQ depth 1 to 256, caches of 2 MiB to 256 MiB with or
without the write cache, 8 MiB to 512 TiB, no command overhead to 1 ms, zone ratio 0.2 to 1,
seek 0 to 5 ms + 0 to 30 ms x sqrt(stroke), write settle 0 to 3 ms, SATF age cap off to 1 s
and aging 0 to 500 ms a second, every scheduler, 4 to 1024 scheduler tags).
Usage: fio_physics.py KFSIM [--seeds A-B] [--keep DIR] [--duration S] [--wide]
Exit 0 when every file is within physics, 1 otherwise (each violation printed).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

RW = ["read", "write", "randread", "randwrite", "rw", "randrw"]
BS = [512, 1024, 4096, 8192, 16384, 65536, 131072, 262144, 1 << 20, 2 << 20, 4 << 20]
DEPTHS = [1, 2, 4, 8, 16, 32, 64, 128, 256]

# drives: (extra CLI arguments, parameters overridden from the model's defaults)
DEFAULTS = {"rpm": 7200, "spt_od": 4508, "link_mb_s": 600.0, "write_cache": 0,
            "actuators": 2, "raising": True, "cmd_overhead_ms": 0.1, "write_cache_mib": 64,
            "ncq_depth": 32, "capacity": 35156250000, "seek_min_ms": 0.7, "seek_coeff_ms": 12.0,
            "write_settle_ms": 0.5, "age_cap_ms": 1000.0, "satf_aging_ms_per_s": 20.0}
DRIVES = [
    ([], {}),
    (["--disk", "single"], {"actuators": 1}),
    (["--actuators", "4"], {"actuators": 4}),
    (["--disk-param", "rpm=15000"], {"rpm": 15000}),
    (["--disk-param", "rpm=5400", "--disk-param", "spt_od=3000"],
     {"rpm": 5400, "spt_od": 3000}),
    (["--disk-param", "link_mb_s=150"], {"link_mb_s": 150.0}),
    (["--disk-param", "write_cache=1"], {"write_cache": 1}),
    (["--sched", "none"], {"raising": False}),
    (["--sched", "mq-deadline", "--disk", "single"], {"actuators": 1, "raising": False,
                                                      "write_expire_s": 5.0}),
    (["--sched", "bfq-6.2"], {}),
    (["--low-latency", "0", "--actuators", "3"], {"actuators": 3, "raising": False}),
    (["--disk", "single", "--disk-param", "write_cache=1", "--disk-param", "rpm=10000",
      "--disk-param", "link_mb_s=300"], {"actuators": 1, "write_cache": 1, "rpm": 10000,
                                         "link_mb_s": 300.0}),
    (["--sched", "none", "--actuators", "4", "--disk-param", "spt_od=6000"],
     {"actuators": 4, "spt_od": 6000, "raising": False}),
]
ENGINES = ["libaio", "libaio", "io_uring", "psync"]


def gen_job(rng, name, lines):
    """One job section; returns what the checks need to know of it."""
    rw = rng.choice(RW)
    bs = rng.choice(BS)
    nblocks = rng.choice([1, 2, 8, 32, 128, 512])
    size = bs * nblocks
    job = {"name": name, "rw": rw, "bs": bs, "bs_min": bs, "bs_max": bs, "size": size,
           "numjobs": rng.choice([1, 1, 1, 2, 3]), "direct": rng.random() < 0.75,
           "rate": None, "rate_iops": None, "thinktime_us": 0, "thinktime_blocks": 1,
           "time_based": False, "engine": rng.choice(ENGINES)}
    lines += ["[%s]" % name, "rw=%s" % rw, "size=%d" % size,
              "direct=%d" % job["direct"], "offset=%d%%" % rng.randrange(0, 90)]
    mix = rng.random()
    if mix < 0.15:
        # a range: sizes that are multiples of its minimum (fio's bsrange)
        lo = rng.choice([512, 4096, 16384])
        hi = lo * rng.choice([2, 4, 16, 64])
        job["bs_min"], job["bs_max"] = lo, hi
        job["size"] = size = hi * nblocks
        lines += ["bsrange=%d-%d" % (lo, hi), "size=%d" % size]
    elif mix < 0.25:
        sizes = sorted(rng.sample([4096, 8192, 65536, 262144, 1 << 20], 2))
        share = rng.randrange(1, 100)
        job["bs_min"], job["bs_max"] = sizes
        job["size"] = size = sizes[1] * nblocks
        lines += ["bssplit=%d/%d:%d/%d" % (sizes[0], share, sizes[1], 100 - share),
                  "size=%d" % size]
    else:
        lines.append("bs=%d" % bs)
    depth = 1 if job["engine"] == "psync" else rng.choice(DEPTHS)
    # libaio on a buffered file completes in io_submit(): one I/O in flight
    job["depth"] = depth if job["direct"] or job["engine"] == "io_uring" else 1
    lines += ["ioengine=%s" % job["engine"], "iodepth=%d" % depth]
    if rw in ("rw", "randrw"):
        lines.append("rwmixread=%d" % rng.randrange(0, 101))
    if job["numjobs"] > 1:
        lines.append("numjobs=%d" % job["numjobs"])
    if rng.random() < 0.35:
        rate = rng.choice([1, 2, 5, 10, 20, 50, 100]) << 20
        job["rate"] = rate
        lines.append("rate=%d" % rate)
    if rng.random() < 0.15:
        iops = rng.choice([10, 50, 200, 1000])
        # fio's run refuses rate= with rate_iops= (fixup_options(): mutually exclusive)
        if not job["rate"]:
            job["rate_iops"] = iops
            lines.append("rate_iops=%d" % iops)
    if rng.random() < 0.25:
        job["thinktime_us"] = rng.choice([100, 1000, 5000, 20000])
        job["thinktime_blocks"] = rng.choice([1, 1, 2, 8])
        lines += ["thinktime=%d" % job["thinktime_us"],
                  "thinktime_blocks=%d" % job["thinktime_blocks"],
                  "thinktime_blocks_type=%s" % rng.choice(["complete", "issue"])]
    if rng.random() < 0.15:
        job["time_based"] = True
        lines += ["time_based", "runtime=10"]
    lines.append("")
    return job


def gen_file(rng):
    jobs = []
    lines = ["[global]", "filename=/dev/sdx", ""]
    for i in range(rng.randint(1, 4)):
        jobs.append(gen_job(rng, "j%d" % i, lines))
    return "\n".join(lines), jobs


# --wide: shapes gen_file() does not make, on drives drawn from the model's whole range.
WIDE_BS = [512, 1024, 3584, 4096, 8192, 12288, 65536, 131072, 1 << 20, 4 << 20]


def gen_drive_wide(rng):
    """A drive nobody picked: (CLI arguments, its parameters as check() reads them)."""
    params = dict(DEFAULTS)
    extra = []
    params["actuators"] = rng.choice([1, 1, 2, 2, 3, 4, 8, 16])
    extra += ["--actuators", str(params["actuators"])]
    over = {
        "rpm": rng.choice([4200, 5400, 7200, 10000, 15000]),
        "spt_od": rng.choice([64, 500, 3000, 4508, 8000]),
        "link_mb_s": rng.choice([20.0, 150.0, 600.0, 1200.0]),
        "ncq_depth": rng.choice([1, 2, 4, 32, 256]),
        "cmd_overhead_ms": rng.choice([0.0, 0.1, 0.1, 1.0]),
        "zone_ratio": rng.choice([0.2, 0.5, 1.0]),
        "readahead_kib": rng.choice([0, 64, 1024]),
        "cache_mib": rng.choice([2, 16, 256]),
        # tiny (a few MiB an actuator) to huge (512 TiB)
        "capacity": rng.choice([params["actuators"] * 16384, 1 << 24, 35156250000, 1 << 40]),
        "write_cache": rng.choice([0, 1]),
        "seek_min_ms": rng.choice([0.0, 0.7, 5.0]),
        "seek_coeff_ms": rng.choice([0.0, 12.0, 30.0]),
        "write_settle_ms": rng.choice([0.0, 0.5, 3.0]),
        "age_cap_ms": rng.choice([0.0, 50.0, 1000.0]),
        "satf_aging_ms_per_s": rng.choice([0.0, 20.0, 500.0]),
    }
    over["write_cache_mib"] = max(1, over["cache_mib"] // rng.choice([2, 4]))
    params.update(over)
    for key, value in over.items():
        extra += ["--disk-param", "%s=%s" % (key, value)]
    sched = rng.choice(["bfq", "bfq", "bfq-6.2", "none", "mq-deadline"])
    extra += ["--sched", sched]
    params["sched"] = "bfq" if sched.startswith("bfq") else sched
    params["raising"] = sched.startswith("bfq")
    if params["raising"] and rng.random() < 0.3:
        extra += ["--low-latency", "0"]
        params["raising"] = False
    params["nr_requests"] = 64
    if rng.random() < 0.3:
        params["nr_requests"] = rng.choice([4, 16, 256, 1024])
        extra += ["--nr-requests", str(params["nr_requests"])]
    return extra, params


def gen_job_wide(rng, name, lines, params):
    """One job section of shapes gen_job() does not make; returns what the checks need."""
    rw = rng.choice(RW + ["read:64k", "randread:8", "write:1m", "trim", "randtrim"])
    base = rw.split(":")[0]
    job = {"name": name, "rw": base, "numjobs": rng.choice([1, 1, 2, 8, 16]),
           "direct": rng.random() < 0.8, "rate": None, "rate_iops": None, "thinktime_us": 0,
           "thinktime_blocks": 1, "time_based": False, "engine": rng.choice(ENGINES),
           "bytes_known": True, "trim": "trim" in base, "end_fsync": False, "fsync": 0}
    nblocks = rng.choice([1, 4, 64, 1024])
    shape = rng.random()
    if shape < 0.3:
        # different sizes for reads and writes
        rbs, wbs = rng.choice(WIDE_BS), rng.choice(WIDE_BS)
        job["bs_min"], job["bs_max"] = min(rbs, wbs), max(rbs, wbs)
        lines.append("bs=%d,%d" % (rbs, wbs))
    elif shape < 0.55:
        # a split of three to five sizes
        sizes = sorted(rng.sample(WIDE_BS, rng.randint(3, 5)))
        shares = [rng.randrange(1, 25) for _ in sizes[:-1]]
        shares.append(100 - sum(shares))
        parts = ["%d/%d" % (b, w) for b, w in zip(sizes, shares)]
        job["bs_min"], job["bs_max"] = sizes[0], sizes[-1]
        lines.append("bssplit=%s" % ":".join(parts))
    elif shape < 0.7:
        lo = rng.choice([512, 1024, 4096])
        job["bs_min"], job["bs_max"] = lo, lo * rng.choice([3, 8, 256])
        lines.append("bsrange=%d-%d" % (job["bs_min"], job["bs_max"]))
    else:
        job["bs_min"] = job["bs_max"] = rng.choice(WIDE_BS)
        lines.append("bs=%d" % job["bs_min"])
    # a size the drive can hold: a share of it on a tiny drive
    region = params["capacity"] * 512
    size = job["bs_max"] * nblocks
    if size * job["numjobs"] * 2 > region or rng.random() < 0.1:
        # a share that holds a few of the largest blocks
        pct = next((p for p in (1, 10, 50, 100) if region * p // 100 >= 4 * job["bs_max"]),
                   100)
        job["bytes_known"] = False
        lines += ["size=%d%%" % pct]
        size = None
    else:
        lines += ["size=%d" % size, "offset=%d%%" % rng.randrange(0, 50)]
    job["size"] = size
    depth = 1 if job["engine"] == "psync" else rng.choice([1, 4, 64, 512, 4096])
    job["depth"] = depth if job["direct"] or job["engine"] == "io_uring" else 1
    head = ["[%s]" % name, "rw=%s" % rw, "direct=%d" % job["direct"],
            "ioengine=%s" % job["engine"], "iodepth=%d" % depth]
    if base in ("rw", "randrw"):
        head.append("rwmixread=%d" % rng.randrange(0, 101))
    if job["numjobs"] > 1:
        head.append("numjobs=%d" % job["numjobs"])
        if rng.random() < 0.5 and size:
            head.append("offset_increment=%d" % size)
    if rng.random() < 0.3 and not base.startswith("rand"):
        # zoned sequential streams (fio's zonemode=strided; kfsim refuses random I/O in them)
        zs = job["bs_max"] * rng.choice([1, 4, 16])
        head += ["zonemode=strided", "zonesize=%d" % zs, "zonerange=%d" % (zs * 4),
                 "zoneskip=%d" % (zs * rng.choice([0, 1, 8]))]
        job["bytes_known"] = False
    if rng.random() < 0.15:
        head.append(rng.choice(["io_size=%d" % (job["bs_max"] * 8), "number_ios=5",
                                "loops=2", "percentage_random=50"]))
        job["bytes_known"] = False
    if base in ("write", "randwrite", "rw", "randrw") and rng.random() < 0.4:
        if rng.random() < 0.5:
            job["fsync"] = rng.choice([1, 4, 32])
            head.append("%s=%d" % (rng.choice(["fsync", "fdatasync"]), job["fsync"]))
        job["end_fsync"] = rng.random() < 0.6
        if job["end_fsync"]:
            head.append("end_fsync=1")
    if rng.random() < 0.25:
        rates = [rng.choice([1, 10, 100]) << 20, rng.choice([1, 10, 100]) << 20]
        job["rate"] = rates
        head.append("rate=%d,%d" % tuple(rates))
    elif rng.random() < 0.15:
        job["rate_iops"] = rng.choice([10, 100, 1000])
        head.append("rate_iops=%d" % job["rate_iops"])
    if rng.random() < 0.15:
        job["thinktime_us"] = rng.choice([100, 5000])
        job["thinktime_blocks"] = rng.choice([1, 4])
        head += ["thinktime=%d" % job["thinktime_us"],
                 "thinktime_blocks=%d" % job["thinktime_blocks"]]
    if rng.random() < 0.1:
        job["time_based"] = True
        head += ["time_based", "runtime=10"]
    # the seventh round's options: pauses by time too (thinktime_blocks stays given, so the
    # pause checks' bounds hold), offsets repeated (rw_sequencer=identical, fixed sizes only),
    # a full queue drained before it refills (not beside a think time: refused there)
    if job["thinktime_us"] and rng.random() < 0.5:
        head.append("thinktime_iotime=%dms" % rng.choice([1, 20, 300]))
    if rw == "randread:8" and job["bs_min"] == job["bs_max"] and rng.random() < 0.5:
        head.append("rw_sequencer=identical")
    if not job["thinktime_us"] and depth > 1 and rng.random() < 0.2:
        head.append(rng.choice(["iodepth_low=1", "iodepth_low=%d" % max(1, depth // 4),
                                "iodepth_batch_complete_min=%d" % max(2, depth // 2)]))
    return job, head


def gen_file_wide(rng, params):
    jobs, lines = [], ["[global]", "filename=/dev/sdx", ""]
    for i in range(rng.randint(1, 8)):
        if sum(j["numjobs"] for j in jobs) > 100:
            break
        body = []
        job, head = gen_job_wide(rng, "j%d" % i, body, params)
        jobs.append(job)
        lines += head + body + [""]
    return "\n".join(lines), jobs


def clone_names(job):
    if job["numjobs"] == 1:
        return [job["name"]]
    return ["%s.%02d" % (job["name"], k) for k in range(job["numjobs"])]


def starve_bound(job, jobs, params, duration):
    """Whether @job must have completed a request within @duration: it has work that its own
    limits let start at once (no thinktime or rate far apart), and the run is long enough
    for every job's first I/O whatever the others hold (BFQ's timeout_sync of 125 ms a
    queue, a 4 MiB block at the slowest rate modelled)."""
    if params["raising"]:
        # BFQ's low_latency raises new queues (x30 for bfq_wr_duration(), seconds), and a
        # raised queue is charged sectors, not time, with a 30x budget timeout: one whose
        # budget went back to 2/3 of the maximum (bfq_updated_next_req()) waits behind raised
        # queues that preempt each other to recover their holes (seed 975: j1 got nothing
        # until the 512 B clones ended at 7.4 s; docs/bfq.md "Seed 975" traces the 6.12 path)
        return False
    clones = sum(j["numjobs"] for j in jobs)
    if "sched" not in params:
        worst_io_s = 4 * 1048576 / (params["spt_od"] * 256 * params["rpm"] / 60)
        # mq-deadline (6.3) serves writes in sector order from the last one dispatched
        # (per_prio->next_rq, rb_next()): a deep writer to one sector always has a next
        # request there, and a write elsewhere waits for its 5 s expiry (seed 52359: 256
        # writes of 1 KiB at 41 % held a 2 %-read mix's writes at 2 % for 3.5 s)
        expiry = params.get("write_expire_s", 0.0) if job["rw"] not in ("read", "randread") \
            else 0.0
        return duration >= clones * (0.125 + worst_io_s) + 1.0 + expiry
    # --wide: the file's largest block at the slower of the link and the innermost zone,
    # after a full seek, settle, overhead and turn
    inner = params["spt_od"] * params["zone_ratio"] * 512 * params["rpm"] / 60
    worst_io_s = (max(j["bs_max"] for j in jobs) / min(inner, params["link_mb_s"] * 1e6) +
                  (params["seek_min_ms"] + params["seek_coeff_ms"] + params["write_settle_ms"] +
                   params["cmd_overhead_ms"]) / 1e3 + 60 / params["rpm"])
    if params["sched"] == "bfq":
        return duration >= clones * (0.125 + worst_io_s) + 1.0
    # none and mq-deadline promise no share: a request waits for what is queued ahead of it
    # (every scheduler tag and every drive tag, held by jobs deeper than they are), the
    # drive's age cap (1 s), and under mq-deadline a write's 5 s expiry (seed 31668: 63
    # 4 MiB writes over a 20 MB/s link ahead of the others' first I/O, 12.6 s)
    demand = sum(j["numjobs"] * j["depth"] for j in jobs)
    if params["sched"] == "none" and demand > params["nr_requests"]:
        # none leaves min_shallow_depth alone: a freed tag wakes sleepers only every
        # nr_requests / 8 completions (sbq_calc_wake_batch()), and the tags freed between go
        # to whoever asks first, the completing job resubmitting; a woken sleeper that finds
        # none sleeps again at a queue's tail.  No bound (seed 32193: 48 clones on 16 tags,
        # three of them no tag in 3.5 s, as blk-mq's sbitmap can leave them)
        return False
    ahead = min(params["nr_requests"], demand)
    # no age cap (0): SATF alone may pass a far command over for as long as nearer ones come
    if not params["age_cap_ms"]:
        return False
    need = (ahead + params["ncq_depth"]) * worst_io_s + params["age_cap_ms"] / 1e3 + 1.0
    if params["sched"] == "mq-deadline":
        need += 5.0
    return duration >= need


def check(out, jobs, params, duration):
    """Every violation of physics in one run's --json, as text."""
    bad = []
    media = params["spt_od"] * 512 * params["rpm"] / 60 / 1e6  # MB/s, outer zone
    link = params["link_mb_s"]
    eps = 1e-9
    slack = 1.0 + 1e-6
    acts = out["actuator"]
    max_bs = max(j["bs_max"] for j in jobs)
    total = 0.0
    for i, act in enumerate(acts):
        total += act["mb_s"]
        if not -eps <= act["utilisation"] <= 1 + eps:
            bad.append("actuator %d utilisation %g outside [0, 1]" % (i, act["utilisation"]))
        # a read from the cache costs no media time now, but its bytes were read (or
        # read ahead) from the media at some time in the run, or are a re-read of
        # bytes read before (fio's clones share their region; random offsets repeat)
        cache_mb_s = act["cache_hits"] * max_bs / 1e6 / out["duration_s"]
        if not params["write_cache"] and act["mb_s"] > media * slack + cache_mb_s:
            bad.append("actuator %d delivered %.1f MB/s > media %.1f MB/s + %d cache hits"
                       % (i, act["mb_s"], media, act["cache_hits"]))
    if total > link * slack:
        bad.append("drive delivered %.1f MB/s > link %.1f MB/s" % (total, link))
    dur_s = out["duration_s"]
    # the write cache holds at most write_cache_mib not yet on the media: every byte written
    # beyond it went onto the media, at no more than the actuators' outer-zone rates.  The
    # drive's writes: direct jobs' and the page cache's writeback (a buffered job's own
    # write_bytes are copies into the page cache)
    direct_names = {n for j in jobs if j["direct"] for n in clone_names(j)}
    written = out["writeback_bytes"] + sum(r["write_bytes"] for r in out["jobs"]
                                           if r["name"] in direct_names)
    media_all = media * 1e6 * len(acts) * dur_s
    cache_b = params["write_cache_mib"] * 1048576 if params["write_cache"] else 0
    if written > media_all * slack + cache_b:
        bad.append("%d B written in %g s > %d actuators' media %.0f B + write cache %d B"
                   % (written, dur_s, len(acts), media_all, cache_b))
    # the page cache writes back what buffered jobs wrote into it, nothing else: at most
    # their bytes, and a block each whose copy into it ended after the run (counted then)
    buffered = [j for j in jobs if not j["direct"]]
    copied = sum(r["write_bytes"] for r in out["jobs"]
                 if r["name"] in {n for j in buffered for n in clone_names(j)})
    if out["writeback_bytes"] > copied + sum(j["numjobs"] * j["bs_max"] for j in buffered):
        bad.append("writeback wrote %d B, buffered jobs copied %d B"
                   % (out["writeback_bytes"], copied))
    # every command but a cached write or a write streaming on from the one before pays the
    # command overhead on its actuator, one command at a time: reads alone are so bounded
    overhead_s = params["cmd_overhead_ms"] / 1e3
    if overhead_s and written == 0 and not any(j["rw"] not in ("read", "randread")
                                               for j in jobs):
        for i, act in enumerate(acts):
            cap = 1 / overhead_s + 1 / dur_s
            if act["iops"] > cap * slack:
                bad.append("actuator %d: %.0f reads/s > one per command overhead (%g ms)"
                           % (i, act["iops"], params["cmd_overhead_ms"]))
    if out["submitted"] != out["completed"] + out["in_flight_at_end"]:
        bad.append("submitted %d != completed %d + in flight %d"
                   % (out["submitted"], out["completed"], out["in_flight_at_end"]))
    byname = {j["name"]: j for j in out["jobs"]}
    buffered = any(not j["direct"] for j in jobs)
    if not buffered:
        nreq = sum(j["requests"] for j in out["jobs"])
        if nreq != out["completed"]:
            bad.append("jobs' requests %d != completed %d" % (nreq, out["completed"]))
        nact = sum(a["iops"] for a in acts) * out["duration_s"]
        if abs(nact - out["completed"]) > 0.5:
            bad.append("actuators' I/Os %g != completed %d" % (nact, out["completed"]))
    for job in jobs:
        for name in clone_names(job):
            r = byname.get(name)
            if r is None:
                bad.append("%s: missing from the report" % name)
                continue
            moved = r["read_bytes"] + r["write_bytes"]
            act_s = r["active_s"]
            if not -eps <= act_s <= duration + eps:
                bad.append("%s: active_s %g outside [0, %g]" % (name, act_s, duration))
            fixed = job["bs_min"] == job["bs_max"]
            if job.get("trim"):
                # trims on a disk that has none: the job ends before any I/O, as fio's
                if moved or r["requests"] or r.get("error") != "EOPNOTSUPP":
                    bad.append("%s: trims moved %d bytes in %d requests (error %s)"
                               % (name, moved, r["requests"], r.get("error")))
                continue
            # Little's law: the I/Os in flight at once, averaged over the job's time, are
            # the sum of their latencies over that time, and never more than its iodepth
            in_flight = r["requests"] * r["lat_mean_us"] * 1e-6
            if act_s > 0 and in_flight > job["depth"] * act_s * slack + eps:
                bad.append("%s: %d requests x %.1f us mean latency = %.4f s in flight > "
                           "iodepth %d x %g s" % (name, r["requests"], r["lat_mean_us"],
                                                  in_flight, job["depth"], act_s))
            # fio's "sync" total_ios counts fsync='s (DDIR_SYNC): of a writer, one per fsync=
            # writes issued (at most its completed ones and its depth).  Not of a mixed job:
            # fio 3.33 syncs again after each read that follows (should_fsync() looks at
            # last_was_sync, which a read's completion clears; io_issues[DDIR_WRITE] is still
            # a multiple), and so does kfsim
            if job.get("fsync") and job["rw"] in ("write", "randwrite") and "sync" in r and \
                    r["sync"]["total_ios"] > (r["requests"] + job["depth"]) / job["fsync"] + 1:
                bad.append("%s: %d fsyncs for %d requests, one per %d writes"
                           % (name, r["sync"]["total_ios"], r["requests"], job["fsync"]))
            if job.get("end_fsync") and act_s < duration - 1e-6 and \
                    r["write_bytes"] > media * 1e6 * len(acts) * act_s * slack:
                bad.append("%s: end_fsync done at %g s, but %d B cannot be on the media yet"
                           % (name, act_s, r["write_bytes"]))
            if not job.get("bytes_known", True):
                pass
            elif not job["time_based"]:
                # mixed sizes: fio stops issuing once its bytes reach the size, so the last
                # block may pass it by less than the largest
                slack_b = 0 if fixed else job["bs_max"]
                if moved > job["size"] + slack_b:
                    bad.append("%s: moved %d bytes > size %d" % (name, moved, job["size"]))
                if act_s < duration - 1e-6 and fixed and moved != job["size"]:
                    bad.append("%s: ended at %gs having moved %d of %d bytes"
                               % (name, act_s, moved, job["size"]))
                if act_s < duration - 1e-6 and moved < job["size"] - job["bs_max"]:
                    bad.append("%s: ended at %gs having moved %d of %d bytes"
                               % (name, act_s, moved, job["size"]))
            if not r["requests"] * job["bs_min"] <= moved <= r["requests"] * job["bs_max"]:
                bad.append("%s: %d requests of %d..%d B but %d bytes"
                           % (name, r["requests"], job["bs_min"], job["bs_max"], moved))
            # no starvation: in 0.5 s every job that has work completes something (BFQ's
            # slices end within timeout_sync, 125 ms; mq-deadline's reads expire in 500 ms,
            # its writes go after two read batches; the drive ages its queue within 1 s)
            if not r["requests"] and starve_bound(job, jobs, params, duration):
                bad.append("%s: no request completed in %g s" % (name, duration))
            # thinktime (fio's handle_thinktime()): at most thinktime_blocks + depth I/Os
            # between pauses, one pause per thinktime of the job's active time
            if job["thinktime_us"]:
                pauses = act_s * 1e6 / job["thinktime_us"] + 1
                cap = pauses * (job["thinktime_blocks"] + job["depth"])
                if job["thinktime_blocks"] == 1 and job["depth"] == 1:
                    # one I/O at a time: after the first, one I/O a pause.  Not deeper: fio
                    # 3.33's handle_thinktime() pauses once a block completed since the last
                    # pause's count, which it takes before its quiesce; a pause whose quiesce
                    # found nothing in flight is followed by issues until one completes, up
                    # to the depth (seeds 40548, 41007, 46485, 48634: 1.8 I/Os a pause at
                    # depth 4, as fio's rule gives; kfsim's job_think_due() is that rule)
                    cap = job["depth"] + pauses
                if r["requests"] > cap + eps:
                    bad.append("%s: %d requests in %g s > %d pauses of %d us x (%d + depth %d)"
                               % (name, r["requests"], act_s, pauses, job["thinktime_us"],
                                  job["thinktime_blocks"], job["depth"]))
            if job["rate_iops"]:
                ios = r["requests"]
                if ios > 2 * (job["rate_iops"] * act_s + 1) + eps:
                    bad.append("%s: %d requests > rate_iops %d x %gs per direction"
                               % (name, ios, job["rate_iops"], act_s))
            if r["lat_mean_us"] > r["lat_max_us"] * slack + eps or \
               r["lat_p99_us"] > r["lat_max_us"] * slack + eps:
                bad.append("%s: latency mean %g / p99 %g > max %g" % (
                    name, r["lat_mean_us"], r["lat_p99_us"], r["lat_max_us"]))
            if job["direct"] and r["requests"]:
                # its bytes cross the link (bytes / (MB/s) = us), and then or before the drive
                # spends its command overhead (a read, a cached write) or writes them onto the
                # media (a write streaming on from the one before pays no overhead)
                floor_us = job["bs_min"] / link + min(params["cmd_overhead_ms"] * 1e3,
                                                      job["bs_min"] / media)
                for key in ("lat_mean_us", "lat_p99_us", "lat_max_us"):
                    if r[key] < floor_us * (1 - 1e-4):
                        bad.append("%s: %s %.3f < %.3f us to cross the link and reach the "
                                   "media or pay the command overhead"
                                   % (name, key, r[key], floor_us))
            if job["rate"]:
                rates = job["rate"] if isinstance(job["rate"], list) else [job["rate"]] * 2
                for key, rate in zip(("read_bytes", "write_bytes"), rates):
                    cap = rate * act_s + job["bs_max"]
                    if r[key] > cap:
                        bad.append("%s: %s %d > rate %d B/s x %gs + one block" % (
                            name, key, r[key], rate, act_s))
    return bad


# The drive's published figures (Seagate, via the reference notes' sources: Exos X18 one
# actuator, Exos 2X18 SATA two), each a fio job file as a user would write it, run under
# --sched none (datasheets measure the drive, not a scheduler): (what, fio file, drive
# arguments, seconds, figure, unit).  Within 10 %: the model is calibrated to them.
DATASHEET = [
    ("4 KiB random read QD16, one actuator", "[r]\nfilename=/dev/sdx\ndirect=1\n"
     "ioengine=libaio\niodepth=16\nrw=randread\nbs=4k\n", ["--disk", "single"], 10, 170,
     "IOPS"),
    ("4 KiB random read QD16, two actuators", "[r]\nfilename=/dev/sdx\ndirect=1\n"
     "ioengine=libaio\niodepth=16\nrw=randread\nbs=4k\n", [], 10, 304, "IOPS"),
    ("sequential 1 MiB reads, one actuator", "[r]\nfilename=/dev/sdx\ndirect=1\n"
     "ioengine=libaio\niodepth=4\nrw=read\nbs=1m\n", ["--disk", "single"], 2, 270, "MB/s"),
    ("sequential 1 MiB reads, one stream per actuator", "[global]\nfilename=/dev/sdx\n"
     "direct=1\nioengine=libaio\niodepth=4\nrw=read\nbs=1m\nsize=50%\n[a]\n"
     "offset=0\n[b]\noffset=50%\n", [], 2, 554, "MB/s"),
]


def datasheet(kfsim, tmp):
    """The figures of DATASHEET: the lines to print and the number outside 10 %."""
    lines, bad = [], 0
    for what, text, extra, secs, figure, unit in DATASHEET:
        path = os.path.join(tmp, "datasheet.fio")
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([kfsim, "bfq", "sim", "--fio", path, "--json", "--sched", "none",
                            "--duration", str(secs)] + extra, capture_output=True, text=True)
        if p.returncode:
            lines.append("datasheet: %s: kfsim exited %d: %s" % (what, p.returncode,
                                                                  p.stderr.strip()))
            bad += 1
            continue
        out = json.loads(p.stdout)
        got = sum(a["iops" if unit == "IOPS" else "mb_s"] for a in out["actuator"])
        ok = abs(got - figure) <= 0.1 * figure
        bad += not ok
        lines.append("datasheet: %s: %.1f %s (Seagate %d, %+.1f %%)%s" % (
            what, got, unit, figure, 100.0 * (got - figure) / figure,
            "" if ok else "  OUTSIDE 10 %"))
    return lines, bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kfsim")
    ap.add_argument("--seeds", default="1-200")
    ap.add_argument("--duration", type=float, default=0.5)
    ap.add_argument("--keep", help="write the job files that violate physics here")
    ap.add_argument("--wide", action="store_true",
                    help="gen_file_wide()'s shapes on drives drawn from the model's range")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    checked = violations = refused = 0
    invariants = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(lo, hi + 1):
            rng = random.Random(seed)
            if args.wide:
                extra, params = gen_drive_wide(rng)
                text, jobs = gen_file_wide(rng, params)
            else:
                text, jobs = gen_file(rng)
                extra, over = DRIVES[seed % len(DRIVES)]
                params = dict(DEFAULTS, **over)
            path = os.path.join(tmp, "s%d.fio" % seed)
            with open(path, "w") as f:
                f.write(text)
            # every third file runs long enough for the starvation check (starve_bound())
            duration = args.duration if seed % 3 else max(args.duration, 3.5)
            cmd = [args.kfsim, "bfq", "sim", "--fio", path, "--json",
                   "--duration", str(duration), "--seed", str(seed)] + extra
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                # a refusal is fio_jobgen's business; a crash is a failure here
                if p.returncode < 0 or p.returncode > 2:
                    print("seed %d: kfsim exited %d\n%s" % (seed, p.returncode, p.stderr))
                    violations += 1
                else:
                    refused += 1
                    print("seed %d: refused: %s" % (seed, p.stderr.strip()[:200]))
                continue
            bad = check(json.loads(p.stdout), jobs, params, duration)
            checked += 1
            invariants += 1 + sum(j["numjobs"] for j in jobs)
            if bad:
                violations += 1
                print("seed %d (%s):\n  %s" % (seed, " ".join(extra) or "default drive",
                                               "\n  ".join(bad)))
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    with open(os.path.join(args.keep, "s%d.fio" % seed), "w") as f:
                        f.write(text)
                    with open(os.path.join(args.keep, "s%d.args" % seed), "w") as f:
                        f.write(" ".join(cmd[2:]) + "\n")
        sheet, sheet_bad = datasheet(args.kfsim, tmp)
    print("\n".join(sheet))
    violations += sheet_bad
    print("fio_physics: %d job files run (seeds %s, %g s each, %s), %d refused, "
          "%d with violations; checked per drive: media rate per actuator, link, "
          "submitted = completed + in flight (and, direct only, = the jobs' requests and "
          "the actuators' I/Os); per job (%d job instances): bytes = size "
          "when done and <= size, requests x bs = bytes (min..max with mixed sizes), "
          "latency >= link transfer + overhead or media time (direct), rate= and rate_iops= caps, a pause per "
          "thinktime, progress in 3.5 s without weight raising, active time within the run, "
          "writes within media + write cache, reads within the command overhead, Little's "
          "law within iodepth, end_fsync's data on the media, trims refused"
          % (checked, args.seeds, args.duration,
             "drives drawn from the model's range" if args.wide else "%d drives" % len(DRIVES),
             refused, violations, invariants - checked))
    return 1 if violations or refused > (hi - lo + 1) // 10 else 0


if __name__ == "__main__":
    sys.exit(main())
