/* hr-gguf-report.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `headroom-cli gguf` says about a GGUF file, built once: the header's
 * facts, the model spec, the tokenizer, the tensors per ggml type, the
 * split model's shards, and the memory on a board. The CLI prints it as
 * text or as JSON; neither reads the file again. Pure but for reading the
 * file's header (and its shards').
 */
#pragma once

#include <gio/gio.h>

#include "hr-board.h"
#include "hr-gguf.h"
#include "hr-memory.h"

G_BEGIN_DECLS

/**
 * HrGgufReportType:
 * @name: the ggml type's name ("Q4_K")
 * @count: tensors of this type
 * @bytes: their bytes
 *
 * One ggml type the file's tensors use.
 */
typedef struct {
  const char *name;
  guint       count;
  guint64     bytes;
} HrGgufReportType;

/**
 * HrGgufReport:
 * @file: the header (a split model's first shard, the others summed in)
 * @spec: the model spec (hr_gguf_file_to_model_spec())
 * @tokenizer: the tokenizer facts
 * @general_name: (nullable): `general.name` (owned by @file)
 * @has_file_type: `general.file_type` is present
 * @file_type: its value
 * @file_type_label: (nullable): its label ("Q4_K_M"), %NULL when unknown
 * @bits_per_parameter: file size x 8 / parameters (0 = unknown)
 * @n_tensors: tensors in all the shards read
 * @tensor_bytes: their bytes
 * @types: (element-type HrGgufReportType): the ggml types in use, in
 *   hr_ggml_type_list() order
 * @header_bytes: the first shard's header bytes
 * @alignment: the tensor data's alignment, bytes
 * @data_offset: where the tensor data begins, bytes
 * @file_bytes: the file size (all shards read), bytes
 * @tensor_data_end: where the tensors' data ends, bytes; past @file_bytes
 *   for an incomplete or header-only copy
 * @split: the file is a shard of a split model (`split.count`)
 * @split_index: 0-based shard index (always 0: a later shard is an error)
 * @split_count: shards in the split model
 * @n_shards: shards summed (1 + those found beside the first)
 * @split_problem: (nullable): why the other shards were not summed
 * @board: (nullable): the board the memory is on (not owned)
 * @context_tokens: the context the memory is for, tokens
 * @footprint: the memory at @context_tokens, an f16 KV cache, 1 slot
 * @verdict: @footprint.total against @board's budget
 * @margin: hr_board_verdict()'s margin, bytes
 * @budget: @board's budget, bytes
 */
typedef struct {
  HrGgufFile      *file;
  HrModelSpec     *spec;
  HrGgufTokenizer *tokenizer;
  const char      *general_name;
  gboolean         has_file_type;
  guint64          file_type;
  const char      *file_type_label;
  double           bits_per_parameter;
  guint            n_tensors;
  guint64          tensor_bytes;
  GArray          *types;
  guint64          header_bytes;
  guint64          alignment;
  guint64          data_offset;
  guint64          file_bytes;
  guint64          tensor_data_end;
  gboolean         split;
  guint32          split_index;
  guint32          split_count;
  guint            n_shards;
  char            *split_problem;
  const HrBoard   *board;
  guint32          context_tokens;
  HrFootprint      footprint;
  HrVerdict        verdict;
  guint64          margin;
  guint64          budget;
  guint            n_unknown_types; /* tensors of a ggml type this version does not know */
  guint            n_unsized;       /* of those, sized "unknown" (no next offset, no file size) */
  guint64          unknown_bytes;   /* the unknown-type tensors' bytes, from the layout */
  GArray          *unknown_types;   /* guint32: the ggml type ids this version does not know, ascending */
  GPtrArray       *unsized_names;   /* char*: the unsized tensors' names, made safe to print */
  char            *memory_problem;  /* why the memory cannot be sized (a count the header lacks), or NULL */
} HrGgufReport;

HrGgufReport *hr_gguf_report_build   (const char     *path,
                                      const char     *display,
                                      const char     *name,
                                      const char     *origin,
                                      const HrBoard  *board,
                                      guint32         context_tokens,
                                      GCancellable   *cancellable,
                                      GError        **error);
void          hr_gguf_report_free    (HrGgufReport   *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HrGgufReport, hr_gguf_report_free)

G_END_DECLS
