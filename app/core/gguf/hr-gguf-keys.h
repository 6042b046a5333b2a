/* hr-gguf-keys.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one mapping from GGUF metadata keys (`{arch}.block_count`,
 * `{arch}.attention.head_count_kv`, ...) to a model spec, for every place
 * the keys arrive from: a GGUF file's header (hr-gguf-spec.c) and Ollama's
 * /api/show `model_info`, which repeats the header's keys as JSON
 * (hr-ollama-show.c). A source answers lookups by key; the mapper does the
 * type checks, the limits, the defaults and the per-field sources. Pure:
 * no I/O.
 */
#pragma once

#include <glib.h>

#include "hr-gguf.h"
#include "hr-model-spec.h"

G_BEGIN_DECLS

/* The limits are HR_MODEL_SPEC_MAX_LAYERS (hr-model-spec.h) and
 * hr-gguf.h's caps (HR_GGUF_MAX_TENSOR_COUNT, ...), one set for a file
 * and for /api/show. */

/**
 * HrGgufKeysOrigin:
 * @HR_GGUF_KEYS_FROM_FILE: a GGUF file's header; sources read
 *   "GGUF llama.block_count"
 * @HR_GGUF_KEYS_FROM_OLLAMA_SHOW: Ollama's /api/show `model_info`; sources
 *   read "Ollama /api/show model_info llama.block_count", messages start
 *   with "/api/show for MODEL:"
 *
 * Where the keys came from, for the sources and the messages.
 */
typedef enum {
  HR_GGUF_KEYS_FROM_FILE,
  HR_GGUF_KEYS_FROM_OLLAMA_SHOW,
} HrGgufKeysOrigin;

/**
 * HrGgufKeyKind:
 * @HR_GGUF_KEY_ABSENT: no such key
 * @HR_GGUF_KEY_HIDDEN: the key is there but its value is withheld
 *   (/api/show gives `null` for long arrays without `verbose`)
 * @HR_GGUF_KEY_SCALAR: one value
 * @HR_GGUF_KEY_ARRAY: an array
 */
typedef enum {
  HR_GGUF_KEY_ABSENT,
  HR_GGUF_KEY_HIDDEN,
  HR_GGUF_KEY_SCALAR,
  HR_GGUF_KEY_ARRAY,
} HrGgufKeyKind;

/**
 * HrGgufKeyValue:
 * @kind: what the key holds
 * @is_count: %HR_GGUF_KEY_SCALAR: the value is a non-negative whole number
 *   (not a boolean) that fits 64 bits
 * @count: the value, when @is_count
 * @length: %HR_GGUF_KEY_ARRAY: the number of elements
 * @numeric: %HR_GGUF_KEY_ARRAY: the elements may be numbers or booleans
 *   (they are not strings or arrays); each is still checked when read
 * @booleans: %HR_GGUF_KEY_ARRAY: the elements are booleans (a per-layer
 *   pattern, not a per-layer count)
 * @type_name: the value's type, for messages ("STRING", "ARRAY")
 * @handle: the source's own value, passed back to its element function
 *
 * A key's value as a source describes it to the mapper.
 */
typedef struct {
  HrGgufKeyKind kind;
  gboolean      is_count;
  guint64       count;
  guint64       length;
  gboolean      numeric;
  gboolean      booleans;
  const char   *type_name;
  gconstpointer handle;
} HrGgufKeyValue;

/**
 * HrGgufKeySourceFuncs:
 * @lookup: fills @out for @key (zeroed first: absent)
 * @element: reads element @index of an array @value as a non-negative
 *   whole number; %FALSE when it is not one
 *
 * How the mapper reads one kind of source.
 */
typedef struct {
  void     (*lookup)  (gconstpointer         source,
                       const char           *key,
                       HrGgufKeyValue       *out);
  gboolean (*element) (gconstpointer         source,
                       const HrGgufKeyValue *value,
                       guint64               index,
                       guint64              *out_value);
} HrGgufKeySourceFuncs;

/**
 * HrGgufKeys:
 * @origin: where the keys came from
 * @model_name: (nullable): the model's name, for /api/show's messages
 * @arch: the architecture, `general.architecture` ("llama")
 * @funcs: how to read @source
 * @source: the header or the `model_info` object
 *
 * A set of GGUF keys to map.
 */
typedef struct {
  HrGgufKeysOrigin            origin;
  const char                 *model_name;
  const char                 *arch;
  const HrGgufKeySourceFuncs *funcs;
  gconstpointer               source;
} HrGgufKeys;

gboolean     hr_gguf_keys_get_u32        (const HrGgufKeys *keys,
                                          const char       *key,
                                          guint32          *out_value,
                                          gboolean         *out_found,
                                          GError          **error);
gboolean     hr_gguf_keys_get_u64        (const HrGgufKeys *keys,
                                          const char       *key,
                                          guint64          *out_value,
                                          gboolean         *out_found,
                                          GError          **error);
gboolean     hr_gguf_keys_map            (const HrGgufKeys *keys,
                                          HrModelSpec      *spec,
                                          gboolean         *out_kv_heads_hidden,
                                          GError          **error);
gboolean     hr_gguf_keys_arch_is_recurrent (const char     *arch);
const char  *hr_gguf_keys_precision_id   (const char       *label);
gboolean     hr_gguf_keys_tied_embeddings (GPtrArray       *tensors);

G_END_DECLS
