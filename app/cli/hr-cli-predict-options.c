/* hr-cli-predict-options.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The options predict and the other sizing commands share
 * (HrCliPredictOptions, hr-cli-predict.h): checked and resolved (runtime,
 * server version, KV type, context, slots, placement), turned into
 * HrRuntimeInputs for one model, and the context they need loaded (board,
 * catalog, measurements, a draft model); plus the board's learned
 * overhead at a server version. What is predicted and printed from them
 * is in hr-cli-predict.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "hr-calibration.h"
#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-cli-predict.h"
#include "hr-error.h"
#include "hr-measurement.h"
#include "hr-runtime.h"
#include "hr-units.h"

/**
 * hr_cli_predict_options_clear:
 * @o: the options
 *
 * Frees the option strings g_option_context_parse() filled in.
 */
void
hr_cli_predict_options_clear (HrCliPredictOptions *o)
{
  g_free (o->board);
  g_free (o->gpus_text);
  g_free (o->boards);
  g_free (o->catalog);
  g_free (o->measurements);
  g_free (o->context_text);
  g_free (o->parallel_text);
  g_free (o->kv_type_text);
  g_free (o->flash_text);
  g_free (o->runtime_text);
  g_free (o->version);
  g_free (o->batch_text);
  g_free (o->backend_text);
  g_free (o->precision_text);
  g_free (o->models_text);
  g_free (o->num_gpu_text);
  g_free (o->n_cpu_moe_text);
  g_free (o->tensor_split_text);
  g_free (o->split_mode_text);
  g_free (o->draft_text);
}

/**
 * hr_cli_predict_options_resolve:
 * @o: the parsed options
 * @default_runtime: (nullable): the --runtime when none is given; non-%NULL
 *   (matrix) makes "seed" the plain evaluation (hr_evaluate(): weights + KV
 *   cache, no learned overhead; no_runtime set) and reads "none", its older
 *   word there, as "seed"
 *
 * Checks every shared option and fills in the parsed values.
 *
 * Returns: %TRUE; %FALSE after printing one usage line for the first bad one.
 */
gboolean
hr_cli_predict_options_resolve (HrCliPredictOptions *o,
                                const char          *default_runtime)
{
  const char *runtime = o->runtime_text ? o->runtime_text : default_runtime;

  o->context = 4096;
  o->parallel = 0;
  o->batch = 512;
  o->kv_type = HR_KV_CACHE_F16;
  o->flash = HR_FLASH_ATTENTION_AUTO;
  o->era = HR_RUNTIME_ERA_AUTO;
  o->backend = HR_RUNTIME_BACKEND_CUDA;

  if (o->context_text != NULL && !hr_cli_parse_u32 ("--context", o->context_text, 1, 64u * 1024u * 1024u, &o->context))
    return FALSE;
  if (o->parallel_text != NULL && !hr_cli_parse_u32 ("--parallel", o->parallel_text, 1, 64, &o->parallel))
    return FALSE;
  if (o->batch_text != NULL && !hr_cli_parse_u32 ("--batch", o->batch_text, 1, 65536, &o->batch))
    return FALSE;
  if (o->kv_type_text != NULL && !hr_kv_cache_type_from_string (o->kv_type_text, &o->kv_type))
    {
      hr_cli_usage_error (_("--kv-type must be f16, q8_0 or q4_0, not \"%s\""), o->kv_type_text);
      return FALSE;
    }
  if (o->flash_text != NULL)
    {
      if (g_ascii_strcasecmp (o->flash_text, "on") == 0)
        o->flash = HR_FLASH_ATTENTION_ON;
      else if (g_ascii_strcasecmp (o->flash_text, "off") == 0)
        o->flash = HR_FLASH_ATTENTION_OFF;
      else if (g_ascii_strcasecmp (o->flash_text, "auto") == 0)
        o->flash = HR_FLASH_ATTENTION_AUTO;
      else
        {
          hr_cli_usage_error (_("--flash-attention must be on, off or auto, not \"%s\""), o->flash_text);
          return FALSE;
        }
    }
  if (runtime != NULL)
    {
      if (default_runtime != NULL &&
          (g_ascii_strcasecmp (runtime, "seed") == 0 || g_ascii_strcasecmp (runtime, "none") == 0))
        {
          o->no_runtime = TRUE;
          o->era = HR_RUNTIME_ERA_SEED;
        }
      else if (!hr_runtime_era_from_string (runtime, &o->era))
        {
          hr_cli_usage_error (_("--runtime must be ollama-0.30, ollama-0.12, llama-server, auto or seed, not \"%s\""),
                              runtime);
          return FALSE;
        }
    }
  if (o->backend_text != NULL)
    {
      if (!hr_runtime_backend_from_string (o->backend_text, &o->backend))
        {
          hr_cli_usage_error (_("--backend must be cpu, cuda or metal, not \"%s\""), o->backend_text);
          return FALSE;
        }
    }
  if (o->version != NULL && !hr_runtime_parse_version (o->version, NULL, NULL, NULL))
    {
      hr_cli_usage_error (_("--server-version must look like 0.31.2, not \"%s\""), o->version);
      return FALSE;
    }
  if (!hr_cli_predict_resolve_placement (o, o->era == HR_RUNTIME_ERA_AUTO ? hr_runtime_era_for_version (o->version) : o->era))
    return FALSE;
  if (o->precision_text != NULL)
    {
      o->precision = hr_precision_lookup (o->precision_text);
      if (o->precision == NULL)
        {
          hr_cli_usage_error (_("unknown precision \"%s\"; run \"headroom-cli weights --help\" for the list"), o->precision_text);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * hr_cli_predict_inputs:
 * @in: (out caller-allocates): the runtime inputs
 * @o: resolved options
 * @spec: (nullable): the model
 *
 * hr_runtime_inputs_init() with the options' precision, slots, KV cache
 * type, flash attention, batch, era, server version and backend. With
 * --runtime llama-server, --context is llama-server's -c (the whole cache)
 * and without it the context is left unset (0: the trained context per
 * slot), and --batch is -b alone: without it both batches are left to
 * llama-server's defaults (2048 / 512).
 */
void
hr_cli_predict_inputs (HrRuntimeInputs           *in,
                       const HrCliPredictOptions *o,
                       const HrModelSpec         *spec)
{
  hr_runtime_inputs_init (in, spec, o->context);
  in->precision = o->precision;
  in->parallel_slots = o->parallel;
  in->kv_type = o->kv_type;
  in->flash_attention = o->flash;
  in->batch = o->batch;
  in->ubatch = o->batch;
  if (o->era == HR_RUNTIME_ERA_LLAMA_SERVER)
    {
      if (o->context_text == NULL)
        in->context_tokens = 0;
      in->batch = o->batch_text != NULL ? o->batch : 0;
      in->ubatch = 0;
    }
  in->era = o->era;
  in->server_version = o->version;
  in->backend = o->backend;
}

/**
 * hr_cli_predict_load_context:
 * @ctx: (out caller-allocates): the context
 * @o: resolved options (board, catalog, measurements)
 * @out_status: (out): the exit status on failure
 *
 * With --gpus the context's board is the ad-hoc board of those GPUs
 * (hr_cli_gpus_board()), with nothing measured on it.
 *
 * Returns: %TRUE; %FALSE after printing the error (a usage error, 2, for an
 *   unknown --board, a --gpus that does not read, or both given).
 */
gboolean
hr_cli_predict_load_context (HrCliContext              *ctx,
                             const HrCliPredictOptions *o,
                             int                       *out_status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrBoard) gpus = NULL;

  if (o->gpus_text != NULL && o->board != NULL)
    {
      *out_status = hr_cli_usage_error ("%s", _("--gpus and --board both name the board: give one of them"));
      return FALSE;
    }
  if (o->gpus_text != NULL)
    {
      gpus = hr_cli_gpus_board (o->gpus_text, &error);
      if (gpus == NULL)
        {
          *out_status = hr_cli_usage_error ("%s", error->message);
          return FALSE;
        }
    }
  if (hr_cli_context_load (ctx, o->board, o->catalog, o->measurements, &error))
    {
      if (gpus != NULL)
        hr_cli_context_use_board (ctx, g_steal_pointer (&gpus));
      /* The placement across several GPUs follows Ollama 0.30+ (its choice
       * of GPUs, then llama.cpp's fit); another runtime's figures are the
       * first GPU's, and say so. */
      if (((o->era == HR_RUNTIME_ERA_LLAMA_SERVER && !hr_board_has_host (ctx->board)) || o->era == HR_RUNTIME_ERA_OLLAMA_0_12) &&
          hr_board_is_multi_device (ctx->board))
        {
          const HrDevice *first = g_ptr_array_index (ctx->board->devices, 0);
          g_autofree char *memory = hr_format_bytes (first->memory_bytes, HR_UNIT_GIB, 1);

          /* Translators: the runtime ("llama-server"), a GPU's name, its memory, the number of GPUs */
          fprintf (stderr, _("headroom-cli: sized on its first GPU only under --runtime %s (%s, %s): Headroom places a model across this board's %u GPUs for the Ollama 0.30+ and llama-server runtimes alone, so the other GPUs' memory and bandwidth are not counted here\n"),
                   hr_runtime_era_to_string (o->era), first->name, memory, ctx->board->devices->len);
        }
      /* The placement inputs against the board (one -ts share per GPU). */
      {
        HrOffloadInputs check;

        memset (&check, 0, sizeof check);
        check.board = ctx->board;
        check.llama_server = o->era == HR_RUNTIME_ERA_LLAMA_SERVER;
        check.split_mode = o->split_mode;
        check.n_tensor_split = o->n_tensor_split;
        memcpy (check.tensor_split, o->tensor_split, sizeof check.tensor_split);
        if (!hr_offload_check_placement (&check, &error))
          {
            *out_status = hr_cli_usage_error ("%s", error->message);
            return FALSE;
          }
        if (hr_cli_predict_placement_given (o) && !hr_board_has_host (ctx->board))
          {
            *out_status = hr_cli_usage_error (_("--cpu-moe, --n-cpu-moe, --tensor-split and --split-mode place a model on GPUs with host memory; %s keeps every layer in its one pool"),
                                              ctx->board->id);
            return FALSE;
          }
      }
      hr_cli_offload_set_inputs (o->n_cpu_moe, o->split_mode, o->n_tensor_split, o->tensor_split);
      return hr_cli_load_draft (ctx, o, out_status);
    }
  if (g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND) && o->board != NULL)
    *out_status = hr_cli_usage_error ("%s", error->message);
  else
    *out_status = hr_cli_fail (g_steal_pointer (&error));
  return FALSE;
}

/**
 * hr_cli_board_calibration:
 * @ctx: a loaded context
 * @board: the board
 * @version: (nullable): the server version; %NULL = every version
 * @template_inputs: the runtime inputs the residuals are figured against
 * @out: (out caller-allocates): the fit (an empty one without points)
 *
 * The board's learned residual (hr_calibration_fit()) at this server version.
 */
void
hr_cli_board_calibration (HrCliContext          *ctx,
                   const HrBoard         *board,
                   const char            *version,
                   const HrRuntimeInputs *template_inputs,
                   HrCalibration         *out)
{
  g_autoptr(GArray) points = hr_calibration_points_from_archive (ctx->measurements, board->id, version,
                                                                 ctx->catalog, template_inputs);

  if (!hr_calibration_fit ((const HrResidualPoint *) (gconstpointer) points->data, points->len, out, NULL))
    hr_calibration_fit (NULL, 0, out, NULL);
}

