/* test-runtime-llama-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The llama-server era (%HR_RUNTIME_ERA_LLAMA_SERVER): llama.cpp's server
 * run by hand with its own defaults. -np auto is 4 slots in one unified KV
 * stream (tools/server/server.cpp), -c unset is n_ctx_train x slots
 * (common/fit.cpp), -c is the whole cache and is never clamped to the
 * trained context, -np N divides it into N streams (src/llama-context.cpp
 * n_ctx_seq), batch 2048 / ubatch 512 (common/common.h). Values computed by
 * hand; tests/llama checks the same rules against the real server.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-runtime.h"

/* llama3.2:3b's shape (the catalog row's figures; no tensor list). */
static HrModelSpec *
llama32_3b (guint32 context_length)
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
  spec->context_length = context_length;
  spec->tied_embeddings = TRUE;
  return spec;
}

static void
predict (const HrModelSpec   *spec,
         guint32              n_ctx,
         guint32              slots,
         HrRuntimePrediction *out)
{
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;

  hr_runtime_inputs_init (&in, spec, n_ctx);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.parallel_slots = slots;
  in.batch = 0;
  in.ubatch = 0;
  g_assert_true (hr_runtime_predict (&in, out, &error));
  g_assert_no_error (error);
}

static gint64
kv_bytes (const HrRuntimePrediction *p)
{
  g_assert_nonnull (hr_runtime_prediction_get_term (p, HR_RUNTIME_TERM_KV_CACHE));
  return hr_runtime_prediction_term_bytes (p, HR_RUNTIME_TERM_KV_CACHE);
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

static void
test_strings (void)
{
  HrRuntimeEra era = HR_RUNTIME_ERA_AUTO;

  g_assert_cmpstr (hr_runtime_era_to_string (HR_RUNTIME_ERA_LLAMA_SERVER), ==, "llama-server");
  g_assert_true (hr_runtime_era_from_string ("LLAMA-SERVER", &era));
  g_assert_cmpint (era, ==, HR_RUNTIME_ERA_LLAMA_SERVER);
  g_assert_cmpstr (hr_runtime_era_label (HR_RUNTIME_ERA_LLAMA_SERVER), ==,
                   "llama-server with its own defaults (llama.cpp)");
  /* The Ollama eras keep their words. */
  g_assert_true (hr_runtime_era_from_string ("ollama-0.12", &era));
  g_assert_cmpint (era, ==, HR_RUNTIME_ERA_OLLAMA_0_12);
  g_assert_false (hr_runtime_era_from_string ("llama.cpp", &era));
}

/* No -c, no -np: 4 slots, one unified stream of 131,072 x 4 = 524,288
 * cells; KV 28 x 8 x (128 + 128) x 524,288 x 2 = 60,129,542,144 bytes. */
static void
test_defaults (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b (131072);
  HrRuntimePrediction p;

  predict (spec, 0, 0, &p);
  g_assert_cmpstr (p.era_id, ==, "llama-server");
  g_assert_cmpuint (p.context_tokens, ==, 524288);
  g_assert_cmpuint (p.parallel_slots, ==, 4);
  g_assert_true (p.kv_unified);
  g_assert_cmpuint (p.kv_cells, ==, 524288);
  g_assert_cmpuint (p.ubatch, ==, 512);
  g_assert_true (p.flash_attention);
  g_assert_cmpint (kv_bytes (&p), ==, G_GINT64_CONSTANT (60129542144));
  g_assert_cmpstr (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_KV_CACHE)->note, ==,
                   "llama-server's -np auto: 4 slots share one unified stream of pad256(n_ctx) = pad256(524,288) = 524,288 cells.");
  g_assert_true (has_note (&p, "No -c: llama-server's --fit (on by default) sizes the cache for every slot at the trained context, n_ctx = n_ctx_train x slots = 131,072 x 4 = 524,288 (common/fit.cpp). Where that would leave less than 1 GiB of the device's memory free (--fit-target), --fit shrinks the context, to no less than 4,096 per stream (--fit-ctx); Headroom predicts the size before any shrinking."));
  g_assert_true (has_note (&p, "One request may use at most 131,072 tokens, the trained context (tools/server/server-context.cpp n_ctx_slot() caps each slot at it, and llama-server warns), but the cache of 524,288 cells per stream is allocated whole: no clamp."));

  /* -np 2 without -c: n_ctx = 131,072 x 2, two streams of 131,072. */
  predict (spec, 0, 2, &p);
  g_assert_cmpuint (p.context_tokens, ==, 262144);
  g_assert_cmpuint (p.parallel_slots, ==, 2);
  g_assert_false (p.kv_unified);
  g_assert_cmpuint (p.kv_cells, ==, 262144);
}

/* -c past the trained context: llama-server allocates it (the
 * phi-3-mini-4k case), Ollama clamps num_ctx to 4096. */
static void
test_no_clamp (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b (4096);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  predict (spec, 32768, 0, &p);
  g_assert_cmpuint (p.context_tokens, ==, 32768);
  g_assert_false (p.context_clamped);
  g_assert_cmpuint (p.kv_cells, ==, 32768);
  /* 28 x 8 x 256 x 32,768 x 2 */
  g_assert_cmpint (kv_bytes (&p), ==, G_GINT64_CONSTANT (3758096384));
  g_assert_true (has_note (&p, "One request may use at most 4,096 tokens, the trained context (tools/server/server-context.cpp n_ctx_slot() caps each slot at it, and llama-server warns), but the cache of 32,768 cells per stream is allocated whole: no clamp."));

  hr_runtime_inputs_init (&in, spec, 32768);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.context_tokens, ==, 4096);
  g_assert_true (p.context_clamped);
  g_assert_false (p.kv_unified);
  g_assert_true (has_note (&p, "num_ctx 32768 is past the model's limit: Ollama clamps it to 4096."));

  /* A -c within the trained context, unified: no clamp note, the shared note. */
  predict (spec, 2048, 0, &p);
  g_assert_cmpuint (p.kv_cells, ==, 2048);
  g_assert_true (has_note (&p, "The 4 slots share one cache of 2,048 cells: one request may use all of it, and together they can hold 2,048 tokens (tools/server/server.cpp, -np auto)."));
}

/* -np N: kv_unified stays off, n_ctx_seq = pad256(pad256(-c) / N). */
static void
test_streams (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b (131072);
  HrRuntimePrediction p;

  predict (spec, 16384, 2, &p);
  g_assert_false (p.kv_unified);
  g_assert_cmpuint (p.context_tokens, ==, 16384);
  g_assert_cmpuint (p.kv_cells, ==, 16384);
  /* 28 x 8 x 256 x 16,384 x 2, what tests/llama measures (1,792 MiB). */
  g_assert_cmpint (kv_bytes (&p), ==, G_GINT64_CONSTANT (1879048192));
  g_assert_cmpstr (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_KV_CACHE)->note, ==,
                   "With -np 2 llama-server's cache is not unified: each slot has its own stream of pad256(pad256(16,384) / 2) = 8,192 cells, 16,384 in all.");

  /* -c 10000 -np 3: pad256(10000) = 10,240; / 3 = 3,413, pad256 3,584;
   * three streams, 10,752 cells. */
  predict (spec, 10000, 3, &p);
  g_assert_cmpuint (p.kv_cells, ==, 10752);

  /* The same -c unified: one stream of pad256(10000) = 10,240. */
  predict (spec, 10000, 0, &p);
  g_assert_cmpuint (p.kv_cells, ==, 10240);
}

/* A unified sliding-window stream holds pad256(min(n_ctx, window x slots +
 * ubatch)) cells (src/llama-kv-cache-iswa.cpp). gemma3:4b's shape: 34
 * layers, 5 global, window 1024, 4 KV heads of 256. At -c 8192:
 * pad256(min(8192, 1024 x 4 + 512)) = 4,608; KV = 4 x 512 x 2 x
 * (5 x 8192 + 29 x 4608) = 715,128,832. */
static void
test_sliding_window (void)
{
  g_autoptr(HrModelSpec) g3 = hr_model_spec_new ("gemma3:4b");
  HrRuntimePrediction p;

  g3->architecture = g_strdup ("gemma3");
  g3->parameters = 4300000000;
  g3->precision = g_strdup ("q4_K_M");
  g3->file_bytes = 3300000000;
  g3->layers = 34;
  g3->heads = 8;
  g3->kv_heads = 4;
  g3->key_length = 256;
  g3->value_length = 256;
  g3->embedding_length = 2560;
  g3->sliding_window = 1024;
  g3->vocab_size = 262144;
  g3->context_length = 131072;
  g3->tied_embeddings = TRUE;

  predict (g3, 8192, 0, &p);
  g_assert_true (p.kv_unified);
  g_assert_cmpuint (p.kv_cells, ==, 8192);
  g_assert_cmpuint (p.kv_cells_sliding, ==, 4608);
  g_assert_cmpint (kv_bytes (&p), ==, G_GINT64_CONSTANT (715128832));
  g_assert_cmpstr (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_KV_CACHE)->note, ==,
                   "llama-server's -np auto: 4 slots share one unified stream of pad256(n_ctx) = pad256(8,192) = 8,192 cells; a sliding-window layer's stream holds pad256(min(8,192, window x slots + ubatch)) = pad256(min(8,192, 1,024 x 4 + 512)) = 4,608 cells.");

  /* -np 4 -c 8192: four streams of 2,048, each window stream
   * pad256(min(2048, 1024 + 512)) = 1,536: 6,144 in all. */
  predict (g3, 8192, 4, &p);
  g_assert_false (p.kv_unified);
  g_assert_cmpuint (p.kv_cells, ==, 8192);
  g_assert_cmpuint (p.kv_cells_sliding, ==, 6144);
}

/* --fit with the device's memory known (free_bytes) and -c unset
 * (common/fit.cpp): no change while the margin (1 GiB) stays free; else
 * n_ctx = 4096 x streams + (n_ctx_max - that) x (free - margin - used_min)
 * / (used_max - used_min), rounded down to 256 x streams, where used_* are
 * the buffers at the two ends. */
static void
test_fit (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b (131072);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p, at_max, at_min;
  guint64 free = G_GUINT64_CONSTANT (24000000000);
  guint64 target = free - 1024 * 1024 * 1024;
  guint64 expected;

  predict (spec, 524288, 0, &at_max);
  predict (spec, 4096, 0, &at_min);
  expected = 4096 + (524288 - 4096) * (target - at_min.total_bytes) / (at_max.total_bytes - at_min.total_bytes);
  expected -= expected % 256;

  hr_runtime_inputs_init (&in, spec, 0);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.free_bytes = free;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.context_tokens, ==, expected);
  g_assert_cmpuint (p.context_tokens, ==, 176896);
  g_assert_cmpuint (p.kv_cells, ==, 176896);
  g_assert_cmpuint (p.total_bytes, <=, target);

  /* Room to spare: the trained context for every slot. */
  in.free_bytes = at_max.total_bytes + 1024 * 1024 * 1024;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpuint (p.context_tokens, ==, 524288);
  /* One byte short of the margin: shrunk. */
  in.free_bytes -= 1;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpuint (p.context_tokens, <, 524288);

  /* Not even 4,096 fits: the smallest, 4,096 per stream (-np 2: 8,192). */
  in.free_bytes = 1;
  in.parallel_slots = 2;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpuint (p.context_tokens, ==, 8192);
  g_assert_true (has_note (&p, "--fit: even 8,192 tokens leave less than 1,024 MiB free of 1 bytes, so it takes the smallest context, 8,192, and would move layers off the device (not predicted here)."));

  /* A -c given is never fitted. */
  in.context_tokens = 65536;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpuint (p.context_tokens, ==, 65536);
}

/* -b 2048 -ub 512 by default; n_batch = min(n_ctx, n_batch), n_ubatch =
 * min(n_batch, n_ubatch) (src/llama-context.cpp). */
static void
test_batch (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b (131072);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  predict (spec, 300, 0, &p);
  g_assert_cmpuint (p.ubatch, ==, 300);
  predict (spec, 8192, 0, &p);
  g_assert_cmpuint (p.ubatch, ==, 512);

  hr_runtime_inputs_init (&in, spec, 8192);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.batch = 256;
  in.ubatch = 0;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.ubatch, ==, 256);
}

static void
test_errors (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b (0);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  /* No -c and no trained context: nothing to size. */
  hr_runtime_inputs_init (&in, spec, 0);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "llama3.2:3b names no trained context, which llama-server takes when -c is not given: give a context");
  g_clear_error (&error);

  /* The Ollama eras still need a context. */
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "the context window must be at least 1 token");
  g_clear_error (&error);

  /* A quantized V cache with flash attention off: llama-server refuses it. */
  hr_runtime_inputs_init (&in, spec, 4096);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.kv_type = HR_KV_CACHE_Q8_0;
  in.flash_attention = HR_FLASH_ATTENTION_OFF;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "llama-server refuses a q8_0 V cache without flash attention (\"quantized V cache requires flash_attn to be enabled\"): this model would not load. Turn flash attention on or auto, or use an f16 cache.");
  g_clear_error (&error);

  /* An Ollama version does not bring back Ollama's pre-0.30 f16 fallback. */
  in.flash_attention = HR_FLASH_ATTENTION_AUTO;
  in.server_version = "0.20.0";
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpint (p.kv_type, ==, HR_KV_CACHE_Q8_0);
  g_assert_null (p.kv_type_reason);
}

static void
test_json (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b (131072);
  g_autoptr(JsonNode) node = NULL;
  HrRuntimePrediction p;
  JsonObject *o;

  predict (spec, 8192, 0, &p);
  node = hr_runtime_prediction_to_json (&p);
  o = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (o, "method"), ==, "llama-server");
  g_assert_cmpint (json_object_get_int_member (o, "context_tokens"), ==, 8192);
  g_assert_cmpint (json_object_get_int_member (o, "parallel_slots"), ==, 4);
  g_assert_true (json_object_get_boolean_member (o, "kv_unified"));
  g_assert_cmpint (json_object_get_int_member (o, "kv_cells"), ==, 8192);
}

/* llama.cpp refuses a quantized cache whose head size is not a whole
 * number of the type's 32-value blocks (src/llama-context.cpp
 * llama_init_from_model): K is checked before V, every trunk layer (not the
 * nextn layers past n_layer ()), under both the llama-server era and Ollama
 * 0.30+, which passes OLLAMA_KV_CACHE_TYPE on unchecked. An f16 cache, and
 * a head size of 96, load. */
static void
test_head_blocks (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b (131072);
  g_autoptr(GError) error = NULL;
  HrRuntimePrediction p;
  HrRuntimeInputs in;

  spec->key_length = spec->value_length = 80;
  hr_runtime_inputs_init (&in, spec, 8192);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.kv_type = HR_KV_CACHE_Q8_0;
  in.flash_attention = HR_FLASH_ATTENTION_AUTO;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "llama-server refuses a q8_0 KV cache for this model (\"K cache type q8_0 with block size 32 does "
                   "not divide n_embd_head_k=80\", src/llama-context.cpp): its heads are not a whole number of "
                   "32-value blocks, so it would not load. Use an f16 cache.");
  g_clear_error (&error);

  spec->key_length = 96;
  in.kv_type = HR_KV_CACHE_Q4_0;
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "\"V cache type q4_0 with block size 32 does not divide n_embd_head_v=80\""));
  g_clear_error (&error);

  in.kv_type = HR_KV_CACHE_F16;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  spec->value_length = 96;
  in.kv_type = HR_KV_CACHE_Q8_0;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);

  /* A sliding layer's own head size counts on that layer. */
  spec->key_length_swa = spec->value_length_swa = 72;
  spec->sliding_window = 1024;
  spec->layer_sliding = g_array_new (FALSE, TRUE, sizeof (guint8));
  for (guint i = 0; i < spec->layers; i++)
    {
      guint8 sliding = i == 3;

      g_array_append_val (spec->layer_sliding, sliding);
    }
  g_assert_false (hr_runtime_predict (&in, &p, &error));
  g_assert_nonnull (strstr (error->message, "n_embd_head_k=72"));
}

/* llama-server's prompt cache (--cache-ram, default 8192 MiB,
 * common/common.h; tools/server/server-task.cpp server_prompt_cache):
 * host memory filled as prompts are cached, never at load, so an upper
 * bound beside the total, not in it; Ollama 0.30+ passes no --cache-ram,
 * Ollama before 0.30 ran no llama-server. */
static void
test_prompt_cache (void)
{
  g_autoptr(HrModelSpec) spec = llama32_3b (131072);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) json = NULL;
  HrRuntimePrediction p;
  HrRuntimeInputs in;
  guint64 total;

  predict (spec, 8192, 1, &p);
  g_assert_cmpuint (p.prompt_cache_limit_bytes, ==, G_GUINT64_CONSTANT (8589934592));
  g_assert_true (has_note (&p, "Prompt cache (--cache-ram 8,192 MiB): as slots take new prompts, llama-server copies "
                               "the previous prompt's state (KV cells, recurrent state) to host memory, dropping the "
                               "oldest past the limit. Not allocated at load, so not in this total: up to "
                               "8,589,934,592 bytes of host memory. --cache-ram 0 turns it off."));
  json = hr_runtime_prediction_to_json (&p);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (json), "prompt_cache_limit_bytes"), ==,
                   G_GINT64_CONSTANT (8589934592));
  total = p.total_bytes;

  hr_runtime_inputs_init (&in, spec, 8192);
  g_assert_cmpint (in.cache_ram_mib, ==, 8192);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.parallel_slots = 1;
  in.batch = in.ubatch = 0;
  in.cache_ram_mib = 0;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.prompt_cache_limit_bytes, ==, 0);
  g_assert_cmpuint (p.total_bytes, ==, total);
  g_assert_true (has_note (&p, "--cache-ram 0: llama-server keeps no prompt cache in host memory."));

  in.cache_ram_mib = -1;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpuint (p.prompt_cache_limit_bytes, ==, G_MAXUINT64);
  g_clear_pointer (&json, json_node_unref);
  json = hr_runtime_prediction_to_json (&p);
  g_assert_true (json_object_get_null_member (json_node_get_object (json), "prompt_cache_limit_bytes"));

  in.cache_ram_mib = 8192;
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.batch = in.ubatch = 512;
  in.server_version = "0.31.0";
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpuint (p.prompt_cache_limit_bytes, ==, G_GUINT64_CONSTANT (8589934592));
  g_assert_true (has_note (&p, "Prompt cache: Ollama passes no --cache-ram, so llama-server's default of 8,192 MiB "
                               "holds: as slots take new prompts, the previous prompt's state (KV cells, recurrent "
                               "state) is copied to host memory, dropping the oldest past the limit. Not allocated at "
                               "load nor in the ollama ps size, so not in this total: up to 8,589,934,592 bytes of "
                               "host memory."));
  in.server_version = "0.29.0";
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpuint (p.prompt_cache_limit_bytes, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/runtime-llama-server/strings", test_strings);
  g_test_add_func ("/runtime-llama-server/defaults", test_defaults);
  g_test_add_func ("/runtime-llama-server/no-clamp", test_no_clamp);
  g_test_add_func ("/runtime-llama-server/streams", test_streams);
  g_test_add_func ("/runtime-llama-server/sliding-window", test_sliding_window);
  g_test_add_func ("/runtime-llama-server/fit", test_fit);
  g_test_add_func ("/runtime-llama-server/batch", test_batch);
  g_test_add_func ("/runtime-llama-server/errors", test_errors);
  g_test_add_func ("/runtime-llama-server/json", test_json);
  g_test_add_func ("/runtime-llama-server/head-blocks", test_head_blocks);
  g_test_add_func ("/runtime-llama-server/prompt-cache", test_prompt_cache);
  return g_test_run ();
}
