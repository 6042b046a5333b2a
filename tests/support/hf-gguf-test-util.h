/* hf-gguf-test-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What test-hf-config-gguf.c and test-hf-config-hybrid.c share: a config.json
 * fixture through hr_hf_config_parse() + hr_hf_config_to_model_spec() (the
 * `headroom-cli hub` path), a GGUF header written key by key as llama.cpp's
 * convert_hf_to_gguf.py writes it, through hr_gguf_file_load() +
 * hr_gguf_file_to_model_spec(), and the comparison of the two specs and of
 * hr_runtime_predict()'s KV, recurrent-state, output and compute terms (the
 * weights term is not compared: the config path sizes the safetensors
 * files, the GGUF path its own tensors). The GGUF side gives the vocabulary
 * as `{arch}.vocab_size` instead of a tokenizer.ggml.tokens array of that
 * many strings (the mapper reads either). In the test-support library
 * (tests/support/); every function fails the test on an unexpected error.
 */
#pragma once

#include "gguf-writer.h"
#include "hr-gguf.h"
#include "hr-hf-config.h"
#include "hr-runtime.h"

G_BEGIN_DECLS

/* The key-value part of a GGUF header, counted as it is written, and its
 * tensor infos. */
typedef struct {
  GgufWriter *kv;        /* the key-value pairs, written */
  guint       n;         /* how many pairs, general.architecture included */
  const char *arch;      /* the prefix of put_*()'s keys (not owned) */
  GgufWriter *tensors;   /* the tensor infos, written */
  guint       n_tensors; /* how many tensor infos */
} Header;

/* A config.json under tests/fixtures/configs/ (@name, the file name; read
 * from $HEADROOM_SOURCE_DIR), parsed. Returns: (transfer full). */
HrHfConfig  *load_config            (const char          *name);
/* The fixture @fixture mapped as `headroom-cli hub` maps it (named after
 * the fixture). Returns: (transfer full). */
HrModelSpec *hub_spec               (const char          *fixture);
/* A config.json given inline as @json, mapped (named "inline").
 * Returns: (transfer full). */
HrModelSpec *inline_spec            (const char          *json);

/* Starts @h with general.architecture = @arch (not copied: it must outlive
 * @h). gguf_spec() consumes what it wrote. */
void         header_init            (Header              *h,
                                     const char          *arch);
/* Adds the u32 key "{arch}.@suffix" = @v. */
void         put_u32                (Header              *h,
                                     const char          *suffix,
                                     guint32              v);
/* Adds the u32 array "{arch}.@suffix" of @n values. */
void         put_u32_array          (Header              *h,
                                     const char          *suffix,
                                     const guint32       *v,
                                     guint                n);
/* Adds the bool array "{arch}.@suffix" of @n values (0 or 1). */
void         put_bool_array         (Header              *h,
                                     const char          *suffix,
                                     const guint8        *v,
                                     guint                n);
/* Adds one F32 tensor's info, @n_dims dimensions @dims (elements); its
 * data is never read. */
void         put_tensor             (Header              *h,
                                     const char          *name,
                                     guint32              n_dims,
                                     const guint64       *dims);
/* The common keys of TextModel.set_gguf_parameters (llama.cpp
 * conversion/base.py): block_count, context_length, embedding_length,
 * feed_forward_length, attention.head_count, attention.head_count_kv (left
 * out when @kv_heads is 0) and vocab_size. */
void         put_text_model         (Header              *h,
                                     guint32              layers,
                                     guint32              ctx,
                                     guint32              embd,
                                     guint32              ff,
                                     guint32              heads,
                                     guint32              kv_heads,
                                     guint32              vocab);
/* Writes @h (GGUF version 3) to a temporary file, loads it with
 * hr_gguf_file_load() and maps it; consumes @h's writers. Returns:
 * (transfer full) (nullable): NULL with @error set as the mapper sets it
 * when it refuses the header. */
HrModelSpec *gguf_spec              (Header              *h,
                                     GError             **error);

/* Asserts every spec field both paths fill, layer by layer (per-layer
 * sliding only where @gguf has a per-layer list). */
void         assert_same_spec       (const HrModelSpec   *hub,
                                     const HrModelSpec   *gguf);
/* hr_runtime_predict() for @spec at @ctx tokens: Ollama 0.30+, CPU, f16
 * KV cache, one slot, text only; fills @out. */
void         predict                (const HrModelSpec   *spec,
                                     guint32              ctx,
                                     HrRuntimePrediction *out);
/* Gives both specs the same weights (1e9 parameters, 2e9 bytes, bf16,
 * @hub's tied embeddings) and asserts the same KV cells and the same KV,
 * recurrent-state, output and compute terms (bytes) at @ctx tokens. */
void         assert_same_prediction (HrModelSpec         *hub,
                                     HrModelSpec         *gguf,
                                     guint32              ctx);
/* How many of @spec's layers @is holds for. */
guint        count_layers           (const HrModelSpec   *spec,
                                     gboolean           (*is) (const HrModelSpec *, guint));
/* A hybrid family's GGUF side: compares @h's spec with @hub
 * (assert_same_spec(), assert_same_prediction() at @ctx) when the mapper
 * fills the recurrent layers; marks the test incomplete while it refuses
 * the architecture or leaves them out. Consumes @h. */
void         compare_hybrid         (HrModelSpec         *hub,
                                     Header              *h,
                                     guint32              ctx);

G_END_DECLS
