/* test-rates.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rates, the recommendation and the pull check (docs/seed-figures.md
 * "Rates", "Checking a pull").
 */
#include "config.h"

#include <math.h>

#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-evaluate.h"
#include "hr-units.h"

static HrBoard *
seed_board (void)
{
  HrBoard *board = hr_board_new ("jetson-orin-nano-super", "Jetson Orin Nano Super");

  board->pool_bytes = 8000000000;
  board->resident_bytes = 1900000000;
  board->reserve_bytes = 1000000000;
  board->bandwidth_bytes_per_s = 102e9;
  return board;
}

/* The seed's five models (Running Larger Models). */
static GPtrArray *
seed_models (void)
{
  static const struct { const char *name; double params_b; guint64 disk; guint32 layers, kv, hd; } m[] = {
    { "qwen2.5:0.5b", 0.5, 400000000, 24, 2, 64 },
    { "gemma2:2b", 2.6, 1600000000, 26, 4, 256 },
    { "llama3.2:3b", 3.2, 2000000000, 28, 8, 128 },
    { "llama3.1:8b", 8.0, 4900000000, 32, 8, 128 },
    { "qwen2.5:14b", 14.8, 9000000000, 48, 8, 128 },
  };
  GPtrArray *specs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);

  for (guint i = 0; i < G_N_ELEMENTS (m); i++)
    {
      HrModelSpec *s = hr_model_spec_new (m[i].name);
      s->parameters = (guint64) llround (m[i].params_b * 1e9);
      s->precision = g_strdup ("q4_K_M");
      s->file_bytes = m[i].disk;
      s->layers = m[i].layers;
      s->kv_heads = m[i].kv;
      s->key_length = s->value_length = m[i].hd;
      g_ptr_array_add (specs, s);
    }
  return specs;
}

static void
test_rates_fit (void)
{
  /* Measured on the seed board: llama3.2:3b 18.4 t/s, llama3.1:8b 7.4 t/s. */
  HrRatePoint points[] = { { 2000000000, 18.4 }, { 4900000000, 7.4 } };
  HrEfficiencyFit fit;
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_rate_fit_efficiency (points, 2, 102e9, &fit, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (fit.efficiency, ==, 0.36);
  g_assert_cmpuint (fit.band_low_bytes, ==, 2000000000);
  g_assert_cmpuint (fit.band_high_bytes, ==, 4900000000);
  g_assert_cmpuint (fit.n_points, ==, 2);

  /* the band rule: [1.0, 9.8] GB */
  g_assert_cmpint (hr_rate_source_for (&fit, 1000000000), ==, HR_RATE_SOURCE_ESTIMATE);
  g_assert_cmpint (hr_rate_source_for (&fit, 999999999), ==, HR_RATE_SOURCE_EXTRAPOLATED);
  g_assert_cmpint (hr_rate_source_for (&fit, 9800000000), ==, HR_RATE_SOURCE_ESTIMATE);
  g_assert_cmpint (hr_rate_source_for (&fit, 9800000001), ==, HR_RATE_SOURCE_EXTRAPOLATED);
  g_assert_cmpint (hr_rate_source_for (&fit, 400000000), ==, HR_RATE_SOURCE_EXTRAPOLATED);

  g_assert_false (hr_rate_fit_efficiency (points, 0, 102e9, &fit, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "no measured model on this board: measure one to fit its efficiency");
  g_assert_cmpuint (fit.n_points, ==, 0);
  g_assert_cmpint (hr_rate_source_for (&fit, 2000000000), ==, HR_RATE_SOURCE_EXTRAPOLATED);
  g_clear_error (&error);

  points[1].decode_tps = NAN;
  g_assert_false (hr_rate_fit_efficiency (points, 2, 102e9, &fit, &error));
  g_assert_cmpstr (error->message, ==, "measurement 2 has no weight size or no positive decode rate");
}

static void
test_rates_floor_and_speed (void)
{
  g_autofree char *floor_text = hr_format_decimal (hr_rate_floor_tps (27, 3000, 350), 1);

  g_assert_cmpstr (floor_text, ==, "10.2");
  g_assert_cmpfloat (hr_rate_floor_tps (27, 350, 350), ==, 0.0);
  g_assert_cmpfloat (hr_rate_ceiling_tps (102e9, 2000000000), ==, 51.0);
  g_assert_cmpfloat (hr_rate_ceiling_tps (102e9, 0), ==, 0.0);
  g_assert_cmpint (hr_rate_speed (91.8, HR_RATE_SOURCE_EXTRAPOLATED, 10.2), ==, HR_SPEED_UNKNOWN);
  g_assert_cmpint (hr_rate_speed (18.4, HR_RATE_SOURCE_MEASURED, 10.2), ==, HR_SPEED_OK);
  g_assert_cmpint (hr_rate_speed (7.4, HR_RATE_SOURCE_MEASURED, 10.2), ==, HR_SPEED_SLOW);
  g_assert_cmpstr (hr_rate_source_to_string (HR_RATE_SOURCE_ESTIMATE), ==, "estimate");
  g_assert_cmpstr (hr_speed_to_string (HR_SPEED_UNKNOWN), ==, "unknown");
}

static void
test_rates_dashboard_rows (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autoptr(GPtrArray) specs = seed_models ();
  HrRatePoint points[] = { { 2000000000, 18.4 }, { 4900000000, 7.4 } };
  double measured[] = { NAN, NAN, 18.4, 7.4, NAN };
  /* The seed's dashboard: total GB, memory, ceiling, t/s, source, speed. */
  static const char *expected[] = {
    "0.45 fits 255.0 91.8 extrapolated unknown",
    "2.04 fits 63.8 22.9 estimate ok",
    "2.47 fits 51.0 18.4 measured ok",
    "5.44 tight 20.8 7.4 measured slow",
    "9.81 over 11.3 4.1 estimate slow",
  };
  HrEfficiencyFit fit;
  HrEvaluation evals[5];
  HrEvaluationInputs s;

  g_assert_true (hr_rate_fit_efficiency (points, 2, board->bandwidth_bytes_per_s, &fit, NULL));
  hr_evaluation_inputs_init (&s, board, &fit);
  g_assert_cmpuint (s.context_tokens, ==, 4096);

  for (guint i = 0; i < specs->len; i++)
    {
      g_autofree char *total = NULL, *ceiling = NULL, *tps = NULL, *row = NULL;

      hr_evaluate (&s, g_ptr_array_index (specs, i), measured[i], 0, &evals[i]);
      total = hr_format_decimal (hr_bytes_to_gb (evals[i].footprint.total), 2);
      ceiling = hr_format_decimal (evals[i].ceiling_tps, 1);
      tps = hr_format_decimal (evals[i].tps, 1);
      row = g_strdup_printf ("%s %s %s %s %s %s", total, hr_verdict_to_string (evals[i].verdict),
                             ceiling, tps, hr_rate_source_to_string (evals[i].source),
                             hr_speed_to_string (evals[i].speed));
      g_assert_cmpstr (row, ==, expected[i]);
    }

  g_assert_cmpint (hr_recommend ((HrModelSpec * const *) specs->pdata, evals, specs->len), ==, 2);
  g_assert_cmpint (hr_recommend ((HrModelSpec * const *) specs->pdata, evals, 0), ==, -1);

  /* a measured rate counts only at the model's own precision */
  s.precision = hr_precision_lookup ("int4");
  hr_evaluate (&s, g_ptr_array_index (specs, 2), 18.4, 0, &evals[2]);
  g_assert_cmpint (evals[2].source, ==, HR_RATE_SOURCE_ESTIMATE);
  g_assert_cmpuint (evals[2].footprint.weights, ==, 1600000000);
}

static void
test_rates_pull_check (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autoptr(GPtrArray) specs = seed_models ();
  HrRatePoint points[] = { { 2000000000, 18.4 }, { 4900000000, 7.4 } };
  HrEfficiencyFit fit;
  HrEvaluation e;
  HrEvaluationInputs s;
  g_autoptr(GPtrArray) r14 = NULL, r05 = NULL, r3 = NULL, r8 = NULL;

  hr_rate_fit_efficiency (points, 2, 102e9, &fit, NULL);
  hr_evaluation_inputs_init (&s, board, &fit);

  /* qwen2.5:14b: both reasons at once */
  hr_evaluate (&s, g_ptr_array_index (specs, 4), NAN, 0, &e);
  r14 = hr_pull_check (g_ptr_array_index (specs, 4), &e, s.floor_tps);
  g_assert_cmpuint (r14->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (r14, 0), ==, "qwen2.5:14b is over by 3.71 GB");
  g_assert_cmpstr (g_ptr_array_index (r14, 1), ==, "qwen2.5:14b decodes at 4.1 t/s, under the 10.2 t/s floor");

  /* an extrapolated rate: no rate this board has measured */
  hr_evaluate (&s, g_ptr_array_index (specs, 0), NAN, 0, &e);
  r05 = hr_pull_check (g_ptr_array_index (specs, 0), &e, s.floor_tps);
  g_assert_cmpuint (r05->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (r05, 0), ==, "qwen2.5:0.5b has no rate this board has measured");

  /* llama3.2:3b: an empty list, the only permission to pull */
  hr_evaluate (&s, g_ptr_array_index (specs, 2), 18.4, 0, &e);
  r3 = hr_pull_check (g_ptr_array_index (specs, 2), &e, s.floor_tps);
  g_assert_cmpuint (r3->len, ==, 0);

  /* llama3.1:8b: tight is not refused, slow is */
  hr_evaluate (&s, g_ptr_array_index (specs, 3), 7.4, 0, &e);
  r8 = hr_pull_check (g_ptr_array_index (specs, 3), &e, s.floor_tps);
  g_assert_cmpuint (r8->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (r8, 0), ==, "llama3.1:8b decodes at 7.4 t/s, under the 10.2 t/s floor");
}

static void
test_rates_past_context (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autoptr(GPtrArray) specs = seed_models ();
  HrModelSpec *llama = g_ptr_array_index (specs, 2);
  HrEvaluation e;
  HrEvaluationInputs s;

  hr_evaluation_inputs_init (&s, board, NULL);
  llama->context_length = 8192;
  s.context_tokens = 16384;
  hr_evaluate (&s, llama, NAN, 0, &e);
  g_assert_true (e.past_context_limit);
  g_assert_cmpuint (e.footprint.kv_cache, ==, 1879048192);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpint (e.source, ==, HR_RATE_SOURCE_EXTRAPOLATED);
  s.context_tokens = 8192;
  hr_evaluate (&s, llama, NAN, 0, &e);
  g_assert_false (e.past_context_limit);
}

/* A discrete board with host memory: hr_evaluate splits the model as
 * llama.cpp's fit places it (hr-offload.h) and times a partial row on both
 * memories with the priors (data/boards.json rtx-3060-12gb, data/catalog.json
 * qwen2.5:14b at 32,768 tokens: 34 of 49 layers on the GPU). */
/* The built-in boards and catalog, the RTX 3060 12 GB with the priors,
 * and qwen2.5:14b (a partial row at 32,768 tokens) and qwen2.5:0.5b. */
typedef struct {
  GPtrArray          *boards;
  GPtrArray          *catalog;
  HrEvaluationInputs  s;
  const HrModelSpec  *spec;
  const HrModelSpec  *small;
} SplitRow;

static void
split_row_set_up (SplitRow      *f,
                  gconstpointer  data)
{
  g_autofree char *boards_path = g_build_filename (hr_data_builtin_dir (), "boards.json", NULL);
  g_autofree char *catalog_path = g_build_filename (hr_data_builtin_dir (), "catalog.json", NULL);
  const HrBoard *board;

  f->boards = hr_boards_load_file (boards_path, NULL);
  f->catalog = hr_catalog_load_file (catalog_path, NULL);
  g_assert_nonnull (f->boards);
  g_assert_nonnull (f->catalog);
  board = hr_boards_find (f->boards, "rtx-3060-12gb");
  f->spec = hr_catalog_find (f->catalog, "qwen2.5:14b");
  f->small = hr_catalog_find (f->catalog, "qwen2.5:0.5b");
  g_assert_nonnull (board);
  g_assert_nonnull (f->spec);
  hr_evaluation_inputs_init (&f->s, board, NULL);
  f->s.context_tokens = 32768;
  f->s.prior_efficiency = 0.67;
  f->s.cpu_prior_efficiency = 0.75;
}

static void
split_row_tear_down (SplitRow      *f,
                     gconstpointer  data)
{
  g_ptr_array_unref (f->catalog);
  g_ptr_array_unref (f->boards);
}

static void
test_rates_split_row (SplitRow      *f,
                      gconstpointer  data)
{
  g_autoptr(GPtrArray) reasons = NULL;
  HrEvaluation e;
  double expected;

  hr_evaluate (&f->s, f->spec, NAN, 0, &e);
  g_assert_true (e.split);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_PARTIAL);
  g_assert_cmpuint (e.gpu_layers, ==, 34);
  g_assert_cmpuint (e.total_layers, ==, 49);
  g_assert_cmpuint (e.vram_bytes, ==, 10645148128);
  g_assert_cmpuint (e.host_bytes, ==, 5267580960);
  g_assert_cmpuint (e.footprint.total, ==, e.vram_bytes + e.host_bytes);
  g_assert_cmpstr (e.processor, ==, "33%/67% CPU/GPU");
  /* The GPU reads its 6,019,621,344 weight bytes, the CPU 2,532,702,240
   * (its weights less token_embd, one row a token). */
  expected = 1.0 / (6019621344.0 / (360e9 * 0.67) + 2532702240.0 / (51.2e9 * 0.75));
  g_assert_cmpfloat_with_epsilon (e.tps, expected, 1e-9);
  g_assert_cmpint (e.source, ==, HR_RATE_SOURCE_PRIOR);
  g_assert_cmpint (e.speed, ==, HR_SPEED_LIKELY_OK);
  reasons = hr_pull_check (f->spec, &e, f->s.floor_tps);
  g_assert_cmpuint (reasons->len, ==, 0);
}

/* A partial row is never recommended: only fits. */
static void
test_rates_split_row_not_recommended (SplitRow      *f,
                                      gconstpointer  data)
{
  HrModelSpec *specs[2] = { (HrModelSpec *) f->small, (HrModelSpec *) f->spec };
  HrEvaluation rows[2];

  hr_evaluate (&f->s, f->small, NAN, 0, &rows[0]);
  hr_evaluate (&f->s, f->spec, NAN, 0, &rows[1]);
  g_assert_true (rows[1].split);
  g_assert_cmpint (hr_recommend (specs, rows, 2), ==, 0);
}

/* num_gpu 20: -ngl 20, no fit. */
static void
test_rates_split_row_num_gpu (SplitRow      *f,
                              gconstpointer  data)
{
  HrEvaluation e;

  f->s.num_gpu_set = TRUE;
  f->s.num_gpu = 20;
  hr_evaluate (&f->s, f->spec, NAN, 0, &e);
  g_assert_cmpuint (e.gpu_layers, ==, 20);
  g_assert_cmpstr (e.processor, ==, "60%/40% CPU/GPU");
}

/* Every layer on the GPU: the seed's ceiling x prior on the file. */
static void
test_rates_split_row_all_on_gpu (SplitRow      *f,
                                 gconstpointer  data)
{
  HrEvaluation e;

  f->s.context_tokens = 4096;
  hr_evaluate (&f->s, f->small, NAN, 0, &e);
  g_assert_true (e.split);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_FITS);
  g_assert_cmpuint (e.gpu_layers, ==, e.total_layers);
  g_assert_cmpfloat_with_epsilon (e.tps, 360e9 / (double) f->small->file_bytes * 0.67, 1e-9);
}

/* Without the CPU's prior a partial row has no rate, and says so. */
static void
test_rates_split_row_no_cpu_prior (SplitRow      *f,
                                   gconstpointer  data)
{
  g_autoptr(GPtrArray) reasons = NULL;
  HrEvaluation e;

  f->s.cpu_prior_efficiency = 0.0;
  hr_evaluate (&f->s, f->spec, NAN, 0, &e);
  g_assert_cmpint (e.verdict, ==, HR_VERDICT_PARTIAL);
  g_assert_cmpint (e.source, ==, HR_RATE_SOURCE_EXTRAPOLATED);
  g_assert_cmpint (e.speed, ==, HR_SPEED_UNKNOWN);
  reasons = hr_pull_check (f->spec, &e, f->s.floor_tps);
  g_assert_cmpuint (reasons->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (reasons, 0), ==, "qwen2.5:14b has no rate this board has measured");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rates/fit", test_rates_fit);
  g_test_add_func ("/rates/floor-and-speed", test_rates_floor_and_speed);
  g_test_add_func ("/rates/dashboard-rows", test_rates_dashboard_rows);
  g_test_add_func ("/rates/pull-check", test_rates_pull_check);
  g_test_add_func ("/rates/past-context", test_rates_past_context);
  g_test_add ("/rates/split-row/partial", SplitRow, NULL, split_row_set_up, test_rates_split_row, split_row_tear_down);
  g_test_add ("/rates/split-row/not-recommended", SplitRow, NULL, split_row_set_up, test_rates_split_row_not_recommended, split_row_tear_down);
  g_test_add ("/rates/split-row/num-gpu", SplitRow, NULL, split_row_set_up, test_rates_split_row_num_gpu, split_row_tear_down);
  g_test_add ("/rates/split-row/all-on-gpu", SplitRow, NULL, split_row_set_up, test_rates_split_row_all_on_gpu, split_row_tear_down);
  g_test_add ("/rates/split-row/no-cpu-prior", SplitRow, NULL, split_row_set_up, test_rates_split_row_no_cpu_prior, split_row_tear_down);
  return g_test_run ();
}
