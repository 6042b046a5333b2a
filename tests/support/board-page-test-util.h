/* board-page-test-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Board page's window tests share (test-board-page.c,
 * test-board-faults.c): the real HrApplication with a fresh temporary
 * home, the page opened in its window against the fake Ollama
 * (tests/fake-ollama.h), and finding rows, labels and dialogs in it. In
 * the test-support library (tests/support/board-page-test-util.c), which
 * those tests link besides gui-test-util.h's.
 */
#pragma once

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "fake-ollama.h"
#include "hr-application.h"
#include "hr-board-chooser.h"
#include "hr-board-page-private.h"
#include "hr-window-private.h"
#include "gui-test-util.h"

G_BEGIN_DECLS

/* One Board page test's window: open_page() fills it, close_page()
 * releases it. */
typedef struct {
  FakeOllama   *fake;       /* the fake Ollama the page talks to */
  HrWindow     *window;     /* the window, one reference of the test's */
  HrSession    *session;    /* the application's session */
  HrScenario   *scenario;   /* the application's scenario */
  HrBoardPage  *page;       /* the window's Board page, shown */
  guint         expected;   /* free for a test's own count */
} Fixture;

/* The page's connection (_hr_board_page_get_connection()). */
HrBoardConnection *conn                 (HrBoardPage   *page);
/* The page's pull panel (_hr_board_page_get_pull_panel()). */
HrPullPanel       *pull                 (HrBoardPage   *page);

/* Conditions for iterate_until(): @data the widget, page, session or
 * fake each names. */
/* TRUE when the widget @data is mapped and has a width. */
gboolean           page_is_drawn        (gpointer       data);
/* TRUE when the HrBoardPage @data's connection is not busy. */
gboolean           page_is_idle         (gpointer       data);
/* TRUE when the HrSession @data has loaded its files. */
gboolean           session_loaded       (gpointer       data);
/* TRUE when the Fixture @data's page asks for the server's board, its
 * connection is not connected, or the session remembers a board for its
 * server. */
gboolean           chooser_or_saved     (gpointer       data);
/* TRUE when the FakeOllama @data has no stream open. */
gboolean           no_streams           (gpointer       data);
/* TRUE when a message dialog is shown (find_dialog()). */
gboolean           dialog_shown         (gpointer       data);

/* Closes the shared state of cases (gui_test_unshare()), then opens
 * the Board page in the application's window against a new fake
 * Ollama with llama3.2 (fake_ollama_add_llama32()), the user's Headroom
 * data removed, settings reset to a 1100×900 window, the seed's plain
 * math, no keyring; waits up to 10 s for the session, 5 s for the page. */
void               open_page            (Fixture       *f);
/* Answers the board chooser, where the page shows one (a server without a
 * remembered board), with the board the Models page shows; waits up to
 * 5 s for it or for the connection to end otherwise. */
void               answer_board_chooser (Fixture       *f);
/* Connects the page to @url, waits up to 10 s for it to finish, and
 * answers the board chooser. */
void               connect_page         (Fixture       *f,
                                         const char    *url);
/* Destroys the window, asserts it is finalized and that every stream the
 * page started closed within 5 s, and frees the fake. */
void               close_page           (Fixture       *f);

/* Every widget of @type at or under @root, depth first, appended to @out. */
void               collect              (GtkWidget     *root,
                                         GType          type,
                                         GPtrArray     *out);
/* The action row under @root titled @title, or NULL. */
AdwActionRow      *find_row             (GtkWidget     *root,
                                         const char    *title);
/* The message dialog shown, if any (the first visible toplevel that is
 * one), or NULL. */
AdwMessageDialog  *find_dialog          (void);
/* Types @text into the page's entry row whose title starts with @title;
 * asserts there is one. */
void               set_entry            (HrBoardPage   *page,
                                         const char    *title,
                                         const char    *text);
/* Sets the one spin button in the page's action row @row_title to @value;
 * asserts there is exactly one. */
void               set_spin             (HrBoardPage   *page,
                                         const char    *row_title,
                                         double         value);
/* The window's last message (hr_window_get_messages()), or NULL. */
const char        *last_message         (HrWindow      *window);
/* Every label's text under @root, in order; (transfer container). */
GPtrArray         *label_texts          (GtkWidget     *root);
/* Whether a label under @root has exactly @text. */
gboolean           has_label            (GtkWidget     *root,
                                         const char    *text);

/* In place of g_test_init(): the environment a Board page test wants
 * (GTK_A11Y=test, the cairo renderer, no OLLAMA_HOST), then
 * gui_test_init()'s user folders, HOME too, in the environment's locale,
 * with the build's translations for a German screenshot (LANGUAGE=de).
 * open_page() empties the user's Headroom data per test. */
void               board_test_setup     (int           *argc,
                                         char        ***argv);
/* After the tests are added: runs them in the real application, then
 * removes the temporary home.
 *
 * Returns: g_test_run()'s result, for main() to return. */
int                board_test_run       (void);

G_END_DECLS
