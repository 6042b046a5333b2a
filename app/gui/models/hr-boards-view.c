/* hr-boards-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "hr-boards-cell.h"
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

/* The first two rows: each board's name (its learned overhead as the
 * tooltip) and its recommended model, the model column's headings beside
 * them, then a separator across. */
static void
attach_heading_rows (HrBoardsView *self,
                     GtkWidget    *names,
                     GtkWidget    *grid)
{
  GtkWidget *first[2] = { NULL, NULL };

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
                   0, 2, MAX ((int) self->columns->len, 1), 1);
}

/* A row per model from grid row 3: its name, and its cell on each board
 * (kept in self->cells, row by row). */
static void
attach_model_rows (HrBoardsView *self,
                   GtkWidget    *names,
                   GtkWidget    *grid,
                   HrUnit        unit)
{
  for (guint r = 0; r < self->models->len; r++)
    {
      const char *model = g_ptr_array_index (self->models, r);
      GtkWidget *first_cell = NULL;

      for (guint b = 0; b < self->columns->len; b++)
        {
          Column *c = &g_array_index (self->columns, Column, b);
          GtkWidget *cell = hr_boards_cell_new (&c->evals[r], model, c->board, c->recommended == (gint) r, unit);

          gtk_grid_attach (GTK_GRID (grid), cell, (int) b, (int) r + 3, 1, 1);
          g_ptr_array_add (self->cells, cell);
          if (b == 0)
            first_cell = cell;
        }
      attach_row (names, (int) r + 3, grid_label (model, NULL, 0.0), first_cell);
    }
}

/* The model column, a separator and the boards' grid in a horizontal
 * scroller, in one box. */
static GtkWidget *
side_by_side (GtkWidget *names,
              GtkWidget *grid)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *sideways = gtk_scrolled_window_new ();

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
  return box;
}

/* The model column stays in place while the boards scroll sideways: it is
 * a grid of its own beside the horizontal scroller of the boards' grid;
 * both scroll up and down together in the view's scroller. */
static void
rebuild_grid (HrBoardsView *self,
              HrUnit        unit)
{
  GtkWidget *names = new_grid ();
  GtkWidget *grid = new_grid ();
  GtkEventController *keys = gtk_event_controller_key_new ();
  gboolean had_focus = self->grid != NULL && gtk_widget_get_focus_child (self->grid) != NULL;

  g_ptr_array_set_size (self->cells, 0);
  gtk_widget_set_margin_start (names, 12);
  gtk_widget_set_margin_end (names, 18);
  gtk_widget_set_margin_end (grid, 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (grid),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Models on each board"),
                                  -1);
  attach_heading_rows (self, names, grid);
  attach_model_rows (self, names, grid, unit);
  gtk_widget_set_margin_start (grid, 18);

  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_grid_key_pressed), self);
  gtk_widget_add_controller (grid, keys);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), side_by_side (names, grid));
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
/* Evaluating each board                                               */

/* What every column is evaluated with, besides its own board. */
typedef struct {
  GPtrArray                *measurements;
  GPtrArray                *catalog;
  const HrEvaluationInputs *scenario;
  const HrRuntimeInputs    *runtime;   /* nullable */
  gboolean                  runtime_from_board;
  HrSession                *session;   /* nullable: the priors come from it */
} ColumnInputs;

/* Lays out the first @n of @specs: their names in self->models, and a row
 * each to evaluate (returned). */
static GPtrArray *
set_models (HrBoardsView *self,
            GPtrArray    *specs,
            guint         n)
{
  GPtrArray *rows = g_ptr_array_new_full (n, g_object_unref);

  self->n_listed = specs->len;
  g_ptr_array_set_size (self->models, 0);
  for (guint r = 0; r < n; r++)
    {
      const HrModelSpec *spec = g_ptr_array_index (specs, r);

      g_ptr_array_add (self->models, g_strdup (spec->name));
      g_ptr_array_add (rows, hr_model_row_new (spec));
    }
  return rows;
}

/* @c's board's scenario: its own efficiency fit from the archive and its
 * own kind's prior, with the view's precision, KV cache type, context and
 * slots. */
static void
column_scenario (const Column       *c,
                 const ColumnInputs *ci,
                 HrEvaluationInputs *s)
{
  const HrEvaluationInputs *scenario = ci->scenario;
  g_autoptr(GArray) points = hr_measurement_archive_points (ci->measurements, c->board->id, ci->catalog);
  HrEfficiencyFit fit = { 0 };

  if (!hr_rate_fit_efficiency ((const HrRatePoint *) (gpointer) points->data, points->len,
                               c->board->bandwidth_bytes_per_s, &fit, NULL))
    fit = (HrEfficiencyFit) { 0 };

  hr_evaluation_inputs_init (s, c->board, &fit);
  /* The CPU's prior for every split; each board's own kind's prior
   * (hr-priors.h), as `headroom-cli matrix` rates each board, whatever
   * board the scenario has selected. */
  s->cpu_prior_efficiency = scenario->cpu_prior_efficiency;
  if (ci->session != NULL)
    s->prior_efficiency = hr_session_get_prior (ci->session, hr_board_hardware_kind (c->board), NULL);
  else if (scenario->board != NULL
           && hr_board_hardware_kind (scenario->board) == hr_board_hardware_kind (c->board))
    s->prior_efficiency = scenario->prior_efficiency;
  s->precision = scenario->precision;
  s->kv_type = scenario->kv_type;
  s->parallel_slots = scenario->parallel_slots;
  s->context_tokens = scenario->context_tokens;
}

/* @c's runtime settings (its own server's era when they follow the
 * board) into @out, and its learned overhead fitted from the archive. */
static void
column_runtime (Column             *c,
                const ColumnInputs *ci,
                HrRuntimeInputs    *out)
{
  g_autoptr(GArray) residuals = NULL;

  *out = *ci->runtime;
  if (ci->runtime_from_board)
    {
      out->era = HR_RUNTIME_ERA_AUTO;
      out->server_version = hr_measurement_archive_server_version (ci->measurements, c->board->id);
    }
  residuals = hr_calibration_points_from_archive (ci->measurements, c->board->id,
                                                  out->server_version, ci->catalog, out);
  if (!hr_calibration_fit ((const HrResidualPoint *) (gpointer) residuals->data,
                           residuals->len, &c->calibration, NULL))
    hr_calibration_fit (NULL, 0, &c->calibration, NULL);
  c->learned_text = hr_calibration_describe (&c->calibration);
}

/* Evaluates every row on @c's board, with its measured rates, and picks
 * its recommended model. */
static void
evaluate_column (Column             *c,
                 const ColumnInputs *ci,
                 GPtrArray          *rows)
{
  guint n = rows->len;
  g_autoptr(GHashTable) rates = hr_measurement_archive_rates (ci->measurements, c->board->id);
  g_autofree HrModelSpec **row_specs = g_new0 (HrModelSpec *, MAX (n, 1));
  HrRuntimeInputs board_runtime;
  HrEvaluationInputs s;

  column_scenario (c, ci, &s);
  if (ci->runtime != NULL)
    column_runtime (c, ci, &board_runtime);

  c->evals = g_new0 (HrEvaluation, MAX (n, 1));
  for (guint r = 0; r < n; r++)
    {
      HrModelRow *row = g_ptr_array_index (rows, r);
      const double *tps = g_hash_table_lookup (rates, hr_model_row_get_name (row));

      hr_model_row_set_measured_tps (row, tps ? *tps : 0.0);
      hr_model_row_evaluate_runtime (row, &s, ci->runtime != NULL ? &board_runtime : NULL,
                                     ci->runtime != NULL ? &c->calibration : NULL);
      c->evals[r] = *hr_model_row_get_evaluation (row);
      row_specs[r] = (HrModelSpec *) hr_model_row_get_spec (row);
    }
  c->recommended = hr_recommend (row_specs, c->evals, n);
}

/* The inputs in words above the table, and a note when only the first
 * @n of the list's models are laid out. */
static void
show_inputs (HrBoardsView *self,
             const char   *inputs,
             guint         n)
{
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
  ColumnInputs ci = { measurements, catalog, scenario, runtime, runtime_from_board, NULL };
  guint n;

  g_return_if_fail (HR_IS_BOARDS_VIEW (self));
  ci.session = self->scenario != NULL ? hr_scenario_get_session (self->scenario) : NULL;
  g_return_if_fail (boards != NULL && specs != NULL && scenario != NULL);

  n = MIN (specs->len, HR_BOARDS_VIEW_MAX_MODELS);
  rows = set_models (self, specs, n);

  g_array_set_size (self->columns, 0);
  g_array_set_size (self->columns, boards->len);
  for (guint b = 0; b < boards->len; b++)
    {
      Column *c = &g_array_index (self->columns, Column, b);

      c->board = hr_board_copy (g_ptr_array_index (boards, b));
      c->recommended = -1;
      evaluate_column (c, &ci, rows);
    }

  show_inputs (self, inputs, n);
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
  return hr_boards_cell_text (e, HR_UNIT_GB);
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
