// SPDX-License-Identifier: MIT
/*
 * LFSR113 (P. L'Ecuyer, "Tables of maximally equidistributed combined LFSR generators",
 * Mathematics of Computation 68, 1999): four Tausworthe components with periods 2^31..2^25
 * combined by XOR, period about 2^113.  Seeding and the ten warm-up rounds follow the kernel's
 * prandom_seed_state(), so the same seed gives the kernel's sequence.
 */
#include <math.h>
#include <string.h>

#include <kfsim/random.h>

/* One Tausworthe step: s -> ((s & c) << d) ^ (((s << a) ^ s) >> b). */
static inline u32 tausworthe(u32 s, unsigned int a, unsigned int b, u32 c, unsigned int d)
{
	return ((s & c) << d) ^ (((s << a) ^ s) >> b);
}

u32 prandom_u32_state(struct rnd_state *state)
{
	state->s1 = tausworthe(state->s1, 6U, 13U, 4294967294U, 18U);
	state->s2 = tausworthe(state->s2, 2U, 27U, 4294967288U, 2U);
	state->s3 = tausworthe(state->s3, 13U, 21U, 4294967280U, 7U);
	state->s4 = tausworthe(state->s4, 3U, 12U, 4294967168U, 13U);
	return state->s1 ^ state->s2 ^ state->s3 ^ state->s4;
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
	for (int round = 0; round < 10; round++)
		prandom_u32_state(state);
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
	u64 hi = prandom_u32_state(state);

	return hi << 32 | prandom_u32_state(state);
}

u32 kfsim_prandom_below(struct rnd_state *state, u32 bound)
{
	u64 product;
	u32 low, threshold;

	if (!bound)
		return 0;
	/* Lemire's multiply-and-reject: unbiased, one division only when a rejection is possible. */
	product = (u64)prandom_u32_state(state) * bound;
	low = (u32)product;
	if (low < bound) {
		threshold = -bound % bound;
		while (low < threshold) {
			product = (u64)prandom_u32_state(state) * bound;
			low = (u32)product;
		}
	}
	return (u32)(product >> 32);
}

double kfsim_prandom_double(struct rnd_state *state)
{
	return (double)(kfsim_prandom_u64(state) >> 11) * 0x1.0p-53;
}

double kfsim_prandom_exp(struct rnd_state *state, double mean)
{
	return -mean * log1p(-kfsim_prandom_double(state));
}
