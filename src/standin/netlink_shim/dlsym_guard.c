// SPDX-License-Identifier: MIT
/*
 * dlsym() of the shim's calls: the shim's, even when asked of libc by name.
 *
 * A preloaded library replaces libc's socket() and ioctl() for every lookup through the global
 * scope, but dlsym(handle, "socket") with the handle of libc itself searches libc alone and
 * returns libc's own.  Python's ctypes.CDLL("libc.so.6"), a common way to reach libc from a
 * script, does exactly that: under the shim preloaded by hand, its socket(AF_NETLINK, ...,
 * NETLINK_ROUTE) got a real rtnetlink socket and its ioctl(SIOCSIFMTU) set a real interface's
 * MTU (measured 2026-12-07, as root in a namespace standing for the machine; attack
 * "shim_dlsym").
 *
 * Invariant kept: a lookup with an explicit handle that finds one of the calls the shim wraps
 * (below, the list netlink_shim.c defines) in a libc ("libc.so.*") returns the shim's function
 * instead, whichever namespace that libc was loaded in.  Every other lookup is libc's own:
 * RTLD_NEXT and RTLD_DEFAULT are jumped to libc's dlsym() with the caller's return
 * address untouched, since RTLD_NEXT searches after the object that called it (the shim's own
 * lookups, an ASan runtime's).  That jump is written for x86-64 and arm64 (the architectures
 * `kfsim exec` runs on); elsewhere dlsym() is libc's alone and the hole stays (documented).
 * dlvsym() is not replaced: the shim finds libc's dlsym() with it (RTLD_NEXT from here), so
 * dlvsym(libc or RTLD_DEFAULT, "socket", "GLIBC_2.2.5") still returns libc's own: glibc's
 * dlvsym() matches only a definition of that version, and the shim's have none (documented).
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__aarch64__)

#define SHIM_HIDDEN __attribute__((visibility("hidden")))

SHIM_HIDDEN void *(*shim_real_dlsym)(void *, const char *);
SHIM_HIDDEN void shim_dlsym_init(void);
SHIM_HIDDEN void *shim_dlsym_handle(void *handle, const char *name);

/* Every call netlink_shim.c defines in libc's place. */
static const char *const wrapped[] = {
	"socket", "close", "bind", "connect", "getsockname", "getpeername", "setsockopt",
	"getsockopt", "send", "sendto", "sendmsg", "recvfrom", "recvmsg", "dup", "dup2", "dup3",
	"fcntl", "fcntl64", "recv", "read", "write", "close_range", "closefrom", "ioctl",
	"shutdown", "sendmmsg", "writev", "readv", "recvmmsg", "__recv_chk", "__recvfrom_chk",
	"__read_chk",
};

/*
 * libc's dlsym(), found after the shim (RTLD_NEXT from here, with libc's dlvsym(), which the
 * shim leaves alone).  Called by the jump below before its first use, with the caller's
 * arguments saved around it.  Not instrumented: an ASan (or TSan) runtime preloaded first
 * looks up its interceptors' targets with dlsym() while it starts, before its shadow memory
 * exists, and an instrumented read here faulted in every program (the ASan build's shim).
 */
__attribute__((no_sanitize("address", "thread"))) void shim_dlsym_init(void)
{
#ifdef __x86_64__
	static const char *const versions[] = { "GLIBC_2.34", "GLIBC_2.2.5" };
#else
	static const char *const versions[] = { "GLIBC_2.34", "GLIBC_2.17" };
#endif
	void *found = NULL;

	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]) && !found; i++)
		found = dlvsym(RTLD_NEXT, "dlsym", versions[i]);
	if (!found) {
		fprintf(stderr, "kfsim-netlink: cannot find libc's dlsym()\n");
		abort();
	}
	__atomic_store_n(&shim_real_dlsym, found, __ATOMIC_RELEASE);
}

static bool is_wrapped(const char *name)
{
	for (size_t i = 0; i < sizeof(wrapped) / sizeof(wrapped[0]); i++)
		if (!strcmp(name, wrapped[i]))
			return true;
	return false;
}

/* @sym lies in a libc: its file's name is libc.so.N. */
static bool in_libc(void *sym)
{
	Dl_info info;
	const char *base;

	if (!dladdr(sym, &info) || !info.dli_fname)
		return false;
	base = strrchr(info.dli_fname, '/');
	base = base ? base + 1 : info.dli_fname;
	return !strncmp(base, "libc.so", 7);
}

/* The shim's own definition of @name, looked up in the shim alone. */
static void *shim_own(const char *name)
{
	static void *self;
	void *handle = __atomic_load_n(&self, __ATOMIC_ACQUIRE);
	Dl_info info;

	if (!handle) {
		if (!dladdr((void *)shim_dlsym_handle, &info) || !info.dli_fname)
			return NULL;
		handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
		if (!handle)
			return NULL;
		__atomic_store_n(&self, handle, __ATOMIC_RELEASE);	/* a second one is harmless */
	}
	return shim_real_dlsym(handle, name);
}

/* What @sym, found for @name, should be: the shim's when it is libc's copy of a wrapped call. */
static void *substitute(void *sym, const char *name)
{
	void *own;

	if (!sym || !name || !is_wrapped(name) || !in_libc(sym))
		return sym;
	own = shim_own(name);
	return own ? own : sym;
}

void *shim_dlsym_handle(void *handle, const char *name)
{
	if (!__atomic_load_n(&shim_real_dlsym, __ATOMIC_ACQUIRE))
		shim_dlsym_init();
	return substitute(shim_real_dlsym(handle, name), name);
}

/*
 * dlsym(handle, name): RTLD_NEXT (-1) and RTLD_DEFAULT (0) jump to libc's with the stack as the
 * caller left it (so its return address names the caller), after shim_dlsym_init() when needed
 * (three registers saved keep the stack 16-byte aligned for the call); an explicit handle goes
 * to shim_dlsym_handle(), whose caller may be the shim (an explicit handle's search does not
 * depend on it).  Each starts with its architecture's landing pad for an indirect branch
 * (endbr64, BTI's "hint #34"; a no-op where the CPU has none), since a PLT reaches it by one and
 * the compiler marks the whole file as having them when built with -fcf-protection or
 * -mbranch-protection.
 */
#ifdef __x86_64__
#define SHIM_DL_JUMP(fn, real, handle_fn)						\
	__asm__(".text\n"								\
		".globl " #fn "\n"							\
		".type " #fn ", @function\n"						\
		#fn ":\n"								\
		"	endbr64\n"							\
		"	cmpq $-1, %rdi\n"						\
		"	je 1f\n"							\
		"	testq %rdi, %rdi\n"						\
		"	je 1f\n"							\
		"	jmp " #handle_fn "\n"						\
		"1:	movq " #real "(%rip), %rax\n"					\
		"	testq %rax, %rax\n"						\
		"	jne 2f\n"							\
		"	pushq %rdi\n"							\
		"	pushq %rsi\n"							\
		"	pushq %rdx\n"							\
		"	call shim_dlsym_init\n"						\
		"	popq %rdx\n"							\
		"	popq %rsi\n"							\
		"	popq %rdi\n"							\
		"	movq " #real "(%rip), %rax\n"					\
		"2:	jmp *%rax\n"							\
		".size " #fn ", .-" #fn "\n")
#else
#define SHIM_DL_JUMP(fn, real, handle_fn)						\
	__asm__(".text\n"								\
		".globl " #fn "\n"							\
		".type " #fn ", %function\n"						\
		".p2align 2\n"								\
		#fn ":\n"								\
		"	hint #34\n"							\
		"	cmn x0, #1\n"							\
		"	b.eq 1f\n"							\
		"	cbz x0, 1f\n"							\
		"	b " #handle_fn "\n"						\
		"1:	adrp x16, " #real "\n"						\
		"	ldr x16, [x16, :lo12:" #real "]\n"				\
		"	cbnz x16, 2f\n"							\
		"	stp x29, x30, [sp, #-48]!\n"					\
		"	stp x0, x1, [sp, #16]\n"					\
		"	str x2, [sp, #32]\n"						\
		"	bl shim_dlsym_init\n"						\
		"	ldr x2, [sp, #32]\n"						\
		"	ldp x0, x1, [sp, #16]\n"					\
		"	ldp x29, x30, [sp], #48\n"					\
		"	adrp x16, " #real "\n"						\
		"	ldr x16, [x16, :lo12:" #real "]\n"				\
		"2:	br x16\n"							\
		".size " #fn ", .-" #fn "\n")
#endif

SHIM_DL_JUMP(dlsym, shim_real_dlsym, shim_dlsym_handle);

#endif
