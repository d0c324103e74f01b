// SPDX-License-Identifier: MIT
/*
 * LFSR113 (P. L'Ecuyer, "Tables of maximally equidistributed combined LFSR generators",
 * Mathematics of Computation 68, 1999): four Tausworthe components with periods 2^31..2^25
 * combined by XOR, period about 2^113.  Seeding follows the kernel's prandom_seed_state()
 * (include/linux/prandom.h), which only spreads the seed over the four components: the ten
 * warm-up rounds of lib/random32.c belong to prandom_seed_full_state() and its self-test, not to
 * prandom_seed_state().  So seed 1 starts 276959246, 18909696, 2298495022, as in the kernel, and
 * kernel code that seeds its own state (lib/rbtree_test.c) draws the kernel's numbers.
 *
 * get_random_u8() and friends are the kernel's non-reproducible randomness (the CRNG): here the
 * system's entropy (getentropy(3), over getrandom(2) on Linux, the browser's crypto in the
 * WebAssembly module), never the seeded generator, so they do not disturb a seeded run.
 */
#include <stddef.h>
#include <sys/random.h>
#include <math.h>
#include <string.h>

#include <kfsim/kernel.h>
#include <kfsim/random.h>

/* One Tausworthe step: s -> ((s & c) << d) ^ (((s << a) ^ s) >> b). */
static inline u32 tausworthe(u32 s, unsigned int a, unsigned int b, u32 c, unsigned int d)
{
	return ((s & c) << d) ^ (((s << a) ^ s) >> b);
}

/*
 * The generator's step, inline in every draw of this file.  The draws are exported, so in the
 * position-independent library none is inlined into another: kfsim_prandom_exp(), a Poisson
 * arrival's draw, was three calls deep for its two steps.
 */
static __always_inline u32 lfsr113_step(struct rnd_state *state)
{
	state->s1 = tausworthe(state->s1, 6U, 13U, 4294967294U, 18U);
	state->s2 = tausworthe(state->s2, 2U, 27U, 4294967288U, 2U);
	state->s3 = tausworthe(state->s3, 13U, 21U, 4294967280U, 7U);
	state->s4 = tausworthe(state->s4, 3U, 12U, 4294967168U, 13U);
	return state->s1 ^ state->s2 ^ state->s3 ^ state->s4;
}

/* Two steps, the first in the high half. */
static __always_inline u64 lfsr113_u64(struct rnd_state *state)
{
	u64 hi = lfsr113_step(state);

	return hi << 32 | lfsr113_step(state);
}

/* Uniform in [0, 1): the high 53 bits of two steps. */
static __always_inline double lfsr113_unit(struct rnd_state *state)
{
	return (double)(lfsr113_u64(state) >> 11) * 0x1.0p-53;
}

u32 prandom_u32_state(struct rnd_state *state)
{
	return lfsr113_step(state);
}

/* Each component needs a seed above a minimum (2, 8, 16, 128) or it degenerates. */
static u32 seed_min(u32 x, u32 m)
{
	return x < m ? x + m : x;
}

void prandom_seed_state(struct rnd_state *state, u64 seed)
{
	u32 i = (u32)(((seed >> 32) ^ (seed << 10) ^ seed) & 0xffffffffUL);

	state->s1 = seed_min(i, 2U);
	state->s2 = seed_min(i, 8U);
	state->s3 = seed_min(i, 16U);
	state->s4 = seed_min(i, 128U);
}

/*
 * The kernel's CRNG cannot fail once seeded; getentropy(3) cannot either for a valid buffer of at
 * most 256 bytes (it retries EINTR itself), so the bytes come in pieces of that size.
 */
static void crng_bytes(void *buf, size_t len)
{
	unsigned char *out = buf;

	while (len) {
		size_t piece = len < 256 ? len : 256;

		if (getentropy(out, piece))
			continue;
		out += piece;
		len -= piece;
	}
}

void get_random_bytes(void *buf, size_t len)
{
	crng_bytes(buf, len);
}

/* get_random_u8() .. get_random_u64(): that many bytes of the CRNG. */
#define DEFINE_GET_RANDOM(type)                                                                   \
	type get_random_##type(void)                                                              \
	{                                                                                         \
		type v;                                                                           \
		crng_bytes(&v, sizeof(v));                                                        \
		return v;                                                                         \
	}
DEFINE_GET_RANDOM(u8)
DEFINE_GET_RANDOM(u16)
DEFINE_GET_RANDOM(u32)
DEFINE_GET_RANDOM(u64)

u32 get_random_u32_below(u32 ceil)
{
	u64 mult;

	/* As the kernel: multiply-and-reject (Lemire), so every value below @ceil is equally likely. */
	if (!ceil)
		return get_random_u32();
	mult = (u64)ceil * get_random_u32();
	if ((u32)mult < ceil) {
		u32 bound = -ceil % ceil;

		while ((u32)mult < bound)
			mult = (u64)ceil * get_random_u32();
	}
	return (u32)(mult >> 32);
}

void prandom_bytes_state(struct rnd_state *state, void *buf, size_t nbytes)
{
	unsigned char *out = buf;

	while (nbytes >= 4) {
		u32 word = prandom_u32_state(state);

		memcpy(out, &word, 4);
		out += 4;
		nbytes -= 4;
	}
	if (nbytes) {
		u32 word = prandom_u32_state(state);

		memcpy(out, &word, nbytes);
	}
}

u64 kfsim_prandom_u64(struct rnd_state *state)
{
	return lfsr113_u64(state);
}

u32 kfsim_prandom_below(struct rnd_state *state, u32 bound)
{
	u64 product;
	u32 low, threshold;

	if (!bound)
		return 0;
	/* Lemire's multiply-and-reject: unbiased, one division only when a rejection is possible. */
	product = (u64)lfsr113_step(state) * bound;
	low = (u32)product;
	if (low < bound) {
		threshold = -bound % bound;
		while (low < threshold) {
			product = (u64)lfsr113_step(state) * bound;
			low = (u32)product;
		}
	}
	return (u32)(product >> 32);
}

double kfsim_prandom_double(struct rnd_state *state)
{
	return lfsr113_unit(state);
}

double kfsim_prandom_exp(struct rnd_state *state, double mean)
{
	return -mean * log1p(-lfsr113_unit(state));
}
