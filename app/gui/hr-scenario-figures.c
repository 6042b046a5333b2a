/* hr-scenario-figures.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the figures read from an HrScenario: the evaluation inputs, the
 * board's fit and measured rates, the runtime template and learned
 * overhead, one model's evaluation and the line an export is titled with.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-gui-format.h"
#include "hr-model-row.h"
#include "hr-scenario-private.h"


/**
 * hr_scenario_get_precision_info:
 * @self: a #HrScenario
 *
 * Returns: (transfer none) (nullable): the precision every model is sized
 *   at, or %NULL for "as pulled" (each model's own file)
 */
const HrPrecision *
hr_scenario_get_precision_info (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return self->precision_info;
}

/**
 * hr_scenario_get_evaluation_inputs:
 * @self: a #HrScenario
 * @out: (out caller-allocates): the inputs of hr_evaluate(): board (owned
 *   by @self, valid until the next "changed"), precision, KV cache type,
 *   context, slots, the board's fit and floor rate
 */
void
hr_scenario_get_evaluation_inputs (HrScenario         *self,
                                   HrEvaluationInputs *out)
{
  g_return_if_fail (HR_IS_SCENARIO (self));
  g_return_if_fail (out != NULL);

  *out = self->inputs;
}

/**
 * hr_scenario_peek_evaluation_inputs:
 * @self: a #HrScenario
 *
 * Returns: (transfer none): the inputs hr_scenario_get_evaluation_inputs()
 *   copies, valid until the next "changed"
 */
const HrEvaluationInputs *
hr_scenario_peek_evaluation_inputs (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return &self->inputs;
}

/**
 * hr_scenario_get_fit:
 * @self: a #HrScenario
 *
 * Returns: (transfer none): the board's efficiency, fitted on its measured
 *   models (hr_rate_fit_efficiency()); n_points 0 when none was measured
 */
const HrEfficiencyFit *
hr_scenario_get_fit (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return &self->fit;
}

/**
 * hr_scenario_get_measured_tps:
 * @self: a #HrScenario
 * @model_name: a model name
 *
 * Returns: the decode rate measured for @model_name on the selected board
 *   (hr_measurement_archive_rates()), tokens/s; 0 when never measured
 */
double
hr_scenario_get_measured_tps (HrScenario *self,
                              const char *model_name)
{
  const double *tps;

  g_return_val_if_fail (HR_IS_SCENARIO (self), 0.0);

  if (self->rates == NULL || model_name == NULL)
    return 0.0;
  tps = g_hash_table_lookup (self->rates, model_name);
  return tps ? *tps : 0.0;
}

/**
 * hr_scenario_get_rates_serial:
 * @self: a #HrScenario
 *
 * A number that changes whenever hr_scenario_get_measured_tps() may answer
 * differently (another board, its edits, the catalog or the archive read
 * again), so a list of thousands of rows looks its rates up only then,
 * not on every slider step.
 *
 * Returns: the serial
 */
guint
hr_scenario_get_rates_serial (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), 0);

  return self->rates_serial;
}

/**
 * hr_scenario_get_runtime_template:
 * @self: a #HrScenario
 *
 * Returns: (transfer none) (nullable): the runtime inputs every prediction
 *   starts from (era, server version, flash attention, batch; spec and
 *   sizes are each model's), or %NULL with no runtime ("Seed: weights + KV only")
 */
const HrRuntimeInputs *
hr_scenario_get_runtime_template (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return self->runtime == HR_SCENARIO_RUNTIME_NONE ? NULL : &self->runtime_inputs;
}

/**
 * hr_scenario_get_calibration:
 * @self: a #HrScenario
 *
 * Returns: (transfer none): the overhead learned from the board's
 *   measurements under the runtime (hr_calibration_fit()); empty with no
 *   runtime
 */
const HrCalibration *
hr_scenario_get_calibration (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return &self->calibration;
}

/**
 * hr_scenario_get_calibration_text:
 * @self: a #HrScenario
 *
 * Returns: (transfer none) (nullable): what the learned overhead rests on
 *   (hr_calibration_describe()), or %NULL with no runtime
 */
const char *
hr_scenario_get_calibration_text (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return self->calibration_text;
}

/**
 * hr_scenario_get_server_version:
 * @self: a #HrScenario
 *
 * Returns: (transfer none) (nullable): the Ollama version of the board's
 *   newest measurement ("ollama 0.31.2", hr_measurement_archive_server_version())
 */
const char *
hr_scenario_get_server_version (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return self->server_version;
}

/**
 * hr_scenario_evaluate:
 * @self: a #HrScenario
 * @spec: a model
 * @out: (out caller-allocates): its evaluation
 *
 * Evaluates @spec as a row of the Models page would be: its measured rate
 * on the board, the runtime's footprint and the learned overhead when a
 * runtime is selected (hr_model_row_evaluate_runtime()). The session must
 * be loaded.
 */
void
hr_scenario_evaluate (HrScenario        *self,
                      const HrModelSpec *spec,
                      HrEvaluation      *out)
{
  g_autoptr(HrModelRow) row = NULL;

  g_return_if_fail (HR_IS_SCENARIO (self));
  g_return_if_fail (spec != NULL && out != NULL);
  g_return_if_fail (self->board != NULL);

  row = hr_model_row_new (spec);
  hr_scenario_evaluate_row (self, row);
  *out = *hr_model_row_get_evaluation (row);
}

/**
 * hr_scenario_evaluate_row:
 * @self: a #HrScenario
 * @row: a model's row (a Models page row, or one a page holds for a model
 *   not in the catalog)
 *
 * Evaluates @row as the Models page evaluates its rows, so one model shows
 * one total on every page: the measured rate on the board, the runtime's
 * prediction for the scenario (its era, flash attention and batch; the
 * scenario's precision, context, KV cache type and slots) and the board's
 * learned overhead (hr_model_row_evaluate_runtime()); with no runtime
 * ("Seed: weights + KV only") the seed's plain math. The session must be loaded.
 */
void
hr_scenario_evaluate_row (HrScenario *self,
                          HrModelRow *row)
{
  const HrModelSpec *spec;

  g_return_if_fail (HR_IS_SCENARIO (self));
  g_return_if_fail (HR_IS_MODEL_ROW (row));
  g_return_if_fail (self->board != NULL);

  spec = hr_model_row_get_spec (row);
  hr_model_row_set_measured_tps (row, hr_scenario_get_measured_tps (self, spec->name));
  hr_model_row_evaluate_runtime (row, &self->inputs, hr_scenario_get_runtime_template (self),
                                 &self->calibration);
}

/**
 * hr_scenario_get_method_label:
 * @self: a #HrScenario
 *
 * Returns: (transfer none): which method makes the figures, translated:
 *   the runtime era's label (hr_runtime_era_label(), the era the server
 *   version picks under "auto"), or the seed's weights + KV cache with no
 *   runtime
 */
const char *
hr_scenario_get_method_label (HrScenario *self)
{
  HrRuntimeEra era;

  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  if (self->runtime == HR_SCENARIO_RUNTIME_NONE)
    return hr_runtime_era_label (HR_RUNTIME_ERA_SEED);
  era = self->runtime_inputs.era == HR_RUNTIME_ERA_AUTO ?
        hr_runtime_era_for_version (self->runtime_inputs.server_version) : self->runtime_inputs.era;
  return hr_runtime_era_label (era);
}

/**
 * hr_scenario_describe:
 * @self: a #HrScenario
 *
 * Returns: (transfer full): the inputs in one line, for the title of an
 *   exported file: "Headroom: Jetson Orin Nano Super (jetson-orin-nano-super),
 *   precision as pulled, context 4,096 tokens, KV cache f16, 1 parallel
 *   slot", then ", runtime ..., flash attention on/off" with a runtime;
 *   "Headroom" before the session loaded
 */
char *
hr_scenario_describe (HrScenario *self)
{
  g_autofree char *context = NULL;
  g_autofree char *text = NULL;
  const char *precision;
  HrRuntimeEra era;

  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  if (self->board == NULL)
    return g_strdup (_("Headroom"));

  context = hr_gui_format_context (self->inputs.context_tokens);
  precision = self->inputs.precision ? self->inputs.precision->label : _("as pulled");

  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Headroom: %1$s (%2$s), precision %3$s, context %4$s, "
                                       "KV cache %5$s, %6$u parallel slot",
                                       "Headroom: %1$s (%2$s), precision %3$s, context %4$s, "
                                       "KV cache %5$s, %6$u parallel slots",
                                       self->inputs.parallel_slots),
                          self->board->name, self->board->id, precision, context,
                          hr_gui_kv_cache_type_label (self->inputs.kv_type),
                          self->inputs.parallel_slots);
  if (self->runtime == HR_SCENARIO_RUNTIME_NONE)
    return g_steal_pointer (&text);

  era = self->runtime_inputs.era == HR_RUNTIME_ERA_AUTO ?
        hr_runtime_era_for_version (self->runtime_inputs.server_version) : self->runtime_inputs.era;
  /* Translators: the inputs line, then the runtime era and flash attention on/off */
  return g_strdup_printf (_("%1$s, runtime %2$s, flash attention %3$s"), text, hr_runtime_era_label (era),
                          self->flash_attention ? _("on") : _("off"));
}

/**
 * hr_scenario_get_session:
 * @self: a #HrScenario
 *
 * Returns: (transfer none): the session the scenario reads its boards,
 *   catalog and measurements from
 */
HrSession *
hr_scenario_get_session (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return self->session;
}
