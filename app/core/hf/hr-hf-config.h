/* hr-hf-config.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pure parsers for the small files of a Hugging Face model repository:
 * config.json (the architecture), tokenizer_config.json (the tokenizer cap,
 * chat template, added tokens), generation_config.json (BOS/EOS ids) and a
 * LICENSE file (its title, and whether it restricts commercial use), plus the
 * base-or-instruct evidence and a parameter count derived from the config.
 * Field names and quirks: docs/formats.md ("config.json fields",
 * "Known quirks of configs and files").
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
 * not a limit (docs/formats.md, "Known quirks of configs and files").
 */
#define HR_HF_MODEL_MAX_LENGTH_UNSET 1e18

/**
 * HR_HF_MAX_NEST_DEPTH:
 *
 * How many sub-config levels deep config.json is searched for the language
 * model's dimensions (`thinker_config.text_config` is 2). Wrappers published
 * on the Hub nest it at most 2 deep; 4 leaves room without letting a hostile
 * file make the search long.
 */
#define HR_HF_MAX_NEST_DEPTH 4

/**
 * HrHfMoeRole:
 * @HR_HF_MOE_EXPERTS: routed experts in a MoE layer
 * @HR_HF_MOE_EXPERTS_PER_TOKEN: routed experts each token uses
 * @HR_HF_MOE_SHARED_EXPERTS: experts every token uses besides the routed ones
 * @HR_HF_MOE_INTERMEDIATE_SIZE: the FFN width of one routed expert
 * @HR_HF_MOE_FIRST_DENSE_LAYERS: leading layers with a dense FFN
 *
 * What a MoE key of config.json means; hr_hf_moe_keys() gives the spellings.
 */
typedef enum {
  HR_HF_MOE_EXPERTS,
  HR_HF_MOE_EXPERTS_PER_TOKEN,
  HR_HF_MOE_SHARED_EXPERTS,
  HR_HF_MOE_INTERMEDIATE_SIZE,
  HR_HF_MOE_FIRST_DENSE_LAYERS,
  HR_HF_MOE_N_ROLES
} HrHfMoeRole;

typedef struct {
  char     *architecture;      /* architectures[0]: "Qwen2ForCausalLM" (may be NULL) */
  char     *model_type;        /* "qwen2" (top level) */
  char     *text_model_type;   /* model_type of the nested block, or NULL */
  char     *nested_in;         /* path of the sub-config holding the language model
                                * ("text_config", "thinker_config.text_config") or NULL */
  guint32   layers;            /* num_hidden_layers / n_layer */
  guint32   heads;             /* num_attention_heads / n_head */
  guint32   kv_heads;          /* num_key_value_heads; absent = heads; multi_query = 1 */
  guint32   head_dim;          /* explicit positive head_dim, else hidden / heads */
  gboolean  head_dim_explicit;
  guint32   hidden_size;       /* hidden_size / n_embd / d_model */
  guint32   intermediate_size; /* intermediate_size / n_inner (GPT-2: null = 4 x n_embd) */
  guint32   vocab_size;        /* padded embedding rows */
  gboolean  tied_embeddings;   /* tie_word_embeddings; absent: the model type's default */
  char     *tied_source;       /* where tied_embeddings came from (a sentence) */
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
  guint32   quant_bits;        /* bits per stored weight value (0 = unknown): bits, w_bit,
                                * config_groups.*.weights.num_bits, fp8 8, mxfp4 4 */
  guint32   quant_group_size;  /* quantization_config.group_size (0 = unknown) */
  char     *dtype;             /* dtype, else torch_dtype, as written ("bfloat16") or NULL */
  gboolean  qkv_bias;          /* q/k/v projections carry a bias */
  gboolean  gpt2_style;        /* n_layer / n_embd / n_head keys (2-matrix MLP, LayerNorm) */
  guint32   gpt2_positions;    /* n_positions: learned position embeddings (GPT-2) */
  gint64    bos_token_id;      /* -1 = absent */
  GArray   *eos_token_ids;     /* gint64, possibly empty */
  /* The quantization's number format, and layer details. */
  char     *quant_format;      /* "int" or "float" (the weights' number type), or NULL */
  char     *quant_source;      /* the key the bits came from ("quantization_config.config_groups.group_0.weights.num_bits") */
  double    quant_bits_per_weight; /* bits incl. the format's own scales (mxfp4 4.25), 0 = unknown */
  gboolean  mlp_bias;          /* gate/up/down carry biases (mlp_bias) */
  gboolean  qk_norm;           /* per-head q_norm / k_norm (Qwen3, Gemma 3, OLMo 2) */
  gboolean  post_norms;        /* post-attention and post-FFN norms (Gemma 2/3, OLMo 2) */
  gboolean  o_bias;            /* the output projection carries a bias (attention_bias on llama-likes) */
  /* For the family defaults and hybrid models (hr-hf-config-family.c,
   * hr-hf-config-hybrid.c). */
  char     *gguf_arch;         /* general.architecture convert_hf_to_gguf.py writes ("gemma3"), or NULL */
  GPtrArray *defaults;         /* char*: each transformers default applied for an absent key,
                                * "head_dim: transformers default (configuration_gemma3.py head_dim): 256" */
  char     *default_sources[HR_SPEC_N_FIELDS]; /* a spec field's source when a default gave it, or NULL */
  GArray   *layer_recurrent;   /* guint8 per layer (1 = llama.cpp keeps recurrent state), or NULL */
  GArray   *layer_kv_heads;    /* guint32 per layer (0 = no attention), or NULL when uniform */
  guint32   recurrent_r;       /* llama.cpp n_embd_r (): f32 values per recurrent layer and slot */
  guint32   recurrent_s;       /* llama.cpp n_embd_s () */
  char     *recurrent_source;  /* how recurrent_r and recurrent_s were worked out, or NULL */
  guint32   sliding_pattern;   /* period layer_sliding was built from without layer_types, or 0 */
  gboolean  sliding_pattern_from_key; /* it was the sliding_window_pattern key, not the class default */
  guint32   lfm2_ff;           /* LFM2's adjusted feed-forward width (hr_hf_config_feed_forward_length()), or 0 */
  guint32   head_dim_full;     /* Gemma 4: the full-attention layers' head size (global_head_dim), head_dim
                                * being the sliding layers'; 0 = head_dim on every layer */
  gboolean  sliding_last_full; /* the class forced the last layer to full attention (Gemma 4) */
  guint32   nextn_layers;      /* multi-token-prediction layers the converter appends after the trunk */
  const char *nextn_key;       /* the key they came from ("num_nextn_predict_layers"), static, or NULL */
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

/* One quantization of a GGUF repository: a single file, or every shard of a
 * split model (hr_hf_gguf_group_files()). */
typedef struct {
  char     *label;        /* "Q4_K_M" (hr_hf_gguf_quant_label()), or NULL when the name has none */
  char     *first_path;   /* the file holding the metadata: the file itself, or part 1 */
  guint     parts;        /* 1, or the split's part count */
  guint     parts_found;  /* parts listed */
  guint64   bytes;        /* sum of the listed parts' sizes, bytes */
  gboolean  complete;     /* every part is listed with a size */
  char     *problem;      /* what is missing, a sentence, or NULL */
} HrHfGgufGroup;

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
char        *hr_hf_parameters_describe_difference (guint64       derived,
                                          guint64                stored);
const char * const *hr_hf_moe_keys       (HrHfMoeRole            role);
gboolean     hr_hf_tied_default          (const char            *model_type);
void         hr_hf_config_settle_tied    (HrHfConfig            *config,
                                          gboolean               index_has_lm_head);
const char  *hr_hf_dtype_to_precision    (const char            *dtype);
const char  *hr_hf_config_precision      (const HrHfConfig      *config);
guint32      hr_hf_config_feed_forward_length (const HrHfConfig *config);
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
GPtrArray   *hr_hf_gguf_group_files      (const char * const    *paths,
                                          const guint64         *sizes,
                                          guint                  n_files);
void         hr_hf_gguf_group_free       (HrHfGgufGroup         *group);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHfConfig, hr_hf_config_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHfTokenizerConfig, hr_hf_tokenizer_config_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHfGenerationConfig, hr_hf_generation_config_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHfLicenseFile, hr_hf_license_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrHfKindEvidence, hr_hf_kind_evidence_free)

G_END_DECLS
