/* test-window-actions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's journeys from outside the pages, with the real
 * HrApplication under Xvfb: files given to the application open on the
 * File page (headroom FILE.gguf, a file manager's Open With) and the MIME
 * package names GGUF files; the shortcuts window lists every key the window
 * has; toasts go away, replace each other, and the export toast names the
 * file written and offers its folder; Alt+2 and Alt+4 put the focus where a
 * person starts; About links the project's site and issues.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "gguf-writer.h"
#include "gui-test-util.h"
#include "hr-application.h"
#include "hr-gguf-page-private.h"
#include "hr-hub-page-private.h"
#include "hr-window-private.h"

static char *isolated_root;

/* One application for the whole run, registered once, as the real one is. */
static HrApplication *test_app;

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* A small llama-shaped GGUF: 2 layers, embedding 256, 4 heads, 2 KV heads,
 * vocabulary 64, all F32, named @general_name. */
static GBytes *
small_gguf (const char *general_name)
{
  const guint64 E = 256, KV = 128, V = 64;
  const guint64 embd[2] = { E, V }, q[2] = { E, E }, kv[2] = { E, KV };
  GgufWriter *w = gw_new ();
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  guint64 offset = 0;

  for (guint i = 0; i < V; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("t%u", i));
  gw_header (w, 3, 1 + 2 * 3, 9);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_str (w, "general.name", general_name);
  gw_kv_u32 (w, "general.file_type", 0);
  gw_kv_u32 (w, "llama.block_count", 2);
  gw_kv_u32 (w, "llama.context_length", 4096);
  gw_kv_u32 (w, "llama.embedding_length", (guint32) E);
  gw_kv_u32 (w, "llama.attention.head_count", 4);
  gw_kv_u32 (w, "llama.attention.head_count_kv", 2);
  gw_kv_str_array (w, "tokenizer.ggml.tokens", (const char * const *) tokens->pdata, tokens->len);
  gw_tensor (w, "token_embd.weight", 2, embd, GW_F32, offset);
  offset += E * V * 4;
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *n1 = g_strdup_printf ("blk.%u.attn_q.weight", i);
      g_autofree char *n2 = g_strdup_printf ("blk.%u.attn_k.weight", i);
      g_autofree char *n3 = g_strdup_printf ("blk.%u.attn_v.weight", i);

      gw_tensor (w, n1, 2, q, GW_F32, offset);
      offset += E * E * 4;
      gw_tensor (w, n2, 2, kv, GW_F32, offset);
      offset += E * KV * 4;
      gw_tensor (w, n3, 2, kv, GW_F32, offset);
      offset += E * KV * 4;
    }
  g_byte_array_set_size (w, (guint) (gw_align (w->len, 32) + offset));
  return g_byte_array_free_to_bytes (w);
}

static char *
write_gguf (const char *name,
            const char *general_name)
{
  g_autoptr(GBytes) bytes = small_gguf (general_name);
  char *path = g_build_filename (isolated_root, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

static gboolean
has_drawn_label (GtkWidget  *root,
                 const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0 &&
      gtk_widget_is_drawable (root))
    return TRUE;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (has_drawn_label (c, text))
      return TRUE;
  return FALSE;
}

static GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type))
        return window;
    }
  return NULL;
}

static HrWindow *
open_window (void)
{
  HrWindow *window;

  /* A window of the cases that share one is closed first. */
  gui_test_unshare ();
  reset_settings (1280, 800);
  g_assert_null (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
  g_application_activate (G_APPLICATION (test_app));
  window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
  g_assert_nonnull (window);
  g_object_ref (window);
  g_assert_true (iterate_until (widget_is_drawn, window, 5000));
  spin (100);
  return window;
}

static void
close_window (HrWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  g_assert_finalize_object (window);
}

/* ------------------------------------------------------------------ */
/* Opening files                                                       */

typedef struct {
  HrGgufPage *page;
  const char *title;
} Shown;

static gboolean
file_shown (gpointer data)
{
  Shown *shown = data;

  return g_strcmp0 (hr_gguf_page_get_state (shown->page), "answer") == 0 &&
         has_drawn_label (GTK_WIDGET (shown->page), shown->title);
}

static HrWindow *
window_showing (GList      *windows,
                const char *title)
{
  for (GList *l = windows; l != NULL; l = l->next)
    {
      Shown shown = { hr_window_get_gguf_page (l->data), title };

      if (iterate_until (file_shown, &shown, 10000))
        return l->data;
    }
  return NULL;
}

/* headroom FILE.gguf: the application is asked to open it (g_application_open()). */
static void
test_open_files (void)
{
  g_autofree char *first = write_gguf ("journey-first.gguf", "Journey First");
  g_autofree char *second = write_gguf ("journey-second.gguf", "Journey Second");
  g_autoptr(GFile) one = g_file_new_for_path (first);
  GFile *files[2] = { g_file_new_for_path (first), g_file_new_for_path (second) };
  HrWindow *window;
  GList *windows;

  g_assert_true (g_application_get_flags (G_APPLICATION (test_app)) & G_APPLICATION_HANDLES_OPEN);

  /* No window yet: one opens, on the File page, showing the file. */
  g_application_open (G_APPLICATION (test_app), &one, 1, "");
  windows = gtk_application_get_windows (GTK_APPLICATION (test_app));
  g_assert_cmpuint (g_list_length (windows), ==, 1);
  window = g_object_ref (windows->data);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (hr_window_get_stack (window)), ==, "file");
  g_assert_nonnull (window_showing (windows, "Journey First"));
  g_assert_true (has_drawn_label (GTK_WIDGET (window), first));

  /* Two files with a window open: the first in it, the second in a new one. */
  g_application_open (G_APPLICATION (test_app), files, 2, "");
  windows = gtk_application_get_windows (GTK_APPLICATION (test_app));
  g_assert_cmpuint (g_list_length (windows), ==, 2);
  g_assert_true (window_showing (windows, "Journey Second") != window);
  g_assert_true (window_showing (windows, "Journey First") == window);
  {
    HrWindow *other = g_object_ref (window_showing (windows, "Journey Second"));

    g_assert_cmpstr (adw_view_stack_get_visible_child_name (hr_window_get_stack (other)), ==, "file");
    close_window (other);
  }
  close_window (window);
  g_object_unref (files[0]);
  g_object_unref (files[1]);
  g_unlink (first);
  g_unlink (second);
}

/* The MIME package the build installs makes a GGUF application/x-gguf, by
 * its name and by its first bytes; the desktop file opens that type. */
static void
test_mime_type (void)
{
  g_autofree char *mime_dir = g_build_filename (g_getenv ("XDG_DATA_HOME"), "mime", NULL);
  g_autofree char *packages = g_build_filename (mime_dir, "packages", NULL);
  g_autofree char *package = g_build_filename (packages, "io.github.headroom.Headroom.xml", NULL);
  g_autofree char *xml = NULL;
  g_autofree char *desktop = NULL;
  g_autofree char *by_name = NULL;
  g_autofree char *by_data = NULL;
  g_autoptr(GBytes) bytes = small_gguf ("Mime Test");
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "update-mime-database", mime_dir, NULL };
  g_autofree char *program = g_find_program_in_path ("update-mime-database");
  gboolean uncertain = TRUE;
  int status = -1;

  g_assert_true (g_file_get_contents (HR_DESKTOP_FILE, &desktop, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (desktop, "\nExec=headroom %F\n"));
  g_assert_nonnull (strstr (desktop, "\nMimeType=application/x-gguf;\n"));

  if (program == NULL)
    {
      g_test_skip ("update-mime-database is not installed");
      return;
    }
  g_assert_true (g_file_get_contents (HR_MIME_XML, &xml, NULL, &error));
  g_assert_no_error (error);
  g_mkdir_with_parents (packages, 0755);
  g_assert_true (g_file_set_contents (package, xml, -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  /* GIO reads the user's MIME database again when it changed (it looks at
   * most every 5 seconds). */
  for (guint i = 0; i < 70; i++)
    {
      g_clear_pointer (&by_name, g_free);
      by_name = g_content_type_guess ("model-3b.gguf", NULL, 0, NULL);
      if (g_str_equal (by_name, "application/x-gguf"))
        break;
      g_usleep (100 * 1000);
    }
  g_assert_cmpstr (by_name, ==, "application/x-gguf");
  by_data = g_content_type_guess (NULL, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &uncertain);
  g_assert_cmpstr (by_data, ==, "application/x-gguf");
  g_assert_false (uncertain);
}

/* ------------------------------------------------------------------ */
/* The shortcuts window                                                */

static char *
canonical (guint           keyval,
           GdkModifierType mods)
{
  return gtk_accelerator_name (gdk_keyval_to_lower (keyval), mods);
}

static void
add_accel_string (GHashTable *set,
                  const char *accel)
{
  guint keyval = 0;
  GdkModifierType mods = 0;

  g_assert_true (gtk_accelerator_parse (accel, &keyval, &mods));
  g_hash_table_add (set, canonical (keyval, mods));
}

static void
add_trigger (GHashTable         *set,
             GtkShortcutTrigger *trigger)
{
  if (GTK_IS_KEYVAL_TRIGGER (trigger))
    g_hash_table_add (set, canonical (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)),
                                      gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger))));
  else if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    {
      add_trigger (set, gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)));
      add_trigger (set, gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)));
    }
}

/* The keys of @widget's class (gtk_widget_class_add_binding_action()). */
static void
add_class_keys (GHashTable *set,
                GtkWidget  *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

          add_trigger (set, gtk_shortcut_get_trigger (shortcut));
        }
    }
}

/* Every accelerator the help overlay lists: its own, and those of the
 * application's actions it names. */
static GHashTable *
overlay_accels (GtkApplication *app)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/headroom/Headroom/help-overlay.ui");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (GSList *l = objects; l != NULL; l = l->next)
    {
      g_autofree char *accelerator = NULL;
      g_autofree char *action = NULL;
      g_autofree char *title = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      g_object_get (l->data, "accelerator", &accelerator, "action-name", &action, "title", &title, NULL);
      g_assert_true (title != NULL && *title != '\0');
      if (action != NULL)
        {
          g_auto(GStrv) accels = gtk_application_get_accels_for_action (app, action);

          g_assert_nonnull (accels[0]);
          for (guint i = 0; accels[i] != NULL; i++)
            add_accel_string (set, accels[i]);
        }
      else
        {
          g_auto(GStrv) accels = g_strsplit (accelerator, " ", -1);

          g_assert_nonnull (accels[0]);
          for (guint i = 0; accels[i] != NULL; i++)
            add_accel_string (set, accels[i]);
        }
    }
  gtk_window_destroy (GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay")));
  return set;
}

/* Every key the window really has is in the shortcuts window, and the
 * shortcuts window lists no key the window lacks. */
static void
test_shortcuts_window (void)
{
  HrWindow *window = open_window ();
  GtkApplication *app = GTK_APPLICATION (test_app);
  g_autoptr(GHashTable) listed = overlay_accels (app);
  g_autoptr(GHashTable) real = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (app);
  GHashTableIter iter;
  const char *accel;

  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (app, actions[i]);

      for (guint j = 0; accels[j] != NULL; j++)
        add_accel_string (real, accels[j]);
    }
  /* The window's keys, and each page's (the Board page's Ctrl+R and F5,
   * Escape on the Hugging Face and File pages). */
  add_class_keys (real, GTK_WIDGET (window));
  for (GtkWidget *slot = gtk_widget_get_first_child (GTK_WIDGET (hr_window_get_stack (window)));
       slot != NULL;
       slot = gtk_widget_get_next_sibling (slot))
    add_class_keys (real, adw_bin_get_child (ADW_BIN (slot)));

  /* The ones once missing are among them. */
  g_assert_true (g_hash_table_contains (real, "<Control>f"));
  g_assert_true (g_hash_table_contains (real, "F9"));
  g_assert_true (g_hash_table_contains (real, "<Control>e"));
  g_assert_true (g_hash_table_contains (real, "<Shift><Control>e"));
  g_assert_true (g_hash_table_contains (real, "<Control>r"));
  g_assert_true (g_hash_table_contains (real, "F5"));

  /* GTK's own keys of every window (Tab, the inspector...) are not the
   * window's: those of a window of no application's. */
  {
    g_autoptr(GHashTable) gtk_own = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    GtkWidget *plain = g_object_new (ADW_TYPE_APPLICATION_WINDOW, NULL);
    GtkWidget *bin = g_object_ref_sink (adw_bin_new ());

    add_class_keys (gtk_own, plain);
    add_class_keys (gtk_own, bin);
    gtk_window_destroy (GTK_WINDOW (plain));
    g_object_unref (bin);
    g_hash_table_iter_init (&iter, gtk_own);
    while (g_hash_table_iter_next (&iter, (gpointer *) &accel, NULL))
      g_hash_table_remove (real, accel);
  }

  g_hash_table_iter_init (&iter, real);
  while (g_hash_table_iter_next (&iter, (gpointer *) &accel, NULL))
    if (!g_hash_table_contains (listed, accel))
      g_error ("The shortcuts window does not list %s", accel);
  g_hash_table_iter_init (&iter, listed);
  while (g_hash_table_iter_next (&iter, (gpointer *) &accel, NULL))
    if (!g_hash_table_contains (real, accel))
      g_error ("The shortcuts window lists %s, which the window does not have", accel);

  /* And it opens. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  close_window (window);
}

/* ------------------------------------------------------------------ */
/* Toasts                                                              */

static void
on_dismissed (AdwToast *toast,
              gboolean *dismissed)
{
  *dismissed = TRUE;
}

/* The toasts' story: one window; a page's messages, then exports into a
 * folder of the story's own. */
typedef struct {
  HrWindow *window;
  char     *dir;               /* the exports' folder */
  gboolean  export_dismissed;  /* the first export's toast went */
} Toasts;

static Toasts toasts;

static void
toasts_open (gpointer data)
{
  Toasts *t = data;

  t->window = open_window ();
  t->dir = g_dir_make_tmp ("headroom-export-XXXXXX", NULL);
}

static void
toasts_close (void)
{
  close_window (toasts.window);
  remove_tree (toasts.dir);
  g_clear_pointer (&toasts.dir, g_free);
}

/* A page's message: it goes away by itself, and the next replaces it. */
static void
test_toasts_message (Toasts        *t,
                     gconstpointer  data)
{
  GPtrArray *messages = hr_window_get_messages (t->window);
  gboolean first_dismissed = FALSE;
  AdwToast *toast;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (t->window), "win.toast", "s", "First"));
  toast = hr_window_peek_toast (t->window, "message");
  g_assert_nonnull (toast);
  g_assert_cmpstr (adw_toast_get_title (toast), ==, "First");
  g_assert_cmpuint (adw_toast_get_timeout (toast), >, 0);
  g_signal_connect (toast, "dismissed", G_CALLBACK (on_dismissed), &first_dismissed);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (t->window), "win.toast", "s", "Second"));
  g_assert_true (first_dismissed);
  g_assert_cmpstr (adw_toast_get_title (hr_window_peek_toast (t->window, "message")), ==, "Second");
  g_assert_cmpstr (g_ptr_array_index (messages, messages->len - 1), ==, "Second");
}

/* The export names the file written and offers its folder; the message
 * toast is another kind: still there. */
static void
test_toasts_export (Toasts        *t,
                    gconstpointer  data)
{
  g_autofree char *svg = g_build_filename (t->dir, "chart.svg", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (t->dir);
  g_autofree char *folder_uri = g_file_get_uri (folder);
  g_autofree char *expected = g_strdup_printf ("Exported to %s", svg);
  AdwToast *toast;

  g_assert_true (hr_window_export_to (t->window, HR_EXPORT_SVG, svg));
  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
  toast = hr_window_peek_toast (t->window, "export");
  g_assert_cmpstr (adw_toast_get_title (toast), ==, expected);
  g_assert_cmpstr (adw_toast_get_button_label (toast), ==, "Open _Folder");
  g_assert_cmpstr (adw_toast_get_action_name (toast), ==, "win.open-folder");
  g_assert_cmpstr (g_variant_get_string (adw_toast_get_action_target_value (toast), NULL), ==, folder_uri);
  g_assert_cmpuint (adw_toast_get_timeout (toast), >, 0);
  t->export_dismissed = FALSE;
  g_signal_connect (toast, "dismissed", G_CALLBACK (on_dismissed), &toasts.export_dismissed);
  g_assert_cmpstr (adw_toast_get_title (hr_window_peek_toast (t->window, "message")), ==, "Second");
}

/* An SVG export to the name the PNG export left: an SVG is written, and
 * the toast, which replaces the last export's, says which file. */
static void
test_toasts_replaced (Toasts        *t,
                      gconstpointer  data)
{
  g_autofree char *stale = g_build_filename (t->dir, "chart.png", NULL);
  g_autofree char *stale_svg = g_build_filename (t->dir, "chart.png.svg", NULL);
  g_autofree char *expected = g_strdup_printf ("Exported to %s", stale_svg);
  GPtrArray *messages = hr_window_get_messages (t->window);

  g_assert_true (hr_window_export_to (t->window, HR_EXPORT_SVG, stale));
  g_assert_true (toasts.export_dismissed);
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (stale_svg, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpstr (adw_toast_get_title (hr_window_peek_toast (t->window, "export")), ==, expected);
  g_assert_cmpstr (g_ptr_array_index (messages, messages->len - 1), ==, expected);
}

/* A failure says why, in the same place. */
static void
test_toasts_failure (Toasts        *t,
                     gconstpointer  data)
{
  g_autofree char *blocked = g_build_filename (t->dir, "a-folder.png", NULL);

  g_assert_cmpint (g_mkdir (blocked, 0755), ==, 0);
  g_assert_false (hr_window_export_to (t->window, HR_EXPORT_PNG, blocked));
  g_assert_null (adw_toast_get_button_label (hr_window_peek_toast (t->window, "export")));
  g_assert_nonnull (strstr (adw_toast_get_title (hr_window_peek_toast (t->window, "export")), "a-folder.png"));
}

static const GuiTestStep toasts_steps[] = {
  { "/window-actions/toasts/message", (GTestFixtureFunc) test_toasts_message },
  { "/window-actions/toasts/export", (GTestFixtureFunc) test_toasts_export },
  { "/window-actions/toasts/replaced", (GTestFixtureFunc) test_toasts_replaced },
  { "/window-actions/toasts/failure", (GTestFixtureFunc) test_toasts_failure },
};

static GuiTestStory toasts_story = {
  "toasts", toasts_open, toasts_close, toasts_steps, G_N_ELEMENTS (toasts_steps), &toasts, sizeof (Toasts), 0
};

/* ------------------------------------------------------------------ */
/* Focus, About                                                        */

static gboolean
has_focus_within (GtkWidget *window,
                  GtkWidget *widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static void
test_page_focus (void)
{
  HrWindow *window = open_window ();
  HrHubPage *hub = HR_HUB_PAGE (hr_window_get_page (window, "hub"));
  GtkWidget *button;

  /* Alt+2: the repository entry, ready to type in. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "hub"));
  spin (50);
  g_assert_true (has_focus_within (GTK_WIDGET (window), GTK_WIDGET (hr_hub_page_get_entry (hub))));

  /* Alt+4: the File page's open button. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", "file"));
  spin (50);
  button = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "win.open-gguf");
  g_assert_true (gtk_widget_is_ancestor (button, GTK_WIDGET (hr_window_get_gguf_page (window))));
  close_window (window);
}

/* What a Tab that moved nowhere leaves focused, or NULL: GTK 4.8 lets a
 * selectable label that is not focusable take the focus and keep it. */
static char *
tab_trap (HrWindow *window,
          guint     presses)
{
  GtkWidget *previous = gtk_root_get_focus (GTK_ROOT (window));

  for (guint i = 0; i < presses; i++)
    {
      GtkWidget *focus;

      g_signal_emit_by_name (window, "move-focus", GTK_DIR_TAB_FORWARD);
      focus = gtk_root_get_focus (GTK_ROOT (window));
      if (focus != NULL && focus == previous)
        return g_strdup_printf ("%s “%s”", G_OBJECT_TYPE_NAME (focus),
                                GTK_IS_LABEL (focus) ? gtk_label_get_label (GTK_LABEL (focus)) : "");
      previous = focus;
    }
  return NULL;
}

/* Tab goes on through every page, whatever it shows: no widget keeps it. */
static void
test_tab_never_stuck (void)
{
  const char *pages[] = { "models", "hub", "board", "file" };
  HrWindow *window = open_window ();

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_autofree char *trap = NULL;

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", pages[i]));
      spin (100);
      trap = tab_trap (window, 120);
      if (trap != NULL)
        g_error ("on the %s page Tab stays on %s", pages[i], trap);
    }
  close_window (window);
}

static void
test_about_links (void)
{
  HrWindow *window = open_window ();
  g_autofree char *metainfo = NULL;
  g_autofree char *homepage = NULL;
  g_autofree char *bugtracker = NULL;
  g_autoptr(GError) error = NULL;
  GtkWindow *about;

  g_action_group_activate_action (G_ACTION_GROUP (test_app), "about", NULL);
  about = find_toplevel (ADW_TYPE_ABOUT_WINDOW);
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_website (ADW_ABOUT_WINDOW (about)), ==,
                   "https://github.com/headroom/Headroom");
  g_assert_cmpstr (adw_about_window_get_issue_url (ADW_ABOUT_WINDOW (about)), ==,
                   "https://github.com/headroom/Headroom/issues");

  /* The metainfo says the same. */
  g_assert_true (g_file_get_contents (HR_METAINFO_IN, &metainfo, NULL, &error));
  g_assert_no_error (error);
  homepage = g_strdup_printf ("<url type=\"homepage\">%s</url>", adw_about_window_get_website (ADW_ABOUT_WINDOW (about)));
  bugtracker = g_strdup_printf ("<url type=\"bugtracker\">%s</url>", adw_about_window_get_issue_url (ADW_ABOUT_WINDOW (about)));
  g_assert_nonnull (strstr (metainfo, homepage));
  g_assert_nonnull (strstr (metainfo, bugtracker));

  gtk_window_destroy (about);
  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_DEFAULT);

  g_test_add_func ("/window-actions/open-files", test_open_files);
  g_test_add_func ("/window-actions/mime-type", test_mime_type);
  g_test_add_func ("/window-actions/shortcuts-window", test_shortcuts_window);
  gui_test_story_add (&toasts_story);
  g_test_add_func ("/window-actions/page-focus", test_page_focus);
  g_test_add_func ("/window-actions/tab-never-stuck", test_tab_never_stuck);
  g_test_add_func ("/window-actions/about-links", test_about_links);

  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &isolated_root);
}
