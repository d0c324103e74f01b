/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_YNL_PARSE_INTERNAL_H
#define KFSIM_YNL_PARSE_INTERNAL_H

/*
 * What the files of the YNL spec reader share (ynl_yaml.c, ynl_types.c, ynl_parse.c,
 * ynl_resolve.c, ynl_cname.c) and nobody else sees: the parser state with its one longjmp exit,
 * the YAML helpers, the key tables' entries, lookups and C naming.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "core/problem_list.h"
#include "ynl_arena.h"
#include "ynl_spec.h"

struct ynl_parser {
	struct ynl_spec *spec;
	yaml_document_t doc;
	const char *path;
	char *err;
	size_t err_size;
	struct kfsim_problem_list problems;	/* in @err, one a line */
	bool out_of_memory;	/* the longjmp was for memory, not for a problem of the spec */
	jmp_buf fail_jump;
};

struct ynl_key {
	const char *name;
	enum ynl_proto min_proto;
	bool required;
};

#define KEY(n) { n, YNL_PROTO_GENETLINK, false }
#define REQ(n) { n, YNL_PROTO_GENETLINK, true }
#define KEY_C(n) { n, YNL_PROTO_GENETLINK_C, false }
#define KEY_L(n) { n, YNL_PROTO_GENETLINK_LEGACY, false }
#define KEY_R(n) { n, YNL_PROTO_NETLINK_RAW, false }
#define REQ_R(n) { n, YNL_PROTO_NETLINK_RAW, true }
#define KEYS_END { NULL, 0, false }

/*
 * A problem that stops the reading: the problems noted before it and this one are told, each on
 * its own line, and the load fails.
 */
void __attribute__((noreturn, format(printf, 3, 4)))
fail_at(struct ynl_parser *p, const yaml_node_t *node, const char *fmt, ...);
/*
 * A problem after which reading can go on without telling anything false (an unknown or
 * duplicate key is skipped, a bad name or flag is kept): noted, so that one run tells the user
 * all of them; the load fails at the end (ynl_parse_finish()).
 */
void __attribute__((format(printf, 3, 4)))
note_at(struct ynl_parser *p, const yaml_node_t *node, const char *fmt, ...);
/* Close the told problems ("and N more" when @err could not hold them all). */
void ynl_parse_finish(struct ynl_parser *p);
void __attribute__((format(printf, 3, 4)))
warn_at(struct ynl_parser *p, const yaml_node_t *node, const char *fmt, ...);
void *zalloc(struct ynl_parser *p, size_t size);
char *xprintf(struct ynl_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *c_case(struct ynl_parser *p, const char *name, bool upper);
const char *scalar_text(const yaml_node_t *node);
bool is_null(const yaml_node_t *node);
void expect_type(struct ynl_parser *p, yaml_node_t *node, yaml_node_type_t type,
		 const char *what);
const char *get_str(struct ynl_parser *p, yaml_node_t *node, const char *what);
const char *get_str_or_null(struct ynl_parser *p, yaml_node_t *node, const char *what);
const char *get_name(struct ynl_parser *p, yaml_node_t *node, const char *what);
bool parse_int_text(const char *text, int64_t *out);
int64_t get_int(struct ynl_parser *p, yaml_node_t *node, const char *what);
bool get_bool(struct ynl_parser *p, yaml_node_t *node, const char *what);
int seq_len(yaml_node_t *node);
yaml_node_t *seq_item(struct ynl_parser *p, yaml_node_t *node, int i);
void check_keys(struct ynl_parser *p, yaml_node_t *map, const struct ynl_key *keys,
		const char *what);
yaml_node_t *get(struct ynl_parser *p, yaml_node_t *map, const char *key);
bool same_node(struct ynl_parser *p, yaml_node_t *a, yaml_node_t *b);
yaml_node_t *get_key_node(struct ynl_parser *p, yaml_node_t *map, const char *key);
const char *opt_str(struct ynl_parser *p, yaml_node_t *map, const char *key,
		    const char *what);
enum ynl_type parse_type(struct ynl_parser *p, yaml_node_t *node, const char *what);
struct ynl_def *find_def(struct ynl_spec *spec, const char *name);
struct ynl_def *ref_def(struct ynl_parser *p, yaml_node_t *node, const char *what,
			int want);
void resolve_members(struct ynl_parser *p, yaml_node_t *list);
struct ynl_attr_set *ref_set(struct ynl_parser *p, yaml_node_t *node, const char *what);
struct ynl_attr *find_attr(const struct ynl_attr_set *set, const char *name);
void resolve_sub_message_attrs(struct ynl_parser *p, yaml_node_t *sets);
struct ynl_op *find_op(struct ynl_spec *spec, const char *name);
void compute_names(struct ynl_parser *p);

#endif /* KFSIM_YNL_PARSE_INTERNAL_H */
