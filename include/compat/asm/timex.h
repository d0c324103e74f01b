/* SPDX-License-Identifier: MIT */
/* <asm/timex.h> for kernel code built against kfsim: get_cycles(): the x86 time-stamp counter (arch/x86/include/asm/tsc.h). */
#ifndef KFSIM_COMPAT_ASM_TIMEX_H
#define KFSIM_COMPAT_ASM_TIMEX_H
#include <time.h>

typedef unsigned long long cycles_t;

/** get_cycles() - the CPU's cycle counter (RDTSC on x86, CLOCK_MONOTONIC ns elsewhere). */
static inline cycles_t get_cycles(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (cycles_t)ts.tv_sec * 1000000000ull + (cycles_t)ts.tv_nsec;
#endif
}
#endif /* KFSIM_COMPAT_ASM_TIMEX_H */
