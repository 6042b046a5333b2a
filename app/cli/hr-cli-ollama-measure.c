/* hr-cli-ollama-measure.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli ollama measure MODEL`: a run set against a board's Ollama
 * server (app/net/hr-measure.c runs it), its rows printed as they come
 * and the set saved into the measurement archive.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>

#include "hr-catalog.h"
#include "hr-cli.h"
#include "hr-cli-ollama.h"
#include "hr-error.h"
#include "hr-measure.h"
#include "hr-ollama-client.h"
#include "hr-ollama-host.h"
#include "hr-units.h"

/* The results table's header, once, when the first result arrives (a
 * server that is not there prints only the error). */
static void
print_measure_header (gboolean *printed)
{
  if (*printed)
    return;
  *printed = TRUE;
  /* TRANSLATORS: the seed's benchmark columns */
  printf ("%7s  %3s  %-5s  %8s  %9s  %8s  %11s  %7s  %6s\n", "num_ctx", _("run"), _("state"), "ttft_ms",
          "total_ms", "load_ms", "prefill_t/s", "out_tok", "t/s");
}

/* A run still without its first byte: said on stderr, so --json output
 * stays clean. */
static void
on_measure_waiting (HrMeasureRun *run,
                    const char   *text,
                    gpointer      user_data)
{
  fprintf (stderr, _("headroom-cli: %s; Ctrl-C cancels\n"), text);
}

static void
on_measure_run (HrMeasureRun *run,
                gpointer      result_ptr,
                gpointer      user_data)
{
  const HrMeasureResult *r = result_ptr;
  g_autofree char *load = hr_ollama_format_ms (r->load_duration);
  g_autofree char *prefill = hr_ollama_format_tps (r->prefill_tps);
  g_autofree char *decode = hr_ollama_format_tps (r->decode_tps);
  g_autofree char *ttft = r->ttft_ms < 0 ? g_strdup (_("n/a")) : g_strdup_printf ("%.1f", r->ttft_ms);
  g_autofree char *out = r->eval_count < 0 ? g_strdup (_("n/a")) : g_strdup_printf ("%" G_GINT64_FORMAT, r->eval_count);

  print_measure_header (user_data);
  printf ("%7u  %3u  %-5s  %8s  %9.1f  %8s  %11s  %7s  %6s", r->context, r->run,
          r->cold ? _("cold") : _("warm"), ttft, r->client_total_ms, load, prefill, out, decode);
  /* A run that broke off keeps its row: what the client measured. */
  if (r->failed != NULL)
    printf ("  %s", _("failed"));
  printf ("\n");
  fflush (stdout);
}

static void
on_measure_ps (HrMeasureRun *run,
               gpointer      ps_ptr,
               gpointer      user_data)
{
  const HrMeasurePs *p = ps_ptr;
  g_autofree char *size = hr_ollama_format_size (p->size);
  g_autofree char *processor = hr_ollama_format_processor (p->size, p->size_vram);

  print_measure_header (user_data);
  if (!p->listed)
    {
      printf (_("  num_ctx %u: /api/ps does not list the model\n"), p->context);
      return;
    }
  printf (_("  num_ctx %u: /api/ps %s, %s, context %u"), p->context, size, processor, p->context_length);
  if (p->predicted > 0)
    {
      g_autofree char *predicted = hr_format_bytes (p->predicted, HR_UNIT_GB, 2);
      char diff[G_ASCII_DTOSTR_BUF_SIZE], pct[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (diff, sizeof diff, "%+.2f", p->difference / 1e9);
      g_ascii_formatd (pct, sizeof pct, "%+.1f", p->difference_percent);
      printf (_("; predicted %s (%s); difference %s GB (%s%%)"), predicted, p->prediction_source, diff, pct);
    }
  printf ("\n");
  fflush (stdout);
}

static gboolean
parse_contexts (const char *text,
                GArray     *out)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint32 value;

      g_strstrip (parts[i]);
      if (!hr_cli_parse_u32 ("--contexts", parts[i], 1, 64u * 1024u * 1024u, &value))
        return FALSE;
      g_array_append_val (out, value);
    }
  if (out->len == 0)
    {
      hr_cli_usage_error ("%s", _("--contexts needs at least one num_ctx, e.g. --contexts 2048,4096"));
      return FALSE;
    }
  return TRUE;
}

/* measure's settings, from its options. */
typedef struct {
  GArray  *contexts;     /* guint32 num_ctx values */
  guint32  runs;
  guint32  num_predict;
} MeasureSettings;

/* Reads --contexts, --runs and --num-predict into @m (its contexts
 * array made by the caller); FALSE after the usage error. */
static gboolean
parse_measure_settings (const OllamaOptions *o,
                        MeasureSettings     *m)
{
  m->runs = HR_MEASURE_RUNS;
  m->num_predict = HR_MEASURE_NUM_PREDICT;
  if (!parse_contexts (o->contexts_text != NULL ? o->contexts_text : "2048,4096", m->contexts))
    return FALSE;
  if (o->runs_text != NULL && !hr_cli_parse_u32 ("--runs", o->runs_text, 1, 100, &m->runs))
    return FALSE;
  if (o->num_predict_text != NULL && !hr_cli_parse_u32 ("--num-predict", o->num_predict_text, 1, 1000000, &m->num_predict))
    return FALSE;
  return TRUE;
}

/* Loads the board the run set is filed under into @ctx, and says which
 * on stderr; the exit code. */
static int
load_measure_board (HrOllamaClient *client,
                    OllamaOptions  *o,
                    HrCliContext   *ctx)
{
  g_autofree char *saved_board = NULL;
  g_autoptr(GError) error = NULL;

  /* The board the archive files the run set under: --board, else the
   * board the window remembers for this server. With neither, the run set
   * would be filed under a board that may not be the one measured, so
   * nothing is run. */
  if (o->board == NULL)
    {
      saved_board = hr_cli_saved_board_for_server (hr_ollama_client_get_base_url (client));
      if (saved_board == NULL)
        return hr_cli_usage_error (_("no board is saved for %s: name the board this server runs on with --board NAME (headroom-cli boards lists them), so the measurement is filed under it"),
                                   hr_ollama_client_get_base_url (client));
    }
  /* --measurements is where the run set is saved, a new folder made then:
   * only one that is there is read (and must be a folder that opens). */
  if (!hr_cli_context_load (ctx, o->board != NULL ? o->board : saved_board, NULL,
                            o->measurements != NULL && g_file_test (o->measurements, G_FILE_TEST_EXISTS) ? o->measurements : NULL,
                            &error))
    {
      if (g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
        return hr_cli_usage_error ("%s", error->message);
      return hr_cli_fail (g_steal_pointer (&error));
    }
  /* Say which board the run set is filed under before it starts. */
  if (o->board != NULL)
    fprintf (stderr, _("headroom-cli: saving the measurement to board %s (%s)\n"), ctx->board->id, ctx->board->name);
  else
    fprintf (stderr, _("headroom-cli: saving the measurement to board %s (%s), the board saved for this server; --board NAME chooses another\n"),
             ctx->board->id, ctx->board->name);
  return HR_CLI_EXIT_OK;
}

/* A run set for @model on @board, saved into @archive; its rows printed
 * as they come (not with --json, @header_printed says when the header
 * is). */
static HrMeasureRun *
new_measure_run (HrOllamaClient        *client,
                 const OllamaOptions   *o,
                 const char            *model,
                 const HrBoard         *board,
                 const MeasureSettings *m,
                 const char            *archive,
                 gboolean              *header_printed)
{
  HrMeasureRun *run = hr_measure_run_new (client, model, board->id);

  hr_measure_run_set_contexts (run, (const guint32 *) m->contexts->data, m->contexts->len);
  hr_measure_run_set_runs (run, m->runs);
  hr_measure_run_set_num_predict (run, m->num_predict);
  hr_measure_run_set_archive_dir (run, archive);
  hr_measure_run_set_predictor (run, hr_measure_predict_runtime, NULL, NULL);
  if (!o->json)
    {
      g_signal_connect (run, "run-done", G_CALLBACK (on_measure_run), header_printed);
      g_signal_connect (run, "ps-done", G_CALLBACK (on_measure_ps), header_printed);
    }
  g_signal_connect (run, "waiting", G_CALLBACK (on_measure_waiting), NULL);
  return run;
}

/* Says on stderr how long each run waits for @model to load: a cold
 * load of a large model can take minutes before its first token. */
static void
say_load_wait (HrOllamaClient *client,
               const char     *model)
{
  guint load_s = hr_ollama_client_get_load_wait (client) / 1000;

  if (load_s > 0)
    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE,
                                  "headroom-cli: each run waits up to %u second for %s to load and answer; Ctrl-C cancels\n",
                                  "headroom-cli: each run waits up to %u seconds for %s to load and answer; Ctrl-C cancels\n",
                                  load_s),
             load_s, model);
}

/* Runs @run until done, failed or cancelled by Ctrl-C. */
static gboolean
measure_until_done (HrMeasureRun  *run,
                    GError       **error)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_auto(HrCliWaiter) w = { 0 };
  guint sigint;
  gboolean ok;

  hr_cli_waiter_init (&w);
  sigint = g_unix_signal_add (SIGINT, hr_cli_on_sigint, cancellable);
  hr_measure_run_start_async (run, cancellable, hr_cli_waiter_on_answer, &w);
  ok = hr_measure_run_finish (run, hr_cli_waiter_wait (&w), error);
  g_source_remove (sigint);
  return ok;
}

/**
 * hr_cli_ollama_measure:
 * @client: the board's Ollama server
 * @o: `ollama`'s options: --contexts, --runs, --num-predict, --board,
 *   --measurements and --json are read
 * @model: the model to measure
 *
 * `headroom-cli ollama measure MODEL`: the seed's benchmark (Ollama's
 * timing fields and /api/ps per num_ctx, docs/ollama.md), each row printed
 * as it comes (or, with --json, the archive's document at the end), the
 * run set saved under --board (else the board the window saved for this
 * server). Ctrl-C cancels it, saving nothing.
 *
 * Returns: 0; 1 when it failed or was cancelled; 2 for bad arguments or
 *   no board to file it under.
 */
int
hr_cli_ollama_measure (HrOllamaClient *client,
                       OllamaOptions  *o,
                       const char     *model)
{
  g_autoptr(GArray) contexts = g_array_new (FALSE, FALSE, sizeof (guint32));
  MeasureSettings m = { contexts, 0, 0 };
  g_autoptr(HrMeasureRun) run = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *archive = NULL;
  g_auto(HrCliContext) ctx = { 0 };
  gboolean header_printed = FALSE;
  char mean[G_ASCII_DTOSTR_BUF_SIZE];
  int rc;

  if (!parse_measure_settings (o, &m))
    return HR_CLI_EXIT_USAGE;
  if ((rc = load_measure_board (client, o, &ctx)) != HR_CLI_EXIT_OK)
    return rc;
  archive = o->measurements != NULL ? g_strdup (o->measurements) : hr_data_measurements_dir ();
  run = new_measure_run (client, o, model, ctx.board, &m, archive, &header_printed);
  say_load_wait (client, model);
  if (!measure_until_done (run, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          fprintf (stderr, "headroom-cli: %s\n",
                   _("measurement cancelled; nothing was saved and the board is as it was found"));
          return HR_CLI_EXIT_FAILED;
        }
      return hr_cli_fail (g_steal_pointer (&error));
    }

  if (o->json)
    {
      g_autoptr(JsonNode) root = hr_measure_run_to_json (run);
      hr_cli_print_json (root);
      return HR_CLI_EXIT_OK;
    }
  g_ascii_formatd (mean, sizeof mean, "%.1f", hr_measure_run_get_decode_mean (run));
  printf (_("decode mean %s t/s on %s (%s, Ollama %s)\n"), mean, ctx.board->id, model,
          hr_measure_run_get_server_version (run));
  printf (_("saved %s\n"), hr_measure_run_get_saved_path (run));
  return HR_CLI_EXIT_OK;
}
