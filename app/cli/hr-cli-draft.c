/* hr-cli-draft.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --draft MODEL|FILE.gguf for the sizing commands (predict, gguf, hub,
 * library): llama-server's draft model for speculative decoding (-md),
 * read from the catalog or a GGUF file, sized beside the model by the
 * runtime (app/core/runtime/hr-runtime-draft.c), and printed as its own
 * rows and a `draft` JSON object.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "hr-catalog.h"
#include "hr-cli-predict.h"
#include "hr-units.h"
#include "hr-gguf-report.h"

/* A catalog name, else something that looks like a GGUF file. */
static gboolean
looks_like_file (const char *model)
{
  g_autofree char *lower = g_ascii_strdown (model, -1);

  return g_file_test (model, G_FILE_TEST_EXISTS) || g_path_is_absolute (model) ||
         g_str_has_prefix (model, "./") || g_str_has_prefix (model, "../") ||
         g_str_has_suffix (lower, ".gguf");
}

/**
 * hr_cli_load_draft:
 * @ctx: a loaded context; ctx->draft is set
 * @o: resolved options (--draft, --runtime)
 * @out_status: (out): the exit status on failure
 *
 * Reads --draft into ctx->draft: a catalog name, or a GGUF file read the
 * way `headroom-cli gguf FILE` reads one (hr_gguf_report_build()). Nothing
 * without --draft.
 *
 * Returns: %TRUE; %FALSE after printing the error: a usage error (2) for
 *   --draft under a runtime other than llama-server (Ollama passes a
 *   DRAFT as --spec-type draft-mtp, llm/llama_server.go appendDraftArgs,
 *   and llama.cpp's MTP context refuses a model without MTP layers,
 *   src/llama-context.cpp llama_init_from_model), or for a name that is
 *   neither in the catalog nor a file; 1 for a file that cannot be read.
 */
gboolean
hr_cli_load_draft (HrCliContext              *ctx,
                   const HrCliPredictOptions *o,
                   int                       *out_status)
{
  g_autoptr(GError) error = NULL;
  const HrModelSpec *found;

  if (o->mtp && o->draft_text != NULL)
    {
      *out_status = hr_cli_usage_error ("%s", _("--mtp sizes the model's own MTP heads and --draft a model of its own: give one of them"));
      return FALSE;
    }
  if (o->mtp && o->era != HR_RUNTIME_ERA_LLAMA_SERVER)
    {
      *out_status = hr_cli_usage_error ("%s", _("--mtp sizes llama-server's --spec-type draft-mtp: give --runtime llama-server (Ollama passes it only with draft_num_predict set, server/routes.go)"));
      return FALSE;
    }
  if (o->draft_text == NULL)
    return TRUE;
  if (o->era != HR_RUNTIME_ERA_LLAMA_SERVER)
    {
      *out_status = hr_cli_usage_error ("%s", _("--draft sizes llama-server's draft model (-md): give --runtime llama-server. Ollama passes a model's DRAFT as --spec-type draft-mtp (llm/llama_server.go appendDraftArgs), which loads only MTP or DFlash heads, not a model of its own"));
      return FALSE;
    }
  found = hr_catalog_find (ctx->catalog, o->draft_text);
  if (found != NULL)
    {
      ctx->draft = hr_model_spec_copy (found);
      return TRUE;
    }
  if (!looks_like_file (o->draft_text))
    {
      *out_status = hr_cli_usage_error (_("--draft %s is neither a catalog model nor a GGUF file"), o->draft_text);
      return FALSE;
    }
  {
    g_autofree char *display = g_filename_display_name (o->draft_text);
    g_autofree char *origin = g_strconcat ("gguf:", o->draft_text, NULL);
    g_autoptr(HrGgufReport) report = NULL;

    if (hr_cli_check_readable (o->draft_text, &error))
      report = hr_gguf_report_build (o->draft_text, display, NULL, origin, ctx->board, o->context, NULL, &error);
    if (report == NULL)
      {
        g_prefix_error (&error, _("--draft %s: "), display);
        *out_status = hr_cli_fail (g_steal_pointer (&error));
        return FALSE;
      }
    ctx->draft = hr_model_spec_copy (report->spec);
  }
  return TRUE;
}

/**
 * hr_cli_load_mtp:
 * @ctx: a loaded context; ctx->mtp_layers is set
 * @o: resolved options (--mtp)
 * @file: (nullable): the model's GGUF file; %NULL when the model is no
 *   file (a catalog row, the library, the hub)
 * @out_status: (out): the exit status on failure
 *
 * With --mtp, reads the model's MTP layers from `{arch}.nextn_predict_layers`
 * (src/llama-model.cpp load_hparams: n_layer_nextn). Nothing without --mtp.
 *
 * Returns: %TRUE; %FALSE after a usage error (2): no file to read, or a
 *   file without MTP layers, for which llama-server refuses the MTP
 *   context ("context type MTP requested but model doesn't contain MTP
 *   layers", src/llama-context.cpp llama_init_from_model).
 */
gboolean
hr_cli_load_mtp (HrCliContext              *ctx,
                 const HrCliPredictOptions *o,
                 const HrGgufFile          *file,
                 int                       *out_status)
{
  const char *arch;
  g_autofree char *key = NULL;
  guint64 n = 0;

  ctx->mtp_layers = 0;
  if (!o->mtp)
    return TRUE;
  if (file == NULL)
    {
      *out_status = hr_cli_usage_error ("%s", _("--mtp reads the MTP layers from the model's GGUF file ({arch}.nextn_predict_layers): give the model as FILE.gguf"));
      return FALSE;
    }
  arch = hr_gguf_file_get_string (file, "general.architecture");
  key = g_strdup_printf ("%s.nextn_predict_layers", arch != NULL ? arch : "");
  if (!hr_gguf_file_get_uint (file, key, &n) || n == 0 || n > HR_MODEL_SPEC_MAX_LAYERS)
    {
      *out_status = hr_cli_usage_error (_("--mtp: the file has no MTP layers (%s is 0 or missing), and llama-server refuses --spec-type draft-mtp for it"), key);
      return FALSE;
    }
  ctx->mtp_layers = (guint32) n;
  return TRUE;
}

/* The device llama-server puts the draft on, as Headroom sizes the
 * llama-server runtime: the CPU backend, or the board's first GPU. */
static const char *
draft_device (HrCliContext              *ctx,
              const HrRuntimePrediction *p)
{
  /* Only the CPU backend counts an output buffer (hr-runtime-draft.c). */
  if (hr_runtime_prediction_get_term (p, HR_RUNTIME_TERM_DRAFT_OUTPUT) != NULL)
    return "CPU";
  if (ctx->board->devices != NULL && ctx->board->devices->len > 0)
    return ((const HrDevice *) g_ptr_array_index (ctx->board->devices, 0))->name;
  return ctx->board->name;
}

static guint64
term (const HrRuntimePrediction *p,
      HrRuntimeTermKind          kind)
{
  return (guint64) MAX (hr_runtime_prediction_term_bytes (p, kind), 0);
}

/**
 * hr_cli_print_draft:
 * @ctx: a loaded context
 * @p: the prediction (hr_cli_predict_spec())
 *
 * One line under the terms naming --draft's model, where it goes and its
 * share of the total; nothing without --draft.
 */
void
hr_cli_print_draft (HrCliContext              *ctx,
                    const HrRuntimePrediction *p)
{
  guint64 sum;
  g_autofree char *all = NULL;
  g_autofree char *text = NULL;

  if (ctx->draft == NULL && ctx->mtp_layers == 0)
    return;
  sum = term (p, HR_RUNTIME_TERM_DRAFT_WEIGHTS) + term (p, HR_RUNTIME_TERM_DRAFT_KV) +
        term (p, HR_RUNTIME_TERM_DRAFT_COMPUTE) + term (p, HR_RUNTIME_TERM_DRAFT_OUTPUT);
  all = hr_format_gb_gib (sum, 2);
  if (ctx->draft != NULL)
    /* Translators: the draft model's name, the device, its bytes in GB and GiB */
    text = g_strdup_printf (_("%s (llama-server -md) on %s: %s of the total"),
                            ctx->draft->name, draft_device (ctx, p), all);
  else
    /* Translators: the number of MTP layers, the device, their bytes in GB and GiB */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "the model's %u MTP layer (--spec-type draft-mtp) on %s: %s of the total",
                                         "the model's %u MTP layers (--spec-type draft-mtp) on %s: %s of the total",
                                         ctx->mtp_layers),
                            ctx->mtp_layers, draft_device (ctx, p), all);
  printf ("  %-18s %s\n", ctx->draft != NULL ? _("draft model") : _("MTP heads"), text);
}

/**
 * hr_cli_draft_json:
 * @ctx: a loaded context, ctx->draft or ctx->mtp_layers set
 * @spec: the model the draft drafts for
 * @p: the prediction
 *
 * The `draft` object: `kind` ("model" for --draft, "mtp" for --mtp),
 * `model` (the draft's name, or the model's own), `mtp_layers`, `weights_bytes`, `kv_bytes`,
 * `compute_bytes`, `output_bytes`, `total_bytes`, `vocab_compatible`
 * (hr_runtime_draft_vocab_compatible()), and `devices`, one object per
 * device holding the draft (name, weights_bytes, kv_bytes,
 * compute_bytes): the one the llama-server runtime is sized on.
 *
 * Returns: (transfer full): a JSON object node.
 */
JsonNode *
hr_cli_draft_json (HrCliContext              *ctx,
                   const HrModelSpec         *spec,
                   const HrRuntimePrediction *p)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  guint64 w = term (p, HR_RUNTIME_TERM_DRAFT_WEIGHTS), kv = term (p, HR_RUNTIME_TERM_DRAFT_KV);
  guint64 c = term (p, HR_RUNTIME_TERM_DRAFT_COMPUTE), out = term (p, HR_RUNTIME_TERM_DRAFT_OUTPUT);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, ctx->draft != NULL ? "model" : "mtp");
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, ctx->draft != NULL ? ctx->draft->name : spec->name);
  json_builder_set_member_name (b, "mtp_layers");
  json_builder_add_int_value (b, ctx->mtp_layers);
  json_builder_set_member_name (b, "weights_bytes");
  json_builder_add_int_value (b, (gint64) w);
  json_builder_set_member_name (b, "kv_bytes");
  json_builder_add_int_value (b, (gint64) kv);
  json_builder_set_member_name (b, "compute_bytes");
  json_builder_add_int_value (b, (gint64) c);
  json_builder_set_member_name (b, "output_bytes");
  json_builder_add_int_value (b, (gint64) out);
  json_builder_set_member_name (b, "total_bytes");
  json_builder_add_int_value (b, (gint64) (w + kv + c + out));
  json_builder_set_member_name (b, "vocab_compatible");
  json_builder_add_boolean_value (b, ctx->draft == NULL || hr_runtime_draft_vocab_compatible (spec, ctx->draft));
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, draft_device (ctx, p));
  json_builder_set_member_name (b, "weights_bytes");
  json_builder_add_int_value (b, (gint64) w);
  json_builder_set_member_name (b, "kv_bytes");
  json_builder_add_int_value (b, (gint64) kv);
  json_builder_set_member_name (b, "compute_bytes");
  json_builder_add_int_value (b, (gint64) c);
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
