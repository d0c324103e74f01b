/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_REFCOUNT_DEMO_H
#define KFSIM_REFCOUNT_DEMO_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */
/*
 * A scripted walk of refcount_t through normal use, overflow, saturation and misuse, recording
 * after every call what the counter holds, what the call returned and the warning the kernel
 * would print; beside it, what a plain wrapping atomic_t would hold after the same calls.
 * Used by "kfsim refcount demo" and the tour.
 */
#include <stddef.h>
#include <kfsim/types.h>

#define KFSIM_REFCOUNT_DEMO_STEPS 32

/**
 * struct kfsim_refcount_demo_step - one call of the walk
 * @call: the call as written in C ("refcount_inc(&obj)")
 * @note: what the step shows
 * @before: counter value before the call (as refcount_read() returns it)
 * @after: counter value after the call
 * @returned: the call's return value, or -1 for a void function
 * @warning: the refcount_t warning text logged by the call ("" when none)
 * @atomic_after: what a wrapping atomic_t would hold after the same operation
 * @atomic_freed: whether the atomic_t's dec_and_test would have returned true (object freed)
 */
struct kfsim_refcount_demo_step {
	const char *call;
	const char *note;
	u32 before;
	u32 after;
	int returned;
	char warning[96];
	u32 atomic_after;
	bool atomic_freed;
};

/**
 * kfsim_refcount_demo() - run the walk
 * @steps: room for KFSIM_REFCOUNT_DEMO_STEPS results
 *
 * Re-arms the once-only refcount_t warnings first (kfsim_refcount_clear_warn_once()) so that
 * each type is shown firing once, then silenced.  The warnings also go to the kfsim log.
 * Follows kfsim_kernel_version() (the refcount_sub_and_test(0) step differs from 6.11 on).
 *
 * Return: the number of steps recorded.
 */
size_t kfsim_refcount_demo(struct kfsim_refcount_demo_step steps[KFSIM_REFCOUNT_DEMO_STEPS]);

/**
 * kfsim_refcount_demo_svg() - plot the walk's counter against a wrapping atomic_t's
 * @steps: from kfsim_refcount_demo()
 * @nr_steps: how many
 * @path: the SVG file to write
 *
 * Plots the first steps up to the point where the atomic_t frees the object, values in units
 * of 2^30 (REFCOUNT_SATURATED is -1).
 *
 * Return: 0, -EINVAL for no steps, or the error of kfsim_plot_svg_save().
 */
int kfsim_refcount_demo_svg(const struct kfsim_refcount_demo_step *steps, size_t nr_steps,
			    const char *path);

#pragma GCC visibility pop
#endif /* KFSIM_REFCOUNT_DEMO_H */
