/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPFRT_INTERNAL_H
#define KFSIM_BPFRT_INTERNAL_H
/*
 * The native runner's parts (linked into every program kfsim-bpf-cc builds):
 * bpfrt_main.c runs the programs and reports, bpfrt_sections.c turns the generated tables into
 * kfsim struct descriptions and sections, bpfrt_maps.c and bpfrt_helpers.c are the maps and the
 * helpers, bpfrt_expect.c judges a run against the annotations, bpfrt_kernel.c asks the running
 * kernel's verifier.
 */
#include <stdbool.h>
#include "../../../include/bpf-compat/kfsim_bpfrt.h"

#define BPFRT_MSG 512

/** struct bpfrt_verdict - what one side (kfsim or the kernel) said about a program */
struct bpfrt_verdict {
	char verdict[16]; /* ACCEPT, REJECT, HANG, CRASH, EXIT n, SKIP */
	char msg[BPFRT_MSG];
	char where[256]; /* kfsim: "file:line" of the first violation */
	bool has_retval;
	long long retval;
};

/* bpfrt_kernel.c: load @p alone in the running kernel (and test-run it when accepted). */
void bpfrt_kernel_verdict(const struct kfsim_bpfrt_object *obj, const struct kfsim_bpfrt_prog *p,
			  struct bpfrt_verdict *out);

/* The rest uses kfsim's types (bpfrt_kernel.c cannot: libbpf's linux/bpf.h has the uapi ones). */
#ifndef BPFRT_NO_KFSIM
#include <kfsim/bpf_experimental.h>

/* bpfrt_sections.c: the descriptions of the program's structs and sections. */
struct kfsim_btf_struct *bpfrt_type(unsigned int btf_id);
int bpfrt_sections_init(const struct kfsim_bpfrt_object *obj);

/* bpfrt_maps.c */
int bpfrt_maps_init(const struct kfsim_bpfrt_object *obj);

/* bpfrt_helpers.c: the call site of the helper being called (kfsim's reports name it). */
void bpfrt_site(const char *file, int line);
/* bpfrt_helpers.c: the verifier's rules for any helper call (the lock); nonzero: refused. */
int bpfrt_helper(const char *name, const char *file, int line);

/* bpfrt_may_goto.c: every frame's may_goto budget starts afresh (at each program run). */
void bpfrt_may_goto_reset(void);

/* bpfrt_expect.c */
enum bpfrt_result { BPFRT_PASS, BPFRT_STATIC, BPFRT_FAIL, BPFRT_RAN };
enum bpfrt_result bpfrt_judge(const struct kfsim_bpfrt_prog *p, const struct bpfrt_verdict *kfsim,
			      const struct bpfrt_verdict *kernel, const char **why);
bool bpfrt_msg_agrees(const char *expected, const char *got);
#endif /* BPFRT_NO_KFSIM */
#endif /* KFSIM_BPFRT_INTERNAL_H */
