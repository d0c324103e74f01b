/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_YNL_EMIT_H
#define KFSIM_YNL_EMIT_H

/*
 * The three emitters.  Each renders a loaded spec into text buffers; none touches files, and
 * each depends only on the spec, so the same spec always gives the same bytes.
 *
 * File names for a family F (ident with '-' -> '_'):
 *   F-uapi.h                 enums, attribute/command ids, __*_MAX (the kernel generator's names)
 *   F-kernel.h / F-kernel.c  policies and the op table for kfsim's in-process netlink kernel
 *   F-user.h / F-user.c      request/reply structs, setters, put/parse, dump and ntf helpers
 */
#include "ynl_out.h"
#include "ynl_spec.h"

/* The basename used in "generated from" banners (keeps output independent of the build dir). */
const char *ynl_emit_basename(const char *path);

void ynl_emit_uapi(const struct ynl_spec *spec, struct ynl_out *hdr);
void ynl_emit_kernel(const struct ynl_spec *spec, struct ynl_out *hdr, struct ynl_out *src);
void ynl_emit_user(const struct ynl_spec *spec, struct ynl_out *hdr, struct ynl_out *src);
/* F-test.c: round-trip/rejection/family tests over F-kernel.c and F-user.c (see the file). */
void ynl_emit_test(const struct ynl_spec *spec, struct ynl_out *src);

#endif /* KFSIM_YNL_EMIT_H */
