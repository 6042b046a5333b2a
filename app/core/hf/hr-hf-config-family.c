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
 *    linear_* keys and full_attention_interval 4 are read by hybrid_qwen3_next()).
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
  { "qwen3_5_text",     "qwen35",        NULL, 0, 0, 0, 0, 0, 0 },
  { "qwen3_5_moe_text", "qwen35moe",     NULL, 0, 0, 0, 0, 0, 0 },
  { "phi3",             "phi3",          NULL, 0, 0, 0, 0, 0, 0 },
  { "gemma",            "gemma",         NULL, 0, 0, 0, 0, 0, 0 },
  { "gemma2",           "gemma2",        "configuration_gemma2.py Gemma2Config",
    256, 256000, 8192, 4, 4096, 2 },
  { "gemma3_text",      "gemma3",        "configuration_gemma3.py Gemma3TextConfig",
    256, 262208, 131072, 4, 4096, 6 },
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
 *   "max_position_embeddings", "num_key_value_heads", "sliding_window")
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
  if (value == 0)
    return FALSE;
  *out_value = value;
  *out_note = default_note (family, key, value);
  return TRUE;
}
