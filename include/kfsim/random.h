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

/**
 * prandom_seed_state() - seed @state from @seed, as include/linux/prandom.h does
 * @state: the generator to seed
 * @seed: any 64-bit value
 *
 * The 64 bits are folded to 32 ((seed >> 32) ^ (seed << 10) ^ seed) and each component is lifted
 * above its minimum (2, 8, 16, 128).  There is no warm-up (the kernel warms up only in
 * prandom_seed_full_state()), so seed 1 draws 276959246, 18909696, 2298495022 first, exactly as
 * the kernel.  kfsim before 2026-12 warmed up ten rounds; every seeded run changed then.
 */
void prandom_seed_state(struct rnd_state *state, u64 seed);
/** prandom_u32_state() - the next 32 random bits of @state. */
u32 prandom_u32_state(struct rnd_state *state);
/** prandom_bytes_state() - fill @buf with @nbytes random bytes from @state. */
void prandom_bytes_state(struct rnd_state *state, void *buf, size_t nbytes);

/*
 * The kernel's non-reproducible randomness (include/linux/random.h, the CRNG): getrandom(2) here.
 * Use these where the kernel does (lib/cmdline_kunit.c uses get_random_u8()); a simulation that
 * must replay from its seed draws from its own struct rnd_state instead.
 */
/** get_random_bytes() - fill @buf with @len bytes from the system's CRNG. */
void get_random_bytes(void *buf, size_t len);
/** get_random_u8() - 8 random bits from the CRNG. */
u8 get_random_u8(void);
/** get_random_u16() - 16 random bits from the CRNG. */
u16 get_random_u16(void);
/** get_random_u32() - 32 random bits from the CRNG. */
u32 get_random_u32(void);
/** get_random_u64() - 64 random bits from the CRNG. */
u64 get_random_u64(void);
/** get_random_u32_below() - uniform in [0, @ceil) from the CRNG; @ceil 0 gives get_random_u32(). */
u32 get_random_u32_below(u32 ceil);

/** get_random_long() - an unsigned long of the CRNG (64 bits here). */
static inline unsigned long get_random_long(void)
{
	return get_random_u64();
}

/** get_random_u32_above() - uniform in (@floor, U32_MAX] (include/linux/random.h). */
static inline u32 get_random_u32_above(u32 floor)
{
	return floor + 1 + get_random_u32_below(UINT32_MAX - floor);
}

/** get_random_u32_inclusive() - uniform in [@floor, @ceil] (include/linux/random.h). */
static inline u32 get_random_u32_inclusive(u32 floor, u32 ceil)
{
	return floor + get_random_u32_below(ceil - floor + 1);
}

/** next_pseudo_random32() - the Numerical Recipes LCG step of include/linux/prandom.h. */
static inline u32 next_pseudo_random32(u32 seed)
{
	return seed * 1664525u + 1013904223u;
}

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
