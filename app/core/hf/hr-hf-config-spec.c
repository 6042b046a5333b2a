/* hr-hf-config-spec.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A parsed config.json (hr-hf-config.c) into an HrModelSpec: the figures
 * the memory math reads, named as llama.cpp names the architecture, each
 * with the config key or transformers default it came from.
 */
#include "config.h"


#include "hr-hf-config-private.h"

/* The multi-token-prediction layers after the trunk, as the converter
 * appends them to block_count (_hr_hf_read_nextn()): no KV cache, no
 * recurrent state, no window in the main context (llama.cpp
 * src/llama-model.cpp create_memory: il < hparams.n_layer ()). */
static void
append_nextn_layers (const HrHfConfig *config,
                     HrModelSpec      *spec)
{
  const guint32 zero = 0;
  const guint8 no = 0;

  spec->layers = config->layers + config->nextn_layers;
  if (spec->layer_kv_heads == NULL)
    {
      spec->layer_kv_heads = g_array_sized_new (FALSE, TRUE, sizeof (guint32), spec->layers);
      for (guint i = 0; i < config->layers; i++)
        g_array_append_val (spec->layer_kv_heads, spec->kv_heads);
    }
  for (guint i = 0; i < config->nextn_layers; i++)
    {
      g_array_append_val (spec->layer_kv_heads, zero);
      if (spec->layer_recurrent != NULL)
        g_array_append_val (spec->layer_recurrent, no);
      if (spec->layer_sliding != NULL)
        g_array_append_val (spec->layer_sliding, no);
    }
}

/* Heads and the key/value head sizes: MLA's one latent, Gemma 4's two
 * sizes, or head_dim. */
static void
set_attention_shape (const HrHfConfig *config,
                     HrModelSpec      *spec)
{
  spec->heads = config->heads;
  spec->kv_heads = config->mla ? 1 : config->kv_heads;
  if (config->mla)
    {
      /* One compressed latent per token and layer, as convert_hf_to_gguf.py
       * writes DeepSeek-V2/V3 (head_count_kv 1, key_length kv_lora_rank +
       * qk_rope_head_dim, value_length kv_lora_rank) and llama.cpp caches it
       * (src/llama-model.cpp: n_embd_head_k = kv_lora_rank + n_rot; the V
       * cache is not allocated, src/llama-kv-cache.cpp has_v = !is_mla). */
      spec->key_length = config->kv_lora_rank + config->qk_rope_head_dim;
      spec->value_length = config->kv_lora_rank;
      spec->kv_latent = TRUE;
    }
  else if (config->head_dim_full > 0)
    {
      /* Gemma 4: key_length the full layers', key_length_swa the sliding
       * ones' (conversion/gemma.py Gemma4Model). */
      spec->key_length = spec->value_length = config->head_dim_full;
      spec->key_length_swa = spec->value_length_swa = config->head_dim;
    }
  else
    spec->key_length = spec->value_length = config->head_dim;
}

/* A copy of @array (%NULL stays %NULL). */
static GArray *
copy_array (const GArray *array,
            guint         element_size)
{
  GArray *copy;

  if (array == NULL)
    return NULL;
  copy = g_array_sized_new (FALSE, TRUE, element_size, array->len);
  g_array_append_vals (copy, array->data, array->len);
  return copy;
}

/* The per-layer arrays (sliding, KV heads, recurrent) and the recurrent
 * state sizes; kv_heads becomes the largest layer's. */
static void
copy_layer_arrays (const HrHfConfig *config,
                   HrModelSpec      *spec)
{
  spec->layer_sliding = copy_array (config->layer_sliding, sizeof (guint8));
  spec->layer_kv_heads = copy_array (config->layer_kv_heads, sizeof (guint32));
  if (config->layer_recurrent != NULL)
    {
      spec->layer_recurrent = copy_array (config->layer_recurrent, sizeof (guint8));
      spec->recurrent_r = config->recurrent_r;
      spec->recurrent_s = config->recurrent_s;
      spec->recurrent_source = g_strdup (config->recurrent_source);
    }
  if (spec->layer_kv_heads != NULL && !config->mla)
    for (guint i = 0; i < spec->layer_kv_heads->len; i++)
      spec->kv_heads = MAX (spec->kv_heads, g_array_index (spec->layer_kv_heads, guint32, i));
}

/* Sets @field's source to "config.json [nested.]@key". */
static void
set_key_source (HrModelSpec *spec,
                HrSpecField  field,
                const char  *prefix,
                const char  *key)
{
  g_autofree char *src = g_strconcat (prefix, key, NULL);

  hr_model_spec_set_source (spec, field, src);
}

/* The config keys each field was read from (after @prefix, "config.json "
 * or "config.json text_config."). */
static void
set_key_sources (const HrHfConfig *config,
                 HrModelSpec      *spec,
                 const char       *prefix)
{
  const char *head_key = config->head_dim_full > 0 ? "global_head_dim (full-attention layers; head_dim on sliding ones)"
                         : config->head_dim_explicit ? "head_dim" : "hidden_size / num_attention_heads";

  if (config->nextn_layers > 0)
    {
      g_autofree char *layers = g_strdup_printf ("num_hidden_layers + %s (the converter's block_count; llama.cpp "
                                                 "keeps the multi-token-prediction layers out of the KV cache)",
                                                 config->nextn_key);

      set_key_source (spec, HR_SPEC_FIELD_LAYERS, prefix, layers);
    }
  else
    set_key_source (spec, HR_SPEC_FIELD_LAYERS, prefix, config->gpt2_style ? "n_layer" : "num_hidden_layers");
  set_key_source (spec, HR_SPEC_FIELD_HEADS, prefix, config->gpt2_style ? "n_head" : "num_attention_heads");
  set_key_source (spec, HR_SPEC_FIELD_KV_HEADS, prefix,
                  config->mla ? "kv_lora_rank (MLA: one latent per token and layer)" : "num_key_value_heads");
  set_key_source (spec, HR_SPEC_FIELD_KEY_LENGTH, prefix, config->mla ? "kv_lora_rank + qk_rope_head_dim" : head_key);
  set_key_source (spec, HR_SPEC_FIELD_VALUE_LENGTH, prefix, config->mla ? "kv_lora_rank (a view of the latent)" : head_key);
  set_key_source (spec, HR_SPEC_FIELD_EMBEDDING_LENGTH, prefix, config->gpt2_style ? "n_embd" : "hidden_size");
  if (config->max_position_embeddings > 0)
    set_key_source (spec, HR_SPEC_FIELD_CONTEXT_LENGTH, prefix,
                    config->gpt2_style ? "n_positions" : "max_position_embeddings");
  if (config->sliding_window > 0)
    set_key_source (spec, HR_SPEC_FIELD_SLIDING_WINDOW, prefix,
                    config->layer_sliding ? "sliding_window, layer_types" : "sliding_window");
  if (spec->precision != NULL)
    set_key_source (spec, HR_SPEC_FIELD_PRECISION, prefix,
                    config->quant_bits && config->quant_source ? config->quant_source : "dtype");
}

/* The sliding window's source with the layer pattern it was laid out by
 * (the config's key or the class default), and Gemma 4's full last layer. */
static char *
sliding_pattern_source (const HrHfConfig *config,
                        const char       *prefix)
{
  const char *window = config->default_sources[HR_SPEC_FIELD_SLIDING_WINDOW];
  char *src = g_strdup_printf (config->sliding_pattern_from_key
                               ? "%s%s; sliding layers: sliding_window_pattern %u (layer i slides unless (i + 1) %% %u == 0)"
                               : "%s%s; sliding layers: transformers default pattern %u (layer i slides unless (i + 1) %% %u == 0)",
                               window != NULL ? "" : prefix,
                               window != NULL ? window : "sliding_window",
                               config->sliding_pattern, config->sliding_pattern);

  if (config->sliding_last_full)
    {
      char *with = g_strconcat (src, "; the last layer full (configuration_gemma4.py)", NULL);

      g_free (src);
      src = with;
    }
  return src;
}

/* The sources that are not a key of the file: the sliding pattern, and
 * each transformers default applied (it names its class). */
static void
set_default_sources (const HrHfConfig *config,
                     HrModelSpec      *spec,
                     const char       *prefix)
{
  if (config->sliding_window > 0 && config->layer_sliding != NULL && config->sliding_pattern > 0)
    {
      g_autofree char *src = sliding_pattern_source (config, prefix);

      hr_model_spec_set_source (spec, HR_SPEC_FIELD_SLIDING_WINDOW, src);
    }
  else if (config->sliding_window > 0 && config->default_sources[HR_SPEC_FIELD_SLIDING_WINDOW] != NULL)
    hr_model_spec_set_source (spec, HR_SPEC_FIELD_SLIDING_WINDOW, config->default_sources[HR_SPEC_FIELD_SLIDING_WINDOW]);
  for (guint f = 0; f < HR_SPEC_N_FIELDS; f++)
    if (config->default_sources[f] != NULL && f != HR_SPEC_FIELD_SLIDING_WINDOW &&
        !(f == HR_SPEC_FIELD_KV_HEADS && config->mla))
      hr_model_spec_set_source (spec, f, config->default_sources[f]);
}

/**
 * hr_hf_config_to_model_spec:
 * @config: a parsed config
 * @name: the spec's name ("Qwen/Qwen2.5-3B-Instruct")
 * @origin: (nullable): provenance ("hf:Qwen/Qwen2.5-3B-Instruct@aa8e...")
 * @error: return location for a #GError
 *
 * Builds an HrModelSpec from the config, named as llama.cpp names the
 * architecture (#HrHfConfig.gguf_arch, else the model_type) so the runtime's
 * per-architecture rules apply as to the GGUF: layers, heads, KV heads, key and
 * value head dims (MLA: qk_nope + qk_rope and v_head_dim, per head, as
 * transformers caches them), hidden size, native context
 * (max_position_embeddings), sliding window and per-layer sliding flags,
 * vocab, experts, tied embeddings, precision (hr_hf_config_precision()),
 * the feed-forward width (hr_hf_config_feed_forward_length()), the
 * recurrent layers and state of hybrid models, Gemma 4's two head sizes
 * (key_length the full layers', key_length_swa the sliding ones') and KV
 * heads per layer, the multi-token-prediction layers the converter appends
 * (glm4_moe, Qwen3.5: layers past num_hidden_layers with no KV cache), and
 * a source for each field ("config.json num_hidden_layers", or "transformers default
 * (configuration_gemma3.py head_dim): 256"). The parameter
 * count and file bytes are left 0 for the caller, which knows the stored
 * counts.
 *
 * Returns: (transfer full): the spec. Errors: none today; @error is kept for
 *   configs a later version may refuse.
 */
HrModelSpec *
hr_hf_config_to_model_spec (const HrHfConfig *config,
                            const char       *name,
                            const char       *origin,
                            GError          **error)
{
  HrModelSpec *spec;
  g_autofree char *prefix = NULL;

  g_return_val_if_fail (config != NULL, NULL);

  prefix = config->nested_in != NULL ? g_strdup_printf ("config.json %s.", config->nested_in)
                                     : g_strdup ("config.json ");
  spec = hr_model_spec_new (name);
  /* llama.cpp's name for the family, the one the runtime's per-architecture
   * rules and the GGUF path use; the model_type when the family is not listed. */
  spec->architecture = g_strdup (config->gguf_arch != NULL ? config->gguf_arch
                                 : config->text_model_type ? config->text_model_type : config->model_type);
  spec->precision = g_strdup (hr_hf_config_precision (config));
  spec->layers = config->layers;
  set_attention_shape (config, spec);
  spec->embedding_length = config->hidden_size;
  spec->context_length = config->max_position_embeddings;
  spec->sliding_window = config->sliding_window;
  spec->vocab_size = config->vocab_size;
  spec->expert_count = config->experts;
  spec->expert_used_count = config->experts_per_token;
  spec->tied_embeddings = config->tied_embeddings;
  copy_layer_arrays (config, spec);
  if (config->nextn_layers > 0)
    append_nextn_layers (config, spec);
  spec->nextn_layers = config->nextn_layers;
  spec->feed_forward_length = hr_hf_config_feed_forward_length (config);
  spec->origin = g_strdup (origin);

  set_key_sources (config, spec, prefix);
  set_default_sources (config, spec, prefix);
  return spec;
}
