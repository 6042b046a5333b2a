/* hr-catalog-cells.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Models table's cells: each column's title and text, the Name cell
 * with its recommended star, context note and library badge, the row's
 * accessible label, and the list item factories' setup, bind and unbind
 * handlers that keep a cell in step with its row.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-accessible.h"
#include "hr-catalog-view-private.h"
#include "hr-gui-format.h"
#include "hr-library-lookup.h"

/* ------------------------------------------------------------------ */
/* Cells                                                               */

/**
 * hr_catalog_view_column_title:
 * @column: a column
 *
 * Returns: (transfer none): the column's title, as the table and the CSV
 *   header show it
 */
const char *
hr_catalog_view_column_title (HrModelsColumn column)
{
  switch (column)
    {
    case HR_MODELS_COLUMN_NAME:         return _("Name");
    case HR_MODELS_COLUMN_PARAMETERS:   return _("Parameters");
    case HR_MODELS_COLUMN_PRECISION:    return _("Precision");
    case HR_MODELS_COLUMN_FILE_SIZE:    return _("File size");
    case HR_MODELS_COLUMN_KV_PER_TOKEN: return _("KV bytes/token");
    case HR_MODELS_COLUMN_KV_CACHE:     return _("KV cache");
    case HR_MODELS_COLUMN_TOTAL:        return _("Total");
    case HR_MODELS_COLUMN_VERDICT:      return _("Verdict");
    case HR_MODELS_COLUMN_TPS:          return _("t/s");
    case HR_MODELS_COLUMN_SOURCE:       return _("Source");
    case HR_MODELS_COLUMN_SPEED:        return _("Speed");
    case HR_MODELS_N_COLUMNS:
    default:                            return "";
    }
}

/* The KV cache type the scenario asks for. */
static HrKvCacheType
kv_type_asked (HrCatalogView *self)
{
  const HrEvaluationInputs *inputs = self->scenario != NULL
                                     ? hr_scenario_peek_evaluation_inputs (self->scenario) : NULL;

  return inputs != NULL ? inputs->kv_type : HR_KV_CACHE_F16;
}

/**
 * hr_catalog_view_cell_text:
 * @self: a #HrCatalogView
 * @row: a row of the page
 * @column: a column
 *
 * The text the table shows in @column for @row (the CSV export writes the
 * same text). The name column holds the model's name only; the page adds
 * the recommended star and the context note beside it.
 *
 * Returns: (transfer full): the text
 */
char *
hr_catalog_view_cell_text (HrCatalogView   *self,
                          HrModelRow     *row,
                          HrModelsColumn  column)
{
  const HrModelSpec *spec = hr_model_row_get_spec (row);
  const HrEvaluation *e = hr_model_row_get_evaluation (row);

  switch (column)
    {
    case HR_MODELS_COLUMN_NAME:
      return g_strdup (hr_model_row_get_name (row));
    case HR_MODELS_COLUMN_PARAMETERS:
      return hr_gui_format_parameters (spec->parameters);
    case HR_MODELS_COLUMN_PRECISION:
      if (self->scenario != NULL && hr_scenario_get_precision_info (self->scenario) != NULL)
        return g_strdup (hr_scenario_get_precision_info (self->scenario)->label);
      return g_strdup (spec->precision ? spec->precision : "–");
    case HR_MODELS_COLUMN_FILE_SIZE:
      return spec->file_bytes ? hr_gui_format_size_fixed (spec->file_bytes, self->unit) : g_strdup ("–");
    case HR_MODELS_COLUMN_KV_PER_TOKEN:
      {
        g_autofree char *count = hr_gui_format_count (hr_model_row_get_kv_per_token (row));
        HrKvCacheType used = hr_model_row_get_kv_type (row);

        if (kv_type_asked (self) == used)
          return g_steal_pointer (&count);
        /* Translators: KV bytes per token and the cache type they are in, when it is not the
           one asked for (flash attention off): "114,688 (f16)" */
        return g_strdup_printf (_("%1$s (%2$s)"), count, hr_gui_kv_cache_type_label (used));
      }
    case HR_MODELS_COLUMN_KV_CACHE:
      return hr_gui_format_size_fixed (e->footprint.kv_cache, self->unit);
    case HR_MODELS_COLUMN_TOTAL:
      return hr_gui_format_size_fixed (e->footprint.total, self->unit);
    case HR_MODELS_COLUMN_VERDICT:
      return hr_gui_format_evaluation_verdict (e, self->unit);
    case HR_MODELS_COLUMN_TPS:
      return hr_gui_format_evaluation_tps (e);
    case HR_MODELS_COLUMN_SOURCE:
      return g_strdup (hr_gui_format_evaluation_source (e));
    case HR_MODELS_COLUMN_SPEED:
      /* A row that does not load gets no speed verdict: its rate (the
       * seed's dashboard rates it) is what it would decode at if it loaded. */
      return g_strdup (e->verdict == HR_VERDICT_OVER ? "–" : hr_gui_speed_label (e->speed));
    case HR_MODELS_N_COLUMNS:
    default:
      return g_strdup ("");
    }
}

static char *
context_note (HrModelRow *row)
{
  const HrModelSpec *spec = hr_model_row_get_spec (row);
  g_autofree char *limit = NULL;

  if (!hr_model_row_get_evaluation (row)->past_context_limit)
    return NULL;

  limit = hr_gui_format_count (spec->context_length);
  /* Translators: beside a model's name when the context slider is past its native limit */
  return g_strdup_printf (_("past its %s-token limit"), limit);
}

/* @label's text, a GtkLabel's or a GtkInscription's (the figure cells),
 * set only when it differs. */
static void
set_label_text (GtkWidget  *label,
                const char *text)
{
  if (GTK_IS_INSCRIPTION (label))
    gtk_inscription_set_text (GTK_INSCRIPTION (label), text);
  else if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) != 0)
    gtk_label_set_text (GTK_LABEL (label), text);
}

/* A new tooltip only when it differs: setting one asks the display where
 * the pointer is (a round trip to the X server), on every cell refresh. */
static void
set_tooltip_text (GtkWidget  *widget,
                  const char *text)
{
  const char *was = gtk_widget_get_tooltip_text (widget);

  if (g_strcmp0 (was, text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
}

/* The cell around @child (GTK 4.8's GtkColumnViewCell, its parent) says
 * @text to a screen reader: GTK 4.8 names it by neither its content nor
 * a labelled-by relation to a label, only by its own label property. */
static void
name_cell (GtkWidget  *child,
           const char *text)
{
  GtkWidget *cell = gtk_widget_get_parent (child);

  if (cell == NULL || g_strcmp0 (g_object_get_data (G_OBJECT (cell), "hr-a11y-label"), text) == 0)
    return;
  gtk_accessible_update_property (GTK_ACCESSIBLE (cell),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                  -1);
  g_object_set_data_full (G_OBJECT (cell), "hr-a11y-label", g_strdup (text), g_free);
}

/* What a screen reader says for the table's row that holds the Name cell
 * @child: the model, its verdict and its total ("qwen2.5:7b, fits 1.23 GB,
 * total 5.4 GB"). GTK 4.8 has no accessible label for a list item, so it
 * goes on the row widget, the cell's parent (GtkColumnViewCell inside
 * GtkListItemWidget, of role GTK_ACCESSIBLE_ROLE_ROW), which the column view
 * reuses for other models: the Name cell renames it on each refresh. */
static void
name_table_row (HrCatalogView *self,
                HrModelRow    *row,
                GtkWidget     *child,
                const char    *name)
{
  GtkWidget *cell = gtk_widget_get_parent (child);
  GtkWidget *row_widget = cell != NULL ? gtk_widget_get_parent (cell) : NULL;
  g_autofree char *verdict = NULL;
  g_autofree char *total = NULL;
  char *label;

  if (row_widget == NULL ||
      gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (row_widget)) != GTK_ACCESSIBLE_ROLE_ROW)
    return;
  verdict = hr_catalog_view_cell_text (self, row, HR_MODELS_COLUMN_VERDICT);
  total = hr_catalog_view_cell_text (self, row, HR_MODELS_COLUMN_TOTAL);
  /* Translators: what a screen reader says for a row of the Models table:
     the model's name, its verdict ("fits 1.23 GB") and its total size */
  label = g_strdup_printf (_("%1$s, %2$s, total %3$s"), name, verdict, total);
  if (g_strcmp0 (g_object_get_data (G_OBJECT (row_widget), "hr-a11y-label"), label) == 0)
    {
      g_free (label);
      return;
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (row_widget),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  g_object_set_data_full (G_OBJECT (row_widget), "hr-a11y-label", label, g_free);
}

/* What a cell's text was made from: the row, and the figures of it (and
 * of the view) that hr_catalog_view_cell_text() reads for the column. A
 * slider step changes a row's KV cache, total and verdict, not its
 * parameters, precision, file size or rate: those cells keep their text
 * without making it again. */
typedef struct {
  HrModelRow *row;
  guint64     values[3];
} CellKey;

/* @key for @row in @column; FALSE for the columns whose text reads more
 * than a few figures (the name with its star, note and the row's
 * accessible label, the verdict), which are made again on every change. */
static gboolean
cell_key (HrCatalogView  *self,
          HrModelRow     *row,
          HrModelsColumn  column,
          CellKey        *key)
{
  const HrEvaluation *e = hr_model_row_get_evaluation (row);
  const HrPrecision *precision = NULL;

  memset (key, 0, sizeof *key);
  key->row = row;
  switch (column)
    {
    case HR_MODELS_COLUMN_PARAMETERS:
      return TRUE;
    case HR_MODELS_COLUMN_PRECISION:
      if (self->scenario != NULL)
        precision = hr_scenario_get_precision_info (self->scenario);
      key->values[0] = (guintptr) (precision != NULL ? precision->label : NULL);
      return TRUE;
    case HR_MODELS_COLUMN_FILE_SIZE:
      key->values[0] = self->unit;
      return TRUE;
    case HR_MODELS_COLUMN_KV_PER_TOKEN:
      key->values[0] = hr_model_row_get_kv_per_token (row);
      key->values[1] = hr_model_row_get_kv_type (row);
      key->values[2] = kv_type_asked (self);
      return TRUE;
    case HR_MODELS_COLUMN_KV_CACHE:
      key->values[0] = self->unit;
      key->values[1] = e->footprint.kv_cache;
      return TRUE;
    case HR_MODELS_COLUMN_TOTAL:
      key->values[0] = self->unit;
      key->values[1] = e->footprint.total;
      return TRUE;
    case HR_MODELS_COLUMN_TPS:
      key->values[0] = hr_gui_evaluation_has_rate (e);
      memcpy (&key->values[1], &e->tps, sizeof e->tps);
      return TRUE;
    case HR_MODELS_COLUMN_SOURCE:
      key->values[0] = hr_gui_evaluation_has_rate (e);
      key->values[1] = e->source;
      return TRUE;
    case HR_MODELS_COLUMN_SPEED:
      key->values[0] = e->verdict == HR_VERDICT_OVER;
      key->values[1] = e->speed;
      return TRUE;
    case HR_MODELS_COLUMN_NAME:
    case HR_MODELS_COLUMN_VERDICT:
    case HR_MODELS_N_COLUMNS:
    default:
      return FALSE;
    }
}

static void
refresh_cell (GtkListItem *item)
{
  HrCatalogView *self = g_object_get_data (G_OBJECT (item), "hr-view");
  HrModelsColumn column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (item), "hr-column"));
  CellKey *shown = g_object_get_data (G_OBJECT (item), "hr-key");
  HrModelRow *row = gtk_list_item_get_item (item);
  GtkWidget *child = gtk_list_item_get_child (item);
  g_autofree char *text = NULL;
  CellKey key;

  if (row == NULL || child == NULL)
    return;

  g_object_set_data (G_OBJECT (item), "hr-serial", GUINT_TO_POINTER (hr_model_row_get_serial (row)));
  if (cell_key (self, row, column, &key))
    {
      if (shown != NULL && memcmp (shown, &key, sizeof key) == 0)
        return;
      if (shown == NULL)
        g_object_set_data_full (G_OBJECT (item), "hr-key", shown = g_new (CellKey, 1), g_free);
      *shown = key;
    }
  text = hr_catalog_view_cell_text (self, row, column);
  name_cell (child, text);

  if (column == HR_MODELS_COLUMN_NAME)
    {
      GtkWidget *star = gtk_widget_get_first_child (child);
      GtkWidget *label = gtk_widget_get_next_sibling (star);
      GtkWidget *note = gtk_widget_get_next_sibling (label);
      g_autofree char *note_text = context_note (row);

      gtk_widget_set_visible (star, hr_model_row_get_recommended (row));
      set_label_text (label, text);
      /* Beside the note the name keeps up to 8 characters; the note gives
       * way first (its tooltip has it whole). Alone the name takes the
       * cell's width and ends in an ellipsis where the column is narrower.
       * A floor wider than the column would put the name past the cell's
       * edge, cut there without an ellipsis. */
      gtk_label_set_width_chars (GTK_LABEL (label),
                                 note_text != NULL ? (int) MIN (g_utf8_strlen (text, -1), 8) : -1);
      set_label_text (note, note_text ? note_text : "");
      if (note_text != NULL)
        set_tooltip_text (note, note_text);
      gtk_widget_set_visible (note, note_text != NULL);
      gtk_widget_set_visible (gtk_widget_get_next_sibling (note),
                              hr_library_lookup_is_library (hr_model_row_get_spec (row)));
      name_table_row (self, row, child, text);
    }
  else if (column == HR_MODELS_COLUMN_VERDICT)
    {
      const HrEvaluation *e = hr_model_row_get_evaluation (row);
      const char *css = hr_gui_verdict_css_class (e->verdict);

      set_label_text (child, text);
      if (!gtk_widget_has_css_class (child, css))
        {
          gtk_widget_remove_css_class (child, "success");
          gtk_widget_remove_css_class (child, "warning");
          gtk_widget_remove_css_class (child, "accent");
          gtk_widget_remove_css_class (child, "error");
          gtk_widget_add_css_class (child, css);
        }
    }
  else if (column == HR_MODELS_COLUMN_KV_PER_TOKEN)
    {
      g_autofree char *why = hr_gui_kv_fallback_note (kv_type_asked (self), hr_model_row_get_kv_type (row));

      set_label_text (child, text);
      set_tooltip_text (child, why);
    }
  else
    {
      set_label_text (child, text);
    }
}

/* A shown cell's row changed what it shows. */
static void
on_row_changed (HrModelRow  *row,
                GtkListItem *item)
{
  refresh_cell (item);
}

/* The cell listens to its row while it is shown: the list keeps about 200
 * rows of cells bound for smooth scrolling, but only a screenful is
 * mapped, and a row with no cell shown emits nothing (hr_model_row_watch()). */
static void
watch_row (GtkListItem *item,
           HrModelRow  *row)
{
  HrModelRow *watched = g_object_get_data (G_OBJECT (item), "hr-watched");

  if (watched == row)
    return;
  if (watched != NULL)
    {
      g_signal_handlers_disconnect_by_func (watched, on_row_changed, item);
      hr_model_row_unwatch (watched);
    }
  if (row != NULL)
    {
      g_signal_connect (row, "changed", G_CALLBACK (on_row_changed), item);
      hr_model_row_watch (row);
    }
  g_object_set_data (G_OBJECT (item), "hr-watched", row);
}

/* Whether the row changed since the cell last read it. */
static gboolean
cell_is_stale (GtkListItem *item)
{
  HrModelRow *row = gtk_list_item_get_item (item);

  return row != NULL &&
         GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (item), "hr-serial")) != hr_model_row_get_serial (row);
}

static gboolean
refresh_stale_cell (gpointer user_data)
{
  GtkListItem *item = user_data;

  g_object_set_data (G_OBJECT (item), "hr-refresh-pending", NULL);
  if (cell_is_stale (item))
    refresh_cell (item);
  return G_SOURCE_REMOVE;
}

/* A cell is mapped while the list allocates its rows: changing a label
 * right then would leave it unallocated for this frame's drawing, so a
 * cell whose row changed while it was not shown refreshes from an idle
 * that runs before the next frame. */
static void
on_cell_mapped (GtkWidget   *child,
                GtkListItem *item)
{
  watch_row (item, gtk_list_item_get_item (item));
  if (!cell_is_stale (item) || g_object_get_data (G_OBJECT (item), "hr-refresh-pending") != NULL)
    return;

  g_object_set_data (G_OBJECT (item), "hr-refresh-pending", GINT_TO_POINTER (TRUE));
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh_stale_cell, g_object_ref (item), g_object_unref);
}

static void
on_cell_unmapped (GtkWidget   *child,
                  GtkListItem *item)
{
  watch_row (item, NULL);
}

static const char *
star_tooltip (void)
{
  return _("Recommended: the largest model that fits and is fast enough");
}

static gboolean
on_star_query_tooltip (GtkWidget  *star,
                       int         x,
                       int         y,
                       gboolean    keyboard,
                       GtkTooltip *tooltip,
                       gpointer    user_data)
{
  gtk_tooltip_set_text (tooltip, star_tooltip ());
  return TRUE;
}

/* A name cut short by a narrow column shows whole in its tooltip. */
static gboolean
on_name_query_tooltip (GtkWidget  *label,
                       int         x,
                       int         y,
                       gboolean    keyboard,
                       GtkTooltip *tooltip,
                       gpointer    user_data)
{
  if (!pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))))
    return FALSE;
  gtk_tooltip_set_text (tooltip, gtk_label_get_text (GTK_LABEL (label)));
  return TRUE;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            HrCatalogView             *self)
{
  HrModelsColumn column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "hr-column"));
  GtkWidget *child;

  g_object_set_data (G_OBJECT (item), "hr-view", self);
  g_object_set_data (G_OBJECT (item), "hr-column", GINT_TO_POINTER (column));

  switch (column)
    {
    case HR_MODELS_COLUMN_NAME:
      {
        GtkWidget *star = gtk_image_new_from_icon_name ("starred-symbolic");
        GtkWidget *label = gtk_label_new (NULL);
        GtkWidget *note = gtk_label_new (NULL);

        child = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
        gtk_widget_add_css_class (star, "recommended-star");
        /* The tooltip is made when it is asked for: a list of many rows
         * would otherwise set one up per row at start-up. */
        gtk_widget_set_has_tooltip (star, TRUE);
        g_signal_connect (star, "query-tooltip", G_CALLBACK (on_star_query_tooltip), NULL);
        gtk_accessible_update_property (GTK_ACCESSIBLE (star),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL, _("Recommended"),
                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, star_tooltip (),
                                        -1);
        gtk_widget_set_visible (star, FALSE);
        gtk_label_set_xalign (GTK_LABEL (label), 0.0);
        gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
        gtk_widget_set_has_tooltip (label, TRUE);
        g_signal_connect (label, "query-tooltip", G_CALLBACK (on_name_query_tooltip), NULL);
        gtk_label_set_ellipsize (GTK_LABEL (note), PANGO_ELLIPSIZE_END);
        gtk_label_set_xalign (GTK_LABEL (note), 0.0);
        gtk_widget_add_css_class (note, "caption");
        gtk_widget_add_css_class (note, "warning");
        gtk_widget_set_visible (note, FALSE);
        gtk_box_append (GTK_BOX (child), star);
        gtk_box_append (GTK_BOX (child), label);
        gtk_box_append (GTK_BOX (child), note);
        gtk_box_append (GTK_BOX (child), hr_library_lookup_new_badge ());
      }
      break;
    case HR_MODELS_COLUMN_VERDICT:
      child = gtk_label_new (NULL);
      gtk_widget_add_css_class (child, "verdict-pill");
      gtk_widget_add_css_class (child, "numeric");
      gtk_widget_set_halign (child, GTK_ALIGN_START);
      break;
    case HR_MODELS_COLUMN_PRECISION:
    case HR_MODELS_COLUMN_SOURCE:
    case HR_MODELS_COLUMN_SPEED:
      child = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (child), 0.0);
      break;
    /* The figures: a GtkInscription, whose size does not follow its
     * text, so a slider step's new sizes are redrawn without a resize of
     * the row (a label queues one on every change; the column's width is
     * fixed anyway, hr-catalog-columns.c). The cell around it carries the
     * text for a screen reader (name_cell()). */
    default:
      child = gtk_inscription_new (NULL);
      gtk_inscription_set_xalign (GTK_INSCRIPTION (child), 1.0);
      gtk_inscription_set_min_chars (GTK_INSCRIPTION (child), 1);
      gtk_inscription_set_nat_chars (GTK_INSCRIPTION (child), 8);
      gtk_inscription_set_text_overflow (GTK_INSCRIPTION (child), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
      gtk_widget_add_css_class (child, "numeric");
      break;
    }

  g_signal_connect (child, "map", G_CALLBACK (on_cell_mapped), item);
  g_signal_connect (child, "unmap", G_CALLBACK (on_cell_unmapped), item);
  gtk_list_item_set_child (item, child);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           HrCatalogView             *self)
{
  GtkWidget *child = gtk_list_item_get_child (item);

  refresh_cell (item);
  if (child != NULL && gtk_widget_get_mapped (child))
    watch_row (item, gtk_list_item_get_item (item));
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             HrCatalogView             *self)
{
  CellKey *shown = g_object_get_data (G_OBJECT (item), "hr-key");

  watch_row (item, NULL);
  /* The next row bound here has its text made: a row made anew (the
   * catalog reloaded) may have the address of one that went. */
  if (shown != NULL)
    shown->row = NULL;
}

/**
 * hr_catalog_cells_connect:
 * @factory: a #GtkSignalListItemFactory whose "hr-column" data names its
 *   column
 * @self: the view the cells belong to
 *
 * Connects the setup, bind and unbind handlers that make and fill the
 * column's cells.
 */
void
hr_catalog_cells_connect (GtkListItemFactory *factory,
                          HrCatalogView      *self)
{
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), self);
}
