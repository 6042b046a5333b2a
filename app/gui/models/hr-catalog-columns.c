/* hr-catalog-columns.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-catalog-columns.h"
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
  [HR_MODELS_COLUMN_TPS] = 80,              /* "11.0 prior" */
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

static int
text_width (GtkWidget  *probe,
            const char *text)
{
  gtk_label_set_text (GTK_LABEL (probe), text);
  return natural_width (probe);
}

/**
 * hr_catalog_columns_verdict_width:
 * @view: the table
 * @rows: (element-type HrModelRow): every row the table may show
 * @unit: the unit the pills show
 *
 * The natural width of the widest verdict pill of @rows, in pixels. The
 * pill is a verdict word and a size in tabular figures, so per verdict the
 * largest margin is the widest; a split's "partial N/M" is widest with the
 * most layers; on a board with several GPUs each is measured with the
 * longest "2 GPUs 41+40 layers" after it. At most five texts are
 * measured, however many rows.
 *
 * Returns: the width, without the cell's padding
 */
int
hr_catalog_columns_verdict_width (GtkColumnView *view,
                                  GListModel    *rows,
                                  HrUnit         unit)
{
  GtkWidget *probe = verdict_probe (view);
  guint64 widest_margin[HR_VERDICT_PARTIAL + 1] = { 0 };
  gboolean seen[HR_VERDICT_PARTIAL + 1] = { FALSE };
  HrEvaluation split = { 0 };
  guint n = g_list_model_get_n_items (rows);
  int width = 0;
  g_autofree char *devices = NULL; /* the longest "2 GPUs 41+40 layers" */

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (rows, i);
      const HrEvaluation *e = hr_model_row_get_evaluation (row);
      g_autofree char *where = hr_gui_format_devices_split (e);

      if (where != NULL && (devices == NULL || strlen (where) > strlen (devices)))
        {
          g_free (devices);
          devices = g_steal_pointer (&where);
        }

      if (e->verdict == HR_VERDICT_PARTIAL && e->split)
        {
          split.split = TRUE;
          split.gpu_layers = MAX (split.gpu_layers, e->gpu_layers);
          split.total_layers = MAX (split.total_layers, e->total_layers);
        }
      else if ((guint) e->verdict <= HR_VERDICT_PARTIAL)
        {
          seen[e->verdict] = TRUE;
          widest_margin[e->verdict] = MAX (widest_margin[e->verdict], e->margin_bytes);
        }
    }

  for (guint v = 0; v <= HR_VERDICT_PARTIAL; v++)
    if (seen[v])
      {
        g_autofree char *verdict = hr_gui_format_verdict (v, widest_margin[v], unit);
        g_autofree char *text = devices == NULL ? g_strdup (verdict) : g_strdup_printf (_("%1$s · %2$s"), verdict, devices);

        width = MAX (width, text_width (probe, text));
      }
  if (split.split)
    {
      g_autofree char *text = NULL;

      split.verdict = HR_VERDICT_PARTIAL;
      text = hr_gui_format_evaluation_verdict (&split, unit);
      if (devices != NULL)
        {
          g_autofree char *both = g_strdup_printf (_("%1$s · %2$s"), text, devices);

          g_free (text);
          text = g_steal_pointer (&both);
        }
      width = MAX (width, text_width (probe, text));
    }
  return width;
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

/**
 * hr_catalog_columns_fit:
 * @view: the table
 * @rows: (element-type HrModelRow): every row the table may show
 * @unit: the unit the cells show
 *
 * Widens each column's fixed width to the widest of its base width (in
 * proportion to the text's size, text_scale()), its
 * header's natural width (so no header is cut, in any language) and, for
 * the Verdict column, the widest pill of @rows with the cell's padding:
 * nothing the table's verdict says is clipped. Call it when the rows or
 * their figures change and when the table is mapped.
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
      if (c == HR_MODELS_COLUMN_VERDICT)
        width = MAX (width, hr_catalog_columns_verdict_width (view, rows, unit) + CELL_CHROME);
      /* Only wider: a column the user widened stays as wide. */
      if (gtk_column_view_column_get_fixed_width (column) < width)
        gtk_column_view_column_set_fixed_width (column, width);
    }
}

static void
on_show_column (GSimpleAction *action,
                GVariant      *state,
                gpointer       user_data)
{
  GtkColumnViewColumn *column = user_data;
  GtkColumnView *view = gtk_column_view_column_get_column_view (column);
  GListModel *rows = g_object_get_data (G_OBJECT (action), "hr-rows");

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

/**
 * hr_catalog_columns_setup:
 * @view: the table, its columns appended in #HrModelsColumn order
 * @owner: the box around @view (the #HrCatalogView): it holds the "table"
 *   action group and the label that measures the pills
 * @rows: (element-type HrModelRow): every row the table may show
 *
 * Shows the columns but those the "hidden-catalog-columns" setting names
 * (by default precision, file size, KV bytes per token and source),
 * gives every header a menu of check items to show or hide each column
 * but the name ("table.show-NAME"; what the user picks is saved in that
 * setting for the next run), and makes Tab leave the table in one stop.
 */
void
hr_catalog_columns_setup (GtkColumnView *view,
                          GtkWidget     *owner,
                          GListModel    *rows)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();
  GtkEventController *keys;
  GtkWidget *probe;
  guint n = g_list_model_get_n_items (columns);
  GSettings *settings = g_settings_new (APPLICATION_ID);
  g_auto(GStrv) hidden = g_settings_get_strv (settings, HIDDEN_KEY);

  g_object_set_data_full (G_OBJECT (view), "hr-settings", settings, g_object_unref);

  for (guint c = 0; c < n && c < HR_MODELS_N_COLUMNS; c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
      gboolean visible = c == HR_MODELS_COLUMN_NAME ||
                         !g_strv_contains ((const char * const *) hidden, column_ids[c]);
      g_autofree char *name = g_strdup_printf ("show-%s", column_ids[c]);
      g_autofree char *detailed = g_strdup_printf ("table.%s", name);
      g_autoptr(GSimpleAction) action = NULL;

      gtk_column_view_column_set_visible (column, visible);
      if (c == HR_MODELS_COLUMN_NAME)
        continue;
      action = g_simple_action_new_stateful (name, NULL, g_variant_new_boolean (visible));
      g_object_set_data (G_OBJECT (action), "hr-rows", rows);
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
  g_signal_connect_object (settings, "changed::" HIDDEN_KEY, G_CALLBACK (on_hidden_changed), group, 0);

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
