// SPDX-License-Identifier: MIT
/*
 * <kfsim/plca.h>'s ethtool ids agree with those kfsim-ynl-gen generates from specs/ethtool.yaml
 * (the family's policies and op table are the generated ones; the public header cannot
 * include a build-tree file, so it carries the numbers and this test keeps them honest).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/plca.h>
#include "ethtool_uapi_values.h"

static void test_public_ids_match_generated(void **state)
{
	static const int ours[ETHTOOL_UAPI_NR_VALUES] = {
		ETHTOOL_MSG_PLCA_GET_CFG, ETHTOOL_MSG_PLCA_SET_CFG, ETHTOOL_MSG_PLCA_GET_STATUS,
		ETHTOOL_MSG_PLCA_GET_CFG_REPLY, ETHTOOL_MSG_PLCA_GET_STATUS_REPLY,
		ETHTOOL_MSG_PLCA_NTF, ETHTOOL_A_PLCA_HEADER, ETHTOOL_A_PLCA_VERSION,
		ETHTOOL_A_PLCA_ENABLED, ETHTOOL_A_PLCA_STATUS, ETHTOOL_A_PLCA_NODE_CNT,
		ETHTOOL_A_PLCA_NODE_ID, ETHTOOL_A_PLCA_TO_TMR, ETHTOOL_A_PLCA_BURST_CNT,
		ETHTOOL_A_PLCA_BURST_TMR, ETHTOOL_A_PLCA_MAX, ETHTOOL_A_HEADER_DEV_INDEX,
		ETHTOOL_A_HEADER_DEV_NAME, ETHTOOL_A_HEADER_FLAGS, ETHTOOL_A_HEADER_PHY_INDEX,
	};

	for (int i = 0; i < ETHTOOL_UAPI_NR_VALUES; i++) {
		if (ours[i] != ethtool_generated_values[i])
			print_error("entry %d: plca.h %d, generated %d\n", i, ours[i],
				    ethtool_generated_values[i]);
		assert_int_equal(ours[i], ethtool_generated_values[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_public_ids_match_generated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
