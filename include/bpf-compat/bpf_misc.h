/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_COMPAT_MISC_H
#define KFSIM_BPF_COMPAT_MISC_H
/*
 * "bpf_misc.h" for BPF C files outside the kernel tree: the test annotations of the kernel's
 * selftests (tools/testing/selftests/bpf/test_loader.c reads them), as BTF decl tags on the
 * program.  kfsim-bpf-cc reads the same tags: __failure/__success, __msg(text) (a part of the
 * verifier's message), __retval(value) (what a run returns).
 */
#define __KFSIM_STR(x) #x
#define __KFSIM_XSTR(x) __KFSIM_STR(x)
#define __failure __attribute__((btf_decl_tag("comment:test_expect_failure")))
#define __success __attribute__((btf_decl_tag("comment:test_expect_success")))
#define __msg(msg)                                                                                 \
	__attribute__((btf_decl_tag("comment:test_expect_msg=" __KFSIM_XSTR(__COUNTER__) "=" msg)))
#define __retval(val) __attribute__((btf_decl_tag("comment:test_retval=" #val)))
#define __description(desc) __attribute__((btf_decl_tag("comment:test_description=" desc)))

#endif /* KFSIM_BPF_COMPAT_MISC_H */
