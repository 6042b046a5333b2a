/* hr-variant-dialog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_VARIANT_DIALOG (hr_variant_dialog_get_type ())

G_DECLARE_FINAL_TYPE (HrVariantDialog, hr_variant_dialog, HR, VARIANT_DIALOG, AdwMessageDialog)

HrVariantDialog *hr_variant_dialog_new          (GtkWindow       *parent,
                                                 HrSession       *session,
                                                 const char      *url,
                                                 const char      *source,
                                                 guint32          context,
                                                 gint32           num_gpu);
gboolean         hr_variant_dialog_is_ready     (HrVariantDialog *self);
const char      *hr_variant_dialog_get_request  (HrVariantDialog *self);
const char      *hr_variant_dialog_get_status   (HrVariantDialog *self);
void             hr_variant_dialog_set_use_keyring (HrVariantDialog *self,
                                                    gboolean         use_keyring);

G_END_DECLS
