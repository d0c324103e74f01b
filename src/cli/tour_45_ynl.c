// SPDX-License-Identifier: MIT
/*
 * Tour step "ynl": a few lines of YAML spec become uapi, kernel and user C; a broken spec is
 * refused with its position and nothing is written.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <kfsim/ynl_gen.h>
#include "cli.h"

/* The PLCA part of specs/ethtool.yaml, small enough to read in the tour. */
static const char tour_spec[] =
	"name: ethtool\nprotocol: genetlink-legacy\ndoc: PLCA subset for the tour.\n"
	"attribute-sets:\n"
	"  - name: header\n    attributes:\n"
	"      - { name: dev-index, type: u32 }\n"
	"      - { name: dev-name, type: string, checks: { max-len: 127 } }\n"
	"  - name: plca\n    attributes:\n"
	"      - { name: header, type: nest, nested-attributes: header }\n"
	"      - { name: version, type: u16 }\n"
	"      - { name: enabled, type: u8, checks: { max: 1 } }\n"
	"      - { name: status, type: u8 }\n"
	"      - { name: node-cnt, type: u32, checks: { min: 1, max: 255 } }\n"
	"      - { name: node-id, type: u32, checks: { max: 255 } }\n"
	"operations:\n  enum-model: directional\n  name-prefix: ethtool-msg-\n  list:\n"
	"    - name: plca-set-cfg\n      doc: Set PLCA params.\n      attribute-set: plca\n"
	"      do: { request: { value: 40, attributes: [ header, enabled, node-cnt, node-id ] } }\n";

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -EIO : 0;
}

static int count_lines_in(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, c;

	if (!f)
		return 0;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static int tour_ynl(struct kfsim_tour_ctx *ctx)
{
	static const char *const outputs[] = {
		"ethtool-uapi.h", "ethtool-kernel.h", "ethtool-kernel.c", "ethtool-user.h",
		"ethtool-user.c",
	};
	char spec[PATH_MAX], dir[PATH_MAX], path[PATH_MAX], name[KFSIM_TOUR_NAME_MAX];
	char err[1024];
	int ret;

	ret = kfsim_tour_path(ctx, "ynl-plca.yaml", spec);
	if (!ret)
		ret = kfsim_tour_path(ctx, "ynl", dir);
	if (ret)
		return ret;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	ret = write_file(spec, tour_spec);
	if (ret)
		return ret;
	fprintf(ctx->out, "A %d-line YAML spec (the PLCA set-cfg request) through kfsim-ynl-gen:\n",
		count_lines_in(spec));
	ret = kfsim_ynl_generate(spec, dir, KFSIM_YNL_GEN_ALL, err, sizeof(err));
	if (ret)
		return ret;
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		snprintf(name, sizeof(name), "ynl/%s", outputs[i]);
		ret = kfsim_tour_path(ctx, name, path);
		if (ret)
			return ret;
		fprintf(ctx->out, "  %-18s %4d lines\n", outputs[i], count_lines_in(path));
		kfsim_tour_file(ctx, path);
	}
	fprintf(ctx->out, "  node-cnt's checks became NLA_POLICY_RANGE(NLA_U32, 1, 255) in the kernel "
		"policy,\n  and the user side got ethtool_plca_set_cfg_req_set_node_cnt().\n");

	/* One typo: the whole run is refused, with the position. */
	ret = write_file(spec, "name: ethtool\ndoc: d\nattribute-sets:\n  - name: plca\n"
			 "    attributes:\n      - { name: node-cnt, type: u23 }\n"
			 "operations: { list: [] }\n");
	if (ret)
		return ret;
	ret = kfsim_ynl_generate(spec, dir, KFSIM_YNL_GEN_ALL, err, sizeof(err));
	fprintf(ctx->out, "The same with a typo (u23): %s,\n  %s\n  and the files above are "
		"unchanged.\n", ret == -EINVAL ? "-EINVAL" : "unexpected", err);
	kfsim_tour_file(ctx, spec);
	return ret == -EINVAL ? 0 : -EINVAL;
}

static const char *const try_ynl[] = {
	"kfsim ynl-gen --mode uapi --mode kernel --out-dir /tmp/kfsim-ynl specs/ethtool.yaml",
	NULL,
};

const struct kfsim_tour_step kfsim_tour_ynl = {
	.name = "ynl",
	.title = "YNL: netlink specs to C",
	.doc = "ynl.md",
	.try_cmds = try_ynl,
	.run = tour_ynl,
};
