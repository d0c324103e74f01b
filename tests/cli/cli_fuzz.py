#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A seeded command-line fuzzer for kfsim, kfsim-bpf-cc and kfsim-ynl-gen.

Every command, subcommand and option is read from the programs' own --help, so a new option is
fuzzed without touching this file.  Each random command line is run with a timeout in a fresh
scratch directory, and the project's command-line rule (docs/cli.md) is checked:

  - never a signal, a sanitizer report or a timeout;
  - exit status 0, 1 or 2 (ethtool's documented 76 aside);
  - exit 2 (a bad command line): exactly one line on stderr, nothing on stdout (with --json:
    one JSON document holding "error"), and no file created or changed in the working
    directory (a pre-existing output file keeps its bytes);
  - exit 1: a message on stderr (a silent failure cannot be told from success by a user).

Not fuzzed, and why: 'kfsim exec' runs real programs and 'kfsim kernel' serves a socket (both
reach beyond the process); 'kfsim tour' runs every part for seconds; '--kernel' and '--server'
talk to the real machine's netlink, and '--force' lifts the simulation budget.  'plca' and
'bfq' lines get '--duration 1ms' first so a well-formed line does not run a long simulation.

Usage: cli_fuzz.py BUILD_DIR [--seed S] [--count N] [--timeout SEC] [--jobs N] [-v]
Exit status 0 when every line kept the rule, 1 otherwise (each violation printed with the
command line that shows it, in a form a shell can paste).
"""
import argparse
import concurrent.futures
import json
import os
import queue
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SKIPPED_COMMANDS = {"exec", "kernel", "tour"}
SKIPPED_OPTIONS = {"--kernel", "--server", "--force", "--help", "--version", "--server-owner"}
SIM_COMMANDS = {"plca", "bfq"}
SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer",
                   "runtime error:")

# An option line of a --help: "  -I, --include DIR     text" or "  --json     text".
OPTION_LINE = re.compile(r"^  (?:(-[A-Za-z0-9]), )?(--[a-z0-9][a-z0-9-]*)(?: ([^ ]+))?(?:  |$)")
SUBCOMMAND_LINE = re.compile(r"^  ([a-z][a-z0-9-]*)  +\S")


def help_text(argv):
    res = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL, errors="replace")
    return res.stdout


def parse_help(text):
    """Options (name, short, metavar or None) and subcommands of one --help page."""
    options, subcommands, section = [], [], ""
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.rstrip(":").strip().lower()
            continue
        m = OPTION_LINE.match(line)
        if m:
            options.append((m.group(2), m.group(1), m.group(3)))
            continue
        m = SUBCOMMAND_LINE.match(line)
        if m and section in ("subcommands", "commands"):
            subcommands.append(m.group(1))
    return options, subcommands


def discover(build):
    """The programs to fuzz: a list of (argv prefix, options, subcommands, command name)."""
    kfsim = os.path.join(build, "kfsim")
    targets = []
    global_opts, commands = parse_help(help_text([kfsim]))
    for cmd in commands:
        if cmd in SKIPPED_COMMANDS:
            continue
        opts, subs = parse_help(help_text([kfsim, cmd]))
        targets.append(([kfsim], cmd, opts, subs, global_opts))
    for prog in ("kfsim-bpf-cc", "kfsim-ynl-gen"):
        path = os.path.join(build, prog)
        opts, _ = parse_help(help_text([path]))
        targets.append(([path], None, opts, [], []))
    return targets


def weird_values(rng, scratch):
    """One value for an option or a positional argument, from the kinds that break parsers."""
    pool = [
        "", " ", "0", "1", "-1", "2", "7", "64", "255", "256", "65536", "0x10", "0x", "0X1f",
        "010", "1k", "4k", "1m", "1g", "1e9", "1e-9", "5s", "1ms", "2us", "250ns", "1.5s",
        "18446744073709551616", "18446744073709551615", "9223372036854775807",
        "-9223372036854775808", "4294967296", "99999999999999999999999999", "nan", "inf",
        "-inf", "1.5", "+1", " 1", "1 ", "1x", "\t", "\u00e9t\u00e9", "\u202e", "a\nb",
        "\x1b[31mred", "\x01\x7f", "%s%s%n", "-", "--", "-h", "--help", "1,2,3", ",", "1,,2",
        "a=b", "=", "0/2", "1/0", "3/2", "0-0", "1-", "poisson:", "poisson:1e30",
        "periodic:0", "zipf:", "on", "off", "all", "uapi", "dual", "bfq", "plca", "csma",
        "rw=read", "rw=randread,bs=4k,iodepth=4", "bs=0", "iodepth=0", "name=",
        "A" * 65536, "/", scratch, "/dev/full", "/dev/null",
        # a path whose folder is missing, inside the scratch folder: a command that makes its
        # output's folders (playground --out) must not make them on the machine itself
        os.path.join(scratch, "missing", "kfsim-fuzz"),
        "nonexistent.c", "out.svg", "existing.out", "dir.d", "dir.d/", "builtin",
        "plca-rt", "eth0", "ethtool", "nlctrl", "fifo.p", "fifo.p",
    ]
    return rng.choice(pool)


def option_tokens(rng, opt, scratch):
    """One option of the table, in a random spelling and with a random (or missing) value."""
    name, short, metavar = opt
    value = weird_values(rng, scratch)
    spell = name
    if short and rng.random() < 0.3:
        spell = short
    form = rng.random()
    if metavar is None:
        if form < 0.1:
            return [spell + "=" + value]  # a value given to a flag
        return [spell]
    if form < 0.1:
        return [spell]  # the value missing (or the next token taken as one)
    if form < 0.35 and spell.startswith("--"):
        return [spell + "=" + value]
    if form < 0.45 and not spell.startswith("--"):
        return [spell + value]  # -ODIR, -I/x
    return [spell, value]


def random_line(rng, target, scratch):
    prefix, cmd, opts, subs, global_opts = target
    argv = list(prefix)
    usable = [o for o in opts if o[0] not in SKIPPED_OPTIONS]
    globals_ = [o for o in global_opts if o[0] not in SKIPPED_OPTIONS]
    if cmd:
        if globals_ and rng.random() < 0.2:
            argv += option_tokens(rng, rng.choice(globals_), scratch)
        argv.append(cmd)
        if subs and rng.random() < 0.9:
            argv.append(rng.choice(subs) if rng.random() < 0.95 else weird_values(rng, scratch))
        if cmd in SIM_COMMANDS:
            argv += ["--duration", "1ms"]
    for _ in range(rng.randint(0, 5)):
        r = rng.random()
        if r < 0.6 and usable:
            argv += option_tokens(rng, rng.choice(usable), scratch)
        elif r < 0.68:
            argv.append(rng.choice(["--no-such-option", "-Z", "--js", "---", "--=x", "-",
                                    "--", "-" + "x" * 300, "--json=1"]))
        elif r < 0.74 and usable:
            shorts = [o[1][1] for o in usable if o[1]]
            if shorts:  # bundled short options: -vI
                argv.append("-" + "".join(rng.choice(shorts) for _ in range(rng.randint(2, 3))))
        elif r < 0.8 and argv[len(prefix):]:
            argv.append(rng.choice(argv[len(prefix):]))  # a repeated token
        else:
            argv.append(weird_values(rng, scratch))  # a positional
    return argv


def snapshot(cwd):
    state = {}
    for root, dirs, files in os.walk(cwd):
        for f in files + dirs:
            p = os.path.join(root, f)
            try:
                st = os.lstat(p)
                state[os.path.relpath(p, cwd)] = (st.st_size, st.st_mtime_ns)
            except OSError:
                pass
    return state


def prepare(cwd):
    for entry in os.listdir(cwd):
        p = os.path.join(cwd, entry)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p, ignore_errors=True)
        else:
            os.unlink(p)
    os.mkdir(os.path.join(cwd, "dir.d"))
    # a FIFO nobody writes to: a reader that open()s or reads it blocking hangs (a timeout)
    os.mkfifo(os.path.join(cwd, "fifo.p"))
    with open(os.path.join(cwd, "existing.out"), "w") as f:
        f.write("kept\n")


def wants_json(argv, cmd_at):
    """As kfsim_cli_wants_json(): a "--json" token before any "--" asks for JSON errors.

    kfsim scans from its command (@cmd_at) once one is found, so that a global's value "--"
    ("--cmdline --") ends nothing; a bad global option is reported before that, from argv[1].
    """
    tail = argv[cmd_at + 1:]
    head = tail[:tail.index("--")] if "--" in tail else tail
    return "--json" in head


def check(argv, res, before, after, prog, cmd_at):
    """The broken rules of one run (empty when it kept them)."""
    problems = []
    rc, out, err = res.returncode, res.stdout, res.stderr
    if any(m in err for m in SANITIZER_MARKS):
        problems.append("sanitizer report")
    if rc < 0:
        problems.append("killed by signal %d" % -rc)
        return problems
    documented = {0, 1, 2} | ({76} if "ethtool" in argv else set())
    if rc not in documented:
        problems.append("exit status %d" % rc)
    if rc == 2:
        lines = err.split("\n")
        if err.count("\n") != 1 or not err.endswith("\n") or not lines[0].strip():
            problems.append("usage error on %d stderr lines" % err.count("\n"))
        elif not lines[0].startswith(prog):
            problems.append("usage error not prefixed by the program's name")
        if wants_json(argv, 0 if err.startswith(prog + ": ") else cmd_at):
            try:
                if "error" not in json.loads(out):
                    problems.append("--json usage error without an error document")
            except ValueError:
                problems.append("--json usage error: stdout is not one JSON document")
        elif out:
            problems.append("usage error printed on stdout")
        if before != after:
            changed = sorted(set(before.items()) ^ set(after.items()))
            problems.append("files created or changed: %s" % sorted({c[0] for c in changed}))
    if rc == 1 and not err.strip():
        problems.append("exit 1 with nothing on stderr")
    return problems


def printable(argv, build):
    shown = [a if len(a) < 200 else "%s$(printf '%s%%.0s' {1..%d})" % (a[:1], a[1], len(a) - 1)
             for a in argv]
    shown[0] = os.path.relpath(shown[0], build)
    return " ".join(shlex.quote(a) if "$(printf" not in a else "\"%s\"" % a for a in shown)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--jobs", type=int, default=2, help="lines run at once (default 2)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    rng = random.Random(args.seed)
    targets = discover(build)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SLURM_", "KFSIM_", "JOB_COMPLETION", "PARALLEL_SEQ"))}
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    violations, statuses, per_program = [], {}, {}
    with tempfile.TemporaryDirectory(prefix="kfsim-clifuzz-") as top:
        scratch = os.path.join(top, "a-directory")
        os.mkdir(scratch)
        # every line drawn first, in order, so a seed names the same lines whatever --jobs
        lines = []
        for _ in range(args.count):
            target = rng.choice(targets)
            lines.append((target, random_line(rng, target, scratch)))
        workdirs = queue.Queue()
        for w in range(args.jobs):
            os.mkdir(os.path.join(top, "cwd%d" % w))
            workdirs.put(os.path.join(top, "cwd%d" % w))

        def run_line(line):
            """One line in a working directory of its own: (argv, key, status, problems)."""
            target, argv = line
            prog = "kfsim" if target[1] else os.path.basename(argv[0])
            cwd = workdirs.get()
            try:
                prepare(cwd)
                before = snapshot(cwd)
                try:
                    res = subprocess.run(argv, cwd=cwd, env=env, capture_output=True,
                                         stdin=subprocess.DEVNULL, timeout=args.timeout,
                                         text=True, errors="replace")
                except subprocess.TimeoutExpired:
                    return argv, target[1] or prog, None, ["timeout after %gs" % args.timeout], ""
                cmd_at = argv.index(target[1]) if target[1] in argv else 0
                problems = check(argv, res, before, snapshot(cwd), prog, cmd_at)
                return argv, target[1] or prog, res.returncode, problems, res.stderr
            finally:
                workdirs.put(cwd)

        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for argv, key, status, problems, err in pool.map(run_line, lines):
                per_program[key] = per_program.get(key, 0) + 1
                if status is not None:
                    statuses[status] = statuses.get(status, 0) + 1
                if problems:
                    violations.append((argv, problems, err))
                if args.verbose:
                    print("%s %s" % (status, printable(argv, build)))
    for argv, problems, err in violations:
        print("VIOLATION: %s\n  %s\n  stderr: %s" % (printable(argv, build), "; ".join(problems),
              err[:600].replace("\n", "\n          ")))
    print("cli_fuzz: seed %d, %d command lines over %d commands (%s); exit statuses %s; "
          "%d violations" % (args.seed, args.count, len(per_program),
                             " ".join("%s=%d" % kv for kv in sorted(per_program.items())),
                             dict(sorted(statuses.items())), len(violations)))
    print("cli_fuzz: checked: no signal, sanitizer report or timeout; exit 0/1/2; exit 2 = one "
          "stderr line, empty stdout (JSON error with --json), no file created or changed")
    print("cli_fuzz: not fuzzed: kfsim %s (reach beyond the process or run long); options %s"
          % (", ".join(sorted(SKIPPED_COMMANDS)), " ".join(sorted(SKIPPED_OPTIONS))))
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
