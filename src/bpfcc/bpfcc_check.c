// SPDX-License-Identifier: MIT
/*
 * What kfsim-bpf-cc refuses before building natively: a program in BPF assembly (a __naked
 * function, which gcc cannot build for the host), a kfunc that kfsim does not provide (an
 * extern function in the object's BTF that kfsim's kfunc registry, include/kfsim/
 * bpf_kfunc_list.h, does not list and the native runtime does not provide; the selftests'
 * test kfuncs with the reason) and a helper
 * that the native runtime does not provide (a "call" instruction with src_reg 0 in an
 * executable section, its number named from libbpf's bpf_helper_defs.h).  Each is reported as
 * "FILE:LINE: ..." with the line where the source first calls it.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include <kfsim/bpf_experimental.h>
#include "bpfcc.h"

#define HELPER_DEFS "/usr/include/bpf/bpf_helper_defs.h"
#define MAX_HELPER 512

/* The helpers src/bpfcc/runtime/bpfrt_helpers.c provides, the two that call back
 * (bpfrt_callbacks.c) and those of bpfrt_maps.c (include/bpf-compat/native/bpf/bpf_helpers.h
 * declares them all). */
static const char *const native_helpers[] = {
	"bpf_map_lookup_elem",	    "bpf_map_update_elem", "bpf_map_delete_elem",
	"bpf_ktime_get_ns",	    "bpf_trace_printk",	   "bpf_get_prandom_u32",
	"bpf_get_smp_processor_id", "bpf_spin_lock",	   "bpf_spin_unlock",
	"bpf_per_cpu_ptr",	    "bpf_this_cpu_ptr",	   "bpf_kptr_xchg",
	"bpf_jiffies64",	    "bpf_ktime_get_boot_ns", "bpf_ktime_get_coarse_ns",
	"bpf_ktime_get_tai_ns",	    "bpf_map_lookup_percpu_elem", "bpf_probe_read_kernel",
	"bpf_skb_load_bytes",	    "bpf_get_current_comm", "bpf_loop",
	"bpf_for_each_map_elem",    "bpf_ringbuf_output",  "bpf_ringbuf_reserve",
	"bpf_ringbuf_submit",	    "bpf_ringbuf_discard", "bpf_ringbuf_query",
};

/*
 * Kfuncs the graph selftests call that kfsim refuses by name, with the reason: the selftests'
 * test kfuncs, which act on a kernel object of the test harness, not on anything a program
 * allocates (issue #28).  Facts from 6.12's source and the running 6.18's BTF.
 */
static const struct {
	const char *name;
	const char *why;
} refused_kfuncs[] = {
	{"bpf_kfunc_call_test_acquire",
	 "a test kfunc of the selftests' bpf_testmod module (tools/testing/selftests/bpf/"
	 "bpf_testmod, 6.12: KF_ACQUIRE | KF_RET_NULL, a counted reference to one static struct "
	 "prog_test_ref_kfunc); a kernel has it only with that module loaded"},
	{"bpf_kfunc_call_test_release",
	 "a test kfunc of net/bpf/test_run.c (6.12, 6.18: KF_RELEASE, for test-run program types) "
	 "that releases what bpf_testmod's bpf_kfunc_call_test_acquire() gives"},
};

/*
 * Kfuncs the native runtime provides itself rather than libkfsim: the open-coded numeric
 * iterator (6.4, src/bpfcc/runtime/bpfrt_iter.c), behind bpf_for() and bpf_repeat().
 */
static const char *const runtime_kfuncs[] = {"bpf_iter_num_new", "bpf_iter_num_next",
					     "bpf_iter_num_destroy"};

/* The loops that call an iterator's kfuncs (libbpf's bpf_helpers.h, the compat header). */
static const char *const iter_loops[] = {"bpf_for", "bpf_repeat", "bpf_for_each"};

static bool runtime_kfunc(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(runtime_kfuncs); i++)
		if (!strcmp(runtime_kfuncs[i], name))
			return true;
	return false;
}

/* The line of @name's first call, else (an iterator's kfunc) of the first iterator loop. */
static int call_line(const struct bpfcc_unit *u, const char *name)
{
	int line = bpfcc_source_line(u, name);

	for (size_t m = 0; !line && !strncmp(name, "bpf_iter_", 9) && m < ARRAY_SIZE(iter_loops);
	     m++)
		line = bpfcc_source_line(u, iter_loops[m]);
	return line;
}

static const char *refused_kfunc(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(refused_kfuncs); i++)
		if (!strcmp(refused_kfuncs[i].name, name))
			return refused_kfuncs[i].why;
	return NULL;
}

int bpfcc_source_line(const struct bpfcc_unit *u, const char *ident)
{
	size_t len = strlen(ident);
	FILE *f = fopen(u->source, "r");
	char line[4096];
	int nr = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		nr++;
		if (strstr(line, "__ksym") || strstr(line, "extern ")) /* its declaration */
			continue;
		for (char *p = strstr(line, ident); p; p = strstr(p + 1, ident)) {
			char *q = p + len;

			if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
				continue;
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == '(') {
				fclose(f);
				return nr;
			}
		}
	}
	fclose(f);
	return 0;
}

/*
 * Whether the function @name is BPF assembly: a __naked function (the selftests' verifier_*.c
 * programs) is the asm statement of its body, which gcc cannot build for the host.  Its line is
 * where its name is first called or defined (bpfcc_source_line()); the attribute is on that line.
 */
static bool naked_function(const struct bpfcc_unit *u, const char *name, int *line_nr)
{
	int want = bpfcc_source_line(u, name), nr = 0;
	char line[4096];
	bool naked = false;
	FILE *f;

	*line_nr = want;
	if (!want || !(f = fopen(u->source, "r")))
		return false;
	while (fgets(line, sizeof(line), f) && ++nr <= want)
		naked = nr == want && strstr(line, "__naked");
	fclose(f);
	return naked;
}

/*
 * Whether @text (an asm statement's first lines) has a template that is not empty: in a BPF C
 * file any instruction is a BPF one ("r1 = 0", "%[r] = 1", "goto"), which gcc's assembler for
 * the host cannot take.  An empty template ("barrier_var()", "__sink()") is no instruction, and
 * gcc builds it.
 */
static bool bpf_asm_text(const char *text)
{
	const char *q = strchr(text, '"');

	return q && q[1] && q[1] != '"';
}

/*
 * BPF assembly inside a C function (the selftests' "asm volatile (\"r1 = ...\")" in C
 * programs): the BPF build takes it, gcc's assembler for the host does not ("no such
 * instruction"), so it is said here by line, as a __naked function is.  Returns how many.
 */
static int inline_bpf_asm(const struct bpfcc_unit *u)
{
	char line[4096], text[8192 + 4096];
	int nr = 0, bad = 0, at_line;
	FILE *f = fopen(u->source, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *a = strstr(line, "asm");
		size_t n;

		nr++;
		if (!a || (a > line && (isalnum((unsigned char)a[-1]) || a[-1] == '_')) ||
		    strstr(line, "__naked"))
			continue;
		a += 3;
		while (*a == '_')
			a++;
		while (isspace((unsigned char)*a))
			a++;
		if (!strncmp(a, "volatile", 8) || !strncmp(a, "__volatile__", 12))
			a += a[0] == '_' ? 12 : 8;
		while (isspace((unsigned char)*a))
			a++;
		if (*a != '(')
			continue;
		/* the template may start on the next lines: take a few */
		at_line = nr;
		n = strlen(a) < sizeof(text) - 1 ? strlen(a) : sizeof(text) - 1;
		memcpy(text, a, n);
		text[n] = '\0';
		for (int more = 0; more < 3 && !strchr(text, '"') && fgets(line, sizeof(line), f);
		     more++) {
			nr++;
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s", line);
			if (n >= sizeof(text))
				break;
		}
		if (!bpf_asm_text(text))
			continue;
		fprintf(stderr,
			"%s:%d: BPF assembly in a C function (an asm statement): kfsim-bpf-cc builds "
			"BPF C natively and cannot run it\n",
			u->display, at_line);
		bad++;
	}
	fclose(f);
	return bad;
}

static bool native_helper(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(native_helpers); i++)
		if (!strcmp(native_helpers[i], name))
			return true;
	return false;
}

/* Helper number -> name, from libbpf's "static ... (*NAME)(...) = (void *) N;" lines. */
static void helper_names(char names[MAX_HELPER][64])
{
	FILE *f = fopen(HELPER_DEFS, "r");
	char line[1024];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *open = strstr(line, "(*"), *close, *num = strstr(line, "= (void *) ");
		long id;

		if (strncmp(line, "static ", 7) || !open || !num)
			continue;
		close = strchr(open, ')');
		id = strtol(num + 11, NULL, 10);
		if (close && id > 0 && id < MAX_HELPER && close - open - 2 < 64)
			snprintf(names[id], 64, "%.*s", (int)(close - open - 2), open + 2);
	}
	fclose(f);
}

/* Mark in @used every helper number called from an executable section of the object. */
static int scan_helpers(const char *path, bool used[MAX_HELPER])
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	int err = 0;

	if (!f)
		return -errno;
	if (fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr)) {
		fclose(f);
		return -ENOEXEC;
	}
	for (unsigned int s = 0; s < eh.e_shnum && !err; s++) {
		Elf64_Shdr sh;
		unsigned char *text;

		if (fseek(f, (long)(eh.e_shoff + s * sizeof(sh)), SEEK_SET) ||
		    fread(&sh, sizeof(sh), 1, f) != 1) {
			err = -EIO;
			break;
		}
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size)
			continue;
		text = malloc(sh.sh_size);
		if (!text || fseek(f, (long)sh.sh_offset, SEEK_SET) ||
		    fread(text, sh.sh_size, 1, f) != 1) {
			free(text);
			err = -EIO;
			break;
		}
		for (size_t i = 0; i + 8 <= sh.sh_size; i += 8) {
			unsigned char code = text[i], src_reg = text[i + 1] >> 4;
			int imm;

			memcpy(&imm, text + i + 4, sizeof(imm));
			/* BPF_JMP | BPF_CALL with src_reg 0: a helper */
			if (code == 0x85 && src_reg == 0 && imm > 0 && imm < MAX_HELPER)
				used[imm] = true;
		}
		free(text);
	}
	fclose(f);
	return err;
}

int bpfcc_check(const struct bpfcc_unit *u)
{
	static char names[MAX_HELPER][64];
	bool used[MAX_HELPER] = {false};
	/* the object's own BTF: libbpf's copy has its externs renamed for old kernels */
	struct btf *btf = btf__parse_elf(u->object, NULL);
	__u32 n = btf ? btf__type_cnt(btf) : 0;
	int bad = 0;

	if (!btf) {
		fprintf(stderr, "kfsim-bpf-cc: %s: the BPF object has no BTF (clang -g)\n",
			u->display);
		return 1;
	}

	/* programs in BPF assembly */
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = btf_is_func(t) ? btf__name_by_offset(btf, t->name_off) : NULL;
		int line;

		if (!name || !naked_function(u, name, &line))
			continue;
		fprintf(stderr,
			"%s:%d: %s is BPF assembly (__naked): kfsim-bpf-cc builds BPF C natively "
			"and cannot run it\n",
			u->display, line, name);
		bad++;
	}

	bad += inline_bpf_asm(u);

	/* the externs: the ".ksyms" section lists them */
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *sec = btf__type_by_id(btf, id);
		const char *sname = btf__name_by_offset(btf, sec->name_off);
		const struct btf_var_secinfo *vi;

		if (!btf_is_datasec(sec) || !sname || strcmp(sname, ".ksyms"))
			continue;
		vi = btf_var_secinfos(sec);
		for (__u16 i = 0; i < btf_vlen(sec); i++, vi++) {
			const struct btf_type *t = btf__type_by_id(btf, vi->type);
			const char *name = btf__name_by_offset(btf, t->name_off);
			const struct kfsim_bpf_kfunc *k = kfsim_bpf_kfunc_find(name);

			if (btf_is_func(t) &&
			    ((k && !(k->kfsim_flags & KFSIM_KF_HELPER)) || runtime_kfunc(name)))
				continue;
			if (btf_is_func(t) && refused_kfunc(name)) {
				fprintf(stderr, "%s:%d: kfunc %s is not provided by kfsim: %s\n",
					u->display, call_line(u, name), name, refused_kfunc(name));
				bad++;
				continue;
			}
			fprintf(stderr,
				"%s:%d: %s %s is not provided by kfsim (see `kfsim bpf kfuncs`)\n",
				u->display, btf_is_func(t) ? call_line(u, name) : bpfcc_source_line(u, name),
				btf_is_func(t) ? "kfunc" : "kernel symbol", name);
			bad++;
		}
	}
	btf__free(btf);
	if (scan_helpers(u->object, used)) {
		fprintf(stderr, "kfsim-bpf-cc: %s: cannot read the BPF object's instructions\n",
			u->object);
		return bad + 1;
	}
	helper_names(names);
	for (int id = 1; id < MAX_HELPER; id++) {
		if (!used[id] || (names[id][0] && native_helper(names[id])))
			continue;
		if (names[id][0])
			fprintf(stderr,
				"%s:%d: helper %s is not provided by kfsim's native runtime\n",
				u->display, bpfcc_source_line(u, names[id]), names[id]);
		else
			fprintf(stderr,
				"%s: helper number %d is not provided by kfsim's native runtime\n",
				u->display, id);
		bad++;
	}
	return bad;
}
