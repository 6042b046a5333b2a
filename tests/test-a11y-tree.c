/* test-a11y-tree.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a screen reader gets: starts the real window (the `headroom`
 * program, HR_HEADROOM_GUI) with GTK's AT-SPI backend on, waits until
 * its Models page shows the catalog, walks its whole accessibility tree
 * over AT-SPI (libatspi, at-spi2-core) and fails on every element a
 * person can reach that has no accessible name, or only its type's
 * name ("GtkListItemWidget", "GtkMenuButton": what GTK 4.8's
 * gtk/a11y/gtkatspicontext.c says for an element without one).
 *
 * Reachable here means: focusable (ATSPI_STATE_FOCUSABLE), clickable
 * (an AT-SPI action named "click", "activate", "toggle" or "press"; GTK
 * also lists the action groups of every widget, such as "clipboard.copy"
 * on each label, which are not the element's own), or a row, a cell, a
 * list item or a page tab, which a screen reader announces as the
 * selection moves over them. Empty labels are left out (is_empty_label()).
 * Before the walk, every page tab is clicked over AT-SPI, so that each
 * page's tree is there to walk, as a person would see each page.
 *
 * Skipped, with the reason, where no AT-SPI bus can be had (no session
 * bus, or no org.a11y.Bus on it: install at-spi2-core and run under
 * dbus-run-session, as build-aux/test does).
 */

#include "config.h"

#include <atspi/atspi.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <string.h>
#ifdef __linux__
#include <signal.h>
#include <sys/prctl.h>
#endif

/* libatspi 2.46 declares no g_autoptr() cleanups of its own. Each of
 * these is a GObject (an AtspiAction is the accessible itself, referenced). */
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtspiAccessible, g_object_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtspiStateSet, g_object_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtspiAction, g_object_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtspiText, g_object_unref)

/* How long the window may take to show the catalog, in seconds: the
 * sanitized build starts many times slower. */
#define WAIT_SECONDS 240

typedef struct {
  guint reachable;
  guint unnamed;
  guint cells;    /* table cells seen: the catalog is built */
  guint rows;     /* the table's rows (a row inside a list) */
  GString *bad_rows; /* rows whose name does not say model, verdict and total */
  GString *report;
} Walk;

/* Removes @path and everything under it. */
static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *entry;

  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, entry, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* Whether the session bus has org.a11y.Bus, which hands out the AT-SPI
 * bus; if not, FALSE with @why set to the reason. */
static gboolean
a11y_bus_available (char **why)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) session = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_autoptr(GVariant) reply = NULL;

  if (session == NULL)
    {
      *why = g_strdup_printf ("no D-Bus session bus (%s): run under dbus-run-session", error->message);
      return FALSE;
    }
  reply = g_dbus_connection_call_sync (session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus",
                                       "GetAddress", NULL, G_VARIANT_TYPE ("(s)"),
                                       G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);
  if (reply == NULL)
    {
      *why = g_strdup_printf ("no AT-SPI bus on the session bus (%s): install at-spi2-core", error->message);
      return FALSE;
    }
  return TRUE;
}

/* What GTK 4.8 names an element that has no name: its GType's name,
 * one word of the toolkit's or the program's prefix. */
static gboolean
is_type_name (const char *name)
{
  static const char * const prefixes[] = { "Gtk", "Adw", "Hr", "Gdk" };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    {
      gsize n = strlen (prefixes[i]);

      if (strncmp (name, prefixes[i], n) == 0 && g_ascii_isupper (name[n]))
        {
          for (const char *c = name + n; *c != '\0'; c++)
            if (!g_ascii_isalnum (*c))
              return FALSE;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
has_own_action (AtspiAccessible *accessible)
{
  g_autoptr(AtspiAction) action = atspi_accessible_get_action_iface (accessible);
  int n;

  if (action == NULL)
    return FALSE;
  n = atspi_action_get_n_actions (action, NULL);
  for (int i = 0; i < n; i++)
    {
      g_autofree char *name = atspi_action_get_action_name (action, i, NULL);

      if (g_strcmp0 (name, "click") == 0 || g_strcmp0 (name, "activate") == 0 ||
          g_strcmp0 (name, "toggle") == 0 || g_strcmp0 (name, "press") == 0)
        return TRUE;
    }
  return FALSE;
}

/* A selectable label with no text yet, such as the title of a page of
 * results that is filled before the page is shown: GTK 4.8 lists it in
 * the tree of a stack's hidden pages (it reports no "showing" state to
 * tell them apart), but it has nothing to say or select, so it is not
 * counted as reachable. A label with text is named by it. */
static gboolean
is_empty_label (AtspiAccessible *accessible,
                AtspiRole        role)
{
  g_autoptr(AtspiText) text = NULL;

  if (role != ATSPI_ROLE_LABEL)
    return FALSE;
  text = atspi_accessible_get_text_iface (accessible);
  return text != NULL && atspi_text_get_character_count (text, NULL) == 0;
}

static gboolean
is_announced_role (AtspiRole role)
{
  return role == ATSPI_ROLE_TABLE_ROW || role == ATSPI_ROLE_TABLE_CELL ||
         role == ATSPI_ROLE_LIST_ITEM || role == ATSPI_ROLE_TREE_ITEM ||
         role == ATSPI_ROLE_PAGE_TAB;
}

/* Walks @accessible and what is under it. @path is the roles from the
 * window down, each with the nearest name above it in brackets. */
static void
walk (AtspiAccessible *accessible,
      AtspiRole        parent_role,
      const char      *path,
      Walk            *w)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = atspi_accessible_get_name (accessible, &error);
  g_autofree char *role_name = NULL;
  g_autoptr(AtspiStateSet) states = NULL;
  g_autofree char *here = NULL;
  AtspiRole role;
  gboolean named;
  int n;

  if (name == NULL)
    return; /* gone while we walked */
  role = atspi_accessible_get_role (accessible, NULL);
  role_name = atspi_accessible_get_role_name (accessible, NULL);
  states = atspi_accessible_get_state_set (accessible);
  named = name[0] != '\0' && !is_type_name (name);
  here = named ? g_strdup_printf ("%s/%s '%s'", path, role_name, name)
               : g_strdup_printf ("%s/%s", path, role_name);

  if (role == ATSPI_ROLE_TABLE_CELL)
    w->cells++;
  /* A row of the Models table says its model, its verdict and its total:
   * "qwen2.5:7b, fits 0.17 GB, total 4.93 GB" (hr-catalog-view.c). */
  if (role == ATSPI_ROLE_TABLE_ROW && parent_role == ATSPI_ROLE_LIST)
    {
      w->rows++;
      if (!g_regex_match_simple ("^[^,]+, (fits|tight|partial|over) .+, total [0-9.]+ [KMGT]?i?B$",
                                 name, 0, 0))
        g_string_append_printf (w->bad_rows, "  '%s'\n", name);
    }
  if ((atspi_state_set_contains (states, ATSPI_STATE_FOCUSABLE) ||
       is_announced_role (role) || has_own_action (accessible)) &&
      !is_empty_label (accessible, role))
    {
      w->reachable++;
      if (!named)
        {
          w->unnamed++;
          g_string_append_printf (w->report, "  %s (named '%s'): %s\n", role_name, name, here);
        }
    }

  n = atspi_accessible_get_child_count (accessible, NULL);
  for (int i = 0; i < n; i++)
    {
      g_autoptr(AtspiAccessible) child = atspi_accessible_get_child_at_index (accessible, i, NULL);

      if (child != NULL)
        walk (child, role, named ? here : path, w);
    }
}

/* Whether there is a table cell at or under @accessible: the catalog's
 * rows are bound. Stops at the first, so that waiting for the page costs
 * less than a walk. */
static gboolean
has_table_cell (AtspiAccessible *accessible)
{
  int n;

  if (atspi_accessible_get_role (accessible, NULL) == ATSPI_ROLE_TABLE_CELL)
    return TRUE;
  n = atspi_accessible_get_child_count (accessible, NULL);
  for (int i = 0; i < n; i++)
    {
      g_autoptr(AtspiAccessible) child = atspi_accessible_get_child_at_index (accessible, i, NULL);

      if (child != NULL && has_table_cell (child))
        return TRUE;
    }
  return FALSE;
}

/* Every page tab (the view switcher's, with a "click" action) under
 * @accessible, into @tabs. */
static void
collect_tabs (AtspiAccessible *accessible,
              GPtrArray       *tabs)
{
  int n;

  if (atspi_accessible_get_role (accessible, NULL) == ATSPI_ROLE_PAGE_TAB && has_own_action (accessible))
    g_ptr_array_add (tabs, g_object_ref (accessible));
  n = atspi_accessible_get_child_count (accessible, NULL);
  for (int i = 0; i < n; i++)
    {
      g_autoptr(AtspiAccessible) child = atspi_accessible_get_child_at_index (accessible, i, NULL);

      if (child != NULL)
        collect_tabs (child, tabs);
    }
}

/* The application @pid shows on the AT-SPI desktop, or NULL. */
static AtspiAccessible *
find_application (GPid pid)
{
  g_autoptr(AtspiAccessible) desktop = atspi_get_desktop (0);
  int n = atspi_accessible_get_child_count (desktop, NULL);

  for (int i = 0; i < n; i++)
    {
      g_autoptr(AtspiAccessible) app = atspi_accessible_get_child_at_index (desktop, i, NULL);

      if (app != NULL && (GPid) atspi_accessible_get_process_id (app, NULL) == pid)
        return g_steal_pointer (&app);
    }
  return NULL;
}

static void
pump (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (20000);
    }
}

#ifdef __linux__
static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}
#endif

/* What one run of the window gave: the walk of its tree, made once by
 * the first case (walk_window()) and read by every case. */
static struct {
  gboolean  done;
  char     *skip;      /* (nullable): why there is no AT-SPI bus */
  gboolean  shown;     /* the window showed on the AT-SPI bus */
  Walk      w;
} run;

/* Starts the window with the AT-SPI backend and its own user folders
 * under @home. */
static GSubprocess *
launch_window (const char *home)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = g_build_filename (home, "data", NULL);
  g_autofree char *config = g_build_filename (home, "config", NULL);
  g_autofree char *cache = g_build_filename (home, "cache", NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  GSubprocess *window;

  /* The AT-SPI backend, which the other window tests turn off. */
  g_subprocess_launcher_setenv (launcher, "GTK_A11Y", "atspi", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "NO_AT_BRIDGE");
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", data, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", config, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", cache, TRUE);
#ifdef __linux__
  /* The window goes when this test does, even when it fails. */
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
#endif
  window = g_subprocess_launcher_spawn (launcher, &error, HR_HEADROOM_GUI, NULL);
  g_assert_no_error (error);
  return window;
}

/* The window's application on the bus once its Models page is built,
 * when its table has cells (the window builds its pages after its first
 * frame, hr-window.c); NULL where it never showed, @cells 0 where
 * its table did not within WAIT_SECONDS. */
static AtspiAccessible *
wait_for_table (GSubprocess *window,
                guint       *cells)
{
  GPid pid = (GPid) g_ascii_strtoll (g_subprocess_get_identifier (window), NULL, 10);
  gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;
  AtspiAccessible *app = NULL;

  *cells = 0;
  while (g_get_monotonic_time () < deadline)
    {
      if (g_subprocess_get_identifier (window) == NULL)
        g_error ("%s exited before its window was shown", HR_HEADROOM_GUI);
      if (app == NULL)
        app = find_application (pid);
      if (app != NULL && has_table_cell (app))
        {
          *cells = 1;
          break;
        }
      pump (500);
    }
  return app;
}

/* Every page, shown once through its tab as a person would (GTK shows a
 * page's tree once it has been shown), then the Models page again. */
static void
show_every_page (AtspiAccessible *app)
{
  g_autoptr(GPtrArray) tabs = g_ptr_array_new_with_free_func (g_object_unref);

  collect_tabs (app, tabs);
  for (guint i = 0; i <= tabs->len && tabs->len > 0; i++)
    {
      AtspiAccessible *tab = g_ptr_array_index (tabs, i % tabs->len);
      g_autoptr(AtspiAction) action = atspi_accessible_get_action_iface (tab);
      int n = action != NULL ? atspi_action_get_n_actions (action, NULL) : 0;

      for (int a = 0; a < n; a++)
        {
          g_autofree char *name = atspi_action_get_action_name (action, a, NULL);

          if (g_strcmp0 (name, "click") == 0)
            atspi_action_do_action (action, a, NULL);
        }
      pump (1000);
    }
  g_test_message ("%u page tabs shown", tabs->len);
}

/* The run, once: the window started, every page shown, the whole tree
 * walked, the window gone. */
static void
walk_window (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = NULL;
  g_autoptr(GSubprocess) window = NULL;
  g_autoptr(AtspiAccessible) app = NULL;

  if (run.done)
    return;
  run.done = TRUE;
  if (!a11y_bus_available (&run.skip))
    return;
  if (atspi_init () > 1)
    {
      run.skip = g_strdup ("libatspi could not reach the AT-SPI bus");
      return;
    }
  home = g_dir_make_tmp ("headroom-a11y-XXXXXX", &error);
  g_assert_no_error (error);
  window = launch_window (home);
  app = wait_for_table (window, &run.w.cells);
  run.shown = app != NULL;
  if (run.w.cells > 0)
    {
      show_every_page (app);
      /* Settle: the last page shown has its rows bound before the walk. */
      pump (1000);
      run.w = (Walk) { .cells = run.w.cells, .report = g_string_new (NULL), .bad_rows = g_string_new (NULL) };
      walk (app, ATSPI_ROLE_INVALID, "", &run.w);
    }
  g_subprocess_force_exit (window);
  g_subprocess_wait (window, NULL, NULL);
  remove_tree (home);
}

/* TRUE where the run has a walk to read; else the case is skipped. */
static gboolean
walked (void)
{
  walk_window ();
  if (run.skip != NULL)
    {
      g_test_skip (run.skip);
      return FALSE;
    }
  return TRUE;
}

/* The window shows on the bus, its Models page's table within WAIT_SECONDS. */
static void
test_window_shows_table (void)
{
  if (!walked ())
    return;
  if (!run.shown)
    g_error ("%s never showed on the AT-SPI bus", HR_HEADROOM_GUI);
  if (run.w.cells == 0)
    g_error ("the Models page showed no table cells within %d s", WAIT_SECONDS);
  g_test_message ("%u reachable elements, %u without a name; %u table rows",
                  run.w.reachable, run.w.unnamed, run.w.rows);
}

static void
test_every_reachable_element_named (void)
{
  if (!walked ())
    return;
  g_assert_cmpuint (run.w.cells, >, 0);
  if (run.w.unnamed > 0)
    g_printerr ("%u of %u reachable elements have no accessible name:\n%s",
                run.w.unnamed, run.w.reachable, run.w.report->str);
  g_assert_cmpuint (run.w.reachable, >, 100);
  g_assert_cmpuint (run.w.unnamed, ==, 0);
}

/* Each row of the Models table says model, verdict and total. */
static void
test_table_rows_described (void)
{
  if (!walked ())
    return;
  g_assert_cmpuint (run.w.cells, >, 0);
  if (run.w.bad_rows->len > 0)
    g_printerr ("Rows of the Models table that do not say model, verdict and total:\n%s", run.w.bad_rows->str);
  g_assert_cmpuint (run.w.rows, >, 0);
  g_assert_cmpuint (run.w.bad_rows->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  int result;

  g_test_init (&argc, &argv, NULL);
  /* libatspi warns (domain "dbind", through structured logging, which
   * g_test_log_set_fatal_handler() does not see) that GTK 4.8 answers no
   * GetItems on /org/a11y/atspi/cache, an interface GTK does not
   * implement: the tree is walked without that cache. Warnings in this
   * process are libatspi's alone (the window's are its own process's),
   * so here only criticals stay fatal. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  g_test_add_func ("/a11y/window-shows-table", test_window_shows_table);
  g_test_add_func ("/a11y/every-reachable-element-named", test_every_reachable_element_named);
  g_test_add_func ("/a11y/table-rows-described", test_table_rows_described);
  result = g_test_run ();
  if (run.w.report != NULL)
    g_string_free (run.w.report, TRUE);
  if (run.w.bad_rows != NULL)
    g_string_free (run.w.bad_rows, TRUE);
  g_free (run.skip);
  /* libatspi's connection and its cache of the window's objects. */
  atspi_exit ();
  return result;
}
