/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_KERNEL_H
#define KFSIM_KERNEL_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The small helpers of include/linux/kernel.h, container_of.h, compiler.h, build_bug.h and
 * minmax.h that every part uses.  Semantics follow the kernel: min()/max() evaluate each argument
 * once and refuse (at compile time) to compare values of different types; use min_t()/max_t()
 * to compare across types.
 */
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/types.h>

#ifndef likely
/** likely() - hint that @x is usually true (branch layout only, no semantics). */
#define likely(x) __builtin_expect(!!(x), 1)
/** unlikely() - hint that @x is usually false. */
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* glibc's <sys/cdefs.h> defines some of these too, with the same meaning. */
#ifndef __must_check
#define __must_check __attribute__((warn_unused_result))
#endif
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#ifndef __maybe_unused
#define __maybe_unused __attribute__((unused))
#endif
#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif
#ifndef __cold
#define __cold __attribute__((cold))
#endif
#ifndef __noreturn
#define __noreturn __attribute__((noreturn))
#endif

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) (*(volatile __typeof__(x) *)&(x) = (val))

/**
 * container_of() - the structure that embeds a member
 * @ptr: pointer to the member
 * @type: type of the containing structure
 * @member: name of the member within @type
 *
 * The member's type is checked against @ptr at compile time, as the kernel's version does.
 */
#define container_of(ptr, type, member)                                                           \
	({                                                                                        \
		void *__mptr = (void *)(ptr);                                                      \
		_Static_assert(__builtin_types_compatible_p(__typeof__(*(ptr)),                   \
							    __typeof__(((type *)0)->member)) ||   \
				       __builtin_types_compatible_p(__typeof__(*(ptr)), void),    \
			       "pointer type mismatch in container_of()");                        \
		((type *)((char *)__mptr - offsetof(type, member)));                              \
	})

/** BUILD_BUG_ON() - break the build when @cond is true (a compile-time constant). */
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON failed: " #cond)
/** BUILD_BUG_ON_MSG() - BUILD_BUG_ON() with the message to print. */
#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)

#define __must_be_array(a)                                                                        \
	(sizeof(struct { int:(-!!__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0]))); }))
/** ARRAY_SIZE() - number of elements of array @arr; a pointer is a compile error. */
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]) + 0 * __must_be_array(arr))

/*
 * min()/max()/clamp() as in 6.12's include/linux/minmax.h: each argument is evaluated once, and
 * mixing signedness is a build error ("min(a, b) signedness error") unless it is harmless:
 * every argument must be usable as signed (a signed type, or an unsigned type narrower than
 * int, which promotes to int) or every one as unsigned (an unsigned type, or a signed value the
 * compiler sees is a non-negative constant).  Same-type arguments always pass.  The kernel
 * checks after optimisation (__builtin_constant_p on the copies); kfsim checks with
 * _Static_assert on the argument expressions, so a constant is one the front end sees (a
 * literal, an enum, a constant expression), at -O0 too.  The result has the type of the
 * kernel's "x < y ? x : y" (the usual arithmetic conversions), computed without tripping
 * -Wsign-compare.
 */
/*
 * A floating-point argument (kfsim's own code uses min()/clamp() on doubles; the kernel has
 * none): no signedness to check, and no comparison of floating constants, which clang does not
 * accept in a _Static_assert (an integer constant expression may hold a floating constant only
 * as the operand of a cast).  __builtin_classify_type: 8 is a real floating type, in gcc and
 * clang alike.
 */
#define __kfsim_is_float(ux) (__builtin_classify_type(ux) == 8)
#define __kfsim_is_signed(ux)                                                                     \
	__builtin_choose_expr(__kfsim_is_float(ux), 1, (__typeof__(ux))(-1) < (__typeof__(ux))1)
/* the sign bit by a shift: "(long long)(x) >= 0" trips -Wtype-limits for unsigned constants */
#define __kfsim_is_nonneg(x)                                                                      \
	__builtin_choose_expr(__builtin_constant_p(x), !((unsigned long long)(long long)(x) >> 63), 0)
/* 2 = usable as signed, 1 = usable as unsigned (both bits: either) */
#define __kfsim_sign_use(x, ux)                                                                   \
	__builtin_choose_expr(__kfsim_is_float(ux), 3,                                            \
			      __kfsim_is_signed(ux) ? 2 + __kfsim_is_nonneg(x)                    \
						    : 1 + 2 * (sizeof(ux) < 4))
#define __kfsim_types_ok(x, ux, y, uy) (__kfsim_sign_use(x, ux) & __kfsim_sign_use(y, uy))
#define __kfsim_careful_cmp(op, name, x, y, ux, uy)                                               \
	({                                                                                        \
		__auto_type ux = (x);                                                              \
		__auto_type uy = (y);                                                              \
		_Static_assert(__kfsim_types_ok(x, ux, y, uy),                                     \
			       #name "(" #x ", " #y ") signedness error");                         \
		__typeof__(ux + uy) ux##_c = ux, uy##_c = uy;                                      \
		ux##_c op uy##_c ? ux##_c : uy##_c;                                                \
	})
/** min() - the smaller of @x and @y; mixed signedness only where harmless (see above). */
#define min(x, y) __kfsim_careful_cmp(<, min, x, y, __kfsim_min_x, __kfsim_min_y)
/** max() - the larger of @x and @y; mixed signedness only where harmless (see above). */
#define max(x, y) __kfsim_careful_cmp(>, max, x, y, __kfsim_max_x, __kfsim_max_y)
#define __kfsim_cmp_t(op, type, x, y, ux, uy)                                                     \
	({                                                                                        \
		type ux = (x);                                                                     \
		type uy = (y);                                                                     \
		ux op uy ? ux : uy;                                                                \
	})
/** min_t() - the smaller of @x and @y after converting both to @type (no signedness check). */
#define min_t(type, x, y) __kfsim_cmp_t(<, type, x, y, __kfsim_mint_x, __kfsim_mint_y)
/** max_t() - the larger of @x and @y after converting both to @type (no signedness check). */
#define max_t(type, x, y) __kfsim_cmp_t(>, type, x, y, __kfsim_maxt_x, __kfsim_maxt_y)
/*
 * clamp(): "val >= hi ? hi : (val <= lo ? lo : val)" (so with lo > hi at run time the result is
 * hi when val >= hi, else lo), a build error when lo > hi is a constant the front end sees
 * ("clamp() low limit lo greater than high limit hi"), and the signedness check of min().
 */
#define __kfsim_clamp(type, val, lo, hi, uval, ulo, uhi)                                          \
	({                                                                                        \
		type uval = (val);                                                                 \
		type ulo = (lo);                                                                   \
		type uhi = (hi);                                                                   \
		_Static_assert(!__builtin_choose_expr(__builtin_constant_p((lo) > (hi)) &&        \
							      !__kfsim_is_float(ulo) &&            \
							      !__kfsim_is_float(uhi),              \
						      (__typeof__(ulo))(lo) > (__typeof__(uhi))(hi), \
						      0),                                          \
			       "clamp() low limit " #lo " greater than high limit " #hi);          \
		_Static_assert(__kfsim_sign_use(val, uval) & __kfsim_sign_use(lo, ulo) &           \
				       __kfsim_sign_use(hi, uhi),                                  \
			       "clamp(" #val ", " #lo ", " #hi ") signedness error");              \
		__typeof__(uval + ulo + uhi) uval##_c = uval, ulo##_c = ulo, uhi##_c = uhi;        \
		uval##_c >= uhi##_c ? uhi##_c : (uval##_c <= ulo##_c ? ulo##_c : uval##_c);        \
	})
/** clamp() - @val limited to [@lo, @hi]; signedness checked as min(). */
#define clamp(val, lo, hi)                                                                        \
	__kfsim_clamp(__auto_type, val, lo, hi, __kfsim_clamp_v, __kfsim_clamp_l, __kfsim_clamp_h)
/** clamp_t() - clamp() after converting all three to @type. */
#define clamp_t(type, val, lo, hi)                                                                \
	__kfsim_clamp(type, val, lo, hi, __kfsim_clampt_v, __kfsim_clampt_l, __kfsim_clampt_h)
/** swap() - exchange the values of @a and @b. */
#define swap(a, b)                                                                                \
	do {                                                                                      \
		__typeof__(a) __kfsim_tmp = (a);                                                   \
		(a) = (b);                                                                         \
		(b) = __kfsim_tmp;                                                                 \
	} while (0)
/** DIV_ROUND_UP() - @n divided by @d, rounded up. */
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
/** BIT() - the value with only bit @nr set, as unsigned long. */
#define BIT(nr) (1UL << (nr))
/** BIT_ULL() - the value with only bit @nr set, as unsigned long long. */
#define BIT_ULL(nr) (1ULL << (nr))
/** GENMASK() - a mask of bits @l..@h inclusive (@h >= @l). */
#define GENMASK(h, l) (((~0UL) << (l)) & (~0UL >> (8 * sizeof(long) - 1 - (h))))

/* The limits of the fixed-size types, as include/linux/limits.h spells them. */
#define U8_MAX ((u8)~0U)
#define S8_MAX ((s8)(U8_MAX >> 1))
#define S8_MIN ((s8)(-S8_MAX - 1))
#define U16_MAX ((u16)~0U)
#define S16_MAX ((s16)(U16_MAX >> 1))
#define S16_MIN ((s16)(-S16_MAX - 1))
#define U32_MAX ((u32)~0U)
#define U32_MIN ((u32)0)
#define S32_MAX ((s32)(U32_MAX >> 1))
#define S32_MIN ((s32)(-S32_MAX - 1))
#define U64_MAX ((u64)~0ULL)
#define S64_MAX ((s64)(U64_MAX >> 1))
#define S64_MIN ((s64)(-S64_MAX - 1))

/*
 * Time unit conversions, with include/vdso/time64.h's names and types (long, 64 bits here): an
 * expression such as 2 * NSEC_PER_MSEC stays an integer, and a double times one is a double.
 */
#define MSEC_PER_SEC 1000L
#define USEC_PER_MSEC 1000L
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define USEC_PER_SEC 1000000L
#define NSEC_PER_SEC 1000000000L

/*
 * Number parsing (lib/kstrtox.c, lib/vsprintf.c).  simple_strto*() stop at the first non-digit
 * and never fail (the kernel discourages them, but lib/cmdline.c uses them); kstrto*() take the
 * whole string (one trailing newline allowed) and return 0, -EINVAL or -ERANGE.  Base 0 reads
 * 0x.. as hex and 0.. as octal.
 */
unsigned long long simple_strtoull(const char *cp, char **endp, unsigned int base);
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);
long long simple_strtoll(const char *cp, char **endp, unsigned int base);
long simple_strtol(const char *cp, char **endp, unsigned int base);
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtoint(const char *s, unsigned int base, int *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtol(const char *s, unsigned int base, long *res);
int kstrtou64(const char *s, unsigned int base, u64 *res);
int kstrtos64(const char *s, unsigned int base, s64 *res);
int kstrtou32(const char *s, unsigned int base, u32 *res);
int kstrtos32(const char *s, unsigned int base, s32 *res);
int kstrtou16(const char *s, unsigned int base, u16 *res);
int kstrtos16(const char *s, unsigned int base, s16 *res);
int kstrtou8(const char *s, unsigned int base, u8 *res);
int kstrtos8(const char *s, unsigned int base, s8 *res);
/** kstrtobool() - y/Y/t/T/1/on is true, n/N/f/F/0/off false (only the first letters count). */
int kstrtobool(const char *s, bool *res);

/*
 * 64-bit division helpers (include/linux/math64.h): on 64-bit machines plain C division, kept so
 * kernel code compiles unchanged.  The _rem variants store the remainder.
 */
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}
static inline s64 div_s64_rem(s64 dividend, s32 divisor, s32 *remainder)
{
	*remainder = (s32)(dividend % divisor);
	return dividend / divisor;
}
static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}
static inline u64 div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
static inline s64 div_s64(s64 dividend, s32 divisor) { return dividend / divisor; }
static inline u64 div64_u64(u64 dividend, u64 divisor) { return dividend / divisor; }
static inline s64 div64_s64(s64 dividend, s64 divisor) { return dividend / divisor; }
static inline u64 div64_ul(u64 dividend, unsigned long divisor) { return dividend / divisor; }
/** DIV64_U64_ROUND_UP() - @ll / @d rounded up. */
#define DIV64_U64_ROUND_UP(ll, d) div64_u64((ll) + (d) - 1, (d))
/** DIV_ROUND_CLOSEST_ULL() - @ll / @d rounded to the nearest. */
#define DIV_ROUND_CLOSEST_ULL(ll, d) div_u64((ll) + (d) / 2, (d))
/** do_div() - divide u64 lvalue @n by u32 @base in place; evaluates to the remainder. */
#define do_div(n, base)                                                                           	({                                                                                        		u32 __kfsim_base = (base);                                                         		u32 __kfsim_rem = (u32)((n) % __kfsim_base);                                      		(n) = (n) / __kfsim_base;                                                          		__kfsim_rem;                                                                       	})

/*
 * Powers of two (include/linux/log2.h).  ilog2() as 6.12's: a constant below 2 (0 too) gives 0,
 * a run-time 0 gives -1 (fls(0) - 1); roundup_pow_of_two(0) is undefined in the kernel too:
 * callers must not pass 0.
 */
/** is_power_of_2() - whether @n is a power of two (0 is not). */
static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}
/* fls64(n) - 1: -1 for 0 (__builtin_clzll(0) is undefined) */
static inline __attribute__((const)) int __kfsim_ilog2_u64(unsigned long long n)
{
	return n ? 63 - __builtin_clzll(n) : -1;
}
/** ilog2() - floor(log2(@n)); 0 for a constant below 2, -1 for 0 at run time (as 6.12). */
#define ilog2(n)                                                                                  \
	((int)(__builtin_constant_p(n) ? ((n) < 2 ? 0 : 63 - __builtin_clzll(n))                  \
				       : __kfsim_ilog2_u64((unsigned long long)(n))))
/** roundup_pow_of_two() - the smallest power of two >= @n (@n > 0). */
#define roundup_pow_of_two(n)                                                                     	((n) == 1 ? 1UL : 1UL << (ilog2((unsigned long long)(n) - 1) + 1))
/** rounddown_pow_of_two() - the largest power of two <= @n (@n > 0). */
#define rounddown_pow_of_two(n) (1UL << ilog2(n))
/** order_base_2() - ceil(log2(@n)); 0 for @n of 0 or 1. */
#define order_base_2(n) ((n) > 1 ? ilog2((unsigned long long)(n) - 1) + 1 : 0)

#pragma GCC visibility pop
#endif /* KFSIM_KERNEL_H */
