/* hr-gguf-extent.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A walk over the GGUF layout (docs/formats.md, "GGUF": magic, version, tensor
 * count, key/value count, the key/values, the tensor entries) that copies
 * nothing and allocates nothing: it only finds where the header ends, or
 * the least the file must hold for it to end there. The real parse and
 * every check stay in hr-gguf.c.
 */
#include "config.h"

#include <string.h>

#include "hr-gguf.h"
#include "hr-gguf-extent.h"

/* The fewest bytes each thing can take: a string is its 8-byte length; an
 * array its 4-byte type and 8-byte count; a key/value a key, a type and a
 * one-byte value; a tensor entry its name, dimension count, type and
 * offset (with no dimension). */
#define MIN_STRING 8
#define MIN_ARRAY  12
#define MIN_KV     (MIN_STRING + 4 + 1)
#define MIN_TENSOR (MIN_STRING + 4 + 4 + 8)

typedef struct {
  const guint8 *data;
  guint64       len;
  guint64       pos;
  guint64       rest;    /* the fewest bytes still due after the item being read */
  guint64       need;    /* when short: the fewest bytes the header takes */
  gboolean      bad;     /* not a header this walk can follow */
} Walk;

static guint64
sat_add (guint64 a,
         guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

static guint64
sat_mul (guint64 a,
         guint64 b)
{
  return b != 0 && a > G_MAXUINT64 / b ? G_MAXUINT64 : a * b;
}

/* Whether @n more bytes are there; when not, records what is needed. */
static gboolean
have (Walk    *w,
      guint64  n)
{
  if (w->pos <= w->len && n <= w->len - w->pos)
    return TRUE;
  w->need = sat_add (sat_add (w->pos, n), w->rest);
  return FALSE;
}

static gboolean
take_u32 (Walk    *w,
          guint32 *out)
{
  if (!have (w, 4))
    return FALSE;
  memcpy (out, w->data + w->pos, 4);
  *out = GUINT32_FROM_LE (*out);
  w->pos += 4;
  return TRUE;
}

static gboolean
take_u64 (Walk    *w,
          guint64 *out)
{
  if (!have (w, 8))
    return FALSE;
  memcpy (out, w->data + w->pos, 8);
  *out = GUINT64_FROM_LE (*out);
  w->pos += 8;
  return TRUE;
}

static gboolean
skip_string (Walk *w)
{
  guint64 n;

  if (!take_u64 (w, &n))
    return FALSE;
  if (n > HR_GGUF_MAX_STRING_LENGTH)
    {
      w->bad = TRUE;
      return FALSE;
    }
  if (!have (w, n))
    return FALSE;
  w->pos += n;
  return TRUE;
}

/* Bytes of one scalar value of @type; 0 for a string or an array. */
static guint
scalar_size (guint32 type)
{
  static const guint8 sizes[HR_GGUF_N_TYPES] = { 1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8 };

  return type < HR_GGUF_N_TYPES ? sizes[type] : 0;
}

static gboolean
skip_value (Walk    *w,
            guint32  type,
            guint    depth)
{
  guint32 elem_type;
  guint64 count, outer;

  if (type >= HR_GGUF_N_TYPES)
    {
      w->bad = TRUE;
      return FALSE;
    }
  if (type == HR_GGUF_TYPE_STRING)
    return skip_string (w);
  if (type != HR_GGUF_TYPE_ARRAY)
    {
      if (!have (w, scalar_size (type)))
        return FALSE;
      w->pos += scalar_size (type);
      return TRUE;
    }
  if (depth >= HR_GGUF_MAX_ARRAY_DEPTH || !take_u32 (w, &elem_type) || !take_u64 (w, &count))
    {
      w->bad = w->bad || depth >= HR_GGUF_MAX_ARRAY_DEPTH;
      return FALSE;
    }
  if (count > HR_GGUF_MAX_ARRAY_LENGTH || elem_type >= HR_GGUF_N_TYPES)
    {
      w->bad = TRUE;
      return FALSE;
    }
  if (scalar_size (elem_type) > 0)
    {
      /* Fixed-size elements: the whole array's extent is known. */
      if (!have (w, sat_mul (count, scalar_size (elem_type))))
        return FALSE;
      w->pos += count * scalar_size (elem_type);
      return TRUE;
    }
  outer = w->rest;
  for (guint64 i = 0; i < count; i++)
    {
      w->rest = sat_add (outer, sat_mul (count - i - 1,
                                         elem_type == HR_GGUF_TYPE_STRING ? MIN_STRING : MIN_ARRAY));
      if (!skip_value (w, elem_type, depth + 1))
        return FALSE;
    }
  w->rest = outer;
  return TRUE;
}

static gboolean
walk (Walk *w)
{
  guint32 version, type, n_dims;
  guint64 n_tensors, n_kv, skip;

  w->rest = 4 + 8 + 8;
  if (!have (w, 4))
    return FALSE;
  if (memcmp (w->data, HR_GGUF_MAGIC, 4) != 0)
    {
      w->bad = TRUE;
      return FALSE;
    }
  w->pos = 4;
  w->rest = 8 + 8;
  if (!take_u32 (w, &version))
    return FALSE;
  if (version != 2 && version != 3)
    {
      w->bad = TRUE; /* version 1, another, or a big-endian file */
      return FALSE;
    }
  w->rest = 8;
  if (!take_u64 (w, &n_tensors))
    return FALSE;
  w->rest = 0;
  if (!take_u64 (w, &n_kv))
    return FALSE;
  if (n_tensors > HR_GGUF_MAX_TENSOR_COUNT || n_kv > HR_GGUF_MAX_KV_COUNT)
    {
      w->bad = TRUE;
      return FALSE;
    }
  for (guint64 i = 0; i < n_kv; i++)
    {
      w->rest = (n_kv - i - 1) * MIN_KV + n_tensors * MIN_TENSOR;
      if (!skip_string (w) || !take_u32 (w, &type) || !skip_value (w, type, 0))
        return FALSE;
    }
  for (guint64 i = 0; i < n_tensors; i++)
    {
      w->rest = (n_tensors - i - 1) * MIN_TENSOR;
      if (!skip_string (w) || !take_u32 (w, &n_dims))
        return FALSE;
      if (n_dims > HR_GGUF_MAX_DIMS)
        {
          w->bad = TRUE;
          return FALSE;
        }
      skip = (guint64) n_dims * 8 + 4 + 8;
      if (!have (w, skip))
        return FALSE;
      w->pos += skip;
    }
  return TRUE;
}

/**
 * hr_gguf_header_extent:
 * @data: (array length=length): the first @length bytes of a GGUF file
 * @length: bytes in @data
 * @out_end: (out): where the header (the end of the tensor list) ends, bytes
 * @out_need: (out): when @data is too short: the fewest bytes the header
 *   can take given what @data shows (always more than @length, and never
 *   more than the header's real length); 0 when @data is not a GGUF
 *   header this walk follows (wrong magic, version 1 or big-endian, a
 *   count or length past the HR_GGUF_MAX_* caps): hr_gguf_file_parse_data()
 *   says what is wrong
 *
 * Walks the GGUF layout (docs/formats.md, "GGUF") without copying or allocating.
 * The lower bound counts what the layout makes certain: fixed-size arrays
 * whole, and for what is still to come, 8 bytes per string, 13 per
 * key/value and 24 per tensor entry. A reader that asks for @out_need plus
 * a margin each time never reads more than the header plus that margin.
 *
 * Returns: %TRUE with @out_end set when @data holds the whole header.
 */
gboolean
hr_gguf_header_extent (const guint8 *data,
                       gsize         length,
                       guint64      *out_end,
                       guint64      *out_need)
{
  Walk w = { data, length, 0, 0, 0, FALSE };

  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  *out_end = 0;
  *out_need = 0;
  if (walk (&w))
    {
      *out_end = w.pos;
      return TRUE;
    }
  *out_need = w.bad ? 0 : MAX (w.need, (guint64) length + 1);
  return FALSE;
}
