#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The WebAssembly kfsim gives the native program's answers: the same command lines, run by the
native kfsim and by the module the playground embeds (in Node, as the page runs it), compared
field by field: exit status, stderr, and stdout's JSON document (or its text), and the files a
run writes (traces).  Integers and strings must be equal; a floating-point number may differ
only in its last bits (relative 1e-9: the two C libraries' exp/log may round differently), and
every such difference is counted and printed.

Usage: wasm_equal.py KFSIM NODE KFSIM_JS KFSIM_WASM RUN_WASM_JS KFSIM_RUN_JS
Exit 0 when every case agrees, 1 otherwise.
"""
import json
import os
import subprocess
import sys
import tempfile

REL = 1e-9


def plca_cases():
    cases = []
    for nodes in (2, 8, 32):
        for mode in ('plca', 'csma', 'mixed'):
            cases.append(['plca', 'sim', '--nodes', str(nodes), '--mode', mode,
                          '--duration', '20ms', '--quiet', '--json'])
    for load in ('poisson:500', 'periodic:300', 'saturated'):
        cases.append(['plca', 'sim', '--nodes', '6', '--load', load, '--frame', '60-1500',
                      '--burst-cnt', '2', '--burst-tmr', '64', '--to-tmr', '20',
                      '--duration', '20ms', '--seed', '7', '--quiet', '--json'])
    cases.append(['plca', 'sweep', '--nodes', '6', '--duration', '5ms', '--quiet', '--json'])
    return cases


def bfq_cases():
    job = 'name=%s,rw=%s,bs=%s,offset=%d%%,size=50%%'
    cases = []
    for sched in ('bfq-6.2', 'bfq', 'none', 'mq-deadline'):
        for rw, bs in (('randread', '4k'), ('read', '256k')):
            cases.append(['bfq', 'sim', '--sched', sched, '--duration', '200ms', '--quiet',
                          '--json', '--job', job % ('a', rw, bs, 0),
                          '--job', job % ('b', rw, bs, 50)])
    cases.append(['bfq', 'compare', '--duration', '100ms', '--quiet', '--json',
                  '--job', 'name=a,rw=randread,bs=4k,iodepth=8,weight=300',
                  '--job', 'name=b,rw=write,bs=64k,offset=50%,size=50%'])
    cases.append(['bfq', 'ablate', '--duration', '100ms', '--quiet', '--json',
                  '--param', 'slice_idle_us', '--values', '0,2000,8000',
                  '--job', 'name=a,rw=randread,bs=4k', '--job', 'name=b,rw=read,bs=64k,offset=50%'])
    cases.append(['bfq', 'sim', '--disk', 'single', '--duration', '150ms', '--quiet', '--json',
                  '--job', 'name=a,rw=randread,bs=4k,iodepth=16,thinktime=200',
                  '--job', 'name=b,rw=randread,bs=4k,iodepth=16,ioprio=7'])
    return cases


CASES = [
    ['--version'],
    ['rbtree', '--insert', '5,1,3,8,2,9,7', '--steps', '--json'],
    ['rbtree', '--insert', '5,1,3,8,2,9,7,4,6', '--erase', '5,1,9', '--steps', '--json'],
    ['rbtree', '--random', '500', '--seed', '3', '--json'],
    ['rbtree', '--insert', '3,3,3,1', '--erase', '3', '--steps', '--json'],
    # erases whose steps (each with the tree after it and its verdict) reach every erase case of
    # lib/rbtree.c in both mirror images, the successor's red child included
    ['rbtree', '--insert', '23,34,2,30,16,4,11,8,12,35,28,32', '--erase',
     '12,34,35,30,23,4,28,32,2', '--steps', '--json'],
    ['rbtree', '--insert', '25,11,5,9,29,36,34,1,28,32', '--erase', '9,5,28,1,34,11', '--steps',
     '--json'],
    ['rbtree', '--insert', '14,12,13,25,20,2,24,27,6,30,5,9,3,11,10,35', '--erase',
     '14,30,5,9,2,12,20,3,10,25,6,13', '--steps', '--json'],
    ['rbtree', '--insert', '11,1,3,5,9,18,15', '--erase', '11,9', '--steps', '--json'],
    ['rbtree', '--insert', '3,3,3,1,3,2', '--erase', '3,3,1,3', '--steps', '--json'],
    ['rbtree', '--erase', '4', '--json'],
    ['rbtree', '--insert', 'x'],
    ['bpf', 'kfuncs', '--json'],
    ['bpf', 'demo', '--json', '--rounds', '50'],
    ['bpf', 'demo', '--json', '--rounds', '1', '--broken'],
    ['--kver', '6.12', 'bpf', 'demo', '--json', '--rounds', '1'],
    ['refcount', 'demo', '--json'],
    ['--kver', '6.11', 'refcount', 'demo', '--json'],
    ['plca', 'sim', '--nodes', '300'],
] + plca_cases() + bfq_cases()

# Command lines whose answers differ, each with what is known.  Listed here, printed by every
# run, and failing the test the day they agree (so that the list only shrinks).
KNOWN = {
}

# (argv, files it writes): compared as parsed JSON too
FILE_CASES = [
    (['bpf', 'demo', '--json', '--rounds', '1', '--trace', '{d}/bpf.json'], ['bpf.json']),
    (['bpf', 'demo', '--json', '--rounds', '1', '--broken', '--trace', '{d}/bpf.json'],
     ['bpf.json']),
    (['plca', 'sim', '--nodes', '5', '--duration', '2ms', '--quiet', '--json', '--trace',
      '{d}/plca.json'], ['plca.json']),
    (['bfq', 'sim', '--sched', 'bfq-6.2', '--duration', '300ms', '--quiet', '--json',
      '--trace', '{d}/bfq.json', '--trace-window', '300ms',
      '--job', 'name=a,rw=randread,bs=64k,offset=0%,size=50%',
      '--job', 'name=b,rw=randread,bs=64k,offset=50%,size=50%'], ['bfq.json']),
]


class Diff:
    def __init__(self):
        self.fields = 0
        self.float_diffs = []
        self.problems = []

    def cmp(self, a, b, path):
        if isinstance(a, dict) and isinstance(b, dict):
            if sorted(a) != sorted(b):
                self.problems.append('%s: keys %s != %s' % (path, sorted(a), sorted(b)))
                return
            for k in a:
                self.cmp(a[k], b[k], path + '.' + k)
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                self.problems.append('%s: %d items != %d' % (path, len(a), len(b)))
                return
            for i, (x, y) in enumerate(zip(a, b)):
                self.cmp(x, y, '%s[%d]' % (path, i))
        else:
            self.fields += 1
            if isinstance(a, float) or isinstance(b, float):
                if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
                    ok = a == b
                else:
                    ok = a == b or abs(a - b) <= REL * max(abs(a), abs(b))
                    if ok and a != b:
                        self.float_diffs.append((path, a, b))
                if not ok:
                    self.problems.append('%s: native %r, wasm %r' % (path, a, b))
            elif a != b or type(a) is not type(b):
                self.problems.append('%s: native %r, wasm %r' % (path, a, b))


def parsed(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


def main():
    kfsim, node, kfsim_js, kfsim_wasm, run_wasm, kfsim_run = sys.argv[1:7]
    work = tempfile.mkdtemp(prefix='kfsim-wasm-eq-')
    native = []
    requests = []
    for args in CASES:
        p = subprocess.run([kfsim] + args, capture_output=True, text=True, timeout=120)
        native.append((args, p.returncode, p.stdout, p.stderr, {}))
        requests.append({'args': args})
    for args, files in FILE_CASES:
        nargs = [a.replace('{d}', work) for a in args]
        p = subprocess.run([kfsim] + nargs, capture_output=True, text=True, timeout=120)
        got = {}
        for f in files:
            with open(os.path.join(work, f)) as fh:
                got[f] = fh.read()
        native.append((args, p.returncode, p.stdout, p.stderr, got))
        requests.append({'args': [a.replace('{d}', '') for a in args],
                         'read': ['/' + f for f in files]})
    env = dict(os.environ, NODE_PATH='/usr/share/nodejs')
    p = subprocess.run([node, run_wasm, kfsim_js, kfsim_wasm, kfsim_run],
                       input=json.dumps(requests), capture_output=True, text=True, env=env,
                       timeout=600)
    if p.returncode:
        print('FAIL: node: ' + p.stderr.strip())
        return 1
    wasm = json.loads(p.stdout)
    diff = Diff()
    failures = 0
    for (args, status, out, err, files), w in zip(native, wasm):
        before = len(diff.problems)
        name = ' '.join(args)
        if status != w['status']:
            diff.problems.append('%s: exit %d native, %d wasm' % (name, status, w['status']))
        if err != w['stderr']:
            diff.problems.append('%s: stderr differs:\n  native: %r\n  wasm:   %r' % (
                name, err[:300], w['stderr'][:300]))
        a, b = parsed(out), parsed(w['stdout'])
        if a is not None and b is not None:
            diff.cmp(a, b, name + ' stdout')
        elif out != w['stdout']:
            diff.problems.append('%s: stdout text differs' % name)
        for f, text in files.items():
            diff.cmp(json.loads(text), json.loads(w['files']['/' + f] or 'null'),
                     '%s %s' % (name, f))
        state = 'agrees' if len(diff.problems) == before else 'DIFFERS'
        if name in KNOWN:
            if state == 'agrees':
                diff.problems.append('%s: listed as differing, but agrees: take it off KNOWN'
                                     % name)
            else:
                state = 'KNOWN'
                print('known difference (listed): kfsim %s: %s' % (name, KNOWN[name]))
                del diff.problems[before:]
        failures += state != 'agrees'
        print('%-8s exit %d, %5.0f ms in wasm: kfsim %s' % (state, status, w['ms'], name))
    for path, a, b in diff.float_diffs:
        print('last-bit float difference (allowed): %s: native %r, wasm %r' % (path, a, b))
    for prob in diff.problems:
        print('FAIL ' + prob)
    print('%d command lines, %d fields compared: %d agree, %d differ (%d of them listed); %d '
          'floats differ in the last bits' % (len(native), diff.fields, len(native) - failures,
                                              failures, len(KNOWN), len(diff.float_diffs)))
    return 1 if diff.problems else 0


if __name__ == '__main__':
    sys.exit(main())
