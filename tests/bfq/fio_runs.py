#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fio's own run as the referee of what each job of a file does: its reads and writes, and
their bytes, job by job.

Each case is a job file as users write them (several jobs, a shared file laid out by one
and read by the others, stonewall and new_group, wait_for, numjobs with offset_increment,
loops, io_size, bssplit, size and offset in % of a file, filesize=, rw_sequencer=identical,
number_ios, alone and over loops, filename=a:b lists).  fio 3.33 runs it for real (psync or
libaio, files in a scratch directory, a few MiB each) with --output-format=json; kfsim runs
the same file (--json, 60 s of simulated time, which every case ends well within) and each
job's read and write I/Os and bytes must be fio's (total_ios and io_bytes), in fio's order
of jobs.  Where kfsim's random offsets are its own (docs/bfq.md, differences) the counts
still are fio's: these cases keep one block size per job, where fio's random map holds the
region's whole blocks.

Usage: fio_runs.py KFSIM
Exit 0 when every job agrees, 1 otherwise, 77 when fio is absent.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

CASES = {
    # jobs side by side, each on its own file: a random reader beside a sequential log
    # writer, an OLTP mix, a bssplit reader, filesize= less the offset, size=N% of filesize=
    "side_by_side": "[reader]\nioengine=libaio\ndirect=1\nsize=8m\nrw=randread\nbs=4k\n"
                    "iodepth=8\n[logwriter]\nioengine=libaio\ndirect=1\nsize=8m\nrw=write\n"
                    "bs=128k\niodepth=2\n[oltp]\nrw=randrw\nrwmixread=70\nbs=4k\nsize=2m\n"
                    "[web]\nrw=read\nbssplit=4k/50:64k/30:256k/20\nsize=4m\n[fs_a]\n"
                    "filesize=3m\nbs=64k\nrw=read\noffset=1m\n[fs_b]\nfilesize=3m\nbs=64k\n"
                    "rw=randread\nsize=40%\n[p]\nrw=read\nbs=64k\nfilesize=1000k\nsize=33%\n",
    "stonewall": "[global]\nfilename=data.bin\nsize=4m\nbs=64k\n[prep]\nrw=write\n"
                 "[seqread]\nstonewall\nrw=read\n[randread]\nstonewall\nrw=randread\nbs=4k\n"
                 "io_size=1m\n",
    "numjobs": "[global]\nfilename=shared.bin\nrw=read\nbs=256k\nsize=2m\n"
               "offset_increment=2m\n[prefill]\nrw=write\nsize=8m\noffset_increment=0\n"
               "[parallel]\nwait_for=prefill\nnumjobs=4\n",
    # loops, identical offsets (rw_sequencer), number_ios
    "counts": "[scan]\nrw=read\nbs=1m\nsize=4m\nloops=3\n[rescan]\nrw=randread\nbs=16k\n"
              "size=2m\nloops=2\n[seqident]\nrw=randread:4\nrw_sequencer=identical\nbs=4k\n"
              "size=1m\nioengine=libaio\niodepth=4\ndirect=1\n[first]\nrw=read\nbs=4k\n"
              "size=1m\nnumber_ios=100\n[second]\nrw=read\nbs=4k\nsize=1m\noffset=512k\n"
              "number_ios=50\n",
    # number_ios over loops: fio's limit is number_ios x loops for the run (exceeds_number_ios())
    "number_ios": "[global]\nbs=4k\nsize=256k\n[per_loop]\nrw=read\nloops=3\nnumber_ios=100\n"
                  "[budget]\nrw=read\nloops=3\nnumber_ios=50\n[random]\nrw=randread\nloops=2\n"
                  "number_ios=100\n[writer]\nrw=write\nloops=2\nnumber_ios=40\n",
    # filename=a:b: the names are the job's files, as nrfiles= makes them
    "filename_list": "[global]\nbs=16k\n[three]\nfilename=la.bin:lb.bin:lc.bin\nsize=1536k\n"
                     "rw=write\n[seq]\nstonewall\nfilename=la.bin:lb.bin:lc.bin\nsize=1536k\n"
                     "rw=read\nfile_service_type=sequential\n[rand]\nstonewall\n"
                     "filename=la.bin:lb.bin:lc.bin\nsize=1536k\nrw=randread\n"
                     "file_service_type=random\n[own]\nstonewall\nfilename=oa.bin:ob.bin\n"
                     "filesize=256k\nrw=randwrite\nbs=8k\nnumjobs=2\n",
    # a file made by one job, then N % of it read: of its size so far (setup_files())
    "percent": "[global]\nfilename=pool.bin\nbs=32k\n[make]\nrw=write\nsize=3m\n[tail]\n"
               "rw=read\noffset=50%\nsize=25%\n[half]\nrw=randread\nsize=50%\n",
    "groups": "[global]\nsize=1m\nbs=16k\n[a1]\nrw=write\n[a2]\nrw=write\n[b1]\nnew_group\n"
              "stonewall\nrw=read\nfilename=a1.0.0\n[b2]\nrw=read\nfilename=a2.0.0\n",
    # whole blocks: 15 at a file's end, a 16th past the region inside a larger file
    "whole_blocks": "[global]\nbs=64k\n[end]\nrw=read\nsize=1000k\noffset=64k\n[inside]\n"
                    "filename=big.bin\nrw=write\nsize=2m\n[part]\nfilename=big.bin\nrw=read\n"
                    "size=1000k\n",
}


def fio_jobs(tmp, name, text):
    """fio's (name, reads, read bytes, writes, write bytes) per job, in its order."""
    job = os.path.join(tmp, name + ".fio")
    with open(job, "w") as f:
        f.write(text)
    out = os.path.join(tmp, name + ".json")
    subprocess.run(["fio", "--output-format=json", "--output=" + out, job], cwd=tmp,
                   capture_output=True, timeout=120, check=True)
    with open(out) as f:
        return [(j["jobname"], j["read"]["total_ios"], j["read"]["io_bytes"],
                 j["write"]["total_ios"], j["write"]["io_bytes"]) for j in json.load(f)["jobs"]]


def kfsim_jobs(kfsim, tmp, name, text):
    """kfsim's, as fio_jobs() gives them (its page cache's flusher left out)."""
    job = os.path.join(tmp, "k_" + name + ".fio")
    with open(job, "w") as f:
        f.write(text)
    p = subprocess.run([kfsim, "bfq", "sim", "--fio", job, "--json", "--duration", "60",
                        "--quiet"], cwd=tmp, capture_output=True, text=True, timeout=300)
    if p.returncode:
        return None, p.stderr.strip()
    return [(j["name"].split(".")[0], j["read_ios"], j["read_bytes"], j["write_ios"],
             j["write_bytes"]) for j in json.loads(p.stdout)["jobs"]
            if j["name"] != "writeback"], None


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if not shutil.which("fio"):
        print("fio_runs: fio is not installed, skipped")
        return 77
    kfsim, bad, jobs = os.path.abspath(sys.argv[1]), 0, 0
    for name, text in CASES.items():
        with tempfile.TemporaryDirectory() as tmp:
            want = fio_jobs(tmp, name, text)
            got, why = kfsim_jobs(kfsim, tmp, name, text)
        jobs += len(want)
        if got is None:
            print("%-13s FAILED: kfsim refuses it: %s" % (name, why))
            bad += 1
        elif got != want:
            print("%-13s DIFFERS (job, reads, bytes, writes, bytes)\n  fio   %s\n  kfsim %s"
                  % (name, want, got))
            bad += 1
        else:
            print("%-13s agrees: %s" % (name, ", ".join("%s %d/%d" % (j[0], j[1], j[3])
                                                        for j in want)))
    print("%d files (%d jobs), fio 3.33's run the referee of each job's reads and writes: "
          "%d agree, %d differ" % (len(CASES), jobs, len(CASES) - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
