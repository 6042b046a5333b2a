/* hr-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrApplication: the AdwApplication io.github.headroom.Headroom, its
 * app-wide actions (quit, about, preferences, shortcuts) and their keys,
 * and the one HrSession and HrScenario its windows share.
 */
#pragma once

#include <adwaita.h>

#include "hr-scenario.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_APPLICATION (hr_application_get_type ())

G_DECLARE_FINAL_TYPE (HrApplication, hr_application, HR, APPLICATION, AdwApplication)

HrApplication *hr_application_new          (void);
GSettings     *hr_application_get_settings (HrApplication *self);
HrSession     *hr_application_get_session  (HrApplication *self);
HrScenario    *hr_application_get_scenario (HrApplication *self);

G_END_DECLS
