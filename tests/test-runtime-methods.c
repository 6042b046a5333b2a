/* test-runtime-methods.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Which method and which KV cache type a prediction uses: the
 * seed's weights + KV cache as a named method (%HR_RUNTIME_ERA_SEED), and
 * a quantized KV cache without flash attention, which Ollama before 0.30
 * turned into f16 and llama-server from 0.30 refuses. And the caches a
 * slider step keeps per row (HrRuntimeSpecCache, HrEvaluationCache) give
 * the figures of the uncached calls, and a context step
 * (hr_runtime_predict_context_step()) those of the whole prediction. The
 * rest of the runtime model is tests/test-runtime.c's.
 */
#include "config.h"

#include <string.h>

#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-evaluate.h"
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

/* A sliding-window model with its own key and value lengths on those
 * layers, and head sizes a q8_0 cache's blocks of 32 do not divide. */
static HrModelSpec *
odd_heads (void)
{
  HrModelSpec *spec = llama32_3b ();

  g_free (spec->architecture);
  spec->architecture = g_strdup ("gemma3");
  spec->sliding_window = 1024;
  spec->key_length_swa = spec->value_length_swa = 72;
  return spec;
}

static void
assert_same_prediction (const HrRuntimePrediction *a,
                        const HrRuntimePrediction *b)
{
  g_assert_cmpuint (a->total_bytes, ==, b->total_bytes);
  g_assert_cmpuint (a->host_bytes, ==, b->host_bytes);
  g_assert_cmpuint (a->kv_cells, ==, b->kv_cells);
  g_assert_cmpuint (a->kv_cells_sliding, ==, b->kv_cells_sliding);
  g_assert_cmpint (a->kv_type, ==, b->kv_type);
  g_assert_cmpint (a->flash_attention, ==, b->flash_attention);
  g_assert_cmpuint (a->n_terms, ==, b->n_terms);
  for (guint i = 0; i < a->n_terms; i++)
    {
      g_assert_cmpint (a->terms[i].kind, ==, b->terms[i].kind);
      g_assert_cmpint (a->terms[i].bytes, ==, b->terms[i].bytes);
    }
}

/* One cache used in turn for three specs (so it is emptied and filled
 * again), every era, context, KV type and flash setting: the same terms,
 * totals and errors as without it. */
/* llama3.2:3b with its exact blob size beside a rounded file size. */
static HrModelSpec *
exact_llama32_3b (void)
{
  HrModelSpec *exact = llama32_3b ();

  exact->exact_file_bytes = exact->file_bytes;
  exact->file_bytes = 2000000000;
  return exact;
}

/* @in predicted without and with @cache (then again from the filled
 * cache): the same prediction, or the same refusal. Returns: TRUE when
 * refused */
static gboolean
assert_cache_changes_nothing (HrRuntimeInputs     *in,
                              HrRuntimeSpecCache  *cache,
                              HrRuntimePrediction *with,
                              HrRuntimePrediction *without)
{
  g_autoptr(GError) error_with = NULL;
  g_autoptr(GError) error_without = NULL;
  gboolean ok_with, ok_without;

  in->cache = NULL;
  ok_without = hr_runtime_predict (in, without, &error_without);
  in->cache = cache;
  ok_with = hr_runtime_predict (in, with, &error_with);
  g_assert_cmpint (ok_with, ==, ok_without);
  if (!ok_without)
    {
      g_assert_error (error_with, error_without->domain, error_without->code);
      g_assert_cmpstr (error_with->message, ==, error_without->message);
      return TRUE;
    }
  assert_same_prediction (with, without);
  /* Again from the filled cache. */
  g_assert_true (hr_runtime_predict (in, with, NULL));
  assert_same_prediction (with, without);
  return FALSE;
}

static void
test_spec_cache (void)
{
  static const HrRuntimeEra eras[] = { HR_RUNTIME_ERA_OLLAMA_0_30, HR_RUNTIME_ERA_LLAMA_SERVER, HR_RUNTIME_ERA_OLLAMA_0_12 };
  static const guint32 contexts[] = { 512, 4096, 200000 };
  g_autoptr(HrModelSpec) plain = llama32_3b ();
  g_autoptr(HrModelSpec) exact = exact_llama32_3b ();
  g_autoptr(HrModelSpec) odd = odd_heads ();
  const HrModelSpec *specs[] = { plain, exact, odd, plain };
  HrRuntimeSpecCache *cache = hr_runtime_spec_cache_new ();
  g_autofree HrRuntimePrediction *with = g_new0 (HrRuntimePrediction, 1);
  g_autofree HrRuntimePrediction *without = g_new0 (HrRuntimePrediction, 1);
  guint refused = 0;

  for (guint s = 0; s < G_N_ELEMENTS (specs); s++)
    for (guint e = 0; e < G_N_ELEMENTS (eras); e++)
      for (guint c = 0; c < G_N_ELEMENTS (contexts); c++)
        for (guint k = 0; k < 2; k++)
          for (guint fa = 0; fa < 2; fa++)
            {
              HrRuntimeInputs in;

              hr_runtime_inputs_init (&in, specs[s], contexts[c]);
              in.era = eras[e];
              in.kv_type = k ? HR_KV_CACHE_Q8_0 : HR_KV_CACHE_F16;
              in.flash_attention = fa ? HR_FLASH_ATTENTION_ON : HR_FLASH_ATTENTION_OFF;
              in.skip_text = TRUE;
              refused += assert_cache_changes_nothing (&in, cache, with, without);
            }
  /* The odd heads with q8_0 and flash on, and every q8_0 with flash off
   * on 0.30 and llama-server, are refused; the cache changes none. */
  g_assert_cmpuint (refused, >, 0);
  hr_runtime_spec_cache_free (cache);
}

/* The exact view is the exact blob's, from the cache as without it. */
static void
test_spec_cache_exact_view (void)
{
  g_autoptr(HrModelSpec) plain = llama32_3b ();
  g_autoptr(HrModelSpec) exact = exact_llama32_3b ();
  HrRuntimeSpecCache *cache = hr_runtime_spec_cache_new ();
  g_autofree HrRuntimePrediction *with = g_new0 (HrRuntimePrediction, 1);
  HrRuntimeInputs in;

  /* the cache first filled with the same model's rounded view */
  hr_runtime_inputs_init (&in, plain, 4096);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.skip_text = TRUE;
  in.cache = cache;
  g_assert_true (hr_runtime_predict (&in, with, NULL));
  hr_runtime_inputs_init (&in, exact, 4096);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.skip_text = TRUE;
  in.cache = cache;
  g_assert_true (hr_runtime_predict (&in, with, NULL));
  g_assert_cmpint (term (with, HR_RUNTIME_TERM_WEIGHTS), ==, G_GINT64_CONSTANT (2019377376));
  hr_runtime_spec_cache_free (cache);
}

/* hr_evaluate_cached() gives hr_evaluate()'s row, for two specs and two
 * precisions through one cache. */
static void
test_evaluation_cache (void)
{
  g_autoptr(HrBoard) board = hr_board_new ("test", "Test board");
  g_autoptr(HrModelSpec) a = llama32_3b ();
  g_autoptr(HrModelSpec) b = odd_heads ();
  const HrModelSpec *specs[] = { a, b, a };
  const HrPrecision *precisions[] = { NULL, hr_precision_lookup ("q8_0") };
  HrEfficiencyFit fit = { 0.36, 2000000000, 4900000000, 2 };
  HrEvaluationCache cache = { 0 };
  HrEvaluationInputs s;

  board->pool_bytes = 8000000000;
  board->reserve_bytes = 1000000000;
  board->bandwidth_bytes_per_s = 102e9;
  hr_evaluation_inputs_init (&s, board, &fit);
  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    for (guint p = 0; p < G_N_ELEMENTS (precisions); p++)
      for (guint32 context = 512; context <= 262144; context *= 8)
        {
          HrEvaluation with, without;

          s.precision = precisions[p];
          s.context_tokens = context;
          s.kv_type = context > 4096 ? HR_KV_CACHE_Q4_0 : HR_KV_CACHE_F16;
          hr_evaluate (&s, specs[i], 20.0, 0, &without);
          hr_evaluate_cached (&s, specs[i], &cache, 20.0, 0, &with);
          g_assert_cmpuint (with.footprint.weights, ==, without.footprint.weights);
          g_assert_cmpuint (with.footprint.kv_cache, ==, without.footprint.kv_cache);
          g_assert_cmpuint (with.footprint.total, ==, without.footprint.total);
          g_assert_cmpint (with.verdict, ==, without.verdict);
          g_assert_cmpint (with.margin_bytes, ==, without.margin_bytes);
          g_assert_cmpfloat (with.tps, ==, without.tps);
          g_assert_cmpint (with.source, ==, without.source);
          g_assert_cmpint (with.past_context_limit, ==, without.past_context_limit);
        }
  /* A measured rate counts only as pulled: the cache keeps which. */
  g_assert_true (cache.precision != NULL && !cache.as_pulled);
}

/* Whether a context step of @in (its cache's last prediction made at
 * another context) gives the whole prediction's figures at
 * in->context_tokens; @whole is scratch. Returns: whether the cache held a
 * step (FALSE: the caller predicts whole, as the window's rows do). */
static gboolean
assert_step_is_whole (const HrRuntimeInputs *in,
                      HrRuntimePrediction   *whole)
{
  HrRuntimeInputs plain = *in;
  HrRuntimeContextStep step;
  g_autoptr(GError) error = NULL;

  if (!hr_runtime_predict_context_step (in, &step))
    return FALSE;
  plain.cache = NULL;
  g_assert_true (hr_runtime_predict (&plain, whole, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (step.context_tokens, ==, whole->context_tokens);
  g_assert_cmpint (step.context_clamped, ==, whole->context_clamped);
  g_assert_cmpint (step.kv_type, ==, whole->kv_type);
  g_assert_cmpuint (step.kv_cache_bytes, ==, (guint64) hr_runtime_prediction_term_bytes (whole, HR_RUNTIME_TERM_KV_CACHE));
  g_assert_cmpuint (step.compute_bytes, ==, (guint64) hr_runtime_prediction_term_bytes (whole, HR_RUNTIME_TERM_COMPUTE));
  g_assert_cmpuint (step.total_bytes, ==, whole->total_bytes);
  g_assert_cmpuint (step.host_bytes, ==, whole->host_bytes);
  return TRUE;
}

/* Every model of the built-in catalog (dense, sliding-window, hybrid,
 * recurrent, MoE, MLA, with a projector), on a GPU and on the CPU, flash
 * attention on, off and the server's choice, three KV types, one and
 * three slots, the default and a smaller micro-batch, and through the
 * clamp to the trained context: up and down the context slider, each step
 * the whole prediction's figures. */
static void
test_context_step (void)
{
  static const guint32 contexts[] = { 8192, 256, 700, 4096, 40000, 131072, 300000, 2048 };
  static const HrRuntimeBackend backends[] = { HR_RUNTIME_BACKEND_CUDA, HR_RUNTIME_BACKEND_CPU };
  static const HrFlashAttention flash[] = { HR_FLASH_ATTENTION_AUTO, HR_FLASH_ATTENTION_ON, HR_FLASH_ATTENTION_OFF };
  static const HrKvCacheType kv_types[] = { HR_KV_CACHE_F16, HR_KV_CACHE_Q8_0, HR_KV_CACHE_Q4_0 };
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "catalog.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) catalog = hr_catalog_load_file (path, &error);
  g_autofree HrRuntimePrediction *p = g_new0 (HrRuntimePrediction, 1);
  guint stepped = 0, clamped = 0, recurrent = 0, refused = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (catalog->len, >, 50);
  for (guint m = 0; m < catalog->len; m++)
    {
      const HrModelSpec *spec = g_ptr_array_index (catalog, m);
      HrRuntimeSpecCache *cache = hr_runtime_spec_cache_new ();

      for (guint b = 0; b < G_N_ELEMENTS (backends); b++)
        for (guint f = 0; f < G_N_ELEMENTS (flash); f++)
          for (guint k = 0; k < G_N_ELEMENTS (kv_types); k++)
            for (guint variant = 0; variant < 3; variant++)
              {
                HrRuntimeInputs in;
                HrRuntimeContextStep none;

                hr_runtime_inputs_init (&in, spec, contexts[0]);
                in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
                in.backend = backends[b];
                in.flash_attention = flash[f];
                in.kv_type = kv_types[k];
                in.parallel_slots = variant == 1 ? 3 : 1;
                in.ubatch = variant == 2 ? 128 : 0;
                in.skip_text = TRUE;
                in.cache = cache;
                /* The whole prediction, which the cache records (or a
                 * refusal: a quantized V cache without flash attention). */
                if (!hr_runtime_predict (&in, p, NULL))
                  {
                    refused++;
                    g_assert_false (hr_runtime_predict_context_step (&in, &none));
                    continue;
                  }
                for (guint c = 1; c < G_N_ELEMENTS (contexts); c++)
                  {
                    in.context_tokens = contexts[c];
                    g_assert_true (assert_step_is_whole (&in, p));
                    stepped++;
                    clamped += p->context_clamped;
                    recurrent += hr_model_spec_recurrent_layers (spec) > 0;
                  }
              }
      hr_runtime_spec_cache_free (cache);
    }
  /* Every model stepped on both backends, some past their limit, the
   * recurrent and hybrid ones too; the refusals are Ollama 0.30's. */
  g_assert_cmpuint (stepped, >, 10000);
  g_assert_cmpuint (clamped, >, 100);
  g_assert_cmpuint (recurrent, >, 100);
  g_assert_cmpuint (refused, >, 0);
}

/* What a step cannot make from the record is not made: another era, a
 * draft, another spec through the cache, or no prediction yet; the caller
 * then predicts whole (and the cache records again). */
static void
test_context_step_refused (void)
{
  g_autoptr(HrModelSpec) plain = llama32_3b ();
  g_autoptr(HrModelSpec) odd = odd_heads ();
  HrRuntimeSpecCache *cache = hr_runtime_spec_cache_new ();
  g_autofree HrRuntimePrediction *p = g_new0 (HrRuntimePrediction, 1);
  static const HrRuntimeEra eras[] = { HR_RUNTIME_ERA_OLLAMA_0_12, HR_RUNTIME_ERA_LLAMA_SERVER, HR_RUNTIME_ERA_SEED };
  HrRuntimeContextStep step;
  HrRuntimeInputs in;

  hr_runtime_inputs_init (&in, plain, 4096);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.skip_text = TRUE;
  in.cache = cache;
  /* nothing recorded yet */
  g_assert_false (hr_runtime_predict_context_step (&in, &step));
  g_assert_true (hr_runtime_predict (&in, p, NULL));
  in.context_tokens = 8192;
  g_assert_true (assert_step_is_whole (&in, p));
  g_assert_cmpuint (p->context_tokens, ==, 8192);
  /* 28 layers x 8 KV heads x (128 + 128) x 2 bytes x 8,192 cells */
  g_assert_cmpint (hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_KV_CACHE), ==, G_GINT64_CONSTANT (939524096));

  /* without a cache, or with texts, there is no step */
  in.cache = NULL;
  g_assert_false (hr_runtime_predict_context_step (&in, &step));
  in.cache = cache;
  in.skip_text = FALSE;
  g_assert_false (hr_runtime_predict_context_step (&in, &step));
  in.skip_text = TRUE;

  /* another spec through the cache */
  in.spec = odd;
  g_assert_false (hr_runtime_predict_context_step (&in, &step));
  in.spec = plain;

  /* the old estimator, llama-server, the seed's method: recorded by none */
  for (guint e = 0; e < G_N_ELEMENTS (eras); e++)
    {
      in.era = eras[e];
      g_assert_true (hr_runtime_predict (&in, p, NULL));
      g_assert_false (hr_runtime_predict_context_step (&in, &step));
    }
  /* nor llama-server with a draft model */
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.draft_spec = odd;
  g_assert_true (hr_runtime_predict (&in, p, NULL));
  g_assert_false (hr_runtime_predict_context_step (&in, &step));
  in.draft_spec = NULL;

  /* a failed prediction clears the record: a quantized V cache without
   * flash attention, which Ollama 0.30+ refuses */
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  g_assert_true (hr_runtime_predict (&in, p, NULL));
  g_assert_true (hr_runtime_predict_context_step (&in, &step));
  in.kv_type = HR_KV_CACHE_Q8_0;
  in.flash_attention = HR_FLASH_ATTENTION_OFF;
  g_assert_false (hr_runtime_predict (&in, p, NULL));
  g_assert_false (hr_runtime_predict_context_step (&in, &step));
  hr_runtime_spec_cache_free (cache);
}

/* A step whose figures pass 64 bits makes nothing: the caller's whole
 * prediction then fails with the overflow's message, the record is gone,
 * and the cache serves the next sound context as before. */
static void
test_context_step_overflow (void)
{
  g_autoptr(HrModelSpec) spec = hr_model_spec_new ("huge");
  HrRuntimeSpecCache *cache = hr_runtime_spec_cache_new ();
  g_autofree HrRuntimePrediction *p = g_new0 (HrRuntimePrediction, 1);
  g_autoptr(GError) error = NULL;
  HrRuntimeContextStep step;
  HrRuntimeInputs in;

  spec->layers = 4000;
  spec->kv_heads = 60000;
  spec->heads = 60000;
  spec->key_length = 60000;
  spec->value_length = 60000;
  spec->parameters = 1;
  spec->precision = g_strdup ("f16");
  hr_runtime_inputs_init (&in, spec, 4096);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.skip_text = TRUE;
  in.cache = cache;
  g_assert_true (hr_runtime_predict (&in, p, NULL));
  /* 4,000 layers x 60,000 KV heads x (60,000 + 60,000) x 2 bytes x 4,096 cells */
  g_assert_cmpint (hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_KV_CACHE), ==,
                   G_GINT64_CONSTANT (235929600000000000));

  in.context_tokens = G_MAXUINT32;
  g_assert_false (hr_runtime_predict_context_step (&in, &step));
  g_assert_false (hr_runtime_predict (&in, p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW);
  g_assert_cmpstr (error->message, ==, "the prediction for huge does not fit 64 bits: check its figures");
  g_assert_false (hr_runtime_predict_context_step (&in, &step));

  in.context_tokens = 8192;
  g_assert_true (hr_runtime_predict (&in, p, NULL));
  in.context_tokens = 2048;
  g_assert_true (assert_step_is_whole (&in, p));
  g_assert_cmpint (hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_KV_CACHE), ==,
                   G_GINT64_CONSTANT (117964800000000000));
  hr_runtime_spec_cache_free (cache);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runtime/kv-fallback-before-0.30", test_kv_fallback_before_0_30);
  g_test_add_func ("/runtime/seed-method", test_seed_method);
  g_test_add_func ("/runtime/exact-view", test_exact_view);
  g_test_add_func ("/runtime/spec-cache/changes-nothing", test_spec_cache);
  g_test_add_func ("/runtime/spec-cache/exact-view", test_spec_cache_exact_view);
  g_test_add_func ("/runtime/evaluation-cache", test_evaluation_cache);
  g_test_add_func ("/runtime/context-step/whole", test_context_step);
  g_test_add_func ("/runtime/context-step/refused", test_context_step_refused);
  g_test_add_func ("/runtime/context-step/overflow", test_context_step_overflow);
  return g_test_run ();
}
