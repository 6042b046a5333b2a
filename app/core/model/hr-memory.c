/* hr-memory.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hr-memory.h"
#include "hr-units.h"

/**
 * hr_kv_cache_type_to_string:
 * @type: a cache type
 *
 * Returns: (transfer none): "f16", "q8_0" or "q4_0", as Ollama's
 *   OLLAMA_KV_CACHE_TYPE spells them.
 */
const char *
hr_kv_cache_type_to_string (HrKvCacheType type)
{
  switch (type)
    {
    case HR_KV_CACHE_Q8_0: return "q8_0";
    case HR_KV_CACHE_Q4_0: return "q4_0";
    case HR_KV_CACHE_F16:
    default:               return "f16";
    }
}

/**
 * hr_kv_cache_type_from_string:
 * @str: "f16", "q8_0" or "q4_0" (case-insensitive)
 * @out_type: (out): the type
 *
 * Returns: %TRUE when @str names a cache type.
 */
gboolean
hr_kv_cache_type_from_string (const char    *str,
                              HrKvCacheType *out_type)
{
  static const HrKvCacheType types[] = { HR_KV_CACHE_F16, HR_KV_CACHE_Q8_0, HR_KV_CACHE_Q4_0 };

  if (str == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (g_ascii_strcasecmp (str, hr_kv_cache_type_to_string (types[i])) == 0)
      {
        *out_type = types[i];
        return TRUE;
      }
  return FALSE;
}

/**
 * hr_kv_cache_element_bytes_scaled:
 * @type: a cache type
 * @out_per_elements: (out): the number of elements the returned bytes cover
 *
 * The cache's element size as a fraction, from ggml's block layouts:
 * f16 is 2 bytes per 1 element, q8_0 34 bytes per 32 (block_q8_0: 32 int8 and
 * an f16 scale), q4_0 18 bytes per 32 (block_q4_0: 16 bytes of nibbles and an
 * f16 scale).
 *
 * Returns: the bytes that @out_per_elements elements take.
 */
guint64
hr_kv_cache_element_bytes_scaled (HrKvCacheType  type,
                                  guint32       *out_per_elements)
{
  switch (type)
    {
    case HR_KV_CACHE_Q8_0:
      *out_per_elements = 32;
      return 34;
    case HR_KV_CACHE_Q4_0:
      *out_per_elements = 32;
      return 18;
    case HR_KV_CACHE_F16:
    default:
      *out_per_elements = 1;
      return 2;
    }
}

/**
 * hr_memory_weight_bytes:
 * @parameters: the parameter count
 * @bits_per_weight: bits each weight takes (4, 16, or an average like 4.6)
 *
 * weight_bytes = parameters x bits / 8 (docs/seed-figures.md W1-W5). Exact integer
 * arithmetic when @bits_per_weight is a whole number; otherwise rounded to
 * the nearest byte.
 *
 * Returns: bytes, G_MAXUINT64 if the product does not fit.
 */
guint64
hr_memory_weight_bytes (guint64 parameters,
                        double  bits_per_weight)
{
  guint64 bits;
  double bytes;

  if (!(bits_per_weight > 0.0))
    return 0;

  if (bits_per_weight == floor (bits_per_weight) && bits_per_weight <= 64.0)
    {
      if (!hr_mul_u64 (parameters, (guint64) bits_per_weight, &bits))
        return G_MAXUINT64;
      return bits / 8 + (bits % 8 != 0);
    }

  bytes = round ((double) parameters * bits_per_weight / 8.0);
  if (bytes >= 18446744073709551615.0)
    return G_MAXUINT64;
  return (guint64) bytes;
}

/**
 * hr_memory_spec_weight_bytes:
 * @spec: a model
 * @precision: (nullable): the precision to sketch it at; %NULL means "as
 *   pulled", the model's own file
 *
 * The weights of @spec. The exact file size wins when it is known and the
 * precision is the file's own (or "as pulled"); otherwise
 * parameters x bits / 8 at @precision (or at the file's precision).
 *
 * Returns: bytes.
 */
guint64
hr_memory_spec_weight_bytes (const HrModelSpec *spec,
                             const HrPrecision *precision)
{
  if (precision == NULL || (spec->precision != NULL && g_ascii_strcasecmp (precision->id, spec->precision) == 0))
    {
      if (spec->file_bytes > 0)
        return spec->file_bytes;
      precision = hr_precision_lookup (spec->precision);
      if (precision == NULL)
        return 0;
    }
  return hr_memory_weight_bytes (spec->parameters, precision->bits_per_weight);
}

/**
 * hr_memory_effective_bits:
 * @file_bytes: the real file's size in bytes
 * @parameters: the parameter count
 *
 * Effective bits per weight of a real file: file_bytes x 8 / parameters
 * (docs/seed-figures.md W6: 2,019,377,376 bytes for 3,212,749,888 parameters is 5.028).
 *
 * Returns: bits per weight, or 0 when either input is 0.
 */
double
hr_memory_effective_bits (guint64 file_bytes,
                          guint64 parameters)
{
  if (file_bytes == 0 || parameters == 0)
    return 0.0;
  return (double) file_bytes * 8.0 / (double) parameters;
}

/* Elements of K and V per token over all layers (hr_model_spec_kv_elements_per_token():
 * per layer KV heads x (key length + value length), or one latent under MLA). */
static guint64
kv_elements_per_token (const HrModelSpec *spec)
{
  return hr_model_spec_kv_elements_per_token (spec);
}

static guint64
scale_elements (guint64       elements,
                HrKvCacheType type)
{
  guint32 per;
  guint64 num = hr_kv_cache_element_bytes_scaled (type, &per);
  guint64 bytes;

  if (!hr_mul_u64 (elements, num, &bytes))
    return G_MAXUINT64;
  /* f16 and f32 have whole bytes: no 64-bit division on every row. */
  if (per == 1)
    return bytes;
  return bytes / per + (bytes % per != 0);
}

/**
 * hr_memory_kv_bytes_per_token:
 * @spec: a model (layers, KV heads, key and value head dims)
 * @type: the cache's element type
 *
 * KV cache bytes for one token of context in one slot:
 * layers x KV heads x (key dim + value dim) x element bytes, which is the
 * seed's 2 x layers x KV heads x head dim x bytes when key and value dims are
 * equal (docs/seed-figures.md: llama3.2:3b 2 x 28 x 8 x 128 x 2 = 114,688 bytes).
 * Layers with their own KV head count are summed one by one.
 *
 * Returns: bytes per token.
 */
guint64
hr_memory_kv_bytes_per_token (const HrModelSpec *spec,
                              HrKvCacheType      type)
{
  return scale_elements (kv_elements_per_token (spec), type);
}

/**
 * hr_memory_kv_cache_bytes:
 * @spec: a model
 * @type: the cache's element type
 * @context_tokens: the context window (num_ctx) in tokens
 * @parallel_slots: parallel request slots (Ollama's num_parallel), >= 1
 *
 * KV cache = layers x KV heads x (key dim + value dim) x element bytes x
 * context tokens x parallel slots (docs/seed-figures.md "KV cache"; Ollama allocates
 * num_ctx x num_parallel cells). Quantized caches are rounded up to whole
 * blocks of 32 elements.
 *
 * Returns: bytes, G_MAXUINT64 when the product does not fit.
 */
guint64
hr_memory_kv_cache_bytes (const HrModelSpec *spec,
                          HrKvCacheType      type,
                          guint32            context_tokens,
                          guint32            parallel_slots)
{
  return hr_memory_kv_cache_bytes_for_elements (kv_elements_per_token (spec), type,
                                                context_tokens, parallel_slots);
}

/**
 * hr_memory_kv_cache_bytes_for_elements:
 * @elements_per_token: K and V elements per token over all layers
 *   (hr_model_spec_kv_elements_per_token(); G_MAXUINT64 for an overflow)
 * @type: the cache's element type
 * @context_tokens: num_ctx per slot
 * @parallel_slots: slots (0 counts as 1)
 *
 * hr_memory_kv_cache_bytes() from a model's elements per token worked out
 * once (a catalog row keeps it between slider steps).
 *
 * Returns: bytes, or G_MAXUINT64 when the product overflows.
 */
guint64
hr_memory_kv_cache_bytes_for_elements (guint64       elements_per_token,
                                       HrKvCacheType type,
                                       guint32       context_tokens,
                                       guint32       parallel_slots)
{
  guint64 elements = elements_per_token;

  if (!hr_mul_u64 (elements, context_tokens, &elements) ||
      !hr_mul_u64 (elements, MAX (parallel_slots, 1), &elements))
    return G_MAXUINT64;
  return scale_elements (elements, type);
}

/**
 * hr_memory_footprint:
 * @spec: a model
 * @precision: (nullable): the precision to sketch it at; %NULL = as pulled
 * @type: the KV cache's element type
 * @context_tokens: num_ctx in tokens
 * @parallel_slots: parallel slots, >= 1
 * @overhead_bytes: runtime overhead to add as its own segment (0 by default)
 * @out: (out caller-allocates): the footprint
 *
 * footprint = weights + KV cache + overhead. Saturates at G_MAXUINT64.
 */
void
hr_memory_footprint (const HrModelSpec *spec,
                     const HrPrecision *precision,
                     HrKvCacheType      type,
                     guint32            context_tokens,
                     guint32            parallel_slots,
                     guint64            overhead_bytes,
                     HrFootprint       *out)
{
  out->weights = hr_memory_spec_weight_bytes (spec, precision);
  out->kv_cache = hr_memory_kv_cache_bytes (spec, type, context_tokens, parallel_slots);
  out->overhead = overhead_bytes;
  hr_add_u64 (out->weights, out->kv_cache, &out->total);
  hr_add_u64 (out->total, out->overhead, &out->total);
}
