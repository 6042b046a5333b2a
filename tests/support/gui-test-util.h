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

/* Cases that share one costly set-up (a window opened, a scenario
 * applied) instead of each making its own: a case's fixture set-up asks
 * gui_test_is_shared() whether its group's state is there (the case
 * before was of the same group); where not, it calls gui_test_unshare()
 * (which closes the previous group's), builds the state and records it
 * with gui_test_share(). gui_test_run_and_clean() closes the last. Each
 * case still runs alone (-p): its set-up builds what it needs. */
typedef void     (*GuiTestClose)          (void);
gboolean           gui_test_is_shared     (const char        *group);
void               gui_test_share         (const char        *group,
                                           GuiTestClose       close);
void               gui_test_unshare       (void);

/* A story: cases that are its steps, in order, on one shared state (a
 * window a person goes on using). gui_test_story_add() adds a case per
 * step; each case's set-up brings the shared fixture to its step and
 * copies it into the case's, its tear-down copies it back. Where an earlier step did not run on that
 * state (a case run alone with -p, or a step run again), the state is
 * opened afresh and the steps before it run first, assertions and all.
 * A case's fixture is a copy: what a signal or callback is to write must
 * live outside it (a static, or memory the fixture points to). */
typedef struct {
  const char       *path;   /* the case's test path */
  GTestFixtureFunc  run;    /* its body; its data is not for it to read */
} GuiTestStep;

typedef struct {
  const char        *group;          /* its name, for gui_test_share() */
  void             (*open) (gpointer fixture);  /* opens the shared fixture */
  GuiTestClose       close;          /* closes it */
  const GuiTestStep *steps;          /* in order */
  guint              n_steps;
  gpointer           fixture;        /* the shared fixture */
  gsize              fixture_size;   /* its size, each case's fixture's */
  guint              done;           /* steps begun on the open state */
} GuiTestStory;

void               gui_test_story_add     (GuiTestStory      *story);

G_END_DECLS
