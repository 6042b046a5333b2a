/* hr-hub-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrHubPage: the Hugging Face page. A repository id (owner/name[@revision])
 * with recent lookups; the lookup's answer to the seed's four week-3
 * questions as four cards (architecture and size, base or instruct,
 * download, license); the model's memory under the window's shared
 * scenario; and "Add to Catalog". A lookup that fails says why on the page.
 * Its widgets are built the first time it is shown.
 */
#pragma once

#include <adwaita.h>

#include "hr-page.h"

#include "hr-hub-client.h"
#include "hr-scenario.h"
#include "hr-session.h"
#include "hr-spec-memory.h"

G_BEGIN_DECLS

/** HR_HUB_PAGE_MAX_RECENT: how many lookups the recent list keeps. */
#define HR_HUB_PAGE_MAX_RECENT 10

#define HR_TYPE_HUB_PAGE (hr_hub_page_get_type ())

G_DECLARE_FINAL_TYPE (HrHubPage, hr_hub_page, HR, HUB_PAGE, HrPage)

GtkWidget         *hr_hub_page_new             (void);
void               hr_hub_page_look_up         (HrHubPage     *self,
                                                const char    *text);
void               hr_hub_page_cancel          (HrHubPage     *self);
void               hr_hub_page_focus_entry     (HrHubPage     *self);

G_END_DECLS
