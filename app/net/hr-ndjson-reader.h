/* hr-ndjson-reader.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads an NDJSON stream (one JSON value per line, Ollama's streaming
 * format) asynchronously, with a cap on each line and on the whole stream,
 * and an inactivity limit. GDataInputStream has no line cap, so this reads
 * chunks and splits them itself.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define HR_TYPE_NDJSON_READER (hr_ndjson_reader_get_type ())

G_DECLARE_FINAL_TYPE (HrNdjsonReader, hr_ndjson_reader, HR, NDJSON_READER, GObject)

/**
 * HrNdjsonLineFunc:
 * @node: one line's JSON value (transfer none; valid during the call)
 * @user_data: the data given to hr_ndjson_reader_read_async()
 * @error: return location for a #GError
 *
 * Returns: %TRUE to read on; %FALSE with @error set to stop with that error.
 */
typedef gboolean (*HrNdjsonLineFunc) (JsonNode  *node,
                                      gpointer   user_data,
                                      GError   **error);

HrNdjsonReader *hr_ndjson_reader_new          (GInputStream        *stream,
                                               const char          *source_label,
                                               gsize                max_line_bytes,
                                               guint64              max_total_bytes);
void            hr_ndjson_reader_set_first_line_limit (HrNdjsonReader *self,
                                                       guint           limit_ms);
void            hr_ndjson_reader_set_inactivity_limit (HrNdjsonReader *self,
                                                       guint           limit_ms);
void            hr_ndjson_reader_read_async   (HrNdjsonReader      *self,
                                               HrNdjsonLineFunc     line_func,
                                               gpointer             line_data,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
gboolean        hr_ndjson_reader_read_finish  (HrNdjsonReader      *self,
                                               GAsyncResult        *result,
                                               GError             **error);
guint64         hr_ndjson_reader_get_lines    (HrNdjsonReader      *self);
guint64         hr_ndjson_reader_get_bytes    (HrNdjsonReader      *self);
char           *hr_ndjson_format_cap          (guint64              bytes);

G_END_DECLS
