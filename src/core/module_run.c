// SPDX-License-Identifier: MIT
/*
 * A kernel module as a userspace program: what insmod and the module loader do around
 * module_init(), reduced to a process.  The arguments are a kernel command line; a bare
 * "param=value" that names one of this module's parameters is taken as insmod takes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/moduleparam.h>

/* "param=value" of this module becomes "module.param=value"; values with spaces get quotes. */
static int append_word(char *line, size_t size, const char *module, const char *word)
{
	const char *eq = strchr(word, '=');
	size_t name_len = eq ? (size_t)(eq - word) : strlen(word);
	char qualified[512];
	bool ours = false;
	size_t used = strlen(line);
	int n;

	if (!memchr(word, '.', name_len) && name_len < 256 &&
	    (size_t)snprintf(qualified, sizeof(qualified), "%s.%.*s", module, (int)name_len,
			     word) < sizeof(qualified))
		ours = kfsim_module_param_find(qualified) != NULL;
	n = snprintf(line + used, size - used, "%s%s%s%.*s%s%s%s", used ? " " : "",
		     ours ? module : "", ours ? "." : "", (int)name_len, word, eq ? "=" : "",
		     eq && strchr(eq, ' ') ? "\"" : "", eq ? eq + 1 : "");
	if (n < 0 || (size_t)n >= size - used)
		return -E2BIG;
	if (eq && strchr(eq, ' ')) {
		used = strlen(line);
		if (used + 2 > size)
			return -E2BIG;
		strcat(line, "\"");
	}
	return 0;
}

int kfsim_module_run(const char *name, int (*init)(void), void (*exit)(void), int argc,
		     char **argv)
{
	char line[COMMAND_LINE_SIZE] = "";
	unsigned long warns;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: %s [param=value | %s.param=value | kernel option]...\n"
			       "Runs module %s's init function as insmod would load it.\n",
			       argv[0], name, name);
			return 0;
		}
		if (append_word(line, sizeof(line), name, argv[i])) {
			fprintf(stderr, "%s: command line longer than %d bytes\n", name,
				COMMAND_LINE_SIZE - 1);
			return 2;
		}
	}
	ret = kfsim_cmdline_parse(line);
	if (ret) {
		fprintf(stderr, "%s: kernel command line refused: %s\n", name, errname(ret));
		return 2;
	}
	warns = kfsim_warn_count();
	ret = init ? init() : 0;
	if (!ret && exit)
		exit();
	if (kfsim_warn_count() != warns) {
		fprintf(stderr, "%s: %lu WARN report(s) while the module ran\n", name,
			kfsim_warn_count() - warns);
		return 1;
	}
	if (ret) {
		fprintf(stderr, "insmod: ERROR: could not insert module %s.ko: %s\n", name,
			strerror(ret < 0 ? -ret : ret));
		return 2;
	}
	return 0;
}
