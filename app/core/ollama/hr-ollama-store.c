/* hr-ollama-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The manifest-to-blob chain of Ollama's models directory. The manifest
 * format is the OCI-style one Ollama writes (From API to GPU,
 * week 2: `{"schemaVersion": 2, "layers": [{"mediaType", "digest",
 * "size"}, ...]}`).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-json-private.h"
#include "hr-ollama-host.h"
#include "hr-ollama-manifest.h"
#include "hr-ollama-store.h"
#include "hr-units.h"

#define VERIFY_CHUNK (1024 * 1024)

/**
 * hr_ollama_blob_free:
 * @blob: (nullable): a located blob
 *
 * Frees @blob.
 */
void
hr_ollama_blob_free (HrOllamaBlob *blob)
{
  if (blob == NULL)
    return;
  g_free (blob->name);
  g_free (blob->manifest_path);
  g_free (blob->manifest_file);
  g_free (blob->media_type);
  g_free (blob->digest);
  g_free (blob->blob_path);
  g_free (blob->blob_file);
  g_free (blob->projector_digest);
  g_free (blob->projector_path);
  g_free (blob->projector_file);
  g_free (blob);
}

/* A name part becomes a directory name: refuse anything that could leave
 * the manifests folder or that Ollama itself would not write. */
static gboolean
part_is_safe (const char *part,
              gboolean    is_host)
{
  if (part == NULL || *part == '\0' || *part == '.' || *part == '-' || strlen (part) > 350)
    return FALSE;
  for (const char *p = part; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '-' && *p != '_' && !(is_host && *p == ':'))
      return FALSE;
  return TRUE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* "1b, 3b" — the entries of @dir in name order, or NULL when none. */
static char *
join_children (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  if (names->len == 0)
    return NULL;
  g_ptr_array_sort (names, compare_strings);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (", ", (char **) names->pdata);
}

/* The projector layer's digest and size (Ollama server/images.go: a
 * manifest layer of application/vnd.ollama.image.projector is passed to
 * the runner as the projector, llm/llama_server.go --mmproj). */
static gboolean
read_projector_layer (HrOllamaBlob  *blob,
                      JsonObject    *layer,
                      guint          line,
                      GError       **error)
{
  g_autofree char *problem = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *bare = NULL;

  if (!_hr_json_get_string (layer, "digest", TRUE, &digest, &problem) ||
      !_hr_json_get_u64 (layer, "size", TRUE, G_MAXINT64, &blob->projector_size, &problem))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s, line %u: the projector layer's %s"), blob->manifest_file, line, problem);
      return FALSE;
    }
  bare = hr_ollama_digest_bare (digest);
  if (bare == NULL || !g_str_has_prefix (digest, "sha256:"))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s, line %u: the projector layer's digest \"%s\" is not sha256:<64 hex digits>"),
                   blob->manifest_file, line, digest);
      return FALSE;
    }
  blob->projector_digest = g_strconcat ("sha256:", bare, NULL);
  return TRUE;
}

static gboolean
parse_manifest (HrOllamaBlob  *blob,
                const char    *data,
                gsize          length,
                GError       **error)
{
  g_autoptr(HrJsonDoc) doc = NULL;
  JsonNode *root;
  JsonNode *layers_node;
  JsonArray *layers;
  guint n;

  doc = _hr_json_doc_parse (data, (gssize) length, blob->manifest_file, error);
  if (doc == NULL)
    return FALSE;

  root = _hr_json_doc_root (doc);
  if (!JSON_NODE_HOLDS_OBJECT (root) ||
      (layers_node = json_object_get_member (json_node_get_object (root), "layers")) == NULL ||
      !JSON_NODE_HOLDS_ARRAY (layers_node))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s: not an Ollama manifest: it has no \"layers\" list"), blob->manifest_file);
      return FALSE;
    }

  layers = json_node_get_array (layers_node);
  n = json_array_get_length (layers);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (layers, i);
      JsonObject *layer;
      g_autofree char *media_type = NULL;
      g_autofree char *problem = NULL;
      g_autofree char *bare = NULL;
      guint line = _hr_json_doc_element_line (doc, layers, i);

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      layer = json_node_get_object (node);
      if (!_hr_json_get_string (layer, "mediaType", FALSE, &media_type, &problem))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("%s, line %u: %s"), blob->manifest_file, line, problem);
          return FALSE;
        }
      if (media_type != NULL && strcmp (media_type, HR_OLLAMA_MEDIA_PROJECTOR) == 0 &&
          blob->projector_digest == NULL)
        {
          if (!read_projector_layer (blob, layer, line, error))
            return FALSE;
          continue;
        }
      if (media_type == NULL || !g_str_has_suffix (media_type, "image.model") || blob->digest != NULL)
        continue;

      if (!_hr_json_get_string (layer, "digest", TRUE, &blob->digest, &problem) ||
          !_hr_json_get_u64 (layer, "size", TRUE, G_MAXINT64, &blob->size, &problem))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("%s, line %u: the model layer's %s"), blob->manifest_file, line, problem);
          return FALSE;
        }
      bare = hr_ollama_digest_bare (blob->digest);
      if (bare == NULL || !g_str_has_prefix (blob->digest, "sha256:"))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("%s, line %u: the model layer's digest \"%s\" is not sha256:<64 hex digits>"),
                       blob->manifest_file, line, blob->digest);
          return FALSE;
        }
      g_free (blob->digest);
      blob->digest = g_strconcat ("sha256:", bare, NULL);
      blob->media_type = g_steal_pointer (&media_type);
    }
  if (blob->digest != NULL)
    return TRUE;

  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
               _("%s: the manifest has no layer whose mediaType ends in \"image.model\"; "
                 "it is not a model package"),
               blob->manifest_file);
  return FALSE;
}

/* The projector layer's blob: present, and as large as the manifest says. */
static gboolean
find_projector_blob (HrOllamaBlob  *blob,
                     const char    *models_dir,
                     const char    *display_dir,
                     GError       **error)
{
  g_autofree char *name = g_strdup (blob->projector_digest);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local_error = NULL;

  *strchr (name, ':') = '-';
  blob->projector_file = g_build_filename ("blobs", name, NULL);
  blob->projector_path = g_build_filename (models_dir, "blobs", name, NULL);
  file = g_file_new_for_path (blob->projector_path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, &local_error);
  if (info == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                     _("the projector blob %s named by %s is missing from %s; pull the model again (ollama pull %s)"),
                     blob->projector_file, blob->manifest_file, display_dir, blob->name);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if ((guint64) g_file_info_get_size (info) != blob->projector_size)
    {
      g_autofree char *have = hr_format_count ((guint64) g_file_info_get_size (info));
      g_autofree char *want = hr_format_count (blob->projector_size);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("the projector blob %s is %s bytes but the manifest says %s; "
                     "it is incomplete or was changed: pull the model again (ollama pull %s)"),
                   blob->projector_file, have, want, blob->name);
      return FALSE;
    }
  return TRUE;
}

/* Sets @blob's manifest paths for @name and checks that the models
 * directory, the model's folder and the tag's manifest are there. */
static gboolean
locate_manifest (HrOllamaBlob              *blob,
                 const char                *models_dir,
                 const char                *display_dir,
                 const HrOllamaModelName   *name,
                 const char                *host,
                 const char                *namespace_,
                 GError                   **error)
{
  g_autofree char *manifests = g_build_filename (models_dir, "manifests", NULL);
  g_autofree char *model_dir = g_build_filename (manifests, host, namespace_, name->model, NULL);

  blob->manifest_file = g_build_filename ("manifests", host, namespace_, name->model, name->tag, NULL);
  blob->manifest_path = g_build_filename (models_dir, blob->manifest_file, NULL);

  if (!g_file_test (manifests, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   _("%s is not an Ollama models directory: it has no manifests folder "
                     "(Ollama keeps its models in ~/.ollama/models, /usr/share/ollama/.ollama/models or $OLLAMA_MODELS)"),
                   display_dir);
      return FALSE;
    }
  if (!g_file_test (model_dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   _("there is no model \"%s\" in %s (looked for %s/%s/%s)"),
                   name->model, display_dir, host, namespace_, name->model);
      return FALSE;
    }
  if (!g_file_test (blob->manifest_path, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *tags = join_children (model_dir);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   _("model \"%s\" has no tag \"%s\" in %s; its tags there: %s"),
                   name->model, name->tag, display_dir, tags != NULL ? tags : _("none"));
      return FALSE;
    }
  return TRUE;
}

/* Parses @model and finds its manifest under @models_dir: names @blob and
 * sets its manifest paths. Refuses a name part that could leave the
 * directory. */
static gboolean
find_manifest (HrOllamaBlob  *blob,
               const char    *models_dir,
               const char    *display_dir,
               const char    *model,
               GError       **error)
{
  HrOllamaModelName name;
  const char *host, *namespace_;
  gboolean found;

  if (!hr_ollama_model_name_parse (model, &name, error))
    return FALSE;
  host = name.host != NULL ? name.host : HR_OLLAMA_DEFAULT_REGISTRY;
  namespace_ = name.namespace_ != NULL ? name.namespace_ : HR_OLLAMA_DEFAULT_NAMESPACE;
  if (!part_is_safe (host, TRUE) || !part_is_safe (namespace_, FALSE) ||
      !part_is_safe (name.model, FALSE) || !part_is_safe (name.tag, FALSE))
    {
      hr_ollama_model_name_clear (&name);
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("\"%s\" is not a model name Ollama stores: each part may hold only letters, digits, '.', '-' and '_', "
                     "and may not start with '.' or '-'"),
                   model);
      return FALSE;
    }
  blob->name = hr_ollama_model_name_to_string (&name);
  found = locate_manifest (blob, models_dir, display_dir, &name, host, namespace_, error);
  hr_ollama_model_name_clear (&name);
  return found;
}

/* Refuses @blob's manifest as too large to be one; returns FALSE. */
static gboolean
manifest_too_large (HrOllamaBlob  *blob,
                    GError       **error)
{
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
               _("%s is larger than %d bytes; an Ollama manifest is a few hundred bytes"),
               blob->manifest_file, HR_OLLAMA_MAX_MANIFEST_BYTES);
  return FALSE;
}

/* Reads and parses @blob's manifest, refusing one over
 * %HR_OLLAMA_MAX_MANIFEST_BYTES before and after reading it. */
static gboolean
read_manifest (HrOllamaBlob  *blob,
               GError       **error)
{
  g_autoptr(GFile) manifest = g_file_new_for_path (blob->manifest_path);
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  info = g_file_query_info (manifest, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, error);
  if (info == NULL)
    return FALSE;
  if (g_file_info_get_size (info) > HR_OLLAMA_MAX_MANIFEST_BYTES)
    return manifest_too_large (blob, error);
  if (!g_file_get_contents (blob->manifest_path, &contents, &length, error))
    return FALSE;
  if (length > HR_OLLAMA_MAX_MANIFEST_BYTES)
    return manifest_too_large (blob, error);
  return parse_manifest (blob, contents, length, error);
}

/* Sets @blob's blob paths from its digest and checks that the blob is
 * there with the manifest's size. */
static gboolean
check_model_blob (HrOllamaBlob  *blob,
                  const char    *models_dir,
                  const char    *display_dir,
                  GError       **error)
{
  g_autofree char *blob_name = g_strdup (blob->digest);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local_error = NULL;

  /* sha256:abc... -> blobs/sha256-abc... (only the colon changes) */
  *strchr (blob_name, ':') = '-';
  blob->blob_file = g_build_filename ("blobs", blob_name, NULL);
  blob->blob_path = g_build_filename (models_dir, "blobs", blob_name, NULL);

  file = g_file_new_for_path (blob->blob_path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                            G_FILE_QUERY_INFO_NONE, NULL, &local_error);
  if (info == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                     _("the model blob %s named by %s is missing from %s; pull the model again (ollama pull %s)"),
                     blob->blob_file, blob->manifest_file, display_dir, blob->name);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  blob->blob_bytes = (guint64) g_file_info_get_size (info);
  if (blob->blob_bytes != blob->size)
    {
      g_autofree char *have = hr_format_count (blob->blob_bytes);
      g_autofree char *want = hr_format_count (blob->size);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("the model blob %s is %s bytes but the manifest says %s; "
                     "it is incomplete or was changed: pull the model again (ollama pull %s)"),
                   blob->blob_file, have, want, blob->name);
      return FALSE;
    }
  return TRUE;
}

/**
 * hr_ollama_store_find_model:
 * @models_dir: Ollama's models directory (`~/.ollama/models`,
 *   `/usr/share/ollama/.ollama/models`, or `$OLLAMA_MODELS`)
 * @model: a model name, `[host/][namespace/]model[:tag]` ("llama3.2:3b")
 * @error: return location for a #GError
 *
 * Follows @model's manifest to its model blob: reads
 * `manifests/<host>/<namespace>/<model>/<tag>` (defaults registry.ollama.ai,
 * library, latest), takes the layer whose mediaType ends in "image.model",
 * and finds `blobs/<digest with ':' turned into '-'>`. The blob's size on
 * disk must equal the layer's size in the manifest. A layer of
 * application/vnd.ollama.image.projector (a vision model's projector,
 * which Ollama passes to llama-server as --mmproj) is found the same way,
 * in the blob's projector_* fields. Nothing is hashed; see
 * hr_ollama_blob_verify().
 *
 * Returns: (transfer full) (nullable): the blob, or %NULL with @error set:
 *   %HR_CORE_ERROR_INVALID_ARGUMENT for a name that is not a model name (or
 *   has a part that could leave the directory); %HR_CORE_ERROR_NOT_FOUND
 *   when @models_dir has no manifests folder, no such model, no such tag,
 *   or the blob is missing; %HR_CORE_ERROR_PARSE for a manifest that is not
 *   JSON; %HR_CORE_ERROR_INVALID_DATA for a manifest without a model layer
 *   or with a bad digest or size, and for a blob whose size differs from
 *   the manifest's; %HR_CORE_ERROR_LIMIT for a manifest over
 *   %HR_OLLAMA_MAX_MANIFEST_BYTES; a #GIOError when a file cannot be read.
 */
HrOllamaBlob *
hr_ollama_store_find_model (const char  *models_dir,
                            const char  *model,
                            GError     **error)
{
  g_autoptr(HrOllamaBlob) blob = g_new0 (HrOllamaBlob, 1);
  g_autofree char *display_dir = g_filename_display_name (models_dir);

  if (!find_manifest (blob, models_dir, display_dir, model, error) ||
      !read_manifest (blob, error) ||
      !check_model_blob (blob, models_dir, display_dir, error))
    return NULL;
  if (blob->projector_digest != NULL && !find_projector_blob (blob, models_dir, display_dir, error))
    return NULL;

  return g_steal_pointer (&blob);
}

/**
 * hr_ollama_blob_verify:
 * @blob: a blob from hr_ollama_store_find_model()
 * @progress: (scope call) (nullable): called after each 1 MiB chunk
 * @user_data: data for @progress
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Hashes the whole blob with SHA-256 (GChecksum, 1 MiB reads) and compares
 * the digest with the manifest's, as the seed's author checked the phi4
 * blob. A 2 GB blob takes a few seconds.
 *
 * Returns: %TRUE when the digest matches; %FALSE with @error set:
 *   %HR_CORE_ERROR_INVALID_DATA when the digest or the length read differs
 *   from the manifest's, a #GIOError when the blob cannot be read,
 *   %G_IO_ERROR_CANCELLED when cancelled.
 */
gboolean
hr_ollama_blob_verify (const HrOllamaBlob     *blob,
                       HrOllamaVerifyProgress  progress,
                       gpointer                user_data,
                       GCancellable           *cancellable,
                       GError                **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (blob->blob_path);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *chunk = NULL;
  guint64 done = 0;
  const char *actual;

  stream = g_file_read (file, cancellable, error);
  if (stream == NULL)
    return FALSE;

  chunk = g_malloc (VERIFY_CHUNK);
  for (;;)
    {
      gssize got = g_input_stream_read (G_INPUT_STREAM (stream), chunk, VERIFY_CHUNK,
                                        cancellable, error);

      if (got < 0)
        return FALSE;
      if (got == 0)
        break;
      g_checksum_update (checksum, chunk, got);
      done += (guint64) got;
      if (progress != NULL)
        progress (done, blob->size, user_data);
    }

  if (done != blob->size)
    {
      g_autofree char *have = hr_format_count (done);
      g_autofree char *want = hr_format_count (blob->size);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("the model blob %s gave %s bytes while hashing but the manifest says %s; "
                     "it changed while being read"),
                   blob->blob_file, have, want);
      return FALSE;
    }

  actual = g_checksum_get_string (checksum);
  if (strcmp (actual, blob->digest + strlen ("sha256:")) != 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("the model blob %s has sha256 %s but the manifest says %s; "
                     "the file is corrupt: pull the model again (ollama pull %s)"),
                   blob->blob_file, actual, blob->digest + strlen ("sha256:"), blob->name);
      return FALSE;
    }
  return TRUE;
}
