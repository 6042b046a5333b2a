/* hr-board-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "hr-board-page.h"

struct _HrBoardPage
{
  AdwBin parent_instance;
};

G_DEFINE_FINAL_TYPE (HrBoardPage, hr_board_page, ADW_TYPE_BIN)

static void
hr_board_page_class_init (HrBoardPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/hr-board-page.ui");
}

static void
hr_board_page_init (HrBoardPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * hr_board_page_new:
 *
 * Returns: (transfer floating): a new #HrBoardPage
 */
GtkWidget *
hr_board_page_new (void)
{
  return g_object_new (HR_TYPE_BOARD_PAGE, NULL);
}
