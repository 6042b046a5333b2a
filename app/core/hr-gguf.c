/* hr-gguf.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GGUF header parser. The byte layout is the GGUF specification's
 * (ggml docs/gguf.md, summarised in shared/reference/hf-hub.md):
 *
 *   u32 magic "GGUF", u32 version, u64 tensor_count, u64 metadata_kv_count,
 *   metadata_kv_count x (string key, u32 value type, value),
 *   tensor_count x (string name, u32 n_dims, u64 dims[n_dims], u32 ggml type,
 *                   u64 offset),
 *   padding to general.alignment, tensor data.
 *
 * Strings are u64 length + bytes (no NUL); arrays are u32 element type +
 * u64 count + elements. Everything is little-endian.
 *
 * Arrays are kept as the raw bytes the file holds, plus, for arrays whose
 * elements vary in size (strings, nested arrays), the offset of every
 * HR_GGUF_INDEX_STRIDE-th element. A 128,256-entry vocabulary thus costs
 * its own bytes plus 64 kB of index, and any token is a short walk away.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf.h"
#include "hr-precision.h"
#include "hr-units.h"

#define HR_GGUF_INDEX_STRIDE 16
#define READ_CHUNK           65536

struct _HrGgufValue {
  HrGgufType  type;
  HrGgufType  array_type; /* ARRAY only */
  guint64     length;     /* ARRAY: elements; STRING: bytes */
  union {
    guint64 u;
    gint64  i;
    double  d;
  } scalar;
  guint8     *data;       /* STRING: the bytes + NUL; ARRAY: the elements as stored */
  gsize       data_size;
  guint64    *index;      /* variable-size arrays: offset of element k x STRIDE */
};

struct _HrGgufFile {
  gatomicrefcount ref_count;
  guint32     version;
  guint64     alignment;
  guint64     header_bytes;
  guint64     data_offset;
  guint64     file_bytes;
  guint64     tensor_bytes;
  guint64     tensor_data_end;
  guint64     parameters;
  GPtrArray  *keys;       /* char* */
  GPtrArray  *values;     /* HrGgufValue* */
  GHashTable *key_index;  /* key -> index + 1 */
  GPtrArray  *tensors;    /* HrTensorInfo* */
  GArray     *offsets;    /* guint64, relative to data_offset */
  guint       n_shards;   /* 1, or the shards added with hr_gguf_file_add_shard() + 1 */
  GHashTable *tensor_names; /* borrowed names, for shards: name -> TRUE */
};

G_DEFINE_BOXED_TYPE (HrGgufFile, hr_gguf_file, hr_gguf_file_ref, hr_gguf_file_unref)

/* Bytes of one element of a fixed-size type; 0 for STRING and ARRAY. */
static const guint8 type_sizes[HR_GGUF_N_TYPES] = {
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
/* Growable byte storage                                                    */

typedef struct {
  guint8 *data;
  gsize   len;
  gsize   cap;
} Buf;

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

/* ------------------------------------------------------------------------ */
/* The reader: a window over a memory buffer or over a GInputStream          */

typedef enum {
  STAGE_MAGIC,
  STAGE_COUNTS,
  STAGE_KEY,
  STAGE_VALUE,
  STAGE_TENSOR,
} Stage;

typedef struct {
  GInputStream *stream;
  GCancellable *cancellable;
  const guint8 *buf;
  gsize         len;
  gsize         pos;
  guint8       *owned;
  guint64       base;     /* file offset of buf[0] */
  gboolean      eof;

  /* where we are, for messages */
  Stage         stage;
  guint64       entry;    /* metadata entry or tensor, 0-based */
  guint64       n_entries;
  const char   *key;      /* metadata key or tensor name being read */
} Parser;

static guint64
parser_offset (const Parser *p)
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

/* Makes at least one more byte available. FALSE with @error set on an I/O
 * error or cancellation; FALSE without an error at the end of the input. */
static gboolean
parser_refill (Parser  *p,
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

          if (!parser_refill (p, &local_error))
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

static gboolean
read_u32 (Parser   *p,
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

static gboolean
read_u64 (Parser   *p,
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

  if (!hr_add_u64 (parser_offset (p), more, &end) || end > HR_GGUF_MAX_HEADER_BYTES)
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

/* Reads a string into a new NUL-terminated buffer. */
static char *
read_string (Parser   *p,
             guint64   cap,
             gsize    *out_length,
             GError  **error)
{
  Buf buf = { NULL, 0, 0 };
  guint64 length;
  gsize size;

  if (!read_u64 (p, &length, error) ||
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

static gboolean
check_value_type (Parser   *p,
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
  if (!read_u32 (p, out_type, error) ||
      !check_value_type (p, *out_type, error) ||
      !read_u64 (p, out_count, error))
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
  guint64 size = type_sizes[elem_type];

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

          if (!read_u64 (p, &length, error) ||
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

static HrGgufValue *
read_value (Parser   *p,
            guint32   type,
            GError  **error)
{
  g_autoptr(HrGgufValue) value = g_new0 (HrGgufValue, 1);
  guint8 raw[8];

  value->type = type;

  switch ((HrGgufType) type)
    {
    case HR_GGUF_TYPE_UINT8:
    case HR_GGUF_TYPE_BOOL:
      if (!parser_read (p, raw, NULL, 1, error))
        return NULL;
      value->scalar.u = raw[0];
      break;
    case HR_GGUF_TYPE_INT8:
      if (!parser_read (p, raw, NULL, 1, error))
        return NULL;
      value->scalar.i = (gint8) raw[0];
      break;
    case HR_GGUF_TYPE_UINT16:
    case HR_GGUF_TYPE_INT16:
      {
        guint16 v;

        if (!parser_read (p, &v, NULL, 2, error))
          return NULL;
        v = GUINT16_FROM_LE (v);
        if (type == HR_GGUF_TYPE_UINT16)
          value->scalar.u = v;
        else
          value->scalar.i = (gint16) v;
      }
      break;
    case HR_GGUF_TYPE_UINT32:
    case HR_GGUF_TYPE_INT32:
    case HR_GGUF_TYPE_FLOAT32:
      {
        guint32 v;

        if (!read_u32 (p, &v, error))
          return NULL;
        if (type == HR_GGUF_TYPE_UINT32)
          value->scalar.u = v;
        else if (type == HR_GGUF_TYPE_INT32)
          value->scalar.i = (gint32) v;
        else
          {
            float f;

            memcpy (&f, &v, 4);
            value->scalar.d = f;
          }
      }
      break;
    case HR_GGUF_TYPE_UINT64:
    case HR_GGUF_TYPE_INT64:
    case HR_GGUF_TYPE_FLOAT64:
      {
        guint64 v;

        if (!read_u64 (p, &v, error))
          return NULL;
        if (type == HR_GGUF_TYPE_UINT64)
          value->scalar.u = v;
        else if (type == HR_GGUF_TYPE_INT64)
          value->scalar.i = (gint64) v;
        else
          memcpy (&value->scalar.d, &v, 8);
      }
      break;
    case HR_GGUF_TYPE_STRING:
      {
        gsize length;

        value->data = (guint8 *) read_string (p, HR_GGUF_MAX_STRING_LENGTH, &length, error);
        if (value->data == NULL)
          return NULL;
        value->length = length;
        value->data_size = length + 1;
      }
      break;
    case HR_GGUF_TYPE_ARRAY:
      {
        Buf buf = { NULL, 0, 0 };
        g_autoptr(GArray) index = NULL;
        guint32 elem_type;
        guint64 count;

        if (!read_array_head (p, 0, &elem_type, &count, error))
          return NULL;
        if (type_sizes[elem_type] == 0)
          index = g_array_sized_new (FALSE, FALSE, sizeof (guint64),
                                     (guint) MIN (count / HR_GGUF_INDEX_STRIDE + 1, 4096));
        if (!append_array_body (p, &buf, elem_type, count, 0, index, error))
          {
            g_free (buf.data);
            return NULL;
          }
        value->array_type = elem_type;
        value->length = count;
        value->data = buf_steal_fit (&buf, &value->data_size);
        if (index != NULL)
          value->index = (guint64 *) g_array_free (g_steal_pointer (&index), FALSE);
      }
      break;
    case HR_GGUF_N_TYPES:
    default:
      check_value_type (p, type, error);
      return NULL;
    }

  return g_steal_pointer (&value);
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
  if (type_sizes[type] != 0)
    return type_sizes[type];

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
      if (type_sizes[inner_type] != 0)
        return size + (gsize) count * type_sizes[inner_type];
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
  gsize size = type_sizes[value->array_type];

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

  if (value->type != HR_GGUF_TYPE_ARRAY || type_sizes[value->array_type] == 0)
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
      if (type_sizes[element->array_type] == 0)
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

/* ------------------------------------------------------------------------ */
/* The file                                                                 */

/**
 * hr_gguf_file_ref:
 * @file: a parsed header
 *
 * Returns: (transfer full): @file, with one more reference.
 */
HrGgufFile *
hr_gguf_file_ref (HrGgufFile *file)
{
  g_atomic_ref_count_inc (&file->ref_count);
  return file;
}

/**
 * hr_gguf_file_unref:
 * @file: (nullable): a parsed header
 *
 * Drops a reference; frees the header with the last one.
 */
void
hr_gguf_file_unref (HrGgufFile *file)
{
  if (file == NULL || !g_atomic_ref_count_dec (&file->ref_count))
    return;
  g_clear_pointer (&file->keys, g_ptr_array_unref);
  g_clear_pointer (&file->values, g_ptr_array_unref);
  g_clear_pointer (&file->key_index, g_hash_table_unref);
  g_clear_pointer (&file->tensors, g_ptr_array_unref);
  g_clear_pointer (&file->offsets, g_array_unref);
  g_clear_pointer (&file->tensor_names, g_hash_table_unref);
  g_free (file);
}

static HrGgufFile *
hr_gguf_file_new (void)
{
  HrGgufFile *file = g_new0 (HrGgufFile, 1);

  g_atomic_ref_count_init (&file->ref_count);
  file->alignment = HR_GGUF_DEFAULT_ALIGNMENT;
  file->keys = g_ptr_array_new_with_free_func (g_free);
  file->values = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_gguf_value_free);
  file->key_index = g_hash_table_new (g_str_hash, g_str_equal);
  file->tensors = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_tensor_info_free);
  file->offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  file->n_shards = 1;
  return file;
}

/* "PK\x03\x04": printable ASCII as is, anything else as \xNN. */
static char *
escape_magic (const guint8 *bytes,
              gsize         n)
{
  GString *out = g_string_new (NULL);

  for (gsize i = 0; i < n; i++)
    {
      if (bytes[i] >= 0x20 && bytes[i] < 0x7f && bytes[i] != '\'' && bytes[i] != '\\')
        g_string_append_c (out, (char) bytes[i]);
      else
        g_string_append_printf (out, "\\x%02X", bytes[i]);
    }
  return g_string_free (out, FALSE);
}

static gboolean
parse_preamble (Parser      *p,
                HrGgufFile  *file,
                guint64     *out_n_tensors,
                guint64     *out_n_kv,
                GError     **error)
{
  guint8 magic[4];
  gsize have = 0;
  guint32 version;

  p->stage = STAGE_MAGIC;
  while (have < 4)
    {
      GError *local_error = NULL;

      if (p->pos < p->len)
        {
          magic[have++] = p->buf[p->pos++];
          continue;
        }
      if (!parser_refill (p, &local_error))
        {
          if (local_error != NULL)
            {
              g_propagate_error (error, local_error);
              return FALSE;
            }
          if (have == 0)
            g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED,
                         _("not a GGUF file: it is empty"));
          else
            g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED,
                         g_dngettext (GETTEXT_PACKAGE,
                                      "not a GGUF file: it is only %u byte long",
                                      "not a GGUF file: it is only %u bytes long",
                                      (gulong) have),
                         (guint) have);
          return FALSE;
        }
    }

  if (memcmp (magic, HR_GGUF_MAGIC, 4) != 0)
    {
      g_autofree char *shown = escape_magic (magic, 4);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("not a GGUF file: the first four bytes are '%s', expected 'GGUF'"),
                   shown);
      return FALSE;
    }

  p->stage = STAGE_COUNTS;
  if (!read_u32 (p, &version, error))
    return FALSE;

  if (version == 1)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                   _("GGUF version 1 is not supported (it stored counts in 32 bits); "
                     "convert the file again with a current llama.cpp"));
      return FALSE;
    }
  if (version != 2 && version != 3)
    {
      guint32 swapped = GUINT32_SWAP_LE_BE (version);

      if (swapped >= 1 && swapped <= 3)
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                     _("this GGUF file is big-endian (its version reads as %u, which is %u byte-swapped); "
                       "Headroom reads little-endian GGUF files only"),
                     version, swapped);
      else
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                     _("GGUF version %u is not supported; Headroom reads versions 2 and 3"),
                     version);
      return FALSE;
    }
  file->version = version;

  if (!read_u64 (p, out_n_tensors, error) ||
      !read_u64 (p, out_n_kv, error))
    return FALSE;

  if (*out_n_tensors > HR_GGUF_MAX_TENSOR_COUNT)
    {
      g_autofree char *n = hr_format_count (*out_n_tensors);
      g_autofree char *max = hr_format_count (HR_GGUF_MAX_TENSOR_COUNT);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("the GGUF header claims %s tensors; the limit is %s"), n, max);
      return FALSE;
    }
  if (*out_n_kv > HR_GGUF_MAX_KV_COUNT)
    {
      g_autofree char *n = hr_format_count (*out_n_kv);
      g_autofree char *max = hr_format_count (HR_GGUF_MAX_KV_COUNT);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("the GGUF header claims %s metadata entries; the limit is %s"), n, max);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_metadata (Parser      *p,
                HrGgufFile  *file,
                guint64      n_kv,
                GError     **error)
{
  p->n_entries = n_kv;
  for (guint64 i = 0; i < n_kv; i++)
    {
      g_autofree char *key = NULL;
      HrGgufValue *value;
      gsize key_length;
      guint32 type;

      p->stage = STAGE_KEY;
      p->entry = i;
      p->key = NULL;
      key = read_string (p, HR_GGUF_MAX_STRING_LENGTH, &key_length, error);
      if (key == NULL)
        return FALSE;
      if (key_length == 0 || !g_utf8_validate_len (key, key_length, NULL))
        {
          g_autofree char *n = hr_format_count (i + 1);

          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("metadata entry %s has an empty key or one that is not UTF-8 text"), n);
          return FALSE;
        }
      if (g_hash_table_contains (file->key_index, key))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("the metadata key “%s” appears twice"), key);
          return FALSE;
        }

      p->stage = STAGE_VALUE;
      p->key = key;
      if (!read_u32 (p, &type, error) ||
          !check_value_type (p, type, error))
        return FALSE;
      value = read_value (p, type, error);
      if (value == NULL)
        return FALSE;

      g_ptr_array_add (file->values, value);
      g_hash_table_insert (file->key_index, key, GUINT_TO_POINTER (file->keys->len + 1));
      g_ptr_array_add (file->keys, g_steal_pointer (&key));
      p->key = NULL;
    }
  return TRUE;
}

static gboolean
parse_tensors (Parser      *p,
               HrGgufFile  *file,
               guint64      n_tensors,
               GError     **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  p->n_entries = n_tensors;
  p->stage = STAGE_TENSOR;
  for (guint64 i = 0; i < n_tensors; i++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GError) local_error = NULL;
      HrTensorInfo *info;
      guint64 dims[HR_GGUF_MAX_DIMS] = { 0 };
      guint64 elements = 1;
      guint32 n_dims, type;
      guint64 offset;
      gsize name_length;

      p->entry = i;
      p->key = NULL;
      name = read_string (p, HR_GGUF_MAX_TENSOR_NAME, &name_length, error);
      if (name == NULL)
        return FALSE;
      if (!g_utf8_validate_len (name, name_length, NULL))
        {
          g_autofree char *n = hr_format_count (i + 1);

          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("the name of tensor %s is not UTF-8 text"), n);
          return FALSE;
        }
      p->key = name;

      if (!read_u32 (p, &n_dims, error))
        return FALSE;
      if (n_dims > HR_GGUF_MAX_DIMS)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                       _("tensor “%s” has %u dimensions; GGUF allows at most %d"),
                       name, n_dims, HR_GGUF_MAX_DIMS);
          return FALSE;
        }
      if (n_dims == 0)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("tensor “%s” has no dimensions"), name);
          return FALSE;
        }
      for (guint32 d = 0; d < n_dims; d++)
        {
          if (!read_u64 (p, &dims[d], error))
            return FALSE;
          if (dims[d] > G_MAXINT64 || !hr_mul_u64 (elements, dims[d], &elements) || elements > G_MAXINT64)
            {
              g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                           _("tensor “%s” has dimensions whose product does not fit in 63 bits; "
                             "the header is corrupt"),
                           name);
              return FALSE;
            }
        }
      if (!read_u32 (p, &type, error))
        return FALSE;
      if (hr_ggml_type_info (type) == NULL)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                       _("tensor “%s” has ggml type %u, which this version of Headroom does not know"),
                       name, type);
          return FALSE;
        }
      if (!read_u64 (p, &offset, error))
        return FALSE;

      info = hr_tensor_info_new (name, type, n_dims, dims, &local_error);
      if (info == NULL)
        {
          g_set_error (error, HR_CORE_ERROR, local_error->code,
                       _("tensor “%s”: %s"), name, local_error->message);
          return FALSE;
        }
      g_ptr_array_add (file->tensors, info);
      g_array_append_val (file->offsets, offset);

      if (!g_hash_table_add (names, info->name))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("the tensor name “%s” appears twice"), name);
          return FALSE;
        }
    }
  p->key = NULL;
  return TRUE;
}

/* Alignment, data offset, and the tensor sums; checks the tensor offsets. */
static gboolean
finish_layout (HrGgufFile  *file,
               GError     **error)
{
  const HrGgufValue *value = hr_gguf_file_lookup (file, "general.alignment");
  guint64 padded;

  if (value != NULL)
    {
      guint64 alignment;

      if (!hr_gguf_value_get_uint64 (value, &alignment) ||
          value->type == HR_GGUF_TYPE_BOOL ||
          alignment == 0 || (alignment & (alignment - 1)) != 0 ||
          alignment > G_MAXUINT32)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("general.alignment must be a power of two that fits 32 bits; this file's is not"));
          return FALSE;
        }
      file->alignment = alignment;
    }

  if (!hr_add_u64 (file->header_bytes, file->alignment - 1, &padded))
    goto overflow;
  file->data_offset = padded / file->alignment * file->alignment;

  for (guint i = 0; i < file->tensors->len; i++)
    {
      const HrTensorInfo *info = g_ptr_array_index (file->tensors, i);
      guint64 offset = g_array_index (file->offsets, guint64, i);
      guint64 end;

      if (offset % file->alignment != 0)
        {
          g_autofree char *at = hr_format_count (offset);

          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("tensor “%s” starts at data offset %s, which is not a multiple of the alignment (%u bytes)"),
                       info->name, at, (guint) file->alignment);
          return FALSE;
        }
      if (!hr_add_u64 (offset, info->bytes, &end) ||
          !hr_add_u64 (end, file->data_offset, &end) ||
          !hr_add_u64 (file->tensor_bytes, info->bytes, &file->tensor_bytes) ||
          !hr_add_u64 (file->parameters, info->elements, &file->parameters))
        goto overflow;
      file->tensor_data_end = MAX (file->tensor_data_end, end);
    }
  return TRUE;

overflow:
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
               _("the tensor offsets and sizes add up past 64 bits; the header is corrupt"));
  return FALSE;
}

static HrGgufFile *
parse (Parser  *p,
       GError **error)
{
  g_autoptr(HrGgufFile) file = hr_gguf_file_new ();
  guint64 n_tensors = 0, n_kv = 0;

  if (!parse_preamble (p, file, &n_tensors, &n_kv, error) ||
      !parse_metadata (p, file, n_kv, error) ||
      !parse_tensors (p, file, n_tensors, error))
    return NULL;

  file->header_bytes = parser_offset (p);
  if (!finish_layout (file, error))
    return NULL;
  return g_steal_pointer (&file);
}

/**
 * hr_gguf_file_parse_stream:
 * @stream: a stream positioned at the first byte of a GGUF file
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads a GGUF header from @stream, in 64 kB reads, and stops at the end
 * of the tensor list: the tensor data is never read (at most 64 kB past
 * the header may be consumed from @stream). The file size is unknown to
 * this call; set it with hr_gguf_file_set_file_bytes().
 *
 * Returns: (transfer full) (nullable): the header, or %NULL with @error
 *   set: %HR_CORE_ERROR_PARSE (wrong magic), %HR_CORE_ERROR_UNSUPPORTED
 *   (version 1, a big-endian file, another version, an undefined value
 *   type, an unknown ggml tensor type), %HR_CORE_ERROR_TRUNCATED (the
 *   input ends inside the header), %HR_CORE_ERROR_LIMIT (a count, length,
 *   nesting depth, dimension count or the header size past the
 *   HR_GGUF_MAX_* caps), %HR_CORE_ERROR_OVERFLOW (dimensions or offsets
 *   whose products or sums overflow), %HR_CORE_ERROR_INVALID_DATA
 *   (duplicate or non-UTF-8 keys and names, a bad alignment, a misaligned
 *   tensor, a row that is not a whole number of blocks), or a #GIOError
 *   from @stream (%G_IO_ERROR_CANCELLED when cancelled).
 */
HrGgufFile *
hr_gguf_file_parse_stream (GInputStream  *stream,
                           GCancellable  *cancellable,
                           GError       **error)
{
  Parser p = { 0 };
  HrGgufFile *file;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  p.stream = stream;
  p.cancellable = cancellable;
  file = parse (&p, error);
  g_free (p.owned);
  return file;
}

/**
 * hr_gguf_file_parse_data:
 * @data: (array length=length): the first @length bytes of a GGUF file
 * @length: bytes in @data; a prefix of the file is enough when it holds
 *   the whole header (a Range request's answer, say)
 * @error: return location for a #GError
 *
 * Parses a GGUF header held in memory. @data is not kept.
 *
 * Returns: (transfer full) (nullable): the header, or %NULL with @error
 *   set, as for hr_gguf_file_parse_stream() (%HR_CORE_ERROR_TRUNCATED when
 *   @data ends inside the header: fetch more bytes and try again).
 */
HrGgufFile *
hr_gguf_file_parse_data (const guint8  *data,
                         gsize          length,
                         GError       **error)
{
  Parser p = { 0 };

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  p.buf = data;
  p.len = length;
  return parse (&p, error);
}

/**
 * hr_gguf_file_load:
 * @path: a GGUF file on disk (an Ollama blob, a llama.cpp download)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads only the header of the file at @path (a 9 GB model costs a few
 * megabytes of reading) and records the file's size.
 *
 * Returns: (transfer full) (nullable): the header, or %NULL with @error
 *   set: a #GIOError when the file cannot be opened or read, else as for
 *   hr_gguf_file_parse_stream(); a message names @path.
 */
HrGgufFile *
hr_gguf_file_load (const char    *path,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GFile) gfile = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local_error = NULL;
  HrGgufFile *file;

  stream = g_file_read (gfile, cancellable, error);
  if (stream == NULL)
    return NULL;
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                         cancellable, error);
  if (info == NULL)
    return NULL;

  file = hr_gguf_file_parse_stream (G_INPUT_STREAM (stream), cancellable, &local_error);
  if (file == NULL)
    {
      g_autofree char *display = g_filename_display_name (path);

      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, local_error->domain, local_error->code,
                     "%s: %s", display, local_error->message);
      return NULL;
    }
  file->file_bytes = (guint64) g_file_info_get_size (info);
  return file;
}

/**
 * hr_gguf_file_get_version:
 * @file: a parsed header
 *
 * Returns: the GGUF version, 2 or 3.
 */
guint32
hr_gguf_file_get_version (const HrGgufFile *file)
{
  return file->version;
}

/**
 * hr_gguf_file_get_alignment:
 * @file: a parsed header
 *
 * Returns: the tensor data alignment in bytes: `general.alignment`, or 32
 *   when absent (GGUF spec).
 */
guint64
hr_gguf_file_get_alignment (const HrGgufFile *file)
{
  return file->alignment;
}

/**
 * hr_gguf_file_get_header_bytes:
 * @file: a parsed header
 *
 * Returns: the bytes from the magic to the end of the tensor list.
 */
guint64
hr_gguf_file_get_header_bytes (const HrGgufFile *file)
{
  return file->header_bytes;
}

/**
 * hr_gguf_file_get_data_offset:
 * @file: a parsed header
 *
 * Returns: the file offset of the tensor data: the header size rounded up
 *   to the alignment. Tensor offsets count from here.
 */
guint64
hr_gguf_file_get_data_offset (const HrGgufFile *file)
{
  return file->data_offset;
}

/**
 * hr_gguf_file_get_file_bytes:
 * @file: a parsed header
 *
 * Returns: the size of the whole file in bytes, or 0 when unknown (parsed
 *   from a stream or from memory and not set).
 */
guint64
hr_gguf_file_get_file_bytes (const HrGgufFile *file)
{
  return file->file_bytes;
}

/**
 * hr_gguf_file_set_file_bytes:
 * @file: a parsed header
 * @file_bytes: the size of the whole file in bytes (a Content-Range total,
 *   a manifest's layer size)
 *
 * Records the file's size for the effective bits per parameter.
 */
void
hr_gguf_file_set_file_bytes (HrGgufFile *file,
                             guint64     file_bytes)
{
  file->file_bytes = file_bytes;
}

/**
 * hr_gguf_file_get_n_metadata:
 * @file: a parsed header
 *
 * Returns: the number of metadata key/values.
 */
guint
hr_gguf_file_get_n_metadata (const HrGgufFile *file)
{
  return file->keys->len;
}

/**
 * hr_gguf_file_get_metadata:
 * @file: a parsed header
 * @index: 0-based, in file order
 * @out_key: (out) (optional) (transfer none): the key
 *
 * Returns: (transfer none): the value of metadata entry @index.
 */
const HrGgufValue *
hr_gguf_file_get_metadata (const HrGgufFile  *file,
                           guint              index,
                           const char       **out_key)
{
  g_return_val_if_fail (index < file->keys->len, NULL);

  if (out_key != NULL)
    *out_key = g_ptr_array_index (file->keys, index);
  return g_ptr_array_index (file->values, index);
}

/**
 * hr_gguf_file_lookup:
 * @file: a parsed header
 * @key: a metadata key ("llama.block_count")
 *
 * Returns: (nullable) (transfer none): the value, or %NULL when absent.
 */
const HrGgufValue *
hr_gguf_file_lookup (const HrGgufFile *file,
                     const char       *key)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (file->key_index, key));

  if (index == 0)
    return NULL;
  return g_ptr_array_index (file->values, index - 1);
}

/**
 * hr_gguf_file_get_string:
 * @file: a parsed header
 * @key: a metadata key
 *
 * Returns: (nullable) (transfer none): the STRING value of @key, or %NULL
 *   when absent or of another type.
 */
const char *
hr_gguf_file_get_string (const HrGgufFile *file,
                         const char       *key)
{
  const HrGgufValue *value = hr_gguf_file_lookup (file, key);

  return value != NULL ? hr_gguf_value_get_string (value, NULL) : NULL;
}

/**
 * hr_gguf_file_get_uint:
 * @file: a parsed header
 * @key: a metadata key
 * @out_value: (out): the value
 *
 * Returns: %TRUE when @key holds a non-negative integer of any width.
 */
gboolean
hr_gguf_file_get_uint (const HrGgufFile *file,
                       const char       *key,
                       guint64          *out_value)
{
  const HrGgufValue *value = hr_gguf_file_lookup (file, key);

  return value != NULL && value->type != HR_GGUF_TYPE_BOOL &&
         hr_gguf_value_get_uint64 (value, out_value);
}

/**
 * hr_gguf_file_get_n_tensors:
 * @file: a parsed header
 *
 * Returns: the number of tensors in this file.
 */
guint
hr_gguf_file_get_n_tensors (const HrGgufFile *file)
{
  return file->tensors->len;
}

/**
 * hr_gguf_file_get_tensor:
 * @file: a parsed header
 * @index: 0-based, in file order
 *
 * Returns: (transfer none): the tensor's name, type, shape, element count
 *   and exact bytes (hr_ggml_tensor_bytes()).
 */
const HrTensorInfo *
hr_gguf_file_get_tensor (const HrGgufFile *file,
                         guint             index)
{
  g_return_val_if_fail (index < file->tensors->len, NULL);
  return g_ptr_array_index (file->tensors, index);
}

/**
 * hr_gguf_file_get_tensor_offset:
 * @file: a parsed header
 * @index: 0-based, in file order
 *
 * Returns: the tensor's offset in bytes from the start of the tensor data
 *   (hr_gguf_file_get_data_offset()); G_MAXUINT64 for a tensor added from
 *   another shard (hr_gguf_file_add_shard()).
 */
guint64
hr_gguf_file_get_tensor_offset (const HrGgufFile *file,
                                guint             index)
{
  g_return_val_if_fail (index < file->offsets->len, 0);
  return g_array_index (file->offsets, guint64, index);
}

/**
 * hr_gguf_file_get_tensor_bytes:
 * @file: a parsed header
 *
 * Returns: the exact bytes of all tensors, summed from their ggml block
 *   sizes (padding between tensors not included).
 */
guint64
hr_gguf_file_get_tensor_bytes (const HrGgufFile *file)
{
  return file->tensor_bytes;
}

/**
 * hr_gguf_file_get_tensor_data_end:
 * @file: a parsed header
 *
 * Returns: the file offset where the last tensor's data ends; a file
 *   shorter than this is incomplete (or a header-only copy).
 */
guint64
hr_gguf_file_get_tensor_data_end (const HrGgufFile *file)
{
  return file->tensor_data_end;
}

/**
 * hr_gguf_file_get_parameters:
 * @file: a parsed header
 *
 * There is no parameter-count key in the GGUF spec: the count is the sum of
 * every tensor's elements (hf-hub.md, "GGUF header"). For a split file it
 * covers this shard only.
 *
 * Returns: the parameter count.
 */
guint64
hr_gguf_file_get_parameters (const HrGgufFile *file)
{
  return file->parameters;
}

/**
 * hr_gguf_file_count_tensors_of_type:
 * @file: a parsed header
 * @ggml_type: a ggml type id (#HrGgmlType)
 * @out_bytes: (out) (optional): the exact bytes of those tensors
 *
 * Returns: how many tensors are stored as @ggml_type.
 */
guint
hr_gguf_file_count_tensors_of_type (const HrGgufFile *file,
                                    guint32           ggml_type,
                                    guint64          *out_bytes)
{
  guint count = 0;
  guint64 bytes = 0;

  for (guint i = 0; i < file->tensors->len; i++)
    {
      const HrTensorInfo *info = g_ptr_array_index (file->tensors, i);

      if (info->type == ggml_type)
        {
          count++;
          bytes += info->bytes; /* cannot overflow: the total did not */
        }
    }
  if (out_bytes != NULL)
    *out_bytes = bytes;
  return count;
}

/**
 * hr_gguf_file_get_split:
 * @file: a parsed header
 * @out_index: (out) (optional): this shard, 0-based (`split.no`)
 * @out_count: (out) (optional): the number of shards (`split.count`)
 *
 * Split files (`NAME-00001-of-00003.gguf`, from llama.cpp's gguf-split)
 * carry the metadata in the first shard and tensors in every shard; their
 * tensor figures must be summed across shards.
 *
 * Returns: %TRUE when the file is one shard of a split model with more than
 *   one shard.
 */
gboolean
hr_gguf_file_get_split (const HrGgufFile *file,
                        guint32          *out_index,
                        guint32          *out_count)
{
  guint64 count = 0, index = 0;

  if (!hr_gguf_file_get_uint (file, "split.count", &count) || count <= 1)
    return FALSE;
  hr_gguf_file_get_uint (file, "split.no", &index);
  if (out_index != NULL)
    *out_index = (guint32) MIN (index, G_MAXUINT32);
  if (out_count != NULL)
    *out_count = (guint32) MIN (count, G_MAXUINT32);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Tokenizer facts                                                          */

/* llama.cpp's llama_token_type (llama-vocab.h): 3 CONTROL, 4 USER_DEFINED. */
#define TOKEN_TYPE_CONTROL      3
#define TOKEN_TYPE_USER_DEFINED 4

/**
 * hr_gguf_tokenizer_free:
 * @tokenizer: (nullable): tokenizer facts
 *
 * Frees @tokenizer.
 */
void
hr_gguf_tokenizer_free (HrGgufTokenizer *tokenizer)
{
  if (tokenizer == NULL)
    return;
  g_free (tokenizer->model);
  g_free (tokenizer->pre);
  g_free (tokenizer->bos_token);
  g_free (tokenizer->eos_token);
  g_clear_pointer (&tokenizer->chat_markers, g_ptr_array_unref);
  g_free (tokenizer);
}

static char *
dup_token (const HrGgufValue *tokens,
           guint64            id)
{
  const char *text;
  gsize length;

  if (tokens == NULL)
    return NULL;
  text = hr_gguf_value_get_array_string (tokens, id, &length);
  if (text == NULL)
    return NULL;
  return g_utf8_make_valid (text, (gssize) length);
}

/* <|im_start|>, <start_of_turn>, [INST]: bracketed, short, no spaces. */
static gboolean
looks_special (const char *text,
               gsize       length)
{
  if (length < 3 || length > 64)
    return FALSE;
  if (!((text[0] == '<' && text[length - 1] == '>') ||
        (text[0] == '[' && text[length - 1] == ']')))
    return FALSE;
  for (gsize i = 1; i + 1 < length; i++)
    if (g_ascii_isspace (text[i]) || (guchar) text[i] < 0x20 || text[i] == '<' || text[i] == '[')
      return FALSE;
  return TRUE;
}

typedef struct {
  gsize  position;
  char  *text;
} Marker;

static int
compare_markers (gconstpointer a,
                 gconstpointer b)
{
  const Marker *ma = a, *mb = b;

  if (ma->position != mb->position)
    return ma->position < mb->position ? -1 : 1;
  return strcmp (ma->text, mb->text);
}

static GPtrArray *
find_chat_markers (const HrGgufValue *tokens,
                   const HrGgufValue *types,
                   const char        *template,
                   gsize              template_length)
{
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Marker));
  GPtrArray *markers = g_ptr_array_new_with_free_func (g_free);
  const guint8 *at;

  if (tokens == NULL || hr_gguf_value_get_array_type (tokens) != HR_GGUF_TYPE_STRING)
    return markers;
  if (types != NULL && (type_sizes[hr_gguf_value_get_array_type (types)] == 0 ||
                        hr_gguf_value_get_array_type (types) == HR_GGUF_TYPE_BOOL ||
                        hr_gguf_value_get_array_length (types) != tokens->length))
    types = NULL;

  /* Walk the raw vocabulary once: u64 length + bytes per token. */
  at = tokens->data;
  for (guint64 id = 0; id < tokens->length; id++)
    {
      guint64 length;
      const char *text = (const char *) at + 8;
      const char *hit;
      gint64 type;
      char needle[65];

      memcpy (&length, at, 8);
      length = GUINT64_FROM_LE (length);
      at += 8 + length;

      if (!looks_special (text, (gsize) length))
        continue;
      if (types != NULL && hr_gguf_value_get_array_int64 (types, id, &type) &&
          type != TOKEN_TYPE_CONTROL && type != TOKEN_TYPE_USER_DEFINED)
        continue;

      memcpy (needle, text, (gsize) length);
      needle[length] = '\0';
      hit = g_strstr_len (template, (gssize) template_length, needle);
      if (hit != NULL)
        {
          Marker marker = { (gsize) (hit - template), g_strdup (needle) };

          g_array_append_val (found, marker);
        }
    }

  g_array_sort (found, compare_markers);
  for (guint i = 0; i < found->len; i++)
    {
      char *text = g_array_index (found, Marker, i).text;

      /* a vocabulary may hold the same text under two ids: list it once */
      if (g_ptr_array_find_with_equal_func (markers, text, g_str_equal, NULL))
        g_free (text);
      else
        g_ptr_array_add (markers, text);
    }
  return markers;
}

/**
 * hr_gguf_file_get_tokenizer:
 * @file: a parsed header
 *
 * Reads the tokenizer facts the seed's week-2 script printed: the
 * tokenizer model (`tokenizer.ggml.model`) and pre-tokenizer
 * (`tokenizer.ggml.pre`), the vocabulary size (the length of
 * `tokenizer.ggml.tokens`), the BOS and EOS ids (`tokenizer.ggml.bos_token_id`,
 * `eos_token_id`) with their strings, and whether `tokenizer.chat_template`
 * is present. The chat markers are the vocabulary's special-looking tokens
 * (bracketed like `<|im_start|>`, `<start_of_turn>` or `[INST]`, and of
 * type CONTROL or USER_DEFINED when `tokenizer.ggml.token_type` is present)
 * that occur in the template, in the order they first occur.
 *
 * Returns: (transfer full): the facts; absent keys leave their fields
 *   %NULL, 0 or %FALSE.
 */
HrGgufTokenizer *
hr_gguf_file_get_tokenizer (const HrGgufFile *file)
{
  HrGgufTokenizer *tok = g_new0 (HrGgufTokenizer, 1);
  const HrGgufValue *tokens = hr_gguf_file_lookup (file, "tokenizer.ggml.tokens");
  const HrGgufValue *merges = hr_gguf_file_lookup (file, "tokenizer.ggml.merges");
  const HrGgufValue *template = hr_gguf_file_lookup (file, "tokenizer.chat_template");
  const char *text;
  guint64 id;

  if (tokens != NULL && hr_gguf_value_get_array_type (tokens) != HR_GGUF_TYPE_STRING)
    tokens = NULL;

  if ((text = hr_gguf_file_get_string (file, "tokenizer.ggml.model")) != NULL)
    tok->model = g_utf8_make_valid (text, -1);
  if ((text = hr_gguf_file_get_string (file, "tokenizer.ggml.pre")) != NULL)
    tok->pre = g_utf8_make_valid (text, -1);
  tok->vocab_size = tokens != NULL ? tokens->length : 0;
  tok->merges = merges != NULL ? hr_gguf_value_get_array_length (merges) : 0;

  if (hr_gguf_file_get_uint (file, "tokenizer.ggml.bos_token_id", &id) && id <= G_MAXUINT32)
    {
      tok->has_bos = TRUE;
      tok->bos_id = (guint32) id;
      tok->bos_token = dup_token (tokens, id);
    }
  if (hr_gguf_file_get_uint (file, "tokenizer.ggml.eos_token_id", &id) && id <= G_MAXUINT32)
    {
      tok->has_eos = TRUE;
      tok->eos_id = (guint32) id;
      tok->eos_token = dup_token (tokens, id);
    }

  if (template != NULL && template->type == HR_GGUF_TYPE_STRING)
    {
      tok->has_chat_template = TRUE;
      tok->chat_template_length = (gsize) template->length;
      tok->chat_markers = find_chat_markers (tokens,
                                             hr_gguf_file_lookup (file, "tokenizer.ggml.token_type"),
                                             (const char *) template->data,
                                             (gsize) template->length);
    }
  else
    tok->chat_markers = g_ptr_array_new_with_free_func (g_free);

  return tok;
}

/* ------------------------------------------------------------------------ */
/* The model spec                                                           */

/** HR_GGUF_MAX_LAYERS: most blocks a model spec accepts from a header. */
#define HR_GGUF_MAX_LAYERS 65536

typedef struct {
  const HrGgufFile *file;
  const char       *arch;
  HrModelSpec      *spec;
} Mapper;

static char *
arch_key (const Mapper *m,
          const char   *suffix)
{
  return g_strconcat (m->arch, ".", suffix, NULL);
}

/* A scalar count under "{arch}.{suffix}" that fits 32 bits. Returns FALSE
 * with @error set when present but unusable; *out_found tells presence. */
static gboolean
get_u32 (const Mapper  *m,
         const char    *suffix,
         guint32       *out_value,
         gboolean      *out_found,
         GError       **error)
{
  g_autofree char *key = arch_key (m, suffix);
  const HrGgufValue *value = hr_gguf_file_lookup (m->file, key);
  guint64 v;

  *out_found = FALSE;
  if (value == NULL)
    return TRUE;
  if (value->type == HR_GGUF_TYPE_BOOL || !hr_gguf_value_get_uint64 (value, &v))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s should be a non-negative integer; it is a %s"),
                   key, hr_gguf_type_to_string (value->type));
      return FALSE;
    }
  if (v > G_MAXUINT32)
    {
      g_autofree char *n = hr_format_count (v);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s is %s, past any real model"), key, n);
      return FALSE;
    }
  *out_value = (guint32) v;
  *out_found = TRUE;
  return TRUE;
}

static void
set_source (Mapper      *m,
            HrSpecField  field,
            const char  *suffix)
{
  g_autofree char *source = g_strdup_printf ("GGUF %s.%s", m->arch, suffix);

  hr_model_spec_set_source (m->spec, field, source);
}

/* A per-layer count: a scalar, or an array with one integer per layer.
 * Sets *out_max, and *out_layers (guint32 per layer) for an array. */
static gboolean
get_per_layer (const Mapper  *m,
               const char    *suffix,
               guint32        layers,
               guint32       *out_max,
               GArray       **out_layers,
               gboolean      *out_found,
               GError       **error)
{
  g_autofree char *key = arch_key (m, suffix);
  const HrGgufValue *value = hr_gguf_file_lookup (m->file, key);
  g_autoptr(GArray) per_layer = NULL;
  guint32 max = 0;

  *out_layers = NULL;
  if (value == NULL || value->type != HR_GGUF_TYPE_ARRAY)
    return get_u32 (m, suffix, out_max, out_found, error);

  *out_found = FALSE;
  if (value->length != layers || type_sizes[value->array_type] == 0 ||
      value->array_type == HR_GGUF_TYPE_BOOL)
    {
      g_autofree char *n = hr_format_count (value->length);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s is an array of %s %s values; a per-layer array needs one integer for each of the %u layers"),
                   key, n, hr_gguf_type_to_string (value->array_type), layers);
      return FALSE;
    }

  per_layer = g_array_sized_new (FALSE, FALSE, sizeof (guint32), layers);
  for (guint32 i = 0; i < layers; i++)
    {
      guint64 v;
      guint32 v32;

      if (!hr_gguf_value_get_array_uint64 (value, i, &v) || v > G_MAXUINT32)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("%s has an unusable value for layer %u"), key, i);
          return FALSE;
        }
      v32 = (guint32) v;
      g_array_append_val (per_layer, v32);
      max = MAX (max, v32);
    }
  *out_max = max;
  *out_layers = g_steal_pointer (&per_layer);
  *out_found = TRUE;
  return TRUE;
}

/* Which layers use the sliding window: the file's own per-layer pattern
 * when present, else llama.cpp's rule for the architecture
 * (src/llama-model.cpp, hparams.set_swa_pattern: gemma2 every other layer
 * from layer 0, gemma3 five of every six). */
static void
map_layer_sliding (Mapper *m)
{
  g_autofree char *key = arch_key (m, "attention.sliding_window_pattern");
  const HrGgufValue *value = hr_gguf_file_lookup (m->file, key);
  HrModelSpec *spec = m->spec;
  guint64 period = 0;
  const char *source = NULL;

  if (spec->sliding_window == 0 || spec->layers == 0)
    return;

  if (value != NULL && value->type == HR_GGUF_TYPE_ARRAY &&
      value->length == spec->layers && type_sizes[value->array_type] != 0)
    {
      spec->layer_sliding = g_array_sized_new (FALSE, FALSE, sizeof (guint8), spec->layers);
      for (guint32 i = 0; i < spec->layers; i++)
        {
          guint64 v = 0;
          guint8 sliding;

          hr_gguf_value_get_array_uint64 (value, i, &v);
          sliding = v != 0;
          g_array_append_val (spec->layer_sliding, sliding);
        }
      source = key;
      goto record;
    }

  if (value != NULL && value->type != HR_GGUF_TYPE_ARRAY && value->type != HR_GGUF_TYPE_BOOL &&
      hr_gguf_value_get_uint64 (value, &period) && period >= 2 && period <= spec->layers)
    source = key;
  else if (g_strcmp0 (m->arch, "gemma2") == 0)
    period = 2, source = "llama.cpp rule: gemma2 alternates sliding and global layers";
  else if (g_strcmp0 (m->arch, "gemma3") == 0)
    period = 6, source = "llama.cpp rule: gemma3 has 5 sliding layers per global layer";
  else
    return;

  spec->layer_sliding = g_array_sized_new (FALSE, FALSE, sizeof (guint8), spec->layers);
  for (guint32 i = 0; i < spec->layers; i++)
    {
      guint8 sliding = (i % period) < (period - 1);

      g_array_append_val (spec->layer_sliding, sliding);
    }

record:
  {
    g_autofree char *combined = g_strdup_printf ("GGUF %s.attention.sliding_window; sliding layers: %s%s",
                                                 m->arch, source == key ? "GGUF " : "", source);

    hr_model_spec_set_source (spec, HR_SPEC_FIELD_SLIDING_WINDOW, combined);
  }
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
 * of hf-hub.md, "GGUF header"): layers `{arch}.block_count`; heads
 * `{arch}.attention.head_count`; KV heads `{arch}.attention.head_count_kv`
 * (absent = heads; an array gives #HrModelSpec.layer_kv_heads, 0 for
 * layers without attention, and its largest value); key and value lengths
 * `{arch}.attention.key_length` / `value_length` (absent = embedding
 * length / heads); embedding `{arch}.embedding_length`; native context
 * `{arch}.context_length`; sliding window `{arch}.attention.sliding_window`
 * with #HrModelSpec.layer_sliding from the file's
 * `{arch}.attention.sliding_window_pattern` or llama.cpp's gemma2/gemma3
 * rule; vocabulary the length of `tokenizer.ggml.tokens`; experts
 * `{arch}.expert_count` and `expert_used_count`; tied embeddings when
 * there is no `output.weight` tensor; the precision from
 * `general.file_type` (hr_ggml_file_type_label()); the parameter count
 * summed from the tensor shapes (the spec has no key for it); the file
 * size from hr_gguf_file_get_file_bytes(). Each field's source names the
 * key it came from.
 *
 * Returns: (transfer full) (nullable): the spec, or %NULL with @error set:
 *   %HR_CORE_ERROR_INVALID_DATA when `general.architecture` is missing or
 *   a count key has the wrong type, an impossible value, or a per-layer
 *   array of the wrong length; %HR_CORE_ERROR_LIMIT for more than 65,536
 *   layers.
 */
HrModelSpec *
hr_gguf_file_to_model_spec (const HrGgufFile  *file,
                            const char        *name,
                            const char        *origin,
                            GError           **error)
{
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GPtrArray) tensors = NULL;
  const HrGgufValue *tokens;
  const char *arch = hr_gguf_file_get_string (file, "general.architecture");
  Mapper m;
  guint32 v;
  guint32 heads = 0;
  gboolean found;
  guint64 file_type;
  gboolean has_output = FALSE, has_embd = FALSE;
  GArray *per_layer = NULL;

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
  m.file = file;
  m.arch = arch;
  m.spec = spec;
  spec->architecture = g_strdup (arch);
  spec->origin = g_strdup (origin);

  spec->parameters = file->parameters;
  hr_model_spec_set_source (spec, HR_SPEC_FIELD_PARAMETERS, "GGUF tensor shapes (sum of elements)");

  if (hr_gguf_file_get_uint (file, "general.file_type", &file_type) && file_type <= G_MAXUINT32)
    {
      const char *label = hr_ggml_file_type_label ((guint32) file_type);
      const HrPrecision *precision = label != NULL ? hr_precision_lookup (label) : NULL;

      /* llama.cpp's F32 and F16 file types are the fp32 and fp16 precisions. */
      if (precision == NULL && g_strcmp0 (label, "F32") == 0)
        precision = hr_precision_lookup ("fp32");
      else if (precision == NULL && g_strcmp0 (label, "F16") == 0)
        precision = hr_precision_lookup ("fp16");

      if (label != NULL)
        {
          g_autofree char *source = g_strdup_printf ("GGUF general.file_type = %u",
                                                     (guint) file_type);

          spec->precision = g_strdup (precision != NULL ? precision->id : label);
          hr_model_spec_set_source (spec, HR_SPEC_FIELD_PRECISION, source);
        }
    }

  if (file->file_bytes > 0)
    {
      spec->file_bytes = file->file_bytes;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_FILE_BYTES, "GGUF file size");
    }

  if (!get_u32 (&m, "block_count", &v, &found, error))
    return NULL;
  if (found)
    {
      if (v > HR_GGUF_MAX_LAYERS)
        {
          g_autofree char *n = hr_format_count (v);

          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                       _("%s.block_count is %s; Headroom accepts at most 65,536 layers"), arch, n);
          return NULL;
        }
      spec->layers = v;
      set_source (&m, HR_SPEC_FIELD_LAYERS, "block_count");
    }

  if (!get_u32 (&m, "embedding_length", &v, &found, error))
    return NULL;
  if (found)
    {
      spec->embedding_length = v;
      set_source (&m, HR_SPEC_FIELD_EMBEDDING_LENGTH, "embedding_length");
    }

  /* n_ff for the runtime model's compute-buffer estimate; a per-layer array
   * (some architectures vary it) is left to the estimate's own fallback. */
  {
    g_autoptr(GError) ff_error = NULL;

    if (get_u32 (&m, "feed_forward_length", &v, &found, &ff_error) && found)
      spec->feed_forward_length = v;
  }

  if (!get_per_layer (&m, "attention.head_count", spec->layers, &heads, &per_layer, &found, error))
    return NULL;
  g_clear_pointer (&per_layer, g_array_unref); /* the spec keeps one head count */
  if (found)
    {
      spec->heads = heads;
      set_source (&m, HR_SPEC_FIELD_HEADS, "attention.head_count");
    }

  if (!get_per_layer (&m, "attention.head_count_kv", spec->layers, &v, &per_layer, &found, error))
    return NULL;
  if (found)
    {
      spec->kv_heads = v;
      spec->layer_kv_heads = per_layer;
      set_source (&m, HR_SPEC_FIELD_KV_HEADS,
                  per_layer != NULL ? "attention.head_count_kv (per layer)" : "attention.head_count_kv");
    }
  else if (spec->heads > 0)
    {
      g_autofree char *source = g_strdup_printf ("GGUF %s.attention.head_count (no head_count_kv)", arch);

      spec->kv_heads = spec->heads;
      hr_model_spec_set_source (spec, HR_SPEC_FIELD_KV_HEADS, source);
    }

  if (!get_u32 (&m, "attention.key_length", &v, &found, error))
    return NULL;
  if (found)
    {
      spec->key_length = v;
      set_source (&m, HR_SPEC_FIELD_KEY_LENGTH, "attention.key_length");
    }
  if (!get_u32 (&m, "attention.value_length", &v, &found, error))
    return NULL;
  if (found)
    {
      spec->value_length = v;
      set_source (&m, HR_SPEC_FIELD_VALUE_LENGTH, "attention.value_length");
    }
  if (spec->heads > 0 && spec->embedding_length > 0)
    {
      g_autofree char *source = g_strdup_printf ("GGUF %s.embedding_length / %s.attention.head_count",
                                                 arch, arch);

      if (spec->key_length == 0)
        {
          spec->key_length = spec->embedding_length / spec->heads;
          hr_model_spec_set_source (spec, HR_SPEC_FIELD_KEY_LENGTH, source);
        }
      if (spec->value_length == 0)
        {
          spec->value_length = spec->embedding_length / spec->heads;
          hr_model_spec_set_source (spec, HR_SPEC_FIELD_VALUE_LENGTH, source);
        }
    }

  if (!get_u32 (&m, "context_length", &v, &found, error))
    return NULL;
  if (found)
    {
      spec->context_length = v;
      set_source (&m, HR_SPEC_FIELD_CONTEXT_LENGTH, "context_length");
    }

  if (!get_u32 (&m, "attention.sliding_window", &v, &found, error))
    return NULL;
  if (found && v > 0)
    {
      spec->sliding_window = v;
      set_source (&m, HR_SPEC_FIELD_SLIDING_WINDOW, "attention.sliding_window");
      map_layer_sliding (&m);
    }

  tokens = hr_gguf_file_lookup (file, "tokenizer.ggml.tokens");
  if (tokens != NULL && hr_gguf_value_get_array_length (tokens) > 0 &&
      hr_gguf_value_get_array_length (tokens) <= G_MAXUINT32)
    spec->vocab_size = (guint32) hr_gguf_value_get_array_length (tokens);
  else
    {
      if (!get_u32 (&m, "vocab_size", &v, &found, error))
        return NULL;
      if (found)
        spec->vocab_size = v;
    }

  if (!get_u32 (&m, "expert_count", &v, &found, error))
    return NULL;
  if (found)
    spec->expert_count = v;
  if (!get_u32 (&m, "expert_used_count", &v, &found, error))
    return NULL;
  if (found)
    spec->expert_used_count = v;

  tensors = g_ptr_array_new_full (file->tensors->len, (GDestroyNotify) hr_tensor_info_free);
  for (guint i = 0; i < file->tensors->len; i++)
    {
      const HrTensorInfo *info = g_ptr_array_index (file->tensors, i);

      if (strcmp (info->name, "output.weight") == 0)
        has_output = TRUE;
      else if (strcmp (info->name, "token_embd.weight") == 0)
        has_embd = TRUE;
      g_ptr_array_add (tensors, hr_tensor_info_copy (info));
    }
  spec->tied_embeddings = has_embd && !has_output;
  hr_model_spec_take_tensors (spec, g_steal_pointer (&tensors));

  return g_steal_pointer (&spec);
}

/**
 * hr_gguf_split_shard_paths:
 * @path: the first shard of a split model, `NAME-00001-of-00003.gguf`
 * @count: the number of shards (`split.count`)
 *
 * Names every shard the way llama.cpp's gguf-split does
 * (`PREFIX-%05d-of-%05d.gguf`, examples/gguf-split), from the first.
 *
 * Returns: (transfer full) (nullable): @count paths, the first being
 *   @path, or %NULL when @path is not named like a first shard of @count.
 */
char **
hr_gguf_split_shard_paths (const char *path,
                           guint32     count)
{
  g_autofree char *suffix = NULL;
  g_autofree char *prefix = NULL;
  GPtrArray *paths;

  if (count < 2 || count > 99999)
    return NULL;
  suffix = g_strdup_printf ("-00001-of-%05u.gguf", count);
  if (!g_str_has_suffix (path, suffix))
    return NULL;
  prefix = g_strndup (path, strlen (path) - strlen (suffix));
  paths = g_ptr_array_new ();
  for (guint32 i = 1; i <= count; i++)
    g_ptr_array_add (paths, g_strdup_printf ("%s-%05u-of-%05u.gguf", prefix, i, count));
  g_ptr_array_add (paths, NULL);
  return (char **) g_ptr_array_free (paths, FALSE);
}

/**
 * hr_gguf_file_add_shard:
 * @file: the first shard of a split model (it holds the metadata)
 * @shard: another shard of the same model
 * @error: return location for a #GError
 *
 * Adds @shard's tensors to @file's list and its size to @file's, so the
 * parameter count, the tensor bytes, the counts per type and the file size
 * cover the whole model (hf-hub.md, GGUF quirks: split files "must be
 * summed"). The tensor offsets of @shard are not kept.
 *
 * Returns: %TRUE; %FALSE with %HR_CORE_ERROR_INVALID_DATA when @shard is
 *   not a shard of a model with @file's shard count or repeats a tensor
 *   name, %HR_CORE_ERROR_LIMIT past %HR_GGUF_MAX_TENSOR_COUNT tensors in
 *   all, %HR_CORE_ERROR_OVERFLOW when a sum does not fit 64 bits.
 */
gboolean
hr_gguf_file_add_shard (HrGgufFile        *file,
                        const HrGgufFile  *shard,
                        GError           **error)
{
  guint32 count = 0, shard_count = 0, shard_index = 0;
  guint64 parameters = file->parameters, bytes = file->tensor_bytes, file_bytes = file->file_bytes;

  if (!hr_gguf_file_get_split (file, NULL, &count) ||
      !hr_gguf_file_get_split (shard, &shard_index, &shard_count) ||
      shard_count != count || shard_index == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("the file is not a later shard of this %u-shard model (its split.no and split.count do not match)"),
                   count);
      return FALSE;
    }
  if ((guint64) file->tensors->len + shard->tensors->len > HR_GGUF_MAX_TENSOR_COUNT)
    {
      g_autofree char *max = hr_format_count (HR_GGUF_MAX_TENSOR_COUNT);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("the shards hold more than %s tensors in all"), max);
      return FALSE;
    }
  if (!hr_add_u64 (parameters, shard->parameters, &parameters) ||
      !hr_add_u64 (bytes, shard->tensor_bytes, &bytes) ||
      !hr_add_u64 (file_bytes, shard->file_bytes, &file_bytes))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                   _("the shards' sizes add up past 64 bits"));
      return FALSE;
    }

  if (file->tensor_names == NULL)
    {
      file->tensor_names = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < file->tensors->len; i++)
        g_hash_table_add (file->tensor_names, ((HrTensorInfo *) g_ptr_array_index (file->tensors, i))->name);
    }
  for (guint i = 0; i < shard->tensors->len; i++)
    {
      const HrTensorInfo *info = g_ptr_array_index (shard->tensors, i);

      if (g_hash_table_contains (file->tensor_names, info->name))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("the tensor “%s” is in two shards"), info->name);
          return FALSE;
        }
    }
  for (guint i = 0; i < shard->tensors->len; i++)
    {
      HrTensorInfo *copy = hr_tensor_info_copy (g_ptr_array_index (shard->tensors, i));
      guint64 none = G_MAXUINT64;

      g_ptr_array_add (file->tensors, copy);
      g_array_append_val (file->offsets, none);
      g_hash_table_add (file->tensor_names, copy->name);
    }
  file->parameters = parameters;
  file->tensor_bytes = bytes;
  file->file_bytes = file_bytes;
  file->n_shards++;
  return TRUE;
}

/**
 * hr_gguf_file_get_n_shards:
 * @file: a parsed header
 *
 * Returns: 1, plus one for each shard added with hr_gguf_file_add_shard().
 */
guint
hr_gguf_file_get_n_shards (const HrGgufFile *file)
{
  return file->n_shards;
}
