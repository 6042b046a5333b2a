/* hr-servers-overview.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "hr-page.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_SERVERS_OVERVIEW (hr_servers_overview_get_type ())

G_DECLARE_FINAL_TYPE (HrServersOverview, hr_servers_overview, HR, SERVERS_OVERVIEW, HrPage)

GtkWidget *hr_servers_overview_new        (void);
void       hr_servers_overview_refresh    (HrServersOverview *self);
gboolean   hr_servers_overview_is_busy    (HrServersOverview *self);
void       hr_servers_overview_set_use_keyring (HrServersOverview *self,
                                                gboolean           use_keyring);

G_END_DECLS
