/* hr-gguf-recurrent.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Recurrent and hybrid architectures as llama.cpp (de3ff815) loads them:
 * one row of rules per architecture (hr-gguf-recurrent.h). Each rule is
 * the architecture's load_arch_hparams (src/models/<arch>.cpp), which keys
 * it reads and which layers it marks is_recr; the layer filters of
 * src/llama-model.cpp create_memory (filter_attn, filter_recr); and
 * src/llama-hparams.cpp n_embd_r () / n_embd_s (), which size the state.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-recurrent.h"
#include "hr-units.h"

/* Which layers llama.cpp marks recurrent (hparams.is_recr_impl). */
typedef enum {
  RECR_ALL,        /* every layer: llm_arch_is_recurrent, falcon-h1 */
  RECR_KV_ZERO,    /* i < n_layer () && n_head_kv (i) == 0 (jamba, granitehybrid, lfm2, kimi-linear, ...) */
  RECR_KV_FF_ZERO, /* i < n_layer () && n_head_kv (i) == 0 && n_ff (i) == 0 (nemotron_h) */
  RECR_INTERVAL,   /* {arch}.attention.recurrent_layers, else i < n_layer () &&
                    * (i + 1) % {arch}.full_attention_interval != 0 (qwen3next, qwen35, minimax-01) */
} RecrRule;

/* Which layers the hybrid memory gives an attention KV cache (filter_attn). */
typedef enum {
  ATTN_NONE,       /* llama_memory_recurrent: no KV cache */
  ATTN_ALL,        /* falcon-h1: [&](uint32_t) { return true; } */
  ATTN_NOT_RECR,   /* filter_attn nullptr: llama-memory-hybrid.cpp's !hparams.is_recr (il) */
  ATTN_TRUNK,      /* il < hparams.n_layer () && !hparams.is_recr (il) */
  ATTN_NEMOTRON,   /* !hparams.is_recr (il) && hparams.n_ff (il) == 0 */
} AttnRule;

/* Which n_embd_r / n_embd_s branch the architecture's keys reach. */
typedef enum {
  STATE_SSM,       /* ssm.conv_kernel, inner_size, state_size (Mamba, gated delta net) */
  STATE_SSM_GROUP, /* the same and ssm.group_count */
  STATE_WKV,       /* wkv.head_size, token_shift_count (RWKV) */
  STATE_SHORTCONV, /* shortconv.l_cache (LFM2) */
  STATE_KDA,       /* kda.head_dim, ssm.conv_kernel (Kimi delta attention) */
  STATE_LA,        /* the key length as the lightning-attention head (MiniMax-01) */
} StateRule;

typedef struct {
  const char *arch;
  const char *file;       /* src/models/<file>.cpp */
  HrGgufRecurrentKind kind;
  RecrRule    recr;
  guint32     interval;   /* RECR_INTERVAL: the default full_attention_interval */
  AttnRule    attn;
  StateRule   state;
  const char *refused;    /* why Headroom cannot size it, or NULL */
} Rule;

static const Rule rules[] = {
  { "mamba", "mamba", HR_GGUF_RECURRENT_PURE, RECR_ALL, 0, ATTN_NONE, STATE_SSM, NULL },
  { "mamba2", "mamba2", HR_GGUF_RECURRENT_PURE, RECR_ALL, 0, ATTN_NONE, STATE_SSM_GROUP, NULL },
  { "rwkv6", "rwkv6", HR_GGUF_RECURRENT_PURE, RECR_ALL, 0, ATTN_NONE, STATE_WKV, NULL },
  { "rwkv6qwen2", "rwkv6qwen2", HR_GGUF_RECURRENT_PURE, RECR_ALL, 0, ATTN_NONE, STATE_WKV, NULL },
  { "rwkv7", "rwkv7", HR_GGUF_RECURRENT_PURE, RECR_ALL, 0, ATTN_NONE, STATE_WKV, NULL },
  { "arwkv7", "arwkv7", HR_GGUF_RECURRENT_PURE, RECR_ALL, 0, ATTN_NONE, STATE_WKV, NULL },
  { "jamba", "jamba", HR_GGUF_RECURRENT_HYBRID, RECR_KV_ZERO, 0, ATTN_NOT_RECR, STATE_SSM, NULL },
  { "falcon-h1", "falcon-h1", HR_GGUF_RECURRENT_HYBRID, RECR_ALL, 0, ATTN_ALL, STATE_SSM_GROUP, NULL },
  { "plamo2", "plamo2", HR_GGUF_RECURRENT_HYBRID, RECR_KV_ZERO, 0, ATTN_NOT_RECR, STATE_SSM_GROUP, NULL },
  { "granitehybrid", "granite-hybrid", HR_GGUF_RECURRENT_HYBRID, RECR_KV_ZERO, 0, ATTN_NOT_RECR, STATE_SSM_GROUP, NULL },
  { "lfm2", "lfm2", HR_GGUF_RECURRENT_HYBRID, RECR_KV_ZERO, 0, ATTN_NOT_RECR, STATE_SHORTCONV, NULL },
  { "lfm2moe", "lfm2moe", HR_GGUF_RECURRENT_HYBRID, RECR_KV_ZERO, 0, ATTN_NOT_RECR, STATE_SHORTCONV, NULL },
  { "nemotron_h", "nemotron-h", HR_GGUF_RECURRENT_HYBRID, RECR_KV_FF_ZERO, 0, ATTN_NEMOTRON, STATE_SSM_GROUP, NULL },
  { "nemotron_h_moe", "nemotron-h", HR_GGUF_RECURRENT_HYBRID, RECR_KV_FF_ZERO, 0, ATTN_NEMOTRON, STATE_SSM_GROUP, NULL },
  { "qwen3next", "qwen3next", HR_GGUF_RECURRENT_HYBRID, RECR_INTERVAL, 4, ATTN_TRUNK, STATE_SSM_GROUP, NULL },
  { "qwen35", "qwen35", HR_GGUF_RECURRENT_HYBRID, RECR_INTERVAL, 4, ATTN_TRUNK, STATE_SSM_GROUP, NULL },
  { "qwen35moe", "qwen35moe", HR_GGUF_RECURRENT_HYBRID, RECR_INTERVAL, 4, ATTN_TRUNK, STATE_SSM_GROUP, NULL },
  { "minimax-01", "minimax-01", HR_GGUF_RECURRENT_HYBRID, RECR_INTERVAL, 8, ATTN_TRUNK, STATE_LA, NULL },
  { "kimi-linear", "kimi-linear", HR_GGUF_RECURRENT_HYBRID, RECR_KV_ZERO, 0, ATTN_NOT_RECR, STATE_KDA, NULL },
  { "bailingmoe3", "bailingmoe3", HR_GGUF_RECURRENT_HYBRID, RECR_KV_ZERO, 0, ATTN_NOT_RECR, STATE_KDA, NULL },
  { "kimi-k3", "kimi-k3", HR_GGUF_RECURRENT_HYBRID, RECR_KV_ZERO, 0, ATTN_NOT_RECR, STATE_KDA, NULL },
  { "qwen4exp", "qwen4exp", HR_GGUF_RECURRENT_HYBRID, RECR_INTERVAL, 4, ATTN_TRUNK, STATE_SSM_GROUP,
    N_("llama.cpp gives it a llama_memory_hybrid_idx (src/llama-model.cpp create_memory: a per-token QSA indexer key cache beside the attention and recurrent caches) and hyper-connection and PLE rows in the recurrent state (src/llama-memory-recurrent.cpp cache_ple_r_l)") },
  { "deepseek4", "deepseek4", HR_GGUF_RECURRENT_HYBRID, RECR_ALL, 0, ATTN_NONE, STATE_SSM,
    N_("llama.cpp gives it its own cache, llama_kv_cache_dsv4 (src/llama-kv-cache-dsv4.cpp: compressed and raw sliding-window KV with a state per sequence), not the hybrid memory") },
};

static const Rule *
rule_for (const char *arch)
{
  for (guint i = 0; arch != NULL && i < G_N_ELEMENTS (rules); i++)
    if (strcmp (arch, rules[i].arch) == 0)
      return &rules[i];
  return NULL;
}

/**
 * hr_gguf_recurrent_kind:
 * @arch: (nullable): a GGUF `general.architecture`
 *
 * The memory llama.cpp gives @arch: src/llama-arch.cpp
 * llm_arch_is_recurrent (mamba, mamba2, rwkv6, rwkv6qwen2, rwkv7, arwkv7)
 * and llm_arch_is_hybrid (jamba, falcon-h1, plamo2, granitehybrid, lfm2,
 * lfm2moe, nemotron_h, nemotron_h_moe, qwen3next, kimi-linear,
 * bailingmoe3, kimi-k3, qwen35, qwen35moe, qwen4exp, deepseek4,
 * minimax-01).
 *
 * Returns: the kind; %HR_GGUF_RECURRENT_NONE for any other architecture.
 */
HrGgufRecurrentKind
hr_gguf_recurrent_kind (const char *arch)
{
  const Rule *rule = rule_for (arch);

  return rule != NULL ? rule->kind : HR_GGUF_RECURRENT_NONE;
}

/**
 * hr_gguf_recurrent_check:
 * @keys: the keys, with their architecture
 * @error: return location for a #GError
 *
 * Refuses the recurrent and hybrid architectures whose memory is not the
 * KV cache plus recurrent state Headroom models: qwen4exp (an indexer key
 * cache, llama_memory_hybrid_idx) and deepseek4 (llama_kv_cache_dsv4).
 *
 * Returns: %TRUE for every other architecture; %FALSE with
 *   %HR_CORE_ERROR_UNSUPPORTED and the reason.
 */
gboolean
hr_gguf_recurrent_check (const HrGgufKeys *keys,
                         GError          **error)
{
  const Rule *rule = rule_for (keys->arch);

  if (rule == NULL || rule->refused == NULL)
    return TRUE;
  if (keys->origin == HR_GGUF_KEYS_FROM_OLLAMA_SHOW)
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                 _("/api/show for %s: Headroom does not size %s: %s"),
                 keys->model_name, keys->arch, _(rule->refused));
  else
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                 _("Headroom does not size %s: %s"), keys->arch, _(rule->refused));
  return FALSE;
}

/* `{arch}.@suffix` as a count; @required: llama.cpp's get_key without
 * `false`, which throws "key not found in model" when it is absent. */
static gboolean
get_u32 (const HrGgufKeys *keys,
         const Rule       *rule,
         const char       *suffix,
         gboolean          required,
         guint32           fallback,
         guint32          *out_value,
         GError          **error)
{
  g_autofree char *key = g_strconcat (keys->arch, ".", suffix, NULL);
  gboolean found = FALSE;

  *out_value = fallback;
  if (!hr_gguf_keys_get_u32 (keys, key, out_value, &found, error))
    return FALSE;
  if (found || !required)
    return TRUE;
  if (keys->origin == HR_GGUF_KEYS_FROM_OLLAMA_SHOW)
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                 _("/api/show for %s: model_info has no \"%s\"; llama.cpp needs it to load %s (src/models/%s.cpp)"),
                 keys->model_name, key, keys->arch, rule->file);
  else
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                 _("%s is missing; llama.cpp needs it to load %s (src/models/%s.cpp)"),
                 key, keys->arch, rule->file);
  return FALSE;
}

/* A per-layer value: a scalar for every layer, or element @i of an array
 * of @layers whole numbers (llama.cpp's get_key_or_arr); %FALSE when the
 * key holds neither. Absent reads @fallback. */
static gboolean
per_layer (const HrGgufKeys *keys,
           const char       *suffix,
           guint32           layers,
           guint64           fallback,
           GArray          **out)
{
  g_autofree char *key = g_strconcat (keys->arch, ".", suffix, NULL);
  HrGgufKeyValue value;

  memset (&value, 0, sizeof value);
  keys->funcs->lookup (keys->source, key, &value);
  *out = g_array_sized_new (FALSE, TRUE, sizeof (guint64), layers);
  for (guint32 i = 0; i < layers; i++)
    {
      guint64 v = fallback;

      if (value.kind == HR_GGUF_KEY_SCALAR && value.is_count)
        v = value.count;
      else if (value.kind == HR_GGUF_KEY_ARRAY)
        {
          if (value.length != layers || !value.numeric || !keys->funcs->element (keys->source, &value, i, &v))
            {
              g_clear_pointer (out, g_array_unref);
              return FALSE;
            }
        }
      else if (value.kind != HR_GGUF_KEY_ABSENT)
        {
          g_clear_pointer (out, g_array_unref);
          return FALSE;
        }
      g_array_append_val (*out, v);
    }
  return TRUE;
}

static gboolean
bad_per_layer (const HrGgufKeys *keys,
               const char       *suffix,
               guint32           layers,
               GError          **error)
{
  if (keys->origin == HR_GGUF_KEYS_FROM_OLLAMA_SHOW)
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                 _("/api/show for %s: model_info \"%s.%s\" is not one value or one per layer"),
                 keys->model_name, keys->arch, suffix);
  else
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                 _("%s.%s is neither one value nor an array of one whole number for each of the %u layers"),
                 keys->arch, suffix, layers);
  return FALSE;
}

/* llama.cpp's hparams as the architecture's load_arch_hparams leaves them,
 * for n_embd_r () and n_embd_s (). */
typedef struct {
  guint32 n_embd, n_head;
  guint32 ssm_d_conv, ssm_d_inner, ssm_d_state, ssm_n_group;
  guint32 wkv_head_size, token_shift_count;
  guint32 shortconv_l_cache;
  guint32 head_kda, head_la;
} State;

static gboolean
read_state (const HrGgufKeys  *keys,
            const Rule        *rule,
            const HrModelSpec *spec,
            State             *st,
            GError           **error)
{
  memset (st, 0, sizeof *st);
  st->n_embd = spec->embedding_length;
  st->n_head = spec->heads;
  st->token_shift_count = 2; /* llama_hparams default (src/llama-hparams.h) */
  switch (rule->state)
    {
    case STATE_SSM_GROUP:
      if (!get_u32 (keys, rule, "ssm.group_count", TRUE, 0, &st->ssm_n_group, error))
        return FALSE;
      G_GNUC_FALLTHROUGH;
    case STATE_SSM:
      return get_u32 (keys, rule, "ssm.conv_kernel", TRUE, 0, &st->ssm_d_conv, error) &&
             get_u32 (keys, rule, "ssm.inner_size", TRUE, 0, &st->ssm_d_inner, error) &&
             get_u32 (keys, rule, "ssm.state_size", TRUE, 0, &st->ssm_d_state, error);
    case STATE_WKV:
      return get_u32 (keys, rule, "wkv.head_size", TRUE, 0, &st->wkv_head_size, error) &&
             get_u32 (keys, rule, "token_shift_count", FALSE, 2, &st->token_shift_count, error);
    case STATE_SHORTCONV:
      return get_u32 (keys, rule, "shortconv.l_cache", TRUE, 0, &st->shortconv_l_cache, error);
    case STATE_KDA:
      return get_u32 (keys, rule, "ssm.conv_kernel", TRUE, 0, &st->ssm_d_conv, error) &&
             get_u32 (keys, rule, "kda.head_dim", TRUE, 0, &st->head_kda, error);
    case STATE_LA:
      /* src/models/minimax-01.cpp: n_embd_head_la = n_embd_head_k_full. */
      st->head_la = spec->key_length;
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

/* src/llama-hparams.cpp n_embd_r () and n_embd_s (), branch for branch, in
 * 64 bits; the formula with its values goes to @text. */
static void
state_values (const State *st,
              guint64     *out_r,
              guint64     *out_s,
              GString     *text)
{
  guint64 r, s;

  if (st->wkv_head_size != 0)
    {
      r = (guint64) st->token_shift_count * st->n_embd;
      s = (guint64) st->n_embd * st->wkv_head_size;
      g_string_append_printf (text, "n_embd_r = token_shift_count x n_embd = %u x %u; n_embd_s = n_embd x wkv.head_size = %u x %u",
                              st->token_shift_count, st->n_embd, st->n_embd, st->wkv_head_size);
    }
  else if (st->shortconv_l_cache != 0)
    {
      r = (guint64) st->n_embd * (st->shortconv_l_cache - 1);
      s = (guint64) st->ssm_d_state * st->ssm_d_inner;
      g_string_append_printf (text, "n_embd_r = n_embd x (shortconv.l_cache - 1) = %u x (%u - 1); n_embd_s = 0 (no SSM state)",
                              st->n_embd, st->shortconv_l_cache);
    }
  else if (st->head_kda != 0)
    {
      guint64 conv = st->ssm_d_conv > 0 ? st->ssm_d_conv - 1 : 3;

      r = 3 * conv * st->n_head * (guint64) st->head_kda;
      s = (guint64) st->head_kda * st->head_kda * st->n_head;
      g_string_append_printf (text, "n_embd_r = 3 x (ssm.conv_kernel - 1) x head_count x kda.head_dim = 3 x %" G_GUINT64_FORMAT " x %u x %u; "
                              "n_embd_s = kda.head_dim^2 x head_count = %u^2 x %u",
                              conv, st->n_head, st->head_kda, st->head_kda, st->n_head);
    }
  else
    {
      guint64 conv = st->ssm_d_conv > 0 ? st->ssm_d_conv - 1 : 0;

      r = conv * ((guint64) st->ssm_d_inner + 2 * (guint64) st->ssm_n_group * st->ssm_d_state);
      if (st->head_la != 0)
        {
          s = (guint64) st->head_la * st->head_la * st->n_head;
          g_string_append_printf (text, "n_embd_r = 0 (no convolution); n_embd_s = key_length^2 x head_count = %u^2 x %u",
                                  st->head_la, st->n_head);
        }
      else
        {
          s = (guint64) st->ssm_d_state * st->ssm_d_inner;
          g_string_append_printf (text, "n_embd_r = (ssm.conv_kernel - 1) x (ssm.inner_size + 2 x ssm.group_count x ssm.state_size) = "
                                  "%" G_GUINT64_FORMAT " x (%u + 2 x %u x %u); n_embd_s = ssm.state_size x ssm.inner_size = %u x %u",
                                  conv, st->ssm_d_inner, st->ssm_n_group, st->ssm_d_state, st->ssm_d_state, st->ssm_d_inner);
        }
    }
  g_string_append_printf (text, " = %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT " values (llama.cpp src/llama-hparams.cpp)", r, s);
  *out_r = r;
  *out_s = s;
}

/* is_recr_impl for RECR_INTERVAL: the per-layer array when there is one,
 * else the interval rule; %FALSE on a malformed key. */
static gboolean
interval_layers (const HrGgufKeys *keys,
                 const Rule       *rule,
                 guint32           n_layer_all,
                 guint32           n_layer,
                 guint8           *recr,
                 GString          *text,
                 GError          **error)
{
  g_autoptr(GArray) arr = NULL;
  g_autofree char *key = g_strconcat (keys->arch, ".attention.recurrent_layers", NULL);
  HrGgufKeyValue value;
  guint32 interval = rule->interval;

  memset (&value, 0, sizeof value);
  keys->funcs->lookup (keys->source, key, &value);
  if (value.kind == HR_GGUF_KEY_ARRAY)
    {
      if (!per_layer (keys, "attention.recurrent_layers", n_layer_all, 0, &arr))
        return bad_per_layer (keys, "attention.recurrent_layers", n_layer_all, error);
      for (guint32 i = 0; i < n_layer_all; i++)
        recr[i] = g_array_index (arr, guint64, i) != 0;
      g_string_append_printf (text, "recurrent layers from %s", key);
      return TRUE;
    }
  if (!get_u32 (keys, rule, "full_attention_interval", FALSE, rule->interval, &interval, error))
    return FALSE;
  if (interval == 0)
    {
      /* llama.cpp would divide by zero ((i + 1) % 0). */
      if (keys->origin == HR_GGUF_KEYS_FROM_OLLAMA_SHOW)
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                     _("/api/show for %s: model_info \"%s.full_attention_interval\" is 0"), keys->model_name, keys->arch);
      else
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                     _("%s.full_attention_interval is 0; every interval-th layer is an attention layer, so it must be at least 1"),
                     keys->arch);
      return FALSE;
    }
  for (guint32 i = 0; i < n_layer_all; i++)
    recr[i] = i < n_layer && (i + 1) % interval != 0;
  g_string_append_printf (text, "layers with (i + 1) %% %u != 0 keep a state (%s.full_attention_interval%s)",
                          interval, keys->arch, interval == rule->interval ? ", llama.cpp's default when absent" : "");
  return TRUE;
}

/* Attention-only architectures whose main context caches every block even
 * with nextn_predict_layers (llama.cpp src/llama-model.cpp create_memory):
 * minimax-m3 (llama_kv_cache_msa) and hy_v4 get no trunk filter, and
 * graniteswitch repurposes n_layer_nextn for a router layer the trunk
 * attends (hparams.router_layer >= 0, src/models/granite-switch.cpp). */
static const char * const nextn_cached[] = { "minimax-m3", "hy_v4", "graniteswitch", NULL };

/* An attention-only architecture's multi-token-prediction layers: llama.cpp
 * loads `{arch}.block_count` blocks (n_layer_all) but the main context's KV
 * cache holds only the first n_layer () = n_layer_all -
 * `{arch}.nextn_predict_layers` of them (src/llama-model.cpp create_memory,
 * default branch: "if (hparams.n_layer_nextn > 0 && hparams.n_layer () > 0
 * && hparams.router_layer < 0) filter = il < n_layer ()"; the DSA caches of
 * glm-dsa, deepseek32 and dots3note filter the same way). Those layers get
 * 0 KV heads. */
static gboolean
map_nextn_trunk (const HrGgufKeys *keys,
                 HrModelSpec      *spec)
{
  guint32 nextn = spec->nextn_layers;

  if (g_strv_contains (nextn_cached, keys->arch))
    return TRUE;
  if (nextn == 0 || nextn >= spec->layers || spec->kv_heads == 0)
    return TRUE;
  if (spec->layer_kv_heads == NULL)
    {
      spec->layer_kv_heads = g_array_sized_new (FALSE, FALSE, sizeof (guint32), spec->layers);
      for (guint32 i = 0; i < spec->layers; i++)
        g_array_append_val (spec->layer_kv_heads, spec->kv_heads);
    }
  for (guint32 i = spec->layers - nextn; i < spec->layers && i < spec->layer_kv_heads->len; i++)
    g_array_index (spec->layer_kv_heads, guint32, i) = 0;
  return TRUE;
}

/* The layers as hr_gguf_recurrent_map() lays them out. */
typedef struct {
  guint32  n_all;    /* {arch}.block_count: spec->layers */
  guint32  n_trunk;  /* n_layer (): n_all less the nextn layers */
  GArray  *ff;       /* feed_forward_length per layer (guint64), or NULL */
  guint8  *recr;     /* 1 for each layer that keeps a recurrent state */
} LayerPlan;

/* {arch}.nextn_predict_layers into spec->nextn_layers (0 past the block
 * count: llama.cpp asserts n_layer_nextn <= n_layer_all, load_hparams). */
static gboolean
read_nextn (const HrGgufKeys  *keys,
            HrModelSpec       *spec,
            GError           **error)
{
  g_autofree char *key = g_strconcat (keys->arch, ".nextn_predict_layers", NULL);
  gboolean found = FALSE;
  guint32 nextn = 0;

  if (!hr_gguf_keys_get_u32 (keys, key, &nextn, &found, error))
    return FALSE;
  spec->nextn_layers = found && nextn <= spec->layers ? nextn : 0;
  return TRUE;
}

/* Fills @plan->recr by the architecture's is_recr rule, and starts @text
 * with what the rule says. */
static gboolean
mark_recurrent (const HrGgufKeys   *keys,
                const Rule         *rule,
                const HrModelSpec  *spec,
                LayerPlan          *plan,
                GString            *text,
                GError            **error)
{
  switch (rule->recr)
    {
    case RECR_ALL:
      memset (plan->recr, 1, plan->n_all);
      g_string_append (text, "every layer keeps a state");
      return TRUE;
    case RECR_KV_ZERO:
    case RECR_KV_FF_ZERO:
      for (guint32 i = 0; i < plan->n_trunk; i++)
        plan->recr[i] = hr_model_spec_layer_kv_heads (spec, i) == 0 &&
                        (rule->recr == RECR_KV_ZERO || g_array_index (plan->ff, guint64, i) == 0);
      g_string_append_printf (text, rule->recr == RECR_KV_ZERO
                              ? "layers with %s.attention.head_count_kv 0 keep a state"
                              : "layers with %s.attention.head_count_kv and feed_forward_length 0 keep a state",
                              keys->arch);
      return TRUE;
    case RECR_INTERVAL:
      return interval_layers (keys, rule, plan->n_all, plan->n_trunk, plan->recr, text, error);
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

/* Whether layer @i gets an attention KV cache (create_memory's
 * filter_attn for the architecture). */
static gboolean
layer_attends (const Rule      *rule,
               const LayerPlan *plan,
               guint32          i)
{
  switch (rule->attn)
    {
    case ATTN_NONE: return FALSE;
    case ATTN_ALL: return TRUE;
    case ATTN_NOT_RECR: return !plan->recr[i];
    case ATTN_TRUNK: return i < plan->n_trunk && !plan->recr[i];
    case ATTN_NEMOTRON: return !plan->recr[i] && g_array_index (plan->ff, guint64, i) == 0;
    default: g_assert_not_reached ();
    }
  return FALSE;
}

/* Replaces @spec's layer_kv_heads (0 where the layer does not attend) and
 * layer_recurrent by @plan's; kv_heads becomes the largest. Counts the
 * recurrent and the attention layers. */
static void
set_layer_arrays (const Rule      *rule,
                  const LayerPlan *plan,
                  HrModelSpec     *spec,
                  guint           *out_n_recr,
                  guint           *out_n_attn)
{
  GArray *kv = g_array_sized_new (FALSE, FALSE, sizeof (guint32), plan->n_all);
  GArray *recurrent = g_array_sized_new (FALSE, FALSE, sizeof (guint8), plan->n_all);
  guint32 max_kv = 0;

  *out_n_recr = *out_n_attn = 0;
  for (guint32 i = 0; i < plan->n_all; i++)
    {
      guint32 heads = layer_attends (rule, plan, i) ? hr_model_spec_layer_kv_heads (spec, i) : 0;

      g_array_append_val (kv, heads);
      g_array_append_val (recurrent, plan->recr[i]);
      max_kv = MAX (max_kv, heads);
      *out_n_recr += plan->recr[i];
      *out_n_attn += heads > 0;
    }
  g_clear_pointer (&spec->layer_kv_heads, g_array_unref);
  spec->layer_kv_heads = kv;
  spec->kv_heads = max_kv;
  g_clear_pointer (&spec->layer_recurrent, g_array_unref);
  spec->layer_recurrent = recurrent;
}

/* lfm2 (src/models/lfm2.cpp): with a sliding window every attention layer
 * slides; the hybrid memory is then llama_memory_hybrid_iswa. */
static void
mark_lfm2_sliding (const LayerPlan *plan,
                   HrModelSpec     *spec)
{
  g_clear_pointer (&spec->layer_sliding, g_array_unref);
  spec->layer_sliding = g_array_sized_new (FALSE, FALSE, sizeof (guint8), plan->n_all);
  for (guint32 i = 0; i < plan->n_all; i++)
    {
      guint8 sliding = i < plan->n_trunk && !plan->recr[i];

      g_array_append_val (spec->layer_sliding, sliding);
    }
}

/**
 * hr_gguf_recurrent_map:
 * @keys: the keys, with their architecture
 * @spec: the spec, with its layers, heads, KV heads (per layer where the
 *   source has them), key length and embedding length already mapped
 * @error: return location for a #GError
 *
 * For a recurrent or hybrid architecture, fills #HrModelSpec.layer_recurrent
 * (llama.cpp's hparams.is_recr and the memory's filter_recr),
 * #HrModelSpec.layer_kv_heads (0 where create_memory's filter_attn gives
 * the layer no KV cache: recurrent-only layers, nemotron_h's MLP layers,
 * qwen3next / qwen35 / minimax-01 MTP layers), #HrModelSpec.recurrent_r and
 * #HrModelSpec.recurrent_s (n_embd_r () and n_embd_s (), values per layer
 * and slot, f32) and #HrModelSpec.recurrent_source; for lfm2 with a
 * sliding window, #HrModelSpec.layer_sliding (its attention layers).
 * Layers past `{arch}.block_count - {arch}.nextn_predict_layers` (MTP
 * heads) are never recurrent; every architecture's
 * #HrModelSpec.nextn_layers is set from that key. For an attention-only architecture, the
 * layers past `{arch}.block_count - {arch}.nextn_predict_layers` get 0 KV
 * heads (map_nextn_trunk(): llama.cpp caches only n_layer () in the main
 * context), except on minimax-m3, hy_v4 and graniteswitch.
 *
 * Returns: %TRUE; %FALSE with %HR_CORE_ERROR_INVALID_DATA when a key
 *   llama.cpp requires for the architecture is missing or malformed, or
 *   full_attention_interval is 0.
 */
gboolean
hr_gguf_recurrent_map (const HrGgufKeys *keys,
                       HrModelSpec      *spec,
                       GError          **error)
{
  const Rule *rule = rule_for (keys->arch);
  g_autoptr(GString) text = NULL;
  g_autoptr(GArray) ff = NULL;
  g_autofree guint8 *recr = NULL;
  LayerPlan plan;
  guint n_recr, n_attn;
  guint64 r, s;
  State st;

  if (spec->layers == 0)
    return TRUE;
  if (!read_nextn (keys, spec, error))
    return FALSE;
  if (rule == NULL)
    return map_nextn_trunk (keys, spec);
  if (rule->refused != NULL)
    return TRUE;
  if (!read_state (keys, rule, spec, &st, error))
    return FALSE;
  if ((rule->recr == RECR_KV_FF_ZERO || rule->attn == ATTN_NEMOTRON) &&
      !per_layer (keys, "feed_forward_length", spec->layers, 0, &ff))
    return bad_per_layer (keys, "feed_forward_length", spec->layers, error);

  recr = g_new0 (guint8, spec->layers);
  plan = (LayerPlan) {
    .n_all = spec->layers,
    .n_trunk = spec->nextn_layers < spec->layers ? spec->layers - spec->nextn_layers : 0,
    .ff = ff,
    .recr = recr,
  };
  text = g_string_new (NULL);
  g_string_append_printf (text, "%s (llama.cpp src/models/%s.cpp, src/llama-model.cpp create_memory): ", keys->arch, rule->file);
  if (!mark_recurrent (keys, rule, spec, &plan, text, error))
    return FALSE;
  set_layer_arrays (rule, &plan, spec, &n_recr, &n_attn);
  if (rule->state == STATE_SHORTCONV && spec->sliding_window > 0)
    mark_lfm2_sliding (&plan, spec);

  g_string_append_printf (text, ": %u of %u layers; %u with an attention KV cache; ", n_recr, plan.n_all, n_attn);
  state_values (&st, &r, &s, text);
  spec->recurrent_r = (guint32) MIN (r, G_MAXUINT32);
  spec->recurrent_s = (guint32) MIN (s, G_MAXUINT32);
  g_free (spec->recurrent_source);
  spec->recurrent_source = g_string_free (g_steal_pointer (&text), FALSE);
  return TRUE;
}
