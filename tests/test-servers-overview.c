/* test-servers-overview.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Servers page against three saved servers: two fake Ollamas (one with
 * a model loaded) and an address where nothing listens. Every row says
 * what a person needs (board, version, what is left of the budget, or why
 * the server did not answer), the unreachable one holds up none of the
 * others, and Unload unloads.
 */
#include "config.h"

#include <string.h>

#include "fake-ollama.h"
#include "gui-test-util.h"
#include "hr-servers-overview.h"
#include "hr-session.h"

static char *isolated_root;

static gboolean
not_busy (gpointer data)
{
  return !hr_servers_overview_is_busy (data);
}

static GPtrArray *
rows_of (GtkWidget *overview)
{
  GPtrArray *rows = g_ptr_array_new ();
  GtkWidget *list = find_descendant (overview, GTK_TYPE_LIST_BOX);

  for (GtkWidget *c = gtk_widget_get_first_child (list); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (ADW_IS_EXPANDER_ROW (c))
      g_ptr_array_add (rows, c);
  return rows;
}

static gboolean
unloaded (gpointer data)
{
  return !fake_ollama_is_loaded (data, "llama3.2:3b");
}

static void
test_overview (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(HrSession) session = hr_session_new (settings);
  FakeOllama *busy = fake_ollama_new ();
  FakeOllama *idle = fake_ollama_new ();
  g_autofree char *refused = fake_ollama_refused_url ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *overview = hr_servers_overview_new ();
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *busy_subtitle = NULL;
  g_autofree char *idle_subtitle = NULL;
  g_autofree char *refused_prefix = NULL;
  const char *subtitle;

  reset_settings (1100, 900);
  fake_ollama_add_llama32 (busy);
  fake_ollama_load (busy, "llama3.2:3b", 4096);
  fake_ollama_add_llama32 (idle);
  hr_session_load (session);
  hr_session_remember_server (session, fake_ollama_get_url (busy), "rtx-3060-12gb");
  hr_session_remember_server (session, fake_ollama_get_url (idle), "rtx-3060-12gb");
  hr_session_remember_server (session, refused, "dgx-spark");

  hr_servers_overview_set_use_keyring (HR_SERVERS_OVERVIEW (overview), FALSE);
  g_object_set (overview, "session", session, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  gtk_window_set_child (GTK_WINDOW (window), overview);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until (widget_is_drawn, overview, 5000));
  g_assert_true (iterate_until (not_busy, overview, 20000));

  rows = rows_of (overview);
  g_assert_cmpuint (rows->len, ==, 3);
  g_assert_cmpstr (adw_preferences_row_get_title (g_ptr_array_index (rows, 0)), ==, "NVIDIA GeForce RTX 3060 12 GB");
  /* The budget less what /api/ps puts on the GPU: 2,589,139,424 bytes
   * (2.59 GB) loaded on the first, nothing on the second. */
  busy_subtitle = g_strdup_printf ("%s · Ollama 0.31.2 · 1 model loaded · 8.80 GB (8.19 GiB) of the budget free",
                                   fake_ollama_get_url (busy));
  idle_subtitle = g_strdup_printf ("%s · Ollama 0.31.2 · 0 models loaded · 11.38 GB (10.60 GiB) of the budget free",
                                   fake_ollama_get_url (idle));
  g_assert_cmpstr (adw_expander_row_get_subtitle (g_ptr_array_index (rows, 0)), ==, busy_subtitle);
  g_assert_cmpstr (adw_expander_row_get_subtitle (g_ptr_array_index (rows, 1)), ==, idle_subtitle);
  g_assert_true (adw_expander_row_get_enable_expansion (g_ptr_array_index (rows, 0)));
  g_assert_false (adw_expander_row_get_enable_expansion (g_ptr_array_index (rows, 1)));
  subtitle = adw_expander_row_get_subtitle (g_ptr_array_index (rows, 2));
  refused_prefix = g_strdup_printf ("%s · unreachable: nothing is listening at %s", refused, refused);
  g_assert_true (g_str_has_prefix (subtitle, refused_prefix));

  if (g_getenv ("HR_TEST_SHOTS") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), "servers-overview.png", NULL);

      adw_expander_row_set_expanded (g_ptr_array_index (rows, 0), TRUE);
      spin (300);
      gui_test_save_png (window, path);
    }

  /* Unload from the page: the server unloads, and the page asks again. */
  g_assert_true (gtk_widget_activate_action (overview, "overview.unload", "(ss)",
                                             fake_ollama_get_url (busy), "llama3.2:3b"));
  g_assert_true (iterate_until (unloaded, busy, 10000));
  spin (50);
  g_assert_true (iterate_until (not_busy, overview, 20000));
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = rows_of (overview);
  g_assert_true (g_str_has_prefix (adw_expander_row_get_subtitle (g_ptr_array_index (rows, 0)), fake_ollama_get_url (busy)));
  g_assert_nonnull (strstr (adw_expander_row_get_subtitle (g_ptr_array_index (rows, 0)), " · 0 models loaded · 11.38 GB"));

  gtk_window_destroy (GTK_WINDOW (window));
  spin (100);
  fake_ollama_free (busy);
  fake_ollama_free (idle);
}

static gboolean
has_rows (gpointer data)
{
  GtkWidget **args = data;
  g_autoptr(GPtrArray) rows = rows_of (args[0]);

  return rows->len == GPOINTER_TO_UINT (args[1]);
}

/* The rows are the session's server list (hr_session_get_server_list(),
 * bound to the list box): a server remembered or forgotten while the page
 * is up adds or takes away its row, and the empty state comes back. */
static void
test_overview_follows_session (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(HrSession) session = hr_session_new (settings);
  g_autofree char *first = fake_ollama_refused_url ();
  const char *second = "http://127.0.0.1:1";
  GtkWidget *window = gtk_window_new ();
  GtkWidget *overview = hr_servers_overview_new ();
  GtkWidget *args[2] = { overview, GUINT_TO_POINTER (1) };
  g_autoptr(GPtrArray) rows = NULL;
  GtkStack *stack = GTK_STACK (gtk_widget_get_first_child (overview));

  reset_settings (1100, 900);
  hr_session_load (session);
  hr_session_remember_server (session, first, "rtx-3060-12gb");
  hr_servers_overview_set_use_keyring (HR_SERVERS_OVERVIEW (overview), FALSE);
  g_object_set (overview, "session", session, NULL);
  gtk_window_set_child (GTK_WINDOW (window), overview);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (iterate_until (widget_is_drawn, overview, 5000));
  g_assert_true (iterate_until (has_rows, args, 5000));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "list");

  hr_session_remember_server (session, second, "dgx-spark");
  args[1] = GUINT_TO_POINTER (2);
  g_assert_true (iterate_until (has_rows, args, 5000));
  rows = rows_of (overview);
  g_assert_cmpstr (adw_preferences_row_get_title (g_ptr_array_index (rows, 1)), ==, "NVIDIA DGX Spark (GB10)");
  g_assert_true (g_str_has_prefix (adw_expander_row_get_subtitle (g_ptr_array_index (rows, 1)), second));
  g_assert_true (iterate_until (not_busy, overview, 20000));

  hr_session_forget_server (session, first);
  hr_session_forget_server (session, second);
  args[1] = GUINT_TO_POINTER (0);
  g_assert_true (iterate_until (has_rows, args, 5000));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "empty");

  gtk_window_destroy (GTK_WINDOW (window));
  spin (100);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED | GUI_TEST_ENVIRONMENT_LOCALE);
  g_test_add_func ("/servers-overview/three-servers", test_overview);
  g_test_add_func ("/servers-overview/follows-the-session", test_overview_follows_session);
  return gui_test_run_and_clean (NULL, &isolated_root);
}
