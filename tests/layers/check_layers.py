#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The include graph of src/: no part reaches up into another.

Every #include of a private header of another part ("part/x.h") and of the public headers
named in PUBLIC_OWNER is an arrow from the including part to the owning part.  An arrow is
allowed when it goes down the layers of RANK; a private header ("part/x.h") may be included
from another part only when it is core's or the option parser's, or from a program on top.  An
arrow that must stay for a while is listed in KNOWN with the reason (issue 33's are all gone);
the check fails on any other arrow, and on a KNOWN arrow that no longer exists (so that the
list stays true).  Some arrows down the layers are still wrong: the files in PROTOCOL_FREE must
not name what they must not know (the netlink core generic netlink; the stand-in's shim and
command a family; the YNL library the stand-in).  It prints the graph it checked.

Usage: check_layers.py SOURCE_DIR
"""
import re
import sys
from pathlib import Path

# The layers, lowest first: a part may include what a lower layer owns.  core and the option
# parser are under everything; netlink's core under its families and users; PLCA's
# configuration (a family) under its bus simulator; the stand-in kernel (src/standin: the
# families' table, nl_server and the LD_PRELOAD shim) over every family; the programs on top.
RANK = {
    "core": 0, "cliopts": 0,
    "simkit": 1, "rbtree": 1, "refcount": 1,
    "netlink": 2,
    "ynl": 3, "plca": 3, "bpf": 3, "bfq": 3,
    "plcasim": 4,
    "standin": 5,
    "bpfcc": 7, "cli": 7,
    "playground": 7,  # the page around the WebAssembly kfsim program (no C: it includes nothing)
}
# public headers that belong to one part, for the arrows the issue is about; every other
# <kfsim/*.h> is the library's API and not counted
PUBLIC_OWNER = {
    "kfsim/plca.h": "plca",
    "kfsim/nl_server.h": "standin",  # the stand-in kernel's server
}
# (file, header) -> why the arrow is still there (issue 33's arrows are all gone: keep it empty,
# and a new arrow that must stay for a while is listed here with its reason)
KNOWN = {}

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)

# Files that must not know what is above or beside them (code, not comments), with the words
# that would show it.  The netlink core knows no generic netlink, which plugs in through its
# kernel socket's input as in the kernel (issue 33, wall 1).  The stand-in kernel is typed by
# its namespace, and no family is known to its shim or its command; the YNL library does not
# start it; PLCA's bus simulator does not read PLCA's private header (issue 33, wall 2): those
# are arrows down the layers, so the rank alone would allow them.
GENL_WORDS = re.compile(r"\bgenl_|\bgenlmsg|genetlink|nl_internal\.h|GENL_")
PROTOCOL_FREE = {
    "src/netlink/af_netlink.c": GENL_WORDS,
    "src/netlink/af_netlink.h": GENL_WORDS,
    "src/standin/netlink_shim/netlink_shim.c":
        re.compile(r"kfsim/plca\.h|\bkfsim_plca_\w+|\bkfsim_ethtool_\w+|\bETHTOOL_\w+"),
    "src/cli/cmd_kernel.c": re.compile(r"kfsim/plca\.h|\bkfsim_plca_\w+"),
    "src/ynl/ynl_rt.c": re.compile(r"kfsim/nl_server\.h|\bkfsim_standin_\w+"),
    "src/plcasim/sim_from_net.c": re.compile(r"plca_internal\.h"),
}
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def protocol_words(src):
    for rel, words in PROTOCOL_FREE.items():
        code = COMMENT.sub("", (src / rel).read_text(errors="replace"))
        for match in sorted(set(words.findall(code))):
            yield f"{rel}: names what it must not know ({match!r})"


def arrows(src):
    for path in sorted((src / "src").rglob("*.[ch]")):
        part = path.relative_to(src / "src").parts[0]
        for target in INCLUDE.findall(path.read_text(errors="replace")):
            owner = PUBLIC_OWNER.get(target)
            if owner is None and "/" in target and not target.startswith(("kfsim/", "linux/",
                                                                          "sys/", "bpf/", ".")):
                owner = target.split("/")[0]
                if not (src / "src" / owner).is_dir():
                    owner = None
            if owner and owner != part:
                yield part, owner, str(path.relative_to(src)), target


def main():
    src = Path(sys.argv[1])
    bad, seen = [], set()
    for part, owner, path, target in arrows(src):
        key = (path, target)
        private = not target.startswith("kfsim/")
        if part not in RANK or owner not in RANK:
            verdict = "UNRANKED"
            bad.append(f"{path}: part {part} or {owner} has no layer in RANK")
        elif key in KNOWN:
            verdict = "known: " + KNOWN[key]
            seen.add(key)
        elif RANK[owner] < RANK[part] and not (private and RANK[owner] and RANK[part] < 7):
            verdict = "down"
        else:
            verdict = "UP" if RANK[owner] >= RANK[part] else "PRIVATE"
            bad.append(f"{path}: {part} -> {owner} (#include {target}): {verdict}")
        print(f"{part:>12} -> {owner:<8} {path} ({target}): {verdict}")
    for line in protocol_words(src):
        bad.append(line)
    print("checked not to know what they must not: " + ", ".join(sorted(PROTOCOL_FREE)))
    for key in sorted(set(KNOWN) - seen):
        bad.append(f"{key[0]}: #include <{key[1]}> is gone: remove it from KNOWN")
    for line in bad:
        print("check_layers: " + line, file=sys.stderr)
    for name in sorted(p.name for p in (src / "src").iterdir() if p.is_dir()):
        if name not in RANK:
            bad.append(f"src/{name}: a part without a layer in RANK")
    print("layers: " + ", ".join(f"{p} {r}" for p, r in sorted(RANK.items(), key=lambda x: x[1])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
