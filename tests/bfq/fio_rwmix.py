#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fio 3.33's run as the referee of a mixed job's directions (rw=randrw, rw=rw, readwrite).

Random job files from a seed, each run by fio (ioengine=null: no disk I/O, nothing on this
machine's disks is touched) and by kfsim (direct, on the simulated disk, libaio, or psync
for a job at depth 1, which completes its I/O in its queue call as fio's null engine does
at depth 1: fio counts the bytes of a pass only of queued I/O); per job
and direction the I/Os and bytes of fio's JSON ("read"/"write" "total_ios", "io_bytes") are
compared with kfsim's --json (read_ios, write_ios, read_bytes, write_bytes):

  - count files: jobs that end at their size, io_size or number_ios (rwmixread or
    rwmixwrite from 0 to 100 or neither, one block size or one per direction, iodepth 1 to
    32, numjobs, two sections, randseed= and allrandrepeat=1 in [global]).  Which direction
    each I/O takes is fio's get_rw_ddir(), from fio's own generator and seed: nothing here
    depends on time, so kfsim must agree exactly;
  - rate files (--rate-every N: one file in N): time_based runs of one second under
    rate= or rate_iops= caps on both directions or one (rate_ddir() moves an I/O to the
    other direction when the chosen one is ahead of its cap).  fio runs in real time: a
    capped direction agrees within max(2 I/Os, 3 %), the tolerance of fio's start and
    sleeps (its first I/O goes at once, its last may fall either side of the second); a
    direction without a cap does as many I/Os as the device lets it (millions with fio's
    null engine, the disk's pace in kfsim): not compared.  With one direction capped, the
    capped one gets its turns between the other's I/Os, which the disk paces here and
    nothing paces under the null engine: it must not exceed fio's (same tolerance), and
    such files are counted apart ("rate, one cap").

With --ranges half the sections of count files draw their block sizes (bsrange, bssplit, per direction or
not), from fio's generator and seeds here as in fio: a sequential job must agree exactly, a
random one within max(2 I/Os, 3 % + twice the redraws expected), since fio draws a size
again when it does not fit at the random offset it took (a chance of the largest block over
the region an I/O), and kfsim's offsets are not fio's.

Random offsets: fio's random map (kfsim draws offsets with replacement, docs/bfq.md) changes
the I/Os of a randrw job whose directions' blocks differ; such files set norandommap.

Usage: fio_rwmix.py KFSIM [--seeds A-B] [--rate-every N] [--ranges] [--keep DIR]
                     [--show-wrong N]
Exit 0 when every file agrees, 1 otherwise, 77 when fio is absent.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

SIZES = [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072]
MIXES = [0, 1, 5, 10, 20, 25, 30, 33, 50, 60, 67, 70, 75, 80, 90, 95, 99, 100]


def size_text(n):
    return "%dk" % (n // 1024) if n % 1024 == 0 else str(n)


def range_option(rng, lines):
    """--ranges: a bsrange or bssplit, per direction or for both; the largest block."""
    def one_range():
        lo = rng.choice(SIZES[:6])
        return lo, lo * rng.choice([2, 3, 4, 8, 16])

    def one_split():
        # no entry of 0 %: fio 3.33 draws for ever when only such an entry fits at the
        # random offset it took (get_next_buflen() skips it; seen as a hang)
        sizes = rng.sample(SIZES, rng.randrange(2, 4))
        percs, left = [], 100
        for k in range(len(sizes) - 1):
            p = rng.randrange(1, left - (len(sizes) - 1 - k) + 1)
            percs.append(p)
            left -= p
        percs.append(left)
        return ":".join("%s/%d" % (size_text(b), p) for b, p in zip(sizes, percs)), \
            max(b for b, p in zip(sizes, percs) if p) if any(percs) else max(sizes)

    if rng.random() < 0.5:
        parts = [one_range() for _ in range(rng.choice([1, 2]))]
        lines.append("bsrange=%s" % ",".join("%s-%s" % (size_text(a), size_text(b))
                                             for a, b in parts))
        return max(b for a, b in parts)
    parts = [one_split() for _ in range(rng.choice([1, 2]))]
    lines.append("bssplit=%s" % ",".join(t for t, m in parts))
    return max(m for t, m in parts)


def gen_job(rng, name, rate, ranges=False):
    """One job section: its lines and what the comparison needs (block size per direction,
    which directions are capped, whether block sizes are drawn)."""
    rw = rng.choice(["randrw", "rw", "readwrite", "randrw"])
    lines = ["[%s]" % name, "rw=%s" % rw]
    r = rng.random()
    mix = rng.choice(MIXES) if rng.random() < 0.7 else rng.randrange(0, 101)
    if r < 0.5:
        lines.append("rwmixread=%d" % mix)
    elif r < 0.8:
        lines.append("rwmixwrite=%d" % mix)
    if rng.random() < 0.5:
        bs = [rng.choice(SIZES)] * 2
        lines.append("bs=%s" % size_text(bs[0]))
    else:
        bs = [rng.choice(SIZES), rng.choice(SIZES)]
        lines.append("bs=%s,%s" % (size_text(bs[0]), size_text(bs[1])))
    drawn = ranges and not rate and rng.random() < 0.5  # caps come from fixed sizes
    if drawn:
        bs = [range_option(rng, lines)] * 2
    if rw == "randrw" and (bs[0] != bs[1] or drawn):
        lines.append("norandommap")
    depth = rng.choice([1, 1, 2, 4, 8, 16, 32])
    # fio's null engine queues (FIO_Q_QUEUED, as libaio does) at a depth over 1 and
    # completes at once (FIO_Q_COMPLETED, as psync does) at 1: do_io() counts a pass's
    # bytes only of queued I/O, so kfsim's file takes the engine that does the same
    lines += ["iodepth=%d" % depth, "@ENGINE%d@" % (depth > 1)]
    capped = [False, False]
    size = 64 << 20
    if not rate:
        blocks = rng.randrange(8, 2000)
        size = max(bs) * blocks
        lines.append("size=%d" % size)
        r = rng.random()
        if r < 0.15:
            lines.append("number_ios=%d" % rng.randrange(1, blocks))
        elif r < 0.3:
            lines.append("io_size=%d" % (max(bs) * blocks * rng.choice([1, 2, 3]) // 2))
    else:
        lines += ["size=64m", "time_based", "runtime=1"]
        # caps low enough for the simulated disk's random I/O (about 150 a second)
        iops = [rng.randrange(5, 70), rng.randrange(5, 70)]
        which = rng.choice(["both", "both", "read", "write"])
        capped = [which in ("both", "read"), which in ("both", "write")]
        if rng.random() < 0.5:
            parts = [str(iops[d]) if capped[d] else "" for d in (0, 1)]
            lines.append("rate_iops=%s" % ",".join(parts))
        else:
            parts = [size_text(iops[d] * bs[d] // 1024 * 1024) if capped[d] and
                     iops[d] * bs[d] >= 1024 else "" for d in (0, 1)]
            capped = [bool(p) for p in parts]
            lines.append("rate=%s" % ",".join(parts))
    return lines, {"bs": bs, "capped": capped, "drawn": drawn, "random": rw == "randrw",
                   "size": size}


def gen_file(rng, rate, ranges=False):
    """A job file body (no engine) and, per fio job in fio's order, what gen_job() said."""
    glob = ["[global]"]
    if rng.random() < 0.15:
        glob.append("randseed=%d" % rng.randrange(0, 1 << 40))
    if rng.random() < 0.05:
        glob.append("allrandrepeat=1")
    lines, jobs = glob, []
    for k in range(1 if rate or rng.random() < 0.7 else 2):
        jl, info = gen_job(rng, "j%d" % k, rate, ranges)
        nj = 2 if rng.random() < 0.2 else 1
        if nj > 1:
            jl.append("numjobs=%d" % nj)
        lines += [""] + jl
        jobs += [info] * nj
    return "\n".join(lines) + "\n", jobs


def engine_file(body, fio):
    if fio:
        return body.replace("@ENGINE0@", "ioengine=null").replace("@ENGINE1@",
                                                                  "ioengine=null")
    return body.replace("@ENGINE0@", "ioengine=psync\ndirect=1").replace(
        "@ENGINE1@", "ioengine=libaio\ndirect=1")


def fio_figures(path, cwd):
    run = subprocess.run(["fio", "--output-format=json", path], capture_output=True,
                         text=True, timeout=120, cwd=cwd)
    if run.returncode:
        return None, run.stderr.strip()[-300:]
    out = json.loads(run.stdout[run.stdout.index("{"):])
    return [[(j[d]["total_ios"], j[d]["io_bytes"]) for d in ("read", "write")]
            for j in out["jobs"]], None


def kfsim_figures(kfsim, path, duration, jobs):
    run = subprocess.run([kfsim, "bfq", "sim", "--fio", path, "--json", "--sched", "none",
                          "--duration", str(duration), "--force"], capture_output=True,
                         text=True, timeout=300)
    if run.returncode:
        return None, run.stderr.strip()[-300:]
    out = json.loads(run.stdout)
    figs = []
    for j, info in zip(out["jobs"], jobs):
        row = []
        for d, name in enumerate(("read", "write")):
            nbytes = j[name + "_bytes"]
            # a build before read_ios/write_ios: the count from the direction's block size
            ios = j.get(name + "_ios", nbytes // info["bs"][d] if not info["drawn"] else -1)
            row.append((ios, nbytes))
        figs.append(row)
    return figs, None


def compare(fio, kf, jobs, rate):
    """What differs, as text (empty: agree)."""
    if len(fio) != len(kf):
        return ["%d jobs in fio, %d in kfsim" % (len(fio), len(kf))]
    bad = []
    for n, (f, k, info) in enumerate(zip(fio, kf, jobs)):
        for d, name in enumerate(("read", "write")):
            if not rate and info["drawn"] and info["random"]:
                # fio draws a block again when it does not fit at the random offset it
                # took (io_u_fits()), which shifts its stream of sizes: kfsim's offsets
                # are not fio's, so such a job agrees within 3 % and twice the draws fio
                # is expected to make again (an I/O's chance: the largest block over the
                # region)
                redraws = (f[0][0] + f[1][0]) * info["bs"][0] / info["size"]
                ok = abs(f[d][0] - k[d][0]) <= max(2, 0.03 * f[d][0] + 2 * redraws)
            elif not rate:
                ok = f[d] == k[d]
            elif not info["capped"][d]:
                continue
            elif not all(info["capped"]):
                ok = k[d][0] <= f[d][0] + max(2, 0.03 * f[d][0])
            else:
                ok = abs(f[d][0] - k[d][0]) <= max(2, 0.03 * f[d][0])
            if not ok:
                bad.append("job %d %s: fio %d I/Os %d bytes, kfsim %d I/Os %d bytes"
                           % (n, name, f[d][0], f[d][1], k[d][0], k[d][1]))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kfsim")
    ap.add_argument("--seeds", default="1-40", help="A-B: one file per seed")
    ap.add_argument("--rate-every", type=int, default=0,
                    help="one file in N is a rate file (0: none)")
    ap.add_argument("--ranges", action="store_true",
                    help="half the sections draw block sizes (bsrange, bssplit)")
    ap.add_argument("--keep", help="write the files here (else a temporary directory)")
    ap.add_argument("--show-wrong", type=int, default=10)
    args = ap.parse_args()
    if not shutil.which("fio"):
        print("skipped: fio is not installed (Debian package fio)")
        return 77
    lo, hi = (int(x) for x in args.seeds.split("-"))
    tmp = args.keep or tempfile.mkdtemp(prefix="fio_rwmix.")
    os.makedirs(tmp, exist_ok=True)
    counts = {"count": [0, 0], "rate": [0, 0], "rate, one cap": [0, 0]}
    failed = 0
    for seed in range(lo, hi + 1):
        rng = random.Random(seed)
        rate = bool(args.rate_every) and seed % args.rate_every == 0
        body, jobs = gen_file(rng, rate, args.ranges)
        kind = "count" if not rate else "rate" if all(jobs[0]["capped"]) else "rate, one cap"

        fpath = os.path.join(tmp, "mix-%d.fio" % seed)
        kpath = os.path.join(tmp, "mix-%d.kfsim.fio" % seed)
        with open(fpath, "w") as f:
            f.write(engine_file(body, True))
        with open(kpath, "w") as f:
            f.write(engine_file(body, False))
        fio, err = fio_figures(fpath, tmp)
        if fio is None:
            print("seed %d: fio failed (%s): not judged" % (seed, err))
            continue
        kf, err = kfsim_figures(args.kfsim, kpath, 3 if rate else 3600, jobs)
        bad = ["kfsim failed: %s" % err] if kf is None else compare(fio, kf, jobs, rate)
        counts[kind][bool(bad)] += 1
        if bad:
            failed += 1
            if failed <= args.show_wrong:
                print("seed %d (%s) differs: %s" % (seed, kind, "; ".join(bad[:4])))
    for kind, (good, wrong) in counts.items():
        if good or wrong:
            print("%s files: %d agree, %d differ" % (kind, good, wrong))
    if not args.keep:
        shutil.rmtree(tmp)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
