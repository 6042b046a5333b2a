/* hr-hub-cards.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The four answer cards of the Hugging Face page (hr-hub-cards.c).
 */
#pragma once

#include <gtk/gtk.h>

#include "hr-hub-client.h"

G_BEGIN_DECLS

void hr_hub_cards_append (GtkBox            *box,
                          const HrHubLookup *lookup);

G_END_DECLS
