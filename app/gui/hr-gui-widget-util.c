/* hr-gui-widget-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Small pieces several pages' widgets share: the list factory that shows a
 * name whole (wrapped), labelling a spin button by its row, rows whose
 * subtitles wrap, expander rows that lay out their children only when
 * first opened, and labels kept off the tab order.
 */

#include "config.h"

#include "hr-gui-widget-util.h"

static void
setup_name_item (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);
  int max_chars = GPOINTER_TO_INT (user_data);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  if (max_chars > 0)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), max_chars);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_name_item (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  const char *name = gtk_string_object_get_string (gtk_list_item_get_item (item));

  gtk_label_set_text (GTK_LABEL (label), name);
  gtk_widget_set_tooltip_text (label, name);
}

/**
 * hr_gui_name_factory:
 * @max_chars: the most characters a name takes before it is cut in the
 *   middle; 0 or less: never cut (a popover's list)
 *
 * A factory for a list of #GtkStringObject names (an #AdwComboRow's boards)
 * that cuts a name too long for its place in the middle, so names that
 * share their start stay apart ("NVIDIA Ge…3060 12 GB" and "NVIDIA
 * GeForce RTX 3090", not two "NVIDIA GeForce RTX 3…"), with the whole name
 * in the tooltip.
 *
 * Returns: (transfer full): the factory
 */
GtkListItemFactory *
hr_gui_name_factory (int max_chars)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_name_item), GINT_TO_POINTER (max_chars));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_name_item), NULL);
  return factory;
}

/**
 * hr_gui_label_spin_by_row:
 * @spin: a spin button at the end of an #AdwPreferencesRow
 *
 * Names @spin, for a screen reader, by its row's title without the
 * mnemonic underscore ("Parallel _slots" -> "Parallel slots"); nothing
 * when @spin is not in a row.
 */
void
hr_gui_label_spin_by_row (GtkSpinButton *spin)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (spin), ADW_TYPE_PREFERENCES_ROW);
  g_autoptr(GString) title = NULL;

  if (row == NULL)
    return;

  title = g_string_new (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
  g_string_replace (title, "__", "\x01", 0);
  g_string_replace (title, "_", "", 0);
  g_string_replace (title, "\x01", "_", 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title->str,
                                  -1);
}

static void
show_deferred_rows (AdwExpanderRow *expander)
{
  GtkWidget *list = g_object_get_data (G_OBJECT (expander), "hr-deferred-rows");

  if (list == NULL || !adw_expander_row_get_expanded (expander))
    return;
  gtk_widget_set_visible (list, TRUE);
  g_object_set_data (G_OBJECT (expander), "hr-deferred-rows", NULL);
  g_object_set_data (G_OBJECT (expander), "hr-deferred-rows-shown", GINT_TO_POINTER (TRUE));
  g_signal_handlers_disconnect_by_func (expander, show_deferred_rows, NULL);
}

/**
 * hr_gui_expander_row_defer_rows:
 * @expander: an expander row, collapsed or not
 * @row: a widget added to @expander with adw_expander_row_add_row()
 *
 * Keeps the rows of a collapsed @expander out of the layout until it is
 * first expanded, and shows them, for good, as it expands; nothing when
 * @expander is expanded or has been. A collapsed #AdwExpanderRow keeps its
 * rows in a #GtkRevealer, and GTK 4.8's revealer measures its child while
 * hidden, so each row's labels and spin buttons would be laid out at every
 * size change for nothing (33 ms of the Models page's first layout, with
 * the board editor's fourteen rows). The list @row sits in is hidden, not
 * the rows, so a row's own visibility is left to its owner. Call it again
 * after adding rows to a list that was empty: it is idempotent.
 */
void
hr_gui_expander_row_defer_rows (AdwExpanderRow *expander,
                                GtkWidget      *row)
{
  GtkWidget *list;

  g_return_if_fail (ADW_IS_EXPANDER_ROW (expander));
  g_return_if_fail (GTK_IS_WIDGET (row));

  if (adw_expander_row_get_expanded (expander) ||
      g_object_get_data (G_OBJECT (expander), "hr-deferred-rows-shown") != NULL)
    return;
  list = gtk_widget_get_ancestor (row, GTK_TYPE_LIST_BOX);
  g_return_if_fail (list != NULL && gtk_widget_is_ancestor (list, GTK_WIDGET (expander)));

  if (g_object_get_data (G_OBJECT (expander), "hr-deferred-rows") == NULL)
    g_signal_connect (expander, "notify::expanded", G_CALLBACK (show_deferred_rows), NULL);
  g_object_set_data (G_OBJECT (expander), "hr-deferred-rows", list);
  gtk_widget_set_visible (list, FALSE);
}

/**
 * hr_gui_rows_bound_subtitles:
 * @root: a widget whose descendants include #AdwActionRow<!-- -->s (an
 *   #AdwComboRow is one, and an #AdwExpanderRow's header is one)
 * @lines: the most lines a subtitle may take, at least 1
 *
 * Gives every row under @root whose subtitle may take any number of lines
 * (#AdwActionRow:subtitle-lines 0, libadwaita's default) at most @lines,
 * past which it is ellipsized; pick @lines so that no subtitle reaches it.
 * A subtitle of unbounded lines is a wrapping label without ellipsis, and
 * GTK 4.8 measures such a label's width for a given height by a binary
 * search over widths in Pango units, shaping the text again at each step:
 * the Models page's sidebar shaped each subtitle about 170 times in its
 * first layout (18 ms of it). A label that may ellipsize is measured
 * directly. libadwaita 1.2 has no setter for the lines of an expander
 * row's subtitle; its header is an #AdwActionRow among its descendants,
 * which this walk reaches.
 */
void
hr_gui_rows_bound_subtitles (GtkWidget *root,
                             int        lines)
{
  g_return_if_fail (GTK_IS_WIDGET (root));
  g_return_if_fail (lines >= 1);

  if (ADW_IS_ACTION_ROW (root) && adw_action_row_get_subtitle_lines (ADW_ACTION_ROW (root)) == 0)
    adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (root), lines);
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    hr_gui_rows_bound_subtitles (child, lines);
}

/**
 * hr_gui_label_no_tab_stop:
 * @label: a label, selectable or not
 *
 * Keeps @label out of the Tab chain while it stays selectable with the
 * mouse (its context menu copies the selection). #GtkWidget:focusable
 * %FALSE is not enough for a selectable label in GTK 4.8: its focus
 * handler takes the focus anyway and then answers every Tab without
 * moving it, so the keyboard is trapped there; a label that cannot focus
 * at all is passed over.
 */
void
hr_gui_label_no_tab_stop (GtkLabel *label)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  gtk_widget_set_focusable (GTK_WIDGET (label), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (label), FALSE);
}
