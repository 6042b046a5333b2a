/* hr-hub-info.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Hub's JSON answers into an HrHubLookup (protocol facts:
 * docs/hub.md). Everything here is pure: bytes in, fields
 * out, for the lookup's steps in app/net/hr-hub-lookup.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hub-info.h"
#include "hr-hub-info-private.h"
#include "hr-mmproj.h"
#include "hr-units.h"

/* ------------------------------------------------------------------ */
/* Result structs                                                      */

static void
hub_file_free (HrHubFile *file)
{
  g_free (file->path);
  g_free (file);
}

static HrHubFile *
hub_file_copy (const HrHubFile *file)
{
  HrHubFile *copy = g_new0 (HrHubFile, 1);

  copy->path = g_strdup (file->path);
  copy->size = file->size;
  copy->lfs = file->lfs;
  return copy;
}

static void
gguf_entry_free (HrHubGgufFile *file)
{
  g_free (file->path);
  g_free (file->label);
  g_free (file->problem);
  g_free (file);
}

static void
dtype_free (HrSafetensorsDtype *d)
{
  g_free (d->dtype);
  g_free (d);
}

/**
 * hr_hub_lookup_free:
 * @lookup: (nullable): a lookup from hr_hub_client_lookup_finish()
 *
 * Frees @lookup and everything it holds.
 */
void
hr_hub_lookup_free (HrHubLookup *lookup)
{
  if (lookup == NULL)
    return;
  g_free (lookup->repo);
  g_free (lookup->revision);
  g_free (lookup->sha);
  g_free (lookup->page_url);
  g_free (lookup->gated);
  g_strfreev (lookup->tags);
  g_free (lookup->pipeline_tag);
  g_free (lookup->library_name);
  g_free (lookup->architecture);
  g_free (lookup->model_type);
  g_clear_pointer (&lookup->config, hr_hf_config_free);
  g_free (lookup->config_problem);
  g_free (lookup->parameters_source);
  g_clear_pointer (&lookup->parameters_by_dtype, g_ptr_array_unref);
  g_clear_pointer (&lookup->eos_token_ids, g_array_unref);
  g_clear_pointer (&lookup->kind, hr_hf_kind_evidence_free);
  g_clear_pointer (&lookup->files, g_ptr_array_unref);
  g_clear_pointer (&lookup->weight_files, g_ptr_array_unref);
  g_free (lookup->license);
  g_free (lookup->license_name);
  g_free (lookup->license_file);
  g_free (lookup->license_title);
  g_free (lookup->license_unread);
  g_free (lookup->unknown_dtypes);
  g_free (lookup->non_commercial_reason);
  g_clear_pointer (&lookup->gguf_files, g_ptr_array_unref);
  g_free (lookup->gguf_chosen);
  g_clear_pointer (&lookup->gguf, hr_gguf_file_unref);
  g_clear_pointer (&lookup->spec, hr_model_spec_free);
  g_clear_pointer (&lookup->notes, g_ptr_array_unref);
  g_free (lookup->derived_comparison);
  g_clear_pointer (&lookup->mmproj_files, g_ptr_array_unref);
  g_free (lookup->mmproj_chosen);
  g_clear_pointer (&lookup->mmproj, hr_gguf_file_unref);
  g_free (lookup);
}

static HrHubLookup *
hub_lookup_new (void)
{
  HrHubLookup *lookup = g_new0 (HrHubLookup, 1);

  lookup->parameters_by_dtype = g_ptr_array_new_with_free_func ((GDestroyNotify) dtype_free);
  lookup->eos_token_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  lookup->files = g_ptr_array_new_with_free_func ((GDestroyNotify) hub_file_free);
  lookup->weight_files = g_ptr_array_new_with_free_func ((GDestroyNotify) hub_file_free);
  lookup->gguf_files = g_ptr_array_new_with_free_func ((GDestroyNotify) gguf_entry_free);
  lookup->notes = g_ptr_array_new_with_free_func (g_free);
  lookup->mmproj_files = g_ptr_array_new_with_free_func ((GDestroyNotify) hub_file_free);
  lookup->bos_token_id = -1;
  return lookup;
}

/**
 * hr_hub_lookup_weight_precision:
 * @lookup: a lookup
 *
 * The precision the repository stores its weights at: the HrPrecision id of
 * the dtype holding the most parameters ("bf16" for Qwen2.5-3B-Instruct),
 * else config.json's dtype or quantization, else the GGUF file's type.
 *
 * Returns: (nullable): an HrPrecision id, or %NULL when unknown.
 */
const char *
hr_hub_lookup_weight_precision (const HrHubLookup *lookup)
{
  const HrSafetensorsDtype *best = NULL;

  g_return_val_if_fail (lookup != NULL, NULL);

  if (lookup->spec != NULL && lookup->spec->precision != NULL)
    return lookup->spec->precision;
  for (guint i = 0; i < lookup->parameters_by_dtype->len; i++)
    {
      const HrSafetensorsDtype *d = g_ptr_array_index (lookup->parameters_by_dtype, i);

      if (best == NULL || d->parameters > best->parameters)
        best = d;
    }
  if (best != NULL && hr_hf_dtype_to_precision (best->dtype) != NULL)
    return hr_hf_dtype_to_precision (best->dtype);
  if (lookup->config != NULL)
    return hr_hf_config_precision (lookup->config);
  return NULL;
}

static const char *
json_string (JsonObject *obj,
             const char *key)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return NULL;
}

static JsonObject *
json_object_member (JsonObject *obj,
                    const char *key)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, key) : NULL;

  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    return json_node_get_object (node);
  return NULL;
}

static gboolean
json_u64 (JsonNode *node,
          guint64  *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64 && json_node_get_int (node) >= 0)
    {
      *out = (guint64) json_node_get_int (node);
      return TRUE;
    }
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      double v = json_node_get_double (node);

      if (v >= 0.0 && v < 18446744073709551616.0 && v == (double) (guint64) v)
        {
          *out = (guint64) v;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * hr_hub_answers_has_sibling:
 * @a: the answers, after the model info
 * @path: a path in the repository ("config.json")
 *
 * Returns: whether the model info lists @path among the siblings (%FALSE
 *   before a model info was read).
 */
gboolean
hr_hub_answers_has_sibling (HrHubAnswers *a,
             const char *path)
{
  for (guint i = 0; a->siblings != NULL && i < a->siblings->len; i++)
    if (strcmp (g_ptr_array_index (a->siblings, i), path) == 0)
      return TRUE;
  return FALSE;
}

/**
 * hr_hub_answers_license_sibling:
 * @a: the answers, after the model info
 *
 * Returns: (transfer none) (nullable): a top-level LICENSE, LICENSE.txt,
 *   LICENSE.md, LICENCE ... among the siblings, or %NULL.
 */
const char *
hr_hub_answers_license_sibling (HrHubAnswers *a)
{
  for (guint i = 0; i < a->siblings->len; i++)
    {
      const char *path = g_ptr_array_index (a->siblings, i);
      g_autofree char *upper = g_ascii_strup (path, -1);

      if (strchr (path, '/') == NULL &&
          (g_str_has_prefix (upper, "LICENSE") || g_str_has_prefix (upper, "LICENCE")))
        return path;
    }
  return NULL;
}


/* The tags (and the license: tag), and the card's license. */
static void
read_tags_and_card (HrHubLookup *r,
                    JsonObject  *obj)
{
  JsonObject *card;
  JsonNode *node;

  node = json_object_get_member (obj, "tags");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *tags = json_node_get_array (node);
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

      for (guint i = 0; i < json_array_get_length (tags); i++)
        {
          JsonNode *t = json_array_get_element (tags, i);

          if (JSON_NODE_HOLDS_VALUE (t) && json_node_get_value_type (t) == G_TYPE_STRING)
            {
              const char *tag = json_node_get_string (t);

              g_strv_builder_add (builder, tag);
              if (r->license == NULL && g_str_has_prefix (tag, "license:"))
                r->license = g_strdup (tag + strlen ("license:"));
            }
        }
      r->tags = g_strv_builder_end (builder);
    }

  card = json_object_member (obj, "cardData");
  if (card != NULL)
    {
      node = json_object_get_member (card, "license");
      if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        {
          g_free (r->license);
          r->license = g_strdup (json_node_get_string (node));
        }
      r->license_name = g_strdup (json_string (card, "license_name"));
    }
}

/* Follows the id the Hub answers with (a renamed repository answers with
 * its new one: later requests go straight to it) and sets the page URL. */
static void
read_repo_id (HrHubAnswers *a,
              JsonObject   *obj,
              const char   *endpoint)
{
  HrHubLookup *r = a->result;

  if (json_string (obj, "id") != NULL)
    {
      g_autofree char *id = NULL;
      g_autofree char *id_rev = NULL;

      if (hr_hf_repo_parse (json_string (obj, "id"), &id, &id_rev, NULL) && id_rev == NULL)
        {
          g_free (r->repo);
          r->repo = g_steal_pointer (&id);
          g_free (a->repo);
          a->repo = g_strdup (r->repo);
        }
    }
  r->page_url = g_strdup_printf ("%s/%s", endpoint, r->repo);
}

/* The API's "config": model_type and the first of "architectures". */
static void
read_api_config (HrHubLookup *r,
                 JsonObject  *obj)
{
  JsonObject *config = json_object_member (obj, "config");
  JsonNode *archs;

  if (config == NULL)
    return;
  archs = json_object_get_member (config, "architectures");
  r->model_type = g_strdup (json_string (config, "model_type"));
  if (archs != NULL && JSON_NODE_HOLDS_ARRAY (archs) &&
      json_array_get_length (json_node_get_array (archs)) > 0)
    {
      JsonNode *first = json_array_get_element (json_node_get_array (archs), 0);

      if (JSON_NODE_HOLDS_VALUE (first) && json_node_get_value_type (first) == G_TYPE_STRING)
        r->architecture = g_strdup (json_node_get_string (first));
    }
}

/* The dtypes whose entries are packed containers (quantised weights held
 * in integer tensors), not one parameter per element. */
static gboolean
is_packed_dtype (const char *dtype)
{
  static const char *const packed[] = { "I32", "U32", "U8" };

  for (guint i = 0; i < G_N_ELEMENTS (packed); i++)
    if (strcmp (dtype, packed[i]) == 0)
      return TRUE;
  return FALSE;
}

/* "safetensors.parameters" (count per dtype) into parameters_by_dtype;
 * returns their sum, saturated. */
static guint64
read_api_dtypes (HrHubAnswers *a,
                 JsonObject   *params)
{
  g_autoptr(GList) dtypes = json_object_get_members (params);
  guint64 sum = 0;

  for (GList *l = dtypes; l != NULL; l = l->next)
    {
      HrSafetensorsDtype *d;
      guint64 count;
      guint bits;

      if (!json_u64 (json_object_get_member (params, l->data), &count))
        continue;
      d = g_new0 (HrSafetensorsDtype, 1);
      bits = hr_safetensors_dtype_bits (l->data);
      d->dtype = g_strdup (l->data);
      d->parameters = count;
      if (bits % 8 == 0 && bits > 0)
        hr_mul_u64 (count, bits / 8, &d->bytes);
      g_ptr_array_add (a->result->parameters_by_dtype, d);
      if (!hr_add_u64 (sum, count, &sum))
        sum = G_MAXUINT64;
      if (is_packed_dtype (l->data))
        a->api_packed = TRUE;
    }
  return sum;
}

/* The API's "safetensors": the per-dtype map and "total", reconciled (the
 * per-dtype map is the more detailed of the two; a note says where they
 * disagree). */
static void
read_api_safetensors (HrHubAnswers *a,
                      JsonObject   *obj)
{
  HrHubLookup *r = a->result;
  JsonObject *st = json_object_member (obj, "safetensors");
  JsonObject *params;
  guint64 total = 0, sum = 0;
  char *note = NULL;

  if (st == NULL)
    return;
  params = json_object_member (st, "parameters");
  if (params != NULL)
    sum = read_api_dtypes (a, params);
  if (!json_u64 (json_object_get_member (st, "total"), &total))
    total = 0;
  a->api_dtype_sum = sum;
  total = hr_safetensors_reconcile (total, sum, _("the Hub's safetensors.total"),
                                    _("its per-dtype parameters"), _("parameters"), &note);
  if (note != NULL)
    g_ptr_array_add (r->notes, note);
  if (total > 0)
    {
      r->parameters = total;
      r->parameters_source = g_strdup (_("the Hub API (safetensors field)"));
      a->api_parameters = TRUE;
    }
}

/* "siblings": the repository's file paths, less any with ".." or a
 * leading "/". */
static void
read_siblings (HrHubAnswers *a,
               JsonObject   *obj)
{
  JsonNode *node = json_object_get_member (obj, "siblings");
  JsonArray *siblings;

  a->siblings = g_ptr_array_new_with_free_func (g_free);
  a->siblings_listed = node != NULL && JSON_NODE_HOLDS_ARRAY (node);
  if (!a->siblings_listed)
    return;
  siblings = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (siblings); i++)
    {
      JsonNode *s = json_array_get_element (siblings, i);
      const char *name = JSON_NODE_HOLDS_OBJECT (s) ? json_string (json_node_get_object (s), "rfilename") : NULL;

      if (name != NULL && strstr (name, "..") == NULL && name[0] != '/')
        g_ptr_array_add (a->siblings, g_strdup (name));
    }
}

/**
 * hr_hub_answers_read_model_info:
 * @a: the answers
 * @endpoint: the Hub's base URL, for the page URL
 * @data: (array length=size): the answer of `GET /api/models/REPO/revision/REV?expand=...`
 * @size: its length in bytes
 * @error: return location for a #GError
 *
 * Reads the model info (docs/hub.md, "Model info"): the commit sha (40
 * lower-case hex digits), the id as the Hub spells it (a renamed repository
 * answers with its new one: @a's repo follows), gated, tags, card data,
 * the API's config, safetensors (parameters per dtype, bytes = count x the
 * dtype's bits / 8; `total` against the per-dtype map's sum with
 * hr_safetensors_reconcile(): the map wins and a note says they disagree;
 * I32, U32 or U8 entries mark packed containers) and siblings (paths with
 * ".." or a leading "/" are dropped).
 *
 * Returns: %FALSE with %HR_CORE_ERROR_INVALID_DATA when it is not a JSON
 *   object or has no commit sha.
 */
gboolean
hr_hub_answers_read_model_info (HrHubAnswers  *a,
                                const char    *endpoint,
                                const char    *data,
                                gsize          size,
                                GError       **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  HrHubLookup *r = a->result;
  JsonObject *obj;
  JsonNode *node;
  const char *sha;

  if (size == 0 || !json_parser_load_from_data (parser, data, (gssize) size, NULL) ||
      json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("The Hub's model information for %s is not a JSON object: check HF_ENDPOINT"), a->repo);
      return FALSE;
    }
  a->info = json_node_ref (json_parser_get_root (parser));
  obj = json_node_get_object (a->info);

  sha = json_string (obj, "sha");
  if (sha == NULL || strlen (sha) != 40 || strspn (sha, "0123456789abcdef") != 40)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("The Hub's model information for %s has no commit sha: check HF_ENDPOINT"), a->repo);
      return FALSE;
    }
  r->sha = g_strdup (sha);
  read_repo_id (a, obj, endpoint);
  node = json_object_get_member (obj, "gated");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    r->gated = g_strdup (json_node_get_string (node));
  r->pipeline_tag = g_strdup (json_string (obj, "pipeline_tag"));
  r->library_name = g_strdup (json_string (obj, "library_name"));

  read_tags_and_card (r, obj);
  read_api_config (r, obj);
  read_api_safetensors (a, obj);
  read_siblings (a, obj);
  return TRUE;
}

static gint
compare_gguf_entry (gconstpointer a,
                    gconstpointer b)
{
  const HrHubGgufFile *fa = *(HrHubGgufFile * const *) a;
  const HrHubGgufFile *fb = *(HrHubGgufFile * const *) b;

  return strcmp (fa->path, fb->path);
}

/**
 * hr_hub_answers_group_files:
 * @a: the answers, with every tree page read
 *
 * The tree gives the sizes: sums them (total_bytes, bytes), finds the
 * largest file, picks the weight files (the .safetensors shards, else
 * .bin/.pt/.pth) and groups the GGUF files by quantization with
 * hr_hf_gguf_group_files() (a split's parts summed, its missing parts in
 * problem; path "?" when part 1 is missing), sorted by path; mmproj files
 * (hr_mmproj_path_is_projector()) go to mmproj_files instead.
 */
void
hr_hub_answers_group_files (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;
  gboolean have_safetensors = FALSE;

  r->total_bytes = 0;
  r->largest = NULL;
  for (guint i = 0; i < r->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (r->files, i);

      hr_add_u64 (r->total_bytes, f->size, &r->total_bytes);
      if (r->largest == NULL || f->size > r->largest->size)
        r->largest = f;
      if (g_str_has_suffix (f->path, ".safetensors"))
        have_safetensors = TRUE;
    }
  for (guint i = 0; i < r->files->len; i++)
    {
      const HrHubFile *f = g_ptr_array_index (r->files, i);
      gboolean weight = have_safetensors ? g_str_has_suffix (f->path, ".safetensors")
                                         : (g_str_has_suffix (f->path, ".bin") || g_str_has_suffix (f->path, ".pt") ||
                                            g_str_has_suffix (f->path, ".pth"));

      if (weight)
        {
          g_ptr_array_add (r->weight_files, hub_file_copy (f));
          hr_add_u64 (r->weight_file_bytes, f->size, &r->weight_file_bytes);
        }
    }

  /* GGUF: one entry per quantization, a split's shards summed. */
  {
    g_autofree const char **paths = g_new0 (const char *, r->files->len + 1);
    g_autofree guint64 *sizes = g_new0 (guint64, r->files->len + 1);
    g_autoptr(GPtrArray) groups = NULL;

    guint n = 0;

    /* A projector is no quantization of the model (hr_mmproj_path_is_projector()). */
    g_ptr_array_set_size (r->mmproj_files, 0);
    for (guint i = 0; i < r->files->len; i++)
      {
        const HrHubFile *f = g_ptr_array_index (r->files, i);

        if (hr_mmproj_path_is_projector (f->path))
          {
            g_ptr_array_add (r->mmproj_files, hub_file_copy (f));
            continue;
          }
        paths[n] = f->path;
        sizes[n++] = f->size;
      }
    groups = hr_hf_gguf_group_files (paths, sizes, n);
    for (guint i = 0; i < groups->len; i++)
      {
        HrHfGgufGroup *g = g_ptr_array_index (groups, i);
        HrHubGgufFile *entry = g_new0 (HrHubGgufFile, 1);

        entry->path = g_strdup (g->first_path != NULL ? g->first_path : "?");
        entry->label = g_steal_pointer (&g->label);
        entry->size = g->bytes;
        entry->parts = g->parts;
        entry->problem = g_steal_pointer (&g->problem);
        g_ptr_array_add (r->gguf_files, entry);
      }
  }
  g_ptr_array_sort (r->gguf_files, compare_gguf_entry);
}

/**
 * hr_hub_answers_read_tree_page:
 * @a: the answers
 * @data: (array length=size): one page of `GET /api/models/REPO/tree/SHA?recursive=true`
 * @size: its length in bytes
 * @error: return location for a #GError
 *
 * Appends the page's files (type "file"; the size is the entry's, else its
 * LFS pointer's, bytes) to the result's files, in the page's order.
 *
 * Returns: %FALSE with %HR_CORE_ERROR_INVALID_DATA when the page is not a
 *   JSON array or a file has no size.
 */
gboolean
hr_hub_answers_read_tree_page (HrHubAnswers  *a,
                               const char    *data,
                               gsize          size,
                               GError       **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonArray *entries;

  if (size == 0 || !json_parser_load_from_data (parser, data, (gssize) size, NULL) ||
      json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("The Hub's file list for %s is not a JSON array: check HF_ENDPOINT"), a->repo);
      return FALSE;
    }
  entries = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonNode *e = json_array_get_element (entries, i);
      JsonObject *o;
      const char *type, *path;
      HrHubFile *file;
      guint64 size_value = 0;

      if (!JSON_NODE_HOLDS_OBJECT (e))
        continue;
      o = json_node_get_object (e);
      type = json_string (o, "type");
      path = json_string (o, "path");
      if (type == NULL || strcmp (type, "file") != 0 || path == NULL)
        continue;
      if (!json_u64 (json_object_get_member (o, "size"), &size_value))
        {
          JsonObject *lfs = json_object_member (o, "lfs");

          if (lfs == NULL || !json_u64 (json_object_get_member (lfs, "size"), &size_value))
            {
              g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                           _("The Hub's file list for %s gives no size for %s"), a->repo, path);
              return FALSE;
            }
        }
      file = g_new0 (HrHubFile, 1);
      file->path = g_strdup (path);
      file->size = size_value;
      file->lfs = json_object_member (o, "lfs") != NULL;
      g_ptr_array_add (a->result->files, file);
    }
  return TRUE;
}

/* Link: <https://...>; rel="next" */
/* Sums the safetensors headers read into the result: their count, bytes,
 * towers and dtypes win (hr_hub_answers_sum_headers()). */
static gboolean
sum_headers (HrHubAnswers  *a,
             GError       **error)
{
  HrHubLookup *r = a->result;
  guint n_files = a->headers->len;
  g_autoptr(HrSafetensorsHeader) sum = g_ptr_array_steal_index (a->headers, 0);

  for (guint i = 0; i < a->headers->len; i++)
    if (!hr_safetensors_header_merge (sum, g_ptr_array_index (a->headers, i), error))
      return FALSE;
  hr_hub_answers_sum_headers (a, sum, n_files);
  r->tower_tensors = sum->tower_tensors;
  r->tower_parameters = sum->tower_parameters;
  r->tower_bytes = sum->tower_bytes;
  g_ptr_array_set_size (r->parameters_by_dtype, 0);
  g_ptr_array_extend_and_steal (r->parameters_by_dtype, g_steal_pointer (&sum->dtypes));
  g_clear_pointer (&r->parameters_source, g_free);
  r->parameters_source = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                       "the safetensors header of %u file",
                                                       "the safetensors headers of %u files",
                                                       n_files),
                                          n_files);
  return TRUE;
}

/* The model spec: from the GGUF header (its parameters and architecture
 * where nothing else gave them), or from config.json with the weights'
 * precision. */
static void
build_spec (HrHubLookup *r,
            const char  *origin)
{
  if (r->gguf != NULL)
    {
      r->spec = hr_gguf_file_to_model_spec (r->gguf, r->repo, origin, NULL);
      if (r->parameters == 0 && r->spec != NULL)
        {
          r->parameters = r->spec->parameters;
          r->parameters_source = g_strdup_printf (_("the GGUF header of %s"), r->gguf_chosen);
        }
      if (r->architecture == NULL && r->spec != NULL)
        r->architecture = g_strdup (r->spec->architecture);
    }
  else if (r->config != NULL)
    {
      const char *precision;

      r->spec = hr_hf_config_to_model_spec (r->config, r->repo, origin, NULL);
      precision = hr_hub_lookup_weight_precision (r);
      if (precision != NULL && r->spec->precision == NULL)
        r->spec->precision = g_strdup (precision);
    }
}

/* A config.json spec's parameters and file bytes: the stored count (else
 * the derived one), the tensor bytes (else the weight files' sizes). */
static void
set_spec_figures (HrHubLookup *r)
{
  if (r->parameters > 0)
    {
      r->spec->parameters = r->parameters;
      hr_model_spec_set_source (r->spec, HR_SPEC_FIELD_PARAMETERS, r->parameters_source);
    }
  else if (r->has_derived)
    {
      r->spec->parameters = r->derived.total;
      hr_model_spec_set_source (r->spec, HR_SPEC_FIELD_PARAMETERS, _("derived from config.json"));
    }
  if (r->tensor_bytes > 0)
    {
      r->spec->file_bytes = r->tensor_bytes;
      hr_model_spec_set_source (r->spec, HR_SPEC_FIELD_FILE_BYTES,
                                _("tensor data bytes (safetensors index or headers)"));
    }
  else if (r->weight_file_bytes > 0)
    {
      r->spec->file_bytes = r->weight_file_bytes;
      hr_model_spec_set_source (r->spec, HR_SPEC_FIELD_FILE_BYTES, _("the weight files' sizes"));
    }
}

/**
 * hr_hub_answers_finish:
 * @a: the answers, after every step
 * @error: return location for a #GError
 *
 * Sums the safetensors headers read (when there are any, their count
 * wins, from the unpacked shapes, hr_safetensors_header_parameters(); their
 * bytes win over the index's total_size, a note says when they disagree;
 * without an index they settle tying), adds the chosen GGUF split's other
 * parts to its first (hr_gguf_file_add_shard()), builds the model spec
 * (from the GGUF header, else config.json, origin "hf:REPO@SHA") with the
 * parameters and file bytes found and their sources, and the derived
 * count's relative difference from the stored one and its comparison to
 * the digit (hr_hf_parameters_describe_difference()).
 *
 * Returns: (transfer full): the result, taken from @a; or %NULL with
 *   %HR_CORE_ERROR_INVALID_DATA when the headers or the GGUF parts do not
 *   add up.
 */
HrHubLookup *
hr_hub_answers_finish (HrHubAnswers  *a,
                       GError       **error)
{
  HrHubLookup *r = a->result;
  g_autofree char *origin = g_strdup_printf ("hf:%s@%s", r->repo, r->sha);

  if (a->headers != NULL && a->headers->len > 0 && !sum_headers (a, error))
    return NULL;

  hr_hub_answers_note_unknown_dtypes (a);

  if (r->gguf != NULL && !hr_hub_answers_add_gguf_shards (a, error))
    return NULL;
  build_spec (r, origin);
  if (r->spec != NULL && r->gguf == NULL)
    set_spec_figures (r);

  hr_hub_answers_add_projector (a);

  if (r->parameters == 0 && r->has_derived)
    {
      r->parameters = r->derived.total;
      r->parameters_source = g_strdup (_("derived from config.json (no stored count)"));
    }
  if (r->has_derived && r->parameters > 0)
    {
      r->derived_difference = hr_hf_parameters_relative_difference (r->derived.total, r->parameters);
      r->derived_comparison = hr_hf_parameters_describe_difference (r->derived.total, r->parameters);
    }

  return g_steal_pointer (&a->result);
}


/**
 * hr_hub_answers_new:
 * @repo: "owner/name" as asked
 * @revision: the branch, tag or commit asked for
 *
 * Returns: (transfer full): empty answers with an empty result for @repo
 *   at @revision (BOS unknown, no files).
 */
HrHubAnswers *
hr_hub_answers_new (const char *repo,
                    const char *revision)
{
  HrHubAnswers *a = g_new0 (HrHubAnswers, 1);

  a->repo = g_strdup (repo);
  a->result = hub_lookup_new ();
  a->result->repo = g_strdup (repo);
  a->result->revision = g_strdup (revision);
  return a;
}

/**
 * hr_hub_answers_free:
 * @a: (nullable): answers
 *
 * Frees @a, and its result unless hr_hub_answers_finish() took it.
 */
void
hr_hub_answers_free (HrHubAnswers *a)
{
  if (a == NULL)
    return;
  g_clear_pointer (&a->result, hr_hub_lookup_free);
  g_free (a->repo);
  g_clear_pointer (&a->info, json_node_unref);
  g_clear_pointer (&a->siblings, g_ptr_array_unref);
  g_clear_pointer (&a->config, g_bytes_unref);
  g_clear_pointer (&a->generation, g_bytes_unref);
  g_clear_pointer (&a->tokenizer, g_bytes_unref);
  g_clear_pointer (&a->index, g_bytes_unref);
  g_clear_pointer (&a->license, g_bytes_unref);
  g_free (a->license_path);
  g_clear_pointer (&a->headers, g_ptr_array_unref);
  g_clear_pointer (&a->gguf_shards, g_ptr_array_unref);
  g_free (a);
}

/**
 * hr_hub_answers_read_gguf_field:
 * @a: the answers, after the model info
 *
 * Without the safetensors field's count: the model info's "gguf" field
 * gives the parameters ("total") and the architecture.
 */
void
hr_hub_answers_read_gguf_field (HrHubAnswers *a)
{
  HrHubLookup *r = a->result;
  JsonObject *gguf_api = a->info ? json_object_member (json_node_get_object (a->info), "gguf") : NULL;
  guint64 total;

  if (gguf_api == NULL || a->api_parameters)
    return;
  if (json_u64 (json_object_get_member (gguf_api, "total"), &total) && total > 0)
    {
      r->parameters = total;
      r->parameters_source = g_strdup (_("the Hub API (gguf field)"));
    }
  if (r->architecture == NULL && json_string (gguf_api, "architecture") != NULL)
    r->architecture = g_strdup (json_string (gguf_api, "architecture"));
}
