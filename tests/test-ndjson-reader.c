/* test-ndjson-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The NDJSON reader on its own: lines split across reads, a last line
 * without its newline, blank lines, the caps on a line and on the whole
 * stream, JSON errors, the line function's error, the inactivity limit
 * counted from the first byte, and cancelling.
 */
#include "config.h"

#include <locale.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hr-ndjson-reader.h"
#include "hr-net-error.h"

typedef struct {
  GPtrArray    *lines;     /* char*: each line's JSON, re-serialised */
  guint         fail_at;   /* 1-based line whose function fails, 0 = none */
  GAsyncResult *result;
} Run;

static gboolean
on_line (JsonNode  *node,
         gpointer   user_data,
         GError   **error)
{
  Run *run = user_data;

  g_ptr_array_add (run->lines, json_to_string (node, FALSE));
  if (run->fail_at == run->lines->len)
    {
      g_set_error_literal (error, HR_NET_ERROR, HR_NET_ERROR_STREAM, "stop here");
      return FALSE;
    }
  return TRUE;
}

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  ((Run *) user_data)->result = g_object_ref (result);
}

static gboolean
read_all (HrNdjsonReader  *reader,
          Run             *run,
          GCancellable    *cancellable,
          GError         **error)
{
  gboolean ok;

  hr_ndjson_reader_read_async (reader, on_line, run, cancellable, on_done, run);
  while (run->result == NULL)
    g_main_context_iteration (NULL, TRUE);
  ok = hr_ndjson_reader_read_finish (reader, run->result, error);
  g_clear_object (&run->result);
  return ok;
}

static HrNdjsonReader *
reader_for (const char *data,
            gsize       max_line,
            guint64     max_total)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (g_strdup (data), -1, g_free);

  return hr_ndjson_reader_new (stream, "http://board:11434", max_line, max_total);
}

static void
test_lines (void)
{
  g_autoptr(HrNdjsonReader) reader = NULL;
  g_autoptr(GString) data = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  Run run = { g_ptr_array_new_with_free_func (g_free), 0, NULL };

  /* Lines longer than one read, CRLF, blank lines, no final newline. */
  g_string_append (data, "{\"a\":1}\n\n  \r\n");
  g_string_append (data, "{\"long\":\"");
  for (guint i = 0; i < 40000; i++)
    g_string_append_c (data, 'x');
  g_string_append (data, "\"}\r\n[1,2]\n{\"done\":true}");
  reader = reader_for (data->str, 65536, 1024 * 1024);

  g_assert_true (read_all (reader, &run, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (run.lines->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (run.lines, 0), ==, "{\"a\":1}");
  g_assert_cmpuint (strlen (g_ptr_array_index (run.lines, 1)), ==, 40000 + 11);
  g_assert_cmpstr (g_ptr_array_index (run.lines, 2), ==, "[1,2]");
  g_assert_cmpstr (g_ptr_array_index (run.lines, 3), ==, "{\"done\":true}");
  g_assert_cmpuint (hr_ndjson_reader_get_lines (reader), ==, 4);
  g_assert_cmpuint (hr_ndjson_reader_get_bytes (reader), ==, data->len);
  g_ptr_array_unref (run.lines);
}

static void
assert_fails (const char *data,
              gsize       max_line,
              guint64     max_total,
              guint       fail_at,
              gint        code,
              const char *message,
              guint       lines_before)
{
  g_autoptr(HrNdjsonReader) reader = reader_for (data, max_line, max_total);
  g_autoptr(GError) error = NULL;
  Run run = { g_ptr_array_new_with_free_func (g_free), fail_at, NULL };

  g_assert_false (read_all (reader, &run, NULL, &error));
  g_assert_error (error, HR_NET_ERROR, code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
  g_assert_cmpuint (run.lines->len, ==, lines_before);
  g_ptr_array_unref (run.lines);
}

static void
test_caps_and_errors (void)
{
  /* A line of exactly the cap passes; one byte more does not. */
  {
    g_autoptr(HrNdjsonReader) reader = reader_for ("{\"k\":\"1234\"}\n", 12, 1000);
    g_autoptr(GError) error = NULL;
    Run run = { g_ptr_array_new_with_free_func (g_free), 0, NULL };

    g_assert_true (read_all (reader, &run, NULL, &error));
    g_assert_cmpuint (run.lines->len, ==, 1);
    g_ptr_array_unref (run.lines);
  }
  assert_fails ("{\"a\":1}\n{\"k\":\"12345\"}\n", 12, 1000, 0, HR_NET_ERROR_TOO_LARGE,
                "http://board:11434 sent a line longer than 12 bytes: that is not an Ollama stream; check the address", 1);
  /* A line over the cap with no newline in sight yet. */
  assert_fails ("{\"k\":\"123456789012345678901234567890", 16, 1000, 0, HR_NET_ERROR_TOO_LARGE,
                "http://board:11434 sent a line longer than 16 bytes: that is not an Ollama stream; check the address", 0);
  assert_fails ("{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", 1024, 16, 0, HR_NET_ERROR_TOO_LARGE,
                "http://board:11434 sent more than 16 bytes in one answer; Headroom stopped reading", 0);
  assert_fails ("{\"a\":1}\nnot json\n{\"a\":3}\n", 1024, 1024, 0, HR_NET_ERROR_INVALID_RESPONSE, NULL, 1);
  assert_fails ("{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n", 1024, 1024, 2, HR_NET_ERROR_STREAM, "stop here", 2);
}

static void
test_caps_text (void)
{
  char *text = hr_ndjson_format_cap (4 * 1024 * 1024);

  g_assert_cmpstr (text, ==, "4 MiB");
  g_free (text);
  text = hr_ndjson_format_cap (1024);
  g_assert_cmpstr (text, ==, "1 KiB");
  g_free (text);
  text = hr_ndjson_format_cap (1000);
  g_assert_cmpstr (text, ==, "1000 bytes");
  g_free (text);
}

/* A stream that waits for bytes: one end of a socket pair; the other end's
 * fd goes to @out_writer. */
static GInputStream *
socket_stream (int *out_writer)
{
  int sv[2];
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketConnection) connection = NULL;

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), ==, 0);
  socket = g_socket_new_from_fd (sv[0], NULL);
  g_assert_nonnull (socket);
  connection = g_socket_connection_factory_create_connection (socket);
  *out_writer = sv[1];
  /* The stream keeps its connection alive. */
  g_object_set_data_full (G_OBJECT (g_io_stream_get_input_stream (G_IO_STREAM (connection))),
                          "connection", g_object_ref (connection), g_object_unref);
  return g_object_ref (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
}

static gboolean
on_write_later (gpointer user_data)
{
  int fd = GPOINTER_TO_INT (user_data);

  g_assert_cmpint (write (fd, "{\"b\":2}\n", 8), ==, 8);
  return G_SOURCE_REMOVE;
}

static void
test_inactivity (void)
{
  int fds[2] = { -1, -1 };
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(HrNdjsonReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  Run run = { g_ptr_array_new_with_free_func (g_free), 0, NULL };
  gint64 start;
  double elapsed_ms;

  stream = socket_stream (&fds[1]);
  reader = hr_ndjson_reader_new (stream, "http://board:11434", 1024, 1024);
  hr_ndjson_reader_set_inactivity_limit (reader, 100);
  hr_ndjson_reader_set_first_line_limit (reader, 0);

  /* Silence before the first line has its own limit, none here (a cold
   * load): the first line comes after 250 ms, then nothing. */
  g_timeout_add (250, on_write_later, GINT_TO_POINTER (fds[1]));
  start = g_get_monotonic_time ();
  g_assert_false (read_all (reader, &run, NULL, &error));
  elapsed_ms = (g_get_monotonic_time () - start) / 1000.0;
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT);
  g_assert_cmpstr (error->message, ==,
                   "http://board:11434 sent nothing new for 0.1 s: the board may be overloaded or the connection lost; try again");
  g_assert_cmpuint (run.lines->len, ==, 1);
  g_assert_cmpfloat (elapsed_ms, >=, 350);
  g_assert_cmpfloat (elapsed_ms, <, 2000);
  close (fds[1]);
  g_ptr_array_unref (run.lines);
}

static gboolean
cancel_later (gpointer user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
  return G_SOURCE_REMOVE;
}

static void
test_cancel (void)
{
  int fds[2] = { -1, -1 };
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(HrNdjsonReader) reader = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  Run run = { g_ptr_array_new_with_free_func (g_free), 0, NULL };

  stream = socket_stream (&fds[1]);
  reader = hr_ndjson_reader_new (stream, "http://board:11434", 1024, 1024);
  g_assert_cmpint (write (fds[1], "{\"a\":1}\n", 8), ==, 8);
  g_timeout_add (100, cancel_later, cancellable);
  g_assert_false (read_all (reader, &run, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (run.lines->len, ==, 1);
  close (fds[1]);
  g_ptr_array_unref (run.lines);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/ndjson-reader/lines", test_lines);
  g_test_add_func ("/ndjson-reader/caps-and-errors", test_caps_and_errors);
  g_test_add_func ("/ndjson-reader/caps-text", test_caps_text);
  g_test_add_func ("/ndjson-reader/inactivity", test_inactivity);
  g_test_add_func ("/ndjson-reader/cancel", test_cancel);

  return g_test_run ();
}
