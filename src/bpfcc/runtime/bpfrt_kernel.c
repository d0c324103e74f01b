// SPDX-License-Identifier: MIT
/*
 * --kernel: the running kernel's verifier as referee.  The BPF object kfsim-bpf-cc built is
 * embedded in the program; each program is loaded alone (autoload on for it only, a level-1
 * log), as docs/bpf-graph.md's oracle does.  The verdict's message is the last log lines after
 * the last instruction line and before "processed N insns".  An accepted tc or syscall program
 * is also run once with BPF_PROG_TEST_RUN (a 64-byte packet) for its return value.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define BPFRT_NO_KFSIM
#include "bpf_verifier_log.h"
#include "bpfrt.h"

static char verifier_log[16 << 20];

static bool test_runnable(const char *section)
{
	const char *s = section[0] == '?' ? section + 1 : section;

	return !strncmp(s, "tc", 2) || !strncmp(s, "syscall", 7) || !strncmp(s, "xdp", 3) ||
	       !strncmp(s, "socket", 6) || !strncmp(s, "cgroup_skb/", 11);
}

void bpfrt_kernel_verdict(const struct kfsim_bpfrt_object *obj, const struct kfsim_bpfrt_prog *p,
			  struct bpfrt_verdict *out)
{
	LIBBPF_OPTS(bpf_object_open_opts, oopts, .object_name = obj->name);
	struct bpf_program *prog, *want = NULL;
	struct bpf_object *bo;
	int err;

	memset(out, 0, sizeof(*out));
	if (geteuid()) {
		snprintf(out->verdict, sizeof(out->verdict), "SKIP");
		snprintf(out->msg, sizeof(out->msg), "loading BPF programs needs root");
		return;
	}
	libbpf_set_print(bpf_libbpf_keep_last);
	bo = bpf_object__open_mem(obj->bpf_obj, (size_t)(obj->bpf_obj_end - obj->bpf_obj), &oopts);
	if (!bo) {
		snprintf(out->verdict, sizeof(out->verdict), "SKIP");
		snprintf(out->msg, sizeof(out->msg), "libbpf cannot open the object: %s",
			 strerror(errno));
		return;
	}
	bpf_object__for_each_program(prog, bo)
	{
		bool me = !strcmp(bpf_program__name(prog), p->name);

		bpf_program__set_autoload(prog, me);
		if (me)
			want = prog;
	}
	verifier_log[0] = '\0';
	bpf_libbpf_last_warning[0] = '\0';
	if (want) {
		bpf_program__set_log_buf(want, verifier_log, sizeof(verifier_log));
		bpf_program__set_log_level(want, 1);
	}
	err = want ? bpf_object__load(bo) : -ENOENT;
	snprintf(out->verdict, sizeof(out->verdict), "%s", err ? "REJECT" : "ACCEPT");
	if (err && verifier_log[0])
		bpf_verifier_log_message(verifier_log, out->msg, sizeof(out->msg), false);
	else if (err)
		snprintf(out->msg, sizeof(out->msg), "%s",
			 bpf_libbpf_last_warning[0] ? bpf_libbpf_last_warning : strerror(-err));
	if (!err && test_runnable(p->section)) {
		/* skb_ctx_fill() gives its length, bpf_skb_load_bytes() its bytes natively (the
		 * socket filters and cgroup_skb too: their packet starts past the Ethernet header) */
		LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = bpfrt_test_pkt,
			    .data_size_in = sizeof(bpfrt_test_pkt), .repeat = 1);

		if (!bpf_prog_test_run_opts(bpf_program__fd(want), &topts)) {
			out->has_retval = true;
			out->retval = (int)topts.retval;
		}
	}
	bpf_object__close(bo);
}
