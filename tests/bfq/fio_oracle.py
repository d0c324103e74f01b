#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fio's own parser as the referee of kfsim's reading of fio job files.

For every job file given (fio's 86 examples from Debian's fio-examples in CI):
  - kfsim's reading: `kfsim bfq sim --fio FILE --dump-jobs` (JSON), or its refusal;
  - fio's reading: `fio --debug=parse --parse-only FILE`, which logs every option fio
    handles per job section, with the value it parsed (`out=`), [global] options replayed
    into each job first;
  - for each job kfsim read, every option that matters (rw and its ':N' modifier, rwmixread,
    bs per direction, bsrange, iodepth, ioengine, direct, sync, size, offset, rate and
    rate_iops per direction, percentage_random, random_distribution and its parameter,
    thinktime, startdelay, runtime, ramp_time, io_size, number_ios, numjobs, stonewall, wait_for,
    time_based, and steady state's criterion and limit, window and ramp) is compared with
    fio's value, or fio's default where the file does not set it;
  - a refused file must name every problem at once: with each line it names removed, kfsim
    must read the file (no second round of refusals);
  - with --strict (fio here has every engine the files name; fio_jobgen.py's files), fio's
    rejection is final: kfsim must refuse such a file naming every line fio rejects, and
    may refuse a file fio reads only for a reason docs/bfq.md lists (DOCUMENTED_REFUSALS);
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


def fio_sections(path, env):
    """fio's reading of one file: (exit status, its jobs, what fio printed)."""
    return fio_read_many([path], env)[path]


def parse_log(lines):
    """fio's parse log of one file: a list of job sections {name, opts}, [global] merged in.

    fio logs a section's options when it meets the next header (or the end), after
    "Parsing section [NAME]" of that section: each option belongs to the last section
    parsed.  A [global] section's options are the defaults of the jobs after it.
    """
    sections, cur, opt, lines_seen = [], None, None, []
    for raw in lines:
        line = raw.strip()
        m = re.fullmatch(r"Parsing section \[(.+)\]", line)
        if m:
            cur = {"name": m.group(1), "opts": {}}
            sections.append(cur)
            continue
        if line == "filling default options":
            cur = None  # the next file's defaults, not this section's options
        if cur is None:
            continue
        m = re.match(r"handle_option=([^,]+), ptr=(.*)$", line)
        if m:
            opt = m.group(1)
            prev = cur["opts"].get(opt)
            # "seq": fio's order (a job's own options after its [global]'s): of two options
            # that set one thing (direct and buffered), the later wins
            cur["opts"][opt] = {"ptr": m.group(2), "out": [], "percent": None,
                                "seq": len(lines_seen), "prev": prev}
            lines_seen.append(opt)
            continue
        m = re.match(r"ret=(-?\d+), out=(-?\d+)", line)  # a flag's out is an int
        if m and opt in cur["opts"]:
            # a part that fails ("rate=,4m": the first) keeps its default: None here
            cur["opts"][opt]["out"].append(int(m.group(2)) if m.group(1) == "0" else None)
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
            # a second [global] changes fio's defaults as a job would: a value of its that
            # sets nothing ("iodepth=-1") keeps the first's (fio 3.33 with libaio: depth 4)
            for name, entry in sec["opts"].items():
                defaults[name] = chain(entry, defaults.get(name))
        else:
            merged = dict(defaults)
            for name, entry in sec["opts"].items():
                merged[name] = chain(entry, defaults.get(name))
            jobs.append({"name": sec["name"], "opts": merged})
    return jobs


def fio_read_many(paths, env):
    """fio's reading of each file: {path: (exit status, its jobs, what fio printed)}.

    Several files go to one fio (each starts from fio's defaults again): fio calibrates its
    clock at every start, which costs more than reading a file.  fio stops at the first file
    it rejects: the files before it were read, that one has fio's exit status and errors,
    those after it go to the next fio.
    """
    results, todo = {}, list(paths)
    while todo:
        out = subprocess.run(["fio", "--debug=parse", "--parse-only"] + todo,
                             capture_output=True, text=True, errors="replace", env=env, timeout=120)
        # a job file without a final newline runs its last line into fio's next log line
        text = re.sub(r"parse\s+\d+ ", "\n", out.stdout)
        chunks = re.split(r"^\s*Parsing ini file (.+)\n", text, flags=re.M)
        # an included file is logged so too: its part goes on with the file including it
        k = 1
        while k < len(chunks):
            if chunks[k] not in todo and k > 1:
                chunks[k - 1] += chunks[k + 1]
                del chunks[k:k + 2]
            else:
                k += 2
        names = chunks[1::2]
        if not names:
            results[todo[0]] = (out.returncode or 1, [], out.stdout + out.stderr)
            todo = todo[1:]
            continue
        for k, (name, chunk) in enumerate(zip(names, chunks[2::2])):
            last = k == len(names) - 1
            rc = out.returncode if last else 0
            results[name] = (rc, parse_log(chunk.splitlines()),
                             chunk + (out.stderr if last or out.returncode == 0 else ""))
        todo = todo[len(names):] if out.returncode else []
    return results


def kfsim_read(kfsim, path, env):
    run = subprocess.run([kfsim, "bfq", "sim", "--fio", path, "--dump-jobs"],
                         capture_output=True, text=True, errors="replace", env=env, timeout=60)
    if run.returncode == 0:
        return json.loads(run.stdout), None, run
    return None, run.stderr, run


def size_of(text):
    """A size as fio 3.33 reads it (parse.c str_to_decimal(), get_mult_bytes(), kb_base
    1024): hexadecimal with 0x; after the digits, kib mib gib tib pib are powers of 1000, any
    other k m g t p... a power of 1024, other letters 1; fio logs no value for ranges."""
    text = text.strip()
    m = re.match(r"(0[xX][0-9a-fA-F]+|\d+)", text)
    if not m:
        return None
    if "0x" in text.lower():
        return int(m.group(1), 16)
    suffix = text[len(m.group(1)):].lower()
    if not suffix or not suffix[0].isalpha() or suffix[0] not in "kmgtp":
        return int(m.group(1))
    power = "kmgtp".index(suffix[0]) + 1
    return int(m.group(1)) * (1000 if suffix[1:3] == "ib" else 1024) ** power


def chain(entry, base):
    """@entry with @base (the [global]'s) as the value it replaced, at the end of its chain."""
    if base is None:
        return entry
    entry = dict(entry)
    entry["prev"] = chain(entry["prev"], base) if entry.get("prev") else base
    return entry


# fio 3.33's handle_option() (parse.c) parses a value's parts in turn (the whole value, then
# what follows each ',', else ':', else '-') and the option is read once one passes.  An
# option without a callback stores only the first part: when it fails ("iodepth=-1" against
# minval 1) and a later one passes, the option keeps what it had.  One with a callback
# (str_size_cb(), str_rwmix_read_cb(), ...) takes every part that passes: the last wins.
# fio's log has each part's parsed value ("out="), not its minval/maxval checks: these are
# the limits (minval, maxval) of the options compared, as val_too_small()/val_too_large().
PART_LIMITS = {"iodepth": (1, 0), "prio": (0, 7), "prioclass": (0, 3),
               "direct": (0, 1), "buffered": (0, 1),
               "cgroup_weight": (100, 1000), "flow": (0, 1000), "rwmixread": (0, 100),
               "rwmixwrite": (0, 100)}
PART_LAST = {"size", "io_size", "io_limit", "offset", "offset_increment", "zoneskip",
             "rwmixread", "rwmixwrite"}


def part_passes(name, x):
    """Whether fio's limits pass one parsed part @x of option @name (an FIO_OPT_INT's)."""
    if x is None:
        return False
    lo, hi = PART_LIMITS.get(name, (0, 0))
    u = x & 0xffffffff
    i = u - (1 << 32) if u & 0x80000000 else u
    if hi and (i > hi if i < 0 else u > hi):
        return False
    return not lo or i >= lo


def part_value(name, entry, default):
    """The value fio stored for one option's entry (its parts), or what it kept."""
    outs = entry["out"]
    if name in PART_LAST:
        ok = [x for x in outs if part_passes(name, x)]
        return ok[-1] if ok else (outs[0] if outs and outs[0] is not None else default)
    if outs and part_passes(name, outs[0]):
        return outs[0]
    if any(part_passes(name, x) for x in outs[1:]):
        return part_value(name, entry["prev"], default) if entry.get("prev") else default
    return outs[0] if outs and outs[0] is not None else default


class Job:
    """fio's options for one job section, with fio's defaults."""

    def __init__(self, opts):
        self.o = opts

    def has(self, name):
        return name in self.o

    def later(self, a, b):
        """Of options @a and @b, the one fio applied last (None: neither is set)."""
        given = [n for n in (a, b) if n in self.o]
        return max(given, key=lambda n: self.o[n]["seq"]) if given else None

    def ptr(self, name, default=None):
        return self.o[name]["ptr"] if name in self.o else default

    def outs(self, name):
        return self.o[name]["out"] if name in self.o else []

    def out(self, name, default):
        return part_value(name, self.o[name], default) if name in self.o else default

    def pair(self, name, default):
        return pair_value(self.o.get(name), default)


def pair_value(entry, default):
    """READ,WRITE: one value is both; a part that failed (",10": the first) sets nothing, so
    its direction keeps what the job had, the value that entry replaced ([global]'s), else
    the default (fio 3.33 with rate_iops=50 in [global] and rate_iops=,10 read at 50 IOPS)."""
    if entry is None:
        return [default, default]
    prev = pair_value(entry.get("prev"), default)
    outs = entry["out"]
    if not outs:
        return prev
    if len(outs) == 1:
        return prev if outs[0] is None else [outs[0], outs[0]]
    return [prev[k] if x is None else x for k, x in enumerate(outs[:2])]


def expected(job):
    """What fio's reading says, as kfsim's dump spells it: {field: value}."""
    e = {}
    rw, _, postfix = (job.ptr("rw") or job.ptr("readwrite") or "read").partition(":")
    e["rw"] = {"readwrite": "rw"}.get(rw, rw)
    # str_rw_cb(): after ':', I/Os per random offset (random) or bytes skipped (sequential)
    e["ddir_seq_nr"], e["seq_skip"] = 1, 0
    if postfix and e["rw"].startswith("rand"):
        e["ddir_seq_nr"] = size_of(postfix)
    elif postfix:
        e["seq_skip"] = -size_of(postfix[1:]) if postfix[0] == "-" else size_of(postfix)
    if e["rw"] in ("rw", "randrw"):
        e["rwmixread"] = (100 - job.out("rwmixwrite", 50)) \
            if job.later("rwmixread", "rwmixwrite") == "rwmixwrite" else job.out("rwmixread", 50)
    # bsrange and bssplit set fio's min_bs/max_bs, which bs= fills only without them
    if not job.has("bsrange") and not job.has("bssplit"):
        e["bs"] = job.pair("bs", 4096)
    if job.has("bsrange"):
        parts = job.ptr("bsrange").split(",")
        rng = [[size_of(x) for x in re.split("[-:]", p, maxsplit=1)] for p in parts]
        rng = [sorted(r) if len(r) == 2 else [r[0], r[0]] for r in rng]  # fio swaps
        e["bsrange"] = [rng[0], rng[1] if len(rng) > 1 else rng[0]]
    e["iodepth"] = job.out("iodepth", 1)
    # fixup_options(): a low mark of 0 or over iodepth is iodepth
    low = job.out("iodepth_low", 0)
    e["iodepth_low"] = low if low and low <= e["iodepth"] else e["iodepth"]
    e["iodepth_batch_complete_min"] = job.out("iodepth_batch_complete_min", 1)
    e["ioengine"] = job.ptr("ioengine", "psync")
    # direct and buffered (.neg) set one field, the later wins; a value whose first part
    # fails and a later one passes ("direct=2,1") sets nothing: the other's stands
    sets = []
    for name in ("direct", "buffered"):
        entry = job.o.get(name)
        while entry:  # the job's own, then what it replaced ([global]'s)
            sets.append((entry["seq"], name, entry["out"]))
            entry = entry.get("prev")
    direct = False
    for _, name, outs in sorted(sets, key=lambda x: x[0]):
        if outs and part_passes(name, outs[0]):
            direct = bool(outs[0]) == (name == "direct")
    e["direct"] = direct
    e["sync"] = (job.ptr("sync", "0") or "0") not in ("0", "none")
    if job.has("size") and job.outs("size") and job.o["size"]["percent"] is None:
        e["size"] = job.out("size", 0)
    if job.has("offset") and job.o["offset"]["percent"] is None and job.outs("offset"):
        e["offset"] = job.out("offset", 0)
    rate, iops = job.pair("rate", 0), job.pair("rate_iops", 0)
    e["rate"], e["rate_iops"] = rate, iops
    if e["rw"].startswith("rand"):
        e["percentage_random"] = job.out("percentage_random", 100)
    dist, _, param = (job.ptr("random_distribution") or "random").partition(":")
    e["random_distribution"] = dist
    # str_random_distribution_cb(): fio logs no value; without one, FIO_DEF_ZIPF and
    # FIO_DEF_PARETO, 0 for normal
    if dist in ("zipf", "pareto", "normal"):
        e["distribution_param"] = float(param.split(":")[0]) if param else \
            {"zipf": 1.1, "pareto": 0.2, "normal": 0.0}[dist]
    e["thinktime_us"] = job.out("thinktime", 0)
    e["thinktime_blocks"] = job.out("thinktime_blocks", 1)
    # an unsigned int of microseconds (val_store() keeps the low 32 bits)
    e["thinktime_iotime_us"] = job.out("thinktime_iotime", 0) & 0xffffffff
    e["thinktime_blocks_type"] = job.ptr("thinktime_blocks_type", "complete")
    # a choice up to ',' or ':' (str_match_len())
    e["rw_sequencer"] = re.split("[,:]", job.ptr("rw_sequencer", "sequential"))[0]
    # FIO_OPT_STR_VAL_TIME with off1 and off2: the first part is the delay, the last the
    # range's end (start_delay_high); a part that failed stores nothing, and no end (0) is a
    # fixed delay, which kfsim gives as a range of one
    sd = job.outs("startdelay")
    lo = sd[0] if sd and sd[0] is not None else 0
    hi = sd[-1] if sd and sd[-1] else lo
    e["startdelay_us"] = [lo, hi]
    e["runtime_us"] = job.out("runtime" if job.has("runtime") else "timeout", 0)
    e["ramp_time_us"] = job.out("ramp_time", 0)
    # fio's limit (exceeds_number_ios()): number_ios times the loops (0 is 1), none for a
    # time_based job with a runtime, whose do_io() does not ask it
    loops = job.out("loops", 1) or 1
    e["number_ios"] = job.out("number_ios", 0) * loops
    # fsync and fdatasync are unsigned ints; fsync_on_close's sync at the end is end_fsync's
    e["fsync"] = job.out("fsync", 0) % 2**32
    e["fdatasync"] = job.out("fdatasync", 0) % 2**32
    e["end_fsync"] = bool(job.out("end_fsync", 0) or job.out("fsync_on_close", 0))
    e["numjobs"] = job.out("numjobs", 1)
    e["stonewall"] = bool(job.out("stonewall", 0) or job.out("wait_for_previous", 0))
    e["wait_for"] = job.ptr("wait_for")
    # fixup_options() turns time_based off without a runtime (the job ends at its size)
    e["time_based"] = bool(job.out("time_based", 0)) and e["runtime_us"] != 0
    if e["time_based"]:
        e["number_ios"] = 0
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
    files_expected(job, e)
    return e


def c_atoi(text):
    """C's atoi(): blanks, a sign, the digits that follow; 0 without any."""
    m = re.match(r"\s*([+-]?\d+)", text)
    return int(m.group(1)) if m else 0


def files_expected(job, e):
    """nrfiles above 1: the file count, file_service_type and its :N as str_fst_cb() keeps
    them (file_service_nr 1, or atoi() of what follows ':'), and each file's bytes as fio
    3.33's setup_files() sizes new files, in whole sectors: filesize=N each, else size /
    nrfiles (a filesize range is drawn: its bounds only)."""
    n = job.out("nrfiles", job.out("nr_files", 1))
    # filename=a:b: the names are the job's files (str_filename_cb()), and fixup_options()
    # cuts nrfiles to their count; a ':' after '\' is the name's, empty names are none
    names = [x for x in re.split(r"(?<!\\):", job.ptr("filename") or "") if x]
    if len(names) > 1:
        n = min(n, len(names)) if job.has("nrfiles") or job.has("nr_files") else len(names)
    if not n or n <= 1:
        return
    e["nr_files"] = n
    kind, colon, post = (job.ptr("file_service_type") or "roundrobin").partition(":")
    if kind in ("roundrobin", "sequential", "random"):
        e["file_service_type"] = kind
        e["file_service_nr"] = c_atoi(post) % 2**32 if colon else 1
    fsize = job.ptr("filesize")
    off = e.get("offset", 0) or 0  # fio's f->file_offset: filesize= is the file's end
    if job.has("offset_increment"):
        pass  # each clone's files start elsewhere: their sizes are not compared
    elif fsize and "-" not in fsize and "%" not in fsize and size_of(fsize):
        e["file_bytes"] = [max(size_of(fsize) - off, 0) // 512 * 512] * n
    elif fsize and "%" not in fsize:
        lo, hi = (size_of(x) for x in fsize.split("-", 1))
        e["file_bytes_range"] = (lo or 0, hi or 0)
    elif e.get("size"):
        e["file_bytes"] = [e["size"] // n // 512 * 512] * n


SOURCES = {"rw": ["rw", "readwrite"], "ddir_seq_nr": ["rw", "readwrite"],
           "seq_skip": ["rw", "readwrite"], "rwmixread": ["rwmixread", "rwmixwrite"],
           "bs": ["bs", "blocksize"], "bsrange": ["bsrange"], "iodepth": ["iodepth"],
           "iodepth_low": ["iodepth_low", "iodepth"],
           "iodepth_batch_complete_min": ["iodepth_batch_complete_min",
                                          "iodepth_batch_complete"],
           "ioengine": ["ioengine"], "direct": ["direct", "buffered"], "sync": ["sync"],
           "rate": ["rate"], "rate_iops": ["rate_iops"],
           "percentage_random": ["percentage_random"],
           "random_distribution": ["random_distribution"],
           "distribution_param": ["random_distribution"], "thinktime_us": ["thinktime"],
           "thinktime_blocks": ["thinktime_blocks"],
           "thinktime_iotime_us": ["thinktime_iotime"],
           "rw_sequencer": ["rw_sequencer"],
           "thinktime_blocks_type": ["thinktime_blocks_type"],
           "startdelay_us": ["startdelay"], "runtime_us": ["runtime", "timeout"],
           "ramp_time_us": ["ramp_time"],
           "number_ios": ["number_ios"], "numjobs": ["numjobs"],
           "fsync": ["fsync"], "fdatasync": ["fdatasync"],
           "end_fsync": ["end_fsync", "fsync_on_close"],
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
        chk("ddir_seq_nr", max(1, j.get("ddir_seq_nr", 0)))  # older dumps lack it
        chk("seq_skip", j["seq_skip"])
        chk("rwmixread", j["rwmixread"])
        chk("bs", j["bs"])
        chk("bsrange", j["bsrange"])
        chk("iodepth", j["iodepth"])
        if j["engine"] != "none":  # read only where there is a queue to refill
            chk("iodepth_low", j.get("iodepth_low", j["iodepth"]))
            chk("iodepth_batch_complete_min", j.get("iodepth_batch_complete_min", 1))
        chk("ioengine", j["ioengine"])
        chk("direct", j["direct"])
        chk("sync", j["sync"])
        if "nr_files" in e and j["engine"] != "none":
            got = j.get("file_bytes", [])
            if len(got) != e["nr_files"]:
                diffs.append("nrfiles: fio %d, kfsim %d" % (e["nr_files"], len(got)))
            if "file_bytes" in e and got and got != e["file_bytes"]:
                diffs.append("file sizes: fio %r, kfsim %r" % (e["file_bytes"], got))
            lo, hi = e.get("file_bytes_range", (0, 0))
            if hi and any(b > hi for b in got):  # drawn, then aligned down to a block
                diffs.append("file sizes: fio %d to %d, kfsim %r" % (lo, hi, got))
            chk("file_service_type", j.get("file_service_type"))
            chk("file_service_nr", j.get("file_service_nr"))
        elif "size" in e and "region_size" in j and e["size"] and not e["time_based"]:
            # kfsim's regions are whole sectors: size=1MiB (1000000) is 1953 sectors, and
            # fio's I/O ends at the last whole block all the same
            if e["size"] // 512 * 512 != j["region_size"]:
                diffs.append("size: fio %d, kfsim %d" % (e["size"], j["region_size"]))
        if "offset" in e and "nr_files" in e and "files_offset" in j:
            # several files: the offset is each file's (fio's f->file_offset)
            if j["files_offset"] != e["offset"]:
                diffs.append("offset: fio %d, kfsim %d" % (e["offset"], j["files_offset"]))
            e.pop("offset")
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
        if "distribution_param" in e and abs(e["distribution_param"] -
                                             j["distribution_param"]) > 1e-9:
            diffs.append("distribution_param: fio %r, kfsim %r" % (e["distribution_param"],
                                                                  j["distribution_param"]))
        chk("thinktime_us", j["thinktime_us"])
        chk("thinktime_blocks", j.get("thinktime_blocks", 1))
        chk("thinktime_iotime_us", j.get("thinktime_iotime_us", 0))
        chk("rw_sequencer", j.get("rw_sequencer", "sequential"))
        chk("thinktime_blocks_type", j.get("thinktime_blocks_type", "complete"))
        chk("startdelay_us", j["startdelay_us"])
        chk("runtime_us", j["runtime_us"])
        chk("ramp_time_us", j["ramp_time_us"])
        chk("number_ios", j["number_ios"])
        chk("fsync", j.get("fsync", 0))  # the dump names them only when set
        chk("fdatasync", j.get("fdatasync", 0))
        chk("end_fsync", j.get("end_fsync", False))
        chk("ss", j["ss"])
        chk("ss_dur_s", j["ss_dur_s"])
        chk("ss_ramp_us", j["ss_ramp_us"])
        unbounded = j["io_size"] == 0  # number_ios is compared by itself
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


def fio_complaints(fio_text):
    """The lines in which fio says what it rejects."""
    return [l.strip() for l in fio_text.splitlines()
            if re.search(r"failed parsing|Bad option|requires an argument|out of range|"
                         r"not loadable|must be|invalid|parsing failed", l)]


def included(path, text, depth=0):
    """The files an "include FILE" line @text of @path reads, nested ones too (real paths)."""
    m = re.match(r"\s*include\s+([^#;]+?)\s*(?:[#;].*)?$", text)
    if not m or depth > 8:
        return set()
    inc = os.path.join(os.path.dirname(path), m.group(1))
    got = {os.path.realpath(inc)}
    try:
        with open(inc, newline="", encoding="latin-1") as f:
            for t in f:
                got |= included(inc, t, depth + 1)
    except OSError:
        pass
    return got


def refusal_complete(kfsim, path, stderr, env, tmp):
    """With every line kfsim named removed, kfsim must read the file: all reasons at once.

    Returns (complete, why, the file without those lines): in strict mode fio must read that
    file too (kfsim named every line fio rejects), which judge_all() asks fio in batches.
    """
    named, elsewhere = set(), set()
    for line in stderr.splitlines():
        m = re.search(re.escape(path) + r":(\d+): ", line)
        if m:
            named.add(int(m.group(1)))
            continue
        m = re.match(r"kfsim bfq: (.+?):\d+: ", line)
        if m:
            elsewhere.add(os.path.realpath(m.group(1)))
    # lines as fio's fgets() and kfsim end them, at '\n' only (a lone '\r' is in the line)
    with open(path, newline="", encoding="latin-1") as f:
        parts = f.read().split("\n")
    lines = [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    # a line named in an included file: the include lines that lead to it go
    for n, text in enumerate(lines, 1):
        if elsewhere & included(path, text):
            named.add(n)
    if not named:
        return False, "no FILE:LINE in the refusal", None
    trimmed = os.path.join(tmp, os.path.basename(path))
    # a job's header named (the job as a whole): the job goes, with its options, and so do
    # the wait_for= lines that name it
    gone = {l.strip()[1:].split("]")[0] for n, l in enumerate(lines, 1) if n in named and
            l.strip().startswith("[")}
    with open(trimmed, "w", newline="", encoding="latin-1") as f:
        in_named_job = False
        for n, text in enumerate(lines, 1):
            header = text.strip().startswith("[")
            in_named_job = (n in named) if header else in_named_job
            waits_gone = re.match(r"\s*wait_for\s*=\s*([^#;\s]+)", text)
            waits_gone = waits_gone and waits_gone.group(1) in gone
            # the copy is elsewhere: an include relative to the file is made absolute
            inc = re.match(r"(\s*include\s+)([^/\s].*)", text)
            if inc:
                text = inc.group(1) + os.path.join(os.path.dirname(os.path.abspath(path)),
                                                   inc.group(2))
                text += "" if text.endswith("\n") else "\n"
            f.write("\n" if n in named or in_named_job or waits_gone else text)
    run = subprocess.run([kfsim, "bfq", "sim", "--fio", trimmed, "--dump-jobs"],
                         capture_output=True, text=True, errors="replace", env=env, timeout=60)
    if run.returncode != 0 and "no job section" in run.stderr:
        return True, "%d line(s) named, every job among them" % len(named), None
    if run.returncode != 0 and engine_orphans_of_named_engine(lines, named, run.stderr):
        return True, "%d line(s) named; without them kfsim reads it but for options of the " \
            "engine the named ioengine= line meant" % len(named), None
    if run.returncode != 0:
        return False, "a second round: " + run.stderr.strip().splitlines()[0], None
    return True, "%d line(s) named; without them kfsim reads it" % len(named), trimmed


def engine_orphans_of_named_engine(lines, named, stderr):
    """Whether the second round refuses only engine options, and a named line set ioengine=.

    An engine's options are judged against the engine the section loads (fio 3.33 loads it
    before it reads them).  A refused ioengine= line (ioengine=liba) leaves that engine unknown,
    so its options are not judged (nor does fio judge them: it fails to load the engine);
    blanking the line makes the section psync's, whose lack of cmdprio= is not a problem the
    user's file has (fio_badgen seeds 51101 and 51291: cmdprio-bssplit.fio with its
    ioengine=libaio broken).
    """
    if not any(n <= len(lines) and re.match(r"\s*ioengine\s*=", lines[n - 1], re.I)
               for n in named):
        return False
    problems = [l for l in stderr.splitlines() if l.strip()]
    return bool(problems) and all(
        re.search(r": an option of .+, not of '[^']*'$", l) or
        re.match(r"kfsim bfq: and \d+ more problem", l) for l in problems)


# Why kfsim may refuse a file fio reads: the reasons docs/bfq.md lists ("Refused, with the
# reason"), and what fio's --parse-only does not check but its run fails on
DOCUMENTED_REFUSALS = [
    r"not modelled", r"kfsim simulates one disk", r"does not fit on the disk",
    r"is beyond the (disk|file)", r"go past the end of the", r"smaller than one block",
    r"more than \d+ jobs", r"steadystate options must be consistent",
    r"kfsim reads k, m, g, t", r"needs cgroup=NAME", r"already has cgroup_weight",
    r"a space after '='", r"fio's run fails", r"must be a multiple of 512",
    # fio prints that it cannot open the file but, the include last in its section, goes on
    r"include: cannot open",
    # fio --parse-only reads a file without a job; its run fails ("No job(s) defined")
    r": no job section$",
    # a negative number (docs/bfq.md: fio wraps it round, or for iodepth=-1 keeps the
    # depth it had after failing -1 and passing the 1 after the '-')
    r"not '-\d",
    # zbd.c checks zonesize= when the run sets the job's zones up, not --parse-only
    r"Specifying the zone size is mandatory",
    # zonemode=strided whose zonesize= line kfsim refused for its own documented reason
    r"need zonesize=, whose line is refused here",
]


def undocumented(refusal):
    """The lines of a refusal that give no documented reason."""
    return [l for l in refusal.strip().splitlines()
            if not any(re.search(p, l) for p in DOCUMENTED_REFUSALS)]


def judge(kfsim, path, env, tmp, strict=False, fio=None):
    """One file: ("agree"|"refused"|"unjudged"|"failed", the line to print, the file without
    the lines a refusal named (strict: for fio to read), or None).

    @strict: fio's parser decides what is valid (every engine the file names is one fio
    here has): a file fio rejects must be refused, naming every line fio rejects; a file
    fio reads may be refused only for a documented reason (DOCUMENTED_REFUSALS).
    @fio: fio's reading when already made (fio_read_many()).
    """
    name = os.path.basename(path)
    rc, fio_jobs, fio_text = fio or fio_sections(path, env)
    dump, refusal, run = kfsim_read(kfsim, path, env)
    if run.returncode not in (0, 2):
        return "failed", "%-32s CRASH (exit %d): %s" % (name, run.returncode,
                                                        run.stderr[-200:]), None
    if strict and rc != 0 and refusal is None:
        return "failed", "%-32s fio rejects it (%s), kfsim reads it" % (
            name, "; ".join(fio_complaints(fio_text)) or "exit %d" % rc), None
    if refusal is not None:
        ok, why, trimmed = refusal_complete(kfsim, path, refusal, env, tmp)
        first = refusal.strip().splitlines()[0].split(": ", 1)[-1]
        bad = undocumented(refusal) if strict and rc == 0 else []
        if bad:
            ok, why = False, "fio reads it; no documented reason: %s" % bad[0]
        return ("refused" if ok else "failed"), "%-32s refused (%s): %s" % (name, why, first), \
            trimmed if ok and strict else None
    sim = subprocess.run([kfsim, "bfq", "sim", "--fio", path, "--duration", "20ms", "--quiet",
                          "--force"], capture_output=True, text=True, errors="replace", env=env,
                         timeout=120)
    ran = "" if sim.returncode == 0 else "the run failed (exit %d): %s" % (
        sim.returncode, sim.stderr.strip()[:160])
    if rc != 0 and not fio_jobs:
        # Debian's fio lacks the engine (http, rdma, nfs, ...): fio reads no job here
        why = [l for l in fio_text.splitlines() if "not loadable" in l or
               "failed parsing" in l or "Bad option" in l]
        if ran:
            return "failed", "%-32s %s" % (name, ran), None
        return "unjudged", "%-32s unjudged: fio here cannot read it (%s); kfsim reads %d jobs " \
            "and runs them" % (name, (why or ["exit %d" % rc])[0].strip(), len(dump["jobs"])), \
            None
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
        return "failed", "%-32s DIFFERS%s: %s" % (name, note, "; ".join(diffs)), None
    return "agree", "%-32s agrees: %d jobs, %d options compared%s" % (name, len(jobs), compared,
                                                                      note), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kfsim")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--min-agree", type=int, default=0)
    ap.add_argument("--min-simulate", type=int, default=0,
                    help="files kfsim reads and runs: those that agree and the unjudged")
    ap.add_argument("--strict", action="store_true",
                    help="fio here has every engine the files name: what it rejects, kfsim "
                         "must refuse (judge())")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob("/usr/share/doc/fio/examples/*.fio"))
    if not shutil.which("fio"):
        print("skipped: fio is not installed (Debian package fio)")
        return 77
    if not files:
        print("skipped: no job files (Debian package fio-examples)")
        return 77
    # the environment variables the examples use, set as their users set them (their
    # comments say what each is), for fio and kfsim alike: unset, fio refuses the empty values
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FIO_", "S3_", "SWIFT_"))}
    env.update({"FIO_DIR": tempfile.gettempdir(), "FIO_BS": "4k", "FIO_IODEPTH": "4",
                "FIO_RW": "randread", "GPU_DEV_IDS": "0", "POOL": "kfsim", "CONT": "kfsim",
                "SSE_KEY": "kfsim-example-key", "STORAGE_CLASS": "STANDARD",
                "S3_ID": "kfsim", "S3_KEY": "kfsim-example-key", "SWIFT_id": "kfsim-token"})
    version = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
    print("referee: %s --debug=parse --parse-only; kfsim: %s bfq sim --fio F --dump-jobs"
          % (version, args.kfsim))
    results = judge_all(args.kfsim, files, env, args.strict)
    return summarize(results, len(files), args.min_agree, args.min_simulate)


def judge_timed(kfsim, path, env, tmp, strict, fio):
    """judge(), with a hang (a kfsim that does not end in time) said as a failure."""
    try:
        return judge(kfsim, path, env, tmp, strict, fio)
    except subprocess.TimeoutExpired as e:
        return "failed", "%-32s HANG: %s did not end in %d s" % (
            os.path.basename(path), " ".join(e.cmd[:3]), e.timeout), None


def judge_all(kfsim, files, env, strict=False):
    """judge() every file, in parallel (fio and kfsim are separate processes); prints each."""
    results, fio = [], {}
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        batches = [files[i:i + 25] for i in range(0, len(files), 25)]
        for read in pool.map(lambda b: fio_read_many(b, env), batches):
            fio.update(read)
        judged = list(pool.map(lambda p: judge_timed(kfsim, p, env, tmp, strict, fio[p]),
                               files))
        # strict: fio reads each refused file once the lines kfsim named are gone
        trimmed = [t for _, _, t in judged if t]
        batches = [trimmed[i:i + 25] for i in range(0, len(trimmed), 25)]
        for read in pool.map(lambda b: fio_read_many(b, env), batches):
            fio.update(read)
        for verdict, line, t in judged:
            if t and fio[t][0] != 0:
                verdict = "failed"
                line += " -- but kfsim did not name what fio rejects: " + "; ".join(
                    fio_complaints(fio[t][2]) or ["fio exit %d" % fio[t][0]])
            print(line)
            results.append((verdict, line.split()[0]))
    return results


def summarize(results, nr_files, min_agree, min_simulate):
    """The counts, and the exit status: 0 all judged right, else 1."""
    agree = sum(v == "agree" for v, _ in results)
    refused_ok = sum(v == "refused" for v, _ in results)
    unjudged = sum(v == "unjudged" for v, _ in results)
    failures = [n for v, n in results if v == "failed"]
    print("%d files: %d agree with fio's reading and run, %d refused with every reason at "
          "once, %d unjudged (fio here lacks the engine), %d failed"
          % (nr_files, agree, refused_ok, unjudged, len(failures)))
    print("%d simulate (read and run by kfsim)" % (agree + unjudged))
    if failures or agree < min_agree or agree + unjudged < min_simulate:
        print("failed: %s" % ", ".join(failures) if failures else
              "fewer than %d agree" % min_agree if agree < min_agree else
              "fewer than %d simulate" % min_simulate)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
