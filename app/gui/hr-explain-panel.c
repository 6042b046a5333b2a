/* hr-explain-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-explain-panel.h"
#include "hr-formula.h"
#include "hr-gui-format.h"

typedef enum {
  FIG_WEIGHTS,
  FIG_BITS,
  FIG_KV_PER_TOKEN,
  FIG_KV_CACHE,
  FIG_OVERHEAD,
  FIG_TOTAL,
  FIG_HEADROOM,
  FIG_BUDGET,
  FIG_VERDICT,
  FIG_CONTEXT,
  FIG_CEILING,
  FIG_RATE,
  FIG_FLOOR,
  FIG_SPEED,
  N_FIGS
} Figure;

static const struct {
  const char *key;
  const char *heading;
} figures[N_FIGS] = {
  { "weights", N_("Weights") },
  { "bits", N_("Bits per weight of the file") },
  { "kv-per-token", N_("KV cache per token") },
  { "kv-cache", N_("KV cache") },
  { "overhead", N_("Overhead") },
  { "total", N_("Total") },
  { "headroom", N_("Headroom") },
  { "budget", N_("Budget") },
  { "verdict", N_("Verdict") },
  { "context", N_("Context window") },
  { "ceiling", N_("Ceiling") },
  { "rate", N_("Decode rate") },
  { "floor", N_("Floor") },
  { "speed", N_("Speed") },
};

struct _HrExplainPanel
{
  AdwBin      parent_instance;

  GtkWidget  *title;
  GtkWidget  *subtitle;
  GtkWidget  *empty;
  GtkWidget  *figures_box;
  GtkWidget  *headings[N_FIGS];
  GtkWidget  *values[N_FIGS];

  HrModelRow *row;
  HrBoard    *board;     /* owned copy */
  HrScenario  scenario;  /* .board points at self->board */
};

G_DEFINE_FINAL_TYPE (HrExplainPanel, hr_explain_panel, ADW_TYPE_BIN)

static void
set_figure (HrExplainPanel *self,
            Figure          figure,
            char           *text)
{
  gboolean visible = text != NULL;

  gtk_label_set_text (GTK_LABEL (self->values[figure]), text ? text : "");
  gtk_widget_set_visible (self->headings[figure], visible);
  gtk_widget_set_visible (self->values[figure], visible);
  g_free (text);
}

static char *
describe_scenario (const HrScenario *scenario)
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

static void
refresh (HrExplainPanel *self)
{
  const HrModelSpec *spec;
  const HrEvaluation *e;
  const HrScenario *sc = &self->scenario;
  g_autofree char *subtitle = NULL;

  gtk_widget_set_visible (self->empty, self->row == NULL || self->board == NULL);
  gtk_widget_set_visible (self->figures_box, self->row != NULL && self->board != NULL);

  if (self->row == NULL || self->board == NULL)
    return;

  spec = hr_model_row_get_spec (self->row);
  e = hr_model_row_get_evaluation (self->row);

  gtk_label_set_text (GTK_LABEL (self->title), hr_model_row_get_name (self->row));
  subtitle = describe_scenario (sc);
  gtk_label_set_text (GTK_LABEL (self->subtitle), subtitle);

  set_figure (self, FIG_WEIGHTS, hr_formula_weights (spec, sc, e));
  set_figure (self, FIG_BITS, hr_formula_effective_bits (spec));
  set_figure (self, FIG_KV_PER_TOKEN, hr_formula_kv_per_token (spec, sc->kv_type));
  set_figure (self, FIG_KV_CACHE, hr_formula_kv_cache (spec, sc, e));
  set_figure (self, FIG_OVERHEAD, hr_formula_overhead (e));
  set_figure (self, FIG_TOTAL, hr_formula_total (e));
  set_figure (self, FIG_HEADROOM, hr_formula_headroom (sc->board));
  set_figure (self, FIG_BUDGET, hr_formula_budget (sc->board));
  set_figure (self, FIG_VERDICT, hr_formula_verdict (sc->board, e));
  set_figure (self, FIG_CONTEXT, hr_formula_context (spec, sc));
  set_figure (self, FIG_CEILING, hr_formula_ceiling (sc->board, e));
  set_figure (self, FIG_RATE, hr_formula_rate (sc, e));
  set_figure (self, FIG_FLOOR, hr_formula_floor (sc->board, sc));
  set_figure (self, FIG_SPEED, hr_formula_speed (sc, e));
}

static void
copy_scenario (HrExplainPanel   *self,
               const HrScenario *scenario)
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

static GtkWidget *
make_label (const char *text,
            const char *css_class,
            gboolean    selectable)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), selectable);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);

  return label;
}

static void
hr_explain_panel_dispose (GObject *object)
{
  HrExplainPanel *self = (HrExplainPanel *)object;

  g_clear_object (&self->row);

  G_OBJECT_CLASS (hr_explain_panel_parent_class)->dispose (object);
}

static void
hr_explain_panel_finalize (GObject *object)
{
  HrExplainPanel *self = (HrExplainPanel *)object;

  g_clear_pointer (&self->board, hr_board_free);

  G_OBJECT_CLASS (hr_explain_panel_parent_class)->finalize (object);
}

static void
hr_explain_panel_class_init (HrExplainPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_explain_panel_dispose;
  object_class->finalize = hr_explain_panel_finalize;

  gtk_widget_class_set_css_name (widget_class, "explainpanel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
hr_explain_panel_init (HrExplainPanel *self)
{
  static const char * const notes[] = {
    N_("A parameter is not a token. Parameters are the weights the model learned; they set its "
       "size in memory. Tokens are the pieces of text it reads and writes; they set the KV cache."),
    N_("The context window reserves KV cache whether or not the prompt fills it: the runtime "
       "allocates num_ctx tokens of cache for every parallel slot when the model loads."),
    N_("GB is 10^9 bytes and GiB is 1024^3 bytes: the same memory reads about 7 % larger in GB."),
    N_("The budget keeps the reserve free; a tight model fits the headroom but eats the reserve."),
  };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *notes_box;

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);

  self->title = make_label ("", "title-4", TRUE);
  self->subtitle = make_label ("", "dim-label", TRUE);
  self->empty = make_label (_("Select a model in the list to see each of its figures worked out."),
                            "dim-label", FALSE);
  gtk_box_append (GTK_BOX (box), self->empty);

  self->figures_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_box_append (GTK_BOX (self->figures_box), self->title);
  gtk_box_append (GTK_BOX (self->figures_box), self->subtitle);

  for (guint i = 0; i < N_FIGS; i++)
    {
      self->headings[i] = make_label (_(figures[i].heading), "heading", FALSE);
      gtk_widget_set_margin_top (self->headings[i], 10);
      self->values[i] = make_label ("", "explain-formula", TRUE);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (self->values[i]),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, self->headings[i], NULL,
                                      -1);
      gtk_box_append (GTK_BOX (self->figures_box), self->headings[i]);
      gtk_box_append (GTK_BOX (self->figures_box), self->values[i]);
    }

  notes_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_top (notes_box, 18);
  gtk_box_append (GTK_BOX (notes_box), make_label (_("Notes"), "heading", FALSE));
  for (guint i = 0; i < G_N_ELEMENTS (notes); i++)
    gtk_box_append (GTK_BOX (notes_box), make_label (_(notes[i]), "dim-label", TRUE));
  gtk_box_append (GTK_BOX (self->figures_box), notes_box);

  gtk_box_append (GTK_BOX (box), self->figures_box);
  gtk_widget_set_visible (self->figures_box, FALSE);

  adw_bin_set_child (ADW_BIN (self), box);
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
                          const HrScenario *scenario)
{
  g_return_if_fail (HR_IS_EXPLAIN_PANEL (self));

  g_set_object (&self->row, row);
  copy_scenario (self, scenario);
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
                         const HrScenario *scenario)
{
  g_return_if_fail (HR_IS_EXPLAIN_PANEL (self));

  copy_scenario (self, scenario);
  refresh (self);
}

/**
 * hr_explain_panel_get_figure:
 * @self: a #HrExplainPanel
 * @key: "weights", "bits", "kv-per-token", "kv-cache", "overhead", "total",
 *   "headroom", "budget", "verdict", "context", "ceiling", "rate", "floor"
 *   or "speed"
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
    if (g_strcmp0 (figures[i].key, key) == 0)
      return gtk_label_get_text (GTK_LABEL (self->values[i]));

  return NULL;
}
