/* test-ollama-registry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrOllamaRegistry against the fake registry and storage host in this
 * process (tests/fake-registry.h): the seed's phi4 manifest to the byte,
 * a llama3.2:3b header read by growing Range requests behind a 307 with no
 * Authorization anywhere, the cache hit, every bad input's message, and
 * `headroom-cli library` on the same fake.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <utime.h>
#include <json-glib/json-glib.h>
#include <locale.h>

#include "fake-ollama.h"
#include "fake-registry.h"
#include "gguf-writer.h"
#include "hr-gguf.h"
#include "hr-error.h"
#include "hr-net-error.h"
#include "hr-ollama-registry.h"
#include "hr-runtime.h"

/* From API to GPU, the phi4 manifest (docs/seed-figures.md W7). */
#define PHI4_MODEL    "sha256:fd7b6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20"
#define PHI4_TEMPLATE "sha256:32695b892af87ef8fca6e13a1a31c67c1441d7398be037e366e2fc763857c06a"
#define PHI4_LICENSE  "sha256:fa8235e5b48faca34e3ca98cf4f694ef08bd216d28b58071a1f85b1d50cb814d"
#define PHI4_PARAMS   "sha256:45a1c652dddc9efdcefa977ab81cfbe26b6e52bc8e78f2f4c698538783e0ac80"
#define LLAMA_MODEL   "sha256:dde5aa3fc5ffc17176b5e8bdc82f587b24b2678c6c66101bf7da77af9f7ccdff"
#define LLAMA_BYTES   G_GUINT64_CONSTANT (2019377376) /* docs/seed-figures.md W6 */

typedef struct {
  FakeRegistry     *fake;
  HrOllamaRegistry *registry;
  char             *cache;
  GBytes           *llama_header;
} Fixture;

/* A phi4-shaped header (phi3 architecture, seed: 40 layers of 5120). */
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

/* A vision projector (an mmproj GGUF, clip architecture) with two F32
 * tensors: 4096 x 1024 + 1024 elements x 4 bytes = 16,781,312 tensor bytes
 * (a test figure, not a real projector's). */
#define PROJECTOR_DIGEST  "sha256:72d6f08a42f656d36b356dbe0920675899a99ce21192fd66266fb7d82ed07539"
#define PROJECTOR_BYTES   G_GUINT64_CONSTANT (624434336) /* the layer's size in the manifest */
#define PROJECTOR_TENSORS G_GUINT64_CONSTANT (16781312)

static GBytes *
write_projector (void)
{
  GgufWriter *w = gw_new ();
  const guint64 mm[2] = { 4096, 1024 };
  const guint64 bias[1] = { 1024 };

  gw_header (w, 3, 2, 2);
  gw_kv_str (w, "general.architecture", "clip");
  gw_kv_u32 (w, "clip.vision.embedding_length", 1024);
  gw_tensor (w, "mm.0.weight", 2, mm, GW_F32, 0);
  gw_tensor (w, "mm.0.bias", 1, bias, GW_F32, 4096 * 1024 * 4);
  return g_byte_array_free_to_bytes (w);
}

static char *
manifest_json (const char *config_digest,
               guint64     config_size,
               const char *layers)
{
  return g_strdup_printf ("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.docker.distribution.manifest.v2+json\","
                          "\"config\":{\"mediaType\":\"application/vnd.docker.container.image.v1+json\","
                          "\"digest\":\"%s\",\"size\":%" G_GUINT64_FORMAT "},\"layers\":[%s]}",
                          config_digest, config_size, layers);
}

static void
add_model (Fixture    *f,
           const char *path,
           const char *family,
           const char *layers)
{
  g_autofree char *config = g_strdup_printf ("{\"model_format\":\"gguf\",\"model_family\":\"%s\",\"model_families\":[\"%s\"],"
                                             "\"model_type\":\"3.2B\",\"file_type\":\"Q4_K_M\",\"architecture\":\"amd64\","
                                             "\"os\":\"linux\",\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[]}}",
                                             family, family);
  guint64 size;
  g_autofree char *digest = fake_registry_add_config (f->fake, config, &size);
  g_autofree char *json = manifest_json (digest, size, layers);

  fake_registry_add_manifest (f->fake, path, json);
}

#define LAYER(type, digest, size) \
  "{\"mediaType\":\"application/vnd.ollama.image." type "\",\"digest\":\"" digest "\",\"size\":" size "}"

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GBytes) phi4 = write_phi4 ();
  g_autoptr(GBytes) projector = write_projector ();
  g_autoptr(GBytes) text = g_bytes_new_static ("not a gguf file, an HTML page", 29);

  f->fake = fake_registry_new ();
  f->cache = g_dir_make_tmp ("headroom-registry-XXXXXX", NULL);
  g_assert_nonnull (f->cache);
  f->registry = hr_ollama_registry_new (f->fake->registry_url, f->cache);
  f->llama_header = gw_llama32_3b_header ();

  add_model (f, "/v2/library/phi4/manifests/latest", "phi3",
             LAYER ("model", PHI4_MODEL, "9053114464") ","
             LAYER ("template", PHI4_TEMPLATE, "275") ","
             LAYER ("license", PHI4_LICENSE, "1084") ","
             LAYER ("params", PHI4_PARAMS, "82"));
  fake_registry_add_blob (f->fake, PHI4_MODEL, phi4, G_GUINT64_CONSTANT (9053114464));
  add_model (f, "/v2/library/llama3.2/manifests/3b", "llama",
             LAYER ("model", LLAMA_MODEL, "2019377376") ","
             LAYER ("template", PHI4_TEMPLATE, "275"));
  fake_registry_add_blob (f->fake, LLAMA_MODEL, f->llama_header, LLAMA_BYTES);
  add_model (f, "/v2/library/llava/manifests/7b", "llama",
             LAYER ("model", PHI4_MODEL, "9053114464") ","
             LAYER ("projector", PROJECTOR_DIGEST, "624434336"));
  fake_registry_add_blob (f->fake, PROJECTOR_DIGEST, projector, PROJECTOR_BYTES);
  add_model (f, "/v2/library/nomodel/manifests/latest", "llama", LAYER ("license", PHI4_LICENSE, "1084"));
  add_model (f, "/v2/library/html/manifests/latest", "llama",
             LAYER ("model", "sha256:0000000000000000000000000000000000000000000000000000000000000001", "29"));
  fake_registry_add_blob (f->fake, "sha256:0000000000000000000000000000000000000000000000000000000000000001", text, 29);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GFile) dir = g_file_new_for_path (f->cache);
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", f->cache);

  g_clear_object (&f->registry);
  fake_registry_free (f->fake);
  g_bytes_unref (f->llama_header);
  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
  g_free (f->cache);
}

static void
on_lookup (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static HrOllamaLibraryModel *
lookup (Fixture     *f,
        const char  *name,
        GError     **error)
{
  GAsyncResult *result = NULL;
  HrOllamaLibraryModel *m;

  hr_ollama_registry_lookup_async (f->registry, name, NULL, on_lookup, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  m = hr_ollama_registry_lookup_finish (f->registry, result, error);
  g_object_unref (result);
  return m;
}

static gboolean
cache_is_empty (Fixture *f)
{
  g_autofree char *dir = g_build_filename (f->cache, "ollama", NULL);

  return !g_file_test (dir, G_FILE_TEST_EXISTS);
}

/* The seed's phi4 manifest, layer by layer, and its config and header. */
static void
test_phi4 (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaLibraryModel) m = lookup (f, "phi4", &error);
  const HrOllamaLayer *l;
  guint64 v = 0;

  g_assert_no_error (error);
  g_assert_cmpstr (m->name, ==, "phi4:latest");
  g_assert_cmpuint (m->manifest->layers->len, ==, 4);
  l = g_ptr_array_index (m->manifest->layers, 0);
  g_assert_cmpstr (l->media_type, ==, "application/vnd.ollama.image.model");
  g_assert_cmpstr (l->digest, ==, PHI4_MODEL);
  g_assert_cmpuint (l->size, ==, G_GUINT64_CONSTANT (9053114464));
  g_assert_true (m->manifest->model == l);
  g_assert_cmpuint (((HrOllamaLayer *) g_ptr_array_index (m->manifest->layers, 1))->size, ==, 275);
  g_assert_cmpuint (((HrOllamaLayer *) g_ptr_array_index (m->manifest->layers, 2))->size, ==, 1084);
  g_assert_cmpuint (((HrOllamaLayer *) g_ptr_array_index (m->manifest->layers, 3))->size, ==, 82);
  g_assert_cmpstr (m->config->format, ==, "gguf");
  g_assert_cmpstr (m->config->family, ==, "phi3");
  g_assert_cmpstr (m->config->file_type, ==, "Q4_K_M");
  g_assert_cmpstr (hr_gguf_file_get_string (m->gguf, "general.architecture"), ==, "phi3");
  g_assert_true (hr_gguf_file_get_uint (m->gguf, "phi3.block_count", &v));
  g_assert_cmpuint (v, ==, 40);
  g_assert_cmpuint (hr_gguf_file_get_file_bytes (m->gguf), ==, G_GUINT64_CONSTANT (9053114464));
  g_assert_true (g_str_has_prefix (m->manifest_digest, "sha256:"));
  /* Ollama's Accept, one manifest and one config request to the registry
   * and one blob request, redirected: the header fits the first 64 kB. */
  g_assert_cmpstr (f->fake->last_accept, ==, HR_OLLAMA_MANIFEST_ACCEPT);
  g_assert_cmpuint (f->fake->registry_requests, ==, 3);
  g_assert_cmpuint (f->fake->storage_requests, ==, 2);
  g_assert_cmpuint (f->fake->authorization_seen, ==, 0);
  g_assert_cmpuint (f->fake->ranges->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (f->fake->ranges, 1), ==, "bytes=0-65535");
}

typedef struct {
  GArray  *steps;  /* HrOllamaRegistryStep */
  GArray  *ranges; /* guint */
  GArray  *bytes;  /* guint64 */
  gboolean freed;
} Progress;

static void
on_progress (HrOllamaRegistryStep step,
             guint                range,
             guint64              bytes_read,
             gpointer             user_data)
{
  Progress *pr = user_data;

  g_assert_false (pr->freed);
  g_array_append_val (pr->steps, step);
  g_array_append_val (pr->ranges, range);
  g_array_append_val (pr->bytes, bytes_read);
}

static void
progress_freed (gpointer user_data)
{
  ((Progress *) user_data)->freed = TRUE;
}

static HrOllamaLibraryModel *
lookup_progress (Fixture     *f,
                 const char  *name,
                 Progress    *pr)
{
  GAsyncResult *result = NULL;
  g_autoptr(GError) error = NULL;
  HrOllamaLibraryModel *m;

  pr->steps = g_array_new (FALSE, FALSE, sizeof (HrOllamaRegistryStep));
  pr->ranges = g_array_new (FALSE, FALSE, sizeof (guint));
  pr->bytes = g_array_new (FALSE, FALSE, sizeof (guint64));
  pr->freed = FALSE;
  hr_ollama_registry_lookup_full_async (f->registry, name, on_progress, pr, progress_freed,
                                        NULL, on_lookup, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  /* The last report came before the result, the data freed with the task. */
  g_assert_cmpuint (g_array_index (pr->steps, HrOllamaRegistryStep, pr->steps->len - 1), ==,
                    HR_OLLAMA_REGISTRY_STEP_DONE);
  m = hr_ollama_registry_lookup_finish (f->registry, result, &error);
  g_assert_no_error (error);
  g_object_unref (result);
  g_assert_true (pr->freed);
  return m;
}

static void
progress_clear (Progress *pr)
{
  g_array_unref (pr->steps);
  g_array_unref (pr->ranges);
  g_array_unref (pr->bytes);
}

/* Progress of a lookup whose header takes several ranges: the manifest,
 * the config, header ranges 1, 2, … in order; bytes never going back and
 * ending at the bytes the result says it read; a cached lookup reports
 * the manifest only. */
static void
test_progress (Fixture       *f,
               gconstpointer  data)
{
  Progress pr, again;
  g_autoptr(HrOllamaLibraryModel) m = lookup_progress (f, "llama3.2:3b", &pr);
  g_autoptr(HrOllamaLibraryModel) m2 = NULL;
  guint last_range = 0;

  g_assert_cmpuint (pr.steps->len, >=, 4);
  g_assert_cmpuint (g_array_index (pr.steps, HrOllamaRegistryStep, 0), ==, HR_OLLAMA_REGISTRY_STEP_MANIFEST);
  g_assert_cmpuint (g_array_index (pr.bytes, guint64, 0), ==, 0);
  for (guint i = 1; i < pr.steps->len; i++)
    {
      HrOllamaRegistryStep step = g_array_index (pr.steps, HrOllamaRegistryStep, i);
      guint range = g_array_index (pr.ranges, guint, i);

      g_assert_cmpuint (step, >=, g_array_index (pr.steps, HrOllamaRegistryStep, i - 1));
      g_assert_cmpuint (g_array_index (pr.bytes, guint64, i), >=, g_array_index (pr.bytes, guint64, i - 1));
      if (step == HR_OLLAMA_REGISTRY_STEP_HEADER)
        {
          g_assert_cmpuint (range, >=, last_range);
          g_assert_cmpuint (range, <=, last_range + 1);
          last_range = range;
        }
      else
        g_assert_cmpuint (range, ==, 0);
    }
  /* Every header Range request was reported: as many as the storage host saw. */
  g_assert_cmpuint (last_range, ==, f->fake->ranges->len - 1);
  g_assert_cmpuint (last_range, >=, 2);
  g_assert_cmpuint (g_array_index (pr.bytes, guint64, pr.bytes->len - 1), ==, m->bytes_read);
  g_assert_cmpuint (m->bytes_read, >=, m->header_bytes);

  m2 = lookup_progress (f, "llama3.2:3b", &again);
  g_assert_true (m2->cached);
  g_assert_cmpuint (again.steps->len, >=, 3);
  for (guint i = 0; i + 1 < again.steps->len; i++)
    g_assert_cmpuint (g_array_index (again.steps, HrOllamaRegistryStep, i), ==, HR_OLLAMA_REGISTRY_STEP_MANIFEST);
  g_assert_cmpuint (g_array_index (again.bytes, guint64, again.bytes->len - 1), ==, m2->bytes_read);
  g_assert_cmpuint (m2->bytes_read, >, 0);
  progress_clear (&pr);
  progress_clear (&again);
}

/* A vision model: the projector layer counts in the download with its
 * manifest bytes, and its header is read for what Ollama loads of it (the
 * sum of its tensors, llm/llama_server.go mmprojMemoryRequirement()); a
 * second lookup takes both headers from the cache. */
static void
test_projector (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaLibraryModel) m = lookup (f, "llava:7b", &error);
  g_autoptr(HrOllamaLibraryModel) again = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (m->manifest->projector);
  g_assert_cmpuint (m->manifest->projector->size, ==, PROJECTOR_BYTES);
  g_assert_cmpuint (m->manifest->total_bytes, ==, G_GUINT64_CONSTANT (9053114464) + PROJECTOR_BYTES + m->manifest->config->size);
  g_assert_nonnull (m->projector_gguf);
  g_assert_cmpstr (hr_gguf_file_get_string (m->projector_gguf, "general.architecture"), ==, "clip");
  g_assert_cmpuint (m->projector_bytes, ==, PROJECTOR_TENSORS);
  g_assert_cmpuint (m->projector_header_bytes, >, 0);
  g_assert_cmpuint (m->projector_header_bytes, <, 4096);
  g_assert_cmpuint (hr_gguf_file_get_file_bytes (m->projector_gguf), ==, PROJECTOR_BYTES);
  /* The model's header, then the projector's: one range each. */
  g_assert_cmpuint (f->fake->storage_requests, ==, 3);
  g_assert_cmpuint (f->fake->authorization_seen, ==, 0);

  fake_registry_reset_counts (f->fake);
  again = lookup (f, "llava:7b", &error);
  g_assert_no_error (error);
  g_assert_true (again->cached);
  g_assert_cmpuint (again->requests, ==, 1);
  g_assert_cmpuint (f->fake->storage_requests, ==, 0);
  g_assert_cmpuint (again->projector_bytes, ==, PROJECTOR_TENSORS);
}

/* A 2 MB header read by growing ranges: never more than the header plus
 * 64 kB, and the prediction from it. */
static void
test_llama_header (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaLibraryModel) m = NULL;
  g_autoptr(HrModelSpec) spec = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  guint64 header = g_bytes_get_size (f->llama_header);

  m = lookup (f, "llama3.2:3b", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (m->name, ==, "llama3.2:3b");
  g_assert_cmpuint (m->header_bytes, ==, header);
  g_assert_cmpuint (hr_gguf_file_get_n_tensors (m->gguf), ==, 255);
  g_assert_cmpuint (f->fake->authorization_seen, ==, 0);
  g_assert_cmpuint (f->fake->storage_requests, >, 2);
  g_assert_cmpuint (f->fake->storage_bytes_sent, <=, header + 64 * 1024 + m->manifest->config->size);
  g_assert_cmpuint (f->fake->storage_bytes_sent, >=, header);
  g_assert_cmpuint (m->bytes_read, >=, f->fake->storage_bytes_sent);

  spec = hr_gguf_file_to_model_spec (m->gguf, m->name, "ollama", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spec->layers, ==, 28);
  g_assert_cmpuint (spec->heads, ==, 24);
  g_assert_cmpuint (spec->kv_heads, ==, 8);
  g_assert_cmpuint (spec->key_length, ==, 128);
  g_assert_cmpuint (spec->value_length, ==, 128);
  g_assert_cmpuint (spec->context_length, ==, 131072);
  g_assert_cmpuint (spec->parameters, ==, G_GUINT64_CONSTANT (3212749888)); /* docs/seed-figures.md W5 */
  g_assert_cmpuint (spec->file_bytes, ==, LLAMA_BYTES);
  hr_runtime_inputs_init (&in, spec, 4096);
  in.era = HR_RUNTIME_ERA_OLLAMA_0_30;
  in.parallel_slots = 1;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);
  /* The same figure test-runtime.c asserts for llama3.2:3b at 4096
   * (docs/seed-figures.md, "What Ollama reported": 2.55 GB, "2.6" in ollama ps). */
  g_assert_cmpuint (p.total_bytes, ==, G_GUINT64_CONSTANT (2550507776));
}

/* The second lookup of a tag costs its manifest only. */
static void
test_cache (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaLibraryModel) first = lookup (f, "llama3.2:3b", &error);
  g_autoptr(HrOllamaLibraryModel) second = NULL;

  g_assert_no_error (error);
  g_assert_false (first->cached);
  fake_registry_reset_counts (f->fake);
  second = lookup (f, "library/llama3.2:3b", &error);
  g_assert_no_error (error);
  g_assert_true (second->cached);
  g_assert_cmpuint (f->fake->registry_requests, ==, 1);
  g_assert_cmpuint (f->fake->storage_requests, ==, 0);
  g_assert_cmpuint (second->requests, ==, 1);
  g_assert_cmpuint (second->header_bytes, ==, first->header_bytes);
  g_assert_cmpuint (hr_gguf_file_get_n_tensors (second->gguf), ==, 255);
  g_assert_cmpstr (second->manifest_digest, ==, first->manifest_digest);
}

/* A kill during a cache save leaves `sha256-HEX.XXXXXX` beside
 * the file it was writing; the next lookup removes those a minute old or
 * more, in headers/ and blobs/, and leaves a save under way alone. */
static void
test_cache_stale_temporaries (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaLibraryModel) m = NULL;
  g_autofree char *hex = g_strnfill (64, 'a');
  g_autofree char *name = g_strconcat ("sha256-", hex, ".Ab3dE9", NULL);
  g_autofree char *fresh_name = g_strconcat ("sha256-", hex, ".Zz0011", NULL);
  g_autofree char *headers = g_build_filename (f->cache, "ollama", "headers", NULL);
  g_autofree char *blobs = g_build_filename (f->cache, "ollama", "blobs", NULL);
  g_autofree char *old_header = g_build_filename (headers, name, NULL);
  g_autofree char *old_blob = g_build_filename (blobs, name, NULL);
  g_autofree char *fresh = g_build_filename (headers, fresh_name, NULL);
  struct utimbuf times = { 1000000000, 1000000000 };

  g_assert_cmpint (g_mkdir_with_parents (headers, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (blobs, 0700), ==, 0);
  g_assert_true (g_file_set_contents (old_header, "GGUF", -1, NULL));
  g_assert_true (g_file_set_contents (old_blob, "{", -1, NULL));
  g_assert_true (g_file_set_contents (fresh, "GGUF", -1, NULL));
  g_assert_cmpint (g_utime (old_header, &times), ==, 0);
  g_assert_cmpint (g_utime (old_blob, &times), ==, 0);

  m = lookup (f, "llama3.2:3b", &error);
  g_assert_no_error (error);
  g_assert_false (g_file_test (old_header, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (old_blob, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (fresh, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_unlink (fresh), ==, 0);
}

static void
assert_fails (Fixture    *f,
              const char *name,
              GQuark      domain,
              gint        code,
              const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaLibraryModel) m = lookup (f, name, &error);

  g_assert_null (m);
  g_assert_error (error, domain, code);
  if (g_str_has_suffix (message, "*"))
    {
      g_autofree char *prefix = g_strndup (message, strlen (message) - 1);

      if (!g_str_has_prefix (error->message, prefix))
        g_assert_cmpstr (error->message, ==, message);
    }
  else
    g_assert_cmpstr (error->message, ==, message);
  g_assert_true (cache_is_empty (f));
}

static void
test_unknown (Fixture       *f,
              gconstpointer  data)
{
  assert_fails (f, "qwen9:70b", HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND, "qwen9:70b is not in the Ollama library");
  /* Nothing else was tried. */
  g_assert_cmpuint (f->fake->registry_requests, ==, 1);
  g_assert_cmpuint (f->fake->storage_requests, ==, 0);
}

static void
test_bad_inputs (Fixture       *f,
                 gconstpointer  data)
{
  assert_fails (f, "nomodel", HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                "The manifest of nomodel:latest has no model layer (application/vnd.ollama.image.model): nothing to size");
  assert_fails (f, "html", HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                "The model layer of html:latest is not a GGUF file (*");
  assert_fails (f, "a/b/c/d", HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                "“a/b/c/d” is not an Ollama model name; give it as [host/][namespace/]model[:tag], "
                "with letters, digits, “_”, “-” and “.” only");

  hr_ollama_registry_set_limits (f->registry, 256 * 1024, 30000);
  assert_fails (f, "llama3.2:3b", HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
                "The GGUF header of llama3.2:3b is larger than the 262,144 bytes Headroom reads (it needs at least *");

  hr_ollama_registry_set_limits (f->registry, HR_OLLAMA_REGISTRY_HEADER_CAP, 30000);
  f->fake->redirect_loop = TRUE;
  assert_fails (f, "phi4", HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                "Reading the config blob of phi4:latest went round in redirects (more than 10, or one without a Location): "
                "the registry or a proxy is misconfigured");
  f->fake->redirect_loop = FALSE;

  hr_ollama_registry_set_limits (f->registry, HR_OLLAMA_REGISTRY_HEADER_CAP, 500);
  f->fake->storage_stall = TRUE;
  assert_fails (f, "phi4", HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                "Reading the GGUF header of phi4:latest stalled: the registry or its storage host sent nothing more "
                "within 1 second; try again later");
  g_assert_cmpuint (f->fake->authorization_seen, ==, 0);

  g_object_unref (f->registry);
  f->registry = hr_ollama_registry_new ("ftp://mirror.example", f->cache);
  assert_fails (f, "phi4", HR_NET_ERROR, HR_NET_ERROR_BAD_PATH,
                "ftp://mirror.example is not an http or https address: check HEADROOM_OLLAMA_REGISTRY");
}

static gboolean
on_cut_run (GThreadedSocketService *service,
            GSocketConnection      *connection,
            GObject                *source,
            gpointer                user_data)
{
  /* 100 bytes promised, 4 sent, then the end. */
  static const char answer[] = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-99/2019377376\r\n"
                               "Content-Length: 100\r\n\r\nGGUF";
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  char buffer[4096];

  g_input_stream_read (in, buffer, sizeof buffer, NULL, NULL);
  g_output_stream_write_all (out, answer, strlen (answer), NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

/* What the storage host did is said of the storage host, by
 * name, never of the registry or HEADROOM_OLLAMA_REGISTRY. */
static void
test_storage_host_named (Fixture       *f,
                         gconstpointer  data)
{
  g_autofree char *storage = g_strdup (f->fake->storage_url + strlen ("http://"));
  g_autofree char *expected = NULL;
  g_autoptr(GSocketService) service = g_threaded_socket_service_new (2);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaLibraryModel) first = NULL;
  g_autofree char *headers = g_build_filename (f->cache, "ollama", "headers", NULL);
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", headers);
  guint16 port;

  f->fake->storage_status = 404;
  expected = g_strdup_printf ("The storage host %s answered HTTP 404 (Not Found) for the config blob of phi4:latest; "
                              "the registry at %s sent Headroom there", storage, f->fake->registry_url);
  assert_fails (f, "phi4", HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND, expected);
  g_clear_pointer (&expected, g_free);

  f->fake->storage_status = 403;
  expected = g_strdup_printf ("The storage host %s answered HTTP 403 (Forbidden) for the config blob of phi4:latest; "
                              "the registry at %s sent Headroom there", storage, f->fake->registry_url);
  assert_fails (f, "phi4", HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED, expected);
  g_clear_pointer (&expected, g_free);
  f->fake->storage_status = 0;

  f->fake->blob_location = g_strdup ("file:///etc/passwd");
  expected = g_strdup_printf ("The registry at %s sent Headroom to file:///etc/passwd for the config blob of phi4:latest, "
                              "which is not an http or https address", f->fake->registry_url);
  assert_fails (f, "phi4", HR_NET_ERROR, HR_NET_ERROR_BAD_PATH, expected);
  g_clear_pointer (&expected, g_free);
  g_clear_pointer (&f->fake->blob_location, g_free);

  /* The config comes from the cache; the header's Range is cut short. */
  first = lookup (f, "llama3.2:3b", &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
  port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (service), NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "run", G_CALLBACK (on_cut_run), NULL);
  g_socket_service_start (service);
  f->fake->blob_location = g_strdup_printf ("http://127.0.0.1:%u/blob", port);
  {
    g_autoptr(HrOllamaLibraryModel) m = lookup (f, "llama3.2:3b", &error);

    g_assert_null (m);
    g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TRUNCATED);
    expected = g_strdup_printf ("The storage host 127.0.0.1:%u broke off the GGUF header of llama3.2:3b: "
                                "the connection dropped or the host stopped; try again (the registry at %s sent Headroom there)",
                                port, f->fake->registry_url);
    g_assert_cmpstr (error->message, ==, expected);
  }
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
}

/* A registry URL with `user:password@` never shows the password
 * back: not in its messages, its endpoint or the manifest URL it keeps. */
static void
test_password_hidden (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *with_user = g_strdup_printf ("http://admin:s3cret@%s", f->fake->registry_url + strlen ("http://"));
  g_autofree char *shown = g_strdup_printf ("http://admin:***@%s", f->fake->registry_url + strlen ("http://"));
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaLibraryModel) m = NULL;

  g_object_unref (f->registry);
  f->registry = hr_ollama_registry_new (with_user, f->cache);
  g_assert_cmpstr (hr_ollama_registry_get_endpoint (f->registry), ==, shown);

  f->fake->storage_status = 404;
  expected = g_strdup_printf ("The storage host %s answered HTTP 404 (Not Found) for the config blob of phi4:latest; "
                              "the registry at %s sent Headroom there", f->fake->storage_url + strlen ("http://"), shown);
  assert_fails (f, "phi4", HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND, expected);
  f->fake->storage_status = 0;

  m = lookup (f, "llama3.2:3b", &error);
  g_assert_no_error (error);
  g_assert_null (strstr (m->manifest_url, "s3cret"));
  g_assert_true (g_str_has_prefix (m->manifest_url, shown));

  g_object_unref (f->registry);
  f->registry = hr_ollama_registry_new ("http://admin:s3cret@127.0.0.1:9", f->cache);
  {
    g_autoptr(HrOllamaLibraryModel) none = lookup (f, "phi4", &error);

    g_assert_null (none);
    g_assert_cmpstr (error->message, ==,
                     "Could not reach the Ollama registry at http://admin:***@127.0.0.1:9 for the manifest of phi4:latest: "
                     "check the network or HEADROOM_OLLAMA_REGISTRY");
  }
}

static gboolean
on_tls_run (GThreadedSocketService *service,
            GSocketConnection      *connection,
            GObject                *source,
            gpointer                user_data)
{
  /* A TLS alert (protocol version), as a TLS server answers plain HTTP. */
  static const guint8 alert[] = { 0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46 };
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  char buffer[4096];

  g_input_stream_read (in, buffer, sizeof buffer, NULL, NULL);
  g_output_stream_write_all (out, alert, sizeof alert, NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

/* A TLS problem with the registry says what it is and the way
 * out, as the Ollama client does: a certificate nobody trusts, and
 * http:// to a port that speaks TLS. */
static void
test_tls_causes (Fixture       *f,
                 gconstpointer  data)
{
  FakeOllama *tls = fake_ollama_new_tls ();
  g_autoptr(GSocketService) service = g_threaded_socket_service_new (2);
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = NULL, *plain = NULL;
  guint16 port;

  g_object_unref (f->registry);
  f->registry = hr_ollama_registry_new (fake_ollama_get_url (tls), f->cache);
  {
    g_autoptr(HrOllamaLibraryModel) m = lookup (f, "phi4", &error);

    g_assert_null (m);
    g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TLS);
    g_test_message ("%s", error->message);
    prefix = g_strdup_printf ("Could not read the manifest of phi4:latest from the registry at %s. "
                              "The secure connection to %s failed (", fake_ollama_get_url (tls), fake_ollama_get_url (tls) + strlen ("https://"));
    g_assert_true (g_str_has_prefix (error->message, prefix));
    g_assert_true (g_str_has_suffix (error->message, "); check its certificate (one that is self-signed or for another name "
                                                     "is not trusted), or use http:// if it does not speak TLS"));
    g_clear_error (&error);
  }
  fake_ollama_free (tls);

  port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (service), NULL, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "run", G_CALLBACK (on_tls_run), NULL);
  g_socket_service_start (service);
  plain = g_strdup_printf ("http://127.0.0.1:%u", port);
  g_object_unref (f->registry);
  f->registry = hr_ollama_registry_new (plain, f->cache);
  {
    g_autoptr(HrOllamaLibraryModel) m = lookup (f, "phi4", &error);

    g_assert_null (m);
    g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TLS);
    g_test_message ("%s", error->message);
    g_clear_pointer (&prefix, g_free);
    prefix = g_strdup_printf ("Could not read the manifest of phi4:latest from the registry at %s. "
                              "127.0.0.1:%u closed the connection without an HTTP answer (", plain, port);
    g_assert_true (g_str_has_prefix (error->message, prefix));
    g_assert_true (g_str_has_suffix (error->message, "); if it speaks TLS, use https:// instead of http://"));
  }
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
}

/* A 429 with Retry-After says how long to wait, from the
 * registry (the manifest) and from the storage host (a blob). */
static void
test_retry_after (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *expected = NULL;

  f->fake->manifest_status = 429;
  f->fake->retry_after = g_strdup ("30");
  assert_fails (f, "phi4", HR_NET_ERROR, HR_NET_ERROR_RATE_LIMITED,
                "The registry is rate-limiting requests (HTTP 429) for the manifest of phi4:latest; "
                "it asks to try again in 30 seconds");
  g_free (f->fake->retry_after);
  f->fake->retry_after = NULL;
  assert_fails (f, "phi4", HR_NET_ERROR, HR_NET_ERROR_RATE_LIMITED,
                "The registry is rate-limiting requests (HTTP 429) for the manifest of phi4:latest; try again later");
  f->fake->manifest_status = 0;

  f->fake->storage_status = 429;
  f->fake->retry_after = g_strdup ("1");
  expected = g_strdup_printf ("The storage host %s is rate-limiting requests (HTTP 429) for the config blob of phi4:latest; "
                              "it asks to try again in 1 second (the registry at %s sent Headroom there)",
                              f->fake->storage_url + strlen ("http://"), f->fake->registry_url);
  assert_fails (f, "phi4", HR_NET_ERROR, HR_NET_ERROR_RATE_LIMITED, expected);
}

static void
test_endpoint (void)
{
  g_autoptr(HrOllamaRegistry) a = NULL;
  g_autoptr(HrOllamaRegistry) b = NULL;

  g_setenv ("HEADROOM_OLLAMA_REGISTRY", "http://mirror.example:5000/", TRUE);
  a = hr_ollama_registry_new (NULL, "/nonexistent");
  g_assert_cmpstr (hr_ollama_registry_get_endpoint (a), ==, "http://mirror.example:5000");
  g_unsetenv ("HEADROOM_OLLAMA_REGISTRY");
  b = hr_ollama_registry_new (NULL, "/nonexistent");
  g_assert_cmpstr (hr_ollama_registry_get_endpoint (b), ==, "https://registry.ollama.ai");
}

/* ------------------------------------------------------------------ */
/* headroom-cli library                                                 */

static int
run_cli_command (Fixture     *f,
                 char       **out,
                 char       **err,
                 const char  *command,
                 const char  *first,
                 va_list      ap)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;

  g_ptr_array_add (args, (char *) g_getenv ("HEADROOM_CLI"));
  g_ptr_array_add (args, (char *) command);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) a);
  g_ptr_array_add (args, NULL);
  g_subprocess_launcher_setenv (launcher, "HEADROOM_OLLAMA_REGISTRY", f->fake->registry_url, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", f->cache, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", f->cache, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", f->cache, TRUE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, on_lookup, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_subprocess_communicate_utf8_finish (process, result, out, err, &error));
  g_assert_no_error (error);
  g_object_unref (result);
  return g_subprocess_get_exit_status (process);
}

/* headroom-cli library ARGS... */
static int
run_cli (Fixture     *f,
         char       **out,
         char       **err,
         const char  *first,
         ...)
{
  va_list ap;
  int status;

  va_start (ap, first);
  status = run_cli_command (f, out, err, "library", first, ap);
  va_end (ap);
  return status;
}

/* headroom-cli ollama ARGS... */
static int
run_ollama_cli (Fixture     *f,
                char       **out,
                char       **err,
                const char  *first,
                ...)
{
  va_list ap;
  int status;

  va_start (ap, first);
  status = run_cli_command (f, out, err, "ollama", first, ap);
  va_end (ap);
  return status;
}

/* `headroom-cli ollama pull` of a model the catalog lacks: sized from the
 * library with exact figures, refused on the seed board with every reason,
 * and nothing sent to the board (nothing listens at its address). */
static void
test_pull_check (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *out = NULL, *err = NULL;

  add_model (f, "/v2/library/bigmodel/manifests/latest", "phi3",
             LAYER ("model", PHI4_MODEL, "9053114464") ","
             LAYER ("template", PHI4_TEMPLATE, "275"));
  g_assert_cmpint (run_ollama_cli (f, &out, &err, "--host", "http://127.0.0.1:9", "pull", "bigmodel", NULL), ==, 1);
  g_test_message ("%s%s", out, err);
  /* phi4's header (9,053,114,464 bytes) against the Jetson's 5.1 GB budget,
   * at the seed's rate model. */
  g_assert_cmpstr (out, ==, "  refused: bigmodel:latest is over by 3.79 GB\n"
                            "  refused: bigmodel:latest decodes at 4.1 t/s, under the 10.2 t/s floor\n");
  g_assert_true (g_str_has_prefix (err, "headroom-cli: note: the model is not in the catalog; it was sized from its manifest and GGUF header in the Ollama library\n"));
  g_assert_nonnull (strstr (err, "the pull check refused it; run with --force to pull it anyway"));
}

static void
test_cli (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL, *out3 = NULL, *err3 = NULL;
  g_autofree char *out4 = NULL, *err4 = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *model, *predict, *layer;

  g_assert_cmpint (run_cli (f, &out, &err, "llama3.2:3b", "--context", "4096", "--json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  layer = json_array_get_object_element (json_object_get_array_member (root, "layers"), 0);
  g_assert_cmpstr (json_object_get_string_member (layer, "digest"), ==, LLAMA_MODEL);
  g_assert_cmpint (json_object_get_int_member (layer, "bytes"), ==, (gint64) LLAMA_BYTES);
  model = json_object_get_object_member (root, "model");
  g_assert_cmpstr (json_object_get_string_member (model, "architecture"), ==, "llama");
  g_assert_cmpint (json_object_get_int_member (model, "layers"), ==, 28);
  g_assert_cmpint (json_object_get_int_member (model, "kv_heads"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (model, "header_bytes"), ==, (gint64) g_bytes_get_size (f->llama_header));
  predict = json_object_get_object_member (root, "predict");
  g_assert_cmpstr (json_object_get_string_member (predict, "model"), ==, "llama3.2:3b");
  g_assert_true (json_object_has_member (predict, "verdict"));
  g_assert_true (json_object_has_member (predict, "terms"));
  /* predict's own figure for this header at 4096 (test_llama_header), with
   * no overhead learned on the seed board. */
  g_assert_cmpint (json_object_get_int_member (predict, "total_bytes"), ==, G_GINT64_CONSTANT (2550507776));
  g_assert_cmpint (json_object_get_int_member (root, "bytes_read"), >, (gint64) g_bytes_get_size (f->llama_header));

  /* The text form, from the cache this time: one manifest request. */
  fake_registry_reset_counts (f->fake);
  g_assert_cmpint (run_cli (f, &out2, &err2, "llama3.2:3b", NULL), ==, 0);
  g_test_message ("%s", out2);
  g_assert_cmpuint (f->fake->registry_requests, ==, 1);
  g_assert_nonnull (strstr (out2, "application/vnd.ollama.image.model"));
  g_assert_nonnull (strstr (out2, "2,019,377,376 bytes"));
  g_assert_nonnull (strstr (out2, "  KV heads           8\n"));
  g_assert_nonnull (strstr (out2, "bits per weight: "));
  g_assert_nonnull (strstr (out2, "total: "));

  g_assert_cmpint (run_cli (f, &out4, &err4, "a b", NULL), ==, 2);
  g_assert_nonnull (strstr (err4, "is not an Ollama model name"));

  g_assert_cmpint (run_cli (f, &out3, &err3, "qwen9:70b", NULL), ==, 1);
  g_assert_cmpstr (err3, ==, "headroom-cli: qwen9:70b is not in the Ollama library\n");
  g_assert_cmpstr (out3, ==, "");
}

static JsonObject *
cli_predict (Fixture    *f,
             JsonParser *parser,
             const char *name)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (run_cli (f, &out, &err, name, "--context", "4096", "--json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* The projector in `library`: its download bytes and tensor bytes in the
 * model's JSON, and a `projector` term in the prediction: llava:7b (phi4's
 * model layer and a projector) predicts phi4's total plus the projector's
 * tensor bytes; the text says both figures. */
static void
test_cli_projector (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(JsonParser) with = json_parser_new ();
  g_autoptr(JsonParser) without = json_parser_new ();
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *root = cli_predict (f, with, "llava:7b");
  JsonObject *plain = cli_predict (f, without, "phi4");
  JsonObject *model = json_object_get_object_member (root, "model");
  JsonObject *predict = json_object_get_object_member (root, "predict");
  JsonArray *terms = json_object_get_array_member (predict, "terms");
  JsonObject *projector = NULL;
  gint64 sum = 0;

  g_assert_cmpint (json_object_get_int_member (model, "projector_bytes"), ==, (gint64) PROJECTOR_BYTES);
  g_assert_cmpint (json_object_get_int_member (model, "projector_tensor_bytes"), ==, (gint64) PROJECTOR_TENSORS);
  for (guint i = 0; i < json_array_get_length (terms); i++)
    {
      JsonObject *term = json_array_get_object_element (terms, i);

      sum += json_object_get_int_member (term, "bytes");
      if (g_strcmp0 (json_object_get_string_member (term, "id"), "projector") == 0)
        projector = term;
    }
  g_assert_nonnull (projector);
  g_assert_cmpint (json_object_get_int_member (projector, "bytes"), ==, (gint64) PROJECTOR_TENSORS);
  g_assert_nonnull (strstr (json_object_get_string_member (projector, "source"), "mmprojMemoryRequirement"));
  g_assert_cmpint (json_object_get_int_member (predict, "total_bytes"), ==, sum);
  g_assert_cmpint (json_object_get_int_member (predict, "total_bytes"), ==,
                   json_object_get_int_member (json_object_get_object_member (plain, "predict"), "total_bytes") +
                   (gint64) PROJECTOR_TENSORS);

  g_assert_cmpint (run_cli (f, &out, &err, "llava:7b", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "vision projector: 624,434,336 bytes to download, 16,781,312 bytes of tensors "
                                 "loaded beside the weights (the prediction's projector term)\n"));
  g_assert_nonnull (strstr (out, "Vision projector"));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/registry/phi4", test_phi4);
  ADD ("/registry/llama-header", test_llama_header);
  ADD ("/registry/projector", test_projector);
  ADD ("/registry/progress", test_progress);
  ADD ("/registry/cache", test_cache);
  ADD ("/registry/cache-stale-temporaries", test_cache_stale_temporaries);
  ADD ("/registry/storage-host-named", test_storage_host_named);
  ADD ("/registry/password-hidden", test_password_hidden);
  ADD ("/registry/tls-causes", test_tls_causes);
  ADD ("/registry/retry-after", test_retry_after);
  ADD ("/registry/unknown", test_unknown);
  ADD ("/registry/bad-inputs", test_bad_inputs);
  ADD ("/registry/cli", test_cli);
  ADD ("/registry/cli-projector", test_cli_projector);
  ADD ("/registry/pull-check", test_pull_check);
#undef ADD
  g_test_add_func ("/registry/endpoint", test_endpoint);
  return g_test_run ();
}
