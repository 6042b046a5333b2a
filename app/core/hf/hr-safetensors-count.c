/* hr-safetensors-count.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a safetensors header's tensors add up to: the bits of each dtype,
 * which tensors are the output projection, quantization state or packed
 * containers, the sums per dtype (one header, or several shards merged),
 * the parameter count with packed weights unpacked, and the choice
 * between two figures that disagree. Reading the header is in
 * hr-safetensors.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-mmproj.h"
#include "hr-safetensors-private.h"
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

gint
hr_safetensors_compare_dtype (gconstpointer a,
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

/* Adds one checked tensor to @header's sums: the output projection, the
 * vision tower, quantization state, packed containers, its dtype. */
gboolean
hr_safetensors_count_tensor (HrSafetensorsHeader *header,
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
  g_ptr_array_sort (into->dtypes, hr_safetensors_compare_dtype);
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
