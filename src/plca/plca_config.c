// SPDX-License-Identifier: MIT
/*
 * The --config file: one device per line (see kfsim_plca_net_load() in plca.h).
 *
 * A file either loads whole or not at all, and a refused file names every problem it has at
 * once (core/problem_list.h), so a user fixes it in one round: each bad key of a line is
 * reported ("line N: ..."), the problems joined by "; " in @err, and a line with a problem adds
 * no device.  The first problem's error is returned.  PLCA settings go through
 * phy_ethtool_set_plca_cfg(), the same checks a netlink SET meets, with the netlink policy's
 * ranges (node-cnt 1..255, the others 0..255).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <kfsim/err.h>
#include "core/infile.h"
#include "core/line_reader.h"
#include "core/problem_list.h"
#include "plca_internal.h"

/* No device list comes near this; reading stops here rather than at the end of /dev/zero. */
#define PLCA_CONFIG_MAX_BYTES (1u << 20)
/* A device line is a name and a few keys: 511 bytes is far past any real one. */
#define PLCA_CONFIG_MAX_LINE 511u

struct line_ctx {
	int line;
	struct kfsim_problem_list problems;
};

static int fail(struct line_ctx *ctx, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record one problem of the current line; returns @ret for the caller's own bookkeeping. */
static int fail(struct line_ctx *ctx, int ret, const char *fmt, ...)
{
	char where[32];
	va_list args;

	snprintf(where, sizeof(where), "line %d: ", ctx->line);
	va_start(args, fmt);
	kfsim_problem_list_vadd_at(&ctx->problems, ret, where, fmt, args);
	va_end(args);
	return ret;
}

/* ethtool's parse_u32(): decimal, or hexadecimal after "0x". */
static int parse_u32(const char *text, u32 *out)
{
	unsigned long long value;
	int base = 10;
	char *end;

	if (!text)
		return -EINVAL;
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		text += 2;
		base = 16;
	}
	if (!*text || *text == '-' || *text == '+' || isspace((unsigned char)*text))
		return -EINVAL;
	errno = 0;
	value = strtoull(text, &end, base);
	if (*end || errno || value > 0xffffffffULL)
		return -EINVAL;
	*out = (u32)value;
	return 0;
}

static int parse_setting(struct line_ctx *ctx, const char *key, const char *value,
			 struct phy_plca_cfg *cfg)
{
	static const struct {
		const char *key;
		size_t offset;
		u32 min, max;
	} settings[] = {
		{ "node-id", offsetof(struct phy_plca_cfg, node_id), 0, 255 },
		{ "node-cnt", offsetof(struct phy_plca_cfg, node_cnt), 1, 255 },
		{ "to-tmr", offsetof(struct phy_plca_cfg, to_tmr), 0, 255 },
		{ "burst-cnt", offsetof(struct phy_plca_cfg, burst_cnt), 0, 255 },
		{ "burst-tmr", offsetof(struct phy_plca_cfg, burst_tmr), 0, 255 },
	};
	u32 number;

	if (!strcmp(key, "enable")) {
		if (value && !strcmp(value, "on"))
			cfg->enabled = 1;
		else if (value && !strcmp(value, "off"))
			cfg->enabled = 0;
		else
			return fail(ctx, -EINVAL, "invalid value '%s' for 'enable': expected on or off",
				    value ? value : "");
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++) {
		if (strcmp(key, settings[i].key))
			continue;
		if (parse_u32(value, &number) || number < settings[i].min ||
		    number > settings[i].max)
			return fail(ctx, -EINVAL,
				    "invalid value '%s' for '%s': expected an integer from %u to %u",
				    value ? value : "", key, settings[i].min, settings[i].max);
		*(int *)((char *)cfg + settings[i].offset) = (int)number;
		return 0;
	}
	return fail(ctx, -EINVAL, "unknown keyword '%s'", key);
}

static int parse_dev_line(struct kfsim_plca_net *net, struct line_ctx *ctx, char *rest)
{
	struct phy_plca_cfg cfg = { -1, -1, -1, -1, -1, -1, -1 };
	enum kfsim_phy_model model = KFSIM_PHY_OA_TC14;
	struct netlink_ext_ack extack = {};
	bool with_phy = false, has_cfg = false;
	char *name = strtok_r(NULL, " \t", &rest), *key;
	u32 ifindex = 0, segment = 0;
	struct net_device *dev;
	/* the keys a line may give, each once: a bit each in @seen */
	static const char *const keys[] = { "ifindex", "segment", "phy", "enable", "node-id",
					    "node-cnt", "to-tmr", "burst-cnt", "burst-tmr" };
	unsigned int seen = 0;
	int ret = 0;

	if (!name)
		return fail(ctx, -EINVAL, "'dev' needs an interface name");
	/* every key is checked, so that a line's problems are all told at once */
	while ((key = strtok_r(NULL, " \t", &rest))) {
		char *value = strtok_r(NULL, " \t", &rest);
		bool again = false;

		/*
		 * One value per key: a second one would silently win, as nothing else does here.
		 * Only known keys are remembered (an unknown one is told as such each time), so a
		 * line of any length tells every repeated key as repeated.
		 */
		for (unsigned int i = 0; i < ARRAY_SIZE(keys); i++) {
			if (strcmp(keys[i], key))
				continue;
			again = seen & (1u << i);
			seen |= 1u << i;
			break;
		}
		if (again) {
			ret = fail(ctx, -EINVAL, "duplicate keyword '%s'", key);
			continue;
		}

		if (!strcmp(key, "ifindex")) {
			if (parse_u32(value, &ifindex) || !ifindex || ifindex > 0x7fffffff)
				ret = fail(ctx, -EINVAL, "invalid ifindex '%s': expected 1 to 2147483647",
					   value ? value : "");
		} else if (!strcmp(key, "segment")) {
			if (parse_u32(value, &segment) || segment >= KFSIM_PLCA_MAX_SEGMENTS)
				ret = fail(ctx, -EINVAL, "invalid segment '%s': expected 0 to %d",
					   value ? value : "", KFSIM_PLCA_MAX_SEGMENTS - 1);
		} else if (!strcmp(key, "phy")) {
			if (!value || kfsim_phy_model_parse(value, &model)) {
				char names[128];

				kfsim_phy_model_names(names, sizeof(names));
				ret = fail(ctx, -EINVAL, "unknown PHY model '%s' (%s)",
					   value ? value : "", names);
			}
			with_phy = true;
		} else {
			int bad = parse_setting(ctx, key, value, &cfg);

			if (bad)
				ret = bad;
			else
				has_cfg = true;
		}
	}
	if (has_cfg && !with_phy)
		ret = fail(ctx, -EINVAL, "%s: PLCA settings need a 'phy'", name);
	if (ret)
		return ret;
	dev = kfsim_plca_net_add_dev(net, name, (int)ifindex, with_phy, model, (int)segment);
	if (IS_ERR(dev)) {
		ret = (int)PTR_ERR(dev);
		if (ret == -EEXIST)
			return fail(ctx, ret, "%s: name or ifindex already in use", name);
		if (ret == -EINVAL)
			return fail(ctx, ret, "invalid interface name '%s'", name);
		if (ret == -ENOSPC)
			return fail(ctx, ret, "%s: no room: a namespace holds at most %d devices", name,
				    KFSIM_PLCA_MAX_DEVS);
		return fail(ctx, ret, "%s: cannot add the device", name);
	}
	if (!has_cfg)
		return 0;
	ret = phy_ethtool_set_plca_cfg(dev->phydev, &cfg, &extack);
	if (ret)
		return fail(ctx, ret, "%s: %s%s", name, extack._msg ? extack._msg :
			    "PLCA settings rejected: -", extack._msg ? "" : kfsim_errname(ret));
	dev->phydev->mdio_writes = dev->phydev->mdio_logged = 0;
	return 0;
}

int kfsim_plca_net_load_into(struct kfsim_plca_net *net, const char *path, char *err,
			     size_t err_size)
{
	struct line_ctx ctx = {};
	struct kfsim_line_reader lines;
	enum kfsim_line_status status;
	struct stat st;
	FILE *file;
	int ret = 0;

	kfsim_problem_list_init(&ctx.problems, err, err_size, "; ");
	file = kfsim_infile_open(path, &ret);
	if (file && fstat(fileno(file), &st))
		ret = -errno;
	if (ret) {
		if (file)
			fclose(file);
		snprintf(err, err_size, "cannot open '%s': %s", path, strerror(-ret));
		return ret;
	}
	kfsim_line_reader_init(&lines, file, PLCA_CONFIG_MAX_LINE, PLCA_CONFIG_MAX_BYTES, true);
	while ((status = kfsim_line_reader_next(&lines)) != KFSIM_LINE_END) {
		char *rest = NULL, *word, *line = lines.text;

		ctx.line++;
		if (status == KFSIM_LINE_NOMEM) {
			fail(&ctx, -ENOMEM, "out of memory");
			break;
		}
		if (status == KFSIM_LINE_TOO_BIG) {
			/* /dev/zero or a log given by mistake: stop, bounded, with what was found */
			fail(&ctx, -EFBIG, "the file goes on past %u bytes: not a device list",
			     PLCA_CONFIG_MAX_BYTES);
			break;
		}
		if (status == KFSIM_LINE_TOO_LONG) {
			/* the rest of the line was skipped; the lines after it are read */
			fail(&ctx, -EINVAL, "line longer than %u bytes", PLCA_CONFIG_MAX_LINE);
			continue;
		}
		if (lines.has_nul) {
			/* a binary file: string functions would cut the line there in silence */
			fail(&ctx, -EINVAL, "a NUL byte: not a text line");
			continue;
		}
		line[strcspn(line, "#\r\n")] = '\0';
		word = strtok_r(line, " \t", &rest);
		if (!word)
			continue;
		if (strcmp(word, "dev"))
			fail(&ctx, -EINVAL, "unknown keyword '%s' (lines start with 'dev')", word);
		else
			parse_dev_line(net, &ctx, rest);
	}
	ret = kfsim_problem_list_finish(&ctx.problems);
	if (!ret && ferror(file)) {
		ret = -EIO;
		snprintf(err, err_size, "cannot read '%s'", path);
	}
	kfsim_line_reader_release(&lines);
	fclose(file);
	if (!ret && !net->nr_devs) {
		snprintf(err, err_size, "'%s' defines no device", path);
		ret = -EINVAL;
	}
	return ret;
}

struct kfsim_plca_net *kfsim_plca_net_load(const char *path, char *err, size_t err_size)
{
	struct kfsim_plca_net *net = kfsim_plca_net_create();
	int ret;

	if (!net) {
		snprintf(err, err_size, "out of memory");
		return ERR_PTR(-ENOMEM);
	}
	ret = kfsim_plca_net_load_into(net, path, err, err_size);
	if (ret) {
		kfsim_plca_net_destroy(net);
		return ERR_PTR(ret);
	}
	return net;
}

/*
 * The ethtool family's own option (`kfsim kernel --config`): its devices in @ns, from a file
 * or, without one, the built-in segment.  The stand-in kernel hands the option through; only
 * this family reads it.
 */
int kfsim_plca_net_configure(struct kfsim_net *ns, const char *config, char *err,
			     size_t err_size)
{
	struct kfsim_plca_net *net = kfsim_plca_net_of(ns); /* the ethtool row attached it */
	int ret;

	if (!net) {
		snprintf(err, err_size, "no PLCA namespace among the built-in families");
		return -ENOENT;
	}
	if (config)
		return kfsim_plca_net_load_into(net, config, err, err_size);
	ret = kfsim_plca_net_add_builtin_segment(net);
	if (ret)
		snprintf(err, err_size, "cannot build the built-in segment");
	return ret;
}
