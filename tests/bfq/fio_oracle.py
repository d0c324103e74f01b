#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fio's own parser as the referee of kfsim's reading of fio job files.

For every job file given (fio's 86 examples from Debian's fio-examples in CI):
  - kfsim's reading: `kfsim bfq sim --fio FILE --dump-jobs` (JSON), or its refusal;
  - fio's reading: `fio --debug=parse --parse-only FILE`, which logs every option fio
    handles per job section, with the value it parsed (`out=`), [global] options replayed
    into each job first;
  - for each job kfsim read, every option that matters (rw, rwmixread, bs per direction,
    bsrange, iodepth, ioengine, direct, sync, size, offset, rate and rate_iops per
    direction, percentage_random, random_distribution, thinktime, startdelay, runtime,
    io_size, number_ios, numjobs, stonewall, wait_for, time_based, and steady state's
    criterion and limit, window and ramp) is compared with fio's
    value, or fio's default where the file does not set it;
  - a refused file must name every problem at once: with each line it names removed, kfsim
    must read the file (no second round of refusals);
  - nothing may crash or hang: every file kfsim reads also runs for 20 ms of simulated time
    (the unjudged too).
Engines that Debian's fio does not build (http, rdma, nfs, ...) make fio drop the job after
logging the generic options it parsed: those are compared, the rest is said.

Exit: 0 when every comparison agrees, no refusal needs a second round, nothing crashed, at
least --min-agree files agree and at least --min-simulate are read and run (those that agree
and the unjudged); 1 otherwise; 77 when fio or the files are absent.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYNC_ENGINES = {"sync", "psync", "vsync", "pvsync", "pvsync2", "mmap", "splice", "libcufile"}
KB = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def fio_sections(path, env):
    """fio's reading: a list of job sections {name, opts}, [global] options merged in.

    fio logs a section's options when it meets the next header (or the end), after
    "Parsing section [NAME]" of that section: each option belongs to the last section
    parsed.  A [global] section's options are the defaults of the jobs after it.
    """
    out = subprocess.run(["fio", "--debug=parse", "--parse-only", path], capture_output=True,
                         text=True, env=env, timeout=60)
    sections, cur, opt = [], None, None
    # a job file without a final newline runs its last line into fio's next log line
    text = re.sub(r"parse\s+\d+ ", "\n", out.stdout + out.stderr)
    for raw in text.splitlines():
        line = raw.strip()
        m = re.fullmatch(r"Parsing section \[(.+)\]", line)
        if m:
            cur = {"name": m.group(1), "opts": {}}
            sections.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r"handle_option=([^,]+), ptr=(.*)$", line)
        if m:
            opt = m.group(1)
            cur["opts"][opt] = {"ptr": m.group(2), "out": [], "percent": None}
            continue
        m = re.match(r"ret=(-?\d+), out=(\d+)", line)
        if m and opt in cur["opts"]:
            if m.group(1) == "0":
                cur["opts"][opt]["out"].append(int(m.group(2)))
            continue
        # str_steadystate_cb(): the limit it read, "%f%%", "%f" (IOPS) or "%lld" (bytes/s)
        m = re.match(r"set steady state (?:IOPS |BW )?threshold to (-?[\d.]+)(%?)$", line)
        if m and opt in cur["opts"]:
            cur["opts"][opt]["ss"] = (float(m.group(1)), m.group(2) == "%")
            continue
        m = re.match(r"SET (size|start_offset)_percent (\d+)", line)
        if m and opt in cur["opts"]:
            cur["opts"][opt]["percent"] = int(m.group(2))
    jobs, defaults = [], {}
    for sec in sections:
        if sec["name"] == "global":
            defaults.update(sec["opts"])
        else:
            merged = dict(defaults)
            merged.update(sec["opts"])
            jobs.append({"name": sec["name"], "opts": merged})
    return out.returncode, jobs, out.stdout + out.stderr


def kfsim_read(kfsim, path, env):
    run = subprocess.run([kfsim, "bfq", "sim", "--fio", path, "--dump-jobs"],
                         capture_output=True, text=True, env=env, timeout=60)
    if run.returncode == 0:
        return json.loads(run.stdout), None, run
    return None, run.stderr, run


def size_of(text):
    m = re.fullmatch(r"(\d+)([kmgt]?)(i?b)?", text.strip().lower())
    return int(m.group(1)) * KB[m.group(2)] if m else None


class Job:
    """fio's options for one job section, with fio's defaults."""

    def __init__(self, opts):
        self.o = opts

    def has(self, name):
        return name in self.o

    def ptr(self, name, default=None):
        return self.o[name]["ptr"] if name in self.o else default

    def outs(self, name):
        return self.o[name]["out"] if name in self.o else []

    def out(self, name, default):
        v = self.outs(name)
        return v[0] if v else default

    def pair(self, name, default):
        v = self.outs(name)
        if not v:
            return [default, default]
        return [v[0], v[1] if len(v) > 1 else v[0]]


def expected(job):
    """What fio's reading says, as kfsim's dump spells it: {field: value}."""
    e = {}
    rw = (job.ptr("rw") or job.ptr("readwrite") or "read").split(":")[0]
    e["rw"] = {"readwrite": "rw"}.get(rw, rw)
    if e["rw"] in ("rw", "randrw"):
        e["rwmixread"] = (100 - job.out("rwmixwrite", 50)) if job.has("rwmixwrite") and \
            not job.has("rwmixread") else job.out("rwmixread", 50)
    bs_name = "bs" if job.has("bs") else "blocksize"
    if job.has(bs_name):
        e["bs"] = job.pair(bs_name, 4096)
    elif not job.has("bsrange") and not job.has("bssplit"):
        e["bs"] = [4096, 4096]
    if job.has("bsrange"):
        parts = job.ptr("bsrange").split(",")
        rng = [[size_of(x) for x in p.split("-")] for p in parts]
        rng = [r if len(r) == 2 else [r[0], r[0]] for r in rng]
        e["bsrange"] = [rng[0], rng[1] if len(rng) > 1 else rng[0]]
    e["iodepth"] = job.out("iodepth", 1)
    e["ioengine"] = job.ptr("ioengine", "psync")
    direct = job.out("direct", 0)
    if job.has("buffered"):
        direct = 1 - job.out("buffered", 1)
    e["direct"] = bool(direct)
    e["sync"] = (job.ptr("sync", "0") or "0") not in ("0", "none")
    if job.has("size") and job.outs("size") and job.o["size"]["percent"] is None:
        e["size"] = job.out("size", 0)
    if job.has("offset") and job.o["offset"]["percent"] is None and job.outs("offset"):
        e["offset"] = job.out("offset", 0)
    rate, iops = job.pair("rate", 0), job.pair("rate_iops", 0)
    e["rate"], e["rate_iops"] = rate, iops
    if e["rw"].startswith("rand"):
        e["percentage_random"] = job.out("percentage_random", 100)
    e["random_distribution"] = (job.ptr("random_distribution") or "random").split(":")[0]
    e["thinktime_us"] = job.out("thinktime", 0)
    sd = job.outs("startdelay")
    e["startdelay_us"] = [sd[0], sd[1] if len(sd) > 1 else sd[0]] if sd else [0, 0]
    rt = job.outs("runtime") or job.outs("timeout")
    e["runtime_us"] = rt[0] if rt else 0
    e["number_ios"] = job.out("number_ios", 0)
    e["numjobs"] = job.out("numjobs", 1)
    e["stonewall"] = bool(job.out("stonewall", 0) or job.out("wait_for_previous", 0))
    e["wait_for"] = job.ptr("wait_for")
    e["time_based"] = bool(job.out("time_based", 0))
    # steady state: fio's JSON "ss" name; a window alone takes fio's default iops_slope:0.01%
    dur_us = job.out("steadystate_duration", 0)
    e["ss_dur_s"] = dur_us // 1000000
    e["ss_ramp_us"] = job.out("steadystate_ramp_time", 0)
    e["ss"] = ""
    if job.has("steadystate") and "ss" in job.o["steadystate"]:
        limit, pct = job.o["steadystate"]["ss"]
        e["ss"] = "%s:%f%s" % (job.ptr("steadystate").split(":")[0], limit, "%" if pct else "")
    elif e["ss_dur_s"]:
        e["ss"] = "iops_slope:0.010000%"
    return e


SOURCES = {"rw": ["rw", "readwrite"], "rwmixread": ["rwmixread", "rwmixwrite"],
           "bs": ["bs", "blocksize"], "bsrange": ["bsrange"], "iodepth": ["iodepth"],
           "ioengine": ["ioengine"], "direct": ["direct", "buffered"], "sync": ["sync"],
           "rate": ["rate"], "rate_iops": ["rate_iops"],
           "percentage_random": ["percentage_random"],
           "random_distribution": ["random_distribution"], "thinktime_us": ["thinktime"],
           "startdelay_us": ["startdelay"], "runtime_us": ["runtime", "timeout"],
           "number_ios": ["number_ios"], "numjobs": ["numjobs"],
           "ss": ["steadystate", "steadystate_duration"],
           "ss_dur_s": ["steadystate_duration"], "ss_ramp_us": ["steadystate_ramp_time"]}


def compare(e, jobs, first, names, logged=None):
    """Differences between fio's reading @e and kfsim's clones jobs[first:first+numjobs].

    @logged: when fio dropped the job (an engine it lacks), only the options it logged.
    """
    diffs = []
    if logged is not None:
        for field, opts in SOURCES.items():
            if field in e and field != "numjobs" and not any(o in logged for o in opts):
                del e[field]
        if "stonewall" not in logged and "wait_for_previous" not in logged:
            e["stonewall"] = None
        if "time_based" not in logged:
            e["time_based"] = None
    clones = jobs[first:first + e["numjobs"]]
    if len(clones) != e["numjobs"]:
        return ["numjobs: fio %d, kfsim %d" % (e["numjobs"], len(clones))]
    for j in clones:
        def chk(field, got):
            if field in e and e[field] != got:
                diffs.append("%s: fio %r, kfsim %r" % (field, e[field], got))
        chk("rw", j["rw"])
        chk("rwmixread", j["rwmixread"])
        chk("bs", j["bs"])
        chk("bsrange", j["bsrange"])
        chk("iodepth", j["iodepth"])
        chk("ioengine", j["ioengine"])
        chk("direct", j["direct"])
        chk("sync", j["sync"])
        if "size" in e and "region_size" in j and e["size"] and not e["time_based"]:
            chk("size", j["region_size"])
        if "offset" in e and "region_start" in j:
            # a byte offset is where fio starts, aligned or not (fio --write_iolog)
            got = j["region_start"] - j["file_start"]
            if got != e["offset"]:
                diffs.append("offset: fio %d, kfsim %d" % (e["offset"], got))
            e.pop("offset")
        chk("rate", j["rate"])
        chk("rate_iops", j["rate_iops"])
        chk("percentage_random", j["percentage_random"])
        chk("random_distribution", j["random_distribution"])
        chk("thinktime_us", j["thinktime_us"])
        chk("startdelay_us", j["startdelay_us"])
        chk("runtime_us", j["runtime_us"])
        chk("number_ios", j["number_ios"])
        chk("ss", j["ss"])
        chk("ss_dur_s", j["ss_dur_s"])
        chk("ss_ramp_us", j["ss_ramp_us"])
        unbounded = j["io_size"] == 0 and j["number_ios"] == 0
        # an engine without disk I/O and no size= takes its size from its target: unknown
        target_sized = j["engine"] == "none" and "size" not in e and not e["time_based"]
        if e["time_based"] is not None and e["time_based"] != unbounded and not target_sized:
            if j["engine"] != "none" or not e["time_based"]:
                diffs.append("time_based: fio %r, kfsim io_size %d" % (e["time_based"],
                                                                        j["io_size"]))
        if e["stonewall"] is not None and first > 0 and \
                e["stonewall"] != (j["after"] == first):
            diffs.append("stonewall: fio %r, kfsim after=%d" % (e["stonewall"], j["after"]))
        if e["wait_for"]:
            target = j["wait_for"] - 1
            if target < 0 or names[target] != e["wait_for"]:
                diffs.append("wait_for: fio %r, kfsim job %d" % (e["wait_for"], target))
    return diffs


def refusal_complete(kfsim, path, stderr, env, tmp):
    """With every line kfsim named removed, kfsim must read the file: all reasons at once."""
    named = set()
    for line in stderr.splitlines():
        m = re.search(re.escape(path) + r":(\d+): ", line)
        if m:
            named.add(int(m.group(1)))
    if not named:
        return False, "no FILE:LINE in the refusal"
    with open(path) as f:
        lines = f.readlines()
    trimmed = os.path.join(tmp, os.path.basename(path))
    with open(trimmed, "w") as f:
        for n, text in enumerate(lines, 1):
            f.write("\n" if n in named else text)
    run = subprocess.run([kfsim, "bfq", "sim", "--fio", trimmed, "--dump-jobs"],
                         capture_output=True, text=True, env=env, timeout=60)
    if run.returncode == 0:
        return True, "%d line(s) named; without them kfsim reads it" % len(named)
    return False, "a second round: " + run.stderr.strip().splitlines()[0]


def judge(kfsim, path, env, tmp):
    """One file: ("agree"|"refused"|"unjudged"|"failed", the line to print)."""
    name = os.path.basename(path)
    rc, fio_jobs, fio_text = fio_sections(path, env)
    dump, refusal, run = kfsim_read(kfsim, path, env)
    if run.returncode not in (0, 2):
        return "failed", "%-32s CRASH (exit %d): %s" % (name, run.returncode, run.stderr[-200:])
    if refusal is not None:
        ok, why = refusal_complete(kfsim, path, refusal, env, tmp)
        first = refusal.strip().splitlines()[0].split(": ", 1)[-1]
        return ("refused" if ok else "failed"), "%-32s refused (%s): %s" % (name, why, first)
    sim = subprocess.run([kfsim, "bfq", "sim", "--fio", path, "--duration", "20ms", "--quiet",
                          "--force"], capture_output=True, text=True, env=env, timeout=120)
    ran = "" if sim.returncode == 0 else "the run failed (exit %d): %s" % (
        sim.returncode, sim.stderr.strip()[:160])
    if rc != 0 and not fio_jobs:
        # Debian's fio lacks the engine (http, rdma, nfs, ...): fio reads no job here
        why = [l for l in fio_text.splitlines() if "not loadable" in l or
               "failed parsing" in l or "Bad option" in l]
        if ran:
            return "failed", "%-32s %s" % (name, ran)
        return "unjudged", "%-32s unjudged: fio here cannot read it (%s); kfsim reads %d jobs " \
            "and runs them" % (name, (why or ["exit %d" % rc])[0].strip(), len(dump["jobs"]))
    jobs = dump["jobs"]
    names = [j["name"].rsplit(".", 1)[0] if re.search(r"\.\d\d$", j["name"]) else j["name"]
             for j in jobs]
    diffs, first, compared = [], 0, 0
    for sec in fio_jobs:
        e = expected(Job(sec["opts"]))
        logged = sec["opts"] if rc != 0 else None
        diffs += ["[%s] %s" % (sec["name"], d) for d in compare(e, jobs, first, names, logged)]
        first += e["numjobs"]
        compared += len(e)
    if first != len(jobs):
        diffs.append("jobs: fio %d, kfsim %d" % (first, len(jobs)))
    if ran:
        diffs.append(ran)
    note = "" if rc == 0 else " (fio dropped a job)"
    if diffs:
        return "failed", "%-32s DIFFERS%s: %s" % (name, note, "; ".join(diffs))
    return "agree", "%-32s agrees: %d jobs, %d options compared%s" % (name, len(jobs), compared,
                                                                      note)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kfsim")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--min-agree", type=int, default=0)
    ap.add_argument("--min-simulate", type=int, default=0,
                    help="files kfsim reads and runs: those that agree and the unjudged")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob("/usr/share/doc/fio/examples/*.fio"))
    if not shutil.which("fio"):
        print("skipped: fio is not installed (Debian package fio)")
        return 77
    if not files:
        print("skipped: no job files (Debian package fio-examples)")
        return 77
    # the environment variables the examples use stay unset, for fio and kfsim alike
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FIO_", "S3_", "SWIFT_"))}
    version = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
    print("referee: %s --debug=parse --parse-only; kfsim: %s bfq sim --fio F --dump-jobs"
          % (version, args.kfsim))
    results = []
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for verdict, line in pool.map(lambda p: judge(args.kfsim, p, env, tmp), files):
            print(line)
            results.append((verdict, line.split()[0]))
    agree = sum(v == "agree" for v, _ in results)
    refused_ok = sum(v == "refused" for v, _ in results)
    unjudged = sum(v == "unjudged" for v, _ in results)
    failures = [n for v, n in results if v == "failed"]
    print("%d files: %d agree with fio's reading and run, %d refused with every reason at "
          "once, %d unjudged (fio here lacks the engine), %d failed"
          % (len(files), agree, refused_ok, unjudged, len(failures)))
    print("%d simulate (read and run by kfsim)" % (agree + unjudged))
    if failures or agree < args.min_agree or agree + unjudged < args.min_simulate:
        print("failed: %s" % ", ".join(failures) if failures else
              "fewer than %d agree" % args.min_agree if agree < args.min_agree else
              "fewer than %d simulate" % args.min_simulate)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
