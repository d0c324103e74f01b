#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Sliced grids, end to end: each grid (plca sweep, bfq compare, bfq ablate) runs once whole,
then in N slices through GNU parallel (--shard {}/N, and PARALLEL_SEQ with --shard-count), as a
Slurm array (SLURM_ARRAY_TASK_*) and as a Kubernetes Indexed Job (JOB_COMPLETION_INDEX with
KFSIM_SHARD_COUNT), and on --jobs 2 threads; `kfsim merge` of every slicing must write exactly
the whole run's stdout, CSV and SVG files.  Then bad partial sets: incomplete, overlapping,
another grid, a cut file, not a partial file at all: refused with exit 1, every problem named,
nothing written.  And bad slicing command lines: exit 2 and one line."""
import filecmp
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile

KFSIM = os.path.abspath(sys.argv[1])
CLEAN_ENV = {k: v for k, v in os.environ.items()
	     if not k.startswith(("SLURM_", "PARALLEL", "JOB_COMPLETION", "KFSIM_SHARD"))}
FAILS = []

# the job files and trace the grids below name; a partial file may name only files below the
# directory kfsim runs in, so every run directory gets a copy (mkrun())
HERE = os.path.dirname(os.path.abspath(__file__))
SYNC_FIO = "sync_writer.fio"
SS_FIO = "ss_rwmix.fio"
TRACE = "two_devices.blkparse"
INPUTS = [SYNC_FIO, SS_FIO, TRACE]


def mkrun(d):
	os.makedirs(d)
	for name in INPUTS:
		shutil.copy(os.path.join(HERE, name), d)


GRIDS = {
	"plca-sweep": (["plca", "sweep", "--nodes", "4", "--duration", "20ms", "--quiet",
			"--csv", "out.csv", "--svg", "out"], ["out.csv", "out-throughput.svg",
							     "out-latency.svg"]),
	"plca-sweep-json": (["plca", "sweep", "--nodes", "3", "--load", "poisson:500",
			     "--duration", "10ms", "--seed", "7", "--json"], []),
	"bfq-compare": (["bfq", "compare", "--job", "name=a,rw=randread", "--job", "name=b,rw=read",
			 "--duration", "0.2", "--quiet", "--svg", "out.svg"], ["out.svg"]),
	# what a slice's record must carry besides: syncs, I/Os per direction, depth limits
	"bfq-compare-fio": (["bfq", "compare", "--fio", SYNC_FIO, "--duration", "0.2", "--quiet"],
			    []),
	"bfq-ablate-fio-json": (["bfq", "ablate", "--fio", SYNC_FIO, "--duration", "0.2",
				 "--quiet", "--param", "slice_idle_us", "--values", "0,8000",
				 "--json"], []),
	"bfq-ablate": (["bfq", "ablate", "--job", "name=a,rw=randread", "--job", "name=b,rw=read",
			"--duration", "0.2", "--quiet", "--param", "slice_idle_us",
			"--values", "0,2000,8000", "--json", "--svg", "out.svg"], ["out.svg"]),
	# steady state (its window's samples are in --json), rwmix with fsyncs, a buffered writer
	# (writeback), four actuators: every scheduler a point
	"bfq-compare-ss-json": (["bfq", "compare", "--fio", SS_FIO, "--duration", "1.5",
				 "--actuators", "4", "--quiet", "--json", "--svg", "out.svg"],
				["out.svg"]),
	"bfq-compare-ss": (["bfq", "compare", "--fio", SS_FIO, "--duration", "1.5", "--quiet"], []),
	# a trace of two devices, each spread over its share of the disk
	"bfq-ablate-replay": (["bfq", "ablate", "--replay", TRACE, "--replay-scale", "--duration",
			       "0.2", "--quiet", "--param", "threshold", "--values", "1,4,16",
			       "--json", "--svg", "out.svg"], ["out.svg"]),
}

# what a grid's unsharded output must show, so that its merge proves those figures carried
SHOWS = {
	"bfq-ablate-fio-json": ['"sync": {', '"write_ios": '],
	"bfq-compare-ss-json": ['"steadystate": {', '"bw": [', '"iops": [', '"sync": {',
				'"writeback_bytes": ', '"shallow_allocs": '],
	"bfq-ablate-replay": ['"replay_issued": ', '"replay_lag_max_us": '],
}


def check(ok, what):
	print(("ok   " if ok else "FAIL ") + what)
	if not ok:
		FAILS.append(what)


def run(args, cwd, env=None, timeout=120, **kw):
	return subprocess.run([KFSIM] + args, cwd=cwd, env=env or CLEAN_ENV, text=True,
			      stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, **kw)


def whole(name, args, top):
	d = os.path.join(top, name, "whole")
	mkrun(d)
	p = run(args, d)
	check(p.returncode == 0, f"{name}: unsharded run exits 0 ({p.stderr.strip()[-200:]})")
	with open(os.path.join(d, "stdout"), "w") as f:
		f.write(p.stdout)
	for text in SHOWS.get(name, []):
		check(text in p.stdout, f"{name}: the unsharded run shows {text!r} (the merge must too)")
	return d


def merge_and_compare(name, how, parts_dir, files, whole_dir):
	d = parts_dir + "-merged"
	mkrun(d)
	parts = sorted(os.path.join(parts_dir, f) for f in os.listdir(parts_dir)
		       if f.endswith(".jsonl"))
	p = run(["merge"] + parts, d)
	check(p.returncode == 0, f"{name}/{how}: kfsim merge of {len(parts)} partial files exits 0 "
	      f"({p.stderr.strip()[-300:]})")
	with open(os.path.join(d, "stdout"), "w") as f:
		f.write(p.stdout)
	for fname in ["stdout"] + files:
		same = os.path.exists(os.path.join(d, fname)) and filecmp.cmp(
			os.path.join(d, fname), os.path.join(whole_dir, fname), shallow=False)
		check(same, f"{name}/{how}: merged {fname} is byte-identical to the unsharded run's")
	return parts


def shard_runs(name, args, files, top, whole_dir, n):
	base = os.path.join(top, name)
	sliced = {}
	# GNU parallel, the index as an argument
	d = os.path.join(base, "parallel")
	mkrun(d)
	p = subprocess.run(["parallel", "--will-cite", "-j", "2", KFSIM] + args +
			   ["--shard", "{}/" + str(n), ":::"] + [str(i) for i in range(n)],
			   cwd=d, env=CLEAN_ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
			   text=True, timeout=300)
	check(p.returncode == 0, f"{name}: parallel --shard {{}}/{n} exits 0 ({p.stderr[-300:]})")
	sliced["parallel"] = merge_and_compare(name, "parallel", d, files, whole_dir)
	# GNU parallel's own job number: PARALLEL_SEQ, with the count given
	d = os.path.join(base, "parallel-seq")
	mkrun(d)
	p = subprocess.run(["parallel", "--will-cite", "-j", "2", "-N0", KFSIM] + args +
			   ["--shard-count", str(n), ":::"] + ["x"] * n, cwd=d, env=CLEAN_ENV,
			   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
	check(p.returncode == 0, f"{name}: parallel with PARALLEL_SEQ exits 0 ({p.stderr[-300:]})")
	merge_and_compare(name, "parallel-seq", d, files, whole_dir)
	# a Slurm array 3..3+n-1 and a Kubernetes Indexed Job
	for how, env_of in (("slurm", lambda i: {"SLURM_ARRAY_TASK_ID": str(3 + i),
						 "SLURM_ARRAY_TASK_MIN": "3",
						 "SLURM_ARRAY_TASK_COUNT": str(n)}),
			    ("k8s", lambda i: {"JOB_COMPLETION_INDEX": str(i),
					       "KFSIM_SHARD_COUNT": str(n)})):
		d = os.path.join(base, how)
		mkrun(d)
		for i in range(n):
			p = run(args, d, env={**CLEAN_ENV, **env_of(i)})
			check(p.returncode == 0 and p.stdout == "",
			      f"{name}/{how}: slice {i} exits 0 and prints nothing on stdout")
		merge_and_compare(name, how, d, files, whole_dir)
	# --jobs 2 in one process
	d = os.path.join(base, "jobs")
	mkrun(d)
	p = run(args + ["--jobs", "2"], d)
	same = p.returncode == 0 and p.stdout == open(os.path.join(whole_dir, "stdout")).read()
	for fname in files:
		same = same and filecmp.cmp(os.path.join(d, fname), os.path.join(whole_dir, fname),
					    shallow=False)
	check(same, f"{name}: --jobs 2 writes exactly what one thread writes")
	return sliced["parallel"]


def refused(what, paths, cwd, expect, timeout=120):
	before = set(os.listdir(cwd))
	p = run(["merge"] + paths, cwd, timeout=timeout)
	check(p.returncode == 1 and expect in p.stderr and "refused" in p.stderr and
	      set(os.listdir(cwd)) == before and p.stdout == "",
	      f"bad set refused, nothing written: {what} ({p.stderr.strip().splitlines()[:2]})")


def bad_sets(top, sweep_parts, compare_parts):
	d = os.path.join(top, "bad")
	mkrun(d)
	refused("one slice missing", sweep_parts[:-1], d, "missing")
	refused("a slice twice", sweep_parts + sweep_parts[:1], d, "in both")
	refused("slices of two grids", sweep_parts + compare_parts[:1], d, "another grid")
	cut = os.path.join(d, "cut.jsonl")
	with open(sweep_parts[0]) as f:
		lines = f.readlines()
	with open(cut, "w") as f:
		f.writelines(lines[:-1])
	refused("a file cut short", [cut] + sweep_parts[1:], d, "cut short")
	# a bad point line is named, and the lines after it are still read: the file's good
	# points count, its end line is found (no false "cut short"), a second bad line is named too
	spoilt = os.path.join(d, "spoilt.jsonl")
	with open(spoilt, "w") as f:
		f.writelines([lines[0], "garbage\n"] + lines[1:-1] + ["{}\n", lines[-1]])
	p = run(["merge", spoilt] + sweep_parts[1:], d)
	check(p.returncode == 1 and "line 2 is no point of this grid" in p.stderr and
	      f"line {len(lines) + 1} is no point of this grid" in p.stderr and
	      "cut short" not in p.stderr and "missing" not in p.stderr and p.stdout == "",
	      f"every bad point line named, the rest of the file read ({p.stderr.strip().splitlines()})")
	# a file of lines that are no points: ten named, then the file is called what it is
	with open(spoilt, "w") as f:
		f.writelines([lines[0]] + [f"junk {i}\n" for i in range(1000)])
	p = run(["merge", spoilt] + sweep_parts[1:], d)
	check(p.returncode == 1 and p.stderr.count("is no point of this grid") == 10 and
	      "not a partial result" in p.stderr,
	      f"a file of junk lines is told in 10 lines, not 1000 ({len(p.stderr.splitlines())} lines)")
	os.remove(spoilt)
	# hand-edited files: the header field that was broken is named; a header's slice must hold
	# its points; nothing may follow the end line; every damaged record is named with its line
	head = json.loads(lines[0])
	edits = []
	for what, change, expect in (
			("a header with points=2^64", {"points": 2 ** 64}, '"points"'),
			("a header with shard=shards", {"shard": head["shards"]}, '"shard"'),
			("a header with shards=0", {"shards": 0}, '"shards"'),
			("a header with args not a list", {"args": "plca sweep"}, '"args"'),
			("a header of another format", {"kfsim_partial": 2}, "kfsim_partial"),
			# an unsigned int's 2^32 above the real version: read as that version before
			("a header with kver 2^32 + its own", {"kver": head["kver"] + 2 ** 32},
			 '"kver"'),
			# told in the messages: an escape would rewrite the terminal's line
			("a header's grid with an escape", {"grid": "plca\x1b[2K sweep"}, '"grid"'),
			("a header's fingerprint not hex", {"fingerprint": "zz" + head["fingerprint"][2:]},
			 '"fingerprint"'),
			("a header naming another slice", {"shard": 1}, "no point of its slice"),
			# help printed would be the merge's stdout, as if it were the result
			("a recorded line asking for --help", {"args": head["args"] + ["--help"]},
			 "asks for --help")):
		edited = dict(head, **change)
		edits.append((what, json.dumps(edited, separators=(",", ":")) + "\n", lines[1:], expect))
	edits.append(("a header with blanks (json.dumps)", json.dumps(head) + "\n", lines[1:],
		      "blanks"))
	edits.append(("a point after the end line", lines[0], lines[1:] + lines[1:2],
		      f"line {len(lines) + 1} follows the end line"))
	nan = [re.sub(r'("rep.throughput_mbps":)[-0-9.e]+', r"\1NaN", lines[1]),
	       re.sub(r'("rep.events":)[0-9]+', r"\1-1", lines[2])]
	edits.append(("bare NaN and a negative count in records", lines[0], nan + lines[3:],
		      "line 3: point"))
	# a key given twice: the first was taken, the second unseen (and so any count of them)
	edits.append(("a header with \"points\" twice", lines[0].replace(
		'"points":', '"points":999999,"points":', 1), lines[1:], "each once"))
	edits.append(("a point line with \"point\" twice", lines[0], [lines[1].replace(
		'{"point":', '{"point":4,"point":', 1)] + lines[2:], "line 2 is no point"))
	edits.append(("an end line with \"end\" twice", lines[0],
		      lines[1:-1] + ['{"end":1,' + lines[-1][1:]], "cut short"))
	for i, (what, header, rest, expect) in enumerate(edits):
		path = os.path.join(d, f"edited{i}.jsonl")
		with open(path, "w") as f:
			f.writelines([header] + rest)
		refused(what, [path] + sweep_parts[1:], d, expect)
		os.remove(path)
	junk = os.path.join(d, "junk.jsonl")
	with open(junk, "w") as f:
		f.write("senders,mode\n1,plca\n")
	refused("not a partial file", [junk] + sweep_parts[1:], d, "not a kfsim partial")
	refused("a file that is not there", [os.path.join(d, "none.jsonl")], d, "cannot read")
	# no partial file at all, and never ending: its first line was read until memory ran out
	refused("/dev/zero first", ["/dev/zero"] + sweep_parts, d, "longer than 16 MiB", 30)
	refused("/dev/zero among the slices", sweep_parts + ["/dev/zero"], d,
		"longer than 16 MiB", 30)
	long = os.path.join(d, "long.jsonl")
	with open(long, "w") as f:
		f.write(lines[0] + "x" * (17 << 20) + "\n")
	refused("a point line of 17 MiB", [long] + sweep_parts[1:], d,
		"line 2 is longer than 16 MiB", 30)
	forged = os.path.join(d, "forged.jsonl")
	with open(sweep_parts[0]) as f:
		text = f.read()
	with open(forged, "w") as f:
		f.write(text.replace('"--nodes","4"', '"--nodes","5"'))
	refused("a header whose command line is not its grid's", [forged] + sweep_parts[1:], d,
		"fingerprint")
	# a partial is a file anyone may hand over: its command line runs only as the grid it is,
	# never as another command (`kfsim exec` would run any program, as whoever merges)
	evil = ["exec", "--", "/bin/sh", "-c", "touch PWNED"]
	for what, grid, expect in (("the header's grid kept", None, "its command line is 'exec --'"),
				   ("the grid named 'exec --' too", "exec --", "runs no grid")):
		forged_set = []
		for i, part in enumerate(sweep_parts):
			with open(part) as f:
				head, rest = f.read().split("\n", 1)
			header = json.loads(head)
			header["args"] = evil
			if grid:
				header["grid"] = grid
			forged_set.append(os.path.join(d, f"evil{i}.jsonl"))
			with open(forged_set[-1], "w") as f:
				f.write(json.dumps(header, separators=(",", ":")) + "\n" + rest)
		refused(f"a partial whose command line is another command ({what})", forged_set, d,
			expect)
		check(not os.path.exists(os.path.join(d, "PWNED")),
		      f"the command a forged partial names never runs ({what})")
		for path in forged_set:
			os.remove(path)


def bad_bfq_sets(top, parts):
	"""A bfq grid's slices, spoilt: refused, the damaged field named with its file and line."""
	d = os.path.join(top, "bad-bfq")
	mkrun(d)
	refused("bfq: one slice missing", parts[1:], d, "missing")
	refused("bfq: a slice twice", parts + parts[-1:], d, "in both")
	with open(parts[0]) as f:
		lines = f.readlines()
	cut = os.path.join(d, "cut.jsonl")
	with open(cut, "w") as f:
		f.writelines(lines[:-1])
	refused("bfq: a file cut short", [cut] + parts[1:], d, "cut short")
	os.remove(cut)
	# every slice with another fingerprint: the command line they record makes another one
	forged = []
	for i, part in enumerate(parts):
		with open(part) as f:
			text = f.read()
		forged.append(os.path.join(d, f"fp{i}.jsonl"))
		with open(forged[-1], "w") as f:
			f.write(re.sub(r'"fingerprint":"[0-9a-f]{16}"', '"fingerprint":"0123456789abcdef"',
				       text, count=1))
	refused("bfq: a fingerprint not of the recorded command line", forged, d, "fingerprint")
	for path in forged:
		os.remove(path)
	point = json.loads(lines[1])["point"]
	for what, pattern, repl, expect in (
			("a steady-state sample dropped", r'("jobs\.0\.ss_bw_data":\[)[0-9]+,?', r"\1",
			 '"jobs.0.ss_bw_data": '),
			("a bool of 2", r'("jobs\.1\.ss_attained":)[01]', r"\g<1>2",
			 '"jobs.1.ss_attained": 2 is beyond 1'),
			("a field deleted", r'"jobs\.1\.fsyncs":[0-9]+,', "", '"jobs.1.fsyncs": missing'),
			("a double that is no number", r'("mb_s":)[-0-9.e]+', r"\1x1",
			 '"mb_s": not a number'),
			("a count of jobs beyond the record", r'("nr_jobs":)[0-9]+', r"\g<1>999999",
			 '"jobs": 999999 of them')):
		spoilt = os.path.join(d, "spoilt.jsonl")
		line, n = re.subn(pattern, repl, lines[1], count=1)
		check(n == 1, f"bfq: the record has what '{what}' edits")
		with open(spoilt, "w") as f:
			f.writelines([lines[0], line] + lines[2:])
		refused(f"bfq: {what} in a record", [spoilt] + parts[1:], d,
			f"spoilt.jsonl': line 2: point {point}'s record is damaged: {expect}")
		os.remove(spoilt)


def forge(parts, d, tag, edit_args):
	"""The slices of @parts with their header's command line edited and the fingerprint the
	edited line makes (what anyone can compute: the merge's refusal names it)."""
	def write(fingerprint):
		out = []
		for i, part in enumerate(parts):
			with open(part) as f:
				head, rest = f.read().split("\n", 1)
			header = json.loads(head)
			header["args"] = edit_args(header["args"])
			if fingerprint:
				header["fingerprint"] = fingerprint
			out.append(os.path.join(d, f"{tag}{i}.jsonl"))
			with open(out[-1], "w") as f:
				f.write(json.dumps(header, separators=(",", ":")) + "\n" + rest)
		return out
	first = write(None)
	# --any-path: past the path check to the fingerprint's (refused there, nothing written)
	p = run(["merge", "--any-path"] + first, d)
	words = p.stderr.split("fingerprint ")
	return write(words[2].split()[0]) if len(words) > 2 else first


def foreign_paths(top, sweep_parts, compare_parts):
	"""A partial file names files its author chose: below the merge's directory only."""
	d = os.path.join(top, "paths")
	victim_dir = os.path.join(top, "victim")
	mkrun(d)
	os.makedirs(victim_dir)
	victim = os.path.join(victim_dir, "notes.txt")
	with open(victim, "w") as f:
		f.write("the user's own file\n")
	cases = (
		("an absolute --csv", sweep_parts, lambda a: a + ["--csv", victim], "--csv"),
		("a '..' --svg prefix", sweep_parts, lambda a: a + ["--svg", "../victim/x"], "--svg"),
		("an absolute --fio to read", compare_parts,
		 lambda a: [x for x in a] + ["--fio", "/etc/shadow"], "--fio"),
	)
	for what, parts, edit, flag in cases:
		forged = forge(parts, d, "f", edit)
		refused(f"{what} in a forged header", forged, d, flag)
		with open(victim) as f:
			check(f.read() == "the user's own file\n" and os.listdir(victim_dir) == ["notes.txt"],
			      f"{what}: the user's file outside the directory is untouched")
		for path in forged:
			os.remove(path)
	# a value out of range in the recorded line: the set is refused (1), not the user's line (2)
	forged = forge(sweep_parts, d, "n", lambda a: [("99999" if x == "4" else x) for x in a])
	refused("a recorded line that does not parse", forged, d, "does not parse")
	for path in forged:
		os.remove(path)
	# --any-path: the user trusts the files' author, and the file goes where the line says
	out = os.path.join(victim_dir, "sweep.csv")
	forged = forge(sweep_parts, d, "a", lambda a: a + ["--csv", out])
	p = run(["merge", "--any-path"] + forged, d)
	check(p.returncode == 0 and os.path.exists(out),
	      f"--any-path writes where the recorded line names ({p.stderr.strip()[:200]})")


def bad_command_lines(top):
	d = os.path.join(top, "usage")
	mkrun(d)
	sweep = ["plca", "sweep", "--nodes", "2", "--duration", "1ms", "--quiet"]
	for extra, env, expect in (
			(["--shard", "4/4"], {}, "--shard"),
			(["--shard", "1"], {}, "--shard"),
			(["--shard", "-1/2"], {}, "--shard"),
			(["--shard-count", "3"], {}, "--shard-count"),
			([], {"JOB_COMPLETION_INDEX": "1"}, "JOB_COMPLETION_INDEX"),
			([], {"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "2"},
			 "SLURM_ARRAY_TASK_ID"),
			([], {"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "2"}, "index"),
			([], {"SLURM_ARRAY_TASK_ID": "1"}, "no SLURM_ARRAY_TASK_COUNT"),
			([], {"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2",
			      "SLURM_ARRAY_TASK_MIN": "3"}, "no task of the array"),
			([], {"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "2",
			      "SLURM_ARRAY_TASK_STEP": "2"}, "no task of the array"),
			([], {"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "2",
			      "SLURM_ARRAY_TASK_STEP": "0"}, "SLURM_ARRAY_TASK_STEP"),
			([], {"JOB_COMPLETION_INDEX": "+1", "KFSIM_SHARD_COUNT": "2"},
			 "JOB_COMPLETION_INDEX"),
			(["--shard", "0x0/2"], {}, "--shard"),
			(["--shard", "0/2 "], {}, "--shard"),
			(["--partial", "p.jsonl"], {}, "--partial"),
			(["--jobs", "0"], {}, "--jobs")):
		p = run(sweep + extra, d, env={**CLEAN_ENV, **env})
		check(p.returncode == 2 and expect in p.stderr and len(p.stderr.splitlines()) == 1
		      and sorted(os.listdir(d)) == sorted(INPUTS),
		      f"exit 2, one line, nothing written: {' '.join(extra)} {env}")
	p = run(["plca", "sim", "--shard", "0/2"], d)
	check(p.returncode == 2, "--shard is for the grids only (plca sim refuses it)")
	# a stepped Slurm array (--array=0-6:2): task 4 is slice 2 of 4
	p = run(sweep, d, env={**CLEAN_ENV, "SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4",
			       "SLURM_ARRAY_TASK_STEP": "2"})
	check(p.returncode == 0 and os.path.exists(os.path.join(d, "kfsim-plca-sweep.2-of-4.jsonl")),
	      f"SLURM_ARRAY_TASK_STEP: task 4 of 0-6:2 is slice 2 ({p.stderr.strip()})")
	for f in os.listdir(d):
		os.remove(os.path.join(d, f))
	# PARALLEL_SEQ alone (no count) is not a slice: a run under parallel stays whole
	p = run(sweep, d, env={**CLEAN_ENV, "PARALLEL_SEQ": "2"})
	check(p.returncode == 0 and p.stdout.startswith("senders"),
	      "PARALLEL_SEQ without a count leaves the run whole")


def main():
	if not shutil.which("parallel"):
		print("SKIP: GNU parallel (Debian 'parallel', scripts/lib.sh) is not installed")
		return 77
	top = tempfile.mkdtemp(prefix="kfsim-grid-")
	try:
		parts = {}
		for name, (args, files) in GRIDS.items():
			whole_dir = whole(name, args, top)
			parts[name] = shard_runs(name, args, files, top, whole_dir, 3)
		bad_sets(top, parts["plca-sweep"], parts["bfq-compare"])
		bad_bfq_sets(top, parts["bfq-compare-ss-json"])
		foreign_paths(top, parts["plca-sweep"], parts["bfq-compare"])
		bad_command_lines(top)
	finally:
		shutil.rmtree(top, ignore_errors=True)
	print(f"{len(FAILS)} failure(s)")
	return 1 if FAILS else 0


if __name__ == "__main__":
	sys.exit(main())
