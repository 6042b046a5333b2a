/* hr-measure-protocol.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMeasureRun's protocol, one step after another on the task's main
 * context: /api/version, /api/tags (the digest), /api/ps (was the model
 * loaded?), /api/show (for the prediction); then per context an unload,
 * the runs (each a streamed /api/generate) and /api/ps; then the archive
 * (hr-measure-archive.c) and the restore, which leaves the board as it was
 * found before the task returns. The object, its signals and its
 * accessors are in hr-measure.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-measurement.h"
#include "hr-net-error.h"
#include "hr-ollama-host.h"
#include "hr-units.h"

#include "hr-measure-private.h"

/* ------------------------------------------------------------------ */
/* Ending: restore the board, then return                              */

static void
status (HrMeasureRun *self,
        const char   *text)
{
  g_signal_emit (self, hr_measure_run_signals[SIGNAL_STATUS], 0, text);
}

static void
complete (GTask *task)
{
  HrMeasureRun *self = g_task_get_source_object (task);
  GError *error = g_steal_pointer (&self->pending);

  self->task = NULL;
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_restored (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrMeasureRun *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (self->was_loaded)
    ok = hr_ollama_client_load_finish (HR_OLLAMA_CLIENT (source), result, &error);
  else
    ok = hr_ollama_client_unload_finish (HR_OLLAMA_CLIENT (source), result, &error);

  if (!ok && self->pending == NULL)
    {
      g_autofree char *what = self->was_loaded
        ? g_strdup_printf (_("the measurement is done, but %s could not be loaded again as it was: %s"),
                           self->model, error->message)
        : g_strdup_printf (_("the measurement is done, but %s could not be unloaded again: %s"),
                           self->model, error->message);
      self->pending = g_error_new_literal (error->domain, error->code, what);
    }
  complete (task);
}

/* Leaves the board as it was found: unloads the model if it was not
 * loaded, else loads it again at its context. Runs even after a cancel,
 * with no cancellable of its own. */
static void
restore (GTask *task)
{
  HrMeasureRun *self = g_task_get_source_object (task);

  if (!self->touched)
    {
      complete (task);
      g_object_unref (task);
      return;
    }

  status (self, _("leaving the board as it was found"));
  if (self->was_loaded)
    hr_ollama_client_load_async (self->client, self->model, self->was_context, NULL, on_restored, task);
  else
    hr_ollama_client_unload_async (self->client, self->model, NULL, on_restored, task);
}

/* Takes @task and @error: returns @error once the board is restored. */
static void
fail_as_is (GTask  *task,
            GError *error)
{
  HrMeasureRun *self = g_task_get_source_object (task);

  g_clear_error (&self->pending);
  self->pending = error;
  restore (task);
}

/* The mean decode rate of the runs that reported one; 0 when none did. */
static double
decode_mean (GArray *results)
{
  double sum = 0;
  guint n = 0;

  for (guint i = 0; i < results->len; i++)
    {
      const HrMeasureResult *r = &g_array_index (results, HrMeasureResult, i);

      if (r->decode_tps >= 0)
        {
          sum += r->decode_tps;
          n++;
        }
    }
  return n > 0 ? sum / n : 0;
}

/* Runs that completed (not those that broke off mid-stream). */
static guint
completed_runs (GArray *results)
{
  guint n = 0;

  for (guint i = 0; i < results->len; i++)
    if (g_array_index (results, HrMeasureResult, i).failed == NULL)
      n++;
  return n;
}

/* A run set cut short by @error (taken) after some runs completed: keeps
 * what was measured. The completed runs are saved, with the
 * failure in the document's "failed"; the error returned says how far the
 * set got and whether the runs were saved. */
static GError *
keep_completed_runs (HrMeasureRun *self,
                     GError       *error)
{
  g_autoptr(GError) cause = error;
  g_autoptr(GError) save_error = NULL;
  guint total = self->runs * self->contexts->len;
  guint done = completed_runs (self->results);
  g_autofree char *failed = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                          "failed after %u of %u run: %s",
                                                          "failed after %u of %u runs: %s", total),
                                             done, total, cause->message);

  g_free (self->failure);
  self->failure = g_strdup (failed);
  self->decode_mean = decode_mean (self->results);
  if (self->archive_dir == NULL)
    return g_error_new_literal (cause->domain, cause->code, failed);
  if (self->decode_mean <= 0)
    return g_error_new (cause->domain, cause->code,
                        _("%s; nothing was saved: no completed run reported a decode rate"), failed);
  if (!hr_measure_run_save (self, &save_error))
    return g_error_new (cause->domain, cause->code,
                        _("%s; the completed runs could not be saved either: %s"), failed, save_error->message);
  return g_error_new (cause->domain, cause->code,
                      g_dngettext (GETTEXT_PACKAGE,
                                   "%s; the %u completed run was saved in %s",
                                   "%s; the %u completed runs were saved in %s", done),
                      failed, done, self->saved_path);
}

/* Takes @task and @error. A failure after some runs completed keeps them
 * (keep_completed_runs()); a cancel saves nothing. */
static void
fail (GTask  *task,
      GError *error)
{
  HrMeasureRun *self = g_task_get_source_object (task);

  if (completed_runs (self->results) > 0 && self->failure == NULL &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    error = keep_completed_runs (self, error);
  fail_as_is (task, error);
}

/* ------------------------------------------------------------------ */
/* The steps                                                           */

static void next_context (GTask *task);
static void next_run (GTask *task);

static void
on_ps_after (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrMeasureRun *self = g_task_get_source_object (task);
  g_autoptr(GPtrArray) loaded = NULL;
  GError *error = NULL;
  HrMeasurePs ps = { 0 };

  loaded = hr_ollama_client_ps_finish (HR_OLLAMA_CLIENT (source), result, &error);
  if (loaded == NULL)
    {
      fail (g_steal_pointer (&task), error);
      return;
    }

  ps.context = g_array_index (self->contexts, guint32, self->ctx_index);
  for (guint i = 0; i < loaded->len; i++)
    {
      const HrOllamaLoaded *l = g_ptr_array_index (loaded, i);

      if (hr_ollama_model_name_equal (l->name, self->model))
        {
          ps.listed = TRUE;
          ps.size = l->size;
          ps.size_vram = l->size_vram;
          ps.context_length = l->context_length;
          break;
        }
    }

  if (self->predict != NULL && self->show != NULL)
    {
      guint64 predicted = 0;
      char *source_text = NULL;

      if (self->predict (self->show->spec, ps.context, self->server_version,
                         &predicted, &source_text, self->predict_data) && predicted > 0)
        {
          ps.predicted = predicted;
          ps.prediction_source = source_text;
          if (ps.listed)
            {
              ps.difference = (gint64) ps.size - (gint64) predicted;
              ps.difference_percent = (double) ps.difference / (double) predicted * 100.0;
            }
        }
      else
        g_free (source_text);
    }

  g_array_append_val (self->ps, ps);
  g_signal_emit (self, hr_measure_run_signals[SIGNAL_PS_DONE], 0, &g_array_index (self->ps, HrMeasurePs, self->ps->len - 1));

  self->ctx_index++;
  next_context (g_steal_pointer (&task));
}

/**
 * hr_measure_wait_report_ms:
 * @load_wait_ms: how long a run waits for its first byte
 *   (hr_ollama_client_get_load_wait()), ms
 *
 * How often a run that has had no byte yet is reported: every 10 s, or a
 * quarter of a shorter wait (at least 1 s), so a person always hears a
 * few times that it is still waiting before it gives up.
 *
 * Returns: ms.
 */
guint
hr_measure_wait_report_ms (guint load_wait_ms)
{
  return CLAMP (load_wait_ms / 4 / 1000 * 1000, 1000, 10000);
}

static void
wait_stop (HrMeasureRun *self)
{
  if (self->wait_timer != NULL)
    g_source_destroy (self->wait_timer);
  g_clear_pointer (&self->wait_timer, g_source_unref);
}

static gboolean
on_wait_tick (gpointer user_data)
{
  HrMeasureRun *self = user_data;
  guint elapsed = (guint) ((g_get_monotonic_time () - self->wait_started + G_USEC_PER_SEC / 2) / G_USEC_PER_SEC);
  guint limit = hr_ollama_client_get_load_wait (self->client) / 1000;
  g_autofree char *text = NULL;

  /* TRANSLATORS: the first %s is "run 1 of 3 at num_ctx 2048 (cold)" */
  text = g_strdup_printf (_("%s: no answer from %s yet after %u s of at most %u s; a cold run loads the model before its first token"),
                          self->wait_run, self->model, elapsed, limit);
  status (self, text);
  g_signal_emit (self, hr_measure_run_signals[SIGNAL_WAITING], 0, text);
  return G_SOURCE_CONTINUE;
}

/* A chunk of the answer came: the wait is over; what a run that breaks
 * off later got is counted. */
static void
on_first_chunk (const char *content,
                const char *thinking,
                gpointer    user_data)
{
  HrMeasureRun *self = HR_MEASURE_RUN (user_data);

  wait_stop (self);
  if (self->run_ttft_ms < 0)
    self->run_ttft_ms = (g_get_monotonic_time () - self->wait_started) / 1000.0;
  self->run_chunks++;
}

/* A run that broke off mid-stream (an error line, a cut): its row, marked
 * failed, with what the client measured. */
static void
keep_failed_run (HrMeasureRun *self,
                 const GError *error)
{
  HrMeasureResult r = { 0 };

  r.context = g_array_index (self->contexts, guint32, self->ctx_index);
  r.run = self->run_index + 1;
  r.cold = self->run_index == 0;
  r.ttft_ms = self->run_ttft_ms;
  r.client_total_ms = (g_get_monotonic_time () - self->wait_started) / 1000.0;
  r.total_duration = r.load_duration = r.prompt_eval_count = r.prompt_eval_duration = -1;
  r.eval_count = self->run_chunks;
  r.eval_duration = -1;
  r.prefill_tps = r.decode_tps = -1;
  r.failed = g_strdup (error->message);
  g_array_append_val (self->results, r);
  g_signal_emit (self, hr_measure_run_signals[SIGNAL_RUN_DONE], 0,
                 &g_array_index (self->results, HrMeasureResult, self->results->len - 1));
}

static void
on_generated (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrMeasureRun *self = g_task_get_source_object (task);
  g_autoptr(HrOllamaReply) reply = NULL;
  GError *error = NULL;
  HrMeasureResult r = { 0 };

  wait_stop (self);
  reply = hr_ollama_client_generate_finish (HR_OLLAMA_CLIENT (source), result, &error);
  if (reply == NULL)
    {
      if (self->run_chunks > 0 &&
          (g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_STREAM) ||
           g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_TRUNCATED)))
        keep_failed_run (self, error);
      fail (g_steal_pointer (&task), error);
      return;
    }

  r.context = g_array_index (self->contexts, guint32, self->ctx_index);
  r.run = self->run_index + 1;
  r.cold = self->run_index == 0;
  r.ttft_ms = reply->ttft_ms;
  r.client_total_ms = reply->client_total_ms;
  r.total_duration = reply->total_duration;
  r.load_duration = reply->load_duration;
  r.prompt_eval_count = reply->prompt_eval_count;
  r.prompt_eval_duration = reply->prompt_eval_duration;
  r.eval_count = reply->eval_count;
  r.eval_duration = reply->eval_duration;
  r.prefill_tps = hr_ollama_rate_tps (reply->prompt_eval_count, reply->prompt_eval_duration);
  r.decode_tps = hr_ollama_rate_tps (reply->eval_count, reply->eval_duration);
  r.done_reason = g_strdup (reply->done_reason);
  g_array_append_val (self->results, r);
  g_signal_emit (self, hr_measure_run_signals[SIGNAL_RUN_DONE], 0,
                 &g_array_index (self->results, HrMeasureResult, self->results->len - 1));

  self->run_index++;
  next_run (g_steal_pointer (&task));
}

static void
next_run (GTask *task)
{
  HrMeasureRun *self = g_task_get_source_object (task);
  guint32 context = g_array_index (self->contexts, guint32, self->ctx_index);
  g_autoptr(JsonObject) options = NULL;
  g_autofree char *text = NULL;

  if (self->run_index == self->runs)
    {
      status (self, _("reading /api/ps"));
      hr_ollama_client_ps_async (self->client, g_task_get_cancellable (task), on_ps_after, task);
      return;
    }

  text = g_strdup_printf (_("run %u of %u at num_ctx %u (%s)"), self->run_index + 1, self->runs, context,
                          self->run_index == 0 ? _("cold") : _("warm"));
  status (self, text);

  options = json_object_new ();
  json_object_set_int_member (options, "temperature", 0);
  json_object_set_int_member (options, "seed", HR_MEASURE_SEED);
  json_object_set_int_member (options, "num_ctx", context);
  json_object_set_int_member (options, "num_predict", self->num_predict);
  g_free (self->wait_run);
  self->wait_run = g_strdup (text);
  self->wait_started = g_get_monotonic_time ();
  self->run_ttft_ms = -1;
  self->run_chunks = 0;
  wait_stop (self);
  self->wait_timer = g_timeout_source_new (hr_measure_wait_report_ms (hr_ollama_client_get_load_wait (self->client)));
  g_source_set_callback (self->wait_timer, on_wait_tick, self, NULL);
  g_source_set_static_name (self->wait_timer, "[headroom] measure first-byte wait");
  g_source_attach (self->wait_timer, g_task_get_context (task));
  hr_ollama_client_generate_async (self->client, self->model, self->prompt, options, on_first_chunk, self,
                                   g_task_get_cancellable (task), on_generated, task);
}

static void
on_unloaded (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrMeasureRun *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!hr_ollama_client_unload_finish (HR_OLLAMA_CLIENT (source), result, &error))
    {
      fail (g_steal_pointer (&task), error);
      return;
    }
  self->run_index = 0;
  next_run (g_steal_pointer (&task));
}

static void
next_context (GTask *task)
{
  HrMeasureRun *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (self->ctx_index < self->contexts->len)
    {
      /* Unload first, so run 1 is cold. */
      self->touched = TRUE;
      status (self, _("unloading the model so the first run is cold"));
      hr_ollama_client_unload_async (self->client, self->model, g_task_get_cancellable (task), on_unloaded, task);
      return;
    }

  self->decode_mean = decode_mean (self->results);
  if (self->archive_dir != NULL && !hr_measure_run_save (self, &error))
    {
      fail_as_is (task, error);
      return;
    }
  restore (task);
}

static void
on_show (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrMeasureRun *self = g_task_get_source_object (task);
  GError *error = NULL;

  self->show = hr_ollama_client_show_finish (HR_OLLAMA_CLIENT (source), result, &error);
  if (self->show == NULL)
    {
      /* An answer Headroom cannot read only costs the prediction. */
      if (!g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE))
        {
          fail (g_steal_pointer (&task), error);
          return;
        }
      g_debug ("no prediction for %s: %s", self->model, error->message);
      g_clear_error (&error);
    }
  self->ctx_index = 0;
  next_context (g_steal_pointer (&task));
}

static void
on_ps_before (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrMeasureRun *self = g_task_get_source_object (task);
  g_autoptr(GPtrArray) loaded = NULL;
  GCancellable *cancellable;
  GError *error = NULL;

  loaded = hr_ollama_client_ps_finish (HR_OLLAMA_CLIENT (source), result, &error);
  if (loaded == NULL)
    {
      fail (g_steal_pointer (&task), error);
      return;
    }
  for (guint i = 0; i < loaded->len; i++)
    {
      const HrOllamaLoaded *l = g_ptr_array_index (loaded, i);

      if (hr_ollama_model_name_equal (l->name, self->model))
        {
          self->was_loaded = TRUE;
          self->was_context = l->context_length;
        }
    }
  cancellable = g_task_get_cancellable (task);
  hr_ollama_client_show_async (self->client, self->model, cancellable, on_show, g_steal_pointer (&task));
}

static void
on_tags (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrMeasureRun *self = g_task_get_source_object (task);
  g_autoptr(GPtrArray) models = NULL;
  GCancellable *cancellable;
  GError *error = NULL;

  models = hr_ollama_client_tags_finish (HR_OLLAMA_CLIENT (source), result, &error);
  if (models == NULL)
    {
      fail (g_steal_pointer (&task), error);
      return;
    }
  for (guint i = 0; i < models->len; i++)
    {
      const HrOllamaModel *m = g_ptr_array_index (models, i);

      if (hr_ollama_model_name_equal (m->name, self->model))
        {
          g_free (self->digest);
          self->digest = g_strdup (m->digest);
          self->package_bytes = m->size;
        }
    }
  if (self->digest == NULL && self->package_bytes == 0)
    {
      fail (g_steal_pointer (&task),
            g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                         _("%s is not on the board at %s; pull it first"),
                         self->model, hr_ollama_client_get_base_url (self->client)));
      return;
    }
  cancellable = g_task_get_cancellable (task);
  hr_ollama_client_ps_async (self->client, cancellable, on_ps_before, g_steal_pointer (&task));
}

static void
on_version (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HrMeasureRun *self = g_task_get_source_object (task);
  GCancellable *cancellable;
  GError *error = NULL;

  self->server_version = hr_ollama_client_version_finish (HR_OLLAMA_CLIENT (source), result, &error);
  if (self->server_version == NULL)
    {
      fail (g_steal_pointer (&task), error);
      return;
    }
  cancellable = g_task_get_cancellable (task);
  hr_ollama_client_tags_async (self->client, cancellable, on_tags, g_steal_pointer (&task));
}

/**
 * hr_measure_run_start_async:
 * @self: a run set, not running
 * @cancellable: (nullable): cancels the measurement at any point; the
 *   board is still restored
 * @callback: called once the measurement has ended and the board is as
 *   it was found
 * @user_data: data for @callback
 *
 * Runs the protocol: /api/version, /api/tags (the digest), /api/ps (was the
 * model loaded?), /api/show (for the prediction); then per context an
 * unload and the runs, each emitting #HrMeasureRun::run-done, and /api/ps
 * (#HrMeasureRun::ps-done); then the archive file, and the restore.
 */
void
hr_measure_run_start_async (HrMeasureRun        *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GTask *task;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  g_return_if_fail (HR_IS_MEASURE_RUN (self));
  g_return_if_fail (self->task == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_measure_run_start_async);
  self->task = task;
  self->touched = FALSE;
  self->was_loaded = FALSE;
  self->was_context = 0;
  self->decode_mean = 0;
  g_clear_pointer (&self->show, hr_ollama_show_free);
  g_clear_pointer (&self->saved_path, g_free);
  g_clear_pointer (&self->failure, g_free);
  g_clear_pointer (&self->digest, g_free);
  g_clear_pointer (&self->server_version, g_free);
  g_array_set_size (self->results, 0);
  g_array_set_size (self->ps, 0);
  g_free (self->date);
  self->date = g_date_time_format_iso8601 (now);

  status (self, _("asking the server what it has"));
  hr_ollama_client_version_async (self->client, cancellable, on_version, task);
}

/**
 * hr_measure_run_finish:
 * @self: a run set
 * @result: the result
 * @error: return location for a #GError
 *
 * Returns: %TRUE when every run completed, the file was saved (when an
 *   archive directory was set) and the board restored; %FALSE with
 *   G_IO_ERROR_CANCELLED, an %HR_NET_ERROR from the server (the model not
 *   on the board is %HR_NET_ERROR_NOT_FOUND; no decode figures at all is
 *   %HR_NET_ERROR_INVALID_RESPONSE), or the archive's error. A set that
 *   fails after some runs completed keeps them: the error's message says
 *   "failed after N of M runs: REASON" and where the completed runs were
 *   saved (their document's "failed" says the same); a cancelled set saves
 *   nothing.
 */
gboolean
hr_measure_run_finish (HrMeasureRun  *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_measure_run_start_async, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
