/* hr-catalog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Loading and saving the catalog (models), the boards, and the measurement
 * archive as JSON. Built-in files ship in data/; the user's copies in
 * $XDG_DATA_HOME/headroom/ win by name/id. Saves are atomic (write a
 * temporary file, fsync, rename), so a failed save leaves the old file.
 * A malformed file gives an HR_CORE_ERROR naming the file, the line and the
 * field; nothing on disk is touched by a load.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include "hr-board.h"
#include "hr-model-spec.h"

G_BEGIN_DECLS

/* Catalog: GPtrArray of HrModelSpec* (owned, free func set). */
GPtrArray *hr_catalog_load_file   (const char   *path,
                                   GError      **error);
GPtrArray *hr_catalog_load_data   (const char   *data,
                                   gssize        length,
                                   const char   *display_name,
                                   GError      **error);
gboolean   hr_catalog_save_file   (GPtrArray    *specs,
                                   const char   *path,
                                   GError      **error);
char      *hr_catalog_to_data     (GPtrArray    *specs,
                                   gsize        *out_length);
void       hr_catalog_merge       (GPtrArray    *into,
                                   GPtrArray    *overrides);
HrModelSpec *hr_catalog_find      (GPtrArray    *specs,
                                   const char   *name);

/* Boards: GPtrArray of HrBoard* (owned). */
GPtrArray *hr_boards_load_file    (const char   *path,
                                   GError      **error);
GPtrArray *hr_boards_load_data    (const char   *data,
                                   gssize        length,
                                   const char   *display_name,
                                   GError      **error);
JsonNode  *hr_board_to_json       (const HrBoard *board);
gboolean   hr_boards_save_file    (GPtrArray    *boards,
                                   const char   *path,
                                   GError      **error);
void       hr_boards_merge        (GPtrArray    *into,
                                   GPtrArray    *overrides);
HrBoard   *hr_boards_find         (GPtrArray    *boards,
                                   const char   *id_or_name);

/* Where the files live. */
const char *hr_data_builtin_dir   (void);
char       *hr_data_user_dir      (void);
char       *hr_data_user_file     (const char   *basename);
char       *hr_data_measurements_dir (void);

gboolean   hr_file_save_atomic    (const char   *path,
                                   const char   *contents,
                                   gssize        length,
                                   GError      **error);

G_END_DECLS
