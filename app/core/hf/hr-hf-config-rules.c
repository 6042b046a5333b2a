/* hr-hf-config-rules.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The config.json rules that vary across model families, each kept as one
 * table: where the language model's sub-config sits, how
 * quantization_config describes the stored weights, the MoE key spellings,
 * and whether the embeddings are tied when the key is absent.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-hf-config-private.h"
#include "hr-json.h"

/* Sub-configs that may hold the language model, in precedence order: the
 * multimodal wrappers' text_config (Llava, Gemma 3, Mistral 3, Qwen2-VL),
 * language_config (DeepSeek-VL2, Janus), llm_config (InternVL),
 * thinker_config (Qwen2.5-Omni / Qwen3-Omni: thinker_config.text_config),
 * text_model / language_model variants of other wrappers. */
static const char * const lm_nests[] = {
  "text_config", "language_config", "llm_config", "thinker_config",
  "language_model_config", "text_model_config", "language_model", "text_model", NULL,
};

/* The blocks the one-level search of earlier versions accepted even without
 * dimensions of their own (their missing keys come from the top level). */
static const char * const shallow_nests[] = { "text_config", "language_config", "llm_config", NULL };

static gboolean
has_dimensions (JsonObject *obj)
{
  return (hr_json_member (obj, "num_hidden_layers") != NULL || hr_json_member (obj, "n_layer") != NULL ||
          hr_json_member (obj, "num_layers") != NULL) &&
         (hr_json_member (obj, "hidden_size") != NULL || hr_json_member (obj, "n_embd") != NULL ||
          hr_json_member (obj, "d_model") != NULL);
}

/* Depth first in lm_nests order; a deeper block that holds the dimensions
 * wins over its parent. scope->chain is filled top-down here. */
static gboolean
find_nested (JsonObject *obj,
             guint       depth,
             HrHfScope  *scope,
             GString    *path)
{
  if (depth >= HR_HF_MAX_NEST_DEPTH)
    return FALSE;
  for (guint i = 0; lm_nests[i] != NULL; i++)
    {
      JsonObject *child = hr_json_object (obj, lm_nests[i]);
      gsize len = path->len;

      if (child == NULL)
        continue;
      if (path->len > 0)
        g_string_append_c (path, '.');
      g_string_append (path, lm_nests[i]);
      scope->chain[scope->n++] = child;
      if (find_nested (child, depth + 1, scope, path) || has_dimensions (child))
        return TRUE;
      scope->n--;
      g_string_truncate (path, len);
    }
  return FALSE;
}

/**
 * _hr_hf_find_language_config:
 * @top: config.json's top-level object
 * @scope: (out caller-allocates): the objects to look keys up in
 *
 * Finds the sub-config that holds the language model's dimensions (a layer
 * count and a hidden size), up to %HR_HF_MAX_NEST_DEPTH levels down, by the
 * names of lm_nests in order; every level between it and the top is in
 * @scope too, deepest first, so a key missing in the block is read from its
 * parents. Without such a block, a `text_config`, `language_config` or
 * `llm_config` object at the top is still preferred (as before).
 *
 * Returns: (transfer full) (nullable): the path of the block
 *   ("thinker_config.text_config"), or %NULL when the top level is used.
 */
char *
_hr_hf_find_language_config (JsonObject *top,
                             HrHfScope  *scope)
{
  g_autoptr(GString) path = g_string_new (NULL);
  HrHfScope found = { { NULL, }, 0 };

  scope->n = 0;
  if (!find_nested (top, 0, &found, path))
    {
      for (guint i = 0; shallow_nests[i] != NULL; i++)
        {
          JsonObject *nested = hr_json_object (top, shallow_nests[i]);

          if (nested != NULL)
            {
              scope->chain[scope->n++] = nested;
              scope->chain[scope->n++] = top;
              return g_strdup (shallow_nests[i]);
            }
        }
      scope->chain[scope->n++] = top;
      return NULL;
    }
  for (guint i = found.n; i > 0; i--)
    scope->chain[scope->n++] = found.chain[i - 1];
  scope->chain[scope->n++] = top;
  return g_strdup (path->str);
}

static void
set_quant (HrHfConfig *config,
           guint64     bits,
           const char *format,
           double      bits_per_weight,
           char       *source)
{
  config->quant_bits = (guint32) bits;
  g_free (config->quant_format);
  config->quant_format = g_strdup (format);
  config->quant_bits_per_weight = bits_per_weight > 0 ? bits_per_weight : (double) bits;
  g_free (config->quant_source);
  config->quant_source = source;
}

/* compressed-tensors (llm-compressor): config_groups.NAME.weights.{num_bits,
 * type, group_size}; the widest group wins (the memory math must not
 * undercount). */
static gboolean
read_config_groups (JsonObject *qo,
                    const char *prefix,
                    HrHfConfig *config)
{
  JsonObject *groups = hr_json_object (qo, "config_groups");
  g_autoptr(GList) names = NULL;
  guint64 best = 0;

  if (groups == NULL)
    return FALSE;
  names = json_object_get_members (groups);
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonObject *group = hr_json_object (groups, l->data);
      JsonObject *weights = hr_json_object (group, "weights");
      const char *type = hr_json_string (weights, "type");
      guint64 bits = 0, g = 0;
      double bpw;

      if (!hr_json_u64 (weights, "num_bits", 64, &bits) || bits == 0 || bits <= best)
        continue;
      best = bits;
      hr_json_u64 (weights, "group_size", G_MAXINT32, &g);
      /* One bf16 scale per group (per channel when group_size is null). */
      bpw = (double) bits + (g > 0 ? 16.0 / (double) g : 0.0);
      config->quant_group_size = (guint32) g;
      set_quant (config, bits, g_strcmp0 (type, "float") == 0 ? "float" : "int", bpw,
                 g_strdup_printf ("%sconfig_groups.%s.weights.num_bits", prefix, (const char *) l->data));
    }
  return best > 0;
}

/* Methods whose name fixes the bits: fp8 checkpoints (DeepSeek-V3,
 * Qwen3-FP8: {"quant_method": "fp8", "weight_block_size": [128, 128]}, one
 * f32 scale per block), gpt-oss' mxfp4 (32 FP4 values and one E8M0 scale in
 * 17 bytes: 4.25 bits, ggml block_mxfp4), ModelOpt's quant_algo FP8 / NVFP4
 * (16 FP4 values and one FP8 scale: 4.5 bits). */
static gboolean
read_named_method (JsonObject *qo,
                   const char *prefix,
                   HrHfConfig *config)
{
  const char *method = hr_json_string (qo, "quant_method");
  const char *algo = hr_json_string (qo, "quant_algo");

  if (g_strcmp0 (method, "fp8") == 0 || g_strcmp0 (method, "fbgemm_fp8") == 0 ||
      g_strcmp0 (algo, "FP8") == 0)
    {
      JsonArray *block = hr_json_array (qo, "weight_block_size");
      guint64 b0 = 0, b1 = 0;
      double bpw = 8.0;

      if (block != NULL && json_array_get_length (block) == 2 &&
          hr_json_node_u64 (json_array_get_element (block, 0), G_MAXINT32, &b0) &&
          hr_json_node_u64 (json_array_get_element (block, 1), G_MAXINT32, &b1) && b0 > 0 && b1 > 0)
        bpw += 32.0 / ((double) b0 * (double) b1);
      set_quant (config, 8, "float", bpw,
                 g_strdup_printf (algo != NULL && method == NULL ? "%squant_algo" : "%squant_method", prefix));
      return TRUE;
    }
  if (g_strcmp0 (method, "mxfp4") == 0)
    {
      set_quant (config, 4, "float", 4.25, g_strdup_printf ("%squant_method", prefix));
      return TRUE;
    }
  if (g_strcmp0 (algo, "NVFP4") == 0)
    {
      set_quant (config, 4, "float", 4.5, g_strdup_printf ("%squant_algo", prefix));
      return TRUE;
    }
  return FALSE;
}

/* GPTQ / AWQ / HQQ / bitsandbytes: bits (or w_bit, nbits), group_size (or
 * q_group_size), load_in_4bit / load_in_8bit. */
static gboolean
read_bits (JsonObject *qo,
           const char *prefix,
           HrHfConfig *config)
{
  static const char * const bit_keys[] = { "bits", "w_bit", "nbits", "weight_bits", NULL };
  static const char * const group_keys[] = { "group_size", "q_group_size", NULL };
  const char *method = hr_json_string (qo, "quant_method");
  guint64 bits = 0, g = 0;
  double bpw;

  for (guint i = 0; group_keys[i] != NULL && g == 0; i++)
    if (!hr_json_u64 (qo, group_keys[i], G_MAXINT32, &g))
      g = 0;
  config->quant_group_size = (guint32) g;
  for (guint i = 0; bit_keys[i] != NULL; i++)
    if (hr_json_u64 (qo, bit_keys[i], 64, &bits) && bits > 0)
      {
        /* A 16-bit scale per group, and for GPTQ/AWQ a packed zero point. */
        gboolean zeros = g_strcmp0 (method, "gptq") == 0 || g_strcmp0 (method, "awq") == 0;

        bpw = (double) bits + (g > 0 ? (16.0 + (zeros ? (double) bits : 0.0)) / (double) g : 0.0);
        set_quant (config, bits, "int", bpw, g_strdup_printf ("%s%s", prefix, bit_keys[i]));
        return TRUE;
      }
  if (hr_json_bool (qo, "load_in_4bit", FALSE))
    {
      const char *type = hr_json_string (qo, "bnb_4bit_quant_type");

      set_quant (config, 4, g_strcmp0 (type, "fp4") == 0 ? "float" : "int", 4.0,
                 g_strdup_printf ("%sload_in_4bit", prefix));
      return TRUE;
    }
  if (hr_json_bool (qo, "load_in_8bit", FALSE))
    {
      set_quant (config, 8, "int", 8.0, g_strdup_printf ("%sload_in_8bit", prefix));
      return TRUE;
    }
  return FALSE;
}

/**
 * _hr_hf_read_quantization:
 * @scope: the config's scope, deepest sub-config first
 * @config: where quant_method, quant_bits, quant_format,
 *   quant_bits_per_weight, quant_group_size and quant_source go
 *
 * Reads `quantization_config` (or compressed-tensors' older
 * `compression_config`) from the deepest block that has one: GPTQ/AWQ
 * `bits` (`w_bit`, HQQ `nbits`), compressed-tensors
 * `config_groups.*.weights.num_bits` with `type` and `format`, `quant_method:
 * fp8` (8-bit float), `mxfp4` (4.25 bits with its scales), ModelOpt
 * `quant_algo`, bitsandbytes `load_in_4bit` / `load_in_8bit`. A block with
 * a method but no bits keeps the method and lets an outer block give them.
 */
void
_hr_hf_read_quantization (const HrHfScope *scope,
                          HrHfConfig      *config)
{
  static const char * const names[] = { "quantization_config", "compression_config", NULL };

  for (guint i = 0; i < scope->n; i++)
    for (guint k = 0; names[k] != NULL; k++)
      {
        JsonObject *qo = hr_json_object (scope->chain[i], names[k]);
        g_autofree char *prefix = NULL;
        const char *format;

        if (qo == NULL)
          continue;
        if (config->quant_method == NULL)
          config->quant_method = g_strdup (hr_json_string (qo, "quant_method"));
        prefix = g_strdup_printf ("%s.", names[k]);
        if (read_config_groups (qo, prefix, config) || read_named_method (qo, prefix, config) ||
            read_bits (qo, prefix, config))
          {
            /* compressed-tensors' storage format: "pack-quantized" (int4
             * packed in I32), "float-quantized" (fp8), "naive-quantized". */
            format = hr_json_string (qo, "format");
            if (format != NULL && strstr (format, "float") != NULL && config->quant_bits == 8)
              {
                g_free (config->quant_format);
                config->quant_format = g_strdup ("float");
              }
            return;
          }
      }
}

/* MoE spellings, in precedence order (the first present wins), from each
 * family's published config.json: DeepSeek-V2/V3 and Kimi K2
 * (n_routed_experts, n_shared_experts, first_k_dense_replace), Mixtral and
 * gpt-oss (num_local_experts; gpt-oss also experts_per_token), Qwen2/3-MoE
 * and OLMoE (num_experts, num_experts_per_tok; Qwen2-MoE
 * shared_expert_intermediate_size), ERNIE 4.5 (moe_num_experts, moe_k,
 * moe_num_shared_experts, moe_layer_start_index), Ling / Bailing
 * (num_shared_experts), DBRX-style moe_top_k, Jamba / Granite-MoE
 * num_experts_per_tok, Gemma 4 top_k_experts (Gemma4TextConfig; the
 * converter's find_hparam, conversion/base.py). Hunyuan's moe_topk is a per-layer list, not read. */
static const char * const moe_experts[] = {
  "n_routed_experts", "num_local_experts", "num_experts", "moe_num_experts", NULL,
};
static const char * const moe_per_token[] = {
  "num_experts_per_tok", "experts_per_token", "num_experts_per_token", "moe_k", "moe_top_k",
  "num_selected_experts", "top_k_experts", NULL,
};
static const char * const moe_shared[] = {
  "n_shared_experts", "num_shared_experts", "moe_num_shared_experts", NULL,
};
static const char * const moe_intermediate[] = {
  "moe_intermediate_size", "expert_intermediate_size", NULL,
};
static const char * const moe_first_dense[] = {
  "first_k_dense_replace", "moe_layer_start_index", "first_dense_layers", NULL,
};

/**
 * hr_hf_moe_keys:
 * @role: what the keys mean
 *
 * The one alias table for mixture-of-experts keys of config.json. The first
 * key present wins: experts `n_routed_experts` > `num_local_experts` >
 * `num_experts` > `moe_num_experts`; experts per token
 * `num_experts_per_tok` > `experts_per_token` > `num_experts_per_token` >
 * `moe_k` > `moe_top_k` > `num_selected_experts` > `top_k_experts`; shared
 * experts `n_shared_experts` > `num_shared_experts` >
 * `moe_num_shared_experts` (and, without any of them,
 * one shared expert when `shared_expert_intermediate_size` is set, as
 * Qwen2-MoE); expert width `moe_intermediate_size` >
 * `expert_intermediate_size`; leading dense layers `first_k_dense_replace` >
 * `moe_layer_start_index` > `first_dense_layers`.
 *
 * Returns: (transfer none) (array zero-terminated=1): the keys, or %NULL
 *   for an unknown role.
 */
const char * const *
hr_hf_moe_keys (HrHfMoeRole role)
{
  switch (role)
    {
    case HR_HF_MOE_EXPERTS:
      return moe_experts;
    case HR_HF_MOE_EXPERTS_PER_TOKEN:
      return moe_per_token;
    case HR_HF_MOE_SHARED_EXPERTS:
      return moe_shared;
    case HR_HF_MOE_INTERMEDIATE_SIZE:
      return moe_intermediate;
    case HR_HF_MOE_FIRST_DENSE_LAYERS:
      return moe_first_dense;
    case HR_HF_MOE_N_ROLES:
    default:
      return NULL;
    }
}

/* Model types whose transformers configuration class defaults
 * tie_word_embeddings to False (configuration_<type>.py); every other type
 * inherits PretrainedConfig's True (Gemma, Gemma 2/3, GPT-2, Cohere ...). */
static const char * const untied_types[] = {
  "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe",
  "deepseek_v2", "deepseek_v3", "kimi_k2", "phi", "phi3", "phimoe", "olmo", "olmo2", "olmoe",
  "stablelm", "gpt_neox", "granite", "granitemoe", "gpt_oss", "glm4", "glm4_moe",
  "internlm2", "minimax", "jamba", "dbrx", NULL,
};

/**
 * hr_hf_tied_default:
 * @model_type: (nullable): config.json `model_type` ("llama", "gemma2")
 *
 * Whether the input and output embeddings are tied when config.json has no
 * `tie_word_embeddings`: transformers' configuration class of the model
 * type sets the default (LlamaConfig, Qwen2Config, MistralConfig ...:
 * False; GemmaConfig, Gemma2Config and PretrainedConfig itself: True).
 *
 * Returns: the default; %TRUE for an unknown or %NULL type.
 */
gboolean
hr_hf_tied_default (const char *model_type)
{
  return model_type == NULL || !g_strv_contains (untied_types, model_type);
}

/**
 * hr_hf_config_settle_tied:
 * @config: a parsed config
 * @index_has_lm_head: whether the weight index (or the safetensors
 *   headers) lists an `lm_head.weight`
 *
 * The stored weights settle tying: a separate `lm_head.weight` means untied,
 * none means tied (the output reuses the token embeddings). Call it only
 * when the list of weights is known.
 */
void
hr_hf_config_settle_tied (HrHfConfig *config,
                          gboolean    index_has_lm_head)
{
  g_return_if_fail (config != NULL);

  config->tied_embeddings = !index_has_lm_head;
  g_free (config->tied_source);
  config->tied_source = g_strdup (index_has_lm_head
                                  ? _("the weights list lm_head.weight: not tied")
                                  : _("the weights list no lm_head.weight: tied"));
}
