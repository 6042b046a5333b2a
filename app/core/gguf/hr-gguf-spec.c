/* hr-gguf-spec.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GGUF header mapped onto a model spec, through the one key mapper
 * (hr-gguf-keys.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-keys.h"
#include "hr-gguf-private.h"
#include "hr-mmproj.h"
#include "hr-precision.h"
#include "hr-units.h"

/* The header as a source of keys for the mapper (hr-gguf-keys.h). */
static void
file_lookup (gconstpointer   source,
             const char     *key,
             HrGgufKeyValue *out)
{
  const HrGgufValue *value = hr_gguf_file_lookup (source, key);

  if (value == NULL)
    return;
  out->handle = value;
  out->type_name = hr_gguf_type_to_string (value->type);
  if (value->type == HR_GGUF_TYPE_ARRAY)
    {
      out->kind = HR_GGUF_KEY_ARRAY;
      out->length = value->length;
      out->numeric = hr_gguf_type_sizes[value->array_type] != 0;
      out->booleans = value->array_type == HR_GGUF_TYPE_BOOL;
      out->type_name = hr_gguf_type_to_string (value->array_type);
      return;
    }
  out->kind = HR_GGUF_KEY_SCALAR;
  out->is_count = value->type != HR_GGUF_TYPE_BOOL &&
                  hr_gguf_value_get_uint64 (value, &out->count);
}

static gboolean
file_element (gconstpointer         source,
              const HrGgufKeyValue *value,
              guint64               index,
              guint64              *out_value)
{
  return hr_gguf_value_get_array_uint64 (value->handle, index, out_value);
}

static const HrGgufKeySourceFuncs file_keys = { file_lookup, file_element };

static void
map_file_type (const HrGgufFile *file,
               HrModelSpec      *spec)
{
  guint64 file_type;
  const char *label;
  g_autofree char *source = NULL;

  if (!hr_gguf_file_get_uint (file, "general.file_type", &file_type) || file_type > G_MAXUINT32)
    return;
  label = hr_ggml_file_type_label ((guint32) file_type);
  if (label == NULL)
    return;
  source = g_strdup_printf ("GGUF general.file_type = %u", (guint) file_type);
  spec->precision = g_strdup (hr_gguf_keys_precision_id (label));
  hr_model_spec_set_source (spec, HR_SPEC_FIELD_PRECISION, source);
}

/**
 * hr_gguf_file_to_model_spec:
 * @file: a parsed header
 * @name: (nullable): the model's name ("llama3.2:3b"); %NULL takes
 *   `general.name`, else the architecture
 * @origin: (nullable): where the file came from ("gguf:sha256:<hex>",
 *   "gguf:/path/model.gguf")
 * @error: return location for a #GError
 *
 * Maps a GGUF header onto the model spec the memory math reads (the keys
 * of docs/formats.md, "GGUF keys"): layers `{arch}.block_count`; heads
 * `{arch}.attention.head_count`; KV heads `{arch}.attention.head_count_kv`
 * (absent = heads; an array gives #HrModelSpec.layer_kv_heads, 0 for
 * layers without attention, and its largest value); key and value lengths
 * `{arch}.attention.key_length` / `value_length` (absent = embedding
 * length / heads); embedding `{arch}.embedding_length`; native context
 * `{arch}.context_length`; sliding window `{arch}.attention.sliding_window`
 * with #HrModelSpec.layer_sliding from the file's
 * `{arch}.attention.sliding_window_pattern` or llama.cpp's rule for the
 * architecture; vocabulary the length of `tokenizer.ggml.tokens`; experts
 * `{arch}.expert_count` and `expert_used_count` (all of these through
 * hr_gguf_keys_map(), the mapper /api/show shares); tied embeddings when
 * there is no `output.weight` tensor; the precision from
 * `general.file_type` (hr_ggml_file_type_label()); the parameter count
 * summed from the tensor shapes (the spec has no key for it); the file
 * size from hr_gguf_file_get_file_bytes(). Each field's source names the
 * key it came from.
 *
 * Returns: (transfer full) (nullable): the spec, or %NULL with @error set:
 *   %HR_CORE_ERROR_INVALID_DATA when `general.architecture` is missing or
 *   a count key has the wrong type, an impossible value, or a per-layer
 *   array of the wrong length; %HR_CORE_ERROR_LIMIT for more than
 *   %HR_MODEL_SPEC_MAX_LAYERS (4,096) layers.
 */
HrModelSpec *
hr_gguf_file_to_model_spec (const HrGgufFile  *file,
                            const char        *name,
                            const char        *origin,
                            GError           **error)
{
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GPtrArray) tensors = NULL;
  const char *arch = hr_gguf_file_get_string (file, "general.architecture");
  HrGgufKeys keys = { HR_GGUF_KEYS_FROM_FILE, NULL, arch, &file_keys, file };

  if (arch == NULL || *arch == '\0' || !g_utf8_validate (arch, -1, NULL) || strchr (arch, '.') != NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("the GGUF header has no usable general.architecture, so its model keys cannot be found"));
      return NULL;
    }

  if (name == NULL)
    name = hr_gguf_file_get_string (file, "general.name");
  if (name == NULL || !g_utf8_validate (name, -1, NULL))
    name = arch;

  spec = hr_model_spec_new (name);
  keys.model_name = spec->name;
  spec->architecture = g_strdup (arch);
  spec->origin = g_strdup (origin);

  spec->parameters = file->parameters;
  hr_model_spec_set_source (spec, HR_SPEC_FIELD_PARAMETERS, "GGUF tensor shapes (sum of elements)");
  map_file_type (file, spec);
  if (file->file_bytes > 0)
    {
      spec->file_bytes = file->file_bytes;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_FILE_BYTES, "GGUF file size");
    }

  if (!hr_gguf_keys_map (&keys, spec, NULL, error))
    return NULL;

  tensors = g_ptr_array_new_full (file->tensors->len, (GDestroyNotify) hr_tensor_info_free);
  for (guint i = 0; i < file->tensors->len; i++)
    g_ptr_array_add (tensors, hr_tensor_info_copy (g_ptr_array_index (file->tensors, i)));
  spec->tied_embeddings = hr_gguf_keys_tied_embeddings (tensors);
  hr_model_spec_take_tensors (spec, g_steal_pointer (&tensors));
  /* A projector inside the model's own file (gemma3, qwen2.5vl ... as
   * Ollama stores them): its own term, out of the weights. */
  hr_mmproj_take_inline (spec);

  return g_steal_pointer (&spec);
}
