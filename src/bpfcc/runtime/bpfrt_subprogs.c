// SPDX-License-Identifier: MIT
/*
 * The entry and exit of a global (non-static) subprogram.  The verifier checks a global
 * function on its own, as if called with no lock, and refuses a call to one while a
 * bpf_spin_lock is held (check_func_call()); a static function is checked in its caller's state
 * and may be called.
 *
 * Natively a global subprogram is a plain C call.  When the BPF object has any,
 * kfsim-bpf-cc builds the program with -finstrument-functions, and gcc calls
 * __cyg_profile_func_enter() at the entry of every function of the program's translation unit;
 * the generated table (kfsim_bpfcc_object.globals) says which are global subprograms, and
 * __cyg_profile_func_exit() at its return, where kfsim gives the caller its RCU, preemption and
 * lock state back (the verifier checks the function on its own).  The runner itself is not
 * instrumented.
 */
#include "bpfrt.h"

#define NO_HOOK __attribute__((no_instrument_function))

/*
 * The return address of the call of the global subprogram being entered: a rule its call breaks
 * (a lock held) is the caller's, at the call instruction, where the verifier meets it
 * (check_func_call()); the backtrace's first frame of the program is the callee's entry.  A
 * violation leaves the run without returning here: run_runs() clears it.
 */
void *bpfrt_global_call_site;

NO_HOOK void __cyg_profile_func_enter(void *fn, void *call_site);
NO_HOOK void __cyg_profile_func_enter(void *fn, void *call_site)
{
	const struct kfsim_bpfrt_object *obj = &kfsim_bpfcc_object;

	for (unsigned int i = 0; obj->globals && obj->globals[i]; i++)
		if (obj->globals[i] == fn) {
			bpfrt_global_call_site = call_site;
			kfsim_bpf_global_call_enter(obj->global_names[i]);
			bpfrt_global_call_site = NULL;
			return;
		}
}

NO_HOOK void __cyg_profile_func_exit(void *fn, void *call_site);
NO_HOOK void __cyg_profile_func_exit(void *fn, void *call_site)
{
	const struct kfsim_bpfrt_object *obj = &kfsim_bpfcc_object;

	for (unsigned int i = 0; obj->globals && obj->globals[i]; i++)
		if (obj->globals[i] == fn) {
			kfsim_bpf_global_call_exit(obj->global_names[i]);
			return;
		}
}
