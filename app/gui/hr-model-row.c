/* hr-model-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "hr-model-row-private.h"
#include "hr-offload.h"

G_DEFINE_FINAL_TYPE (HrModelRow, hr_model_row, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static inline void evaluate_plain (HrModelRow               *self,
                                   const HrEvaluationInputs *scenario);

static void
hr_model_row_finalize (GObject *object)
{
  HrModelRow *self = (HrModelRow *)object;

  g_clear_pointer (&self->spec, hr_model_spec_free);
  g_clear_pointer (&self->name_folded, g_free);
  g_clear_pointer (&self->runtime_cache, hr_runtime_spec_cache_free);
  g_clear_pointer (&self->plain_view, g_free);

  G_OBJECT_CLASS (hr_model_row_parent_class)->finalize (object);
}

static void
hr_model_row_class_init (HrModelRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = hr_model_row_finalize;

  /**
   * HrModelRow::changed:
   *
   * The evaluation, the measured rate or the recommended mark changed.
   * Cells connect to it while they are shown (hr_model_row_watch()); the
   * catalog model emits it after a slider step only on watched rows whose
   * figures or mark changed, and leaves the others a new serial
   * (hr_model_row_get_serial()).
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
hr_model_row_init (HrModelRow *self)
{
  self->kv_type = -1;
}

/**
 * hr_model_row_new:
 * @spec: the model; the row keeps its own copy
 *
 * Creates a row for @spec. Its evaluation is all zero until
 * hr_model_row_evaluate() is called.
 *
 * Returns: (transfer full): a new #HrModelRow
 */
HrModelRow *
hr_model_row_new (const HrModelSpec *spec)
{
  HrModelRow *self;

  g_return_val_if_fail (spec != NULL, NULL);

  self = g_object_new (HR_TYPE_MODEL_ROW, NULL);
  self->spec = hr_model_spec_copy (spec);
  self->name_folded = g_utf8_casefold (spec->name ? spec->name : "", -1);

  return self;
}

/**
 * hr_model_row_get_spec:
 * @self: a #HrModelRow
 *
 * Returns: (transfer none): the row's model
 */
const HrModelSpec *
hr_model_row_get_spec (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), NULL);

  return self->spec;
}

/**
 * hr_model_row_get_name:
 * @self: a #HrModelRow
 *
 * Returns: (transfer none): the model's name, such as "llama3.2:3b"
 */
const char *
hr_model_row_get_name (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), NULL);

  return self->spec->name ? self->spec->name : "";
}

/**
 * hr_model_row_matches:
 * @self: a #HrModelRow
 * @folded_needle: a search text already case-folded with g_utf8_casefold()
 *
 * Returns: %TRUE if the model's case-folded name contains @folded_needle
 */
gboolean
hr_model_row_matches (HrModelRow *self,
                      const char *folded_needle)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), FALSE);

  if (folded_needle == NULL || folded_needle[0] == '\0')
    return TRUE;

  return strstr (self->name_folded, folded_needle) != NULL;
}

/**
 * hr_model_row_get_evaluation:
 * @self: a #HrModelRow
 *
 * Returns: (transfer none): the evaluation of the last scenario given to
 *   hr_model_row_evaluate()
 */
const HrEvaluation *
hr_model_row_get_evaluation (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), NULL);

  return &self->evaluation;
}

/**
 * hr_model_row_get_kv_per_token:
 * @self: a #HrModelRow
 *
 * Returns: the KV cache bytes one token takes in the KV cache type the
 *   last evaluation used (hr_model_row_get_kv_type(),
 *   hr_memory_kv_bytes_per_token()), for one parallel slot
 */
guint64
hr_model_row_get_kv_per_token (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), 0);

  return self->kv_per_token;
}

/**
 * hr_model_row_get_kv_type:
 * @self: a #HrModelRow
 *
 * The KV cache type the row's KV figures are in: the scenario's, or the
 * one the runtime model resolved (#HrRuntimePrediction's kv_type: with
 * flash attention off Ollama keeps an f16 cache, as llama.cpp refuses a
 * quantized V cache without it; hr-runtime-0-30.c). Compare with the
 * scenario's type to say why they differ (hr_gui_kv_fallback_note()).
 *
 * Returns: the type; %HR_KV_CACHE_F16 before the first evaluation
 */
HrKvCacheType
hr_model_row_get_kv_type (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), HR_KV_CACHE_F16);

  return self->kv_type < 0 ? HR_KV_CACHE_F16 : (HrKvCacheType) self->kv_type;
}

/**
 * hr_model_row_get_measured_tps:
 * @self: a #HrModelRow
 *
 * Returns: the mean decode rate in tokens/s the measurement archive holds
 *   for this model on the current board, or 0 when it holds none
 */
double
hr_model_row_get_measured_tps (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), 0.0);

  return self->measured_tps;
}

/**
 * hr_model_row_set_measured_tps:
 * @self: a #HrModelRow
 * @measured_tps: decode tokens/s measured on the current board, 0 for none
 *
 * Sets the measured rate hr_model_row_evaluate() passes to hr_evaluate().
 * Does not emit #HrModelRow::changed; evaluate and then call
 * hr_model_row_changed().
 */
void
hr_model_row_set_measured_tps (HrModelRow *self,
                               double      measured_tps)
{
  g_return_if_fail (HR_IS_MODEL_ROW (self));

  self->measured_tps = measured_tps > 0.0 ? measured_tps : 0.0;
}

/**
 * hr_model_row_get_recommended:
 * @self: a #HrModelRow
 *
 * Returns: %TRUE if hr_recommend() picked this row under the last scenario
 */
gboolean
hr_model_row_get_recommended (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), FALSE);

  return self->recommended;
}

/**
 * hr_model_row_set_recommended:
 * @self: a #HrModelRow
 * @recommended: whether hr_recommend() picked this row
 *
 * Marks the row. Does not emit #HrModelRow::changed.
 */
void
hr_model_row_set_recommended (HrModelRow *self,
                              gboolean    recommended)
{
  g_return_if_fail (HR_IS_MODEL_ROW (self));

  self->recommended = !!recommended;
}

/**
 * hr_model_row_evaluate:
 * @self: a #HrModelRow
 * @scenario: the board, precision, context, KV cache type and parallel slots
 *
 * Re-evaluates the row in place with hr_evaluate() (no runtime overhead
 * model: overhead 0 bytes) and the row's measured rate. Allocates nothing
 * and emits nothing: the caller evaluates every row, then tells the list once.
 */
void
hr_model_row_evaluate (HrModelRow       *self,
                       const HrEvaluationInputs *scenario)
{
  g_return_if_fail (HR_IS_MODEL_ROW (self));
  g_return_if_fail (scenario != NULL);

  evaluate_plain (self, scenario);
}

/* The plain math into the row's evaluation, its footprint, verdict and
 * margin kept aside. With @context_step (the row was last evaluated under
 * @scenario but for its context) only what the context changes is made
 * again (hr_evaluate_context_step()). Returns: whether it was. */
static inline gboolean
plain_math (HrModelRow               *self,
            const HrEvaluationInputs *scenario,
            gboolean                  context_step)
{
  gboolean stepped = context_step &&
                     hr_evaluate_context_step (scenario, self->spec, &self->plain_cache, 0, &self->evaluation);

  if (!stepped)
    hr_evaluate_cached (scenario, self->spec, &self->plain_cache, self->measured_tps, 0, &self->evaluation);
  /* Only what the runtime changes is kept aside: copying the whole
   * evaluation touched four more cache lines of every row on every step. */
  self->plain_footprint = self->evaluation.footprint;
  self->plain_verdict = self->evaluation.verdict;
  self->plain_margin_bytes = self->evaluation.margin_bytes;
  return stepped;
}

/* The per-token KV figure in @type (the type asked for, or the one the
 * runtime's KV cache is in), worked out only when the type changes. */
static inline void
set_kv_type (HrModelRow    *self,
             HrKvCacheType  type)
{
  if (self->kv_type != (int) type)
    {
      self->kv_per_token = hr_memory_kv_bytes_per_token (self->spec, type);
      self->kv_type = (int) type;
    }
}

/* No runtime's figures yet: what the plain math alone shows. */
static inline void
clear_runtime_figures (HrModelRow *self)
{
  self->learned_bytes = 0;
  self->projector_bytes = 0;
  self->runtime_failed = FALSE;
  self->runtime_clamped_at = 0;
}

/* hr_model_row_evaluate() without the checks. */
static inline void
evaluate_plain (HrModelRow               *self,
                const HrEvaluationInputs *scenario)
{
  plain_math (self, scenario, FALSE);
  clear_runtime_figures (self);
  set_kv_type (self, scenario->kv_type);
}

/**
 * hr_model_row_evaluate_runtime:
 * @self: a #HrModelRow
 * @scenario: the board, precision, context, KV cache type and parallel slots
 * @runtime: (nullable): the runtime settings (era, server version, flash
 *   attention, batch); spec, precision, context, slots and KV cache type are
 *   taken from @self and @scenario. %NULL: hr_model_row_evaluate().
 * @calibration: (nullable): the board's learned overhead (hr-calibration.h)
 *
 * Re-evaluates the row with the footprint the runtime model predicts
 * (hr_runtime_predict() in its bytes-only mode, so nothing is allocated):
 * weights = weights on the GPU + the output layer (+ on a unified board
 * what stays in host memory, the same memory); KV cache = KV cache +
 * recurrent state; overhead = compute buffer (+ the old estimator's reserve
 * and buffer layer) + a vision projector + the learned overhead, which
 * hr_model_row_get_projector_bytes() and hr_model_row_get_learned_bytes()
 * give on their own. The verdict and margin
 * follow the new total (hr_board_verdict()), except on a board with host
 * memory, where the verdict and margin stay the GPU/host split's that
 * hr_evaluate() placed (the explain panel's and pool chart's);
 * the rate stays the seed's
 * (it reads the weights' bytes). When the runtime model cannot size the
 * model, the plain math stays and hr_model_row_get_runtime_failed() says so.
 */
void
hr_model_row_evaluate_runtime (HrModelRow            *self,
                               const HrEvaluationInputs      *scenario,
                               const HrRuntimeInputs *runtime,
                               const HrCalibration   *calibration)
{
  HrRuntimeInputs pass;

  g_return_if_fail (HR_IS_MODEL_ROW (self));
  g_return_if_fail (scenario != NULL);

  if (runtime != NULL)
    _hr_model_row_prepare_runtime (scenario, runtime, &pass);
  _hr_model_row_evaluate_runtime (self, scenario, runtime != NULL ? &pass : NULL, calibration, FALSE);
}

/**
 * _hr_model_row_prepare_runtime: (skip)
 * @scenario: the scenario's inputs
 * @runtime: the runtime template
 * @pass: (out caller-allocates): the runtime's inputs for every row of a
 *   pass
 *
 * The scenario's precision, context, slots and KV type over @runtime's,
 * without texts, and the era the server version names worked out once
 * (with an automatic era hr_runtime_predict() would parse the version
 * for every row; only its notes, not written without texts, tell the two
 * apart). _hr_model_row_evaluate_runtime() sets the spec and the cache,
 * the only inputs of a row's own.
 */
void
_hr_model_row_prepare_runtime (const HrEvaluationInputs *scenario,
                               const HrRuntimeInputs    *runtime,
                               HrRuntimeInputs          *pass)
{
  *pass = *runtime;
  if (pass->era == HR_RUNTIME_ERA_AUTO)
    pass->era = hr_runtime_era_for_version (pass->server_version);
  pass->spec = NULL;
  pass->cache = NULL;
  pass->precision = scenario->precision;
  pass->context_tokens = scenario->context_tokens;
  /* llama-server's slots are its own (-np auto), whatever the setting. */
  pass->parallel_slots = runtime->era == HR_RUNTIME_ERA_LLAMA_SERVER ? 0 : scenario->parallel_slots;
  pass->kv_type = scenario->kv_type;
  pass->skip_text = TRUE;
}

/* What hr_calibration_apply() adds to a prediction's @total at
 * @context_tokens, without the term's texts (that allocates, and this runs
 * for every row on every slider step); the total never goes below 0.
 * Returns: the learned bytes added. */
static gint64
add_learned_overhead (const HrCalibration  *calibration,
                      guint32               context_tokens,
                      guint64              *total)
{
  gint64 learned;

  if (calibration == NULL)
    return 0;
  learned = hr_calibration_overhead_bytes (calibration, context_tokens);
  if (learned < 0 && (guint64) -learned > *total)
    learned = -(gint64) *total;
  *total = (guint64) ((gint64) *total + learned);
  return learned;
}

/* Where the chart draws each kind of term: weights, KV cache (and
 * recurrent state), or overhead (compute, the old estimator's reserve and
 * buffer layer, a vision projector, llama-server's draft model: all in
 * the total, hr_offload_pool_bytes()). The learned term is not the
 * runtime's (add_learned_overhead()). A table, not a switch: this runs
 * for every term of every row on every slider step. */
enum { PART_NONE, PART_WEIGHTS, PART_KV, PART_OVERHEAD, N_PARTS };

static const guint8 chart_part[HR_RUNTIME_N_TERM_KINDS] = {
  [HR_RUNTIME_TERM_RESERVE] = PART_OVERHEAD,
  [HR_RUNTIME_TERM_BUFFER_LAYER] = PART_OVERHEAD,
  [HR_RUNTIME_TERM_WEIGHTS] = PART_WEIGHTS,
  [HR_RUNTIME_TERM_OUTPUT] = PART_WEIGHTS,
  [HR_RUNTIME_TERM_KV_CACHE] = PART_KV,
  [HR_RUNTIME_TERM_RECURRENT_STATE] = PART_KV,
  [HR_RUNTIME_TERM_COMPUTE] = PART_OVERHEAD,
  [HR_RUNTIME_TERM_PROJECTOR] = PART_OVERHEAD,
  [HR_RUNTIME_TERM_DRAFT_WEIGHTS] = PART_OVERHEAD,
  [HR_RUNTIME_TERM_DRAFT_KV] = PART_OVERHEAD,
  [HR_RUNTIME_TERM_DRAFT_COMPUTE] = PART_OVERHEAD,
  [HR_RUNTIME_TERM_DRAFT_OUTPUT] = PART_OVERHEAD,
};

/* One pass over @p's terms, each summed where the chart draws it (the first
 * term of a kind, as hr_runtime_prediction_term_bytes() reads); the row's
 * projector bytes on their own for the texts. */
static void
sum_chart_parts (HrModelRow                *self,
                 const HrRuntimePrediction *p,
                 guint64                   *weights,
                 guint64                   *kv,
                 guint64                   *overhead)
{
  guint64 parts[N_PARTS] = { 0 };
  guint64 projector = 0;

  for (guint i = 0, seen = 0; i < p->n_terms; i++)
    {
      HrRuntimeTermKind kind = p->terms[i].kind;
      guint64 bytes = (guint64) MAX (0, p->terms[i].bytes);

      if (seen & (1u << kind))
        continue;
      seen |= 1u << kind;
      parts[chart_part[kind]] += bytes;
      if (kind == HR_RUNTIME_TERM_PROJECTOR)
        projector += bytes;
    }
  *weights = parts[PART_WEIGHTS];
  *kv = parts[PART_KV];
  *overhead = parts[PART_OVERHEAD];
  self->projector_bytes = projector;
}

/* What the row takes of a runtime prediction, whole or a context step's. */
typedef struct {
  guint32  context_tokens;  /* after the clamp */
  gboolean clamped;
  guint64  total;           /* the prediction's total, then with the learned overhead */
  guint64  host;
  guint64  weights, kv, overhead;  /* the chart's parts (sum_chart_parts()) */
} RuntimeFigures;

/* The whole prediction of @runtime for the row into @out, its chart parts
 * summed (and the next context step's kept); FALSE when the runtime model
 * cannot size the model. Not inlined: its prediction, some 18 KB, is on
 * its own stack frame, not on that of every row's context step. */
static G_GNUC_NO_INLINE gboolean
predict_whole (HrModelRow               *self,
               const HrEvaluationInputs *scenario,
               HrRuntimeInputs          *runtime,
               RuntimeFigures           *out)
{
  HrRuntimePrediction p;

  if (!hr_runtime_predict (runtime, &p, NULL))
    {
      self->runtime_failed = TRUE;
      set_kv_type (self, scenario->kv_type);
      return FALSE;
    }
  /* The per-token figure in the type the runtime's KV cache is in. */
  set_kv_type (self, p.kv_type);
  out->context_tokens = p.context_tokens;
  out->clamped = p.context_clamped;
  out->total = p.total_bytes;
  out->host = p.host_bytes;
  sum_chart_parts (self, &p, &out->weights, &out->kv, &out->overhead);
  if (scenario->board->unified)
    out->weights += p.host_bytes;
  /* The next step's parts: a prediction the core records for a step has
   * exactly one KV cache and one compute term (rt_step_record()). */
  self->step_weights = out->weights;
  self->step_projector = self->projector_bytes;
  self->step_kv = out->kv - (guint64) MAX (0, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE));
  self->step_overhead = out->overhead - (guint64) MAX (0, hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE));
  return TRUE;
}

/* A context step's figures into @out, over the parts the last whole
 * prediction left; FALSE when the core has no step for the row. */
static inline gboolean
predict_step (HrModelRow      *self,
              HrRuntimeInputs *runtime,
              RuntimeFigures  *out)
{
  HrRuntimeContextStep step;

  if (!hr_runtime_predict_context_step (runtime, &step))
    return FALSE;
  out->context_tokens = step.context_tokens;
  out->clamped = step.context_clamped;
  out->total = step.total_bytes;
  out->host = step.host_bytes;
  out->weights = self->step_weights;
  out->kv = self->step_kv + step.kv_cache_bytes;
  out->overhead = self->step_overhead + step.compute_bytes;
  self->projector_bytes = self->step_projector;
  /* The type the runtime's KV cache is in: the last one's. */
  set_kv_type (self, step.kv_type);
  return TRUE;
}

/**
 * _hr_model_row_evaluate_runtime: (skip)
 *
 * hr_model_row_evaluate_runtime() without the checks, for the catalog
 * model's pass over every row (hr-model-row-private.h), with the runtime's
 * inputs of the pass (_hr_model_row_prepare_runtime(), %NULL for the plain
 * math), whose spec and cache it sets to the row's. @context_step:
 * the row's last evaluation was under @scenario (and its measured rate)
 * but for the context, so the plain math makes only what the context
 * changes again (hr_evaluate_context_step()), a prediction Ollama's
 * clamp to the model's limit leaves as it was is kept, and any other
 * Ollama 0.30+ prediction makes only its KV cache and compute buffer again
 * (hr_runtime_predict_context_step(), over the chart parts the last whole
 * prediction left: predict_whole()); any other prediction is made whole.
 */
void
_hr_model_row_evaluate_runtime (HrModelRow               *self,
                                const HrEvaluationInputs *scenario,
                                HrRuntimeInputs          *runtime,
                                const HrCalibration      *calibration,
                                gboolean                  context_step)
{
  RuntimeFigures r;
  HrFootprint *f;
  gint64 learned;
  guint64 total;

  /* Ollama clamps num_ctx to the model's limit (the runtime's
   * context_clamped): from a context past it to another at or past it the
   * prediction is the same, so on such a step only the plain math moves
   * and the runtime's figures are put back. */
  gboolean keep = context_step && runtime != NULL && self->runtime_clamped_at > 0 &&
                  scenario->context_tokens >= self->runtime_clamped_at;
  HrFootprint kept_footprint = self->evaluation.footprint;
  HrVerdict kept_verdict = self->evaluation.verdict;
  guint64 kept_margin = self->evaluation.margin_bytes;

  if (plain_math (self, scenario, context_step) && keep)
    {
      self->evaluation.footprint = kept_footprint;
      self->evaluation.verdict = kept_verdict;
      self->evaluation.margin_bytes = kept_margin;
      return;
    }
  clear_runtime_figures (self);
  if (runtime == NULL)
    {
      set_kv_type (self, scenario->kv_type);
      return;
    }

  if (self->runtime_cache == NULL)
    self->runtime_cache = hr_runtime_spec_cache_new ();
  runtime->spec = self->spec;
  runtime->cache = self->runtime_cache;
  /* On a context step the cache's last prediction was under the same
   * inputs but for the context: only what the context changes is made
   * again. */
  if (!(context_step && predict_step (self, runtime, &r)) && !predict_whole (self, scenario, runtime, &r))
    return;
  learned = add_learned_overhead (calibration, r.context_tokens, &r.total);
  if (learned >= 0)
    r.overhead += (guint64) learned;
  else
    r.overhead = r.overhead > (guint64) -learned ? r.overhead - (guint64) -learned : 0;

  /* The figure every one-pool verdict is judged on, the fit finders' too. */
  total = hr_offload_pool_bytes_for (scenario->board, r.total, r.host);

  f = &self->evaluation.footprint;
  f->weights = r.weights;
  f->kv_cache = r.kv;
  f->overhead = r.overhead;
  f->total = total;
  /* A board with host memory: the verdict is the GPU/host split's
   * (hr_evaluate(), hr_offload_predict()), the one the explain panel and
   * the pool chart draw; judging the total against the GPU's pool alone
   * would call every partial row over. */
  if (!self->evaluation.split)
    self->evaluation.verdict = hr_board_verdict (scenario->board, total, &self->evaluation.margin_bytes);
  self->learned_bytes = learned;
  if (r.clamped)
    self->runtime_clamped_at = r.context_tokens;
}

/**
 * hr_model_row_get_plain_evaluation:
 * @self: a #HrModelRow
 *
 * Returns: (transfer none): the last evaluation with the seed's plain math
 *   (weights + KV cache, no runtime model): its weights are the ones the
 *   decode ceiling and rate were computed from. Without a runtime it is
 *   the same as hr_model_row_get_evaluation(). Valid until the next call
 *   or the next evaluation of @self.
 */
const HrEvaluation *
hr_model_row_get_plain_evaluation (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), NULL);

  /* The runtime changes only the footprint, the verdict and the margin
   * (_hr_model_row_evaluate_runtime()); the rest is the same evaluation. */
  if (self->plain_view == NULL)
    self->plain_view = g_new (HrEvaluation, 1);
  *self->plain_view = self->evaluation;
  self->plain_view->footprint = self->plain_footprint;
  self->plain_view->verdict = self->plain_verdict;
  self->plain_view->margin_bytes = self->plain_margin_bytes;
  return self->plain_view;
}

/**
 * hr_model_row_get_projector_bytes:
 * @self: a #HrModelRow
 *
 * Returns: the vision projector's bytes (the runtime's projector term,
 *   Ollama llm/llama_server.go mmprojMemoryRequirement) that the last
 *   hr_model_row_evaluate_runtime() counted in the footprint's overhead;
 *   0 without a projector or a runtime
 */
guint64
hr_model_row_get_projector_bytes (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), 0);

  return self->projector_bytes;
}

/**
 * hr_model_row_get_learned_bytes:
 * @self: a #HrModelRow
 *
 * Returns: the board's learned overhead, in bytes, that the last
 *   hr_model_row_evaluate_runtime() counted in the footprint's overhead
 *   (negative when the runtime model predicted too much); 0 without a runtime
 */
gint64
hr_model_row_get_learned_bytes (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), 0);

  return self->learned_bytes;
}

/**
 * hr_model_row_get_runtime_failed:
 * @self: a #HrModelRow
 *
 * Returns: %TRUE when the last hr_model_row_evaluate_runtime() could not
 *   size the model with the runtime model and kept the plain math
 */
gboolean
hr_model_row_get_runtime_failed (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), FALSE);

  return self->runtime_failed;
}

/**
 * hr_model_row_changed:
 * @self: a #HrModelRow
 *
 * Emits #HrModelRow::changed so the cells bound to the row refresh. Rows
 * nobody watches (hr_model_row_watch()) emit nothing: with 10,000 rows and
 * a screenful of cells, most rows are not on screen, and an emission costs
 * even with no handler.
 */
void
hr_model_row_changed (HrModelRow *self)
{
  g_return_if_fail (HR_IS_MODEL_ROW (self));

  _hr_model_row_changed (self);
}

/**
 * _hr_model_row_changed: (skip)
 *
 * hr_model_row_changed() without the check (hr-model-row-private.h).
 */
void
_hr_model_row_changed (HrModelRow *self)
{
  self->serial++;
  if (self->watchers > 0)
    g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * hr_model_row_get_serial:
 * @self: a #HrModelRow
 *
 * A number that changes each time the row's figures may have changed
 * (each #HrModelRow::changed, and each evaluation of a row nobody
 * watches, which emits nothing): a cell that kept the serial it showed
 * knows, when it is shown again, whether to read the row again.
 *
 * Returns: the serial
 */
guint
hr_model_row_get_serial (HrModelRow *self)
{
  g_return_val_if_fail (HR_IS_MODEL_ROW (self), 0);

  return self->serial;
}

/**
 * hr_model_row_watch:
 * @self: a #HrModelRow
 *
 * A cell showing the row connected to #HrModelRow::changed; call
 * hr_model_row_unwatch() when it disconnects.
 */
void
hr_model_row_watch (HrModelRow *self)
{
  g_return_if_fail (HR_IS_MODEL_ROW (self));

  self->watchers++;
}

/**
 * hr_model_row_unwatch:
 * @self: a #HrModelRow
 *
 * Undoes one hr_model_row_watch().
 */
void
hr_model_row_unwatch (HrModelRow *self)
{
  g_return_if_fail (HR_IS_MODEL_ROW (self));
  g_return_if_fail (self->watchers > 0);

  self->watchers--;
}
