/* test-scroll-content.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrScrollContent: inside a GtkScrolledWindow that scrolls vertically and
 * does not propagate its child's natural height, a height asked with no
 * width is answered with 0 and never reaches the child; any other request,
 * and any other parent, reaches it unchanged; and the scrolled window's
 * own sizes, and what it scrolls, are the same with the bin as without;
 * and Tab reaches what it holds.
 */

#include "config.h"

#include "gui-test-util.h"
#include "hr-scroll-content.h"

static HrApplication *test_app;
static char *isolated_root;

/* A child that counts the heights it is asked with no width: 120 px wide
 * at least, 200 natural; 400 px tall with no width, 50 px per 100 px of a
 * given width's shortfall below 200 otherwise (a wrapping text's shape). */
#define TEST_TYPE_COUNTING (test_counting_get_type ())
G_DECLARE_FINAL_TYPE (TestCounting, test_counting, TEST, COUNTING, GtkWidget)

struct _TestCounting
{
  GtkWidget parent_instance;
  guint     heights_without_width;
};

G_DEFINE_FINAL_TYPE (TestCounting, test_counting, GTK_TYPE_WIDGET)

static void
test_counting_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  TestCounting *self = TEST_COUNTING (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 120;
      *natural = 200;
    }
  else if (for_size < 0)
    {
      self->heights_without_width++;
      *minimum = *natural = 400;
    }
  else
    {
      *minimum = *natural = 100 + MAX (0, 200 - for_size) / 2;
    }
}

static GtkSizeRequestMode
test_counting_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
test_counting_class_init (TestCountingClass *klass)
{
  GTK_WIDGET_CLASS (klass)->measure = test_counting_measure;
  GTK_WIDGET_CLASS (klass)->get_request_mode = test_counting_get_request_mode;
}

static void
test_counting_init (TestCounting *self)
{
}

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *window = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (window), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (window), child);
  return g_object_ref_sink (window);
}

static void
measure (GtkWidget      *widget,
         GtkOrientation  orientation,
         int             for_size,
         int            *minimum,
         int            *natural)
{
  gtk_widget_measure (widget, orientation, for_size, minimum, natural, NULL, NULL);
}

static void
test_scroll_content_unused_height (void)
{
  GtkWidget *child = g_object_new (TEST_TYPE_COUNTING, NULL);
  GtkWidget *bin = hr_scroll_content_new (child);
  g_autoptr(GtkWidget) window = scrolled (bin);
  int min, nat;

  g_assert_true (adw_bin_get_child (ADW_BIN (bin)) == child);
  g_assert_true (GTK_IS_VIEWPORT (gtk_widget_get_parent (bin)));
  g_assert_true (hr_scroll_content_height_is_unused (HR_SCROLL_CONTENT (bin)));

  /* The scrolled window's own measure asks; the child is not asked. */
  measure (window, GTK_ORIENTATION_VERTICAL, -1, &min, &nat);
  measure (bin, GTK_ORIENTATION_VERTICAL, -1, &min, &nat);
  g_assert_cmpint (min, ==, 0);
  g_assert_cmpint (nat, ==, 0);
  g_assert_cmpuint (TEST_COUNTING (child)->heights_without_width, ==, 0);

  /* Every other request reaches it. */
  measure (bin, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat);
  g_assert_cmpint (min, ==, 120);
  g_assert_cmpint (nat, ==, 200);
  measure (bin, GTK_ORIENTATION_VERTICAL, 160, &min, &nat);
  g_assert_cmpint (min, ==, 120);
  g_assert_cmpint (nat, ==, 120);
  g_assert_cmpint (gtk_widget_get_request_mode (bin), ==, GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH);
}

static void
test_scroll_content_used_height (void)
{
  GtkWidget *child = g_object_new (TEST_TYPE_COUNTING, NULL);
  GtkWidget *bin = hr_scroll_content_new (child);
  g_autoptr(GtkWidget) window = scrolled (bin);
  g_autoptr(GtkWidget) alone = g_object_ref_sink (hr_scroll_content_new (NULL));
  int min, nat;

  /* Propagating the natural height uses it. */
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (window), TRUE);
  g_assert_false (hr_scroll_content_height_is_unused (HR_SCROLL_CONTENT (bin)));
  measure (bin, GTK_ORIENTATION_VERTICAL, -1, &min, &nat);
  g_assert_cmpint (min, ==, 400);
  g_assert_cmpuint (TEST_COUNTING (child)->heights_without_width, ==, 1);
  measure (window, GTK_ORIENTATION_VERTICAL, -1, &min, &nat);
  g_assert_cmpint (nat, ==, 400);

  /* So does a window that does not scroll vertically: its minimum. */
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (window), FALSE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (window), GTK_POLICY_NEVER, GTK_POLICY_NEVER);
  g_assert_false (hr_scroll_content_height_is_unused (HR_SCROLL_CONTENT (bin)));
  measure (window, GTK_ORIENTATION_VERTICAL, -1, &min, &nat);
  g_assert_cmpint (min, ==, 400);

  /* Outside a scrolled window the bin is only a bin. */
  g_assert_false (hr_scroll_content_height_is_unused (HR_SCROLL_CONTENT (alone)));
  adw_bin_set_child (ADW_BIN (alone), g_object_new (TEST_TYPE_COUNTING, NULL));
  measure (alone, GTK_ORIENTATION_VERTICAL, -1, &min, &nat);
  g_assert_cmpint (min, ==, 400);
  adw_bin_set_child (ADW_BIN (alone), NULL);
  measure (alone, GTK_ORIENTATION_VERTICAL, -1, &min, &nat);
  g_assert_cmpint (min, ==, 0);
}

/* What the scrolled window reports and scrolls, with and without the bin,
 * for a long wrapping text at two widths. */
static void
test_scroll_content_same_sizes (void)
{
  const char *text = "4,200,000,000 bytes x 8 / 7,000,000,000 parameters = 4.80 bits per "
                     "weight in the real file; the plain math: the file as pulled (q4_K_M).";
  g_autoptr(GtkWidget) plain = scrolled (gtk_label_new (text));
  g_autoptr(GtkWidget) wrapped = NULL;
  GtkWidget *labels[2];

  wrapped = scrolled (hr_scroll_content_new (gtk_label_new (text)));
  labels[0] = gtk_viewport_get_child (GTK_VIEWPORT (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (plain))));
  labels[1] = adw_bin_get_child (ADW_BIN (
    gtk_viewport_get_child (GTK_VIEWPORT (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (wrapped))))));
  for (guint i = 0; i < 2; i++)
    gtk_label_set_wrap (GTK_LABEL (labels[i]), TRUE);

  for (GtkOrientation o = GTK_ORIENTATION_HORIZONTAL; o <= GTK_ORIENTATION_VERTICAL; o++)
    for (int for_size = -1; for_size <= 300; for_size += 301)
      {
        int min[2], nat[2];

        measure (plain, o, for_size, &min[0], &nat[0]);
        measure (wrapped, o, for_size, &min[1], &nat[1]);
        g_assert_cmpint (min[0], ==, min[1]);
        g_assert_cmpint (nat[0], ==, nat[1]);
      }

  for (int width = 80; width <= 320; width += 240)
    {
      double upper[2];

      gtk_widget_allocate (plain, width, 40, -1, NULL);
      gtk_widget_allocate (wrapped, width, 40, -1, NULL);
      upper[0] = gtk_adjustment_get_upper (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (plain)));
      upper[1] = gtk_adjustment_get_upper (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (wrapped)));
      /* Taller than the window: it scrolls, and by as much either way. */
      g_assert_cmpfloat (upper[0], >, 40);
      g_assert_cmpfloat (upper[0], ==, upper[1]);
      g_assert_cmpint (gtk_widget_get_height (labels[0]), ==, gtk_widget_get_height (labels[1]));
      g_assert_cmpint (gtk_widget_get_width (labels[0]), ==, gtk_widget_get_width (labels[1]));
    }
}

/* Tab reaches what the bin holds, in order, as it would without the bin. */
static void
test_scroll_content_focus (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *first = gtk_button_new_with_label ("First");
  GtkWidget *second = gtk_button_new_with_label ("Second");
  g_autoptr(GtkWidget) window_scroller = NULL;

  gtk_box_append (GTK_BOX (box), first);
  gtk_box_append (GTK_BOX (box), second);
  window_scroller = scrolled (hr_scroll_content_new (box));
  gtk_window_set_child (GTK_WINDOW (window), window_scroller);
  gtk_window_present (GTK_WINDOW (window));
  gtk_root_set_focus (GTK_ROOT (window), NULL);

  g_assert_true (gtk_widget_child_focus (window, GTK_DIR_TAB_FORWARD));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == first);
  g_assert_true (gtk_widget_child_focus (window, GTK_DIR_TAB_FORWARD));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == second);
  g_assert_true (gtk_widget_child_focus (window, GTK_DIR_TAB_BACKWARD));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == first);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_DEFAULT);

  g_test_add_func ("/scroll-content/unused-height", test_scroll_content_unused_height);
  g_test_add_func ("/scroll-content/used-height", test_scroll_content_used_height);
  g_test_add_func ("/scroll-content/same-sizes", test_scroll_content_same_sizes);
  g_test_add_func ("/scroll-content/focus", test_scroll_content_focus);

  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &isolated_root);
}
