/* hr-scroll-content.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A bin for what a GtkScrolledWindow scrolls vertically: the sidebar's
 * controls and the explain panel's steps, long columns of wrapping text.
 *
 * GTK 4.8's scrolled window asks its child for its height with no width
 * given (gtk/gtkscrolledwindow.c, gtk_scrolled_window_measure(): always
 * for_size -1, in both orientations) and, when it scrolls vertically
 * (#GtkScrolledWindow:vscrollbar-policy other than %GTK_POLICY_NEVER) and
 * does not propagate its child's natural height, throws the answer away:
 * its own height comes from #GtkScrolledWindow:min-content-height alone.
 * The viewport it puts around a child that cannot scroll itself asks the
 * height only at a width (gtk/gtkviewport.c, gtk_viewport_size_allocate()).
 * A height with no width costs, for each wrapping label in the column, two
 * more layouts of its text (unwrapped, and at its natural width:
 * gtk/gtklabel.c, get_height_for_width()), and every box, clamp and row
 * above them is measured once more in that mode: 4-5 ms of the 70-77 ms
 * the Models page's first full layout takes (bench-startup's machine,
 * cairo).
 *
 * This bin (an AdwBin, which holds the child) answers that one question
 * with 0 without asking its child, only while its scrolled window would
 * throw the answer away; every other request, and the allocation, go to
 * the child unchanged.
 */

#include "config.h"

#include "hr-scroll-content.h"

struct _HrScrollContent
{
  AdwBin parent_instance;
};

G_DEFINE_FINAL_TYPE (HrScrollContent, hr_scroll_content, ADW_TYPE_BIN)

/**
 * hr_scroll_content_height_is_unused:
 * @self: a bin
 *
 * Whether the height @self would give with no width is thrown away: @self
 * is the child of a GtkViewport that is the child of a GtkScrolledWindow
 * that scrolls vertically (vscrollbar-policy not %GTK_POLICY_NEVER) and
 * does not propagate its child's natural height. The rule is GTK 4.8's
 * gtk_scrolled_window_measure() (gtk/gtkscrolledwindow.c).
 *
 * Returns: %TRUE when no one uses that height
 */
gboolean
hr_scroll_content_height_is_unused (HrScrollContent *self)
{
  GtkWidget *viewport, *scrolled;
  GtkPolicyType vertical;

  g_return_val_if_fail (HR_IS_SCROLL_CONTENT (self), FALSE);

  viewport = gtk_widget_get_parent (GTK_WIDGET (self));
  if (!GTK_IS_VIEWPORT (viewport))
    return FALSE;
  scrolled = gtk_widget_get_parent (viewport);
  if (!GTK_IS_SCROLLED_WINDOW (scrolled))
    return FALSE;
  gtk_scrolled_window_get_policy (GTK_SCROLLED_WINDOW (scrolled), NULL, &vertical);
  return vertical != GTK_POLICY_NEVER &&
         !gtk_scrolled_window_get_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled));
}

static void
hr_scroll_content_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  GtkWidget *child = adw_bin_get_child (ADW_BIN (widget));

  if (child == NULL || !gtk_widget_should_layout (child) ||
      (orientation == GTK_ORIENTATION_VERTICAL && for_size < 0 &&
       hr_scroll_content_height_is_unused (HR_SCROLL_CONTENT (widget))))
    {
      *minimum = *natural = 0;
      return;
    }
  gtk_widget_measure (child, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
}

static void
hr_scroll_content_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  GtkWidget *child = adw_bin_get_child (ADW_BIN (widget));

  if (child != NULL && gtk_widget_should_layout (child))
    gtk_widget_allocate (child, width, height, baseline, NULL);
}

static GtkSizeRequestMode
hr_scroll_content_get_request_mode (GtkWidget *widget)
{
  GtkWidget *child = adw_bin_get_child (ADW_BIN (widget));

  return child != NULL ? gtk_widget_get_request_mode (child) : GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
hr_scroll_content_class_init (HrScrollContentClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->measure = hr_scroll_content_measure;
  widget_class->size_allocate = hr_scroll_content_size_allocate;
  widget_class->get_request_mode = hr_scroll_content_get_request_mode;

  gtk_widget_class_set_css_name (widget_class, "scrollcontent");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void
hr_scroll_content_init (HrScrollContent *self)
{
  /* AdwBin measures through a GtkBinLayout; without a layout manager GTK
   * asks the widget's own measure() and size_allocate() above. */
  gtk_widget_set_layout_manager (GTK_WIDGET (self), NULL);
}

/**
 * hr_scroll_content_new:
 * @child: (nullable): what is scrolled
 *
 * Returns: (transfer floating): a new bin holding @child
 *   (adw_bin_get_child() gives it back)
 */
GtkWidget *
hr_scroll_content_new (GtkWidget *child)
{
  return g_object_new (HR_TYPE_SCROLL_CONTENT, "child", child, NULL);
}
