/* hr-cli-variant.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli ollama create-variant`, `copy` and `load`: make the board
 * run a model the way Headroom sized it. A variant is a model made on the
 * server from one it has, carrying the context (num_ctx) and GPU layers
 * (num_gpu) chosen here, through Ollama's `POST /api/create` with "from"
 * and "parameters" (Ollama's docs/api.md "Create a Model"); `load` loads a
 * model with a keep-alive and sets what /api/ps reports beside the
 * prediction.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "hr-cli-predict.h"
#include "hr-cli.h"
#include "hr-error.h"
#include "hr-measure.h"
#include "hr-net-error.h"
#include "hr-offload.h"
#include "hr-ollama-client.h"
#include "hr-ollama-host.h"
#include "hr-ollama-show.h"
#include "hr-runtime.h"
#include "hr-units.h"

/* The first Ollama whose /api/create takes {"from", "parameters"} (the
 * release that replaced the Modelfile text with JSON fields, 0.5.5). */
#define CREATE_FROM_MAJOR 0
#define CREATE_FROM_MINOR 5
#define CREATE_FROM_PATCH 5

typedef struct {
  GMainLoop    *loop;
  GAsyncResult *result;
} Wait;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *w = user_data;

  w->result = g_object_ref (result);
  g_main_loop_quit (w->loop);
}

static GAsyncResult *
wait_for (Wait *w)
{
  g_clear_object (&w->result);
  g_main_loop_run (w->loop);
  return w->result;
}

static void
wait_clear (Wait *w)
{
  g_clear_object (&w->result);
  g_clear_pointer (&w->loop, g_main_loop_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Wait, wait_clear)

/* The models on the server, by name (/api/tags). */
static GPtrArray *
server_models (HrOllamaClient *client,
               Wait           *w,
               GError        **error)
{
  hr_ollama_client_tags_async (client, NULL, on_done, w);
  return hr_ollama_client_tags_finish (client, wait_for (w), error);
}

static gboolean
has_model (GPtrArray  *models,
           const char *name)
{
  for (guint i = 0; i < models->len; i++)
    {
      const HrOllamaModel *m = g_ptr_array_index (models, i);

      if (hr_ollama_model_name_equal (m->name, name))
        return TRUE;
    }
  return FALSE;
}

typedef struct {
  HrCliPredictOptions p;       /* the sizing options, named `o` by the macros */
  char     *host;
  char     *timeout_text;
  char     *name;
  char     *num_gpu_text;
  char     *keep_alive;
  gboolean  force;
  gboolean  dry_run;
} VariantOptions;

static void
variant_options_clear (VariantOptions *v)
{
  hr_cli_predict_options_clear (&v->p);
  g_free (v->host);
  g_free (v->timeout_text);
  g_free (v->name);
  g_free (v->num_gpu_text);
  g_free (v->keep_alive);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VariantOptions, variant_options_clear)

/* The server's version, checked against what /api/create with "from"
 * needs. */
static int
check_version (HrOllamaClient *client,
               Wait           *w,
               char          **out_version)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *version = NULL;
  guint major, minor, patch;

  hr_ollama_client_version_async (client, NULL, on_done, w);
  version = hr_ollama_client_version_finish (client, wait_for (w), &error);
  if (version == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  if (hr_runtime_parse_version (version, &major, &minor, &patch) &&
      !(major == 0 && minor == 0 && patch == 0) &&
      (guint64) major * 1000000 + minor * 1000 + patch <
      (guint64) CREATE_FROM_MAJOR * 1000000 + CREATE_FROM_MINOR * 1000 + CREATE_FROM_PATCH)
    {
      fprintf (stderr, _("headroom-cli: %s runs Ollama %s, whose /api/create does not take \"from\" and \"parameters\"; "
                         "variants need Ollama %u.%u.%u or newer: update the server\n"),
               hr_ollama_client_get_base_url (client), version, CREATE_FROM_MAJOR, CREATE_FROM_MINOR, CREATE_FROM_PATCH);
      return HR_CLI_EXIT_FAILED;
    }
  *out_version = g_steal_pointer (&version);
  return HR_CLI_EXIT_OK;
}

/* The board the variant is sized on: --board, else the one saved for the
 * server; NULL (after a usage error) when neither names one. */
static char *
board_for (const VariantOptions *v,
           HrOllamaClient       *client,
           const char           *why)
{
  char *board = v->p.board != NULL ? g_strdup (v->p.board)
                                   : hr_cli_saved_board_for_server (hr_ollama_client_get_base_url (client));

  if (board == NULL)
    hr_cli_usage_error (_("no board is saved for %s: name the board this server runs on with --board NAME, %s"),
                        hr_ollama_client_get_base_url (client), why);
  return board;
}

/* The largest context at which every layer of @spec fits the board's GPU
 * memory (hr_offload_max_context(), fits only), at the sizing options. */
static gboolean
largest_context (HrCliContext         *ctx,
                 const VariantOptions *v,
                 const HrModelSpec    *spec,
                 const char           *version,
                 guint32              *out_context,
                 GError              **error)
{
  HrOffloadInputs in;
  HrRuntimeInputs rt;

  hr_cli_predict_inputs (&rt, &v->p, spec);
  rt.server_version = v->p.version != NULL ? v->p.version : version;
  hr_offload_inputs_init (&in, ctx->board, spec, rt.context_tokens);
  in.runtime = rt;
  in.runtime.skip_text = TRUE;
  return hr_offload_max_context (&in, FALSE, 0.0, 0.0, out_context, error);
}

/* What the variant cannot carry: the server's environment. */
static void
print_environment (const VariantOptions *v)
{
  if (v->p.kv_type_text == NULL && v->p.flash_text == NULL && v->p.parallel_text == NULL)
    return;
  printf ("%s\n", _("A model cannot carry these; the server's owner sets them in the environment of `ollama serve`:"));
  if (v->p.kv_type_text != NULL)
    printf ("  OLLAMA_KV_CACHE_TYPE=%s\n", hr_kv_cache_type_to_string (v->p.kv_type));
  if (v->p.flash_text != NULL)
    printf ("  OLLAMA_FLASH_ATTENTION=%s\n", v->p.flash == HR_FLASH_ATTENTION_OFF ? "0" : "1");
  if (v->p.parallel_text != NULL)
    printf ("  OLLAMA_NUM_PARALLEL=%u\n", v->p.parallel);
}

/* What create-variant prints under --json: the variant's name, its source,
 * whether it was created, the request and the server environment asked. */
static void
print_variant_json (const VariantOptions *v,
                    const char           *name,
                    const char           *source,
                    JsonNode             *request)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "from");
  json_builder_add_string_value (b, source);
  json_builder_set_member_name (b, "created");
  json_builder_add_boolean_value (b, !v->dry_run);
  json_builder_set_member_name (b, "request");
  json_builder_add_value (b, json_node_copy (request));
  json_builder_set_member_name (b, "environment");
  json_builder_begin_object (b);
  if (v->p.kv_type_text != NULL)
    {
      json_builder_set_member_name (b, "OLLAMA_KV_CACHE_TYPE");
      json_builder_add_string_value (b, hr_kv_cache_type_to_string (v->p.kv_type));
    }
  if (v->p.flash_text != NULL)
    {
      json_builder_set_member_name (b, "OLLAMA_FLASH_ATTENTION");
      json_builder_add_string_value (b, v->p.flash == HR_FLASH_ATTENTION_OFF ? "0" : "1");
    }
  if (v->p.parallel_text != NULL)
    {
      g_autofree char *n = g_strdup_printf ("%u", v->p.parallel);

      json_builder_set_member_name (b, "OLLAMA_NUM_PARALLEL");
      json_builder_add_string_value (b, n);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  hr_cli_print_json (json_builder_get_root (b));
}

/* --num-gpu into @num_gpu (-1 when not given), and that the variant
 * changes something; the exit code. */
static int
parse_variant_changes (const VariantOptions *v,
                       gint32               *num_gpu)
{
  guint32 layers;

  *num_gpu = -1;
  if (v->num_gpu_text != NULL)
    {
      if (!hr_cli_parse_u32 ("--num-gpu", v->num_gpu_text, 0, 4096, &layers))
        return HR_CLI_EXIT_USAGE;
      *num_gpu = (gint32) layers;
    }
  if (v->p.max_context && v->p.context_text != NULL)
    return hr_cli_usage_error ("%s", _("--context and --max-context do not go together: give a context or ask for the largest"));
  if (!v->p.max_context && v->p.context_text == NULL && *num_gpu < 0)
    return hr_cli_usage_error ("%s", _("create-variant needs --context N, --max-context or --num-gpu L: what the variant changes"));
  return HR_CLI_EXIT_OK;
}

/* The server's version and models into @version and @models, and that
 * @source is one of them; the exit code. */
static int
check_source (HrOllamaClient  *client,
              Wait            *w,
              const char      *source,
              char           **version,
              GPtrArray      **models)
{
  g_autoptr(GError) error = NULL;
  int status = check_version (client, w, version);

  if (status != HR_CLI_EXIT_OK)
    return status;
  *models = server_models (client, w, &error);
  if (*models == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  if (!has_model (*models, source))
    {
      fprintf (stderr, _("headroom-cli: %s has no model \"%s\" to make a variant from; pull it first "
                         "(headroom-cli ollama pull %s)\n"),
               hr_ollama_client_get_base_url (client), source, source);
      return HR_CLI_EXIT_FAILED;
    }
  return HR_CLI_EXIT_OK;
}

/* --max-context: the largest context at which @source fits the board
 * (loaded into @ctx) with every layer on the GPU, into @context; the exit
 * code. */
static int
find_largest_context (HrOllamaClient *client,
                      Wait           *w,
                      VariantOptions *v,
                      const char     *source,
                      const char     *version,
                      HrCliContext   *ctx,
                      guint32        *context)
{
  g_autofree char *board = board_for (v, client, _("so the largest context that fits it can be found"));
  g_autoptr(HrOllamaShow) show = NULL;
  g_autoptr(GError) error = NULL;

  if (board == NULL)
    return HR_CLI_EXIT_USAGE;
  if (!hr_cli_context_load (ctx, board, v->p.catalog, v->p.measurements, &error))
    {
      if (g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
        return hr_cli_usage_error ("%s", error->message);
      return hr_cli_fail (g_steal_pointer (&error));
    }
  hr_ollama_client_show_async (client, source, NULL, on_done, w);
  show = hr_ollama_client_show_finish (client, wait_for (w), &error);
  if (show == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  if (!largest_context (ctx, v, show->spec, version, context, &error))
    {
      fprintf (stderr, _("headroom-cli: %s does not fit %s (%s) with every layer on the GPU at any context: %s\n"),
               source, ctx->board->id, ctx->board->name, error->message);
      return HR_CLI_EXIT_FAILED;
    }
  return HR_CLI_EXIT_OK;
}

/* The variant's name (--name, else one made from @source and what it
 * changes) into @out, checked and not already on the server unless
 * --force; the exit code. */
static int
variant_name (HrOllamaClient       *client,
              const VariantOptions *v,
              const char           *source,
              guint32               context,
              gint32                num_gpu,
              GPtrArray            *models,
              char                **out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = v->name != NULL ? g_strdup (v->name) : hr_ollama_variant_name (source, context, num_gpu);
  HrOllamaModelName parsed;

  if (v->name != NULL)
    {
      if (!hr_ollama_model_name_parse (v->name, &parsed, &error))
        return hr_cli_usage_error ("%s", error->message);
      hr_ollama_model_name_clear (&parsed);
    }
  if (has_model (models, name) && !v->force)
    {
      fprintf (stderr, _("headroom-cli: %s already has a model \"%s\"; choose another --name, or --force to replace it\n"),
               hr_ollama_client_get_base_url (client), name);
      return HR_CLI_EXIT_FAILED;
    }
  *out = g_steal_pointer (&name);
  return HR_CLI_EXIT_OK;
}

/* What create-variant says once it is done (or not sent): the variant,
 * then the server environment its options need. */
static void
print_variant_done (VariantOptions *v,
                    const char     *name,
                    const char     *source)
{
  if (v->dry_run)
    printf (_("not sent (--dry-run)\n"));
  else
    printf (_("created %s from %s\n"), name, source);
  print_environment (v);
}

static int
cmd_create_variant (HrOllamaClient *client,
                    VariantOptions *v,
                    const char     *source)
{
  g_auto(Wait) w = { g_main_loop_new (NULL, FALSE), NULL };
  g_auto(HrCliContext) ctx = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = NULL;
  g_autoptr(JsonObject) parameters = json_object_new ();
  g_autoptr(JsonNode) request = NULL;
  g_autofree char *version = NULL;
  g_autofree char *name = NULL;
  g_autofree char *body = NULL;
  guint32 context = v->p.context_text != NULL ? v->p.context : 0;
  gint32 num_gpu;
  int status;

  if ((status = parse_variant_changes (v, &num_gpu)) != HR_CLI_EXIT_OK ||
      (status = check_source (client, &w, source, &version, &models)) != HR_CLI_EXIT_OK)
    return status;
  if (v->p.max_context &&
      (status = find_largest_context (client, &w, v, source, version, &ctx, &context)) != HR_CLI_EXIT_OK)
    return status;

  if (context > 0)
    json_object_set_int_member (parameters, "num_ctx", context);
  if (num_gpu >= 0)
    json_object_set_int_member (parameters, "num_gpu", num_gpu);
  if ((status = variant_name (client, v, source, context, num_gpu, models, &name)) != HR_CLI_EXIT_OK)
    return status;

  request = hr_ollama_create_request (name, source, parameters);
  body = json_to_string (request, FALSE);
  if (!v->p.json)
    {
      if (v->p.max_context)
        {
          g_autofree char *count = hr_format_count (context);

          printf (_("largest context with every layer on the GPU of %s: %s tokens\n"), ctx.board->id, count);
        }
      printf (_("request: POST %s/api/create %s\n"), hr_ollama_client_get_base_url (client), body);
    }
  if (!v->dry_run)
    {
      hr_ollama_client_create_async (client, name, source, parameters, NULL, on_done, &w);
      if (!hr_ollama_client_create_finish (client, wait_for (&w), &error))
        return hr_cli_fail (g_steal_pointer (&error));
    }
  if (v->p.json)
    print_variant_json (v, name, source, request);
  else
    print_variant_done (v, name, source);
  return HR_CLI_EXIT_OK;
}

static int
cmd_copy (HrOllamaClient *client,
          VariantOptions *v,
          const char     *source,
          const char     *destination)
{
  g_auto(Wait) w = { g_main_loop_new (NULL, FALSE), NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = server_models (client, &w, &error);

  if (models == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  if (!has_model (models, source))
    {
      fprintf (stderr, _("headroom-cli: %s has no model \"%s\" to copy\n"), hr_ollama_client_get_base_url (client), source);
      return HR_CLI_EXIT_FAILED;
    }
  if (has_model (models, destination) && !v->force)
    {
      fprintf (stderr, _("headroom-cli: %s already has a model \"%s\"; choose another name, or --force to replace it\n"),
               hr_ollama_client_get_base_url (client), destination);
      return HR_CLI_EXIT_FAILED;
    }
  hr_ollama_client_copy_async (client, source, destination, NULL, on_done, &w);
  if (!hr_ollama_client_copy_finish (client, wait_for (&w), &error))
    return hr_cli_fail (g_steal_pointer (&error));
  printf (_("copied %s to %s\n"), source, destination);
  return HR_CLI_EXIT_OK;
}

/* Loads @model with its own parameters, then sets what /api/ps says beside
 * the runtime model's prediction at the context it loaded with. */
static int
cmd_load (HrOllamaClient *client,
          VariantOptions *v,
          const char     *model)
{
  g_auto(Wait) w = { g_main_loop_new (NULL, FALSE), NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(HrOllamaShow) show = NULL;
  g_autofree char *version = NULL;
  const HrOllamaLoaded *found = NULL;

  hr_ollama_client_version_async (client, NULL, on_done, &w);
  version = hr_ollama_client_version_finish (client, wait_for (&w), &error);
  if (version == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  hr_ollama_client_preload_async (client, model, v->keep_alive, NULL, on_done, &w);
  if (!hr_ollama_client_preload_finish (client, wait_for (&w), &error))
    return hr_cli_fail (g_steal_pointer (&error));
  hr_ollama_client_ps_async (client, NULL, on_done, &w);
  loaded = hr_ollama_client_ps_finish (client, wait_for (&w), &error);
  if (loaded == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  for (guint i = 0; i < loaded->len && found == NULL; i++)
    {
      const HrOllamaLoaded *l = g_ptr_array_index (loaded, i);

      if (hr_ollama_model_name_equal (l->name, model))
        found = l;
    }
  if (found == NULL)
    {
      fprintf (stderr, _("headroom-cli: %s loaded %s but /api/ps does not list it (unloaded again at once: "
                         "a keep-alive of 0?)\n"), hr_ollama_client_get_base_url (client), model);
      return HR_CLI_EXIT_FAILED;
    }
  {
    g_autofree char *size = hr_ollama_format_size (found->size);
    g_autofree char *processor = hr_ollama_format_processor (found->size, found->size_vram);

    printf (_("loaded %s: /api/ps %s, %s, context %u\n"), model, size, processor, found->context_length);
  }
  hr_ollama_client_show_async (client, model, NULL, on_done, &w);
  show = hr_ollama_client_show_finish (client, wait_for (&w), &error);
  if (show != NULL && found->context_length > 0)
    {
      guint64 predicted = 0;
      g_autofree char *source = NULL;

      if (hr_measure_predict_runtime (show->spec, found->context_length, version, &predicted, &source, NULL))
        {
          g_autofree char *text = hr_format_bytes (predicted, HR_UNIT_GB, 2);
          double diff = ((double) found->size - (double) predicted) / 1e9;
          char diff_text[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (diff_text, sizeof diff_text, "%+.2f", diff);
          printf (_("predicted %s (%s); difference %s GB\n"), text, source, diff_text);
        }
    }
  printf (_("save it as a measurement on this server's board with: headroom-cli ollama measure %s --contexts %u\n"),
          model, found->context_length);
  return HR_CLI_EXIT_OK;
}

/**
 * hr_cli_cmd_ollama_variant:
 * @argc: arguments, from the ones before the command on
 * @argv: (array length=argc): `[--host URL] [--timeout S] create-variant
 *   MODEL [--context N|--max-context] [--num-gpu L] [--name NEW] [--force]
 *   [--dry-run] [SIZING] [--json]`, `copy SOURCE DESTINATION [--force]` or
 *   `load MODEL [--keep-alive D]`
 *
 * Makes the board run a model the way Headroom sized it. create-variant
 * checks the server's version (Ollama 0.5.5 or newer), that the source is
 * there and that the new name is not (unless --force), prints the exact
 * request, and sends it; --kv-type, --flash-attention and --parallel are
 * the server's environment (OLLAMA_KV_CACHE_TYPE, OLLAMA_FLASH_ATTENTION,
 * OLLAMA_NUM_PARALLEL), printed, not sent.
 *
 * Returns: 0 ok, 1 refused or failed, 2 for bad arguments.
 */
int
hr_cli_cmd_ollama_variant (int    argc,
                           char **argv)
{
  g_auto(VariantOptions) v = { 0 };
#define o (v.p)
  GOptionEntry entries[] = {
    { "host", 0, 0, G_OPTION_ARG_STRING, &v.host, N_("The Ollama server (default: OLLAMA_HOST, else http://localhost:11434)"), N_("URL") },
    { "timeout", 0, 0, G_OPTION_ARG_STRING, &v.timeout_text, N_("The longest silence accepted from the server, for every wait"), N_("SECONDS") },
    { "name", 0, 0, G_OPTION_ARG_STRING, &v.name, N_("create-variant: the new model's name (default: the source's with what changed, e.g. llama3.1:8b-ctx24k)"), N_("NEW") },
    { "num-gpu", 0, 0, G_OPTION_ARG_STRING, &v.num_gpu_text, N_("create-variant: layers on the GPU (num_gpu)"), N_("L") },
    { "max-context", 0, 0, G_OPTION_ARG_NONE, &o.max_context, N_("create-variant: the largest context at which every layer fits the board's GPU"), NULL },
    { "force", 0, 0, G_OPTION_ARG_NONE, &v.force, N_("create-variant, copy: replace a model of that name"), NULL },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &v.dry_run, N_("create-variant: print the request without sending it"), NULL },
    { "keep-alive", 0, 0, G_OPTION_ARG_STRING, &v.keep_alive, N_("load: how long the model stays loaded (30m, 2h, -1 for until unloaded; default: the server's)"), N_("DURATION") },
    HR_CLI_SIZING_OPTIONS,
    OPT_JSON,
    { NULL }
  };
#undef o
  g_autoptr(GOptionContext) context = g_option_context_new (_("create-variant MODEL|copy SOURCE DESTINATION|load MODEL"));
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaClient) client = NULL;
  g_autofree char *host = NULL;
  const char *verb;
  guint wanted;

  g_set_prgname ("headroom-cli ollama");
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return hr_cli_usage_error ("%s", error->message);
  verb = argv[1];
  wanted = g_str_equal (verb, "copy") ? 4 : 3;
  if ((guint) argc != wanted)
    return hr_cli_usage_error (g_str_equal (verb, "copy") ?
                               _("ollama copy takes a source and a destination, e.g. headroom-cli ollama copy llama3.2:3b llama3.2:mine") :
                               _("ollama %s takes one model name, e.g. headroom-cli ollama %s llama3.2:3b"), verb, verb);
  for (int i = 2; i < argc; i++)
    {
      HrOllamaModelName name;

      if (!hr_ollama_model_name_parse (argv[i], &name, &error))
        return hr_cli_usage_error ("%s", error->message);
      hr_ollama_model_name_clear (&name);
    }
  if (!hr_cli_predict_options_resolve (&v.p, NULL))
    return HR_CLI_EXIT_USAGE;
  if (!g_str_equal (verb, "create-variant") &&
      (v.name != NULL || v.num_gpu_text != NULL || v.p.max_context || v.dry_run || v.p.context_text != NULL))
    return hr_cli_usage_error ("%s", _("--name, --num-gpu, --context, --max-context and --dry-run only go with create-variant"));
  if (v.keep_alive != NULL && !g_str_equal (verb, "load"))
    return hr_cli_usage_error ("%s", _("--keep-alive only goes with load"));
  if (v.force && g_str_equal (verb, "load"))
    return hr_cli_usage_error ("%s", _("--force goes with create-variant and copy"));

  host = v.host != NULL ? g_strdup (v.host) : hr_ollama_default_host (NULL);
  client = hr_ollama_client_new (host, &error);
  if (client == NULL)
    return hr_cli_usage_error ("%s", error->message);
  hr_ollama_client_set_token (client, g_getenv ("HEADROOM_OLLAMA_TOKEN"));
  if (v.timeout_text != NULL)
    {
      guint32 seconds;

      if (!hr_cli_parse_u32 ("--timeout", v.timeout_text, 1, 86400, &seconds))
        return HR_CLI_EXIT_USAGE;
      hr_ollama_client_set_timeouts (client, seconds * 1000, MIN (seconds, 10) * 1000, seconds * 1000);
      hr_ollama_client_set_load_wait (client, seconds * 1000);
    }

  if (g_str_equal (verb, "create-variant"))
    return cmd_create_variant (client, &v, argv[2]);
  if (g_str_equal (verb, "copy"))
    return cmd_copy (client, &v, argv[2], argv[3]);
  return cmd_load (client, &v, argv[2]);
}
