/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_COMPAT_ITER_LOOPS_H
#define KFSIM_BPF_COMPAT_ITER_LOOPS_H
/*
 * The open-coded numeric iterator's loops (6.4) as libbpf 1.2+'s bpf_helpers.h spells them;
 * this machine's libbpf 1.1 has neither the kfuncs' prototypes nor bpf_for(), bpf_repeat() and
 * bpf_for_each().  kfsim-bpf-cc includes this first (-include) in both builds: for BPF, so that a
 * program using them (the selftests' own headers beside it, or ours) builds, and natively, where
 * the kfuncs are the runtime's (src/bpfcc/runtime/bpfrt_iter.c).  Other iterators (tasks, bits,
 * ...) are refused by name and line.  Nothing here is defined twice: a later libbpf's macros are
 * #ifndef-guarded as these are, and its weak externs have the same prototypes.  No other header
 * is included yet, so the attributes are spelled out (bpf_helpers.h's __weak __ksym).
 */
#define __KFSIM_KSYM __attribute__((weak, section(".ksyms")))
struct bpf_iter_num;
extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __KFSIM_KSYM;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __KFSIM_KSYM;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __KFSIM_KSYM;

#ifndef bpf_for_each
/** bpf_for_each(type, cur, args...) - @cur takes each element bpf_iter_<type>_next() gives */
#define bpf_for_each(type, cur, args...)                                                           \
	for (struct bpf_iter_##type __kfsim_it                                                     \
		     __attribute__((aligned(8), cleanup(bpf_iter_##type##_destroy))),               \
	     *__kfsim_once __attribute__((unused)) =                                               \
		     (bpf_iter_##type##_new(&__kfsim_it, ##args), (void *)0);                       \
	     ((cur) = bpf_iter_##type##_next(&__kfsim_it));)
#endif

#ifndef bpf_for
/** bpf_for(i, start, end) - @i from @start up to @end (excluded), its range known to the verifier */
#define bpf_for(i, start, end)                                                                     \
	for (struct bpf_iter_num __kfsim_it                                                        \
		     __attribute__((aligned(8), cleanup(bpf_iter_num_destroy))),                    \
	     *__kfsim_once __attribute__((unused)) =                                               \
		     (bpf_iter_num_new(&__kfsim_it, (start), (end)), (void *)0);                    \
	     ({                                                                                    \
		     int *__kfsim_cur = bpf_iter_num_next(&__kfsim_it);                            \
		     __kfsim_cur && ((i) = *__kfsim_cur, (i) >= (start) && (i) < (end));           \
	     });)
#endif

#ifndef bpf_repeat
/** bpf_repeat(n) - the loop's body @n times */
#define bpf_repeat(n)                                                                              \
	for (struct bpf_iter_num __kfsim_it                                                        \
		     __attribute__((aligned(8), cleanup(bpf_iter_num_destroy))),                    \
	     *__kfsim_once __attribute__((unused)) =                                               \
		     (bpf_iter_num_new(&__kfsim_it, 0, (n)), (void *)0);                            \
	     bpf_iter_num_next(&__kfsim_it);)
#endif

#endif /* KFSIM_BPF_COMPAT_ITER_LOOPS_H */
