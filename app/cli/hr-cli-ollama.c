/* hr-cli-ollama.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli ollama`: manage a board's Ollama server over its HTTP API
 * (version, list, ps, show, pull, unload, delete; measure is
 * hr-cli-ollama-measure.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-cli-ollama.h"
#include "hr-error.h"
#include "hr-net-error.h"
#include "hr-ollama-client.h"
#include "hr-ollama-host.h"
#include "hr-pull-progress.h"
#include "hr-units.h"

/* ------------------------------------------------------------------ */
/* Shared by the commands (hr-cli-ollama.h)                            */

/**
 * hr_cli_ollama_options_clear:
 * @o: options hr_cli_cmd_ollama() parsed
 *
 * Frees the option strings of @o.
 */
void
hr_cli_ollama_options_clear (OllamaOptions *o)
{
  g_free (o->host);
  g_free (o->contexts_text);
  g_free (o->runs_text);
  g_free (o->num_predict_text);
  g_free (o->board);
  g_free (o->size_text);
  g_free (o->timeout_text);
  g_free (o->measurements);
}

/**
 * hr_cli_waiter_init:
 * @w: a waiter on the stack
 *
 * Makes @w's main loop, with no answer yet.
 */
void
hr_cli_waiter_init (HrCliWaiter *w)
{
  w->loop = g_main_loop_new (NULL, FALSE);
  w->result = NULL;
}

/**
 * hr_cli_waiter_clear:
 * @w: a waiter
 *
 * Drops @w's answer and main loop.
 */
void
hr_cli_waiter_clear (HrCliWaiter *w)
{
  g_clear_object (&w->result);
  g_clear_pointer (&w->loop, g_main_loop_unref);
}

/**
 * hr_cli_waiter_on_answer:
 * @source: the object the call was made on
 * @result: its answer
 * @user_data: the #HrCliWaiter
 *
 * A #GAsyncReadyCallback: keeps @result and stops the waiter's loop.
 */
void
hr_cli_waiter_on_answer (GObject      *source,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  HrCliWaiter *w = user_data;

  w->result = g_object_ref (result);
  g_main_loop_quit (w->loop);
}

/**
 * hr_cli_waiter_wait:
 * @w: a waiter passed to an async call with hr_cli_waiter_on_answer()
 *
 * Runs the main loop until the call has answered.
 *
 * Returns: (transfer none): the answer, for the call's _finish()
 */
GAsyncResult *
hr_cli_waiter_wait (HrCliWaiter *w)
{
  if (w->result == NULL)
    g_main_loop_run (w->loop);
  return w->result;
}

/**
 * hr_cli_on_sigint:
 * @cancellable: the #GCancellable of the call in progress
 *
 * A g_unix_signal_add() handler for SIGINT: cancels @cancellable.
 *
 * Returns: %G_SOURCE_CONTINUE
 */
gboolean
hr_cli_on_sigint (gpointer cancellable)
{
  g_cancellable_cancel (G_CANCELLABLE (cancellable));
  return G_SOURCE_CONTINUE;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */

static JsonNode *
take_builder_root (JsonBuilder *b)
{
  return json_builder_get_root (b);
}

static void
add_string (JsonBuilder *b,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* ------------------------------------------------------------------ */

static int
cmd_version (HrOllamaClient *client,
             OllamaOptions  *o)
{
  g_auto(HrCliWaiter) w = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *version = NULL;

  hr_cli_waiter_init (&w);
  hr_ollama_client_version_async (client, NULL, hr_cli_waiter_on_answer, &w);
  version = hr_ollama_client_version_finish (client, hr_cli_waiter_wait (&w), &error);
  if (version == NULL)
    return hr_cli_fail (g_steal_pointer (&error));

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      add_string (b, "server", hr_ollama_client_get_base_url (client));
      add_string (b, "version", version);
      json_builder_end_object (b);
      root = take_builder_root (b);
      hr_cli_print_json (root);
    }
  else
    printf ("%s\n", version);
  return HR_CLI_EXIT_OK;
}

static int
cmd_list (HrOllamaClient *client,
          OllamaOptions  *o)
{
  g_auto(HrCliWaiter) w = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = NULL;
  int nw = 32;

  hr_cli_waiter_init (&w);
  hr_ollama_client_tags_async (client, NULL, hr_cli_waiter_on_answer, &w);
  models = hr_ollama_client_tags_finish (client, hr_cli_waiter_wait (&w), &error);
  if (models == NULL)
    return hr_cli_fail (g_steal_pointer (&error));

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_array (b);
      for (guint i = 0; i < models->len; i++)
        {
          const HrOllamaModel *m = g_ptr_array_index (models, i);

          json_builder_begin_object (b);
          add_string (b, "name", m->name);
          add_string (b, "digest", m->digest);
          add_int (b, "size", (gint64) m->size);
          add_string (b, "family", m->family);
          add_string (b, "parameter_size", m->parameter_size);
          add_string (b, "quantization_level", m->quantization_level);
          add_string (b, "modified_at", m->modified_at);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      root = take_builder_root (b);
      hr_cli_print_json (root);
      return HR_CLI_EXIT_OK;
    }

  for (guint i = 0; i < models->len; i++)
    nw = MAX (nw, (int) MIN (strlen (((const HrOllamaModel *) g_ptr_array_index (models, i))->name), 1000));
  /* TRANSLATORS: column headings of `headroom-cli ollama list`, as `ollama list` has them */
  printf ("%-*s %-12s  %8s  %-10s  %-12s  %s\n", nw, _("NAME"), _("ID"), _("SIZE"), _("PARAMETERS"),
          _("QUANTIZATION"), _("MODIFIED"));
  for (guint i = 0; i < models->len; i++)
    {
      const HrOllamaModel *m = g_ptr_array_index (models, i);
      g_autofree char *id = hr_ollama_digest_short (m->digest);
      g_autofree char *size = hr_ollama_format_size (m->size);
      g_autofree char *modified = g_strndup (m->modified_at != NULL ? m->modified_at : "", 10);

      printf ("%-*s %-12s  %8s  %-10s  %-12s  %s\n", nw, m->name, id != NULL ? id : "", size,
              m->parameter_size != NULL ? m->parameter_size : "",
              m->quantization_level != NULL ? m->quantization_level : "", modified);
    }
  return HR_CLI_EXIT_OK;
}

static int
cmd_ps (HrOllamaClient *client,
        OllamaOptions  *o)
{
  g_auto(HrCliWaiter) w = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  int nw = 32;

  hr_cli_waiter_init (&w);
  hr_ollama_client_ps_async (client, NULL, hr_cli_waiter_on_answer, &w);
  loaded = hr_ollama_client_ps_finish (client, hr_cli_waiter_wait (&w), &error);
  if (loaded == NULL)
    return hr_cli_fail (g_steal_pointer (&error));

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_array (b);
      for (guint i = 0; i < loaded->len; i++)
        {
          const HrOllamaLoaded *l = g_ptr_array_index (loaded, i);
          g_autofree char *processor = hr_ollama_format_processor (l->size, l->size_vram);
          g_autofree char *expires = l->expires_at != NULL ? g_date_time_format_iso8601 (l->expires_at) : NULL;

          json_builder_begin_object (b);
          add_string (b, "name", l->name);
          add_string (b, "digest", l->digest);
          add_int (b, "size", (gint64) l->size);
          add_int (b, "size_vram", (gint64) l->size_vram);
          add_string (b, "processor", processor);
          /* 0: a server older than context_length in /api/ps */
          json_builder_set_member_name (b, "context_length");
          if (l->context_length > 0)
            json_builder_add_int_value (b, l->context_length);
          else
            json_builder_add_null_value (b);
          add_string (b, "expires_at", expires);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      root = take_builder_root (b);
      hr_cli_print_json (root);
      return HR_CLI_EXIT_OK;
    }

  for (guint i = 0; i < loaded->len; i++)
    nw = MAX (nw, (int) MIN (strlen (((const HrOllamaLoaded *) g_ptr_array_index (loaded, i))->name), 1000));
  /* TRANSLATORS: column headings of `headroom-cli ollama ps`, as `ollama ps` has them */
  printf ("%-*s %-12s  %8s  %-16s  %7s  %s\n", nw, _("NAME"), _("ID"), _("SIZE"), _("PROCESSOR"),
          _("CONTEXT"), _("UNTIL"));
  for (guint i = 0; i < loaded->len; i++)
    {
      const HrOllamaLoaded *l = g_ptr_array_index (loaded, i);
      g_autofree char *id = hr_ollama_digest_short (l->digest);
      /* A size of 0: the server gave none (never a model of 0 bytes). */
      g_autofree char *size = l->size > 0 ? hr_ollama_format_size (l->size) : g_strdup (_("unknown"));
      g_autofree char *processor = hr_ollama_format_processor (l->size, l->size_vram);
      g_autofree char *until = hr_ollama_format_until (l->expires_at, now);
      /* 0: a server older than context_length in /api/ps said none */
      g_autofree char *context = l->context_length > 0 ? g_strdup_printf ("%u", l->context_length)
                                                       : g_strdup (_("unknown"));

      printf ("%-*s %-12s  %8s  %-16s  %7s  %s\n", nw, l->name, id != NULL ? id : "", size, processor,
              context, until);
    }
  return HR_CLI_EXIT_OK;
}

/* ollama show --json: the spec's figures and the weights' sizes. */
static void
print_show_json (const HrOllamaShow *show)
{
  const HrModelSpec *s = show->spec;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  add_string (b, "name", s->name);
  add_string (b, "architecture", s->architecture);
  add_int (b, "parameters", (gint64) s->parameters);
  add_string (b, "quantization", show->quantization);
  add_string (b, "precision", s->precision);
  add_int (b, "weight_bytes", (gint64) show->weight_bytes);
  json_builder_set_member_name (b, "bits_per_weight");
  json_builder_add_double_value (b, round (show->bits_per_weight * 1000) / 1000);
  add_int (b, "tensors", show->n_tensors);
  add_int (b, "unknown_tensors", show->n_unknown_tensors);
  add_string (b, "unknown_tensor_type", show->unknown_type);
  add_int (b, "layers", s->layers);
  add_int (b, "heads", s->heads);
  add_int (b, "kv_heads", s->kv_heads);
  add_int (b, "key_length", s->key_length);
  add_int (b, "value_length", s->value_length);
  add_int (b, "context_length", s->context_length);
  add_int (b, "sliding_window", s->sliding_window);
  json_builder_set_member_name (b, "tied_embeddings");
  json_builder_add_boolean_value (b, show->tied_embeddings);
  json_builder_end_object (b);
  root = take_builder_root (b);
  hr_cli_print_json (root);
}

/* ollama show as text: one "field value" a line, the field names as the
 * JSON's. */
static void
print_show_text (const HrOllamaShow *show)
{
  const HrModelSpec *s = show->spec;
  g_autofree char *params = hr_format_count (s->parameters);
  g_autofree char *weights = hr_format_count (show->weight_bytes);
  g_autofree char *weights_gb = hr_format_gb_gib (show->weight_bytes, 2);
  char bits[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (bits, sizeof bits, "%.3f", show->bits_per_weight);
  printf ("%-18s %s\n", "name", s->name);
  printf ("%-18s %s\n", "architecture", s->architecture);
  printf ("%-18s %s\n", "parameters", params);
  printf ("%-18s %s\n", "quantization", show->quantization != NULL ? show->quantization : _("unknown"));
  if (show->weight_bytes > 0)
    {
      printf ("%-18s %s (%s, %u tensors)\n", "weight_bytes", weights, weights_gb, show->n_tensors);
      if (show->n_unknown_tensors == 0)
        printf ("%-18s %s\n", "bits_per_weight", bits);
      printf ("%-18s %s\n", "tied_embeddings", show->tied_embeddings ? _("yes") : _("no"));
    }
  if (show->n_unknown_tensors > 0)
    {
      /* Translators: after a count of tensors; %s is their type as Ollama names it ("Q9_Z") */
      g_autofree char *why = g_strdup_printf (_("(unknown size: of a type this version does not know, such as %s; weight_bytes leaves them out)"),
                                              show->unknown_type);

      printf ("%-18s %u %s\n", "unknown_tensors", show->n_unknown_tensors, why);
    }
  printf ("%-18s %u\n", "layers", s->layers);
  printf ("%-18s %u\n", "heads", s->heads);
  printf ("%-18s %u%s\n", "kv_heads", s->kv_heads, s->layer_kv_heads != NULL ? _(" (per layer, the most)") : "");
  printf ("%-18s %u\n", "key_length", s->key_length);
  printf ("%-18s %u\n", "value_length", s->value_length);
  printf ("%-18s %u\n", "context_length", s->context_length);
  if (s->sliding_window > 0)
    printf ("%-18s %u\n", "sliding_window", s->sliding_window);
}

static int
cmd_show (HrOllamaClient *client,
          OllamaOptions  *o,
          const char     *model)
{
  g_auto(HrCliWaiter) w = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = NULL;

  hr_cli_waiter_init (&w);
  hr_ollama_client_show_async (client, model, NULL, hr_cli_waiter_on_answer, &w);
  show = hr_ollama_client_show_finish (client, hr_cli_waiter_wait (&w), &error);
  if (show == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  if (o->json)
    print_show_json (show);
  else
    print_show_text (show);
  return HR_CLI_EXIT_OK;
}

static int
cmd_simple (HrOllamaClient *client,
            OllamaOptions  *o,
            const char     *verb,
            const char     *model)
{
  g_auto(HrCliWaiter) w = { 0 };
  g_autoptr(GError) error = NULL;
  gboolean ok;

  hr_cli_waiter_init (&w);
  if (g_str_equal (verb, "unload"))
    {
      hr_ollama_client_unload_async (client, model, NULL, hr_cli_waiter_on_answer, &w);
      ok = hr_ollama_client_unload_finish (client, hr_cli_waiter_wait (&w), &error);
    }
  else
    {
      hr_ollama_client_delete_async (client, model, NULL, hr_cli_waiter_on_answer, &w);
      ok = hr_ollama_client_delete_finish (client, hr_cli_waiter_wait (&w), &error);
    }
  if (!ok)
    return hr_cli_fail (g_steal_pointer (&error));

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      add_string (b, "model", model);
      add_string (b, g_str_equal (verb, "unload") ? "unloaded" : "deleted", model);
      json_builder_end_object (b);
      root = take_builder_root (b);
      hr_cli_print_json (root);
    }
  else if (g_str_equal (verb, "unload"))
    printf (_("unloaded %s\n"), model);
  else
    printf (_("deleted %s\n"), model);
  return HR_CLI_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* pull                                                                */

typedef struct {
  gboolean terminal;
  char    *last_status;
  int      last_decile;
  gboolean stalled_said;
  gsize    last_width;
} PullPrinter;

static void
on_pull_progress (const HrPullProgress *progress,
                  gpointer              user_data)
{
  PullPrinter *p = user_data;
  gint64 now = g_get_monotonic_time ();
  g_autofree char *line = hr_pull_progress_describe (progress, now);
  double fraction = hr_pull_progress_fraction (progress);
  gboolean stalled = hr_pull_progress_stalled (progress, now);
  int decile = fraction < 0 ? -1 : (int) floor (fraction * 10);

  if (p->terminal)
    {
      gsize width = g_utf8_strlen (line, -1);

      printf ("\r%s", line);
      for (gsize i = width; i < p->last_width; i++)
        putchar (' ');
      p->last_width = width;
      fflush (stdout);
      return;
    }

  /* Plain lines: one per status change, per tenth of the bar, per stall. */
  if (g_strcmp0 (progress->status, p->last_status) != 0 || decile != p->last_decile ||
      (stalled && !p->stalled_said))
    {
      printf ("%s\n", line);
      fflush (stdout);
      g_free (p->last_status);
      p->last_status = g_strdup (progress->status);
      p->last_decile = decile;
    }
  p->stalled_said = stalled;
}

/* The pull check (docs/seed-figures.md, "Checking a pull"):
 * every reason at once, from the catalog and the board. */
static GPtrArray *
pull_reasons (const char     *model,
              OllamaOptions  *o,
              GError        **error)
{
  g_auto(HrCliContext) ctx = { 0 };
  const HrModelSpec *spec;
  g_autoptr(HrModelSpec) library = NULL;
  GPtrArray *reasons;
  HrEvaluation e;
  HrEvaluationInputs s;

  if (!hr_cli_context_load (&ctx, o->board, NULL, o->measurements, error))
    return NULL;

  spec = hr_catalog_find (ctx.catalog, model);
  if (spec == NULL && o->size_text == NULL)
    {
      /* A model the catalog lacks is looked up in the Ollama library and
       * checked with its exact figures; --size stays for offline use. */
      g_autoptr(GError) lookup_error = NULL;

      library = hr_cli_library_spec (model, &lookup_error);
      if (library == NULL)
        {
          reasons = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (reasons, g_strdup_printf (_("\"%s\" is not in the catalog and could not be sized from the Ollama library: %s (give its download size with --size GB to check it anyway)"),
                                                     model, lookup_error->message));
          return reasons;
        }
      fprintf (stderr, "headroom-cli: %s\n", _("note: the model is not in the catalog; it was sized from its manifest and GGUF header in the Ollama library"));
      spec = library;
    }
  hr_cli_context_scenario (&ctx, ctx.board, &ctx.fit, &s);
  if (spec == NULL)
    {
      /* A model the catalog does not know: the size the user gives stands
       * for its weights; with no layer figures its KV cache is unknown. */
      g_autoptr(HrModelSpec) given = hr_model_spec_new (model);
      char *end = NULL;
      double gb = g_ascii_strtod (o->size_text, &end);

      if (end == o->size_text || *end != '\0' || !(gb > 0.0) || gb > 1e6)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                       _("--size must be a positive number of GB, not \"%s\""), o->size_text);
          return NULL;
        }
      given->file_bytes = hr_bytes_from_gb (gb);
      hr_evaluate (&s, given, NAN, 0, &e);
      fprintf (stderr, "headroom-cli: %s\n",
               _("note: the model is not in the catalog; only the size you gave is checked (its KV cache is not known)"));
      return hr_pull_check (given, &e, s.floor_tps);
    }
  hr_evaluate (&s, spec, hr_cli_context_measured_tps (&ctx, spec->name), 0, &e);
  return hr_pull_check (spec, &e, s.floor_tps);
}

/* pull --json: {model, pulled, and the reasons it was refused (with
 * @refused) or whether it was forced}. */
static void
print_pull_json (const char *model,
                 GPtrArray  *refused,
                 gboolean    forced)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  add_string (b, "model", model);
  json_builder_set_member_name (b, "pulled");
  json_builder_add_boolean_value (b, refused == NULL);
  if (refused != NULL)
    {
      json_builder_set_member_name (b, "reasons");
      json_builder_begin_array (b);
      for (guint i = 0; i < refused->len; i++)
        json_builder_add_string_value (b, g_ptr_array_index (refused, i));
      json_builder_end_array (b);
    }
  else
    {
      json_builder_set_member_name (b, "forced");
      json_builder_add_boolean_value (b, forced);
    }
  json_builder_end_object (b);
  root = take_builder_root (b);
  hr_cli_print_json (root);
}

/* Prints the pull check's @reasons: refused, the answer (stdout, unless
 * --json says it); forced, warnings (stderr). Returns whether the pull is
 * refused. */
static gboolean
say_pull_reasons (OllamaOptions *o,
                  const char    *model,
                  GPtrArray     *reasons)
{
  if (reasons->len == 0)
    return FALSE;
  for (guint i = 0; i < reasons->len; i++)
    fprintf (o->force || o->json ? stderr : stdout, "  %s %s\n", o->force ? _("warning:") : _("refused:"),
             (char *) g_ptr_array_index (reasons, i));
  if (o->force)
    return FALSE;
  if (o->json)
    print_pull_json (model, reasons, FALSE);
  /* The conclusion comes after the reasons where both streams go
   * to one place (2>&1, a log). */
  fflush (stdout);
  fprintf (stderr, "headroom-cli: %s\n", _("the pull check refused it; run with --force to pull it anyway"));
  return TRUE;
}

/* Pulls @model, its progress printed (not with --json), until done,
 * failed or cancelled by Ctrl-C. */
static gboolean
pull_until_done (HrOllamaClient  *client,
                 OllamaOptions   *o,
                 const char      *model,
                 GError         **error)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_auto(HrCliWaiter) w = { 0 };
  PullPrinter printer = { isatty (fileno (stdout)) && !o->json, NULL, -2, FALSE, 0 };
  guint sigint;
  gboolean ok;

  hr_cli_waiter_init (&w);
  sigint = g_unix_signal_add (SIGINT, hr_cli_on_sigint, cancellable);
  hr_ollama_client_pull_async (client, model, o->json ? NULL : on_pull_progress, &printer,
                               cancellable, hr_cli_waiter_on_answer, &w);
  ok = hr_ollama_client_pull_finish (client, hr_cli_waiter_wait (&w), error);
  g_source_remove (sigint);
  if (printer.terminal)
    printf ("\n");
  g_free (printer.last_status);
  return ok;
}

static int
cmd_pull (HrOllamaClient *client,
          OllamaOptions  *o,
          const char     *model)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) reasons = pull_reasons (model, o, &error);

  if (reasons == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  if (say_pull_reasons (o, model, reasons))
    return HR_CLI_EXIT_FAILED;

  if (!pull_until_done (client, o, model, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = hr_pull_cancelled_message (model);
          fflush (stdout);
          fprintf (stderr, "headroom-cli: %s\n", message);
          return HR_CLI_EXIT_FAILED;
        }
      return hr_cli_fail (g_steal_pointer (&error));
    }

  if (o->json)
    print_pull_json (model, NULL, reasons->len > 0);
  else
    printf (_("pulled %s\n"), model);
  return HR_CLI_EXIT_OK;
}

/* The commands hr_cli_cmd_ollama() parses itself, and whether each takes
 * one MODEL. */
static const struct {
  const char *verb;
  gboolean    takes_model;
} ollama_verbs[] = {
  { "version", FALSE },
  { "list",    FALSE },
  { "ps",      FALSE },
  { "show",    TRUE },
  { "measure", TRUE },
  { "pull",    TRUE },
  { "unload",  TRUE },
  { "delete",  TRUE },
};

/* Whether the command (the first word that is not an option or the value
 * of --host or --timeout) is one that acts on what was sized and so takes
 * the sizing options: hr_cli_cmd_ollama_variant()'s. */
static gboolean
is_variant_command (int    argc,
                    char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--host") || g_str_equal (argv[i], "--timeout"))
        {
          i++;
          continue;
        }
      if (argv[i][0] == '-')
        continue;
      return g_str_equal (argv[i], "create-variant") || g_str_equal (argv[i], "copy") || g_str_equal (argv[i], "load");
    }
  return FALSE;
}

/* Checks the command word and its MODEL (into @model, %NULL for a command
 * without one); the exit code. */
static int
check_verb (int          argc,
            char       **argv,
            const char **model)
{
  g_autoptr(GError) error = NULL;
  const char *verb;
  gint found = -1;
  HrOllamaModelName name;

  if (argc < 2)
    return hr_cli_usage_error ("%s", _("ollama needs a command: version, list, ps, show, measure, pull, unload, delete, create-variant, copy or load"));
  verb = argv[1];
  for (guint i = 0; i < G_N_ELEMENTS (ollama_verbs) && found < 0; i++)
    if (g_str_equal (verb, ollama_verbs[i].verb))
      found = (gint) i;
  if (found < 0)
    return hr_cli_usage_error (_("unknown ollama command \"%s\"; use version, list, ps, show, measure, pull, unload, delete, create-variant, copy or load"), verb);
  if (ollama_verbs[found].takes_model && argc != 3)
    return hr_cli_usage_error (_("ollama %s takes one model name, e.g. headroom-cli ollama %s llama3.2:3b"), verb, verb);
  if (!ollama_verbs[found].takes_model && argc != 2)
    return hr_cli_usage_error (_("unexpected argument \"%s\""), argv[2]);
  *model = NULL;
  if (!ollama_verbs[found].takes_model)
    return HR_CLI_EXIT_OK;
  *model = argv[2];
  if (!hr_ollama_model_name_parse (*model, &name, &error))
    return hr_cli_usage_error ("%s", error->message);
  hr_ollama_model_name_clear (&name);
  return HR_CLI_EXIT_OK;
}

/* Checks that each command's own options come only with it; the exit
 * code. */
static int
check_option_pairs (const OllamaOptions *o,
                    const char          *verb)
{
  if (o->size_text != NULL && !g_str_equal (verb, "pull"))
    return hr_cli_usage_error ("%s", _("--size only goes with pull"));
  if (o->size_text != NULL)
    {
      char *end = NULL;
      double gb = g_ascii_strtod (o->size_text, &end);

      if (end == o->size_text || *end != '\0' || !(gb > 0.0) || gb > 1e6)
        return hr_cli_usage_error (_("--size must be a positive number of GB, not \"%s\""), o->size_text);
    }
  if (o->force && !g_str_equal (verb, "pull"))
    return hr_cli_usage_error ("%s", _("--force only goes with pull"));
  if ((o->contexts_text != NULL || o->runs_text != NULL || o->num_predict_text != NULL) && !g_str_equal (verb, "measure"))
    return hr_cli_usage_error ("%s", _("--contexts, --runs and --num-predict only go with measure"));
  if (o->all && !g_str_equal (verb, "ps"))
    return hr_cli_usage_error ("%s", _("--all only goes with ps"));
  if (o->all && o->host != NULL)
    return hr_cli_usage_error ("%s", _("ps --all asks every server the window saved; --host names one: give one or the other"));
  return HR_CLI_EXIT_OK;
}

/* The client of --host (else OLLAMA_HOST, else localhost), with the token
 * from HEADROOM_OLLAMA_TOKEN and --timeout's waits, into @out; the exit
 * code. */
static int
make_client (const OllamaOptions  *o,
             HrOllamaClient      **out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *host = o->host != NULL ? g_strdup (o->host) : hr_ollama_default_host (NULL);
  g_autoptr(HrOllamaClient) client = hr_ollama_client_new (host, &error);
  guint32 seconds;

  if (client == NULL)
    return hr_cli_usage_error ("%s", error->message);
  hr_ollama_client_set_token (client, g_getenv ("HEADROOM_OLLAMA_TOKEN"));
  if (o->timeout_text != NULL)
    {
      if (!hr_cli_parse_u32 ("--timeout", o->timeout_text, 1, 86400, &seconds))
        return 2;
      hr_ollama_client_set_timeouts (client, seconds * 1000, MIN (seconds, 10) * 1000, seconds * 1000);
      hr_ollama_client_set_load_wait (client, seconds * 1000);
    }
  *out = g_steal_pointer (&client);
  return HR_CLI_EXIT_OK;
}

/* Runs the checked command @verb on @client. */
static int
run_verb (HrOllamaClient *client,
          OllamaOptions  *o,
          const char     *verb,
          const char     *model)
{
  if (g_str_equal (verb, "version"))
    return cmd_version (client, o);
  if (g_str_equal (verb, "list"))
    return cmd_list (client, o);
  if (g_str_equal (verb, "ps"))
    return cmd_ps (client, o);
  if (g_str_equal (verb, "show"))
    return cmd_show (client, o, model);
  if (g_str_equal (verb, "measure"))
    return hr_cli_ollama_measure (client, o, model);
  if (g_str_equal (verb, "pull"))
    return cmd_pull (client, o, model);
  return cmd_simple (client, o, verb, model);
}

/**
 * hr_cli_cmd_ollama:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli ollama [--host URL] version|list|ps|show MODEL|measure MODEL
 * [--contexts 2048,4096] [--runs 3] [--num-predict 96]|pull MODEL
 * [--force]|unload MODEL|delete MODEL [--json]`: one board's Ollama server
 * through its HTTP API (docs/ollama.md). The host is --host, else
 * OLLAMA_HOST, else http://localhost:11434; a proxy's bearer token comes
 * from the HEADROOM_OLLAMA_TOKEN environment variable (never an argument,
 * where other users could read it). `pull` runs the pull check first and
 * refuses like `check` unless --force. Ctrl-C cancels a pull or a
 * measurement cleanly.
 *
 * Returns: 0 ok, 1 refused or failed, 2 for bad arguments.
 */
int
hr_cli_cmd_ollama (int    argc,
                   char **argv)
{
  g_auto(OllamaOptions) o = { 0 };
  GOptionEntry entries[] = {
    { "host", 0, 0, G_OPTION_ARG_STRING, &o.host, N_("The Ollama server (default: OLLAMA_HOST, else http://localhost:11434)"), N_("URL") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, N_("Print JSON"), NULL },
    { "force", 0, 0, G_OPTION_ARG_NONE, &o.force, N_("pull: pull even when the pull check refuses"), NULL },
    { "all", 0, 0, G_OPTION_ARG_NONE, &o.all, N_("ps: every server the window saved, asked at once"), NULL },
    { "contexts", 0, 0, G_OPTION_ARG_STRING, &o.contexts_text, N_("measure: num_ctx values (default 2048,4096)"), N_("N,N") },
    { "runs", 0, 0, G_OPTION_ARG_STRING, &o.runs_text, N_("measure: runs per context, the first cold (default 3)"), N_("N") },
    { "num-predict", 0, 0, G_OPTION_ARG_STRING, &o.num_predict_text, N_("measure: reply tokens per run (default 96)"), N_("N") },
    { "board", 0, 0, G_OPTION_ARG_STRING, &o.board, N_("measure: the board the measurement is saved to (default: the board the window saved for this server); pull: the board checked (default: the seed's Jetson Orin Nano Super)"), N_("NAME") },
    { "measurements", 0, 0, G_OPTION_ARG_FILENAME, &o.measurements, N_("measure, pull: the measurement archive"), N_("DIR") },
    { "size", 0, 0, G_OPTION_ARG_STRING, &o.size_text, N_("pull: the download size in GB of a model the catalog does not know"), N_("GB") },
    { "timeout", 0, 0, G_OPTION_ARG_STRING, &o.timeout_text,
      N_("The longest silence accepted from the server, for every wait (default: 10 s to connect, 30 s for an answer, 60 s between new lines of a stream, 600 s for a model to load)"),
      N_("SECONDS") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaClient) client = NULL;
  const char *model = NULL;
  int rc;

  if (is_variant_command (argc, argv))
    return hr_cli_cmd_ollama_variant (argc, argv);

  context = g_option_context_new (_("version|list|ps|show MODEL|measure MODEL|pull MODEL|unload MODEL|delete MODEL|create-variant MODEL|copy SOURCE DESTINATION|load MODEL"));
  g_set_prgname ("headroom-cli ollama");
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _("Manage a board's Ollama server over its HTTP API. A reverse proxy's bearer token is read from HEADROOM_OLLAMA_TOKEN."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return hr_cli_usage_error ("%s", error->message);

  if ((rc = check_verb (argc, argv, &model)) != HR_CLI_EXIT_OK ||
      (rc = check_option_pairs (&o, argv[1])) != HR_CLI_EXIT_OK)
    return rc;
  if (o.all)
    return hr_cli_ollama_ps_all (o.json);
  if ((rc = make_client (&o, &client)) != HR_CLI_EXIT_OK)
    return rc;
  return run_verb (client, &o, argv[1], model);
}
