/* hr-rename-dialog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Rename…" for a model the user added (the explain panel's button): a
 * message dialog with the name in an entry, checked as it is typed.
 */
#pragma once

#include <adwaita.h>

#include "hr-session.h"

G_BEGIN_DECLS

GtkWidget  *hr_rename_dialog_new     (GtkWindow  *parent,
                                      HrSession  *session,
                                      const char *name);
const char *hr_rename_dialog_problem (HrSession  *session,
                                      const char *name,
                                      const char *new_name);

G_END_DECLS
