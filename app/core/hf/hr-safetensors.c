/* hr-safetensors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading one safetensors header: the 8-byte length, then the JSON object
 * of tensor entries ({"dtype", "shape", "data_offsets"}) and
 * "__metadata__", each entry checked (its shape against its span, the
 * spans tiling the data exactly). What the entries add up to is counted
 * in hr-safetensors-count.c; a sharded checkpoint's index is read in
 * hr-safetensors-index.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-json.h"
#include "hr-safetensors-private.h"
#include "hr-units.h"

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
         hr_safetensors_count_tensor (header, name, dtype, elements, span->end - span->begin, error);
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
  g_ptr_array_sort (header->dtypes, hr_safetensors_compare_dtype);

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
