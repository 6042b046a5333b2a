/* hr-runtime.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The runtime model: what an Ollama server will really load for a model, term
 * by term, the way the server of a given version computes it. Two eras:
 *
 *  - Ollama 0.30 and newer run llama-server; /api/ps `size` is the sum of the
 *    GPU buffers llama-server reports when every layer is on the GPU:
 *    weights on the GPU + KV cache (+ recurrent state) + compute buffer;
 *    on a server without a GPU (%HR_RUNTIME_BACKEND_CPU) every buffer:
 *    all weights + KV + output + compute (checked against a real
 *    llama-server by tests/llama).
 *  - Ollama up to 0.12.10 estimated the size (llm/memory.go): a per-GPU
 *    reserve + one extra layer as a buffer + the repeating layers + KV cache +
 *    the output layer + a per-architecture compute graph (fs/ggml GraphSize).
 *
 *  - llama-server run by hand (%HR_RUNTIME_ERA_LLAMA_SERVER): the same
 *    buffers with llama-server's own defaults instead of Ollama's flags
 *    (tools/server/server.cpp, common/common.h, common/fit.cpp): -c unset
 *    takes the trained context of each of 4 automatic slots in one unified
 *    KV stream, batch 2048 / ubatch 512, no clamp to the trained context.
 *
 * And one method that is no server's: %HR_RUNTIME_ERA_SEED, the seed's own
 * weights + KV cache (docs/seed-figures.md), the method of the seed's tables, kept
 * as a named teaching mode in the same shape.
 *
 * Every term carries its bytes, its formula with the values substituted, the
 * source it follows and a note, so a window can show each one as it is.
 * Upstream paths here and in the sources are llama.cpp at commit
 * de3ff815ea7d559ee917f063901b8986f038abc6 and Ollama at commit
 * fb30760996871fa9460115c753afd2c60d4ab0f7 (v0.33.0-rc2), or v0.12.10 for
 * the old estimator (docs/runtimes.md, "Upstream versions").
 * Pure: no I/O, and with skip_text set no allocation (the slider hot path).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "hr-memory.h"
#include "hr-model-spec.h"
#include "hr-precision.h"

G_BEGIN_DECLS

typedef enum {
  HR_RUNTIME_ERA_AUTO,        /* choose from server_version */
  HR_RUNTIME_ERA_OLLAMA_0_30, /* Ollama 0.30 and newer: llama-server buffers */
  HR_RUNTIME_ERA_OLLAMA_0_12, /* Ollama up to 0.12.10: the old estimator */
  HR_RUNTIME_ERA_SEED,        /* not a server: the seed's weights + KV cache, its tables' method (teaching) */
  HR_RUNTIME_ERA_LLAMA_SERVER, /* llama.cpp's llama-server run by hand, with its own defaults */
} HrRuntimeEra;

typedef enum {
  HR_FLASH_ATTENTION_AUTO, /* what the server decides (see hr_runtime_predict()) */
  HR_FLASH_ATTENTION_ON,
  HR_FLASH_ATTENTION_OFF,
} HrFlashAttention;

typedef enum {
  HR_RUNTIME_BACKEND_CUDA,  /* CUDA and ROCm: the old estimator's 457 MiB reserve */
  HR_RUNTIME_BACKEND_METAL, /* Apple: 512 MiB */
  HR_RUNTIME_BACKEND_CPU,   /* no GPU: llama.cpp's CPU backend; every buffer is in host memory and counts */
} HrRuntimeBackend;

typedef enum {
  HR_RUNTIME_TERM_RESERVE,         /* old era: per-GPU reserve */
  HR_RUNTIME_TERM_BUFFER_LAYER,    /* old era: one extra layer */
  HR_RUNTIME_TERM_WEIGHTS,         /* weights on the GPU (old era: repeating layers) */
  HR_RUNTIME_TERM_OUTPUT,          /* old era: output layer; 0.30 on the CPU backend: the output (logits) buffer */
  HR_RUNTIME_TERM_KV_CACHE,
  HR_RUNTIME_TERM_RECURRENT_STATE, /* recurrent (SSM) layers' state, f32 */
  HR_RUNTIME_TERM_COMPUTE,         /* compute buffer / graph */
  HR_RUNTIME_TERM_LEARNED,         /* the board's learned residual (hr-calibration.h) */
  HR_RUNTIME_TERM_PROJECTOR,       /* a vision model's projector (mmproj), loaded beside the weights */
  HR_RUNTIME_TERM_DRAFT_WEIGHTS,   /* llama-server -md: the draft model's weights (hr-runtime-draft.c) */
  HR_RUNTIME_TERM_DRAFT_KV,        /* ... its KV cache (and recurrent state) */
  HR_RUNTIME_TERM_DRAFT_COMPUTE,   /* ... its compute buffer */
  HR_RUNTIME_TERM_DRAFT_OUTPUT,    /* ... its output buffer (CPU backend only, as the main one) */
  HR_RUNTIME_N_TERM_KINDS
} HrRuntimeTermKind;

/** HR_RUNTIME_TEXT_LEN: room for one formula or note, bytes with the NUL. */
#define HR_RUNTIME_TEXT_LEN 512
/** HR_RUNTIME_MAX_NOTES: general notes a prediction can carry. */
#define HR_RUNTIME_MAX_NOTES 8

typedef struct {
  HrRuntimeTermKind kind;
  const char *id;        /* stable: "weights", "kv_cache", "compute", ... */
  const char *label;     /* translated, for a person: "Weights on the GPU" */
  gint64      bytes;     /* signed: only the learned term can be negative */
  char        formula[HR_RUNTIME_TEXT_LEN]; /* values substituted; "" with skip_text */
  const char *source;    /* static citation: the Ollama / llama.cpp file or doc */
  char        note[HR_RUNTIME_TEXT_LEN];    /* may be "" */
} HrRuntimeTerm;

/**
 * HrRuntimeSpecCache:
 *
 * What a bytes-only prediction works out from the model alone, kept
 * between slider steps (hr_runtime_spec_cache_new()): the weight figures
 * at one precision, the architecture's flags, the KV elements per token of
 * each layer kind, whether the head sizes divide a quantized cache's
 * blocks, and a copy of the few spec figures a step reads, so that a step
 * reads the cache's first lines and not the spec. Opaque; one per model,
 * used by one thread at a time.
 */
typedef struct _HrRuntimeSpecCache HrRuntimeSpecCache;

typedef struct {
  const HrModelSpec *spec;            /* not owned; the tensor list is used when present */
  const HrPrecision *precision;       /* NULL = as pulled (the file as it is) */
  guint32            context_tokens;  /* num_ctx per slot; llama-server: -c, the whole cache
                                       * (0 = unset: the trained context per slot) */
  guint32            parallel_slots;  /* 0 = the era's default (old era: automatic;
                                       * llama-server: -np auto, 4 slots, unified) */
  HrKvCacheType      kv_type;         /* requested (OLLAMA_KV_CACHE_TYPE) */
  HrFlashAttention   flash_attention;
  guint32            batch;           /* 0 = the era's default: 512 (Ollama's num_batch), 2048 (llama-server -b) */
  guint32            ubatch;          /* 0 = 512 (both) */
  HrRuntimeEra       era;
  const char        *server_version;  /* "0.31.2" or "ollama 0.31.2" (nullable) */
  HrRuntimeBackend   backend;
  guint64            free_bytes;      /* old era's automatic slots: free GPU memory, 0 = unknown;
                                       * llama-server: the memory --fit fits an unset -c to
                                       * (the device's free memory; CPU: physical RAM) */
  guint64            fit_target_bytes; /* llama-server --fit-target, the margin --fit keeps free; 0 = 1 GiB */
  gboolean           skip_text;       /* TRUE: bytes only, no formulas or notes */
  guint32            draft_num_predict; /* Ollama's draft_num_predict for the MTP draft it starts on a
                                       * GGUF with nextn layers (api/types.go DefaultOptions: 4;
                                       * 0 = no draft); hr_runtime_inputs_init() sets 4 */
  gint32             cache_ram_mib;   /* llama-server --cache-ram: the prompt cache's limit in MiB,
                                       * -1 = no limit, 0 = off; hr_runtime_inputs_init() sets
                                       * 8192 (common/common.h cache_ram_mib; Ollama passes none) */
  const HrModelSpec *draft_spec;      /* nullable, not owned: llama-server's -md draft model for
                                       * speculative decoding, sized beside the model
                                       * (hr-runtime-draft.c); llama-server era only */
  guint32            mtp_layers;      /* llama-server --spec-type draft-mtp: the model's own MTP
                                       * (nextn) layers, the last mtp_layers of spec->layers
                                       * ({arch}.nextn_predict_layers); 0 = no MTP context */
  HrRuntimeSpecCache *cache;          /* nullable, not owned: figures kept for this spec between
                                       * bytes-only predictions (skip_text); the spec must not
                                       * change while it is used (hr_runtime_spec_cache_reset()) */
} HrRuntimeInputs;

typedef struct {
  HrRuntimeEra     era;               /* resolved, never AUTO */
  const char      *era_id;            /* "ollama-0.30" / "ollama-0.12" / "llama-server" / "seed" */
  const char      *era_label;         /* translated */
  guint32          context_tokens;    /* num_ctx after the clamp to the model's limit;
                                       * llama-server: n_ctx, the whole cache, not clamped */
  gboolean         context_clamped;   /* num_ctx was past the model's limit and clamped to it
                                       * (context_tokens): any num_ctx at or past it predicts
                                       * the same, the rest of the inputs the same */
  guint32          parallel_slots;    /* resolved */
  gboolean         kv_unified;        /* llama-server: one KV stream the slots share
                                       * (kv_unified); FALSE: one stream per slot */
  HrKvCacheType    kv_type;           /* effective: the type the server really uses */
  HrKvCacheType    kv_type_requested; /* as asked (OLLAMA_KV_CACHE_TYPE); differs from kv_type
                                       * when the server falls back to f16 (see kv_type_reason) */
  const char      *kv_type_reason;    /* static, translated: why kv_type is not the one asked for;
                                       * NULL when it is, or with skip_text */
  gboolean         flash_attention;   /* effective */
  guint32          ubatch;            /* effective micro-batch */
  guint32          kv_cells;          /* cells of a global layer (after padding) */
  guint32          kv_cells_sliding;  /* cells of a sliding-window layer, 0 = none */
  guint            n_terms;
  HrRuntimeTerm    terms[HR_RUNTIME_N_TERM_KINDS];
  guint64          total_bytes;       /* what /api/ps `size` would say */
  guint64          host_bytes;        /* also resident, in host memory (token_embd) */
  guint32          rs_seq;            /* llama.cpp cparams.n_rs_seq: recurrent-state snapshots per
                                       * slot beside the live row (the RS rows are slots x (1 +
                                       * rs_seq)); 0 without an MTP draft */
  guint64          prompt_cache_limit_bytes; /* host memory llama-server's prompt cache may grow to
                                       * as prompts are cached, never at load (not in total_bytes
                                       * nor host_bytes); 0 = off or not a llama-server era,
                                       * G_MAXUINT64 = no byte limit (n_ctx tokens of prompts) */
  guint            n_notes;
  char             notes[HR_RUNTIME_MAX_NOTES][HR_RUNTIME_TEXT_LEN];
} HrRuntimePrediction;

/* What a context step changes of a prediction (hr_runtime_predict_context_step()),
 * in bytes; the other terms are the cache's last prediction's. */
typedef struct {
  guint32          context_tokens;    /* num_ctx after Ollama's clamp to the model's limit */
  gboolean         context_clamped;
  HrKvCacheType    kv_type;           /* the KV cache's, effective (the last prediction's) */
  guint64          kv_cache_bytes;    /* the KV cache term; 0 for a purely recurrent model */
  guint64          compute_bytes;     /* the compute buffer term */
  guint64          total_bytes;       /* every term, as HrRuntimePrediction's */
  guint64          host_bytes;        /* as HrRuntimePrediction's */
} HrRuntimeContextStep;

void          hr_runtime_inputs_init      (HrRuntimeInputs       *inputs,
                                           const HrModelSpec     *spec,
                                           guint32                context_tokens);
gboolean      hr_runtime_predict          (const HrRuntimeInputs *inputs,
                                           HrRuntimePrediction   *out,
                                           GError               **error);
gboolean      hr_runtime_predict_context_step (const HrRuntimeInputs *inputs,
                                               HrRuntimeContextStep  *out);
const HrRuntimeTerm *hr_runtime_prediction_get_term (const HrRuntimePrediction *prediction,
                                                     HrRuntimeTermKind          kind);
gint64        hr_runtime_prediction_term_bytes (const HrRuntimePrediction *prediction,
                                                HrRuntimeTermKind          kind);
guint64       hr_runtime_layer_state_bytes (const HrRuntimePrediction *prediction,
                                            const HrModelSpec         *spec,
                                            guint                      layer);
gboolean      hr_runtime_parse_version    (const char            *version,
                                           guint                 *out_major,
                                           guint                 *out_minor,
                                           guint                 *out_patch);
HrRuntimeEra  hr_runtime_era_for_version  (const char            *version);
const char   *hr_runtime_era_to_string    (HrRuntimeEra           era);
gboolean      hr_runtime_era_from_string  (const char            *str,
                                           HrRuntimeEra          *out_era);
const char   *hr_runtime_era_label        (HrRuntimeEra           era);
const char   *hr_runtime_backend_to_string (HrRuntimeBackend      backend);
gboolean      hr_runtime_backend_from_string (const char         *str,
                                              HrRuntimeBackend   *out_backend);
guint         hr_runtime_auto_parallel_tries (const char         *version,
                                              guint32             out_tries[2]);
char         *hr_runtime_format_ps_size   (guint64                bytes);
const HrModelSpec *hr_runtime_exact_spec  (const HrModelSpec     *spec,
                                           HrModelSpec           *scratch);
JsonNode     *hr_runtime_prediction_to_json (const HrRuntimePrediction *prediction);
HrRuntimeSpecCache *hr_runtime_spec_cache_new   (void);
void          hr_runtime_spec_cache_reset (HrRuntimeSpecCache    *cache);
void          hr_runtime_spec_cache_free  (HrRuntimeSpecCache    *cache);
void          hr_runtime_spec_cache_prefetch (const HrRuntimeSpecCache *cache);
void          hr_runtime_draft_inputs     (const HrRuntimeInputs     *inputs,
                                           const HrRuntimePrediction *target,
                                           HrRuntimeInputs           *out);
gboolean      hr_runtime_draft_vocab_compatible (const HrModelSpec *target,
                                                 const HrModelSpec *draft);

G_END_DECLS
