/* bench-core.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The cost of one row: footprint + verdict + rate + speed (hr_evaluate())
 * for a 100,000-row catalog across 64 context values, first with the
 * seed's plain math (without, then with each row's HrEvaluationCache, as
 * the window's rows keep one), then with the runtime prediction on (Ollama 0.30+,
 * hr_runtime_predict() in its bytes-only mode, with each row's
 * HrRuntimeSpecCache, and the verdict on its total, as the window's rows
 * do; the first step fills the caches and is counted). Prints CPU nanoseconds per evaluation
 * (process CPU time, so other work on the machine does not inflate it)
 * and the ratio to the 100 ns aim (a slider move over a large catalog must
 * cost well under a frame). A benchmark, not a test.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "hr-evaluate.h"
#include "hr-offload.h"
#include "hr-runtime.h"

#define N_ROWS     100000
#define N_CONTEXTS 64
#define AIM_NS     100.0

/* CPU time of this process in microseconds. */
static gint64
cpu_time_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static void
report (const char *what,
        gint64      elapsed_us,
        guint64     checksum)
{
  double ns = (double) elapsed_us * 1000.0 / ((double) N_ROWS * N_CONTEXTS);

  printf ("bench-core, %s: %d rows x %d contexts = %d evaluations in %.1f ms of CPU\n",
          what, N_ROWS, N_CONTEXTS, N_ROWS * N_CONTEXTS, elapsed_us / 1000.0);
  printf ("bench-core, %s: %.1f ns per evaluation (aim < %.0f ns; ratio to aim %.2f)\n",
          what, ns, AIM_NS, ns / AIM_NS);
  printf ("bench-core, %s: a 10,000-row slider step costs %.2f ms\n", what, ns * 10000 / 1e6);
  printf ("bench-core, %s: checksum %" G_GUINT64_FORMAT "\n", what, checksum);
}

int
main (void)
{
  g_autoptr(HrBoard) board = hr_board_new ("bench", "Bench board");
  g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  g_autofree double *measured = g_new (double, N_ROWS);
  g_autofree HrEvaluation *evals = g_new (HrEvaluation, N_ROWS);
  g_autofree HrEvaluationCache *plain_caches = g_new0 (HrEvaluationCache, N_ROWS);
  g_autoptr(GPtrArray) caches = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_runtime_spec_cache_free);
  HrEfficiencyFit fit = { 0.36, 2000000000, 4900000000, 2 };
  GRand *rand = g_rand_new_with_seed (42);
  HrEvaluationInputs s;
  HrRuntimeInputs rt;
  gint64 start;
  guint64 checksum = 0;

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
      spec->architecture = g_strdup ("llama");
      spec->heads = spec->kv_heads * 4;
      spec->embedding_length = spec->heads * spec->key_length;
      spec->vocab_size = 128256;
      g_ptr_array_add (specs, spec);
      g_ptr_array_add (caches, NULL); /* made at the row's first prediction, as the window's rows do */
      measured[i] = i % 50 == 0 ? 10.0 + i % 7 : NAN;
    }
  g_rand_free (rand);

  hr_evaluation_inputs_init (&s, board, &fit);
  start = cpu_time_us ();
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
  report ("plain math", cpu_time_us () - start, checksum);

  /* The same with each row's HrEvaluationCache, as the window's rows
   * evaluate (hr_model_row_evaluate()); the checksum must match. */
  checksum = 0;
  start = cpu_time_us ();
  for (guint c = 0; c < N_CONTEXTS; c++)
    {
      s.context_tokens = 512u << (c % 9);
      s.kv_type = (HrKvCacheType) (c % 3);
      for (guint i = 0; i < N_ROWS; i++)
        {
          hr_evaluate_cached (&s, g_ptr_array_index (specs, i), &plain_caches[i], measured[i], 0, &evals[i]);
          checksum += evals[i].footprint.total + evals[i].verdict;
        }
    }
  report ("plain math, each row's cache", cpu_time_us () - start, checksum);

  /* The runtime prediction on, as a row of the window evaluates it
   * (hr_model_row_evaluate_runtime()): the plain evaluation for the rate,
   * then the prediction's total and its verdict. */
  checksum = 0;
  hr_runtime_inputs_init (&rt, NULL, 4096);
  rt.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  rt.skip_text = TRUE;
  rt.parallel_slots = 1;
  start = cpu_time_us ();
  for (guint c = 0; c < N_CONTEXTS; c++)
    {
      s.context_tokens = 512u << (c % 9);
      s.kv_type = (HrKvCacheType) (c % 2 ? HR_KV_CACHE_Q8_0 : HR_KV_CACHE_F16);
      rt.context_tokens = s.context_tokens;
      rt.kv_type = s.kv_type;
      for (guint i = 0; i < N_ROWS; i++)
        {
          HrRuntimePrediction p;

          hr_evaluate_cached (&s, g_ptr_array_index (specs, i), &plain_caches[i], measured[i], 0, &evals[i]);
          rt.spec = g_ptr_array_index (specs, i);
          if (g_ptr_array_index (caches, i) == NULL)
            g_ptr_array_index (caches, i) = hr_runtime_spec_cache_new ();
          rt.cache = g_ptr_array_index (caches, i);
          if (hr_runtime_predict (&rt, &p, NULL))
            {
              guint64 total = hr_offload_pool_bytes (board, &p);

              evals[i].footprint.total = total;
              evals[i].verdict = hr_board_verdict (board, total, &evals[i].margin_bytes);
            }
          checksum += evals[i].footprint.total + evals[i].verdict;
        }
    }
  report ("runtime prediction (Ollama 0.30+)", cpu_time_us () - start, checksum);
  return 0;
}
