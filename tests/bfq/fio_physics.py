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
  - a direct I/O completes no earlier than its bytes take to cross the link: mean, p99 and
    largest latency >= bs / link_mb_s;
  - nothing invented or lost: a job without time_based moves at most its size, exactly its
    size when it ended before the run did, in exactly size / bs requests; the jobs'
    requests add up to the completions, the completions plus what is left in flight to the
    submissions, the actuators' I/Os to the completions (buffered jobs copy into the page
    cache: the flusher's I/Os are the disk's, so these two checks skip files with them);
  - rate=R[,W] is never exceeded: a job's bytes in each direction <= R x active time + one
    block (the first is issued at once);
  - times in order: 0 <= active_s <= duration, utilisation in [0, 1], mean and p99 latency
    <= the largest.

Job files come from a seeded generator of its own (block sizes 512 B to 4 MiB, every rw
mix, iodepth 1 to 256, numjobs, direct and buffered, rate limits, offsets), each run on one
of several drives (one, two or four actuators, 5400 to 15000 rpm, a slow link, the write
cache on).  Usage: fio_physics.py KFSIM [--seeds A-B] [--keep DIR] [--duration S]
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
            "actuators": 2}
DRIVES = [
    ([], {}),
    (["--disk", "single"], {"actuators": 1}),
    (["--actuators", "4"], {"actuators": 4}),
    (["--disk-param", "rpm=15000"], {"rpm": 15000}),
    (["--disk-param", "rpm=5400", "--disk-param", "spt_od=3000"],
     {"rpm": 5400, "spt_od": 3000}),
    (["--disk-param", "link_mb_s=150"], {"link_mb_s": 150.0}),
    (["--disk-param", "write_cache=1"], {"write_cache": 1}),
    (["--sched", "none"], {}),
    (["--sched", "mq-deadline", "--disk", "single"], {"actuators": 1}),
]


def gen_job(rng, name, lines):
    """One job section; returns what the checks need to know of it."""
    rw = rng.choice(RW)
    bs = rng.choice(BS)
    nblocks = rng.choice([1, 2, 8, 32, 128, 512])
    size = bs * nblocks
    job = {"name": name, "rw": rw, "bs": bs, "size": size,
           "numjobs": rng.choice([1, 1, 1, 2, 3]), "direct": rng.random() < 0.75,
           "rate": None}
    lines += ["[%s]" % name, "rw=%s" % rw, "bs=%d" % bs, "size=%d" % size,
              "direct=%d" % job["direct"], "offset=%d%%" % rng.randrange(0, 90)]
    depth = rng.choice(DEPTHS)
    lines += ["ioengine=libaio", "iodepth=%d" % depth]
    if rw in ("rw", "randrw"):
        lines.append("rwmixread=%d" % rng.randrange(0, 101))
    if job["numjobs"] > 1:
        lines.append("numjobs=%d" % job["numjobs"])
    if rng.random() < 0.35:
        rate = rng.choice([1, 2, 5, 10, 20, 50, 100]) << 20
        job["rate"] = rate
        lines.append("rate=%d" % rate)
    lines.append("")
    return job


def gen_file(rng):
    jobs = []
    lines = ["[global]", "filename=/dev/sdx", ""]
    for i in range(rng.randint(1, 4)):
        jobs.append(gen_job(rng, "j%d" % i, lines))
    return "\n".join(lines), jobs


def clone_names(job):
    if job["numjobs"] == 1:
        return [job["name"]]
    return ["%s.%02d" % (job["name"], k) for k in range(job["numjobs"])]


def check(out, jobs, params, duration):
    """Every violation of physics in one run's --json, as text."""
    bad = []
    media = params["spt_od"] * 512 * params["rpm"] / 60 / 1e6  # MB/s, outer zone
    link = params["link_mb_s"]
    eps = 1e-9
    slack = 1.0 + 1e-6
    acts = out["actuator"]
    max_bs = max(j["bs"] for j in jobs)
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
            if moved > job["size"]:
                bad.append("%s: moved %d bytes > size %d" % (name, moved, job["size"]))
            if act_s < duration - 1e-6 and moved != job["size"]:
                bad.append("%s: ended at %gs having moved %d of %d bytes"
                           % (name, act_s, moved, job["size"]))
            if r["requests"] * job["bs"] != moved:
                bad.append("%s: %d requests of %d B but %d bytes"
                           % (name, r["requests"], job["bs"], moved))
            if r["lat_mean_us"] > r["lat_max_us"] * slack + eps or \
               r["lat_p99_us"] > r["lat_max_us"] * slack + eps:
                bad.append("%s: latency mean %g / p99 %g > max %g" % (
                    name, r["lat_mean_us"], r["lat_p99_us"], r["lat_max_us"]))
            if job["direct"] and r["requests"]:
                floor_us = job["bs"] / link  # bytes / (MB/s) = us
                for key in ("lat_mean_us", "lat_p99_us", "lat_max_us"):
                    if r[key] * slack < floor_us:
                        bad.append("%s: %s %.3f < %.3f us to cross the link"
                                   % (name, key, r[key], floor_us))
            if job["rate"]:
                for key in ("read_bytes", "write_bytes"):
                    cap = job["rate"] * act_s + job["bs"]
                    if r[key] > cap:
                        bad.append("%s: %s %d > rate %d B/s x %gs + one block" % (
                            name, key, r[key], job["rate"], act_s))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kfsim")
    ap.add_argument("--seeds", default="1-200")
    ap.add_argument("--duration", type=float, default=0.5)
    ap.add_argument("--keep", help="write the job files that violate physics here")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    checked = violations = refused = 0
    invariants = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(lo, hi + 1):
            rng = random.Random(seed)
            text, jobs = gen_file(rng)
            extra, over = DRIVES[seed % len(DRIVES)]
            params = dict(DEFAULTS, **over)
            path = os.path.join(tmp, "s%d.fio" % seed)
            with open(path, "w") as f:
                f.write(text)
            cmd = [args.kfsim, "bfq", "sim", "--fio", path, "--json",
                   "--duration", str(args.duration), "--seed", str(seed)] + extra
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
            bad = check(json.loads(p.stdout), jobs, params, args.duration)
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
    print("fio_physics: %d job files run (seeds %s, %g s each, %d drives), %d refused, "
          "%d with violations; checked per drive: media rate per actuator, link, "
          "submitted = completed + in flight (and, direct only, = the jobs' requests and "
          "the actuators' I/Os); per job (%d job instances): bytes = size "
          "when done and <= size, requests x bs = bytes, latency >= link transfer time "
          "(direct), rate= caps, active time within the run"
          % (checked, args.seeds, args.duration, len(DRIVES), refused, violations,
             invariants - checked))
    return 1 if violations or refused > (hi - lo + 1) // 10 else 0


if __name__ == "__main__":
    sys.exit(main())
