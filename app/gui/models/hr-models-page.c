/* hr-models-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-board-editor.h"
#include "hr-gui-enums.h"
#include "hr-library-lookup.h"
#include "hr-models-page-private.h"
#include "hr-pool.h"
#include "hr-scenario-controls.h"
#include "hr-scroll-content.h"

/*
 * How a slider value reaches the table and the charts: the slider is bound
 * to a property of the scenario (hr_scenario_sliders_bind()); the
 * scenario's setter recomputes what the figures are made from, asks its
 * catalog model (hr_scenario_get_catalog_model()) to re-evaluate every row
 * in place, and only then emits "changed". The model tells the rows whose
 * cells are shown (HrModelRow::changed, which refreshes them) and then
 * emits "evaluated": the table (HrCatalogView), whose filter and sort
 * models sit on the catalog model itself, re-sorts only when a row is out
 * of order and widens the Verdict column only when the verdicts span more;
 * "items-changed" comes only when the rows are made anew. The charts and
 * the Boards view, which sit on the table's sorted rows, lay out again on
 * "changed", and the explain panel reads its row again. Everyone reads
 * rows already evaluated, whatever the order they connected in. The page
 * itself only keeps the pool note and selects the recommendation of a
 * board not shown before.
 */

struct _HrModelsPage
{
  HrPage              parent_instance;

  /* template */
  AdwFlap            *flap;
  HrBoardEditor      *board_editor;
  HrScenarioControls *scenario_controls;
  HrCatalogView      *catalog_view;
  HrMemoryChart      *memory_chart;
  HrMemoryChart      *pool_chart;
  HrExplainPanel     *explain_panel;
  AdwFlap            *explain_flap;
  GtkLabel           *pool_note;
  GtkStack           *view_stack;
  GtkWidget          *view_switcher;
  HrBoardsView       *boards_view;

  HrSession          *session;        /* hr_page_get_session(), borrowed */
  HrScenario         *scenario;        /* hr_page_get_scenario(), borrowed */
  HrUnit              unit;             /* bound to the settings' "units" */

  HrCatalogModel     *rows;             /* the scenario's catalog model */
  char               *shown_board_id;   /* the board whose recommendation was selected */
  guint               generation;       /* hr_catalog_model_get_generation() last listed */
};

G_DEFINE_FINAL_TYPE (HrModelsPage, hr_models_page, HR_TYPE_PAGE)

enum {
  PROP_0,
  PROP_UNIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* Re-evaluating in place                                              */

/* On a unified board, the note under the pool column (hr_pool_layout()). */
static void
update_pool_note (HrModelsPage *self)
{
  HrPoolLayout layout;

  hr_pool_layout (hr_scenario_get_board (self->scenario), &layout);
  gtk_label_set_text (self->pool_note, layout.note);
  gtk_widget_set_visible (GTK_WIDGET (self->pool_note), layout.unified && layout.note[0] != '\0');
}

/* The scenario changed, and its catalog model, with the table, the charts
 * and the Boards view sitting on it, was re-evaluated before it said so:
 * the pool note follows the board, and rows made anew or a board not
 * shown before get their recommendation selected. */
static void
on_scenario_changed (HrModelsPage *self)
{
  const HrBoard *board = hr_scenario_get_board (self->scenario);
  guint generation = hr_catalog_model_get_generation (self->rows);

  if (board == NULL)
    return;
  update_pool_note (self);
  if (generation != self->generation || g_strcmp0 (self->shown_board_id, board->id) != 0)
    {
      self->generation = generation;
      g_free (self->shown_board_id);
      self->shown_board_id = g_strdup (board->id);
      hr_catalog_view_select_row (self->catalog_view, NULL);
    }
}

static void
on_model_added (HrModelsPage *self,
                const char   *name)
{
  HrModelRow *row = hr_models_page_find_row (self, name);

  if (row != NULL)
    hr_catalog_view_select_row (self->catalog_view, row);
}

static void
on_selected_item_changed (GtkSingleSelection *selection,
                          GParamSpec         *pspec,
                          HrModelsPage       *self)
{
  HrModelRow *row = gtk_single_selection_get_selected_item (selection);

  hr_memory_chart_set_selected (self->memory_chart, row);
  hr_memory_chart_set_selected (self->pool_chart, row);
  if (self->scenario != NULL && hr_scenario_get_board (self->scenario) != NULL)
    hr_explain_panel_set_row (self->explain_panel, row,
                              hr_scenario_peek_evaluation_inputs (self->scenario));
}

static void
set_unit (HrModelsPage *self,
          HrUnit        unit)
{
  self->unit = unit;
  hr_catalog_view_set_unit (self->catalog_view, self->unit);
  hr_board_editor_set_unit (self->board_editor, self->unit);
  hr_boards_view_set_unit (self->boards_view, self->unit);
  hr_memory_chart_set_unit (self->memory_chart, self->unit);
  hr_memory_chart_set_unit (self->pool_chart, self->unit);
  if (self->scenario == NULL || hr_scenario_get_board (self->scenario) == NULL)
    return;
  /* The cells and the charts read again in the new unit. */
  hr_catalog_model_refresh (self->rows);
  hr_memory_chart_update (self->memory_chart);
  hr_memory_chart_update (self->pool_chart);
}

static void
hr_models_page_set_unit (HrModelsPage *self,
                         HrUnit        unit)
{
  if (self->unit == unit)
    return;
  set_unit (self, unit);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

/* ------------------------------------------------------------------ */
/* The session and the scenario                                        */

/* The page selects a model added by hr_session_add_model(), shows sizes in
 * the settings' unit, and looks models up in the Ollama library. */
static void
hr_models_page_session_set (HrPage *page)
{
  HrModelsPage *self = HR_MODELS_PAGE (page);
  HrSession *session = hr_page_get_session (page);

  self->session = session;
  if (hr_session_get_settings (session) != NULL)
    g_settings_bind (hr_session_get_settings (session), "units", self, "unit",
                     G_SETTINGS_BIND_GET | G_SETTINGS_BIND_NO_SENSITIVITY);
  g_signal_connect_object (session, "model-added", G_CALLBACK (on_model_added), self, G_CONNECT_SWAPPED);
  hr_catalog_view_set_library_lookup (self->catalog_view,
                                      hr_library_lookup_new (session, hr_catalog_view_get_search_entry (self->catalog_view)));
}

/* Lists the scenario's catalog model (hr_scenario_get_catalog_model()) in
 * the table, the charts and the Boards view, and gives the scenario to the
 * charts; the table, the controls, the board editor and the explain panel
 * take it through the template's bindings. */
static void
hr_models_page_scenario_set (HrPage *page)
{
  HrModelsPage *self = HR_MODELS_PAGE (page);
  HrScenario *scenario = hr_page_get_scenario (page);

  self->scenario = scenario;
  self->rows = g_object_ref (hr_scenario_get_catalog_model (scenario));
  hr_catalog_view_set_model (self->catalog_view, self->rows);
  g_signal_connect_object (scenario, "changed", G_CALLBACK (on_scenario_changed), self, G_CONNECT_SWAPPED);
  hr_memory_chart_follow (self->memory_chart, scenario);
  hr_memory_chart_follow (self->pool_chart, scenario);
  hr_boards_view_follow (self->boards_view, scenario, hr_catalog_view_get_rows (self->catalog_view));
  on_scenario_changed (self);
}

/**
 * hr_models_page_focus_search:
 * @self: a #HrModelsPage
 *
 * Moves the keyboard focus to the search entry.
 */
void
hr_models_page_focus_search (HrModelsPage *self)
{
  g_return_if_fail (HR_IS_MODELS_PAGE (self));

  hr_catalog_view_focus_search (self->catalog_view);
}

/** hr_models_page_get_flap: @self: a page. Returns: (transfer none): the sidebar's flap */
AdwFlap *
hr_models_page_get_flap (HrModelsPage *self)
{
  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), NULL);

  return self->flap;
}

/** hr_models_page_get_explain_flap: @self: a page. Returns: (transfer none): the explain panel's flap */
AdwFlap *
hr_models_page_get_explain_flap (HrModelsPage *self)
{
  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), NULL);

  return self->explain_flap;
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_models_page_dispose (GObject *object)
{
  HrModelsPage *self = (HrModelsPage *)object;

  if (self->memory_chart != NULL)
    hr_memory_chart_set_rows (self->memory_chart, NULL);
  g_clear_object (&self->rows);

  G_OBJECT_CLASS (hr_models_page_parent_class)->dispose (object);
}

static void
hr_models_page_finalize (GObject *object)
{
  HrModelsPage *self = (HrModelsPage *)object;

  g_clear_pointer (&self->shown_board_id, g_free);

  G_OBJECT_CLASS (hr_models_page_parent_class)->finalize (object);
}

static void
hr_models_page_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  HrModelsPage *self = HR_MODELS_PAGE (object);

  switch (prop_id)
    {
    case PROP_UNIT:
      g_value_set_enum (value, self->unit);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_models_page_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  HrModelsPage *self = HR_MODELS_PAGE (object);

  switch (prop_id)
    {
    case PROP_UNIT:
      hr_models_page_set_unit (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_models_page_class_init (HrModelsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrPageClass *page_class = HR_PAGE_CLASS (klass);

  object_class->dispose = hr_models_page_dispose;
  object_class->finalize = hr_models_page_finalize;
  object_class->get_property = hr_models_page_get_property;
  object_class->set_property = hr_models_page_set_property;
  page_class->session_set = hr_models_page_session_set;
  page_class->scenario_set = hr_models_page_scenario_set;

  /**
   * HrModelsPage:unit:
   *
   * GB or GiB, every size on the page is shown in: bound to the settings'
   * "units" (the session's settings) once the page has a session.
   */
  properties[PROP_UNIT] =
    g_param_spec_enum ("unit", NULL, NULL, HR_TYPE_UNIT, HR_UNIT_GB,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (HR_TYPE_BOARD_EDITOR);
  g_type_ensure (HR_TYPE_SCENARIO_CONTROLS);
  g_type_ensure (HR_TYPE_CATALOG_VIEW);
  g_type_ensure (HR_TYPE_MEMORY_CHART);
  g_type_ensure (HR_TYPE_EXPLAIN_PANEL);
  g_type_ensure (HR_TYPE_SCROLL_CONTENT);
  g_type_ensure (HR_TYPE_BOARDS_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/models/hr-models-page.ui");
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, flap);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, board_editor);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, scenario_controls);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, catalog_view);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, memory_chart);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, pool_chart);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, explain_panel);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, explain_flap);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, pool_note);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, view_switcher);
  gtk_widget_class_bind_template_child (widget_class, HrModelsPage, boards_view);
}

static void
hr_models_page_init (HrModelsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect (hr_catalog_view_get_selection (self->catalog_view), "notify::selected-item",
                    G_CALLBACK (on_selected_item_changed), self);
  hr_memory_chart_set_rows (self->memory_chart, hr_catalog_view_get_rows (self->catalog_view));

  set_unit (self, HR_UNIT_GB);
}

/**
 * hr_models_page_set_presenting:
 * @self: a #HrModelsPage
 * @presenting: %TRUE for the presentation view
 *
 * The presentation view (win.presentation, F11): the table, the Models /
 * Boards switcher and the pool column hidden, so the memory chart shows the
 * selected model's bar alone (HrMemoryChart:selected-only) beside its
 * explain panel, for a room to read one bar and its formula; %FALSE shows
 * them again.
 */
void
hr_models_page_set_presenting (HrModelsPage *self,
                               gboolean      presenting)
{
  g_return_if_fail (HR_IS_MODELS_PAGE (self));

  if (presenting)
    gtk_stack_set_visible_child_name (self->view_stack, "models");
  gtk_widget_set_visible (GTK_WIDGET (self->catalog_view), !presenting);
  gtk_widget_set_visible (self->view_switcher, !presenting);
  /* the pool column and its separator: the bar, its board lines and the
   * formula are what a room reads; at 1,024 px the three would not fit */
  {
    GtkWidget *pool_column = gtk_widget_get_ancestor (GTK_WIDGET (self->pool_chart), GTK_TYPE_SCROLLED_WINDOW);

    gtk_widget_set_visible (pool_column, !presenting);
    gtk_widget_set_visible (gtk_widget_get_prev_sibling (pool_column), !presenting);
  }
  hr_memory_chart_set_selected_only (self->memory_chart, presenting);
}

/**
 * hr_models_page_new:
 *
 * Returns: (transfer floating): a new, empty #HrModelsPage; it lists the
 *   catalog once given a session and a scenario
 */
GtkWidget *
hr_models_page_new (void)
{
  return g_object_new (HR_TYPE_MODELS_PAGE, NULL);
}

/* ------------------------------------------------------------------ */
/* Into the session and the scenario (hr-models-page-private.h)        */

/**
 * hr_models_page_set_catalog:
 * @self: a #HrModelsPage
 * @specs: (element-type HrModelSpec): the models to list; copied
 *
 * hr_session_set_catalog(): the benchmark and the tests list a catalog of
 * their own.
 */
void
hr_models_page_set_catalog (HrModelsPage *self,
                            GPtrArray    *specs)
{
  g_return_if_fail (HR_IS_MODELS_PAGE (self));

  hr_session_set_catalog (self->session, specs);
}

/**
 * hr_models_page_get_calibration_text:
 * @self: a page
 *
 * Returns: (transfer none) (nullable): hr_scenario_get_calibration_text()
 */
const char *
hr_models_page_get_calibration_text (HrModelsPage *self)
{
  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), NULL);

  return hr_scenario_get_calibration_text (self->scenario);
}

/**
 * hr_models_page_describe_inputs:
 * @self: a #HrModelsPage
 *
 * Returns: (transfer full): hr_scenario_describe()
 */
char *
hr_models_page_describe_inputs (HrModelsPage *self)
{
  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), NULL);

  return hr_scenario_describe (self->scenario);
}

/* ------------------------------------------------------------------ */
/* The rows (hr-models-page-private.h)                                 */

/** hr_models_page_get_rows: @self: a page. Returns: (transfer none): the rows as the table shows them: searched and sorted */
GListModel *
hr_models_page_get_rows (HrModelsPage *self)
{
  return hr_catalog_view_get_rows (self->catalog_view);
}

/**
 * hr_models_page_find_row:
 * @self: a #HrModelsPage
 * @name: a model name
 *
 * Returns: (transfer none) (nullable): the row of the model named @name,
 *   searched or not
 */
HrModelRow *
hr_models_page_find_row (HrModelsPage *self,
                         const char   *name)
{
  g_return_val_if_fail (HR_IS_MODELS_PAGE (self), NULL);

  return self->rows != NULL ? hr_catalog_model_find_row (self->rows, name) : NULL;
}

/** hr_models_page_select_row: @self: a page. @row: (nullable): a row; %NULL: the recommended one. Selects it and scrolls to it. */
void
hr_models_page_select_row (HrModelsPage *self,
                           HrModelRow   *row)
{
  hr_catalog_view_select_row (self->catalog_view, row);
}

/** hr_models_page_cell_text: @self: a page. @row: a row. @column: a column. Returns: (transfer full): the cell's text (hr_catalog_view_cell_text()) */
char *
hr_models_page_cell_text (HrModelsPage   *self,
                          HrModelRow     *row,
                          HrModelsColumn  column)
{
  return hr_catalog_view_cell_text (self->catalog_view, row, column);
}

/** hr_models_page_column_title: @column: a column. Returns: (transfer none): its title (hr_catalog_view_column_title()) */
const char *
hr_models_page_column_title (HrModelsColumn column)
{
  return hr_catalog_view_column_title (column);
}

/* ------------------------------------------------------------------ */
/* The widgets (hr-models-page-private.h)                              */

/** hr_models_page_get_context_scale: @self: a page. Returns: (transfer none): the context slider (log2 of tokens, 9..17) */
GtkRange *
hr_models_page_get_context_scale (HrModelsPage *self)
{
  return hr_scenario_controls_get_context_scale (self->scenario_controls);
}

/** hr_models_page_get_precision_scale: @self: a page. Returns: (transfer none): the precision slider (0 = as pulled) */
GtkRange *
hr_models_page_get_precision_scale (HrModelsPage *self)
{
  return hr_scenario_controls_get_precision_scale (self->scenario_controls);
}

/** hr_models_page_get_runtime_row: @self: a page. Returns: (transfer none): the Runtime control */
AdwComboRow *
hr_models_page_get_runtime_row (HrModelsPage *self)
{
  return hr_scenario_controls_get_runtime_row (self->scenario_controls);
}

/** hr_models_page_get_flash_switch: @self: a page. Returns: (transfer none): the flash attention switch */
GtkSwitch *
hr_models_page_get_flash_switch (HrModelsPage *self)
{
  return hr_scenario_controls_get_flash_switch (self->scenario_controls);
}

/** hr_models_page_get_search_entry: @self: a page. Returns: (transfer none): the search entry */
GtkEditable *
hr_models_page_get_search_entry (HrModelsPage *self)
{
  return hr_catalog_view_get_search_entry (self->catalog_view);
}

/** hr_models_page_get_column_view: @self: a page. Returns: (transfer none): the catalog table */
GtkColumnView *
hr_models_page_get_column_view (HrModelsPage *self)
{
  return hr_catalog_view_get_column_view (self->catalog_view);
}

/** hr_models_page_get_memory_chart: @self: a page. Returns: (transfer none): the per-model chart */
HrMemoryChart *
hr_models_page_get_memory_chart (HrModelsPage *self)
{
  return self->memory_chart;
}

/** hr_models_page_get_pool_chart: @self: a page. Returns: (transfer none): the pool column chart */
HrMemoryChart *
hr_models_page_get_pool_chart (HrModelsPage *self)
{
  return self->pool_chart;
}

/** hr_models_page_get_explain_panel: @self: a page. Returns: (transfer none): the explain panel */
HrExplainPanel *
hr_models_page_get_explain_panel (HrModelsPage *self)
{
  return self->explain_panel;
}

/** hr_models_page_get_pool_note: @self: a page. Returns: (transfer none): the unified-memory note under the pool column */
GtkLabel *
hr_models_page_get_pool_note (HrModelsPage *self)
{
  return self->pool_note;
}

/** hr_models_page_get_view_stack: @self: a page. Returns: (transfer none): the "models" / "boards" stack */
GtkStack *
hr_models_page_get_view_stack (HrModelsPage *self)
{
  return self->view_stack;
}

/** hr_models_page_get_boards_view: @self: a page. Returns: (transfer none): the Boards view */
HrBoardsView *
hr_models_page_get_boards_view (HrModelsPage *self)
{
  return self->boards_view;
}
