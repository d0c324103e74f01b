#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Job files users get wrong, judged by fio's own parser and by kfsim's rules for bad input.

fio_jobgen.py writes job files that are mostly right.  This takes right ones (fio_jobgen's,
and those of fio's examples that fio here reads) and breaks them from a seed, one to four
mutations a file (MUTATIONS): unknown options, values that are negative, 2^64, 0, empty,
half a range ("1k-"), a percentage where none is allowed, bad bssplit and rate lists, a
missing '=', odd section names, a section twice, options before any section, [global] twice,
an include of a missing file, $keywords and ${VAR}s, binary garbage, a NUL byte, very long
lines, CRLF, no last newline, an empty file, a huge numjobs, odd values of the options that
change nothing here (m_no_effect: flags, limits, lists of choices, engines' options).

The referee is `fio --debug=parse --parse-only` on the same file, through fio_oracle.judge()
in strict mode: a file fio rejects kfsim must refuse, naming every line fio rejects (with
them removed fio reads the file); a file fio reads kfsim reads alike, or refuses for a reason
docs/bfq.md lists.  And for every refusal, kfsim's rules for bad input (CONTRIBUTING.md):

  - exit 2, nothing on stdout, every stderr line "kfsim bfq: FILE:LINE: ..." (or a whole-file
    problem without a line), no sanitizer report, no hang;
  - every problem at once: each mutated line fio rejects is named in the one run;
  - the option fio names ("Bad option <x=...>", "failed parsing x=...") is named by kfsim too;
  - no output file (--trace, --svg) is left behind by a refused file.

kfsim may be stricter than fio where fio reads a bad value by wrapping or ignoring it; those
refusals are allowed only for the mutations in STRICTER, each with its reason, and only when
they name the mutated line.

Usage: fio_badgen.py KFSIM [--seeds A-B] [--keep DIR]
Exit 0 when every file is judged right; 1 otherwise; 77 when fio is absent.
"""
import argparse
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import concurrent.futures

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fio_jobgen  # noqa: E402  (the right files this breaks)
import fio_oracle  # noqa: E402  (the referee)

# options whose value a mutation replaces; the values users get wrong
VALUE_OPTIONS = ["bs", "size", "iodepth", "numjobs", "rate", "rate_iops", "rwmixread",
                 "runtime", "thinktime", "offset", "bsrange", "percentage_random",
                 "startdelay", "number_ios", "io_size", "prio"]
BAD_VALUES = ["-4k", "-1", "18446744073709551616", "99999999999999999999999", "0", "",
              "1k-", "-", "50%", "4q", "abc", "4k,", ",,", "0x", "1e3", "4k 8k", "\t",
              "4294967296", "9223372036854775808", "${KFSIM_GEN_UNSET}", "$mb_memory",
              "$pagesize", "$ncpus", "$nosuchkeyword", "4k#", "1..2", "+4k"]
BAD_BSSPLIT = ["4k/50:8k/60", "4k/abc", "4k/-10:8k/110", "/50", "4k//50", "4k/50:", ":",
               "4k/101", "0/100", "4k/50:8k/50,16k/", "4k/50:8k"]
BAD_RATE = ["1m,,", "1m,2m,3m,4m", "-1m", "abc", "1m:2m", ",", "1m,abc", "0x", "1k-2k"]
SECTION_NAMES = ["", " ", "a b", "job]x", "[job", "ünïcode", "x" * 300, "global ", "GLOBAL",
                 "client", "job\x01", "$ncpus", "${KFSIM_GEN_UNSET}", "#job", ";job"]
KEYWORD_LINES = ["numjobs=$ncpus", "size=$mb_memory", "bs=$pagesize", "$ncpus",
                 "bs=$pagesize*2", "iodepth=$ncpus+1", "size=${KFSIM_GEN_SIZE}",
                 "${KFSIM_GEN_UNSET}", "${KFSIM_GEN_OPT}", "$", "${", "${}", "bs=${KFSIM_GEN_BS"]


def headers(lines):
    return [i for i, (t, _) in enumerate(lines) if t.lstrip().startswith("[")]


def option_indices(lines):
    return [i for i, (t, _) in enumerate(lines)
            if re.match(r"\s*[A-Za-z_]\w*\s*=", t) and not t.lstrip().startswith("[")]


def put(rng, lines, text, kind):
    """Insert @text after a random header (inside some section)."""
    hs = headers(lines)
    at = rng.choice(hs) + 1 if hs else len(lines)
    lines.insert(at, [text, kind])


def m_unknown(rng, lines):
    put(rng, lines, rng.choice(["frobnicate=3", "bss=4k", "iodepht=8", "Bs=4k", "rw_mix=50",
                                "x=", "kb_base=999", "ioengine=nosuch", "rw=sideways"]),
        "unknown")


def m_value(rng, lines):
    opts = option_indices(lines)
    value = rng.choice(BAD_VALUES)
    if opts and rng.random() < 0.5:
        i = rng.choice(opts)
        key = lines[i][0].split("=", 1)[0]
        lines[i] = ["%s=%s" % (key, value), "value"]
    else:
        put(rng, lines, "%s=%s" % (rng.choice(VALUE_OPTIONS), value), "value")


# options that change nothing kfsim simulates, fio's own and its engines', with values fio
# takes or rejects by their type (check_int() flags, INT limits, lists of choices, lists
# split at ',' ':' '-'): kfsim checks them as fio does (fio_no_effect_checks[])
NO_EFFECT_OPTIONS = ["invalidate", "overwrite", "thread", "group_reporting", "nice",
                     "significant_figures", "buffer_compress_percentage", "verify_interval",
                     "log_compression", "fallocate", "file_service_type", "lockfile",
                     "unified_rw_reporting", "mem", "random_generator", "percentile_list",
                     "port", "protocol", "hipri", "sqthread_poll", "cpumode", "direct",
                     "time_based", "end_fsync"]
NO_EFFECT_VALUES = ["abc", "2", "-1", "1k", "70000", "abc,1", "0-1", "1:abc", "2,1", "0x1",
                    "1x", "50:-1", "keep", "KEEP", "roundrobin:2", "pareto:2", "zipf:1.5",
                    "mixed", "mmaphuge:/x", "lfsr", "tcp", "noop", "exclusive", "99.5:50"]


def m_no_effect(rng, lines):
    put(rng, lines, "%s=%s" % (rng.choice(NO_EFFECT_OPTIONS), rng.choice(NO_EFFECT_VALUES)),
        "no_effect")


def m_bssplit(rng, lines):
    put(rng, lines, "bssplit=" + rng.choice(BAD_BSSPLIT), "bssplit")


def m_rate(rng, lines):
    put(rng, lines, rng.choice(["rate", "rate_iops", "rate_min"]) + "=" +
        rng.choice(BAD_RATE), "rate")


def m_no_equals(rng, lines):
    opts = option_indices(lines)
    if opts:
        i = rng.choice(opts)
        key, _, value = lines[i][0].partition("=")
        lines[i] = [key.rstrip() + rng.choice([" ", "", "\t", ":"]) + value.lstrip(), "noeq"]
    else:
        put(rng, lines, "iodepth 4", "noeq")


def m_section_name(rng, lines):
    name = rng.choice(SECTION_NAMES)
    lines.insert(rng.randint(0, len(lines)), ["[%s]" % name, "section"])
    if rng.random() < 0.7:
        lines.insert(lines.index(["[%s]" % name, "section"]) + 1, ["rw=read", "section"])


def m_duplicate(rng, lines):
    hs = [i for i in headers(lines) if "global" not in lines[i][0]]
    if not hs:
        return m_section_name(rng, lines)
    i = rng.choice(hs)
    lines.append([lines[i][0].split(";")[0].split("#")[0].strip(), "duplicate"])
    lines.append(["bs=8k", "duplicate"])


def m_before_section(rng, lines):
    lines.insert(0, [rng.choice(["bs=4k", "rw=read", "frobnicate=1", "iodepth"]), "before"])


def m_global_twice(rng, lines):
    at = rng.randint(0, len(lines))
    lines[at:at] = [["[global]", "global2"], [rng.choice(["bs=64k", "bs=abc", "iodepth=-1",
                                                          "rw=read"]), "global2"]]


def m_include_missing(rng, lines):
    put(rng, lines, rng.choice(["include /nonexistent/kfsim-missing.fio",
                                "include missing-%d.fio" % rng.randint(0, 99), "include",
                                "include  ", "include /", "include /dev/null"]),
        "include")


def m_keyword(rng, lines):
    put(rng, lines, rng.choice(KEYWORD_LINES), "keyword")


def m_garbage(rng, lines):
    nbytes = rng.randint(1, 40)
    junk = bytes(rng.randrange(256) for _ in range(nbytes)).replace(b"\n", b"?")
    put(rng, lines, junk.decode("latin-1"), "garbage")


def m_nul(rng, lines):
    opts = option_indices(lines)
    if opts:
        i = rng.choice(opts)
        t = lines[i][0]
        cut = rng.randint(0, len(t))
        lines[i] = [t[:cut] + "\0" + t[cut:], "nul"]


def m_long_line(rng, lines):
    n = rng.choice([200, 4095, 8190, 8191, 8192, 9000, 70000])
    put(rng, lines, rng.choice(["description=" + "d" * n, "bs=" + "9" * n, "x" * n,
                                "# " + "c" * n, "filename=" + "f" * n]), "long")


def m_numjobs(rng, lines):
    put(rng, lines, "numjobs=" + rng.choice(["129", "1000", "100000", "4294967296",
                                             "18446744073709551615", "1m"]), "numjobs")


def m_many(rng, lines):
    """Several bad lines in one section: all must be named at once."""
    for _ in range(rng.randint(2, 5)):
        rng.choice([m_unknown, m_value, m_bssplit, m_rate])(rng, lines)


MUTATIONS = [m_unknown, m_value, m_value, m_bssplit, m_rate, m_no_equals, m_section_name,
             m_duplicate, m_before_section, m_global_twice, m_include_missing, m_keyword,
             m_garbage, m_nul, m_long_line, m_numjobs, m_many, m_many, m_no_effect]

# Where kfsim refuses what fio reads, on purpose (docs/bfq.md "Refused, with the reason"):
# a regex on kfsim's message line, and the reason.  Only for a line a mutation made.
# kfsim refuses an engine's option where the section's engine lacks it, as fio 3.33 does
# (fio_engine_option_owners[]); this stays for engines kfsim does not judge (external:...).
ENGINE_DIFFERENCE = "an engine's option in a job without that engine"

STRICTER = [
    (r"not '-", "fio reads a negative number as a huge unsigned one (wrapped round)"),
    (r"not '\d{20}", "fio's strtoull() saturates a number beyond 2^64 - 1"),
    (r"not '[^']*\$", "$keywords: fio hands arithmetic to bc(1), and keeps an unknown one "
     "as written"),
    (r"not '[^',]*\d%'", "fio reads a percentage where none goes (rate=50%) as 2^64 - 1 - N, "
     "a number wrapped round"),
    (r"not '\d{10,}'", "fio keeps a number past 2^32 - 1 of a 32-bit int option truncated "
     "(prio=4294967296 is 0 to its range check): a number wrapped round"),
    (r": bssplit: expected", "fio 3.33 reads (and runs) a bssplit whose one entry without "
     "a percent gets 100 less the others' sum, wrapped round past 100, or with a 0 block "
     "size: no documented meaning (sums other than 100, percents over 100 or no number, "
     "an empty entry are read as fio reads them since 2026-12-08)"),
]


def mutate(rng, text):
    """@text broken by one to four mutations: (file bytes, the kinds applied, the lines)."""
    lines = [[t, None] for t in text.splitlines()]
    kinds = []
    r = rng.random()
    if r < 0.03:
        return b"", ["empty"], []
    if r < 0.05:
        return rng.choice([b"\n\n  \n", b"# only a comment", b"\xff\xfe\x00\x01",
                           b"[global]\nbs=4k\n"]), ["nojob"], []
    for _ in range(rng.randint(1, 4)):
        m = rng.choice(MUTATIONS)
        m(rng, lines)
        kinds.append(m.__name__[2:])
    eol = "\r\n" if rng.random() < 0.1 else "\n"
    body = eol.join(t for t, _ in lines) + (eol if rng.random() < 0.8 else "")
    return body.encode("latin-1", "replace"), kinds, lines


def example_bases(env):
    """fio's examples that fio here reads (every engine present): the right ones to break."""
    files = sorted(glob.glob("/usr/share/doc/fio/examples/*.fio"))
    if not files:
        return []
    read = fio_read_each(files, env)
    texts = []
    for f in files:
        if read[f][0] == 0 and read[f][1]:
            with open(f, encoding="latin-1") as fh:
                texts.append((os.path.basename(f), fh.read()))
    return texts


def fio_option_names(fio_text):
    """The options fio names in its complaints."""
    names = set()
    for pat in (r"Bad option <([^=>\s]+)", r"failed parsing ([^=\s]+)=",
                r"Option ([^\s]+) requires an argument"):
        names |= {m.lower() for m in re.findall(pat, fio_text)}
    # the names an option can have: garbage and ${VAR}s fio prints as written
    return {n for n in names if re.fullmatch(r"[a-z_][a-z0-9_\-]{0,63}", n)}


def kfsim_rules(kfsim, path, env, tmp):
    """kfsim's rules for bad input on one file: (exit status, stderr, [broken rules])."""
    out = os.path.join(tmp, os.path.basename(path) + ".out")
    os.makedirs(out, exist_ok=True)
    trace, svg = os.path.join(out, "t.json"), os.path.join(out, "p.svg")
    try:
        run = subprocess.run([kfsim, "bfq", "sim", "--fio", path, "--duration", "20ms",
                              "--quiet", "--force", "--trace", trace, "--svg", svg],
                             capture_output=True, env=env, timeout=60, cwd=out)
    except subprocess.TimeoutExpired:
        return None, "", ["HANG: no end in 60 s"]
    err = run.stderr.decode("utf-8", "replace")
    broken = []
    if re.search(r"AddressSanitizer|LeakSanitizer|runtime error:|Segmentation", err):
        broken.append("sanitizer: " + err[:300])
    if run.returncode not in (0, 2):
        broken.append("exit %d" % run.returncode)
    if run.returncode == 2:
        if run.stdout:
            broken.append("output on stdout with a refusal")
        left = [n for n in ("t.json", "p.svg") if os.path.exists(os.path.join(out, n))]
        if left:
            broken.append("refused, but left output files %s" % left)
        for line in err.splitlines():
            if not line.startswith("kfsim bfq: "):
                broken.append("not a kfsim line: %r" % line[:120])
            elif not re.match(r"kfsim bfq: (.+?:\d+: |.+?: (no job section|cannot open)|"
                              r"and \d+ more problem)", line):
                broken.append("no FILE:LINE: %r" % line[:160])
    shutil.rmtree(out, ignore_errors=True)
    return run.returncode, err, broken


def named_lines(path, err):
    return {int(n) for n in re.findall(re.escape(path) + r":(\d+): ", err)}


def check_one(kfsim, path, kinds, lines, fio, env, tmp):
    """One file: (verdict, cause, the line to print, the trimmed file for fio or None,
    kfsim's stderr)."""
    name = os.path.basename(path)
    rc, err, broken = kfsim_rules(kfsim, path, env, tmp)
    if fio[0] < 0 and not broken:
        # fio 3.33 dies on some files (an include of an empty file: a double free): no
        # referee, kfsim's own rules only
        return "fio crashed", "fio crashed", "%-20s %s: fio died (signal %d); kfsim exit %d" % (
            name, "+".join(kinds), -fio[0], rc), None, err
    if broken:
        return "failed", "rules", "%-20s %s: %s" % (name, "+".join(kinds), "; ".join(
            broken[:3])), None, err
    verdict, line, trimmed = fio_oracle.judge_timed(kfsim, path, env, tmp, True, fio)
    cause = verdict
    if rc == 2 and not fio[1] and re.fullmatch(r"kfsim bfq: .*: no job section\n?", err):
        # no job at all (empty, comments, [global] only): fio reads it and runs nothing,
        # its run fails ("No job(s) defined"); kfsim says so (fio_oracle.DOCUMENTED_REFUSALS)
        verdict = cause = "refused"
        line = line.replace("no FILE:LINE in the refusal", "no job: documented")
    if rc == 2:
        mutated = {n + 1 for n, (_, k) in enumerate(lines) if k}
        missing = fio_option_names(fio[2]) - {"fio"}
        missing = [o for o in missing if o not in err.lower()]
        # an option fio names is one the file has (not the rest of a line fio split)
        missing = [o for o in missing if re.search(r"^\s*%s\s*(=|$)" % re.escape(o),
                                                   open(path, encoding="latin-1").read(),
                                                   re.M | re.I)]
        missing = [o for o in missing if o not in ENGINE_OPTIONS]  # ENGINE_DIFFERENCE
        if fio[0] != 0 and missing:
            return "failed", "option", "%-20s %s: fio names %s, kfsim does not: %s" % (
                name, "+".join(kinds), missing, err.strip()[:200]), None, err
        if verdict == "failed" and "no documented reason" in line:
            # kfsim stricter than fio: allowed on a mutated line for a listed reason only
            undoc = fio_oracle.undocumented(err)
            ok = all(any(re.search(p, u) for p, _ in STRICTER) and
                     named_lines(path, u) <= mutated and named_lines(path, u)
                     for u in undoc)
            if ok:
                return "stricter", "stricter", "%-20s %s: stricter than fio: %s" % (
                    name, "+".join(kinds), undoc[0][:160]), None, err
            if re.search(r":\d+: include: cannot open '[^']*': Is a directory", err):
                # fio 3.33 reads nothing after an include of a directory it survives: what
                # it did not read it cannot judge
                return "stricter", "stricter", "%-20s %s: fio stops at an include of a " \
                    "directory: %s" % (name, "+".join(kinds), undoc[0][:160]), None, err
            cause = "undocumented refusal"
    elif verdict == "failed" and "kfsim reads it" in line and engine_orphans(fio[2]):
        verdict = cause = "engine option"
    elif verdict == "failed":
        cause = "accepts bad" if "kfsim reads it" in line else "reading differs"
    return verdict, cause, "%-20s %s: %s" % (name, "+".join(kinds), line.split(None, 1)[1]
                                             if " " in line else line), trimmed, err


def fio_read_each(files, env):
    """fio's reading of each file, one fio a file: fio sleeps most of its start (some 0.8 s,
    little CPU), so many run side by side, and a file fio dies on takes no other with it."""
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        reads = pool.map(lambda f: fio_oracle.fio_read_many([f], env), files)
        return {k: v for read in reads for k, v in read.items()}


def engine_options():
    """fio's engines' options, from kfsim's list of fio's option names."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "bfq",
                       "fio_option_names.c")
    with open(src) as f:
        text = f.read()
    table = text[text.index("fio_engine_options[]"):]
    return set(re.findall(r'"([^"]+)"', table[:table.index("};")]))


ENGINE_OPTIONS = engine_options()


def engine_orphans(fio_text):
    """Whether fio's complaints are all about options of an engine the job does not load
    (kfsim takes them under any engine: they change nothing here; see ENGINE_DIFFERENCE)."""
    bad = fio_oracle.fio_complaints(fio_text)
    return bad and all(re.match(r"Bad option <([^=>]+)", b) and
                       re.match(r"Bad option <([^=>]+)", b).group(1) in ENGINE_OPTIONS
                       for b in bad)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kfsim")
    ap.add_argument("--seeds", default="1-200", help="A-B: one file per seed")
    ap.add_argument("--keep", help="write the files here (else a temporary directory)")
    args = ap.parse_args()
    if not shutil.which("fio"):
        print("skipped: fio is not installed (Debian package fio), the referee")
        return 77
    lo, hi = (int(x) for x in args.seeds.split("-"))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("KFSIM_GEN_", "FIO_", "S3_", "SWIFT_"))}
    env.update(fio_jobgen.ENV)
    examples = example_bases(env)
    tmp = tempfile.mkdtemp()
    # the files apart from tmp, where the referee writes its copies under the same names
    out = args.keep or os.path.join(tmp, "files")
    os.makedirs(out, exist_ok=True)
    files, meta = [], {}
    for seed in range(lo, hi + 1):
        rng = random.Random(seed)
        if examples and rng.random() < 0.4:
            base, text = rng.choice(examples)
        else:
            base, text = "jobgen", fio_jobgen.generate(random.Random(seed + 100000))
        data, kinds, lines = mutate(rng, text)
        path = os.path.join(out, "bad-%d.fio" % seed)
        with open(path, "wb") as f:
            f.write(data)
        files.append(path)
        meta[path] = (kinds, lines, base)
    print("referee: %s --debug=parse --parse-only; %d broken job files (seeds %s) from "
          "fio_jobgen and %d of fio's examples, in %s" % (
              shutil.which("fio"), len(files), args.seeds, len(examples), out))
    results = []
    try:
        fio = fio_read_each(files, env)
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            judged = list(pool.map(lambda p: check_one(args.kfsim, p, meta[p][0], meta[p][1],
                                                       fio[p], env, tmp), files))
        fio.update(fio_read_each([j[3] for j in judged if j[3]], env))
        for path, (verdict, cause, line, t, err) in zip(files, judged):
            if t and fio[t][0] != 0 and engine_orphans(fio[t][2]):
                verdict = "engine option"
                line += " -- and fio rejects an engine's option of a job without that " \
                    "engine, which kfsim reads (ENGINE_DIFFERENCE)"
            elif t and fio[t][0] < 0:
                line += " (fio died on the file without the lines named: not judged)"
            elif t and fio[t][0] != 0:
                verdict, cause = "failed", "not every line named"
                line += " -- but kfsim did not name what fio rejects: " + "; ".join(
                    fio_oracle.fio_complaints(fio[t][2]) or ["fio exit %d" % fio[t][0]])
            fio_says = "rejects" if fio[path][0] else "reads"
            print("%s%s [fio %s, base %s]" % ("FAILED " if verdict == "failed" else "", line,
                                             fio_says, meta[path][2]))
            results.append((verdict, cause, fio[path][0] != 0))
    finally:
        shutil.rmtree(tmp)
    count = {}
    for v, c, _ in results:
        count[c if v == "failed" else v] = count.get(c if v == "failed" else v, 0) + 1
    print("%d files (fio rejects %d): %s" % (len(results), sum(r for _, _, r in results),
                                            ", ".join("%s %d" % kv for kv in sorted(
                                                count.items()))))
    return 1 if any(v == "failed" for v, _, _ in results) else 0


if __name__ == "__main__":
    sys.exit(main())
