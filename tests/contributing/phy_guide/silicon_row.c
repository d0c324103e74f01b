	[KFSIM_PHY_GUIDE_T1S] = { "guide-t1s", PHY_ID_GUIDE_T1S, guide_t1s_regs },
