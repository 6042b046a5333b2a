/* hr-hub-info-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Between hr-hub-info.c (the answers into a lookup) and hr-hub-shards.c
 * (the shards' figures). Not for the net layer or the GUI.
 */
#pragma once

#include "hr-hub-info.h"

G_BEGIN_DECLS

void     hr_hub_answers_sum_headers     (HrHubAnswers        *a,
                                         HrSafetensorsHeader *sum,
                                         guint                n_files);
gboolean hr_hub_answers_add_gguf_shards (HrHubAnswers        *a,
                                         GError             **error);
void     hr_hub_answers_note_unknown_dtypes (HrHubAnswers    *a);
void     hr_hub_answers_add_projector   (HrHubAnswers        *a);

G_END_DECLS
