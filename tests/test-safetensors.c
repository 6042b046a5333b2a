/* test-safetensors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The safetensors header and index parsers: the Qwen2.5-3B-Instruct shards
 * (docs/seed-figures.md, "A Hugging Face lookup": 434 tensors, 3,085,938,688 BF16
 * parameters, total_size 6,171,877,376, shards of 3,968,658,944 and
 * 2,203,268,048 bytes), and each way a header can be wrong.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "hr-error.h"
#include "hr-safetensors.h"
#include "hub-fixtures.h"

/* 8-byte length + JSON. */
static GBytes *
make_file (const char *json)
{
  gsize n = strlen (json);
  GByteArray *out = g_byte_array_new ();
  guint8 len[8];

  for (guint i = 0; i < 8; i++)
    len[i] = (guint8) ((guint64) n >> (8 * i));
  g_byte_array_append (out, len, 8);
  g_byte_array_append (out, (const guint8 *) json, n);
  return g_byte_array_free_to_bytes (out);
}

static HrSafetensorsHeader *
parse_json (const char *json,
            GError    **error)
{
  g_autoptr(GBytes) file = make_file (json);
  gsize size;
  const guint8 *data = g_bytes_get_data (file, &size);

  return hr_safetensors_header_parse (data, size, error);
}

static void
expect_error (const char *json,
              gint        code,
              const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSafetensorsHeader) header = parse_json (json, &error);

  g_assert_null (header);
  g_assert_error (error, HR_CORE_ERROR, code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
}

static void
test_qwen_shards (void)
{
  guint64 data1 = 0, data2 = 0;
  g_autoptr(GBytes) head1 = qwen_shard_head (1, &data1);
  g_autoptr(GBytes) head2 = qwen_shard_head (2, &data2);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSafetensorsHeader) h1 = NULL;
  g_autoptr(HrSafetensorsHeader) h2 = NULL;
  const HrSafetensorsDtype *bf16;
  gsize size1, size2;
  const guint8 *d1 = g_bytes_get_data (head1, &size1);
  const guint8 *d2 = g_bytes_get_data (head2, &size2);
  guint64 n;

  g_assert_true (hr_safetensors_header_length (d1, size1, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 30200);

  h1 = hr_safetensors_header_parse (d1, size1, &error);
  g_assert_no_error (error);
  h2 = hr_safetensors_header_parse (d2, size2, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (h1->header_length, ==, 30200);
  g_assert_cmpuint (h2->header_length, ==, 19400);
  g_assert_cmpuint (h1->n_tensors, ==, 264);
  g_assert_cmpuint (h2->n_tensors, ==, 170);
  g_assert_cmpuint (h1->data_bytes, ==, data1);
  /* The shard files' sizes: 8 + N + data. */
  g_assert_cmpuint (8 + h1->header_length + h1->data_bytes, ==, QWEN_SHARD1_BYTES);
  g_assert_cmpuint (8 + h2->header_length + h2->data_bytes, ==, QWEN_SHARD2_BYTES);
  g_assert_cmpstr (g_hash_table_lookup (h1->metadata, "format"), ==, "pt");

  g_assert_true (hr_safetensors_header_merge (h1, h2, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (h1->n_tensors, ==, 434);
  g_assert_cmpuint (h1->parameters, ==, QWEN_PARAMETERS);
  g_assert_cmpuint (h1->data_bytes, ==, QWEN_TOTAL_SIZE);
  g_assert_cmpuint (h1->dtypes->len, ==, 1);
  bf16 = hr_safetensors_header_get_dtype (h1, "BF16");
  g_assert_nonnull (bf16);
  g_assert_cmpuint (bf16->parameters, ==, 3085938688);
  g_assert_cmpuint (bf16->bytes, ==, 6171877376);
  g_assert_cmpuint (bf16->tensors, ==, 434);
  g_assert_null (hr_safetensors_header_get_dtype (h1, "F32"));
}

static void
test_dtypes (void)
{
  g_assert_cmpuint (hr_safetensors_dtype_bits ("BF16"), ==, 16);
  g_assert_cmpuint (hr_safetensors_dtype_bits ("F8_E4M3"), ==, 8);
  g_assert_cmpuint (hr_safetensors_dtype_bits ("F8_E8M0"), ==, 8);
  g_assert_cmpuint (hr_safetensors_dtype_bits ("BOOL"), ==, 8);
  g_assert_cmpuint (hr_safetensors_dtype_bits ("U64"), ==, 64);
  g_assert_cmpuint (hr_safetensors_dtype_bits ("F4"), ==, 4);
  g_assert_cmpuint (hr_safetensors_dtype_bits ("F6_E3M2"), ==, 6);
  g_assert_cmpuint (hr_safetensors_dtype_bits ("bf16"), ==, 0);
  g_assert_cmpuint (hr_safetensors_dtype_bits ("Q4"), ==, 0);
  g_assert_cmpuint (hr_safetensors_dtype_bits (NULL), ==, 0);
}

static void
test_mixed_and_packed (void)
{
  g_autoptr(GError) error = NULL;
  /* A GPTQ-style layer: packed I32 weights, F16 scales, an unknown dtype
   * counted by its span, an F4 tensor of 3 elements (12 bits -> 2 bytes),
   * empty tensors, and metadata with a non-string value. */
  g_autoptr(HrSafetensorsHeader) h =
    parse_json ("{\"__metadata__\":{\"format\":\"pt\",\"n\":3,\"quant\":\"gptq\"},"
                "\"w.qweight\":{\"dtype\":\"I32\",\"shape\":[256,2048],\"data_offsets\":[0,2097152]},"
                "\"w.scales\":{\"dtype\":\"F16\",\"shape\":[16,2048],\"data_offsets\":[2097152,2162688]},"
                "\"w.odd\":{\"dtype\":\"Q9_FANCY\",\"shape\":[10],\"data_offsets\":[2162688,2162701]},"
                "\"w.f4\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[2162701,2162703]},"
                "\"empty.a\":{\"dtype\":\"F32\",\"shape\":[0,4],\"data_offsets\":[2162703,2162703]},"
                "\"empty.b\":{\"dtype\":\"F32\",\"shape\":[4,0],\"data_offsets\":[0,0]}}",
                &error);
  const HrSafetensorsDtype *d;

  g_assert_no_error (error);
  g_assert_nonnull (h);
  g_assert_cmpuint (h->n_tensors, ==, 6);
  g_assert_cmpuint (h->data_bytes, ==, 2162703);
  g_assert_cmpuint (h->parameters, ==, 256 * 2048 + 16 * 2048 + 10 + 3);
  g_assert_cmpuint (h->dtypes->len, ==, 5);
  /* Sorted by name: F16, F32, F4, I32, Q9_FANCY. */
  g_assert_cmpstr (((HrSafetensorsDtype *) g_ptr_array_index (h->dtypes, 0))->dtype, ==, "F16");
  g_assert_cmpstr (((HrSafetensorsDtype *) g_ptr_array_index (h->dtypes, 4))->dtype, ==, "Q9_FANCY");
  d = hr_safetensors_header_get_dtype (h, "Q9_FANCY");
  g_assert_cmpuint (d->bytes, ==, 13);
  g_assert_cmpuint (d->parameters, ==, 10);
  d = hr_safetensors_header_get_dtype (h, "F4");
  g_assert_cmpuint (d->bytes, ==, 2);
  d = hr_safetensors_header_get_dtype (h, "F32");
  g_assert_cmpuint (d->tensors, ==, 2);
  g_assert_cmpuint (d->parameters, ==, 0);
  g_assert_cmpstr (g_hash_table_lookup (h->metadata, "quant"), ==, "gptq");
  g_assert_false (g_hash_table_contains (h->metadata, "n"));
}

static void
test_metadata_shapes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSafetensorsHeader) none = parse_json ("{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]}}", &error);
  g_autoptr(HrSafetensorsHeader) array = NULL;
  g_autoptr(HrSafetensorsHeader) empty = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (none->metadata), ==, 0);
  array = parse_json ("{\"__metadata__\":[1,2],\"a\":{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[0,1]}}", &error);
  g_assert_no_error (error);
  /* A scalar: the empty shape holds one element. */
  g_assert_cmpuint (array->parameters, ==, 1);
  /* No tensors at all is no weights file: `{}`, or only metadata. */
  empty = parse_json ("{}", &error);
  g_assert_null (empty);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "The safetensors header lists no tensors");
  g_clear_error (&error);
  empty = parse_json ("{\"__metadata__\":{\"format\":\"pt\"}}", &error);
  g_assert_null (empty);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "The safetensors header lists no tensors");
}

static void
test_errors (void)
{
  expect_error ("{\"a\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[0,8]},"
                "\"b\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[4,12]}}",
                HR_CORE_ERROR_INVALID_DATA,
                "Tensors “a” and “b” in the safetensors header overlap at byte 4");
  expect_error ("{\"a\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[0,8]},"
                "\"b\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[16,24]}}",
                HR_CORE_ERROR_INVALID_DATA,
                "The safetensors data has a hole: bytes 8 to 16 belong to no tensor (next is “b”)");
  expect_error ("{\"a\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[8,16]}}",
                HR_CORE_ERROR_INVALID_DATA,
                "The safetensors data has a hole: bytes 0 to 8 belong to no tensor (next is “a”)");
  expect_error ("{\"a\":{\"dtype\":\"BF16\",\"shape\":[2048,2048],\"data_offsets\":[0,4194304]}}",
                HR_CORE_ERROR_INVALID_DATA,
                "Tensor “a” in the safetensors header has 4194304 BF16 elements (8388608 bytes) but its data_offsets span 4194304 bytes");
  expect_error ("{\"a\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,0]}}",
                HR_CORE_ERROR_OVERFLOW,
                "The shape of tensor “a” in the safetensors header overflows 64 bits");
  expect_error ("{\"a\":{\"dtype\":\"F32\",\"shape\":[4294967296,1073741824],\"data_offsets\":[0,0]}}",
                HR_CORE_ERROR_OVERFLOW,
                "The byte size of tensor “a” in the safetensors header overflows 64 bits");
  expect_error ("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[8,4]}}",
                HR_CORE_ERROR_INVALID_DATA,
                "Tensor “a” in the safetensors header ends (4) before it begins (8)");
  expect_error ("{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}",
                HR_CORE_ERROR_INVALID_DATA,
                "Tensor “a” in the safetensors header has a shape entry that is not a non-negative integer");
  expect_error ("{\"a\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,4]}}",
                HR_CORE_ERROR_INVALID_DATA, NULL);
  expect_error ("{\"a\":{\"shape\":[1],\"data_offsets\":[0,4]}}",
                HR_CORE_ERROR_INVALID_DATA,
                "Tensor “a” in the safetensors header has no dtype string");
  expect_error ("{\"a\":{\"dtype\":\"F32\",\"data_offsets\":[0,4]}}",
                HR_CORE_ERROR_INVALID_DATA,
                "Tensor “a” in the safetensors header has no shape array");
  expect_error ("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0]}}",
                HR_CORE_ERROR_INVALID_DATA,
                "Tensor “a” in the safetensors header has no data_offsets [begin, end] of non-negative integers");
  expect_error ("{\"a\":7}", HR_CORE_ERROR_INVALID_DATA,
                "Tensor “a” in the safetensors header is not an object");
  expect_error ("[1,2,3]", HR_CORE_ERROR_PARSE, "The safetensors header is not a JSON object");
  expect_error ("{\"a\":", HR_CORE_ERROR_PARSE, NULL);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HrSafetensorsHeader) h = parse_json ("{\"a\": nope}", &error);

    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
    g_assert_true (g_str_has_prefix (error->message, "The safetensors header is not valid JSON: "));
  }
}

static void
test_length (void)
{
  guint8 data[16] = { 0 };
  g_autoptr(GError) error = NULL;
  guint64 n = 0;
  guint64 big = G_GUINT64_CONSTANT (25000001);

  for (guint i = 0; i < 8; i++)
    data[i] = (guint8) (big >> (8 * i));
  g_assert_false (hr_safetensors_header_length (data, sizeof data, &n, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT);
  g_assert_cmpstr (error->message, ==,
                   "The safetensors header claims 25000001 bytes, over the 25,000,000-byte limit; the file is damaged or not safetensors");
  g_clear_error (&error);

  big = G_GUINT64_CONSTANT (25000000);
  for (guint i = 0; i < 8; i++)
    data[i] = (guint8) (big >> (8 * i));
  g_assert_true (hr_safetensors_header_length (data, sizeof data, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 25000000);

  /* A huge value (a big-endian or random file). */
  memset (data, 0xff, 8);
  g_assert_false (hr_safetensors_header_length (data, sizeof data, &n, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT);
  g_clear_error (&error);

  g_assert_false (hr_safetensors_header_length (data, 7, &n, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED);
  g_assert_cmpstr (error->message, ==, "The safetensors file ends before its 8-byte header length");
  g_clear_error (&error);

  /* N = 100 but only 8 bytes follow. */
  memset (data, 0, sizeof data);
  data[0] = 100;
  g_assert_null (hr_safetensors_header_parse (data, sizeof data, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_TRUNCATED);
  g_assert_cmpstr (error->message, ==, "The safetensors header is 100 bytes but only 8 were read");
  g_clear_error (&error);

  data[0] = 1;
  g_assert_null (hr_safetensors_header_parse (data, sizeof data, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
  g_clear_error (&error);

  /* A NUL inside the JSON. */
  {
    const char json[] = "{\"a\"\0:1}";

    g_assert_null (hr_safetensors_header_parse_json (json, sizeof json - 1, &error));
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
    g_assert_cmpstr (error->message, ==, "The safetensors header is not valid JSON: it contains a NUL byte");
  }
}

static void
test_index (void)
{
  g_autofree char *json = qwen_index_json ();
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSafetensorsIndex) index = hr_safetensors_index_parse (json, strlen (json), &error);
  g_autoptr(HrSafetensorsIndex) dbl = NULL;
  g_autoptr(HrSafetensorsIndex) none = NULL;

  g_assert_no_error (error);
  g_assert_true (index->has_total_size);
  g_assert_cmpuint (index->total_size, ==, 6171877376);
  g_assert_cmpuint (index->n_tensors, ==, 434);
  g_assert_cmpuint (index->shards->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (index->shards, 0), ==, QWEN_SHARD1);
  g_assert_cmpstr (g_ptr_array_index (index->shards, 1), ==, QWEN_SHARD2);
  /* W4: total_size / 2 bytes per BF16 value = the parameters. */
  g_assert_cmpuint (index->total_size / 2, ==, QWEN_PARAMETERS);

  dbl = hr_safetensors_index_parse ("{\"metadata\":{\"total_size\":6.171877376e9},\"weight_map\":{\"a\":\"x.safetensors\"}}",
                                    -1 + sizeof "{\"metadata\":{\"total_size\":6.171877376e9},\"weight_map\":{\"a\":\"x.safetensors\"}}",
                                    &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dbl->total_size, ==, 6171877376);

  none = hr_safetensors_index_parse ("{\"weight_map\":{}}", strlen ("{\"weight_map\":{}}"), &error);
  g_assert_no_error (error);
  g_assert_false (none->has_total_size);
  g_assert_cmpuint (none->n_tensors, ==, 0);

  g_assert_null (hr_safetensors_index_parse ("{\"metadata\":{}}", strlen ("{\"metadata\":{}}"), &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "model.safetensors.index.json has no weight_map object");
  g_clear_error (&error);

  g_assert_null (hr_safetensors_index_parse ("{\"weight_map\":{\"a\":\"../../etc/passwd\"}}",
                                             strlen ("{\"weight_map\":{\"a\":\"../../etc/passwd\"}}"), &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==,
                   "model.safetensors.index.json maps tensor “a” to “../../etc/passwd”, which is not a file in the repository");
  g_clear_error (&error);

  g_assert_null (hr_safetensors_index_parse ("{\"metadata\":{\"total_size\":-5},\"weight_map\":{}}",
                                             strlen ("{\"metadata\":{\"total_size\":-5},\"weight_map\":{}}"), &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_clear_error (&error);

  g_assert_null (hr_safetensors_index_parse ("[]", 2, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==, "model.safetensors.index.json is not a JSON object");
}

/* A message with a 64-bit figure is one msgid that xgettext extracts whole
 * (%<PRIu64>), so it is translated at run time: German, in a subprocess
 * with the build's translations (HEADROOM_LOCALE_DIR, set by meson test). */
static void
test_german (void)
{
  const char *locale_dir = g_getenv ("HEADROOM_LOCALE_DIR");

  if (locale_dir == NULL)
    {
      g_test_skip ("HEADROOM_LOCALE_DIR is not set");
      return;
    }
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, locale_dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  {
    guint8 data[16] = { 0 };
    g_autoptr(GError) error = NULL;
    guint64 n = 0;
    guint64 big = G_GUINT64_CONSTANT (25000001);

    /* The catalog is there: a message without a 64-bit figure. */
    g_assert_cmpstr (_("The safetensors header is not valid JSON: %s"), ==,
                     "Der safetensors-Header ist kein gültiges JSON: %s");
    for (guint i = 0; i < 8; i++)
      data[i] = (guint8) (big >> (8 * i));
    g_assert_false (hr_safetensors_header_length (data, sizeof data, &n, &error));
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT);
    g_assert_cmpstr (error->message, ==,
                     "Der safetensors-Header gibt 25000001 Bytes an, über der Grenze von 25.000.000 Bytes; "
                     "die Datei ist beschädigt oder kein safetensors");
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/safetensors/qwen-shards", test_qwen_shards);
  g_test_add_func ("/safetensors/dtypes", test_dtypes);
  g_test_add_func ("/safetensors/mixed-and-packed", test_mixed_and_packed);
  g_test_add_func ("/safetensors/metadata", test_metadata_shapes);
  g_test_add_func ("/safetensors/errors", test_errors);
  g_test_add_func ("/safetensors/length", test_length);
  g_test_add_func ("/safetensors/german", test_german);
  g_test_add_func ("/safetensors/index", test_index);

  return g_test_run ();
}
