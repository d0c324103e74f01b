#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A kfunc's kernel-doc lives beside its row (CONTRIBUTING.md, "A BPF kfunc").

Every X(name, ...) row of KFSIM_BPF_KFUNC_LIST in include/kfsim/bpf_kfunc_list.h must come
right after its own kernel-doc block, "/**" then " * name() - what it does", closed by a line
that carries the macro's backslash (or "/** name() - what it does. */ \\" on one line); and include/kfsim/bpf_experimental.h, which declares the
kfuncs from the list, must not hold a second block for one.  Prints each kfunc it checked.

Usage: check_kfunc_docs.py SOURCE_DIR
"""
import re
import sys
from pathlib import Path

ROW = re.compile(r"^X\(([a-z_0-9]+),")
CLOSE = re.compile(r"^\s*\*/\s*\\$")
ONE_LINE = re.compile(r"^/\*\* (.*) \*/\s*\\$")  # a block of one line


def main():
    src = Path(sys.argv[1])
    text = (src / "include/kfsim/bpf_kfunc_list.h").read_text()
    body = text[text.index("#define KFSIM_BPF_KFUNC_LIST(X)"):text.index("/* clang-format on */")]
    lines = body.split("\n")
    bad, names = [], []
    for i, line in enumerate(lines):
        match = ROW.match(line)
        if not match:
            continue
        name = match.group(1)
        names.append(name)
        above = lines[i - 1] if i else ""
        one_line = ONE_LINE.match(above)
        if one_line:
            title = " * " + one_line.group(1)
        elif CLOSE.match(above):
            opens = [j for j in range(i) if lines[j].strip() == "/**"]
            title = lines[opens[-1] + 1] if opens and opens[-1] + 1 < i else ""
        else:
            bad.append(f"{name}: no kernel-doc block right above its row")
            continue
        if not title.startswith(f" * {name}() - "):
            bad.append(f"{name}: the block above its row is not its kernel-doc "
                       f"(' * {name}() - ...'): {title.strip()!r}")
            continue
        print(f"{name}: kernel-doc beside its row ({title.split(' - ', 1)[1][:60]})")
    header = (src / "include/kfsim/bpf_experimental.h").read_text()
    for name in names:
        if re.search(r"/\*\*\s*\n?\s*\*?\s*" + re.escape(name) + r"\(\) - ", header):
            bad.append(f"{name}: a second kernel-doc block in bpf_experimental.h")
    for line in bad:
        print("check_kfunc_docs: " + line, file=sys.stderr)
    print(f"{len(names)} rows, {len(bad)} problems")
    return 1 if bad or not names else 0


if __name__ == "__main__":
    sys.exit(main())
