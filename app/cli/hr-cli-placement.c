/* hr-cli-placement.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The placement inputs people set, for every sizing command (predict,
 * gguf, hub, library): --cpu-moe and --n-cpu-moe (llama-server's tensor
 * overrides), --tensor-split and --split-mode (llama-server's -ts, -sm),
 * read and checked, handed to the core's placement (hr-offload.h), and
 * explained in the text and JSON of the split (hr-cli-offload.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "hr-cli.h"
#include "hr-cli-predict.h"
#include "hr-units.h"

static guint32 placement_n_cpu_moe;
static HrSplitMode placement_split_mode = HR_SPLIT_MODE_LAYER;
static guint placement_n_ts;
static float placement_ts[HR_DEVICE_MAX];
static gboolean placement_given;

/**
 * hr_cli_offload_set_inputs:
 * @n_cpu_moe: --n-cpu-moe N, %HR_OFFLOAD_CPU_MOE_ALL for --cpu-moe, 0 none
 * @split_mode: --split-mode
 * @n_tensor_split: --tensor-split's shares given, 0 = none
 * @tensor_split: (array length=n_tensor_split): the shares
 *
 * The placement inputs people set (hr-offload.h), for every split this
 * command predicts.
 */
void
hr_cli_offload_set_inputs (guint32      n_cpu_moe,
                           HrSplitMode  split_mode,
                           guint        n_tensor_split,
                           const float *tensor_split)
{
  placement_n_cpu_moe = n_cpu_moe;
  placement_split_mode = split_mode;
  placement_n_ts = MIN (n_tensor_split, HR_DEVICE_MAX);
  placement_given = n_cpu_moe > 0 || n_tensor_split > 0 || split_mode != HR_SPLIT_MODE_LAYER;
  for (guint i = 0; i < placement_n_ts; i++)
    placement_ts[i] = tensor_split[i];
}

/**
 * hr_cli_placement_fit_free:
 * @board: the board
 * @in: the runtime inputs (era llama-server), their free_bytes ignored
 *
 * The memory llama-server's --fit fits an unset -c to, as the one free
 * figure the runtime's fit (hr-runtime-0-30.c fit_context()) takes with
 * one margin. On a board with one GPU (or -sm none) that GPU's free
 * memory; on several (every discrete one, else every one: src/llama.cpp
 * llama_model_load's devices) common/fit.cpp common_params_fit_impl step
 * 2 compares the sum of their free memory less a margin on each, and
 * with more than one device first takes off (nd + 1) x model_per_layer /
 * (2 for a dense model, 6 for a MoE) of expected waste: so the figure is
 * sum_free - (nd - 1) x margin - that waste. model_per_layer there is the
 * dry run's model bytes over the offloaded layers; here the weights term
 * over the blocks (Headroom's estimate of it).
 *
 * Returns: bytes, at least 1
 */
guint64
hr_cli_placement_fit_free (const HrBoard         *board,
                           const HrRuntimeInputs *in)
{
  guint64 margin = in->fit_target_bytes > 0 ? in->fit_target_bytes : HR_OFFLOAD_FIT_MARGIN_BYTES;
  guint64 sum = 0, waste = 0, reduce;
  guint nd = 0, discrete = 0, n, main;
  gint32 main_gpu = hr_cli_offload_get_main_gpu ();

  if (!hr_board_is_multi_device (board) || !hr_board_has_host (board))
    return MAX (hr_board_headroom_bytes (board), 1);
  n = MIN (board->devices->len, HR_DEVICE_MAX);
  for (guint i = 0; i < n; i++)
    if (((const HrDevice *) g_ptr_array_index (board->devices, i))->kind != HR_DEVICE_KIND_INTEGRATED)
      discrete++;
  main = main_gpu >= 0 ? (guint) main_gpu : 0;
  for (guint i = 0, seen = 0; i < n; i++)
    {
      const HrDevice *d = g_ptr_array_index (board->devices, i);

      if (discrete > 0 && d->kind == HR_DEVICE_KIND_INTEGRATED)
        continue;
      if (placement_split_mode == HR_SPLIT_MODE_NONE && seen++ != main)
        continue;
      sum += hr_device_headroom_bytes (d);
      nd++;
    }
  if (nd > 1 && in->spec != NULL && in->spec->layers > 0)
    {
      HrRuntimeInputs probe = *in;
      HrRuntimePrediction p;

      probe.free_bytes = 0;
      probe.skip_text = TRUE;
      if (hr_runtime_predict (&probe, &p, NULL))
        {
          guint64 weights = (guint64) MAX (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_WEIGHTS), 0);

          waste = (nd + 1) * (weights / in->spec->layers) / (in->spec->expert_count > 0 ? 6 : 2);
        }
    }
  reduce = (nd > 0 ? nd - 1 : 0) * margin + waste;
  return sum > reduce ? sum - reduce : 1;
}

/**
 * hr_cli_placement_apply:
 * @out: offload inputs, their llama_server set
 *
 * Fills the placement inputs hr_cli_offload_set_inputs() was given into
 * @out: --n-cpu-moe for either runtime, -ts and -sm for llama-server's.
 */
void
hr_cli_placement_apply (HrOffloadInputs *out)
{
  out->n_cpu_moe = placement_n_cpu_moe;
  out->split_mode = out->llama_server ? placement_split_mode : HR_SPLIT_MODE_LAYER;
  out->n_tensor_split = out->llama_server ? placement_n_ts : 0;
  for (guint i = 0; i < out->n_tensor_split; i++)
    out->tensor_split[i] = placement_ts[i];
}

/* --tensor-split A,B,...: shares split at "," or "/" as llama.cpp's -ts
 * (common/arg.cpp), each a decimal number. */
static gboolean
parse_tensor_split (HrCliPredictOptions *o)
{
  g_auto(GStrv) parts = g_regex_split_simple ("[,/]+", o->tensor_split_text, 0, 0);
  guint n = g_strv_length (parts);

  if (n > HR_DEVICE_MAX)
    {
      hr_cli_usage_error (_("--tensor-split gives %u shares: Headroom places a model on at most %u GPUs"), n, HR_DEVICE_MAX);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      char *end = NULL;
      double v = g_ascii_strtod (parts[i], &end);

      if (parts[i][0] == '\0' || end == NULL || *end != '\0' || !isfinite (v))
        {
          hr_cli_usage_error (_("--tensor-split takes numbers such as 3,1, not \"%s\""), o->tensor_split_text);
          return FALSE;
        }
      if (v < 0.0)
        {
          hr_cli_usage_error (_("--tensor-split share %u is negative or not a number: each GPU's share is 0 or more"), i + 1);
          return FALSE;
        }
      o->tensor_split[i] = (float) v;
    }
  o->n_tensor_split = n;
  for (guint i = 0; i < n; i++)
    if (o->tensor_split[i] > 0.0f)
      return TRUE;
  hr_cli_usage_error ("%s", _("--tensor-split is all zero: give at least one GPU a share above 0"));
  return FALSE;
}

/**
 * hr_cli_predict_resolve_placement:
 * @o: the parsed options
 * @era: the runtime (auto resolved)
 *
 * Checks the placement inputs (--cpu-moe, --n-cpu-moe, --tensor-split,
 * --split-mode) against @era and fills @o's n_cpu_moe, tensor_split and
 * split_mode: Ollama 0.30+ passes its own environment to llama-server
 * (llm/llama_server.go SetupLlamaServerCommandEnv: cmd.Env =
 * os.Environ()), so LLAMA_ARG_CPU_MOE and LLAMA_ARG_N_CPU_MOE reach it;
 * the split it sets itself (appendMainGPUArgs), so -ts and -sm are
 * llama-server's alone; Ollama 0.12 and the seed have no tensor overrides.
 *
 * Returns: %TRUE; %FALSE after printing one usage line.
 */
gboolean
hr_cli_predict_resolve_placement (HrCliPredictOptions *o,
                                  HrRuntimeEra         era)
{
  o->n_cpu_moe = 0;
  o->n_tensor_split = 0;
  o->split_mode = HR_SPLIT_MODE_LAYER;
  if (o->cpu_moe && o->n_cpu_moe_text != NULL)
    {
      hr_cli_usage_error ("%s", _("--cpu-moe and --n-cpu-moe both say which experts stay in host memory: give one of them"));
      return FALSE;
    }
  if (o->n_cpu_moe_text != NULL && !hr_cli_parse_u32 ("--n-cpu-moe", o->n_cpu_moe_text, 0, HR_MODEL_SPEC_MAX_LAYERS, &o->n_cpu_moe))
    return FALSE;
  if (o->cpu_moe)
    o->n_cpu_moe = HR_OFFLOAD_CPU_MOE_ALL;
  if ((o->cpu_moe || o->n_cpu_moe_text != NULL) && era != HR_RUNTIME_ERA_OLLAMA_0_30 && era != HR_RUNTIME_ERA_LLAMA_SERVER)
    {
      hr_cli_usage_error (_("%s keeps experts in host memory through llama-server's tensor overrides, which the %s runtime has none of: "
                            "use --runtime llama-server (or ollama-0.30, which passes LLAMA_ARG_CPU_MOE / LLAMA_ARG_N_CPU_MOE on to it)"),
                          o->cpu_moe ? "--cpu-moe" : "--n-cpu-moe", hr_runtime_era_to_string (era));
      return FALSE;
    }
  if ((o->tensor_split_text != NULL || o->split_mode_text != NULL) && era != HR_RUNTIME_ERA_LLAMA_SERVER)
    {
      hr_cli_usage_error ("%s", _("--tensor-split and --split-mode are llama-server's options: Ollama sets the split itself; use --runtime llama-server"));
      return FALSE;
    }
  if (o->split_mode_text != NULL)
    {
      if (g_ascii_strcasecmp (o->split_mode_text, "layer") == 0)
        o->split_mode = HR_SPLIT_MODE_LAYER;
      else if (g_ascii_strcasecmp (o->split_mode_text, "row") == 0)
        o->split_mode = HR_SPLIT_MODE_ROW;
      else if (g_ascii_strcasecmp (o->split_mode_text, "none") == 0)
        o->split_mode = HR_SPLIT_MODE_NONE;
      else
        {
          hr_cli_usage_error (_("--split-mode must be layer, row or none, not \"%s\""), o->split_mode_text);
          return FALSE;
        }
    }
  if (o->tensor_split_text != NULL && !parse_tensor_split (o))
    return FALSE;
  return TRUE;
}

/**
 * hr_cli_predict_placement_given:
 * @o: resolved options
 *
 * Returns: whether any placement input (--cpu-moe, --n-cpu-moe,
 *   --tensor-split, --split-mode) was given.
 */
gboolean
hr_cli_predict_placement_given (const HrCliPredictOptions *o)
{
  return o->n_cpu_moe > 0 || o->n_tensor_split > 0 || o->split_mode_text != NULL;
}

/**
 * hr_cli_sizing_split:
 * @ctx: a loaded context
 * @o: resolved options
 * @in: the runtime inputs of the prediction (hr_cli_predict_spec())
 * @p: the prediction
 * @json: (nullable): add the placement's members here instead of printing
 * @error: return location for a #GError
 *
 * `gguf` and `hub` under their memory: the placement (hr_cli_predict_split())
 * when a placement input is given and the board places one
 * (hr_cli_predict_shows_split()); nothing otherwise.
 *
 * Returns: %TRUE, or hr_cli_predict_split()'s errors.
 */
gboolean
hr_cli_sizing_split (HrCliContext              *ctx,
                     const HrCliPredictOptions *o,
                     const HrRuntimeInputs     *in,
                     const HrRuntimePrediction *p,
                     JsonObject                *json,
                     GError                   **error)
{
  if (!hr_cli_predict_placement_given (o) || !hr_cli_predict_shows_split (o, ctx->board, p->era))
    return TRUE;
  return hr_cli_predict_split (ctx, in, -1, json, error);
}

/**
 * hr_cli_predict_shows_split:
 * @o: resolved options
 * @board: the board
 * @era: the prediction's era
 *
 * Whether a sizing command prints the GPU/host placement
 * (hr_cli_predict_split()) on @board: it needs host memory; `predict`
 * and `library` print it under Ollama 0.30+ always, and under
 * llama-server on a board with several GPUs or with a placement input;
 * `gguf` and `hub` (@o's placement inputs only) when one is given.
 *
 * Returns: %TRUE to print the placement.
 */
gboolean
hr_cli_predict_shows_split (const HrCliPredictOptions *o,
                            const HrBoard             *board,
                            HrRuntimeEra               era)
{
  if (!hr_board_has_host (board))
    return FALSE;
  if (era == HR_RUNTIME_ERA_OLLAMA_0_30)
    return TRUE;
  return era == HR_RUNTIME_ERA_LLAMA_SERVER && (hr_board_is_multi_device (board) || hr_cli_predict_placement_given (o));
}

/**
 * hr_cli_placement_add_json:
 * @o: a split's JSON object
 * @split: the split
 * @llama_server: it is llama-server's placement (not Ollama's)
 *
 * Adds "placement" when an input is given: the inputs people set, echoed,
 * and what they did: "n_cpu_moe" (null without one; "all" for --cpu-moe),
 * "cpu_moe_layers", "cpu_moe_bytes", "tensor_split" (the shares, or
 * null), "split_mode" (llama-server's -sm, null under Ollama),
 * "fit_skipped".
 */
void
hr_cli_placement_add_json (JsonObject      *o,
                           const HrOffload *split,
                           gboolean         llama_server)
{
  JsonObject *p;

  if (!placement_given)
    return;
  p = json_object_new ();
  if (placement_n_cpu_moe == HR_OFFLOAD_CPU_MOE_ALL)
    json_object_set_string_member (p, "n_cpu_moe", "all");
  else if (placement_n_cpu_moe > 0)
    json_object_set_int_member (p, "n_cpu_moe", placement_n_cpu_moe);
  else
    json_object_set_null_member (p, "n_cpu_moe");
  json_object_set_int_member (p, "cpu_moe_layers", split->cpu_moe_layers);
  json_object_set_int_member (p, "cpu_moe_bytes", (gint64) MIN (split->cpu_moe_bytes, (guint64) G_MAXINT64));
  if (llama_server && placement_n_ts > 0)
    {
      JsonArray *a = json_array_new ();

      for (guint i = 0; i < placement_n_ts; i++)
        json_array_add_double_element (a, placement_ts[i]);
      json_object_set_array_member (p, "tensor_split", a);
    }
  else
    json_object_set_null_member (p, "tensor_split");
  if (llama_server)
    json_object_set_string_member (p, "split_mode", placement_split_mode == HR_SPLIT_MODE_NONE ? "none" : "layer");
  else
    json_object_set_null_member (p, "split_mode");
  json_object_set_boolean_member (p, "fit_skipped", split->fit_skipped);
  json_object_set_object_member (o, "placement", p);
}

/**
 * hr_cli_placement_print:
 * @split: the split
 * @llama_server: it is llama-server's placement (not Ollama's)
 *
 * The explanation of the user's placement inputs under the split's head:
 * which layers' experts stay in host memory and by which option, the -ts
 * shares, and that fit did not place the layers.
 */
void
hr_cli_placement_print (const HrOffload *split,
                        gboolean         llama_server)
{
  if (split->cpu_moe_layers > 0)
    {
      g_autofree char *bytes = hr_format_count (split->cpu_moe_bytes);
      g_autofree char *flag = placement_n_cpu_moe == HR_OFFLOAD_CPU_MOE_ALL ? g_strdup ("--cpu-moe") :
                              g_strdup_printf ("--n-cpu-moe %u", placement_n_cpu_moe);

      /* Translators: the last block's index, the option as given, bytes */
      printf (_("  experts of layers 0-%u kept in host memory by %s: %s bytes (ffn_*_exps); the rest of each layer stays on its GPU\n"),
              split->cpu_moe_layers - 1, flag, bytes);
      if (!llama_server)
        printf ("%s\n", _("  (Ollama passes LLAMA_ARG_CPU_MOE / LLAMA_ARG_N_CPU_MOE from its environment on to llama-server)"));
    }
  if (split->user_split)
    {
      g_autoptr(GString) shares = g_string_new (NULL);

      for (guint i = 0; i < placement_n_ts; i++)
        {
          g_autofree char *v = hr_format_decimal (placement_ts[i], placement_ts[i] == floorf (placement_ts[i]) ? 0 : 2);

          g_string_append_printf (shares, "%s%s", i > 0 ? "," : "", v);
        }
      /* Translators: the shares as given, "3,1" */
      printf (_("  --tensor-split %s: the layers split in those shares (src/llama-model.cpp load_tensors), not by free memory\n"), shares->str);
    }
  if (split->fit_skipped)
    printf ("%s\n", split->user_split ?
            _("  fit does not place the layers (-ts set by the user): every layer on the GPUs, whether it fits or not") :
            _("  fit does not place the layers (a tensor override set by the user): every layer on the GPUs, whether it fits or not"));
}

