/* gui-test-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What every window test needs: its main()'s set-up and clean-up (user
 * folders of its own, GTK and libadwaita started, the application
 * registered), running the main loop until something is true, a window's
 * pages built after its first frame, settings back to their defaults,
 * removing a test's own folders, and finding a control by the title of its
 * row. In the test-support library (tests/support/), which the GUI tests
 * link; its waits are hr_test_wait_until()'s (hr-test-wait.h).
 */
#pragma once

#include <adwaita.h>

#include "hr-application.h"
#include "hr-test-wait.h"

G_BEGIN_DECLS

/* What gui_test_init() does besides the default; OR them together. */
typedef enum {
  GUI_TEST_DEFAULT            = 0,
  /* Headroom's text domain bound to the build's translations
   * (HEADROOM_LOCALE_DIR, which meson test sets to the build's po/; else
   * the installed LOCALEDIR), so that a test switches to German with
   * LANGUAGE=de. */
  GUI_TEST_TRANSLATED         = 1 << 0,
  /* HOME too is the run's temporary folder (for what reads ~ directly). */
  GUI_TEST_HOME               = 1 << 1,
  /* g_test_init() and gtk_init(), which keep the environment's locale
   * (LC_ALL=C.UTF-8 under meson test), instead of gtk_test_init(), which
   * sets en_US.UTF-8 (and stays in "C" where that is not installed). */
  GUI_TEST_ENVIRONMENT_LOCALE = 1 << 2,
} GuiTestFlags;

/* Waiting on the main context (hr_test_wait_until()) */
gboolean           iterate_until          (gboolean         (*done) (gpointer),
                                           gpointer           data,
                                           guint              timeout_ms);
void               spin                   (guint              ms);

/* The window and its widgets */
gboolean           widget_is_drawn        (gpointer           widget);
void               gui_test_save_png      (GtkWidget         *widget,
                                           const char        *path);
gboolean           window_pages_built     (gpointer           window);
gboolean           wait_for_window_pages  (GtkWidget         *window,
                                           guint              timeout_ms);
GtkWidget         *find_descendant        (GtkWidget         *root,
                                           GType              type);
AdwPreferencesRow *find_titled_row        (GtkWidget         *root,
                                           const char        *title);

/* A window test's main(): set-up, settings, folders, clean-up */
char              *gui_test_init          (int               *argc,
                                           char            ***argv,
                                           GuiTestFlags       flags);
HrApplication     *gui_test_app_new       (void);
int                gui_test_run_and_clean (HrApplication    **app,
                                           char             **root);
void               use_seed_runtime       (void);
void               reset_settings         (int                width,
                                           int                height);
void               remove_tree            (const char        *path);

G_END_DECLS
