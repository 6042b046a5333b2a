/* hr-hf-config.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hf-config-private.h"
#include "hr-json.h"
#include "hr-precision.h"
#include "hr-units.h"

/* Largest value any architecture count may take (layers, heads, sizes). */
#define MAX_DIM G_MAXUINT32

/* Reads a whole number in [0, max]; integers or whole doubles are accepted.
 * Returns FALSE with an error when present but not such a number. */
static gboolean
node_get_count (JsonNode    *node,
                const char  *file,
                const char  *key,
                guint64      max,
                guint64     *out,
                GError     **error)
{
  if (hr_json_node_u64 (node, max, out))
    return TRUE;
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
               _("%s: “%s” is not a whole number between 0 and %" PRIu64),
               file, key, max);
  return FALSE;
}

/* Looks key up in the language model's block first, then in each block
 * above it, the top level last. */
typedef HrHfScope Scope;

static JsonNode *
scope_get (const Scope *scope,
           const char  *key)
{
  for (guint i = 0; i < scope->n; i++)
    {
      JsonNode *node = hr_json_member (scope->chain[i], key);

      if (node != NULL)
        return node;
    }
  return NULL;
}

/* Whether any block of the scope has @key, null included. */
static gboolean
scope_has (const Scope *scope,
           const char  *key)
{
  for (guint i = 0; i < scope->n; i++)
    if (json_object_has_member (scope->chain[i], key))
      return TRUE;
  return FALSE;
}

/* Returns TRUE when found (value in *out), FALSE when absent; sets error
 * (and returns FALSE) when present but malformed. */
static gboolean
scope_get_u32 (const Scope *scope,
               const char  *key,
               guint32     *out,
               gboolean    *found,
               GError     **error)
{
  JsonNode *node = scope_get (scope, key);
  guint64 v;

  *found = FALSE;
  if (node == NULL)
    return TRUE;
  if (!node_get_count (node, "config.json", key, MAX_DIM, &v, error))
    return FALSE;
  *out = (guint32) v;
  *found = TRUE;
  return TRUE;
}

/* The first of keys that is present (aliases in precedence order). */
static gboolean
scope_get_u32_alias (const Scope        *scope,
                     const char * const *keys,
                     guint32            *out,
                     gboolean           *found,
                     GError            **error)
{
  for (guint i = 0; keys[i] != NULL; i++)
    {
      if (!scope_get_u32 (scope, keys[i], out, found, error))
        return FALSE;
      if (*found)
        return TRUE;
    }
  return TRUE;
}

static const char *
scope_get_string (const Scope *scope,
                  const char  *key)
{
  JsonNode *node = scope_get (scope, key);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return NULL;
}

static gboolean
scope_get_bool (const Scope *scope,
                const char  *key,
                gboolean     default_value)
{
  JsonNode *node = scope_get (scope, key);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    return json_node_get_boolean (node);
  return default_value;
}

/**
 * _hr_hf_read_token_ids:
 * @node: (nullable): a `*_token_id` member
 * @into: (element-type gint64): where the ids go
 *
 * Appends the token ids of @node: an integer, or a list of integers (and
 * lists of them, at most 64 at each level); negative ids are skipped.
 */
void
_hr_hf_read_token_ids (JsonNode *node,
                       GArray   *into)
{
  if (node == NULL)
    return;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    {
      gint64 id = json_node_get_int (node);

      if (id >= 0)
        g_array_append_val (into, id);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array) && i < 64; i++)
        _hr_hf_read_token_ids (json_array_get_element (array, i), into);
    }
}

/**
 * _hr_hf_read_token_id:
 * @node: (nullable): a `*_token_id` member
 *
 * Returns: the first token id of @node (see _hr_hf_read_token_ids()), or
 *   -1 when it has none.
 */
gint64
_hr_hf_read_token_id (JsonNode *node)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));

  _hr_hf_read_token_ids (node, ids);
  return ids->len > 0 ? g_array_index (ids, gint64, 0) : -1;
}

/**
 * hr_hf_config_free:
 * @config: (nullable): a config from hr_hf_config_parse()
 *
 * Frees @config.
 */
void
hr_hf_config_free (HrHfConfig *config)
{
  if (config == NULL)
    return;
  g_free (config->architecture);
  g_free (config->model_type);
  g_free (config->text_model_type);
  g_free (config->nested_in);
  g_clear_pointer (&config->layer_sliding, g_array_unref);
  g_free (config->quant_method);
  g_free (config->quant_format);
  g_free (config->quant_source);
  g_free (config->tied_source);
  g_free (config->dtype);
  g_clear_pointer (&config->eos_token_ids, g_array_unref);
  g_free (config->gguf_arch);
  g_clear_pointer (&config->defaults, g_ptr_array_unref);
  for (guint i = 0; i < HR_SPEC_N_FIELDS; i++)
    g_free (config->default_sources[i]);
  g_clear_pointer (&config->layer_recurrent, g_array_unref);
  g_clear_pointer (&config->layer_kv_heads, g_array_unref);
  g_free (config->recurrent_source);
  g_free (config);
}

/* Model types whose q/k/v projections carry a bias when the config has no
 * `attention_bias` key (transformers' Qwen2 attention: bias=True on q/k/v). */
static const char * const qkv_bias_types[] = {
  "qwen2", "qwen2_moe", "qwen2_vl", "qwen2_5_vl", "qwen2_audio", "qwen2_5_omni_text",
  "qwen2_5_vl_text", "qwen2_vl_text", NULL,
};

/* Model types with per-head RMS norms on q and k (q_norm / k_norm of
 * head_dim weights: Qwen3Attention, Gemma3Attention; OLMo 2 normalises the
 * whole projection, heads x head_dim). */
static const char * const qk_norm_types[] = {
  "qwen3", "qwen3_moe", "qwen3_next", "gemma3", "gemma3_text", "olmo2", "olmoe", NULL,
};

/* Model types with a norm after attention and after the MLP besides the
 * input ones (Gemma2DecoderLayer: input, post_attention,
 * pre_feedforward, post_feedforward; OLMo 2: post_attention and
 * post_feedforward only). */
static const char * const post_norm_types[] = {
  "gemma2", "gemma3", "gemma3_text", "olmo2", NULL,
};

/* The family's transformers default for an absent @key
 * (_hr_hf_family_default()), recorded in config->defaults and, for a spec
 * field (@field >= 0), as that field's source. */
static gboolean
take_default (HrHfConfig *config,
              const char *key,
              int         field,
              guint32    *out)
{
  g_autofree char *note = NULL;
  guint32 value;

  if (!_hr_hf_family_default (config, key, &value, &note))
    return FALSE;
  *out = value;
  g_ptr_array_add (config->defaults, g_strdup_printf ("%s: %s", key, note));
  if (field >= 0 && field < HR_SPEC_N_FIELDS)
    {
      g_free (config->default_sources[field]);
      config->default_sources[field] = g_steal_pointer (&note);
    }
  return TRUE;
}

/* KV heads (the key, or multi_query, or the attention heads) and the head
 * dim (an explicit positive head_dim wins, then the family's default, then
 * hidden size / heads). */
static gboolean
parse_head_sizes (const Scope *scope,
                  HrHfConfig  *config,
                  GError     **error)
{
  gboolean found;
  guint32 value;

  if (!scope_get_u32 (scope, "num_key_value_heads", &config->kv_heads, &found, error))
    return FALSE;
  if ((!found || config->kv_heads == 0) &&
      !(!found && take_default (config, "num_key_value_heads", HR_SPEC_FIELD_KV_HEADS, &config->kv_heads)))
    config->kv_heads = scope_get_bool (scope, "multi_query", FALSE) ? 1 : config->heads;
  if (config->kv_heads > config->heads)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json has more key/value heads (%u) than attention heads (%u)"),
                   config->kv_heads, config->heads);
      return FALSE;
    }

  if (!scope_get_u32 (scope, "head_dim", &value, &found, error))
    return FALSE;
  if (found && value > 0)
    {
      config->head_dim = value;
      config->head_dim_explicit = TRUE;
    }
  else if (take_default (config, "head_dim", HR_SPEC_FIELD_KEY_LENGTH, &config->head_dim))
    config->default_sources[HR_SPEC_FIELD_VALUE_LENGTH] = g_strdup (config->default_sources[HR_SPEC_FIELD_KEY_LENGTH]);
  else if (config->hidden_size % config->heads == 0)
    config->head_dim = config->hidden_size / config->heads;
  else
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json: hidden size %u is not a multiple of %u heads and there is no head_dim"),
                   config->hidden_size, config->heads);
      return FALSE;
    }
  return TRUE;
}

/* The feed-forward width (GPT-2's 4 x n_embd when absent), vocabulary and
 * context, with the family's defaults. */
static gboolean
parse_sizes (const Scope *scope,
             HrHfConfig  *config,
             GError     **error)
{
  static const char * const inter_keys[] = { "intermediate_size", "n_inner", "ffn_dim", NULL };
  static const char * const ctx_keys[] = { "max_position_embeddings", "n_positions", "seq_length", NULL };
  gboolean found;

  if (!scope_get_u32_alias (scope, inter_keys, &config->intermediate_size, &found, error))
    return FALSE;
  if (!found && config->gpt2_style)
    config->intermediate_size = (guint32) MIN ((guint64) config->hidden_size * 4, MAX_DIM);
  if (!scope_get_u32 (scope, "vocab_size", &config->vocab_size, &found, error))
    return FALSE;
  if (!found)
    take_default (config, "vocab_size", -1, &config->vocab_size);
  if (!scope_get_u32_alias (scope, ctx_keys, &config->max_position_embeddings, &found, error))
    return FALSE;
  if (!found)
    take_default (config, "max_position_embeddings", HR_SPEC_FIELD_CONTEXT_LENGTH, &config->max_position_embeddings);
  if (config->gpt2_style && !scope_get_u32 (scope, "n_positions", &config->gpt2_positions, &found, error))
    return FALSE;
  return TRUE;
}

/* Layers, heads, KV heads, sizes, vocabulary and context. */
static gboolean
parse_shape (const Scope *scope,
             HrHfConfig  *config,
             GError     **error)
{
  static const char * const layer_keys[] = { "num_hidden_layers", "n_layer", "num_layers", NULL };
  static const char * const head_keys[] = { "num_attention_heads", "n_head", NULL };
  static const char * const hidden_keys[] = { "hidden_size", "n_embd", "d_model", NULL };
  gboolean found, no_attention;

  config->gpt2_style = scope_get (scope, "n_embd") != NULL;

  if (!scope_get_u32_alias (scope, layer_keys, &config->layers, &found, error))
    return FALSE;
  if (!found || config->layers == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json gives no layer count (num_hidden_layers or n_layer)"));
      return FALSE;
    }
  if (!scope_get_u32_alias (scope, head_keys, &config->heads, &found, error))
    return FALSE;
  /* Mamba-2 has no attention: the converter writes head_count 0
   * (conversion/mamba.py Mamba2Model). */
  no_attention = !found && g_strcmp0 (config->gguf_arch, "mamba2") == 0;
  if (no_attention)
    config->heads = config->kv_heads = config->head_dim = 0;
  else if (!found || config->heads == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json gives no attention head count (num_attention_heads or n_head)"));
      return FALSE;
    }
  if (!scope_get_u32_alias (scope, hidden_keys, &config->hidden_size, &found, error))
    return FALSE;
  if (!found || config->hidden_size == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json gives no hidden size (hidden_size or n_embd)"));
      return FALSE;
    }
  if (!no_attention && !parse_head_sizes (scope, config, error))
    return FALSE;
  return parse_sizes (scope, config, error);
}

/* layer_types (@node) lists "full_attention" for every layer. */
static gboolean
all_full_attention (JsonNode *node)
{
  JsonArray *types;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  types = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (types); i++)
    {
      JsonNode *t = json_array_get_element (types, i);

      if (!JSON_NODE_HOLDS_VALUE (t) || json_node_get_value_type (t) != G_TYPE_STRING ||
          strcmp (json_node_get_string (t), "full_attention") != 0)
        return FALSE;
    }
  return json_array_get_length (types) > 0;
}

/* One flag per layer: layer i slides unless (i + 1) % @period == 0. */
static GArray *
sliding_every (guint32 layers,
               guint32 period)
{
  GArray *flags = g_array_sized_new (FALSE, TRUE, sizeof (guint8), layers);

  for (guint i = 0; i < layers; i++)
    {
      guint8 sliding = (i + 1) % period != 0;

      g_array_append_val (flags, sliding);
    }
  return flags;
}

/* layer_types (@types) into layer_sliding: "sliding_attention" slides;
 * it must list every layer. */
static gboolean
read_layer_types_sliding (HrHfConfig  *config,
                          JsonArray   *types,
                          GError     **error)
{
  guint n = json_array_get_length (types);

  if (n != config->layers)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json: layer_types lists %u layers but num_hidden_layers is %u"),
                   n, config->layers);
      return FALSE;
    }
  config->layer_sliding = g_array_sized_new (FALSE, TRUE, sizeof (guint8), n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *t = json_array_get_element (types, i);
      guint8 sliding = JSON_NODE_HOLDS_VALUE (t) &&
                       json_node_get_value_type (t) == G_TYPE_STRING &&
                       strcmp (json_node_get_string (t), "sliding_attention") == 0;

      g_array_append_val (config->layer_sliding, sliding);
    }
  return TRUE;
}

/* Llama 4's chunked attention: convert_hf_to_gguf.py writes no key for
 * it, and llama.cpp always runs 8,192-token chunks on three layers of four
 * (src/models/llama4.cpp: n_swa = 8192, load_swa_pattern (ml, 4)), the
 * cache sized as a sliding window's (src/llama-kv-cache-iswa.cpp).
 * Llama4TextConfig's defaults are the same (attention_chunk_size 8192,
 * no_rope_layer_interval 4). */
static void
apply_llama4_chunks (HrHfConfig *config)
{
  config->sliding_window = 8192;
  config->layer_sliding = sliding_every (config->layers, 4);
  g_free (config->default_sources[HR_SPEC_FIELD_SLIDING_WINDOW]);
  config->default_sources[HR_SPEC_FIELD_SLIDING_WINDOW] =
    g_strdup ("llama.cpp src/models/llama4.cpp: chunked attention, n_swa 8192 on 3 layers of 4");
}

/* No layer_types: the class builds them from its pattern,
 * "sliding_attention" if bool((i + 1) % pattern) (configuration_gemma3.py,
 * configuration_cohere2.py: the sliding_window_pattern key, else the class
 * default; configuration_gemma2.py, configuration_gpt_oss.py: 2). */
static gboolean
apply_sliding_pattern (const Scope *scope,
                       HrHfConfig  *config,
                       GError     **error)
{
  guint32 period = 0;
  gboolean from_key = FALSE;

  if (!scope_get_u32 (scope, "sliding_window_pattern", &period, &from_key, error))
    return FALSE;
  if ((from_key && period > 0) ||
      take_default (config, "sliding_window_pattern", -1, &period))
    {
      config->layer_sliding = sliding_every (config->layers, period);
      config->sliding_pattern = period;
      config->sliding_pattern_from_key = from_key;
    }
  return TRUE;
}

/* The sliding window and, from layer_types, which layers use it. */
static gboolean
parse_sliding (const Scope *scope,
               HrHfConfig  *config,
               GError     **error)
{
  JsonNode *node;
  gboolean found;

  /* Sliding window: absent (not null: Qwen3's "sliding_window": null is
   * off) takes the family's default. */
  if (!scope_has (scope, "sliding_window"))
    take_default (config, "sliding_window", HR_SPEC_FIELD_SLIDING_WINDOW, &config->sliding_window);
  else if (!scope_get_u32 (scope, "sliding_window", &config->sliding_window, &found, error))
    return FALSE;
  if (!scope_get_bool (scope, "use_sliding_window", TRUE))
    config->sliding_window = 0;
  node = scope_get (scope, "layer_types");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node) && config->sliding_window > 0)
    return read_layer_types_sliding (config, json_node_get_array (node), error);
  /* Only layer_types of "full_attention" alone (MobileLLM) make the
   * converter write sliding_window 0 for Llama 4, which turns chunking off
   * (conversion/llama.py Llama4Model). */
  if (g_strcmp0 (config->gguf_arch, "llama4") == 0 && !all_full_attention (node))
    apply_llama4_chunks (config);
  else if (config->sliding_window > 0)
    return apply_sliding_pattern (scope, config, error);
  return TRUE;
}

/* Mixture of experts and multi-head latent attention (DeepSeek). */
static gboolean
parse_moe_mla (const Scope *scope,
               HrHfConfig  *config,
               GError     **error)
{
  gboolean found;

  /* MoE: one alias table, hr_hf_moe_keys(). */
  /* An absent key takes the class default where it has one
   * (_hr_hf_family_default(): Qwen3_5MoeTextConfig num_experts 256,
   * num_experts_per_tok 8, moe_intermediate_size 512,
   * shared_expert_intermediate_size 512). */
  if (!scope_get_u32_alias (scope, hr_hf_moe_keys (HR_HF_MOE_EXPERTS), &config->experts, &found, error))
    return FALSE;
  if (!found)
    take_default (config, "num_experts", -1, &config->experts);
  if (config->experts > 0)
    {
      if (!scope_get_u32_alias (scope, hr_hf_moe_keys (HR_HF_MOE_EXPERTS_PER_TOKEN),
                                &config->experts_per_token, &found, error))
        return FALSE;
      if (!found)
        found = take_default (config, "num_experts_per_tok", -1, &config->experts_per_token);
      if (!found || config->experts_per_token == 0 || config->experts_per_token > config->experts)
        config->experts_per_token = MIN (config->experts, 1);
      if (!scope_get_u32_alias (scope, hr_hf_moe_keys (HR_HF_MOE_INTERMEDIATE_SIZE),
                                &config->moe_intermediate_size, &found, error))
        return FALSE;
      if (!found)
        take_default (config, "moe_intermediate_size", -1, &config->moe_intermediate_size);
      if (!scope_get_u32_alias (scope, hr_hf_moe_keys (HR_HF_MOE_SHARED_EXPERTS),
                                &config->shared_experts, &found, error) ||
          !scope_get_u32 (scope, "shared_expert_intermediate_size", &config->shared_intermediate_size, &found, error))
        return FALSE;
      if (!found)
        take_default (config, "shared_expert_intermediate_size", -1, &config->shared_intermediate_size);
      if (!scope_get_u32_alias (scope, hr_hf_moe_keys (HR_HF_MOE_FIRST_DENSE_LAYERS),
                                &config->first_dense_layers, &found, error))
        return FALSE;
      if (config->shared_experts == 0 && config->shared_intermediate_size > 0)
        config->shared_experts = 1;
      config->first_dense_layers = MIN (config->first_dense_layers, config->layers);
    }

  /* MLA. */
  if (!scope_get_u32 (scope, "kv_lora_rank", &config->kv_lora_rank, &found, error))
    return FALSE;
  if (found && config->kv_lora_rank > 0)
    {
      config->mla = TRUE;
      if (!scope_get_u32 (scope, "q_lora_rank", &config->q_lora_rank, &found, error) ||
          !scope_get_u32 (scope, "qk_rope_head_dim", &config->qk_rope_head_dim, &found, error) ||
          !scope_get_u32 (scope, "qk_nope_head_dim", &config->qk_nope_head_dim, &found, error) ||
          !scope_get_u32 (scope, "v_head_dim", &config->v_head_dim, &found, error))
        return FALSE;
    }

  return TRUE;
}

/* The first of "architectures" ("LlamaForCausalLM"), or %NULL. */
static char *
first_architecture (JsonObject *obj)
{
  JsonNode *node = hr_json_member (obj, "architectures");
  JsonNode *first;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) ||
      json_array_get_length (json_node_get_array (node)) == 0)
    return NULL;
  first = json_array_get_element (json_node_get_array (node), 0);
  if (JSON_NODE_HOLDS_VALUE (first) && json_node_get_value_type (first) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (first));
  return NULL;
}

/* tie_word_embeddings, else the default of model type @type. */
static void
read_tied (const Scope *scope,
           HrHfConfig  *config,
           const char  *type)
{
  JsonNode *node = scope_get (scope, "tie_word_embeddings");

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    {
      config->tied_embeddings = json_node_get_boolean (node);
      config->tied_source = g_strdup ("tie_word_embeddings");
    }
  else
    {
      config->tied_embeddings = hr_hf_tied_default (type);
      config->tied_source = g_strdup_printf (_("no tie_word_embeddings: the default for model type “%s”"),
                                             type != NULL ? type : "?");
    }
}

/* The biases and extra norms the parameter count needs: attention_bias
 * (else the model type's default), mlp_bias, q/k norms, post-norms. */
static void
read_biases_and_norms (const Scope *scope,
                       HrHfConfig  *config,
                       const char  *type)
{
  JsonNode *node = scope_get (scope, "attention_bias");
  gboolean qwen2_bias = type != NULL && g_strv_contains (qkv_bias_types, type);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    config->qkv_bias = json_node_get_boolean (node);
  else
    config->qkv_bias = qwen2_bias;
  /* attention_bias on a llama-like also biases o_proj (LlamaAttention);
   * the Qwen2 family biases q/k/v only. */
  config->o_bias = config->qkv_bias && !qwen2_bias;
  config->mlp_bias = scope_get_bool (scope, "mlp_bias", FALSE);
  config->qk_norm = type != NULL && g_strv_contains (qk_norm_types, type);
  config->post_norms = type != NULL && g_strv_contains (post_norm_types, type);
}

/**
 * hr_hf_config_parse:
 * @data: (array length=length): the bytes of config.json
 * @length: bytes in @data
 * @error: return location for a #GError
 *
 * Reads the fields the memory math needs from a transformers config.json
 * (docs/formats.md, "config.json fields" and
 * "Known quirks of configs and files"), handling each quirk
 * as a kind:
 *  - language-model fields are read from the sub-config that holds the
 *    language model's dimensions, at most %HR_HF_MAX_NEST_DEPTH levels down
 *    (`text_config`, `language_config`, `llm_config`,
 *    `thinker_config.text_config` ...; _hr_hf_find_language_config()), then
 *    from each level above it, the top level last;
 *  - GPT-2 style keys `n_layer`, `n_embd`, `n_head`, `n_inner`, `n_positions`;
 *  - `num_key_value_heads` absent = `num_attention_heads`; `multi_query: true`
 *    = one KV head;
 *  - `head_dim`: a positive integer wins even when it differs from
 *    hidden / heads; absent or null = hidden_size / num_attention_heads;
 *  - a key the config leaves out takes its family's transformers default
 *    (_hr_hf_family_default(): Gemma3TextConfig head_dim 256, vocab_size
 *    262208, num_key_value_heads 4, sliding_window 4096 ...; each one
 *    applied is listed in #HrHfConfig.defaults);
 *  - `sliding_window` counts only when `use_sliding_window` is not false
 *    (null is off, absent takes the default); `layer_types`
 *    ("sliding_attention"/"full_attention") marks each layer, else the
 *    class's pattern does ("sliding_attention" if bool((i + 1) % pattern):
 *    `sliding_window_pattern`, or 6 for Gemma 3, 4 for Cohere 2, 2 for
 *    Gemma 2 and gpt-oss); Llama 4 chunks at 8,192 on three layers of four
 *    as llama.cpp runs it;
 *  - hybrid and recurrent families (Qwen3-Next / Qwen3.5, LFM2, Granite 4.0
 *    H, Nemotron-H, Mamba-2, Kimi Linear): the recurrent layers, the KV
 *    heads per layer and llama.cpp's n_embd_r / n_embd_s
 *    (_hr_hf_read_hybrid());
 *  - #HrHfConfig.gguf_arch: the architecture convert_hf_to_gguf.py writes;
 *  - MoE: the one alias table of hr_hf_moe_keys() (`n_routed_experts` >
 *    `num_local_experts` > `num_experts` > `moe_num_experts`, experts per
 *    token, shared experts, expert width, leading dense layers);
 *  - MLA (DeepSeek-V2/V3): `kv_lora_rank`, `q_lora_rank`, `qk_rope_head_dim`,
 *    `qk_nope_head_dim`, `v_head_dim`;
 *  - `quantization_config` in the deepest block that has one: GPTQ/AWQ
 *    bits, compressed-tensors config_groups, fp8, mxfp4, bitsandbytes
 *    (_hr_hf_read_quantization());
 *  - `dtype` wins over `torch_dtype`;
 *  - `tie_word_embeddings` absent = the model type's default
 *    (hr_hf_tied_default(): llama, qwen2, mistral ... untied; gemma, gpt2 ...
 *    tied); the weight list settles it (hr_hf_config_settle_tied());
 *  - q/k norms and post-norms by model type, `mlp_bias`, `attention_bias`
 *    for the parameter count (hr_hf_config_count_parameters()).
 *
 * Returns: (transfer full): the config, or %NULL with @error set:
 *   %HR_CORE_ERROR_PARSE (not JSON / not an object), %HR_CORE_ERROR_INVALID_DATA
 *   (layers, heads or hidden size missing or zero, a count that is not a whole
 *   number, heads that do not divide the hidden size without an explicit
 *   head_dim, KV heads above heads, layer_types whose length is not the layer
 *   count).
 */
HrHfConfig *
hr_hf_config_parse (const char *data,
                    gsize       length,
                    GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(HrHfConfig) config = NULL;
  JsonObject *obj;
  Scope scope = { { NULL, }, 0 };
  const char *type;
  const char *dtype;

  obj = hr_json_parse_object (parser, data, length, "config.json", error);
  if (obj == NULL)
    return NULL;

  config = g_new0 (HrHfConfig, 1);
  config->eos_token_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  config->nested_in = _hr_hf_find_language_config (obj, &scope);

  config->architecture = first_architecture (obj);
  config->model_type = g_strdup (hr_json_string (obj, "model_type"));
  if (scope.n > 1)
    config->text_model_type = g_strdup (hr_json_string (scope.chain[0], "model_type"));
  type = config->text_model_type ? config->text_model_type : config->model_type;
  config->defaults = g_ptr_array_new_with_free_func (g_free);
  config->gguf_arch = g_strdup (_hr_hf_family_gguf_arch (config));

  if (!parse_shape (&scope, config, error))
    return NULL;
  read_tied (&scope, config, type);

  if (!parse_sliding (&scope, config, error) || !_hr_hf_read_gemma4 (&scope, config, error))
    return NULL;

  if (!parse_moe_mla (&scope, config, error) || !_hr_hf_read_nextn (&scope, config, error))
    return NULL;
  /* nemotron_h with experts converts to nemotron_h_moe. */
  g_free (config->gguf_arch);
  config->gguf_arch = g_strdup (_hr_hf_family_gguf_arch (config));

  if (!_hr_hf_read_hybrid (&scope, config, error))
    return NULL;

  /* Quantization: the deepest block that has a quantization_config. */
  _hr_hf_read_quantization (&scope, config);

  /* dtype wins over torch_dtype, the nested block over the top level. */
  dtype = scope_get_string (&scope, "dtype");
  if (dtype == NULL)
    dtype = scope_get_string (&scope, "torch_dtype");
  config->dtype = g_strdup (dtype);

  read_biases_and_norms (&scope, config, type);

  config->bos_token_id = _hr_hf_read_token_id (scope_get (&scope, "bos_token_id"));
  _hr_hf_read_token_ids (scope_get (&scope, "eos_token_id"), config->eos_token_ids);

  return g_steal_pointer (&config);
}

/**
 * hr_hf_parameters_relative_difference:
 * @derived: a parameter count derived from config.json
 * @stored: the count stored in the repository (Hub API, index, headers)
 *
 * Returns: |derived - stored| / stored, a ratio (0.0 = the same count;
 *   0.01 = 1 % apart); infinity when @stored is 0.
 */
double
hr_hf_parameters_relative_difference (guint64 derived,
                                      guint64 stored)
{
  guint64 diff;

  if (stored == 0)
    return INFINITY;
  diff = derived > stored ? derived - stored : stored - derived;
  return (double) diff / (double) stored;
}

/**
 * hr_hf_dtype_to_precision:
 * @dtype: (nullable): a config dtype ("bfloat16", "float16", "float32") or a
 *   safetensors dtype ("BF16", "F16", "F32", "I8")
 *
 * Returns: (nullable): the HrPrecision id for it ("bf16", "fp16", "fp32",
 *   "int8"; see hr-precision.c), or %NULL for a dtype with no precision.
 */
const char *
hr_hf_dtype_to_precision (const char *dtype)
{
  static const struct { const char *dtype; const char *precision; } map[] = {
    { "bfloat16", "bf16" }, { "BF16", "bf16" },
    { "float16", "fp16" }, { "F16", "fp16" }, { "half", "fp16" },
    { "float32", "fp32" }, { "F32", "fp32" }, { "float", "fp32" },
    { "int8", "int8" }, { "I8", "int8" },
  };

  if (dtype == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (strcmp (map[i].dtype, dtype) == 0)
      return map[i].precision;
  return NULL;
}

/**
 * hr_hf_config_precision:
 * @config: a parsed config
 *
 * The precision of the stored weights as config.json describes them, the
 * fallback when the tensor bytes are not known: quantization_config's bits
 * (_hr_hf_read_quantization(): GPTQ/AWQ, compressed-tensors, fp8,
 * bitsandbytes) 4 -> "int4", 8 -> "int8" (fp8 weights are 8 bits too),
 * mxfp4 -> "mxfp4_moe" (4.25 bits with its scales); other bit widths have
 * no precision; without quantization, the dtype's
 * (hr_hf_dtype_to_precision()).
 *
 * Returns: (nullable): an HrPrecision id, or %NULL when unknown.
 */
const char *
hr_hf_config_precision (const HrHfConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);

  if (config->quant_bits == 4 && config->quant_bits_per_weight == 4.25)
    return "mxfp4_moe";
  if (config->quant_bits == 4)
    return "int4";
  if (config->quant_bits == 8)
    return "int8";
  if (config->quant_bits != 0)
    return NULL;
  return hr_hf_dtype_to_precision (config->dtype);
}

/**
 * hr_hf_config_feed_forward_length:
 * @config: a parsed config
 *
 * The feed-forward width llama.cpp computes with, as the GGUF converter
 * writes it (`{arch}.feed_forward_length`): intermediate_size; for a
 * mixture of experts one expert's width (moe_intermediate_size, the
 * ffn_down_exps rows; `{arch}.expert_feed_forward_length`); LFM2's
 * adjusted width (conversion/lfm2.py _add_feed_forward_length:
 * block_auto_adjust_ff_dim: int(2 x ff / 3), x block_ffn_dim_multiplier,
 * rounded up to block_multiple_of); 0 for Mamba-2 (the converter writes
 * 0) and Nemotron-H (a per-layer list).
 *
 * Returns: the width in values (0 = unknown).
 */
guint32
hr_hf_config_feed_forward_length (const HrHfConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);

  if (g_strcmp0 (config->gguf_arch, "mamba2") == 0 || g_strcmp0 (config->gguf_arch, "nemotron_h") == 0 ||
      g_strcmp0 (config->gguf_arch, "nemotron_h_moe") == 0)
    return 0;
  if (config->experts > 1 && config->moe_intermediate_size > 0)
    return config->moe_intermediate_size;
  if (g_strcmp0 (config->gguf_arch, "lfm2") == 0 && config->lfm2_ff > 0)
    return config->lfm2_ff;
  return config->intermediate_size;
}

