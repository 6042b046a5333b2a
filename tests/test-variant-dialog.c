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

/* The variant story: a session that remembers the fake's board (the RTX
 * 3060 12 GB); llama3.2:3b-ctx8k asked for, created, loaded, asked for
 * again, then on a server too old for it. */
typedef struct {
  GSettings       *settings;
  HrSession       *session;
  FakeOllama      *fake;
  HrVariantDialog *dialog;   /* the dialog of the step */
} Variant;

static Variant variant;

static void
variant_open (gpointer data)
{
  Variant *v = data;

  reset_settings (1100, 900);
  v->settings = g_settings_new (APPLICATION_ID);
  v->session = hr_session_new (v->settings);
  v->fake = fake_ollama_new ();
  fake_ollama_add_llama32 (v->fake);
  hr_session_load (v->session);
  hr_session_remember_server (v->session, fake_ollama_get_url (v->fake), "rtx-3060-12gb");
}

static void
variant_close (void)
{
  spin (100);
  fake_ollama_free (variant.fake);
  g_clear_object (&variant.session);
  g_clear_object (&variant.settings);
}

/* The dialog shows the request it will send. */
static void
test_variant_request (Variant       *v,
                      gconstpointer  data)
{
  g_autofree char *expected = NULL;

  v->dialog = open_dialog (v->session, v->fake, 8192);
  g_assert_true (iterate_until (ready, v->dialog, 10000));
  expected = g_strdup_printf ("POST %s/api/create\n"
                              "{\n"
                              "  \"model\" : \"llama3.2:3b-ctx8k\",\n"
                              "  \"from\" : \"llama3.2:3b\",\n"
                              "  \"parameters\" : {\n"
                              "    \"num_ctx\" : 8192\n"
                              "  },\n"
                              "  \"stream\" : false\n"
                              "}", fake_ollama_get_url (v->fake));
  g_assert_cmpstr (hr_variant_dialog_get_request (v->dialog), ==, expected);
  g_assert_cmpstr (hr_variant_dialog_get_status (v->dialog), ==, "");
}

/* Create sends it as shown. */
static void
test_variant_created (Variant       *v,
                      gconstpointer  data)
{
  g_autofree char *body = NULL;

  adw_message_dialog_response (ADW_MESSAGE_DIALOG (v->dialog), "create");
  g_assert_true (iterate_until (created, v->fake, 10000));
  body = json_to_string (fake_ollama_last_body (v->fake, "/api/create"), FALSE);
  g_assert_cmpstr (body, ==, "{\"model\":\"llama3.2:3b-ctx8k\",\"from\":\"llama3.2:3b\","
                             "\"parameters\":{\"num_ctx\":8192},\"stream\":false}");
}

/* Loaded from the result: the variant's own num_ctx applied
 * (2,019,377,376 + 100,000,000 + 114,688 x 8,192 bytes, all on the
 * GPU); the server's board is saved, so the result offers to measure. */
static void
test_variant_loaded (Variant       *v,
                     gconstpointer  data)
{
  Find f = { "Variant Created", NULL };

  g_assert_true (iterate_until (dialog_shown, &f, 10000));
  adw_message_dialog_response (f.found, "load");
  gtk_window_close (GTK_WINDOW (f.found));
  g_assert_true (iterate_until (variant_loaded, v->fake, 10000));
  f.heading = "llama3.2:3b-ctx8k Is Loaded";
  g_assert_true (iterate_until (dialog_shown, &f, 10000));
  g_assert_true (g_str_has_prefix (adw_message_dialog_get_body (f.found),
                                   "/api/ps: 3.1 GB, 100% GPU, context 8192. Headroom predicted 3.14 GB"));
  g_assert_true (adw_message_dialog_has_response (f.found, "measure"));
  gtk_window_close (GTK_WINDOW (f.found));
}

/* The same again: the server now has that name. */
static void
test_variant_name_taken (Variant       *v,
                         gconstpointer  data)
{
  g_autofree char *expected = NULL;

  v->dialog = open_dialog (v->session, v->fake, 8192);
  g_assert_true (iterate_until (status_is_final, v->dialog, 10000));
  expected = g_strdup_printf ("%s already has a model “llama3.2:3b-ctx8k”: choose another name.",
                              fake_ollama_get_url (v->fake));
  g_assert_cmpstr (hr_variant_dialog_get_status (v->dialog), ==, expected);
  g_assert_false (hr_variant_dialog_is_ready (v->dialog));
  gtk_window_close (GTK_WINDOW (v->dialog));
}

/* A server before Ollama 0.5.5. */
static void
test_variant_too_old (Variant       *v,
                      gconstpointer  data)
{
  g_autofree char *expected = NULL;

  fake_ollama_set_version (v->fake, "0.5.4");
  v->dialog = open_dialog (v->session, v->fake, 16384);
  g_assert_true (iterate_until (status_is_final, v->dialog, 10000));
  expected = g_strdup_printf ("%s runs Ollama 0.5.4, whose /api/create does not take “from” and “parameters”: "
                              "variants need Ollama 0.5.5 or newer.", fake_ollama_get_url (v->fake));
  g_assert_cmpstr (hr_variant_dialog_get_status (v->dialog), ==, expected);
  g_assert_false (hr_variant_dialog_is_ready (v->dialog));
  if (g_getenv ("HR_TEST_SHOTS") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), "variant-dialog-too-old.png", NULL);

      spin (300);
      gui_test_save_png (GTK_WIDGET (v->dialog), path);
    }
  gtk_window_close (GTK_WINDOW (v->dialog));
  fake_ollama_set_version (v->fake, "0.31.2");
}

/* With HR_TEST_SHOTS=DIR: the dialog ready, as DIR/variant-dialog.png. */
static void
test_variant_shot (Variant       *v,
                   gconstpointer  data)
{
  g_autofree char *path = NULL;

  if (g_getenv ("HR_TEST_SHOTS") == NULL)
    {
      g_test_skip ("HR_TEST_SHOTS is not set");
      return;
    }
  path = g_build_filename (g_getenv ("HR_TEST_SHOTS"), "variant-dialog.png", NULL);
  v->dialog = open_dialog (v->session, v->fake, 24576);
  g_assert_true (iterate_until (ready, v->dialog, 10000));
  spin (300);
  gui_test_save_png (GTK_WIDGET (v->dialog), path);
  gtk_window_close (GTK_WINDOW (v->dialog));
}

static const GuiTestStep variant_steps[] = {
  { "/variant-dialog/create-and-load/request", (GTestFixtureFunc) test_variant_request },
  { "/variant-dialog/create-and-load/created", (GTestFixtureFunc) test_variant_created },
  { "/variant-dialog/create-and-load/loaded", (GTestFixtureFunc) test_variant_loaded },
  { "/variant-dialog/create-and-load/name-taken", (GTestFixtureFunc) test_variant_name_taken },
  { "/variant-dialog/create-and-load/too-old", (GTestFixtureFunc) test_variant_too_old },
  { "/variant-dialog/create-and-load/screenshot", (GTestFixtureFunc) test_variant_shot },
};

static GuiTestStory variant_story = {
  "create-and-load", variant_open, variant_close, variant_steps, G_N_ELEMENTS (variant_steps),
  &variant, sizeof (Variant), 0
};

static gboolean
pulled_loaded (gpointer data)
{
  return fake_ollama_is_loaded (data, "llama3.2:3b");
}

/* After a pull (win.load-model): the model loads with the server's own
 * parameters, the version asked first, and /api/ps is told beside the
 * prediction at the context it loaded with. */
static void
test_load_and_compare (void)
{
  FakeOllama *fake = fake_ollama_new ();
  g_autoptr(HrOllamaClient) client = NULL;
  Find f = { "llama3.2:3b Is Loaded", NULL };

  fake_ollama_add_llama32 (fake);
  client = hr_ollama_client_new (fake_ollama_get_url (fake), NULL);
  hr_variant_load_and_compare (NULL, NULL, client, "llama3.2:3b", NULL);
  g_assert_true (iterate_until (pulled_loaded, fake, 10000));
  g_assert_true (iterate_until (dialog_shown, &f, 10000));
  g_assert_cmpuint (fake_ollama_count (fake, "/api/version"), ==, 1);
  /* 2,019,377,376 + 100,000,000 + 114,688 x 4,096 bytes (Ollama's 4,096
   * default) = 2.59 GB, all on the GPU. */
  g_assert_true (g_str_has_prefix (adw_message_dialog_get_body (f.found),
                                   "/api/ps: 2.6 GB, 100% GPU, context 4096. Headroom predicted "));
  /* No session, so no board to save a measurement on: no offer. */
  g_assert_false (adw_message_dialog_has_response (f.found, "measure"));
  gtk_window_close (GTK_WINDOW (f.found));
  spin (100);
  fake_ollama_free (fake);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED | GUI_TEST_ENVIRONMENT_LOCALE);
  gui_test_story_add (&variant_story);
  g_test_add_func ("/variant-dialog/load-and-compare", test_load_and_compare);
  return gui_test_run_and_clean (NULL, &isolated_root);
}
