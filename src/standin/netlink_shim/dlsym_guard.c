// SPDX-License-Identifier: MIT
/*
 * dlsym() and dlvsym() of the shim's calls: the shim's, however they are asked for.
 *
 * A preloaded library replaces libc's socket() and ioctl() for every lookup through the global
 * scope, but three lookups reach libc's own past it:
 *  - an explicit handle of libc itself, which searches libc alone: Python's
 *    ctypes.CDLL("libc.so.6") does exactly that (under the shim preloaded by hand its
 *    socket(AF_NETLINK, ..., NETLINK_ROUTE) got a real rtnetlink socket and its
 *    ioctl(SIOCSIFMTU) set a real interface's MTU: measured 2026-12-07, attack "shim_dlsym");
 *  - RTLD_NEXT from an object after the shim in the search order, which searches what comes
 *    after that object: ctypes.CDLL(None, handle=-1) asks from _ctypes.so, and its socket()
 *    opened a real NETLINK_ROUTE socket (measured 2026-12-07, attack "shim_dlvsym");
 *  - dlvsym() with a version, on any handle: glibc matches only a definition of that version,
 *    which the shim's are not, so dlvsym(RTLD_DEFAULT, "socket", "GLIBC_2.2.5") skipped the
 *    shim and opened a real NETLINK_ROUTE socket too (same day, same attack).
 *
 * Invariants kept:
 *  - A lookup with an explicit handle that finds one of the calls the shim wraps (below, the
 *    list netlink_shim.c defines) in a libc ("libc.so.*"), whichever namespace that libc was
 *    loaded in, returns the shim's function instead; with or without a version.
 *  - RTLD_DEFAULT with a version, and RTLD_NEXT from an object that does not define the name
 *    itself, return the shim's function when libc's is what they find.  RTLD_NEXT from an
 *    object that defines it is an interposer asking for the next one (the shim itself, an
 *    ASan runtime, another preloaded library): libc's own, or the two would call each other.
 *  - Every other lookup is libc's own, with the caller's return address untouched (RTLD_NEXT
 *    and RTLD_DEFAULT depend on who asks): the stubs below jump to libc's dlsym()/dlvsym().
 *  - libc's two are found by reading the dynamic symbol tables of the objects loaded after
 *    the shim, not by dlvsym() (which is now the shim's), and no function on the way up to the
 *    jump calls a libc function an ASan or TSan runtime intercepts or is instrumented: such a
 *    runtime, preloaded first, looks up its interceptors' targets through these stubs while it
 *    starts, before its shadow memory exists.
 *
 * Two ways of loading a library bind its calls past the shim, whatever dlsym() answers: the
 * library's own references to socket() and ioctl() are bound by the dynamic linker, in a
 * scope the preloaded shim is not first in.  dlopen() with RTLD_DEEPBIND searches the
 * library's dependencies, libc among them, before the global scope; dlmopen() into another
 * link-map namespace (LM_ID_NEWLM) loads it with a libc of its own, and LD_PRELOAD is the base
 * namespace's alone.  By hand, as root, a library loaded either way opened a real
 * NETLINK_ROUTE socket and set a real MTU with it (measured 2026-12-07, attack "shim_dlopen").
 * Outside the network namespace `kfsim exec` made, both are refused as glibc refuses a bad
 * argument (NULL, dlerror() "invalid mode for dlopen()" or "invalid target namespace in
 * dlmopen()"), and said once on stderr; inside it, and every other dlopen(), is libc's, with
 * the caller's return address untouched (it chooses the namespace and the RUNPATH searched).
 *
 * The stubs are written for x86-64 and arm64 (the architectures `kfsim exec` runs on);
 * elsewhere dlsym(), dlvsym(), dlopen() and dlmopen() are libc's alone and the holes stay
 * (documented).
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "host_guard.h"

#if defined(__x86_64__) || defined(__aarch64__)

#define SHIM_HIDDEN __attribute__((visibility("hidden")))
/* what runs before an ASan/TSan runtime has started: no instrumentation, no libc string calls */
#define SHIM_EARLY __attribute__((no_sanitize("address", "thread", "undefined")))

SHIM_HIDDEN void *(*shim_real_dlsym)(void *, const char *);
SHIM_HIDDEN void *(*shim_real_dlvsym)(void *, const char *, const char *);
SHIM_HIDDEN void shim_dlsym_init(void);
SHIM_HIDDEN void *shim_dlsym_handle(void *handle, const char *name);
SHIM_HIDDEN void *shim_dlvsym_handle(void *handle, const char *name, const char *version);
SHIM_HIDDEN void *shim_dlsym_decide(void *handle, const char *name, void *unused, void *caller);
SHIM_HIDDEN void *shim_dlvsym_decide(void *handle, const char *name, const char *version,
				     void *caller);

extern ElfW(Dyn) _DYNAMIC[] SHIM_HIDDEN;	/* the shim's own, to find its link map */

/* Every call netlink_shim.c defines in libc's place. */
static const char *const wrapped[] = {
	"socket", "close", "bind", "connect", "getsockname", "getpeername", "setsockopt",
	"getsockopt", "send", "sendto", "sendmsg", "recvfrom", "recvmsg", "dup", "dup2", "dup3",
	"fcntl", "fcntl64", "recv", "read", "write", "close_range", "closefrom", "ioctl",
	"shutdown", "sendmmsg", "writev", "readv", "recvmmsg", "__recv_chk", "__recvfrom_chk",
	"__read_chk", "__socket", "__connect", "__send", "__recv", "__read", "__read_nocancel",
	"__write", "__write_nocancel", "__close", "__close_nocancel", "__dup2", "__fcntl",
	"__libc_fcntl64", "__sendmmsg", "dlopen", "dlmopen", "pidfd_getfd",
	"pwritev", "pwritev2", "pwritev64", "pwritev64v2", "preadv", "preadv2", "preadv64",
	"preadv64v2",
};

SHIM_EARLY static bool same_str(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

SHIM_EARLY static bool is_wrapped(const char *name)
{
	for (size_t i = 0; i < sizeof(wrapped) / sizeof(wrapped[0]); i++)
		if (same_str(name, wrapped[i]))
			return true;
	return false;
}

/* ---- libc's dlsym() and dlvsym(), read from the objects' symbol tables ---------------- */

/* A dynamic entry's address: glibc relocates some in place, the rest are offsets (DT_VERDEF). */
SHIM_EARLY static const void *dyn_ptr(const struct link_map *map, ElfW(Addr) ptr)
{
	return (const void *)(ptr < map->l_addr ? ptr + map->l_addr : ptr);
}

struct dyn_tables {
	const ElfW(Sym) *symtab;
	const char *strtab;
	const uint32_t *gnu_hash;
	const ElfW(Half) *versym;
	const ElfW(Verdef) *verdef;
};

SHIM_EARLY static bool read_dynamic(const struct link_map *map, struct dyn_tables *t)
{
	*t = (struct dyn_tables){ 0 };
	for (const ElfW(Dyn) *d = map->l_ld; d && d->d_tag != DT_NULL; d++) {
		const void *ptr = dyn_ptr(map, d->d_un.d_ptr);

		if (d->d_tag == DT_SYMTAB)
			t->symtab = ptr;
		else if (d->d_tag == DT_STRTAB)
			t->strtab = ptr;
		else if (d->d_tag == DT_GNU_HASH)
			t->gnu_hash = ptr;
		else if (d->d_tag == DT_VERSYM)
			t->versym = ptr;
		else if (d->d_tag == DT_VERDEF)
			t->verdef = ptr;
	}
	return t->symtab && t->strtab && t->gnu_hash;
}

/* Is symbol @idx defined with one of @versions (any: @versions NULL, or an object without)? */
SHIM_EARLY static bool has_version(const struct dyn_tables *t, uint32_t idx,
				   const char *const *versions, size_t nr_versions)
{
	const ElfW(Verdef) *vd = t->verdef;
	ElfW(Half) ndx;

	if (!versions || !t->versym || !vd)
		return true;
	ndx = t->versym[idx] & 0x7fff;
	for (;; vd = (const void *)((const char *)vd + vd->vd_next)) {
		if (vd->vd_ndx == ndx) {
			const ElfW(Verdaux) *aux = (const void *)((const char *)vd + vd->vd_aux);

			for (size_t i = 0; i < nr_versions; i++)
				if (same_str(t->strtab + aux->vda_name, versions[i]))
					return true;
			return false;
		}
		if (!vd->vd_next)
			return false;
	}
}

/* @name of one of @versions defined in @map (its GNU hash table), or NULL. */
SHIM_EARLY static void *find_defined(const struct link_map *map, const char *name,
				     const char *const *versions, size_t nr_versions)
{
	struct dyn_tables t;
	uint32_t hash = 5381, nr_buckets, sym_offset, bloom_size, idx;
	const uint32_t *buckets, *chain;

	if (!read_dynamic(map, &t))
		return NULL;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		hash = hash * 33 + *c;	/* dl_new_hash() */
	nr_buckets = t.gnu_hash[0];
	sym_offset = t.gnu_hash[1];
	bloom_size = t.gnu_hash[2];
	buckets = (const uint32_t *)((const ElfW(Addr) *)&t.gnu_hash[4] + bloom_size);
	chain = buckets + nr_buckets;
	if (!nr_buckets)
		return NULL;
	idx = buckets[hash % nr_buckets];
	if (idx < sym_offset)
		return NULL;
	for (;; idx++) {
		uint32_t chained = chain[idx - sym_offset];
		const ElfW(Sym) *sym = &t.symtab[idx];

		if ((chained | 1) == (hash | 1) && sym->st_shndx != SHN_UNDEF && sym->st_value &&
		    ELF64_ST_TYPE(sym->st_info) == STT_FUNC &&
		    same_str(t.strtab + sym->st_name, name) &&
		    has_version(&t, idx, versions, nr_versions))
			return (void *)(map->l_addr + sym->st_value);
		if (chained & 1)
			return NULL;
	}
}

/* The first definition of @name after the shim in load order: what RTLD_NEXT finds from here. */
SHIM_EARLY static void *find_next(const char *name, const char *const *versions,
				  size_t nr_versions)
{
	const struct link_map *map = _r_debug.r_map;
	bool after = false;

	for (; map; map = map->l_next) {
		void *sym;

		if (map->l_ld == _DYNAMIC) {
			after = true;
			continue;
		}
		if (after && (sym = find_defined(map, name, versions, nr_versions)))
			return sym;
	}
	return NULL;
}

/*
 * Find libc's dlsym() and dlvsym() (in libc since glibc 2.34, in libdl.so.2 before).  Called by
 * the stubs below before their first use.
 */
SHIM_EARLY void shim_dlsym_init(void)
{
#ifdef __x86_64__
	static const char *const versions[] = { "GLIBC_2.34", "GLIBC_2.2.5" };
#else
	static const char *const versions[] = { "GLIBC_2.34", "GLIBC_2.17" };
#endif
	void *dlsym_found = find_next("dlsym", versions, 2);
	void *dlvsym_found = find_next("dlvsym", versions, 2);

	if (!dlsym_found || !dlvsym_found) {
		static const char msg[] =
			"kfsim-netlink: cannot find libc's dlsym() and dlvsym()\n";

		syscall(SYS_write, 2, msg, sizeof(msg) - 1);	/* write() is the shim's */
		abort();
	}
	__atomic_store_n(&shim_real_dlvsym, dlvsym_found, __ATOMIC_RELEASE);
	__atomic_store_n(&shim_real_dlsym, dlsym_found, __ATOMIC_RELEASE);
}

SHIM_EARLY static void init_once(void)
{
	if (!__atomic_load_n(&shim_real_dlsym, __ATOMIC_ACQUIRE))
		shim_dlsym_init();
}

/* ---- what a lookup answers ------------------------------------------------------------- */

/* @sym lies in a libc: its file's name is libc.so.N. */
SHIM_EARLY static bool in_libc(void *sym)
{
	Dl_info info;
	const char *base, *c;

	if (!sym || !dladdr(sym, &info) || !info.dli_fname)
		return false;
	for (base = c = info.dli_fname; *c; c++)
		if (*c == '/')
			base = c + 1;
	return base[0] == 'l' && base[1] == 'i' && base[2] == 'b' && base[3] == 'c' &&
	       base[4] == '.' && base[5] == 's' && base[6] == 'o';
}

/*
 * The shim's own definition of @name, looked up in the shim alone.  On a handle dlopen() gives:
 * the link map of an object loaded at start (a preloaded one) has no search list of its own
 * until then, and glibc's dlsym() on it faults.
 */
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
	init_once();
	return substitute(shim_real_dlsym(handle, name), name);
}

void *shim_dlvsym_handle(void *handle, const char *name, const char *version)
{
	init_once();
	return substitute(shim_real_dlvsym(handle, name, version), name);
}

/* Does the object @caller lies in define @name itself (an interposer of it)?  Read from its
 * own symbol table: dlsym() on its link map would fault (shim_own()). */
SHIM_EARLY static bool caller_defines(void *caller, const char *name)
{
	struct link_map *map = NULL;
	Dl_info info;

	if (!dladdr1(caller, &info, (void **)&map, RTLD_DL_LINKMAP) || !map)
		return true;	/* unknown: answered as libc answers */
	return find_defined(map, name, NULL, 0) != NULL;
}

/*
 * RTLD_DEFAULT or RTLD_NEXT asked by @caller for @name (of @version, or any): the shim's own
 * function when it should answer, or NULL to let libc's answer the caller (the stub jumps).
 */
SHIM_EARLY static void *decide(void *handle, const char *name, const char *version,
			       void *caller)
{
	void *found;

	init_once();
	if (!name || !is_wrapped(name))
		return NULL;
	if (handle == RTLD_DEFAULT && !version)
		return NULL;	/* the global scope finds the shim's before libc's */
	if (handle == RTLD_NEXT && caller_defines(caller, name))
		return NULL;	/* an interposer asking for the next: libc's, or a loop */
	/* what the shim would find in the caller's place, but after the shim itself */
	found = version ? shim_real_dlvsym(handle, name, version) : shim_real_dlsym(handle, name);
	return in_libc(found) ? shim_own(name) : NULL;
}

/*
 * SHIM_EARLY as decide() itself: the stubs call these while a TSan runtime starts, and TSan's
 * entry hook in an instrumented one faulted before its shadow memory existed (every program
 * built with -fsanitize=thread died so under a TSan build of the shim, 2026-12-07).
 */
SHIM_EARLY void *shim_dlsym_decide(void *handle, const char *name, void *unused, void *caller)
{
	(void)unused;
	return decide(handle, name, NULL, caller);
}

SHIM_EARLY void *shim_dlvsym_decide(void *handle, const char *name, const char *version,
				      void *caller)
{
	return decide(handle, name, version, caller);
}

/*
 * dlsym(handle, name) and dlvsym(handle, name, version): an explicit handle goes to
 * shim_dl(v)sym_handle(), whose answer does not depend on who asks.  RTLD_NEXT (-1) and
 * RTLD_DEFAULT (0) ask shim_dl(v)sym_decide() first, with the caller's return address (the
 * three argument registers saved around it keep the stack 16-byte aligned for the call), and
 * either return its answer or jump to libc's with the stack as the caller left it, so that
 * libc's sees the caller's return address.  Each starts with its architecture's landing pad
 * for an indirect branch (endbr64, BTI's "hint #34"; a no-op where the CPU has none), since a
 * PLT reaches it by one and the compiler marks the whole file as having them when built with
 * -fcf-protection or -mbranch-protection.
 */
#ifdef __x86_64__
#define SHIM_DL_JUMP(fn, real, handle_fn, decide_fn)					\
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
		"1:	pushq %rdi\n"							\
		"	pushq %rsi\n"							\
		"	pushq %rdx\n"							\
		"	movq 24(%rsp), %rcx\n"						\
		"	call " #decide_fn "\n"						\
		"	popq %rdx\n"							\
		"	popq %rsi\n"							\
		"	popq %rdi\n"							\
		"	testq %rax, %rax\n"						\
		"	jne 2f\n"							\
		"	movq " #real "(%rip), %rax\n"					\
		"	jmp *%rax\n"							\
		"2:	ret\n"								\
		".size " #fn ", .-" #fn "\n")
#else
#define SHIM_DL_JUMP(fn, real, handle_fn, decide_fn)					\
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
		"1:	stp x29, x30, [sp, #-48]!\n"					\
		"	mov x29, sp\n"							\
		"	stp x0, x1, [sp, #16]\n"					\
		"	str x2, [sp, #32]\n"						\
		"	mov x3, x30\n"							\
		"	bl " #decide_fn "\n"						\
		"	mov x16, x0\n"							\
		"	ldr x2, [sp, #32]\n"						\
		"	ldp x0, x1, [sp, #16]\n"					\
		"	ldp x29, x30, [sp], #48\n"					\
		"	cbz x16, 2f\n"							\
		"	mov x0, x16\n"							\
		"	ret\n"								\
		"2:	adrp x16, " #real "\n"						\
		"	ldr x16, [x16, :lo12:" #real "]\n"				\
		"	br x16\n"							\
		".size " #fn ", .-" #fn "\n")
#endif

SHIM_DL_JUMP(dlsym, shim_real_dlsym, shim_dlsym_handle, shim_dlsym_decide);
SHIM_DL_JUMP(dlvsym, shim_real_dlvsym, shim_dlvsym_handle, shim_dlvsym_decide);

/* ---- dlopen() and dlmopen(): no library bound past the shim ---------------------------- */

SHIM_HIDDEN void *(*shim_real_dlopen)(const char *, int);
SHIM_HIDDEN void *(*shim_real_dlmopen)(Lmid_t, const char *, int);
SHIM_HIDDEN int shim_dlopen_mode(const char *file, int mode);
SHIM_HIDDEN Lmid_t shim_dlmopen_lmid(Lmid_t lmid, const char *file, int mode);

/* A namespace glibc's _dl_open() refuses: beyond every one it may have (DL_NNS, 16). */
#define SHIM_NO_NAMESPACE ((Lmid_t)0x7fffffff)

/* libc's dlopen() and dlmopen(), found as shim_dlsym_init() finds dlsym(). */
SHIM_EARLY static void dlopen_init(void)
{
#ifdef __x86_64__
	static const char *const open_versions[] = { "GLIBC_2.34", "GLIBC_2.2.5" };
	static const char *const mopen_versions[] = { "GLIBC_2.34", "GLIBC_2.3.4" };
#else
	static const char *const open_versions[] = { "GLIBC_2.34", "GLIBC_2.17" };
	static const char *const mopen_versions[] = { "GLIBC_2.34", "GLIBC_2.17" };
#endif
	void *open_found, *mopen_found;

	if (__atomic_load_n(&shim_real_dlmopen, __ATOMIC_ACQUIRE))
		return;
	open_found = find_next("dlopen", open_versions, 2);
	mopen_found = find_next("dlmopen", mopen_versions, 2);
	if (!open_found || !mopen_found) {
		static const char msg[] =
			"kfsim-netlink: cannot find libc's dlopen() and dlmopen()\n";

		syscall(SYS_write, 2, msg, sizeof(msg) - 1);
		abort();
	}
	__atomic_store_n(&shim_real_dlopen, open_found, __ATOMIC_RELEASE);
	__atomic_store_n(&shim_real_dlmopen, mopen_found, __ATOMIC_RELEASE);
}

/*
 * The mode dlopen(@file, @mode) goes on with: 0, which glibc refuses, for RTLD_DEEPBIND.
 * SHIM_EARLY, as the dlsym() stubs' decide(): a sanitizer runtime may dlopen() as it starts.
 */
SHIM_EARLY int shim_dlopen_mode(const char *file, int mode)
{
	dlopen_init();
	if (!file || !(mode & RTLD_DEEPBIND) || shim_in_exec_netns())
		return mode;
	shim_say_loader_refused("dlopen(..., RTLD_DEEPBIND), whose library would bind libc's "
				"socket() and ioctl(),");
	return 0;
}

/* The namespace dlmopen(@lmid, ...) goes on with: one glibc refuses, for any but the base. */
SHIM_EARLY Lmid_t shim_dlmopen_lmid(Lmid_t lmid, const char *file, int mode)
{
	(void)file;
	(void)mode;
	dlopen_init();
	if (lmid == LM_ID_BASE || shim_in_exec_netns())
		return lmid;
	shim_say_loader_refused("dlmopen() into another namespace, where the library would bind "
				"a libc of its own,");
	return SHIM_NO_NAMESPACE;
}

/*
 * dlopen(file, mode) and dlmopen(lmid, file, mode): the argument the C function above returns
 * replaces the mode (dlopen) or the namespace (dlmopen), and the stub jumps to libc's with the
 * stack as the caller left it, as the dlsym() stubs do.
 */
#ifdef __x86_64__
__asm__(".text\n"
	".globl dlopen\n"
	".type dlopen, @function\n"
	"dlopen:\n"
	"	endbr64\n"
	"	pushq %rdi\n"
	"	pushq %rsi\n"
	"	subq $8, %rsp\n"
	"	call shim_dlopen_mode\n"
	"	addq $8, %rsp\n"
	"	popq %rsi\n"
	"	popq %rdi\n"
	"	movl %eax, %esi\n"
	"	movq shim_real_dlopen(%rip), %rax\n"
	"	jmp *%rax\n"
	".size dlopen, .-dlopen\n"
	".globl dlmopen\n"
	".type dlmopen, @function\n"
	"dlmopen:\n"
	"	endbr64\n"
	"	pushq %rdi\n"
	"	pushq %rsi\n"
	"	pushq %rdx\n"
	"	call shim_dlmopen_lmid\n"
	"	popq %rdx\n"
	"	popq %rsi\n"
	"	popq %rdi\n"
	"	movq %rax, %rdi\n"
	"	movq shim_real_dlmopen(%rip), %rax\n"
	"	jmp *%rax\n"
	".size dlmopen, .-dlmopen\n");
#else
__asm__(".text\n"
	".globl dlopen\n"
	".type dlopen, %function\n"
	".p2align 2\n"
	"dlopen:\n"
	"	hint #34\n"
	"	stp x29, x30, [sp, #-32]!\n"
	"	mov x29, sp\n"
	"	stp x0, x1, [sp, #16]\n"
	"	bl shim_dlopen_mode\n"
	"	mov x2, x0\n"
	"	ldp x0, x1, [sp, #16]\n"
	"	mov w1, w2\n"
	"	ldp x29, x30, [sp], #32\n"
	"	adrp x16, shim_real_dlopen\n"
	"	ldr x16, [x16, :lo12:shim_real_dlopen]\n"
	"	br x16\n"
	".size dlopen, .-dlopen\n"
	".globl dlmopen\n"
	".type dlmopen, %function\n"
	".p2align 2\n"
	"dlmopen:\n"
	"	hint #34\n"
	"	stp x29, x30, [sp, #-48]!\n"
	"	mov x29, sp\n"
	"	stp x0, x1, [sp, #16]\n"
	"	str x2, [sp, #32]\n"
	"	bl shim_dlmopen_lmid\n"
	"	mov x3, x0\n"
	"	ldr x2, [sp, #32]\n"
	"	ldp x0, x1, [sp, #16]\n"
	"	mov x0, x3\n"
	"	ldp x29, x30, [sp], #48\n"
	"	adrp x16, shim_real_dlmopen\n"
	"	ldr x16, [x16, :lo12:shim_real_dlmopen]\n"
	"	br x16\n"
	".size dlmopen, .-dlmopen\n");
#endif

#endif
