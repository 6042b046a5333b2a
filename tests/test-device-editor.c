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
#include "hr-board-import.h"
#include "hr-catalog.h"
#include "hr-device-list.h"
#include "hr-error.h"
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
  g_assert_nonnull (find_with (list, ADW_TYPE_EXPANDER_ROW, "title", "GPU 0: NVIDIA GeForce RTX 3090"));

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
  second = find_with (list, ADW_TYPE_EXPANDER_ROW, "title", "GPU 1: GPU 1");
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
  /* the board has host memory, so a model is placed across its GPUs and
   * the pool chart draws each one; the figures under it are the first GPU's */
  g_assert_nonnull (find_with (GTK_WIDGET (page), GTK_TYPE_LABEL, "label",
                               "This board has 2 GPUs: the verdicts and figures place a model across them as Ollama 0.30+ "
                               "and llama.cpp's fit do, and the pool chart draws each GPU and host memory. The first GPU's figures:\n"
                               "Budget 24.27 GB, headroom 24.77 GB, pool 25.77 GB; floor 10.2 t/s; no measured models on this "
                               "board: rates are predicted from efficiency 0.67, the mean of published runs on its kind of hardware; measure one model to fit its own."));
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

static char *
fixture_text (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("HEADROOM_SOURCE_DIR"), "tests", "fixtures", "hardware", name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static gboolean
import_done (gpointer import)
{
  return !hr_board_import_get_busy (import);
}

/* The HrBoardImport window the board list's action opened, if any. */
static HrBoardImport *
find_import_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* (transfer none) */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (HR_IS_BOARD_IMPORT (w))
        return HR_BOARD_IMPORT (w);
    }
  return NULL;
}

/* "Import from Text…": the board list's menu opens it; an unreadable line
 * gets its message and no board; the two-GPU paste of
 * tests/fixtures/hardware/remote-paste.txt (the RTX 3090's bandwidth from
 * the built-in board of that name) lists what to confirm, stays unsaved
 * until the RTX 3060's and the host memory's bandwidth are given, then is
 * saved and selected. */
static void
test_board_import_paste (void)
{
  HrWindow *window = open_window (1280, 800);
  HrModelsPage *page = hr_window_get_models_page (window);
  HrScenario *scenario = hr_page_get_scenario (HR_PAGE (page));
  GtkWidget *editor = find_type (GTK_WIDGET (page), HR_TYPE_BOARD_EDITOR);
  g_autofree char *paste = fixture_text ("remote-paste.txt");
  g_autoptr(GError) error = NULL;
  GtkWidget *menu_button;
  HrBoardImport *import;
  const HrBoard *board;

  g_assert_nonnull (editor);
  menu_button = find_type (editor, GTK_TYPE_MENU_BUTTON);
  g_assert_nonnull (menu_button);
  {
    GMenuModel *menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button));
    GMenuModel *section = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
    g_autofree char *detect = NULL, *import_label = NULL;

    g_assert_cmpstr (gtk_widget_get_tooltip_text (menu_button), ==, "Add a board read from a computer's tools");
    g_assert_cmpint (g_menu_model_get_n_items (section), ==, 2);
    g_menu_model_get_item_attribute (section, 0, G_MENU_ATTRIBUTE_LABEL, "s", &detect);
    g_menu_model_get_item_attribute (section, 1, G_MENU_ATTRIBUTE_LABEL, "s", &import_label);
    g_assert_cmpstr (detect, ==, "_Detect This Computer");
    g_assert_cmpstr (import_label, ==, "_Import from Text…");
    g_object_unref (section);
  }
  g_assert_true (gtk_widget_activate_action (editor, "board.import", NULL));
  spin (100);
  import = find_import_window ();
  g_assert_nonnull (import);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (import)), ==, "Import a Board from Text");

  /* Nothing pasted, then a line no tool prints: a message, no board */
  hr_board_import_read_text (import, "  \n");
  g_assert_cmpstr (hr_board_import_get_status (import), ==,
                   "Paste what the tools printed on the computer with the GPUs first, or open a file.");
  hr_board_import_read_text (import, "NVIDIA GeForce RTX 3090, 24576, 1234\nMemTotal: 65776232 kB\nGPU: one big card\n");
  g_assert_true (g_str_has_prefix (hr_board_import_get_status (import),
                                   "No board was made: line 3: cannot read \"GPU: one big card\": not the output of nvidia-smi"));
  g_assert_null (hr_board_import_get_board (import));
  g_assert_false (hr_board_import_get_complete (import));
  g_assert_cmpstr (hr_board_import_get_read_text (import), ==, "");

  /* What was read, and what no tool printed (pasted into the text view, as a person does) */
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (find_type (GTK_WIDGET (import), GTK_TYPE_TEXT_VIEW))),
                            paste, -1);
  hr_board_import_read_text (import, paste);
  g_assert_true (g_str_has_prefix (hr_board_import_get_read_text (import),
                                   "nvidia-smi: NVIDIA GeForce RTX 3090, memory.total 24,576 MiB, memory.used 1,234 MiB\n"
                                   "nvidia-smi: NVIDIA GeForce RTX 3060, memory.total 12,288 MiB, memory.used 210 MiB\n"
                                   "/proc/meminfo: MemTotal "));
  g_assert_true (g_str_has_prefix (hr_board_import_get_confirm_text (import),
                                   "• GPU 1 (NVIDIA GeForce RTX 3060): memory bandwidth not read (no tool prints it)"));
  g_assert_nonnull (strstr (hr_board_import_get_confirm_text (import), "\n• host memory bandwidth not read"));
  g_assert_true (g_str_has_prefix (hr_board_import_get_status (import), "Not complete, so not saved yet: "));
  g_assert_false (hr_board_import_get_complete (import));
  g_assert_cmpfloat (gtk_spin_button_get_value (hr_board_import_get_bandwidth_spin (import, 0)), ==, 936.0);
  g_assert_cmpfloat (gtk_spin_button_get_value (hr_board_import_get_bandwidth_spin (import, 1)), ==, 0.0);
  g_assert_false (hr_board_import_save (import, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_clear_error (&error);
  g_assert_null (hr_session_find_board (hr_scenario_get_session (scenario), "imported-board"));

  /* Given both bandwidths, it is complete: only the reserve is left to confirm */
  gtk_spin_button_set_value (hr_board_import_get_bandwidth_spin (import, 1), 360);
  gtk_spin_button_set_value (hr_board_import_get_bandwidth_spin (import, G_MAXUINT), 51.2);
  g_assert_true (hr_board_import_get_complete (import));
  g_assert_cmpstr (hr_board_import_get_status (import), ==,
                   "Complete: Save Board puts it into your boards file as “imported-board” and selects it.");
  g_assert_cmpstr (hr_board_import_get_confirm_text (import), ==,
                   "• reserve: 0.5 GB on each GPU and 2 GB of host memory held back are Headroom's assumptions");
  save_shot (GTK_WIDGET (import), "board-import.png");
  if (g_getenv ("HR_TEST_SHOTS") != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (import), 360, 760);
      spin (300);
      save_shot (GTK_WIDGET (import), "board-import-360.png");
    }
  g_object_ref (import);
  g_assert_true (hr_board_import_save (import, &error));
  g_assert_no_error (error);
  spin (100);
  g_assert_finalize_object (import);
  g_assert_cmpstr (hr_scenario_get_board_id (scenario), ==, "imported-board");
  board = hr_scenario_get_board (scenario);
  g_assert_cmpuint (hr_board_n_devices (board), ==, 2);
  g_assert_cmpfloat (((HrDevice *) g_ptr_array_index (board->devices, 1))->bandwidth_bytes_per_s, ==, 360e9);
  hr_scenario_set_board_id (scenario, "jetson-orin-nano-super");
  close_window (window);
}

/* "Detect This Computer" runs the detection in a thread: with no tool on
 * PATH (and no amdgpu memory file) it says what is missing and makes no
 * board; with a fake nvidia-smi printing the two-GPU fixture it reads
 * both GPUs. */
static void
test_board_import_detect (void)
{
  HrWindow *window = open_window (1280, 800);
  HrScenario *scenario = hr_page_get_scenario (HR_PAGE (hr_window_get_models_page (window)));
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *empty = g_dir_make_tmp ("headroom-path-XXXXXX", NULL);
  g_autofree char *fixture = g_build_filename (g_getenv ("HEADROOM_SOURCE_DIR"), "tests", "fixtures", "hardware",
                                               "nvidia-smi-2gpu.txt", NULL);
  g_autofree char *tools = g_dir_make_tmp ("headroom-tools-XXXXXX", NULL);
  g_autofree char *tool = g_build_filename (tools, "nvidia-smi", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\n/bin/cat '%s'\n", fixture);
  GtkWidget *import;

  if (g_file_test ("/sys/class/drm/card0/device/mem_info_vram_total", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("this machine has an amdgpu DRM memory file");
      close_window (window);
      return;
    }
  g_setenv ("PATH", empty, TRUE);
  import = g_object_ref (hr_board_import_new (GTK_WINDOW (window), scenario, HR_BOARD_IMPORT_DETECT));
  gtk_window_present (GTK_WINDOW (import));
  g_assert_true (iterate_until (import_done, import, 10000));
  g_assert_cmpstr (hr_board_import_get_status (HR_BOARD_IMPORT (import)), ==,
                   "No board was made: no GPU found: not there on this computer: nvidia-smi, amd-smi, rocm-smi, "
                   "/sys/class/drm/card*/device/mem_info_vram_total, vulkaninfo (only /proc/meminfo was read). "
                   "Run Headroom on the computer with the GPUs, or paste its tools' output into Import from Text…");
  g_assert_null (hr_board_import_get_board (HR_BOARD_IMPORT (import)));
  gtk_window_destroy (GTK_WINDOW (import));
  spin (50);
  g_assert_finalize_object (import);

  g_assert_true (g_file_set_contents (tool, script, -1, NULL));
  g_assert_cmpint (g_chmod (tool, 0755), ==, 0);
  g_setenv ("PATH", tools, TRUE);
  import = g_object_ref (hr_board_import_new (GTK_WINDOW (window), scenario, HR_BOARD_IMPORT_DETECT));
  gtk_window_present (GTK_WINDOW (import));
  g_assert_true (iterate_until (import_done, import, 10000));
  g_setenv ("PATH", old_path, TRUE);
  g_assert_true (g_str_has_prefix (hr_board_import_get_read_text (HR_BOARD_IMPORT (import)),
                                   "nvidia-smi: NVIDIA GeForce RTX 3090, memory.total 24,576 MiB, memory.used 1,234 MiB\n"
                                   "nvidia-smi: NVIDIA GeForce RTX 3060, memory.total 12,288 MiB, memory.used 210 MiB\n"));
  g_assert_cmpuint (hr_board_n_devices (hr_board_import_get_board (HR_BOARD_IMPORT (import))), ==, 2);
  g_assert_cmpstr (hr_board_import_get_board (HR_BOARD_IMPORT (import))->id, ==, "this-computer");
  g_assert_false (hr_board_import_get_complete (HR_BOARD_IMPORT (import)));
  gtk_window_destroy (GTK_WINDOW (import));
  spin (50);
  g_assert_finalize_object (import);

  g_assert_cmpint (g_remove (tool), ==, 0);
  g_assert_cmpint (g_rmdir (tools), ==, 0);
  g_assert_cmpint (g_rmdir (empty), ==, 0);
  close_window (window);
}

/* With HR_TEST_SHOTS set: the window on the 2 x RTX 3090 preset with
 * llama3.1:70b selected (searched for, so the table does not scroll), at
 * 1280 and 360 px wide, light and dark, for a person to look at. */
static void
test_window_devices_shots (void)
{
  static const struct { int width, height; gboolean dark; const char *name; } shots[] = {
    { 1280, 800, FALSE, "window-2x3090-1280-light.png" },
    { 1280, 800, TRUE, "window-2x3090-1280-dark.png" },
    { 360, 1400, FALSE, "window-2x3090-360-light.png" },
    { 360, 1400, TRUE, "window-2x3090-360-dark.png" },
  };
  AdwStyleManager *style = adw_style_manager_get_default ();

  if (g_getenv ("HR_TEST_SHOTS") == NULL)
    {
      g_test_skip ("HR_TEST_SHOTS is not set");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (shots); i++)
    {
      HrWindow *window = open_window (shots[i].width, shots[i].height);
      HrModelsPage *page = hr_window_get_models_page (window);
      HrScenario *scenario = hr_page_get_scenario (HR_PAGE (page));
      HrModelRow *row;

      adw_style_manager_set_color_scheme (style, shots[i].dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                                               : ADW_COLOR_SCHEME_FORCE_LIGHT);
      hr_scenario_set_board_id (scenario, "2x-rtx-3090");
      hr_scenario_set_context_tokens (scenario, 8192);
      gtk_editable_set_text (hr_models_page_get_search_entry (page), "llama3.1:70b");
      spin (500);
      row = hr_models_page_find_row (page, "llama3.1:70b");
      g_assert_nonnull (row);
      hr_models_page_select_row (page, row);
      spin (500);
      save_shot (GTK_WIDGET (window), shots[i].name);
      {
        g_autofree char *pool_name = g_strdup_printf ("pool-%s", shots[i].name);
        g_autofree char *explain_name = g_strdup_printf ("explain-%s", shots[i].name);
        g_autofree char *open_name = g_strdup_printf ("explain-open-%s", shots[i].name);

        if (gtk_widget_get_mapped (GTK_WIDGET (hr_models_page_get_pool_chart (page))))
          save_shot (GTK_WIDGET (hr_models_page_get_pool_chart (page)), pool_name);
        adw_flap_set_reveal_flap (hr_models_page_get_explain_flap (page), TRUE);
        spin (500);
        if (shots[i].width == 360)
          save_shot (GTK_WIDGET (window), open_name);
        /* the explain panel scrolled to its per-GPU figures */
        {
          GtkWidget *panel = GTK_WIDGET (hr_models_page_get_explain_panel (page));
          GtkWidget *heading = find_with (panel, GTK_TYPE_LABEL, "label", "Each GPU");
          GtkWidget *scrolled = gtk_widget_get_ancestor (panel, GTK_TYPE_SCROLLED_WINDOW);
          graphene_point_t at;

          g_assert_nonnull (heading);
          g_assert_true (gtk_widget_get_visible (heading));
          g_assert_true (gtk_widget_compute_point (heading, panel, &GRAPHENE_POINT_INIT (0, 0), &at));
          gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)), at.y - 40);
          spin (300);
          save_shot (GTK_WIDGET (window), explain_name);
        }
      }
      gtk_editable_set_text (hr_models_page_get_search_entry (page), "");
      if (shots[i].width == 1280)
        {
          /* every model, the memory chart scrolled down: its legend stays at the top */
          GtkWidget *chart = GTK_WIDGET (hr_models_page_get_memory_chart (page));
          GtkWidget *scrolled = gtk_widget_get_ancestor (chart, GTK_TYPE_SCROLLED_WINDOW);
          g_autofree char *scrolled_name = g_strdup_printf ("scrolled-%s", shots[i].name);

          adw_flap_set_reveal_flap (hr_models_page_get_explain_flap (page), FALSE);
          spin (500);
          gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)), 300);
          spin (300);
          save_shot (GTK_WIDGET (window), scrolled_name);
        }
      hr_scenario_set_board_id (scenario, "jetson-orin-nano-super");
      close_window (window);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED | GUI_TEST_ENVIRONMENT_LOCALE);
  g_test_add_func ("/device-editor/edit-save-remove", test_device_editor);
  g_test_add_func ("/device-editor/shot", test_device_editor_shot);
  g_test_add_func ("/device-editor/detect", test_board_import_detect);
  g_test_add_func ("/device-editor/import", test_board_import_paste);
  g_test_add_func ("/device-editor/window-shots", test_window_devices_shots);
  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &isolated_root);
}
