/* test-recurrent.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The recurrent and hybrid architectures' GGUF keys mapped as llama.cpp
 * (de3ff815) loads them (app/core/gguf/hr-gguf-recurrent.c): which layers keep
 * a recurrent state (hparams.is_recr), which keep an attention KV cache
 * (create_memory's filter_attn), n_embd_r () and n_embd_s ()
 * (src/llama-hparams.cpp), the refusals and the missing keys; and what
 * the runtime makes of a purely recurrent model.
 */
#include "config.h"

#include <string.h>

#include "hr-error.h"
#include "hr-gguf.h"
#include "hr-gguf-keys.h"
#include "hr-gguf-recurrent.h"
#include "hr-runtime.h"
#include "llama/llama-models.h"

/* The header of @m (no tensors), parsed and mapped. */
static HrModelSpec *
spec_of (LmModel  *m,
         GError  **error)
{
  g_autoptr(GByteArray) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;

  gw_header (w, 3, 0, m->n_kv);
  gw_bytes (w, m->kv->data, m->kv->len);
  file = hr_gguf_file_parse_data (w->data, w->len, error);
  g_assert_no_error (error != NULL ? *error : NULL);
  return hr_gguf_file_to_model_spec (file, "m", NULL, error);
}

static void
assert_layers (const HrModelSpec *spec,
               const char        *recurrent,
               const guint32     *kv)
{
  g_assert_cmpuint (spec->layers, ==, strlen (recurrent));
  for (guint i = 0; i < spec->layers; i++)
    {
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (spec, i), ==, recurrent[i] == 'R');
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, i), ==, kv[i]);
    }
}

static void
ssm_keys (LmModel    *m,
          const char *arch,
          guint32     conv,
          guint32     inner,
          guint32     state,
          guint32     rank,
          guint32     groups)
{
  lm_u32 (m, arch, "ssm.conv_kernel", conv);
  lm_u32 (m, arch, "ssm.inner_size", inner);
  lm_u32 (m, arch, "ssm.state_size", state);
  lm_u32 (m, arch, "ssm.time_step_rank", rank);
  if (groups > 0)
    lm_u32 (m, arch, "ssm.group_count", groups);
}

/* Qwen3.5-4B's keys: every fourth layer attention (full_attention_interval
 * 4), the gated delta net's state (3 x (4096 + 2 x 16 x 128), 128 x 4096);
 * a fifth layer past nextn_predict_layers (MTP) has neither. */
static void
test_qwen35 (void)
{
  g_autoptr(LmModel) m = lm_model_new ("q", "q", "qwen35");
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 kv[] = { 0, 0, 0, 4, 0 };

  lm_u32 (m, "qwen35", "block_count", 5);
  lm_u32 (m, "qwen35", "nextn_predict_layers", 1);
  lm_u32 (m, "qwen35", "embedding_length", 2560);
  lm_u32 (m, "qwen35", "attention.head_count", 16);
  lm_u32 (m, "qwen35", "attention.head_count_kv", 4);
  lm_u32 (m, "qwen35", "attention.key_length", 256);
  lm_u32 (m, "qwen35", "full_attention_interval", 4);
  ssm_keys (m, "qwen35", 4, 4096, 128, 32, 16);
  spec = spec_of (m, &error);
  g_assert_no_error (error);
  assert_layers (spec, "RRR..", kv);
  g_assert_cmpuint (spec->kv_heads, ==, 4);
  g_assert_cmpuint (spec->recurrent_r, ==, 24576);
  g_assert_cmpuint (spec->recurrent_s, ==, 524288);
  g_assert_cmpstr (spec->recurrent_source, ==,
                   "qwen35 (llama.cpp src/models/qwen35.cpp, src/llama-model.cpp create_memory): layers with "
                   "(i + 1) % 4 != 0 keep a state (qwen35.full_attention_interval, llama.cpp's default when absent): "
                   "3 of 5 layers; 1 with an attention KV cache; n_embd_r = (ssm.conv_kernel - 1) x (ssm.inner_size "
                   "+ 2 x ssm.group_count x ssm.state_size) = 3 x (4096 + 2 x 16 x 128); n_embd_s = ssm.state_size x "
                   "ssm.inner_size = 128 x 4096 = 24576 and 524288 values (llama.cpp src/llama-hparams.cpp)");
}

/* qwen3next with the per-layer attention.recurrent_layers array instead. */
static void
test_recurrent_layers_array (void)
{
  g_autoptr(LmModel) m = lm_model_new ("q", "q", "qwen3next");
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 recr[] = { 1, 0, 1, 0 };
  const guint32 kv[] = { 0, 2, 0, 2 };

  lm_u32 (m, "qwen3next", "block_count", 4);
  lm_u32 (m, "qwen3next", "embedding_length", 2048);
  lm_u32 (m, "qwen3next", "attention.head_count", 16);
  lm_u32 (m, "qwen3next", "attention.head_count_kv", 2);
  gw_kv_u32_array (m->kv, "qwen3next.attention.recurrent_layers", recr, 4);
  m->n_kv++;
  ssm_keys (m, "qwen3next", 4, 4096, 128, 32, 16);
  spec = spec_of (m, &error);
  g_assert_no_error (error);
  assert_layers (spec, "R.R.", kv);
}

/* nemotron_h: Mamba-2 where head_count_kv and feed_forward_length are both
 * 0, attention where only feed_forward_length is, the MLP layers neither. */
static void
test_nemotron_h (void)
{
  g_autoptr(LmModel) m = lm_model_new ("n", "n", "nemotron_h");
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 kv_in[] = { 0, 8, 0, 0 }, ff[] = { 0, 0, 15680, 0 };
  const guint32 kv[] = { 0, 8, 0, 0 };

  lm_u32 (m, "nemotron_h", "block_count", 4);
  lm_u32 (m, "nemotron_h", "embedding_length", 4480);
  lm_u32 (m, "nemotron_h", "attention.head_count", 40);
  gw_kv_u32_array (m->kv, "nemotron_h.attention.head_count_kv", kv_in, 4);
  gw_kv_u32_array (m->kv, "nemotron_h.feed_forward_length", ff, 4);
  m->n_kv += 2;
  ssm_keys (m, "nemotron_h", 4, 10240, 128, 128, 8);
  spec = spec_of (m, &error);
  g_assert_no_error (error);
  assert_layers (spec, "R..R", kv);
  g_assert_cmpuint (spec->recurrent_r, ==, 36864);
  g_assert_cmpuint (spec->recurrent_s, ==, 1310720);
}

/* falcon-h1: every layer has both (filter_attn and filter_recr true). */
static void
test_falcon_h1 (void)
{
  g_autoptr(LmModel) m = lm_model_new ("f", "f", "falcon-h1");
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 kv[] = { 2, 2, 2 };

  lm_u32 (m, "falcon-h1", "block_count", 3);
  lm_u32 (m, "falcon-h1", "embedding_length", 1024);
  lm_u32 (m, "falcon-h1", "attention.head_count", 8);
  lm_u32 (m, "falcon-h1", "attention.head_count_kv", 2);
  ssm_keys (m, "falcon-h1", 4, 1536, 256, 24, 1);
  spec = spec_of (m, &error);
  g_assert_no_error (error);
  assert_layers (spec, "RRR", kv);
  g_assert_cmpuint (spec->recurrent_r, ==, 3 * (1536 + 2 * 256));
  g_assert_cmpuint (spec->recurrent_s, ==, 256 * 1536);
}

/* The head_count_kv == 0 rule (granitehybrid; jamba reads no group count,
 * so its conv row is (d_conv - 1) x d_inner). */
static void
test_kv_zero_rule (void)
{
  static const struct {
    const char *arch;
    guint32     groups;
    guint32     r;
  } cases[] = {
    { "granitehybrid", 1, 3 * (4096 + 2 * 128) },
    { "jamba", 0, 3 * 4096 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(LmModel) m = lm_model_new ("g", "g", cases[c].arch);
      g_autoptr(HrModelSpec) spec = NULL;
      g_autoptr(GError) error = NULL;
      const guint32 kv[] = { 0, 0, 4, 0 };
      g_autofree char *kv_key = g_strdup_printf ("%s.attention.head_count_kv", cases[c].arch);

      lm_u32 (m, cases[c].arch, "block_count", 4);
      lm_u32 (m, cases[c].arch, "embedding_length", 2048);
      lm_u32 (m, cases[c].arch, "attention.head_count", 16);
      gw_kv_u32_array (m->kv, kv_key, kv, 4);
      m->n_kv++;
      ssm_keys (m, cases[c].arch, 4, 4096, 128, 64, cases[c].groups);
      spec = spec_of (m, &error);
      g_assert_no_error (error);
      assert_layers (spec, "RR.R", kv);
      g_assert_cmpuint (spec->recurrent_r, ==, cases[c].r);
      g_assert_cmpuint (spec->recurrent_s, ==, 128 * 4096);
    }
}

/* n_embd_r / n_embd_s for the other state kinds. */
/* rwkv6: token_shift_count (default 2) x n_embd, n_embd x wkv.head_size. */
static void
test_state_kinds_rwkv6 (void)
{
  g_autoptr(LmModel) m = lm_model_new ("r", "r", "rwkv6");
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 kv[] = { 0, 0 };

  lm_u32 (m, "rwkv6", "block_count", 2);
  lm_u32 (m, "rwkv6", "embedding_length", 2048);
  lm_u32 (m, "rwkv6", "wkv.head_size", 64);
  spec = spec_of (m, &error);
  g_assert_no_error (error);
  assert_layers (spec, "RR", kv);
  g_assert_cmpuint (spec->recurrent_r, ==, 4096);
  g_assert_cmpuint (spec->recurrent_s, ==, 131072);
  g_assert_true (hr_model_spec_recurrent_only (spec));
}

/* kimi-linear: 3 x (d_conv - 1) x heads x kda.head_dim, kda.head_dim^2 x heads. */
static void
test_state_kinds_kimi_linear (void)
{
  g_autoptr(LmModel) m = lm_model_new ("k", "k", "kimi-linear");
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 kv_in[] = { 0, 0, 0, 32 }, kv[] = { 0, 0, 0, 32 };

  lm_u32 (m, "kimi-linear", "block_count", 4);
  lm_u32 (m, "kimi-linear", "embedding_length", 2304);
  lm_u32 (m, "kimi-linear", "attention.head_count", 32);
  gw_kv_u32_array (m->kv, "kimi-linear.attention.head_count_kv", kv_in, 4);
  m->n_kv++;
  lm_u32 (m, "kimi-linear", "ssm.conv_kernel", 4);
  lm_u32 (m, "kimi-linear", "kda.head_dim", 128);
  spec = spec_of (m, &error);
  g_assert_no_error (error);
  assert_layers (spec, "RRR.", kv);
  g_assert_cmpuint (spec->recurrent_r, ==, 36864);
  g_assert_cmpuint (spec->recurrent_s, ==, 524288);
}

/* minimax-01: every eighth layer attention by default; key_length^2 x heads. */
static void
test_state_kinds_minimax01 (void)
{
  g_autoptr(LmModel) m = lm_model_new ("x", "x", "minimax-01");
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 kv[] = { 0, 0, 0, 0, 0, 0, 0, 8 };

  lm_u32 (m, "minimax-01", "block_count", 8);
  lm_u32 (m, "minimax-01", "embedding_length", 6144);
  lm_u32 (m, "minimax-01", "attention.head_count", 64);
  lm_u32 (m, "minimax-01", "attention.head_count_kv", 8);
  lm_u32 (m, "minimax-01", "attention.key_length", 128);
  spec = spec_of (m, &error);
  g_assert_no_error (error);
  assert_layers (spec, "RRRRRRR.", kv);
  g_assert_cmpuint (spec->recurrent_r, ==, 0);
  g_assert_cmpuint (spec->recurrent_s, ==, 1048576);
}

/* lfm2: n_embd x (shortconv.l_cache - 1), no s. */
static void
test_state_kinds_lfm2 (void)
{
  g_autoptr(LmModel) m = lm_model_new ("l", "l", "lfm2");
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 kv[] = { 0, 8 };

  lm_u32 (m, "lfm2", "block_count", 2);
  lm_u32 (m, "lfm2", "embedding_length", 2048);
  lm_u32 (m, "lfm2", "attention.head_count", 32);
  gw_kv_u32_array (m->kv, "lfm2.attention.head_count_kv", kv, 2);
  m->n_kv++;
  lm_u32 (m, "lfm2", "shortconv.l_cache", 3);
  spec = spec_of (m, &error);
  g_assert_no_error (error);
  assert_layers (spec, "R.", kv);
  g_assert_cmpuint (spec->recurrent_r, ==, 4096);
  g_assert_cmpuint (spec->recurrent_s, ==, 0);
}

/* The refusals and the malformed keys, with their exact messages. */
/* An architecture llama.cpp gives a cache Headroom does not size. */
static void
test_errors_qwen4exp_unsupported (void)
{
  g_autoptr(LmModel) m = lm_model_new ("q", "q", "qwen4exp");
  g_autoptr(GError) error = NULL;

  lm_u32 (m, "qwen4exp", "block_count", 4);
  g_assert_null (spec_of (m, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==,
                   "Headroom does not size qwen4exp: llama.cpp gives it a llama_memory_hybrid_idx "
                   "(src/llama-model.cpp create_memory: a per-token QSA indexer key cache beside the attention "
                   "and recurrent caches) and hyper-connection and PLE rows in the recurrent state "
                   "(src/llama-memory-recurrent.cpp cache_ple_r_l)");
}

/* qwen35 without ssm.group_count, which llama.cpp needs. */
static void
test_errors_qwen35_no_group_count (void)
{
  g_autoptr(LmModel) m = lm_model_new ("q", "q", "qwen35");
  g_autoptr(GError) error = NULL;

  lm_u32 (m, "qwen35", "block_count", 4);
  lm_u32 (m, "qwen35", "attention.head_count", 16);
  ssm_keys (m, "qwen35", 4, 4096, 128, 32, 0);
  g_assert_null (spec_of (m, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==,
                   "qwen35.ssm.group_count is missing; llama.cpp needs it to load qwen35 (src/models/qwen35.cpp)");
}

/* qwen35 with a full-attention interval of 0. */
static void
test_errors_qwen35_interval_zero (void)
{
  g_autoptr(LmModel) m = lm_model_new ("q", "q", "qwen35");
  g_autoptr(GError) error = NULL;

  lm_u32 (m, "qwen35", "block_count", 4);
  lm_u32 (m, "qwen35", "attention.head_count", 16);
  lm_u32 (m, "qwen35", "full_attention_interval", 0);
  ssm_keys (m, "qwen35", 4, 4096, 128, 32, 16);
  g_assert_null (spec_of (m, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==,
                   "qwen35.full_attention_interval is 0; every interval-th layer is an attention layer, "
                   "so it must be at least 1");
}

/* nemotron_h with a per-layer feed_forward_length of the wrong length. */
static void
test_errors_nemotron_h_feed_forward (void)
{
  g_autoptr(LmModel) m = lm_model_new ("n", "n", "nemotron_h");
  g_autoptr(GError) error = NULL;
  const guint32 ff[] = { 0, 0, 0 };

  lm_u32 (m, "nemotron_h", "block_count", 4);
  lm_u32 (m, "nemotron_h", "attention.head_count", 8);
  gw_kv_u32_array (m->kv, "nemotron_h.feed_forward_length", ff, 3);
  m->n_kv++;
  ssm_keys (m, "nemotron_h", 4, 4096, 128, 64, 8);
  g_assert_null (spec_of (m, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==,
                   "nemotron_h.feed_forward_length is neither one value nor an array of one whole number "
                   "for each of the 4 layers");
}

static void
test_recurrent_kinds (void)
{
  g_assert_cmpint (hr_gguf_recurrent_kind ("mamba2"), ==, HR_GGUF_RECURRENT_PURE);
  g_assert_cmpint (hr_gguf_recurrent_kind ("qwen35moe"), ==, HR_GGUF_RECURRENT_HYBRID);
  g_assert_cmpint (hr_gguf_recurrent_kind ("qwen3"), ==, HR_GGUF_RECURRENT_NONE);
  g_assert_cmpint (hr_gguf_recurrent_kind (NULL), ==, HR_GGUF_RECURRENT_NONE);
}

/* mamba2: no KV cache term, the recurrent state of every layer and slot:
 * 2 layers x (16,128 + 655,360) values x 2 slots x 4 bytes. */
static void
test_pure_recurrent_runtime (void)
{
  g_autoptr(LmModel) m = lm_model_new ("p", "p", "mamba2");
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  lm_u32 (m, "mamba2", "block_count", 2);
  lm_u32 (m, "mamba2", "embedding_length", 2560);
  lm_u32 (m, "mamba2", "attention.head_count", 0);
  ssm_keys (m, "mamba2", 4, 5120, 128, 80, 1);
  spec = spec_of (m, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spec->kv_heads, ==, 0);
  g_assert_true (hr_model_spec_recurrent_only (spec));
  spec->parameters = 2700000000;
  spec->precision = g_strdup ("q8_0");
  hr_runtime_inputs_init (&in, spec, 4096);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = 2;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE), ==, 0);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_RECURRENT_STATE), ==,
                   2 * (16128 + 655360) * 2 * 4);
  for (guint i = 0; i < p.n_terms; i++)
    g_assert_cmpint (p.terms[i].kind, !=, HR_RUNTIME_TERM_KV_CACHE);
  /* The context checkpoints: a note with 32 copies of a slot's state, not
   * in the total (tools/server/server-context.cpp create_checkpoint). */
  {
    gboolean found = FALSE;

    for (guint i = 0; i < p.n_notes; i++)
      found |= g_str_has_prefix (p.notes[i],
                                 "llama-server also keeps up to 32 context checkpoints per slot in host memory, "
                                 "each a copy of that slot's recurrent state (5,371,904 bytes): up to 171,900,928 "
                                 "bytes per slot, 343,801,856 for all 2 slots,");
    g_assert_true (found);
  }
  /* The note says how r and s were worked out when all of it fits, and
   * leaves out a longer account rather than cut it mid-word. */
  {
    const HrRuntimeTerm *rs = hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_RECURRENT_STATE);

    g_free (spec->recurrent_source);
    spec->recurrent_source = g_strdup ("mamba2: d_conv 4, d_inner 5,120.");
    g_assert_true (hr_runtime_predict (&in, &p, &error));
    g_assert_true (g_str_has_suffix (rs->note, "it does not grow with num_ctx. mamba2: d_conv 4, d_inner 5,120."));
    g_free (spec->recurrent_source);
    spec->recurrent_source = g_strnfill (600, 'x');
    g_assert_true (hr_runtime_predict (&in, &p, &error));
    g_assert_true (g_str_has_suffix (rs->note, "it does not grow with num_ctx."));
  }
}

/* Attention architectures whose cache is not a plain KV cache, and the
 * models llama.cpp keeps no cache for, are refused with the reason; hy_v4
 * only with an indexer (attention.indexer.top_k > 0). */
static void
test_unmodelled_caches (void)
{
  static const struct { const char *arch; const char *starts; } cases[] = {
    { "deepseek32", "Headroom does not size deepseek32: llama.cpp gives it a llama_kv_cache_dsa" },
    { "glm-dsa", "Headroom does not size glm-dsa: llama.cpp gives it a llama_kv_cache_dsa" },
    { "minimax-m3", "Headroom does not size minimax-m3: llama.cpp gives it a llama_kv_cache_msa" },
    { "bert", "Headroom does not size bert: it is an embedding model" },
    { "llada", "Headroom does not size llada: it is a diffusion model" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(LmModel) m = lm_model_new ("x", "x", cases[i].arch);
      g_autoptr(HrModelSpec) spec = NULL;
      g_autoptr(GError) error = NULL;

      lm_hparams (m, cases[i].arch, 2, 4096, 256, 512, 4, 2, 64);
      spec = spec_of (m, &error);
      g_assert_null (spec);
      g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED);
      g_assert_true (g_str_has_prefix (error->message, cases[i].starts));
    }
  for (guint32 top_k = 0; top_k <= 2048; top_k += 2048)
    {
      g_autoptr(LmModel) m = lm_model_new ("h", "h", "hy_v4");
      g_autoptr(HrModelSpec) spec = NULL;
      g_autoptr(GError) error = NULL;

      lm_hparams (m, "hy_v4", 2, 4096, 256, 512, 4, 2, 64);
      lm_u32 (m, "hy_v4", "attention.indexer.top_k", top_k);
      spec = spec_of (m, &error);
      if (top_k == 0)
        {
          g_assert_no_error (error);
          g_assert_cmpuint (spec->layers, ==, 2);
        }
      else
        {
          g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED);
          g_assert_true (g_str_has_prefix (error->message, "Headroom does not size hy_v4: with attention.indexer.top_k set"));
        }
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/recurrent/qwen35", test_qwen35);
  g_test_add_func ("/recurrent/recurrent-layers-array", test_recurrent_layers_array);
  g_test_add_func ("/recurrent/nemotron-h", test_nemotron_h);
  g_test_add_func ("/recurrent/falcon-h1", test_falcon_h1);
  g_test_add_func ("/recurrent/kv-zero-rule", test_kv_zero_rule);
  g_test_add_func ("/recurrent/state-kinds/rwkv6", test_state_kinds_rwkv6);
  g_test_add_func ("/recurrent/state-kinds/kimi-linear", test_state_kinds_kimi_linear);
  g_test_add_func ("/recurrent/state-kinds/minimax-01", test_state_kinds_minimax01);
  g_test_add_func ("/recurrent/state-kinds/lfm2", test_state_kinds_lfm2);
  g_test_add_func ("/recurrent/errors/qwen4exp-unsupported", test_errors_qwen4exp_unsupported);
  g_test_add_func ("/recurrent/errors/qwen35-no-group-count", test_errors_qwen35_no_group_count);
  g_test_add_func ("/recurrent/errors/qwen35-interval-zero", test_errors_qwen35_interval_zero);
  g_test_add_func ("/recurrent/errors/nemotron-h-feed-forward", test_errors_nemotron_h_feed_forward);
  g_test_add_func ("/recurrent/kinds", test_recurrent_kinds);
  g_test_add_func ("/recurrent/pure-recurrent-runtime", test_pure_recurrent_runtime);
  g_test_add_func ("/recurrent/unmodelled-caches", test_unmodelled_caches);
  return g_test_run ();
}
