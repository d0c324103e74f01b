// SPDX-License-Identifier: MIT
/*
 * The runner every program built by kfsim-bpf-cc has as main():
 *
 *	PROG [--kver X.Y] [--kernel] [--timeout S] [-v] [--list] [NAME...]
 *
 * Each SEC() program (or each NAME) runs in a child process on fresh sections and maps, twice
 * in a row as a loaded program runs again on its maps, under kfsim's checked kfuncs, with a
 * time limit; a hang or a crash is reported as such.  Its verdict is REJECT when kfsim reported a
 * broken rule (the first one is the message, located in the source) and ACCEPT otherwise; the
 * first run's return value is the program's.  It is then judged (bpfrt_expect.c) against the
 * annotations, or with --kernel against the running kernel's verifier, whose verdict is printed
 * beside kfsim's:
 *
 *	PASS    agrees            STATIC  expected failure is a static-only rule (the rule is
 *printed) FAIL    disagrees         RAN     nothing to compare with
 *
 * Exit status: 0 when no program FAILs, 1 otherwise, 2 for a bad command line.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <libgen.h>
#include <link.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <kfsim/cmdline.h>
#include <kfsim/printk.h>
#include "bpfrt.h"
#include "core/child_run.h"

#define NR_RUNS 2
#define MAX_FRAMES 32

static const struct kfsim_bpfrt_object *obj = &kfsim_bpfcc_object;
static unsigned int timeout_s = 10;
static bool verbose;

/* ---- where a violation happened: the program's frame on the stack, named by addr2line ---- */

static void *frames[MAX_FRAMES];
static int nr_frames;

static void report(const struct kfsim_bpf_violation *v, void *arg)
{
	int *nr = arg;

	/* the stack also when the call site names the line: a refused call on it comes first */
	if ((*nr)++ == 0) {
		nr_frames = backtrace(frames, MAX_FRAMES);
		/* a global subprogram's call: the caller's line first (bpfrt_subprogs.c) */
		if (bpfrt_global_call_site && nr_frames > 0) {
			if (nr_frames == MAX_FRAMES)
				nr_frames--;
			memmove(frames + 1, frames, (size_t)nr_frames * sizeof(frames[0]));
			frames[0] = bpfrt_global_call_site;
			nr_frames++;
		}
	}
}

static int main_base(struct dl_phdr_info *info, size_t size, void *data)
{
	*(uintptr_t *)data = info->dlpi_addr;
	return 1; /* the first object is the program itself */
}

/*
 * The program's own executable, for addr2line.  readlink() does not terminate what it writes:
 * the name ends at the length it returns, or what the stack held before follows it (a name
 * addr2line cannot open, and no "at:", as the build's stack layout had it).
 */
static bool self_exe(char *exe, size_t size)
{
	ssize_t len = readlink("/proc/self/exe", exe, size - 1);

	if (len <= 0)
		return false;
	exe[len] = '\0';
	return true;
}

/*
 * Whether @file (a path addr2line printed) lies in the directory of the program's @source.
 * @source is absolute (kfsim-bpf-cc took its realpath), and so are the paths of the program's
 * own code, which #includes it by that path; the runner's own code may have relative paths
 * (-ffile-prefix-map, ccache's CCACHE_BASEDIR), which are never in it, nor is any absolute path
 * outside the directory (a header's, the runner's in a build outside the checkout).
 */
bool bpfrt_in_source_dir(const char *source, const char *file)
{
	const char *slash = strrchr(source, '/');
	size_t len = slash ? (size_t)(slash - source) + 1 : 0; /* the directory with its '/' */

	return source[0] == '/' && len && !strncmp(file, source, len);
}

/* The first frame inside the program's own source directory, as "file:line". */
static void locate(char *where, size_t size)
{
	char exe[PATH_MAX], cmd[PATH_MAX + 64 + MAX_FRAMES * 20], line[PATH_MAX + 32];
	uintptr_t base = 0;
	size_t n;
	FILE *p;

	if (!nr_frames || !self_exe(exe, sizeof(exe)))
		return;
	dl_iterate_phdr(main_base, &base);
	n = (size_t)snprintf(cmd, sizeof(cmd), "addr2line -i -e '%s'", exe);
	for (int i = 0; i < nr_frames && n < sizeof(cmd) - 24; i++) {
		Dl_info info;

		if (!dladdr(frames[i], &info) || (uintptr_t)info.dli_fbase != base)
			continue; /* a frame in libkfsim or libc */
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, " %#lx",
				      (unsigned long)((uintptr_t)frames[i] - base - 1));
	}
	strcat(cmd, " 2>/dev/null");
	p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		char *disc = strstr(line, " (discriminator");

		line[strcspn(line, "\n")] = '\0';
		if (disc)
			*disc = '\0';
		if (bpfrt_in_source_dir(obj->source, line) && !strstr(line, ":?") && !where[0])
			snprintf(where, size, "%s", basename(line));
	}
	pclose(p);
}

void bpfrt_locate(void *const *at, int nr, char *where, size_t size)
{
	nr_frames = nr < MAX_FRAMES ? nr : MAX_FRAMES;
	memcpy(frames, at, (size_t)nr_frames * sizeof(frames[0]));
	where[0] = '\0';
	locate(where, size);
}

/* The innermost source "file:line" of the program's code at @addr (addr2line -i), or false. */
static bool addr_line(const void *addr, char *file, size_t size, int *line)
{
	char exe[PATH_MAX], cmd[PATH_MAX + 64], out[PATH_MAX + 32];
	uintptr_t base = 0;
	Dl_info info;
	char *colon;
	bool ok = false;
	FILE *p;

	if (!self_exe(exe, sizeof(exe)))
		return false;
	dl_iterate_phdr(main_base, &base);
	if (!dladdr(addr, &info) || (uintptr_t)info.dli_fbase != base)
		return false; /* not the program's own code */
	snprintf(cmd, sizeof(cmd), "addr2line -e '%s' %#lx 2>/dev/null", exe,
		 (unsigned long)((uintptr_t)addr - base - 1)); /* -1: the call, not what follows */
	p = popen(cmd, "r");
	if (!p)
		return false;
	if (fgets(out, sizeof(out), p)) {
		out[strcspn(out, " \n")] = '\0'; /* drops " (discriminator N)" */
		colon = strrchr(out, ':');
		if (colon && colon[1] >= '0' && colon[1] <= '9') {
			*colon = '\0';
			*line = atoi(colon + 1);
			snprintf(file, size, "%s", out);
			ok = true;
		}
	}
	pclose(p);
	return ok;
}

/*
 * The lines addr2line gave, shared by the processes of one program's exploration (created before
 * they fork), so that each return address costs one addr2line run, not one per path.
 */
#define LINE_CACHE 64
static struct line_cache {
	unsigned int nr;
	struct {
		const void *addr;
		int line;
		char file[200];
	} e[LINE_CACHE];
} *line_cache;

/* Before the exploration forks: every path's process then shares the one cache. */
static void line_cache_init(void)
{
	line_cache = mmap(NULL, sizeof(*line_cache), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (line_cache == MAP_FAILED)
		line_cache = NULL;
}

static bool cached_addr_line(const void *addr, char *file, size_t size, int *line)
{
	for (unsigned int i = 0; line_cache && i < line_cache->nr; i++)
		if (line_cache->e[i].addr == addr) {
			snprintf(file, size, "%s", line_cache->e[i].file);
			*line = line_cache->e[i].line;
			return true;
		}
	if (!addr_line(addr, file, size, line))
		return false;
	if (line_cache && line_cache->nr < LINE_CACHE) {
		unsigned int i = line_cache->nr;

		line_cache->e[i].addr = addr;
		line_cache->e[i].line = *line;
		snprintf(line_cache->e[i].file, sizeof(line_cache->e[i].file), "%s", file);
		line_cache->nr++; /* after the entry: one process runs at a time anyway */
	}
	return true;
}

/* The instruction of the @k-th call (from 0, in instruction order) of @kfunc at @base:@line. */
static int nth_call_at_line(const struct kfsim_bpfrt_prog *p, const char *kfunc, const char *base,
			    int line, unsigned int k)
{
	int prev = -1;

	for (unsigned int found = 0; found <= k; found++) {
		int next = -1;

		for (int i = 0; i < p->nr_calls; i++) {
			const struct kfsim_bpfrt_call *c = &p->calls[i];

			if (c->line == line && !strcmp(c->name, kfunc) && !strcmp(c->file, base) &&
			    c->insn > prev && (next < 0 || c->insn < next))
				next = c->insn;
		}
		if (next < 0)
			return -1;
		prev = next;
	}
	return prev;
}

/*
 * The instruction of the program's call of @kfunc at the native call site (@file:@line when a
 * call-site macro recorded it, else the line of @caller): the program's only call of @kfunc,
 * else its call at that line.  When clang emitted the line's call more than once (a loop it
 * unrolled, or an inlined function called from two places, which the native build may have kept
 * as one call site), -1 when @certain; else, when the run says how many times the call site ran
 * before (@nth >= 0), the copy of that number in instruction order (clang lays an unrolled
 * loop's iterations out in order, and the verifier names the copy of the iteration), counted
 * round again when the site ran more often (the unrolled loop inside a kept one); else the
 * first one.  -1 when the line has none: clang merged its call with another, whose line info is
 * not the line's (which calls a merged one stands for is bpfcc_call_types.c's to find).
 */
static int find_call(const struct kfsim_bpfrt_prog *p, const char *kfunc, const char *file,
		     int line, const void *caller, int nth, bool certain)
{
	char buf[PATH_MAX];
	const char *base;
	int nr_calls = 0, nr_at_line = 0, insn = -1;

	if (!kfunc)
		return -1;
	for (int i = 0; i < p->nr_calls; i++)
		if (!strcmp(p->calls[i].name, kfunc)) {
			nr_calls++;
			insn = p->calls[i].insn;
		}
	if (nr_calls <= 1)
		return nr_calls ? insn : -1;
	if (!file) {
		if (!caller || !cached_addr_line(caller, buf, sizeof(buf), &line))
			return -1;
		file = buf;
	}
	base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	for (int i = 0; i < p->nr_calls; i++) {
		const struct kfsim_bpfrt_call *c = &p->calls[i];

		if (c->line != line || strcmp(c->name, kfunc) || strcmp(c->file, base))
			continue;
		if (!certain && nth < 0)
			return c->insn;
		nr_at_line++;
		insn = c->insn;
	}
	if (certain || nr_at_line <= 1)
		return nr_at_line == 1 ? insn : -1;
	return nth_call_at_line(p, kfunc, base, line, (unsigned int)nth % (unsigned int)nr_at_line);
}

/*
 * The run's alloc_insn resolver (leak reports): the BPF instruction of the acquiring call, from
 * the table kfsim-bpf-cc built from the object's line info; -1 keeps kfsim's own number.
 */
static int alloc_insn(const char *kfunc, const char *file, int line, const void *caller, int nth,
		      void *arg)
{
	return find_call(arg, kfunc, file, line, caller, nth, false);
}

static const struct kfsim_bpfrt_prog *child_prog; /* the program the child runs */

int bpfrt_call_insn(const char *kfunc, const void *caller)
{
	return child_prog ? find_call(child_prog, kfunc, NULL, 0, caller, -1, false) : -1;
}

int bpfrt_call_insn_nth(const char *kfunc, const void *caller, int nth)
{
	return child_prog ? find_call(child_prog, kfunc, NULL, 0, caller, nth, false) : -1;
}

void bpfrt_site_of(const void *caller)
{
	static char file[PATH_MAX];
	int line;

	if (caller && cached_addr_line(caller, file, sizeof(file), &line))
		bpfrt_site(file, line);
	else
		bpfrt_site(NULL, 0);
}

void bpfrt_leak_report(const char *call, const char *rule, const void *caller, unsigned int id,
		       int insn, bool last)
{
	bpfrt_site_of(caller);
	kfsim_bpf_helper_refused(call, rule, "Unreleased reference id=%u alloc_insn=%d%s", id, insn,
				 last && kfsim_kernel_at_least(6, 14)
					 ? "\nBPF_EXIT instruction in main prog would lead to "
					   "reference leak"
					 : "");
	bpfrt_site(NULL, 0);
}

/* The run's call_insn: one call instruction, one type wants the call for certain. */
static int call_insn(const char *kfunc, const void *caller, void *arg)
{
	return find_call(arg, kfunc, NULL, 0, caller, -1, true);
}

/*
 * The run's non_owning_arg (rule 6): the push or add at @caller is one kfsim-bpf-cc's data-flow
 * found given a non-owning result on some path.  When the call is not known for certain (two
 * calls of @kfunc at its line), any of them.
 */
static bool non_owning_arg(const char *kfunc, const void *caller, void *arg)
{
	const struct kfsim_bpfrt_prog *p = arg;
	int insn;

	/* a helper's call site is the one its wrapper recorded (bpfrt_helpers.c: bpf_kptr_xchg) */
	insn = find_call(p, kfunc, kfsim_bpf_site.file, kfsim_bpf_site.file ? kfsim_bpf_site.line : 0,
			 caller, -1, false);
	for (int i = 0; insn >= 0 && i < p->nr_calls; i++)
		if (p->calls[i].insn == insn)
			return p->calls[i].non_owning_arg;
	return false;
}

/*
 * Whether any call of @p was found given a non-owning result: the common case is none, and then
 * the run gets no non_owning_arg at all, so the inserts' fast paths ask nothing (no addr2line).
 */
static bool any_non_owning_arg(const struct kfsim_bpfrt_prog *p)
{
	for (int i = 0; i < p->nr_calls; i++)
		if (p->calls[i].non_owning_arg)
			return true;
	return false;
}

/*
 * What the rule "one call instruction, one type" keeps for one program: shared by its explored
 * paths and its runs, as the verifier's insn_aux_data is by every path it walks.
 */
static struct kfsim_bpf_call_types *call_types_init(void)
{
	struct kfsim_bpf_call_types *t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
					     MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return t == MAP_FAILED ? NULL : t;
}

static struct kfsim_bpf_call_types *call_types;

/* The source file and line of a verdict (a path's report is located from its frames). */
static bool verdict_line(const struct bpfrt_verdict *out, char *file, size_t size, int *line)
{
	char *colon;

	snprintf(file, size, "%s", out->where);
	if (!file[0] && out->nr_frames)
		bpfrt_locate(out->frames, out->nr_frames, file, size);
	colon = strrchr(file, ':');
	if (!colon)
		return false;
	*colon = '\0';
	*line = atoi(colon + 1);
	return true;
}

/*
 * Whether the verifier reaches the rule the run broke (@out) only after a call with two types'
 * records: kfsim-bpf-cc walked the main function's paths in the verifier's order and marked each
 * call and access first reached after that call (@after_merge 2); every one at the verdict's line
 * must be.  The paths share their exit: a leak comes after that call when no path the walk took
 * before it reached its exit holding a reference (@leak_after_merge); another rule broken at the
 * exit (a lock still held) is not placed.
 */
static bool verdict_after_merge(const struct kfsim_bpfrt_prog *p, const struct bpfrt_verdict *out)
{
	char file[sizeof(out->where)];
	int line, nr = 0;

	if (bpfrt_exit_rule(out->msg))
		return p->leak_after_merge && msg_starts(out->msg, BPFRT_MSG_UNRELEASED);
	if (!verdict_line(out, file, sizeof(file), &line))
		return false;
	for (int i = 0; i < p->nr_calls; i++) {
		const struct kfsim_bpfrt_call *c = &p->calls[i];

		if (c->line != line || strcmp(c->file, file))
			continue;
		if (c->after_merge != 2)
			return false;
		nr++;
	}
	for (int i = 0; i < p->nr_accesses; i++) {
		const struct kfsim_bpfrt_access *a = &p->accesses[i];

		if (a->line != line || strcmp(a->file, file))
			continue;
		if (a->after_merge != 2)
			return false;
		nr++;
	}
	return nr > 0;
}

/*
 * A call that objects of two types reach on paths no run took (a tail merge clang made, which
 * kfsim-bpf-cc found in the BPF object: @types_differ): the verifier walks those paths, so a
 * program every run accepted is refused there (>= 6.18), and so is one whose run broke a rule
 * the verifier reaches only after that call (verdict_after_merge()).
 */
static void merged_call_verdict(const struct kfsim_bpfrt_prog *p, struct bpfrt_verdict *out)
{
	if (kfsim_kernel_version() < KERNEL_VERSION(6, 18, 0))
		return;
	if (strcmp(out->verdict, "ACCEPT") &&
	    (strcmp(out->verdict, "REJECT") || !verdict_after_merge(p, out)))
		return;
	for (int i = 0; i < p->nr_calls; i++) {
		const struct kfsim_bpfrt_call *c = &p->calls[i];

		if (!c->types_differ)
			continue;
		snprintf(out->verdict, sizeof(out->verdict), "REJECT");
		snprintf(out->msg, sizeof(out->msg), "%s",
			 BPFRT_MSG_SAME_CALL "\n"
			 "use one call for each type: inline the static function that holds the "
			 "call,\nor mark the callee with __attribute__((nomerge))");
		snprintf(out->where, sizeof(out->where), "%s:%d", c->file, c->line);
		out->has_retval = false;
		return;
	}
}

/*
 * Whether the run broke its rule inside a call made at @a's line (a frame of @out's stack returns
 * there): the verifier refuses that call before it walks what the callee does, or, for a global
 * function, before it verifies the callee at all.
 */
static bool under_call_at(const struct kfsim_bpfrt_access *a, const struct bpfrt_verdict *out)
{
	char file[PATH_MAX];
	int line;

	for (int i = 0; i < out->nr_frames; i++) {
		const char *base;

		if (!addr_line(out->frames[i], file, sizeof(file), &line) || line != a->line)
			continue;
		base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		if (!strcmp(base, a->file))
			return true;
	}
	return false;
}

/*
 * Whether the verifier meets the access @a before the run's own verdict @out: any verdict of a
 * run that accepted, crashed or broke a rule at its exit (a leak, a lock still held), any verdict
 * of an invocation after the first (@out->later_run), and a rule broken at a later line of the same
 * file (the verifier walks a branch's body before what follows it,
 * so source order is its order on one path); before a call with two types, the walk order
 * kfsim-bpf-cc found (@after_merge) when it found one.
 */
static bool access_comes_first(const struct kfsim_bpfrt_access *a, const struct bpfrt_verdict *out)
{
	char where[sizeof(out->where)];
	int line;

	if (!strcmp(out->verdict, "ACCEPT"))
		return true;
	if (!strcmp(out->verdict, "CRASH") || !strcmp(out->verdict, "SANITIZER"))
		return true; /* refused before any run: the crash is the refused access's doing */
	if (strcmp(out->verdict, "REJECT"))
		return false; /* a hang is reported as it is */
	if (out->later_run)
		return true; /* the verifier refuses the access before any run */
	if (bpfrt_exit_rule(out->msg))
		return true;
	if (a->after_merge && msg_starts(out->msg, BPFRT_MSG_SAME_CALL))
		return a->after_merge == 1; /* the verifier's walk order says it */
	if (a->refused && under_call_at(a, out))
		return true;
	/*
	 * in a callback: the verifier walks it after the path that does not call it (the call's
	 * own refusal, what follows the call), so only a rule broken later in the same callback
	 * comes after it
	 */
	if (a->cb_last)
		return verdict_line(out, where, sizeof(where), &line) && !strcmp(where, a->file) &&
		       line > a->line && line <= a->cb_last;
	if (!verdict_line(out, where, sizeof(where), &line))
		/*
		 * an explored path's fault with no line (the node's memory overwritten by the
		 * refused store itself, then a kfunc faults): what the types refuse comes first,
		 * an access past an object's end as well (found on every path that reaches it:
		 * fuzz seed 99001 met a load past the object before such a store)
		 */
		return a->refused != NULL || a->beyond != NULL;
	return !strcmp(where, a->file) && line > a->line;
}

/*
 * What the verifier refuses at a load or store on every path that reaches it, which a native run
 * does unnoticed (kfsim-bpf-cc found it in the BPF object): through a non-owning reference that a
 * bpf_spin_unlock() turned into a scalar, or an object given away by bpf_kptr_xchg() (@dead_ref:
 * "R%d invalid mem access 'scalar'"; natively the node is alive in its collection or the map),
 * or past the end of a bpf_obj_new() object (@beyond: btf_struct_walk()'s "access beyond struct S
 * at off N size M", 6.12 and 6.18), or what the object's types refuse on any path (@refused: a
 * store into a referenced __kptr field of a map value, a negative offset into an object, an
 * access over an object's special field, or past the end of the member it starts in).  The
 * first such access in instruction order that the verifier meets before the run's own verdict.
 */
static void access_beyond_verdict(const struct kfsim_bpfrt_prog *p, struct bpfrt_verdict *out)
{
	for (int i = 0; i < p->nr_accesses; i++) {
		const struct kfsim_bpfrt_access *a = &p->accesses[i];

		if ((!a->beyond && !a->dead_ref && !a->refused) || !access_comes_first(a, out))
			continue;
		snprintf(out->verdict, sizeof(out->verdict), "REJECT");
		if (a->dead_ref) /* check_mem_access() on the scalar, before any struct walk */
			snprintf(out->msg, sizeof(out->msg), "R%d invalid mem access 'scalar'",
				 a->reg);
		else if (a->refused) /* found in the object's types, whatever the path */
			snprintf(out->msg, sizeof(out->msg), "%s", a->refused);
		else
			snprintf(out->msg, sizeof(out->msg),
				 "access beyond struct %s at off %d size %d", a->beyond,
				 a->beyond_off, a->beyond_size);
		snprintf(out->where, sizeof(out->where), "%s:%d", a->file, a->line);
		out->has_retval = false;
		return;
	}
}

/*
 * "R%d invalid mem access '%s'": check_mem_access() names the register the load or store goes
 * through, for a dead reference ('scalar') as for an unchecked maybe-NULL result
 * ('ptr_or_null_'); it is the one of the BPF object's accesses at the faulting line, when they
 * all use one register.
 */
static void name_access_reg(const struct kfsim_bpfrt_prog *p, struct bpfrt_verdict *out)
{
	static const char *const unnamed[] = {"invalid mem access 'scalar'",
					      "invalid mem access 'ptr_or_null_'",
					      "invalid mem access 'map_value_or_null'",
					      "invalid mem access 'ringbuf_mem_or_null'"};
	char file[sizeof(out->where)], msg[sizeof(out->msg)];
	int line, reg = -1;
	bool named = false;

	for (size_t i = 0; i < sizeof(unnamed) / sizeof(unnamed[0]); i++)
		named |= !strcmp(out->msg, unnamed[i]);
	/* the run's own line, not a located frame: the accesses are the BPF object's */
	if (!named || !out->where[0] || !verdict_line(out, file, sizeof(file), &line))
		return;
	for (int i = 0; i < p->nr_accesses; i++) {
		const struct kfsim_bpfrt_access *a = &p->accesses[i];

		if (a->line != line || strcmp(a->file, file) || a->reg == KFSIM_BPFRT_CALL_REG)
			continue;
		if (reg >= 0 && a->reg != reg)
			return; /* two registers at the line: which one faulted is not known */
		reg = a->reg;
	}
	if (reg < 0)
		return;
	snprintf(msg, sizeof(msg), "%s", out->msg);
	snprintf(out->msg, sizeof(out->msg), "R%d %s", reg, msg);
}

/*
 * What the BPF object adds to a run's verdict: a merged call's types, an access beyond an object
 * met before the run's rule, the register of a faulting access.
 */
static void object_verdict(const struct kfsim_bpfrt_prog *p, struct bpfrt_verdict *out)
{
	merged_call_verdict(p, out);
	access_beyond_verdict(p, out);
	name_access_reg(p, out);
	/* checked once every instruction passed: only a program all else accepted meets it */
	if (p->refused_at_end && !strcmp(out->verdict, "ACCEPT")) {
		snprintf(out->verdict, sizeof(out->verdict), "REJECT");
		snprintf(out->msg, sizeof(out->msg), "%s", p->refused_at_end);
		out->where[0] = '\0';
		out->has_retval = false;
	}
}

/* The verifier prints every leaked reference, one line each: so does the verdict. */
static void leak_lines(const struct kfsim_bpf_run *run, char *msg, size_t size)
{
	size_t n = strlen(msg);
	int nr = run->nr_violations < KFSIM_BPF_RUN_MAX_REPORTS ? run->nr_violations
								: KFSIM_BPF_RUN_MAX_REPORTS;

	for (int i = 1; i < nr && n + 2 < size; i++) {
		if (!msg_starts(run->violations[i].msg, BPFRT_MSG_UNRELEASED))
			break;
		n += (size_t)snprintf(msg + n, size - n, "\n%s", run->violations[i].msg);
	}
}

/* ---- one program in a child process ---- */

static enum kfsim_bpf_prog_type prog_type(const char *section)
{
	const char *s = section[0] == '?' ? section + 1 : section;

	if (!strncmp(s, "kprobe", 6) || !strncmp(s, "kretprobe", 9) || !strncmp(s, "uprobe", 6))
		return KFSIM_BPF_PROG_KPROBE;
	if (!strncmp(s, "tracepoint", 10) || !strncmp(s, "tp/", 3))
		return KFSIM_BPF_PROG_TRACEPOINT;
	if (!strncmp(s, "perf_event", 10))
		return KFSIM_BPF_PROG_PERF_EVENT;
	if (!strncmp(s, "raw_tp", 6) || !strncmp(s, "raw_tracepoint", 14))
		return KFSIM_BPF_PROG_RAW_TRACEPOINT;
	if (!strncmp(s, "struct_ops", 10))
		return KFSIM_BPF_PROG_STRUCT_OPS;
	if (!strncmp(s, "socket", 6))
		return KFSIM_BPF_PROG_SOCKET_FILTER;
	/* libbpf's sections: cgroup/skb has no attach type, which is ingress's (0) */
	if (!strncmp(s, "cgroup_skb/egress", 17))
		return KFSIM_BPF_PROG_CGROUP_SKB_EGRESS;
	if (!strncmp(s, "cgroup_skb/ingress", 18) || !strcmp(s, "cgroup/skb"))
		return KFSIM_BPF_PROG_CGROUP_SKB_INGRESS;
	if (!strcmp(s, "cgroup/sock") || !strncmp(s, "cgroup/sock_", 12) ||
	    !strncmp(s, "cgroup/post_bind", 16))
		return KFSIM_BPF_PROG_CGROUP_SOCK;
	if (!strncmp(s, "sk_skb", 6))
		return KFSIM_BPF_PROG_SK_SKB;
	if (!strncmp(s, "sk_msg", 6))
		return KFSIM_BPF_PROG_SK_MSG;
	if (!strncmp(s, "lwt_", 4))
		return KFSIM_BPF_PROG_LWT;
	if (!strncmp(s, "flow_dissector", 14))
		return KFSIM_BPF_PROG_FLOW_DISSECTOR;
	return KFSIM_BPF_PROG_SCHED_CLS;
}

/*
 * Where the packet a program of @section sees starts in the referee's frame (bpfrt_test_pkt), as
 * the kernel's BPF_PROG_TEST_RUN gives it (bpf_prog_test_run_skb(), 6.18): eth_type_trans()
 * pulls the Ethernet header and only tc's types (is_l2: sched_cls, sched_act) push it back, so a
 * socket filter's, cgroup_skb's or lwt's packet starts at the IP header (ETH_HLEN, 14).
 * -1: no skb program type.
 */
int bpfrt_skb_pkt_offset(const char *section)
{
	static const char *const l2[] = { "tc", "classifier", "action" };
	static const char *const l3[] = { "socket",  "cgroup_skb/",	"cgroup/skb",  "lwt_",
					  "sk_skb",  "flow_dissector", "sk_reuseport" };
	const char *s = section && section[0] == '?' ? section + 1 : section;

	for (size_t i = 0; s && i < ARRAY_SIZE(l2); i++)
		if (!strncmp(s, l2[i], strlen(l2[i])))
			return 0;
	for (size_t i = 0; s && i < ARRAY_SIZE(l3); i++)
		if (!strncmp(s, l3[i], strlen(l3[i])))
			return 14; /* ETH_HLEN */
	return -1;
}

/*
 * An skb program's context as the kernel's BPF_PROG_TEST_RUN gives it for the referee's packet
 * (bpfrt_kernel.c: BPFRT_TEST_PKT_LEN bytes, an IPv4 ethertype): skb->len is the packet from
 * where the program type's starts (bpfrt_skb_pkt_offset(): the whole frame for tc, past the
 * Ethernet header for a socket filter) and skb->protocol the ethertype eth_type_trans() found,
 * in network order, and skb->ifindex the device the test run gives the packet
 * (bpf_prog_test_run_skb(): the namespace's loopback, LOOPBACK_IFINDEX 1).  Everything else
 * stays zero, as before.  Offsets are the UAPI struct __sk_buff's (len at 0, protocol at 16,
 * ifindex at 40), which never moves.
 */
static void skb_ctx_fill(const char *section, unsigned char *ctx)
{
	int pkt_off = bpfrt_skb_pkt_offset(section);
	u32 len = BPFRT_TEST_PKT_LEN - (u32)pkt_off;
	u32 protocol = htons(0x0800); /* ETH_P_IP */
	u32 ifindex = 1;		/* LOOPBACK_IFINDEX */

	if (pkt_off < 0)
		return;
	memcpy(ctx + 0, &len, sizeof(len));
	memcpy(ctx + 16, &protocol, sizeof(protocol));
	memcpy(ctx + 40, &ifindex, sizeof(ifindex));
}

struct call {
	const struct kfsim_bpfrt_prog *p;
	void *ctx;
};

static int call_prog(void *arg)
{
	struct call *c = arg;
	long (*fn)(void *) = (long (*)(void *))c->p->fn;

	int ret;

	bpfrt_may_goto_reset();
	bpfrt_iter_reset();
	bpfrt_ringbuf_reset();
	bpfrt_run_stack = __builtin_frame_address(0);
	ret = (int)fn(c->ctx);
	bpfrt_iter_exit(); /* the BPF_EXIT's rule for the iterators still held */
	bpfrt_ringbuf_exit(); /* and for the ring buffer records */
	if (verbose)
		bpfrt_ringbuf_print(); /* a consumer reads what the invocation committed */
	return ret;
}

/*
 * A sanitizer (ASan, UBSan) that stops the child reports first, then calls this: the outcome
 * is kfsim's first violation when there was one before, else SANITIZER.
 */
static struct kfsim_bpf_run *child_run;
static struct bpfrt_verdict *child_out;
static int child_fd = -1;
static bool in_explored_path;

const char *bpfrt_refused_call(const char *file, int line)
{
	const char *base = file ? basename((char *)file) : NULL;

	for (int i = 0; base && child_prog && i < child_prog->nr_accesses; i++) {
		const struct kfsim_bpfrt_access *a = &child_prog->accesses[i];

		if (a->reg == KFSIM_BPFRT_CALL_REG && a->refused && a->line == line &&
		    !strcmp(a->file, base))
			return a->refused;
	}
	return NULL;
}

bool bpfrt_object_refuses(const char *prefix)
{
	for (int i = 0; child_prog && i < child_prog->nr_accesses; i++) {
		const char *refused = child_prog->accesses[i].refused;

		if (refused && !strncmp(refused, prefix, strlen(prefix)))
			return true;
	}
	return false;
}

static void sanitizer_died(void)
{
	if (child_run && child_run->nr_violations) {
		snprintf(child_out->verdict, sizeof(child_out->verdict), "REJECT");
		snprintf(child_out->msg, sizeof(child_out->msg), "%s",
			 child_run->violations[0].msg);
	} else {
		snprintf(child_out->verdict, sizeof(child_out->verdict), "SANITIZER");
		snprintf(child_out->msg, sizeof(child_out->msg),
			 "a sanitizer stopped the run (its report is above)");
	}
	child_out->has_retval = false;
	/* what the types refuse before any run (a helper's buffer past the frame) comes first */
	if (child_prog && !in_explored_path)
		object_verdict(child_prog, child_out);
	/* on an explored path, the path ends here with this verdict (else this returns) */
	kfsim_bpf_explore_path_exit(KFSIM_BPF_PATH_VIOLATION);
	if (write(child_fd, child_out, sizeof(*child_out)) != sizeof(*child_out))
		_exit(4);
	_exit(0);
}

/* Each sanitizer runtime loaded (libasan, libubsan: each dies on its own) gets the callback. */
static int hook_sanitizer(struct dl_phdr_info *info, size_t size, void *data)
{
	void (*set_death_callback)(void (*)(void));
	void *lib;

	if (!strstr(info->dlpi_name, "libasan") && !strstr(info->dlpi_name, "libubsan"))
		return 0;
	lib = dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD);
	if (!lib)
		return 0;
	set_death_callback = (void (*)(void (*)(void)))dlsym(lib, "__sanitizer_set_death_callback");
	if (set_death_callback)
		set_death_callback(sanitizer_died);
	dlclose(lib);
	return 0;
}

/*
 * NR_RUNS runs on the sections as they are: the verdict into @out.  @resolve: name the
 * violation's line now (addr2line); else only its stack is kept, for the one path reported.
 */
/*
 * run_runs()'s invocation under way: a verdict of a later one comes from the state an earlier
 * one left (a plain store into a __kptr field of an object dropped since), which the verifier,
 * checking the program once before any run, never meets.
 */
static int run_index;

const unsigned char bpfrt_test_pkt[BPFRT_TEST_PKT_LEN] = {[12] = 0x08};
const void *bpfrt_run_ctx;
const char *bpfrt_run_section;
const void *bpfrt_run_stack;

static void run_runs(const struct kfsim_bpfrt_prog *p, struct bpfrt_verdict *out, bool resolve)
{
	static unsigned char ctx[4096] __attribute__((aligned(16)));
	int nr_reports = 0;
	struct kfsim_bpf_run_opts opts = {.prog_type = prog_type(p->section),
					  .report = report,
					  .report_arg = &nr_reports,
					  .alloc_insn = alloc_insn,
					  .alloc_insn_arg = (void *)p,
					  .call_insn = call_insn,
					  .call_types = call_types,
					  .non_owning_arg =
						  any_non_owning_arg(p) ? non_owning_arg : NULL,
					  .no_prog_btf = bpfrt_btf_refused()};
	struct call c = {p, ctx};
	static struct kfsim_bpf_run run;

	memset(out, 0, sizeof(*out));
	snprintf(out->verdict, sizeof(out->verdict), "ACCEPT");
	nr_frames = 0;
	child_run = &run;
	child_out = out;
	bpfrt_run_ctx = ctx;
	bpfrt_run_section = p->section;
	for (int i = 0; i < NR_RUNS; i++) {
		int ret = 0;

		run_index = i;
		bpfrt_global_call_site = NULL; /* a violation at an entry left it set */
		memset(ctx, 0, sizeof(ctx));
		skb_ctx_fill(p->section, ctx);
		kfsim_bpf_run(&run, p->name, call_prog, &c, &opts, &ret);
		if (i == 0 && !run.aborted) {
			out->has_retval = true;
			out->retval = ret;
		}
		if (run.nr_violations) {
			const struct kfsim_bpf_violation *v = &run.violations[0];

			snprintf(out->verdict, sizeof(out->verdict), "REJECT");
			snprintf(out->msg, sizeof(out->msg), "%s", v->msg);
			out->later_run = i > 0;
			if (msg_starts(v->msg, BPFRT_MSG_UNRELEASED))
				leak_lines(&run, out->msg, sizeof(out->msg));
			if (v->file)
				snprintf(out->where, sizeof(out->where), "%s:%d",
					 basename((char *)v->file), v->line);
			else if (resolve)
				locate(out->where, sizeof(out->where));
			out->nr_frames = nr_frames;
			memcpy(out->frames, frames, sizeof(out->frames));
			break;
		}
	}
}

/*
 * A load or store in a dropped object (kfsim_bpf_guard_dropped()) faults: the verifier's message
 * for a register that no longer holds a pointer, located from the stack; any other fault is left
 * to the default action (the runner reports CRASH).
 */
static struct sigaction prev_segv; /* a sanitizer's, the explorer's, or the default */
/* its exploration's report (NULL: none), which a fault of the natural run ends with too */
static const struct kfsim_bpf_explore_report *child_rep;

/*
 * The first rule broken wins: the verifier stops at the first violation on a path, so a fault
 * after a rule the run already broke (the guard of an object the broken rule let through) is
 * that rule's report, not the fault's.
 */
static void first_violation(struct bpfrt_verdict *out)
{
	const struct kfsim_bpf_violation *v = &child_run->violations[0];

	snprintf(out->verdict, sizeof(out->verdict), "REJECT");
	snprintf(out->msg, sizeof(out->msg), "%s", v->msg);
	if (msg_starts(v->msg, BPFRT_MSG_UNRELEASED))
		leak_lines(child_run, out->msg, sizeof(out->msg));
	out->where[0] = '\0';
	if (v->file)
		snprintf(out->where, sizeof(out->where), "%s:%d", basename((char *)v->file),
			 v->line);
	else if (!in_explored_path) /* a path's frames are named for the path reported */
		locate(out->where, sizeof(out->where));
	out->nr_frames = nr_frames;
	memcpy(out->frames, frames, sizeof(out->frames));
}

/*
 * locate() names the call before each return address (address - 1); the interrupted frame's
 * address is the faulting instruction itself, whose line is the access's.
 */
static void faulting_frame(void *uc)
{
#ifdef REG_RIP
	const char *pc = (const char *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];

	for (int i = 0; i < nr_frames; i++)
		if (frames[i] == pc)
			frames[i] = (void *)(pc + 1);
#else
	(void)uc;
#endif
}

static void dead_ref_fault(int sig, siginfo_t *si, void *uc)
{
	bool broke = child_run && child_run->nr_violations;

	/*
	 * A fault after a rule broken already (a NULL result's member read after an unlock
	 * without a lock): the verifier stopped at that rule, whatever the address.  Else a
	 * dropped object's page is the dead reference; anything else (a NULL result's member) is
	 * the previous handler's (the explorer's, or the crash).
	 */
	if (!broke && (!kfsim_bpf_dropped_object(si->si_addr) || in_explored_path)) {
		sigaction(sig, &prev_segv, NULL);
		return; /* the access faults again, for the previous handler */
	}
	child_out->has_retval = false;
	child_out->later_run = run_index > 0;
	if (broke) {
		first_violation(child_out);
		/* on an explored path, the path ends here with this verdict (else this returns) */
		kfsim_bpf_explore_path_exit(KFSIM_BPF_PATH_VIOLATION);
	} else {
		snprintf(child_out->verdict, sizeof(child_out->verdict), "REJECT");
		snprintf(child_out->msg, sizeof(child_out->msg), "invalid mem access 'scalar'");
		nr_frames = backtrace(frames, MAX_FRAMES);
		faulting_frame(uc);
		child_out->where[0] = '\0';
		locate(child_out->where, sizeof(child_out->where));
	}
	if (child_prog && child_rep && !in_explored_path) /* as child() would have */
		bpfrt_explore_verdict(child_prog, obj->source, child_rep, child_out);
	if (child_prog) /* the natural run's fault ends the child here: child()'s last step */
		object_verdict(child_prog, child_out);
	if (write(child_fd, child_out, sizeof(*child_out)) != sizeof(*child_out))
		_exit(4);
	_exit(0);
}

/* @explored: in a path of the exploration (its faults are the explorer's unless a rule broke). */
static void catch_dead_ref_faults(bool explored)
{
	struct sigaction sa = {.sa_sigaction = dead_ref_fault, .sa_flags = SA_SIGINFO}, cur;

	in_explored_path = explored;
	if (sigaction(SIGSEGV, NULL, &cur) || cur.sa_sigaction != dead_ref_fault)
		sigaction(SIGSEGV, &sa, &prev_segv); /* once: the previous one is never this one */
}

/* One path of the exploration (kfsim_bpf_explore_path_fn): the runs, their verdict. */
static int run_path(void *arg, void *result)
{
	struct bpfrt_verdict *v = result;

	/* the program's own output (bpf_trace_printk) is the natural run's, printed once */
	FILE *quiet = freopen("/dev/null", "w", stdout); /* NULL: shown twice, nothing worse */

	(void)quiet;
	catch_dead_ref_faults(true);
	run_runs(arg, v, false);
	if (strcmp(v->verdict, "REJECT"))
		return KFSIM_BPF_PATH_CLEAN;
	return KFSIM_BPF_PATH_VIOLATION | (bpfrt_exit_rule(v->msg) ? KFSIM_BPF_PATH_AT_EXIT : 0);
}

/*
 * The child: fresh sections and maps; the paths explored from them (each in its own process,
 * bpfrt_explore.c), then the natural run, NR_RUNS invocations; its verdict written to @fd.
 */
static int child(void *arg, int fd)
{
	const struct kfsim_bpfrt_prog *p = arg;
	static struct bpfrt_verdict out;
	struct kfsim_bpf_explore_opts eopts = {
		.max_paths = bpfrt_explore_cfg.max_paths,
		.max_flips = bpfrt_explore_cfg.max_flips,
		.timeout_ms = bpfrt_explore_cfg.timeout_ms,
		.result_size = sizeof(struct bpfrt_verdict),
		.stop_at_violation = !bpfrt_explore_cfg.svg, /* a picture shows every path */
	};
	struct kfsim_bpf_explore_report rep = {.first = -1};
	int err = -1;

	child_fd = fd;
	child_prog = p;
	bpfrt_catch_divide_faults(); /* the explored paths' processes inherit it */
	dl_iterate_phdr(hook_sanitizer, NULL);
	if (bpfrt_sections_init(obj) || bpfrt_maps_init(obj)) {
		fprintf(stderr, "%s: out of memory setting up the sections\n", p->name);
		return 3;
	}
	if (bpfrt_ringbuf_init(obj)) { /* a size the kernel refuses says so itself */
		fprintf(stderr, "%s: cannot set up the ring buffers\n", p->name);
		return 3;
	}
	line_cache_init();
	call_types = call_types_init();
	if (bpfrt_explore_cfg.on)
		err = kfsim_bpf_explore(run_path, (void *)p, &eopts, &rep);
	kfsim_bpf_explore_set(NULL, NULL);
	child_rep = err ? NULL : &rep;
	if (!err && bpfrt_explore_cfg.svg && bpfrt_paths_svg(p->name, obj->source, &rep))
		fprintf(stderr, "%s: cannot write the picture of the explored paths\n", p->name);
	if (!err && rep.nr_paths && rep.paths[0].end == KFSIM_BPF_PATH_NULL_DEREF) {
		/*
		 * the natural run itself loads through a NULL result: said without crashing (the
		 * verdict is that path's, or one the verifier walks before it: a may_goto's jump)
		 */
		memset(&out, 0, sizeof(out));
		snprintf(out.verdict, sizeof(out.verdict), "ACCEPT");
	} else if (!err && rep.nr_paths && rep.paths[0].end == KFSIM_BPF_PATH_CRASH) {
		/*
		 * the natural path crashed when explored (a write into a node's memory, which the
		 * verifier refuses before any run): said without crashing, for the BPF object's
		 * refusals below to decide
		 */
		memset(&out, 0, sizeof(out));
		snprintf(out.verdict, sizeof(out.verdict), "CRASH");
		snprintf(out.msg, sizeof(out.msg), "signal %d", rep.paths[0].signal);
	} else {
		catch_dead_ref_faults(false);
		run_runs(p, &out, true);
	}
	if (!err)
		bpfrt_explore_verdict(p, obj->source, &rep, &out);
	object_verdict(p, &out);
	kfsim_bpf_explore_release(&rep);
	return write(fd, &out, sizeof(out)) == sizeof(out) ? 0 : 4;
}

/*
 * HANG at the time limit, CRASH on a signal, EXIT n on an exit status, else the child's verdict.
 * The limit is CPU time (the child's and its explored paths', which it waits for): on a machine
 * shared by many jobs (a load average of 20 on two CPUs) a run of one second's CPU passed five
 * seconds of wall-clock limit, and such false HANGs were seen in the fuzz runs of 2026-12-07.
 * Wall-clock time, WALL_PER_CPU times the limit, only stops a child that waits without using
 * the CPU.  A run that reached a limit is run once more with twice the limits before it is
 * called HANG (the wall clock's, on a machine loaded past WALL_PER_CPU runnable jobs a CPU).
 */
#define WALL_PER_CPU 10

static void run_native(const struct kfsim_bpfrt_prog *p, struct bpfrt_verdict *out)
{
	unsigned int limit_ms = timeout_s * 1000;

	for (int attempt = 0;; attempt++) {
		struct kfsim_child c = {
			.cpu_timeout_ms = limit_ms,
			.timeout_ms = limit_ms <= UINT_MAX / WALL_PER_CPU ? limit_ms * WALL_PER_CPU
									 : UINT_MAX,
		};
		char end[16] = "";
		int err = kfsim_child_run(&c, child, (void *)p);
		bool hung = !err && !strcmp(kfsim_child_end(&c, end, sizeof(end)), "HANG");

		if (hung && !attempt && limit_ms <= UINT_MAX / 2) {
			kfsim_child_release(&c);
			limit_ms *= 2;
			continue;
		}
		kfsim_child_result_copy(&c, out, sizeof(*out));
		if (err || end[0])
			snprintf(out->verdict, sizeof(out->verdict), "%s", err ? "ERROR" : end);
		kfsim_child_release(&c);
		return;
	}
}

/* ---- the report ---- */

static void print_line(const char *label, const char *msg)
{
	printf("        %-8s", label);
	for (const char *p = msg; *p; p++)
		if (*p == '\n')
			fputs(" / ", stdout);
		else
			putchar(*p);
	putchar('\n');
}

static const char *const result_name[] = {"PASS", "STATIC", "FAIL", "RAN"};

static void usage(FILE *f, const char *argv0)
{
	fprintf(f,
		"Usage: %s [--kver X.Y] [--kernel] [--timeout S] [--explore on|off] [--paths N]\n"
		"       [--flips N] [--paths-svg FILE] [-v] [--list] [NAME...]\n\n"
		"Run the SEC() programs of %s natively under kfsim, each in a child process,\n"
		"and check them against their __failure/__msg/__success/__retval annotations.\n"
		"  --kver X.Y   kernel release whose rules kfsim follows (default 6.16)\n"
		"  --kernel     also load each program in the running kernel (root) and print the\n"
		"               verifier's verdict beside kfsim's; it is the referee of programs\n"
		"               without annotations\n"
		"  --timeout S  seconds of CPU time a program may use (default 10; the explored\n"
		"               paths have half of it on the clock)\n"
		"  --explore on|off  run both outcomes of every maybe-NULL result and insert's\n"
		"               return before the natural run (default on)\n"
		"  --paths N    explore at most N paths, the natural one included (default 64)\n"
		"  --flips N    take the other outcome at most N times per path (default 2)\n"
		"  --paths-svg FILE  draw each program's explored paths (FILE-PROG.svg for several)\n"
		"  -v           print kfsim's own reports as they happen\n"
		"  --list       list the programs and their annotations, run nothing\n",
		argv0, obj->source);
}

static int parse_count(const char *argv0, const char *opt, const char *arg, unsigned int min,
		       unsigned int max, unsigned int *out)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (!*arg || *end || arg[0] == '-' || v < min || v > max) {
		fprintf(stderr, "%s: %s takes a number from %u to %u\n", argv0, opt, min, max);
		return 2;
	}
	*out = (unsigned int)v;
	return 0;
}

static bool selected(const struct kfsim_bpfrt_prog *p, int argc, char **argv, int first)
{
	if (first >= argc)
		return true;
	for (int i = first; i < argc; i++)
		if (!strcmp(argv[i], p->name))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	unsigned int counts[4] = {0}, code, nr = 0;
	const char *kver = "6.16";
	bool kernel = false, list = false;
	int first = argc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--kver") && i + 1 < argc) {
			kver = argv[++i];
		} else if (!strcmp(argv[i], "--kernel")) {
			kernel = true;
		} else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) {
			timeout_s = (unsigned int)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--explore") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "on") && strcmp(argv[i], "off")) {
				fprintf(stderr, "%s: --explore takes on or off\n", argv[0]);
				return 2;
			}
			bpfrt_explore_cfg.on = !strcmp(argv[i], "on");
		} else if (!strcmp(argv[i], "--paths") && i + 1 < argc) {
			if (parse_count(argv[0], "--paths", argv[++i], 1, KFSIM_BPF_EXPLORE_MAX_PATHS,
					&bpfrt_explore_cfg.max_paths))
				return 2;
		} else if (!strcmp(argv[i], "--flips") && i + 1 < argc) {
			if (parse_count(argv[0], "--flips", argv[++i], 0, 8,
					&bpfrt_explore_cfg.max_flips))
				return 2;
		} else if (!strcmp(argv[i], "--paths-svg") && i + 1 < argc) {
			bpfrt_explore_cfg.svg = argv[++i];
		} else if (!strcmp(argv[i], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--list")) {
			list = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout, argv[0]);
			return 0;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "%s: unknown option %s (try --help)\n", argv[0], argv[i]);
			return 2;
		} else {
			first = i;
			break;
		}
	}
	if (!timeout_s || timeout_s > UINT_MAX / 1000) {
		fprintf(stderr, "%s: bad timeout (1 to %u seconds)\n", argv[0], UINT_MAX / 1000);
		return 2;
	}
	bpfrt_explore_cfg.timeout_ms = timeout_s * 500;
	bpfrt_explore_cfg.svg_per_prog = (first < argc ? (unsigned int)(argc - first) : obj->nr_progs) > 1;
	if (kfsim_kver_parse(kver, &code)) {
		fprintf(stderr, "%s: bad kernel version\n", argv[0]);
		return 2;
	}
	for (int i = first; i < argc; i++) {
		bool found = false;

		for (unsigned int j = 0; j < obj->nr_progs; j++)
			found |= !strcmp(obj->progs[j].name, argv[i]);
		if (!found) {
			fprintf(stderr, "%s: no program %s in %s\n", argv[0], argv[i], obj->source);
			return 2;
		}
	}
	kfsim_set_kernel_version(code);
	kfsim_bpf_guard_dropped(true); /* loads through dropped references fault */
	if (!verbose)
		kfsim_console_loglevel_set(0);
	printf("%s: %u programs; kfsim rules of %s%s\n", obj->name, obj->nr_progs, kver,
	       kernel ? "; kernel: the running kernel's verifier" : "");
	for (unsigned int i = 0; i < obj->nr_progs; i++) {
		const struct kfsim_bpfrt_prog *p = &obj->progs[i];
		struct bpfrt_verdict native, kv;
		enum bpfrt_result r;
		const char *why;

		if (!selected(p, argc, argv, first))
			continue;
		if (list) {
			printf("%-48s SEC(\"%s\") %s", p->name, p->section,
			       p->expect > 0   ? "__success"
			       : p->expect < 0 ? "__failure"
					       : "-");
			for (const char *const *m = p->msgs; *m; m++)
				printf(" __msg(\"%s\")", *m);
			if (p->has_retval)
				printf(" __retval(%lld)", p->retval);
			putchar('\n');
			continue;
		}
		run_native(p, &native);
		if (kernel)
			bpfrt_kernel_verdict(obj, p, &kv);
		r = bpfrt_judge(p, &native, kernel && strcmp(kv.verdict, "SKIP") ? &kv : NULL,
				&why);
		counts[r]++;
		nr++;
		printf("%-6s  %-48s kfsim %-6s", result_name[r], p->name, native.verdict);
		if (kernel)
			printf("  kernel %-6s", kv.verdict);
		putchar('\n');
		if (native.msg[0])
			print_line("kfsim:", native.msg);
		if (native.where[0])
			print_line("at:", native.where);
		if (native.path[0])
			print_line("path:", native.path);
		if (native.explored[0] && (verbose || native.path[0] || strstr(native.explored, "reached")))
			print_line("explored:", native.explored);
		if (native.has_retval && !native.msg[0])
			printf("        %-8s%lld\n", "retval:", native.retval);
		if (kernel && kv.msg[0])
			print_line("kernel:", kv.msg);
		if (kernel && kv.has_retval)
			printf("        %-8s%lld (the kernel's test run)\n", "retval:", kv.retval);
		if (p->expect) {
			char expect[BPFRT_MSG] = "";
			size_t n = 0;

			n += (size_t)snprintf(expect, sizeof(expect), "%s",
					      p->expect > 0 ? "__success" : "__failure");
			for (const char *const *m = p->msgs; *m && n < sizeof(expect); m++)
				n += (size_t)snprintf(expect + n, sizeof(expect) - n,
						      " __msg(\"%s\")", *m);
			if (p->has_retval && n < sizeof(expect))
				snprintf(expect + n, sizeof(expect) - n, " __retval(%lld)",
					 p->retval);
			print_line("expect:", expect);
		}
		if (r == BPFRT_STATIC)
			print_line("rule:", why);
		else if (why[0] && r != BPFRT_PASS)
			print_line("why:", why);
	}
	if (list)
		return 0;
	printf("%s: %u programs run: %u agree, %u static-only, %u disagree, %u without a "
	       "referee\n",
	       obj->name, nr, counts[BPFRT_PASS], counts[BPFRT_STATIC], counts[BPFRT_FAIL],
	       counts[BPFRT_RAN]);
	return counts[BPFRT_FAIL] ? 1 : 0;
}
