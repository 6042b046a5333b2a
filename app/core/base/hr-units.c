/* hr-units.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-error.h"
#include "hr-units.h"

/**
 * hr_bytes_to_gb:
 * @bytes: a size in bytes
 *
 * Returns: @bytes in decimal gigabytes (bytes / 1e9).
 */
double
hr_bytes_to_gb (guint64 bytes)
{
  return (double) bytes / (double) HR_BYTES_PER_GB;
}

/**
 * hr_bytes_to_gib:
 * @bytes: a size in bytes
 *
 * Returns: @bytes in binary gibibytes (bytes / 1024^3).
 */
double
hr_bytes_to_gib (guint64 bytes)
{
  return (double) bytes / (double) HR_BYTES_PER_GIB;
}

static guint64
scale_to_bytes (double value,
                double unit)
{
  double bytes;

  if (!(value > 0.0))   /* also catches NaN */
    return 0;
  bytes = round (value * unit);
  if (bytes >= 18446744073709551615.0)
    return G_MAXUINT64;
  return (guint64) bytes;
}

/**
 * hr_bytes_from_gb:
 * @gb: a size in decimal gigabytes
 *
 * Returns: the size in bytes, rounded to the nearest byte; 0 for a negative
 *   or NaN input, G_MAXUINT64 when it does not fit.
 */
guint64
hr_bytes_from_gb (double gb)
{
  return scale_to_bytes (gb, (double) HR_BYTES_PER_GB);
}

/**
 * hr_bytes_from_gib:
 * @gib: a size in binary gibibytes
 *
 * Returns: the size in bytes, rounded to the nearest byte; 0 for a negative
 *   or NaN input, G_MAXUINT64 when it does not fit.
 */
guint64
hr_bytes_from_gib (double gib)
{
  return scale_to_bytes (gib, (double) HR_BYTES_PER_GIB);
}

/**
 * hr_format_decimal:
 * @value: the number
 * @decimals: digits after the point (0..9)
 *
 * Formats @value with @decimals digits, always with a '.' as the decimal
 * point whatever the locale, so figures match the seed's tables byte for byte.
 *
 * Returns: (transfer full): the text
 */
char *
hr_format_decimal (double value,
                   int    decimals)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char format[8];

  decimals = CLAMP (decimals, 0, 9);
  g_snprintf (format, sizeof format, "%%.%df", decimals);
  return g_strdup (g_ascii_formatd (buf, sizeof buf, format, value));
}

/**
 * hr_format_bytes:
 * @bytes: a size in bytes
 * @unit: %HR_UNIT_GB (decimal) or %HR_UNIT_GIB (binary)
 * @decimals: digits after the point
 *
 * Returns: (transfer full): e.g. "2.47 GB" or "2.30 GiB": always labelled.
 */
char *
hr_format_bytes (guint64 bytes,
                 HrUnit  unit,
                 int     decimals)
{
  g_autofree char *number = NULL;

  if (unit == HR_UNIT_GIB)
    {
      number = hr_format_decimal (hr_bytes_to_gib (bytes), decimals);
      /* TRANSLATORS: a size in binary gibibytes, e.g. "2.30 GiB" */
      return g_strdup_printf (_("%s GiB"), number);
    }

  number = hr_format_decimal (hr_bytes_to_gb (bytes), decimals);
  /* TRANSLATORS: a size in decimal gigabytes, e.g. "2.47 GB" */
  return g_strdup_printf (_("%s GB"), number);
}

/**
 * hr_format_gb_gib:
 * @bytes: a size in bytes
 * @decimals: digits after the point
 *
 * Returns: (transfer full): both units side by side, e.g. "6.17 GB (5.75 GiB)".
 */
char *
hr_format_gb_gib (guint64 bytes,
                  int     decimals)
{
  g_autofree char *gb = hr_format_bytes (bytes, HR_UNIT_GB, decimals);
  g_autofree char *gib = hr_format_bytes (bytes, HR_UNIT_GIB, decimals);

  return g_strdup_printf ("%s (%s)", gb, gib);
}

/**
 * hr_format_count:
 * @count: a whole number
 *
 * Returns: (transfer full): @count with thousands separated by commas,
 *   "3,085,938,688", as the seed's tables print counts and bytes.
 */
char *
hr_format_count (guint64 count)
{
  char digits[32];
  GString *out = g_string_sized_new (32);
  int len, i;

  len = g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, count);
  for (i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

/**
 * hr_parse_size:
 * @text: a size with its unit: "24GiB", "12 GiB", "23.5GB", "8192MiB",
 *   "1TB"; units B, KB, MB, GB, TB (decimal, powers of 1000) and KiB, MiB,
 *   GiB, TiB (binary, powers of 1024), case-insensitive
 * @out_bytes: (out): the size in bytes, rounded to the nearest byte
 * @error: return location for a #GError
 *
 * A bare number is refused: "24" could be GB or GiB, 7 % apart.
 *
 * Returns: %TRUE on success; %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT
 *   saying what was wrong with @text (a size above 1 PB included).
 */
gboolean
hr_parse_size (const char *text,
               guint64    *out_bytes,
               GError    **error)
{
  static const struct { const char *unit; double factor; } units[] = {
    { "B", 1.0 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 }, { "TB", 1e12 },
    { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
  };
  g_autofree char *copy = NULL;
  char *end = NULL;
  double value;

  if (text == NULL || text[0] == '\0')
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT, _("a size is missing (write it as 24GiB or 24GB)"));
      return FALSE;
    }
  copy = g_strstrip (g_strdup (text));
  value = g_ascii_strtod (copy, &end);
  if (end == copy || !isfinite (value) || value <= 0.0 || copy[0] == '-' || copy[0] == '+')
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("\"%s\" is not a size: write a positive number and a unit, as 24GiB or 24GB"), text);
      return FALSE;
    }
  while (*end == ' ')
    end++;
  if (*end == '\0')
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("\"%s\" has no unit: write 24GiB (binary, 1024^3) or 24GB (decimal, 1e9)"), text);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_ascii_strcasecmp (end, units[i].unit) == 0)
      {
        double bytes = round (value * units[i].factor);

        if (bytes < 1.0 || bytes > 1e15)
          {
            g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                         _("\"%s\" must be between 1 byte and 1 PB"), text);
            return FALSE;
          }
        *out_bytes = (guint64) bytes;
        return TRUE;
      }
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
               _("\"%s\" has an unknown unit \"%s\": use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB"), text, end);
  return FALSE;
}
