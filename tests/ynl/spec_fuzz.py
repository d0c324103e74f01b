#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeded YNL spec generator, with the kernel's generator as referee of kfsim-ynl-gen.

The kernel's specs are a closed corpus; users write others.  This script makes specs of its
own from a seed -- genetlink, genetlink-c and genetlink-legacy; definitions (const, enum and
flags with value-start, name-prefix, enum-name, render-max, legacy structs), attribute sets
(every scalar width, string and binary with length checks, flag, nest, multi-attr,
indexed-array, nest-type-value, bitfield32, pad, byte-order, display-hint, min/max checks,
subsets), do/dump/notify/event operations, multicast groups, fixed headers, the directional
model -- about a third of them with one subtle mistake (see MUTATIONS), and asks both
generators about each:

  verdict   does the generator accept the spec?  (ynl-gen-c.py in kernel mode, header and
            source; kfsim-ynl-gen --mode uapi --mode kernel).  The YNL schema's verdict
            (jsonschema on Documentation/netlink/<protocol>.yaml) is printed beside them.
  uapi      when both accept a unified spec: ynl-gen-c.py --mode uapi against kfsim's
            F-uapi.h, byte for byte once the banner and the include guard are set aside (as
            referee/kernel_generator.sh compares them).
  policy    when both accept: every nla_policy table of the kernel-mode source, by name and
            size, entry by entry (index resolved through the uapi enums, one spelling per
            value); kfsim's one table for equal do and dump requests against each of the two.

The kernel's generator runs in this one Python process (imported once, its main() called per
spec), kfsim-ynl-gen once per spec: a hundred seeds take a few seconds.  Disagreements that
have a reason are listed in KNOWN (cause -> reason); anything else fails.

Usage: spec_fuzz.py [--tree LINUX_TREE] --gen KFSIM_YNL_GEN [--seeds A:B] [--work DIR]
                    [--compile N --cc CC --cflags FLAGS --libs LIBS]
                    [--show N] [--known FILE] [--dump SEED]
Exit: 0 all agree (or every difference is known), 1 unexplained difference, 77 no referee.
"""
import argparse
import contextlib
import gc
import importlib.util
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

WORDS = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa",
         "lambda", "mu", "nu", "xi", "omi", "pi", "rho", "sigma", "tau", "ups", "phi", "chi",
         "psi", "omega", "port", "dev", "queue", "link", "stat", "cfg", "id", "mode", "rate"]
# 6.12's genetlink schemas allow no s8/s16 attribute (netlink-raw's does): a mutation uses them
SCALARS = ["u8", "u16", "u32", "u64", "s32", "s64"]
HINTS = ["hex", "mac", "fddi", "ipv4", "ipv6", "uuid"]
PROTOS = ["genetlink", "genetlink-c", "genetlink-legacy"]
LEVEL = {p: i for i, p in enumerate(PROTOS)}

# The one mistake a mutated spec carries (the name is printed with a difference).
MUTATIONS = ["unknown-attr-key", "bad-attr-type", "missing-nest-set", "missing-enum",
             "missing-op-set", "unknown-request-attr", "duplicate-attr", "min-above-max",
             "negative-min", "len-check-on-int", "proto-key-too-new", "doc-not-string",
             "missing-attr-type", "subset-with-prefix", "duplicate-attr-value", "flags-mask-enum",
             "notify-missing-op", "mcgrp-missing", "bad-name-chars", "op-missing-doc",
             "duplicate-op-name", "enum-dup-entry", "value-start-string", "big-max-len",
             "max-for-type", "check-on-string-min", "hint-bad", "nest-no-set",
             "missing-struct", "big-op-value", "small-signed-attr", "uint-member", "pad-member",
             "repeated-attr", "per-op-two-requests"]


def words(rng, n=None):
    n = n or rng.randint(1, 2)
    return "-".join(rng.choice(WORDS) for _ in range(n))


def uniq_names(rng, count, prefix=""):
    names, seen = [], set()
    while len(names) < count:
        w = prefix + words(rng)
        if w not in seen:
            seen.add(w)
            names.append(w)
    return names


def gen_spec(seed):
    """(spec dict, protocol, mutation or None) for one seed."""
    rng = random.Random(seed)
    proto = rng.choice(PROTOS)
    legacy = LEVEL[proto] >= 2
    c_level = LEVEL[proto] >= 1
    fam = "f" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 8)))
    if rng.random() < 0.3:
        fam += "-" + rng.choice(["nl", "dev", "x"])
    spec = {"name": fam, "protocol": proto, "doc": "Fuzzed family %d." % seed}
    if c_level and rng.random() < 0.4:
        spec["c-family-name"] = fam + "-family-name"
        spec["c-version-name"] = fam + "-version-number"
    if legacy and rng.random() < 0.3:
        spec["version"] = rng.randint(1, 3)
    if legacy and rng.random() < 0.3:
        spec["kernel-policy"] = rng.choice(["split", "per-op", "global"])

    # definitions
    defs, enums, flagsets, structs = [], [], [], []
    for dname in uniq_names(rng, rng.randint(0, 4), "d-"):
        kind = rng.choice(["const", "enum", "flags", "struct"] if legacy else
                          ["const", "enum", "flags"])
        d = {"name": dname, "type": kind}
        if rng.random() < 0.3:
            d["doc"] = "The %s definition." % dname
        if kind == "const":
            d["value"] = rng.randint(0, 300)
            defs.append(d)
            continue
        if kind == "struct":
            d["members"] = [{"name": m, "type": rng.choice(SCALARS)}
                            for m in uniq_names(rng, rng.randint(1, 4))]
            structs.append(dname)
            defs.append(d)
            continue
        entries = uniq_names(rng, rng.randint(1, 5))
        if rng.random() < 0.4:
            out = []
            for e in entries:
                if rng.random() < 0.5:
                    o = {"name": e}
                    if rng.random() < 0.4:
                        o["doc"] = "entry " + e
                    out.append(o)
                else:
                    out.append(e)
            d["entries"] = out
        else:
            d["entries"] = entries
        if rng.random() < 0.3:
            d["value-start"] = rng.randint(0, 6)
        if rng.random() < 0.3:
            d["render-max"] = True
        if c_level and rng.random() < 0.3:
            d["name-prefix"] = fam + "-" + rng.choice(WORDS) + "-"
        if c_level and rng.random() < 0.2:
            d["enum-name"] = rng.choice([None, dname + "-e"])
        (enums if kind == "enum" else flagsets).append(dname)
        defs.append(d)
    if defs:
        spec["definitions"] = defs

    # attribute sets: main first, then nested ones
    set_names = ["main"] + uniq_names(rng, rng.randint(0, 3), "s-")
    sets = []
    for i, sname in enumerate(set_names):
        attrs = []
        for aname in uniq_names(rng, rng.randint(1, 7)):
            attrs.append(gen_attr(rng, aname, proto, set_names[i + 1:], enums, flagsets, structs))
        if rng.random() < 0.15:  # the first value set, the others count on from it
            attrs[0]["value"] = rng.randint(1, 40)
        s = {"name": sname, "attributes": attrs}
        if rng.random() < 0.25:
            s["name-prefix"] = fam + "-" + sname + "-x-"
        if c_level and rng.random() < 0.2:
            s["attr-cnt-name"] = "__" + fam + "-" + sname + "-cnt"
        if c_level and rng.random() < 0.2:
            s["attr-max-name"] = fam + "-" + sname + "-maxattr"
        if rng.random() < 0.2:
            s["doc"] = "Set " + sname
        if rng.random() < 0.3 and i == 0:
            attrs[0:0] = [{"name": "unspec", "type": "unused", "value": 0}]
        if rng.random() < 0.15:
            attrs.append({"name": "pad-attr", "type": "pad"})
        sets.append(s)
    # a subset of main, used as a nest from a set after it
    if rng.random() < 0.3:
        main_names = [a["name"] for a in sets[0]["attributes"] if a["type"] not in ("unused", "pad")]
        sub = rng.sample(main_names, rng.randint(1, len(main_names)))
        sets.append({"name": "main-sub", "subset-of": "main",
                     "attributes": [{"name": n} for n in sub]})
        if len(sets) > 2:  # sets[1] is then a nested set of its own, not the subset
            sets[1]["attributes"].append({"name": "sub-nest", "type": "nest",
                                          "nested-attributes": "main-sub"})
    spec["attribute-sets"] = sets

    # multicast groups
    groups = uniq_names(rng, rng.randint(0, 2), "g-")
    if groups:
        spec["mcast-groups"] = {"list": [{"name": g} for g in groups]}

    # operations
    main_names = [a["name"] for a in sets[0]["attributes"] if a["type"] not in ("unused", "pad")]
    directional = legacy and rng.random() < 0.25
    ops_obj = {}
    if directional:
        ops_obj["enum-model"] = "directional"
    if rng.random() < 0.3:
        ops_obj["name-prefix"] = fam + "-op-"
    if c_level and rng.random() < 0.15:
        ops_obj["enum-name"] = rng.choice([None, fam + "-ops"])
    if legacy and rng.random() < 0.2 and structs:
        ops_obj["fixed-header"] = rng.choice(structs)
    ops = []
    op_names = uniq_names(rng, rng.randint(1, 5), "o-")
    nval = 1
    for oname in op_names:
        op = {"name": oname, "doc": "Op " + oname, "attribute-set": "main"}
        if rng.random() < 0.3 and not directional:
            nval += rng.randint(0, 3)
            op["value"] = nval
        nval += 1
        if rng.random() < 0.3:
            op["flags"] = [rng.choice(["admin-perm", "uns-admin-perm"] if legacy else ["admin-perm"])]
        if rng.random() < 0.15:
            op["dont-validate"] = rng.sample(["strict", "dump", "dump-strict"], rng.randint(1, 2))
        if rng.random() < 0.1:
            op["config-cond"] = "fuzz-" + rng.choice(WORDS)
        kinds = rng.choice([["do"], ["dump"], ["do", "dump"], ["do", "dump"]])
        for k in kinds:
            part = {}
            if rng.random() < 0.8:
                # an empty list is rare: 6.12's ynl-gen-c.py fails on it (AttributeError)
                req = {"attributes": rng.sample(main_names, rng.randint(
                    0 if rng.random() < 0.05 else 1, len(main_names)))}
                if directional:
                    req["value"] = nval
                part["request"] = req
            if rng.random() < 0.7:
                rep = {"attributes": rng.sample(main_names, rng.randint(1, len(main_names)))}
                if directional:
                    rep["value"] = nval
                part["reply"] = rep
            if rng.random() < 0.1:
                part["pre"] = fam.replace("-", "_") + "_pre"
            op[k] = part
        ops.append(op)
    # a notification and an event
    if groups and rng.random() < 0.6:
        with_reply = [o for o in ops if "do" in o and "reply" in o["do"]]
        if with_reply:
            ops.append({"name": "o-ntf", "doc": "Notification.", "notify": with_reply[0]["name"],
                        "mcgrp": groups[0]})
    if groups and rng.random() < 0.4:
        ops.append({"name": "o-event", "doc": "Event.", "attribute-set": "main",
                    "event": {"attributes": rng.sample(main_names, rng.randint(1, len(main_names)))},
                    "mcgrp": groups[-1]})
    ops_obj["list"] = ops
    spec["operations"] = ops_obj

    mutation = None
    if seed % 3 == 2:
        mutation = rng.choice(MUTATIONS)
        mutate(rng, spec, mutation, structs, enums, flagsets)
    return spec, proto, mutation


def gen_attr(rng, name, proto, later_sets, enums, flagsets, structs):
    legacy = LEVEL[proto] >= 2
    choices = SCALARS * 2 + ["uint", "sint", "string", "string", "binary", "binary", "flag"]
    if later_sets:
        choices += ["nest", "nest", "multi-nest", "indexed-array", "nest-type-value"]
    if legacy:
        choices += ["bitfield32"]
    t = rng.choice(choices)
    a = {"name": name}
    if rng.random() < 0.2:
        a["doc"] = "Attribute " + name
    if t in ("nest", "multi-nest"):
        a["type"] = "nest"
        a["nested-attributes"] = rng.choice(later_sets)
        if t == "multi-nest":
            a["multi-attr"] = True
        return a
    if t == "indexed-array":
        a["type"] = "indexed-array"
        a["sub-type"] = "nest"
        a["nested-attributes"] = rng.choice(later_sets)
        return a
    if t == "nest-type-value":
        a["type"] = "nest-type-value"
        a["nested-attributes"] = rng.choice(later_sets)
        return a
    a["type"] = t
    checks = {}
    if t in SCALARS or t in ("uint", "sint"):
        signed = t.startswith("s")
        bits = 64 if t in ("uint", "sint") else int(t[1:])
        top = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        if rng.random() < 0.35:
            lo = rng.randint(0, min(top, 1000))
            if rng.random() < 0.5:
                checks["min"] = lo
            if rng.random() < 0.6:
                checks["max"] = rng.choice([rng.randint(lo, min(top, 70000)), t + "-max", lo])
            if not checks:
                checks["min"] = rng.choice([lo, t + "-min" if signed else lo])
        if rng.random() < 0.15:
            a["byte-order"] = rng.choice(["big-endian", "little-endian"])
        if rng.random() < 0.15:
            a["display-hint"] = rng.choice(HINTS)
        if not signed and t in ("u8", "u16", "u32", "u64", "uint") and rng.random() < 0.25:
            pool = enums + flagsets
            if pool:
                a["enum"] = rng.choice(pool)
                if a["enum"] in flagsets and rng.random() < 0.4 and "max" not in checks:
                    checks.pop("min", None)
                    checks["flags-mask"] = a["enum"]
                elif rng.random() < 0.2:
                    a["enum-as-flags"] = True
        if rng.random() < 0.1:
            a["multi-attr"] = True
    elif t == "string":
        r = rng.random()
        if r < 0.3:
            checks["max-len"] = rng.randint(1, 300)
        elif r < 0.4:
            checks["min-len"] = rng.randint(0, 4)
            checks["max-len"] = rng.randint(8, 64)
        if LEVEL[proto] >= 1 and rng.random() < 0.15:
            checks["unterminated-ok"] = True
        if rng.random() < 0.1:
            a["multi-attr"] = True
    elif t == "binary":
        r = rng.random()
        if r < 0.2:
            checks["min-len"] = rng.randint(1, 64)
        elif r < 0.35:
            checks["max-len"] = rng.randint(1, 600)
        elif r < 0.45:
            checks["exact-len"] = rng.randint(1, 32)
        if rng.random() < 0.15:
            a["display-hint"] = rng.choice(HINTS)
        if legacy and structs and rng.random() < 0.15:
            a["struct"] = rng.choice(structs)
            checks = {}
        if rng.random() < 0.1:
            a["multi-attr"] = True
    elif t == "bitfield32":
        if flagsets and rng.random() < 0.5:
            a["enum"] = rng.choice(flagsets)
            a["enum-as-flags"] = True
    if checks:
        a["checks"] = checks
    return a


def typed_attrs(spec, types):
    return [a for s in spec["attribute-sets"] if "subset-of" not in s
            for a in s["attributes"] if a.get("type") in types]


def mutate(rng, spec, what, structs, enums, flagsets):
    main = spec["attribute-sets"][0]["attributes"]
    a0 = rng.choice([a for a in main if a["type"] not in ("unused", "pad")])
    ops = spec["operations"]["list"]
    ints = typed_attrs(spec, SCALARS + ["uint", "sint"])
    unsigned = typed_attrs(spec, ["u8", "u16", "u32", "u64", "uint"])
    strings = typed_attrs(spec, ["string"])
    if what == "unknown-attr-key":
        a0["colour"] = "red"
    elif what == "bad-attr-type":
        a0["type"] = rng.choice(["u24", "int", "str", "nested"])
    elif what == "missing-nest-set":
        a0.clear()
        a0.update({"name": "broken", "type": "nest", "nested-attributes": "no-such-set"})
    elif what == "missing-enum":
        a0.clear()
        a0.update({"name": "broken", "type": "u32", "enum": "no-such-enum"})
    elif what == "missing-op-set":
        ops[0]["attribute-set"] = "no-such-set"
    elif what == "unknown-request-attr":
        for k in ("do", "dump"):
            if k in ops[0]:
                ops[0][k].setdefault("request", {}).setdefault("attributes", []).append("nope")
                break
    elif what == "duplicate-attr":
        main.append(dict(a0))
    elif what == "repeated-attr":
        # word for word, explicit value included (6.18's ethtool.yaml, set 'strings'): harmless
        rep = next((a for a in main if "value" in a), None)
        if rep is None:
            rep = {"name": "unspec", "type": "unused", "value": 0}
            main.insert(0, rep)
        main.insert(main.index(rep) + 1, dict(rep))
    elif what == "per-op-two-requests":
        # a genl_ops entry has one policy: do and dump requests that differ cannot both be it
        spec["protocol"] = "genetlink-legacy"
        spec["kernel-policy"] = "per-op"
        named = [a["name"] for a in main if a["type"] not in ("unused", "pad")]
        op = next((o for o in ops if "notify" not in o and "event" not in o), None)
        if op is not None and len(named) > 1:
            op["attribute-set"] = spec["attribute-sets"][0]["name"]
            # the replies stay: a notification may reuse them
            op.setdefault("do", {})["request"] = {"attributes": named[:1]}
            op.setdefault("dump", {})["request"] = {"attributes": named[1:2]}
    elif what == "min-above-max":
        if ints:
            a = rng.choice(ints)
            a["checks"] = {"min": 10, "max": 5}
    elif what == "negative-min":
        if ints:
            a = rng.choice(ints)
            a["checks"] = {"min": -3}
    elif what == "len-check-on-int":
        if ints:
            rng.choice(ints)["checks"] = {"max-len": 4}
    elif what == "proto-key-too-new":
        if spec["protocol"] == "genetlink":
            spec["c-family-name"] = "x-name"
        elif spec["protocol"] == "genetlink-c":
            spec["kernel-policy"] = "global"
        else:
            spec["operations"]["list"][0]["flags"] = ["root-perm"]
    elif what == "doc-not-string":
        a0["doc"] = rng.choice([5, True, None])
    elif what == "missing-attr-type":
        a0.pop("type", None)
        for k in ("nested-attributes", "sub-type", "checks"):
            a0.pop(k, None)
    elif what == "subset-with-prefix":
        spec["attribute-sets"].append({"name": "subx", "subset-of": "main", "name-prefix": "x-",
                                       "attributes": [{"name": a0["name"]}]})
    elif what == "duplicate-attr-value":
        if len(main) >= 2:
            main[-1]["value"] = 1
            main[0]["value"] = 1
    elif what == "flags-mask-enum":
        if unsigned and enums:
            rng.choice(unsigned)["checks"] = {"flags-mask": enums[0]}
        elif unsigned:
            rng.choice(unsigned)["checks"] = {"flags-mask": "no-such-flags"}
    elif what == "notify-missing-op":
        ops.append({"name": "o-bad-ntf", "doc": "x", "notify": "no-such-op"})
    elif what == "mcgrp-missing":
        ops.append({"name": "o-bad-ev", "doc": "x", "attribute-set": "main",
                    "event": {"attributes": [a0["name"]]}, "mcgrp": "no-such-group"})
    elif what == "bad-name-chars":
        a0["name"] = rng.choice(["has space", "dot.name", "9lives", "UPPER", "ü-name"])
    elif what == "op-missing-doc":
        ops[0].pop("doc", None)
    elif what == "duplicate-op-name":
        ops.append(dict(ops[0]))
    elif what == "enum-dup-entry":
        d = [d for d in spec.get("definitions", []) if d["type"] in ("enum", "flags")]
        if d:
            d[0]["entries"] = list(d[0]["entries"]) + [d[0]["entries"][0]]
    elif what == "value-start-string":
        d = [d for d in spec.get("definitions", []) if d["type"] in ("enum", "flags")]
        if d:
            d[0]["value-start"] = rng.choice(["foo", "1 + 2", "-1"])
    elif what == "big-max-len":
        if strings:
            rng.choice(strings)["checks"] = {"max-len": rng.choice([65535, 65536, 100000])}
    elif what == "max-for-type":
        if ints:
            a = rng.choice(ints)
            a["checks"] = {"max": rng.choice(["u8-max", "u16-max", "u32-max", "s8-max", "s16-min",
                                              "u64-max", "s32-min"])}
    elif what == "check-on-string-min":
        if strings:
            rng.choice(strings)["checks"] = {"min": 3}
    elif what == "hint-bad":
        a0["display-hint"] = "decimal"
    elif what == "nest-no-set":
        a0.clear()
        a0.update({"name": "broken", "type": "nest"})
    elif what == "missing-struct":
        a0.clear()
        a0.update({"name": "broken", "type": "binary", "struct": "no-such-struct"})
    elif what == "small-signed-attr":
        a0.clear()
        a0.update({"name": "small", "type": rng.choice(["s8", "s16"])})
    elif what == "uint-member" or what == "pad-member":
        spec.setdefault("definitions", []).append(
            {"name": "bad-struct", "type": "struct",
             "members": [{"name": "m", "type": "uint" if what == "uint-member" else "pad"}]})
    elif what == "big-op-value":
        ops[-1]["value"] = rng.choice([255, 256, 1000])


def dump_spec(spec):
    import yaml
    text = yaml.safe_dump(spec, sort_keys=False, default_flow_style=None, width=100)
    return ("# SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)\n"
            "---\n" + text)


# -- the referees ----------------------------------------------------------------------------

class KernelGen:
    """ynl-gen-c.py imported once; main() per call, its stdout captured."""

    def __init__(self, tree):
        ynl = os.path.join(tree, "tools/net/ynl")
        path = os.path.join(ynl, "ynl-gen-c.py")
        if not os.path.exists(path):
            path = os.path.join(ynl, "pyynl/ynl_gen_c.py")
        sys.path.insert(0, os.path.dirname(path))
        sys.path.insert(0, ynl)
        spec = importlib.util.spec_from_file_location("ynl_gen_c_referee", path)
        self.mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.mod)
        # every call reads its protocol's schema again (pure-Python YAML, most of the time of a
        # call): the schema files' parses are kept
        import yaml
        plain_load, kept = yaml.safe_load, {}

        def safe_load(stream):
            name = getattr(stream, "name", "")
            if not isinstance(name, str) or not name.endswith(tuple(p + ".yaml" for p in PROTOS)):
                return plain_load(stream)
            if name not in kept:
                kept[name] = plain_load(stream)
            return kept[name]
        yaml.safe_load = safe_load
        # and jsonschema.validate() checks the schema itself and builds a validator on every
        # call (most of the rest): one validator per schema, the same error raised
        import jsonschema
        jsonschema.validate = cached_validate

    def run(self, spec_path, *args):
        """(ok, output or message)"""
        out = io.StringIO()
        saved = sys.argv
        # kernel mode needs -o (it names the header); the output reaches the file when main()'s
        # CodeWriter is collected, so the file is read after gc.collect()
        out_file = os.path.join(os.path.dirname(spec_path), "..", "referee.out")
        if os.path.exists(out_file):
            os.unlink(out_file)
        sys.argv = ["ynl-gen-c.py", *args, "--spec", spec_path, "-o", out_file]
        ok, msg = True, None
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                self.mod.main()
        except SystemExit as e:
            ok = e.code in (None, 0)
            msg = out.getvalue().strip().splitlines()[-1:] or [str(e)]
            msg = msg[0]
        except Exception as e:  # noqa: BLE001 -- any exception is the referee's refusal
            ok = False
            msg = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        finally:
            sys.argv = saved
            gc.collect()
        if not ok:
            return ok, msg
        with open(out_file) as f:
            return ok, f.read()


VALIDATORS = {}


def cached_validate(instance, schema, *args, **kwargs):
    """jsonschema.validate(), its validator built once per schema"""
    import jsonschema
    key = id(schema)
    if key not in VALIDATORS:
        with warnings.catch_warnings():  # the specs' draft-07 $schema URL lacks its '#'
            warnings.simplefilter("ignore", DeprecationWarning)
            cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        VALIDATORS[key] = (schema, cls(schema))
    error = jsonschema.exceptions.best_match(VALIDATORS[key][1].iter_errors(instance))
    if error is not None:
        raise error


def schema_verdict(tree, spec, proto, cache={}):
    import jsonschema
    import yaml
    if proto not in cache:
        with open(os.path.join(tree, "Documentation/netlink/%s.yaml" % proto)) as f:
            cache[proto] = yaml.safe_load(f)
    try:
        cached_validate(spec, cache[proto])
        return True, None
    except jsonschema.ValidationError as e:
        return False, e.message[:100]


def normalize_uapi(text):
    text = re.sub(r"/\* Do not edit directly.*?\*/\n/\*.*?\*/\n", "", text, flags=re.S)
    text = re.sub(r"KFSIM_YNL_[A-Z0-9_]*_UAPI_H", "GUARD", text)
    text = re.sub(r"_UAPI_LINUX_[A-Z0-9_]*_H", "GUARD", text)
    return text


# -- policy tables, text level ----------------------------------------------------------------

def enum_values(uapi):
    """NAME -> value for every enum constant of a uapi header (C rules: count on from the last)"""
    vals = {}
    for body in re.findall(r"enum\s*[a-z0-9_]*\s*\{(.*?)\};", uapi, flags=re.S):
        nxt = 0
        for item in body.split(","):
            item = re.sub(r"/\*.*?\*/", "", item, flags=re.S).strip()
            if not item:
                continue
            if "=" in item:
                name, expr = [x.strip() for x in item.split("=", 1)]
                v = eval_c(expr, vals)
                if v is None:
                    continue
            else:
                name, v = item, nxt
            vals[name] = v
            nxt = v + 1
    for name, expr in re.findall(r"#define\s+([A-Z0-9_]+)\s+(.+)", uapi):
        v = eval_c(expr, vals)
        if v is not None:
            vals[name] = v
    return vals


def eval_c(expr, vals):
    expr = re.sub(r"/\*.*?\*/", "", expr).strip()
    expr = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", expr)
    toks = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\d+|[-+()|<>*]+", expr)
    out = []
    for t in toks:
        if re.match(r"[A-Za-z_]", t):
            if t not in vals:
                return None
            out.append(str(vals[t]))
        else:
            out.append(t)
    try:
        return int(eval(" ".join(out), {"__builtins__": {}}))  # noqa: S307 -- digits and operators
    except Exception:  # noqa: BLE001
        return None


def policy_tables(src, vals):
    """table name -> (size, {index: normalized entry}) of a kernel-mode source"""
    tables = {}
    for name, size, body in re.findall(
            r"const struct nla_policy ([a-z0-9_]+)\[([^\]]+)\] = \{\n(.*?)\n\};", src, flags=re.S):
        entries = {}
        for line in body.splitlines():
            m = re.match(r"\s*\[([^\]]+)\] = (.*?),?\s*(/\*.*\*/)?\s*$", line)
            if not m:
                continue
            idx = eval_c(m.group(1), vals)
            entries[idx] = norm_entry(m.group(2))
        tables[name] = (eval_c(size, vals), entries)
    return tables


LIMITS = {"U8_MAX": 255, "U16_MAX": 65535, "U32_MAX": 4294967295, "S8_MIN": -128,
          "S8_MAX": 127, "S16_MIN": -32768, "S16_MAX": 32767, "S32_MIN": -2147483648,
          "S32_MAX": 2147483647}


def norm_entry(e):
    """one spelling per value: limits and hex as decimal, the plain { .type = T, } as T"""
    e = e.strip().rstrip(",")
    e = re.sub(r"\b[US](8|16|32)_M(AX|IN)\b", lambda m: str(LIMITS[m.group(0)]), e)
    e = re.sub(r"\b0x([0-9a-fA-F]+)\b", lambda m: str(int(m.group(1), 16)), e)
    e = re.sub(r"\s+", " ", e)
    e = re.sub(r"\{ \.type = (NLA_[A-Z0-9_]+), \}", r"\1", e)
    e = re.sub(r"\{ \.type = (NLA_[A-Z0-9_]+) \}", r"\1", e)
    return e


# -- one spec ---------------------------------------------------------------------------------

class Result:
    def __init__(self, seed, proto, mutation):
        self.seed, self.proto, self.mutation = seed, proto, mutation
        self.schema = self.kernel = self.kfsim = None
        self.kernel_msg = self.kfsim_msg = self.schema_msg = ""
        self.diffs = []  # (what, cause, detail)


def check_seed(seed, kgen, gen, tree, root):
    spec, proto, mutation = gen_spec(seed)
    r = Result(seed, proto, mutation)
    specdir = os.path.join(root, "Documentation/netlink/specs")
    path = os.path.join(specdir, "%s.yaml" % spec["name"].replace("-", "_"))
    with open(path, "w") as f:
        f.write(dump_spec(spec))
    r.schema, r.schema_msg = schema_verdict(tree, spec, proto)

    okh, hdr = kgen.run(path, "--mode", "kernel", "--header")
    oks, src = kgen.run(path, "--mode", "kernel", "--source") if okh else (False, hdr)
    r.kernel, r.kernel_msg = okh and oks, ("" if okh and oks else hdr if not okh else src)

    out = os.path.join(root, "out")
    shutil.rmtree(out, ignore_errors=True)
    try:
        p = subprocess.run([gen, "--mode", "uapi", "--mode", "kernel", "--out-dir", out, path],
                           capture_output=True, text=True, errors="replace", timeout=20)
        r.kfsim = p.returncode == 0
        r.kfsim_msg = (p.stderr.strip().splitlines() or [""])[0].replace(path + ":", "")
        if p.returncode not in (0, 1):
            r.diffs.append(("crash", "kfsim-exit-%d" % p.returncode, r.kfsim_msg))
            return r
        # a sanitizer build (ASan+UBSan) reports in stderr and may still exit 1
        bad = re.search(r"(ERROR: \w+Sanitizer.*|runtime error:.*)", p.stderr)
        if bad:
            r.diffs.append(("crash", "kfsim-sanitizer", bad.group(1)[:120]))
            return r
    except subprocess.TimeoutExpired:
        r.kfsim = False
        r.diffs.append(("hang", "kfsim-timeout", "more than 20 s"))
        return r

    if r.kernel != r.kfsim:
        r.diffs.append(("verdict", classify_verdict(r),
                        "ynl-gen-c.py %s (%s), kfsim %s (%s)" % (
                            "accepts" if r.kernel else "refuses", r.kernel_msg[:90],
                            "accepts" if r.kfsim else "refuses", r.kfsim_msg[:90])))
        return r
    if not r.kernel:
        return r

    ident = spec["name"].replace("-", "_")
    kf_uapi = open(os.path.join(out, ident + "-uapi.h")).read()
    kf_src = open(os.path.join(out, ident + "-kernel.c")).read()
    directional = spec["operations"].get("enum-model") == "directional"
    if not directional:
        oku, kuapi = kgen.run(path, "--mode", "uapi", "--header")
        if not oku:
            r.diffs.append(("uapi", "kernel-uapi-refused", kuapi[:100]))
        elif normalize_uapi(kuapi) != normalize_uapi(kf_uapi):
            a, b = normalize_uapi(kuapi).splitlines(), normalize_uapi(kf_uapi).splitlines()
            # a name with a space: ynl-gen-c.py keeps it in the enumerator (no C), kfsim '_'
            spaced = [re.sub(r"^(\t[A-Z0-9_ ]+?)(,| =)",
                             lambda m: m.group(1).replace(" ", "_") + m.group(2), x) for x in a]
            first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]),
                         min(len(a), len(b)))
            r.diffs.append(("uapi", "uapi-text:space-in-name" if spaced == b else "uapi-text",
                            "line %d: kernel %r, kfsim %r" % (
                                first + 1, a[first] if first < len(a) else "<end>",
                                b[first] if first < len(b) else "<end>")))
        # the kernel's names resolved through its own header, or kfsim's where it has none
        vals = enum_values(kuapi if oku else kf_uapi)
    else:
        vals = enum_values(kf_uapi)
    kt, ft = policy_tables(src, vals), policy_tables(kf_src, enum_values(kf_uapi))
    # equal do and dump requests: ynl-gen-c.py prints F_op_do_ and F_op_dump_nl_policy, kfsim
    # one F_op_nl_policy for both (docs/ynl.md): each of the two is compared with the shared one
    for name in list(ft):
        base = name[:-len("_nl_policy")]
        halves = [base + "_do_nl_policy", base + "_dump_nl_policy"]
        if name not in kt and all(h in kt for h in halves):
            for h in halves:
                ft[h] = ft[name]
            del ft[name]
    for name in sorted(set(kt) | set(ft)):
        if name not in ft or name not in kt:
            r.diffs.append(("policy", "table-presence",
                            "%s only in %s" % (name, "ynl-gen-c.py" if name in kt else "kfsim")))
            continue
        (ks, ke), (fs, fe) = kt[name], ft[name]
        if ks != fs:
            r.diffs.append(("policy", "table-size", "%s: [%s] vs [%s]" % (name, ks, fs)))
        for idx in sorted(set(ke) | set(fe), key=lambda x: (x is None, x or 0)):
            if ke.get(idx) != fe.get(idx):
                kind = "entry:%s/%s" % (re.sub(r"\(.*", "", ke.get(idx) or "none"),
                                        re.sub(r"\(.*", "", fe.get(idx) or "none"))
                r.diffs.append(("policy", kind, "%s[%s]: kernel %s, kfsim %s" % (
                    name, idx, ke.get(idx), fe.get(idx))))
    return r


def shape(msg):
    """A message without its names and numbers: what kind of refusal it is"""
    msg = re.sub(r"^\d+:\d+: ", "", msg)
    msg = re.sub(r"'[^']*'", "'X'", msg)
    msg = re.sub(r'"[^"]*"', "'X'", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg[:60]


def classify_verdict(r):
    """A cause, for counting: which side refuses, and the shape of its message"""
    if r.kernel:
        return "kfsim-refuses:" + shape(r.kfsim_msg)
    return "kernel-refuses:" + shape(r.kernel_msg)


def compile_some(args, work, results):
    """kfsim's C for the first --compile accepted specs: -Werror builds, clean round trips.
    What the text comparison cannot see (spec_fuzz.py seeds 6100..6399 found an INT64_MIN
    literal, a test mask drifted from the policy's, a 1-byte fixed header): as diffs."""
    built = 0
    for r in results:
        if built >= args.compile:
            break
        if not r.kfsim:
            continue
        spec, _, _ = gen_spec(r.seed)
        d = os.path.join(work, "cc", str(r.seed))
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "spec.yaml")
        with open(path, "w") as f:
            f.write(dump_spec(spec))
        ident = spec["name"].replace("-", "_")
        p = subprocess.run([args.gen, "--mode", "uapi", "--mode", "kernel", "--mode", "user",
                            "--mode", "test", "--out-dir", d, path], capture_output=True,
                           text=True, errors="replace", timeout=60)
        if p.returncode:
            r.diffs.append(("compile", "kfsim-all-modes-refused", p.stderr.strip()[:120]))
            continue
        exe = os.path.join(d, "test")
        p = subprocess.run([args.cc, "-std=gnu11", "-O0", "-Wall", "-Wextra", "-Werror"] +
                           args.cflags.split() + ["-I" + d, "-o", exe,
                                                  os.path.join(d, ident + "-test.c")] +
                           args.libs.split(), capture_output=True, text=True, errors="replace",
                           timeout=120)
        if p.returncode:
            err = next((x for x in p.stderr.splitlines() if "error" in x), p.stderr[:120])
            r.diffs.append(("compile", "cc-error", err.replace(d + "/", "")[:160]))
            continue
        try:
            p = subprocess.run([exe, "3"], capture_output=True, text=True, errors="replace",
                               timeout=60)
            if p.returncode:
                r.diffs.append(("compile", "roundtrip-failed",
                                " ".join(p.stderr.splitlines()[:2])[:160]))
                continue
        except subprocess.TimeoutExpired:
            r.diffs.append(("compile", "roundtrip-timeout", "more than 60 s"))
            continue
        built += 1
    return built


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", default=os.environ.get("KFSIM_LINUX_TREE", ""),
                    help="unpacked linux source tree (default: $KFSIM_LINUX_TREE, the oracle "
                         "fixture's)")
    ap.add_argument("--gen", required=True, help="kfsim-ynl-gen")
    ap.add_argument("--seeds", default="0:100", help="A:B, seeds A..B-1")
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    ap.add_argument("--show", type=int, default=3, help="details printed per cause")
    ap.add_argument("--dump", type=int, help="print the spec of this seed and exit")
    ap.add_argument("--known", help="file of known causes: 'CAUSE | reason' lines")
    ap.add_argument("--compile", type=int, default=0, metavar="N",
                    help="also build kfsim's C (uapi, kernel, user, test) of the first N specs "
                         "kfsim accepts with CC -Wall -Wextra -Werror and run the round trips")
    ap.add_argument("--cc", default="cc", help="C compiler for --compile")
    ap.add_argument("--cflags", default="", help="flags for --compile (kfsim's include dirs)")
    ap.add_argument("--libs", default="", help="what --compile links (libkfsim.a ...)")
    args = ap.parse_args()

    if args.dump is not None:
        print(dump_spec(gen_spec(args.dump)[0]), end="")
        return 0
    if not args.tree:
        print("skipped: no linux tree (--tree or KFSIM_LINUX_TREE, the oracle fixture)")
        return 77
    for need in ("tools/net/ynl", "Documentation/netlink/genetlink.yaml"):
        if not os.path.exists(os.path.join(args.tree, need)):
            print("skipped: %s/%s is missing (the kernel's generator)" % (args.tree, need))
            return 77
    try:
        import jsonschema  # noqa: F401
        import yaml  # noqa: F401
    except ImportError as e:
        print("skipped: %s (python3-yaml and python3-jsonschema are ynl-gen-c.py's)" % e)
        return 77

    work = args.work or tempfile.mkdtemp(prefix="ynl-spec-fuzz-")
    root = os.path.join(work, "tree")
    nl = os.path.join(root, "Documentation/netlink")
    os.makedirs(os.path.join(nl, "specs"), exist_ok=True)
    open(os.path.join(root, "MAINTAINERS"), "w").close()  # ynl-gen-c.py looks for the root
    for p in PROTOS:
        shutil.copy(os.path.join(args.tree, "Documentation/netlink/%s.yaml" % p), nl)
    kgen = KernelGen(args.tree)
    known = {}
    if args.known and os.path.exists(args.known):
        for line in open(args.known):
            if "|" in line and not line.startswith("#"):
                k, v = line.split("|", 1)
                known[k.strip()] = v.strip()

    a, b = (int(x) for x in args.seeds.split(":"))
    results = []
    for seed in range(a, b):
        for f in os.listdir(os.path.join(nl, "specs")):
            os.unlink(os.path.join(nl, "specs", f))
        results.append(check_seed(seed, kgen, args.gen, args.tree, root))

    built = compile_some(args, work, results) if args.compile else 0

    n = len(results)
    both_ok = sum(1 for r in results if r.kernel and r.kfsim)
    both_no = sum(1 for r in results if r.kernel is False and r.kfsim is False)
    schema_no = sum(1 for r in results if not r.schema)
    mutated = sum(1 for r in results if r.mutation)
    print("spec_fuzz: seeds %d..%d: %d specs (%d with one mistake; %d refused by the YNL schema)"
          % (a, b - 1, n, mutated, schema_no))
    print("  verdict: both accept %d, both refuse %d, disagree %d" % (
        both_ok, both_no, sum(1 for r in results if any(d[0] == "verdict" for d in r.diffs))))
    print("  compared for the %d both accept: uapi header (unified specs) and every nla_policy "
          "table entry and size" % both_ok)
    by_cause = {}
    for r in results:
        for what, cause, detail in r.diffs:
            by_cause.setdefault((what, cause), []).append((r, detail))
    status = 0
    for (what, cause), items in sorted(by_cause.items()):
        key = "%s %s" % (what, cause)
        reason = known.get(key)
        print("  %s %-40s %d spec(s)%s" % ("known" if reason else "DIFF ", key, len(items),
                                            (": " + reason) if reason else ""))
        if not reason:
            status = 1
        for r, detail in items[:args.show]:
            print("      seed %d (%s%s): %s" % (r.seed, r.proto,
                                                 ", " + r.mutation if r.mutation else "", detail))
    if args.compile:
        print("  compiled with -Werror and ran: %d spec(s) kfsim accepts" % built)
    if not by_cause:
        print("  no difference")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
