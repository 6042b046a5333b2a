/* test-board-faults.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Board page when the server misbehaves ("the window shows
 * the same messages") and when it goes away or changes, under
 * Xvfb in the real window, against the hostile server of
 * tests/fault-server.h: for one fault of each kind, the exact words the
 * page shows (those `headroom-cli ollama` prints, tests/test-faults.c),
 * that it gave up within the connection's timeout (1 s here), that server
 * text is shown escaped, that nothing was saved (no measurement, no server
 * that never answered, no password), and that the page connects again
 * afterwards. Also the page at 360 px wide.
 */

#include "config.h"

#include "board-page-test-util.h"
#include "fault-server.h"

/* The connection's timeout in these tests, seconds. */
#define TIMEOUT_S 1

static gboolean
page_settled (gpointer data)
{
  HrBoardConnection *c = conn (data);

  return hr_board_connection_get_state (c) != HR_BOARD_CONNECTION_CONNECTING && !hr_board_connection_get_busy (c);
}

/* Connects to @url and waits until it answered or gave up; returns how
 * long that took, in seconds. */
static double
connect_timed (Fixture    *f,
               const char *url)
{
  gint64 start = g_get_monotonic_time ();

  double seconds;

  hr_board_page_connect (f->page, url);
  g_assert_true (iterate_until (page_settled, f->page, (TIMEOUT_S + 30) * 1000));
  seconds = (g_get_monotonic_time () - start) / 1e6;
  /* A server that answers asks which board it is on. */
  answer_board_chooser (f);
  return seconds;
}

static double
refresh_timed (Fixture *f)
{
  gint64 start = g_get_monotonic_time ();

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "board.refresh", NULL));
  g_assert_true (iterate_until (page_settled, f->page, (TIMEOUT_S + 30) * 1000));
  return (g_get_monotonic_time () - start) / 1e6;
}

/* Waited for the timeout (it did wait), and gave up well before forever. */
static void
assert_gave_up (double elapsed_s)
{
  g_test_message ("gave up after %.2f s (limit %d s)", elapsed_s, TIMEOUT_S);
  g_assert_cmpfloat (elapsed_s, >=, TIMEOUT_S * 0.9);
  g_assert_cmpfloat (elapsed_s, <, TIMEOUT_S + 30.0);
}

static AdwStatusPage *
status_page (HrBoardPage *page)
{
  g_autoptr(GPtrArray) pages = g_ptr_array_new ();

  collect (GTK_WIDGET (page), ADW_TYPE_STATUS_PAGE, pages);
  g_assert_cmpuint (pages->len, ==, 1);
  return g_ptr_array_index (pages, 0);
}

/* The page shows @title and @message on its status page, with Retry, no
 * version, no lists and nothing enabled that needs a server. */
static void
assert_failed (Fixture    *f,
               const char *title,
               const char *message)
{
  AdwStatusPage *page = status_page (f->page);

  g_assert_cmpint (hr_board_connection_get_state (conn (f->page)), ==, HR_BOARD_CONNECTION_FAILED);
  g_assert_cmpstr (hr_board_connection_get_error (conn (f->page)), ==, message);
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (page)));
  g_assert_cmpstr (adw_status_page_get_title (page), ==, title);
  /* The text shown (the description is markup, escaped). */
  g_assert_true (has_label (GTK_WIDGET (f->page), message));
  g_assert_cmpstr (adw_action_row_get_subtitle (find_row (GTK_WIDGET (f->page), "Server")), ==, "Not connected");
  g_assert_null (hr_board_connection_get_version (conn (f->page)));
  g_assert_cmpuint (hr_board_connection_get_models (conn (f->page))->len, ==, 0);
  g_assert_cmpuint (hr_board_connection_get_loaded (conn (f->page))->len, ==, 0);
  g_assert_null (find_row (GTK_WIDGET (f->page), "m:latest"));
  g_assert_null (find_row (GTK_WIDGET (f->page), "llama3.2:3b"));
  /* Disabled: neither opens anything. */
  gtk_widget_activate_action (GTK_WIDGET (f->page), "board.measure", "s", "m:latest");
  g_assert_null (_hr_board_page_get_measure_window (f->page));
  gtk_widget_activate_action (GTK_WIDGET (f->page), "board.delete", "s", "m:latest");
  spin (50);
  g_assert_null (find_dialog ());
  g_assert_true (has_label (GTK_WIDGET (f->page), "Retry"));
}

/* No measurement was written, and no server saved whose URL is @url. */
static void
assert_nothing_saved (Fixture    *f,
                      const char *url)
{
  g_autofree char *dir = hr_session_dup_measurements_dir (f->session);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GArray *servers = hr_session_get_servers (f->session);

  if (d != NULL)
    g_assert_null (g_dir_read_name (d));
  for (guint i = 0; url != NULL && i < servers->len; i++)
    g_assert_cmpstr (g_array_index (servers, HrSavedServer, i).url, !=, url);
}

/* The page connects to a healthy server again after a fault. */
static void
assert_usable (Fixture *f)
{
  connect_timed (f, fake_ollama_get_url (f->fake));
  g_assert_cmpint (hr_board_connection_get_state (conn (f->page)), ==, HR_BOARD_CONNECTION_CONNECTED);
  g_assert_nonnull (find_row (GTK_WIDGET (f->page), "llama3.2:3b"));
}

static void
open_faulty (Fixture *f)
{
  open_page (f);
  hr_board_connection_set_timeout (conn (f->page), TIMEOUT_S);
}

/* ------------------------------------------------------------------ */
/* The server goes away, or another is chosen                          */

static void
test_server_gone (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();
  g_autofree char *url = g_strdup (fault_server_get_url (server));
  g_autofree char *expected = NULL;

  open_faulty (&f);
  connect_timed (&f, url);
  g_assert_nonnull (find_row (GTK_WIDGET (f.page), "m:latest"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.measure", "s", "m:latest"));
  gtk_window_destroy (GTK_WINDOW (_hr_board_page_get_measure_window (f.page)));

  /* Stopped: the next refresh says so, and nothing of it stays. */
  fault_server_free (server);
  refresh_timed (&f);
  expected = g_strdup_printf ("Could not list the models on the board: nothing is listening at %s; is `ollama serve` "
                              "running, and bound to an address this machine can reach?", url);
  assert_failed (&f, "Could Not Read the Board", expected);
  assert_nothing_saved (&f, NULL);
  assert_usable (&f);
  close_page (&f);
}

static void
test_new_url (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *connecting = g_strdup_printf ("Connecting to %s…", url);
  g_autofree char *expected = NULL;
  double elapsed;
  gint64 start;

  open_faulty (&f);
  connect_timed (&f, fake_ollama_get_url (f.fake));
  g_assert_nonnull (find_row (GTK_WIDGET (f.page), "llama3.2:3b"));

  /* Another server that is slow to answer: the old one's models go at once. */
  fault_server_set (server, "/api/version", FAULT_STALL_HEADERS, 0, NULL);
  start = g_get_monotonic_time ();
  hr_board_page_connect (f.page, url);
  g_assert_cmpuint (hr_board_connection_get_models (conn (f.page))->len, ==, 0);
  g_assert_null (find_row (GTK_WIDGET (f.page), "llama3.2:3b"));
  spin (50);
  g_assert_cmpint (hr_board_connection_get_state (conn (f.page)), ==, HR_BOARD_CONNECTION_CONNECTING);
  g_assert_true (has_label (GTK_WIDGET (f.page), connecting));
  g_assert_cmpstr (adw_action_row_get_subtitle (find_row (GTK_WIDGET (f.page), "Server")), ==, connecting);
  g_assert_null (find_row (GTK_WIDGET (f.page), "llama3.2:3b"));
  gtk_widget_activate_action (GTK_WIDGET (f.page), "board.measure", "s", "llama3.2:3b");
  g_assert_null (_hr_board_page_get_measure_window (f.page));

  /* Stall before the headers: the words of `headroom-cli ollama`. */
  g_assert_true (iterate_until (page_settled, f.page, (TIMEOUT_S + 30) * 1000));
  elapsed = (g_get_monotonic_time () - start) / 1e6;
  expected = g_strdup_printf ("%s did not answer within %d s: the board may be overloaded, or something other than "
                              "Ollama is listening there", url, TIMEOUT_S);
  assert_failed (&f, "Could Not Connect", expected);
  assert_gave_up (elapsed);
  assert_nothing_saved (&f, url);

  assert_usable (&f);
  close_page (&f);
  fault_server_free (server);
}

/* ------------------------------------------------------------------ */
/* One fault of each kind                                              */

/* A refresh of /api/tags or /api/ps that fails as @mode did with @text. */
static void
refresh_fails (Fixture     *f,
               FaultServer *server,
               const char  *path,
               FaultMode    mode,
               guint        status,
               const char  *text,
               const char  *expected)
{
  connect_timed (f, fault_server_get_url (server));
  g_assert_cmpint (hr_board_connection_get_state (conn (f->page)), ==, HR_BOARD_CONNECTION_CONNECTED);
  fault_server_set (server, path, mode, status, text);
  refresh_timed (f);
  {
    g_autoptr(GString) said = g_string_new (expected);

    g_string_replace (said, "URL", fault_server_get_url (server), 0);
    assert_failed (f, "Could Not Read the Board", said->str);
  }
  fault_server_set (server, path, FAULT_NONE, 0, NULL);
  assert_nothing_saved (f, NULL);
}

static void
test_impossible_numbers (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();

  open_faulty (&f);
  refresh_fails (&f, server, "/api/tags", FAULT_BODY, 200, "{\"models\":[{\"name\":\"m:latest\",\"size\":-5}]}",
                 "Could not list the models on the board: URL answered with a number that cannot be: /api/tags gives m:latest "
                 "a \"size\" of -5 (negative, or 2^63 or more), which is impossible; nothing was read from it");
  refresh_fails (&f, server, "/api/ps", FAULT_BODY, 200,
                 "{\"models\":[{\"name\":\"m:latest\",\"size\":18446744073709551615}]}",
                 "Could not read what is loaded (/api/ps): URL answered with a number that cannot be: /api/ps gives m:latest "
                 "a \"size\" of -1 (negative, or 2^63 or more), which is impossible; nothing was read from it");
  assert_usable (&f);
  close_page (&f);
  fault_server_free (server);
}

static void
test_retry_after (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();
  g_autofree char *expected = g_strdup_printf ("Could not list the models on the board: Ollama at %s is busy (too many "
                                               "requests); it asks to try again in 30 seconds",
                                               fault_server_get_url (server));

  open_faulty (&f);
  refresh_fails (&f, server, "/api/tags", FAULT_RETRY_AFTER, 0, "30", expected);
  /* Retry, once the server is well again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.refresh", NULL));
  g_assert_true (iterate_until (page_settled, f.page, (TIMEOUT_S + 30) * 1000));
  g_assert_cmpint (hr_board_connection_get_state (conn (f.page)), ==, HR_BOARD_CONNECTION_CONNECTED);
  g_assert_nonnull (find_row (GTK_WIDGET (f.page), "m:latest"));
  close_page (&f);
  fault_server_free (server);
}

/* The version's escapes are shown escaped; a huge one is capped. */
static void
test_escapes_and_huge (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *expected = g_strdup_printf ("Ollama 0.1\\x1b[2J\\x1b]0;pwned\\x07 <b> at %s, on Jetson Orin Nano Super", url);
  g_autofree char *filler = g_strnfill (100000, '7');
  g_autofree char *huge = g_strdup_printf ("{\"version\":\"%s\"}", filler);
  const char *subtitle;

  open_faulty (&f);
  fault_server_set (server, "/api/version", FAULT_BODY, 200, "{\"version\":\"0.1\\u001b[2J\\u001b]0;pwned\\u0007 <b>\"}");
  connect_timed (&f, url);
  subtitle = adw_action_row_get_subtitle (find_row (GTK_WIDGET (f.page), "Server"));
  g_assert_cmpstr (subtitle, ==, expected);
  g_assert_null (strchr (subtitle, '\033'));

  fault_server_set (server, "/api/version", FAULT_BODY, 200, huge);
  connect_timed (&f, url);
  subtitle = adw_action_row_get_subtitle (find_row (GTK_WIDGET (f.page), "Server"));
  g_assert_cmpuint (strlen (subtitle), <, 400);
  g_assert_nonnull (strstr (subtitle, "\u2026"));

  /* An error in the server's words, with markup in it, shown as text. */
  fault_server_set (server, "/api/tags", FAULT_BODY, 500, "{\"error\":\"disk \\u001b[31mfull <b>&\"}");
  refresh_timed (&f);
  g_assert_nonnull (strstr (hr_board_connection_get_error (conn (f.page)), "disk \\x1b[31mfull <b>&"));
  g_assert_true (has_label (GTK_WIDGET (f.page), hr_board_connection_get_error (conn (f.page))));
  assert_nothing_saved (&f, NULL);
  close_page (&f);
  fault_server_free (server);
}

/* A DELETE redirected to another origin is not followed; the toast says where it pointed. */
static void
test_cross_origin_redirect (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();
  FaultServer *other = fault_server_new ();
  g_autofree char *target = g_strdup_printf ("%s/api/delete", fault_server_get_url (other));
  g_autofree char *expected = g_strdup_printf ("Could not delete m:latest: %s answered the DELETE with a 301 redirect "
                                               "to %s; Headroom does not send a DELETE on to another server; if the "
                                               "server moved, use its new address",
                                               fault_server_get_url (server),
                                               fault_server_get_url (other) + strlen ("http://"));

  open_faulty (&f);
  connect_timed (&f, fault_server_get_url (server));
  fault_server_set (server, "/api/delete", FAULT_REDIRECT, 301, target);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.delete", "s", "m:latest"));
  g_assert_true (iterate_until (dialog_shown, NULL, 5000));
  adw_message_dialog_response (find_dialog (), "delete");
  g_assert_true (iterate_until (page_settled, f.page, (TIMEOUT_S + 30) * 1000));
  g_assert_cmpstr (last_message (f.window), ==, expected);
  g_assert_cmpuint (fault_server_hits (other, "/api/delete"), ==, 0);
  close_page (&f);
  fault_server_free (other);
  fault_server_free (server);
}

/* Userinfo: basic auth to that server; the password shown and saved nowhere. */
static void
test_userinfo (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *with_user = g_strdup_printf ("http://admin:secret@%s", url + strlen ("http://"));
  g_autofree char *expected = NULL;
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GVariant) saved = NULL;
  g_autofree char *printed = NULL;

  open_faulty (&f);
  connect_timed (&f, with_user);
  g_assert_cmpint (hr_board_connection_get_state (conn (f.page)), ==, HR_BOARD_CONNECTION_CONNECTED);
  g_assert_cmpstr (fault_server_last_authorization (server), ==, "Basic YWRtaW46c2VjcmV0");
  g_assert_null (strstr (adw_action_row_get_subtitle (find_row (GTK_WIDGET (f.page), "Server")), "secret"));
  saved = g_settings_get_value (settings, "ollama-boards");
  printed = g_variant_print (saved, FALSE);
  g_assert_null (strstr (printed, "secret"));
  g_assert_nonnull (strstr (printed, url));

  fault_server_set (server, "/api/tags", FAULT_STALL_HEADERS, 0, NULL);
  assert_gave_up (refresh_timed (&f));
  expected = g_strdup_printf ("Could not list the models on the board: %s did not answer within %d s: the board may "
                              "be overloaded, or something other than Ollama is listening there", url, TIMEOUT_S);
  assert_failed (&f, "Could Not Read the Board", expected);
  close_page (&f);
  fault_server_free (server);
}

/* Retry after a lost server, from a URL with userinfo: the retry sends the
 * password again (the URL shown, and the one in the URL row, leave it
 * out), and it is still saved nowhere. */
static void
test_userinfo_retry (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *with_user = g_strdup_printf ("http://admin:secret@%s", url + strlen ("http://"));
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  g_autoptr(GVariant) saved = NULL;
  g_autofree char *printed = NULL;
  g_autofree char *last = NULL;
  GtkWidget *retry = NULL;
  guint asked;

  open_faulty (&f);
  connect_timed (&f, with_user);
  g_assert_cmpint (hr_board_connection_get_state (conn (f.page)), ==, HR_BOARD_CONNECTION_CONNECTED);
  g_assert_cmpstr (hr_board_connection_get_url (conn (f.page)), ==, url);

  /* The server goes away... */
  fault_server_set (server, "/api/tags", FAULT_BODY, 500, "{\"error\":\"gone\"}");
  refresh_timed (&f);
  g_assert_cmpint (hr_board_connection_get_state (conn (f.page)), ==, HR_BOARD_CONNECTION_FAILED);

  /* ... and comes back: Retry, the button the page shows. */
  fault_server_set (server, "/api/tags", FAULT_NONE, 0, NULL);
  asked = fault_server_hits (server, "/api/version");
  collect (GTK_WIDGET (f.page), GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len && retry == NULL; i++)
    if (g_strcmp0 (gtk_button_get_label (g_ptr_array_index (buttons, i)), "_Retry") == 0)
      retry = g_ptr_array_index (buttons, i);
  g_assert_nonnull (retry);
  g_assert_true (gtk_widget_is_drawable (retry));
  g_signal_emit_by_name (retry, "clicked");
  g_assert_true (iterate_until (page_settled, f.page, (TIMEOUT_S + 30) * 1000));
  g_assert_cmpuint (fault_server_hits (server, "/api/version"), >, asked);
  g_assert_cmpint (hr_board_connection_get_state (conn (f.page)), ==, HR_BOARD_CONNECTION_CONNECTED);
  g_assert_cmpstr (fault_server_last_authorization (server), ==, "Basic YWRtaW46c2VjcmV0");
  g_assert_nonnull (find_row (GTK_WIDGET (f.page), "m:latest"));

  /* Shown and saved without it. */
  g_assert_cmpstr (hr_board_connection_get_url (conn (f.page)), ==, url);
  g_assert_null (strstr (adw_action_row_get_subtitle (find_row (GTK_WIDGET (f.page), "Server")), "secret"));
  saved = g_settings_get_value (settings, "ollama-boards");
  printed = g_variant_print (saved, FALSE);
  last = g_settings_get_string (settings, "last-ollama-board");
  g_assert_null (strstr (printed, "secret"));
  g_assert_cmpstr (last, ==, url);
  close_page (&f);
  fault_server_free (server);
}

/* OLLAMA_HOST with userinfo: the page connects to it when shown with the
 * basic auth, and shows and saves the URL without the password. */
static void
test_ollama_host_userinfo (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  g_autofree char *with_user = g_strdup_printf ("admin:secret@%s", url + strlen ("http://"));
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree char *last = NULL;

  g_setenv ("OLLAMA_HOST", with_user, TRUE);
  open_faulty (&f);
  g_assert_true (iterate_until (page_settled, f.page, (TIMEOUT_S + 30) * 1000));
  answer_board_chooser (&f);
  g_unsetenv ("OLLAMA_HOST");
  g_assert_cmpint (hr_board_connection_get_state (conn (f.page)), ==, HR_BOARD_CONNECTION_CONNECTED);
  g_assert_cmpstr (fault_server_last_authorization (server), ==, "Basic YWRtaW46c2VjcmV0");
  g_assert_cmpstr (hr_board_connection_get_url (conn (f.page)), ==, url);
  last = g_settings_get_string (settings, "last-ollama-board");
  g_assert_cmpstr (last, ==, url);
  close_page (&f);
  fault_server_free (server);
}

/* ------------------------------------------------------------------ */
/* Streams: Try It (stall after the headers, drip, a line cut)         */

static gboolean
chat_done (gpointer data)
{
  return !hr_chat_panel_is_chatting (_hr_board_page_get_chat_panel (data));
}

static void
test_chat_streams (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();
  const char *url = fault_server_get_url (server);
  struct { FaultMode mode; const char *text; const char *format; } cases[] = {
    { FAULT_STALL_HEADERS, NULL, "%s did not begin to answer within 1 s: m:latest may still be loading (a large model can "
                             "take minutes); allow a longer wait, or check `ollama ps`" },
    { FAULT_STALL_BODY, NULL, "%s sent no line for 1.0 s after it began to answer: the board may be overloaded "
                              "or the connection lost; try again" },
    { FAULT_DRIP, NULL, "%s sent nothing new for 1.0 s: the board may be overloaded or the connection lost; "
                        "try again" },
    { FAULT_CUT_LINE, "{\"message\":{\"role\":\"assistant\",\"content\":\"Hel\"},\"done\":false}",
      "the connection to %s dropped in the middle of a line; try again" },
  };

  open_faulty (&f);
  connect_timed (&f, url);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *expected = g_strdup_printf (cases[i].format, url);
      gint64 start;
      double elapsed;

      fault_server_set (server, "/api/chat", cases[i].mode, 0, cases[i].text);
      set_entry (f.page, "Messa_ge", "Hello?");
      start = g_get_monotonic_time ();
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.send", NULL));
      g_assert_true (iterate_until (chat_done, f.page, (TIMEOUT_S + 30) * 1000));
      elapsed = (g_get_monotonic_time () - start) / 1e6;
      if (!has_label (GTK_WIDGET (f.page), expected))
        {
          g_autoptr(GPtrArray) texts = label_texts (GTK_WIDGET (_hr_board_page_get_chat_panel (f.page)));

          for (guint j = 0; j < texts->len; j++)
            g_printerr ("said: %s\n", (char *) g_ptr_array_index (texts, j));
          g_error ("expected \"%s\" on the page", expected);
        }
      if (cases[i].mode != FAULT_CUT_LINE)
        assert_gave_up (elapsed);
      else
        g_assert_cmpfloat (elapsed, <, 30.0);
      /* The unanswered message is not in the conversation. */
      g_assert_cmpuint (hr_chat_panel_get_n_turns (_hr_board_page_get_chat_panel (f.page)), ==, 0);
      fault_server_spin_until_idle (server);
    }
  assert_nothing_saved (&f, NULL);
  g_assert_cmpint (hr_board_connection_get_state (conn (f.page)), ==, HR_BOARD_CONNECTION_CONNECTED);
  close_page (&f);
  fault_server_free (server);
}

/* ------------------------------------------------------------------ */
/* 360 px wide                                                         */

/* The widgets under @root wider than @limit, for a failure's message
 * (hidden ones too: a stack may measure its hidden pages). */
static void
say_widest (GtkWidget *root,
            int        limit,
            int        depth)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      int min = 0;

      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      if (min > limit)
        g_printerr ("%*s%s: %d px\n", depth * 2, "", G_OBJECT_TYPE_NAME (child), min);
      say_widest (child, limit, depth + 1);
    }
}

static void
assert_narrow (HrBoardPage *page)
{
  int min = 0;

  gtk_widget_measure (GTK_WIDGET (page), GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  if (min > 360)
    say_widest (GTK_WIDGET (page), 330, 0);
  g_assert_cmpint (min, <=, 360);
}

static void
test_narrow (void)
{
  Fixture f = { 0 };
  FaultServer *server = fault_server_new ();

  open_faulty (&f);
  assert_narrow (f.page);
  fake_ollama_load (f.fake, "llama3.2:3b", 4096);
  connect_timed (&f, fake_ollama_get_url (f.fake));
  assert_narrow (f.page);
  fault_server_set (server, "/api/version", FAULT_STALL_HEADERS, 0, NULL);
  hr_board_page_connect (f.page, fault_server_get_url (server));
  spin (50);
  assert_narrow (f.page);
  g_assert_true (iterate_until (page_settled, f.page, (TIMEOUT_S + 30) * 1000));
  assert_narrow (f.page);
  close_page (&f);
  fault_server_free (server);
}

int
main (int   argc,
      char *argv[])
{
  board_test_setup (&argc, &argv);

  g_test_add_func ("/board-faults/narrow", test_narrow);
  g_test_add_func ("/board-faults/server-gone", test_server_gone);
  g_test_add_func ("/board-faults/new-url", test_new_url);
  g_test_add_func ("/board-faults/impossible-numbers", test_impossible_numbers);
  g_test_add_func ("/board-faults/retry-after", test_retry_after);
  g_test_add_func ("/board-faults/escapes-and-huge", test_escapes_and_huge);
  g_test_add_func ("/board-faults/cross-origin-redirect", test_cross_origin_redirect);
  g_test_add_func ("/board-faults/userinfo", test_userinfo);
  g_test_add_func ("/board-faults/userinfo-retry", test_userinfo_retry);
  g_test_add_func ("/board-faults/ollama-host-userinfo", test_ollama_host_userinfo);
  g_test_add_func ("/board-faults/chat-streams", test_chat_streams);

  return board_test_run ();
}
