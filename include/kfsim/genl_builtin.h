/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_GENL_BUILTIN_H
#define KFSIM_GENL_BUILTIN_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The generic netlink families kfsim has built in, as one table (src/standin/genl_builtin.c):
 * `kfsim nl`, `kfsim kernel` and the LD_PRELOAD shim (libkfsim-netlink.so) all build their
 * namespace from it, and `kfsim nl --help` lists its names.  Adding a family is one row there;
 * neither the netlink core nor a command names it.
 */
#include <stddef.h>
#include <kfsim/net_namespace.h>

/**
 * struct kfsim_genl_builtin - one built-in family
 * @name: the family's name (GENL_NAMSIZ), as nlctrl resolves it
 * @note: a few words for help texts (what the in-process family serves), or NULL
 * @init: register the family, and attach what it serves, in @net; 0 or -errno.  What it
 *        allocates must be freed by the namespace's teardown (the family's destroy hook or a
 *        struct kfsim_pernet_ops exit).
 */
struct kfsim_genl_builtin {
	const char *name;
	const char *note;
	int (*init)(struct kfsim_net *net);
};

/** kfsim_genl_builtins - the table, in registration order (family ids follow it). */
extern const struct kfsim_genl_builtin kfsim_genl_builtins[];
/** kfsim_genl_nr_builtins - rows in kfsim_genl_builtins. */
extern const size_t kfsim_genl_nr_builtins;

/**
 * kfsim_net_add_families() - run @table's @nr inits on @net, in order
 * @err: receives "cannot register the NAME family" on failure; @err_size: its size
 *
 * Return: 0, or the first init's error (the families registered before it stay: destroy @net).
 */
int kfsim_net_add_families(struct kfsim_net *net, const struct kfsim_genl_builtin *table,
			   size_t nr, char *err, size_t err_size);

/**
 * kfsim_net_create_builtin() - a namespace with every built-in family (kfsim_genl_builtins)
 *
 * Return: the namespace (kfsim_net_destroy()), or an ERR_PTR() with @err saying why.
 */
struct kfsim_net *kfsim_net_create_builtin(char *err, size_t err_size);

#pragma GCC visibility pop
#endif /* KFSIM_GENL_BUILTIN_H */
