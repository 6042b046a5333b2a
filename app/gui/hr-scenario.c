/* hr-scenario.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-catalog.h"
#include "hr-gui-enums.h"
#include "hr-gui-format.h"
#include "hr-measurement.h"
#include "hr-model-row.h"
#include "hr-precision.h"
#include "hr-scenario-private.h"

#define CONTEXT_MIN 512
#define CONTEXT_MAX 131072
#define SLOTS_MIN 1
#define SLOTS_MAX 8
#define BATCH_MIN 1
#define BATCH_MAX 65536
#define CPU_MOE_MAX 4096 /* HR_MODEL_SPEC_MAX_LAYERS */



G_DEFINE_FINAL_TYPE (HrScenario, hr_scenario, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BOARD_ID,
  PROP_PRECISION,
  PROP_CONTEXT_TOKENS,
  PROP_KV_CACHE_TYPE,
  PROP_PARALLEL_SLOTS,
  PROP_RUNTIME,
  PROP_FLASH_ATTENTION,
  PROP_BATCH,
  PROP_N_CPU_MOE,
  PROP_DRAFT_MODEL,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* What the figures are computed from                                  */

static void
build_inputs (HrScenario *self)
{
  hr_evaluation_inputs_init (&self->inputs, self->board, &self->fit);
  self->inputs.precision = self->precision_info;
  self->inputs.kv_type = self->kv_type;
  self->inputs.context_tokens = self->context_tokens;
  self->inputs.parallel_slots = self->parallel_slots;
  self->inputs.n_cpu_moe = self->n_cpu_moe;
  /* A board without a measurement rates with its kind's prior; a split's
   * host side with the CPU's (hr_evaluate() uses them only where needed). */
  if (self->board != NULL)
    {
      self->inputs.prior_efficiency = hr_session_get_prior (self->session,
                                                            hr_board_hardware_kind (self->board), NULL);
      self->inputs.cpu_prior_efficiency = hr_session_get_prior (self->session, HR_HARDWARE_CPU, NULL);
    }
}

/* The runtime template and the board's learned overhead under it: after
 * the board, the measurements or a runtime setting changed (never on a
 * context step: the context is each measurement's own). */
static void
update_runtime (HrScenario *self)
{
  HrRuntimeInputs *in = &self->runtime_inputs;
  GPtrArray *measurements = hr_session_get_measurements (self->session);
  g_autoptr(GArray) points = NULL;

  g_clear_pointer (&self->server_version, g_free);
  g_clear_pointer (&self->calibration_text, g_free);
  if (self->board != NULL)
    self->server_version = g_strdup (hr_measurement_archive_server_version (measurements, self->board->id));

  hr_runtime_inputs_init (in, NULL, self->context_tokens);
  in->flash_attention = self->flash_attention ? HR_FLASH_ATTENTION_ON : HR_FLASH_ATTENTION_OFF;
  in->kv_type = self->kv_type;
  in->parallel_slots = self->parallel_slots;
  in->precision = self->precision_info;
  in->batch = self->batch;
  switch (self->runtime)
    {
    case HR_SCENARIO_RUNTIME_OLLAMA_0_30:
      in->era = HR_RUNTIME_ERA_OLLAMA_0_30;
      break;
    case HR_SCENARIO_RUNTIME_OLLAMA_0_12:
      in->era = HR_RUNTIME_ERA_OLLAMA_0_12;
      break;
    case HR_SCENARIO_RUNTIME_BOARD:
      in->era = HR_RUNTIME_ERA_AUTO;
      in->server_version = self->server_version;
      break;
    case HR_SCENARIO_RUNTIME_LLAMA_SERVER:
      /* llama-server's defaults: -np auto (4 slots, one unified cache;
       * hr_runtime_predict() with no slots), -b as set, -ub 512. */
      in->era = HR_RUNTIME_ERA_LLAMA_SERVER;
      in->parallel_slots = 0;
      in->ubatch = 0;
      break;
    case HR_SCENARIO_RUNTIME_NONE:
    default:
      break;
    }

  if (self->runtime == HR_SCENARIO_RUNTIME_NONE || self->board == NULL)
    {
      hr_calibration_fit (NULL, 0, &self->calibration, NULL);
      return;
    }
  /* The learned overhead is fitted to the measured models alone
   * (draft_spec still NULL here); the draft joins the template after. */

  points = hr_calibration_points_from_archive (measurements, self->board->id,
                                               self->runtime == HR_SCENARIO_RUNTIME_BOARD
                                               ? self->server_version : NULL,
                                               hr_session_get_catalog (self->session), in);
  if (!hr_calibration_fit ((const HrResidualPoint *) (gpointer) points->data, points->len,
                           &self->calibration, NULL))
    hr_calibration_fit (NULL, 0, &self->calibration, NULL);
  self->calibration_text = hr_calibration_describe (&self->calibration);
  /* llama-server's draft model (-md), from the catalog: the other
   * runtimes have none (hr-runtime-draft.c refuses it). */
  if (self->runtime == HR_SCENARIO_RUNTIME_LLAMA_SERVER && self->draft_model[0] != '\0')
    in->draft_spec = hr_catalog_find (hr_session_get_catalog (self->session), self->draft_model);
}

/* The board's efficiency and measured rates (docs/seed-figures.md, "Rates"). */
static void
refit (HrScenario *self)
{
  GPtrArray *measurements = hr_session_get_measurements (self->session);
  g_autoptr(GArray) points = NULL;

  g_clear_pointer (&self->rates, g_hash_table_unref);
  self->rates_serial++;
  self->fit = (HrEfficiencyFit) { 0 };
  if (self->board == NULL)
    return;

  points = hr_measurement_archive_points (measurements, self->board->id,
                                          hr_session_get_catalog (self->session));
  /* No measured model on the board is not an error here: rates are then
   * extrapolated, and the summary says so. */
  if (!hr_rate_fit_efficiency ((const HrRatePoint *) (gpointer) points->data, points->len,
                               self->board->bandwidth_bytes_per_s, &self->fit, NULL))
    self->fit = (HrEfficiencyFit) { 0 };
  self->rates = hr_measurement_archive_rates (measurements, self->board->id);
}

static void
recompute (HrScenario *self)
{
  refit (self);
  update_runtime (self);
  build_inputs (self);
}

static double
measured_tps (gpointer    data,
              const char *model_name)
{
  return hr_scenario_get_measured_tps (data, model_name);
}

/* The catalog model's rows under the scenario as it is now. */
static void
update_catalog (HrScenario *self,
                gboolean    rebuild,
                gboolean    context_step)
{
  HrCatalogInputs in = {
    .session = self->session,
    .board = self->board,
    .inputs = &self->inputs,
    .runtime = hr_scenario_get_runtime_template (self),
    .calibration = &self->calibration,
    .rates_serial = self->rates_serial,
    .context_step = context_step,
    .measured_tps = measured_tps,
    .data = self,
  };

  _hr_catalog_model_update (self->catalog, &in, rebuild);
}

/* The catalog model first, so that whoever reads rows on "changed" reads
 * them evaluated under what changed, whatever the order it connected in.
 * @context_step: only the context changed since the last emission. */
static void
emit_changed_after (HrScenario *self,
                    gboolean    context_step)
{
  gboolean rebuild = self->catalog_stale;

  self->catalog_stale = FALSE;
  update_catalog (self, rebuild, context_step);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
emit_changed (HrScenario *self)
{
  emit_changed_after (self, FALSE);
}

/* The selected board as saved: the one of board-id, else the first. */
static void
reload_board (HrScenario *self)
{
  GPtrArray *boards = hr_session_get_boards (self->session);
  const HrBoard *board = hr_session_find_board (self->session, self->board_id);

  if (board == NULL && boards->len > 0)
    board = g_ptr_array_index (boards, 0);
  g_clear_pointer (&self->board, hr_board_free);
  if (board != NULL)
    self->board = hr_board_copy (board);
  recompute (self);
}

static void
on_session_data_changed (HrScenario *self)
{
  if (!hr_session_get_loaded (self->session))
    return;
  reload_board (self);
  emit_changed (self);
}

/* The catalog or the archive: the same board, edits kept, refitted. */
static void
on_session_figures_changed (HrScenario *self)
{
  if (self->board == NULL)
    return;
  recompute (self);
  emit_changed (self);
}

/* The catalog: its rows anew, then as the archive. */
static void
on_session_catalog_changed (HrScenario *self)
{
  self->catalog_stale = TRUE;
  on_session_figures_changed (self);
}

/**
 * hr_scenario_get_catalog_model:
 * @self: a #HrScenario
 *
 * The session's catalog (and the models looked up in the Ollama library)
 * as rows evaluated under this scenario: re-evaluated before each
 * #HrScenario::changed, made anew when the session's catalog changes.
 *
 * Returns: (transfer none): the model, a #GListModel of #HrModelRow
 */
HrCatalogModel *
hr_scenario_get_catalog_model (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return self->catalog;
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

/**
 * hr_scenario_get_board_id:
 * @self: a #HrScenario
 *
 * Returns: (transfer none): the id of the selected board (#HrScenario:board-id)
 */
const char *
hr_scenario_get_board_id (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return self->board_id;
}

/**
 * hr_scenario_set_board_id:
 * @self: a #HrScenario
 * @board_id: a board id of the session; an unknown id selects its first
 *   board
 *
 * Selects the board (its saved values: unsaved edits are dropped).
 */
void
hr_scenario_set_board_id (HrScenario *self,
                          const char *board_id)
{
  g_return_if_fail (HR_IS_SCENARIO (self));
  g_return_if_fail (board_id != NULL);

  if (g_strcmp0 (self->board_id, board_id) == 0)
    return;
  g_free (self->board_id);
  self->board_id = g_strdup (board_id);
  reload_board (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOARD_ID]);
  emit_changed (self);
}

/**
 * hr_scenario_get_precision:
 * @self: a #HrScenario
 *
 * Returns: (transfer none): "as-pulled" or a precision id (hr-precision.h)
 */
const char *
hr_scenario_get_precision (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return self->precision;
}

/**
 * hr_scenario_set_precision:
 * @self: a #HrScenario
 * @precision: "as-pulled", or a precision id hr_precision_lookup() knows;
 *   an unknown id is "as pulled"
 *
 * Sizes every model's weights at @precision.
 */
void
hr_scenario_set_precision (HrScenario *self,
                           const char *precision)
{
  g_return_if_fail (HR_IS_SCENARIO (self));
  g_return_if_fail (precision != NULL);

  if (g_strcmp0 (self->precision, precision) == 0)
    return;
  g_free (self->precision);
  self->precision = g_strdup (precision);
  self->precision_info = g_str_equal (precision, "as-pulled") ? NULL : hr_precision_lookup (precision);
  update_runtime (self);
  build_inputs (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRECISION]);
  emit_changed (self);
}

/**
 * hr_scenario_get_context_tokens:
 * @self: a #HrScenario
 *
 * Returns: the context window (num_ctx) in tokens, 512 ... 131,072
 */
guint32
hr_scenario_get_context_tokens (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), 0);

  return self->context_tokens;
}

/**
 * hr_scenario_set_context_tokens:
 * @self: a #HrScenario
 * @context_tokens: the context window in tokens; clamped to 512 ... 131,072
 *   (the "default-context" key's range)
 */
void
hr_scenario_set_context_tokens (HrScenario *self,
                                guint32     context_tokens)
{
  g_return_if_fail (HR_IS_SCENARIO (self));

  context_tokens = CLAMP (context_tokens, CONTEXT_MIN, CONTEXT_MAX);
  if (self->context_tokens == context_tokens)
    return;
  self->context_tokens = context_tokens;
  /* Not update_runtime(): each measurement's own context is fitted. */
  self->runtime_inputs.context_tokens = context_tokens;
  build_inputs (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTEXT_TOKENS]);
  emit_changed_after (self, TRUE);
}

/**
 * hr_scenario_get_kv_cache_type:
 * @self: a #HrScenario
 *
 * Returns: the KV cache's element type (#HrScenario:kv-cache-type)
 */
HrKvCacheType
hr_scenario_get_kv_cache_type (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), HR_KV_CACHE_F16);

  return self->kv_type;
}

/**
 * hr_scenario_set_kv_cache_type:
 * @self: a #HrScenario
 * @kv_type: the KV cache's element type (OLLAMA_KV_CACHE_TYPE)
 */
void
hr_scenario_set_kv_cache_type (HrScenario    *self,
                               HrKvCacheType  kv_type)
{
  g_return_if_fail (HR_IS_SCENARIO (self));
  g_return_if_fail (kv_type >= HR_KV_CACHE_F16 && kv_type <= HR_KV_CACHE_Q4_0);

  if (self->kv_type == kv_type)
    return;
  self->kv_type = kv_type;
  update_runtime (self);
  build_inputs (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KV_CACHE_TYPE]);
  emit_changed (self);
}

/**
 * hr_scenario_get_parallel_slots:
 * @self: a #HrScenario
 *
 * Returns: the parallel slots (OLLAMA_NUM_PARALLEL), 1 ... 8
 */
guint32
hr_scenario_get_parallel_slots (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), 1);

  return self->parallel_slots;
}

/**
 * hr_scenario_set_parallel_slots:
 * @self: a #HrScenario
 * @parallel_slots: how many requests are served at once; clamped to 1 ... 8
 *   (the "parallel-slots" key's range)
 */
void
hr_scenario_set_parallel_slots (HrScenario *self,
                                guint32     parallel_slots)
{
  g_return_if_fail (HR_IS_SCENARIO (self));

  parallel_slots = CLAMP (parallel_slots, SLOTS_MIN, SLOTS_MAX);
  if (self->parallel_slots == parallel_slots)
    return;
  self->parallel_slots = parallel_slots;
  update_runtime (self);
  build_inputs (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARALLEL_SLOTS]);
  emit_changed (self);
}

/**
 * hr_scenario_get_runtime:
 * @self: a #HrScenario
 *
 * Returns: the runtime the footprint models
 */
HrScenarioRuntime
hr_scenario_get_runtime (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), HR_SCENARIO_RUNTIME_NONE);

  return self->runtime;
}

/**
 * hr_scenario_set_runtime:
 * @self: a #HrScenario
 * @runtime: the runtime the footprint models
 */
void
hr_scenario_set_runtime (HrScenario        *self,
                         HrScenarioRuntime  runtime)
{
  g_return_if_fail (HR_IS_SCENARIO (self));
  g_return_if_fail (runtime >= HR_SCENARIO_RUNTIME_NONE && runtime <= HR_SCENARIO_RUNTIME_LLAMA_SERVER);

  if (self->runtime == runtime)
    return;
  self->runtime = runtime;
  update_runtime (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNTIME]);
  emit_changed (self);
}

/**
 * hr_scenario_get_flash_attention:
 * @self: a #HrScenario
 *
 * Returns: whether the runtime prediction assumes flash attention on
 */
gboolean
hr_scenario_get_flash_attention (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), TRUE);

  return self->flash_attention;
}

/**
 * hr_scenario_set_flash_attention:
 * @self: a #HrScenario
 * @flash_attention: whether flash attention is on
 */
void
hr_scenario_set_flash_attention (HrScenario *self,
                                 gboolean    flash_attention)
{
  g_return_if_fail (HR_IS_SCENARIO (self));

  flash_attention = !!flash_attention;
  if (self->flash_attention == flash_attention)
    return;
  self->flash_attention = flash_attention;
  update_runtime (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLASH_ATTENTION]);
  emit_changed (self);
}

/**
 * hr_scenario_get_batch:
 * @self: a #HrScenario
 *
 * Returns: the batch (llama.cpp's -b, Ollama's num_batch) in tokens
 */
guint32
hr_scenario_get_batch (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), 512);

  return self->batch;
}

/**
 * hr_scenario_set_batch:
 * @self: a #HrScenario
 * @batch: the batch in tokens; clamped to 1 ... 65,536 (the "batch" key's
 *   range); 512 is Ollama's num_batch default
 */
void
hr_scenario_set_batch (HrScenario *self,
                       guint32     batch)
{
  g_return_if_fail (HR_IS_SCENARIO (self));

  batch = CLAMP (batch, BATCH_MIN, BATCH_MAX);
  if (self->batch == batch)
    return;
  self->batch = batch;
  update_runtime (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BATCH]);
  emit_changed (self);
}

/**
 * hr_scenario_get_n_cpu_moe:
 * @self: a #HrScenario
 *
 * Returns: N of llama-server's --n-cpu-moe (LLAMA_ARG_N_CPU_MOE in Ollama's
 *   environment): blocks 0 ... N-1 keep their MoE expert tensors in host
 *   memory; 0 = none
 */
guint32
hr_scenario_get_n_cpu_moe (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), 0);

  return self->n_cpu_moe;
}

/**
 * hr_scenario_set_n_cpu_moe:
 * @self: a #HrScenario
 * @n_cpu_moe: the blocks whose experts stay in host memory, clamped to
 *   0 ... 4,096 (the "n-cpu-moe" key's range); a count at or past a
 *   model's blocks is --cpu-moe for it
 */
void
hr_scenario_set_n_cpu_moe (HrScenario *self,
                           guint32     n_cpu_moe)
{
  g_return_if_fail (HR_IS_SCENARIO (self));

  n_cpu_moe = MIN (n_cpu_moe, CPU_MOE_MAX);
  if (self->n_cpu_moe == n_cpu_moe)
    return;
  self->n_cpu_moe = n_cpu_moe;
  build_inputs (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_CPU_MOE]);
  emit_changed (self);
}

/**
 * hr_scenario_get_draft_model:
 * @self: a #HrScenario
 *
 * Returns: (transfer none): the catalog name of llama-server's draft model
 *   (#HrScenario:draft-model), "" for none
 */
const char *
hr_scenario_get_draft_model (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return self->draft_model;
}

/**
 * hr_scenario_set_draft_model:
 * @self: a #HrScenario
 * @name: a catalog name, or "" for none
 *
 * The draft model for speculative decoding (llama-server's -md), sized
 * beside every model under the llama-server runtime
 * (app/core/runtime/hr-runtime-draft.c); the other runtimes leave it out.
 * A name the catalog does not hold sizes no draft.
 */
void
hr_scenario_set_draft_model (HrScenario *self,
                             const char *name)
{
  g_return_if_fail (HR_IS_SCENARIO (self));
  g_return_if_fail (name != NULL);

  if (g_strcmp0 (self->draft_model, name) == 0)
    return;
  g_free (self->draft_model);
  self->draft_model = g_strdup (name);
  update_runtime (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DRAFT_MODEL]);
  emit_changed (self);
}

/**
 * hr_scenario_bind_settings:
 * @self: a #HrScenario
 * @settings: the app's settings (io.github.headroom.Headroom)
 *
 * Binds every property to its key (g_settings_bind(), both ways): the
 * scenario takes the keys' values now and follows them; a property set
 * here is written to its key.
 */
void
hr_scenario_bind_settings (HrScenario *self,
                           GSettings  *settings)
{
  static const struct { const char *property; const char *key; } bindings[] = {
    { "board-id", "default-board" },
    { "precision", "precision" },
    { "context-tokens", "default-context" },
    { "kv-cache-type", "kv-cache-type" },
    { "parallel-slots", "parallel-slots" },
    { "runtime", "runtime" },
    { "flash-attention", "flash-attention" },
    { "batch", "batch" },
    { "n-cpu-moe", "n-cpu-moe" },
    { "draft-model", "draft-model" },
  };

  g_return_if_fail (HR_IS_SCENARIO (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    g_settings_bind (settings, bindings[i].key, self, bindings[i].property, G_SETTINGS_BIND_DEFAULT);
}

/* ------------------------------------------------------------------ */
/* The board                                                           */

/**
 * hr_scenario_get_board:
 * @self: a #HrScenario
 *
 * Returns: (transfer none) (nullable): the selected board with the editor's
 *   unsaved values; %NULL only before the session loaded
 */
const HrBoard *
hr_scenario_get_board (HrScenario *self)
{
  g_return_val_if_fail (HR_IS_SCENARIO (self), NULL);

  return self->board;
}

/**
 * hr_scenario_set_edited_board:
 * @self: a #HrScenario
 * @board: the selected board with unsaved values (copied; its id is the
 *   selected board's); valid (hr_board_validate())
 *
 * Computes every figure on @board (the efficiency is refitted on its
 * bandwidth) until it is saved (hr_session_save_board()), reverted
 * (hr_scenario_revert_board()) or another board is selected.
 */
void
hr_scenario_set_edited_board (HrScenario    *self,
                              const HrBoard *board)
{
  g_return_if_fail (HR_IS_SCENARIO (self));
  g_return_if_fail (board != NULL);

  g_clear_pointer (&self->board, hr_board_free);
  self->board = hr_board_copy (board);
  recompute (self);
  emit_changed (self);
}

/**
 * hr_scenario_revert_board:
 * @self: a #HrScenario
 *
 * Drops the unsaved values: the selected board as the session has it.
 */
void
hr_scenario_revert_board (HrScenario *self)
{
  g_return_if_fail (HR_IS_SCENARIO (self));

  reload_board (self);
  emit_changed (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_scenario_dispose (GObject *object)
{
  HrScenario *self = (HrScenario *)object;

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (hr_scenario_parent_class)->dispose (object);
}

static void
hr_scenario_finalize (GObject *object)
{
  HrScenario *self = (HrScenario *)object;

  g_clear_object (&self->catalog);
  g_clear_pointer (&self->board_id, g_free);
  g_clear_pointer (&self->precision, g_free);
  g_clear_pointer (&self->board, hr_board_free);
  g_clear_pointer (&self->rates, g_hash_table_unref);
  g_clear_pointer (&self->calibration_text, g_free);
  g_clear_pointer (&self->server_version, g_free);
  g_clear_pointer (&self->draft_model, g_free);

  G_OBJECT_CLASS (hr_scenario_parent_class)->finalize (object);
}

static void
hr_scenario_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  HrScenario *self = HR_SCENARIO (object);

  switch (prop_id)
    {
    case PROP_BOARD_ID:
      g_value_set_string (value, self->board_id);
      break;
    case PROP_PRECISION:
      g_value_set_string (value, self->precision);
      break;
    case PROP_CONTEXT_TOKENS:
      g_value_set_uint (value, self->context_tokens);
      break;
    case PROP_KV_CACHE_TYPE:
      g_value_set_enum (value, self->kv_type);
      break;
    case PROP_PARALLEL_SLOTS:
      g_value_set_uint (value, self->parallel_slots);
      break;
    case PROP_RUNTIME:
      g_value_set_enum (value, self->runtime);
      break;
    case PROP_FLASH_ATTENTION:
      g_value_set_boolean (value, self->flash_attention);
      break;
    case PROP_BATCH:
      g_value_set_uint (value, self->batch);
      break;
    case PROP_N_CPU_MOE:
      g_value_set_uint (value, self->n_cpu_moe);
      break;
    case PROP_DRAFT_MODEL:
      g_value_set_string (value, self->draft_model);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_scenario_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  HrScenario *self = HR_SCENARIO (object);

  switch (prop_id)
    {
    case PROP_BOARD_ID:
      hr_scenario_set_board_id (self, g_value_get_string (value) ? g_value_get_string (value) : "");
      break;
    case PROP_PRECISION:
      hr_scenario_set_precision (self, g_value_get_string (value) ? g_value_get_string (value) : "as-pulled");
      break;
    case PROP_CONTEXT_TOKENS:
      hr_scenario_set_context_tokens (self, g_value_get_uint (value));
      break;
    case PROP_KV_CACHE_TYPE:
      hr_scenario_set_kv_cache_type (self, g_value_get_enum (value));
      break;
    case PROP_PARALLEL_SLOTS:
      hr_scenario_set_parallel_slots (self, g_value_get_uint (value));
      break;
    case PROP_RUNTIME:
      hr_scenario_set_runtime (self, g_value_get_enum (value));
      break;
    case PROP_FLASH_ATTENTION:
      hr_scenario_set_flash_attention (self, g_value_get_boolean (value));
      break;
    case PROP_BATCH:
      hr_scenario_set_batch (self, g_value_get_uint (value));
      break;
    case PROP_N_CPU_MOE:
      hr_scenario_set_n_cpu_moe (self, g_value_get_uint (value));
      break;
    case PROP_DRAFT_MODEL:
      hr_scenario_set_draft_model (self, g_value_get_string (value) ? g_value_get_string (value) : "");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_scenario_class_init (HrScenarioClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = hr_scenario_dispose;
  object_class->finalize = hr_scenario_finalize;
  object_class->get_property = hr_scenario_get_property;
  object_class->set_property = hr_scenario_set_property;

  properties[PROP_BOARD_ID] =
    g_param_spec_string ("board-id", NULL, NULL, "jetson-orin-nano-super", flags);
  properties[PROP_PRECISION] =
    g_param_spec_string ("precision", NULL, NULL, "as-pulled", flags);
  properties[PROP_CONTEXT_TOKENS] =
    g_param_spec_uint ("context-tokens", NULL, NULL, CONTEXT_MIN, CONTEXT_MAX, 4096, flags);
  properties[PROP_KV_CACHE_TYPE] =
    g_param_spec_enum ("kv-cache-type", NULL, NULL, HR_TYPE_KV_CACHE_TYPE, HR_KV_CACHE_F16, flags);
  properties[PROP_PARALLEL_SLOTS] =
    g_param_spec_uint ("parallel-slots", NULL, NULL, SLOTS_MIN, SLOTS_MAX, 1, flags);
  properties[PROP_RUNTIME] =
    g_param_spec_enum ("runtime", NULL, NULL, HR_TYPE_SCENARIO_RUNTIME, HR_SCENARIO_RUNTIME_BOARD, flags);
  properties[PROP_FLASH_ATTENTION] =
    g_param_spec_boolean ("flash-attention", NULL, NULL, TRUE, flags);
  properties[PROP_BATCH] =
    g_param_spec_uint ("batch", NULL, NULL, BATCH_MIN, BATCH_MAX, 512, flags);
  properties[PROP_N_CPU_MOE] =
    g_param_spec_uint ("n-cpu-moe", NULL, NULL, 0, CPU_MOE_MAX, 0, flags);
  properties[PROP_DRAFT_MODEL] =
    g_param_spec_string ("draft-model", NULL, NULL, "", flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * HrScenario::changed:
   *
   * Emitted once after anything a figure depends on changed: a property,
   * the board's unsaved values, or the session's boards, catalog or
   * measurements. Listeners re-read the scenario and recompute.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
hr_scenario_init (HrScenario *self)
{
  self->board_id = g_strdup ("jetson-orin-nano-super");
  self->precision = g_strdup ("as-pulled");
  self->context_tokens = 4096;
  self->kv_type = HR_KV_CACHE_F16;
  self->parallel_slots = 1;
  self->runtime = HR_SCENARIO_RUNTIME_BOARD;
  self->flash_attention = TRUE;
  self->batch = 512;
  self->draft_model = g_strdup ("");
  hr_calibration_fit (NULL, 0, &self->calibration, NULL);
  self->catalog = _hr_catalog_model_new ();
}

/**
 * hr_scenario_new:
 * @session: the session whose boards, catalog and measurements the figures
 *   use
 *
 * Returns: (transfer full): a scenario at the settings' defaults (the seed
 *   board, as pulled, 4,096 tokens, f16, 1 slot, the runtime of the board's
 *   server version (the newest with none measured), flash
 *   attention on, batch 512); hr_scenario_bind_settings() binds it
 */
HrScenario *
hr_scenario_new (HrSession *session)
{
  HrScenario *self;

  g_return_val_if_fail (HR_IS_SESSION (session), NULL);

  self = g_object_new (HR_TYPE_SCENARIO, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_swapped (session, "notify::loaded", G_CALLBACK (on_session_data_changed), self);
  g_signal_connect_swapped (session, "boards-changed", G_CALLBACK (on_session_data_changed), self);
  g_signal_connect_swapped (session, "catalog-changed", G_CALLBACK (on_session_catalog_changed), self);
  g_signal_connect_swapped (session, "measurements-changed", G_CALLBACK (on_session_figures_changed), self);
  if (hr_session_get_loaded (session))
    reload_board (self);
  build_inputs (self);
  update_catalog (self, TRUE, FALSE);
  return self;
}
