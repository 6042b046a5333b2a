/* hr-gui-format.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "hr-gui-format.h"
#include "hr-ollama-host.h"

/* Replaces every @from byte of @ascii by @to (a separator of the locale). */
static char *
replace_separator (char       *ascii,
                   char        from,
                   const char *to)
{
  GString *out;

  if (to == NULL || (to[0] == from && to[1] == '\0') || strchr (ascii, from) == NULL)
    return ascii;
  out = g_string_sized_new (strlen (ascii) + 8);
  for (const char *p = ascii; *p != '\0'; p++)
    {
      if (*p == from)
        g_string_append (out, to);
      else
        g_string_append_c (out, *p);
    }
  g_free (ascii);
  return g_string_free (out, FALSE);
}

/**
 * hr_gui_format_decimal:
 * @value: the number
 * @decimals: digits after the decimal separator (0..9)
 *
 * hr_format_decimal() with the decimal separator of the locale's
 * LC_NUMERIC: "0.66" in English, "0,66" in German. The CLI, the CSV
 * files and the JSON keep hr_format_decimal()'s '.'.
 *
 * Returns: (transfer full): the text
 */
char *
hr_gui_format_decimal (double value,
                       int    decimals)
{
  const struct lconv *conv = localeconv ();

  return replace_separator (hr_format_decimal (value, decimals), '.',
                            conv->decimal_point != NULL && conv->decimal_point[0] != '\0'
                            ? conv->decimal_point : ".");
}

/**
 * hr_gui_format_count:
 * @count: a whole number
 *
 * hr_format_count() with the thousands separator of the locale's
 * LC_NUMERIC: "4,096" in English, "4.096" in German; a locale without
 * one (C, POSIX) keeps the ','.
 *
 * Returns: (transfer full): the text
 */
char *
hr_gui_format_count (guint64 count)
{
  const struct lconv *conv = localeconv ();

  return replace_separator (hr_format_count (count), ',',
                            conv->thousands_sep != NULL && conv->thousands_sep[0] != '\0'
                            ? conv->thousands_sep : ",");
}

/**
 * hr_gui_format_plain:
 * @value: the number
 *
 * @value as printf's "%g" prints it (at most six significant digits, no
 * trailing zeros: "4.6", "16", "102.4") with the decimal separator of the
 * locale's LC_NUMERIC: "4,6" in German. For axis ticks and bits per weight
 * where the figure is shown as the data gives it.
 *
 * Returns: (transfer full): the text
 */
char *
hr_gui_format_plain (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const struct lconv *conv = localeconv ();

  return replace_separator (g_strdup (g_ascii_formatd (buf, sizeof buf, "%g", value)), '.',
                            conv->decimal_point != NULL && conv->decimal_point[0] != '\0'
                            ? conv->decimal_point : ".");
}

/*
 * Two decimals, then one trailing zero dropped: "2.0 GB", "0.47 GB",
 * "5.1 GB", "0.05 GB". This is how docs/seed-figures.md prints the seed board
 * ("weights 2.0", "kv 0.47", "budget 5.1 GB"), in sentences; a column of
 * figures takes hr_gui_format_size_fixed().
 */
static char *
format_two_decimals_trimmed (double value)
{
  char *str = hr_format_decimal (value, 2);
  gsize len = strlen (str);

  if (len > 1 && str[len - 1] == '0')
    str[len - 1] = '\0';

  return replace_separator (str, '.', localeconv ()->decimal_point);
}

/**
 * hr_gui_unit_label:
 * @unit: a #HrUnit
 *
 * Returns: "GB" (decimal, bytes / 1e9) or "GiB" (binary, bytes / 1024^3)
 */
const char *
hr_gui_unit_label (HrUnit unit)
{
  /* Translators: the decimal gigabyte, 10^9 bytes */
  return unit == HR_UNIT_GIB ? HR_GUI_ONCE (_("GiB")) : HR_GUI_ONCE (_("GB"));
}

/**
 * hr_gui_format_size:
 * @bytes: a size in bytes
 * @unit: GB (bytes / 1e9) or GiB (bytes / 1024^3), from docs/seed-figures.md "Units"
 *
 * Returns: (transfer full): "2.47 GB": two decimals, one trailing zero
 *   dropped, with the unit named
 */
char *
hr_gui_format_size (guint64 bytes,
                    HrUnit  unit)
{
  g_autofree char *number = NULL;

  number = format_two_decimals_trimmed (unit == HR_UNIT_GIB ? hr_bytes_to_gib (bytes)
                                                            : hr_bytes_to_gb (bytes));
  /* Translators: a size, "2.47 GB"; %1$s is the number, %2$s the unit */
  return g_strdup_printf (HR_GUI_ONCE (_("%1$s %2$s")), number, hr_gui_unit_label (unit));
}

/**
 * hr_gui_format_size_both_units:
 * @bytes: a size in bytes
 * @unit: the unit shown first: GB (bytes / 1e9) or GiB (bytes / 1024^3)
 *
 * A size in both units, @unit first, for a figure a reader compares with
 * a card's name: a "12 GB" card holds 12 GiB, 12.88 GB.
 *
 * Returns: (transfer full): "12.88 GB = 12.00 GiB" or "12.00 GiB = 12.88 GB"
 */
char *
hr_gui_format_size_both_units (guint64 bytes,
                               HrUnit  unit)
{
  g_autofree char *first = hr_gui_format_size_fixed (bytes, unit);
  g_autofree char *second = hr_gui_format_size_fixed (bytes, unit == HR_UNIT_GIB ? HR_UNIT_GB : HR_UNIT_GIB);

  /* Translators: one size in two units, "12.88 GB = 12.00 GiB" */
  return g_strdup_printf (_("%1$s = %2$s"), first, second);
}

/**
 * hr_gui_format_size_fixed:
 * @bytes: a size in bytes
 * @unit: GB (bytes / 1e9) or GiB (bytes / 1024^3)
 *
 * A size as a column of figures shows it: always two decimals, so the
 * decimal separators line up ("2.00 GB" above "0.47 GB", never "2.0 GB").
 *
 * Returns: (transfer full): "2.00 GB"
 */
char *
hr_gui_format_size_fixed (guint64 bytes,
                          HrUnit  unit)
{
  g_autofree char *number = NULL;

  number = hr_gui_format_decimal (unit == HR_UNIT_GIB ? hr_bytes_to_gib (bytes)
                                                      : hr_bytes_to_gb (bytes), 2);
  /* Translators: a size, "2.47 GB"; %1$s is the number, %2$s the unit */
  return g_strdup_printf (HR_GUI_ONCE (_("%1$s %2$s")), number, hr_gui_unit_label (unit));
}

/**
 * hr_gui_format_parameters:
 * @parameters: a parameter count; 0 for unknown
 *
 * How the window shows a parameter count wherever it names one in short,
 * always to two significant figures or more. From 0.1 billion (as rounded
 * to two decimals: never "100.00 M") in billions with two decimals,
 * "3.21 B", "0.49 B" (Ollama's "494.03M" one unit up, so a column of
 * models reads in one unit); from 10^5 in millions with two decimals,
 * "1.26 M"; below that the count itself with the locale's separators,
 * "50,000" (hr_gui_format_count()). The exact count is in the explain
 * panel.
 *
 * Returns: (transfer full): "3.21 B", "1.26 M", "50,000"; "–" for 0
 */
char *
hr_gui_format_parameters (guint64 parameters)
{
  g_autofree char *number = NULL;

  if (parameters == 0)
    return g_strdup ("–");
  if (parameters < 100000)
    return hr_gui_format_count (parameters);
  if (parameters < G_GUINT64_CONSTANT (99995000)) /* what would round to "100.00 M" is "0.10 B" */
    {
      number = hr_gui_format_decimal (parameters / 1e6, 2);
      /* Translators: a parameter count in millions, "1.26 M" (German "1.26 Mio."); the exact count
         is in the explain panel */
      return g_strdup_printf (_("%s M"), number);
    }
  number = hr_gui_format_decimal (parameters / 1e9, 2);
  /* Translators: a parameter count in billions, "3.21 B"; the exact count is in the explain panel */
  return g_strdup_printf (_("%s B"), number);
}

/**
 * hr_gui_format_bits:
 * @bits: bits per weight
 *
 * Bits per weight, always to two decimals: "4.60", "16.00", "5.03".
 *
 * Returns: (transfer full): the number
 */
char *
hr_gui_format_bits (double bits)
{
  return hr_gui_format_decimal (bits, 2);
}

/**
 * hr_gui_format_size_both:
 * @bytes: a size in bytes
 *
 * Returns: (transfer full): GB and GiB side by side, "0.47 GB (0.44 GiB)"
 */
char *
hr_gui_format_size_both (guint64 bytes)
{
  g_autofree char *gb = hr_gui_format_size (bytes, HR_UNIT_GB);
  g_autofree char *gib = hr_gui_format_size (bytes, HR_UNIT_GIB);

  /* Translators: a size in GB and GiB, "0.47 GB (0.44 GiB)" */
  return g_strdup_printf (_("%s (%s)"), gb, gib);
}

/**
 * hr_gui_format_size_both_fixed:
 * @bytes: a size in bytes
 *
 * GB and GiB side by side, each always to two decimals, as the GGUF and
 * Hub cards show an exact byte count's size: "6.17 GB (5.75 GiB)",
 * "2.00 GB (1.86 GiB)"; the locale's decimal separator.
 *
 * Returns: (transfer full): the text
 */
char *
hr_gui_format_size_both_fixed (guint64 bytes)
{
  g_autofree char *gb = hr_gui_format_size_fixed (bytes, HR_UNIT_GB);
  g_autofree char *gib = hr_gui_format_size_fixed (bytes, HR_UNIT_GIB);

  /* Translators: a size in GB and GiB, "0.47 GB (0.44 GiB)" */
  return g_strdup_printf (_("%s (%s)"), gb, gib);
}

/**
 * hr_gui_format_context:
 * @tokens: a context window (num_ctx) in tokens
 *
 * Returns: (transfer full): "4,096 tokens" (hr_gui_format_count())
 */
char *
hr_gui_format_context (guint32 tokens)
{
  g_autofree char *count = hr_gui_format_count (tokens);

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s token", "%s tokens", tokens), count);
}

/**
 * hr_gui_format_tps:
 * @tps: a rate in tokens per second
 *
 * Returns: (transfer full): one decimal, "18.4"; "–" for no rate
 */
char *
hr_gui_format_tps (double tps)
{
  if (!(tps > 0.0))
    return g_strdup ("–");

  return hr_gui_format_decimal (tps, 1);
}

/**
 * hr_gui_format_ollama_tps:
 * @tps: a rate in tokens per second, negative when not known
 *
 * hr_ollama_format_tps() with the locale's decimal separator.
 *
 * Returns: (transfer full): one decimal, "23.3" ("23,3" in German); "n/a"
 *   (translated) when not known
 */
char *
hr_gui_format_ollama_tps (double tps)
{
  if (tps < 0 || !isfinite (tps))
    return g_strdup (_("n/a"));
  return hr_gui_format_decimal (tps, 1);
}

/**
 * hr_gui_format_ollama_ms:
 * @duration_ns: a duration in nanoseconds, negative when absent
 *
 * hr_ollama_format_ms() with the locale's decimal separator.
 *
 * Returns: (transfer full): milliseconds with one decimal, "5908.4"
 *   ("5908,4" in German); "n/a" (translated) when absent
 */
char *
hr_gui_format_ollama_ms (gint64 duration_ns)
{
  if (duration_ns < 0)
    return g_strdup (_("n/a"));
  return hr_gui_format_decimal ((double) duration_ns / 1e6, 1);
}

/**
 * hr_gui_format_ollama_size:
 * @bytes: a size in bytes
 *
 * hr_ollama_format_size() (how `ollama list` prints SIZE: "9.1 GB",
 * "19 GB") with the locale's decimal separator: "9,1 GB" in German.
 *
 * Returns: (transfer full): the text
 */
char *
hr_gui_format_ollama_size (guint64 bytes)
{
  const struct lconv *conv = localeconv ();

  return replace_separator (hr_ollama_format_size (bytes), '.',
                            conv->decimal_point != NULL && conv->decimal_point[0] != '\0'
                            ? conv->decimal_point : ".");
}
