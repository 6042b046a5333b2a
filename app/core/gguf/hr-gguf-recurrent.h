/* hr-gguf-recurrent.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * llama.cpp's recurrent and hybrid architectures, one rule per
 * architecture: which layers keep a recurrent state, which keep an
 * attention KV cache, and how many state values a layer holds
 * (n_embd_r () and n_embd_s ()), read from the same GGUF keys llama.cpp's
 * load_hparams reads. Used by the key mapper (hr-gguf-keys.c) for a GGUF
 * header and for Ollama's /api/show model_info alike. Pure: no I/O.
 */
#pragma once

#include <glib.h>

#include "hr-gguf-keys.h"
#include "hr-model-spec.h"

G_BEGIN_DECLS

/**
 * HrGgufRecurrentKind:
 * @HR_GGUF_RECURRENT_NONE: an attention-only architecture
 * @HR_GGUF_RECURRENT_PURE: llama.cpp's llm_arch_is_recurrent (a
 *   llama_memory_recurrent and no KV cache)
 * @HR_GGUF_RECURRENT_HYBRID: llama.cpp's llm_arch_is_hybrid (a
 *   llama_memory_hybrid: a KV cache for the attention layers and a
 *   recurrent state for the others)
 *
 * What memory llama.cpp (src/llama-arch.cpp, src/llama-model.cpp
 * create_memory) gives an architecture.
 */
typedef enum {
  HR_GGUF_RECURRENT_NONE,
  HR_GGUF_RECURRENT_PURE,
  HR_GGUF_RECURRENT_HYBRID,
} HrGgufRecurrentKind;

HrGgufRecurrentKind hr_gguf_recurrent_kind  (const char       *arch);
gboolean            hr_gguf_recurrent_check (const HrGgufKeys *keys,
                                             GError          **error);
gboolean            hr_gguf_recurrent_map   (const HrGgufKeys *keys,
                                             HrModelSpec      *spec,
                                             GError          **error);

G_END_DECLS
