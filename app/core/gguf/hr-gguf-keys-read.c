/* hr-gguf-keys-read.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading one key for the GGUF key -> model spec mapper (hr-gguf-keys.c),
 * from a file's header or /api/show's model_info alike (HrGgufKeys): a
 * count of 32 or 64 bits, `{arch}.SUFFIX`, a per-layer count (a scalar or
 * one number per layer), each failure worded with the key and where it
 * came from; and the source text a spec field records for it.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-keys-private.h"
#include "hr-units.h"

typedef enum {
  PROBLEM_NOT_COUNT,    /* present, not a non-negative whole number */
  PROBLEM_TOO_LARGE,    /* a whole number past 32 bits */
  PROBLEM_BAD_ARRAY,    /* an array that is not one number per layer */
  PROBLEM_BAD_ELEMENT,  /* an element that is not a whole number */
} Problem;

static gboolean
fail (const HrGgufKeys     *keys,
      const char           *key,
      Problem               problem,
      const HrGgufKeyValue *value,
      guint64               detail,
      guint32               layers,
      GError              **error)
{
  if (keys->origin == HR_GGUF_KEYS_FROM_OLLAMA_SHOW)
    {
      const char *expected = problem == PROBLEM_BAD_ARRAY ? _("an array of one count per layer")
                           : problem == PROBLEM_BAD_ELEMENT ? _("an array of whole numbers")
                           : _("a whole number");

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("/api/show for %s: model_info \"%s\" is not %s"),
                   keys->model_name, key, expected);
      return FALSE;
    }

  switch (problem)
    {
    case PROBLEM_NOT_COUNT:
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s should be a non-negative integer; it is a %s"), key, value->type_name);
      break;
    case PROBLEM_TOO_LARGE:
      {
        g_autofree char *n = hr_format_count (detail);

        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                     _("%s is %s, past any real model"), key, n);
      }
      break;
    case PROBLEM_BAD_ARRAY:
      {
        g_autofree char *n = hr_format_count (value->length);

        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                     _("%s is an array of %s %s values; a per-layer array needs one integer for each of the %u layers"),
                     key, n, value->type_name, layers);
      }
      break;
    case PROBLEM_BAD_ELEMENT:
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("%s has an unusable value for layer %u"), key, (guint) detail);
      break;
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

void
hr_gguf_keys_lookup (const HrGgufKeys *keys,
                     const char       *key,
                     HrGgufKeyValue   *out)
{
  memset (out, 0, sizeof *out);
  keys->funcs->lookup (keys->source, key, out);
}

/* A scalar count; absent and hidden are not found. */
static gboolean
get_count (const HrGgufKeys *keys,
           const char       *key,
           guint64           max,
           guint64          *out_value,
           gboolean         *out_found,
           GError          **error)
{
  HrGgufKeyValue value;

  *out_found = FALSE;
  hr_gguf_keys_lookup (keys, key, &value);
  if (value.kind == HR_GGUF_KEY_ABSENT || value.kind == HR_GGUF_KEY_HIDDEN)
    return TRUE;
  if (value.kind != HR_GGUF_KEY_SCALAR || !value.is_count)
    return fail (keys, key, PROBLEM_NOT_COUNT, &value, 0, 0, error);
  if (value.count > max)
    return fail (keys, key, PROBLEM_TOO_LARGE, &value, value.count, 0, error);
  *out_value = value.count;
  *out_found = TRUE;
  return TRUE;
}

/**
 * hr_gguf_keys_get_u32:
 * @keys: the keys
 * @key: the full key ("general.file_type")
 * @out_value: (out): the value, when found
 * @out_found: (out): whether the key holds a value (absent and /api/show's
 *   hidden `null` are not found)
 * @error: return location for a #GError
 *
 * Reads a count that fits 32 bits.
 *
 * Returns: %TRUE; %FALSE with %HR_CORE_ERROR_INVALID_DATA when the key is
 *   present but not a non-negative whole number of at most 2^32 - 1.
 */
gboolean
hr_gguf_keys_get_u32 (const HrGgufKeys *keys,
                      const char       *key,
                      guint32          *out_value,
                      gboolean         *out_found,
                      GError          **error)
{
  guint64 v = 0;

  if (!get_count (keys, key, G_MAXUINT32, &v, out_found, error))
    return FALSE;
  if (*out_found)
    *out_value = (guint32) v;
  return TRUE;
}

/**
 * hr_gguf_keys_get_u64:
 * @keys: the keys
 * @key: the full key ("general.parameter_count")
 * @out_value: (out): the value, when found
 * @out_found: (out): whether the key holds a value
 * @error: return location for a #GError
 *
 * Reads a count of up to 64 bits (a double from JSON when it is whole).
 *
 * Returns: %TRUE; %FALSE with %HR_CORE_ERROR_INVALID_DATA when the key is
 *   present but not a non-negative whole number.
 */
gboolean
hr_gguf_keys_get_u64 (const HrGgufKeys *keys,
                      const char       *key,
                      guint64          *out_value,
                      gboolean         *out_found,
                      GError          **error)
{
  return get_count (keys, key, G_MAXUINT64, out_value, out_found, error);
}

/* `{arch}.@suffix` as a count of 32 bits. */
gboolean
hr_gguf_keys_get_arch_u32 (const HrGgufKeys *keys,
                           const char       *suffix,
                           guint32          *out_value,
                           gboolean         *out_found,
                           GError          **error)
{
  g_autofree char *key = g_strconcat (keys->arch, ".", suffix, NULL);

  return hr_gguf_keys_get_u32 (keys, key, out_value, out_found, error);
}

/* A per-layer count: a scalar, or an array with one whole number per
 * layer. Sets *out_max, and *out_layers (guint32 per layer) for an array;
 * *out_hidden when the value is withheld. */
gboolean
hr_gguf_keys_get_per_layer (const HrGgufKeys *keys,
                            const char       *suffix,
                            guint32           layers,
                            guint32          *out_max,
                            GArray          **out_layers,
                            gboolean         *out_found,
                            gboolean         *out_hidden,
                            GError          **error)
{
  g_autofree char *key = g_strconcat (keys->arch, ".", suffix, NULL);
  g_autoptr(GArray) per_layer = NULL;
  HrGgufKeyValue value;
  guint32 max = 0;

  *out_layers = NULL;
  *out_found = FALSE;
  hr_gguf_keys_lookup (keys, key, &value);
  *out_hidden = value.kind == HR_GGUF_KEY_HIDDEN;
  if (value.kind != HR_GGUF_KEY_ARRAY)
    return hr_gguf_keys_get_u32 (keys, key, out_max, out_found, error);

  if (value.length != layers || !value.numeric || value.booleans)
    return fail (keys, key, PROBLEM_BAD_ARRAY, &value, 0, layers, error);

  per_layer = g_array_sized_new (FALSE, FALSE, sizeof (guint32), layers);
  for (guint32 i = 0; i < layers; i++)
    {
      guint64 v;
      guint32 v32;

      if (!keys->funcs->element (keys->source, &value, i, &v) || v > G_MAXUINT32)
        return fail (keys, key, PROBLEM_BAD_ELEMENT, &value, i, layers, error);
      v32 = (guint32) v;
      g_array_append_val (per_layer, v32);
      max = MAX (max, v32);
    }
  *out_max = max;
  *out_layers = g_steal_pointer (&per_layer);
  *out_found = TRUE;
  return TRUE;
}

const char *
hr_gguf_keys_source_prefix (const HrGgufKeys *keys)
{
  return keys->origin == HR_GGUF_KEYS_FROM_FILE ? "GGUF " : "Ollama /api/show model_info ";
}

void
hr_gguf_keys_set_source (const HrGgufKeys *keys,
                         HrModelSpec      *spec,
                         HrSpecField       field,
                         const char       *suffix)
{
  g_autofree char *source = g_strdup_printf ("%s%s.%s", hr_gguf_keys_source_prefix (keys), keys->arch, suffix);

  hr_model_spec_set_source (spec, field, source);
}
