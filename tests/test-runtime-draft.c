/* test-runtime-draft.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * llama-server's draft model (-md) sized beside its target
 * (app/core/runtime/hr-runtime-draft.c): the draft's context follows the
 * target's n_ctx, slots, batch and flash attention with an f16 cache
 * (common/speculative.cpp common_base_params_to_speculative), every layer
 * offloaded (-ngld auto), its terms in the total; refused outside the
 * llama-server era; the vocabulary-size check of
 * common_speculative_are_compatible. KV values computed by hand;
 * tests/llama checks the same against the real server.
 */
#include "config.h"

#include <string.h>

#include "hr-error.h"
#include "hr-runtime.h"

/* The file, token_embd loaded again on the GPU as the tied output (hr-runtime-0-30.c). */
#define DRAFT_WEIGHTS G_GINT64_CONSTANT (807694464)
/* The CUDA compute model (hr-runtime-compute.c) for the draft alone at 8,192
 * tokens, 1 slot, ubatch 512, flash attention on: the same figure as its
 * own prediction, asserted below. */
#define DRAFT_COMPUTE G_GINT64_CONSTANT (79691776)

/* A llama-architecture shape from the catalog's figures (no tensor list). */
static HrModelSpec *
llama_spec (const char *name,
            guint64     parameters,
            guint64     file_bytes,
            guint32     layers,
            guint32     heads,
            guint32     kv_heads,
            guint32     head_dim,
            guint32     embd,
            guint32     ff,
            guint32     vocab)
{
  HrModelSpec *spec = hr_model_spec_new (name);

  spec->architecture = g_strdup ("llama");
  spec->precision = g_strdup ("q4_K_M");
  spec->parameters = parameters;
  spec->file_bytes = file_bytes;
  spec->layers = layers;
  spec->heads = heads;
  spec->kv_heads = kv_heads;
  spec->key_length = spec->value_length = head_dim;
  spec->embedding_length = embd;
  spec->feed_forward_length = ff;
  spec->vocab_size = vocab;
  spec->context_length = 131072;
  spec->tied_embeddings = TRUE;
  return spec;
}

static HrModelSpec *
target_3b (void)
{
  return llama_spec ("llama3.2:3b", G_GUINT64_CONSTANT (3212749888), G_GUINT64_CONSTANT (2019377376),
                     28, 24, 8, 128, 3072, 8192, 128256);
}

static HrModelSpec *
draft_1b (guint32 vocab)
{
  return llama_spec ("llama3.2:1b", G_GUINT64_CONSTANT (1235814432), G_GUINT64_CONSTANT (807694464),
                     16, 32, 8, 64, 2048, 8192, vocab);
}

static void
server_inputs (HrRuntimeInputs   *in,
               const HrModelSpec *spec,
               guint32            n_ctx,
               guint32            slots)
{
  hr_runtime_inputs_init (in, spec, n_ctx);
  in->era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in->parallel_slots = slots;
  in->batch = 0;
  in->ubatch = 0;
}

static gboolean
has_note_prefix (const HrRuntimePrediction *p,
                 const char                *prefix)
{
  for (guint i = 0; i < p->n_notes; i++)
    if (g_str_has_prefix (p->notes[i], prefix))
      return TRUE;
  return FALSE;
}

/* The draft's terms are its own prediction at the target's context, with
 * an f16 cache whatever the target's, and they add to the total. */
static void
test_terms (void)
{
  g_autoptr(HrModelSpec) target = target_3b ();
  g_autoptr(HrModelSpec) draft = draft_1b (128256);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in, alone_in, din;
  HrRuntimePrediction with, alone, d;
  guint64 draft_sum;

  server_inputs (&in, target, 8192, 1);
  in.kv_type = HR_KV_CACHE_Q8_0;
  in.flash_attention = HR_FLASH_ATTENTION_ON;
  alone_in = in;
  in.draft_spec = draft;
  g_assert_true (hr_runtime_predict (&in, &with, &error));
  g_assert_no_error (error);
  g_assert_true (hr_runtime_predict (&alone_in, &alone, &error));
  g_assert_no_error (error);

  /* 16 layers x 8 KV heads x (64 + 64) x 8,192 cells x 2 bytes (f16, not
   * the target's q8_0). */
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&with, HR_RUNTIME_TERM_DRAFT_KV), ==, 268435456);
  /* The target's own terms do not move. */
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&with, HR_RUNTIME_TERM_KV_CACHE), ==,
                   hr_runtime_prediction_term_bytes (&alone, HR_RUNTIME_TERM_KV_CACHE));
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&alone, HR_RUNTIME_TERM_KV_CACHE), ==,
                   28 * 8 * 256 / 32 * 34 * G_GINT64_CONSTANT (8192) / 1);

  /* The draft's inputs: its spec, the target's n_ctx and slots, f16, the
   * target's flash attention. */
  hr_runtime_draft_inputs (&in, &with, &din);
  g_assert_true (din.spec == draft);
  g_assert_null (din.draft_spec);
  g_assert_cmpuint (din.context_tokens, ==, 8192);
  g_assert_cmpuint (din.parallel_slots, ==, 1);
  g_assert_cmpint (din.kv_type, ==, HR_KV_CACHE_F16);
  g_assert_cmpint (din.flash_attention, ==, HR_FLASH_ATTENTION_ON);
  g_assert_true (hr_runtime_predict (&din, &d, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&with, HR_RUNTIME_TERM_DRAFT_WEIGHTS), ==,
                   hr_runtime_prediction_term_bytes (&d, HR_RUNTIME_TERM_WEIGHTS));
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&with, HR_RUNTIME_TERM_DRAFT_COMPUTE), ==,
                   hr_runtime_prediction_term_bytes (&d, HR_RUNTIME_TERM_COMPUTE));
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&with, HR_RUNTIME_TERM_DRAFT_WEIGHTS), ==, DRAFT_WEIGHTS);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&with, HR_RUNTIME_TERM_DRAFT_COMPUTE), ==, DRAFT_COMPUTE);
  /* No output buffer term on a GPU. */
  g_assert_null (hr_runtime_prediction_get_term (&with, HR_RUNTIME_TERM_DRAFT_OUTPUT));

  draft_sum = (guint64) hr_runtime_prediction_term_bytes (&with, HR_RUNTIME_TERM_DRAFT_WEIGHTS) +
              (guint64) hr_runtime_prediction_term_bytes (&with, HR_RUNTIME_TERM_DRAFT_KV) +
              (guint64) hr_runtime_prediction_term_bytes (&with, HR_RUNTIME_TERM_DRAFT_COMPUTE);
  g_assert_cmpuint (with.total_bytes, ==, alone.total_bytes + draft_sum);
  g_assert_cmpuint (with.host_bytes, ==, alone.host_bytes + d.host_bytes);
  g_assert_cmpstr (hr_runtime_prediction_get_term (&with, HR_RUNTIME_TERM_DRAFT_KV)->id, ==, "draft_kv_cache");
  g_assert_cmpstr (hr_runtime_prediction_get_term (&with, HR_RUNTIME_TERM_DRAFT_KV)->formula, ==,
                   "the draft's own cache at the target's n_ctx 8,192 and 1 slot, f16 (-ctkd/-ctvd) = 268,435,456 bytes");
  g_assert_false (has_note_prefix (&with, "The draft's vocabulary"));
}

/* -np auto: the draft shares the target's 4 unified slots; -c unset: the
 * target's resolved n_ctx, and a note that fit counts the draft. On the
 * CPU backend the draft's logits count: slots x vocab x 4. */
static void
test_auto_slots_cpu (void)
{
  g_autoptr(HrModelSpec) target = target_3b ();
  g_autoptr(HrModelSpec) draft = draft_1b (128256);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in, din;
  HrRuntimePrediction p;

  server_inputs (&in, target, 16384, 0);
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.draft_spec = draft;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.parallel_slots, ==, 4);
  g_assert_true (p.kv_unified);
  hr_runtime_draft_inputs (&in, &p, &din);
  g_assert_cmpuint (din.parallel_slots, ==, 0);
  /* One unified stream of 16,384 cells. */
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_KV), ==,
                   G_GINT64_CONSTANT (16) * 8 * 128 * 16384 * 2);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_OUTPUT), ==,
                   G_GINT64_CONSTANT (4) * 128256 * 4);
  g_assert_false (has_note_prefix (&p, "With -c unset"));

  server_inputs (&in, target, 0, 1);
  in.draft_spec = draft;
  in.free_bytes = G_GUINT64_CONSTANT (1) << 40;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  hr_runtime_draft_inputs (&in, &p, &din);
  g_assert_cmpuint (din.context_tokens, ==, p.context_tokens);
  g_assert_cmpuint (p.context_tokens, ==, 131072);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_KV), ==,
                   G_GINT64_CONSTANT (16) * 8 * 128 * 131072 * 2);
  g_assert_true (has_note_prefix (&p, "With -c unset, llama-server's fit counts the draft"));
}

/* Ollama passes a DRAFT as --spec-type draft-mtp: no model of its own. */
static void
test_refused_outside_llama_server (void)
{
  g_autoptr(HrModelSpec) target = target_3b ();
  g_autoptr(HrModelSpec) draft = draft_1b (128256);
  const HrRuntimeEra eras[] = { HR_RUNTIME_ERA_OLLAMA_0_30, HR_RUNTIME_ERA_OLLAMA_0_12, HR_RUNTIME_ERA_SEED };

  for (guint i = 0; i < G_N_ELEMENTS (eras); i++)
    {
      g_autoptr(GError) error = NULL;
      HrRuntimeInputs in;
      HrRuntimePrediction p;

      hr_runtime_inputs_init (&in, target, 4096);
      in.era = eras[i];
      in.draft_spec = draft;
      g_assert_false (hr_runtime_predict (&in, &p, &error));
      g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED);
      g_assert_cmpstr (error->message, ==,
                       "a draft model is sized for llama-server (--runtime llama-server): Ollama passes a model's DRAFT as --spec-type draft-mtp (llm/llama_server.go appendDraftArgs), which loads only MTP or DFlash heads");
      g_assert_cmpuint (p.total_bytes, ==, 0);
    }
}

/* SPEC_VOCAB_MAX_SIZE_DIFFERENCE = 128: llama-server still loads a draft
 * past it and decodes without speculation. */
static void
test_vocab (void)
{
  g_autoptr(HrModelSpec) target = target_3b ();
  g_autoptr(HrModelSpec) near = draft_1b (128256 - 128);
  g_autoptr(HrModelSpec) far = draft_1b (128256 - 129);
  g_autoptr(HrModelSpec) unknown = draft_1b (0);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  g_assert_true (hr_runtime_draft_vocab_compatible (target, near));
  g_assert_false (hr_runtime_draft_vocab_compatible (target, far));
  g_assert_false (hr_runtime_draft_vocab_compatible (far, target));
  g_assert_true (hr_runtime_draft_vocab_compatible (target, unknown));

  server_inputs (&in, target, 4096, 1);
  in.draft_spec = far;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_true (has_note_prefix (&p, "The draft's vocabulary (128,127 tokens) differs from the model's (128,256) by more than 128: llama-server loads it"));
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_KV), ==,
                   G_GINT64_CONSTANT (16) * 8 * 128 * 4096 * 2);
}

/* A draft the runtime cannot size names itself. */
static void
test_bad_draft (void)
{
  g_autoptr(HrModelSpec) target = target_3b ();
  g_autoptr(HrModelSpec) draft = draft_1b (128256);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  draft->kv_heads = 0;
  server_inputs (&in, target, 4096, 1);
  in.draft_spec = draft;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "the draft model llama3.2:1b: llama3.2:1b has no layers, KV heads or head dims: the runtime model needs them");
}

/* --spec-type draft-mtp: the MTP context's cache holds the last
 * mtp_layers layers alone, f16, at the target's cells; its compute is the
 * target's buffer (an estimate); no weights of its own. */
static void
test_mtp (void)
{
  g_autoptr(HrModelSpec) target = target_3b ();
  g_autoptr(HrModelSpec) draft = draft_1b (128256);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  server_inputs (&in, target, 8192, 2);
  in.kv_type = HR_KV_CACHE_Q8_0;
  in.flash_attention = HR_FLASH_ATTENTION_ON;
  in.mtp_layers = 2;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  /* 2 layers x 8 KV heads x (128 + 128) x 8,192 cells x 2 bytes */
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_KV), ==, 2 * 8 * 256 * 8192 * 2);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_COMPUTE), ==,
                   hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_COMPUTE));
  g_assert_null (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_DRAFT_WEIGHTS));
  g_assert_null (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_DRAFT_OUTPUT));
  g_assert_cmpstr (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_DRAFT_KV)->label, ==, "MTP: KV cache");
  g_assert_cmpstr (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_DRAFT_KV)->formula, ==,
                   "2 MTP layers: 4,096 KV values x 8,192 cells x 2 bytes (f16, -ctkd/-ctvd) = 67,108,864 bytes");

  in.backend = HR_RUNTIME_BACKEND_CPU;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_OUTPUT), ==, 2 * 128256 * 4);

  in.draft_spec = draft;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "a draft model and the model's own MTP heads: size one of them");
  g_clear_error (&error);

  in.draft_spec = NULL;
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.context_tokens = 4096;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, "MTP heads are sized for llama-server's --spec-type draft-mtp (--runtime llama-server)");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runtime-draft/terms", test_terms);
  g_test_add_func ("/runtime-draft/auto-slots-cpu", test_auto_slots_cpu);
  g_test_add_func ("/runtime-draft/refused-outside-llama-server", test_refused_outside_llama_server);
  g_test_add_func ("/runtime-draft/vocab", test_vocab);
  g_test_add_func ("/runtime-draft/bad-draft", test_bad_draft);
  g_test_add_func ("/runtime-draft/mtp", test_mtp);
  return g_test_run ();
}
