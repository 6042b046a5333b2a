/* test-memory.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Weights and KV cache, against docs/seed-figures.md
 * ("Weights" W1-W7, "KV cache").
 */
#include "config.h"

#include "hr-memory.h"
#include "hr-units.h"

static HrModelSpec *
make_spec (const char *name,
           guint64     parameters,
           guint64     file_bytes,
           guint32     layers,
           guint32     kv_heads,
           guint32     head_dim)
{
  HrModelSpec *spec = hr_model_spec_new (name);

  spec->parameters = parameters;
  spec->precision = g_strdup ("q4_K_M");
  spec->file_bytes = file_bytes;
  spec->layers = layers;
  spec->kv_heads = kv_heads;
  spec->key_length = spec->value_length = head_dim;
  return spec;
}

static void
test_memory_weights (void)
{
  /* W1: 70e9 at int4 = 35,000,000,000 bytes */
  g_assert_cmpuint (hr_memory_weight_bytes (70000000000, 4), ==, 35000000000);
  /* W2: 70e9 at bf16 = 140 GB, about 130 GiB */
  g_assert_cmpuint (hr_memory_weight_bytes (70000000000, 16), ==, 140000000000);
  g_assert_cmpfloat_with_epsilon (hr_bytes_to_gib (140000000000), 130.4, 0.05);
  /* W3: Qwen2.5-3B-Instruct bf16 = 6,171,877,376, the index's total_size */
  g_assert_cmpuint (hr_memory_weight_bytes (3085938688, 16), ==, 6171877376);
  /* W4: 6,171,877,376 / 2 bytes = 3,085,938,688 parameters */
  g_assert_cmpuint (6171877376 / 2, ==, 3085938688);
  /* W5: llama3.2:3b clean int4 */
  g_assert_cmpuint (hr_memory_weight_bytes (3212749888, 4), ==, 1606374944);
  /* W7: phi4 at 16 bits is about 29.4 GB */
  g_assert_cmpuint (hr_memory_weight_bytes (14700000000, 16), ==, 29400000000);
  /* the seed's whole-file average: 3.2e9 at 4.6 bits = 1.84 GB ("1.8G") */
  g_assert_cmpuint (hr_memory_weight_bytes (3200000000, 4.6), ==, 1840000000);
  g_assert_cmpuint (hr_memory_weight_bytes (3200000000, 0), ==, 0);
  g_assert_cmpuint (hr_memory_weight_bytes (G_MAXUINT64 / 2, 16), ==, G_MAXUINT64);
}

static void
test_memory_effective_bits (void)
{
  /* W6: 2,019,377,376 bytes for 3,212,749,888 parameters = 5.028 bits,
   * about 26 % over clean int4. */
  double bits = hr_memory_effective_bits (2019377376, 3212749888);
  g_assert_cmpfloat_with_epsilon (bits, 5.028, 0.0005);
  g_assert_cmpfloat_with_epsilon (2019377376.0 / 1606374944.0 - 1.0, 0.26, 0.005);
  g_assert_cmpfloat (hr_memory_effective_bits (0, 5), ==, 0.0);
}

static void
test_memory_spec_weights (void)
{
  g_autoptr(HrModelSpec) spec = make_spec ("llama3.2:3b", 3200000000, 2000000000, 28, 8, 128);

  /* as pulled: the file wins */
  g_assert_cmpuint (hr_memory_spec_weight_bytes (spec, NULL), ==, 2000000000);
  g_assert_cmpuint (hr_memory_spec_weight_bytes (spec, hr_precision_lookup ("q4_K_M")), ==, 2000000000);
  /* sketched at another precision: parameters x bits / 8 */
  g_assert_cmpuint (hr_memory_spec_weight_bytes (spec, hr_precision_lookup ("int4")), ==, 1600000000);
  g_assert_cmpuint (hr_memory_spec_weight_bytes (spec, hr_precision_lookup ("fp16")), ==, 6400000000);
  /* no file: the precision's bits */
  spec->file_bytes = 0;
  g_assert_cmpuint (hr_memory_spec_weight_bytes (spec, NULL), ==, 1840000000);
}

static void
test_memory_kv (void)
{
  g_autoptr(HrModelSpec) llama = make_spec ("llama3.2:3b", 3200000000, 2000000000, 28, 8, 128);
  g_autoptr(HrModelSpec) gemma = make_spec ("gemma2:2b", 2600000000, 1600000000, 26, 4, 256);
  g_autofree char *gb = NULL;

  /* 2 x 28 x 8 x 128 x 2 = 114,688 bytes per token */
  g_assert_cmpuint (hr_memory_kv_bytes_per_token (llama, HR_KV_CACHE_F16), ==, 114688);
  /* 4,096 tokens = 469,762,048 bytes = 0.47 GB */
  g_assert_cmpuint (hr_memory_kv_cache_bytes (llama, HR_KV_CACHE_F16, 4096, 1), ==, 469762048);
  gb = hr_format_bytes (469762048, HR_UNIT_GB, 2);
  g_assert_cmpstr (gb, ==, "0.47 GB");
  /* 16,384 tokens = 1.88 GB */
  g_assert_cmpuint (hr_memory_kv_cache_bytes (llama, HR_KV_CACHE_F16, 16384, 1), ==, 1879048192);
  /* two parallel slots hold twice the cells */
  g_assert_cmpuint (hr_memory_kv_cache_bytes (llama, HR_KV_CACHE_F16, 4096, 2), ==, 939524096);
  /* quantized caches: q8_0 34 bytes per 32 elements, q4_0 18 per 32 */
  g_assert_cmpuint (hr_memory_kv_bytes_per_token (llama, HR_KV_CACHE_Q8_0), ==, 60928);
  g_assert_cmpuint (hr_memory_kv_bytes_per_token (llama, HR_KV_CACHE_Q4_0), ==, 32256);
  g_assert_cmpuint (hr_memory_kv_cache_bytes (llama, HR_KV_CACHE_Q8_0, 4096, 1), ==, 249561088);

  /* gemma2:2b: a fifth smaller on disk, its cache almost as large (0.44 GB) */
  g_assert_cmpuint (hr_memory_kv_cache_bytes (gemma, HR_KV_CACHE_F16, 4096, 1), ==, 436207616);
}

static void
test_memory_kv_per_layer (void)
{
  g_autoptr(HrModelSpec) spec = make_spec ("hybrid", 1000000000, 0, 4, 8, 64);
  guint32 heads[] = { 8, 0, 8, 2 };

  spec->key_length = 128; /* key and value dims may differ (MLA-style) */
  spec->value_length = 64;
  spec->layer_kv_heads = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_vals (spec->layer_kv_heads, heads, 4);
  /* (8 + 0 + 8 + 2) heads x (128 + 64) dims x 2 bytes */
  g_assert_cmpuint (hr_memory_kv_bytes_per_token (spec, HR_KV_CACHE_F16), ==, 18 * 192 * 2);
}

static void
test_memory_footprint (void)
{
  g_autoptr(HrModelSpec) llama = make_spec ("llama3.2:3b", 3200000000, 2000000000, 28, 8, 128);
  HrFootprint f;

  hr_memory_footprint (llama, NULL, HR_KV_CACHE_F16, 4096, 1, 0, &f);
  g_assert_cmpuint (f.weights, ==, 2000000000);
  g_assert_cmpuint (f.kv_cache, ==, 469762048);
  g_assert_cmpuint (f.overhead, ==, 0);
  g_assert_cmpuint (f.total, ==, 2469762048);

  hr_memory_footprint (llama, NULL, HR_KV_CACHE_F16, 4096, 1, 100000000, &f);
  g_assert_cmpuint (f.total, ==, 2569762048);

  hr_memory_footprint (llama, NULL, HR_KV_CACHE_F16, G_MAXUINT32, G_MAXUINT32, 0, &f);
  g_assert_cmpuint (f.total, ==, G_MAXUINT64);
}

static void
test_memory_kv_type_strings (void)
{
  HrKvCacheType t;

  g_assert_true (hr_kv_cache_type_from_string ("Q8_0", &t));
  g_assert_cmpint (t, ==, HR_KV_CACHE_Q8_0);
  g_assert_true (hr_kv_cache_type_from_string ("q4_0", &t));
  g_assert_cmpint (t, ==, HR_KV_CACHE_Q4_0);
  g_assert_true (hr_kv_cache_type_from_string ("f16", &t));
  g_assert_cmpint (t, ==, HR_KV_CACHE_F16);
  g_assert_false (hr_kv_cache_type_from_string ("f32", &t));
  g_assert_cmpstr (hr_kv_cache_type_to_string (HR_KV_CACHE_Q8_0), ==, "q8_0");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory/weights", test_memory_weights);
  g_test_add_func ("/memory/effective-bits", test_memory_effective_bits);
  g_test_add_func ("/memory/spec-weights", test_memory_spec_weights);
  g_test_add_func ("/memory/kv", test_memory_kv);
  g_test_add_func ("/memory/kv-per-layer", test_memory_kv_per_layer);
  g_test_add_func ("/memory/footprint", test_memory_footprint);
  g_test_add_func ("/memory/kv-type-strings", test_memory_kv_type_strings);
  return g_test_run ();
}
