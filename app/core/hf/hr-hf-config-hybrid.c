/* hr-hf-config-hybrid.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Hybrid and recurrent families of config.json: which layers keep
 * recurrent state, which attend, and the state's size per layer and slot,
 * as llama.cpp derives them from the GGUF that convert_hf_to_gguf.py
 * writes from the config (llama.cpp src/llama-hparams.cpp n_embd_r,
 * n_embd_s; src/models/<arch>.cpp load_arch_hparams).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hf-config-private.h"
#include "hr-json.h"

static JsonNode *
get (const HrHfScope *scope,
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

/* The first of @keys present (convert_hf_to_gguf.py find_hparam order), or
 * @fallback when none is and @fallback is not 0. Sets an error naming the
 * first key when none is present and there is no fallback. */
static gboolean
get_count (const HrHfScope    *scope,
           const char * const *keys,
           guint32             fallback,
           guint32            *out,
           GError            **error)
{
  for (guint i = 0; keys[i] != NULL; i++)
    {
      JsonNode *node = get (scope, keys[i]);
      guint64 v;

      if (node == NULL)
        continue;
      if (!hr_json_node_u64 (node, G_MAXUINT32, &v))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("config.json: “%s” is not a whole number between 0 and %u"), keys[i], G_MAXUINT32);
          return FALSE;
        }
      *out = (guint32) v;
      return TRUE;
    }
  if (fallback != 0)
    {
      *out = fallback;
      return TRUE;
    }
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
               _("config.json has no “%s”, which the recurrent state of this model needs"), keys[0]);
  return FALSE;
}

/* layer_types (or another per-layer list of strings) as an array, checked
 * against the layer count; NULL when absent. */
static JsonArray *
get_types (const HrHfScope  *scope,
           const char       *key,
           const HrHfConfig *config,
           GError          **error)
{
  JsonNode *node = get (scope, key);
  JsonArray *types;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  types = json_node_get_array (node);
  if (json_array_get_length (types) != config->layers)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json: %s lists %u layers but num_hidden_layers is %u"),
                   key, json_array_get_length (types), config->layers);
      return NULL;
    }
  return types;
}

static const char *
type_at (JsonArray *types,
         guint      i)
{
  JsonNode *t = json_array_get_element (types, i);

  if (JSON_NODE_HOLDS_VALUE (t) && json_node_get_value_type (t) == G_TYPE_STRING)
    return json_node_get_string (t);
  return "";
}

/* Fills the per-layer arrays: recurrent[i] and, for attention, the KV
 * heads (0 where a layer does not attend). */
static void
set_layers (HrHfConfig  *config,
            const guint8 *recurrent,
            const guint8 *attends)
{
  config->layer_recurrent = g_array_sized_new (FALSE, TRUE, sizeof (guint8), config->layers);
  config->layer_kv_heads = g_array_sized_new (FALSE, TRUE, sizeof (guint32), config->layers);
  for (guint i = 0; i < config->layers; i++)
    {
      /* MLA layers cache one latent: one KV head (Kimi Linear's
       * converter writes head_count_kv 1 there). */
      guint32 kv = attends[i] ? (config->mla ? 1 : config->kv_heads) : 0;

      g_array_append_val (config->layer_recurrent, recurrent[i]);
      g_array_append_val (config->layer_kv_heads, kv);
    }
}

/* Mamba-2 style state (llama.cpp n_embd_r: (d_conv - 1) * (d_inner +
 * 2 * n_group * d_state); n_embd_s: d_state * d_inner). */
static void
set_mamba_state (HrHfConfig *config,
                 guint32     d_conv,
                 guint32     d_inner,
                 guint32     n_group,
                 guint32     d_state,
                 const char *keys)
{
  guint64 r = (guint64) (d_conv > 0 ? d_conv - 1 : 0) * ((guint64) d_inner + 2 * (guint64) n_group * d_state);
  guint64 s = (guint64) d_state * d_inner;

  config->recurrent_r = (guint32) MIN (r, G_MAXUINT32);
  config->recurrent_s = (guint32) MIN (s, G_MAXUINT32);
  g_free (config->recurrent_source);
  config->recurrent_source =
    g_strdup_printf ("llama.cpp src/llama-hparams.cpp n_embd_r = (d_conv %u - 1) x (d_inner %u + 2 x n_group %u x "
                     "d_state %u) = %u; n_embd_s = d_state x d_inner = %u (config.json %s)",
                     d_conv, d_inner, n_group, d_state, config->recurrent_r, config->recurrent_s, keys);
}

/* Qwen3-Next / Qwen3.5: gated delta-net layers ("linear_attention") and
 * full attention every full_attention_interval-th layer (Qwen3NextConfig:
 * "linear_attention" if bool((i + 1) % interval_pattern), interval 4; llama.cpp
 * src/models/qwen3next.cpp: is_recr = (i + 1) % full_attn_interval != 0).
 * convert_hf_to_gguf.py (conversion/qwen.py Qwen3NextModel) writes
 * ssm.conv_kernel = linear_conv_kernel_dim, ssm.state_size =
 * linear_key_head_dim, ssm.group_count = linear_num_key_heads,
 * ssm.inner_size = linear_value_head_dim x linear_num_value_heads. */
static gboolean
hybrid_qwen3_next (const HrHfScope *scope,
                   HrHfConfig      *config,
                   GError         **error)
{
  static const char * const conv_k[] = { "linear_conv_kernel_dim", NULL };
  static const char * const kdim_k[] = { "linear_key_head_dim", NULL };
  static const char * const vdim_k[] = { "linear_value_head_dim", NULL };
  static const char * const kh_k[] = { "linear_num_key_heads", NULL };
  static const char * const vh_k[] = { "linear_num_value_heads", NULL };
  static const char * const interval_k[] = { "full_attention_interval", NULL };
  g_autofree guint8 *recurrent = g_new0 (guint8, config->layers);
  g_autofree guint8 *attends = g_new0 (guint8, config->layers);
  guint32 conv = 0, kdim = 0, vdim = 0, kh = 0, vh = 0, interval = 0;
  g_autoptr(GError) local = NULL;
  JsonArray *types;

  /* Qwen3NextConfig's defaults (configuration_qwen3_next.py), the same in
   * Qwen3_5TextConfig and Qwen3_5MoeTextConfig (configuration_qwen3_5.py,
   * configuration_qwen3_5_moe.py): linear_conv_kernel_dim 4,
   * linear_key_head_dim 128, linear_value_head_dim 128,
   * linear_num_key_heads 16, linear_num_value_heads 32,
   * full_attention_interval 4 (layer_types "linear_attention" if
   * bool((i + 1) % interval)). Each default applied is listed in
   * config->defaults. */
  if (!get_count (scope, conv_k, 4, &conv, error) ||
      !get_count (scope, kdim_k, 128, &kdim, error) ||
      !get_count (scope, vdim_k, 128, &vdim, error) ||
      !get_count (scope, kh_k, 16, &kh, error) ||
      !get_count (scope, vh_k, 32, &vh, error) ||
      !get_count (scope, interval_k, 4, &interval, error))
    return FALSE;
  {
    const char * const *keys[] = { conv_k, kdim_k, vdim_k, kh_k, vh_k, interval_k };
    const guint32 values[] = { conv, kdim, vdim, kh, vh, interval };

    for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
      {
        char *note;

        if (get (scope, keys[k][0]) != NULL ||
            (keys[k] == interval_k && get (scope, "layer_types") != NULL) ||
            (note = _hr_hf_family_note (config, keys[k][0], values[k])) == NULL)
          continue;
        g_ptr_array_add (config->defaults, g_strdup_printf ("%s: %s", keys[k][0], note));
        g_free (note);
      }
  }
  types = get_types (scope, "layer_types", config, &local);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  for (guint i = 0; i < config->layers; i++)
    {
      if (types != NULL)
        recurrent[i] = strcmp (type_at (types, i), "linear_attention") == 0;
      else
        recurrent[i] = interval > 0 && (i + 1) % interval != 0;
      attends[i] = !recurrent[i];
    }
  set_layers (config, recurrent, attends);
  set_mamba_state (config, conv, vdim * vh, kh, kdim, types != NULL
                   ? "linear_conv_kernel_dim, linear_value_head_dim x linear_num_value_heads, linear_num_key_heads, "
                     "linear_key_head_dim; layer_types"
                   : "linear_conv_kernel_dim, linear_value_head_dim x linear_num_value_heads, linear_num_key_heads, "
                     "linear_key_head_dim; full_attention_interval");
  return TRUE;
}

/* LFM2's feed-forward width as the converter writes it
 * (conversion/lfm2.py _add_feed_forward_length): block_ff_dim (else
 * intermediate_size); with block_auto_adjust_ff_dim int(2 x ff / 3), times
 * block_ffn_dim_multiplier when set, rounded up to block_multiple_of. */
static void
lfm2_feed_forward (const HrHfScope *scope,
                   HrHfConfig      *config)
{
  static const char * const ff_k[] = { "block_ff_dim", "intermediate_size", NULL };
  static const char * const mult_k[] = { "block_multiple_of", NULL };
  JsonNode *adjust = get (scope, "block_auto_adjust_ff_dim");
  JsonNode *factor = get (scope, "block_ffn_dim_multiplier");
  guint32 ff = 0, multiple = 0;
  double v;

  if (!get_count (scope, ff_k, 0, &ff, NULL))
    return;
  if (adjust != NULL && JSON_NODE_HOLDS_VALUE (adjust) && json_node_get_value_type (adjust) == G_TYPE_BOOLEAN &&
      json_node_get_boolean (adjust))
    {
      v = (double) (guint64) (2.0 * ff / 3.0);
      if (factor != NULL && JSON_NODE_HOLDS_VALUE (factor) &&
          (json_node_get_value_type (factor) == G_TYPE_DOUBLE || json_node_get_value_type (factor) == G_TYPE_INT64))
        v = (double) (guint64) (json_node_get_double (factor) * v);
      if (get_count (scope, mult_k, 0, &multiple, NULL) && multiple > 0)
        v = (double) multiple * (double) (((guint64) v + multiple - 1) / multiple);
      ff = (guint32) MIN (v, (double) G_MAXUINT32);
    }
  config->lfm2_ff = ff;
}

/* LFM2: short-convolution layers ("conv") and attention layers
 * ("full_attention"); Lfm2Config builds layer_types from full_attn_idxs
 * (all layers attend without either). convert_hf_to_gguf.py
 * (conversion/lfm2.py) writes head_count_kv 0 for "conv" layers and
 * shortconv.l_cache = conv_L_cache (Lfm2Config default 3); llama.cpp
 * src/models/lfm2.cpp: is_recr = n_head_kv(il) == 0; n_embd_r = n_embd x
 * (l_cache - 1), n_embd_s = 0. */
static gboolean
hybrid_lfm2 (const HrHfScope *scope,
             HrHfConfig      *config,
             GError         **error)
{
  static const char * const cache_k[] = { "conv_L_cache", NULL };
  g_autofree guint8 *recurrent = g_new0 (guint8, config->layers);
  g_autofree guint8 *attends = g_new0 (guint8, config->layers);
  g_autoptr(GError) local = NULL;
  JsonArray *types = get_types (scope, "layer_types", config, &local);
  JsonNode *idxs = get (scope, "full_attn_idxs");
  guint32 l_cache = 0;
  guint64 r;

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (!get_count (scope, cache_k, 3, &l_cache, error))
    return FALSE;
  for (guint i = 0; i < config->layers; i++)
    {
      if (types != NULL)
        attends[i] = strcmp (type_at (types, i), "conv") != 0;
      else if (idxs != NULL && JSON_NODE_HOLDS_ARRAY (idxs))
        {
          JsonArray *a = json_node_get_array (idxs);

          for (guint k = 0; k < json_array_get_length (a); k++)
            {
              guint64 v;

              if (hr_json_node_u64 (json_array_get_element (a, k), G_MAXUINT32, &v) && v == i)
                attends[i] = 1;
            }
        }
      else
        attends[i] = 1;
      recurrent[i] = !attends[i];
    }
  set_layers (config, recurrent, attends);
  lfm2_feed_forward (scope, config);
  r = (guint64) config->hidden_size * (l_cache > 0 ? l_cache - 1 : 0);
  config->recurrent_r = (guint32) MIN (r, G_MAXUINT32);
  config->recurrent_s = 0;
  config->recurrent_source =
    g_strdup_printf ("llama.cpp src/llama-hparams.cpp n_embd_r = n_embd %u x (conv_L_cache %u - 1) = %u; "
                     "n_embd_s = 0 (config.json hidden_size, conv_L_cache; %s)",
                     config->hidden_size, l_cache, config->recurrent_r,
                     types != NULL ? "layer_types" : idxs != NULL ? "full_attn_idxs" : "every layer attends");
  return TRUE;
}

/* The Mamba-2 keys of the hybrid converters, in find_hparam order with the
 * "mamba" prefix (conversion/granite.py GraniteHybridModel.find_hparam:
 * the keys, then each prefixed with "mamba_"). */
static const char * const mamba_group_keys[] = {
  "n_groups", "num_groups", "mamba_n_groups", "mamba_num_groups", NULL,
};
static const char * const mamba_conv_keys[] = {
  "conv_kernel", "d_conv", "mamba_conv_kernel", "mamba_d_conv", NULL,
};
static const char * const mamba_state_keys[] = {
  "state_size", "d_state", "state_dim", "ssm_state_size",
  "mamba_state_size", "mamba_d_state", "mamba_state_dim", "mamba_ssm_state_size", NULL,
};

/* Granite 4.0 hybrid (GraniteMoeHybridConfig): layer_types "mamba" /
 * "attention" (absent: every layer "mamba", layers_block_type). The
 * converter (conversion/granite.py GraniteHybridModel, find_hparam with the
 * "mamba" prefix) writes ssm.inner_size = mamba_expand x hidden_size,
 * ssm.conv_kernel = mamba_d_conv, ssm.state_size = mamba_d_state,
 * ssm.group_count = mamba_n_groups and head_count_kv 0 for mamba layers;
 * the class defaults are mamba_expand 2, mamba_d_conv 4, mamba_d_state
 * 256, mamba_n_groups 1 (configuration_granitemoehybrid.py). llama.cpp
 * src/models/granite-hybrid.cpp: is_recr = n_head_kv(i) == 0. */
static gboolean
hybrid_granite (const HrHfScope *scope,
                HrHfConfig      *config,
                GError         **error)
{
  static const char * const expand_k[] = { "expand", "num_heads", "mamba_expand", "mamba_num_heads", NULL };
  g_autofree guint8 *recurrent = g_new0 (guint8, config->layers);
  g_autofree guint8 *attends = g_new0 (guint8, config->layers);
  g_autoptr(GError) local = NULL;
  JsonArray *types = get_types (scope, "layer_types", config, &local);
  guint32 expand = 0, groups = 0, conv = 0, state = 0;

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (!get_count (scope, expand_k, 2, &expand, error) || !get_count (scope, mamba_group_keys, 1, &groups, error) ||
      !get_count (scope, mamba_conv_keys, 4, &conv, error) || !get_count (scope, mamba_state_keys, 256, &state, error))
    return FALSE;
  for (guint i = 0; i < config->layers; i++)
    {
      attends[i] = types != NULL && strcmp (type_at (types, i), "attention") == 0;
      recurrent[i] = !attends[i];
    }
  set_layers (config, recurrent, attends);
  set_mamba_state (config, conv, expand * config->hidden_size, groups, state,
                   "mamba_d_conv, mamba_expand x hidden_size, mamba_n_groups, mamba_d_state; layer_types");
  return TRUE;
}

/* Nemotron-H: hybrid_override_pattern ("M" Mamba-2, "*" attention, "-"
 * MLP, "E" MoE) or layer_types ("mamba"/"linear_attention",
 * "attention"/"full_attention", "mlp", "moe"). The converter
 * (conversion/nemotron.py NemotronHModel) takes d_model = mamba_head_dim
 * (the first of mamba_head_dim, hidden_size, d_model) and ssm.inner_size =
 * mamba_num_heads x d_model, with the group, kernel and state keys above; head_count_kv 0 outside "*" layers.
 * llama.cpp src/models/nemotron-h.cpp: is_recr = n_head_kv == 0 and
 * n_ff == 0 (the "M" layers). */
static gboolean
hybrid_nemotron_h (const HrHfScope *scope,
                   HrHfConfig      *config,
                   GError         **error)
{
  static const char * const hd_k[] = { "mamba_head_dim", "hidden_size", "d_model", NULL };
  static const char * const nh_k[] = { "num_heads", "mamba_num_heads", NULL };
  g_autofree guint8 *recurrent = g_new0 (guint8, config->layers);
  g_autofree guint8 *attends = g_new0 (guint8, config->layers);
  JsonNode *pattern = get (scope, "hybrid_override_pattern");
  g_autoptr(GError) local = NULL;
  JsonArray *types = NULL;
  const char *str = NULL;
  guint32 hd = 0, nh = 0, groups = 0, conv = 0, state = 0;

  if (pattern != NULL && JSON_NODE_HOLDS_VALUE (pattern) && json_node_get_value_type (pattern) == G_TYPE_STRING)
    {
      str = json_node_get_string (pattern);
      if (strlen (str) != config->layers)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("config.json: hybrid_override_pattern has %u layers but num_hidden_layers is %u"),
                       (guint) strlen (str), config->layers);
          return FALSE;
        }
    }
  else
    {
      types = get_types (scope, "layer_types", config, &local);
      if (local != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (types == NULL)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("config.json has no hybrid_override_pattern or layer_types, which this hybrid model needs"));
          return FALSE;
        }
    }
  if (!get_count (scope, hd_k, 0, &hd, error) || !get_count (scope, nh_k, 0, &nh, error) ||
      !get_count (scope, mamba_group_keys, 0, &groups, error) || !get_count (scope, mamba_conv_keys, 0, &conv, error) ||
      !get_count (scope, mamba_state_keys, 0, &state, error))
    return FALSE;
  for (guint i = 0; i < config->layers; i++)
    {
      if (str != NULL)
        {
          recurrent[i] = str[i] == 'M';
          attends[i] = str[i] == '*';
        }
      else
        {
          const char *t = type_at (types, i);

          recurrent[i] = strcmp (t, "mamba") == 0 || strcmp (t, "linear_attention") == 0;
          attends[i] = strcmp (t, "attention") == 0 || strcmp (t, "full_attention") == 0;
        }
    }
  set_layers (config, recurrent, attends);
  set_mamba_state (config, conv, nh * hd, groups, state,
                   str != NULL ? "conv_kernel, mamba_num_heads x mamba_head_dim, n_groups, ssm_state_size; "
                                 "hybrid_override_pattern"
                               : "conv_kernel, mamba_num_heads x mamba_head_dim, n_groups, ssm_state_size; "
                                 "layer_types");
  return TRUE;
}

/* Mamba-2 (pure recurrent): every layer keeps state, none attends. The
 * converter (conversion/mamba.py Mamba2Model) writes ssm.inner_size =
 * intermediate_size (else expand x hidden_size, expand 2), ssm.state_size =
 * state_size (else 128), ssm.conv_kernel = conv_kernel (else 4),
 * ssm.group_count = n_groups (else 1). */
static gboolean
hybrid_mamba2 (const HrHfScope *scope,
               HrHfConfig      *config,
               GError         **error)
{
  static const char * const expand_k[] = { "mamba_expand", "expand", NULL };
  static const char * const inner_k[] = { "mamba_d_ssm", "intermediate_size", "d_inner", NULL };
  static const char * const group_k[] = { "n_groups", NULL };
  static const char * const conv_k[] = { "conv_kernel", "d_conv", NULL };
  static const char * const state_k[] = { "state_size", "d_state", NULL };
  g_autofree guint8 *recurrent = g_new0 (guint8, config->layers);
  g_autofree guint8 *attends = g_new0 (guint8, config->layers);
  guint32 expand = 0, inner = 0, groups = 0, conv = 0, state = 0;

  if (!get_count (scope, expand_k, 2, &expand, error) || !get_count (scope, group_k, 1, &groups, error) ||
      !get_count (scope, conv_k, 4, &conv, error) || !get_count (scope, state_k, 128, &state, error) ||
      !get_count (scope, inner_k, (guint32) MIN ((guint64) expand * config->hidden_size, G_MAXUINT32), &inner, error))
    return FALSE;
  memset (recurrent, 1, config->layers);
  set_layers (config, recurrent, attends);
  set_mamba_state (config, conv, inner, groups, state, "conv_kernel, intermediate_size, n_groups, state_size");
  return TRUE;
}

/* Kimi Linear (moonshotai/Kimi-Linear-48B-A3B, configuration_kimi.py in
 * the repository): linear_attn_config.full_attn_layers (1-based) are MLA
 * layers, the rest KDA (delta-attention) layers. The converter
 * (conversion/kimi_linear.py KimiLinearModel) writes head_count_kv 1 on the
 * full-attention layers and 0 on KDA layers, ssm.conv_kernel =
 * short_conv_kernel_size and kda.head_dim = linear_attn_config.head_dim;
 * llama.cpp (src/llama-hparams.cpp, n_embd_head_kda): n_embd_r = 3 x
 * (d_conv - 1) x n_head x head_dim, n_embd_s = head_dim x head_dim x
 * n_head, with n_head the attention head count. */
static gboolean
hybrid_kimi_linear (const HrHfScope *scope,
                    HrHfConfig      *config,
                    GError         **error)
{
  g_autofree guint8 *recurrent = g_new0 (guint8, config->layers);
  g_autofree guint8 *attends = g_new0 (guint8, config->layers);
  JsonNode *node = get (scope, "linear_attn_config");
  JsonObject *lac;
  JsonArray *full;
  guint64 conv = 0, hd = 0, r, st;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
      (full = hr_json_array (json_node_get_object (node), "full_attn_layers")) == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json has no “%s”, which the recurrent state of this model needs"),
                   "linear_attn_config.full_attn_layers");
      return FALSE;
    }
  lac = json_node_get_object (node);
  if (!hr_json_u64 (lac, "short_conv_kernel_size", G_MAXUINT32, &conv) ||
      !hr_json_u64 (lac, "head_dim", G_MAXUINT32, &hd))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("config.json has no “%s”, which the recurrent state of this model needs"),
                   "linear_attn_config.short_conv_kernel_size, head_dim");
      return FALSE;
    }
  for (guint k = 0; k < json_array_get_length (full); k++)
    {
      guint64 v;

      if (hr_json_node_u64 (json_array_get_element (full, k), G_MAXUINT32, &v) && v >= 1 && v <= config->layers)
        attends[v - 1] = 1;
    }
  for (guint i = 0; i < config->layers; i++)
    recurrent[i] = !attends[i];
  set_layers (config, recurrent, attends);
  r = 3 * (conv > 0 ? conv - 1 : 3) * (guint64) config->heads * hd;
  st = hd * hd * config->heads;
  config->recurrent_r = (guint32) MIN (r, G_MAXUINT32);
  config->recurrent_s = (guint32) MIN (st, G_MAXUINT32);
  config->recurrent_source =
    g_strdup_printf ("llama.cpp src/llama-hparams.cpp n_embd_r = 3 x (d_conv %u - 1) x n_head %u x head_dim %u = %u; "
                     "n_embd_s = head_dim^2 x n_head = %u (config.json linear_attn_config)",
                     (guint) conv, config->heads, (guint) hd, config->recurrent_r, config->recurrent_s);
  return TRUE;
}

/**
 * _hr_hf_read_hybrid:
 * @scope: the config's scope, deepest sub-config first
 * @config: a config with its shape read (layers, hidden size, KV heads)
 * @error: return location for a #GError
 *
 * For the hybrid and recurrent families (model_type qwen3_next,
 * qwen3_5_text, qwen3_5_moe_text (or qwen3_5, qwen3_5_moe at the top), lfm2, granitemoehybrid, nemotron_h,
 * mamba2, kimi_linear) fills #HrHfConfig.layer_recurrent, layer_kv_heads (0 for layers
 * without attention), recurrent_r (llama.cpp n_embd_r(), f32 values per
 * recurrent layer and slot), recurrent_s (n_embd_s()) and
 * recurrent_source, as llama.cpp derives them from the GGUF
 * convert_hf_to_gguf.py writes from this config. Other families are left
 * alone.
 *
 * Returns: %FALSE with @error set (%HR_CORE_ERROR_INVALID_DATA) when a
 *   per-layer list has the wrong length, a count is malformed, or a key the
 *   state needs is absent and its class has no default.
 */
gboolean
_hr_hf_read_hybrid (const HrHfScope *scope,
                    HrHfConfig      *config,
                    GError         **error)
{
  const char *type = config->text_model_type ? config->text_model_type : config->model_type;

  if (type == NULL)
    return TRUE;
  if (strcmp (type, "qwen3_next") == 0)
    return hybrid_qwen3_next (scope, config, error);
  if (strcmp (type, "qwen3_5_text") == 0 || strcmp (type, "qwen3_5_moe_text") == 0 ||
      strcmp (type, "qwen3_5") == 0 || strcmp (type, "qwen3_5_moe") == 0)
    return hybrid_qwen3_next (scope, config, error);
  if (strcmp (type, "lfm2") == 0)
    return hybrid_lfm2 (scope, config, error);
  if (strcmp (type, "granitemoehybrid") == 0)
    return hybrid_granite (scope, config, error);
  if (strcmp (type, "nemotron_h") == 0)
    return hybrid_nemotron_h (scope, config, error);
  if (strcmp (type, "mamba2") == 0)
    return hybrid_mamba2 (scope, config, error);
  if (strcmp (type, "kimi_linear") == 0)
    return hybrid_kimi_linear (scope, config, error);
  return TRUE;
}
