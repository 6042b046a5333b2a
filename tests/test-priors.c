/* test-priors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Prior efficiencies per kind of hardware (hr-priors.h, data/priors.json)
 * and the fourth rate source, "prior" (hr-rates.h, hr-evaluate.h).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-evaluate.h"
#include "hr-priors.h"

static HrPriors *
builtin_priors (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "priors.json", NULL);
  g_autoptr(GError) error = NULL;
  HrPriors *priors = hr_priors_load_file (path, &error);

  g_assert_no_error (error);
  return priors;
}

static void
test_priors_builtin (void)
{
  g_autoptr(HrPriors) priors = builtin_priors ();
  guint n;

  g_assert_cmpuint (hr_priors_get_n_runs (priors), ==, 10);
  for (guint i = 0; i < hr_priors_get_n_runs (priors); i++)
    {
      const HrPriorRun *run = hr_priors_get_run (priors, i);

      /* every run names where it was published */
      g_assert_true (g_str_has_prefix (run->source, "https://") || g_str_has_prefix (run->source, "seed: "));
      g_assert_cmpfloat (hr_prior_run_efficiency (run), >, 0.0);
      g_assert_cmpfloat (hr_prior_run_efficiency (run), <=, 1.0);
    }

  /* The seed's runs (docs/seed-figures.md "Rates" and the week-2 benchmark):
   * 18.4 / (102 / 2.0) = 0.3608, 7.4 / (102 / 4.9) = 0.3555, 23.4667 /
   * (273 / 9.053114464) = 0.7782: mean 0.4982 -> 0.50. */
  g_assert_cmpfloat (hr_priors_efficiency (priors, HR_HARDWARE_NVIDIA_UNIFIED, &n), ==, 0.50);
  g_assert_cmpuint (n, ==, 3);
  /* llama.cpp PRs #4812 and #4766: 127.43 / (1008 / 3.8225) = 0.4832,
   * 61.03 / (1008 / 13.4755) = 0.8159, 98.13 / (1008 / 7.1619) = 0.6972:
   * mean 0.6654 -> 0.67 */
  g_assert_cmpfloat (hr_priors_efficiency (priors, HR_HARDWARE_DISCRETE_NVIDIA, &n), ==, 0.67);
  g_assert_cmpuint (n, ==, 3);
  /* 46.2 / (400 / 4.9) = 0.5660, 20.87 / (120 / 4.9) = 0.8522: 0.7091 -> 0.71 */
  g_assert_cmpfloat (hr_priors_efficiency (priors, HR_HARDWARE_APPLE_UNIFIED, &n), ==, 0.71);
  g_assert_cmpuint (n, ==, 2);
  /* 18.27 / (102.4 / 3.8225) = 0.6820, 9.957 / (51.2 / 4.2) = 0.8168: 0.7494 -> 0.75 */
  g_assert_cmpfloat (hr_priors_efficiency (priors, HR_HARDWARE_CPU, &n), ==, 0.75);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (hr_priors_efficiency (priors, HR_HARDWARE_N_KINDS, &n), ==, 0.0);
  g_assert_cmpuint (n, ==, 0);
}

static void
test_priors_kinds (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "boards.json", NULL);
  g_autoptr(GPtrArray) boards = hr_boards_load_file (path, NULL);
  HrHardwareKind kind = HR_HARDWARE_CPU;

  g_assert_cmpint (hr_board_hardware_kind (hr_boards_find (boards, "jetson-orin-nano-super")), ==, HR_HARDWARE_NVIDIA_UNIFIED);
  g_assert_cmpint (hr_board_hardware_kind (hr_boards_find (boards, "dgx-spark")), ==, HR_HARDWARE_NVIDIA_UNIFIED);
  g_assert_cmpint (hr_board_hardware_kind (hr_boards_find (boards, "rtx-3060-12gb")), ==, HR_HARDWARE_DISCRETE_NVIDIA);
  g_assert_cmpint (hr_board_hardware_kind (hr_boards_find (boards, "mac-m3-pro-18gb")), ==, HR_HARDWARE_APPLE_UNIFIED);
  g_assert_cmpstr (hr_hardware_kind_to_string (HR_HARDWARE_NVIDIA_UNIFIED), ==, "nvidia-unified");
  g_assert_true (hr_hardware_kind_from_string ("Discrete-NVIDIA", &kind));
  g_assert_cmpint (kind, ==, HR_HARDWARE_DISCRETE_NVIDIA);
  g_assert_false (hr_hardware_kind_from_string ("tpu", &kind));
}

static void
test_priors_invalid (void)
{
  static const struct { const char *text; const char *message; } cases[] = {
    { "{ \"version\": 1, \"runs\": [\n"
      "  { \"kind\": \"tpu\", \"hardware\": \"h\", \"model\": \"m\", \"weight_bytes\": 1,\n"
      "    \"bandwidth_gb_s\": 1, \"decode_tps\": 1, \"source\": \"s\" } ] }",
      "priors.json: line 2: run 1: field \"kind\" must be \"discrete-nvidia\", \"apple-unified\", \"nvidia-unified\" or \"cpu\"" },
    { "{ \"version\": 1, \"runs\": [\n"
      "  { \"kind\": \"cpu\", \"hardware\": \"h\", \"model\": \"m\", \"weight_bytes\": 1000000000,\n"
      "    \"bandwidth_gb_s\": 50,\n"
      "    \"decode_tps\": 60, \"source\": \"s\" } ] }",
      "priors.json: line 4: run 1: field \"decode_tps\" must be above 0 and at most the ceiling (bandwidth / weight bytes)" },
    { "{ \"version\": 1, \"runs\": [\n"
      "  { \"kind\": \"cpu\", \"hardware\": \"h\", \"model\": \"m\", \"weight_bytes\": 1000000000,\n"
      "    \"bandwidth_gb_s\": 50, \"decode_tps\": 20 } ] }",
      "priors.json: line 3: run 1: field \"source\" is missing" },
    { "{ \"version\": 2, \"runs\": [] }",
      "priors.json: line 1: not a version this Headroom reads (it reads version 1)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HrPriors) priors = hr_priors_load_data (cases[i].text, -1, "priors.json", &error);

      g_assert_null (priors);
      g_assert_error (error, HR_CORE_ERROR, (i == 3 ? HR_CORE_ERROR_UNSUPPORTED : HR_CORE_ERROR_INVALID_DATA));
      g_assert_cmpstr (error->message, ==, cases[i].message);
    }
}

static void
test_priors_evaluate (void)
{
  g_autofree char *boards_path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "boards.json", NULL);
  g_autofree char *catalog_path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "catalog.json", NULL);
  g_autoptr(GPtrArray) boards = hr_boards_load_file (boards_path, NULL);
  g_autoptr(GPtrArray) catalog = hr_catalog_load_file (catalog_path, NULL);
  g_autoptr(HrPriors) priors = builtin_priors ();
  const HrBoard *rtx = hr_boards_find (boards, "rtx-3060-12gb");
  const HrBoard *jetson = hr_boards_find (boards, "jetson-orin-nano-super");
  const HrModelSpec *big = hr_catalog_find (catalog, "qwen2.5:14b");
  const HrModelSpec *gemma = hr_catalog_find (catalog, "gemma2:2b");
  HrEfficiencyFit fit = { 0.36, 2000000000, 4900000000, 2 };
  HrEvaluationInputs scenario;
  HrEvaluation row;
  g_autoptr(GPtrArray) reasons = NULL;

  /* no measurement on the RTX 3060: ceiling x the discrete prior,
   * 360 / 9.0 x 0.67 = 26.8 t/s, "prior", "likely ok" */
  hr_evaluation_inputs_init (&scenario, rtx, NULL);
  scenario.prior_efficiency = hr_priors_efficiency (priors, hr_board_hardware_kind (rtx), NULL);
  hr_evaluate (&scenario, big, NAN, 0, &row);
  g_assert_cmpint (row.source, ==, HR_RATE_SOURCE_PRIOR);
  g_assert_cmpfloat_with_epsilon (row.tps, 26.8, 1e-9);
  g_assert_cmpint (row.speed, ==, HR_SPEED_LIKELY_OK);
  g_assert_cmpstr (hr_rate_source_to_string (row.source), ==, "prior");
  g_assert_cmpstr (hr_speed_to_string (row.speed), ==, "likely ok");
  g_assert_cmpint (hr_recommend ((HrModelSpec * const *) &big, &row, 1), ==, 0);
  reasons = hr_pull_check (big, &row, scenario.floor_tps);
  g_assert_cmpuint (reasons->len, ==, 0);
  g_clear_pointer (&reasons, g_ptr_array_unref);

  scenario.floor_tps = 30.0;
  hr_evaluate (&scenario, big, NAN, 0, &row);
  g_assert_cmpint (row.speed, ==, HR_SPEED_LIKELY_SLOW);
  g_assert_cmpstr (hr_speed_to_string (row.speed), ==, "likely slow");
  reasons = hr_pull_check (big, &row, scenario.floor_tps);
  g_assert_cmpuint (reasons->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (reasons, 0), ==,
                   "qwen2.5:14b would decode at about 26.8 t/s (predicted from the published efficiency of its kind of board, not measured), under the 30.0 t/s floor");

  /* a measured rate still wins */
  hr_evaluate (&scenario, big, 33.0, 0, &row);
  g_assert_cmpint (row.source, ==, HR_RATE_SOURCE_MEASURED);

  /* the seed's board has its fit: the prior is never used, gemma2:2b stays
   * the seed's 22.9 t/s estimate (docs/seed-figures.md "Rates") */
  hr_evaluation_inputs_init (&scenario, jetson, &fit);
  scenario.prior_efficiency = 0.5;
  hr_evaluate (&scenario, gemma, NAN, 0, &row);
  g_assert_cmpint (row.source, ==, HR_RATE_SOURCE_ESTIMATE);
  g_assert_cmpfloat_with_epsilon (row.tps, 102.0 / 1.6 * 0.36, 1e-9);
  g_assert_cmpint (row.speed, ==, HR_SPEED_OK);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/priors/builtin", test_priors_builtin);
  g_test_add_func ("/priors/kinds", test_priors_kinds);
  g_test_add_func ("/priors/invalid", test_priors_invalid);
  g_test_add_func ("/priors/evaluate", test_priors_evaluate);
  return g_test_run ();
}
