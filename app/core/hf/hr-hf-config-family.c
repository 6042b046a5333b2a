/* hr-hf-config-family.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a config.json leaves out and the model family fills in: the
 * defaults of each transformers configuration class for absent keys (a
 * config is loaded through it, and llama.cpp's convert_hf_to_gguf.py reads
 * it the same way: conversion/base.py load_hparams, AutoConfig.to_dict()),
 * the llama.cpp architecture the converter writes for the family, and, for
 * hybrid and recurrent families, which layers keep recurrent state and how
 * large that state is, as llama.cpp derives it from the GGUF the converter
 * writes (src/llama-hparams.cpp n_embd_r / n_embd_s).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hf-config-private.h"
#include "hr-json.h"

/* One family's defaults for absent keys; 0 = the class has no default the
 * memory math needs (the generic rule applies). */
typedef struct {
  const char *model_type;   /* the language block's model_type */
  const char *gguf_arch;    /* general.architecture the converter writes */
  const char *file;         /* "configuration_gemma3.py Gemma3TextConfig" */
  guint32     head_dim;
  guint32     vocab_size;
  guint32     max_position_embeddings;
  guint32     kv_heads;
  guint32     sliding_window;
  guint32     swa_period;   /* layer_types default: layer i slides unless (i + 1) % period == 0 */
  guint32     experts;                  /* num_experts */
  guint32     experts_per_token;        /* num_experts_per_tok */
  guint32     moe_intermediate_size;    /* moe_intermediate_size */
  guint32     shared_intermediate_size; /* shared_expert_intermediate_size */
} Family;

/* Defaults read from transformers (src/transformers/models/<family>/):
 *  - configuration_gemma2.py Gemma2Config: head_dim 256, vocab_size 256000,
 *    max_position_embeddings 8192, num_key_value_heads 4, sliding_window 4096,
 *    layer_types "sliding_attention" if bool((i + 1) % 2);
 *  - configuration_gemma3.py Gemma3TextConfig: head_dim 256, vocab_size
 *    262_208, max_position_embeddings 131_072, num_key_value_heads 4,
 *    sliding_window 4096, sliding_window_pattern 6 ("sliding_attention" if
 *    bool((i + 1) % self._sliding_window_pattern));
 *  - configuration_cohere2.py Cohere2Config: sliding_window_pattern 4
 *    (kwargs.get("sliding_window_pattern", 4)), same rule;
 *  - configuration_gpt_oss.py GptOssConfig: head_dim 64, vocab_size 201088,
 *    max_position_embeddings 131072, num_key_value_heads 8, sliding_window 128,
 *    layer_types alternating from sliding ("sliding_attention" if bool((i + 1) % 2));
 *  - configuration_qwen3_next.py Qwen3NextConfig: head_dim 256, vocab_size
 *    151936, max_position_embeddings 32768, num_key_value_heads 2 (the
 *    linear_* keys and full_attention_interval 4 are read by hybrid_qwen3_next());
 *  - configuration_qwen3_5.py Qwen3_5TextConfig: head_dim 256, vocab_size
 *    248320, max_position_embeddings 32768, num_key_value_heads 4 (the
 *    linear_* keys, the same as Qwen3NextConfig's, and
 *    full_attention_interval 4: hybrid_qwen3_next());
 *  - configuration_qwen3_5_moe.py Qwen3_5MoeTextConfig: head_dim 256,
 *    vocab_size 248320, max_position_embeddings 32768, num_key_value_heads
 *    2, num_experts 256, num_experts_per_tok 8, moe_intermediate_size 512,
 *    shared_expert_intermediate_size 512 (linear_* as Qwen3_5TextConfig);
 *  - configuration_gemma4.py Gemma4TextConfig: head_dim 256 (the sliding
 *    layers'; global_head_dim 512 for the full ones, _hr_hf_read_gemma4()),
 *    vocab_size 262_144, max_position_embeddings 131_072,
 *    num_key_value_heads 4, sliding_window 512, layer_types
 *    "sliding_attention" if bool((i + 1) % 6), the last layer forced to
 *    "full_attention".
 * A top-level model_type (qwen3_5, qwen3_5_moe, gemma4) stands for its text
 * class when the text_config names none (Qwen3_5Config, Gemma4Config:
 * text_config is built as the text class).
 * The architecture names are convert_hf_to_gguf.py's (conversion/<family>.py
 * model_arch, named in llama.cpp src/llama-arch.cpp LLM_ARCH_NAMES). */
static const Family families[] = {
  { "llama",            "llama",         NULL, 0, 0, 0, 0, 0, 0 },
  { "mistral",          "llama",         NULL, 0, 0, 0, 0, 0, 0 },
  { "mixtral",          "llama",         NULL, 0, 0, 0, 0, 0, 0 },
  { "ministral3",       "mistral3",      NULL, 0, 0, 0, 0, 0, 0 },
  { "llama4_text",      "llama4",        NULL, 0, 0, 0, 0, 0, 0 },
  { "qwen2",            "qwen2",         NULL, 0, 0, 0, 0, 0, 0 },
  { "qwen2_moe",        "qwen2moe",      NULL, 0, 0, 0, 0, 0, 0 },
  { "qwen3",            "qwen3",         NULL, 0, 0, 0, 0, 0, 0 },
  { "qwen3_moe",        "qwen3moe",      NULL, 0, 0, 0, 0, 0, 0 },
  { "qwen3_next",       "qwen3next",     "configuration_qwen3_next.py Qwen3NextConfig",
    256, 151936, 32768, 2, 0, 0 },
  { "qwen3_5_text",     "qwen35",        "configuration_qwen3_5.py Qwen3_5TextConfig",
    256, 248320, 32768, 4, 0, 0 },
  { "qwen3_5",          "qwen35",        "configuration_qwen3_5.py Qwen3_5TextConfig",
    256, 248320, 32768, 4, 0, 0 },
  { "qwen3_5_moe_text", "qwen35moe",     "configuration_qwen3_5_moe.py Qwen3_5MoeTextConfig",
    256, 248320, 32768, 2, 0, 0, 256, 8, 512, 512 },
  { "qwen3_5_moe",      "qwen35moe",     "configuration_qwen3_5_moe.py Qwen3_5MoeTextConfig",
    256, 248320, 32768, 2, 0, 0, 256, 8, 512, 512 },
  { "phi3",             "phi3",          NULL, 0, 0, 0, 0, 0, 0 },
  { "gemma",            "gemma",         NULL, 0, 0, 0, 0, 0, 0 },
  { "gemma2",           "gemma2",        "configuration_gemma2.py Gemma2Config",
    256, 256000, 8192, 4, 4096, 2 },
  { "gemma3_text",      "gemma3",        "configuration_gemma3.py Gemma3TextConfig",
    256, 262208, 131072, 4, 4096, 6 },
  { "gemma4_text",      "gemma4",        "configuration_gemma4.py Gemma4TextConfig",
    256, 262144, 131072, 4, 512, 6 },
  { "gemma4",           "gemma4",        "configuration_gemma4.py Gemma4TextConfig",
    256, 262144, 131072, 4, 512, 6 },
  { "cohere2",          "cohere2",       "configuration_cohere2.py Cohere2Config",
    0, 0, 0, 0, 0, 4 },
  { "gpt_oss",          "gpt-oss",       "configuration_gpt_oss.py GptOssConfig",
    64, 201088, 131072, 8, 128, 2 },
  { "deepseek_v2",      "deepseek2",     NULL, 0, 0, 0, 0, 0, 0 },
  { "deepseek_v3",      "deepseek2",     NULL, 0, 0, 0, 0, 0, 0 },
  { "kimi_k2",          "deepseek2",     NULL, 0, 0, 0, 0, 0, 0 },
  { "glm4_moe",         "glm4moe",       NULL, 0, 0, 0, 0, 0, 0 },
  { "granitemoehybrid", "granitehybrid", NULL, 0, 0, 0, 0, 0, 0 },
  { "lfm2",             "lfm2",          NULL, 0, 0, 0, 0, 0, 0 },
  { "nemotron_h",       "nemotron_h",    NULL, 0, 0, 0, 0, 0, 0 },
  { "mamba2",           "mamba2",        NULL, 0, 0, 0, 0, 0, 0 },
  { "kimi_linear",      "kimi-linear",   NULL, 0, 0, 0, 0, 0, 0 },
};

static const Family *
family_of (const char *model_type)
{
  if (model_type == NULL)
    return NULL;
  /* Gemma 3 without a text_config (gemma-3-1b) is "gemma3_text" too;
   * a top-level "gemma3" always nests it. */
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (strcmp (families[i].model_type, model_type) == 0)
      return &families[i];
  return NULL;
}

/**
 * _hr_hf_family_gguf_arch:
 * @config: a config being parsed (model_type and text_model_type set)
 *
 * The `general.architecture` llama.cpp's convert_hf_to_gguf.py writes for
 * the config's family (conversion/<family>.py model_arch): "gemma3" for
 * gemma3_text, "gpt-oss" for gpt_oss, "deepseek2" for DeepSeek-V2/V3 and
 * Kimi K2, "mistral3" for Mistral3ForConditionalGeneration
 * (conversion/mistral3.py Ministral3Model), "nemotron_h_moe" for a
 * nemotron_h config with `num_experts_per_tok` (conversion/nemotron.py).
 *
 * Returns: (nullable): the architecture, or %NULL for a family not listed.
 */
const char *
_hr_hf_family_gguf_arch (const HrHfConfig *config)
{
  const char *type = config->text_model_type ? config->text_model_type : config->model_type;
  const Family *family = family_of (type);

  if (g_strcmp0 (config->model_type, "mistral3") == 0 &&
      (g_strcmp0 (type, "mistral") == 0 || g_strcmp0 (type, "ministral3") == 0))
    return "mistral3";
  if (g_strcmp0 (type, "nemotron_h") == 0 && config->experts > 0)
    return "nemotron_h_moe";
  return family != NULL ? family->gguf_arch : NULL;
}

static char *
default_note (const Family *family,
              const char   *key,
              guint32       value)
{
  g_autofree char *file = g_strdup (family->file);
  char *space = strchr (file, ' ');

  if (space != NULL)
    *space = '\0';
  /* TRANSLATORS: a config.json key that is absent and the value
   * transformers' configuration class gives it; %s are the file, the key,
   * %u the value: "transformers default (configuration_gemma3.py head_dim): 256" */
  return g_strdup_printf (_("transformers default (%s %s): %u"), file, key, value);
}

/**
 * _hr_hf_family_default:
 * @config: a config being parsed (model_type and text_model_type set)
 * @key: a config.json key that is absent ("head_dim", "vocab_size",
 *   "max_position_embeddings", "num_key_value_heads", "sliding_window",
 *   "sliding_window_pattern", "num_experts", "num_experts_per_tok",
 *   "moe_intermediate_size", "shared_expert_intermediate_size")
 * @out_value: (out): the family's default
 * @out_note: (out) (transfer full): where it comes from, a sentence
 *   ("transformers default (configuration_gemma3.py head_dim): 256")
 *
 * The default the family's transformers configuration class gives @key
 * (see the table above, families[]).
 *
 * Returns: %TRUE with the value and note set, %FALSE when the family has
 *   no default for @key.
 */
gboolean
_hr_hf_family_default (const HrHfConfig *config,
                       const char       *key,
                       guint32          *out_value,
                       char            **out_note)
{
  const Family *family = family_of (config->text_model_type ? config->text_model_type : config->model_type);
  guint32 value = 0;

  if (family == NULL || family->file == NULL)
    return FALSE;
  if (strcmp (key, "head_dim") == 0)
    value = family->head_dim;
  else if (strcmp (key, "vocab_size") == 0)
    value = family->vocab_size;
  else if (strcmp (key, "max_position_embeddings") == 0)
    value = family->max_position_embeddings;
  else if (strcmp (key, "num_key_value_heads") == 0)
    value = family->kv_heads;
  else if (strcmp (key, "sliding_window") == 0)
    value = family->sliding_window;
  else if (strcmp (key, "sliding_window_pattern") == 0)
    value = family->swa_period;
  else if (strcmp (key, "num_experts") == 0)
    value = family->experts;
  else if (strcmp (key, "num_experts_per_tok") == 0)
    value = family->experts_per_token;
  else if (strcmp (key, "moe_intermediate_size") == 0)
    value = family->moe_intermediate_size;
  else if (strcmp (key, "shared_expert_intermediate_size") == 0)
    value = family->shared_intermediate_size;
  if (value == 0)
    return FALSE;
  *out_value = value;
  *out_note = default_note (family, key, value);
  return TRUE;
}

static JsonNode *
scope_node (const HrHfScope *scope,
            const char      *key)
{
  for (guint i = 0; i < scope->n; i++)
    {
      JsonNode *node = hr_json_member (scope->chain[i], key);

      if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
        return node;
    }
  return NULL;
}

/* A whole number at @key: TRUE with *out set, TRUE with *found FALSE when
 * absent, FALSE with @error set when malformed. */
static gboolean
scope_u32 (const HrHfScope *scope,
           const char      *key,
           guint32         *out,
           gboolean        *found,
           GError         **error)
{
  JsonNode *node = scope_node (scope, key);
  guint64 v;

  *found = FALSE;
  if (node == NULL)
    return TRUE;
  if (!hr_json_node_u64 (node, G_MAXUINT32, &v))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json: “%s” is not a whole number between 0 and %u"), key, G_MAXUINT32);
      return FALSE;
    }
  *out = (guint32) v;
  *found = TRUE;
  return TRUE;
}

/**
 * _hr_hf_family_note:
 * @config: a config being parsed
 * @key: a config.json key that is absent
 * @value: the default the code applies for it
 *
 * The sentence naming the family's transformers class for a default applied
 * outside families[] (the hybrids' linear_* keys, Gemma 4's global_head_dim).
 *
 * Returns: (transfer full) (nullable): "transformers default
 *   (configuration_qwen3_5.py linear_num_key_heads): 16", or %NULL when the
 *   family is not listed with a class.
 */
char *
_hr_hf_family_note (const HrHfConfig *config,
                    const char       *key,
                    guint32           value)
{
  const Family *family = family_of (config->text_model_type ? config->text_model_type : config->model_type);

  if (family == NULL || family->file == NULL)
    return NULL;
  return default_note (family, key, value);
}

/**
 * _hr_hf_read_gemma4:
 * @scope: the config's scope, deepest sub-config first
 * @config: a config with its shape and sliding layers read
 * @error: return location for a #GError
 *
 * Gemma 4's two kinds of attention layer as Gemma4TextConfig.__post_init__
 * builds them (transformers configuration_gemma4.py) and
 * convert_hf_to_gguf.py writes them (llama.cpp conversion/gemma.py
 * Gemma4Model.set_gguf_parameters):
 *  - the full-attention layers' head size is `global_head_dim` (class
 *    default 512; the converter's key_length), the sliding layers' is
 *    `head_dim` (key_length_swa); #HrHfConfig.head_dim_full;
 *  - the last layer is always "full_attention";
 *  - with `attention_k_eq_v` true, the full-attention layers have
 *    `num_global_key_value_heads` KV heads (the converter's per-layer
 *    head_count_kv); without it every layer has num_key_value_heads;
 *  - the last `num_kv_shared_layers` layers reuse an earlier layer's cache
 *    (attention.shared_kv_layers; llama.cpp src/models/gemma4.cpp
 *    n_layer_kv_from_start): 0 KV heads of their own;
 *  - `use_bidirectional_attention` "all" makes the window
 *    sliding_window / 2 + 1.
 * Other families are left alone.
 *
 * Returns: %FALSE with @error set (%HR_CORE_ERROR_INVALID_DATA) when one of
 *   these keys is not a whole number.
 */
gboolean
_hr_hf_read_gemma4 (const HrHfScope *scope,
                    HrHfConfig      *config,
                    GError         **error)
{
  guint32 full = 0, global_kv = 0, shared = 0;
  gboolean found, k_eq_v = FALSE;
  JsonNode *node;

  if (g_strcmp0 (config->gguf_arch, "gemma4") != 0)
    return TRUE;

  if (!scope_u32 (scope, "global_head_dim", &full, &found, error))
    return FALSE;
  g_clear_pointer (&config->default_sources[HR_SPEC_FIELD_KEY_LENGTH], g_free);
  g_clear_pointer (&config->default_sources[HR_SPEC_FIELD_VALUE_LENGTH], g_free);
  if (!found || full == 0)
    {
      full = 512;
      config->default_sources[HR_SPEC_FIELD_KEY_LENGTH] = _hr_hf_family_note (config, "global_head_dim", full);
      config->default_sources[HR_SPEC_FIELD_VALUE_LENGTH] = g_strdup (config->default_sources[HR_SPEC_FIELD_KEY_LENGTH]);
      g_ptr_array_add (config->defaults,
                       g_strdup_printf ("global_head_dim: %s", config->default_sources[HR_SPEC_FIELD_KEY_LENGTH]));
    }
  config->head_dim_full = full;

  node = scope_node (scope, "use_bidirectional_attention");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING &&
      strcmp (json_node_get_string (node), "all") == 0 && config->sliding_window > 0)
    config->sliding_window = config->sliding_window / 2 + 1;

  if (config->layer_sliding != NULL && config->layer_sliding->len == config->layers &&
      g_array_index (config->layer_sliding, guint8, config->layers - 1) != 0)
    {
      g_array_index (config->layer_sliding, guint8, config->layers - 1) = 0;
      config->sliding_last_full = TRUE;
    }

  node = scope_node (scope, "attention_k_eq_v");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    k_eq_v = json_node_get_boolean (node);
  if (!scope_u32 (scope, "num_global_key_value_heads", &global_kv, &found, error) ||
      !scope_u32 (scope, "num_kv_shared_layers", &shared, &found, error))
    return FALSE;
  if (!k_eq_v)
    global_kv = 0;
  if (shared >= config->layers)
    shared = 0;
  if (global_kv == 0 && shared == 0)
    return TRUE;
  if (global_kv > config->heads)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json has more key/value heads (%u) than attention heads (%u)"),
                   global_kv, config->heads);
      return FALSE;
    }
  g_clear_pointer (&config->layer_kv_heads, g_array_unref);
  config->layer_kv_heads = g_array_sized_new (FALSE, TRUE, sizeof (guint32), config->layers);
  for (guint i = 0; i < config->layers; i++)
    {
      gboolean sliding = config->layer_sliding != NULL && i < config->layer_sliding->len &&
                         g_array_index (config->layer_sliding, guint8, i);
      guint32 kv = i >= config->layers - shared ? 0 : !sliding && global_kv > 0 ? global_kv : config->kv_heads;

      g_array_append_val (config->layer_kv_heads, kv);
    }
  return TRUE;
}

/* The families whose converter appends multi-token-prediction layers to
 * block_count and writes nextn_predict_layers: llama.cpp conversion/glm.py
 * Glm4MoeModel (num_nextn_predict_layers) and conversion/qwen.py
 * _QwenMtpMixin (mtp_num_hidden_layers; Qwen3-Next's config has no such
 * key, its converter counts the checkpoint's mtp.* tensors). DeepSeek-V3's
 * num_nextn_predict_layers is not converted (conversion/deepseek.py
 * DeepseekV2Model keeps block_count = num_hidden_layers). */
static const struct {
  const char *model_type;
  const char *key;
} nextn_keys[] = {
  { "glm4_moe",         "num_nextn_predict_layers" },
  { "qwen3_5_text",     "mtp_num_hidden_layers" },
  { "qwen3_5",          "mtp_num_hidden_layers" },
  { "qwen3_5_moe_text", "mtp_num_hidden_layers" },
  { "qwen3_5_moe",      "mtp_num_hidden_layers" },
};

/**
 * _hr_hf_read_nextn:
 * @scope: the config's scope, deepest sub-config first
 * @config: a config with its layer count read
 * @error: return location for a #GError
 *
 * Sets #HrHfConfig.nextn_layers and nextn_key: the multi-token-prediction
 * layers the converter appends after the num_hidden_layers trunk layers
 * (see nextn_keys[] above). llama.cpp loads them as blocks of their own
 * (src/llama-model.cpp load_tensors: n_layer_all blocks) and keeps them out
 * of the main context's KV cache and recurrent state (create_memory: the
 * filter il < hparams.n_layer (), n_layer () = n_layer_all -
 * n_layer_nextn, src/llama-hparams.cpp).
 *
 * Returns: %FALSE with @error set (%HR_CORE_ERROR_INVALID_DATA) when the key
 *   is not a whole number, or the trunk and these layers make more than
 *   llama.cpp's 512 (LLAMA_MAX_LAYERS, src/llama-hparams.h).
 */
gboolean
_hr_hf_read_nextn (const HrHfScope *scope,
                   HrHfConfig      *config,
                   GError         **error)
{
  const char *type = config->text_model_type ? config->text_model_type : config->model_type;
  guint32 n = 0;
  gboolean found;

  if (type == NULL)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (nextn_keys); i++)
    {
      if (strcmp (nextn_keys[i].model_type, type) != 0)
        continue;
      if (!scope_u32 (scope, nextn_keys[i].key, &n, &found, error))
        return FALSE;
      if ((guint64) config->layers + n > 512)
        {
          /* src/llama-hparams.h LLAMA_MAX_LAYERS; load_hparams asserts
           * n_layer_all <= it. */
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("config.json: %s %u and num_hidden_layers %u make more than the %u layers llama.cpp loads"),
                       nextn_keys[i].key, n, config->layers, 512);
          return FALSE;
        }
      config->nextn_layers = n;
      config->nextn_key = nextn_keys[i].key;
      return TRUE;
    }
  return TRUE;
}
