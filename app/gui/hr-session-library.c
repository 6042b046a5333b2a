/* hr-session-library.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrSession's models looked up in the Ollama library: kept for
 * this run only, listed beside the catalog, never written to a file until
 * the person adds one to the catalog (hr_session_add_model()). The list
 * hangs on the session as qdata, so HrSession's struct and its loading are
 * untouched; a change is said with #HrSession::catalog-changed (the Models
 * page lists the catalog and these together) and, for a model that joins
 * the list, #HrSession::model-added, so the page selects it.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-session.h"

/* The list: HrModelSpec*, in the order looked up. */
static GPtrArray *
library_list (HrSession *self)
{
  static GQuark quark;
  GPtrArray *list;

  if (quark == 0)
    quark = g_quark_from_static_string ("hr-session-library");
  list = g_object_get_qdata (G_OBJECT (self), quark);
  if (list == NULL)
    {
      list = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
      g_object_set_qdata_full (G_OBJECT (self), quark, list, (GDestroyNotify) g_ptr_array_unref);
    }
  return list;
}

static gint
library_index (HrSession  *self,
               const char *name)
{
  GPtrArray *list = library_list (self);

  for (guint i = 0; name != NULL && i < list->len; i++)
    if (g_strcmp0 (((HrModelSpec *) g_ptr_array_index (list, i))->name, name) == 0)
      return (gint) i;
  return -1;
}

/**
 * hr_session_get_library:
 * @self: a #HrSession
 *
 * The models looked up in the Ollama library in this run and not (yet)
 * added to the catalog. They are never saved.
 *
 * Returns: (transfer none) (element-type HrModelSpec): the models, in the
 *   order they were looked up
 */
GPtrArray *
hr_session_get_library (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return library_list (self);
}

/**
 * hr_session_find_library_model:
 * @self: a #HrSession
 * @name: a model's name as the registry shows it ("qwen2.5-coder:14b")
 *
 * Returns: (transfer none) (nullable): the looked-up model named @name
 */
const HrModelSpec *
hr_session_find_library_model (HrSession  *self,
                               const char *name)
{
  gint i;

  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  i = library_index (self, name);
  return i >= 0 ? g_ptr_array_index (library_list (self), i) : NULL;
}

/**
 * hr_session_add_library_model:
 * @self: a #HrSession
 * @spec: a model sized from the Ollama library (copied), its origin
 *   "ollama:MODEL:TAG@sha256:…" (hr_library_lookup_spec())
 *
 * Keeps @spec for this run, replacing a looked-up model of the same name,
 * and emits #HrSession::catalog-changed then #HrSession::model-added with
 * its name. Nothing is written to disk.
 */
void
hr_session_add_library_model (HrSession         *self,
                              const HrModelSpec *spec)
{
  GPtrArray *list;
  gint i;
  g_autofree char *name = NULL;

  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (spec != NULL && spec->name != NULL);

  list = library_list (self);
  i = library_index (self, spec->name);
  if (i >= 0)
    g_ptr_array_remove_index (list, (guint) i);
  g_ptr_array_add (list, hr_model_spec_copy (spec));
  name = g_strdup (spec->name);
  g_signal_emit_by_name (self, "catalog-changed");
  g_signal_emit_by_name (self, "model-added", name);
}

/**
 * hr_session_add_library_to_catalog:
 * @self: a #HrSession
 * @name: a looked-up model's name (hr_session_find_library_model())
 * @error: return location for a #GError
 *
 * "Add to Catalog": moves the looked-up model into the user's catalog
 * with hr_session_add_model() (its origin, "ollama:MODEL:TAG@DIGEST",
 * is the catalog entry's provenance), so it is no longer transient. On an
 * error the model stays looked up and the catalog is untouched.
 *
 * Returns: %TRUE when added; %FALSE with @error: %G_IO_ERROR_NOT_FOUND
 *   (no looked-up model of that name), or hr_session_add_model()'s
 */
gboolean
hr_session_add_library_to_catalog (HrSession   *self,
                                   const char  *name,
                                   GError     **error)
{
  GPtrArray *list;
  HrModelSpec *spec;
  gint i;

  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  list = library_list (self);
  i = library_index (self, name);
  if (i < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("%s has not been looked up in the Ollama library"), name);
      return FALSE;
    }
  /* Out of the list first, so the rows rebuilt on "catalog-changed" list
   * the catalog's entry only; back in on an error. */
  spec = g_ptr_array_steal_index (list, (guint) i);
  if (!hr_session_add_model (self, spec, error))
    {
      g_ptr_array_insert (list, i, spec);
      return FALSE;
    }
  hr_model_spec_free (spec);
  return TRUE;
}
