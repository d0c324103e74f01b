#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The closed ABI, checked both ways:

  1. every symbol libkfsim.so exports (nm -D --defined-only) is declared in an installed header:
     a probe that includes every header and takes each symbol's address must compile;
  2. every function an installed header declares (and that is not static inline) is exported:
     gcc -aux-info on the same probe lists those declarations.

The library is built with -fvisibility=hidden and each public header wraps itself in
`#pragma GCC visibility push(default)`; (1) fails when an internal name leaks out, (2) when a
public header forgets the pragma.  A sentinel name that no header declares must be reported by
(1), which shows the probe really compiles against the headers.

usage: check_exports.py LIBKFSIM_SO CC INCLUDE_DIR...
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

SENTINEL = "kfsim_abi_probe_sentinel_not_declared"
# What the toolchain defines in every shared object: not kfsim's API.
LINKER_SYMBOLS = {"_init", "_fini", "_edata", "_end", "__bss_start"}
# AddressSanitizer's one-definition-rule indicator beside each exported global (ASan builds).
SANITIZER_PREFIXES = ("__odr_asan.",)


def exported(lib):
	out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
			     stdout=subprocess.PIPE, text=True).stdout
	names = {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}
	return sorted(n for n in names - LINKER_SYMBOLS if not n.startswith(SANITIZER_PREFIXES))


def headers(include_dirs):
	found = {}
	for d in include_dirs:
		for path in sorted(glob.glob(os.path.join(d, "kfsim", "*.h"))):
			found.setdefault(os.path.basename(path), path)
	return found


def probe(cc, include_dirs, hdrs, symbols, tmp):
	"""Compile the probe; return (names it found undeclared, aux-info text)."""
	src = os.path.join(tmp, "probe.c")
	aux = os.path.join(tmp, "probe.aux")
	with open(src, "w") as f:
		for name in sorted(hdrs):
			f.write(f"#include <kfsim/{name}>\n")
		f.write("void kfsim_abi_probe(void);\nvoid kfsim_abi_probe(void)\n{\n")
		for sym in symbols + [SENTINEL]:
			f.write(f"\t(void)&{sym};\n")
		f.write("}\n")
	cmd = [cc, "-std=gnu11", "-fsyntax-only", "-fmax-errors=0", f"-aux-info={aux}", src]
	cmd += [f"-I{d}" for d in include_dirs]
	proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
	undeclared = set(re.findall(r"[‘'](\w+)[’'] undeclared", proc.stdout))
	if proc.returncode and not undeclared:
		sys.exit("check_exports: the probe does not compile:\n" + proc.stdout)
	if not proc.returncode or SENTINEL not in undeclared:
		sys.exit("check_exports: the probe did not notice an undeclared name; it proves nothing")
	# The failed compile still wrote nothing to aux-info: redo it without the symbols.
	with open(src, "w") as f:
		for name in sorted(hdrs):
			f.write(f"#include <kfsim/{name}>\n")
	subprocess.run(cmd, check=True)
	with open(aux) as f:
		return undeclared - {SENTINEL}, f.read()


def declared_functions(aux_text, hdr_paths):
	"""Functions the installed headers declare with external linkage (not static inline)."""
	names = {}
	real = {os.path.realpath(p) for p in hdr_paths}
	for line in aux_text.splitlines():
		m = re.match(r"/\* (\S+):(\d+):(\w+) \*/ (.*)", line)
		if not m or os.path.realpath(m.group(1)) not in real:
			continue
		decl = m.group(4)
		if decl.startswith("static") or re.match(r"(extern )?inline\b", decl):
			continue
		fn = re.search(r"(\w+) \(", decl)
		if fn:
			names[fn.group(1)] = f"{os.path.basename(m.group(1))}:{m.group(2)}"
	return names


def main(argv):
	if len(argv) < 4:
		sys.exit(__doc__.strip().splitlines()[-1])
	lib, cc, include_dirs = argv[1], argv[2], argv[3:]
	version = subprocess.run([cc, "--version"], stdout=subprocess.PIPE, text=True).stdout
	if "clang" in version:	# -aux-info is gcc's: probe with gcc, as users of gcc would
		cc = shutil.which("gcc")
		if not cc:
			print("skipped: the probe needs gcc's -aux-info and gcc is not installed")
			return 77
	symbols = exported(lib)
	hdrs = headers(include_dirs)
	print(f"{os.path.basename(lib)}: {len(symbols)} exported symbols; {len(hdrs)} installed headers")
	with tempfile.TemporaryDirectory(prefix="kfsim-abi-") as tmp:
		undeclared, aux = probe(cc, include_dirs, hdrs, symbols, tmp)
	declared = declared_functions(aux, hdrs.values())
	missing = sorted(n for n in declared if n not in set(symbols))
	print(f"(1) exported but declared in no installed header: {len(undeclared)}")
	for n in sorted(undeclared):
		print(f"    {n}")
	print(f"(2) declared in an installed header but not exported: {len(missing)} "
	      f"(of {len(declared)} declared functions)")
	for n in missing:
		print(f"    {n} ({declared[n]})")
	return 1 if undeclared or missing else 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
