// SPDX-License-Identifier: MIT
/*
 * Ask the running kernel's verifier about every program of the BPF objects named on the command
 * line, one program at a time: open the object, turn autoload on for that program only, load it
 * with a level-1 log, and print one line per program:
 *
 *	<object>\t<program>\tACCEPT|REJECT\t<message>\t<retval>
 *
 * An accepted tc program is also run once (BPF_PROG_TEST_RUN on a 64-byte packet, on the fresh
 * maps of its object) and its return value printed; "-" when it was not run.
 * The message is the verifier's last log line before "processed ..." (or, when the load failed
 * before the verifier ran, e.g. at BTF or map creation, the last line libbpf printed).  Line
 * breaks inside the log are kept as the two characters "\n" so each program stays one line.
 * Exit status: 0 when every object could be opened, 1 otherwise; 77 when the kernel refuses BPF.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_verifier_log.h"

static char verifier_log[64 << 20];

/* Run an accepted tc program once; its return value, or INT64_MIN when it cannot run. */
static long long test_run(struct bpf_program *prog)
{
	char pkt[64] = {0};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);

	if (bpf_program__type(prog) != BPF_PROG_TYPE_SCHED_CLS)
		return INT64_MIN;
	/* an Ethernet header for IPv4, as the selftests' pkt_v4 starts */
	pkt[12] = 0x08;
	if (bpf_prog_test_run_opts(bpf_program__fd(prog), &opts))
		return INT64_MIN;
	return (int)opts.retval;
}

static int load_one(const char *path, const char *prog_name, char *msg, size_t size,
		    long long *retval)
{
	struct bpf_program *prog, *want = NULL;
	struct bpf_object *obj;
	int err;

	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		snprintf(msg, size, "cannot open %s: %s", path, strerror(errno));
		return -errno;
	}
	bpf_object__for_each_program(prog, obj) {
		bool me = !strcmp(bpf_program__name(prog), prog_name);

		bpf_program__set_autoload(prog, me);
		if (me)
			want = prog;
	}
	verifier_log[0] = '\0';
	bpf_libbpf_last_warning[0] = '\0';
	bpf_program__set_log_buf(want, verifier_log, sizeof(verifier_log));
	bpf_program__set_log_level(want, 1);
	err = bpf_object__load(obj);
	*retval = err ? INT64_MIN : test_run(want);
	if (err && verifier_log[0])
		bpf_verifier_log_message(verifier_log, msg, size, true);
	else if (err)
		snprintf(msg, size, "%s", bpf_libbpf_last_warning[0] ? bpf_libbpf_last_warning : strerror(-err));
	else
		msg[0] = '\0';
	bpf_object__close(obj);
	return err;
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s OBJECT.bpf.o...\n", argv[0]);
		return 2;
	}
	if (geteuid() != 0) {
		printf("skipped: loading BPF programs needs root\n");
		return 77;
	}
	libbpf_set_print(bpf_libbpf_keep_last);
	for (int i = 1; i < argc; i++) {
		struct bpf_object *obj = bpf_object__open_file(argv[i], NULL);
		const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		char names[128][64];
		struct bpf_program *prog;
		int nr = 0;

		if (!obj) {
			fprintf(stderr, "%s: cannot open: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		bpf_object__for_each_program(prog, obj)
			if (nr < 128)
				snprintf(names[nr++], sizeof(names[0]), "%s", bpf_program__name(prog));
		bpf_object__close(obj);
		for (int p = 0; p < nr; p++) {
			static char msg[4096];
			long long retval = INT64_MIN;
			int err = load_one(argv[i], names[p], msg, sizeof(msg), &retval);
			char rv[24] = "-";

			if (retval != INT64_MIN)
				snprintf(rv, sizeof(rv), "%lld", retval);
			/* an empty message is " ": tab-separated fields must not be empty */
			printf("%.*s\t%s\t%s\t%s\t%s\n", (int)(strcspn(base, ".")), base, names[p],
			       err ? "REJECT" : "ACCEPT", msg[0] ? msg : " ", rv);
			fflush(stdout);
		}
	}
	return status;
}
