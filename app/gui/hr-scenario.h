/* hr-scenario.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrScenario: what every memory figure in the window is computed under, as
 * properties bound to GSettings (g_settings_bind): the board, the
 * precision, the context window (num_ctx), the KV cache type, the parallel
 * slots, the runtime, flash attention and the batch. One scenario is shared
 * by every page that shows memory (Models, Hugging Face, File and the Board
 * page's pull check): a change made anywhere emits "changed" once, and
 * every chart, table, card and explain panel listening recomputes. Nobody
 * pushes figures by hand.
 *
 * The scenario also derives what the figures need from the session: the
 * selected board as edited (unsaved editor values included), the board's
 * efficiency fit and measured rates (docs/seed-figures.md "Rates"), the
 * runtime template and the overhead learned from the board's measurements.
 */
#pragma once

#include <gio/gio.h>

#include "hr-calibration.h"
#include "hr-catalog-model.h"
#include "hr-evaluate.h"
#include "hr-model-row.h"
#include "hr-runtime.h"
#include "hr-session.h"

G_BEGIN_DECLS

/**
 * HrScenarioRuntime:
 * @HR_SCENARIO_RUNTIME_NONE: weights + KV cache, the seed's plain math (nick
 *   "seed", the command line's --runtime seed)
 * @HR_SCENARIO_RUNTIME_OLLAMA_0_30: Ollama 0.30 and newer (llama-server)
 * @HR_SCENARIO_RUNTIME_OLLAMA_0_12: Ollama up to 0.12
 * @HR_SCENARIO_RUNTIME_BOARD: the era of the board's server version, the
 *   newest with none measured (the default)
 * @HR_SCENARIO_RUNTIME_LLAMA_SERVER: llama.cpp's llama-server run by hand,
 *   with its own defaults: the context is its -c, the whole cache the 4
 *   automatic slots share (the parallel-slots setting does not apply)
 *
 * The runtime the footprint models; the order and nicks of the settings
 * enum io.github.headroom.Headroom.Runtime ("seed", "ollama-0.30",
 * "ollama-0.12", "board", "llama-server").
 */
typedef enum {
  HR_SCENARIO_RUNTIME_NONE,         /*< nick=seed >*/
  HR_SCENARIO_RUNTIME_OLLAMA_0_30,  /*< nick=ollama-0.30 >*/
  HR_SCENARIO_RUNTIME_OLLAMA_0_12,  /*< nick=ollama-0.12 >*/
  HR_SCENARIO_RUNTIME_BOARD,        /*< nick=board >*/
  HR_SCENARIO_RUNTIME_LLAMA_SERVER, /*< nick=llama-server >*/
} HrScenarioRuntime;

#define HR_TYPE_SCENARIO (hr_scenario_get_type ())

G_DECLARE_FINAL_TYPE (HrScenario, hr_scenario, HR, SCENARIO, GObject)

/*
 * Properties (all G_PARAM_EXPLICIT_NOTIFY, notified only on change), and
 * the settings key each is bound to by hr_scenario_bind_settings():
 *   "board-id"         string   "default-board"
 *   "precision"        string   "precision"        ("as-pulled" or a precision id)
 *   "context-tokens"   uint     "default-context"  (512 ... 131,072)
 *   "kv-cache-type"    HrKvCacheType      "kv-cache-type" (nicks "f16", "q8_0", "q4_0")
 *   "parallel-slots"   uint     "parallel-slots"   (1 ... 8)
 *   "runtime"          HrScenarioRuntime  "runtime"       (its nicks)
 *   "flash-attention"  boolean  "flash-attention"
 *   "batch"            uint     "batch"            (llama.cpp's -b, 512 by default)
 *   "n-cpu-moe"        uint     "n-cpu-moe"        (0 ... 4,096: blocks whose MoE experts stay in
 *                                                   host memory, --n-cpu-moe; 0 = none)
 * Signal:
 *   "changed"          emitted once after anything a figure depends on
 *                      changed: a property, the board's unsaved edits, or
 *                      the session's boards, catalog or measurements; the
 *                      catalog model (hr_scenario_get_catalog_model()) is
 *                      re-evaluated, and has emitted "items-changed", by
 *                      then.
 */

HrScenario        *hr_scenario_new                   (HrSession          *session);
void               hr_scenario_bind_settings         (HrScenario         *self,
                                                      GSettings          *settings);
HrSession         *hr_scenario_get_session           (HrScenario         *self);
HrCatalogModel    *hr_scenario_get_catalog_model     (HrScenario         *self);

const char        *hr_scenario_get_board_id          (HrScenario         *self);
void               hr_scenario_set_board_id          (HrScenario         *self,
                                                      const char         *board_id);
const char        *hr_scenario_get_precision         (HrScenario         *self);
void               hr_scenario_set_precision         (HrScenario         *self,
                                                      const char         *precision);
guint32            hr_scenario_get_context_tokens    (HrScenario         *self);
void               hr_scenario_set_context_tokens    (HrScenario         *self,
                                                      guint32             context_tokens);
HrKvCacheType      hr_scenario_get_kv_cache_type     (HrScenario         *self);
void               hr_scenario_set_kv_cache_type     (HrScenario         *self,
                                                      HrKvCacheType       kv_type);
guint32            hr_scenario_get_parallel_slots    (HrScenario         *self);
void               hr_scenario_set_parallel_slots    (HrScenario         *self,
                                                      guint32             parallel_slots);
HrScenarioRuntime  hr_scenario_get_runtime           (HrScenario         *self);
void               hr_scenario_set_runtime           (HrScenario         *self,
                                                      HrScenarioRuntime   runtime);
gboolean           hr_scenario_get_flash_attention   (HrScenario         *self);
void               hr_scenario_set_flash_attention   (HrScenario         *self,
                                                      gboolean            flash_attention);
guint32            hr_scenario_get_batch             (HrScenario         *self);
void               hr_scenario_set_batch             (HrScenario         *self,
                                                      guint32             batch);
guint32            hr_scenario_get_n_cpu_moe         (HrScenario         *self);
void               hr_scenario_set_n_cpu_moe         (HrScenario         *self,
                                                      guint32             n_cpu_moe);
const char        *hr_scenario_get_draft_model       (HrScenario         *self);
void               hr_scenario_set_draft_model       (HrScenario         *self,
                                                      const char         *name);

/* The selected board, as edited (never NULL once the session loaded). */
const HrBoard     *hr_scenario_get_board             (HrScenario         *self);
void               hr_scenario_set_edited_board      (HrScenario         *self,
                                                      const HrBoard      *board);
void               hr_scenario_revert_board          (HrScenario         *self);

/* What the figures are computed from. */
const HrPrecision *hr_scenario_get_precision_info    (HrScenario         *self);
void               hr_scenario_get_evaluation_inputs (HrScenario         *self,
                                                      HrEvaluationInputs *out);
const HrEvaluationInputs *hr_scenario_peek_evaluation_inputs (HrScenario *self);
const HrEfficiencyFit *hr_scenario_get_fit           (HrScenario         *self);
double             hr_scenario_get_measured_tps      (HrScenario         *self,
                                                      const char         *model_name);
guint              hr_scenario_get_rates_serial      (HrScenario         *self);
const HrRuntimeInputs *hr_scenario_get_runtime_template (HrScenario      *self);
const HrCalibration *hr_scenario_get_calibration     (HrScenario         *self);
const char        *hr_scenario_get_calibration_text  (HrScenario         *self);
const char        *hr_scenario_get_server_version    (HrScenario         *self);
void               hr_scenario_evaluate              (HrScenario         *self,
                                                      const HrModelSpec  *spec,
                                                      HrEvaluation       *out);
void               hr_scenario_evaluate_row          (HrScenario         *self,
                                                      HrModelRow         *row);
const char        *hr_scenario_get_method_label      (HrScenario         *self);
char              *hr_scenario_describe              (HrScenario         *self);

G_END_DECLS
