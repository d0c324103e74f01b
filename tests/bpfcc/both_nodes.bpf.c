// SPDX-License-Identifier: MIT
/*
 * A struct with a bpf_list_node and a bpf_rb_node but no bpf_refcount (issue #28, rule 8): the
 * kernel refuses the object's BTF (btf_parse_fields(), -EINVAL, with an empty log), libbpf
 * loads the programs without it, and the first bpf_obj_new() is refused for want of program
 * BTF: "bpf_obj_new/bpf_percpu_obj_new requires prog BTF" (6.12 and the running 6.18).
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct both {
	struct bpf_list_node link;
	struct bpf_rb_node node;
	u64 value;
};

SEC("tc") __failure __msg("bpf_obj_new/bpf_percpu_obj_new requires prog BTF")
int new_of_both_nodes(void *ctx)
{
	struct both *b = bpf_obj_new(typeof(*b));

	if (!b)
		return 0;
	bpf_obj_drop(b);
	return 0;
}

char _license[] SEC("license") = "GPL";
