/* test-hf-config-gguf.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Hugging Face config path and the GGUF path must describe the same
 * model the same way: for each family, a config.json fixture
 * (tests/fixtures/configs/) goes through hr_hf_config_parse() +
 * hr_hf_config_to_model_spec() (what `headroom-cli hub` uses), and the GGUF
 * header llama.cpp's convert_hf_to_gguf.py writes from that config goes
 * through hr_gguf_file_load() + hr_gguf_file_to_model_spec(); the spec
 * fields and hr_runtime_predict()'s KV, recurrent-state, output and compute
 * terms must agree. The weights term is not compared: the config path sizes
 * the safetensors files, the GGUF path its own tensors.
 *
 * Fixtures and where their values come from:
 *  - gemma-3-12b-it-config.json: google/gemma-3-12b-it as the issue quotes
 *    it (text_config without head_dim, vocab_size, sliding_window_pattern);
 *  - gemma-2-2b, gpt-oss-20b, qwen3-8b, deepseek-v3: the existing fixtures;
 *  - command-r7b-12-2024-config.json: CohereForAI/c4ai-command-r7b-12-2024
 *    (sliding_window 4096, sliding_window_pattern 4; other values from
 *    memory of the published file, not re-checked);
 *  - qwen3-next-80b-a3b-config.json: Qwen/Qwen3-Next-80B-A3B-Instruct;
 *  - lfm2-1.2b-config.json: LiquidAI/LFM2-1.2B (attention at layers 2, 5,
 *    8, 10, 12, 14);
 *  - nemotron-nano-9b-v2-config.json: nvidia/NVIDIA-Nemotron-Nano-9B-v2
 *    (its hybrid_override_pattern, 4 attention layers of 56);
 *  - mamba-codestral-7b-config.json: mistralai/Mamba-Codestral-7B-v0.1;
 *  - granite-4.0-h-shaped-config.json: shaped after ibm-granite's Granite
 *    4.0 H models (mamba_* keys); its layer_types are not a published
 *    file's, the recurrent-state arithmetic is what it tests.
 * The GGUF side gives the vocabulary as `{arch}.vocab_size` instead of a
 * tokenizer.ggml.tokens array of that many strings (the mapper reads either).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "gguf-writer.h"
#include "hr-error.h"
#include "hr-gguf.h"
#include "hr-hf-config.h"
#include "hr-runtime.h"

static HrHfConfig *
load_config (const char *name)
{
  const char *src = g_getenv ("HEADROOM_SOURCE_DIR");
  g_autofree char *path = g_build_filename (src ? src : ".", "tests", "fixtures", "configs", name, NULL);
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize size;
  HrHfConfig *config;

  g_assert_true (g_file_get_contents (path, &data, &size, &error));
  config = hr_hf_config_parse (data, size, &error);
  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

static HrModelSpec *
hub_spec (const char *fixture)
{
  g_autoptr(HrHfConfig) config = load_config (fixture);
  g_autoptr(GError) error = NULL;
  HrModelSpec *spec = hr_hf_config_to_model_spec (config, fixture, NULL, &error);

  g_assert_no_error (error);
  return spec;
}

/* The key-value part of a GGUF header, counted as it is written. */
typedef struct {
  GgufWriter *kv;
  guint       n;
  const char *arch;
  GgufWriter *tensors;
  guint       n_tensors;
} Header;

static void
header_init (Header     *h,
             const char *arch)
{
  h->kv = gw_new ();
  h->n = 1;
  h->arch = arch;
  h->tensors = gw_new ();
  h->n_tensors = 0;
  gw_kv_str (h->kv, "general.architecture", arch);
}

static void
put_u32 (Header     *h,
         const char *suffix,
         guint32     v)
{
  g_autofree char *key = g_strconcat (h->arch, ".", suffix, NULL);

  gw_kv_u32 (h->kv, key, v);
  h->n++;
}

static void
put_u32_array (Header        *h,
               const char    *suffix,
               const guint32 *v,
               guint          n)
{
  g_autofree char *key = g_strconcat (h->arch, ".", suffix, NULL);

  gw_kv_u32_array (h->kv, key, v, n);
  h->n++;
}

static void
put_bool_array (Header       *h,
                const char   *suffix,
                const guint8 *v,
                guint         n)
{
  g_autofree char *key = g_strconcat (h->arch, ".", suffix, NULL);

  gw_kv_array (h->kv, key, GW_BOOL, n);
  for (guint i = 0; i < n; i++)
    gw_u8 (h->kv, v[i]);
  h->n++;
}

/* One tensor's info (the data is never read). */
static void
put_tensor (Header        *h,
            const char    *name,
            guint32        n_dims,
            const guint64 *dims)
{
  gw_tensor (h->tensors, name, n_dims, dims, GW_F32, 0);
  h->n_tensors++;
}

/* The common keys of TextModel.set_gguf_parameters (conversion/base.py). */
static void
put_text_model (Header     *h,
                guint32     layers,
                guint32     ctx,
                guint32     embd,
                guint32     ff,
                guint32     heads,
                guint32     kv_heads,
                guint32     vocab)
{
  put_u32 (h, "block_count", layers);
  put_u32 (h, "context_length", ctx);
  put_u32 (h, "embedding_length", embd);
  put_u32 (h, "feed_forward_length", ff);
  put_u32 (h, "attention.head_count", heads);
  if (kv_heads > 0)
    put_u32 (h, "attention.head_count_kv", kv_heads);
  put_u32 (h, "vocab_size", vocab);
}

/* Writes the header to a file and maps it; NULL with @error when the
 * mapper refuses it. */
static HrModelSpec *
gguf_spec (Header  *h,
           GError **error)
{
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(GgufWriter) kv = h->kv;
  g_autoptr(GgufWriter) tensors = h->tensors;
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *path = NULL;
  int fd;

  gw_header (w, 3, h->n_tensors, h->n);
  gw_bytes (w, kv->data, kv->len);
  gw_bytes (w, tensors->data, tensors->len);
  fd = g_file_open_tmp ("hr-hf-gguf-XXXXXX.gguf", &path, &local);
  g_assert_no_error (local);
  close (fd);
  g_assert_true (g_file_set_contents (path, (const char *) w->data, w->len, &local));
  g_assert_no_error (local);
  file = hr_gguf_file_load (path, NULL, &local);
  g_unlink (path);
  g_assert_no_error (local);
  return hr_gguf_file_to_model_spec (file, NULL, NULL, error);
}

/* Every spec field both paths fill, layer by layer. */
static void
assert_same_spec (const HrModelSpec *hub,
                  const HrModelSpec *gguf)
{
  g_assert_cmpstr (hub->architecture, ==, gguf->architecture);
  g_assert_cmpuint (hub->layers, ==, gguf->layers);
  g_assert_cmpuint (hub->heads, ==, gguf->heads);
  g_assert_cmpuint (hub->kv_heads, ==, gguf->kv_heads);
  g_assert_cmpuint (hub->key_length, ==, gguf->key_length);
  g_assert_cmpuint (hub->value_length, ==, gguf->value_length);
  g_assert_cmpuint (hub->embedding_length, ==, gguf->embedding_length);
  g_assert_cmpuint (hub->context_length, ==, gguf->context_length);
  g_assert_cmpuint (hub->sliding_window, ==, gguf->sliding_window);
  g_assert_cmpuint (hub->vocab_size, ==, gguf->vocab_size);
  g_assert_cmpuint (hub->expert_count, ==, gguf->expert_count);
  g_assert_cmpuint (hub->expert_used_count, ==, gguf->expert_used_count);
  g_assert_cmpint (hub->kv_latent, ==, gguf->kv_latent);
  g_assert_cmpuint (hub->recurrent_r, ==, gguf->recurrent_r);
  g_assert_cmpuint (hub->recurrent_s, ==, gguf->recurrent_s);
  for (guint i = 0; i < hub->layers; i++)
    {
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, hr_model_spec_layer_kv_heads (gguf, i));
      /* Without a per-layer list on the GGUF side (gpt-oss: no
       * sliding_window_pattern key) the runtime applies llama.cpp's
       * per-architecture pattern; assert_same_prediction() checks that. */
      if (gguf->layer_sliding != NULL)
        g_assert_cmpint (hr_model_spec_layer_is_sliding (hub, i), ==, hr_model_spec_layer_is_sliding (gguf, i));
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, hr_model_spec_layer_is_recurrent (gguf, i));
    }
}

static void
predict (const HrModelSpec   *spec,
         guint32              ctx,
         HrRuntimePrediction *out)
{
  HrRuntimeInputs in;
  g_autoptr(GError) error = NULL;

  hr_runtime_inputs_init (&in, spec, ctx);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.kv_type = HR_KV_CACHE_F16;
  in.parallel_slots = 1;
  in.skip_text = TRUE;
  g_assert_true (hr_runtime_predict (&in, out, &error));
  g_assert_no_error (error);
}

/* Both specs with the same weights file, then the terms that follow from
 * the architecture. */
static void
assert_same_prediction (HrModelSpec *hub,
                        HrModelSpec *gguf,
                        guint32      ctx)
{
  static const HrRuntimeTermKind kinds[] = {
    HR_RUNTIME_TERM_KV_CACHE, HR_RUNTIME_TERM_RECURRENT_STATE, HR_RUNTIME_TERM_OUTPUT, HR_RUNTIME_TERM_COMPUTE,
  };
  HrRuntimePrediction a, b;

  hub->parameters = gguf->parameters = G_GUINT64_CONSTANT (1000000000);
  hub->file_bytes = gguf->file_bytes = G_GUINT64_CONSTANT (2000000000);
  g_free (hub->precision);
  g_free (gguf->precision);
  hub->precision = g_strdup ("bf16");
  gguf->precision = g_strdup ("bf16");
  gguf->tied_embeddings = hub->tied_embeddings;
  predict (hub, ctx, &a);
  predict (gguf, ctx, &b);
  g_assert_cmpuint (a.kv_cells, ==, b.kv_cells);
  g_assert_cmpuint (a.kv_cells_sliding, ==, b.kv_cells_sliding);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    g_assert_cmpint (hr_runtime_prediction_term_bytes (&a, kinds[i]), ==,
                     hr_runtime_prediction_term_bytes (&b, kinds[i]));
}

static guint
count_layers (const HrModelSpec *spec,
              gboolean         (*is) (const HrModelSpec *, guint))
{
  guint n = 0;

  for (guint i = 0; i < spec->layers; i++)
    n += is (spec, i) ? 1 : 0;
  return n;
}

/* google/gemma-3-12b-it: Gemma3TextConfig's defaults fill head_dim 256,
 * vocab_size 262208, max_position_embeddings 131072 and the 5-in-6 sliding
 * pattern; the converter (conversion/gemma.py Gemma3Model) writes key_length
 * 256 and sliding_window 1024, and llama.cpp applies its own pattern of 6
 * (src/models/gemma3.cpp load_swa_pattern (ml, 6)). With f16 KV and one
 * slot: 40 sliding layers x 1,536 cells (GGML_PAD (1024 + 512, 256)) + 8
 * global layers x the context, at 2 x 8 heads x 256 x 2 bytes per cell. */
static void
test_gemma3 (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("gemma-3-12b-it-config.json");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  HrRuntimePrediction p;
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "gemma3");
  g_assert_cmpuint (hub->key_length, ==, 256);
  g_assert_cmpuint (hub->vocab_size, ==, 262208);
  g_assert_cmpuint (hub->context_length, ==, 131072);
  g_assert_cmpuint (hub->sliding_window, ==, 1024);
  g_assert_cmpuint (hub->feed_forward_length, ==, 15360);
  g_assert_cmpuint (count_layers (hub, hr_model_spec_layer_is_sliding), ==, 40);
  g_assert_false (hr_model_spec_layer_is_sliding (hub, 5));
  g_assert_false (hr_model_spec_layer_is_sliding (hub, 47));
  g_assert_true (hr_model_spec_layer_is_sliding (hub, 46));
  g_assert_cmpstr (hr_model_spec_get_source (hub, HR_SPEC_FIELD_KEY_LENGTH), ==,
                   "transformers default (configuration_gemma3.py head_dim): 256");
  g_assert_cmpstr (hr_model_spec_get_source (hub, HR_SPEC_FIELD_CONTEXT_LENGTH), ==,
                   "transformers default (configuration_gemma3.py max_position_embeddings): 131072");
  g_assert_cmpstr (hr_model_spec_get_source (hub, HR_SPEC_FIELD_SLIDING_WINDOW), ==,
                   "config.json text_config.sliding_window; sliding layers: transformers default pattern 6 "
                   "(layer i slides unless (i + 1) % 6 == 0)");

  header_init (&h, "gemma3");
  put_text_model (&h, 48, 131072, 3840, 15360, 16, 8, 262208);
  put_u32 (&h, "attention.key_length", 256);
  put_u32 (&h, "attention.value_length", 256);
  put_u32 (&h, "attention.sliding_window", 1024);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 4096);
  assert_same_prediction (hub, gguf, 32768);

  /* llama.cpp's figures (the issue): 0.77 GB at 4,096, 2.65 GB at 32,768. */
  predict (hub, 4096, &p);
  g_assert_cmpuint (p.kv_cells_sliding, ==, 1536);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE), ==,
                   G_GINT64_CONSTANT (771751936));
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE), ==,
                   40 * 1536 * 8192 + 8 * 4096 * 8192);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_OUTPUT), >, 0);
  predict (hub, 32768, &p);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE), ==,
                   G_GINT64_CONSTANT (2650800128));
}

/* google/gemma-2-2b: explicit keys; llama.cpp's pattern of 2
 * (src/models/gemma2.cpp load_swa_pattern (ml, 2)) and transformers'
 * layer_types default ("sliding_attention" if bool((i + 1) % 2)) agree. */
static void
test_gemma2 (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("gemma-2-2b-config.json");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  Header h;

  g_assert_cmpuint (count_layers (hub, hr_model_spec_layer_is_sliding), ==, 13);
  g_assert_true (hr_model_spec_layer_is_sliding (hub, 0));
  g_assert_false (hr_model_spec_layer_is_sliding (hub, 1));
  header_init (&h, "gemma2");
  put_text_model (&h, 26, 8192, 2304, 9216, 8, 4, 256000);
  put_u32 (&h, "attention.key_length", 256);
  put_u32 (&h, "attention.value_length", 256);
  put_u32 (&h, "attention.sliding_window", 4096);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 8192);
}

/* CohereForAI/c4ai-command-r7b-12-2024: sliding_window_pattern 4
 * (Cohere2Config); the converter writes the per-layer booleans
 * (conversion/command_r.py: add_sliding_window_pattern from layer_types). */
static void
test_cohere2 (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("command-r7b-12-2024-config.json");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  guint8 swa[32];
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "cohere2");
  g_assert_cmpuint (count_layers (hub, hr_model_spec_layer_is_sliding), ==, 24);
  g_assert_false (hr_model_spec_layer_is_sliding (hub, 3));
  for (guint i = 0; i < 32; i++)
    swa[i] = (i + 1) % 4 != 0;
  header_init (&h, "cohere2");
  put_text_model (&h, 32, 132096, 4096, 14336, 32, 8, 256000);
  put_u32 (&h, "attention.key_length", 128);
  put_u32 (&h, "attention.value_length", 128);
  put_u32 (&h, "attention.sliding_window", 4096);
  put_bool_array (&h, "attention.sliding_window_pattern", swa, 32);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 16384);
}

/* openai/gpt-oss-20b: layer_types alternate from sliding; 32 experts of
 * 2,880 (the converter writes expert_feed_forward_length; the GGUF path
 * takes one expert's width from blk.0.ffn_down_exps). */
static void
test_gpt_oss (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("gpt-oss-20b-config.json");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  const guint64 exps[3] = { 2880, 2880, 32 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "gpt-oss");
  g_assert_cmpuint (hub->feed_forward_length, ==, 2880);
  header_init (&h, "gpt-oss");
  put_text_model (&h, 24, 131072, 2880, 2880, 64, 8, 201088);
  put_u32 (&h, "attention.key_length", 64);
  put_u32 (&h, "attention.value_length", 64);
  put_u32 (&h, "attention.sliding_window", 128);
  put_u32 (&h, "expert_count", 32);
  put_u32 (&h, "expert_used_count", 4);
  put_u32 (&h, "expert_feed_forward_length", 2880);
  put_tensor (&h, "blk.0.ffn_down_exps.weight", 3, exps);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 8192);
}

/* Qwen/Qwen3-8B: use_sliding_window false, no window in either path. */
static void
test_qwen3 (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("qwen3-8b-config.json");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "qwen3");
  g_assert_cmpuint (hub->sliding_window, ==, 0);
  header_init (&h, "qwen3");
  put_text_model (&h, 36, 40960, 4096, 12288, 32, 8, 151936);
  put_u32 (&h, "attention.key_length", 128);
  put_u32 (&h, "attention.value_length", 128);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 8192);
}

/* deepseek-ai/DeepSeek-V3: MLA, as conversion/deepseek.py DeepseekV2Model
 * writes it (head_count_kv 1, key_length kv_lora_rank + qk_rope_head_dim,
 * value_length kv_lora_rank, the *_mla per-head dims). */
static void
test_deepseek_v3 (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("deepseek-v3-config.json");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  const guint64 exps[3] = { 2048, 7168, 256 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "deepseek2");
  header_init (&h, "deepseek2");
  put_text_model (&h, 61, 163840, 7168, 18432, 128, 1, 129280);
  put_u32 (&h, "attention.key_length", 576);
  put_u32 (&h, "attention.value_length", 512);
  put_u32 (&h, "attention.key_length_mla", 192);
  put_u32 (&h, "attention.value_length_mla", 128);
  put_u32 (&h, "attention.kv_lora_rank", 512);
  put_u32 (&h, "attention.q_lora_rank", 1536);
  put_u32 (&h, "rope.dimension_count", 64);
  put_u32 (&h, "expert_count", 256);
  put_u32 (&h, "expert_used_count", 8);
  put_u32 (&h, "expert_shared_count", 1);
  put_u32 (&h, "expert_feed_forward_length", 2048);
  put_u32 (&h, "leading_dense_block_count", 3);
  /* The first expert tensor is layer 3's: layers 0-2 are dense. */
  put_tensor (&h, "blk.3.ffn_down_exps.weight", 3, exps);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 8192);
}

static HrModelSpec *
inline_spec (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHfConfig) config = hr_hf_config_parse (json, strlen (json), &error);
  HrModelSpec *spec;

  g_assert_no_error (error);
  spec = hr_hf_config_to_model_spec (config, "inline", NULL, &error);
  g_assert_no_error (error);
  return spec;
}

/* meta-llama/Llama-4-Scout-17B-16E-Instruct's text_config (the values of
 * the published file, the unused ones left out): the converter writes no
 * chunking key and llama.cpp always chunks at 8,192 on three layers of four
 * (src/models/llama4.cpp); 36 chunked and 12 full layers. The GGUF side
 * needs the mapper to know that rule (attention-variant branch). */
static void
test_llama4 (void)
{
  g_autoptr(HrModelSpec) hub = inline_spec (
    "{\"architectures\":[\"Llama4ForConditionalGeneration\"],\"model_type\":\"llama4\","
    "\"text_config\":{\"model_type\":\"llama4_text\",\"hidden_size\":5120,\"num_hidden_layers\":48,"
    "\"num_attention_heads\":40,\"num_key_value_heads\":8,\"head_dim\":128,\"intermediate_size\":8192,"
    "\"intermediate_size_mlp\":16384,\"num_local_experts\":16,\"num_experts_per_tok\":1,"
    "\"interleave_moe_layer_step\":1,\"vocab_size\":202048,\"max_position_embeddings\":10485760,"
    "\"attention_chunk_size\":8192,\"no_rope_layers\":[]}}");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "llama4");
  g_assert_cmpuint (hub->sliding_window, ==, 8192);
  g_assert_cmpuint (count_layers (hub, hr_model_spec_layer_is_sliding), ==, 36);
  g_assert_false (hr_model_spec_layer_is_sliding (hub, 3));
  g_assert_true (hr_model_spec_layer_is_sliding (hub, 4));
  g_assert_cmpstr (hr_model_spec_get_source (hub, HR_SPEC_FIELD_SLIDING_WINDOW), ==,
                   "llama.cpp src/models/llama4.cpp: chunked attention, n_swa 8192 on 3 layers of 4");

  header_init (&h, "llama4");
  put_text_model (&h, 48, 10485760, 5120, 16384, 40, 8, 202048);
  put_u32 (&h, "attention.key_length", 128);
  put_u32 (&h, "attention.value_length", 128);
  put_u32 (&h, "expert_count", 16);
  put_u32 (&h, "expert_used_count", 1);
  put_u32 (&h, "expert_feed_forward_length", 8192);
  put_u32 (&h, "interleave_moe_layer_step", 1);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  if (gguf->sliding_window == 0)
    {
      g_test_incomplete ("the GGUF mapper does not apply llama.cpp's llama4 chunking (8192, 3 of 4)");
      return;
    }
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 16384);
}

/* microsoft/Phi-3-mini-4k-instruct: sliding_window 2047, which llama.cpp
 * switches off ("Phi SWA is currently disabled", src/models/phi3.cpp); the
 * runtime applies that on both paths through the architecture "phi3". */
static void
test_phi3 (void)
{
  g_autoptr(HrModelSpec) hub = inline_spec (
    "{\"architectures\":[\"Phi3ForCausalLM\"],\"model_type\":\"phi3\",\"hidden_size\":3072,"
    "\"num_hidden_layers\":32,\"num_attention_heads\":32,\"num_key_value_heads\":32,\"intermediate_size\":8192,"
    "\"vocab_size\":32064,\"max_position_embeddings\":4096,\"sliding_window\":2047,\"tie_word_embeddings\":false}");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  HrRuntimePrediction p;
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "phi3");
  header_init (&h, "phi3");
  put_text_model (&h, 32, 4096, 3072, 8192, 32, 32, 32064);
  put_u32 (&h, "attention.sliding_window", 2047);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 4096);
  /* Every layer full: 32 x 4,096 cells x 2 x 32 x 96 x 2 bytes. */
  predict (hub, 4096, &p);
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE), ==,
                   G_GINT64_CONSTANT (32) * 4096 * 2 * 32 * 96 * 2);
}

/* Qwen/Qwen3-30B-A3B: 128 experts of 768; the runtime's per-expert n_ff
 * comes from moe_intermediate_size on the config path and from
 * blk.0.ffn_down_exps on the GGUF path. */
static void
test_qwen3_moe (void)
{
  g_autoptr(HrModelSpec) hub = inline_spec (
    "{\"architectures\":[\"Qwen3MoeForCausalLM\"],\"model_type\":\"qwen3_moe\",\"hidden_size\":2048,"
    "\"num_hidden_layers\":48,\"num_attention_heads\":32,\"num_key_value_heads\":4,\"head_dim\":128,"
    "\"intermediate_size\":6144,\"moe_intermediate_size\":768,\"num_experts\":128,\"num_experts_per_tok\":8,"
    "\"vocab_size\":151936,\"max_position_embeddings\":40960,\"sliding_window\":null,"
    "\"use_sliding_window\":false,\"tie_word_embeddings\":false}");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  const guint64 exps[3] = { 768, 2048, 128 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "qwen3moe");
  g_assert_cmpuint (hub->feed_forward_length, ==, 768);
  header_init (&h, "qwen3moe");
  put_text_model (&h, 48, 40960, 2048, 6144, 32, 4, 151936);
  put_u32 (&h, "attention.key_length", 128);
  put_u32 (&h, "attention.value_length", 128);
  put_u32 (&h, "expert_count", 128);
  put_u32 (&h, "expert_used_count", 8);
  put_u32 (&h, "expert_feed_forward_length", 768);
  put_tensor (&h, "blk.0.ffn_down_exps.weight", 3, exps);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 8192);
}

/* mistralai/Mistral-Small-3.1-24B-Instruct-2503: the language model in
 * text_config (model_type "mistral"), converted as "mistral3"
 * (conversion/mistral3.py Ministral3Model). */
static void
test_mistral3 (void)
{
  g_autoptr(HrModelSpec) hub = inline_spec (
    "{\"architectures\":[\"Mistral3ForConditionalGeneration\"],\"model_type\":\"mistral3\","
    "\"text_config\":{\"model_type\":\"mistral\",\"hidden_size\":5120,\"num_hidden_layers\":40,"
    "\"num_attention_heads\":32,\"num_key_value_heads\":8,\"head_dim\":128,\"intermediate_size\":32768,"
    "\"vocab_size\":131072,\"max_position_embeddings\":131072,\"sliding_window\":null},"
    "\"vision_config\":{\"model_type\":\"pixtral\",\"hidden_size\":1024,\"num_hidden_layers\":24}}");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "mistral3");
  header_init (&h, "mistral3");
  put_text_model (&h, 40, 131072, 5120, 32768, 32, 8, 131072);
  put_u32 (&h, "attention.key_length", 128);
  put_u32 (&h, "attention.value_length", 128);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 8192);
}

/* Gemma3TextConfig's rules one by one: layer_types wins; a
 * sliding_window_pattern key replaces the default 6; an absent
 * sliding_window and num_key_value_heads take 4096 and 4; a null
 * sliding_window stays off. */
static void
test_gemma3_rules (void)
{
#define GEMMA3_TEXT "{\"model_type\":\"gemma3_text\",\"hidden_size\":640,\"num_hidden_layers\":8,\"num_attention_heads\":4,"
  g_autoptr(HrModelSpec) typed = inline_spec (GEMMA3_TEXT "\"num_key_value_heads\":1,\"sliding_window\":512,"
    "\"layer_types\":[\"full_attention\",\"sliding_attention\",\"sliding_attention\",\"sliding_attention\","
    "\"sliding_attention\",\"sliding_attention\",\"sliding_attention\",\"full_attention\"]}");
  g_autoptr(HrModelSpec) keyed = inline_spec (GEMMA3_TEXT "\"num_key_value_heads\":1,\"sliding_window\":512,"
                                              "\"sliding_window_pattern\":4}");
  g_autoptr(HrModelSpec) bare = inline_spec (GEMMA3_TEXT "\"head_dim\":256}");
  g_autoptr(HrModelSpec) off = inline_spec (GEMMA3_TEXT "\"num_key_value_heads\":1,\"sliding_window\":null}");
#undef GEMMA3_TEXT

  g_assert_false (hr_model_spec_layer_is_sliding (typed, 0));
  g_assert_true (hr_model_spec_layer_is_sliding (typed, 5));
  g_assert_false (hr_model_spec_layer_is_sliding (typed, 7));
  g_assert_cmpuint (count_layers (typed, hr_model_spec_layer_is_sliding), ==, 6);

  g_assert_cmpuint (count_layers (keyed, hr_model_spec_layer_is_sliding), ==, 6);
  g_assert_false (hr_model_spec_layer_is_sliding (keyed, 3));
  g_assert_false (hr_model_spec_layer_is_sliding (keyed, 7));
  g_assert_cmpstr (hr_model_spec_get_source (keyed, HR_SPEC_FIELD_SLIDING_WINDOW), ==,
                   "config.json sliding_window; sliding layers: sliding_window_pattern 4 "
                   "(layer i slides unless (i + 1) % 4 == 0)");

  g_assert_cmpuint (bare->sliding_window, ==, 4096);
  g_assert_cmpuint (bare->kv_heads, ==, 4);
  g_assert_cmpuint (bare->key_length, ==, 256);
  g_assert_cmpuint (bare->vocab_size, ==, 262208);
  g_assert_cmpstr (hr_model_spec_get_source (bare, HR_SPEC_FIELD_KV_HEADS), ==,
                   "transformers default (configuration_gemma3.py num_key_value_heads): 4");
  g_assert_cmpstr (hr_model_spec_get_source (bare, HR_SPEC_FIELD_KEY_LENGTH), ==, "config.json head_dim");
  g_assert_cmpstr (hr_model_spec_get_source (bare, HR_SPEC_FIELD_SLIDING_WINDOW), ==,
                   "transformers default (configuration_gemma3.py sliding_window): 4096; sliding layers: "
                   "transformers default pattern 6 (layer i slides unless (i + 1) % 6 == 0)");
  g_assert_false (hr_model_spec_layer_is_sliding (bare, 5));

  g_assert_cmpuint (off->sliding_window, ==, 0);
  g_assert_null (off->layer_sliding);
  /* No head_dim: Gemma3TextConfig's 256, not 640 / 4. */
  g_assert_cmpuint (off->key_length, ==, 256);
}

/* zai-org/GLM-4.5-Air: 46 layers and one multi-token-prediction layer,
 * which the converter appends (conversion/glm.py Glm4MoeModel: block_count
 * = num_hidden_layers + num_nextn_predict_layers, nextn_predict_layers 1)
 * and llama.cpp keeps out of the main KV cache (src/llama-hparams.cpp
 * n_layer () = n_layer_all - n_layer_nextn; create_memory's filter il <
 * n_layer ()). The config path has the 46 trunk layers. */
static void
test_glm4_moe (void)
{
  g_autoptr(HrModelSpec) hub = inline_spec (
    "{\"architectures\":[\"Glm4MoeForCausalLM\"],\"model_type\":\"glm4_moe\",\"hidden_size\":4096,"
    "\"num_hidden_layers\":46,\"num_attention_heads\":96,\"num_key_value_heads\":8,\"head_dim\":128,"
    "\"intermediate_size\":10944,\"moe_intermediate_size\":1408,\"n_routed_experts\":128,"
    "\"num_experts_per_tok\":8,\"n_shared_experts\":1,\"first_k_dense_replace\":1,\"vocab_size\":151552,"
    "\"max_position_embeddings\":131072,\"num_nextn_predict_layers\":1,\"partial_rotary_factor\":0.5,"
    "\"attention_bias\":true,\"tie_word_embeddings\":false}");
  g_autoptr(HrModelSpec) gguf = NULL;
  g_autoptr(GError) error = NULL;
  const guint64 exps[3] = { 1408, 4096, 128 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "glm4moe");
  g_assert_cmpuint (hub->layers, ==, 46);
  header_init (&h, "glm4moe");
  put_text_model (&h, 47, 131072, 4096, 10944, 96, 8, 151552);
  put_u32 (&h, "attention.key_length", 128);
  put_u32 (&h, "attention.value_length", 128);
  put_u32 (&h, "expert_count", 128);
  put_u32 (&h, "expert_used_count", 8);
  put_u32 (&h, "expert_feed_forward_length", 1408);
  put_u32 (&h, "expert_shared_count", 1);
  put_u32 (&h, "leading_dense_block_count", 1);
  put_u32 (&h, "nextn_predict_layers", 1);
  put_tensor (&h, "blk.1.ffn_down_exps.weight", 3, exps);
  gguf = gguf_spec (&h, &error);
  g_assert_no_error (error);
  if (gguf->layers != hub->layers)
    {
      g_autofree char *msg = g_strdup_printf ("the GGUF mapper counts %u layers, the MTP layer included; llama.cpp "
                                              "caches %u (n_layer_all - nextn_predict_layers)",
                                              gguf->layers, hub->layers);

      g_test_incomplete (msg);
      return;
    }
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, 8192);
}

/* A hybrid family's GGUF side: compared when the mapper fills the
 * recurrent layers, marked incomplete while it refuses the architecture or
 * leaves them out (the GGUF mapping of hybrids is another branch's). */
static void
compare_hybrid (HrModelSpec *hub,
                Header      *h,
                guint32      ctx)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) gguf = gguf_spec (h, &error);

  if (gguf == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("the GGUF mapper refuses %s: %s", h->arch, error->message);

      g_test_incomplete (msg);
      return;
    }
  if (gguf->layer_recurrent == NULL)
    {
      g_autofree char *msg = g_strdup_printf ("the GGUF mapper leaves %s's recurrent layers out", h->arch);

      g_test_incomplete (msg);
      return;
    }
  assert_same_spec (hub, gguf);
  assert_same_prediction (hub, gguf, ctx);
}

/* Qwen/Qwen3-Next-80B-A3B: full attention every 4th layer
 * (full_attention_interval 4); the gated delta net's state, llama.cpp
 * src/llama-hparams.cpp with the GGUF conversion/qwen.py Qwen3NextModel
 * writes: d_conv 4, d_inner 128 x 32 = 4,096, n_group 16, d_state 128:
 * n_embd_r = 3 x (4,096 + 2 x 16 x 128) = 24,576; n_embd_s = 128 x 4,096 =
 * 524,288. */
static void
test_qwen3_next (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("qwen3-next-80b-a3b-config.json");
  const guint64 exps[3] = { 512, 2048, 512 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "qwen3next");
  g_assert_cmpuint (hr_model_spec_recurrent_layers (hub), ==, 36);
  for (guint i = 0; i < 48; i++)
    {
      gboolean attends = (i + 1) % 4 == 0;

      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, !attends);
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, attends ? 2 : 0);
    }
  g_assert_cmpuint (hub->recurrent_r, ==, 24576);
  g_assert_cmpuint (hub->recurrent_s, ==, 524288);
  g_assert_cmpuint (hub->key_length, ==, 256);
  g_assert_cmpuint (hub->feed_forward_length, ==, 512);
  g_assert_nonnull (hub->recurrent_source);

  header_init (&h, "qwen3next");
  put_text_model (&h, 48, 262144, 2048, 5120, 16, 2, 151936);
  put_u32 (&h, "attention.key_length", 256);
  put_u32 (&h, "attention.value_length", 256);
  put_u32 (&h, "expert_count", 512);
  put_u32 (&h, "expert_used_count", 10);
  put_u32 (&h, "expert_feed_forward_length", 512);
  put_u32 (&h, "expert_shared_feed_forward_length", 512);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "ssm.state_size", 128);
  put_u32 (&h, "ssm.group_count", 16);
  put_u32 (&h, "ssm.time_step_rank", 32);
  put_u32 (&h, "ssm.inner_size", 4096);
  put_u32 (&h, "full_attention_interval", 4);
  put_tensor (&h, "blk.0.ffn_down_exps.weight", 3, exps);
  compare_hybrid (hub, &h, 8192);
}

/* LiquidAI/LFM2-1.2B: 10 short-conv layers; n_embd_r = 2,048 x (3 - 1) =
 * 4,096, n_embd_s = 0 (src/llama-hparams.cpp, n_shortconv_l_cache); the
 * feed-forward width int(2 x 12,288 / 3) = 8,192 (conversion/lfm2.py). */
static void
test_lfm2 (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("lfm2-1.2b-config.json");
  static const guint attn[] = { 2, 5, 8, 10, 12, 14 };
  guint32 kv[16] = { 0 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "lfm2");
  for (guint k = 0; k < G_N_ELEMENTS (attn); k++)
    kv[attn[k]] = 8;
  for (guint i = 0; i < 16; i++)
    {
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, kv[i]);
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, kv[i] == 0);
    }
  g_assert_cmpuint (hr_model_spec_recurrent_layers (hub), ==, 10);
  g_assert_cmpuint (hub->recurrent_r, ==, 4096);
  g_assert_cmpuint (hub->recurrent_s, ==, 0);
  g_assert_cmpuint (hub->feed_forward_length, ==, 8192);

  header_init (&h, "lfm2");
  put_text_model (&h, 16, 128000, 2048, 8192, 32, 0, 65536);
  put_u32_array (&h, "attention.head_count_kv", kv, 16);
  put_u32 (&h, "shortconv.l_cache", 3);
  compare_hybrid (hub, &h, 8192);
}

/* Granite 4.0 H shape: mamba_expand 2 x 1,536 = d_inner 3,072, one group,
 * d_state 128, d_conv 4 (conversion/granite.py GraniteHybridModel):
 * n_embd_r = 3 x (3,072 + 2 x 128) = 9,984, n_embd_s = 128 x 3,072 =
 * 393,216; head_count_kv 0 on the 36 mamba layers. */
static void
test_granite_hybrid (void)
{
  g_autoptr(HrModelSpec) hub = hub_spec ("granite-4.0-h-shaped-config.json");
  guint32 kv[40] = { 0 };
  const guint64 exps[3] = { 512, 1536, 64 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "granitehybrid");
  kv[5] = kv[15] = kv[25] = kv[35] = 4;
  for (guint i = 0; i < 40; i++)
    {
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, kv[i]);
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, kv[i] == 0);
    }
  g_assert_cmpuint (hub->recurrent_r, ==, 9984);
  g_assert_cmpuint (hub->recurrent_s, ==, 393216);

  header_init (&h, "granitehybrid");
  put_text_model (&h, 40, 131072, 1536, 512, 12, 0, 100352);
  put_u32_array (&h, "attention.head_count_kv", kv, 40);
  put_u32 (&h, "expert_count", 64);
  put_u32 (&h, "expert_used_count", 6);
  put_u32 (&h, "expert_shared_feed_forward_length", 1024);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "ssm.state_size", 128);
  put_u32 (&h, "ssm.group_count", 1);
  put_u32 (&h, "ssm.inner_size", 3072);
  put_u32 (&h, "ssm.time_step_rank", 48);
  put_tensor (&h, "blk.0.ffn_down_exps.weight", 3, exps);
  compare_hybrid (hub, &h, 8192);
}

/* nvidia/NVIDIA-Nemotron-Nano-9B-v2: "M" layers recurrent, "*" attend,
 * "-" are MLP only; d_inner = 128 heads x mamba_head_dim 80 = 10,240,
 * n_group 8, d_state 128, d_conv 4: n_embd_r = 3 x (10,240 + 2 x 8 x 128) =
 * 36,864, n_embd_s = 128 x 10,240 = 1,310,720. */
static void
test_nemotron_h (void)
{
  static const char pattern[] = "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-";
  g_autoptr(HrModelSpec) hub = hub_spec ("nemotron-nano-9b-v2-config.json");
  guint32 kv[56], ff[56];
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "nemotron_h");
  for (guint i = 0; i < 56; i++)
    {
      kv[i] = pattern[i] == '*' ? 8 : 0;
      ff[i] = pattern[i] == '-' ? 15680 : 0;
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, kv[i]);
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, pattern[i] == 'M');
    }
  g_assert_cmpuint (hr_model_spec_recurrent_layers (hub), ==, 27);
  g_assert_cmpuint (hub->recurrent_r, ==, 36864);
  g_assert_cmpuint (hub->recurrent_s, ==, 1310720);

  header_init (&h, "nemotron_h");
  put_u32 (&h, "block_count", 56);
  put_u32 (&h, "context_length", 131072);
  put_u32 (&h, "embedding_length", 4480);
  put_u32_array (&h, "feed_forward_length", ff, 56);
  put_u32 (&h, "attention.head_count", 40);
  put_u32_array (&h, "attention.head_count_kv", kv, 56);
  put_u32 (&h, "attention.key_length", 128);
  put_u32 (&h, "attention.value_length", 128);
  put_u32 (&h, "vocab_size", 131072);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "ssm.state_size", 128);
  put_u32 (&h, "ssm.group_count", 8);
  put_u32 (&h, "ssm.inner_size", 10240);
  put_u32 (&h, "ssm.time_step_rank", 128);
  compare_hybrid (hub, &h, 8192);
}

/* moonshotai/Kimi-Linear-48B-A3B-Instruct (values from memory of the
 * published config, not re-checked): MLA on layers 4, 8, ... 24 and 27
 * (1-based full_attn_layers), KDA elsewhere; n_embd_r = 3 x (4 - 1) x 32 x
 * 128 = 36,864, n_embd_s = 128 x 128 x 32 = 524,288. */
static void
test_kimi_linear (void)
{
  g_autoptr(HrModelSpec) hub = inline_spec (
    "{\"architectures\":[\"KimiLinearForCausalLM\"],\"model_type\":\"kimi_linear\",\"hidden_size\":2304,"
    "\"num_hidden_layers\":27,\"num_attention_heads\":32,\"num_key_value_heads\":32,\"kv_lora_rank\":512,"
    "\"q_lora_rank\":null,\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,\"v_head_dim\":128,"
    "\"intermediate_size\":9216,\"moe_intermediate_size\":1024,\"num_experts\":256,\"num_experts_per_token\":8,"
    "\"num_shared_experts\":1,\"first_k_dense_replace\":1,\"vocab_size\":163840,\"max_position_embeddings\":1048576,"
    "\"linear_attn_config\":{\"full_attn_layers\":[4,8,12,16,20,24,27],\"head_dim\":128,\"num_heads\":32,"
    "\"short_conv_kernel_size\":4}}");
  guint32 kv[27] = { 0 };
  const guint64 exps[3] = { 1024, 2304, 256 };
  Header h;

  g_assert_cmpstr (hub->architecture, ==, "kimi-linear");
  kv[3] = kv[7] = kv[11] = kv[15] = kv[19] = kv[23] = kv[26] = 1;
  for (guint i = 0; i < 27; i++)
    {
      g_assert_cmpuint (hr_model_spec_layer_kv_heads (hub, i), ==, kv[i]);
      g_assert_cmpint (hr_model_spec_layer_is_recurrent (hub, i), ==, kv[i] == 0);
    }
  g_assert_cmpuint (hub->key_length, ==, 576);
  g_assert_true (hub->kv_latent);
  g_assert_cmpuint (hub->recurrent_r, ==, 36864);
  g_assert_cmpuint (hub->recurrent_s, ==, 524288);

  header_init (&h, "kimi-linear");
  put_text_model (&h, 27, 1048576, 2304, 9216, 32, 0, 163840);
  put_u32_array (&h, "attention.head_count_kv", kv, 27);
  put_u32 (&h, "attention.key_length", 576);
  put_u32 (&h, "attention.value_length", 512);
  put_u32 (&h, "attention.key_length_mla", 192);
  put_u32 (&h, "attention.value_length_mla", 128);
  put_u32 (&h, "attention.kv_lora_rank", 512);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "kda.head_dim", 128);
  put_u32 (&h, "expert_count", 256);
  put_u32 (&h, "expert_used_count", 8);
  put_u32 (&h, "expert_feed_forward_length", 1024);
  put_u32 (&h, "expert_shared_count", 1);
  put_u32 (&h, "leading_dense_block_count", 1);
  put_tensor (&h, "blk.1.ffn_down_exps.weight", 3, exps);
  compare_hybrid (hub, &h, 8192);
}

/* mistralai/Mamba-Codestral-7B-v0.1: every layer recurrent, none attends;
 * d_inner = expand 2 x 4,096 = 8,192, n_group 8, d_state 128, d_conv 4:
 * n_embd_r = 3 x (8,192 + 2 x 8 x 128) = 30,720, n_embd_s = 1,048,576.
 * The converter (conversion/mamba.py Mamba2Model) writes head_count 0,
 * feed_forward_length 0 and a placeholder context_length of 2^20 ("for
 * those who use the default"), which the header here leaves out: the
 * config has no context limit, so neither path gives one. */
static void
test_mamba2 (void)
{
  g_autoptr(HrHfConfig) config = load_config ("mamba-codestral-7b-config.json");
  g_autoptr(HrModelSpec) hub = NULL;
  Header h;

  g_assert_cmpstr (config->gguf_arch, ==, "mamba2");
  g_assert_cmpuint (config->heads, ==, 0);
  g_assert_nonnull (config->layer_recurrent);
  g_assert_cmpuint (config->layer_recurrent->len, ==, 64);
  for (guint i = 0; i < 64; i++)
    {
      g_assert_cmpuint (g_array_index (config->layer_recurrent, guint8, i), ==, 1);
      g_assert_cmpuint (g_array_index (config->layer_kv_heads, guint32, i), ==, 0);
    }
  g_assert_cmpuint (config->recurrent_r, ==, 30720);
  g_assert_cmpuint (config->recurrent_s, ==, 1048576);
  g_assert_cmpuint (hr_hf_config_feed_forward_length (config), ==, 0);

  hub = hr_hf_config_to_model_spec (config, "mistralai/Mamba-Codestral-7B-v0.1", NULL, NULL);
  g_assert_cmpuint (hr_model_spec_recurrent_layers (hub), ==, 64);
  header_init (&h, "mamba2");
  put_u32 (&h, "embedding_length", 4096);
  put_u32 (&h, "feed_forward_length", 0);
  put_u32 (&h, "attention.head_count", 0);
  put_u32 (&h, "block_count", 64);
  put_u32 (&h, "vocab_size", 32768);
  put_u32 (&h, "ssm.conv_kernel", 4);
  put_u32 (&h, "ssm.inner_size", 8192);
  put_u32 (&h, "ssm.state_size", 128);
  put_u32 (&h, "ssm.time_step_rank", 128);
  put_u32 (&h, "ssm.group_count", 8);
  compare_hybrid (hub, &h, 8192);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hf-config-gguf/gemma3", test_gemma3);
  g_test_add_func ("/hf-config-gguf/gemma3-rules", test_gemma3_rules);
  g_test_add_func ("/hf-config-gguf/gemma2", test_gemma2);
  g_test_add_func ("/hf-config-gguf/cohere2", test_cohere2);
  g_test_add_func ("/hf-config-gguf/gpt-oss", test_gpt_oss);
  g_test_add_func ("/hf-config-gguf/qwen3", test_qwen3);
  g_test_add_func ("/hf-config-gguf/deepseek-v3", test_deepseek_v3);
  g_test_add_func ("/hf-config-gguf/llama4", test_llama4);
  g_test_add_func ("/hf-config-gguf/phi3", test_phi3);
  g_test_add_func ("/hf-config-gguf/qwen3-moe", test_qwen3_moe);
  g_test_add_func ("/hf-config-gguf/mistral3", test_mistral3);
  g_test_add_func ("/hf-config-gguf/glm4-moe", test_glm4_moe);
  g_test_add_func ("/hf-config-gguf/qwen3-next", test_qwen3_next);
  g_test_add_func ("/hf-config-gguf/lfm2", test_lfm2);
  g_test_add_func ("/hf-config-gguf/granite-hybrid", test_granite_hybrid);
  g_test_add_func ("/hf-config-gguf/nemotron-h", test_nemotron_h);
  g_test_add_func ("/hf-config-gguf/kimi-linear", test_kimi_linear);
  g_test_add_func ("/hf-config-gguf/mamba2", test_mamba2);

  return g_test_run ();
}
