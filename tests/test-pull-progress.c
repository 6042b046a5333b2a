/* test-pull-progress.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pull progress model against the /api/pull stream as
 * docs/ollama.md describes it: layers one after another, `total` absent at
 * first, `completed` absent while 0 and sometimes going backwards, a layer
 * already present arriving once complete, error lines mid-stream.
 */
#include "config.h"

#include <locale.h>

#include "hr-pull-progress.h"

#define T0 G_GINT64_CONSTANT (1000000000)
#define SEC G_USEC_PER_SEC
#define BIG "sha256:dde5aa3fc5ffc17176b5e8bdc82f587b24b2678c6c66101bf7da77af9f7ccdff"
#define PRESENT "sha256:966de95ca8a62200913e3f8bfbf84c8494536f1b94b49166851e76644e966396"
#define SMALL "sha256:fcc5a6bec9daf9b561a68827b67ab6088e1dba9d1fa2a50d7bbcc8384e0a265d"

static HrPullLineKind
feed (HrPullProgress *progress,
      const char     *json,
      gint64          now)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  return hr_pull_progress_feed (progress, json_node_get_object (json_parser_get_root (parser)), now);
}

static HrPullLineKind
feed_big (HrPullProgress *progress,
          guint64         completed,
          gint64          now)
{
  g_autofree char *json = g_strdup_printf ("{\"status\": \"pulling dde5aa3fc5ff\", \"digest\": \"%s\", "
                                           "\"total\": 10000000, \"completed\": %" G_GUINT64_FORMAT "}",
                                           BIG, completed);
  return feed (progress, json, now);
}

/* How far pull_until() takes a pull of three layers: one of 10 MB at 1 MB
 * a second that restarts a part, one already present, one of 0.5 MB. */
typedef enum {
  PULL_MANIFEST,     /* "pulling manifest" */
  PULL_FIRST_LAYER,  /* the big layer's first line, without a total */
  PULL_3MB,          /* 3 MB of it, 1 MB a second */
  PULL_RESTARTED,    /* a part restarted: back to 1.5 MB, then up to 4 MB */
  PULL_BIG_DONE,     /* the big layer complete, after a 30 s stall */
  PULL_PRESENT,      /* the layer already on the board */
  PULL_SMALL,        /* the small layer, complete */
  PULL_DONE,         /* verified, written, "success" */
} PullStage;

/* A pull fed every line up to and including @stage (the lines the cases
 * below check, fed without checking). Returns: (transfer full) */
static HrPullProgress *
pull_until (PullStage stage)
{
  HrPullProgress *p = hr_pull_progress_new ();

  feed (p, "{\"status\": \"pulling manifest\"}", T0);
  if (stage == PULL_MANIFEST)
    return p;
  feed (p, "{\"status\": \"pulling dde5aa3fc5ff\", \"digest\": \"" BIG "\"}", T0);
  if (stage == PULL_FIRST_LAYER)
    return p;
  for (guint i = 1; i <= 3; i++)
    feed_big (p, i * 1000000, T0 + (gint64) i * SEC);
  if (stage == PULL_3MB)
    return p;
  feed_big (p, 1500000, T0 + 4 * SEC);
  feed_big (p, 2500000, T0 + 5 * SEC);
  feed_big (p, 4000000, T0 + 6 * SEC);
  if (stage == PULL_RESTARTED)
    return p;
  for (guint i = 5; i <= 10; i++)
    feed_big (p, i * 1000000, T0 + (gint64) (i + 31) * SEC);
  if (stage == PULL_BIG_DONE)
    return p;
  feed (p, "{\"status\": \"pulling 966de95ca8a6\", \"digest\": \"" PRESENT "\", "
           "\"total\": 1000000, \"completed\": 1000000}", T0 + 42 * SEC);
  if (stage == PULL_PRESENT)
    return p;
  feed (p, "{\"status\": \"pulling fcc5a6bec9da\", \"digest\": \"" SMALL "\"}", T0 + 43 * SEC);
  feed (p, "{\"status\": \"pulling fcc5a6bec9da\", \"digest\": \"" SMALL "\", \"total\": 500000}", T0 + 43 * SEC);
  feed (p, "{\"status\": \"pulling fcc5a6bec9da\", \"digest\": \"" SMALL "\", \"total\": 5e5, \"completed\": 5e5}",
        T0 + 44 * SEC);
  if (stage == PULL_SMALL)
    return p;
  feed (p, "{\"status\": \"verifying sha256 digest\"}", T0 + 45 * SEC);
  feed (p, "{\"status\": \"writing manifest\"}", T0 + 45 * SEC);
  feed (p, "{\"status\": \"success\"}", T0 + 45 * SEC);
  return p;
}

static void
test_pull_manifest (void)
{
  g_autoptr(HrPullProgress) p = hr_pull_progress_new ();

  g_assert_cmpint (feed (p, "{\"status\": \"pulling manifest\"}", T0), ==, HR_PULL_LINE_STATUS);
  g_assert_cmpstr (p->status, ==, "pulling manifest");
  g_assert_cmpfloat (hr_pull_progress_fraction (p), ==, -1.0);
  g_assert_null (hr_pull_progress_current_layer (p));
}

/* First line of a layer: no total, no completed. */
static void
test_pull_layer_without_total (void)
{
  g_autoptr(HrPullProgress) p = pull_until (PULL_MANIFEST);
  const HrPullLayer *layer;

  g_assert_cmpint (feed (p, "{\"status\": \"pulling dde5aa3fc5ff\", \"digest\": \"" BIG "\"}", T0), ==,
                   HR_PULL_LINE_LAYER);
  layer = hr_pull_progress_current_layer (p);
  g_assert_cmpstr (layer->digest, ==, BIG);
  g_assert_cmpuint (layer->total, ==, 0);
  g_assert_cmpfloat (hr_pull_progress_fraction (p), ==, -1.0);
}

/* 1 MB a second. */
static void
test_pull_rate (void)
{
  g_autoptr(HrPullProgress) p = pull_until (PULL_FIRST_LAYER);

  feed_big (p, 1000000, T0 + 1 * SEC);
  g_assert_cmpuint (p->completed, ==, 1000000);
  g_assert_cmpuint (p->total, ==, 10000000);
  g_assert_cmpfloat_with_epsilon (p->rate, 1000000.0, 1e-6);
  feed_big (p, 2000000, T0 + 2 * SEC);
  feed_big (p, 3000000, T0 + 3 * SEC);
  g_assert_cmpfloat_with_epsilon (hr_pull_progress_fraction (p), 0.3, 1e-12);
}

/* A stalled part restarts: completed goes back; the bar holds. */
static void
test_pull_restart_holds_bar (void)
{
  g_autoptr(HrPullProgress) p = pull_until (PULL_3MB);

  feed_big (p, 1500000, T0 + 4 * SEC);
  g_assert_cmpuint (p->completed, ==, 3000000);
  g_assert_cmpfloat_with_epsilon (hr_pull_progress_fraction (p), 0.3, 1e-12);
  g_assert_cmpuint (p->transferred, ==, 3000000);
  g_assert_cmpfloat_with_epsilon (p->rate, 750000.0, 1e-6);
  feed_big (p, 2500000, T0 + 5 * SEC);
  g_assert_cmpuint (p->completed, ==, 3000000);
  /* The bytes moving again count for the rate. */
  g_assert_cmpuint (p->transferred, ==, 4000000);
  g_assert_cmpfloat_with_epsilon (p->rate, 800000.0, 1e-6);
  feed_big (p, 4000000, T0 + 6 * SEC);
  g_assert_cmpuint (p->completed, ==, 4000000);
  g_assert_cmpuint (p->transferred, ==, 5500000);
  /* Over the last 5 s: (5.5 MB - 1 MB) / 5 s. */
  g_assert_cmpfloat_with_epsilon (p->rate, 900000.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (hr_pull_progress_seconds_left (p), 6000000.0 / 900000.0, 1e-9);
}

static void
test_pull_describe (void)
{
  g_autoptr(HrPullProgress) p = pull_until (PULL_RESTARTED);
  g_autofree char *text = hr_pull_progress_describe (p, T0 + 6 * SEC);

  g_assert_cmpstr (text, ==, "pulling dde5aa3fc5ff: 4 MB of 10 MB (40%), 900 KB/s, 7 s left");
}

/* No byte for 30 s is a stall, said as such. */
static void
test_pull_stall (void)
{
  g_autoptr(HrPullProgress) p = pull_until (PULL_RESTARTED);
  g_autofree char *text = NULL;

  g_assert_false (hr_pull_progress_stalled (p, T0 + 6 * SEC + 29 * SEC));
  g_assert_true (hr_pull_progress_stalled (p, T0 + 6 * SEC + 30 * SEC));
  text = hr_pull_progress_describe (p, T0 + 6 * SEC + 30 * SEC);
  g_assert_cmpstr (text, ==, "pulling dde5aa3fc5ff: 4 MB of 10 MB (40%), 900 KB/s, 7 s left - stalled: no progress for 30 s");
}

static void
test_pull_bar_never_falls (void)
{
  g_autoptr(HrPullProgress) p = pull_until (PULL_RESTARTED);
  double last_fraction = hr_pull_progress_fraction (p);

  for (guint i = 5; i <= 10; i++)
    {
      feed_big (p, i * 1000000, T0 + (gint64) (i + 31) * SEC);
      g_assert_cmpfloat (hr_pull_progress_fraction (p), >=, last_fraction);
      last_fraction = hr_pull_progress_fraction (p);
    }
  g_assert_cmpfloat (last_fraction, ==, 1.0);
}

/* A layer already on the board: one line, complete; not a transfer. */
static void
test_pull_present_layer (void)
{
  g_autoptr(HrPullProgress) p = pull_until (PULL_BIG_DONE);
  g_autofree char *text = NULL;
  const HrPullLayer *layer;

  g_assert_cmpint (feed (p, "{\"status\": \"pulling 966de95ca8a6\", \"digest\": \"" PRESENT "\", "
                            "\"total\": 1000000, \"completed\": 1000000}", T0 + 42 * SEC), ==, HR_PULL_LINE_LAYER);
  layer = hr_pull_progress_current_layer (p);
  g_assert_true (layer->present);
  g_assert_cmpuint (p->completed, ==, 11000000);
  g_assert_cmpuint (p->total, ==, 11000000);
  g_assert_cmpuint (p->transferred, ==, 5500000 + 6000000);
  text = hr_pull_progress_describe (p, T0 + 42 * SEC);
  g_assert_cmpstr (text, ==, "pulling 966de95ca8a6: 11 MB of 11 MB (100%)");
}

/* The next layer starts: the bar does not fall back to zero. */
static void
test_pull_next_layer (void)
{
  g_autoptr(HrPullProgress) p = pull_until (PULL_PRESENT);

  feed (p, "{\"status\": \"pulling fcc5a6bec9da\", \"digest\": \"" SMALL "\"}", T0 + 43 * SEC);
  feed (p, "{\"status\": \"pulling fcc5a6bec9da\", \"digest\": \"" SMALL "\", \"total\": 500000}", T0 + 43 * SEC);
  g_assert_cmpfloat_with_epsilon (hr_pull_progress_fraction (p), 11000000.0 / 11500000.0, 1e-12);
  /* Byte counts may arrive as doubles. */
  feed (p, "{\"status\": \"pulling fcc5a6bec9da\", \"digest\": \"" SMALL "\", \"total\": 5e5, \"completed\": 5e5}",
        T0 + 44 * SEC);
  g_assert_cmpuint (p->completed, ==, 11500000);
  g_assert_cmpuint (p->layers->len, ==, 3);
  g_assert_false (((HrPullLayer *) g_ptr_array_index (p->layers, 2))->present);
}

static void
test_pull_success (void)
{
  g_autoptr(HrPullProgress) p = pull_until (PULL_SMALL);
  g_autofree char *text = NULL;

  g_assert_cmpint (feed (p, "{\"status\": \"verifying sha256 digest\"}", T0 + 45 * SEC), ==, HR_PULL_LINE_STATUS);
  g_assert_cmpint (feed (p, "{\"status\": \"writing manifest\"}", T0 + 45 * SEC), ==, HR_PULL_LINE_STATUS);
  g_assert_cmpint (feed (p, "{\"status\": \"success\"}", T0 + 45 * SEC), ==, HR_PULL_LINE_SUCCESS);
  g_assert_true (p->success);
  g_assert_cmpfloat (hr_pull_progress_fraction (p), ==, 1.0);
  g_assert_false (hr_pull_progress_stalled (p, T0 + 1000 * SEC));
  text = hr_pull_progress_describe (p, T0 + 45 * SEC);
  g_assert_cmpstr (text, ==, "success");
}

/* A status line says just its status. */
static void
test_pull_status_after_success (void)
{
  g_autoptr(HrPullProgress) p = pull_until (PULL_DONE);
  g_autofree char *text = NULL;

  g_assert_cmpint (feed (p, "{\"status\": \"removing unused layers\"}", T0 + 45 * SEC), ==, HR_PULL_LINE_STATUS);
  text = hr_pull_progress_describe (p, T0 + 45 * SEC);
  g_assert_cmpstr (text, ==, "removing unused layers");
}

static void
test_error_line (void)
{
  g_autoptr(HrPullProgress) p = hr_pull_progress_new ();

  feed (p, "{\"status\": \"pulling manifest\"}", T0);
  g_assert_cmpint (feed (p, "{\"error\": \"max retries exceeded: EOF\"}", T0 + SEC), ==, HR_PULL_LINE_ERROR);
  g_assert_cmpstr (p->error, ==, "max retries exceeded: EOF");
  g_assert_false (hr_pull_progress_stalled (p, T0 + 100 * SEC));
  /* A mistyped error member is not taken for an error. */
  g_assert_cmpint (feed (p, "{\"error\": {\"x\": 1}, \"status\": \"s\"}", T0 + SEC), ==, HR_PULL_LINE_STATUS);
  /* Nor an empty one (Ollama's client ends a stream on a
   * non-empty "error" only). */
  g_assert_cmpint (feed (p, "{\"error\": \"\", \"status\": \"s\"}", T0 + SEC), ==, HR_PULL_LINE_STATUS);
}

static void
assert_message (const char      *text,
                HrPullErrorKind  kind,
                const char      *expected)
{
  g_autofree char *message = hr_pull_error_message ("llama3.3:99b", text);

  g_assert_cmpint (hr_pull_error_classify (text), ==, kind);
  g_assert_cmpstr (message, ==, expected);
}

static void
test_error_messages (void)
{
  assert_message ("pull model manifest: file does not exist", HR_PULL_ERROR_UNKNOWN_MODEL,
                  "Ollama could not pull llama3.3:99b: pull model manifest: file does not exist; check the model name and its tag");
  assert_message ("write /root/.ollama/models/blobs/sha256-dde5-partial: no space left on device", HR_PULL_ERROR_NO_SPACE,
                  "Ollama could not pull llama3.3:99b: write /root/.ollama/models/blobs/sha256-dde5-partial: no space left on device"
                  "; free space on the board (delete models it does not need), then pull again");
  assert_message ("max retries exceeded: EOF", HR_PULL_ERROR_NETWORK,
                  "Ollama could not pull llama3.3:99b: max retries exceeded: EOF; the board could not reach the registry:"
                  " check its network, then pull again (it resumes from the partial files)");
  assert_message ("digest mismatch, file must be downloaded again: want sha256:1, got sha256:2", HR_PULL_ERROR_CORRUPT,
                  "Ollama could not pull llama3.3:99b: digest mismatch, file must be downloaded again: want sha256:1, got sha256:2"
                  "; the download was damaged on the way: pull again");
  assert_message ("unauthorized: access denied", HR_PULL_ERROR_UNAUTHORIZED,
                  "Ollama could not pull llama3.3:99b: unauthorized: access denied; the registry refused access:"
                  " check the name, and that the board may pull it");
  assert_message ("something else", HR_PULL_ERROR_OTHER,
                  "Ollama could not pull llama3.3:99b: something else; see the server's log on the board");
}

static void
test_cancelled_and_durations (void)
{
  g_autofree char *message = hr_pull_cancelled_message ("phi4");
  char *text;

  g_assert_cmpstr (message, ==,
                   "Pull of phi4 stopped. Pulling it again resumes from the partial files while the server keeps them"
                   " (until `ollama serve` restarts).");
  text = hr_format_duration_left (44.2);
  g_assert_cmpstr (text, ==, "45 s");
  g_free (text);
  text = hr_format_duration_left (200);
  g_assert_cmpstr (text, ==, "3 min 20 s");
  g_free (text);
  text = hr_format_duration_left (7500);
  g_assert_cmpstr (text, ==, "2 h 5 min");
  g_free (text);
  text = hr_format_duration_left (-1);
  g_assert_cmpstr (text, ==, "unknown");
  g_free (text);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/pull-progress/whole-pull/manifest", test_pull_manifest);
  g_test_add_func ("/pull-progress/whole-pull/layer-without-total", test_pull_layer_without_total);
  g_test_add_func ("/pull-progress/whole-pull/rate", test_pull_rate);
  g_test_add_func ("/pull-progress/whole-pull/restart-holds-bar", test_pull_restart_holds_bar);
  g_test_add_func ("/pull-progress/whole-pull/describe", test_pull_describe);
  g_test_add_func ("/pull-progress/whole-pull/stall", test_pull_stall);
  g_test_add_func ("/pull-progress/whole-pull/bar-never-falls", test_pull_bar_never_falls);
  g_test_add_func ("/pull-progress/whole-pull/present-layer", test_pull_present_layer);
  g_test_add_func ("/pull-progress/whole-pull/next-layer", test_pull_next_layer);
  g_test_add_func ("/pull-progress/whole-pull/success", test_pull_success);
  g_test_add_func ("/pull-progress/whole-pull/status-after-success", test_pull_status_after_success);
  g_test_add_func ("/pull-progress/error-line", test_error_line);
  g_test_add_func ("/pull-progress/error-messages", test_error_messages);
  g_test_add_func ("/pull-progress/cancelled-and-durations", test_cancelled_and_durations);

  return g_test_run ();
}
