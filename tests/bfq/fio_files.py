#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fio's own run as the referee of a job's several files (nrfiles, file_service_type,
filesize ranges, offset=, loops), file by file and I/O by I/O.

Each case is one job at depth 1: fio 3.33 runs it with ioengine=null and --write_iolog (the
file and offset of every I/O, in order); kfsim runs it (psync, direct=1, scheduler none) with
its completions traced (`--trace`), which at depth 1 are in the order issued, and each sector
is mapped back to a file and an offset with the files kfsim dumped (`--dump-jobs`:
file_bytes, files_offset).  A random job's offsets inside a file are kfsim's own draws
(docs/bfq.md, differences), so for rw=rand* only the file of each I/O is compared.

Usage: fio_files.py KFSIM
Exit 0 when every case agrees, 1 otherwise, 77 when fio is absent.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# name: the job's options (fio's view; ioengine and the log are added)
CASES = {
    "rr": "rw=read\nbs=4k\nsize=64k\nnrfiles=3\n",
    "seq": "rw=read\nbs=4k\nsize=48k\nnrfiles=3\nfile_service_type=sequential\n",
    "rr3": "rw=read\nbs=4k\nsize=64k\nnrfiles=2\nfile_service_type=roundrobin:3\n",
    "rr0": "rw=read\nbs=4k\nsize=32k\nnrfiles=2\nfile_service_type=roundrobin:0\n",
    "random": "rw=read\nbs=4k\nsize=64k\nnrfiles=4\nfile_service_type=random\n",
    "random0": "rw=read\nbs=4k\nsize=32k\nnrfiles=2\nfile_service_type=random:0\n",
    "randseed": "rw=read\nbs=4k\nsize=64k\nnrfiles=4\nrandseed=1234\n"
                "file_service_type=random\n",
    "range": "rw=read\nbs=4k\nfilesize=16k-64k\nnrfiles=4\n",
    "randread2": "rw=randread\nbs=4k\nsize=64k\nnrfiles=4\nfile_service_type=random:2\n",
    "randrw_seq": "rw=randrw\nbs=4k\nsize=96k\nnrfiles=3\nfile_service_type=sequential\n",
    "randwrite_range": "rw=randwrite\nbs=8k,4k\nfilesize=16k-64k\nnrfiles=5\n",
    "bsrange": "rw=read\nbsrange=4k-16k\nsize=128k\nnrfiles=3\n",
    "loops_rr2": "rw=read\nbs=4k\nfilesize=8k-32k\nnrfiles=3\nloops=3\n"
                 "file_service_type=roundrobin:2\n",
    "loops_random": "rw=read\nbs=4k\nfilesize=8k-32k\nnrfiles=3\nloops=3\n"
                    "file_service_type=random\n",
    "loops_randseed": "rw=read\nbs=4k\nfilesize=8k-32k\nnrfiles=3\nloops=3\nrandseed=77\n"
                      "file_service_type=random\n",
    "loops_randread": "rw=randread\nbs=4k\nfilesize=8k-32k\nnrfiles=3\nloops=2\n"
                      "file_service_type=random:2\n",
    "offset": "rw=read\nbs=4k\nsize=96k\noffset=8k\nnrfiles=3\n",
    "offset_filesize": "rw=randread\nbs=4k\nfilesize=48k\noffset=16k\nnrfiles=3\n"
                       "file_service_type=random\n",
    "offset_range": "rw=read\nbs=4k\nfilesize=24k-64k\noffset=12k\nnrfiles=4\n"
                    "file_service_type=sequential\n",
    "one_file_range": "rw=read\nbs=4k\nfilesize=24k-64k\noffset=8k\n",
}


def fio_order(tmp, name, opts):
    """fio's I/Os of the job: ["FILENO:KiB", ...] in order."""
    job, log = os.path.join(tmp, name + ".fio"), os.path.join(tmp, name + ".log")
    with open(job, "w") as f:
        f.write("[a]\nioengine=null\nwrite_iolog=%s\n%s" % (log, opts))
    subprocess.run(["fio", "--output=/dev/null", job], capture_output=True, timeout=60,
                   cwd=tmp, check=True)
    out = []
    with open(log) as f:
        for line in f:
            p = line.split()
            if len(p) >= 5 and p[2] in ("read", "write"):
                out.append("%s:%d" % (p[1].rsplit(".", 1)[1], int(p[3]) // 1024))
    return out


def kfsim_order(kfsim, tmp, name, opts):
    """kfsim's I/Os of the same job, as fio_order() gives them."""
    job, trace = os.path.join(tmp, "k_" + name + ".fio"), os.path.join(tmp, name + ".json")
    with open(job, "w") as f:
        f.write("[a]\ndirect=1\n" + opts)
    dump = subprocess.run([kfsim, "bfq", "sim", "--fio", job, "--dump-jobs"],
                          capture_output=True, text=True, timeout=60)
    if dump.returncode:
        return None, dump.stderr.strip()
    j = json.loads(dump.stdout)["jobs"][0]
    subprocess.run([kfsim, "bfq", "sim", "--fio", job, "--sched", "none", "--duration", "20s",
                    "--trace", trace, "--trace-window", "20s", "--quiet"],
                   capture_output=True, timeout=60, check=True)
    off = j.get("files_offset", 0)
    extents = [off + b for b in j["file_bytes"]] if "file_bytes" in j else [1 << 62]
    out = []
    with open(trace) as f:
        events = json.load(f)["traceEvents"]
    for e in events:
        if "sector" not in e.get("args", {}):
            continue
        b, fno = e["args"]["sector"] * 512 - j["file_start"], 0
        while fno + 1 < len(extents) and b >= extents[fno]:
            b -= extents[fno]
            fno += 1
        out.append("%d:%d" % (fno, b // 1024))
    return out, None


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if not shutil.which("fio"):
        print("fio_files: fio is not installed, skipped")
        return 77
    kfsim, bad = sys.argv[1], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, opts in CASES.items():
            want = fio_order(tmp, name, opts)
            got, why = kfsim_order(kfsim, tmp, name, opts)
            if got is None:
                print("%-16s FAILED: kfsim refuses it: %s" % (name, why))
                bad += 1
                continue
            if re.search(r"^rw=rand", opts, re.M):
                want = [x.split(":")[0] for x in want]
                got = [x.split(":")[0] for x in got]
            if want == got:
                print("%-16s agrees: %d I/Os, file%s of each compared" %
                      (name, len(want), "" if ":" not in want[0] else " and offset"))
            else:
                print("%-16s DIFFERS\n  fio   %s\n  kfsim %s" % (name, " ".join(want),
                                                              " ".join(got)))
                bad += 1
    print("%d cases, %d agree" % (len(CASES), len(CASES) - bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
