#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fio 3.33 as the referee of when steady state ends a job (sim_steadystate.c).

A job at a steady 1000 IOPS (rate_iops) with ss=iops:5%, ss_dur=3 runs under fio with
ioengine=null (no disk I/O: nothing touches the machine's disks) and under kfsim with libaio on
the simulated disk; for ss_ramp=0 and 2 the job must attain steady state in both, end within
the same second of its run (fio's job starts a few ms after its helper thread's clock: its
runtime is just short of kfsim's whole second), and take the same samples within 1 %.

fio runs in real time: on a loaded machine its helper thread can wake late, which shows in
fio's own figures (a sample more than 1 % off the job's fixed 1000 IOPS, or a runtime past
the whole second it should end just short of).  Such a fio run is no referee:
it is run again, up to three times, and each disturbed run is printed.

Exit: 0 when all agree, 1 otherwise, 77 when fio is absent.
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

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
"""


def run_fio(job, cwd):
    run = subprocess.run(["fio", "--output-format=json", job], capture_output=True, text=True,
                         timeout=120, cwd=cwd)
    return json.loads(run.stdout)["jobs"][0]


def fio_disturbed(fj):
    """Why fio's own figures show that the machine held it up, or None."""
    iops = fj["steadystate"]["data"]["iops"]
    if any(abs(x - 1000) > 10 for x in iops):
        return "samples %s, at a fixed 1000 IOPS" % iops
    runtime = fj["read"]["runtime"] / 1000.0
    if 0 < runtime - math.floor(runtime) < 0.5:
        return "runtime %.3f s, past the whole second" % runtime
    return None


def main():
    if len(sys.argv) != 2:
        print("usage: fio_ss_timing.py KFSIM")
        return 1
    if not shutil.which("fio"):
        print("skipped: fio is not installed (Debian package fio)")
        return 77
    kfsim, failed = sys.argv[1], False
    with tempfile.TemporaryDirectory() as tmp:
        for ramp in (0, 2):
            fio_job = os.path.join(tmp, "fio%d.fio" % ramp)
            kf_job = os.path.join(tmp, "kfsim%d.fio" % ramp)
            with open(fio_job, "w") as f:
                f.write(JOB.format(target="ioengine=null", ramp=ramp))
            with open(kf_job, "w") as f:
                f.write(JOB.format(target="ioengine=libaio\ndirect=1\nfilename=/dev/sdb",
                                   ramp=ramp))
            for attempt in range(3):
                fj = run_fio(fio_job, tmp)
                why = fio_disturbed(fj)
                if not why:
                    break
                print("ss_ramp=%d: fio run %d disturbed (%s): run again" % (ramp, attempt + 1,
                                                                          why))
            kj = json.loads(subprocess.run([kfsim, "bfq", "sim", "--fio", kf_job, "--duration",
                                            "30", "--json"], capture_output=True, text=True,
                                           timeout=120, check=True).stdout)
            kjob = kj["jobs"][0]
            fio_s = fj["read"]["runtime"] / 1000.0
            fss, kss = fj["steadystate"], kjob["steadystate"]
            same_second = math.ceil(fio_s) == round(kjob["active_s"])
            close = all(abs(a - b) <= 0.01 * max(a, b, 1)
                        for a, b in zip(fss["data"]["iops"], kss["data"]["iops"]))
            ok = fss["attained"] == 1 and kss["attained"] == 1 and same_second and close
            print("ss_ramp=%d: fio attained=%d after %.3f s, samples %s; kfsim attained=%d "
                  "after %.3f s, samples %s: %s"
                  % (ramp, fss["attained"], fio_s, fss["data"]["iops"], kss["attained"],
                     kjob["active_s"], kss["data"]["iops"], "agree" if ok else "DIFFER"))
            failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
