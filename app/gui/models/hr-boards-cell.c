/* hr-boards-cell.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrBoardsCell: one model on one board in the Boards view (hr-boards-view.c),
 * and the same cell as text.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-boards-cell.h"
#include "hr-gui-format.h"

struct _HrBoardsCell
{
  GtkBox parent_instance;
};

G_DEFINE_FINAL_TYPE (HrBoardsCell, hr_boards_cell, GTK_TYPE_BOX)

static gboolean
hr_boards_cell_focus (GtkWidget        *widget,
                      GtkDirectionType  direction)
{
  if (!gtk_widget_get_focusable (widget) || gtk_widget_is_focus (widget))
    return FALSE;
  return gtk_widget_grab_focus (widget);
}

static void
hr_boards_cell_class_init (HrBoardsCellClass *klass)
{
  GTK_WIDGET_CLASS (klass)->focus = hr_boards_cell_focus;
}

static void
hr_boards_cell_init (HrBoardsCell *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
}

/* The rate after a cell's figures, " · 18.4 t/s measured", or "" for a row
 * without one or that does not load (hr_gui_evaluation_has_rate()). */
static char *
rate_suffix (const HrEvaluation *e)
{
  g_autofree char *tps = NULL;

  if (!hr_gui_evaluation_has_rate (e))
    return g_strdup ("");
  tps = hr_gui_format_tps (e->tps);
  /* Translators: a decode rate and its source after a cell's figures,
     " · 18.4 t/s measured", " · 4.1 t/s predicted" */
  return g_strdup_printf (_(" · %1$s t/s %2$s"), tps, hr_gui_rate_source_label (e->source));
}

/**
 * hr_boards_cell_text:
 * @e: a model's evaluation on a board
 * @unit: GB or GiB
 *
 * A cell as text, as hr_boards_view_get_cell_text() gives it: the verdict (a
 * split model's pill), margin, decode rate and its source (none for a row
 * without one), and on a board with several GPUs where the model sits.
 *
 * Returns: (transfer full): the text
 */
char *
hr_boards_cell_text (const HrEvaluation *e,
                     HrUnit              unit)
{
  g_autofree char *margin = hr_gui_format_size_fixed (e->margin_bytes, unit);
  g_autofree char *rate = rate_suffix (e);
  g_autofree char *vram = NULL;
  g_autofree char *host = NULL;

  g_autofree char *text = NULL;
  g_autofree char *devices = hr_gui_format_devices_split (e);

  if (e->verdict != HR_VERDICT_PARTIAL || !e->split)
    /* Translators: a cell of the Boards view: verdict, margin, then the rate (its own
       string, or nothing), "fits · 2.63 GB · 18.4 t/s measured" */
    text = g_strdup_printf (_("%1$s · %2$s%3$s"), hr_gui_verdict_label (e->verdict),
                            margin, rate);
  else
    {
      g_autofree char *pill = hr_gui_format_partial_pill (e);

      vram = hr_gui_format_size_fixed (e->vram_bytes, unit);
      host = hr_gui_format_size_fixed (e->host_bytes, unit);
      /* Translators: a Boards view cell of a split model: the pill ("partial 34/49",
         "partial: experts"), VRAM, host memory, then the rate (its own string),
         "partial 34/49 · 10.65 GB VRAM + 5.27 GB host · 4.1 t/s predicted" */
      text = g_strdup_printf (_("%1$s · %2$s VRAM + %3$s host%4$s"),
                              pill, vram, host, rate);
    }
  if (devices == NULL)
    return g_steal_pointer (&text);
  /* A board with several GPUs: where the model sits, "fits · ... · 2 GPUs 41+40 layers" */
  return g_strdup_printf (_("%1$s · %2$s"), text, devices);
}


/**
 * hr_boards_cell_new:
 * @e: @model's evaluation on @board
 * @model: the model's name
 * @board: the board of the cell's column
 * @recommended: whether @model is @board's recommended model (a star)
 * @unit: GB or GiB for the figures
 *
 * A cell of the Boards view: the verdict pill, the margin, decode rate and
 * its source, a star when recommended; its tooltip and accessible label
 * say it in a sentence. It is not focusable until the view makes it its
 * tab stop.
 *
 * Returns: (transfer floating): the cell
 */
GtkWidget *
hr_boards_cell_new (const HrEvaluation *e,
                    const char         *model,
                    const HrBoard      *board,
                    gboolean            recommended,
                    HrUnit              unit)
{
  GtkWidget *box = g_object_new (HR_TYPE_BOARDS_CELL, NULL);
  g_autofree char *pill_text = e->verdict == HR_VERDICT_PARTIAL && e->split
                                ? hr_gui_format_partial_pill (e)
                                : g_strdup (hr_gui_verdict_label (e->verdict));
  GtkWidget *pill = gtk_label_new (pill_text);
  g_autofree char *margin = hr_gui_format_size_fixed (e->margin_bytes, unit);
  g_autofree char *rate_text = rate_suffix (e);
  g_autofree char *devices = hr_gui_format_devices_split (e);
  /* the figures: margin, then the rate (or nothing), "2.63 GB · 18.4 t/s measured" */
  g_autofree char *rate = g_strconcat (margin, rate_text, NULL);
  /* On a board with several GPUs, where the model sits after its figures */
  g_autofree char *figures = devices != NULL ? g_strdup_printf (_("%1$s · %2$s"), rate, devices)
                                             : g_steal_pointer (&rate);
  g_autofree char *sentence = hr_gui_format_evaluation_sentence (e, unit);
  g_autofree char *description = NULL;
  GtkWidget *figures_label = gtk_label_new (figures);

  gtk_label_set_xalign (GTK_LABEL (figures_label), 0.0);
  gtk_widget_add_css_class (figures_label, "numeric");
  gtk_widget_add_css_class (pill, "verdict-pill");
  gtk_widget_add_css_class (pill, hr_gui_verdict_css_class (e->verdict));
  gtk_widget_set_valign (pill, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), pill);
  gtk_box_append (GTK_BOX (box), figures_label);
  if (recommended)
    {
      GtkWidget *star = gtk_image_new_from_icon_name ("starred-symbolic");

      gtk_widget_add_css_class (star, "recommended-star");
      gtk_box_append (GTK_BOX (box), star);
    }

  if (hr_gui_evaluation_has_rate (e))
    {
      g_autofree char *tps = hr_gui_format_tps (e->tps);

      /* Translators: what a screen reader and the tooltip say for one cell:
         model, board, verdict sentence, rate, rate source */
      description = g_strdup_printf (_("%1$s on %2$s: %3$s; %4$s t/s (%5$s)%6$s"),
                                     model, board->name, sentence, tps,
                                     hr_gui_rate_source_label (e->source),
                                     recommended ? _("; recommended") : "");
    }
  else
    /* Translators: what a screen reader and the tooltip say for one cell of a model
       without a rate or that does not load: model, board, verdict sentence */
    description = g_strdup_printf (_("%1$s on %2$s: %3$s%4$s"),
                                   model, board->name, sentence,
                                   recommended ? _("; recommended") : "");
  gtk_widget_set_tooltip_text (box, description);
  gtk_accessible_update_property (GTK_ACCESSIBLE (box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, description,
                                  -1);
  /* Only the grid's one tab stop is focusable (set_tab_stop()). */
  gtk_widget_set_focusable (box, FALSE);
  gtk_widget_add_css_class (box, "boards-cell");
  return box;
}
