/* hr-model-spec.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrModelSpec: what the memory math needs to know about one model, and where
 * each value came from. A plain boxed struct with public fields; parsers for
 * the catalog, GGUF headers, Hugging Face configs and Ollama's /api/show fill
 * it, the math reads it.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * HR_MODEL_SPEC_MAX_LAYERS: most blocks (`{arch}.block_count`) a model spec
 * accepts, from a GGUF header, /api/show or the catalog. 8 times llama.cpp's own
 * limit (LLAMA_MAX_LAYERS, 512, src/llama-hparams.h), so every model
 * llama.cpp can load is accepted, while the per-layer arrays and the
 * per-layer loops of the memory math stay a few thousand steps long for a
 * hostile header. The largest published models have 126 layers.
 */
#define HR_MODEL_SPEC_MAX_LAYERS 4096

/* Fields whose provenance is recorded ("seed: Running Larger Models",
 * "config.json num_hidden_layers", "GGUF llama.block_count", ...). */
typedef enum {
  HR_SPEC_FIELD_PARAMETERS,
  HR_SPEC_FIELD_PRECISION,
  HR_SPEC_FIELD_FILE_BYTES,
  HR_SPEC_FIELD_LAYERS,
  HR_SPEC_FIELD_HEADS,
  HR_SPEC_FIELD_KV_HEADS,
  HR_SPEC_FIELD_KEY_LENGTH,
  HR_SPEC_FIELD_VALUE_LENGTH,
  HR_SPEC_FIELD_EMBEDDING_LENGTH,
  HR_SPEC_FIELD_CONTEXT_LENGTH,
  HR_SPEC_FIELD_SLIDING_WINDOW,
  HR_SPEC_N_FIELDS
} HrSpecField;

/* One tensor of a GGUF file (or of /api/show's tensor list). */
typedef struct {
  char    *name;        /* "blk.0.attn_q.weight" */
  guint32  type;        /* HrGgmlType */
  guint32  n_dims;      /* 1..4 */
  guint64  dims[4];     /* ne[0] first, as GGUF stores them */
  guint64  elements;    /* product of dims */
  guint64  bytes;       /* exact, from the ggml block size */
} HrTensorInfo;

typedef struct _HrModelSpec HrModelSpec;

struct _HrModelSpec {
  char    *name;              /* "llama3.2:3b" */
  char    *architecture;      /* "llama", "qwen2", "gemma2" (may be NULL) */
  guint64  parameters;        /* parameter count (0 = unknown) */
  char    *precision;         /* HrPrecision id of the file as pulled: "q4_K_M" */
  guint64  file_bytes;        /* size of the weights file in bytes (0 = unknown) */
  guint32  layers;            /* transformer blocks (block_count) */
  guint32  heads;             /* attention (query) heads */
  guint32  kv_heads;          /* key/value heads (GQA); for per-layer models the max */
  guint32  key_length;        /* key head dim */
  guint32  value_length;      /* value head dim */
  guint32  embedding_length;  /* hidden size */
  guint32  context_length;    /* native context limit in tokens (0 = unknown) */
  guint32  sliding_window;    /* window in tokens for sliding-window layers (0 = none) */
  guint32  vocab_size;        /* (0 = unknown) */
  guint32  expert_count;      /* MoE experts in total (0 = dense) */
  guint32  expert_used_count; /* MoE experts per token */
  gboolean tied_embeddings;   /* output shares token_embd (no output.weight) */
  GArray  *layer_kv_heads;    /* guint32 per layer, or NULL when uniform; 0 = no attention */
  GArray  *layer_sliding;     /* guint8 per layer (1 = sliding-window layer), or NULL */
  GPtrArray *tensors;         /* HrTensorInfo*, or NULL when unknown */
  char    *origin;            /* "catalog", "hf:Qwen/Qwen2.5-3B-Instruct@aa8e...", "gguf:sha256:..." */
  char    *sources[HR_SPEC_N_FIELDS]; /* provenance per field, or NULL */
  /* For the runtime model (hr-runtime.h); 0 = unknown / none. */
  guint32  feed_forward_length; /* FFN intermediate size (n_ff) */
  /* For multi-head latent attention. */
  gboolean kv_latent;           /* MLA: the cache holds one latent of key_length
                                 * elements per token and layer; V is a view of it */
  /* For exact catalog sizes. A catalog row may carry
   * the seed's rounded listing in file_bytes and parameters (its tables
   * size by them) and the published exact figures here, which the runtime
   * prediction uses (hr_runtime_predict()); 0 = the same as the listing. */
  guint64  exact_file_bytes;    /* the blob's exact bytes (an Ollama manifest's layer size) */
  guint64  exact_parameters;    /* the exact parameter count (general.parameter_count) */
  char    *exact_file_bytes_source; /* where exact_file_bytes came from, or NULL */
  char    *exact_parameters_source; /* where exact_parameters came from, or NULL */
  /* For vision models from the Ollama library. */
  guint64  projector_bytes;     /* the vision projector Ollama loads beside the weights:
                                 * its GGUF's tensor bytes; 0 = none */
  char    *projector_source;    /* where projector_bytes came from, or NULL */
  /* Tensors of a type this version does not know. */
  guint32  unknown_tensors;     /* tensors of a type this version does not know: not in
                                 * tensors nor file_bytes, so the weights are a lower bound */
  /* Hybrid and recurrent models (llama.cpp src/llama-hparams.cpp, src/llama-memory-recurrent.cpp). */
  GArray  *layer_recurrent;     /* guint8 per layer: 1 = llama.cpp keeps recurrent state for the
                                 * layer (hparams.is_recr, the memory's filter_recr); NULL = none.
                                 * A layer may have both (falcon-h1) or neither (nemotron-h MLP). */
  guint32  recurrent_r;         /* n_embd_r (): conv / token-shift state values per recurrent
                                 * layer and slot, f32 */
  guint32  recurrent_s;         /* n_embd_s (): SSM / WKV / delta-net state values per recurrent
                                 * layer and slot, f32 */
  char    *recurrent_source;    /* how recurrent_r and recurrent_s were worked out, or NULL */
  /* Mixtures of experts whose layers differ (llama.cpp load_arch_hparams); 0 = unknown / none. */
  guint32  expert_feed_forward_length; /* {arch}.expert_feed_forward_length: one expert's n_ff */
  guint32  expert_shared_count;        /* {arch}.expert_shared_count: shared experts of that width */
  guint32  leading_dense_layers;       /* {arch}.leading_dense_block_count: the first layers are dense */
  guint32  moe_layer_step;             /* {arch}.interleave_moe_layer_step: every n-th layer is MoE */
  /* Sliding-window layers with their own head size (llama.cpp n_embd_head_k_swa, gemma4). */
  guint32  key_length_swa;             /* {arch}.attention.key_length_swa (0 = key_length) */
  guint32  value_length_swa;           /* {arch}.attention.value_length_swa (0 = value_length) */
  /* Multi-token-prediction blocks (llama.cpp hparams.n_layer_nextn). */
  guint32  nextn_layers;               /* {arch}.nextn_predict_layers: the last blocks, kept out of
                                        * the main context's KV cache; 0 = none */
};

#define HR_TYPE_MODEL_SPEC (hr_model_spec_get_type ())

GType        hr_model_spec_get_type     (void) G_GNUC_CONST;
HrModelSpec *hr_model_spec_new          (const char        *name);
HrModelSpec *hr_model_spec_copy         (const HrModelSpec *spec);
void         hr_model_spec_free         (HrModelSpec       *spec);
void         hr_model_spec_set_source   (HrModelSpec       *spec,
                                         HrSpecField        field,
                                         const char        *source);
const char  *hr_model_spec_get_source   (const HrModelSpec *spec,
                                         HrSpecField        field);
const char  *hr_spec_field_name         (HrSpecField        field);
gboolean     hr_model_spec_validate     (const HrModelSpec *spec,
                                         GError           **error);
void         hr_model_spec_take_tensors (HrModelSpec       *spec,
                                         GPtrArray         *tensors);
guint64      hr_model_spec_tensor_bytes (const HrModelSpec *spec);
guint32      hr_model_spec_layer_kv_heads (const HrModelSpec *spec,
                                           guint              layer);
gboolean     hr_model_spec_layer_is_sliding (const HrModelSpec *spec,
                                             guint              layer);
guint64      hr_model_spec_kv_elements_per_token (const HrModelSpec *spec);
gboolean     hr_model_spec_layer_is_recurrent (const HrModelSpec *spec,
                                               guint              layer);
guint        hr_model_spec_recurrent_layers (const HrModelSpec *spec);
gboolean     hr_model_spec_recurrent_only (const HrModelSpec *spec);

HrTensorInfo *hr_tensor_info_new  (const char     *name,
                                   guint32         type,
                                   guint32         n_dims,
                                   const guint64  *dims,
                                   GError        **error);
HrTensorInfo *hr_tensor_info_copy (const HrTensorInfo *info);
void          hr_tensor_info_free (HrTensorInfo       *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrModelSpec, hr_model_spec_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrTensorInfo, hr_tensor_info_free)

G_END_DECLS
