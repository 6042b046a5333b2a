/* hr-ndjson-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-json.h"
#include "hr-ndjson-reader.h"
#include "hr-net-error.h"

#define CHUNK_BYTES 16384

struct _HrNdjsonReader
{
  GObject       parent_instance;

  GInputStream *stream;
  char         *source_label;
  gsize         max_line_bytes;
  guint64       max_total_bytes;
  guint         inactivity_ms;
  guint         first_line_ms;
  gboolean      first_line_set;

  /* While a read is running. */
  GTask        *task;        /* borrowed: the running read's task */
  GCancellable *internal;    /* cancelled by the caller's cancellable or the timer */
  GCancellable *caller;
  gulong        caller_handler;
  guint         timer_id;
  gboolean      timed_out;
  HrNdjsonLineFunc line_func;
  gpointer      line_data;
  GByteArray   *buffer;
  guint         last_hash;   /* of the last line that counted as progress */
  gboolean      have_last;
  guint64       lines;
  guint64       bytes;
};

G_DEFINE_FINAL_TYPE (HrNdjsonReader, hr_ndjson_reader, G_TYPE_OBJECT)

static void
hr_ndjson_reader_dispose (GObject *object)
{
  HrNdjsonReader *self = HR_NDJSON_READER (object);

  g_clear_handle_id (&self->timer_id, g_source_remove);
  g_clear_object (&self->stream);
  g_clear_object (&self->internal);
  g_clear_pointer (&self->buffer, g_byte_array_unref);

  G_OBJECT_CLASS (hr_ndjson_reader_parent_class)->dispose (object);
}

static void
hr_ndjson_reader_finalize (GObject *object)
{
  HrNdjsonReader *self = HR_NDJSON_READER (object);

  g_free (self->source_label);

  G_OBJECT_CLASS (hr_ndjson_reader_parent_class)->finalize (object);
}

static void
hr_ndjson_reader_class_init (HrNdjsonReaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_ndjson_reader_dispose;
  object_class->finalize = hr_ndjson_reader_finalize;
}

static void
hr_ndjson_reader_init (HrNdjsonReader *self)
{
}

/**
 * hr_ndjson_reader_new:
 * @stream: the response body
 * @source_label: who is sending, for messages ("http://10.0.0.5:11434")
 * @max_line_bytes: the longest line accepted, in bytes (> 0)
 * @max_total_bytes: the most bytes read in all (> 0)
 *
 * Returns: (transfer full): a reader; it has no inactivity limit until
 *   hr_ndjson_reader_set_inactivity_limit() sets one.
 */
HrNdjsonReader *
hr_ndjson_reader_new (GInputStream *stream,
                      const char   *source_label,
                      gsize         max_line_bytes,
                      guint64       max_total_bytes)
{
  HrNdjsonReader *self;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (max_line_bytes > 0 && max_total_bytes > 0, NULL);

  self = g_object_new (HR_TYPE_NDJSON_READER, NULL);
  self->stream = g_object_ref (stream);
  self->source_label = g_strdup (source_label != NULL ? source_label : _("the server"));
  self->max_line_bytes = max_line_bytes;
  self->max_total_bytes = max_total_bytes;
  return self;
}

/**
 * hr_ndjson_reader_set_inactivity_limit:
 * @self: a reader
 * @limit_ms: milliseconds without progress after which reading stops with
 *   %HR_NET_ERROR_TIMEOUT; 0 for none
 *
 * Progress is a line that says something new: bytes that end no line (a
 * server dripping one byte a second), blank lines and a line identical to
 * the one before (a stalled pull repeating its progress) do not restart
 * the limit. It counts from the start of the read; the wait for the first
 * line has its own limit (hr_ndjson_reader_set_first_line_limit()), the
 * same one unless set.
 */
void
hr_ndjson_reader_set_inactivity_limit (HrNdjsonReader *self,
                                       guint           limit_ms)
{
  g_return_if_fail (HR_IS_NDJSON_READER (self));
  self->inactivity_ms = limit_ms;
}

/**
 * hr_ndjson_reader_set_first_line_limit:
 * @self: a reader
 * @limit_ms: milliseconds allowed before the first line, 0 for none
 *
 * A cold load of a large model may take minutes before generate's first
 * line (docs/ollama.md, "Known quirks"): that wait is given a longer limit
 * than the silence allowed afterwards.
 */
void
hr_ndjson_reader_set_first_line_limit (HrNdjsonReader *self,
                                       guint           limit_ms)
{
  g_return_if_fail (HR_IS_NDJSON_READER (self));
  self->first_line_ms = limit_ms;
  self->first_line_set = TRUE;
}

/**
 * hr_ndjson_reader_get_lines:
 * @self: a reader
 *
 * Returns: the JSON lines handed to the line function so far.
 */
guint64
hr_ndjson_reader_get_lines (HrNdjsonReader *self)
{
  return self->lines;
}

/**
 * hr_ndjson_reader_get_bytes:
 * @self: a reader
 *
 * Returns: the bytes read so far.
 */
guint64
hr_ndjson_reader_get_bytes (HrNdjsonReader *self)
{
  return self->bytes;
}

static void read_next (HrNdjsonReader *self);

static void
on_caller_cancelled (GCancellable *cancellable,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static gboolean
on_inactivity (gpointer user_data)
{
  HrNdjsonReader *self = user_data;

  self->timer_id = 0;
  self->timed_out = TRUE;
  g_cancellable_cancel (self->internal);
  return G_SOURCE_REMOVE;
}

/* The limit now running: the first line's until one came, then progress's. */
static guint
current_limit (HrNdjsonReader *self)
{
  return self->have_last || !self->first_line_set ? self->inactivity_ms : self->first_line_ms;
}

static void
arm_timer (HrNdjsonReader *self)
{
  guint limit = current_limit (self);

  g_clear_handle_id (&self->timer_id, g_source_remove);
  if (limit > 0)
    self->timer_id = g_timeout_add (limit, on_inactivity, self);
}

/* Ends the read: stops the timer and the cancellable chain, then returns. */
static void
finish (HrNdjsonReader *self,
        GError         *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  g_clear_handle_id (&self->timer_id, g_source_remove);
  if (self->caller != NULL)
    g_cancellable_disconnect (self->caller, self->caller_handler);
  self->caller_handler = 0;
  g_clear_object (&self->caller);
  self->line_func = NULL;
  self->line_data = NULL;

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * hr_ndjson_format_cap:
 * @bytes: a cap in bytes
 *
 * Returns: (transfer full): the cap for a message, in whole binary units
 *   when it is one ("4 MiB", "1 KiB"), else in bytes ("64 bytes").
 */
char *
hr_ndjson_format_cap (guint64 bytes)
{
  g_autofree char *number = NULL;

  if (bytes >= 1048576 && bytes % 1048576 == 0)
    {
      number = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes / 1048576);
      /* TRANSLATORS: a size limit, "4 MiB" */
      return g_strdup_printf (_("%s MiB"), number);
    }
  if (bytes >= 1024 && bytes % 1024 == 0)
    {
      number = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes / 1024);
      /* TRANSLATORS: a size limit, "1 KiB" */
      return g_strdup_printf (_("%s KiB"), number);
    }
  number = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
  /* TRANSLATORS: a size limit, "64 bytes" */
  return g_strdup_printf (_("%s bytes"), number);
}

/* Parses one line (without its newline) and hands it on. */
static gboolean
handle_line (HrNdjsonReader  *self,
             const char      *data,
             gsize            len,
             gboolean         at_end,
             GError         **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local = NULL;
  JsonNode *root;

  if (len > 0 && data[len - 1] == '\r')
    len--;
  /* Blank lines carry nothing. */
  while (len > 0 && (data[0] == ' ' || data[0] == '\t'))
    data++, len--;
  if (len == 0)
    return TRUE;

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, (gssize) len, &local))
    {
      g_autofree char *why = hr_json_safe_text (local->message, -1, HR_JSON_SAFE_SHORT);

      if (at_end)
        g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                     _("the connection to %s dropped in the middle of a line; try again"),
                     self->source_label);
      else
        g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                     _("%s sent a line that is not JSON (%s); is this address an Ollama server?"),
                     self->source_label, why);
      return FALSE;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    return TRUE;

  /* Progress is a line that says something new: a repeat of the last one
   * (a stalled pull's identical progress) does not restart the timer, nor
   * do blank lines or bytes that end no line (a drip). */
  {
    g_autofree char *copy = g_strndup (data, len);
    guint hash = g_str_hash (copy);
    gboolean fresh = !self->have_last || hash != self->last_hash;

    self->last_hash = hash;
    self->have_last = TRUE;
    if (fresh)
      arm_timer (self);
  }
  self->lines++;
  return self->line_func (root, self->line_data, error);
}

/* The error a read that gave no bytes ends with: @error, or when the
 * reader's timer ran out, a timeout saying how long it waited. */
static GError *
read_failure (HrNdjsonReader *self,
              GError         *error)
{
  g_autofree char *limit = NULL;

  if (!self->timed_out)
    return error;
  limit = g_strdup_printf ("%.1f", current_limit (self) / 1000.0);
  g_clear_error (&error);
  if (self->have_last)
    g_set_error (&error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                 _("%s sent nothing new for %s s: the board may be overloaded or the connection lost; try again"),
                 self->source_label, limit);
  else
    g_set_error (&error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                 _("%s sent no line for %s s after it began to answer: the board may be overloaded or the connection lost; try again"),
                 self->source_label, limit);
  return error;
}

/* End of stream: a last line without its newline still counts. */
static gboolean
read_last_line (HrNdjsonReader  *self,
                GError         **error)
{
  if (self->buffer->len > 0 &&
      !handle_line (self, (const char *) self->buffer->data, self->buffer->len, TRUE, error))
    return FALSE;
  g_byte_array_set_size (self->buffer, 0);
  return TRUE;
}

/* Counts @size more bytes against the cap on one answer. */
static gboolean
count_bytes (HrNdjsonReader  *self,
             gsize            size,
             GError         **error)
{
  g_autofree char *cap = NULL;

  self->bytes += size;
  if (self->bytes <= self->max_total_bytes)
    return TRUE;
  cap = hr_ndjson_format_cap (self->max_total_bytes);
  g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
               _("%s sent more than %s in one answer; Headroom stopped reading"),
               self->source_label, cap);
  return FALSE;
}

/* Appends @size bytes of @data and hands on every line they complete;
 * what is left is a line in progress, refused past the line cap. */
static gboolean
take_chunk (HrNdjsonReader  *self,
            const guint8    *data,
            gsize            size,
            GError         **error)
{
  gsize start = 0;
  g_autofree char *cap = NULL;

  g_byte_array_append (self->buffer, data, size);
  for (gsize i = self->buffer->len - size; i < self->buffer->len; i++)
    {
      if (self->buffer->data[i] != '\n')
        continue;
      if (i - start > self->max_line_bytes)
        break;
      if (!handle_line (self, (const char *) self->buffer->data + start, i - start, FALSE, error))
        return FALSE;
      /* The line function may have cancelled the read. */
      if (g_cancellable_is_cancelled (self->internal))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));
          return FALSE;
        }
      start = i + 1;
    }
  if (start > 0)
    g_byte_array_remove_range (self->buffer, 0, start);

  /* Whatever is left has no newline yet: a line in progress. */
  if (self->buffer->len <= self->max_line_bytes)
    return TRUE;
  cap = hr_ndjson_format_cap (self->max_line_bytes);
  g_set_error (error, HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
               _("%s sent a line longer than %s: that is not an Ollama stream; check the address"),
               self->source_label, cap);
  return FALSE;
}

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(HrNdjsonReader) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize size;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (bytes != NULL && g_cancellable_is_cancelled (self->internal))
    {
      /* Cancelled while the data was on its way: none of it is handed on. */
      g_clear_pointer (&bytes, g_bytes_unref);
      g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));
    }
  if (bytes == NULL)
    {
      finish (self, read_failure (self, g_steal_pointer (&error)));
      return;
    }

  data = g_bytes_get_data (bytes, &size);
  if (size == 0)
    {
      read_last_line (self, &error);
      finish (self, g_steal_pointer (&error));
      return;
    }
  if (!count_bytes (self, size, &error) || !take_chunk (self, data, size, &error))
    {
      finish (self, g_steal_pointer (&error));
      return;
    }
  read_next (self);
}

static void
read_next (HrNdjsonReader *self)
{
  g_input_stream_read_bytes_async (self->stream, CHUNK_BYTES, G_PRIORITY_DEFAULT,
                                   self->internal, on_read, g_object_ref (self));
}

/**
 * hr_ndjson_reader_read_async:
 * @self: a reader
 * @line_func: called with each line's JSON value, in order
 * @line_data: data for @line_func
 * @cancellable: (nullable): cancels the read
 * @callback: called once the stream has ended or failed
 * @user_data: data for @callback
 *
 * Reads the stream to its end, calling @line_func for every non-blank line.
 * A stream that ends without a final newline has its last line read too.
 * Whether the stream ended with its final line (Ollama's `done`, a pull's
 * `success`) is for the caller to check: reaching the end is not an error
 * here. After @callback runs, @line_func is never called again.
 */
void
hr_ndjson_reader_read_async (HrNdjsonReader      *self,
                             HrNdjsonLineFunc     line_func,
                             gpointer             line_data,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (HR_IS_NDJSON_READER (self));
  g_return_if_fail (line_func != NULL);
  g_return_if_fail (self->task == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_ndjson_reader_read_async);

  self->task = g_steal_pointer (&task);
  self->line_func = line_func;
  self->line_data = line_data;
  self->timed_out = FALSE;
  self->have_last = FALSE;
  g_clear_object (&self->internal);
  self->internal = g_cancellable_new ();
  if (self->buffer == NULL)
    self->buffer = g_byte_array_new ();
  if (cancellable != NULL)
    {
      self->caller = g_object_ref (cancellable);
      self->caller_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                    g_object_ref (self->internal), g_object_unref);
    }

  arm_timer (self);
  read_next (self);
}

/**
 * hr_ndjson_reader_read_finish:
 * @self: a reader
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE when the stream was read to its end; %FALSE with
 *   G_IO_ERROR_CANCELLED (cancelled), %HR_NET_ERROR_TIMEOUT (inactivity
 *   limit), %HR_NET_ERROR_TOO_LARGE (a line or the whole stream over its
 *   cap), %HR_NET_ERROR_INVALID_RESPONSE (a line that is not JSON), the line
 *   function's error, or the stream's own I/O error.
 */
gboolean
hr_ndjson_reader_read_finish (HrNdjsonReader  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hr_ndjson_reader_read_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
