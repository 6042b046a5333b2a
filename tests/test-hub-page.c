/* test-hub-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Hugging Face page in the real window under Xvfb, against the fake Hub
 * (fake-hub.c): the Qwen/Qwen2.5-3B-Instruct lookup's four cards show the
 * figures of docs/seed-figures.md ("A Hugging Face lookup"), the memory summary
 * follows the cards' sliders, which are the shared scenario's (the Models
 * page's move with them), "Add to Catalog" adds a row whose origin
 * is hf:Qwen/Qwen2.5-3B-Instruct@<sha>, a failed lookup says why on the page,
 * and a cancelled lookup adds nothing.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "fake-hub.h"
#include "fault-server.h"
#include "gguf-writer.h"
#include "hr-catalog.h"
#include "hr-memory.h"
#include "hr-precision.h"
#include "hr-hub-page-private.h"
#include "hr-spec-memory-private.h"
#include "hr-model-facts.h"
#include "hub-fixtures.h"
#include "hr-models-page-private.h"
#include "hr-token-store.h"
#include "hr-window-private.h"
#include "gui-test-util.h"
#include "mmproj-fixtures.h"

static char *isolated_root;

typedef struct {
  FakeHub      *fake;
  HrHubClient  *client;
  HrWindow     *window;
  HrModelsPage *models;
  HrHubPage    *page;
} Fixture;

/* The controls, found as a person finds them: by their rows' titles. */
static AdwComboRow *
board_row (HrModelsPage *page)
{
  AdwPreferencesRow *row = find_titled_row (GTK_WIDGET (page), "_Board");

  g_assert_true (ADW_IS_COMBO_ROW (row));
  return ADW_COMBO_ROW (row);
}

static void
fixture_open (Fixture *f)
{
  g_autofree char *catalog = hr_data_user_file ("catalog.json");

  /* A window of the cases that share one is closed first. */
  gui_test_unshare ();
  g_unlink (catalog);
  reset_settings (1100, 900);
  /* The cards' figures here are the seed's plain math. */
  use_seed_runtime ();
  f->fake = fake_hub_new ();
  add_qwen (f->fake, QWEN_REPO, QWEN_FULL);
  f->client = g_object_new (HR_TYPE_HUB_CLIENT,
                            "endpoint", f->fake->hub_url,
                            "token", "",
                            "use-keyring", FALSE,
                            NULL);

  /* The window alone, without an application: a GtkApplication that is
   * registered but never run keeps a reference to itself until shutdown. */
  f->window = g_object_ref_sink (HR_WINDOW (g_object_new (HR_TYPE_WINDOW, NULL)));
  gtk_window_present (GTK_WINDOW (f->window));
  f->models = hr_window_get_models_page (f->window);
  f->page = HR_HUB_PAGE (hr_window_get_page (f->window, "hub"));
  g_assert_nonnull (f->page);
  hr_hub_page_set_client (f->page, f->client);

  /* Built on first show: until then the page is an empty bin. */
  g_assert_null (adw_bin_get_child (ADW_BIN (f->page)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "s", "hub"));
  g_assert_nonnull (adw_bin_get_child (ADW_BIN (f->page)));
  g_assert_true (iterate_until (widget_is_drawn, f->page, 5000));
  g_assert_cmpstr (hr_hub_page_get_state (f->page), ==, "intro");
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  spin (50);
  g_assert_finalize_object (f->window);
  g_assert_finalize_object (f->client);
  fake_hub_free (f->fake);
}

static gboolean
lookup_finished (gpointer data)
{
  return g_strcmp0 (hr_hub_page_get_state (data), "loading") != 0;
}

static void
look_up (Fixture    *f,
         const char *text)
{
  hr_hub_page_look_up (f->page, text);
  g_assert_true (iterate_until (lookup_finished, f->page, 10000));
  spin (50);
}

#define assert_fact(f, title, expected) \
  g_assert_cmpstr (hr_model_facts_get_value (hr_hub_page_get_cards ((f)->page), (title)), ==, (expected))
#define assert_subtitle(f, title, expected) \
  g_assert_cmpstr (hr_model_facts_get_subtitle (hr_hub_page_get_cards ((f)->page), (title)), ==, (expected))

/* The Qwen/Qwen2.5-3B-Instruct cases share one window with the lookup
 * answered. */
static Fixture qwen;

static void
qwen_close (void)
{
  adw_combo_row_set_selected (board_row (qwen.models), 0);
  fixture_close (&qwen);
}

static void
qwen_setup (Fixture       *f,
            gconstpointer  data)
{
  if (!gui_test_is_shared ("qwen-cards"))
    {
      fixture_open (&qwen);
      gui_test_share ("qwen-cards", qwen_close);
      look_up (&qwen, QWEN_REPO);
    }
  *f = qwen;
}

/* The cards' sliders at @precision and @context (their positions). */
static HrSpecMemory *
card_sliders (Fixture *f,
              double   precision,
              double   context)
{
  HrSpecMemory *memory = hr_hub_page_get_memory (f->page);

  gtk_range_set_value (hr_spec_memory_get_precision_scale (memory), precision);
  gtk_range_set_value (hr_spec_memory_get_context_scale (memory), context);
  return memory;
}

static void
test_qwen_answered (Fixture       *f,
                    gconstpointer  data)
{
  g_assert_cmpstr (hr_hub_page_get_state (f->page), ==, "answer");
}

/* docs/seed-figures.md, "A Hugging Face lookup", card 1: architecture and size. */
static void
test_qwen_architecture (Fixture       *f,
                        gconstpointer  data)
{
  assert_fact (f, "Architecture", "Qwen2ForCausalLM");
  assert_subtitle (f, "Architecture", "model_type qwen2");
  assert_fact (f, "Parameters", "3.09 B");
  g_assert_true (g_str_has_prefix (hr_model_facts_get_subtitle (hr_hub_page_get_cards (f->page), "Parameters"),
                                   "BF16 3,085,938,688; from "));
  /* The count derived from config.json is shown the same way, exact below. */
  assert_fact (f, "Derived from config.json", "3.09 B");
  g_assert_true (g_str_has_prefix (hr_model_facts_get_subtitle (hr_hub_page_get_cards (f->page), "Derived from config.json"),
                                   "3,085,938,688 counted from config.json’s shapes: "));
}

/* Card 1: the shapes and the context. */
static void
test_qwen_shapes (Fixture       *f,
                  gconstpointer  data)
{
  assert_fact (f, "Layers", "36");
  assert_fact (f, "Hidden size", "2,048");
  assert_fact (f, "Intermediate size", "11,008");
  assert_fact (f, "Attention heads", "16");
  assert_fact (f, "Key/value heads", "2");
  assert_fact (f, "Head dim", "128");
  assert_subtitle (f, "Head dim", "hidden size / heads");
  assert_fact (f, "Vocabulary", "151,936");
  assert_fact (f, "Native context", "32,768 tokens");
  assert_subtitle (f, "Native context", "max_position_embeddings");
  assert_fact (f, "Tokenizer cap", "131,072 tokens");
  assert_subtitle (f, "Tokenizer cap", "model_max_length in tokenizer_config.json: not the native limit");
  assert_fact (f, "Tied embeddings", "yes");
}

/* Card 2: base or instruct. */
static void
test_qwen_kind (Fixture       *f,
                gconstpointer  data)
{
  assert_fact (f, "Kind", "Instruct (chat) model");
  assert_fact (f, "Base model", "Qwen/Qwen2.5-3B");
  assert_fact (f, "BOS token", "151643");
  assert_fact (f, "EOS tokens", "151645 and 151643");
  g_assert_nonnull (hr_model_facts_find_row (hr_hub_page_get_cards (f->page),
                                             "Tokenizer_config.json carries a chat template"));
}

/* Card 3: the download. */
static void
test_qwen_download (Fixture       *f,
                    gconstpointer  data)
{
  assert_fact (f, "All files", "6,183,464,935 bytes");
  assert_subtitle (f, "All files", "6.18 GB (5.76 GiB) · 12 files");
  assert_fact (f, "Weights", "6,171,926,992 bytes");
  assert_fact (f, QWEN_SHARD1, "3,968,658,944 bytes");
  assert_fact (f, QWEN_SHARD2, "2,203,268,048 bytes");
  assert_fact (f, "Largest file", "3,968,658,944 bytes");
  assert_fact (f, "Tensor data", "6,171,877,376 bytes");
  assert_subtitle (f, "Tensor data", "6.17 GB (5.75 GiB) · 434 tensors");
  assert_fact (f, "Weights at the repository’s precision", "6,171,877,376 bytes");
}

/* Card 4: the license, the file's and not the badge's. */
static void
test_qwen_license (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *cards = hr_hub_page_get_cards (f->page);

  assert_fact (f, "License tag", "other (qwen-research)");
  assert_fact (f, "License file", "Qwen RESEARCH LICENSE AGREEMENT");
  assert_subtitle (f, "License file", "LICENSE");
  g_assert_true (g_str_has_prefix (hr_model_facts_get_subtitle (cards, "Commercial use"),
                                   "Not for commercial use: LICENSE says “non commercial”."));
  g_assert_nonnull (strstr (hr_model_facts_get_subtitle (cards, "Commercial use"),
                            "The badge is a label; the file is the contract"));
  g_assert_true (gtk_widget_has_css_class (hr_model_facts_find_row (cards, "Commercial use"), "hr-warning-row"));
}

/* The memory on the seed board at 4,096 tokens (f16 KV cache, one slot):
 * weights 3,085,938,688 x 16 / 8 = 6,171,877,376 bytes; KV cache
 * 2 x 36 x 2 x 128 x 2 x 4,096 = 150,994,944 bytes; 6.32 GB against a
 * 6.1 GB headroom (docs/seed-figures.md, "Budget and verdicts"). */
static void
test_qwen_memory (Fixture       *f,
                  gconstpointer  data)
{
  HrSpecMemory *memory = card_sliders (f, 0, 12);

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (memory)));
  g_assert_cmpstr (hr_spec_memory_get_summary (memory), ==,
                   "Weights 6.17 GB + KV cache 0.15 GB = 6.32 GB: over by 0.22 GB.");
}

/* The cards' sliders: Q4_K_M (4.6 bits) and 32,768 tokens. */
static void
test_qwen_card_sliders (Fixture       *f,
                        gconstpointer  data)
{
  HrSpecMemory *memory = card_sliders (f, 2, 15);

  g_assert_cmpstr (hr_spec_memory_get_summary (memory), ==,
                   "Weights 1.77 GB + KV cache 1.21 GB = 2.98 GB: fits with 2.12 GB to spare.");
}

/* The sliders are the shared scenario's: the Models page's moved with them. */
static void
test_qwen_sliders_move_models_page (Fixture       *f,
                                    gconstpointer  data)
{
  card_sliders (f, 2, 15);
  g_assert_cmpstr (hr_scenario_get_precision (hr_page_get_scenario (HR_PAGE (f->models))), ==, "q4_K_M");
  g_assert_cmpuint (hr_scenario_get_context_tokens (hr_page_get_scenario (HR_PAGE (f->models))), ==, 32768);
  g_assert_cmpfloat (gtk_range_get_value (hr_models_page_get_precision_scale (f->models)), ==, 2);
  g_assert_cmpfloat (gtk_range_get_value (hr_models_page_get_context_scale (f->models)), ==, 15);
}

/* Moving the Models page's sliders moves the cards' and the figures. */
static void
test_qwen_models_page_moves_sliders (Fixture       *f,
                                     gconstpointer  data)
{
  HrSpecMemory *memory = card_sliders (f, 2, 15);

  gtk_range_set_value (hr_models_page_get_context_scale (f->models), 12);
  g_assert_cmpfloat (gtk_range_get_value (hr_spec_memory_get_context_scale (memory)), ==, 12);
  g_assert_true (g_str_has_prefix (hr_spec_memory_get_summary (memory), "Weights 1.77 GB + KV cache 0.15 GB = "));
  gtk_range_set_value (hr_models_page_get_precision_scale (f->models), 0);
  g_assert_cmpfloat (gtk_range_get_value (hr_spec_memory_get_precision_scale (memory)), ==, 0);
  g_assert_cmpstr (hr_spec_memory_get_summary (memory), ==,
                   "Weights 6.17 GB + KV cache 0.15 GB = 6.32 GB: over by 0.22 GB.");
}

/* Past the native context: said so. */
static void
test_qwen_past_native (Fixture       *f,
                       gconstpointer  data)
{
  HrSpecMemory *memory = card_sliders (f, 2, 17);

  g_assert_nonnull (strstr (hr_spec_memory_get_summary (memory),
                            "The context is past the model's native limit of 32,768 tokens."));
  g_assert_cmpuint (hr_memory_chart_get_n_bars (hr_spec_memory_get_chart (memory)), ==, 1);
}

/* The Models page's board is the chart's: Q4_K_M at 131,072 tokens is
 * over on the Jetson, and fits on the DGX Spark. */
static void
test_qwen_board_is_models_page (Fixture       *f,
                                gconstpointer  data)
{
  HrSpecMemory *memory = card_sliders (f, 2, 17);
  GPtrArray *boards = hr_session_get_boards (hr_page_get_session (HR_PAGE (f->models)));

  g_assert_nonnull (strstr (hr_spec_memory_get_summary (memory), ": over by "));
  g_assert_cmpstr (((HrBoard *) g_ptr_array_index (boards, 1))->id, ==, "dgx-spark");
  adw_combo_row_set_selected (board_row (f->models), 1);
  g_assert_nonnull (strstr (hr_spec_memory_get_summary (memory), ": fits with "));
  adw_combo_row_set_selected (board_row (f->models), 0);
  g_assert_nonnull (strstr (hr_spec_memory_get_summary (memory), ": over by "));
}

/* A lookup is remembered; one from the menu's action, at a revision, is
 * newest first. */
static void
test_qwen_recent (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_auto(GStrv) recent = g_settings_get_strv (settings, "recent-hf-lookups");
  g_auto(GStrv) after = NULL;

  g_assert_cmpstr (recent[0], ==, QWEN_REPO);
  g_assert_null (recent[1]);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->page), "hub.lookup-recent", "s", QWEN_REPO "@main"));
  g_assert_true (iterate_until (lookup_finished, f->page, 10000));
  g_assert_cmpstr (hr_hub_page_get_state (f->page), ==, "answer");
  g_assert_cmpstr (gtk_editable_get_text (hr_hub_page_get_entry (f->page)), ==, QWEN_REPO "@main");
  after = g_settings_get_strv (settings, "recent-hf-lookups");
  g_assert_cmpstr (after[0], ==, QWEN_REPO "@main");
  g_assert_cmpstr (after[1], ==, QWEN_REPO);
  g_assert_null (after[2]);
}

static void
test_add_to_catalog (void)
{
  Fixture f = { 0 };
  g_autofree char *catalog_path = hr_data_user_file ("catalog.json");
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GError) error = NULL;
  HrSpecMemory *memory;
  HrModelRow *row;
  const HrModelSpec *spec;
  GPtrArray *messages;

  fixture_open (&f);
  g_assert_null (hr_models_page_find_row (f.models, QWEN_REPO));
  /* From the keyboard: type the id, press Enter. */
  gtk_widget_grab_focus (GTK_WIDGET (hr_hub_page_get_entry (f.page)));
  gtk_editable_set_text (hr_hub_page_get_entry (f.page), QWEN_REPO);
  g_signal_emit_by_name (hr_hub_page_get_entry (f.page), "activate");
  g_assert_cmpstr (hr_hub_page_get_state (f.page), ==, "loading");
  g_assert_true (iterate_until (lookup_finished, f.page, 10000));
  memory = hr_hub_page_get_memory (f.page);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (hr_spec_memory_get_add_button (memory))));
  g_signal_emit_by_name (hr_spec_memory_get_add_button (memory), "clicked");

  row = hr_models_page_find_row (f.models, QWEN_REPO);
  g_assert_nonnull (row);
  spec = hr_model_row_get_spec (row);
  g_assert_cmpstr (spec->origin, ==, "hf:" QWEN_REPO "@" QWEN_SHA);
  g_assert_cmpuint (spec->parameters, ==, QWEN_PARAMETERS);
  g_assert_cmpuint (spec->layers, ==, 36);
  g_assert_cmpuint (spec->kv_heads, ==, 2);
  g_assert_cmpstr (hr_spec_memory_get_add_status (memory), ==,
                   "Added to the catalog as “" QWEN_REPO "” (origin hf:" QWEN_REPO "@" QWEN_SHA ").");
  messages = hr_window_get_messages (f.window);
  g_assert_cmpstr (g_ptr_array_index (messages, messages->len - 1), ==, hr_spec_memory_get_add_status (memory));

  /* Saved in the user's catalog, origin and all. */
  saved = hr_catalog_load_file (catalog_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (saved->len, ==, 1);
  g_assert_cmpstr (((HrModelSpec *) g_ptr_array_index (saved, 0))->origin, ==, "hf:" QWEN_REPO "@" QWEN_SHA);

  fixture_close (&f);
  g_unlink (catalog_path);
}

/* A GGUF repository: no config.json; the figures come from the header of
 * the chosen file, read by Range. A small llama-shaped model: 2 layers,
 * embedding 256, 4 heads, 2 KV heads, vocabulary 64, all F32. */
static GBytes *
small_gguf (guint64 *out_file_size)
{
  const guint64 E = 256, KV = 128, V = 64;
  const guint64 embd[2] = { E, V }, q[2] = { E, E }, kv[2] = { E, KV }, norm[1] = { E };
  GgufWriter *w = gw_new ();
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  guint64 offset = 0;

  for (guint i = 0; i < V; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("t%u", i));
  gw_header (w, 3, 1 + 2 * 4, 9);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_str (w, "general.name", "Small Test");
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
      g_autofree char *n4 = g_strdup_printf ("blk.%u.attn_norm.weight", i);

      gw_tensor (w, n1, 2, q, GW_F32, offset);
      offset += E * E * 4;
      gw_tensor (w, n2, 2, kv, GW_F32, offset);
      offset += E * KV * 4;
      gw_tensor (w, n3, 2, kv, GW_F32, offset);
      offset += E * KV * 4;
      gw_tensor (w, n4, 1, norm, GW_F32, offset);
      offset += E * 4;
    }
  *out_file_size = gw_align (w->len, 32) + offset;
  return g_byte_array_free_to_bytes (w);
}

static void
test_gguf_repo (void)
{
  Fixture f = { 0 };
  guint64 file_size = 0;
  g_autoptr(GBytes) head = small_gguf (&file_size);
  const char *repo_id = "test-org/Small-Test-GGUF";
  const char *sha = "2222222222222222222222222222222222222222";
  FakeRepo *repo;
  g_autofree char *size = NULL;
  g_autofree char *size_text = NULL;
  HrSpecMemory *memory;
  HrModelRow *row;

  fixture_open (&f);
  repo = fake_add_repo (f.fake, repo_id, sha,
                        "{\"tags\":[\"gguf\",\"license:apache-2.0\"],\"cardData\":{\"license\":\"apache-2.0\"},"
                        "\"config\":{},\"gguf\":{\"architecture\":\"llama\",\"context_length\":4096}}");
  repo_add_file (repo, "README.md", 900, FALSE, NULL, FALSE);
  repo_add_file (repo, "Small-Test-F32.gguf", file_size, TRUE, head, TRUE);

  look_up (&f, repo_id);
  g_assert_cmpstr (hr_hub_page_get_state (f.page), ==, "answer");
  assert_fact (&f, "Layers", "2");
  assert_subtitle (&f, "Layers", "from the GGUF header of Small-Test-F32.gguf");
  assert_fact (&f, "Attention heads", "4");
  assert_fact (&f, "Key/value heads", "2");
  assert_fact (&f, "Head dim", "64");
  assert_fact (&f, "Native context", "4,096 tokens");
  size = hr_format_count (file_size);
  size_text = g_strdup_printf ("%s bytes", size);
  assert_fact (&f, "F32 Small-Test-F32.gguf", size_text);
  g_assert_nonnull (hr_model_facts_get_value (hr_hub_page_get_cards (f.page), "Bits per parameter"));
  assert_fact (&f, "License tag", "apache-2.0");

  memory = hr_hub_page_get_memory (f.page);
  /* general.file_type 0 (F32) is the fp32 precision: the model can be sized. */
  g_assert_cmpstr (hr_hub_page_get_lookup (f.page)->spec->precision, ==, "fp32");
  g_assert_cmpstr (hr_spec_memory_get_summary (memory), ==,
                   "Weights 0.0 GB + KV cache 0.0 GB = 0.01 GB: fits with 5.09 GB to spare.");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (hr_spec_memory_get_add_button (memory))));
  g_signal_emit_by_name (hr_spec_memory_get_add_button (memory), "clicked");
  row = hr_models_page_find_row (f.models, repo_id);
  g_assert_nonnull (row);
  g_assert_cmpstr (hr_model_row_get_spec (row)->origin, ==, "hf:test-org/Small-Test-GGUF@2222222222222222222222222222222222222222");
  g_assert_cmpuint (hr_model_row_get_spec (row)->layers, ==, 2);

  fixture_close (&f);
  {
    g_autofree char *catalog_path = hr_data_user_file ("catalog.json");

    g_unlink (catalog_path);
  }
}

/* A GGUF repository with two mmproj files: the one llama.cpp's -hf takes
 * with the F32 model (F32, 0 bits away; F16 is 16) is read, and the
 * Vision Projector card shows its exact bytes; with
 * HEADROOM_HUB_SCREENSHOT set to a folder the card is saved there as
 * hub-projector.png. */
static void
test_projector (void)
{
  Fixture f = { 0 };
  guint64 file_size = 0;
  g_autoptr(GBytes) head = small_gguf (&file_size);
  g_autoptr(GgufWriter) projector = mmproj_write_projector ();
  g_autoptr(GBytes) projector_head = g_bytes_new (projector->data, projector->len);
  const char *repo_id = "test-org/Small-Vision-GGUF";
  const char *dir = g_getenv ("HEADROOM_HUB_SCREENSHOT");
  FakeRepo *repo;

  fixture_open (&f);
  repo = fake_add_repo (f.fake, repo_id, "5555555555555555555555555555555555555555",
                        "{\"tags\":[\"gguf\",\"license:apache-2.0\"],\"cardData\":{\"license\":\"apache-2.0\"},"
                        "\"config\":{},\"gguf\":{\"architecture\":\"llama\",\"context_length\":4096}}");
  repo_add_file (repo, "Small-Test-F32.gguf", file_size, TRUE, head, TRUE);
  repo_add_file (repo, "mmproj-Small-F16.gguf", projector->len, TRUE, projector_head, TRUE);
  repo_add_file (repo, "mmproj-Small-F32.gguf", projector->len, TRUE, projector_head, TRUE);

  look_up (&f, repo_id);
  g_assert_cmpstr (hr_hub_page_get_state (f.page), ==, "answer");
  assert_fact (&f, "Projector", "55,296 bytes");
  assert_subtitle (&f, "Projector", "0.00 GB (0.00 GiB) · mmproj-Small-F32.gguf: all its 3 tensors, as Ollama counts a separate projector");
  assert_fact (&f, "Fit margin", "1,025 MiB");
  g_assert_cmpuint (hr_hub_page_get_lookup (f.page)->spec->projector_bytes, ==, MMPROJ_FILE_TENSOR_BYTES);
  if (dir != NULL)
    {
      g_autofree char *png = g_build_filename (dir, "hub-projector.png", NULL);
      GtkWidget *row = hr_model_facts_find_row (hr_hub_page_get_cards (f.page), "Projector");

      spin (300);
      gui_test_save_png (gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP), png);
    }
  fixture_close (&f);
}

/* The errors' story: one window, each lookup failing its own way. */
static Fixture errors;

static void
errors_open (gpointer data)
{
  fixture_open (data);
}

static void
errors_close (void)
{
  fixture_close (&errors);
}

/* Not a repository id: refused at once, no request made. */
static void
test_errors_not_a_repo (Fixture       *f,
                        gconstpointer  data)
{
  look_up (f, "not a repo");
  g_assert_cmpstr (hr_hub_page_get_state (f->page), ==, "error");
  g_assert_cmpstr (adw_status_page_get_title (hr_hub_page_get_error_page (f->page)), ==, "Not a Repository Id");
  g_assert_cmpuint (f->fake->requests, ==, 0);
}

/* A repository the Hub does not have. */
static void
test_errors_not_found (Fixture       *f,
                       gconstpointer  data)
{
  AdwStatusPage *status = hr_hub_page_get_error_page (f->page);

  look_up (f, "Qwen/No-Such-Model");
  g_assert_cmpstr (hr_hub_page_get_state (f->page), ==, "error");
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Repository Not Found");
  g_assert_nonnull (strstr (adw_status_page_get_description (status), "Qwen/No-Such-Model"));
  g_assert_cmpstr (adw_status_page_get_description (status), ==,
                   "No repository Qwen/No-Such-Model: check the name; if it is private or gated, set a token that can read it");
}

/* A revision it does not know. */
static void
test_errors_no_revision (Fixture       *f,
                         gconstpointer  data)
{
  AdwStatusPage *status = hr_hub_page_get_error_page (f->page);

  look_up (f, QWEN_REPO "@v9");
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "No Such Revision");
  g_assert_nonnull (strstr (adw_status_page_get_description (status), "v9"));
}

/* Rate limited: the Hub's words and the wait. */
static void
test_errors_rate_limited (Fixture       *f,
                          gconstpointer  data)
{
  AdwStatusPage *status = hr_hub_page_get_error_page (f->page);

  fake_fault (f->fake, "/api/models/", 429, NULL, "You have been rate-limited");
  f->fake->fault_header = g_strdup ("Retry-After");
  f->fake->fault_value = g_strdup ("30");
  look_up (f, QWEN_REPO);
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "The Hub Is Busy");
  g_assert_nonnull (strstr (adw_status_page_get_description (status), "30"));
}

/* Nothing listens: the page says the Hub cannot be reached. */
static void
test_errors_unreachable (Fixture       *f,
                         gconstpointer  data)
{
  AdwStatusPage *status = hr_hub_page_get_error_page (f->page);
  g_autoptr(HrHubClient) offline = g_object_new (HR_TYPE_HUB_CLIENT,
                                                 "endpoint", "http://127.0.0.1:9",
                                                 "token", "",
                                                 "use-keyring", FALSE,
                                                 NULL);

  hr_hub_page_set_client (f->page, offline);
  look_up (f, QWEN_REPO);
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Could Not Reach the Hub");
  g_assert_cmpstr (adw_status_page_get_icon_name (status), ==, "network-offline-symbolic");
  g_assert_nonnull (strstr (adw_status_page_get_description (status), "check the network or HF_ENDPOINT"));
  hr_hub_page_set_client (f->page, f->client);
}

/* Nothing was remembered, nothing shown as an answer. */
static void
test_errors_nothing_kept (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_auto(GStrv) recent = g_settings_get_strv (settings, "recent-hf-lookups");

  g_assert_null (hr_hub_page_get_lookup (f->page));
  g_assert_null (recent[0]);
}

static const GuiTestStep errors_steps[] = {
  { "/hub-page/errors/not-a-repo", (GTestFixtureFunc) test_errors_not_a_repo },
  { "/hub-page/errors/not-found", (GTestFixtureFunc) test_errors_not_found },
  { "/hub-page/errors/no-revision", (GTestFixtureFunc) test_errors_no_revision },
  { "/hub-page/errors/rate-limited", (GTestFixtureFunc) test_errors_rate_limited },
  { "/hub-page/errors/unreachable", (GTestFixtureFunc) test_errors_unreachable },
  { "/hub-page/errors/nothing-kept", (GTestFixtureFunc) test_errors_nothing_kept },
};

static GuiTestStory errors_story = {
  "errors", errors_open, errors_close, errors_steps, G_N_ELEMENTS (errors_steps), &errors, sizeof (Fixture), 0
};

static void
test_cancel (void)
{
  Fixture f = { 0 };
  guint n_rows;

  fixture_open (&f);
  n_rows = g_list_model_get_n_items (hr_models_page_get_rows (f.models));
  /* The file tree never answers: the lookup waits until cancelled. */
  fake_fault (f.fake, "/api/models/" QWEN_REPO "/tree/", 0, NULL, NULL);
  f.fake->fault_stall = TRUE;
  hr_hub_page_look_up (f.page, QWEN_REPO);
  spin (300);
  g_assert_cmpstr (hr_hub_page_get_state (f.page), ==, "loading");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.page), "hub.cancel", NULL));
  g_assert_true (iterate_until (lookup_finished, f.page, 5000));
  g_assert_cmpstr (hr_hub_page_get_state (f.page), ==, "intro");
  g_assert_null (hr_hub_page_get_lookup (f.page));
  g_assert_cmpuint (g_list_model_get_n_items (hr_models_page_get_rows (f.models)), ==, n_rows);
  fixture_close (&f);
}

/* The card sized the model at Q4_K_M: the catalog gets Q4_K_M, with the
 * weights the card showed, not the repository's BF16. */
static void
test_add_at_card_precision (void)
{
  Fixture f = { 0 };
  g_autofree char *catalog_path = hr_data_user_file ("catalog.json");
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GError) error = NULL;
  const HrPrecision *q4 = hr_precision_lookup ("q4_K_M");
  guint64 weights = hr_memory_weight_bytes (QWEN_PARAMETERS, q4->bits_per_weight);
  const HrModelSpec *spec;
  HrSpecMemory *memory;

  fixture_open (&f);
  look_up (&f, QWEN_REPO);
  memory = hr_hub_page_get_memory (f.page);
  g_assert_cmpstr (hr_hub_page_get_lookup (f.page)->spec->precision, ==, "bf16");
  gtk_range_set_value (hr_spec_memory_get_precision_scale (memory), 2);
  g_assert_true (g_str_has_prefix (hr_spec_memory_get_summary (memory), "Weights 1.77 GB + "));
  g_signal_emit_by_name (hr_spec_memory_get_add_button (memory), "clicked");

  spec = hr_model_row_get_spec (hr_models_page_find_row (f.models, QWEN_REPO));
  g_assert_cmpstr (spec->precision, ==, "q4_K_M");
  g_assert_cmpuint (spec->file_bytes, ==, weights);
  g_assert_cmpuint (spec->parameters, ==, QWEN_PARAMETERS);
  g_assert_cmpfloat_with_epsilon (hr_memory_effective_bits (spec->file_bytes, spec->parameters), 4.6, 0.001);
  g_assert_cmpstr (spec->origin, ==, "hf:" QWEN_REPO "@" QWEN_SHA);

  saved = hr_catalog_load_file (catalog_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (saved->len, ==, 1);
  g_assert_cmpstr (((HrModelSpec *) g_ptr_array_index (saved, 0))->precision, ==, "q4_K_M");
  g_assert_cmpuint (((HrModelSpec *) g_ptr_array_index (saved, 0))->file_bytes, ==, weights);

  /* Back at "as published": the repository's own BF16 files. */
  gtk_range_set_value (hr_spec_memory_get_precision_scale (memory), 0);
  g_signal_emit_by_name (hr_spec_memory_get_add_button (memory), "clicked");
  spec = hr_model_row_get_spec (hr_models_page_find_row (f.models, QWEN_REPO));
  g_assert_cmpstr (spec->precision, ==, "bf16");
  g_assert_cmpuint (spec->file_bytes, ==, QWEN_TOTAL_SIZE);

  fixture_close (&f);
  g_unlink (catalog_path);
}

static int
minimum_width (GtkWidget *widget)
{
  int minimum = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  return minimum;
}

/* A phone-sized window: in every state, nothing on the page asks for more
 * than 360 pixels. */
static void
test_narrow (void)
{
  Fixture f = { 0 };

  fixture_open (&f);
  g_assert_cmpint (minimum_width (GTK_WIDGET (f.page)), <=, 360);
  look_up (&f, QWEN_REPO);
  g_assert_cmpstr (hr_hub_page_get_state (f.page), ==, "answer");
  g_assert_cmpint (minimum_width (GTK_WIDGET (f.page)), <=, 360);
  look_up (&f, "Qwen/No-Such-Model");
  g_assert_cmpstr (hr_hub_page_get_state (f.page), ==, "error");
  g_assert_cmpint (minimum_width (GTK_WIDGET (f.page)), <=, 360);
  fixture_close (&f);
}

static void
on_client_lookup (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* What headroom-cli hub prints after "headroom-cli: " for @text: the
 * lookup's error message, from the same client. */
static char *
cli_message (HrHubClient *client,
             const char  *text)
{
  g_autofree char *repo = NULL;
  g_autofree char *revision = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;

  g_assert_true (hr_hf_repo_parse (text, &repo, &revision, &error));
  hr_hub_client_lookup_async (client, repo, revision, NULL, on_client_lookup, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  lookup = hr_hub_client_lookup_finish (client, result, &error);
  g_assert_null (lookup);
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

/* The page shows @expected, which the CLI says too, under @title. */
static void
assert_fault (Fixture     *f,
              HrHubClient *client,
              const char  *text,
              const char  *title,
              const char  *expected)
{
  AdwStatusPage *status = hr_hub_page_get_error_page (f->page);
  g_autofree char *cli = cli_message (client, text);
  g_autofree char *escaped = g_markup_escape_text (expected, -1);

  g_assert_cmpstr (cli, ==, expected);
  hr_hub_page_set_client (f->page, client);
  look_up (f, text);
  g_assert_cmpstr (hr_hub_page_get_state (f->page), ==, "error");
  g_assert_cmpstr (adw_status_page_get_title (status), ==, title);
  g_assert_cmpstr (adw_status_page_get_description (status), ==, escaped);
}

/* Hostile Hub in the window: a stall, a 500 with a body,
 * malformed JSON and a 401 on a gated repository each give the CLI's
 * words, in bounded time, and a later good lookup still works. */
static void
test_faults (void)
{
  Fixture f = { 0 };
  FaultServer *faults = fault_server_new ();
  const char *info_path = "/api/models/" QWEN_REPO "/revision/main";
  g_autoptr(HrHubClient) hostile = g_object_new (HR_TYPE_HUB_CLIENT,
                                                 "endpoint", fault_server_get_url (faults),
                                                 "token", "",
                                                 "use-keyring", FALSE,
                                                 "timeout", 500,
                                                 NULL);
  g_autoptr(HrHubClient) wrong_token = NULL;
  g_autofree char *expected = NULL;
  gint64 start;

  fixture_open (&f);

  /* Reads the request, never answers: given up at the client's deadline. */
  fault_server_set (faults, info_path, FAULT_STALL_HEADERS, 0, NULL);
  start = g_get_monotonic_time ();
  expected = g_strdup_printf ("%s did not answer within 1 second: check the network or HF_ENDPOINT, then try again",
                              fault_server_get_url (faults) + strlen ("http://"));
  assert_fault (&f, hostile, QWEN_REPO, "Could Not Reach the Hub", expected);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);

  /* A 500 with the server's words. */
  fault_server_set (faults, info_path, FAULT_BODY, 500, "{\"error\":\"Internal Error: the shard is on fire\"}");
  g_clear_pointer (&expected, g_free);
  expected = g_strdup ("The Hub failed (HTTP 500): try again later");
  assert_fault (&f, hostile, QWEN_REPO, "The Lookup Failed", expected);

  /* 200, but not JSON. */
  fault_server_set (faults, info_path, FAULT_BODY, 200, "{\"sha\": \"aa8e");
  g_clear_pointer (&expected, g_free);
  expected = g_strdup ("The Hub's model information for " QWEN_REPO " is not a JSON object: check HF_ENDPOINT");
  assert_fault (&f, hostile, QWEN_REPO, "The Lookup Failed", expected);

  /* A gated repository and a token the Hub refuses. */
  fake_fault (f.fake, "/api/models/test-org/gated-model", 401, "GatedRepo",
              "Access to model test-org/gated-model is restricted. You must have access to it and be authenticated to access it. Please log in.");
  fake_add_repo (f.fake, "test-org/gated-model", "3333333333333333333333333333333333333333",
                 "{\"gated\":\"manual\"}")->gated = TRUE;
  wrong_token = g_object_new (HR_TYPE_HUB_CLIENT, "endpoint", f.fake->hub_url, "token", "hf_wrong",
                              "use-keyring", FALSE, NULL);
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("test-org/gated-model is gated: request access on its page, %s/test-org/gated-model, "
                              "then set a token that has access (HF_TOKEN or the stored token)", f.fake->hub_url);
  assert_fault (&f, wrong_token, "test-org/gated-model", "Access Needed", expected);

  /* Still usable: the good Hub answers, nothing of the faults remembered. */
  g_clear_pointer (&f.fake->fault_prefix, g_free);
  hr_hub_page_set_client (f.page, f.client);
  look_up (&f, QWEN_REPO);
  g_assert_cmpstr (hr_hub_page_get_state (f.page), ==, "answer");
  g_assert_cmpstr (hr_hub_page_get_lookup (f.page)->sha, ==, QWEN_SHA);

  fixture_close (&f);
  fault_server_free (faults);
}

static gboolean
token_status_said (gpointer data)
{
  return hr_hub_page_get_token_status (data) != NULL;
}

/* No Secret Service on the tests' bus (dbus-run-session, no keyring): a
 * token typed in the page cannot be remembered, and the page says so in
 * words, but it is sent to the Hub for the rest of the session. */
static void
test_token_without_keyring (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) empty = g_bytes_new_static ("{}", 2);
  AdwStatusPage *status;
  AdwPasswordEntryRow *row;
  FakeRepo *gated;

  fixture_open (&f);
  status = hr_hub_page_get_error_page (f.page);
  gated = fake_add_repo (f.fake, "test-org/gated-model", "3333333333333333333333333333333333333333",
                         "{\"gated\":\"manual\",\"tags\":[\"license:llama3.1\"]}");
  gated->gated = TRUE;
  repo_add_file (gated, "config.json", 2, FALSE, empty, FALSE);
  f.fake->valid_token = g_strdup ("hf_fixture_token");

  /* Without a token: gated. */
  look_up (&f, "test-org/gated-model");
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Access Needed");
  g_assert_null (hr_hub_page_get_token_status (f.page));

  row = hr_hub_page_get_token_row (f.page);
  gtk_editable_set_text (GTK_EDITABLE (row), "  hf_fixture_token ");
  g_signal_emit_by_name (row, "apply");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row)), ==, "");
  if (!iterate_until (token_status_said, f.page, 10000))
    {
      g_test_skip ("a Secret Service answers on this bus");
      fixture_close (&f);
      return;
    }
  if (hr_token_store_is_built ())
    g_assert_cmpstr (hr_hub_page_get_token_status (f.page), ==,
                     "The keyring is not available (no Secret Service is running), so the token could not be "
                     "remembered. It is used until you quit Headroom; to give a token at every start without a "
                     "keyring, set HF_TOKEN in the environment.");
  else
    g_assert_cmpstr (hr_hub_page_get_token_status (f.page), ==,
                     "This Headroom was built without keyring support (libsecret), so the token could not be "
                     "remembered. It is used until you quit Headroom; to give a token at every start without a "
                     "keyring, set HF_TOKEN in the environment.");

  /* The token is used anyway, to the Hub. */
  look_up (&f, "test-org/gated-model");
  g_assert_cmpstr (hr_hub_page_get_state (f.page), ==, "answer");
  g_assert_cmpstr (f.fake->hub_authorization, ==, "Bearer hf_fixture_token");
  g_assert_cmpstr (hr_hub_page_get_lookup (f.page)->repo, ==, "test-org/gated-model");

  /* Emptied: forgotten for the session too, the lookup is anonymous again. */
  gtk_editable_set_text (GTK_EDITABLE (row), "");
  g_signal_emit_by_name (row, "apply");
  look_up (&f, "test-org/gated-model");
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Access Needed");
  spin (200);
  fixture_close (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_unsetenv ("HF_TOKEN");
  g_unsetenv ("HF_ENDPOINT");
  /* Cairo, not GL: see test-gguf-page.c. */
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_DEFAULT);

  g_test_add ("/hub-page/qwen-cards/answered", Fixture, NULL,
              qwen_setup, test_qwen_answered, NULL);
  g_test_add ("/hub-page/qwen-cards/architecture", Fixture, NULL,
              qwen_setup, test_qwen_architecture, NULL);
  g_test_add ("/hub-page/qwen-cards/shapes", Fixture, NULL,
              qwen_setup, test_qwen_shapes, NULL);
  g_test_add ("/hub-page/qwen-cards/kind", Fixture, NULL,
              qwen_setup, test_qwen_kind, NULL);
  g_test_add ("/hub-page/qwen-cards/download", Fixture, NULL,
              qwen_setup, test_qwen_download, NULL);
  g_test_add ("/hub-page/qwen-cards/license", Fixture, NULL,
              qwen_setup, test_qwen_license, NULL);
  g_test_add ("/hub-page/qwen-cards/memory", Fixture, NULL,
              qwen_setup, test_qwen_memory, NULL);
  g_test_add ("/hub-page/qwen-cards/card-sliders", Fixture, NULL,
              qwen_setup, test_qwen_card_sliders, NULL);
  g_test_add ("/hub-page/qwen-cards/sliders-move-models-page", Fixture, NULL,
              qwen_setup, test_qwen_sliders_move_models_page, NULL);
  g_test_add ("/hub-page/qwen-cards/models-page-moves-sliders", Fixture, NULL,
              qwen_setup, test_qwen_models_page_moves_sliders, NULL);
  g_test_add ("/hub-page/qwen-cards/past-native-context", Fixture, NULL,
              qwen_setup, test_qwen_past_native, NULL);
  g_test_add ("/hub-page/qwen-cards/board-is-models-page", Fixture, NULL,
              qwen_setup, test_qwen_board_is_models_page, NULL);
  g_test_add ("/hub-page/qwen-cards/recent", Fixture, NULL,
              qwen_setup, test_qwen_recent, NULL);
  g_test_add_func ("/hub-page/add-to-catalog", test_add_to_catalog);
  g_test_add_func ("/hub-page/add-at-card-precision", test_add_at_card_precision);
  g_test_add_func ("/hub-page/gguf-repo", test_gguf_repo);
  g_test_add_func ("/hub-page/projector", test_projector);
  gui_test_story_add (&errors_story);
  g_test_add_func ("/hub-page/cancel", test_cancel);
  g_test_add_func ("/hub-page/token-without-keyring", test_token_without_keyring);
  g_test_add_func ("/hub-page/narrow", test_narrow);
  g_test_add_func ("/hub-page/faults", test_faults);

  return gui_test_run_and_clean (NULL, &isolated_root);
}
