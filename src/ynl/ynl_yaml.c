// SPDX-License-Identifier: MIT
/*
 * YNL spec reader, the YAML side: errors (problems noted, one longjmp out for those that stop
 * the reading), allocation in the spec's arena,
 * typed access to libyaml nodes, and the key check every mapping goes through.
 */
#include <limits.h>

#include "ynl_parse_internal.h"

/* -- errors and allocation ------------------------------------------------------------- */

static void __attribute__((format(printf, 3, 0)))
tell(struct ynl_parser *p, const yaml_node_t *node, const char *fmt, va_list ap)
{
	char where[PATH_MAX + 32]; /* the whole path: the list cuts its front if it must */

	snprintf(where, sizeof(where), "%s:%zu:%zu: ", p->path,
		 node ? node->start_mark.line + 1 : 1, node ? node->start_mark.column + 1 : 1);
	kfsim_problem_list_vadd_at(&p->problems, -EINVAL, where, fmt, ap);
}

void ynl_parse_finish(struct ynl_parser *p)
{
	kfsim_problem_list_finish(&p->problems);
}

void __attribute__((noreturn, format(printf, 3, 4)))
fail_at(struct ynl_parser *p, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tell(p, node, fmt, ap);
	va_end(ap);
	ynl_parse_finish(p);
	longjmp(p->fail_jump, 1);
}

void __attribute__((format(printf, 3, 4)))
note_at(struct ynl_parser *p, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tell(p, node, fmt, ap);
	va_end(ap);
}

/* Keep the first few warnings; the driver prints them. */
void __attribute__((format(printf, 3, 4)))
warn_at(struct ynl_parser *p, const yaml_node_t *node, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (p->spec->nr_warnings >= (int)(sizeof(p->spec->warnings) / sizeof(p->spec->warnings[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->spec->warnings[p->spec->nr_warnings++] =
		xprintf(p, "%s:%zu:%zu: warning: %s", p->path, node->start_mark.line + 1,
			node->start_mark.column + 1, msg);
}

void *zalloc(struct ynl_parser *p, size_t size)
{
	void *mem = ynl_arena_alloc(p->spec->arena, size);

	if (!mem) {
		snprintf(p->err, p->err_size, "%s: out of memory", p->path);
		p->out_of_memory = true;
		longjmp(p->fail_jump, 1);
	}
	return mem;
}

char *xprintf(struct ynl_parser *p, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	char *out;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	out = ynl_arena_strdup(p->spec->arena, buf);
	if (!out) {
		snprintf(p->err, p->err_size, "%s: out of memory", p->path);
		p->out_of_memory = true;
		longjmp(p->fail_jump, 1);
	}
	return out;
}

/* -- node access ------------------------------------------------------------------------- */

static yaml_node_t *node_at(struct ynl_parser *p, int idx)
{
	return yaml_document_get_node(&p->doc, idx);
}

const char *scalar_text(const yaml_node_t *node)
{
	return (const char *)node->data.scalar.value;
}

bool is_null(const yaml_node_t *node)
{
	const char *text;

	if (node->type != YAML_SCALAR_NODE || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	text = scalar_text(node);
	return !*text || !strcmp(text, "~") || !strcmp(text, "null") || !strcmp(text, "Null") ||
	       !strcmp(text, "NULL");
}

void expect_type(struct ynl_parser *p, yaml_node_t *node, yaml_node_type_t type,
		 const char *what)
{
	static const char *const names[] = {
		[YAML_SCALAR_NODE] = "a scalar", [YAML_SEQUENCE_NODE] = "a list",
		[YAML_MAPPING_NODE] = "a mapping",
	};

	if (node->type != type)
		fail_at(p, node, "%s must be %s", what, names[type]);
}

static const char *yaml11_non_string(const char *text);

/* YAML 1.1's booleans (PyYAML's resolver): each true form, then its false one */
static const char *const yaml11_bools[] = {
	"yes", "no", "Yes", "No", "YES", "NO", "true", "false", "True", "False", "TRUE", "FALSE",
	"on", "off", "On", "Off", "ON", "OFF",
};

const char *get_str(struct ynl_parser *p, yaml_node_t *node, const char *what)
{
	const char *kind;

	expect_type(p, node, YAML_SCALAR_NODE, what);
	if (node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    (kind = yaml11_non_string(scalar_text(node))))
		note_at(p, node, "%s must be a string; YAML reads '%s' as %s (quote it)", what,
			scalar_text(node), kind);
	return xprintf(p, "%s", scalar_text(node));
}

/* A null value gives NULL (enum-name: with no value means "anonymous"). */
const char *get_str_or_null(struct ynl_parser *p, yaml_node_t *node, const char *what)
{
	if (is_null(node))
		return NULL;
	return get_str(p, node, what);
}

/*
 * The longest name accepted: every name becomes part of C identifiers and strings (with the
 * family's and set's prefixes), which must stay whole in the emitters' buffers.
 */
#define YNL_NAME_MAX 128

/*
 * A name: what c_upper()/c_lower() turn into part of a C identifier, so letters, digits, '-',
 * '_' and (nftables' "set id") spaces only, 1..YNL_NAME_MAX characters.  A leading digit is
 * fine (rt-link's 6rd-prefix: identifiers get a prefix or a leading '_').
 */
const char *get_name(struct ynl_parser *p, yaml_node_t *node, const char *what)
{
	const char *name = get_str(p, node, what);
	size_t len = strlen(name);

	if (!len)
		fail_at(p, node, "%s must not be empty", what);
	if (len > YNL_NAME_MAX)
		fail_at(p, node, "%s is %zu characters long, more than %d", what, len, YNL_NAME_MAX);
	for (const char *c = name; *c; c++) {
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != ' ') {
			/*
			 * The character whole: a lone lead byte of a UTF-8 sequence would make the
			 * message invalid UTF-8 (spec_fuzz.py's reading of it failed).
			 */
			unsigned char lead = (unsigned char)*c;
			int n = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;

			for (int i = 1; i < n; i++)
				if (((unsigned char)c[i] & 0xc0) != 0x80)
					n = i; /* cut short (c[i] may be the NUL): what is there */
			/* kept as it is: the load fails, and later checks see the name it has */
			note_at(p, node, "%s '%s' cannot be part of a C identifier (character '%.*s')",
				what, name, n, c);
			break;
		}
	}
	/* 6.13-6.17's conntrack.yaml has 'labels mask': the C name takes '_' for the space
	 * (ynl-gen-c.py keeps the space, in C that is no identifier); the schemas of 6.18
	 * allow no space in a name any more */
	if (strchr(name, ' '))
		warn_at(p, node, "%s '%s' has a space: its C name has '_' there", what, name);
	return name;
}

/*
 * An integer as YAML 1.1 reads a plain scalar (PyYAML's SafeLoader, which the kernel's ynl-gen
 * loads specs with): an optional sign, then 0b binary, 0x hex, 0 octal, decimal, or decimal
 * with ":" base-60 groups, '_' anywhere after the first digit.  Values past 64 bits are not
 * taken (the checks after would refuse them anyway).
 */
bool parse_int_text(const char *text, int64_t *out)
{
	uint64_t mag = 0;
	bool neg = false, digit = false;
	int base = 10;

	if (*text == '-' || *text == '+') {
		neg = *text == '-';
		text++;
	}
	if (!isdigit((unsigned char)*text))
		return false;
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'b')) {
		base = text[1] == 'x' ? 16 : 2;
		text += 2;
	} else if (text[0] == '0' && text[1]) {
		base = 8;
		text++;
	}
	for (; *text && *text != ':'; text++) {
		int d;

		if (*text == '_')
			continue;
		d = isdigit((unsigned char)*text) ? *text - '0' :
		    isxdigit((unsigned char)*text) ? tolower((unsigned char)*text) - 'a' + 10 : 99;
		if (d >= base || mag > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return false;
		mag = mag * (uint64_t)base + (uint64_t)d;
		digit = true;
	}
	if (!digit && base != 8)
		return false;	/* "0x", "0b_" */
	/* base 60 after a decimal: groups of one or two digits, 0..59, no '_' ("1:30", "1:2:03") */
	while (*text == ':') {
		uint64_t group = 0;
		int n = 0;

		if (base != 10)
			return false;
		for (text++; n < 2 && isdigit((unsigned char)*text); n++, text++)
			group = group * 10 + (uint64_t)(*text - '0');
		if (!n || group > 59 || (*text && *text != ':') || mag > (UINT64_MAX - group) / 60)
			return false;
		mag = mag * 60 + group;
	}
	if (neg) {
		if (mag > (uint64_t)INT64_MAX + 1)
			return false;
		*out = (int64_t)(0 - mag);
	} else {
		*out = (int64_t)mag;	/* u64 values above s64 keep their bits */
	}
	return true;
}

/* @s at digits and '_' ([0-9_]*, @first: the first must be a digit): past them. */
static const char *skip_digits(const char *s, bool first)
{
	if (first && !isdigit((unsigned char)*s))
		return NULL;
	while (isdigit((unsigned char)*s) || *s == '_')
		s++;
	return s;
}

/*
 * PyYAML's float: [-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)?, \.[0-9][0-9_]*([eE][-+][0-9]+)?
 * (no sign), or base 60 [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*.
 */
static bool yaml11_float(const char *text)
{
	const char *s = text;
	bool sexagesimal = false;

	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return false;
		s = skip_digits(s, false);
	} else {
		if (*s == '-' || *s == '+')
			s++;
		s = skip_digits(s, true);
		if (!s)
			return false;
		while (*s == ':') {
			int n = 0;

			s++;
			while (isdigit((unsigned char)s[n]))
				n++;
			if (n < 1 || n > 2 || (n == 2 && s[0] > '5'))
				return false;
			s += n;
			sexagesimal = true;
		}
		if (*s != '.')
			return false;
		s = skip_digits(s + 1, false);
		if (sexagesimal)
			return !*s;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s != '-' && *s != '+')
			return false;
		s++;
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return !*s;
}

/*
 * PyYAML's timestamp in its date form, [0-9]{4}-[0-9]{2}-[0-9]{2}; its form with a time
 * ("2001-12-14 21:59:43") is not recognised, so a doc holding only that is taken as a string.
 */
static bool yaml11_date(const char *t)
{
	for (int i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? t[i] != '-' : !isdigit((unsigned char)t[i]))
			return false;
	return !t[10];
}

/*
 * What YAML 1.1 reads a plain scalar as when it is no string (PyYAML's implicit resolvers:
 * bool, int, float, null, timestamp), or NULL.  The kernel's ynl-gen hands the loaded values to
 * jsonschema, so "doc: yes" is a boolean there, and a string key refuses it.
 */
static const char *yaml11_non_string(const char *text)
{
	static const char *const specials[] = {
		".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
		".nan", ".NaN", ".NAN",
	};
	int64_t ignored;

	if (!*text || !strcmp(text, "~") || !strcmp(text, "null") || !strcmp(text, "Null") ||
	    !strcmp(text, "NULL"))
		return "null";
	for (size_t i = 0; i < sizeof(yaml11_bools) / sizeof(yaml11_bools[0]); i++)
		if (!strcmp(text, yaml11_bools[i]))
			return "a boolean";
	for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (!strcmp(text, specials[i]))
			return "a float";
	if (parse_int_text(text, &ignored))
		return "an integer";
	if (yaml11_float(text))
		return "a float";
	if (yaml11_date(text))
		return "a date";
	return NULL;
}

int64_t get_int(struct ynl_parser *p, yaml_node_t *node, const char *what)
{
	int64_t value;

	expect_type(p, node, YAML_SCALAR_NODE, what);
	if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
	    !parse_int_text(scalar_text(node), &value))
		fail_at(p, node, "%s must be an integer, not '%s'", what, scalar_text(node));
	return value;
}

bool get_bool(struct ynl_parser *p, yaml_node_t *node, const char *what)
{
	const char *text;

	expect_type(p, node, YAML_SCALAR_NODE, what);
	text = scalar_text(node);
	/* YAML 1.1's booleans, as the kernel's generator loads them: a quoted 'true' is a string */
	if (node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
		for (size_t i = 0; i < sizeof(yaml11_bools) / sizeof(yaml11_bools[0]); i++)
			if (!strcmp(text, yaml11_bools[i]))
				return i % 2 == 0;
	}
	note_at(p, node, "%s must be true or false, not '%s'", what, text);
	return false;
}

int seq_len(yaml_node_t *node)
{
	return (int)(node->data.sequence.items.top - node->data.sequence.items.start);
}

yaml_node_t *seq_item(struct ynl_parser *p, yaml_node_t *node, int i)
{
	return node_at(p, node->data.sequence.items.start[i]);
}

/* -- keys ---------------------------------------------------------------------------------- */

/*
 * Check every key of @map against @keys: unknown, duplicate, or above the spec's protocol
 * level is a problem at the key, noted (the key is then not read: get() finds a known key's
 * first value), so every such key of the spec is told in one run; a missing required key stops
 * the reading, at the mapping.
 */
void check_keys(struct ynl_parser *p, yaml_node_t *map, const struct ynl_key *keys,
		const char *what)
{
	yaml_node_pair_t *pair, *other;

	expect_type(p, map, YAML_MAPPING_NODE, what);
	for (pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *key = node_at(p, pair->key);
		const struct ynl_key *k;
		bool again = false;

		if (key->type != YAML_SCALAR_NODE)
			fail_at(p, key, "%s: keys must be scalars", what);
		for (other = map->data.mapping.pairs.start; other < pair; other++) {
			yaml_node_t *okey = node_at(p, other->key);

			if (okey->type == YAML_SCALAR_NODE &&
			    !strcmp(scalar_text(okey), scalar_text(key)))
				again = true;
		}
		if (again) {
			note_at(p, key, "duplicate key '%s' in %s", scalar_text(key), what);
			continue;
		}
		for (k = keys; k->name; k++)
			if (!strcmp(k->name, scalar_text(key)))
				break;
		if (!k->name)
			note_at(p, key, "unknown key '%s' in %s", scalar_text(key), what);
		else if (k->min_proto > p->spec->proto)
			note_at(p, key, "key '%s' in %s needs protocol %s or later, the spec is %s",
				k->name, what, ynl_proto_name(k->min_proto),
				ynl_proto_name(p->spec->proto));
	}
	for (const struct ynl_key *k = keys; k->name; k++) {
		bool found = false;

		if (!k->required || k->min_proto > p->spec->proto)
			continue;
		for (pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++)
			if (!strcmp(scalar_text(node_at(p, pair->key)), k->name))
				found = true;
		if (!found)
			fail_at(p, map, "missing required key '%s' in %s", k->name, what);
	}
}

/* Whether two nodes say the same: equal scalars, equal items in order, equal pairs by key. */
bool same_node(struct ynl_parser *p, yaml_node_t *a, yaml_node_t *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case YAML_SCALAR_NODE:
		return !strcmp(scalar_text(a), scalar_text(b));
	case YAML_SEQUENCE_NODE:
		if (seq_len(a) != seq_len(b))
			return false;
		for (int i = 0; i < seq_len(a); i++)
			if (!same_node(p, seq_item(p, a, i), seq_item(p, b, i)))
				return false;
		return true;
	case YAML_MAPPING_NODE:
		if (a->data.mapping.pairs.top - a->data.mapping.pairs.start !=
		    b->data.mapping.pairs.top - b->data.mapping.pairs.start)
			return false;
		for (yaml_node_pair_t *pair = a->data.mapping.pairs.start;
		     pair < a->data.mapping.pairs.top; pair++) {
			yaml_node_t *other = get(p, b, scalar_text(node_at(p, pair->key)));

			if (!other || !same_node(p, node_at(p, pair->value), other))
				return false;
		}
		return true;
	default:
		return false;
	}
}

yaml_node_t *get(struct ynl_parser *p, yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++)
		if (!strcmp(scalar_text(node_at(p, pair->key)), key))
			return node_at(p, pair->value);
	return NULL;
}

yaml_node_t *get_key_node(struct ynl_parser *p, yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++)
		if (!strcmp(scalar_text(node_at(p, pair->key)), key))
			return node_at(p, pair->key);
	return map;
}

const char *opt_str(struct ynl_parser *p, yaml_node_t *map, const char *key,
		    const char *what)
{
	yaml_node_t *value = get(p, map, key);

	return value ? get_str(p, value, what) : NULL;
}
