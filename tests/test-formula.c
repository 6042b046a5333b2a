/* test-formula.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The explain panel's formulas (hr-formula.c) with the seed's figures
 * (docs/seed-figures.md: W5 and W6 under "Weights", "KV cache", "Budget and
 * verdicts", "Rates"), and the words it uses when the short formula does
 * not apply (per-layer KV heads, a rounded quantized cache).
 */

#include "config.h"

#include "hr-formula.h"
#include "hr-gui-format.h"

static HrBoard *
seed_board (void)
{
  HrBoard *board = hr_board_new ("jetson-orin-nano-super", "Jetson Orin Nano Super");

  board->pool_bytes = 8000000000;
  board->resident_bytes = 1900000000;
  board->reserve_bytes = 1000000000;
  board->bandwidth_bytes_per_s = 102e9;
  board->reply_tokens = 27;
  board->stage_ceiling_ms = 3000;
  board->prefill_allowance_ms = 350;
  return board;
}

/* llama3.2:3b as Ollama ships it: 3,212,749,888 parameters, the real
 * Q4_K_M blob of 2,019,377,376 bytes (docs/seed-figures.md W5, W6). */
static HrModelSpec *
llama_3b (void)
{
  HrModelSpec *spec = hr_model_spec_new ("llama3.2:3b");

  spec->parameters = 3212749888;
  spec->precision = g_strdup ("q4_K_M");
  spec->file_bytes = 2019377376;
  spec->layers = 28;
  spec->heads = 24;
  spec->kv_heads = 8;
  spec->key_length = 128;
  spec->value_length = 128;
  spec->context_length = 131072;
  return spec;
}

static void
test_formula_weights (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autoptr(HrModelSpec) spec = llama_3b ();
  g_autofree char *as_pulled = NULL;
  g_autofree char *int4 = NULL;
  g_autofree char *bits = NULL;
  HrEvaluationInputs scenario;
  HrEvaluation e;

  hr_evaluation_inputs_init (&scenario, board, NULL);
  hr_evaluate (&scenario, spec, 0, 0, &e);
  as_pulled = hr_formula_weights (spec, &scenario, &e);
  g_assert_cmpstr (as_pulled, ==, "the file as pulled (q4_K_M): 2,019,377,376 bytes = 2.02 GB (1.88 GiB)");

  /* W5: 3,212,749,888 parameters as clean int4 = 1,606,374,944 bytes */
  scenario.precision = hr_precision_lookup ("int4");
  hr_evaluate (&scenario, spec, 0, 0, &e);
  g_assert_cmpuint (e.footprint.weights, ==, 1606374944);
  int4 = hr_formula_weights (spec, &scenario, &e);
  g_assert_cmpstr (int4, ==, "3,212,749,888 parameters x 4.00 bits (INT4) / 8 = 1,606,374,944 bytes = "
                             "1.61 GB (1.5 GiB)");

  /* W6: the real blob is 5.028 bits per parameter, shown to two decimals */
  bits = hr_formula_effective_bits (spec);
  g_assert_cmpstr (bits, ==, "2,019,377,376 bytes x 8 / 3,212,749,888 parameters = 5.03 bits per "
                             "weight in the real file");

  spec->file_bytes = 0;
  g_assert_null (hr_formula_effective_bits (spec));
}

static void
test_formula_kv_cache (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autoptr(HrModelSpec) spec = llama_3b ();
  g_autofree char *per_token = NULL;
  g_autofree char *per_token_q8 = NULL;
  g_autofree char *kv = NULL;
  g_autofree char *kv_slots = NULL;
  g_autofree char *per_layer = NULL;
  HrEvaluationInputs scenario;
  HrEvaluation e;

  hr_evaluation_inputs_init (&scenario, board, NULL);
  hr_evaluate (&scenario, spec, 0, 0, &e);

  per_token = hr_formula_kv_per_token (spec, HR_KV_CACHE_F16);
  g_assert_cmpstr (per_token, ==, "2 x 28 layers x 8 KV heads x 128 head dim x 2 bytes = 114,688 bytes per token");
  kv = hr_formula_kv_cache (spec, &scenario, &e);
  g_assert_cmpstr (kv, ==, "2 x 28 layers x 8 KV heads x 128 head dim x 2 bytes x 4,096 tokens = "
                           "469,762,048 bytes = 0.47 GB (0.44 GiB)");

  /* q8_0: 34 bytes per 32 elements */
  per_token_q8 = hr_formula_kv_per_token (spec, HR_KV_CACHE_Q8_0);
  g_assert_cmpstr (per_token_q8, ==, "2 x 28 layers x 8 KV heads x 128 head dim x 34/32 bytes = "
                                     "60,928 bytes per token");

  scenario.parallel_slots = 2;
  hr_evaluate (&scenario, spec, 0, 0, &e);
  kv_slots = hr_formula_kv_cache (spec, &scenario, &e);
  g_assert_cmpstr (kv_slots, ==, "2 x 28 layers x 8 KV heads x 128 head dim x 2 bytes x 4,096 tokens x "
                                 "2 parallel slots = 939,524,096 bytes = 0.94 GB (0.88 GiB)");

  /* Layers with their own KV heads: no single product, the core's sum */
  spec->layer_kv_heads = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < spec->layers; i++)
    {
      guint32 heads = i % 2 == 0 ? 8 : 4;

      g_array_append_val (spec->layer_kv_heads, heads);
    }
  per_layer = hr_formula_kv_per_token (spec, HR_KV_CACHE_F16);
  g_assert_cmpstr (per_layer, ==, "86,016 bytes per token, summed over layers whose KV heads differ");
}

static void
test_formula_board_and_rates (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autoptr(HrModelSpec) spec = llama_3b ();
  g_autofree char *budget = NULL;
  g_autofree char *headroom = NULL;
  g_autofree char *floor_text = NULL;
  g_autofree char *ceiling = NULL;
  g_autofree char *rate = NULL;
  g_autofree char *speed = NULL;
  g_autofree char *context = NULL;
  HrEfficiencyFit fit = { 0.36, 2000000000, 4900000000, 2 };
  HrEvaluationInputs scenario;
  HrEvaluation e;

  /* The seed's catalog row: 2.0 GB on disk */
  spec->file_bytes = 2000000000;
  hr_evaluation_inputs_init (&scenario, board, &fit);
  hr_evaluate (&scenario, spec, 0, 0, &e);

  budget = hr_formula_budget (board);
  g_assert_cmpstr (budget, ==, "8.0 GB pool - 1.9 GB resident - 1.0 GB reserve = 5.1 GB (4.75 GiB) budget");
  headroom = hr_formula_headroom (board);
  g_assert_cmpstr (headroom, ==, "8.0 GB pool - 1.9 GB resident = 6.1 GB (5.68 GiB) headroom");
  floor_text = hr_formula_floor (board, &scenario);
  g_assert_cmpstr (floor_text, ==, "27 tokens / ((3,000 ms - 350 ms) / 1000) = 10.2 t/s floor");
  ceiling = hr_formula_ceiling (board, &e);
  g_assert_cmpstr (ceiling, ==, "102 GB/s / 2.0 GB weights = 51.0 t/s ceiling");

  /* No measurement given: ceiling x efficiency inside the band 1.0 to 9.8 GB */
  rate = hr_formula_rate (&scenario, &e);
  g_assert_cmpstr (rate, ==, "51.0 t/s ceiling x 0.36 efficiency = 18.4 t/s predicted, from the "
                             "efficiency fitted on this board's measurements: the weights lie inside "
                             "the band it holds for, 1.0 GB to 9.8 GB");
  speed = hr_formula_speed (&scenario, &e);
  g_assert_cmpstr (speed, ==, "18.4 t/s >= 10.2 t/s floor: ok");

  scenario.context_tokens = 262144;
  context = hr_formula_context (spec, &scenario);
  g_assert_cmpstr (context, ==, "262,144 tokens is past the model's native limit of 131,072 tokens");
}

/* Every rate that is not measured is "predicted" in the window; the rate
 * line says what it rests on, and the speed line why a verdict is "unknown"
 * or missing. The seed's rows: qwen2.5:0.5b outside the band (91.8 t/s,
 * extrapolated), qwen2.5:14b over (4.1 t/s, the dashboard's estimate). */
static void
test_formula_rate_words (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autoptr(HrModelSpec) spec = llama_3b ();
  HrEfficiencyFit fit = { 0.36, 2000000000, 4900000000, 2 };
  HrEvaluationInputs scenario;
  HrEvaluation e;
  g_autofree char *outside = NULL;
  g_autofree char *outside_speed = NULL;
  g_autofree char *over_speed = NULL;
  g_autofree char *none = NULL;
  g_autofree char *none_speed = NULL;

  hr_evaluation_inputs_init (&scenario, board, &fit);
  spec->file_bytes = 400000000;   /* under the band's 1.0 GB */
  hr_evaluate (&scenario, spec, 0, 0, &e);
  g_assert_cmpint (e.source, ==, HR_RATE_SOURCE_EXTRAPOLATED);
  g_assert_cmpstr (hr_gui_rate_source_label (e.source), ==, "predicted");
  outside = hr_formula_rate (&scenario, &e);
  g_assert_cmpstr (outside, ==, "255.0 t/s ceiling x 0.36 efficiency = 91.8 t/s predicted, from the "
                                "efficiency fitted on this board's measurements, but the weights lie "
                                "outside the band it holds for, 1.0 GB to 9.8 GB");
  outside_speed = hr_formula_speed (&scenario, &e);
  g_assert_cmpstr (outside_speed, ==, "the rate is predicted outside the band this board's "
                                      "measurements cover, so the speed is unknown");

  e.verdict = HR_VERDICT_OVER;
  over_speed = hr_formula_speed (&scenario, &e);
  g_assert_cmpstr (over_speed, ==, "it does not load on this board, so it has no speed verdict");
  g_assert_false (hr_gui_evaluation_has_rate (&e));
  g_assert_cmpstr (hr_gui_format_evaluation_source (&e), ==, "–");

  /* Nothing measured and no published efficiency: no rate, said so */
  hr_evaluation_inputs_init (&scenario, board, NULL);
  hr_evaluate (&scenario, spec, 0, 0, &e);
  g_assert_cmpfloat (e.tps, ==, 0.0);
  none = hr_formula_rate (&scenario, &e);
  g_assert_cmpstr (none, ==, "No rate: this board has no measurements to fit an efficiency to, "
                             "and no published efficiency is known for its kind of hardware");
  none_speed = hr_formula_speed (&scenario, &e);
  g_assert_cmpstr (none_speed, ==, "no rate, so the speed is unknown");
  g_assert_cmpstr (hr_gui_format_evaluation_source (&e), ==, "–");
  g_assert_cmpstr (hr_gui_rate_source_label (HR_RATE_SOURCE_MEASURED), ==, "measured");
  g_assert_cmpstr (hr_gui_rate_source_label (HR_RATE_SOURCE_PRIOR), ==, "predicted");
  g_assert_cmpstr (hr_gui_rate_source_label (HR_RATE_SOURCE_ESTIMATE), ==, "predicted");
}

static void
test_formula_verdicts (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autofree char *fits = NULL;
  g_autofree char *tight = NULL;
  g_autofree char *over = NULL;
  HrEvaluation e = { 0 };

  /* docs/seed-figures.md: llama3.2:3b fits with 2.63 GB, llama3.1:8b tight with
   * 0.66 GB, qwen2.5:14b over by 3.71 GB */
  e.footprint.total = 2469762048;
  e.verdict = hr_board_verdict (board, e.footprint.total, &e.margin_bytes);
  fits = hr_formula_verdict (board, &e);
  g_assert_cmpstr (fits, ==, "5.1 GB budget - 2.47 GB total = 2.63 GB (2.45 GiB) to spare: fits");

  e.footprint.total = 5436870656;
  e.verdict = hr_board_verdict (board, e.footprint.total, &e.margin_bytes);
  tight = hr_formula_verdict (board, &e);
  g_assert_cmpstr (tight, ==, "5.44 GB total is past the 5.1 GB budget; 6.1 GB headroom - 5.44 GB total = "
                              "0.66 GB (0.62 GiB) left above the resident memory: tight");

  e.footprint.total = 9805306368;
  e.verdict = hr_board_verdict (board, e.footprint.total, &e.margin_bytes);
  over = hr_formula_verdict (board, &e);
  g_assert_cmpstr (over, ==, "9.81 GB total - 6.1 GB headroom = over by 3.71 GB (3.45 GiB)");
}

/* A discrete board with host memory: a split row's verdict line is true
 * arithmetic on the side it speaks of (host budget and the pool chart's
 * Free for a partial row; the host or the GPU side for an over row). */
static void
test_formula_split_verdicts (void)
{
  g_autoptr(HrBoard) board = hr_board_new ("gpu", "A GPU");
  g_autofree char *partial = NULL, *reserve = NULL, *over_host = NULL, *over_gpu = NULL;
  HrEvaluation e = { 0 };

  board->pool_bytes = 12000000000;
  board->resident_bytes = 500000000;
  board->reserve_bytes = 500000000;
  board->host_pool_bytes = 32000000000;
  board->host_resident_bytes = 8000000000;
  board->host_reserve_bytes = 2000000000;
  board->bandwidth_bytes_per_s = 360e9;
  e.split = TRUE;
  e.gpu_layers = 30;
  e.total_layers = 63;

  /* partial: host budget 32 - 8 - 2 = 22 GB, less the 2.11 GB there */
  e.verdict = HR_VERDICT_PARTIAL;
  e.vram_bytes = 11000000000;
  e.host_bytes = 2110000000;
  e.margin_bytes = 24000000000 - e.host_bytes; /* hr_offload_judge(): against the host headroom */
  partial = hr_formula_verdict (board, &e);
  g_assert_cmpstr (partial, ==, "30 of 63 layers fit the GPU; 22.0 GB host budget - 2.11 GB in host memory = "
                                "19.89 GB (18.52 GiB) to spare: partial");
  /* loads, but into the host reserve */
  e.host_bytes = 23000000000;
  e.margin_bytes = 24000000000 - e.host_bytes;
  reserve = hr_formula_verdict (board, &e);
  g_assert_cmpstr (reserve, ==, "30 of 63 layers fit the GPU; 23.0 GB in host memory - 22.0 GB host budget = "
                                "1.0 GB (0.93 GiB) into the 2.0 GB host reserve: partial");

  /* over on the host side: 26.82 GB there against 24 GB free */
  e.verdict = HR_VERDICT_OVER;
  e.host_bytes = 26820000000;
  e.margin_bytes = e.host_bytes - 24000000000;
  e.footprint.total = e.vram_bytes + e.host_bytes;
  over_host = hr_formula_verdict (board, &e);
  g_assert_cmpstr (over_host, ==, "26.82 GB in host memory - 24.0 GB host headroom = over by 2.82 GB (2.63 GiB) in host memory");

  /* over on the GPU side (a num_gpu too large): 12.5 GB there against 11.5 GB */
  e.vram_bytes = 12500000000;
  e.host_bytes = 1000000000;
  e.margin_bytes = e.vram_bytes - 11500000000;
  over_gpu = hr_formula_verdict (board, &e);
  g_assert_cmpstr (over_gpu, ==, "12.5 GB on the GPU - 11.5 GB headroom = over by 1.0 GB (0.93 GiB) on the GPU");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/formula/weights", test_formula_weights);
  g_test_add_func ("/formula/split-verdicts", test_formula_split_verdicts);
  g_test_add_func ("/formula/kv-cache", test_formula_kv_cache);
  g_test_add_func ("/formula/board-and-rates", test_formula_board_and_rates);
  g_test_add_func ("/formula/rate-words", test_formula_rate_words);
  g_test_add_func ("/formula/verdicts", test_formula_verdicts);

  return g_test_run ();
}
