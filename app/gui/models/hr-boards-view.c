/* hr-boards-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-boards-view.h"
#include "hr-export.h"
#include "hr-gui-format.h"
#include "hr-gui-widget-util.h"
#include "hr-measurement.h"
#include "hr-model-row.h"
#include "hr-priors.h"

typedef struct {
  HrBoard         *board;        /* owned copy */
  HrCalibration    calibration;
  char            *learned_text; /* hr_calibration_describe(), or NULL without a runtime */
  HrEvaluation    *evals;        /* one per model */
  gint             recommended;
} Column;

struct _HrBoardsView
{
  AdwBin      parent_instance;

  GtkWidget  *inputs_label;
  GtkWidget  *note_label;
  GtkWidget  *scrolled;
  GtkWidget  *grid;      /* the boards' cells, scrolling sideways */
  GtkWidget  *names;     /* the model column beside it, fixed */
  GPtrArray  *cells;     /* GtkWidget*, the grid's cells row by row (not owned) */
  guint       focus_row; /* the cell that is the grid's one tab stop */
  guint       focus_column;

  GPtrArray  *models;    /* char*, the model names in the page's order */
  GArray     *columns;   /* Column */
  char       *inputs;
  guint       n_listed;  /* models in the page's list, laid out or not */

  HrScenario *scenario;  /* followed while the view shows */
  GListModel *rows;      /* HrModelRow, the page's order */
  HrUnit      unit;
};

G_DEFINE_FINAL_TYPE (HrBoardsView, hr_boards_view, ADW_TYPE_BIN)

static void
column_clear (Column *c)
{
  g_clear_pointer (&c->board, hr_board_free);
  g_clear_pointer (&c->learned_text, g_free);
  g_clear_pointer (&c->evals, g_free);
}

/* ------------------------------------------------------------------ */
/* Cells                                                               */

/* A cell: a box that takes the focus itself when it may (GtkBox only
 * passes it on to its children, and none of a cell's takes it). */
#define HR_TYPE_BOARDS_CELL (hr_boards_cell_get_type ())
G_DECLARE_FINAL_TYPE (HrBoardsCell, hr_boards_cell, HR, BOARDS_CELL, GtkBox)

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

static char *
cell_text (const HrEvaluation *e,
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

static GtkWidget *
grid_label (const char *text,
            const char *css_class,
            float       xalign)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static GtkWidget *
make_cell (const HrEvaluation *e,
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
  GtkWidget *figures_label = grid_label (figures, "numeric", 0.0);

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

/* ------------------------------------------------------------------ */
/* The keyboard                                                        */

/* The grid is one tab stop: only the cell last moved to is focusable, so
 * Tab enters the grid on it and the next Tab leaves the grid; the arrow
 * keys, Home and End (with Ctrl the first and the last cell), Page Up and
 * Page Down move between the cells. A cell says its accessible label when
 * it takes the focus. */

static GtkWidget *
cell_at (HrBoardsView *self,
         guint         row,
         guint         column)
{
  return g_ptr_array_index (self->cells, row * self->columns->len + column);
}

/* Makes the cell at (@row, @column) the tab stop; @grab: and focuses it. */
static void
set_tab_stop (HrBoardsView *self,
              guint         row,
              guint         column,
              gboolean      grab)
{
  GtkWidget *old = cell_at (self, self->focus_row, self->focus_column);
  GtkWidget *cell = cell_at (self, row, column);

  gtk_widget_set_focusable (cell, TRUE);
  if (grab)
    gtk_widget_grab_focus (cell);
  if (old != cell)
    gtk_widget_set_focusable (old, FALSE);
  self->focus_row = row;
  self->focus_column = column;
}

/* Scrolls @adjustment the least that shows @start to @start + @size of
 * its viewport's coordinates, focus ring included. */
static void
scroll_to_show (GtkAdjustment *adjustment,
                double         start,
                double         size)
{
  const double ring = 4.0; /* the outline and its offset, style.css */
  double value = gtk_adjustment_get_value (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);

  start += value - ring;
  size += 2 * ring;
  if (start < value)
    gtk_adjustment_set_value (adjustment, start);
  else if (start + size > value + page)
    gtk_adjustment_set_value (adjustment, MIN (start, start + size - page));
}

/* The whole of @cell in view, sideways in the grid's scroller and up and
 * down in the view's. */
static void
scroll_to_cell (HrBoardsView *self,
                GtkWidget    *cell)
{
  GtkWidget *sideways = gtk_widget_get_ancestor (self->grid, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *across = gtk_widget_get_parent (self->grid);       /* the sideways viewport */
  GtkWidget *down = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (self->scrolled));
  graphene_rect_t bounds;

  if (gtk_widget_compute_bounds (cell, across, &bounds))
    scroll_to_show (gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (sideways)),
                    bounds.origin.x, bounds.size.width);
  if (gtk_widget_compute_bounds (cell, down, &bounds))
    scroll_to_show (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scrolled)),
                    bounds.origin.y, bounds.size.height);
}

/* The rows a page of the view's scroller shows, at least one. */
static gint64
rows_per_page (HrBoardsView *self)
{
  GtkAdjustment *vertical = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scrolled));
  int row_height = gtk_widget_get_height (cell_at (self, self->focus_row, self->focus_column)) +
                   gtk_grid_get_row_spacing (GTK_GRID (self->grid));

  return MAX (1, (gint64) (gtk_adjustment_get_page_size (vertical) / MAX (row_height, 1)));
}

static gboolean
on_grid_key_pressed (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     HrBoardsView          *self)
{
  gint64 row = self->focus_row;
  gint64 column = self->focus_column;
  gint64 forward = gtk_widget_get_direction (self->grid) == GTK_TEXT_DIR_RTL ? -1 : 1;
  gboolean control = (state & GDK_CONTROL_MASK) != 0;
  gboolean home_or_end = keyval == GDK_KEY_Home || keyval == GDK_KEY_KP_Home ||
                         keyval == GDK_KEY_End || keyval == GDK_KEY_KP_End;

  /* Shift, Alt and Ctrl with the arrows are the window's and the scroller's. */
  if (self->cells->len == 0 || (state & (GDK_SHIFT_MASK | GDK_ALT_MASK)) != 0 ||
      (control && !home_or_end) || gtk_widget_get_focus_child (self->grid) == NULL)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Left: case GDK_KEY_KP_Left: column -= forward; break;
    case GDK_KEY_Right: case GDK_KEY_KP_Right: column += forward; break;
    case GDK_KEY_Up: case GDK_KEY_KP_Up: row--; break;
    case GDK_KEY_Down: case GDK_KEY_KP_Down: row++; break;
    case GDK_KEY_Page_Up: case GDK_KEY_KP_Page_Up: row -= rows_per_page (self); break;
    case GDK_KEY_Page_Down: case GDK_KEY_KP_Page_Down: row += rows_per_page (self); break;
    case GDK_KEY_Home: case GDK_KEY_KP_Home:
      column = 0;
      row = control ? 0 : row;
      break;
    case GDK_KEY_End: case GDK_KEY_KP_End:
      column = (gint64) self->columns->len - 1;
      row = control ? (gint64) self->models->len - 1 : row;
      break;
    default:
      return FALSE;
    }
  /* At an edge the focus stays in the grid, as in a table. */
  set_tab_stop (self, (guint) CLAMP (row, 0, (gint64) self->models->len - 1),
                (guint) CLAMP (column, 0, (gint64) self->columns->len - 1), TRUE);
  scroll_to_cell (self, cell_at (self, self->focus_row, self->focus_column));
  return TRUE;
}

static GtkWidget *
new_grid (void)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_set_margin_top (grid, 6);
  gtk_widget_set_margin_bottom (grid, 12);
  return grid;
}

/* Puts @name in the model column and @cell beside it, the two kept to one
 * height (they sit in two grids). */
static void
attach_row (GtkWidget *names,
            int        row,
            GtkWidget *name,
            GtkWidget *first_cell)
{
  g_autoptr(GtkSizeGroup) height = gtk_size_group_new (GTK_SIZE_GROUP_VERTICAL);

  gtk_grid_attach (GTK_GRID (names), name, 0, row, 1, 1);
  gtk_size_group_add_widget (height, name);
  if (first_cell != NULL)
    gtk_size_group_add_widget (height, first_cell);
}

/* The model column stays in place while the boards scroll sideways: it is
 * a grid of its own beside the horizontal scroller of the boards' grid;
 * both scroll up and down together in the view's scroller. */
static void
rebuild_grid (HrBoardsView *self,
              HrUnit        unit)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *names = new_grid ();
  GtkWidget *grid = new_grid ();
  GtkWidget *sideways = gtk_scrolled_window_new ();

  g_ptr_array_set_size (self->cells, 0);
  int n_columns = (int) self->columns->len;
  GtkWidget *first[3] = { NULL, NULL, NULL };
  GtkEventController *keys = gtk_event_controller_key_new ();
  gboolean had_focus = self->grid != NULL && gtk_widget_get_focus_child (self->grid) != NULL;

  gtk_widget_set_margin_start (names, 12);
  gtk_widget_set_margin_end (names, 18);
  gtk_widget_set_margin_end (grid, 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (grid),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Models on each board"),
                                  -1);

  for (guint b = 0; b < self->columns->len; b++)
    {
      Column *c = &g_array_index (self->columns, Column, b);
      GtkWidget *name = grid_label (c->board->name, "heading", 0.0);
      const char *best = c->recommended >= 0 ? g_ptr_array_index (self->models, c->recommended)
                                             : _("none");
      GtkWidget *recommended = grid_label (best, c->recommended >= 0 ? "accent" : "dim-label", 0.0);

      if (c->learned_text != NULL)
        gtk_widget_set_tooltip_text (name, c->learned_text);
      gtk_grid_attach (GTK_GRID (grid), name, (int) b, 0, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), recommended, (int) b, 1, 1, 1);
      if (b == 0)
        {
          first[0] = name;
          first[1] = recommended;
        }
    }
  attach_row (names, 0, grid_label (_("Model"), "heading", 0.0), first[0]);
  attach_row (names, 1, grid_label (_("Recommended"), "dim-label", 0.0), first[1]);
  gtk_grid_attach (GTK_GRID (names), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL), 0, 2, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL),
                   0, 2, MAX (n_columns, 1), 1);

  for (guint r = 0; r < self->models->len; r++)
    {
      const char *model = g_ptr_array_index (self->models, r);
      GtkWidget *first_cell = NULL;

      for (guint b = 0; b < self->columns->len; b++)
        {
          Column *c = &g_array_index (self->columns, Column, b);
          GtkWidget *cell = make_cell (&c->evals[r], model, c->board, c->recommended == (gint) r, unit);

          gtk_grid_attach (GTK_GRID (grid), cell, (int) b, (int) r + 3, 1, 1);
          g_ptr_array_add (self->cells, cell);
          if (b == 0)
            first_cell = cell;
        }
      attach_row (names, (int) r + 3, grid_label (model, NULL, 0.0), first_cell);
    }

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (sideways), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (sideways), grid);
  gtk_widget_set_hexpand (sideways, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (sideways),
                                  /* Translators: for a screen reader, the figures of each model on each board, beside the models' names */
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Figures on each board"),
                                  -1);
  gtk_box_append (GTK_BOX (box), names);
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  gtk_box_append (GTK_BOX (box), sideways);
  gtk_widget_set_margin_start (grid, 18);

  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_grid_key_pressed), self);
  gtk_widget_add_controller (grid, keys);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), box);
  self->grid = grid;
  self->names = names;
  /* The tab stop stays where it was, as near as the new grid allows. */
  if (self->cells->len > 0)
    {
      self->focus_row = MIN (self->focus_row, self->models->len - 1);
      self->focus_column = MIN (self->focus_column, self->columns->len - 1);
      set_tab_stop (self, self->focus_row, self->focus_column, had_focus);
    }
}

/* ------------------------------------------------------------------ */
/* Public                                                              */

/**
 * hr_boards_view_update:
 * @self: a #HrBoardsView
 * @boards: (element-type HrBoard): the columns, in order; copied
 * @specs: (element-type HrModelSpec): the rows, in the page's order; the
 *   first %HR_BOARDS_VIEW_MAX_MODELS are laid out
 * @measurements: (element-type HrMeasurement): the archive: each board's
 *   measured rates, efficiency fit and learned overhead come from it
 * @catalog: (element-type HrModelSpec): to predict the archive's sizes again
 *   (hr_calibration_points_from_archive())
 * @scenario: precision, KV cache type, context, parallel slots and the
 *   CPU's prior (its board is not used: each column has its own, rated with
 *   its own kind's prior from the view's scenario's session,
 *   hr_session_get_prior(); without a scenario, only the boards of the
 *   scenario board's kind get @scenario's prior)
 * @runtime: (nullable): the runtime settings; %NULL: weights + KV cache only
 * @runtime_from_board: the era and the learned overhead follow each board's
 *   own server version (hr_measurement_archive_server_version())
 * @unit: GB or GiB for the cells
 * @inputs: the inputs in words, shown above the table and put in the CSV
 *
 * Evaluates every model on every board the way `headroom-cli matrix` does:
 * hr_evaluate() with the board's own efficiency fit and measured rates,
 * the runtime footprint plus the board's learned overhead when @runtime is
 * given (hr_model_row_evaluate_runtime()), and hr_recommend() per board.
 */
void
hr_boards_view_update (HrBoardsView          *self,
                       GPtrArray             *boards,
                       GPtrArray             *specs,
                       GPtrArray             *measurements,
                       GPtrArray             *catalog,
                       const HrEvaluationInputs      *scenario,
                       const HrRuntimeInputs *runtime,
                       gboolean               runtime_from_board,
                       HrUnit                 unit,
                       const char            *inputs)
{
  g_autoptr(GPtrArray) rows = NULL;
  HrSession *session;
  guint n;

  g_return_if_fail (HR_IS_BOARDS_VIEW (self));
  session = self->scenario != NULL ? hr_scenario_get_session (self->scenario) : NULL;
  g_return_if_fail (boards != NULL && specs != NULL && scenario != NULL);

  n = MIN (specs->len, HR_BOARDS_VIEW_MAX_MODELS);
  self->n_listed = specs->len;
  g_ptr_array_set_size (self->models, 0);
  rows = g_ptr_array_new_full (n, g_object_unref);
  for (guint r = 0; r < n; r++)
    {
      const HrModelSpec *spec = g_ptr_array_index (specs, r);

      g_ptr_array_add (self->models, g_strdup (spec->name));
      g_ptr_array_add (rows, hr_model_row_new (spec));
    }

  g_array_set_size (self->columns, 0);
  g_array_set_size (self->columns, boards->len);
  for (guint b = 0; b < boards->len; b++)
    {
      Column *c = &g_array_index (self->columns, Column, b);
      g_autoptr(GArray) points = NULL;
      g_autoptr(GHashTable) rates = NULL;
      g_autofree HrModelSpec **row_specs = g_new0 (HrModelSpec *, MAX (n, 1));
      HrEfficiencyFit fit = { 0 };
      HrRuntimeInputs board_runtime;
      HrEvaluationInputs s;

      c->board = hr_board_copy (g_ptr_array_index (boards, b));
      c->recommended = -1;
      points = hr_measurement_archive_points (measurements, c->board->id, catalog);
      if (!hr_rate_fit_efficiency ((const HrRatePoint *) (gpointer) points->data, points->len,
                                   c->board->bandwidth_bytes_per_s, &fit, NULL))
        fit = (HrEfficiencyFit) { 0 };
      rates = hr_measurement_archive_rates (measurements, c->board->id);

      hr_evaluation_inputs_init (&s, c->board, &fit);
      /* The CPU's prior for every split; each board's own kind's prior
       * (hr-priors.h), as `headroom-cli matrix` rates each board, whatever
       * board the scenario has selected. */
      s.cpu_prior_efficiency = scenario->cpu_prior_efficiency;
      if (session != NULL)
        s.prior_efficiency = hr_session_get_prior (session, hr_board_hardware_kind (c->board), NULL);
      else if (scenario->board != NULL
               && hr_board_hardware_kind (scenario->board) == hr_board_hardware_kind (c->board))
        s.prior_efficiency = scenario->prior_efficiency;
      s.precision = scenario->precision;
      s.kv_type = scenario->kv_type;
      s.context_tokens = scenario->context_tokens;
      s.parallel_slots = scenario->parallel_slots;

      if (runtime != NULL)
        {
          g_autoptr(GArray) residuals = NULL;

          board_runtime = *runtime;
          if (runtime_from_board)
            {
              board_runtime.era = HR_RUNTIME_ERA_AUTO;
              board_runtime.server_version = hr_measurement_archive_server_version (measurements, c->board->id);
            }
          residuals = hr_calibration_points_from_archive (measurements, c->board->id,
                                                          board_runtime.server_version,
                                                          catalog, &board_runtime);
          if (!hr_calibration_fit ((const HrResidualPoint *) (gpointer) residuals->data,
                                   residuals->len, &c->calibration, NULL))
            hr_calibration_fit (NULL, 0, &c->calibration, NULL);
          c->learned_text = hr_calibration_describe (&c->calibration);
        }

      c->evals = g_new0 (HrEvaluation, MAX (n, 1));
      for (guint r = 0; r < n; r++)
        {
          HrModelRow *row = g_ptr_array_index (rows, r);
          const double *tps = g_hash_table_lookup (rates, hr_model_row_get_name (row));

          hr_model_row_set_measured_tps (row, tps ? *tps : 0.0);
          hr_model_row_evaluate_runtime (row, &s, runtime != NULL ? &board_runtime : NULL,
                                         runtime != NULL ? &c->calibration : NULL);
          c->evals[r] = *hr_model_row_get_evaluation (row);
          row_specs[r] = (HrModelSpec *) hr_model_row_get_spec (row);
        }
      c->recommended = hr_recommend (row_specs, c->evals, n);
    }

  g_free (self->inputs);
  self->inputs = g_strdup (inputs ? inputs : "");
  gtk_label_set_text (GTK_LABEL (self->inputs_label), self->inputs);

  if (self->n_listed > n)
    {
      g_autofree char *shown = hr_gui_format_count (n);
      g_autofree char *all = hr_gui_format_count (self->n_listed);
      g_autofree char *text = g_strdup_printf (_("The first %s of %s models, in the list's order; "
                                                 "search to narrow the list"), shown, all);

      gtk_label_set_text (GTK_LABEL (self->note_label), text);
      gtk_widget_set_visible (self->note_label, TRUE);
    }
  else
    gtk_widget_set_visible (self->note_label, FALSE);

  rebuild_grid (self, unit);
}

static gint
model_index (HrBoardsView *self,
             const char   *model)
{
  for (guint r = 0; r < self->models->len; r++)
    if (g_strcmp0 (g_ptr_array_index (self->models, r), model) == 0)
      return (gint) r;
  return -1;
}

static Column *
find_column (HrBoardsView *self,
             const char   *board_id)
{
  for (guint b = 0; b < self->columns->len; b++)
    {
      Column *c = &g_array_index (self->columns, Column, b);

      if (g_strcmp0 (c->board->id, board_id) == 0)
        return c;
    }
  return NULL;
}

/**
 * hr_boards_view_get_n_models:
 * @self: a #HrBoardsView
 *
 * Returns: the rows laid out
 */
guint
hr_boards_view_get_n_models (HrBoardsView *self)
{
  g_return_val_if_fail (HR_IS_BOARDS_VIEW (self), 0);

  return self->models->len;
}

/**
 * hr_boards_view_get_n_boards:
 * @self: a #HrBoardsView
 *
 * Returns: the columns
 */
guint
hr_boards_view_get_n_boards (HrBoardsView *self)
{
  g_return_val_if_fail (HR_IS_BOARDS_VIEW (self), 0);

  return self->columns->len;
}

/**
 * hr_boards_view_get_evaluation:
 * @self: a #HrBoardsView
 * @model: a model name
 * @board_id: a board id
 *
 * Returns: (transfer none) (nullable): the cell's evaluation, or %NULL when
 *   the view has no such row or column
 */
const HrEvaluation *
hr_boards_view_get_evaluation (HrBoardsView *self,
                               const char   *model,
                               const char   *board_id)
{
  gint r;
  Column *c;

  g_return_val_if_fail (HR_IS_BOARDS_VIEW (self), NULL);

  r = model_index (self, model);
  c = find_column (self, board_id);
  if (r < 0 || c == NULL)
    return NULL;
  return &c->evals[r];
}

/**
 * hr_boards_view_get_cell_text:
 * @self: a #HrBoardsView
 * @model: a model name
 * @board_id: a board id
 *
 * Returns: (transfer full) (nullable): the cell in words, "fits · 2.63 GB ·
 *   18.4 t/s measured" (in the view's unit), or %NULL for no such cell
 */
char *
hr_boards_view_get_cell_text (HrBoardsView *self,
                              const char   *model,
                              const char   *board_id)
{
  const HrEvaluation *e = hr_boards_view_get_evaluation (self, model, board_id);

  if (e == NULL)
    return NULL;
  return cell_text (e, HR_UNIT_GB);
}

/**
 * hr_boards_view_get_recommended:
 * @self: a #HrBoardsView
 * @board_id: a board id
 *
 * Returns: (transfer none) (nullable): the model hr_recommend() picked on
 *   the board, or %NULL when none qualifies or there is no such column
 */
const char *
hr_boards_view_get_recommended (HrBoardsView *self,
                                const char   *board_id)
{
  Column *c;

  g_return_val_if_fail (HR_IS_BOARDS_VIEW (self), NULL);

  c = find_column (self, board_id);
  if (c == NULL || c->recommended < 0)
    return NULL;
  return g_ptr_array_index (self->models, c->recommended);
}

/**
 * hr_boards_view_to_csv:
 * @self: a #HrBoardsView
 *
 * The view as CSV (RFC 4180, CRLF): a "# " line with the inputs, then one
 * line per model and board: model, board id, board name, verdict, margin
 * and footprint in bytes, decode tokens/s (one decimal, empty for none),
 * its source, the speed and whether the model is the board's
 * recommendation. Verdicts, sources and speeds are the stable English ids
 * (hr_verdict_to_string() ...), as `headroom-cli matrix --csv` writes them.
 *
 * Returns: (transfer full): the text
 */
char *
hr_boards_view_to_csv (HrBoardsView *self)
{
  GString *csv;

  g_return_val_if_fail (HR_IS_BOARDS_VIEW (self), NULL);

  csv = g_string_new ("# ");
  g_string_append (csv, self->inputs);
  g_string_append (csv, "\r\n");
  g_string_append (csv, "model,board,board_name,verdict,margin_bytes,footprint_bytes,tps,source,speed,recommended\r\n");

  for (guint r = 0; r < self->models->len; r++)
    for (guint b = 0; b < self->columns->len; b++)
      {
        Column *c = &g_array_index (self->columns, Column, b);
        const HrEvaluation *e = &c->evals[r];
        g_autofree char *tps = e->tps > 0.0 && isfinite (e->tps) ? hr_format_decimal (e->tps, 1)
                                                                 : g_strdup ("");

        hr_export_csv_field (csv, g_ptr_array_index (self->models, r));
        g_string_append_c (csv, ',');
        hr_export_csv_field (csv, c->board->id);
        g_string_append_c (csv, ',');
        hr_export_csv_field (csv, c->board->name);
        g_string_append_printf (csv, ",%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s,%s,%s,%s\r\n",
                                hr_verdict_to_string (e->verdict), e->margin_bytes,
                                e->footprint.total, tps, hr_rate_source_to_string (e->source),
                                hr_speed_to_string (e->speed),
                                c->recommended == (gint) r ? "yes" : "no");
      }
  return g_string_free (csv, FALSE);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_boards_view_finalize (GObject *object)
{
  HrBoardsView *self = (HrBoardsView *)object;

  g_clear_pointer (&self->models, g_ptr_array_unref);
  g_clear_pointer (&self->cells, g_ptr_array_unref);
  g_clear_pointer (&self->columns, g_array_unref);
  g_clear_pointer (&self->inputs, g_free);

  G_OBJECT_CLASS (hr_boards_view_parent_class)->finalize (object);
}

/* ------------------------------------------------------------------ */
/* Following the scenario                                              */

/* The view is laid out only while it shows: with thousands of models, the
 * list's slider steps stay as fast as without it. */
static void
refresh (HrBoardsView *self)
{
  g_autoptr(GPtrArray) specs = NULL;
  g_autofree char *inputs = NULL;
  HrSession *session;
  guint n;

  if (self->scenario == NULL || self->rows == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)) ||
      hr_scenario_get_board (self->scenario) == NULL)
    return;

  session = hr_scenario_get_session (self->scenario);
  n = MIN (g_list_model_get_n_items (self->rows), HR_BOARDS_VIEW_MAX_MODELS);
  specs = g_ptr_array_new_full (n, NULL);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrModelRow) row = g_list_model_get_item (self->rows, i);

      g_ptr_array_add (specs, (gpointer) hr_model_row_get_spec (row));
    }
  inputs = hr_scenario_describe (self->scenario);
  hr_boards_view_update (self, hr_session_get_boards (session), specs,
                         hr_session_get_measurements (session), hr_session_get_catalog (session),
                         hr_scenario_peek_evaluation_inputs (self->scenario),
                         hr_scenario_get_runtime_template (self->scenario),
                         hr_scenario_get_runtime (self->scenario) == HR_SCENARIO_RUNTIME_BOARD,
                         self->unit, inputs);
}

static void
on_rows_changed (GListModel   *rows,
                 guint         position,
                 guint         removed,
                 guint         added,
                 HrBoardsView *self)
{
  refresh (self);
}

/**
 * hr_boards_view_follow:
 * @self: a #HrBoardsView
 * @scenario: the scenario every cell is computed under (its session gives
 *   the boards, the archive and the catalog)
 * @rows: (element-type HrModelRow): the models, in the page's order (the
 *   first %HR_BOARDS_VIEW_MAX_MODELS are laid out)
 *
 * Lays the view out again on each #HrScenario::changed and change of
 * @rows, while it shows (and when it is shown). Set once.
 */
void
hr_boards_view_follow (HrBoardsView *self,
                       HrScenario   *scenario,
                       GListModel   *rows)
{
  g_return_if_fail (HR_IS_BOARDS_VIEW (self));
  g_return_if_fail (HR_IS_SCENARIO (scenario));
  g_return_if_fail (G_IS_LIST_MODEL (rows));
  g_return_if_fail (self->scenario == NULL);

  self->scenario = g_object_ref (scenario);
  self->rows = g_object_ref (rows);
  g_signal_connect_object (scenario, "changed", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (rows, "items-changed", G_CALLBACK (on_rows_changed), self, 0);
  refresh (self);
}

/**
 * hr_boards_view_set_unit:
 * @self: a #HrBoardsView
 * @unit: the unit the margins are shown in
 */
void
hr_boards_view_set_unit (HrBoardsView *self,
                         HrUnit        unit)
{
  g_return_if_fail (HR_IS_BOARDS_VIEW (self));

  self->unit = unit;
  refresh (self);
}

static void
hr_boards_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (hr_boards_view_parent_class)->map (widget);
  refresh (HR_BOARDS_VIEW (widget));
}

static void
hr_boards_view_dispose (GObject *object)
{
  HrBoardsView *self = (HrBoardsView *)object;

  g_clear_object (&self->scenario);
  g_clear_object (&self->rows);

  G_OBJECT_CLASS (hr_boards_view_parent_class)->dispose (object);
}

static void
hr_boards_view_class_init (HrBoardsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_boards_view_dispose;
  object_class->finalize = hr_boards_view_finalize;
  widget_class->map = hr_boards_view_map;

  gtk_widget_class_set_css_name (widget_class, "boardsview");
}

static void
hr_boards_view_init (HrBoardsView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  self->models = g_ptr_array_new_with_free_func (g_free);
  self->cells = g_ptr_array_new ();
  self->columns = g_array_new (FALSE, TRUE, sizeof (Column));
  g_array_set_clear_func (self->columns, (GDestroyNotify) column_clear);

  self->inputs_label = grid_label ("", "dim-label", 0.0);
  gtk_label_set_wrap (GTK_LABEL (self->inputs_label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->inputs_label), TRUE);
  /* Selectable with the mouse, but no tab stop. */
  hr_gui_label_no_tab_stop (GTK_LABEL (self->inputs_label));
  gtk_widget_set_margin_start (self->inputs_label, 12);
  gtk_widget_set_margin_end (self->inputs_label, 12);
  gtk_widget_set_margin_top (self->inputs_label, 6);
  gtk_box_append (GTK_BOX (box), self->inputs_label);

  self->note_label = grid_label ("", "dim-label", 0.0);
  gtk_widget_set_margin_start (self->note_label, 12);
  gtk_widget_set_visible (self->note_label, FALSE);
  gtk_box_append (GTK_BOX (box), self->note_label);

  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (self->scrolled, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->scrolled),
                                  /* Translators: for a screen reader, the grid of every model on every board */
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Models on each board"),
                                  -1);
  gtk_box_append (GTK_BOX (box), self->scrolled);

  adw_bin_set_child (ADW_BIN (self), box);
}

/**
 * hr_boards_view_new:
 *
 * Returns: (transfer floating): a new, empty #HrBoardsView
 */
GtkWidget *
hr_boards_view_new (void)
{
  return g_object_new (HR_TYPE_BOARDS_VIEW, NULL);
}
