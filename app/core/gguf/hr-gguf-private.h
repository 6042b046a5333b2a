/* hr-gguf-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GGUF header's storage, shared by the files that read it
 * (hr-gguf.c), decode its values (hr-gguf-value.c), answer for its tensors
 * and shards (hr-gguf-tensors.c, hr-gguf-shards.c), its tokenizer
 * (hr-gguf-tokenizer.c) and map it to a model spec (hr-gguf-spec.c).
 * Not installed, not for the GUI or the CLI.
 */
#pragma once

#include "hr-gguf.h"

G_BEGIN_DECLS

/* Variable-size arrays keep the offset of every STRIDE-th element. */
#define HR_GGUF_INDEX_STRIDE 16


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
  guint       n_unknown_types; /* tensors of a ggml type this version does not know */
  guint       n_unsized;       /* of those, how many have no size (the last, file size unknown) */
  guint64     known_tensor_bytes; /* tensor_bytes over the known types */
};

/* Bytes of one element of a fixed-size type; 0 for STRING and ARRAY. */
extern const guint8 hr_gguf_type_sizes[HR_GGUF_N_TYPES];

HrGgufFile *hr_gguf_file_new (void);
void        hr_gguf_file_size_unknown_tensors (HrGgufFile *file);

G_END_DECLS
