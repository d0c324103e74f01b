#!/usr/bin/env python3
"""Run every shell command of README.md and docs/*.md as written.

Shell blocks are the ```sh, ```bash, ```shell and ```console blocks, and any other fenced
block whose lines start with "$ ".  A ```sh block runs as one bash script with `set -e`; in
a "$ " block each command runs on its own, and the lines after it are what it prints: when
those show an error (the command is there to show one), a non-zero exit status is expected,
otherwise zero, and the output must contain every line the page shows that does not carry
a measured figure.  Commands run in a scratch directory that holds a copy of specs/, examples/ and
docs/img/, with the build directory first on PATH, so the source tree is not written.

A few commands cannot run inside the test suite; SKIP lists each with the reason, and
nothing else is skipped.  Usage: doc_commands.py SOURCE_DIR BUILD_DIR
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

# (page, start of the command) -> why it does not run here.
SKIP = {
    ("README.md", "scripts/tour"): "installs packages and builds: tests/cli checks --help",
    ("README.md", "scripts/test"): "runs this very suite: tests/cli checks --help",
    ("README.md", "cmake -S . -B build"): "installs into /usr/local: install/consumer does it "
                                         "in a scratch prefix",
    ("README.md", "ldconfig"): "changes the system's loader cache",
    ("README.md", "cc prog.c"): "prog.c is the reader's program",
    ("bfq.md", "blkparse -i sda"): "needs a blktrace capture of a real disk",
    ("playground.md", "kfsim playground --out pg"):
        "needs a build with -DKFSIM_WASM=ON, which the sanitizer builds are not: "
        "playground/browser runs this very command where the page is built",
    ("bpf-graph.md", "cd build && ctest -R bpf/verifier_oracle"):
        "runs a test of this very suite: ctest runs bpf/verifier_oracle",
    ("bpf-graph.md", "build/bench/bpf/bench_bpf"): "a benchmark of minutes: scripts/bench runs it, "
                                                    "bpf/bench_smoke checks it starts",
    ("bpf-graph.md", "sh bench/bpf/bench_bpf_callgrind.sh"): "a benchmark under callgrind: "
                                                             "scripts/bench runs it",
    ("bpf-graph.md", "python3 tests/bpfcc/fuzz/bpf_fuzz.py"): "the fuzzer runs for minutes: "
                                                             "ctest runs bpfcc/fuzz_verifier",
    ("bpf-graph.md", "for s in $(seq 9101 9140)"): "forty runs of the fuzzer, 16,000 programs: ctest "
                                                    "runs bpfcc/fuzz_verifier",
    ("bpf-graph.md", "cd build && ctest -R bpfcc/fuzz"): "runs tests of this very suite",
    ("bpf-graph.md", "bash tests/bpfcc/outside/compare.sh"):
        "reads two scratch copies of kernel selftests, which are not in the repository, and "
        "asks the running kernel for minutes: bpfcc/rules_sections runs the annotated part",
    ("bfq.md", "python3 tests/bfq/fio_physics.py"):
        "the 1000-file measurement takes half a minute (minutes under the sanitizers): ctest "
        "bfq/fio_physics runs the same script on 300 files",
    ("bfq.md", "for i in $(seq 10); do python3 tests/bfq/fio_stall.py"):
        "ten runs of the timing check under four busy loops, three and a half minutes: ctest "
        "bfq/fio_ss_timing runs the check once (before tests/ was in the scratch folder this "
        "loop passed by running nothing: its last command is an echo)",
    ("bfq.md", "python3 tests/bfq/fio_badgen.py"):
        "the 200-file measurement takes minutes (fio starts twice a file): ctest "
        "bfq/fio_badgen runs the same script on 15 files",
    ("netlink.md", "KFSIM_LINUX_TREE=build/linux-source/linux-source-6.12 bash "
                   "tests/netlink/oracle/nl_oracle.sh"):
        "reads the kernel tree the suite unpacks into build/ and 50,000 requests take a "
        "quarter of a minute: ctest netlink/kernel_referee_random runs it on 8 seeds",
    ("ynl.md", "KFSIM_LINUX_TREE=$tree bash tests/ynl/referee/kernel_generator.sh"):
        "reads a 6.14 or 6.18-rc4 tree put together from fetched copies, which are neither in "
        "the repository nor on the machine: ctest ynl/kernel_generator runs it on 6.12's",
    ("ynl.md", "KFSIM_LINUX_SOURCE=$tarball bash tests/ynl/conformance.sh"):
        "reads a tarball of the 6.18-rc4 specs fetched for the measurement: ctest "
        "ynl/conformance runs it on 6.12's",
    ("ynl.md", "timeout 20 kfsim-ynl-gen --mode uapi --mode kernel --mode user --mode test"):
        "runs over spec folders of 6.14-6.18 fetched for the measurement: ctest ynl/spec_fuzz "
        "and ynl/kernel_generator run kfsim-ynl-gen on 6.12's",
    ("ynl.md", "python3 tests/ynl/spec_fuzz.py"):
        "the 300-seed measurement takes a minute and reads the kernel tree the suite unpacks "
        "into build/: ctest ynl/spec_fuzz runs the same script on 100 seeds",
    ("own-tools.md", "kfsim exec --server \"$(kfsim kernel --print-path)\" -- python3 tools/net/ynl/cli.py"):
        "needs the kernel tree's tools/net/ynl: clients/ynl_cli runs it from linux-source",
}

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
ERROR = re.compile(r"error|^kfsim[\w -]*: -E[A-Z]+|^\S+\.yaml:\d+", re.M | re.I)
FIGURE = re.compile(r"\d\.\d|\d{3,}")


def skipped(page, command):
    for (name, start), why in SKIP.items():
        if page == name and command.lstrip().startswith(start):
            return why
    return None


def sh_commands(body):
    """The block's commands, continuation lines joined, comments and blank lines dropped."""
    commands, current = [], ""
    for line in body.splitlines():
        current += line.rstrip("\\") + (" " if line.endswith("\\") else "")
        if line.endswith("\\"):
            continue
        if current.strip() and not current.lstrip().startswith("#"):
            commands.append(current)
        current = ""
    return commands


def run(command, cwd, env):
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def main():
    src, build = sys.argv[1], sys.argv[2]
    scratch = tempfile.mkdtemp(prefix="kfsim-doc-")
    shutil.copytree(os.path.join(src, "specs"), os.path.join(scratch, "specs"))
    shutil.copytree(os.path.join(src, "examples"), os.path.join(scratch, "examples"))
    os.makedirs(os.path.join(scratch, "docs", "img"))
    # pages that measure against the running kernel name the repository's scripts and the
    # build as a reader at the top of a checkout would (tests/..., build/kfsim-bpf-cc)
    os.symlink(os.path.join(src, "tests"), os.path.join(scratch, "tests"))
    os.symlink(build, os.path.join(scratch, "build"))
    env = dict(os.environ, PATH=build + os.pathsep + os.environ["PATH"],
               XDG_RUNTIME_DIR=scratch)  # kfsim kernel's own path: in the scratch dir
    pages = [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))
    failures = ran = 0
    for page in pages:
        name = os.path.basename(page)
        for m in FENCE.finditer(open(page).read()):
            for command, shown in block_commands(m.group(1), m.group(2)):
                why = skipped(name, command)
                if why:
                    print(f"{name}: skipped: {command.strip()[:60]} ({why})")
                    continue
                ran += 1
                failures += not check(name, command, shown, scratch, env)
    shutil.rmtree(scratch)
    print(f"{ran} commands run, {failures} failed")
    return 1 if failures or not ran else 0


def block_commands(lang, body):
    """(command, the lines the page shows it printing) for each command of a shell block."""
    steps = []
    if any(l.startswith("$ ") for l in body.splitlines()):
        for line in body.splitlines():
            if line.startswith("$ "):
                steps.append((re.sub(r"\s+#[^'\"]*$", "", line[2:]), []))  # trailing comment
            elif steps:
                steps[-1][1].append(line)
    elif lang in ("sh", "bash", "shell"):
        # a here-document is one command with its text: run such a block whole
        commands = ["set -e\n" + body] if "<<" in body else sh_commands(body)
        steps = [(command, []) for command in commands]
    return steps


def check(name, command, shown, scratch, env):
    """Run @command; True when it behaved as the page shows."""
    r = run(command, scratch, env)
    expect_error = bool(ERROR.search("\n".join(shown)))
    out = r.stdout + r.stderr
    missing = [l for l in shown if l.strip() and l.strip() != "..." and
               not FIGURE.search(l) and l.strip() not in out]
    if bool(r.returncode) == expect_error and not missing:
        print(f"{name}: ok: {command.strip()[:70]}")
        return True
    print(f"{name}: FAILED (exit {r.returncode}, the page expects "
          f"{'an error' if expect_error else 'success'}): {command.strip()}")
    for line in missing[:5]:
        print(f"  the page shows, the command did not print: {line.strip()}")
    print(out[-1500:])
    return False


if __name__ == "__main__":
    sys.exit(main())
