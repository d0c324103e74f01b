	{ .phy_id = PHY_ID_GUIDE_T1S, .phy_id_mask = PHY_ID_MATCH_EXACT_MASK,
	  .name = "Guide T1S PHY", .t1s_p2mp = true, .since = KERNEL_VERSION(6, 6, 0),
	  .config_init = guide_t1s_config_init, GENPHY_C45_PLCA_OPS },
