/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_ERR_H
#define KFSIM_ERR_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Errors, the kernel's way (include/linux/err.h, include/linux/errno.h): functions return a
 * negative errno (-EINVAL), and functions that return a pointer encode the errno in the pointer's
 * top 4095 values.  The numbers are Linux's, so they match what a real kernel returns over
 * netlink; the kernel-internal ones that userspace headers lack are added here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#define MAX_ERRNO 4095

/* The kernel-internal codes of include/linux/errno.h, never seen by user programs. */
#ifndef ERESTARTSYS
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ENOIOCTLCMD 515
#define ERESTART_RESTARTBLOCK 516
#define EPROBE_DEFER 517
#define EOPENSTALE 518
#define ENOPARAM 519
#define EBADHANDLE 521
#define ENOTSYNC 522
#define EBADCOOKIE 523
#define ENOTSUPP 524 /* EOPNOTSUPP is the one userspace should see */
#define ETOOSMALL 525
#define ESERVERFAULT 526
#define EBADTYPE 527
#define EJUKEBOX 528
#define EIOCBQUEUED 529
#define ERECALLCONFLICT 530
#define ENOGRACE 531
#endif

/** IS_ERR_VALUE() - true when @x is an errno encoded in an unsigned long. */
#define IS_ERR_VALUE(x) ((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

/**
 * ERR_PTR() - encode a negative errno as a pointer
 * @error: a negative errno, -MAX_ERRNO..-1
 *
 * Return: a pointer that IS_ERR() recognises and PTR_ERR() turns back into @error.
 */
static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

/** PTR_ERR() - the negative errno encoded in @ptr (meaningful only when IS_ERR(@ptr)). */
static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

/** IS_ERR() - true when @ptr encodes an errno. */
static inline bool IS_ERR(const void *ptr)
{
	return __builtin_expect(IS_ERR_VALUE((unsigned long)ptr), 0);
}

/** IS_ERR_OR_NULL() - true when @ptr is NULL or encodes an errno. */
static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

/** ERR_CAST() - pass an error pointer on as another pointer type. */
static inline void *ERR_CAST(const void *ptr)
{
	/* through uintptr_t: the kernel's cast, without -Wcast-qual noise in users' builds */
	return (void *)(uintptr_t)ptr;
}

/** PTR_ERR_OR_ZERO() - PTR_ERR(@ptr) when it is an error, otherwise 0. */
static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

/**
 * errname() - the symbolic name of an errno, as lib/errname.c gives it
 * @err: an errno, positive or negative
 *
 * Return: "-EINVAL" for -22, "EINVAL" for 22; NULL for a number the kernel has no name for
 * (0, ENOGRACE, anything above 530).  The string is static.
 */
const char *errname(int err);

/**
 * kfsim_errname() - the symbolic name of an errno, without sign, never NULL
 * @err: an errno, positive or negative
 *
 * Return: "EINVAL" for 22 or -22, the kernel-internal names (ENOTSUPP, EPROBE_DEFER, ...) too;
 * "E?" for a number with no name.  The string is static.
 */
const char *kfsim_errname(int err);

#pragma GCC visibility pop
#endif /* KFSIM_ERR_H */
