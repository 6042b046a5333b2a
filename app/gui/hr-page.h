/* hr-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrPage: what every page of the window is (the Models, Hugging Face,
 * Board and File pages): an AdwBin that carries the application's session
 * and scenario as its "session" and "scenario" properties. The window sets
 * them once; a page's template binds its children to them
 * (<lookup name="scenario">HrModelsPage</lookup>), and a page that must do
 * more when one arrives implements session_set() or scenario_set().
 */
#pragma once

#include <adwaita.h>

#include "hr-scenario.h"
#include "hr-session.h"

G_BEGIN_DECLS

#define HR_TYPE_PAGE (hr_page_get_type ())

G_DECLARE_DERIVABLE_TYPE (HrPage, hr_page, HR, PAGE, AdwBin)

/**
 * HrPageClass:
 * @parent_class: the parent class
 * @session_set: the page was given its session (hr_page_get_session())
 * @scenario_set: the page was given its scenario (hr_page_get_scenario())
 */
struct _HrPageClass
{
  AdwBinClass parent_class;

  void (*session_set)  (HrPage *self);
  void (*scenario_set) (HrPage *self);
};

HrSession  *hr_page_get_session  (HrPage     *self);
void        hr_page_set_session  (HrPage     *self,
                                  HrSession  *session);
HrScenario *hr_page_get_scenario (HrPage     *self);
void        hr_page_set_scenario (HrPage     *self,
                                  HrScenario *scenario);

G_END_DECLS
