/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TESTS_ETHTOOL_UAPI_VALUES_H
#define KFSIM_TESTS_ETHTOOL_UAPI_VALUES_H

#define ETHTOOL_UAPI_NR_VALUES 20

/* The generated uapi's message ids and attribute types, in the order of test_ethtool_uapi.c. */
extern const int ethtool_generated_values[ETHTOOL_UAPI_NR_VALUES];

#endif
