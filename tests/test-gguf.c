/* test-gguf.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GGUF header parser (docs/formats.md "GGUF" and
 * "Known quirks of configs and files"), the
 * model spec and tokenizer facts read from it, Ollama's manifest-to-blob
 * chain (From API to GPU, week 2), and `headroom-cli gguf`.
 * The files are written here with gguf-writer.h. Golden figures:
 * docs/seed-figures.md W5/W6 (llama3.2:3b: 3,212,749,888 parameters, a
 * 2,019,377,376-byte Q4_K_M blob, 5.03 bits per parameter, Q4_K x168,
 * Q6_K x29, F32 x58) and "KV cache" (114,688 bytes per token).
 */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gguf-writer.h"
#include "hr-error.h"
#include "hr-gguf.h"
#include "hr-gguf-keys.h"
#include "hr-gguf-report.h"
#include "hr-memory.h"
#include "hr-ollama-store.h"
#include "hr-precision.h"
#include "hr-units.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static HrGgufFile *
parse_both (GgufWriter  *w,
            GError     **error)
{
  g_autoptr(GError) stream_error = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(HrGgufFile) from_stream = NULL;
  HrGgufFile *from_data;

  /* The memory parser and the stream parser must agree on every input. */
  from_data = hr_gguf_file_parse_data (w->data, w->len, error);
  stream = g_memory_input_stream_new_from_data (g_memdup2 (w->data, w->len), w->len, g_free);
  from_stream = hr_gguf_file_parse_stream (stream, NULL, &stream_error);

  if (from_data == NULL)
    {
      g_assert_null (from_stream);
      g_assert_nonnull (stream_error);
      g_assert_cmpuint (stream_error->domain, ==, (*error)->domain);
      g_assert_cmpint (stream_error->code, ==, (*error)->code);
      g_assert_cmpstr (stream_error->message, ==, (*error)->message);
    }
  else
    {
      g_assert_no_error (stream_error);
      g_assert_nonnull (from_stream);
      g_assert_cmpuint (hr_gguf_file_get_header_bytes (from_stream), ==, hr_gguf_file_get_header_bytes (from_data));
      g_assert_cmpuint (hr_gguf_file_get_n_metadata (from_stream), ==, hr_gguf_file_get_n_metadata (from_data));
      g_assert_cmpuint (hr_gguf_file_get_n_tensors (from_stream), ==, hr_gguf_file_get_n_tensors (from_data));
      g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (from_stream), ==, hr_gguf_file_get_tensor_bytes (from_data));
    }
  return from_data;
}

static void
assert_bad (GgufWriter *w,
            gint        code,
            const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGgufFile) file = parse_both (w, &error);

  g_assert_null (file);
  g_assert_error (error, HR_CORE_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
}

static HrGgufFile *
parse_ok (GgufWriter *w)
{
  g_autoptr(GError) error = NULL;
  HrGgufFile *file = parse_both (w, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

static char *
value_string (const HrGgufValue *value)
{
  gsize length = 0;
  const char *s = hr_gguf_value_get_string (value, &length);

  g_assert_nonnull (s);
  return g_strndup (s, length);
}

static char *
array_string (const HrGgufValue *value,
              guint64            index)
{
  gsize length = 0;
  const char *s = hr_gguf_value_get_array_string (value, index, &length);

  g_assert_nonnull (s);
  return g_strndup (s, length);
}

/* ------------------------------------------------------------------------ */
/* Metadata value types                                                     */

static void
write_all_types (GgufWriter *w)
{
  gw_header (w, 3, 0, 28);
  gw_key (w, "t.u8", GW_UINT8);     gw_u8 (w, 200);
  gw_key (w, "t.i8", GW_INT8);      gw_u8 (w, (guint8) -100);
  gw_key (w, "t.u16", GW_UINT16);   gw_u16 (w, 60000);
  gw_key (w, "t.i16", GW_INT16);    gw_u16 (w, (guint16) -30000);
  gw_key (w, "t.u32", GW_UINT32);   gw_u32 (w, 4000000000u);
  gw_key (w, "t.i32", GW_INT32);    gw_u32 (w, (guint32) -2000000000);
  gw_key (w, "t.f32", GW_FLOAT32);  gw_f32 (w, 1.5f);
  gw_key (w, "t.bool", GW_BOOL);    gw_u8 (w, 1);
  gw_key (w, "t.str", GW_STRING);   gw_str (w, "h\xc3\xa9llo");
  gw_key (w, "t.u64", GW_UINT64);   gw_u64 (w, G_GUINT64_CONSTANT (10000000000000000000));
  gw_key (w, "t.i64", GW_INT64);    gw_u64 (w, (guint64) G_GINT64_CONSTANT (-9000000000000000000));
  gw_key (w, "t.f64", GW_FLOAT64);  gw_f64 (w, 2.25);

  gw_kv_array (w, "a.u8", GW_UINT8, 3);    gw_u8 (w, 1); gw_u8 (w, 2); gw_u8 (w, 255);
  gw_kv_array (w, "a.i8", GW_INT8, 2);     gw_u8 (w, (guint8) -1); gw_u8 (w, 127);
  gw_kv_array (w, "a.u16", GW_UINT16, 1);  gw_u16 (w, 65535);
  gw_kv_array (w, "a.i16", GW_INT16, 1);   gw_u16 (w, (guint16) -2);
  gw_kv_array (w, "a.u32", GW_UINT32, 2);  gw_u32 (w, 7); gw_u32 (w, 4294967295u);
  gw_kv_array (w, "a.i32", GW_INT32, 2);   gw_u32 (w, (guint32) -5); gw_u32 (w, 7);
  gw_kv_array (w, "a.f32", GW_FLOAT32, 1); gw_f32 (w, 0.5f);
  gw_kv_array (w, "a.bool", GW_BOOL, 2);   gw_u8 (w, 1); gw_u8 (w, 0);
  /* 40 strings: more than two index strides */
  gw_kv_array (w, "a.str", GW_STRING, 40);
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *s = i == 17 ? g_strdup ("") : g_strdup_printf ("s%u", i);
      gw_str (w, s);
    }
  gw_kv_array (w, "a.u64", GW_UINT64, 1);  gw_u64 (w, G_MAXUINT64);
  gw_kv_array (w, "a.i64", GW_INT64, 1);   gw_u64 (w, (guint64) G_MININT64);
  gw_kv_array (w, "a.f64", GW_FLOAT64, 1); gw_f64 (w, -0.125);
  /* arrays of arrays: [[1, 2], [3]] and [["x", "yz"], []] */
  gw_kv_array (w, "a.arr", GW_ARRAY, 2);
  gw_u32 (w, GW_UINT32); gw_u64 (w, 2); gw_u32 (w, 1); gw_u32 (w, 2);
  gw_u32 (w, GW_UINT32); gw_u64 (w, 1); gw_u32 (w, 3);
  gw_kv_array (w, "a.arrstr", GW_ARRAY, 2);
  gw_u32 (w, GW_STRING); gw_u64 (w, 2); gw_str (w, "x"); gw_str (w, "yz");
  gw_u32 (w, GW_STRING); gw_u64 (w, 0);
  /* an empty array */
  gw_kv_array (w, "a.empty", GW_INT32, 0);
  gw_kv_str (w, "general.architecture", "test");
}

/* The parsed file of write_all_types(), which several cases read. */
typedef struct {
  GgufWriter *w;
  HrGgufFile *file;
} AllTypes;

static void
all_types_set_up (AllTypes      *f,
                  gconstpointer  data)
{
  f->w = gw_new ();
  write_all_types (f->w);
  f->file = parse_ok (f->w);
}

static void
all_types_tear_down (AllTypes      *f,
                     gconstpointer  data)
{
  g_clear_pointer (&f->file, hr_gguf_file_unref);
  g_byte_array_unref (f->w);
}

static void
test_value_types_header (AllTypes      *f,
                         gconstpointer  data)
{
  const char *key;

  g_assert_cmpuint (hr_gguf_file_get_version (f->file), ==, 3);
  g_assert_cmpuint (hr_gguf_file_get_n_metadata (f->file), ==, 28);
  g_assert_cmpuint (hr_gguf_file_get_n_tensors (f->file), ==, 0);
  g_assert_cmpuint (hr_gguf_file_get_header_bytes (f->file), ==, f->w->len);
  g_assert_cmpuint (hr_gguf_file_get_alignment (f->file), ==, 32);
  g_assert_cmpuint (hr_gguf_file_get_data_offset (f->file), ==, gw_align (f->w->len, 32));
  hr_gguf_file_get_metadata (f->file, 0, &key);
  g_assert_cmpstr (key, ==, "t.u8");
  hr_gguf_file_get_metadata (f->file, 27, &key);
  g_assert_cmpstr (key, ==, "general.architecture");
  g_assert_null (hr_gguf_file_lookup (f->file, "t.absent"));
}

static void
test_value_types_integers (AllTypes      *f,
                           gconstpointer  data)
{
  const HrGgufValue *v;
  guint64 u;
  gint64 i;
  double d;

  v = hr_gguf_file_lookup (f->file, "t.u8");
  g_assert_cmpint (hr_gguf_value_get_value_type (v), ==, HR_GGUF_TYPE_UINT8);
  g_assert_true (hr_gguf_value_get_uint64 (v, &u)); g_assert_cmpuint (u, ==, 200);
  v = hr_gguf_file_lookup (f->file, "t.i8");
  g_assert_true (hr_gguf_value_get_int64 (v, &i)); g_assert_cmpint (i, ==, -100);
  g_assert_false (hr_gguf_value_get_uint64 (v, &u)); /* negative */
  v = hr_gguf_file_lookup (f->file, "t.u16");
  g_assert_true (hr_gguf_value_get_uint64 (v, &u)); g_assert_cmpuint (u, ==, 60000);
  v = hr_gguf_file_lookup (f->file, "t.i16");
  g_assert_true (hr_gguf_value_get_int64 (v, &i)); g_assert_cmpint (i, ==, -30000);
  v = hr_gguf_file_lookup (f->file, "t.u32");
  g_assert_true (hr_gguf_value_get_uint64 (v, &u)); g_assert_cmpuint (u, ==, 4000000000u);
  g_assert_true (hr_gguf_file_get_uint (f->file, "t.u32", &u)); g_assert_cmpuint (u, ==, 4000000000u);
  v = hr_gguf_file_lookup (f->file, "t.i32");
  g_assert_true (hr_gguf_value_get_int64 (v, &i)); g_assert_cmpint (i, ==, -2000000000);
  g_assert_true (hr_gguf_value_get_double (v, &d)); g_assert_cmpfloat (d, ==, -2e9);
  v = hr_gguf_file_lookup (f->file, "t.u64");
  g_assert_true (hr_gguf_value_get_uint64 (v, &u)); g_assert_cmpuint (u, ==, G_GUINT64_CONSTANT (10000000000000000000));
  g_assert_false (hr_gguf_value_get_int64 (v, &i)); /* does not fit */
  v = hr_gguf_file_lookup (f->file, "t.i64");
  g_assert_true (hr_gguf_value_get_int64 (v, &i)); g_assert_cmpint (i, ==, G_GINT64_CONSTANT (-9000000000000000000));
}

static void
test_value_types_floats_flags_strings (AllTypes      *f,
                                       gconstpointer  data)
{
  g_autofree char *s = NULL;
  const HrGgufValue *v;
  guint64 u;
  double d;
  gboolean b;

  v = hr_gguf_file_lookup (f->file, "t.f32");
  g_assert_cmpint (hr_gguf_value_get_value_type (v), ==, HR_GGUF_TYPE_FLOAT32);
  g_assert_true (hr_gguf_value_get_double (v, &d)); g_assert_cmpfloat (d, ==, 1.5);
  g_assert_false (hr_gguf_value_get_uint64 (v, &u));
  v = hr_gguf_file_lookup (f->file, "t.bool");
  g_assert_true (hr_gguf_value_get_boolean (v, &b)); g_assert_true (b);
  g_assert_false (hr_gguf_file_get_uint (f->file, "t.bool", &u)); /* a flag is not a count */
  v = hr_gguf_file_lookup (f->file, "t.str");
  s = value_string (v);
  g_assert_cmpstr (s, ==, "h\xc3\xa9llo");
  g_assert_cmpstr (hr_gguf_file_get_string (f->file, "t.str"), ==, "h\xc3\xa9llo");
  g_assert_null (hr_gguf_file_get_string (f->file, "t.u32"));
  v = hr_gguf_file_lookup (f->file, "t.f64");
  g_assert_true (hr_gguf_value_get_double (v, &d)); g_assert_cmpfloat (d, ==, 2.25);
  g_assert_null (hr_gguf_value_get_string (v, NULL));
  g_assert_cmpint (hr_gguf_value_get_array_type (v), ==, HR_GGUF_N_TYPES);
  g_assert_cmpuint (hr_gguf_value_get_array_length (v), ==, 0);
}

static void
test_value_types_number_arrays (AllTypes      *f,
                                gconstpointer  data)
{
  g_autoptr(HrGgufValue) element = NULL;
  const HrGgufValue *v;
  guint64 u;
  gint64 i;
  double d;
  gboolean b;

  v = hr_gguf_file_lookup (f->file, "a.u8");
  g_assert_cmpint (hr_gguf_value_get_value_type (v), ==, HR_GGUF_TYPE_ARRAY);
  g_assert_cmpint (hr_gguf_value_get_array_type (v), ==, HR_GGUF_TYPE_UINT8);
  g_assert_cmpuint (hr_gguf_value_get_array_length (v), ==, 3);
  g_assert_cmpuint (hr_gguf_value_get_raw_size (v), ==, 3); /* kept as stored */
  g_assert_true (hr_gguf_value_get_array_uint64 (v, 2, &u)); g_assert_cmpuint (u, ==, 255);
  g_assert_false (hr_gguf_value_get_array_uint64 (v, 3, &u)); /* out of range */
  v = hr_gguf_file_lookup (f->file, "a.i8");
  g_assert_true (hr_gguf_value_get_array_int64 (v, 0, &i)); g_assert_cmpint (i, ==, -1);
  g_assert_true (hr_gguf_value_get_array_int64 (v, 1, &i)); g_assert_cmpint (i, ==, 127);
  v = hr_gguf_file_lookup (f->file, "a.u16");
  g_assert_true (hr_gguf_value_get_array_uint64 (v, 0, &u)); g_assert_cmpuint (u, ==, 65535);
  v = hr_gguf_file_lookup (f->file, "a.i16");
  g_assert_true (hr_gguf_value_get_array_int64 (v, 0, &i)); g_assert_cmpint (i, ==, -2);
  v = hr_gguf_file_lookup (f->file, "a.u32");
  g_assert_true (hr_gguf_value_get_array_uint64 (v, 1, &u)); g_assert_cmpuint (u, ==, 4294967295u);
  v = hr_gguf_file_lookup (f->file, "a.i32");
  g_assert_true (hr_gguf_value_get_array_int64 (v, 0, &i)); g_assert_cmpint (i, ==, -5);
  g_assert_false (hr_gguf_value_get_array_uint64 (v, 0, &u));
  g_assert_true (hr_gguf_value_get_array_uint64 (v, 1, &u)); g_assert_cmpuint (u, ==, 7);
  v = hr_gguf_file_lookup (f->file, "a.f32");
  g_assert_true (hr_gguf_value_get_array_double (v, 0, &d)); g_assert_cmpfloat (d, ==, 0.5);
  v = hr_gguf_file_lookup (f->file, "a.bool");
  element = hr_gguf_value_dup_array_element (v, 1);
  g_assert_true (hr_gguf_value_get_boolean (element, &b)); g_assert_false (b);
  v = hr_gguf_file_lookup (f->file, "a.u64");
  g_assert_true (hr_gguf_value_get_array_uint64 (v, 0, &u)); g_assert_cmpuint (u, ==, G_MAXUINT64);
  v = hr_gguf_file_lookup (f->file, "a.i64");
  g_assert_true (hr_gguf_value_get_array_int64 (v, 0, &i)); g_assert_cmpint (i, ==, G_MININT64);
  v = hr_gguf_file_lookup (f->file, "a.f64");
  g_assert_true (hr_gguf_value_get_array_double (v, 0, &d)); g_assert_cmpfloat (d, ==, -0.125);
}

static void
test_value_types_string_array (AllTypes      *f,
                               gconstpointer  data)
{
  const HrGgufValue *v = hr_gguf_file_lookup (f->file, "a.str");
  g_autoptr(HrGgufValue) element = NULL;
  g_autofree char *s = NULL;
  gsize length;

  g_assert_cmpint (hr_gguf_value_get_array_type (v), ==, HR_GGUF_TYPE_STRING);
  g_assert_cmpuint (hr_gguf_value_get_array_length (v), ==, 40);
  for (guint k = 0; k < 40; k++)
    {
      g_autofree char *got = array_string (v, k);
      g_autofree char *want = k == 17 ? g_strdup ("") : g_strdup_printf ("s%u", k);

      g_assert_cmpstr (got, ==, want);
    }
  g_assert_null (hr_gguf_value_get_array_string (v, 40, &length));
  element = hr_gguf_value_dup_array_element (v, 33);
  s = value_string (element);
  g_assert_cmpstr (s, ==, "s33");
}

static void
test_value_types_nested_arrays (AllTypes      *f,
                                gconstpointer  data)
{
  g_autoptr(HrGgufValue) inner = NULL;
  g_autoptr(HrGgufValue) inner_str = NULL;
  g_autoptr(HrGgufValue) empty_inner = NULL;
  g_autofree char *s = NULL;
  const HrGgufValue *v;
  guint64 u;
  gint64 i;

  v = hr_gguf_file_lookup (f->file, "a.arr");
  g_assert_cmpint (hr_gguf_value_get_array_type (v), ==, HR_GGUF_TYPE_ARRAY);
  g_assert_cmpuint (hr_gguf_value_get_array_length (v), ==, 2);
  inner = hr_gguf_value_dup_array_element (v, 1);
  g_assert_cmpint (hr_gguf_value_get_array_type (inner), ==, HR_GGUF_TYPE_UINT32);
  g_assert_cmpuint (hr_gguf_value_get_array_length (inner), ==, 1);
  g_assert_true (hr_gguf_value_get_array_uint64 (inner, 0, &u)); g_assert_cmpuint (u, ==, 3);
  g_assert_null (hr_gguf_value_dup_array_element (v, 2));
  v = hr_gguf_file_lookup (f->file, "a.arrstr");
  inner_str = hr_gguf_value_dup_array_element (v, 0);
  s = array_string (inner_str, 1);
  g_assert_cmpstr (s, ==, "yz");
  empty_inner = hr_gguf_value_dup_array_element (v, 1);
  g_assert_cmpuint (hr_gguf_value_get_array_length (empty_inner), ==, 0);
  v = hr_gguf_file_lookup (f->file, "a.empty");
  g_assert_cmpuint (hr_gguf_value_get_array_length (v), ==, 0);
  g_assert_false (hr_gguf_value_get_array_int64 (v, 0, &i));
}

static void
test_gguf_type_names (void)
{
  g_assert_cmpstr (hr_gguf_type_to_string (HR_GGUF_TYPE_FLOAT64), ==, "FLOAT64");
  g_assert_cmpstr (hr_gguf_type_to_string (HR_GGUF_N_TYPES), ==, "unknown");
}

static void
test_gguf_version2 (void)
{
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;

  gw_header (w, 2, 0, 1);
  gw_kv_u32 (w, "general.alignment", 64);
  file = parse_ok (w);
  g_assert_cmpuint (hr_gguf_file_get_version (file), ==, 2);
  g_assert_cmpuint (hr_gguf_file_get_alignment (file), ==, 64);
  g_assert_cmpuint (hr_gguf_file_get_data_offset (file), ==, 64);
}

/* ------------------------------------------------------------------------ */
/* Tensor types: bytes per block from docs/formats.md ("Tensor sizes") and, for the
 * plain integer and F64 types it does not list, ggml's type_traits.        */

static const struct {
  guint32 id;
  const char *name;
  guint32 weights;
  guint32 bytes;
} block_table[] = {
  { 0, "F32", 1, 4 }, { 1, "F16", 1, 2 }, { 30, "BF16", 1, 2 },
  { 2, "Q4_0", 32, 18 }, { 3, "Q4_1", 32, 20 }, { 6, "Q5_0", 32, 22 }, { 7, "Q5_1", 32, 24 },
  { 8, "Q8_0", 32, 34 }, { 9, "Q8_1", 32, 36 }, { 10, "Q2_K", 256, 84 }, { 11, "Q3_K", 256, 110 },
  { 12, "Q4_K", 256, 144 }, { 13, "Q5_K", 256, 176 }, { 14, "Q6_K", 256, 210 },
  { 15, "Q8_K", 256, 292 }, { 16, "IQ2_XXS", 256, 66 }, { 17, "IQ2_XS", 256, 74 },
  { 18, "IQ3_XXS", 256, 98 }, { 19, "IQ1_S", 256, 50 }, { 20, "IQ4_NL", 32, 18 },
  { 21, "IQ3_S", 256, 110 }, { 22, "IQ2_S", 256, 82 }, { 23, "IQ4_XS", 256, 136 },
  { 24, "I8", 1, 1 }, { 25, "I16", 1, 2 }, { 26, "I32", 1, 4 }, { 27, "I64", 1, 8 },
  { 28, "F64", 1, 8 }, { 29, "IQ1_M", 256, 56 }, { 39, "MXFP4", 32, 17 },
};

static void
test_gguf_tensor_types (void)
{
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;
  guint n_types;
  const HrGgmlTypeInfo *types = hr_ggml_type_list (&n_types);
  guint64 offset = 0, total = 0, elements = 0;

  /* every type the core knows is in the table above, and the reverse */
  g_assert_cmpuint (n_types, ==, G_N_ELEMENTS (block_table));
  gw_header (w, 3, n_types, 1);
  gw_kv_str (w, "general.architecture", "test");
  for (guint i = 0; i < n_types; i++)
    {
      g_autofree char *name = g_strdup_printf ("t.%s", types[i].name);
      guint64 dims[3] = { 0, 3, 2 };
      guint k;

      for (k = 0; k < G_N_ELEMENTS (block_table); k++)
        if (block_table[k].id == types[i].type)
          break;
      g_assert_cmpuint (k, <, G_N_ELEMENTS (block_table));
      dims[0] = (guint64) block_table[k].weights * 4;
      gw_tensor (w, name, 3, dims, types[i].type, offset);
      offset = gw_align (offset + 4ull * block_table[k].bytes * 3 * 2, 32);
    }
  file = parse_ok (w);
  g_assert_cmpuint (hr_gguf_file_get_n_tensors (file), ==, n_types);

  for (guint i = 0; i < n_types; i++)
    {
      const HrTensorInfo *info = hr_gguf_file_get_tensor (file, i);
      guint64 bytes = 0;
      guint k;

      for (k = 0; k < G_N_ELEMENTS (block_table); k++)
        if (block_table[k].id == info->type)
          break;
      g_assert_cmpstr (hr_ggml_type_info (info->type)->name, ==, block_table[k].name);
      /* 4 blocks per row, 3 x 2 rows */
      g_assert_cmpuint (info->n_dims, ==, 3);
      g_assert_cmpuint (info->elements, ==, (guint64) block_table[k].weights * 4 * 6);
      g_assert_cmpuint (info->bytes, ==, (guint64) block_table[k].bytes * 4 * 6);
      g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (file, info->type, &bytes), ==, 1);
      g_assert_cmpuint (bytes, ==, info->bytes);
      total += info->bytes;
      elements += info->elements;
    }
  g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (file), ==, total);
  g_assert_cmpuint (hr_gguf_file_get_parameters (file), ==, elements);
  g_assert_cmpuint (hr_gguf_file_get_tensor_data_end (file), ==,
                    hr_gguf_file_get_data_offset (file) +
                    hr_gguf_file_get_tensor_offset (file, n_types - 1) +
                    hr_gguf_file_get_tensor (file, n_types - 1)->bytes);
}

/* ------------------------------------------------------------------------ */
/* Bad files: one header each, refused with its error code and message     */

typedef struct {
  const char *path;
  void      (*write) (GgufWriter *w);
  gint        code;
  const char *message;
} BadFile;

static void
test_gguf_bad_file (gconstpointer data)
{
  const BadFile *bad = data;
  g_autoptr(GgufWriter) w = gw_new ();

  bad->write (w);
  assert_bad (w, bad->code, bad->message);
}

static void
write_zip_magic (GgufWriter *w)
{
  gw_bytes (w, "PK\x03\x04", 4);
  gw_u32 (w, 20);
}

static void
write_empty (GgufWriter *w)
{
}

static void
write_two_bytes (GgufWriter *w)
{
  gw_bytes (w, "GG", 2);
}

static void
write_one_byte (GgufWriter *w)
{
  gw_bytes (w, "G", 1);
}

static void
write_version1 (GgufWriter *w)
{
  gw_bytes (w, "GGUF", 4);
  gw_u32 (w, 1);
  gw_u32 (w, 0);
  gw_u32 (w, 0);
}

static void
write_version4 (GgufWriter *w)
{
  gw_header (w, 4, 0, 0);
}

/* big-endian: the magic bytes are the same, the version is byte-swapped */
static void
write_big_endian (GgufWriter *w)
{
  gw_bytes (w, "GGUF", 4);
  gw_bytes (w, "\x00\x00\x00\x03", 4);
  gw_bytes (w, "\x00\x00\x00\x00\x00\x00\x00\x00", 8);
  gw_bytes (w, "\x00\x00\x00\x00\x00\x00\x00\x00", 8);
}

/* a big-endian file whose magic was written as a number reads "FUGG"; it
 * is told as big-endian, not as "not a GGUF file" */
static void
write_big_endian_numeric_magic (GgufWriter *w)
{
  gw_bytes (w, "FUGG", 4);
  gw_bytes (w, "\x00\x00\x00\x03", 4);
  gw_bytes (w, "\x00\x00\x00\x00\x00\x00\x00\x00", 8);
  gw_bytes (w, "\x00\x00\x00\x00\x00\x00\x00\x00", 8);
}

static void
write_too_many_tensors (GgufWriter *w)
{
  gw_header (w, 3, 65537, 0);
}

static void
write_too_many_entries (GgufWriter *w)
{
  gw_header (w, 3, 0, G_GUINT64_CONSTANT (1) << 63);
}

/* a key longer than the string cap: refused before anything is allocated */
static void
write_long_key (GgufWriter *w)
{
  gw_header (w, 3, 0, 1);
  gw_u64 (w, HR_GGUF_MAX_STRING_LENGTH + 1);
}

static void
write_long_string_value (GgufWriter *w)
{
  gw_header (w, 3, 0, 1);
  gw_key (w, "tokenizer.chat_template", GW_STRING);
  gw_u64 (w, G_MAXUINT64);
}

static void
write_long_array (GgufWriter *w)
{
  gw_header (w, 3, 0, 1);
  gw_kv_array (w, "tokenizer.ggml.tokens", GW_STRING, HR_GGUF_MAX_ARRAY_LENGTH + 1);
}

/* an array whose bytes alone run past the header cap: refused before reading */
static void
write_huge_array_bytes (GgufWriter *w)
{
  gw_header (w, 3, 0, 1);
  gw_kv_array (w, "big", GW_UINT64, HR_GGUF_MAX_ARRAY_LENGTH);
}

static void
write_deep_arrays (GgufWriter *w)
{
  gw_header (w, 3, 0, 1);
  gw_kv_array (w, "deep", GW_ARRAY, 1);
  for (guint i = 0; i < 4; i++)
    {
      gw_u32 (w, GW_ARRAY);
      gw_u64 (w, 1);
    }
}

static void
write_long_tensor_name (GgufWriter *w)
{
  gw_header (w, 3, 1, 0);
  gw_u64 (w, 257);
}

static void
write_five_dimensions (GgufWriter *w)
{
  gw_header (w, 3, 1, 0);
  gw_str (w, "t");
  gw_u32 (w, 5);
}

static void
write_value_type_13 (GgufWriter *w)
{
  gw_header (w, 3, 0, 1);
  gw_key (w, "x.odd", 13);
}

static void
write_array_type_99 (GgufWriter *w)
{
  gw_header (w, 3, 0, 1);
  gw_kv_array (w, "x.arr", 99, 1);
}

static void
write_key_twice (GgufWriter *w)
{
  gw_header (w, 3, 0, 2);
  gw_kv_u32 (w, "llama.block_count", 1);
  gw_kv_u32 (w, "llama.block_count", 2);
}

static void
write_key_not_utf8 (GgufWriter *w)
{
  gw_header (w, 3, 0, 1);
  gw_strn (w, "k\xff", 2);
  gw_u32 (w, GW_UINT8);
  gw_u8 (w, 0);
}

static void
write_alignment_48 (GgufWriter *w)
{
  gw_header (w, 3, 0, 1);
  gw_kv_u32 (w, "general.alignment", 48);
}

static void
write_alignment_0 (GgufWriter *w)
{
  gw_header (w, 3, 0, 1);
  gw_kv_u32 (w, "general.alignment", 0);
}

static const guint64 bad_dims[2] = { 256, 1 };

static void
write_no_dimensions (GgufWriter *w)
{
  gw_header (w, 3, 1, 0);
  gw_tensor (w, "none", 0, bad_dims, GW_F32, 0);
}

/* a row that is not a whole number of blocks (the core's message) */
static void
write_partial_block (GgufWriter *w)
{
  const guint64 odd[2] = { 100, 2 };

  gw_header (w, 3, 1, 0);
  gw_tensor (w, "odd", 2, odd, GW_Q4_K, 0);
}

/* dims whose product overflows */
static void
write_dims_overflow (GgufWriter *w)
{
  const guint64 big[3] = { G_GUINT64_CONSTANT (1) << 32, G_GUINT64_CONSTANT (1) << 31, 2 };

  gw_header (w, 3, 1, 0);
  gw_tensor (w, "big", 3, big, GW_F32, 0);
}

/* a dim past int64 */
static void
write_dim_past_int64 (GgufWriter *w)
{
  const guint64 huge[1] = { G_GUINT64_CONSTANT (1) << 63 };

  gw_header (w, 3, 1, 0);
  gw_tensor (w, "huge", 1, huge, GW_F32, 0);
}

/* F32 of 2^62 elements: elements fit, bytes do not */
static void
write_bytes_overflow (GgufWriter *w)
{
  const guint64 wide[2] = { G_GUINT64_CONSTANT (1) << 31, G_GUINT64_CONSTANT (1) << 31 };

  gw_header (w, 3, 1, 0);
  gw_tensor (w, "wide", 2, wide, GW_F32, 0);
}

static void
write_misaligned_offset (GgufWriter *w)
{
  gw_header (w, 3, 1, 0);
  gw_tensor (w, "t", 2, bad_dims, GW_F32, 7);
}

static void
write_offset_overflow (GgufWriter *w)
{
  gw_header (w, 3, 1, 0);
  gw_tensor (w, "t", 2, bad_dims, GW_F32, G_MAXUINT64 - 31);
}

static void
write_tensor_twice (GgufWriter *w)
{
  gw_header (w, 3, 2, 0);
  gw_tensor (w, "t", 2, bad_dims, GW_F32, 0);
  gw_tensor (w, "t", 2, bad_dims, GW_F32, 1024);
}

static const BadFile bad_files[] = {
  { "/gguf/bad/magic/zip", write_zip_magic, HR_CORE_ERROR_PARSE,
    "not a GGUF file: the first four bytes are 'PK\\x03\\x04', expected 'GGUF'" },
  { "/gguf/bad/magic/empty", write_empty, HR_CORE_ERROR_TRUNCATED, "not a GGUF file: it is empty" },
  { "/gguf/bad/magic/two-bytes", write_two_bytes, HR_CORE_ERROR_TRUNCATED,
    "not a GGUF file: it is only 2 bytes long" },
  { "/gguf/bad/magic/one-byte", write_one_byte, HR_CORE_ERROR_TRUNCATED,
    "not a GGUF file: it is only 1 byte long" },
  { "/gguf/bad/version/1", write_version1, HR_CORE_ERROR_UNSUPPORTED,
    "GGUF version 1 is not supported (it stored counts in 32 bits); "
    "convert the file again with a current llama.cpp" },
  { "/gguf/bad/version/4", write_version4, HR_CORE_ERROR_UNSUPPORTED,
    "GGUF version 4 is not supported; Headroom reads versions 2 and 3" },
  { "/gguf/bad/version/big-endian", write_big_endian, HR_CORE_ERROR_UNSUPPORTED,
    "this GGUF file is big-endian (its version reads as 50331648, which is 3 byte-swapped), "
    "as llama.cpp writes them for s390x: a little-endian llama.cpp will not load it, and "
    "Headroom reads little-endian GGUF files only" },
  { "/gguf/bad/version/big-endian-numeric-magic", write_big_endian_numeric_magic, HR_CORE_ERROR_UNSUPPORTED,
    "this GGUF file is big-endian (its magic reads 'FUGG' and its version 3 byte-swapped), "
    "as llama.cpp writes them for s390x: a little-endian llama.cpp will not load it, and "
    "Headroom reads little-endian GGUF files only" },
  { "/gguf/bad/limits/tensors", write_too_many_tensors, HR_CORE_ERROR_LIMIT,
    "the GGUF header claims 65,537 tensors; the limit is 65,536" },
  { "/gguf/bad/limits/metadata-entries", write_too_many_entries, HR_CORE_ERROR_LIMIT,
    "the GGUF header claims 9,223,372,036,854,775,808 metadata entries; the limit is 65,536" },
  { "/gguf/bad/limits/key-length", write_long_key, HR_CORE_ERROR_LIMIT,
    "a string of 16,777,217 bytes in the key of metadata entry 1 of 1 is longer than the limit of 16,777,216 bytes" },
  { "/gguf/bad/limits/string-length", write_long_string_value, HR_CORE_ERROR_LIMIT,
    "a string of 18,446,744,073,709,551,615 bytes in the value of metadata key “tokenizer.chat_template” "
    "is longer than the limit of 16,777,216 bytes" },
  { "/gguf/bad/limits/array-length", write_long_array, HR_CORE_ERROR_LIMIT,
    "an array of 16,777,217 elements in the value of metadata key “tokenizer.ggml.tokens” "
    "is longer than the limit of 16,777,216" },
  { "/gguf/bad/limits/header-bytes", write_huge_array_bytes, HR_CORE_ERROR_LIMIT,
    "the GGUF header runs past 134,217,728 bytes in the value of metadata key “big”; "
    "Headroom does not read headers that large" },
  { "/gguf/bad/limits/array-depth", write_deep_arrays, HR_CORE_ERROR_LIMIT,
    "arrays nest more than 4 deep in the value of metadata key “deep”" },
  { "/gguf/bad/limits/tensor-name", write_long_tensor_name, HR_CORE_ERROR_LIMIT,
    "a string of 257 bytes in the entry of tensor 1 of 1 is longer than the limit of 256 bytes" },
  { "/gguf/bad/limits/dimensions", write_five_dimensions, HR_CORE_ERROR_LIMIT,
    "tensor “t” has 5 dimensions; GGUF allows at most 4" },
  { "/gguf/bad/values/value-type", write_value_type_13, HR_CORE_ERROR_UNSUPPORTED,
    "the value of metadata key “x.odd” has value type 13, which the GGUF specification does not define (0 to 12)" },
  { "/gguf/bad/values/array-type", write_array_type_99, HR_CORE_ERROR_UNSUPPORTED,
    "the value of metadata key “x.arr” has value type 99, which the GGUF specification does not define (0 to 12)" },
  { "/gguf/bad/values/key-twice", write_key_twice, HR_CORE_ERROR_INVALID_DATA,
    "the metadata key “llama.block_count” appears twice" },
  { "/gguf/bad/values/key-not-utf8", write_key_not_utf8, HR_CORE_ERROR_INVALID_DATA,
    "metadata entry 1 has an empty key or one that is not UTF-8 text" },
  { "/gguf/bad/values/alignment-48", write_alignment_48, HR_CORE_ERROR_INVALID_DATA,
    "general.alignment must be a power of two that fits 32 bits; this file's is not" },
  { "/gguf/bad/values/alignment-0", write_alignment_0, HR_CORE_ERROR_INVALID_DATA,
    "general.alignment must be a power of two that fits 32 bits; this file's is not" },
  { "/gguf/bad/values/no-dimensions", write_no_dimensions, HR_CORE_ERROR_INVALID_DATA,
    "tensor “none” has no dimensions" },
  { "/gguf/bad/values/partial-block", write_partial_block, HR_CORE_ERROR_INVALID_DATA,
    "tensor “odd”: a Q4_K tensor row of 100 weights is not a whole number of 256-weight blocks" },
  { "/gguf/bad/values/dims-overflow", write_dims_overflow, HR_CORE_ERROR_OVERFLOW,
    "tensor “big” has dimensions whose product does not fit in 63 bits; the header is corrupt" },
  { "/gguf/bad/values/dim-past-int64", write_dim_past_int64, HR_CORE_ERROR_OVERFLOW,
    "tensor “huge” has dimensions whose product does not fit in 63 bits; the header is corrupt" },
  { "/gguf/bad/values/bytes-overflow", write_bytes_overflow, HR_CORE_ERROR_OVERFLOW,
    "tensor “wide”: a F32 tensor's size does not fit in 64 bits" },
  { "/gguf/bad/values/misaligned-offset", write_misaligned_offset, HR_CORE_ERROR_INVALID_DATA,
    "tensor “t” starts at data offset 7, which is not a multiple of the alignment (32 bytes)" },
  { "/gguf/bad/values/offset-overflow", write_offset_overflow, HR_CORE_ERROR_OVERFLOW,
    "the tensor offsets and sizes add up past 64 bits; the header is corrupt" },
  { "/gguf/bad/values/tensor-twice", write_tensor_twice, HR_CORE_ERROR_INVALID_DATA,
    "the tensor name “t” appears twice" },
};

/* A small valid file: 2 metadata entries, 2 tensors. */
static GgufWriter *
write_small (void)
{
  GgufWriter *w = gw_new ();
  const guint64 dims[2] = { 256, 4 };
  const guint64 norm[1] = { 256 };

  gw_header (w, 3, 2, 2);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_u32 (w, "llama.block_count", 1);
  gw_tensor (w, "blk.0.attn_q.weight", 2, dims, GW_Q4_K, 0);
  gw_tensor (w, "blk.0.attn_norm.weight", 1, norm, GW_F32, 576);
  return w;
}

/* write_small()'s first @n bytes. */
static GgufWriter *
write_small_cut (guint n)
{
  g_autoptr(GgufWriter) w = write_small ();
  GgufWriter *cut = gw_new ();

  g_byte_array_append (cut, w->data, n);
  return cut;
}

static void
test_gguf_truncated_prefixes (void)
{
  g_autoptr(GgufWriter) w = write_small ();
  g_autoptr(HrGgufFile) file = parse_ok (w);
  guint64 header = hr_gguf_file_get_header_bytes (file);

  g_assert_cmpuint (header, ==, w->len);
  g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (file), ==, 576 + 1024);

  /* every prefix shorter than the header is refused as truncated */
  for (guint n = 0; n < header; n++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HrGgufFile) partial = hr_gguf_file_parse_data (w->data, n, &error);

      g_assert_null (partial);
      g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED);
    }
}

/* The message says where the data ends: in the counts, */
static void
test_gguf_truncated_in_counts (void)
{
  g_autoptr(GgufWriter) cut = write_small_cut (12);

  assert_bad (cut, HR_CORE_ERROR_TRUNCATED,
              "the GGUF header is truncated: the data ends at byte 12, inside the version and counts; "
              "the file is incomplete (an interrupted download or copy?)");
}

/* in a key (24 counts + 8 length + 5 of "general.architecture"), */
static void
test_gguf_truncated_in_key (void)
{
  g_autoptr(GgufWriter) cut = write_small_cut (37);

  assert_bad (cut, HR_CORE_ERROR_TRUNCATED,
              "the GGUF header is truncated: the data ends at byte 37, inside the key of metadata entry 1 of 2; "
              "the file is incomplete (an interrupted download or copy?)");
}

/* in a value, */
static void
test_gguf_truncated_in_value (void)
{
  g_autoptr(GgufWriter) cut = write_small_cut (24 + 8 + 20 + 4 + 8 + 2);

  assert_bad (cut, HR_CORE_ERROR_TRUNCATED,
              "the GGUF header is truncated: the data ends at byte 66, inside the value of metadata key “general.architecture”; "
              "the file is incomplete (an interrupted download or copy?)");
}

/* and in a tensor entry, after its name */
static void
test_gguf_truncated_in_tensor (void)
{
  g_autoptr(GgufWriter) w = write_small ();
  g_autoptr(GgufWriter) cut = write_small_cut (w->len - 10);
  g_autofree char *message = g_strdup_printf ("the GGUF header is truncated: the data ends at byte %u, inside the entry of tensor 2 of 2 (“blk.0.attn_norm.weight”); "
                                              "the file is incomplete (an interrupted download or copy?)",
                                              w->len - 10);

  assert_bad (cut, HR_CORE_ERROR_TRUNCATED, message);
}

/* ------------------------------------------------------------------------ */
/* llama3.2:3b                                                              */

#define LLAMA32_BLOB_BYTES G_GUINT64_CONSTANT (2019377376) /* docs/seed-figures.md W6 */

static const char llama3_template[] =
  "{{- bos_token }}{%- for message in messages %}"
  "{{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' + message['content'] | trim + '<|eot_id|>' }}"
  "{%- endfor %}{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{%- endif %}"
  "<br>";

static const char *
llama3_special (guint id)
{
  switch (id)
    {
    case 128000: return "<|begin_of_text|>";
    case 128001: return "<|end_of_text|>";
    case 128004: return "<|finetune_right_pad_id|>";
    case 128006: return "<|start_header_id|>";
    case 128007: return "<|end_header_id|>";
    case 128008: return "<|eom_id|>";
    case 128009: return "<|eot_id|>";
    case 128010: return "<|python_tag|>";
    default:     return NULL;
    }
}

/* The llama3.2:3b header: its real metadata keys and tensor list, its
 * 128,256-token vocabulary (normal tokens stand in as "tN"; id 5 is "<br>",
 * a normal token that looks special), 3 merges instead of 280,147. */
static GgufWriter *
write_llama32 (void)
{
  GgufWriter *w = gw_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GwTensorSpec specs[260];
  guint n = gw_llama32_3b_tensors (specs, names);
  const guint n_vocab = 128256;
  const char *merges[] = { "\xc4\xa0 t", "\xc4\xa0 a", "i n" };

  g_assert_cmpuint (n, ==, 255);
  gw_header (w, 3, n, 24);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_str (w, "general.type", "model");
  gw_kv_str (w, "general.name", "Llama 3.2 3B Instruct");
  gw_kv_u32 (w, "llama.block_count", 28);
  gw_kv_u32 (w, "llama.context_length", 131072);
  gw_kv_u32 (w, "llama.embedding_length", 3072);
  gw_kv_u32 (w, "llama.feed_forward_length", 8192);
  gw_kv_u32 (w, "llama.attention.head_count", 24);
  gw_kv_u32 (w, "llama.attention.head_count_kv", 8);
  gw_kv_f32 (w, "llama.rope.freq_base", 500000.0f);
  gw_kv_f32 (w, "llama.attention.layer_norm_rms_epsilon", 1e-5f);
  gw_kv_u32 (w, "llama.attention.key_length", 128);
  gw_kv_u32 (w, "llama.attention.value_length", 128);
  gw_kv_u32 (w, "general.file_type", 15);
  gw_kv_u32 (w, "llama.vocab_size", n_vocab);
  gw_kv_u32 (w, "llama.rope.dimension_count", 128);
  gw_kv_str (w, "tokenizer.ggml.model", "gpt2");
  gw_kv_str (w, "tokenizer.ggml.pre", "llama-bpe");
  gw_kv_array (w, "tokenizer.ggml.tokens", GW_STRING, n_vocab);
  for (guint i = 0; i < n_vocab; i++)
    {
      g_autofree char *t = NULL;

      if (i >= 128000)
        t = llama3_special (i) != NULL ? g_strdup (llama3_special (i))
                                       : g_strdup_printf ("<|reserved_special_token_%u|>", i - 128000);
      else if (i == 5)
        t = g_strdup ("<br>");
      else
        t = g_strdup_printf ("t%u", i);
      gw_str (w, t);
    }
  gw_kv_array (w, "tokenizer.ggml.token_type", GW_INT32, n_vocab);
  for (guint i = 0; i < n_vocab; i++)
    gw_u32 (w, i >= 128000 ? 3 : 1);
  gw_kv_str_array (w, "tokenizer.ggml.merges", merges, G_N_ELEMENTS (merges));
  gw_kv_u32 (w, "tokenizer.ggml.bos_token_id", 128000);
  gw_kv_u32 (w, "tokenizer.ggml.eos_token_id", 128009);
  gw_kv_str (w, "tokenizer.chat_template", llama3_template);
  gw_write_tensors (w, specs, n);
  return w;
}

/* write_llama32() parsed, which the llama3.2:3b cases read. */
typedef struct {
  GgufWriter *w;
  HrGgufFile *file;
} Llama32;

static void
llama32_set_up (Llama32       *f,
                gconstpointer  data)
{
  f->w = write_llama32 ();
  f->file = parse_ok (f->w);
}

static void
llama32_tear_down (Llama32       *f,
                   gconstpointer  data)
{
  g_clear_pointer (&f->file, hr_gguf_file_unref);
  g_byte_array_unref (f->w);
}

static void
test_llama32_tensor_types (Llama32       *f,
                           gconstpointer  data)
{
  guint64 q4k_bytes, q6k_bytes, f32_bytes;

  /* docs/seed-figures.md W6: Q4_K x168, Q6_K x29, F32 x58 */
  g_assert_cmpuint (hr_gguf_file_get_n_tensors (f->file), ==, 255);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (f->file, HR_GGML_TYPE_Q4_K, &q4k_bytes), ==, 168);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (f->file, HR_GGML_TYPE_Q6_K, &q6k_bytes), ==, 29);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (f->file, HR_GGML_TYPE_F32, &f32_bytes), ==, 58);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (f->file, HR_GGML_TYPE_Q8_0, NULL), ==, 0);
  /* 144 bytes per 256 weights, 210 per 256, 4 per weight */
  g_assert_cmpuint (q4k_bytes, ==, G_GUINT64_CONSTANT (1362493440));
  g_assert_cmpuint (q6k_bytes, ==, G_GUINT64_CONSTANT (648345600));
  g_assert_cmpuint (f32_bytes, ==, 700672);
  g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (f->file), ==, G_GUINT64_CONSTANT (2011539712));
  /* docs/seed-figures.md W5: 3,212,749,888 parameters */
  g_assert_cmpuint (hr_gguf_file_get_parameters (f->file), ==, G_GUINT64_CONSTANT (3212749888));
}

/* the real blob is 2,019,377,376 bytes: 5.03 bits per parameter */
static void
test_llama32_bits_per_parameter (Llama32       *f,
                                 gconstpointer  data)
{
  g_autofree char *bits = NULL;

  g_assert_cmpuint (hr_gguf_file_get_file_bytes (f->file), ==, 0);
  hr_gguf_file_set_file_bytes (f->file, LLAMA32_BLOB_BYTES);
  bits = hr_format_decimal (hr_memory_effective_bits (hr_gguf_file_get_file_bytes (f->file),
                                                      hr_gguf_file_get_parameters (f->file)), 2);
  g_assert_cmpstr (bits, ==, "5.03");
}

static void
test_llama32_spec (Llama32       *f,
                   gconstpointer  data)
{
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;

  hr_gguf_file_set_file_bytes (f->file, LLAMA32_BLOB_BYTES);
  spec = hr_gguf_file_to_model_spec (f->file, NULL, "gguf:test", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (spec->name, ==, "Llama 3.2 3B Instruct");
  g_assert_cmpstr (spec->architecture, ==, "llama");
  g_assert_cmpstr (spec->precision, ==, "q4_K_M");
  g_assert_cmpuint (spec->parameters, ==, G_GUINT64_CONSTANT (3212749888));
  g_assert_cmpuint (spec->file_bytes, ==, LLAMA32_BLOB_BYTES);
  g_assert_cmpuint (spec->layers, ==, 28);
  g_assert_cmpuint (spec->heads, ==, 24);
  g_assert_cmpuint (spec->kv_heads, ==, 8);
  g_assert_null (spec->layer_kv_heads);
  g_assert_cmpuint (spec->key_length, ==, 128);
  g_assert_cmpuint (spec->value_length, ==, 128);
  g_assert_cmpuint (spec->embedding_length, ==, 3072);
  g_assert_cmpuint (spec->context_length, ==, 131072);
  g_assert_cmpuint (spec->sliding_window, ==, 0);
  g_assert_null (spec->layer_sliding);
  g_assert_cmpuint (spec->vocab_size, ==, 128256);
  g_assert_cmpuint (spec->expert_count, ==, 0);
  g_assert_true (spec->tied_embeddings);
  g_assert_cmpuint (spec->tensors->len, ==, 255);
  g_assert_cmpuint (hr_model_spec_tensor_bytes (spec), ==, G_GUINT64_CONSTANT (2011539712));
  g_assert_cmpstr (spec->origin, ==, "gguf:test");
  /* docs/seed-figures.md "KV cache": 2 x 28 x 8 x 128 x 2 = 114,688 bytes per token */
  g_assert_cmpuint (hr_memory_kv_bytes_per_token (spec, HR_KV_CACHE_F16), ==, 114688);
}

static void
test_llama32_spec_sources (Llama32       *f,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) spec = hr_gguf_file_to_model_spec (f->file, NULL, "gguf:test", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_PRECISION), ==, "GGUF general.file_type = 15");
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_PARAMETERS), ==, "GGUF tensor shapes (sum of elements)");
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_LAYERS), ==, "GGUF llama.block_count");
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_KV_HEADS), ==, "GGUF llama.attention.head_count_kv");
}

static void
test_llama32_tokenizer (Llama32       *f,
                        gconstpointer  data)
{
  g_autoptr(HrGgufTokenizer) tok = hr_gguf_file_get_tokenizer (f->file);

  g_assert_cmpstr (tok->model, ==, "gpt2");
  g_assert_cmpstr (tok->pre, ==, "llama-bpe");
  g_assert_cmpuint (tok->vocab_size, ==, 128256);
  g_assert_cmpuint (tok->merges, ==, 3);
  g_assert_true (tok->has_bos);
  g_assert_cmpuint (tok->bos_id, ==, 128000);
  g_assert_cmpstr (tok->bos_token, ==, "<|begin_of_text|>");
  g_assert_true (tok->has_eos);
  g_assert_cmpuint (tok->eos_id, ==, 128009);
  g_assert_cmpstr (tok->eos_token, ==, "<|eot_id|>");
  g_assert_true (tok->has_chat_template);
  g_assert_cmpuint (tok->chat_template_length, ==, strlen (llama3_template));
  /* in order of first use; "<br>" is a NORMAL token and not a marker */
  g_assert_cmpuint (tok->chat_markers->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (tok->chat_markers, 0), ==, "<|start_header_id|>");
  g_assert_cmpstr (g_ptr_array_index (tok->chat_markers, 1), ==, "<|end_header_id|>");
  g_assert_cmpstr (g_ptr_array_index (tok->chat_markers, 2), ==, "<|eot_id|>");
}

/* read through a stream in 64 kB chunks, strings straddle the chunk
 * boundaries: every token and token type must come out the same */
static void
test_llama32_streamed_vocabulary (Llama32       *f,
                                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (f->w->data, f->w->len, NULL);
  g_autoptr(HrGgufFile) streamed = hr_gguf_file_parse_stream (stream, NULL, &error);
  const HrGgufValue *a = hr_gguf_file_lookup (f->file, "tokenizer.ggml.tokens");
  const HrGgufValue *ta = hr_gguf_file_lookup (f->file, "tokenizer.ggml.token_type");
  const HrGgufValue *b, *tb;
  const char *t;
  gsize length;

  g_assert_no_error (error);
  g_assert_cmpuint (f->w->len, >, 20 * 65536);
  b = hr_gguf_file_lookup (streamed, "tokenizer.ggml.tokens");
  tb = hr_gguf_file_lookup (streamed, "tokenizer.ggml.token_type");
  g_assert_cmpuint (hr_gguf_value_get_raw_size (a), ==, hr_gguf_value_get_raw_size (b));
  for (guint64 id = 0; id < 128256; id++)
    {
      gsize la, lb;
      const char *sa = hr_gguf_value_get_array_string (a, id, &la);
      const char *sb = hr_gguf_value_get_array_string (b, id, &lb);
      gint64 ya, yb;

      g_assert_cmpmem (sa, la, sb, lb);
      g_assert_true (hr_gguf_value_get_array_int64 (ta, id, &ya));
      g_assert_true (hr_gguf_value_get_array_int64 (tb, id, &yb));
      g_assert_cmpint (ya, ==, yb);
    }
  t = hr_gguf_value_get_array_string (b, 128009, &length);
  g_assert_cmpmem (t, length, "<|eot_id|>", 10);
}

/* the vocabulary is kept compactly: about its own bytes, not 128,256 allocations */
static void
test_llama32_compact_vocabulary (Llama32       *f,
                                 gconstpointer  data)
{
  g_assert_cmpuint (hr_gguf_value_get_raw_size (hr_gguf_file_lookup (f->file, "tokenizer.ggml.tokens")), <, 2 * 1024 * 1024);
}

static void
test_gguf_tokenizer_variants (void)
{
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(HrGgufTokenizer) tok = NULL;
  /* ChatML and Gemma markers without a token_type array: shape alone decides */
  const char *tokens[] = { "<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>", "<start_of_turn>",
                           "<end_of_turn>", "[INST]", "[/INST]", "< a >", "hello",
                           "<|im_end|>" /* the same text under a second id */ };
  const char *template = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n"
                         "[INST] < a > <start_of_turn>{% endfor %}";

  gw_header (w, 3, 0, 6);
  gw_kv_str (w, "general.architecture", "qwen2");
  gw_kv_str (w, "tokenizer.ggml.model", "gpt2");
  gw_kv_str_array (w, "tokenizer.ggml.tokens", tokens, G_N_ELEMENTS (tokens));
  gw_kv_u32 (w, "tokenizer.ggml.bos_token_id", 1);
  gw_kv_u32 (w, "tokenizer.ggml.eos_token_id", 500); /* out of range */
  gw_kv_str (w, "tokenizer.chat_template", template);
  file = parse_ok (w);
  tok = hr_gguf_file_get_tokenizer (file);

  g_assert_null (tok->pre);
  g_assert_cmpuint (tok->vocab_size, ==, 12);
  g_assert_cmpuint (tok->merges, ==, 0);
  g_assert_cmpstr (tok->bos_token, ==, "<s>");
  g_assert_true (tok->has_eos);
  g_assert_cmpuint (tok->eos_id, ==, 500);
  g_assert_null (tok->eos_token);
  g_assert_cmpuint (tok->chat_markers->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (tok->chat_markers, 0), ==, "<|im_start|>");
  g_assert_cmpstr (g_ptr_array_index (tok->chat_markers, 1), ==, "<|im_end|>");
  g_assert_cmpstr (g_ptr_array_index (tok->chat_markers, 2), ==, "[INST]");
  g_assert_cmpstr (g_ptr_array_index (tok->chat_markers, 3), ==, "<start_of_turn>");
}

/* no tokenizer at all */
static void
test_gguf_tokenizer_absent (void)
{
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(HrGgufTokenizer) tok = NULL;

  gw_header (w, 3, 0, 1);
  gw_kv_str (w, "general.architecture", "llama");
  file = parse_ok (w);
  tok = hr_gguf_file_get_tokenizer (file);
  g_assert_null (tok->model);
  g_assert_cmpuint (tok->vocab_size, ==, 0);
  g_assert_false (tok->has_bos);
  g_assert_false (tok->has_chat_template);
  g_assert_cmpuint (tok->chat_markers->len, ==, 0);
}

/* ------------------------------------------------------------------------ */
/* Per-layer arrays, sliding windows, MoE, split files                      */

static void
test_gguf_per_layer (void)
{
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 kv[6] = { 8, 0, 8, 0, 4, 8 };   /* 0 = a layer without attention */
  const gint32 heads[6] = { 32, 32, 32, 32, 16, 32 };

  /* a hybrid model: head_count and head_count_kv per layer */
  gw_header (w, 3, 0, 7);
  gw_kv_str (w, "general.architecture", "hybrid");
  gw_kv_u32 (w, "hybrid.block_count", 6);
  gw_kv_u32 (w, "hybrid.embedding_length", 4096);
  gw_kv_i32_array (w, "hybrid.attention.head_count", heads, 6);
  gw_kv_u32_array (w, "hybrid.attention.head_count_kv", kv, 6);
  gw_kv_u32 (w, "hybrid.expert_count", 64);
  gw_kv_u32 (w, "hybrid.expert_used_count", 8);
  file = parse_ok (w);
  spec = hr_gguf_file_to_model_spec (file, "hybrid:test", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (spec->name, ==, "hybrid:test");
  g_assert_cmpuint (spec->heads, ==, 32);
  g_assert_cmpuint (spec->kv_heads, ==, 8);
  g_assert_nonnull (spec->layer_kv_heads);
  g_assert_cmpuint (spec->layer_kv_heads->len, ==, 6);
  for (guint i = 0; i < 6; i++)
    g_assert_cmpuint (g_array_index (spec->layer_kv_heads, guint32, i), ==, kv[i]);
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_KV_HEADS), ==,
                   "GGUF hybrid.attention.head_count_kv (per layer)");
  /* key/value lengths default to embedding / heads */
  g_assert_cmpuint (spec->key_length, ==, 128);
  g_assert_cmpuint (spec->value_length, ==, 128);
  g_assert_cmpstr (hr_model_spec_get_source (spec, HR_SPEC_FIELD_KEY_LENGTH), ==,
                   "GGUF hybrid.embedding_length / hybrid.attention.head_count");
  g_assert_cmpuint (spec->expert_count, ==, 64);
  g_assert_cmpuint (spec->expert_used_count, ==, 8);
  g_assert_false (spec->tied_embeddings); /* no token_embd tensor at all */
  g_assert_null (spec->precision);
  g_assert_cmpuint (spec->file_bytes, ==, 0);
  /* 8 + 0 + 8 + 0 + 4 + 8 = 28 KV heads over the layers, x 256 dims x 2 bytes */
  g_assert_cmpuint (hr_memory_kv_bytes_per_token (spec, HR_KV_CACHE_F16), ==, 28 * 256 * 2);
}

/* Headers that parse but that the model mapper refuses, with its code and
 * message (a BadFile of the mapper's). */
static void
test_gguf_bad_spec (gconstpointer data)
{
  const BadFile *bad = data;
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(GError) error = NULL;

  bad->write (w);
  file = parse_ok (w);
  g_assert_null (hr_gguf_file_to_model_spec (file, NULL, NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, bad->code);
  g_assert_cmpstr (error->message, ==, bad->message);
}

/* a per-layer array of the wrong length */
static void
write_per_layer_wrong_length (GgufWriter *w)
{
  const guint32 kv[6] = { 8, 0, 8, 0, 4, 8 };

  gw_header (w, 3, 0, 3);
  gw_kv_str (w, "general.architecture", "hybrid");
  gw_kv_u32 (w, "hybrid.block_count", 5);
  gw_kv_u32_array (w, "hybrid.attention.head_count_kv", kv, 6);
}

/* a count of the wrong type */
static void
write_count_as_string (GgufWriter *w)
{
  gw_header (w, 3, 0, 2);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_str (w, "llama.block_count", "28");
}

/* one layer past HR_MODEL_SPEC_MAX_LAYERS, the limit /api/show shares */
static void
write_too_many_layers (GgufWriter *w)
{
  gw_header (w, 3, 0, 2);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_u32 (w, "llama.block_count", HR_MODEL_SPEC_MAX_LAYERS + 1);
}

/* no architecture */
static void
write_no_architecture (GgufWriter *w)
{
  gw_header (w, 3, 0, 0);
}

static const BadFile bad_specs[] = {
  { "/gguf/per-layer/refuses-wrong-length", write_per_layer_wrong_length, HR_CORE_ERROR_INVALID_DATA,
    "hybrid.attention.head_count_kv is an array of 6 UINT32 values; "
    "a per-layer array needs one integer for each of the 5 layers" },
  { "/gguf/spec/refuses-count-as-string", write_count_as_string, HR_CORE_ERROR_INVALID_DATA,
    "llama.block_count should be a non-negative integer; it is a STRING" },
  { "/gguf/spec/refuses-too-many-layers", write_too_many_layers, HR_CORE_ERROR_LIMIT,
    "llama.block_count is 4,097; Headroom accepts at most 4,096 layers" },
  { "/gguf/spec/refuses-no-architecture", write_no_architecture, HR_CORE_ERROR_INVALID_DATA,
    "the GGUF header has no usable general.architecture, so its model keys cannot be found" },
};

static HrModelSpec *
sliding_spec (const char *arch,
              guint32     layers,
              const char *pattern_key,
              int         pattern_kind) /* 0 none, 1 scalar 4, 2 bool array */
{
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *k_blocks = g_strdup_printf ("%s.block_count", arch);
  g_autofree char *k_window = g_strdup_printf ("%s.attention.sliding_window", arch);
  HrModelSpec *spec;

  gw_header (w, 3, 0, pattern_kind != 0 ? 4 : 3);
  gw_kv_str (w, "general.architecture", arch);
  gw_kv_u32 (w, k_blocks, layers);
  gw_kv_u32 (w, k_window, 4096);
  if (pattern_kind == 1)
    gw_kv_u32 (w, pattern_key, 4);
  else if (pattern_kind == 2)
    {
      gw_kv_array (w, pattern_key, GW_BOOL, layers);
      for (guint i = 0; i < layers; i++)
        gw_u8 (w, i % 3 != 2);
    }
  file = parse_ok (w);
  spec = hr_gguf_file_to_model_spec (file, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spec->sliding_window, ==, 4096);
  return spec;
}

static void
assert_sliding (const HrModelSpec *spec,
                const char        *expected) /* '1' sliding, '0' global, per layer */
{
  g_assert_nonnull (spec->layer_sliding);
  g_assert_cmpuint (spec->layer_sliding->len, ==, strlen (expected));
  for (guint i = 0; i < spec->layer_sliding->len; i++)
    g_assert_cmpint (g_array_index (spec->layer_sliding, guint8, i), ==, expected[i] - '0');
}

static void
test_gguf_sliding (void)
{
  g_autoptr(HrModelSpec) gemma2 = sliding_spec ("gemma2", 6, NULL, 0);
  g_autoptr(HrModelSpec) gemma3 = sliding_spec ("gemma3", 12, NULL, 0);
  g_autoptr(HrModelSpec) scalar = sliding_spec ("cohere2", 8, "cohere2.attention.sliding_window_pattern", 1);
  g_autoptr(HrModelSpec) array = sliding_spec ("gemma3n", 6, "gemma3n.attention.sliding_window_pattern", 2);
  g_autoptr(HrModelSpec) mistral = sliding_spec ("llama", 4, NULL, 0);

  /* llama.cpp: gemma2 alternates from layer 0; gemma3 has 5 sliding per global */
  assert_sliding (gemma2, "101010");
  g_assert_cmpstr (hr_model_spec_get_source (gemma2, HR_SPEC_FIELD_SLIDING_WINDOW), ==,
                   "GGUF gemma2.attention.sliding_window; sliding layers: llama.cpp rule: gemma2 alternates sliding and global layers");
  assert_sliding (gemma3, "111110111110");
  assert_sliding (scalar, "11101110");
  g_assert_cmpstr (hr_model_spec_get_source (scalar, HR_SPEC_FIELD_SLIDING_WINDOW), ==,
                   "GGUF cohere2.attention.sliding_window; sliding layers: GGUF cohere2.attention.sliding_window_pattern");
  assert_sliding (array, "110110");
  /* a window without a known per-layer rule: every layer, no per-layer list */
  g_assert_null (mistral->layer_sliding);
  g_assert_cmpstr (hr_model_spec_get_source (mistral, HR_SPEC_FIELD_SLIDING_WINDOW), ==,
                   "GGUF llama.attention.sliding_window");
}

static void
test_gguf_split (void)
{
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;
  guint32 index = 99, count = 99;

  gw_header (w, 3, 0, 4);
  gw_kv_str (w, "general.architecture", "llama");
  gw_key (w, "split.no", GW_UINT16); gw_u16 (w, 0);
  gw_key (w, "split.count", GW_UINT16); gw_u16 (w, 3);
  gw_key (w, "split.tensors.count", GW_INT32); gw_u32 (w, 723);
  file = parse_ok (w);
  g_assert_true (hr_gguf_file_get_split (file, &index, &count));
  g_assert_cmpuint (index, ==, 0);
  g_assert_cmpuint (count, ==, 3);

  g_byte_array_set_size (w, 0);
  gw_header (w, 3, 0, 1);
  gw_key (w, "split.count", GW_UINT16); gw_u16 (w, 1);
  g_clear_pointer (&file, hr_gguf_file_unref);
  file = parse_ok (w);
  g_assert_false (hr_gguf_file_get_split (file, NULL, NULL));
}

/* Two shards of one model, as llama.cpp's gguf-split writes them. */
static GgufWriter *
write_shard (guint16 index)
{
  GgufWriter *w = gw_new ();
  const guint64 q[2] = { 256, 4 };
  const guint64 norm[1] = { 256 };

  if (index == 0)
    {
      gw_header (w, 3, 1, 7);
      gw_kv_str (w, "general.architecture", "llama");
      gw_kv_u32 (w, "llama.block_count", 1);
      gw_kv_u32 (w, "llama.embedding_length", 256);
      gw_kv_u32 (w, "llama.attention.head_count", 2);
    }
  else
    gw_header (w, 3, 1, 3);
  gw_key (w, "split.no", GW_UINT16); gw_u16 (w, index);
  gw_key (w, "split.count", GW_UINT16); gw_u16 (w, 2);
  gw_key (w, "split.tensors.count", GW_INT32); gw_u32 (w, 2);
  if (index == 0)
    gw_tensor (w, "blk.0.attn_q.weight", 2, q, GW_Q4_K, 0);
  else
    gw_tensor (w, "blk.0.attn_norm.weight", 1, norm, GW_F32, 0);
  return w;
}

static void
test_gguf_split_shards (void)
{
  g_autoptr(GgufWriter) w0 = write_shard (0);
  g_autoptr(GgufWriter) w1 = write_shard (1);
  g_autoptr(HrGgufFile) first = parse_ok (w0);
  g_autoptr(HrGgufFile) second = parse_ok (w1);
  g_autoptr(HrGgufFile) again = parse_ok (w0);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) spec = NULL;
  g_auto(GStrv) paths = hr_gguf_split_shard_paths ("/m/Qwen-7B-Q4_K_M-00001-of-00002.gguf", 2);

  g_assert_nonnull (paths);
  g_assert_cmpuint (g_strv_length (paths), ==, 2);
  g_assert_cmpstr (paths[0], ==, "/m/Qwen-7B-Q4_K_M-00001-of-00002.gguf");
  g_assert_cmpstr (paths[1], ==, "/m/Qwen-7B-Q4_K_M-00002-of-00002.gguf");
  g_assert_null (hr_gguf_split_shard_paths ("/m/Qwen-7B-Q4_K_M-00002-of-00002.gguf", 2));
  g_assert_null (hr_gguf_split_shard_paths ("/m/Qwen-7B-Q4_K_M-00001-of-00003.gguf", 2));
  g_assert_null (hr_gguf_split_shard_paths ("/m/model.gguf", 1));

  hr_gguf_file_set_file_bytes (first, 1000);
  hr_gguf_file_set_file_bytes (second, 500);
  g_assert_cmpuint (hr_gguf_file_get_n_shards (first), ==, 1);

  /* the first shard is not a later shard of itself */
  g_assert_false (hr_gguf_file_add_shard (first, again, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==,
                   "the file is not a later shard of this 2-shard model (its split.no and split.count do not match)");
  g_clear_error (&error);

  g_assert_true (hr_gguf_file_add_shard (first, second, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_file_get_n_shards (first), ==, 2);
  g_assert_cmpuint (hr_gguf_file_get_n_tensors (first), ==, 2);
  g_assert_cmpuint (hr_gguf_file_get_parameters (first), ==, 1024 + 256);
  g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (first), ==, 576 + 1024);
  g_assert_cmpuint (hr_gguf_file_get_file_bytes (first), ==, 1500);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (first, HR_GGML_TYPE_F32, NULL), ==, 1);
  g_assert_cmpuint (hr_gguf_file_get_tensor_offset (first, 1), ==, G_MAXUINT64);

  /* the same shard twice repeats its tensor */
  g_assert_false (hr_gguf_file_add_shard (first, second, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "the tensor “blk.0.attn_norm.weight” is in two shards");
  g_clear_error (&error);
  g_assert_cmpuint (hr_gguf_file_get_n_tensors (first), ==, 2);

  spec = hr_gguf_file_to_model_spec (first, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spec->parameters, ==, 1280);
  g_assert_cmpuint (spec->file_bytes, ==, 1500);
  g_assert_cmpuint (spec->tensors->len, ==, 2);
}

/* ------------------------------------------------------------------------ */
/* Files on disk                                                            */

static char *
write_temp (const char *name,
            GgufWriter *w)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_user_cache_dir (), name, NULL);

  g_mkdir_with_parents (g_get_user_cache_dir (), 0700);
  g_file_set_contents (path, (const char *) w->data, w->len, &error);
  g_assert_no_error (error);
  return path;
}

static char *
write_llama32_blob (void)
{
  g_autoptr(GgufWriter) w = write_llama32 ();
  char *path = write_temp ("llama3.2-3b-q4_K_M.gguf", w);

  /* a sparse file as long as the real blob: no tensor data is ever read */
  g_assert_cmpint (truncate (path, (off_t) LLAMA32_BLOB_BYTES), ==, 0);
  return path;
}

static void
test_gguf_load_file (void)
{
  g_autofree char *path = write_llama32_blob ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGgufFile) file = hr_gguf_file_load (path, NULL, &error);
  g_autoptr(GFile) gfile = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(HrGgufFile) again = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *missing = g_build_filename (g_get_user_cache_dir (), "absent.gguf", NULL);

  g_assert_no_error (error);
  g_assert_cmpuint (hr_gguf_file_get_file_bytes (file), ==, LLAMA32_BLOB_BYTES);
  g_assert_cmpuint (hr_gguf_file_get_tensor_data_end (file), <=, LLAMA32_BLOB_BYTES);

  /* only the header (and at most one 64 kB read past it) is read */
  stream = g_file_read (gfile, NULL, &error);
  g_assert_no_error (error);
  again = hr_gguf_file_parse_stream (G_INPUT_STREAM (stream), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_seekable_tell (G_SEEKABLE (stream)), <=,
                   (goffset) hr_gguf_file_get_header_bytes (again) + 65536);

  /* cancelled: the GIO error, not a parse error */
  g_cancellable_cancel (cancellable);
  g_clear_pointer (&again, hr_gguf_file_unref);
  again = hr_gguf_file_load (path, cancellable, &error);
  g_assert_null (again);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  g_assert_null (hr_gguf_file_load (missing, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* a bad file's message names it */
  {
    g_autoptr(GgufWriter) zip = gw_new ();
    g_autofree char *zip_path = NULL;
    g_autofree char *expected = NULL;

    gw_bytes (zip, "PK\x03\x04rest", 8);
    zip_path = write_temp ("model.zip", zip);
    expected = g_strdup_printf ("%s: not a GGUF file: the first four bytes are 'PK\\x03\\x04', expected 'GGUF'", zip_path);
    g_assert_null (hr_gguf_file_load (zip_path, NULL, &error));
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
    g_assert_cmpstr (error->message, ==, expected);
  }
  g_unlink (path);
}

/* ------------------------------------------------------------------------ */
/* Ollama's models directory                                                */

typedef struct {
  char    *dir;
  char    *blob_path;
  char    *digest;  /* sha256:<hex> */
  gsize    size;
} Store;

static GgufWriter *
write_tiny (void)
{
  GgufWriter *w = gw_new ();
  const guint64 dims[2] = { 32, 2 };
  const char *tokens[] = { "<|begin_of_text|>", "<|eot_id|>", "hi" };

  gw_header (w, 3, 1, 9);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_str (w, "general.name", "Tiny");
  gw_kv_u32 (w, "general.file_type", 7);
  gw_kv_u32 (w, "llama.block_count", 2);
  gw_kv_u32 (w, "llama.embedding_length", 64);
  gw_kv_u32 (w, "llama.attention.head_count", 4);
  gw_kv_u32 (w, "llama.context_length", 2048);
  gw_kv_str_array (w, "tokenizer.ggml.tokens", tokens, 3);
  gw_kv_str (w, "tokenizer.ggml.model", "gpt2");
  gw_tensor (w, "token_embd.weight", 2, dims, 8 /* Q8_0 */, 0);
  /* the tensor data: 2 rows of one Q8_0 block each */
  g_byte_array_set_size (w, (guint) gw_align (w->len, 32) + 68);
  return w;
}

static void
write_manifest (const Store *store,
                const char  *relative,
                const char  *digest,
                guint64      size)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (store->dir, relative, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autofree char *json = g_strdup_printf (
    "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.docker.distribution.manifest.v2+json\","
    "\"config\":{\"mediaType\":\"application/vnd.docker.container.image.v1+json\","
    "\"digest\":\"sha256:34bb5ab01051a11372a91f95f3fbbc51173eed8e7f13ec395b9ae9b8bd0e242b\",\"size\":561},"
    "\"layers\":[\n"
    "{\"mediaType\":\"application/vnd.ollama.image.template\","
    "\"digest\":\"sha256:966de95ca8a62200913e3f8bfbf84c8494536f1b94b49166851e76644e966396\",\"size\":1429},\n"
    "{\"mediaType\":\"application/vnd.ollama.image.model\",\"digest\":\"%s\",\"size\":%" G_GUINT64_FORMAT "}\n"
    "]}", digest, size);

  g_mkdir_with_parents (parent, 0700);
  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
}

static void
store_setup (Store *store)
{
  g_autoptr(GgufWriter) w = write_tiny ();
  g_autoptr(GError) error = NULL;
  g_autofree char *hex = g_compute_checksum_for_data (G_CHECKSUM_SHA256, w->data, w->len);
  g_autofree char *blob_name = g_strconcat ("sha256-", hex, NULL);
  g_autofree char *blobs = NULL;

  store->dir = g_build_filename (g_get_user_cache_dir (), "ollama-models", NULL);
  blobs = g_build_filename (store->dir, "blobs", NULL);
  g_mkdir_with_parents (blobs, 0700);
  store->blob_path = g_build_filename (blobs, blob_name, NULL);
  store->digest = g_strconcat ("sha256:", hex, NULL);
  store->size = w->len;
  g_file_set_contents (store->blob_path, (const char *) w->data, w->len, &error);
  g_assert_no_error (error);
  write_manifest (store, "manifests/registry.ollama.ai/library/tiny/1b", store->digest, store->size);
  write_manifest (store, "manifests/registry.ollama.ai/library/tiny/2b", store->digest, store->size);
}

static void
store_clear (Store *store)
{
  g_free (store->dir);
  g_free (store->blob_path);
  g_free (store->digest);
}

static void
on_progress (guint64  done,
             guint64  total,
             gpointer user_data)
{
  guint64 *last = user_data;

  g_assert_cmpuint (done, <=, total);
  g_assert_cmpuint (done, >, *last);
  *last = done;
}

static void
assert_store_error (const Store *store,
                    const char  *model,
                    gint         code,
                    const char  *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaBlob) blob = hr_ollama_store_find_model (store->dir, model, &error);

  g_assert_null (blob);
  g_assert_error (error, HR_CORE_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
}

static void
store_set_up (Store         *store,
              gconstpointer  data)
{
  store_setup (store);
}

static void
store_tear_down (Store         *store,
                 gconstpointer  data)
{
  store_clear (store);
}

/* blobs/sha256-<hex> of the store's blob. Returns: (transfer full) */
static char *
store_blob_file (const Store *store)
{
  return g_strconcat ("blobs/sha256-", store->digest + 7, NULL);
}

static void
test_ollama_store_finds_by_tag (Store         *store,
                                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaBlob) blob = hr_ollama_store_find_model (store->dir, "tiny:1b", &error);
  g_autofree char *expected_blob_file = store_blob_file (store);

  g_assert_no_error (error);
  g_assert_cmpstr (blob->name, ==, "tiny:1b");
  g_assert_cmpstr (blob->manifest_file, ==, "manifests/registry.ollama.ai/library/tiny/1b");
  g_assert_cmpstr (blob->media_type, ==, "application/vnd.ollama.image.model");
  g_assert_cmpstr (blob->digest, ==, store->digest);
  g_assert_cmpstr (blob->blob_file, ==, expected_blob_file);
  g_assert_cmpstr (blob->blob_path, ==, store->blob_path);
  g_assert_cmpuint (blob->size, ==, store->size);
  g_assert_cmpuint (blob->blob_bytes, ==, store->size);
}

static void
test_ollama_store_verifies_blob (Store         *store,
                                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaBlob) blob = hr_ollama_store_find_model (store->dir, "tiny:1b", &error);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  guint64 last = 0;

  g_assert_no_error (error);
  g_assert_true (hr_ollama_blob_verify (blob, on_progress, &last, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (last, ==, store->size);

  g_cancellable_cancel (cancellable);
  g_assert_false (hr_ollama_blob_verify (blob, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_ollama_store_blob_is_the_gguf (Store         *store,
                                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaBlob) blob = hr_ollama_store_find_model (store->dir, "tiny:1b", &error);
  g_autoptr(HrGgufFile) file = NULL;

  g_assert_no_error (error);
  file = hr_gguf_file_load (blob->blob_path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (hr_gguf_file_get_string (file, "general.name"), ==, "Tiny");
}

/* A name and the manifest it finds (NULL: not compared). */
typedef struct {
  const char *path;
  const char *manifest;
  const char *model;
  const char *want_manifest;
  const char *want_name;
} StoreName;

static const StoreName store_names[] = {
  { "/ollama-store/finds-namespaced", "manifests/registry.ollama.ai/someone/tiny/q8", "someone/tiny:q8",
    "manifests/registry.ollama.ai/someone/tiny/q8", "someone/tiny:q8" },
  { "/ollama-store/finds-hosted", "manifests/hf.co/org/Tiny-GGUF/Q8_0", "hf.co/org/Tiny-GGUF:Q8_0",
    "manifests/hf.co/org/Tiny-GGUF/Q8_0", NULL },
  { "/ollama-store/finds-latest", "manifests/registry.ollama.ai/library/tiny/latest", "tiny",
    NULL, "tiny:latest" },
};

static void
test_ollama_store_finds_name (Store         *store,
                              gconstpointer  data)
{
  const StoreName *name = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaBlob) blob = NULL;

  write_manifest (store, name->manifest, store->digest, store->size);
  blob = hr_ollama_store_find_model (store->dir, name->model, &error);
  g_assert_no_error (error);
  if (name->want_manifest != NULL)
    g_assert_cmpstr (blob->manifest_file, ==, name->want_manifest);
  if (name->want_name != NULL)
    g_assert_cmpstr (blob->name, ==, name->want_name);
}

static void
test_ollama_store_refuses_unknown_model (Store         *store,
                                         gconstpointer  data)
{
  g_autofree char *message = g_strdup_printf ("there is no model \"nothere\" in %s (looked for registry.ollama.ai/library/nothere)",
                                              store->dir);

  assert_store_error (store, "nothere:1b", HR_CORE_ERROR_NOT_FOUND, message);
}

static void
test_ollama_store_refuses_unknown_tag (Store         *store,
                                       gconstpointer  data)
{
  g_autofree char *message = g_strdup_printf ("model \"tiny\" has no tag \"7b\" in %s; its tags there: 1b, 2b, latest",
                                              store->dir);

  write_manifest (store, "manifests/registry.ollama.ai/library/tiny/latest", store->digest, store->size);
  assert_store_error (store, "tiny:7b", HR_CORE_ERROR_NOT_FOUND, message);
}

/* A name Ollama would not store, and why. */
typedef struct {
  const char *path;
  const char *model;
  const char *message;
} StoreBadName;

static const StoreBadName store_bad_names[] = {
  { "/ollama-store/refuses-name/dot-dot-parts", "../../etc:passwd",
    "\"../../etc:passwd\" is not a model name Ollama stores: each part may hold only letters, digits, '.', '-' and '_', "
    "and may not start with '.' or '-'" },
  { "/ollama-store/refuses-name/four-parts", "a/b/c/d",
    "\"a/b/c/d\" is not a model name: write [host/][namespace/]model[:tag]" },
  { "/ollama-store/refuses-name/dot-dot-tag", "tiny:..",
    "\"tiny:..\" is not a model name Ollama stores: each part may hold only letters, digits, '.', '-' and '_', "
    "and may not start with '.' or '-'" },
};

static void
test_ollama_store_refuses_name (Store         *store,
                                gconstpointer  data)
{
  const StoreBadName *bad = data;

  assert_store_error (store, bad->model, HR_CORE_ERROR_INVALID_ARGUMENT, bad->message);
}

static void
test_ollama_store_refuses_other_directory (Store         *store,
                                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *cache = g_strdup (g_get_user_cache_dir ());
  g_autofree char *message = g_strdup_printf ("%s is not an Ollama models directory: it has no manifests folder "
                                              "(Ollama keeps its models in ~/.ollama/models, /usr/share/ollama/.ollama/models or $OLLAMA_MODELS)",
                                              cache);

  g_assert_null (hr_ollama_store_find_model (cache, "tiny:1b", &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, message);
}

/* size mismatch: the manifest says one byte more */
static void
test_ollama_store_refuses_wrong_size (Store         *store,
                                      gconstpointer  data)
{
  g_autofree char *expected_blob_file = store_blob_file (store);
  g_autofree char *have = hr_format_count (store->size);
  g_autofree char *want = hr_format_count (store->size + 1);
  g_autofree char *message = g_strdup_printf ("the model blob %s is %s bytes but the manifest says %s; "
                                              "it is incomplete or was changed: pull the model again (ollama pull tiny:short)",
                                              expected_blob_file, have, want);

  write_manifest (store, "manifests/registry.ollama.ai/library/tiny/short", store->digest, store->size + 1);
  assert_store_error (store, "tiny:short", HR_CORE_ERROR_INVALID_DATA, message);
}

/* digest mismatch: same size, one byte changed */
static void
test_ollama_store_refuses_wrong_digest (Store         *store,
                                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaBlob) blob = NULL;
  g_autofree char *expected_blob_file = store_blob_file (store);
  g_autofree char *contents = NULL;
  g_autofree char *actual = NULL;
  g_autofree char *message = NULL;
  gsize length;

  g_file_get_contents (store->blob_path, &contents, &length, &error);
  g_assert_no_error (error);
  contents[length - 1] ^= 0x55;
  g_file_set_contents (store->blob_path, contents, length, &error);
  g_assert_no_error (error);
  blob = hr_ollama_store_find_model (store->dir, "tiny:1b", &error);
  g_assert_no_error (error);
  g_assert_false (hr_ollama_blob_verify (blob, NULL, NULL, NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  actual = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (guint8 *) contents, length);
  message = g_strdup_printf ("the model blob %s has sha256 %s but the manifest says %s; "
                             "the file is corrupt: pull the model again (ollama pull tiny:1b)",
                             expected_blob_file, actual, store->digest + 7);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_ollama_store_refuses_missing_blob (Store         *store,
                                        gconstpointer  data)
{
  g_autofree char *message = g_strdup_printf ("the model blob blobs/sha256-0000000000000000000000000000000000000000000000000000000000000000 "
                                              "named by manifests/registry.ollama.ai/library/tiny/gone is missing from %s; "
                                              "pull the model again (ollama pull tiny:gone)", store->dir);

  write_manifest (store, "manifests/registry.ollama.ai/library/tiny/gone",
                  "sha256:0000000000000000000000000000000000000000000000000000000000000000", 10);
  assert_store_error (store, "tiny:gone", HR_CORE_ERROR_NOT_FOUND, message);
}

/* A malformed manifest (tiny:bad) and how it is refused. */
typedef struct {
  const char *path;
  const char *json;
  gint        code;
  const char *message;
} StoreBadManifest;

static const StoreBadManifest store_bad_manifests[] = {
  { "/ollama-store/refuses-manifest/not-json", "{\"layers\": [", HR_CORE_ERROR_PARSE,
    "manifests/registry.ollama.ai/library/tiny/bad: line 1, column 12: not valid JSON: "
    "Parse error: unexpected end of file, expected character `]'" },
  { "/ollama-store/refuses-manifest/no-layers", "{\"schemaVersion\": 2}", HR_CORE_ERROR_INVALID_DATA,
    "manifests/registry.ollama.ai/library/tiny/bad: not an Ollama manifest: it has no \"layers\" list" },
  { "/ollama-store/refuses-manifest/no-model-layer",
    "{\"layers\": [{\"mediaType\": \"application/vnd.ollama.image.license\", \"digest\": \"x\", \"size\": 1}]}",
    HR_CORE_ERROR_INVALID_DATA,
    "manifests/registry.ollama.ai/library/tiny/bad: the manifest has no layer whose mediaType ends in \"image.model\"; "
    "it is not a model package" },
  { "/ollama-store/refuses-manifest/bad-digest",
    "{\"layers\": [\n{\"mediaType\": \"application/vnd.ollama.image.model\", \"digest\": \"sha256:../../x\", \"size\": 1}]}",
    HR_CORE_ERROR_INVALID_DATA,
    "manifests/registry.ollama.ai/library/tiny/bad, line 2: the model layer's digest \"sha256:../../x\" "
    "is not sha256:<64 hex digits>" },
  { "/ollama-store/refuses-manifest/size-not-number",
    "{\"layers\": [\n{\"mediaType\": \"application/vnd.ollama.image.model\", \"digest\": \"sha256:00\", \"size\": \"big\"}]}",
    HR_CORE_ERROR_INVALID_DATA,
    "manifests/registry.ollama.ai/library/tiny/bad, line 2: the model layer's field \"size\" must be a number" },
};

static void
test_ollama_store_refuses_manifest (Store         *store,
                                    gconstpointer  data)
{
  const StoreBadManifest *bad = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (store->dir, "manifests/registry.ollama.ai/library/tiny/bad", NULL);

  g_file_set_contents (path, bad->json, -1, &error);
  g_assert_no_error (error);
  assert_store_error (store, "tiny:bad", bad->code, bad->message);
}

/* ------------------------------------------------------------------------ */
/* headroom-cli gguf                                                        */

static void
run_cli (const char * const *args,
         int                 expected_status,
         char              **out_stdout,
         char              **out_stderr)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = NULL;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) g_getenv ("HEADROOM_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  /* the test's isolated data dir, so the user's catalog is never read */
  envp = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                out_stdout, out_stderr, &status, &error);
  g_assert_no_error (error);
  g_assert_cmpint (WEXITSTATUS (status), ==, expected_status);
}

/* FALSE, the case skipped, when the test does not run under meson test. */
static gboolean
have_cli (void)
{
  if (g_getenv ("HEADROOM_CLI") != NULL)
    return TRUE;
  g_test_skip ("HEADROOM_CLI is not set (run under meson test)");
  return FALSE;
}

/* `headroom-cli gguf FILE --runtime seed` for write_llama32_blob(), its
 * arguments: the path, the template's bytes, the header's bytes and where
 * the tensor data starts. */
static const char llama32_report[] =
  "file                %s\n"
  "GGUF version        3\n"
  "architecture        llama\n"
  "name                Llama 3.2 3B Instruct\n"
  "file type           Q4_K_M (general.file_type 15)\n"
  "parameters          3,212,749,888 (summed from 255 tensor shapes)\n"
  "layers              28\n"
  "heads               24\n"
  "KV heads            8\n"
  "key length          128\n"
  "value length        128\n"
  "embedding length    3,072\n"
  "native context      131,072 tokens\n"
  "sliding window      none\n"
  "tied embeddings     yes (no output.weight tensor)\n"
  "tokenizer           gpt2\n"
  "pre-tokenizer       llama-bpe\n"
  "vocabulary          128,256 tokens, 3 merges\n"
  "BOS                 128000 <|begin_of_text|>\n"
  "EOS                 128009 <|eot_id|>\n"
  "chat template       yes (%s bytes)\n"
  "chat markers        <|start_header_id|> <|end_header_id|> <|eot_id|>\n"
  "tensors             255\n"
  "  F32               58 tensors, 700,672 bytes\n"
  "  Q4_K              168 tensors, 1,362,493,440 bytes\n"
  "  Q6_K              29 tensors, 648,345,600 bytes\n"
  "tensor bytes        2,011,539,712 bytes (2.01 GB, 1.87 GiB)\n"
  "header bytes        %s (tensor data from byte %s, aligned to 32)\n"
  "file size           2,019,377,376 bytes (2.02 GB, 1.88 GiB)\n"
  "bits per parameter  5.03 (file size x 8 / parameters)\n"
  "memory on Jetson Orin Nano Super at 4,096 tokens (f16 KV cache, 1 slot):\n"
  "  method             the seed's weights + KV cache (teaching mode, not a server's figure)\n"
  "  Weights            2.02 GB (1.88 GiB)\n"
  "  KV cache           0.47 GB (0.44 GiB)\n"
  "  total              2.49 GB (2.32 GiB)\n"
  "  ollama ps          2.5 GB\n"
  "  verdict            fits, 2.61 GB under budget\n"
  "  notes              The seed's method (weights + KV cache), kept for teaching: a server also allocates a compute buffer, pads the cache and gives sliding-window layers fewer cells; the runtime prediction says what it will load.\n";

static void
test_cli_gguf_llama32 (void)
{
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *header_bytes = NULL;
  g_autofree char *data_offset = NULL;
  g_autofree char *template_bytes = NULL;
  g_autoptr(GgufWriter) w = NULL;

  if (!have_cli ())
    return;

  /* the header's own size, from the writer: the figures below are the seed's */
  w = write_llama32 ();
  header_bytes = hr_format_count (w->len);
  data_offset = hr_format_count (gw_align (w->len, 32));
  template_bytes = hr_format_count (strlen (llama3_template));
  path = write_llama32_blob ();
  /* The seed's method, named (the runtime prediction: test-cli-paths.c). */
  run_cli ((const char *[]) { "gguf", path, "--runtime", "seed", NULL }, 0, &out, &err);
  expected = g_strdup_printf (llama32_report, path, template_bytes, header_bytes, data_offset);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpstr (out, ==, expected);
  g_unlink (path);
}

/* `headroom-cli gguf --ollama-models DIR tiny:1b --verify --runtime seed`
 * for the store, its arguments: the digest, its hex, the size, the header
 * bytes, the data offset, the size again, in GB and GiB, the bits per
 * parameter, the weights and the total. */
static const char tiny_report[] =
  "model               tiny:1b\n"
  "manifest            manifests/registry.ollama.ai/library/tiny/1b\n"
  "model digest        %s\n"
  "GGUF file           blobs/sha256-%s\n"
  "size check          %s bytes, as the manifest says\n"
  "sha256 check        matches the manifest's digest\n"
  "GGUF version        3\n"
  "architecture        llama\n"
  "name                Tiny\n"
  "file type           Q8_0 (general.file_type 7)\n"
  "parameters          64 (summed from 1 tensor shape)\n"
  "layers              2\n"
  "heads               4\n"
  "KV heads            4\n"
  "key length          16\n"
  "value length        16\n"
  "embedding length    64\n"
  "native context      2,048 tokens\n"
  "sliding window      none\n"
  "tied embeddings     yes (no output.weight tensor)\n"
  "tokenizer           gpt2\n"
  "pre-tokenizer       (none)\n"
  "vocabulary          3 tokens, 0 merges\n"
  "BOS                 none\n"
  "EOS                 none\n"
  "chat template       no\n"
  "tensors             1\n"
  "  Q8_0              1 tensor, 68 bytes\n"
  "tensor bytes        68 bytes (0.00 GB, 0.00 GiB)\n"
  "header bytes        %s (tensor data from byte %s, aligned to 32)\n"
  "file size           %s bytes (%s)\n"
  "bits per parameter  %s (file size x 8 / parameters)\n"
  "memory on Jetson Orin Nano Super at 4,096 tokens (f16 KV cache, 1 slot):\n"
  "  method             the seed's weights + KV cache (teaching mode, not a server's figure)\n"
  "  Weights            %s\n"
  "  KV cache           0.00 GB (0.00 GiB)\n"
  "  total              %s\n"
  "  ollama ps          2.1 MB\n"
  "  verdict            fits, 5.10 GB under budget\n"
  "  notes              4,096 tokens is past the model's native context of 2,048.\n"
  "                     The seed's method (weights + KV cache), kept for teaching: a server also allocates a compute buffer, pads the cache and gives sliding-window layers fewer cells; the runtime prediction says what it will load.\n";

/* write_tiny()'s header, key by key: 24 bytes of counts, then each entry. */
static guint64
tiny_header_bytes (void)
{
  g_autoptr(GgufWriter) w = write_tiny ();
  guint64 header_len = 24 + (8 + 20 + 4 + 8 + 5) + (8 + 12 + 4 + 8 + 4) + (8 + 17 + 4 + 4) + (8 + 17 + 4 + 4) +
                       (8 + 22 + 4 + 4) + (8 + 26 + 4 + 4) + (8 + 20 + 4 + 4) +
                       (8 + 21 + 4 + 4 + 8 + (8 + 17) + (8 + 10) + (8 + 2)) + (8 + 20 + 4 + 8 + 4) +
                       (8 + 17 + 4 + 16 + 4 + 8);

  g_assert_cmpuint (header_len, ==, w->len - 68 - (gw_align (header_len, 32) - header_len));
  return header_len;
}

static void
test_cli_gguf_ollama_verify (Store         *store,
                             gconstpointer  data)
{
  guint64 header_len = tiny_header_bytes ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *size = hr_format_count (store->size);
  g_autofree char *header = hr_format_count (header_len);
  g_autofree char *offset = hr_format_count (gw_align (header_len, 32));
  g_autofree char *gb = hr_format_decimal (hr_bytes_to_gb (store->size), 2);
  g_autofree char *gib = hr_format_decimal (hr_bytes_to_gib (store->size), 2);
  g_autofree char *fboth = g_strdup_printf ("%s GB, %s GiB", gb, gib);
  /* KV cache: 2 layers x 4 KV heads x (16 + 16) x 2 bytes x 4,096 tokens = 2,097,152 bytes */
  g_autofree char *weights = hr_format_gb_gib (store->size, 2);
  g_autofree char *total = hr_format_gb_gib (store->size + 2097152, 2);
  g_autofree char *bits = hr_format_decimal (store->size * 8.0 / 64, 2);
  g_autofree char *expected = NULL;

  if (!have_cli ())
    return;
  run_cli ((const char *[]) { "gguf", "--ollama-models", store->dir, "tiny:1b", "--verify", "--runtime", "seed", NULL }, 0, &out, &err);
  g_assert_cmpstr (err, ==, "verifying sha256: 100%\n");
  expected = g_strdup_printf (tiny_report, store->digest, store->digest + 7, size, header, offset, size, fboth,
                              bits, weights, total);
  g_assert_cmpstr (out, ==, expected);
}

/* without --verify the digest is not checked, and says so */
static void
test_cli_gguf_ollama_unverified (Store         *store,
                                 gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (!have_cli ())
    return;
  run_cli ((const char *[]) { "gguf", "--ollama-models", store->dir, "tiny:2b", NULL }, 0, &out, &err);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "\nsha256 check        not checked (add --verify)\n"));
}

/* a size mismatch is refused before the file is read */
static void
test_cli_gguf_ollama_wrong_size (Store         *store,
                                 gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *size = hr_format_count (store->size);
  g_autofree char *want = hr_format_count (store->size + 1);
  g_autofree char *expected = g_strdup_printf ("headroom-cli: the model blob blobs/sha256-%s is %s bytes but the manifest says %s; "
                                               "it is incomplete or was changed: pull the model again (ollama pull tiny:short)\n",
                                               store->digest + 7, size, want);

  if (!have_cli ())
    return;
  write_manifest (store, "manifests/registry.ollama.ai/library/tiny/short", store->digest, store->size + 1);
  run_cli ((const char *[]) { "gguf", "--ollama-models", store->dir, "tiny:short", NULL }, 1, &out, &err);
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpstr (err, ==, expected);
}

/* a digest mismatch under --verify */
static void
test_cli_gguf_ollama_wrong_digest (Store         *store,
                                   gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *actual = NULL;
  g_autofree char *expected = NULL;
  gsize length;

  if (!have_cli ())
    return;
  g_assert_true (g_file_get_contents (store->blob_path, &contents, &length, NULL));
  contents[length - 1] ^= 1;
  g_assert_true (g_file_set_contents (store->blob_path, contents, length, NULL));
  actual = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (guint8 *) contents, length);
  run_cli ((const char *[]) { "gguf", "--ollama-models", store->dir, "tiny:1b", "--verify", NULL }, 1, &out, &err);
  expected = g_strdup_printf ("verifying sha256: 100%%\n"
                              "headroom-cli: the model blob blobs/sha256-%s has sha256 %s but the manifest says %s; "
                              "the file is corrupt: pull the model again (ollama pull tiny:1b)\n",
                              store->digest + 7, actual, store->digest + 7);
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpstr (err, ==, expected);
}

/* `headroom-cli gguf FILE --json --context 16384 --runtime seed` for
 * write_llama32_blob(), parsed into @parser; NULL, the case skipped, without
 * the CLI. Returns: (transfer none) (nullable): the root object. */
static JsonObject *
llama32_json (JsonParser *parser)
{
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;

  if (!have_cli ())
    return NULL;
  path = write_llama32_blob ();
  run_cli ((const char *[]) { "gguf", path, "--json", "--context", "16384", "--runtime", "seed", NULL }, 0, &out, &err);
  g_unlink (path);
  g_assert_cmpstr (err, ==, "");
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_cli_gguf_json_file (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root = llama32_json (parser);
  JsonObject *tok;

  if (root == NULL)
    return;
  g_assert_cmpint (json_object_get_int_member (root, "gguf_version"), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (root, "architecture"), ==, "llama");
  g_assert_cmpstr (json_object_get_string_member (root, "file_type_label"), ==, "Q4_K_M");
  g_assert_cmpint (json_object_get_int_member (root, "parameters"), ==, G_GINT64_CONSTANT (3212749888));
  g_assert_cmpint (json_object_get_int_member (root, "kv_heads"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (root, "file_bytes"), ==, G_GINT64_CONSTANT (2019377376));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (root, "bits_per_parameter"), 5.028408550675, 1e-9);
  g_assert_true (json_object_get_null_member (root, "split"));
  tok = json_object_get_object_member (root, "tokenizer");
  g_assert_cmpint (json_object_get_int_member (tok, "vocab_size"), ==, 128256);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (tok, "eos"), "token"), ==, "<|eot_id|>");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (tok, "chat_markers")), ==, 3);
}

static void
test_cli_gguf_json_tensors (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root = llama32_json (parser);
  JsonObject *tensors, *entry;
  JsonArray *by_type;

  if (root == NULL)
    return;
  tensors = json_object_get_object_member (root, "tensors");
  g_assert_cmpint (json_object_get_int_member (tensors, "bytes"), ==, G_GINT64_CONSTANT (2011539712));
  by_type = json_object_get_array_member (tensors, "by_type");
  g_assert_cmpuint (json_array_get_length (by_type), ==, 3);
  entry = json_array_get_object_element (by_type, 1);
  g_assert_cmpstr (json_object_get_string_member (entry, "type"), ==, "Q4_K");
  g_assert_cmpint (json_object_get_int_member (entry, "count"), ==, 168);
}

static void
test_cli_gguf_json_prediction (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root = llama32_json (parser);
  JsonObject *memory, *kv;

  if (root == NULL)
    return;
  memory = json_object_get_object_member (root, "prediction");
  g_assert_cmpstr (json_object_get_string_member (memory, "board"), ==, "jetson-orin-nano-super");
  g_assert_cmpstr (json_object_get_string_member (memory, "method"), ==, "seed");
  g_assert_cmpint (json_object_get_int_member (memory, "context_tokens"), ==, 16384);
  /* 114,688 bytes per token x 16,384 */
  kv = json_array_get_object_element (json_object_get_array_member (memory, "terms"), 1);
  g_assert_cmpstr (json_object_get_string_member (kv, "id"), ==, "kv_cache");
  g_assert_cmpint (json_object_get_int_member (kv, "bytes"), ==, G_GINT64_CONSTANT (1879048192));
  g_assert_cmpint (json_object_get_int_member (memory, "total_bytes"), ==, G_GINT64_CONSTANT (2019377376) + G_GINT64_CONSTANT (1879048192));
  g_assert_cmpstr (json_object_get_string_member (memory, "verdict"), ==, "fits");
}

/* usage errors: exit 2, one line */
typedef struct {
  const char *path;
  gboolean    with_file; /* a GGUF file after "gguf" */
  const char *options[3];
  const char *message;
} GgufUsage;

static const GgufUsage gguf_usages[] = {
  { "/cli/gguf/usage/no-file", FALSE, { NULL },
    "headroom-cli: gguf takes one FILE (or --ollama-models DIR MODEL[:TAG])\n" },
  { "/cli/gguf/usage/verify-without-store", TRUE, { "--verify", NULL },
    "headroom-cli: --verify needs --ollama-models: a plain file has no manifest digest to check against\n" },
  { "/cli/gguf/usage/context-zero", TRUE, { "--context", "0", NULL },
    "headroom-cli: --context must be a whole number from 1 to 67108864, not \"0\"\n" },
};

static void
test_cli_gguf_usage (gconstpointer data)
{
  const GgufUsage *usage = data;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[6] = { "gguf", NULL };
  guint n = 1;

  if (!have_cli ())
    return;
  if (usage->with_file)
    argv[n++] = path = write_llama32_blob ();
  for (guint i = 0; usage->options[i] != NULL; i++)
    argv[n++] = usage->options[i];
  run_cli (argv, 2, &out, &err);
  if (path != NULL)
    g_unlink (path);
  g_assert_cmpstr (err, ==, usage->message);
}

/* a missing file: exit 1, in the CLI's words (test-cli.c checks more) */
static void
test_cli_gguf_missing_file (void)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *missing = g_build_filename (g_get_user_cache_dir (), "absent.gguf", NULL);
  g_autofree char *expected = g_strdup_printf ("headroom-cli: cannot open %s: No such file or directory; check the path, or find a "
                                               "model Ollama pulled with --ollama-models DIR MODEL[:TAG]\n", missing);

  if (!have_cli ())
    return;
  run_cli ((const char *[]) { "gguf", missing, NULL }, 1, &out, &err);
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpstr (err, ==, expected);
}

/* The split-model loading `headroom-cli gguf` and the File page share, and
 * the report built on it. */
static void
test_gguf_load_model_and_report (void)
{
  g_autoptr(GgufWriter) w0 = write_shard (0);
  g_autoptr(GgufWriter) w1 = write_shard (1);
  g_autofree char *first = write_temp ("tiny-00001-of-00002.gguf", w0);
  g_autofree char *second = write_temp ("tiny-00002-of-00002.gguf", w1);
  g_autofree char *renamed = write_temp ("tiny.gguf", w0);
  g_autofree char *problem = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(HrGgufReport) report = NULL;

  file = hr_gguf_file_load_model (first, NULL, NULL, &problem, &error);
  g_assert_no_error (error);
  g_assert_null (problem);
  g_assert_cmpuint (hr_gguf_file_get_n_shards (file), ==, 2);
  g_assert_cmpuint (hr_gguf_file_get_parameters (file), ==, 1280);
  g_clear_pointer (&file, hr_gguf_file_unref);

  /* a later shard: an error naming the first */
  g_assert_null (hr_gguf_file_load_model (second, NULL, NULL, &problem, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
  expected = g_strdup_printf ("%s is shard 2 of 2 of a split model; the model's metadata is in the first shard: open %s",
                              second, first);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  /* a first shard not named like one: the first shard alone, and why */
  file = hr_gguf_file_load_model (renamed, NULL, NULL, &problem, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (problem, ==, "the file is not named NAME-00001-of-NNNNN.gguf, so its other shards cannot be found");
  g_assert_cmpuint (hr_gguf_file_get_n_shards (file), ==, 1);
  g_clear_pointer (&problem, g_free);

  /* the report: both shards summed, types in hr_ggml_type_list() order */
  report = hr_gguf_report_build (first, NULL, NULL, "gguf:test", NULL, 4096, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (report->split);
  g_assert_cmpuint (report->split_count, ==, 2);
  g_assert_cmpuint (report->n_shards, ==, 2);
  g_assert_null (report->split_problem);
  g_assert_cmpuint (report->n_tensors, ==, 2);
  g_assert_cmpuint (report->types->len, ==, 2);
  g_assert_cmpstr (g_array_index (report->types, HrGgufReportType, 0).name, ==, "F32");
  g_assert_cmpuint (g_array_index (report->types, HrGgufReportType, 0).bytes, ==, 1024);
  g_assert_cmpstr (g_array_index (report->types, HrGgufReportType, 1).name, ==, "Q4_K");
  g_assert_cmpuint (report->tensor_bytes, ==, 1024 + 576);
  g_assert_cmpuint (report->context_tokens, ==, 4096);
  g_assert_cmpuint (report->footprint.total, >=, report->footprint.weights);
  g_assert_cmpuint (report->budget, ==, 0); /* no board */

  g_unlink (first);
  g_unlink (second);
  g_unlink (renamed);
}

static void
test_cli_gguf_split (void)
{
  g_autoptr(GgufWriter) w0 = write_shard (0);
  g_autoptr(GgufWriter) w1 = write_shard (1);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *line = NULL;

  if (g_getenv ("HEADROOM_CLI") == NULL)
    {
      g_test_skip ("HEADROOM_CLI is not set (run under meson test)");
      return;
    }

  first = write_temp ("tiny-00001-of-00002.gguf", w0);
  second = write_temp ("tiny-00002-of-00002.gguf", w1);

  run_cli ((const char *[]) { "gguf", first, NULL }, 0, &out, &err);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "\nparameters          1,280 (summed from 2 tensor shapes)\n"));
  g_assert_nonnull (strstr (out, "\n  F32               1 tensor, 1,024 bytes\n  Q4_K              1 tensor, 576 bytes\n"));
  g_assert_nonnull (strstr (out, "\nsplit               2 shards, summed: the tensor figures, file size and memory cover the whole model\n"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* a later shard holds no model metadata: say which file to open */
  run_cli ((const char *[]) { "gguf", second, NULL }, 1, &out, &err);
  g_clear_pointer (&line, g_free);
  line = g_strdup_printf ("headroom-cli: %s is shard 2 of 2 of a split model; the model's metadata is in the first shard: open %s\n",
                          second, first);
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpstr (err, ==, line);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_unlink (second);
  run_cli ((const char *[]) { "gguf", first, NULL }, 0, &out, &err);
  g_clear_pointer (&line, g_free);
  line = g_strdup_printf ("\nsplit               shard 1 of 2: the tensor figures above cover this shard only "
                          "(Error opening file %s: No such file or directory)\n", second);
  g_assert_nonnull (strstr (out, line));
  g_assert_nonnull (strstr (out, "\nparameters          1,024 (summed from 1 tensor shape)\n"));
  g_unlink (first);
}

/* A head count of 0 is an impossible number, named with its key;
 * a recurrent architecture (llama.cpp's llm_arch_is_recurrent, whose
 * converters write head_count 0) is sized from its own keys
 * (hr-gguf-recurrent.c), and without the one llama.cpp requires it fails
 * as llama.cpp would, naming the key. */
/* A header the mapper refuses for its heads or its missing keys. */
typedef struct {
  const char *path;
  const char *arch;
  guint32     heads;
  gboolean    kv_key;
  guint32     kv;
  gboolean    kv_array;
  gint        code;
  const char *message;
} ZeroHeads;

static const ZeroHeads zero_heads[] = {
  { "/gguf/spec/zero-heads/heads", "llama", 0, FALSE, 0, FALSE, HR_CORE_ERROR_INVALID_DATA,
    "llama.attention.head_count is 0; a model has at least one attention head" },
  { "/gguf/spec/zero-heads/kv-heads", "llama", 32, TRUE, 0, FALSE, HR_CORE_ERROR_INVALID_DATA,
    "llama.attention.head_count_kv is 0; a model has at least one KV head" },
  { "/gguf/spec/zero-heads/kv-heads-every-layer", "qwen2", 16, TRUE, 0, TRUE, HR_CORE_ERROR_INVALID_DATA,
    "qwen2.attention.head_count_kv is 0 in every layer; a model has at least one KV head" },
  { "/gguf/spec/zero-heads/mamba-no-conv-kernel", "mamba", 0, TRUE, 0, FALSE, HR_CORE_ERROR_INVALID_DATA,
    "mamba.ssm.conv_kernel is missing; llama.cpp needs it to load mamba (src/models/mamba.cpp)" },
  { "/gguf/spec/zero-heads/rwkv7-no-head-size", "rwkv7", 0, FALSE, 0, FALSE, HR_CORE_ERROR_INVALID_DATA,
    "rwkv7.wkv.head_size is missing; llama.cpp needs it to load rwkv7 (src/models/rwkv7.cpp)" },
  { "/gguf/spec/zero-heads/deepseek4-unsupported", "deepseek4", 64, FALSE, 0, FALSE, HR_CORE_ERROR_UNSUPPORTED,
    "Headroom does not size deepseek4: llama.cpp gives it its own cache, llama_kv_cache_dsv4 "
    "(src/llama-kv-cache-dsv4.cpp: compressed and raw sliding-window KV with a state per sequence), "
    "not the hybrid memory" },
};

static void
test_zero_heads (gconstpointer data)
{
  const ZeroHeads *c = data;
  g_autoptr(GgufWriter) w = gw_new ();
  g_autoptr(HrGgufFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *blocks = g_strconcat (c->arch, ".block_count", NULL);
  g_autofree char *embd = g_strconcat (c->arch, ".embedding_length", NULL);
  g_autofree char *heads = g_strconcat (c->arch, ".attention.head_count", NULL);
  g_autofree char *kv = g_strconcat (c->arch, ".attention.head_count_kv", NULL);
  const guint32 zeros[2] = { 0, 0 };

  gw_header (w, 3, 0, c->kv_key ? 5 : 4);
  gw_kv_str (w, "general.architecture", c->arch);
  gw_kv_u32 (w, blocks, 2);
  gw_kv_u32 (w, embd, 2048);
  gw_kv_u32 (w, heads, c->heads);
  if (c->kv_key && c->kv_array)
    gw_kv_u32_array (w, kv, zeros, 2);
  else if (c->kv_key)
    gw_kv_u32 (w, kv, c->kv);
  file = parse_ok (w);
  g_assert_null (hr_gguf_file_to_model_spec (file, NULL, NULL, &error));
  g_assert_error (error, HR_CORE_ERROR, c->code);
  g_assert_cmpstr (error->message, ==, c->message);
}

static void
test_arch_is_recurrent (void)
{
  g_assert_true (hr_gguf_keys_arch_is_recurrent ("mamba2"));
  g_assert_true (hr_gguf_keys_arch_is_recurrent ("rwkv6qwen2"));
  g_assert_false (hr_gguf_keys_arch_is_recurrent ("jamba")); /* hybrid: attention layers have a KV cache */
  g_assert_false (hr_gguf_keys_arch_is_recurrent ("llama"));
  g_assert_false (hr_gguf_keys_arch_is_recurrent (NULL));
}

/* Tensors of a ggml type this version does not know are printed
 * apart, with their type ids, their bytes from the layout, and the name of
 * one whose size nothing tells (text and JSON). */
/* A llama header with tensors of ggml types 99 and 77, which no version
 * knows, and its data: F16 token_embd (12,800 bytes), blk.0.ffn_up (type
 * 99, 8,192 bytes to the next offset) and blk.0.ffn_down (type 77, the
 * last). @data_offset set to where the tensor data starts. */
static GgufWriter *
write_unknown_types (guint64 *data_offset)
{
  GgufWriter *w = gw_new ();
  const guint64 embd[2] = { 64, 100 }, square[2] = { 64, 64 };
  guint header_len;

  gw_header (w, 3, 3, 4);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_u32 (w, "llama.block_count", 1);
  gw_kv_u32 (w, "llama.embedding_length", 64);
  gw_kv_u32 (w, "llama.attention.head_count", 4);
  gw_tensor (w, "token_embd.weight", 2, embd, 1, 0);             /* F16: 12,800 bytes */
  gw_tensor (w, "blk.0.ffn_up.weight", 2, square, 99, 12800);    /* to the next offset: 8,192 */
  gw_tensor (w, "blk.0.ffn_down.weight", 2, square, 77, 20992);  /* the last */
  header_len = w->len;
  *data_offset = gw_align (header_len, 32);
  g_byte_array_set_size (w, *data_offset + 20992 + 8192);
  memset (w->data + header_len, 0, w->len - header_len);
  return w;
}

/* write_unknown_types()'s first @length bytes (G_MAXSIZE: all) saved in
 * the user data folder. Returns: (transfer full): the path */
static char *
save_unknown_types (gsize length)
{
  guint64 data_offset;
  g_autoptr(GgufWriter) w = write_unknown_types (&data_offset);
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_user_data_dir (), "unknown-types.gguf", NULL);

  if (length == G_MAXSIZE)
    length = w->len;
  else
    length = data_offset + length;
  g_assert_cmpint (g_mkdir_with_parents (g_get_user_data_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, (const char *) w->data, length, &error));
  g_assert_no_error (error);
  return path;
}

/* `headroom-cli gguf PATH --json`'s tensors.unknown_types, parsed into @parser. */
static JsonObject *
unknown_types_json (JsonParser *parser,
                    const char *path)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;

  run_cli ((const char *[]) { "gguf", path, "--json", NULL }, 0, &out, &err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_object_get_object_member (json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                                                       "tensors"), "unknown_types");
}

/* The whole file: the last one is sized to the file's end. */
static void
test_cli_gguf_unknown_types (void)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *unknown;
  JsonArray *types;

  if (!have_cli ())
    return;
  path = save_unknown_types (G_MAXSIZE);
  unknown = unknown_types_json (parser, path);
  g_assert_cmpint (json_object_get_int_member (unknown, "count"), ==, 2);
  types = json_object_get_array_member (unknown, "types");
  g_assert_cmpuint (json_array_get_length (types), ==, 2);
  g_assert_cmpint (json_array_get_int_element (types, 0), ==, 77);
  g_assert_cmpint (json_array_get_int_element (types, 1), ==, 99);
  g_assert_cmpint (json_object_get_int_member (unknown, "bytes"), ==, 16384);
  g_assert_cmpint (json_object_get_int_member (unknown, "unsized"), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (unknown, "unsized_names")), ==, 0);
}

/* Cut where the last one starts: nothing tells its size. */
static void
test_cli_gguf_unknown_types_cut (void)
{
  g_autofree char *path = NULL;
  g_autofree char *out = NULL, *err = NULL;

  if (!have_cli ())
    return;
  path = save_unknown_types (20992);
  run_cli ((const char *[]) { "gguf", path, NULL }, 0, &out, &err);
  g_assert_nonnull (strstr (out, "\n  F16               1 tensor, 12,800 bytes\n"
                                 "  unknown types     2 tensors of ggml types 77, 99, which this version does not know: "
                                 "8,192 bytes, from the layout (the next tensor's offset or the file's end)\n"
                                 "  unknown size      blk.0.ffn_down.weight (nothing after it tells its size; "
                                 "not in the tensor bytes)\n"
                                 "tensor bytes        20,992 "));
}

static void
test_cli_gguf_unknown_types_cut_json (void)
{
  g_autofree char *path = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *unknown;
  JsonArray *names;

  if (!have_cli ())
    return;
  path = save_unknown_types (20992);
  unknown = unknown_types_json (parser, path);
  g_assert_cmpint (json_object_get_int_member (unknown, "bytes"), ==, 8192);
  g_assert_cmpint (json_object_get_int_member (unknown, "unsized"), ==, 1);
  names = json_object_get_array_member (unknown, "unsized_names");
  g_assert_cmpuint (json_array_get_length (names), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (names, 0), ==, "blk.0.ffn_down.weight");
}

/* A header without head counts is not sized: no 0-byte KV cache
 * that "fits" (text and JSON say which key is missing). */
static void
test_cli_gguf_no_heads (void)
{
  g_autoptr(GgufWriter) w = gw_new ();
  const guint64 embd[2] = { 64, 100 };
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "no-heads.gguf", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  const char *said = "the header has no llama.attention.head_count, so the KV cache cannot be sized and there is no verdict";
  JsonObject *memory;
  guint header_len;

  if (g_getenv ("HEADROOM_CLI") == NULL)
    {
      g_test_skip ("HEADROOM_CLI is not set (run under meson test)");
      return;
    }
  gw_header (w, 3, 1, 3);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_u32 (w, "llama.block_count", 2);
  gw_kv_u32 (w, "llama.embedding_length", 64);
  gw_tensor (w, "token_embd.weight", 2, embd, 1, 0);
  header_len = w->len;
  g_byte_array_set_size (w, gw_align (header_len, 32) + 12800);
  memset (w->data + header_len, 0, w->len - header_len);
  g_assert_cmpint (g_mkdir_with_parents (g_get_user_data_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, (const char *) w->data, w->len, &error));

  run_cli ((const char *[]) { "gguf", path, NULL }, 0, &out, &err);
  {
    g_autofree char *tail = g_strdup_printf ("\nmemory:\n  not sized         %s\n", said);

    g_assert_true (g_str_has_suffix (out, tail));
  }
  g_assert_null (strstr (out, "fits"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  run_cli ((const char *[]) { "gguf", path, "--json", NULL }, 0, &out, &err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  memory = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (memory, "prediction_problem"), ==, said);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (memory, "prediction")));
}

/* A recurrent model's report is first-class: no "cannot be sized", the
 * recurrent layers, n_embd_r / n_embd_s and the state per slot
 * (2 layers x (3 x (5120 + 2 x 128) + 128 x 5120) values x 4 bytes), in
 * text and JSON, and a prediction with a recurrent state and no KV cache. */
/* A two-layer mamba2 header and its token_embd, saved in the user data
 * folder. Returns: (transfer full): the path */
static char *
save_mamba2 (void)
{
  g_autoptr(GgufWriter) w = gw_new ();
  const guint64 embd[2] = { 64, 100 };
  char *path = g_build_filename (g_get_user_data_dir (), "mamba2.gguf", NULL);
  guint header_len;

  gw_header (w, 3, 1, 9);
  gw_kv_str (w, "general.architecture", "mamba2");
  gw_kv_u32 (w, "mamba2.block_count", 2);
  gw_kv_u32 (w, "mamba2.embedding_length", 2560);
  gw_kv_u32 (w, "mamba2.attention.head_count", 0);
  gw_kv_u32 (w, "mamba2.ssm.conv_kernel", 4);
  gw_kv_u32 (w, "mamba2.ssm.inner_size", 5120);
  gw_kv_u32 (w, "mamba2.ssm.state_size", 128);
  gw_kv_u32 (w, "mamba2.ssm.time_step_rank", 80);
  gw_kv_u32 (w, "mamba2.ssm.group_count", 1);
  gw_tensor (w, "token_embd.weight", 2, embd, 1, 0);
  header_len = w->len;
  g_byte_array_set_size (w, gw_align (header_len, 32) + 12800);
  memset (w->data + header_len, 0, w->len - header_len);
  g_assert_cmpint (g_mkdir_with_parents (g_get_user_data_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, (const char *) w->data, w->len, NULL));
  return path;
}

static void
test_cli_gguf_recurrent (void)
{
  g_autofree char *path = NULL;
  g_autofree char *out = NULL, *err = NULL;

  if (!have_cli ())
    return;
  path = save_mamba2 ();
  run_cli ((const char *[]) { "gguf", path, "--backend", "cpu", NULL }, 0, &out, &err);
  g_assert_nonnull (strstr (out, "\nKV heads            none: llama.cpp keeps no attention KV cache for a recurrent model\n"));
  g_assert_nonnull (strstr (out, "\nrecurrent layers    2 of 2: 0 1\n"));
  g_assert_nonnull (strstr (out, "\nrecurrent state     n_embd_r 16,128 + n_embd_s 655,360 values per layer, f32: "
                                 "5,371,904 bytes (5.12 MiB) per slot\n"));
  g_assert_null (strstr (out, "not sized"));
  g_assert_null (strstr (out, "  KV cache "));
  g_assert_nonnull (strstr (out, "\n  Recurrent state "));
}

static void
test_cli_gguf_recurrent_json (void)
{
  g_autofree char *path = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *recurrent;
  JsonArray *layers;

  if (!have_cli ())
    return;
  path = save_mamba2 ();
  run_cli ((const char *[]) { "gguf", path, "--json", NULL }, 0, &out, &err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  recurrent = json_object_get_object_member (root, "recurrent");
  layers = json_object_get_array_member (recurrent, "layers");
  g_assert_cmpuint (json_array_get_length (layers), ==, 2);
  g_assert_cmpint (json_array_get_int_element (layers, 1), ==, 1);
  g_assert_cmpint (json_object_get_int_member (recurrent, "n_embd_r"), ==, 16128);
  g_assert_cmpint (json_object_get_int_member (recurrent, "n_embd_s"), ==, 655360);
  g_assert_cmpint (json_object_get_int_member (recurrent, "bytes_per_slot"), ==, 5371904);
  g_assert_false (json_object_has_member (root, "prediction_problem"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/gguf/value-types/header", AllTypes, NULL, all_types_set_up, test_value_types_header, all_types_tear_down);
  g_test_add ("/gguf/value-types/integers", AllTypes, NULL, all_types_set_up, test_value_types_integers, all_types_tear_down);
  g_test_add ("/gguf/value-types/floats-flags-strings", AllTypes, NULL, all_types_set_up, test_value_types_floats_flags_strings, all_types_tear_down);
  g_test_add ("/gguf/value-types/number-arrays", AllTypes, NULL, all_types_set_up, test_value_types_number_arrays, all_types_tear_down);
  g_test_add ("/gguf/value-types/string-array", AllTypes, NULL, all_types_set_up, test_value_types_string_array, all_types_tear_down);
  g_test_add ("/gguf/value-types/nested-arrays", AllTypes, NULL, all_types_set_up, test_value_types_nested_arrays, all_types_tear_down);
  g_test_add_func ("/gguf/value-types/type-names", test_gguf_type_names);
  g_test_add_func ("/gguf/version2", test_gguf_version2);
  g_test_add_func ("/gguf/tensor-types", test_gguf_tensor_types);
  for (guint i = 0; i < G_N_ELEMENTS (bad_files); i++)
    g_test_add_data_func (bad_files[i].path, &bad_files[i], test_gguf_bad_file);
  g_test_add_func ("/gguf/bad/truncated/every-prefix", test_gguf_truncated_prefixes);
  g_test_add_func ("/gguf/bad/truncated/in-counts", test_gguf_truncated_in_counts);
  g_test_add_func ("/gguf/bad/truncated/in-key", test_gguf_truncated_in_key);
  g_test_add_func ("/gguf/bad/truncated/in-value", test_gguf_truncated_in_value);
  g_test_add_func ("/gguf/bad/truncated/in-tensor", test_gguf_truncated_in_tensor);
  g_test_add ("/gguf/llama3.2-3b/tensor-types", Llama32, NULL, llama32_set_up, test_llama32_tensor_types, llama32_tear_down);
  g_test_add ("/gguf/llama3.2-3b/bits-per-parameter", Llama32, NULL, llama32_set_up, test_llama32_bits_per_parameter, llama32_tear_down);
  g_test_add ("/gguf/llama3.2-3b/spec", Llama32, NULL, llama32_set_up, test_llama32_spec, llama32_tear_down);
  g_test_add ("/gguf/llama3.2-3b/spec-sources", Llama32, NULL, llama32_set_up, test_llama32_spec_sources, llama32_tear_down);
  g_test_add ("/gguf/llama3.2-3b/tokenizer", Llama32, NULL, llama32_set_up, test_llama32_tokenizer, llama32_tear_down);
  g_test_add ("/gguf/llama3.2-3b/streamed-vocabulary", Llama32, NULL, llama32_set_up, test_llama32_streamed_vocabulary, llama32_tear_down);
  g_test_add ("/gguf/llama3.2-3b/compact-vocabulary", Llama32, NULL, llama32_set_up, test_llama32_compact_vocabulary, llama32_tear_down);
  g_test_add_func ("/gguf/tokenizer/markers-by-shape", test_gguf_tokenizer_variants);
  g_test_add_func ("/gguf/tokenizer/absent", test_gguf_tokenizer_absent);
  g_test_add_func ("/gguf/per-layer", test_gguf_per_layer);
  for (guint i = 0; i < G_N_ELEMENTS (bad_specs); i++)
    g_test_add_data_func (bad_specs[i].path, &bad_specs[i], test_gguf_bad_spec);
  g_test_add_func ("/gguf/sliding", test_gguf_sliding);
  g_test_add_func ("/gguf/split", test_gguf_split);
  g_test_add_func ("/gguf/split-shards", test_gguf_split_shards);
  g_test_add_func ("/gguf/load-model-and-report", test_gguf_load_model_and_report);
  g_test_add_func ("/gguf/load-file", test_gguf_load_file);
  g_test_add ("/ollama-store/finds-by-tag", Store, NULL, store_set_up, test_ollama_store_finds_by_tag, store_tear_down);
  g_test_add ("/ollama-store/verifies-blob", Store, NULL, store_set_up, test_ollama_store_verifies_blob, store_tear_down);
  g_test_add ("/ollama-store/blob-is-the-gguf", Store, NULL, store_set_up, test_ollama_store_blob_is_the_gguf, store_tear_down);
  g_test_add ("/ollama-store/refuses-unknown-model", Store, NULL, store_set_up, test_ollama_store_refuses_unknown_model, store_tear_down);
  g_test_add ("/ollama-store/refuses-unknown-tag", Store, NULL, store_set_up, test_ollama_store_refuses_unknown_tag, store_tear_down);
  g_test_add ("/ollama-store/refuses-other-directory", Store, NULL, store_set_up, test_ollama_store_refuses_other_directory, store_tear_down);
  g_test_add ("/ollama-store/refuses-wrong-size", Store, NULL, store_set_up, test_ollama_store_refuses_wrong_size, store_tear_down);
  g_test_add ("/ollama-store/refuses-wrong-digest", Store, NULL, store_set_up, test_ollama_store_refuses_wrong_digest, store_tear_down);
  g_test_add ("/ollama-store/refuses-missing-blob", Store, NULL, store_set_up, test_ollama_store_refuses_missing_blob, store_tear_down);
  for (guint i = 0; i < G_N_ELEMENTS (store_names); i++)
    g_test_add (store_names[i].path, Store, &store_names[i], store_set_up, test_ollama_store_finds_name, store_tear_down);
  for (guint i = 0; i < G_N_ELEMENTS (store_bad_names); i++)
    g_test_add (store_bad_names[i].path, Store, &store_bad_names[i], store_set_up, test_ollama_store_refuses_name, store_tear_down);
  for (guint i = 0; i < G_N_ELEMENTS (store_bad_manifests); i++)
    g_test_add (store_bad_manifests[i].path, Store, &store_bad_manifests[i], store_set_up, test_ollama_store_refuses_manifest, store_tear_down);
  for (guint i = 0; i < G_N_ELEMENTS (zero_heads); i++)
    g_test_add_data_func (zero_heads[i].path, &zero_heads[i], test_zero_heads);
  g_test_add_func ("/gguf/spec/arch-is-recurrent", test_arch_is_recurrent);
  g_test_add_func ("/cli/gguf/llama3.2-3b", test_cli_gguf_llama32);
  g_test_add ("/cli/gguf/ollama/verify", Store, NULL, store_set_up, test_cli_gguf_ollama_verify, store_tear_down);
  g_test_add ("/cli/gguf/ollama/unverified", Store, NULL, store_set_up, test_cli_gguf_ollama_unverified, store_tear_down);
  g_test_add ("/cli/gguf/ollama/refuses-wrong-size", Store, NULL, store_set_up, test_cli_gguf_ollama_wrong_size, store_tear_down);
  g_test_add ("/cli/gguf/ollama/refuses-wrong-digest", Store, NULL, store_set_up, test_cli_gguf_ollama_wrong_digest, store_tear_down);
  g_test_add_func ("/cli/gguf/json/file", test_cli_gguf_json_file);
  g_test_add_func ("/cli/gguf/json/tensors", test_cli_gguf_json_tensors);
  g_test_add_func ("/cli/gguf/json/prediction", test_cli_gguf_json_prediction);
  for (guint i = 0; i < G_N_ELEMENTS (gguf_usages); i++)
    g_test_add_data_func (gguf_usages[i].path, &gguf_usages[i], test_cli_gguf_usage);
  g_test_add_func ("/cli/gguf/missing-file", test_cli_gguf_missing_file);
  g_test_add_func ("/cli/gguf/split", test_cli_gguf_split);
  g_test_add_func ("/cli/gguf/unknown-types/sized-by-layout", test_cli_gguf_unknown_types);
  g_test_add_func ("/cli/gguf/unknown-types/cut", test_cli_gguf_unknown_types_cut);
  g_test_add_func ("/cli/gguf/unknown-types/cut-json", test_cli_gguf_unknown_types_cut_json);
  g_test_add_func ("/cli/gguf/no-heads", test_cli_gguf_no_heads);
  g_test_add_func ("/cli/gguf/recurrent/report", test_cli_gguf_recurrent);
  g_test_add_func ("/cli/gguf/recurrent/json", test_cli_gguf_recurrent_json);

  return g_test_run ();
}
