/* gui-test-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every window test needs: running the main loop until something is
 * true, a window's pages built after its first frame, settings back to
 * their defaults, removing a test's own folders,
 * and finding a control by the title of its row.
 * Header-only, for the tests in tests/ that include it.
 */
#pragma once

#include <adwaita.h>

/* Iterates the default main context until @done returns TRUE or
 * @timeout_ms passes; with @done NULL, just spins for @timeout_ms. */
static G_GNUC_UNUSED gboolean
iterate_until (gboolean (*done) (gpointer),
               gpointer   data,
               guint      timeout_ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      if (done != NULL && done (data))
        return TRUE;
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
  return done == NULL || done (data);
}

static G_GNUC_UNUSED void
spin (guint ms)
{
  iterate_until (NULL, NULL, ms);
}

static G_GNUC_UNUSED gboolean
widget_is_drawn (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static G_GNUC_UNUSED gboolean
window_pages_built (gpointer window)
{
  gboolean built = FALSE;

  g_object_get (window, "pages-built", &built, NULL);
  return built;
}

/* Waits until @window (a HrWindow) has built its pages, which it does in
 * an idle after its first painted frame (HrWindow:pages-built), without
 * asking for a page (which would build them at once). */
static G_GNUC_UNUSED gboolean
wait_for_window_pages (GtkWidget *window,
                       guint      timeout_ms)
{
  return iterate_until (window_pages_built, window, timeout_ms);
}

/* Every key of the app's schema back to its default, and the window at
 * @width x @height. */
static G_GNUC_UNUSED void
reset_settings (int width,
                int height)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    g_settings_reset (settings, keys[i]);
  g_settings_set_int (settings, "window-width", width);
  g_settings_set_int (settings, "window-height", height);
}

/* Removes @path and, for a folder, everything under it. */
static G_GNUC_UNUSED void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* The first widget of @type at or under @root, depth first. */
static G_GNUC_UNUSED GtkWidget *
find_descendant (GtkWidget *root,
                 GType      type)
{
  if (g_type_is_a (G_OBJECT_TYPE (root), type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The row under @root titled @title, as the .ui file writes it (with its
 * mnemonic underline), or NULL: how a test reaches a control as a person
 * does, by its label, without a getter on the page. */
static G_GNUC_UNUSED AdwPreferencesRow *
find_titled_row (GtkWidget  *root,
                 const char *title)
{
  if (ADW_IS_PREFERENCES_ROW (root) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (root)), title) == 0)
    return ADW_PREFERENCES_ROW (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      AdwPreferencesRow *found = find_titled_row (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}
