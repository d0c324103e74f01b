#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Differential fuzzing of kfsim against the running kernel's BPF verifier.

Generated graph-kfunc programs (bpf_fuzz_gen.py) go a hundred to one BPF C file: one
kfsim-bpf-cc build (one clang -target bpf, one native gcc build) per file.  The built program,
run with --kernel, loads each program alone in the running kernel (libbpf, level-1 log: the
verdict and the first message) and runs it natively under kfsim (the verdict and the first
violation); this script compares the two, program by program:

  verdict    ACCEPT/REJECT the same (a native HANG, CRASH, SANITIZER or EXIT is never agreement)
  message    the same verdict and, for REJECT, the same message, character for character
             (leak reports: every line, ids and alloc_insn= included); for ACCEPT, the same
             return value (the kernel's BPF_PROG_TEST_RUN against the native run's)

A disagreement fails the run unless expected_differences lists its kind, with the owner and
the reason; each one is printed with the program and both outputs, and --reduce shrinks it
(bpf_fuzz_reduce.py) to a small program for the regression corpus (regressions.bpf.c, run by
--corpus against the kernel on every CI run).

  bpf_fuzz.py --bpf-cc build/kfsim-bpf-cc --count 800 --seed 1           # CI's batch
  bpf_fuzz.py --bpf-cc build/kfsim-bpf-cc --seconds 600 --seed 7 --reduce  # a longer hunt
  bpf_fuzz.py --bpf-cc build/kfsim-bpf-cc --corpus tests/bpfcc/fuzz/regressions.bpf.c

Exit status: 0 all agree or listed, 1 an unlisted disagreement, a crash, a hang or a build
failure, 2 bad usage, 77 the kernel cannot be asked (not root, no BTF, no clang with type tags).
"""
import argparse
import concurrent.futures
import os
import re
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bpf_fuzz_gen as gen  # noqa: E402

# clang 14 drops btf_type_tag: the kernel would see no __kptr field (toolchains.md)
CLANGS = ["clang-19", "clang-16"]
NOT_RUN = ("HANG", "CRASH", "SANITIZER", "EXIT", "ERROR")


def skip(why):
    print("skipped: " + why)
    sys.exit(77)


class Result:
    """One program's two verdicts, as the runner printed them."""

    def __init__(self, name):
        self.name = name
        self.kfsim = ""
        self.kernel = ""
        self.kfsim_msg = ""
        self.kernel_msg = ""
        self.kfsim_ret = None
        self.kernel_ret = None
        self.where = ""

    def verdict_agrees(self):
        return self.kfsim == self.kernel

    def message_agrees(self):
        if not self.verdict_agrees():
            return False
        if self.kernel == "REJECT":
            return self.kfsim_msg == self.kernel_msg
        return self.kfsim_ret == self.kernel_ret

    def broken(self):
        """The native run did not finish: a crash or a hang of kfsim's run."""
        return self.kfsim.split()[0] in NOT_RUN if self.kfsim else True

    def signature(self):
        """What a reduced program must keep: both verdicts, both messages with numbers aside."""
        def norm(m):
            return re.sub(r"[0-9]+", "N", m)
        return (self.kfsim, self.kernel, norm(self.kfsim_msg), norm(self.kernel_msg),
                self.kfsim_ret == self.kernel_ret, self.kfsim_msg == self.kernel_msg)


def parse_run(text):
    """The runner's report (src/bpfcc/runtime/bpfrt_main.c) as {name: Result}."""
    results, cur = {}, None
    head = re.compile(r"^(PASS|STATIC|FAIL|RAN)\s+(\S+)\s+kfsim (.*?)\s+kernel (\S+)\s*$")
    for line in text.splitlines():
        m = head.match(line)
        if m:
            cur = results[m.group(2)] = Result(m.group(2))
            cur.kfsim, cur.kernel = m.group(3), m.group(4)
            continue
        if not cur or not line.startswith("        "):
            cur = None if not line.startswith("        ") else cur
            continue
        label, _, rest = line.strip().partition(":")
        rest = rest.strip()
        if label == "kfsim":
            cur.kfsim_msg = rest
        elif label == "kernel":
            cur.kernel_msg = rest
        elif label == "at":
            cur.where = rest
        elif label == "retval":
            if rest.endswith("(the kernel's test run)"):
                cur.kernel_ret = int(rest.split()[0])
            else:
                cur.kfsim_ret = int(rest.split()[0])
    return results


SAME_BUT_IDS = "=same-but-ids"


def ids_aside(msg):
    return re.sub(r"id=[0-9]+", "id=N", msg)


def tags_of(text):
    """The generator's tags of each program in a BPF C file: {name: "tag tag"}."""
    return {m.group(2): m.group(1) for m in re.finditer(
        r"/\* tags: ([^*]*) \*/\nSEC\(\"tc\"\)\n(?:__.*\n)*int (\w+)\(", text)}


class Expected:
    """expected_differences: the kinds of disagreement that may stay, each with its owner."""

    def __init__(self, path):
        self.rows = []
        with open(path) as f:
            for nr, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                parts = [p.strip() for p in (" " + line + " ").split(" | ")]
                if len(parts) != 7:
                    sys.exit("%s:%d: expected 7 fields separated by ' | '" % (path, nr))
                kind, owner, kfsim, tags, kernel_re, kfsim_re, reason = parts
                self.rows.append({"kind": kind, "owner": owner, "kfsim": kfsim,
                                  "tags": re.compile(tags),
                                  "kernel": re.compile(kernel_re),
                                  "kfsim_msg": kfsim_re if kfsim_re == SAME_BUT_IDS
                                  else re.compile(kfsim_re), "reason": reason})

    def match(self, r, tags):
        for row in self.rows:
            if row["kfsim"] not in ("*", r.kfsim):
                continue
            if not row["tags"].search(tags):
                continue
            if not row["kernel"].search(r.kernel + ": " + r.kernel_msg):
                continue
            if row["kfsim_msg"] == SAME_BUT_IDS:
                if ids_aside(r.kfsim_msg) == ids_aside(r.kernel_msg):
                    return row
            elif row["kfsim_msg"].search(r.kfsim_msg):
                return row
        return None


class Toolchain:
    """kfsim-bpf-cc with a clang that emits BTF type tags first on PATH."""

    def __init__(self, bpf_cc, work, kver, timeout):
        self.bpf_cc = os.path.abspath(bpf_cc)
        self.kver = kver
        self.timeout = timeout
        clang = next((shutil.which(c) for c in CLANGS if shutil.which(c)), None)
        if not clang:
            skip("no clang-19 or clang-16 (Debian packages): clang 14 emits no BTF type tags")
        self.clang = clang
        self.bin = os.path.join(work, "bin")
        os.makedirs(self.bin, exist_ok=True)
        link = os.path.join(self.bin, "clang")
        if not os.path.lexists(link):
            os.symlink(clang, link)
        self.env = dict(os.environ, PATH=self.bin + ":" + os.environ["PATH"])

    def run_file(self, source, out):
        """Build @source into @out and run it with --kernel: ({name: Result}, error or None)."""
        b = subprocess.run([self.bpf_cc, "-o", out, source], env=self.env,
                           capture_output=True, text=True)
        if b.returncode:
            return {}, "build failed:\n" + (b.stdout + b.stderr)[-4000:]
        r = subprocess.run([out, "--kernel", "--kver", self.kver, "--timeout",
                            str(self.timeout)], env=self.env, capture_output=True, text=True)
        with open(out + ".run.txt", "w") as f:
            f.write(r.stdout + r.stderr)
        return parse_run(r.stdout), None


def render_file(seed, progs):
    return gen.prelude(seed) + "\n" + "\n".join(p.render() for p in progs)


def check_machine():
    if os.geteuid():
        skip("loading BPF programs in the kernel needs root")
    if not os.access("/sys/kernel/btf/vmlinux", os.R_OK):
        skip("the running kernel has no BTF (/sys/kernel/btf/vmlinux)")
    if not shutil.which("bpftool"):
        skip("bpftool is not installed")


def show(r, prog_text, row=None):
    print("--- %s: kfsim %s, kernel %s%s" % (r.name, r.kfsim, r.kernel,
                                             " (listed: %s, %s)" % (row["kind"], row["owner"])
                                             if row else ""))
    print("    kernel: %s" % (r.kernel_msg or "retval %s" % r.kernel_ret))
    print("    kfsim:  %s%s" % (r.kfsim_msg or "retval %s" % r.kfsim_ret,
                                " (at %s)" % r.where if r.where else ""))
    if prog_text and not row:
        for line in prog_text.splitlines():
            print("    | " + line)


class Tally:
    def __init__(self):
        self.nr = self.verdict = self.message = self.broken = 0
        self.both_reject = self.reject_msg = 0
        self.kinds = {}
        self.unlisted = []

    def add(self, r, row):
        self.nr += 1
        self.verdict += r.verdict_agrees()
        self.message += r.message_agrees()
        self.broken += r.broken()
        if r.kfsim == "REJECT" and r.kernel == "REJECT":
            self.both_reject += 1
            self.reject_msg += r.kfsim_msg == r.kernel_msg
        if not r.message_agrees():
            key = (row["kind"], row["owner"]) if row else ("UNLISTED", "-")
            self.kinds[key] = self.kinds.get(key, 0) + 1

    def report(self, what):
        pct = (lambda a, b: 100.0 * a / b if b else 100.0)
        print()
        print("%s: %d programs compared with the running kernel's verifier (%s)" %
              (what, self.nr, os.uname().release))
        print("  verdict agrees:        %d/%d (%.2f %%)" % (self.verdict, self.nr,
                                                         pct(self.verdict, self.nr)))
        print("  first message agrees:  %d/%d (%.2f %%)  [same verdict, and the same message "
              "(REJECT) or return value (ACCEPT)]" % (self.message, self.nr,
                                                     pct(self.message, self.nr)))
        print("  both reject, same message: %d/%d" % (self.reject_msg, self.both_reject))
        print("  native runs that crashed or hung: %d" % self.broken)
        for (kind, owner), n in sorted(self.kinds.items(), key=lambda x: -x[1]):
            print("  disagree %5d  %s (%s)" % (n, kind, owner))


def fuzz(args, tc, expected):
    """Batches of generated programs until --count or --seconds is reached."""
    tally = Tally()
    start = time.time()
    batch_nr, done = 0, 0
    failures = []
    to_reduce = []
    reduced_kinds = set()

    def batches():
        nonlocal batch_nr, done
        while True:
            if args.seconds and time.time() - start > args.seconds:
                return
            if not args.seconds and done >= args.count:
                return
            n = args.batch if args.seconds else min(args.batch, args.count - done)
            g = gen.Generator(args.seed * 100003 + batch_nr, can_loop=args.can_loop,
                              misuse=args.misuse)
            progs = [g.program("fz%d_%d_%d" % (args.seed, batch_nr, i)) for i in range(n)]
            yield batch_nr, progs
            batch_nr += 1
            done += n

    def one(item):
        nr, progs = item
        src = os.path.join(args.out, "batch%d.bpf.c" % nr)
        text = render_file(args.seed, progs)
        if args.again:  # the programs are the seed's: judge the outputs kept from a run
            if open(src).read() != text:
                return nr, progs, {}, "%s is not what seed %d gives" % (src, args.seed)
            return nr, progs, parse_run(open(os.path.join(args.out, "batch%d.run.txt" % nr))
                                        .read()), None
        with open(src, "w") as f:
            f.write(text)
        res, err = tc.run_file(src, os.path.join(args.out, "batch%d" % nr))
        return nr, progs, res, err

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        it = batches()
        pending = set()
        while True:
            while len(pending) < args.jobs:
                item = next(it, None)
                if item is None:
                    break
                pending.add(pool.submit(one, item))
            if not pending:
                break
            finished, pending = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in finished:
                nr, progs, res, err = fut.result()
                if err:
                    failures.append("batch %d: %s" % (nr, err))
                    print("batch %d: %s" % (nr, err))
                    continue
                for p in progs:
                    r = res.get(p.name)
                    if not r:
                        failures.append("%s: no result (the runner stopped?)" % p.name)
                        continue
                    tags = " ".join(p.tags) or "valid"
                    row = None if r.message_agrees() else expected.match(r, tags)
                    tally.add(r, row)
                    if r.message_agrees():
                        continue
                    if not row or r.broken():
                        tally.unlisted.append(r.name)
                        show(r, p.render())
                    elif args.verbose:
                        show(r, p.render(), row)
                    # unlisted ones all; listed ones (--reduce-all) one of each kind
                    if args.reduce and not row:
                        to_reduce.append((p, r))
                    elif args.reduce_all and row and row["kind"] not in reduced_kinds:
                        reduced_kinds.add(row["kind"])
                        to_reduce.append((p, r))
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    tally.report("seed %d, %d batches of up to %d, %.0f s (%.0f s of CPU in the builds and runs)"
                 % (args.seed, batch_nr, args.batch, time.time() - start,
                    cpu.ru_utime + cpu.ru_stime))
    if to_reduce and not failures:
        import bpf_fuzz_reduce
        bpf_fuzz_reduce.reduce_all(to_reduce, tc, args)
    for f in failures:
        print("FAILED: " + f)
    bad = failures or tally.unlisted or tally.broken
    return 1 if bad else 0


def corpus(args, tc, expected):
    """The regression programs: each one's annotation is the kernel's verdict when it was kept."""
    res, err = tc.run_file(args.corpus, os.path.join(args.out, "regressions"))
    if err:
        print(err)
        return 1
    tally, status = Tally(), 0
    text = open(os.path.join(args.out, "regressions.run.txt")).read()
    tags = tags_of(open(args.corpus).read())
    for name, r in sorted(res.items()):
        judged = re.search(r"^(PASS|FAIL)\s+%s\s" % re.escape(name), text, re.M)
        row = None if r.message_agrees() else expected.match(r, tags.get(name, ""))
        tally.add(r, row)
        state = "agree" if r.message_agrees() else "listed (%s, %s)" % (
            row["kind"], row["owner"]) if row else "DISAGREE"
        print("%-9s %-40s kernel %s%s" % (state.split()[0], name, r.kernel,
                                          ": " + r.kernel_msg if r.kernel_msg else ""))
        if state == "DISAGREE" or r.broken():
            show(r, None)
            status = 1
        # the kernel must still say what the program's annotation recorded
        if judged and judged.group(1) == "FAIL" and r.message_agrees():
            print("          the kernel no longer says what the annotation recorded")
            status = 1
    tally.report("regression corpus %s" % os.path.relpath(args.corpus))
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bpf-cc", required=True, help="kfsim-bpf-cc to build with")
    ap.add_argument("--out", default="/tmp/kfsim-bpf-fuzz", help="work directory")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=2000, help="programs (without --seconds)")
    ap.add_argument("--seconds", type=int, default=0, help="run batches until this many seconds")
    ap.add_argument("--batch", type=int, default=100, help="programs per BPF object")
    ap.add_argument("--jobs", type=int, default=2, help="batches built and run at once")
    ap.add_argument("--kver", default="6.18",
                    help="the release whose rules kfsim follows (the running kernel's)")
    ap.add_argument("--timeout", type=int, default=5, help="seconds one native run may take")
    ap.add_argument("--can-loop", action="store_true", help="also generate can_loop loops")
    ap.add_argument("--misuse", type=float, default=0.08,
                    help="the chance that one step is a misuse (a hunt for rules: 0.3)")
    ap.add_argument("--reduce", action="store_true", help="shrink unlisted disagreements")
    ap.add_argument("--reduce-all", action="store_true",
                    help="also shrink one listed disagreement of each kind")
    ap.add_argument("--reduce-rounds", type=int, default=30,
                    help="builds the reduction may take (each shrinks every program once)")
    ap.add_argument("--save", help="append each reduced program to this regression file")
    ap.add_argument("--again", action="store_true",
                    help="judge (and reduce) the outputs a run with this --out, --seed, "
                         "--count and --batch kept, instead of running the programs again")
    ap.add_argument("--expected", default=os.path.join(HERE, "expected_differences"))
    ap.add_argument("--corpus", help="run this regression file instead of generating")
    ap.add_argument("-v", "--verbose", action="store_true", help="print listed ones too")
    args = ap.parse_args()
    if args.count < 1 or args.batch < 1 or args.jobs < 1 or args.seconds < 0:
        ap.error("--count, --batch and --jobs take a positive number")
    if not 0 <= args.misuse <= 1:
        ap.error("--misuse takes a chance between 0 and 1")
    check_machine()
    os.makedirs(args.out, exist_ok=True)
    tc = Toolchain(args.bpf_cc, args.out, args.kver, args.timeout)
    expected = Expected(args.expected)
    print("kfsim-bpf-cc %s; kernel %s; %s; kfsim rules of %s" % (
        args.bpf_cc, os.uname().release, subprocess.run(
            [tc.clang, "--version"], capture_output=True, text=True).stdout.splitlines()[0],
        args.kver))
    sys.exit(corpus(args, tc, expected) if args.corpus else fuzz(args, tc, expected))


if __name__ == "__main__":
    main()
