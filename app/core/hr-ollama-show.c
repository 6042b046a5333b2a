/* hr-ollama-show.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-memory.h"
#include "hr-ollama-host.h"
#include "hr-ollama-show.h"
#include "hr-precision.h"
#include "hr-units.h"

/* Caps on what an untrusted answer may claim. */
#define MAX_TENSORS  1000000
#define MAX_LAYERS   4096
#define MAX_U32      G_MAXUINT32

typedef struct {
  const char *name;   /* model name, for messages */
  JsonObject *info;   /* model_info */
  const char *arch;
} ShowCtx;

static gboolean
bad_value (const ShowCtx *ctx,
           const char    *key,
           const char    *expected,
           GError       **error)
{
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
               _("/api/show for %s: model_info \"%s\" is not %s"),
               ctx->name, key, expected);
  return FALSE;
}

#define node_to_u64 hr_ollama_node_u64

typedef enum {
  VALUE_ABSENT,  /* not in model_info */
  VALUE_HIDDEN,  /* null: an array /api/show leaves out without verbose */
  VALUE_SCALAR,
  VALUE_ARRAY,
} ValueKind;

/* Reads ARCH.@suffix (or @suffix itself when @full) as a u32 scalar or, when
 * @array is not NULL, as an array of u32 (one per layer). */
static gboolean
get_u32 (const ShowCtx *ctx,
         const char    *suffix,
         gboolean       full,
         guint32       *out,
         GArray       **array,
         ValueKind     *kind,
         GError       **error)
{
  g_autofree char *key = full ? g_strdup (suffix) : g_strdup_printf ("%s.%s", ctx->arch, suffix);
  JsonNode *node;
  guint64 v;

  *kind = VALUE_ABSENT;
  if (!json_object_has_member (ctx->info, key))
    return TRUE;
  node = json_object_get_member (ctx->info, key);
  if (JSON_NODE_HOLDS_NULL (node))
    {
      *kind = VALUE_HIDDEN;
      return TRUE;
    }
  if (JSON_NODE_HOLDS_ARRAY (node) && array != NULL)
    {
      JsonArray *a = json_node_get_array (node);
      guint n = json_array_get_length (a);
      g_autoptr(GArray) values = NULL;

      if (n == 0 || n > MAX_LAYERS)
        return bad_value (ctx, key, _("an array of one count per layer"), error);
      values = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
      for (guint i = 0; i < n; i++)
        {
          guint32 item;

          if (!node_to_u64 (json_array_get_element (a, i), &v) || v > MAX_U32)
            return bad_value (ctx, key, _("an array of whole numbers"), error);
          item = (guint32) v;
          g_array_append_val (values, item);
        }
      *array = g_steal_pointer (&values);
      *kind = VALUE_ARRAY;
      return TRUE;
    }
  if (!node_to_u64 (node, &v) || v > MAX_U32)
    return bad_value (ctx, key, _("a whole number"), error);
  *out = (guint32) v;
  *kind = VALUE_SCALAR;
  return TRUE;
}

static guint32
array_max (GArray *values)
{
  guint32 max = 0;

  for (guint i = 0; values != NULL && i < values->len; i++)
    max = MAX (max, g_array_index (values, guint32, i));
  return max;
}

static void
set_source (HrModelSpec *spec,
            HrSpecField  field,
            const char  *arch,
            const char  *suffix)
{
  g_autofree char *source = g_strdup_printf ("Ollama /api/show model_info %s%s%s",
                                             arch != NULL ? arch : "",
                                             arch != NULL ? "." : "", suffix);
  hr_model_spec_set_source (spec, field, source);
}

static gboolean
parse_tensors (const ShowCtx *ctx,
               JsonArray     *array,
               GPtrArray    **out_tensors,
               GError       **error)
{
  g_autoptr(GPtrArray) tensors = NULL;
  guint n = json_array_get_length (array);

  if (n > MAX_TENSORS)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("/api/show for %s lists %u tensors, more than the %u Headroom accepts"),
                   ctx->name, n, MAX_TENSORS);
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
      name = hr_ollama_json_string (obj, "name");
      type_name = hr_ollama_json_string (obj, "type");
      shape_node = json_object_get_member (obj, "shape");
      if (name == NULL || type_name == NULL || shape_node == NULL || !JSON_NODE_HOLDS_ARRAY (shape_node))
        goto bad;
      shape = json_node_get_array (shape_node);
      n_dims = json_array_get_length (shape);
      if (n_dims < 1 || n_dims > 4)
        goto bad;
      for (guint d = 0; d < n_dims; d++)
        if (!node_to_u64 (json_array_get_element (shape, d), &dims[d]) || dims[d] == 0)
          goto bad;

      type = hr_ggml_type_info_by_name (type_name);
      if (type == NULL)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                       _("/api/show for %s: tensor \"%s\" has type \"%s\", which Headroom does not know"),
                       ctx->name, name, type_name);
          return FALSE;
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

/**
 * hr_ollama_show_parse:
 * @root: the JSON answer of `POST /api/show` (without `verbose`)
 * @name: the model name asked for ("llama3.2:3b"); the spec's name
 * @error: return location for a #GError
 *
 * Maps /api/show to a model spec (ollama-api.md, "/api/show"):
 * parameters from `general.parameter_count`; layers from
 * `ARCH.block_count`; heads and KV heads from `ARCH.attention.head_count` and
 * `.head_count_kv` (a scalar, or a per-layer array; an array hidden as
 * `null` without `verbose` is recovered from the `blk.N.attn_k.weight`
 * shapes, kv heads = shape[1] / key length); key and value lengths from
 * `ARCH.attention.key_length` / `.value_length`, defaulting to
 * embedding_length / head_count; context limit from `ARCH.context_length`;
 * sliding window from `ARCH.attention.sliding_window`; the file type from
 * `general.file_type` (llama.cpp's llama_ftype numbering, labelled by
 * hr_ggml_file_type_label(), else `details.quantization_level`).
 * The tensor list gives exact weight bytes (hr_ggml_tensor_bytes() per
 * tensor, summed) and the effective bits per weight (weight bytes x 8 /
 * parameters); the model is tied when it has `token_embd.weight` and no
 * `output.weight`. Every value is type-checked: whole numbers may arrive as
 * doubles; a mistyped value is an error, a missing one is left 0 (unknown).
 *
 * Returns: (transfer full): the parsed answer, or %NULL with
 *   %HR_CORE_ERROR_INVALID_DATA (not an object, no model_info or
 *   architecture, a mistyped value, a malformed tensor),
 *   %HR_CORE_ERROR_UNSUPPORTED (a tensor type Headroom does not know),
 *   %HR_CORE_ERROR_LIMIT (too many tensors) or %HR_CORE_ERROR_OVERFLOW.
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
  guint32 v32 = 0;
  ValueKind kind;
  g_autoptr(GArray) heads_array = NULL;
  g_autoptr(GArray) kv_array = NULL;
  ValueKind heads_kind, kv_kind;
  guint32 heads = 0, kv_heads = 0;
  guint64 parameters = 0;

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
  ctx.arch = hr_ollama_json_string (ctx.info, "general.architecture");
  if (ctx.arch == NULL || *ctx.arch == '\0')
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("/api/show for %s: model_info \"general.architecture\" is missing"), name);
      return NULL;
    }

  show->spec = spec = hr_model_spec_new (name);
  spec->architecture = g_strdup (ctx.arch);
  spec->origin = g_strdup_printf ("ollama:%s", name);

  /* Parameters. */
  if (json_object_has_member (ctx.info, "general.parameter_count"))
    {
      if (!node_to_u64 (json_object_get_member (ctx.info, "general.parameter_count"), &parameters))
        {
          bad_value (&ctx, "general.parameter_count", _("a whole number"), error);
          return NULL;
        }
      spec->parameters = parameters;
      set_source (spec, HR_SPEC_FIELD_PARAMETERS, NULL, "general.parameter_count");
    }

  /* File type and quantization. */
  if (!get_u32 (&ctx, "general.file_type", TRUE, &v32, NULL, &kind, error))
    return NULL;
  if (kind == VALUE_SCALAR)
    {
      const char *label = hr_ggml_file_type_label (v32);

      show->has_file_type = TRUE;
      show->file_type = v32;
      if (label != NULL)
        show->quantization = g_strdup (label);
    }
  node = json_object_get_member (obj, "details");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *details = json_node_get_object (node);
      const char *level = hr_ollama_json_string (details, "quantization_level");

      if (show->quantization == NULL && level != NULL && *level != '\0')
        show->quantization = g_strdup (level);
      show->family = g_strdup (hr_ollama_json_string (details, "family"));
      show->parameter_size = g_strdup (hr_ollama_json_string (details, "parameter_size"));
    }
  if (show->quantization != NULL)
    {
      const HrPrecision *precision = hr_precision_lookup (show->quantization);

      if (precision == NULL && g_ascii_strcasecmp (show->quantization, "F32") == 0)
        precision = hr_precision_lookup ("fp32");
      spec->precision = g_strdup (precision != NULL ? precision->id : show->quantization);
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_PRECISION,
                                show->has_file_type ? "Ollama /api/show model_info general.file_type"
                                                    : "Ollama /api/show details.quantization_level");
    }

  /* Shape of the network. */
  if (!get_u32 (&ctx, "block_count", FALSE, &spec->layers, NULL, &kind, error))
    return NULL;
  if (kind == VALUE_SCALAR)
    set_source (spec, HR_SPEC_FIELD_LAYERS, ctx.arch, "block_count");
  if (spec->layers > MAX_LAYERS)
    {
      bad_value (&ctx, "block_count", _("a layer count Headroom accepts (at most 4096)"), error);
      return NULL;
    }

  if (!get_u32 (&ctx, "embedding_length", FALSE, &spec->embedding_length, NULL, &kind, error))
    return NULL;
  if (kind == VALUE_SCALAR)
    set_source (spec, HR_SPEC_FIELD_EMBEDDING_LENGTH, ctx.arch, "embedding_length");

  if (!get_u32 (&ctx, "attention.head_count", FALSE, &heads, &heads_array, &heads_kind, error) ||
      !get_u32 (&ctx, "attention.head_count_kv", FALSE, &kv_heads, &kv_array, &kv_kind, error))
    return NULL;
  if (heads_kind == VALUE_ARRAY)
    heads = array_max (heads_array);
  if (heads_kind == VALUE_SCALAR || heads_kind == VALUE_ARRAY)
    {
      spec->heads = heads;
      set_source (spec, HR_SPEC_FIELD_HEADS, ctx.arch, "attention.head_count");
    }

  if (!get_u32 (&ctx, "attention.key_length", FALSE, &spec->key_length, NULL, &kind, error))
    return NULL;
  if (kind == VALUE_SCALAR)
    set_source (spec, HR_SPEC_FIELD_KEY_LENGTH, ctx.arch, "attention.key_length");
  else if (spec->heads > 0 && spec->embedding_length > 0)
    {
      spec->key_length = spec->embedding_length / spec->heads;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_KEY_LENGTH,
                                "embedding_length / head_count (Ollama /api/show has no key_length)");
    }
  if (!get_u32 (&ctx, "attention.value_length", FALSE, &spec->value_length, NULL, &kind, error))
    return NULL;
  if (kind == VALUE_SCALAR)
    set_source (spec, HR_SPEC_FIELD_VALUE_LENGTH, ctx.arch, "attention.value_length");
  else if (spec->heads > 0 && spec->embedding_length > 0)
    {
      spec->value_length = spec->embedding_length / spec->heads;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_VALUE_LENGTH,
                                "embedding_length / head_count (Ollama /api/show has no value_length)");
    }

  if (!get_u32 (&ctx, "context_length", FALSE, &spec->context_length, NULL, &kind, error))
    return NULL;
  if (kind == VALUE_SCALAR)
    set_source (spec, HR_SPEC_FIELD_CONTEXT_LENGTH, ctx.arch, "context_length");
  if (!get_u32 (&ctx, "attention.sliding_window", FALSE, &spec->sliding_window, NULL, &kind, error))
    return NULL;
  if (kind == VALUE_SCALAR)
    set_source (spec, HR_SPEC_FIELD_SLIDING_WINDOW, ctx.arch, "attention.sliding_window");
  if (!get_u32 (&ctx, "vocab_size", FALSE, &spec->vocab_size, NULL, &kind, error) ||
      !get_u32 (&ctx, "expert_count", FALSE, &spec->expert_count, NULL, &kind, error) ||
      !get_u32 (&ctx, "expert_used_count", FALSE, &spec->expert_used_count, NULL, &kind, error))
    return NULL;
  {
    g_autofree char *pooling = g_strdup_printf ("%s.pooling_type", ctx.arch);
    show->embedding_model = json_object_has_member (ctx.info, pooling);
  }

  /* Tensors. */
  node = json_object_get_member (obj, "tensors");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      GPtrArray *tensors = NULL;

      if (!parse_tensors (&ctx, json_node_get_array (node), &tensors, error))
        return NULL;
      hr_model_spec_take_tensors (spec, tensors);
      show->n_tensors = tensors->len;
      show->weight_bytes = hr_model_spec_tensor_bytes (spec);
      if (show->weight_bytes == G_MAXUINT64)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                       _("/api/show for %s: the tensors add up to more than 2^64 bytes"), name);
          return NULL;
        }
      if (show->weight_bytes > 0)
        {
          spec->file_bytes = show->weight_bytes;
          hr_model_spec_set_source (spec, HR_SPEC_FIELD_FILE_BYTES,
                                    "Ollama /api/show tensors (exact ggml bytes of every tensor; the GGUF blob adds its header)");
        }
      if (spec->parameters > 0 && show->weight_bytes > 0)
        show->bits_per_weight = hr_memory_effective_bits (show->weight_bytes, spec->parameters);
      show->tied_embeddings = find_tensor (tensors, "token_embd.weight") != NULL &&
                              find_tensor (tensors, "output.weight") == NULL;
      spec->tied_embeddings = show->tied_embeddings;
    }
  else if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("/api/show for %s: \"tensors\" is not a list"), name);
      return NULL;
    }

  /* KV heads: scalar, per-layer array, or hidden (null) and recovered. */
  if (kv_kind == VALUE_SCALAR)
    {
      spec->kv_heads = kv_heads;
      set_source (spec, HR_SPEC_FIELD_KV_HEADS, ctx.arch, "attention.head_count_kv");
    }
  else if (kv_kind == VALUE_ARRAY)
    {
      spec->kv_heads = array_max (kv_array);
      spec->layer_kv_heads = g_steal_pointer (&kv_array);
      set_source (spec, HR_SPEC_FIELD_KV_HEADS, ctx.arch, "attention.head_count_kv (per layer)");
    }
  else if (kv_kind == VALUE_HIDDEN && spec->tensors != NULL)
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
  else if (kv_kind == VALUE_ABSENT && spec->heads > 0)
    {
      /* GGUF's rule: without head_count_kv, every head has its own K and V. */
      spec->kv_heads = spec->heads;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_KV_HEADS,
                                "attention.head_count (no head_count_kv: one KV head per head)");
    }

  node = json_object_get_member (obj, "capabilities");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *caps = json_node_get_array (node);
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

      for (guint i = 0; i < json_array_get_length (caps); i++)
        {
          JsonNode *item = json_array_get_element (caps, i);
          if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING)
            g_strv_builder_add (builder, json_node_get_string (item));
        }
      show->capabilities = g_strv_builder_end (builder);
    }

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
  g_strfreev (show->capabilities);
  g_free (show);
}
