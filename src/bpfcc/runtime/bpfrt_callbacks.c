// SPDX-License-Identifier: MIT
/*
 * The helpers that call a function of the program back: bpf_loop() (5.17) and
 * bpf_for_each_map_elem() (5.13), natively.
 *
 * They do what the kernel's do (kernel/bpf/bpf_iter.c, arraymap.c, hashtab.c; 6.12's source, the
 * running 6.18 measured): bpf_loop() refuses flags (-EINVAL) and more than BPF_MAX_LOOPS calls
 * (-E2BIG), calls callback(i, ctx) for i from 0 and returns the number of calls, stopping after
 * a call that returned nonzero; bpf_for_each_map_elem() refuses flags (-EINVAL), calls
 * callback(map, &key, value, ctx) for every element of an array (the key a u32 on the helper's
 * stack) or every element in use of a hash (the map's own key), and returns how many it called,
 * the stopping one included.  The kernel walks a hash bucket by bucket, under a random seed
 * (htab->hashrnd) unless the map asks for none: natively the walk is in slot order.
 *
 * The verifier's rules a run can see (check_helper_call(), check_func_arg(), push_callback_call()
 * and prepare_func_exit(), 6.12's source; each message measured on the running 6.18): the
 * callback must be a function of the program ("R2 type=scalar expected=func") and static
 * ("callback function not static", check_ld_imm()); the callback's context must be the
 * program's stack or NULL ("R3 type=map_value expected=fp"); the map must be one whose type
 * has the walk ("callback function not allowed for map"); the callback returns 0 or 1 ("At
 * callback return the register R0 has smin=2 smax=2 should have been in [0, 1]"), no pointer
 * ("cannot return stack pointer to the caller", "R0 not a scalar value"), and no lock held (the
 * verifier goes back to the call, which a lock refuses); it may not write the walk's key ("write
 * to change key R2 not allowed", which the BPF object's data-flow names first with the store's
 * register; a helper writing it: bpfrt_helper_mem()).  The return value is judged by
 * what the run returned, read at the callback's BTF width: a value the verifier knows only as a
 * range (data) is refused by it for that range, by kfsim only when the run's value is outside.
 *
 * The verifier walks the path where the callback is not called (again) first: push_callback_call()
 * queues the callback and goes on after the call.  The exploring mode takes the first two calls
 * of each loop as decision points (the loop's end before them), as bpfrt_iter.c takes next()'s
 * NULL, and a loop or walk the run makes no call of (an empty hash, flags, more than
 * BPF_MAX_LOOPS, a bound of 0 that is data) as one where the callback is called once (with a
 * zeroed key and value): the verifier walks it all the same.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "bpfrt.h"

#define BPF_MAX_LOOPS (8 * 1024 * 1024) /* include/linux/bpf.h */
#define CALLS_EXPLORED 2
#define MAX_KEY 512 /* a fabricated element's key and value: the largest the runtime makes */

typedef unsigned long long u64_t;
/* bpf_callback_t of include/linux/bpf.h: five u64 arguments, a u64 result */
typedef u64_t (*callback_t)(u64_t, u64_t, u64_t, u64_t, u64_t);

static const struct kfsim_bpfrt_func *func_of(const void *fn)
{
	const struct kfsim_bpfrt_func *f = kfsim_bpfcc_object.funcs;

	for (; fn && f && f->name; f++)
		if (f->addr == fn)
			return f;
	return NULL;
}

/*
 * The arguments a helper that calls back checks before calling (check_func_arg(), in register
 * order): @map (bpf_for_each_map_elem's R1) a map of the program, the callback (R2) a static
 * function of the program, the context (R3) the program's stack or NULL.
 */
static int callback_args(const char *helper, const void *map, bool has_map, const void *fn,
			 const void *cb_ctx, const void *here, const struct kfsim_bpfrt_func **f)
{
	if (has_map && bpfrt_map_walk_type(map) < 0)
		return kfsim_bpf_helper_refused(
			helper, "its first argument is one of the program's maps",
			"R1 type=%s expected=map_ptr", bpfrt_reg_type(map, here));
	*f = func_of(fn);
	if (!*f)
		return kfsim_bpf_helper_refused(helper,
						"the callback is a function of the program (its "
						"address, which the verifier types PTR_TO_FUNC)",
						"R2 type=%s expected=func",
						bpfrt_reg_type(fn, here));
	if ((*f)->global)
		return kfsim_bpf_helper_refused(
			helper,
			"a callback is a static function: the verifier refuses the load of a "
			"global one's address (check_ld_imm())",
			"callback function not static");
	if (cb_ctx && strcmp(bpfrt_reg_type(cb_ctx, here), "fp"))
		return kfsim_bpf_helper_refused(
			helper,
			"the callback's context is the program's stack or NULL "
			"(ARG_PTR_TO_STACK_OR_NULL)",
			"R3 type=%s expected=fp", bpfrt_reg_type(cb_ctx, here));
	if (has_map && bpfrt_map_walk_type(map) != BPFRT_WALK_OK)
		return kfsim_bpf_helper_refused(helper,
						"only arrays and hashes have the callback walk "
						"(map_for_each_callback)",
						"callback function not allowed for map");
	return 0;
}

/*
 * Whether a callback's 64-bit return value @raw is a pointer the verifier would type, and which
 * (check_reg_type()'s names): the program's stack, its context, a map value, an object.  Only
 * addresses a run can tell for certain: any other number is a scalar.
 */
static bool pointer_type(u64_t raw, const void *here, const char **type)
{
	const void *p = (const void *)(uintptr_t)raw;
	unsigned int size, off;

	*type = bpfrt_reg_type(p, here);
	if (!strcmp(*type, "fp") || !strcmp(*type, "ctx") || !strcmp(*type, "ptr_"))
		return true;
	return !strcmp(*type, "map_value") && bpfrt_map_value_at(p, &size, &off);
}

/*
 * The callback's return value as the BPF register holds it: clang returns a type of 4 bytes or
 * fewer zero-extended from its width ("return -1;" of an int is "r0 = 4294967295 ll"), and
 * natively the register's upper bits are undefined, so the native value is cut to that width;
 * a 64-bit one is taken whole.  Refused outside [0, 1] (the verifier's callback_ret_range),
 * and, as the verifier goes back to the call after each callback (prepare_func_exit()), by the
 * call's own rules again: a lock the callback left held refuses the call.
 */
static int callback_return(const char *helper, const struct kfsim_bpfrt_func *f, u64_t raw,
			   const char *file, int line)
{
	int bits = f->ret_size > 0 && f->ret_size < 8 ? f->ret_size * 8 : 64;
	long long value = (long long)(bits == 64 ? raw : raw & ((1ull << bits) - 1));
	const char *type;

	if (bpfrt_helper(helper, file, line))
		return -EINVAL;
	bpfrt_site(file, line); /* the verifier names the callback's exit: its call here */
	if (bits == 64 && pointer_type(raw, __builtin_frame_address(0), &type))
		/* prepare_func_exit(): the stack first, for any function; then a scalar R0 */
		value = kfsim_bpf_helper_refused(
			helper, "a callback returns 0 or 1, no pointer",
			!strcmp(type, "fp") ? "cannot return stack pointer to the caller"
					    : "R0 not a scalar value");
	else if (!f->ret_size) /* a void function sets no R0 */
		value = kfsim_bpf_helper_refused(helper, "a callback returns 0 or 1",
						 "R0 not a scalar value");
	else if (value != 0 && value != 1)
		value = kfsim_bpf_helper_refused(helper, "a callback returns 0 (go on) or 1 (stop)",
						 "At callback return the register R0 has smin=%lld "
						 "smax=%lld should have been in [0, 1]",
						 value, value);
	bpfrt_site(NULL, 0);
	return (int)value;
}

/* Whether the exploring mode ends the loop before call @nr (one of the first two). */
static bool loop_ends_here(const char *helper, unsigned int nr)
{
	struct kfsim_bpf_decision d = {.kfunc = helper, .natural = true, .can_flip = true};

	return nr < CALLS_EXPLORED && kfsim_bpf_explore_decide(&d);
}

/*
 * A loop the run makes no call of (flags, more than BPF_MAX_LOOPS, a bound of 0 that is data):
 * the verifier walks the callback all the same, up to the bound's maximum, which it knows only
 * for a constant (check_helper_call(): callback_depth < umax_value; @nr_const, the native
 * compiler's __builtin_constant_p()), so the exploring mode may call it once.  True when it did
 * and the callback was refused.
 */
static bool uncalled_loop(const struct kfsim_bpfrt_func *f, void *fn, void *cb_ctx,
			  unsigned int nr_loops, int nr_const, const char *file, int line)
{
	struct kfsim_bpf_decision d = {
		.kfunc = "bpf_loop", .natural = false, .can_flip = true, .fabricates = true};

	if ((!nr_loops && nr_const) || !kfsim_bpf_explore_decide(&d))
		return false;
	return callback_return("bpf_loop", f,
			       ((callback_t)fn)(0, (u64_t)(uintptr_t)cb_ctx, 0, 0, 0), file,
			       line) < 0;
}

long kfsim_bpfrt_loop(unsigned int nr_loops, void *callback_fn, void *callback_ctx,
		      unsigned long long flags, int nr_const, const char *file, int line);
long kfsim_bpfrt_loop(unsigned int nr_loops, void *callback_fn, void *callback_ctx,
		      unsigned long long flags, int nr_const, const char *file, int line)
{
	const struct kfsim_bpfrt_func *f;
	unsigned int i;
	int err, ret;

	if (bpfrt_helper("bpf_loop", file, line))
		return -EINVAL;
	bpfrt_site(file, line);
	err = callback_args("bpf_loop", NULL, false, callback_fn, callback_ctx,
			    __builtin_frame_address(0), &f);
	bpfrt_site(NULL, 0);
	if (err)
		return -EINVAL;
	if (flags || nr_loops > BPF_MAX_LOOPS || !nr_loops) {
		if (uncalled_loop(f, callback_fn, callback_ctx, nr_loops, nr_const, file, line))
			return -EINVAL;
		return flags ? -EINVAL : nr_loops ? -E2BIG : 0;
	}
	for (i = 0; i < nr_loops; i++) {
		if (loop_ends_here("bpf_loop", i))
			return i;
		u64_t raw = ((callback_t)callback_fn)(i, (u64_t)(uintptr_t)callback_ctx, 0, 0, 0);

		ret = callback_return("bpf_loop", f, raw, file, line);
		if (ret < 0)
			return -EINVAL;
		if (ret)
			return i + 1;
	}
	return i;
}

/*
 * The keys of the callbacks under way (nested walks), innermost last: the verifier's
 * PTR_TO_MAP_KEY, which a helper may not write either (bpfrt_helper_mem()).
 */
#define MAX_NESTED 8 /* the verifier's MAX_CALL_FRAMES */
static __thread struct {
	const unsigned char *key;
	unsigned int size;
} keys[MAX_NESTED];
static __thread unsigned int nr_keys;

bool bpfrt_callback_key(const void *p, unsigned long long size)
{
	const unsigned char *at = p;

	for (unsigned int i = 0; i < nr_keys && i < MAX_NESTED; i++)
		if (at + size > keys[i].key && at < keys[i].key + keys[i].size)
			return true;
	return false;
}

/* One call of a bpf_for_each_map_elem() callback; nonzero: stop (1) or refused (-EINVAL). */
static int visit(const struct kfsim_bpfrt_func *f, void *map, void *fn, void *key,
		 unsigned int key_size, void *value, void *cb_ctx, const char *file, int line)
{
	unsigned char before[MAX_KEY];
	u64_t raw;
	int err;

	if (key_size > sizeof(before))
		key_size = sizeof(before);
	memcpy(before, key, key_size);
	if (nr_keys < MAX_NESTED)
		keys[nr_keys] = (typeof(keys[0])){key, key_size};
	nr_keys++;
	raw = ((callback_t)fn)((u64_t)(uintptr_t)map, (u64_t)(uintptr_t)key,
			       (u64_t)(uintptr_t)value, (u64_t)(uintptr_t)cb_ctx, 0);
	nr_keys--;
	/*
	 * PTR_TO_MAP_KEY is read-only (check_mem_access()): a store the BPF object's data-flow
	 * found is refused from its tables with the store's register; one it did not follow (a key
	 * pointer spilled and reloaded) is seen here by the bytes
	 */
	if (memcmp(before, key, key_size) && !bpfrt_object_refuses("write to change key")) {
		bpfrt_site(file, line);
		kfsim_bpf_helper_refused("bpf_for_each_map_elem",
					 "the callback's key is the map's: read-only",
					 "write to change key R2 not allowed");
		bpfrt_site(NULL, 0);
		return -EINVAL;
	}
	err = callback_return("bpf_for_each_map_elem", f, raw, file, line);
	return err < 0 ? -EINVAL : err;
}

long kfsim_bpfrt_for_each_map_elem(void *map, void *callback_fn, void *callback_ctx,
				   unsigned long long flags, const char *file, int line);
long kfsim_bpfrt_for_each_map_elem(void *map, void *callback_fn, void *callback_ctx,
				   unsigned long long flags, const char *file, int line)
{
	const struct kfsim_bpfrt_func *f;
	unsigned int key_size = 0, value_size = 0;
	void *key, *value;
	long nr = 0;
	int err;

	if (bpfrt_helper("bpf_for_each_map_elem", file, line))
		return -EINVAL;
	bpfrt_site(file, line);
	err = callback_args("bpf_for_each_map_elem", map, true, callback_fn, callback_ctx,
			    __builtin_frame_address(0), &f);
	bpfrt_site(NULL, 0);
	if (err)
		return -EINVAL;
	/*
	 * the running 6.18 takes one verifier id at the walk's call, on the path that does not call
	 * back as on the others (measured: a leak after the walk or in its callback is id=3 where a
	 * bpf_loop()'s is id=2); where, 6.12's source does not show, and no other release referees
	 * it here, so every --kver follows the measurement
	 */
	kfsim_bpf_verifier_ids(1);
	for (unsigned int pos = 0;
	     !flags && bpfrt_map_slot(map, pos, &key, &value, &key_size, &value_size); pos++) {
		/* an array's key: a u32 on the helper's stack, as the kernel's */
		uint32_t index = pos;
		/*
		 * a hash's key: a copy, as the kernel's element outlives a delete under the walk
		 * (RCU) while natively the slot is taken again by the next insert
		 */
		_Alignas(8) unsigned char kcopy[MAX_KEY];

		if (!value)
			continue; /* a hash's slot not in use */
		if (loop_ends_here("bpf_for_each_map_elem", (unsigned int)nr))
			return nr;
		nr++;
		if (key && key_size <= sizeof(kcopy)) {
			memcpy(kcopy, key, key_size);
			key = kcopy;
		}
		err = visit(f, map, callback_fn, key ? key : &index, key ? key_size : 4, value,
			    callback_ctx, file, line);
		if (err)
			return err < 0 ? -EINVAL : nr;
	}
	/*
	 * No element was called back (an empty hash, flags): the verifier walks the callback all
	 * the same, so the exploring mode may call it once with a zeroed key and value.
	 */
	if (flags)
		bpfrt_map_slot(map, 0, &key, &value, &key_size, &value_size); /* the sizes */
	if (!nr && key_size && key_size <= MAX_KEY && value_size <= MAX_KEY) {
		struct kfsim_bpf_decision d = {.kfunc = "bpf_for_each_map_elem",
					       .natural = false,
					       .can_flip = true,
					       .fabricates = true};
		_Alignas(8) unsigned char k[MAX_KEY] = {0}, v[MAX_KEY] = {0};

		if (kfsim_bpf_explore_decide(&d)) {
			err = visit(f, map, callback_fn, k, key_size, v, callback_ctx, file, line);
			return err < 0 || flags ? -EINVAL : 1;
		}
	}
	return flags ? -EINVAL : nr;
}
