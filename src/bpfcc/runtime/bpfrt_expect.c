// SPDX-License-Identifier: MIT
/*
 * Judging a native run against what the program's annotations expect (bpf_misc.h:
 * __failure/__success, __msg, __retval), or, for a program without annotations, against the
 * running kernel's verdict (--kernel).
 *
 * Some verifier rules are proved over the program text and have no run-time equivalent: the
 * native program does a plain C load, store or pointer computation where the verifier rejects
 * the instruction.  A program expected to fail with one of those messages that kfsim runs
 * cleanly is "static-only", reported with the rule, not counted as agreement or disagreement.
 */
#include <stdio.h>
#include <string.h>

#include "bpfrt.h"

/**
 * struct static_rule - a verifier message whose rule no run can see
 * @msg: a part of the verifier's message
 * @rule: the rule, in one line
 */
struct static_rule {
	const char *msg;
	const char *rule;
};

static const struct static_rule static_rules[] = {
	{"invalid mem access 'scalar'",
	 "a load or store through a reference that died at bpf_spin_unlock or was given away "
	 "(bpf_kptr_xchg into a map) is a plain C access to an object a collection or the map "
	 "still holds (a dropped object's pages fault: reported)"},
	{"invalid mem access 'ptr_or_null_'",
	 "a dereference before the NULL check that no explored path made through a NULL result "
	 "(beyond the path budget, or not a load near address 0)"},
	{"ptr_or_null_ ptr",
	 "pointer arithmetic or a dereference on a maybe-NULL pointer before the NULL check"},
	{"pointer arithmetic on ptr_or_null_", "pointer arithmetic before the NULL check"},
	{"direct access to bpf_", "a direct load or store of a special field is plain C natively"},
	{"cannot be accessed directly by load/store",
	 "a direct load or store of a map value's special field (bpf_spin_lock, bpf_list_head, "
	 "bpf_rb_root, ...) is plain C natively"},
	{"store to referenced kptr disallowed",
	 "a plain store into a __kptr field (not through bpf_kptr_xchg) is plain C natively; "
	 "kfsim sees at most the leak it causes"},
	{"variable ptr_ access",
	 "a variable offset into an object is a property of the program text"},
	{"var_off", "a variable offset into an object is a property of the program text"},
	{"variable offset", "a variable offset into an object is a property of the program text"},
	{"Possibly NULL pointer passed", "a NULL check the verifier cannot see is static"},
	{"doesn't have constant offset",
	 "a variable offset into an object is a property of the program text"},
	{"type=rdonly_untrusted_mem",
	 "the type of a pointer loaded from an object is static (untrusted memory)"},
	{"untrusted_ptr_", "the trust of a pointer loaded from memory is a static type"},
	{"expected pointer to allocated object",
	 "a pointer from memory (not from a kfunc) is an untrusted type to the verifier"},
	{"invalid PTR_TO_BTF_ID register for type match",
	 "a maybe-NULL object given to bpf_kptr_xchg before its NULL check (the verifier's own "
	 "bug message, 6.18); natively NULL is also the literal that empties a slot"},
};

static const char *static_rule(const char *msg)
{
	for (size_t i = 0; msg && i < ARRAY_SIZE(static_rules); i++)
		if (strstr(msg, static_rules[i].msg))
			return static_rules[i].rule;
	return NULL;
}

/*
 * Messages are compared as they are, numbers included: the runner gives the BPF instruction of
 * an acquiring call (alloc_insn=, bpfcc_insns.c) and kfsim counts reference ids as the verifier's
 * id counter moves at the calls a run makes (src/bpf/bpf_vref.c).  An annotation's test_loader
 * regex ("{{[0-9]+}}") matches any number; "\n" is a line break.
 */
#define ANY_NUMBER '\001'

static void normalize(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (const char *p = in; *p && n + 2 < size; p++) {
		if (p[0] == '{' && p[1] == '{' && strstr(p, "}}")) { /* a test_loader regex */
			out[n++] = ANY_NUMBER;
			p = strstr(p, "}}") + 1;
			continue;
		}
		if (p[0] == '\\' && p[1] == 'n') {
			out[n++] = '\n';
			p++;
			continue;
		}
		out[n++] = *p;
	}
	out[n] = '\0';
}

/* @needle at @hay, where ANY_NUMBER in @needle (a regex of the annotation) stands for digits. */
static bool match_at(const char *hay, const char *needle)
{
	for (; *needle; needle++) {
		if (*needle == ANY_NUMBER) {
			if (*hay < '0' || *hay > '9')
				return false;
			while (*hay >= '0' && *hay <= '9')
				hay++;
			continue;
		}
		if (*hay++ != *needle)
			return false;
	}
	return true;
}

static bool contains(const char *hay, const char *needle)
{
	for (; *hay; hay++)
		if (match_at(hay, needle))
			return true;
	return false;
}

/*
 * An annotation that matches a line of the verifier's state log, not its message: the registers
 * after an instruction ("call bpf_rbtree_root#...; R0=rcu_ptr_or_null_node_data(id=2,..."), as
 * rbtree_search.c and linked_list_peek.c of 6.16 check the type a call gives.  kfsim prints no
 * register states; its message is held to the running kernel's instead.
 */
static bool state_log_line(const char *msg)
{
	const char *p = strstr(msg, "; R");

	return p && p[3] >= '0' && p[3] <= '9' && strchr(p, '=');
}

static bool only_state_log_lines(const char *const *msgs)
{
	if (!msgs[0])
		return false;
	for (; *msgs; msgs++)
		if (!state_log_line(*msgs))
			return false;
	return true;
}

bool bpfrt_msg_agrees(const char *expected, const char *got)
{
	char e[1024], g[1024];

	normalize(expected, e, sizeof(e));
	normalize(got, g, sizeof(g));
	return e[0] && g[0] && (contains(g, e) || contains(e, g));
}

static bool any_msg_agrees(const char *const *msgs, const char *got)
{
	for (; *msgs; msgs++)
		if (bpfrt_msg_agrees(*msgs, got))
			return true;
	return false;
}

enum bpfrt_result bpfrt_judge(const struct kfsim_bpfrt_prog *p, const struct bpfrt_verdict *kfsim,
			      const struct bpfrt_verdict *kernel, const char **why)
{
	const char *kernel_msgs[2] = {kernel ? kernel->msg : NULL, NULL};
	const char *const *msgs = p->msgs;
	int expect = p->expect;
	bool reject = !strcmp(kfsim->verdict, "REJECT");
	bool sanitizer = !strcmp(kfsim->verdict, "SANITIZER");

	*why = "";
	if (!expect && kernel && !strcmp(kernel->verdict, "ACCEPT"))
		expect = 1;
	if (!expect && kernel && !strcmp(kernel->verdict, "REJECT")) {
		expect = -1;
		msgs = kernel_msgs;
	}
	if (!reject && strcmp(kfsim->verdict, "ACCEPT") && !(sanitizer && expect < 0)) {
		*why = "the native run did not finish";
		return BPFRT_FAIL;
	}
	if (!expect) {
		*why = "no annotation (run with --kernel to compare with the verifier)";
		return BPFRT_RAN;
	}
	if (expect > 0) {
		if (reject) {
			*why = "expected success";
			return BPFRT_FAIL;
		}
		if (p->has_retval && (!kfsim->has_retval || (int)kfsim->retval != (int)p->retval)) {
			*why = "return value differs from __retval";
			return BPFRT_FAIL;
		}
		if (kernel && kernel->has_retval &&
		    (!kfsim->has_retval || (int)kfsim->retval != (int)kernel->retval)) {
			*why = "return value differs from the kernel's test run";
			return BPFRT_FAIL;
		}
		return BPFRT_PASS;
	}
	if (reject && (!msgs[0] || any_msg_agrees(msgs, kfsim->msg))) {
		/*
		 * A leak report is also held to the running kernel's where there is one: the
		 * same references, in the same order, at the same instructions (ids aside).
		 */
		if (kernel && !strcmp(kernel->verdict, "REJECT") &&
		    msg_starts(kfsim->msg, BPFRT_MSG_UNRELEASED) &&
		    !bpfrt_msg_agrees(kernel->msg, kfsim->msg)) {
			*why = "the leak report differs from the kernel's (references, order, "
			       "alloc_insn= or id=)";
			return BPFRT_FAIL;
		}
		return BPFRT_PASS;
	}
	if (reject && msgs == p->msgs && only_state_log_lines(msgs)) {
		if (!kernel || strcmp(kernel->verdict, "REJECT")) {
			*why = "the annotation matches the verifier's state log (registers after an "
			       "instruction), which kfsim does not print: run with --kernel to hold "
			       "kfsim's message to the verifier's";
			return BPFRT_STATIC;
		}
		if (bpfrt_msg_agrees(kernel->msg, kfsim->msg))
			return BPFRT_PASS;
		*why = "rejected with another message than the kernel's (the annotation matches "
		       "the verifier's state log)";
		return BPFRT_FAIL;
	}
	/*
	 * The rule the verifier applies first has no run-time equivalent; what kfsim reports, if
	 * anything, is a consequence seen later in the run (a leak after the refused access).
	 */
	for (const char *const *m = msgs; *m; m++) {
		const char *rule = static_rule(*m);

		if (rule) {
			*why = rule;
			return BPFRT_STATIC;
		}
	}
	if (reject && msg_starts(kfsim->msg, BPFRT_MSG_UNRELEASED) && msgs[0] &&
	    strstr(msgs[0], "Unreleased reference")) {
		*why = "the leak report differs (references, order, alloc_insn= or id=)";
		return BPFRT_FAIL;
	}
	*why = reject	   ? "rejected with another message"
	       : sanitizer ? "a sanitizer stopped the run before kfsim saw the rule"
			   : "expected failure";
	return BPFRT_FAIL;
}
