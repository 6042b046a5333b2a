/* test-faults.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli ollama` against a hostile server (fault-server.h)
 * running in this process, one test per fault. Each asserts the message a
 * person sees, that it gave up (bounded generously: a loaded machine may be
 * slow, so never a tight bound) and that nothing was saved.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "fault-server.h"

typedef struct {
  GAsyncResult *result;
} Wait;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  ((Wait *) user_data)->result = g_object_ref (result);
}

/* Runs `headroom-cli ollama --host URL ARGS...` while this process's main
 * loop serves the fault server; *elapsed_s is how long it ran. */
static int
run_cli (FaultServer  *server,
         double       *elapsed_s,
         char        **out,
         char        **err,
         const char   *first,
         ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("HEADROOM_CLI");
  Wait wait = { NULL };
  gint64 start;
  va_list ap;

  g_assert_nonnull (cli);
  g_ptr_array_add (args, (char *) cli);
  g_ptr_array_add (args, (char *) "ollama");
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  start = g_get_monotonic_time ();
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, on_done, &wait);
  while (wait.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  *elapsed_s = (g_get_monotonic_time () - start) / 1e6;
  g_assert_true (g_subprocess_communicate_utf8_finish (process, wait.result, out, err, &error));
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  g_assert_true (g_subprocess_get_if_exited (process));
  fault_server_spin_until_idle (server);
  return g_subprocess_get_exit_status (process);
}

/* The archive a test's measure writes to: nothing may be in it after. */
static char *
archive_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "fault-archive", NULL);
}

static void
assert_nothing_saved (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);

  if (d != NULL)
    g_assert_null (g_dir_read_name (d));
}

/* The last line of stderr is @expected (a pull's catalog note may come
 * before it). */
static void
assert_said (const char *err,
             const char *expected)
{
  if (!g_str_has_suffix (err, expected))
    g_error ("expected stderr to end with \"%s\", got \"%s\"", expected, err);
}

/* Gave up after at least @limit_s (it did wait) and well before forever. */
static void
assert_gave_up (double elapsed_s,
                double limit_s)
{
  g_test_message ("gave up after %.2f s (limit %.1f s)", elapsed_s, limit_s);
  g_assert_cmpfloat (elapsed_s, >=, limit_s * 0.9);
  g_assert_cmpfloat (elapsed_s, <, limit_s + 30.0);
}

/* Pull: the request is read and never answered. */
static void
test_pull_stall_headers (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  double elapsed;

  fault_server_set (server, "/api/pull", FAULT_STALL_HEADERS, 0, NULL);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "1",
                            "pull", "m:latest", "--force", "--size", "1", NULL), ==, 1);
  expected = g_strdup_printf ("headroom-cli: %s did not answer within 1 s: the board may be overloaded, "
                              "or something other than Ollama is listening there\n", url);
  assert_said (err, expected);
  assert_gave_up (elapsed, 1.0);
  fault_server_free (server);
}

/* Pull: the stream's headers, then silence. */
static void
test_pull_stall_body (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  double elapsed;

  fault_server_set (server, "/api/pull", FAULT_STALL_BODY, 0, NULL);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "1",
                            "pull", "m:latest", "--force", "--size", "1", NULL), ==, 1);
  expected = g_strdup_printf ("headroom-cli: %s sent no line for 1.0 s after it began to answer: the board may be "
                              "overloaded or the connection lost; try again\n", url);
  assert_said (err, expected);
  assert_gave_up (elapsed, 1.0);
  fault_server_free (server);
}

/* Pull: a line that drips one byte every 100 ms never ends: bytes are not
 * progress, and the 1 s limit is not reset by them. */
static void
test_pull_drip (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  double elapsed;

  fault_server_set (server, "/api/pull", FAULT_DRIP, 0, NULL);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "1",
                            "pull", "m:latest", "--force", "--size", "1", NULL), ==, 1);
  expected = g_strdup_printf ("headroom-cli: %s sent nothing new for 1.0 s: the board may be overloaded or the "
                              "connection lost; try again\n", url);
  assert_said (err, expected);
  assert_gave_up (elapsed, 1.0);
  fault_server_free (server);
}

/* Pull: the same progress line, and blank lines, every 100 ms. */
static void
test_pull_repeat (void)
{
  const char *lines[] = {
    "{\"status\":\"pulling dde5aa3fc5ff\",\"digest\":\"sha256:dde5\",\"total\":100,\"completed\":50}",
    "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      FaultServer *server = fault_server_new ();
      const char *url = fault_server_get_url (server);
      g_autofree char *out = NULL, *err = NULL, *expected = NULL;
      double elapsed;

      fault_server_set (server, "/api/pull", FAULT_REPEAT, 0, lines[i]);
      g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "1",
                                "pull", "m:latest", "--force", "--size", "1", NULL), ==, 1);
      expected = g_strdup_printf (i == 0 ? "headroom-cli: %s sent nothing new for 1.0 s: the board may be overloaded or the "
                                           "connection lost; try again\n"
                                         : "headroom-cli: %s sent no line for 1.0 s after it began to answer: the board "
                                           "may be overloaded or the connection lost; try again\n", url);
      assert_said (err, expected);
      assert_gave_up (elapsed, 1.0);
      fault_server_free (server);
    }
}

/* Pull: the body ends in the middle of a line. */
static void
test_pull_cut (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  double elapsed;

  fault_server_set (server, "/api/pull", FAULT_CUT_LINE, 0, "{\"status\":\"pulling dde5aa3fc5ff\",\"total\":100}");
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "5",
                            "pull", "m:latest", "--force", "--size", "1", NULL), ==, 1);
  expected = g_strdup_printf ("headroom-cli: the connection to %s dropped in the middle of a line; try again\n", url);
  assert_said (err, expected);
  g_assert_null (strstr (err, "not JSON"));
  g_assert_cmpfloat (elapsed, <, 30.0);
  fault_server_free (server);
}

/* Measure: generate (the unload before the cold run, then the run) is
 * read and never answered; the board's restore is bounded too. */
static void
test_measure_stall (void)
{
  const FaultMode modes[] = { FAULT_STALL_HEADERS, FAULT_DRIP };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      FaultServer *server = fault_server_new ();
      const char *url = fault_server_get_url (server);
      g_autofree char *out = NULL, *err = NULL, *archive = archive_dir ();
      double elapsed;

      fault_server_set (server, "/api/generate", modes[i], 0, NULL);
      g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "1",
                                "measure", "m:latest", "--board", "jetson-orin-nano-super", "--contexts", "2048", "--runs", "1",
                                "--measurements", archive, NULL), ==, 1);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, "headroom-cli: each run waits up to 1 second for m:latest to load and answer; Ctrl-C cancels\n"));
      /* The unload before the cold run is a plain call: its deadline. */
      g_assert_nonnull (strstr (err, "did not answer within 1 s"));
      assert_gave_up (elapsed, 1.0);
      assert_nothing_saved (archive);
      fault_server_free (server);
    }
}

/* Impossible numbers in /api/ps: an error naming the field and the value,
 * exit 1, nothing saved; `ps` says the same. */
static void
test_impossible_ps (void)
{
  static const struct { const char *entry; const char *said; } cases[] = {
    { "\"size\":18446744073709551615", "a \"size\" of -1 (negative, or 2^63 or more), which is impossible" },
    { "\"size\":1180591620717411303424", "a \"size\" of -1 (negative, or 2^63 or more), which is impossible" },
    { "\"size\":9223372036854775808", "a \"size\" of -9223372036854775808 (negative, or 2^63 or more)" },
    { "\"size\":1e999", "a \"size\" of a number too large to read, which is impossible" },
    { "\"size\":-5", "a \"size\" of -5 (negative, or 2^63 or more)" },
    { "\"size\":\"big\"", "a \"size\" of \"big\"" },
    { "\"size\":null", "a \"size\" of null" },
    { "\"size\":100,\"size_vram\":200", "a \"size_vram\" of 200" },
    { "\"context_length\":1099511627776", "a \"context_length\" of 1099511627776" },
    { "\"expires_at\":\"whenever\"", "an \"expires_at\" of \"whenever\", which is not a date" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      FaultServer *server = fault_server_new ();
      const char *url = fault_server_get_url (server);
      g_autofree char *out = NULL, *err = NULL, *archive = archive_dir ();
      g_autofree char *body = g_strdup_printf ("{\"models\":[{\"name\":\"m:latest\",%s}]}", cases[i].entry);
      g_autofree char *expected = g_strdup_printf ("/api/ps gives m:latest %s", cases[i].said);
      double elapsed;

      fault_server_set (server, "/api/ps", FAULT_BODY, 200, body);
      g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "5",
                                "measure", "m:latest", "--board", "jetson-orin-nano-super", "--contexts", "2048", "--runs", "1",
                                "--measurements", archive, NULL), ==, 1);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, expected));
      assert_nothing_saved (archive);
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "ps", NULL), ==, 1);
      g_assert_nonnull (strstr (err, expected));
      g_assert_null (strstr (out, "100% CPU"));
      fault_server_free (server);
    }
}

/* /api/ps with a size of 0 (nothing said) and, from servers
 * older than context_length in /api/ps, no context: both shown as
 * unknown, never "0 B 100% CPU" or CONTEXT 0. */
static void
test_ps_unknown (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL;
  double elapsed;

  fault_server_set (server, "/api/ps", FAULT_BODY, 200,
                    "{\"models\":[{\"name\":\"m:latest\",\"size\":0,\"size_vram\":0}]}");
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "ps", NULL), ==, 0);
  g_test_message ("%s", out);
  g_assert_true (g_str_has_prefix (out, "NAME                             ID                SIZE  PROCESSOR         CONTEXT  UNTIL\n"
                                        "m:latest                                        unknown  Unknown           "));
  g_assert_null (strstr (out, "0 B"));
  g_assert_null (strstr (out, "CPU"));
  g_assert_cmpstr (out, ==, "NAME                             ID                SIZE  PROCESSOR         CONTEXT  UNTIL\n"
                            "m:latest                                        unknown  Unknown           unknown  Never\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "ps", "--json", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "\"context_length\" : null"));
  fault_server_free (server);
}

/* Impossible sizes in /api/tags, and a name that is a number. */
static void
test_impossible_tags (void)
{
  static const struct { const char *entry; const char *said; } cases[] = {
    { "\"name\":\"m:latest\",\"size\":-5", "/api/tags gives m:latest a \"size\" of -5 (negative, or 2^63 or more)" },
    { "\"name\":\"m:latest\",\"size\":9223372036854775808",
      "/api/tags gives m:latest a \"size\" of -9223372036854775808 (negative, or 2^63 or more), which is impossible" },
    { "\"name\":\"m:latest\",\"size\":1e999", "/api/tags gives m:latest a \"size\" of a number too large to read" },
    { "\"name\":\"m:latest\",\"size\":\"big\"", "/api/tags gives m:latest a \"size\" of \"big\"" },
    { "\"name\":\"m:latest\",\"size\":null", "/api/tags gives m:latest a \"size\" of null" },
    { "\"name\":42,\"size\":5", "/api/tags lists a model whose \"name\" is 42, not a model name" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      FaultServer *server = fault_server_new ();
      const char *url = fault_server_get_url (server);
      g_autofree char *out = NULL, *err = NULL;
      g_autofree char *body = g_strdup_printf ("{\"models\":[{%s}]}", cases[i].entry);
      double elapsed;

      fault_server_set (server, "/api/tags", FAULT_BODY, 200, body);
      g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "list", NULL), ==, 1);
      g_assert_nonnull (strstr (err, cases[i].said));
      g_assert_null (strstr (out, "0 B"));
      fault_server_free (server);
    }
}

/* Escapes and a huge version: printed escaped and capped, never saved whole. */
static void
test_escapes_and_huge (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *filler = g_strnfill (100000, '7');
  g_autofree char *huge = g_strdup_printf ("{\"version\":\"%s\"}", filler);
  double elapsed;

  fault_server_set (server, "/api/version", FAULT_BODY, 200, "{\"version\":\"0.1\\u001b[2J\\u001b]0;pwned\\u0007\"}");
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "version", NULL), ==, 0);
  g_assert_null (strchr (out, '\033'));
  g_assert_null (strchr (out, '\007'));
  g_assert_nonnull (strstr (out, "0.1\\x1b[2J\\x1b]0;pwned\\x07"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  fault_server_set (server, "/api/version", FAULT_BODY, 200, huge);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "version", NULL), ==, 0);
  g_assert_cmpuint (strlen (out), <, 400);
  g_assert_nonnull (strstr (out, "\u2026"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  fault_server_set (server, "/api/pull", FAULT_BODY, 500, "{\"error\":\"disk \\u001b[31mfull\"}");
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "pull", "m:latest", "--force", "--size", "1", NULL), ==, 1);
  g_assert_null (strchr (err, '\033'));
  g_assert_nonnull (strstr (err, "disk \\x1b[31mfull"));
  fault_server_free (server);
}

/* 429 with Retry-After: the wait is in the message. */
static void
test_retry_after (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  double elapsed;

  fault_server_set (server, "/api/tags", FAULT_RETRY_AFTER, 0, "30");
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "list", NULL), ==, 1);
  expected = g_strdup_printf ("headroom-cli: Ollama at %s is busy (too many requests); it asks to try again in 30 seconds\n", url);
  assert_said (err, expected);
  fault_server_free (server);
}

/* A POST redirected to another origin is not followed. */
static void
test_cross_origin_redirect (void)
{
  FaultServer *server = fault_server_new ();
  FaultServer *other = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL, *target = NULL, *expected = NULL;
  const guint statuses[] = { 301, 302, 307, 308 };
  double elapsed;

  /* "localhost" is another origin than 127.0.0.1, on the other server's port. */
  target = g_strdup_printf ("%s/api/delete", fault_server_get_url (other));
  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      g_autofree char *other_host = NULL;

      fault_server_set (server, "/api/delete", FAULT_REDIRECT, statuses[i], target);
      g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "delete", "m:latest", NULL), ==, 1);
      other_host = g_strdup (fault_server_get_url (other) + strlen ("http://"));
      expected = g_strdup_printf ("headroom-cli: %s answered the DELETE with a %u redirect to %s; Headroom does not send "
                                  "a DELETE on to another server; if the server moved, use its new address\n",
                                  url, statuses[i], other_host);
      assert_said (err, expected);
      g_assert_cmpuint (fault_server_hits (other, "/api/delete"), ==, 0);
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      g_clear_pointer (&expected, g_free);
    }
  fault_server_free (other);
  fault_server_free (server);
}

/* Deleting a missing model: no advice to pull it. */
static void
test_delete_missing (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  double elapsed;

  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "delete", "m:latest", NULL), ==, 1);
  expected = g_strdup_printf ("headroom-cli: model 'm' not found: m:latest is not on the board at %s, "
                              "so there is nothing to delete\n", url);
  g_assert_cmpstr (err, ==, expected);
  fault_server_free (server);
}

/* Userinfo in the server URL: basic auth to that origin, the password in
 * no message. */
static void
test_userinfo (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *with_user = g_strdup_printf ("http://admin:secret@%s", url + strlen ("http://"));
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  double elapsed;

  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", with_user, "version", NULL), ==, 0);
  /* base64 ("admin:secret") */
  g_assert_cmpstr (fault_server_last_authorization (server), ==, "Basic YWRtaW46c2VjcmV0");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  fault_server_set (server, "/api/tags", FAULT_STALL_HEADERS, 0, NULL);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", with_user, "--timeout", "1", "list", NULL), ==, 1);
  g_assert_null (strstr (err, "secret"));
  g_assert_null (strstr (out, "secret"));
  expected = g_strdup_printf ("headroom-cli: %s did not answer within 1 s", url);
  g_assert_true (g_str_has_prefix (err, expected));
  assert_gave_up (elapsed, 1.0);
  fault_server_free (server);
}

static gboolean
on_tls_incoming (GSocketService    *service,
                 GSocketConnection *connection,
                 GObject           *source,
                 gpointer           user_data)
{
  /* A TLS alert (handshake failure, "protocol version"), as a TLS server
   * sends to a plain HTTP request, then the end. */
  static const guint8 alert[] = { 0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46 };
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));

  g_output_stream_write_all (out, alert, sizeof alert, NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

/* http:// to a TLS port: the message says to try https://. */
static void
test_http_to_tls (void)
{
  FaultServer *server = fault_server_new ();
  g_autoptr(GSocketService) service = g_socket_service_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL, *url = NULL, *expected = NULL;
  guint16 port;
  double elapsed;

  port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (service), NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "incoming", G_CALLBACK (on_tls_incoming), NULL);
  g_socket_service_start (service);
  url = g_strdup_printf ("http://127.0.0.1:%u", port);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "5", "version", NULL), ==, 1);
  g_test_message ("%s", err);
  /* The part in brackets is libsoup's own word for what came back. */
  expected = g_strdup_printf ("headroom-cli: %s closed the connection without an HTTP answer (", url);
  g_assert_true (g_str_has_prefix (err, expected));
  g_assert_true (g_str_has_suffix (err, "); if the server speaks TLS, try https:// instead of http://\n"));
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  fault_server_free (server);
}

static gboolean
on_bad_length_incoming (GSocketService    *service,
                        GSocketConnection *connection,
                        GObject           *source,
                        gpointer          user_data)
{
  static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                               "Content-Length: abc\r\n\r\n{\"version\":\"0.31.2\"}";
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  char buffer[4096];

  g_input_stream_read (in, buffer, sizeof buffer, NULL, NULL);
  g_output_stream_write_all (out, answer, strlen (answer), NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

/* A server that answers with a broken header (Content-Length:
 * abc) did answer: the message says what was wrong, and does not send the
 * person to https://. */
static void
test_bad_content_length (void)
{
  FaultServer *server = fault_server_new ();
  g_autoptr(GSocketService) service = g_socket_service_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL, *url = NULL, *expected = NULL;
  guint16 port;
  double elapsed;

  port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (service), NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "incoming", G_CALLBACK (on_bad_length_incoming), NULL);
  g_socket_service_start (service);
  url = g_strdup_printf ("http://127.0.0.1:%u", port);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "5", "version", NULL), ==, 1);
  g_test_message ("%s", err);
  g_assert_null (strstr (err, "https://"));
  g_assert_null (strstr (err, "without an HTTP answer"));
  expected = g_strdup_printf ("headroom-cli: %s sent an HTTP answer Headroom could not read (", url);
  g_assert_true (g_str_has_prefix (err, expected));
  g_assert_true (g_str_has_suffix (err, "); is it Ollama, or a proxy that mangles its answers?\n"));
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  fault_server_free (server);
}

/* Generate's first byte: the load wait, said as such. */
static void
test_generate_load_wait (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL, *archive = archive_dir ();
  g_autofree char *expected = NULL;
  double elapsed;

  /* The unload before the cold run is answered; the run's generate stalls. */
  fault_server_set (server, "/api/generate", FAULT_STALL_HEADERS, 0, NULL);
  fault_server_set_healthy_first (server, "/api/generate", 1);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "1",
                            "measure", "m:latest", "--board", "jetson-orin-nano-super", "--contexts", "2048", "--runs", "1",
                            "--measurements", archive, NULL), ==, 1);
  g_test_message ("%s", err);
  expected = g_strdup_printf ("%s did not begin to answer within 1 s: m:latest may still be loading", url);
  g_assert_nonnull (strstr (err, expected));
  assert_gave_up (elapsed, 1.0);
  assert_nothing_saved (archive);
  fault_server_free (server);
}

/* While a run waits for its first byte, the person is told,
 * again and again, that it is still waiting and why; --timeout ends it. */
static void
test_generate_wait_reported (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL, *archive = archive_dir ();
  double elapsed;

  fault_server_set (server, "/api/generate", FAULT_STALL_HEADERS, 0, NULL);
  fault_server_set_healthy_first (server, "/api/generate", 1);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "3",
                            "measure", "m:latest", "--board", "jetson-orin-nano-super", "--contexts", "2048", "--runs", "1",
                            "--measurements", archive, NULL), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "headroom-cli: run 1 of 1 at num_ctx 2048 (cold): no answer from m:latest yet after 1 s "
                                 "of at most 3 s; a cold run loads the model before its first token; Ctrl-C cancels\n"));
  g_assert_nonnull (strstr (err, "yet after 2 s of at most 3 s;"));
  assert_gave_up (elapsed, 3.0);
  assert_nothing_saved (archive);
  fault_server_free (server);
}

/* A measure whose stream is cut after 2 of its 3 runs keeps the
 * 2 runs (saved, with "failed" saying how far it got) and says it failed. */
static void
test_measure_cut_keeps_runs (void)
{
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *out = NULL, *err = NULL, *archive = archive_dir ();
  g_autofree char *failed = NULL, *expected = NULL, *saved = NULL, *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *runs;
  const char *start, *end;
  double elapsed;

  /* The unload before the cold run and runs 1 and 2 answer; run 3 is cut. */
  fault_server_set (server, "/api/generate", FAULT_CUT_LINE, 0, "{\"model\":\"m:latest\",\"response\":\"Hel\"");
  fault_server_set_healthy_first (server, "/api/generate", 3);
  g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "--timeout", "5",
                            "measure", "m:latest", "--board", "jetson-orin-nano-super", "--contexts", "2048", "--runs", "3",
                            "--measurements", archive, NULL), ==, 1);
  g_test_message ("%s%s", out, err);
  failed = g_strdup_printf ("failed after 2 of 3 runs: the connection to %s dropped in the middle of a line; try again", url);
  expected = g_strdup_printf ("headroom-cli: %s; the 2 completed runs were saved in ", failed);
  start = strstr (err, expected);
  g_assert_nonnull (start);
  start += strlen (expected);
  end = strchr (start, '\n');
  g_assert_nonnull (end);
  g_assert_cmpstr (end, ==, "\n");
  saved = g_strndup (start, end - start);
  g_assert_true (g_str_has_prefix (saved, archive));

  g_assert_true (g_file_get_contents (saved, &text, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "failed"), ==, failed);
  runs = json_object_get_array_member (root, "runs");
  g_assert_cmpuint (json_array_get_length (runs), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (runs, 1), "run"), ==, 2);
  g_assert_cmpfloat (elapsed, <, 30.0);
  fault_server_free (server);
}

/* A 401 with Ollama's signin_url (a cloud model on a server not
 * signed in, api/types.go AuthorizationError) says where to sign in, for a
 * plain call and a stream alike. */
static void
test_signin_url (void)
{
  const char *paths[] = { "/api/version", "/api/generate" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      FaultServer *server = fault_server_new ();
      const char *url = fault_server_get_url (server);
      g_autofree char *out = NULL, *err = NULL, *expected = NULL;
      double elapsed;

      fault_server_set (server, paths[i], FAULT_BODY, 401,
                        "{\"error\":\"unauthorized\",\"signin_url\":\"https://ollama.com/connect?name=board&key=abc\"}");
      if (i == 0)
        g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "version", NULL), ==, 1);
      else
        g_assert_cmpint (run_cli (server, &elapsed, &out, &err, "--host", url, "unload", "m:latest", NULL), ==, 1);
      expected = g_strdup_printf ("headroom-cli: %s answered 401 Unauthorized: Ollama there is not signed in to ollama.com; "
                                  "sign in at https://ollama.com/connect?name=board&key=abc "
                                  "(or run \"ollama signin\" on that machine)\n", url);
      g_assert_cmpstr (err, ==, expected);
      fault_server_free (server);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/faults/pull-stall-headers", test_pull_stall_headers);
  g_test_add_func ("/faults/pull-stall-body", test_pull_stall_body);
  g_test_add_func ("/faults/pull-drip", test_pull_drip);
  g_test_add_func ("/faults/pull-repeat", test_pull_repeat);
  g_test_add_func ("/faults/pull-cut", test_pull_cut);
  g_test_add_func ("/faults/measure-stall", test_measure_stall);
  g_test_add_func ("/faults/measure-cut-keeps-runs", test_measure_cut_keeps_runs);
  g_test_add_func ("/faults/impossible-ps", test_impossible_ps);
  g_test_add_func ("/faults/ps-unknown", test_ps_unknown);
  g_test_add_func ("/faults/impossible-tags", test_impossible_tags);
  g_test_add_func ("/faults/escapes-and-huge", test_escapes_and_huge);
  g_test_add_func ("/faults/retry-after", test_retry_after);
  g_test_add_func ("/faults/cross-origin-redirect", test_cross_origin_redirect);
  g_test_add_func ("/faults/delete-missing", test_delete_missing);
  g_test_add_func ("/faults/signin-url", test_signin_url);
  g_test_add_func ("/faults/userinfo", test_userinfo);
  g_test_add_func ("/faults/http-to-tls", test_http_to_tls);
  g_test_add_func ("/faults/bad-content-length", test_bad_content_length);
  g_test_add_func ("/faults/generate-load-wait", test_generate_load_wait);
  g_test_add_func ("/faults/generate-wait-reported", test_generate_wait_reported);
  return g_test_run ();
}
