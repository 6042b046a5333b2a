/* hr-gguf.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GGUF header parser. It reads the magic, the version, the metadata
 * key/values and the tensor list, and stops where the tensor data begins:
 * a 9 GB model costs a few megabytes of reading. The layout is the GGUF
 * specification's (docs/formats.md,
 * "GGUF"). Every count and length read from the file is checked against a
 * cap below before anything is allocated, and every product is checked for
 * overflow, so a hostile file gets an HR_CORE_ERROR and never a huge
 * allocation.
 */
#pragma once

#include <gio/gio.h>

#include "hr-model-spec.h"

G_BEGIN_DECLS

/**
 * HR_GGUF_MAGIC: the first four bytes of every GGUF file, "GGUF".
 */
#define HR_GGUF_MAGIC "GGUF"

/**
 * HR_GGUF_DEFAULT_ALIGNMENT: the alignment of the tensor data when
 * `general.alignment` is absent (GGUF spec: 32 bytes).
 */
#define HR_GGUF_DEFAULT_ALIGNMENT 32

/* Caps, one set for a GGUF file and for the same keys from /api/show
 * (hr-gguf-keys.h). Real files stay far below each (a 3B model: ~40 keys,
 * 28 layers, 255 tensors, a 128,256-entry vocabulary, 280,147 merges, a
 * chat template of a few kB; the largest published vocabularies are about
 * 260,000 entries). */

/* Layers: HR_MODEL_SPEC_MAX_LAYERS (hr-model-spec.h), the one limit for a
 * header, /api/show and the catalog. */
/** HR_GGUF_MAX_KV_COUNT: most metadata key/values accepted. */
#define HR_GGUF_MAX_KV_COUNT      G_GUINT64_CONSTANT (65536)
/** HR_GGUF_MAX_TENSOR_COUNT: most tensors accepted in one file, in all the
 * shards of a split model, and in /api/show's list. */
#define HR_GGUF_MAX_TENSOR_COUNT  G_GUINT64_CONSTANT (65536)
/** HR_GGUF_MAX_STRING_LENGTH: longest string (key, value or element), bytes. */
#define HR_GGUF_MAX_STRING_LENGTH G_GUINT64_CONSTANT (16777216)
/** HR_GGUF_MAX_ARRAY_LENGTH: most elements in one metadata array. */
#define HR_GGUF_MAX_ARRAY_LENGTH  G_GUINT64_CONSTANT (16777216)
/** HR_GGUF_MAX_ARRAY_DEPTH: arrays of arrays nest at most this deep. */
#define HR_GGUF_MAX_ARRAY_DEPTH   4
/** HR_GGUF_MAX_HEADER_BYTES: most header bytes read (metadata and tensor
 * list), 128 MiB: about 16 times the largest real headers (8 MB for a
 * 128k-token vocabulary with 280k merges). What is kept grows only as
 * bytes actually arrive, so this also bounds the memory a header costs. */
#define HR_GGUF_MAX_HEADER_BYTES  G_GUINT64_CONSTANT (134217728)
/** HR_GGUF_MAX_TENSOR_NAME: longest tensor name, bytes (ggml allows 63). */
#define HR_GGUF_MAX_TENSOR_NAME   256
/** HR_GGUF_MAX_DIMS: most dimensions of a tensor (ggml's GGML_MAX_DIMS). */
#define HR_GGUF_MAX_DIMS          4

/* The 13 metadata value types of the GGUF spec. */
typedef enum {
  HR_GGUF_TYPE_UINT8   = 0,
  HR_GGUF_TYPE_INT8    = 1,
  HR_GGUF_TYPE_UINT16  = 2,
  HR_GGUF_TYPE_INT16   = 3,
  HR_GGUF_TYPE_UINT32  = 4,
  HR_GGUF_TYPE_INT32   = 5,
  HR_GGUF_TYPE_FLOAT32 = 6,
  HR_GGUF_TYPE_BOOL    = 7,
  HR_GGUF_TYPE_STRING  = 8,
  HR_GGUF_TYPE_ARRAY   = 9,
  HR_GGUF_TYPE_UINT64  = 10,
  HR_GGUF_TYPE_INT64   = 11,
  HR_GGUF_TYPE_FLOAT64 = 12,
  HR_GGUF_N_TYPES
} HrGgufType;

typedef struct _HrGgufValue HrGgufValue;
typedef struct _HrGgufFile  HrGgufFile;

/* Tokenizer facts read from the `tokenizer.*` keys. Strings are owned. */
typedef struct {
  char     *model;          /* tokenizer.ggml.model ("gpt2", "llama"), or NULL */
  char     *pre;            /* tokenizer.ggml.pre ("llama-bpe"), or NULL */
  guint64   vocab_size;     /* length of tokenizer.ggml.tokens (0 = absent) */
  guint64   merges;         /* length of tokenizer.ggml.merges (0 = absent) */
  gboolean  has_bos;
  guint32   bos_id;
  char     *bos_token;      /* the token's text, or NULL when out of range */
  gboolean  has_eos;
  guint32   eos_id;
  char     *eos_token;
  gboolean  has_chat_template;
  gsize     chat_template_length; /* bytes */
  GPtrArray *chat_markers;  /* char*: special tokens the template uses, in order of first use */
} HrGgufTokenizer;

const char  *hr_gguf_type_to_string        (HrGgufType          type);

GType        hr_gguf_file_get_type         (void) G_GNUC_CONST;
#define HR_TYPE_GGUF_FILE (hr_gguf_file_get_type ())

HrGgufFile  *hr_gguf_file_parse_stream     (GInputStream       *stream,
                                            GCancellable       *cancellable,
                                            GError            **error);
HrGgufFile  *hr_gguf_file_parse_data       (const guint8       *data,
                                            gsize               length,
                                            GError            **error);
HrGgufFile  *hr_gguf_file_load             (const char         *path,
                                            GCancellable       *cancellable,
                                            GError            **error);
HrGgufFile  *hr_gguf_file_ref              (HrGgufFile         *file);
void         hr_gguf_file_unref            (HrGgufFile         *file);

guint32      hr_gguf_file_get_version      (const HrGgufFile   *file);
guint64      hr_gguf_file_get_alignment    (const HrGgufFile   *file);
guint64      hr_gguf_file_get_header_bytes (const HrGgufFile   *file);
guint64      hr_gguf_file_get_data_offset  (const HrGgufFile   *file);
guint64      hr_gguf_file_get_file_bytes   (const HrGgufFile   *file);
void         hr_gguf_file_set_file_bytes   (HrGgufFile         *file,
                                            guint64             file_bytes);

guint        hr_gguf_file_get_n_metadata   (const HrGgufFile   *file);
const HrGgufValue *hr_gguf_file_get_metadata (const HrGgufFile *file,
                                            guint               index,
                                            const char        **out_key);
const HrGgufValue *hr_gguf_file_lookup     (const HrGgufFile   *file,
                                            const char         *key);
const char  *hr_gguf_file_get_string       (const HrGgufFile   *file,
                                            const char         *key);
gboolean     hr_gguf_file_get_uint         (const HrGgufFile   *file,
                                            const char         *key,
                                            guint64            *out_value);

guint        hr_gguf_file_get_n_tensors    (const HrGgufFile   *file);
const HrTensorInfo *hr_gguf_file_get_tensor (const HrGgufFile  *file,
                                            guint               index);
guint64      hr_gguf_file_get_tensor_offset (const HrGgufFile  *file,
                                            guint               index);
guint64      hr_gguf_file_get_tensor_bytes (const HrGgufFile   *file);
guint64      hr_gguf_file_get_tensor_data_end (const HrGgufFile *file);
guint        hr_gguf_file_get_unknown_tensors (const HrGgufFile *file,
                                               guint            *out_unsized);
guint64      hr_gguf_file_get_parameters   (const HrGgufFile   *file);
guint        hr_gguf_file_count_tensors_of_type (const HrGgufFile *file,
                                            guint32             ggml_type,
                                            guint64            *out_bytes);
gboolean     hr_gguf_file_get_split        (const HrGgufFile   *file,
                                            guint32            *out_index,
                                            guint32            *out_count);
char       **hr_gguf_split_shard_paths     (const char         *path,
                                            guint32             count);
gboolean     hr_gguf_file_add_shard        (HrGgufFile         *file,
                                            const HrGgufFile   *shard,
                                            GError            **error);
guint        hr_gguf_file_get_n_shards     (const HrGgufFile   *file);
HrGgufFile  *hr_gguf_file_load_model       (const char         *path,
                                            const char         *display,
                                            GCancellable       *cancellable,
                                            char              **out_split_problem,
                                            GError            **error);

HrGgufTokenizer *hr_gguf_file_get_tokenizer (const HrGgufFile  *file);
void         hr_gguf_tokenizer_free        (HrGgufTokenizer    *tokenizer);

HrModelSpec *hr_gguf_file_to_model_spec    (const HrGgufFile   *file,
                                            const char         *name,
                                            const char         *origin,
                                            GError            **error);

HrGgufType   hr_gguf_value_get_value_type  (const HrGgufValue  *value);
gboolean     hr_gguf_value_get_uint64      (const HrGgufValue  *value,
                                            guint64            *out_value);
gboolean     hr_gguf_value_get_int64       (const HrGgufValue  *value,
                                            gint64             *out_value);
gboolean     hr_gguf_value_get_double      (const HrGgufValue  *value,
                                            double             *out_value);
gboolean     hr_gguf_value_get_boolean     (const HrGgufValue  *value,
                                            gboolean           *out_value);
const char  *hr_gguf_value_get_string      (const HrGgufValue  *value,
                                            gsize              *out_length);
HrGgufType   hr_gguf_value_get_array_type  (const HrGgufValue  *value);
guint64      hr_gguf_value_get_array_length (const HrGgufValue *value);
gboolean     hr_gguf_value_get_array_uint64 (const HrGgufValue *value,
                                            guint64             index,
                                            guint64            *out_value);
gboolean     hr_gguf_value_get_array_int64 (const HrGgufValue  *value,
                                            guint64             index,
                                            gint64             *out_value);
gboolean     hr_gguf_value_get_array_double (const HrGgufValue *value,
                                            guint64             index,
                                            double             *out_value);
const char  *hr_gguf_value_get_array_string (const HrGgufValue *value,
                                            guint64             index,
                                            gsize              *out_length);
HrGgufValue *hr_gguf_value_dup_array_element (const HrGgufValue *value,
                                            guint64             index);
gsize        hr_gguf_value_get_raw_size    (const HrGgufValue  *value);
void         hr_gguf_value_free            (HrGgufValue        *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrGgufFile, hr_gguf_file_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrGgufValue, hr_gguf_value_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrGgufTokenizer, hr_gguf_tokenizer_free)

G_END_DECLS
