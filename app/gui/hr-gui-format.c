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
  return unit == HR_UNIT_GIB ? _("GiB") : _("GB");
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
  return g_strdup_printf (_("%1$s %2$s"), number, hr_gui_unit_label (unit));
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
  return g_strdup_printf (_("%1$s %2$s"), number, hr_gui_unit_label (unit));
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
 * hr_gui_verdict_label:
 * @verdict: a #HrVerdict
 *
 * Returns: "fits", "tight", "partial" or "over", translated
 */
const char *
hr_gui_verdict_label (HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_FITS:
      /* Translators: a verdict: the model fits inside the budget */
      return _("fits");
    case HR_VERDICT_TIGHT:
      /* Translators: a verdict: past the budget but inside the headroom */
      return _("tight");
    case HR_VERDICT_PARTIAL:
      /* Translators: a verdict: runs, with part of the model in host memory */
      return _("partial");
    case HR_VERDICT_OVER:
    default:
      /* Translators: a verdict: past the headroom */
      return _("over");
    }
}

/**
 * hr_gui_verdict_css_class:
 * @verdict: a #HrVerdict
 *
 * Returns: the libadwaita style class the verdict pill takes: "success"
 *   (fits), "warning" (tight), "accent" (partial: it runs, part on the
 *   CPU) or "error" (over)
 */
const char *
hr_gui_verdict_css_class (HrVerdict verdict)
{
  switch (verdict)
    {
    case HR_VERDICT_FITS:
      return "success";
    case HR_VERDICT_TIGHT:
      return "warning";
    case HR_VERDICT_PARTIAL:
      return "accent";
    case HR_VERDICT_OVER:
    default:
      return "error";
    }
}

/**
 * hr_gui_format_verdict:
 * @verdict: a #HrVerdict
 * @margin_bytes: the margin hr_board_verdict() gives with it
 * @unit: GB or GiB
 *
 * Returns: (transfer full): the pill's text, "fits 2.63 GB": the margin
 *   always to two decimals (hr_gui_format_size_fixed())
 */
char *
hr_gui_format_verdict (HrVerdict verdict,
                       guint64   margin_bytes,
                       HrUnit    unit)
{
  g_autofree char *margin = hr_gui_format_size_fixed (margin_bytes, unit);

  /* Translators: a verdict and its margin, "fits 2.63 GB" */
  return g_strdup_printf (_("%1$s %2$s"), hr_gui_verdict_label (verdict), margin);
}

/**
 * hr_gui_format_verdict_sentence:
 * @verdict: a #HrVerdict
 * @margin_bytes: the margin hr_board_verdict() gives with it
 * @unit: GB or GiB
 *
 * Returns: (transfer full): the verdict as a screen reader says it: "fits
 *   with 2.63 GB to spare", "tight, 0.66 GB left above the resident
 *   memory", "over by 3.71 GB" (the seed's wording)
 */
char *
hr_gui_format_verdict_sentence (HrVerdict verdict,
                                guint64   margin_bytes,
                                HrUnit    unit)
{
  g_autofree char *margin = hr_gui_format_size (margin_bytes, unit);

  switch (verdict)
    {
    case HR_VERDICT_FITS:
      return g_strdup_printf (_("fits with %s to spare"), margin);
    case HR_VERDICT_TIGHT:
      return g_strdup_printf (_("tight, %s left above the resident memory"), margin);
    case HR_VERDICT_PARTIAL:
      return g_strdup_printf (_("partial, %s of host memory left"), margin);
    case HR_VERDICT_OVER:
    default:
      return g_strdup_printf (_("over by %s"), margin);
    }
}

/**
 * hr_gui_format_partial_pill:
 * @e: a split row whose verdict is partial
 *
 * Returns: (transfer full): the verdict pill of a model split between GPU
 *   and host: "partial 34/49" (layers on the GPU of the total), or, with
 *   every layer on the GPU and expert tensors in host memory (a mixture of
 *   experts, e->expert_host_layers), "partial: experts": the
 *   layers are all there, the experts are what is not
 */
char *
hr_gui_format_partial_pill (const HrEvaluation *e)
{
  if (e->gpu_layers == e->total_layers && e->expert_host_layers > 0)
    /* Translators: the verdict pill of a mixture of experts whose layers are all on the
     * GPU and whose expert tensors are in host memory */
    return g_strdup (_("partial: experts"));
  /* Translators: the verdict pill of a model split between GPU and CPU:
   * layers on the GPU out of the total, "partial 28/48" */
  return g_strdup_printf (_("partial %u/%u"), e->gpu_layers, e->total_layers);
}

/* The verdict alone: a split's "partial 34/49", else hr_gui_format_verdict(). */
static char *
evaluation_verdict (const HrEvaluation *e,
                    HrUnit              unit)
{
  if (e->verdict == HR_VERDICT_PARTIAL && e->split)
    return hr_gui_format_partial_pill (e);
  return hr_gui_format_verdict (e->verdict, e->margin_bytes, unit);
}

/**
 * hr_gui_format_devices_split:
 * @e: a row (hr_evaluate())
 *
 * Where a row on a board with several GPUs sits (e->n_devices, from
 * hr-offload-devices.c): the GPUs and their layers in llama.cpp's order.
 *
 * Returns: (transfer full) (nullable): "2 GPUs 41+40 layers", or "GPU 1:
 *   49 layers" when Ollama chose one GPU of several; %NULL for a row not
 *   placed across GPUs
 */
char *
hr_gui_format_devices_split (const HrEvaluation *e)
{
  g_autoptr(GString) layers = NULL;

  if (!e->split || e->n_devices == 0)
    return NULL;
  if (e->n_devices == 1)
    /* Translators: a model on one GPU of several: the GPU's index in the board's list, its layers */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "GPU %1$u: %2$u layer", "GPU %1$u: %2$u layers",
                                         e->device_layers[0]),
                            e->device_index[0], e->device_layers[0]);
  layers = g_string_new (NULL);
  for (guint i = 0; i < e->n_devices; i++)
    g_string_append_printf (layers, "%s%u", i > 0 ? "+" : "", e->device_layers[i]);
  /* Translators: a model across GPUs: how many, then each one's layers, "2 GPUs 41+40 layers" */
  return g_strdup_printf (_("%1$u GPUs %2$s layers"), e->n_devices, layers->str);
}

/**
 * hr_gui_format_evaluation_verdict:
 * @e: a row (hr_evaluate())
 * @unit: GB or GiB
 *
 * Returns: (transfer full): the pill's text: a split's "partial 34/49"
 *   (the layers on the GPU out of the total), else hr_gui_format_verdict();
 *   on a board with several GPUs followed by where the row sits
 *   (hr_gui_format_devices_split()), "fits 1.54 GB · 2 GPUs 41+40 layers"
 */
char *
hr_gui_format_evaluation_verdict (const HrEvaluation *e,
                                  HrUnit              unit)
{
  g_autofree char *verdict = evaluation_verdict (e, unit);
  g_autofree char *devices = hr_gui_format_devices_split (e);

  if (devices == NULL)
    return g_steal_pointer (&verdict);
  /* Translators: the verdict pill, then where the model sits on a board with several GPUs */
  return g_strdup_printf (_("%1$s · %2$s"), verdict, devices);
}

/**
 * hr_gui_format_evaluation_sentence:
 * @e: a row (hr_evaluate())
 * @unit: GB or GiB
 *
 * Returns: (transfer full): the verdict as a screen reader says it; for a
 *   split "partial: 34 of 49 layers on the GPU, 10.65 GB in VRAM and 5.27 GB
 *   in host memory", else hr_gui_format_verdict_sentence()
 */
char *
hr_gui_format_evaluation_sentence (const HrEvaluation *e,
                                   HrUnit              unit)
{
  g_autofree char *vram = NULL;
  g_autofree char *host = NULL;

  g_autofree char *sentence = NULL;
  g_autofree char *devices = hr_gui_format_devices_split (e);

  if (e->verdict != HR_VERDICT_PARTIAL || !e->split)
    sentence = hr_gui_format_verdict_sentence (e->verdict, e->margin_bytes, unit);
  else
    {
      vram = hr_gui_format_size (e->vram_bytes, unit);
      host = hr_gui_format_size (e->host_bytes, unit);
      if (e->gpu_layers == e->total_layers && e->expert_host_layers > 0)
        /* Translators: a split verdict of a mixture of experts: layers whose experts are in
           host memory, VRAM, host memory */
        sentence = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "partial: every layer on the GPU, the experts of %1$u layer in host memory; %2$s in VRAM and %3$s in host memory",
                                                 "partial: every layer on the GPU, the experts of %1$u layers in host memory; %2$s in VRAM and %3$s in host memory",
                                                 e->expert_host_layers),
                                    e->expert_host_layers, vram, host);
      else
        /* Translators: a split verdict: layers on the GPU, of the total, VRAM, host memory */
        sentence = g_strdup_printf (_("partial: %u of %u layers on the GPU, %s in VRAM and %s in host memory"),
                                    e->gpu_layers, e->total_layers, vram, host);
    }
  if (devices == NULL)
    return g_steal_pointer (&sentence);
  /* Translators: the verdict as a screen reader says it, then where the model sits on several GPUs */
  return g_strdup_printf (_("%1$s; %2$s"), sentence, devices);
}

/**
 * hr_gui_format_evaluation_tps:
 * @e: a row (hr_evaluate())
 *
 * Returns: (transfer full): the t/s cell: "23.2"; "–" for a row without a
 *   rate or one that does not load (hr_gui_evaluation_has_rate())
 */
char *
hr_gui_format_evaluation_tps (const HrEvaluation *e)
{
  if (!hr_gui_evaluation_has_rate (e))
    return g_strdup ("–");
  return hr_gui_format_tps (e->tps);
}

/**
 * hr_gui_format_evaluation_source:
 * @e: a row (hr_evaluate())
 *
 * Returns: (transfer none): the Source cell: "measured" or "predicted"
 *   (hr_gui_rate_source_label()); "–" for a row without a rate or one that
 *   does not load
 */
const char *
hr_gui_format_evaluation_source (const HrEvaluation *e)
{
  if (!hr_gui_evaluation_has_rate (e))
    return "–";
  return hr_gui_rate_source_label (e->source);
}

/**
 * hr_gui_rate_source_label:
 * @source: a #HrRateSource
 *
 * The window names a rate by one word for what it is: "measured" (this
 * board's measurement archive) or "predicted" (ceiling x an efficiency).
 * Whether the efficiency was fitted on this board's measurements, inside or
 * outside the band they cover, or is the published mean of its kind of
 * hardware, is said once, by the explain panel's rate line
 * (hr_formula_rate()), and shows in the speed verdict: "ok" / "slow",
 * "unknown" outside the band, "likely ok" / "likely slow" from a prior
 * (docs/memory-model.md, "Decode rate"). The command line and machine output
 * keep the seed's four source ids (hr_rate_source_to_string()).
 *
 * Returns: "measured" or "predicted", translated
 */
const char *
hr_gui_rate_source_label (HrRateSource source)
{
  if (source == HR_RATE_SOURCE_MEASURED)
    /* Translators: a rate's source: read from the measurement archive */
    return _("measured");
  /* Translators: a rate's source: ceiling x an efficiency (fitted on this board, or
     the published one of its kind of hardware), not a measurement */
  return _("predicted");
}

/**
 * hr_gui_evaluation_has_rate:
 * @e: a row (hr_evaluate())
 *
 * A row that does not load has no rate in the window: what it would decode
 * at if it loaded (the seed's dashboard prints it) is not a speed anyone
 * will see. The explain panel still works it out, saying so.
 *
 * Returns: %TRUE when @e loads (fits, tight or partial) and has a rate
 */
gboolean
hr_gui_evaluation_has_rate (const HrEvaluation *e)
{
  return e->verdict != HR_VERDICT_OVER && e->tps > 0.0;
}

/**
 * hr_gui_speed_label:
 * @speed: a #HrSpeed
 *
 * Returns: "ok", "slow", "unknown", "likely ok" or "likely slow", translated
 */
const char *
hr_gui_speed_label (HrSpeed speed)
{
  switch (speed)
    {
    case HR_SPEED_OK:
      /* Translators: speed: the rate meets the floor */
      return _("ok");
    case HR_SPEED_SLOW:
      /* Translators: speed: the rate is under the floor */
      return _("slow");
    case HR_SPEED_LIKELY_OK:
      /* Translators: speed: a prior rate (not measured on this board) meets the floor */
      return _("likely ok");
    case HR_SPEED_LIKELY_SLOW:
      /* Translators: speed: a prior rate (not measured on this board) is under the floor */
      return _("likely slow");
    case HR_SPEED_UNKNOWN:
    default:
      /* Translators: speed: the rate is extrapolated, so unknown */
      return _("unknown");
    }
}

/**
 * hr_gui_kv_cache_type_label:
 * @type: a #HrKvCacheType
 *
 * Returns: "f16", "q8_0" or "q4_0": the names Ollama's OLLAMA_KV_CACHE_TYPE
 *   takes; not translated
 */
const char *
hr_gui_kv_cache_type_label (HrKvCacheType type)
{
  return hr_kv_cache_type_to_string (type);
}

/**
 * hr_gui_kv_fallback_note:
 * @asked: the KV cache type the scenario asks for
 * @used: the type the figures are in (hr_model_row_get_kv_type())
 *
 * Why the KV cache is not in the type asked for: the runtime model
 * resolves a quantized cache with flash attention off to f16, as Ollama
 * does (llama.cpp refuses a quantized V cache without flash attention).
 *
 * Returns: (transfer full) (nullable): the reason in words; %NULL when
 *   @used is @asked
 */
char *
hr_gui_kv_fallback_note (HrKvCacheType asked,
                         HrKvCacheType used)
{
  if (asked == used)
    return NULL;
  /* Translators: %1$s is the KV cache type used ("f16"), %2$s the one asked for ("q8_0") */
  return g_strdup_printf (_("%1$s, not %2$s: with flash attention off, Ollama keeps an %1$s cache "
                            "(llama.cpp needs flash attention for a quantized V cache)"),
                          hr_gui_kv_cache_type_label (used), hr_gui_kv_cache_type_label (asked));
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

static void
setup_name_item (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);
  int max_chars = GPOINTER_TO_INT (user_data);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  if (max_chars > 0)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), max_chars);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_name_item (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  const char *name = gtk_string_object_get_string (gtk_list_item_get_item (item));

  gtk_label_set_text (GTK_LABEL (label), name);
  gtk_widget_set_tooltip_text (label, name);
}

/**
 * hr_gui_name_factory:
 * @max_chars: the most characters a name takes before it is cut in the
 *   middle; 0 or less: never cut (a popover's list)
 *
 * A factory for a list of #GtkStringObject names (an #AdwComboRow's boards)
 * that cuts a name too long for its place in the middle, so names that
 * share their start stay apart ("NVIDIA Ge…3060 12 GB" and "NVIDIA
 * GeForce RTX 3090", not two "NVIDIA GeForce RTX 3…"), with the whole name
 * in the tooltip.
 *
 * Returns: (transfer full): the factory
 */
GtkListItemFactory *
hr_gui_name_factory (int max_chars)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_name_item), GINT_TO_POINTER (max_chars));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_name_item), NULL);
  return factory;
}

/**
 * hr_gui_label_spin_by_row:
 * @spin: a spin button at the end of an #AdwPreferencesRow
 *
 * Names @spin, for a screen reader, by its row's title without the
 * mnemonic underscore ("Parallel _slots" -> "Parallel slots"); nothing
 * when @spin is not in a row.
 */
void
hr_gui_label_spin_by_row (GtkSpinButton *spin)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (spin), ADW_TYPE_PREFERENCES_ROW);
  g_autoptr(GString) title = NULL;

  if (row == NULL)
    return;

  title = g_string_new (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
  g_string_replace (title, "__", "\x01", 0);
  g_string_replace (title, "_", "", 0);
  g_string_replace (title, "\x01", "_", 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title->str,
                                  -1);
}

static void
show_deferred_rows (AdwExpanderRow *expander)
{
  GtkWidget *list = g_object_get_data (G_OBJECT (expander), "hr-deferred-rows");

  if (list == NULL || !adw_expander_row_get_expanded (expander))
    return;
  gtk_widget_set_visible (list, TRUE);
  g_object_set_data (G_OBJECT (expander), "hr-deferred-rows", NULL);
  g_object_set_data (G_OBJECT (expander), "hr-deferred-rows-shown", GINT_TO_POINTER (TRUE));
  g_signal_handlers_disconnect_by_func (expander, show_deferred_rows, NULL);
}

/**
 * hr_gui_expander_row_defer_rows:
 * @expander: an expander row, collapsed or not
 * @row: a widget added to @expander with adw_expander_row_add_row()
 *
 * Keeps the rows of a collapsed @expander out of the layout until it is
 * first expanded, and shows them, for good, as it expands; nothing when
 * @expander is expanded or has been. A collapsed #AdwExpanderRow keeps its
 * rows in a #GtkRevealer, and GTK 4.8's revealer measures its child while
 * hidden, so each row's labels and spin buttons would be laid out at every
 * size change for nothing (33 ms of the Models page's first layout, with
 * the board editor's fourteen rows). The list @row sits in is hidden, not
 * the rows, so a row's own visibility is left to its owner. Call it again
 * after adding rows to a list that was empty: it is idempotent.
 */
void
hr_gui_expander_row_defer_rows (AdwExpanderRow *expander,
                                GtkWidget      *row)
{
  GtkWidget *list;

  g_return_if_fail (ADW_IS_EXPANDER_ROW (expander));
  g_return_if_fail (GTK_IS_WIDGET (row));

  if (adw_expander_row_get_expanded (expander) ||
      g_object_get_data (G_OBJECT (expander), "hr-deferred-rows-shown") != NULL)
    return;
  list = gtk_widget_get_ancestor (row, GTK_TYPE_LIST_BOX);
  g_return_if_fail (list != NULL && gtk_widget_is_ancestor (list, GTK_WIDGET (expander)));

  if (g_object_get_data (G_OBJECT (expander), "hr-deferred-rows") == NULL)
    g_signal_connect (expander, "notify::expanded", G_CALLBACK (show_deferred_rows), NULL);
  g_object_set_data (G_OBJECT (expander), "hr-deferred-rows", list);
  gtk_widget_set_visible (list, FALSE);
}

/**
 * hr_gui_rows_bound_subtitles:
 * @root: a widget whose descendants include #AdwActionRow<!-- -->s (an
 *   #AdwComboRow is one, and an #AdwExpanderRow's header is one)
 * @lines: the most lines a subtitle may take, at least 1
 *
 * Gives every row under @root whose subtitle may take any number of lines
 * (#AdwActionRow:subtitle-lines 0, libadwaita's default) at most @lines,
 * past which it is ellipsized; pick @lines so that no subtitle reaches it.
 * A subtitle of unbounded lines is a wrapping label without ellipsis, and
 * GTK 4.8 measures such a label's width for a given height by a binary
 * search over widths in Pango units, shaping the text again at each step:
 * the Models page's sidebar shaped each subtitle about 170 times in its
 * first layout (18 ms of it). A label that may ellipsize is measured
 * directly. libadwaita 1.2 has no setter for the lines of an expander
 * row's subtitle; its header is an #AdwActionRow among its descendants,
 * which this walk reaches.
 */
void
hr_gui_rows_bound_subtitles (GtkWidget *root,
                             int        lines)
{
  g_return_if_fail (GTK_IS_WIDGET (root));
  g_return_if_fail (lines >= 1);

  if (ADW_IS_ACTION_ROW (root) && adw_action_row_get_subtitle_lines (ADW_ACTION_ROW (root)) == 0)
    adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (root), lines);
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    hr_gui_rows_bound_subtitles (child, lines);
}

/**
 * hr_gui_label_no_tab_stop:
 * @label: a label, selectable or not
 *
 * Keeps @label out of the Tab chain while it stays selectable with the
 * mouse (its context menu copies the selection). #GtkWidget:focusable
 * %FALSE is not enough for a selectable label in GTK 4.8: its focus
 * handler takes the focus anyway and then answers every Tab without
 * moving it, so the keyboard is trapped there; a label that cannot focus
 * at all is passed over.
 */
void
hr_gui_label_no_tab_stop (GtkLabel *label)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  gtk_widget_set_focusable (GTK_WIDGET (label), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (label), FALSE);
}
