/* hr-gguf-keys.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one GGUF key -> model spec mapper (hr-gguf-keys.h). The keys are the
 * GGUF specification's and llama.cpp's (docs/formats.md, "GGUF keys";
 * docs/ollama.md, "/api/show" for the same keys as JSON). One key is read
 * (and its failure worded) in hr-gguf-keys-read.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-keys-private.h"
#include "hr-gguf-recurrent.h"
#include "hr-precision.h"
#include "hr-units.h"

static void
fill_sliding (HrModelSpec *spec,
              guint64      period)
{
  spec->layer_sliding = g_array_sized_new (FALSE, FALSE, sizeof (guint8), spec->layers);
  for (guint32 i = 0; i < spec->layers; i++)
    {
      guint8 sliding = (i % period) < (period - 1);

      g_array_append_val (spec->layer_sliding, sliding);
    }
}

/* llama.cpp's own sliding-window pattern for @arch when the file has
 * none (src/models/<arch>.cpp load_arch_hparams, load_swa_pattern /
 * hparams.set_swa_pattern: a layer slides when il % period < period - 1).
 * Returns the period (0 = none) and sets @out_source. */
static guint
llama_swa_period (const char  *arch,
                  const char **out_source)
{
  static const struct { const char *arch; guint period; const char *source; } rules[] = {
    { "gemma2", 2, "llama.cpp rule: gemma2 alternates sliding and global layers" },
    { "gemma3", 6, "llama.cpp rule: gemma3 has 5 sliding layers per global layer" },
    { "gpt-oss", 2, "llama.cpp rule: src/models/openai-moe.cpp load_swa_pattern(ml, 2), every other layer slides" },
    { "cohere2", 4, "llama.cpp rule: src/models/cohere2.cpp load_swa_pattern(ml, 4), 3 sliding layers per global layer" },
    { "exaone4", 4, "llama.cpp rule: src/models/exaone4.cpp load_swa_pattern(ml, 4), 3 sliding layers per global layer" },
    { "llama4", 4, "llama.cpp rule: src/models/llama4.cpp load_swa_pattern(ml, 4), 3 chunked layers per global layer" },
  };

  for (guint i = 0; arch != NULL && i < G_N_ELEMENTS (rules); i++)
    if (strcmp (arch, rules[i].arch) == 0)
      {
        *out_source = rules[i].source;
        return rules[i].period;
      }
  *out_source = NULL;
  return 0;
}

/* Which layers use the sliding window: the source's own per-layer pattern
 * when present, else llama.cpp's rule for the architecture
 * (llama_swa_period()). */
static void
map_layer_sliding (const HrGgufKeys *keys,
                   HrModelSpec      *spec,
                   const char       *window_source)
{
  g_autofree char *key = g_strconcat (keys->arch, ".attention.sliding_window_pattern", NULL);
  g_autofree char *combined = NULL;
  HrGgufKeyValue value;
  const char *source = NULL;
  gboolean own = FALSE;
  guint period;

  if (spec->sliding_window == 0 || spec->layers == 0)
    return;

  hr_gguf_keys_lookup (keys, key, &value);
  if (value.kind == HR_GGUF_KEY_ARRAY && value.length == spec->layers && value.numeric)
    {
      spec->layer_sliding = g_array_sized_new (FALSE, FALSE, sizeof (guint8), spec->layers);
      for (guint32 i = 0; i < spec->layers; i++)
        {
          guint64 v = 0;
          guint8 sliding;

          keys->funcs->element (keys->source, &value, i, &v);
          sliding = v != 0;
          g_array_append_val (spec->layer_sliding, sliding);
        }
      own = TRUE;
    }
  else if (value.kind == HR_GGUF_KEY_SCALAR && value.is_count &&
           value.count >= 2 && value.count <= spec->layers)
    {
      fill_sliding (spec, value.count);
      own = TRUE;
    }
  else if ((period = llama_swa_period (keys->arch, &source)) > 0)
    fill_sliding (spec, period);
  else
    return;

  combined = g_strdup_printf ("%s; sliding layers: %s%s", window_source,
                              own ? hr_gguf_keys_source_prefix (keys) : "", own ? key : source);
  hr_model_spec_set_source (spec, HR_SPEC_FIELD_SLIDING_WINDOW, combined);
}

/* The sliding window llama.cpp uses, from `{arch}.attention.sliding_window`
 * (@found, @v) and the architecture's own rule:
 *  - llama4 (src/models/llama4.cpp): chunked attention in 8192-token chunks
 *    (n_swa = 8192, LLAMA_SWA_TYPE_CHUNKED) unless the key is there and 0;
 *    the KV cache sizes chunked layers as sliding ones
 *    (src/llama-kv-cache-iswa.cpp: pad256(min(cells, n_swa + ubatch)));
 *  - exaone4 (src/models/exaone4.cpp): only the 64-layer model slides
 *    (4096 tokens unless the key says otherwise); any other keeps every
 *    layer global whatever the key says. */
static void
map_sliding_window (const HrGgufKeys *keys,
                    HrModelSpec      *spec,
                    gboolean          found,
                    guint32           v)
{
  g_autofree char *source = g_strdup_printf ("%s%s.attention.sliding_window", hr_gguf_keys_source_prefix (keys), keys->arch);
  guint32 window = found ? v : 0;

  if (g_strcmp0 (keys->arch, "llama4") == 0)
    {
      window = found && v == 0 ? 0 : 8192;
      g_free (source);
      source = g_strdup (found && v == 0 ? "" : "llama.cpp src/models/llama4.cpp: chunked attention, n_swa = 8192");
    }
  else if (g_strcmp0 (keys->arch, "exaone4") == 0)
    {
      if (spec->layers != 64)
        window = 0;
      else if (!found || v == 0)
        {
          window = 4096;
          g_free (source);
          source = g_strdup ("llama.cpp src/models/exaone4.cpp: n_swa = 4096 for the 64-layer model");
        }
    }
  if (window == 0)
    return;
  spec->sliding_window = window;
  hr_model_spec_set_source (spec, HR_SPEC_FIELD_SLIDING_WINDOW, source);
  map_layer_sliding (keys, spec, source);
}

static gboolean
map_layers (const HrGgufKeys *keys,
            HrModelSpec      *spec,
            GError          **error)
{
  guint32 v = 0;
  gboolean found;

  if (!hr_gguf_keys_get_arch_u32 (keys, "block_count", &v, &found, error))
    return FALSE;
  if (!found)
    return TRUE;
  if (v > HR_MODEL_SPEC_MAX_LAYERS)
    {
      g_autofree char *n = hr_format_count (v);
      g_autofree char *max = hr_format_count (HR_MODEL_SPEC_MAX_LAYERS);

      if (keys->origin == HR_GGUF_KEYS_FROM_OLLAMA_SHOW)
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                     _("/api/show for %s: model_info \"%s.block_count\" is %s; Headroom accepts at most %s layers"),
                     keys->model_name, keys->arch, n, max);
      else
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                     _("%s.block_count is %s; Headroom accepts at most %s layers"), keys->arch, n, max);
      return FALSE;
    }
  spec->layers = v;
  hr_gguf_keys_set_source (keys, spec, HR_SPEC_FIELD_LAYERS, "block_count");
  return TRUE;
}

/* A head count key that is there but 0 (in every layer, for an array): no
 * attention model has that (hparams.n_head () > 0 for every architecture
 * llama.cpp gives a KV cache; the recurrent ones, whose converters write
 * 0, are not checked: hr-gguf-recurrent.c). */
static gboolean
check_heads_present (const HrGgufKeys *keys,
                     const char       *suffix,
                     gboolean          per_layer,
                     const char       *what,
                     GError          **error)
{
  if (keys->origin == HR_GGUF_KEYS_FROM_OLLAMA_SHOW)
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                 per_layer
                 ? _("/api/show for %s: model_info \"%s.%s\" is 0 in every layer; a model has at least one %s")
                 : _("/api/show for %s: model_info \"%s.%s\" is 0; a model has at least one %s"),
                 keys->model_name, keys->arch, suffix, what);
  else
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                 per_layer
                 ? _("%s.%s is 0 in every layer; a model has at least one %s")
                 : _("%s.%s is 0; a model has at least one %s"),
                 keys->arch, suffix, what);
  return FALSE;
}

/* Heads and KV heads; *out_kv_hidden when the KV heads are withheld. */
static gboolean
map_heads (const HrGgufKeys *keys,
           HrModelSpec      *spec,
           gboolean         *out_kv_hidden,
           GError          **error)
{
  GArray *per_layer = NULL;
  guint32 v = 0;
  gboolean found, hidden;

  gboolean recurrent = hr_gguf_recurrent_kind (keys->arch) == HR_GGUF_RECURRENT_PURE;

  if (!hr_gguf_keys_get_per_layer (keys, "attention.head_count", spec->layers, &v, &per_layer, &found, &hidden, error))
    return FALSE;
  if (found && v == 0 && !recurrent)
    {
      gboolean array = per_layer != NULL;

      g_clear_pointer (&per_layer, g_array_unref);
      return check_heads_present (keys, "attention.head_count", array, _("attention head"), error);
    }
  g_clear_pointer (&per_layer, g_array_unref); /* the spec keeps one head count */
  if (found)
    {
      spec->heads = v;
      hr_gguf_keys_set_source (keys, spec, HR_SPEC_FIELD_HEADS, "attention.head_count");
    }

  if (!hr_gguf_keys_get_per_layer (keys, "attention.head_count_kv", spec->layers, &v, &per_layer, &found, &hidden, error))
    return FALSE;
  *out_kv_hidden = hidden;
  if (found && v == 0 && !recurrent)
    {
      gboolean array = per_layer != NULL;

      g_clear_pointer (&per_layer, g_array_unref);
      return check_heads_present (keys, "attention.head_count_kv", array, _("KV head"), error);
    }
  if (found)
    {
      spec->kv_heads = v;
      spec->layer_kv_heads = per_layer;
      hr_gguf_keys_set_source (keys, spec, HR_SPEC_FIELD_KV_HEADS,
                  per_layer != NULL ? "attention.head_count_kv (per layer)" : "attention.head_count_kv");
    }
  else if (!hidden && spec->heads > 0)
    {
      /* GGUF's rule: without head_count_kv, every head has its own K and V. */
      g_autofree char *source = keys->origin == HR_GGUF_KEYS_FROM_FILE
        ? g_strdup_printf ("GGUF %s.attention.head_count (no head_count_kv)", keys->arch)
        : g_strdup ("attention.head_count (no head_count_kv: one KV head per head)");

      spec->kv_heads = spec->heads;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_KV_HEADS, source);
    }
  return TRUE;
}

static gboolean
map_key_value_lengths (const HrGgufKeys *keys,
                       HrModelSpec      *spec,
                       GError          **error)
{
  guint32 v = 0;
  gboolean found;

  if (!hr_gguf_keys_get_arch_u32 (keys, "attention.key_length", &v, &found, error))
    return FALSE;
  if (found)
    {
      spec->key_length = v;
      hr_gguf_keys_set_source (keys, spec, HR_SPEC_FIELD_KEY_LENGTH, "attention.key_length");
    }
  if (!hr_gguf_keys_get_arch_u32 (keys, "attention.value_length", &v, &found, error))
    return FALSE;
  if (found)
    {
      spec->value_length = v;
      hr_gguf_keys_set_source (keys, spec, HR_SPEC_FIELD_VALUE_LENGTH, "attention.value_length");
    }
  /* MLA (deepseek2): key_length_mla / value_length_mla are the per-head
   * dims; key_length is the one cached latent (kv_lora_rank + rope) and
   * llama.cpp allocates no V cache (src/llama-kv-cache.cpp has_v = !is_mla,
   * is_mla () = both *_mla keys set, src/llama-hparams.cpp). */
  {
    guint32 k_mla = 0, v_mla = 0;
    gboolean k_found, v_found;

    if (!hr_gguf_keys_get_arch_u32 (keys, "attention.key_length_mla", &k_mla, &k_found, error) ||
        !hr_gguf_keys_get_arch_u32 (keys, "attention.value_length_mla", &v_mla, &v_found, error))
      return FALSE;
    spec->kv_latent = k_found && v_found && k_mla > 0 && v_mla > 0;
  }
  /* The sliding-window layers' own head size (llama.cpp src/llama-model.cpp
   * load_hparams: n_embd_head_k_swa, default the full layers'; gemma4). */
  if (!hr_gguf_keys_get_arch_u32 (keys, "attention.key_length_swa", &spec->key_length_swa, &found, error) ||
      !hr_gguf_keys_get_arch_u32 (keys, "attention.value_length_swa", &spec->value_length_swa, &found, error))
    return FALSE;
  if (spec->heads == 0 || spec->embedding_length == 0)
    return TRUE;

  /* Absent: embedding length / heads, as llama.cpp's n_embd_head_k. */
  if (spec->key_length == 0)
    {
      g_autofree char *source = keys->origin == HR_GGUF_KEYS_FROM_FILE
        ? g_strdup_printf ("GGUF %s.embedding_length / %s.attention.head_count", keys->arch, keys->arch)
        : g_strdup ("embedding_length / head_count (Ollama /api/show has no key_length)");

      spec->key_length = spec->embedding_length / spec->heads;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_KEY_LENGTH, source);
    }
  if (spec->value_length == 0)
    {
      g_autofree char *source = keys->origin == HR_GGUF_KEYS_FROM_FILE
        ? g_strdup_printf ("GGUF %s.embedding_length / %s.attention.head_count", keys->arch, keys->arch)
        : g_strdup ("embedding_length / head_count (Ollama /api/show has no value_length)");

      spec->value_length = spec->embedding_length / spec->heads;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_VALUE_LENGTH, source);
    }
  return TRUE;
}

/* `{arch}.attention.shared_kv_layers`: the last layers reuse an earlier
 * layer's cache and have none of their own (llama.cpp src/models/gemma4.cpp
 * n_layer_kv_from_start = n_layer - shared, src/llama-kv-cache.cpp skips a
 * layer without has_kv ()): their KV heads become 0. */
static gboolean
map_shared_kv_layers (const HrGgufKeys *keys,
                      HrModelSpec      *spec,
                      GError          **error)
{
  guint32 shared = 0;
  gboolean found;

  if (!hr_gguf_keys_get_arch_u32 (keys, "attention.shared_kv_layers", &shared, &found, error))
    return FALSE;
  if (!found || shared == 0 || shared >= spec->layers)
    return TRUE;
  if (spec->layer_kv_heads == NULL)
    {
      spec->layer_kv_heads = g_array_sized_new (FALSE, FALSE, sizeof (guint32), spec->layers);
      for (guint32 i = 0; i < spec->layers; i++)
        g_array_append_val (spec->layer_kv_heads, spec->kv_heads);
    }
  for (guint32 i = spec->layers - shared; i < spec->layers && i < spec->layer_kv_heads->len; i++)
    g_array_index (spec->layer_kv_heads, guint32, i) = 0;
  return TRUE;
}

/* Vocabulary, experts and the feed-forward length. */
static gboolean
map_counts (const HrGgufKeys *keys,
            HrModelSpec      *spec,
            GError          **error)
{
  HrGgufKeyValue tokens;
  guint32 v = 0;
  gboolean found;

  /* n_ff for the runtime model's compute-buffer estimate; a per-layer array
   * (some architectures vary it) is left to the estimate's own fallback. */
  {
    g_autoptr(GError) ff_error = NULL;

    if (hr_gguf_keys_get_arch_u32 (keys, "feed_forward_length", &v, &found, &ff_error) && found)
      spec->feed_forward_length = v;
  }

  hr_gguf_keys_lookup (keys, "tokenizer.ggml.tokens", &tokens);
  if (tokens.kind == HR_GGUF_KEY_ARRAY && tokens.length > 0 && tokens.length <= G_MAXUINT32)
    spec->vocab_size = (guint32) tokens.length;
  else
    {
      if (!hr_gguf_keys_get_arch_u32 (keys, "vocab_size", &v, &found, error))
        return FALSE;
      if (found)
        spec->vocab_size = v;
    }

  if (!hr_gguf_keys_get_arch_u32 (keys, "expert_count", &v, &found, error))
    return FALSE;
  if (found)
    spec->expert_count = v;
  if (!hr_gguf_keys_get_arch_u32 (keys, "expert_used_count", &v, &found, error))
    return FALSE;
  if (found)
    spec->expert_used_count = v;

  /* The layer mix of a mixture of experts, for the compute buffer's widest
   * layer (llama.cpp src/models/deepseek2.cpp, glm4-moe.cpp: the first
   * leading_dense_block_count layers are dense; llama4.cpp: every
   * interleave_moe_layer_step-th layer is MoE with a shared expert). A
   * per-layer expert width (an array) is left 0. */
  {
    static const char *const suffixes[] = {
      "expert_feed_forward_length", "expert_shared_count", "leading_dense_block_count",
      "interleave_moe_layer_step",
    };
    guint32 *fields[] = {
      &spec->expert_feed_forward_length, &spec->expert_shared_count, &spec->leading_dense_layers,
      &spec->moe_layer_step,
    };

    for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
      {
        g_autoptr(GError) moe_error = NULL;

        if (hr_gguf_keys_get_arch_u32 (keys, suffixes[i], &v, &found, &moe_error) && found)
          *fields[i] = v;
      }
  }
  return TRUE;
}

/* Architectures llama.cpp v0.5.0 loads whose memory is not a KV cache
 * Headroom models (src/llama-model.cpp create_memory), each with why; a
 * NULL key refuses the architecture whatever its keys, else only when the
 * key holds a count above 0. */
static const struct {
  const char *arch;
  const char *key;       /* ARCH.<key> that turns the refusal on, or NULL */
  const char *reason;
} unmodelled[] = {
  { "deepseek32", NULL, N_("llama.cpp gives it a llama_kv_cache_dsa (src/llama-model.cpp create_memory): an indexer key cache for DeepSeek sparse attention beside the MLA cache, which Headroom does not size yet") },
  { "glm-dsa", NULL, N_("llama.cpp gives it a llama_kv_cache_dsa (src/llama-model.cpp create_memory): an indexer key cache for its sparse attention layers beside the MLA cache, which Headroom does not size yet") },
  { "dots3note", NULL, N_("llama.cpp gives it a llama_kv_cache_dsa_iswa (src/llama-model.cpp create_memory): an indexer key cache and a window-sized cache beside the MLA cache, which Headroom does not size yet") },
  { "minimax-m3", NULL, N_("llama.cpp gives it a llama_kv_cache_msa (src/llama-model.cpp create_memory): an indexer key cache on its sparse layers beside the attention cache, which Headroom does not size yet") },
  { "hy_v4", "attention.indexer.top_k", N_("with attention.indexer.top_k set llama.cpp gives it a llama_kv_cache_dsa (src/llama-model.cpp create_memory): an indexer key cache beside the attention cache, which Headroom does not size yet") },
  { "dflash", NULL, N_("it is a DFlash draft stage, loaded beside a target model (src/llama-model.cpp create_memory), not a model to run on its own") },
  { "bert", NULL, N_("it is an embedding model: llama.cpp keeps no KV cache for it (src/llama-model.cpp create_memory), and Headroom sizes text generators") },
  { "modern-bert", NULL, N_("it is an embedding model: llama.cpp keeps no KV cache for it (src/llama-model.cpp create_memory), and Headroom sizes text generators") },
  { "nomic-bert", NULL, N_("it is an embedding model: llama.cpp keeps no KV cache for it (src/llama-model.cpp create_memory), and Headroom sizes text generators") },
  { "nomic-bert-moe", NULL, N_("it is an embedding model: llama.cpp keeps no KV cache for it (src/llama-model.cpp create_memory), and Headroom sizes text generators") },
  { "neo-bert", NULL, N_("it is an embedding model: llama.cpp keeps no KV cache for it (src/llama-model.cpp create_memory), and Headroom sizes text generators") },
  { "jina-bert-v2", NULL, N_("it is an embedding model: llama.cpp keeps no KV cache for it (src/llama-model.cpp create_memory), and Headroom sizes text generators") },
  { "jina-bert-v3", NULL, N_("it is an embedding model: llama.cpp keeps no KV cache for it (src/llama-model.cpp create_memory), and Headroom sizes text generators") },
  { "eurobert", NULL, N_("it is an embedding model: llama.cpp keeps no KV cache for it (src/llama-model.cpp create_memory), and Headroom sizes text generators") },
  { "gemma-embedding", NULL, N_("it is an embedding model: llama.cpp keeps no KV cache for it (src/llama-model.cpp create_memory), and Headroom sizes text generators") },
  { "wavtokenizer-dec", NULL, N_("it is an audio decoder: llama.cpp keeps no KV cache for it (src/llama-model.cpp create_memory), and Headroom sizes text generators") },
  { "dream", NULL, N_("it is a diffusion model: llama.cpp keeps no KV cache for it and llama-server does not run it (src/llama-model.cpp create_memory)") },
  { "llada", NULL, N_("it is a diffusion model: llama.cpp keeps no KV cache for it and llama-server does not run it (src/llama-model.cpp create_memory)") },
  { "llada-moe", NULL, N_("it is a diffusion model: llama.cpp keeps no KV cache for it and llama-server does not run it (src/llama-model.cpp create_memory)") },
  { "rnd1", NULL, N_("it is a diffusion model: llama.cpp keeps no KV cache for it and llama-server does not run it (src/llama-model.cpp create_memory)") },
};

/* HR_CORE_ERROR_UNSUPPORTED with the reason for an architecture of
 * unmodelled[]; TRUE for every other. */
static gboolean
check_modelled_cache (const HrGgufKeys *keys,
                      GError          **error)
{
  for (guint i = 0; keys->arch != NULL && i < G_N_ELEMENTS (unmodelled); i++)
    {
      if (strcmp (keys->arch, unmodelled[i].arch) != 0)
        continue;
      if (unmodelled[i].key != NULL)
        {
          guint32 v = 0;
          gboolean found = FALSE;
          g_autoptr(GError) ignored = NULL;

          if (!hr_gguf_keys_get_arch_u32 (keys, unmodelled[i].key, &v, &found, &ignored) || !found || v == 0)
            return TRUE;
        }
      if (keys->origin == HR_GGUF_KEYS_FROM_OLLAMA_SHOW)
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                     _("/api/show for %s: Headroom does not size %s: %s"),
                     keys->model_name, keys->arch, _(unmodelled[i].reason));
      else
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                     _("Headroom does not size %s: %s"), keys->arch, _(unmodelled[i].reason));
      return FALSE;
    }
  return TRUE;
}

/**
 * hr_gguf_keys_map:
 * @keys: the keys, with their architecture
 * @spec: the spec to fill (its name, origin and architecture already set)
 * @out_kv_heads_hidden: (out) (optional): set when the KV heads are
 *   withheld (/api/show's `null` array), for the caller to recover them
 * @error: return location for a #GError
 *
 * Maps the architecture keys onto @spec (the keys of docs/formats.md, "GGUF
 * keys"): layers `{arch}.block_count`; heads `{arch}.attention.head_count`
 * (a per-layer array gives its largest value); KV heads
 * `{arch}.attention.head_count_kv` (absent = heads; an array gives
 * #HrModelSpec.layer_kv_heads, 0 for layers without attention, and its
 * largest value); key and value lengths `{arch}.attention.key_length` /
 * `value_length` (absent = embedding length / heads, llama.cpp's
 * n_embd_head_k); embedding `{arch}.embedding_length`; feed-forward
 * `{arch}.feed_forward_length` (a scalar; anything else is left 0); native
 * context `{arch}.context_length`; sliding window
 * `{arch}.attention.sliding_window` (llama4: 8192-token chunks unless it is
 * 0; exaone4: only with 64 layers) with #HrModelSpec.layer_sliding from
 * `{arch}.attention.sliding_window_pattern` or llama.cpp's rule for
 * gemma2, gemma3, gpt-oss, cohere2, exaone4 and llama4; the sliding
 * layers' head sizes `{arch}.attention.key_length_swa` / `value_length_swa`;
 * `{arch}.attention.shared_kv_layers` (the last layers get 0 KV heads);
 * vocabulary the length of `tokenizer.ggml.tokens`, else
 * `{arch}.vocab_size`; experts `{arch}.expert_count` and
 * `expert_used_count`, and `expert_feed_forward_length`,
 * `expert_shared_count`, `leading_dense_block_count`,
 * `interleave_moe_layer_step`. For llama.cpp's recurrent and hybrid
 * architectures (hr_gguf_recurrent_kind()) the recurrent layers, the
 * layers with an attention KV cache and the state sizes follow the
 * architecture's own keys (hr_gguf_recurrent_map(); a head count of 0 is
 * then allowed for the pure recurrent ones). Each field's source names
 * the key it came from.
 * Parameters, precision, file size and tensors are the caller's: they
 * come from different places in a file and in /api/show.
 *
 * Returns: %TRUE; %FALSE with @error set: %HR_CORE_ERROR_INVALID_DATA when
 *   a count key has the wrong type, a value past 32 bits, or a per-layer
 *   array not of one whole number per layer, or a head count of 0 (in
 *   every layer); %HR_CORE_ERROR_LIMIT for more than
 *   %HR_MODEL_SPEC_MAX_LAYERS layers, or a key a recurrent or hybrid
 *   architecture needs missing (hr_gguf_recurrent_map());
 *   %HR_CORE_ERROR_UNSUPPORTED for an architecture whose memory Headroom
 *   does not model (hr_gguf_recurrent_check(): qwen4exp, deepseek4).
 */
gboolean
hr_gguf_keys_map (const HrGgufKeys *keys,
                  HrModelSpec      *spec,
                  gboolean         *out_kv_heads_hidden,
                  GError          **error)
{
  gboolean kv_hidden = FALSE;
  guint32 v = 0;
  gboolean found;

  if (out_kv_heads_hidden != NULL)
    *out_kv_heads_hidden = FALSE;
  if (!hr_gguf_recurrent_check (keys, error) || !check_modelled_cache (keys, error))
    return FALSE;
  if (!map_layers (keys, spec, error))
    return FALSE;

  if (!hr_gguf_keys_get_arch_u32 (keys, "embedding_length", &v, &found, error))
    return FALSE;
  if (found)
    {
      spec->embedding_length = v;
      hr_gguf_keys_set_source (keys, spec, HR_SPEC_FIELD_EMBEDDING_LENGTH, "embedding_length");
    }

  if (!map_heads (keys, spec, &kv_hidden, error) ||
      !map_key_value_lengths (keys, spec, error) ||
      !map_shared_kv_layers (keys, spec, error))
    return FALSE;

  if (!hr_gguf_keys_get_arch_u32 (keys, "context_length", &v, &found, error))
    return FALSE;
  if (found)
    {
      spec->context_length = v;
      hr_gguf_keys_set_source (keys, spec, HR_SPEC_FIELD_CONTEXT_LENGTH, "context_length");
    }

  if (!hr_gguf_keys_get_arch_u32 (keys, "attention.sliding_window", &v, &found, error))
    return FALSE;
  map_sliding_window (keys, spec, found, v);

  if (!map_counts (keys, spec, error))
    return FALSE;
  /* Recurrent and hybrid layers; with the KV heads withheld the caller
   * runs this once it has recovered them (hr-ollama-show.c). */
  if (!kv_hidden && !hr_gguf_recurrent_map (keys, spec, error))
    return FALSE;
  if (out_kv_heads_hidden != NULL)
    *out_kv_heads_hidden = kv_hidden;
  return TRUE;
}

/**
 * hr_gguf_keys_arch_is_recurrent:
 * @arch: (nullable): a GGUF `general.architecture` ("mamba", "llama")
 *
 * Whether llama.cpp runs @arch as a purely recurrent model: a fixed-size
 * state per sequence (llama_memory_recurrent) instead of an attention KV
 * cache (src/llama-arch.cpp, llm_arch_is_recurrent: mamba, mamba2, rwkv6,
 * rwkv6qwen2, rwkv7, arwkv7; their converters write head_count 0). The
 * mapper sizes their state (hr_gguf_recurrent_map()); the hybrids
 * (llm_arch_is_hybrid) are hr_gguf_recurrent_kind()'s
 * %HR_GGUF_RECURRENT_HYBRID.
 *
 * Returns: %TRUE for those architectures.
 */
gboolean
hr_gguf_keys_arch_is_recurrent (const char *arch)
{
  return hr_gguf_recurrent_kind (arch) == HR_GGUF_RECURRENT_PURE;
}

/**
 * hr_gguf_keys_precision_id:
 * @label: (nullable): a llama.cpp file type label ("Q4_K_M", "F16"), from
 *   hr_ggml_file_type_label() or Ollama's `details.quantization_level`
 *
 * The precision a file type is: the #HrPrecision of the same id, and for
 * llama.cpp's F32 and F16 file types the fp32 and fp16 precisions.
 *
 * Returns: (transfer none) (nullable): the precision's id, else @label
 *   itself (a file type Headroom has no precision for).
 */
const char *
hr_gguf_keys_precision_id (const char *label)
{
  const HrPrecision *precision = hr_precision_lookup (label);

  if (label == NULL)
    return NULL;
  if (precision == NULL && g_ascii_strcasecmp (label, "F32") == 0)
    precision = hr_precision_lookup ("fp32");
  else if (precision == NULL && g_ascii_strcasecmp (label, "F16") == 0)
    precision = hr_precision_lookup ("fp16");
  return precision != NULL ? precision->id : label;
}

/**
 * hr_gguf_keys_tied_embeddings:
 * @tensors: (nullable) (element-type HrTensorInfo): a model's tensors
 *
 * Whether the output projection reuses the token embedding: llama.cpp
 * loads `token_embd.weight` as the output when there is no `output.weight`
 * (src/llama-model.cpp, load_tensors).
 *
 * Returns: %TRUE when @tensors has `token_embd.weight` and no
 *   `output.weight`.
 */
gboolean
hr_gguf_keys_tied_embeddings (GPtrArray *tensors)
{
  gboolean has_output = FALSE, has_embd = FALSE;

  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    {
      const HrTensorInfo *info = g_ptr_array_index (tensors, i);

      if (strcmp (info->name, "output.weight") == 0)
        has_output = TRUE;
      else if (strcmp (info->name, "token_embd.weight") == 0)
        has_embd = TRUE;
    }
  return has_embd && !has_output;
}
