/* hr-wrap-labels.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A floor under the minimum width of long wrapping labels, which is most
 * of what the Models page's first frame costs. GTK 4.8 measures a
 * wrapping label (gtk/gtklabel.c, gtk_label_get_preferred_layout_size())
 * by laying its text out twice: unwrapped, for its natural width, and at
 * width-chars characters, or at width 0 when width-chars is unset, for its
 * minimum width and height. At width 0 a PANGO_WRAP_WORD_CHAR label (the
 * explain panel's formulas, libadwaita's row titles and subtitles) breaks
 * after every character, and Pango shapes what is left of the line again
 * at each break (pango/pango-layout.c, process_item()), so the cost grows
 * with the square of the text's length; the window's minimum size
 * (GtkWindow's GdkToplevel::compute-size handler) asks every label for
 * it. With width-chars set, the narrow layout breaks every few characters
 * instead.
 *
 * Asked for its width at a given height (gtk_label_measure() with a
 * for_size in the horizontal orientation), a wrapping label searches,
 * halving the range, for the narrowest width whose layout fits the
 * height: its natural width so, and then its minimum width again (gtklabel.c,
 * get_width_for_height()), some ten layouts each. GTK 4.8's box layout
 * asks exactly that: a horizontal box told its width finds the height its
 * children fit in by halving over heights, asking each child's width at
 * each height it tries (gtkboxlayout.c, distribute_remaining_size()), and
 * allocates them after asking their widths at the height it got; and a
 * widget centred in its allocation (the title of every libadwaita row) is
 * asked its width at its height before it is placed (gtkwidget.c,
 * gtk_widget_adjust_size_allocation()). One subtitle of the sidebar was laid
 * out 140 times before the Models page's first frame. A label with
 * #GtkLabel:natural-wrap-mode %GTK_NATURAL_WRAP_NONE answers its unwrapped
 * width for its natural width at any height, and an ellipsizing one its
 * width-chars for its minimum: two layouts, and the same answers the box
 * gets when it asks without a height.
 */

#include "config.h"

#include "hr-wrap-labels.h"

/* Text at least twice HR_WRAP_LABELS_MIN_CHARS long is wider than the
 * floor (which is counted in the font's average character width), so its
 * natural width, and so how boxes share their width out, stays the same;
 * a shorter text is cheap to lay out narrow anyway. */
#define LONG_TEXT_CHARS (2 * HR_WRAP_LABELS_MIN_CHARS)

/* Text this long is far wider unwrapped than the floor, even in its
 * narrowest glyphs: a label whose unwrapped width fell below its
 * width-chars would report a natural width below its minimum at a height
 * (GtkLabel warns) once it answers the unwrapped width. */
#define UNWRAPPED_WIDE_CHARS (4 * HR_WRAP_LABELS_MIN_CHARS)

/* The lines an ellipsizing long label may wrap to before it is cut: more
 * than any of the window's texts takes at its narrowest width and largest
 * text zoom (a GtkLabel that wraps and ellipsizes with no #GtkLabel:lines
 * is cut after its first line). */
#define MAX_LINES 100

static void
set_min_chars (GtkLabel *label)
{
  glong length;

  if (!gtk_label_get_wrap (label) || gtk_label_get_width_chars (label) >= 0)
    return;
  length = g_utf8_strlen (gtk_label_get_text (label), -1);
  if (length < LONG_TEXT_CHARS)
    return;
  gtk_label_set_width_chars (label, HR_WRAP_LABELS_MIN_CHARS);
  if (length < UNWRAPPED_WIDE_CHARS)
    return;
  /* Its width at a height in two layouts, not twenty (the file's comment). */
  gtk_label_set_natural_wrap_mode (label, GTK_NATURAL_WRAP_NONE);
  if (gtk_label_get_ellipsize (label) == PANGO_ELLIPSIZE_NONE)
    {
      gtk_label_set_ellipsize (label, PANGO_ELLIPSIZE_END);
      gtk_label_set_lines (label, MAX_LINES);
    }
}

/**
 * hr_wrap_labels_set_min_chars:
 * @root: a widget, the labels under it are given the floor
 *
 * Gives every wrapping GtkLabel under @root (and @root itself) whose text
 * is at least 2 × %HR_WRAP_LABELS_MIN_CHARS characters long and that has
 * no #GtkLabel:width-chars a width-chars of %HR_WRAP_LABELS_MIN_CHARS (8):
 * its minimum width is then 8 average characters, not 1, and measuring it
 * costs a few layouts of its text at most 8 characters a line instead of
 * one line per character (see the file's comment). Its natural width does
 * not change (its text is wider than the floor). The panes these labels
 * sit in have a width-request of 320 px (the sidebar, the explain panel),
 * wider than 8 characters up to a text zoom of 300 %, so no pane's minimum
 * changes either. Those at least 4 × %HR_WRAP_LABELS_MIN_CHARS characters
 * long also answer their unwrapped width for their
 * natural width at any height (#GtkLabel:natural-wrap-mode
 * %GTK_NATURAL_WRAP_NONE) and, unless they ellipsize already, ellipsize
 * past 100 lines, which no text here reaches: asked for their width at a
 * height, they lay their text out twice instead of searching for the
 * narrowest width that fits it; their height at a width, what they show,
 * does not change. Lists and column views are left alone: their rows are
 * made and recycled as they scroll. Cheap (one walk of the widgets); safe
 * to call again, on a page built in parts when it is first shown.
 */
void
hr_wrap_labels_set_min_chars (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_LABEL (root))
    {
      set_min_chars (GTK_LABEL (root));
      return;
    }
  if (GTK_IS_LIST_BASE (root))
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    hr_wrap_labels_set_min_chars (child);
}
