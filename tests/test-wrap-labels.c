/* test-wrap-labels.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hr_wrap_labels_set_min_chars(): which labels get the 8-character floor,
 * that their natural width stays what it was and their minimum grows to
 * the floor; that the longest also answer their width at a height from
 * two layouts (natural-wrap-mode none, ellipsizing past 100 lines) while
 * their height at a width, and their text, stay as they were; and that
 * the Models page's long wrapping labels have it once the window has
 * built its pages.
 */

#include "config.h"

#include "gui-test-util.h"
#include "hr-window-private.h"
#include "hr-wrap-labels.h"

static HrApplication *test_app;
static char *isolated_root;

/* 60 characters, wider than the floor in any font. */
#define LONG_TEXT "4,200,000,000 bytes x 8 / 7,000,000,000 parameters = 4.80 b"

static GtkWidget *
wrapping_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  return label;
}

static void
test_wrap_labels_which (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *long_wrap = wrapping_label (LONG_TEXT);
  GtkWidget *short_wrap = wrapping_label ("Pool 8.00 GB"); /* 12 characters < 16 */
  GtkWidget *long_plain = gtk_label_new (LONG_TEXT);
  GtkWidget *own_chars = wrapping_label (LONG_TEXT);
  GtkWidget *medium_wrap = wrapping_label ("Peak memory bandwidth"); /* 21 characters < 32 */
  GtkWidget *cut_wrap = wrapping_label (LONG_TEXT);
  int min_before, nat_before, min_after, nat_after;
  int hmin_before, hnat_before, hmin_after, hnat_after, line_height;
  PangoLayout *narrow;

  gtk_label_set_width_chars (GTK_LABEL (own_chars), 3);
  gtk_box_append (GTK_BOX (box), long_wrap);
  gtk_box_append (GTK_BOX (box), short_wrap);
  gtk_box_append (GTK_BOX (box), long_plain);
  gtk_box_append (GTK_BOX (box), own_chars);
  gtk_box_append (GTK_BOX (box), medium_wrap);
  gtk_box_append (GTK_BOX (box), cut_wrap);
  /* A row's subtitle: libadwaita ellipsizes it past its subtitle-lines. */
  gtk_label_set_ellipsize (GTK_LABEL (cut_wrap), PANGO_ELLIPSIZE_END);
  gtk_label_set_lines (GTK_LABEL (cut_wrap), 16);
  gtk_window_set_child (GTK_WINDOW (window), box);

  gtk_widget_measure (long_wrap, GTK_ORIENTATION_HORIZONTAL, -1, &min_before, &nat_before, NULL, NULL);
  gtk_widget_measure (long_wrap, GTK_ORIENTATION_VERTICAL, 100, &hmin_before, &hnat_before, NULL, NULL);
  hr_wrap_labels_set_min_chars (window);

  g_assert_cmpint (gtk_label_get_width_chars (GTK_LABEL (long_wrap)), ==, HR_WRAP_LABELS_MIN_CHARS);
  g_assert_cmpint (HR_WRAP_LABELS_MIN_CHARS, ==, 8);
  g_assert_cmpint (gtk_label_get_width_chars (GTK_LABEL (short_wrap)), ==, -1);
  g_assert_cmpint (gtk_label_get_width_chars (GTK_LABEL (long_plain)), ==, -1);
  g_assert_cmpint (gtk_label_get_width_chars (GTK_LABEL (own_chars)), ==, 3);

  /* The natural width is the unwrapped text's, as before; the minimum
   * (one character wide before) is now wider. */
  gtk_widget_measure (long_wrap, GTK_ORIENTATION_HORIZONTAL, -1, &min_after, &nat_after, NULL, NULL);
  g_assert_cmpint (nat_after, ==, nat_before);
  g_assert_cmpint (min_after, >, min_before);
  g_assert_cmpint (min_after, <, nat_after);

  /* The longest answer their width at a height from two layouts: the
   * unwrapped width for the natural one, as without a height. */
  g_assert_cmpint (gtk_label_get_natural_wrap_mode (GTK_LABEL (long_wrap)), ==, GTK_NATURAL_WRAP_NONE);
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (long_wrap)), ==, PANGO_ELLIPSIZE_END);
  g_assert_cmpint (gtk_label_get_lines (GTK_LABEL (long_wrap)), ==, 100);
  gtk_widget_measure (long_wrap, GTK_ORIENTATION_VERTICAL, -1, NULL, &line_height, NULL, NULL);
  gtk_widget_measure (long_wrap, GTK_ORIENTATION_HORIZONTAL, line_height, &min_after, &nat_after, NULL, NULL);
  g_assert_cmpint (nat_after, ==, nat_before);
  g_assert_cmpint (min_after, <=, nat_after);
  /* What it shows does not change: the same height at a narrow width, all
   * of its text, many lines of it and nothing cut. */
  gtk_widget_measure (long_wrap, GTK_ORIENTATION_VERTICAL, 100, &hmin_after, &hnat_after, NULL, NULL);
  g_assert_cmpint (hmin_after, ==, hmin_before);
  g_assert_cmpint (hnat_after, ==, hnat_before);
  narrow = pango_layout_copy (gtk_label_get_layout (GTK_LABEL (long_wrap)));
  pango_layout_set_width (narrow, 100 * PANGO_SCALE);
  g_assert_cmpint (pango_layout_get_line_count (narrow), >, 3);
  g_assert_false (pango_layout_is_ellipsized (narrow));
  g_object_unref (narrow);
  /* Shorter text keeps GTK's search (it is cheap, and its unwrapped width
   * may be under the floor); an ellipsizing label keeps its own lines. */
  g_assert_cmpint (gtk_label_get_width_chars (GTK_LABEL (medium_wrap)), ==, HR_WRAP_LABELS_MIN_CHARS);
  g_assert_cmpint (gtk_label_get_natural_wrap_mode (GTK_LABEL (medium_wrap)), ==, GTK_NATURAL_WRAP_INHERIT);
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (medium_wrap)), ==, PANGO_ELLIPSIZE_NONE);
  g_assert_cmpint (gtk_label_get_natural_wrap_mode (GTK_LABEL (cut_wrap)), ==, GTK_NATURAL_WRAP_NONE);
  g_assert_cmpint (gtk_label_get_lines (GTK_LABEL (cut_wrap)), ==, 16);
  g_assert_cmpint (gtk_label_get_natural_wrap_mode (GTK_LABEL (own_chars)), ==, GTK_NATURAL_WRAP_INHERIT);

  /* A second call changes nothing. */
  hr_wrap_labels_set_min_chars (window);
  g_assert_cmpint (gtk_label_get_width_chars (GTK_LABEL (long_wrap)), ==, HR_WRAP_LABELS_MIN_CHARS);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Counts the long wrapping labels under @widget (outside lists) and those
 * of them without the floor. */
static void
count_long_labels (GtkWidget *widget,
                   guint     *n_long,
                   guint     *n_without)
{
  if (GTK_IS_LIST_BASE (widget))
    return;
  if (GTK_IS_LABEL (widget))
    {
      GtkLabel *label = GTK_LABEL (widget);

      if (gtk_label_get_wrap (label) && g_utf8_strlen (gtk_label_get_text (label), -1) >= 16)
        {
          (*n_long)++;
          if (gtk_label_get_width_chars (label) < 0)
            (*n_without)++;
        }
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    count_long_labels (child, n_long, n_without);
}

static void
test_wrap_labels_models_page (void)
{
  HrWindow *window;
  guint n_long = 0, n_without = 0;

  reset_settings (1100, 720);
  g_application_activate (G_APPLICATION (test_app));
  window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (test_app)));
  g_assert_nonnull (window);
  g_object_ref (window);
  g_assert_true (wait_for_window_pages (GTK_WIDGET (window), 10000));
  g_assert_true (iterate_until (widget_is_drawn, hr_window_get_models_page (window), 5000));

  /* The explain panel's formulas, the sidebar's row subtitles: each has
   * the floor (the page is walked again each time it is mapped). */
  count_long_labels (GTK_WIDGET (hr_window_get_models_page (window)), &n_long, &n_without);
  g_test_message ("%u long wrapping labels, %u without the floor", n_long, n_without);
  g_assert_cmpuint (n_long, >=, 10);
  g_assert_cmpuint (n_without, ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  spin (50);
  g_assert_finalize_object (window);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  isolated_root = gui_test_init (&argc, &argv, GUI_TEST_DEFAULT);

  g_test_add_func ("/wrap-labels/which", test_wrap_labels_which);
  g_test_add_func ("/wrap-labels/models-page", test_wrap_labels_models_page);

  test_app = gui_test_app_new ();
  return gui_test_run_and_clean (&test_app, &isolated_root);
}
