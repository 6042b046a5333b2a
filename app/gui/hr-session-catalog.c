/* hr-session-catalog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrSession's changes to the user's catalog beyond adding a model
 * (hr-session.c): renaming a model the user added. Through the session's
 * public calls and signals only.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-session.h"


static gint
find_spec_index (GPtrArray  *specs,
                 const char *name)
{
  for (guint i = 0; specs != NULL && i < specs->len; i++)
    if (g_strcmp0 (((const HrModelSpec *) g_ptr_array_index (specs, i))->name, name) == 0)
      return (gint) i;
  return -1;
}

/**
 * hr_session_model_is_users:
 * @self: a #HrSession
 * @name: a model name
 *
 * Returns: whether the user's catalog file (hr_data_user_file()
 *   "catalog.json") lists @name: a model the user added, which
 *   hr_session_rename_model() can rename; %FALSE when the file cannot be
 *   read
 */
gboolean
hr_session_model_is_users (HrSession  *self,
                           const char *name)
{
  g_autofree char *path = hr_data_user_file ("catalog.json");
  g_autoptr(GPtrArray) user = NULL;

  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);

  if (name == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    return FALSE;
  user = hr_catalog_load_file (path, NULL);
  return find_spec_index (user, name) >= 0;
}

/**
 * hr_session_rename_model:
 * @self: a #HrSession
 * @name: the name of a model of the user's catalog
 * @new_name: its new name; leading and trailing spaces are dropped
 * @error: return location for a #GError
 *
 * Renames a model the user added in the user's catalog file, saved
 * atomically (hr_catalog_save_file()), then in the catalog; a built-in
 * model the user's copy had replaced shows again under its own name.
 * Emits #HrSession::catalog-changed, then #HrSession::model-added with the
 * new name, so the Models page selects it. Nothing changes when a step
 * fails; renaming to the same name does nothing and succeeds.
 *
 * Returns: %TRUE when renamed; %FALSE with @error set:
 *   %HR_CORE_ERROR_INVALID_ARGUMENT for an empty new name or one another
 *   model has, %HR_CORE_ERROR_NOT_FOUND when @name is not in the user's
 *   catalog (a built-in model), or the error of reading or writing the file
 */
gboolean
hr_session_rename_model (HrSession   *self,
                         const char  *name,
                         const char  *new_name,
                         GError     **error)
{
  g_autofree char *path = hr_data_user_file ("catalog.json");
  g_autofree char *builtin_path = NULL;
  g_autofree char *renamed = NULL;
  g_autoptr(GPtrArray) user = NULL;
  g_autoptr(GPtrArray) builtin = NULL;
  GPtrArray *catalog;
  HrModelSpec *spec;
  gint at;

  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (name != NULL && new_name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  renamed = g_strstrip (g_strdup (new_name));
  if (renamed[0] == '\0')
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("A model needs a name: type one."));
      return FALSE;
    }
  if (strcmp (renamed, name) == 0)
    return TRUE;
  if (hr_session_find_model (self, renamed) != NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("There is already a model named “%s”: choose another name."), renamed);
      return FALSE;
    }

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      user = hr_catalog_load_file (path, error);
      if (user == NULL)
        {
          g_prefix_error (error, _("Your catalog %s could not be read, so it was not saved over: "), path);
          return FALSE;
        }
    }
  at = find_spec_index (user, name);
  if (at < 0)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND,
                   _("“%s” is a built-in model: only the models you added can be renamed."), name);
      return FALSE;
    }

  spec = g_ptr_array_index (user, at);
  g_free (spec->name);
  spec->name = g_strdup (renamed);
  if (!hr_catalog_save_file (user, path, error))
    return FALSE;

  catalog = hr_session_get_catalog (self);
  at = find_spec_index (catalog, name);
  if (at >= 0)
    g_ptr_array_remove_index (catalog, (guint) at);
  {
    g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);

    g_ptr_array_add (one, hr_model_spec_copy (spec));
    builtin_path = g_build_filename (hr_data_builtin_dir (), "catalog.json", NULL);
    builtin = hr_catalog_load_file (builtin_path, NULL);
    at = find_spec_index (builtin, name);
    if (at >= 0)
      g_ptr_array_add (one, hr_model_spec_copy (g_ptr_array_index (builtin, at)));
    hr_catalog_merge (catalog, one);
  }

  g_signal_emit_by_name (self, "catalog-changed");
  g_signal_emit_by_name (self, "model-added", renamed);
  return TRUE;
}
