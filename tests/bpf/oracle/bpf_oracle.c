// SPDX-License-Identifier: MIT
/*
 * The BPF part's oracle: kfsim's versions of the kernel's graph selftest programs against the
 * running kernel's verifier.
 *
 *	bpf_oracle --kernel kernel.tsv [--kver 6.16]	compare, print the table, exit 1 on any
 *							disagreement not in differences[]
 *	bpf_oracle [--kver 6.16]			print kfsim's verdicts only
 *
 * kernel.tsv is what bpf_oracle_load printed: object, program, ACCEPT|REJECT, message.  Each
 * kfsim program runs in a child process (its object's sections fresh, the program run twice in a
 * row on them, as a loaded program runs again on its maps) with a time limit, so a misuse that
 * hangs or crashes shows as HANG/CRASH instead of stopping the test, and a sanitizer report
 * (non-zero exit of the child) fails it.
 *
 * Agreement: the same verdict; for a rejection kfsim's first message is part of the kernel's
 * (reference ids and instruction numbers, which depend on the compiler, read as N); for an
 * accepted tc program that the kernel ran once (BPF_PROG_TEST_RUN), the same return value.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfsim/bpf_explore.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>
#include "core/child_run.h"
#include "oracle_port.h"

#define CHILD_SECONDS 10
#define NR_RUNS 2

static const struct oracle_object *const objects[] = {
	&oracle_linked_list,
	&oracle_linked_list_fail,
	&oracle_rbtree,
	&oracle_rbtree_fail,
	&oracle_refcounted_kptr,
	&oracle_refcounted_kptr_fail,
	&oracle_rbtree_btf_fail__add_wrong_type,
	&oracle_rbtree_btf_fail__wrong_node_type,
};

/**
 * enum diff_kind - why a program may legitimately differ
 * @STATIC: the verifier proves a rule over the program text that has no run-time equivalent:
 *	plain C loads and stores, NULL checks before use, pointer arithmetic, variable offsets,
 *	two lookups of one map element being two allocations
 * @PATH: the verifier rejects a path that this run does not take (it explores every branch);
 *	kfsim reports the rule on a run that takes it (the test named in the reason does)
 * @REFEREE: the kernel's verdict on this machine is an artifact of the toolchain or kernel
 *	configuration; kfsim is compared with the selftest's own annotation (@expect) instead
 * @VERDICT: the selftest asserts only that loading fails: verdicts are compared, not messages
 */
enum diff_kind { STATIC, PATH, REFEREE, VERDICT };

static const char *const diff_kind_name[] = {"static-only", "path", "referee", "verdict-only"};

/**
 * struct difference - one program allowed to differ from the kernel, and why
 * @object: selftest object
 * @name: program name; a trailing '*' matches a prefix
 * @kind: the class of the difference
 * @expect: for REFEREE: the selftest's annotation, "ACCEPT" or "REJECT"
 * @reason: one line
 * @msg: for REFEREE and REJECT: the selftest's __msg()
 * @retval: for REFEREE and ACCEPT: the selftest's __retval(), as a string ("" when none)
 */
struct difference {
	const char *object;
	const char *name;
	enum diff_kind kind;
	const char *expect;
	const char *reason;
	const char *msg;
	const char *retval;
};

static const struct difference differences[] = {
	/* ---- linked_list_fail.c ---- */
	{"linked_list_fail", "map_map_incorrect_lock_*", STATIC, NULL,
	 "v and v2 are two lookups of one array element: one allocation at run time, two "
	 "register ids to the verifier"},
	{"linked_list_fail", "inner_map_inner_map_incorrect_lock_*", STATIC, NULL,
	 "iv and iv2 are two lookups of one inner-map element: one allocation at run time, two "
	 "register ids to the verifier"},
	{"linked_list_fail", "ptr_walk_scalar", STATIC, NULL,
	 "the type of a pointer loaded from an object (untrusted memory) is static; "
	 "bpf_this_cpu_ptr is no graph kfunc. kfsim sees the object leak"},
	{"linked_list_fail", "direct_*", STATIC, NULL,
	 "direct loads and stores to special fields are plain C; kfsim sees the object leak"},
	{"linked_list_fail", "use_after_unlock_push_*", STATIC, NULL,
	 "the load through the reference that died at bpf_spin_unlock is plain C"},
	{"linked_list_fail", "incorrect_node_var_off", STATIC, NULL,
	 "a variable offset (ctx->protocol, 0 at run time) is a static property"},
	{"linked_list_fail", "incorrect_head_var_off1", STATIC, NULL,
	 "a variable offset (ctx->protocol, 0 at run time) is a static property"},
	{"linked_list_fail", "incorrect_head_var_off2", STATIC, NULL,
	 "a variable offset (ctx->protocol, 0 at run time) is a static property"},
	/* ---- rbtree_fail.c ---- */
	{"rbtree_fail", "rbtree_api_remove_unadded_node", STATIC, NULL,
	 "6.18's verifier stops at container_of() of the maybe-NULL result (pointer arithmetic "
	 "on ptr_or_null_); 6.16 made this program __retval(0), kfsim then sees the garbage "
	 "pointer passed to bpf_obj_drop"},
	{"rbtree_fail", "rbtree_api_use_unchecked_remove_retval", STATIC, NULL,
	 "the explored path passes remove's NULL to bpf_rbtree_add and kfsim refuses it; the "
	 "verifier names the maybe-NULL register's type ('Possibly NULL pointer passed to "
	 "trusted arg1'), which a NULL value at run time does not have"},
	/* ---- refcounted_kptr.c: the toolchain ---- */
	{"refcounted_kptr", "insert_rbtree_and_stash__del_tree_*", REFEREE, "ACCEPT",
	 "clang 14 emits no btf_type_tag on struct members, so the kernel sees no __kptr field "
	 "('R1 has no valid kptr'); the selftest says __success __retval(84)", NULL, "84"},
	{"refcounted_kptr", "rbtree_wrong_owner_remove_fail_*", REFEREE, "ACCEPT",
	 "clang 14 emits no btf_type_tag on struct members ('R1 has no valid kptr'); the "
	 "selftest loads and runs these (prog_tests/refcounted_kptr.c)"},
	{"refcounted_kptr", "rbtree_sleepable_rcu*", REFEREE, "ACCEPT",
	 "attaches to bpf_testmod_test_read: the bpf_testmod module is not loaded here; the "
	 "selftest says __success"},
	{"refcounted_kptr_fail", "rbtree_fail_sleepable_lock_across_rcu", REFEREE, "REJECT",
	 "attaches to bpf_testmod_test_read (module absent here); the selftest says "
	 "__failure __msg(\"function calls are not allowed while holding a lock\")",
	 "function calls are not allowed while holding a lock"},
	/* ---- rbtree_btf_fail__*.c ---- */
	{"rbtree_btf_fail__add_wrong_type", "rbtree_api_add__add_wrong_type", VERDICT, NULL,
	 "prog_tests/rbtree.c asserts only that loading fails; 6.18 refuses the section's "
	 "record first, kfsim the node type"},
};

static const struct difference *find_difference(const char *object, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(differences); i++) {
		const struct difference *d = &differences[i];
		size_t len = strlen(d->name);

		if (strcmp(d->object, object))
			continue;
		if (d->name[len - 1] == '*' ? !strncmp(d->name, name, len - 1)
					    : !strcmp(d->name, name))
			return d;
	}
	return NULL;
}

static const struct oracle_prog *find_prog(const char *object, const char *name,
					   const struct oracle_object **obj)
{
	for (size_t i = 0; i < ARRAY_SIZE(objects); i++) {
		if (strcmp(objects[i]->name, object))
			continue;
		*obj = objects[i];
		for (size_t j = 0; j < objects[i]->nr; j++)
			if (!strcmp(objects[i]->progs[j].name, name))
				return &objects[i]->progs[j];
	}
	return NULL;
}

void oracle_section(void *data, struct kfsim_btf_struct *s, const char *name, bool must_load)
{
	int err;

	memset(data, 0, s->size);
	err = kfsim_bpf_section_init(data, s, name);
	if (err && must_load) {
		fprintf(stderr, "section %s of struct %s: %s\n", name, s->name, kfsim_errname(err));
		_exit(3);
	}
}

/* ---- running one program ---- */

struct outcome {
	char verdict[16]; /* ACCEPT, REJECT, HANG, CRASH, EXIT n */
	char msg[512];
	int retval; /* of the first run */
};

struct child_arg {
	const struct oracle_object *obj;
	const struct oracle_prog *p;
};

/* NR_RUNS runs on the sections as they are; the first violation (of any run) is the message. */
static void runs(const struct child_arg *a, struct outcome *o)
{
	struct kfsim_bpf_run_opts opts = {.prog_type = a->p->type};
	struct kfsim_bpf_run run;
	struct outcome out = {"ACCEPT", ""};
	int ret;

	for (int i = 0; i < NR_RUNS && !strcmp(out.verdict, "ACCEPT"); i++) {
		ret = 0;
		kfsim_bpf_run(&run, a->p->name, a->p->prog, NULL, &opts, &ret);
		if (i == 0)
			out.retval = ret;
		if (run.nr_violations) {
			snprintf(out.verdict, sizeof(out.verdict), "REJECT");
			snprintf(out.msg, sizeof(out.msg), "%s", run.violations[0].msg);
		}
	}
	*o = out;
}

/* An exit rule (a leak, a lock still held) is what the verifier checks last on a path. */
static bool exit_rule(const char *msg)
{
	return !strncmp(msg, "Unreleased reference", 20) || !strncmp(msg, "BPF_EXIT", 8) ||
	       strstr(msg, "is missing");
}

static int explore_path(void *arg, void *result)
{
	struct outcome *o = result;

	runs(arg, o);
	if (strcmp(o->verdict, "REJECT"))
		return KFSIM_BPF_PATH_CLEAN;
	return KFSIM_BPF_PATH_VIOLATION | (exit_rule(o->msg) ? KFSIM_BPF_PATH_AT_EXIT : 0);
}

/*
 * The child: fresh sections; every branch of the program's maybe-NULL results explored from them
 * (kfsim_bpf_explore(), as kfsim-bpf-cc's runner does), then the natural runs.  The natural
 * verdict stands unless it is clean or only an exit rule and an explored path broke a rule.
 */
static int child_run(void *arg, int fd)
{
	const struct child_arg *a = arg;
	struct kfsim_bpf_explore_opts eopts = {.max_paths = 64, .max_flips = 2,
					       .timeout_ms = CHILD_SECONDS * 500,
					       .result_size = sizeof(struct outcome),
					       .stop_at_violation = true};
	struct kfsim_bpf_explore_report rep;
	struct outcome out = {"", ""};
	int err;

	const struct kfsim_bpf_explore_path *path;

	kfsim_bpf_guard_dropped(true); /* a load through a dropped object faults */
	a->obj->init();
	err = kfsim_bpf_explore(explore_path, (void *)a, &eopts, &rep);
	kfsim_bpf_explore_set(NULL, NULL);
	path = !err && rep.first >= 0 ? &rep.paths[rep.first] : NULL;
	if (path && rep.first == 0 && path->end >= KFSIM_BPF_PATH_NULL_DEREF)
		snprintf(out.verdict, sizeof(out.verdict), "ACCEPT"); /* the natural run faults */
	else
		runs(a, &out);
	if (path && (!strcmp(out.verdict, "ACCEPT") || (exit_rule(out.msg) && !path->at_exit))) {
		const struct outcome *found = rep.result;

		/* check_mem_access() on a maybe-NULL pointer, on a dropped one (a scalar) */
		snprintf(out.verdict, sizeof(out.verdict), "%s",
			 path->end == KFSIM_BPF_PATH_VIOLATION ? found->verdict : "REJECT");
		snprintf(out.msg, sizeof(out.msg), "%s",
			 path->end == KFSIM_BPF_PATH_VIOLATION	   ? found->msg
			 : path->end == KFSIM_BPF_PATH_NULL_DEREF ? "invalid mem access 'ptr_or_null_'"
			 : path->end == KFSIM_BPF_PATH_DEAD_REF   ? "invalid mem access 'scalar'"
								   : "the program crashed or hung");
	}
	if (!err)
		kfsim_bpf_explore_release(&rep);
	return write(fd, &out, sizeof(out)) == sizeof(out) ? 0 : 4;
}

static void run_prog(const struct oracle_object *obj, const struct oracle_prog *p,
		     struct outcome *out)
{
	struct child_arg arg = {obj, p};
	struct kfsim_child c = {.timeout_ms = CHILD_SECONDS * 1000};
	char end[16];
	int err = kfsim_child_run(&c, child_run, &arg);

	kfsim_child_result_copy(&c, out, sizeof(*out));
	if (err || kfsim_child_end(&c, end, sizeof(end))[0])
		snprintf(out->verdict, sizeof(out->verdict), "%s", err ? "ERROR" : end);
	kfsim_child_release(&c);
}

/* ---- comparing ---- */

/* "\n" escapes back to line breaks; digits after id= and alloc_insn= read as N. */
static void normalize(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (const char *p = in; *p && n + 2 < size; p++) {
		if (p[0] == '\\' && p[1] == 'n') {
			out[n++] = '\n';
			p++;
			continue;
		}
		out[n++] = *p;
		if (*p == '=' && ((p - in >= 2 && !strncmp(p - 2, "id", 2)) ||
				  (p - in >= 10 && !strncmp(p - 10, "alloc_insn", 10)))) {
			if (p[1] >= '0' && p[1] <= '9') {
				out[n++] = 'N';
				while (p[1] >= '0' && p[1] <= '9')
					p++;
			}
		}
	}
	out[n] = '\0';
}

static bool messages_agree(const char *kernel, const char *kfsim)
{
	char k[1024], f[1024];

	normalize(kernel, k, sizeof(k));
	normalize(kfsim, f, sizeof(f));
	return f[0] && strstr(k, f);
}

/* One line of the table; @line is printed with its line breaks as " / ". */
static void print_msg(const char *msg)
{
	for (const char *p = msg; *p; p++) {
		if (p[0] == '\\' && p[1] == 'n') {
			fputs(" / ", stdout);
			p++;
		} else if (*p == '\n') {
			fputs(" / ", stdout);
		} else {
			putchar(*p);
		}
	}
}

static int compare(FILE *kernel)
{
	unsigned int agree = 0, listed = 0, bad = 0, total = 0;
	char line[8192];

	printf("%-32s %-56s %-12s %-12s %s\n", "object", "program", "kernel", "kfsim", "result");
	while (fgets(line, sizeof(line), kernel)) {
		char *field[5] = {NULL}, *p = line;
		const struct oracle_object *obj = NULL;
		const struct oracle_prog *p_prog;
		const struct difference *d;
		const char *object, *name, *verdict, *kmsg, *kret, *result;
		struct outcome out;
		char fret[16];
		bool same;

		line[strcspn(line, "\n")] = '\0';
		for (int i = 0; i < 5 && p; i++)
			field[i] = strsep(&p, "\t");
		object = field[0], name = field[1], verdict = field[2];
		kmsg = field[3] ? field[3] : "", kret = field[4] ? field[4] : "-";
		if (!object || !name || !verdict || !*object)
			continue;
		if (!strcmp(kmsg, " "))
			kmsg = "";
		total++;
		p_prog = find_prog(object, name, &obj);
		d = find_difference(object, name);
		fret[0] = '\0';
		if (!p_prog) {
			snprintf(out.verdict, sizeof(out.verdict), "-");
			out.msg[0] = '\0';
			result = "DISAGREE (no kfsim port)";
			bad++;
			goto print;
		}
		run_prog(obj, p_prog, &out);
		if (!strcmp(out.verdict, "ACCEPT"))
			snprintf(fret, sizeof(fret), "%d", out.retval);
		if (strcmp(out.verdict, "ACCEPT") && strcmp(out.verdict, "REJECT")) {
			result = "FAIL (kfsim child did not finish cleanly)";
			bad++;
			goto print;
		}
		if (d && d->kind == REFEREE) {
			if (!strcmp(out.verdict, d->expect) &&
			    (!d->msg || messages_agree(d->msg, out.msg)) &&
			    (!d->retval || !strcmp(d->retval, fret))) {
				result = "listed: referee";
				listed++;
			} else {
				result = "DISAGREE with the selftest's annotation";
				bad++;
			}
			goto print;
		}
		/* an accepted tc program ran in the kernel too: the return values must agree */
		same = !strcmp(verdict, out.verdict) &&
		       (!strcmp(verdict, "ACCEPT") ? !strcmp(kret, "-") || !strcmp(kret, fret)
						   : messages_agree(kmsg, out.msg));
		if (same && d) {
			/* a difference that no longer occurs must leave the list */
			result = "STALE: agrees but is listed as a difference";
			bad++;
		} else if (same) {
			result = "agree";
			agree++;
		} else if (d && (d->kind != VERDICT || !strcmp(verdict, out.verdict))) {
			result = d->kind == STATIC ? "listed: static-only"
			       : d->kind == PATH   ? "listed: path"
						   : "listed: verdict-only";
			listed++;
		} else {
			result = "DISAGREE";
			bad++;
		}
print:
		{
			char kv[32], fv[32];

			snprintf(kv, sizeof(kv), "%s%s%s", verdict, strcmp(kret, "-") ? " " : "",
				 strcmp(kret, "-") ? kret : "");
			snprintf(fv, sizeof(fv), "%s%s%s", out.verdict, fret[0] ? " " : "", fret);
			printf("%-32s %-56s %-12s %-12s %s\n", object, name, kv, fv, result);
		}
		if (strcmp(result, "agree")) {
			fputs("    kernel: ", stdout);
			print_msg(kmsg);
			fputs("\n    kfsim:  ", stdout);
			print_msg(out.msg);
			putchar('\n');
			if (d)
				printf("    why:    [%s] %s\n", diff_kind_name[d->kind], d->reason);
		}
	}
	printf("\n%u programs: %u agree, %u listed differences, %u disagreements\n", total, agree,
	       listed, bad);
	return bad ? 1 : 0;
}

static void list_kfsim(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(objects); i++)
		for (size_t j = 0; j < objects[i]->nr; j++) {
			struct outcome out;

			run_prog(objects[i], &objects[i]->progs[j], &out);
			printf("%s\t%s\t%s\t", objects[i]->name, objects[i]->progs[j].name,
			       out.verdict);
			print_msg(out.msg);
			putchar('\n');
		}
}

int main(int argc, char **argv)
{
	const char *kernel = NULL, *kver = "6.16";
	unsigned int code;
	FILE *f;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
			kernel = argv[++i];
		else if (!strcmp(argv[i], "--kver") && i + 1 < argc)
			kver = argv[++i];
		else {
			fprintf(stderr, "usage: %s [--kernel kernel.tsv] [--kver X.Y]\n", argv[0]);
			return 2;
		}
	}
	if (kfsim_kver_parse(kver, &code)) {
		fprintf(stderr, "%s: bad kernel version '%s'\n", argv[0], kver);
		return 2;
	}
	kfsim_set_kernel_version(code);
	kfsim_console_loglevel_set(0);
	printf("kfsim mode: %s (the release nearest the running kernel that kfsim models)\n", kver);
	if (!kernel) {
		list_kfsim();
		return 0;
	}
	f = fopen(kernel, "r");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], kernel, strerror(errno));
		return 2;
	}
	ret = compare(f);
	fclose(f);
	return ret;
}
