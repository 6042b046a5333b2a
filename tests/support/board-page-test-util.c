/* board-page-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Board page's window tests share (board-page-test-util.h).
 */

#include "config.h"

#include "board-page-test-util.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* The application of the run, made by board_test_run(). */
static HrApplication *test_app;
static char *test_home;   /* HOME and the XDG user directories of this run */

HrBoardConnection *
conn (HrBoardPage *page)
{
  return _hr_board_page_get_connection (page);
}

HrPullPanel *
pull (HrBoardPage *page)
{
  return _hr_board_page_get_pull_panel (page);
}

gboolean
page_is_drawn (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

gboolean
page_is_idle (gpointer data)
{
  return !hr_board_connection_get_busy (conn (data));
}

gboolean
session_loaded (gpointer data)
{
  return hr_session_get_loaded (data);
}

void
open_page (Fixture *f)
{
  AdwViewStack *stack;

  /* A page of the cases that share one is closed first. */
  gui_test_unshare ();
  /* Each test starts without a catalog or measurements of the user's. */
  {
    g_autofree char *user_dir = g_build_filename (g_get_user_data_dir (), "headroom", NULL);

    remove_tree (user_dir);
  }
  reset_settings (1100, 900);
  /* The pull checks' figures here are the seed's plain math. */
  use_seed_runtime ();
  f->fake = fake_ollama_new ();
  fake_ollama_add_llama32 (f->fake);

  g_application_activate (G_APPLICATION (test_app));
  f->window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
  g_assert_nonnull (f->window);
  g_object_ref (f->window);
  f->session = hr_application_get_session (test_app);
  f->scenario = hr_application_get_scenario (test_app);
  g_assert_true (iterate_until (session_loaded, f->session, 10000));
  /* The session outlives the windows: forget the measurements of an earlier test. */
  hr_session_reload_measurements (f->session);
  stack = hr_window_get_stack (f->window);
  adw_view_stack_set_visible_child_name (stack, "board");
  f->page = HR_BOARD_PAGE (hr_window_get_page (f->window, "board"));
  /* No token reaches a real keyring from a test. */
  hr_board_connection_set_use_keyring (conn (f->page), FALSE);
  g_assert_true (iterate_until (page_is_drawn, f->page, 5000));
}

/* A server without a remembered board asks which board it is
 * on; answer with the board the Models page shows, as before. */
gboolean
chooser_or_saved (gpointer data)
{
  Fixture *f = data;
  const char *url = hr_board_connection_get_url (conn (f->page));

  return _hr_board_page_get_board_chooser (f->page) != NULL ||
         hr_board_connection_get_state (conn (f->page)) != HR_BOARD_CONNECTION_CONNECTED ||
         hr_session_get_server_board (f->session, url) != NULL;
}

void
answer_board_chooser (Fixture *f)
{
  GtkWindow *chooser;

  g_assert_true (iterate_until (chooser_or_saved, f, 5000));
  chooser = _hr_board_page_get_board_chooser (f->page);
  if (chooser == NULL)
    return;
  hr_board_chooser_set_board_id (HR_BOARD_CHOOSER (chooser), hr_scenario_get_board (f->scenario)->id);
  /* As its button does: the response, then the dialog closes. */
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (chooser), "choose");
  gtk_window_close (chooser);
  spin (20);
}

void
connect_page (Fixture    *f,
              const char *url)
{
  hr_board_page_connect (f->page, url);
  g_assert_true (iterate_until (page_is_idle, f->page, 10000));
  answer_board_chooser (f);
}

gboolean
no_streams (gpointer data)
{
  return fake_ollama_active_streams (data) == 0;
}

void
close_page (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  spin (100);
  g_assert_finalize_object (f->window);
  /* Every stream the page started is closed. */
  g_assert_true (iterate_until (no_streams, f->fake, 5000));
  fake_ollama_free (f->fake);
}

/* Every widget of @type under @root. */
void
collect (GtkWidget *root,
         GType      type,
         GPtrArray *out)
{
  if (g_type_is_a (G_OBJECT_TYPE (root), type))
    g_ptr_array_add (out, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, type, out);
}

/* The row whose title is @title, under @root. */
AdwActionRow *
find_row (GtkWidget  *root,
          const char *title)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  collect (root, ADW_TYPE_ACTION_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (g_ptr_array_index (rows, i)), title) == 0)
      return g_ptr_array_index (rows, i);
  return NULL;
}

/* The message dialog presented last, if any. */
AdwMessageDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n = g_list_model_get_n_items (toplevels);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

gboolean
dialog_shown (gpointer data)
{
  return find_dialog () != NULL;
}

void
set_entry (HrBoardPage *page,
           const char  *title,
           const char  *text)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  collect (GTK_WIDGET (page), ADW_TYPE_ENTRY_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    {
      AdwPreferencesRow *row = g_ptr_array_index (rows, i);

      if (g_str_has_prefix (adw_preferences_row_get_title (row), title))
        {
          gtk_editable_set_text (GTK_EDITABLE (row), text);
          return;
        }
    }
  g_assert_not_reached ();
}

void
set_spin (HrBoardPage *page,
          const char  *row_title,
          double       value)
{
  AdwActionRow *row = find_row (GTK_WIDGET (page), row_title);
  g_autoptr(GPtrArray) spins = g_ptr_array_new ();

  g_assert_nonnull (row);
  collect (GTK_WIDGET (row), GTK_TYPE_SPIN_BUTTON, spins);
  g_assert_cmpuint (spins->len, ==, 1);
  gtk_spin_button_set_value (g_ptr_array_index (spins, 0), value);
}

const char *
last_message (HrWindow *window)
{
  GPtrArray *messages = hr_window_get_messages (window);

  return messages->len > 0 ? g_ptr_array_index (messages, messages->len - 1) : NULL;
}

/* Every label's text under @root, in order. */
GPtrArray *
label_texts (GtkWidget *root)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  GPtrArray *texts = g_ptr_array_new ();

  collect (root, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    g_ptr_array_add (texts, (gpointer) gtk_label_get_text (g_ptr_array_index (labels, i)));
  return texts;
}

gboolean
has_label (GtkWidget  *root,
           const char *text)
{
  g_autoptr(GPtrArray) texts = label_texts (root);

  for (guint i = 0; i < texts->len; i++)
    if (g_strcmp0 (g_ptr_array_index (texts, i), text) == 0)
      return TRUE;
  return FALSE;
}

/* In place of g_test_init(): the environment a Board page test wants,
 * then gui_test_init()'s user folders, HOME too, in the environment's
 * locale, with the build's translations for a German screenshot
 * (LANGUAGE=de). open_page() empties the user's Headroom data per test. */
void
board_test_setup (int    *argc,
                  char ***argv)
{
  g_setenv ("GTK_A11Y", "test", TRUE);
  /* Software GL under Xvfb stalls the main loop compiling shaders. */
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_unsetenv ("OLLAMA_HOST");
  test_home = gui_test_init (argc, argv,
                             GUI_TEST_TRANSLATED | GUI_TEST_HOME | GUI_TEST_ENVIRONMENT_LOCALE);
}

/* After the tests are added: runs them in the real application, then
 * removes the temporary home. */
int
board_test_run (void)
{
  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &test_home);
}
