/* hr-pull-progress.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "hr-json.h"
#include "hr-ollama-host.h"
#include "hr-pull-progress.h"

typedef struct {
  gint64  time_us;
  guint64 transferred;
} Sample;

static void
layer_free (HrPullLayer *layer)
{
  g_free (layer->digest);
  g_free (layer);
}

/**
 * hr_pull_progress_new:
 *
 * Returns: (transfer full): an empty progress, before the first line.
 */
HrPullProgress *
hr_pull_progress_new (void)
{
  HrPullProgress *progress = g_new0 (HrPullProgress, 1);

  progress->layers = g_ptr_array_new_with_free_func ((GDestroyNotify) layer_free);
  progress->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  progress->current = -1;
  return progress;
}

/**
 * hr_pull_progress_free:
 * @progress: (nullable): a progress
 */
void
hr_pull_progress_free (HrPullProgress *progress)
{
  if (progress == NULL)
    return;
  g_ptr_array_unref (progress->layers);
  g_array_unref (progress->samples);
  g_free (progress->status);
  g_free (progress->error);
  g_free (progress);
}


static void
recount (HrPullProgress *progress)
{
  progress->completed = 0;
  progress->total = 0;
  for (guint i = 0; i < progress->layers->len; i++)
    {
      const HrPullLayer *layer = g_ptr_array_index (progress->layers, i);
      progress->completed += MIN (layer->completed, layer->total > 0 ? layer->total : layer->completed);
      progress->total += layer->total;
    }
}

static void
update_rate (HrPullProgress *progress,
             gint64          now_us)
{
  Sample sample = { now_us, progress->transferred };
  const Sample *oldest;
  guint drop = 0;

  g_array_append_val (progress->samples, sample);
  /* Keep one sample at or before the window's start, drop older ones. */
  while (drop + 1 < progress->samples->len &&
         g_array_index (progress->samples, Sample, drop + 1).time_us <=
         now_us - HR_PULL_RATE_WINDOW_SECONDS * G_USEC_PER_SEC)
    drop++;
  if (drop > 0)
    g_array_remove_range (progress->samples, 0, drop);

  oldest = &g_array_index (progress->samples, Sample, 0);
  if (now_us > oldest->time_us)
    progress->rate = (double) (progress->transferred - oldest->transferred) /
                     ((double) (now_us - oldest->time_us) / G_USEC_PER_SEC);
}

/* The layer of @digest seen before, made the current one; %NULL for a
 * new digest. */
static HrPullLayer *
find_layer (HrPullProgress *progress,
            const char     *digest)
{
  for (guint i = 0; i < progress->layers->len; i++)
    {
      HrPullLayer *layer = g_ptr_array_index (progress->layers, i);

      if (g_str_equal (layer->digest, digest))
        {
          progress->current = (int) i;
          return layer;
        }
    }
  return NULL;
}

/**
 * hr_pull_progress_feed:
 * @progress: a progress
 * @line: one line of the /api/pull stream
 * @now_us: the monotonic time the line arrived (g_get_monotonic_time())
 *
 * Takes one line into account (docs/ollama.md, "/api/pull"). A layer line
 * carries `digest`, `total` (absent at first) and `completed` (absent while
 * 0). The bar is the sum of every layer's completed bytes over the sum of the
 * totals known so far, so it never falls back to zero when the next layer
 * starts. Each layer's completed figure only moves forward: when `completed`
 * goes backwards (a stalled part restarts) the bar holds until the layer
 * passes its old mark, while the bytes moving again still count for the
 * rate and against a stall. A layer whose first line is already complete
 * was on the board before: it fills the bar without counting as a transfer.
 *
 * Returns: what kind of line it was; for %HR_PULL_LINE_ERROR the text is in
 *   @progress->error.
 */
HrPullLineKind
hr_pull_progress_feed (HrPullProgress *progress,
                       JsonObject     *line,
                       gint64          now_us)
{
  const char *error_text = hr_json_string (line, "error");
  const char *status = hr_json_string (line, "status");
  const char *digest_text = hr_json_string (line, "digest");
  g_autofree char *digest = hr_ollama_digest_prefixed (digest_text);
  HrPullLayer *layer = NULL;
  guint64 total = 0;
  guint64 completed = 0;
  gboolean has_total;

  if (progress->started_us == 0)
    progress->started_us = progress->last_progress_us = now_us;
  progress->on_layer = FALSE;

  if (error_text != NULL && *error_text != '\0') /* an empty one is none (api/client.go) */
    {
      g_free (progress->error);
      progress->error = hr_json_safe_text (error_text, -1, HR_JSON_SAFE_LONG);
      return HR_PULL_LINE_ERROR;
    }

  if (status != NULL)
    {
      g_free (progress->status);
      progress->status = hr_json_safe_text (status, -1, HR_JSON_SAFE_SHORT);
    }

  if (digest == NULL)
    {
      if (g_strcmp0 (status, "success") == 0)
        {
          progress->success = TRUE;
          return HR_PULL_LINE_SUCCESS;
        }
      return HR_PULL_LINE_STATUS;
    }

  progress->on_layer = TRUE;
  layer = find_layer (progress, digest);

  has_total = hr_json_u64 (line, "total", G_MAXUINT64, &total);
  if (!hr_json_u64 (line, "completed", G_MAXUINT64, &completed))
    completed = 0;

  if (layer == NULL)
    {
      layer = g_new0 (HrPullLayer, 1);
      layer->digest = g_steal_pointer (&digest);
      layer->present = has_total && total > 0 && completed == total;
      g_ptr_array_add (progress->layers, layer);
      progress->current = (int) progress->layers->len - 1;
      if (layer->present)
        {
          layer->total = layer->completed = layer->reported = total;
          recount (progress);
          return HR_PULL_LINE_LAYER;
        }
    }

  if (has_total)
    layer->total = total;
  if (completed > layer->reported)
    {
      progress->transferred += completed - layer->reported;
      progress->last_progress_us = now_us;
    }
  layer->reported = completed;
  layer->completed = MAX (layer->completed, completed);

  recount (progress);
  update_rate (progress, now_us);
  return HR_PULL_LINE_LAYER;
}

/**
 * hr_pull_progress_fraction:
 * @progress: a progress
 *
 * Returns: completed / total over every layer known so far, 0 to 1; 1 after
 *   "success"; -1 while no layer has a known total.
 */
double
hr_pull_progress_fraction (const HrPullProgress *progress)
{
  if (progress->success)
    return 1.0;
  if (progress->total == 0)
    return -1.0;
  return MIN (1.0, (double) progress->completed / (double) progress->total);
}

/**
 * hr_pull_progress_stalled:
 * @progress: a progress
 * @now_us: the monotonic time now
 *
 * Returns: %TRUE when the pull has started, has not finished or failed, and
 *   no byte has moved for %HR_PULL_STALL_SECONDS (30 s).
 */
gboolean
hr_pull_progress_stalled (const HrPullProgress *progress,
                          gint64                now_us)
{
  if (progress->started_us == 0 || progress->success || progress->error != NULL)
    return FALSE;
  return now_us - progress->last_progress_us >= (gint64) HR_PULL_STALL_SECONDS * G_USEC_PER_SEC;
}

/**
 * hr_pull_progress_seconds_left:
 * @progress: a progress
 *
 * Returns: (total - completed) / rate in seconds for the bytes known so far,
 *   or -1 when the rate is 0 or nothing is known.
 */
double
hr_pull_progress_seconds_left (const HrPullProgress *progress)
{
  if (progress->rate <= 0 || progress->total == 0)
    return -1;
  return (double) (progress->total - MIN (progress->completed, progress->total)) / progress->rate;
}

/**
 * hr_pull_progress_current_layer:
 * @progress: a progress
 *
 * Returns: (nullable) (transfer none): the layer the last line was about.
 */
const HrPullLayer *
hr_pull_progress_current_layer (const HrPullProgress *progress)
{
  if (progress->current < 0)
    return NULL;
  return g_ptr_array_index (progress->layers, progress->current);
}

/**
 * hr_format_duration_left:
 * @seconds: a duration in seconds
 *
 * Returns: (transfer full): "45 s", "3 min 20 s", "2 h 5 min" (rounded up
 *   to the second), or "unknown" for a negative or non-finite value.
 */
char *
hr_format_duration_left (double seconds)
{
  guint64 s;

  if (!isfinite (seconds) || seconds < 0)
    return g_strdup (_("unknown"));
  s = (guint64) ceil (seconds);
  if (s < 60)
    return g_strdup_printf (_("%u s"), (guint) s);
  if (s < 3600)
    return g_strdup_printf (_("%u min %u s"), (guint) (s / 60), (guint) (s % 60));
  return g_strdup_printf (_("%u h %u min"), (guint) (s / 3600), (guint) ((s % 3600) / 60));
}

/**
 * hr_pull_progress_describe:
 * @progress: a progress
 * @now_us: the monotonic time now
 *
 * Returns: (transfer full): one line for a person: the status text, then
 *   after a layer's line the bytes done of the bytes known with the
 *   percentage, and while bytes remain the rate and the time left ("pulling dde5aa3fc5ff: 1.2 GB of 2.0 GB
 *   (60%), 45 MB/s, 18 s left"), or that it is stalled ("... - stalled: no
 *   progress for 42 s"). Sizes as the Ollama CLI prints them (decimal).
 */
char *
hr_pull_progress_describe (const HrPullProgress *progress,
                           gint64                now_us)
{
  GString *s = g_string_new (progress->status != NULL ? progress->status : _("starting"));
  double fraction = hr_pull_progress_fraction (progress);

  if (progress->on_layer && progress->total > 0)
    {
      g_autofree char *done = hr_ollama_format_size (progress->completed);
      g_autofree char *all = hr_ollama_format_size (progress->total);

      /* TRANSLATORS: bytes done of bytes known, and the percentage */
      g_string_append_printf (s, _(": %s of %s (%d%%)"), done, all, (int) floor (fraction * 100));
      if (progress->rate > 0 && progress->completed < progress->total)
        {
          g_autofree char *rate = hr_ollama_format_size ((guint64) progress->rate);
          g_autofree char *left = hr_format_duration_left (hr_pull_progress_seconds_left (progress));

          g_string_append_printf (s, _(", %s/s, %s left"), rate, left);
        }
    }

  if (hr_pull_progress_stalled (progress, now_us))
    g_string_append_printf (s, _(" - stalled: no progress for %u s"),
                            (guint) ((now_us - progress->last_progress_us) / G_USEC_PER_SEC));

  return g_string_free (s, FALSE);
}

/**
 * hr_pull_error_classify:
 * @ollama_text: the text of a pull stream's `{"error": ...}` line
 *
 * Sorts Ollama's pull errors (docs/ollama.md, "/api/pull"): "pull model
 * manifest: file does not exist" (unknown model or tag), "... no space left
 * on device", "max retries exceeded: ...", "digest mismatch ...",
 * "unauthorized: ...".
 *
 * Returns: the kind.
 */
HrPullErrorKind
hr_pull_error_classify (const char *ollama_text)
{
  if (ollama_text == NULL)
    return HR_PULL_ERROR_OTHER;
  if (strstr (ollama_text, "file does not exist") != NULL ||
      strstr (ollama_text, "not found") != NULL)
    return HR_PULL_ERROR_UNKNOWN_MODEL;
  if (strstr (ollama_text, "no space left on device") != NULL)
    return HR_PULL_ERROR_NO_SPACE;
  if (strstr (ollama_text, "digest mismatch") != NULL)
    return HR_PULL_ERROR_CORRUPT;
  if (strstr (ollama_text, "unauthorized") != NULL || strstr (ollama_text, "access denied") != NULL)
    return HR_PULL_ERROR_UNAUTHORIZED;
  if (strstr (ollama_text, "max retries exceeded") != NULL ||
      strstr (ollama_text, "connection reset") != NULL ||
      strstr (ollama_text, "i/o timeout") != NULL ||
      strstr (ollama_text, "no such host") != NULL)
    return HR_PULL_ERROR_NETWORK;
  return HR_PULL_ERROR_OTHER;
}

/**
 * hr_pull_error_message:
 * @model: the model being pulled
 * @ollama_text: Ollama's error text
 *
 * Returns: (transfer full): Ollama's text and what to do, e.g.
 *   "Ollama could not pull llama3.3:99b: pull model manifest: file does not
 *   exist; check the model name and its tag".
 */
char *
hr_pull_error_message (const char *model,
                       const char *ollama_text)
{
  const char *advice;

  switch (hr_pull_error_classify (ollama_text))
    {
    case HR_PULL_ERROR_UNKNOWN_MODEL:
      advice = _("check the model name and its tag");
      break;
    case HR_PULL_ERROR_NO_SPACE:
      advice = _("free space on the board (delete models it does not need), then pull again");
      break;
    case HR_PULL_ERROR_NETWORK:
      advice = _("the board could not reach the registry: check its network, then pull again (it resumes from the partial files)");
      break;
    case HR_PULL_ERROR_CORRUPT:
      advice = _("the download was damaged on the way: pull again");
      break;
    case HR_PULL_ERROR_UNAUTHORIZED:
      advice = _("the registry refused access: check the name, and that the board may pull it");
      break;
    case HR_PULL_ERROR_OTHER:
    default:
      advice = _("see the server's log on the board");
      break;
    }

  /* TRANSLATORS: model, Ollama's own error text, what to do */
  return g_strdup_printf (_("Ollama could not pull %s: %s; %s"), model, ollama_text, advice);
}

/**
 * hr_pull_cancelled_message:
 * @model: the model whose pull was cancelled
 *
 * Returns: (transfer full): what cancelling a pull leaves behind: Ollama
 *   keeps the partial files, so pulling again resumes, until the server
 *   restarts (it prunes them unless OLLAMA_NOPRUNE is set).
 */
char *
hr_pull_cancelled_message (const char *model)
{
  return g_strdup_printf (_("Pull of %s stopped. Pulling it again resumes from the partial files while the server keeps them (until `ollama serve` restarts)."),
                          model);
}
