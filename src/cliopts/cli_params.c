// SPDX-License-Identifier: MIT
/*
 * Keyword parameter tables: "keyword value" lists after a command, as ethtool takes them
 * ("--set-plca-cfg eth0 node-id 1 enable on").  ethtool itself is table driven (struct
 * param_parser rows walked by nl_parser() in netlink/parser.c, ethtool 6.x); a command here
 * describes its keywords once (struct kfsim_cli_param rows, the kinds of struct kfsim_opt) and
 * gets the parsing, the checks in ethtool's order and the help lines from the table.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cliopts.h"

/* kfsim's own rule (kfsim_cli_parse_u64() without its message): digits, or hex after 0x. */
static bool read_strict(const char *text, unsigned long long *out)
{
	bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	char *end = NULL;

	errno = 0;
	if (hex ? isxdigit((unsigned char)text[2]) : isdigit((unsigned char)text[0]))
		*out = strtoull(text, &end, hex ? 16 : 10);
	return end && !*end && !errno;
}

/*
 * ethtool's parse_u32(): base 16 after a 0x/0X prefix, else base 10, through strtoul(), so what
 * strtoul() takes is taken (" 5", "+5", "-0"; "-1" wraps to ULONG_MAX and fails the range);
 * the whole word must be used and not be empty.
 */
static bool read_strtoul(const char *text, unsigned long long *out)
{
	int base = 10;
	char *end;

	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		text += 2;
		base = 16;
	}
	if (!*text)
		return false;
	*out = strtoul(text, &end, base);
	return !*end;
}

static int store_value(const struct kfsim_cli_params *table, const struct kfsim_cli_param *p,
		       const char *value, void *dest)
{
	void *at = (char *)dest + p->offset;
	unsigned long long v = 0;
	bool ok;

	switch (p->kind) {
	case KFSIM_OPT_UINT:
	case KFSIM_OPT_U64:
		ok = table->numbers == KFSIM_CLI_NUMBERS_STRTOUL ? read_strtoul(value, &v) :
								     read_strict(value, &v);
		if (!ok || v < p->min || v > p->max)
			return -EINVAL;
		if (p->kind == KFSIM_OPT_UINT)
			*(u32 *)at = (u32)v;
		else
			*(u64 *)at = v;
		return 0;
	case KFSIM_OPT_ONOFF:
		if (strcmp(value, "on") && strcmp(value, "off"))
			return -EINVAL;
		*(bool *)at = !strcmp(value, "on");
		return 0;
	case KFSIM_OPT_CHOICE:
		for (unsigned int i = 0; p->choices[i]; i++) {
			if (!strcmp(value, p->choices[i])) {
				*(unsigned int *)at = i;
				return 0;
			}
		}
		return -EINVAL;
	case KFSIM_OPT_STRING:
		if (!*value)
			return -EINVAL;
		*(const char **)at = value;
		return 0;
	default: /* a kind keyword tables do not take: a bug in the table */
		return -EINVAL;
	}
}

static int fail(struct kfsim_cli_param_result *res, enum kfsim_cli_param_error error,
		const char *keyword, const char *value)
{
	res->error = error;
	res->keyword = keyword;
	res->value = value;
	return -EINVAL;
}

int kfsim_cli_parse_params(const struct kfsim_cli_params *table, char **words, int nr_words,
			   void *dest, struct kfsim_cli_param_result *res)
{
	int i = 0;

	*res = (struct kfsim_cli_param_result){ 0 };
	while (i < nr_words) {
		const char *keyword = words[i++];
		unsigned int row;

		for (row = 0; row < table->nr_params && row < 64; row++)
			if (!strcmp(keyword, table->params[row].name))
				break;
		if (row == table->nr_params || row == 64)
			return fail(res, KFSIM_PARAM_UNKNOWN, keyword, NULL);
		if (res->given & (1ULL << row))
			return fail(res, KFSIM_PARAM_DUPLICATE, keyword, NULL);
		if (i >= nr_words)
			return fail(res, KFSIM_PARAM_NO_VALUE, keyword, NULL);
		if (store_value(table, &table->params[row], words[i], dest))
			return fail(res, KFSIM_PARAM_BAD_VALUE, keyword, words[i]);
		i++;
		res->given |= 1ULL << row;
		res->order[res->nr_given++] = row;
	}
	return 0;
}

const char *kfsim_cli_param_error_text(const struct kfsim_cli_param_result *res, char *buf,
				       size_t size)
{
	switch (res->error) {
	case KFSIM_PARAM_UNKNOWN:
		snprintf(buf, size, "unknown parameter '%s'", res->keyword);
		break;
	case KFSIM_PARAM_DUPLICATE:
		snprintf(buf, size, "duplicate parameter '%s'", res->keyword);
		break;
	case KFSIM_PARAM_NO_VALUE:
		snprintf(buf, size, "no value for parameter '%s'", res->keyword);
		break;
	case KFSIM_PARAM_BAD_VALUE:
		snprintf(buf, size, "invalid value '%s' for parameter '%s'", res->value,
			 res->keyword);
		break;
	default:
		snprintf(buf, size, "%s", "");
		break;
	}
	return buf;
}

void kfsim_cli_params_help(const struct kfsim_cli_params *table, const char *indent,
			   bool with_help, FILE *out)
{
	for (unsigned int i = 0; i < table->nr_params; i++) {
		const struct kfsim_cli_param *p = &table->params[i];
		char head[96];

		snprintf(head, sizeof(head), "[ %s %s ]", p->name, p->arg ? p->arg : "X");
		if (with_help && p->help)
			fprintf(out, "%s%-24s%s\n", indent, head, p->help);
		else
			fprintf(out, "%s%s\n", indent, head);
	}
}
