/* hr-catalog-files.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where Headroom's data files live (the built-in data directory, the
 * user's, the measurements archive) and how one is saved: whole, or not
 * at all. Reading and writing their JSON is in hr-catalog.c and
 * hr-catalog-write.c.
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "hr-catalog.h"

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
