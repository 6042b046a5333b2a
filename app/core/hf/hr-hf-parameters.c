/* hr-hf-parameters.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The parameter count a config.json implies, architecture by architecture,
 * with every sum and product checked for overflow.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hf-config-private.h"
#include "hr-json.h"
#include "hr-precision.h"
#include "hr-units.h"

/* Sums with overflow checks. */
typedef struct {
  gboolean overflow;
} Acc;

static guint64
mul (Acc *acc, guint64 a, guint64 b)
{
  guint64 r;

  if (!hr_mul_u64 (a, b, &r))
    {
      acc->overflow = TRUE;
      return 0;
    }
  return r;
}

static guint64
add (Acc *acc, guint64 a, guint64 b)
{
  guint64 r;

  if (!hr_add_u64 (a, b, &r))
    {
      acc->overflow = TRUE;
      return 0;
    }
  return r;
}

static gboolean
is_type (const HrHfConfig *config,
         const char       *type)
{
  return g_strcmp0 (config->text_model_type ? config->text_model_type : config->model_type, type) == 0;
}

/* One layer's attention weights: MLA's low-rank q, the compressed KV and
 * its up-projection; else q/k/v/o with their biases. */
static guint64
attention_per_layer (Acc              *acc,
                     const HrHfConfig *config)
{
  guint64 H = config->hidden_size, n = config->heads, k = config->kv_heads, d = config->head_dim;
  guint64 attn;

  if (config->mla)
    {
      guint64 qk = (guint64) config->qk_nope_head_dim + config->qk_rope_head_dim;
      guint64 r = config->kv_lora_rank;
      guint64 q;

      if (config->q_lora_rank > 0)
        q = add (acc, add (acc, mul (acc, H, config->q_lora_rank), config->q_lora_rank),
                 mul (acc, config->q_lora_rank, mul (acc, n, qk)));
      else
        q = mul (acc, H, mul (acc, n, qk));
      attn = add (acc, q, mul (acc, H, r + config->qk_rope_head_dim));
      attn = add (acc, attn, r);
      attn = add (acc, attn, mul (acc, r, mul (acc, n, (guint64) config->qk_nope_head_dim + config->v_head_dim)));
      attn = add (acc, attn, mul (acc, mul (acc, n, config->v_head_dim), H));
    }
  else
    {
      guint64 qd = mul (acc, n, d);
      guint64 kd = mul (acc, k, d);

      attn = add (acc, mul (acc, 2, mul (acc, H, qd)), mul (acc, 2, mul (acc, H, kd)));
      if (config->qkv_bias || config->gpt2_style)
        attn = add (acc, attn, add (acc, qd, mul (acc, 2, kd)));
      if (config->gpt2_style || config->o_bias)
        attn = add (acc, attn, H);
    }
  return attn;
}

/* One dense layer's MLP: GPT-2's fc and proj with biases, else gate, up
 * and down (with mlp_bias's biases). */
static guint64
dense_mlp_per_layer (Acc              *acc,
                     const HrHfConfig *config)
{
  guint64 H = config->hidden_size, I = config->intermediate_size;
  guint64 mlp;

  if (config->gpt2_style)
    mlp = add (acc, mul (acc, 2, mul (acc, H, I)), I + H);
  else
    mlp = mul (acc, 3, mul (acc, H, I));
  if (config->mlp_bias && !config->gpt2_style)
    mlp = add (acc, mlp, add (acc, mul (acc, 2, I), H));
  return mlp;
}

/* One mixture-of-experts layer's MLP: every expert (*@out_total) or the
 * ones used per token (*@out_active), with the shared experts and router. */
static void
moe_mlp_per_layer (Acc              *acc,
                   const HrHfConfig *config,
                   guint64          *out_total,
                   guint64          *out_active)
{
  guint64 H = config->hidden_size, I = config->intermediate_size;
  guint64 im = config->moe_intermediate_size > 0 ? config->moe_intermediate_size : I;
  guint64 is = config->shared_intermediate_size > 0 ? config->shared_intermediate_size : im;
  guint64 expert = mul (acc, 3, mul (acc, H, im));
  guint64 shared = mul (acc, config->shared_experts, mul (acc, 3, mul (acc, H, is)));
  guint64 router = mul (acc, H, config->experts);

  *out_total = add (acc, add (acc, mul (acc, config->experts, expert), shared), router);
  *out_active = add (acc, add (acc, mul (acc, config->experts_per_token, expert), shared), router);
}

/* One layer's norms: input and post-attention (GPT-2's with biases),
 * post-norms, q/k norms, MLA's latent norms. */
static guint64
norms_per_layer (Acc              *acc,
                 const HrHfConfig *config)
{
  guint64 H = config->hidden_size, n = config->heads, k = config->kv_heads, d = config->head_dim;
  guint64 norms = mul (acc, config->gpt2_style ? 4 : 2, H);

  if (config->post_norms)
    norms = mul (acc, is_type (config, "olmo2") ? 2 : 4, H);
  if (config->qk_norm && !config->mla)
    norms = add (acc, norms, is_type (config, "olmo2") || is_type (config, "olmoe")
                 ? add (acc, mul (acc, n, d), mul (acc, k, d)) : mul (acc, 2, d));
  if (config->mla)
    norms = add (acc, norms, (guint64) config->q_lora_rank + config->kv_lora_rank);
  return norms;
}

/**
 * hr_hf_config_count_parameters:
 * @config: a parsed config
 * @out: (out caller-allocates): the count, by part
 * @error: return location for a #GError
 *
 * Derives a parameter count from the config when the Hub gives none. With
 * H = hidden size, L = layers, n = heads, k = KV heads, d = head dim,
 * I = intermediate size, V = vocab:
 *  - embeddings = V x H (+ n_positions x H for GPT-2 style learned positions);
 *  - attention per layer = H x n x d (q) + 2 x H x k x d (k, v) + n x d x H (o),
 *    plus n x d + 2 x k x d when q/k/v carry biases (`attention_bias`, or the
 *    Qwen2 family); MLA instead: q = H x n x (nope + rope), or with q_lora_rank r:
 *    H x r + r + r x n x (nope + rope); kv = H x (kv_lora_rank + rope) +
 *    kv_lora_rank + kv_lora_rank x n x (nope + v); o = n x v x H;
 *  - MLP per layer = 3 x H x I (gate, up, down); GPT-2 style 2 x H x I + I + H;
 *    a MoE layer has experts x 3 x H x I_moe + shared x 3 x H x I_shared +
 *    H x experts (router), and the first first_k_dense_replace layers are dense;
 *    `mlp_bias` adds 2 x I + H (gate, up, down biases); `attention_bias` on a
 *    llama-like also biases o (+ H);
 *  - norms = 2 x H per layer + H final (GPT-2 LayerNorm: doubled for biases);
 *    Gemma 2/3 have 4 per layer (input, post-attention, pre- and
 *    post-feedforward; Gemma2DecoderLayer), OLMo 2 two (post-attention and
 *    post-feedforward); per-head q/k norms add 2 x d per layer (Qwen3,
 *    Qwen3-MoE, Gemma 3: q_norm and k_norm over head_dim), OLMo 2 / OLMoE
 *    n x d + k x d (over the whole projections);
 *  - output = V x H unless the embeddings are tied.
 * active is the same with experts_per_token experts in place of all.
 * It counts every tensor these architectures have; extras a family adds
 * beyond them are not known, so compare it with a stored count
 * (hr_hf_parameters_describe_difference()). For Qwen2.5-3B-Instruct it gives
 * 3,085,938,688, the Hub's own figure (docs/seed-figures.md); for Qwen3-8B
 * 8,190,735,360 and for Gemma 2 2B 2,614,341,888, the published counts.
 *
 * Returns: %TRUE, or %FALSE with %HR_CORE_ERROR_OVERFLOW when a product
 *   does not fit 64 bits.
 */
gboolean
hr_hf_config_count_parameters (const HrHfConfig   *config,
                               HrHfParameterCount *out,
                               GError            **error)
{
  Acc acc = { FALSE };
  guint64 H, V, L;
  guint64 attn, mlp_dense, mlp_moe_total = 0, mlp_moe_active = 0, norms;
  guint64 moe_layers = 0, dense_layers;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  H = config->hidden_size;
  V = config->vocab_size;
  L = config->layers;

  out->embeddings = mul (&acc, V, H);
  if (config->gpt2_style)
    out->embeddings = add (&acc, out->embeddings, mul (&acc, config->gpt2_positions, H));

  attn = attention_per_layer (&acc, config);
  mlp_dense = dense_mlp_per_layer (&acc, config);
  dense_layers = L;
  if (config->experts > 0)
    {
      moe_mlp_per_layer (&acc, config, &mlp_moe_total, &mlp_moe_active);
      moe_layers = L - config->first_dense_layers;
      dense_layers = config->first_dense_layers;
    }
  norms = norms_per_layer (&acc, config);

  out->attention = mul (&acc, L, attn);
  out->mlp = add (&acc, mul (&acc, dense_layers, mlp_dense), mul (&acc, moe_layers, mlp_moe_total));
  out->norms = add (&acc, mul (&acc, L, norms), config->gpt2_style ? 2 * H : H);
  out->output = config->tied_embeddings ? 0 : mul (&acc, V, H);
  out->total = add (&acc, add (&acc, add (&acc, add (&acc, out->embeddings, out->attention), out->mlp), out->norms), out->output);
  out->active = add (&acc, out->total, 0);
  if (config->experts > 0)
    out->active = out->total - mul (&acc, moe_layers, mlp_moe_total - mlp_moe_active);

  if (acc.overflow)
    {
      memset (out, 0, sizeof *out);
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                   _("The parameter count derived from config.json does not fit 64 bits"));
      return FALSE;
    }
  return TRUE;
}


/**
 * hr_hf_parameters_describe_difference:
 * @derived: a parameter count derived from config.json
 *   (hr_hf_config_count_parameters())
 * @stored: the count the repository stores (Hub API, safetensors headers)
 *
 * Says how the two counts compare to the digit, so a gap of a few thousand
 * parameters (missing norms) is not printed as "0.00 % apart": "the same
 * count", or "73,728 fewer than the stored 8,190,735,360 (0.0009 %)".
 *
 * Returns: (transfer full): the sentence.
 */
char *
hr_hf_parameters_describe_difference (guint64 derived,
                                      guint64 stored)
{
  g_autofree char *stored_text = hr_format_count (stored);
  g_autofree char *diff_text = NULL;
  guint64 diff;

  if (derived == stored)
    return g_strdup_printf (_("the same count as the stored %s"), stored_text);
  diff = derived > stored ? derived - stored : stored - derived;
  diff_text = hr_format_count (diff);
  if (stored == 0)
    return g_strdup_printf (_("%s more than the stored 0"), diff_text);
  /* Four decimals of a percent resolve one parameter in ten million. */
  return g_strdup_printf (derived > stored ? _("%s more than the stored %s (%.4f %%)")
                                           : _("%s fewer than the stored %s (%.4f %%)"),
                          diff_text, stored_text, 100.0 * (double) diff / (double) stored);
}
