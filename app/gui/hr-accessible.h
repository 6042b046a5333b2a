/* hr-accessible.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

void hr_accessible_name_expander_row (AdwExpanderRow *row);
void hr_accessible_name_combo_row    (AdwComboRow    *row);
void hr_accessible_name_group        (AdwPreferencesGroup *group,
                                      const char          *label);
void hr_accessible_name_status_page  (AdwStatusPage  *page,
                                      const char     *fallback);
void hr_accessible_name_parts        (GtkWidget      *root);

G_END_DECLS
