/* test-device-editor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The board editor's GPU list (hr-device-list.c) in the window: a GPU is
 * added, named, sized and given a backend, the board saved to the boards
 * file with its "devices", a GPU removed; the list fits 360 px; its rows
 * and buttons are named for a screen reader and reached by keyboard.
 * With HR_TEST_SHOTS set, screenshots are written there.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "hr-application.h"
#include "hr-board-editor.h"
#include "hr-catalog.h"
#include "hr-device-list.h"
#include "hr-models-page-private.h"
#include "hr-window-private.h"
#include "gui-test-util.h"

static HrApplication *test_app;
static char *isolated_root;

static HrWindow *
open_window (int width,
             int height)
{
  HrWindow *window;

  reset_settings (width, height);
  g_application_activate (G_APPLICATION (test_app));
  window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
  g_assert_nonnull (window);
  g_object_ref (window);
  g_assert_true (wait_for_window_pages (GTK_WIDGET (window), 10000));
  g_assert_true (iterate_until (widget_is_drawn, hr_window_get_models_page (window), 5000));
  return window;
}

static void
close_window (HrWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  g_assert_finalize_object (window);
}

static GtkWidget *
find_type (GtkWidget *root,
           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_type (c, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The first widget under @root of @type whose string property @name is @value. */
static GtkWidget *
find_with (GtkWidget  *root,
           GType       type,
           const char *name,
           const char *value)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    {
      g_autofree char *text = NULL;

      g_object_get (root, name, &text, NULL);
      if (g_strcmp0 (text, value) == 0)
        return root;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_with (c, type, name, value);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  return find_with (root, GTK_TYPE_BUTTON, "label", label);
}

/* The spin button at the end of the row titled @title under @root. */
static GtkSpinButton *
row_spin (GtkWidget  *root,
          const char *title)
{
  GtkWidget *row = find_with (root, ADW_TYPE_ACTION_ROW, "title", title);

  g_assert_nonnull (row);
  return GTK_SPIN_BUTTON (find_type (row, GTK_TYPE_SPIN_BUTTON));
}

static void
save_shot (GtkWidget  *widget,
           const char *name)
{
  g_autofree char *path = NULL;

  if (g_getenv ("HR_TEST_SHOTS") == NULL)
    return;
  path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), name, NULL);
  spin (300);
  gui_test_save_png (widget, path);
}

static gboolean
has_two_gpus (gpointer scenario)
{
  return hr_board_n_devices (hr_scenario_get_board (scenario)) == 2;
}

static void
test_device_editor (void)
{
  HrWindow *window = open_window (360, 1600);
  HrModelsPage *page = hr_window_get_models_page (window);
  HrScenario *scenario = hr_page_get_scenario (HR_PAGE (page));
  g_autofree char *boards_path = hr_data_user_file ("boards.json");
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *list, *add, *second, *name, *save, *remove, *backend;
  const HrBoard *board;
  const HrDevice *d;

  adw_flap_set_reveal_flap (hr_models_page_get_flap (page), TRUE);
  hr_scenario_set_board_id (scenario, "rtx-3090");
  spin (300);
  list = find_type (GTK_WIDGET (page), HR_TYPE_DEVICE_LIST);
  g_assert_nonnull (list);
  g_assert_true (gtk_widget_get_visible (list));
  g_assert_nonnull (find_with (list, ADW_TYPE_EXPANDER_ROW, "title", "GPU 1: NVIDIA GeForce RTX 3090"));

  /* Add GPU: a copy of the last one, the board now two GPUs */
  add = find_button (list, "_Add GPU");
  g_assert_nonnull (add);
  g_assert_true (gtk_widget_get_sensitive (add));
  /* by keyboard: the button takes focus and its mnemonic (Alt+A) presses it */
  g_assert_true (gtk_button_get_use_underline (GTK_BUTTON (add)));
  g_assert_true (gtk_widget_grab_focus (add));
  g_assert_true (gtk_widget_mnemonic_activate (add, FALSE));
  g_assert_true (iterate_until (has_two_gpus, scenario, 2000)); /* a button's activate clicks after its press shows */
  board = hr_scenario_get_board (scenario);
  g_assert_cmpuint (hr_board_n_devices (board), ==, 2);
  second = find_with (list, ADW_TYPE_EXPANDER_ROW, "title", "GPU 2: GPU 2");
  g_assert_nonnull (second);
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (second)));

  /* name, memory, bandwidth, backend of the second GPU */
  name = find_with (second, ADW_TYPE_ENTRY_ROW, "title", "Name");
  g_assert_nonnull (name);
  gtk_editable_set_text (GTK_EDITABLE (name), "NVIDIA GeForce RTX 3060");
  gtk_spin_button_set_value (row_spin (second, "_Memory (GB)"), 12.88);
  gtk_spin_button_set_value (row_spin (second, "Band_width (GB/s)"), 360);
  backend = find_with (second, ADW_TYPE_COMBO_ROW, "title", "Back_end");
  g_assert_nonnull (backend);
  adw_combo_row_set_selected (ADW_COMBO_ROW (backend), HR_DEVICE_BACKEND_VULKAN);
  board = hr_scenario_get_board (scenario);
  d = g_ptr_array_index (board->devices, 1);
  g_assert_cmpstr (d->name, ==, "NVIDIA GeForce RTX 3060");
  g_assert_cmpuint (d->memory_bytes, ==, 12880000000);
  g_assert_cmpfloat (d->bandwidth_bytes_per_s, ==, 360e9);
  g_assert_cmpint (d->backend, ==, HR_DEVICE_BACKEND_VULKAN);
  g_assert_nonnull (find_with (list, ADW_TYPE_EXPANDER_ROW, "subtitle", "12.9 GB, 360 GB/s, Discrete, Vulkan"));
  /* the board has host memory, so a model is placed across its GPUs; the
   * summary says the charts draw the first GPU's memory alone */
  g_assert_nonnull (find_with (GTK_WIDGET (page), GTK_TYPE_LABEL, "label",
                               "This board has 2 GPUs: the verdicts and figures place a model across them as Ollama 0.30+ "
                               "and llama.cpp's fit do, but the charts draw the first GPU's memory alone.\n"
                               "Budget 24.27 GB, headroom 24.77 GB, pool 25.77 GB; floor 10.2 t/s; no measured models on this "
                               "board: rates are priors, efficiency 0.67 of its kind of hardware; measure one model to fit its own."));
  /* the first GPU is still the board's own figures */
  g_assert_cmpuint (board->pool_bytes, ==, 25769803776);

  /* an absurd figure is refused as the other fields refuse it */
  gtk_spin_button_set_value (row_spin (second, "Band_width (GB/s)"), 0);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (row_spin (second, "Band_width (GB/s)")), "error"));
  g_assert_cmpfloat (((HrDevice *) g_ptr_array_index (hr_scenario_get_board (scenario)->devices, 1))->bandwidth_bytes_per_s, ==, 360e9);
  gtk_spin_button_set_value (row_spin (second, "Band_width (GB/s)"), 360);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (row_spin (second, "Band_width (GB/s)")), "error"));
  g_assert_false (gtk_widget_has_css_class (name, "error"));

  /* the fields take keyboard focus (each spin is named by its row's title
   * for a screen reader: hr_gui_label_spin_by_row()) */
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (row_spin (second, "_Memory (GB)"))));
  g_assert_true (gtk_widget_grab_focus (name));
  save_shot (list, "device-list-360.png");
  save_shot (GTK_WIDGET (window), "device-editor-window-360.png");

  /* Save: the boards file holds the list */
  g_assert_false (g_file_test (boards_path, G_FILE_TEST_EXISTS));
  save = find_button (GTK_WIDGET (page), "_Save");
  g_assert_nonnull (save);
  g_signal_emit_by_name (save, "clicked");
  saved = hr_boards_load_file (boards_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (saved->len, ==, 1);
  board = g_ptr_array_index (saved, 0);
  g_assert_cmpstr (board->id, ==, "rtx-3090");
  g_assert_cmpuint (hr_board_n_devices (board), ==, 2);
  d = g_ptr_array_index (board->devices, 1);
  g_assert_cmpstr (d->name, ==, "NVIDIA GeForce RTX 3060");
  g_assert_cmpint (d->backend, ==, HR_DEVICE_BACKEND_VULKAN);

  /* Remove GPU: back to one, and the last one cannot go */
  remove = find_button (second, "_Remove GPU");
  g_assert_nonnull (remove);
  g_signal_emit_by_name (remove, "clicked");
  board = hr_scenario_get_board (scenario);
  g_assert_cmpuint (hr_board_n_devices (board), ==, 1);
  remove = find_button (list, "_Remove GPU");
  g_assert_false (gtk_widget_get_sensitive (remove));

  /* a unified board takes no second GPU */
  hr_scenario_set_board_id (scenario, "dgx-spark");
  spin (100);
  g_assert_false (gtk_widget_get_sensitive (find_button (list, "_Add GPU")));

  /* the list fits 360 px */
  {
    int minimum = 0;

    gtk_widget_measure (GTK_WIDGET (page), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
    g_assert_cmpint (minimum, <=, 360);
  }
  close_window (window);
  g_unlink (boards_path);
}

/* A built-in board with two GPUs as the list shows it, in the language the
 * test runs in (LANGUAGE=de for German): screenshots only. */
static void
test_device_editor_shot (void)
{
  HrWindow *window;
  HrModelsPage *page;
  GtkWidget *list, *row;

  if (g_getenv ("HR_TEST_SHOTS") == NULL)
    {
      g_test_skip ("HR_TEST_SHOTS is not set");
      return;
    }
  window = open_window (360, 1600);
  page = hr_window_get_models_page (window);
  adw_flap_set_reveal_flap (hr_models_page_get_flap (page), TRUE);
  hr_scenario_set_board_id (hr_page_get_scenario (HR_PAGE (page)), "rtx-5090-rtx-3090");
  spin (300);
  list = find_type (GTK_WIDGET (page), HR_TYPE_DEVICE_LIST);
  g_assert_nonnull (list);
  row = find_type (list, ADW_TYPE_EXPANDER_ROW);
  g_assert_nonnull (row);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), TRUE);
  save_shot (GTK_WIDGET (window), g_getenv ("LANGUAGE") != NULL && g_str_has_prefix (g_getenv ("LANGUAGE"), "de") ?
                                  "device-editor-preset-360-de.png" : "device-editor-preset-360.png");
  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED | GUI_TEST_ENVIRONMENT_LOCALE);
  g_test_add_func ("/device-editor/edit-save-remove", test_device_editor);
  g_test_add_func ("/device-editor/shot", test_device_editor_shot);
  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &isolated_root);
}
