/* test-runtime-methods.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which method and which KV cache type a prediction uses: the
 * seed's weights + KV cache as a named method (%HR_RUNTIME_ERA_SEED), and
 * a quantized KV cache without flash attention, which Ollama before 0.30
 * turned into f16 and llama-server from 0.30 refuses. The rest of the
 * runtime model is tests/test-runtime.c's.
 */
#include "config.h"

#include <string.h>

#include "hr-error.h"
#include "hr-memory.h"
#include "hr-runtime.h"

/* llama3.2:3b's shape (the catalog row's figures; no tensor list). */
static HrModelSpec *
llama32_3b (void)
{
  HrModelSpec *spec = hr_model_spec_new ("llama3.2:3b");

  spec->architecture = g_strdup ("llama");
  spec->precision = g_strdup ("q4_K_M");
  spec->parameters = G_GUINT64_CONSTANT (3212749888);
  spec->file_bytes = G_GUINT64_CONSTANT (2019377376);
  spec->layers = 28;
  spec->heads = 24;
  spec->kv_heads = 8;
  spec->key_length = spec->value_length = 128;
  spec->embedding_length = 3072;
  spec->feed_forward_length = 8192;
  spec->vocab_size = 128256;
  spec->context_length = 131072;
  spec->tied_embeddings = TRUE;
  return spec;
}

static gint64
term (const HrRuntimePrediction *p,
      HrRuntimeTermKind          kind)
{
  g_assert_nonnull (hr_runtime_prediction_get_term (p, kind));
  return hr_runtime_prediction_term_bytes (p, kind);
}

static gboolean
has_note (const HrRuntimePrediction *p,
          const char                *text)
{
  for (guint i = 0; i < p->n_notes; i++)
    if (strcmp (p->notes[i], text) == 0)
      return TRUE;
  return FALSE;
}

/* Ollama 0.13.4 to 0.29 (llm/server.go NewLlamaServer at commit
 * 9db4bdbad^, ollama/ollama): a quantized OLLAMA_KV_CACHE_TYPE is dropped
 * for f16 unless OLLAMA_FLASH_ATTENTION forces flash attention on, with the
 * warning "OLLAMA_FLASH_ATTENTION must be enabled to use a quantized
 * OLLAMA_KV_CACHE_TYPE". From 0.30.0 (llm/llama_server.go) the type goes to
 * llama-server as asked, which refuses it with flash attention off. */
static void
test_kv_fallback_before_0_30 (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b ();
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  hr_runtime_inputs_init (&in, spec, 4096);
  in.server_version = "0.20.1";
  in.kv_type = HR_KV_CACHE_Q8_0;
  in.flash_attention = HR_FLASH_ATTENTION_OFF;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpint (p.era, ==, HR_RUNTIME_ERA_OLLAMA_0_30);
  g_assert_cmpint (p.kv_type, ==, HR_KV_CACHE_F16);
  g_assert_cmpint (p.kv_type_requested, ==, HR_KV_CACHE_Q8_0);
  g_assert_nonnull (strstr (p.kv_type_reason, "OLLAMA_FLASH_ATTENTION must be enabled to use a quantized OLLAMA_KV_CACHE_TYPE"));
  g_assert_true (has_note (&p, "A q8_0 KV cache was asked for, but Ollama 0.20.1 drops it unless flash attention is forced on: the cache is f16 (llm/server.go NewLlamaServer)."));
  /* 28 x 8 x 256 x 4,096 cells x 2 bytes: f16. */
  g_assert_cmpint (term (&p, HR_RUNTIME_TERM_KV_CACHE), ==, 469762048);

  /* Auto is not forced on: still f16. */
  in.flash_attention = HR_FLASH_ATTENTION_AUTO;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpint (p.kv_type, ==, HR_KV_CACHE_F16);

  /* Forced on: q8_0 as asked, no reason. */
  in.flash_attention = HR_FLASH_ATTENTION_ON;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpint (p.kv_type, ==, HR_KV_CACHE_Q8_0);
  g_assert_null (p.kv_type_reason);

  /* 0.30.0 and newer: refused, as llama-server refuses it. */
  in.server_version = "0.30.0";
  in.flash_attention = HR_FLASH_ATTENTION_OFF;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
}

/* The seed's method as a named mode: weights + KV cache, every layer the
 * whole context (docs/seed-figures.md: llama3.2:3b 114,688 bytes per token). */
static void
test_seed_method (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b ();
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  HrRuntimeEra era;

  g_assert_true (hr_runtime_era_from_string ("seed", &era));
  g_assert_cmpint (era, ==, HR_RUNTIME_ERA_SEED);
  hr_runtime_inputs_init (&in, spec, 16384);
  in.era = HR_RUNTIME_ERA_SEED;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpstr (p.era_id, ==, "seed");
  g_assert_cmpuint (p.n_terms, ==, 2);
  g_assert_cmpint (term (&p, HR_RUNTIME_TERM_KV_CACHE), ==, G_GINT64_CONSTANT (114688) * 16384);
  g_assert_cmpint (term (&p, HR_RUNTIME_TERM_WEIGHTS), ==, (gint64) hr_memory_spec_weight_bytes (spec, NULL));
  g_assert_cmpuint (p.total_bytes, ==, hr_memory_spec_weight_bytes (spec, NULL) + G_GUINT64_CONSTANT (114688) * 16384);
  g_assert_cmpuint (p.parallel_slots, ==, 1);

  /* On a server without a GPU the weights are not "on the GPU". */
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpstr (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_WEIGHTS)->label, ==,
                   "Weights (CPU backend, host memory)");
}

/* A catalog row with the seed's rounded listing and the exact published
 * figures (hr_runtime_exact_spec()): the seed's method sizes the listing
 * its tables print, the runtime the exact blob. */
static void
test_exact_view (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b ();
  g_autoptr(GError) error = NULL;
  HrModelSpec scratch;
  const HrModelSpec *view;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  spec->exact_file_bytes = spec->file_bytes;
  spec->exact_parameters = spec->parameters;
  spec->file_bytes = 2000000000;
  spec->parameters = 3200000000;
  view = hr_runtime_exact_spec (spec, &scratch);
  g_assert_true (view == &scratch);
  g_assert_cmpuint (view->file_bytes, ==, G_GUINT64_CONSTANT (2019377376));
  g_assert_cmpuint (view->parameters, ==, G_GUINT64_CONSTANT (3212749888));
  g_assert_true (view->name == spec->name);

  hr_runtime_inputs_init (&in, spec, 4096);
  in.era = HR_RUNTIME_ERA_SEED;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpint (term (&p, HR_RUNTIME_TERM_WEIGHTS), ==, 2000000000);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  /* Tied, no tensor list: the whole file is on the GPU. */
  g_assert_cmpint (term (&p, HR_RUNTIME_TERM_WEIGHTS), ==, G_GINT64_CONSTANT (2019377376));

  spec->exact_file_bytes = spec->exact_parameters = 0;
  g_assert_true (hr_runtime_exact_spec (spec, &scratch) == spec);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runtime/kv-fallback-before-0.30", test_kv_fallback_before_0_30);
  g_test_add_func ("/runtime/seed-method", test_seed_method);
  g_test_add_func ("/runtime/exact-view", test_exact_view);
  return g_test_run ();
}
