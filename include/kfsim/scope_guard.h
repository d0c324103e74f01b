/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_SCOPE_GUARD_H
#define KFSIM_SCOPE_GUARD_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */
/*
 * ScopeGuard: the C shape of Rust-for-Linux's kernel::types::ScopeGuard<T, F> (6.3): run a
 * cleanup function when a scope ends, unless the guard was dismissed.
 *
 * Built on __attribute__((cleanup)), so the cleanup runs on every way out of the block that
 * declared the guard: falling off the end, return, break, continue, goto out of the block.  It
 * does not run on longjmp(), exit() or abort().  Several guards run in reverse order of
 * declaration.  Never jump INTO the scope of a guard (clang rejects it; gcc accepts it silently
 * and then runs the cleanup on an uninitialised guard).
 *
 *	SCOPE_GUARD(undo, buf_free, buf);	// Rust: ScopeGuard::new_with_data(buf, buf_free)
 *	if (setup(buf) < 0)
 *		return -EINVAL;			// buf_free(buf) runs here
 *	return register_it(scope_guard_dismiss(&undo));	// dismissed: nothing runs
 */
#include <stdbool.h>
#include <stddef.h>

/**
 * struct scope_guard - a pending cleanup
 * @cleanup: called once with @data when the scope ends while armed
 * @data: the guarded data (NULL for a guard without data, Rust's ScopeGuard::new)
 * @armed: false once dismissed or run
 */
struct scope_guard {
	void (*cleanup)(void *data);
	void *data;
	bool armed;
};

/** scope_guard_run() - run the guard now if still armed (the cleanup attribute calls this). */
static inline void scope_guard_run(struct scope_guard *guard)
{
	if (guard->armed) {
		guard->armed = false;
		guard->cleanup(guard->data);
	}
}

/**
 * scope_guard_dismiss() - disarm @guard so its cleanup never runs (ScopeGuard::dismiss)
 *
 * Return: the guarded data, now owned by the caller again.
 */
static inline void *scope_guard_dismiss(struct scope_guard *guard)
{
	guard->armed = false;
	return guard->data;
}

/** scope_guard_data() - the guarded data (Deref/DerefMut), still guarded. */
static inline void *scope_guard_data(const struct scope_guard *guard)
{
	return guard->data;
}

/**
 * SCOPE_GUARD() - declare guard @name that calls @cleanup(@data) when the scope ends
 * @name: the variable
 * @cleanup: a function taking void * (void (*)(void *))
 * @data: the guarded data, evaluated once now
 *
 * Marked unused so that clang does not warn about a variable that is only there for its cleanup.
 */
#define SCOPE_GUARD(name, cleanup_fn, data_expr)                                                  \
	struct scope_guard name __attribute__((__cleanup__(scope_guard_run), __unused__)) = {     \
		.cleanup = (cleanup_fn), .data = (void *)(data_expr), .armed = true               \
	}

/** SCOPE_GUARD_FN() - a guard without data (ScopeGuard::new); @cleanup_fn gets NULL. */
#define SCOPE_GUARD_FN(name, cleanup_fn) SCOPE_GUARD(name, cleanup_fn, NULL)

#pragma GCC visibility pop
#endif /* KFSIM_SCOPE_GUARD_H */
