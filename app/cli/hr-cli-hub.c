/* hr-cli-hub.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli hub REPO [--revision R] [sizing options] [--json]`: the
 * seed's week-3 lookup of a Hugging Face repository (docs/seed-figures.md,
 * "A Hugging Face lookup"), the weights at the repository's own dtype (week
 * 4), and the memory it needs on a board, by the same prediction as
 * `headroom-cli predict` (hr-cli-predict.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "hr-cli.h"
#include "hr-cli-predict.h"
#include "hr-hub-client.h"
#include "hr-memory.h"
#include "hr-net-error.h"
#include "hr-units.h"

typedef struct {
  GMainLoop   *loop;
  HrHubLookup *lookup;
  GError      *error;
} HubWait;

static void
on_lookup (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  HubWait *wait = user_data;

  wait->lookup = hr_hub_client_lookup_finish (HR_HUB_CLIENT (source), result, &wait->error);
  g_main_loop_quit (wait->loop);
}

static void
row (const char *label,
     const char *value)
{
  printf ("%-19s %s\n", label, value);
}

static void
rowf (const char *label,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
rowf (const char *label,
      const char *format,
      ...)
{
  va_list args;
  g_autofree char *value = NULL;

  va_start (args, format);
  value = g_strdup_vprintf (format, args);
  va_end (args);
  row (label, value);
}

static char *
format_ids (GArray *ids)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < ids->len; i++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT, i ? _(" and ") : "", g_array_index (ids, gint64, i));
  return g_string_free (out, FALSE);
}

/* How many of @flags (guint8 per layer) are set. */
static guint
count_set (const GArray *flags)
{
  guint n = 0;

  for (guint i = 0; i < flags->len; i++)
    n += g_array_index (flags, guint8, i) != 0;
  return n;
}

/* The parameter count by dtype, and the count derived from config.json
 * beside it (with the active part of a mixture of experts). */
static void
print_parameters (const HrHubLookup *l)
{
  g_autofree char *count = hr_format_count (l->parameters);

  if (l->parameters > 0)
    {
      g_autoptr(GString) dtypes = g_string_new (NULL);

      for (guint i = 0; i < l->parameters_by_dtype->len; i++)
        {
          const HrSafetensorsDtype *d = g_ptr_array_index (l->parameters_by_dtype, i);
          g_autofree char *n = hr_format_count (d->parameters);

          g_string_append_printf (dtypes, "%s%s %s", i ? ", " : "", d->dtype, n);
        }
      if (dtypes->len > 0)
        rowf (_("parameters"), _("%s (%s), from %s"), count, dtypes->str, l->parameters_source);
      else
        rowf (_("parameters"), _("%s, from %s"), count, l->parameters_source);
    }
  else
    row (_("parameters"), _("unknown"));
  if (l->has_derived && l->parameters > 0)
    {
      g_autofree char *derived = hr_format_count (l->derived.total);

      /* To the digit: a few missing norms are not "0.00 % apart". */
      rowf (_("config check"), _("%s derived from config.json: %s"), derived, l->derived_comparison);
      if (l->config->experts > 0)
        {
          g_autofree char *active = hr_format_count (l->derived.active);

          rowf (_("active per token"), _("%s (%u of %u experts)"), active,
                l->config->experts_per_token, l->config->experts);
        }
    }
}

/* config.json's sliding-window and recurrent layers. */
static void
print_layer_kinds (const HrHfConfig *c)
{
  if (c->sliding_window > 0 && c->layer_sliding != NULL)
    rowf (_("sliding window"), _("%u tokens, on %u of %u layers"), c->sliding_window,
          count_set (c->layer_sliding), c->layers);
  else if (c->sliding_window > 0)
    rowf (_("sliding window"), _("%u tokens"), c->sliding_window);
  if (c->layer_recurrent != NULL)
    {
      rowf (_("recurrent layers"), _("%u of %u (%u + %u state values per layer and slot)"),
            count_set (c->layer_recurrent), c->layers, c->recurrent_r, c->recurrent_s);
      row ("", c->recurrent_source);
    }
}

/* config.json's shape: layers, sizes, heads, vocabulary, native context,
 * the kinds of layers and the defaults transformers fills in. */
static void
print_config_shape (const HrHfConfig *c)
{
  g_autofree char *hidden = hr_format_count (c->hidden_size);
  g_autofree char *inter = hr_format_count (c->intermediate_size);
  g_autofree char *vocab = hr_format_count (c->vocab_size);
  g_autofree char *ctx = hr_format_count (c->max_position_embeddings);

  rowf (_("layers"), "%u", c->layers);
  row (_("hidden size"), hidden);
  row (_("intermediate size"), inter);
  rowf (_("attention heads"), "%u", c->heads);
  rowf (_("key/value heads"), "%u", c->kv_heads);
  if (c->default_sources[HR_SPEC_FIELD_KEY_LENGTH] != NULL)
    rowf (_("head dim"), _("%u (%s)"), c->head_dim, c->default_sources[HR_SPEC_FIELD_KEY_LENGTH]);
  else
    rowf (_("head dim"), c->head_dim_explicit ? _("%u (head_dim)") : _("%u (hidden / heads)"), c->head_dim);
  row (_("vocab"), vocab);
  if (c->default_sources[HR_SPEC_FIELD_CONTEXT_LENGTH] != NULL)
    rowf (_("native context"), _("%s tokens (%s)"), ctx, c->default_sources[HR_SPEC_FIELD_CONTEXT_LENGTH]);
  else
    rowf (_("native context"), _("%s tokens (max_position_embeddings)"), ctx);
  print_layer_kinds (c);
  row (_("tied embeddings"), c->tied_embeddings ? _("yes") : _("no"));
  /* What transformers' configuration class filled in for absent keys. */
  for (guint i = 0; c->defaults != NULL && i < c->defaults->len; i++)
    row (i == 0 ? _("defaults") : "", g_ptr_array_index (c->defaults, i));
}

/* A GGUF-only repository's context, the tokenizer's cap and the BOS and
 * EOS token ids. */
static void
print_tokens (const HrHubLookup *l)
{
  const HrHfConfig *c = l->config;

  if (c == NULL && l->gguf != NULL && l->spec != NULL && l->spec->context_length > 0)
    {
      g_autofree char *ctx = hr_format_count (l->spec->context_length);

      /* A GGUF-only repository: its header says it. */
      rowf (_("native context"), _("%s tokens (%s.context_length in the GGUF header)"), ctx,
            l->spec->architecture ? l->spec->architecture : "?");
    }
  if (l->has_tokenizer_max_length)
    {
      g_autofree char *cap = hr_format_count (l->tokenizer_max_length);

      if (c != NULL && l->tokenizer_max_length > c->max_position_embeddings && c->max_position_embeddings > 0)
        rowf (_("tokenizer cap"), _("%s tokens (model_max_length; not the native limit)"), cap);
      else
        rowf (_("tokenizer cap"), _("%s tokens (model_max_length)"), cap);
    }
  if (l->bos_token_id >= 0)
    rowf (_("BOS"), "%" G_GINT64_FORMAT, l->bos_token_id);
  if (l->eos_token_ids->len > 0)
    {
      g_autofree char *eos = format_ids (l->eos_token_ids);

      row (_("EOS"), eos);
    }
}

/* 1. Architecture and size */
static void
print_architecture (const HrHubLookup *l)
{
  if (l->architecture != NULL || l->model_type != NULL)
    rowf (_("architecture"), _("%s (model_type %s)"), l->architecture ? l->architecture : "?",
          l->model_type ? l->model_type : "?");
  print_parameters (l);
  if (l->config != NULL)
    print_config_shape (l->config);
  else if (l->config_problem != NULL)
    row (_("config.json"), l->config_problem);
  print_tokens (l);
}

/* The projector: the mmproj files and the one read (a GGUF repository),
 * or the checkpoint's vision / audio tower (safetensors). */
static void
print_projector (const HrHubLookup *l)
{
  for (guint i = 0; i < l->mmproj_files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (l->mmproj_files, i);
      g_autofree char *size = hr_format_count (f->size);

      rowf (i == 0 ? _("mmproj files") : "", _("%s, %s bytes"), f->path, size);
    }
  if (l->mmproj != NULL && l->spec != NULL && l->spec->projector_bytes > 0)
    {
      g_autofree char *bytes = hr_format_count (l->spec->projector_bytes);
      g_autofree char *both = hr_format_gb_gib (l->spec->projector_bytes, 2);
      guint n = hr_gguf_file_get_n_tensors (l->mmproj);

      rowf (_("projector"),
            g_dngettext (GETTEXT_PACKAGE,
                         "%s: %u tensor, %s bytes, %s, from its header (llama.cpp's -hf takes this one with %s; Ollama counts all its tensors)",
                         "%s: %u tensors, %s bytes, %s, from its header (llama.cpp's -hf takes this one with %s; Ollama counts all its tensors)",
                         n),
            l->mmproj_chosen, n, bytes, both, l->gguf_chosen);
    }
  if (l->tower_tensors > 0)
    {
      g_autofree char *bytes = hr_format_count (l->tower_bytes);
      g_autofree char *both = hr_format_gb_gib (l->tower_bytes, 2);
      g_autofree char *params = hr_format_count (l->tower_parameters);

      rowf (_("vision tower"),
            g_dngettext (GETTEXT_PACKAGE,
                         "%u tensor, %s parameters, %s bytes, %s at the checkpoint's dtype: sized as the projector, apart from the weights",
                         "%u tensors, %s parameters, %s bytes, %s at the checkpoint's dtype: sized as the projector, apart from the weights",
                         l->tower_tensors),
            l->tower_tensors, params, bytes, both);
    }
}

/* 2. Base or instruct; 3. Download */
static void
print_kind_and_download (const HrHubLookup *l)
{
  /* 2. Base or instruct */
  if (l->kind != NULL)
    {
      row (_("kind"), hr_hf_kind_to_string (l->kind->kind));
      if (l->kind->base_model != NULL)
        row (_("base model"), l->kind->base_model);
      for (guint i = 0; i < l->kind->evidence->len; i++)
        row (i == 0 ? _("evidence") : "", g_ptr_array_index (l->kind->evidence, i));
    }

  /* 3. Download */
  {
    g_autofree char *total = hr_format_count (l->total_bytes);
    g_autofree char *both = hr_format_gb_gib (l->total_bytes, 2);

    rowf (_("files"), g_dngettext (GETTEXT_PACKAGE, "%u file, %s bytes, %s", "%u files, %s bytes, %s",
                                   l->files->len),
          l->files->len, total, both);
  }
  for (guint i = 0; i < l->weight_files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (l->weight_files, i);
      g_autofree char *size = hr_format_count (f->size);

      rowf (i == 0 ? _("weight shards") : "", _("%s, %s bytes"), f->path, size);
    }
  if (l->largest != NULL)
    {
      g_autofree char *size = hr_format_count (l->largest->size);

      rowf (_("largest file"), _("%s, %s bytes"), l->largest->path, size);
    }
  if (l->n_tensors > 0)
    {
      g_autofree char *bytes = hr_format_count (l->tensor_bytes);

      rowf (_("tensors"), _("%u, %s bytes of tensor data"), l->n_tensors, bytes);
    }
  if (l->unknown_dtypes != NULL)
    row (_("unknown dtype"), l->unknown_dtypes);
  for (guint i = 0; i < l->gguf_files->len; i++)
    {
      const HrHubGgufFile *g = g_ptr_array_index (l->gguf_files, i);
      g_autofree char *size = hr_format_count (g->size);

      if (g->parts > 1)
        rowf (i == 0 ? _("GGUF files") : "", _("%s %s, %s bytes over %u parts"),
              g->label ? g->label : "?", g->path, size, g->parts);
      else
        rowf (i == 0 ? _("GGUF files") : "", _("%s %s, %s bytes"), g->label ? g->label : "?", g->path, size);
      if (g->problem != NULL)
        row ("", g->problem);
    }
  if (l->gguf != NULL && l->spec != NULL && l->spec->parameters > 0)
    {
      g_autofree char *bits = hr_format_decimal (hr_memory_effective_bits (l->spec->file_bytes, l->spec->parameters), 3);

      if (l->gguf_parts_read > 1)
        {
          g_autofree char *bytes = hr_format_count (l->spec->file_bytes);

          rowf (_("GGUF header"), _("%s and its other %u parts: %s bits per weight over %s bytes"),
                l->gguf_chosen, l->gguf_parts_read - 1, bits, bytes);
        }
      else
        rowf (_("GGUF header"), _("%s: %s bits per weight over the whole file"), l->gguf_chosen, bits);
    }
  print_projector (l);
  for (guint i = 0; i < l->notes->len; i++)
    row (i == 0 ? _("figures disagree") : "", g_ptr_array_index (l->notes, i));
}

/* The weights' bytes: the tensor data the Hub lists when known (the
 * safetensors index or headers, the GGUF header over every part read:
 * packed or quantized weights are sized as stored), else parameters x the
 * precision's bits. */
static guint64
weight_bytes (const HrHubLookup *l,
              const HrPrecision *precision,
              gboolean          *out_stored)
{
  guint64 computed = hr_memory_weight_bytes (l->parameters, precision->bits_per_weight);
  guint64 stored = l->gguf != NULL ? hr_gguf_file_get_tensor_bytes (l->gguf) : l->tensor_bytes;

  *out_stored = stored > 0 && stored != computed;
  return *out_stored ? stored : computed;
}

/* 4. License, and the weights at their own dtype (week 4) */
static void
print_license_and_weights (const HrHubLookup *l)
{
  const char *precision_id = hr_hub_lookup_weight_precision (l);
  const HrPrecision *precision = hr_precision_lookup (precision_id);

  /* 4. License */
  if (l->license_name != NULL)
    rowf (_("license"), "%s (%s)", l->license ? l->license : "?", l->license_name);
  else
    row (_("license"), l->license ? l->license : _("none given"));
  if (l->license_file != NULL)
    rowf (l->license_file, "“%s”", l->license_title ? l->license_title : _("(no title)"));
  if (l->license_unread != NULL)
    row (_("license file"), l->license_unread);
  if (l->non_commercial)
    {
      rowf (_("commercial use"), _("restricted: %s"), l->non_commercial_reason);
      row ("", _("The badge is a label; the file is the contract."));
    }
  else if (l->license_file != NULL)
    row (_("commercial use"), _("no restricting phrase found; read the file before you ship"));

  /* Weights at the repository's own dtype (week 4), and memory. */
  if (precision != NULL && l->parameters > 0)
    {
      gboolean stored;
      guint64 bytes = weight_bytes (l, precision, &stored);
      g_autofree char *b = hr_format_count (bytes);
      g_autofree char *gb = hr_format_bytes (bytes, HR_UNIT_GB, 2);
      g_autofree char *gib = hr_format_bytes (bytes, HR_UNIT_GIB, 2);
      g_autofree char *label = stored ? g_strdup (_("weights (stored)"))
                                      : g_strdup_printf (_("weights (%s)"), precision->id);

      rowf (label, _("%s bytes: %s (decimal, / 1e9), %s (binary, / 1024^3)"), b, gb, gib);
    }
}

/* The memory: the same prediction as `headroom-cli predict`
 * (hr_cli_predict_spec()) of the spec the lookup built, when the lookup
 * knows its shape. */
static gboolean
hub_predict (const HrHubLookup         *l,
             HrCliContext              *ctx,
             const HrCliPredictOptions *o,
             HrRuntimeInputs           *out_in,
             HrRuntimePrediction       *out,
             char                     **out_why)
{
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs local;
  HrRuntimeInputs *in = out_in != NULL ? out_in : &local;

  *out_why = NULL;
  if (l->spec == NULL || l->spec->parameters == 0 || l->spec->layers == 0 ||
      l->spec->kv_heads == 0 || l->spec->key_length == 0)
    return FALSE;
  if (!hr_cli_predict_spec (ctx, o, l->spec, in, out, &error))
    {
      *out_why = g_strdup (error->message);
      return FALSE;
    }
  return TRUE;
}

static void
print_text (const HrHubLookup         *l,
            HrCliContext              *ctx,
            const HrCliPredictOptions *o)
{
  HrRuntimePrediction p;
  HrRuntimeInputs in;
  g_autofree char *why = NULL;

  rowf (_("repository"), "%s", l->repo);
  rowf (_("revision"), _("%s (commit %s)"), l->revision, l->sha);
  print_architecture (l);
  print_kind_and_download (l);
  print_license_and_weights (l);
  if (hub_predict (l, ctx, o, &in, &p, &why))
    {
      g_autoptr(GError) error = NULL;

      hr_cli_print_memory (ctx, &p);
      hr_cli_print_projector (ctx, l->spec, -1);
      if (!hr_cli_sizing_split (ctx, o, &in, &p, NULL, &error))
        row (_("placement"), error->message);
    }
  else if (why != NULL)
    row (_("memory"), why);
}

static JsonNode *
to_json (const HrHubLookup         *l,
         HrCliContext              *ctx,
         const HrCliPredictOptions *o)
{
  g_autoptr(JsonNode) node = hr_hub_lookup_to_json (l);
  JsonObject *obj = json_node_get_object (node);
  const char *precision_id = hr_hub_lookup_weight_precision (l);
  const HrPrecision *precision = hr_precision_lookup (precision_id);
  HrRuntimePrediction p;
  HrRuntimeInputs in;
  g_autofree char *why = NULL;

  if (precision != NULL && l->parameters > 0)
    {
      gboolean stored;
      guint64 bytes = weight_bytes (l, precision, &stored);

      json_object_set_string_member (obj, "weight_precision", precision->id);
      if (stored)
        json_object_set_string_member (obj, "weight_bytes_source", "tensor data");
      json_object_set_int_member (obj, "weight_bytes", (gint64) bytes);
      json_object_set_double_member (obj, "weight_gb", hr_bytes_to_gb (bytes));
      json_object_set_double_member (obj, "weight_gib", hr_bytes_to_gib (bytes));
    }
  if (l->spec != NULL)
    json_object_set_member (obj, "projector", hr_cli_projector_json (ctx, l->spec, l->mmproj_chosen));
  if (hub_predict (l, ctx, o, &in, &p, &why))
    {
      JsonNode *memory = hr_cli_prediction_json (ctx, l->spec, &p);
      g_autoptr(GError) error = NULL;

      if (!hr_cli_sizing_split (ctx, o, &in, &p, json_node_get_object (memory), &error))
        json_object_set_string_member (json_node_get_object (memory), "placement_problem", error->message);
      json_object_set_member (obj, "prediction", memory);
    }
  else
    json_object_set_null_member (obj, "prediction");
  if (why != NULL)
    json_object_set_string_member (obj, "prediction_problem", why);
  return g_steal_pointer (&node);
}

/**
 * hr_cli_cmd_hub:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli hub REPO[@REVISION] [--revision R] [sizing options] [--json]`:
 * looks REPO up on the Hub at `HF_ENDPOINT` (token from `HF_TOKEN` or the
 * keyring) and prints the seed's week-3 answers (architecture and size,
 * base or instruct, download, license), the weights at the repository's
 * own dtype in GB and GiB, and the memory on the board as `predict` sizes
 * it (hr_cli_predict_spec()), with the options every sizing command takes
 * (%HR_CLI_SIZING_OPTIONS).
 *
 * Returns: 0, 1 when the lookup fails (the reason on stderr), 2 for bad
 *   arguments.
 */
int
hr_cli_cmd_hub (int    argc,
                char **argv)
{
  g_autofree char *revision = NULL;
  g_auto(HrCliPredictOptions) o = { 0 };
  GOptionEntry entries[] = {
    { "revision", 0, 0, G_OPTION_ARG_STRING, &revision, N_("Branch, tag or commit (default main)"), N_("R") },
    HR_CLI_SIZING_OPTIONS,
    OPT_JSON,
    { NULL }
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *repo = NULL;
  g_autofree char *at_revision = NULL;
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_auto(HrCliContext) ctx = { 0 };
  HubWait wait = { 0 };
  int status = HR_CLI_EXIT_OK;

  if (!hr_cli_parse_options ("hub", _("REPO — look a Hugging Face model up before downloading it"), entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (argc != 2)
    return hr_cli_usage_error ("%s", _("give one repository, e.g. headroom-cli hub Qwen/Qwen2.5-3B-Instruct"));
  if (!hr_hf_repo_parse (argv[1], &repo, &at_revision, &error))
    return hr_cli_usage_error ("%s", error->message);
  if (at_revision != NULL && revision != NULL)
    return hr_cli_usage_error ("%s", _("give the revision once: after “@” or with --revision"));
  if (!hr_cli_predict_options_resolve (&o, NULL))
    return HR_CLI_EXIT_USAGE;
  if (!hr_cli_predict_load_context (&ctx, &o, &status))
    return status;
  if (!hr_cli_load_mtp (&ctx, &o, NULL, &status))
    return status;

  client = hr_hub_client_new ();
  loop = g_main_loop_new (NULL, FALSE);
  wait.loop = loop;
  hr_hub_client_lookup_async (client, repo, at_revision ? at_revision : revision, NULL, on_lookup, &wait);
  g_main_loop_run (loop);
  lookup = wait.lookup;
  if (lookup == NULL)
    return hr_cli_fail (wait.error);

  if (o.json)
    {
      g_autoptr(JsonNode) node = to_json (lookup, &ctx, &o);

      hr_cli_print_json (node);
    }
  else
    print_text (lookup, &ctx, &o);
  return HR_CLI_EXIT_OK;
}
