/* hr-hub-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "hr-hub-page.h"

struct _HrHubPage
{
  AdwBin parent_instance;
};

G_DEFINE_FINAL_TYPE (HrHubPage, hr_hub_page, ADW_TYPE_BIN)

static void
hr_hub_page_class_init (HrHubPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/hr-hub-page.ui");
}

static void
hr_hub_page_init (HrHubPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * hr_hub_page_new:
 *
 * Returns: (transfer floating): a new #HrHubPage
 */
GtkWidget *
hr_hub_page_new (void)
{
  return g_object_new (HR_TYPE_HUB_PAGE, NULL);
}
