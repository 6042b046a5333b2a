/* hr-session-measurements.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrSession's measurement records one by one (deleting one, putting it
 * back) and the board a saved server belongs to by default. Built only on
 * HrSession's public API (hr-session.c).
 */
#include "config.h"

#include "hr-catalog.h"
#include "hr-session.h"

/**
 * hr_session_delete_measurement:
 * @self: a #HrSession
 * @id: the record's id (hr_measurement_dup_id())
 * @error: return location for a #GError
 *
 * Deletes one record of the user's archive (hr_data_measurements_dir()):
 * its file is removed, atomically (hr_measurement_archive_remove()), the
 * archive is read again and #HrSession::measurements-changed is emitted.
 * Built-in records are never deleted.
 *
 * Returns: (transfer full) (nullable): the deleted record as it was on
 *   disk, for hr_session_restore_measurement(); %NULL with
 *   hr_measurement_archive_remove()'s error
 */
HrMeasurement *
hr_session_delete_measurement (HrSession   *self,
                               const char  *id,
                               GError     **error)
{
  g_autofree char *dir = NULL;
  HrMeasurement *removed = NULL;

  g_return_val_if_fail (HR_IS_SESSION (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  dir = hr_session_dup_measurements_dir (self);
  if (!hr_measurement_archive_remove (hr_session_get_measurements (self), dir, id, &removed, error))
    return NULL;
  hr_session_reload_measurements (self);
  return removed;
}

/**
 * hr_session_restore_measurement:
 * @self: a #HrSession
 * @measurement: what hr_session_delete_measurement() returned
 * @error: return location for a #GError
 *
 * Undoes a delete: writes the record back to its file, atomically
 * (hr_measurement_restore()), reads the archive again and emits
 * #HrSession::measurements-changed.
 *
 * Returns: %TRUE when restored; %FALSE with hr_measurement_restore()'s error
 */
gboolean
hr_session_restore_measurement (HrSession            *self,
                                const HrMeasurement  *measurement,
                                GError              **error)
{
  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (measurement != NULL, FALSE);

  if (!hr_measurement_restore (measurement, error))
    return FALSE;
  hr_session_reload_measurements (self);
  return TRUE;
}

/**
 * hr_session_is_measurement_deletable:
 * @self: a #HrSession
 * @measurement: a record of hr_session_get_measurements()
 *
 * Returns: whether @measurement is in the user's archive (built-in records
 *   are part of the installed data and never deleted)
 */
gboolean
hr_session_is_measurement_deletable (HrSession           *self,
                                     const HrMeasurement *measurement)
{
  g_autofree char *dir = NULL;
  g_autofree char *parent = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (measurement != NULL, FALSE);

  if (measurement->path == NULL)
    return FALSE;
  dir = hr_session_dup_measurements_dir (self);
  parent = g_path_get_dirname (measurement->path);
  a = g_canonicalize_filename (dir, NULL);
  b = g_canonicalize_filename (parent, NULL);
  return g_strcmp0 (a, b) == 0;
}

/**
 * hr_session_get_last_server_board:
 * @self: a #HrSession
 *
 * The board chosen last for a server: that of the server connected to last
 * ("last-ollama-board"), else that of the newest saved server, provided
 * the board still exists. What the board chooser offers first.
 *
 * Returns: (transfer none) (nullable): a board id, or %NULL when no saved
 *   server names a known board
 */
const char *
hr_session_get_last_server_board (HrSession *self)
{
  g_autofree char *last = NULL;
  const char *id;
  GArray *servers;

  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  last = hr_session_dup_last_server (self);
  id = hr_session_get_server_board (self, last);
  if (id != NULL && hr_session_find_board (self, id) != NULL)
    return id;
  servers = hr_session_get_servers (self);
  for (guint i = servers->len; i > 0; i--)
    {
      const HrSavedServer *server = &g_array_index (servers, HrSavedServer, i - 1);

      if (hr_session_find_board (self, server->board_id) != NULL)
        return server->board_id;
    }
  return NULL;
}
