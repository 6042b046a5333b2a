/* hr-gui-evaluation-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How the window words a row's evaluation: verdict labels, pills and
 * sentences, where a split model sits, its rate and the rate's source, its
 * speed, and the KV cache type it gets. The figures are hr_evaluate()'s.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-gui-format.h"

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
      return HR_GUI_ONCE (_("fits"));
    case HR_VERDICT_TIGHT:
      /* Translators: a verdict: past the budget but inside the headroom */
      return HR_GUI_ONCE (_("tight"));
    case HR_VERDICT_PARTIAL:
      /* Translators: a verdict: runs, with part of the model in host memory */
      return HR_GUI_ONCE (_("partial"));
    case HR_VERDICT_OVER:
    default:
      /* Translators: a verdict: past the headroom */
      return HR_GUI_ONCE (_("over"));
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
  return g_strdup_printf (HR_GUI_ONCE (_("%1$s %2$s")), hr_gui_verdict_label (verdict), margin);
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
