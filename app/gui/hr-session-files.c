/* hr-session-files.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What HrSession reads, in its worker thread: the built-in catalog, boards
 * and measurements, the user's copies merged over them, and a message a
 * person can act on for each file that could not be read.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-measurement.h"
#include "hr-session-private.h"




/* Frees @data and what it still owns. */
void
_hr_session_load_data_free (LoadData *data)
{
  g_free (data->builtin_catalog);
  g_free (data->builtin_boards);
  g_free (data->user_catalog_path);
  g_free (data->user_boards_path);
  for (guint i = 0; i < G_N_ELEMENTS (data->measurement_dirs); i++)
    g_free (data->measurement_dirs[i]);
  g_clear_pointer (&data->problems, g_ptr_array_unref);
  g_clear_pointer (&data->catalog, g_ptr_array_unref);
  g_clear_pointer (&data->boards, g_ptr_array_unref);
  g_clear_pointer (&data->user_boards, g_ptr_array_unref);
  g_free (data->user_boards_problem);
  g_clear_pointer (&data->measurements, g_ptr_array_unref);
  g_free (data->builtin_priors);
  g_clear_pointer (&data->priors, hr_priors_free);
  g_free (data);
}


/* The paths to read, from the environment (hr_data_builtin_dir(), the
 * user data dir): call on the main thread. */
LoadData *
_hr_session_load_data_new (void)
{
  LoadData *data = g_new0 (LoadData, 1);

  data->builtin_catalog = g_build_filename (hr_data_builtin_dir (), "catalog.json", NULL);
  data->builtin_boards = g_build_filename (hr_data_builtin_dir (), "boards.json", NULL);
  data->user_catalog_path = hr_data_user_file ("catalog.json");
  data->user_boards_path = hr_data_user_file ("boards.json");
  data->measurement_dirs[0] = g_build_filename (hr_data_builtin_dir (), "measurements", NULL);
  data->measurement_dirs[1] = hr_data_measurements_dir ();
  data->builtin_priors = g_build_filename (hr_data_builtin_dir (), "priors.json", NULL);
  data->problems = g_ptr_array_new_with_free_func (g_free);
  return data;
}

static char *
problem_message (const char   *path,
                 const GError *error)
{
  /* Translators: a file that could not be read at start: path, then the reason */
  return g_strdup_printf (_("Could not read %s: %s. It was left as it is."), path, error->message);
}

/* A user's file: an empty list when there is none, NULL when it could not
 * be read (named in @problems, its reason in @out_problem). */
static GPtrArray *
load_user_file (const char      *path,
                GPtrArray     *(*load) (const char *, GError **),
                GDestroyNotify   free_func,
                GPtrArray       *problems,
                char           **out_problem)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *result;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return g_ptr_array_new_with_free_func (free_func);

  result = load (path, &error);
  if (result == NULL)
    {
      g_ptr_array_add (problems, problem_message (path, error));
      if (out_problem != NULL)
        *out_problem = g_strdup (error->message);
    }
  return result;
}

/* The measurement archive of @dirs in order (built-in, then the user's);
 * each unreadable file or folder appended to @problems. */
GPtrArray *
_hr_session_load_measurements (char * const *dirs,
                   guint         n_dirs,
                   GPtrArray    *problems)
{
  GPtrArray *measurements = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_measurement_free);

  for (guint d = 0; d < n_dirs; d++)
    {
      g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) found = hr_measurement_archive_load (dirs[d], errors, &error);

      if (found == NULL)
        {
          g_ptr_array_add (problems, problem_message (dirs[d], error));
          continue;
        }
      for (guint i = 0; i < errors->len; i++)
        g_ptr_array_add (problems, g_strdup (g_ptr_array_index (errors, i)));
      for (guint i = 0; i < found->len; i++)
        g_ptr_array_add (measurements, g_steal_pointer (&found->pdata[i]));
      g_ptr_array_set_free_func (found, NULL);
    }
  return measurements;
}

/* Reads every file into @data (any thread). */
void
_hr_session_load_data_run (LoadData *data)
{
  g_autoptr(GPtrArray) user_catalog = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *user_dir = g_path_get_dirname (data->user_catalog_path);

  /* What an interrupted save left beside catalog.json and boards.json
   * (the archive's folder is cleaned as it is read). */
  hr_file_remove_stale_temporaries (user_dir);

  /* The catalog */
  data->catalog = hr_catalog_load_file (data->builtin_catalog, &error);
  if (data->catalog == NULL)
    {
      g_ptr_array_add (data->problems, problem_message (data->builtin_catalog, error));
      g_clear_error (&error);
      data->catalog = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
    }
  user_catalog = load_user_file (data->user_catalog_path, hr_catalog_load_file,
                                 (GDestroyNotify) hr_model_spec_free, data->problems, NULL);
  if (user_catalog != NULL)
    hr_catalog_merge (data->catalog, user_catalog);

  /* The boards */
  data->boards = hr_boards_load_file (data->builtin_boards, &error);
  if (data->boards == NULL)
    {
      g_ptr_array_add (data->problems, problem_message (data->builtin_boards, error));
      g_clear_error (&error);
      data->boards = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_board_free);
    }
  data->user_boards = load_user_file (data->user_boards_path, hr_boards_load_file,
                                      (GDestroyNotify) hr_board_free, data->problems,
                                      &data->user_boards_problem);
  if (data->user_boards != NULL)
    hr_boards_merge (data->boards, data->user_boards);
  if (data->boards->len == 0)
    g_ptr_array_add (data->boards, hr_board_new ("none", _("No board")));

  data->measurements = _hr_session_load_measurements (data->measurement_dirs,
                                          G_N_ELEMENTS (data->measurement_dirs), data->problems);

  /* The prior efficiencies: without the file a board with no measurement
   * has no rate, as before the priors; a file that is there but cannot be
   * read is named like the others. */
  data->priors = hr_priors_load_file (data->builtin_priors, &error);
  if (data->priors == NULL)
    {
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_ptr_array_add (data->problems, problem_message (data->builtin_priors, error));
      g_clear_error (&error);
    }
}
