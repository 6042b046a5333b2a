/* test-library-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * In the window, under Xvfb, against the fake Ollama registry and
 * storage host in this process (tests/fake-registry.h): the Models page
 * offers to look up a model the catalog lacks, lists it as a "library" row
 * with exact bytes, parameters and verdict, the explain panel names the
 * manifest digest and the header read, and "Add to Catalog" records the
 * provenance ollama:MODEL:TAG@DIGEST; an unknown model, a manifest without
 * a model layer, a blob that is not GGUF, a redirect loop, a stalled
 * storage host and a header past the cap each show the CLI's message with
 * nothing cached and the catalog untouched (the Models page's fault);
 * the Board page's pull check of a library model with exact figures, of an
 * unknown one, and offline. No Authorization header reaches either host.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "fake-ollama.h"
#include "fake-registry.h"
#include "gguf-writer.h"
#include "hr-application.h"
#include "hr-board-chooser.h"
#include "hr-board-page-private.h"
#include "hr-library-lookup.h"
#include "hr-models-page-private.h"
#include "hr-window-private.h"
#include "gui-test-util.h"

#define QWEN_MODEL    "sha256:dde5aa3fc5ffc17176b5e8bdc82f587b24b2678c6c66101bf7da77af9f7ccdff"
#define QWEN_BYTES    G_GUINT64_CONSTANT (2019377376) /* llama3.2:3b's model layer, docs/seed-figures.md W6 */
#define BIG_MODEL     "sha256:fd7b6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20"
#define BIG_BYTES     G_GUINT64_CONSTANT (9053114464) /* phi4's model layer, docs/seed-figures.md W7 */
#define TEMPLATE      "sha256:32695b892af87ef8fca6e13a1a31c67c1441d7398be037e366e2fc763857c06a"
#define LICENSE       "sha256:fa8235e5b48faca34e3ca98cf4f694ef08bd216d28b58071a1f85b1d50cb814d"
/* What the window says of it on the seed board at the default scenario
 * with the seed's plain math as the runtime (set in the fixture), and
 * what the lookup reads: the manifest, the config and the header's growing
 * ranges (the header is 2,341,513 bytes). */
#define VERDICT_QWEN  "fits 2.61 GB"
#define READ_QWEN     "2,398,793"
#define REQUESTS_QWEN "8"
#define HTML_BLOB     "sha256:0000000000000000000000000000000000000000000000000000000000000001"

static HrApplication *test_app;
static char *isolated_root;
static FakeRegistry *registry;
static GBytes *qwen_header;
static char *qwen_manifest_digest;
static char *big_manifest_digest;

/* ------------------------------------------------------------------ */
/* The fake library                                                    */

/* A phi4-shaped header (phi3 architecture, 40 layers of 5120). */
static GBytes *
write_phi4 (void)
{
  GgufWriter *w = gw_new ();
  const guint64 embd[2] = { 5120, 100352 };

  gw_header (w, 3, 1, 9);
  gw_kv_str (w, "general.architecture", "phi3");
  gw_kv_u32 (w, "phi3.block_count", 40);
  gw_kv_u32 (w, "phi3.context_length", 16384);
  gw_kv_u32 (w, "phi3.embedding_length", 5120);
  gw_kv_u32 (w, "phi3.feed_forward_length", 17920);
  gw_kv_u32 (w, "phi3.attention.head_count", 40);
  gw_kv_u32 (w, "phi3.attention.head_count_kv", 10);
  gw_kv_u32 (w, "phi3.attention.sliding_window", 131072);
  gw_kv_u32 (w, "general.file_type", 15);
  gw_tensor (w, "token_embd.weight", 2, embd, GW_Q4_K, 0);
  return g_byte_array_free_to_bytes (w);
}

#define LAYER(type, digest, size) \
  "{\"mediaType\":\"application/vnd.ollama.image." type "\",\"digest\":\"" digest "\",\"size\":" size "}"

/* A manifest at @path with @layers; returns its digest (sha256 of its bytes). */
static char *
add_model (const char *path,
           const char *family,
           const char *layers)
{
  g_autofree char *config = g_strdup_printf ("{\"model_format\":\"gguf\",\"model_family\":\"%s\",\"model_families\":[\"%s\"],"
                                             "\"model_type\":\"3.2B\",\"file_type\":\"Q4_K_M\",\"architecture\":\"amd64\","
                                             "\"os\":\"linux\",\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[]}}",
                                             family, family);
  guint64 size;
  g_autofree char *digest = fake_registry_add_config (registry, config, &size);
  g_autofree char *json = g_strdup_printf ("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.docker.distribution.manifest.v2+json\","
                                           "\"config\":{\"mediaType\":\"application/vnd.docker.container.image.v1+json\","
                                           "\"digest\":\"%s\",\"size\":%" G_GUINT64_FORMAT "},\"layers\":[%s]}",
                                           digest, size, layers);
  g_autofree char *hex = g_compute_checksum_for_string (G_CHECKSUM_SHA256, json, -1);

  fake_registry_add_manifest (registry, path, json);
  return g_strconcat ("sha256:", hex, NULL);
}

static void
registry_setup (void)
{
  g_autoptr(GBytes) phi4 = write_phi4 ();
  g_autoptr(GBytes) text = g_bytes_new_static ("not a gguf file, an HTML page", 29);
  g_autofree char *nomodel = NULL, *html = NULL;

  registry = fake_registry_new ();
  qwen_header = gw_llama32_3b_header ();
  qwen_manifest_digest = add_model ("/v2/library/qwen2.5-coder/manifests/14b", "llama",
                                    LAYER ("model", QWEN_MODEL, "2019377376") ","
                                    LAYER ("template", TEMPLATE, "275"));
  fake_registry_add_blob (registry, QWEN_MODEL, qwen_header, QWEN_BYTES);
  big_manifest_digest = add_model ("/v2/library/bigmodel/manifests/latest", "phi3",
                                   LAYER ("model", BIG_MODEL, "9053114464") ","
                                   LAYER ("template", TEMPLATE, "275"));
  fake_registry_add_blob (registry, BIG_MODEL, phi4, BIG_BYTES);
  nomodel = add_model ("/v2/library/nomodel/manifests/latest", "llama", LAYER ("license", LICENSE, "1084"));
  html = add_model ("/v2/library/html/manifests/latest", "llama", LAYER ("model", HTML_BLOB, "29"));
  fake_registry_add_blob (registry, HTML_BLOB, text, 29);
  g_setenv ("HEADROOM_OLLAMA_REGISTRY", registry->registry_url, TRUE);
}

/* ------------------------------------------------------------------ */
/* The window                                                          */

typedef struct {
  HrWindow        *window;
  HrModelsPage    *page;
  HrSession       *session;
  HrLibraryLookup *lookup;
} Fixture;

static gboolean
session_loaded (gpointer data)
{
  return hr_session_get_loaded (data);
}

static char *
cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "headroom", "ollama", NULL);
}

static gboolean
cache_is_empty (void)
{
  g_autofree char *dir = cache_dir ();

  return !g_file_test (dir, G_FILE_TEST_EXISTS);
}

static void
open_window (Fixture *f)
{
  g_autofree char *user_dir = g_build_filename (g_get_user_data_dir (), "headroom", NULL);
  g_autofree char *cache = cache_dir ();

  /* A window of the cases that share one is closed first. */
  gui_test_unshare ();
  /* Each test starts without a catalog of the user's and with nothing cached. */
  remove_tree (user_dir);
  remove_tree (cache);
  fake_registry_reset_counts (registry);
  registry->redirect_loop = FALSE;
  registry->storage_stall = FALSE;
  reset_settings (1280, 800);
  use_seed_runtime ();
  g_application_activate (G_APPLICATION (test_app));
  f->window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
  g_assert_nonnull (f->window);
  g_object_ref (f->window);
  f->session = hr_application_get_session (test_app);
  g_assert_true (iterate_until (session_loaded, f->session, 10000));
  f->page = hr_window_get_models_page (f->window);
  g_assert_true (iterate_until (widget_is_drawn, f->page, 5000));
  f->lookup = HR_LIBRARY_LOOKUP (find_descendant (GTK_WIDGET (f->page), HR_TYPE_LIBRARY_LOOKUP));
  g_assert_nonnull (f->lookup);
  spin (200);
}

static void
close_window (Fixture *f)
{
  /* The session lives while a window shows it: the looked-up models go
   * with it, never saved. */
  g_object_add_weak_pointer (G_OBJECT (f->session), (gpointer *) &f->session);
  gtk_window_destroy (GTK_WINDOW (f->window));
  spin (50);
  g_assert_finalize_object (f->window);
  g_assert_null (f->session);
}

static gboolean
lookup_done (gpointer data)
{
  return !hr_library_lookup_get_busy (data);
}

/* Types @text in the search and presses Enter, as a person does. */
static void
search_and_enter (Fixture    *f,
                  const char *text)
{
  GtkEditable *search = hr_models_page_get_search_entry (f->page);
  g_autofree char *offer = g_strdup_printf ("Look up %s in the Ollama library", text);

  gtk_editable_set_text (search, text);
  spin (100);
  g_assert_cmpstr (hr_library_lookup_get_offer (f->lookup), ==, offer);
  g_signal_emit_by_name (search, "activate");
  g_assert_true (hr_library_lookup_get_busy (f->lookup));
  g_assert_true (iterate_until (lookup_done, f->lookup, 20000));
  spin (300);
}

/* A visible label under @root whose text is @text. */
static gboolean
has_visible_label (GtkWidget  *root,
                   const char *text)
{
  if (!gtk_widget_get_visible (root))
    return FALSE;
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (has_visible_label (child, text))
      return TRUE;
  return FALSE;
}

/* The button under @root labelled @label. */
static GtkButton *
find_button (GtkWidget  *root,
             const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return GTK_BUTTON (root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkButton *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* HEADROOM_LIBRARY_SCREENSHOT=DIR: the page with the library row and the
 * explain panel, light and dark. */
static void
screenshots (Fixture *f)
{
  const char *dir = g_getenv ("HEADROOM_LIBRARY_SCREENSHOT");
  AdwStyleManager *style = adw_style_manager_get_default ();

  if (dir == NULL)
    return;
  adw_flap_set_reveal_flap (hr_models_page_get_explain_flap (f->page), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1400, 900);
  spin (500);
  for (guint pass = 0; pass < 2; pass++)
    {
      g_autofree char *path = g_build_filename (dir, pass == 0 ? "library-window-light.png" : "library-window-dark.png", NULL);

      adw_style_manager_set_color_scheme (style, pass == 0 ? ADW_COLOR_SCHEME_FORCE_LIGHT : ADW_COLOR_SCHEME_FORCE_DARK);
      spin (400);
      gui_test_save_png (GTK_WIDGET (f->window), path);
    }
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  spin (200);
}

/* ------------------------------------------------------------------ */
/* The Models page                                                     */

static void
on_busy_text (GObject    *label,
              GParamSpec *pspec,
              gpointer    user_data)
{
  g_ptr_array_add (user_data, g_strdup (gtk_label_get_text (GTK_LABEL (label))));
}

/* Every text the busy line beside the spinner shows from now on. */
static GtkLabel *
record_busy_texts (Fixture   *f,
                   GPtrArray *texts)
{
  GtkWidget *spinner = find_descendant (GTK_WIDGET (f->lookup), GTK_TYPE_SPINNER);
  GtkWidget *label = gtk_widget_get_next_sibling (spinner);

  g_assert_true (GTK_IS_LABEL (label));
  g_signal_connect (label, "notify::label", G_CALLBACK (on_busy_text), texts);
  return GTK_LABEL (label);
}

static gboolean
any_has_prefix (GPtrArray  *texts,
                const char *prefix)
{
  for (guint i = 0; i < texts->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (texts, i), prefix))
      return TRUE;
  return FALSE;
}

/* The lookup's cases share one window: the offer's case before the
 * lookup, the others after it (lookup_setup() runs it where it has not
 * run), so each sees what a person would at that step. */
typedef struct {
  Fixture    f;
  guint      catalog_len;   /* the catalog's length before the lookup */
  GPtrArray *busy;          /* (nullable): the busy line's texts during it */
} Lookup;

static Lookup looked;

static void
lookup_close (void)
{
  close_window (&looked.f);
  g_clear_pointer (&looked.busy, g_ptr_array_unref);
}

static void
lookup_window_setup (Fixture       *f,
                     gconstpointer  data)
{
  if (!gui_test_is_shared ("lookup"))
    {
      open_window (&looked.f);
      gui_test_share ("lookup", lookup_close);
      looked.catalog_len = hr_session_get_catalog (looked.f.session)->len;
    }
  *f = looked.f;
}

/* The window after qwen2.5-coder:14b was looked up, its busy texts recorded. */
static void
lookup_setup (Fixture       *f,
              gconstpointer  data)
{
  lookup_window_setup (f, data);
  if (looked.busy == NULL)
    {
      GtkLabel *busy_label;

      looked.busy = g_ptr_array_new_with_free_func (g_free);
      busy_label = record_busy_texts (f, looked.busy);
      search_and_enter (f, "qwen2.5-coder:14b");
      g_signal_handlers_disconnect_by_func (busy_label, on_busy_text, looked.busy);
    }
}

static char *
qwen_origin (void)
{
  return g_strconcat ("ollama:qwen2.5-coder:14b@", qwen_manifest_digest, NULL);
}

/* A model of the catalog is not offered; one it lacks is. */
static void
test_lookup_offer (Fixture       *f,
                   gconstpointer  data)
{
  gtk_editable_set_text (hr_models_page_get_search_entry (f->page), "phi4");
  spin (100);
  g_assert_null (hr_library_lookup_get_offer (f->lookup));
  gtk_editable_set_text (hr_models_page_get_search_entry (f->page), "gemma3:27b-it-q8_0");
  g_assert_cmpstr (hr_library_lookup_get_offer (f->lookup), ==, "Look up gemma3:27b-it-q8_0 in the Ollama library");
  gtk_editable_set_text (hr_models_page_get_search_entry (f->page), "user/model:tag");
  g_assert_cmpstr (hr_library_lookup_get_offer (f->lookup), ==, "Look up user/model:tag in the Ollama library");
  /* Not an Ollama model name: nothing offered. */
  gtk_editable_set_text (hr_models_page_get_search_entry (f->page), "a/b/c/d");
  g_assert_null (hr_library_lookup_get_offer (f->lookup));
  g_assert_cmpuint (registry->registry_requests, ==, 0);
}

/* The busy line said which request was under way and the bytes read so
 * far, the header's ranges one by one, and last all that was read
 * (2,398,793 bytes, READ_QWEN). */
static void
test_lookup_busy_line (Fixture       *f,
                       gconstpointer  data)
{
  GPtrArray *busy = looked.busy;

  for (guint i = 0; i < busy->len; i++)
    g_test_message ("busy: %s", (char *) g_ptr_array_index (busy, i));
  g_assert_true (any_has_prefix (busy, "Reading the manifest of qwen2.5-coder:14b… "));
  g_assert_true (any_has_prefix (busy, "Reading the config blob of qwen2.5-coder:14b… "));
  g_assert_true (any_has_prefix (busy, "Reading the GGUF header of qwen2.5-coder:14b… "));
  g_assert_true (any_has_prefix (busy, "Reading the GGUF header of qwen2.5-coder:14b, part 2… "));
  g_assert_cmpstr (g_ptr_array_index (busy, busy->len - 1), ==, "Read 2.4\u00a0MB for qwen2.5-coder:14b"); /* g_format_size(): a no-break space */
}

/* A row of the table with exact figures. */
static void
test_lookup_row_figures (Fixture       *f,
                         gconstpointer  data)
{
  HrModelRow *row = hr_models_page_find_row (f->page, "qwen2.5-coder:14b");
  const HrModelSpec *spec;
  g_autofree char *origin = qwen_origin ();
  g_autofree char *size = NULL, *params = NULL, *verdict = NULL;

  g_assert_nonnull (row);
  spec = hr_model_row_get_spec (row);
  g_assert_cmpuint (spec->file_bytes, ==, QWEN_BYTES);
  g_assert_cmpuint (spec->parameters, ==, G_GUINT64_CONSTANT (3212749888));
  g_assert_cmpuint (spec->layers, ==, 28);
  g_assert_cmpuint (spec->kv_heads, ==, 8);
  g_assert_cmpstr (spec->origin, ==, origin);
  size = hr_models_page_cell_text (f->page, row, HR_MODELS_COLUMN_FILE_SIZE);
  params = hr_models_page_cell_text (f->page, row, HR_MODELS_COLUMN_PARAMETERS);
  verdict = hr_models_page_cell_text (f->page, row, HR_MODELS_COLUMN_VERDICT);
  g_test_message ("size %s, params %s, verdict %s", size, params, verdict);
  g_assert_cmpstr (size, ==, "2.02 GB");
  g_assert_cmpstr (params, ==, "3.21 B");
  g_assert_cmpstr (verdict, ==, VERDICT_QWEN);
}

/* The row is marked "library", said so, and selected. */
static void
test_lookup_row_marked (Fixture       *f,
                        gconstpointer  data)
{
  HrModelRow *row = hr_models_page_find_row (f->page, "qwen2.5-coder:14b");
  HrCatalogView *view = HR_CATALOG_VIEW (find_descendant (GTK_WIDGET (f->page), HR_TYPE_CATALOG_VIEW));

  g_assert_true (has_visible_label (GTK_WIDGET (hr_models_page_get_column_view (f->page)), "library"));
  g_assert_cmpstr (hr_library_lookup_get_message (f->lookup), ==,
                   "qwen2.5-coder:14b from the Ollama library: 2,019,377,376 bytes, 3,212,749,888 parameters, "
                   "listed for this run only. Read " READ_QWEN " bytes in " REQUESTS_QWEN " requests.");
  g_assert_true (gtk_single_selection_get_selected_item (hr_catalog_view_get_selection (view)) == (gpointer) row);
}

/* The explain panel names the manifest and the header it read. */
static void
test_lookup_explain (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *origin = qwen_origin ();
  const char *library;

  hr_models_page_select_row (f->page, hr_models_page_find_row (f->page, "qwen2.5-coder:14b"));
  spin (100);
  library = hr_explain_panel_get_figure (hr_models_page_get_explain_panel (f->page), "library");
  g_test_message ("%s", library);
  g_assert_nonnull (strstr (library, origin));
  g_assert_nonnull (strstr (library, qwen_manifest_digest));
  g_assert_nonnull (strstr (library, registry->registry_url));
  g_assert_nonnull (strstr (library, "GGUF v3 header of the model layer, architecture llama"));
  g_assert_nonnull (strstr (library, " bytes read by Range"));
  g_assert_nonnull (strstr (library, "model layer " QWEN_MODEL " of 2,019,377,376 bytes"));
}

/* At most the header and 64 kB read, no Authorization anywhere; kept
 * for this run only: nothing written to the user's catalog. */
static void
test_lookup_reads_little (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *user_catalog = g_build_filename (g_get_user_data_dir (), "headroom", "catalog.json", NULL);

  g_assert_cmpuint (registry->storage_bytes_sent, <=, g_bytes_get_size (qwen_header) + 64 * 1024 + 1024);
  g_assert_cmpuint (registry->authorization_seen, ==, 0);
  g_assert_cmpuint (hr_session_get_catalog (f->session)->len, ==, looked.catalog_len);
  g_assert_cmpuint (hr_session_get_library (f->session)->len, ==, 1);
  g_assert_false (g_file_test (user_catalog, G_FILE_TEST_EXISTS));
}

static void
test_lookup_screenshots (Fixture       *f,
                         gconstpointer  data)
{
  if (g_getenv ("HEADROOM_LIBRARY_SCREENSHOT") == NULL)
    {
      g_test_skip ("HEADROOM_LIBRARY_SCREENSHOT is not set");
      return;
    }
  screenshots (f);
}

/* Add to Catalog: the entry's provenance is ollama:MODEL:TAG@DIGEST. */
static void
test_lookup_add_to_catalog (Fixture       *f,
                            gconstpointer  data)
{
  GtkButton *add = find_button (GTK_WIDGET (f->lookup), "_Add to Catalog");
  g_autofree char *origin = qwen_origin ();
  g_autofree char *user_catalog = g_build_filename (g_get_user_data_dir (), "headroom", "catalog.json", NULL);
  g_autofree char *saved = NULL;
  const HrModelSpec *spec;
  HrModelRow *row;

  g_assert_nonnull (add);
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (add)));
  g_signal_emit_by_name (add, "clicked");
  spin (300);
  spec = hr_session_find_model (f->session, "qwen2.5-coder:14b");
  g_assert_nonnull (spec);
  g_assert_cmpstr (spec->origin, ==, origin);
  g_assert_cmpuint (spec->file_bytes, ==, QWEN_BYTES);
  g_assert_cmpuint (hr_session_get_catalog (f->session)->len, ==, looked.catalog_len + 1);
  g_assert_cmpuint (hr_session_get_library (f->session)->len, ==, 0);
  g_assert_true (g_file_get_contents (user_catalog, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, origin));
  g_assert_false (gtk_widget_is_visible (GTK_WIDGET (add)));
  row = hr_models_page_find_row (f->page, "qwen2.5-coder:14b");
  g_assert_nonnull (row);
  g_assert_cmpstr (hr_model_row_get_spec (row)->origin, ==, origin);
}

/* Once in the catalog: no offer to look it up again. */
static void
test_lookup_added_not_offered (Fixture       *f,
                               gconstpointer  data)
{
  g_assert_nonnull (hr_session_find_model (f->session, "qwen2.5-coder:14b"));
  g_assert_cmpuint (hr_session_get_library (f->session)->len, ==, 0);
  gtk_editable_set_text (hr_models_page_get_search_entry (f->page), "");
  gtk_editable_set_text (hr_models_page_get_search_entry (f->page), "qwen2.5-coder:14b");
  spin (100);
  g_assert_null (hr_library_lookup_get_offer (f->lookup));
}

/* Fails to look @name up with @message (a "*" at its end: a prefix), and
 * nothing else: no row, nothing cached, the catalog untouched. */
static void
assert_fails (Fixture    *f,
              const char *name,
              const char *message)
{
  guint catalog_len = hr_session_get_catalog (f->session)->len;
  const char *said;

  search_and_enter (f, name);
  said = hr_library_lookup_get_message (f->lookup);
  g_assert_nonnull (said);
  if (g_str_has_suffix (message, "*"))
    {
      g_autofree char *prefix = g_strndup (message, strlen (message) - 1);

      if (!g_str_has_prefix (said, prefix))
        g_assert_cmpstr (said, ==, message);
    }
  else
    g_assert_cmpstr (said, ==, message);
  g_assert_true (has_visible_label (GTK_WIDGET (f->lookup), said));
  g_assert_null (hr_library_lookup_get_offer (f->lookup));
  g_assert_false (gtk_widget_is_visible (GTK_WIDGET (find_button (GTK_WIDGET (f->lookup), "_Add to Catalog"))));
  g_assert_cmpuint (hr_session_get_library (f->session)->len, ==, 0);
  g_assert_cmpuint (hr_session_get_catalog (f->session)->len, ==, catalog_len);
  g_assert_true (cache_is_empty ());
  g_assert_cmpuint (registry->authorization_seen, ==, 0);
}

static void
test_unknown (void)
{
  Fixture f = { 0 };

  open_window (&f);
  assert_fails (&f, "qwen9:70b", "qwen9:70b is not in the Ollama library");
  /* Nothing else was tried. */
  g_assert_cmpuint (registry->registry_requests, ==, 1);
  g_assert_cmpuint (registry->storage_requests, ==, 0);
  close_window (&f);
}

static void
test_bad_inputs (void)
{
  Fixture f = { 0 };
  HrOllamaRegistry *client;

  open_window (&f);
  client = hr_library_lookup_get_registry (f.lookup);
  assert_fails (&f, "nomodel",
                "The manifest of nomodel:latest has no model layer (application/vnd.ollama.image.model): nothing to size");
  assert_fails (&f, "html", "The model layer of html:latest is not a GGUF file (*");

  hr_ollama_registry_set_limits (client, 256 * 1024, 30000);
  assert_fails (&f, "qwen2.5-coder:14b",
                "The GGUF header of qwen2.5-coder:14b is larger than the 262,144 bytes Headroom reads (it needs at least *");

  hr_ollama_registry_set_limits (client, HR_OLLAMA_REGISTRY_HEADER_CAP, 30000);
  registry->redirect_loop = TRUE;
  assert_fails (&f, "bigmodel",
                "Reading the config blob of bigmodel:latest went round in redirects (more than 10, or one without a Location): "
                "the registry or a proxy is misconfigured");
  registry->redirect_loop = FALSE;

  /* 3 s: the manifest and the config answer well within it, even under
   * the sanitizers on a loaded machine; the stalled Range request not. */
  hr_ollama_registry_set_limits (client, HR_OLLAMA_REGISTRY_HEADER_CAP, 3000);
  registry->storage_stall = TRUE;
  assert_fails (&f, "bigmodel",
                "Reading the GGUF header of bigmodel:latest stalled: the registry or its storage host sent nothing more "
                "within 3 seconds; try again later");
  registry->storage_stall = FALSE;
  close_window (&f);
}

/* New text cancels a lookup under way: nothing is listed. */
static void
test_cancel (void)
{
  Fixture f = { 0 };
  g_autoptr(GPtrArray) busy = g_ptr_array_new_with_free_func (g_free);
  GtkLabel *busy_label;
  GtkEditable *search;

  open_window (&f);
  search = hr_models_page_get_search_entry (f.page);
  registry->storage_stall = TRUE;
  gtk_editable_set_text (search, "bigmodel");
  spin (100);
  g_signal_emit_by_name (search, "activate");
  g_assert_true (hr_library_lookup_get_busy (f.lookup));
  spin (200);
  busy_label = record_busy_texts (&f, busy);
  gtk_editable_set_text (search, "bigmode");
  g_assert_false (hr_library_lookup_get_busy (f.lookup));
  spin (200);
  /* A cancelled lookup reports no more progress. */
  g_signal_handlers_disconnect_by_func (busy_label, on_busy_text, busy);
  g_assert_cmpuint (busy->len, ==, 0);
  g_assert_cmpuint (hr_session_get_library (f.session)->len, ==, 0);
  g_assert_null (hr_models_page_find_row (f.page, "bigmodel:latest"));
  g_assert_cmpstr (hr_library_lookup_get_offer (f.lookup), ==, "Look up bigmode in the Ollama library");
  registry->storage_stall = FALSE;
  close_window (&f);
}

/* ------------------------------------------------------------------ */
/* The Board page's pull                                               */

static AdwMessageDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n = g_list_model_get_n_items (toplevels);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

static gboolean
dialog_shown (gpointer data)
{
  return find_dialog () != NULL;
}

static gboolean
dialog_gone (gpointer data)
{
  return find_dialog () == NULL;
}

static gboolean
page_is_idle (gpointer data)
{
  return !hr_board_connection_get_busy (_hr_board_page_get_connection (data));
}

static void
set_model_name (HrBoardPage *page,
                const char  *text)
{
  AdwPreferencesRow *row = find_titled_row (GTK_WIDGET (page), "_Model Name (such as llama3.2:3b)");

  g_assert_nonnull (row);
  gtk_editable_set_text (GTK_EDITABLE (row), text);
}

static gboolean
no_streams (gpointer data)
{
  return fake_ollama_active_streams (data) == 0;
}

/* After the window: every stream the page started is closed. */
static void
close_ollama (FakeOllama *ollama)
{
  g_assert_true (iterate_until (no_streams, ollama, 5000));
  fake_ollama_free (ollama);
}

/* A server without a remembered board asks which board it is on:
 * answer with the board the Models page shows. */
static gboolean
chooser_shown (gpointer data)
{
  return _hr_board_page_get_board_chooser (data) != NULL;
}

static void
answer_board_chooser (HrBoardPage *page)
{
  HrApplication *app = HR_APPLICATION (g_application_get_default ());
  HrScenario *scenario = hr_application_get_scenario (app);
  GtkWindow *chooser;

  g_assert_true (iterate_until (chooser_shown, page, 5000));
  chooser = _hr_board_page_get_board_chooser (page);
  hr_board_chooser_set_board_id (HR_BOARD_CHOOSER (chooser), hr_scenario_get_board (scenario)->id);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (chooser), "choose");
  gtk_window_close (chooser);
  spin (20);
}

static HrBoardPage *
open_board (Fixture    *f,
            FakeOllama *ollama)
{
  AdwViewStack *stack = hr_window_get_stack (f->window);
  HrBoardPage *page;

  adw_view_stack_set_visible_child_name (stack, "board");
  page = HR_BOARD_PAGE (hr_window_get_page (f->window, "board"));
  hr_board_connection_set_use_keyring (_hr_board_page_get_connection (page), FALSE);
  g_assert_true (iterate_until (widget_is_drawn, page, 5000));
  hr_board_page_connect (page, fake_ollama_get_url (ollama));
  g_assert_true (iterate_until (page_is_idle, page, 10000));
  answer_board_chooser (page);
  return page;
}

static gboolean
check_said (gpointer data)
{
  const char *text = hr_pull_panel_get_check_text (data);

  return text != NULL && strstr (text, "looking it up in the Ollama library") == NULL;
}

static void
test_pull (void)
{
  Fixture f = { 0 };
  FakeOllama *ollama;
  HrBoardPage *page;
  HrPullPanel *panel;
  AdwMessageDialog *dialog;
  g_autofree char *expected = NULL;

  open_window (&f);
  ollama = fake_ollama_new ();
  page = open_board (&f, ollama);
  panel = _hr_board_page_get_pull_panel (page);

  /* A model the catalog lacks: sized from the library, refused with its
   * exact figures, nothing sent to the board. */
  set_model_name (page, "bigmodel");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "board.pull", NULL));
  g_assert_true (iterate_until (dialog_shown, NULL, 10000));
  dialog = find_dialog ();
  g_test_message ("%s", hr_pull_panel_get_check_text (panel));
  expected = g_strdup_printf ("bigmodel is not in the catalog; it was sized from its manifest and GGUF header in the "
                              "Ollama library (manifest %s, model layer 9,053,114,464 bytes, 66,288 bytes read).\n"
                              "The pull check refuses this pull:\n"
                              /* The same reasons as headroom-cli ollama pull
                               * bigmodel (test-ollama-registry.c). */
                              "• bigmodel:latest is over by 3.79 GB\n"
                              "• bigmodel:latest decodes at 4.1 t/s, under the 10.2 t/s floor\n"
                              "bigmodel:latest needs 9.89 GB on Jetson Orin Nano Super, whose budget is 5.1 GB and "
                              "headroom 6.1 GB; it decodes at 4.1 t/s (predicted) against a floor of 10.2 t/s.",
                              big_manifest_digest);
  g_assert_cmpstr (hr_pull_panel_get_check_text (panel), ==, expected);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Pull bigmodel Anyway?");
  adw_message_dialog_response (dialog, "cancel");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_true (iterate_until (dialog_gone, NULL, 5000));
  g_assert_false (hr_pull_panel_is_pulling (panel));
  g_assert_cmpuint (fake_ollama_count (ollama, "/api/pull"), ==, 0);
  g_assert_cmpuint (registry->authorization_seen, ==, 0);
  /* The pull's lookup keeps nothing in the session. */
  g_assert_cmpuint (hr_session_get_library (f.session)->len, ==, 0);

  /* An unknown model: that, and nothing else. */
  set_model_name (page, "qwen9:70b");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "board.pull", NULL));
  g_assert_true (iterate_until (check_said, panel, 10000));
  g_assert_cmpstr (hr_pull_panel_get_check_text (panel), ==, "qwen9:70b is not in the Ollama library");
  spin (100);
  g_assert_null (find_dialog ());
  g_assert_cmpuint (fake_ollama_count (ollama, "/api/pull"), ==, 0);

  close_window (&f);
  close_ollama (ollama);
}

/* Offline: the check says the library could not be reached and offers
 * "Pull Anyway" (or a typed size). */
static void
test_pull_offline (void)
{
  Fixture f = { 0 };
  FakeOllama *ollama;
  HrBoardPage *page;
  HrPullPanel *panel;
  AdwMessageDialog *dialog;

  g_setenv ("HEADROOM_OLLAMA_REGISTRY", "http://127.0.0.1:9", TRUE);
  open_window (&f);
  ollama = fake_ollama_new ();
  page = open_board (&f, ollama);
  panel = _hr_board_page_get_pull_panel (page);
  set_model_name (page, "mystery:70b");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "board.pull", NULL));
  g_assert_true (iterate_until (dialog_shown, NULL, 10000));
  g_assert_cmpstr (hr_pull_panel_get_check_text (panel), ==,
                   "The pull check refuses this pull:\n"
                   "• \"mystery:70b\" is not in the catalog and could not be sized from the Ollama library: "
                   "Could not reach the Ollama registry at http://127.0.0.1:9 for the manifest of mystery:70b: "
                   "check the network or HEADROOM_OLLAMA_REGISTRY (give its download size in GB to check it anyway)");
  dialog = find_dialog ();
  adw_message_dialog_response (dialog, "cancel");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_true (iterate_until (dialog_gone, NULL, 5000));
  g_assert_cmpuint (fake_ollama_count (ollama, "/api/pull"), ==, 0);
  close_window (&f);
  close_ollama (ollama);
  g_setenv ("HEADROOM_OLLAMA_REGISTRY", registry->registry_url, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  int result;

  g_setenv ("GTK_A11Y", "test", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_TRANSLATED);
  registry_setup ();

  g_test_add ("/library-window/lookup/offer", Fixture, NULL,
              lookup_window_setup, test_lookup_offer, NULL);
  g_test_add ("/library-window/lookup/busy-line", Fixture, NULL,
              lookup_setup, test_lookup_busy_line, NULL);
  g_test_add ("/library-window/lookup/row-figures", Fixture, NULL,
              lookup_setup, test_lookup_row_figures, NULL);
  g_test_add ("/library-window/lookup/row-marked", Fixture, NULL,
              lookup_setup, test_lookup_row_marked, NULL);
  g_test_add ("/library-window/lookup/explain", Fixture, NULL,
              lookup_setup, test_lookup_explain, NULL);
  g_test_add ("/library-window/lookup/reads-little", Fixture, NULL,
              lookup_setup, test_lookup_reads_little, NULL);
  g_test_add ("/library-window/lookup/screenshots", Fixture, NULL,
              lookup_setup, test_lookup_screenshots, NULL);
  g_test_add ("/library-window/lookup/add-to-catalog", Fixture, NULL,
              lookup_setup, test_lookup_add_to_catalog, NULL);
  g_test_add ("/library-window/lookup/added-not-offered", Fixture, NULL,
              lookup_setup, test_lookup_added_not_offered, NULL);
  g_test_add_func ("/library-window/unknown", test_unknown);
  g_test_add_func ("/library-window/bad-inputs", test_bad_inputs);
  g_test_add_func ("/library-window/cancel", test_cancel);
  g_test_add_func ("/library-window/pull", test_pull);
  g_test_add_func ("/library-window/pull-offline", test_pull_offline);

  test_app = gui_test_app_new ();
  result = gui_test_run_and_clean (&test_app, &isolated_root);
  fake_registry_free (registry);
  g_bytes_unref (qwen_header);
  g_free (qwen_manifest_digest);
  g_free (big_manifest_digest);
  return result;
}
