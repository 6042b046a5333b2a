/* hr-catalog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-catalog-private.h"
#include "hr-error.h"
#include "hr-json.h"
#include "hr-json-private.h"
#include "hr-precision.h"
#include "hr-units.h"

#define MAX_ENTRIES     1000000
#define MAX_U32_FIELD   G_GUINT64_CONSTANT (4294967295)
#define MAX_BYTES       G_GUINT64_CONSTANT (1000000000000000) /* 1 PB */

/* ---------------------------------------------------------------------- */
/* Where the files live                                                   */

/**
 * hr_data_builtin_dir:
 *
 * Returns: (transfer none): the directory with the built-in catalog.json,
 *   boards.json and measurements/: $HEADROOM_DATA_DIR when set (an
 *   uninstalled build or a test), else the installed $datadir/headroom.
 */
const char *
hr_data_builtin_dir (void)
{
  const char *env = g_getenv ("HEADROOM_DATA_DIR");

  return (env != NULL && env[0] != '\0') ? env : PKGDATADIR;
}

/**
 * hr_data_user_dir:
 *
 * Returns: (transfer full): $XDG_DATA_HOME/headroom, where the user's
 *   catalog.json, boards.json and measurements/ live.
 */
char *
hr_data_user_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "headroom", NULL);
}

/**
 * hr_data_user_file:
 * @basename: "catalog.json" or "boards.json"
 *
 * Returns: (transfer full): the path of the user's copy.
 */
char *
hr_data_user_file (const char *basename)
{
  return g_build_filename (g_get_user_data_dir (), "headroom", basename, NULL);
}

/**
 * hr_data_measurements_dir:
 *
 * Returns: (transfer full): $XDG_DATA_HOME/headroom/measurements, the
 *   user's measurement archive.
 */
char *
hr_data_measurements_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "headroom", "measurements", NULL);
}

/**
 * hr_file_save_atomic:
 * @path: the file to replace
 * @contents: the new contents
 * @length: bytes in @contents, or -1 for a NUL-terminated string
 * @error: return location for a #GError
 *
 * Writes a temporary file beside @path, flushes it to disk and renames it
 * over @path, creating the directory when needed. If anything fails the old
 * file is left exactly as it was.
 *
 * Returns: %TRUE on success; else a #G_FILE_ERROR whose message names @path.
 */
gboolean
hr_file_save_atomic (const char  *path,
                     const char  *contents,
                     gssize       length,
                     GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) local_error = NULL;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("could not create the folder %s: %s"), dir, g_strerror (saved_errno));
      return FALSE;
    }

  if (!g_file_set_contents_full (path, contents, length,
                                 G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                 0644, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("could not save %s (the previous version is unchanged): %s"),
                   path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* The user's copies win: an entry whose key (the string at @key_offset)
 * matches a built-in one replaces it in place; new ones are appended. */
void
_hr_catalog_merge_by_key (GPtrArray      *into,
                          GPtrArray      *overrides,
                          glong           key_offset,
                          GBoxedCopyFunc  copy,
                          GDestroyNotify  free_entry)
{
  for (guint i = 0; i < overrides->len; i++)
    {
      gpointer user = g_ptr_array_index (overrides, i);
      const char *key = G_STRUCT_MEMBER (const char *, user, key_offset);
      gboolean replaced = FALSE;

      for (guint j = 0; j < into->len && !replaced; j++)
        if (g_strcmp0 (G_STRUCT_MEMBER (const char *, into->pdata[j], key_offset), key) == 0)
          {
            free_entry (into->pdata[j]);
            into->pdata[j] = copy (user);
            replaced = TRUE;
          }
      if (!replaced)
        g_ptr_array_add (into, copy (user));
    }
}

/* ---------------------------------------------------------------------- */
/* Shared reading                                                         */

gboolean
_hr_catalog_load_file_contents (const char  *path,
                                char       **out_data,
                                gsize       *out_length,
                                GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  if (!g_file_get_contents (path, out_data, out_length, &local_error))
    {
      g_set_error (error, HR_CORE_ERROR,
                   g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT)
                     ? HR_CORE_ERROR_NOT_FOUND : HR_CORE_ERROR_PARSE,
                   "%s", local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* Finds the top-level array member (`models` or `boards`), checking the
 * version. */
static JsonArray *
get_top_array (HrJsonDoc   *doc,
               const char  *display_name,
               const char  *member,
               GError     **error)
{
  JsonNode *root = _hr_json_doc_root (doc);
  JsonObject *object;
  JsonNode *node;
  g_autofree char *problem = NULL;
  guint32 version = HR_CATALOG_FILE_VERSION;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s: line 1: expected an object with a \"%s\" list"), display_name, member);
      return NULL;
    }
  object = json_node_get_object (root);

  if (!_hr_json_get_u32 (object, "version", FALSE, 1000, &version, &problem))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, "%s: line %u: %s",
                   display_name, _hr_json_doc_member_line (doc, object, "version"), problem);
      return NULL;
    }
  if (version != HR_CATALOG_FILE_VERSION)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_UNSUPPORTED,
                   _("%s: line %u: version %u is not one this Headroom reads (it reads version %d)"),
                   display_name, _hr_json_doc_member_line (doc, object, "version"), version, HR_CATALOG_FILE_VERSION);
      return NULL;
    }

  node = json_object_get_member (object, member);
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s: field \"%s\" is missing or not a list"), display_name, member);
      return NULL;
    }
  if (json_array_get_length (json_node_get_array (node)) > MAX_ENTRIES)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_LIMIT,
                   _("%s: more than %d entries in \"%s\""), display_name, MAX_ENTRIES, member);
      return NULL;
    }
  return json_node_get_array (node);
}

/* "catalog.json: line 12: entry 3 (\"llama3.2:3b\"): field ..." */
void
_hr_catalog_set_entry_error (GError     **error,
                             HrJsonDoc   *doc,
                             const char  *display_name,
                             JsonArray   *array,
                             guint        index,
                             JsonObject  *object,
                             const char  *field,
                             const char  *name,
                             const char  *problem)
{
  guint line = 0;

  if (object != NULL && field != NULL)
    line = _hr_json_doc_member_line (doc, object, field);
  if (line == 0)
    line = _hr_json_doc_element_line (doc, array, index);

  if (name != NULL)
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                 _("%s: line %u: entry %u (\"%s\"): %s"), display_name, line, index + 1, name, problem);
  else
    g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                 _("%s: line %u: entry %u: %s"), display_name, line, index + 1, problem);
}

/* Which field a validate message is about: the first quoted word. */
char *
_hr_catalog_field_of_problem (const char *problem)
{
  const char *start = strchr (problem, '"');
  const char *end;

  if (start == NULL || (end = strchr (start + 1, '"')) == NULL)
    return NULL;
  return g_strndup (start + 1, end - start - 1);
}

/* ---------------------------------------------------------------------- */
/* Catalog                                                                */

/* A list of whole numbers in 0 .. @max, as guint8 or guint32 by
 * @element_size; an absent or null member leaves *@out alone. */
gboolean
_hr_catalog_read_u32_array (JsonObject  *object,
                const char  *member,
                guint32      max,
                GArray     **out,
                gsize        element_size,
                char       **out_problem)
{
  JsonNode *node = json_object_get_member (object, member);
  JsonArray *array;
  GArray *values;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      *out_problem = g_strdup_printf (_("field \"%s\" must be a list of numbers"), member);
      return FALSE;
    }
  array = json_node_get_array (node);
  values = g_array_sized_new (FALSE, TRUE, element_size, json_array_get_length (array));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      gint64 v;

      if (!JSON_NODE_HOLDS_VALUE (element) ||
          (json_node_get_value_type (element) != G_TYPE_INT64 && json_node_get_value_type (element) != G_TYPE_BOOLEAN))
        {
          *out_problem = g_strdup_printf (_("field \"%s\" must be a list of whole numbers"), member);
          g_array_unref (values);
          return FALSE;
        }
      v = json_node_get_value_type (element) == G_TYPE_BOOLEAN ? json_node_get_boolean (element) : json_node_get_int (element);
      if (v < 0 || v > max)
        {
          *out_problem = g_strdup_printf (_("field \"%s\": value %" PRId64 " is out of range"), member, v);
          g_array_unref (values);
          return FALSE;
        }
      if (element_size == sizeof (guint8))
        {
          guint8 b = (guint8) v;
          g_array_append_val (values, b);
        }
      else
        {
          guint32 w = (guint32) v;
          g_array_append_val (values, w);
        }
    }
  *out = values;
  return TRUE;
}

/* The whole-number fields of an entry's shape, read in this order;
 * head_dim comes between kv_heads and key_length (it is their default). */
typedef struct {
  const char *member;
  gboolean    required;
  gsize       offset;   /* of the guint32 in HrModelSpec */
} CatalogU32Field;

static const CatalogU32Field catalog_heads_fields[] = {
  { "layers", TRUE, G_STRUCT_OFFSET (HrModelSpec, layers) },
  { "heads", FALSE, G_STRUCT_OFFSET (HrModelSpec, heads) },
  { "kv_heads", TRUE, G_STRUCT_OFFSET (HrModelSpec, kv_heads) },
};

static const CatalogU32Field catalog_shape_fields[] = {
  { "key_length", FALSE, G_STRUCT_OFFSET (HrModelSpec, key_length) },
  { "value_length", FALSE, G_STRUCT_OFFSET (HrModelSpec, value_length) },
  { "embedding_length", FALSE, G_STRUCT_OFFSET (HrModelSpec, embedding_length) },
  { "feed_forward_length", FALSE, G_STRUCT_OFFSET (HrModelSpec, feed_forward_length) },
  { "context_length", FALSE, G_STRUCT_OFFSET (HrModelSpec, context_length) },
  { "sliding_window", FALSE, G_STRUCT_OFFSET (HrModelSpec, sliding_window) },
  { "vocab_size", FALSE, G_STRUCT_OFFSET (HrModelSpec, vocab_size) },
  { "expert_count", FALSE, G_STRUCT_OFFSET (HrModelSpec, expert_count) },
  { "expert_used_count", FALSE, G_STRUCT_OFFSET (HrModelSpec, expert_used_count) },
};

/* Notes which member a read failed on; returns FALSE. */
static gboolean
fail_at (const char **out_field,
         const char  *member)
{
  *out_field = member;
  return FALSE;
}

/* Reads @fields into @spec in order; on the first bad one sets *@out_field. */
static gboolean
read_u32_fields (JsonObject            *object,
                 const CatalogU32Field *fields,
                 gsize                  n_fields,
                 HrModelSpec           *spec,
                 const char           **out_field,
                 char                 **out_problem)
{
  for (gsize i = 0; i < n_fields; i++)
    {
      guint32 *out = G_STRUCT_MEMBER_P (spec, fields[i].offset);

      if (!_hr_json_get_u32 (object, fields[i].member, fields[i].required, MAX_U32_FIELD, out, out_problem))
        {
          *out_field = fields[i].member;
          return FALSE;
        }
    }
  return TRUE;
}

/* Name, architecture, precision and the size figures. The seed's rounded
 * listing ("size", "listed_parameters") is what its tables size by; the
 * exact figures go to the runtime (hr_runtime_exact_spec()). */
static gboolean
read_listing (JsonObject   *object,
              HrModelSpec  *spec,
              const char  **out_field,
              char        **out_problem)
{
  guint64 listed_bytes = 0, listed_parameters = 0;

  if (!_hr_json_get_string (object, "name", TRUE, &spec->name, out_problem))
    return fail_at (out_field, "name");
  if (!_hr_json_get_string (object, "architecture", FALSE, &spec->architecture, out_problem))
    return fail_at (out_field, "architecture");
  if (!_hr_json_get_u64 (object, "parameters", TRUE, G_MAXUINT64, &spec->parameters, out_problem))
    return fail_at (out_field, "parameters");
  if (!_hr_json_get_string (object, "precision", TRUE, &spec->precision, out_problem))
    return fail_at (out_field, "precision");
  if (!_hr_json_get_u64 (object, "file_bytes", FALSE, MAX_BYTES, &spec->file_bytes, out_problem))
    return fail_at (out_field, "file_bytes");
  if (!_hr_json_get_u64 (object, "size", FALSE, MAX_BYTES, &listed_bytes, out_problem))
    return fail_at (out_field, "size");
  if (!_hr_json_get_u64 (object, "listed_parameters", FALSE, G_MAXUINT64, &listed_parameters, out_problem))
    return fail_at (out_field, "listed_parameters");

  if (listed_bytes > 0 && listed_bytes != spec->file_bytes)
    {
      spec->exact_file_bytes = spec->file_bytes;
      spec->file_bytes = listed_bytes;
    }
  if (listed_parameters > 0 && listed_parameters != spec->parameters)
    {
      spec->exact_parameters = spec->parameters;
      spec->parameters = listed_parameters;
    }
  return TRUE;
}

/* The attention and layer shape: heads, key/value lengths (head_dim is
 * their default), widths, experts. Stores head_dim in *@out_head_dim. */
static gboolean
read_shape (JsonObject   *object,
            HrModelSpec  *spec,
            guint32      *out_head_dim,
            const char  **out_field,
            char        **out_problem)
{
  if (!read_u32_fields (object, catalog_heads_fields, G_N_ELEMENTS (catalog_heads_fields), spec, out_field, out_problem))
    return FALSE;
  if (!_hr_json_get_u32 (object, "head_dim", FALSE, MAX_U32_FIELD, out_head_dim, out_problem))
    return fail_at (out_field, "head_dim");
  spec->key_length = spec->value_length = *out_head_dim;
  return read_u32_fields (object, catalog_shape_fields, G_N_ELEMENTS (catalog_shape_fields), spec, out_field, out_problem);
}

/* The projector, flags, origin and the per-layer lists. */
static gboolean
read_extras (JsonObject   *object,
             HrModelSpec  *spec,
             const char  **out_field,
             char        **out_problem)
{
  /* A separate vision projector layer (Ollama's image.projector), beyond
   * file_bytes; a projector inside the model's blob is in file_bytes.
   * kv_latent is multi-head latent attention: the cache holds one latent
   * of key_length per token and layer and no V (llama.cpp
   * src/llama-kv-cache.cpp: has_v = !is_mla; conversion/deepseek.py writes
   * key_length = kv_lora_rank + qk_rope_head_dim, value_length =
   * kv_lora_rank). */
  if (!_hr_json_get_u64 (object, "projector_bytes", FALSE, MAX_BYTES, &spec->projector_bytes, out_problem))
    return fail_at (out_field, "projector_bytes");
  if (!_hr_json_get_bool (object, "tied_embeddings", &spec->tied_embeddings, out_problem))
    return fail_at (out_field, "tied_embeddings");
  if (!_hr_json_get_bool (object, "kv_latent", &spec->kv_latent, out_problem))
    return fail_at (out_field, "kv_latent");
  if (!_hr_json_get_string (object, "origin", FALSE, &spec->origin, out_problem))
    return fail_at (out_field, "origin");
  if (!_hr_catalog_read_u32_array (object, "layer_kv_heads", 65536, &spec->layer_kv_heads, sizeof (guint32), out_problem))
    return fail_at (out_field, "layer_kv_heads");
  if (!_hr_catalog_read_u32_array (object, "layer_sliding", 1, &spec->layer_sliding, sizeof (guint8), out_problem))
    return fail_at (out_field, "layer_sliding");
  return _hr_catalog_read_layers (object, spec, out_field, out_problem);
}

/* Copies the entry's "sources" object (field name → text, "default" for
 * the rest) onto @spec's fields. */
static void
apply_sources (JsonObject  *s,
               HrModelSpec *spec)
{
  const char *fallback = hr_json_string (s, "default");

  if (spec->projector_bytes > 0)
    spec->projector_source = g_strdup (hr_json_string (s, "projector_bytes") != NULL
                                       ? hr_json_string (s, "projector_bytes") : fallback);

  for (guint f = 0; f < HR_SPEC_N_FIELDS; f++)
    {
      const char *text = hr_json_string (s, hr_spec_field_name (f));

      /* The fields hold the listing where there is one: its source
       * is under the listing's key, the exact figure's under the
       * figure's own. */
      if (f == HR_SPEC_FIELD_FILE_BYTES && spec->exact_file_bytes > 0)
        {
          spec->exact_file_bytes_source = g_strdup (text != NULL ? text : fallback);
          text = hr_json_string (s, "size");
        }
      if (f == HR_SPEC_FIELD_PARAMETERS && spec->exact_parameters > 0)
        {
          spec->exact_parameters_source = g_strdup (text != NULL ? text : fallback);
          text = hr_json_string (s, "listed_parameters");
        }
      hr_model_spec_set_source (spec, f, text != NULL ? text : fallback);
    }
  /* How recurrent_r and recurrent_s were worked out. */
  if (hr_json_string (s, "recurrent") != NULL)
    spec->recurrent_source = g_strdup (hr_json_string (s, "recurrent"));
}

/* The checks across fields once all are read: a key/value length, the
 * sources object (applied when valid), layer_kv_heads' count. */
static gboolean
check_entry (JsonObject   *object,
             HrModelSpec  *spec,
             guint32       head_dim,
             const char  **out_field,
             char        **out_problem)
{
  JsonNode *sources = json_object_get_member (object, "sources");

  if (spec->key_length == 0 && spec->value_length == 0 && head_dim == 0)
    {
      *out_field = "head_dim";
      *out_problem = g_strdup (_("field \"head_dim\" (or \"key_length\" and \"value_length\") is missing"));
      return FALSE;
    }

  if (sources != NULL && JSON_NODE_HOLDS_OBJECT (sources))
    apply_sources (json_node_get_object (sources), spec);
  else if (sources != NULL && !JSON_NODE_HOLDS_NULL (sources))
    {
      *out_field = "sources";
      *out_problem = g_strdup (_("field \"sources\" must be an object of field names to texts"));
      return FALSE;
    }

  if (spec->layer_kv_heads != NULL && spec->layer_kv_heads->len != spec->layers)
    {
      *out_field = "layer_kv_heads";
      *out_problem = g_strdup_printf (_("field \"layer_kv_heads\" has %u values for %u layers"), spec->layer_kv_heads->len, spec->layers);
      return FALSE;
    }

  return TRUE;
}

/* One entry of catalog.json: its fields in order, the checks across them,
 * then hr_model_spec_validate(); a problem names the entry's line. */
static HrModelSpec *
spec_from_object (HrJsonDoc   *doc,
                  const char  *display_name,
                  JsonArray   *array,
                  guint        index,
                  GError     **error)
{
  JsonNode *element = json_array_get_element (array, index);
  JsonObject *object;
  g_autoptr(HrModelSpec) spec = hr_model_spec_new (NULL);
  g_autoptr(GError) invalid = NULL;
  g_autofree char *problem = NULL;
  g_autofree char *invalid_field = NULL;
  const char *field = NULL;
  guint32 head_dim = 0;

  if (!JSON_NODE_HOLDS_OBJECT (element))
    {
      _hr_catalog_set_entry_error (error, doc, display_name, array, index, NULL, NULL, NULL, _("expected an object"));
      return NULL;
    }
  object = json_node_get_object (element);

  if (!read_listing (object, spec, &field, &problem) ||
      !read_shape (object, spec, &head_dim, &field, &problem) ||
      !read_extras (object, spec, &field, &problem) ||
      !check_entry (object, spec, head_dim, &field, &problem))
    {
      _hr_catalog_set_entry_error (error, doc, display_name, array, index, object, field, spec->name, problem);
      return NULL;
    }

  if (!hr_model_spec_validate (spec, &invalid))
    {
      invalid_field = _hr_catalog_field_of_problem (invalid->message);
      _hr_catalog_set_entry_error (error, doc, display_name, array, index, object, invalid_field, spec->name, invalid->message);
      return NULL;
    }

  return g_steal_pointer (&spec);
}

/* The two files of entries, `{"version": 1, "models"|"boards": [...]}`:
 * each entry read by its kind, its key unique. */

GPtrArray *
_hr_catalog_load_entries (const char      *data,
                          gssize           length,
                          const char      *display_name,
                          const HrCatalogEntryKind *kind,
                          GError         **error)
{
  g_autoptr(HrJsonDoc) doc = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GHashTable) keys = NULL;
  JsonArray *array;

  doc = _hr_json_doc_parse (data, length, display_name, error);
  if (doc == NULL)
    return NULL;

  array = get_top_array (doc, display_name, kind->member, error);
  if (array == NULL)
    return NULL;

  entries = g_ptr_array_new_with_free_func (kind->free_entry);
  keys = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      gpointer entry = kind->from_object (doc, display_name, array, i, error);
      const char *key;

      if (entry == NULL)
        return NULL;
      key = kind->key_of (entry);
      if (g_hash_table_contains (keys, key))
        {
          g_autofree char *problem = g_strdup_printf (_(kind->twice), key);

          _hr_catalog_set_entry_error (error, doc, display_name, array, i,
                           json_node_get_object (json_array_get_element (array, i)), kind->key_field, key, problem);
          kind->free_entry (entry);
          return NULL;
        }
      g_ptr_array_add (entries, entry);
      g_hash_table_add (keys, (gpointer) key);
    }
  return g_steal_pointer (&entries);
}

static gpointer
spec_entry (HrJsonDoc   *doc,
            const char  *display_name,
            JsonArray   *array,
            guint        index,
            GError     **error)
{
  return spec_from_object (doc, display_name, array, index, error);
}

static const char *
spec_key (gconstpointer entry)
{
  return ((const HrModelSpec *) entry)->name;
}

static const HrCatalogEntryKind catalog_entries = {
  "models", "name", N_("the name \"%s\" appears twice"),
  spec_entry, spec_key, (GDestroyNotify) hr_model_spec_free,
};

/**
 * hr_catalog_load_data:
 * @data: the JSON text of a catalog (see data/catalog.json)
 * @length: bytes in @data, or -1 when NUL-terminated
 * @display_name: the file's name, for messages
 * @error: return location for a #GError
 *
 * Parses a catalog: `{"version": 1, "models": [...]}` with one object per
 * model (name, parameters, precision, layers, kv_heads, head_dim or
 * key_length/value_length required; file_bytes, heads, embedding_length,
 * feed_forward_length, size and listed_parameters (the seed's rounded
 * listing where file_bytes and parameters are the exact published figures:
 * the listing goes to file_bytes and parameters, the exact figures to
 * exact_file_bytes and exact_parameters; `sources` gives the exact
 * figures' sources under "file_bytes" and "parameters", the listing's
 * under "size" and "listed_parameters"),
 * context_length, sliding_window, vocab_size, tied_embeddings, kv_latent
 * (multi-head latent attention), expert counts, projector_bytes, per-layer arrays and per-field sources optional; the
 * layer schedule and the recurrent-state sizes, "layer_types",
 * "full_attention_interval", "sliding_window_pattern", "layer_recurrent",
 * "recurrent_r" and "recurrent_s", are read by _hr_catalog_read_layers()
 * in hr-catalog-layers.c, with sources."recurrent" going to
 * recurrent_source). Every entry is validated (hr_model_spec_validate());
 * names must be unique.
 *
 * Returns: (transfer full) (element-type HrModelSpec): the models; or %NULL
 *   with %HR_CORE_ERROR_PARSE (not JSON), %HR_CORE_ERROR_UNSUPPORTED (another
 *   version) or %HR_CORE_ERROR_INVALID_DATA, the message naming the file,
 *   the line, the entry and the field.
 */
GPtrArray *
hr_catalog_load_data (const char  *data,
                      gssize       length,
                      const char  *display_name,
                      GError     **error)
{
  return _hr_catalog_load_entries (data, length, display_name, &catalog_entries, error);
}

/**
 * hr_catalog_load_file:
 * @path: a catalog JSON file
 * @error: return location for a #GError
 *
 * Reads and parses @path; see hr_catalog_load_data(). The file is only read.
 *
 * Returns: (transfer full) (element-type HrModelSpec): the models; %NULL
 *   with %HR_CORE_ERROR_NOT_FOUND when the file does not exist, or a parse
 *   error naming the file.
 */
GPtrArray *
hr_catalog_load_file (const char  *path,
                      GError     **error)
{
  g_autofree char *data = NULL;
  gsize length;

  if (!_hr_catalog_load_file_contents (path, &data, &length, error))
    return NULL;
  return hr_catalog_load_data (data, length, path, error);
}

void
_hr_catalog_add_u64 (JsonBuilder *builder,
                     const char  *member,
                     guint64      value,
                     gboolean     always)
{
  if (value == 0 && !always)
    return;
  json_builder_set_member_name (builder, member);
  json_builder_add_int_value (builder, (gint64) MIN (value, (guint64) G_MAXINT64));
}

void
_hr_catalog_add_string (JsonBuilder *builder,
                        const char  *member,
                        const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (builder, member);
  json_builder_add_string_value (builder, value);
}

static void
add_array (JsonBuilder *builder,
           const char  *member,
           GArray      *values,
           gboolean     bytes)
{
  if (values == NULL)
    return;
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; i < values->len; i++)
    json_builder_add_int_value (builder, bytes ? g_array_index (values, guint8, i)
                                               : g_array_index (values, guint32, i));
  json_builder_end_array (builder);
}

/* Writes @spec's "sources" object: each field's source text, the exact
 * figure's under the figure's key and the listing's under the listing's. */
static void
add_spec_sources (JsonBuilder       *builder,
                  const HrModelSpec *spec)
{
  json_builder_set_member_name (builder, "sources");
  json_builder_begin_object (builder);
  for (guint f = 0; f < HR_SPEC_N_FIELDS; f++)
    {
      const char *key = hr_spec_field_name (f);

      if (f == HR_SPEC_FIELD_FILE_BYTES && spec->exact_file_bytes > 0)
        {
          _hr_catalog_add_string (builder, key, spec->exact_file_bytes_source);
          key = "size";
        }
      if (f == HR_SPEC_FIELD_PARAMETERS && spec->exact_parameters > 0)
        {
          _hr_catalog_add_string (builder, key, spec->exact_parameters_source);
          key = "listed_parameters";
        }
      _hr_catalog_add_string (builder, key, spec->sources[f]);
    }
  _hr_catalog_add_string (builder, "recurrent", spec->recurrent_source);
  json_builder_end_object (builder);
}

/* Writes one catalog entry for @spec, the fields spec_from_object() reads. */
static void
add_spec_object (JsonBuilder       *builder,
                 const HrModelSpec *spec)
{
  json_builder_begin_object (builder);
  _hr_catalog_add_string (builder, "name", spec->name);
  _hr_catalog_add_string (builder, "architecture", spec->architecture);
  _hr_catalog_add_u64 (builder, "parameters", spec->exact_parameters > 0 ? spec->exact_parameters : spec->parameters, TRUE);
  if (spec->exact_parameters > 0)
    _hr_catalog_add_u64 (builder, "listed_parameters", spec->parameters, FALSE);
  _hr_catalog_add_string (builder, "precision", spec->precision);
  _hr_catalog_add_u64 (builder, "file_bytes", spec->exact_file_bytes > 0 ? spec->exact_file_bytes : spec->file_bytes, FALSE);
  if (spec->exact_file_bytes > 0)
    _hr_catalog_add_u64 (builder, "size", spec->file_bytes, FALSE);
  _hr_catalog_add_u64 (builder, "layers", spec->layers, TRUE);
  _hr_catalog_add_u64 (builder, "heads", spec->heads, FALSE);
  _hr_catalog_add_u64 (builder, "kv_heads", spec->kv_heads, TRUE);
  _hr_catalog_add_u64 (builder, "key_length", spec->key_length, TRUE);
  _hr_catalog_add_u64 (builder, "value_length", spec->value_length, TRUE);
  _hr_catalog_add_u64 (builder, "embedding_length", spec->embedding_length, FALSE);
  _hr_catalog_add_u64 (builder, "feed_forward_length", spec->feed_forward_length, FALSE);
  _hr_catalog_add_u64 (builder, "context_length", spec->context_length, FALSE);
  _hr_catalog_add_u64 (builder, "sliding_window", spec->sliding_window, FALSE);
  _hr_catalog_add_u64 (builder, "vocab_size", spec->vocab_size, FALSE);
  _hr_catalog_add_u64 (builder, "expert_count", spec->expert_count, FALSE);
  _hr_catalog_add_u64 (builder, "expert_used_count", spec->expert_used_count, FALSE);
  if (spec->tied_embeddings)
    {
      json_builder_set_member_name (builder, "tied_embeddings");
      json_builder_add_boolean_value (builder, TRUE);
    }
  if (spec->kv_latent)
    {
      json_builder_set_member_name (builder, "kv_latent");
      json_builder_add_boolean_value (builder, TRUE);
    }
  add_array (builder, "layer_kv_heads", spec->layer_kv_heads, FALSE);
  add_array (builder, "layer_sliding", spec->layer_sliding, TRUE);
  add_array (builder, "layer_recurrent", spec->layer_recurrent, TRUE);
  /* Both, 0 too, for a model with recurrent layers (the reader asks for both). */
  _hr_catalog_add_u64 (builder, "recurrent_r", spec->recurrent_r, hr_model_spec_recurrent_layers (spec) > 0);
  _hr_catalog_add_u64 (builder, "recurrent_s", spec->recurrent_s, hr_model_spec_recurrent_layers (spec) > 0);
  _hr_catalog_add_u64 (builder, "projector_bytes", spec->projector_bytes, FALSE);
  _hr_catalog_add_string (builder, "origin", spec->origin);

  add_spec_sources (builder, spec);
  json_builder_end_object (builder);
}

/**
 * hr_catalog_to_data:
 * @specs: (element-type HrModelSpec): the models
 * @out_length: (out) (optional): bytes in the result
 *
 * Serialises @specs in the format hr_catalog_load_data() reads (version 1,
 * pretty-printed). Tensor lists are not written: a catalog row keeps the
 * figures, not the file.
 *
 * Returns: (transfer full): the JSON text.
 */
char *
hr_catalog_to_data (GPtrArray *specs,
                    gsize     *out_length)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, HR_CATALOG_FILE_VERSION);
  json_builder_set_member_name (builder, "models");
  json_builder_begin_array (builder);
  for (guint i = 0; i < specs->len; i++)
    add_spec_object (builder, g_ptr_array_index (specs, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  return json_generator_to_data (generator, out_length);
}

/**
 * hr_catalog_save_file:
 * @specs: (element-type HrModelSpec): the models
 * @path: the file to write
 * @error: return location for a #GError
 *
 * Validates every model, then saves atomically (hr_file_save_atomic()). An
 * invalid model or a failed write leaves the file on disk untouched.
 *
 * Returns: %TRUE on success; %HR_CORE_ERROR_INVALID_DATA naming the model,
 *   or a #G_FILE_ERROR naming the file.
 */
gboolean
hr_catalog_save_file (GPtrArray   *specs,
                      const char  *path,
                      GError     **error)
{
  g_autofree char *data = NULL;
  gsize length;

  for (guint i = 0; i < specs->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (specs, i);
      g_autoptr(GError) invalid = NULL;

      if (!hr_model_spec_validate (spec, &invalid))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("not saving %s: model \"%s\": %s"), path,
                       spec->name ? spec->name : "", invalid->message);
          return FALSE;
        }
    }

  data = hr_catalog_to_data (specs, &length);
  return hr_file_save_atomic (path, data, length, error);
}

/**
 * hr_catalog_merge:
 * @into: (element-type HrModelSpec): the built-in catalog, changed in place
 * @overrides: (element-type HrModelSpec): the user's models
 *
 * The user's copies win: a model with the same name replaces the built-in
 * one in place; new models are appended in the user's order.
 */
void
hr_catalog_merge (GPtrArray *into,
                  GPtrArray *overrides)
{
  _hr_catalog_merge_by_key (into, overrides, G_STRUCT_OFFSET (HrModelSpec, name),
                (GBoxedCopyFunc) hr_model_spec_copy, (GDestroyNotify) hr_model_spec_free);
}

/**
 * hr_catalog_find:
 * @specs: (element-type HrModelSpec): the models
 * @name: a model name
 *
 * Returns: (nullable) (transfer none): the model named @name, or %NULL.
 */
HrModelSpec *
hr_catalog_find (GPtrArray  *specs,
                 const char *name)
{
  for (guint i = 0; i < specs->len; i++)
    {
      HrModelSpec *spec = g_ptr_array_index (specs, i);
      if (g_strcmp0 (spec->name, name) == 0)
        return spec;
    }
  return NULL;
}

