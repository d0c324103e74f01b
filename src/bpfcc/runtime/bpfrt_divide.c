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
 * /7 in 32 or 64 bits, and gcc's divb and divw of unsigned char and short: F6 /6, 66 F7 /6; any
 * ModRM operand), reads the divisor, writes the kernel's quotient to RAX (AL) and remainder to
 * RDX (AH) (x86 puts both there whatever the C asked for), and resumes after it.
 *
 * gcc at -O2 and above turns a path on which it sees a divisor of zero (a constant reaching
 * the division) into a trap (ud2, SIGILL), which no handler can resume; kfsim-bpf-cc builds
 * with -fno-isolate-erroneous-paths-dereference, so that path divides as BPF's does.
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
	unsigned int bits; /* 8 (F6), 16 (66 F7), 32 (F7) or 64 (REX.W F7) */
	int64_t divisor;   /* sign- or zero-extended from @bits */
};

/* @v's low @bits bits (@bits < 64), sign-extended when @is_signed, else zero-extended. */
static int64_t extend(uint64_t v, unsigned int bits, bool is_signed)
{
	if (bits == 64)
		return (int64_t)v;
	v &= (UINT64_C(1) << bits) - 1;
	if (is_signed && (v >> (bits - 1)))
		v |= ~UINT64_C(0) << bits;
	return (int64_t)v;
}

/* Register operand @reg (ModRM rm, REX.B folded in) of a @bits-bit instruction. */
static uint64_t reg_operand(const greg_t *regs, unsigned int reg, unsigned int bits, uint8_t rex)
{
	/* an 8-bit operand without REX: 4..7 are AH, CH, DH, BH (not SPL, BPL, SIL, DIL) */
	if (bits == 8 && !rex && reg >= 4)
		return (uint64_t)regs[gregs_of[reg - 4]] >> 8;
	return (uint64_t)regs[gregs_of[reg]];
}

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

/*
 * Decode the division at @pc; false when it is no div/idiv.  gcc divides unsigned char and
 * unsigned short by divb and divw (C promotes them to int, but the quotient fits): BPF's
 * program, built from the same C, divides in 32 bits and gives BPF's result there too.
 */
static bool decode(const greg_t *regs, const uint8_t *pc, struct division *d)
{
	const uint8_t *p = pc;
	uint8_t rex = 0, modrm, opcode;
	bool rip_relative, opsize16 = false;
	uintptr_t addr;
	uint64_t v = 0;

	for (;; p++) {
		if (*p == 0x66)
			opsize16 = true;
		else if (*p != 0x2e && *p != 0x3e && *p != 0x26 && *p != 0x64 && *p != 0x65 &&
			 *p != 0x36)
			break; /* segment prefixes change no operand */
	}
	if (*p == 0x67) /* a 16-bit address: no C compiler's */
		return false;
	if ((*p & 0xf0) == 0x40)
		rex = *p++;
	opcode = *p++;
	if (opcode != 0xf7 && opcode != 0xf6)
		return false;
	modrm = *p++;
	if (((modrm >> 3) & 7) != 6 && ((modrm >> 3) & 7) != 7)
		return false;
	d->is_signed = ((modrm >> 3) & 7) == 7;
	d->bits = opcode == 0xf6 ? 8 : rex & 8 ? 64 : opsize16 ? 16 : 32;
	if ((modrm >> 6) == 3) {
		v = reg_operand(regs, (modrm & 7) | ((rex & 1) << 3), d->bits, rex);
		d->len = (unsigned int)(p - pc);
	} else {
		rip_relative = (modrm >> 6) == 0 && (modrm & 7) == 5;
		addr = mem_operand(regs, &p, modrm, rex, 0);
		d->len = (unsigned int)(p - pc);
		if (rip_relative)
			addr += (uintptr_t)pc + d->len;
		memcpy(&v, (const void *)addr, d->bits / 8); /* little-endian: the low bytes */
	}
	d->divisor = extend(v, d->bits, d->is_signed);
	return true;
}

/* @reg with its low @bits bits replaced by @v's, as x86 writes a result of that width. */
static greg_t put_bits(greg_t reg, uint64_t v, unsigned int bits)
{
	uint64_t mask;

	if (bits == 64)
		return (greg_t)v;
	if (bits == 32) /* a 32-bit result zeroes the register's upper half */
		return (greg_t)(uint32_t)v;
	mask = (UINT64_C(1) << bits) - 1; /* 8 and 16 bits keep the register's other bits */
	return (greg_t)(((uint64_t)reg & ~mask) | (v & mask));
}

static void divide_fault(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *regs = uc->uc_mcontext.gregs;
	struct division d;
	uint64_t dividend, quotient, remainder;

	(void)si;
	if (!decode(regs, (const uint8_t *)regs[REG_RIP], &d) ||
	    (d.divisor != 0 && !(d.is_signed && d.divisor == -1))) {
		sigaction(sig, &prev_fpe, NULL);
		return; /* the instruction traps again, for the previous handler */
	}
	/* the dividend as C computed it: its low bits (the compiler zeroed or sign-filled the
	 * high half, DX:AX, EDX:EAX or RDX:RAX, AH for divb) */
	dividend = (uint64_t)extend((uint64_t)regs[REG_RAX], d.bits, false);
	if (d.divisor == 0) { /* quotient 0, the remainder the dividend */
		quotient = 0;
		remainder = dividend;
	} else { /* MIN / -1: the quotient MIN (the dividend as it is), the remainder 0 */
		quotient = dividend;
		remainder = 0;
	}
	if (d.bits == 8) { /* AL the quotient, AH the remainder */
		regs[REG_RAX] = put_bits(regs[REG_RAX], quotient | remainder << 8, 16);
	} else {
		regs[REG_RAX] = put_bits(regs[REG_RAX], quotient, d.bits);
		regs[REG_RDX] = put_bits(regs[REG_RDX], remainder, d.bits);
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
