/* hr-safetensors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-json.h"
#include "hr-mmproj.h"
#include "hr-safetensors.h"
#include "hr-units.h"

/* Element sizes in bits (docs/formats.md, "safetensors"). */
static const struct {
  const char *name;
  guint       bits;
} dtype_bits[] = {
  { "BOOL", 8 }, { "U8", 8 }, { "I8", 8 },
  { "F8_E4M3", 8 }, { "F8_E5M2", 8 }, { "F8_E8M0", 8 },
  { "F16", 16 }, { "BF16", 16 }, { "I16", 16 }, { "U16", 16 },
  { "F32", 32 }, { "I32", 32 }, { "U32", 32 },
  { "F64", 64 }, { "I64", 64 }, { "U64", 64 },
  { "F4", 4 }, { "F6_E2M3", 6 }, { "F6_E3M2", 6 },
};

/**
 * hr_safetensors_dtype_bits:
 * @dtype: a safetensors dtype name ("BF16"), case-sensitive as in the format
 *
 * Returns: the bits per stored element (BF16 16, F4 4, F6_E2M3 6 ...), from the
 *   safetensors dtype list in docs/formats.md; 0 for a dtype this table does not know.
 */
guint
hr_safetensors_dtype_bits (const char *dtype)
{
  if (dtype == NULL)
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (dtype_bits); i++)
    if (strcmp (dtype_bits[i].name, dtype) == 0)
      return dtype_bits[i].bits;
  return 0;
}

static void
dtype_free (HrSafetensorsDtype *dtype)
{
  g_free (dtype->dtype);
  g_free (dtype);
}

static HrSafetensorsHeader *
header_new (void)
{
  HrSafetensorsHeader *header = g_new0 (HrSafetensorsHeader, 1);

  header->dtypes = g_ptr_array_new_with_free_func ((GDestroyNotify) dtype_free);
  header->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return header;
}

/**
 * hr_safetensors_header_free:
 * @header: (nullable): a header from hr_safetensors_header_parse()
 *
 * Frees @header and everything it holds.
 */
void
hr_safetensors_header_free (HrSafetensorsHeader *header)
{
  if (header == NULL)
    return;
  g_clear_pointer (&header->dtypes, g_ptr_array_unref);
  g_clear_pointer (&header->metadata, g_hash_table_unref);
  g_free (header);
}

/**
 * hr_safetensors_header_get_dtype:
 * @header: a parsed header
 * @dtype: a dtype name ("BF16")
 *
 * Returns: (nullable) (transfer none): the totals of @dtype in @header, or
 *   %NULL when no tensor has it.
 */
const HrSafetensorsDtype *
hr_safetensors_header_get_dtype (const HrSafetensorsHeader *header,
                                 const char                *dtype)
{
  g_return_val_if_fail (header != NULL, NULL);
  g_return_val_if_fail (dtype != NULL, NULL);

  for (guint i = 0; i < header->dtypes->len; i++)
    {
      const HrSafetensorsDtype *d = g_ptr_array_index (header->dtypes, i);

      if (strcmp (d->dtype, dtype) == 0)
        return d;
    }
  return NULL;
}

static HrSafetensorsDtype *
header_ensure_dtype (HrSafetensorsHeader *header,
                     const char          *dtype)
{
  HrSafetensorsDtype *d = (HrSafetensorsDtype *) hr_safetensors_header_get_dtype (header, dtype);

  if (d == NULL)
    {
      d = g_new0 (HrSafetensorsDtype, 1);
      d->dtype = g_strdup (dtype);
      g_ptr_array_add (header->dtypes, d);
    }
  return d;
}

static gint
compare_dtype (gconstpointer a,
               gconstpointer b)
{
  const HrSafetensorsDtype *da = *(HrSafetensorsDtype * const *) a;
  const HrSafetensorsDtype *db = *(HrSafetensorsDtype * const *) b;

  return strcmp (da->dtype, db->dtype);
}

static gboolean
add_to_dtype (HrSafetensorsHeader *header,
              const char          *dtype,
              guint                tensors,
              guint64              parameters,
              guint64              bytes,
              GError             **error)
{
  HrSafetensorsDtype *d = header_ensure_dtype (header, dtype);

  if (!hr_add_u64 (d->parameters, parameters, &d->parameters) ||
      !hr_add_u64 (d->bytes, bytes, &d->bytes) ||
      !hr_add_u64 (header->parameters, parameters, &header->parameters))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                   _("The safetensors parameter count for %s does not fit 64 bits"), dtype);
      return FALSE;
    }
  d->tensors += tensors;
  return TRUE;
}

/**
 * hr_safetensors_header_length:
 * @data: (array length=length): the first bytes of a safetensors file
 * @length: bytes in @data (at least 8)
 * @out_length: (out): the header length N, in bytes
 * @error: return location for a #GError
 *
 * Reads the 8-byte little-endian header length at the start of a
 * safetensors file and checks it against %HR_SAFETENSORS_MAX_HEADER.
 *
 * Returns: %TRUE on success. Errors: %HR_CORE_ERROR_TRUNCATED when @length is
 *   under 8; %HR_CORE_ERROR_LIMIT when N exceeds 25,000,000 bytes;
 *   %HR_CORE_ERROR_PARSE when N is under 2 (no JSON object fits).
 */
gboolean
hr_safetensors_header_length (const guint8 *data,
                              gsize         length,
                              guint64      *out_length,
                              GError      **error)
{
  guint64 n = 0;

  g_return_val_if_fail (out_length != NULL, FALSE);

  if (data == NULL || length < 8)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED,
                   _("The safetensors file ends before its 8-byte header length"));
      return FALSE;
    }

  for (int i = 7; i >= 0; i--)
    n = (n << 8) | data[i];

  if (n > HR_SAFETENSORS_MAX_HEADER)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("The safetensors header claims %" PRIu64 " bytes, over the 25,000,000-byte limit; the file is damaged or not safetensors"),
                   n);
      return FALSE;
    }
  if (n < 2)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("The safetensors header length is %" PRIu64 " bytes, too short for a JSON object"),
                   n);
      return FALSE;
    }

  *out_length = n;
  return TRUE;
}

typedef struct {
  const char *name;
  guint64     begin;
  guint64     end;
} Span;

static gint
compare_span (gconstpointer a,
              gconstpointer b)
{
  const Span *sa = a;
  const Span *sb = b;

  if (sa->begin != sb->begin)
    return sa->begin < sb->begin ? -1 : 1;
  if (sa->end != sb->end)
    return sa->end < sb->end ? -1 : 1;
  return 0;
}

/* Reads a non-negative integer that fits 64 bits exactly (JSON numbers past
 * 2^53 come as doubles and lose digits; json-glib keeps integers as gint64). */
static gboolean
node_get_u64 (JsonNode *node,
              guint64  *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  if (json_node_get_int (node) < 0)
    return FALSE;
  *out = (guint64) json_node_get_int (node);
  return TRUE;
}

/* Quantization state stored beside packed weights: GPTQ/AWQ (qzeros,
 * scales, g_idx), compressed-tensors (weight_scale, weight_zero_point,
 * weight_g_idx, weight_shape, input_scale, weight_global_scale), mlx
 * (scales, biases), fp8 checkpoints (weight_scale_inv), bitsandbytes
 * (absmax, quant_map, quant_state.*), ModelOpt NVFP4 (weight_scale_2). */
static const char * const aux_suffixes[] = {
  ".qzeros", ".scales", ".g_idx", ".biases", ".weight_scale", ".weight_scale_inv",
  ".weight_scale_2", ".weight_zero_point", ".weight_g_idx", ".weight_shape",
  ".weight_global_scale", ".input_scale", ".input_global_scale", ".absmax",
  ".quant_map", ".nested_absmax", ".nested_quant_map", NULL,
};

/**
 * hr_safetensors_tensor_is_aux:
 * @name: a tensor name ("model.layers.0.self_attn.q_proj.scales")
 *
 * Returns: %TRUE when @name is quantization state (scales, zero points,
 *   group indices, the bitsandbytes quant_state), which is stored and takes
 *   memory but is not a parameter of the model.
 */
gboolean
hr_safetensors_tensor_is_aux (const char *name)
{
  if (name == NULL)
    return FALSE;
  if (strstr (name, ".quant_state.") != NULL)
    return TRUE;
  for (guint i = 0; aux_suffixes[i] != NULL; i++)
    if (g_str_has_suffix (name, aux_suffixes[i]))
      return TRUE;
  return FALSE;
}

/**
 * hr_safetensors_tensor_is_lm_head:
 * @name: a tensor name
 *
 * Returns: %TRUE for an output projection stored on its own
 *   (`lm_head.weight`, or one under a wrapper's prefix such as
 *   `language_model.lm_head.weight`): the embeddings are not tied.
 */
gboolean
hr_safetensors_tensor_is_lm_head (const char *name)
{
  return name != NULL && (strcmp (name, "lm_head.weight") == 0 ||
                          g_str_has_suffix (name, ".lm_head.weight"));
}

/* Integer containers holding several quantized weights each: GPTQ/AWQ
 * `qweight` (I32, 8 int4 values), compressed-tensors `weight_packed` (I32),
 * mlx's quantized `weight` (U32), 4-bit `weight` in U8 (bitsandbytes,
 * ModelOpt NVFP4: 2 values per byte). */
static gboolean
is_packed (const char *name,
           const char *dtype)
{
  if (g_str_has_suffix (name, ".qweight") || g_str_has_suffix (name, ".weight_packed"))
    return strcmp (dtype, "I32") == 0 || strcmp (dtype, "U32") == 0 || strcmp (dtype, "U8") == 0;
  if (g_str_has_suffix (name, ".weight"))
    return strcmp (dtype, "U32") == 0 || strcmp (dtype, "U8") == 0;
  return FALSE;
}

/* The product of the "shape" entries of tensor @name: its element count. */
static gboolean
read_elements (JsonObject  *obj,
               const char  *name,
               guint64     *out_elements,
               GError     **error)
{
  JsonArray *shape = hr_json_array (obj, "shape");
  guint64 elements = 1;

  if (shape == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("Tensor “%s” in the safetensors header has no shape array"), name);
      return FALSE;
    }
  for (guint i = 0; i < json_array_get_length (shape); i++)
    {
      guint64 dim;

      if (!node_get_u64 (json_array_get_element (shape, i), &dim))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("Tensor “%s” in the safetensors header has a shape entry that is not a non-negative integer"),
                       name);
          return FALSE;
        }
      if (!hr_mul_u64 (elements, dim, &elements))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                       _("The shape of tensor “%s” in the safetensors header overflows 64 bits"), name);
          return FALSE;
        }
    }
  *out_elements = elements;
  return TRUE;
}

/* "data_offsets" [begin, end] of tensor @name into @span. */
static gboolean
read_offsets (JsonObject  *obj,
              const char  *name,
              Span        *span,
              GError     **error)
{
  JsonArray *offsets = hr_json_array (obj, "data_offsets");

  if (offsets == NULL || json_array_get_length (offsets) != 2 ||
      !node_get_u64 (json_array_get_element (offsets, 0), &span->begin) ||
      !node_get_u64 (json_array_get_element (offsets, 1), &span->end))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("Tensor “%s” in the safetensors header has no data_offsets [begin, end] of non-negative integers"),
                   name);
      return FALSE;
    }
  if (span->end < span->begin)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("Tensor “%s” in the safetensors header ends (%" PRIu64 ") before it begins (%" PRIu64 ")"),
                   name, span->end, span->begin);
      return FALSE;
    }
  span->name = name;
  return TRUE;
}

/* Checks that @span_bytes is @elements of @dtype; an unknown dtype cannot
 * be checked: its bytes are the span. */
static gboolean
check_span_bytes (const char  *name,
                  const char  *dtype,
                  guint64      elements,
                  guint64      span_bytes,
                  GError     **error)
{
  guint bits = hr_safetensors_dtype_bits (dtype);
  guint64 total_bits, expected;

  if (bits == 0)
    return TRUE;
  if (!hr_mul_u64 (elements, bits, &total_bits))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                   _("The byte size of tensor “%s” in the safetensors header overflows 64 bits"), name);
      return FALSE;
    }
  /* Sub-byte dtypes (F4, F6) pack into whole bytes, rounded up. */
  expected = total_bits / 8 + (total_bits % 8 != 0);
  if (expected != span_bytes)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("Tensor “%s” in the safetensors header has %" PRIu64 " %s elements (%" PRIu64 " bytes) but its data_offsets span %" PRIu64 " bytes"),
                   name, elements, dtype, expected, span_bytes);
      return FALSE;
    }
  return TRUE;
}

/* Adds one checked tensor to @header's sums: the output projection, the
 * vision tower, quantization state, packed containers, its dtype. */
static gboolean
count_tensor (HrSafetensorsHeader *header,
              const char          *name,
              const char          *dtype,
              guint64              elements,
              guint64              span_bytes,
              GError             **error)
{
  if (hr_safetensors_tensor_is_lm_head (name))
    header->has_lm_head = TRUE;
  if (hr_mmproj_safetensors_is_tower (name))
    {
      /* both within the header's sums, which are checked for overflow */
      header->tower_tensors++;
      header->tower_parameters += elements;
      header->tower_bytes += span_bytes;
    }
  if (hr_safetensors_tensor_is_aux (name))
    header->aux_parameters += elements;  /* <= header->parameters: cannot overflow first */
  else if (is_packed (name, dtype))
    {
      guint64 packed;

      if (!hr_mul_u64 (elements, hr_safetensors_dtype_bits (dtype), &packed) ||
          !hr_add_u64 (header->packed_bits, packed, &header->packed_bits))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                       _("The packed size of tensor “%s” in the safetensors header overflows 64 bits"), name);
          return FALSE;
        }
      header->packed_elements += elements;
    }
  return add_to_dtype (header, dtype, 1, elements, span_bytes, error);
}

/* One tensor entry of the header ({"dtype", "shape", "data_offsets"}):
 * checked, counted into @header, its byte span in @span. */
static gboolean
parse_tensor (HrSafetensorsHeader *header,
              const char          *name,
              JsonNode            *node,
              Span                *span,
              GError             **error)
{
  JsonObject *obj;
  const char *dtype;
  guint64 elements;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("Tensor “%s” in the safetensors header is not an object"), name);
      return FALSE;
    }
  obj = json_node_get_object (node);

  dtype = hr_json_string (obj, "dtype");
  if (dtype == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("Tensor “%s” in the safetensors header has no dtype string"), name);
      return FALSE;
    }

  return read_elements (obj, name, &elements, error) &&
         read_offsets (obj, name, span, error) &&
         check_span_bytes (name, dtype, elements, span->end - span->begin, error) &&
         count_tensor (header, name, dtype, elements, span->end - span->begin, error);
}

/* The header's JSON object, after the size, NUL and syntax checks; @parser
 * keeps it. */
static JsonObject *
load_header_object (JsonParser  *parser,
                    const char  *json,
                    gsize        length,
                    GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  if (length > HR_SAFETENSORS_MAX_HEADER)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("The safetensors header is %zu bytes, over the 25,000,000-byte limit"),
                   length);
      return NULL;
    }
  if (json == NULL || length == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("The safetensors header is empty"));
      return NULL;
    }
  if (memchr (json, '\0', length) != NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("The safetensors header is not valid JSON: it contains a NUL byte"));
      return NULL;
    }
  if (!json_parser_load_from_data (parser, json, (gssize) length, &local_error))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("The safetensors header is not valid JSON: %s"), local_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("The safetensors header is not a JSON object"));
      return NULL;
    }
  return json_node_get_object (root);
}

/* The string members of "__metadata__" (@node may hold anything). */
static void
read_metadata (HrSafetensorsHeader *header,
               JsonNode            *node)
{
  JsonObject *meta;
  g_autoptr(GList) keys = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return;
  meta = json_node_get_object (node);
  keys = json_object_get_members (meta);
  for (GList *k = keys; k != NULL; k = k->next)
    {
      const char *value = hr_json_string (meta, k->data);

      if (value != NULL)
        g_hash_table_replace (header->metadata, g_strdup (k->data), g_strdup (value));
    }
}

/* Checks that @spans tile [0, data bytes) exactly, no overlap and no hole;
 * sorts them and stores the end in *@out_data_bytes. */
static gboolean
check_tiling (GArray   *spans,
              guint64  *out_data_bytes,
              GError  **error)
{
  guint64 expected_begin = 0;

  g_array_sort (spans, compare_span);
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *s = &g_array_index (spans, Span, i);

      if (s->begin < expected_begin)
        {
          const Span *prev = &g_array_index (spans, Span, i - 1);

          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("Tensors “%s” and “%s” in the safetensors header overlap at byte %" PRIu64),
                       prev->name, s->name, s->begin);
          return FALSE;
        }
      if (s->begin > expected_begin)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("The safetensors data has a hole: bytes %" PRIu64 " to %" PRIu64 " belong to no tensor (next is “%s”)"),
                       expected_begin, s->begin, s->name);
          return FALSE;
        }
      expected_begin = s->end;
    }
  *out_data_bytes = expected_begin;
  return TRUE;
}

/**
 * hr_safetensors_header_parse_json:
 * @json: (array length=length): the header JSON (the N bytes after the length)
 * @length: bytes in @json
 * @error: return location for a #GError
 *
 * Parses a safetensors header's JSON: counts the stored elements (parameters)
 * and data bytes per dtype, and checks that the tensors' data_offsets tile
 * the data region exactly from 0 (no overlap, no hole) and that each span is
 * the shape's element count times the dtype's size (docs/formats.md "safetensors" dtype sizes;
 * sub-byte dtypes rounded up to whole bytes). An unknown dtype is accepted
 * and counted by its span. Tensors may be empty (a 0 in the shape, equal
 * offsets). `__metadata__` may be missing or hold anything: only its string
 * members are kept.
 *
 * Returns: (transfer full): the header, or %NULL with @error set:
 *   %HR_CORE_ERROR_LIMIT (over 25,000,000 bytes), %HR_CORE_ERROR_PARSE (not
 *   JSON, or not a JSON object), %HR_CORE_ERROR_INVALID_DATA (a tensor
 *   without dtype/shape/offsets, overlapping offsets, a hole, a span that does
 *   not match its shape), %HR_CORE_ERROR_OVERFLOW (a product past 64 bits).
 */
HrSafetensorsHeader *
hr_safetensors_header_parse_json (const char *json,
                                  gsize       length,
                                  GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(HrSafetensorsHeader) header = NULL;
  g_autoptr(GArray) spans = NULL;
  g_autoptr(GList) members = NULL;
  JsonObject *obj;

  obj = load_header_object (parser, json, length, error);
  if (obj == NULL)
    return NULL;

  header = header_new ();
  header->header_length = length;
  spans = g_array_new (FALSE, FALSE, sizeof (Span));

  members = json_object_get_members (obj);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *node = json_object_get_member (obj, name);
      Span span = { 0, };

      if (strcmp (name, "__metadata__") == 0)
        {
          read_metadata (header, node);
          continue;
        }
      if (!parse_tensor (header, name, node, &span, error))
        return NULL;
      g_array_append_val (spans, span);
    }

  if (!check_tiling (spans, &header->data_bytes, error))
    return NULL;
  if (spans->len == 0)
    {
      /* `{}` (or only __metadata__) is well-formed, but no weights file is
       * empty: sizing it would say a model of 0 bytes "fits". */
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("The safetensors header lists no tensors"));
      return NULL;
    }
  header->n_tensors = spans->len;
  g_ptr_array_sort (header->dtypes, compare_dtype);

  return g_steal_pointer (&header);
}

/**
 * hr_safetensors_header_parse:
 * @data: (array length=length): the start of a safetensors file: the 8-byte
 *   length and at least the N header bytes after it (more is ignored)
 * @length: bytes in @data
 * @error: return location for a #GError
 *
 * Reads the header length (hr_safetensors_header_length()) and parses the
 * JSON after it (hr_safetensors_header_parse_json()).
 *
 * Returns: (transfer full): the header, or %NULL with @error set: the errors
 *   of both functions, and %HR_CORE_ERROR_TRUNCATED when @data ends before
 *   8 + N bytes.
 */
HrSafetensorsHeader *
hr_safetensors_header_parse (const guint8 *data,
                             gsize         length,
                             GError      **error)
{
  guint64 n;

  if (!hr_safetensors_header_length (data, length, &n, error))
    return NULL;
  if (length - 8 < n)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED,
                   _("The safetensors header is %" PRIu64 " bytes but only %zu were read"),
                   n, length - 8);
      return NULL;
    }
  return hr_safetensors_header_parse_json ((const char *) data + 8, (gsize) n, error);
}

/**
 * hr_safetensors_header_merge:
 * @into: the header that accumulates (shard 1)
 * @other: another shard's header
 * @error: return location for a #GError
 *
 * Adds @other's tensors, parameters and data bytes per dtype to @into, for a
 * model stored in several shards. @into's header_length becomes the sum.
 *
 * Returns: %TRUE, or %FALSE with %HR_CORE_ERROR_OVERFLOW when a sum does not
 *   fit 64 bits.
 */
gboolean
hr_safetensors_header_merge (HrSafetensorsHeader       *into,
                             const HrSafetensorsHeader *other,
                             GError                   **error)
{
  g_return_val_if_fail (into != NULL, FALSE);
  g_return_val_if_fail (other != NULL, FALSE);

  for (guint i = 0; i < other->dtypes->len; i++)
    {
      const HrSafetensorsDtype *d = g_ptr_array_index (other->dtypes, i);

      if (!add_to_dtype (into, d->dtype, d->tensors, d->parameters, d->bytes, error))
        return FALSE;
    }
  if (!hr_add_u64 (into->data_bytes, other->data_bytes, &into->data_bytes) ||
      !hr_add_u64 (into->header_length, other->header_length, &into->header_length))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                   _("The safetensors data bytes over all shards do not fit 64 bits"));
      return FALSE;
    }
  if (!hr_add_u64 (into->packed_bits, other->packed_bits, &into->packed_bits) ||
      !hr_add_u64 (into->packed_elements, other->packed_elements, &into->packed_elements) ||
      !hr_add_u64 (into->aux_parameters, other->aux_parameters, &into->aux_parameters))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                   _("The safetensors parameter counts over all shards do not fit 64 bits"));
      return FALSE;
    }
  into->has_lm_head |= other->has_lm_head;
  into->n_tensors += other->n_tensors;
  into->tower_tensors += other->tower_tensors;
  hr_add_u64 (into->tower_parameters, other->tower_parameters, &into->tower_parameters);
  hr_add_u64 (into->tower_bytes, other->tower_bytes, &into->tower_bytes);
  g_ptr_array_sort (into->dtypes, compare_dtype);
  return TRUE;
}

/**
 * hr_safetensors_header_parameters:
 * @header: a parsed header (or several merged)
 * @bits: bits per quantized weight in the packed containers (config.json
 *   quantization_config bits; 0 = 4, the GPTQ, AWQ and mlx default)
 *
 * The model's parameter count from the unpacked shapes: every stored
 * element, less the quantization state (hr_safetensors_tensor_is_aux()),
 * with each packed container counted as the weights it holds (an I32
 * qweight of GPTQ/AWQ at 4 bits holds 8). The bytes are unchanged: they
 * stay the data_offsets spans.
 *
 * Returns: the parameter count, saturating at G_MAXUINT64.
 */
guint64
hr_safetensors_header_parameters (const HrSafetensorsHeader *header,
                                  guint                      bits)
{
  guint64 plain, unpacked, total;

  g_return_val_if_fail (header != NULL, 0);

  if (bits == 0)
    bits = 4;
  plain = header->parameters - header->aux_parameters - header->packed_elements;
  unpacked = header->packed_bits / bits;
  if (!hr_add_u64 (plain, unpacked, &total))
    return G_MAXUINT64;
  return total;
}

/**
 * hr_safetensors_reconcile:
 * @summary: the summary figure (an index's `total_size`, the Hub's
 *   `safetensors.total`), 0 = not given
 * @detailed: the figure summed from the detailed source (the shards'
 *   headers, the Hub's per-dtype `parameters` map), 0 = not known
 * @summary_name: what gave @summary ("model.safetensors.index.json total_size")
 * @detailed_name: what gave @detailed ("the 4 shards' headers")
 * @unit: the unit of both ("bytes", "parameters")
 * @out_note: (out) (optional) (transfer full): a sentence when both are
 *   known and disagree (both numbers and the gap), else %NULL
 *
 * Two figures of one quantity that may disagree: the more detailed source
 * wins, and the note says so.
 *
 * Returns: @detailed when known, else @summary.
 */
guint64
hr_safetensors_reconcile (guint64      summary,
                          guint64      detailed,
                          const char  *summary_name,
                          const char  *detailed_name,
                          const char  *unit,
                          char       **out_note)
{
  if (out_note != NULL)
    *out_note = NULL;
  if (detailed == 0)
    return summary;
  if (summary != 0 && summary != detailed && out_note != NULL)
    {
      g_autofree char *s = hr_format_count (summary);
      g_autofree char *d = hr_format_count (detailed);
      g_autofree char *gap = hr_format_count (summary > detailed ? summary - detailed : detailed - summary);

      *out_note = g_strdup_printf (_("%s gives %s %s but %s add up to %s %s (%s apart); using %s"),
                                   summary_name, s, unit, detailed_name, d, unit, gap, d);
    }
  return detailed;
}

static gint
compare_str_ptr (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/**
 * hr_safetensors_index_free:
 * @index: (nullable): an index from hr_safetensors_index_parse()
 *
 * Frees @index.
 */
void
hr_safetensors_index_free (HrSafetensorsIndex *index)
{
  if (index == NULL)
    return;
  g_clear_pointer (&index->shards, g_ptr_array_unref);
  g_free (index);
}

/* "metadata.total_size" into @index when present: an integer, or a whole
 * double (large counts may arrive as doubles). */
static gboolean
read_total_size (HrSafetensorsIndex  *index,
                 JsonObject          *obj,
                 GError             **error)
{
  JsonNode *meta = json_object_get_member (obj, "metadata");
  JsonNode *total;
  GType type;

  if (meta == NULL || !JSON_NODE_HOLDS_OBJECT (meta))
    return TRUE;
  total = json_object_get_member (json_node_get_object (meta), "total_size");
  if (total == NULL || !JSON_NODE_HOLDS_VALUE (total))
    return TRUE;

  type = json_node_get_value_type (total);
  if (type == G_TYPE_INT64 && json_node_get_int (total) >= 0)
    {
      index->total_size = (guint64) json_node_get_int (total);
      index->has_total_size = TRUE;
    }
  else if (type == G_TYPE_DOUBLE)
    {
      double v = json_node_get_double (total);

      /* 2^64 as a double; anything at or past it does not fit. */
      if (!(v >= 0.0 && v < 18446744073709551616.0 && v == (double) (guint64) v))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("model.safetensors.index.json has a total_size that is not a whole number of bytes"));
          return FALSE;
        }
      index->total_size = (guint64) v;
      index->has_total_size = TRUE;
    }
  else
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("model.safetensors.index.json has a total_size that is not a non-negative number"));
      return FALSE;
    }
  return TRUE;
}

/* The shard "weight_map" gives tensor @name: a plain file name in the
 * repository, or %NULL with @error set. */
static const char *
weight_map_shard (const char  *name,
                  JsonNode    *value,
                  GError     **error)
{
  const char *shard;

  if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("model.safetensors.index.json maps tensor “%s” to something that is not a file name"),
                   name);
      return NULL;
    }
  shard = json_node_get_string (value);
  if (shard[0] == '\0' || strstr (shard, "..") != NULL || shard[0] == '/')
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("model.safetensors.index.json maps tensor “%s” to “%s”, which is not a file in the repository"),
                   name, shard);
      return NULL;
    }
  return shard;
}

/* "weight_map" into @index: the tensor count, the output projection and
 * tower tensors, and the sorted list of distinct shards. */
static gboolean
read_weight_map (HrSafetensorsIndex  *index,
                 JsonObject          *obj,
                 GError             **error)
{
  JsonNode *map = json_object_get_member (obj, "weight_map");
  g_autoptr(GHashTable) seen = NULL;
  g_autoptr(GList) members = NULL;
  JsonObject *map_obj;

  if (map == NULL || !JSON_NODE_HOLDS_OBJECT (map))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("model.safetensors.index.json has no weight_map object"));
      return FALSE;
    }
  map_obj = json_node_get_object (map);
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  members = json_object_get_members (map_obj);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *shard = weight_map_shard (l->data, json_object_get_member (map_obj, l->data), error);

      if (shard == NULL)
        return FALSE;
      index->n_tensors++;
      if (hr_safetensors_tensor_is_lm_head (l->data))
        index->has_lm_head = TRUE;
      if (hr_mmproj_safetensors_is_tower (l->data))
        index->tower_tensors++;
      if (!g_hash_table_contains (seen, shard))
        {
          g_hash_table_add (seen, (gpointer) shard);
          g_ptr_array_add (index->shards, g_strdup (shard));
        }
    }
  g_ptr_array_sort (index->shards, compare_str_ptr);
  return TRUE;
}

/**
 * hr_safetensors_index_parse:
 * @data: (array length=length): model.safetensors.index.json
 * @length: bytes in @data
 * @error: return location for a #GError
 *
 * Parses a sharded model's index: `metadata.total_size` (the sum of the
 * tensor data bytes over all shards, headers excluded; tied embeddings stored
 * once; docs/formats.md, "safetensors") and `weight_map` (tensor name -> shard file name), giving
 * the tensor count and the list of shards. total_size may be missing
 * (has_total_size is then %FALSE); it is accepted as an integer or as a
 * whole double, since large counts may arrive as doubles.
 *
 * Returns: (transfer full): the index, or %NULL with @error set:
 *   %HR_CORE_ERROR_PARSE (not JSON or not an object),
 *   %HR_CORE_ERROR_INVALID_DATA (no weight_map object, a shard name that is
 *   not a string or not a plain file name, a negative or fractional total_size).
 */
HrSafetensorsIndex *
hr_safetensors_index_parse (const char *data,
                            gsize       length,
                            GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local_error = NULL;
  g_autoptr(HrSafetensorsIndex) index = NULL;
  JsonNode *root;
  JsonObject *obj;

  if (data == NULL || length == 0 || length > G_MAXSSIZE ||
      memchr (data, '\0', length) != NULL ||
      !json_parser_load_from_data (parser, data, (gssize) length, &local_error))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("model.safetensors.index.json is not valid JSON: %s"),
                   local_error != NULL ? local_error->message : _("empty or contains a NUL byte"));
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("model.safetensors.index.json is not a JSON object"));
      return NULL;
    }
  obj = json_node_get_object (root);

  index = g_new0 (HrSafetensorsIndex, 1);
  index->shards = g_ptr_array_new_with_free_func (g_free);
  if (!read_total_size (index, obj, error) || !read_weight_map (index, obj, error))
    return NULL;
  return g_steal_pointer (&index);
}
