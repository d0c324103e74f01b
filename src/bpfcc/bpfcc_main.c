// SPDX-License-Identifier: MIT
/*
 * kfsim-bpf-cc -o OUT [-I DIR]... [-D NAME[=V]]... [-O0|-O1|-O2|-Og] [--sanitize address] PROG.c
 *
 * Its command line is a spec of the shared option parser (src/cliopts/cliopts.h), so its
 * usage errors read as every kfsim program's: one line naming the option, exit status 2.
 *
 * Builds a BPF C file, unchanged, into a native program that runs every SEC() program under
 * kfsim's checked kfuncs (see src/bpfcc/runtime/bpfrt_main.c for what the program does):
 *
 *   1. clang -g -O2 -target bpf: the object the kernel would load, and its BTF (clang-19 or
 *      clang-16, found at configure time: they emit the __kptr type tags clang 14 drops);
 *   2. refuse kfuncs and helpers kfsim does not have (bpfcc_check.c), naming file and line;
 *   3. generate the type-id map and the tables from the BTF (bpfcc_gen.c);
 *   4. gcc -g: the same source, natively, against include/bpf-compat (vmlinux.h from the
 *      running kernel unless an -I directory has one), linked with the runner and libkfsim.
 *
 * Intermediate files go to OUT.kfsim/ (kept: the debugger reads the generated headers there).
 * Exit status: 0 built, 1 the source or the build failed (the message says why), 2 bad usage.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <kfsim/kernel.h>
#include "bpfcc.h"
#include "bpfcc_paths.h"
#include "cliopts/cliopts.h"
#include "core/child_run.h"

#define MAX_ARGS 256

struct bpfcc_opts {
	const char *out;
	const char *source;
	const char *includes[64];
	int nr_includes;
	const char *defines[64];
	int nr_defines;
	const char *opt_level;
	unsigned int opt_level_nr;	/* -O's index in opt_levels[] */
	unsigned int mcpu_nr;		/* --mcpu's index in mcpus[]: 0 is clang's default */
	bool sanitize;
	bool verbose;
	bool instrument; /* global subprograms: their entry is checked (bpfrt_subprogs.c) */
};

/* clang's BPF instruction sets: v4 (6.6) has sdiv/smod, movsx, ldsx, bswap and gotol */
static const char *const mcpus[] = { "default", "v1", "v2", "v3", "v4", NULL };

/* Where the compat headers, kfsim's headers and the libraries are: the build tree or the prefix. */
struct bpfcc_paths {
	char compat[PATH_MAX];
	char kfsim_include[PATH_MAX];
	char kfsim_include_gen[PATH_MAX];
	char libdir[PATH_MAX];
	char rtdir[PATH_MAX];
};

static int find_paths(struct bpfcc_paths *p)
{
	char exe[PATH_MAX], prefix[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (len <= 0)
		return -errno;
	exe[len] = '\0';
	if (!strcmp(dirname(exe), KFSIM_BPFCC_BUILD_BINDIR)) {
		snprintf(p->compat, sizeof(p->compat), "%s", KFSIM_BPFCC_BUILD_COMPAT);
		snprintf(p->kfsim_include, sizeof(p->kfsim_include), "%s",
			 KFSIM_BPFCC_BUILD_INCLUDE);
		snprintf(p->kfsim_include_gen, sizeof(p->kfsim_include_gen), "%s",
			 KFSIM_BPFCC_BUILD_INCLUDE_GEN);
		snprintf(p->libdir, sizeof(p->libdir), "%s", KFSIM_BPFCC_BUILD_LIBDIR);
		snprintf(p->rtdir, sizeof(p->rtdir), "%s", KFSIM_BPFCC_BUILD_RTDIR);
		return 0;
	}
	/* exe is now the bin/ directory; the prefix is its parent */
	snprintf(prefix, sizeof(prefix), "%s", dirname(exe));
	snprintf(p->compat, sizeof(p->compat), "%s/%s/bpf-compat", prefix, KFSIM_BPFCC_INCLUDEDIR);
	snprintf(p->kfsim_include, sizeof(p->kfsim_include), "%s/%s", prefix,
		 KFSIM_BPFCC_INCLUDEDIR);
	snprintf(p->kfsim_include_gen, sizeof(p->kfsim_include_gen), "%s", p->kfsim_include);
	snprintf(p->libdir, sizeof(p->libdir), "%s/%s", prefix, KFSIM_BPFCC_LIBDIR);
	snprintf(p->rtdir, sizeof(p->rtdir), "%s", p->libdir);
	return 0;
}

/* Run @argv; its output goes to ours.  Return: its exit status, 127 or -1 when it did not run. */
static int run(char *const argv[], bool verbose)
{
	if (verbose) {
		for (int i = 0; argv[i]; i++)
			fprintf(stderr, "%s%s", i ? " " : "+ ", argv[i]);
		fputc('\n', stderr);
	}
	return kfsim_child_exec_status("kfsim-bpf-cc", argv);
}

static bool has_vmlinux_h(const struct bpfcc_opts *o)
{
	char path[PATH_MAX];

	for (int i = 0; i < o->nr_includes; i++) {
		snprintf(path, sizeof(path), "%s/vmlinux.h", o->includes[i]);
		if (!access(path, R_OK))
			return true;
	}
	return false;
}

/* FNV-1a over the running kernel's BTF: the key of its vmlinux.h in the cache. */
static int btf_key(unsigned long long *key)
{
	unsigned char buf[65536];
	unsigned long long h = 0xcbf29ce484222325ull;
	FILE *f = fopen("/sys/kernel/btf/vmlinux", "r");
	size_t n;

	if (!f)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		for (size_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
	fclose(f);
	*key = h;
	return 0;
}

/*
 * The cached vmlinux.h for this BTF: $XDG_CACHE_HOME/kfsim (or ~/.cache/kfsim), named after the
 * BTF's content, dumped by bpftool when missing.  What does not change between edits of a
 * program is not redone: the dump takes most of a second, the key a few milliseconds.
 */
static int cached_vmlinux_h(char *path, size_t size)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char cache[PATH_MAX], cmd[2 * PATH_MAX + 128];
	unsigned long long key = 0;
	int err = btf_key(&key);

	if (err)
		return err;
	if (xdg && *xdg)
		snprintf(cache, sizeof(cache), "%s/kfsim", xdg);
	else if (home && *home)
		snprintf(cache, sizeof(cache), "%s/.cache/kfsim", home);
	else
		return -ENOENT;
	snprintf(path, size, "%s/vmlinux-%016llx.h", cache, key);
	if (!access(path, R_OK))
		return 0;
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s' && bpftool btf dump file /sys/kernel/btf/vmlinux format c > "
		 "'%s.%d' && mv '%s.%d' '%s'",
		 cache, path, (int)getpid(), path, (int)getpid(), path);
	return system(cmd) ? -EIO : 0;
}

/* vmlinux.h of the running kernel into @dir (kept between builds), unless -I gives one. */
static int make_vmlinux_h(const struct bpfcc_opts *o, const char *dir)
{
	char path[PATH_MAX], cached[PATH_MAX], cmd[PATH_MAX + 128];

	if (has_vmlinux_h(o))
		return 0;
	snprintf(path, sizeof(path), "%s/vmlinux.h", dir);
	if (!access(path, R_OK))
		return 0;
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "kfsim-bpf-cc: no vmlinux.h: pass -I DIR with one, or build where "
				"/sys/kernel/btf/vmlinux exists (bpftool dumps it)\n");
		return -ENOENT;
	}
	if (!cached_vmlinux_h(cached, sizeof(cached)) && !symlink(cached, path))
		return 0;
	/* no cache to write to: dump into @dir */
	snprintf(cmd, sizeof(cmd),
		 "bpftool btf dump file /sys/kernel/btf/vmlinux format c > '%s.tmp' && "
		 "mv '%s.tmp' '%s'",
		 path, path, path);
	if (system(cmd)) {
		fprintf(stderr, "kfsim-bpf-cc: bpftool could not dump vmlinux.h (Debian package "
				"bpftool)\n");
		return -EIO;
	}
	return 0;
}

static void add(char **argv, int *argc, const char *arg)
{
	if (*argc < MAX_ARGS - 1)
		argv[(*argc)++] = (char *)arg;
	argv[*argc] = NULL;
}

static void add_user_flags(char **argv, int *argc, const struct bpfcc_opts *o,
			   char (*buf)[PATH_MAX])
{
	for (int i = 0; i < o->nr_defines; i++) {
		snprintf(buf[i], PATH_MAX, "-D%s", o->defines[i]);
		add(argv, argc, buf[i]);
	}
	for (int i = 0; i < o->nr_includes; i++) {
		snprintf(buf[64 + i], PATH_MAX, "-I%s", o->includes[i]);
		add(argv, argc, buf[64 + i]);
	}
}

static int compile_bpf(const struct bpfcc_opts *o, const struct bpfcc_paths *p,
		       const struct bpfcc_unit *u, const char *dir)
{
	static char buf[128][PATH_MAX];
	char work_inc[PATH_MAX + 2], compat[PATH_MAX + 2], kinc[PATH_MAX + 2], mcpu[16];
	char loops[PATH_MAX + 32];
	char *argv[MAX_ARGS];
	int argc = 0;

	snprintf(work_inc, sizeof(work_inc), "-I%s", dir);
	snprintf(compat, sizeof(compat), "-I%s", p->compat);
	snprintf(kinc, sizeof(kinc), "-I%s", p->kfsim_include);
	snprintf(loops, sizeof(loops), "%s/kfsim_iter_loops.h", p->compat);
	add(argv, &argc, KFSIM_BPFCC_CLANG);
	add(argv, &argc, "-g");
	add(argv, &argc, "-O2");
	add(argv, &argc, "-target");
	add(argv, &argc, "bpf");
	add(argv, &argc, "-D__TARGET_ARCH_x86");
	add(argv, &argc, "-Wno-compare-distinct-pointer-types");
	if (o->mcpu_nr) {
		snprintf(mcpu, sizeof(mcpu), "-mcpu=%s", mcpus[o->mcpu_nr]);
		add(argv, &argc, mcpu);
	}
	add_user_flags(argv, &argc, o, buf);
	add(argv, &argc, work_inc);
	add(argv, &argc, compat);
	add(argv, &argc, kinc);
	if (KFSIM_BPFCC_SYS_INCLUDE[0]) { /* <asm/types.h> for <linux/bpf.h>, searched last */
		add(argv, &argc, "-idirafter");
		add(argv, &argc, KFSIM_BPFCC_SYS_INCLUDE);
	}
	/* bpf_for() and the like, which this machine's libbpf lacks (kfsim_iter_loops.h) */
	add(argv, &argc, "-include");
	add(argv, &argc, loops);
	add(argv, &argc, "-c");
	add(argv, &argc, u->source);
	add(argv, &argc, "-o");
	add(argv, &argc, u->object);
	if (run(argv, o->verbose)) {
		fprintf(stderr,
			"kfsim-bpf-cc: %s does not compile for BPF (clang -target bpf: "
			"messages above)\n",
			u->display);
		return -EINVAL;
	}
	return 0;
}

static int write_wrapper(const struct bpfcc_unit *u, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f,
		"/* Generated by kfsim-bpf-cc: %s, compiled natively. */\n"
		"#include \"kfsim_bpfcc_types.h\"\n#include \"%s\"\n"
		"#include \"kfsim_bpfcc_tables.h\"\n",
		u->display, u->source);
	return fclose(f) ? -errno : 0;
}

static int compile_native(const struct bpfcc_opts *o, const struct bpfcc_paths *p,
			  const struct bpfcc_unit *u, const char *dir, const char *pass1)
{
	static char buf[128][PATH_MAX];
	char wrapper[PATH_MAX], incs[5][PATH_MAX + 2], rpath[PATH_MAX + 16], libdir[PATH_MAX + 2];
	char rtlib[PATH_MAX + 32], opt[8], loops[PATH_MAX + 32];
	char *argv[MAX_ARGS];
	int argc = 0, err;

	snprintf(wrapper, sizeof(wrapper), "%s/native.c", dir);
	err = write_wrapper(u, wrapper);
	if (err)
		return err;
	snprintf(incs[0], sizeof(incs[0]), "-I%s/native", p->compat);
	snprintf(incs[1], sizeof(incs[1]), "-I%s", dir);
	snprintf(incs[2], sizeof(incs[2]), "-I%s", p->compat);
	snprintf(incs[3], sizeof(incs[3]), "-I%s", p->kfsim_include);
	snprintf(incs[4], sizeof(incs[4]), "-I%s", p->kfsim_include_gen);
	snprintf(loops, sizeof(loops), "%s/kfsim_iter_loops.h", p->compat);
	snprintf(opt, sizeof(opt), "-O%s", pass1 ? "0" : o->opt_level);
	snprintf(libdir, sizeof(libdir), "-L%s", p->libdir);
	snprintf(rpath, sizeof(rpath), "-Wl,-rpath,%s", p->libdir);
	snprintf(rtlib, sizeof(rtlib), "%s/libkfsim_bpfrt.a", p->rtdir);
	add(argv, &argc, "gcc");
	add(argv, &argc, "-std=gnu11");
	/* DWARF 4: binutils 2.40's addr2line misnames the files of gcc 12's DWARF 5 here */
	add(argv, &argc, "-gdwarf-4");
	add(argv, &argc, opt);
	add(argv, &argc, "-fno-omit-frame-pointer");
	add(argv, &argc, "-fno-strict-aliasing"); /* as the kernel and BPF programs assume */
	/*
	 * gcc -O2 makes a path that divides by a known zero (or loads through a known NULL) a
	 * ud2 trap; BPF divides there (x / 0 = 0, bpfrt_divide.c), and the verifier names the
	 * NULL load (the explorer's fault handler): keep both paths as written.
	 */
	add(argv, &argc, "-fno-isolate-erroneous-paths-dereference");
	add(argv, &argc, "-D__TARGET_ARCH_x86");
	add(argv, &argc, "-DKFSIM_BPF_NATIVE=1");
	/* clang's BPF attributes (btf_decl_tag, btf_type_tag, preserve_access_index) */
	add(argv, &argc, "-Wno-attributes");
	add(argv, &argc, "-Wno-unknown-pragmas");
	add(argv, &argc, incs[0]);
	add_user_flags(argv, &argc, o, buf);
	for (int i = 1; i < 5; i++)
		add(argv, &argc, incs[i]);
	if (o->instrument)
		add(argv, &argc, "-finstrument-functions");
	if (o->sanitize) {
		add(argv, &argc, "-fsanitize=address,undefined");
		add(argv, &argc, "-fno-sanitize-recover=all"); /* a report stops the program run */
		add(argv, &argc, "-fno-sanitize=alignment");   /* BPF structs are packed as BPF's */
		/*
		 * What C leaves undefined and BPF's instructions define, as the verifier accepts
		 * it: a division by zero (bpfrt_divide.c gives BPF's result), a shift by the
		 * width or more (the count masked), a signed overflow (two's complement).
		 */
		add(argv, &argc, "-fno-sanitize=integer-divide-by-zero,shift,signed-integer-overflow");
		/*
		 * A load through a maybe-NULL pointer is a verifier rule ('ptr_or_null_'), which the
		 * exploring mode reports from its own fault handler: UBSan's null check would stop
		 * the run first and hide the kernel's message.
		 */
		add(argv, &argc, "-fno-sanitize=null");
		/* redzones around globals would move a section's variables off the BPF layout */
		add(argv, &argc, "--param=asan-globals=0");
	}
	/* bpf_for() and bpf_repeat() natively too: the runtime's iterator (bpfrt_iter.c) */
	add(argv, &argc, "-include");
	add(argv, &argc, loops);
	add(argv, &argc, wrapper);
	if (pass1) { /* only to learn which variable each SEC() use is */
		add(argv, &argc, "-c");
		add(argv, &argc, "-w");
		add(argv, &argc, "-o");
		add(argv, &argc, pass1);
		if (!run(argv, o->verbose))
			return 0;
		fprintf(stderr,
			"kfsim-bpf-cc: %s does not compile natively (gcc: messages above)\n",
			u->display);
		return -EINVAL;
	}
	add(argv, &argc, "-o");
	add(argv, &argc, o->out);
	add(argv, &argc, "-Wl,--sort-section=name");
	/*
	 * Every symbol bound at start-up, once: lazily, each explored path's process (a fork that
	 * dies at the path's end) bound again each function first called on it, a symbol lookup
	 * and a copied page every time.
	 */
	add(argv, &argc, "-Wl,-z,now");
	add(argv, &argc, rtlib);
	add(argv, &argc, libdir);
	add(argv, &argc, rpath);
	add(argv, &argc, "-lkfsim");
	add(argv, &argc, "-lbpf");
	add(argv, &argc, "-lpthread");
	add(argv, &argc, "-lm");
	if (run(argv, o->verbose)) {
		fprintf(stderr, "kfsim-bpf-cc: %s: the native build failed (gcc: messages above)\n",
			u->display);
		return -EINVAL;
	}
	return 0;
}

/* -I DIR and -D NAME[=VALUE] repeat, as a compiler's do; each list holds 64 */
static int add_word(const char **list, int *nr, const char *value, char *why, size_t why_size)
{
	if (*nr == 64) {
		snprintf(why, why_size, "given more than 64 times");
		return -EINVAL;
	}
	list[(*nr)++] = value;
	return 0;
}

static int add_include(void *opts, const char *value, char *why, size_t why_size)
{
	struct bpfcc_opts *o = opts;

	return add_word(o->includes, &o->nr_includes, value, why, why_size);
}

static int add_define(void *opts, const char *value, char *why, size_t why_size)
{
	struct bpfcc_opts *o = opts;

	return add_word(o->defines, &o->nr_defines, value, why, why_size);
}

static const char *const opt_levels[] = { "0", "1", "2", "g", NULL };

static int set_sanitize(void *opts, const char *value, char *why, size_t why_size)
{
	if (strcmp(value, "address")) {
		snprintf(why, why_size, "expected address");
		return -EINVAL;
	}
	((struct bpfcc_opts *)opts)->sanitize = true;
	return 0;
}

#define O(field) offsetof(struct bpfcc_opts, field)

static const struct kfsim_opt bpfcc_opts_table[] = {
	{ "output", KFSIM_OPT_STRING, O(out), "OUT", "the native program to write",
	  .short_name = 'o', .required = 1 },
	{ "include", KFSIM_OPT_CALL, 0, "DIR", "a directory for both compilers' #include (repeatable)",
	  .call = add_include, .short_name = 'I' },
	{ "define", KFSIM_OPT_CALL, 0, "NAME[=VALUE]",
	  "a macro for both compilers (repeatable)", .call = add_define, .short_name = 'D' },
	{ "optimize", KFSIM_OPT_CHOICE, O(opt_level_nr), "LEVEL",
	  "the native build's optimisation: 0, 1, 2 or g", .choices = opt_levels,
	  .short_name = 'O' },
	{ "mcpu", KFSIM_OPT_CHOICE, O(mcpu_nr), "CPU",
	  "the BPF build's instruction set, as clang's -mcpu: v1, v2, v3 or v4 (the selftests' "
	  "cpuv4 programs: signed division, sign extension)", .choices = mcpus },
	{ "sanitize", KFSIM_OPT_CALL, 0, "address",
	  "build the native program with ASan and UBSan", .call = set_sanitize },
	{ "verbose", KFSIM_OPT_FLAG, O(verbose), NULL, "print each compiler command line",
	  .short_name = 'v' },
};

static void bpfcc_defaults(void *opts, unsigned int verb)
{
	struct bpfcc_opts *o = opts;

	o->opt_level_nr = 1; /* -O1 */
	o->sanitize = KFSIM_BPFCC_SANITIZE;
}

static int bpfcc_run(void *opts, const struct kfsim_cli_args *args);

static const struct kfsim_cli_spec bpfcc_spec = {
	.name = "bpf-cc",
	.usage = "kfsim-bpf-cc -o OUT [-I DIR]... [-D NAME[=VALUE]]... [-O0|-O1|-O2|-Og]\n"
		 "                    [--mcpu v1|v2|v3|v4] [--sanitize address] [-v] PROG.c",
	.about = "Build a BPF C file, unchanged, into a native program that runs each SEC() "
		 "program\nunder kfsim and checks it against its __failure/__msg/__success/__retval "
		 "annotations.\nRun OUT --help for what the program does.",
	.opts = bpfcc_opts_table,
	.nr_opts = ARRAY_SIZE(bpfcc_opts_table),
	.defaults = bpfcc_defaults,
	.opts_size = sizeof(struct bpfcc_opts),
	.operands = "PROG.c",
	.min_positional = 1,
	.max_positional = 1,
	.options_anywhere = true, /* "kfsim-bpf-cc prog.c -o prog", as compilers take options */
	.notes = "Exit status: 0 ok; 1 a file that did not build or check; 2 a bad command line.\n",
	.run = bpfcc_run,
};

int main(int argc, char **argv)
{
	kfsim_cli_program("kfsim-bpf-cc");
	return kfsim_cli_run(&bpfcc_spec, argc, argv);
}

static int bpfcc_run(void *opts, const struct kfsim_cli_args *args)
{
	struct bpfcc_opts o = *(struct bpfcc_opts *)opts;
	char source[PATH_MAX], dir[PATH_MAX], object[PATH_MAX + 16], name[256];
	char order[PATH_MAX + 32], pass1[PATH_MAX + 16];
	struct bpfcc_paths paths;
	struct bpfcc_unit u;
	struct btf *btf;
	int bad;

	o.source = args->positional[0];
	o.opt_level = opt_levels[o.opt_level_nr];
	if (strlen(o.source) > PATH_MAX / 4 || strlen(o.out) > PATH_MAX / 4) {
		fprintf(stderr, "kfsim-bpf-cc: path longer than %d bytes\n", PATH_MAX / 4);
		return 2;
	}
	if (!realpath(o.source, source)) {
		fprintf(stderr, "kfsim-bpf-cc: %s: %s\n", o.source, strerror(errno));
		return 1;
	}
	/*
	 * Both compilers read PROG.c by name: a directory would be taken for a linker input, and
	 * a FIFO nobody writes to would block them for ever; only a regular file is a source.
	 */
	{
		struct stat st = { 0 };

		if (stat(source, &st) || !S_ISREG(st.st_mode)) {
			fprintf(stderr, "kfsim-bpf-cc: %s: %s\n", o.source,
				S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
			return 1;
		}
	}
	if (find_paths(&paths)) {
		fprintf(stderr, "kfsim-bpf-cc: cannot find my own executable\n");
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s.kfsim", o.out);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "kfsim-bpf-cc: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	snprintf(name, sizeof(name), "%s", basename(source));
	if (strrchr(name, '.'))
		*strrchr(name, '.') = '\0';
	if (strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".bpf")) /* prog.bpf.c */
		name[strlen(name) - 4] = '\0';
	snprintf(object, sizeof(object), "%s/%s.bpf.o", dir, name);
	u = (struct bpfcc_unit){source, o.source, object, name, NULL};
	if (make_vmlinux_h(&o, dir) || compile_bpf(&o, &paths, &u, dir))
		return 1;
	u.bo = bpf_object__open_file(object, NULL);
	if (!u.bo) {
		/* not the BTF: libbpf refused the object itself (a struct_ops map, an arena) */
		fprintf(stderr,
			"kfsim-bpf-cc: %s: libbpf cannot open the BPF object: %s (libbpf's "
			"messages above)\n",
			o.source, strerror(errno));
		return 1;
	}
	btf = bpf_object__btf(u.bo);
	if (!btf) {
		fprintf(stderr,
			"kfsim-bpf-cc: %s: libbpf cannot read the BPF object's BTF (clang -g)\n",
			o.source);
		return 1;
	}
	bad = bpfcc_check(&u);
	o.instrument = bpfcc_nr_global_subprogs(&u, btf) > 0;
	if (!bad && bpfcc_generate(&u, btf, dir))
		bad = 1;
	snprintf(order, sizeof(order), "%s/kfsim_bpfcc_order.h", dir);
	snprintf(pass1, sizeof(pass1), "%s/pass1.o", dir);
	unlink(order);
	/* the first native build only tells the order of a private(A) section's variables */
	if (!bad && bpfcc_needs_order(btf) && compile_native(&o, &paths, &u, dir, pass1))
		bad = 1;
	if (!bad && bpfcc_needs_order(btf) && bpfcc_write_order(btf, pass1, dir)) {
		fprintf(stderr, "kfsim-bpf-cc: cannot read the first native build (objdump -t)\n");
		bad = 1;
	}
	if (!bad && compile_native(&o, &paths, &u, dir, NULL))
		bad = 1;
	bpf_object__close(u.bo);
	return bad ? 1 : 0;
}
