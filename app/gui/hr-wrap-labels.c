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
 */

#include "config.h"

#include "hr-wrap-labels.h"

/* Text at least twice HR_WRAP_LABELS_MIN_CHARS long is wider than the
 * floor (which is counted in the font's average character width), so its
 * natural width, and so how boxes share their width out, stays the same;
 * a shorter text is cheap to lay out narrow anyway. */
#define LONG_TEXT_CHARS (2 * HR_WRAP_LABELS_MIN_CHARS)

static void
set_min_chars (GtkLabel *label)
{
  const char *text = gtk_label_get_text (label);

  if (!gtk_label_get_wrap (label) || gtk_label_get_width_chars (label) >= 0)
    return;
  if (g_utf8_strlen (text, -1) < LONG_TEXT_CHARS)
    return;
  gtk_label_set_width_chars (label, HR_WRAP_LABELS_MIN_CHARS);
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
 * changes either. Lists and column views are left alone: their rows are
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
