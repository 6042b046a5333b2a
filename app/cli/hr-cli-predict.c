/* hr-cli-predict.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli predict`: what an Ollama server will load for a model, every
 * term with its formula and source (app/core/runtime/hr-runtime.c), plus the board's
 * learned overhead (app/core/speed/hr-calibration.c); on a board that splits, the
 * GPU/host split (hr-cli-offload.c). Also the one prediction, memory
 * table and JSON every sizing command prints (hr-cli-predict.h). The
 * options they share are resolved in hr-cli-predict-options.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hr-calibration.h"
#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-cli-predict.h"
#include "hr-mmproj.h"
#include "hr-error.h"
#include "hr-evaluate.h"
#include "hr-gguf-report.h"
#include "hr-measurement.h"
#include "hr-runtime.h"
#include "hr-units.h"

static char *
gb (double bytes,
    int    decimals)
{
  return hr_format_decimal (bytes / 1e9, decimals);
}

static char *
signed_count (gint64 value)
{
  g_autofree char *digits = hr_format_count ((guint64) (value < 0 ? -value : value));

  return value < 0 ? g_strconcat ("-", digits, NULL) : g_steal_pointer (&digits);
}

static char *
verdict_text (HrVerdict verdict,
              guint64   margin)
{
  g_autofree char *m = gb ((double) margin, 2);

  switch (verdict)
    {
    case HR_VERDICT_FITS:  return g_strdup_printf (_("fits, %s GB under budget"), m);
    case HR_VERDICT_TIGHT: return g_strdup_printf (_("tight, %s GB left above the OS"), m);
    case HR_VERDICT_OVER:
    default:               return g_strdup_printf (_("over by %s GB"), m);
    }
}

/**
 * hr_cli_pool_footprint:
 * @board: the board
 * @p: the runtime prediction
 *
 * Returns: what the model takes from the board's pool: the ollama ps size,
 *   and on a unified board also what stays in host memory (the same memory).
 */
guint64
hr_cli_pool_footprint (const HrBoard             *board,
                const HrRuntimePrediction *p)
{
  return hr_offload_pool_bytes (board, p);
}

/**
 * hr_cli_predict_spec:
 * @ctx: a loaded context (board, catalog, measurements)
 * @o: resolved options
 * @spec: the model
 * @out_inputs: (out caller-allocates): the runtime inputs used
 * @out: (out caller-allocates): the prediction
 * @error: return location for a #GError
 *
 * The one prediction every sizing command prints (predict, gguf, hub,
 * library): hr_runtime_predict() on the options' scenario, without
 * --parallel the old scheduler's automatic slots against the board's free
 * memory, then the board's learned overhead (hr_calibration_apply()) for a
 * server era; the seed's method (--runtime seed) adds none.
 *
 * Returns: %TRUE; %FALSE with hr_runtime_predict()'s error.
 */
gboolean
hr_cli_predict_spec (HrCliContext              *ctx,
                     const HrCliPredictOptions *o,
                     const HrModelSpec         *spec,
                     HrRuntimeInputs           *out_inputs,
                     HrRuntimePrediction       *out,
                     GError                   **error)
{
  HrCalibration cal;

  hr_cli_predict_inputs (out_inputs, o, spec);
  out_inputs->draft_spec = ctx->draft;
  out_inputs->mtp_layers = ctx->mtp_layers;
  /* Without --parallel the old scheduler tries its slots against the
   * board's free memory (hr_offload_auto_parallel_slots()'s rule; the
   * runtime notes the choice); the 0.30 era ignores it. llama-server's
   * --fit fits an unset -c to it. */
  if (out_inputs->era == HR_RUNTIME_ERA_LLAMA_SERVER)
    out_inputs->free_bytes = hr_cli_placement_fit_free (ctx->board, out_inputs);
  else if (out_inputs->parallel_slots == 0)
    out_inputs->free_bytes = MAX (hr_board_headroom_bytes (ctx->board), 1);
  if (!hr_runtime_predict (out_inputs, out, error))
    return FALSE;
  if (out->era == HR_RUNTIME_ERA_SEED)
    return TRUE;
  hr_cli_board_calibration (ctx, ctx->board, o->version, out_inputs, &cal);
  hr_calibration_apply (&cal, out);
  return TRUE;
}

/**
 * hr_cli_prediction_json:
 * @ctx: a loaded context
 * @spec: the model
 * @p: its prediction (hr_cli_predict_spec())
 *
 * The prediction in the one shape every sizing command prints
 * (hr_runtime_prediction_to_json(): `method`, `terms` of id, bytes,
 * formula and source, `total_bytes`, `ollama_ps_size`, ...) plus the
 * model, the board, what the model takes from the board's pool, the
 * verdict, margin and budget.
 *
 * Returns: (transfer full): a JSON object node.
 */
JsonNode *
hr_cli_prediction_json (HrCliContext              *ctx,
                        const HrModelSpec         *spec,
                        const HrRuntimePrediction *p)
{
  JsonNode *root = hr_runtime_prediction_to_json (p);
  JsonObject *object = json_node_get_object (root);
  guint64 margin, footprint = hr_cli_pool_footprint (ctx->board, p);
  HrVerdict v = hr_board_verdict (ctx->board, footprint, &margin);

  json_object_set_string_member (object, "model", spec->name);
  json_object_set_string_member (object, "board", ctx->board->id);
  json_object_set_int_member (object, "pool_footprint_bytes", (gint64) MIN (footprint, (guint64) G_MAXINT64));
  json_object_set_string_member (object, "verdict", hr_verdict_to_string (v));
  json_object_set_int_member (object, "margin_bytes", (gint64) MIN (margin, (guint64) G_MAXINT64));
  json_object_set_int_member (object, "budget_bytes", (gint64) hr_board_budget_bytes (ctx->board));
  if (ctx->draft != NULL || ctx->mtp_layers > 0)
    json_object_set_member (object, "draft", hr_cli_draft_json (ctx, spec, p));
  return root;
}

static void
memory_row (const char *label,
            const char *value)
{
  printf ("  %-18s %s\n", label, value);
}

/**
 * hr_cli_print_memory:
 * @ctx: a loaded context
 * @p: the prediction (hr_cli_predict_spec())
 *
 * The short form of the prediction that `gguf` and `hub` print under
 * their facts: the scenario, the method that made the figures, one row per
 * term, the total, what `ollama ps` would show, the verdict on the board,
 * the KV cache type the server falls back to and the notes. `predict`
 * prints every formula and source instead.
 */
void
hr_cli_print_memory (HrCliContext              *ctx,
                     const HrRuntimePrediction *p)
{
  g_autofree char *ctx_count = hr_format_count (p->context_tokens);
  g_autofree char *total = hr_format_gb_gib (p->total_bytes, 2);
  g_autofree char *ps = hr_runtime_format_ps_size (p->total_bytes);
  g_autofree char *verdict = NULL;
  guint64 margin, footprint = hr_cli_pool_footprint (ctx->board, p);
  HrVerdict v = hr_board_verdict (ctx->board, footprint, &margin);

  if (p->era == HR_RUNTIME_ERA_SEED)
    printf (g_dngettext (GETTEXT_PACKAGE,
                         "memory on %s at %s tokens (%s KV cache, %u slot):\n",
                         "memory on %s at %s tokens (%s KV cache, %u slots):\n", p->parallel_slots),
            ctx->board->name, ctx_count, hr_kv_cache_type_to_string (p->kv_type), p->parallel_slots);
  else
    printf (g_dngettext (GETTEXT_PACKAGE,
                         "memory on %s at %s tokens (%s KV cache, %u slot, flash attention %s):\n",
                         "memory on %s at %s tokens (%s KV cache, %u slots, flash attention %s):\n",
                         p->parallel_slots),
            ctx->board->name, ctx_count, hr_kv_cache_type_to_string (p->kv_type), p->parallel_slots,
            p->flash_attention ? _("on") : _("off"));
  memory_row (_("method"), p->era_label);
  for (guint i = 0; i < p->n_terms; i++)
    {
      const HrRuntimeTerm *t = &p->terms[i];
      g_autofree char *bytes = hr_format_gb_gib (t->bytes < 0 ? (guint64) -t->bytes : (guint64) t->bytes, 2);
      g_autofree char *value = g_strconcat (t->bytes < 0 ? "-" : "", bytes, NULL);

      memory_row (t->label, value);
    }
  memory_row (_("total"), total);
  hr_cli_print_draft (ctx, p);
  if (p->era == HR_RUNTIME_ERA_OLLAMA_0_30 && hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_PROJECTOR) > 0)
    {
      guint64 projector = (guint64) hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_PROJECTOR);
      g_autofree char *without = hr_runtime_format_ps_size (p->total_bytes > projector ? p->total_bytes - projector : 0);
      /* TRANSLATORS: the ollama ps size without the projector, then with it */
      g_autofree char *text = g_strdup_printf (_("%s (the total less the projector's weights, which clip.cpp loads without a buffer line Ollama counts; %s with them)"),
                                               without, ps);

      memory_row (_("ollama ps"), text);
    }
  else
    memory_row (_("ollama ps"), ps);
  if (p->host_bytes > 0)
    {
      g_autofree char *host = hr_format_gb_gib (p->host_bytes, 2);
      g_autofree char *text = g_strdup_printf (_("%s also in host memory (token_embd), not in the ollama ps size"), host);

      memory_row (_("host memory"), text);
    }
  verdict = verdict_text (v, margin);
  memory_row (_("verdict"), verdict);
  if (p->kv_type_reason != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("%s, not the %s asked for: %s"),
                                               hr_kv_cache_type_to_string (p->kv_type),
                                               hr_kv_cache_type_to_string (p->kv_type_requested),
                                               p->kv_type_reason);

      memory_row (_("KV cache type"), text);
    }
  for (guint i = 0; i < p->n_notes; i++)
    memory_row (i == 0 ? _("notes") : "", p->notes[i]);
}

/**
 * hr_cli_print_projector:
 * @ctx: a loaded context (its board)
 * @spec: the model, with projector_bytes set
 * @num_gpu: Ollama's num_gpu (-1 automatic)
 *
 * Under hr_cli_print_memory(), for a model with a vision or audio
 * projector: what Ollama does with it on the board (hr-mmproj.h):
 * whether it passes --no-mmproj-offload and why
 * (shouldDisableMMProjOffload), and the fit margin it gives llama-server
 * (LLAMA_ARG_FIT_TARGET, mmprojFitTargetMiB). Prints nothing without a
 * projector.
 */
void
hr_cli_print_projector (HrCliContext      *ctx,
                        const HrModelSpec *spec,
                        gint32             num_gpu)
{
  HrMmprojOffload offload;
  g_autofree char *need = NULL;
  g_autofree char *free_text = NULL;
  g_autofree char *text = NULL;

  if (spec->projector_bytes == 0)
    return;
  offload = hr_mmproj_offload_on_board (ctx->board, num_gpu, spec);
  need = hr_format_gb_gib (spec->projector_bytes + HR_MMPROJ_OFFLOAD_HEADROOM_BYTES, 2);
  free_text = hr_format_gb_gib (hr_board_headroom_bytes (ctx->board), 2);
  switch (offload)
    {
    case HR_MMPROJ_OFFLOAD_ON:
      {
        g_autofree char *mib = hr_format_count (hr_mmproj_fit_target_mib (spec->projector_bytes));

        text = g_strdup_printf (_("on the GPU: the GPU's free %s holds projector + 1 GiB = %s; llama.cpp's fit keeps %s MiB free, not 1,024 (LLAMA_ARG_FIT_TARGET = ceil((projector + 1 GiB) / MiB))"),
                                free_text, need, mib);
        break;
      }
    case HR_MMPROJ_OFFLOAD_LIMITED_VRAM:
      text = g_strdup_printf (_("in host memory (--no-mmproj-offload, limited-vram): the GPU's free %s is less than projector + 1 GiB = %s; fit keeps its 1,024 MiB"),
                              free_text, need);
      break;
    case HR_MMPROJ_OFFLOAD_CPU_ONLY:
      text = g_strdup (_("in host memory (--no-mmproj-offload, cpu-only): num_gpu 0, or no GPU"));
      break;
    case HR_MMPROJ_OFFLOAD_PARTIAL_TEXT:
    default:
      text = g_strdup (_("in host memory (--no-mmproj-offload, partial-text-offload): num_gpu is below the model's layers"));
      break;
    }
  memory_row (_("projector offload"), text);
}

/**
 * hr_cli_projector_json:
 * @ctx: a loaded context (its board)
 * @spec: the model
 * @file: (nullable): the projector's file, or %NULL for one inside the model's
 *
 * The projector's figures for `--json`: bytes, source, the file, and
 * Ollama's offload decision and fit target on the board
 * (hr_cli_print_projector()'s rules).
 *
 * Returns: (transfer full): a JSON node: an object, or null without a projector.
 */
JsonNode *
hr_cli_projector_json (HrCliContext      *ctx,
                       const HrModelSpec *spec,
                       const char        *file)
{
  JsonNode *node;
  JsonObject *o;
  HrMmprojOffload offload;

  if (spec->projector_bytes == 0)
    return json_node_new (JSON_NODE_NULL);
  offload = hr_mmproj_offload_on_board (ctx->board, -1, spec);
  o = json_object_new ();
  json_object_set_int_member (o, "bytes", (gint64) MIN (spec->projector_bytes, (guint64) G_MAXINT64));
  if (file != NULL)
    json_object_set_string_member (o, "file", file);
  else
    json_object_set_null_member (o, "file");
  if (spec->projector_source != NULL)
    json_object_set_string_member (o, "source", spec->projector_source);
  else
    json_object_set_null_member (o, "source");
  json_object_set_boolean_member (o, "offload", offload == HR_MMPROJ_OFFLOAD_ON);
  if (offload == HR_MMPROJ_OFFLOAD_ON)
    {
      json_object_set_null_member (o, "no_offload_reason");
      json_object_set_int_member (o, "fit_target_mib", (gint64) hr_mmproj_fit_target_mib (spec->projector_bytes));
    }
  else
    {
      json_object_set_string_member (o, "no_offload_reason", hr_mmproj_offload_reason (offload));
      json_object_set_null_member (o, "fit_target_mib");
    }
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, o);
  return node;
}

static void
print_terms (const HrRuntimePrediction *p)
{
  for (guint i = 0; i < p->n_terms; i++)
    {
      const HrRuntimeTerm *t = &p->terms[i];
      g_autofree char *bytes = signed_count (t->bytes);
      g_autofree char *tgb = gb ((double) t->bytes, 2);

      printf ("\n%s: %s %s (%s GB)\n", t->label, bytes, _("bytes"), tgb);
      if (t->formula[0] != '\0')
        printf ("  %s\n", t->formula);
      if (t->note[0] != '\0')
        printf ("  %s %s\n", _("note:"), t->note);
      printf ("  %s %s\n", _("source:"), t->source);
    }
}

/* ---------------------------------------------------------------------- */
/* predict                                                                */

/**
 * hr_cli_cmd_predict:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli predict MODEL [--context N] [--runtime ollama-0.30|ollama-0.12|llama-server|auto]
 * [--server-version V] [--parallel N] [--kv-type T] [--flash-attention on|off|auto]
 * [--batch N] [--backend cuda|metal] [--precision P] [--num-gpu N]
 * [--max-context] [--best-precision] [--board NAME]
 * [--catalog FILE] [--measurements DIR] [--json]`: every term of what the
 * Ollama server will load (hr_runtime_predict()) with its formula, source
 * and note, the board's learned overhead (hr_calibration_apply()), the
 * total in GB and GiB and as `ollama ps` would show it, and the verdict on
 * the board. On a board that splits (hr_board_has_host()) and the 0.30
 * runtime, the one-pool verdict gives way to the GPU/host split with its
 * decode arithmetic (hr_cli_predict_split()); `--num-gpu N` places N layers
 * as Ollama's num_gpu does. `--max-context` and `--best-precision` print the
 * fit finders instead (hr_cli_predict_finders()). Without `--parallel` the
 * old era's automatic slots are tried against the board's free memory
 * (hr_offload_auto_parallel_slots()'s rule), so the size can fall as the
 * context grows.
 *
 * Returns: 0, 1 when data or FILE.gguf cannot be read or the prediction fails, 2 for
 *   bad arguments or an unknown model.
 */
int
hr_cli_cmd_predict (int    argc,
                    char **argv)
{
  return hr_cli_predict_run ("predict", argc, argv, NULL);
}

/* predict's text: the scenario line, every term, the total as `ollama ps`
 * would show it, and the verdict on the board (with the split where the
 * board has host memory). */
static int
print_prediction (HrCliContext              *ctx,
                  const HrModelSpec         *spec,
                  const HrRuntimeInputs     *in,
                  const HrRuntimePrediction *p,
                  guint64                    footprint,
                  gboolean                   split,
                  gint32                     num_gpu)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *total_count = NULL, *total_gb = NULL, *total_gib = NULL, *ps = NULL;
  g_autofree char *verdict = NULL, *budget = NULL;
  guint64 margin;
  HrVerdict v = hr_board_verdict (ctx->board, footprint, &margin);

  {
    g_autofree char *ctx_count = hr_format_count (p->context_tokens);

    printf (g_dngettext (GETTEXT_PACKAGE,
                         "%s at %s tokens: %u slot, %s KV cache, flash attention %s, ubatch %u\n",
                         "%s at %s tokens: %u slots, %s KV cache, flash attention %s, ubatch %u\n",
                         p->parallel_slots),
            spec->name, ctx_count, p->parallel_slots, hr_kv_cache_type_to_string (p->kv_type),
            p->flash_attention ? _("on") : _("off"), p->ubatch);
  }
  printf (_("runtime: %s\n"), p->era_label);

  print_terms (p);
  hr_cli_print_draft (ctx, p);

  total_count = hr_format_count (p->total_bytes);
  total_gb = gb ((double) p->total_bytes, 2);
  total_gib = hr_format_decimal (hr_bytes_to_gib (p->total_bytes), 2);
  ps = hr_runtime_format_ps_size (p->total_bytes);
  printf ("\n%s %s %s = %s GB = %s GiB\n", _("total:"), total_count, _("bytes"), total_gb, total_gib);
  printf ("%s %s\n", _("ollama ps would show:"), ps);
  if (p->host_bytes > 0)
    {
      g_autofree char *host = hr_format_count (p->host_bytes);
      g_autofree char *host_gb = gb ((double) p->host_bytes, 2);

      printf (_("also in host memory: %s bytes (%s GB), not in the ollama ps size\n"), host, host_gb);
    }

  verdict = verdict_text (v, margin);
  budget = gb ((double) hr_board_budget_bytes (ctx->board), 1);
  if (ctx->board->unified && p->host_bytes > 0)
    {
      g_autofree char *fp = gb ((double) footprint, 2);
      printf (_("on %s (budget %s GB, unified: host memory counts): %s GB, %s\n"), ctx->board->name, budget, fp, verdict);
    }
  else if (!split)
    printf (_("on %s (budget %s GB): %s\n"), ctx->board->name, budget, verdict);
  else if (!hr_cli_predict_split (ctx, in, num_gpu, NULL, &error))
    return hr_cli_fail (g_steal_pointer (&error));

  if (p->n_notes > 0)
    {
      printf ("%s\n", _("notes:"));
      for (guint i = 0; i < p->n_notes; i++)
        printf ("  - %s\n", p->notes[i]);
    }
  return HR_CLI_EXIT_OK;
}

/* MODEL names a file, not a catalog name: something is there, or it looks
 * like a path to a GGUF file (an absolute or ./ path, or a .gguf name). */
static gboolean
names_a_file (const char *model)
{
  g_autofree char *lower = g_ascii_strdown (model, -1);

  return g_file_test (model, G_FILE_TEST_EXISTS) || g_path_is_absolute (model) ||
         g_str_has_prefix (model, "./") || g_str_has_prefix (model, "../") ||
         g_str_has_suffix (lower, ".gguf");
}

/* --num-gpu into @num_gpu (-1 when not given) and --main-gpu and
 * --sched-spread into the placement; FALSE (the usage error said) on a
 * value out of range. */
static gboolean
parse_placement (const HrCliPredictOptions *o,
                 const char                *main_gpu_text,
                 gboolean                   sched_spread,
                 gint32                    *num_gpu)
{
  guint32 layers = 0;
  guint32 index;

  *num_gpu = -1;
  if (o->num_gpu_text != NULL)
    {
      if (!hr_cli_parse_u32 ("--num-gpu", o->num_gpu_text, 0, HR_MODEL_SPEC_MAX_LAYERS + 1, &layers))
        return FALSE;
      *num_gpu = (gint32) layers;
    }
  if (main_gpu_text == NULL)
    {
      hr_cli_offload_set_placement (sched_spread, -1);
      return TRUE;
    }
  if (!hr_cli_parse_u32 ("--main-gpu", main_gpu_text, 0, HR_DEVICE_MAX - 1, &index))
    return FALSE;
  hr_cli_offload_set_placement (sched_spread, (gint32) index);
  return TRUE;
}

/* The exit code of checking --main-gpu against the board's GPUs. */
static int
check_main_gpu (const HrCliContext *ctx)
{
  guint n;
  g_autofree char *message = NULL;

  if (hr_cli_offload_get_main_gpu () < 0)
    return HR_CLI_EXIT_OK;
  n = ctx->board->devices != NULL && ctx->board->devices->len > 0 ? ctx->board->devices->len : 1;
  if ((guint) hr_cli_offload_get_main_gpu () < n)
    return HR_CLI_EXIT_OK;
  message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "--main-gpu %1$d is out of range: %2$s has %3$u GPU (index 0)",
                                          "--main-gpu %1$d is out of range: %2$s has %3$u GPUs (0 to %4$u)", n),
                             hr_cli_offload_get_main_gpu (), ctx->board->id, n, n - 1);
  return hr_cli_usage_error ("%s", message);
}

/* MODEL as a GGUF file: its header, as `headroom-cli gguf FILE` reads it,
 * into @resolved, with the draft it names loaded; the exit code. */
static int
resolve_gguf_file (HrCliContext         *ctx,
                   const HrCliPredictOptions *o,
                   const char           *file,
                   HrModelSpec         **resolved)
{
  g_autofree char *display = g_filename_display_name (file);
  g_autofree char *origin = g_strconcat ("gguf:", file, NULL);
  g_autoptr(HrGgufReport) report = NULL;
  g_autoptr(GError) error = NULL;
  int status = HR_CLI_EXIT_OK;

  if (!hr_cli_check_readable (file, &error))
    return hr_cli_fail (g_steal_pointer (&error));
  report = hr_gguf_report_build (file, display, NULL, origin, ctx->board, o->context, NULL, &error);
  if (report == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  *resolved = hr_model_spec_copy (report->spec);
  if (!hr_cli_load_mtp (ctx, o, report->file, &status))
    return status;
  return HR_CLI_EXIT_OK;
}

/* MODEL from @source, a GGUF file or the catalog (then @resolved stays
 * %NULL), with the draft or MTP layers loaded; the exit code. */
static int
resolve_model (HrCliContext              *ctx,
               const HrCliPredictOptions *o,
               const char                *model,
               const HrCliPredictSource  *source,
               HrModelSpec              **resolved)
{
  int status = HR_CLI_EXIT_OK;

  if (source != NULL)
    {
      *resolved = source->resolve (model, source->data, &status);
      if (*resolved == NULL)
        return status;
    }
  else if (hr_catalog_find (ctx->catalog, model) == NULL && names_a_file (model))
    return resolve_gguf_file (ctx, o, model, resolved);
  if (!hr_cli_load_mtp (ctx, o, NULL, &status))
    return status;
  return HR_CLI_EXIT_OK;
}

/* --max-context and --best-precision: what the finders print; the exit
 * code. */
static int
run_finders (HrCliContext              *ctx,
             const HrCliPredictOptions *o,
             const HrModelSpec         *spec,
             gint32                     num_gpu)
{
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;

  if (ctx->draft != NULL || ctx->mtp_layers > 0)
    return hr_cli_usage_error ("%s", _("--max-context and --best-precision do not count a --draft model yet: give --context instead"));
  hr_cli_predict_inputs (&in, o, spec);
  if (in.parallel_slots == 0)
    in.free_bytes = MAX (hr_board_headroom_bytes (ctx->board), 1);
  if (!hr_cli_predict_finders (ctx, &in, num_gpu, o->max_context, o->best_precision, o->json, &error))
    return hr_cli_fail (g_steal_pointer (&error));
  return HR_CLI_EXIT_OK;
}

/* --json: predict's object (with the split when shown), wrapped by
 * @source when given; the exit code. */
static int
print_prediction_json (HrCliContext              *ctx,
                       const HrModelSpec         *spec,
                       const HrRuntimeInputs     *in,
                       const HrRuntimePrediction *p,
                       gboolean                   split,
                       gint32                     num_gpu,
                       const HrCliPredictSource  *source)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = hr_cli_prediction_json (ctx, spec, p);
  JsonObject *object = json_node_get_object (root);

  if (split && !hr_cli_predict_split (ctx, in, num_gpu, object, &error))
    return hr_cli_fail (g_steal_pointer (&error));
  if (source != NULL)
    {
      g_autoptr(JsonNode) wrapped = source->wrap_json (g_steal_pointer (&root), source->data);

      hr_cli_print_json (wrapped);
      return HR_CLI_EXIT_OK;
    }
  hr_cli_print_json (root);
  return HR_CLI_EXIT_OK;
}

/**
 * hr_cli_predict_run:
 * @command: the subcommand, for its --help
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 * @source: (nullable): where MODEL comes from, and what is printed with
 *   the prediction; %NULL = the catalog (`headroom-cli predict`)
 *
 * Parses predict's options, resolves MODEL and prints its prediction, as
 * text or (with --json) as predict's JSON object, which @source may wrap.
 *
 * Returns: 0, 1 or 2 as hr_cli_cmd_predict().
 */
int
hr_cli_predict_run (const char                *command,
                    int                        argc,
                    char                     **argv,
                    const HrCliPredictSource  *source)
{
  g_autoptr(HrModelSpec) resolved = NULL;
  g_auto(HrCliPredictOptions) o = { 0 };
  g_autofree char *main_gpu_text = NULL;
  gboolean sched_spread = FALSE;
  GOptionEntry entries[] = {
    HR_CLI_SIZING_OPTIONS, OPT_PRECISION,
    { "num-gpu", 0, 0, G_OPTION_ARG_STRING, &o.num_gpu_text, N_("Layers on the GPU, as Ollama's num_gpu (-ngl): 0 = all on the CPU (default: llama.cpp's fit decides)"), N_("N") },
    { "main-gpu", 0, 0, G_OPTION_ARG_STRING, &main_gpu_text, N_("Ollama's main_gpu on a board with several GPUs: that GPU alone (its index within its library's GPUs); with --runtime llama-server --split-mode none, its -mg (an index among the board's GPUs)"), N_("N") },
    { "sched-spread", 0, 0, G_OPTION_ARG_NONE, &sched_spread, N_("As OLLAMA_SCHED_SPREAD on a board with several GPUs: every GPU of the group, even when the model would fit one"), NULL },
    { "max-context", 0, 0, G_OPTION_ARG_NONE, &o.max_context, N_("Print the largest context that fits all on the GPU and with partial offload (unified boards: that still runs) above the board's floor"), NULL },
    { "best-precision", 0, 0, G_OPTION_ARG_NONE, &o.best_precision, N_("Print the precision with the most bits that fits at the context, all on the GPU and with partial offload (unified boards: that still runs)"), NULL },
    OPT_JSON,
    { NULL }
  };
  g_auto(HrCliContext) ctx = { 0 };
  g_autoptr(GError) error = NULL;
  const HrModelSpec *spec;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  gint32 num_gpu;
  gboolean split;
  int status = HR_CLI_EXIT_OK;

  if (!hr_cli_parse_options (command, _("MODEL"), entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (argc < 2 && source != NULL)
    return hr_cli_usage_error ("%s", source->usage);
  if (argc < 2)
    return hr_cli_usage_error ("%s", _("give the model to predict, e.g. \"headroom-cli predict llama3.2:3b --context 4096\""));
  if (argc > 2)
    return hr_cli_usage_error (_("unexpected argument \"%s\""), argv[2]);
  if (!hr_cli_predict_options_resolve (&o, NULL) || !parse_placement (&o, main_gpu_text, sched_spread, &num_gpu))
    return HR_CLI_EXIT_USAGE;
  if (!hr_cli_predict_load_context (&ctx, &o, &status))
    return status;
  if ((status = check_main_gpu (&ctx)) != HR_CLI_EXIT_OK ||
      (status = resolve_model (&ctx, &o, argv[1], source, &resolved)) != HR_CLI_EXIT_OK)
    return status;
  spec = resolved != NULL ? resolved : hr_catalog_find (ctx.catalog, argv[1]);
  if (spec == NULL)
    return hr_cli_unknown_model (ctx.catalog, argv[1]);

  if (num_gpu >= 0 && !hr_board_has_host (ctx.board))
    return hr_cli_usage_error (_("--num-gpu places layers on a discrete GPU with host memory; %s keeps every layer in its one pool"),
                               ctx.board->id);
  if (o.max_context || o.best_precision)
    return run_finders (&ctx, &o, spec, num_gpu);
  if (!hr_cli_predict_spec (&ctx, &o, spec, &in, &p, &error))
    return hr_cli_fail (g_steal_pointer (&error));

  split = hr_cli_predict_shows_split (&o, ctx.board, p.era);
  if (o.json)
    return print_prediction_json (&ctx, spec, &in, &p, split, num_gpu, source);
  if (source != NULL)
    source->print_text (source->data);
  return print_prediction (&ctx, spec, &in, &p, hr_cli_pool_footprint (ctx.board, &p), split, num_gpu);
}
