// SPDX-License-Identifier: MIT
/*
 * The guide's example kfunc collection (CONTRIBUTING.md, "A BPF kfunc"): bpf_guide_triple(),
 * a kfunc with no argument to check, so that all it shows is the row's part: the version gate
 * and the lock rule, applied by bpf_enter() before the body runs.
 */
#include "bpf_internal.h"

u64 KFUNC(bpf_guide_triple)(u64 x)
{
	struct bpf_tstate *ts;

	if (!CHECKS)
		return 3 * x;
	ts = bpf_enter(KFSIM_KFUNC_bpf_guide_triple);
	bpf_leave();
	return ts ? 3 * x : 0;	/* refused: reported, the run ends with the verifier's message */
}
