/* hr-gguf-parser.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GGUF reader's window over a memory buffer or a GInputStream, and
 * the reading of metadata values (scalars, strings, arrays of arrays) into
 * the raw storage hr-gguf-value.c decodes. The byte layout is the GGUF
 * specification's (docs/formats.md, "GGUF").
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-parser-private.h"
#include "hr-units.h"

#define READ_CHUNK           65536


static void
buf_reserve (Buf   *buf,
             gsize  extra)
{
  gsize want = buf->len + extra;

  if (want <= buf->cap)
    return;
  if (buf->cap == 0)
    buf->cap = 64;
  while (buf->cap < want)
    buf->cap *= 2;
  buf->data = g_realloc (buf->data, buf->cap);
}

static guint8 *
buf_steal_fit (Buf   *buf,
               gsize *out_size)
{
  guint8 *data = buf->len > 0 ? g_realloc (buf->data, buf->len) : (g_free (buf->data), NULL);

  *out_size = buf->len;
  buf->data = NULL;
  buf->len = buf->cap = 0;
  return data;
}

/**
 * hr_gguf_parser_offset:
 * @p: the reader
 *
 * Returns: the file offset of the next byte, bytes.
 */
guint64
hr_gguf_parser_offset (const Parser *p)
{
  return p->base + p->pos;
}

static char *
parser_describe (const Parser *p)
{
  g_autofree char *n = hr_format_count (p->entry + 1);
  g_autofree char *of = hr_format_count (p->n_entries);

  switch (p->stage)
    {
    case STAGE_MAGIC:
    case STAGE_COUNTS:
      return g_strdup (_("the version and counts"));
    case STAGE_KEY:
      return g_strdup_printf (_("the key of metadata entry %s of %s"), n, of);
    case STAGE_VALUE:
      return g_strdup_printf (_("the value of metadata key “%s”"), p->key);
    case STAGE_TENSOR:
      if (p->key != NULL)
        return g_strdup_printf (_("the entry of tensor %s of %s (“%s”)"), n, of, p->key);
      return g_strdup_printf (_("the entry of tensor %s of %s"), n, of);
    default:
      g_assert_not_reached ();
    }
}

static gboolean
set_truncated (Parser  *p,
               GError **error)
{
  g_autofree char *where = parser_describe (p);
  g_autofree char *at = hr_format_count (p->base + p->len); /* all the input there is */

  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED,
               _("the GGUF header is truncated: the data ends at byte %s, inside %s; "
                 "the file is incomplete (an interrupted download or copy?)"),
               at, where);
  return FALSE;
}

/**
 * hr_gguf_parser_refill:
 * @p: the reader
 * @error: return location for a #GError
 *
 * Makes at least one more byte available from the stream.
 *
 * Returns: %TRUE; %FALSE with @error set on an I/O error or cancellation,
 *   %FALSE without an error at the end of the input.
 */
gboolean
hr_gguf_parser_refill (Parser  *p,
                       GError **error)
{
  gsize got = 0;

  if (p->stream == NULL || p->eof)
    return FALSE;

  p->base += p->len;
  p->len = 0;
  p->pos = 0;
  if (p->owned == NULL)
    p->owned = g_malloc (READ_CHUNK);
  if (!g_input_stream_read_all (p->stream, p->owned, READ_CHUNK, &got, p->cancellable, error))
    return FALSE;
  p->buf = p->owned;
  p->len = got;
  if (got < READ_CHUNK)
    p->eof = TRUE;
  return got > 0;
}

/* Copies @n bytes to @dst (or appends them to @buf when @dst is NULL). */
static gboolean
parser_read (Parser  *p,
             void    *dst,
             Buf     *buf,
             guint64  n,
             GError **error)
{
  guint8 *out = dst;

  if (buf != NULL && p->stream == NULL && n > p->len - p->pos)
    return set_truncated (p, error); /* nothing to allocate for */

  while (n > 0)
    {
      gsize avail = p->len - p->pos;
      gsize take;

      if (avail == 0)
        {
          GError *local_error = NULL;

          if (!hr_gguf_parser_refill (p, &local_error))
            {
              if (local_error != NULL)
                {
                  g_propagate_error (error, local_error);
                  return FALSE;
                }
              return set_truncated (p, error);
            }
          continue;
        }

      take = (gsize) MIN ((guint64) avail, n);
      if (out != NULL)
        {
          memcpy (out, p->buf + p->pos, take);
          out += take;
        }
      else
        {
          buf_reserve (buf, take);
          memcpy (buf->data + buf->len, p->buf + p->pos, take);
          buf->len += take;
        }
      p->pos += take;
      n -= take;
    }

  return TRUE;
}

/**
 * hr_gguf_read_u32:
 * @p: the reader
 * @out: (out): the little-endian u32
 * @error: return location for a #GError
 *
 * Returns: %TRUE; %FALSE with a truncation or I/O error.
 */
gboolean
hr_gguf_read_u32 (Parser   *p,
                  guint32  *out,
                  GError  **error)
{
  guint32 v;

  if (G_LIKELY (p->len - p->pos >= 4))
    {
      memcpy (&v, p->buf + p->pos, 4);
      p->pos += 4;
    }
  else if (!parser_read (p, &v, NULL, 4, error))
    return FALSE;
  *out = GUINT32_FROM_LE (v);
  return TRUE;
}

/**
 * hr_gguf_read_u64:
 * @p: the reader
 * @out: (out): the little-endian u64
 * @error: return location for a #GError
 *
 * Returns: %TRUE; %FALSE with a truncation or I/O error.
 */
gboolean
hr_gguf_read_u64 (Parser   *p,
                  guint64  *out,
                  GError  **error)
{
  guint64 v;

  if (G_LIKELY (p->len - p->pos >= 8))
    {
      memcpy (&v, p->buf + p->pos, 8);
      p->pos += 8;
    }
  else if (!parser_read (p, &v, NULL, 8, error))
    return FALSE;
  *out = GUINT64_FROM_LE (v);
  return TRUE;
}

static gboolean
check_header_cap (Parser   *p,
                  guint64   more,
                  GError  **error)
{
  guint64 end;

  if (!hr_add_u64 (hr_gguf_parser_offset (p), more, &end) || end > HR_GGUF_MAX_HEADER_BYTES)
    {
      g_autofree char *where = parser_describe (p);
      g_autofree char *cap = hr_format_count (HR_GGUF_MAX_HEADER_BYTES);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("the GGUF header runs past %s bytes in %s; Headroom does not read headers that large"),
                   cap, where);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_string_length (Parser   *p,
                     guint64   length,
                     guint64   cap,
                     GError  **error)
{
  if (length > cap)
    {
      g_autofree char *where = parser_describe (p);
      g_autofree char *len = hr_format_count (length);
      g_autofree char *max = hr_format_count (cap);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("a string of %s bytes in %s is longer than the limit of %s bytes"),
                   len, where, max);
      return FALSE;
    }
  return check_header_cap (p, length, error);
}

/**
 * hr_gguf_read_string:
 * @p: the reader
 * @cap: the longest string accepted, bytes
 * @out_length: (out) (optional): its bytes, without the NUL
 * @error: return location for a #GError
 *
 * Reads a GGUF string (u64 length + bytes) into a new NUL-terminated
 * buffer, checking the length against @cap and the header cap first.
 *
 * Returns: (transfer full) (nullable): the string, or %NULL with
 *   %HR_CORE_ERROR_LIMIT, a truncation or an I/O error.
 */
char *
hr_gguf_read_string (Parser   *p,
                     guint64   cap,
                     gsize    *out_length,
                     GError  **error)
{
  Buf buf = { NULL, 0, 0 };
  guint64 length;
  gsize size;

  if (!hr_gguf_read_u64 (p, &length, error) ||
      !check_string_length (p, length, cap, error))
    return NULL;
  if (!parser_read (p, NULL, &buf, length, error))
    {
      g_free (buf.data);
      return NULL;
    }
  buf_reserve (&buf, 1);
  buf.data[buf.len++] = '\0';
  if (out_length != NULL)
    *out_length = (gsize) length;
  return (char *) buf_steal_fit (&buf, &size);
}

/**
 * hr_gguf_check_value_type:
 * @p: the reader, for the message's position
 * @type: a metadata value type read from the file
 * @error: return location for a #GError
 *
 * Returns: %TRUE when @type is one of the 13 the GGUF spec defines;
 *   %FALSE with %HR_CORE_ERROR_UNSUPPORTED otherwise.
 */
gboolean
hr_gguf_check_value_type (Parser   *p,
                          guint32   type,
                          GError  **error)
{
  if (type >= HR_GGUF_N_TYPES)
    {
      g_autofree char *where = parser_describe (p);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                   _("%s has value type %u, which the GGUF specification does not define (0 to 12)"),
                   where, type);
      return FALSE;
    }
  return TRUE;
}

static gboolean append_array_body (Parser  *p,
                                   Buf     *buf,
                                   guint32  elem_type,
                                   guint64  count,
                                   guint    depth,
                                   GArray  *index,
                                   GError **error);

/* Reads an array's element type and count and checks them. */
static gboolean
read_array_head (Parser   *p,
                 guint     depth,
                 guint32  *out_type,
                 guint64  *out_count,
                 GError  **error)
{
  if (!hr_gguf_read_u32 (p, out_type, error) ||
      !hr_gguf_check_value_type (p, *out_type, error) ||
      !hr_gguf_read_u64 (p, out_count, error))
    return FALSE;

  if (*out_count > HR_GGUF_MAX_ARRAY_LENGTH)
    {
      g_autofree char *where = parser_describe (p);
      g_autofree char *count = hr_format_count (*out_count);
      g_autofree char *max = hr_format_count (HR_GGUF_MAX_ARRAY_LENGTH);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("an array of %s elements in %s is longer than the limit of %s"),
                   count, where, max);
      return FALSE;
    }

  if (*out_type == HR_GGUF_TYPE_ARRAY && depth + 1 >= HR_GGUF_MAX_ARRAY_DEPTH)
    {
      g_autofree char *where = parser_describe (p);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("arrays nest more than %d deep in %s"),
                   HR_GGUF_MAX_ARRAY_DEPTH, where);
      return FALSE;
    }
  return TRUE;
}

static gboolean
append_array_body (Parser  *p,
                   Buf     *buf,
                   guint32  elem_type,
                   guint64  count,
                   guint    depth,
                   GArray  *index,
                   GError **error)
{
  guint64 size = hr_gguf_type_sizes[elem_type];

  if (size != 0)
    {
      /* count <= 2^24 and size <= 8: no overflow */
      return check_header_cap (p, count * size, error) &&
             parser_read (p, NULL, buf, count * size, error);
    }

  for (guint64 i = 0; i < count; i++)
    {
      if (index != NULL && i % HR_GGUF_INDEX_STRIDE == 0)
        {
          guint64 offset = buf->len;
          g_array_append_val (index, offset);
        }

      if (elem_type == HR_GGUF_TYPE_STRING)
        {
          guint64 length;
          guint64 le;

          if (!hr_gguf_read_u64 (p, &length, error) ||
              !check_string_length (p, length, HR_GGUF_MAX_STRING_LENGTH, error))
            return FALSE;
          le = GUINT64_TO_LE (length);
          /* fast path: the whole string is in the window */
          if (G_LIKELY (p->len - p->pos >= length))
            {
              buf_reserve (buf, 8 + (gsize) length);
              memcpy (buf->data + buf->len, &le, 8);
              memcpy (buf->data + buf->len + 8, p->buf + p->pos, (gsize) length);
              buf->len += 8 + (gsize) length;
              p->pos += (gsize) length;
            }
          else
            {
              buf_reserve (buf, 8);
              memcpy (buf->data + buf->len, &le, 8);
              buf->len += 8;
              if (!parser_read (p, NULL, buf, length, error))
                return FALSE;
            }
        }
      else /* a nested array: stored as u32 type, u64 count, elements */
        {
          guint32 inner_type;
          guint64 inner_count;
          guint32 type_le;
          guint64 count_le;

          if (!read_array_head (p, depth + 1, &inner_type, &inner_count, error))
            return FALSE;
          type_le = GUINT32_TO_LE (inner_type);
          count_le = GUINT64_TO_LE (inner_count);
          buf_reserve (buf, 12);
          memcpy (buf->data + buf->len, &type_le, 4);
          memcpy (buf->data + buf->len + 4, &count_le, 8);
          buf->len += 12;
          if (!append_array_body (p, buf, inner_type, inner_count, depth + 1, NULL, error))
            return FALSE;
        }
    }

  return TRUE;
}

/* A number or bool of @type (little-endian, 1 to 8 bytes) into @value's
 * scalar: .u for unsigned and bool, .i for signed, .d for floats. */
static gboolean
read_scalar (Parser       *p,
             guint32       type,
             HrGgufValue  *value,
             GError      **error)
{
  guint8 raw[8];
  guint16 v16;
  guint32 v32;
  guint64 v64;
  float f;

  switch ((HrGgufType) type)
    {
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_BOOL:
    case HR_GGUF_TYPE_INT8:
      if (!parser_read (p, raw, NULL, 1, error))
        return FALSE;
      if (type == HR_GGUF_TYPE_INT8)
        value->scalar.i = (gint8) raw[0];
      else
        value->scalar.u = raw[0];
      return TRUE;
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_INT16:
      if (!parser_read (p, &v16, NULL, 2, error))
        return FALSE;
      v16 = GUINT16_FROM_LE (v16);
      if (type == HR_GGUF_TYPE_UINT16)
        value->scalar.u = v16;
      else
        value->scalar.i = (gint16) v16;
      return TRUE;
    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_FLOAT32:
      if (!hr_gguf_read_u32 (p, &v32, error))
        return FALSE;
      if (type == HR_GGUF_TYPE_UINT32)
        value->scalar.u = v32;
      else if (type == HR_GGUF_TYPE_INT32)
        value->scalar.i = (gint32) v32;
      else
        {
          memcpy (&f, &v32, 4);
          value->scalar.d = f;
        }
      return TRUE;
    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_INT64:
    case HR_GGUF_TYPE_FLOAT64:
      if (!hr_gguf_read_u64 (p, &v64, error))
        return FALSE;
      if (type == HR_GGUF_TYPE_UINT64)
        value->scalar.u = v64;
      else if (type == HR_GGUF_TYPE_INT64)
        value->scalar.i = (gint64) v64;
      else
        memcpy (&value->scalar.d, &v64, 8);
      return TRUE;
    case HR_GGUF_TYPE_STRING:
    case HR_GGUF_TYPE_ARRAY:
    case HR_GGUF_N_TYPES:
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

/* A string value: its bytes NUL-terminated in @value->data. */
static gboolean
read_string_value (Parser       *p,
                   HrGgufValue  *value,
                   GError      **error)
{
  gsize length;

  value->data = (guint8 *) hr_gguf_read_string (p, HR_GGUF_MAX_STRING_LENGTH, &length, error);
  if (value->data == NULL)
    return FALSE;
  value->length = length;
  value->data_size = length + 1;
  return TRUE;
}

/* An array value: its element type and count, its elements' raw bytes in
 * @value->data and, for elements of no fixed size, an offset every
 * %HR_GGUF_INDEX_STRIDE elements in @value->index. */
static gboolean
read_array_value (Parser       *p,
                  HrGgufValue  *value,
                  GError      **error)
{
  Buf buf = { NULL, 0, 0 };
  g_autoptr(GArray) index = NULL;
  guint32 elem_type;
  guint64 count;

  if (!read_array_head (p, 0, &elem_type, &count, error))
    return FALSE;
  if (hr_gguf_type_sizes[elem_type] == 0)
    index = g_array_sized_new (FALSE, FALSE, sizeof (guint64),
                               (guint) MIN (count / HR_GGUF_INDEX_STRIDE + 1, 4096));
  if (!append_array_body (p, &buf, elem_type, count, 0, index, error))
    {
      g_free (buf.data);
      return FALSE;
    }
  value->array_type = elem_type;
  value->length = count;
  value->data = buf_steal_fit (&buf, &value->data_size);
  if (index != NULL)
    value->index = (guint64 *) g_array_free (g_steal_pointer (&index), FALSE);
  return TRUE;
}

/**
 * hr_gguf_read_value:
 * @p: the reader
 * @type: the value's type (hr_gguf_check_value_type() passed)
 * @error: return location for a #GError
 *
 * Reads one metadata value: a scalar, a string, or an array (of arrays, at
 * most %HR_GGUF_MAX_ARRAY_DEPTH deep) kept as its raw bytes.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL with the
 *   reader's limit, truncation or I/O error.
 */
HrGgufValue *
hr_gguf_read_value (Parser   *p,
                    guint32   type,
                    GError  **error)
{
  g_autoptr(HrGgufValue) value = g_new0 (HrGgufValue, 1);
  gboolean read;

  value->type = type;

  switch ((HrGgufType) type)
    {
    case HR_GGUF_TYPE_STRING:
      read = read_string_value (p, value, error);
      break;
    case HR_GGUF_TYPE_ARRAY:
      read = read_array_value (p, value, error);
      break;
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_INT8:
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_INT16:
    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_FLOAT32:
    case HR_GGUF_TYPE_BOOL:
    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_INT64:
    case HR_GGUF_TYPE_FLOAT64:
      read = read_scalar (p, type, value, error);
      break;
    case HR_GGUF_N_TYPES:
    default:
      hr_gguf_check_value_type (p, type, error);
      return NULL;
    }

  return read ? g_steal_pointer (&value) : NULL;
}
