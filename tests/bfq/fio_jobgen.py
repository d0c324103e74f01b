#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random fio job files, judged by fio's own parser (fio_oracle.judge(), strict).

fio's 86 examples are a few points of an unbounded input space: users bring job files nobody
here wrote.  This writes random ones from a seed and gives each to fio_oracle's referee:

  - a [global] section (sometimes two, the second changing the defaults of the jobs after
    it) and several job sections, each overriding some of the global options;
  - options kfsim models, in fio's spellings: sizes with k K kb KiB m MiB g and %, ranges
    with '-' and ':', READ,WRITE pairs, bssplit, rw=randrw:8 and rw=read:16k, rwmixread or
    rwmixwrite, time units (us ms s m h), booleans bare and with a value, aliases
    (readwrite, blocksize, blocksize_range, io_limit, timeout, wait_for_previous), ${VAR}
    from the environment, numjobs, stonewall, wait_for;
  - options that change nothing the disk sees, and ones kfsim refuses (fsync);
  - now and then an invalid value or an option fio does not have;
  - '#' and ';' comments, whole-line and after a value, blank lines, tabs and spaces around
    the line (fio keeps a space after '=': the value starts with it), and CRLF.

With --lang the files also stress the job-file language itself (lang_noise()): include
files (nested, relative and absolute, a missing one, one with a section), ${VAR}s that are
set, empty or unset inside a value or holding a whole "key=value", fio's $pagesize and $ncpus
(and arithmetic on them, which fio has bc(1) do), headers that do not end in ']', option
names in capitals or empty, repeated options, values with junk after the unit, negative,
fractional or huge numbers, form feeds and lines of blanks.

In strict mode fio's parser decides: a file it rejects kfsim must refuse, naming the lines
fio complains about; a file it reads kfsim must read with every compared option equal, or
refuse it only for a documented reason (fio_oracle.DOCUMENTED_REFUSALS).

With --wide the jobs also draw options the classic files leave out (wide_options():
blockalign, strided zones, ramp_time, rate_process, fsync/fdatasync/end_fsync, verify and
verify_backlog, offset_increment, io_size in %, file_service_type, nrfiles, filesize ranges,
iodepth_low and the batch options, thinktime_spin/iotime, rw_sequencer, cgroups, flow,
latency targets, new_group, exitall, trims): the same referee and verdicts.  A job of
several files (nrfiles above 1, modelled since the sixth round) is judged by its files' count,
file_service_type and its :N, and each file's bytes (fio_oracle.files_expected()); the file
and offset of each I/O are fio_files.py's to compare (fio's --write_iolog).

Usage: fio_jobgen.py KFSIM [--seeds A-B] [--lang] [--wide] [--keep DIR] [--min-agree N]
Exit 0 when every file is judged right and at least --min-agree agree; 1 otherwise; 77 when
fio is absent.
"""
import argparse
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fio_oracle  # noqa: E402  (the one comparison both scripts use)

# ${VAR}s the files may use, set for fio and kfsim alike; KFSIM_GEN_UNSET stays unset
ENV = {"KFSIM_GEN_BS": "16k", "KFSIM_GEN_DEPTH": "4", "KFSIM_GEN_RW": "randread",
       "KFSIM_GEN_SIZE": "8m",
       # --lang: a unit, an empty one, a whole option, an option's name, a '#' (no comment
       # once expanded: fio cuts comments before it expands)
       "KFSIM_GEN_UNIT": "k", "KFSIM_GEN_EMPTY": "", "KFSIM_GEN_OPT": "iodepth=2",
       "KFSIM_GEN_KEY": "bs", "KFSIM_GEN_HASH": "8k#x"}


def size_text(rng, nbytes):
    """@nbytes (a multiple of 1 KiB) in one of fio's spellings for kb_base=1024."""
    units = [("", 1), ("k", 1 << 10), ("K", 1 << 10), ("kb", 1 << 10), ("KB", 1 << 10),
             ("ki", 1 << 10), ("Ki", 1 << 10), ("m", 1 << 20), ("M", 1 << 20),
             ("MB", 1 << 20), ("mi", 1 << 20), ("g", 1 << 30), ("b", 1), ("B", 1),
             # fio 3.33 (kb_base=1024) reads KiB MiB as powers of 1000
             ("KiB", 1000), ("kib", 1000), ("MiB", 1000000)]
    fits = [(u, m) for u, m in units if nbytes % m == 0 and (m % 1000 or rng.random() < 0.3)]
    fits = fits or [("", 1)]
    unit, mult = rng.choice(fits)
    if rng.random() < 0.05 and nbytes % (1 << 20) == 0:
        return "0x%x" % nbytes
    return "%d%s" % (nbytes // mult, unit)


def bs_value(rng):
    return rng.choice([512, 1024, 4096, 8192, 16384, 65536, 131072, 1 << 20])


def bs_option(rng):
    kind = rng.randrange(6)
    name = rng.choice(["bs", "bs", "blocksize"])
    if kind == 0:
        return name, "%s,%s" % (size_text(rng, bs_value(rng)), size_text(rng, bs_value(rng)))
    if kind == 1:
        lo, hi = sorted([bs_value(rng), bs_value(rng)])
        sep = rng.choice(["-", "-", ":"])
        v = "%s%s%s" % (size_text(rng, lo), sep, size_text(rng, hi))
        if rng.random() < 0.3:
            v += ",%s-%s" % (size_text(rng, 4096), size_text(rng, 65536))
        return rng.choice(["bsrange", "blocksize_range"]), v
    if kind == 2:
        sizes = rng.sample([4096, 8192, 16384, 65536, 131072], rng.randint(1, 4))
        cut = sorted(rng.sample(range(1, 100), len(sizes) - 1))
        percs = [b - a for a, b in zip([0] + cut, cut + [100])]
        parts = ["%s/%d" % (size_text(rng, s), p) for s, p in zip(sizes, percs)]
        if rng.random() < 0.2:
            parts[-1] = size_text(rng, sizes[-1]) + "/"  # shares what the others leave
        return "bssplit", ":".join(parts)
    if kind == 3:
        return name, "${KFSIM_GEN_BS}"
    return name, size_text(rng, bs_value(rng))


def time_text(rng, unit_default, lo_us, hi_us):
    """A time between @lo_us and @hi_us in fio's spellings; @unit_default: us or s."""
    us = rng.randint(lo_us, hi_us)
    choices = [("us", 1), ("ms", 1000), ("s", 1000000), ("m", 60000000), ("h", 3600000000),
               ("msec", 1000), ("MS", 1000), ("S", 1000000), ("H", 3600000000),
               ("sec", 1), ("min", 1)]  # fio: "sec" and "min" are microseconds
    fits = [(u, m) for u, m in choices if us % m == 0 and us // m > 0] or [("us", 1)]
    unit, mult = rng.choice(fits)
    if unit == unit_default and rng.random() < 0.5:
        unit = ""
    if unit == "us" and rng.random() < 0.2:
        unit = "usec"
    return "%d%s" % (us // mult, unit)


def size_option(rng):
    return "size", rng.choice([size_text(rng, rng.choice([1 << 20, 8 << 20, 64 << 20, 1 << 30])),
                               "%d%%" % rng.randint(1, 6), "${KFSIM_GEN_SIZE}",
                               "%dMiB" % rng.randint(1, 64), "%dKiB" % rng.randint(1, 999)])


def rw_option(rng):
    rw = rng.choice(["read", "write", "randread", "randwrite", "rw", "readwrite", "randrw",
                     "randrw", "${KFSIM_GEN_RW}"])
    r = rng.random()
    if r < 0.15 and rw.startswith("rand"):
        rw += ":%d" % rng.choice([1, 2, 8, 32])  # a new random offset every N I/Os
    elif r < 0.25 and rw in ("read", "write", "rw", "readwrite"):
        rw += ":%s" % size_text(rng, rng.choice([4096, 8192, 65536]))  # a hole after each
    return rng.choice(["rw", "rw", "readwrite"]), rw


def flag(rng, name):
    """A boolean as fio takes it: with a value (0 or 1)."""
    return name, rng.choice(["1", "1", "0"])


def set_flag(rng, name):
    """An option fio sets bare (FIO_OPT_STR_SET); =1 and =0 too."""
    return name, rng.choice([None, None, "1", "0"])


def valid_options(rng, names):
    """Options kfsim models, each with a valid value: (name, value or None)."""
    gens = [
        lambda: rw_option(rng),
        lambda: bs_option(rng),
        lambda: (rng.choice(["rwmixread", "rwmixwrite"]), str(rng.randint(0, 100))),
        lambda: ("iodepth", rng.choice(["1", "4", "32", "${KFSIM_GEN_DEPTH}"])),
        lambda: ("ioengine", rng.choice(["psync", "sync", "libaio", "io_uring", "null",
                                         "posixaio", "pvsync2", "mmap", "vsync"])),
        lambda: flag(rng, rng.choice(["direct", "buffered"])),
        lambda: ("sync", rng.choice(["0", "1", "none", "sync", "dsync"])),
        lambda: size_option(rng),
        lambda: ("offset", rng.choice([size_text(rng, rng.choice([0, 1 << 20, 1 << 30])),
                                       "%d%%" % rng.randint(0, 50)])),
        lambda: (rng.choice(["io_size", "io_limit"]),
                 size_text(rng, rng.choice([1 << 20, 4 << 20]))),
        lambda: ("number_ios", str(rng.randint(1, 5000))),
        lambda: ("rate", rng.choice([size_text(rng, 1 << 20),
                                     "%s,%s" % (size_text(rng, 1 << 20),
                                                size_text(rng, 2 << 20)),
                                     ",%s" % size_text(rng, 4 << 20)])),
        lambda: ("rate_iops", rng.choice(["100", "100,200", "50,"])),
        lambda: ("percentage_random", str(rng.randint(0, 100))),
        lambda: ("random_distribution", rng.choice(["random", "zipf:1.2", "pareto:0.9",
                                                    "normal:5", "zoned:60/10:40/90"])),
        lambda: ("thinktime", time_text(rng, "us", 1, 2000000)),
        lambda: ("thinktime_blocks", str(rng.randint(1, 16))),
        lambda: ("thinktime_blocks_type", rng.choice(["complete", "issue"])),
        # a value in parts, as fio's handle_option() takes them: the first part sets an
        # option without a callback (a failing one sets nothing), the last passing one an
        # option with one (size, rwmixread)
        lambda: rng.choice([("iodepth", rng.choice(["-1", "abc-4", ",8", "4:32", "-2,3"])),
                            ("size", "%s-%s" % (size_text(rng, 1 << 20),
                                                size_text(rng, 4 << 20))),
                            ("rwmixread", "%d:%d" % (rng.randint(0, 100),
                                                     rng.randint(0, 100))),
                            ("numjobs", "x-%d" % rng.randint(1, 3))]),
        lambda: ("startdelay", rng.choice([time_text(rng, "s", 0, 3000000),
                                           "%d-%d" % (rng.randint(0, 2), rng.randint(2, 4))])),
        lambda: (rng.choice(["runtime", "timeout"]), time_text(rng, "s", 1000, 120000000)),
        lambda: set_flag(rng, "time_based"),
        lambda: ("numjobs", str(rng.randint(1, 3))),
        lambda: ("prio", str(rng.randint(0, 7))),
        lambda: ("prioclass", str(rng.randint(1, 3))),
        lambda: ("loops", str(rng.randint(1, 3))),
        # change nothing the disk sees
        lambda: set_flag(rng, "group_reporting"),
        lambda: flag(rng, rng.choice(["norandommap", "randrepeat", "thread",
                                      "refill_buffers"])),
        lambda: ("description", "a generated job"),
    ]
    opts = [rng.choice(gens)() for _ in range(rng.randint(1, 8))]
    if names and rng.random() < 0.3:
        opts.append(set_flag(rng, rng.choice(["stonewall", "wait_for_previous"])))
    elif names and rng.random() < 0.15:
        opts.append(("wait_for", rng.choice(names)))
    return opts


def wide_options(rng, names):
    """--wide: options the classic generator does not draw (fifth round, 2026-12-07), each
    with a value fio 3.33 reads: block alignment, strided zones, ramps, rate processes,
    syncs, verification, clones spread by offset_increment, file handling, the queue's
    refill and batch options, group and exit options, seeds and generators."""
    gens = [
        lambda: (rng.choice(["blockalign", "ba"]),
                 rng.choice([size_text(rng, rng.choice([512, 4096, 8192, 65536])),
                             "%s,%s" % (size_text(rng, 4096), size_text(rng, 8192))])),
        lambda: ("ramp_time", time_text(rng, "s", 0, 5000000)),
        lambda: ("rate_process", rng.choice(["linear", "poisson"])),
        lambda: (rng.choice(["fsync", "fdatasync"]), str(rng.choice([1, 4, 32]))),
        lambda: set_flag(rng, rng.choice(["end_fsync", "fsync_on_close"])),
        lambda: ("offset_increment", size_text(rng, rng.choice([1 << 20, 4 << 20]))),
        lambda: ("io_size", "%d%%" % rng.randint(1, 200)),
        lambda: ("verify", rng.choice(["crc32c", "md5", "0", "null"])),
        lambda: ("verify_backlog", str(rng.randint(1, 64))),
        lambda: flag(rng, "do_verify"),
        lambda: ("file_service_type", rng.choice(["random", "roundrobin", "sequential",
                                                  "zipf:1.2", "pareto:0.5", "gauss:5",
                                                  "roundrobin:4"])),
        lambda: flag(rng, rng.choice(["create_on_open", "unlink", "unlink_each_loop",
                                      "invalidate", "allrandrepeat", "fill_device"])),
        lambda: ("randseed", str(rng.randint(1, 1 << 40))),
        lambda: ("random_generator", rng.choice(["tausworthe", "lfsr", "tausworthe64"])),
        lambda: set_flag(rng, rng.choice(["new_group", "exitall"])),
        lambda: ("iodepth_low", str(rng.randint(1, 32))),
        lambda: (rng.choice(["iodepth_batch", "iodepth_batch_submit"]),
                 str(rng.randint(1, 16))),
        lambda: (rng.choice(["iodepth_batch_complete_min", "iodepth_batch_complete"]),
                 str(rng.randint(0, 16))),
        lambda: ("iodepth_batch_complete_max", str(rng.randint(1, 32))),
        lambda: ("thinktime_spin", time_text(rng, "us", 0, 1000)),
        lambda: ("thinktime_iotime", time_text(rng, "s", 1000000, 3000000)),
        lambda: ("rw_sequencer", rng.choice(["sequential", "identical"])),
        lambda: ("filesize", rng.choice([size_text(rng, 8 << 20),
                                         "%s-%s" % (size_text(rng, 1 << 20),
                                                    size_text(rng, 8 << 20))])),
        lambda: ("nrfiles", str(rng.randint(1, 4))),
        lambda: ("size", "%d%%" % rng.randint(1, 100)),
        lambda: ("rate_min", size_text(rng, 1 << 10)),
        lambda: ("ratecycle", str(rng.randint(100, 2000))),
        lambda: ("continue_on_error", rng.choice(["none", "read", "write", "io", "all"])),
        lambda: ("cgroup_weight", str(rng.randint(100, 1000))),
        lambda: ("cgroup", rng.choice(["a", "b"])),
        lambda: ("flow", str(rng.randint(-10, 10))),
        lambda: ("flow_sleep", str(rng.randint(0, 1000))),
        lambda: ("latency_target", time_text(rng, "us", 1000, 100000)),
        lambda: ("latency_window", time_text(rng, "us", 100000, 2000000)),
        lambda: ("latency_percentile", str(rng.randint(1, 100))),
        lambda: ("exitall_on_error", None),
        lambda: ("fill_fs", rng.choice(["0", "1"])),
        lambda: ("rw", rng.choice(["randread:8", "randwrite:4", "randrw:2", "read:-4k",
                                   "trim", "randtrim", "trimwrite"])),
    ]
    opts = [rng.choice(gens)() for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.2:
        # strided zones, as a sequential job uses them
        opts += [("zonemode", "strided"), ("zonesize", size_text(rng, rng.choice(
            [64 << 10, 1 << 20]))), ("zoneskip", size_text(rng, rng.choice([0, 1 << 20])))]
        if rng.random() < 0.5:
            opts.append(("zonerange", size_text(rng, 2 << 20)))
    return opts


def invalid_option(rng):
    """One option fio rejects, or one kfsim refuses with a documented reason."""
    return rng.choice([
        ("bs", "abc"), ("rw", "readx"), ("rw", "sideways"), ("iodepth", "many"),
        ("rwmixread", "150"), ("percentage_random", "101"), ("numjobs", "0"),
        ("ioengine", "no_such_engine"), ("no_such_option", "1"), ("sync", "maybe"),
        ("direct", None), ("size", "${KFSIM_GEN_UNSET}"), ("random_distribution", "zipf"),
        ("prio", "9"), ("thinktime", "fast"), ("fsync", "four"), ("end_fsync", "2"),
        ("ramp_time", "soon"), ("ioprio", "3"), ("runtime", "soon"),
    ])


def option_line(rng, name, value):
    """One line in fio's syntax, with the whitespace and comments users write."""
    text = name if value is None else "%s=%s" % (name, value)
    r = rng.random()
    if r < 0.05:
        text = "\t" + text
    elif r < 0.1:
        text = "  " + text + "   "
    elif r < 0.13 and value is not None:
        text = "%s =%s" % (name, value)  # a space before '=' only: fio strips it
    elif r < 0.15 and value is not None:
        text = "%s = %s" % (name, value)  # fio keeps the space after '=' in the value
    r = rng.random()
    if r < 0.08:
        text += rng.choice([" # ", " ; ", "\t;"]) + "a comment"
    return text


def lang_option(rng):
    """One option line (name, value) that stresses the language rather than an option."""
    return rng.choice([
        lambda: ("bs", "%s${KFSIM_GEN_UNSET}" % size_text(rng, bs_value(rng))),
        lambda: ("bs", "${KFSIM_GEN_UNSET}%s" % size_text(rng, bs_value(rng))),
        lambda: ("bs", "%d${KFSIM_GEN_UNIT}" % rng.choice([4, 8, 64])),
        lambda: ("iodepth", "${KFSIM_GEN_EMPTY}%d" % rng.randint(1, 8)),
        lambda: ("${KFSIM_GEN_OPT}", None),
        lambda: ("${KFSIM_GEN_KEY}", size_text(rng, bs_value(rng))),
        lambda: ("bs", "${KFSIM_GEN_HASH}"),
        lambda: ("description", "with ${KFSIM_GEN_UNSET} and ${} in it"),
        lambda: ("bs", "${KFSIM_GEN_UNSET"),  # no '}': as written
        lambda: ("bs", "$pagesize"),
        lambda: ("numjobs", "$ncpus"),
        lambda: ("bs", rng.choice(["$pagesize*2", "$pagesize/2"])),
        lambda: ("iodepth", "$ncpus+1"),
        lambda: (rng.choice(["BS", "Rw", "IODEPTH"]), rng.choice(["4k", "read", "2"])),
        lambda: ("", size_text(rng, bs_value(rng))),
        lambda: ("bs  ", size_text(rng, bs_value(rng))),  # blanks before '='
        lambda: ("bs", size_text(rng, bs_value(rng)) + rng.choice(["foo", "x", "b"])),
        # left out, as docs/bfq.md says: values fio reads wrapped around or in part and
        # kfsim refuses without saying so (rate=-1m, runtime=-1, rwmixread=50%, rw=randrw:0,
        # rw=randread:, rw=read,write, bsrange=4k:8k,:16k)
        lambda: ("size", rng.choice(["1.5m", "-1m", "99999999999999999999", "0x10000000",
                                     "8m8", "1 m"])),
        lambda: ("iodepth", rng.choice(["1.5", "-1", "0x10", "08", "2k", "1e2"])),
        lambda: ("runtime", rng.choice(["1.5s", "2 s", "10sec", "1h1m", "3d"])),
        lambda: ("rate", rng.choice(["1.5m", "1m,", ",", "1m,1m,1m"])),
        lambda: ("bsrange", rng.choice(["8k-4k", "4k-", "-4k", "4k-8k-16k"])),
        lambda: ("rwmixread", rng.choice(["0x32", "50.5", " 50"])),
        lambda: ("thinktime", rng.choice(["1.5ms", "10 ms", "1s500ms", "0"])),
        lambda: ("rw", rng.choice(["read:-4k", "read:4k:8k", "RandRead"])),
    ])()


def write_include(rng, base, k, lang_lines):
    """An include file next to @base; returns the name its include line uses."""
    inc = "%s-inc%d.fio" % (base, k)
    lines = []
    if rng.random() < 0.3:
        lines.append(rng.choice(["# an included file", "; options only", ""]))
    for o in valid_options(rng, []):
        lines.append(option_line(rng, *o))
    r = rng.random()
    if r < 0.08:
        lines.append("[no-sections-here]")  # fio: "No new sections in included files"
    elif r < 0.2 and k < 3:
        lines.append("include " + write_include(rng, base, k + 10, lang_lines))
    with open(inc, "w") as f:
        f.write("\n".join(lines) + "\n")
    # absolute or relative to the including file (fio looks in its working directory first:
    # the oracle runs it elsewhere)
    return inc if rng.random() < 0.5 else os.path.basename(inc)


def lang_noise(rng, lines, base):
    """Insert the language's corners into a generated file's @lines (headers at index 0+)."""
    out, k = [], 0
    for text in lines:
        header = text.startswith("[")
        if header and rng.random() < 0.04:
            # "[job]x": fio names the job "job]"; the others are "[job]" to fio
            text = rng.choice(["%sx", "%s ", "%s;c"]) % text[:text.index("]") + 1]
        out.append(text)
        if header:
            if rng.random() < 0.35:
                k += 1
                out.append(rng.choice(["include ", "include\t", "include  "]) +
                           write_include(rng, base, k, out) +
                           rng.choice(["", "", " # a comment"]))
            if rng.random() < 0.03:
                out.append("include %s-missing.fio" % os.path.basename(base))
            if rng.random() < 0.4:
                out.append(option_line(rng, *lang_option(rng)))
        elif rng.random() < 0.05:
            out.append(rng.choice(["\f", "   \t ", ";", "#", " ;;", "\v"]))
    return out


def generate(rng, lang=None, wide=False):
    """One job file's text; @lang: the file's path (its includes go next to it), for
    lang_noise(); @wide: sections draw wide_options() too."""
    lines = []
    names = []
    if rng.random() < 0.2:
        lines.append(rng.choice(["# generated by fio_jobgen.py", "; a job file", ""]))
    bad = rng.random() < 0.3  # a file with one to three problems
    nr_bad = rng.randint(1, 3) if bad else 0

    def section(name, opts):
        lines.append(rng.choice(["[%s]" % name, "[%s]" % name, "[%s] ; its header" % name]))
        for o in opts:
            lines.append(option_line(rng, *o))
        if rng.random() < 0.3:
            lines.append(rng.choice(["", "# between", "; between"]))

    # most files size their jobs: a file without size= takes the rest of the disk in kfsim
    # (fio wants size= to make a file), so only the last such file fits
    sized = rng.random() < 0.8
    if rng.random() < 0.8:
        section("global", valid_options(rng, []) + ([size_option(rng)] if sized else []))
    elif sized:
        section("global", [size_option(rng)])
    for i in range(rng.randint(1, 4)):
        name = rng.choice(["job", "seq-reader", "w", "rand.w", "j_%d" % i, "x%d" % i])
        if name in names:
            name = "%s%d" % (name, i)
        opts = valid_options(rng, names)
        if wide and rng.random() < 0.8:
            opts += wide_options(rng, names)
        if nr_bad and rng.random() < 0.6:
            opts.insert(rng.randrange(len(opts) + 1), invalid_option(rng))
            nr_bad -= 1
        if i == 1 and rng.random() < 0.15:
            section("global", valid_options(rng, []))  # new defaults for the jobs after it
        section(name, opts)
        names.append(name)
    if lang:
        lines = lang_noise(rng, lines, lang[:-len(".fio")])
    eol = "\r\n" if rng.random() < 0.05 else "\n"
    return eol.join(lines) + (eol if rng.random() < 0.9 else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kfsim")
    ap.add_argument("--seeds", default="1-300", help="A-B: one file per seed")
    ap.add_argument("--keep", help="write the files here (else a temporary directory)")
    ap.add_argument("--lang", action="store_true",
                    help="stress the job-file language too (lang_noise())")
    ap.add_argument("--wide", action="store_true",
                    help="jobs draw the options of wide_options() too")
    ap.add_argument("--min-agree", type=int, default=0)
    args = ap.parse_args()
    if not shutil.which("fio"):
        print("skipped: fio is not installed (Debian package fio), the referee")
        return 77
    lo, hi = (int(x) for x in args.seeds.split("-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("KFSIM_GEN_")}
    env.update(ENV)
    tmp = tempfile.mkdtemp()
    out = args.keep or tmp
    os.makedirs(out, exist_ok=True)
    files = []
    for seed in range(lo, hi + 1):
        path = os.path.join(out, "gen-%d.fio" % seed)
        with open(path, "w", newline="") as f:
            f.write(generate(random.Random(seed), path if args.lang else None, args.wide))
        files.append(path)
    print("generated %d job files (seeds %s%s%s) in %s; ${VAR}s: %s" %
          (len(files), args.seeds, ", --lang" if args.lang else "",
           ", --wide" if args.wide else "", out,
           " ".join("%s=%s" % kv for kv in sorted(ENV.items()))))
    try:
        results = fio_oracle.judge_all(args.kfsim, files, env, strict=True)
    finally:
        shutil.rmtree(tmp)
    return fio_oracle.summarize(results, len(files), args.min_agree, 0)


if __name__ == "__main__":
    sys.exit(main())
