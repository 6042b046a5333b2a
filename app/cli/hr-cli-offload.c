/* hr-cli-offload.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli predict` on a board that splits: where llama.cpp's fit puts
 * each layer (app/core/runtime/hr-offload.c), VRAM and host bytes term by term, the
 * PROCESSOR text, the verdict and the decode arithmetic; and the fit finders
 * (--max-context, --best-precision). Every figure comes from app/core.
 * The split's text and JSON are written in hr-cli-offload-print.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "hr-cli-offload-private.h"
#include "hr-error.h"
#include "hr-units.h"

static gboolean placement_spread;
static gint32 placement_main_gpu = -1;

/**
 * hr_cli_offload_set_placement:
 * @sched_spread: OLLAMA_SCHED_SPREAD (--sched-spread): every GPU of the group
 * @main_gpu: Ollama's main_gpu option (--main-gpu), -1 = not set
 *
 * Ollama's inputs to its choice of GPUs on a board with several
 * (hr-offload-devices.c), for every split this command predicts.
 */
void
hr_cli_offload_set_placement (gboolean sched_spread,
                              gint32   main_gpu)
{
  placement_spread = sched_spread;
  placement_main_gpu = main_gpu;
}

/**
 * hr_cli_offload_get_main_gpu:
 *
 * Returns: the --main-gpu hr_cli_offload_set_placement() was given, -1 = not set
 */
gint32
hr_cli_offload_get_main_gpu (void)
{
  return placement_main_gpu;
}

/* The offload inputs for predict's runtime inputs on a board: the 0.30 era
 * (the split is llama.cpp's fit), the user's num_gpu (-1 automatic); on a
 * unified board the learned overhead predict adds (hr_cli_predict_spec():
 * the board's measurements at predict's server version, against predict's
 * inputs), filled into @cal, so the pool figure is predict's. */
static void
offload_inputs (HrOffloadInputs       *out,
                HrCliContext          *ctx,
                const HrBoard         *board,
                const HrRuntimeInputs *runtime,
                gint32                 num_gpu,
                HrCalibration         *cal)
{
  hr_offload_inputs_init (out, board, runtime->spec, runtime->context_tokens);
  if (board->unified)
    {
      hr_cli_board_calibration (ctx, board, runtime->server_version, runtime, cal);
      out->calibration = cal;
    }
  out->runtime = *runtime;
  /* llama-server run by hand is placed as itself (every GPU, its -ts and
   * -sm); any other era as Ollama 0.30+. */
  out->llama_server = runtime->era == HR_RUNTIME_ERA_LLAMA_SERVER;
  out->runtime.era = out->llama_server ? HR_RUNTIME_ERA_LLAMA_SERVER : HR_RUNTIME_ERA_OLLAMA_0_30;
  out->runtime.server_version = NULL;
  out->runtime.skip_text = TRUE;
  if (board->backend == HR_BOARD_BACKEND_METAL)
    out->runtime.backend = HR_RUNTIME_BACKEND_METAL;
  out->num_gpu = num_gpu;
  out->sched_spread = placement_spread;
  out->main_gpu_set = placement_main_gpu >= 0;
  out->main_gpu = placement_main_gpu >= 0 ? (guint32) placement_main_gpu : 0;
  hr_cli_placement_apply (out);
}

/* The efficiencies a split with layers on the CPU is timed with: the
 * board's fitted efficiency, else its kind's prior, and the CPU's prior
 * (hr_evaluate() does the same). */
static void
efficiencies (HrCliContext  *ctx,
              const HrBoard *board,
              double        *gpu,
              double        *host)
{
  *host = hr_cli_context_prior (ctx, HR_HARDWARE_CPU, NULL);
  if (ctx->fit.n_points > 0)
    *gpu = ctx->fit.efficiency;
  else
    *gpu = hr_cli_context_prior (ctx, hr_board_hardware_kind (board), NULL);
}

/* The rate of a split with every layer on the GPU: hr_evaluate()'s, so
 * predict says what the tables say (the seed's ceiling x efficiency on the
 * weights, or the measured rate), with that arithmetic. */
static void
whole_rate (HrCliContext          *ctx,
            const HrBoard         *board,
            const HrRuntimeInputs *runtime,
            double                *tps,
            HrRateSource          *source,
            char                 **text)
{
  HrEvaluationInputs s;
  HrEvaluation e;
  g_autofree char *bw = NULL, *weights = NULL, *ceiling = NULL, *eff = NULL, *rate = NULL;

  hr_cli_context_scenario (ctx, board, &ctx->fit, &s);
  s.precision = runtime->precision;
  s.kv_type = runtime->kv_type;
  s.context_tokens = runtime->context_tokens;
  s.parallel_slots = MAX (runtime->parallel_slots, 1);
  hr_evaluate (&s, runtime->spec, hr_cli_context_measured_tps (ctx, runtime->spec->name), 0, &e);
  *tps = e.tps;
  *source = e.source;
  if (text == NULL)
    return;
  rate = hr_format_decimal (e.tps, 1);
  if (e.source == HR_RATE_SOURCE_MEASURED)
    {
      *text = g_strdup_printf (_("measured on this board: %s t/s"), rate);
      return;
    }
  bw = hr_format_decimal (board->bandwidth_bytes_per_s / 1e9, 1);
  weights = hr_format_count (e.read_bytes);
  ceiling = hr_format_decimal (e.ceiling_tps, 1);
  eff = hr_format_decimal (e.ceiling_tps > 0.0 ? e.tps / e.ceiling_tps : 0.0, 2);
  if (e.read_bytes < e.footprint.weights)
    /* Translators: GB/s, bytes, experts used, experts, t/s, efficiency, t/s */
    *text = g_strdup_printf (_("every layer on the GPU: %1$s GB/s / %2$s bytes read per token (the dense weights and %3$u of %4$u experts) = %5$s t/s ceiling, x %6$s = %7$s t/s"),
                             bw, weights, runtime->spec->expert_used_count, runtime->spec->expert_count,
                             ceiling, eff, rate);
  else
    *text = g_strdup_printf (_("every layer on the GPU: %s GB/s / %s bytes of weights = %s t/s ceiling, x %s = %s t/s"),
                             bw, weights, ceiling, eff, rate);
}

/* The rate with every layer on several GPUs (or the one Ollama chose), on
 * the tables' terms (whole_rate(): the weights of the footprint, the
 * board's measured rate or efficiency): a token passes the devices one
 * after the other under the layer split, each reading its share of the
 * weights (its weights over the GPUs' weights) at its own bandwidth:
 *   ceiling = 1 / sum over devices of (share_d x weights / bandwidth_d)
 * then x the efficiency. FALSE with the text when a device holding layers
 * has no known bandwidth. */
static gboolean
whole_rate_devices (HrCliContext          *ctx,
                    const HrBoard         *board,
                    const HrRuntimeInputs *runtime,
                    const HrOffload       *split,
                    double                *tps,
                    HrRateSource          *source,
                    char                 **text)
{
  HrEvaluationInputs s;
  HrEvaluation e;
  double t = 0.0, eff, ceiling;
  g_autoptr(GString) sum = g_string_new (NULL);

  for (guint i = 0; i < split->n_devices; i++)
    {
      const HrOffloadDevice *d = &split->devices[i];

      if (d->layers > 0 && !(d->bandwidth_bytes_per_s > 0.0))
        {
          if (text)
            *text = g_strdup_printf (_("not known: the memory bandwidth of %s is not known: it holds layers of the model"), d->name);
          return FALSE;
        }
    }
  hr_cli_context_scenario (ctx, board, &ctx->fit, &s);
  s.precision = runtime->precision;
  s.kv_type = runtime->kv_type;
  s.context_tokens = runtime->context_tokens;
  s.parallel_slots = MAX (runtime->parallel_slots, 1);
  hr_evaluate (&s, runtime->spec, hr_cli_context_measured_tps (ctx, runtime->spec->name), 0, &e);
  *source = e.source;
  if (e.source == HR_RATE_SOURCE_MEASURED)
    {
      *tps = e.tps;
      if (text)
        {
          g_autofree char *rate = hr_format_decimal (e.tps, 1);

          *text = g_strdup_printf (_("measured on this board: %s t/s"), rate);
        }
      return TRUE;
    }
  eff = e.ceiling_tps > 0.0 ? e.tps / e.ceiling_tps : 0.0;
  for (guint i = 0; i < split->n_devices; i++)
    {
      const HrOffloadDevice *d = &split->devices[i];
      double share = split->vram.weights > 0 ? (double) d->side.weights / (double) split->vram.weights : 0.0;
      g_autofree char *sh = NULL, *bw = NULL;

      if (d->layers == 0)
        continue;
      t += share * (double) e.read_bytes / d->bandwidth_bytes_per_s;
      sh = hr_format_decimal (share, 3);
      bw = hr_format_decimal (d->bandwidth_bytes_per_s / 1e9, 1);
      /* Translators: a share (0.512), GB/s, a GPU's name */
      g_string_append_printf (sum, "%s%s / %s GB/s (%s)", sum->len > 0 ? " + " : "", sh, bw, d->name);
    }
  ceiling = t > 0.0 ? 1.0 / t : 0.0;
  *tps = ceiling * eff;
  if (text)
    {
      g_autofree char *weights = hr_format_count (e.read_bytes);
      g_autofree char *c = hr_format_decimal (ceiling, 1);
      g_autofree char *ef = hr_format_decimal (eff, 2);
      g_autofree char *rate = hr_format_decimal (*tps, 1);

      /* Translators: bytes, the sum of shares over bandwidths, t/s, efficiency, t/s */
      *text = g_strdup_printf (_("every layer on the GPUs: %s bytes of weights x (%s) per token = %s t/s ceiling, x %s = %s t/s"),
                               weights, sum->str, c, ef, rate);
    }
  return TRUE;
}

/* A split's rate with its source and speed: with every layer on the GPU
 * the tables' rate (whole_rate()), else the two-sided read time. */
static gboolean
split_rate (HrCliContext          *ctx,
            const HrBoard         *board,
            const HrRuntimeInputs *runtime,
            const HrOffload       *split,
            double                *tps,
            HrRateSource          *source,
            HrSpeed               *speed,
            char                 **text)
{
  double gpu, host;
  gboolean ok = TRUE;

  if (text)
    *text = NULL;
  if (split->n_devices > 0 && split->verdict == HR_VERDICT_OVER)
    ok = whole_rate_devices (ctx, board, runtime, split, tps, source, text);
  else if (split->n_devices > 0 && split->gpu_layers == split->total_layers && split->host_read_bytes == 0)
    ok = whole_rate_devices (ctx, board, runtime, split, tps, source, text);
  else if (split->n_devices > 0)
    {
      g_autoptr(GError) local = NULL;

      /* Several GPUs (hr-offload-devices.c): each device's reads at its own
       * bandwidth, the host's after; no bandwidth, no rate. */
      efficiencies (ctx, board, &gpu, &host);
      *source = HR_RATE_SOURCE_PRIOR;
      ok = hr_offload_decode_tps (split, board, gpu, host, tps, text, &local);
      if (!ok && text)
        *text = g_strdup_printf (_("not known: %s"), local->message);
    }
  else if (!(board->bandwidth_bytes_per_s > 0.0))
    {
      /* --gpus gives memory only: no speed rather than a made-up one */
      if (text)
        *text = g_strdup (_("not known: the GPU's memory bandwidth is not known (--gpus gives each GPU's memory only)"));
      ok = FALSE;
    }
  else if (split->verdict == HR_VERDICT_OVER ||
           (split->gpu_layers == split->total_layers && split->host_read_bytes == 0))
    /* an over row gets the tables' rate, as hr_evaluate() gives it: the
     * one with every layer on the GPU, what it would decode at if it loaded */
    whole_rate (ctx, board, runtime, tps, source, text);
  else
    {
      efficiencies (ctx, board, &gpu, &host);
      *source = HR_RATE_SOURCE_PRIOR;
      ok = hr_offload_decode_tps (split, board, gpu, host, tps, text, NULL);
    }
  if (!ok)
    {
      *tps = 0.0;
      *source = HR_RATE_SOURCE_EXTRAPOLATED;
    }
  *speed = hr_rate_speed (*tps, *source, hr_board_floor_tps (board));
  return ok;
}

/**
 * hr_cli_predict_split:
 * @ctx: a loaded context (its board and fit)
 * @runtime: predict's runtime inputs (the era is forced to 0.30)
 * @num_gpu: the user's num_gpu, -1 = automatic
 * @json: (nullable): add the split's members here instead of printing
 * @error: return location for a #GError
 *
 * On a board that splits (hr_board_has_host()): the split
 * (hr_offload_predict()) and its rate, printed with the arithmetic: with
 * every layer on the GPU the tables' rate (hr_evaluate()), else the
 * two-sided read time (hr_offload_decode_tps(): the board's fitted
 * efficiency, else its kind's prior, and the CPU's prior, source "prior"); or as "gpu_layers", "total_layers", "vram_bytes",
 * "host_bytes", "processor", "ps_size_bytes", "verdict", "margin_bytes",
 * "tps", "source", "speed" and "decode" members of @json (the verdict and
 * margin replace the one-pool verdict's).
 *
 * Returns: %TRUE on success, or hr_offload_predict()'s errors.
 */
gboolean
hr_cli_predict_split (HrCliContext          *ctx,
                      const HrRuntimeInputs *runtime,
                      gint32                 num_gpu,
                      JsonObject            *json,
                      GError               **error)
{
  const HrBoard *board = ctx->board;
  HrOffloadInputs in;
  HrCalibration cal;
  g_autofree HrOffload *split = g_new0 (HrOffload, 1);
  g_autofree char *text = NULL;
  HrRateSource source;
  HrSpeed speed;
  double tps;

  offload_inputs (&in, ctx, board, runtime, num_gpu, &cal);
  if (!hr_offload_predict (&in, split, error))
    return FALSE;
  split_rate (ctx, board, &in.runtime, split, &tps, &source, &speed, &text);
  if (json != NULL)
    {
      hr_cli_offload_add_split_members (json, split, tps, source, speed, text);
      return TRUE;
    }

  if (in.llama_server)
    printf (_("\non %s, as llama-server and its fit place it:\n"), board->name);
  else
    printf (_("\non %s, as Ollama 0.30+ and llama.cpp's fit place it:\n"), board->name);
  hr_cli_placement_print (split, in.llama_server);
  hr_cli_offload_print_fit_target (split, num_gpu);
  hr_cli_offload_print_projector (split);
  hr_cli_offload_print_placement_figures (split);
  hr_cli_offload_print_split_rate (board, split, tps, source, speed, text);
  return TRUE;
}

/* One line: the prediction at a finder's answer. */
static gboolean
print_at (HrCliContext          *ctx,
          const HrRuntimeInputs *runtime,
          gint32                 num_gpu,
          JsonBuilder           *b,
          GError               **error)
{
  HrOffloadInputs in;
  HrCalibration cal;
  g_autofree HrOffload *split = g_new0 (HrOffload, 1);
  g_autofree char *vram = NULL, *host = NULL, *tps_text = NULL, *verdict = NULL;
  HrRateSource source;
  HrSpeed speed;
  double tps;

  offload_inputs (&in, ctx, ctx->board, runtime, num_gpu, &cal);
  if (!hr_offload_predict (&in, split, error))
    return FALSE;
  split_rate (ctx, ctx->board, &in.runtime, split, &tps, &source, &speed, NULL);
  if (b != NULL)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      JsonObject *o = json_object_new ();

      hr_cli_offload_add_split_members (o, split, tps, source, speed, NULL);
      json_node_take_object (node, o);
      json_builder_set_member_name (b, "at");
      json_builder_add_value (b, g_steal_pointer (&node));
      return TRUE;
    }
  tps_text = hr_format_decimal (tps, 1);
  verdict = hr_cli_offload_split_verdict_text (split);
  if (ctx->board->unified)
    {
      /* One memory: the figure the verdict is judged on, the runtime
       * total and what stays in host memory (hr_offload_pool_bytes()), as
       * predict prints it at this context. */
      vram = hr_cli_offload_gb (split->pool_bytes);
      if (!(tps > 0.0))
        printf (_("  %u/%u layers on the GPU, %s GB of the unified pool, %s; %s; no rate (a memory bandwidth is not known)\n"),
                split->gpu_layers, split->total_layers, vram, split->processor, verdict);
      else
        printf (_("  %u/%u layers on the GPU, %s GB of the unified pool, %s; %s; %s t/s (%s, %s)\n"),
                split->gpu_layers, split->total_layers, vram, split->processor, verdict,
                tps_text, hr_rate_source_to_string (source), hr_speed_to_string (speed));
      return TRUE;
    }
  vram = hr_cli_offload_gb (split->vram.total);
  host = hr_cli_offload_gb (split->host.total);
  if (!(tps > 0.0))
    {
      /* --gpus gives memory only: no rate, rather than "0.0 t/s" */
      printf (_("  %u/%u layers on the GPU, %s GB VRAM + %s GB host, %s; %s; no rate (a memory bandwidth is not known)\n"),
              split->gpu_layers, split->total_layers, vram, host, split->processor, verdict);
      return TRUE;
    }
  printf (_("  %u/%u layers on the GPU, %s GB VRAM + %s GB host, %s; %s; %s t/s (%s, %s)\n"),
          split->gpu_layers, split->total_layers, vram, host, split->processor, verdict,
          tps_text, hr_rate_source_to_string (source), hr_speed_to_string (speed));
  return TRUE;
}

/* One finder's answer, printed or added to @b; a NOT_FOUND is an answer. */
static gboolean
report_context (HrCliContext          *ctx,
                const HrRuntimeInputs *runtime,
                gint32                 num_gpu,
                gboolean               partial,
                JsonBuilder           *b,
                GError               **error)
{
  HrOffloadInputs in;
  HrCalibration cal;
  HrRuntimeInputs at = *runtime;
  g_autoptr(GError) local = NULL;
  double gpu, host;
  guint32 context = 0;

  offload_inputs (&in, ctx, ctx->board, runtime, num_gpu, &cal);
  efficiencies (ctx, ctx->board, &gpu, &host);
  if (!hr_offload_max_context (&in, partial, gpu, host, &context, &local) &&
      !g_error_matches (local, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (b != NULL)
    {
      json_builder_set_member_name (b, partial ? "partial" : "gpu");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "context_tokens");
      if (local != NULL)
        json_builder_add_null_value (b);
      else
        json_builder_add_int_value (b, context);
    }
  else if (local != NULL)
    printf ("%s: %s\n", !partial ? _("largest context all on the GPU") :
                        ctx->board->unified ? _("largest context that still runs (fits or tight)") :
                        _("largest context with partial offload"),
            local->message);
  else
    {
      g_autofree char *count = hr_format_count (context);
      g_autofree char *floor_text = hr_format_decimal (hr_board_floor_tps (ctx->board), 1);

      /* One pool has no partial offload: the second answer is the largest
       * context that is not over. */
      if (partial && ctx->board->unified)
        printf (_("largest context that still runs (fits or tight), at or above the %s t/s floor: %s tokens\n"), floor_text, count);
      else if (partial)
        printf (_("largest context with partial offload, at or above the %s t/s floor: %s tokens\n"), floor_text, count);
      else
        printf (_("largest context all on the GPU (fits): %s tokens\n"), count);
    }
  if (local == NULL)
    {
      at.context_tokens = context;
      if (!print_at (ctx, &at, num_gpu, b, error))
        return FALSE;
    }
  if (b != NULL)
    json_builder_end_object (b);
  return TRUE;
}

static gboolean
report_precision (HrCliContext          *ctx,
                  const HrRuntimeInputs *runtime,
                  gint32                 num_gpu,
                  gboolean               partial,
                  JsonBuilder           *b,
                  GError               **error)
{
  HrOffloadInputs in;
  HrCalibration cal;
  HrRuntimeInputs at = *runtime;
  g_autoptr(GError) local = NULL;
  const HrPrecision *best;
  g_autofree char *count = hr_format_count (runtime->context_tokens);

  offload_inputs (&in, ctx, ctx->board, runtime, num_gpu, &cal);
  best = hr_offload_best_precision (&in, partial, &local);
  if (best == NULL && !g_error_matches (local, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (b != NULL)
    {
      json_builder_set_member_name (b, partial ? "partial" : "gpu");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "precision");
      if (best != NULL)
        json_builder_add_string_value (b, best->id);
      else
        json_builder_add_null_value (b);
    }
  else if (best == NULL)
    printf ("%s: %s\n", !partial ? _("best precision all on the GPU") :
                        ctx->board->unified ? _("best precision that still runs (fits or tight)") :
                        _("best precision with partial offload"),
            local->message);
  else if (partial && ctx->board->unified)
    printf (_("best precision that still runs (fits or tight) at %s tokens: %s (%g bits per weight)\n"), count, best->id, best->bits_per_weight);
  else if (partial)
    printf (_("best precision with partial offload at %s tokens: %s (%g bits per weight)\n"), count, best->id, best->bits_per_weight);
  else
    printf (_("best precision all on the GPU (fits) at %s tokens: %s (%g bits per weight)\n"), count, best->id, best->bits_per_weight);
  if (best != NULL)
    {
      at.precision = best;
      if (!print_at (ctx, &at, num_gpu, b, error))
        return FALSE;
    }
  if (b != NULL)
    json_builder_end_object (b);
  return TRUE;
}

/**
 * hr_cli_lower_precision_fits:
 * @ctx: a loaded context (its board)
 * @runtime: the model and the scenario (its precision is ignored; the era
 *   is forced to 0.30, as for the finders)
 *
 * Whether a lower precision would take the model off "over": the answer
 * `predict --best-precision` gives with partial offload
 * (hr_offload_best_precision() with allow_partial, so fits, tight or
 * partial, the verdicts `check` does not refuse on memory), when it has
 * fewer bits per weight than the precision the model is pulled at.
 *
 * Returns: (transfer none) (nullable): that precision; %NULL when none is
 *   accepted, it is not lower, or the model's own precision is not known.
 */
const HrPrecision *
hr_cli_lower_precision_fits (HrCliContext          *ctx,
                             const HrRuntimeInputs *runtime)
{
  HrOffloadInputs in;
  HrCalibration cal;
  const HrPrecision *own, *best;

  own = runtime->spec->precision != NULL ? hr_precision_lookup (runtime->spec->precision) : NULL;
  if (own == NULL)
    return NULL;
  offload_inputs (&in, ctx, ctx->board, runtime, -1, &cal);
  best = hr_offload_best_precision (&in, TRUE, NULL);
  return best != NULL && best->bits_per_weight < own->bits_per_weight ? best : NULL;
}

/**
 * hr_cli_predict_finders:
 * @ctx: a loaded context (its board and fit)
 * @runtime: predict's runtime inputs (the era is forced to 0.30)
 * @num_gpu: the user's num_gpu, -1 = automatic
 * @max_context: print the largest context (hr_offload_max_context())
 * @best_precision: print the best precision (hr_offload_best_precision())
 * @json: print one JSON document instead of text
 * @error: return location for a #GError
 *
 * The fit finders, each twice: every layer on the GPU with the verdict fits,
 * and with partial offload (fits, tight or partial; on a unified board, one
 * pool with no partial offload, this is "still runs": fits or tight), for
 * the context at or above the board's floor at the fitted (else prior) GPU efficiency and the
 * CPU's prior. After each answer the prediction at it: layers, VRAM, host
 * (on a unified board one figure, the bytes it takes of the one pool,
 * hr_offload_pool_bytes(), as predict at that context prints and judges
 * it), PROCESSOR, verdict and rate. "none fits" is an answer, not an error.
 * JSON: {"model", "board", "max_context": {"gpu": {"context_tokens", "at"},
 * "partial": ...}, "best_precision": {"gpu": {"precision", "at"}, ...}}
 * (the same keys on every board);
 * on a unified board "at" also has "pool_bytes" (predict's
 * "pool_footprint_bytes" at that context).
 *
 * Returns: %TRUE on success, or the core's errors other than NOT_FOUND.
 */
gboolean
hr_cli_predict_finders (HrCliContext          *ctx,
                        const HrRuntimeInputs *runtime,
                        gint32                 num_gpu,
                        gboolean               max_context,
                        gboolean               best_precision,
                        gboolean               json,
                        GError               **error)
{
  g_autoptr(JsonBuilder) b = json ? json_builder_new () : NULL;

  if (b != NULL)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "model");
      json_builder_add_string_value (b, runtime->spec->name);
      json_builder_set_member_name (b, "board");
      json_builder_add_string_value (b, ctx->board->id);
    }
  if (max_context)
    {
      if (b != NULL)
        {
          json_builder_set_member_name (b, "max_context");
          json_builder_begin_object (b);
        }
      if (!report_context (ctx, runtime, num_gpu, FALSE, b, error) ||
          !report_context (ctx, runtime, num_gpu, TRUE, b, error))
        return FALSE;
      if (b != NULL)
        json_builder_end_object (b);
    }
  if (best_precision)
    {
      if (b != NULL)
        {
          json_builder_set_member_name (b, "best_precision");
          json_builder_begin_object (b);
        }
      if (!report_precision (ctx, runtime, num_gpu, FALSE, b, error) ||
          !report_precision (ctx, runtime, num_gpu, TRUE, b, error))
        return FALSE;
      if (b != NULL)
        json_builder_end_object (b);
    }
  if (b != NULL)
    {
      g_autoptr(JsonNode) root = NULL;

      json_builder_end_object (b);
      root = json_builder_get_root (b);
      hr_cli_print_json (root);
    }
  return TRUE;
}
