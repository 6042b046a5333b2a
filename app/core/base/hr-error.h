/* hr-error.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The core's error domain. Messages are written for a person: they name the
 * file, the line or entry, the field, and what to do next.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_CORE_ERROR (hr_core_error_quark ())

typedef enum {
  HR_CORE_ERROR_INVALID_ARGUMENT, /* a caller or user gave a value out of range */
  HR_CORE_ERROR_OVERFLOW,         /* a product or sum does not fit 64 bits */
  HR_CORE_ERROR_PARSE,            /* not well-formed (JSON syntax, wrong magic) */
  HR_CORE_ERROR_INVALID_DATA,     /* well-formed, but a field is missing or absurd */
  HR_CORE_ERROR_UNSUPPORTED,      /* a version or type this code does not know */
  HR_CORE_ERROR_TRUNCATED,        /* the input ends before it should */
  HR_CORE_ERROR_LIMIT,            /* a count or length is past a safety cap */
  HR_CORE_ERROR_NOT_FOUND,        /* a named model, board or file is not there */
} HrCoreError;

GQuark hr_core_error_quark (void);

G_END_DECLS
