/* test-gguf-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The File page in the real window under Xvfb: a small GGUF written here
 * (gguf-writer.h) shows the facts `headroom-cli gguf` prints, its sha256 is
 * computed for the catalog row's origin (or taken from an Ollama blob's
 * name), "Add to Catalog" records it, and a file that is not a usable GGUF
 * shows the parser's message.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cli-test-util.h"
#include "gguf-writer.h"
#include "hr-catalog.h"
#include "hr-gguf-page-private.h"
#include "hr-spec-memory-private.h"
#include "hr-model-facts.h"
#include "hr-models-page-private.h"
#include "hr-window-private.h"
#include "gui-test-util.h"
#include "mmproj-fixtures.h"

static char *isolated_root;

/* ------------------------------------------------------------------ */
/* A small model: llama-shaped, 2 layers, embedding 256, 4 heads and 2 KV
 * heads (head dim 64), feed-forward 512, vocabulary 320, tied embeddings;
 * Q4_K_M-like types: token_embd and attn_v Q6_K, the other matrices Q4_K,
 * norms F32. Parameters: 81,920 + 2 x 590,336 + 256 = 1,262,848; tensor
 * bytes: Q6_K 120,960 + Q4_K 626,688 + F32 5,120 = 752,768 (every tensor
 * ends on a 32-byte boundary, so that is also where the data ends). */

#define TINY_PARAMETERS   G_GUINT64_CONSTANT (1262848)
#define TINY_TENSOR_BYTES G_GUINT64_CONSTANT (752768)
#define TINY_TEMPLATE "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"

static GBytes *
tiny_gguf_named (const char *general_name)
{
  const guint64 E = 256, F = 512, KV = 128, V = 320;
  GwTensorSpec specs[32];
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  GgufWriter *w = gw_new ();
  guint n = 0;
  guint64 data_offset;

#define ADD(nm, nd, d0, d1, ty) G_STMT_START { \
    specs[n].name = nm; specs[n].n_dims = nd; specs[n].dims[0] = d0; specs[n].dims[1] = d1; \
    specs[n].type = ty; n++; } G_STMT_END
#define NAME(i, suffix) ({ char *nm_ = g_strdup_printf ("blk.%u." suffix, i); g_ptr_array_add (names, nm_); nm_; })
  ADD ("token_embd.weight", 2, E, V, GW_Q6_K);
  for (guint i = 0; i < 2; i++)
    {
      ADD (NAME (i, "attn_norm.weight"), 1, E, 1, GW_F32);
      ADD (NAME (i, "attn_q.weight"), 2, E, E, GW_Q4_K);
      ADD (NAME (i, "attn_k.weight"), 2, E, KV, GW_Q4_K);
      ADD (NAME (i, "attn_v.weight"), 2, E, KV, GW_Q6_K);
      ADD (NAME (i, "attn_output.weight"), 2, E, E, GW_Q4_K);
      ADD (NAME (i, "ffn_gate.weight"), 2, E, F, GW_Q4_K);
      ADD (NAME (i, "ffn_up.weight"), 2, E, F, GW_Q4_K);
      ADD (NAME (i, "ffn_down.weight"), 2, F, E, GW_Q4_K);
      ADD (NAME (i, "ffn_norm.weight"), 1, E, 1, GW_F32);
    }
  ADD ("output_norm.weight", 1, E, 1, GW_F32);
#undef NAME
#undef ADD

  g_ptr_array_add (tokens, g_strdup ("<s>"));
  g_ptr_array_add (tokens, g_strdup ("</s>"));
  g_ptr_array_add (tokens, g_strdup ("<|im_start|>"));
  g_ptr_array_add (tokens, g_strdup ("<|im_end|>"));
  for (guint i = 4; i < V; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("t%u", i));

  gw_header (w, 3, n, general_name != NULL ? 15 : 14);
  gw_kv_str (w, "general.architecture", "llama");
  if (general_name != NULL)
    gw_kv_str (w, "general.name", general_name);
  gw_kv_u32 (w, "general.file_type", 15);
  gw_kv_u32 (w, "llama.block_count", 2);
  gw_kv_u32 (w, "llama.context_length", 2048);
  gw_kv_u32 (w, "llama.embedding_length", (guint32) E);
  gw_kv_u32 (w, "llama.feed_forward_length", (guint32) F);
  gw_kv_u32 (w, "llama.attention.head_count", 4);
  gw_kv_u32 (w, "llama.attention.head_count_kv", 2);
  gw_kv_str (w, "tokenizer.ggml.model", "gpt2");
  gw_kv_str (w, "tokenizer.ggml.pre", "llama-bpe");
  gw_kv_str_array (w, "tokenizer.ggml.tokens", (const char * const *) tokens->pdata, tokens->len);
  gw_kv_u32 (w, "tokenizer.ggml.bos_token_id", 0);
  gw_kv_u32 (w, "tokenizer.ggml.eos_token_id", 3);
  gw_kv_str (w, "tokenizer.chat_template", TINY_TEMPLATE);
  gw_write_tensors (w, specs, n);
  data_offset = gw_align (w->len, 32);
  g_byte_array_set_size (w, (guint) (data_offset + TINY_TENSOR_BYTES));
  memset (w->data + data_offset, 0, TINY_TENSOR_BYTES);
  for (guint64 i = 0; i < TINY_TENSOR_BYTES; i += 4096)
    w->data[data_offset + i] = (guint8) (i / 4096);
  return g_byte_array_free_to_bytes (w);
}

static GBytes *
tiny_gguf (void)
{
  return tiny_gguf_named ("Tiny Test");
}

/* The same tensors under lfm2's keys: layer 0 a short convolution (no KV
 * heads), layer 1 attention; shortconv.l_cache 3 gives n_embd_r = 256 x 2
 * = 512 values and no n_embd_s (llama.cpp src/llama-hparams.cpp). */
static GBytes *
tiny_hybrid_gguf (void)
{
  const guint32 kv[] = { 0, 2 };
  GgufWriter *w = gw_new ();
  GwTensorSpec specs[32];
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  const guint64 E = 256, F = 512, KV = 128, V = 320;
  guint n = 0;
  guint64 data_offset;

#define ADD(nm, nd, d0, d1, ty) G_STMT_START { \
    specs[n].name = nm; specs[n].n_dims = nd; specs[n].dims[0] = d0; specs[n].dims[1] = d1; \
    specs[n].type = ty; n++; } G_STMT_END
#define NAME(i, suffix) ({ char *nm_ = g_strdup_printf ("blk.%u." suffix, i); g_ptr_array_add (names, nm_); nm_; })
  ADD ("token_embd.weight", 2, E, V, GW_Q6_K);
  for (guint i = 0; i < 2; i++)
    {
      ADD (NAME (i, "attn_norm.weight"), 1, E, 1, GW_F32);
      ADD (NAME (i, "attn_q.weight"), 2, E, E, GW_Q4_K);
      ADD (NAME (i, "attn_k.weight"), 2, E, KV, GW_Q4_K);
      ADD (NAME (i, "attn_v.weight"), 2, E, KV, GW_Q6_K);
      ADD (NAME (i, "attn_output.weight"), 2, E, E, GW_Q4_K);
      ADD (NAME (i, "ffn_gate.weight"), 2, E, F, GW_Q4_K);
      ADD (NAME (i, "ffn_up.weight"), 2, E, F, GW_Q4_K);
      ADD (NAME (i, "ffn_down.weight"), 2, F, E, GW_Q4_K);
      ADD (NAME (i, "ffn_norm.weight"), 1, E, 1, GW_F32);
    }
  ADD ("output_norm.weight", 1, E, 1, GW_F32);
#undef NAME
#undef ADD
  for (guint i = 0; i < V; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("t%u", i));
  gw_header (w, 3, n, 11);
  gw_kv_str (w, "general.architecture", "lfm2");
  gw_kv_u32 (w, "general.file_type", 15);
  gw_kv_u32 (w, "lfm2.block_count", 2);
  gw_kv_u32 (w, "lfm2.context_length", 2048);
  gw_kv_u32 (w, "lfm2.embedding_length", (guint32) E);
  gw_kv_u32 (w, "lfm2.feed_forward_length", (guint32) F);
  gw_kv_u32 (w, "lfm2.attention.head_count", 4);
  gw_kv_u32_array (w, "lfm2.attention.head_count_kv", kv, 2);
  gw_kv_u32 (w, "lfm2.shortconv.l_cache", 3);
  gw_kv_str (w, "tokenizer.ggml.model", "gpt2");
  gw_kv_str_array (w, "tokenizer.ggml.tokens", (const char * const *) tokens->pdata, tokens->len);
  gw_write_tensors (w, specs, n);
  data_offset = gw_align (w->len, 32);
  g_byte_array_set_size (w, (guint) (data_offset + TINY_TENSOR_BYTES));
  memset (w->data + data_offset, 0, TINY_TENSOR_BYTES);
  return g_byte_array_free_to_bytes (w);
}

static char *
write_file (const char *name,
            GBytes     *bytes)
{
  g_autofree char *dir = g_build_filename (isolated_root, "files", NULL);
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (parent, 0755);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

/* ------------------------------------------------------------------ */
/* The window                                                          */

typedef struct {
  HrWindow     *window;
  HrModelsPage *models;
  HrGgufPage   *page;
} Fixture;

static void
fixture_open (Fixture *f)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);

  /* A window of the cases that share one is closed first. */
  gui_test_unshare ();
  g_settings_set_int (settings, "window-width", 1100);
  g_settings_set_int (settings, "window-height", 900);
  /* The cards' figures here are the seed's plain math. */
  g_settings_set_string (settings, "runtime", "seed");
  /* The window alone, without an application: a GtkApplication that is
   * registered but never run keeps a reference to itself until shutdown. */
  f->window = g_object_ref_sink (HR_WINDOW (g_object_new (HR_TYPE_WINDOW, NULL)));
  gtk_window_present (GTK_WINDOW (f->window));
  f->models = hr_window_get_models_page (f->window);
  f->page = HR_GGUF_PAGE (hr_window_get_page (f->window, "file"));
  g_assert_nonnull (f->page);
  /* Built on first show: until then the page is an empty bin. */
  g_assert_null (adw_bin_get_child (ADW_BIN (f->page)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-page", "s", "file"));
  g_assert_nonnull (adw_bin_get_child (ADW_BIN (f->page)));
  g_assert_true (iterate_until (widget_is_drawn, f->page, 5000));
  g_assert_cmpstr (hr_gguf_page_get_state (f->page), ==, "intro");
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  spin (50);
  g_assert_finalize_object (f->window);
}

static gboolean
page_settled (gpointer data)
{
  return g_strcmp0 (hr_gguf_page_get_state (data), "loading") != 0 && !hr_gguf_page_is_hashing (data);
}

static void
open_path (Fixture    *f,
           const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  hr_gguf_page_open (f->page, file);
  g_assert_true (iterate_until (page_settled, f->page, 10000));
  spin (50);
}

#define cards(f) hr_gguf_page_get_cards ((f)->page)
#define assert_fact(f, title, expected) \
  g_assert_cmpstr (hr_model_facts_get_value (cards (f), (title)), ==, (expected))
#define assert_subtitle(f, title, expected) \
  g_assert_cmpstr (hr_model_facts_get_subtitle (cards (f), (title)), ==, (expected))

/* The tiny file's story: tiny-test-Q4_K_M.gguf opened, every card read,
 * then its memory and Add to Catalog. */
typedef struct {
  Fixture  f;
  GBytes  *bytes;   /* the file's */
  char    *path;
  char    *sha;     /* its sha256, hex */
} Tiny;

static Tiny tiny;

static void
tiny_open (gpointer data)
{
  Tiny *t = data;

  t->bytes = tiny_gguf ();
  t->path = write_file ("tiny-test-Q4_K_M.gguf", t->bytes);
  t->sha = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, t->bytes);
  fixture_open (&t->f);
  open_path (&t->f, t->path);
}

static void
tiny_close (void)
{
  g_autofree char *catalog_path = hr_data_user_file ("catalog.json");

  fixture_close (&tiny.f);
  g_unlink (catalog_path);
  g_unlink (tiny.path);
  g_clear_pointer (&tiny.path, g_free);
  g_clear_pointer (&tiny.sha, g_free);
  g_clear_pointer (&tiny.bytes, g_bytes_unref);
}

static void
test_tiny_answered (Tiny          *t,
                    gconstpointer  data)
{
  g_assert_cmpstr (hr_gguf_page_get_state (t->f.page), ==, "answer");
}

/* The file: its size, version and digest, complete. */
static void
test_tiny_file (Tiny          *t,
                gconstpointer  data)
{
  Fixture *f = &t->f;
  g_autofree char *size = hr_format_count (g_bytes_get_size (t->bytes));
  g_autofree char *size_text = g_strdup_printf ("%s bytes", size);
  g_autofree char *digest = g_strconcat ("sha256:", t->sha, NULL);

  assert_fact (f, "File size", size_text);
  assert_fact (f, "GGUF version", "3");
  assert_fact (f, "sha256", t->sha);
  assert_subtitle (f, "sha256", "Computed over the whole file for the catalog row’s origin");
  g_assert_cmpstr (hr_gguf_page_get_digest (f->page), ==, digest);
  g_assert_null (hr_model_facts_find_row (cards (f), "Incomplete file"));
}

/* Architecture and size */
static void
test_tiny_architecture (Tiny          *t,
                        gconstpointer  data)
{
  Fixture *f = &t->f;

  assert_fact (f, "Architecture", "llama");
  assert_fact (f, "Name", "Tiny Test");
  assert_fact (f, "File type", "Q4_K_M");
  assert_subtitle (f, "File type", "general.file_type 15");
  assert_fact (f, "Parameters", "1.26 M");
  assert_subtitle (f, "Parameters", "1,262,848, summed from 20 tensor shapes");
  assert_fact (f, "Layers", "2");
  assert_fact (f, "Attention heads", "4");
  assert_fact (f, "Key/value heads", "2");
  assert_fact (f, "Key length", "64");
  assert_fact (f, "Value length", "64");
  assert_fact (f, "Embedding length", "256");
  assert_fact (f, "Native context", "2,048 tokens");
  assert_fact (f, "Sliding window", "none");
  assert_fact (f, "Tied embeddings", "yes");
}

static void
test_tiny_tokenizer (Tiny          *t,
                     gconstpointer  data)
{
  Fixture *f = &t->f;
  g_autofree char *template_text = g_strdup_printf ("yes, %u bytes", (guint) strlen (TINY_TEMPLATE));

  assert_fact (f, "Tokenizer model", "gpt2");
  assert_fact (f, "Pre-tokenizer", "llama-bpe");
  assert_fact (f, "Vocabulary", "320");
  assert_fact (f, "BOS", "0 <s>");
  assert_fact (f, "EOS", "3 <|im_end|>");
  assert_fact (f, "Chat template", template_text);
  assert_fact (f, "Chat markers", "<|im_start|> <|im_end|>");
}

/* Tensors: per ggml type, exact bytes */
static void
test_tiny_tensors (Tiny          *t,
                   gconstpointer  data)
{
  Fixture *f = &t->f;
  g_autofree char *bits = g_strdup_printf ("%.2f", g_bytes_get_size (t->bytes) * 8.0 / (double) TINY_PARAMETERS);

  assert_fact (f, "Tensors", "20");
  assert_fact (f, "Q4_K", "12 tensors, 626,688 bytes");
  assert_fact (f, "Q6_K", "3 tensors, 120,960 bytes");
  assert_fact (f, "F32", "5 tensors, 5,120 bytes");
  assert_fact (f, "Tensor bytes", "752,768 bytes");
  assert_fact (f, "Bits per parameter", bits);
}

/* 4,096 tokens is past this model's 2,048: said so. */
static void
test_tiny_memory_past_native (Tiny          *t,
                              gconstpointer  data)
{
  HrSpecMemory *memory = hr_gguf_page_get_memory (t->f.page);

  g_assert_cmpuint (hr_memory_chart_get_n_bars (hr_spec_memory_get_chart (memory)), ==, 1);
  g_assert_cmpstr (hr_spec_memory_get_summary (memory), ==,
                   "Weights 0.0 GB + KV cache 0.0 GB = 0.0 GB: fits with 5.1 GB to spare. "
                   "The context is past the model's native limit of 2,048 tokens.");
}

/* At 2,048 tokens it is not. */
static void
test_tiny_memory_native (Tiny          *t,
                         gconstpointer  data)
{
  HrSpecMemory *memory = hr_gguf_page_get_memory (t->f.page);

  gtk_range_set_value (hr_spec_memory_get_context_scale (memory), 11);
  g_assert_cmpstr (hr_spec_memory_get_summary (memory), ==,
                   "Weights 0.0 GB + KV cache 0.0 GB = 0.0 GB: fits with 5.1 GB to spare.");
}

/* Add to Catalog with the digest as origin, named by general.name, not
 * by the file. */
static void
test_tiny_added (Tiny          *t,
                 gconstpointer  data)
{
  HrSpecMemory *memory = hr_gguf_page_get_memory (t->f.page);
  g_autofree char *origin = g_strconcat ("gguf:sha256:", t->sha, NULL);
  HrModelRow *row;

  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (hr_spec_memory_get_add_button (memory))));
  g_signal_emit_by_name (hr_spec_memory_get_add_button (memory), "clicked");
  g_assert_null (hr_models_page_find_row (t->f.models, "tiny-test-Q4_K_M"));
  row = hr_models_page_find_row (t->f.models, "Tiny Test");
  g_assert_nonnull (row);
  g_assert_cmpstr (hr_model_row_get_spec (row)->origin, ==, origin);
  g_assert_cmpuint (hr_model_row_get_spec (row)->parameters, ==, TINY_PARAMETERS);
  g_assert_cmpstr (hr_model_row_get_spec (row)->precision, ==, "q4_K_M");
}

static const GuiTestStep tiny_steps[] = {
  { "/gguf-page/facts-and-digest/answered", (GTestFixtureFunc) test_tiny_answered },
  { "/gguf-page/facts-and-digest/file", (GTestFixtureFunc) test_tiny_file },
  { "/gguf-page/facts-and-digest/architecture", (GTestFixtureFunc) test_tiny_architecture },
  { "/gguf-page/facts-and-digest/tokenizer", (GTestFixtureFunc) test_tiny_tokenizer },
  { "/gguf-page/facts-and-digest/tensors", (GTestFixtureFunc) test_tiny_tensors },
  { "/gguf-page/facts-and-digest/memory-past-native", (GTestFixtureFunc) test_tiny_memory_past_native },
  { "/gguf-page/facts-and-digest/memory-native", (GTestFixtureFunc) test_tiny_memory_native },
  { "/gguf-page/facts-and-digest/added", (GTestFixtureFunc) test_tiny_added },
};

static GuiTestStory tiny_story = {
  "facts-and-digest", tiny_open, tiny_close, tiny_steps, G_N_ELEMENTS (tiny_steps), &tiny, sizeof (Tiny), 0
};

/* general.name names the catalog row, made safe; a header without one
 * leaves the file's name. */
static void
test_catalog_name (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) hostile = tiny_gguf_named ("  Tiny\x1b[31m Test\n ");
  g_autoptr(GBytes) unnamed = tiny_gguf_named (NULL);
  g_autofree char *hostile_path = write_file ("model-3b.gguf", hostile);
  g_autofree char *unnamed_path = NULL;
  g_autofree char *long_name = g_strnfill (300, 'x');
  g_autoptr(GBytes) long_bytes = tiny_gguf_named (long_name);
  g_autofree char *long_path = write_file ("long.gguf", long_bytes);

  fixture_open (&f);
  open_path (&f, hostile_path);
  g_assert_cmpstr (hr_gguf_page_get_spec (f.page)->name, ==, "Tiny\\x1b[31m Test\\n");

  g_unlink (hostile_path);
  unnamed_path = write_file ("model-3b.gguf", unnamed);
  open_path (&f, unnamed_path);
  g_assert_cmpstr (hr_gguf_page_get_state (f.page), ==, "answer");
  g_assert_cmpstr (hr_gguf_page_get_spec (f.page)->name, ==, "model-3b");

  open_path (&f, long_path);
  /* 80 characters kept, then an ellipsis. */
  g_assert_cmpuint (g_utf8_strlen (hr_gguf_page_get_spec (f.page)->name, -1), ==, 81);
  g_assert_true (g_str_has_prefix (hr_gguf_page_get_spec (f.page)->name, "xxxxxxxxxx"));
  g_assert_true (g_str_has_suffix (hr_gguf_page_get_spec (f.page)->name, "x…"));

  fixture_close (&f);
  g_unlink (unnamed_path);
  g_unlink (long_path);
}

/* An Ollama blob is named by its digest: the page takes it from the name. */
static void
test_ollama_blob (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) bytes = tiny_gguf ();
  g_autofree char *sha = g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
  g_autofree char *name = g_strconcat ("blobs/sha256-", sha, NULL);
  g_autofree char *path = write_file (name, bytes);
  g_autofree char *digest = g_strconcat ("sha256:", sha, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  fixture_open (&f);
  hr_gguf_page_open (f.page, file);
  g_assert_true (iterate_until (page_settled, f.page, 10000));
  g_assert_cmpstr (hr_gguf_page_get_state (f.page), ==, "answer");
  assert_fact (&f, "sha256", sha);
  assert_subtitle (&f, "sha256", "Taken from the Ollama blob’s name (blobs/sha256-…), not computed");
  g_assert_cmpstr (hr_gguf_page_get_digest (f.page), ==, digest);
  /* A blob's name is no model name: general.name is. */
  g_assert_cmpstr (hr_gguf_page_get_spec (f.page)->name, ==, "Tiny Test");
  g_assert_false (hr_gguf_page_is_hashing (f.page));
  {
    g_autofree char *origin = g_strconcat ("gguf:", digest, NULL);

    g_assert_cmpstr (hr_gguf_page_get_spec (f.page)->origin, ==, origin);
  }
  fixture_close (&f);
  g_unlink (path);
}

static void
assert_bad_file (Fixture    *f,
                 const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGgufFile) parsed = hr_gguf_file_load (path, NULL, &error);
  g_autofree char *escaped = NULL;
  AdwStatusPage *status = hr_gguf_page_get_error_page (f->page);

  g_assert_null (parsed);
  g_assert_nonnull (error);
  escaped = g_markup_escape_text (error->message, -1);
  open_path (f, path);
  g_assert_cmpstr (hr_gguf_page_get_state (f->page), ==, "error");
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Not a Usable GGUF File");
  g_assert_cmpstr (adw_status_page_get_description (status), ==, escaped);
}

/* A header the memory math cannot size (no layer count): the facts are
 * shown, the chart is not, and it cannot be added. */
static void
test_unsized_model (void)
{
  Fixture f = { 0 };
  GgufWriter *w = gw_new ();
  const guint64 dims[2] = { 256, 32 };
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  HrSpecMemory *memory;

  gw_header (w, 3, 1, 3);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_str (w, "general.name", "No Layers");
  gw_kv_u32 (w, "llama.embedding_length", 256);
  gw_tensor (w, "token_embd.weight", 2, dims, GW_F32, 0);
  g_byte_array_set_size (w, (guint) (gw_align (w->len, 32) + 256 * 32 * 4));
  bytes = g_byte_array_free_to_bytes (w);
  path = write_file ("no-layers.gguf", bytes);

  fixture_open (&f);
  open_path (&f, path);
  g_assert_cmpstr (hr_gguf_page_get_state (f.page), ==, "answer");
  assert_fact (&f, "Name", "No Layers");
  assert_fact (&f, "Layers", "unknown");
  memory = hr_gguf_page_get_memory (f.page);
  g_assert_true (g_str_has_prefix (hr_spec_memory_get_summary (memory), "Headroom cannot size this model: field "));
  g_assert_cmpstr (hr_spec_memory_get_add_status (memory), ==, hr_spec_memory_get_summary (memory));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (hr_spec_memory_get_add_button (memory))));
  g_assert_cmpuint (hr_memory_chart_get_n_bars (hr_spec_memory_get_chart (memory)), ==, 0);
  fixture_close (&f);
  g_unlink (path);
}

static void
test_bad_files (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) text = g_bytes_new_static ("hello, this is not a model\n", 27);
  g_autoptr(GBytes) whole = tiny_gguf ();
  g_autoptr(GBytes) head = g_bytes_new_from_bytes (whole, 0, 40);
  g_autofree char *not_gguf = write_file ("notes.gguf", text);
  g_autofree char *truncated = write_file ("truncated.gguf", head);

  fixture_open (&f);
  assert_bad_file (&f, not_gguf);
  g_assert_nonnull (strstr (adw_status_page_get_description (hr_gguf_page_get_error_page (f.page)), "notes.gguf"));
  assert_bad_file (&f, truncated);
  fixture_close (&f);
  g_unlink (not_gguf);
  g_unlink (truncated);
}

/* "Open GGUF File…" is a window action, bound to Ctrl+O. (Activating it
 * would show a GtkFileChooserDialog under Xvfb, whose libcloudproviders
 * leaks at load; the page's own opening is tested above.) */
static void
test_open_action (void)
{
  Fixture f = { 0 };
  GtkWidgetClass *klass;
  gboolean found = FALSE;
  const char *name;
  const GVariantType *parameter_type;
  const char *property;
  GType owner;

  fixture_open (&f);
  klass = GTK_WIDGET_GET_CLASS (f.window);
  for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &name, &parameter_type, &property); i++)
    if (g_str_equal (name, "win.open-gguf"))
      {
        found = TRUE;
        g_assert_true (g_variant_type_equal (parameter_type, G_VARIANT_TYPE_STRING));
      }
  g_assert_true (found);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.show-page", "s", "file"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (hr_window_get_stack (f.window)), ==, "file");
  fixture_close (&f);
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
  g_autoptr(GBytes) bytes = tiny_gguf ();
  g_autoptr(GBytes) text = g_bytes_new_static ("hello, this is not a model\n", 27);
  g_autofree char *path = write_file ("a-rather-long-file-name-of-a-model-Q4_K_M.gguf", bytes);
  g_autofree char *not_gguf = write_file ("notes.gguf", text);

  fixture_open (&f);
  g_assert_cmpint (minimum_width (GTK_WIDGET (f.page)), <=, 360);
  open_path (&f, path);
  g_assert_cmpstr (hr_gguf_page_get_state (f.page), ==, "answer");
  g_assert_cmpint (minimum_width (GTK_WIDGET (f.page)), <=, 360);
  open_path (&f, not_gguf);
  g_assert_cmpstr (hr_gguf_page_get_state (f.page), ==, "error");
  g_assert_cmpint (minimum_width (GTK_WIDGET (f.page)), <=, 360);
  fixture_close (&f);
  g_unlink (path);
  g_unlink (not_gguf);
}

/* A hybrid model's file: the Architecture and Size card says which layers
 * keep a KV cache and which a recurrent state, with the state per slot
 * (512 values x 4 bytes = 2,048 bytes). */
static void
test_hybrid_layers (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) bytes = tiny_hybrid_gguf ();
  g_autofree char *path = write_file ("tiny-lfm2.gguf", bytes);
  const char *subtitle;

  fixture_open (&f);
  open_path (&f, path);
  g_assert_cmpstr (hr_gguf_page_get_state (f.page), ==, "answer");
  g_assert_cmpstr (hr_model_facts_get_value (GTK_WIDGET (f.page), "Attention layers"), ==, "1 of 2");
  g_assert_cmpstr (hr_model_facts_get_value (GTK_WIDGET (f.page), "Recurrent layers"), ==, "1 of 2");
  subtitle = hr_model_facts_get_subtitle (GTK_WIDGET (f.page), "Recurrent layers");
  g_assert_nonnull (subtitle);
  g_assert_true (g_str_has_prefix (subtitle, "state n_embd_r 512 + n_embd_s 0 values a layer, f32: 0.00 GB (0.00 GiB) per slot, whatever the context"));
  if (g_getenv ("HEADROOM_GGUF_SCREENSHOT") != NULL)
    {
      g_autofree char *png = g_build_filename (g_getenv ("HEADROOM_GGUF_SCREENSHOT"), "gguf-hybrid.png", NULL);
      GtkWidget *row = hr_model_facts_find_row (GTK_WIDGET (f.page), "Recurrent layers");

      spin (500);
      gui_test_save_png (gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP), png);
    }
  fixture_close (&f);
  g_unlink (path);
}

/* The page says what `headroom-cli gguf FILE` says ("headroom-cli: " and
 * the message), in the page's error state. */
static void
assert_says_as_cli (Fixture    *f,
                    const char *path,
                    const char *expected)
{
  g_auto(Run) run = { 0 };
  g_autofree char *cli_line = g_strdup_printf ("headroom-cli: %s\n", expected);
  g_autofree char *escaped = g_markup_escape_text (expected, -1);
  AdwStatusPage *status = hr_gguf_page_get_error_page (f->page);

  run_cli (&run, "gguf", path, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.err, ==, cli_line);
  open_path (f, path);
  g_assert_cmpstr (hr_gguf_page_get_state (f->page), ==, "error");
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Not a Usable GGUF File");
  g_assert_cmpstr (adw_status_page_get_description (status), ==, escaped);
}

/* Broken files in the window: a cut file and absurd counts
 * give the CLI's words, and the page still opens a good file after. */
static void
test_faults (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) whole = tiny_gguf ();
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (whole, 0, 40);
  g_autofree char *truncated = write_file ("cut.gguf", cut);
  g_autofree char *absurd = NULL;
  g_autofree char *good = write_file ("good.gguf", whole);
  g_autofree char *expected = NULL;
  GgufWriter *w = gw_new ();
  g_autoptr(GBytes) absurd_bytes = NULL;

  /* 2^40 tensors announced in a 64-byte file. */
  gw_header (w, 3, G_GUINT64_CONSTANT (1) << 40, 1);
  gw_kv_str (w, "general.architecture", "llama");
  absurd_bytes = g_byte_array_free_to_bytes (w);
  absurd = write_file ("absurd.gguf", absurd_bytes);

  fixture_open (&f);
  expected = g_strdup_printf ("%s: %s", truncated, "the GGUF header is truncated: the data ends at byte 40, inside the key of "
                              "metadata entry 1 of 15; the file is incomplete (an interrupted download or copy?)");
  assert_says_as_cli (&f, truncated, expected);
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("%s: %s", absurd, "the GGUF header claims 1,099,511,627,776 tensors; the limit is 65,536");
  assert_says_as_cli (&f, absurd, expected);

  /* Still usable: a good file opens. */
  open_path (&f, good);
  g_assert_cmpstr (hr_gguf_page_get_state (f.page), ==, "answer");
  assert_fact (&f, "Name", "Tiny Test");
  fixture_close (&f);
  g_unlink (truncated);
  g_unlink (absurd);
  g_unlink (good);
}

/* A model with two mmproj files beside it: the page reads the one
 * llama.cpp's -hf would take (F16: 16 bits, 12 from the model's 4; F32 is
 * 28 away) and shows the Vision Projector card with its exact bytes, the
 * padded fit margin and Ollama's rules. With HEADROOM_GGUF_SCREENSHOT set
 * to a folder, the page is saved there as gguf-projector.png. */
static void
test_projector (void)
{
  Fixture f = { 0 };
  g_autoptr(GBytes) bytes = tiny_gguf ();
  g_autoptr(GgufWriter) projector = mmproj_write_projector ();
  g_autoptr(GBytes) projector_bytes = g_bytes_new (projector->data, projector->len);
  g_autofree char *path = write_file ("vision/tiny-test-Q4_K_M.gguf", bytes);
  g_autofree char *f16 = write_file ("vision/mmproj-tiny-F16.gguf", projector_bytes);
  g_autofree char *f32 = write_file ("vision/mmproj-tiny-F32.gguf", projector_bytes);
  g_autofree char *plain = write_file ("plain/tiny-test-Q4_K_M.gguf", bytes);
  const char *dir = g_getenv ("HEADROOM_GGUF_SCREENSHOT");

  fixture_open (&f);
  open_path (&f, path);
  g_assert_cmpstr (hr_gguf_page_get_state (f.page), ==, "answer");
  assert_fact (&f, "Projector", "55,296 bytes");
  assert_subtitle (&f, "Projector", "0.00 GB (0.00 GiB) · mmproj-tiny-F16.gguf: all its 3 tensors, as Ollama counts a separate projector");
  assert_fact (&f, "Fit margin", "1,025 MiB");
  assert_fact (&f, "In ollama ps", "no");
  g_assert_cmpuint (hr_gguf_page_get_spec (f.page)->projector_bytes, ==, MMPROJ_FILE_TENSOR_BYTES);
  if (dir != NULL)
    {
      g_autofree char *png = g_build_filename (dir, "gguf-projector.png", NULL);
      GtkWidget *card = GTK_WIDGET (gtk_widget_get_ancestor (hr_model_facts_find_row (cards (&f), "Projector"),
                                                             ADW_TYPE_PREFERENCES_GROUP));

      gtk_window_set_default_size (GTK_WINDOW (f.window), 1100, 1000);
      spin (200);
      gtk_widget_grab_focus (hr_model_facts_find_row (cards (&f), "In ollama ps"));
      spin (300);
      gui_test_save_png (card, png);
      png = (g_free (png), g_build_filename (dir, "gguf-projector-window.png", NULL));
      gui_test_save_png (GTK_WIDGET (f.window), png);
    }

  /* the same model alone in its folder: no card */
  open_path (&f, plain);
  g_assert_null (hr_model_facts_get_value (cards (&f), "Projector"));
  g_assert_cmpuint (hr_gguf_page_get_spec (f.page)->projector_bytes, ==, 0);
  fixture_close (&f);
  g_unlink (path);
  g_unlink (f16);
  g_unlink (f32);
  g_unlink (plain);
}

int
main (int   argc,
      char *argv[])
{
  /* Software GL (llvmpipe) registers its JIT code's unwind tables with
   * malloc inside the unwinder's lock, which deadlocks ASAN's slow unwinder
   * (fast_unwind_on_malloc=0): draw with cairo, without GL. */
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_setenv ("GDK_DEBUG", "gl-disable", FALSE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_DEFAULT);

  gui_test_story_add (&tiny_story);
  g_test_add_func ("/gguf-page/catalog-name", test_catalog_name);
  g_test_add_func ("/gguf-page/ollama-blob", test_ollama_blob);
  g_test_add_func ("/gguf-page/bad-files", test_bad_files);
  g_test_add_func ("/gguf-page/unsized-model", test_unsized_model);
  g_test_add_func ("/gguf-page/open-action", test_open_action);
  g_test_add_func ("/gguf-page/narrow", test_narrow);
  g_test_add_func ("/gguf-page/hybrid-layers", test_hybrid_layers);
  g_test_add_func ("/gguf-page/faults", test_faults);
  g_test_add_func ("/gguf-page/projector", test_projector);

  return gui_test_run_and_clean (NULL, &isolated_root);
}
