/* hr-window-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What hr-window-actions.c and the tests reach inside the window.
 */
#pragma once

#include "hr-gguf-page.h"
#include "hr-models-page.h"
#include "hr-window.h"

G_BEGIN_DECLS

HrModelsPage *hr_window_get_models_page   (HrWindow        *self);
void          hr_window_add_toast         (HrWindow        *self,
                                           const char      *message);
GPtrArray    *hr_window_get_messages      (HrWindow        *self);
AdwViewStack *hr_window_get_stack         (HrWindow        *self);
HrGgufPage   *hr_window_get_gguf_page     (HrWindow        *self);
void          _hr_window_class_actions_init (GtkWidgetClass *widget_class);

G_END_DECLS
