/* hr-ollama-show.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ollama's /api/show answer turned into a model spec (docs/ollama.md,
 * "/api/show"): parameters, layers, heads, KV heads, key and
 * value lengths, context limit, sliding window, file type and quantization,
 * and the tensor list as exact weight bytes. Pure: no I/O.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "hr-model-spec.h"

G_BEGIN_DECLS

typedef struct {
  HrModelSpec *spec;            /* the model spec (owned) */
  gboolean     has_file_type;   /* general.file_type was present */
  guint32      file_type;       /* llama.cpp's llama_ftype number */
  char        *quantization;    /* "Q4_K_M" (file_type label, else details.quantization_level) */
  char        *family;          /* details.family, or NULL */
  char        *parameter_size;  /* details.parameter_size ("3.2B"), or NULL */
  guint64      weight_bytes;    /* sum of the tensors' exact bytes (0 = no tensor list);
                                 * a lower bound when n_unknown_tensors > 0 */
  guint        n_tensors;       /* tensors in the list (of a type this version knows) */
  double       bits_per_weight; /* weight_bytes x 8 / parameters (0 = unknown) */
  gboolean     tied_embeddings; /* token_embd.weight and no output.weight */
  gboolean     embedding_model; /* ARCH.pooling_type present: an embedding model */
  GStrv        capabilities;    /* "completion", "tools", ... or NULL */
  /* A tensor type this version does not know. */
  guint        n_unknown_tensors; /* tensors of an unknown type: not in the list, size unknown */
  char        *unknown_type;      /* the first such type's name ("Q9_Z"), or NULL */
} HrOllamaShow;

HrOllamaShow *hr_ollama_show_parse (JsonNode     *root,
                                    const char   *name,
                                    GError      **error);
void          hr_ollama_show_free  (HrOllamaShow *show);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrOllamaShow, hr_ollama_show_free)

G_END_DECLS
