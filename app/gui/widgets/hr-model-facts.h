/* hr-model-facts.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fact cards the Hugging Face and the File pages show: a boxed list
 * (AdwPreferencesGroup) per question, one AdwActionRow per fact with its
 * value as selectable text at the end and where it came from underneath.
 */
#pragma once

#include <adwaita.h>

#include "hr-model-spec.h"

G_BEGIN_DECLS

GtkWidget  *hr_model_facts_group_new   (const char  *title,
                                        const char  *description);
GtkWidget  *hr_model_facts_add         (GtkWidget   *group,
                                        const char  *title,
                                        const char  *value,
                                        const char  *subtitle);
GtkWidget  *hr_model_facts_add_warning (GtkWidget   *group,
                                        const char  *title,
                                        const char  *text);
GtkWidget  *hr_model_facts_find_row    (GtkWidget   *root,
                                        const char  *title);
const char *hr_model_facts_get_value   (GtkWidget   *root,
                                        const char  *title);
const char *hr_model_facts_get_subtitle (GtkWidget  *root,
                                        const char  *title);
void        hr_model_facts_set_value   (GtkWidget   *row,
                                        const char  *value);
void        hr_model_facts_add_layer_kinds (GtkWidget         *group,
                                            const HrModelSpec *spec);
void        hr_model_facts_clear       (GtkBox      *box);

G_END_DECLS
