/* test-variant-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Run It Like This" against the fake Ollama: the request it shows is the
 * one the server receives, a name the server has or a server too old is
 * refused with the reason, and after Create the variant loads and /api/ps
 * is told beside the prediction.
 */
#include "config.h"

#include <string.h>

#include "fake-ollama.h"
#include "gui-test-util.h"
#include "hr-session.h"
#include "hr-variant-dialog.h"

static char *isolated_root;

static gboolean
ready (gpointer data)
{
  return hr_variant_dialog_is_ready (data);
}

static gboolean
status_is_final (gpointer data)
{
  const char *status = hr_variant_dialog_get_status (data);

  return status != NULL && *status != '\0' && !g_str_has_prefix (status, "Asking ");
}

static gboolean
created (gpointer data)
{
  return fake_ollama_count (data, "/api/create") == 1;
}

static gboolean
variant_loaded (gpointer data)
{
  return fake_ollama_is_loaded (data, "llama3.2:3b-ctx8k");
}

/* The message dialog whose heading is @heading, among the toplevels. */
static AdwMessageDialog *
find_dialog (const char *heading)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (w) && !HR_IS_VARIANT_DIALOG (w) &&
          gtk_widget_get_visible (GTK_WIDGET (w)) &&
          g_strcmp0 (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (w)), heading) == 0)
        return ADW_MESSAGE_DIALOG (w);
    }
  return NULL;
}

typedef struct {
  const char       *heading;
  AdwMessageDialog *found;
} Find;

static gboolean
dialog_shown (gpointer data)
{
  Find *f = data;

  f->found = find_dialog (f->heading);
  return f->found != NULL;
}

static HrVariantDialog *
open_dialog (HrSession  *session,
             FakeOllama *fake,
             guint32     context)
{
  HrVariantDialog *dialog = hr_variant_dialog_new (NULL, session, fake_ollama_get_url (fake), "llama3.2:3b", context, -1);

  hr_variant_dialog_set_use_keyring (dialog, FALSE);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
test_create_and_load (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(HrSession) session = hr_session_new (settings);
  FakeOllama *fake = fake_ollama_new ();
  HrVariantDialog *dialog;
  g_autofree char *expected = NULL;
  g_autofree char *body = NULL;
  Find f = { 0 };

  reset_settings (1100, 900);
  fake_ollama_add_llama32 (fake);
  hr_session_load (session);
  hr_session_remember_server (session, fake_ollama_get_url (fake), "rtx-3060-12gb");

  dialog = open_dialog (session, fake, 8192);
  g_assert_true (iterate_until (ready, dialog, 10000));
  expected = g_strdup_printf ("POST %s/api/create\n"
                              "{\n"
                              "  \"model\" : \"llama3.2:3b-ctx8k\",\n"
                              "  \"from\" : \"llama3.2:3b\",\n"
                              "  \"parameters\" : {\n"
                              "    \"num_ctx\" : 8192\n"
                              "  },\n"
                              "  \"stream\" : false\n"
                              "}", fake_ollama_get_url (fake));
  g_assert_cmpstr (hr_variant_dialog_get_request (dialog), ==, expected);
  g_assert_cmpstr (hr_variant_dialog_get_status (dialog), ==, "");

  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "create");
  g_assert_true (iterate_until (created, fake, 10000));
  body = json_to_string (fake_ollama_last_body (fake, "/api/create"), FALSE);
  g_assert_cmpstr (body, ==, "{\"model\":\"llama3.2:3b-ctx8k\",\"from\":\"llama3.2:3b\","
                             "\"parameters\":{\"num_ctx\":8192},\"stream\":false}");

  f.heading = "Variant Created";
  g_assert_true (iterate_until (dialog_shown, &f, 10000));
  adw_message_dialog_response (f.found, "load");
  gtk_window_close (GTK_WINDOW (f.found));
  g_assert_true (iterate_until (variant_loaded, fake, 10000));
  f.heading = "llama3.2:3b-ctx8k Is Loaded";
  g_assert_true (iterate_until (dialog_shown, &f, 10000));
  /* The variant's own num_ctx applied: 2,019,377,376 + 100,000,000 +
   * 114,688 x 8,192 bytes, all on the GPU. */
  g_assert_true (g_str_has_prefix (adw_message_dialog_get_body (f.found),
                                   "/api/ps: 3.1 GB, 100% GPU, context 8192. Headroom predicted 3.14 GB"));
  gtk_window_close (GTK_WINDOW (f.found));

  /* The same again: the server now has that name. */
  dialog = open_dialog (session, fake, 8192);
  g_assert_true (iterate_until (status_is_final, dialog, 10000));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("%s already has a model “llama3.2:3b-ctx8k”: choose another name.", fake_ollama_get_url (fake));
  g_assert_cmpstr (hr_variant_dialog_get_status (dialog), ==, expected);
  g_assert_false (hr_variant_dialog_is_ready (dialog));
  gtk_window_close (GTK_WINDOW (dialog));

  /* A server before Ollama 0.5.5. */
  fake_ollama_set_version (fake, "0.5.4");
  dialog = open_dialog (session, fake, 16384);
  g_assert_true (iterate_until (status_is_final, dialog, 10000));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("%s runs Ollama 0.5.4, whose /api/create does not take “from” and “parameters”: "
                              "variants need Ollama 0.5.5 or newer.", fake_ollama_get_url (fake));
  g_assert_cmpstr (hr_variant_dialog_get_status (dialog), ==, expected);
  g_assert_false (hr_variant_dialog_is_ready (dialog));
  if (g_getenv ("HR_TEST_SHOTS") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), "variant-dialog-too-old.png", NULL);

      spin (300);
      gui_test_save_png (GTK_WIDGET (dialog), path);
    }
  gtk_window_close (GTK_WINDOW (dialog));
  fake_ollama_set_version (fake, "0.31.2");

  if (g_getenv ("HR_TEST_SHOTS") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), "variant-dialog.png", NULL);

      dialog = open_dialog (session, fake, 24576);
      g_assert_true (iterate_until (ready, dialog, 10000));
      spin (300);
      gui_test_save_png (GTK_WIDGET (dialog), path);
      gtk_window_close (GTK_WINDOW (dialog));
    }
  spin (100);
  fake_ollama_free (fake);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED | GUI_TEST_ENVIRONMENT_LOCALE);
  g_test_add_func ("/variant-dialog/create-and-load", test_create_and_load);
  return gui_test_run_and_clean (NULL, &isolated_root);
}
