/* test-catalog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The built-in catalog and boards, the user's copies, malformed files, and
 * atomic saves.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-memory.h"
#include "hr-runtime.h"

static char *
builtin (const char *name)
{
  return g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), name, NULL);
}

static void
test_catalog_builtin (void)
{
  g_autofree char *path = builtin ("catalog.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) catalog = hr_catalog_load_file (path, &error);
  /* The seed's five (Running Larger Models): params, disk, layers, KV heads, head dim. */
  static const struct { const char *name; guint64 params, disk; guint32 layers, kv, hd; } seed[] = {
    { "qwen2.5:0.5b", 500000000, 400000000, 24, 2, 64 },
    { "gemma2:2b", 2600000000, 1600000000, 26, 4, 256 },
    { "llama3.2:3b", 3200000000, 2000000000, 28, 8, 128 },
    { "llama3.1:8b", 8000000000, 4900000000, 32, 8, 128 },
    { "qwen2.5:14b", 14800000000, 9000000000, 48, 8, 128 },
  };

  g_assert_no_error (error);
  g_assert_nonnull (catalog);
  g_assert_cmpuint (catalog->len, >=, 20);
  for (guint i = 0; i < G_N_ELEMENTS (seed); i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (catalog, i);
      g_assert_cmpstr (spec->name, ==, seed[i].name);
      g_assert_cmpuint (spec->parameters, ==, seed[i].params);
      g_assert_cmpstr (spec->precision, ==, "q4_K_M");
      g_assert_cmpuint (spec->file_bytes, ==, seed[i].disk);
      g_assert_cmpuint (spec->layers, ==, seed[i].layers);
      g_assert_cmpuint (spec->kv_heads, ==, seed[i].kv);
      g_assert_cmpuint (spec->key_length, ==, seed[i].hd);
      g_assert_cmpuint (spec->value_length, ==, seed[i].hd);
      g_assert_nonnull (hr_model_spec_get_source (spec, HR_SPEC_FIELD_LAYERS));
    }
  /* every model names a source for every figure the math uses */
  for (guint i = 0; i < catalog->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (catalog, i);
      g_assert_nonnull (hr_model_spec_get_source (spec, HR_SPEC_FIELD_PARAMETERS));
      g_assert_nonnull (hr_model_spec_get_source (spec, HR_SPEC_FIELD_KV_HEADS));
      g_assert_nonnull (hr_catalog_find (catalog, spec->name));
    }
  g_assert_null (hr_catalog_find (catalog, "no-such-model"));
}

static void
test_catalog_boards_builtin (void)
{
  g_autofree char *path = builtin ("boards.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) boards = hr_boards_load_file (path, &error);
  const HrBoard *jetson, *spark;

  g_assert_no_error (error);
  jetson = hr_boards_find (boards, "jetson-orin-nano-super");
  g_assert_nonnull (jetson);
  g_assert_cmpuint (jetson->pool_bytes, ==, 8000000000);
  g_assert_cmpuint (jetson->resident_bytes, ==, 1900000000);
  g_assert_cmpuint (jetson->reserve_bytes, ==, 1000000000);
  g_assert_cmpfloat (jetson->bandwidth_bytes_per_s, ==, 102e9);
  g_assert_cmpuint (jetson->reply_tokens, ==, 27);
  g_assert_cmpuint (jetson->stage_ceiling_ms, ==, 3000);
  g_assert_cmpuint (jetson->prefill_allowance_ms, ==, 350);
  g_assert_true (jetson->unified);
  /* the DGX Spark: 121 GiB unified */
  spark = hr_boards_find (boards, "dgx-spark");
  g_assert_nonnull (spark);
  g_assert_cmpuint (spark->pool_bytes, ==, G_GUINT64_CONSTANT (121) * 1073741824);
  g_assert_true (spark->unified);
  g_assert_true (hr_boards_find (boards, "jetson orin nano super") == jetson);
  g_assert_cmpuint (boards->len, >=, 5);
}

static void
test_catalog_malformed_json (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) c = hr_catalog_load_data ("{\"version\": 1,\n \"models\": [\n  {\"name\": \"x\",\n", -1, "my-catalog.json", &error);

  g_assert_null (c);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==, "my-catalog.json: line 3, column 15: not valid JSON: Parse error: unexpected character `,', expected string constant");
}

/* A catalog.json the loader refuses: its code (-1: not compared) and
 * message (NULL: not compared). */
typedef struct {
  const char *path;
  const char *text;
  gint        code;
  const char *message;
} BadCatalog;

static const BadCatalog bad_catalogs[] = {
  /* json-glib reads -3 and 2^64 - 3 alike: both are out of range. */
  { "/catalog/invalid-field/negative",
    "{\n"
    "  \"version\": 1,\n"
    "  \"models\": [\n"
    "    { \"name\": \"a\", \"parameters\": 1000, \"precision\": \"q4_K_M\",\n"
    "      \"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64 },\n"
    "    { \"name\": \"b\", \"parameters\": 1000, \"precision\": \"q4_K_M\",\n"
    "      \"layers\": -3, \"kv_heads\": 2, \"head_dim\": 64 }\n"
    "  ]\n"
    "}\n",
    HR_CORE_ERROR_INVALID_DATA,
    "catalog.json: line 7: entry 2 (\"b\"): field \"layers\" is negative or too large: "
    "it must be a whole number from 0 to 4,294,967,295" },
  /* A file_bytes of 2^64 is too large, with its limit and line. */
  { "/catalog/invalid-field/too-large",
    "{ \"version\": 1, \"models\": [\n"
    "  { \"name\": \"g\", \"parameters\": 1000, \"precision\": \"q4_K_M\",\n"
    "    \"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64,\n"
    "    \"file_bytes\": 18446744073709551616 } ] }\n",
    HR_CORE_ERROR_INVALID_DATA,
    "catalog.json: line 4: entry 1 (\"g\"): field \"file_bytes\" is negative or too large: "
    "it must be a whole number from 0 to 1,000,000,000,000,000" },
  { "/catalog/invalid-field/implausible",
    "{ \"version\": 1, \"models\": [\n"
    "  { \"name\": \"c\", \"parameters\": 1000, \"precision\": \"q4_K_M\",\n"
    "    \"layers\": 2, \"kv_heads\": 2,\n"
    "    \"head_dim\": 1e12 } ] }\n",
    -1, "catalog.json: line 4: entry 1 (\"c\"): field \"head_dim\" is more than the largest plausible value 4294967295" },
  { "/catalog/invalid-field/unknown-precision",
    "{ \"version\": 1, \"models\": [\n"
    "  { \"name\": \"d\", \"parameters\": 1000,\n"
    "    \"precision\": \"q3_Z\", \"layers\": 2, \"kv_heads\": 2, \"head_dim\": 64 } ] }\n",
    -1, "catalog.json: line 3: entry 1 (\"d\"): field \"precision\": \"q3_Z\" is not a precision Headroom knows" },
  { "/catalog/invalid-field/missing",
    "{ \"version\": 1, \"models\": [\n"
    "  { \"name\": \"e\", \"parameters\": 1000, \"precision\": \"int4\", \"kv_heads\": 2, \"head_dim\": 64 } ] }\n",
    -1, "catalog.json: line 2: entry 1 (\"e\"): field \"layers\" is missing" },
  { "/catalog/invalid-field/name-twice",
    "{ \"version\": 1, \"models\": [\n"
    "  { \"name\": \"f\", \"parameters\": 1, \"precision\": \"int4\", \"layers\": 1, \"kv_heads\": 1, \"head_dim\": 64 },\n"
    "  { \"name\": \"f\", \"parameters\": 1, \"precision\": \"int4\", \"layers\": 1, \"kv_heads\": 1, \"head_dim\": 64 } ] }\n",
    -1, "catalog.json: line 3: entry 2 (\"f\"): the name \"f\" appears twice" },
  { "/catalog/invalid-field/version-2", "{\"version\": 2, \"models\": []}", HR_CORE_ERROR_UNSUPPORTED, NULL },
  { "/catalog/invalid-field/not-an-object", "[1, 2]",
    -1, "catalog.json: line 1: expected an object with a \"models\" list" },
};

static void
test_catalog_invalid_field (gconstpointer data)
{
  const BadCatalog *bad = data;
  g_autoptr(GError) error = NULL;
  GPtrArray *c = hr_catalog_load_data (bad->text, -1, "catalog.json", &error);

  g_assert_null (c);
  g_assert_nonnull (error);
  if (bad->code != -1)
    g_assert_error (error, HR_CORE_ERROR, bad->code);
  if (bad->message != NULL)
    g_assert_cmpstr (error->message, ==, bad->message);
}

static void
test_boards_invalid (void)
{
  const char *text =
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"tiny\", \"name\": \"Tiny\", \"pool_bytes\": 1000,\n"
    "    \"resident_bytes\": 900,\n"
    "    \"reserve_bytes\": 200, \"bandwidth_gb_s\": 10 } ] }\n";
  const char *turn =
    "{ \"version\": 1, \"boards\": [\n"
    "  { \"id\": \"t\", \"name\": \"T\", \"pool_bytes\": 1000, \"resident_bytes\": 1,\n"
    "    \"reserve_bytes\": 1, \"bandwidth_gb_s\": 10,\n"
    "    \"turn_budget\": { \"reply_tokens\": 27,\n"
    "      \"stage_ceiling_ms\": 100, \"prefill_allowance_ms\": 350 } } ] }\n";
  g_autoptr(GError) error = NULL;
  GPtrArray *b;

  b = hr_boards_load_data (text, -1, "boards.json", &error);
  g_assert_null (b);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "boards.json: line 3: entry 1 (\"tiny\"): \"resident_bytes\" plus \"reserve_bytes\" must be less than \"pool_bytes\": nothing would be left for a model");
  g_clear_error (&error);

  b = hr_boards_load_data (turn, -1, "boards.json", &error);
  g_assert_null (b);
  g_assert_cmpstr (error->message, ==, "boards.json: line 5: entry 1 (\"t\"): \"stage_ceiling_ms\" must be longer than \"prefill_allowance_ms\": no time would be left to decode");
}

/* A board id is part of each measurement's file name; one that
 * starts with "." (a hidden file the archive skips) or holds a slash or a
 * control character is refused where the boards file is read. */
static void
test_boards_id_file_name (void)
{
  static const char *ids[] = { ".", "../../decoy/evil", ".hidden", "a/b", "a\\b", "a\\u001b[2Jb" };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autofree char *text = g_strdup_printf (
        "{ \"version\": 1, \"boards\": [\n"
        "  { \"id\": \"%s\", \"name\": \"N\", \"pool_bytes\": 1000, \"resident_bytes\": 1,\n"
        "    \"reserve_bytes\": 1, \"bandwidth_gb_s\": 10 } ] }\n", ids[i]);
      g_autoptr(GError) error = NULL;
      GPtrArray *b = hr_boards_load_data (text, -1, "boards.json", &error);

      g_assert_null (b);
      g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, ": field \"id\" is part of each measurement's file name: "
                                "it may not start with \".\" nor hold \"/\", \"\\\" or control characters"));
    }

  /* The name is printed as it is: a terminal escape in it is refused. */
  {
    const char *text =
      "{ \"version\": 1, \"boards\": [\n"
      "  { \"id\": \"b\", \"name\": \"N\\u001b[2J\", \"pool_bytes\": 1000, \"resident_bytes\": 1,\n"
      "    \"reserve_bytes\": 1, \"bandwidth_gb_s\": 10 } ] }\n";
    g_autoptr(GError) error = NULL;
    GPtrArray *b = hr_boards_load_data (text, -1, "boards.json", &error);

    g_assert_null (b);
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
    g_assert_cmpstr (error->message, ==, "boards.json: line 2: entry 1 (\"b\"): field \"name\" holds a control character "
                                         "(a terminal escape, a tab or a line break)");
  }
}

/* Every figure and source the catalog format carries is the same in @a
 * and @b. */
static void
assert_same_spec (const HrModelSpec *a,
                  const HrModelSpec *b)
{
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpstr (a->architecture, ==, b->architecture);
  g_assert_cmpstr (a->precision, ==, b->precision);
  g_assert_cmpstr (a->origin, ==, b->origin);
  g_assert_cmpuint (a->parameters, ==, b->parameters);
  g_assert_cmpuint (a->file_bytes, ==, b->file_bytes);
  g_assert_cmpuint (a->exact_parameters, ==, b->exact_parameters);
  g_assert_cmpuint (a->exact_file_bytes, ==, b->exact_file_bytes);
  g_assert_cmpstr (a->exact_parameters_source, ==, b->exact_parameters_source);
  g_assert_cmpstr (a->exact_file_bytes_source, ==, b->exact_file_bytes_source);
  g_assert_cmpuint (a->layers, ==, b->layers);
  g_assert_cmpuint (a->heads, ==, b->heads);
  g_assert_cmpuint (a->kv_heads, ==, b->kv_heads);
  g_assert_cmpuint (a->key_length, ==, b->key_length);
  g_assert_cmpuint (a->value_length, ==, b->value_length);
  g_assert_cmpuint (a->embedding_length, ==, b->embedding_length);
  g_assert_cmpuint (a->feed_forward_length, ==, b->feed_forward_length);
  g_assert_cmpuint (a->context_length, ==, b->context_length);
  g_assert_cmpuint (a->sliding_window, ==, b->sliding_window);
  g_assert_cmpuint (a->vocab_size, ==, b->vocab_size);
  g_assert_cmpuint (a->expert_count, ==, b->expert_count);
  g_assert_cmpuint (a->expert_used_count, ==, b->expert_used_count);
  g_assert_cmpint (a->tied_embeddings, ==, b->tied_embeddings);
  g_assert_cmpint (a->kv_latent, ==, b->kv_latent);
  g_assert_cmpint (a->layer_kv_heads != NULL, ==, b->layer_kv_heads != NULL);
  if (a->layer_kv_heads != NULL)
    g_assert_cmpmem (a->layer_kv_heads->data, a->layer_kv_heads->len * sizeof (guint32),
                     b->layer_kv_heads->data, b->layer_kv_heads->len * sizeof (guint32));
  g_assert_cmpint (a->layer_sliding != NULL, ==, b->layer_sliding != NULL);
  if (a->layer_sliding != NULL)
    g_assert_cmpmem (a->layer_sliding->data, a->layer_sliding->len,
                     b->layer_sliding->data, b->layer_sliding->len);
  for (guint f = 0; f < HR_SPEC_N_FIELDS; f++)
    g_assert_cmpstr (hr_model_spec_get_source (a, f), ==, hr_model_spec_get_source (b, f));
}

static void
test_catalog_round_trip_and_merge (void)
{
  g_autofree char *path = builtin ("catalog.json");
  g_autoptr(GPtrArray) catalog = hr_catalog_load_file (path, NULL);
  g_autoptr(GPtrArray) user = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  g_autoptr(GPtrArray) again = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  HrModelSpec *mine;
  guint n;

  data = hr_catalog_to_data (catalog, NULL);
  again = hr_catalog_load_data (data, -1, "round-trip", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (again->len, ==, catalog->len);
  for (guint i = 0; i < catalog->len; i++)
    {
      const HrModelSpec *a = g_ptr_array_index (catalog, i), *b = g_ptr_array_index (again, i);
      assert_same_spec (a, b);
      g_assert_cmpuint (hr_memory_kv_bytes_per_token (a, HR_KV_CACHE_F16), ==, hr_memory_kv_bytes_per_token (b, HR_KV_CACHE_F16));
    }

  n = catalog->len;
  mine = hr_model_spec_copy (hr_catalog_find (catalog, "llama3.2:3b"));
  mine->file_bytes = 2019377376;
  g_ptr_array_add (user, mine);
  mine = hr_model_spec_copy (mine);
  g_free (mine->name);
  mine->name = g_strdup ("my-finetune");
  g_ptr_array_add (user, mine);
  hr_catalog_merge (catalog, user);
  g_assert_cmpuint (catalog->len, ==, n + 1);
  g_assert_cmpuint (hr_catalog_find (catalog, "llama3.2:3b")->file_bytes, ==, 2019377376);
  g_assert_cmpstr (((HrModelSpec *) g_ptr_array_index (catalog, 2))->name, ==, "llama3.2:3b");
  g_assert_nonnull (hr_catalog_find (catalog, "my-finetune"));
}

static void
test_catalog_atomic_save (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "sub", "catalog.json", NULL);
  g_autofree char *builtin_path = builtin ("catalog.json");
  g_autoptr(GPtrArray) catalog = hr_catalog_load_file (builtin_path, NULL);
  g_autoptr(GPtrArray) small = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL, *after = NULL;
  struct rlimit old_limit, limit;
  HrModelSpec *bad;

  g_ptr_array_add (small, hr_model_spec_copy (g_ptr_array_index (catalog, 0)));
  g_assert_true (hr_catalog_save_file (small, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &before, NULL, NULL));

  /* An invalid model: nothing is written. */
  bad = hr_model_spec_copy (g_ptr_array_index (catalog, 1));
  bad->layers = 0;
  g_ptr_array_add (catalog, bad);
  g_assert_false (hr_catalog_save_file (catalog, path, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_clear_error (&error);
  g_ptr_array_remove_index (catalog, catalog->len - 1);

  /* A write that fails half way (the file size limit stops it): the old
   * file is left exactly as it was. */
  signal (SIGXFSZ, SIG_IGN);
  getrlimit (RLIMIT_FSIZE, &old_limit);
  limit = old_limit;
  limit.rlim_cur = 4096;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  g_assert_false (hr_catalog_save_file (catalog, path, &error));
  setrlimit (RLIMIT_FSIZE, &old_limit);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "the previous version is unchanged"));
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);

  /* and a good save replaces it */
  g_clear_error (&error);
  g_assert_true (hr_catalog_save_file (catalog, path, &error));
  g_free (after);
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (before, !=, after);

  {
    g_autofree char *sub = g_build_filename (dir, "sub", NULL);
    g_assert_cmpint (g_remove (path), ==, 0);
    g_assert_cmpint (g_rmdir (sub), ==, 0);
    g_assert_cmpint (g_rmdir (dir), ==, 0);
  }
}

static void
test_boards_save_round_trip (void)
{
  g_autofree char *dir = g_dir_make_tmp ("headroom-boards-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "boards.json", NULL);
  g_autofree char *builtin_path = builtin ("boards.json");
  g_autoptr(GPtrArray) boards = hr_boards_load_file (builtin_path, NULL);
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GPtrArray) user = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_board_free);
  g_autoptr(GError) error = NULL;
  HrBoard *edited;
  guint n = boards->len;

  g_assert_true (hr_boards_save_file (boards, path, &error));
  g_assert_no_error (error);
  again = hr_boards_load_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (again->len, ==, boards->len);
  g_assert_cmpfloat (hr_boards_find (again, "jetson-orin-nano-super")->bandwidth_bytes_per_s, ==, 102e9);

  edited = hr_board_copy (hr_boards_find (boards, "jetson-orin-nano-super"));
  edited->resident_bytes = 2500000000;
  g_ptr_array_add (user, edited);
  hr_boards_merge (boards, user);
  g_assert_cmpuint (boards->len, ==, n);
  g_assert_cmpuint (hr_boards_find (boards, "jetson-orin-nano-super")->resident_bytes, ==, 2500000000);

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_catalog_missing_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) c = hr_catalog_load_file ("/nonexistent/headroom/catalog.json", &error);

  g_assert_null (c);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND);
}

/* The exact published figures beside the seed's rounded listing.
 * The listing stays in file_bytes and parameters (the seed's tables);
 * the exact figures (docs/seed-figures.md W6: 2,019,377,376 bytes and
 * 3,212,749,888 parameters; Ollama docs/api.md: llama3.1 8B's
 * general.parameter_count 8,030,261,248 and its 4,920,738,944-byte blob) go to exact_file_bytes and
 * exact_parameters, each with its source, and survive a save. */
static void
test_catalog_exact_sizes (void)
{
  g_autofree char *path = builtin ("catalog.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) catalog = hr_catalog_load_file (path, &error);
  g_autoptr(GPtrArray) again = NULL;
  g_autofree char *data = NULL;
  const HrModelSpec *l3, *l8, *phi, *back;

  g_assert_no_error (error);
  l3 = hr_catalog_find (catalog, "llama3.2:3b");
  g_assert_cmpuint (l3->file_bytes, ==, 2000000000);
  g_assert_cmpuint (l3->parameters, ==, 3200000000);
  g_assert_cmpuint (l3->exact_file_bytes, ==, G_GUINT64_CONSTANT (2019377376));
  g_assert_cmpuint (l3->exact_parameters, ==, G_GUINT64_CONSTANT (3212749888));
  g_assert_cmpstr (hr_model_spec_get_source (l3, HR_SPEC_FIELD_FILE_BYTES), ==,
                   "seed: Running Larger Models, labs/model_catalog.py MODELS (2.0 GB, rounded; the seed's tables use it)");
  l8 = hr_catalog_find (catalog, "llama3.1:8b");
  g_assert_cmpuint (l8->parameters, ==, 8000000000);
  g_assert_cmpuint (l8->exact_parameters, ==, G_GUINT64_CONSTANT (8030261248));
  g_assert_cmpuint (l8->file_bytes, ==, 4900000000);
  g_assert_cmpuint (l8->exact_file_bytes, ==, G_GUINT64_CONSTANT (4920738944));
  /* phi4's listing is already the exact blob: no second figure. */
  phi = hr_catalog_find (catalog, "phi4");
  g_assert_cmpuint (phi->file_bytes, ==, G_GUINT64_CONSTANT (9053114464));
  g_assert_cmpuint (phi->exact_file_bytes, ==, 0);

  data = hr_catalog_to_data (catalog, NULL);
  g_assert_nonnull (strstr (data, "\"file_bytes\" : 2019377376"));
  g_assert_nonnull (strstr (data, "\"size\" : 2000000000"));
  again = hr_catalog_load_data (data, -1, "saved", &error);
  g_assert_no_error (error);
  back = hr_catalog_find (again, "llama3.2:3b");
  g_assert_cmpuint (back->file_bytes, ==, 2000000000);
  g_assert_cmpuint (back->exact_file_bytes, ==, G_GUINT64_CONSTANT (2019377376));
  g_assert_cmpuint (back->parameters, ==, 3200000000);
  g_assert_cmpuint (back->exact_parameters, ==, G_GUINT64_CONSTANT (3212749888));
  g_assert_cmpstr (hr_model_spec_get_source (back, HR_SPEC_FIELD_FILE_BYTES), ==,
                   hr_model_spec_get_source (l3, HR_SPEC_FIELD_FILE_BYTES));
  g_assert_cmpstr (back->exact_file_bytes_source, ==, l3->exact_file_bytes_source);
  g_assert_cmpstr (back->exact_parameters_source, ==, l3->exact_parameters_source);
}

/* The JSON object of model @name in the catalog text @data. */
static JsonObject *
model_object (JsonParser *parser,
              const char *data,
              const char *name)
{
  JsonArray *models;

  g_assert_true (json_parser_load_from_data (parser, data, -1, NULL));
  models = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "models");
  for (guint i = 0; i < json_array_get_length (models); i++)
    {
      JsonObject *model = json_array_get_object_element (models, i);
      if (g_strcmp0 (json_object_get_string_member (model, "name"), name) == 0)
        return model;
    }
  g_assert_not_reached ();
}

/* A saved catalog keeps both figures and both sources of
 * llama3.2:3b's size and parameter count, member for member as the
 * built-in file writes them, and the exact figures' sources come back
 * on loading it. */
static void
test_catalog_exact_sources_saved (void)
{
  g_autofree char *path = builtin ("catalog.json");
  g_autofree char *text = NULL, *data = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) catalog = hr_catalog_load_file (path, &error);
  g_autoptr(JsonParser) original_parser = json_parser_new ();
  g_autoptr(JsonParser) saved_parser = json_parser_new ();
  static const char *const figures[] = { "file_bytes", "size", "parameters", "listed_parameters" };
  JsonObject *original, *saved, *original_sources, *saved_sources;
  const HrModelSpec *l3, *l8;
  HrModelSpec scratch;
  const HrModelSpec *view;

  g_assert_no_error (error);
  l3 = hr_catalog_find (catalog, "llama3.2:3b");
  g_assert_true (g_str_has_prefix (l3->exact_file_bytes_source,
                                   "seed: From API to GPU week 4 and docs/seed-figures.md W6: the llama3.2:3b Q4_K_M blob is 2,019,377,376 bytes"));
  g_assert_true (g_str_has_prefix (l3->exact_parameters_source,
                                   "seed: From API to GPU week 4 and docs/seed-figures.md W5/W6: llama3.2:3b has 3,212,749,888 parameters"));
  l8 = hr_catalog_find (catalog, "llama3.1:8b");
  g_assert_true (g_str_has_prefix (l8->exact_parameters_source, "Ollama docs/api.md, the /api/show example"));
  g_assert_true (g_str_has_prefix (l8->exact_file_bytes_source, "Ollama model blob sha256:667b0c1932bc..."));
  g_assert_cmpstr (hr_model_spec_get_source (l8, HR_SPEC_FIELD_FILE_BYTES), ==,
                   "seed: Running Larger Models, labs/model_catalog.py MODELS (4.9 GB, rounded; the seed's tables use it)");

  /* The runtime's view names the exact figures' sources. */
  view = hr_runtime_exact_spec (l3, &scratch);
  g_assert_cmpuint (view->file_bytes, ==, G_GUINT64_CONSTANT (2019377376));
  g_assert_cmpstr (hr_model_spec_get_source (view, HR_SPEC_FIELD_FILE_BYTES), ==, l3->exact_file_bytes_source);
  g_assert_cmpstr (hr_model_spec_get_source (view, HR_SPEC_FIELD_PARAMETERS), ==, l3->exact_parameters_source);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  data = hr_catalog_to_data (catalog, NULL);
  original = model_object (original_parser, text, "llama3.2:3b");
  saved = model_object (saved_parser, data, "llama3.2:3b");
  original_sources = json_object_get_object_member (original, "sources");
  saved_sources = json_object_get_object_member (saved, "sources");
  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    {
      g_assert_true (json_object_has_member (saved, figures[i]));
      g_assert_cmpint (json_object_get_int_member (saved, figures[i]), ==,
                       json_object_get_int_member (original, figures[i]));
      g_assert_cmpstr (json_object_get_string_member (saved_sources, figures[i]), ==,
                       json_object_get_string_member (original_sources, figures[i]));
    }
  g_assert_cmpint (json_object_get_int_member (saved, "file_bytes"), ==, 2019377376);
  g_assert_cmpint (json_object_get_int_member (saved, "size"), ==, 2000000000);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/catalog/builtin", test_catalog_builtin);
  g_test_add_func ("/catalog/exact-sizes", test_catalog_exact_sizes);
  g_test_add_func ("/catalog/exact-sources-saved", test_catalog_exact_sources_saved);
  g_test_add_func ("/catalog/boards-builtin", test_catalog_boards_builtin);
  g_test_add_func ("/catalog/malformed-json", test_catalog_malformed_json);
  for (guint i = 0; i < G_N_ELEMENTS (bad_catalogs); i++)
    g_test_add_data_func (bad_catalogs[i].path, &bad_catalogs[i], test_catalog_invalid_field);
  g_test_add_func ("/catalog/boards-invalid", test_boards_invalid);
  g_test_add_func ("/catalog/boards-id-file-name", test_boards_id_file_name);
  g_test_add_func ("/catalog/round-trip-and-merge", test_catalog_round_trip_and_merge);
  g_test_add_func ("/catalog/atomic-save", test_catalog_atomic_save);
  g_test_add_func ("/catalog/boards-save", test_boards_save_round_trip);
  g_test_add_func ("/catalog/missing-file", test_catalog_missing_file);
  return g_test_run ();
}
