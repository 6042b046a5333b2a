/* hr-catalog-write.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Writing catalog.json: each HrModelSpec as the entry hr-catalog.c reads
 * back (its fields, per-layer lists and "sources"), the document
 * `{"version": 1, "models": [...]}` pretty-printed, saved atomically. The
 * JSON member helpers here are shared with the boards file's writer
 * (hr-catalog-private.h).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-catalog.h"
#include "hr-catalog-private.h"
#include "hr-error.h"
#include "hr-precision.h"
#include "hr-units.h"

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
