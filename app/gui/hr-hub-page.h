/* hr-hub-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrHubPage: the Hugging Face page: look up a model on the Hub and add it to the catalog.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define HR_TYPE_HUB_PAGE (hr_hub_page_get_type ())

G_DECLARE_FINAL_TYPE (HrHubPage, hr_hub_page, HR, HUB_PAGE, AdwBin)

GtkWidget *hr_hub_page_new (void);

G_END_DECLS
