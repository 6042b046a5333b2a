/* test-measure.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The measuring protocol (docs/seed-figures.md, "Measuring a model") against the
 * fake Ollama: cold then warm runs per context, the seed's options, the
 * figures, /api/ps beside the prediction, the archive file, and the board
 * left as it was found, also after a failure or a cancel.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>

#include "fake-ollama.h"
#include "hr-catalog.h"
#include "hr-measure.h"
#include "hr-measurement.h"
#include "hr-net-error.h"

/* The seed's phi4 figures, on the fake's llama3.2:3b: load 5,908.4 ms,
 * 18 prompt tokens, 96 output tokens at 23.5 t/s. */
#define LOAD_NS        G_GINT64_CONSTANT (5908400000)
#define PROMPT_NS      G_GINT64_CONSTANT (62570000)
#define EVAL_NS        G_GINT64_CONSTANT (4085106383)

typedef struct {
  FakeOllama     *fake;
  HrOllamaClient *client;
  char           *archive;
  char           *existing;       /* a file already in the archive */
  char           *existing_data;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  const char *old =
    "{\"board\": \"jetson-orin-nano-super\", \"model\": \"llama3.2:3b\", \"decode_tps\": {\"mean\": 18.4}}\n";

  f->fake = fake_ollama_new ();
  fake_ollama_add_llama32 (f->fake);
  fake_ollama_set_stream_timing (f->fake, 20, 1, 30, FALSE);
  fake_ollama_set_final_timing (f->fake, LOAD_NS, 18, PROMPT_NS, 96, EVAL_NS);
  f->client = hr_ollama_client_new (fake_ollama_get_url (f->fake), &error);
  g_assert_no_error (error);

  f->archive = hr_data_measurements_dir ();
  g_assert_cmpint (g_mkdir_with_parents (f->archive, 0755), ==, 0);
  f->existing = g_build_filename (f->archive, "jetson-orin-nano-super-llama3.2-3b.json", NULL);
  f->existing_data = g_strdup (old);
  g_assert_true (g_file_set_contents (f->existing, old, -1, NULL));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->client);
  fake_ollama_free (f->fake);
  g_free (f->archive);
  g_free (f->existing);
  g_free (f->existing_data);
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
assert_archive_intact (Fixture *f)
{
  g_autofree char *data = NULL;

  g_assert_cmpuint (count_files (f->archive), ==, 1);
  g_assert_true (g_file_get_contents (f->existing, &data, NULL, NULL));
  g_assert_cmpstr (data, ==, f->existing_data);
}

typedef struct {
  GAsyncResult *result;
  guint         runs_seen;
  guint         ps_seen;
  guint         cancel_after;
  GCancellable *cancellable;
  guint         per_context;  /* runs per context; 0 = 3 */
} Seen;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Seen *seen = user_data;

  seen->result = g_object_ref (result);
}

static void
on_run_done (HrMeasureRun *run,
             gpointer      result_ptr,
             gpointer      user_data)
{
  Seen *seen = user_data;
  const HrMeasureResult *r = result_ptr;

  seen->runs_seen++;
  g_assert_cmpuint (r->run, ==, (seen->runs_seen - 1) % (seen->per_context ? seen->per_context : 3) + 1);
  if (seen->cancel_after > 0 && seen->runs_seen == seen->cancel_after)
    g_cancellable_cancel (seen->cancellable);
}

static void
on_ps_done (HrMeasureRun *run,
            gpointer      ps,
            gpointer      user_data)
{
  Seen *seen = user_data;

  seen->ps_seen++;
}

static gboolean
measure (HrMeasureRun  *run,
         Seen          *seen,
         GError       **error)
{
  gboolean ok;

  g_signal_connect (run, "run-done", G_CALLBACK (on_run_done), seen);
  g_signal_connect (run, "ps-done", G_CALLBACK (on_ps_done), seen);
  hr_measure_run_start_async (run, seen->cancellable, on_done, seen);
  while (seen->result == NULL)
    g_main_context_iteration (NULL, TRUE);
  ok = hr_measure_run_finish (run, seen->result, error);
  g_clear_object (&seen->result);
  return ok;
}

/* A whole measurement of llama3.2:3b on dgx-spark into the fixture's
 * archive, with tokens 150 ms apart: the first token's time is told from
 * the second's with a margin that no loaded machine eats.
 * Returns: (transfer full): the finished run. */
static HrMeasureRun *
measure_full (Fixture *f,
              Seen    *seen)
{
  HrMeasureRun *run = hr_measure_run_new (f->client, "llama3.2:3b", "dgx-spark");
  g_autoptr(GError) error = NULL;

  fake_ollama_set_stream_timing (f->fake, 20, 150, 30, FALSE);
  hr_measure_run_set_archive_dir (run, f->archive);
  g_assert_true (measure (run, seen, &error));
  g_assert_no_error (error);
  return run;
}

/* One run's figures: cold first at each context, warm after. */
static void
assert_full_result (const HrMeasureResult *r,
                    guint                  i)
{
  g_assert_cmpuint (r->context, ==, i < 3 ? 2048 : 4096);
  g_assert_cmpuint (r->run, ==, i % 3 + 1);
  g_assert_cmpint (r->cold, ==, i % 3 == 0);
  if (r->cold)
    {
      /* Unloaded first: the fake loads for 30 ms, then 20 ms to the first token. */
      g_assert_cmpint (r->load_duration, ==, LOAD_NS);
      g_assert_cmpfloat (r->ttft_ms, >=, 50.0);
      g_assert_cmpfloat (r->ttft_ms, <, 50.0 + 150.0);
    }
  else
    {
      /* Warm: no load_duration in the JSON at all. */
      g_assert_cmpint (r->load_duration, ==, -1);
      g_assert_cmpfloat (r->ttft_ms, >=, 20.0);
      g_assert_cmpfloat (r->ttft_ms, <, 20.0 + 150.0);
    }
  g_assert_cmpint (r->prompt_eval_count, ==, 18);
  g_assert_cmpint (r->eval_count, ==, 96);
  g_assert_cmpfloat_with_epsilon (r->decode_tps, 96 / 4.085106383, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->prefill_tps, 18 / 0.06257, 1e-9);
  g_assert_cmpfloat (r->client_total_ms, >=, r->ttft_ms);
}

static void
test_full_runs (Fixture       *f,
                gconstpointer  data)
{
  Seen seen = { 0 };
  g_autoptr(HrMeasureRun) run = measure_full (f, &seen);
  GArray *results = hr_measure_run_get_results (run);

  g_assert_cmpstr (hr_measure_run_get_server_version (run), ==, "0.31.2");
  g_assert_cmpstr (hr_measure_run_get_digest (run), ==, "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72");
  g_assert_cmpuint (results->len, ==, 6);
  g_assert_cmpuint (seen.runs_seen, ==, 6);
  g_assert_cmpuint (seen.ps_seen, ==, 2);
  for (guint i = 0; i < 6; i++)
    assert_full_result (&g_array_index (results, HrMeasureResult, i), i);
  g_assert_cmpfloat_with_epsilon (hr_measure_run_get_decode_mean (run), 23.5, 1e-6);
}

static void
test_full_unloads_after (Fixture       *f,
                         gconstpointer  data)
{
  Seen seen = { 0 };
  g_autoptr(HrMeasureRun) run = measure_full (f, &seen);
  /* The seed's options on every run. */
  JsonObject *sent = json_node_get_object (fake_ollama_last_body (f->fake, "/api/generate"));

  /* The last request was the restoring unload. */
  g_assert_cmpint (json_object_get_int_member (sent, "keep_alive"), ==, 0);
  g_assert_false (fake_ollama_is_loaded (f->fake, "llama3.2:3b"));
  /* 2 unloads + 6 runs + the restoring unload */
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/generate"), ==, 9);
}

static void
test_full_ps (Fixture       *f,
              gconstpointer  data)
{
  Seen seen = { 0 };
  g_autoptr(HrMeasureRun) run = measure_full (f, &seen);
  GArray *ps = hr_measure_run_get_ps (run);
  const HrMeasurePs *p;

  g_assert_cmpuint (ps->len, ==, 2);
  p = &g_array_index (ps, HrMeasurePs, 1);
  g_assert_cmpuint (p->context, ==, 4096);
  g_assert_true (p->listed);
  g_assert_cmpuint (p->size, ==, 2589139424);
  g_assert_cmpuint (p->size_vram, ==, 2589139424);
  g_assert_cmpuint (p->context_length, ==, 4096);
  /* Prediction: tensor bytes 2,113,726,720 + KV 114,688 x 4096 = 469,762,048 */
  g_assert_cmpuint (p->predicted, ==, G_GUINT64_CONSTANT (2113726720) + 469762048);
  g_assert_cmpint (p->difference, ==, G_GINT64_CONSTANT (2589139424) - G_GINT64_CONSTANT (2583488768));
  g_assert_cmpfloat_with_epsilon (p->difference_percent, 5650656.0 / 2583488768.0 * 100, 1e-9);
  g_assert_cmpstr (p->prediction_source, ==, "weights + KV cache (f16, 1 slot), no runtime overhead");
}

/* The archive: one new file, the old one untouched, readable by the core. */
static void
test_full_archive (Fixture       *f,
                   gconstpointer  data)
{
  Seen seen = { 0 };
  g_autoptr(HrMeasureRun) run = measure_full (f, &seen);
  g_autoptr(HrMeasurement) saved = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (count_files (f->archive), ==, 2);
  g_assert_nonnull (hr_measure_run_get_saved_path (run));
  saved = hr_measurement_load_file (hr_measure_run_get_saved_path (run), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (saved->board, ==, "dgx-spark");
  g_assert_cmpstr (saved->model, ==, "llama3.2:3b");
  g_assert_cmpstr (saved->runtime_version, ==, "ollama 0.31.2");
  g_assert_cmpfloat (saved->decode_tps_mean, ==, 23.5);
  g_assert_cmpuint (saved->weight_bytes, ==, 2019393189);
  g_assert_cmpuint (saved->sizes->len, ==, 2);
  g_assert_cmpuint (g_array_index (saved->sizes, HrMeasuredSize, 0).context_tokens, ==, 2048);
  g_assert_cmpuint (g_array_index (saved->sizes, HrMeasuredSize, 1).reported_bytes, ==, 2589139424);
  g_assert_cmpuint (g_array_index (saved->sizes, HrMeasuredSize, 1).predicted_bytes, ==, 2583488768);
}

static void
test_full_archive_document (Fixture       *f,
                            gconstpointer  data)
{
  Seen seen = { 0 };
  g_autoptr(HrMeasureRun) run = measure_full (f, &seen);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrMeasurement) saved = hr_measurement_load_file (hr_measure_run_get_saved_path (run), &error);
  JsonObject *doc, *first, *second, *ps_doc, *options;
  JsonArray *runs;
  g_autofree char *tps = NULL;

  g_assert_no_error (error);
  doc = json_node_get_object (saved->document);
  runs = json_object_get_array_member (doc, "runs");
  first = json_array_get_object_element (runs, 0);
  second = json_array_get_object_element (runs, 1);
  ps_doc = json_array_get_object_element (json_object_get_array_member (doc, "ps"), 1);
  g_assert_cmpstr (json_object_get_string_member (doc, "digest"), ==,
                   "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72");
  g_assert_nonnull (json_object_get_string_member (doc, "date"));
  options = json_object_get_object_member (doc, "options");
  g_assert_cmpint (json_object_get_int_member (options, "seed"), ==, 42);
  g_assert_cmpint (json_object_get_int_member (options, "num_predict"), ==, 96);
  g_assert_cmpstr (json_object_get_string_member (options, "prompt"), ==,
                   "Explain Kubernetes scheduling in three sentences.");
  g_assert_cmpuint (json_array_get_length (runs), ==, 6);
  g_assert_cmpfloat (json_object_get_double_member (first, "load_ms"), ==, 5908.4);
  g_assert_true (json_object_get_boolean_member (first, "cold"));
  /* "n/a" is null, never a made-up zero. */
  g_assert_true (json_object_get_null_member (second, "load_ms"));
  g_assert_cmpfloat (json_object_get_double_member (first, "decode_tps"), ==, 23.5);
  g_assert_cmpfloat (json_object_get_double_member (first, "prefill_tps"), ==, 287.68);
  g_assert_cmpstr (json_object_get_string_member (ps_doc, "size_text"), ==, "2.6 GB");
  g_assert_cmpstr (json_object_get_string_member (ps_doc, "processor"), ==, "100% GPU");
  g_assert_cmpfloat (json_object_get_double_member (ps_doc, "difference_gb"), ==, 0.01);
  g_assert_cmpfloat (json_object_get_double_member (ps_doc, "difference_percent"), ==, 0.2);
  tps = g_strdup_printf ("%.1f", 89 / (3817895000 / 1e9));
  g_assert_cmpstr (tps, ==, "23.3");
}

static void
test_generate_options (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(HrMeasureRun) run = hr_measure_run_new (f->client, "LLAMA3.2:3b", "dgx-spark");
  g_autoptr(GError) error = NULL;
  const guint32 contexts[] = { 8192 };
  Seen seen = { 0 };

  /* Nothing saved without an archive directory; names compare as Ollama's do. */
  hr_measure_run_set_contexts (run, contexts, 1);
  hr_measure_run_set_runs (run, 1);
  hr_measure_run_set_num_predict (run, 3);
  g_assert_true (measure (run, &seen, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hr_measure_run_get_results (run)->len, ==, 1);
  g_assert_cmpstr (g_array_index (hr_measure_run_get_results (run), HrMeasureResult, 0).done_reason, ==, "length");
  assert_archive_intact (f);
  g_assert_false (fake_ollama_is_loaded (f->fake, "llama3.2:3b"));
}

static void
test_restores_loaded (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(HrMeasureRun) run = hr_measure_run_new (f->client, "llama3.2:3b", "dgx-spark");
  g_autoptr(GError) error = NULL;
  Seen seen = { 0 };
  JsonObject *sent;

  fake_ollama_load (f->fake, "llama3.2:3b", 8192);
  hr_measure_run_set_runs (run, 2);
  seen.per_context = 2;
  g_assert_true (measure (run, &seen, &error));
  g_assert_no_error (error);
  /* It was loaded at 8192: it is loaded again at 8192. */
  g_assert_true (fake_ollama_is_loaded (f->fake, "llama3.2:3b"));
  sent = json_node_get_object (fake_ollama_last_body (f->fake, "/api/generate"));
  g_assert_false (json_object_has_member (sent, "prompt"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (sent, "options"), "num_ctx"), ==, 8192);
}

static void
test_custom_predictor_hook (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(HrMeasureRun) run = hr_measure_run_new (f->client, "llama3.2:3b", "dgx-spark");
  g_autoptr(GError) error = NULL;
  Seen seen = { 0 };
  const HrMeasurePs *p;
  const guint32 contexts[] = { 4096 };

  hr_measure_run_set_contexts (run, contexts, 1);
  hr_measure_run_set_runs (run, 1);
  hr_measure_run_set_predictor (run, NULL, NULL, NULL);
  g_assert_true (measure (run, &seen, &error));
  p = &g_array_index (hr_measure_run_get_ps (run), HrMeasurePs, 0);
  g_assert_cmpuint (p->predicted, ==, 0);
  g_assert_null (p->prediction_source);
  g_assert_cmpuint (p->size, ==, 2589139424);
}

static gboolean
on_spin_done (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(HrMeasureRun) run = hr_measure_run_new (f->client, "llama3.2:3b", "dgx-spark");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  Seen seen = { NULL, 0, 0, 2, cancellable };
  gboolean done = FALSE;

  hr_measure_run_set_archive_dir (run, f->archive);
  g_assert_false (measure (run, &seen, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (seen.runs_seen, ==, 2);
  g_assert_null (hr_measure_run_get_saved_path (run));

  /* The board is as it was found (unloaded), the archive untouched, and
   * no run is reported after the cancel. */
  g_assert_false (fake_ollama_is_loaded (f->fake, "llama3.2:3b"));
  assert_archive_intact (f);
  g_timeout_add (200, on_spin_done, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (seen.runs_seen, ==, 2);
}

static void
test_failure (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(HrMeasureRun) run = hr_measure_run_new (f->client, "llama3.2:3b", "dgx-spark");
  g_autoptr(GError) error = NULL;
  Seen seen = { 0 };

  /* A runner that dies mid-stream on every run. */
  fake_ollama_set_fault (f->fake, "/api/generate", FAKE_FAULT_ERROR_LINE, "llama runner process has terminated: signal: killed");
  hr_measure_run_set_archive_dir (run, f->archive);
  g_assert_false (measure (run, &seen, &error));
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_STREAM);
  g_assert_cmpstr (error->message, ==, "Ollama stopped with an error: llama runner process has terminated: signal: killed");
  /* The run that broke off keeps its row, marked failed, with
   * its time to the first token and the chunks it got (2 lines). */
  g_assert_cmpuint (seen.runs_seen, ==, 1);
  {
    GArray *results = hr_measure_run_get_results (run);
    const HrMeasureResult *r = &g_array_index (results, HrMeasureResult, 0);

    g_assert_cmpuint (results->len, ==, 1);
    g_assert_cmpstr (r->failed, ==, "Ollama stopped with an error: llama runner process has terminated: signal: killed");
    g_assert_cmpfloat (r->ttft_ms, >=, 0);
    g_assert_cmpint (r->eval_count, ==, 2);
    g_assert_cmpfloat (r->decode_tps, ==, -1);
    g_assert_true (r->cold);
  }
  assert_archive_intact (f);
  g_assert_false (fake_ollama_is_loaded (f->fake, "llama3.2:3b"));
}

static void
test_not_on_board (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(HrMeasureRun) run = hr_measure_run_new (f->client, "phi4", "dgx-spark");
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = g_strdup_printf ("phi4 is not on the board at %s; pull it first",
                                               fake_ollama_get_url (f->fake));
  Seen seen = { 0 };

  hr_measure_run_set_archive_dir (run, f->archive);
  g_assert_false (measure (run, &seen, &error));
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, expected);
  /* Nothing was sent that changes the board. */
  g_assert_cmpuint (fake_ollama_count (f->fake, "/api/generate"), ==, 0);
  assert_archive_intact (f);
}

static void
test_no_decode_figures (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(HrMeasureRun) run = hr_measure_run_new (f->client, "llama3.2:3b", "dgx-spark");
  g_autoptr(GError) error = NULL;
  const guint32 contexts[] = { 2048 };
  Seen seen = { 0 };
  const HrMeasureResult *r;

  /* A final line without eval_count or eval_duration: rates are n/a, never
   * a division by zero, and nothing is saved. */
  fake_ollama_set_final_timing (f->fake, 0, 0, 0, 0, 0);
  hr_measure_run_set_contexts (run, contexts, 1);
  hr_measure_run_set_runs (run, 1);
  hr_measure_run_set_archive_dir (run, f->archive);
  g_assert_false (measure (run, &seen, &error));
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE);
  g_assert_cmpstr (error->message, ==,
                   "no run of llama3.2:3b reported a decode rate (eval_count and eval_duration), so nothing was saved");
  r = &g_array_index (hr_measure_run_get_results (run), HrMeasureResult, 0);
  g_assert_cmpfloat (r->decode_tps, ==, -1);
  g_assert_cmpfloat (r->prefill_tps, ==, -1);
  g_assert_cmpint (r->eval_duration, ==, -1);
  assert_archive_intact (f);
  g_assert_false (fake_ollama_is_loaded (f->fake, "llama3.2:3b"));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_unsetenv ("OLLAMA_HOST");

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/measure/full/runs", test_full_runs);
  ADD ("/measure/full/unloads-after", test_full_unloads_after);
  ADD ("/measure/full/ps", test_full_ps);
  ADD ("/measure/full/archive", test_full_archive);
  ADD ("/measure/full/archive-document", test_full_archive_document);
  ADD ("/measure/generate-options", test_generate_options);
  ADD ("/measure/restores-loaded", test_restores_loaded);
  ADD ("/measure/predictor-hook", test_custom_predictor_hook);
  ADD ("/measure/cancel", test_cancel);
  ADD ("/measure/failure", test_failure);
  ADD ("/measure/not-on-board", test_not_on_board);
  ADD ("/measure/no-decode-figures", test_no_decode_figures);
#undef ADD

  return g_test_run ();
}
