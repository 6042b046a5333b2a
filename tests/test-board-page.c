/* test-board-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's Board page under Xvfb, opened from the real HrApplication,
 * against the in-process fake Ollama (tests/fake-ollama.h): connect (the
 * typed address normalised, the server saved), the models and what is
 * loaded with the figures `ollama ps` prints, measuring one model (the
 * table, the chart, /api/ps beside the prediction, the archive and the
 * scenario's measured rate), a pull with one overall bar that only moves forward
 * and ends at 1, the model then in the catalog with the figures of
 * /api/show, a cancelled pull, a refused pull with both reasons and no
 * request sent, a mid-stream pull error with Ollama's text and what to do,
 * "Try it" with its history, and a server that is not there.
 *
 * With HEADROOM_BOARD_SCREENSHOT=DIR set, /board-page/screenshot saves the
 * connected page as DIR/board-light.png, DIR/board-dark.png and, 360 px
 * wide, DIR/board-narrow.png (run with LANGUAGE=de for German).
 */

#include "config.h"

#include <glib/gi18n.h>

#include "board-page-test-util.h"
#include "hr-catalog.h"
#include "hr-measure-window.h"
#include "hr-pull-progress.h"

/* ------------------------------------------------------------------ */
/* Connect, list, ps                                                   */

/* The connect story: the fake with llama3.2:3b loaded at 4,096 tokens,
 * its address typed as people do, without the scheme; then unloaded. */
static Fixture connected;

static void
connected_open (gpointer data)
{
  Fixture *f = data;
  g_autofree char *typed = NULL;

  open_page (f);
  fake_ollama_load (f->fake, "llama3.2:3b", 4096);
  typed = g_strdup (fake_ollama_get_url (f->fake) + strlen ("http://"));
  connect_page (f, typed);
}

static void
connected_close (void)
{
  close_page (&connected);
}

/* The typed address shown normalised; the version, the URL and the board
 * the server was saved with. */
static void
test_connect_server (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *subtitle = g_strdup_printf ("Ollama 0.31.2 at %s, on Jetson Orin Nano Super",
                                               fake_ollama_get_url (f->fake));

  g_assert_cmpstr (hr_board_connection_get_version (conn (f->page)), ==, "0.31.2");
  g_assert_null (hr_board_connection_get_error (conn (f->page)));
  g_assert_cmpstr (hr_ollama_client_get_base_url (hr_board_connection_get_client (conn (f->page))), ==,
                   fake_ollama_get_url (f->fake));
  g_assert_nonnull (find_row (GTK_WIDGET (f->page), "Server"));
  g_assert_cmpstr (adw_action_row_get_subtitle (find_row (GTK_WIDGET (f->page), "Server")), ==, subtitle);
}

/* The models on the board, as /api/tags lists them. */
static void
test_connect_models (Fixture       *f,
                     gconstpointer  data)
{
  const HrOllamaModel *model;
  AdwActionRow *row = find_row (GTK_WIDGET (f->page), "llama3.2:3b");

  g_assert_cmpuint (hr_board_connection_get_models (conn (f->page))->len, ==, 1);
  model = g_ptr_array_index (hr_board_connection_get_models (conn (f->page)), 0);
  g_assert_cmpstr (model->name, ==, "llama3.2:3b");
  g_assert_cmpuint (model->size, ==, 2019393189);
  g_assert_nonnull (row);
  g_assert_true (g_str_has_prefix (adw_action_row_get_subtitle (row),
                                   "2.0 GB · 3.20 B parameters · Q4_K_M · llama · modified "));
}

/* What is loaded, the way `ollama ps` prints it: 2,019,377,376 +
 * 114,688 x 4,096 + 100,000,000 = 2,589,139,424 bytes, all on the GPU. */
static void
test_connect_loaded (Fixture       *f,
                     gconstpointer  data)
{
  const HrOllamaLoaded *loaded;
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  gboolean seen = FALSE;

  g_assert_cmpuint (hr_board_connection_get_loaded (conn (f->page))->len, ==, 1);
  loaded = g_ptr_array_index (hr_board_connection_get_loaded (conn (f->page)), 0);
  g_assert_cmpuint (loaded->size, ==, 2589139424);
  g_assert_cmpuint (loaded->size_vram, ==, 2589139424);
  collect (GTK_WIDGET (f->page), ADW_TYPE_ACTION_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    seen |= g_strcmp0 (adw_action_row_get_subtitle (g_ptr_array_index (rows, i)),
                       "2.6 GB, 2.6 GB on the GPU (100% GPU) · context 4,096 tokens · until: 4 minutes from now") == 0;
  g_assert_true (seen);
}

/* The server is saved, URL only, and is the last one. */
static void
test_connect_saved (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GVariant) saved = g_settings_get_value (settings, "ollama-boards");
  g_autofree char *last = g_settings_get_string (settings, "last-ollama-board");
  const char *id, *url;

  g_assert_cmpuint (g_variant_n_children (saved), ==, 1);
  g_variant_get_child (saved, 0, "(&s&s)", &id, &url);
  g_assert_cmpstr (url, ==, fake_ollama_get_url (f->fake));
  g_assert_cmpstr (id, ==, hr_scenario_get_board (f->scenario)->id);
  g_assert_cmpstr (last, ==, fake_ollama_get_url (f->fake));
}

/* Unload from the page: /api/ps is then empty and the list says so. */
static void
test_connect_unload (Fixture       *f,
                     gconstpointer  data)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "board.unload", "s", "llama3.2:3b"));
  g_assert_true (iterate_until (page_is_idle, f->page, 5000));
  g_assert_cmpstr (last_message (f->window), ==, "Unloaded llama3.2:3b");
  g_assert_false (fake_ollama_is_loaded (f->fake, "llama3.2:3b"));
  g_assert_cmpuint (hr_board_connection_get_loaded (conn (f->page))->len, ==, 0);
  g_assert_nonnull (find_row (GTK_WIDGET (f->page), "Nothing is loaded"));
}

static const GuiTestStep connected_steps[] = {
  { "/board-page/connect/server", (GTestFixtureFunc) test_connect_server },
  { "/board-page/connect/models", (GTestFixtureFunc) test_connect_models },
  { "/board-page/connect/loaded", (GTestFixtureFunc) test_connect_loaded },
  { "/board-page/connect/saved", (GTestFixtureFunc) test_connect_saved },
  { "/board-page/connect/unload", (GTestFixtureFunc) test_connect_unload },
};

static GuiTestStory connected_story = {
  "connect", connected_open, connected_close, connected_steps, G_N_ELEMENTS (connected_steps),
  &connected, sizeof (Fixture), 0
};

/* The visible message dialog headed @heading (the page's tests leave
 * answered dialogs to the window, as find_dialog() does). */
static AdwMessageDialog *
dialog_headed (const char *heading)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)) &&
          g_strcmp0 (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (window)), heading) == 0)
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

/* Connected, the header's button disconnects, in the plain style; then
 * Connect is the suggested action again, and the lists are gone. */
static void
test_board_page_disconnect (void)
{
  Fixture f = { 0 };
  GtkWidget *button;

  open_page (&f);
  fake_ollama_load (f.fake, "llama3.2:3b", 4096);
  button = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (f.page), HR_TYPE_BOARD_PAGE, "connect_button"));
  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "_Connect");
  g_assert_true (gtk_widget_has_css_class (button, "suggested-action"));

  connect_page (&f, fake_ollama_get_url (f.fake));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "_Disconnect");
  g_assert_false (gtk_widget_has_css_class (button, "suggested-action"));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "board.disconnect");

  g_assert_true (gtk_widget_activate (button));
  spin (500);
  g_assert_cmpint (hr_board_connection_get_state (conn (f.page)), ==, HR_BOARD_CONNECTION_DISCONNECTED);
  g_assert_cmpuint (hr_board_connection_get_models (conn (f.page))->len, ==, 0);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "_Connect");
  g_assert_true (gtk_widget_has_css_class (button, "suggested-action"));
  g_assert_cmpstr (adw_action_row_get_subtitle (find_row (GTK_WIDGET (f.page), "Server")), ==, "Not connected");
  g_assert_null (find_row (GTK_WIDGET (f.page), "llama3.2:3b"));
  close_page (&f);
}

static void
test_board_page_actions (void)
{
  Fixture f = { 0 };
  AdwMessageDialog *dialog;

  open_page (&f);
  connect_page (&f, fake_ollama_get_url (f.fake));

  /* Add to Catalog: the figures of /api/show. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.add-to-catalog", "s", "llama3.2:3b"));
  g_assert_true (iterate_until (page_is_idle, f.page, 5000));
  g_assert_true (g_str_has_prefix (last_message (f.window), "Added llama3.2:3b to the catalog: 3.21 B parameters, "));
  g_assert_cmpuint (hr_session_find_model (f.session, "llama3.2:3b")->parameters, ==, 3212749888);

  /* Delete asks first; Cancel sends nothing. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.delete", "s", "llama3.2:3b"));
  g_assert_true (iterate_until (dialog_shown, NULL, 2000));
  dialog = find_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Delete llama3.2:3b?");
  /* What it frees: its size in /api/tags, 2,019,393,189 bytes; alone on
   * the board, so no file of it is shared. */
  g_assert_true (g_str_has_prefix (adw_message_dialog_get_body (dialog),
                                   "Deleting llama3.2:3b frees 2.0 GB on the board. This removes the model's files"));
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "delete"), ==, ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_response (dialog, "cancel");
  spin (50);
  g_assert_cmpuint (fake_ollama_count (f.fake, "/api/delete"), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.delete", "s", "llama3.2:3b"));
  g_assert_true (iterate_until (dialog_shown, NULL, 2000));
  adw_message_dialog_response (find_dialog (), "delete");
  spin (50);
  g_assert_true (iterate_until (page_is_idle, f.page, 5000));
  g_assert_cmpuint (fake_ollama_count (f.fake, "/api/delete"), ==, 1);
  g_assert_cmpstr (last_message (f.window), ==, "Deleted llama3.2:3b from the board");
  g_assert_cmpuint (hr_board_connection_get_models (conn (f.page))->len, ==, 0);
  g_assert_nonnull (find_row (GTK_WIDGET (f.page), "No models on this board"));

  /* Deleting it again: the server's 404, in words. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.delete", "s", "llama3.2:3b"));
  g_assert_true (iterate_until (dialog_shown, NULL, 2000));
  adw_message_dialog_response (find_dialog (), "delete");
  spin (50);
  g_assert_true (iterate_until (page_is_idle, f.page, 5000));
  g_assert_true (g_str_has_prefix (last_message (f.window), "Could not delete llama3.2:3b: "));

  close_page (&f);
}

/* Copy: a name of its own, the exact body sent, a name the board has
 * refused before anything is sent; and the copy, sharing every file,
 * frees almost nothing when deleted. */
static void
test_board_page_copy (void)
{
  Fixture f = { 0 };
  AdwMessageDialog *dialog;

  open_page (&f);
  connect_page (&f, fake_ollama_get_url (f.fake));

  /* Copy: a name of its own; one the board has is refused before
   * anything is sent, and the copy is then listed. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.copy", "s", "llama3.2:3b"));
  g_assert_true (iterate_until (dialog_shown, NULL, 2000));
  dialog = find_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Copy llama3.2:3b");
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog)), "llama3.2:3b");
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, "The board already has a model of that name: choose another.");
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "copy"));
  gtk_editable_set_text (GTK_EDITABLE (adw_message_dialog_get_extra_child (dialog)), "llama3.2:mine");
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "copy"));
  adw_message_dialog_response (dialog, "copy");
  spin (50);
  g_assert_true (iterate_until (page_is_idle, f.page, 5000));
  {
    g_autofree char *body = json_to_string (fake_ollama_last_body (f.fake, "/api/copy"), FALSE);

    g_assert_cmpstr (body, ==, "{\"source\":\"llama3.2:3b\",\"destination\":\"llama3.2:mine\"}");
  }
  g_assert_cmpstr (last_message (f.window), ==, "Copied to llama3.2:mine");
  g_assert_cmpuint (hr_board_connection_get_models (conn (f.page))->len, ==, 2);
  /* The copy shares every file: deleting it frees almost nothing. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.delete", "s", "llama3.2:mine"));
  g_assert_true (iterate_until (dialog_shown, NULL, 2000));
  dialog = dialog_headed ("Delete llama3.2:mine?");
  g_assert_nonnull (dialog);
  g_assert_true (g_str_has_prefix (adw_message_dialog_get_body (dialog), "Deleting llama3.2:mine frees almost nothing"));
  adw_message_dialog_response (dialog, "delete");
  spin (50);
  g_assert_true (iterate_until (page_is_idle, f.page, 5000));
  g_assert_cmpuint (hr_board_connection_get_models (conn (f.page))->len, ==, 1);

  close_page (&f);
}

static gboolean
tags_counted (gpointer data)
{
  Fixture *f = data;

  return fake_ollama_count (f->fake, "/api/tags") >= f->expected;
}

/* The lists refresh every HR_BOARD_PAGE_REFRESH_SECONDS while the page is
 * shown, not while another page is; a failed refresh says why, and what
 * was listed goes (it may no longer be so) until Retry connects again. */
/* The refresh story: the page connected, its timer, hidden, shown again
 * while the server fails, then refreshed once it is well. */
typedef struct {
  Fixture f;
  guint   tags;   /* /api/tags asked once connected */
} Refresh;

static Refresh refresh;

static void
refresh_open (gpointer data)
{
  Refresh *r = data;

  open_page (&r->f);
  connect_page (&r->f, fake_ollama_get_url (r->f.fake));
  r->tags = fake_ollama_count (r->f.fake, "/api/tags");
}

static void
refresh_close (void)
{
  close_page (&refresh.f);
}

/* Shown: the timer asks again (allow for a slow, sanitized build). */
static void
test_refresh_timer (Refresh       *r,
                    gconstpointer  data)
{
  g_assert_cmpuint (r->tags, ==, 1);
  r->f.expected = r->tags + 1;
  g_assert_true (iterate_until (tags_counted, &r->f, HR_BOARD_PAGE_REFRESH_SECONDS * 1000 + 10000));
  g_assert_true (iterate_until (page_is_idle, r->f.page, 5000));
  g_assert_cmpuint (fake_ollama_count (r->f.fake, "/api/ps"), ==, r->tags + 1);
}

/* Hidden: it does not. */
static void
test_refresh_hidden (Refresh       *r,
                     gconstpointer  data)
{
  adw_view_stack_set_visible_child_name (hr_window_get_stack (r->f.window), "models");
  spin (HR_BOARD_PAGE_REFRESH_SECONDS * 1000 + 1500);
  g_assert_cmpuint (fake_ollama_count (r->f.fake, "/api/tags"), ==, r->tags + 1);
}

/* Shown again: refreshed at once; the server's failure said, the lists
 * emptied. */
static void
test_refresh_shown_again (Refresh       *r,
                          gconstpointer  data)
{
  HrBoardConnection *c = conn (r->f.page);

  fake_ollama_set_fault (r->f.fake, "/api/tags", FAKE_FAULT_500, "something broke");
  adw_view_stack_set_visible_child_name (hr_window_get_stack (r->f.window), "board");
  g_assert_true (iterate_until (page_is_drawn, r->f.page, 2000));
  g_assert_true (iterate_until (page_is_idle, r->f.page, 5000));
  g_assert_cmpuint (fake_ollama_count (r->f.fake, "/api/tags"), ==, r->tags + 2);
  g_assert_nonnull (hr_board_connection_get_error (c));
  g_assert_true (g_str_has_prefix (hr_board_connection_get_error (c), "Could not list the models on the board: "));
  g_assert_nonnull (strstr (hr_board_connection_get_error (c), "something broke"));
  g_assert_cmpuint (hr_board_connection_get_models (c)->len, ==, 0);
  g_assert_null (hr_board_connection_get_version (c));
  g_assert_null (find_row (GTK_WIDGET (r->f.page), "llama3.2:3b"));
}

/* Ctrl+R (and F5) is the page's board.refresh. */
static void
test_refresh_shortcut (Refresh       *r,
                       gconstpointer  data)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (r->f.page));
  gboolean bound = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));
          g_autofree char *action = gtk_shortcut_action_to_string (gtk_shortcut_get_action (shortcut));

          bound |= g_str_equal (trigger, "<Control>r") && g_str_equal (action, "action(board.refresh)");
        }
    }
  g_assert_true (bound);
}

/* Retry once the server is well: connected again, the lists back. */
static void
test_refresh_retry (Refresh       *r,
                    gconstpointer  data)
{
  fake_ollama_set_fault (r->f.fake, "/api/tags", FAKE_FAULT_NONE, NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (r->f.page), "board.refresh", NULL));
  g_assert_true (iterate_until (page_is_idle, r->f.page, 5000));
  g_assert_null (hr_board_connection_get_error (conn (r->f.page)));
  g_assert_cmpuint (hr_board_connection_get_models (conn (r->f.page))->len, ==, 1);
  g_assert_nonnull (find_row (GTK_WIDGET (r->f.page), "llama3.2:3b"));
}

static const GuiTestStep refresh_steps[] = {
  { "/board-page/refresh/timer", (GTestFixtureFunc) test_refresh_timer },
  { "/board-page/refresh/hidden", (GTestFixtureFunc) test_refresh_hidden },
  { "/board-page/refresh/shown-again", (GTestFixtureFunc) test_refresh_shown_again },
  { "/board-page/refresh/shortcut", (GTestFixtureFunc) test_refresh_shortcut },
  { "/board-page/refresh/retry", (GTestFixtureFunc) test_refresh_retry },
};

static GuiTestStory refresh_story = {
  "refresh", refresh_open, refresh_close, refresh_steps, G_N_ELEMENTS (refresh_steps),
  &refresh, sizeof (Refresh), 0
};

/* OLLAMA_HOST is the default and the page connects to it when shown;
 * servers connected to are saved and switched between with the dropdown. */
static void
test_board_page_saved_servers (void)
{
  Fixture f = { 0 };
  FakeOllama *other = fake_ollama_new ();
  g_autofree char *host = NULL;
  AdwComboRow *saved = NULL;
  g_autoptr(GPtrArray) combos = g_ptr_array_new ();
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GVariant) boards = NULL;
  g_autofree char *first_board = NULL;

  fake_ollama_set_version (other, "0.12.6");
  /* As people write it: no scheme. */
  host = g_strdup (fake_ollama_get_url (other) + strlen ("http://"));
  g_setenv ("OLLAMA_HOST", host, TRUE);
  open_page (&f);
  g_assert_true (iterate_until (page_is_idle, f.page, 10000));
  answer_board_chooser (&f);
  g_unsetenv ("OLLAMA_HOST");
  g_assert_cmpstr (hr_board_connection_get_version (conn (f.page)), ==, "0.12.6");
  g_assert_cmpstr (hr_ollama_client_get_base_url (hr_board_connection_get_client (conn (f.page))), ==, fake_ollama_get_url (other));

  /* The second server belongs to another board. */
  first_board = g_strdup (hr_scenario_get_board_id (f.scenario));
  {
    GPtrArray *hardware = hr_session_get_boards (f.session);
    const char *other_board = ((HrBoard *) g_ptr_array_index (hardware, 1))->id;

    g_assert_cmpuint (hardware->len, >, 1);
    g_assert_cmpstr (first_board, !=, other_board);
    hr_scenario_set_board_id (f.scenario, other_board);
    g_assert_cmpstr (hr_scenario_get_board (f.scenario)->id, ==, other_board);
  }
  connect_page (&f, fake_ollama_get_url (f.fake));
  g_assert_cmpstr (hr_board_connection_get_version (conn (f.page)), ==, "0.31.2");
  boards = g_settings_get_value (settings, "ollama-boards");
  g_assert_cmpuint (g_variant_n_children (boards), ==, 2);

  collect (GTK_WIDGET (f.page), ADW_TYPE_COMBO_ROW, combos);
  for (guint i = 0; i < combos->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (g_ptr_array_index (combos, i)), "_Saved Servers") == 0)
      saved = g_ptr_array_index (combos, i);
  g_assert_nonnull (saved);
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (saved)), ==, 2);
  g_assert_cmpuint (adw_combo_row_get_selected (saved), ==, 1);

  /* Switch back to the first server: its board comes back with it. */
  adw_combo_row_set_selected (saved, 0);
  g_assert_true (iterate_until (page_is_idle, f.page, 10000));
  g_assert_cmpstr (hr_board_connection_get_version (conn (f.page)), ==, "0.12.6");
  g_assert_cmpstr (hr_scenario_get_board_id (f.scenario), ==, first_board);
  {
    g_autofree char *last = g_settings_get_string (settings, "last-ollama-board");
    g_assert_cmpstr (last, ==, fake_ollama_get_url (other));
  }

  close_page (&f);
  fake_ollama_free (other);
}

/* A reverse proxy that wants a bearer token: the page says so, sends the
 * token once typed, and keeps it out of the settings. */
static void
test_board_page_token (void)
{
  Fixture f = { 0 };
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  open_page (&f);
  fake_ollama_set_token (f.fake, "s3cret-token");
  connect_page (&f, fake_ollama_get_url (f.fake));
  g_assert_null (hr_board_connection_get_version (conn (f.page)));
  g_assert_nonnull (hr_board_connection_get_error (conn (f.page)));
  g_assert_nonnull (strstr (hr_board_connection_get_error (conn (f.page)), "token"));
  g_assert_cmpstr (_hr_board_page_get_token_note (f.page), ==, "");

  set_entry (f.page, "_Token", "s3cret-token");
  connect_page (&f, fake_ollama_get_url (f.fake));
  g_assert_cmpstr (hr_board_connection_get_version (conn (f.page)), ==, "0.31.2");
  g_assert_cmpstr (fake_ollama_last_authorization (f.fake), ==, "Bearer s3cret-token");
  g_assert_cmpstr (_hr_board_page_get_token_note (f.page), ==,
                   "The keyring is not available: the token is kept in memory until Headroom closes, and asked for again next time.");

  /* Cleared from the row, the session still has it. */
  set_entry (f.page, "_Token", "");
  connect_page (&f, fake_ollama_get_url (f.fake));
  g_assert_cmpstr (hr_board_connection_get_version (conn (f.page)), ==, "0.31.2");

  /* Never in the settings. */
  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (settings, keys[i]);
      g_autofree char *text = g_variant_print (value, FALSE);

      g_assert_null (strstr (text, "s3cret"));
    }

  close_page (&f);
}

static void
test_board_page_refused_connection (void)
{
  Fixture f = { 0 };
  g_autofree char *url = fake_ollama_refused_url ();
  g_autofree char *expected = NULL;
  GtkWidget *status_page;
  g_autoptr(GPtrArray) pages = g_ptr_array_new ();

  open_page (&f);
  connect_page (&f, url);

  expected = g_strdup_printf ("nothing is listening at %s; is `ollama serve` running, and bound to an address this machine can reach?",
                              url);
  g_assert_null (hr_board_connection_get_version (conn (f.page)));
  g_assert_cmpstr (hr_board_connection_get_error (conn (f.page)), ==, expected);
  collect (GTK_WIDGET (f.page), ADW_TYPE_STATUS_PAGE, pages);
  g_assert_cmpuint (pages->len, ==, 1);
  status_page = g_ptr_array_index (pages, 0);
  g_assert_true (gtk_widget_is_drawable (status_page));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status_page)), ==, "Could Not Connect");
  g_assert_cmpstr (adw_status_page_get_description (ADW_STATUS_PAGE (status_page)), ==, expected);
  /* Nothing to act on without a server. */
  gtk_widget_activate_action (GTK_WIDGET (f.page), "board.measure", "s", "llama3.2:3b");
  g_assert_null (_hr_board_page_get_measure_window (f.page));

  close_page (&f);
}

/* ------------------------------------------------------------------ */
/* Measure                                                             */

static gboolean
measure_done (gpointer data)
{
  return !hr_measure_window_is_running (data);
}

/* The measuring story: llama3.2:3b measured on the fake, whose stream
 * takes 30 ms to the first token warm, 80 ms more cold, 2 ms between
 * tokens; prefill 14 tokens in 20 ms, decode 5 tokens in 250 ms: 700 and
 * 20 t/s. */
typedef struct {
  Fixture          f;
  HrMeasureWindow *window;
} Measure;

static Measure measure;

static void
measure_open (gpointer data)
{
  Measure *m = data;

  open_page (&m->f);
  fake_ollama_set_stream_timing (m->f.fake, 30, 2, 80, FALSE);
  fake_ollama_set_final_timing (m->f.fake, 80000000, 14, 20000000, 5, 250000000);
  connect_page (&m->f, fake_ollama_get_url (m->f.fake));
}

static void
measure_close (void)
{
  if (_hr_board_page_get_measure_window (measure.f.page) != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (measure.window));
      spin (50);
    }
  close_page (&measure.f);
}

/* The table's row @i, split into its cells (freed by the caller). */
static GStrv
measure_row (Measure *m,
             guint    i)
{
  return g_strsplit (g_ptr_array_index (hr_measure_window_get_rows (m->window), i), "\t", -1);
}

/* The board's action opens the measuring window, the model not loaded. */
static void
test_measure_opens (Measure       *m,
                    gconstpointer  data)
{
  g_assert_false (fake_ollama_is_loaded (m->f.fake, "llama3.2:3b"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (m->f.page), "board.measure", "s", "llama3.2:3b"));
  m->window = HR_MEASURE_WINDOW (_hr_board_page_get_measure_window (m->f.page));
  g_assert_nonnull (m->window);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (m->window)), ==, "Measure llama3.2:3b");
}

static void
test_measure_done (Measure       *m,
                   gconstpointer  data)
{
  g_assert_true (hr_measure_window_start (m->window));
  g_assert_true (iterate_until (measure_done, m->window, 20000));
  g_assert_cmpstr (hr_measure_window_get_status (m->window), !=, NULL);
  g_assert_true (g_str_has_prefix (hr_measure_window_get_status (m->window),
                                   "Done: decode 20.0 t/s on average over the warm runs. Saved to "));
}

/* The table: 2 contexts x 3 runs, the first of each cold. */
static void
test_measure_table (Measure       *m,
                    gconstpointer  data)
{
  g_auto(GStrv) cells = measure_row (m, 0);
  g_auto(GStrv) warm = measure_row (m, 4);

  g_assert_cmpuint (hr_measure_window_get_rows (m->window)->len, ==, 6);
  g_assert_cmpuint (g_strv_length (cells), ==, 8);
  g_assert_cmpstr (cells[0], ==, "2,048");
  g_assert_cmpstr (cells[1], ==, "1");
  g_assert_cmpstr (cells[2], ==, "cold");
  g_assert_cmpstr (cells[5], ==, "80.0");
  g_assert_cmpstr (cells[6], ==, "700.0");
  g_assert_cmpstr (cells[7], ==, "20.0");
  g_assert_cmpstr (warm[0], ==, "4,096");
  g_assert_cmpstr (warm[1], ==, "2");
  g_assert_cmpstr (warm[2], ==, "warm");
}

/* TTFT as the client timed it: at least the fake's 30 ms warm and 110 ms
 * cold. (Its precision is test-ollama-client's and test-measure's
 * business: here the window draws on the same thread.) */
static void
test_measure_ttft (Measure       *m,
                   gconstpointer  data)
{
  GArray *results = hr_measure_run_get_results (hr_measure_window_get_run (m->window));
  const HrMeasureResult *cold = &g_array_index (results, HrMeasureResult, 0);
  const HrMeasureResult *warm = &g_array_index (results, HrMeasureResult, 1);

  g_assert_true (cold->cold);
  g_assert_false (warm->cold);
  g_assert_cmpfloat (cold->ttft_ms, >=, 110.0);
  g_assert_cmpfloat (warm->ttft_ms, >=, 30.0);
}

/* The chart has every run, and says so to a screen reader. */
static void
test_measure_chart (Measure       *m,
                    gconstpointer  data)
{
  HrRunChart *chart = hr_measure_window_get_chart (m->window);

  g_assert_cmpuint (hr_run_chart_get_n_runs (chart), ==, 6);
  g_assert_true (g_str_has_prefix (hr_run_chart_get_description (chart), "2048 #1 (cold): TTFT "));
  g_assert_nonnull (strstr (hr_run_chart_get_description (chart), "4096 #3 (warm): TTFT "));
}

/* /api/ps beside the prediction, per context. The fake loads
 * 2,019,377,376 + 114,688 x 2,048 + 100,000,000 = 2,354,265,824 bytes;
 * the runtime model predicts 2.41 GB. Both are shown to two decimals and
 * the difference is that of the figures shown: 2.35 - 2.41 = -0.06;
 * 2,019,377,376 + 114,688 x 4,096 + 100,000,000 = 2,589,139,424 bytes. */
static void
test_measure_ps (Measure       *m,
                 gconstpointer  data)
{
  GPtrArray *ps = hr_measure_window_get_ps_rows (m->window);

  g_assert_cmpuint (ps->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (ps, 0), ==,
                   "num_ctx 2,048: Loaded 2.35 GB, 2.35 GB on the GPU (100% GPU); predicted 2.41 GB "
                   "(runtime model, Ollama 0.30 and newer (llama-server buffers)); difference −0.06 GB (−2.4%)");
  g_assert_true (g_str_has_prefix (g_ptr_array_index (ps, 1),
                                   "num_ctx 4,096: Loaded 2.59 GB, 2.59 GB on the GPU (100% GPU); predicted 2.65 GB "));
  g_assert_nonnull (strstr (g_ptr_array_index (ps, 1), "; difference −0.06 GB ("));
}

/* Saved in the archive, and the Models page uses the measured rate. */
static void
test_measure_saved (Measure       *m,
                    gconstpointer  data)
{
  const char *path = hr_measure_run_get_saved_path (hr_measure_window_get_run (m->window));

  g_assert_nonnull (path);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpfloat_with_epsilon (hr_scenario_get_measured_tps (m->f.scenario, "llama3.2:3b"), 20.0, 1e-9);
}

/* The board is as it was found: not loaded. */
static void
test_measure_unloaded (Measure       *m,
                       gconstpointer  data)
{
  g_assert_false (fake_ollama_is_loaded (m->f.fake, "llama3.2:3b"));
}

static void
test_measure_window_goes (Measure       *m,
                          gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (m->window));
  spin (50);
  g_assert_null (_hr_board_page_get_measure_window (m->f.page));
}

static const GuiTestStep measure_steps[] = {
  { "/board-page/measure/opens", (GTestFixtureFunc) test_measure_opens },
  { "/board-page/measure/done", (GTestFixtureFunc) test_measure_done },
  { "/board-page/measure/table", (GTestFixtureFunc) test_measure_table },
  { "/board-page/measure/ttft", (GTestFixtureFunc) test_measure_ttft },
  { "/board-page/measure/chart", (GTestFixtureFunc) test_measure_chart },
  { "/board-page/measure/ps", (GTestFixtureFunc) test_measure_ps },
  { "/board-page/measure/saved", (GTestFixtureFunc) test_measure_saved },
  { "/board-page/measure/unloaded", (GTestFixtureFunc) test_measure_unloaded },
  { "/board-page/measure/window-goes", (GTestFixtureFunc) test_measure_window_goes },
};

static GuiTestStory measure_story = {
  "measure", measure_open, measure_close, measure_steps, G_N_ELEMENTS (measure_steps),
  &measure, sizeof (Measure), 0
};

static gboolean
first_run_done (gpointer data)
{
  return hr_measure_window_get_rows (data)->len >= 1;
}

static void
test_board_page_measure_cancel (void)
{
  Fixture f = { 0 };
  HrMeasureWindow *window;
  g_autofree char *archive = NULL;
  g_autoptr(GDir) dir = NULL;

  open_page (&f);
  fake_ollama_set_stream_timing (f.fake, 30, 20, 80, FALSE);
  connect_page (&f, fake_ollama_get_url (f.fake));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.measure", "s", "llama3.2:3b"));
  window = HR_MEASURE_WINDOW (_hr_board_page_get_measure_window (f.page));
  g_assert_true (hr_measure_window_start (window));
  g_assert_true (iterate_until (first_run_done, window, 10000));
  g_assert_true (fake_ollama_is_loaded (f.fake, "llama3.2:3b"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "measure.cancel", NULL));
  g_assert_true (iterate_until (measure_done, window, 10000));

  g_assert_cmpstr (hr_measure_window_get_status (window), ==,
                   "Cancelled. The board was left as it was found, and nothing was saved.");
  /* It was not loaded before, so it is not now; nothing reached the archive. */
  g_assert_false (fake_ollama_is_loaded (f.fake, "llama3.2:3b"));
  g_assert_null (hr_measure_run_get_saved_path (hr_measure_window_get_run (window)));
  archive = hr_session_dup_measurements_dir (f.session);
  dir = g_dir_open (archive, 0, NULL);
  g_assert_true (dir == NULL || g_dir_read_name (dir) == NULL);

  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  close_page (&f);
}

/* ------------------------------------------------------------------ */
/* Pull                                                                */

static void
on_fraction (GtkProgressBar *bar,
             GParamSpec     *pspec,
             GArray         *fractions)
{
  double value = gtk_progress_bar_get_fraction (bar);

  g_array_append_val (fractions, value);
}

static gboolean
pull_done (gpointer data)
{
  return !hr_pull_panel_is_pulling (pull (data)) && !hr_board_connection_get_busy (conn (data));
}

static const FakeLayer llama32_layers[] = {
  { "sha256:dde5aa3fc5ffc17176b5e8bdc82f587b24b2678c6c66101bf7da77af9f7ccdff", 2019377376, FALSE },
  { "sha256:966de95ca8a62200913e3f8bfbf84c8494536f1b94b49166851e76644e966396", 1429, TRUE },
  { "sha256:fcc5a6bec9daf9b561a68827b67ab6088e1dba9d1fa2a50d7bbcc8384e0a265d", 7711, FALSE },
};

/* The pull story: llama3.2:3b pulled from the fake's registry, 8 lines
 * per layer 15 ms apart (`completed` goes back halfway through the
 * first), then a refused pull, cancelled, then pulled anyway. */
typedef struct {
  Fixture  f;
  GArray  *fractions;   /* the bar's fractions during the first pull */
} Pull;

static Pull pulling;

static void
pull_open (gpointer data)
{
  Pull *p = data;

  open_page (&p->f);
  fake_ollama_add_registry_model (p->f.fake, "llama3.2:3b", llama32_layers, G_N_ELEMENTS (llama32_layers));
  fake_ollama_set_pull_steps (p->f.fake, 8, 15, TRUE);
  connect_page (&p->f, fake_ollama_get_url (p->f.fake));
  p->fractions = g_array_new (FALSE, FALSE, sizeof (double));
}

static void
pull_close (void)
{
  close_page (&pulling.f);
  g_clear_pointer (&pulling.fractions, g_array_unref);
}

/* llama3.2:3b fits the seed board and has a measured rate there: the
 * check passes, no dialog, the pull runs to its end. */
static void
test_pull_passes_check (Pull          *p,
                        gconstpointer  data)
{
  GtkProgressBar *bar = hr_pull_panel_get_bar (pull (p->f.page));
  gulong handler = g_signal_connect (bar, "notify::fraction", G_CALLBACK (on_fraction), p->fractions);

  set_entry (p->f.page, "_Model Name", "llama3.2:3b");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (p->f.page), "board.pull", NULL));
  g_assert_true (g_str_has_prefix (hr_pull_panel_get_check_text (pull (p->f.page)),
                                   "The pull check passes.\nllama3.2:3b needs "));
  g_assert_null (find_dialog ());
  g_assert_true (hr_pull_panel_is_pulling (pull (p->f.page)));
  g_assert_true (iterate_until (pull_done, p->f.page, 20000));
  g_signal_handler_disconnect (bar, handler);
}

/* One bar over every layer: never back, ending at 1. */
static void
test_pull_one_bar (Pull          *p,
                   gconstpointer  data)
{
  GArray *fractions = p->fractions;

  g_assert_cmpuint (fractions->len, >, 10);
  for (guint i = 1; i < fractions->len; i++)
    g_assert_cmpfloat (g_array_index (fractions, double, i), >=, g_array_index (fractions, double, i - 1));
  g_assert_cmpfloat (g_array_index (fractions, double, fractions->len - 1), ==, 1.0);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (hr_pull_panel_get_bar (pull (p->f.page))), ==, 1.0);
}

/* In the catalog with the figures of /api/show, saved, one pull sent. */
static void
test_pull_in_catalog (Pull          *p,
                      gconstpointer  data)
{
  const HrModelSpec *spec = hr_session_find_model (p->f.session, "llama3.2:3b");
  g_autofree char *user_catalog = g_build_filename (g_get_user_data_dir (), "headroom", "catalog.json", NULL);

  g_assert_true (g_str_has_prefix (hr_pull_panel_get_pull_note (pull (p->f.page)),
                                   "Pulled llama3.2:3b. Added llama3.2:3b to the catalog: 3.21 B parameters, "));
  g_assert_nonnull (spec);
  g_assert_cmpuint (spec->parameters, ==, 3212749888);
  g_assert_cmpuint (spec->layers, ==, 28);
  g_assert_cmpuint (spec->kv_heads, ==, 8);
  g_assert_nonnull (spec->tensors);
  g_assert_cmpuint (spec->file_bytes, ==, hr_model_spec_tensor_bytes (spec));
  g_assert_true (g_file_test (user_catalog, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (fake_ollama_count (p->f.fake, "/api/pull"), ==, 1);
}

/* A refused pull: over the budget and no measured rate, both at once,
 * with the numbers (the seed board's headroom is 6.1 GB: 40.0 - 6.1 =
 * 33.9 GB over); nothing is sent when the dialog is cancelled. */
static void
test_pull_refused (Pull          *p,
                   gconstpointer  data)
{
  AdwMessageDialog *dialog;

  set_entry (p->f.page, "_Model Name", "bigmodel:70b");
  set_spin (p->f.page, "Download Si_ze (GB)", 40.0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (p->f.page), "board.pull", NULL));
  g_assert_true (iterate_until (dialog_shown, NULL, 2000));
  dialog = find_dialog ();
  g_assert_cmpstr (hr_pull_panel_get_check_text (pull (p->f.page)), ==,
                   "The pull check refuses this pull:\n"
                   "• bigmodel:70b is over by 33.90 GB\n"
                   "• bigmodel:70b has no rate this board has measured\n"
                   "bigmodel:70b needs 40.0 GB on Jetson Orin Nano Super, whose budget is 5.1 GB and headroom 6.1 GB; "
                   "it decodes at 0.9 t/s (predicted) against a floor of 10.2 t/s.");
  g_assert_cmpstr (adw_message_dialog_get_body (dialog), ==, hr_pull_panel_get_check_text (pull (p->f.page)));
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Pull bigmodel:70b Anyway?");
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "pull"), ==, ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_response (dialog, "cancel");
  spin (50);
  g_assert_false (hr_pull_panel_is_pulling (pull (p->f.page)));
  g_assert_cmpuint (fake_ollama_count (p->f.fake, "/api/pull"), ==, 1);
}

/* "Pull anyway": sent; the registry does not know it: Ollama's text and
 * what to do. */
static void
test_pull_anyway (Pull          *p,
                  gconstpointer  data)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (p->f.page), "board.pull", NULL));
  g_assert_true (iterate_until (dialog_shown, NULL, 2000));
  adw_message_dialog_response (find_dialog (), "pull");
  g_assert_true (iterate_until (pull_done, p->f.page, 10000));
  g_assert_cmpuint (fake_ollama_count (p->f.fake, "/api/pull"), ==, 2);
  g_assert_cmpstr (hr_pull_panel_get_pull_note (pull (p->f.page)), ==,
                   "Ollama could not pull bigmodel:70b: pull model manifest: file does not exist; check the model name and its tag");
  g_assert_true (g_str_has_suffix (hr_pull_panel_get_check_text (pull (p->f.page)), "\nPulled anyway, as you asked."));
}

static const GuiTestStep pull_steps[] = {
  { "/board-page/pull/passes-check", (GTestFixtureFunc) test_pull_passes_check },
  { "/board-page/pull/one-bar", (GTestFixtureFunc) test_pull_one_bar },
  { "/board-page/pull/in-catalog", (GTestFixtureFunc) test_pull_in_catalog },
  { "/board-page/pull/refused", (GTestFixtureFunc) test_pull_refused },
  { "/board-page/pull/anyway", (GTestFixtureFunc) test_pull_anyway },
};

static GuiTestStory pull_story = {
  "pull", pull_open, pull_close, pull_steps, G_N_ELEMENTS (pull_steps), &pulling, sizeof (Pull), 0
};

/* On a board without measurements (the RTX 3060 12 GB) the pull
 * check allows a model on its kind's prior and says so once, with what to
 * do, as `headroom-cli check qwen2.5:0.5b --board rtx-3060-12gb` does. */
static void
test_board_page_pull_prior (void)
{
  Fixture f = { 0 };

  open_page (&f);
  connect_page (&f, fake_ollama_get_url (f.fake));
  hr_scenario_set_board_id (f.scenario, "rtx-3060-12gb");
  set_entry (f.page, "_Model Name", "qwen2.5:0.5b");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.pull", NULL));
  g_assert_null (find_dialog ());
  g_assert_cmpstr (hr_pull_panel_get_check_text (pull (f.page)), ==,
                   "The pull check passes.\n"
                   "qwen2.5:0.5b needs 0.58 GB on NVIDIA GeForce RTX 3060 12 GB, whose budget is 11.38 GB and headroom 11.88 GB; "
                   "it decodes at 603.0 t/s (predicted) against a floor of 10.2 t/s.\n"
                   "The rates on NVIDIA GeForce RTX 3060 12 GB are predicted, not measured: efficiency 0.67, the mean of published runs on discrete-nvidia "
                   "hardware (data/priors.json). Measure one model on it (Measure, under Models on the Board) and its rates rest on its own measurements.");
  g_assert_true (iterate_until (pull_done, f.page, 10000));

  /* The caption names the board the check uses */
  g_assert_cmpstr (adw_preferences_group_get_description (ADW_PREFERENCES_GROUP (find_descendant (GTK_WIDGET (pull (f.page)), ADW_TYPE_PREFERENCES_GROUP))), ==,
                   "Checked against NVIDIA GeForce RTX 3060 12 GB, the board chosen on the Models page (choosing a saved "
                   "server chooses the board it runs on), and the scenario set there, before anything is sent.");
  /* A model split between the GPU and host memory: both sides, which make its total */
  set_entry (f.page, "_Model Name", "qwen3:30b-a3b");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.pull", NULL));
  spin (100);
  g_assert_nonnull (strstr (hr_pull_panel_get_check_text (pull (f.page)),
                            "\nOn NVIDIA GeForce RTX 3060 12 GB, qwen3:30b-a3b needs 10.75 GB on the GPU and 8.78 GB in host "
                            "memory; the GPU's budget is 11.38 GB and headroom 11.88 GB; it decodes at 51.3 t/s (predicted) "
                            "against a floor of 10.2 t/s.\n"));
  hr_scenario_set_board_id (f.scenario, "jetson-orin-nano-super");
  close_page (&f);
}

static gboolean
pull_moving (gpointer data)
{
  return gtk_progress_bar_get_fraction (hr_pull_panel_get_bar (pull (data))) > 0.05;
}

static void
test_board_page_pull_cancel (void)
{
  Fixture f = { 0 };
  guint toasts;

  open_page (&f);
  fake_ollama_add_registry_model (f.fake, "llama3.2:3b", llama32_layers, G_N_ELEMENTS (llama32_layers));
  fake_ollama_set_pull_steps (f.fake, 200, 20, FALSE);
  connect_page (&f, fake_ollama_get_url (f.fake));
  toasts = hr_window_get_messages (f.window)->len;

  set_entry (f.page, "_Model Name", "llama3.2:3b");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.pull", NULL));
  g_assert_true (iterate_until (pull_moving, f.page, 10000));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.cancel-pull", NULL));
  g_assert_true (iterate_until (pull_done, f.page, 5000));

  /* Not an error: what happens next is said instead. */
  g_assert_cmpstr (hr_pull_panel_get_pull_note (pull (f.page)), ==,
                   "Pull of llama3.2:3b stopped. Pulling it again resumes from the partial files while the server keeps them (until `ollama serve` restarts).");
  g_assert_cmpuint (hr_window_get_messages (f.window)->len, ==, toasts);
  g_assert_null (hr_board_connection_get_error (conn (f.page)));
  g_assert_true (iterate_until (no_streams, f.fake, 5000));

  close_page (&f);
}

/* ------------------------------------------------------------------ */
/* Try it                                                              */

static gboolean
chat_done (gpointer data)
{
  return !hr_chat_panel_is_chatting (_hr_board_page_get_chat_panel (data));
}

/* The transcript's turn @i: who spoke, what was said, and (a reply) its rates. */
static void
assert_turn (HrChatPanel *panel,
             guint        i,
             const char  *who,
             const char  *text,
             const char  *rates_prefix)
{
  GtkWidget *turn = gtk_widget_get_first_child (hr_chat_panel_get_transcript (panel));
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  for (guint k = 0; k < i && turn != NULL; k++)
    turn = gtk_widget_get_next_sibling (turn);
  g_assert_nonnull (turn);
  collect (turn, GTK_TYPE_LABEL, labels);
  g_assert_cmpuint (labels->len, ==, rates_prefix != NULL ? 3 : 2);
  g_assert_cmpstr (gtk_label_get_text (g_ptr_array_index (labels, 0)), ==, who);
  if (text != NULL)
    g_assert_cmpstr (gtk_label_get_text (g_ptr_array_index (labels, 1)), ==, text);
  g_assert_true (gtk_label_get_selectable (g_ptr_array_index (labels, 1)));
  if (rates_prefix != NULL)
    g_assert_true (g_str_has_prefix (gtk_label_get_text (g_ptr_array_index (labels, 2)), rates_prefix));
}

static guint
n_turns_shown (HrChatPanel *panel)
{
  guint n = 0;

  for (GtkWidget *turn = gtk_widget_get_first_child (hr_chat_panel_get_transcript (panel));
       turn != NULL;
       turn = gtk_widget_get_next_sibling (turn))
    n++;
  return n;
}

/* The "Try it" story: one page connected to the fake, whose replies take
 * 14 prompt tokens in 20 ms and 5 tokens in 250 ms; a chat of four
 * messages, one of them stopped, then a new conversation. */
static Fixture chat;

static void
chat_open (gpointer data)
{
  Fixture *f = data;

  open_page (f);
  fake_ollama_set_final_timing (f->fake, 0, 14, 20000000, 5, 250000000);
  connect_page (f, fake_ollama_get_url (f->fake));
}

static void
chat_close (void)
{
  close_page (&chat);
}

/* Sends @message as a person does, and waits for the reply. */
static void
send_message (Fixture    *f,
              const char *message)
{
  set_entry (f->page, "Messa_ge", message);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "board.send", NULL));
  g_assert_true (iterate_until (chat_done, f->page, 5000));
}

/* The messages of the last /api/chat request. */
static JsonArray *
last_chat_messages (Fixture *f)
{
  JsonNode *body = fake_ollama_last_body (f->fake, "/api/chat");

  return json_object_get_array_member (json_node_get_object (body), "messages");
}

/* Whether a label under @root starts with @prefix. */
static gboolean
has_label_prefix (GtkWidget  *root,
                  const char *prefix)
{
  g_autoptr(GPtrArray) texts = label_texts (root);

  for (guint i = 0; i < texts->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (texts, i), prefix))
      return TRUE;
  return FALSE;
}

#define CHAT_RATES "Prefill 700.0 t/s · decode 20.0 t/s · TTFT "

/* The first message asks the model with the system prompt, temperature
 * and seed set. */
static void
test_try_it_request (Fixture       *f,
                     gconstpointer  data)
{
  JsonObject *request, *options;
  JsonArray *messages;

  set_entry (f->page, "S_ystem Prompt", "Answer in one sentence.");
  set_spin (f->page, "T_emperature", 0.0);
  set_spin (f->page, "See_d", 7);
  send_message (f, "What does the scheduler do?");
  request = json_node_get_object (fake_ollama_last_body (f->fake, "/api/chat"));
  options = json_object_get_object_member (request, "options");
  g_assert_cmpstr (json_object_get_string_member (request, "model"), ==, "llama3.2:3b");
  messages = json_object_get_array_member (request, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 0), "role"), ==, "system");
  g_assert_cmpfloat (json_object_get_double_member (options, "temperature"), ==, 0.0);
  g_assert_cmpint (json_object_get_int_member (options, "seed"), ==, 7);
}

/* The reply shows, with its rates. */
static void
test_try_it_reply (Fixture       *f,
                   gconstpointer  data)
{
  g_assert_true (has_label (GTK_WIDGET (f->page), "Kubernetes schedules pods onto nodes."));
  g_assert_true (has_label_prefix (GTK_WIDGET (f->page), CHAT_RATES));
}

/* The transcript has room for the newest reply, not a 55 px slot. */
static void
test_try_it_transcript_room (Fixture       *f,
                             gconstpointer  data)
{
  GtkWidget *scroller = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (_hr_board_page_get_chat_panel (f->page)),
                                                                   HR_TYPE_CHAT_PANEL, "transcript_scroller"));

  spin (200);
  g_assert_true (gtk_widget_get_mapped (scroller));
  g_assert_cmpint (gtk_widget_get_height (scroller), >=, 240);
}

/* A follow-up carries the history: system, user, assistant, user. */
static void
test_try_it_history (Fixture       *f,
                     gconstpointer  data)
{
  JsonArray *messages;

  send_message (f, "And the kubelet?");
  messages = last_chat_messages (f);
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 2), "content"), ==,
                   "Kubernetes schedules pods onto nodes.");
}

/* The transcript after two turns: both messages and both replies, in
 * order, each reply with its rates. */
static void
test_try_it_two_turns (Fixture       *f,
                       gconstpointer  data)
{
  HrChatPanel *panel = _hr_board_page_get_chat_panel (f->page);

  g_assert_cmpuint (n_turns_shown (panel), ==, 4);
  g_assert_cmpuint (hr_chat_panel_get_n_turns (panel), ==, 4);
  assert_turn (panel, 0, "You", "What does the scheduler do?", NULL);
  assert_turn (panel, 1, "llama3.2:3b", "Kubernetes schedules pods onto nodes.", CHAT_RATES);
  assert_turn (panel, 2, "You", "And the kubelet?", NULL);
  assert_turn (panel, 3, "llama3.2:3b", NULL, CHAT_RATES);
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (gtk_widget_get_parent (hr_chat_panel_get_transcript (panel)))));
}

/* Stop: said so, no error; the unanswered message leaves the transcript. */
static void
test_try_it_stop (Fixture       *f,
                  gconstpointer  data)
{
  fake_ollama_set_stream_timing (f->fake, 30, 300, 0, FALSE);
  set_entry (f->page, "Messa_ge", "And etcd?");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "board.send", NULL));
  spin (150);
  g_assert_true (hr_chat_panel_is_chatting (_hr_board_page_get_chat_panel (f->page)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "board.stop-chat", NULL));
  g_assert_true (iterate_until (chat_done, f->page, 5000));
  g_assert_true (has_label (GTK_WIDGET (f->page), "Stopped; the unanswered message is not kept in the conversation."));
  g_assert_null (hr_board_connection_get_error (conn (f->page)));
  g_assert_cmpuint (n_turns_shown (_hr_board_page_get_chat_panel (f->page)), ==, 4);
}

/* After a stop the next message carries the 4 kept + 1. */
static void
test_try_it_after_stop (Fixture       *f,
                        gconstpointer  data)
{
  JsonArray *messages;

  fake_ollama_set_stream_timing (f->fake, 10, 2, 0, FALSE);
  send_message (f, "And the scheduler's queue?");
  messages = last_chat_messages (f);
  g_assert_cmpuint (json_array_get_length (messages), ==, 6);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 5), "content"), ==,
                   "And the scheduler's queue?");
  g_assert_cmpuint (n_turns_shown (_hr_board_page_get_chat_panel (f->page)), ==, 6);
}

/* A new conversation empties it. */
static void
test_try_it_new_chat (Fixture       *f,
                      gconstpointer  data)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "board.new-chat", NULL));
  g_assert_cmpuint (n_turns_shown (_hr_board_page_get_chat_panel (f->page)), ==, 0);
}

static const GuiTestStep chat_steps[] = {
  { "/board-page/try-it/request", (GTestFixtureFunc) test_try_it_request },
  { "/board-page/try-it/reply", (GTestFixtureFunc) test_try_it_reply },
  { "/board-page/try-it/transcript-room", (GTestFixtureFunc) test_try_it_transcript_room },
  { "/board-page/try-it/history", (GTestFixtureFunc) test_try_it_history },
  { "/board-page/try-it/two-turns", (GTestFixtureFunc) test_try_it_two_turns },
  { "/board-page/try-it/stop", (GTestFixtureFunc) test_try_it_stop },
  { "/board-page/try-it/after-stop", (GTestFixtureFunc) test_try_it_after_stop },
  { "/board-page/try-it/new-chat", (GTestFixtureFunc) test_try_it_new_chat },
};

static GuiTestStory chat_story = {
  "try-it", chat_open, chat_close, chat_steps, G_N_ELEMENTS (chat_steps), &chat, sizeof (Fixture), 0
};

/* ------------------------------------------------------------------ */
/* Screenshots (only with HEADROOM_BOARD_SCREENSHOT)                   */

/* The page busy as a person sees it: connected with llama3.2:3b loaded,
 * qwen2.5:7b pulling slowly, two turns of a chat. */
static void
make_page_busy (Fixture *f)
{
  fake_ollama_add_registry_model (f->fake, "qwen2.5:7b", llama32_layers, G_N_ELEMENTS (llama32_layers));
  fake_ollama_set_pull_steps (f->fake, 400, 30, FALSE);
  fake_ollama_set_stream_timing (f->fake, 30, 2, 80, FALSE);
  fake_ollama_set_final_timing (f->fake, 80000000, 14, 20000000, 5, 250000000);
  fake_ollama_load (f->fake, "llama3.2:3b", 4096);
  connect_page (f, fake_ollama_get_url (f->fake));
  set_entry (f->page, _("_Model Name (such as llama3.2:3b)"), "qwen2.5:7b");
  set_spin (f->page, _("Download Si_ze (GB)"), 4.7);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "board.pull", NULL));
  if (iterate_until (dialog_shown, NULL, 1000))
    adw_message_dialog_response (find_dialog (), "pull");
  set_entry (f->page, _("S_ystem Prompt"), "Answer in one sentence.");
  set_entry (f->page, _("Messa_ge"), "What does the scheduler do?");
  gtk_widget_activate_action (GTK_WIDGET (f->page), "board.send", NULL);
  g_assert_true (iterate_until (chat_done, f->page, 20000));
  set_entry (f->page, _("Messa_ge"), "And the kubelet?");
  gtk_widget_activate_action (GTK_WIDGET (f->page), "board.send", NULL);
  g_assert_true (iterate_until (chat_done, f->page, 20000));
  spin (300);
}

/* Light, dark, and 360 px wide (LANGUAGE=de for German), into @dir. */
static void
shoot_page (Fixture    *f,
            const char *dir)
{
  static const char * const names[] = { "board-light.png", "board-dark.png", "board-narrow.png" };
  AdwStyleManager *style = adw_style_manager_get_default ();

  for (guint pass = 0; pass < 3; pass++)
    {
      g_autofree char *path = g_build_filename (dir, names[pass], NULL);

      adw_style_manager_set_color_scheme (style, pass == 1 ? ADW_COLOR_SCHEME_FORCE_DARK
                                                           : ADW_COLOR_SCHEME_FORCE_LIGHT);
      if (pass == 2)
        gtk_window_set_default_size (GTK_WINDOW (f->window), 360, 1700);
      spin (300);
      gui_test_save_png (GTK_WIDGET (f->window), path);
    }
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 1900);
}

/* The measuring window after a run, light and dark, into @dir. */
static void
shoot_measure (Fixture    *f,
               const char *dir)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  HrMeasureWindow *window;

  gtk_widget_activate_action (GTK_WIDGET (f->page), "board.measure", "s", "llama3.2:3b");
  window = HR_MEASURE_WINDOW (_hr_board_page_get_measure_window (f->page));
  gtk_window_set_default_size (GTK_WINDOW (window), 820, 900);
  hr_measure_window_start (window);
  g_assert_true (iterate_until (measure_done, window, 20000));
  for (guint pass = 0; pass < 2; pass++)
    {
      g_autofree char *path = g_build_filename (dir, pass == 0 ? "measure-light.png" : "measure-dark.png", NULL);

      adw_style_manager_set_color_scheme (style, pass == 0 ? ADW_COLOR_SCHEME_FORCE_LIGHT
                                                           : ADW_COLOR_SCHEME_FORCE_DARK);
      spin (300);
      gui_test_save_png (GTK_WIDGET (window), path);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
}

static void
test_board_page_screenshot (void)
{
  const char *dir = g_getenv ("HEADROOM_BOARD_SCREENSHOT");
  Fixture f = { 0 };

  if (dir == NULL)
    {
      g_test_skip ("HEADROOM_BOARD_SCREENSHOT is not set");
      return;
    }

  open_page (&f);
  gtk_window_set_default_size (GTK_WINDOW (f.window), 1000, 1900);
  spin (300);
  {
    g_autofree char *refused = fake_ollama_refused_url ();
    g_autofree char *path = g_build_filename (dir, "board-refused.png", NULL);

    connect_page (&f, refused);
    spin (300);
    gui_test_save_png (GTK_WIDGET (f.window), path);
  }
  make_page_busy (&f);
  shoot_page (&f, dir);
  gtk_widget_activate_action (GTK_WIDGET (f.page), "board.cancel-pull", NULL);
  g_assert_true (iterate_until (pull_done, f.page, 5000));
  shoot_measure (&f, dir);
  close_page (&f);
}

int
main (int   argc,
      char *argv[])
{
  board_test_setup (&argc, &argv);

  gui_test_story_add (&connected_story);
  g_test_add_func ("/board-page/actions", test_board_page_actions);
  g_test_add_func ("/board-page/copy", test_board_page_copy);
  g_test_add_func ("/board-page/disconnect", test_board_page_disconnect);
  gui_test_story_add (&refresh_story);
  g_test_add_func ("/board-page/saved-servers", test_board_page_saved_servers);
  g_test_add_func ("/board-page/token", test_board_page_token);
  g_test_add_func ("/board-page/refused-connection", test_board_page_refused_connection);
  gui_test_story_add (&measure_story);
  g_test_add_func ("/board-page/measure-cancel", test_board_page_measure_cancel);
  gui_test_story_add (&pull_story);
  g_test_add_func ("/board-page/pull-prior", test_board_page_pull_prior);
  g_test_add_func ("/board-page/pull-cancel", test_board_page_pull_cancel);
  gui_test_story_add (&chat_story);
  g_test_add_func ("/board-page/screenshot", test_board_page_screenshot);

  return board_test_run ();
}
