/* hr-gguf-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GGUF report (hr-gguf-report.h), built once from the header.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-error.h"
#include "hr-gguf-report.h"
#include "hr-json.h"
#include "hr-precision.h"

static void
collect_types (HrGgufReport *report)
{
  guint n_types;
  const HrGgmlTypeInfo *types = hr_ggml_type_list (&n_types);

  report->types = g_array_new (FALSE, FALSE, sizeof (HrGgufReportType));
  for (guint i = 0; i < n_types; i++)
    {
      HrGgufReportType entry = { types[i].name, 0, 0 };

      entry.count = hr_gguf_file_count_tensors_of_type (report->file, types[i].type, &entry.bytes);
      if (entry.count > 0)
        g_array_append_val (report->types, entry);
    }
}

static gint
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* The tensors of a ggml type this version does not know: their
 * type ids, their bytes from the layout, and the names of those with no
 * known size. */
static void
collect_unknown (HrGgufReport *report)
{
  report->unknown_types = g_array_new (FALSE, FALSE, sizeof (guint32));
  report->unsized_names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; report->n_unknown_types > 0 && i < report->n_tensors; i++)
    {
      const HrTensorInfo *info = hr_gguf_file_get_tensor (report->file, i);
      gboolean seen = FALSE;

      if (info == NULL || hr_ggml_type_info (info->type) != NULL)
        continue;
      for (guint j = 0; j < report->unknown_types->len && !seen; j++)
        seen = g_array_index (report->unknown_types, guint32, j) == info->type;
      if (!seen)
        g_array_append_val (report->unknown_types, info->type);
      if (info->bytes == 0 && info->elements > 0)
        g_ptr_array_add (report->unsized_names, hr_json_safe_text (info->name, -1, HR_JSON_SAFE_SHORT));
      else if (report->unknown_bytes + info->bytes >= report->unknown_bytes)
        report->unknown_bytes += info->bytes;
      else
        report->unknown_bytes = G_MAXUINT64;
    }
  g_array_sort (report->unknown_types, compare_u32);
}

/* Why the KV cache cannot be sized: a count the header lacks
 * (without head counts it would be 0 bytes and everything would "fit"). */
static char *
memory_problem (const HrModelSpec *spec)
{
  const char *arch = spec->architecture != NULL ? spec->architecture : "?";
  g_autofree char *key = NULL;

  if (spec->layers == 0)
    key = g_strdup_printf ("%s.block_count", arch);
  else if (hr_model_spec_recurrent_only (spec))
    return NULL; /* a recurrent state, no KV cache (hr-gguf-recurrent.c) */
  else if (spec->kv_heads == 0)
    key = g_strdup_printf ("%s.attention.head_count", arch);
  else if (spec->key_length == 0 || spec->value_length == 0)
    key = g_strdup_printf ("%s.attention.key_length (or %s.embedding_length)", arch, arch);
  else
    return NULL;
  return g_strdup_printf (_("the header has no %s, so the KV cache cannot be sized and there is no verdict"), key);
}

/**
 * hr_gguf_report_build:
 * @path: a GGUF file, or the first shard of a split model
 * @display: (nullable): @path as a person reads it, for messages (%NULL:
 *   @path)
 * @name: (nullable): the model's name (an Ollama model's "llama3.2:3b");
 *   %NULL takes `general.name`, else the architecture
 * @origin: (nullable): where the file came from ("gguf:sha256:<hex>")
 * @board: (nullable): the board to put the memory on; %NULL leaves the
 *   verdict, margin and budget 0
 * @context_tokens: the context window, tokens
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads the header (hr_gguf_file_load_model(): a split model's shards
 * summed), maps it to a spec and collects what `headroom-cli gguf` prints:
 * the tokenizer, the tensors per type (those of a ggml type this version
 * does not know apart: their type ids, bytes from the layout and the names
 * of those without a size), the layout, the bits per parameter
 * (file size x 8 / parameters, docs/seed-figures.md W6: 5.03 for llama3.2:3b),
 * and the memory at @context_tokens with an f16 KV cache and 1 slot
 * (hr_memory_footprint()) against @board (hr_board_verdict()); when the
 * header lacks a count the KV cache needs (layers, heads, head size),
 * memory_problem says which and the memory is left 0.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error
 *   set: hr_gguf_file_load_model()'s errors, or
 *   hr_gguf_file_to_model_spec()'s prefixed with "@display: ".
 */
HrGgufReport *
hr_gguf_report_build (const char     *path,
                      const char     *display,
                      const char     *name,
                      const char     *origin,
                      const HrBoard  *board,
                      guint32         context_tokens,
                      GCancellable   *cancellable,
                      GError        **error)
{
  g_autoptr(HrGgufReport) report = g_new0 (HrGgufReport, 1);
  HrGgufFile *file;

  if (display == NULL)
    display = path;
  report->file = file = hr_gguf_file_load_model (path, display, cancellable,
                                                 &report->split_problem, error);
  if (file == NULL)
    return NULL;
  report->spec = hr_gguf_file_to_model_spec (file, name, origin, error);
  if (report->spec == NULL)
    {
      g_prefix_error (error, "%s: ", display);
      return NULL;
    }

  report->tokenizer = hr_gguf_file_get_tokenizer (file);
  report->general_name = hr_gguf_file_get_string (file, "general.name");
  report->has_file_type = hr_gguf_file_get_uint (file, "general.file_type", &report->file_type);
  if (report->has_file_type && report->file_type <= G_MAXUINT32)
    report->file_type_label = hr_ggml_file_type_label ((guint32) report->file_type);

  report->n_tensors = hr_gguf_file_get_n_tensors (file);
  report->tensor_bytes = hr_gguf_file_get_tensor_bytes (file);
  collect_types (report);
  report->n_unknown_types = hr_gguf_file_get_unknown_tensors (file, &report->n_unsized);
  collect_unknown (report);
  report->header_bytes = hr_gguf_file_get_header_bytes (file);
  report->alignment = hr_gguf_file_get_alignment (file);
  report->data_offset = hr_gguf_file_get_data_offset (file);
  report->file_bytes = hr_gguf_file_get_file_bytes (file);
  report->tensor_data_end = hr_gguf_file_get_tensor_data_end (file);
  report->bits_per_parameter = hr_memory_effective_bits (report->file_bytes, report->spec->parameters);

  report->split = hr_gguf_file_get_split (file, &report->split_index, &report->split_count);
  report->n_shards = hr_gguf_file_get_n_shards (file);

  report->board = board;
  report->context_tokens = context_tokens;
  report->memory_problem = memory_problem (report->spec);
  if (report->memory_problem != NULL)
    return g_steal_pointer (&report);
  hr_memory_footprint (report->spec, NULL, HR_KV_CACHE_F16, context_tokens, 1, 0, &report->footprint);
  if (board != NULL)
    {
      report->verdict = hr_board_verdict (board, report->footprint.total, &report->margin);
      report->budget = hr_board_budget_bytes (board);
    }
  return g_steal_pointer (&report);
}

/**
 * hr_gguf_report_free:
 * @report: (nullable): a report
 *
 * Frees @report, its header, spec and tokenizer facts.
 */
void
hr_gguf_report_free (HrGgufReport *report)
{
  if (report == NULL)
    return;
  g_clear_pointer (&report->file, hr_gguf_file_unref);
  g_clear_pointer (&report->spec, hr_model_spec_free);
  g_clear_pointer (&report->tokenizer, hr_gguf_tokenizer_free);
  g_clear_pointer (&report->types, g_array_unref);
  g_clear_pointer (&report->unknown_types, g_array_unref);
  g_clear_pointer (&report->unsized_names, g_ptr_array_unref);
  g_free (report->split_problem);
  g_free (report->memory_problem);
  g_free (report);
}
