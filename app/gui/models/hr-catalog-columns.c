/* hr-catalog-columns.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-catalog-columns.h"
#include "hr-catalog-model.h"
#include "hr-gui-format.h"
#include "hr-text-zoom.h"

/* The narrowest each column gets, in pixels, before its header and (for
 * the Verdict column) its widest pill are measured. The widths are fixed
 * (gtk_column_view_column_set_fixed_width()): a cell whose text changes
 * then never makes the view measure every bound cell of its column. */
static const int base_widths[HR_MODELS_N_COLUMNS] = {
  [HR_MODELS_COLUMN_NAME] = 130,
  [HR_MODELS_COLUMN_PARAMETERS] = 80,       /* "12.34 B" */
  [HR_MODELS_COLUMN_PRECISION] = 75,
  [HR_MODELS_COLUMN_FILE_SIZE] = 75,
  [HR_MODELS_COLUMN_KV_PER_TOKEN] = 100,
  [HR_MODELS_COLUMN_KV_CACHE] = 75,
  [HR_MODELS_COLUMN_TOTAL] = 80,
  [HR_MODELS_COLUMN_VERDICT] = 90,
  [HR_MODELS_COLUMN_TPS] = 55,              /* "603.0" */
  [HR_MODELS_COLUMN_SOURCE] = 90,
  [HR_MODELS_COLUMN_SPEED] = 75,
};

/* Action names ("table.show-NAME") of the header menu's check items. */
static const char * const column_ids[HR_MODELS_N_COLUMNS] = {
  [HR_MODELS_COLUMN_NAME] = "name",
  [HR_MODELS_COLUMN_PARAMETERS] = "parameters",
  [HR_MODELS_COLUMN_PRECISION] = "precision",
  [HR_MODELS_COLUMN_FILE_SIZE] = "file-size",
  [HR_MODELS_COLUMN_KV_PER_TOKEN] = "kv-per-token",
  [HR_MODELS_COLUMN_KV_CACHE] = "kv-cache",
  [HR_MODELS_COLUMN_TOTAL] = "total",
  [HR_MODELS_COLUMN_VERDICT] = "verdict",
  [HR_MODELS_COLUMN_TPS] = "tps",
  [HR_MODELS_COLUMN_SOURCE] = "source",
  [HR_MODELS_COLUMN_SPEED] = "speed",
};

/* The GSettings key that remembers the columns the user hid, by their
 * column_ids. By default the table shows at the window's default size
 * (1100 px) the name, the figures that decide (parameters, KV cache,
 * total, verdict) and the rate (t/s, speed); precision, file size, KV
 * bytes per token and the rate's source (the t/s cell already says
 * "prior") are in the header's menu and in the explain panel. */
#define HIDDEN_KEY "hidden-catalog-columns"

/* What a cell adds around its child in libadwaita 1.2's table:
 * "columnview > listview > row > cell { padding: 8px 6px; }" and the 1 px
 * left border of every cell but the first. */
#define CELL_CHROME 13

static int
natural_width (GtkWidget *widget)
{
  int natural = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  return natural;
}

/* A label styled as the pills are, in the window (an unrooted label does
 * not take the application's style sheet) but never laid out: it
 * measures their texts. hr_catalog_columns_setup() adds it. */
static GtkWidget *
verdict_probe (GtkColumnView *view)
{
  return g_object_get_data (G_OBJECT (view), "hr-verdict-probe");
}

/* What the Verdict column was last fitted to, on the view as
 * "hr-verdict-fit": a slider step whose rows span the same verdicts in
 * the same unit and text size leaves the column as it is, and a pill's
 * text measured once is not laid out again (the slider goes back and forth
 * over the same values). */
typedef struct {
  gboolean        valid;
  HrCatalogExtent extent;
  HrUnit          unit;
  GHashTable     *widths;   /* text -> natural width in pixels, as GINT_TO_POINTER */
} VerdictFit;

static void
verdict_fit_free (gpointer data)
{
  VerdictFit *fit = data;

  g_clear_pointer (&fit->widths, g_hash_table_unref);
  g_free (fit);
}

static VerdictFit *
verdict_fit (GtkColumnView *view)
{
  VerdictFit *fit = g_object_get_data (G_OBJECT (view), "hr-verdict-fit");

  if (fit == NULL)
    {
      fit = g_new0 (VerdictFit, 1);
      fit->widths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_object_set_data_full (G_OBJECT (view), "hr-verdict-fit", fit, verdict_fit_free);
    }
  return fit;
}

/* The measured texts are of the fonts as they were: a new text size or
 * style measures them anew. */
static void
verdict_fit_forget (GtkColumnView *view)
{
  VerdictFit *fit = verdict_fit (view);

  fit->valid = FALSE;
  g_hash_table_remove_all (fit->widths);
}

static int
text_width (GtkColumnView *view,
            const char    *text)
{
  VerdictFit *fit = verdict_fit (view);
  GtkWidget *probe = verdict_probe (view);
  gpointer known;
  int width;

  if (g_hash_table_lookup_extended (fit->widths, text, NULL, &known))
    return GPOINTER_TO_INT (known);
  gtk_label_set_text (GTK_LABEL (probe), text);
  width = natural_width (probe);
  /* A few texts per unit and margin; a long session's are dropped. */
  if (g_hash_table_size (fit->widths) > 512)
    g_hash_table_remove_all (fit->widths);
  g_hash_table_insert (fit->widths, g_strdup (text), GINT_TO_POINTER (width));
  return width;
}

/* The extent of @rows: the catalog model keeps its own, summed up as it
 * evaluates; any other list is gone over. */
static void
rows_extent (GListModel      *rows,
             HrCatalogExtent *extent)
{
  guint n;

  if (HR_IS_CATALOG_MODEL (rows))
    {
      *extent = *hr_catalog_model_get_extent (HR_CATALOG_MODEL (rows));
      return;
    }
  memset (extent, 0, sizeof *extent);
  n = rows != NULL ? g_list_model_get_n_items (rows) : 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (rows, i);

      hr_catalog_extent_add (extent, hr_model_row_get_evaluation (row));
    }
}

/* The longest "2 GPUs 41+40 layers" of @rows (the first of the longest),
 * or %NULL: only on a board with several GPUs is a row placed so. */
static char *
longest_devices (GListModel *rows)
{
  guint n = rows != NULL ? g_list_model_get_n_items (rows) : 0;
  char *devices = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (rows, i);
      g_autofree char *where = hr_gui_format_devices_split (hr_model_row_get_evaluation (row));

      if (where != NULL && (devices == NULL || strlen (where) > strlen (devices)))
        {
          g_free (devices);
          devices = g_steal_pointer (&where);
        }
    }
  return devices;
}

/* The pill's text, with where the row sits after it on a board with
 * several GPUs. */
static int
pill_width (GtkColumnView *view,
            const char    *verdict,
            const char    *devices)
{
  g_autofree char *text = NULL;

  if (devices == NULL)
    return text_width (view, verdict);
  /* Translators: the verdict pill, then where the model sits on a board with several GPUs */
  text = g_strdup_printf (_("%1$s · %2$s"), verdict, devices);
  return text_width (view, text);
}

/* The widest pill of an extent: per verdict the largest margin is the
 * widest (a verdict word and a size in tabular figures), a split's
 * "partial N/M" is widest with the most layers. */
static int
extent_width (GtkColumnView         *view,
              const HrCatalogExtent *x,
              const char            *devices,
              HrUnit                 unit)
{
  int width = 0;

  for (guint v = 0; v <= HR_VERDICT_PARTIAL; v++)
    if (x->seen[v])
      {
        g_autofree char *verdict = hr_gui_format_verdict (v, x->widest_margin[v], unit);

        width = MAX (width, pill_width (view, verdict, devices));
      }
  if (x->split)
    {
      HrEvaluation split = { .split = TRUE, .verdict = HR_VERDICT_PARTIAL,
                             .gpu_layers = x->split_gpu_layers, .total_layers = x->split_total_layers };
      g_autofree char *text = hr_gui_format_evaluation_verdict (&split, unit);

      width = MAX (width, pill_width (view, text, devices));
    }
  if (x->experts)
    {
      HrEvaluation moe = { .split = TRUE, .verdict = HR_VERDICT_PARTIAL, .gpu_layers = 1, .total_layers = 1,
                           .expert_host_layers = 1 };
      g_autofree char *text = hr_gui_format_evaluation_verdict (&moe, unit);

      width = MAX (width, pill_width (view, text, devices));
    }
  return width;
}

/**
 * hr_catalog_columns_verdict_width:
 * @view: the table
 * @rows: (element-type HrModelRow): every row the table may show (the
 *   catalog model, whose extent is kept as it evaluates, or any list)
 * @unit: the unit the pills show
 *
 * The natural width of the widest verdict pill of @rows, in pixels. The
 * pill is a verdict word and a size in tabular figures, so per verdict the
 * largest margin is the widest; a split's "partial N/M" is widest with the
 * most layers; on a board with several GPUs each is measured with the
 * longest "2 GPUs 41+40 layers" after it. At most five texts are
 * measured, however many rows, and a text measured before is not again.
 *
 * Returns: the width, without the cell's padding
 */
int
hr_catalog_columns_verdict_width (GtkColumnView *view,
                                  GListModel    *rows,
                                  HrUnit         unit)
{
  HrCatalogExtent extent;
  g_autofree char *devices = NULL;

  rows_extent (rows, &extent);
  if (extent.placed_on_devices)
    devices = longest_devices (rows);
  return extent_width (view, &extent, devices, unit);
}

/* How much larger the table's text is than the desktop's: the
 * "text-zoom" setting (Ctrl+plus), and 1.6 x that in the presentation
 * view (its window has the "presentation" style class); hr-text-zoom.c
 * sizes the window's text so. */
static double
text_scale (GtkWidget *view)
{
  GSettings *settings = g_object_get_data (G_OBJECT (view), "hr-settings");
  GtkRoot *root = gtk_widget_get_root (view);
  double scale = settings != NULL ? g_settings_get_double (settings, "text-zoom") : 1.0;

  if (root != NULL && gtk_widget_has_css_class (GTK_WIDGET (root), "presentation"))
    scale *= HR_TEXT_ZOOM_PRESENTATION;
  return MAX (1.0, scale);
}

/* Widens @column to @width; a column the user widened stays as wide. */
static void
widen (GtkColumnViewColumn *column,
       int                  width)
{
  if (gtk_column_view_column_get_fixed_width (column) < width)
    gtk_column_view_column_set_fixed_width (column, width);
}

/**
 * hr_catalog_columns_fit:
 * @view: the table
 * @rows: (element-type HrModelRow) (nullable): every row the table may show
 * @unit: the unit the cells show
 *
 * Widens each column's fixed width to the widest of its base width (in
 * proportion to the text's size, text_scale()), its
 * header's natural width (so no header is cut, in any language) and, for
 * the Verdict column, the widest pill of @rows with the cell's padding:
 * nothing the table's verdict says is clipped. Call it when the rows are
 * made, when the table is mapped and when the text's size changes; after a
 * re-evaluation hr_catalog_columns_fit_verdict() is enough.
 */
void
hr_catalog_columns_fit (GtkColumnView *view,
                        GListModel    *rows,
                        HrUnit         unit)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (view));
  GtkWidget *title = header != NULL ? gtk_widget_get_first_child (header) : NULL;
  guint n = g_list_model_get_n_items (columns);
  double scale = text_scale (GTK_WIDGET (view));

  g_object_set_data (G_OBJECT (view), "hr-unit", GINT_TO_POINTER (unit));
  g_object_set_data (G_OBJECT (view), "hr-rows", rows);
  verdict_fit_forget (view);
  /* The header holds one title per column, in the columns' order. */
  for (guint c = 0; c < n && c < HR_MODELS_N_COLUMNS; c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
      int width = (int) (base_widths[c] * scale + 0.5);

      if (title != NULL)
        {
          width = MAX (width, natural_width (title));
          title = gtk_widget_get_next_sibling (title);
        }
      widen (column, width);
    }
  hr_catalog_columns_fit_verdict (view, rows, unit);
}

/**
 * hr_catalog_columns_fit_verdict:
 * @view: the table, fitted once with hr_catalog_columns_fit()
 * @rows: (element-type HrModelRow) (nullable): every row the table may show
 * @unit: the unit the cells show
 *
 * What a slider step needs of hr_catalog_columns_fit(): the Verdict
 * column widened to the widest pill of @rows, measured only when the
 * verdicts the rows span (#HrCatalogExtent), the unit or the text's size
 * changed since the last fit; the headers cannot have changed.
 */
void
hr_catalog_columns_fit_verdict (GtkColumnView *view,
                                GListModel    *rows,
                                HrUnit         unit)
{
  VerdictFit *fit = verdict_fit (view);
  g_autoptr(GtkColumnViewColumn) column = NULL;
  HrCatalogExtent extent;
  g_autofree char *devices = NULL;
  double scale;
  int width;

  if (g_list_model_get_n_items (gtk_column_view_get_columns (view)) <= HR_MODELS_COLUMN_VERDICT)
    return;
  rows_extent (rows, &extent);
  /* Where the rows sit on several GPUs is not in the extent: measured.
   * The text's size is not read here: a new size refits the whole table
   * (hr_catalog_columns_fit()), which forgets this fit. */
  if (fit->valid && !extent.placed_on_devices && fit->unit == unit &&
      memcmp (&fit->extent, &extent, sizeof extent) == 0)
    return;
  scale = text_scale (GTK_WIDGET (view));
  fit->valid = TRUE;
  fit->extent = extent;
  fit->unit = unit;

  if (extent.placed_on_devices)
    devices = longest_devices (rows);
  width = MAX ((int) (base_widths[HR_MODELS_COLUMN_VERDICT] * scale + 0.5),
               extent_width (view, &extent, devices, unit) + CELL_CHROME);
  column = g_list_model_get_item (gtk_column_view_get_columns (view), HR_MODELS_COLUMN_VERDICT);
  widen (column, width);
}

static void
on_show_column (GSimpleAction *action,
                GVariant      *state,
                gpointer       user_data)
{
  GtkColumnViewColumn *column = user_data;
  GtkColumnView *view = gtk_column_view_column_get_column_view (column);
  GListModel *rows = view != NULL ? g_object_get_data (G_OBJECT (view), "hr-rows") : NULL;

  GSettings *settings = view != NULL ? g_object_get_data (G_OBJECT (view), "hr-settings") : NULL;

  g_simple_action_set_state (action, state);
  gtk_column_view_column_set_visible (column, g_variant_get_boolean (state));
  if (view == NULL)
    return;
  /* Remembered for the next run: every column now hidden, by its id. */
  if (settings != NULL)
    {
      GListModel *columns = gtk_column_view_get_columns (view);
      g_autoptr(GStrvBuilder) hidden = g_strv_builder_new ();
      g_auto(GStrv) ids = NULL;
      g_auto(GStrv) was = g_settings_get_strv (settings, HIDDEN_KEY);

      for (guint c = 0; c < g_list_model_get_n_items (columns) && c < HR_MODELS_N_COLUMNS; c++)
        {
          g_autoptr(GtkColumnViewColumn) each = g_list_model_get_item (columns, c);

          if (!gtk_column_view_column_get_visible (each))
            g_strv_builder_add (hidden, column_ids[c]);
        }
      ids = g_strv_builder_end (hidden);
      if (!g_strv_equal ((const char * const *) ids, (const char * const *) was))
        g_settings_set_strv (settings, HIDDEN_KEY, (const char * const *) ids);
    }
  /* A column just shown has its header measured now. */
  hr_catalog_columns_fit (view, rows,
                          GPOINTER_TO_INT (g_object_get_data (G_OBJECT (view), "hr-unit")));
}

/* Another window (or `gsettings set`) changed the hidden columns: each
 * check item follows, and through it its column. */
static void
on_hidden_changed (GSettings    *settings,
                   const char   *key,
                   GActionGroup *group)
{
  g_auto(GStrv) hidden = g_settings_get_strv (settings, HIDDEN_KEY);

  for (guint c = 0; c < HR_MODELS_N_COLUMNS; c++)
    {
      g_autofree char *name = g_strdup_printf ("show-%s", column_ids[c]);
      gboolean visible = !g_strv_contains ((const char * const *) hidden, column_ids[c]);
      g_autoptr(GVariant) state = NULL;

      if (c == HR_MODELS_COLUMN_NAME || !g_action_group_has_action (group, name))
        continue;
      state = g_action_group_get_action_state (group, name);
      if (g_variant_get_boolean (state) != visible)
        g_action_group_change_action_state (group, name, g_variant_new_boolean (visible));
    }
}

/* Tab and Shift+Tab leave the table in one stop (GTK 4.8's list moves the
 * focus from row to row on Tab): the focus moves on from the table as if
 * it could not take it, and the arrows still move between the rows. */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkWidget             *view)
{
  GtkDirectionType direction;
  GtkRoot *root = gtk_widget_get_root (view);
  gboolean moved;

  if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab)
    direction = (state & GDK_SHIFT_MASK) ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD;
  else if (keyval == GDK_KEY_ISO_Left_Tab)
    direction = GTK_DIR_TAB_BACKWARD;
  else
    return FALSE;
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0 || root == NULL)
    return FALSE;

  gtk_widget_set_can_focus (view, FALSE);
  moved = gtk_widget_child_focus (GTK_WIDGET (root), direction);
  gtk_widget_set_can_focus (view, TRUE);
  return moved;
}

/* GTK 4.8's column view holds a header row (GtkListItemWidget, role row)
 * and the list of rows (GtkColumnListView, role list), neither named: a
 * screen reader would announce their type names. */
static void
name_column_view_parts (GtkColumnView *view)
{
  GtkWidget *header = gtk_widget_get_first_child (GTK_WIDGET (view));
  GtkWidget *list = header != NULL ? gtk_widget_get_next_sibling (header) : NULL;

  if (header != NULL && gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (header)) == GTK_ACCESSIBLE_ROLE_ROW)
    gtk_accessible_update_property (GTK_ACCESSIBLE (header),
                                    /* Translators: the header row of the Models table, for a screen reader */
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Column headers"),
                                    -1);
  if (list != NULL && gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (list)) == GTK_ACCESSIBLE_ROLE_LIST)
    gtk_accessible_update_property (GTK_ACCESSIBLE (list),
                                    /* Translators: the rows of the Models table, for a screen reader */
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Models"),
                                    -1);
}

/**
 * hr_catalog_columns_setup:
 * @view: the table, its columns appended in #HrModelsColumn order
 * @owner: the box around @view (the #HrCatalogView): it holds the "table"
 *   action group and the label that measures the pills
 *
 * Shows every column, gives every header a menu of check items to show or
 * hide each column but the name ("table.show-NAME"), makes Tab leave the
 * table in one stop, and names the view's header row and list of rows for
 * a screen reader. hr_catalog_columns_bind_settings() then hides what the
 * settings name and saves what the user picks.
 */
void
hr_catalog_columns_setup (GtkColumnView *view,
                          GtkWidget     *owner)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();
  GtkEventController *keys;
  GtkWidget *probe;
  guint n = g_list_model_get_n_items (columns);

  for (guint c = 0; c < n && c < HR_MODELS_N_COLUMNS; c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
      gboolean visible = TRUE;
      g_autofree char *name = g_strdup_printf ("show-%s", column_ids[c]);
      g_autofree char *detailed = g_strdup_printf ("table.%s", name);
      g_autoptr(GSimpleAction) action = NULL;

      gtk_column_view_column_set_visible (column, visible);
      if (c == HR_MODELS_COLUMN_NAME)
        continue;
      action = g_simple_action_new_stateful (name, NULL, g_variant_new_boolean (visible));
      g_signal_connect_object (action, "change-state", G_CALLBACK (on_show_column), column, 0);
      g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
      g_menu_append (section, hr_catalog_view_column_title (c), detailed);
    }
  /* Translators: the heading of the table header's menu of columns */
  g_menu_append_section (menu, _("Show Columns"), G_MENU_MODEL (section));
  for (guint c = 0; c < n; c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

      gtk_column_view_column_set_header_menu (column, G_MENU_MODEL (menu));
    }
  gtk_widget_insert_action_group (owner, "table", G_ACTION_GROUP (group));
  g_object_set_data_full (G_OBJECT (view), "hr-table-actions", g_object_ref (group), g_object_unref);

  probe = gtk_label_new (NULL);
  gtk_widget_add_css_class (probe, "verdict-pill");
  gtk_widget_add_css_class (probe, "numeric");
  gtk_widget_set_child_visible (probe, FALSE);
  gtk_box_append (GTK_BOX (owner), probe);
  g_object_set_data_full (G_OBJECT (view), "hr-verdict-probe", g_object_ref (probe), g_object_unref);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), view);
  gtk_widget_add_controller (GTK_WIDGET (view), keys);
  name_column_view_parts (view);
}

/**
 * hr_catalog_columns_bind_settings:
 * @view: a table set up with hr_catalog_columns_setup()
 * @settings: the application's settings (hr_session_get_settings())
 *
 * Hides the columns the "hidden-catalog-columns" key names (by default
 * precision, file size, KV bytes per token and source), then saves there
 * every column the user hides or shows from a header's menu, for the next
 * run, and follows the key when it changes elsewhere. Once per table.
 */
void
hr_catalog_columns_bind_settings (GtkColumnView *view,
                                  GSettings     *settings)
{
  GActionGroup *group = g_object_get_data (G_OBJECT (view), "hr-table-actions");

  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));
  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (group != NULL);
  g_return_if_fail (g_object_get_data (G_OBJECT (view), "hr-settings") == NULL);

  /* The saved columns first, with nothing saved while they are applied
   * one by one; then what the user picks is. */
  on_hidden_changed (settings, HIDDEN_KEY, group);
  g_object_set_data_full (G_OBJECT (view), "hr-settings", g_object_ref (settings), g_object_unref);
  g_signal_connect_object (settings, "changed::" HIDDEN_KEY, G_CALLBACK (on_hidden_changed), group, 0);
}

/* The columns a compact row shows: the name, the total and the verdict. */
static gboolean
compact_column (guint c)
{
  return c == HR_MODELS_COLUMN_NAME || c == HR_MODELS_COLUMN_TOTAL || c == HR_MODELS_COLUMN_VERDICT;
}

/**
 * hr_catalog_columns_set_compact:
 * @view: the table, set up by hr_catalog_columns_setup()
 * @owner: the box hr_catalog_columns_setup() was given
 * @compact: %TRUE for the compact row
 *
 * With @compact, shows only the name, the total and the verdict pill,
 * whatever the header's menu says, so that the verdict is on screen in a
 * phone-sized window; without, shows again the columns the menu's check
 * items ("table.show-NAME") ask for. The setting of hidden columns is not
 * changed: the compact row is the window's width, not the user's choice.
 */
void
hr_catalog_columns_set_compact (GtkColumnView *view,
                                GtkWidget     *owner,
                                gboolean       compact)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  GActionGroup *group = g_object_get_data (G_OBJECT (view), "hr-table-actions");

  g_object_set_data (G_OBJECT (view), "hr-compact", GINT_TO_POINTER (compact));
  for (guint c = 0; c < g_list_model_get_n_items (columns) && c < HR_MODELS_N_COLUMNS; c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
      g_autofree char *name = g_strdup_printf ("show-%s", column_ids[c]);
      gboolean visible = c == HR_MODELS_COLUMN_NAME;

      if (compact)
        visible = compact_column (c);
      else if (!visible && group != NULL && g_action_group_has_action (group, name))
        {
          g_autoptr(GVariant) state = g_action_group_get_action_state (group, name);

          visible = g_variant_get_boolean (state);
        }
      if (gtk_column_view_column_get_visible (column) != visible)
        gtk_column_view_column_set_visible (column, visible);
    }
}

/**
 * hr_catalog_columns_get_compact:
 * @view: the table
 *
 * Returns: whether the table shows the compact row
 *   (hr_catalog_columns_set_compact())
 */
gboolean
hr_catalog_columns_get_compact (GtkColumnView *view)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (view), "hr-compact"));
}

/* Below this width, in pixels, the table shows the compact row (name,
 * total, verdict pill): at a phone's 360 px the full row puts the verdict
 * off screen. libadwaita 1.2 has no breakpoint type for this, so the owner's own
 * width decides. */
#define COMPACT_WIDTH 600

/* What hr_catalog_columns_follow_width() keeps on the view. */
typedef struct {
  GtkColumnView *view;
  GtkWidget     *owner;
  guint          compact_id;      /* idle that switches the compact row */
  guint          realign_tick;    /* tick callback that realigns the rows */
  guint          realign_frames;  /* frames it still realigns at */
  int            aligned_width;   /* the width the rows were realigned at */
} Follower;

/* Switches the compact row to what the owner's width asks for, out of the
 * allocation. */
static gboolean
apply_compact (gpointer user_data)
{
  Follower *f = user_data;
  gboolean compact = gtk_widget_get_width (f->owner) < COMPACT_WIDTH;

  f->compact_id = 0;
  if (compact != hr_catalog_columns_get_compact (f->view))
    hr_catalog_columns_set_compact (f->view, f->owner, compact);
  return G_SOURCE_REMOVE;
}

/* GTK 4.8's column view allocates a row's cells only when the row itself
 * is allocated a new size or asks for it: a row whose size is unchanged
 * (the list is at its minimum width, scrolled sideways) keeps the cell
 * offsets of the columns' old widths while the header moves on, and a row
 * recycled from before the resize keeps its old layout. Every row asks
 * for a new allocation after the view's width or a column changes. */
static gboolean
realign_rows (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  Follower *f = user_data;
  GtkWidget *list = gtk_widget_get_last_child (GTK_WIDGET (f->view));

  for (GtkWidget *row = list != NULL ? gtk_widget_get_first_child (list) : NULL; row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      gtk_widget_queue_allocate (row);
      for (GtkWidget *cell = gtk_widget_get_first_child (row); cell != NULL;
           cell = gtk_widget_get_next_sibling (cell))
        gtk_widget_queue_resize (cell);
    }
  /* A few frames running: a column shown from an idle, or a row the list
   * binds at the next frame, is realigned too. */
  if (list == NULL || --f->realign_frames == 0)
    {
      f->realign_tick = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
queue_realign (Follower *f)
{
  /* Not now: a row queued for allocation while the window is being
   * allocated is not allocated again before this frame is drawn. At the
   * next frame's start, before its layout. */
  f->realign_frames = 3;
  if (f->realign_tick == 0)
    f->realign_tick = gtk_widget_add_tick_callback (GTK_WIDGET (f->view), realign_rows, f, NULL);
}

/* The table's width changed (its horizontal adjustment's page is its
 * width, set as it is allocated): realign the rows, and switch the
 * compact row when the width crossed COMPACT_WIDTH. */
static void
on_page_size_changed (GtkAdjustment *adjustment,
                      GParamSpec    *pspec,
                      Follower      *f)
{
  int width = gtk_widget_get_width (f->owner);
  gboolean compact = width < COMPACT_WIDTH;

  if (compact != hr_catalog_columns_get_compact (f->view) && f->compact_id == 0)
    f->compact_id = g_idle_add (apply_compact, f);
  if (width != f->aligned_width)
    {
      f->aligned_width = width;
      queue_realign (f);
    }
}

static void
on_column_changed (GObject    *column,
                   GParamSpec *pspec,
                   Follower   *f)
{
  queue_realign (f);
}

/**
 * hr_catalog_columns_follow_width:
 * @view: the table, its columns appended
 * @owner: the box around @view, whose width decides the compact row
 *
 * From now on, whenever the table's width changes or a column is shown,
 * hidden or widened, every row is realigned under the header at the next
 * frames (GTK 4.8 leaves rows drawn earlier at their old offsets); and
 * the table shows the compact row (hr_catalog_columns_set_compact())
 * while @owner is narrower than 600 px. Call
 * hr_catalog_columns_stop_following() before @view goes.
 */
void
hr_catalog_columns_follow_width (GtkColumnView *view,
                                 GtkWidget     *owner)
{
  Follower *f = g_new0 (Follower, 1);
  GListModel *columns = gtk_column_view_get_columns (view);

  f->view = view;
  f->owner = owner;
  g_object_set_data_full (G_OBJECT (view), "hr-follower", f, g_free);
  g_signal_connect (gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (view)), "notify::page-size",
                    G_CALLBACK (on_page_size_changed), f);
  for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

      g_signal_connect (column, "notify::visible", G_CALLBACK (on_column_changed), f);
      g_signal_connect (column, "notify::fixed-width", G_CALLBACK (on_column_changed), f);
    }
}

/**
 * hr_catalog_columns_stop_following:
 * @view: a table hr_catalog_columns_follow_width() follows
 *
 * Stops what hr_catalog_columns_follow_width() started: its idle, its
 * tick callback and its handlers.
 */
void
hr_catalog_columns_stop_following (GtkColumnView *view)
{
  Follower *f = g_object_get_data (G_OBJECT (view), "hr-follower");
  GListModel *columns = gtk_column_view_get_columns (view);
  GtkAdjustment *adjustment = gtk_scrollable_get_hadjustment (GTK_SCROLLABLE (view));

  if (f == NULL)
    return;
  g_clear_handle_id (&f->compact_id, g_source_remove);
  if (f->realign_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (view), f->realign_tick);
  f->realign_tick = 0;
  if (adjustment != NULL)
    g_signal_handlers_disconnect_by_data (adjustment, f);
  for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

      g_signal_handlers_disconnect_by_data (column, f);
    }
  g_object_set_data (G_OBJECT (view), "hr-follower", NULL);
}
