/* hr-safetensors-index.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A sharded checkpoint's model.safetensors.index.json: its
 * "metadata.total_size" and the shard files its "weight_map" names. The
 * shards' own headers are read in hr-safetensors.c and summed in
 * hr-safetensors-count.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "hr-error.h"
#include "hr-mmproj.h"
#include "hr-safetensors.h"

static gint
compare_str_ptr (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/**
 * hr_safetensors_index_free:
 * @index: (nullable): an index from hr_safetensors_index_parse()
 *
 * Frees @index.
 */
void
hr_safetensors_index_free (HrSafetensorsIndex *index)
{
  if (index == NULL)
    return;
  g_clear_pointer (&index->shards, g_ptr_array_unref);
  g_free (index);
}

/* "metadata.total_size" into @index when present: an integer, or a whole
 * double (large counts may arrive as doubles). */
static gboolean
read_total_size (HrSafetensorsIndex  *index,
                 JsonObject          *obj,
                 GError             **error)
{
  JsonNode *meta = json_object_get_member (obj, "metadata");
  JsonNode *total;
  GType type;

  if (meta == NULL || !JSON_NODE_HOLDS_OBJECT (meta))
    return TRUE;
  total = json_object_get_member (json_node_get_object (meta), "total_size");
  if (total == NULL || !JSON_NODE_HOLDS_VALUE (total))
    return TRUE;

  type = json_node_get_value_type (total);
  if (type == G_TYPE_INT64 && json_node_get_int (total) >= 0)
    {
      index->total_size = (guint64) json_node_get_int (total);
      index->has_total_size = TRUE;
    }
  else if (type == G_TYPE_DOUBLE)
    {
      double v = json_node_get_double (total);

      /* 2^64 as a double; anything at or past it does not fit. */
      if (!(v >= 0.0 && v < 18446744073709551616.0 && v == (double) (guint64) v))
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                       _("model.safetensors.index.json has a total_size that is not a whole number of bytes"));
          return FALSE;
        }
      index->total_size = (guint64) v;
      index->has_total_size = TRUE;
    }
  else
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("model.safetensors.index.json has a total_size that is not a non-negative number"));
      return FALSE;
    }
  return TRUE;
}

/* The shard "weight_map" gives tensor @name: a plain file name in the
 * repository, or %NULL with @error set. */
static const char *
weight_map_shard (const char  *name,
                  JsonNode    *value,
                  GError     **error)
{
  const char *shard;

  if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("model.safetensors.index.json maps tensor “%s” to something that is not a file name"),
                   name);
      return NULL;
    }
  shard = json_node_get_string (value);
  if (shard[0] == '\0' || strstr (shard, "..") != NULL || shard[0] == '/')
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("model.safetensors.index.json maps tensor “%s” to “%s”, which is not a file in the repository"),
                   name, shard);
      return NULL;
    }
  return shard;
}

/* "weight_map" into @index: the tensor count, the output projection and
 * tower tensors, and the sorted list of distinct shards. */
static gboolean
read_weight_map (HrSafetensorsIndex  *index,
                 JsonObject          *obj,
                 GError             **error)
{
  JsonNode *map = json_object_get_member (obj, "weight_map");
  g_autoptr(GHashTable) seen = NULL;
  g_autoptr(GList) members = NULL;
  JsonObject *map_obj;

  if (map == NULL || !JSON_NODE_HOLDS_OBJECT (map))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("model.safetensors.index.json has no weight_map object"));
      return FALSE;
    }
  map_obj = json_node_get_object (map);
  seen = g_hash_table_new (g_str_hash, g_str_equal);
  members = json_object_get_members (map_obj);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *shard = weight_map_shard (l->data, json_object_get_member (map_obj, l->data), error);

      if (shard == NULL)
        return FALSE;
      index->n_tensors++;
      if (hr_safetensors_tensor_is_lm_head (l->data))
        index->has_lm_head = TRUE;
      if (hr_mmproj_safetensors_is_tower (l->data))
        index->tower_tensors++;
      if (!g_hash_table_contains (seen, shard))
        {
          g_hash_table_add (seen, (gpointer) shard);
          g_ptr_array_add (index->shards, g_strdup (shard));
        }
    }
  g_ptr_array_sort (index->shards, compare_str_ptr);
  return TRUE;
}

/**
 * hr_safetensors_index_parse:
 * @data: (array length=length): model.safetensors.index.json
 * @length: bytes in @data
 * @error: return location for a #GError
 *
 * Parses a sharded model's index: `metadata.total_size` (the sum of the
 * tensor data bytes over all shards, headers excluded; tied embeddings stored
 * once; docs/formats.md, "safetensors") and `weight_map` (tensor name -> shard file name), giving
 * the tensor count and the list of shards. total_size may be missing
 * (has_total_size is then %FALSE); it is accepted as an integer or as a
 * whole double, since large counts may arrive as doubles.
 *
 * Returns: (transfer full): the index, or %NULL with @error set:
 *   %HR_CORE_ERROR_PARSE (not JSON or not an object),
 *   %HR_CORE_ERROR_INVALID_DATA (no weight_map object, a shard name that is
 *   not a string or not a plain file name, a negative or fractional total_size).
 */
HrSafetensorsIndex *
hr_safetensors_index_parse (const char *data,
                            gsize       length,
                            GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local_error = NULL;
  g_autoptr(HrSafetensorsIndex) index = NULL;
  JsonNode *root;
  JsonObject *obj;

  if (data == NULL || length == 0 || length > G_MAXSSIZE ||
      memchr (data, '\0', length) != NULL ||
      !json_parser_load_from_data (parser, data, (gssize) length, &local_error))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("model.safetensors.index.json is not valid JSON: %s"),
                   local_error != NULL ? local_error->message : _("empty or contains a NUL byte"));
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                   _("model.safetensors.index.json is not a JSON object"));
      return NULL;
    }
  obj = json_node_get_object (root);

  index = g_new0 (HrSafetensorsIndex, 1);
  index->shards = g_ptr_array_new_with_free_func (g_free);
  if (!read_total_size (index, obj, error) || !read_weight_map (index, obj, error))
    return NULL;
  return g_steal_pointer (&index);
}
