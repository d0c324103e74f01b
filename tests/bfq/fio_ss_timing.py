#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fio 3.33 as the referee of when steady state ends a job (sim_steadystate.c).

A job at a steady 1000 IOPS (rate_iops) with ss=iops:5%, ss_dur=3 runs under fio with
ioengine=null (no disk I/O: nothing touches the machine's disks) and under kfsim with libaio on
the simulated disk, in three cases: no ramp and no startdelay, no ramp and startdelay=500ms,
ss_ramp=2 and startdelay=1500ms (the ramp counted from the job's start, not the run's: from
the run's, the first sample would be a check earlier).  The job must attain steady state in both, end at the same
check of fio's helper thread (fio's runtime within half a second of kfsim's: one check apart
is a second), and take the same samples (as many, each within 1 %).

Why a startdelay: fio's checks fall on whole seconds of its helper thread's clock and its job
starts a little later (30-120 ms here).  Started at once, the ramp's end (the first check at
least ss_ramp + 1 s after the job's start) is a race of those few milliseconds against any
delay of the helper's wake-ups, which a loaded machine loses: fio then samples a check early.
With a startdelay of 500 or 1500 ms the job starts mid-way between two checks and every
decision has half a second each side.  Started at once with ss_ramp > 0 (kfsim's jobs then start on a check's
instant and need strictly more than ramp + 1 s) is pinned by test_fio.c's ss_ramp test and
the figures in docs/bfq.md, measured on an idle machine.

fio runs in real time, so a loaded machine can still change what fio measures.  fio's own
debug output (--debug=steadystate,helperthread) says when it did: every sample it took (also
those that left the window before the end), and every wake-up of the helper more than 1 ms
late.  A run whose samples are more than 1 % off the job's fixed 1000 IOPS, or whose helper
woke up 250 ms late in all (half the margin), is no referee: it is printed and run again,
until MAX_RUNS runs or FIO_BUDGET_S seconds of fio; a case left with no referee is skipped
(exit 77, saying so), never judged on a disturbed run.

Exit: 0 when all agree, 1 when one differs, 77 when fio is absent or was held up every time.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

JOB = """[j]
{target}
rw=read
bs=4k
size=1g
rate_iops=1000
time_based
runtime=30
ss=iops:5%
ss_dur=3
ss_ramp={ramp}
startdelay={delay_ms}ms
"""
# (ss_ramp in seconds, startdelay in ms)
CASES = [(0, 0), (0, 500), (2, 1500)]
RATE = 1000
MAX_RUNS = 4
FIO_BUDGET_S = 75
MAX_LATE_MS = 250

SAMPLE_RE = re.compile(r"steadystate_check\(\) thread: \d+, groupid: \d+, rate_msec: (\d+), "
                       r"iops: (\d+), bw: (\d+)")
LATE_RE = re.compile(r"steadystate: delta = (-?\d+) <> (\d+)\. Clock jump\?")


def run_fio(job, cwd):
    """fio's job figures, every sample it took, and how late its checks were in all (ms)."""
    out = os.path.join(cwd, "fio.out")
    subprocess.run(["fio", "--debug=steadystate,helperthread", "--output-format=json",
                    "--output=" + out, job], capture_output=True, text=True, timeout=120,
                   cwd=cwd, check=True)
    with open(out) as f:
        text = f.read()
    start = text.index("\n{\n") + 1 if not text.startswith("{") else 0
    debug, fj = text[:start], json.loads(text[start:])["jobs"][0]
    # a fio built without debug output prints none: its JSON window is then all it shows
    samples = [int(m.group(2)) for m in SAMPLE_RE.finditer(debug)] or \
        fj["steadystate"]["data"]["iops"]
    late_ms = sum(int(m.group(2)) - int(m.group(1)) for m in LATE_RE.finditer(debug))
    return fj, samples, late_ms


def fio_disturbed(samples, late_ms):
    """Why fio's own debug output shows that the machine held it up, or None."""
    off = [x for x in samples if abs(x - RATE) > RATE // 100]
    if off:
        return "samples %s, at a fixed %d IOPS" % (samples, RATE)
    if late_ms >= MAX_LATE_MS:
        return "its checks %d ms late in all" % late_ms
    return None


def run_kfsim(kfsim, job):
    run = subprocess.run([kfsim, "bfq", "sim", "--fio", job, "--duration", "30", "--json"],
                         capture_output=True, text=True, timeout=120, check=True)
    return json.loads(run.stdout)["jobs"][0]


def judge(name, fj, samples, late_ms, kjob):
    fio_s = fj["read"]["runtime"] / 1000.0
    fss, kss = fj["steadystate"], kjob["steadystate"]
    fdata, kdata = fss["data"]["iops"], kss["data"]["iops"]
    same_check = abs(fio_s - kjob["active_s"]) < 0.5
    close = len(fdata) == len(kdata) and all(abs(a - b) <= 0.01 * max(a, b, 1)
                                              for a, b in zip(fdata, kdata))
    ok = fss["attained"] == 1 and kss["attained"] == 1 and same_check and close
    print("%s: fio attained=%d after %.3f s, samples %s (%d taken, checks %d ms late in "
          "all); kfsim attained=%d after %.3f s, samples %s: %s"
          % (name, fss["attained"], fio_s, fdata, len(samples), late_ms, kss["attained"],
             kjob["active_s"], kdata, "agree" if ok else "DIFFER"))
    return ok


def main():
    if len(sys.argv) != 2:
        print("usage: fio_ss_timing.py KFSIM")
        return 1
    if not shutil.which("fio"):
        print("skipped: fio is not installed (Debian package fio)")
        return 77
    kfsim, failed, no_referee = sys.argv[1], False, []
    deadline = time.monotonic() + FIO_BUDGET_S
    with tempfile.TemporaryDirectory() as tmp:
        for ramp, delay_ms in CASES:
            name = "ss_ramp=%d startdelay=%dms" % (ramp, delay_ms)
            fio_job = os.path.join(tmp, "fio.fio")
            kf_job = os.path.join(tmp, "kfsim.fio")
            with open(fio_job, "w") as f:
                f.write(JOB.format(target="ioengine=null", ramp=ramp, delay_ms=delay_ms))
            with open(kf_job, "w") as f:
                f.write(JOB.format(target="ioengine=libaio\ndirect=1\nfilename=/dev/sdb",
                                   ramp=ramp, delay_ms=delay_ms))
            fj = None
            for attempt in range(MAX_RUNS):
                if time.monotonic() > deadline:
                    break
                fj, samples, late_ms = run_fio(fio_job, tmp)
                why = fio_disturbed(samples, late_ms)
                if not why:
                    break
                print("%s: fio run %d held up by the machine (%s): no referee" %
                      (name, attempt + 1, why))
                fj = None
            if fj is None:
                no_referee.append(name)
                continue
            failed |= not judge(name, fj, samples, late_ms, run_kfsim(kfsim, kf_job))
    if failed:
        return 1
    if no_referee:
        print("skipped: fio was held up by the machine in every run of %s"
              % ", ".join(no_referee))
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
