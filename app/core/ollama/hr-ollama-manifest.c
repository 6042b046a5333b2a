/* hr-ollama-manifest.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-json.h"
#include "hr-ollama-manifest.h"

/* name.go's isValidByteFor: letters, digits, '_', '-' and '.', but no '.'
 * in a namespace. */
static gboolean
part_is_valid (const char *part,
               gboolean    is_namespace)
{
  gsize n = strlen (part);

  if (n == 0 || n > HR_OLLAMA_NAME_MAX || strstr (part, "..") != NULL)
    return FALSE;
  for (const char *c = part; *c != '\0'; c++)
    {
      if (*c == '.' && is_namespace)
        return FALSE;
      if (!g_ascii_isalnum (*c) && *c != '_' && *c != '-' && *c != '.')
        return FALSE;
    }
  return TRUE;
}

/**
 * hr_ollama_name_parse:
 * @text: a name as people type it: `model`, `model:tag`, `user/model:tag`,
 *   `host/namespace/model:tag`, optionally after `http://` or `https://`
 * @out: (out caller-allocates): the name, defaults filled in; clear it with
 *   hr_ollama_name_clear()
 * @error: return location for a #GError
 *
 * Reads @text by the rules of Ollama's own parser (ollama/ollama
 * types/model/name.go, ParseName and parts()): the scheme is dropped; the
 * whole name and each part hold 1 to 128 bytes of letters, digits, `_`,
 * `-` and `.` (no `.` in a namespace, never two in a row); the tag is what
 * follows a `:` after the last `/` (a `:` before it, so a host with a port,
 * is not a valid name there either); a missing host, namespace or tag is
 * filled from FillDefault, "registry.ollama.ai/library/?:latest". The
 * `+build` and `@digest` parts name.go also knows are refused: the
 * registry's manifests are looked up by tag.
 *
 * Returns: %TRUE, or %FALSE with @error set (%HR_CORE_ERROR_INVALID_ARGUMENT).
 */
gboolean
hr_ollama_name_parse (const char    *text,
                      HrOllamaName  *out,
                      GError       **error)
{
  const char *s = text;
  g_auto(GStrv) parts = NULL;
  guint n;
  char *colon;
  const char *model;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);

  if (g_str_has_prefix (s, "http://"))
    s += strlen ("http://");
  else if (g_str_has_prefix (s, "https://"))
    s += strlen ("https://");
  if (strchr (s, '+') != NULL || strchr (s, '@') != NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("“%s” names a build or a digest; give the model as [host/][namespace/]model[:tag]"), text);
      return FALSE;
    }
  parts = g_strsplit (s, "/", -1);
  n = g_strv_length (parts);
  if (*s == '\0' || strlen (s) > HR_OLLAMA_NAME_MAX || n > 3)
    goto invalid;

  model = parts[n - 1];
  colon = strchr (model, ':');
  for (guint i = 0; i + 1 < n; i++)
    if (strchr (parts[i], ':') != NULL)
      goto invalid;
  if (colon != NULL)
    {
      if (strchr (colon + 1, ':') != NULL || !part_is_valid (colon + 1, FALSE))
        goto invalid;
      out->tag = g_strdup (colon + 1);
      *colon = '\0';
    }
  if (!part_is_valid (model, FALSE) ||
      (n >= 2 && !part_is_valid (parts[n - 2], TRUE)) ||
      (n == 3 && !part_is_valid (parts[0], FALSE)))
    goto invalid;

  out->model = g_strdup (model);
  out->namespace_ = g_strdup (n >= 2 ? parts[n - 2] : HR_OLLAMA_DEFAULT_NAMESPACE);
  out->host = g_strdup (n == 3 ? parts[0] : HR_OLLAMA_DEFAULT_HOST);
  out->explicit_host = n == 3;
  if (out->tag == NULL)
    out->tag = g_strdup (HR_OLLAMA_DEFAULT_TAG);
  return TRUE;

invalid:
  hr_ollama_name_clear (out);
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
               _("“%s” is not an Ollama model name; give it as [host/][namespace/]model[:tag], "
                 "with letters, digits, “_”, “-” and “.” only"), text);
  return FALSE;
}

/**
 * hr_ollama_name_clear:
 * @name: a name
 *
 * Frees what @name holds.
 */
void
hr_ollama_name_clear (HrOllamaName *name)
{
  g_clear_pointer (&name->host, g_free);
  g_clear_pointer (&name->namespace_, g_free);
  g_clear_pointer (&name->model, g_free);
  g_clear_pointer (&name->tag, g_free);
  name->explicit_host = FALSE;
}

/**
 * hr_ollama_name_display:
 * @name: a parsed name
 *
 * The name as Ollama shows it, the default host and namespace left out
 * (name.go's DisplayShortest, but the tag always kept): "phi4:latest",
 * "user/model:7b", "example.com/ns/model:tag".
 *
 * Returns: (transfer full): the text.
 */
char *
hr_ollama_name_display (const HrOllamaName *name)
{
  gboolean default_host = g_ascii_strcasecmp (name->host, HR_OLLAMA_DEFAULT_HOST) == 0;

  if (default_host && g_ascii_strcasecmp (name->namespace_, HR_OLLAMA_DEFAULT_NAMESPACE) == 0)
    return g_strdup_printf ("%s:%s", name->model, name->tag);
  if (default_host)
    return g_strdup_printf ("%s/%s:%s", name->namespace_, name->model, name->tag);
  return g_strdup_printf ("%s/%s/%s:%s", name->host, name->namespace_, name->model, name->tag);
}

/**
 * hr_ollama_name_path:
 * @name: a parsed name
 *
 * Returns: (transfer full): the manifest's path on the registry,
 *   "/v2/NAMESPACE/MODEL/manifests/TAG" (the OCI distribution API, as
 *   Ollama's pull asks for it).
 */
char *
hr_ollama_name_path (const HrOllamaName *name)
{
  return g_strdup_printf ("/v2/%s/%s/manifests/%s", name->namespace_, name->model, name->tag);
}

/**
 * hr_ollama_digest_is_valid:
 * @digest: (nullable): a digest
 *
 * Returns: whether @digest is "sha256:" and 64 lowercase hex digits, the
 *   only form the registry uses (and the only one safe in a file name).
 */
gboolean
hr_ollama_digest_is_valid (const char *digest)
{
  if (digest == NULL || !g_str_has_prefix (digest, "sha256:") || strlen (digest) != 7 + 64)
    return FALSE;
  for (const char *c = digest + 7; *c != '\0'; c++)
    if (!g_ascii_isdigit (*c) && !(*c >= 'a' && *c <= 'f'))
      return FALSE;
  return TRUE;
}

static void
layer_free (HrOllamaLayer *layer)
{
  g_free (layer->media_type);
  g_free (layer->digest);
  g_free (layer);
}

/* A layer's "size" that is no byte count, for its message, as the
 * manifest wrote it: json-glib reads an integer past 2^63 - 1 as -1 or
 * G_MININT64, so the first "size" of @source (NUL-terminated) that is no
 * whole number from 0 to 2^63 - 1 is taken from the text; the node's
 * value when none is found there. */
static char *
size_shown (const char *source,
            JsonNode   *node)
{
  for (const char *p = source != NULL ? strstr (source, "\"size\"") : NULL; p != NULL;
       p = strstr (p + 1, "\"size\""))
    {
      const char *v = p + strlen ("\"size\"");
      gsize n;
      g_autofree char *token = NULL;

      while (g_ascii_isspace (*v))
        v++;
      if (*v != ':')
        continue;
      v++;
      while (g_ascii_isspace (*v))
        v++;
      n = *v == '"' ? (strchr (v + 1, '"') != NULL ? (gsize) (strchr (v + 1, '"') - v) + 1 : strlen (v))
                    : strcspn (v, ",}] \t\r\n");
      token = g_strndup (v, MIN (n, 64));
      if (token[0] != '\0' && !g_ascii_string_to_unsigned (token, 10, 0, G_MAXINT64, NULL, NULL))
        return hr_json_safe_text (token, -1, 40);
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%g", json_node_get_double (node)));
    }
  return g_strdup (json_node_type_name (node));
}

static HrOllamaLayer *
layer_read (JsonNode   *node,
            const char *source,
            const char *name,
            const char *what,
            GError    **error)
{
  JsonObject *obj = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *media = obj != NULL ? hr_json_string (obj, "mediaType") : NULL;
  const char *digest = obj != NULL ? hr_json_string (obj, "digest") : NULL;
  guint64 size = 0;
  HrOllamaLayer *layer;

  if (obj != NULL && media != NULL && hr_ollama_digest_is_valid (digest) &&
      hr_json_member (obj, "size") != NULL && !hr_json_u64 (obj, "size", G_MAXINT64, &size))
    {
      g_autofree char *value = size_shown (source, hr_json_member (obj, "size"));

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("The manifest of %s has a %s whose \"size\" is %s, not a whole number of bytes from 0 to 9223372036854775807"),
                   name, what, value);
      return NULL;
    }
  if (media == NULL || !hr_ollama_digest_is_valid (digest) ||
      !hr_json_u64 (obj, "size", G_MAXINT64, &size))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("The manifest of %s has a %s without a media type, a sha256 digest and a size"),
                   name, what);
      return NULL;
    }
  layer = g_new0 (HrOllamaLayer, 1);
  layer->media_type = g_strdup (media);
  layer->digest = g_strdup (digest);
  layer->size = size;
  return layer;
}

/**
 * hr_ollama_manifest_parse:
 * @data: (array length=length): the manifest's JSON
 * @length: bytes in @data
 * @name: the model as messages name it ("phi4:latest")
 * @error: return location for a #GError
 *
 * Reads a registry manifest: `{"schemaVersion": 2, "config": {...},
 * "layers": [{"mediaType", "digest", "size"}]}` (the seed's phi4 manifest,
 * From API to GPU). Every layer's size is summed
 * with an overflow check; at most %HR_OLLAMA_MANIFEST_MAX_LAYERS layers.
 *
 * Returns: (transfer full) (nullable): the manifest, or %NULL with @error:
 *   %HR_CORE_ERROR_PARSE (not JSON), %HR_CORE_ERROR_INVALID_DATA (a layer
 *   or the config malformed, no layer of type %HR_OLLAMA_MEDIA_MODEL, or
 *   an empty one), %HR_CORE_ERROR_LIMIT (too many layers),
 *   %HR_CORE_ERROR_OVERFLOW (sizes that do not add up in 64 bits).
 */
HrOllamaManifest *
hr_ollama_manifest_parse (const char  *data,
                          gsize        length,
                          const char  *name,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(HrOllamaManifest) m = NULL;
  g_autofree char *display = g_strdup_printf (_("the manifest of %s"), name);
  JsonObject *root = hr_json_parse_object (parser, data, length, display, error);
  g_autofree char *source = g_strndup (data, length);
  JsonArray *layers;

  if (root == NULL)
    return NULL;
  layers = hr_json_array (root, "layers");
  if (layers == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("The manifest of %s has no list of layers: is HEADROOM_OLLAMA_REGISTRY an Ollama registry?"), name);
      return NULL;
    }
  if (json_array_get_length (layers) > HR_OLLAMA_MANIFEST_MAX_LAYERS)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("The manifest of %s lists %u layers, more than the %u Headroom reads"),
                   name, json_array_get_length (layers), HR_OLLAMA_MANIFEST_MAX_LAYERS);
      return NULL;
    }
  m = g_new0 (HrOllamaManifest, 1);
  m->layers = g_ptr_array_new_with_free_func ((GDestroyNotify) layer_free);
  m->config = layer_read (hr_json_member (root, "config"), source, name, _("config"), error);
  if (m->config == NULL)
    return NULL;
  m->total_bytes = m->config->size;
  for (guint i = 0; i < json_array_get_length (layers); i++)
    {
      HrOllamaLayer *layer = layer_read (json_array_get_element (layers, i), source, name, _("layer"), error);

      if (layer == NULL)
        return NULL;
      g_ptr_array_add (m->layers, layer);
      if (!g_uint64_checked_add (&m->total_bytes, m->total_bytes, layer->size))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_OVERFLOW,
                       _("The layers of %s add up to more bytes than 64 bits hold"), name);
          return NULL;
        }
      if (m->model == NULL && strcmp (layer->media_type, HR_OLLAMA_MEDIA_MODEL) == 0)
        m->model = layer;
      else if (m->projector == NULL && strcmp (layer->media_type, HR_OLLAMA_MEDIA_PROJECTOR) == 0)
        m->projector = layer;
    }
  if (m->model == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("The manifest of %s has no model layer (%s): nothing to size"),
                   name, HR_OLLAMA_MEDIA_MODEL);
      return NULL;
    }
  if (m->model->size == 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("The manifest of %s lists an empty model layer: nothing to size"), name);
      return NULL;
    }
  return g_steal_pointer (&m);
}

/**
 * hr_ollama_manifest_free:
 * @manifest: (nullable): a manifest
 */
void
hr_ollama_manifest_free (HrOllamaManifest *manifest)
{
  if (manifest == NULL)
    return;
  g_clear_pointer (&manifest->layers, g_ptr_array_unref);
  g_clear_pointer (&manifest->config, layer_free);
  g_free (manifest);
}

/**
 * hr_ollama_config_parse:
 * @data: (array length=length): the config blob's JSON
 * @length: bytes in @data
 * @name: the model as messages name it
 * @error: return location for a #GError
 *
 * Reads the config blob Ollama writes beside the layers: `model_format`,
 * `model_family`, `model_families`, `model_type` (the parameter size
 * label) and `file_type`. Each is optional; a member of another type is
 * as absent.
 *
 * Returns: (transfer full) (nullable): the facts, or %NULL with @error
 *   (%HR_CORE_ERROR_PARSE when it is not a JSON object).
 */
HrOllamaConfig *
hr_ollama_config_parse (const char  *data,
                        gsize        length,
                        const char  *name,
                        GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autofree char *display = g_strdup_printf (_("the config blob of %s"), name);
  JsonObject *root = hr_json_parse_object (parser, data, length, display, error);
  HrOllamaConfig *c;
  JsonArray *families;

  if (root == NULL)
    return NULL;
  c = g_new0 (HrOllamaConfig, 1);
  c->format = g_strdup (hr_json_string (root, "model_format"));
  c->family = g_strdup (hr_json_string (root, "model_family"));
  c->parameter_size = g_strdup (hr_json_string (root, "model_type"));
  c->file_type = g_strdup (hr_json_string (root, "file_type"));
  families = hr_json_array (root, "model_families");
  if (families != NULL)
    {
      GPtrArray *list = g_ptr_array_new ();

      for (guint i = 0; i < json_array_get_length (families) && i < 64; i++)
        {
          JsonNode *node = json_array_get_element (families, i);

          if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
            g_ptr_array_add (list, g_strdup (json_node_get_string (node)));
        }
      g_ptr_array_add (list, NULL);
      c->families = (char **) g_ptr_array_free (list, FALSE);
    }
  return c;
}

/**
 * hr_ollama_config_free:
 * @config: (nullable): a config
 */
void
hr_ollama_config_free (HrOllamaConfig *config)
{
  if (config == NULL)
    return;
  g_free (config->format);
  g_free (config->family);
  g_strfreev (config->families);
  g_free (config->parameter_size);
  g_free (config->file_type);
  g_free (config);
}

/**
 * hr_ollama_registry_error_code:
 * @data: (array length=length) (nullable): an error answer's body
 * @length: bytes in @data
 *
 * The registry's errors follow the OCI distribution spec:
 * `{"errors": [{"code": "MANIFEST_UNKNOWN", "message": "..."}]}`.
 *
 * Returns: (transfer full) (nullable): the first error's code, or %NULL
 *   when the body is not such an error (a proxy's page, a wrong URL).
 */
char *
hr_ollama_registry_error_code (const char *data,
                               gsize       length)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonObject *root;
  JsonArray *errors;
  JsonNode *first;

  if (data == NULL || length == 0 || !json_parser_load_from_data (parser, data, (gssize) length, NULL))
    return NULL;
  if (json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;
  root = json_node_get_object (json_parser_get_root (parser));
  errors = hr_json_array (root, "errors");
  if (errors == NULL || json_array_get_length (errors) == 0)
    return NULL;
  first = json_array_get_element (errors, 0);
  if (!JSON_NODE_HOLDS_OBJECT (first) || hr_json_string (json_node_get_object (first), "code") == NULL)
    return NULL;
  return g_strdup (hr_json_string (json_node_get_object (first), "code"));
}
