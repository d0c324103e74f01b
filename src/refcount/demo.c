// SPDX-License-Identifier: MIT
/*
 * The refcount_t walk behind "kfsim refcount demo".  Each step runs one real refcount_t call on
 * a counter and the same arithmetic on a wrapping int standing in for atomic_t, then reads the
 * warning (if any) back from the kfsim log, so what is shown is what the library did.
 */
#include <limits.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/printk.h>
#include <kfsim/refcount.h>
#include <kfsim/refcount_demo.h>
#include <kfsim/svg_plot.h>

enum demo_op {
	DEMO_SET, DEMO_ADD, DEMO_INC, DEMO_DEC_AND_TEST, DEMO_DEC, DEMO_INC_NOT_ZERO, DEMO_DEC_IF_ONE,
	DEMO_DEC_NOT_ONE, DEMO_SUB0_AND_TEST, DEMO_CLEAR_WARN_ONCE,
};

struct demo_script {
	enum demo_op op;
	int arg;		/* DEMO_SET, DEMO_ADD: the value */
	const char *call;
	const char *note;
};

static const struct demo_script script[] = {
	{ DEMO_SET, 1, "refcount_set(&obj, 1)", "a new object: one reference, its creator's" },
	{ DEMO_INC, 0, "refcount_inc(&obj)", "a second user takes a reference" },
	{ DEMO_DEC_AND_TEST, 0, "refcount_dec_and_test(&obj)", "it drops it: not the last" },
	{ DEMO_SET, REFCOUNT_MAX - 1, "refcount_set(&obj, REFCOUNT_MAX - 1)",
	  "a bug leaked 2^31 - 2 references (a get without a put in a loop)" },
	{ DEMO_INC, 0, "refcount_inc(&obj)", "the last good value, REFCOUNT_MAX" },
	{ DEMO_INC, 0, "refcount_inc(&obj)",
	  "overflow: saturated instead of wrapping to a negative count" },
	{ DEMO_ADD, INT_MAX, "refcount_add(INT_MAX, &obj)",
	  "the leak goes on; stays saturated, and this warning type already fired" },
	{ DEMO_INC, 0, "refcount_inc(&obj)",
	  "2^32 references are out: a wrapping atomic_t is back at 0" },
	{ DEMO_INC, 0, "refcount_inc(&obj)", "one more user takes a reference" },
	{ DEMO_DEC_AND_TEST, 0, "refcount_dec_and_test(&obj)",
	  "and drops it: atomic_t says \"last one, free it\" while 2^32 users remain; "
	  "refcount_t never reaches 0 again: the object leaks instead" },
	{ DEMO_SET, 1, "refcount_set(&obj, 1)", "a fresh object" },
	{ DEMO_DEC_AND_TEST, 0, "refcount_dec_and_test(&obj)", "last reference dropped: free it" },
	{ DEMO_INC_NOT_ZERO, 0, "refcount_inc_not_zero(&obj)",
	  "a lookup racing with the free: refused, no warning" },
	{ DEMO_INC, 0, "refcount_inc(&obj)", "a get on a freed object: use-after-free caught" },
	{ DEMO_SET, 1, "refcount_set(&obj, 1)", "a fresh object" },
	{ DEMO_DEC, 0, "refcount_dec(&obj)",
	  "refcount_dec() must never drop the last reference: nobody would free it" },
	{ DEMO_SET, 0, "refcount_set(&obj, 0)", "a freed object" },
	{ DEMO_DEC_AND_TEST, 0, "refcount_dec_and_test(&obj)",
	  "a put on a freed object (double put); this warning type already fired above" },
	{ DEMO_SET, 1, "refcount_set(&obj, 1)", "a fresh object" },
	{ DEMO_DEC_NOT_ONE, 0, "refcount_dec_not_one(&obj)",
	  "refuses to drop the last reference (returns false)" },
	{ DEMO_DEC_IF_ONE, 0, "refcount_dec_if_one(&obj)", "drops it only because it is the last" },
	{ DEMO_DEC_NOT_ONE, 0, "refcount_dec_not_one(&obj)",
	  "at 0: its own underflow warning, and the counter is left at 0" },
	{ DEMO_CLEAR_WARN_ONCE, 0, "kfsim_refcount_clear_warn_once()",
	  "re-arm the once-only warnings, like writing /sys/kernel/debug/clear_warn_once" },
	{ DEMO_SUB0_AND_TEST, 0, "refcount_sub_and_test(0, &obj)",
	  "at 0: \"succeeds\" silently before 6.11, reported as underflow from 6.11" },
};

/* The same operation on a plain wrapping counter: what atomic_t would do. */
static int atomic_model(enum demo_op op, int arg, int value, bool *freed)
{
	unsigned int v = (unsigned int)value;

	*freed = false;
	switch (op) {
	case DEMO_SET: return arg;
	case DEMO_ADD: return (int)(v + (unsigned int)arg);
	case DEMO_INC: return (int)(v + 1);
	case DEMO_INC_NOT_ZERO: return value ? (int)(v + 1) : 0;
	case DEMO_DEC: return (int)(v - 1);
	case DEMO_DEC_AND_TEST:
		*freed = v == 1;
		return (int)(v - 1);
	case DEMO_DEC_IF_ONE: return value == 1 ? 0 : value;
	case DEMO_DEC_NOT_ONE: return value == 1 ? 1 : (int)(v - 1);
	case DEMO_SUB0_AND_TEST:
		*freed = value == 0;
		return value;
	case DEMO_CLEAR_WARN_ONCE: return value;
	}
	return value;
}

static int demo_call(enum demo_op op, int arg, refcount_t *r)
{
	switch (op) {
	case DEMO_SET:
		refcount_set(r, arg);
		return -1;
	case DEMO_ADD:
		refcount_add(arg, r);
		return -1;
	case DEMO_INC:
		refcount_inc(r);
		return -1;
	case DEMO_DEC:
		refcount_dec(r);
		return -1;
	case DEMO_DEC_AND_TEST: return refcount_dec_and_test(r);
	case DEMO_INC_NOT_ZERO: return refcount_inc_not_zero(r);
	case DEMO_DEC_IF_ONE: return refcount_dec_if_one(r);
	case DEMO_DEC_NOT_ONE: return refcount_dec_not_one(r);
	case DEMO_SUB0_AND_TEST: return refcount_sub_and_test(0, r);
	case DEMO_CLEAR_WARN_ONCE:
		kfsim_refcount_clear_warn_once();
		return -1;
	}
	return -1;
}

/* The first "refcount_t: ..." record logged since @seq. */
static void find_warning(u64 seq, char *buf, size_t size)
{
	struct kfsim_log_record rec;

	buf[0] = '\0';
	while (!kfsim_log_read(&seq, &rec)) {
		if (!strncmp(rec.text, "refcount_t: ", 12)) {
			size_t len = strnlen(rec.text, size - 1);

			memcpy(buf, rec.text, len);
			buf[len] = '\0';
			return;
		}
	}
}

size_t kfsim_refcount_demo(struct kfsim_refcount_demo_step steps[KFSIM_REFCOUNT_DEMO_STEPS])
{
	refcount_t obj = REFCOUNT_INIT(0);
	int atomic_value = 0;
	size_t n = 0;

	BUILD_BUG_ON(ARRAY_SIZE(script) > KFSIM_REFCOUNT_DEMO_STEPS);
	kfsim_refcount_clear_warn_once();
	for (size_t i = 0; i < ARRAY_SIZE(script); i++, n++) {
		struct kfsim_refcount_demo_step *step = &steps[n];
		u64 mark = kfsim_log_next_seq();

		step->call = script[i].call;
		step->note = script[i].note;
		step->before = refcount_read(&obj);
		step->returned = demo_call(script[i].op, script[i].arg, &obj);
		step->after = refcount_read(&obj);
		find_warning(mark, step->warning, sizeof(step->warning));
		atomic_value = atomic_model(script[i].op, script[i].arg, atomic_value,
					    &step->atomic_freed);
		step->atomic_after = (u32)atomic_value;
	}
	return n;
}

int kfsim_refcount_demo_svg(const struct kfsim_refcount_demo_step *steps, size_t nr_steps,
			    const char *path)
{
	double x[KFSIM_REFCOUNT_DEMO_STEPS], refcount_y[KFSIM_REFCOUNT_DEMO_STEPS];
	double atomic_y[KFSIM_REFCOUNT_DEMO_STEPS];
	size_t n = 0;

	while (n < nr_steps && n < KFSIM_REFCOUNT_DEMO_STEPS) {
		x[n] = (double)(n + 1);
		refcount_y[n] = (int)steps[n].after / (double)(1u << 30);
		atomic_y[n] = (int)steps[n].atomic_after / (double)(1u << 30);
		if (steps[n++].atomic_freed && steps[n - 1].returned == 0)
			break;	/* the early free: the point of the picture */
	}
	if (!n)
		return -EINVAL;

	const struct kfsim_plot_series series[] = {
		{ .name = "refcount_t: saturates (-1), never back to 0",
		  .x = x, .y = refcount_y, .n = n },
		{ .name = "atomic_t: wraps to 0, frees early",
		  .x = x, .y = atomic_y, .n = n },
	};
	const struct kfsim_plot plot = {
		.title = "The same gets and puts on refcount_t and on a plain atomic_t",
		.x_label = "call number in kfsim refcount demo",
		.y_label = "counter value / 2^30 (as a signed int)",
		.series = series,
		.nr_series = ARRAY_SIZE(series),
	};

	return kfsim_plot_svg_save(&plot, path);
}
