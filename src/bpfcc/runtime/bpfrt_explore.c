// SPDX-License-Identifier: MIT
/*
 * The runner's exploring mode (on by default): each program is explored with kfsim_bpf_explore()
 * before its natural run, so that its verdict does not depend on the data the run happened to
 * see.  The natural run keeps the last word when it breaks a rule (its message, its return
 * value); otherwise the first path, in the explorer's fixed order, that broke a rule gives the
 * verdict, with the path (which results were NULL, fabricated or -EINVAL, at which lines).
 * Also: the budget line of the report, and the picture of the explored paths (--paths-svg).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfsim/bpf_explore.h>
#include <kfsim/graphviz.h>
#include "bpfrt.h"

struct bpfrt_explore_cfg bpfrt_explore_cfg = {
	.on = true,
	.max_paths = 64,
	.max_flips = 2,
};

static int exe_base(struct dl_phdr_info *info, size_t size, void *data)
{
	*(uintptr_t *)data = info->dlpi_addr;
	return 1; /* the first object is the program itself */
}

/*
 * Name each step's call site: the innermost frame inside the program's own source directory,
 * "file:line", found by one addr2line run over every frame of the program's executable.
 */
struct step_site {
	const struct kfsim_bpf_explore_step *step;
	char where[64];
};

static void name_sites(const char *source, struct step_site *sites, unsigned int nr)
{
	char exe[PATH_MAX], tmp[] = "/tmp/kfsim-explore-XXXXXX", cmd[2 * PATH_MAX];
	char line[PATH_MAX + 32];
	uintptr_t base = 0;
	unsigned int s = 0, f = 0;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *addrs, *p;
	int fd;

	if (len <= 0)
		return;
	exe[len] = '\0';
	dl_iterate_phdr(exe_base, &base);
	fd = mkstemp(tmp);
	if (fd < 0)
		return;
	addrs = fdopen(fd, "w");
	if (!addrs) {
		close(fd);
		unlink(tmp);
		return;
	}
	for (unsigned int i = 0; i < nr; i++)
		for (int j = 0; j < sites[i].step->nr_frames; j++) {
			/* every frame, in order: "??" for those outside the program */
			Dl_info info;
			void *pc = sites[i].step->frames[j];
			bool mine = dladdr(pc, &info) && (uintptr_t)info.dli_fbase == base;

			fprintf(addrs, "%#lx\n", mine ? (unsigned long)((uintptr_t)pc - base - 1) : 0ul);
		}
	fclose(addrs);
	snprintf(cmd, sizeof(cmd), "addr2line -e '%s' < '%s' 2>/dev/null", exe, tmp);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p) && s < nr) {
		char *disc = strstr(line, " (discriminator");

		line[strcspn(line, "\n")] = '\0';
		if (disc)
			*disc = '\0';
		if (!sites[s].where[0] && bpfrt_in_source_dir(source, line) && !strstr(line, ":?"))
			snprintf(sites[s].where, sizeof(sites[s].where), "%s", basename(line));
		if (++f >= (unsigned int)sites[s].step->nr_frames) {
			f = 0;
			s++;
		}
	}
	if (p)
		pclose(p);
	unlink(tmp);
}

static const char *outcome(const struct kfsim_bpf_explore_step *st)
{
	bool gave = st->natural != st->flipped;

	switch (kfsim_bpf_explore_decides(st)) {
	case KFSIM_BPF_DECIDES_JUMP:	/* bpfrt_may_goto.c: its jump is the other outcome */
		return gave ? "the fall-through" : "the jump (the loop's budget spent)";
	case KFSIM_BPF_DECIDES_INT:
		return gave ? "0" : "-EINVAL";
	case KFSIM_BPF_DECIDES_NEXT: /* bpfrt_iter.c */
		return gave ? "an element" : "NULL (the loop's end)";
	case KFSIM_BPF_DECIDES_CALLBACK: /* bpfrt_callbacks.c */
		if (st->fabricated)
			return "a call of the callback the run did not make";
		return gave ? "a call of the callback" : "no more calls (the loop's end)";
	case KFSIM_BPF_DECIDES_POINTER:
		break;
	}
	if (st->fabricated)
		return "a fabricated object";
	return gave ? "a pointer" : "NULL";
}

static unsigned int kept(const struct kfsim_bpf_explore_path *path)
{
	return path->nr_steps < KFSIM_BPF_EXPLORE_MAX_STEPS ? path->nr_steps
							    : KFSIM_BPF_EXPLORE_MAX_STEPS;
}

/*
 * The verifier's type of the NULL @path loaded through, from the decisions that gave one: when
 * every such NULL came from a map lookup, a PTR_TO_MAP_VALUE_OR_NULL ('map_value_or_null', 6.12
 * and 6.18); from an iterator's next(), 'scalar' (below); an object's (bpf_obj_new(), a
 * pop, ...) is 'ptr_or_null_'.
 */
static const char *null_type(const struct kfsim_bpf_explore_path *path)
{
	unsigned int nr = kept(path), lookups = 0, nexts = 0, rings = 0, others = 0;

	for (unsigned int i = 0; i < nr; i++) {
		const struct kfsim_bpf_explore_step *st = &path->steps[i];
		enum kfsim_bpf_explore_outcome k = kfsim_bpf_explore_decides(st);

		if ((k != KFSIM_BPF_DECIDES_POINTER && k != KFSIM_BPF_DECIDES_NEXT) ||
		    st->fabricated || st->natural != st->flipped)
			continue;
		if (k == KFSIM_BPF_DECIDES_NEXT)
			nexts++;
		else if (!strcmp(st->kfunc, "bpf_map_lookup_elem") ||
			 !strcmp(st->kfunc, "bpf_map_lookup_percpu_elem"))
			lookups++;
		else if (!strcmp(st->kfunc, "bpf_ringbuf_reserve"))
			rings++; /* RET_PTR_TO_RINGBUF_MEM_OR_NULL: 'ringbuf_mem_or_null' */
		else
			others++;
	}
	if (others || (lookups && nexts) || (rings && (lookups || nexts)))
		return "ptr_or_null_";
	if (rings)
		return "ringbuf_mem_or_null";
	/*
	 * next()'s NULL is no maybe-NULL pointer: the path where the iterator is drained has R0
	 * the known 0 (process_iter_next_call(), __mark_reg_const_zero()), and the verifier walks
	 * it first, so a load through an unchecked next() is "R0 invalid mem access 'scalar'"
	 * (measured on the running 6.18.44)
	 */
	return nexts ? "scalar" : lookups ? "map_value_or_null" : "ptr_or_null_";
}

/* "bpf_rbtree_first gave a fabricated object (rbtree_fail.c:123); ..." for the flipped steps. */
static void describe_path(const char *source, const struct kfsim_bpf_explore_path *path,
			  char *out, size_t size)
{
	struct step_site sites[KFSIM_BPF_EXPLORE_MAX_STEPS] = {0};
	unsigned int nr = kept(path);
	size_t n = 0;

	for (unsigned int i = 0; i < nr; i++)
		sites[i].step = &path->steps[i];
	name_sites(source, sites, nr);
	out[0] = '\0';
	for (unsigned int i = 0; i < nr && n < size; i++) {
		const struct kfsim_bpf_explore_step *st = &path->steps[i];

		if (!st->flipped)
			continue;
		n += (size_t)snprintf(out + n, size - n, "%s%s gave %s%s%s%s", n ? "; " : "",
				      st->kfunc, outcome(st), sites[i].where[0] ? " (" : "",
				      sites[i].where, sites[i].where[0] ? ")" : "");
	}
	if (n < size)
		snprintf(out + n, size - n, "%s%u decision point%s in all, the others as the run gave them",
			 n ? "; " : "", path->nr_steps, path->nr_steps == 1 ? "" : "s");
}

static void budget_line(const struct kfsim_bpf_explore_report *rep, char *out, size_t size)
{
	snprintf(out, size,
		 "%u path%s (budget: %u paths, %u other outcome%s per path, %u s)%s%s",
		 rep->nr_paths, rep->nr_paths == 1 ? "" : "s", bpfrt_explore_cfg.max_paths,
		 bpfrt_explore_cfg.max_flips, bpfrt_explore_cfg.max_flips == 1 ? "" : "s",
		 bpfrt_explore_cfg.timeout_ms / 1000,
		 rep->paths_spent ? "; path budget reached" : "",
		 rep->time_spent ? "; time budget reached" : "");
}

/*
 * The explored paths as a tree: a box per decision point, named by the outcomes that lead to it
 * ("d" then one digit per decision: 1 a pointer or 0, 0 NULL or -EINVAL), so that the paths'
 * common prefixes are one branch; an ellipse per path's end.  At most SVG_MAX_PATHS are drawn.
 */
#define SVG_MAX_PATHS 256

static bool drawn(char (*keys)[KFSIM_BPF_EXPLORE_MAX_STEPS + 2], unsigned int nr, const char *key)
{
	for (unsigned int i = 0; i < nr; i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

static void write_dot(FILE *f, const char *name, const char *source,
		      const struct kfsim_bpf_explore_report *rep)
{
	static const char *const end[] = {"clean", "rule broken", "NULL dereference", "crash",
					  "hang", "dead reference"};
	unsigned int nr_paths = rep->nr_paths < SVG_MAX_PATHS ? rep->nr_paths : SVG_MAX_PATHS;
	unsigned int total = 0, s = 0, nr_keys = 0;
	char (*keys)[KFSIM_BPF_EXPLORE_MAX_STEPS + 2];
	struct step_site *sites;

	for (unsigned int i = 0; i < nr_paths; i++)
		total += kept(&rep->paths[i]);
	sites = calloc(total + 1, sizeof(*sites));
	keys = calloc(total + 1, sizeof(*keys));
	if (!sites || !keys)
		goto out;
	for (unsigned int i = 0; i < nr_paths; i++)
		for (unsigned int j = 0; j < kept(&rep->paths[i]); j++)
			sites[s++].step = &rep->paths[i].steps[j];
	name_sites(source, sites, total);
	fprintf(f, "digraph paths {\n  node [fontname=\"sans-serif\" fontsize=10];\n"
		   "  edge [fontname=\"sans-serif\" fontsize=9];\n"
		   "  start [shape=plaintext label=\"%s: %u path%s\"];\n  start -> d;\n",
		name, rep->nr_paths, rep->nr_paths == 1 ? "" : "s");
	s = 0;
	for (unsigned int i = 0; i < nr_paths; i++) {
		const struct kfsim_bpf_explore_path *path = &rep->paths[i];
		char key[KFSIM_BPF_EXPLORE_MAX_STEPS + 2] = "d";

		for (unsigned int j = 0; j < kept(path); j++, s++) {
			const struct kfsim_bpf_explore_step *st = &path->steps[j];
			bool first = !drawn(keys, nr_keys, key);

			if (first) {
				snprintf(keys[nr_keys++], sizeof(keys[0]), "%s", key);
				fprintf(f, "  %s [shape=box label=\"%s\\n%s\"];\n", key, st->kfunc,
					sites[s].where);
			}
			key[j + 1] = st->natural != st->flipped ? '1' : '0';
			key[j + 2] = '\0';
			if (!drawn(keys, nr_keys, key))
				fprintf(f, "  %.*s -> %s [label=\"%s\"%s];\n", (int)j + 1, key, key,
					outcome(st),
					st->flipped ? " color=\"#c0392b\" fontcolor=\"#c0392b\"" : "");
		}
		/* a path's end is the node its outcomes lead to */
		fprintf(f, "  %s [shape=ellipse label=\"path %u\\n%s\"%s];\n", key, i,
			end[path->end >= 0 && path->end < 6 ? path->end : 3],
			path->end ? " style=filled fillcolor=\"#f5b7b1\"" : "");
		if (!drawn(keys, nr_keys, key))
			snprintf(keys[nr_keys++], sizeof(keys[0]), "%s", key);
	}
	fputs("}\n", f);
out:
	free(keys);
	free(sites);
}

int bpfrt_paths_svg(const char *name, const char *source,
		    const struct kfsim_bpf_explore_report *rep)
{
	char dot[] = "/tmp/kfsim-paths-XXXXXX", path[PATH_MAX];
	int fd = mkstemp(dot), err;
	FILE *f;

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(dot);
		return -1;
	}
	write_dot(f, name, source, rep);
	fclose(f);
	/* one picture per program: FILE.svg becomes FILE-PROG.svg when several programs run */
	snprintf(path, sizeof(path), "%s", bpfrt_explore_cfg.svg);
	if (bpfrt_explore_cfg.svg_per_prog) {
		size_t len = strlen(path);

		if (len > 4 && !strcmp(path + len - 4, ".svg"))
			len -= 4;
		snprintf(path + len, sizeof(path) - len, "-%s.svg", name);
	}
	err = kfsim_dot_file_to_svg(dot, path, "kfsim-bpf");
	unlink(dot);
	return err;
}

bool bpfrt_exit_rule(const char *msg)
{
	static const char *const exit_rules[] = {
		"Unreleased reference", "BPF_EXIT instruction", "bpf_spin_unlock is missing",
		"bpf_rcu_read_unlock is missing",
		"At program exit the register", /* check_return_code(), after the resources */
	};

	for (size_t i = 0; i < sizeof(exit_rules) / sizeof(exit_rules[0]); i++)
		if (!strncmp(msg, exit_rules[i], strlen(exit_rules[i])))
			return true;
	/* 6.10 to 6.13: "N bpf_preempt_enable is missing" / "N bpf_preempt_enable(s) are missing" */
	return strstr(msg, " bpf_preempt_enable is missing") ||
	       strstr(msg, " bpf_preempt_enable(s) are missing");
}

/*
 * The source line of a path's faulting access (the explorer kept the instruction; locate()
 * names the call before a return address, so one byte on), for the register the verifier's
 * message names; empty when not known.
 */
static void fault_line(const struct kfsim_bpf_explore_path *path, char *where, size_t size)
{
	void *at;

	where[0] = '\0';
	if (!path->fault_pc)
		return;
	at = (char *)path->fault_pc + 1;
	bpfrt_locate(&at, 1, where, size);
}

void bpfrt_explore_verdict(const struct kfsim_bpfrt_prog *p, const char *source,
			   const struct kfsim_bpf_explore_report *rep, struct bpfrt_verdict *out)
{
	const struct kfsim_bpf_explore_path *path;

	budget_line(rep, out->explored, sizeof(out->explored));
	if (rep->first < 0)
		return; /* every path is clean */
	path = &rep->paths[rep->first];
	/* the natural run has the last word, unless it broke only an exit rule and a path broke
	 * one before its exit (the verifier meets that first), or the verifier walks the path
	 * before the natural one (a may_goto's jump: a can_loop loop that ends before a pass) */
	if (!strcmp(out->verdict, "REJECT") && !rep->first_walked_first &&
	    (!bpfrt_exit_rule(out->msg) || path->at_exit))
		return;
	if (strcmp(out->verdict, "ACCEPT") && strcmp(out->verdict, "CRASH") &&
	    strcmp(out->verdict, "REJECT"))
		return; /* the natural run did not finish: that is what the report says */
	if (rep->first == 0 && path->end != KFSIM_BPF_PATH_NULL_DEREF &&
	    path->end != KFSIM_BPF_PATH_DEAD_REF)
		return; /* the natural path itself: the natural run says it */
	switch (path->end) {
	case KFSIM_BPF_PATH_VIOLATION: {
		const struct bpfrt_verdict *v = rep->result;

		snprintf(out->verdict, sizeof(out->verdict), "%s", v->verdict);
		snprintf(out->msg, sizeof(out->msg), "%s", v->msg);
		snprintf(out->where, sizeof(out->where), "%s", v->where);
		if (!v->where[0] && v->nr_frames)
			bpfrt_locate(v->frames, v->nr_frames, out->where, sizeof(out->where));
		break;
	}
	case KFSIM_BPF_PATH_NULL_DEREF:
		/* check_mem_access() on a PTR_TO_..._OR_NULL register, named by its type */
		snprintf(out->verdict, sizeof(out->verdict), "REJECT");
		snprintf(out->msg, sizeof(out->msg), "invalid mem access '%s'", null_type(path));
		fault_line(path, out->where, sizeof(out->where));
		break;
	case KFSIM_BPF_PATH_DEAD_REF:
		/* a load or store through a reference the drop turned into a scalar */
		snprintf(out->verdict, sizeof(out->verdict), "REJECT");
		snprintf(out->msg, sizeof(out->msg), "invalid mem access 'scalar'");
		fault_line(path, out->where, sizeof(out->where));
		break;
	case KFSIM_BPF_PATH_HANG:
		snprintf(out->verdict, sizeof(out->verdict), "HANG");
		out->msg[0] = '\0';
		break;
	default:
		snprintf(out->verdict, sizeof(out->verdict), "CRASH");
		snprintf(out->msg, sizeof(out->msg), "signal %d on an explored path", path->signal);
		break;
	}
	describe_path(source, path, out->path, sizeof(out->path));
	(void)p;
}
