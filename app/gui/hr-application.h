/* hr-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrApplication: the AdwApplication io.github.headroom.Headroom, its
 * app-wide actions (quit, about, preferences, shortcuts) and their keys.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define HR_TYPE_APPLICATION (hr_application_get_type ())

G_DECLARE_FINAL_TYPE (HrApplication, hr_application, HR, APPLICATION, AdwApplication)

HrApplication *hr_application_new (void);

G_END_DECLS
