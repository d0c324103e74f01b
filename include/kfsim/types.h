/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TYPES_H
#define KFSIM_TYPES_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The kernel's fixed-width integer names (include/linux/types.h), so that code moved between the
 * kernel and kfsim keeps its declarations.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef __KFSIM_NO_UAPI_TYPES
#include <linux/types.h> /* __u8 .. __u64, __be16 ... as the uapi headers use them */
#endif

#pragma GCC visibility pop
#endif /* KFSIM_TYPES_H */
