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
 * This bin answers that one question with 0 without asking its child, only
 * while its scrolled window would throw the answer away; every other
 * request, and the allocation, go to the child unchanged.
 */

#include "config.h"

#include "hr-scroll-content.h"

struct _HrScrollContent
{
  GtkWidget  parent_instance;

  GtkWidget *child;
};

G_DEFINE_FINAL_TYPE (HrScrollContent, hr_scroll_content, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CHILD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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
  HrScrollContent *self = HR_SCROLL_CONTENT (widget);

  if (self->child == NULL || !gtk_widget_should_layout (self->child) ||
      (orientation == GTK_ORIENTATION_VERTICAL && for_size < 0 &&
       hr_scroll_content_height_is_unused (self)))
    {
      *minimum = *natural = 0;
      return;
    }
  gtk_widget_measure (self->child, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
}

static void
hr_scroll_content_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  HrScrollContent *self = HR_SCROLL_CONTENT (widget);

  if (self->child != NULL && gtk_widget_should_layout (self->child))
    gtk_widget_allocate (self->child, width, height, baseline, NULL);
}

static GtkSizeRequestMode
hr_scroll_content_get_request_mode (GtkWidget *widget)
{
  HrScrollContent *self = HR_SCROLL_CONTENT (widget);

  return self->child != NULL ? gtk_widget_get_request_mode (self->child)
                             : GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static void
hr_scroll_content_compute_expand (GtkWidget *widget,
                                  gboolean  *hexpand,
                                  gboolean  *vexpand)
{
  HrScrollContent *self = HR_SCROLL_CONTENT (widget);

  *hexpand = self->child != NULL && gtk_widget_compute_expand (self->child, GTK_ORIENTATION_HORIZONTAL);
  *vexpand = self->child != NULL && gtk_widget_compute_expand (self->child, GTK_ORIENTATION_VERTICAL);
}

static void
hr_scroll_content_dispose (GObject *object)
{
  HrScrollContent *self = HR_SCROLL_CONTENT (object);

  g_clear_pointer (&self->child, gtk_widget_unparent);

  G_OBJECT_CLASS (hr_scroll_content_parent_class)->dispose (object);
}

static void
hr_scroll_content_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  HrScrollContent *self = HR_SCROLL_CONTENT (object);

  switch (prop_id)
    {
    case PROP_CHILD:
      g_value_set_object (value, self->child);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_scroll_content_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  HrScrollContent *self = HR_SCROLL_CONTENT (object);

  switch (prop_id)
    {
    case PROP_CHILD:
      hr_scroll_content_set_child (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_scroll_content_class_init (HrScrollContentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_scroll_content_dispose;
  object_class->get_property = hr_scroll_content_get_property;
  object_class->set_property = hr_scroll_content_set_property;

  widget_class->measure = hr_scroll_content_measure;
  widget_class->size_allocate = hr_scroll_content_size_allocate;
  widget_class->get_request_mode = hr_scroll_content_get_request_mode;
  widget_class->compute_expand = hr_scroll_content_compute_expand;

  /**
   * HrScrollContent:child:
   *
   * What is scrolled.
   */
  properties[PROP_CHILD] =
    g_param_spec_object ("child", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "scrollcontent");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void
hr_scroll_content_init (HrScrollContent *self)
{
}

/**
 * hr_scroll_content_new:
 * @child: (nullable): what is scrolled
 *
 * Returns: (transfer floating): a new bin holding @child
 */
GtkWidget *
hr_scroll_content_new (GtkWidget *child)
{
  return g_object_new (HR_TYPE_SCROLL_CONTENT, "child", child, NULL);
}

/**
 * hr_scroll_content_get_child:
 * @self: a bin
 *
 * Returns: (transfer none) (nullable): what @self holds
 */
GtkWidget *
hr_scroll_content_get_child (HrScrollContent *self)
{
  g_return_val_if_fail (HR_IS_SCROLL_CONTENT (self), NULL);

  return self->child;
}

/**
 * hr_scroll_content_set_child:
 * @self: a bin
 * @child: (nullable): what is scrolled, replacing what @self held
 */
void
hr_scroll_content_set_child (HrScrollContent *self,
                             GtkWidget       *child)
{
  g_return_if_fail (HR_IS_SCROLL_CONTENT (self));
  g_return_if_fail (child == NULL || GTK_IS_WIDGET (child));

  if (self->child == child)
    return;
  g_clear_pointer (&self->child, gtk_widget_unparent);
  if (child != NULL)
    {
      self->child = child;
      gtk_widget_set_parent (child, GTK_WIDGET (self));
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHILD]);
}
