/* hr-gguf-value.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GGUF metadata values: their types, the typed getters and the array
 * element access over the raw bytes the reader keeps (hr-gguf.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-private.h"
#include "hr-precision.h"
#include "hr-units.h"

/* Bytes of one element of a fixed-size type; 0 for STRING and ARRAY. */
const guint8 hr_gguf_type_sizes[HR_GGUF_N_TYPES] = {
  [HR_GGUF_TYPE_UINT8] = 1, [HR_GGUF_TYPE_INT8] = 1,
  [HR_GGUF_TYPE_UINT16] = 2, [HR_GGUF_TYPE_INT16] = 2,
  [HR_GGUF_TYPE_UINT32] = 4, [HR_GGUF_TYPE_INT32] = 4,
  [HR_GGUF_TYPE_FLOAT32] = 4, [HR_GGUF_TYPE_BOOL] = 1,
  [HR_GGUF_TYPE_STRING] = 0, [HR_GGUF_TYPE_ARRAY] = 0,
  [HR_GGUF_TYPE_UINT64] = 8, [HR_GGUF_TYPE_INT64] = 8,
  [HR_GGUF_TYPE_FLOAT64] = 8,
};

/**
 * hr_gguf_type_to_string:
 * @type: a GGUF metadata value type
 *
 * Returns: (transfer none): the spec's name of @type ("UINT32", "STRING"),
 *   or "unknown".
 */
const char *
hr_gguf_type_to_string (HrGgufType type)
{
  static const char *names[HR_GGUF_N_TYPES] = {
    "UINT8", "INT8", "UINT16", "INT16", "UINT32", "INT32", "FLOAT32",
    "BOOL", "STRING", "ARRAY", "UINT64", "INT64", "FLOAT64",
  };

  if ((guint) type >= HR_GGUF_N_TYPES)
    return "unknown";
  return names[type];
}

/* ------------------------------------------------------------------------ */
/* Values                                                                   */

/**
 * hr_gguf_value_free:
 * @value: (nullable): a value returned by hr_gguf_value_dup_array_element()
 *
 * Frees @value and everything it holds.
 */
void
hr_gguf_value_free (HrGgufValue *value)
{
  if (value == NULL)
    return;
  g_free (value->data);
  g_free (value->index);
  g_free (value);
}


/**
 * hr_gguf_value_get_value_type:
 * @value: a metadata value
 *
 * Returns: its GGUF type.
 */
HrGgufType
hr_gguf_value_get_value_type (const HrGgufValue *value)
{
  return value->type;
}

static gboolean
is_unsigned (HrGgufType type)
{
  return type == HR_GGUF_TYPE_UINT8 || type == HR_GGUF_TYPE_UINT16 ||
         type == HR_GGUF_TYPE_UINT32 || type == HR_GGUF_TYPE_UINT64 ||
         type == HR_GGUF_TYPE_BOOL;
}

static gboolean
is_signed (HrGgufType type)
{
  return type == HR_GGUF_TYPE_INT8 || type == HR_GGUF_TYPE_INT16 ||
         type == HR_GGUF_TYPE_INT32 || type == HR_GGUF_TYPE_INT64;
}

/**
 * hr_gguf_value_get_uint64:
 * @value: a metadata value
 * @out_value: (out): the value
 *
 * Reads an integer value of any width or sign as an unsigned count.
 *
 * Returns: %TRUE when @value is an integer (or BOOL) that is not negative.
 */
gboolean
hr_gguf_value_get_uint64 (const HrGgufValue *value,
                          guint64           *out_value)
{
  if (is_unsigned (value->type))
    {
      *out_value = value->scalar.u;
      return TRUE;
    }
  if (is_signed (value->type) && value->scalar.i >= 0)
    {
      *out_value = (guint64) value->scalar.i;
      return TRUE;
    }
  return FALSE;
}

/**
 * hr_gguf_value_get_int64:
 * @value: a metadata value
 * @out_value: (out): the value
 *
 * Returns: %TRUE when @value is an integer that fits a gint64.
 */
gboolean
hr_gguf_value_get_int64 (const HrGgufValue *value,
                         gint64            *out_value)
{
  if (is_signed (value->type))
    {
      *out_value = value->scalar.i;
      return TRUE;
    }
  if (is_unsigned (value->type) && value->scalar.u <= G_MAXINT64)
    {
      *out_value = (gint64) value->scalar.u;
      return TRUE;
    }
  return FALSE;
}

/**
 * hr_gguf_value_get_double:
 * @value: a metadata value
 * @out_value: (out): the value
 *
 * Returns: %TRUE when @value is a number (float or integer).
 */
gboolean
hr_gguf_value_get_double (const HrGgufValue *value,
                          double            *out_value)
{
  if (value->type == HR_GGUF_TYPE_FLOAT32 || value->type == HR_GGUF_TYPE_FLOAT64)
    *out_value = value->scalar.d;
  else if (is_signed (value->type))
    *out_value = (double) value->scalar.i;
  else if (is_unsigned (value->type) && value->type != HR_GGUF_TYPE_BOOL)
    *out_value = (double) value->scalar.u;
  else
    return FALSE;
  return TRUE;
}

/**
 * hr_gguf_value_get_boolean:
 * @value: a metadata value
 * @out_value: (out): the value (any non-zero byte is %TRUE)
 *
 * Returns: %TRUE when @value is a BOOL.
 */
gboolean
hr_gguf_value_get_boolean (const HrGgufValue *value,
                           gboolean          *out_value)
{
  if (value->type != HR_GGUF_TYPE_BOOL)
    return FALSE;
  *out_value = value->scalar.u != 0;
  return TRUE;
}

/**
 * hr_gguf_value_get_string:
 * @value: a metadata value
 * @out_length: (out) (optional): its length in bytes
 *
 * Returns: (nullable) (transfer none): the string's bytes, NUL-terminated
 *   (a GGUF string may hold a NUL itself: use @out_length), or %NULL when
 *   @value is not a STRING. The bytes are as stored and may not be valid
 *   UTF-8.
 */
const char *
hr_gguf_value_get_string (const HrGgufValue *value,
                          gsize             *out_length)
{
  if (value->type != HR_GGUF_TYPE_STRING)
    return NULL;
  if (out_length != NULL)
    *out_length = (gsize) value->length;
  return (const char *) value->data;
}

/**
 * hr_gguf_value_get_array_type:
 * @value: a metadata value
 *
 * Returns: the type of the elements of an ARRAY, or %HR_GGUF_N_TYPES when
 *   @value is not an array.
 */
HrGgufType
hr_gguf_value_get_array_type (const HrGgufValue *value)
{
  return value->type == HR_GGUF_TYPE_ARRAY ? value->array_type : HR_GGUF_N_TYPES;
}

/**
 * hr_gguf_value_get_array_length:
 * @value: a metadata value
 *
 * Returns: the number of elements of an ARRAY, 0 for any other value.
 */
guint64
hr_gguf_value_get_array_length (const HrGgufValue *value)
{
  return value->type == HR_GGUF_TYPE_ARRAY ? value->length : 0;
}

/* Byte size of the element stored at @data (validated at parse time). */
static gsize
raw_element_size (HrGgufType    type,
                  const guint8 *data)
{
  if (hr_gguf_type_sizes[type] != 0)
    return hr_gguf_type_sizes[type];

  if (type == HR_GGUF_TYPE_STRING)
    {
      guint64 length;

      memcpy (&length, data, 8);
      return 8 + (gsize) GUINT64_FROM_LE (length);
    }
  else
    {
      guint32 inner_type;
      guint64 count;
      gsize size = 12;

      memcpy (&inner_type, data, 4);
      memcpy (&count, data + 4, 8);
      inner_type = GUINT32_FROM_LE (inner_type);
      count = GUINT64_FROM_LE (count);
      if (hr_gguf_type_sizes[inner_type] != 0)
        return size + (gsize) count * hr_gguf_type_sizes[inner_type];
      for (guint64 i = 0; i < count; i++)
        size += raw_element_size (inner_type, data + size);
      return size;
    }
}

static const guint8 *
array_element (const HrGgufValue *value,
               guint64            index)
{
  const guint8 *at;
  gsize size = hr_gguf_type_sizes[value->array_type];

  if (value->type != HR_GGUF_TYPE_ARRAY || index >= value->length)
    return NULL;
  if (size != 0)
    return value->data + index * size;

  at = value->data + value->index[index / HR_GGUF_INDEX_STRIDE];
  for (guint64 i = 0; i < index % HR_GGUF_INDEX_STRIDE; i++)
    at += raw_element_size (value->array_type, at);
  return at;
}

/* Decodes a fixed-size element into the scalar union of @out. */
static void
decode_scalar (HrGgufType    type,
               const guint8 *at,
               HrGgufValue  *out)
{
  out->type = type;
  switch (type)
    {
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_BOOL:
      out->scalar.u = at[0];
      break;
    case HR_GGUF_TYPE_INT8:
      out->scalar.i = (gint8) at[0];
      break;
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_INT16:
      {
        guint16 v;

        memcpy (&v, at, 2);
        v = GUINT16_FROM_LE (v);
        if (type == HR_GGUF_TYPE_UINT16)
          out->scalar.u = v;
        else
          out->scalar.i = (gint16) v;
      }
      break;
    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_FLOAT32:
      {
        guint32 v;
        float f;

        memcpy (&v, at, 4);
        v = GUINT32_FROM_LE (v);
        if (type == HR_GGUF_TYPE_UINT32)
          out->scalar.u = v;
        else if (type == HR_GGUF_TYPE_INT32)
          out->scalar.i = (gint32) v;
        else
          {
            memcpy (&f, &v, 4);
            out->scalar.d = f;
          }
      }
      break;
    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_INT64:
    case HR_GGUF_TYPE_FLOAT64:
      {
        guint64 v;

        memcpy (&v, at, 8);
        v = GUINT64_FROM_LE (v);
        if (type == HR_GGUF_TYPE_UINT64)
          out->scalar.u = v;
        else if (type == HR_GGUF_TYPE_INT64)
          out->scalar.i = (gint64) v;
        else
          memcpy (&out->scalar.d, &v, 8);
      }
      break;
    case HR_GGUF_TYPE_STRING:
    case HR_GGUF_TYPE_ARRAY:
    case HR_GGUF_N_TYPES:
    default:
      g_assert_not_reached ();
    }
}

static gboolean
array_scalar (const HrGgufValue *value,
              guint64            index,
              HrGgufValue       *out)
{
  const guint8 *at;

  if (value->type != HR_GGUF_TYPE_ARRAY || hr_gguf_type_sizes[value->array_type] == 0)
    return FALSE;
  at = array_element (value, index);
  if (at == NULL)
    return FALSE;
  decode_scalar (value->array_type, at, out);
  return TRUE;
}

/**
 * hr_gguf_value_get_array_uint64:
 * @value: an ARRAY value
 * @index: the element, 0-based
 * @out_value: (out): the element
 *
 * Returns: %TRUE when @index is in range and the element is an integer
 *   (or BOOL) that is not negative.
 */
gboolean
hr_gguf_value_get_array_uint64 (const HrGgufValue *value,
                                guint64            index,
                                guint64           *out_value)
{
  HrGgufValue element = { 0 };

  return array_scalar (value, index, &element) &&
         hr_gguf_value_get_uint64 (&element, out_value);
}

/**
 * hr_gguf_value_get_array_int64:
 * @value: an ARRAY value
 * @index: the element, 0-based
 * @out_value: (out): the element
 *
 * Returns: %TRUE when @index is in range and the element is an integer
 *   that fits a gint64.
 */
gboolean
hr_gguf_value_get_array_int64 (const HrGgufValue *value,
                               guint64            index,
                               gint64            *out_value)
{
  HrGgufValue element = { 0 };

  return array_scalar (value, index, &element) &&
         hr_gguf_value_get_int64 (&element, out_value);
}

/**
 * hr_gguf_value_get_array_double:
 * @value: an ARRAY value
 * @index: the element, 0-based
 * @out_value: (out): the element
 *
 * Returns: %TRUE when @index is in range and the element is a number.
 */
gboolean
hr_gguf_value_get_array_double (const HrGgufValue *value,
                                guint64            index,
                                double            *out_value)
{
  HrGgufValue element = { 0 };

  return array_scalar (value, index, &element) &&
         hr_gguf_value_get_double (&element, out_value);
}

/**
 * hr_gguf_value_get_array_string:
 * @value: an ARRAY of STRING
 * @index: the element, 0-based
 * @out_length: (out): the element's length in bytes
 *
 * Finds one string of a string array without copying it (a token of
 * `tokenizer.ggml.tokens`, say): at most %HR_GGUF_INDEX_STRIDE - 1 strings
 * are skipped to reach it.
 *
 * Returns: (nullable) (transfer none): the element's bytes, NOT
 *   NUL-terminated, or %NULL when @value is not a string array or @index is
 *   out of range.
 */
const char *
hr_gguf_value_get_array_string (const HrGgufValue *value,
                                guint64            index,
                                gsize             *out_length)
{
  const guint8 *at;
  guint64 length;

  if (value->type != HR_GGUF_TYPE_ARRAY || value->array_type != HR_GGUF_TYPE_STRING)
    return NULL;
  at = array_element (value, index);
  if (at == NULL)
    return NULL;
  memcpy (&length, at, 8);
  *out_length = (gsize) GUINT64_FROM_LE (length);
  return (const char *) at + 8;
}

/**
 * hr_gguf_value_dup_array_element:
 * @value: an ARRAY value
 * @index: the element, 0-based
 *
 * Copies one element out as a value of its own; the way to reach the
 * elements of an array of arrays.
 *
 * Returns: (transfer full) (nullable): the element, or %NULL when @index is
 *   out of range or @value is not an array.
 */
HrGgufValue *
hr_gguf_value_dup_array_element (const HrGgufValue *value,
                                 guint64            index)
{
  const guint8 *at = array_element (value, index);
  HrGgufValue *element;
  gsize size;

  if (at == NULL)
    return NULL;

  element = g_new0 (HrGgufValue, 1);
  element->type = value->array_type;
  size = raw_element_size (value->array_type, at);

  if (value->array_type == HR_GGUF_TYPE_STRING)
    {
      element->length = size - 8;
      element->data_size = size - 8 + 1;
      element->data = g_malloc (element->data_size);
      memcpy (element->data, at + 8, size - 8);
      element->data[size - 8] = '\0';
    }
  else if (value->array_type == HR_GGUF_TYPE_ARRAY)
    {
      guint32 inner_type;
      guint64 count;
      gsize offset = 12;

      memcpy (&inner_type, at, 4);
      memcpy (&count, at + 4, 8);
      element->array_type = GUINT32_FROM_LE (inner_type);
      element->length = GUINT64_FROM_LE (count);
      element->data_size = size - 12;
      element->data = g_memdup2 (at + 12, size - 12);
      if (hr_gguf_type_sizes[element->array_type] == 0)
        {
          element->index = g_new (guint64, element->length / HR_GGUF_INDEX_STRIDE + 1);
          for (guint64 i = 0; i < element->length; i++)
            {
              if (i % HR_GGUF_INDEX_STRIDE == 0)
                element->index[i / HR_GGUF_INDEX_STRIDE] = offset - 12;
              offset += raw_element_size (element->array_type, at + offset);
            }
        }
    }
  else
    decode_scalar (value->array_type, at, element);

  return element;
}

/**
 * hr_gguf_value_get_raw_size:
 * @value: a metadata value
 *
 * Returns: the bytes this value keeps in memory for its string or array
 *   data (the array's elements as the file stores them).
 */
gsize
hr_gguf_value_get_raw_size (const HrGgufValue *value)
{
  return value->data_size;
}
