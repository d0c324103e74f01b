// SPDX-License-Identifier: MIT
/*
 * A program in the style of the kernel's tools/net/ynl/samples, written against the kernel's
 * YNL C API and ynl-gen-c.py's code for the 6.12 ethtool spec: the PLCA operations, which
 * kfsim's kernel has.  kernel_samples.sh builds it with the kernel's library and with kfsim's
 * and compares what both print, on the running kernel and on kfsim's.
 */
#include <stdio.h>
#include <string.h>

#include <ynl.h>

#include "ethtool-user.h"

static void print_cfg(const struct ethtool_plca_get_cfg_rsp *cfg)
{
	printf("  %8s:", cfg->header.dev_name ? cfg->header.dev_name : "?");
	if (cfg->_present.version)
		printf(" version 0x%x", cfg->version);
	if (cfg->_present.enabled)
		printf(" enabled %u", cfg->enabled);
	if (cfg->_present.node_id)
		printf(" node-id %u", cfg->node_id);
	if (cfg->_present.node_cnt)
		printf(" node-cnt %u", cfg->node_cnt);
	if (cfg->_present.to_tmr)
		printf(" to-tmr %u", cfg->to_tmr);
	if (cfg->_present.burst_cnt)
		printf(" burst-cnt %u", cfg->burst_cnt);
	if (cfg->_present.burst_tmr)
		printf(" burst-tmr %u", cfg->burst_tmr);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct ethtool_plca_get_cfg_req_dump dreq = {};
	struct ethtool_plca_get_cfg_list *cfgs;
	struct ethtool_plca_get_cfg_req *req;
	struct ethtool_plca_get_cfg_rsp *cfg;
	struct ynl_error yerr;
	struct ynl_sock *ys;
	const char *names[] = { "eth0", "nosuchdev", "lo" };

	ys = ynl_sock_create(&ynl_ethtool_family, &yerr);
	if (!ys) {
		fprintf(stderr, "YNL: %s\n", yerr.msg);
		return 1;
	}
	dreq._present.header = 1;	/* ethtool needs the (empty) header nest */
	cfgs = ethtool_plca_get_cfg_dump(ys, &dreq);
	if (!cfgs) {
		printf("dump: YNL (%d): %s\n", ys->err.code, ys->err.msg);
	} else {
		printf("dump:%s\n", ynl_dump_empty(cfgs) ? " empty" : "");
		ynl_dump_foreach(cfgs, dev)
			print_cfg(dev);
		ethtool_plca_get_cfg_list_free(cfgs);
	}
	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		req = ethtool_plca_get_cfg_req_alloc();
		ethtool_plca_get_cfg_req_set_header_dev_name(req, names[i]);
		cfg = ethtool_plca_get_cfg(ys, req);
		ethtool_plca_get_cfg_req_free(req);
		printf("get %s:", names[i]);
		if (!cfg) {
			printf(" YNL (%d): %s (attr_offs %u)\n", ys->err.code, ys->err.msg,
			       ys->err.attr_offs);
			continue;
		}
		printf("\n");
		print_cfg(cfg);
		ethtool_plca_get_cfg_rsp_free(cfg);
	}
	ynl_sock_destroy(ys);
	return 0;
}
