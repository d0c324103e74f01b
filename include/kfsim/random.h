/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_RANDOM_H
#define KFSIM_RANDOM_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The kernel's seeded pseudo-random generator (include/linux/prandom.h, lib/random32.c):
 * L'Ecuyer's four-component Tausworthe generator LFSR113, seeded with prandom_seed_state().
 * It is what the kernel's own tests use for reproducible runs, and every kfsim simulation draws
 * from one struct rnd_state of its own, so a seed reproduces a run bit for bit.
 */
#include <kfsim/types.h>

/** struct rnd_state - the generator's four components. */
struct rnd_state {
	u32 s1, s2, s3, s4;
};

/** prandom_seed_state() - seed @state from @seed (and warm it up), as the kernel does. */
void prandom_seed_state(struct rnd_state *state, u64 seed);
/** prandom_u32_state() - the next 32 random bits of @state. */
u32 prandom_u32_state(struct rnd_state *state);
/** prandom_bytes_state() - fill @buf with @nbytes random bytes from @state. */
void prandom_bytes_state(struct rnd_state *state, void *buf, size_t nbytes);

/** kfsim_prandom_u64() - 64 random bits (two draws). */
u64 kfsim_prandom_u64(struct rnd_state *state);
/** kfsim_prandom_below() - uniform in [0, @bound) without modulo bias; 0 when @bound is 0. */
u32 kfsim_prandom_below(struct rnd_state *state, u32 bound);
/** kfsim_prandom_double() - uniform in [0, 1), 53 bits of precision. */
double kfsim_prandom_double(struct rnd_state *state);
/** kfsim_prandom_exp() - exponentially distributed with mean @mean (for Poisson arrivals). */
double kfsim_prandom_exp(struct rnd_state *state, double mean);

#pragma GCC visibility pop
#endif /* KFSIM_RANDOM_H */
