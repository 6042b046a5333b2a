/* gui-test-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every window test needs (gui-test-util.h), in the test-support
 * library the GUI tests link.
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"

static GLogWriterOutput gtk_4_8_scroll_is_not_fatal (GLogLevelFlags   log_level,
                                                     const GLogField *fields,
                                                     gsize            n_fields,
                                                     gpointer         user_data);

/* Runs the default main context until @done returns TRUE or @timeout_ms
 * passes (hr_test_wait_until(): blocking between events, no busy wait);
 * with @done NULL, just runs it for @timeout_ms. */
gboolean
iterate_until (gboolean (*done) (gpointer),
               gpointer   data,
               guint      timeout_ms)
{
  return hr_test_wait_until (done, data, timeout_ms);
}

void
spin (guint ms)
{
  hr_test_spin (ms);
}

gboolean
widget_is_drawn (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

/* Writes @widget as drawn to the PNG file @path, for a person to look at
 * (the screenshot runs); right after a style change the widget may not
 * have drawn yet, so its snapshot is retried for up to 5 s. */
void
gui_test_save_png (GtkWidget  *widget,
                   const char *path)
{
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  for (guint tries = 0; node == NULL && tries < 50; tries++)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      gdk_paintable_snapshot (paintable, snapshot, bounds.size.width, bounds.size.height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node == NULL)
        spin (100);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &bounds);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

gboolean
window_pages_built (gpointer window)
{
  gboolean built = FALSE;

  g_object_get (window, "pages-built", &built, NULL);
  return built;
}

/* Waits until @window (a HrWindow) has built its pages, which it does in
 * an idle after its first painted frame (HrWindow:pages-built), without
 * asking for a page (which would build them at once). */
gboolean
wait_for_window_pages (GtkWidget *window,
                       guint      timeout_ms)
{
  return iterate_until (window_pages_built, window, timeout_ms);
}

/* Every key of the app's schema back to its default, and the window at
 * @width x @height. */
void
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

/* The seed's plain math (weights + KV cache) as the runtime, for tests
 * whose figures are the seed's tables: the window's default is the
 * runtime prediction (the board's server era; test-runtime-view.c checks
 * it). */
void
use_seed_runtime (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  g_assert_true (g_settings_set_string (settings, "runtime", "seed"));
}

/* Removes @path and, for a folder, everything under it. */
void
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


/* In place of g_test_init() at the top of a window test's main(), after
 * the test's own environment variables (GTK_A11Y, GSK_RENDERER, ...):
 * with @flags, binds the translations; makes the run's own temporary
 * folder, headroom-PROGRAM-XXXXXX, and points XDG_DATA_HOME,
 * XDG_CONFIG_HOME, XDG_CACHE_HOME and XDG_STATE_HOME at its data, config,
 * cache and state folders before GLib reads them; then starts GLib's test
 * framework, GTK and libadwaita. Not G_TEST_OPTION_ISOLATE_DIRS: it also
 * empties XDG_DATA_DIRS, which hides the shared MIME database that GTK
 * needs to load its SVG icons, GLib 2.74 drops the directory lists it
 * replaces for each test (leaks no suppression can name without full
 * stack unwinding), and gtk_test_init() ignores the option anyway.
 * g_error()s where the folder cannot be made.
 *
 * Returns: (transfer full): the temporary folder's path, for
 * gui_test_run_and_clean() to remove. */
char *
gui_test_init (int          *argc,
               char       ***argv,
               GuiTestFlags  flags)
{
  static const char * const dirs[][2] = {
    { "XDG_DATA_HOME", "data" }, { "XDG_CONFIG_HOME", "config" },
    { "XDG_CACHE_HOME", "cache" }, { "XDG_STATE_HOME", "state" },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *program = g_path_get_basename (*argc > 0 ? (*argv)[0] : "test");
  g_autofree char *template = g_strdup_printf ("headroom-%s-XXXXXX", program);
  char *root;

  if (flags & GUI_TEST_TRANSLATED)
    {
      const char *locale_dir = g_getenv ("HEADROOM_LOCALE_DIR");

      bindtextdomain (GETTEXT_PACKAGE, locale_dir != NULL ? locale_dir : LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }

  root = g_dir_make_tmp (template, &error);
  if (root == NULL)
    g_error ("Could not make a temporary folder for the test's user files: %s", error->message);
  if (flags & GUI_TEST_HOME)
    g_setenv ("HOME", root, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = g_build_filename (root, dirs[i][1], NULL);

      g_mkdir_with_parents (path, 0700);
      g_setenv (dirs[i][0], path, TRUE);
    }

  if (flags & GUI_TEST_ENVIRONMENT_LOCALE)
    {
      g_test_init (argc, argv, NULL);
      gtk_init ();
    }
  else
    gtk_test_init (argc, argv, NULL);
  adw_init ();
  /* Warnings stay fatal, but through the writer below, which lets one
   * GTK 4.8 warning pass (GTK logs structured, past any fatal handler). */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  g_log_set_writer_func (gtk_4_8_scroll_is_not_fatal, NULL, NULL);
  return root;
}

/* The application for the whole run, made and registered once, as the
 * real one is, but G_APPLICATION_NON_UNIQUE so that the test programs
 * meson runs side by side do not reach each other's instance. Its tests
 * g_application_activate() it for a window. g_error()s where it cannot be
 * registered.
 *
 * Returns: (transfer full): the application, for gui_test_run_and_clean()
 * to release. */
/* Every warning stays fatal but one. GTK 4.8's list views warn "failed to
 * scroll to given position" when a selection or focus change asks them to
 * scroll to a row they have not laid out yet (gtk/gtklistbase.c
 * gtk_list_base_scroll_to; a matter of the test machine's timing, seen
 * under the sanitizers' slower runs), and then ignore the request: the
 * window is no worse for it, and the tests assert what they see. */
static GLogWriterOutput
gtk_4_8_scroll_is_not_fatal (GLogLevelFlags   log_level,
                             const GLogField *fields,
                             gsize            n_fields,
                             gpointer         user_data)
{
  const char *domain = NULL, *message = NULL;
  GLogWriterOutput out = g_log_writer_default (log_level, fields, n_fields, user_data);

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_strcmp0 (fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].length < 0)
        domain = fields[i].value;
      else if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0)
        message = fields[i].value;
    }
  if ((log_level & G_LOG_LEVEL_WARNING) &&
      !(g_strcmp0 (domain, "Gtk") == 0 && message != NULL &&
        strstr (message, "failed to scroll to given position") != NULL))
    G_BREAKPOINT ();
  return out;
}

HrApplication *
gui_test_app_new (void)
{
  g_autoptr(GError) error = NULL;
  HrApplication *app = hr_application_new ();

  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("Could not register the application: %s", error->message);
  return app;
}

/* The group whose state the cases share now, and what closes it. */
static const char *shared_group;
static GuiTestClose shared_close;

/* Whether the state of the cases of @group (a static string, compared by
 * its text) is set up: recorded by gui_test_share() and not closed since. */
gboolean
gui_test_is_shared (const char *group)
{
  return shared_group != NULL && g_strcmp0 (shared_group, group) == 0;
}

/* Records that the state of @group's cases is set up, and that @close
 * closes it; closes the state of another group first, where one is
 * shared. @group is kept, not copied. */
void
gui_test_share (const char   *group,
                GuiTestClose  close)
{
  if (!gui_test_is_shared (group))
    gui_test_unshare ();
  shared_group = group;
  shared_close = close;
}

/* Closes the shared state, if any (its group's GuiTestClose), so that a
 * case can set up its own. */
void
gui_test_unshare (void)
{
  GuiTestClose close = shared_close;

  shared_group = NULL;
  shared_close = NULL;
  if (close != NULL)
    close ();
}

/* The stories added (gui_test_story_add()); a case's data is its
 * story's index here and its step's, packed. */
static GuiTestStory *stories[16];
static guint n_stories;

/* Brings @story's shared fixture to the state before step @step: opens
 * it (story->open, then gui_test_share()) where it is not open, or where
 * step @step or one after it has already begun on it, and runs the steps
 * from the first not begun up to @step on it. Step @step counts as begun. */
static void
story_reach (GuiTestStory *story,
             guint         step)
{
  if (gui_test_is_shared (story->group) && story->done > step)
    gui_test_unshare ();
  if (!gui_test_is_shared (story->group))
    {
      gui_test_unshare ();
      memset (story->fixture, 0, story->fixture_size);
      story->open (story->fixture);
      gui_test_share (story->group, story->close);
      story->done = 0;
    }
  while (story->done < step)
    {
      guint i = story->done++;

      story->steps[i].run (story->fixture, NULL);
    }
  story->done = step + 1;
}

static void
story_setup (gpointer      fixture,
             gconstpointer data)
{
  guint packed = GPOINTER_TO_UINT (data);
  GuiTestStory *story = stories[packed >> 16];

  story_reach (story, packed & 0xffff);
  memcpy (fixture, story->fixture, story->fixture_size);
}

/* What the case changed in its copy is the story's from now on. */
static void
story_teardown (gpointer      fixture,
                gconstpointer data)
{
  GuiTestStory *story = stories[GPOINTER_TO_UINT (data) >> 16];

  memcpy (story->fixture, fixture, story->fixture_size);
}

/* Adds a case per step of @story (g_test_add_vtable()), in order, each
 * with a fixture of story->fixture_size bytes that its set-up copies from
 * the shared one at its step and its tear-down copies back (what a step
 * sets in its fixture, the next steps see). @story is kept, not copied; at most 16
 * stories in a test. */
void
gui_test_story_add (GuiTestStory *story)
{
  g_assert_cmpuint (n_stories, <, G_N_ELEMENTS (stories));
  g_assert_cmpuint (story->n_steps, <, 0x10000);
  stories[n_stories] = story;
  for (guint i = 0; i < story->n_steps; i++)
    g_test_add_vtable (story->steps[i].path, story->fixture_size,
                       GUINT_TO_POINTER (n_stories << 16 | i),
                       story_setup, story->steps[i].run, story_teardown);
  n_stories++;
}

/* The end of a window test's main(): runs the tests (g_test_run()),
 * closes the state they shared (gui_test_unshare()), then releases
 * *@app (NULL, or @app NULL, where the test made none) and
 * removes *@root, gui_test_init()'s folder, with all in it, clearing
 * both, so that LeakSanitizer finds nothing of them. Registered, the
 * application stays referenced by its D-Bus exports until a shutdown only
 * g_application_run() performs, so it is not finalized here; the tests
 * check each window it opened with g_assert_finalize_object().
 *
 * Returns: g_test_run()'s result, for main() to return. */
int
gui_test_run_and_clean (HrApplication **app,
                        char          **root)
{
  int result = g_test_run ();

  gui_test_unshare ();

  if (app != NULL)
    g_clear_object (app);
  if (*root != NULL)
    remove_tree (*root);
  g_clear_pointer (root, g_free);
  return result;
}

/* The first widget of @type at or under @root, depth first. */
GtkWidget *
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
AdwPreferencesRow *
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
