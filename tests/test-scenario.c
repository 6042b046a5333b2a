/* test-scenario.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrScenario without a window, on the shipped data: the seed board's
 * budget and the efficiency fitted from the shipped measurements
 * (docs/seed-figures.md), a seed row's verdict, the properties bound to GSettings
 * both ways, one "changed" per change, the board's unsaved edits, the
 * runtime template and the line an export is titled with.
 */

#include "config.h"

/* llama3.2:1b's compute buffer under the llama-server runtime at 8,192
 * tokens, 4 unified slots (the CUDA model, hr-runtime-compute.c). */
#define DRAFT_COMPUTE_4_SLOTS 79697920

#include <glib/gstdio.h>

#include "hr-formula.h"
#include "hr-gui-format.h"
#include "hr-gui-enums.h"
#include "hr-scenario.h"
#include "hr-scenario-controls.h"

typedef struct {
  GSettings  *settings;
  HrSession  *session;
  HrScenario *scenario;
  guint       changed;
} Fixture;

static void
on_changed (HrScenario *scenario,
            Fixture    *f)
{
  f->changed++;
}

static void
reset_settings (GSettings *settings)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    g_settings_reset (settings, keys[i]);
  /* The scenario's default is the runtime prediction (the board's era;
   * test_scenario_default_runtime checks it); these tests start from the seed's
   * plain math, whose figures the seed's tables give. */
  g_settings_set_string (settings, "runtime", "seed");
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->settings = g_settings_new (APPLICATION_ID);
  reset_settings (f->settings);
  f->session = hr_session_new (f->settings);
  hr_session_load (f->session);
  f->scenario = hr_scenario_new (f->session);
  hr_scenario_bind_settings (f->scenario, f->settings);
  g_signal_connect (f->scenario, "changed", G_CALLBACK (on_changed), f);
  f->changed = 0;
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_assert_finalize_object (f->scenario);
  g_assert_finalize_object (f->session);
  g_clear_object (&f->settings);
}

static void
test_scenario_seed_board (Fixture       *f,
                          gconstpointer  data)
{
  const HrBoard *board = hr_scenario_get_board (f->scenario);
  const HrEfficiencyFit *fit = hr_scenario_get_fit (f->scenario);
  const HrModelSpec *spec = hr_session_find_model (f->session, "llama3.2:3b");
  HrEvaluationInputs inputs;
  HrEvaluation e;
  g_autofree char *efficiency = NULL;
  g_autofree char *total = NULL;
  g_autofree char *verdict = NULL;
  g_autofree char *line = NULL;

  g_assert_cmpstr (hr_scenario_get_board_id (f->scenario), ==, "jetson-orin-nano-super");
  g_assert_nonnull (board);
  g_assert_cmpuint (hr_board_budget_bytes (board), ==, 5100000000);

  /* The two shipped measurements on the seed board fit 0.36 (docs/seed-figures.md). */
  g_assert_cmpuint (fit->n_points, ==, 2);
  efficiency = hr_format_decimal (fit->efficiency, 2);
  g_assert_cmpstr (efficiency, ==, "0.36");
  g_assert_cmpfloat_with_epsilon (hr_scenario_get_measured_tps (f->scenario, "llama3.2:3b"), 18.4, 0.05);
  g_assert_cmpfloat (hr_scenario_get_measured_tps (f->scenario, "qwen2.5:14b"), ==, 0.0);

  hr_scenario_get_evaluation_inputs (f->scenario, &inputs);
  g_assert_true (inputs.board == board);
  g_assert_null (inputs.precision);
  g_assert_null (hr_scenario_get_precision_info (f->scenario));
  g_assert_cmpint (inputs.kv_type, ==, HR_KV_CACHE_F16);
  g_assert_cmpuint (inputs.context_tokens, ==, 4096);
  g_assert_cmpuint (inputs.parallel_slots, ==, 1);
  g_assert_cmpfloat (inputs.fit.efficiency, ==, fit->efficiency);

  /* docs/seed-figures.md, "Budget and verdicts": llama3.2:3b at 4,096 tokens. */
  g_assert_nonnull (spec);
  hr_scenario_evaluate (f->scenario, spec, &e);
  total = hr_gui_format_size (e.footprint.total, HR_UNIT_GB);
  verdict = hr_gui_format_verdict (e.verdict, e.margin_bytes, HR_UNIT_GB);
  g_assert_cmpstr (total, ==, "2.47 GB");
  g_assert_cmpstr (verdict, ==, "fits 2.63 GB");
  g_assert_cmpuint (e.footprint.total + e.margin_bytes, ==, 5100000000);
  g_assert_cmpint (e.source, ==, HR_RATE_SOURCE_MEASURED);

  /* No runtime: the plain math, nothing learned. */
  g_assert_null (hr_scenario_get_runtime_template (f->scenario));
  g_assert_null (hr_scenario_get_calibration_text (f->scenario));
  line = hr_scenario_describe (f->scenario);
  g_assert_cmpstr (line, ==, "Headroom: Jetson Orin Nano Super (jetson-orin-nano-super), precision as "
                             "pulled, context 4,096 tokens, KV cache f16, 1 parallel slot");
  g_assert_cmpuint (f->changed, ==, 0);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

/* A change of context in the settings: one notify, one "changed". */
static void
test_settings_context (Fixture       *f,
                       gconstpointer  data)
{
  guint notified = 0;

  g_signal_connect (f->scenario, "notify::context-tokens", G_CALLBACK (count_notify), &notified);
  g_settings_set_uint (f->settings, "default-context", 8192);
  g_assert_cmpuint (hr_scenario_get_context_tokens (f->scenario), ==, 8192);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (f->changed, ==, 1);
  g_assert_cmpuint (hr_scenario_peek_evaluation_inputs (f->scenario)->context_tokens, ==, 8192);
}

/* The same value again changes nothing. */
static void
test_settings_same_value (Fixture       *f,
                          gconstpointer  data)
{
  guint notified = 0;

  g_settings_set_uint (f->settings, "default-context", 8192);
  g_signal_connect (f->scenario, "notify::context-tokens", G_CALLBACK (count_notify), &notified);
  hr_scenario_set_context_tokens (f->scenario, 8192);
  g_assert_cmpuint (notified, ==, 0);
  g_assert_cmpuint (f->changed, ==, 1);
}

/* A property set here is written to its key, with one "changed"; the
 * slots stop at 8. */
static void
test_settings_slots_written (Fixture       *f,
                             gconstpointer  data)
{
  hr_scenario_set_parallel_slots (f->scenario, 2);
  g_assert_cmpuint (g_settings_get_uint (f->settings, "parallel-slots"), ==, 2);
  g_assert_cmpuint (f->changed, ==, 1);
  hr_scenario_set_parallel_slots (f->scenario, 99);
  g_assert_cmpuint (hr_scenario_get_parallel_slots (f->scenario), ==, 8);
  g_assert_cmpuint (f->changed, ==, 2);
}

static void
test_settings_kv_and_precision (Fixture       *f,
                                gconstpointer  data)
{
  g_settings_set_enum (f->settings, "kv-cache-type", HR_KV_CACHE_Q8_0);
  g_assert_cmpint (hr_scenario_get_kv_cache_type (f->scenario), ==, HR_KV_CACHE_Q8_0);
  g_assert_cmpuint (f->changed, ==, 1);
  g_settings_set_string (f->settings, "precision", "q8_0");
  g_assert_cmpstr (hr_scenario_get_precision_info (f->scenario)->id, ==, "q8_0");
  g_assert_cmpuint (f->changed, ==, 2);
}

/* The runtime: the template, and what the learned overhead rests on. */
static void
test_settings_runtime (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *runtime = NULL;

  hr_scenario_set_runtime (f->scenario, HR_SCENARIO_RUNTIME_OLLAMA_0_30);
  runtime = g_settings_get_string (f->settings, "runtime");
  g_assert_cmpstr (runtime, ==, "ollama-0.30");
  g_assert_cmpuint (f->changed, ==, 1);
  g_assert_nonnull (hr_scenario_get_runtime_template (f->scenario));
  g_assert_cmpint (hr_scenario_get_runtime_template (f->scenario)->era, ==, HR_RUNTIME_ERA_OLLAMA_0_30);
  g_assert_nonnull (hr_scenario_get_calibration_text (f->scenario));
}

/* Flash attention and the batch, from the settings, in the runtime's template. */
static void
test_settings_flash_and_batch (Fixture       *f,
                               gconstpointer  data)
{
  hr_scenario_set_runtime (f->scenario, HR_SCENARIO_RUNTIME_OLLAMA_0_30);
  g_settings_set_boolean (f->settings, "flash-attention", FALSE);
  g_assert_false (hr_scenario_get_flash_attention (f->scenario));
  g_assert_cmpint (hr_scenario_get_runtime_template (f->scenario)->flash_attention, ==, HR_FLASH_ATTENTION_OFF);
  g_assert_cmpuint (f->changed, ==, 2);
  g_settings_set_uint (f->settings, "batch", 1024);
  g_assert_cmpuint (hr_scenario_get_batch (f->scenario), ==, 1024);
  g_assert_cmpuint (hr_scenario_get_runtime_template (f->scenario)->batch, ==, 1024);
  g_assert_cmpuint (f->changed, ==, 3);
}

/* Every input in the scenario's line. */
static void
test_settings_described (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *line = NULL;

  g_settings_set_uint (f->settings, "default-context", 8192);
  hr_scenario_set_parallel_slots (f->scenario, 99);
  g_settings_set_enum (f->settings, "kv-cache-type", HR_KV_CACHE_Q8_0);
  g_settings_set_string (f->settings, "precision", "q8_0");
  hr_scenario_set_runtime (f->scenario, HR_SCENARIO_RUNTIME_OLLAMA_0_30);
  g_settings_set_boolean (f->settings, "flash-attention", FALSE);
  line = hr_scenario_describe (f->scenario);
  g_assert_cmpstr (line, ==, "Headroom: Jetson Orin Nano Super (jetson-orin-nano-super), precision Q8_0, "
                             "context 8,192 tokens, KV cache q8_0, 8 parallel slots, runtime Ollama 0.30 and newer "
                             "(llama-server buffers), flash attention off");
}

/* Another board, from the settings; an unknown id is the first board. */
static void
test_settings_board (Fixture       *f,
                     gconstpointer  data)
{
  g_settings_set_string (f->settings, "default-board", "dgx-spark");
  g_assert_cmpstr (hr_scenario_get_board (f->scenario)->id, ==, "dgx-spark");
  g_assert_cmpuint (f->changed, ==, 1);
  hr_scenario_set_board_id (f->scenario, "no-such-board");
  g_assert_cmpstr (hr_scenario_get_board (f->scenario)->id, ==,
                   ((HrBoard *) g_ptr_array_index (hr_session_get_boards (f->session), 0))->id);
  g_assert_cmpuint (f->changed, ==, 2);
}

static void
test_scenario_edited_board (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *boards_path = hr_data_user_file ("boards.json");
  g_autoptr(HrBoard) edited = hr_board_copy (hr_scenario_get_board (f->scenario));
  g_autoptr(GError) error = NULL;
  double efficiency = hr_scenario_get_fit (f->scenario)->efficiency;

  edited->pool_bytes = 16000000000;
  edited->bandwidth_bytes_per_s = 204e9;
  hr_scenario_set_edited_board (f->scenario, edited);
  g_assert_cmpuint (f->changed, ==, 1);
  g_assert_cmpuint (hr_board_budget_bytes (hr_scenario_get_board (f->scenario)), ==, 13100000000);
  /* The same measured rates on twice the bandwidth: half the efficiency. */
  g_assert_cmpfloat_with_epsilon (hr_scenario_get_fit (f->scenario)->efficiency, efficiency / 2, 1e-9);
  g_assert_true (hr_scenario_peek_evaluation_inputs (f->scenario)->board == hr_scenario_get_board (f->scenario));

  hr_scenario_revert_board (f->scenario);
  g_assert_cmpuint (f->changed, ==, 2);
  g_assert_cmpuint (hr_scenario_get_board (f->scenario)->pool_bytes, ==, 8000000000);
  g_assert_cmpfloat (hr_scenario_get_fit (f->scenario)->efficiency, ==, efficiency);

  /* Saved through the session: "changed" once, the saved values stay. */
  hr_scenario_set_edited_board (f->scenario, edited);
  g_assert_true (hr_session_save_board (f->session, hr_scenario_get_board (f->scenario), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->changed, ==, 4);
  g_assert_cmpuint (hr_scenario_get_board (f->scenario)->pool_bytes, ==, 16000000000);

  /* The archive read again: refitted, "changed" once. */
  hr_session_reload_measurements (f->session);
  g_assert_cmpuint (f->changed, ==, 5);
  g_remove (boards_path);
}

/* The window's llama-server choice: the settings nick, the era, no slots
 * (llama-server's -np auto, whatever the slots setting), the default
 * micro-batch, and the method line. */
static void
test_scenario_llama_server (Fixture       *f,
                            gconstpointer  data)
{
  g_autofree char *runtime = NULL;
  const HrRuntimeInputs *in;

  g_settings_set_uint (f->settings, "parallel-slots", 2);
  g_settings_set_string (f->settings, "runtime", "llama-server");
  g_assert_cmpint (hr_scenario_get_runtime (f->scenario), ==, HR_SCENARIO_RUNTIME_LLAMA_SERVER);
  hr_scenario_set_runtime (f->scenario, HR_SCENARIO_RUNTIME_OLLAMA_0_30);
  hr_scenario_set_runtime (f->scenario, HR_SCENARIO_RUNTIME_LLAMA_SERVER);
  runtime = g_settings_get_string (f->settings, "runtime");
  g_assert_cmpstr (runtime, ==, "llama-server");
  in = hr_scenario_get_runtime_template (f->scenario);
  g_assert_nonnull (in);
  g_assert_cmpint (in->era, ==, HR_RUNTIME_ERA_LLAMA_SERVER);
  g_assert_cmpuint (in->parallel_slots, ==, 0);
  g_assert_cmpuint (in->ubatch, ==, 0);
  g_assert_cmpuint (hr_scenario_get_parallel_slots (f->scenario), ==, 2);
  g_assert_cmpstr (hr_scenario_get_method_label (f->scenario), ==, "llama-server with its own defaults (llama.cpp)");
}

/* The draft model (llama-server's -md): its key, in the llama-server
 * template only, its bytes in a row's overhead and total; an unknown
 * name sizes none. */
static void
test_scenario_draft (Fixture       *f,
                     gconstpointer  data)
{
  const HrModelSpec *spec = hr_session_find_model (f->session, "llama3.1:8b");
  g_autoptr(HrModelRow) alone = hr_model_row_new (spec);
  g_autoptr(HrModelRow) with = hr_model_row_new (spec);
  const HrRuntimeInputs *in;
  HrRuntimeInputs din;
  HrRuntimePrediction p;
  guint64 draft;

  g_assert_cmpstr (hr_scenario_get_draft_model (f->scenario), ==, "");
  g_object_set (f->scenario, "board-id", "rtx-3090", NULL);
  hr_scenario_set_runtime (f->scenario, HR_SCENARIO_RUNTIME_LLAMA_SERVER);
  hr_scenario_set_context_tokens (f->scenario, 8192);
  hr_scenario_evaluate_row (f->scenario, alone);
  f->changed = 0;
  g_settings_set_string (f->settings, "draft-model", "llama3.2:1b");
  g_assert_cmpuint (f->changed, ==, 1);
  g_assert_cmpstr (hr_scenario_get_draft_model (f->scenario), ==, "llama3.2:1b");
  in = hr_scenario_get_runtime_template (f->scenario);
  g_assert_nonnull (in->draft_spec);
  g_assert_cmpstr (in->draft_spec->name, ==, "llama3.2:1b");
  hr_scenario_evaluate_row (f->scenario, with);

  /* The row's draft is llama3.2:1b's own figures at 8,192 tokens, 4
   * unified slots (llama-server -np auto): 16 x 8 x 128 x 8,192 x 2 of
   * KV, its file on the GPU and its compute. */
  din = *in;
  din.spec = spec;
  din.context_tokens = 8192;
  g_assert_true (hr_runtime_predict (&din, &p, NULL));
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_KV), ==, 268435456);
  draft = (guint64) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_WEIGHTS) +
          (guint64) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_KV) +
          (guint64) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_COMPUTE);
  g_assert_cmpuint (draft, ==, 1300000000 + 268435456 + DRAFT_COMPUTE_4_SLOTS);
  g_assert_cmpuint (hr_model_row_get_evaluation (with)->footprint.total, ==,
                    hr_model_row_get_evaluation (alone)->footprint.total + draft);
  g_assert_cmpuint (hr_model_row_get_evaluation (with)->footprint.overhead, ==,
                    hr_model_row_get_evaluation (alone)->footprint.overhead + draft);
  g_assert_cmpuint (hr_model_row_get_evaluation (with)->footprint.kv_cache, ==,
                    hr_model_row_get_evaluation (alone)->footprint.kv_cache);

  /* Another runtime has no draft; a name the catalog lacks neither. */
  hr_scenario_set_runtime (f->scenario, HR_SCENARIO_RUNTIME_OLLAMA_0_30);
  g_assert_null (hr_scenario_get_runtime_template (f->scenario)->draft_spec);
  hr_scenario_set_runtime (f->scenario, HR_SCENARIO_RUNTIME_LLAMA_SERVER);
  g_assert_nonnull (hr_scenario_get_runtime_template (f->scenario)->draft_spec);
  hr_scenario_set_draft_model (f->scenario, "no-such-model");
  g_assert_null (hr_scenario_get_runtime_template (f->scenario)->draft_spec);
  hr_scenario_set_draft_model (f->scenario, "");
  g_assert_null (hr_scenario_get_runtime_template (f->scenario)->draft_spec);
}

/* The default runtime is the prediction of the board's server era, in
 * the settings and in a scenario of its own; "seed" names the plain math. */
static void
test_scenario_default_runtime (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(HrSession) session = hr_session_new (NULL);
  g_autoptr(HrScenario) scenario = hr_scenario_new (session);
  g_autofree char *runtime = NULL;
  g_autoptr(GEnumClass) klass = g_type_class_ref (HR_TYPE_SCENARIO_RUNTIME);
  HrScenarioRuntime value;

  g_settings_reset (settings, "runtime");
  runtime = g_settings_get_string (settings, "runtime");
  g_assert_cmpstr (runtime, ==, "board");
  g_assert_cmpint (hr_scenario_get_runtime (scenario), ==, HR_SCENARIO_RUNTIME_BOARD);
  g_object_get (scenario, "runtime", &value, NULL);
  g_assert_cmpint (value, ==, HR_SCENARIO_RUNTIME_BOARD);
  /* The plain math's nick is "seed", the command line's word for it. */
  g_assert_cmpstr (g_enum_get_value (klass, HR_SCENARIO_RUNTIME_NONE)->value_nick, ==, "seed");
  /* Bound to the settings, the scenario follows the key: "seed" there is
   * the plain math. */
  hr_scenario_bind_settings (scenario, settings);
  g_assert_true (g_settings_set_string (settings, "runtime", "seed"));
  g_assert_cmpint (hr_scenario_get_runtime (scenario), ==, HR_SCENARIO_RUNTIME_NONE);
  g_settings_reset (settings, "runtime");
  g_assert_cmpint (hr_scenario_get_runtime (scenario), ==, HR_SCENARIO_RUNTIME_BOARD);
}

static void
test_scenario_before_load (void)
{
  g_autoptr(HrSession) session = hr_session_new (NULL);
  g_autoptr(HrScenario) scenario = hr_scenario_new (session);
  g_autofree char *before = hr_scenario_describe (scenario);
  Fixture f = { 0 };

  g_signal_connect (scenario, "changed", G_CALLBACK (on_changed), &f);
  g_assert_null (hr_scenario_get_board (scenario));
  g_assert_cmpstr (before, ==, "Headroom");
  g_assert_true (hr_scenario_get_session (scenario) == session);

  hr_session_load (session);
  g_assert_cmpuint (f.changed, ==, 1);
  g_assert_cmpstr (hr_scenario_get_board (scenario)->id, ==, "jetson-orin-nano-super");
}

/* This run's own data, config and cache folders (not
 * G_TEST_OPTION_ISOLATE_DIRS: its g_set_user_dirs() allocations are
 * reported as leaks under the GUI tests' fast unwinder). */
static char *isolated_root;

static void
isolate_dirs (void)
{
  static const char * const vars[] = { "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME" };
  g_autoptr(GError) error = NULL;

  isolated_root = g_dir_make_tmp ("headroom-test-scenario-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (vars); i++)
    {
      g_autofree char *dir = g_build_filename (isolated_root, vars[i], NULL);

      g_setenv (vars[i], dir, TRUE);
    }
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *entry;

  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, entry, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* On the RTX 3060 12 GB board (no measurement of its own):
 * qwen2.5:14b at 32,768 tokens is split 34/49 as `headroom-cli fit
 * --board rtx-3060-12gb --context 32768` prints it, rated with the priors
 * the session read (`headroom-cli dashboard`: 11.0 t/s prior, likely ok). */
/* The partial-offload cases: the RTX 3060 12 GB at 32,768 tokens, where
 * qwen2.5:14b is split and evaluated into the fixture's own evaluation. */
typedef struct {
  Fixture            f;
  const HrModelSpec *spec;     /* qwen2.5:14b */
  const HrModelSpec *small;    /* llama3.1:8b */
  HrEvaluation       e;        /* qwen2.5:14b's */
} Split;

static void
split_set_up (Split         *s,
              gconstpointer  data)
{
  fixture_set_up (&s->f, data);
  s->spec = hr_session_find_model (s->f.session, "qwen2.5:14b");
  s->small = hr_session_find_model (s->f.session, "llama3.1:8b");
  g_object_set (s->f.scenario, "board-id", "rtx-3060-12gb", NULL);
  hr_scenario_set_context_tokens (s->f.scenario, 32768);
  hr_scenario_evaluate (s->f.scenario, s->spec, &s->e);
}

static void
split_tear_down (Split         *s,
                 gconstpointer  data)
{
  fixture_tear_down (&s->f, data);
}

static const HrEvaluationInputs *
split_inputs (Split *s)
{
  return hr_scenario_peek_evaluation_inputs (s->f.scenario);
}

/* The board's inputs carry the priors of its GPU's kind and of the CPU. */
static void
test_split_inputs (Split         *s,
                   gconstpointer  data)
{
  const HrEvaluationInputs *inputs = split_inputs (s);

  g_assert_cmpfloat (hr_session_get_prior (s->f.session, HR_HARDWARE_DISCRETE_NVIDIA, NULL), >, 0.0);
  g_assert_cmpfloat (hr_session_get_prior (s->f.session, HR_HARDWARE_CPU, NULL), >, 0.0);
  g_assert_cmpstr (inputs->board->id, ==, "rtx-3060-12gb");
  g_assert_cmpuint (inputs->fit.n_points, ==, 0);
  g_assert_cmpfloat (inputs->prior_efficiency, ==,
                     hr_session_get_prior (s->f.session, HR_HARDWARE_DISCRETE_NVIDIA, NULL));
  g_assert_cmpfloat (inputs->cpu_prior_efficiency, ==,
                     hr_session_get_prior (s->f.session, HR_HARDWARE_CPU, NULL));
}

static void
test_split_verdict (Split         *s,
                    gconstpointer  data)
{
  g_autofree char *verdict = hr_gui_format_evaluation_verdict (&s->e, HR_UNIT_GB);

  g_assert_true (s->e.split);
  g_assert_cmpint (s->e.verdict, ==, HR_VERDICT_PARTIAL);
  g_assert_cmpstr (verdict, ==, "partial 34/49");
  g_assert_cmpstr (hr_gui_verdict_css_class (s->e.verdict), ==, "accent");
}

/* How much sits in VRAM and in host memory, as `ollama ps` says it. */
static void
test_split_sizes (Split         *s,
                  gconstpointer  data)
{
  g_autofree char *vram = hr_gui_format_size (s->e.vram_bytes, HR_UNIT_GB);
  g_autofree char *host = hr_gui_format_size (s->e.host_bytes, HR_UNIT_GB);
  g_autofree char *sentence = hr_gui_format_evaluation_sentence (&s->e, HR_UNIT_GB);

  g_assert_cmpstr (vram, ==, "10.65 GB");
  g_assert_cmpstr (host, ==, "5.27 GB");
  g_assert_cmpstr (s->e.processor, ==, "33%/67% CPU/GPU");
  g_assert_cmpstr (sentence, ==, "partial: 34 of 49 layers on the GPU, 10.65 GB in VRAM and 5.27 GB in host memory");
}

static void
test_split_rate (Split         *s,
                 gconstpointer  data)
{
  g_autofree char *tps = hr_gui_format_evaluation_tps (&s->e);

  g_assert_cmpint (s->e.source, ==, HR_RATE_SOURCE_PRIOR);
  g_assert_cmpint (s->e.speed, ==, HR_SPEED_LIKELY_OK);
  g_assert_cmpstr (tps, ==, "11.0");
  g_assert_cmpstr (hr_gui_speed_label (s->e.speed), ==, "likely ok");
}

/* The runtime "Ollama 0.30+": the same split, not "over" against the
 * GPU's pool alone (the explain panel and pool chart draw the split). */
static void
test_split_ollama_0_30 (Split         *s,
                        gconstpointer  data)
{
  HrEvaluation r;
  g_autofree char *runtime_verdict = NULL;

  hr_scenario_set_runtime (s->f.scenario, HR_SCENARIO_RUNTIME_OLLAMA_0_30);
  hr_scenario_evaluate (s->f.scenario, s->spec, &r);
  g_assert_true (r.split);
  g_assert_cmpint (r.verdict, ==, HR_VERDICT_PARTIAL);
  runtime_verdict = hr_gui_format_evaluation_verdict (&r, HR_UNIT_GB);
  g_assert_cmpstr (runtime_verdict, ==, "partial 34/49");
  g_assert_cmpuint (r.margin_bytes, ==, s->e.margin_bytes);
}

/* The explain panel's split. */
static void
test_split_formula (Split         *s,
                    gconstpointer  data)
{
  g_autofree char *split = hr_formula_split (s->spec, split_inputs (s), &s->e);

  g_assert_cmpstr (split, ==,
                   "34 of 49 layers on the GPU (the output layer and the last blocks, as llama.cpp's fit places them)\n"
                   "VRAM: 6.02 GB weights + 4.43 GB KV cache + 0.2 GB compute = 10,645,148,128 bytes = 10.65 GB (9.91 GiB)\n"
                   "host memory: 2.98 GB weights + 2.01 GB KV cache + 0.27 GB compute = 5,267,580,960 bytes = "
                   "5.27 GB (4.91 GiB) (the token embedding, 0.45 GB, always stays there)\n"
                   "ollama ps would show PROCESSOR 33%/67% CPU/GPU");
  g_assert_cmpuint (s->e.vram_bytes, ==, 10645148128);
  g_assert_cmpuint (s->e.host_bytes, ==, 5267580960);
}

/* The explain panel's rate of the split. */
static void
test_split_rate_formula (Split         *s,
                         gconstpointer  data)
{
  g_autofree char *rate = hr_formula_split_rate (s->spec, split_inputs (s), &s->e);

  g_assert_cmpstr (rate, ==, "t = 6,019,621,344 bytes / (360.0 GB/s x 0.67) on the GPU + 2,532,702,240 bytes / "
                             "(51.2 GB/s x 0.75) on the CPU = 25.0 ms + 66.0 ms = 90.9 ms per token: 11.0 t/s");
}

/* The longest context all on the GPU, and with the split. */
static void
test_split_max_context (Split         *s,
                        gconstpointer  data)
{
  guint32 context = 0;
  g_autofree char *max_gpu = hr_formula_max_context (s->spec, split_inputs (s), FALSE, &context);
  g_autofree char *max_partial = NULL;

  g_assert_cmpstr (max_gpu, ==, "10,752 tokens");
  g_assert_cmpuint (context, ==, 10752);
  max_partial = hr_formula_max_context (s->spec, split_inputs (s), TRUE, &context);
  g_assert_cmpstr (max_partial, ==, "32,768 tokens");
  g_assert_cmpuint (context, ==, 32768);
}

/* `headroom-cli predict ... --best-precision`: fp16 with partial offload */
static void
test_split_best_precision (Split         *s,
                           gconstpointer  data)
{
  g_autofree char *best = hr_formula_best_precision (s->spec, split_inputs (s), TRUE);

  g_assert_cmpstr (best, ==, "FP16");
}

/* A model all on the GPU: a plain verdict, its prior rate named. */
static void
test_split_all_on_gpu (Split         *s,
                       gconstpointer  data)
{
  HrEvaluation e;
  g_autofree char *small_tps = NULL;

  hr_scenario_evaluate (s->f.scenario, s->small, &e);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpuint (e.gpu_layers, ==, 33);
  small_tps = hr_gui_format_evaluation_tps (&e);
  g_assert_cmpstr (small_tps, ==, "49.2");
  g_assert_null (hr_formula_split_rate (s->small, split_inputs (s), &e));
}

/* The catalog model: evaluated before "changed", whatever the order the
 * listeners connected in, with one "evaluated" and no "items-changed"
 * (the same rows); made anew, with one "items-changed", when the
 * session's catalog changes. */
typedef struct {
  HrScenario *scenario;
  guint       evaluated;
  guint       items_changed;
  guint       position, removed, added;
  guint64     kv_seen;        /* the row's KV cache when "changed" came */
  guint64     kv_expected;    /* hr_scenario_evaluate() then */
} ModelWatch;

static void
on_model_items_changed (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        ModelWatch *w)
{
  w->items_changed++;
  w->position = position;
  w->removed = removed;
  w->added = added;
}

static void
on_model_evaluated (HrCatalogModel *model,
                    ModelWatch     *w)
{
  w->evaluated++;
}

static void
on_changed_read_row (HrScenario *scenario,
                     ModelWatch *w)
{
  HrCatalogModel *model = hr_scenario_get_catalog_model (scenario);
  HrModelRow *row = hr_catalog_model_find_row (model, "llama3.2:3b");
  HrEvaluation e;

  if (row == NULL)
    return;
  hr_scenario_evaluate (scenario, hr_model_row_get_spec (row), &e);
  w->kv_seen = hr_model_row_get_evaluation (row)->footprint.kv_cache;
  w->kv_expected = e.footprint.kv_cache;
}

static void
test_scenario_catalog_model (Fixture       *f,
                             gconstpointer  data)
{
  HrCatalogModel *model = hr_scenario_get_catalog_model (f->scenario);
  GPtrArray *catalog = hr_session_get_catalog (f->session);
  ModelWatch w = { f->scenario, 0, 0, 0, 0, 0, 0, 0 };
  g_autoptr(GPtrArray) two = g_ptr_array_new ();
  guint generation = hr_catalog_model_get_generation (model);
  guint64 kv_4096;
  guint n;

  n = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_assert_cmpuint (n, ==, catalog->len);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (model)) == HR_TYPE_MODEL_ROW);
  g_assert_cmpuint (generation, ==, 1);
  kv_4096 = hr_model_row_get_evaluation (hr_catalog_model_find_row (model, "llama3.2:3b"))->footprint.kv_cache;
  g_assert_cmpuint (kv_4096, >, 0);

  g_signal_connect (model, "items-changed", G_CALLBACK (on_model_items_changed), &w);
  g_signal_connect (model, "evaluated", G_CALLBACK (on_model_evaluated), &w);
  g_signal_connect (f->scenario, "changed", G_CALLBACK (on_changed_read_row), &w);
  hr_scenario_set_context_tokens (f->scenario, 8192);

  /* The same rows re-evaluated: one "evaluated", no "items-changed". */
  g_assert_cmpuint (w.evaluated, ==, 1);
  g_assert_cmpuint (w.items_changed, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n);
  g_assert_cmpuint (hr_catalog_model_get_generation (model), ==, generation);
  g_assert_cmpuint (f->changed, ==, 1);
  /* The row a listener read on "changed" was already at 8,192 tokens:
   * the plain math's KV cache doubles with the context. */
  g_assert_cmpuint (w.kv_seen, ==, w.kv_expected);
  g_assert_cmpuint (w.kv_seen, ==, 2 * kv_4096);

  /* Another catalog: the rows made anew, in one change. */
  g_ptr_array_add (two, (gpointer) hr_session_find_model (f->session, "llama3.2:3b"));
  g_ptr_array_add (two, (gpointer) hr_session_find_model (f->session, "gemma3:1b"));
  g_assert_nonnull (two->pdata[0]);
  g_assert_nonnull (two->pdata[1]);
  hr_session_set_catalog (f->session, two);
  g_assert_cmpuint (w.items_changed, ==, 1);
  g_assert_cmpuint (w.evaluated, ==, 1);
  g_assert_cmpuint (w.position, ==, 0);
  g_assert_cmpuint (w.removed, ==, n);
  g_assert_cmpuint (w.added, ==, 2);
  g_assert_cmpuint (hr_catalog_model_get_generation (model), ==, generation + 1);
  g_assert_cmpuint (w.kv_seen, ==, 2 * kv_4096);
  g_assert_nonnull (hr_catalog_model_get_recommended (model));

  g_signal_handlers_disconnect_by_data (model, &w);
  g_signal_handlers_disconnect_by_data (f->scenario, &w);
}

/* @row's figures against a row of the same model evaluated whole, with
 * hr_model_row_evaluate_runtime(), under the scenario as it is now: the
 * catalog model's pass on a context step (hr_evaluate_context_step(),
 * and no new prediction for a model whose limit both contexts are past)
 * must give the same bytes. */
static void
assert_row_as_evaluated_whole (HrScenario *scenario,
                               HrModelRow *row,
                               const char *where)
{
  g_autoptr(HrModelRow) whole = hr_model_row_new (hr_model_row_get_spec (row));
  const char *name = hr_model_row_get_name (row);
  HrEvaluation a, b;

  hr_model_row_set_measured_tps (whole, hr_model_row_get_measured_tps (row));
  hr_model_row_evaluate_runtime (whole, hr_scenario_peek_evaluation_inputs (scenario),
                                 hr_scenario_get_runtime_template (scenario),
                                 hr_scenario_get_calibration (scenario));
  a = *hr_model_row_get_evaluation (row);
  b = *hr_model_row_get_evaluation (whole);
  if (memcmp (&a, &b, sizeof a) != 0)
    g_error ("%s, %s: the row's evaluation (total %" G_GUINT64_FORMAT ", verdict %d, margin %" G_GUINT64_FORMAT
             ", past the limit %d) is not the whole evaluation's (total %" G_GUINT64_FORMAT ", verdict %d, margin %"
             G_GUINT64_FORMAT ", past the limit %d)",
             where, name, a.footprint.total, a.verdict, a.margin_bytes, a.past_context_limit,
             b.footprint.total, b.verdict, b.margin_bytes, b.past_context_limit);
  a = *hr_model_row_get_plain_evaluation (row);
  b = *hr_model_row_get_plain_evaluation (whole);
  if (memcmp (&a, &b, sizeof a) != 0)
    g_error ("%s, %s: the row's plain math (total %" G_GUINT64_FORMAT ") is not the whole evaluation's (%" G_GUINT64_FORMAT ")",
             where, name, a.footprint.total, b.footprint.total);
  g_assert_cmpuint (hr_model_row_get_kv_per_token (row), ==, hr_model_row_get_kv_per_token (whole));
  g_assert_cmpint (hr_model_row_get_kv_type (row), ==, hr_model_row_get_kv_type (whole));
  g_assert_cmpint (hr_model_row_get_learned_bytes (row), ==, hr_model_row_get_learned_bytes (whole));
  g_assert_cmpuint (hr_model_row_get_projector_bytes (row), ==, hr_model_row_get_projector_bytes (whole));
  g_assert_cmpint (hr_model_row_get_runtime_failed (row), ==, hr_model_row_get_runtime_failed (whole));
}

/* Every board, every runtime, the context slider up and down across the
 * models' limits (8K to 128K in the catalog) and back: after each step
 * every row is what a whole evaluation gives, the rows with a split (a
 * board with host memory) and the plain math's included. */
static void
test_scenario_catalog_context_steps (Fixture       *f,
                                     gconstpointer  data)
{
  static const guint32 steps[] = { 4096, 8192, 32768, 131072, 65536, 131072, 40960, 512, 131072, 2048 };
  static const HrScenarioRuntime runtimes[] = {
    HR_SCENARIO_RUNTIME_BOARD, HR_SCENARIO_RUNTIME_OLLAMA_0_30, HR_SCENARIO_RUNTIME_OLLAMA_0_12,
    HR_SCENARIO_RUNTIME_LLAMA_SERVER, HR_SCENARIO_RUNTIME_NONE,
  };
  GPtrArray *boards = hr_session_get_boards (f->session);
  HrCatalogModel *model = hr_scenario_get_catalog_model (f->scenario);
  guint checked = 0;

  for (guint b = 0; b < boards->len; b++)
    for (guint r = 0; r < G_N_ELEMENTS (runtimes); r++)
      {
        hr_scenario_set_board_id (f->scenario, ((HrBoard *) g_ptr_array_index (boards, b))->id);
        hr_scenario_set_runtime (f->scenario, runtimes[r]);
        hr_scenario_set_context_tokens (f->scenario, 1024);
        for (guint s = 0; s < G_N_ELEMENTS (steps); s++)
          {
            g_autofree char *where = g_strdup_printf ("board %s, runtime %d, %u tokens",
                                                      hr_scenario_get_board_id (f->scenario), runtimes[r], steps[s]);
            guint n;

            hr_scenario_set_context_tokens (f->scenario, steps[s]);
            n = g_list_model_get_n_items (G_LIST_MODEL (model));
            g_assert_cmpuint (n, >, 0);
            for (guint i = 0; i < n; i++)
              {
                g_autoptr(HrModelRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);

                assert_row_as_evaluated_whole (f->scenario, row, where);
                checked++;
              }
          }
      }
  g_assert_cmpuint (checked, >=, boards->len * G_N_ELEMENTS (runtimes) * G_N_ELEMENTS (steps) * 30);
}

static void
count_row_changed (HrModelRow *row,
                   guint      *count)
{
  (*count)++;
}

/* The recommendation hr_recommend() makes over the model's rows as they
 * are now. */
static HrModelRow *
recommend_over (HrCatalogModel *model)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) specs = g_ptr_array_new ();
  g_autofree HrEvaluation *evaluations = g_new0 (HrEvaluation, n);
  gint best;

  for (guint i = 0; i < n; i++)
    {
      HrModelRow *row = g_list_model_get_item (G_LIST_MODEL (model), i);

      g_ptr_array_add (rows, row);
      g_ptr_array_add (specs, (gpointer) hr_model_row_get_spec (row));
      evaluations[i] = *hr_model_row_get_evaluation (row);
    }
  best = hr_recommend ((HrModelSpec * const *) specs->pdata, evaluations, n);
  return best >= 0 ? g_ptr_array_index (rows, best) : NULL;
}

/* A slider step tells only the rows cells watch, each once, and gives a
 * row nobody watches a new serial instead; the recommendation kept as the
 * rows are evaluated is hr_recommend()'s over them. */
static void
test_scenario_row_notices (Fixture       *f,
                           gconstpointer  data)
{
  HrCatalogModel *model = hr_scenario_get_catalog_model (f->scenario);
  HrModelRow *watched = hr_catalog_model_find_row (model, "llama3.2:3b");
  HrModelRow *unwatched = hr_catalog_model_find_row (model, "gemma3:1b");
  guint watched_count = 0, unwatched_count = 0;
  guint serial;

  g_assert_nonnull (watched);
  g_assert_nonnull (unwatched);
  g_assert_true (hr_catalog_model_get_recommended (model) == recommend_over (model));
  hr_model_row_watch (watched);
  g_signal_connect (watched, "changed", G_CALLBACK (count_row_changed), &watched_count);
  g_signal_connect (unwatched, "changed", G_CALLBACK (count_row_changed), &unwatched_count);
  serial = hr_model_row_get_serial (unwatched);

  hr_scenario_set_context_tokens (f->scenario, 32768);
  g_assert_cmpuint (watched_count, ==, 1);
  g_assert_cmpuint (unwatched_count, ==, 0);
  g_assert_cmpuint (hr_model_row_get_serial (unwatched), !=, serial);
  g_assert_true (hr_catalog_model_get_recommended (model) == recommend_over (model));

  hr_scenario_set_context_tokens (f->scenario, 512);
  g_assert_cmpuint (watched_count, ==, 2);
  g_assert_true (hr_catalog_model_get_recommended (model) == recommend_over (model));

  /* Another unit: every watched row reads again, figures unchanged. */
  hr_catalog_model_refresh (model);
  g_assert_cmpuint (watched_count, ==, 3);
  g_assert_cmpuint (unwatched_count, ==, 0);

  g_signal_handlers_disconnect_by_func (watched, count_row_changed, &watched_count);
  g_signal_handlers_disconnect_by_func (unwatched, count_row_changed, &unwatched_count);
  hr_model_row_unwatch (watched);
}

/* --n-cpu-moe in the scenario (the "n-cpu-moe" key): qwen3:30b-a3b on the
 * RTX 3060 12 GB board at 4,096 tokens with every block's experts in host
 * memory, as `headroom-cli predict qwen3:30b-a3b --board rtx-3060-12gb
 * --context 4096 --n-cpu-moe 48` places it: 49/49 layers, 1,208,613,990
 * bytes of VRAM and 18,315,674,010 of host memory; the explain panel
 * says which experts stay there and why. */
static void
test_scenario_cpu_moe (Fixture       *f,
                       gconstpointer  data)
{
  const HrModelSpec *spec = hr_session_find_model (f->session, "qwen3:30b-a3b");
  const HrEvaluationInputs *inputs;
  HrEvaluation e;
  g_autofree char *split = NULL;
  guint before;

  g_object_set (f->scenario, "board-id", "rtx-3060-12gb", NULL);
  hr_scenario_set_context_tokens (f->scenario, 4096);
  /* fit's own MoE mode: some experts on the GPU, far more than 1.21 GB */
  hr_scenario_evaluate (f->scenario, spec, &e);
  g_assert_cmpuint (e.vram_bytes, >, 9000000000);

  before = f->changed;
  g_settings_set_uint (f->settings, "n-cpu-moe", 48);
  g_assert_cmpuint (f->changed, ==, before + 1);
  g_assert_cmpuint (hr_scenario_get_n_cpu_moe (f->scenario), ==, 48);
  inputs = hr_scenario_peek_evaluation_inputs (f->scenario);
  g_assert_cmpuint (inputs->n_cpu_moe, ==, 48);
  hr_scenario_evaluate (f->scenario, spec, &e);
  g_assert_true (e.split);
  g_assert_cmpuint (e.gpu_layers, ==, 49);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_PARTIAL);
  g_assert_cmpuint (e.vram_bytes, ==, 1208613990);
  g_assert_cmpuint (e.host_bytes, ==, 18315674010);
  g_assert_cmpstr (e.processor, ==, "94%/6% CPU/GPU");
  split = hr_formula_split (spec, inputs, &e);
  g_assert_cmpstr (split, ==,
                   "Experts of layers 0\u201347 kept in host memory by --n-cpu-moe 48 (LLAMA_ARG_N_CPU_MOE): 18.07 GB; "
                   "the rest of each layer stays on its GPU, and fit no longer places the layers\n"
                   "49 of 49 layers on the GPU\n"
                   "VRAM: 0.75 GB weights + 0.4 GB KV cache + 0.05 GB compute = 1,208,613,990 bytes = 1.21 GB (1.13 GiB)\n"
                   "host memory: 18.25 GB weights + 0.0 GB KV cache + 0.07 GB compute = 18,315,674,010 bytes = 18.32 GB (17.06 GiB) "
                   "(the token embedding, 0.18 GB, always stays there)\n"
                   "ollama ps would show PROCESSOR 94%/6% CPU/GPU");

  /* back to none: fit places the layers again */
  hr_scenario_set_n_cpu_moe (f->scenario, 0);
  g_assert_cmpuint (g_settings_get_uint (f->settings, "n-cpu-moe"), ==, 0);
  hr_scenario_evaluate (f->scenario, spec, &e);
  g_assert_cmpuint (e.vram_bytes, >, 9000000000);
}


/* Writes @widget as drawn to the PNG @path once it has been drawn. */
static void
save_shot (GtkWidget  *widget,
           const char *path)
{
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  while (g_get_monotonic_time () < end && !(gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0))
    g_main_context_iteration (NULL, FALSE);
  end = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL)
    return;
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node, NULL);
  gdk_texture_save_to_png (texture, path);
}

/* The scenario controls' --n-cpu-moe spin button follows the property
 * both ways, and is named by its row for screen readers. */
static void
test_scenario_cpu_moe_control (Fixture       *f,
                               gconstpointer  data)
{
  GtkWidget *controls;
  GtkSpinButton *spin;

  if (!gtk_init_check ())
    {
      g_test_skip ("no display");
      return;
    }
  controls = g_object_ref_sink (hr_scenario_controls_new ());
  hr_scenario_controls_set_scenario (HR_SCENARIO_CONTROLS (controls), f->scenario);
  spin = hr_scenario_controls_get_cpu_moe_spin (HR_SCENARIO_CONTROLS (controls));
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 0.0);
  gtk_spin_button_set_value (spin, 12.0);
  g_assert_cmpuint (hr_scenario_get_n_cpu_moe (f->scenario), ==, 12);
  g_assert_cmpuint (g_settings_get_uint (f->settings, "n-cpu-moe"), ==, 12);
  hr_scenario_set_n_cpu_moe (f->scenario, 3);
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 3.0);
  /* With HR_TEST_SHOTS set: the controls at 360 px, for a person to look at. */
  if (g_getenv ("HR_TEST_SHOTS") != NULL)
    {
      GtkWidget *window = gtk_window_new ();
      g_autofree char *path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), "scenario-controls-360.png", NULL);

      gtk_window_set_default_size (GTK_WINDOW (window), 360, 900);
      gtk_window_set_child (GTK_WINDOW (window), controls);
      gtk_window_present (GTK_WINDOW (window));
      save_shot (controls, path);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  g_object_unref (controls);
}

int
main (int   argc,
      char *argv[])
{
  int result;

  isolate_dirs ();
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/scenario/seed-board", Fixture, NULL, fixture_set_up, test_scenario_seed_board, fixture_tear_down);
  g_test_add_func ("/scenario/default-runtime", test_scenario_default_runtime);
  g_test_add ("/scenario/settings/context", Fixture, NULL, fixture_set_up, test_settings_context, fixture_tear_down);
  g_test_add ("/scenario/settings/same-value", Fixture, NULL, fixture_set_up, test_settings_same_value, fixture_tear_down);
  g_test_add ("/scenario/settings/slots-written", Fixture, NULL, fixture_set_up, test_settings_slots_written, fixture_tear_down);
  g_test_add ("/scenario/settings/kv-and-precision", Fixture, NULL, fixture_set_up, test_settings_kv_and_precision, fixture_tear_down);
  g_test_add ("/scenario/settings/runtime", Fixture, NULL, fixture_set_up, test_settings_runtime, fixture_tear_down);
  g_test_add ("/scenario/settings/flash-and-batch", Fixture, NULL, fixture_set_up, test_settings_flash_and_batch, fixture_tear_down);
  g_test_add ("/scenario/settings/described", Fixture, NULL, fixture_set_up, test_settings_described, fixture_tear_down);
  g_test_add ("/scenario/settings/board", Fixture, NULL, fixture_set_up, test_settings_board, fixture_tear_down);
  g_test_add ("/scenario/edited-board", Fixture, NULL, fixture_set_up, test_scenario_edited_board,
              fixture_tear_down);
  g_test_add ("/scenario/llama-server", Fixture, NULL, fixture_set_up, test_scenario_llama_server, fixture_tear_down);
  g_test_add ("/scenario/draft", Fixture, NULL, fixture_set_up, test_scenario_draft, fixture_tear_down);
  g_test_add_func ("/scenario/before-load", test_scenario_before_load);
  g_test_add ("/scenario/row-notices", Fixture, NULL, fixture_set_up, test_scenario_row_notices,
              fixture_tear_down);
  g_test_add ("/scenario/catalog-model/context-steps", Fixture, NULL, fixture_set_up,
              test_scenario_catalog_context_steps, fixture_tear_down);
  g_test_add ("/scenario/catalog-model", Fixture, NULL, fixture_set_up, test_scenario_catalog_model,
              fixture_tear_down);
  g_test_add ("/scenario/partial-offload/inputs", Split, NULL, split_set_up, test_split_inputs, split_tear_down);
  g_test_add ("/scenario/partial-offload/verdict", Split, NULL, split_set_up, test_split_verdict, split_tear_down);
  g_test_add ("/scenario/partial-offload/sizes", Split, NULL, split_set_up, test_split_sizes, split_tear_down);
  g_test_add ("/scenario/partial-offload/rate", Split, NULL, split_set_up, test_split_rate, split_tear_down);
  g_test_add ("/scenario/partial-offload/ollama-0-30", Split, NULL, split_set_up, test_split_ollama_0_30, split_tear_down);
  g_test_add ("/scenario/partial-offload/split-formula", Split, NULL, split_set_up, test_split_formula, split_tear_down);
  g_test_add ("/scenario/partial-offload/rate-formula", Split, NULL, split_set_up, test_split_rate_formula, split_tear_down);
  g_test_add ("/scenario/partial-offload/max-context", Split, NULL, split_set_up, test_split_max_context, split_tear_down);
  g_test_add ("/scenario/partial-offload/best-precision", Split, NULL, split_set_up, test_split_best_precision, split_tear_down);
  g_test_add ("/scenario/partial-offload/all-on-gpu", Split, NULL, split_set_up, test_split_all_on_gpu, split_tear_down);
  g_test_add ("/scenario/cpu-moe", Fixture, NULL, fixture_set_up, test_scenario_cpu_moe, fixture_tear_down);
  g_test_add ("/scenario/cpu-moe-control", Fixture, NULL, fixture_set_up, test_scenario_cpu_moe_control,
              fixture_tear_down);

  result = g_test_run ();
  remove_tree (isolated_root);
  g_free (isolated_root);
  return result;
}
