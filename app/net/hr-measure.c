/* hr-measure.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMeasureRun, the object: its signals, what a run set measures (model,
 * contexts, runs, prompt, archive, predictor) and what it found (results,
 * /api/ps sizes, server version, digest, decode mean, saved path). The
 * protocol that measures is in hr-measure-protocol.c.
 */
#include "config.h"

#include "hr-measure-private.h"

G_DEFINE_FINAL_TYPE (HrMeasureRun, hr_measure_run, G_TYPE_OBJECT)

guint hr_measure_run_signals[N_SIGNALS];

static void
result_clear (gpointer data)
{
  HrMeasureResult *result = data;

  g_clear_pointer (&result->done_reason, g_free);
  g_clear_pointer (&result->failed, g_free);
}

static void
ps_clear (gpointer data)
{
  HrMeasurePs *ps = data;

  g_clear_pointer (&ps->prediction_source, g_free);
}

static void
hr_measure_run_finalize (GObject *object)
{
  HrMeasureRun *self = HR_MEASURE_RUN (object);

  g_clear_object (&self->client);
  g_free (self->model);
  g_free (self->board_id);
  g_free (self->prompt);
  g_free (self->archive_dir);
  g_array_unref (self->contexts);
  if (self->predict_destroy != NULL)
    self->predict_destroy (self->predict_data);
  g_free (self->server_version);
  g_free (self->digest);
  g_clear_pointer (&self->show, hr_ollama_show_free);
  g_array_unref (self->results);
  g_array_unref (self->ps);
  g_free (self->date);
  g_free (self->saved_path);
  g_free (self->failure);
  g_clear_error (&self->pending);
  if (self->wait_timer != NULL)
    g_source_destroy (self->wait_timer);
  g_clear_pointer (&self->wait_timer, g_source_unref);
  g_free (self->wait_run);

  G_OBJECT_CLASS (hr_measure_run_parent_class)->finalize (object);
}

static void
hr_measure_run_class_init (HrMeasureRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = hr_measure_run_finalize;

  /**
   * HrMeasureRun::status:
   * @self: the run set
   * @text: what it is doing now, for a person ("run 2 of 3 at num_ctx 4096")
   */
  hr_measure_run_signals[SIGNAL_STATUS] =
    g_signal_new ("status", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * HrMeasureRun::run-done:
   * @self: the run set
   * @result: (type gpointer): the run, completed or broken off mid-stream
   *   (its failed set), a const #HrMeasureResult*
   *   valid during the emission
   *
   * Emitted as each run completes, for a live view. Never emitted after
   * the measurement has been cancelled.
   */
  hr_measure_run_signals[SIGNAL_RUN_DONE] =
    g_signal_new ("run-done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  /**
   * HrMeasureRun::ps-done:
   * @self: the run set
   * @ps: (type gpointer): a const #HrMeasurePs* valid during the emission
   *
   * Emitted after each context with what /api/ps reported beside the
   * prediction.
   */
  hr_measure_run_signals[SIGNAL_PS_DONE] =
    g_signal_new ("ps-done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  /**
   * HrMeasureRun::waiting:
   * @self: the run set
   * @text: what is awaited and why, for a person ("run 1 of 3 at num_ctx
   *   2048 (cold): no answer from MODEL yet after 10 s of at most 600 s; a
   *   cold run loads the model before its first token")
   *
   * Emitted while a run has had no byte of its answer, every
   * hr_measure_wait_report_ms() (the first token of a cold run waits for
   * Ollama to load the model, which takes minutes for a large one). The
   * same text goes to #HrMeasureRun::status.
   */
  hr_measure_run_signals[SIGNAL_WAITING] =
    g_signal_new ("waiting", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
hr_measure_run_init (HrMeasureRun *self)
{
  static const guint32 contexts[] = { 2048, 4096 };

  self->contexts = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_vals (self->contexts, contexts, G_N_ELEMENTS (contexts));
  self->runs = HR_MEASURE_RUNS;
  self->num_predict = HR_MEASURE_NUM_PREDICT;
  self->prompt = g_strdup (HR_MEASURE_PROMPT);
  self->predict = hr_measure_predict_footprint;
  self->results = g_array_new (FALSE, TRUE, sizeof (HrMeasureResult));
  g_array_set_clear_func (self->results, result_clear);
  self->ps = g_array_new (FALSE, TRUE, sizeof (HrMeasurePs));
  g_array_set_clear_func (self->ps, ps_clear);
}

/**
 * hr_measure_run_new:
 * @client: the board's client
 * @model: the model to measure, as Ollama names it
 * @board_id: the board the archive files it under ("dgx-spark")
 *
 * Creates a run set with the seed's protocol: contexts 2048 and 4096, three
 * runs each, num_predict 96, the seed's prompt, the prediction of
 * hr_measure_predict_footprint(), and no archive directory (nothing saved)
 * until hr_measure_run_set_archive_dir() sets one.
 *
 * Returns: (transfer full): the run set.
 */
HrMeasureRun *
hr_measure_run_new (HrOllamaClient *client,
                    const char     *model,
                    const char     *board_id)
{
  HrMeasureRun *self;

  g_return_val_if_fail (HR_IS_OLLAMA_CLIENT (client), NULL);
  g_return_val_if_fail (model != NULL && board_id != NULL, NULL);

  self = g_object_new (HR_TYPE_MEASURE_RUN, NULL);
  self->client = g_object_ref (client);
  self->model = g_strdup (model);
  self->board_id = g_strdup (board_id);
  return self;
}

/**
 * hr_measure_run_set_contexts:
 * @self: a run set
 * @contexts: (array length=n_contexts): num_ctx values in tokens, each > 0
 * @n_contexts: how many (> 0)
 */
void
hr_measure_run_set_contexts (HrMeasureRun  *self,
                             const guint32 *contexts,
                             guint          n_contexts)
{
  g_return_if_fail (HR_IS_MEASURE_RUN (self));
  g_return_if_fail (n_contexts > 0 && self->task == NULL);
  g_array_set_size (self->contexts, 0);
  g_array_append_vals (self->contexts, contexts, n_contexts);
}

/**
 * hr_measure_run_set_runs:
 * @self: a run set
 * @runs: runs per context (> 0); the first of each is cold
 */
void
hr_measure_run_set_runs (HrMeasureRun *self,
                         guint         runs)
{
  g_return_if_fail (HR_IS_MEASURE_RUN (self));
  g_return_if_fail (runs > 0 && self->task == NULL);
  self->runs = runs;
}

/**
 * hr_measure_run_set_num_predict:
 * @self: a run set
 * @num_predict: reply tokens per run (> 0)
 */
void
hr_measure_run_set_num_predict (HrMeasureRun *self,
                                guint32       num_predict)
{
  g_return_if_fail (HR_IS_MEASURE_RUN (self));
  g_return_if_fail (num_predict > 0 && self->task == NULL);
  self->num_predict = num_predict;
}

/**
 * hr_measure_run_set_prompt:
 * @self: a run set
 * @prompt: the prompt of every run (not empty: an empty prompt only loads)
 */
void
hr_measure_run_set_prompt (HrMeasureRun *self,
                           const char   *prompt)
{
  g_return_if_fail (HR_IS_MEASURE_RUN (self));
  g_return_if_fail (prompt != NULL && *prompt != '\0' && self->task == NULL);
  g_free (self->prompt);
  self->prompt = g_strdup (prompt);
}

/**
 * hr_measure_run_set_archive_dir:
 * @self: a run set
 * @directory: (nullable): the measurement archive
 *   (hr_data_measurements_dir()); %NULL saves nothing
 */
void
hr_measure_run_set_archive_dir (HrMeasureRun *self,
                                const char   *directory)
{
  g_return_if_fail (HR_IS_MEASURE_RUN (self));
  g_free (self->archive_dir);
  self->archive_dir = g_strdup (directory);
}

/**
 * hr_measure_run_set_predictor:
 * @self: a run set
 * @func: (nullable): predicts the /api/ps size; %NULL for none
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Replaces hr_measure_predict_footprint() with a better model of the
 * runtime (the runtime model, app/core/runtime/hr-runtime.h, plugs in here).
 */
void
hr_measure_run_set_predictor (HrMeasureRun         *self,
                              HrMeasurePredictFunc  func,
                              gpointer              user_data,
                              GDestroyNotify        destroy)
{
  g_return_if_fail (HR_IS_MEASURE_RUN (self));
  if (self->predict_destroy != NULL)
    self->predict_destroy (self->predict_data);
  self->predict = func;
  self->predict_data = user_data;
  self->predict_destroy = destroy;
}

/**
 * hr_measure_run_get_results:
 * @self: a run set
 *
 * Returns: (transfer none) (element-type HrMeasureResult): the runs so far.
 */
GArray *
hr_measure_run_get_results (HrMeasureRun *self)
{
  return self->results;
}

/**
 * hr_measure_run_get_ps:
 * @self: a run set
 *
 * Returns: (transfer none) (element-type HrMeasurePs): /api/ps per context.
 */
GArray *
hr_measure_run_get_ps (HrMeasureRun *self)
{
  return self->ps;
}

/**
 * hr_measure_run_get_server_version:
 * @self: a run set
 *
 * Returns: (nullable): the server's version, once known.
 */
const char *
hr_measure_run_get_server_version (HrMeasureRun *self)
{
  return self->server_version;
}

/**
 * hr_measure_run_get_digest:
 * @self: a run set
 *
 * Returns: (nullable): the model's digest (bare 64 hex), once known.
 */
const char *
hr_measure_run_get_digest (HrMeasureRun *self)
{
  return self->digest;
}

/**
 * hr_measure_run_get_decode_mean:
 * @self: a run set that has finished
 *
 * Returns: the mean decode rate over the runs that reported one, tokens/s
 *   (0 when none did).
 */
double
hr_measure_run_get_decode_mean (HrMeasureRun *self)
{
  return self->decode_mean;
}

/**
 * hr_measure_run_get_saved_path:
 * @self: a run set
 *
 * Returns: (nullable): the archive file written, if any.
 */
const char *
hr_measure_run_get_saved_path (HrMeasureRun *self)
{
  return self->saved_path;
}
