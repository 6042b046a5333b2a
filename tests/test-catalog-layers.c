/* test-catalog-layers.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The catalog's per-layer schedule and hybrid fields (hr-catalog-layers.c):
 * layer_types, full_attention_interval, sliding_window_pattern,
 * layer_recurrent, recurrent_r / recurrent_s, projector_bytes; malformed
 * values; and the 2025-26 models appended to the built-in catalog.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-memory.h"

/* The seed's 30 models are the file's first 51,446 bytes (up to the 30th
 * entry's closing brace), pinned so that a change to them is deliberate. */
#define SEED_BYTES  51446
#define SEED_SHA256 "1635442ddd5d8178326f17f56dca768ccef9d8bdfee52ad8fc2b8f23f0f7dfe3"
#define SEED_MODELS 30

static char *
builtin (const char *name)
{
  return g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), name, NULL);
}

static GPtrArray *
load (const char *entry_members,
      GError    **error)
{
  g_autofree char *text = g_strdup_printf ("{ \"version\": 1, \"models\": [\n"
                                           "  { \"name\": \"m\", \"parameters\": 1000, \"precision\": \"q4_K_M\",\n"
                                           "    %s } ] }\n", entry_members);

  return hr_catalog_load_data (text, -1, "catalog.json", error);
}

static guint8
u8 (GArray *a, guint i)
{
  return g_array_index (a, guint8, i);
}

static guint32
u32 (GArray *a, guint i)
{
  return g_array_index (a, guint32, i);
}

static void
test_layer_types (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) c = load ("\"layers\": 5, \"heads\": 8, \"kv_heads\": 4, \"head_dim\": 64, \"sliding_window\": 512,\n"
                                 "    \"layer_types\": [\"attention\", \"sliding\", \"recurrent\", \"none\", \"recurrent\"],\n"
                                 "    \"recurrent_r\": 9984, \"recurrent_s\": 393216,\n"
                                 "    \"feed_forward_length\": 512, \"expert_count\": 64, \"expert_used_count\": 6,\n"
                                 "    \"projector_bytes\": 851689472,\n"
                                 "    \"sources\": { \"recurrent\": \"n_embd_r = 3 x 3328\" }", &error);
  const HrModelSpec *spec;
  static const guint32 kv[] = { 4, 4, 0, 0, 0 };
  static const guint8 sliding[] = { 0, 1, 0, 0, 0 }, recurrent[] = { 0, 0, 1, 0, 1 };

  g_assert_no_error (error);
  spec = g_ptr_array_index (c, 0);
  g_assert_nonnull (spec->layer_kv_heads);
  g_assert_nonnull (spec->layer_sliding);
  g_assert_nonnull (spec->layer_recurrent);
  g_assert_cmpuint (spec->layer_kv_heads->len, ==, 5);
  g_assert_cmpuint (spec->layer_sliding->len, ==, 5);
  g_assert_cmpuint (spec->layer_recurrent->len, ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      g_assert_cmpuint (u32 (spec->layer_kv_heads, i), ==, kv[i]);
      g_assert_cmpuint (u8 (spec->layer_sliding, i), ==, sliding[i]);
      g_assert_cmpuint (u8 (spec->layer_recurrent, i), ==, recurrent[i]);
    }
  g_assert_cmpuint (hr_model_spec_recurrent_layers (spec), ==, 2);
  g_assert_cmpuint (spec->recurrent_r, ==, 9984);
  g_assert_cmpuint (spec->recurrent_s, ==, 393216);
  g_assert_cmpstr (spec->recurrent_source, ==, "n_embd_r = 3 x 3328");
  g_assert_cmpuint (spec->feed_forward_length, ==, 512);
  g_assert_cmpuint (spec->expert_count, ==, 64);
  g_assert_cmpuint (spec->expert_used_count, ==, 6);
  g_assert_cmpuint (spec->projector_bytes, ==, 851689472);
  /* KV: two attention layers x 4 heads x (64 + 64). */
  g_assert_cmpuint (hr_model_spec_kv_elements_per_token (spec), ==, 2 * 4 * 128);
}

static void
test_full_attention_interval (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) c = load ("\"layers\": 8, \"heads\": 16, \"kv_heads\": 4, \"head_dim\": 256,\n"
                                 "    \"full_attention_interval\": 4, \"recurrent_r\": 24576, \"recurrent_s\": 524288", &error);
  const HrModelSpec *spec;

  g_assert_no_error (error);
  spec = g_ptr_array_index (c, 0);
  /* llama.cpp src/models/qwen35.cpp: recurrent unless (i + 1) % 4 == 0. */
  for (guint i = 0; i < 8; i++)
    {
      gboolean attends = i == 3 || i == 7;

      g_assert_cmpuint (u8 (spec->layer_recurrent, i), ==, !attends);
      g_assert_cmpuint (u32 (spec->layer_kv_heads, i), ==, attends ? 4 : 0);
    }
  g_assert_null (spec->layer_sliding);
  g_assert_cmpuint (hr_model_spec_recurrent_layers (spec), ==, 6);
  g_assert_null (spec->recurrent_source);
}

static void
test_sliding_window_pattern (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) c = load ("\"layers\": 6, \"kv_heads\": 8, \"head_dim\": 64, \"sliding_window\": 128,\n"
                                 "    \"sliding_window_pattern\": 2, \"layer_kv_heads\": [8, 8, 8, 8, 8, 4]", &error);
  const HrModelSpec *spec;

  g_assert_no_error (error);
  spec = g_ptr_array_index (c, 0);
  for (guint i = 0; i < 6; i++)
    {
      g_assert_cmpuint (u8 (spec->layer_sliding, i), ==, i % 2 == 0);
      g_assert_cmpuint (hr_model_spec_layer_is_sliding (spec, i), ==, i % 2 == 0);
    }
  g_assert_cmpuint (u32 (spec->layer_kv_heads, 5), ==, 4);
  g_assert_null (spec->layer_recurrent);
  g_assert_cmpuint (spec->recurrent_r, ==, 0);
}

static void
test_layer_recurrent_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) c = load ("\"layers\": 3, \"kv_heads\": 2, \"head_dim\": 64,\n"
                                 "    \"layer_kv_heads\": [0, 2, 0], \"layer_recurrent\": [1, 0, 1],\n"
                                 "    \"recurrent_r\": 4096, \"recurrent_s\": 0, \"projector_bytes\": 1000,\n"
                                 "    \"sources\": { \"recurrent\": \"LFM2: n_embd x (L_cache - 1)\" }", &error);
  g_autofree char *data = NULL;
  g_autoptr(GPtrArray) again = NULL;
  const HrModelSpec *spec;

  g_assert_no_error (error);
  data = hr_catalog_to_data (c, NULL);
  g_assert_nonnull (strstr (data, "\"layer_recurrent\" : [\n"));
  g_assert_nonnull (strstr (data, "\"recurrent_r\" : 4096"));
  g_assert_nonnull (strstr (data, "\"recurrent_s\" : 0"));
  g_assert_nonnull (strstr (data, "\"projector_bytes\" : 1000"));
  g_assert_nonnull (strstr (data, "\"recurrent\" : \"LFM2: n_embd x (L_cache - 1)\""));
  again = hr_catalog_load_data (data, -1, "saved.json", &error);
  g_assert_no_error (error);
  spec = g_ptr_array_index (again, 0);
  g_assert_cmpuint (u8 (spec->layer_recurrent, 0), ==, 1);
  g_assert_cmpuint (u8 (spec->layer_recurrent, 1), ==, 0);
  g_assert_cmpuint (u8 (spec->layer_recurrent, 2), ==, 1);
  g_assert_cmpuint (u32 (spec->layer_kv_heads, 1), ==, 2);
  g_assert_cmpuint (spec->recurrent_r, ==, 4096);
  g_assert_cmpuint (spec->recurrent_s, ==, 0);
  g_assert_cmpuint (spec->projector_bytes, ==, 1000);
  g_assert_cmpstr (spec->recurrent_source, ==, "LFM2: n_embd x (L_cache - 1)");
}

/* A catalog entry "m" whose layer fields are refused, and the message
 * (NULL: the JSON reader's, checked for its field and line). */
typedef struct {
  const char *path;
  const char *members;
  const char *message;
} MalformedLayers;

static const MalformedLayers malformed_layers[] = {
  { "/catalog-layers/malformed/layer-types-not-list",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n    \"layer_types\": \"attention\"",
    "catalog.json: line 4: entry 1 (\"m\"): field \"layer_types\" must be a list of \"attention\", \"sliding\", \"recurrent\" or \"none\", one per layer" },
  { "/catalog-layers/malformed/layer-types-count",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n    \"layer_types\": [\"attention\"]",
    "catalog.json: line 4: entry 1 (\"m\"): field \"layer_types\" has 1 values for 2 layers" },
  { "/catalog-layers/malformed/layer-types-unknown",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n    \"layer_types\": [\"attention\", \"mamba\"]",
    "catalog.json: line 4: entry 1 (\"m\"): field \"layer_types\": value 2 is not \"attention\", \"sliding\", \"recurrent\" or \"none\"" },
  { "/catalog-layers/malformed/layer-types-not-string",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n    \"layer_types\": [\"attention\", 3]",
    "catalog.json: line 4: entry 1 (\"m\"): field \"layer_types\": value 2 is not \"attention\", \"sliding\", \"recurrent\" or \"none\"" },
  { "/catalog-layers/malformed/sliding-without-window",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n    \"layer_types\": [\"attention\", \"sliding\"]",
    "catalog.json: line 4: entry 1 (\"m\"): field \"layer_types\" has sliding layers but no \"sliding_window\"" },
  { "/catalog-layers/malformed/recurrent-figures-missing",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n    \"layer_types\": [\"attention\", \"recurrent\"]",
    "catalog.json: line 4: entry 1 (\"m\"): fields \"recurrent_r\" and \"recurrent_s\" are missing: 1 layers keep a recurrent state" },
  { "/catalog-layers/malformed/recurrent-s-missing",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n    \"layer_types\": [\"attention\", \"recurrent\"], \"recurrent_r\": 9984",
    "catalog.json: line 4: entry 1 (\"m\"): field \"recurrent_s\" is missing: 1 layers keep a recurrent state; give both recurrent_r and recurrent_s (0 where the architecture has no such state)" },
  { "/catalog-layers/malformed/recurrent-without-layers",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n    \"recurrent_r\": 12",
    "catalog.json: line 4: entry 1 (\"m\"): fields \"recurrent_r\" and \"recurrent_s\" need recurrent layers (\"layer_types\", \"full_attention_interval\" or \"layer_recurrent\")" },
  { "/catalog-layers/malformed/recurrent-s-negative",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n    \"recurrent_s\": -1",
    "catalog.json: line 4: entry 1 (\"m\"): field \"recurrent_s\" is negative or too large: it must be a whole number from 0 to 4,294,967,295" },
  { "/catalog-layers/malformed/interval-too-small",
    "\"layers\": 8, \"kv_heads\": 2, \"head_dim\": 64, \"recurrent_r\": 1,\n    \"full_attention_interval\": 1",
    "catalog.json: line 4: entry 1 (\"m\"): field \"full_attention_interval\" must be between 2 and the 8 layers" },
  { "/catalog-layers/malformed/interval-and-layer-types",
    "\"layers\": 8, \"kv_heads\": 2, \"head_dim\": 64, \"recurrent_r\": 1,\n    \"full_attention_interval\": 4, \"layer_types\": [\"attention\", \"attention\", \"attention\", \"attention\", \"attention\", \"attention\", \"attention\", \"attention\"]",
    "catalog.json: line 4: entry 1 (\"m\"): fields \"layer_types\" and \"full_attention_interval\" both give the layer schedule: give one" },
  { "/catalog-layers/malformed/interval-and-layer-kv-heads",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64, \"recurrent_r\": 1,\n    \"full_attention_interval\": 2, \"layer_kv_heads\": [2, 2]",
    "catalog.json: line 4: entry 1 (\"m\"): field \"full_attention_interval\" cannot be combined with \"layer_kv_heads\" or \"layer_recurrent\": give the schedule or the arrays" },
  { "/catalog-layers/malformed/layer-types-and-layer-sliding",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64, \"sliding_window\": 64,\n    \"layer_types\": [\"attention\", \"sliding\"], \"layer_sliding\": [0, 1]",
    "catalog.json: line 4: entry 1 (\"m\"): field \"layer_types\" cannot be combined with \"layer_sliding\"" },
  { "/catalog-layers/malformed/pattern-without-window",
    "\"layers\": 4, \"kv_heads\": 2, \"head_dim\": 64,\n    \"sliding_window_pattern\": 2",
    "catalog.json: line 4: entry 1 (\"m\"): field \"sliding_window_pattern\" needs a \"sliding_window\"" },
  { "/catalog-layers/malformed/pattern-too-large",
    "\"layers\": 4, \"kv_heads\": 2, \"head_dim\": 64, \"sliding_window\": 64,\n    \"sliding_window_pattern\": 5",
    "catalog.json: line 4: entry 1 (\"m\"): field \"sliding_window_pattern\" must be between 2 and the 4 layers" },
  { "/catalog-layers/malformed/pattern-and-layer-sliding",
    "\"layers\": 4, \"kv_heads\": 2, \"head_dim\": 64, \"sliding_window\": 64,\n    \"sliding_window_pattern\": 2, \"layer_sliding\": [1, 0, 1, 0]",
    "catalog.json: line 4: entry 1 (\"m\"): field \"sliding_window_pattern\" cannot be combined with \"layer_types\" or \"layer_sliding\"" },
  { "/catalog-layers/malformed/layer-recurrent-count",
    "\"layers\": 3, \"kv_heads\": 2, \"head_dim\": 64, \"recurrent_r\": 1,\n    \"layer_recurrent\": [1, 0]",
    "catalog.json: line 4: entry 1 (\"m\"): field \"layer_recurrent\" has 2 values for 3 layers" },
  { "/catalog-layers/malformed/layer-recurrent-range",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64, \"recurrent_r\": 1,\n    \"layer_recurrent\": [1, 2]",
    "catalog.json: line 4: entry 1 (\"m\"): field \"layer_recurrent\": value 2 is out of range" },
  { "/catalog-layers/malformed/layer-sliding-count",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64, \"sliding_window\": 64,\n    \"layer_sliding\": [1]",
    "catalog.json: line 4: entry 1 (\"m\"): field \"layer_sliding\" has 1 values for 2 layers" },
  { "/catalog-layers/malformed/projector-bytes-not-number",
    "\"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n    \"projector_bytes\": \"big\"",
    NULL /* the message is _hr_json_get_u64's; checked for its field and line below */ },
};

static void
test_malformed (gconstpointer data)
{
  const MalformedLayers *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) catalog = load (c->members, &error);

  g_assert_null (catalog);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  if (c->message != NULL)
    g_assert_cmpstr (error->message, ==, c->message);
  else
    g_assert_true (g_str_has_prefix (error->message, "catalog.json: line 4: entry 1 (\"m\"): field \"projector_bytes\""));
}

/* "kv_latent": multi-head latent attention caches key_length values per
 * token and layer and no V (llama.cpp src/llama-kv-cache.cpp: has_v =
 * !is_mla); anything but true or false is refused. */
static void
test_kv_latent (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) c = load ("\"layers\": 3, \"kv_heads\": 1, \"key_length\": 576, \"value_length\": 512,\n"
                                 "    \"kv_latent\": true", &error);
  g_autoptr(GPtrArray) plain = NULL;
  g_autoptr(GPtrArray) bad = NULL;
  const HrModelSpec *spec;

  g_assert_no_error (error);
  spec = g_ptr_array_index (c, 0);
  g_assert_true (spec->kv_latent);
  /* 3 layers x 1 head x 576 x 2 bytes: no 512-value V rows. */
  g_assert_cmpuint (hr_memory_kv_bytes_per_token (spec, HR_KV_CACHE_F16), ==, 3 * 576 * 2);

  plain = load ("\"layers\": 3, \"kv_heads\": 1, \"key_length\": 576, \"value_length\": 512", &error);
  g_assert_no_error (error);
  spec = g_ptr_array_index (plain, 0);
  g_assert_false (spec->kv_latent);
  g_assert_cmpuint (hr_memory_kv_bytes_per_token (spec, HR_KV_CACHE_F16), ==, 3 * (576 + 512) * 2);

  bad = load ("\"layers\": 3, \"kv_heads\": 1, \"head_dim\": 64,\n    \"kv_latent\": 1", &error);
  g_assert_null (bad);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "catalog.json: line 4: entry 1 (\"m\"): field \"kv_latent\" must be true or false");
}

/* A user's catalog with a bad schedule is refused with the file's name and
 * line, and the file is left exactly as it was. */
static void
test_user_file_kept (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-catalog-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "catalog.json", NULL);
  const char *text =
    "{ \"version\": 1, \"models\": [\n"
    "  { \"name\": \"mine\", \"parameters\": 1000, \"precision\": \"q4_K_M\",\n"
    "    \"layers\": 4, \"kv_heads\": 2, \"head_dim\": 64,\n"
    "    \"full_attention_interval\": 4 } ] }\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) c = NULL;
  g_autofree char *after = NULL;
  g_autofree char *expected = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  c = hr_catalog_load_file (path, &error);
  g_assert_null (c);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  expected = g_strdup_printf ("%s: line 4: entry 1 (\"mine\"): fields \"recurrent_r\" and \"recurrent_s\" are missing: 3 layers keep a recurrent state", path);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, text);
  g_unlink (path);
  g_rmdir (dir);
}

/* Which sources key covers a member of a catalog entry; NULL when the
 * member is not a figure (name, origin, sources). */
static const char *
source_key (const char *member)
{
  static const char *const not_figures[] = { "name", "origin", "sources" };

  for (guint i = 0; i < G_N_ELEMENTS (not_figures); i++)
    if (g_str_equal (member, not_figures[i]))
      return NULL;
  if (g_str_equal (member, "recurrent_r") || g_str_equal (member, "recurrent_s"))
    return "recurrent";
  return member;
}

/* The built-in catalog, as text and loaded. */
typedef struct {
  char      *path;
  char      *data;
  gsize      length;
  GPtrArray *catalog;
} Builtin;

static void
builtin_set_up (Builtin       *f,
                gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;

  f->path = builtin ("catalog.json");
  g_assert_true (g_file_get_contents (f->path, &f->data, &f->length, NULL));
  f->catalog = hr_catalog_load_data (f->data, f->length, f->path, &error);
  g_assert_no_error (error);
}

static void
builtin_tear_down (Builtin       *f,
                   gconstpointer  user_data)
{
  g_clear_pointer (&f->catalog, g_ptr_array_unref);
  g_free (f->data);
  g_free (f->path);
}

/* A model of the built-in catalog; fails the test when it is missing. */
static const HrModelSpec *
builtin_find (Builtin    *f,
              const char *name)
{
  const HrModelSpec *spec = hr_catalog_find (f->catalog, name);

  g_assert_nonnull (spec);
  return spec;
}

static void
test_builtin_seed_untouched (Builtin       *f,
                             gconstpointer  user_data)
{
  g_autofree char *sha = NULL;
  static const char *const seed_names[SEED_MODELS] = {
    "qwen2.5:0.5b", "gemma2:2b", "llama3.2:3b", "llama3.1:8b", "qwen2.5:14b", "llama3.2:1b",
    "llama3.1:70b", "llama3.3:70b", "qwen2.5:7b", "qwen2.5:32b", "qwen3:4b", "qwen3:8b",
    "qwen3:14b", "qwen3:30b-a3b", "gemma2:9b", "gemma3:1b", "gemma3:4b", "gemma3:12b",
    "gemma3:27b", "phi3:mini", "phi3:14b", "phi4", "phi4-mini", "mistral:7b",
    "mistral-nemo:12b", "deepseek-r1:1.5b", "deepseek-r1:7b", "deepseek-r1:8b",
    "deepseek-r1:14b", "deepseek-r1:32b",
  };

  /* The seed's text is untouched; the new models follow it. */
  g_assert_cmpuint (f->length, >, SEED_BYTES + 2);
  sha = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) f->data, SEED_BYTES);
  g_assert_cmpstr (sha, ==, SEED_SHA256);
  g_assert_cmpint (f->data[SEED_BYTES], ==, ',');
  g_assert_cmpuint (f->catalog->len, >=, SEED_MODELS + 29);
  for (guint i = 0; i < SEED_MODELS; i++)
    g_assert_cmpstr (((const HrModelSpec *) g_ptr_array_index (f->catalog, i))->name, ==, seed_names[i]);
}

/* One new entry: valid, and every figure names its own source. */
static void
assert_entry_sourced (JsonObject        *entry,
                      const HrModelSpec *spec)
{
  JsonObject *sources = json_object_get_object_member (entry, "sources");
  g_autoptr(GList) members = json_object_get_members (entry);
  g_autoptr(GError) invalid = NULL;

  g_test_message ("model %s", spec->name);
  g_assert_true (hr_model_spec_validate (spec, &invalid));
  g_assert_no_error (invalid);
  g_assert_nonnull (sources);
  /* No fallback: every figure names its own source. */
  g_assert_false (json_object_has_member (sources, "default"));
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = source_key (l->data);
      const char *text;

      if (key == NULL)
        continue;
      if (g_str_equal (key, "head_dim"))
        {
          g_assert_nonnull (json_object_get_string_member_with_default (sources, "key_length", NULL));
          g_assert_nonnull (json_object_get_string_member_with_default (sources, "value_length", NULL));
          continue;
        }
      text = json_object_get_string_member_with_default (sources, key, NULL);
      if (text == NULL || text[0] == '\0')
        g_error ("%s: the figure \"%s\" has no source", spec->name, (const char *) l->data);
    }
  /* A figure left out of the entry is said to be an estimate. */
  if (spec->file_bytes == 0)
    g_assert_true (g_str_has_prefix (json_object_get_string_member (sources, "file_bytes"), "estimate:"));
  g_assert_nonnull (hr_model_spec_get_source (spec, HR_SPEC_FIELD_LAYERS));
  g_assert_nonnull (hr_model_spec_get_source (spec, HR_SPEC_FIELD_KV_HEADS));
  if (spec->layer_recurrent != NULL)
    g_assert_nonnull (spec->recurrent_source);
}

static void
test_builtin_new_models_sourced (Builtin       *f,
                                 gconstpointer  user_data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *models;

  g_assert_true (json_parser_load_from_data (parser, f->data, f->length, NULL));
  models = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "models");
  g_assert_cmpuint (json_array_get_length (models), ==, f->catalog->len);
  for (guint i = SEED_MODELS; i < f->catalog->len; i++)
    assert_entry_sourced (json_array_get_object_element (models, i), g_ptr_array_index (f->catalog, i));
}

/* Spot checks of the hybrid schedules, worked out by hand. */
static void
test_builtin_qwen35 (Builtin       *f,
                     gconstpointer  user_data)
{
  const HrModelSpec *spec = builtin_find (f, "qwen3.5:9b");

  g_assert_cmpuint (hr_model_spec_recurrent_layers (spec), ==, 24);
  g_assert_cmpuint (spec->recurrent_r, ==, 3 * (4096 + 2 * 16 * 128));
  g_assert_cmpuint (spec->recurrent_s, ==, 128 * 4096);
  g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, 3), ==, 4);
  g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, 4), ==, 0);
}

static void
test_builtin_granite4 (Builtin       *f,
                       gconstpointer  user_data)
{
  const HrModelSpec *spec = builtin_find (f, "granite4:tiny-h");

  g_assert_cmpuint (hr_model_spec_recurrent_layers (spec), ==, 36);
  g_assert_cmpuint (spec->recurrent_r, ==, 3 * (3072 + 2 * 1 * 128));
  g_assert_cmpuint (spec->recurrent_s, ==, 128 * 3072);
  g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, 5), ==, 4);
  g_assert_false (hr_model_spec_layer_is_recurrent (spec, 5));
  g_assert_true (hr_model_spec_layer_is_recurrent (spec, 6));
}

static void
test_builtin_lfm2 (Builtin       *f,
                   gconstpointer  user_data)
{
  const HrModelSpec *spec = builtin_find (f, "sam860/LFM2:1.2b-Q4_0");

  g_assert_cmpuint (hr_model_spec_recurrent_layers (spec), ==, 10);
  g_assert_cmpuint (spec->recurrent_r, ==, 2048 * 2);
  g_assert_cmpuint (spec->recurrent_s, ==, 0);
}

static void
test_builtin_gpt_oss (Builtin       *f,
                      gconstpointer  user_data)
{
  const HrModelSpec *spec = builtin_find (f, "gpt-oss:20b");

  g_assert_true (hr_model_spec_layer_is_sliding (spec, 0));
  g_assert_false (hr_model_spec_layer_is_sliding (spec, 1));
  g_assert_cmpuint (spec->expert_count, ==, 32);
  g_assert_cmpuint (spec->expert_used_count, ==, 4);
  g_assert_null (spec->layer_recurrent);
}

static void
test_builtin_gemma4 (Builtin       *f,
                     gconstpointer  user_data)
{
  const HrModelSpec *spec = builtin_find (f, "gemma4:31b");

  g_assert_true (hr_model_spec_layer_is_sliding (spec, 4));
  g_assert_false (hr_model_spec_layer_is_sliding (spec, 5));
  g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, 4), ==, 16);
  g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, 5), ==, 8);
}

/* Llama 4's chunked attention is a sliding window of 8192 in llama.cpp
 * (src/models/llama4.cpp: 3 chunked layers, then 1 full). */
static void
test_builtin_llama4 (Builtin       *f,
                     gconstpointer  user_data)
{
  const HrModelSpec *spec = builtin_find (f, "llama4:scout");

  g_assert_cmpuint (spec->sliding_window, ==, 8192);
  g_assert_true (hr_model_spec_layer_is_sliding (spec, 2));
  g_assert_false (hr_model_spec_layer_is_sliding (spec, 3));
  g_assert_true (hr_model_spec_layer_is_sliding (spec, 4));
  g_assert_false (hr_model_spec_layer_is_sliding (spec, 47));
  g_assert_cmpuint (spec->expert_count, ==, 16);
  g_assert_cmpuint (spec->expert_used_count, ==, 1);
}

/* Nemotron 3 Nano: MEMEM*... (Mamba2, MoE, attention); the MoE layers
 * keep neither a KV cache nor a recurrent state. */
static void
test_builtin_nemotron3 (Builtin       *f,
                        gconstpointer  user_data)
{
  const HrModelSpec *spec = builtin_find (f, "nemotron-3-nano:30b");

  g_assert_cmpuint (hr_model_spec_recurrent_layers (spec), ==, 23);
  g_assert_cmpuint (spec->recurrent_r, ==, 3 * (64 * 64 + 2 * 8 * 128));
  g_assert_cmpuint (spec->recurrent_s, ==, 128 * 64 * 64);
  g_assert_true (hr_model_spec_layer_is_recurrent (spec, 0));
  g_assert_false (hr_model_spec_layer_is_recurrent (spec, 1));
  g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, 1), ==, 0);
  g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, 5), ==, 2);
  g_assert_false (hr_model_spec_layer_is_recurrent (spec, 5));
  g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, 51), ==, 0);
}

static void
test_builtin_qwen36 (Builtin       *f,
                     gconstpointer  user_data)
{
  const HrModelSpec *spec = builtin_find (f, "qwen3.6:35b-a3b");

  g_assert_cmpuint (hr_model_spec_recurrent_layers (spec), ==, 30);
  g_assert_cmpuint (spec->recurrent_r, ==, 3 * (4096 + 2 * 16 * 128));
  g_assert_cmpuint (spec->recurrent_s, ==, 128 * 4096);
  g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, 3), ==, 2);
  g_assert_cmpuint (hr_model_spec_layer_kv_heads (spec, 4), ==, 0);
}

static void
test_builtin_mistral3_and_coder (Builtin       *f,
                                 gconstpointer  user_data)
{
  const HrModelSpec *spec = builtin_find (f, "ministral-3:3b");

  g_assert_true (spec->tied_embeddings);
  g_assert_cmpuint (spec->layers, ==, 26);
  builtin_find (f, "ministral-3:8b");
  builtin_find (f, "ministral-3:14b");
  builtin_find (f, "mistral-small3.2:24b");
  spec = builtin_find (f, "qwen3-coder:30b");
  g_assert_cmpuint (spec->feed_forward_length, ==, 768);
  g_assert_null (spec->layer_recurrent);
}

/* GLM-4.7-Flash converts to deepseek2 with MLA: one 576-value latent per
 * token and layer (conversion/deepseek.py). */
static void
test_builtin_glm47_flash (Builtin       *f,
                          gconstpointer  user_data)
{
  const HrModelSpec *spec = builtin_find (f, "glm-4.7-flash");

  g_assert_true (spec->kv_latent);
  g_assert_cmpuint (hr_memory_kv_bytes_per_token (spec, HR_KV_CACHE_F16), ==, 47 * 576 * 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/catalog-layers/layer-types", test_layer_types);
  g_test_add_func ("/catalog-layers/full-attention-interval", test_full_attention_interval);
  g_test_add_func ("/catalog-layers/sliding-window-pattern", test_sliding_window_pattern);
  g_test_add_func ("/catalog-layers/layer-recurrent-round-trip", test_layer_recurrent_round_trip);
  for (guint i = 0; i < G_N_ELEMENTS (malformed_layers); i++)
    g_test_add_data_func (malformed_layers[i].path, &malformed_layers[i], test_malformed);
  g_test_add_func ("/catalog-layers/kv-latent", test_kv_latent);
  g_test_add_func ("/catalog-layers/user-file-kept", test_user_file_kept);
  g_test_add ("/catalog-layers/builtin/seed-untouched", Builtin, NULL, builtin_set_up, test_builtin_seed_untouched, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/new-models-sourced", Builtin, NULL, builtin_set_up, test_builtin_new_models_sourced, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/qwen3.5", Builtin, NULL, builtin_set_up, test_builtin_qwen35, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/granite4", Builtin, NULL, builtin_set_up, test_builtin_granite4, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/lfm2", Builtin, NULL, builtin_set_up, test_builtin_lfm2, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/gpt-oss", Builtin, NULL, builtin_set_up, test_builtin_gpt_oss, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/gemma4", Builtin, NULL, builtin_set_up, test_builtin_gemma4, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/llama4", Builtin, NULL, builtin_set_up, test_builtin_llama4, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/nemotron3", Builtin, NULL, builtin_set_up, test_builtin_nemotron3, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/qwen3.6", Builtin, NULL, builtin_set_up, test_builtin_qwen36, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/mistral3-and-coder", Builtin, NULL, builtin_set_up, test_builtin_mistral3_and_coder, builtin_tear_down);
  g_test_add ("/catalog-layers/builtin/glm-4.7-flash", Builtin, NULL, builtin_set_up, test_builtin_glm47_flash, builtin_tear_down);

  return g_test_run ();
}
