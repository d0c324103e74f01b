// SPDX-License-Identifier: MIT
/*
 * The kernel command line, parsed in the kernel's three steps (Linux 6.12):
 *
 * 1. early options (init/main.c do_early_param()): debug, quiet, loglevel=, ignore_loglevel.
 *    A bad value (loglevel=x) is "Malformed early option 'loglevel'" (KERN_WARNING) and the rest
 *    of the line still applies.
 * 2. parameters (kernel/params.c parse_args("Booting kernel")): the core parameter panic_on_warn
 *    (an int) and every module parameter a part registered (moduleparam.c).  A value the type
 *    refuses, or a missing one ("panic_on_warn" alone), is "Booting kernel: `x' invalid for
 *    parameter `panic_on_warn'" (KERN_ERR) and the parameter keeps its value.
 * 3. everything else (init/main.c unknown_bootoption()): __setup options (cgroup.memory=),
 *    early options already done, dotted names (a module's, ignored), and the rest passed to init:
 *    words with '=' into its environment (a repeated name keeps its place and takes the last
 *    value; HOME and TERM replace the defaults), the others into its argv.  The report lists argv
 *    words, then environment words.
 *
 * kfsim_cmdline_parse_strict() is kfsim's own opt-in: it refuses (-EINVAL, nothing changes) any
 * line that the kernel would only warn about, and unterminated quotes, and words without a name.
 * A parse builds a new parameter set and only replaces the old one once the line is accepted.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include "cmdline_internal.h"

/* CONFIG_INIT_ENV_ARG_LIMIT: how many words init's argv and environment hold. */
#define MAX_INIT_ARGS 32
#define MAX_INIT_ENVS 32
#define MAX_PARAMS 256

struct param {
	char *name;
	char *value;	/* NULL for a bare word */
};

struct param_set {
	char *text;
	char *unknown;
	struct param params[MAX_PARAMS];
	unsigned int nr_params;
	const char *argv[MAX_INIT_ARGS + 1];	/* argv[0] is "init" */
	unsigned int argc;
	const char *envp[MAX_INIT_ENVS + 1];	/* envp[0..1] are HOME=/ and TERM=linux */
	char *env_words[MAX_INIT_ENVS + 1];	/* "name=value" copies owned by the set */
	unsigned int envc;
	unsigned int errors;
};

static struct param_set boot;
static pthread_mutex_t boot_lock = PTHREAD_MUTEX_INITIALIZER;

int panic_on_warn;

/* The early options (early_param()), in init/main.c and kernel/printk/printk.c. */
static const char *const early_options[] = { "debug", "quiet", "loglevel", "ignore_loglevel" };
/*
 * Options the kernel's own __setup()/early_param() handlers and core parameters take (Linux
 * 6.12, x86: init/, kernel/, mm/, arch/x86/, drivers/tty, security/ ...), which kfsim does not
 * act on but must not pass to init: "console=ttyS0 root=/dev/vda ro quiet splash" leaves only
 * "splash" for user space.  The common ones, not every handler of every driver:
 *  - "name=": a __setup() taking a value, matched with one;
 *  - "name": a __setup() flag (its handler refuses trailing text), matched without a value;
 *  - "name*": an early_param() or core parameter, matched with or without a value.
 */
static const char *const kernel_setup_words[] = {
	"root=", "rootfstype=", "rootflags=", "rootdelay=", "rootwait", "ro", "rw", "init=",
	"rdinit=", "console=", "noinitrd", "nomodeset", "selinux=", "apparmor=", "security=",
	"lsm=", "audit=", "hugepages=", "transparent_hugepage=", "isolcpus=", "nohz_full=",
	"nohz=", "nowatchdog", "norandmaps", "resume=", "noresume", "hibernate=", "elevator=",
	"intel_iommu=", "reboot=", "nmi_watchdog=", "irqaffinity=", "preempt=",
	"no_console_suspend", "tsc=", "clocksource=", "hpet=", "nosoftlockup",
	"softlockup_panic=", "sysrq_always_enabled", "fbcon=", "video=",
	"earlycon*", "earlyprintk*", "mitigations*", "mem*", "nosmp*", "maxcpus*", "nr_cpus*",
	"crashkernel*", "acpi*", "threadirqs*", "noapic*", "swiotlb*", "iommu*", "kasan*",
	"log_buf_len*", "keep_bootcon*", "nopti*", "pti*", "oops*", "panic*",
};

/* obsolete_checksetup() / parse_one() for kernel_setup_words[]. */
static bool kernel_consumes(const char *name, const char *value)
{
	for (size_t i = 0; i < ARRAY_SIZE(kernel_setup_words); i++) {
		const char *word = kernel_setup_words[i];
		size_t n = strlen(word);
		char last = word[n - 1], bare[32];

		if (last == '=' || last == '*')
			n--;
		memcpy(bare, word, n);
		bare[n] = '\0';
		if (!kfsim_param_name_eq(name, strlen(name), bare))
			continue;
		if (last == '*' || (last == '=') == (value != NULL))
			return true;
	}
	return false;
}

/* __setup() options kfsim acts on, with the '=' that is part of their name. */
static const char *const setup_options[] = { "cgroup.memory=" };

static void param_set_free(struct param_set *set)
{
	for (unsigned int i = 0; i < set->nr_params; i++) {
		free(set->params[i].name);
		free(set->params[i].value);
	}
	for (unsigned int i = 0; i < set->envc; i++)
		free(set->env_words[i]);
	free(set->text);
	free(set->unknown);
	memset(set, 0, sizeof(*set));
}

static bool name_is(const char *name, const char *known)
{
	return kfsim_param_name_eq(name, strlen(name), known);
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
	param->value = value ? strdup(value) : NULL;
	if (!param->name || (value && !param->value)) {
		free(param->name);
		free(param->value);
		return -ENOMEM;
	}
	set->nr_params++;
	return 0;
}

/* do_early_param(): true when @name is an early option; *malformed when its setup refuses it. */
static bool early_option(const char *name, const char *value, bool *malformed)
{
	*malformed = false;
	for (size_t i = 0; i < ARRAY_SIZE(early_options); i++) {
		if (!name_is(name, early_options[i]))
			continue;
		if (!strcmp(early_options[i], "loglevel")) {
			char *str = (char *)value;
			int level;

			/* get_option(): "3", "3,", even "3x" give 3; "x" or nothing is malformed */
			*malformed = !get_option(&str, &level);
		}
		return true;
	}
	return false;
}

/* A value through the parameter's ops on a scratch copy: validation without side effects. */
static int check_param_value(const struct kernel_param *kp, const char *value)
{
	union {
		long long ll;
		char *p;
		bool b;
	} scratch = { 0 };
	struct kernel_param probe = *kp;
	int ret;

	if (!value && !(kp->ops->flags & KERNEL_PARAM_OPS_FL_NOARG))
		return -EINVAL;
	probe.arg = &scratch;
	ret = kp->ops->set(value, &probe);
	if (!ret && kp->ops == &param_ops_charp)
		free(scratch.p);
	return ret;
}

static const struct kernel_param core_params[] = {
	KFSIM_PARAM_NAMED(kernel, panic_on_warn, panic_on_warn, int, 0644),
};

/* parse_one(): a core or module parameter; NULL when @name is none of them. */
static const struct kernel_param *find_param(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(core_params); i++)
		if (name_is(name, core_params[i].name))
			return &core_params[i];
	return kfsim_module_param_find(name);
}

/* obsolete_checksetup() for the __setup() options: "cgroup.memory=..." needs its value. */
static bool setup_option(const char *name, const char *value)
{
	for (size_t i = 0; i < ARRAY_SIZE(setup_options); i++) {
		size_t n = strlen(setup_options[i]) - 1;	/* without the '=' */

		if (value && strlen(name) == n && !strncmp(name, setup_options[i], n))
			return true;
	}
	return false;
}

/* unknown_bootoption(), passing a word to init: argv, or the environment for name=value. */
static int pass_to_init(struct param_set *set, const char *name, const char *value)
{
	size_t len = strlen(name);
	char *word;
	unsigned int i;

	if (!value) {
		if (set->argc == MAX_INIT_ARGS) {
			pr_err("Too many boot init vars at `%s'\n", name);
			return -E2BIG;
		}
		set->argv[set->argc++] = set->params[set->nr_params - 1].name;
		return 0;
	}
	if (asprintf(&word, "%s=%s", name, value) < 0)
		return -ENOMEM;
	for (i = 0; i < set->envc; i++)
		if (!strncmp(set->envp[i], word, len + 1))
			break;
	if (i == MAX_INIT_ENVS) {
		pr_err("Too many boot env vars at `%s'\n", name);
		free(word);
		return -E2BIG;
	}
	if (i == set->envc)
		set->envc++;
	else
		free(set->env_words[i]);
	set->env_words[i] = word;
	set->envp[i] = word;
	return 0;
}

static int handle_word(struct param_set *set, const char *name, const char *value, bool strict)
{
	const struct kernel_param *kp;
	const char *dot = strchr(name, '.');
	bool malformed;
	int ret;

	if (early_option(name, value, &malformed)) {
		if (malformed) {
			pr_warn("Malformed early option '%s'\n", name);
			set->errors++;
			return 0;
		}
		return store_param(set, name, value);
	}
	kp = find_param(name);
	if (kp) {
		ret = check_param_value(kp, value);
		if (ret) {
			if (ret == -ENOSPC)
				pr_err("Booting kernel: `%s' too large for parameter `%s'\n",
				       value ? value : "", name);
			else
				pr_err("Booting kernel: `%s' invalid for parameter `%s'\n",
				       value ? value : "", name);
			set->errors++;
			return 0;
		}
		return store_param(set, name, value);
	}
	/* bootloader identifiers: "BOOT_IMAGE=..." and "kexec..." */
	if ((value && !strcmp(name, "BOOT_IMAGE")) || !strncmp(name, "kexec", 5))
		return 0;
	if (setup_option(name, value) || kernel_consumes(name, value))
		return store_param(set, name, value);
	if (dot) {
		if (kfsim_module_known(name, (size_t)(dot - name))) {
			/* kfsim's parts are reported as a loaded module reports them */
			pr_warn("%.*s: unknown parameter '%s' ignored\n", (int)(dot - name), name,
				dot + 1);
			return 0;
		}
		if (strict && !value && setup_option(name, "")) {
			pr_err("kfsim: kernel command line: '%s' needs a value\n", name);
			set->errors++;
			return 0;
		}
		return store_param(set, name, value);	/* a module kfsim does not have */
	}
	ret = store_param(set, name, value);
	return ret ? ret : pass_to_init(set, name, value);
}

static int build_unknown(struct param_set *set)
{
	size_t len = 1;
	char *out;

	for (unsigned int i = 1; i < set->argc; i++)
		len += strlen(set->argv[i]) + 1;
	for (unsigned int i = 2; i < set->envc; i++)
		len += strlen(set->envp[i]) + 1;
	if (len == 1)
		return 0;
	out = malloc(len);
	if (!out)
		return -ENOMEM;
	out[0] = '\0';
	for (unsigned int i = 1; i < set->argc; i++)
		strcat(strcat(out, " "), set->argv[i]);
	for (unsigned int i = 2; i < set->envc; i++)
		strcat(strcat(out, " "), set->envp[i]);
	memmove(out, out + 1, len - 1);	/* drop the first space */
	set->unknown = out;
	return 0;
}

static bool quotes_balanced(const char *line)
{
	unsigned int quotes = 0;

	for (; *line; line++)
		quotes += *line == '"';
	return !(quotes & 1);
}

static int parse_into(struct param_set *set, const char *cmdline, bool strict)
{
	char *copy, *args, *name, *value;
	int ret = 0;

	set->argv[set->argc++] = "init";
	set->envp[set->envc] = set->env_words[set->envc] = strdup("HOME=/");
	set->envc++;
	set->envp[set->envc] = set->env_words[set->envc] = strdup("TERM=linux");
	set->envc++;
	copy = strdup(cmdline);
	set->text = strdup(cmdline);
	if (!copy || !set->text || !set->env_words[0] || !set->env_words[1]) {
		free(copy);
		return -ENOMEM;
	}
	if (strict && !quotes_balanced(cmdline)) {
		pr_err("kfsim: kernel command line: unterminated quote\n");
		free(copy);
		return -EINVAL;
	}
	args = copy;
	while (isspace((unsigned char)*args))
		args++;
	while (*args) {
		args = next_arg(args, &name, &value);
		if (!value && !strcmp(name, "--"))
			break;	/* the rest is init's */
		if (strict && (!*name || *name == '=')) {
			pr_err("kfsim: kernel command line: parameter without a name\n");
			ret = -EINVAL;
			break;
		}
		ret = handle_word(set, name, value, strict);
		if (ret)
			break;
	}
	free(copy);
	if (!ret)
		ret = build_unknown(set);
	if (!ret && strict && set->errors)
		ret = -EINVAL;
	return ret;
}

/* Console settings of the line, in order, as the early options apply them. */
static void apply_console(const struct param_set *set)
{
	kfsim_console_ignore_loglevel_set(false);
	for (unsigned int i = 0; i < set->nr_params; i++) {
		const struct param *param = &set->params[i];

		if (name_is(param->name, "loglevel")) {
			char *str = param->value;
			int level;

			get_option(&str, &level);
			kfsim_console_loglevel_set(level);
		} else if (name_is(param->name, "quiet")) {
			kfsim_console_loglevel_set(CONSOLE_LOGLEVEL_QUIET);
		} else if (name_is(param->name, "debug")) {
			kfsim_console_loglevel_set(CONSOLE_LOGLEVEL_DEBUG);
		} else if (name_is(param->name, "ignore_loglevel")) {
			kfsim_console_ignore_loglevel_set(true);
			pr_info("debug: ignoring loglevel setting.\n");
		}
	}
}

/* Core and module parameters take the line's values; those not named keep theirs. */
static void apply_params(const struct param_set *set)
{
	__atomic_store_n(&panic_on_warn, 0, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < set->nr_params; i++) {
		const struct param *param = &set->params[i];
		const struct kernel_param *kp = find_param(param->name);

		if (kp)
			kp->ops->set(param->value, kp);
	}
}

static int parse(const char *cmdline, bool strict)
{
	struct param_set fresh = { 0 };
	int ret;

	if (!cmdline)
		return -EINVAL;
	if (strlen(cmdline) > COMMAND_LINE_SIZE - 1) {
		pr_err("kfsim: kernel command line longer than %d bytes\n", COMMAND_LINE_SIZE - 1);
		return -E2BIG;
	}
	ret = parse_into(&fresh, cmdline, strict);
	if (ret) {
		param_set_free(&fresh);
		return ret;
	}
	apply_console(&fresh);
	pthread_mutex_lock(&boot_lock);
	param_set_free(&boot);
	boot = fresh;
	pthread_mutex_unlock(&boot_lock);
	apply_params(&boot);
	if (boot.unknown)
		pr_notice("Unknown kernel command line parameters \"%s\", will be passed to user space.\n",
			  boot.unknown);
	return 0;
}

int kfsim_cmdline_parse(const char *cmdline)
{
	return parse(cmdline, false);
}

int kfsim_cmdline_parse_strict(const char *cmdline)
{
	return parse(cmdline, true);
}

void kfsim_cmdline_reset(void)
{
	pthread_mutex_lock(&boot_lock);
	param_set_free(&boot);
	pthread_mutex_unlock(&boot_lock);
	__atomic_store_n(&panic_on_warn, 0, __ATOMIC_RELAXED);
	kfsim_console_ignore_loglevel_set(false);
}

/* The last value given for @name; *found tells a bare word (NULL value) from no word. */
static const char *lookup(const char *name, bool *found)
{
	const char *value = NULL;

	*found = false;
	for (unsigned int i = 0; i < boot.nr_params; i++) {
		if (name_is(boot.params[i].name, name)) {
			value = boot.params[i].value;	/* the last one wins */
			*found = true;
		}
	}
	return value;
}

const char *kfsim_cmdline_get(const char *name)
{
	const char *value;
	bool found;

	pthread_mutex_lock(&boot_lock);
	value = lookup(name, &found);
	pthread_mutex_unlock(&boot_lock);
	return found ? (value ? value : "") : NULL;
}

void kfsim_cmdline_apply_module_param(const char *module, const struct kernel_param *param)
{
	char name[256];
	char *value = NULL;
	const char *v;
	bool found;

	if ((size_t)snprintf(name, sizeof(name), "%s.%s", module, param->name) >= sizeof(name))
		return;
	pthread_mutex_lock(&boot_lock);
	v = lookup(name, &found);
	if (found && v)
		value = strdup(v);
	pthread_mutex_unlock(&boot_lock);
	if (found && check_param_value(param, value) == 0)
		param->ops->set(value, param);
	free(value);
}

bool kfsim_cmdline_has_option(const char *name, const char *option)
{
	const char *list = kfsim_cmdline_get(name);

	return list && *option && parse_option_str(list, option);
}

const char *kfsim_cmdline_text(void)
{
	return boot.text ? boot.text : "";
}

const char *kfsim_cmdline_unknown(void)
{
	return boot.unknown ? boot.unknown : "";
}
