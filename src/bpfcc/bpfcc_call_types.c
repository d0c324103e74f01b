// SPDX-License-Identifier: MIT
/*
 * Which object types reach each call of bpf_obj_drop, bpf_refcount_acquire, bpf_list_push_* and
 * bpf_rbtree_add in a BPF function, found from its instructions: the rule "one call
 * instruction, one type" (>= 6.18, src/bpf/bpf_call_types.c) for the paths a native run does not
 * take.  clang merges calls (a tail merge of "bpf_obj_drop(x); return 0;" ends) that the
 * native build keeps apart, and the verifier walks every branch, so only the BPF object says
 * which calls are one and what flows into them.
 *
 * A forward data-flow over the function's control-flow graph: each register and 8-byte stack
 * slot holds the set of types whose bpf_obj_new() result (or bpf_refcount_acquire() of one,
 * or bpf_kptr_xchg() of one, or a node a collection gives: pop, remove, first, front, ... of a
 * root whose address a register holds, typed by the root's __contains tag) it may hold, kept
 * through moves, spills, fills and constant offsets (container_of), and emptied on the branch where
 * it compared equal to 0 (the NULL check); the NULL branch of a lookup in an array with a stack key
 * is not walked (6.14+).  Sets only grow, so the walk ends.  A call reached with two types whose
 * field records differ (struct types with special fields; every type without any shares the NULL
 * record) is marked.  What the analysis does not follow (a pointer loaded from memory, a root
 * whose address is not loaded in the function, a global subprogram's argument) is the empty
 * set: it may miss a merge, never invent one.
 *
 * The same walk keeps each register's and slot's offset from the object's start while it is one
 * constant on every path (bpf_obj_new() gives 0, constant adds move it): a load or store whose
 * offset and width reach past the end of a type it may hold is what btf_struct_walk() refuses
 * ("access beyond struct S at off N size M", 6.12 and 6.18), a flexible array of structs at
 * the end included (the verifier walks flexible arrays only for other pointers), and one inside
 * the object that the same walk refuses member by member (struct_walk_refused(): past a scalar
 * member's end, in a hole, part of a pointer).  An unknown offset (a variable index) is not
 * checked.
 *
 * And it marks the registers that hold a non-owning result (bpf_list_front/back,
 * bpf_rbtree_first/root/left/right, moved, offset, spilled and filled) on some path: pushing or
 * adding one is refused ("arg#1 expected pointer to allocated object") even when another
 * register holds an owning reference to the same node (bpf_list_pop_front() of it), which a
 * native run, seeing one address, cannot tell apart (rule 6: references are per call result).
 *
 * And, from those marks, the registers and slots that a bpf_spin_unlock() made dead on some
 * path: every non-owning reference (a walker's or peek's result, an object given to a push or
 * add) is a scalar to the verifier after the unlock (invalidate_non_owning_refs(), with
 * allow_ptr_leaks as root), so a load or store through one is "R%d invalid mem access 'scalar'",
 * where a native run reads or writes the node, alive in its collection.  So is every copy of a
 * call result given away by bpf_kptr_xchg() (release_reference(); natively alive in the map).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <linux/bpf.h>

#include "bpfcc.h"

#define NR_SLOTS (512 / 8)
#define MAX_TYPES 64

struct flow_state {
	bool seen;
	unsigned long long reg[11];	    /* bit i: types[i] */
	unsigned long long slot[NR_SLOTS];  /* fp-8 .. fp-512 */
	long long imm[11];		    /* a constant the register holds, when imm_known */
	unsigned short imm_known;	    /* bit per register */
	unsigned short array_map;	    /* bit per register: the address of an array map */
	unsigned short stack;		    /* bit per register: an address on the stack */
	unsigned short not_null;	    /* bit per register: a lookup result never NULL */
	long long off[11];		    /* offset from the object's start, when off_known */
	unsigned short off_known;	    /* bit per register */
	long long slot_off[NR_SLOTS];	    /* a spilled register's offset, when slot_off_known */
	unsigned long long slot_off_known;  /* bit per slot */
	unsigned short non_owning;	    /* bit per register: a non-owning result on some path */
	struct bpfcc_root root[11];	    /* the root whose address it holds (type 0: none) */
	unsigned long long slot_non_owning; /* bit per slot */
	/*
	 * Which call result a register or slot holds (the call's instruction + 1; 0: none or not
	 * one on every path), a member's address and copies included: the verifier's reference
	 * is the call result's, not the object's.  And whether that result was given to a push
	 * or add on some path (it is non-owning from there, and dead after the unlock).
	 */
	unsigned int result[11];
	unsigned int slot_result[NR_SLOTS];
	unsigned short inserted;	    /* bit per register */
	unsigned long long slot_inserted;   /* bit per slot */
	unsigned short dead;		    /* bit per register: a scalar on some path */
	unsigned long long slot_dead;	    /* bit per slot */
	/*
	 * The BTF id of the map value a register or slot points into (a lookup result, at the
	 * offset off[] says; 0: none, or not the same on every path): bpf_kptr_xchg() of one of
	 * its __kptr fields returns that field's type, whatever was stored (the verifier's
	 * ret_btf_id is the field's kptr type: check_helper_call(), 6.12 and 6.18)
	 */
	__u32 value[11];
	__u32 slot_value[NR_SLOTS];
	/*
	 * bit per register and slot: a __kptr field loaded from a map value and not yet checked
	 * for NULL on some path (btf_ld_kptr_type(): PTR_MAYBE_NULL, with MEM_RCU for a
	 * refcounted local type in an RCU section, else PTR_UNTRUSTED)
	 */
	unsigned short kptr_null;
	unsigned long long slot_kptr_null;
	unsigned short kptr_rcu; /* the same registers: MEM_RCU (else untrusted) */
	unsigned long long slot_kptr_rcu;
	/*
	 * The same for a maybe-NULL call result not yet checked (kptr_null set too): an object
	 * from bpf_obj_new(), a pop, a remove or bpf_kptr_xchg() ('ptr_or_null_'), a map lookup
	 * ('map_value_or_null')
	 */
	unsigned short null_ptr, null_map;
	unsigned long long slot_null_ptr, slot_null_map;
	/* a global function's own pointer argument, not yet checked ('mem_or_null') */
	unsigned short null_mem;
	/* a bpf_ringbuf_reserve() result not yet checked ('ringbuf_mem_or_null') */
	unsigned short null_ring;
	unsigned long long slot_null_ring;
	/* bit per register: the program's context (PTR_TO_CTX), at off[] from its start */
	unsigned short ctx;
	/*
	 * a global function's pointer argument or a ring buffer record: the bytes of memory it
	 * stands for (0: not one; MEM_ZERO_BYTES: a record of 0 bytes, mem_bytes() reads it)
	 */
	int mem_size[11];
	/*
	 * bit per register: that memory is a map's key (PTR_TO_MAP_KEY: a bpf_for_each_map_elem()
	 * callback's key, mem_size its key_size), which is read-only
	 */
	unsigned short map_key;
	/*
	 * bit per register: a pointer into a caller's stack frame (a callback's context), at off[]
	 * from that frame's pointer: held to the frame's bounds, never to this frame's slots
	 */
	unsigned short caller_stack;
	/*
	 * bit per register: the constant 0 on every path (a callback's NULL context): its NULL
	 * check's other branch is dead to the verifier, as not_null's NULL branch is
	 */
	unsigned short always_null;
	unsigned long long slot_null_mem;
	/*
	 * Variable offsets (check_ptr_to_btf_access(): "invalid variable offset"): bit per
	 * register, a scalar that is data on some path (loaded from memory other than the stack
	 * and .rodata, or computed from such a load), with its tnum (tn_val, tn_mask: the bits
	 * known and their values, when tn_known); and an object pointer that such a scalar was
	 * added to (var_off), the tnum then its variable part.  A scalar the walk joined from
	 * constants (a loop's counter) is not data: the verifier walks each pass with its value.
	 */
	unsigned short data, var_off, tn_known, rodata;
	/*
	 * bit per register: compared by a conditional jump on some path (its bounds may have
	 * moved: the data-flow keeps tnums, not the verifier's bounds)
	 */
	unsigned short compared;
	unsigned long long tn_val[11], tn_mask[11];
	/*
	 * bit per register: data sign-extended from 32 bits ("r1 <<= 32; r1 s>>= 32", movsx): the
	 * verifier's bounds are [S32_MIN, S32_MAX] where the tnum knows no bit of the upper half
	 */
	unsigned short sext32;
	/*
	 * bit per register: umax[] is the verifier's own unsigned maximum of the data (or of a map
	 * value pointer's variable part): set by a load (its width), kept through moves, masks,
	 * shifts and adds of constants and narrowed by an unsigned compare with a constant
	 * (data_bound()); dropped by anything else, any other compare included (the verifier may
	 * then know more), and where two paths differ
	 */
	unsigned short umax_known;
	unsigned long long umax[11];
	/*
	 * bit per register: the verifier's minimum of the data (or of a map value pointer's
	 * variable part) is 0: a load, kept through moves, masks and shifts, dropped by an add
	 * and on the branch of a compare where the data is at least a constant
	 */
	unsigned short umin_zero;
	/*
	 * per register: which load or call made the data (its instruction + 1), kept by moves and
	 * by the operations on it; 0: not known.  The verifier links copies of one scalar, so a
	 * compare narrows each register of the same origin (and an unknown one is taken for one)
	 */
	unsigned int origin[11];
	/*
	 * bit per register: a packet pointer loaded from the context (data, data_meta) that no
	 * compare has given a range yet: every byte through it is outside the packet
	 */
	unsigned short pkt;
	/* the same for data spilled to a stack slot (8 bytes: the verifier keeps the spill) */
	unsigned long long slot_data, slot_tn_known;
	unsigned long long slot_tn_val[NR_SLOTS], slot_tn_mask[NR_SLOTS];
	/*
	 * a bpf_spin_lock() of this function is held on some path (for the order of a global
	 * call's refusals: check_global_call())
	 */
	bool locked;
};

struct flow {
	const struct btf *btf;
	const struct bpf_insn *insns;
	unsigned long cnt;
	const char *const *callee;
	const bool *array_map;
	const struct bpfcc_root *roots;
	struct flow_state *at;
	unsigned long long *reached; /* per instruction: the types the checked call saw */
	struct bpfcc_beyond *beyond; /* per instruction, or NULL: not asked */
	bool *non_owning_arg; /* per instruction, or NULL: an insert given a non-owning result, a
			       * drop given a result that was inserted, or a remove, walk or
			       * bpf_refcount_acquire() given one that died (dead_arg()) */
	bool walking; /* walk_order()'s paths: no marks, constants followed */
	unsigned int ctx_type; /* the program type whose context the main function has, or 0 */
	const struct bpfcc_subcall *subcalls; /* per instruction, or NULL */
	__u32 types[MAX_TYPES];
	unsigned int nr_types;
};

/* The kfuncs whose call the verifier rewrites with the object's record, and their argument. */
static int checked_arg(const char *callee)
{
	if (!callee)
		return 0;
	if (!strcmp(callee, "bpf_obj_drop_impl") || !strcmp(callee, "bpf_refcount_acquire_impl"))
		return 1;
	if (!strcmp(callee, "bpf_list_push_front_impl") ||
	    !strcmp(callee, "bpf_list_push_back_impl") || !strcmp(callee, "bpf_rbtree_add_impl"))
		return 2;
	return 0;
}

static unsigned long long type_bit(struct flow *fl, long long id)
{
	for (unsigned int i = 0; i < fl->nr_types; i++)
		if (fl->types[i] == (__u32)id)
			return 1ull << i;
	if (fl->nr_types == MAX_TYPES || id <= 0)
		return 0;
	fl->types[fl->nr_types] = (__u32)id;
	return 1ull << fl->nr_types++;
}

/*
 * Two paths' tnums of data at a join: the verifier reports the path it walked first, which the
 * walk does not know, so the union of the two (tnum_union()) stands for both: the verdict is
 * right, the message that of one path or a wider one.  Masks only grow: the walk ends.  True
 * when (@val, @mask) changed or stopped being known.
 */
static bool tn_join(unsigned long long *val, unsigned long long *mask, unsigned long long *known,
		    unsigned long long bit, unsigned long long sval, unsigned long long smask,
		    bool s_known)
{
	unsigned long long v, mu;

	if (!s_known) {
		*known &= ~bit;
		return true;
	}
	mu = *mask | smask | (*val ^ sval);
	v = *val & sval & ~mu;
	if (v == *val && mu == *mask)
		return false;
	*val = v;
	*mask = mu;
	return true;
}

/* Merge @s into instruction @to's state: true when that state grew (it must be walked again). */
static bool join(struct flow *fl, unsigned long to, const struct flow_state *s)
{
	struct flow_state *d = &fl->at[to];
	bool grew = !d->seen;

	if (!d->seen) {
		*d = *s;
		return true;
	}
	if ((d->array_map & ~s->array_map) || (d->stack & ~s->stack) ||
	    (d->not_null & ~s->not_null))
		grew = true;
	d->array_map &= s->array_map;
	d->stack &= s->stack;
	d->not_null &= s->not_null;
	grew |= (s->non_owning & ~d->non_owning) || (s->slot_non_owning & ~d->slot_non_owning);
	d->non_owning |= s->non_owning;
	d->slot_non_owning |= s->slot_non_owning;
	grew |= (s->inserted & ~d->inserted) || (s->slot_inserted & ~d->slot_inserted);
	d->inserted |= s->inserted;
	d->slot_inserted |= s->slot_inserted;
	grew |= (s->dead & ~d->dead) || (s->slot_dead & ~d->slot_dead);
	d->dead |= s->dead;
	d->slot_dead |= s->slot_dead;
	grew |= (s->kptr_null & ~d->kptr_null) || (s->slot_kptr_null & ~d->slot_kptr_null) ||
		(s->kptr_rcu & ~d->kptr_rcu) || (s->slot_kptr_rcu & ~d->slot_kptr_rcu);
	d->kptr_null |= s->kptr_null;
	d->slot_kptr_null |= s->slot_kptr_null;
	d->kptr_rcu |= s->kptr_rcu;
	d->slot_kptr_rcu |= s->slot_kptr_rcu;
	grew |= (s->null_ptr & ~d->null_ptr) || (s->slot_null_ptr & ~d->slot_null_ptr) ||
		(s->null_map & ~d->null_map) || (s->slot_null_map & ~d->slot_null_map);
	d->null_ptr |= s->null_ptr;
	d->slot_null_ptr |= s->slot_null_ptr;
	d->null_map |= s->null_map;
	d->slot_null_map |= s->slot_null_map;
	grew |= (s->null_mem & ~d->null_mem) || (s->slot_null_mem & ~d->slot_null_mem);
	d->null_mem |= s->null_mem;
	grew |= (s->null_ring & ~d->null_ring) || (s->slot_null_ring & ~d->slot_null_ring);
	d->null_ring |= s->null_ring;
	d->slot_null_ring |= s->slot_null_ring;
	if ((d->ctx & ~s->ctx) || (s->compared & ~d->compared))
		grew = true;
	d->compared |= s->compared;
	grew |= s->locked && !d->locked;
	d->locked |= s->locked;
	d->ctx &= s->ctx;
	d->sext32 &= s->sext32;
	if (s->pkt & ~d->pkt)
		grew = true; /* a packet pointer without a range on some path: judged */
	d->pkt |= s->pkt;
	if (d->umin_zero & ~s->umin_zero & (s->data | s->var_off))
		grew = true;
	d->umin_zero &= (unsigned short)~((s->data | s->var_off) & ~s->umin_zero);
	if ((d->map_key & ~s->map_key) || (d->caller_stack & ~s->caller_stack))
		grew = true;
	d->map_key &= s->map_key;
	d->caller_stack &= s->caller_stack;
	if (d->always_null & ~s->always_null)
		grew = true;
	d->always_null &= s->always_null;
	for (int r = 0; r < 11; r++)
		if (d->mem_size[r] != s->mem_size[r] && d->mem_size[r]) {
			d->mem_size[r] = 0; /* not the same memory on every path */
			grew = true;
		}
	d->slot_null_mem |= s->slot_null_mem;
	grew |= (s->data & ~d->data) || (s->var_off & ~d->var_off) || (d->rodata & ~s->rodata) ||
		(s->slot_data & ~d->slot_data);
	/*
	 * A tnum belongs to data (or an offset made of it): a path where the register holds a
	 * constant has none to join, and the verifier's message at an access comes from a path
	 * where it is data.  Where both paths have data, two tnums are none.
	 */
	for (int i = 0; i < NR_SLOTS; i++) {
		unsigned long long bit = 1ull << i;

		if ((s->slot_data & bit) && !(d->slot_data & bit)) {
			d->slot_tn_val[i] = s->slot_tn_val[i];
			d->slot_tn_mask[i] = s->slot_tn_mask[i];
			d->slot_tn_known = (d->slot_tn_known & ~bit) | (s->slot_tn_known & bit);
		} else if ((s->slot_data & bit) && (d->slot_tn_known & bit)) {
			grew |= tn_join(&d->slot_tn_val[i], &d->slot_tn_mask[i], &d->slot_tn_known, bit,
					s->slot_tn_val[i], s->slot_tn_mask[i],
					s->slot_tn_known & bit);
		}
	}
	d->slot_data |= s->slot_data;
	for (int r = 0; r < 11; r++) {
		unsigned short bit = (unsigned short)(1u << r);
		unsigned short s_has = s->data | s->var_off, d_has = d->data | d->var_off;

		if (d->origin[r] && d->origin[r] != s->origin[r] && (s_has & bit)) {
			d->origin[r] = 0;
			grew = true;
		}
		/* one maximum on every path, or none: never a growing one (the walk ends) */
		if ((s_has & bit) && !(d_has & bit)) {
			d->umax[r] = s->umax[r];
			d->umax_known = (unsigned short)((d->umax_known & ~bit) |
							 (s->umax_known & bit));
		} else if ((s_has & bit) && (d->umax_known & bit) &&
			   (!(s->umax_known & bit) || s->umax[r] != d->umax[r])) {
			d->umax_known &= (unsigned short)~bit;
			grew = true;
		}
		if ((s_has & bit) && !(d_has & bit)) {
			d->tn_val[r] = s->tn_val[r];
			d->tn_mask[r] = s->tn_mask[r];
			d->tn_known = (unsigned short)((d->tn_known & ~bit) | (s->tn_known & bit));
		} else if ((s_has & bit) && (d->tn_known & bit)) {
			unsigned long long known = d->tn_known;

			grew |= tn_join(&d->tn_val[r], &d->tn_mask[r], &known, bit, s->tn_val[r],
					s->tn_mask[r], s->tn_known & bit);
			d->tn_known = (unsigned short)known;
		}
	}
	d->data |= s->data;
	d->var_off |= s->var_off;
	d->rodata &= s->rodata;
	for (int r = 0; r < 11; r++)
		if (d->result[r] && d->result[r] != s->result[r]) {
			d->result[r] = 0;
			grew = true;
		}
	for (int i = 0; i < NR_SLOTS; i++) {
		if (d->slot_result[i] && d->slot_result[i] != s->slot_result[i]) {
			d->slot_result[i] = 0;
			grew = true;
		}
		if (d->slot_value[i] && d->slot_value[i] != s->slot_value[i]) {
			d->slot_value[i] = 0;
			grew = true;
		}
	}
	for (int r = 0; r < 11; r++) {
		if (d->root[r].type && (s->root[r].type != d->root[r].type ||
					s->root[r].node_off != d->root[r].node_off)) {
			d->root[r].type = 0;
			grew = true;
		}
		if (d->root[r].map_value && s->root[r].map_value != d->root[r].map_value) {
			d->root[r].map_value = 0;
			grew = true;
		}
		if (d->value[r] && s->value[r] != d->value[r]) {
			d->value[r] = 0;
			grew = true;
		}
		if ((d->off_known & (1u << r)) &&
		    (!(s->off_known & (1u << r)) || s->off[r] != d->off[r])) {
			d->off_known &= (unsigned short)~(1u << r);
			grew = true;
		}
		grew |= (s->reg[r] & ~d->reg[r]) != 0;
		d->reg[r] |= s->reg[r];
		if ((d->imm_known & (1u << r)) &&
		    (!(s->imm_known & (1u << r)) || s->imm[r] != d->imm[r])) {
			d->imm_known &= (unsigned short)~(1u << r);
			grew = true;
		}
	}
	for (int i = 0; i < NR_SLOTS; i++) {
		grew |= (s->slot[i] & ~d->slot[i]) != 0;
		d->slot[i] |= s->slot[i];
		if ((d->slot_off_known & (1ull << i)) &&
		    (!(s->slot_off_known & (1ull << i)) || s->slot_off[i] != d->slot_off[i])) {
			d->slot_off_known &= ~(1ull << i);
			grew = true;
		}
	}
	return grew;
}

static void set_reg(struct flow_state *s, int r, unsigned long long types)
{
	unsigned short keep = (unsigned short)~(1u << r);

	s->reg[r] = types;
	s->imm_known &= keep;
	s->array_map &= keep;
	s->stack &= keep;
	s->not_null &= keep;
	s->off_known &= keep;
	s->non_owning &= keep;
	s->inserted &= keep;
	s->dead &= keep;
	s->kptr_null &= keep;
	s->kptr_rcu &= keep;
	s->null_ptr &= keep;
	s->null_map &= keep;
	s->null_mem &= keep;
	s->null_ring &= keep;
	s->ctx &= keep;
	s->compared &= keep;
	s->data &= keep;
	s->var_off &= keep;
	s->tn_known &= keep;
	s->rodata &= keep;
	s->sext32 &= keep;
	s->pkt &= keep;
	s->origin[r] = 0;
	s->umax_known &= keep;
	s->umin_zero &= keep;
	s->result[r] = 0;
	s->root[r].type = 0;
	s->root[r].map_value = 0;
	s->root[r].datasec = 0;
	s->root[r].rodata_size = 0;
	s->root[r].map_key_size = 0;
	s->root[r].map_value_size = 0;
	s->root[r].datasec_size = 0;
	s->value[r] = 0;
	s->mem_size[r] = 0;
	s->map_key &= keep;
	s->caller_stack &= keep;
	s->always_null &= keep;
}

/* A stack slot written: what it held is gone. */
static void clear_slot(struct flow_state *s, int slot)
{
	s->slot_off_known &= ~(1ull << slot);
	s->slot_non_owning &= ~(1ull << slot);
	s->slot_inserted &= ~(1ull << slot);
	s->slot_dead &= ~(1ull << slot);
	s->slot_kptr_null &= ~(1ull << slot);
	s->slot_kptr_rcu &= ~(1ull << slot);
	s->slot_null_ptr &= ~(1ull << slot);
	s->slot_null_map &= ~(1ull << slot);
	s->slot_null_mem &= ~(1ull << slot);
	s->slot_null_ring &= ~(1ull << slot);
	s->slot_result[slot] = 0;
	s->slot_value[slot] = 0;
	s->slot_data &= ~(1ull << slot);
	s->slot_tn_known &= ~(1ull << slot);
}

/* The call result @result was given to a push or add: every copy of it is non-owning now. */
static void mark_inserted(struct flow_state *s, unsigned int result)
{
	for (int r = 0; r < 11; r++)
		if (s->result[r] == result)
			s->inserted |= (unsigned short)(1u << r);
	for (int i = 0; i < NR_SLOTS; i++)
		if (s->slot_result[i] == result)
			s->slot_inserted |= 1ull << i;
}

/*
 * The call result @result was given away by bpf_kptr_xchg() into a map value, or dropped: the
 * reference is released, and every copy of it is a scalar to the verifier (release_reference()).
 */
static void mark_released(struct flow_state *s, unsigned int result)
{
	for (int r = 0; r < 11; r++)
		if (s->result[r] == result)
			s->dead |= (unsigned short)(1u << r);
	for (int i = 0; i < NR_SLOTS; i++)
		if (s->slot_result[i] == result)
			s->slot_dead |= 1ull << i;
}

static void set_off(struct flow_state *s, int r, long long off)
{
	s->off[r] = off;
	s->off_known |= (unsigned short)(1u << r);
}

static int stack_slot(const struct bpf_insn *in, bool store)
{
	int off = in->off;

	if ((store ? in->dst_reg : in->src_reg) != BPF_REG_10 || off >= 0 || off < -512 || off % 8)
		return -1;
	return -off / 8 - 1;
}

/* Whether @callee (NULL: not a call by name) is one of the @nr @names. */
static bool callee_in(const char *callee, const char *const *names, size_t nr)
{
	for (size_t i = 0; callee && i < nr; i++)
		if (!strcmp(callee, names[i]))
			return true;
	return false;
}

/* The kfuncs whose result is a non-owning reference (the last four are 6.16's). */
static bool returns_non_owning(const char *callee)
{
	static const char *const names[] = {"bpf_rbtree_first", "bpf_list_front",
					    "bpf_list_back",	"bpf_rbtree_root",
					    "bpf_rbtree_left",	"bpf_rbtree_right"};

	return callee_in(callee, names, sizeof(names) / sizeof(names[0]));
}

/* The kfuncs that give a node of the root in r1 (its container's type, at the node's offset). */
static bool returns_node_of_root(const char *callee)
{
	static const char *const names[] = {
		"bpf_list_pop_front", "bpf_list_pop_back", "bpf_list_front",
		"bpf_list_back",      "bpf_rbtree_first",  "bpf_rbtree_root",
		"bpf_rbtree_left",    "bpf_rbtree_right",  "bpf_rbtree_remove"};

	return callee_in(callee, names, sizeof(names) / sizeof(names[0]));
}

/*
 * The argument register of the kfuncs that take a live reference of either kind: one whose
 * reference died (a scalar to the verifier: a non-owning or inserted result after the unlock,
 * one given to bpf_kptr_xchg()) is refused ("arg#0 is neither owning or non-owning ref", "X can
 * only take non-owning or refcounted bpf_rb_node pointer"; the running 6.18), though another
 * variable's result may keep the object live natively.
 */
static int dead_arg(const char *callee)
{
	if (!callee)
		return 0;
	if (!strcmp(callee, "bpf_refcount_acquire_impl"))
		return 1;
	if (!strcmp(callee, "bpf_rbtree_remove") || !strcmp(callee, "bpf_rbtree_left") ||
	    !strcmp(callee, "bpf_rbtree_right") || !strcmp(callee, "bpf_kptr_xchg"))
		return 2;
	return 0;
}

/*
 * The type @*id stands for past its modifiers and typedefs (with @tags, its type tags too),
 * @*id moved to it; NULL when an id on the way has no type.
 */
static const struct btf_type *resolve_mods(const struct btf *btf, __u32 *id, bool tags)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t) || (tags && btf_is_type_tag(t)))) {
		*id = t->type;
		t = btf__type_by_id(btf, *id);
	}
	return t;
}

/*
 * The struct a __kptr field at byte @off of the struct @id (members of nested structs too)
 * points to: its BTF id, 0 when no such field is there.
 */
static __u32 kptr_field_type(const struct btf *btf, __u32 id, long long off, const char **tag)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_struct(t) || off < 0 || off >= t->size)
		return 0;
	m = btf_members(t);
	for (__u16 k = 0; k < btf_vlen(t); k++, m++) {
		long long moff = btf_member_bit_offset(t, k) / 8;
		__u32 tid = m->type;
		const struct btf_type *mt = resolve_mods(btf, &tid, false);

		if (!mt)
			continue;
		if (btf_is_struct(mt) && off >= moff && off < moff + mt->size)
			return kptr_field_type(btf, tid, off - moff, tag);
		if (moff != off || !btf_is_ptr(mt))
			continue;
		/* PTR -> TYPE_TAG "kptr" (or "percpu_kptr", "kptr_untrusted") -> ... -> STRUCT */
		tid = mt->type;
		mt = btf__type_by_id(btf, tid);
		if (!mt || !btf_is_type_tag(mt))
			return 0;
		if (tag)
			*tag = btf__name_by_offset(btf, mt->name_off);
		mt = resolve_mods(btf, &tid, true);
		return mt && btf_is_struct(mt) ? tid : 0;
	}
	return 0;
}

/*
 * The calls whose result is maybe NULL until checked, and whose load before the check the
 * verifier refuses as 'ptr_or_null_' or 'map_value_or_null' (measured on 6.18.44: an unchecked
 * pop, bpf_kptr_xchg() result).  Not the non-owning walkers' (their type carries more flags), nor
 * bpf_refcount_acquire() (of an owning reference it cannot fail, 6.6+).
 */
static bool maybe_null_result(const char *callee)
{
	static const char *const names[] = {"bpf_obj_new_impl", "bpf_list_pop_front",
					    "bpf_list_pop_back", "bpf_rbtree_remove", "bpf_kptr_xchg",
					    "bpf_map_lookup_elem", "bpf_ringbuf_reserve"};

	return callee_in(callee, names, sizeof(names) / sizeof(names[0]));
}

/*
 * Tristate numbers, as the verifier keeps a scalar's bits (kernel/bpf/tnum.c): @val the values
 * of the known bits, @mask the unknown ones.  Only what clang's index arithmetic needs.
 */
static void tn_set(struct flow_state *s, int r, unsigned long long val, unsigned long long mask)
{
	s->tn_val[r] = val & ~mask;
	s->tn_mask[r] = mask;
	s->tn_known |= (unsigned short)(1u << r);
}

/*
 * The calls whose result is a number the verifier knows nothing of (a helper's RET_INTEGER, an
 * insert's 0 or -EINVAL): data, as a load from memory is.
 */
static bool returns_data(const char *callee)
{
	static const char *const names[] = {
		"bpf_get_prandom_u32",	   "bpf_ktime_get_ns",	     "bpf_ktime_get_boot_ns",
		"bpf_ktime_get_coarse_ns", "bpf_ktime_get_tai_ns",   "bpf_jiffies64",
		"bpf_rbtree_add_impl",	   "bpf_list_push_front_impl", "bpf_list_push_back_impl",
		"bpf_skb_load_bytes",	   "bpf_get_current_comm",   "bpf_probe_read_kernel"};

	return callee_in(callee, names, sizeof(names) / sizeof(names[0]));
}

/*
 * The native helpers that fill a buffer (ARG_PTR_TO_UNINIT_MEM, its size the next argument,
 * ARG_CONST_SIZE): the buffer's register.  On the stack the verifier checks the range against
 * the frame (check_stack_range_initialized(), the running 6.18: "invalid write to stack R3
 * off=-16 size=32"); natively the helper would write past the buffer.
 */
static int filled_buffer_arg(const char *callee)
{
	static const char *const fill_arg1[] = {"bpf_get_current_comm", "bpf_probe_read_kernel"};

	if (callee_in(callee, fill_arg1, sizeof(fill_arg1) / sizeof(fill_arg1[0])))
		return 1;
	return callee && !strcmp(callee, "bpf_skb_load_bytes") ? 3 : 0;
}

/*
 * A size that is data loaded as it is (any value of its width, zero included) and never
 * compared since: its minimum is 0 to the verifier too.  Anything else (masked, added to,
 * checked) is left alone: the verifier's bounds may exclude zero where a tnum cannot tell.
 */
#define BPF_MAX_VAR_SIZ (1 << 29) /* include/linux/bpf.h */
#define BPF_MAX_VAR_OFF (1 << 29) /* include/linux/bpf.h */

#define MEM_ZERO_BYTES (-1)

static int mem_bytes(const struct flow_state *s, int r)
{
	return s->mem_size[r] == MEM_ZERO_BYTES ? 0 : s->mem_size[r];
}

static bool unbounded_size(const struct flow_state *s, int r)
{
	unsigned long long mask = s->tn_mask[r];
	unsigned short bit = (unsigned short)(1u << r);

	return (s->data & s->tn_known & bit) && !(s->compared & bit) && !s->tn_val[r] &&
	       (mask == 0xff || mask == 0xffff || mask == 0xffffffffull || mask == ~0ull);
}

/*
 * An access past the memory a global function's pointer argument stands for
 * (check_mem_region_access(), 6.18: both lines).
 */
static void mem_region_refused(struct flow *fl, unsigned long i, int reg, int mem_size,
			       long long off, long long size)
{
	snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
		 "invalid access to memory, mem_size=%d off=%lld size=%lld\n"
		 "R%d min value is outside of the allowed memory range",
		 mem_size, off, size, reg);
}

/*
 * A load or store through a map's key (a bpf_for_each_map_elem() callback's, PTR_TO_MAP_KEY):
 * check_mem_access() refuses any store first, then an access past key_size
 * (__check_mem_access(), 6.12's source, the running 6.18's two lines).  True when refused.
 */
static bool map_key_refused(struct flow *fl, unsigned long i, const struct flow_state *s, int reg,
			    long long off, int size)
{
	__u8 cls = BPF_CLASS(fl->insns[i].code);

	if (!(s->map_key & (1u << reg)) || (s->var_off & (1u << reg)))
		return false;
	if (cls == BPF_ST || cls == BPF_STX)
		snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
			 "write to change key R%d not allowed", reg);
	else if (off < 0 || off + size > s->mem_size[reg])
		snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
			 "invalid access to map key, key_size=%d off=%lld size=%d\n"
			 "R%d min value is outside of the allowed memory range",
			 s->mem_size[reg], off, size, reg);
	return true;
}

/*
 * A constant-sized buffer on the stack that runs past the frame's top, or past a global
 * function's argument memory, refused at the call @i.  bpf_ringbuf_output()'s data (R2, its
 * size R3) is read from, the others' buffers written to.
 */
static void check_stack_buffer(struct flow *fl, unsigned long i, const struct flow_state *s)
{
	bool read = fl->callee[i] && !strcmp(fl->callee[i], "bpf_ringbuf_output");
	int buf = read ? 2 : filled_buffer_arg(fl->callee[i]), size = buf + 1;
	long long end;

	if (!buf || fl->walking || !fl->beyond || fl->beyond[i].refused[0])
		return;
	if (unbounded_size(s, size)) {
		/*
		 * bpf_probe_read_kernel()'s size and bpf_ringbuf_output()'s are
		 * ARG_CONST_SIZE_OR_ZERO, the others' ARG_CONST_SIZE
		 */
		bool zero_ok = read || !strcmp(fl->callee[i], "bpf_probe_read_kernel");

		/*
		 * check_mem_size_reg(): a signed minimum below zero first (all 64 bits unknown),
		 * then ARG_CONST_SIZE's minimum must be above zero
		 */
		if (s->tn_mask[size] == ~0ull)
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "R%d min value is negative, either use unsigned or 'var &= const'",
				 size);
		else if (zero_ok && s->tn_mask[size] > BPF_MAX_VAR_SIZ)
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "R%d unbounded memory access, use 'var &= const' or "
				 "'if (var < const)'",
				 size);
		else if (zero_ok)
			return; /* zero allowed: the range then, which bounds decide */
		else
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "R%d invalid zero-sized read: u64=[0,%llu]", size,
				 s->tn_mask[size]);
		return;
	}
	if (!((s->stack & (1u << buf)) || s->mem_size[buf]) || !(s->imm_known & (1u << size)))
		return;
	end = s->off[buf] + s->imm[size];
	if (s->mem_size[buf] && (s->off_known & (1u << buf)) && end > mem_bytes(s, buf)) {
		mem_region_refused(fl, i, buf, mem_bytes(s, buf), s->off[buf], s->imm[size]);
		return;
	}
	if (!(s->stack & (1u << buf)))
		return;
	if (s->off[buf] < 0 && s->imm[size] > 0 && end > 0)
		snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
			 "invalid %s stack R%d off=%lld size=%lld", read ? "read from" : "write to",
			 buf, s->off[buf], s->imm[size]);
}

static const char *special_field_at(const struct btf *btf, __u32 id, long long off, int size);
static bool global_refused(const struct flow_state *s, int reg, long long off, int size,
			   char *refused, size_t len);

/*
 * The key (and an update's value) given to a map helper (check_helper_call() ->
 * check_func_arg(), 6.18): a scalar is no memory at all ("R2 type=scalar expected=fp, ..."),
 * and a buffer on the stack must have the map's key_size (value_size) bytes below the frame's
 * top (check_stack_range_initialized(): "invalid read from stack R2 off=-2 size=4").  A native
 * run would read past the buffer, or through the scalar as an address (a crash).
 */
static void check_map_helper(struct flow *fl, unsigned long i, const struct flow_state *s)
{
	const char *name = fl->callee[i];
	int last;

	if (!name || fl->walking || !fl->beyond || fl->beyond[i].refused[0] ||
	    !s->root[1].map_key_size)
		return;
	if (!strcmp(name, "bpf_map_update_elem"))
		last = 3;
	else if (!strcmp(name, "bpf_map_lookup_elem") || !strcmp(name, "bpf_map_delete_elem") ||
		 !strcmp(name, "bpf_map_lookup_percpu_elem"))
		last = 2;
	else
		return;
	/* check_map_func_compatibility(): only per-CPU maps have a value per CPU */
	if (!strcmp(name, "bpf_map_lookup_percpu_elem") &&
	    s->root[1].map_type != BPF_MAP_TYPE_PERCPU_HASH &&
	    s->root[1].map_type != BPF_MAP_TYPE_PERCPU_ARRAY &&
	    s->root[1].map_type != BPF_MAP_TYPE_LRU_PERCPU_HASH) {
		snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
			 "cannot pass map_type %u into func bpf_map_lookup_percpu_elem#%d",
			 s->root[1].map_type, BPF_FUNC_map_lookup_percpu_elem);
		return;
	}
	for (int r = 2; r <= last; r++) {
		unsigned short bit = (unsigned short)(1u << r);
		unsigned int size = r == 2 ? s->root[1].map_key_size : s->root[1].map_value_size;
		bool pointer = s->reg[r] || (s->stack & bit) || s->value[r] || (s->ctx & bit) ||
			       s->root[r].type || s->root[r].datasec || s->root[r].map_key_size ||
			       (s->rodata & bit) || s->mem_size[r] || (s->kptr_null & bit) ||
			       (s->array_map & bit);

		if (!pointer && ((s->imm_known & bit) || (s->data & bit))) {
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "R%d type=scalar expected=fp, pkt, pkt_meta, map_key, map_value, "
				 "mem, ringbuf_mem, buf, trusted_ptr_",
				 r);
			return;
		}
		if ((s->ctx & bit) && !s->reg[r]) {
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "R%d type=ctx expected=fp, pkt, pkt_meta, map_key, map_value, mem, "
				 "ringbuf_mem, buf, trusted_ptr_",
				 r);
			return;
		}
		/* a global's bytes: its section is a map value too */
		if (!s->value[r] && s->root[r].datasec && s->root[r].datasec_size &&
		    !(s->var_off & bit) &&
		    (s->off[r] < 0 || s->off[r] + (long long)size > s->root[r].datasec_size)) {
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "invalid access to map value, value_size=%u off=%lld size=%u\n"
				 "R%d min value is outside of the allowed memory range",
				 s->root[r].datasec_size, s->off[r], size, r);
			return;
		}
		/* another map's value (check_helper_mem_access() -> check_map_access()) */
		if (s->value[r] && (s->off_known & bit) && !(s->var_off & bit) &&
		    !(s->kptr_null & bit)) {
			__s64 vsize = btf__resolve_size(fl->btf, s->value[r]);

			if (vsize > 0 && (s->off[r] < 0 || s->off[r] + (long long)size > vsize)) {
				snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
					 "invalid access to map value, value_size=%lld off=%lld "
					 "size=%u\nR%d min value is outside of the allowed memory "
					 "range",
					 (long long)vsize, s->off[r], size, r);
				return;
			}
		}
		/*
		 * memory of a known size (a ring buffer record): check_helper_mem_access() ->
		 * check_mem_region_access()
		 */
		if (s->mem_size[r] && (s->off_known & bit) && !(s->var_off & bit) &&
		    (s->off[r] < 0 || s->off[r] + (long long)size > mem_bytes(s, r))) {
			mem_region_refused(fl, i, r, mem_bytes(s, r), s->off[r], size);
			return;
		}
		if ((s->stack & bit) && !(s->var_off & bit) && s->off[r] < 0 &&
		    s->off[r] + (long long)size > 0) {
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "invalid read from stack R%d off=%lld size=%u", r, s->off[r], size);
			return;
		}
	}
}

/* The BTF type of the map value register @r points into at off[] (0: none known). */
static __u32 map_value_of(const struct flow_state *s, int r)
{
	if (s->root[r].datasec)
		return s->root[r].datasec;
	return (s->off_known & (1u << r)) ? s->value[r] : 0;
}

/*
 * A call of a global function (check_func_call() -> btf_check_subprog_call(), 6.18): its
 * prototype refused, or a pointer argument on the stack with fewer bytes above it in the frame
 * than the memory the prototype promises the callee ("invalid read from stack R1 off=-8
 * size=16"); either is followed by the caller's line naming the function.
 */
static void check_global_call(struct flow *fl, unsigned long i, const struct flow_state *s)
{
	const struct bpfcc_subcall *c = &fl->subcalls[i];
	const char *field;
	char why[128] = "";

	if (fl->walking || !fl->beyond || fl->beyond[i].refused[0])
		return;
	for (int a = 0; !c->args.refused[0] && !why[0] && a < c->args.nr_args; a++) {
		int r = a + 1, size = c->args.mem_size[a];
		unsigned short bit = (unsigned short)(1u << r);
		bool not_ctx = (s->stack | s->rodata | s->imm_known) & bit;

		if (c->args.ctx_arg[a] && (s->ctx & bit) && s->off[r])
			snprintf(why, sizeof(why), "dereference of modified ctx ptr R%d off=%lld disallowed",
				 r, s->off[r]);
		else if (c->args.ctx_arg[a] && !(s->ctx & bit) && not_ctx)
			snprintf(why, sizeof(why), "arg#%d expects pointer to ctx", a);
		/* check_helper_mem_access(): what it does not take is named against the stack */
		else if (size && (s->ctx & bit) && c->ctx_mem == BPFCC_CTX_MEM_NOT_FP)
			snprintf(why, sizeof(why), "R%d type=ctx expected=fp", r);
		else if (size && (s->ctx & bit) && c->ctx_mem == BPFCC_CTX_MEM_READONLY)
			snprintf(why, sizeof(why), "invalid bpf_context access off=%lld size=1",
				 s->off[r] + size - 1);
		else if (size && (s->imm_known & ~s->stack & bit) && s->imm[r])
			snprintf(why, sizeof(why), "R%d type=scalar expected=fp", r);
		/* check_mem_reg() -> check_map_access(): no special field may be in the bytes */
		else if (size && (field = special_field_at(fl->btf, map_value_of(s, r), s->off[r],
							   size)) && strcmp(field, "kptr"))
			snprintf(why, sizeof(why), "%s cannot be accessed directly by load/store",
				 field);
		/* check_mem_reg(): memory of a known size (a ring buffer record) too small */
		else if (size && s->mem_size[r] && (s->off_known & bit) && !(s->var_off & bit) &&
			 (s->off[r] < 0 || s->off[r] + size > mem_bytes(s, r)))
			snprintf(why, sizeof(why),
				 "invalid access to memory, mem_size=%d off=%lld size=%d\n"
				 "R%d min value is outside of the allowed memory range",
				 mem_bytes(s, r), s->off[r], size, r);
		/* check_mem_reg(): the bytes are read, then written */
		else if (size && (s->stack & (1u << r)) && s->off[r] < 0 && s->off[r] + size > 0)
			snprintf(why, sizeof(why), "invalid read from stack R%d off=%lld size=%d", r,
				 s->off[r], size);
		else if (size && (s->rodata & (1u << r)) && s->root[r].rodata_size)
			snprintf(why, sizeof(why),
				 "write into map forbidden, value_size=%u off=%lld size=%d",
				 s->root[r].rodata_size, s->off[r], size);
	}
	/*
	 * 6.18 checks the arguments first (their message is in the log), then refuses a call
	 * under a lock before it says that the arguments were wrong (measured on 6.18.44)
	 */
	if ((c->args.refused[0] || why[0]) && s->locked)
		snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
			 "%s\nglobal function calls are not allowed while holding a lock,\n"
			 "use static function instead",
			 c->args.refused[0] ? c->args.refused : why);
	else if (c->args.refused[0] || why[0])
		snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
			 "%s\nCaller passes invalid args into func#%d ('%s')",
			 c->args.refused[0] ? c->args.refused : why, c->func_nr, c->name);
}

/*
 * The numeric iterator's stack slots (iter_get_spi(), 6.12 and the running 6.18): an iterator
 * at a stack offset that is not a multiple of 8 is "cannot pass in iter at an offset=%d", then
 * what new() (uninitialized) or next() and destroy() (initialized) wanted.  The native runtime
 * asks for it when its iterator is misaligned too (bpfrt_iter.c): natively the offset is not
 * the BPF frame's.
 */
static void check_iter_slot(struct flow *fl, unsigned long i, const struct flow_state *s)
{
	const char *name = fl->callee[i];

	if (!name || strncmp(name, "bpf_iter_num_", 13) || !fl->beyond || fl->walking ||
	    fl->beyond[i].refused[0] || !(s->stack & (1u << 1)) || (s->var_off & (1u << 1)) ||
	    !(s->off[1] % 8))
		return;
	snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
		 "cannot pass in iter at an offset=%lld\nexpected %s iter_num as arg #0",
		 (long long)s->off[1], strcmp(name, "bpf_iter_num_new") ? "an initialized" : "uninitialized");
}

/* The state after the call at @i (r0 = what it returns, r1-r5 gone). */
static void step_call(struct flow *fl, unsigned long i, struct flow_state *s)
{
	const char *name = fl->callee[i];
	int arg = checked_arg(name);
	unsigned long long r0 = 0;
	bool r0_off_known = false;
	long long r0_off = 0;
	int ring_size = -1; /* bpf_ringbuf_reserve()'s constant size */
	__u32 r0_value = 0, kptr = 0;

	/*
	 * >= 6.14 a lookup in an array with a key on the stack the verifier knows is never NULL
	 * (can_elide_value_nullness()): its NULL branch is not walked.  The key's value is taken
	 * to be inside the array.
	 */
	bool never_null = name && !strcmp(name, "bpf_map_lookup_elem") &&
			  (s->array_map & (1u << 1)) && (s->stack & (1u << 2));

	check_stack_buffer(fl, i, s);
	/* a release of reserve's result before its NULL check (check_reg_type(), 6.18) */
	if (name && !fl->walking && fl->beyond && !fl->beyond[i].refused[0] &&
	    (!strcmp(name, "bpf_ringbuf_submit") || !strcmp(name, "bpf_ringbuf_discard")) &&
	    (s->kptr_null & s->null_ring & (1u << 1)))
		snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
			 "R1 type=ringbuf_mem_or_null expected=ringbuf_mem");
	check_map_helper(fl, i, s);
	check_iter_slot(fl, i, s);
	if (fl->subcalls && fl->subcalls[i].name)
		check_global_call(fl, i, s);
	if (name && !strcmp(name, "bpf_spin_lock"))
		s->locked = true;
	else if (name && !strcmp(name, "bpf_spin_unlock"))
		s->locked = false;
	/* walk_order() marks nothing here: it looks at the call's types itself */
	if (arg && !fl->walking)
		fl->reached[i] |= s->reg[arg];
	/*
	 * push or add: arg#1 is the node, non-owning when a kfunc returned it so or when it was
	 * given to a push or add before (another variable's bpf_refcount_acquire() result may
	 * own the object natively: a re-insert of the first variable is refused all the same)
	 */
	if (!fl->walking && arg == 2 && fl->non_owning_arg &&
	    ((s->non_owning | s->inserted) & (1u << 2)))
		fl->non_owning_arg[i] = true;
	if (!fl->walking && fl->non_owning_arg && dead_arg(name) &&
	    (s->dead & (1u << dead_arg(name))))
		fl->non_owning_arg[i] = true; /* a node or object argument that is a scalar now */
	if (!fl->walking && arg == 2 && fl->non_owning_arg && (s->dead & (1u << 2)))
		fl->non_owning_arg[i] = true; /* push or add of a result dropped or given away */
	if (!fl->walking && arg == 1 && fl->non_owning_arg && !strcmp(name, "bpf_obj_drop_impl") &&
	    ((s->non_owning | s->inserted | s->dead) & (1u << 1)))
		fl->non_owning_arg[i] = true; /* a drop of a result that is not owning any more */
	if (arg == 2 && s->result[2])
		mark_inserted(s, s->result[2]);
	if (name && !strcmp(name, "bpf_kptr_xchg") && s->result[2])
		mark_released(s, s->result[2]);
	/*
	 * release_reference() of the dropped result: every copy is a scalar, though another
	 * variable's bpf_refcount_acquire() result may keep the object live natively
	 */
	if (name && !strcmp(name, "bpf_obj_drop_impl") && s->result[1])
		mark_released(s, s->result[1]);
	/* a ring buffer record submitted or discarded: the same (release_reference()) */
	if (name && (!strcmp(name, "bpf_ringbuf_submit") || !strcmp(name, "bpf_ringbuf_discard")) &&
	    s->result[1])
		mark_released(s, s->result[1]);
	if (name && !strcmp(name, "bpf_spin_unlock")) {
		s->dead |= s->non_owning | s->inserted;
		s->slot_dead |= s->slot_non_owning | s->slot_inserted;
	}
	if (name && !strcmp(name, "bpf_obj_new_impl") && (s->imm_known & (1u << 1))) {
		r0 = type_bit(fl, s->imm[1]);
		r0_off_known = true; /* the object's start */
	} else if (returns_node_of_root(name) && s->root[1].type) {
		r0 = type_bit(fl, s->root[1].type);
		r0_off_known = true;
		r0_off = s->root[1].node_off;
	} else if (name && !strcmp(name, "bpf_refcount_acquire_impl")) {
		r0 = s->reg[1];
		r0_off_known = s->off_known & (1u << 1);
		r0_off = s->off[1];
	} else if (name && !strcmp(name, "bpf_kptr_xchg")) {
		/*
		 * the field's type, known from the map value the lookup gave (an object taken out
		 * with NULL in exchange has it too: seed 9163), else what was stored there is of it
		 */
		if (s->value[1] && (s->off_known & (1u << 1)))
			kptr = kptr_field_type(fl->btf, s->value[1], s->off[1], NULL);
		r0 = kptr ? type_bit(fl, kptr) : s->reg[2];
		r0_off_known = kptr != 0;
	} else if (name && !strcmp(name, "bpf_map_lookup_elem") && s->root[1].map_value) {
		r0_value = s->root[1].map_value;
	}
	/* PTR_TO_MEM | MEM_RINGBUF of the constant size (check_helper_call(): mem_size) */
	if (name && !strcmp(name, "bpf_ringbuf_reserve") && (s->imm_known & (1u << 2)) &&
	    s->imm[2] >= 0 && s->imm[2] <= INT32_MAX)
		ring_size = (int)s->imm[2];
	for (int r = 0; r <= 5; r++)
		set_reg(s, r, 0);
	s->reg[0] = r0;
	s->result[0] = (unsigned int)i + 1;
	if (ring_size >= 0) {
		s->mem_size[0] = ring_size ? ring_size : MEM_ZERO_BYTES;
		set_off(s, 0, 0);
	}
	if (r0 && r0_off_known)
		set_off(s, 0, r0_off);
	if (r0_value) {
		s->value[0] = r0_value;
		set_off(s, 0, 0);
	}
	if (maybe_null_result(name) && !never_null) {
		s->kptr_null |= 1u;
		if (!strcmp(name, "bpf_map_lookup_elem"))
			s->null_map |= 1u;
		else if (!strcmp(name, "bpf_ringbuf_reserve"))
			s->null_ring |= 1u;
		else
			s->null_ptr |= 1u;
	}
	if (returns_non_owning(name))
		s->non_owning |= 1u;
	if (never_null)
		s->not_null |= 1u;
	if (returns_data(name)) { /* RET_INTEGER: mark_reg_unknown(), all 64 bits */
		tn_set(s, 0, 0, ~0ull);
		s->data |= 1u;
		s->umax[0] = ~0ull;
		s->umax_known |= 1u;
		s->umin_zero |= 1u;
		s->origin[0] = (unsigned int)i + 1;
	}
}

/*
 * Whether an access at @off, @size bytes wide, into the struct with BTF id @id lies past its
 * end as btf_struct_walk() sees it for an allocated object: btf_struct_access() walks a
 * flexible array only for other pointers (walk_flex_arrays = !type_is_alloc(), 6.12's source),
 * so even an array of structs at the end is past the end (linked_list_fail.c's
 * obj_new_flex_array, refused by the running 6.18 too).
 */
static bool access_beyond(const struct btf *btf, __u32 id, long long off, int size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	return t && btf_is_struct(t) && off >= 0 && off + size > t->size;
}

/*
 * The size of the type @id past its modifiers, an array's whole (all its dimensions), and the
 * type of its innermost element in @elem (the type itself when it is no array): what
 * __btf_resolve_size() gives btf_struct_walk().  -1 when it has no size.
 */
static long long resolved_size(const struct btf *btf, __u32 id, __u32 *elem)
{
	const struct btf_type *t = resolve_mods(btf, &id, true);
	long long nelems = 1;

	while (t && btf_is_array(t)) {
		nelems *= btf_array(t)->nelems;
		id = btf_array(t)->type;
		t = resolve_mods(btf, &id, true);
	}
	*elem = id;
	if (!t)
		return -1;
	if (btf_is_ptr(t))
		return 8;
	if (btf_is_int(t) || btf_is_any_enum(t) || btf_is_composite(t) || btf_is_float(t))
		return nelems * t->size;
	return -1;
}

/*
 * What btf_struct_walk() refuses for a load or store at @off, @size bytes wide, into an object of
 * the struct @id that stays inside the object (access_beyond() has the end of the object itself;
 * the special fields come before, special_field_at()): bytes past the end of a scalar member or
 * of an array of scalars ("access beyond the end of member M (mend:E) in struct S with off O size
 * Z", the offset and struct those of the innermost struct the walk went down to, as the clang
 * merge of two adjacent u16 stores into one u32 makes it), part of a pointer member ("cannot
 * access ptr member ..."), a hole between members ("struct S doesn't have field at offset O"), or
 * past a nested struct's end.  A union of more than one member makes the walk untrusted, which
 * lets a scalar's end go (PTR_UNTRUSTED); bitfields take the kernel's rule.  6.12's and 6.18's
 * kernel/bpf/btf.c alike.  False when the walk finds the field: @msg is untouched.
 */
static bool struct_walk_refused(const struct btf *btf, __u32 id, long long off, int size,
				char *msg, size_t len)
{
	bool untrusted = false;

	for (int depth = 0; depth < 32; depth++) {
		const struct btf_type *t = resolve_mods(btf, &id, true);
		const struct btf_member *m;
		const char *tname;
		bool found = false;

		if (!t || !btf_is_composite(t) || off < 0)
			return false;
		tname = btf__name_by_offset(btf, t->name_off);
		if (btf_is_union(t) && btf_vlen(t) != 1)
			untrusted = true;
		if (off + size > t->size) {
			const struct btf_type *last = NULL;

			if (btf_vlen(t))
				last = btf__type_by_id(btf, btf_members(t)[btf_vlen(t) - 1].type);
			/* a flexible array at a nested struct's end: not followed */
			if (depth && last && btf_is_array(last) && !btf_array(last)->nelems)
				return false;
			snprintf(msg, len, "access beyond struct %s at off %lld size %d", tname, off,
				 size);
			return true;
		}
		m = btf_members(t);
		for (__u16 k = 0; k < btf_vlen(t) && !found; k++, m++) {
			long long moff = btf_member_bit_offset(t, k) / 8, msize, mend;
			__u32 bits = btf_member_bitfield_size(t, k), elem;
			const struct btf_type *mt;
			const char *mname;

			if (off + size <= moff)
				break;
			if (bits) {
				long long end_bit = btf_member_bit_offset(t, k) + bits;

				if (off <= moff && (end_bit + 7) / 8 <= off + size)
					return false;
				continue;
			}
			if (off < moff)
				break; /* a hole */
			msize = resolved_size(btf, m->type, &elem);
			if (msize < 0)
				return false; /* "field %s doesn't have size": not followed */
			mend = moff + msize;
			if (off >= mend)
				continue;
			mname = btf__name_by_offset(btf, m->name_off);
			mt = resolve_mods(btf, &elem, true);
			if (!mt)
				return false;
			if (msize != (btf_is_ptr(mt) ? 8 : mt->size)) { /* an array: one element */
				long long esize = btf_is_ptr(mt) ? 8 : mt->size;

				if (!esize)
					continue;
				moff += (off - moff) / esize * esize;
				msize = esize;
			}
			if (btf_is_composite(mt)) {
				off -= moff;
				id = elem;
				found = true;
				break;
			}
			if (btf_is_ptr(mt)) {
				if (msize != size || off != moff) {
					snprintf(msg, len,
						 "cannot access ptr member %s with moff %lld in struct "
						 "%s with off %lld size %d",
						 mname, moff, tname, off, size);
					return true;
				}
				return false;
			}
			if (off + size > mend && !untrusted) {
				snprintf(msg, len,
					 "access beyond the end of member %s (mend:%lld) in struct %s "
					 "with off %lld size %d",
					 mname, mend, tname, off, size);
				return true;
			}
			return false;
		}
		if (!found) {
			snprintf(msg, len, "struct %s doesn't have field at offset %lld", tname, off);
			return true;
		}
	}
	return false;
}

/*
 * The special field of the struct @id (nested structs' too) that bytes [@off, @off + @size)
 * overlap: the name the verifier gives it (btf_field_type_name()), or NULL.  Its size is the
 * BTF's, the uapi struct's, as btf_field_type_size() has it.
 */
static const char *special_field_at(const struct btf *btf, __u32 id, long long off, int size)
{
	static const char *const names[] = {"bpf_spin_lock", "bpf_res_spin_lock", "bpf_timer",
					    "bpf_wq",	     "bpf_list_head",	  "bpf_list_node",
					    "bpf_rb_root",   "bpf_rb_node",	  "bpf_refcount"};
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;

	if (t && btf_is_datasec(t)) { /* a section's variables, as a struct's members */
		const struct btf_var_secinfo *v = btf_var_secinfos(t);

		for (__u16 k = 0; k < btf_vlen(t); k++, v++) {
			const struct btf_type *var = btf__type_by_id(btf, v->type);
			__u32 tid = var && btf_is_var(var) ? var->type : 0;
			const struct btf_type *vt = tid ? resolve_mods(btf, &tid, false) : NULL;
			const char *name;

			if (!vt || off >= v->offset + v->size || v->offset >= off + size)
				continue;
			name = btf_is_struct(vt) ? btf__name_by_offset(btf, vt->name_off) : NULL;
			for (size_t n = 0; name && n < sizeof(names) / sizeof(names[0]); n++)
				if (!strcmp(name, names[n]))
					return names[n];
			name = special_field_at(btf, tid, off - v->offset, size);
			if (name)
				return name;
		}
		return NULL;
	}
	if (!t || !btf_is_struct(t))
		return NULL;
	m = btf_members(t);
	for (__u16 k = 0; k < btf_vlen(t); k++, m++) {
		long long moff = btf_member_bit_offset(t, k) / 8;
		__u32 tid = m->type;
		const struct btf_type *mt = resolve_mods(btf, &tid, false);
		const char *name;

		if (!mt)
			continue;
		if (btf_is_ptr(mt)) {
			const struct btf_type *tag = btf__type_by_id(btf, mt->type);

			name = tag && btf_is_type_tag(tag) ? btf__name_by_offset(btf, tag->name_off)
							   : NULL;
			if (name && (!strcmp(name, "kptr") || !strcmp(name, "kptr_untrusted") ||
				     !strcmp(name, "percpu_kptr")) &&
			    off < moff + 8 && moff < off + size)
				return strcmp(name, "percpu_kptr") ? "kptr" : "percpu_kptr";
			continue;
		}
		if (!btf_is_struct(mt) || off >= moff + mt->size || moff >= off + size)
			continue;
		name = btf__name_by_offset(btf, mt->name_off);
		for (size_t n = 0; name && n < sizeof(names) / sizeof(names[0]); n++)
			if (!strcmp(name, names[n]))
				return names[n];
		name = special_field_at(btf, tid, off - moff, size);
		if (name)
			return name;
	}
	return NULL;
}

/*
 * What the verifier refuses at the access @i through register @reg, on any path where @reg
 * holds what @s says, from the types alone (6.12's source, the running 6.18): for a map value,
 * an access over a special field (check_map_access(): "bpf_spin_lock cannot be accessed
 * directly by load/store"), a __kptr field read or written other than as 8 bytes, a store into
 * a referenced one (check_map_kptr_access(): only a load, or bpf_kptr_xchg()); for an object, a
 * negative offset (check_ptr_to_btf_access()), then an access over one of its special fields
 * (btf_struct_access()), then what the struct walk refuses inside the object
 * (struct_walk_refused(); access_beyond() has the object's end).  True when it wrote
 * @fl->beyond[@i].refused.
 */
static bool refused_access(struct flow *fl, unsigned long i, const struct flow_state *s, int reg,
			   long long off, int size)
{
	const struct bpf_insn *in = &fl->insns[i];
	struct bpfcc_beyond *by = &fl->beyond[i];
	__u8 cls = BPF_CLASS(in->code);
	const char *tag = NULL, *field;

	if (!s->value[reg] && s->root[reg].datasec && s->root[reg].datasec_size &&
	    global_refused(s, reg, off, size, by->refused, sizeof(by->refused)))
		return true;
	if (s->value[reg] && (s->var_off & (1u << reg))) {
		__s64 vsize = btf__resolve_size(fl->btf, s->value[reg]);
		unsigned long long max = s->tn_val[reg] | s->tn_mask[reg];
		long long lo;

		/*
		 * check_mem_region_access() with the bounds: the walk keeps tnums, which are the
		 * verifier's bounds for data masked, shifted or added, not for data a branch
		 * compared (then nothing is said)
		 */
		if (!(s->tn_known & (1u << reg)) || vsize <= 0)
			return false;
		/* the minimum first: with a variable part from 0, the constant offset alone */
		if ((s->umin_zero & (1u << reg)) && (off < 0 || off + size > vsize)) {
			snprintf(by->refused, sizeof(by->refused),
				 "invalid access to map value, value_size=%lld off=%lld size=%d\n"
				 "R%d min value is outside of the allowed memory range",
				 (long long)vsize, off, size, reg);
			return true;
		}
		if (s->umax_known & (1u << reg))
			max = s->umax[reg]; /* the verifier's own maximum */
		else if (s->compared & (1u << reg))
			return false;
		if (max >= BPF_MAX_VAR_OFF)
			snprintf(by->refused, sizeof(by->refused),
				 "R%d unbounded memory access, make sure to bounds check any such "
				 "access",
				 reg);
		else if (off + (long long)max + size > vsize)
			snprintf(by->refused, sizeof(by->refused),
				 "invalid access to map value, value_size=%lld off=%lld size=%d\n"
				 "R%d max value is outside of the allowed memory range",
				 (long long)vsize, off + (long long)max, size, reg);
		if (by->refused[0])
			return true;
		/*
		 * check_map_access() then: any special field that [smin + off, umax + off + size)
		 * overlaps (5.19 to the running 6.18); a __kptr one is refused for the variable
		 * offset itself.  The walk's minimum is the tnum's, 0 when it keeps a 0 minimum.
		 */
		lo = (s->umin_zero & (1u << reg)) ? off : off + (long long)s->tn_val[reg];
		field = special_field_at(fl->btf, s->value[reg], lo,
					 (int)(off + (long long)max + size - lo));
		if (field && (!strcmp(field, "kptr") || !strcmp(field, "percpu_kptr")))
			snprintf(by->refused, sizeof(by->refused),
				 "kptr access cannot have variable offset");
		else if (field)
			snprintf(by->refused, sizeof(by->refused),
				 "%s cannot be accessed directly by load/store", field);
		return field != NULL;
	}
	if (s->value[reg]) {
		__s64 vsize = btf__resolve_size(fl->btf, s->value[reg]);

		/*
		 * check_map_access() -> check_mem_region_access(): the access within the value
		 * (a constant offset: its minimum is the one that fails, 6.12 and 6.18)
		 */
		if (vsize > 0 && (off < 0 || off + size > vsize)) {
			snprintf(by->refused, sizeof(by->refused),
				 "invalid access to map value, value_size=%lld off=%lld size=%d\n"
				 "R%d min value is outside of the allowed memory range",
				 (long long)vsize, off, size, reg);
			return true;
		}
		/* check_map_access(): any byte of a special field, a kptr's exact 8 bytes only */
		field = special_field_at(fl->btf, s->value[reg], off, size);
		if (field && strcmp(field, "kptr") && strcmp(field, "percpu_kptr")) {
			snprintf(by->refused, sizeof(by->refused),
				 "%s cannot be accessed directly by load/store", field);
			return true;
		}
		if (field && !kptr_field_type(fl->btf, s->value[reg], off, &tag))
			return false; /* misaligned: "kptr access misaligned ...", not followed */
		if (field && size != 8) {
			snprintf(by->refused, sizeof(by->refused), "kptr access size must be BPF_DW");
			return true;
		}
		if (field && cls != BPF_LDX && tag &&
		    (!strcmp(tag, "kptr") || !strcmp(tag, "percpu_kptr"))) {
			snprintf(by->refused, sizeof(by->refused),
				 "store to referenced kptr disallowed");
			return true;
		}
		return false;
	}
	for (unsigned int t = 0; t < fl->nr_types; t++) {
		const struct btf_type *bt;

		if (!(s->reg[reg] & (1ull << t)))
			continue;
		bt = btf__type_by_id(fl->btf, fl->types[t]);
		if (!bt || !btf_is_struct(bt))
			continue;
		if (off < 0) {
			snprintf(by->refused, sizeof(by->refused),
				 "R%d is ptr_%s invalid negative access: off=%lld", reg,
				 btf__name_by_offset(fl->btf, bt->name_off), off);
			return true;
		}
		if ((s->var_off & (1u << reg)) && !(s->tn_known & (1u << reg)))
			return false; /* the variable part not followed: no message to give */
		if (s->var_off & (1u << reg)) {
			/* tnum_strn()'s "(%#llx; %#llx)": the kernel prints 0 as 0x0 */
			snprintf(by->refused, sizeof(by->refused),
				 "R%d is ptr_%s invalid variable offset: off=%lld, "
				 "var_off=(0x%llx; 0x%llx)",
				 reg, btf__name_by_offset(fl->btf, bt->name_off), off,
				 s->tn_val[reg], s->tn_mask[reg]);
			return true;
		}
		field = special_field_at(fl->btf, fl->types[t], off, size);
		if (field) {
			snprintf(by->refused, sizeof(by->refused), "direct access to %s is disallowed",
				 field);
			return true;
		}
		if (!access_beyond(fl->btf, fl->types[t], off, size) &&
		    struct_walk_refused(fl->btf, fl->types[t], off, size, by->refused,
					sizeof(by->refused)))
			return true;
	}
	return false;
}

/*
 * Whether a tc program may load (@write false) or store @size bytes at @off of its struct
 * __sk_buff (6.18's tc_cls_act_is_valid_access() then bpf_skb_is_valid_access(); the uapi
 * layout: mark 8, queue_mapping 12, priority 32, tc_index 44, cb[] 48..68, tc_classid 72, data
 * 76, data_end 80, family .. local_port 88..140, data_meta 140, flow_keys 144, tstamp 152, sk
 * 168, tstamp_type 180 and its padding to 184, hwtstamp 184, the whole 192 bytes).  What it
 * refuses is "invalid bpf_context access off=N size=M": natively the store lands in a zeroed
 * context and the program goes on.
 */
static bool skb_access_ok(long long off, int size, bool write)
{
	if (write && !((off >= 8 && off < 16) || (off >= 32 && off < 36) ||
		       (off >= 44 && off < 48) || (off >= 48 && off < 68) ||
		       (off >= 72 && off < 76) || (off >= 152 && off < 160)))
		return false;
	if (off >= 88 && off < 140) /* family .. local_port: sk_skb programs' only */
		return false;
	if (off < 0 || off >= 192 || off % size)
		return false;
	if (off >= 48 && off < 68) /* cb[]: any width within it */
		return off + size <= 68;
	if ((off >= 76 && off < 84) || off == 140) /* data, data_end, data_meta */
		return size == 4;
	if (off >= 144 && off < 152) /* flow_keys */
		return false;
	if (off >= 152 && off < 160) /* tstamp */
		return size == 8;
	if (off >= 168 && off < 176) /* sk */
		return !write && size == 8;
	if (off >= 180 && off < 184) /* tstamp_type and the padding after it */
		return false;
	if (off >= 184) /* hwtstamp */
		return !write && size == 8;
	if (write)
		return size == 4;
	return size <= 4; /* a narrow load of a u32 field (bpf_ctx_narrow_access_ok()) */
}

/*
 * A load or store into a global of a data section (the section is a map value to the
 * verifier: check_map_access()), at @off from the section's start: before it or past its end,
 * at a constant offset or with a variable part that is data whose maximum the walk knows.
 */
static bool global_refused(const struct flow_state *s, int reg, long long off, int size,
			   char *refused, size_t len)
{
	long long vsize = s->root[reg].datasec_size;
	unsigned short bit = (unsigned short)(1u << reg);

	if (!(s->var_off & bit) || (s->umin_zero & bit)) {
		if (off >= 0 && off + size <= vsize && !(s->var_off & bit))
			return false;
		if (off < 0 || off + size > vsize) {
			snprintf(refused, len,
				 "invalid access to map value, value_size=%lld off=%lld size=%d\n"
				 "R%d min value is outside of the allowed memory range",
				 vsize, off, size, reg);
			return true;
		}
	}
	if (!(s->var_off & bit) || !(s->tn_known & bit))
		return false;
	/* data a branch compared has bounds the walk does not keep (a signed compare's): as for
	 * a map value, nothing is said then */
	if ((s->tn_val[reg] | s->tn_mask[reg]) >= BPF_MAX_VAR_OFF && !(s->umax_known & bit) &&
	    !(s->compared & bit)) {
		snprintf(refused, len,
			 "R%d unbounded memory access, make sure to bounds check any such access",
			 reg);
		return true;
	}
	if (!(s->umax_known & bit))
		return false;
	if (s->umax[reg] >= BPF_MAX_VAR_OFF) {
		snprintf(refused, len,
			 "R%d unbounded memory access, make sure to bounds check any such access",
			 reg);
		return true;
	}
	if (off + (long long)s->umax[reg] + size > vsize) {
		snprintf(refused, len,
			 "invalid access to map value, value_size=%lld off=%lld size=%d\n"
			 "R%d max value is outside of the allowed memory range",
			 vsize, off + (long long)s->umax[reg], size, reg);
		return true;
	}
	return false;
}

/*
 * Whether a socket filter may access its struct __sk_buff so (6.18's
 * sk_filter_is_valid_access(): no tc_classid, packet pointers, family .. local_port, tstamp,
 * wire_len or hwtstamp; a store only into cb[]), then bpf_skb_is_valid_access()'s sizes.
 */
static bool sock_access_ok(long long off, int size, bool write)
{
	if ((off >= 72 && off < 84) || (off >= 88 && off < 144) || (off >= 152 && off < 164) ||
	    off >= 184)
		return false;
	if (write && !(off >= 48 && off < 68))
		return false;
	return skb_access_ok(off, size, false) || (write && skb_access_ok(off, size, true));
}

/*
 * Whether an xdp program may access its struct xdp_md so (6.18's xdp_is_valid_access(): data
 * 0, data_end 4, data_meta 8, ingress_ifindex 12, rx_queue_index 16, egress_ifindex 20, each
 * a u32 read whole; no store).
 */
static bool xdp_access_ok(long long off, int size, bool write)
{
	return !write && off >= 0 && off < 24 && size == 4 && !(off % 4);
}

/*
 * 1 when the main function's context of program type @type may be accessed at @off, @size
 * bytes wide, 0 when the verifier refuses it, -1 for a type whose rules are not followed.
 */
static int ctx_access_ok(unsigned int type, long long off, int size, bool write)
{
	switch (type) {
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
		return skb_access_ok(off, size, write);
	case BPF_PROG_TYPE_SOCKET_FILTER:
		return sock_access_ok(off, size, write);
	case BPF_PROG_TYPE_XDP:
		return xdp_access_ok(off, size, write);
	default:
		return -1;
	}
}

/* Whether a load of @size bytes at @off of type @type's context gives a packet pointer. */
static bool ctx_packet_field(unsigned int type, long long off, int size)
{
	if (size != 4)
		return false;
	if (type == BPF_PROG_TYPE_SCHED_CLS || type == BPF_PROG_TYPE_SCHED_ACT)
		return off == 76 || off == 140; /* data, data_meta */
	return type == BPF_PROG_TYPE_XDP && (off == 0 || off == 8);
}

/* A load or store at @i through register @reg of the state @s: past the end of an object? */
static void check_access(struct flow *fl, unsigned long i, const struct flow_state *s, int reg)
{
	const struct bpf_insn *in = &fl->insns[i];
	static const int width[] = {4, 2, 1, 8}; /* BPF_W, BPF_H, BPF_B, BPF_DW */
	int size = width[BPF_SIZE(in->code) >> 3];
	long long off;

	if (fl->walking)
		return;
	if (fl->beyond && reg <= 9 && (s->dead & (1u << reg)))
		fl->beyond[i].dead_ref = true;
	/*
	 * the context moved by a constant (check_ptr_off_reg(): a load or store goes through the
	 * context's own address, with the field in the instruction's offset; 6.12 and 6.18)
	 */
	if (fl->beyond && reg <= 9 && (s->ctx & (1u << reg)) &&
	    (s->off[reg] || ((s->var_off & s->tn_known) & (1u << reg))) &&
	    !fl->beyond[i].refused[0] && BPF_MODE(in->code) == BPF_MEM) {
		if (s->off[reg] < 0)
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "negative offset ctx ptr R%d off=%lld disallowed", reg, s->off[reg]);
		else if (s->off[reg])
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "dereference of modified ctx ptr R%d off=%lld disallowed", reg,
				 s->off[reg]);
		else /* tnum_strn(): "(%#llx; %#llx)", 0 as 0x0 */
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "variable ctx access var_off=(0x%llx; 0x%llx) disallowed", s->tn_val[reg],
				 s->tn_mask[reg]);
		return;
	}
	/*
	 * a packet pointer no compare with data_end gave a range (check_packet_access(): the
	 * range is 0, so any byte is outside; 6.12 and 6.18)
	 */
	if (fl->beyond && reg <= 9 && (s->pkt & (1u << reg)) && !(s->var_off & (1u << reg)) &&
	    !fl->beyond[i].refused[0] && BPF_MODE(in->code) == BPF_MEM) {
		long long at = s->off[reg] + in->off;

		snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
			 "invalid access to packet, off=%lld size=%d, R%d(id=0,off=%lld,r=0)\n"
			 "R%d offset is outside of the packet",
			 at, size, reg, at, reg);
		return;
	}
	/* the context itself, unmoved */
	if (fl->beyond && reg <= 9 && fl->ctx_type && (s->ctx & (1u << reg)) &&
	    !s->off[reg] && !(s->var_off & (1u << reg)) &&
	    !fl->beyond[i].refused[0] && BPF_MODE(in->code) == BPF_MEM &&
	    !ctx_access_ok(fl->ctx_type, in->off, size, BPF_CLASS(in->code) != BPF_LDX)) {
		snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
			 "invalid bpf_context access off=%d size=%d", in->off, size);
		return;
	}
	if (!fl->beyond || reg > 9 || !(s->off_known & (1u << reg)) || fl->beyond[i].type ||
	    fl->beyond[i].refused[0])
		return;
	if (s->kptr_null & (1u << reg)) {
		snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
			 "R%d invalid mem access '%s'", reg,
			 s->null_map & (1u << reg)    ? "map_value_or_null"
			 : s->null_mem & (1u << reg)  ? "mem_or_null"
			 : s->null_ring & (1u << reg) ? "ringbuf_mem_or_null"
			 : s->null_ptr & (1u << reg)  ? "ptr_or_null_"
			 : s->kptr_rcu & (1u << reg) ? "rcu_ptr_or_null_"
						      : "untrusted_ptr_or_null_");
		return;
	}
	off = s->off[reg] + in->off;
	if (map_key_refused(fl, i, s, reg, off, size))
		return;
	/* check_stack_access_within_bounds(): the frame is [-MAX_BPF_STACK, 0) of its pointer */
	if ((s->caller_stack & (1u << reg)) && !(s->var_off & (1u << reg))) {
		__u8 cls = BPF_CLASS(in->code);

		if (off + size > 0 || off < -512)
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "invalid %s stack R%d off=%lld size=%d",
				 cls == BPF_ST || cls == BPF_STX ? "write to" : "read from", reg,
				 off, size);
		return;
	}
	if (s->mem_size[reg] && !(s->var_off & (1u << reg)) &&
	    (off < 0 || off + size > mem_bytes(s, reg))) {
		mem_region_refused(fl, i, reg, mem_bytes(s, reg), off, size);
		return;
	}
	if (refused_access(fl, i, s, reg, off, size) || (s->var_off & (1u << reg)))
		return;
	for (unsigned int t = 0; t < fl->nr_types; t++) {
		if (!(s->reg[reg] & (1ull << t)) ||
		    !access_beyond(fl->btf, fl->types[t], off, size))
			continue;
		fl->beyond[i].type = btf__name_by_offset(
			fl->btf, btf__type_by_id(fl->btf, fl->types[t])->name_off);
		fl->beyond[i].off = (int)off;
		fl->beyond[i].size = size;
		return;
	}
}

/*
 * A constant added to a pointer of a kind the walk knows (check_reg_sane_offset(), 6.12 and
 * 6.18): one of BPF_MAX_VAR_OFF or more either way is "math between map_value pointer and
 * 2147483648 is not allowed", refused at the add (natively the pointer goes far away).
 */
static void const_math_refused(struct flow *fl, unsigned long i, const struct flow_state *s,
			       int r, long long k)
{
	unsigned short bit = (unsigned short)(1u << r);
	const char *type = s->value[r] || s->root[r].datasec ? "map_value"
			   : (s->stack & bit)		  ? "fp"
			   : (s->ctx & bit)		  ? "ctx"
			   : (s->pkt & bit)		  ? "pkt"
							  : NULL;

	if (!type || (k < BPF_MAX_VAR_OFF && k > -BPF_MAX_VAR_OFF) || !fl->beyond || fl->walking ||
	    fl->beyond[i].refused[0])
		return;
	snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
		 "math between %s pointer and %lld is not allowed", type, k);
}

/* Whether @in's source register holds a constant scalar (no pointer the walk follows). */
static bool const_src(const struct flow_state *s, const struct bpf_insn *in)
{
	unsigned short bit = (unsigned short)(1u << in->src_reg);

	return BPF_SRC(in->code) == BPF_X && in->src_reg < 10 && (s->imm_known & bit) &&
	       !s->reg[in->src_reg] && !(s->stack & bit) && !(s->ctx & bit) &&
	       !s->value[in->src_reg] && !(s->data & bit) && in->dst_reg != in->src_reg;
}

/* The edges out of an instruction: its state to @next, and @taken to @target. */
struct edges {
	bool falls;
	unsigned long next;
	bool branch;
	unsigned long target;
	struct flow_state taken;
};

/*
 * The walk's NULL check of @reg: 0 on the NULL side (@null, already emptied), never NULL on the
 * other (@nonnull), so that a second check of it goes one way, as the verifier's does.
 */
static void walk_null_check(const struct flow *fl, struct flow_state *null,
			    struct flow_state *nonnull, int reg)
{
	if (!fl->walking)
		return;
	null->imm[reg] = 0;
	null->imm_known |= (unsigned short)(1u << reg);
	nonnull->not_null |= (unsigned short)(1u << reg);
}

/*
 * The walk's conditional jump on constants the path knows (a loop counter): only the edge the
 * values take (is_branch_taken()).  True when it decided.
 */
static bool walk_decided(const struct bpf_insn *in, const struct flow_state *s, struct edges *e)
{
	__u8 op = BPF_OP(in->code);
	bool is32 = BPF_CLASS(in->code) == BPF_JMP32;
	long long a, b;
	bool t;

	if (in->dst_reg > 10 || !(s->imm_known & (1u << in->dst_reg)))
		return false;
	a = s->imm[in->dst_reg];
	if (BPF_SRC(in->code) == BPF_K) {
		b = in->imm;
	} else {
		if (in->src_reg > 10 || !(s->imm_known & (1u << in->src_reg)))
			return false;
		b = s->imm[in->src_reg];
	}
	if (is32) {
		a = (int)a;
		b = (int)b;
	}
	switch (op) {
	case BPF_JEQ: t = a == b; break;
	case BPF_JNE: t = a != b; break;
	case BPF_JSGT: t = a > b; break;
	case BPF_JSGE: t = a >= b; break;
	case BPF_JSLT: t = a < b; break;
	case BPF_JSLE: t = a <= b; break;
	case BPF_JGT: t = (unsigned long long)a > (unsigned long long)b; break;
	case BPF_JGE: t = (unsigned long long)a >= (unsigned long long)b; break;
	case BPF_JLT: t = (unsigned long long)a < (unsigned long long)b; break;
	case BPF_JLE: t = (unsigned long long)a <= (unsigned long long)b; break;
	default: return false;
	}
	if (t)
		e->falls = false;
	else
		e->branch = false;
	return true;
}

/* Whether the local struct @id has a bpf_refcount member (its kptrs are RCU-protected). */
static bool has_refcount(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;

	if (!t || !btf_is_struct(t))
		return false;
	m = btf_members(t);
	for (__u16 k = 0; k < btf_vlen(t); k++, m++) {
		__u32 tid = m->type;
		const struct btf_type *mt = resolve_mods(btf, &tid, false);

		if (mt && btf_is_struct(mt) &&
		    !strcmp(btf__name_by_offset(btf, mt->name_off), "bpf_refcount"))
			return true;
	}
	return false;
}

/*
 * A load of a map value's __kptr field (@in, an 8-byte load through a lookup result): the
 * register holds the field's struct, maybe NULL until checked (btf_ld_kptr_type(), 6.12's
 * source and the running 6.18: MEM_RCU for a referenced kptr to a refcounted local struct
 * in an RCU section, a non-sleepable program's whole run, else PTR_UNTRUSTED).  True when it
 * was one (the register is set).
 */
static bool load_kptr(struct flow *fl, const struct bpf_insn *in, struct flow_state *s)
{
	unsigned int load_id = (unsigned int)(in - fl->insns) + 1u;
	const char *tag = NULL;
	__u32 id;
	unsigned short bit = (unsigned short)(1u << in->dst_reg);

	if (BPF_SIZE(in->code) != BPF_DW || BPF_MODE(in->code) != BPF_MEM || in->src_reg > 9 ||
	    in->dst_reg > 9 || !s->value[in->src_reg] || !(s->off_known & (1u << in->src_reg)))
		return false;
	id = kptr_field_type(fl->btf, s->value[in->src_reg], s->off[in->src_reg] + in->off, &tag);
	if (!id || !tag)
		return false;
	set_reg(s, in->dst_reg, type_bit(fl, id));
	set_off(s, in->dst_reg, 0);
	/* its id for the NULL check's copies: apart from every call's (a call is never here) */
	s->result[in->dst_reg] = load_id;
	s->kptr_null |= bit;
	if (!strcmp(tag, "kptr") && has_refcount(fl->btf, id))
		s->kptr_rcu |= bit;
	return true;
}

/*
 * The non-NULL side of a check of @reg: it is no longer maybe NULL there, nor is any copy of the
 * same result (mark_ptr_or_null_regs() marks every register and slot with the id).
 */
static void kptr_checked(struct flow_state *s, int reg)
{
	unsigned int result = s->result[reg];

	s->kptr_null &= (unsigned short)~(1u << reg);
	if (!result)
		return;
	for (int r = 0; r < 11; r++)
		if (s->result[r] == result)
			s->kptr_null &= (unsigned short)~(1u << r);
	for (int i = 0; i < NR_SLOTS; i++)
		if (s->slot_result[i] == result)
			s->slot_kptr_null &= ~(1ull << i);
}

/* A register move: @dst holds all that @src does. */
static void copy_reg(struct flow_state *s, int dst, int src)
{
	unsigned short *bits[] = {&s->imm_known,    &s->array_map,  &s->stack,	  &s->not_null,
				  &s->off_known,    &s->non_owning, &s->inserted, &s->dead,
				  &s->kptr_null,    &s->kptr_rcu,   &s->null_ptr, &s->null_map,
				  &s->null_mem,	    &s->null_ring,  &s->ctx,	    &s->compared, &s->data,
				  &s->var_off,	    &s->tn_known,   &s->rodata,	  &s->sext32,
				  &s->umax_known,   &s->umin_zero,  &s->pkt,	  &s->map_key,
				  &s->caller_stack, &s->always_null};

	s->tn_val[dst] = s->tn_val[src];
	s->tn_mask[dst] = s->tn_mask[src];
	s->reg[dst] = s->reg[src];
	s->result[dst] = s->result[src];
	s->value[dst] = s->value[src];
	s->umax[dst] = s->umax[src];
	s->origin[dst] = s->origin[src];
	s->imm[dst] = s->imm[src];
	s->root[dst] = s->root[src];
	s->off[dst] = s->off[src];
	s->mem_size[dst] = s->mem_size[src];
	for (unsigned int b = 0; b < sizeof(bits) / sizeof(bits[0]); b++)
		*bits[b] = (unsigned short)((*bits[b] & ~(1u << dst)) | (((*bits[b] >> src) & 1u)
									 << dst));
	if (src == BPF_REG_10) { /* the frame pointer: offsets from it are the stack's */
		s->stack |= (unsigned short)(1u << dst);
		s->off[dst] = 0;
	}
}

/* tnum_add(): the carries out of unknown bits are unknown */
static void tn_add(unsigned long long *val, unsigned long long *mask, unsigned long long bval,
		   unsigned long long bmask)
{
	unsigned long long sum_mask = *mask + bmask, sum_val = *val + bval;
	unsigned long long carries = (sum_mask + sum_val) ^ sum_val;
	unsigned long long unknown = carries | *mask | bmask;

	*val = sum_val & ~unknown;
	*mask = unknown;
}

/* The tnum of @op applied to (@val, @mask) and the constant or tnum (@bval, @bmask). */
static bool tn_op(__u8 op, unsigned long long *val, unsigned long long *mask,
		  unsigned long long bval, unsigned long long bmask)
{
	unsigned long long v = *val, m = *mask;

	switch (op) {
	case BPF_ADD:
		tn_add(val, mask, bval, bmask);
		return true;
	case BPF_AND:
		*val = v & bval;
		*mask = (v | m) & (bval | bmask) & ~*val;
		return true;
	case BPF_OR:
		*val = v | bval;
		*mask = (m | bmask) & ~*val;
		return true;
	case BPF_LSH:
		if (bmask || bval > 63)
			return false;
		*val = v << bval;
		*mask = m << bval;
		return true;
	case BPF_RSH:
		if (bmask || bval > 63)
			return false;
		*val = v >> bval;
		*mask = m >> bval;
		return true;
	case BPF_NEG: { /* tnum_neg(): 0 minus it */
		unsigned long long diff = 0 - v, alpha = diff, beta = diff - m;

		*val = diff & ~((alpha ^ beta) | m);
		*mask = (alpha ^ beta) | m;
		return true;
	}
	case BPF_ARSH: /* the sign bit, known or not, is copied down */
		if (bmask || bval > 63)
			return false;
		*val = (unsigned long long)((long long)v >> bval);
		*mask = (unsigned long long)((long long)m >> bval);
		return true;
	default:
		return false;
	}
}

/*
 * The verifier's unsigned maximum of the result of @in on data, when the walk knows it exactly
 * (the operand's own maximum known): a move, a mask, a shift or an add of a constant that does
 * not overflow (scalar_min_max_and(), _lsh(), _rsh(), _add(), 6.12 and 6.18).  The 32-bit
 * forms only as a move and a mask.  False for anything else.
 */
static bool result_umax(const struct bpf_insn *in, const struct flow_state *s, int dst, int src,
			bool src_data, unsigned long long *umax)
{
	__u8 op = BPF_OP(in->code), cls = BPF_CLASS(in->code);
	unsigned long long k = (unsigned long long)(long long)in->imm, m;

	if (op == BPF_MOV) {
		if (!src_data || !(s->umax_known & (1u << src)) || in->off)
			return false;
		m = s->umax[src];
		*umax = cls == BPF_ALU && m > 0xffffffffull ? 0xffffffffull : m;
		return true;
	}
	if (!(s->umax_known & (1u << dst)) || !(s->data & (1u << dst)) ||
	    BPF_SRC(in->code) != BPF_K || in->imm < 0)
		return false;
	m = s->umax[dst];
	switch (op) {
	case BPF_AND:
		*umax = m < k ? m : k;
		return true;
	case BPF_LSH:
		if (cls != BPF_ALU64 || k > 63 || m > (~0ull >> k))
			return false;
		*umax = m << k;
		return true;
	case BPF_RSH:
		if (cls != BPF_ALU64 || k > 63)
			return false;
		*umax = m >> k;
		return true;
	case BPF_ADD:
		if (cls != BPF_ALU64 || m + k < m)
			return false;
		*umax = m + k;
		return true;
	default:
		return false;
	}
}

/* A map value's or the stack's address, not yet offset by data: the pointers data_plus_pointer() takes. */
static bool ptr_var_ok(const struct flow_state *s, int r)
{
	unsigned short bit = (unsigned short)(1u << r);

	if (s->reg[r])
		return true; /* an object: data_alu()'s own rule */
	return ((s->value[r] || (s->root[r].datasec && s->root[r].datasec_size)) &&
		(s->off_known & bit) && !(s->var_off & bit) && !(s->kptr_null & bit)) ||
	       ((s->stack & bit) && !(s->var_off & bit)) ||
	       ((s->ctx & bit) && !(s->var_off & bit) && !s->reg[r]);
}

/*
 * A map value's or the stack's address plus data (adjust_ptr_min_max_vals() ->
 * check_reg_sane_offset(), 6.12 and 6.18): a scalar whose sign is unknown is refused there, as
 * "value -2147483648 makes fp pointer be out of bounds" when it is a sign-extended word (its
 * minimum S32_MIN is past BPF_MAX_VAR_OFF), else "math between map_value pointer and register
 * with unbounded min value is not allowed" (a shift, for one, loses the signed bounds).  A map
 * value with a non-negative variable part keeps it (var_off, the tnum), which check_access()
 * holds to the value's size; the stack's is not followed further.
 */
static bool data_plus_pointer(struct flow *fl, unsigned long i, struct flow_state *s, int dst,
			      unsigned long long bval, unsigned long long bmask, bool known,
			      bool sext, bool compared, bool umax_ok, unsigned long long umax,
			      bool umin0)
{
	bool stack = s->stack & (1u << dst);
	const char *type = stack ? "fp" : (s->ctx & (1u << dst)) ? "ctx" : "map_value";

	if (known && (bmask >> 63) && fl->beyond && !fl->walking && !fl->beyond[i].refused[0]) {
		if (sext)
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "value -2147483648 makes %s pointer be out of bounds", type);
		else
			snprintf(fl->beyond[i].refused, sizeof(fl->beyond[i].refused),
				 "math between %s pointer and register with unbounded min value "
				 "is not allowed",
				 type);
	}
	if (stack) {
		set_reg(s, dst, 0);
		return true;
	}
	s->var_off |= (unsigned short)(1u << dst);
	s->tn_known &= (unsigned short)~(1u << dst);
	/* the pointer's own compare (its NULL check) bounds nothing: the data's does */
	s->compared &= (unsigned short)~(1u << dst);
	if (compared)
		s->compared |= (unsigned short)(1u << dst);
	if (known && !(bmask >> 63))
		tn_set(s, dst, bval, bmask);
	/* the variable part's maximum: the data's (reg_bounds_sync() kept it within its tnum) */
	s->umax_known &= (unsigned short)~(1u << dst);
	s->umin_zero &= (unsigned short)~(1u << dst);
	if (umin0 && known && !(bmask >> 63))
		s->umin_zero |= (unsigned short)(1u << dst);
	if (umax_ok && known && !(bmask >> 63)) {
		s->umax[dst] = umax < (bval | bmask) ? umax : (bval | bmask);
		s->umax_known |= (unsigned short)(1u << dst);
	}
	return true;
}

/*
 * An ALU instruction on data (a scalar loaded from memory, @s->data): the result is data too,
 * with its tnum while the walk can follow it; data added to an object pointer gives the pointer
 * a variable offset, which any access through it is refused for.  False when neither operand is
 * data: the caller's rules apply.
 */
static bool data_alu(struct flow *fl, unsigned long i, const struct bpf_insn *in,
		     struct flow_state *s)
{
	__u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	int dst = in->dst_reg, src = BPF_SRC(in->code) == BPF_X ? in->src_reg : -1;
	bool src_data = src >= 0 && src <= 10 && (s->data & (1u << src));
	bool dst_data = s->data & (1u << dst), known, src_known = true;
	unsigned long long val = 0, mask = 0, bval = (unsigned long long)(long long)in->imm, bmask = 0;
	/* a result of a compared value may have narrower bounds too (clang's "w4 = w1") */
	bool compared = (op != BPF_MOV && (s->compared & (1u << dst))) ||
			(src >= 0 && src <= 10 && (s->compared & (1u << src)));
	/*
	 * the result is sign-extended from 32 bits: an arithmetic shift by 32 of a value whose
	 * lower half is known zero (the "<<= 32" before it), or a movsx of a word
	 */
	bool sext = (cls == BPF_ALU64 && op == BPF_ARSH && BPF_SRC(in->code) == BPF_K &&
		     in->imm == 32 && dst_data && (s->tn_known & (1u << dst)) &&
		     !((s->tn_val[dst] | s->tn_mask[dst]) & 0xffffffffull)) ||
		    (cls == BPF_ALU64 && op == BPF_MOV && in->off == 32 && src_data);
	bool scalar_compared = false; /* the data a pointer is offset by was compared */
	bool umax_ok = false, data_ptr = false, data_umax_ok = false, umin0 = false;
	bool data_umin0 = false;
	unsigned int from;
	unsigned long long umax = 0, data_umax = 0;

	if (src > 10 || (!src_data && !dst_data) || (op == BPF_MOV && !src_data))
		return false;
	if (src >= 0 && src_data) {
		bval = s->tn_val[src];
		bmask = s->tn_mask[src];
		src_known = s->tn_known & (1u << src);
	} else if (src >= 0) {
		bval = (unsigned long long)s->imm[src];
		src_known = s->imm_known & (1u << src);
	}
	if (cls == BPF_ALU64 && op == BPF_ADD && dst_data && src >= 0 && ptr_var_ok(s, src) &&
	    !src_data && !in->off) {
		/* data plus an object pointer (clang's "r1 += r0"): the pointer, offset by it */
		sext = s->sext32 & (1u << dst);
		scalar_compared = s->compared & (1u << dst);
		data_ptr = true;
		data_umax_ok = s->umax_known & (1u << dst);
		data_umax = s->umax[dst];
		data_umin0 = s->umin_zero & (1u << dst);
		bval = s->tn_val[dst];
		bmask = s->tn_mask[dst];
		src_known = s->tn_known & (1u << dst);
		copy_reg(s, dst, src);
		src_data = true;
	}
	if (cls == BPF_ALU64 && op == BPF_ADD && src_data && !in->off &&
	    !s->reg[dst] && ptr_var_ok(s, dst)) {
		if (src >= 0 && src != dst && (s->sext32 & (1u << src)))
			sext = true;
		if (src >= 0 && src != dst && (s->compared & (1u << src)))
			scalar_compared = true;
		if (src >= 0 && src != dst) {
			umax_ok = s->umax_known & (1u << src);
			umax = s->umax[src];
			umin0 = s->umin_zero & (1u << src);
		} else if (data_ptr) {
			umax_ok = data_umax_ok;
			umax = data_umax;
			umin0 = data_umin0;
		}
		return data_plus_pointer(fl, i, s, dst, bval, bmask, src_known, sext,
					 scalar_compared, umax_ok, umax, umin0);
	}
	if (cls == BPF_ALU64 && op == BPF_ADD && src_data && s->reg[dst] && !in->off) {
		/* an object pointer plus data: adjust_ptr_min_max_vals() keeps its type */
		known = src_known && (!(s->var_off & (1u << dst)) || (s->tn_known & (1u << dst)));
		if (s->var_off & (1u << dst)) {
			val = s->tn_val[dst];
			mask = s->tn_mask[dst];
		}
		tn_add(&val, &mask, bval, bmask);
		s->var_off |= (unsigned short)(1u << dst);
		s->tn_known &= (unsigned short)~(1u << dst);
		if (known)
			tn_set(s, dst, val, mask);
		return true;
	}
	if (s->reg[dst] || (src >= 0 && s->reg[src]))
		return false; /* pointer arithmetic of another kind: not followed */
	known = src_known &&
		(op == BPF_MOV || (s->tn_known & (1u << dst)) || (s->imm_known & (1u << dst)));
	if (op != BPF_MOV) {
		val = dst_data ? s->tn_val[dst] : (unsigned long long)s->imm[dst];
		mask = dst_data ? s->tn_mask[dst] : 0;
		known = known && tn_op(op, &val, &mask, bval, bmask);
	} else {
		val = bval;
		mask = bmask;
	}
	if (cls == BPF_ALU) { /* 32-bit: the upper half is zero */
		val &= 0xffffffffull;
		mask &= 0xffffffffull;
	}
	umax_ok = result_umax(in, s, dst, src, src_data, &umax);
	from = op == BPF_MOV ? (src >= 0 && src_data ? s->origin[src] : 0)
			     : (dst_data ? s->origin[dst] : 0);
	umin0 = op == BPF_MOV ? src_data && (s->umin_zero & (1u << src)) && !in->off
			      : (s->umin_zero & (1u << dst)) && BPF_SRC(in->code) == BPF_K &&
					(op == BPF_AND || op == BPF_LSH || op == BPF_RSH);
	set_reg(s, dst, 0);
	s->origin[dst] = from;
	if (umin0)
		s->umin_zero |= (unsigned short)(1u << dst);
	if (compared)
		s->compared |= (unsigned short)(1u << dst);
	if (umax_ok && known) { /* reg_bounds_sync(): no more than the tnum allows */
		s->umax[dst] = umax < (val | mask) ? umax : (val | mask);
		s->umax_known |= (unsigned short)(1u << dst);
	}
	if (known && !mask) { /* every bit known: a constant to the verifier, not data */
		s->imm[dst] = (long long)val;
		s->imm_known |= (unsigned short)(1u << dst);
		return true;
	}
	s->data |= (unsigned short)(1u << dst);
	if (known)
		tn_set(s, dst, val, mask);
	if (sext)
		s->sext32 |= (unsigned short)(1u << dst);
	return true;
}

/*
 * A conditional jump of data against a constant: the branch where it is at most some value
 * narrows its tnum (reg_bounds_sync(): the tnum meets tnum_range(0, max)), as
 * "if (idx >= 4) return 0; p->slots[idx]" makes the index's (0x0; 0x3).  The other branch's
 * minimum narrows no bit the walk follows.  Unsigned compares only; a 32-bit one when the
 * upper half is known zero.
 */
static void data_bound(const struct bpf_insn *in, int r, __u8 op, long long imm,
		       struct flow_state *fall, struct flow_state *taken)
{
	unsigned long long k = (unsigned long long)imm, max, range;
	struct flow_state *at_most;

	if (imm < 0 || (BPF_CLASS(in->code) == BPF_JMP32 && (fall->tn_mask[r] >> 32)))
		return;
	/*
	 * A signed compare with a constant of 0 or more, 64 bits: on one branch the data is not
	 * negative (its smin >= 0, so its sign bits are 0: clang's "if 0 s> r1" before an index
	 * that is an int, the lower half of "x >= 0 && x < N").  Only the sign is kept: the
	 * maximum a signed compare gives is not followed (nothing is said about it then).
	 */
	if (BPF_CLASS(in->code) == BPF_JMP &&
	    (op == BPF_JSGE || op == BPF_JSGT || op == BPF_JSLT || op == BPF_JSLE)) {
		struct flow_state *nonneg = op == BPF_JSGE || op == BPF_JSGT ? taken : fall;
		/* a sign-extended word's bits 31 to 63 are its sign: all 0 then */
		unsigned long long sign = (nonneg->sext32 & (1u << r)) ? ~0ull << 31 : 1ull << 63;

		nonneg->tn_mask[r] &= ~sign;
		nonneg->tn_val[r] &= ~sign;
		return;
	}
	switch (op) {
	case BPF_JLT: /* taken: r < k */
	case BPF_JLE: /* taken: r <= k */
		if (op == BPF_JLT && !k)
			return;
		at_most = taken;
		max = op == BPF_JLT ? k - 1 : k;
		break;
	case BPF_JGT: /* falls: r <= k */
	case BPF_JGE: /* falls: r < k */
		if (op == BPF_JGE && !k)
			return;
		at_most = fall;
		max = op == BPF_JGE ? k - 1 : k;
		break;
	default:
		return;
	}
	/* tnum_range(0, max): every bit up to max's highest unknown */
	range = max ? ~0ull >> __builtin_clzll(max) : 0;
	at_most->tn_mask[r] &= range;
	at_most->tn_val[r] &= range;
	if ((at_most->umax_known & (1u << r)) && at_most->umax[r] > max)
		at_most->umax[r] = max;
	/* the other branch's minimum is above 0 now */
	(at_most == fall ? taken : fall)->umin_zero &= (unsigned short)~(1u << r);
}

/*
 * The data registers whose bounds the jump @in may move (a bit each): the compared ones and
 * every register of the same origin (the verifier's linked scalars), and every one whose origin
 * is not known.
 */
static unsigned short compare_links(const struct bpf_insn *in, const struct flow_state *s)
{
	int regs[2] = {in->dst_reg, BPF_SRC(in->code) == BPF_X ? in->src_reg : -1};
	unsigned short hit = 0;

	for (int k = 0; k < 2; k++) {
		int r = regs[k];

		if (r < 0 || r > 10 || !(s->data & (1u << r)))
			continue;
		hit |= (unsigned short)(1u << r);
		for (int o = 0; o <= 10; o++)
			if ((s->data & (1u << o)) &&
			    (!s->origin[o] || !s->origin[r] || s->origin[o] == s->origin[r]))
				hit |= (unsigned short)(1u << o);
	}
	return hit;
}

/*
 * The register whose maximum data_bound() narrows exactly at the jump @in (a bit; 0: none):
 * an unsigned compare of data with a constant, 64-bit or on a known-zero upper half.  Every
 * other data register's maximum is dropped there (the verifier narrows the scalars linked to
 * the compared one too, and other compares teach it more than the walk keeps).
 */
static unsigned short bounded_by(const struct bpf_insn *in, const struct flow_state *s)
{
	__u8 op = BPF_OP(in->code);
	int r = in->dst_reg;

	if (BPF_SRC(in->code) != BPF_K || r > 10 || in->imm < 0 ||
	    !(s->data & s->tn_known & (1u << r)) ||
	    (op != BPF_JLT && op != BPF_JLE && op != BPF_JGT && op != BPF_JGE) ||
	    (BPF_CLASS(in->code) == BPF_JMP32 && (s->tn_mask[r] >> 32)))
		return 0;
	/*
	 * its own maximum is narrowed exactly; a copy linked to it (the verifier narrows both) is
	 * another data register, whose maximum the caller drops, and once dropped it stays so
	 */
	return (unsigned short)(1u << r);
}

/*
 * The same with the constant in a register: "r2 = 7; if r2 > r1 goto" is clang's min(r1, 7),
 * and the compare reads the other way round when the data is the source register.
 */
static void data_bound_regs(const struct bpf_insn *in, __u8 op, struct flow_state *fall,
			    struct flow_state *taken)
{
	static const __u8 swapped[16] = {[BPF_JLT >> 4] = BPF_JGT,   [BPF_JLE >> 4] = BPF_JGE,
					 [BPF_JGT >> 4] = BPF_JLT,   [BPF_JGE >> 4] = BPF_JLE,
					 [BPF_JSLT >> 4] = BPF_JSGT, [BPF_JSLE >> 4] = BPF_JSGE,
					 [BPF_JSGT >> 4] = BPF_JSLT, [BPF_JSGE >> 4] = BPF_JSLE};
	int dst = in->dst_reg, src = in->src_reg;
	unsigned short known = fall->data & fall->tn_known;

	if ((known & (1u << dst)) && (fall->imm_known & (1u << src)))
		data_bound(in, dst, op, fall->imm[src], fall, taken);
	else if ((known & (1u << src)) && (fall->imm_known & (1u << dst)) && swapped[op >> 4])
		data_bound(in, src, swapped[op >> 4], fall->imm[dst], fall, taken);
}

/* Instruction @i from state @s: @s becomes the state after it; @e says where it goes. */
static void transfer(struct flow *fl, unsigned long i, struct flow_state *s, struct edges *e)
{
	const struct bpf_insn *in = &fl->insns[i];
	__u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	int slot;

	e->falls = true;
	e->next = i + 1;
	e->branch = false;
	switch (cls) {
	case BPF_LD:
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW) && i + 1 < fl->cnt) {
			set_reg(s, in->dst_reg, 0);
			if (fl->roots && (fl->roots[i].type || fl->roots[i].map_value || fl->roots[i].map_key_size))
				s->root[in->dst_reg] = fl->roots[i];
			s->root[in->dst_reg].datasec = 0;
			if (fl->roots && fl->roots[i].datasec) {
				s->root[in->dst_reg].datasec = fl->roots[i].datasec;
				s->root[in->dst_reg].datasec_size = fl->roots[i].datasec_size;
				set_off(s, in->dst_reg, fl->roots[i].datasec_off);
			}
			if (fl->roots && fl->roots[i].rodata) {
				s->rodata |= (unsigned short)(1u << in->dst_reg);
				s->off[in->dst_reg] = fl->roots[i].rodata_off;
				s->root[in->dst_reg].rodata_size = fl->roots[i].rodata_size;
			}
			if (fl->array_map[i])
				s->array_map |= (unsigned short)(1u << in->dst_reg);
			else if (!in->src_reg && !(fl->roots && fl->roots[i].address)) {
				/* a plain constant: a type id for bpf_obj_new */
				s->imm[in->dst_reg] =
					(long long)(((__u64)(__u32)fl->insns[i + 1].imm << 32) |
						    (__u32)in->imm);
				s->imm_known |= (unsigned short)(1u << in->dst_reg);
			}
			e->next = i + 2;
		}
		break;
	case BPF_LDX: {
		/*
		 * a load from memory but .rodata: data.  From the stack only a narrower load than
		 * a spill: an 8-byte slot keeps a spilled register as it was (a constant stays
		 * one), a 4-byte variable is STACK_MISC to the verifier (measured on the running
		 * 6.18: a u32 index kept in a volatile local reads back as (0x0; 0xffffffff))
		 */
		bool pkt;
		bool data = in->src_reg <= 10 && BPF_MODE(in->code) == BPF_MEM &&
			    (in->src_reg == BPF_REG_10 ? BPF_SIZE(in->code) != BPF_DW
						       : !(s->rodata & (1u << in->src_reg)));

		if (BPF_MODE(in->code) == BPF_MEM)
			check_access(fl, i, s, in->src_reg);
		pkt = BPF_MODE(in->code) == BPF_MEM && in->src_reg <= 10 && fl->ctx_type &&
		      (s->ctx & (1u << in->src_reg)) && !s->off[in->src_reg] &&
		      !(s->var_off & (1u << in->src_reg)) &&
		      ctx_packet_field(fl->ctx_type, in->off, BPF_SIZE(in->code) == BPF_W ? 4 : 0);
		slot = BPF_SIZE(in->code) == BPF_DW ? stack_slot(in, false) : -1;
		if (slot < 0 && load_kptr(fl, in, s))
			break;
		set_reg(s, in->dst_reg, slot >= 0 ? s->slot[slot] : 0);
		if (data && in->dst_reg <= 10) {
			static const unsigned long long width_mask[] = {0xffffffffull, 0xffff, 0xff,
									~0ull};

			s->data |= (unsigned short)(1u << in->dst_reg);
			tn_set(s, in->dst_reg, 0, width_mask[BPF_SIZE(in->code) >> 3]);
			s->umax[in->dst_reg] = width_mask[BPF_SIZE(in->code) >> 3];
			s->umax_known |= (unsigned short)(1u << in->dst_reg);
			s->umin_zero |= (unsigned short)(1u << in->dst_reg);
			s->origin[in->dst_reg] = (unsigned int)i + 1;
		}
		if (pkt && in->dst_reg <= 10) { /* a pointer, not data */
			set_reg(s, in->dst_reg, 0);
			s->pkt |= (unsigned short)(1u << in->dst_reg);
			set_off(s, in->dst_reg, 0);
		}
		if (slot >= 0 && (s->slot_off_known & (1ull << slot)))
			set_off(s, in->dst_reg, s->slot_off[slot]);
		if (slot >= 0 && (s->slot_non_owning & (1ull << slot)))
			s->non_owning |= (unsigned short)(1u << in->dst_reg);
		if (slot >= 0 && (s->slot_inserted & (1ull << slot)))
			s->inserted |= (unsigned short)(1u << in->dst_reg);
		if (slot >= 0 && (s->slot_dead & (1ull << slot)))
			s->dead |= (unsigned short)(1u << in->dst_reg);
		if (slot >= 0 && (s->slot_kptr_null & (1ull << slot)))
			s->kptr_null |= (unsigned short)(1u << in->dst_reg);
		if (slot >= 0 && (s->slot_kptr_rcu & (1ull << slot)))
			s->kptr_rcu |= (unsigned short)(1u << in->dst_reg);
		if (slot >= 0 && (s->slot_null_ptr & (1ull << slot)))
			s->null_ptr |= (unsigned short)(1u << in->dst_reg);
		if (slot >= 0 && (s->slot_null_map & (1ull << slot)))
			s->null_map |= (unsigned short)(1u << in->dst_reg);
		if (slot >= 0 && (s->slot_null_mem & (1ull << slot)))
			s->null_mem |= (unsigned short)(1u << in->dst_reg);
		if (slot >= 0 && (s->slot_null_ring & (1ull << slot)))
			s->null_ring |= (unsigned short)(1u << in->dst_reg);
		if (slot >= 0) {
			s->result[in->dst_reg] = s->slot_result[slot];
			s->value[in->dst_reg] = s->slot_value[slot];
		}
		if (slot >= 0 && (s->slot_data & (1ull << slot)))
			s->data |= (unsigned short)(1u << in->dst_reg);
		if (slot >= 0 && (s->slot_data & s->slot_tn_known & (1ull << slot)))
			tn_set(s, in->dst_reg, s->slot_tn_val[slot], s->slot_tn_mask[slot]);
		break;
	}
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_MEM)
			check_access(fl, i, s, in->dst_reg);
		slot = stack_slot(in, true);
		if (slot >= 0) {
			bool dw = BPF_SIZE(in->code) == BPF_DW && in->src_reg <= 10;

			s->slot[slot] = dw ? s->reg[in->src_reg] : 0;
			clear_slot(s, slot);
			if (dw && (s->non_owning & (1u << in->src_reg)))
				s->slot_non_owning |= 1ull << slot;
			if (dw && (s->inserted & (1u << in->src_reg)))
				s->slot_inserted |= 1ull << slot;
			if (dw && (s->dead & (1u << in->src_reg)))
				s->slot_dead |= 1ull << slot;
			if (dw && (s->kptr_null & (1u << in->src_reg)))
				s->slot_kptr_null |= 1ull << slot;
			if (dw && (s->kptr_rcu & (1u << in->src_reg)))
				s->slot_kptr_rcu |= 1ull << slot;
			if (dw && (s->null_ptr & (1u << in->src_reg)))
				s->slot_null_ptr |= 1ull << slot;
			if (dw && (s->null_map & (1u << in->src_reg)))
				s->slot_null_map |= 1ull << slot;
			if (dw && (s->null_mem & (1u << in->src_reg)))
				s->slot_null_mem |= 1ull << slot;
			if (dw && (s->null_ring & (1u << in->src_reg)))
				s->slot_null_ring |= 1ull << slot;
			if (dw) {
				s->slot_result[slot] = s->result[in->src_reg];
				s->slot_value[slot] = s->value[in->src_reg];
			}
			if (dw && (s->off_known & (1u << in->src_reg))) {
				s->slot_off[slot] = s->off[in->src_reg];
				s->slot_off_known |= 1ull << slot;
			}
			if (dw && (s->data & (1u << in->src_reg)))
				s->slot_data |= 1ull << slot;
			if (dw && (s->data & s->tn_known & (1u << in->src_reg))) {
				s->slot_tn_val[slot] = s->tn_val[in->src_reg];
				s->slot_tn_mask[slot] = s->tn_mask[in->src_reg];
				s->slot_tn_known |= 1ull << slot;
			}
		}
		break;
	case BPF_ST:
		if (BPF_MODE(in->code) == BPF_MEM)
			check_access(fl, i, s, in->dst_reg);
		slot = stack_slot(in, true);
		if (slot >= 0) {
			s->slot[slot] = 0;
			clear_slot(s, slot);
		}
		break;
	case BPF_ALU64:
	case BPF_ALU:
		if (in->dst_reg > 10)
			break;
		if (cls == BPF_ALU64 && op == BPF_MOV && BPF_SRC(in->code) == BPF_X &&
		    in->src_reg <= 10 && !in->off) {
			copy_reg(s, in->dst_reg, in->src_reg);
		} else if (data_alu(fl, i, in, s)) {
			break;
		} else if (op == BPF_MOV && BPF_SRC(in->code) == BPF_K) {
			set_reg(s, in->dst_reg, 0);
			s->imm[in->dst_reg] = in->imm;
			s->imm_known |= (unsigned short)(1u << in->dst_reg);
		} else if (cls == BPF_ALU64 && (op == BPF_ADD || op == BPF_SUB) &&
			   (BPF_SRC(in->code) == BPF_K || const_src(s, in))) {
			/*
			 * a member's address or container_of: the same object (a constant in a
			 * register too, clang's "r2 = 48; r1 += r2": the verifier adds a known
			 * scalar as it adds an immediate)
			 */
			long long k = BPF_SRC(in->code) == BPF_K ? in->imm : s->imm[in->src_reg];

			const_math_refused(fl, i, s, in->dst_reg, op == BPF_ADD ? k : -k);

			s->off[in->dst_reg] += op == BPF_ADD ? k : -k;
			s->root[in->dst_reg].type = 0;
			s->root[in->dst_reg].map_value = 0;
			/* arithmetic on a maybe-NULL pointer is refused there, not followed here */
			s->kptr_null &= (unsigned short)~(1u << in->dst_reg);
			s->imm[in->dst_reg] += op == BPF_ADD ? k : -k;
			if (!fl->walking) /* joined loop passes: a counter is not one value */
				s->imm_known &= (unsigned short)~(1u << in->dst_reg);
			s->not_null &= (unsigned short)~(1u << in->dst_reg);
		} else {
			set_reg(s, in->dst_reg, 0);
		}
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_EXIT) {
			e->falls = false;
			break;
		}
		if (op == BPF_CALL) {
			step_call(fl, i, s);
			break;
		}
		e->target = (unsigned long)((long)i + 1 +
					    (op == BPF_JA && cls == BPF_JMP32 ? in->imm : in->off));
		e->branch = true;
		/*
		 * either side's bounds may be narrower now (a check of zero raises the minimum),
		 * and those of every scalar the verifier links to it (a copy, a copy plus a
		 * constant: "w2 = w4; w2 += -17; if w2 < -16"): every data register is taken
		 */
		if (op != BPF_JA &&
		    ((in->dst_reg <= 10 && (s->data & (1u << in->dst_reg))) ||
		     (BPF_SRC(in->code) == BPF_X && in->src_reg <= 10 &&
		      (s->data & (1u << in->src_reg))))) {
			s->compared |= s->data;
			unsigned short kept = bounded_by(in, s), hit = compare_links(in, s);

			s->umax_known &= (unsigned short)~(hit & ~kept);
			s->umin_zero &= (unsigned short)~(hit & ~kept);
		}
		if (op != BPF_JA && in->dst_reg <= 10)
			s->compared |= (unsigned short)(1u << in->dst_reg);
		if (op != BPF_JA && BPF_SRC(in->code) == BPF_X && in->src_reg <= 10)
			s->compared |= (unsigned short)(1u << in->src_reg);
		/* a compare of a packet pointer (with data_end) may give every one a range */
		if (op != BPF_JA && ((in->dst_reg <= 10 && (s->pkt & (1u << in->dst_reg))) ||
				     (BPF_SRC(in->code) == BPF_X && in->src_reg <= 10 &&
				      (s->pkt & (1u << in->src_reg)))))
			s->pkt = 0;
		e->taken = *s;
		if (op == BPF_JA) {
			e->falls = false;
			break;
		}
		if (fl->walking && walk_decided(in, s, e))
			break;
		if (BPF_SRC(in->code) == BPF_K && in->dst_reg <= 10 &&
		    (s->data & s->tn_known & (1u << in->dst_reg)))
			data_bound(in, in->dst_reg, op, in->imm, s, &e->taken);
		else if (BPF_SRC(in->code) == BPF_X && in->dst_reg <= 10 && in->src_reg <= 10)
			data_bound_regs(in, op, s, &e->taken);
		/* the NULL check: on the branch where the register is 0 it holds no object */
		if (BPF_SRC(in->code) == BPF_K && !in->imm && in->dst_reg <= 10) {
			bool never_null = s->not_null & (1u << in->dst_reg);
			bool always_null = s->always_null & (1u << in->dst_reg);

			if ((op == BPF_JEQ && always_null) || (op == BPF_JNE && always_null)) {
				/* only the edge of 0: the other is dead (is_branch_taken()) */
				if (op == BPF_JEQ)
					e->falls = false;
				else
					e->branch = false;
				break;
			}
			if (op == BPF_JEQ && never_null) {
				e->branch = false; /* the NULL branch is dead: fall through only */
				break;
			}
			if (op == BPF_JNE && never_null) {
				e->falls = false;
				break;
			}
			if (op == BPF_JEQ) {
				set_reg(&e->taken, in->dst_reg, 0);
				walk_null_check(fl, &e->taken, s, in->dst_reg);
				kptr_checked(s, in->dst_reg);
			} else if (op == BPF_JNE) {
				set_reg(s, in->dst_reg, 0);
				walk_null_check(fl, s, &e->taken, in->dst_reg);
				kptr_checked(&e->taken, in->dst_reg);
			}
		}
		break;
	default:
		break;
	}
}

/* Walk one instruction @i from its joined state: its successors' states are joined. */
static void step(struct flow *fl, unsigned long i, unsigned long *work, unsigned long *nr_work,
		 bool *queued)
{
	struct flow_state s = fl->at[i];
	struct edges e;

	transfer(fl, i, &s, &e);
	if (e.branch && e.target < fl->cnt && join(fl, e.target, &e.taken) && !queued[e.target]) {
		queued[e.target] = true;
		work[(*nr_work)++] = e.target;
	}
	if (e.falls && e.next < fl->cnt && join(fl, e.next, &s) && !queued[e.next]) {
		queued[e.next] = true;
		work[(*nr_work)++] = e.next;
	}
}

/* Whether the struct with BTF id @id has a field record (a special member) at all. */
static bool has_record(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;

	if (!t || !btf_is_struct(t))
		return false;
	m = btf_members(t);
	for (__u16 i = 0; i < btf_vlen(t); i++, m++) {
		__u32 tid = m->type;
		const struct btf_type *mt = resolve_mods(btf, &tid, false);
		const char *name;

		if (!mt)
			continue;
		if (btf_is_ptr(mt)) { /* a __kptr: its type tag */
			const struct btf_type *tag = btf__type_by_id(btf, mt->type);

			if (tag && btf_is_type_tag(tag))
				return true;
			continue;
		}
		name = btf__name_by_offset(btf, mt->name_off);
		if (btf_is_struct(mt) && name && !strncmp(name, "bpf_", 4) &&
		    (!strcmp(name, "bpf_spin_lock") || !strcmp(name, "bpf_list_head") ||
		     !strcmp(name, "bpf_list_node") || !strcmp(name, "bpf_rb_root") ||
		     !strcmp(name, "bpf_rb_node") || !strcmp(name, "bpf_refcount") ||
		     !strcmp(name, "bpf_timer") || !strcmp(name, "bpf_wq")))
			return true;
	}
	return false;
}

/*
 * The verifier's order over the paths of one function (do_check(): at a conditional jump it goes
 * on with the fall-through and pushes the jump's target, taken up when a path reaches its exit,
 * last pushed first; a jump on constants the path knows goes one way): at which step of that walk
 * a checked call is first reached with a type whose record differs from the one it was first
 * reached with ("same call cannot be used with different types"), and at which step each
 * instruction is first reached.  clang lays some NULL checks out inverted (`if r0 != 0 goto`),
 * so the verifier walks their error path, to its exit, before the rest of the program, and a
 * tail clang merged between error paths and the program's own end meets both types before the
 * program's first rule broken further on.  No state pruning (a pruned path would have met the
 * same types), no callee walked; a budget of steps (a loop on values the path does not know).
 * @after_merge[i] (per instruction): 0 when the walk met no such call, else 1 when the
 * instruction is first reached at or before that step, 2 after it or never.
 *
 * The walk also keeps each path's references (the results of the acquiring kfuncs, released by
 * a drop, a push or add, bpf_kptr_xchg(), or on the NULL branch of their check), so that it
 * knows whether a path reached its exit holding one (the verifier's leak report) before that
 * call: @leak_after_merge when none did.  Not known (false) when the function calls a
 * subprogram (its references are not followed) or a path was given up.
 */
#define WALK_STEPS 200000

/*
 * may_goto (can_loop, cond_break; 6.9): BPF_JMP | BPF_JCOND with src_reg BPF_MAY_GOTO (0), not
 * in the uapi header of every machine that builds kfsim.  The verifier takes its jump first
 * (check_cond_jmp_op(): the fall-through is pushed, insn_idx += off; 6.12's source, the same in
 * 6.18): a loop's budget-spent exit and the rest of the program are walked before its body.
 */
#define BPFCC_JCOND 0xe0
#define BPFCC_MAY_GOTO 0

static bool is_may_goto(const struct bpf_insn *in)
{
	return in->code == (BPF_JMP | BPFCC_JCOND) && in->src_reg == BPFCC_MAY_GOTO;
}
#define WALK_REFS 32

struct walk_item {
	unsigned long insn;
	unsigned long len; /* the path's steps so far */
	unsigned int nr_refs;
	unsigned int refs[WALK_REFS]; /* the call results (instruction + 1) the path holds */
	struct flow_state st;
};

static bool acquires(const char *callee)
{
	static const char *const names[] = {"bpf_obj_new_impl", "bpf_refcount_acquire_impl",
					    "bpf_list_pop_front", "bpf_list_pop_back",
					    "bpf_rbtree_remove", "bpf_kptr_xchg"};

	return callee_in(callee, names, sizeof(names) / sizeof(names[0]));
}

/* The register of a call's argument that the call releases (0: none). */
static int releases(const char *callee)
{
	int arg = checked_arg(callee);

	if (callee && !strcmp(callee, "bpf_kptr_xchg"))
		return 2;
	return arg && strcmp(callee, "bpf_refcount_acquire_impl") ? arg : 0;
}

static void ref_drop(struct walk_item *w, unsigned int result)
{
	for (unsigned int k = 0; result && k < w->nr_refs; k++)
		if (w->refs[k] == result) {
			w->refs[k] = w->refs[--w->nr_refs];
			return;
		}
}

/*
 * Before instruction @i of the path @w: a release of the argument's reference; a subprogram call
 * (not followed: @refs_known false); the exit with a reference held (@leaked).
 */
static void walk_refs_before(const struct flow *fl, unsigned long i, struct walk_item *w,
			     bool *refs_known, bool *leaked)
{
	const struct bpf_insn *in = &fl->insns[i];
	int arg = releases(fl->callee[i]);

	/* a call of a subprogram (kfunc calls are pseudo calls too in the object, but named) */
	if (in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_CALL && !fl->callee[i])
		*refs_known = false;
	if (in->code == (BPF_JMP | BPF_EXIT) && w->nr_refs)
		*leaked = true;
	if (arg)
		ref_drop(w, w->st.result[arg]);
}

static int walk_order(struct flow *fl, unsigned char *after_merge, bool *leak_after_merge)
{
	struct walk_item **stack = calloc(fl->cnt + 2, sizeof(*stack)), *cur = NULL;
	long *first = calloc(fl->cnt + 1, sizeof(*first));
	int *first_key = calloc(fl->cnt + 1, sizeof(*first_key));
	unsigned long nr = 0, max_len = 8 * fl->cnt + 64;
	long steps = 0, conflict = -1;
	bool refs_known = true, leaked = false;
	int err = 0;

	if (!stack || !first || !first_key || !(cur = calloc(1, sizeof(*cur)))) {
		err = -ENOMEM;
		goto out;
	}
	for (unsigned long i = 0; i < fl->cnt; i++) {
		first[i] = -1;
		first_key[i] = -2;
	}
	cur->st.seen = true;
	fl->walking = true;
	while (conflict < 0 && steps < WALK_STEPS) {
		unsigned long i = cur->insn;
		int arg = i < fl->cnt ? checked_arg(fl->callee[i]) : 0;
		struct edges e;

		if (i < fl->cnt && cur->len > max_len)
			refs_known = false; /* given up: what its exit holds is not known */
		if (i >= fl->cnt || cur->len > max_len) { /* this path ends: the last one pushed */
			free(cur);
			cur = nr ? stack[--nr] : NULL;
			if (!cur)
				break;
			continue;
		}
		if (first[i] < 0)
			first[i] = steps;
		for (unsigned int t = 0; arg && t < fl->nr_types && conflict < 0; t++) {
			int key;

			if (!(cur->st.reg[arg] & (1ull << t)))
				continue;
			key = has_record(fl->btf, fl->types[t]) ? (int)t : -1;
			if (first_key[i] == -2)
				first_key[i] = key;
			else if (first_key[i] != key)
				conflict = steps;
		}
		steps++;
		walk_refs_before(fl, i, cur, &refs_known, &leaked);
		{
			const struct bpf_insn *in = &fl->insns[i];
			unsigned int checked = 0;

			/* a NULL check of a reference: released on the NULL branch */
			if ((BPF_CLASS(in->code) == BPF_JMP || BPF_CLASS(in->code) == BPF_JMP32) &&
			    (BPF_OP(in->code) == BPF_JEQ || BPF_OP(in->code) == BPF_JNE) &&
			    BPF_SRC(in->code) == BPF_K && !in->imm && in->dst_reg <= 10)
				checked = cur->st.result[in->dst_reg];
			transfer(fl, i, &cur->st, &e);
			cur->len++;
			if (checked && BPF_OP(in->code) == BPF_JNE && e.falls)
				ref_drop(cur, checked); /* falls through when NULL */
			if (acquires(fl->callee[i]) && cur->nr_refs < WALK_REFS)
				cur->refs[cur->nr_refs++] = (unsigned int)i + 1;
			else if (acquires(fl->callee[i]))
				refs_known = false;
			if (e.branch && e.falls) {
				struct walk_item *w = malloc(sizeof(*w));

				if (!w || nr > fl->cnt) {
					free(w);
					err = w ? 0 : -ENOMEM;
					break; /* deeper than the function is long: given up */
				}
				*w = *cur;
				/* may_goto: the fall-through waits, the jump goes on */
				if (is_may_goto(in)) {
					w->insn = e.next;
					e.falls = false;
				} else {
					w->insn = e.target;
					w->st = e.taken;
				}
				if (checked && BPF_OP(in->code) == BPF_JEQ)
					ref_drop(w, checked); /* jumps when NULL */
				stack[nr++] = w;
			} else if (e.branch && checked && BPF_OP(in->code) == BPF_JEQ) {
				ref_drop(cur, checked);
			}
		}
		if (e.branch && !e.falls) {
			cur->st = e.taken;
			cur->insn = e.target;
			continue;
		}
		cur->insn = e.falls ? e.next : fl->cnt;
	}
	fl->walking = false;
	for (unsigned long i = 0; !err && conflict >= 0 && i < fl->cnt; i++)
		after_merge[i] = first[i] >= 0 && first[i] <= conflict ? 1 : 2;
	*leak_after_merge = !err && conflict >= 0 && refs_known && !leaked;
out:
	free(cur);
	while (stack && nr)
		free(stack[--nr]);
	free(stack);
	free(first);
	free(first_key);
	return err;
}

int bpfcc_call_types(const struct btf *btf, const struct bpf_insn *insns, unsigned long cnt,
		     const char *const *callee, const bool *array_map,
		     const struct bpfcc_root *roots, bool *differ, struct bpfcc_beyond *beyond,
		     bool *non_owning_arg, unsigned char *after_merge, bool *leak_after_merge,
		     const struct bpfcc_subcall *subcalls, const struct bpfcc_global_args *entry)
{
	struct flow fl = {.btf = btf,
			  .subcalls = subcalls,
			  .insns = insns,
			  .cnt = cnt,
			  .callee = callee,
			  .array_map = array_map,
			  .roots = roots,
			  .beyond = beyond,
			  .non_owning_arg = non_owning_arg,
			  .ctx_type = entry ? entry->ctx_type : 0};
	unsigned long *work = calloc(cnt + 1, sizeof(*work)), nr_work = 0;
	bool *queued = calloc(cnt + 1, sizeof(*queued));
	int err = 0;

	fl.at = calloc(cnt + 1, sizeof(*fl.at));
	fl.reached = calloc(cnt + 1, sizeof(*fl.reached));
	if (!work || !queued || !fl.at || !fl.reached) {
		err = -ENOMEM;
		goto out;
	}
	if (cnt) {
		/* a global function's pointer arguments: memory that may be NULL (PTR_MAYBE_NULL) */
		for (int a = 0; entry && a < entry->nr_args; a++) {
			if (entry->ctx_arg[a])
				fl.at[0].ctx |= (unsigned short)(1u << (a + 1));
			/* a callback's NULL context: a scalar, which no load or store may use */
			if (entry->scalar_arg[a]) {
				fl.at[0].dead |= (unsigned short)(1u << (a + 1));
				fl.at[0].always_null |= (unsigned short)(1u << (a + 1));
				continue;
			}
			/* its context in the caller's stack, at one offset of it */
			if (entry->caller_stack[a]) {
				fl.at[0].caller_stack |= (unsigned short)(1u << (a + 1));
				fl.at[0].off[a + 1] = entry->stack_off[a];
				fl.at[0].off_known |= (unsigned short)(1u << (a + 1));
				continue;
			}
			/* a bpf_for_each_map_elem() callback's value: the map's, never NULL */
			if (entry->map_value[a]) {
				fl.at[0].value[a + 1] = entry->map_value[a];
				fl.at[0].off_known |= (unsigned short)(1u << (a + 1));
				continue;
			}
			/* and its key: key_size bytes, never NULL, read-only */
			if (entry->map_key[a]) {
				fl.at[0].mem_size[a + 1] = entry->mem_size[a];
				fl.at[0].map_key |= (unsigned short)(1u << (a + 1));
				fl.at[0].off_known |= (unsigned short)(1u << (a + 1));
				continue;
			}
			if (!entry->mem_size[a])
				continue;
			fl.at[0].kptr_null |= (unsigned short)(1u << (a + 1));
			fl.at[0].mem_size[a + 1] = entry->mem_size[a];
			fl.at[0].null_mem |= (unsigned short)(1u << (a + 1));
			fl.at[0].off_known |= (unsigned short)(1u << (a + 1));
		}
		fl.at[0].seen = true;
		work[nr_work++] = 0;
		queued[0] = true;
	}
	while (nr_work) {
		unsigned long i = work[--nr_work];

		queued[i] = false;
		step(&fl, i, work, &nr_work, queued);
	}
	for (unsigned long i = 0; i < cnt; i++) {
		int nr_records = 0;
		bool null_record = false;

		for (unsigned int t = 0; t < fl.nr_types; t++) {
			if (!(fl.reached[i] & (1ull << t)))
				continue;
			if (has_record(btf, fl.types[t]))
				nr_records++; /* each type its own record */
			else
				null_record = true;
		}
		differ[i] = nr_records + null_record > 1;
	}
	/*
	 * The walk only orders messages: out of memory there, the marks above stand and the
	 * order is the run's (no merged call placed first)
	 */
	if (after_merge && walk_order(&fl, after_merge, leak_after_merge)) {
		memset(after_merge, 0, cnt);
		*leak_after_merge = false;
	}
out:
	free(work);
	free(queued);
	free(fl.at);
	free(fl.reached);
	return err;
}
