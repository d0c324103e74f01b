#!/usr/bin/env python3
"""Build and run every complete C program of the given docs pages against an installed kfsim.

A complete program is a ```c block with "int main(" in it; it is compiled under the name its
"// cc NAME.c ..." first line gives (the name shows up in WARN reports), with -Wall -Wextra
-Werror, and run.  When the page follows it with a paragraph starting "prints" and a plain
``` block, the output must match that block, timestamps and PIDs aside.
Usage: doc_examples.py CC SCRATCH PAGE.md...   (PKG_CONFIG_PATH and LD_LIBRARY_PATH set)
"""
import os
import re
import shlex
import subprocess
import sys

BLOCK = re.compile(r"```c\n(.*?)```\n(?:\n(prints[^\n]*)\n\n```\n(.*?)```\n)?", re.S)


def normalise(text):
    text = re.sub(r"^\[ *\d+\.\d+\] ", "[T] ", text, flags=re.M)
    return re.sub(r"PID: \d+", "PID: N", text)


def main():
    cc, scratch, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
    flags = shlex.split(subprocess.run(["pkg-config", "--cflags", "--libs", "kfsim"],
                                       check=True, capture_output=True, text=True).stdout)
    failures = checked = 0
    for page in pages:
        for n, m in enumerate(BLOCK.finditer(open(page).read())):
            code, prints, expected = m.groups()
            if "int main(" not in code:
                continue
            name = re.match(r"// cc (\S+\.c)", code)
            src = os.path.join(scratch, name.group(1) if name else f"example{n}.c")
            exe = src[:-2]
            with open(src, "w") as f:
                f.write(code)
            where = f"{os.path.basename(page)} example {n}"
            build = subprocess.run([cc, "-std=gnu11", "-Wall", "-Wextra", "-Werror", os.path.basename(src),
                                    "-o", exe] + flags, cwd=scratch, capture_output=True,
                                   text=True)
            checked += 1
            if build.returncode:
                print(f"{where}: does not compile\n{build.stderr}")
                failures += 1
                continue
            run = subprocess.run([exe], cwd=scratch, capture_output=True, text=True,
                                 timeout=60)
            if run.returncode:
                print(f"{where}: exit status {run.returncode}\n{run.stdout}{run.stderr}")
                failures += 1
            elif expected is not None and normalise(run.stdout) != normalise(expected):
                print(f"{where}: prints\n{run.stdout}but the page says\n{expected}")
                failures += 1
            else:
                print(f"{where}: ok")
    if not checked:
        print("no complete C example found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
