/* bench-core.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cost of one row: footprint + verdict + rate + speed (hr_evaluate())
 * for a 100,000-row catalog across 64 context values. Prints nanoseconds
 * per evaluation and its ratio to the 100 ns aim (a slider move over a
 * large catalog must cost well under a frame). A benchmark, not a test.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "hr-evaluate.h"

#define N_ROWS     100000
#define N_CONTEXTS 64
#define AIM_NS     100.0

int
main (void)
{
  g_autoptr(HrBoard) board = hr_board_new ("bench", "Bench board");
  g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  g_autofree double *measured = g_new (double, N_ROWS);
  g_autofree HrEvaluation *evals = g_new (HrEvaluation, N_ROWS);
  HrEfficiencyFit fit = { 0.36, 2000000000, 4900000000, 2 };
  GRand *rand = g_rand_new_with_seed (42);
  HrEvaluationInputs s;
  gint64 start, elapsed;
  guint64 checksum = 0;
  double ns;

  board->pool_bytes = 8000000000;
  board->resident_bytes = 1900000000;
  board->reserve_bytes = 1000000000;
  board->bandwidth_bytes_per_s = 102e9;

  for (guint i = 0; i < N_ROWS; i++)
    {
      HrModelSpec *spec = hr_model_spec_new (NULL);
      spec->name = g_strdup_printf ("model-%u", i);
      spec->parameters = g_rand_int_range (rand, 100, 70000) * G_GUINT64_CONSTANT (1000000);
      spec->precision = g_strdup ("q4_K_M");
      spec->file_bytes = i % 3 ? spec->parameters * 5 / 8 : 0;
      spec->layers = g_rand_int_range (rand, 12, 96);
      spec->kv_heads = 1u << g_rand_int_range (rand, 0, 4);
      spec->key_length = spec->value_length = 64u << g_rand_int_range (rand, 0, 3);
      spec->context_length = 131072;
      g_ptr_array_add (specs, spec);
      measured[i] = i % 50 == 0 ? 10.0 + i % 7 : NAN;
    }
  g_rand_free (rand);

  hr_evaluation_inputs_init (&s, board, &fit);
  start = g_get_monotonic_time ();
  for (guint c = 0; c < N_CONTEXTS; c++)
    {
      s.context_tokens = 512u << (c % 9);
      s.kv_type = (HrKvCacheType) (c % 3);
      for (guint i = 0; i < N_ROWS; i++)
        {
          hr_evaluate (&s, g_ptr_array_index (specs, i), measured[i], 0, &evals[i]);
          checksum += evals[i].footprint.total + evals[i].verdict;
        }
    }
  elapsed = g_get_monotonic_time () - start;
  ns = (double) elapsed * 1000.0 / ((double) N_ROWS * N_CONTEXTS);

  printf ("bench-core: %d rows x %d contexts = %d evaluations in %.1f ms\n",
          N_ROWS, N_CONTEXTS, N_ROWS * N_CONTEXTS, elapsed / 1000.0);
  printf ("bench-core: %.1f ns per evaluation (aim < %.0f ns; ratio to aim %.2f)\n",
          ns, AIM_NS, ns / AIM_NS);
  printf ("bench-core: a 10,000-row slider step costs %.2f ms\n", ns * 10000 / 1e6);
  printf ("bench-core: checksum %" G_GUINT64_FORMAT "\n", checksum);
  return 0;
}
