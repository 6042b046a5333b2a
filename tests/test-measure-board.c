/* test-measure-board.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * No data lost: a measurement is saved to the board its server
 * belongs to, never to whatever the Models page shows. Under Xvfb, from the
 * real HrApplication, against the in-process fake Ollama: with the Models
 * page on board A and the server remembered for board B, the Measure window
 * names B and the record lands on B while A's rates stay as they were; a
 * server without a remembered board is asked about (connect, measure) and
 * the answer is remembered; the window's Change… moves the server to
 * another board; the board editor lists the board's measurements and
 * deletes one of yours with Undo.
 *
 * With HEADROOM_MEASURE_SCREENSHOT=DIR set, /measure-board/screenshot saves
 * DIR/measure-window.png, DIR/board-chooser.png, DIR/editor-measurements.png
 * and DIR/editor-undo.png.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "fake-ollama.h"
#include "hr-application.h"
#include "hr-board-chooser.h"
#include "hr-board-editor.h"
#include "hr-board-page-private.h"
#include "hr-measure-window.h"
#include "hr-window-private.h"
#include "gui-test-util.h"

#define BOARD_A "jetson-orin-nano-super"
#define BOARD_B "dgx-spark"

static HrApplication *test_app;
static char *test_home;

typedef struct {
  FakeOllama   *fake;
  HrWindow     *window;
  HrSession    *session;
  HrScenario   *scenario;
  HrBoardPage  *page;
} Fixture;

static HrBoardConnection *
conn (HrBoardPage *page)
{
  return _hr_board_page_get_connection (page);
}

static gboolean
session_loaded (gpointer data)
{
  return hr_session_get_loaded (data);
}

static gboolean
page_is_idle (gpointer data)
{
  return !hr_board_connection_get_busy (conn (data));
}

static void
open_page (Fixture *f)
{
  AdwViewStack *stack;
  g_autofree char *user_dir = g_build_filename (g_get_user_data_dir (), "headroom", NULL);

  remove_tree (user_dir);
  reset_settings (1100, 900);
  f->fake = fake_ollama_new ();
  fake_ollama_add_llama32 (f->fake);
  /* 5 tokens in 250 ms: 20 t/s, far from the Jetson's 18.4. */
  fake_ollama_set_stream_timing (f->fake, 5, 1, 10, FALSE);
  fake_ollama_set_final_timing (f->fake, 80000000, 14, 20000000, 5, 250000000);

  g_application_activate (G_APPLICATION (test_app));
  f->window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
  g_assert_nonnull (f->window);
  g_object_ref (f->window);
  f->session = hr_application_get_session (test_app);
  f->scenario = hr_application_get_scenario (test_app);
  g_assert_true (iterate_until (session_loaded, f->session, 10000));
  hr_session_reload_measurements (f->session);
  stack = hr_window_get_stack (f->window);
  adw_view_stack_set_visible_child_name (stack, "board");
  f->page = HR_BOARD_PAGE (hr_window_get_page (f->window, "board"));
  hr_board_connection_set_use_keyring (conn (f->page), FALSE);
  g_assert_true (iterate_until (widget_is_drawn, f->page, 5000));
  /* The Models page shows board A. */
  hr_scenario_set_board_id (f->scenario, BOARD_A);
}

static void
close_page (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  spin (100);
  g_assert_finalize_object (f->window);
  fake_ollama_free (f->fake);
}

static void
connect_page (Fixture    *f,
              const char *url)
{
  hr_board_page_connect (f->page, url);
  g_assert_true (iterate_until (page_is_idle, f->page, 10000));
  spin (50);
}

static gboolean
chooser_shown (gpointer data)
{
  return _hr_board_page_get_board_chooser (data) != NULL;
}

/* Answers the dialog as its buttons do: the response, then it closes. */
static void
answer (GtkWindow  *chooser,
        const char *board_id)
{
  if (board_id != NULL)
    hr_board_chooser_set_board_id (HR_BOARD_CHOOSER (chooser), board_id);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (chooser), board_id != NULL ? "choose" : "cancel");
  gtk_window_close (chooser);
  spin (50);
}

static gboolean
measure_done (gpointer data)
{
  return !hr_measure_window_is_running (data);
}

static double
rate_on (HrSession  *session,
         const char *board,
         const char *model)
{
  g_autoptr(GHashTable) rates = hr_measurement_archive_rates (hr_session_get_measurements (session), board);
  double *tps = g_hash_table_lookup (rates, model);

  return tps != NULL ? *tps : -1;
}

/* The heart of the issue: Models page on A, server remembered for B. */
static void
test_remembered_board (void)
{
  Fixture f = { 0 };
  HrMeasureWindow *window;
  g_autoptr(HrMeasurement) saved = NULL;
  g_autoptr(GError) error = NULL;
  const char *path;

  open_page (&f);
  hr_session_remember_server (f.session, fake_ollama_get_url (f.fake), BOARD_B);
  hr_scenario_set_board_id (f.scenario, BOARD_A);
  connect_page (&f, fake_ollama_get_url (f.fake));
  /* A remembered server is not asked about, and keeps its board. */
  g_assert_null (_hr_board_page_get_board_chooser (f.page));
  g_assert_cmpstr (hr_session_get_server_board (f.session, fake_ollama_get_url (f.fake)), ==, BOARD_B);
  /* The page says which board that is. */
  g_assert_true (g_str_has_suffix (adw_action_row_get_subtitle (f.page->status_row), ", on NVIDIA DGX Spark (GB10)"));
  hr_scenario_set_board_id (f.scenario, BOARD_A);
  g_assert_cmpstr (hr_scenario_get_board (f.scenario)->id, ==, BOARD_A);
  g_assert_cmpfloat (hr_scenario_get_measured_tps (f.scenario, "llama3.2:3b"), ==, 18.4);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "board.measure", "s", "llama3.2:3b"));
  window = _hr_board_page_get_measure_window (f.page);
  g_assert_nonnull (window);
  /* Named before Start, in the window itself. */
  g_assert_cmpstr (hr_measure_window_get_board_id (window), ==, BOARD_B);
  g_assert_cmpstr (hr_measure_window_get_board_text (window), ==, "Saves to board: NVIDIA DGX Spark (GB10)");
  g_assert_nonnull (find_titled_row (GTK_WIDGET (window), "Saves to board: NVIDIA DGX Spark (GB10)"));

  g_assert_true (hr_measure_window_start (window));
  g_assert_true (iterate_until (measure_done, window, 20000));
  path = hr_measure_run_get_saved_path (hr_measure_window_get_run (window));
  g_assert_nonnull (path);
  g_assert_nonnull (strstr (hr_measure_window_get_status (window), " as a measurement of NVIDIA DGX Spark (GB10)."));

  /* The record is B's ... */
  saved = hr_measurement_load_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (saved->board, ==, BOARD_B);
  g_assert_cmpfloat (rate_on (f.session, BOARD_B, "llama3.2:3b"), ==, 20.0);
  /* ... and A's rates are as they were. */
  g_assert_cmpfloat (rate_on (f.session, BOARD_A, "llama3.2:3b"), ==, 18.4);
  g_assert_cmpfloat (hr_scenario_get_measured_tps (f.scenario, "llama3.2:3b"), ==, 18.4);
  g_assert_cmpstr (hr_scenario_get_board (f.scenario)->id, ==, BOARD_A);

  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  close_page (&f);
}

/* A server without a remembered board is asked about, on connect and on
 * measure; the answer is remembered, the last one offered first. */
/* The asking story: a new server asks which board it is on; a second new
 * server (other) is cancelled, asked again when measured, then moved to
 * another board from the measuring window. */
typedef struct {
  Fixture          f;
  FakeOllama      *other;    /* the second server */
  HrMeasureWindow *window;   /* (nullable): the measuring window, once open */
} Ask;

static Ask ask;

static void
ask_open (gpointer data)
{
  Ask *a = data;

  /* A window of the cases that share one is closed first. */
  gui_test_unshare ();
  a->other = fake_ollama_new ();
  fake_ollama_add_llama32 (a->other);
  open_page (&a->f);
}

static void
ask_close (void)
{
  if (ask.window != NULL)
    {
      gtk_window_destroy (GTK_WINDOW (ask.window));
      spin (50);
    }
  close_page (&ask.f);
  fake_ollama_free (ask.other);
}

/* No server has a board yet: the Models page's is offered, in a modal
 * dialog. */
static void
test_ask_chooser (Ask           *a,
                  gconstpointer  data)
{
  Fixture *f = &a->f;
  GtkWindow *chooser;

  connect_page (f, fake_ollama_get_url (f->fake));
  g_assert_true (iterate_until (chooser_shown, f->page, 5000));
  chooser = _hr_board_page_get_board_chooser (f->page);
  g_assert_true (gtk_window_get_modal (chooser));
  g_assert_cmpstr (hr_board_chooser_get_board_id (HR_BOARD_CHOOSER (chooser)), ==, BOARD_A);
  g_assert_cmpstr (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (chooser)), ==, "Which Board Is This Server On?");
  g_assert_cmpstr (adw_message_dialog_get_default_response (ADW_MESSAGE_DIALOG (chooser)), ==, "choose");
  g_assert_cmpstr (adw_message_dialog_get_close_response (ADW_MESSAGE_DIALOG (chooser)), ==, "cancel");
  g_assert_null (hr_session_get_server_board (f->session, fake_ollama_get_url (f->fake)));
  g_assert_null (strstr (adw_action_row_get_subtitle (f->page->status_row), ", on "));
}

/* Answered: the server is saved on that board, which the pull check
 * then uses. */
static void
test_ask_answered (Ask           *a,
                   gconstpointer  data)
{
  Fixture *f = &a->f;

  answer (_hr_board_page_get_board_chooser (f->page), "rtx-4090");
  g_assert_true (g_str_has_suffix (adw_action_row_get_subtitle (f->page->status_row), ", on NVIDIA GeForce RTX 4090"));
  g_assert_null (_hr_board_page_get_board_chooser (f->page));
  g_assert_cmpstr (hr_session_get_server_board (f->session, fake_ollama_get_url (f->fake)), ==, "rtx-4090");
  g_assert_cmpstr (hr_scenario_get_board_id (f->scenario), ==, "rtx-4090");
}

/* Another new server: the board chosen last is offered; cancelled, it is
 * not saved with any board. */
static void
test_ask_cancelled (Ask           *a,
                    gconstpointer  data)
{
  Fixture *f = &a->f;
  GtkWindow *chooser;

  hr_scenario_set_board_id (f->scenario, BOARD_A);
  connect_page (f, fake_ollama_get_url (a->other));
  g_assert_true (iterate_until (chooser_shown, f->page, 5000));
  chooser = _hr_board_page_get_board_chooser (f->page);
  g_assert_cmpstr (hr_board_chooser_get_board_id (HR_BOARD_CHOOSER (chooser)), ==, "rtx-4090");
  answer (chooser, NULL);
  g_assert_null (hr_session_get_server_board (f->session, fake_ollama_get_url (a->other)));
}

/* Measuring it asks again, then opens on the board chosen. */
static void
test_ask_before_measuring (Ask           *a,
                           gconstpointer  data)
{
  Fixture *f = &a->f;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "board.measure", "s", "llama3.2:3b"));
  g_assert_null (_hr_board_page_get_measure_window (f->page));
  g_assert_true (iterate_until (chooser_shown, f->page, 5000));
  answer (_hr_board_page_get_board_chooser (f->page), BOARD_B);
  a->window = _hr_board_page_get_measure_window (f->page);
  g_assert_nonnull (a->window);
  g_assert_cmpstr (hr_measure_window_get_board_id (a->window), ==, BOARD_B);
  g_assert_cmpstr (hr_session_get_server_board (f->session, fake_ollama_get_url (a->other)), ==, BOARD_B);
}

/* The board chooser shown, if any. */
static GtkWindow *
shown_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *chooser = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (HR_IS_BOARD_CHOOSER (item) && gtk_widget_get_visible (GTK_WIDGET (item)))
        chooser = GTK_WINDOW (item);
    }
  return chooser;
}

/* Change…: the server moves to another board, and the window says so. */
static void
test_ask_change_board (Ask           *a,
                       gconstpointer  data)
{
  GtkWindow *chooser;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (a->window), "measure.change-board", NULL));
  spin (50);
  chooser = shown_chooser ();
  g_assert_nonnull (chooser);
  g_assert_cmpstr (hr_board_chooser_get_board_id (HR_BOARD_CHOOSER (chooser)), ==, BOARD_B);
  answer (chooser, BOARD_A);
  g_assert_cmpstr (hr_measure_window_get_board_id (a->window), ==, BOARD_A);
  g_assert_cmpstr (hr_measure_window_get_board_text (a->window), ==, "Saves to board: Jetson Orin Nano Super");
  g_assert_cmpstr (hr_session_get_server_board (a->f.session, fake_ollama_get_url (a->other)), ==, BOARD_A);
}

static const GuiTestStep ask_steps[] = {
  { "/measure-board/ask-first/chooser", (GTestFixtureFunc) test_ask_chooser },
  { "/measure-board/ask-first/answered", (GTestFixtureFunc) test_ask_answered },
  { "/measure-board/ask-first/cancelled", (GTestFixtureFunc) test_ask_cancelled },
  { "/measure-board/ask-first/before-measuring", (GTestFixtureFunc) test_ask_before_measuring },
  { "/measure-board/ask-first/change-board", (GTestFixtureFunc) test_ask_change_board },
};

static GuiTestStory ask_story = {
  "ask-first", ask_open, ask_close, ask_steps, G_N_ELEMENTS (ask_steps), &ask, sizeof (Ask), 0
};

static void
write_record (const char *name,
              const char *date,
              const char *tps)
{
  g_autofree char *dir = hr_data_measurements_dir ();
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = g_strdup_printf ("{\"board\": \"" BOARD_A "\", \"model\": \"llama3.2:3b\", \"date\": \"%s\", "
                                           "\"runtime_version\": \"ollama 0.31.2\", \"decode_tps\": {\"mean\": %s}, "
                                           "\"sizes\": [{\"context_tokens\": 2048, \"reported_bytes\": 2354265824, "
                                           "\"reported_vram_bytes\": 2354265824}, {\"context_tokens\": 4096, "
                                           "\"reported_bytes\": 2589139424, \"reported_vram_bytes\": 2589139424}]}",
                                           date, tps);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

/* The board editor lists the board's records and deletes one with Undo. */
static void
test_editor_list (void)
{
  Fixture f = { 0 };
  HrBoardEditor *editor;
  HrMeasurementsRow *row;
  AdwToast *toast;
  GPtrArray *ids;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;

  open_page (&f);
  write_record (BOARD_A "-llama3.2_3b-20261201T101500Z.json", "2026-12-01T10:15:00Z", "25.5");
  hr_session_reload_measurements (f.session);
  adw_view_stack_set_visible_child_name (hr_window_get_stack (f.window), "models");
  editor = HR_BOARD_EDITOR (find_descendant (GTK_WIDGET (f.window), HR_TYPE_BOARD_EDITOR));
  g_assert_nonnull (editor);
  row = hr_board_editor_get_measurements_row (editor);

  /* Newest first: yours, then the two built-in ones of the Jetson. */
  ids = hr_measurements_row_get_ids (row);
  g_assert_cmpuint (ids->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (ids, 0), ==, BOARD_A "-llama3.2_3b-20261201T101500Z");
  g_assert_cmpstr (g_ptr_array_index (hr_measurements_row_get_texts (row), 0), ==,
                   "llama3.2:3b · 25.5 t/s — 12/01/26 10:15:00 · ollama 0.31.2 · "
                   "2,048 tokens: 2.35 GB · 4,096 tokens: 2.59 GB");
  g_assert_cmpstr (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (row)), ==,
                   "3 run sets on this board; its rates come from the newest of each model");
  g_assert_cmpfloat (hr_scenario_get_measured_tps (f.scenario, "llama3.2:3b"), ==, 25.5);

  /* Delete: the file goes, the list and the rates follow. */
  dir = hr_data_measurements_dir ();
  path = g_build_filename (dir, BOARD_A "-llama3.2_3b-20261201T101500Z.json", NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "measurements.delete", "s",
                                             BOARD_A "-llama3.2_3b-20261201T101500Z"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  ids = hr_measurements_row_get_ids (row);
  g_assert_cmpuint (ids->len, ==, 2);
  g_assert_cmpstr (hr_measurements_row_get_toast_title (row), ==,
                   "Deleted the measurement of llama3.2:3b from 12/01/26 10:15:00");
  g_assert_cmpfloat (hr_scenario_get_measured_tps (f.scenario, "llama3.2:3b"), ==, 18.4);

  /* Undo, as the toast's button does: it is back, under the same id. */
  toast = hr_measurements_row_get_toast (row);
  g_assert_nonnull (toast);
  g_assert_cmpstr (adw_toast_get_button_label (toast), ==, "_Undo");
  g_signal_emit_by_name (toast, "button-clicked");
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  ids = hr_measurements_row_get_ids (row);
  g_assert_cmpuint (ids->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (ids, 0), ==, BOARD_A "-llama3.2_3b-20261201T101500Z");
  g_assert_cmpfloat (hr_scenario_get_measured_tps (f.scenario, "llama3.2:3b"), ==, 25.5);

  /* A built-in record is never deleted: it says why. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "measurements.delete", "s",
                                             BOARD_A "-llama3.2-3b"));
  g_assert_cmpuint (hr_measurements_row_get_ids (row)->len, ==, 3);
  g_assert_true (g_str_has_prefix (hr_measurements_row_get_toast_title (row),
                                   "measurement \"" BOARD_A "-llama3.2-3b\" is part of the built-in data"));

  /* Another board: its own records. */
  hr_scenario_set_board_id (f.scenario, BOARD_B);
  g_assert_cmpuint (hr_measurements_row_get_ids (row)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (hr_measurements_row_get_ids (row), 0), ==, "dgx-spark-phi4-week2");
  close_page (&f);
}

/* ------------------------------------------------------------------ */
/* Screenshots (only with HEADROOM_MEASURE_SCREENSHOT)                 */

static void
test_screenshot (void)
{
  const char *dir = g_getenv ("HEADROOM_MEASURE_SCREENSHOT");
  Fixture f = { 0 };
  HrMeasureWindow *window;
  HrBoardEditor *editor;
  g_autofree char *chooser_path = NULL;
  g_autofree char *window_path = NULL;
  g_autofree char *editor_path = NULL;
  g_autofree char *undo_path = NULL;

  if (dir == NULL)
    {
      g_test_skip ("HEADROOM_MEASURE_SCREENSHOT is not set");
      return;
    }
  chooser_path = g_build_filename (dir, "board-chooser.png", NULL);
  window_path = g_build_filename (dir, "measure-window.png", NULL);
  editor_path = g_build_filename (dir, "editor-measurements.png", NULL);
  undo_path = g_build_filename (dir, "editor-undo.png", NULL);

  open_page (&f);
  write_record (BOARD_A "-llama3.2_3b-20261201T101500Z.json", "2026-12-01T10:15:00Z", "25.5");
  hr_session_reload_measurements (f.session);
  connect_page (&f, fake_ollama_get_url (f.fake));
  g_assert_true (iterate_until (chooser_shown, f.page, 5000));
  spin (400);
  gui_test_save_png (GTK_WIDGET (_hr_board_page_get_board_chooser (f.page)), chooser_path);
  answer (_hr_board_page_get_board_chooser (f.page), BOARD_B);

  gtk_widget_activate_action (GTK_WIDGET (f.page), "board.measure", "s", "llama3.2:3b");
  window = _hr_board_page_get_measure_window (f.page);
  gtk_window_set_default_size (GTK_WINDOW (window), 820, 560);
  spin (400);
  gui_test_save_png (GTK_WIDGET (window), window_path);
  gtk_window_destroy (GTK_WINDOW (window));

  hr_scenario_set_board_id (f.scenario, BOARD_A);
  adw_view_stack_set_visible_child_name (hr_window_get_stack (f.window), "models");
  editor = HR_BOARD_EDITOR (find_descendant (GTK_WIDGET (f.window), HR_TYPE_BOARD_EDITOR));
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (hr_board_editor_get_measurements_row (editor)), TRUE);
  spin (600);
  gui_test_save_png (GTK_WIDGET (f.window), editor_path);
  gtk_widget_activate_action (GTK_WIDGET (hr_board_editor_get_measurements_row (editor)), "measurements.delete", "s",
                              BOARD_A "-llama3.2_3b-20261201T101500Z");
  spin (600);
  gui_test_save_png (GTK_WIDGET (f.window), undo_path);
  close_page (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GTK_A11Y", "test", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  /* Dates in the locale's format, in one known time zone. */
  g_setenv ("TZ", "UTC", TRUE);
  g_unsetenv ("OLLAMA_HOST");
  /* As test-board-page.c: a temporary home, in the environment's locale. */
  test_home = gui_test_init (&argc, &argv, GUI_TEST_HOME | GUI_TEST_ENVIRONMENT_LOCALE);

  g_test_add_func ("/measure-board/remembered-board", test_remembered_board);
  gui_test_story_add (&ask_story);
  g_test_add_func ("/measure-board/editor-list", test_editor_list);
  g_test_add_func ("/measure-board/screenshot", test_screenshot);

  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &test_home);
}
