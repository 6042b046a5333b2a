/* hr-hub-page-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the tests of the Hugging Face page read and set (tests/test-hub-page.c):
 * not for other pages.
 */
#pragma once

#include "hr-hub-page.h"

G_BEGIN_DECLS

void               hr_hub_page_set_client      (HrHubPage     *self,
                                                HrHubClient   *client);
const char        *hr_hub_page_get_state       (HrHubPage     *self);
const HrHubLookup *hr_hub_page_get_lookup      (HrHubPage     *self);
GtkWidget         *hr_hub_page_get_cards       (HrHubPage     *self);
AdwStatusPage     *hr_hub_page_get_error_page  (HrHubPage     *self);
HrSpecMemory      *hr_hub_page_get_memory      (HrHubPage     *self);
GtkEditable       *hr_hub_page_get_entry       (HrHubPage     *self);
const char        *hr_hub_page_get_token_status (HrHubPage    *self);
AdwPasswordEntryRow *hr_hub_page_get_token_row  (HrHubPage     *self);

G_END_DECLS
