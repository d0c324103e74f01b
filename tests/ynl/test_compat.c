// SPDX-License-Identifier: MIT
/*
 * The kernel-compatible YNL API (<ynl.h>, Linux 6.12 tools/net/ynl/lib): transport choice by
 * KFSIM_KERNEL, the library's texts for sockets and families that are not there, dump lists
 * ending in YNL_LIST_END, and the generated *_str() helpers (flags looked up by ffs() - 1).
 * The kernel's own samples against the running kernel are the referee in kernel_samples.sh.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kfsim/nl_client.h>
#include <kfsim/nl_server.h>

#define KFSIM_YNL_LOCAL 1
#include "ethtool-user.c"
#include "ynltest-user.c"

static void test_a_server_that_is_not_there_fails_socket_creation(void **state)
{
	struct ynl_error err = { .code = 0 };

	(void)state;
	setenv("KFSIM_KERNEL", "/nonexistent/kfsim.sock", 1);
	assert_null(ynl_sock_create(&ynl_ethtool_family, &err));
	assert_int_equal(err.code, ENOENT);
	assert_string_equal(err.msg, "failed to create a netlink socket");
	/* the error argument is optional, as in the kernel's library (ovs.c passes NULL) */
	assert_null(ynl_sock_create(&ynl_ethtool_family, NULL));
	unsetenv("KFSIM_KERNEL");
}

/*
 * The YNL library starts no kernel itself: inproc is whatever provides it (the stand-in, at
 * load time).  Withdrawn, the socket cannot be created, with the kernel library's text.
 */
static void test_inproc_needs_a_provider(void **state)
{
	struct ynl_error err;

	(void)state;
	setenv("KFSIM_KERNEL", "inproc", 1);
	kfsim_nl_inproc_provide(NULL);
	assert_null(ynl_sock_create(&ynl_ethtool_family, &err));
	assert_int_equal(err.code, EPROTONOSUPPORT);
	assert_string_equal(err.msg, "failed to create a netlink socket");
	kfsim_nl_inproc_provide(kfsim_standin_inproc_start);
	unsetenv("KFSIM_KERNEL");
}

static void test_inproc_transport_serves_kfsims_families(void **state)
{
	struct ethtool_plca_get_cfg_req *req = ethtool_plca_get_cfg_req_alloc();
	struct ethtool_plca_get_cfg_req_dump *dreq = ethtool_plca_get_cfg_req_dump_alloc();
	struct ethtool_plca_get_cfg_list *list;
	struct ethtool_plca_get_cfg_rsp *rsp;
	struct ynl_error err;
	struct ynl_sock *ys;
	int n = 0;

	(void)state;
	setenv("KFSIM_KERNEL", "inproc", 1);
	ys = ynl_sock_create(&ynl_ethtool_family, &err);
	assert_non_null(ys);
	/* eth0 of the built-in segment: a LAN8670, PLCA coordinator */
	ethtool_plca_get_cfg_req_set_header_dev_name(req, "eth0");
	rsp = ethtool_plca_get_cfg(ys, req);
	assert_non_null(rsp);
	assert_int_equal(ys->err.code, 0);
	assert_true(rsp->_present.node_id);
	assert_int_equal(rsp->node_id, 0);
	assert_string_equal(rsp->header.dev_name, "eth0");
	ethtool_plca_get_cfg_rsp_free(rsp);

	ethtool_plca_get_cfg_req_set_header_dev_name(req, "nosuchdev");
	assert_null(ethtool_plca_get_cfg(ys, req));
	assert_int_equal(ys->err.code, ENODEV);
	/* the extack message, and the offset walked through the request into the nest */
	assert_string_equal(ys->err.msg, "Kernel error: 'no device matches name' (bad attribute: "
			    ".header.dev-name)");
	assert_int_equal(ys->err.attr_offs, 16 + 4 + 4);	/* nlmsghdr, genlmsghdr, nest */

	list = ethtool_plca_get_cfg_dump(ys, dreq);
	assert_non_null(list);
	ynl_dump_foreach(list, dev)
		n += dev->_present.header;
	assert_true(n >= 3);	/* eth0..eth2 have PLCA */
	ethtool_plca_get_cfg_list_free(list);

	assert_int_equal(ynl_subscribe(ys, "monitor"), 0);
	assert_true(ynl_socket_get_fd(ys) >= 0);	/* a server socket: pollable */
	assert_int_equal(ynl_ntf_check(ys), 0);
	assert_false(ynl_has_ntf(ys));
	ynl_sock_destroy(ys);

	/* a family kfsim's kernel does not have: the kernel library's report */
	ys = ynl_sock_create(&ynl_ynltest_family, &err);
	assert_null(ys);
	assert_int_equal(err.code, ENOENT);
	assert_string_equal(err.msg, "failed to receive the socket family info - no such family?");
	unsetenv("KFSIM_KERNEL");
	ethtool_plca_get_cfg_req_dump_free(dreq);
	ethtool_plca_get_cfg_req_free(req);
}

static void test_list_end_and_empty_dumps(void **state)
{
	struct ethtool_plca_get_cfg_list *list = (void *)YNL_LIST_END;
	int n = 0;

	(void)state;
	assert_true(ynl_dump_empty(list));
	ynl_dump_foreach(list, dev)
		n++;
	assert_int_equal(n, 0);
	ethtool_plca_get_cfg_list_free(list);	/* nothing to free, no crash */
	assert_false(ynl_dump_empty(NULL));	/* NULL is the failed dump, not the empty one */
}

static void test_str_helpers_follow_ynl_gen_c(void **state)
{
	(void)state;
	assert_string_equal(ynltest_op_str(1), "set");
	assert_string_equal(ynltest_op_str(4), "alarm");
	assert_null(ynltest_op_str(0));
	assert_null(ynltest_op_str(-1));
	assert_null(ynltest_op_str(5));
	/* plain enums by value, sparse ones leave holes */
	assert_string_equal(ynltest_color_str(YNLTEST_COLOR_BLUE), "blue");
	assert_string_equal(ynltest_sparse_str(YNLTEST_SPARSE_TWENTY), "twenty");
	assert_null(ynltest_sparse_str((enum ynltest_sparse)12));
	assert_null(ynltest_sparse_str((enum ynltest_sparse)-3));
	/* flags: one bit, named by its position; several bits: the lowest (ffs) */
	assert_string_equal(ynltest_opts_str(YNLTEST_OPT_C), "c");
	assert_string_equal(ynltest_opts_str(YNLTEST_OPT_B | YNLTEST_OPT_C), "b");
	assert_null(ynltest_opts_str((enum ynltest_opts)0));
	assert_null(ynltest_opts_str((enum ynltest_opts)(1 << 9)));
	/* ethtool: the reply and notification ids name the commands */
	assert_string_equal(ethtool_op_str(ETHTOOL_MSG_PLCA_NTF), "plca-ntf");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_server_that_is_not_there_fails_socket_creation),
		cmocka_unit_test(test_inproc_needs_a_provider),
		cmocka_unit_test(test_inproc_transport_serves_kfsims_families),
		cmocka_unit_test(test_list_end_and_empty_dumps),
		cmocka_unit_test(test_str_helpers_follow_ynl_gen_c),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
