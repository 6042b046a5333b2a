/* test-ollama-manifest.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Ollama registry's pure mapping (app/core/ollama/hr-ollama-manifest.c): names
 * resolved as ollama/ollama types/model/name.go resolves them, the seed's
 * phi4 manifest to the byte, the config blob, the registry's error body,
 * and how far a GGUF header reaches (app/core/gguf/hr-gguf-extent.c).
 */
#include "config.h"

#include <locale.h>

#include "gguf-writer.h"
#include "hr-error.h"
#include "hr-gguf-extent.h"
#include "hr-ollama-manifest.h"

static void
check_name (const char *text,
            const char *host,
            const char *ns,
            const char *model,
            const char *tag,
            const char *display)
{
  g_auto(HrOllamaName) name = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *shown = NULL;

  g_assert_true (hr_ollama_name_parse (text, &name, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (name.host, ==, host);
  g_assert_cmpstr (name.namespace_, ==, ns);
  g_assert_cmpstr (name.model, ==, model);
  g_assert_cmpstr (name.tag, ==, tag);
  shown = hr_ollama_name_display (&name);
  g_assert_cmpstr (shown, ==, display);
}

static void
test_names (void)
{
  g_auto(HrOllamaName) name = { 0 };
  g_autofree char *path = NULL;
  const char *bad[] = {
    "", ":", "phi4:", "a/b/c/d", "host:5000/ns/model", "ns.x/model", "mo..del", "model:tag:x",
    "mo del", "model+Q4_0", "model@sha256-00", "/model", "ns/", "hf.co/org/re/po",
  };

  check_name ("phi4", "registry.ollama.ai", "library", "phi4", "latest", "phi4:latest");
  check_name ("qwen2.5-coder:14b", "registry.ollama.ai", "library", "qwen2.5-coder", "14b", "qwen2.5-coder:14b");
  check_name ("gemma3:27b-it-q8_0", "registry.ollama.ai", "library", "gemma3", "27b-it-q8_0", "gemma3:27b-it-q8_0");
  check_name ("library/phi4", "registry.ollama.ai", "library", "phi4", "latest", "phi4:latest");
  check_name ("user/model:7b", "registry.ollama.ai", "user", "model", "7b", "user/model:7b");
  check_name ("hf.co/org/repo:Q4_K_M", "hf.co", "org", "repo", "Q4_K_M", "hf.co/org/repo:Q4_K_M");
  check_name ("https://registry.ollama.ai/library/phi4:latest", "registry.ollama.ai", "library", "phi4", "latest", "phi4:latest");
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_auto(HrOllamaName) n = { 0 };
      g_autoptr(GError) error = NULL;

      g_assert_false (hr_ollama_name_parse (bad[i], &n, &error));
      g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT);
      g_assert_null (n.model);
    }
  g_assert_true (hr_ollama_name_parse ("qwen9:70b", &name, NULL));
  path = hr_ollama_name_path (&name);
  g_assert_cmpstr (path, ==, "/v2/library/qwen9/manifests/70b");
}

/* From API to GPU: the phi4 manifest. */
static const char phi4[] =
  "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.docker.distribution.manifest.v2+json\","
  "\"config\":{\"mediaType\":\"application/vnd.docker.container.image.v1+json\","
  "\"digest\":\"sha256:3bdb1cd8ba8c2a7b2d7c1aee9f3c2b9f8d0b6b3b7f2c4e6a8d0f1e3c5a7b9d1f\",\"size\":487},"
  "\"layers\":["
  "{\"mediaType\":\"application/vnd.ollama.image.model\",\"digest\":\"sha256:fd7b6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20\",\"size\":9053114464},"
  "{\"mediaType\":\"application/vnd.ollama.image.template\",\"digest\":\"sha256:32695b892af87ef8fca6e13a1a31c67c1441d7398be037e366e2fc763857c06a\",\"size\":275},"
  "{\"mediaType\":\"application/vnd.ollama.image.license\",\"digest\":\"sha256:fa8235e5b48faca34e3ca98cf4f694ef08bd216d28b58071a1f85b1d50cb814d\",\"size\":1084},"
  "{\"mediaType\":\"application/vnd.ollama.image.params\",\"digest\":\"sha256:45a1c652dddc9efdcefa977ab81cfbe26b6e52bc8e78f2f4c698538783e0ac80\",\"size\":82}]}";

static void
test_manifest (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaManifest) m = hr_ollama_manifest_parse (phi4, strlen (phi4), "phi4:latest", &error);
  g_autoptr(HrOllamaManifest) none = NULL;
  g_autoptr(HrOllamaManifest) bad = NULL;
  g_autoptr(HrOllamaManifest) vision = NULL;
  const char *no_model = "{\"config\":{\"mediaType\":\"x\",\"digest\":\"sha256:3bdb1cd8ba8c2a7b2d7c1aee9f3c2b9f8d0b6b3b7f2c4e6a8d0f1e3c5a7b9d1f\",\"size\":1},\"layers\":[]}";
  const char *bad_digest = "{\"config\":{\"mediaType\":\"x\",\"digest\":\"sha256:../../etc\",\"size\":1},\"layers\":[]}";
  g_autofree char *with_projector = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (m->layers->len, ==, 4);
  g_assert_cmpuint (m->model->size, ==, G_GUINT64_CONSTANT (9053114464));
  g_assert_cmpstr (m->model->digest, ==, "sha256:fd7b6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20");
  g_assert_null (m->projector);
  g_assert_cmpuint (m->config->size, ==, 487);
  g_assert_cmpuint (m->total_bytes, ==, G_GUINT64_CONSTANT (9053114464) + 275 + 1084 + 82 + 487);

  none = hr_ollama_manifest_parse (no_model, strlen (no_model), "x:latest", &error);
  g_assert_null (none);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "The manifest of x:latest has no model layer (application/vnd.ollama.image.model): nothing to size");
  g_clear_error (&error);

  {
    const char *empty = "{\"config\":{\"mediaType\":\"x\",\"digest\":\"sha256:3bdb1cd8ba8c2a7b2d7c1aee9f3c2b9f8d0b6b3b7f2c4e6a8d0f1e3c5a7b9d1f\",\"size\":1},"
                        "\"layers\":[{\"mediaType\":\"application/vnd.ollama.image.model\","
                        "\"digest\":\"sha256:fd7b6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20\",\"size\":0}]}";
    g_autoptr(HrOllamaManifest) e = hr_ollama_manifest_parse (empty, strlen (empty), "x:latest", &error);

    g_assert_null (e);
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
    g_assert_cmpstr (error->message, ==, "The manifest of x:latest lists an empty model layer: nothing to size");
    g_clear_error (&error);
  }

  bad = hr_ollama_manifest_parse (bad_digest, strlen (bad_digest), "x:latest", &error);
  g_assert_null (bad);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_clear_error (&error);

  with_projector = g_strdup (phi4);
  with_projector[strlen (with_projector) - 2] = '\0';
  {
    g_autofree char *json = g_strconcat (with_projector, ",{\"mediaType\":\"application/vnd.ollama.image.projector\","
                                         "\"digest\":\"sha256:ece5e659647a20a5c28ab9eea1c12a1ad430bc0f2a27021d00ad103b3bf5206f\","
                                         "\"size\":851251104}]}", NULL);

    vision = hr_ollama_manifest_parse (json, strlen (json), "v:latest", &error);
    g_assert_no_error (error);
    g_assert_nonnull (vision->projector);
    g_assert_cmpuint (vision->projector->size, ==, 851251104);
  }
}

static void
test_config (void)
{
  const char *json = "{\"model_format\":\"gguf\",\"model_family\":\"phi3\",\"model_families\":[\"phi3\",7],"
                     "\"model_type\":\"14.7B\",\"file_type\":\"Q4_K_M\",\"os\":\"linux\"}";
  const char *error_body = "{\"errors\":[{\"code\":\"MANIFEST_UNKNOWN\",\"message\":\"manifest unknown\"}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaConfig) c = hr_ollama_config_parse (json, strlen (json), "phi4:latest", &error);
  g_autoptr(HrOllamaConfig) broken = hr_ollama_config_parse ("[1", 2, "phi4:latest", NULL);
  g_autofree char *code = hr_ollama_registry_error_code (error_body, strlen (error_body));
  g_autofree char *plain = hr_ollama_registry_error_code ("404 page not found", 18);

  g_assert_no_error (error);
  g_assert_cmpstr (c->format, ==, "gguf");
  g_assert_cmpstr (c->family, ==, "phi3");
  g_assert_cmpstr (c->parameter_size, ==, "14.7B");
  g_assert_cmpstr (c->file_type, ==, "Q4_K_M");
  g_assert_cmpuint (g_strv_length (c->families), ==, 1);
  g_assert_null (broken);
  g_assert_cmpstr (code, ==, "MANIFEST_UNKNOWN");
  g_assert_null (plain);
  g_assert_true (hr_ollama_digest_is_valid ("sha256:fd7b6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20"));
  g_assert_false (hr_ollama_digest_is_valid ("sha256:FD7B6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20"));
  g_assert_false (hr_ollama_digest_is_valid ("fd7b6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20"));
}

/* The extent of a header, and the lower bound a prefix gives. */
static void
test_extent (void)
{
  g_autoptr(GgufWriter) w = gw_new ();
  const char *tokens[] = { "a", "bb", "ccc", "dddd" };
  const guint64 dims[2] = { 256, 4 };
  guint64 end = 0, need = 0, header;

  gw_header (w, 3, 1, 3);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_str_array (w, "tokenizer.ggml.tokens", tokens, G_N_ELEMENTS (tokens));
  gw_kv_array (w, "tokenizer.ggml.scores", GW_FLOAT32, 1000);
  for (guint i = 0; i < 1000; i++)
    gw_f32 (w, 0.0f);
  gw_tensor (w, "token_embd.weight", 2, dims, 0, 0);
  header = w->len;
  gw_bytes (w, "tensor data follows", 19);

  g_assert_true (hr_gguf_header_extent (w->data, w->len, &end, &need));
  g_assert_cmpuint (end, ==, header);
  g_assert_true (hr_gguf_header_extent (w->data, (gsize) header, &end, &need));
  g_assert_cmpuint (end, ==, header);
  /* Every prefix: more is needed, at least one byte, never past the header. */
  for (gsize n = 0; n < header; n++)
    {
      g_assert_false (hr_gguf_header_extent (w->data, n, &end, &need));
      g_assert_cmpuint (need, >, n);
      g_assert_cmpuint (need, <=, header);
    }
  /* Inside the scores array, its whole extent is known at once; the
   * tensor entry after it counts at its least (no name, no dimension). */
  g_assert_false (hr_gguf_header_extent (w->data, (gsize) header - 100, &end, &need));
  g_assert_cmpuint (need, ==, header - strlen ("token_embd.weight") - 2 * 8);
  /* Not GGUF: no bound (the parser says why). */
  g_assert_false (hr_gguf_header_extent ((const guint8 *) "<html>", 6, &end, &need));
  g_assert_cmpuint (need, ==, 0);
}

/* A layer's size that is no byte count (past 2^63 - 1, below
 * 0, a string, a float) is named with its field and its value. */
static void
test_layer_size_named (void)
{
  static const struct { const char *size; const char *shown; } cases[] = {
    { "18446744073709551615", "18446744073709551615" },
    { "1180591620717411303424", "1180591620717411303424" },
    { "-5", "-5" },
    { "\"2GB\"", "\"2GB\"" },
    { "1e300", "1e300" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"config\":{\"mediaType\":\"x\",\"digest\":\"sha256:3bdb1cd8ba8c2a7b2d7c1aee9f3c2b9f8d0b6b3b7f2c4e6a8d0f1e3c5a7b9d1f\",\"size\":1},"
        "\"layers\":[{\"mediaType\":\"application/vnd.ollama.image.model\","
        "\"digest\":\"sha256:fd7b6731c33c57f61767612f56517460ec2d1e2e5a3f0163e0eb3d8d8cb5df20\",\"size\":%s}]}", cases[i].size);
      g_autofree char *expected = g_strdup_printf (
        "The manifest of x:latest has a layer whose \"size\" is %s, not a whole number of bytes "
        "from 0 to 9223372036854775807", cases[i].shown);
      g_autoptr(GError) error = NULL;
      g_autoptr(HrOllamaManifest) m = hr_ollama_manifest_parse (json, strlen (json), "x:latest", &error);

      g_assert_null (m);
      g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
      g_assert_cmpstr (error->message, ==, expected);
    }
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ollama-manifest/names", test_names);
  g_test_add_func ("/ollama-manifest/manifest", test_manifest);
  g_test_add_func ("/ollama-manifest/layer-size-named", test_layer_size_named);
  g_test_add_func ("/ollama-manifest/config", test_config);
  g_test_add_func ("/ollama-manifest/extent", test_extent);
  return g_test_run ();
}
