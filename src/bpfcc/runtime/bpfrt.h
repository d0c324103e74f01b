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
/* the packet of the kernel's test runs (bpfrt_kernel.c), and a tc context's skb->len natively */
#define BPFRT_TEST_PKT_LEN 64
/* that packet's bytes: zeroes but an IPv4 ethertype (0x0800 at 12), as the selftests' pkt_v4 */
extern const unsigned char bpfrt_test_pkt[BPFRT_TEST_PKT_LEN];

/** struct bpfrt_verdict - what one side (kfsim or the kernel) said about a program */
struct bpfrt_verdict {
	char verdict[16]; /* ACCEPT, REJECT, HANG, CRASH, EXIT n, SKIP */
	char msg[BPFRT_MSG];
	char where[256]; /* kfsim: "file:line" of the first violation */
	bool has_retval;
	long long retval;
	char path[512];	    /* kfsim: the explored path of the verdict (bpfrt_explore.c) */
	char explored[160]; /* kfsim: how many paths were explored, within which budget */
	void *frames[32];   /* kfsim: the stack at the first violation, when @where is not named */
	int nr_frames;
	bool later_run; /* the verdict came from an invocation after the first (state it left) */
};

/**
 * struct bpfrt_explore_cfg - the exploring mode (bpfrt_explore.c; --explore, --paths, --flips,
 * --paths-svg)
 * @on: explore before the natural run
 * @max_paths: paths at most, the natural one included
 * @max_flips: other outcomes per path at most
 * @timeout_ms: time for all paths of one program (set from --timeout: half of it)
 * @svg: write each program's explored paths there (NULL: no picture)
 * @svg_per_prog: several programs run: FILE.svg becomes FILE-PROG.svg
 */
struct bpfrt_explore_cfg {
	bool on;
	unsigned int max_paths;
	unsigned int max_flips;
	unsigned int timeout_ms;
	const char *svg;
	bool svg_per_prog;
};
extern struct bpfrt_explore_cfg bpfrt_explore_cfg;

/* bpfrt_kernel.c: load @p alone in the running kernel (and test-run it when accepted). */
void bpfrt_kernel_verdict(const struct kfsim_bpfrt_object *obj, const struct kfsim_bpfrt_prog *p,
			  struct bpfrt_verdict *out);

/* The rest uses kfsim's types (bpfrt_kernel.c cannot: libbpf's linux/bpf.h has the uapi ones). */
#ifndef BPFRT_NO_KFSIM
#include <kfsim/bpf_experimental.h>

/* bpfrt_sections.c: the descriptions of the program's structs and sections. */
struct kfsim_btf_struct *bpfrt_type(unsigned int btf_id);
int bpfrt_sections_init(const struct kfsim_bpfrt_object *obj);
bool bpfrt_btf_refused(void);

/* bpfrt_maps.c */
int bpfrt_maps_init(const struct kfsim_bpfrt_object *obj);
/* Whether @p is in a map's value: that value's size and @p's offset in it. */
bool bpfrt_map_value_at(const void *p, unsigned int *value_size, unsigned int *off);

/*
 * bpfrt_maps.c, for bpf_for_each_map_elem(): whether @def is a map of the program whose type has
 * the callback walk (BPFRT_WALK_OK), one without (BPFRT_WALK_NOT_ALLOWED), or no map (-1); and
 * its slot @pos in the walk's order: false past the last; *@key NULL for an array (the key is
 * the index), *@value NULL for a hash's slot not in use.
 */
enum { BPFRT_WALK_OK, BPFRT_WALK_NOT_ALLOWED };
int bpfrt_map_walk_type(const void *def);
bool bpfrt_map_slot(const void *def, unsigned int pos, void **key, void **value,
		    unsigned int *key_size, unsigned int *value_size);
/* bpfrt_callbacks.c: @size bytes at @p overlap the key of a callback under way (PTR_TO_MAP_KEY) */
bool bpfrt_callback_key(const void *p, unsigned long long size);
/* bpfrt_helpers.c: the register type check_reg_type() names for pointer @p (not a function) */
const char *bpfrt_reg_type(const void *p, const void *here);

/* bpfrt_main.c: where a program of @section's packet starts in bpfrt_test_pkt; -1: no skb type */
int bpfrt_skb_pkt_offset(const char *section);
/* bpfrt_main.c: the context and program type of the invocation under way */
extern const void *bpfrt_run_ctx;
extern const char *bpfrt_run_section;
/* the stack's end at the program's entry: the program's stack lies below it */
extern const void *bpfrt_run_stack;

/*
 * @p lies in the running program's stack: above the frame @here of the helper or kfunc asking
 * (its __builtin_frame_address(0), taken in the caller) and below the frame the run began at.
 */
static inline bool bpfrt_on_prog_stack(const void *p, const void *here)
{
	const char *at = p;

	return at > (const char *)here && at < (const char *)bpfrt_run_stack;
}

/* bpfrt_helpers.c: the call site of the helper being called (kfsim's reports name it). */
void bpfrt_site(const char *file, int line);
/* The call site of the global subprogram being entered, or NULL (bpfrt_subprogs.c). */
extern void *bpfrt_global_call_site;
/* bpfrt_helpers.c: the verifier's rules for any helper call (the lock); nonzero: refused. */
int bpfrt_helper(const char *name, const char *file, int line);
/* bpfrt_main.c: whether the BPF object refuses an access of the running program with a
 * message that starts with @prefix (its verdict then comes from the object's tables) */
bool bpfrt_object_refuses(const char *prefix);
/* bpfrt_main.c: the refusal the BPF object gives the call at @file:@line (NULL: none) */
const char *bpfrt_refused_call(const char *file, int line);
/*
 * bpfrt_helpers.c: a helper's buffer @p (register @regno, its size in the next) of @size bytes,
 * @frame the calling program's frame pointer (its stack lies below); nonzero: refused.
 */
int bpfrt_helper_mem(const char *name, int regno, const void *p, unsigned long long size,
		     const void *frame);

/* bpfrt_divide.c: a division by zero or MIN / -1 gives BPF's result instead of SIGFPE. */
void bpfrt_catch_divide_faults(void);

/* bpfrt_may_goto.c: every frame's may_goto budget starts afresh (at each program run). */
void bpfrt_may_goto_reset(void);

/* bpfrt_iter.c: the open-coded iterators of one program invocation (reset before, exit after) */
void bpfrt_iter_reset(void);
void bpfrt_iter_exit(void);
/* bpfrt_ringbuf.c: the rings, the reservations of an invocation, its leaks at the exit */
int bpfrt_ringbuf_init(const struct kfsim_bpfrt_object *obj);
void bpfrt_ringbuf_reset(void);
void bpfrt_ringbuf_exit(void);
/* the runner's consumer (-v): each ring's committed records since the last call, printed */
void bpfrt_ringbuf_print(void);
/* bpfrt_maps.c: the map type of the map defined at @def (-1: no map of the program) */
int bpfrt_map_type(const void *def);
/* bpfrt_main.c: the BPF instruction of the running program's call of @kfunc at @caller (-1) */
int bpfrt_call_insn(const char *kfunc, const void *caller);
/*
 * The same for the @nth call from @caller's line in the run (clang's copies of one call, an
 * unrolled loop, share the line: the run's nth acquisition there is the nth copy)
 */
int bpfrt_call_insn_nth(const char *kfunc, const void *caller, int nth);
/* bpfrt_main.c: kfsim's reports name the program's line of the return address @caller */
void bpfrt_site_of(const void *caller);
/*
 * bpfrt_main.c: a reference @call acquired at @caller (id @id, BPF instruction @insn) still
 * held when the program returned, reported as the verifier does (@rule: kfsim's line on it);
 * @last: the last of the run's leaks, which 6.14 follows with the exit's line
 */
void bpfrt_leak_report(const char *call, const char *rule, const void *caller, unsigned int id,
		       int insn, bool last);

/* bpfrt_expect.c */
enum bpfrt_result { BPFRT_PASS, BPFRT_STATIC, BPFRT_FAIL, BPFRT_RAN };
enum bpfrt_result bpfrt_judge(const struct kfsim_bpfrt_prog *p, const struct bpfrt_verdict *kfsim,
			      const struct bpfrt_verdict *kernel, const char **why);
bool bpfrt_msg_agrees(const char *expected, const char *got);

/* bpfrt_explore.c: the explored paths' verdict into @out (after the natural run), the picture */
#include <kfsim/bpf_explore.h>
void bpfrt_explore_verdict(const struct kfsim_bpfrt_prog *p, const char *source,
			   const struct kfsim_bpf_explore_report *rep, struct bpfrt_verdict *out);
bool bpfrt_exit_rule(const char *msg); /* a leak or a lock still held: checked at BPF_EXIT */
/* bpfrt_main.c: "file:line" of the program's innermost frame of @at into @where */
void bpfrt_locate(void *const *at, int nr, char *where, size_t size);
/* bpfrt_main.c: whether a path addr2line printed is in the directory of the program's @source */
bool bpfrt_in_source_dir(const char *source, const char *file);
int bpfrt_paths_svg(const char *name, const char *source,
		    const struct kfsim_bpf_explore_report *rep);
#endif /* BPFRT_NO_KFSIM */

/* The verifier's messages verdicts are compared by, each written once. */
#define BPFRT_MSG_SAME_CALL "same call cannot be used with different types"
#define BPFRT_MSG_UNRELEASED "Unreleased reference"
/* Whether @msg starts with the literal @lit. */
#define msg_starts(msg, lit) (!strncmp((msg), (lit), sizeof(lit) - 1))

#endif /* KFSIM_BPFRT_INTERNAL_H */
