// SPDX-License-Identifier: MIT
/*
 * kfsim exec [--server PATH] [--] PROGRAM [ARGS...]
 *
 * Run an unmodified program with its generic netlink sockets on kfsim's kernel: the program
 * gets LD_PRELOAD=libkfsim-netlink.so (found beside this kfsim, or in the installed library
 * folder) and, with --server, KFSIM_KERNEL=PATH (a `kfsim kernel --listen PATH`); without it
 * the shim starts a kernel of its own inside the program.  The program runs in a network
 * namespace of its own (cli_exec_netns.c), so what the shim cannot see (NETLINK_ROUTE, a raw
 * syscall, a child without LD_PRELOAD) never reaches the machine's interfaces: what the program
 * does with its sockets is in docs/own-tools.md.
 */
#define _GNU_SOURCE 1 /* asprintf */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <kfsim/kernel.h>
#include <kfsim/nl_remote.h>
#include "cli.h"
#include "cli_exec_netns.h"

#define CMD "exec"
#define SHIM_NAME "libkfsim-netlink.so"

struct exec_opts {
	const char *server;
	const char *server_owner;
};

static const struct kfsim_opt exec_opts_table[] = {
	{ "server", KFSIM_OPT_STRING, offsetof(struct exec_opts, server), "PATH",
	  "the kernel of 'kfsim kernel --listen PATH' (persistent); without\n"
	  "it, a kernel of the program's own with the built-in devices" },
	{ "server-owner", KFSIM_OPT_STRING, offsetof(struct exec_opts, server_owner), "USER",
	  "trust a server run by USER (a name or uid); by default only\n"
	  "root's or your own is (KFSIM_KERNEL_OWNER)" },
};

static int exec_program(void *exec_opts, const struct kfsim_cli_args *args);

static const struct kfsim_cli_spec exec_spec = {
	.name = CMD,
	.usage = "kfsim exec [--server PATH] [--] PROGRAM [ARGS...]",
	.about = "Run PROGRAM with its generic netlink sockets on kfsim's kernel (the LD_PRELOAD\n"
		 "shim " SHIM_NAME "), in a network namespace of its own: every other socket\n"
		 "reaches a real kernel that has only a loopback device for it.  The first\n"
		 "argument that is not an option, or everything after '--', is the program and its\n"
		 "arguments, passed on untouched.",
	.opts = exec_opts_table,
	.nr_opts = ARRAY_SIZE(exec_opts_table),
	.notes = "Exit status: PROGRAM's (128 + N when signal N ended it); 1 when it cannot be\n"
		 "started; 2 bad command line.\n",
	.operands = "PROGRAM",
	.min_positional = 1,
	.max_positional = INT_MAX,
	.run = exec_program,
	.opts_size = sizeof(struct exec_opts),
};

/*
 * The name the shim will connect to must fit a UNIX socket address (sun_path, 108 bytes with
 * its NUL), or every socket() of the program fails with ENAMETOOLONG (measured: a relative
 * --server named from a working directory 133 bytes deep).  Said here, before the program runs.
 */
static int server_fits(const char *name)
{
	struct sockaddr_un sun;
	socklen_t len;
	int err = kfsim_nl_sockaddr(name, &sun, &len);

	if (err)
		return kfsim_cli_fail(CMD, err, "--server %s: %zu bytes, more than a UNIX socket "
				      "address holds (%zu): listen on a shorter path", name,
				      strlen(name), sizeof(sun.sun_path) - 1);
	return 0;
}

/* The shim: $KFSIM_NETLINK_SHIM, else beside this kfsim (build tree), else the library folder. */
static int find_shim(char *buf, size_t size)
{
	const char *env = getenv("KFSIM_NETLINK_SHIM");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		/*
		 * Absolute: the loader takes a name with a '/' in LD_PRELOAD from the working
		 * directory of each process it starts, and a child that went elsewhere (cd /tmp)
		 * loaded whatever another user put at that name there (measured: root's program,
		 * given KFSIM_NETLINK_SHIM=build/libkfsim-netlink.so, ran nobody's library from
		 * /tmp/x/build/; attacks.py "exec_env").  A bare name would be searched for in the
		 * library path instead; this one is found from where kfsim started, as meant.
		 */
		if (size < PATH_MAX)
			return -ENAMETOOLONG;
		if (!realpath(env, buf))
			return -errno;
		return access(buf, R_OK) ? -errno : 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -errno;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	if ((size_t)snprintf(buf, size, "%s/" SHIM_NAME, self) < size && !access(buf, R_OK))
		return 0;
	if ((size_t)snprintf(buf, size, "%s/../%s/" SHIM_NAME, self, KFSIM_INSTALL_LIBDIR) < size &&
	    !access(buf, R_OK))
		return 0;
	return -ENOENT;
}

#ifdef KFSIM_ASAN
/*
 * A sanitizer build's shim needs ASan's runtime loaded first in the program it goes into:
 * the one this kfsim runs on (from /proc/self/maps) goes in front of it.
 */
static void asan_runtime(char *buf, size_t size)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128];

	buf[0] = '\0';
	while (maps && fgets(line, sizeof(line), maps)) {
		char *path = strchr(line, '/');

		if (path && strstr(path, "/libasan.so")) {
			path[strcspn(path, "\n")] = '\0';
			snprintf(buf, size, "%s", path);
			break;
		}
	}
	if (maps)
		fclose(maps);
}
#endif

/* @name as execvp() finds it: a path with a '/' as is, else the first executable on $PATH. */
static int resolve_program(const char *name, char *buf, size_t size)
{
	const char *path = getenv("PATH"), *dir, *end;

	if (strchr(name, '/'))
		return (size_t)snprintf(buf, size, "%s", name) < size ? 0 : -ENAMETOOLONG;
	for (dir = path ? path : "/usr/local/bin:/usr/bin:/bin"; ; dir = end + 1) {
		end = strchrnul(dir, ':');
		if ((size_t)snprintf(buf, size, "%.*s%s%s", (int)(end - dir), dir,
				     end > dir ? "/" : "", name) < size && !access(buf, X_OK))
			return 0;
		if (!*end)
			return -ENOENT;
	}
}

/* The ELF class of @path (ELFCLASS32/64), whether it asks for a dynamic loader, or -errno. */
static int elf_kind(const char *path, bool *dynamic)
{
	Elf64_Ehdr eh64;
	unsigned char *ident = eh64.e_ident;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -ENOEXEC;

	*dynamic = false;
	if (fd < 0)
		return -errno;
	if (pread(fd, &eh64, sizeof(eh64), 0) < (ssize_t)sizeof(Elf32_Ehdr) ||
	    memcmp(ident, ELFMAG, SELFMAG))
		goto out;
	ret = ident[EI_CLASS];
	for (unsigned int i = 0; ; i++) {
		u32 type;
		off_t off;

		if (ret == ELFCLASS64) {
			if (i >= eh64.e_phnum)
				break;
			off = (off_t)(eh64.e_phoff + (u64)i * eh64.e_phentsize);
		} else {
			const Elf32_Ehdr *eh32 = (const Elf32_Ehdr *)&eh64;

			if (i >= eh32->e_phnum)
				break;
			off = (off_t)(eh32->e_phoff + (u32)i * eh32->e_phentsize);
		}
		if (pread(fd, &type, sizeof(type), off) != (ssize_t)sizeof(type))
			break;
		if (type == PT_INTERP) {
			*dynamic = true;
			break;
		}
	}
out:
	close(fd);
	return ret;
}

/*
 * Would the dynamic loader really put the shim into @program?  Not into a static ELF, not from
 * an LD_PRELOAD path it splits (on spaces and colons), not into a program of the other ELF
 * class, not into a set-id or file-capability program (secure-execution mode ignores it).
 * Otherwise the program's netlink sockets would silently reach the real kernel.  A script is
 * judged by its interpreter ("#!/usr/bin/env NAME" by NAME).
 */
static int check_preload_takes(const char *program, const char *shim, char *why, size_t size)
{
	char path[PATH_MAX], line[PATH_MAX];
	int depth, shim_class, class = -ENOEXEC, fd;
	bool dynamic, shim_dynamic;
	struct stat st;
	ssize_t n;

	if (strpbrk(shim, " \t\n:"))
		return snprintf(why, size, "the shim's path '%s' has a space or ':', which "
				"LD_PRELOAD cannot carry (set KFSIM_NETLINK_SHIM to a path without "
				"them)", shim), -EINVAL;
	shim_class = elf_kind(shim, &shim_dynamic);
	if (resolve_program(program, path, sizeof(path)))
		return 0;	/* execvp() says why */
	for (depth = 0; depth < 4; depth++) {
		class = elf_kind(path, &dynamic);
		if (class != -ENOEXEC)
			break;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, line, sizeof(line) - 1);
		if (fd >= 0)
			close(fd);
		if (n < 3 || line[0] != '#' || line[1] != '!')
			return 0;	/* not ours to judge */
		line[n] = '\0';
		char *interp = line + 2 + strspn(line + 2, " \t"), *arg;

		interp[strcspn(interp, " \t\n")] = '\0';
		arg = interp + strlen(interp) + 1;
		if (!strcmp(interp, "/usr/bin/env") && arg < line + n) {
			arg += strspn(arg, " \t");
			arg[strcspn(arg, " \t\n")] = '\0';
			if (resolve_program(arg, path, sizeof(path)))
				return 0;
		} else if ((size_t)snprintf(path, sizeof(path), "%s", interp) >= sizeof(path)) {
			return 0;
		}
	}
	if (class < 0)
		return 0;
	if (!dynamic)
		return snprintf(why, size, "%s is statically linked: the shim cannot go into it, "
				"and its netlink sockets would reach the real kernel", path), -ENOEXEC;
	if (shim_class > 0 && class != shim_class)
		return snprintf(why, size, "%s is a %d-bit program and the shim %d-bit: the loader "
				"would skip the shim", path, class == ELFCLASS64 ? 64 : 32,
				shim_class == ELFCLASS64 ? 64 : 32), -ENOEXEC;
	if (!stat(path, &st) && (((st.st_mode & S_ISUID) && st.st_uid != geteuid()) ||
				 ((st.st_mode & S_ISGID) && st.st_gid != getegid())))
		return snprintf(why, size, "%s is set-id: the loader ignores LD_PRELOAD for it",
				path), -EPERM;
	if (geteuid() != 0 && getxattr(path, "security.capability", NULL, 0) > 0)
		return snprintf(why, size, "%s has file capabilities: the loader ignores "
				"LD_PRELOAD for it", path), -EPERM;
	return 0;
}

/*
 * KFSIM_EXEC_NETNS: the network namespace just made, as DEV:INODE of its file.  The shim lets
 * what it does not simulate (NETLINK_ROUTE, interface ioctls) reach the kernel there alone:
 * anywhere else, the shim preloaded by hand, it would reach the machine's network.
 */
static int name_own_netns(void)
{
	char named[48];
	struct stat st;

	if (stat("/proc/self/ns/net", &st))
		return -errno;
	snprintf(named, sizeof(named), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	return setenv("KFSIM_EXEC_NETNS", named, 1) ? -errno : 0;
}

/* The program replaces kfsim, with its own arguments, its environment and network namespace. */
static int exec_program(void *exec_opts, const struct kfsim_cli_args *args)
{
	const struct exec_opts *o = exec_opts;
	const char *old;
	char shim[PATH_MAX], *preload;
	int ret;

	char why[PATH_MAX + 160];

	ret = find_shim(shim, sizeof(shim));
	if (ret)
		return kfsim_cli_fail(CMD, ret, "cannot find " SHIM_NAME " (set KFSIM_NETLINK_SHIM)");
	ret = check_preload_takes(args->positional[0], shim, why, sizeof(why));
	if (ret)
		return kfsim_cli_fail(CMD, ret, "refusing to run '%s': %s", args->positional[0], why);
	/* an abstract name lives in the machine's network namespace, out of the program's reach */
	if (o->server && o->server[0] == '@')
		return kfsim_cli_fail(CMD, -EINVAL, "refusing to run '%s': --server %s is an abstract "
				      "name, which the program's own network namespace cannot reach "
				      "(listen on a path)", args->positional[0], o->server);
	/* the program's process, in its namespaces, with those reached by descriptor closed */
	ret = kfsim_exec_own_netns(why, sizeof(why));
	if (ret)
		return kfsim_cli_fail(CMD, ret, "refusing to run '%s': %s", args->positional[0], why);
	ret = name_own_netns();
	if (ret)
		return kfsim_cli_fail(CMD, ret, "cannot name the program's network namespace");
	old = getenv("LD_PRELOAD");
#ifdef KFSIM_ASAN
	{
		char asan[PATH_MAX];

		asan_runtime(asan, sizeof(asan));
		if (asan[0] && (!old || !strstr(old, "libasan.so"))) {
			if (asprintf(&preload, "%s:%s%s%s", asan, shim, old && *old ? ":" : "",
				     old ? old : "") < 0)
				return kfsim_cli_fail(CMD, -ENOMEM, "no memory");
			/* the program itself is not instrumented: its leaks are not ours (the
			 * last setting of an option wins) */
			const char *opts = getenv("ASAN_OPTIONS");
			char *merged;

			if (asprintf(&merged, "%s%sdetect_leaks=0:verify_asan_link_order=0",
				     opts ? opts : "", opts && *opts ? ":" : "") >= 0) {
				setenv("ASAN_OPTIONS", merged, 1);
				free(merged);
			}
			goto have_preload;
		}
	}
#endif
	if (asprintf(&preload, "%s%s%s", shim, old && *old ? ":" : "", old ? old : "") < 0)
		return kfsim_cli_fail(CMD, -ENOMEM, "no memory");
#ifdef KFSIM_ASAN
have_preload:
#endif
	setenv("LD_PRELOAD", preload, 1);
	free(preload);
	if (o->server) {
		/*
		 * A relative name is taken from the working directory kfsim started in: the shim
		 * connects to a relative name from each process's own, and a child of the program
		 * that went into another user's directory would reach whatever listens there at
		 * that name (refused unless its owner is trusted, --server-owner, but never the
		 * server asked for)
		 */
		char cwd[PATH_MAX], *name = NULL;

		if (o->server[0] != '/' &&
		    (!getcwd(cwd, sizeof(cwd)) || asprintf(&name, "%s/%s", cwd, o->server) < 0))
			return kfsim_cli_fail(CMD, -errno, "cannot name --server %s from the "
					      "working directory", o->server);
		ret = server_fits(name ?: o->server);
		if (!ret)
			setenv("KFSIM_KERNEL", name ?: o->server, 1);
		free(name);
		if (ret)
			return ret;
	} else {
		unsetenv("KFSIM_KERNEL");
	}
	if (o->server_owner)
		setenv("KFSIM_KERNEL_OWNER", o->server_owner, 1);
	fflush(NULL);
	execvp(args->positional[0], args->positional);
	return kfsim_cli_fail(CMD, -errno, "cannot run '%s'", args->positional[0]);
}

const struct kfsim_cli_command kfsim_cmd_exec = {
	.name = "exec",
	.summary = "run a program with its netlink sockets on kfsim's kernel (LD_PRELOAD shim)",
	.spec = &exec_spec,
};
