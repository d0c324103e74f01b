#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random BPF C programs of bpf_loop() and bpf_for_each_map_elem() callbacks, for compare.sh.

Each program calls one of the two helpers with a callback of one to four random steps (adds to
the context, an early stop, a global, lookups, updates and deletes in one of four maps, an object
made and dropped, a nested loop, a store into the value) and, a quarter of the time, one misuse
(a return outside [0, 1], a return of data, a store into the key, a read past the value, a leak,
a NULL context used, a context that is not the stack); the bound is a constant, the packet's
length or more than BPF_MAX_LOOPS, flags now and then.  No annotations: the running kernel is
the referee (docs/bpf-graph.md, "The eleventh round").

Usage: callbacks_gen.py SEED COUNT > FILE.bpf.c
       tests/bpfcc/outside/compare.sh BIN/kfsim-bpf-cc OUT 6.18 FILE.bpf.c
"""
import random
import sys

def gen(seed, n):
    r = random.Random(seed)
    out = ['#include <vmlinux.h>', '#include <bpf/bpf_helpers.h>', '#include "bpf_experimental.h"',
           '#include "bpf_misc.h"', '',
           'struct c { u64 a; u64 b; u32 i; u32 pad; };',
           'struct gnode { long v; };',
           'struct { __uint(type, BPF_MAP_TYPE_ARRAY); __type(key, u32); __type(value, u64); __uint(max_entries, 4); } arr SEC(".maps");',
           'struct { __uint(type, BPF_MAP_TYPE_HASH); __type(key, u32); __type(value, u64); __uint(max_entries, 4); } hsh SEC(".maps");',
           'struct { __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY); __type(key, u32); __type(value, u64); __uint(max_entries, 3); } parr SEC(".maps");',
           'struct { __uint(type, BPF_MAP_TYPE_LRU_HASH); __type(key, u32); __type(value, u64); __uint(max_entries, 3); } lru SEC(".maps");',
           'u8 small[4] = {1, 2, 3, 4};', 'u64 g;', '']
    for p in range(n):
        walk = r.random() < 0.45
        mp = r.choice(['arr', 'hsh', 'parr', 'lru'])
        stmts = []
        misuse = r.random() < 0.25
        for _ in range(r.randint(1, 4)):
            k = r.randint(0, 3)
            ctxp = 'x' if not walk else 'x'
            choice = r.choice(['add', 'stop', 'global', 'lookup', 'update', 'delete', 'obj', 'nested', 'val'] if walk else
                              ['add', 'stop', 'global', 'lookup', 'update', 'delete', 'obj', 'nested'])
            if choice == 'add':
                stmts.append(f'if (x) x->a += {"idx" if not walk else "*key"} + {k};')
            elif choice == 'stop':
                stmts.append(f'if ({"idx" if not walk else "*key"} == {k}) return 1;')
            elif choice == 'global':
                stmts.append(f'g += {k + 1};')
            elif choice == 'lookup':
                stmts.append(f'{{ u32 kk = {k}; u64 *v = bpf_map_lookup_elem(&{mp}, &kk); if (v && x) x->b += *v; }}')
            elif choice == 'update':
                stmts.append(f'{{ u32 kk = {k}; u64 vv = {k * 3}; bpf_map_update_elem(&{mp}, &kk, &vv, 0); }}')
            elif choice == 'delete':
                stmts.append(f'{{ u32 kk = {k}; bpf_map_delete_elem(&{mp}, &kk); }}')
            elif choice == 'obj':
                stmts.append('{ struct gnode *o = bpf_obj_new(typeof(*o)); if (o) { o->v = 1; bpf_obj_drop(o); } }')
            elif choice == 'nested':
                stmts.append(f'bpf_loop({k}, inner_{p}, x, 0);')
            elif choice == 'val':
                stmts.append('*val += 1;')
        ret = '0'
        if misuse:
            m = r.choice(['ret2', 'retdata', 'keywrite', 'valpast', 'nullctx', 'leak', 'retptr'])
            if m == 'ret2':
                ret = str(r.choice([2, -1, 5]))
            elif m == 'retdata':
                ret = 'x ? x->a & 1 : 0' if r.random() < 0.5 else 'x ? x->a : 0'
            elif m == 'keywrite' and walk:
                stmts.append('*key = 1;')
            elif m == 'valpast' and walk:
                stmts.append(f'g += val[{r.choice([1, 2])}];')
            elif m == 'leak':
                stmts.append('bpf_obj_new(struct gnode);')
            elif m == 'nullctx':
                stmts.append('x->a = 1;')
        out.append(f'static int inner_{p}(u32 i, struct c *x) {{ if (x) x->i++; return 0; }}')
        if walk:
            out.append(f'static long cb_{p}(struct bpf_map *map, u32 *key, u64 *val, struct c *x)')
        else:
            out.append(f'static int cb_{p}(u32 idx, struct c *x)')
        out.append('{')
        out += ['\t' + s for s in stmts]
        out.append(f'\treturn {ret};')
        out.append('}')
        nr = r.choice(['0', '1', '2', '3', '7', 'skb->len', '(skb->len << 17) + 1', 'skb->len & 3'])
        flags = '0' if r.random() < 0.9 else '1'
        ctxarg = r.choice(['&c', '&c', '&c', 'NULL'])
        if misuse and r.random() < 0.3:
            ctxarg = r.choice(['(void *)&g', 'skb'])
        out.append('SEC("tc")')
        out.append(f'int p{p}(struct __sk_buff *skb)')
        out.append('{')
        out.append('\tstruct c c = {};')
        out.append('\tlong n;')
        out.append(f'\tg = 0;')
        if walk:
            out.append(f'\t{{ u32 k0 = 1; u64 v0 = 2; bpf_map_update_elem(&{mp}, &k0, &v0, 0); }}')
            out.append(f'\tn = bpf_for_each_map_elem(&{mp}, cb_{p}, {ctxarg}, {flags});')
        else:
            out.append(f'\tn = bpf_loop({nr}, cb_{p}, {ctxarg}, {flags});')
        tail = r.choice(['return n * 1000 + c.a * 10 + c.b + c.i + g;', 'return small[c.i & 3] + n;', 'return n;'])
        out.append('\t' + tail)
        out.append('}')
        out.append('')
    out.append('char _license[] SEC("license") = "GPL";')
    return '\n'.join(out) + '\n'

if __name__ == '__main__':
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    sys.stdout.write(gen(seed, n))
