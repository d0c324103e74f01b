# SPDX-License-Identifier: MIT
"""Shrinking a disagreement to a small program (a delta reduction over the statement tree).

A candidate is the program with one piece taken away: a run of top-level statements (halves,
quarters, ... down to one), one statement anywhere in the tree (a block with all it holds), or
a block replaced by its body.  Every candidate of every program being reduced goes into one
BPF C file, so that a round is one kfsim-bpf-cc build and one run against the kernel; the
smallest candidate that still disagrees the same way (both verdicts, both messages with numbers
aside: Result.signature()) replaces the program, until no candidate does.  Variables are
declared at the top of each function, so any subset of statements compiles.
"""
import copy
import os
import re

import bpf_fuzz_gen as gen

MAX_ROUNDS = 30
MAX_CANDIDATES = 120  # per round, over all programs


def paths(stmts, prefix=()):
    """The path (indexes) of every statement in the tree."""
    for i, s in enumerate(stmts):
        yield prefix + (i,)
        if s.children:
            yield from paths(s.children, prefix + (i,))


def container(body, path):
    lst = body
    for i in path[:-1]:
        lst = lst[i].children
    return lst


def without(prog, path):
    p = copy.deepcopy(prog)
    del container(p.body, path)[path[-1]]
    return p


def unwrapped(prog, path):
    p = copy.deepcopy(prog)
    lst = container(p.body, path)
    s = lst[path[-1]]
    if not s.children:
        return None
    lst[path[-1]:path[-1] + 1] = s.children
    return p


def without_run(prog, start, n):
    p = copy.deepcopy(prog)
    del p.body[start:start + n]
    return p


def candidates(prog):
    """Smaller programs, biggest cuts first."""
    out = []
    n = len(prog.body)
    size = n // 2
    while size >= 2:
        for start in range(0, n - size + 1, size):
            out.append(without_run(prog, start, size))
        size //= 2
    for path in paths(prog.body):
        out.append(without(prog, path))
        u = unwrapped(prog, path)
        if u:
            out.append(u)
    for i, (sig, body) in enumerate(prog.subprogs):
        for j in range(len(body)):
            p = copy.deepcopy(prog)
            del p.subprogs[i][1][j]
            out.append(p)
    return out


def renamed(prog, name):
    """@prog under another name (its subprograms carry the name as their prefix)."""
    p = copy.deepcopy(prog)
    old = re.compile(r"\b%s(?![0-9])" % re.escape(p.name))

    def walk(stmts):
        for s in stmts:
            s.text = old.sub(name, s.text)
            if s.children:
                walk(s.children)
    walk(p.body)
    p.subprogs = [(old.sub(name, sig), body) for sig, body in p.subprogs]
    for _, body in p.subprogs:
        walk(body)
    p.name = name
    return p


def used_subprogs(prog):
    """Drop the subprograms no statement calls any more."""
    text = []
    for s in prog.body:
        s.render(text, 0)
    body = "\n".join(text)
    prog.subprogs = [(sig, b) for sig, b in prog.subprogs
                     if re.search(r"\b(\w+)\(", sig).group(1) + "(" in body]
    return prog


def reduce_all(items, tc, args):
    """Reduce each (Program, Result) and print the small programs."""
    work = [{"prog": used_subprogs(copy.deepcopy(p)), "sig": r.signature(), "res": r}
            for p, r in items]
    for w in work:
        w["prog"].opaque = True
    for rnd in range(getattr(args, "reduce_rounds", MAX_ROUNDS)):
        trials = []
        per = max(1, MAX_CANDIDATES // max(1, len([w for w in work if not w.get("done")])))
        for wi, w in enumerate(work):
            if w.get("done"):
                continue
            cands = candidates(w["prog"])
            w["tried"] = len(cands) <= w.get("offset", 0) + per
            for ci, c in enumerate(cands[w.get("offset", 0):w.get("offset", 0) + per]):
                trials.append((wi, renamed(used_subprogs(c), "fzr%d_%d_%d" % (rnd, wi, ci))))
        if not trials:
            break
        src = os.path.join(args.out, "reduce%d.bpf.c" % rnd)
        with open(src, "w") as f:
            f.write(gen.prelude(args.seed) + "\n" + "\n".join(p.render() for _, p in trials))
        res, err = tc.run_file(src, os.path.join(args.out, "reduce%d" % rnd))
        if err:
            print("reduction round %d: %s" % (rnd, err.splitlines()[0]))
            break
        best = {}
        for wi, p in trials:
            r = res.get(p.name)
            if r and r.signature() == work[wi]["sig"]:
                if wi not in best or p.size() < best[wi][0].size():
                    best[wi] = (p, r)
        for wi, w in enumerate(work):
            if w.get("done"):
                continue
            if wi in best and best[wi][0].size() < w["prog"].size():
                w["prog"], w["res"] = best[wi]
                w["offset"] = 0
            elif w["tried"]:
                w["done"] = True  # no candidate left that still disagrees the same way
            else:
                w["offset"] = w.get("offset", 0) + per
        if all(w.get("done") for w in work):
            break
    for w in work:
        r = w["res"]
        print("\n/* reduced: kfsim %s, kernel %s" % (r.kfsim, r.kernel))
        print(" * kernel: %s" % (r.kernel_msg or "retval %s" % r.kernel_ret))
        print(" * kfsim:  %s */" % (r.kfsim_msg or "retval %s" % r.kfsim_ret))
        print(w["prog"].render())
        if args.save:
            save(args.save, w["prog"], r)


def c_string(text):
    return text.replace("\\", "\\\\").replace('"', '\\"')


def save(path, prog, r):
    """Append @prog to the regression file, annotated with the kernel's verdict."""
    text = open(path).read() if os.path.exists(path) else gen.prelude("regressions")
    nr = len(re.findall(r"^SEC\(", text, re.M))
    p = renamed(prog, "fzreg_%d" % nr)
    if r.kernel == "REJECT":
        note = '__failure __msg("%s")' % c_string(r.kernel_msg.split(" / ")[0])
    else:
        note = "__success __retval(%d)" % (r.kernel_ret or 0)
    body = p.render().replace('SEC("tc")\n', 'SEC("tc")\n%s\n' % note, 1)
    header = "/* found: kfsim %s%s; the kernel %s%s */\n" % (
        r.kfsim, ": " + r.kfsim_msg if r.kfsim_msg else "",
        r.kernel, ": " + r.kernel_msg if r.kernel_msg else "")
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + "\n\n" + header + body)
