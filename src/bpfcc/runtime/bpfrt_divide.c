// SPDX-License-Identifier: MIT
/*
 * BPF's division, where a natively built program's x86 division traps.
 *
 * A BPF program may divide by a register that holds zero, and the signed division of the
 * smallest number by -1 overflows; neither stops a BPF program.  The verifier rewrites every
 * division by a register (do_misc_fixups(), 6.18; the zero case since 4.15, sdiv/smod since
 * 6.6) so that:
 *
 *	x / 0 = 0		x % 0 = x (its low 32 bits for a 32-bit mod)
 *	MIN / -1 = MIN		MIN % -1 = 0	(BPF_SDIV is -x there, BPF_SMOD 0)
 *
 * Natively, gcc's "div"/"idiv" raise SIGFPE (#DE) in both cases, and the run crashed where the
 * kernel's test run returns a number.  The handler decodes the faulting instruction (F7 /6 or
 * /7, 32- or 64-bit, any ModRM operand), reads the divisor, writes the kernel's quotient to RAX
 * and remainder to RDX (x86 puts both there whatever the C asked for), and resumes after it.
 * Anything else (a division of kfsim's own that is not one of these) keeps the crash: the
 * previous disposition is restored and the instruction traps again.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>

#include "bpfrt.h"

#if defined(__x86_64__) && defined(REG_RIP)
/* x86's register numbers (ModRM, SIB, REX) to the signal context's slots */
static const int gregs_of[16] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8,	 REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};

static struct sigaction prev_fpe;

/* The decoded division: its length, whether signed, its width, its divisor. */
struct division {
	unsigned int len;
	bool is_signed;
	bool wide; /* 64-bit (REX.W), else 32-bit */
	int64_t divisor;
};

/* The memory operand's address of ModRM @modrm at @p (after the ModRM byte); @p advances. */
static uintptr_t mem_operand(const greg_t *regs, const uint8_t **p, uint8_t modrm, uint8_t rex,
			     uintptr_t next_insn_base)
{
	unsigned int mod = modrm >> 6, rm = modrm & 7;
	uintptr_t addr = 0;

	if (rm == 4) { /* SIB */
		uint8_t sib = *(*p)++;
		unsigned int base = sib & 7, index = ((sib >> 3) & 7) | ((rex & 2) << 2);

		if (index != 4)
			addr += (uintptr_t)regs[gregs_of[index]] << (sib >> 6);
		if (base == 5 && mod == 0) {
			int32_t disp;

			memcpy(&disp, *p, 4);
			*p += 4;
			addr += (uintptr_t)(intptr_t)disp;
		} else {
			addr += (uintptr_t)regs[gregs_of[base | ((rex & 1) << 3)]];
		}
	} else if (rm == 5 && mod == 0) { /* RIP-relative: from the next instruction */
		int32_t disp;

		memcpy(&disp, *p, 4);
		*p += 4;
		return next_insn_base + (uintptr_t)(intptr_t)disp; /* fixed up by the caller */
	} else {
		addr = (uintptr_t)regs[gregs_of[rm | ((rex & 1) << 3)]];
	}
	if (mod == 1) {
		addr += (uintptr_t)(intptr_t)(int8_t) * *p;
		*p += 1;
	} else if (mod == 2) {
		int32_t disp;

		memcpy(&disp, *p, 4);
		*p += 4;
		addr += (uintptr_t)(intptr_t)disp;
	}
	return addr;
}

/* Decode the division at @pc; false when it is not a 32- or 64-bit div/idiv. */
static bool decode(const greg_t *regs, const uint8_t *pc, struct division *d)
{
	const uint8_t *p = pc;
	uint8_t rex = 0, modrm;
	bool rip_relative;
	uintptr_t addr;

	while (*p == 0x2e || *p == 0x3e || *p == 0x26 || *p == 0x64 || *p == 0x65 || *p == 0x36)
		p++;		      /* segment prefixes (none changes the operand) */
	if (*p == 0x66 || *p == 0x67) /* a 16-bit operand or address: not C's division */
		return false;
	if ((*p & 0xf0) == 0x40)
		rex = *p++;
	if (*p++ != 0xf7)
		return false;
	modrm = *p++;
	if (((modrm >> 3) & 7) != 6 && ((modrm >> 3) & 7) != 7)
		return false;
	d->is_signed = ((modrm >> 3) & 7) == 7;
	d->wide = rex & 8;
	if ((modrm >> 6) == 3) {
		int64_t v = (int64_t)regs[gregs_of[(modrm & 7) | ((rex & 1) << 3)]];

		d->divisor = d->wide ? v : d->is_signed ? (int32_t)v : (int64_t)(uint32_t)v;
		d->len = (unsigned int)(p - pc);
		return true;
	}
	rip_relative = (modrm >> 6) == 0 && (modrm & 7) == 5;
	addr = mem_operand(regs, &p, modrm, rex, 0);
	d->len = (unsigned int)(p - pc);
	if (rip_relative)
		addr += (uintptr_t)pc + d->len;
	if (d->wide) {
		int64_t v;

		memcpy(&v, (const void *)addr, 8);
		d->divisor = v;
	} else {
		int32_t v;

		memcpy(&v, (const void *)addr, 4);
		d->divisor = d->is_signed ? v : (int64_t)(uint32_t)v;
	}
	return true;
}

static void divide_fault(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *regs = uc->uc_mcontext.gregs;
	struct division d;
	uint64_t dividend = (uint64_t)regs[REG_RAX];

	(void)si;
	if (!decode(regs, (const uint8_t *)regs[REG_RIP], &d) ||
	    (d.divisor != 0 && !(d.is_signed && d.divisor == -1))) {
		sigaction(sig, &prev_fpe, NULL);
		return; /* the instruction traps again, for the previous handler */
	}
	if (!d.wide)
		dividend = (uint32_t)dividend;
	if (d.divisor == 0) { /* quotient 0, the remainder the dividend */
		regs[REG_RAX] = 0;
		regs[REG_RDX] = (greg_t)dividend;
	} else { /* MIN / -1: the quotient MIN (the dividend as it is), the remainder 0 */
		regs[REG_RAX] = (greg_t)dividend;
		regs[REG_RDX] = 0;
	}
	regs[REG_RIP] += d.len;
}

void bpfrt_catch_divide_faults(void)
{
	struct sigaction sa = {.sa_sigaction = divide_fault, .sa_flags = SA_SIGINFO}, cur;

	if (sigaction(SIGFPE, NULL, &cur) || cur.sa_sigaction != divide_fault)
		sigaction(SIGFPE, &sa, &prev_fpe);
}
#else
void bpfrt_catch_divide_faults(void)
{
	/* elsewhere the division traps as before: the run is reported as a crash */
}
#endif
