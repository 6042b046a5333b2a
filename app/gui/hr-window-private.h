/* hr-window-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What hr-window-actions.c and the tests reach inside the window.
 */
#pragma once

#include "gguf/hr-gguf-page.h"
#include "models/hr-models-page.h"
#include "hr-window.h"

G_BEGIN_DECLS

typedef enum {
  HR_EXPORT_PNG,
  HR_EXPORT_SVG,
  HR_EXPORT_CSV,
} HrExportKind;

HrModelsPage *hr_window_get_models_page   (HrWindow        *self);
void          hr_window_add_toast         (HrWindow        *self,
                                           const char      *message);
GPtrArray    *hr_window_get_messages      (HrWindow        *self);
AdwViewStack *hr_window_get_stack         (HrWindow        *self);
GtkWidget    *hr_window_get_page          (HrWindow        *self,
                                           const char      *name);
HrGgufPage   *hr_window_get_gguf_page     (HrWindow        *self);
HrSession    *hr_window_get_session       (HrWindow        *self);
HrScenario   *hr_window_get_scenario      (HrWindow        *self);
AdwToastOverlay *hr_window_get_toast_overlay (HrWindow      *self);
void          hr_window_show_toast        (HrWindow        *self,
                                           const char      *kind,
                                           const char      *message,
                                           const char      *button_label,
                                           const char      *action_name,
                                           GVariant        *action_target);
AdwToast     *hr_window_peek_toast        (HrWindow        *self,
                                           const char      *kind);
gboolean      hr_window_export_to         (HrWindow        *self,
                                           HrExportKind     kind,
                                           const char      *path);
void          _hr_window_class_actions_init (GtkWidgetClass *widget_class);

G_END_DECLS
