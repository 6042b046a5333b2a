/* hr-units.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Bytes, and their two names: GB (decimal, bytes / 1e9) and GiB (binary,
 * bytes / 1024^3). Every formatted figure carries its unit so the two are
 * never confused (docs/seed-figures.md, "Units").
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/** HR_BYTES_PER_GB: 1e9 bytes, the decimal gigabyte. */
#define HR_BYTES_PER_GB  G_GUINT64_CONSTANT (1000000000)
/** HR_BYTES_PER_GIB: 1024^3 bytes, the binary gibibyte. */
#define HR_BYTES_PER_GIB G_GUINT64_CONSTANT (1073741824)

/* The nicks are those of the settings enum io.github.headroom.Headroom.Units;
 * the GType, HR_TYPE_UNIT, is registered by app/gui (hr-gui-enums.h). */
typedef enum {
  HR_UNIT_GB,   /*< nick=gb >*/  /* decimal */
  HR_UNIT_GIB,  /*< nick=gib >*/ /* binary */
} HrUnit;

double  hr_bytes_to_gb          (guint64     bytes);
double  hr_bytes_to_gib         (guint64     bytes);
guint64 hr_bytes_from_gb        (double      gb);
guint64 hr_bytes_from_gib       (double      gib);
char   *hr_format_bytes         (guint64     bytes,
                                 HrUnit      unit,
                                 int         decimals);
char   *hr_format_gb_gib        (guint64     bytes,
                                 int         decimals);
char   *hr_format_count         (guint64     count);
char   *hr_format_decimal       (double      value,
                                 int         decimals);
gboolean hr_parse_size          (const char *text,
                                 guint64    *out_bytes,
                                 GError    **error);

/**
 * hr_mul_u64:
 * @a: a factor
 * @b: a factor
 * @out: (out): the product, when it fits
 *
 * Inline: the memory math calls it for every term of every row on every
 * slider step.
 *
 * Returns: %TRUE when a x b fits in 64 bits; %FALSE on overflow (@out is
 *   then set to G_MAXUINT64).
 */
static inline gboolean
hr_mul_u64 (guint64  a,
            guint64  b,
            guint64 *out)
{
  if (!g_uint64_checked_mul (out, a, b))
    {
      *out = G_MAXUINT64;
      return FALSE;
    }
  return TRUE;
}

/**
 * hr_add_u64:
 * @a: a term
 * @b: a term
 * @out: (out): the sum, when it fits
 *
 * Returns: %TRUE when a + b fits in 64 bits; %FALSE on overflow (@out is
 *   then set to G_MAXUINT64).
 */
static inline gboolean
hr_add_u64 (guint64  a,
            guint64  b,
            guint64 *out)
{
  if (!g_uint64_checked_add (out, a, b))
    {
      *out = G_MAXUINT64;
      return FALSE;
    }
  return TRUE;
}

G_END_DECLS
