/* hr-memory.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The memory math (docs/seed-figures.md, "Weights" and "KV cache"):
 *   weights  = parameters x bits / 8          (the exact file size wins when known)
 *   KV cache = layers x KV heads x (key dim + value dim) x element bytes
 *              x context tokens x parallel slots
 *            = 2 x layers x KV heads x head dim x ... when key dim == value dim
 *   footprint = weights + KV cache + overhead (0 until a runtime model fills it)
 */
#pragma once

#include <glib.h>
#include "hr-model-spec.h"
#include "hr-precision.h"

G_BEGIN_DECLS

/* KV cache element types; sizes from ggml's block layouts: f16 2 bytes per
 * element, q8_0 34 bytes per 32 elements, q4_0 18 bytes per 32. The nicks
 * are the values of Ollama's OLLAMA_KV_CACHE_TYPE (and of the settings
 * enum io.github.headroom.Headroom.KvCacheType); the GType,
 * HR_TYPE_KV_CACHE_TYPE, is registered by app/gui (hr-gui-enums.h). */
typedef enum {
  HR_KV_CACHE_F16,  /*< nick=f16 >*/
  HR_KV_CACHE_Q8_0, /*< nick=q8_0 >*/
  HR_KV_CACHE_Q4_0, /*< nick=q4_0 >*/
} HrKvCacheType;

typedef struct {
  guint64 weights;   /* bytes */
  guint64 kv_cache;  /* bytes */
  guint64 overhead;  /* bytes; runtime buffers, 0 unless a runtime model sets it */
  guint64 total;     /* weights + kv_cache + overhead */
} HrFootprint;

const char   *hr_kv_cache_type_to_string   (HrKvCacheType  type);
gboolean      hr_kv_cache_type_from_string (const char    *str,
                                            HrKvCacheType *out_type);
guint64       hr_kv_cache_element_bytes_scaled (HrKvCacheType type,
                                                guint32      *out_per_elements);

guint64  hr_memory_weight_bytes       (guint64             parameters,
                                       double              bits_per_weight);
guint64  hr_memory_spec_weight_bytes  (const HrModelSpec  *spec,
                                       const HrPrecision  *precision);
double   hr_memory_effective_bits     (guint64             file_bytes,
                                       guint64             parameters);
guint64  hr_memory_kv_bytes_per_token (const HrModelSpec  *spec,
                                       HrKvCacheType       type);
guint64  hr_memory_kv_cache_bytes     (const HrModelSpec  *spec,
                                       HrKvCacheType       type,
                                       guint32             context_tokens,
                                       guint32             parallel_slots);
guint64  hr_memory_kv_cache_bytes_for_elements (guint64      elements_per_token,
                                                HrKvCacheType type,
                                                guint32      context_tokens,
                                                guint32      parallel_slots);
void     hr_memory_footprint          (const HrModelSpec  *spec,
                                       const HrPrecision  *precision,
                                       HrKvCacheType       type,
                                       guint32             context_tokens,
                                       guint32             parallel_slots,
                                       guint64             overhead_bytes,
                                       HrFootprint        *out);

G_END_DECLS
