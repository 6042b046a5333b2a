/* test-mmproj.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Vision and audio projectors (hr-mmproj.h): the bytes Ollama counts for a
 * separate mmproj file and for one inside the model's GGUF, its
 * --no-mmproj-offload decision and fit target (llm/llama_server.go), the
 * Ollama store's projector layer, and `headroom-cli gguf FILE --mmproj
 * FILE` / `--ollama-models` with a projector layer, line for line.
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <sys/wait.h>

#include <json-glib/json-glib.h>

#include "hr-catalog.h"
#include "hr-error.h"
#include "hr-gguf.h"
#include "hr-mmproj.h"
#include "hr-ollama-store.h"
#include "hr-runtime.h"
#include "hr-safetensors.h"
#include "mmproj-fixtures.h"

#define MIB G_GUINT64_CONSTANT (1048576)
#define GIB (G_GUINT64_CONSTANT (1024) * MIB)

static HrGgufFile *
parse (GgufWriter *w)
{
  g_autoptr(GError) error = NULL;
  HrGgufFile *file = hr_gguf_file_parse_data (w->data, w->len, &error);

  g_assert_no_error (error);
  g_assert_nonnull (file);
  return file;
}

static void
test_names (void)
{
  g_assert_true (hr_mmproj_path_is_projector ("mmproj-F16.gguf"));
  g_assert_true (hr_mmproj_path_is_projector ("sub/mmproj-gemma-3-4b-it-f16.gguf"));
  g_assert_true (hr_mmproj_path_is_projector ("Qwen2.5-VL-7B-Instruct-mmproj-f16.gguf"));
  g_assert_false (hr_mmproj_path_is_projector ("gemma-3-4b-it-Q4_K_M.gguf"));
  g_assert_false (hr_mmproj_path_is_projector ("mmproj-F16.bin"));
  g_assert_false (hr_mmproj_path_is_projector ("MMPROJ-F16.gguf")); /* llama.cpp's find is case-sensitive */

  g_assert_true (hr_mmproj_tensor_is_inline ("v.blk.0.attn_q.weight"));
  g_assert_true (hr_mmproj_tensor_is_inline ("mm.input_projection.weight"));
  g_assert_true (hr_mmproj_tensor_is_inline ("a.conv1d.0.weight"));
  g_assert_false (hr_mmproj_tensor_is_inline ("blk.0.attn_v.weight"));
  g_assert_false (hr_mmproj_tensor_is_inline ("vision.weight"));

  g_assert_true (hr_mmproj_arch_has_inline ("gemma3"));
  g_assert_true (hr_mmproj_arch_has_inline ("qwen25vl"));
  g_assert_false (hr_mmproj_arch_has_inline ("llama"));
  g_assert_false (hr_mmproj_arch_has_inline (NULL));

  g_assert_true (hr_mmproj_safetensors_is_tower ("vision_tower.blocks.0.attn.qkv.weight"));
  g_assert_true (hr_mmproj_safetensors_is_tower ("model.vision_tower.patch_embed.proj.weight"));
  g_assert_true (hr_mmproj_safetensors_is_tower ("visual.merger.mlp.0.weight"));
  g_assert_true (hr_mmproj_safetensors_is_tower ("model.visual.blocks.0.norm1.weight"));
  g_assert_true (hr_mmproj_safetensors_is_tower ("multi_modal_projector.linear_1.weight"));
  g_assert_true (hr_mmproj_safetensors_is_tower ("audio_tower.layers.0.fc1.weight"));
  g_assert_false (hr_mmproj_safetensors_is_tower ("model.layers.0.self_attn.q_proj.weight"));
  g_assert_false (hr_mmproj_safetensors_is_tower ("lm_head.weight"));
}

/* A separate file: every tensor; the inline rule on it too (all three
 * start with v. or mm.). A file without tensors is Ollama's error. */
static void
test_file_bytes (void)
{
  g_autoptr(GgufWriter) w = mmproj_write_projector ();
  g_autoptr(HrGgufFile) file = parse (w);
  g_autoptr(GError) error = NULL;
  guint n = 0;

  g_assert_cmpuint (hr_mmproj_file_bytes (file, &error), ==, MMPROJ_FILE_TENSOR_BYTES);
  g_assert_no_error (error);
  g_assert_cmpuint (hr_mmproj_inline_bytes (file, &n), ==, MMPROJ_FILE_TENSOR_BYTES);
  g_assert_cmpuint (n, ==, 3);

  {
    g_autoptr(GgufWriter) empty = gw_new ();
    g_autoptr(HrGgufFile) none = NULL;

    gw_header (empty, 3, 0, 1);
    gw_kv_str (empty, "general.architecture", "clip");
    none = parse (empty);
    g_assert_cmpuint (hr_mmproj_file_bytes (none, &error), ==, 0);
    g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
    g_assert_cmpstr (error->message, ==, "the projector file has no tensors (Ollama refuses it: “no projector tensors found”)");
  }
}

/* gemma3 with v. and mm. tensors: the spec's weights lose them, the
 * projector term gains them; llama with the same tensors keeps them
 * (Ollama gives only compatClipArches the model's own file as --mmproj). */
static void
test_inline (void)
{
  g_autoptr(GgufWriter) w = mmproj_write_inline ("gemma3");
  g_autoptr(HrGgufFile) file = parse (w);
  g_autoptr(GError) error = NULL;
  g_autoptr(HrModelSpec) spec = hr_gguf_file_to_model_spec (file, NULL, NULL, &error);
  guint n = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (hr_mmproj_inline_bytes (file, &n), ==, MMPROJ_INLINE_BYTES);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (spec->projector_bytes, ==, MMPROJ_INLINE_BYTES);
  g_assert_cmpuint (spec->tensors->len, ==, 2);
  g_assert_cmpuint (hr_model_spec_tensor_bytes (spec), ==, MMPROJ_INLINE_TEXT_BYTES);
  g_assert_nonnull (strstr (spec->projector_source, "mmprojMemoryRequirement"));
  /* taken once: a second call moves nothing */
  g_assert_cmpuint (hr_mmproj_take_inline (spec), ==, 0);

  {
    g_autoptr(GgufWriter) lw = mmproj_write_inline ("llama");
    g_autoptr(HrGgufFile) lfile = parse (lw);
    g_autoptr(HrModelSpec) lspec = hr_gguf_file_to_model_spec (lfile, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (lspec->projector_bytes, ==, 0);
    g_assert_cmpuint (lspec->tensors->len, ==, 4);
    g_assert_cmpuint (hr_model_spec_tensor_bytes (lspec), ==, MMPROJ_INLINE_BYTES + MMPROJ_INLINE_TEXT_BYTES);
  }
}

/* A safetensors header with a Qwen2.5-VL-style tower ("visual.") and a
 * Llava-style projector: the tower's tensors, elements and bytes; the
 * index counts the tower's names. */
static void
test_safetensors (void)
{
  static const char json[] =
    "{\"__metadata__\":{\"format\":\"pt\"},"
    "\"model.embed_tokens.weight\":{\"dtype\":\"BF16\",\"shape\":[8,4],\"data_offsets\":[0,64]},"
    "\"visual.blocks.0.attn.qkv.weight\":{\"dtype\":\"BF16\",\"shape\":[12,4],\"data_offsets\":[64,160]},"
    "\"visual.merger.mlp.0.bias\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[160,176]},"
    "\"model.multi_modal_projector.linear_1.weight\":{\"dtype\":\"F16\",\"shape\":[4,2],\"data_offsets\":[176,192]}}";
  static const char index_json[] =
    "{\"metadata\":{\"total_size\":192},\"weight_map\":{\"model.embed_tokens.weight\":\"a.safetensors\","
    "\"visual.blocks.0.attn.qkv.weight\":\"a.safetensors\",\"visual.merger.mlp.0.bias\":\"a.safetensors\"}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(HrSafetensorsHeader) header = hr_safetensors_header_parse_json (json, strlen (json), &error);
  HrSafetensorsIndex *index;

  g_assert_no_error (error);
  g_assert_cmpuint (header->n_tensors, ==, 4);
  g_assert_cmpuint (header->tower_tensors, ==, 3);
  g_assert_cmpuint (header->tower_parameters, ==, 48 + 4 + 8);
  g_assert_cmpuint (header->tower_bytes, ==, 96 + 16 + 16);
  g_assert_cmpuint (header->data_bytes, ==, 192);
  index = hr_safetensors_index_parse (index_json, strlen (index_json), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (index->tower_tensors, ==, 2);
  hr_safetensors_index_free (index);
}

/* shouldDisableMMProjOffload, case by case, and mmprojFitTargetMiB. */
static void
test_decision (void)
{
  const guint64 p = 851251104; /* llava's projector layer, 811.8 MiB */
  guint64 free_[2] = { 16 * GIB, 16 * GIB }, total[2] = { 16 * GIB, 16 * GIB };

  g_assert_cmpint (hr_mmproj_offload_decision (-1, 33, free_, total, 2, p), ==, HR_MMPROJ_OFFLOAD_ON);
  g_assert_cmpint (hr_mmproj_offload_decision (0, 33, free_, total, 2, p), ==, HR_MMPROJ_OFFLOAD_CPU_ONLY);
  g_assert_cmpint (hr_mmproj_offload_decision (32, 33, free_, total, 2, p), ==, HR_MMPROJ_OFFLOAD_PARTIAL_TEXT);
  g_assert_cmpint (hr_mmproj_offload_decision (33, 33, free_, total, 2, p), ==, HR_MMPROJ_OFFLOAD_ON);
  g_assert_cmpint (hr_mmproj_offload_decision (99, 33, free_, total, 2, p), ==, HR_MMPROJ_OFFLOAD_ON);
  /* any one GPU under projector + 1 GiB; exactly that much is enough */
  free_[1] = p + GIB - 1;
  g_assert_cmpint (hr_mmproj_offload_decision (-1, 33, free_, total, 2, p), ==, HR_MMPROJ_OFFLOAD_LIMITED_VRAM);
  free_[1] = p + GIB;
  g_assert_cmpint (hr_mmproj_offload_decision (-1, 33, free_, total, 2, p), ==, HR_MMPROJ_OFFLOAD_ON);
  /* free 0: the total decides; free above the total: the total too */
  free_[1] = 0;
  total[1] = p + GIB - 1;
  g_assert_cmpint (hr_mmproj_offload_decision (-1, 33, free_, total, 2, p), ==, HR_MMPROJ_OFFLOAD_LIMITED_VRAM);
  free_[1] = 32 * GIB;
  g_assert_cmpint (hr_mmproj_offload_decision (-1, 33, free_, total, 2, p), ==, HR_MMPROJ_OFFLOAD_LIMITED_VRAM);
  /* a GPU that knows nothing is skipped; no projector, nothing to decide */
  free_[1] = total[1] = 0;
  g_assert_cmpint (hr_mmproj_offload_decision (-1, 33, free_, total, 2, p), ==, HR_MMPROJ_OFFLOAD_ON);
  g_assert_cmpint (hr_mmproj_offload_decision (0, 33, free_, total, 2, 0), ==, HR_MMPROJ_OFFLOAD_ON);

  g_assert_cmpstr (hr_mmproj_offload_reason (HR_MMPROJ_OFFLOAD_CPU_ONLY), ==, "cpu-only");
  g_assert_cmpstr (hr_mmproj_offload_reason (HR_MMPROJ_OFFLOAD_PARTIAL_TEXT), ==, "partial-text-offload");
  g_assert_cmpstr (hr_mmproj_offload_reason (HR_MMPROJ_OFFLOAD_LIMITED_VRAM), ==, "limited-vram");
  g_assert_cmpstr (hr_mmproj_offload_reason (HR_MMPROJ_OFFLOAD_ON), ==, "");

  /* ceil((851,251,104 + 1,073,741,824) / 1,048,576) = ceil(1835.8) = 1836 */
  g_assert_cmpuint (hr_mmproj_fit_target_mib (p), ==, 1836);
  g_assert_cmpuint (hr_mmproj_fit_target_mib (MIB), ==, 1025);
  g_assert_cmpuint (hr_mmproj_fit_target_mib (MIB + 1), ==, 1026);
  g_assert_cmpuint (hr_mmproj_fit_target_mib (0), ==, 0);
  g_assert_cmpuint (hr_mmproj_fit_margin_bytes (p, HR_MMPROJ_OFFLOAD_ON, GIB, FALSE), ==, 1836 * MIB);
  g_assert_cmpuint (hr_mmproj_fit_margin_bytes (p, HR_MMPROJ_OFFLOAD_ON, 2048 * MIB, TRUE), ==, 2048 * MIB);
  g_assert_cmpuint (hr_mmproj_fit_margin_bytes (p, HR_MMPROJ_OFFLOAD_LIMITED_VRAM, GIB, FALSE), ==, GIB);
  g_assert_cmpuint (hr_mmproj_fit_margin_bytes (0, HR_MMPROJ_OFFLOAD_ON, GIB, FALSE), ==, GIB);
}

/* A catalog row with a separate projector layer: projector_bytes and its
 * source; the prediction's projector term is that figure. A row without
 * the field has none. (The figures: llama3.2:3b's listing with llava:7b's
 * projector layer of 624,434,336 bytes, a test row, not a real model.) */
#define CATALOG_ROW \
  "{\"version\":1,\"models\":[{\"name\":\"tiny-llava\",\"architecture\":\"llama\",\"parameters\":3212749888," \
  "\"precision\":\"q4_K_M\",\"file_bytes\":2019377376,\"layers\":28,\"heads\":24,\"kv_heads\":8,\"head_dim\":128," \
  "\"embedding_length\":3072,\"context_length\":131072,\"vocab_size\":128256,\"tied_embeddings\":true," \
  "\"projector_bytes\":624434336,\"sources\":{\"default\":\"a test row\"," \
  "\"projector_bytes\":\"ollama.com/library/llava:7b manifest: the image.projector layer, 624,434,336 bytes\"}}," \
  "{\"name\":\"tiny-plain\",\"architecture\":\"llama\",\"parameters\":3212749888,\"precision\":\"q4_K_M\"," \
  "\"layers\":28,\"kv_heads\":8,\"head_dim\":128,\"sources\":{\"default\":\"a test row\"}}]}"

static void
test_catalog (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) specs = hr_catalog_load_data (CATALOG_ROW, -1, "test.json", &error);
  const HrModelSpec *llava, *plain;
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  g_assert_no_error (error);
  llava = g_ptr_array_index (specs, 0);
  plain = g_ptr_array_index (specs, 1);
  g_assert_cmpuint (llava->projector_bytes, ==, 624434336);
  g_assert_cmpstr (llava->projector_source, ==, "ollama.com/library/llava:7b manifest: the image.projector layer, 624,434,336 bytes");
  g_assert_cmpuint (plain->projector_bytes, ==, 0);
  g_assert_null (plain->projector_source);
  hr_runtime_inputs_init (&in, llava, 4096);
  in.skip_text = FALSE;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpint (hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_PROJECTOR), ==, 624434336);
  g_assert_true (g_str_has_prefix (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_PROJECTOR)->note,
                                   "Loaded by llama-server's clip loader on the GPU unless Ollama passes --no-mmproj-offload"));
  /* a 0.12-era prediction says the old estimator counted it */
  in.era = HR_RUNTIME_ERA_OLLAMA_0_12;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_cmpstr (hr_runtime_prediction_get_term (&p, HR_RUNTIME_TERM_PROJECTOR)->note, ==,
                   "Loaded with the model, on the first GPU, and in the size the old estimator reported (llm/memory.go projectorMemoryRequirements).");
}

/* ------------------------------------------------------------ the store */

typedef struct {
  char    *dir;
  char    *model_path;
  char    *projector_path;
  char    *model_digest;
  char    *projector_digest;
  guint64  model_size;
  guint64  projector_size;
} Store;

static char *
put_blob (const char *dir,
          GgufWriter *w,
          char      **out_digest)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *hex = g_compute_checksum_for_data (G_CHECKSUM_SHA256, w->data, w->len);
  g_autofree char *name = g_strconcat ("sha256-", hex, NULL);
  g_autofree char *blobs = g_build_filename (dir, "blobs", NULL);
  char *path = g_build_filename (blobs, name, NULL);

  g_mkdir_with_parents (blobs, 0700);
  g_file_set_contents (path, (const char *) w->data, w->len, &error);
  g_assert_no_error (error);
  *out_digest = g_strconcat ("sha256:", hex, NULL);
  return path;
}

static void
put_manifest (const Store *store,
              const char  *tag,
              guint64      projector_size)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (store->dir, "manifests/registry.ollama.ai/library/tiny-vision", tag, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autofree char *json = g_strdup_printf (
    "{\"schemaVersion\":2,\"layers\":[\n"
    "{\"mediaType\":\"application/vnd.ollama.image.model\",\"digest\":\"%s\",\"size\":%" G_GUINT64_FORMAT "},\n"
    "{\"mediaType\":\"application/vnd.ollama.image.projector\",\"digest\":\"%s\",\"size\":%" G_GUINT64_FORMAT "}\n"
    "]}", store->model_digest, store->model_size, store->projector_digest, projector_size);

  g_mkdir_with_parents (parent, 0700);
  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
}

static void
store_setup (Store *store)
{
  g_autoptr(GgufWriter) model = mmproj_write_inline ("llama");
  g_autoptr(GgufWriter) projector = mmproj_write_projector ();

  store->dir = g_build_filename (g_get_user_cache_dir (), "ollama-vision", NULL);
  store->model_path = put_blob (store->dir, model, &store->model_digest);
  store->projector_path = put_blob (store->dir, projector, &store->projector_digest);
  store->model_size = model->len;
  store->projector_size = projector->len;
  put_manifest (store, "latest", store->projector_size);
  put_manifest (store, "short", store->projector_size + 1);
}

static void
store_clear (Store *store)
{
  g_free (store->dir);
  g_free (store->model_path);
  g_free (store->projector_path);
  g_free (store->model_digest);
  g_free (store->projector_digest);
}

/* The manifest's projector layer is found beside the model layer; a
 * projector blob of the wrong size is refused. */
static void
test_store (void)
{
  Store store = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaBlob) blob = NULL;
  g_autoptr(HrOllamaBlob) bad = NULL;
  g_autofree char *message = NULL;

  store_setup (&store);
  blob = hr_ollama_store_find_model (store.dir, "tiny-vision", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (blob->digest, ==, store.model_digest);
  g_assert_cmpstr (blob->projector_digest, ==, store.projector_digest);
  g_assert_cmpuint (blob->projector_size, ==, store.projector_size);
  g_assert_cmpstr (blob->projector_path, ==, store.projector_path);
  g_assert_true (g_str_has_prefix (blob->projector_file, "blobs/sha256-"));

  bad = hr_ollama_store_find_model (store.dir, "tiny-vision:short", &error);
  g_assert_null (bad);
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  /* the header, aligned to 32, and 55,296 bytes of tensors: 55,648 */
  g_assert_cmpuint (store.projector_size, ==, 55648);
  message = g_strdup_printf ("the projector blob %s is 55,648 bytes but the manifest says 55,649; "
                             "it is incomplete or was changed: pull the model again (ollama pull tiny-vision:short)",
                             blob->projector_file);
  g_assert_cmpstr (error->message, ==, message);
  store_clear (&store);
}

/* ------------------------------------------------------------------ cli */

static char *
run_cli (const char * const *args,
         int                 expected_status)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) g_getenv ("HEADROOM_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (WEXITSTATUS (status) != expected_status)
    g_printerr ("%s\n%s\n", out, err);
  g_assert_cmpint (WEXITSTATUS (status), ==, expected_status);
  return out;
}

static void
assert_line (const char *out,
             const char *line)
{
  g_autofree char *with_nl = g_strconcat ("\n", line, "\n", NULL);

  if (strstr (out, with_nl) == NULL)
    g_error ("no line “%s” in:\n%s", line, out);
}

static JsonObject *
parse_json (JsonParser *parser,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* gguf FILE --mmproj FILE: the projector row, its term, the offload on
 * the default board (the Jetson Orin Nano Super, 8 GB unified) and the
 * JSON; the model alone has no projector. */
/* A text model and its projector, saved. */
typedef struct {
  char *model_path;
  char *projector_path;
} MmprojFiles;

static void
mmproj_files_set_up (MmprojFiles   *f,
                     gconstpointer  data)
{
  g_autoptr(GgufWriter) model = mmproj_write_inline ("llama");
  g_autoptr(GgufWriter) projector = mmproj_write_projector ();

  f->model_path = mmproj_save (model, "tiny.gguf");
  f->projector_path = mmproj_save (projector, "mmproj-tiny-f32.gguf");
}

static void
mmproj_files_tear_down (MmprojFiles   *f,
                        gconstpointer  data)
{
  g_free (f->model_path);
  g_free (f->projector_path);
}

static void
test_cli_gguf_mmproj (MmprojFiles   *f,
                      gconstpointer  data)
{
  g_autofree char *out = run_cli ((const char *[]) { "gguf", f->model_path, "--mmproj", f->projector_path, NULL }, 0);
  g_autofree char *row = g_strdup_printf ("projector           %s (clip): 3 tensors, 55,296 bytes (0.00 GB, 0.00 GiB): "
                                          "all of them, as Ollama counts a separate projector (mmprojMemoryRequirement)",
                                          f->projector_path);

  assert_line (out, row);
  assert_line (out, "  Vision projector   0.00 GB (0.00 GiB)");
  g_assert_nonnull (strstr (out, "\n  projector offload  on the GPU: the GPU's free "));
  g_assert_nonnull (strstr (out, "llama.cpp's fit keeps 1,025 MiB free, not 1,024 (LLAMA_ARG_FIT_TARGET = ceil((projector + 1 GiB) / MiB))\n"));
  g_assert_nonnull (strstr (out, "\n  ollama ps          "));
  g_assert_nonnull (strstr (out, "(the total less the projector's weights, which clip.cpp loads without a buffer line Ollama counts;"));
}

static void
test_cli_gguf_mmproj_left_out (MmprojFiles   *f,
                               gconstpointer  data)
{
  g_autofree char *plain = run_cli ((const char *[]) { "gguf", f->model_path, NULL }, 0);

  g_assert_null (strstr (plain, "projector"));
  g_assert_null (strstr (plain, "Vision projector"));
}

static void
test_cli_gguf_mmproj_json (MmprojFiles   *f,
                           gconstpointer  data)
{
  g_autofree char *json = run_cli ((const char *[]) { "gguf", f->model_path, "--mmproj", f->projector_path, "--json", NULL }, 0);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root = parse_json (parser, json);
  JsonObject *pj = json_object_get_object_member (root, "projector");
  JsonArray *terms = json_object_get_array_member (json_object_get_object_member (root, "prediction"), "terms");
  gboolean found = FALSE;

  g_assert_cmpint (json_object_get_int_member (pj, "bytes"), ==, (gint64) MMPROJ_FILE_TENSOR_BYTES);
  g_assert_cmpstr (json_object_get_string_member (pj, "file"), ==, f->projector_path);
  g_assert_true (json_object_get_boolean_member (pj, "offload"));
  g_assert_cmpint (json_object_get_int_member (pj, "fit_target_mib"), ==, 1025);
  g_assert_true (json_object_get_null_member (pj, "no_offload_reason"));
  for (guint i = 0; i < json_array_get_length (terms); i++)
    {
      JsonObject *t = json_array_get_object_element (terms, i);

      if (g_strcmp0 (json_object_get_string_member (t, "id"), "projector") == 0)
        {
          g_assert_cmpint (json_object_get_int_member (t, "bytes"), ==, (gint64) MMPROJ_FILE_TENSOR_BYTES);
          found = TRUE;
        }
    }
  g_assert_true (found);
}

/* --mmproj with --ollama-models is a usage error; a missing file is not read */
static void
test_cli_gguf_mmproj_refused (MmprojFiles   *f,
                              gconstpointer  data)
{
  g_autofree char *none = run_cli ((const char *[]) { "gguf", "--ollama-models", "/nonexistent", "x", "--mmproj", f->projector_path, NULL }, 2);
  g_autofree char *missing = run_cli ((const char *[]) { "gguf", f->model_path, "--mmproj", "/nonexistent/mmproj.gguf", NULL }, 1);

  g_assert_cmpstr (none, ==, "");
  g_assert_cmpstr (missing, ==, "");
}

/* A language model with no v., mm. or a. tensor. Returns: (transfer full): its path */
static char *
save_text_only_model (void)
{
  g_autoptr(GgufWriter) text = gw_new ();
  const guint64 embd[2] = { 64, 3 }, q[2] = { 64, 64 };
  const char *tokens[] = { "<bos>", "<eos>", "hi" };

  gw_header (text, 3, 2, 6);
  gw_kv_str (text, "general.architecture", "llama");
  gw_kv_u32 (text, "llama.block_count", 1);
  gw_kv_u32 (text, "llama.embedding_length", 64);
  gw_kv_u32 (text, "llama.attention.head_count", 4);
  gw_kv_str_array (text, "tokenizer.ggml.tokens", tokens, 3);
  gw_kv_str (text, "tokenizer.ggml.model", "llama");
  gw_tensor (text, "token_embd.weight", 2, embd, GW_F32, 0);
  gw_tensor (text, "blk.0.attn_q.weight", 2, q, GW_F32, 768);
  g_byte_array_set_size (text, (guint) (gw_align (text->len, 32) + 768 + 16384));
  return mmproj_save (text, "text-only.gguf");
}

/* The model and its projector swapped: the "projector" is a language
 * model, with no v., mm. or a. tensor, and is refused for it (exit 1). */
static void
test_cli_gguf_mmproj_swapped (MmprojFiles   *f,
                              gconstpointer  data)
{
  g_autofree char *text_path = save_text_only_model ();
  g_auto(GStrv) envp = NULL;
  const char *argv[] = { g_getenv ("HEADROOM_CLI"), "gguf", f->projector_path, "--mmproj", text_path, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *display = NULL;
  g_autofree char *expected = NULL;
  int status = 0;

  envp = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  display = g_filename_display_name (text_path);
  expected = g_strdup_printf ("headroom-cli: the projector %s is not a projector: it has no v., mm. or a. tensors "
                              "(general.architecture is llama, where llama.cpp's --mmproj reads clip files); "
                              "were the model and its projector swapped?\n", display);
  g_assert_cmpstr (err, ==, expected);
}

/* gguf on a gemma3 file with its projector inside: the row says so and
 * the term carries the v./mm. tensors. */
static void
test_cli_gguf_inline (void)
{
  g_autoptr(GgufWriter) model = mmproj_write_inline ("gemma3");
  g_autofree char *model_path = mmproj_save (model, "tiny-gemma3.gguf");
  g_autofree char *out = run_cli ((const char *[]) { "gguf", model_path, NULL }, 0);
  g_autofree char *json = run_cli ((const char *[]) { "gguf", model_path, "--json", NULL }, 0);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *pj = json_object_get_object_member (parse_json (parser, json), "projector");

  assert_line (out, "projector           inside the model's file: 2 v./mm./a. tensors, 22,528 bytes (0.00 GB, 0.00 GiB), "
                    "a term of their own and out of the weights (Ollama gives gemma3 its own file as --mmproj)");
  g_assert_cmpint (json_object_get_int_member (pj, "bytes"), ==, (gint64) MMPROJ_INLINE_BYTES);
  g_assert_true (json_object_get_null_member (pj, "file"));
}

/* gguf --ollama-models: the manifest's projector layer is read as --mmproj. */
static void
test_cli_gguf_store (void)
{
  Store store = { 0 };
  g_autofree char *out = NULL;
  g_autofree char *row = NULL;

  store_setup (&store);
  out = run_cli ((const char *[]) { "gguf", "--ollama-models", store.dir, "tiny-vision", NULL }, 0);
  row = g_strdup_printf ("projector           %s (clip): 3 tensors, 55,296 bytes (0.00 GB, 0.00 GiB): "
                         "all of them, as Ollama counts a separate projector (mmprojMemoryRequirement)",
                         store.projector_path);
  assert_line (out, row);
  assert_line (out, "  Vision projector   0.00 GB (0.00 GiB)");
  store_clear (&store);
}

/* predict on a discrete board: qwen2.5:14b at 16,384 tokens puts 44 of
 * 49 layers on the RTX 3060 12 GB; with an 851,251,104-byte projector
 * (a test figure) Ollama offloads it (11.9 GB free >= projector + 1 GiB)
 * and pads the fit margin to ceil((851,251,104 + 1 GiB) / MiB) = 1,836
 * MiB, and 40 fit. */
/* A catalog of qwen2.5:14b and "vision-14b", the same model with an
 * 851,251,104-byte projector, saved. Returns: (transfer full): its path */
static char *
save_vision_catalog (void)
{
  g_autofree char *data = g_build_filename (g_getenv ("HEADROOM_DATA_DIR"), "catalog.json", NULL);
  char *path = g_build_filename (g_get_user_cache_dir (), "vision-catalog.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) builtin = hr_catalog_load_file (data, &error);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  HrModelSpec *copy;

  g_assert_no_error (error);
  for (guint i = 0; i < builtin->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (builtin, i);

      if (g_strcmp0 (spec->name, "qwen2.5:14b") != 0)
        continue;
      g_ptr_array_add (rows, hr_model_spec_copy (spec));
      copy = hr_model_spec_copy (spec);
      g_free (copy->name);
      copy->name = g_strdup ("vision-14b");
      copy->projector_bytes = 851251104;
      g_ptr_array_add (rows, copy);
    }
  g_assert_cmpuint (rows->len, ==, 2);
  g_mkdir_with_parents (g_get_user_cache_dir (), 0700);
  g_assert_true (hr_catalog_save_file (rows, path, &error));
  g_assert_no_error (error);
  /* the saved catalog keeps no projector_bytes yet (the writer is the
   * catalog branch's): give it to the copy by hand */
  {
    g_autofree char *text = NULL;
    g_autofree char *patched = NULL;
    char *at;

    g_assert_true (g_file_get_contents (path, &text, NULL, &error));
    at = strstr (text, "\"name\" : \"vision-14b\",");
    g_assert_nonnull (at);
    at += strlen ("\"name\" : \"vision-14b\",");
    if (strstr (text, "\"projector_bytes\"") == NULL)
      {
        patched = g_strdup_printf ("%.*s \"projector_bytes\" : 851251104,%s", (int) (at - text), text, at);
        g_assert_true (g_file_set_contents (path, patched, -1, &error));
      }
  }

  return path;
}

static void
test_cli_split (void)
{
  g_autofree char *path = save_vision_catalog ();
  g_autofree char *plain = run_cli ((const char *[]) { "predict", "qwen2.5:14b", "--catalog", path, "--board", "rtx-3060-12gb",
                                                       "--context", "16384", NULL }, 0);

  assert_line (plain, "  free VRAM 11,884,901,888 bytes less the 1024 MiB fit margin: 10,811,160,064 bytes for the model");
  assert_line (plain, "  layers: 44/49 on the GPU (the output layer and the last blocks), 5 on the CPU");
}

static void
test_cli_split_projector (void)
{
  g_autofree char *path = save_vision_catalog ();
  g_autofree char *vision = run_cli ((const char *[]) { "predict", "vision-14b", "--catalog", path, "--board", "rtx-3060-12gb",
                                                        "--context", "16384", NULL }, 0);

  assert_line (vision, "  free VRAM 11,884,901,888 bytes less the 1,836 MiB fit margin (projector + 1 GiB, LLAMA_ARG_FIT_TARGET): "
                       "9,959,716,352 bytes for the model");
  assert_line (vision, "  projector: 851,251,104 bytes on the GPU after the fit, in neither side below (ollama ps leaves its weights out)");
  assert_line (vision, "  layers: 40/49 on the GPU (the output layer and the last blocks), 9 on the CPU");
  /* 11,884,901,888 - 1,836 x 1,048,576 = 9,959,716,352 */
  g_assert_cmpuint (G_GUINT64_CONSTANT (11884901888) - 1836 * MIB, ==, G_GUINT64_CONSTANT (9959716352));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/mmproj/names", test_names);
  g_test_add_func ("/mmproj/file-bytes", test_file_bytes);
  g_test_add_func ("/mmproj/inline", test_inline);
  g_test_add_func ("/mmproj/safetensors", test_safetensors);
  g_test_add_func ("/mmproj/decision", test_decision);
  g_test_add_func ("/mmproj/catalog", test_catalog);
  g_test_add_func ("/mmproj/store", test_store);
  g_test_add ("/mmproj/cli-gguf-mmproj/report", MmprojFiles, NULL, mmproj_files_set_up, test_cli_gguf_mmproj, mmproj_files_tear_down);
  g_test_add ("/mmproj/cli-gguf-mmproj/left-out", MmprojFiles, NULL, mmproj_files_set_up, test_cli_gguf_mmproj_left_out, mmproj_files_tear_down);
  g_test_add ("/mmproj/cli-gguf-mmproj/json", MmprojFiles, NULL, mmproj_files_set_up, test_cli_gguf_mmproj_json, mmproj_files_tear_down);
  g_test_add ("/mmproj/cli-gguf-mmproj/refused", MmprojFiles, NULL, mmproj_files_set_up, test_cli_gguf_mmproj_refused, mmproj_files_tear_down);
  g_test_add ("/mmproj/cli-gguf-mmproj/swapped", MmprojFiles, NULL, mmproj_files_set_up, test_cli_gguf_mmproj_swapped, mmproj_files_tear_down);
  g_test_add_func ("/mmproj/cli-gguf-inline", test_cli_gguf_inline);
  g_test_add_func ("/mmproj/cli-gguf-store", test_cli_gguf_store);
  g_test_add_func ("/mmproj/cli-split/plain", test_cli_split);
  g_test_add_func ("/mmproj/cli-split/projector", test_cli_split_projector);
  return g_test_run ();
}
