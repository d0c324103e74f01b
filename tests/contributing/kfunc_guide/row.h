/**
 * bpf_guide_triple() - three times @x (the guide's example kfunc, 6.3 on)
 * @x: any value
 *
 * Not a graph kfunc: refused while a bpf_spin_lock is held ("function calls are not allowed
 * while holding a lock"), and before 6.3 as any kfunc the release lacks.
 * Return: 3 * @x, wrapping as u64 arithmetic does.
 */	\
X(bpf_guide_triple, u64, (u64 x),								\
  0, __KV(6, 3), 0, 0,										\
  "three times its argument (the guide's example)", "")
