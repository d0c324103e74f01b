// SPDX-License-Identifier: MIT
/*
 * The kernel command line.  Parsing follows next_arg() in lib/cmdline.c (words, name=value,
 * double quotes, "--"), the handling of unknown words follows init/main.c unknown_bootoption()
 * and print_unknown_bootoptions().  Where the kernel is lenient with garbage (an unterminated
 * quote runs to the end of the line there), kfsim rejects the line so a typo is not silently
 * half-applied; docs/core.md lists these differences.
 *
 * A parse builds a new parameter set and only replaces the old one once the whole line is valid.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>

enum param_kind { PARAM_FLAG, PARAM_INT, PARAM_LIST, PARAM_STRING };

struct known_param {
	const char *name;
	enum param_kind kind;
};

/* Every parameter kfsim acts on.  Parts add theirs here, named "<part>.<param>". */
static const struct known_param known_params[] = {
	{ "cgroup.memory", PARAM_LIST },   /* nosocket,nokmem,nobpf */
	{ "loglevel", PARAM_INT },
	{ "quiet", PARAM_FLAG },
	{ "debug", PARAM_FLAG },
	{ "ignore_loglevel", PARAM_FLAG },
	{ "panic_on_warn", PARAM_FLAG },
};

/* kfsim's parts play the kernel's modules: "<part>.x" with an unknown x is reported. */
static const char *const part_modules[] = { "bfq", "bpf", "netlink", "plca", "rbtree", "refcount" };

#define MAX_PARAMS 128

struct param {
	char *name;
	char *value;
};

struct param_set {
	char *text;
	char *unknown;
	struct param params[MAX_PARAMS];
	unsigned int nr_params;
};

static struct param_set boot;
static pthread_mutex_t boot_lock = PTHREAD_MUTEX_INITIALIZER;

static void param_set_free(struct param_set *set)
{
	for (unsigned int i = 0; i < set->nr_params; i++) {
		free(set->params[i].name);
		free(set->params[i].value);
	}
	free(set->text);
	free(set->unknown);
	memset(set, 0, sizeof(*set));
}

/* Kernel parameter names treat '-' and '_' alike (parameq()). */
static bool param_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char ca = *a == '-' ? '_' : *a, cb = *b == '-' ? '_' : *b;

		if (ca != cb)
			return false;
	}
	return *a == *b;
}

static const struct known_param *find_known(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_params); i++)
		if (param_name_eq(known_params[i].name, name))
			return &known_params[i];
	return NULL;
}

static bool is_part_module(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(part_modules); i++)
		if (strlen(part_modules[i]) == len && !strncmp(part_modules[i], name, len))
			return true;
	return false;
}

static bool parse_flag(const char *value)
{
	return !value || !strcmp(value, "") || !strcmp(value, "0") || !strcmp(value, "1") ||
	       !strcmp(value, "y") || !strcmp(value, "n") || !strcmp(value, "Y") ||
	       !strcmp(value, "N");
}

static bool parse_int(const char *value, long *out)
{
	char *end;

	if (!value || !*value)
		return false;
	*out = strtol(value, &end, 0);
	return *end == '\0';
}

static int check_known(const struct known_param *known, const char *value)
{
	long number;

	switch (known->kind) {
	case PARAM_FLAG:
		if (!parse_flag(value))
			goto bad;
		return 0;
	case PARAM_INT:
		if (!parse_int(value, &number))
			goto bad;
		return 0;
	case PARAM_LIST:
	case PARAM_STRING:
		if (!value)
			goto bad;
		return 0;
	}
bad:
	pr_err("Malformed early option '%s'\n", known->name);
	return -EINVAL;
}

static int append_unknown(struct param_set *set, const char *name, const char *value)
{
	size_t old = set->unknown ? strlen(set->unknown) : 0;
	size_t add = strlen(name) + (value ? strlen(value) + 1 : 0) + 2;
	char *grown = realloc(set->unknown, old + add);

	if (!grown)
		return -ENOMEM;
	snprintf(grown + old, add, "%s%s%s%s", old ? " " : "", name, value ? "=" : "",
		 value ? value : "");
	set->unknown = grown;
	return 0;
}

static int store_param(struct param_set *set, const char *name, const char *value)
{
	struct param *param;

	if (set->nr_params == MAX_PARAMS) {
		pr_err("kfsim: too many kernel command line parameters (max %d)\n", MAX_PARAMS);
		return -E2BIG;
	}
	param = &set->params[set->nr_params];
	param->name = strdup(name);
	param->value = strdup(value ? value : "");
	if (!param->name || !param->value) {
		free(param->name);
		free(param->value);
		return -ENOMEM;
	}
	set->nr_params++;
	return 0;
}

/* Dispatch one word, as the kernel's parse_args() callbacks would. */
static int handle_word(struct param_set *set, const char *name, const char *value)
{
	const struct known_param *known = find_known(name);
	const char *dot = strchr(name, '.');
	int ret;

	if (known) {
		ret = check_known(known, value);
		return ret ? ret : store_param(set, known->name, value);
	}
	if (dot && is_part_module(name, (size_t)(dot - name))) {
		pr_warn("%.*s: unknown parameter '%s' ignored\n", (int)(dot - name), name, dot + 1);
		return 0;
	}
	if (dot)	/* for a module kfsim does not have: kept, as the kernel keeps it */
		return store_param(set, name, value);
	ret = append_unknown(set, name, value);
	return ret ? ret : store_param(set, name, value);
}

/* Cut the next word off @args as next_arg() does; returns the rest, or NULL on a bad quote. */
static char *next_word(char *args, char **name, char **value)
{
	bool in_quote = false, quoted = false;
	size_t i, equals = SIZE_MAX;

	if (*args == '"') {
		args++;
		in_quote = quoted = true;
	}
	for (i = 0; args[i]; i++) {
		if (isspace((unsigned char)args[i]) && !in_quote)
			break;
		if (equals == SIZE_MAX && args[i] == '=')
			equals = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}
	if (in_quote)
		return NULL;
	*name = args;
	if (equals == SIZE_MAX) {
		*value = NULL;
	} else {
		args[equals] = '\0';
		*value = args + equals + 1;
		if (**value == '"') {
			(*value)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i && args[i - 1] == '"')
		args[i - 1] = '\0';
	if (args[i]) {
		args[i] = '\0';
		i++;
	}
	return args + i;
}

static void apply_console_level(const struct param_set *set)
{
	for (unsigned int i = 0; i < set->nr_params; i++) {
		const struct param *param = &set->params[i];

		if (!strcmp(param->name, "loglevel"))
			kfsim_console_loglevel_set((int)strtol(param->value, NULL, 0));
		else if (!strcmp(param->name, "quiet"))
			kfsim_console_loglevel_set(4);
		else if (!strcmp(param->name, "debug") || !strcmp(param->name, "ignore_loglevel"))
			kfsim_console_loglevel_set(8);
	}
}

static int parse_into(struct param_set *set, const char *cmdline)
{
	char *copy, *args, *name, *value;
	int ret = 0;

	copy = strdup(cmdline);
	set->text = strdup(cmdline);
	if (!copy || !set->text) {
		free(copy);
		return -ENOMEM;
	}
	args = copy;
	for (;;) {
		while (isspace((unsigned char)*args))
			args++;
		if (!*args)
			break;
		if (!strncmp(args, "--", 2) && (!args[2] || isspace((unsigned char)args[2])))
			break;	/* the rest is init's */
		args = next_word(args, &name, &value);
		if (!args) {
			pr_err("kfsim: kernel command line: unterminated quote\n");
			ret = -EINVAL;
			break;
		}
		if (!*name) {
			pr_err("kfsim: kernel command line: parameter without a name\n");
			ret = -EINVAL;
			break;
		}
		ret = handle_word(set, name, value);
		if (ret)
			break;
	}
	free(copy);
	return ret;
}

int kfsim_cmdline_parse(const char *cmdline)
{
	struct param_set fresh = { 0 };
	int ret;

	if (!cmdline)
		return -EINVAL;
	if (strlen(cmdline) > COMMAND_LINE_SIZE - 1) {
		pr_err("kfsim: kernel command line longer than %d bytes\n", COMMAND_LINE_SIZE - 1);
		return -E2BIG;
	}
	ret = parse_into(&fresh, cmdline);
	if (ret) {
		param_set_free(&fresh);
		return ret;
	}
	if (fresh.unknown)
		pr_notice("Unknown kernel command line parameters \"%s\", will be passed to user space.\n",
			  fresh.unknown);
	apply_console_level(&fresh);
	pthread_mutex_lock(&boot_lock);
	param_set_free(&boot);
	boot = fresh;
	pthread_mutex_unlock(&boot_lock);
	return 0;
}

void kfsim_cmdline_reset(void)
{
	pthread_mutex_lock(&boot_lock);
	param_set_free(&boot);
	pthread_mutex_unlock(&boot_lock);
}

const char *kfsim_cmdline_get(const char *name)
{
	const char *value = NULL;

	pthread_mutex_lock(&boot_lock);
	for (unsigned int i = 0; i < boot.nr_params; i++)
		if (param_name_eq(boot.params[i].name, name))
			value = boot.params[i].value;	/* the last one wins */
	pthread_mutex_unlock(&boot_lock);
	return value;
}

bool kfsim_cmdline_has_option(const char *name, const char *option)
{
	const char *list = kfsim_cmdline_get(name);
	size_t len = strlen(option);

	while (list && *list) {
		const char *comma = strchr(list, ',');
		size_t item = comma ? (size_t)(comma - list) : strlen(list);

		if (item == len && !strncmp(list, option, len))
			return true;
		list = comma ? comma + 1 : NULL;
	}
	return false;
}

const char *kfsim_cmdline_text(void)
{
	return boot.text ? boot.text : "";
}

const char *kfsim_cmdline_unknown(void)
{
	return boot.unknown ? boot.unknown : "";
}
