/* hr-cli-library.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli library MODEL[:TAG]`: a model in the Ollama library, sized
 * from its manifest, config blob and GGUF header (HrOllamaRegistry) before
 * it is pulled, with predict's runtime prediction and verdict
 * (hr_cli_predict_run()).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "hr-cli.h"
#include "hr-error.h"
#include "hr-gguf.h"
#include "hr-ollama-registry.h"
#include "hr-units.h"

typedef struct {
  GMainLoop            *loop;
  HrOllamaLibraryModel *model;
  GError               *error;
  const char           *name;
  gboolean              progress_shown;
} Library;

/* On a terminal's stderr, one line rewritten in place: the request under
 * way and the bytes read so far; wiped when the lookup is over, so what
 * stays is stdout's "read: N bytes" (and nothing goes into a pipe). */
static void
on_progress (HrOllamaRegistryStep step,
             guint                range,
             guint64              bytes_read,
             gpointer             user_data)
{
  Library *lib = user_data;
  g_autofree char *read = g_format_size (bytes_read);

  /* Carriage return and "erase to end of line": the line is rewritten. */
  fputs ("\r\033[K", stderr);
  switch (step)
    {
    case HR_OLLAMA_REGISTRY_STEP_MANIFEST:
      fprintf (stderr, _("Reading the manifest of %s… %s"), lib->name, read);
      break;
    case HR_OLLAMA_REGISTRY_STEP_CONFIG:
      fprintf (stderr, _("Reading the config blob of %s… %s"), lib->name, read);
      break;
    case HR_OLLAMA_REGISTRY_STEP_HEADER:
      if (range <= 1)
        fprintf (stderr, _("Reading the GGUF header of %s… %s"), lib->name, read);
      else
        fprintf (stderr, _("Reading the GGUF header of %s, part %u… %s"), lib->name, range, read);
      break;
    case HR_OLLAMA_REGISTRY_STEP_PROJECTOR:
      fprintf (stderr, _("Reading the vision projector's GGUF header of %s… %s"), lib->name, read);
      break;
    case HR_OLLAMA_REGISTRY_STEP_DONE:
    default:
      break;
    }
  lib->progress_shown = step != HR_OLLAMA_REGISTRY_STEP_DONE;
  fflush (stderr);
}

static void
on_lookup (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Library *lib = user_data;

  lib->model = hr_ollama_registry_lookup_finish (HR_OLLAMA_REGISTRY (source), result, &lib->error);
  g_main_loop_quit (lib->loop);
}

/* Looks @name up in the library into @lib (lib->model or lib->error). */
static void
look_up (Library    *lib,
         const char *name)
{
  g_autoptr(HrOllamaRegistry) registry = hr_ollama_registry_new (NULL, NULL);

  lib->loop = g_main_loop_new (NULL, FALSE);
  lib->name = name;
  hr_ollama_registry_lookup_full_async (registry, name, isatty (STDERR_FILENO) ? on_progress : NULL, lib, NULL,
                                        NULL, on_lookup, lib);
  g_main_loop_run (lib->loop);
  g_clear_pointer (&lib->loop, g_main_loop_unref);
  /* A failed lookup: its message starts on a clean line. */
  if (lib->progress_shown)
    fputs ("\r\033[K", stderr);
  lib->progress_shown = FALSE;
}

/* The spec of a looked-up model, with the provenance the catalog records:
 * ollama:MODEL:TAG@DIGEST. */
static HrModelSpec *
library_spec (const HrOllamaLibraryModel  *model,
              GError                     **error)
{
  g_autofree char *origin = g_strdup_printf ("ollama:%s@%s", model->name, model->manifest_digest);
  HrModelSpec *spec = hr_gguf_file_to_model_spec (model->gguf, model->name, origin, error);

  /* The projector layer's tensors; without one, any v./mm./a. tensors
   * inside the model's blob stay the projector (hr_mmproj_take_inline()). */
  if (spec != NULL && model->projector_bytes > 0)
    {
      spec->projector_bytes = model->projector_bytes;
      g_free (spec->projector_source);
      spec->projector_source = g_strdup ("the manifest's projector layer: all its tensors "
                                         "(Ollama llm/llama_server.go mmprojMemoryRequirement)");
    }
  return spec;
}

static HrModelSpec *
resolve (const char *name,
         gpointer    data,
         int        *out_status)
{
  Library *lib = data;
  HrModelSpec *spec;

  look_up (lib, name);
  if (lib->model == NULL && g_error_matches (lib->error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT))
    {
      *out_status = hr_cli_usage_error ("%s", lib->error->message);
      return NULL;
    }
  if (lib->model == NULL)
    {
      *out_status = hr_cli_fail (g_steal_pointer (&lib->error));
      return NULL;
    }
  spec = library_spec (lib->model, &lib->error);
  if (spec == NULL)
    *out_status = hr_cli_fail (g_steal_pointer (&lib->error));
  return spec;
}

/**
 * hr_cli_library_spec:
 * @name: a model as Ollama names it ("qwen2.5-coder:14b", "user/model:tag")
 * @error: return location for a #GError
 *
 * Looks @name up in the Ollama library (HrOllamaRegistry: its manifest,
 * config blob and GGUF header, at $HEADROOM_OLLAMA_REGISTRY or
 * registry.ollama.ai; no credential is sent) and sizes it from the header,
 * as `headroom-cli library` does; for the pull check of a model the catalog
 * lacks.
 *
 * Returns: (transfer full): the model with exact bytes, its origin
 *   "ollama:MODEL:TAG@sha256:..."; or %NULL with the registry's error
 *   (%HR_CORE_ERROR_NOT_FOUND: "qwen9:70b is not in the Ollama library").
 */
HrModelSpec *
hr_cli_library_spec (const char  *name,
                     GError     **error)
{
  Library lib = { NULL };
  HrModelSpec *spec;

  look_up (&lib, name);
  if (lib.model == NULL)
    {
      g_propagate_error (error, lib.error);
      return NULL;
    }
  spec = library_spec (lib.model, error);
  hr_ollama_library_model_free (lib.model);
  return spec;
}

/* Bits per weight of the file: its tensor bytes x 8 / its parameters. */
static double
bits_per_weight (const HrOllamaLibraryModel *m)
{
  guint64 params = hr_gguf_file_get_parameters (m->gguf);

  return params > 0 ? (double) hr_gguf_file_get_tensor_bytes (m->gguf) * 8.0 / (double) params : 0.0;
}

static void
fact (const char *label,
      guint64     value)
{
  g_autofree char *text = value > 0 ? hr_format_count (value) : g_strdup (_("none"));

  printf ("  %-18s %s\n", label, text);
}

static void
print_text (gpointer data)
{
  Library *lib = data;
  const HrOllamaLibraryModel *m = lib->model;
  g_autoptr(HrModelSpec) spec = hr_gguf_file_to_model_spec (m->gguf, m->name, NULL, NULL);
  g_autofree char *read = hr_format_count (m->bytes_read);
  g_autofree char *header = hr_format_count (m->header_bytes);
  g_autofree char *bpw = hr_format_decimal (bits_per_weight (m), 3);

  printf (_("%s in the Ollama library (manifest %s)\n"), m->name, m->manifest_digest);
  printf ("%s\n", _("layers:"));
  for (guint i = 0; i < m->manifest->layers->len; i++)
    {
      const HrOllamaLayer *l = g_ptr_array_index (m->manifest->layers, i);
      g_autofree char *bytes = hr_format_count (l->size);

      printf ("  %-40s %s %s %s\n", l->media_type, l->digest, bytes, _("bytes"));
    }
  if (m->manifest->projector != NULL)
    {
      g_autofree char *bytes = hr_format_count (m->manifest->projector->size);
      g_autofree char *tensors = hr_format_count (m->projector_bytes);

      printf (_("vision projector: %s bytes to download, %s bytes of tensors loaded beside the weights (the prediction's projector term)\n"),
              bytes, tensors);
    }
  printf ("%s\n", _("header:"));
  printf ("  %-18s %s\n", _("architecture"), spec->architecture != NULL ? spec->architecture : _("unknown"));
  fact (_("parameters"), spec->parameters);
  printf ("  %-18s %s\n", _("file type"),
          m->config->file_type != NULL ? m->config->file_type : (spec->precision != NULL ? spec->precision : _("unknown")));
  fact (_("layers"), spec->layers);
  fact (_("heads"), spec->heads);
  fact (_("KV heads"), spec->kv_heads);
  fact (_("key length"), spec->key_length);
  fact (_("value length"), spec->value_length);
  fact (_("context length"), spec->context_length);
  fact (_("sliding window"), spec->sliding_window);
  fact (_("experts"), spec->expert_count);
  printf (_("bits per weight: %s (tensor bytes x 8 / parameters)\n"), bpw);
  printf (m->cached ? _("read: %s bytes in %u request (the manifest; the header of %s bytes from the cache)\n\n")
                    : _("read: %s bytes in %u requests (the GGUF header is %s bytes)\n\n"),
          read, m->requests, header);
}

static void
set_u64 (JsonObject *o,
         const char *member,
         guint64     value)
{
  json_object_set_int_member (o, member, (gint64) MIN (value, (guint64) G_MAXINT64));
}

static JsonNode *
model_json (const HrOllamaLibraryModel *m)
{
  g_autoptr(HrModelSpec) spec = hr_gguf_file_to_model_spec (m->gguf, m->name, NULL, NULL);
  JsonObject *o = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (o, "name", m->name);
  json_object_set_string_member (o, "architecture", spec->architecture);
  json_object_set_string_member (o, "format", m->config->format);
  json_object_set_string_member (o, "family", m->config->family);
  json_object_set_string_member (o, "parameter_size", m->config->parameter_size);
  json_object_set_string_member (o, "file_type", m->config->file_type);
  set_u64 (o, "parameters", spec->parameters);
  set_u64 (o, "file_bytes", m->manifest->model->size);
  set_u64 (o, "projector_bytes", m->manifest->projector != NULL ? m->manifest->projector->size : 0);
  set_u64 (o, "projector_tensor_bytes", m->projector_bytes);
  set_u64 (o, "layers", spec->layers);
  set_u64 (o, "heads", spec->heads);
  set_u64 (o, "kv_heads", spec->kv_heads);
  set_u64 (o, "key_length", spec->key_length);
  set_u64 (o, "value_length", spec->value_length);
  set_u64 (o, "context_length", spec->context_length);
  set_u64 (o, "sliding_window", spec->sliding_window);
  set_u64 (o, "expert_count", spec->expert_count);
  set_u64 (o, "expert_used_count", spec->expert_used_count);
  json_object_set_double_member (o, "bits_per_weight", bits_per_weight (m));
  set_u64 (o, "header_bytes", m->header_bytes);
  json_node_take_object (node, o);
  return node;
}

static JsonNode *
wrap_json (JsonNode *predict,
           gpointer  data)
{
  Library *lib = data;
  const HrOllamaLibraryModel *m = lib->model;
  JsonObject *o = json_object_new ();
  JsonArray *layers = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (o, "name", m->name);
  json_object_set_string_member (o, "manifest_url", m->manifest_url);
  json_object_set_string_member (o, "manifest_digest", m->manifest_digest);
  for (guint i = 0; i < m->manifest->layers->len; i++)
    {
      const HrOllamaLayer *l = g_ptr_array_index (m->manifest->layers, i);
      JsonObject *lo = json_object_new ();

      json_object_set_string_member (lo, "media_type", l->media_type);
      json_object_set_string_member (lo, "digest", l->digest);
      set_u64 (lo, "bytes", l->size);
      json_array_add_object_element (layers, lo);
    }
  json_object_set_array_member (o, "layers", layers);
  json_object_set_member (o, "model", model_json (m));
  json_object_set_member (o, "predict", predict);
  set_u64 (o, "bytes_read", m->bytes_read);
  json_object_set_int_member (o, "requests", m->requests);
  json_object_set_boolean_member (o, "cached", m->cached);
  json_node_take_object (node, o);
  return node;
}

/**
 * hr_cli_cmd_library:
 * @argc: arguments, the subcommand first
 * @argv: (array length=argc): the arguments
 *
 * `headroom-cli library MODEL[:TAG] [predict's options] [--json]`: the
 * manifest's layers (media type, digest, exact bytes), the GGUF header's
 * facts, the file's bits per weight, the bytes read, and predict's
 * prediction and verdict on the board. The registry is
 * `HEADROOM_OLLAMA_REGISTRY`, else https://registry.ollama.ai.
 *
 * Returns: 0; 1 when the lookup fails (an unknown model: "NAME is not in
 *   the Ollama library"); 2 for bad arguments or a name that is not one.
 */
int
hr_cli_cmd_library (int    argc,
                    char **argv)
{
  Library lib = { 0 };
  HrCliPredictSource source = {
    .usage = _("give the model to look up, e.g. \"headroom-cli library qwen2.5-coder:14b\""),
    .resolve = resolve,
    .print_text = print_text,
    .wrap_json = wrap_json,
    .data = &lib,
  };
  int status = hr_cli_predict_run ("library", argc, argv, &source);

  g_clear_pointer (&lib.model, hr_ollama_library_model_free);
  g_clear_error (&lib.error);
  return status;
}
