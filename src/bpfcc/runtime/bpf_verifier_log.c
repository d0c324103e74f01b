// SPDX-License-Identifier: MIT
/* The verifier's message in its log, and libbpf's last warning (see bpf_verifier_log.h). */
#include "bpf_verifier_log.h"

#include <stdio.h>
#include <string.h>

char bpf_libbpf_last_warning[1024];

int bpf_libbpf_keep_last(enum libbpf_print_level level, const char *fmt, va_list args)
{
	char line[sizeof(bpf_libbpf_last_warning)];
	size_t len;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, args);
	len = strlen(line);
	while (len && line[len - 1] == '\n')
		line[--len] = '\0';
	if (len && !strstr(line, "PROG LOAD LOG"))
		snprintf(bpf_libbpf_last_warning, sizeof(bpf_libbpf_last_warning), "%s", line);
	return 0;
}

/* An instruction or source line of the log ("12: (85) call ...", "; n->key = 1 @ x.c:3"). */
static bool insn_line(const char *p)
{
	const char *q = p;

	if (*p == ';')
		return true;
	while (*q >= '0' && *q <= '9')
		q++;
	return q > p && *q == ':';
}

void bpf_verifier_log_message(const char *log, char *out, size_t size, bool escape_newlines)
{
	const char *end = strstr(log, "\nprocessed ");
	const char *start;
	size_t n = 0;
	int lines = 0;

	if (!end)
		end = log + strlen(log);
	while (end > log && end[-1] == '\n')
		end--;
	start = end;
	while (start > log && lines < 3) {
		const char *line = start - 1;

		while (line > log && line[-1] != '\n')
			line--;
		if (insn_line(line))
			break;
		start = line;
		lines++;
	}
	for (const char *p = start; p < end && n + 3 < size; p++) {
		if (*p == '\n' && escape_newlines) {
			out[n++] = '\\';
			out[n++] = 'n';
		} else {
			out[n++] = *p == '\t' ? ' ' : *p;
		}
	}
	out[n] = '\0';
}
