/* hr-safetensors.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The safetensors header (exact parameter counts without the weights) and the
 * sharded index model.safetensors.index.json. Format facts from the
 * safetensors format as docs/formats.md ("safetensors") summarises it:
 * an 8-byte little-endian header length N, then N bytes of UTF-8 JSON mapping
 * tensor names to {dtype, shape, data_offsets}, then the data. Offsets are
 * relative to the data start and contiguous from 0.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * HR_SAFETENSORS_MAX_HEADER:
 *
 * The largest header length N accepted, in bytes: 25,000,000 (docs/formats.md,
 * "safetensors"; the same cap the safetensors library uses).
 */
#define HR_SAFETENSORS_MAX_HEADER G_GUINT64_CONSTANT (25000000)

/**
 * HR_SAFETENSORS_PROBE_BYTES:
 *
 * How many bytes a remote reader asks for first (`Range: bytes=0-100000`,
 * 100,001 bytes): headers under 100 kB are the usual case (docs/formats.md,
 * "safetensors").
 */
#define HR_SAFETENSORS_PROBE_BYTES 100001

/* Parameters and data bytes of one dtype over a header (or several). */
typedef struct {
  char    *dtype;      /* "BF16", as written in the header */
  guint    tensors;    /* tensors of this dtype */
  guint64  parameters; /* stored elements (product of each shape) */
  guint64  bytes;      /* data bytes (data_offsets end - begin) */
} HrSafetensorsDtype;

typedef struct {
  guint64     header_length; /* N, the JSON length in bytes */
  guint64     data_bytes;    /* bytes of tensor data (end of the last tensor) */
  guint64     parameters;    /* stored elements over all tensors */
  guint       n_tensors;
  GPtrArray  *dtypes;        /* HrSafetensorsDtype*, sorted by dtype name */
  GHashTable *metadata;      /* __metadata__ string members (char* -> char*), never NULL */
  /* For packed quantized tensors. */
  guint64     packed_bits;   /* stored bits of packed containers (GPTQ/AWQ qweight I32,
                              * compressed-tensors weight_packed, mlx U32 weight, U8 4-bit) */
  guint64     packed_elements; /* their stored elements (containers, not weights) */
  guint64     aux_parameters;  /* elements of quantization state: scales, qzeros, g_idx ... */
  gboolean    has_lm_head;   /* a tensor named lm_head.weight (or *.lm_head.weight) */
  /* For projectors: the vision / audio tower's tensors
   * (hr_mmproj_safetensors_is_tower()). */
  guint       tower_tensors;
  guint64     tower_parameters; /* their stored elements */
  guint64     tower_bytes;      /* their data bytes (data_offsets) */
} HrSafetensorsHeader;

typedef struct {
  gboolean    has_total_size;
  guint64     total_size;    /* metadata.total_size: tensor data bytes, headers excluded */
  guint       n_tensors;     /* entries in weight_map */
  GPtrArray  *shards;        /* char*: shard file names, sorted, each once */
  gboolean    has_lm_head;   /* weight_map lists lm_head.weight (or *.lm_head.weight) */
  guint       tower_tensors; /* weight_map entries of a vision / audio tower (hr_mmproj_safetensors_is_tower()) */
} HrSafetensorsIndex;

guint                hr_safetensors_dtype_bits    (const char          *dtype);

gboolean             hr_safetensors_header_length (const guint8        *data,
                                                   gsize                length,
                                                   guint64             *out_length,
                                                   GError             **error);
HrSafetensorsHeader *hr_safetensors_header_parse  (const guint8        *data,
                                                   gsize                length,
                                                   GError             **error);
HrSafetensorsHeader *hr_safetensors_header_parse_json (const char      *json,
                                                   gsize                length,
                                                   GError             **error);
void                 hr_safetensors_header_free   (HrSafetensorsHeader *header);
gboolean             hr_safetensors_header_merge  (HrSafetensorsHeader *into,
                                                   const HrSafetensorsHeader *other,
                                                   GError             **error);
const HrSafetensorsDtype *hr_safetensors_header_get_dtype (const HrSafetensorsHeader *header,
                                                   const char          *dtype);

guint64              hr_safetensors_header_parameters (const HrSafetensorsHeader *header,
                                                   guint                bits);
gboolean             hr_safetensors_tensor_is_aux (const char          *name);
gboolean             hr_safetensors_tensor_is_lm_head (const char      *name);
guint64              hr_safetensors_reconcile     (guint64              summary,
                                                   guint64              detailed,
                                                   const char          *summary_name,
                                                   const char          *detailed_name,
                                                   const char          *unit,
                                                   char               **out_note);

HrSafetensorsIndex  *hr_safetensors_index_parse   (const char          *data,
                                                   gsize                length,
                                                   GError             **error);
void                 hr_safetensors_index_free    (HrSafetensorsIndex  *index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrSafetensorsHeader, hr_safetensors_header_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrSafetensorsIndex, hr_safetensors_index_free)

G_END_DECLS
