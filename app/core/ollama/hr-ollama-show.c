/* hr-ollama-show.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-keys.h"
#include "hr-gguf-recurrent.h"
#include "hr-json.h"
#include "hr-memory.h"
#include "hr-ollama-host.h"
#include "hr-ollama-show.h"
#include "hr-precision.h"
#include "hr-units.h"

#define MAX_U32      G_MAXUINT32

typedef struct {
  const char *name;   /* model name, for messages */
  JsonObject *info;   /* model_info */
  const char *arch;
} ShowCtx;


/* model_info as a source of keys for the mapper (hr-gguf-keys.h). */
static void
info_lookup (gconstpointer   source,
             const char     *key,
             HrGgufKeyValue *out)
{
  JsonNode *node = json_object_get_member ((JsonObject *) source, key);

  if (node == NULL)
    return;
  out->handle = node;
  out->type_name = json_node_type_name (node);
  if (JSON_NODE_HOLDS_NULL (node))
    out->kind = HR_GGUF_KEY_HIDDEN;
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint n = json_array_get_length (array);
      JsonNode *first = n > 0 ? json_array_get_element (array, 0) : NULL;

      out->length = n;
      out->kind = HR_GGUF_KEY_ARRAY;
      out->numeric = TRUE;
      out->booleans = first != NULL && JSON_NODE_HOLDS_VALUE (first) &&
                      json_node_get_value_type (first) == G_TYPE_BOOLEAN;
    }
  else
    {
      out->kind = HR_GGUF_KEY_SCALAR;
      out->is_count = hr_json_node_u64 (node, G_MAXUINT64, &out->count);
    }
}

static gboolean
info_element (gconstpointer         source,
              const HrGgufKeyValue *value,
              guint64               index,
              guint64              *out_value)
{
  JsonArray *array = json_node_get_array ((JsonNode *) value->handle);
  JsonNode *element;

  if (index >= json_array_get_length (array))
    return FALSE;
  element = json_array_get_element (array, (guint) index);
  /* A per-layer pattern comes as booleans, as GGUF stores it. */
  if (value->booleans && JSON_NODE_HOLDS_VALUE (element) &&
      json_node_get_value_type (element) == G_TYPE_BOOLEAN)
    {
      *out_value = json_node_get_boolean (element) ? 1 : 0;
      return TRUE;
    }
  return hr_json_node_u64 (element, G_MAXUINT64, out_value);
}

static const HrGgufKeySourceFuncs info_keys = { info_lookup, info_element };

static guint32
array_max (GArray *values)
{
  guint32 max = 0;

  for (guint i = 0; values != NULL && i < values->len; i++)
    max = MAX (max, g_array_index (values, guint32, i));
  return max;
}

/* The tensors whose type this version does not know: left out of the
 * list (their bytes are unknown, never 0), counted and named. */
typedef struct {
  guint  count;
  char  *first_type;   /* the first unknown type's name */
  char  *first_tensor; /* the first tensor of an unknown type */
} Unknown;

static gboolean
parse_tensors (const ShowCtx *ctx,
               JsonArray     *array,
               GPtrArray    **out_tensors,
               Unknown       *unknown,
               GError       **error)
{
  g_autoptr(GPtrArray) tensors = NULL;
  guint n = json_array_get_length (array);

  if (n > HR_GGUF_MAX_TENSOR_COUNT)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("/api/show for %s lists %u tensors, more than the %u Headroom accepts"),
                   ctx->name, n, (guint) HR_GGUF_MAX_TENSOR_COUNT);
      return FALSE;
    }

  tensors = g_ptr_array_new_full (n, (GDestroyNotify) hr_tensor_info_free);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *obj;
      JsonNode *shape_node;
      JsonArray *shape;
      const char *name;
      const char *type_name;
      const HrGgmlTypeInfo *type;
      guint64 dims[4];
      guint n_dims;
      HrTensorInfo *info;
      g_autoptr(GError) local = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        goto bad;
      obj = json_node_get_object (node);
      name = hr_json_string (obj, "name");
      type_name = hr_json_string (obj, "type");
      shape_node = json_object_get_member (obj, "shape");
      if (name == NULL || type_name == NULL || shape_node == NULL || !JSON_NODE_HOLDS_ARRAY (shape_node))
        goto bad;
      shape = json_node_get_array (shape_node);
      n_dims = json_array_get_length (shape);
      if (n_dims < 1 || n_dims > 4)
        goto bad;
      for (guint d = 0; d < n_dims; d++)
        if (!hr_json_node_u64 (json_array_get_element (shape, d), G_MAXUINT64, &dims[d]) || dims[d] == 0)
          goto bad;

      type = hr_ggml_type_info_by_name (type_name);
      if (type == NULL)
        {
          if (unknown->count++ == 0)
            {
              unknown->first_type = g_strdup (type_name);
              unknown->first_tensor = g_strdup (name);
            }
          continue;
        }
      info = hr_tensor_info_new (name, type->type, n_dims, dims, &local);
      if (info == NULL)
        {
          g_set_error (error, local->domain, local->code,
                       _("/api/show for %s: tensor \"%s\": %s"), ctx->name, name, local->message);
          return FALSE;
        }
      g_ptr_array_add (tensors, info);
      continue;

    bad:
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("/api/show for %s: tensor %u is not {\"name\", \"type\", \"shape\": [1 to 4 sizes]}"),
                   ctx->name, i);
      return FALSE;
    }

  *out_tensors = g_steal_pointer (&tensors);
  return TRUE;
}

static const HrTensorInfo *
find_tensor (GPtrArray  *tensors,
             const char *name)
{
  for (guint i = 0; tensors != NULL && i < tensors->len; i++)
    {
      const HrTensorInfo *info = g_ptr_array_index (tensors, i);
      if (g_str_equal (info->name, name))
        return info;
    }
  return NULL;
}

/* Per-layer KV heads from the key projections' shapes when /api/show hid
 * the head_count_kv array: blk.N.attn_k.weight is [embedding, kv_heads x
 * key_length]; a layer without one has no attention (0). */
static GArray *
kv_heads_from_tensors (GPtrArray *tensors,
                       guint32    layers,
                       guint32    key_length)
{
  g_autoptr(GArray) values = g_array_sized_new (FALSE, TRUE, sizeof (guint32), layers);
  gboolean any = FALSE;

  for (guint32 i = 0; i < layers; i++)
    {
      g_autofree char *name = g_strdup_printf ("blk.%u.attn_k.weight", i);
      const HrTensorInfo *info = find_tensor (tensors, name);
      guint32 heads = 0;

      if (info != NULL && info->n_dims >= 2 && key_length > 0)
        {
          if (info->dims[1] % key_length != 0 || info->dims[1] / key_length > MAX_U32)
            return NULL;
          heads = (guint32) (info->dims[1] / key_length);
          any = TRUE;
        }
      g_array_append_val (values, heads);
    }
  return any ? g_steal_pointer (&values) : NULL;
}

/* Parameters, file type and quantization, and the details. */
static gboolean
map_parameters_and_type (HrOllamaShow     *show,
                         const HrGgufKeys *keys,
                         JsonObject       *obj,
                         GError          **error)
{
  HrModelSpec *spec = show->spec;
  JsonObject *details = hr_json_object (obj, "details");
  guint32 file_type = 0;
  gboolean found;

  if (!hr_gguf_keys_get_u64 (keys, "general.parameter_count", &spec->parameters, &found, error))
    return FALSE;
  if (found)
    hr_model_spec_set_source (spec, HR_SPEC_FIELD_PARAMETERS,
                              "Ollama /api/show model_info general.parameter_count");

  if (!hr_gguf_keys_get_u32 (keys, "general.file_type", &file_type, &found, error))
    return FALSE;
  if (found)
    {
      show->has_file_type = TRUE;
      show->file_type = file_type;
      show->quantization = g_strdup (hr_ggml_file_type_label (file_type));
    }
  if (details != NULL)
    {
      const char *level = hr_json_string (details, "quantization_level");

      if (show->quantization == NULL && level != NULL && *level != '\0')
        show->quantization = g_strdup (level);
      show->family = g_strdup (hr_json_string (details, "family"));
      show->parameter_size = g_strdup (hr_json_string (details, "parameter_size"));
    }
  if (show->quantization != NULL)
    {
      spec->precision = g_strdup (hr_gguf_keys_precision_id (show->quantization));
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_PRECISION,
                                show->has_file_type ? "Ollama /api/show model_info general.file_type"
                                                    : "Ollama /api/show details.quantization_level");
    }
  return TRUE;
}

/* The tensor list: exact weight bytes, bits per weight, tied embeddings. */
static gboolean
map_tensors (HrOllamaShow  *show,
             const ShowCtx *ctx,
             JsonObject    *obj,
             GError       **error)
{
  HrModelSpec *spec = show->spec;
  JsonNode *node = json_object_get_member (obj, "tensors");
  GPtrArray *tensors = NULL;
  Unknown unknown = { 0 };

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("/api/show for %s: \"tensors\" is not a list"), ctx->name);
      return FALSE;
    }
  if (!parse_tensors (ctx, json_node_get_array (node), &tensors, &unknown, error))
    {
      g_free (unknown.first_type);
      g_free (unknown.first_tensor);
      return FALSE;
    }
  show->n_unknown_tensors = unknown.count;
  show->unknown_type = unknown.first_type;
  g_free (unknown.first_tensor);
  spec->unknown_tensors = unknown.count;
  hr_model_spec_take_tensors (spec, tensors);
  show->n_tensors = tensors->len;
  show->weight_bytes = hr_model_spec_tensor_bytes (spec);
  if (show->weight_bytes == G_MAXUINT64)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                   _("/api/show for %s: the tensors add up to more than 2^64 bytes"), ctx->name);
      return FALSE;
    }
  if (show->weight_bytes > 0 && unknown.count == 0)
    {
      spec->file_bytes = show->weight_bytes;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_FILE_BYTES,
                                "Ollama /api/show tensors (exact ggml bytes of every tensor; the GGUF blob adds its header)");
    }
  else if (show->weight_bytes > 0)
    {
      g_autofree char *source = g_strdup_printf ("Ollama /api/show tensors, a lower bound: %u of type \"%s\" "
                                                 "(this version does not know it) are not counted",
                                                 unknown.count, show->unknown_type);

      spec->file_bytes = show->weight_bytes;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_FILE_BYTES, source);
    }
  if (spec->parameters > 0 && show->weight_bytes > 0 && unknown.count == 0)
    show->bits_per_weight = hr_memory_effective_bits (show->weight_bytes, spec->parameters);
  show->tied_embeddings = hr_gguf_keys_tied_embeddings (tensors);
  spec->tied_embeddings = show->tied_embeddings;
  return TRUE;
}

/* The strings of an array member ("capabilities"), others skipped. */
static GStrv
strings_of (JsonObject *obj,
            const char *member)
{
  JsonArray *array = hr_json_array (obj, member);
  g_autoptr(GStrvBuilder) builder = NULL;

  if (array == NULL)
    return NULL;
  builder = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (item));
    }
  return g_strv_builder_end (builder);
}

/**
 * hr_ollama_show_parse:
 * @root: the JSON answer of `POST /api/show` (without `verbose`)
 * @name: the model name asked for ("llama3.2:3b"); the spec's name
 * @error: return location for a #GError
 *
 * Maps /api/show to a model spec (docs/ollama.md, "/api/show"):
 * parameters from `general.parameter_count`; the architecture keys of
 * `model_info` (layers, heads, KV heads, key and value lengths, context,
 * sliding window and its layers, vocabulary, experts) through the one GGUF
 * key mapper, hr_gguf_keys_map(), as for a GGUF file; a head_count_kv
 * array hidden as `null` without `verbose` is recovered from the
 * `blk.N.attn_k.weight` shapes (kv heads = shape[1] / key length); the
 * file type from `general.file_type` (llama.cpp's llama_ftype numbering,
 * labelled by hr_ggml_file_type_label(), else
 * `details.quantization_level`, as a precision by
 * hr_gguf_keys_precision_id()). The tensor list gives exact weight bytes
 * (hr_ggml_tensor_bytes() per tensor, summed) and the effective bits per
 * weight (weight bytes x 8 / parameters); the model is tied when it has
 * `token_embd.weight` and no `output.weight`. A tensor of a type this
 * version does not know (a newer ggml type) keeps the rest: it is left out
 * of the list and counted in @n_unknown_tensors (the first type named in
 * @unknown_type, the spec's unknown_tensors set), so the weight bytes are a
 * lower bound (the file size's source says so, and the runtime prediction
 * notes it) and no bits per weight are given. Every value is type-checked:
 * whole numbers may arrive as doubles; a mistyped value is an error, a
 * missing one is left 0 (unknown).
 *
 * Returns: (transfer full): the parsed answer, or %NULL with
 *   %HR_CORE_ERROR_INVALID_DATA (not an object, no model_info or
 *   architecture, a mistyped value, a per-layer array not of one count per
 *   layer, a malformed tensor), %HR_CORE_ERROR_UNSUPPORTED (a recurrent
 *   architecture), %HR_CORE_ERROR_LIMIT (more than
 *   %HR_MODEL_SPEC_MAX_LAYERS layers, too many tensors) or
 *   %HR_CORE_ERROR_OVERFLOW.
 */
HrOllamaShow *
hr_ollama_show_parse (JsonNode    *root,
                      const char  *name,
                      GError     **error)
{
  g_autoptr(HrOllamaShow) show = g_new0 (HrOllamaShow, 1);
  ShowCtx ctx = { .name = name };
  JsonObject *obj;
  JsonNode *node;
  HrModelSpec *spec;
  HrGgufKeys keys = { HR_GGUF_KEYS_FROM_OLLAMA_SHOW, name, NULL, &info_keys, NULL };
  gboolean kv_hidden = FALSE;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("/api/show for %s is not a JSON object"), name);
      return NULL;
    }
  obj = json_node_get_object (root);
  node = json_object_get_member (obj, "model_info");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("/api/show for %s has no model_info; the server may be older than Headroom supports"),
                   name);
      return NULL;
    }
  ctx.info = json_node_get_object (node);
  ctx.arch = hr_json_string (ctx.info, "general.architecture");
  if (ctx.arch == NULL || *ctx.arch == '\0')
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("/api/show for %s: model_info \"general.architecture\" is missing"), name);
      return NULL;
    }
  keys.arch = ctx.arch;
  keys.source = ctx.info;

  show->spec = spec = hr_model_spec_new (name);
  spec->architecture = g_strdup (ctx.arch);
  spec->origin = g_strdup_printf ("ollama:%s", name);

  if (!map_parameters_and_type (show, &keys, obj, error) ||
      !hr_gguf_keys_map (&keys, spec, &kv_hidden, error))
    return NULL;
  {
    g_autofree char *pooling = g_strdup_printf ("%s.pooling_type", ctx.arch);
    show->embedding_model = json_object_has_member (ctx.info, pooling);
  }

  if (!map_tensors (show, &ctx, obj, error))
    return NULL;

  /* KV heads hidden (null) without verbose: recovered from the tensors. */
  if (kv_hidden && spec->tensors != NULL)
    {
      GArray *derived = kv_heads_from_tensors (spec->tensors, spec->layers, spec->key_length);

      if (derived != NULL)
        {
          spec->kv_heads = array_max (derived);
          spec->layer_kv_heads = derived;
          hr_model_spec_set_source (spec, HR_SPEC_FIELD_KV_HEADS,
                                    "blk.N.attn_k.weight shapes / key_length (Ollama /api/show hides the head_count_kv array without verbose)");
        }
    }
  /* The recurrent and hybrid layers need the per-layer KV heads
   * (hr_gguf_keys_map() leaves them to here when they were withheld). */
  if (kv_hidden && !hr_gguf_recurrent_map (&keys, spec, error))
    return NULL;

  show->capabilities = strings_of (obj, "capabilities");
  return g_steal_pointer (&show);
}

/**
 * hr_ollama_show_free:
 * @show: (nullable): a parsed answer
 *
 * Frees @show and its spec.
 */
void
hr_ollama_show_free (HrOllamaShow *show)
{
  if (show == NULL)
    return;
  g_clear_pointer (&show->spec, hr_model_spec_free);
  g_free (show->quantization);
  g_free (show->family);
  g_free (show->parameter_size);
  g_free (show->unknown_type);
  g_strfreev (show->capabilities);
  g_free (show);
}
