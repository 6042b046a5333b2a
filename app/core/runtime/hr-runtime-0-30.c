/* hr-runtime-0-30.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ollama 0.30 and newer (llama-server): flash attention and the KV cache
 * type as Ollama passes them, weights on the device, the KV cache and the
 * recurrent state. The rules come from Ollama's llm/llama_server.go and
 * llama.cpp's src/llama-model.cpp, src/llama-context.cpp,
 * src/llama-kv-cache.cpp and src/llama-kv-cache-iswa.cpp.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-runtime-private.h"
#include "hr-units.h"

#define SRC_030_WEIGHTS \
  "docs/runtimes.md \"Ollama 0.30 and newer\"; llama.cpp src/llama-model.cpp " \
  "load_tensors (the input token_embd stays in host memory; a tied output is loaded as a GPU copy); " \
  "Ollama llm/llama_server.go (size = the GPU buffers when every layer is offloaded)"
#define SRC_030_KV \
  "llama.cpp src/llama-kv-cache.cpp (per layer: cells x KV heads x (key + value length) x element size; " \
  "the context padded to 256 cells) and src/llama-kv-cache-iswa.cpp (sliding-window layers: " \
  "pad256(min(context, window x slots + ubatch))); element sizes from ggml: f16 2, q8_0 34/32, q4_0 18/32"
#define SRC_030_KV_STREAMS \
  "llama.cpp src/llama-context.cpp (kv_unified off, as with Ollama's -np: n_ctx_seq = pad256(n_ctx / slots), " \
  "one stream per slot), src/llama-kv-cache.cpp (n_stream streams of n_ctx_seq cells) and " \
  "src/llama-kv-cache-iswa.cpp (a sliding-window stream: pad256(min(n_ctx_seq, window + ubatch)) cells)"
#define SRC_LSRV_KV \
  "llama.cpp tools/server/server.cpp (-np auto: 4 slots, kv_unified true), src/llama-context.cpp " \
  "(kv_unified: n_ctx_seq = n_ctx = pad256(-c)), src/llama-kv-cache.cpp (n_stream 1 when unified) and " \
  "src/llama-kv-cache-iswa.cpp (a unified sliding-window stream: pad256(min(n_ctx, window x slots + ubatch)))"
#define SRC_030_WEIGHTS_CPU \
  "llama.cpp src/llama-model-loader.cpp (CPU backend: one CPU model buffer holds every tensor, " \
  "CPU_Mapped with mmap, the file's span of them) and Ollama llm/llama_server.go MemorySize " \
  "(with no GPU layers the size is the sum of every buffer llama-server logs)"
#define SRC_030_OUTPUT \
  "llama.cpp src/llama-context.cpp output_reserve (the logits of max(outputs, slots) rows: vocab x 4 " \
  "bytes each; llama-server reserves one output per slot) and Ollama llm/llama_server.go " \
  "(an `output buffer` line counts toward the size)"
#define SRC_030_RS \
  "llama.cpp src/llama-memory-recurrent.cpp (one r and one s row per recurrent layer and slot, f32: " \
  "max(1, n_seq_max) x (1 + n_rs_seq) rows, n_rs_seq 0 without speculative decoding) and " \
  "src/llama-hparams.cpp n_embd_r / n_embd_s (Mamba: (d_conv - 1) x (d_inner + 2 x n_group x d_state) " \
  "and d_state x d_inner; RWKV: token_shift_count x n_embd and n_embd x head_size; LFM2: n_embd x (L_cache - 1); " \
  "Kimi KDA: 3 x (d_conv - 1) x heads x head_dim and head_dim^2 x heads)"

/* ---------------------------------------------------------- settings */

static void
resolve_flash_attention_0_12 (Ctx *ctx)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;
  /* fs/ggml SupportsFlashAttention: not gemma2, and key length equal to
   * value length. */
  gboolean supported = !rt_arch_is (spec, "gemma2") && spec->key_length == spec->value_length;

  switch (ctx->in->flash_attention)
    {
    case HR_FLASH_ATTENTION_ON:
      out->flash_attention = supported;
      if (!supported)
        rt_note (ctx, _("Ollama 0.12 does not use flash attention for this model (gemma2, or key and value lengths differ): it is off."));
      break;
    case HR_FLASH_ATTENTION_OFF:
      out->flash_attention = FALSE;
      break;
    case HR_FLASH_ATTENTION_AUTO:
    default:
      /* fs/ggml FlashAttention(): on by default for these architectures. */
      out->flash_attention = supported &&
        (rt_arch_is (spec, "gemma3") || rt_arch_is (spec, "gptoss") || rt_arch_is (spec, "gpt-oss") ||
         rt_arch_is (spec, "qwen3") || rt_arch_is (spec, "qwen3moe") ||
         rt_arch_is (spec, "qwen3vl") || rt_arch_is (spec, "qwen3vlmoe"));
      rt_note (ctx, out->flash_attention ?
               _("Flash attention on: Ollama 0.12 turns it on by default for this architecture.") :
               _("Flash attention off: Ollama 0.12 turns it on only when OLLAMA_FLASH_ATTENTION is set or for gemma3, gpt-oss and qwen3."));
      break;
    }

  /* Ollama v0.12.10 llm/server.go NewLlamaServer: the KV cache type is set
   * only with flash attention on; otherwise it logs "quantized kv cache
   * requested but flash attention disabled" and the runner keeps f16. */
  out->kv_type = ctx->in->kv_type;
  if (out->kv_type != HR_KV_CACHE_F16 && !out->flash_attention)
    {
      if (ctx->text)
        out->kv_type_reason = _("Flash attention is off, and Ollama up to 0.13.3 sets a quantized KV cache only with it on (llm/server.go NewLlamaServer: \"quantized kv cache requested but flash attention disabled\"): the cache is f16.");
      rt_note (ctx, _("A %s KV cache was asked for, but flash attention is off: Ollama up to 0.13.3 falls back to an f16 cache with a warning (llm/server.go NewLlamaServer)."),
               hr_kv_cache_type_to_string (out->kv_type));
      out->kv_type = HR_KV_CACHE_F16;
    }
}

/* A quantized cache stores each head's row in blocks: QK8_0 = QK4_0 = 32
 * values (ggml/src/ggml-common.h, ggml_blck_size). */
static guint32
kv_block_size (HrKvCacheType type)
{
  return type == HR_KV_CACHE_Q8_0 || type == HR_KV_CACHE_Q4_0 ? 32 : 1;
}

/* llama.cpp src/llama-context.cpp llama_init_from_model, with flash
 * attention not disabled and a quantized K (then V) cache type: every
 * layer below n_layer () must have n_embd_head_k (il) (then
 * n_embd_head_v (il)) a multiple of the type's block size, else "K cache
 * type %s with block size %u does not divide n_embd_head_k=%u" and no
 * context. n_embd_head_v is {arch}.attention.value_length, or n_embd /
 * n_head without it (Kimi Linear: 2,304 / 32 = 72). Ollama 0.30+ passes
 * OLLAMA_KV_CACHE_TYPE to both caches unchecked (llm/server.go
 * NewLlamaServer, llm/llama_server.go startLlamaServer). */
static gboolean
check_head_blocks_0_30 (Ctx     *ctx,
                        GError **error)
{
  const HrModelSpec *spec = ctx->spec;
  HrKvCacheType type = ctx->out->kv_type;
  guint32 block = kv_block_size (type);
  guint32 n_layer;

  /* Both quantized types have blocks of 32: a spec that passed once passes
   * again (a failure is worked out again, for its message). */
  if (block == 32 && ctx->cache != NULL && ctx->cache->heads_block32 == 1)
    return TRUE;
  n_layer = spec->nextn_layers < spec->layers ? spec->layers - spec->nextn_layers : spec->layers;
  for (guint pass = 0; pass < 2 && block > 1; pass++)
    for (guint32 i = 0; i < n_layer; i++)
      {
        guint32 dim = pass == 0 ? rt_layer_key_length (spec, i) : rt_layer_value_length (spec, i);

        if (dim % block == 0)
          continue;
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                     _("llama-server refuses a %s KV cache for this model (\"%s cache type %s with block size %u does not divide n_embd_head_%s=%u\", src/llama-context.cpp): its heads are not a whole number of %u-value blocks, so it would not load. Use an f16 cache."),
                     hr_kv_cache_type_to_string (type), pass == 0 ? "K" : "V", hr_kv_cache_type_to_string (type), block,
                     pass == 0 ? "k" : "v", dim, block);
        return FALSE;
      }
  if (block == 32 && ctx->cache != NULL)
    ctx->cache->heads_block32 = 1;
  return TRUE;
}

/* Ollama 0.30+ (llm/llama_server.go appendFlashAttentionArgs and
 * LlamaServerFlashAttention): --flash-attn on when OLLAMA_FLASH_ATTENTION
 * is true, off when it is false or a device cannot (ml/device.go
 * FlashAttentionSupported: the CPU, Metal, ROCm, Vulkan and CUDA from
 * compute 6.0 but 7.2 can), else auto. OLLAMA_KV_CACHE_TYPE goes to both
 * --cache-type-k and --cache-type-v whatever that setting is. llama.cpp
 * (src/llama-context.cpp llama_init_from_model) then turns auto flash
 * attention on for a quantized V cache and refuses one with flash
 * attention off: "quantized V cache requires flash_attn to be enabled". */
static gboolean
resolve_flash_attention_0_30 (Ctx     *ctx,
                              GError **error)
{
  HrRuntimePrediction *out = ctx->out;
  gboolean lsrv = out->era == HR_RUNTIME_ERA_LLAMA_SERVER;
  guint key = ctx->have_version && !lsrv ? rt_version_key (ctx->version_major, ctx->version_minor, ctx->version_patch) : 0;

  switch (ctx->in->flash_attention)
    {
    case HR_FLASH_ATTENTION_ON:
      out->flash_attention = TRUE;
      break;
    case HR_FLASH_ATTENTION_OFF:
      out->flash_attention = FALSE;
      break;
    case HR_FLASH_ATTENTION_AUTO:
    default:
      out->flash_attention = TRUE;
      if (lsrv)
        {
          rt_note (ctx, "%s", _("Flash attention auto: llama-server's --flash-attn defaults to auto (common/common.h), which turns it on where the backend runs the flash-attention op for the model's layers (src/llama-context.cpp resolve_fused_ops; the CPU, CUDA and Metal backends do)."));
          break;
        }
      rt_note (ctx, "%s", ctx->in->backend == HR_RUNTIME_BACKEND_CPU ?
               _("Flash attention auto: Ollama starts llama-server with --flash-attn auto, which turns it on where the backend supports it (llama.cpp's CPU backend does).") :
               _("Flash attention auto: Ollama starts llama-server with --flash-attn auto, which turns it on where the GPU backend supports it (CUDA and Metal do)."));
      break;
    }

  out->kv_type = ctx->in->kv_type;
  if (out->kv_type != HR_KV_CACHE_F16 && ctx->have_version && key > 0 && key < rt_version_key (0, 30, 0) &&
      (key >= rt_version_key (0, 13, 4) ? ctx->in->flash_attention != HR_FLASH_ATTENTION_ON : !out->flash_attention))
    {
      /* Ollama 0.13.4 to 0.29 (llm/server.go NewLlamaServer, from commit
       * bd6c1d6b4 "flash attn: add auto mode for llama engine" until
       * 9db4bdbad moved every model to llm/llama_server.go in 0.30.0):
       * unless OLLAMA_FLASH_ATTENTION forces flash attention on, a
       * quantized OLLAMA_KV_CACHE_TYPE is dropped with the warning
       * "OLLAMA_FLASH_ATTENTION must be enabled to use a quantized
       * OLLAMA_KV_CACHE_TYPE" and the runner keeps f16. Before 0.13.4 the
       * same function dropped it when flash attention was off. */
      if (ctx->text)
        out->kv_type_reason = _("Ollama before 0.30 keeps a quantized KV cache only when flash attention is forced on (OLLAMA_FLASH_ATTENTION=1; llm/server.go NewLlamaServer: \"OLLAMA_FLASH_ATTENTION must be enabled to use a quantized OLLAMA_KV_CACHE_TYPE\"): the cache is f16.");
      rt_note (ctx, _("A %s KV cache was asked for, but Ollama %u.%u.%u drops it unless flash attention is forced on: the cache is f16 (llm/server.go NewLlamaServer)."),
               hr_kv_cache_type_to_string (out->kv_type), ctx->version_major, ctx->version_minor, ctx->version_patch);
      out->kv_type = HR_KV_CACHE_F16;
      return TRUE;
    }
  if (out->kv_type != HR_KV_CACHE_F16 && !out->flash_attention && lsrv)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("llama-server refuses a %s V cache without flash attention (\"quantized V cache requires flash_attn to be enabled\"): this model would not load. Turn flash attention on or auto, or use an f16 cache."),
                   hr_kv_cache_type_to_string (out->kv_type));
      return FALSE;
    }
  if (out->kv_type != HR_KV_CACHE_F16 && !out->flash_attention)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("llama-server refuses a %s KV cache without flash attention (\"quantized V cache requires flash_attn to be enabled\"), and Ollama 0.30+ passes OLLAMA_KV_CACHE_TYPE to the V cache too: this model would not load. Turn flash attention on or auto, or use an f16 cache."),
                   hr_kv_cache_type_to_string (out->kv_type));
      return FALSE;
    }
  if (out->kv_type != HR_KV_CACHE_F16 && (lsrv || key == 0 || key >= rt_version_key (0, 30, 0)))
    return check_head_blocks_0_30 (ctx, error);
  return TRUE;
}

/**
 * rt_resolve_flash_attention: (skip)
 * @ctx: the prediction under way
 * @error: set when the server would refuse the setting
 *
 * Resolves the flash-attention setting and the effective KV cache type of
 * the prediction's era.
 *
 * Returns: %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT when llama-server
 *   would refuse the combination (Ollama 0.30+ only).
 */
gboolean
rt_resolve_flash_attention (Ctx     *ctx,
                            GError **error)
{
  if (ctx->out->era == HR_RUNTIME_ERA_OLLAMA_0_12)
    {
      resolve_flash_attention_0_12 (ctx);
      return TRUE;
    }
  return resolve_flash_attention_0_30 (ctx, error);
}

/* What --fit measures at one context: the model, context (KV) and
 * compute buffers of the prediction (src/llama-context.cpp
 * memory_breakdown: not the output buffer; the projector, a separate
 * model, aside either). */
static guint64
fit_used (Ctx     *ctx,
          guint32  n_ctx)
{
  HrRuntimeInputs in = *ctx->in;
  HrRuntimePrediction p;
  guint64 aside;

  in.context_tokens = n_ctx;
  in.free_bytes = 0;
  in.skip_text = TRUE;
  if (!hr_runtime_predict (&in, &p, NULL))
    return G_MAXUINT64;
  aside = (guint64) MAX (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_PROJECTOR), 0) +
          (guint64) MAX (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_OUTPUT), 0);
  return p.total_bytes - MIN (aside, p.total_bytes);
}

/* common/fit.cpp common_params_fit_impl step 2, for an unset -c: when the
 * buffers at n_ctx_max leave less than the margin (--fit-target, 1 GiB)
 * of @free, the context falls linearly between n_ctx_min = 4096 x streams
 * (--fit-ctx) and n_ctx_max to what fits, rounded down to 256 x streams. */
static guint64
fit_context (Ctx     *ctx,
             guint64  n_ctx_max,
             guint64  streams)
{
  guint64 free = ctx->in->free_bytes;
  guint64 margin = ctx->in->fit_target_bytes > 0 ? ctx->in->fit_target_bytes : 1024 * MIB;
  guint64 n_ctx_min = 4096 * streams;
  guint64 used_max, used_min, target, n_ctx, align = 256 * streams;
  Counts *c = &ctx->counts;

  used_max = fit_used (ctx, (guint32) n_ctx_max);
  if (used_max <= free && free - used_max >= margin)
    return n_ctx_max;
  if (n_ctx_max <= n_ctx_min)
    return n_ctx_max;
  used_min = fit_used (ctx, (guint32) n_ctx_min);
  target = free > margin ? free - margin : 0;
  if (target <= used_min || used_max <= used_min)
    {
      rt_note (ctx, _("--fit: even %s tokens leave less than %s MiB free of %s bytes, so it takes the smallest context, %s, and would move layers off the device (not predicted here)."),
               rt_count (c, n_ctx_min), rt_count (c, margin / MIB), rt_count (c, free), rt_count (c, n_ctx_min));
      return n_ctx_min;
    }
  n_ctx = n_ctx_min + (n_ctx_max - n_ctx_min) * (target - used_min) / (used_max - used_min);
  n_ctx = MAX (n_ctx - n_ctx % align, n_ctx_min);
  rt_note (ctx, _("--fit: %s tokens would take %s bytes, leaving less than %s MiB of the %s bytes free, so llama-server shrinks the context between %s (%s bytes) and %s to %s (common/fit.cpp: linearly, rounded down to %s)."),
           rt_count (c, n_ctx_max), rt_count (c, used_max), rt_count (c, margin / MIB), rt_count (c, free),
           rt_count (c, n_ctx_min), rt_count (c, used_min), rt_count (c, n_ctx_max), rt_count (c, n_ctx), rt_count (c, align));
  return n_ctx;
}

/**
 * rt_resolve_llama_server: (skip)
 * @ctx: the prediction under way (era %HR_RUNTIME_ERA_LLAMA_SERVER)
 * @error: set when there is no context to size
 *
 * llama-server's own settings, as it resolves them when started by hand:
 *  - slots: -np defaults to -1, auto (common/arg.cpp
 *    common_params_parser_init for LLAMA_EXAMPLE_SERVER), which
 *    tools/server/server.cpp turns into n_parallel = 4 with kv_unified =
 *    true; an -np N given keeps kv_unified at its default, false
 *    (common/common.h), one stream per slot;
 *  - the context: -c is n_ctx, the whole cache; unset (0), --fit (on by
 *    default, common/common.h fit_params) sets n_ctx = n_ctx_train x
 *    n_seq_max before anything is measured (common/fit.cpp
 *    common_fit_params), so every slot gets the trained context; nothing
 *    clamps n_ctx to the trained context (src/llama-context.cpp only
 *    warns, tools/server/server-context.cpp n_ctx_slot() caps what one
 *    request may use, not the cache);
 *  - with free_bytes known and -c unset, --fit's shrinking (fit_context()).
 *
 * Sets out->context_tokens (n_ctx), out->parallel_slots and
 * out->kv_unified.
 *
 * Returns: %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT when -c is unset
 *   and the model has no trained context.
 */
gboolean
rt_resolve_llama_server (Ctx     *ctx,
                         GError **error)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;
  guint64 n_ctx, per_slot;
  Counts *c = &ctx->counts;

  if (ctx->in->parallel_slots > 0)
    {
      out->parallel_slots = ctx->in->parallel_slots;
      out->kv_unified = FALSE;
    }
  else
    {
      out->parallel_slots = 4;
      out->kv_unified = TRUE;
    }

  if (ctx->in->context_tokens > 0)
    n_ctx = ctx->in->context_tokens;
  else if (spec->context_length == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("%s names no trained context, which llama-server takes when -c is not given: give a context"),
                   spec->name ? spec->name : _("the model"));
      return FALSE;
    }
  else
    {
      /* common/fit.cpp saturates at UINT32_MAX. */
      n_ctx = MIN ((guint64) spec->context_length * out->parallel_slots, (guint64) G_MAXUINT32);
      if (ctx->in->free_bytes > 0)
        rt_note (ctx, _("No -c: llama-server's --fit (on by default) sizes the cache for every slot at the trained context, n_ctx = n_ctx_train x slots = %s x %s = %s (common/fit.cpp), and shrinks it where that would leave less than its margin free (--fit-target, 1 GiB), to no less than 4,096 per stream (--fit-ctx)."),
                 rt_count (c, spec->context_length), rt_count (c, out->parallel_slots), rt_count (c, n_ctx));
      else
        rt_note (ctx, _("No -c: llama-server's --fit (on by default) sizes the cache for every slot at the trained context, n_ctx = n_ctx_train x slots = %s x %s = %s (common/fit.cpp). Where that would leave less than 1 GiB of the device's memory free (--fit-target), --fit shrinks the context, to no less than 4,096 per stream (--fit-ctx); Headroom predicts the size before any shrinking."),
                 rt_count (c, spec->context_length), rt_count (c, out->parallel_slots), rt_count (c, n_ctx));
      if (ctx->in->free_bytes > 0)
        n_ctx = fit_context (ctx, n_ctx, out->kv_unified ? 1 : out->parallel_slots);
    }
  out->context_tokens = (guint32) n_ctx;

  /* What one request may use: n_ctx_seq, capped at the trained context
   * (tools/server/server-context.cpp n_ctx_slot()). */
  n_ctx = rt_pad_up (n_ctx, KV_PAD_0_30);
  per_slot = out->kv_unified ? n_ctx : rt_pad_up (n_ctx / out->parallel_slots, KV_PAD_0_30);
  if (spec->context_length > 0 && per_slot > spec->context_length)
    rt_note (ctx, _("One request may use at most %s tokens, the trained context (tools/server/server-context.cpp n_ctx_slot() caps each slot at it, and llama-server warns), but the cache of %s cells per stream is allocated whole: no clamp."),
             rt_count (c, spec->context_length), rt_count (c, per_slot));
  else if (out->kv_unified)
    rt_note (ctx, _("The %s slots share one cache of %s cells: one request may use all of it, and together they can hold %s tokens (tools/server/server.cpp, -np auto)."),
             rt_count (c, out->parallel_slots), rt_count (c, n_ctx), rt_count (c, n_ctx));
  return TRUE;
}

/* ------------------------------------------------------------ era 0.30 */

/* The per-layer sums of layout_0_30(): KV elements per token of each
 * layer kind, which depend on the spec and flash attention alone. */
static void
layer_sums_0_30 (Ctx       *ctx,
                 LayerSums *sums)
{
  const HrModelSpec *spec = ctx->spec;
  HrRuntimePrediction *out = ctx->out;
  guint64 v_max = 0;
  gboolean uniform;
  guint n_loop;

  memset (sums, 0, sizeof *sums);
  /* Without flash attention V is stored transposed, and every layer's V
   * is as wide as the widest layer's (src/llama-kv-cache.cpp:
   * n_embd_v_gqa = v_trans ? n_embd_v_gqa_max () : n_embd_v_gqa (il)). */
  /* A model whose layers are all alike is summed from its first layer
   * (rt_layers_uniform()): the same figures, without a loop per layer on
   * every slider step. */
  uniform = rt_layers_uniform (spec);
  n_loop = uniform ? MIN (spec->layers, 1) : spec->layers;
  if (!out->flash_attention && !spec->kv_latent)
    for (guint i = 0; i < n_loop; i++)
      v_max = MAX (v_max, rt_mul (ctx, hr_model_spec_layer_kv_heads (spec, i),
                                  rt_layer_value_length (spec, i)));

  for (guint i = 0; i < n_loop; i++)
    {
      guint32 kvh = hr_model_spec_layer_kv_heads (spec, i);
      guint64 elements;

      if (rt_layer_recurrent (spec, i))
        sums->n_recurrent++;
      if (kvh == 0)
        continue;
      /* Under multi-head latent attention llama.cpp caches one latent of
       * key_length (kv_lora_rank + rope dims) per KV head and no V at all
       * (src/llama-kv-cache.cpp: has_v = !is_mla). */
      if (spec->kv_latent)
        elements = rt_mul (ctx, kvh, spec->key_length);
      else
        {
          guint64 v = v_max > 0 ? v_max : rt_mul (ctx, kvh, rt_layer_value_length (spec, i));

          elements = rt_add (ctx, rt_mul (ctx, kvh, rt_layer_key_length (spec, i)), v);
          if (elements != rt_mul (ctx, kvh, rt_add (ctx, spec->key_length, spec->value_length)))
            sums->mixed_heads = TRUE;
        }
      if (rt_layer_sliding (spec, i))
        {
          if (sums->n_sliding > 0 && kvh != sums->kvh_sliding)
            sums->mixed_heads = TRUE;
          sums->kvh_sliding = kvh;
          sums->n_sliding++;
          sums->sliding_elements = rt_add (ctx, sums->sliding_elements, elements);
        }
      else
        {
          if (sums->n_global > 0 && kvh != sums->kvh_global)
            sums->mixed_heads = TRUE;
          sums->kvh_global = kvh;
          sums->n_global++;
          sums->global_elements = rt_add (ctx, sums->global_elements, elements);
        }
    }
  if (uniform && spec->layers > 1)
    {
      sums->n_recurrent *= spec->layers;
      sums->n_sliding *= spec->layers;
      sums->n_global *= spec->layers;
      sums->sliding_elements = rt_mul (ctx, sums->sliding_elements, spec->layers);
      sums->global_elements = rt_mul (ctx, sums->global_elements, spec->layers);
    }
}

/* The layer sums (layer_sums_0_30()): kept in the cache between slider
 * steps (the context does not enter) and read in place, or worked out
 * into @scratch. */
static const LayerSums *
layer_sums_of (Ctx       *ctx,
               LayerSums *scratch)
{
  HrRuntimeSpecCache *cache = ctx->cache;
  int flash = !!ctx->out->flash_attention;
  gboolean before = ctx->overflow;
  LayerSums *sums = cache != NULL ? &cache->sums : scratch;

  if (cache == NULL || cache->sums_flash != flash)
    {
      ctx->overflow = FALSE;
      layer_sums_0_30 (ctx, sums);
      sums->overflow = (guint8) ctx->overflow;
      if (cache != NULL)
        cache->sums_flash = (gint8) flash;
    }
  ctx->overflow = before || sums->overflow;
  return sums;
}

/* The cells llama.cpp gives each layer, and which layers there are. */
static void
layout_0_30 (Ctx    *ctx,
             Layout *l)
{
  HrRuntimePrediction *out = ctx->out;
  gboolean lsrv = out->era == HR_RUNTIME_ERA_LLAMA_SERVER;
  /* The batch defaults: Ollama's num_batch 512 (api/types.go), which it
   * passes as -b and -ub; llama-server's own -b 2048 and -ub 512
   * (common/common.h n_batch, n_ubatch). */
  guint64 batch = ctx->in->batch > 0 ? ctx->in->batch : lsrv ? 2048 : 512;
  LayerSums scratch;
  const LayerSums *sums;

  /* Every field is set below (a memset of the whole layout costs more
   * than the few it would cover). */
  l->slots = out->parallel_slots;
  l->unified = out->kv_unified;
  /* Ollama passes -c num_ctx x slots; llama-server's -c is n_ctx itself. */
  l->ctx_total = lsrv ? out->context_tokens : rt_mul (ctx, out->context_tokens, l->slots);
  rt_layout_cells (ctx, l, batch, ctx->in->ubatch > 0 ? ctx->in->ubatch : 512, ctx->dims->sliding_window);
  out->ubatch = (guint32) l->ubatch;

  sums = layer_sums_of (ctx, &scratch);
  rt_layout_sums (l, sums);
  out->kv_cells = l->n_global > 0 || l->n_sliding == 0 ? (guint32) MIN (l->cells, G_MAXUINT32) : 0;
  out->kv_cells_sliding = l->n_sliding > 0 ? (guint32) MIN (l->cells_swa, G_MAXUINT32) : 0;
}

static void
weights_term_0_30 (Ctx           *ctx,
                   const Figures *f)
{
  const HrModelSpec *spec = ctx->spec;
  gboolean cpu = ctx->in->backend == HR_RUNTIME_BACKEND_CPU;
  guint64 weights;
  HrRuntimeTerm *term;

  if (cpu)
    {
      /* One CPU buffer holds every tensor; nothing stays behind. */
      weights = f->all;
      ctx->out->host_bytes = 0;
    }
  else
    {
      weights = f->tied ? f->all : (f->all > f->token_embd ? f->all - f->token_embd : 0);
      ctx->out->host_bytes = f->token_embd;
    }
  term = rt_add_term (ctx, HR_RUNTIME_TERM_WEIGHTS, (gint64) MIN (weights, (guint64) G_MAXINT64),
                      cpu ? SRC_030_WEIGHTS_CPU : SRC_030_WEIGHTS);
  if (!ctx->text)
    return;
  if (cpu)
    {
      g_snprintf (term->formula, sizeof term->formula, _("every tensor = %s bytes"),
                  rt_count (&ctx->counts, f->all));
      g_snprintf (term->note, sizeof term->note, "%s",
                  _("On the CPU backend every tensor, token_embd too, is in the one model buffer, and Ollama counts every buffer. On CPUs with AVX2 or NEON llama.cpp may also copy Q4_0, Q4_K and Q8_0 matrices into a CPU_REPACK buffer, which Ollama counts as well; Headroom does not predict that copy."));
    }
  else if (f->tied)
    {
      g_snprintf (term->formula, sizeof term->formula,
                  _("every tensor = %s bytes (tied embeddings: the output is token_embd's GPU copy)"),
                  rt_count (&ctx->counts, f->all));
      g_snprintf (term->note, sizeof term->note,
                  _("The model has no output tensor, so llama.cpp loads token_embd a second time as the output on the GPU; the input copy (%s bytes) stays in host memory and is not in the ollama ps size."),
                  rt_count (&ctx->counts, f->token_embd));
    }
  else
    {
      g_snprintf (term->formula, sizeof term->formula,
                  _("every tensor - token_embd = %s - %s = %s bytes"),
                  rt_count (&ctx->counts, f->all), rt_count (&ctx->counts, f->token_embd), rt_count (&ctx->counts, weights));
      g_snprintf (term->note, sizeof term->note,
                  _("llama.cpp keeps the input embedding (token_embd, %s bytes) in host memory; the model has its own output tensor, so token_embd is not on the GPU and not in the ollama ps size."),
                  rt_count (&ctx->counts, f->token_embd));
    }
  if (!f->exact)
    rt_append_note (term, spec->file_bytes > 0 && ctx->in->precision == NULL ?
                    _("Without a tensor list the file size stands for every tensor (it also holds the GGUF header, a few MB).") :
                    _("Without a tensor list every tensor is parameters x bits / 8."));
}

static void
kv_formula_0_30 (Ctx           *ctx,
                 const Layout  *l,
                 HrRuntimeTerm *term,
                 const char    *elem,
                 guint64        kv_bytes)
{
  const HrModelSpec *spec = ctx->spec;

  if (spec->kv_latent)
    g_snprintf (term->formula, sizeof term->formula,
                _("%u layers x %u KV head x %u latent elements (multi-head latent attention: no V cache) x %s cells x %s bytes = %s bytes"),
                l->n_global + l->n_sliding, l->n_sliding > 0 ? l->kvh_sliding : l->kvh_global, spec->key_length,
                rt_count (&ctx->counts, l->n_sliding > 0 ? l->cells_swa : l->cells), elem, rt_count (&ctx->counts, kv_bytes));
  else if (l->mixed_heads)
    g_snprintf (term->formula, sizeof term->formula,
                _("sum over layers of KV heads x (%u + %u) x cells x %s bytes; global layers %s cells, sliding layers %s cells = %s bytes"),
                spec->key_length, spec->value_length, elem,
                rt_count (&ctx->counts, l->cells), rt_count (&ctx->counts, l->cells_swa), rt_count (&ctx->counts, kv_bytes));
  else if (l->n_sliding > 0 && l->n_global > 0)
    g_snprintf (term->formula, sizeof term->formula,
                _("%u global layers x %u KV heads x (%u + %u) x %s cells x %s bytes + %u sliding layers x %u KV heads x (%u + %u) x %s cells x %s bytes = %s bytes"),
                l->n_global, l->kvh_global, spec->key_length, spec->value_length, rt_count (&ctx->counts, l->cells), elem,
                l->n_sliding, l->kvh_sliding, spec->key_length, spec->value_length, rt_count (&ctx->counts, l->cells_swa), elem,
                rt_count (&ctx->counts, kv_bytes));
  else
    g_snprintf (term->formula, sizeof term->formula,
                _("%u layers x %u KV heads x (%u + %u) x %s cells x %s bytes = %s bytes"),
                l->n_sliding > 0 ? l->n_sliding : l->n_global, l->n_sliding > 0 ? l->kvh_sliding : l->kvh_global,
                spec->key_length, spec->value_length,
                rt_count (&ctx->counts, l->n_sliding > 0 ? l->cells_swa : l->cells), elem, rt_count (&ctx->counts, kv_bytes));
}

static void
kv_note_0_30 (Ctx           *ctx,
              const Layout  *l,
              HrRuntimeTerm *term)
{
  const HrModelSpec *spec = ctx->spec;
  Counts *c = &ctx->counts;

  if (l->unified && l->n_sliding > 0)
    g_snprintf (term->note, sizeof term->note,
                _("llama-server's -np auto: %s slots share one unified stream of pad256(n_ctx) = pad256(%s) = %s cells; a sliding-window layer's stream holds pad256(min(%s, window x slots + ubatch)) = pad256(min(%s, %s x %s + %s)) = %s cells."),
                rt_count (c, l->slots), rt_count (c, l->ctx_total), rt_count (c, l->cells),
                rt_count (c, l->cells), rt_count (c, l->cells), rt_count (c, spec->sliding_window),
                rt_count (c, l->slots), rt_count (c, l->ubatch), rt_count (c, l->cells_swa));
  else if (l->unified)
    g_snprintf (term->note, sizeof term->note,
                _("llama-server's -np auto: %s slots share one unified stream of pad256(n_ctx) = pad256(%s) = %s cells."),
                rt_count (c, l->slots), rt_count (c, l->ctx_total), rt_count (c, l->cells));
  else if (ctx->out->era == HR_RUNTIME_ERA_LLAMA_SERVER && l->slots > 1)
    g_snprintf (term->note, sizeof term->note,
                _("With -np %s llama-server's cache is not unified: each slot has its own stream of pad256(pad256(%s) / %s) = %s cells, %s in all."),
                rt_count (c, l->slots), rt_count (c, l->ctx_total), rt_count (c, l->slots),
                rt_count (c, l->cells_seq), rt_count (c, l->cells));
  else if (l->slots > 1 && l->n_sliding > 0)
    g_snprintf (term->note, sizeof term->note,
                _("Ollama passes -np %s, so llama.cpp's cache is not unified: each slot has its own stream of pad256(pad256(%s x %s) / %s) = %s cells, %s in all; a sliding-window layer's stream holds pad256(min(%s, window + ubatch)) = pad256(min(%s, %s + %s)) = %s cells, %s in all."),
                rt_count (c, l->slots), rt_count (c, ctx->out->context_tokens), rt_count (c, l->slots), rt_count (c, l->slots),
                rt_count (c, l->cells_seq), rt_count (c, l->cells), rt_count (c, l->cells_seq), rt_count (c, l->cells_seq),
                rt_count (c, spec->sliding_window), rt_count (c, l->ubatch), rt_count (c, l->cells_swa_seq), rt_count (c, l->cells_swa));
  else if (l->slots > 1)
    g_snprintf (term->note, sizeof term->note,
                _("Ollama passes -np %s, so llama.cpp's cache is not unified: each slot has its own stream of pad256(pad256(%s x %s) / %s) = %s cells, %s in all."),
                rt_count (c, l->slots), rt_count (c, ctx->out->context_tokens), rt_count (c, l->slots), rt_count (c, l->slots),
                rt_count (c, l->cells_seq), rt_count (c, l->cells));
  else if (l->n_sliding > 0)
    g_snprintf (term->note, sizeof term->note,
                _("Cells = pad256(num_ctx x slots) = pad256(%s x %s) = %s; sliding-window layers hold pad256(min(%s, window x slots + ubatch)) = pad256(min(%s, %s x %s + %s)) = %s cells."),
                rt_count (c, ctx->out->context_tokens), rt_count (c, l->slots), rt_count (c, l->cells),
                rt_count (c, l->cells), rt_count (c, l->ctx_total), rt_count (c, spec->sliding_window),
                rt_count (c, l->slots), rt_count (c, l->ubatch), rt_count (c, l->cells_swa));
  else
    g_snprintf (term->note, sizeof term->note,
                _("Cells = pad256(num_ctx x slots) = pad256(%s x %s) = %s: llama.cpp pads the cache to a multiple of 256."),
                rt_count (c, ctx->out->context_tokens), rt_count (c, l->slots), rt_count (c, l->cells));
  if (spec->sliding_window > 0 && l->n_sliding == 0 && rt_arch_is (spec, "phi3"))
    rt_append_note (term, _("llama.cpp switches the phi3 architecture's sliding window off: every layer holds the full context."));
}

static void
kv_term_0_30 (Ctx          *ctx,
              const Layout *l)
{
  guint32 per_den;
  guint64 per_num = hr_kv_cache_element_bytes_scaled (ctx->out->kv_type, &per_den);
  guint64 kv_bytes = rt_kv_bytes (ctx, l, per_num, per_den);
  HrRuntimeTerm *term;
  char elem[32];

  /* A purely recurrent model: llama_memory_recurrent, no KV cache
   * (src/llama-model.cpp create_memory). */
  if (ctx->recurrent_only)
    return;
  term = rt_add_term (ctx, HR_RUNTIME_TERM_KV_CACHE, (gint64) MIN (kv_bytes, (guint64) G_MAXINT64),
                      l->unified ? SRC_LSRV_KV : l->slots > 1 ? SRC_030_KV_STREAMS : SRC_030_KV);
  if (!ctx->text)
    return;
  if (per_den == 1)
    g_snprintf (elem, sizeof elem, "%" G_GUINT64_FORMAT, per_num);
  else
    g_snprintf (elem, sizeof elem, "%" G_GUINT64_FORMAT "/%u", per_num, per_den);
  kv_formula_0_30 (ctx, l, term, elem, kv_bytes);
  kv_note_0_30 (ctx, l, term);
}

/* The architectures whose recurrent state llama.cpp can roll back
 * (src/llama-arch.cpp llm_arch_supports_rs_rollback); for any other,
 * src/llama-context.cpp clamps n_rs_seq to 0. */
static const char * const rs_rollback_archs[] = {
  "kimi-k3", "qwen35", "qwen35moe", "qwen4exp", "deepseek4", "nemotron_h", "nemotron_h_moe",
  "lfm2", "lfm2moe", "bailingmoe3", NULL,
};

/* Whether Ollama starts an MTP draft for the file: llm/llama_server.go
 * hasMTPDraft, `{arch}.nextn_predict_layers` > 0, or for qwen35 and
 * qwen35moe tensors named "mtp." (hasLegacyQwenMTPDraft). */
static gboolean
ollama_mtp_draft (const HrModelSpec *spec)
{
  if (spec->nextn_layers > 0)
    return TRUE;
  if (spec->tensors == NULL || !(rt_arch_is (spec, "qwen35") || rt_arch_is (spec, "qwen35moe")))
    return FALSE;
  for (guint i = 0; i < spec->tensors->len; i++)
    {
      const HrTensorInfo *t = g_ptr_array_index (spec->tensors, i);

      if (t->name != NULL && g_str_has_prefix (t->name, "mtp."))
        return TRUE;
    }
  return FALSE;
}

/* llama.cpp's cparams.n_rs_seq, the recurrent-state snapshots each slot
 * keeps for a draft's rollback: llama-server sets it to
 * --spec-draft-n-max when --spec-type is draft-mtp, draft-eagle3,
 * draft-dflash or draft-dspark (common/common.h need_n_rs_seq,
 * common/common.cpp common_context_params_to_llama), 0 otherwise, and
 * llama.cpp keeps it only where the architecture rolls back
 * (llm_arch_supports_rs_rollback). Ollama 0.30+ passes --spec-type
 * draft-mtp --spec-draft-n-max draft_num_predict (4 by default) for a
 * GGUF with nextn layers (llm/llama_server.go NewLlamaServerRunner,
 * appendDraftArgs); llama-server run by hand starts no draft unless told
 * (common_params_speculative types = { NONE }). */
static guint32
rs_seq_0_30 (Ctx *ctx)
{
  const HrModelSpec *spec = ctx->spec;

  if (ctx->out->era != HR_RUNTIME_ERA_OLLAMA_0_30 || ctx->in->draft_num_predict == 0 ||
      spec->architecture == NULL || !g_strv_contains (rs_rollback_archs, spec->architecture) ||
      !ollama_mtp_draft (spec))
    return 0;
  return ctx->in->draft_num_predict;
}

static void
recurrent_term_0_30 (Ctx          *ctx,
                     const Layout *l)
{
  const HrModelSpec *spec = ctx->spec;
  guint32 rs_seq;
  guint64 rs;
  HrRuntimeTerm *term;

  if (l->n_recurrent == 0)
    return;
  /* src/llama-memory-recurrent.cpp: n_rows = mem_size x (1 + n_rs_seq). */
  rs_seq = ctx->out->rs_seq = rs_seq_0_30 (ctx);
  rs = rt_mul (ctx, rt_mul (ctx, rt_mul (ctx, rt_mul (ctx, rt_recurrent_values (ctx), l->n_recurrent), l->slots),
                            1 + (guint64) rs_seq), 4);
  term = rt_add_term (ctx, HR_RUNTIME_TERM_RECURRENT_STATE, (gint64) MIN (rs, (guint64) G_MAXINT64), SRC_030_RS);
  if (!ctx->text)
    return;
  if (rs_seq > 0)
    g_snprintf (term->formula, sizeof term->formula,
                g_dngettext (GETTEXT_PACKAGE,
                             "%u recurrent layers x (%s + %s) values x %s slot x (1 + %u draft snapshots) x 4 bytes = %s bytes",
                             "%u recurrent layers x (%s + %s) values x %s slots x (1 + %u draft snapshots) x 4 bytes = %s bytes",
                             l->slots),
                l->n_recurrent, rt_count (&ctx->counts, spec->recurrent_r), rt_count (&ctx->counts, spec->recurrent_s),
                rt_count (&ctx->counts, l->slots), rs_seq, rt_count (&ctx->counts, rs));
  else
    g_snprintf (term->formula, sizeof term->formula,
                g_dngettext (GETTEXT_PACKAGE, "%u recurrent layers x (%s + %s) values x %s slot x 4 bytes = %s bytes",
                             "%u recurrent layers x (%s + %s) values x %s slots x 4 bytes = %s bytes", l->slots),
                l->n_recurrent, rt_count (&ctx->counts, spec->recurrent_r), rt_count (&ctx->counts, spec->recurrent_s),
                rt_count (&ctx->counts, l->slots), rt_count (&ctx->counts, rs));
  if (rs_seq > 0)
    rt_note (ctx, _("Ollama starts an MTP draft for this file (--spec-type draft-mtp --spec-draft-n-max %u, llm/llama_server.go): each slot keeps %u more recurrent-state rows to roll a rejected draft back (llama.cpp n_rs_seq). The draft's own context (the MTP layer's KV cache, its compute) is not counted; draft_num_predict 0 turns it off."),
             rs_seq, rs_seq);
  else if (ctx->out->era == HR_RUNTIME_ERA_LLAMA_SERVER && spec->nextn_layers > 0 &&
           spec->architecture != NULL && g_strv_contains (rs_rollback_archs, spec->architecture))
    rt_note (ctx, _("llama-server run by hand starts no MTP draft unless --spec-type draft-mtp is given; with it, each slot keeps --spec-draft-n-max (default 3) more recurrent-state rows (llama.cpp n_rs_seq), which this figure leaves out."));
  {
    /* How r and s were worked out follows, when the whole of it fits the
     * note; a longer one is left to the model's facts (gguf, the cards)
     * rather than cut in the middle of a word. */
    const char *how = spec->recurrent_source != NULL ? spec->recurrent_source : "";
    const char *fmt = _("Each recurrent layer keeps, per slot, a row of n_embd_r = %s values (the convolution or token-shift state) and one of n_embd_s = %s values (the state itself), always f32, whatever the context: it does not grow with num_ctx.%s%s");
    const char *r = rt_count (&ctx->counts, spec->recurrent_r);
    const char *st = rt_count (&ctx->counts, spec->recurrent_s);
    int len = g_snprintf (term->note, sizeof term->note, fmt, r, st, "", "");

    if (*how != '\0' && (gsize) len + 1 + strlen (how) < sizeof term->note)
      g_snprintf (term->note, sizeof term->note, fmt, r, st, " ", how);
  }
}

/* llama-server's context checkpoints: tools/server/server-context.cpp
 * create_checkpoint copies a slot's memory with
 * LLAMA_STATE_SEQ_FLAGS_PARTIAL_ONLY, which for a hybrid or recurrent
 * model is the recurrent state alone (src/llama-memory-hybrid.cpp
 * state_write skips the attention cache), into a host std::vector, up to
 * n_ctx_checkpoints = 32 per slot (common/common.h; Ollama's
 * llm/llama_server.go passes no --ctx-checkpoints), one per completion,
 * spaced checkpoint_min_step = 8,192 tokens apart once the list is full.
 * Nothing of it exists at load and Ollama's size reads the buffer lines
 * only, so it is a note, not a term nor host_bytes. */
static void
checkpoint_note_0_30 (Ctx          *ctx,
                      const Layout *l)
{
  guint64 per;

  if (l->n_recurrent == 0 || !ctx->text)
    return;
  per = rt_mul (ctx, rt_mul (ctx, rt_recurrent_values (ctx), l->n_recurrent), 4);
  rt_note (ctx, _("llama-server also keeps up to 32 context checkpoints per slot in host memory, each a copy of that slot's recurrent state (%s bytes): up to %s bytes per slot, %s for all %s slots, made as prompts are processed (tools/server/server-context.cpp create_checkpoint; Ollama passes no --ctx-checkpoints). They are not allocated at load and not in the ollama ps size, so they are not in this total."),
           rt_count (&ctx->counts, per), rt_count (&ctx->counts, rt_mul (ctx, per, 32)),
           rt_count (&ctx->counts, rt_mul (ctx, rt_mul (ctx, per, 32), l->slots)), rt_count (&ctx->counts, l->slots));
}

/* llama-server's prompt cache (tools/server/server-context.cpp: a
 * server_prompt_cache of --cache-ram MiB, default 8192, common/common.h
 * cache_ram_mib; Ollama's llm/llama_server.go passes no --cache-ram): when
 * a slot takes a new task its previous prompt's state (the slot's KV
 * cells, recurrent state and checkpoints, server-task.cpp
 * server_prompt_cache::alloc) is copied into host std::vectors, the oldest
 * evicted past the limit; -1 lifts the byte limit and keeps n_ctx tokens
 * of prompts (limit_tokens = n_ctx, server_prompt_cache::update). Nothing
 * exists at load, so it is an upper bound and a note, not a term nor
 * host_bytes. */
static void
prompt_cache_note_0_30 (Ctx *ctx)
{
  gint32 mib = ctx->in->cache_ram_mib;
  gboolean lsrv = ctx->out->era == HR_RUNTIME_ERA_LLAMA_SERVER;

  /* Ollama before 0.30 ran its own runner, not llama-server. */
  if (!lsrv && ctx->have_version &&
      rt_version_key (ctx->version_major, ctx->version_minor, ctx->version_patch) < rt_version_key (0, 30, 0))
    return;
  if (mib == 0)
    {
      ctx->out->prompt_cache_limit_bytes = 0;
      if (ctx->text && lsrv)
        rt_note (ctx, "%s", _("--cache-ram 0: llama-server keeps no prompt cache in host memory."));
      return;
    }
  if (mib < 0)
    {
      ctx->out->prompt_cache_limit_bytes = G_MAXUINT64;
      if (ctx->text)
        rt_note (ctx, _("Prompt cache (--cache-ram -1): no byte limit; llama-server keeps up to n_ctx = %s tokens of earlier prompts' state in host memory (about the KV cache's size again), copied as slots take new prompts, not at load, so not in this total."),
                 rt_count (&ctx->counts, ctx->out->context_tokens));
      return;
    }
  ctx->out->prompt_cache_limit_bytes = rt_mul (ctx, (guint64) mib, 1024 * 1024);
  if (!ctx->text)
    return;
  rt_note (ctx, lsrv
           ? _("Prompt cache (--cache-ram %s MiB): as slots take new prompts, llama-server copies the previous prompt's state (KV cells, recurrent state) to host memory, dropping the oldest past the limit. Not allocated at load, so not in this total: up to %s bytes of host memory. --cache-ram 0 turns it off.")
           : _("Prompt cache: Ollama passes no --cache-ram, so llama-server's default of %s MiB holds: as slots take new prompts, the previous prompt's state (KV cells, recurrent state) is copied to host memory, dropping the oldest past the limit. Not allocated at load nor in the ollama ps size, so not in this total: up to %s bytes of host memory."),
           rt_count (&ctx->counts, (guint64) mib), rt_count (&ctx->counts, ctx->out->prompt_cache_limit_bytes));
}

/* Ollama 0.30+ starts an MTP draft for a GGUF with nextn layers
 * (llm/llama_server.go NewLlamaServerRunner hasMTPDraft, appendDraftArgs);
 * on an architecture without recurrent rollback the target's buffers are
 * the same (rs_seq_0_30() covers the others), and the draft's own context
 * is not predicted: said here. */
static void
mtp_draft_note_0_30 (Ctx *ctx)
{
  if (!ctx->text || ctx->out->era != HR_RUNTIME_ERA_OLLAMA_0_30 || ctx->out->rs_seq > 0 ||
      ctx->in->draft_num_predict == 0 || ctx->spec->nextn_layers == 0)
    return;
  if (ctx->have_version &&
      rt_version_key (ctx->version_major, ctx->version_minor, ctx->version_patch) < rt_version_key (0, 30, 0))
    return;
  rt_note (ctx, _("Ollama starts an MTP draft for this file (--spec-type draft-mtp --spec-draft-n-max %u, llm/llama_server.go): the draft's own context (the MTP layer's KV cache, its compute) is not counted; draft_num_predict 0 turns it off."),
           ctx->in->draft_num_predict);
}

/* The CPU backend's output buffer: llama-server reserves one output row
 * per slot; every buffer counts on a CPU-only server. */
static void
output_term_0_30 (Ctx          *ctx,
                  const Layout *l)
{
  guint64 vocab = ctx->dims->vocab_size;
  guint64 bytes;
  HrRuntimeTerm *term;

  if (ctx->in->backend != HR_RUNTIME_BACKEND_CPU || vocab == 0)
    return;
  bytes = rt_mul (ctx, rt_mul (ctx, l->slots, vocab), 4);
  term = rt_add_term (ctx, HR_RUNTIME_TERM_OUTPUT, (gint64) MIN (bytes, (guint64) G_MAXINT64), SRC_030_OUTPUT);
  if (!ctx->text)
    return;
  g_snprintf (term->formula, sizeof term->formula, _("slots x vocab x 4 = %s x %s x 4 = %s bytes"),
              rt_count (&ctx->counts, l->slots), rt_count (&ctx->counts, vocab), rt_count (&ctx->counts, bytes));
  g_snprintf (term->note, sizeof term->note, "%s",
              _("The logits of one output per slot, f32, in host memory: on a GPU they are not in the size, on the CPU backend they are."));
}

/**
 * rt_predict_0_30: (skip)
 * @ctx: the prediction under way
 * @f: the model's figures
 *
 * Ollama 0.30+ on llama-server: weights, KV cache, recurrent state, the
 * output buffer (CPU backend) and the compute buffer (hr-runtime-compute.c).
 */
void
rt_predict_0_30 (Ctx           *ctx,
                 const Figures *f)
{
  Layout l;

  layout_0_30 (ctx, &l);
  weights_term_0_30 (ctx, f);
  kv_term_0_30 (ctx, &l);
  recurrent_term_0_30 (ctx, &l);
  checkpoint_note_0_30 (ctx, &l);
  output_term_0_30 (ctx, &l);
  rt_compute_0_30 (ctx, f, &l);
  mtp_draft_note_0_30 (ctx);
  prompt_cache_note_0_30 (ctx);
}
