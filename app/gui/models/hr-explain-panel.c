/* hr-explain-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The explain panel: the selected row's figures, each worked out with its
 * formula and values (hr-formula.c), the GPU/host split and the fit
 * finders; its runtime section is hr-explain-runtime.c.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-explain-panel-private.h"
#include "hr-rename-dialog.h"
#include "hr-formula.h"
#include "hr-gui-format.h"
#include "hr-gui-widget-util.h"
#include "hr-library-lookup.h"
#include "hr-units.h"

/* Each figure's key (hr_explain_panel_get_figure()); its heading and its
 * value are the template's "heading_KEY" and "value_KEY" (dashes as
 * underscores), a context finder's button "use_KEY". */
static const char * const figure_keys[N_FIGS] = {
  "library", "weights", "bits", "kv-per-token", "kv-cache", "overhead", "total", "headroom",
  "budget", "verdict", "split", "devices", "host-side", "server-report", "full-first", "context",
  "ceiling", "rate", "split-rate", "floor", "speed", "max-context-gpu", "max-context-partial",
  "best-precision",
};

G_DEFINE_FINAL_TYPE (HrExplainPanel, hr_explain_panel, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_SCENARIO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_figure (HrExplainPanel *self,
            Figure          figure,
            char           *text)
{
  gboolean visible = text != NULL;

  gtk_label_set_text (GTK_LABEL (self->values[figure]), text ? text : "");
  gtk_widget_set_visible (self->headings[figure], visible);
  gtk_widget_set_visible (self->values[figure], visible);
  if (self->use_context[figure] != NULL)
    {
      gtk_widget_set_visible (self->use_context[figure], visible);
      gtk_widget_set_sensitive (self->use_context[figure],
                                self->found_context[figure] > 0 && self->followed != NULL);
    }
  g_free (text);
}

static char *
describe_scenario (const HrEvaluationInputs *scenario)
{
  g_autofree char *context = hr_gui_format_context (scenario->context_tokens);
  const char *precision = scenario->precision ? scenario->precision->label : _("as pulled");

  /* Translators: the inputs, "Jetson Orin Nano Super · as pulled · 4,096 tokens · KV cache f16 · 1 parallel slot" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%1$s · %2$s · %3$s · KV cache %4$s · %5$u parallel slot",
                                       "%1$s · %2$s · %3$s · KV cache %4$s · %5$u parallel slots",
                                       scenario->parallel_slots),
                          scenario->board->name, precision, context,
                          hr_gui_kv_cache_type_label (scenario->kv_type),
                          scenario->parallel_slots);
}

/* Whether the row's figures are the runtime model's. */
static gboolean
runtime_sized (HrExplainPanel *self)
{
  return self->has_runtime && self->row != NULL && !hr_model_row_get_runtime_failed (self->row);
}

/* The GPU/host split, its speed and the fit finders: on a board with host
 * memory only (the figures hide elsewhere). */
static void
refresh_split (HrExplainPanel     *self,
               const HrModelSpec  *spec,
               const HrEvaluation *e)
{
  const HrEvaluationInputs *sc = &self->scenario;
  char *gpu, *partial;

  HrRuntimeEra era = self->has_runtime ? self->runtime.era : HR_RUNTIME_ERA_OLLAMA_0_30;
  g_autofree HrOffload *across = e->split && e->n_devices > 0 ? hr_formula_predict_split (spec, sc) : NULL;

  set_figure (self, FIG_SPLIT, hr_formula_split_for (spec, sc, e, era));
  /* Several GPUs: each one's formulas, host memory, what the server
   * reports and the GPU full first (hr-formula-devices.c). */
  set_figure (self, FIG_DEVICES, hr_formula_devices (across, sc->board));
  set_figure (self, FIG_HOST_SIDE, hr_formula_host_side (across));
  set_figure (self, FIG_SERVER_REPORT, hr_formula_server_report (across, sc->board, era));
  set_figure (self, FIG_FULL_FIRST, hr_formula_full_first (across));
  set_figure (self, FIG_SPLIT_RATE, hr_formula_split_rate (spec, sc, e));
  gpu = hr_formula_max_context (spec, sc, FALSE, &self->found_context[FIG_MAX_CONTEXT_GPU]);
  set_figure (self, FIG_MAX_CONTEXT_GPU, gpu);
  partial = hr_formula_max_context (spec, sc, TRUE, &self->found_context[FIG_MAX_CONTEXT_PARTIAL]);
  set_figure (self, FIG_MAX_CONTEXT_PARTIAL, partial);
  set_figure (self, FIG_BEST_PRECISION, hr_formula_best_precision (spec, sc, TRUE));
}

static void
on_use_context_clicked (GtkButton      *button,
                        HrExplainPanel *self)
{
  Figure figure = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "hr-figure"));
  guint32 context = self->found_context[figure];

  if (context == 0 || self->followed == NULL)
    return;
  /* Through the scenario's "context-tokens", as the slider is bound to it;
   * the scenario clamps to the slider's range. */
  hr_scenario_set_context_tokens (self->followed, context);
}

static void
refresh (HrExplainPanel *self)
{
  const HrModelSpec *spec;
  const HrEvaluation *e;
  const HrEvaluation *plain;
  const HrEvaluationInputs *sc = &self->scenario;
  g_autofree char *subtitle = NULL;

  gtk_widget_set_visible (self->empty, self->row == NULL || self->board == NULL);
  gtk_widget_set_visible (self->figures_box, self->row != NULL && self->board != NULL);

  if (self->row == NULL || self->board == NULL)
    {
      _hr_explain_panel_clear_runtime_texts (self);
      return;
    }

  spec = hr_model_row_get_spec (self->row);
  e = hr_model_row_get_evaluation (self->row);
  plain = hr_model_row_get_plain_evaluation (self->row);

  gtk_label_set_text (GTK_LABEL (self->title), hr_model_row_get_name (self->row));
  subtitle = describe_scenario (sc);
  gtk_label_set_text (GTK_LABEL (self->subtitle), subtitle);

  if (runtime_sized (self))
    {
      /* The runtime model's weights and cache, with the plain math beside
       * them; the ceiling and the rate stay the plain math's (they read
       * the file's weights). */
      g_autofree char *weights = hr_formula_weights (spec, sc, plain);
      g_autofree char *kv = hr_formula_kv_cache (spec, sc, plain);
      g_autofree char *weights_size = hr_gui_format_size_both (e->footprint.weights);
      g_autofree char *kv_size = hr_gui_format_size_both (e->footprint.kv_cache);
      g_autofree char *weights_count = hr_gui_format_count (e->footprint.weights);
      g_autofree char *kv_count = hr_gui_format_count (e->footprint.kv_cache);

      /* Translators: the runtime's weights (bytes, size), then the plain math's formula */
      set_figure (self, FIG_WEIGHTS, g_strdup_printf (_("%1$s bytes = %2$s as the runtime loads them "
                                                        "(the terms under Runtime); the plain math: %3$s"),
                                                      weights_count, weights_size, weights));
      set_figure (self, FIG_KV_CACHE, g_strdup_printf (_("%1$s bytes = %2$s as the runtime allocates it "
                                                         "(the terms under Runtime); the plain math: %3$s"),
                                                       kv_count, kv_size, kv));
    }
  else
    {
      set_figure (self, FIG_WEIGHTS, hr_formula_weights (spec, sc, e));
      set_figure (self, FIG_KV_CACHE, hr_formula_kv_cache (spec, sc, e));
    }
  set_figure (self, FIG_BITS, hr_formula_effective_bits (spec));
  {
    /* The per-token figure in the type the cache is in, and why it is not
     * the one asked for. */
    HrKvCacheType used = hr_model_row_get_kv_type (self->row);
    g_autofree char *per_token = hr_formula_kv_per_token (spec, used);
    g_autofree char *why = hr_gui_kv_fallback_note (sc->kv_type, used);

    set_figure (self, FIG_KV_PER_TOKEN,
                why == NULL ? g_steal_pointer (&per_token)
                            /* Translators: the KV-per-token formula, then why its type is not the one asked for */
                            : g_strdup_printf (_("%1$s; KV cache %2$s"), per_token, why));
  }
  set_figure (self, FIG_OVERHEAD, hr_formula_overhead (e));
  set_figure (self, FIG_TOTAL, hr_formula_total (e));
  set_figure (self, FIG_HEADROOM, hr_formula_headroom (sc->board));
  set_figure (self, FIG_BUDGET, hr_formula_budget (sc->board));
  set_figure (self, FIG_VERDICT, hr_formula_verdict (sc->board, e));
  set_figure (self, FIG_CONTEXT, hr_formula_context (spec, sc));
  set_figure (self, FIG_CEILING, hr_formula_ceiling (sc->board, plain));
  set_figure (self, FIG_RATE, hr_formula_rate (sc, plain));
  set_figure (self, FIG_FLOOR, hr_formula_floor (sc->board, sc));
  set_figure (self, FIG_SPEED, hr_formula_speed (sc, e));
  refresh_split (self, spec, e);
  set_figure (self, FIG_LIBRARY, hr_library_lookup_describe (spec));
  _hr_explain_panel_refresh_runtime (self);
}

static void on_rename_clicked (GtkButton *button, HrExplainPanel *self);

static void
copy_scenario (HrExplainPanel   *self,
               const HrEvaluationInputs *scenario)
{
  if (scenario == NULL || scenario->board == NULL)
    return;

  if (self->board != scenario->board)
    {
      HrBoard *copy = hr_board_copy (scenario->board);

      g_clear_pointer (&self->board, hr_board_free);
      self->board = copy;
    }
  self->scenario = *scenario;
  self->scenario.board = self->board;
}

/* A label of the panel: wrapped, selectable to copy, no tab stop. */
GtkWidget *
_hr_explain_panel_make_label (const char *text,
                              const char *css_class,
                              gboolean    selectable)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), selectable);
  /* Selectable to copy a formula with the mouse and the label's menu, but
   * no tab stop: Tab moves between the panel's controls. */
  hr_gui_label_no_tab_stop (GTK_LABEL (label));
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);

  return label;
}

static void
hr_explain_panel_dispose (GObject *object)
{
  HrExplainPanel *self = (HrExplainPanel *)object;

  g_clear_object (&self->row);
  g_clear_object (&self->followed);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_EXPLAIN_PANEL);

  G_OBJECT_CLASS (hr_explain_panel_parent_class)->dispose (object);
}

static void
hr_explain_panel_finalize (GObject *object)
{
  HrExplainPanel *self = (HrExplainPanel *)object;

  g_clear_pointer (&self->board, hr_board_free);
  g_clear_pointer (&self->runtime_version, g_free);
  g_clear_pointer (&self->prediction, g_free);
  _hr_explain_panel_clear_runtime_texts (self);

  G_OBJECT_CLASS (hr_explain_panel_parent_class)->finalize (object);
}

static void
hr_explain_panel_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  HrExplainPanel *self = HR_EXPLAIN_PANEL (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      g_value_set_object (value, self->followed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_explain_panel_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  HrExplainPanel *self = HR_EXPLAIN_PANEL (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      /* The page's template binds it before the page has a scenario. */
      if (g_value_get_object (value) != NULL)
        hr_explain_panel_set_scenario (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_explain_panel_class_init (HrExplainPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_explain_panel_dispose;
  object_class->finalize = hr_explain_panel_finalize;
  object_class->get_property = hr_explain_panel_get_property;
  object_class->set_property = hr_explain_panel_set_property;

  /**
   * HrExplainPanel:scenario:
   *
   * The scenario the panel's figures are computed under. Set once; the Models page's template binds it to the page's.
   */
  properties[PROP_SCENARIO] =
    g_param_spec_object ("scenario", NULL, NULL, HR_TYPE_SCENARIO,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/models/hr-explain-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, title);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, rename_button);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, variant_button);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, subtitle);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, empty);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, figures_box);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, runtime_box);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, rt_heading);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, rt_error);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, rt_terms_box);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, rt_total_heading);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, rt_total);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, rt_host);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, rt_notes_box);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, rt_learned_heading);
  gtk_widget_class_bind_template_child (widget_class, HrExplainPanel, rt_learned);
  /* Each figure's heading and value, and the context finders' buttons, by
   * the key's name into the arrays. */
  for (guint i = 0; i < N_FIGS; i++)
    {
      g_autofree char *key = g_strdelimit (g_strdup (figure_keys[i]), "-", '_');
      g_autofree char *heading = g_strconcat ("heading_", key, NULL);
      g_autofree char *value = g_strconcat ("value_", key, NULL);

      gtk_widget_class_bind_template_child_full (widget_class, heading, FALSE,
                                                 G_STRUCT_OFFSET (HrExplainPanel, headings) + i * sizeof (GtkWidget *));
      gtk_widget_class_bind_template_child_full (widget_class, value, FALSE,
                                                 G_STRUCT_OFFSET (HrExplainPanel, values) + i * sizeof (GtkWidget *));
      if (IS_CONTEXT_FINDER (i))
        {
          g_autofree char *use = g_strconcat ("use_", key, NULL);

          gtk_widget_class_bind_template_child_full (widget_class, use, FALSE,
                                                     G_STRUCT_OFFSET (HrExplainPanel, use_context) + i * sizeof (GtkWidget *));
        }
    }
  gtk_widget_class_bind_template_callback (widget_class, on_rename_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_use_context_clicked);

  gtk_widget_class_set_css_name (widget_class, "explainpanel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

/* Selectable to copy a formula with the mouse and the label's menu, but no
 * tab stop: Tab moves between the panel's controls. */
static void
labels_no_tab_stop (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child))
        hr_gui_label_no_tab_stop (GTK_LABEL (child));
      else
        labels_no_tab_stop (child);
    }
}

static void
hr_explain_panel_init (HrExplainPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < N_FIGS; i++)
    if (self->use_context[i] != NULL)
      g_object_set_data (G_OBJECT (self->use_context[i]), "hr-figure", GINT_TO_POINTER (i));
  _hr_explain_panel_build_runtime_box (self);
  labels_no_tab_stop (GTK_WIDGET (self));
}

/**
 * hr_explain_panel_new:
 *
 * Returns: (transfer floating): a new, empty #HrExplainPanel
 */
GtkWidget *
hr_explain_panel_new (void)
{
  return g_object_new (HR_TYPE_EXPLAIN_PANEL, NULL);
}

/* "Rename…" shows for a model of the user's catalog only (it reads the
 * small user file, once per selected row). */
static void
update_rename_button (HrExplainPanel *self)
{
  HrSession *session = self->followed != NULL ? hr_scenario_get_session (self->followed) : NULL;

  GArray *servers = session != NULL ? hr_session_get_servers (session) : NULL;

  gtk_widget_set_visible (self->rename_button,
                          session != NULL && self->row != NULL &&
                          hr_session_model_is_users (session, hr_model_row_get_name (self->row)));
  /* Run It Like This: a variant of the model at this context, on a saved
   * server (win.create-variant opens the dialog). */
  gtk_widget_set_visible (self->variant_button, self->row != NULL && servers != NULL && servers->len > 0);
  if (self->row != NULL)
    gtk_actionable_set_action_target (GTK_ACTIONABLE (self->variant_button), "(ss)", "",
                                      hr_model_row_get_name (self->row));
}

static void
on_rename_clicked (GtkButton      *button,
                   HrExplainPanel *self)
{
  HrSession *session = self->followed != NULL ? hr_scenario_get_session (self->followed) : NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (session == NULL || self->row == NULL)
    return;
  gtk_window_present (GTK_WINDOW (hr_rename_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                        session, hr_model_row_get_name (self->row))));
}

/**
 * hr_explain_panel_get_rename_button:
 * @self: a #HrExplainPanel
 *
 * Returns: (transfer none): the "Rename…" button, shown for a model the
 *   user added (hr_session_model_is_users())
 */
GtkWidget *
hr_explain_panel_get_rename_button (HrExplainPanel *self)
{
  g_return_val_if_fail (HR_IS_EXPLAIN_PANEL (self), NULL);

  return self->rename_button;
}

/**
 * hr_explain_panel_set_row:
 * @self: a #HrExplainPanel
 * @row: (nullable): the model to explain
 * @scenario: (nullable): the scenario @row was evaluated under; copied
 *
 * Shows @row's figures as formulas.
 */
void
hr_explain_panel_set_row (HrExplainPanel   *self,
                          HrModelRow       *row,
                          const HrEvaluationInputs *scenario)
{
  g_return_if_fail (HR_IS_EXPLAIN_PANEL (self));

  g_set_object (&self->row, row);
  copy_scenario (self, scenario);
  update_rename_button (self);
  refresh (self);
}

/**
 * hr_explain_panel_update:
 * @self: a #HrExplainPanel
 * @scenario: the scenario the rows were just re-evaluated under; copied
 *
 * Rewrites the formulas after a slider or the board changed.
 */
void
hr_explain_panel_update (HrExplainPanel   *self,
                         const HrEvaluationInputs *scenario)
{
  g_return_if_fail (HR_IS_EXPLAIN_PANEL (self));

  copy_scenario (self, scenario);
  refresh (self);
}

/**
 * hr_explain_panel_set_runtime:
 * @self: a #HrExplainPanel
 * @runtime: (nullable): the runtime settings the rows were predicted with
 *   (copied; spec, precision, context, slots and KV cache type come from the
 *   row and the scenario); %NULL: no runtime model, the section is hidden
 * @calibration: (nullable): the board's learned overhead
 *
 * Sets what the runtime section shows at the next refresh: the era, every
 * term of hr_runtime_predict() with its formula, source and note, the
 * predicted size as `ollama ps` shows it, the notes, and the learned
 * overhead's explanation (hr_calibration_describe()).
 */
void
hr_explain_panel_set_runtime (HrExplainPanel        *self,
                              const HrRuntimeInputs *runtime,
                              const HrCalibration   *calibration)
{
  g_return_if_fail (HR_IS_EXPLAIN_PANEL (self));

  self->has_runtime = runtime != NULL;
  if (runtime == NULL)
    return;

  self->runtime = *runtime;
  if (g_strcmp0 (self->runtime_version, runtime->server_version) != 0)
    {
      g_free (self->runtime_version);
      self->runtime_version = g_strdup (runtime->server_version);
    }
  self->runtime.server_version = self->runtime_version;
  self->runtime.spec = NULL;
  if (calibration != NULL)
    self->calibration = *calibration;
  else
    hr_calibration_fit (NULL, 0, &self->calibration, NULL);
}

/**
 * hr_explain_panel_get_figure:
 * @self: a #HrExplainPanel
 * @key: "weights", "bits", "kv-per-token", "kv-cache", "overhead", "total",
 *   "headroom", "budget", "verdict", "context", "ceiling", "rate", "floor"
 *   or "speed"; on a board with several GPUs and host memory also
 *   "devices" (each GPU's formulas, one a line), "host-side",
 *   "server-report" (ollama ps, or llama-server's log lines) and
 *   "full-first"; on a board with host memory also "split", "split-rate"
 *   (a partial row), "max-context-gpu", "max-context-partial" and
 *   "best-precision" (empty when hidden); "library" (a model sized from
 *   the Ollama library: its provenance, manifest and header; else empty); with a runtime model also "runtime" (the era), "runtime-terms"
 *   (each term's heading, one a line), "runtime-total" and "learned"
 *
 * Returns: (transfer none) (nullable): the text the panel shows for @key, or
 *   %NULL for an unknown key
 */
const char *
hr_explain_panel_get_figure (HrExplainPanel *self,
                             const char     *key)
{
  g_return_val_if_fail (HR_IS_EXPLAIN_PANEL (self), NULL);

  for (guint i = 0; i < N_FIGS; i++)
    if (g_strcmp0 (figure_keys[i], key) == 0)
      return gtk_label_get_text (GTK_LABEL (self->values[i]));

  if (g_strcmp0 (key, "runtime") == 0)
    return self->runtime_era;
  if (g_strcmp0 (key, "runtime-terms") == 0)
    return self->runtime_terms;
  if (g_strcmp0 (key, "runtime-total") == 0)
    return self->runtime_total;
  if (g_strcmp0 (key, "learned") == 0)
    return self->runtime_learned;

  return NULL;
}

/**
 * hr_explain_panel_get_found_context:
 * @self: a #HrExplainPanel
 * @allow_partial: %FALSE: the largest context all on the GPU; %TRUE: with
 *   partial offload
 *
 * Returns: the context, in tokens, the finder's "Use This Context" button
 *   sets the scenario to; 0 when none fits or the board has no host memory
 */
guint32
hr_explain_panel_get_found_context (HrExplainPanel *self,
                                    gboolean        allow_partial)
{
  g_return_val_if_fail (HR_IS_EXPLAIN_PANEL (self), 0);

  return self->found_context[allow_partial ? FIG_MAX_CONTEXT_PARTIAL : FIG_MAX_CONTEXT_GPU];
}

/**
 * hr_explain_panel_use_found_context:
 * @self: a #HrExplainPanel
 * @allow_partial: which finder, as hr_explain_panel_get_found_context()
 *
 * Clicks that finder's "Use This Context" button (for tests): the followed
 * scenario's context becomes the answer; nothing when the button is
 * insensitive (no answer).
 */
void
hr_explain_panel_use_found_context (HrExplainPanel *self,
                                    gboolean        allow_partial)
{
  Figure figure = allow_partial ? FIG_MAX_CONTEXT_PARTIAL : FIG_MAX_CONTEXT_GPU;

  g_return_if_fail (HR_IS_EXPLAIN_PANEL (self));

  if (gtk_widget_get_sensitive (self->use_context[figure]))
    g_signal_emit_by_name (self->use_context[figure], "clicked");
}

static void
on_scenario_changed (HrExplainPanel *self)
{
  if (hr_scenario_get_board (self->followed) == NULL)
    return;
  hr_explain_panel_set_runtime (self, hr_scenario_get_runtime_template (self->followed),
                                hr_scenario_get_calibration (self->followed));
  hr_explain_panel_update (self, hr_scenario_peek_evaluation_inputs (self->followed));
}

/**
 * hr_explain_panel_set_scenario:
 * @self: a #HrExplainPanel
 * @scenario: the scenario the figures are computed under; set once
 *
 * Follows @scenario: on each #HrScenario::changed the panel takes its
 * runtime, learned overhead and inputs and recomputes its figures (connect
 * whatever re-evaluates the rows first: the panel reads the row's cached
 * evaluation).
 */
void
hr_explain_panel_set_scenario (HrExplainPanel *self,
                               HrScenario     *scenario)
{
  g_return_if_fail (HR_IS_EXPLAIN_PANEL (self));
  g_return_if_fail (HR_IS_SCENARIO (scenario));
  if (self->followed == scenario)
    return;
  g_return_if_fail (self->followed == NULL);

  self->followed = g_object_ref (scenario);
  g_signal_connect_object (scenario, "changed", G_CALLBACK (on_scenario_changed), self,
                           G_CONNECT_SWAPPED);
  on_scenario_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
}
