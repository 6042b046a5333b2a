/* hr-hf-config.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pure parsers for the small files of a Hugging Face model repository:
 * config.json (the architecture), tokenizer_config.json (the tokenizer cap,
 * chat template, added tokens), generation_config.json (BOS/EOS ids) and a
 * LICENSE file (its title, and whether it restricts commercial use), plus the
 * base-or-instruct evidence and a parameter count derived from the config.
 * Field names and quirks: shared/reference/hf-hub.md ("config.json fields",
 * "Known quirks").
 */
#pragma once

#include <glib.h>

#include "hr-model-spec.h"

G_BEGIN_DECLS

/**
 * HR_HF_MODEL_MAX_LENGTH_UNSET:
 *
 * tokenizer_config.json `model_max_length` at or above this (1e18 tokens) is
 * transformers' "unset" sentinel (it writes int(1e30), VERY_LARGE_INTEGER),
 * not a limit (hf-hub.md, "Known quirks").
 */
#define HR_HF_MODEL_MAX_LENGTH_UNSET 1e18

typedef struct {
  char     *architecture;      /* architectures[0]: "Qwen2ForCausalLM" (may be NULL) */
  char     *model_type;        /* "qwen2" (top level) */
  char     *text_model_type;   /* model_type of the nested block, or NULL */
  char     *nested_in;         /* "text_config", "language_config", "llm_config" or NULL */
  guint32   layers;            /* num_hidden_layers / n_layer */
  guint32   heads;             /* num_attention_heads / n_head */
  guint32   kv_heads;          /* num_key_value_heads; absent = heads; multi_query = 1 */
  guint32   head_dim;          /* explicit positive head_dim, else hidden / heads */
  gboolean  head_dim_explicit;
  guint32   hidden_size;       /* hidden_size / n_embd / d_model */
  guint32   intermediate_size; /* intermediate_size / n_inner (GPT-2: null = 4 x n_embd) */
  guint32   vocab_size;        /* padded embedding rows */
  gboolean  tied_embeddings;   /* tie_word_embeddings (transformers' default: true) */
  guint32   max_position_embeddings; /* native context (0 = unknown) */
  guint32   sliding_window;    /* tokens, 0 = off (use_sliding_window false, or null) */
  GArray   *layer_sliding;     /* guint8 per layer from layer_types, or NULL */
  guint32   experts;           /* routed experts (n_routed_experts > num_local_experts > num_experts) */
  guint32   experts_per_token; /* num_experts_per_tok */
  guint32   shared_experts;    /* n_shared_experts (or 1 for shared_expert_intermediate_size) */
  guint32   moe_intermediate_size;    /* per routed expert (0 = intermediate_size) */
  guint32   shared_intermediate_size; /* per shared expert (0 = moe_intermediate_size) */
  guint32   first_dense_layers;       /* first_k_dense_replace */
  gboolean  mla;               /* multi-head latent attention (kv_lora_rank present) */
  guint32   kv_lora_rank;
  guint32   q_lora_rank;       /* 0 = q is not low-rank */
  guint32   qk_rope_head_dim;
  guint32   qk_nope_head_dim;
  guint32   v_head_dim;
  char     *quant_method;      /* quantization_config.quant_method ("gptq", "awq", "fp8"...) or NULL */
  guint32   quant_bits;        /* quantization_config.bits (0 = unknown) */
  guint32   quant_group_size;  /* quantization_config.group_size (0 = unknown) */
  char     *dtype;             /* dtype, else torch_dtype, as written ("bfloat16") or NULL */
  gboolean  qkv_bias;          /* q/k/v projections carry a bias */
  gboolean  gpt2_style;        /* n_layer / n_embd / n_head keys (2-matrix MLP, LayerNorm) */
  guint32   gpt2_positions;    /* n_positions: learned position embeddings (GPT-2) */
  gint64    bos_token_id;      /* -1 = absent */
  GArray   *eos_token_ids;     /* gint64, possibly empty */
} HrHfConfig;

typedef struct {
  guint64 embeddings;  /* token (and learned position) embeddings */
  guint64 attention;   /* all layers: q, k, v, o (+ biases, MLA low-rank parts) */
  guint64 mlp;         /* all layers: gate/up/down (x every expert, + router, shared) */
  guint64 norms;       /* all layers and the final norm */
  guint64 output;      /* lm_head; 0 when tied */
  guint64 total;       /* the sum: every stored parameter */
  guint64 active;      /* per token: experts_per_token experts instead of all (= total for dense) */
} HrHfParameterCount;

typedef struct {
  gboolean    has_model_max_length; /* FALSE when absent or >= HR_HF_MODEL_MAX_LENGTH_UNSET */
  guint64     model_max_length;     /* tokenizer cap in tokens, not the native context */
  gboolean    has_chat_template;
  char       *tokenizer_class;      /* or NULL */
  char       *bos_token;            /* text, or NULL */
  char       *eos_token;            /* text, or NULL */
  GHashTable *added_tokens;         /* id (GINT_TO_POINTER) -> content (char*) from added_tokens_decoder */
} HrHfTokenizerConfig;

typedef struct {
  gint64   bos_token_id;   /* -1 = absent */
  gint64   pad_token_id;   /* -1 = absent */
  GArray  *eos_token_ids;  /* gint64, in file order */
  gboolean do_sample;
} HrHfGenerationConfig;

typedef struct {
  char     *title;          /* the first heading or line, at most 200 characters */
  gboolean  non_commercial; /* a restricting phrase was found */
  char     *phrase;         /* the phrase that matched (lower case), or NULL */
} HrHfLicenseFile;

typedef enum {
  HR_HF_KIND_UNKNOWN,
  HR_HF_KIND_BASE,
  HR_HF_KIND_INSTRUCT,
} HrHfKind;

typedef struct {
  HrHfKind   kind;
  char      *base_model;  /* cardData base_model (first), or from a base_model: tag; or NULL */
  GPtrArray *evidence;    /* char*: sentences a person reads, strongest first */
} HrHfKindEvidence;

/* config.json */
HrHfConfig  *hr_hf_config_parse          (const char            *data,
                                          gsize                  length,
                                          GError               **error);
void         hr_hf_config_free           (HrHfConfig            *config);
gboolean     hr_hf_config_count_parameters (const HrHfConfig    *config,
                                          HrHfParameterCount    *out,
                                          GError               **error);
double       hr_hf_parameters_relative_difference (guint64       derived,
                                          guint64                stored);
const char  *hr_hf_dtype_to_precision    (const char            *dtype);
const char  *hr_hf_config_precision      (const HrHfConfig      *config);
HrModelSpec *hr_hf_config_to_model_spec  (const HrHfConfig      *config,
                                          const char            *name,
                                          const char            *origin,
                                          GError               **error);

/* tokenizer_config.json, generation_config.json */
HrHfTokenizerConfig  *hr_hf_tokenizer_config_parse  (const char  *data,
                                                     gsize        length,
                                                     GError     **error);
void                  hr_hf_tokenizer_config_free   (HrHfTokenizerConfig *config);
HrHfGenerationConfig *hr_hf_generation_config_parse (const char  *data,
                                                     gsize        length,
                                                     GError     **error);
void                  hr_hf_generation_config_free  (HrHfGenerationConfig *config);

/* LICENSE and the license tag */
HrHfLicenseFile *hr_hf_license_file_read     (const char            *text,
                                              gsize                  length);
void             hr_hf_license_file_free     (HrHfLicenseFile       *license);
gboolean         hr_hf_license_tag_is_open   (const char            *tag);
gboolean         hr_hf_license_tag_non_commercial (const char       *tag);

/* Base or instruct */
HrHfKindEvidence *hr_hf_kind_evidence        (const char                 *repo,
                                              const char * const         *tags,
                                              const char                 *card_base_model,
                                              const HrHfTokenizerConfig  *tokenizer,
                                              const HrHfGenerationConfig *generation);
void              hr_hf_kind_evidence_free   (HrHfKindEvidence      *evidence);
const char       *hr_hf_kind_to_string       (HrHfKind               kind);

/* Names */
gboolean     hr_hf_repo_parse            (const char            *text,
                                          char                 **out_repo,
                                          char                 **out_revision,
                                          GError               **error);
char        *hr_hf_gguf_quant_label      (const char            *filename);
gboolean     hr_hf_gguf_split_part       (const char            *filename,
                                          guint                 *out_index,
                                          guint                 *out_count);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHfConfig, hr_hf_config_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHfTokenizerConfig, hr_hf_tokenizer_config_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHfGenerationConfig, hr_hf_generation_config_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHfLicenseFile, hr_hf_license_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHfKindEvidence, hr_hf_kind_evidence_free)

G_END_DECLS
