/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BENCH_CALLGRIND_H
#define KFSIM_BENCH_CALLGRIND_H

/*
 * Instruction counts for a benchmark's own --callgrind option: the benchmark reruns itself under
 * valgrind --tool=callgrind, counting only inside the function that does the timed work, so the
 * figure does not move with the machine's load.  scripts/bench counts its own way (one dump per
 * call); this is for a person running one benchmark by hand.  Compiled into each benchmark that
 * has the option (bench/<part>/CMakeLists.txt), with src/core/child_run.c to run valgrind.
 */

/**
 * bench_callgrind_self() - instructions executed inside @function (and what it calls) by this
 * program rerun with @args under valgrind --tool=callgrind --toggle-collect=@function
 * @function: the timed loop's function (noinline), or a pattern as --toggle-collect takes it
 * @args: NULL-terminated arguments of the rerun, after the program's name
 *
 * Return: the count, or -1 when valgrind is not installed or the rerun failed (valgrind's
 * messages are then printed on stderr).
 */
long long bench_callgrind_self(const char *function, const char *const args[]);

#endif /* KFSIM_BENCH_CALLGRIND_H */
