// SPDX-License-Identifier: MIT
/*
 * kfsim [--cmdline "..."] [--kver X.Y] <command> [options]
 *
 * The global options set up the kernel environment (boot parameters, kernel version) before the
 * command runs, so every command sees the same environment a part's library user would set up.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include <kfsim/version.h>
#include "cli_grid.h"
#include "cli_tables.h"

static void print_help(FILE *out)
{
	fprintf(out, "Usage: kfsim [--cmdline \"PARAMS\"] [--kver X.Y[.Z]] <command> [options]\n"
		     "       kfsim --help | --version | <command> --help\n\n"
		     "Linux kernel internals in userspace, with kernel-faithful APIs.\n\n"
		     "Global options:\n"
		     "  --cmdline \"PARAMS\"  kernel command line (e.g. \"cgroup.memory=nobpf\")\n"
		     "  --kver X.Y[.Z]      kernel release whose behaviour to follow (default 6.3);\n"
		     "                      a release older than a command models is refused\n"
		     "  --help, -h          this help\n"
		     "  --version           print the kfsim version\n\n"
		     "Commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(kfsim_cli_commands); i++)
		fprintf(out, "  %-12s %s\n", kfsim_cli_commands[i]->name, kfsim_cli_commands[i]->summary);
	fprintf(out, "\nOldest release each command models (--kver below it is refused):\n");
	for (size_t i = 0; i < ARRAY_SIZE(kfsim_cli_commands); i++) {
		const struct kfsim_cli_command *cmd = kfsim_cli_commands[i];
		char kver[16];

		if (cmd->oldest_kver)
			fprintf(out, "  %-12s %s (%s)\n", cmd->name,
				kfsim_kver_format(cmd->oldest_kver, kver, sizeof(kver)),
				cmd->kver_why);
		else
			fprintf(out, "  %-12s any (no release check)\n", cmd->name);
	}
	fprintf(out, "\nExit status: 0 ok, 1 runtime failure, 2 bad command line.  With --json a\n"
		     "failure also prints {\"error\": {...}} on stdout.\n");
}

/* "--opt value" or "--opt=value"; returns the value and advances *i, or NULL if not @opt. */
static const char *global_value(int argc, char **argv, int *i, const char *opt, bool *missing)
{
	size_t len = strlen(opt);

	*missing = false;
	if (strncmp(argv[*i], opt, len))
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

static int apply_globals(int argc, char **argv, int *first_cmd, bool *kver_given)
{
	const char *value;
	bool missing;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if ((value = global_value(argc, argv, &i, "--cmdline", &missing))) {
			int ret = kfsim_cmdline_parse_strict(value);

			if (ret == -E2BIG)
				return kfsim_cli_usage(NULL, "invalid value for --cmdline: longer than %d bytes",
						       COMMAND_LINE_SIZE - 1);
			if (ret)
				return kfsim_cli_usage(NULL, "invalid value for --cmdline: malformed kernel command line '%s'",
						       value);
			continue;
		}
		if (missing)
			return kfsim_cli_usage(NULL, "option '--cmdline' needs a value");
		if ((value = global_value(argc, argv, &i, "--kver", &missing))) {
			unsigned int code;

			if (kfsim_kver_parse(value, &code) || kfsim_set_kernel_version(code))
				return kfsim_cli_usage(NULL, "invalid value '%s' for --kver: expected a kernel version such as 6.3 or 6.12.1 (4.0 or later)",
						       value);
			*kver_given = true;
			continue;
		}
		if (missing)
			return kfsim_cli_usage(NULL, "option '--kver' needs a value");
		break;
	}
	*first_cmd = i;
	return 0;
}

/* The program without the final stdout check; *@cmd names the command that ran, if any. */
static int run(int argc, char **argv, const char **cmd)
{
	bool kver_given = false;
	int cmd_index = 1, ret;

	if (argc > 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
			 !strcmp(argv[1], "--version")))
		return kfsim_cli_usage(NULL, "unexpected argument '%s' after '%s'", argv[2], argv[1]);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		print_help(stdout);
		return KFSIM_EXIT_OK;
	}
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		char kver[16];

		printf("kfsim %s (follows Linux %s by default)\n", KFSIM_VERSION_STRING,
		       kfsim_kver_format(KFSIM_KERNEL_VERSION_DEFAULT, kver, sizeof(kver)));
		return KFSIM_EXIT_OK;
	}
	/* The log goes to the ring, which commands show where it matters (the tour ends with it);
	 * echoing it too would break the one-line error rule.  loglevel= on --cmdline overrides. */
	kfsim_console_loglevel_set(0);
	/* a bad global option ("--kver x") is reported before the command's own --json is read */
	kfsim_cli_json_errors(kfsim_cli_wants_json(argc, argv));
	ret = apply_globals(argc, argv, &cmd_index, &kver_given);
	if (ret)
		return ret;
	if (cmd_index >= argc) {
		if (cmd_index > 1)
			return kfsim_cli_usage(NULL, "no command given (see 'kfsim --help')");
		print_help(stderr);
		return KFSIM_EXIT_USAGE;
	}
	if (argv[cmd_index][0] == '-')
		return kfsim_cli_usage(NULL, "unknown option '%s' (see 'kfsim --help')", argv[cmd_index]);
	for (size_t i = 0; i < ARRAY_SIZE(kfsim_cli_commands); i++) {
		const struct kfsim_cli_command *command = kfsim_cli_commands[i];

		if (strcmp(argv[cmd_index], command->name))
			continue;
		*cmd = command->name;
		kfsim_cli_json_errors(kfsim_cli_wants_json(argc - cmd_index, argv + cmd_index));
		if (kver_given && kfsim_kernel_version() < command->oldest_kver) {
			char asked[16], oldest[16];

			return kfsim_cli_usage(NULL, "--kver %s is older than the oldest release "
					       "'kfsim %s' models, %s (%s)",
					       kfsim_kver_format(kfsim_kernel_version(), asked,
								 sizeof(asked)),
					       command->name,
					       kfsim_kver_format(command->oldest_kver, oldest,
								 sizeof(oldest)),
					       command->kver_why);
		}
		/* what a grid slice records, for kfsim merge to replay (cli_grid.c) */
		kfsim_grid_cmdline(argc - cmd_index, argv + cmd_index);
		return kfsim_cli_run(command->spec, argc - cmd_index, argv + cmd_index);
	}
	return kfsim_cli_usage(NULL, "unknown command '%s' (see 'kfsim --help')", argv[cmd_index]);
}

/*
 * Output that never arrived is a failure: "kfsim tour --json > /dev/full" must not exit 0.
 * stdio reports a full disk or a closed pipe only at the flush, so flush here and check.
 */
static int check_stdout(const char *cmd, int ret)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return ret;
	if (ret == KFSIM_EXIT_OK)
		ret = kfsim_cli_fail(cmd, errno ? -errno : -EIO, "cannot write standard output");
	return ret;
}

int main(int argc, char **argv)
{
	const char *cmd = NULL;
	int ret = run(argc, argv, &cmd);

	return check_stdout(cmd, ret);
}
