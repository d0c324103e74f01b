// SPDX-License-Identifier: MIT
/*
 * The BPF instruction of each call a program makes, as the verifier numbers it (alloc_insn= in
 * "Unreleased reference id=%d alloc_insn=%d"): the index in the program as libbpf loads it, the
 * main function first and then every subprogram it reaches (libbpf appends them depth-first, in
 * the order their first call or address load is met: bpf_object__reloc_code()).  The call's
 * source line comes from the object's .BTF.ext line info, the callee from its relocation (a
 * kfunc is an undefined symbol) or its helper number.  The native runtime finds the line of the
 * acquiring call and looks it up here (src/bpfcc/runtime/bpfrt_main.c).  Each call also says
 * whether objects of two types reach it (bpfcc_call_types.c).
 *
 * The object is read as ELF directly (libbpf 1.1 has no API for relocations or line info of an
 * unloaded object); every offset is checked against the file's size.
 */
#include <elf.h>
#include <stdbool.h>
#include <linux/types.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfcc.h"
#include "../../include/bpf-compat/kfsim_bpfrt.h" /* KFSIM_BPFRT_CALL_REG */

#define INSN_SZ 8
#define PSEUDO_CALL 1
#define PSEUDO_FUNC 4
#define MAX_FUNCS 512

struct func {
	unsigned int sec;    /* section index */
	unsigned long start; /* first instruction, in the section */
	unsigned long cnt;   /* instructions */
	const char *name;
};

struct elf_view {
	unsigned char *data;
	size_t size;
	const Elf64_Shdr *sh;
	unsigned int nr_sh;
	const char *shstr;
	const Elf64_Sym *syms;
	size_t nr_syms;
	const char *symstr;
	size_t symstr_size;
	unsigned int text;
	const char *btf_str;
	size_t btf_str_size;
	const unsigned char *line_info;
	size_t line_info_size;
	struct func funcs[MAX_FUNCS];
	unsigned int nr_funcs;
};

static bool in_file(const struct elf_view *e, size_t off, size_t len)
{
	return off <= e->size && len <= e->size - off;
}

static const char *sec_name(const struct elf_view *e, unsigned int i)
{
	return i < e->nr_sh ? e->shstr + e->sh[i].sh_name : "";
}

static const char *btf_string(const struct elf_view *e, __u32 off)
{
	return off < e->btf_str_size ? e->btf_str + off : "";
}

static const char *sym_name(const struct elf_view *e, const Elf64_Sym *s)
{
	return s->st_name < e->symstr_size ? e->symstr + s->st_name : "";
}

static const unsigned char *sec_data(const struct elf_view *e, unsigned int i)
{
	return e->data + e->sh[i].sh_offset;
}

static int elf_open(const char *path, struct elf_view *e)
{
	const Elf64_Ehdr *eh;
	FILE *f = fopen(path, "rb");
	long size;

	memset(e, 0, sizeof(*e));
	if (!f)
		return -errno;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < (long)sizeof(*eh) || fseek(f, 0, SEEK_SET))
		goto bad_file;
	e->size = (size_t)size;
	e->data = malloc(e->size);
	if (!e->data || fread(e->data, 1, e->size, f) != e->size)
		goto bad_file;
	fclose(f);
	eh = (const Elf64_Ehdr *)e->data;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_machine != EM_BPF || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(e, eh->e_shoff, (size_t)eh->e_shnum * sizeof(Elf64_Shdr)) ||
	    eh->e_shstrndx >= eh->e_shnum)
		return -EINVAL;
	e->sh = (const Elf64_Shdr *)(e->data + eh->e_shoff);
	e->nr_sh = eh->e_shnum;
	for (unsigned int i = 0; i < e->nr_sh; i++)
		if (e->sh[i].sh_type != SHT_NOBITS &&
		    !in_file(e, e->sh[i].sh_offset, e->sh[i].sh_size))
			return -EINVAL;
	e->shstr = (const char *)sec_data(e, eh->e_shstrndx);
	if (!e->sh[eh->e_shstrndx].sh_size || e->shstr[e->sh[eh->e_shstrndx].sh_size - 1])
		return -EINVAL;
	for (unsigned int i = 0; i < e->nr_sh; i++) {
		const Elf64_Shdr *s = &e->sh[i];

		if (s->sh_name >= e->sh[eh->e_shstrndx].sh_size)
			return -EINVAL;
		if (s->sh_type == SHT_SYMTAB && s->sh_link < e->nr_sh) {
			e->syms = (const Elf64_Sym *)sec_data(e, i);
			e->nr_syms = s->sh_size / sizeof(Elf64_Sym);
			e->symstr = (const char *)sec_data(e, s->sh_link);
			e->symstr_size = e->sh[s->sh_link].sh_size;
		} else if (!strcmp(sec_name(e, i), ".text")) {
			e->text = i;
		}
	}
	return e->syms && e->symstr_size && !e->symstr[e->symstr_size - 1] ? 0 : -EINVAL;
bad_file:
	fclose(f);
	return -EINVAL;
}

/*
 * The part of a .BTF or .BTF.ext section @d (@size bytes) whose offset and length are the u32s at
 * @at and @at + 4 of its header (offsets count from the header's end): false when out of bounds.
 */
static bool btf_part(const unsigned char *d, size_t size, size_t at, const unsigned char **part,
		     size_t *len)
{
	__u32 hdr_len, off, n;

	if (size < at + 8)
		return false;
	memcpy(&hdr_len, d + 4, 4);
	memcpy(&off, d + at, 4);
	memcpy(&n, d + at + 4, 4);
	if (hdr_len > size || off > size - hdr_len || n > size - hdr_len - off)
		return false;
	*part = d + hdr_len + off;
	*len = n;
	return true;
}

/* .BTF's string section and .BTF.ext's line info (struct btf_header, struct btf_ext_header). */
static void find_line_info(struct elf_view *e)
{
	for (unsigned int i = 0; i < e->nr_sh; i++) {
		const unsigned char *d = sec_data(e, i), *part;
		size_t size = e->sh[i].sh_size, len;

		if (size < 8 || d[0] != 0x9f || d[1] != 0xeb)
			continue;
		if (!strcmp(sec_name(e, i), ".BTF") && btf_part(d, size, 16, &part, &len)) {
			e->btf_str = (const char *)part;
			e->btf_str_size = len;
		} else if (!strcmp(sec_name(e, i), ".BTF.ext") &&
			   btf_part(d, size, 16, &part, &len)) {
			e->line_info = part;
			e->line_info_size = len;
		}
	}
}

/* The relocation of the instruction at byte @off of section @sec, or NULL. */
static const Elf64_Sym *relo_sym(const struct elf_view *e, unsigned int sec, unsigned long off)
{
	for (unsigned int i = 0; i < e->nr_sh; i++) {
		const Elf64_Shdr *s = &e->sh[i];
		const Elf64_Rel *r = (const Elf64_Rel *)sec_data(e, i);

		if (s->sh_type != SHT_REL || s->sh_info != sec)
			continue;
		for (size_t j = 0; j < s->sh_size / sizeof(*r); j++)
			if (r[j].r_offset == off && ELF64_R_SYM(r[j].r_info) < e->nr_syms)
				return &e->syms[ELF64_R_SYM(r[j].r_info)];
	}
	return NULL;
}

/* The function of section @sec holding instruction @idx (libbpf: find_prog_by_sec_insn). */
static int func_at(const struct elf_view *e, unsigned int sec, unsigned long idx)
{
	for (size_t i = 0; i < e->nr_syms; i++) {
		const Elf64_Sym *s = &e->syms[i];

		if (ELF64_ST_TYPE(s->st_info) == STT_FUNC && s->st_shndx == sec &&
		    idx >= s->st_value / INSN_SZ && idx < (s->st_value + s->st_size) / INSN_SZ)
			return (int)i;
	}
	return -1;
}

static bool appended(const struct elf_view *e, const Elf64_Sym *s)
{
	for (unsigned int i = 0; i < e->nr_funcs; i++)
		if (e->funcs[i].sec == s->st_shndx && e->funcs[i].start == s->st_value / INSN_SZ)
			return true;
	return false;
}

static void append(struct elf_view *e, const Elf64_Sym *s)
{
	struct func *fn;

	if (e->nr_funcs == MAX_FUNCS || s->st_shndx >= e->nr_sh ||
	    !in_file(e, e->sh[s->st_shndx].sh_offset + s->st_value, s->st_size) ||
	    s->st_value + s->st_size > e->sh[s->st_shndx].sh_size)
		return;
	fn = &e->funcs[e->nr_funcs++];
	fn->sec = s->st_shndx;
	fn->start = s->st_value / INSN_SZ;
	fn->cnt = s->st_size / INSN_SZ;
	fn->name = sym_name(e, s);
}

/*
 * The symbol of the subprogram that instruction @idx of section @sec calls or whose address it
 * loads (@call_only: calls alone); -1 for none.
 */
static int subprog_target(const struct elf_view *e, unsigned int sec, unsigned long idx,
			  bool call_only)
{
	const unsigned char *insn = sec_data(e, sec) + idx * INSN_SZ;
	unsigned int src = insn[1] >> 4;
	bool call = insn[0] == 0x85 && src == PSEUDO_CALL;
	bool func = insn[0] == 0x18 && !call_only;
	const Elf64_Sym *rs;
	long sub;
	__s32 imm;

	if (!call && !func)
		return -1;
	rs = relo_sym(e, sec, idx * INSN_SZ);
	/*
	 * An address load is a subprogram's (a callback: rbtree_add's less) when it is relocated
	 * against .text: libbpf marks it BPF_PSEUDO_FUNC before this walk.
	 */
	if (func && src != PSEUDO_FUNC && !(rs && e->text && rs->st_shndx == e->text))
		return -1;
	if (rs && rs->st_shndx == SHN_UNDEF)
		return -1; /* a kfunc: clang emits extern calls as pseudo calls too */
	memcpy(&imm, insn + 4, 4);
	if (rs)
		sub = call ? (long)(rs->st_value / INSN_SZ) + imm + 1
			   : (long)(rs->st_value + (unsigned long)(long)imm) / INSN_SZ;
	else if (call)
		sub = (long)idx + imm + 1;
	else
		return -1;
	return sub < 0 ? -1 : func_at(e, e->text, (unsigned long)sub);
}

/* libbpf's bpf_object__reloc_code(): append each subprogram at its first call, depth first. */
static void reloc_code(struct elf_view *e, unsigned int f)
{
	unsigned int sec = e->funcs[f].sec;
	unsigned long start = e->funcs[f].start, cnt = e->funcs[f].cnt;

	for (unsigned long i = 0; i < cnt; i++) {
		int target = subprog_target(e, sec, start + i, false);

		if (target >= 0 && !appended(e, &e->syms[target])) {
			append(e, &e->syms[target]);
			reloc_code(e, e->nr_funcs - 1);
		}
	}
}

int bpfcc_callbacks(const struct bpfcc_unit *u, char ***names)
{
	struct elf_view *e = calloc(1, sizeof(*e));
	char **out = NULL;
	int nr = 0, err;

	*names = NULL;
	if (!e)
		return -ENOMEM;
	err = elf_open(u->object, e);
	for (unsigned int sec = 0; !err && sec < e->nr_sh; sec++) {
		const Elf64_Shdr *s = &e->sh[sec];

		if (s->sh_type != SHT_PROGBITS || !(s->sh_flags & SHF_EXECINSTR))
			continue;
		for (unsigned long i = 0; i + 1 < s->sh_size / INSN_SZ; i++) {
			int target = subprog_target(e, sec, i, false);
			const char *name;
			bool seen = false;
			char **grown;

			if (sec_data(e, sec)[i * INSN_SZ] != 0x18 || target < 0)
				continue;
			name = sym_name(e, &e->syms[target]);
			for (int k = 0; k < nr; k++)
				seen |= !strcmp(out[k], name);
			if (seen || !*name)
				continue;
			grown = realloc(out, (size_t)(nr + 1) * sizeof(*out));
			if (!grown || !(grown[nr] = strdup(name))) {
				out = grown ? grown : out;
				err = -ENOMEM;
				break;
			}
			out = grown;
			nr++;
		}
	}
	free(e->data);
	free(e);
	if (err) {
		while (nr--)
			free(out[nr]);
		free(out);
		return err;
	}
	*names = out;
	return nr;
}

#define HELPER_FOR_EACH_MAP_ELEM 164 /* BPF_FUNC_for_each_map_elem */
#define HELPER_LOOP 181		     /* BPF_FUNC_loop */

static __u32 map_value_load(const struct elf_view *e, const struct bpfcc_unit *u, unsigned int sec,
			    unsigned long off, struct bpfcc_root *root);

/*
 * Whether function @name is the callback of bpf_loop() or bpf_for_each_map_elem() calls, and
 * what the verifier gives it then (set_loop_callback_state(), map_set_for_each_callback_args(),
 * 6.12's source): the caller's R3, the callback's context, in R2 (bpf_loop) or R4 (the walk),
 * a scalar when every call passes NULL, the caller's stack when every call passes one offset of
 * it (a pointer into another frame, held to the frame's bounds); for a walk, the map's key
 * (PTR_TO_MAP_KEY) in R2 and its value (PTR_TO_MAP_VALUE) in R3.  A call's R1 to R3 are the last
 * loads into them before it (clang puts them just before the call); a callback of walks of two maps
 * gets no map.  The calls are those of the program's own functions: each program is verified on its
 * own.
 */
static bool callback_entry(const struct elf_view *e, const struct bpfcc_unit *u, const char *name,
			   struct bpfcc_global_args *entry)
{
	struct bpfcc_root map = {0}, found = {0};
	bool loop = false, walk = false, maps_differ = false, ctx_null = true, ctx_stack = true;
	long long ctx_off = 0;
	int sites = 0;

	/* the calls of this program's functions (the main one, the subprograms libbpf appends) */
	for (unsigned int f = 0; f < e->nr_funcs; f++) {
		unsigned int sec = e->funcs[f].sec;
		unsigned long start = e->funcs[f].start, cnt = e->funcs[f].cnt;
		bool *joins = calloc(cnt + 1, sizeof(*joins));
		long def[11];
		bool r3_null = false, r3_stack = false, r1_zero = false;
		long long r3_off = 0;

		/*
		 * where paths join (a jump's target) the registers may hold another value on each:
		 * clang merges two calls of one callback (two maps' walks) into one
		 */
		for (unsigned long i = 0; joins && i < cnt; i++) {
			const unsigned char *in = sec_data(e, sec) + (start + i) * INSN_SZ;
			__s16 off;
			__s32 imm;
			long to;

			memcpy(&off, in + 2, 2);
			memcpy(&imm, in + 4, 4);
			if (((in[0] & 7) != 5 && (in[0] & 7) != 6) || in[0] == 0x85 ||
			    in[0] == 0x95)
				continue;
			to = (long)i + 1 + (in[0] == 0x06 ? imm : off); /* gotol: the immediate */
			if (to >= 0 && (unsigned long)to < cnt)
				joins[to] = true;
		}
		for (int r = 0; r < 11; r++)
			def[r] = -1;
		for (unsigned long i = start; i < start + cnt; i++) {
			const unsigned char *in = sec_data(e, sec) + i * INSN_SZ;
			unsigned int cls = in[0] & 7, dst = in[1] & 0xf;
			int target;
			__s32 imm;

			if (!joins || joins[i - start]) {
				for (int r = 0; r < 11; r++)
					def[r] = -1;
				r3_null = r3_stack = r1_zero = false;
			}
			memcpy(&imm, in + 4, 4);
			if (in[0] == 0x18) { /* an address load: two slots */
				if (dst < 11)
					def[dst] = (long)i++;
				r3_null &= dst != 3;
				r3_stack &= dst != 3;
				r1_zero &= dst != 1;
				continue;
			}
			if (in[0] == 0x85) {
				bool is_walk = imm == HELPER_FOR_EACH_MAP_ELEM;

				/*
				 * a loop of a constant 0 calls: the verifier does not walk the
				 * callback from there (check_helper_call(): callback_depth <
				 * umax_value)
				 */
				if (!(in[1] >> 4) && (is_walk || imm == HELPER_LOOP) &&
				    def[2] >= 0 && (is_walk || !r1_zero) &&
				    (target = subprog_target(e, sec, (unsigned long)def[2],
							     false)) >= 0 &&
				    !strcmp(sym_name(e, &e->syms[target]), name)) {
					ctx_null &= r3_null;
					/* the caller's stack at one offset at every call */
					ctx_stack &= r3_stack && (!sites || r3_off == ctx_off);
					ctx_off = r3_off;
					sites++;
					loop |= !is_walk;
					if (is_walk) {
						memset(&map, 0, sizeof(map));
						if (def[1] >= 0)
							map.map_value = map_value_load(
								e, u, sec,
								(unsigned long)def[1] * INSN_SZ,
								&map);
						maps_differ |=
							walk &&
							(map.map_value != found.map_value ||
							 map.map_key_size != found.map_key_size);
						walk = true;
						found = map;
					}
				}
				for (int r = 0; r <= 5; r++)
					def[r] = -1;
				r3_null = r3_stack = r1_zero = false;
				continue;
			}
			if ((cls == 0 || cls == 1 || cls == 4 || cls == 7) && dst < 11) {
				def[dst] = -1; /* LD, LDX, ALU, ALU64 write their dst */
				/* r1 = 0, w1 = 0 */
				if (dst == 1)
					r1_zero = (in[0] == 0xb7 || in[0] == 0xb4) && !imm;
				if (dst == 3) { /* r3 = 0, w3 = 0; r3 = r10, r3 += K */
					r3_null = (in[0] == 0xb7 || in[0] == 0xb4) && !imm;
					if (in[0] == 0x07 && r3_stack) {
						r3_off += imm;
					} else {
						r3_stack = in[0] == 0xbf && (in[1] >> 4) == 10;
						r3_off = 0;
					}
				}
			}
		}
		free(joins);
	}
	if (loop == walk) /* neither, or the callback of both: its arguments differ */
		return false;
	memset(entry, 0, sizeof(*entry));
	entry->nr_args = walk ? 4 : 2;
	entry->scalar_arg[walk ? 3 : 1] = ctx_null;
	entry->caller_stack[walk ? 3 : 1] = ctx_stack && sites;
	entry->stack_off[walk ? 3 : 1] = ctx_off;
	if (walk && !maps_differ && found.map_value && found.map_key_size) {
		entry->map_key[1] = true;
		entry->mem_size[1] = (int)found.map_key_size;
		entry->map_value[2] = found.map_value;
	}
	return true;
}

/* The subprogram number (libbpf's order, the verifier's func#N) of symbol @sym; -1 for none. */
static int func_nr(const struct elf_view *e, int sym)
{
	for (unsigned int i = 0; sym >= 0 && i < e->nr_funcs; i++)
		if (e->funcs[i].sec == e->syms[sym].st_shndx &&
		    e->funcs[i].start == e->syms[sym].st_value / INSN_SZ)
			return (int)i;
	return -1;
}

/*
 * The calls of global functions in function @k (one per instruction, names NULL elsewhere), with
 * the callee's prototype as the verifier reads it; NULL when out of memory.
 */
static struct bpfcc_subcall *global_calls(const struct elf_view *e, const struct btf *btf,
					  unsigned int k, int ctx_mem)
{
	const struct func *fc = &e->funcs[k];
	struct bpfcc_subcall *calls = calloc(fc->cnt + 1, sizeof(*calls));

	for (unsigned long i = 0; calls && btf && i < fc->cnt; i++) {
		int sym = subprog_target(e, fc->sec, fc->start + i, true), nr = func_nr(e, sym);

		if (nr < 0 || !bpfcc_global_args(btf, e->funcs[nr].name, &calls[i].args))
			continue;
		calls[i].name = e->funcs[nr].name;
		calls[i].func_nr = nr;
		calls[i].ctx_mem = ctx_mem;
	}
	return calls;
}

#define MAX_CALL_FRAMES 8 /* include/linux/bpf_verifier.h */

/*
 * The frames below function @k's in its deepest chain of calls (subprogram calls, and the
 * callbacks whose address a function loads: the verifier walks a callback in a frame of its own
 * and check_max_stack_depth() follows bpf_pseudo_func() as a call; with @global non-NULL,
 * static ones only: a global function is not walked into), at most MAX_CALL_FRAMES.  @memo per
 * function, -1 unknown; @on_path breaks a recursion: one of calls the verifier refuses on its
 * own, one through a callback (bpf_loop() of itself) reaches MAX_CALL_FRAMES in the check after
 * the walk (@global NULL), which follows it round and round.
 */
static int frames_below(const struct elf_view *e, unsigned int k, const bool *global, int *memo,
			bool *on_path)
{
	const struct func *fc = &e->funcs[k];
	int deepest = 0;

	if (memo[k] >= 0 || on_path[k])
		return memo[k] >= 0 ? memo[k] : 0;
	on_path[k] = true;
	for (unsigned long i = 0; i < fc->cnt && deepest < MAX_CALL_FRAMES; i++) {
		int nr = func_nr(e, subprog_target(e, fc->sec, fc->start + i, false)), below;
		bool callback = sec_data(e, fc->sec)[(fc->start + i) * INSN_SZ] == 0x18;

		if (nr < 0 || (global && global[nr]))
			continue;
		if (callback && !global && on_path[nr])
			below = MAX_CALL_FRAMES;
		else
			below = 1 + frames_below(e, (unsigned int)nr, global, memo, on_path);
		if (below > deepest)
			deepest = below;
	}
	on_path[k] = false;
	memo[k] = deepest < MAX_CALL_FRAMES ? deepest : MAX_CALL_FRAMES;
	return memo[k];
}

static int deepest_chain(const struct elf_view *e, unsigned int from, const bool *global,
			 int *memo, bool *on_path)
{
	memset(memo, -1, e->nr_funcs * sizeof(*memo));
	memset(on_path, 0, e->nr_funcs * sizeof(*on_path));
	return frames_below(e, from, global, memo, on_path);
}

/*
 * The call chains the verifier refuses (6.18), the main function's and each global function's
 * (each verified on its own from frame 0).  Walking into static functions, check_func_call()
 * refuses the call that would make a ninth frame ("the call stack of 9 frames is too deep");
 * once every instruction passed, check_max_stack_depth() follows every call, global ones too,
 * and refuses a chain that reaches MAX_CALL_FRAMES frames ("... 8 frames is too deep !"), the
 * log's line before it the last global function's validation (do_check_subprogs(): in
 * subprogram order).
 */
static void call_chain_rule(const struct elf_view *e, const struct btf *btf, char *at_end,
			    size_t size)
{
	int *memo = calloc(e->nr_funcs + 1, sizeof(*memo));
	bool *on_path = calloc(e->nr_funcs + 1, sizeof(*on_path));
	bool *global = calloc(e->nr_funcs + 1, sizeof(*global));
	struct bpfcc_global_args args;
	int last_global = -1;

	if (!memo || !on_path || !global || !e->nr_funcs)
		goto out;
	for (unsigned int k = 1; btf && k < e->nr_funcs; k++) {
		global[k] = bpfcc_global_args(btf, e->funcs[k].name, &args);
		if (global[k])
			last_global = (int)k;
	}
	for (unsigned int k = 0; k < e->nr_funcs; k++) {
		if ((!k || global[k]) && deepest_chain(e, k, global, memo, on_path) >= MAX_CALL_FRAMES) {
			snprintf(at_end, size, "the call stack of %d frames is too deep",
				 MAX_CALL_FRAMES + 1);
			goto out;
		}
	}
	if (deepest_chain(e, 0, NULL, memo, on_path) < MAX_CALL_FRAMES)
		goto out;
	if (last_global > 0)
		snprintf(at_end, size,
			 "Func#%d ('%s') is safe for any args that match its prototype\n"
			 "the call stack of %d frames is too deep !",
			 last_global, e->funcs[last_global].name, MAX_CALL_FRAMES);
	else
		snprintf(at_end, size, "the call stack of %d frames is too deep !", MAX_CALL_FRAMES);
out:
	free(memo);
	free(on_path);
	free(global);
}

/*
 * What the verifier says of program @fn's context given as a global function's memory argument,
 * by its section (libbpf's names), as the running 6.18 said it for each family.
 */
static int ctx_as_memory(const struct bpfcc_unit *u, const char *fn)
{
	static const char *const not_fp[] = {"tc", "classifier", "action", "cgroup_skb/",
					     "cgroup/skb", "socket", "xdp"};
	static const char *const readonly[] = {"kprobe", "kretprobe", "uprobe", "uretprobe",
					       "tracepoint", "tp/", "raw_tp", "raw_tracepoint",
					       "perf_event"};
	struct bpf_program *p = u->bo ? bpf_object__find_program_by_name(u->bo, fn) : NULL;
	const char *s = p ? bpf_program__section_name(p) : NULL;

	if (s && s[0] == '?')
		s++;
	for (size_t i = 0; s && i < sizeof(not_fp) / sizeof(not_fp[0]); i++)
		if (!strncmp(s, not_fp[i], strlen(not_fp[i])))
			return BPFCC_CTX_MEM_NOT_FP;
	for (size_t i = 0; s && i < sizeof(readonly) / sizeof(readonly[0]); i++)
		if (!strncmp(s, readonly[i], strlen(readonly[i])))
			return BPFCC_CTX_MEM_READONLY;
	return BPFCC_CTX_MEM_UNKNOWN;
}

/* The source line of the instruction at byte @off of section @sec (its line-info record). */
static bool insn_line(const struct elf_view *e, unsigned int sec, unsigned long off,
		      const char **file, __u32 *line)
{
	const unsigned char *p = e->line_info, *end = p + e->line_info_size;
	__u32 rec_size;
	bool found = false;

	if (!p || e->line_info_size < 4)
		return false;
	memcpy(&rec_size, p, 4);
	p += 4;
	if (rec_size < 16)
		return false;
	while (end - p >= 8) {
		__u32 name_off, nr, r[4];

		memcpy(&name_off, p, 4);
		memcpy(&nr, p + 4, 4);
		p += 8;
		if (nr > (size_t)(end - p) / rec_size)
			return false;
		for (__u32 i = 0; strcmp(btf_string(e, name_off), sec_name(e, sec)) == 0 && i < nr;
		     i++) {
			memcpy(r, p + (size_t)i * rec_size, sizeof(r));
			if (r[0] > off)
				break;
			*file = btf_string(e, r[1]);
			*line = r[3] >> 10;
			found = true;
		}
		p += (size_t)nr * rec_size;
	}
	return found;
}

/* The name of the call at @insn (section @sec, byte @off): a kfunc's symbol or a helper's. */
static const char *callee(const struct elf_view *e, unsigned int sec, unsigned long off,
			  const unsigned char *insn)
{
	const Elf64_Sym *rs;
	__s32 imm;

	if (insn[0] != 0x85)
		return NULL;
	rs = relo_sym(e, sec, off);
	if (rs) /* an extern (a kfunc), or a subprogram */
		return rs->st_shndx == SHN_UNDEF ? sym_name(e, rs) : NULL;
	if ((insn[1] >> 4) == PSEUDO_CALL)
		return NULL;
	memcpy(&imm, insn + 4, 4);
	/*
	 * the helpers kfsim's native runtime has that take or give references, and a helper a
	 * program may call under the lock ("function calls are not allowed while holding a
	 * lock"), whose line the walk order places; and the ones whose result is a number the
	 * verifier knows nothing of (bpfcc_call_types.c: returns_data())
	 */
	switch (imm) {
	case 1:
		return "bpf_map_lookup_elem";
	case 2: /* the map helpers' key and value (bpfcc_call_types.c: check_map_helper()) */
		return "bpf_map_update_elem";
	case 3:
		return "bpf_map_delete_elem";
	case 195:
		return "bpf_map_lookup_percpu_elem";
	case 5:
		return "bpf_ktime_get_ns";
	case 7:
		return "bpf_get_prandom_u32";
	case 118:
		return "bpf_jiffies64";
	case 125:
		return "bpf_ktime_get_boot_ns";
	case 160:
		return "bpf_ktime_get_coarse_ns";
	case 208:
		return "bpf_ktime_get_tai_ns";
	case 93:
		return "bpf_spin_lock";
	case 94:
		return "bpf_spin_unlock";
	case 194:
		return "bpf_kptr_xchg";
	case 16: /* the helpers that fill a buffer (bpfcc_call_types.c: filled_buffer_arg()) */
		return "bpf_get_current_comm";
	case 26:
		return "bpf_skb_load_bytes";
	case 113:
		return "bpf_probe_read_kernel";
	case 130: /* the ring buffer helpers (bpfrt_ringbuf.c): reserve's leak names its call */
		return "bpf_ringbuf_output";
	case 131:
		return "bpf_ringbuf_reserve";
	case 132:
		return "bpf_ringbuf_submit";
	case 133:
		return "bpf_ringbuf_discard";
	case 134:
		return "bpf_ringbuf_query";
	default:
		return NULL;
	}
}

/* Whether the instruction at byte @off of section @sec loads the address of an array map. */
static bool array_map_load(const struct elf_view *e, const struct bpfcc_unit *u, unsigned int sec,
			   unsigned long off)
{
	const unsigned char *insn = sec_data(e, sec) + off;
	const Elf64_Sym *rs;
	struct bpf_map *map;
	enum bpf_map_type type;

	if (insn[0] != 0x18 || !u->bo)
		return false;
	rs = relo_sym(e, sec, off);
	if (!rs || rs->st_shndx >= e->nr_sh || strcmp(sec_name(e, rs->st_shndx), ".maps"))
		return false;
	map = bpf_object__find_map_by_name(u->bo, sym_name(e, rs));
	type = map ? bpf_map__type(map) : BPF_MAP_TYPE_UNSPEC;
	return type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

/*
 * The BTF id of the value type of the map whose address the instruction at byte @off of section
 * @sec loads (0: not a map's address, or a map without a value type in BTF).
 */
static __u32 map_value_load(const struct elf_view *e, const struct bpfcc_unit *u,
			    unsigned int sec, unsigned long off, struct bpfcc_root *root)
{
	const unsigned char *insn = sec_data(e, sec) + off;
	const Elf64_Sym *rs;
	struct bpf_map *map;

	if (insn[0] != 0x18 || !u->bo)
		return 0;
	rs = relo_sym(e, sec, off);
	if (!rs || rs->st_shndx >= e->nr_sh || strcmp(sec_name(e, rs->st_shndx), ".maps"))
		return 0;
	map = bpf_object__find_map_by_name(u->bo, sym_name(e, rs));
	if (!map)
		return 0;
	root->map_key_size = bpf_map__key_size(map);
	root->map_type = bpf_map__type(map);
	root->map_value_size = bpf_map__value_size(map);
	return bpf_map__btf_value_type_id(map);
}

/* The "contains:TYPE:NODE" decl tag on the global variable @var: TYPE's id and NODE's offset. */
static struct bpfcc_root var_contains(const struct btf *btf, __u32 var)
{
	struct bpfcc_root root = {0, 0, 0};
	__u32 n = btf__type_cnt(btf);

	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id), *c;
		const char *text = btf__name_by_offset(btf, t->name_off), *colon;
		const struct btf_member *m;
		char tname[128];
		__s32 cid;

		if (!btf_is_decl_tag(t) || t->type != var || btf_decl_tag(t)->component_idx != -1 ||
		    !text || strncmp(text, "contains:", 9))
			continue;
		text += 9;
		colon = strchr(text, ':');
		if (!colon || (size_t)(colon - text) >= sizeof(tname))
			break;
		memcpy(tname, text, colon - text);
		tname[colon - text] = '\0';
		cid = btf__find_by_name_kind(btf, tname, BTF_KIND_STRUCT);
		c = cid > 0 ? btf__type_by_id(btf, cid) : NULL;
		m = c ? btf_members(c) : NULL;
		for (__u16 k = 0; c && k < btf_vlen(c); k++, m++)
			if (!strcmp(btf__name_by_offset(btf, m->name_off), colon + 1)) {
				root.type = (__u32)cid;
				root.node_off = (int)(btf_member_bit_offset(c, k) / 8);
			}
		break;
	}
	return root;
}

/*
 * What the instruction at byte @off of section @sec loads, when it is the address of a graph
 * root (a global variable with a __contains tag): the root's contained type.  A static or hidden
 * variable is relocated against its section, the variable found by the addend.
 */
static struct bpfcc_root root_load(const struct elf_view *e, const struct btf *btf,
				   unsigned int sec, unsigned long off)
{
	const unsigned char *insn = sec_data(e, sec) + off;
	struct bpfcc_root none = {0, 0, 0};
	const Elf64_Sym *rs = insn[0] == 0x18 ? relo_sym(e, sec, off) : NULL;
	__s32 addend, var;

	if (!rs || !btf || rs->st_shndx >= e->nr_sh ||
	    strncmp(sec_name(e, rs->st_shndx), ".data", 5))
		return none;
	memcpy(&addend, insn + 4, sizeof(addend));
	if (ELF64_ST_TYPE(rs->st_info) == STT_SECTION) {
		const Elf64_Sym *found = NULL;

		for (size_t i = 0; i < e->nr_syms && !found; i++)
			if (ELF64_ST_TYPE(e->syms[i].st_info) == STT_OBJECT &&
			    e->syms[i].st_shndx == rs->st_shndx &&
			    e->syms[i].st_value == (Elf64_Addr)addend)
				found = &e->syms[i];
		rs = found;
	} else if (addend) {
		return none; /* a member of the variable, not the variable */
	}
	var = rs ? btf__find_by_name_kind(btf, sym_name(e, rs), BTF_KIND_VAR) : -1;
	return var > 0 ? var_contains(btf, (__u32)var) : none;
}

/* Whether the instruction at byte @off of section @sec loads an address in a .rodata section. */
static bool rodata_load(const struct elf_view *e, unsigned int sec, unsigned long off,
			struct bpfcc_root *root)
{
	const unsigned char *insn = sec_data(e, sec) + off;
	const Elf64_Sym *rs = insn[0] == 0x18 ? relo_sym(e, sec, off) : NULL;
	__s32 imm;

	if (!rs || rs->st_shndx >= e->nr_sh || strncmp(sec_name(e, rs->st_shndx), ".rodata", 7))
		return false;
	/* libbpf's offset in the map's value: the symbol's plus the instruction's addend */
	memcpy(&imm, insn + 4, 4);
	root->rodata_off = (int)rs->st_value + imm;
	root->rodata_size = (unsigned int)e->sh[rs->st_shndx].sh_size;
	return true;
}

/* The load of a global's address in a data section (.data, .bss, .data.X): its DATASEC. */
static void datasec_load(const struct elf_view *e, const struct btf *btf, unsigned int sec,
			 unsigned long off, struct bpfcc_root *root)
{
	const unsigned char *insn = sec_data(e, sec) + off;
	const Elf64_Sym *rs = insn[0] == 0x18 ? relo_sym(e, sec, off) : NULL;
	const char *name;
	__s32 imm, id;

	if (!btf || !rs || rs->st_shndx >= e->nr_sh)
		return;
	name = sec_name(e, rs->st_shndx);
	if (strncmp(name, ".data", 5) && strncmp(name, ".bss", 4))
		return;
	id = btf__find_by_name_kind(btf, name, BTF_KIND_DATASEC);
	if (id <= 0)
		return;
	memcpy(&imm, insn + 4, 4);
	root->datasec = (__u32)id;
	root->datasec_off = (int)rs->st_value + imm;
	root->datasec_size = (unsigned int)e->sh[rs->st_shndx].sh_size;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s == '\n') /* a verifier message of two lines */
			fputs("\\n", f);
		else
			fputc((unsigned char)*s < ' ' ? '?' : *s, f);
	}
	fputc('"', f);
}

/* The register a load or store at @insn addresses memory through, or -1 (not one, the stack). */
static int access_reg(const unsigned char *insn)
{
	unsigned int cls = insn[0] & 0x07, mode = insn[0] & 0xe0, reg;

	if (mode != 0x60) /* BPF_MEM */
		return -1;
	if (cls == 0x01) /* BPF_LDX: through src */
		reg = insn[1] >> 4;
	else if (cls == 0x02 || cls == 0x03) /* BPF_ST, BPF_STX: through dst */
		reg = insn[1] & 0x0f;
	else
		return -1;
	return reg == 10 ? -1 : (int)reg;
}

/*
 * "kfsim_bpfcc_accesses_@idx[]": the loads and stores of the functions of @e, with their lines,
 * and what @beyond_of (per function, per instruction; NULL: not known) found past an object's end
 * or through a reference an unlock invalidated.
 */
/* Whether function @k of the program is a callback: one of its functions loads its address. */
static bool is_callback(const struct elf_view *e, unsigned int k)
{
	for (unsigned int f = 0; k && f < e->nr_funcs; f++)
		for (unsigned long i = 0; i < e->funcs[f].cnt; i++) {
			unsigned long at = e->funcs[f].start + i;

			if (sec_data(e, e->funcs[f].sec)[at * INSN_SZ] == 0x18 &&
			    func_nr(e, subprog_target(e, e->funcs[f].sec, at, false)) == (int)k)
				return true;
		}
	return false;
}

/* The first and last source lines of function @k's instructions (0, 0: none). */
static void func_lines(const struct elf_view *e, unsigned int k, __u32 *first, __u32 *last)
{
	const struct func *fc = &e->funcs[k];

	*first = *last = 0;
	for (unsigned long i = 0; i < fc->cnt; i++) {
		const char *file;
		__u32 line;

		if (!insn_line(e, fc->sec, (fc->start + i) * INSN_SZ, &file, &line) || !line)
			continue;
		if (!*first || line < *first)
			*first = line;
		if (line > *last)
			*last = line;
	}
}

static int write_accesses(FILE *f, const struct elf_view *e, unsigned int idx,
			  struct bpfcc_beyond *const *beyond_of)
{
	int nr = 0;

	fprintf(f, "static const struct kfsim_bpfrt_access kfsim_bpfcc_accesses_%u[] = {\n", idx);
	for (unsigned int k = 0; k < e->nr_funcs; k++) {
		const struct func *fc = &e->funcs[k];
		__u32 cb_first = 0, cb_last = 0;

		if (is_callback(e, k))
			func_lines(e, k, &cb_first, &cb_last);

		for (unsigned long i = 0; i < fc->cnt; i++) {
			unsigned long off = (fc->start + i) * INSN_SZ;
			int reg = access_reg(sec_data(e, fc->sec) + off);
			const struct bpfcc_beyond *by = beyond_of[k] ? &beyond_of[k][i] : NULL;
			const char *file = "", *base;
			__u32 line = 0;

			if (reg < 0 && by && by->refused[0])
				reg = KFSIM_BPFRT_CALL_REG; /* a call the verifier refuses */
			if ((reg < 0 && reg != KFSIM_BPFRT_CALL_REG) ||
			    !insn_line(e, fc->sec, off, &file, &line))
				continue;
			base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
			fputs("\t{", f);
			put_string(f, base);
			fprintf(f, ", %u, %d, ", line, reg);
			if (by && by->type) {
				put_string(f, by->type);
				fprintf(f, ", %d, %d, ", by->off, by->size);
			} else {
				fputs("0, 0, 0, ", f);
			}
			fprintf(f, "%d, %d, ", by && by->dead_ref, by ? by->after_merge : 0);
			if (by && by->refused[0])
				put_string(f, by->refused);
			else
				fputs("0", f);
			fprintf(f, ", %u, %u},\n", cb_first, cb_last);
			nr++;
		}
	}
	if (!nr)
		fputs("\t{0},\n", f);
	fputs("};\n", f);
	return nr;
}

int bpfcc_write_calls(FILE *f, const struct bpfcc_unit *u, const char *fn, unsigned int idx,
		      int *nr_accesses, int *leak_after_merge, char *at_end, size_t at_end_size)
{
	struct elf_view *e = calloc(1, sizeof(*e));
	struct bpfcc_beyond **beyond_of;
	unsigned long at = 0;
	unsigned int nr = 0;
	int err, main_sym = -1, ctx_mem;
	struct btf *btf;

	if (!e)
		return -ENOMEM;
	err = elf_open(u->object, e);
	if (err)
		goto out;
	find_line_info(e);
	ctx_mem = ctx_as_memory(u, fn);
	for (size_t i = 0; i < e->nr_syms && main_sym < 0; i++)
		if (ELF64_ST_TYPE(e->syms[i].st_info) == STT_FUNC &&
		    e->syms[i].st_shndx != e->text && !strcmp(sym_name(e, &e->syms[i]), fn))
			main_sym = (int)i;
	fprintf(f, "static const struct kfsim_bpfrt_call kfsim_bpfcc_calls_%u[] = {\n", idx);
	if (main_sym >= 0) {
		append(e, &e->syms[main_sym]);
		if (e->nr_funcs)
			reloc_code(e, 0);
	}
	btf = btf__parse_elf(u->object, NULL);
	beyond_of = calloc(e->nr_funcs + 1, sizeof(*beyond_of));
	for (unsigned int k = 0; k < e->nr_funcs; k++) {
		const struct func *fc = &e->funcs[k];
		const char **names = calloc(fc->cnt + 1, sizeof(*names));
		bool *differ = calloc(fc->cnt + 1, sizeof(*differ));
		bool *arrays = calloc(fc->cnt + 1, sizeof(*arrays));
		struct bpfcc_beyond *beyond = calloc(fc->cnt + 1, sizeof(*beyond));
		struct bpfcc_root *roots = calloc(fc->cnt + 1, sizeof(*roots));
		bool *non_owning = calloc(fc->cnt + 1, sizeof(*non_owning));
		/* the verifier's walk order is the program's own from its main function only */
		unsigned char *merge = k ? NULL : calloc(fc->cnt + 1, sizeof(*merge));
		bool leak_after = false;
		struct bpfcc_subcall *subcalls = global_calls(e, btf, k, ctx_mem);
		/* the main function's one argument is the context */
		struct bpfcc_global_args entry = {.nr_args = 1, .ctx_arg = {true}};
		bool global = !k || (btf && bpfcc_global_args(btf, fc->name, &entry));
		/* a static callback of a loop or a map's walk: its arguments are typed */
		bool walk_cb = k && !global && callback_entry(e, u, fc->name, &entry);
		struct bpf_program *prog = u->bo ? bpf_object__find_program_by_name(u->bo, fn) : NULL;

		entry.ctx_type = !k && prog ? (unsigned int)bpf_program__type(prog) : 0;

		for (unsigned long i = 0; names && arrays && i < fc->cnt; i++) {
			unsigned long off = (fc->start + i) * INSN_SZ;

			names[i] = callee(e, fc->sec, off, sec_data(e, fc->sec) + off);
			arrays[i] = array_map_load(e, u, fc->sec, off);
			if (roots) {
				roots[i] = root_load(e, btf, fc->sec, off);
				roots[i].map_value = map_value_load(e, u, fc->sec, off, &roots[i]);
				roots[i].rodata = rodata_load(e, fc->sec, off, &roots[i]);
				roots[i].address = sec_data(e, fc->sec)[off] == 0x18 &&
						   relo_sym(e, fc->sec, off);
				datasec_load(e, btf, fc->sec, off, &roots[i]);
			}
		}
		/* the calls that objects of types with different records reach, the accesses
		 * past an object's end, the inserts of a non-owning result */
		if (!names || !differ || !arrays || !beyond || !non_owning || !btf ||
		    bpfcc_call_types(
			    btf,
			    (const struct bpf_insn *)(sec_data(e, fc->sec) + fc->start * INSN_SZ),
			    fc->cnt, names, arrays, roots, differ, beyond, non_owning, merge,
			    &leak_after, subcalls, global || walk_cb ? &entry : NULL)) {
			free(differ);
			differ = NULL;
			free(beyond);
			beyond = NULL;
			free(non_owning);
			non_owning = NULL;
			free(merge);
			merge = NULL;
		}
		for (unsigned long i = 0; beyond && merge && i < fc->cnt; i++)
			beyond[i].after_merge = merge[i];
		if (merge)
			*leak_after_merge = leak_after;
		if (beyond_of)
			beyond_of[k] = beyond;
		else
			free(beyond);
		for (unsigned long i = 0; i < fc->cnt; i++) {
			unsigned long off = (fc->start + i) * INSN_SZ;
			const char *name = callee(e, fc->sec, off, sec_data(e, fc->sec) + off);
			const char *file = "", *base;
			__u32 line = 0;

			if (!name || !insn_line(e, fc->sec, off, &file, &line))
				continue;
			base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
			fputs("\t{", f);
			put_string(f, name);
			fputs(", ", f);
			put_string(f, base);
			fprintf(f, ", %u, %lu, %d, %d, %d},\n", line, at + i, differ && differ[i],
				non_owning && non_owning[i], merge ? merge[i] : 0);
			nr++;
		}
		free(names);
		free(subcalls);
		free(differ);
		free(arrays);
		free(roots);
		free(non_owning);
		free(merge);
		at += fc->cnt;
	}
	if (!nr)
		fputs("\t{0},\n", f);
	fputs("};\n", f);
	at_end[0] = '\0';
	call_chain_rule(e, btf, at_end, at_end_size);
	if (beyond_of)
		*nr_accesses = write_accesses(f, e, idx, beyond_of);
	else
		err = -ENOMEM;
	for (unsigned int k = 0; beyond_of && k < e->nr_funcs; k++)
		free(beyond_of[k]);
	free(beyond_of);
	btf__free(btf); /* after the accesses: the struct names are the BTF's strings */
	if (err)
		goto out;
	err = (int)nr;
out:
	free(e->data);
	free(e);
	return err;
}
