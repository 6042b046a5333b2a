/* hr-measure.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMeasureRun: the seed's week-2 benchmark for any model on any board
 * (docs/seed-figures.md, "Measuring a model"). For each context (default 2048 and
 * 4096) and N runs (default 3): unload first so run 1 is cold, then warm
 * runs; stream /api/generate with temperature 0, seed 42, num_ctx,
 * num_predict 96 and the seed's prompt; time TTFT and the total in the
 * client; read Ollama's load, prefill and decode figures. After each
 * context read /api/ps and put the loaded size beside Headroom's prediction.
 * The run set is saved to the measurement archive as one JSON file,
 * atomically, and the board is left as it was found, also when cancelled.
 */
#pragma once

#include <gio/gio.h>

#include "hr-model-spec.h"
#include "hr-ollama-client.h"

G_BEGIN_DECLS

/** HR_MEASURE_PROMPT: the seed's prompt (From API to GPU, week 2). */
#define HR_MEASURE_PROMPT      "Explain Kubernetes scheduling in three sentences."
/** HR_MEASURE_NUM_PREDICT: reply tokens per run, as in the seed. */
#define HR_MEASURE_NUM_PREDICT 96
/** HR_MEASURE_RUNS: runs per context, the first cold. */
#define HR_MEASURE_RUNS        3
/** HR_MEASURE_SEED: the fixed seed, with temperature 0. */
#define HR_MEASURE_SEED        42

/* One run. Timing fields are Ollama's ns, -1 when absent; rates are
 * tokens/s, -1 when not computable ("n/a"). A run that broke off
 * mid-stream has @failed set: its ttft_ms and client_total_ms are the
 * client's, eval_count the text chunks it received (Ollama streams one
 * token a chunk), everything else -1. */
typedef struct {
  guint32  context;            /* num_ctx */
  guint    run;                /* 1-based within the context */
  gboolean cold;               /* the model was unloaded before it */
  double   ttft_ms;            /* client: request to first non-empty chunk (-1 = none) */
  double   client_total_ms;    /* client: request to end of stream */
  gint64   total_duration;
  gint64   load_duration;
  gint64   prompt_eval_count;
  gint64   prompt_eval_duration;
  gint64   eval_count;
  gint64   eval_duration;
  double   prefill_tps;        /* prompt_eval_count / prompt_eval_duration x 1e9 */
  double   decode_tps;         /* eval_count / eval_duration x 1e9 */
  char    *done_reason;
  char    *failed;             /* why the run broke off; NULL when it completed */
} HrMeasureResult;

/* What /api/ps said after a context's runs, beside the prediction. */
typedef struct {
  guint32  context;            /* num_ctx asked for */
  gboolean listed;             /* the model was in /api/ps */
  guint64  size;               /* bytes loaded */
  guint64  size_vram;          /* bytes of it on the GPU */
  guint32  context_length;     /* what the server reports (0 = not reported) */
  guint64  predicted;          /* Headroom's prediction in bytes (0 = none) */
  char    *prediction_source;  /* how it was predicted */
  gint64   difference;         /* size - predicted, bytes */
  double   difference_percent; /* difference / predicted x 100 */
} HrMeasurePs;

/**
 * HrMeasurePredictFunc:
 * @spec: the model as /api/show describes it
 * @context: num_ctx in tokens
 * @server_version: (nullable): the server's version ("0.31.2")
 * @out_bytes: (out): the predicted /api/ps size in bytes
 * @out_source: (out) (transfer full): a short description of the method
 * @user_data: the data given with the function
 *
 * Predicts what /api/ps will report for @spec at @context.
 *
 * Returns: %TRUE with a prediction, %FALSE when there is none.
 */
typedef gboolean (*HrMeasurePredictFunc) (const HrModelSpec *spec,
                                          guint32            context,
                                          const char        *server_version,
                                          guint64           *out_bytes,
                                          char             **out_source,
                                          gpointer           user_data);

#define HR_TYPE_MEASURE_RUN (hr_measure_run_get_type ())

G_DECLARE_FINAL_TYPE (HrMeasureRun, hr_measure_run, HR, MEASURE_RUN, GObject)

HrMeasureRun *hr_measure_run_new            (HrOllamaClient       *client,
                                             const char           *model,
                                             const char           *board_id);
void          hr_measure_run_set_contexts   (HrMeasureRun         *self,
                                             const guint32        *contexts,
                                             guint                 n_contexts);
void          hr_measure_run_set_runs       (HrMeasureRun         *self,
                                             guint                 runs);
void          hr_measure_run_set_num_predict (HrMeasureRun        *self,
                                              guint32              num_predict);
void          hr_measure_run_set_prompt     (HrMeasureRun         *self,
                                             const char           *prompt);
void          hr_measure_run_set_archive_dir (HrMeasureRun        *self,
                                              const char          *directory);
void          hr_measure_run_set_predictor  (HrMeasureRun         *self,
                                             HrMeasurePredictFunc  func,
                                             gpointer              user_data,
                                             GDestroyNotify        destroy);

void          hr_measure_run_start_async    (HrMeasureRun         *self,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
gboolean      hr_measure_run_finish         (HrMeasureRun         *self,
                                             GAsyncResult         *result,
                                             GError              **error);

GArray       *hr_measure_run_get_results    (HrMeasureRun         *self);
GArray       *hr_measure_run_get_ps         (HrMeasureRun         *self);
const char   *hr_measure_run_get_server_version (HrMeasureRun     *self);
const char   *hr_measure_run_get_digest     (HrMeasureRun         *self);
double        hr_measure_run_get_decode_mean (HrMeasureRun        *self);
const char   *hr_measure_run_get_saved_path (HrMeasureRun         *self);
JsonNode     *hr_measure_run_to_json        (HrMeasureRun         *self);

gboolean      hr_measure_predict_footprint  (const HrModelSpec    *spec,
                                             guint32               context,
                                             const char           *server_version,
                                             guint64              *out_bytes,
                                             char                **out_source,
                                             gpointer              user_data);

gboolean      hr_measure_predict_runtime    (const HrModelSpec    *spec,
                                             guint32               context,
                                             const char           *server_version,
                                             guint64              *out_bytes,
                                             char                **out_source,
                                             gpointer              user_data);

guint           hr_measure_wait_report_ms  (guint load_wait_ms);

G_END_DECLS
