/* hr-session-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrSession's file reading (hr-session-files.c): pure, for any thread; the
 * paths are worked out on the calling thread beforehand.
 */
#pragma once

#include "hr-session.h"

G_BEGIN_DECLS

typedef struct {
  /* in */
  char      *builtin_catalog;
  char      *builtin_boards;
  char      *user_catalog_path;
  char      *user_boards_path;
  char      *measurement_dirs[2];  /* built-in, the user's */
  char      *builtin_priors;
  /* out */
  GPtrArray *problems;
  GPtrArray *catalog;
  GPtrArray *boards;
  GPtrArray *user_boards;
  char      *user_boards_problem;
  GPtrArray *measurements;
  HrPriors  *priors;               /* NULL: no priors file (no prior rates) */
} LoadData;

LoadData  *_hr_session_load_data_new      (void);
void       _hr_session_load_data_free     (LoadData     *data);
void       _hr_session_load_data_run      (LoadData     *data);
GPtrArray *_hr_session_load_measurements  (char * const *dirs,
                                           guint         n_dirs,
                                           GPtrArray    *problems);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoadData, _hr_session_load_data_free)

/* The session's list models (hr-session-items.c). */
typedef enum {
  HR_SESSION_LIST_BOARDS,
  HR_SESSION_LIST_MEASUREMENTS,
  HR_SESSION_LIST_SERVERS,
} HrSessionList;

void       _hr_session_sync_list          (HrSession    *self,
                                           HrSessionList which);

G_END_DECLS
