/* hr-spec-memory.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-error.h"
#include "hr-gui-enums.h"
#include "hr-gui-format.h"
#include "hr-memory.h"
#include "hr-model-row.h"
#include "hr-precision.h"
#include "hr-scenario-sliders.h"
#include "hr-spec-memory-private.h"

struct _HrSpecMemory
{
  GtkBox             parent_instance;

  GtkLabel          *heading;
  GtkLabel          *scenario_label;
  GtkScale          *precision_scale;
  GtkLabel          *precision_value;
  GtkScale          *context_scale;
  GtkLabel          *context_value;
  HrMemoryChart     *chart;
  GtkLabel          *summary_label;
  GtkLabel          *verdict_label;
  GtkButton         *add_button;
  GtkLabel          *add_status;

  HrScenario        *scenario;     /* the window's, shared by every page */
  HrUnit             unit;
  HrModelSpec       *spec;
  HrModelRow        *row;
  GListStore        *rows;
  gboolean           can_add;
  char              *cannot_add_reason;
  char              *invalid;      /* why the model cannot be sized, or NULL */
};

G_DEFINE_FINAL_TYPE (HrSpecMemory, hr_spec_memory, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_SCENARIO,
  PROP_UNIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* What the scenario sizes the weights at: NULL is each model's own files. */
static const HrPrecision *
selected_precision (HrSpecMemory *self)
{
  return self->scenario != NULL ? hr_scenario_get_precision_info (self->scenario) : NULL;
}

static guint32
selected_context (HrSpecMemory *self)
{
  return self->scenario != NULL ? hr_scenario_get_context_tokens (self->scenario) : 1u << 12;
}

static char *
precision_text (HrSpecMemory *self)
{
  const HrPrecision *precision = selected_precision (self);
  g_autofree char *bits = NULL;

  if (precision == NULL)
    {
      const HrPrecision *own = self->spec != NULL ? hr_precision_lookup (self->spec->precision) : NULL;

      if (own != NULL)
        /* Translators: the precision slider at its first mark: the model's files as published, "BF16" */
        return g_strdup_printf (_("as published: %s"), own->label);
      return g_strdup (_("as published"));
    }
  bits = hr_gui_format_bits (precision->bits_per_weight);
  /* Translators: the precision slider's value, "Q4_K_M, 4.60 bits per weight" */
  return g_strdup_printf (_("%1$s, %2$s bits per weight"), precision->label, bits);
}

static void
update_slider_labels (HrSpecMemory *self)
{
  g_autofree char *precision = precision_text (self);
  g_autofree char *context = hr_gui_format_context (selected_context (self));

  gtk_label_set_text (self->precision_value, precision);
  gtk_label_set_text (self->context_value, context);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->precision_scale),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, precision, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->context_scale),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, context, -1);
}

static void
update_add_button (HrSpecMemory *self)
{
  gboolean sensitive = self->spec != NULL && self->invalid == NULL && self->scenario != NULL && self->can_add;

  gtk_widget_set_sensitive (GTK_WIDGET (self->add_button), sensitive);
  if (self->spec != NULL && self->invalid != NULL)
    gtk_label_set_text (self->add_status, self->invalid);
  else if (self->spec != NULL && !self->can_add && self->cannot_add_reason != NULL)
    gtk_label_set_text (self->add_status, self->cannot_add_reason);
}

/* "On BOARD (budget …), KV cache …, N parallel slots, as set on the
 * Models page. Sized by: …" */
static void
show_scenario_text (HrSpecMemory             *self,
                    const HrEvaluationInputs *scenario)
{
  g_autofree char *budget = hr_gui_format_size (hr_board_budget_bytes (scenario->board), self->unit);
  g_autofree char *scenario_text = NULL;

  scenario_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                /* Translators: board, budget, KV cache type, slots, the method (a runtime era) */
                                                "On %1$s (budget %2$s), KV cache %3$s, %4$u parallel slot, as set on the Models page. Sized by: %5$s.",
                                                "On %1$s (budget %2$s), KV cache %3$s, %4$u parallel slots, as set on the Models page. Sized by: %5$s.",
                                                scenario->parallel_slots),
                                   scenario->board->name, budget,
                                   hr_gui_kv_cache_type_label (scenario->kv_type), scenario->parallel_slots,
                                   hr_scenario_get_method_label (self->scenario));
  gtk_label_set_text (self->scenario_label, scenario_text);
}

/* The sum in words, "Weights … + KV cache … (+ projector + overhead) = …:
 * verdict.", and a context past the model's native limit. */
static char *
summary_text (HrSpecMemory       *self,
              const HrEvaluation *e)
{
  g_autofree char *weights = hr_gui_format_size (e->footprint.weights, self->unit);
  g_autofree char *kv = hr_gui_format_size (e->footprint.kv_cache, self->unit);
  g_autofree char *total = hr_gui_format_size (e->footprint.total, self->unit);
  g_autofree char *verdict = hr_gui_format_verdict_sentence (e->verdict, e->margin_bytes, self->unit);
  GString *summary = g_string_new (NULL);

  if (hr_scenario_get_runtime_template (self->scenario) != NULL && !hr_model_row_get_runtime_failed (self->row))
    {
      guint64 projector = hr_model_row_get_projector_bytes (self->row);
      g_autofree char *overhead = hr_gui_format_size (e->footprint.overhead - projector, self->unit);

      if (projector > 0)
        {
          g_autofree char *pj = hr_gui_format_size (projector, self->unit);

          /* Translators: weights + KV cache + the vision projector + the runtime's buffers and learned overhead = total: verdict */
          g_string_append_printf (summary, _("Weights %1$s + KV cache %2$s + vision projector %3$s + overhead %4$s = %5$s: %6$s."),
                                  weights, kv, pj, overhead, total, verdict);
        }
      else
        /* Translators: weights + KV cache + the runtime's buffers and learned overhead = total: verdict */
        g_string_append_printf (summary, _("Weights %1$s + KV cache %2$s + overhead %3$s = %4$s: %5$s."),
                                weights, kv, overhead, total, verdict);
    }
  else
    /* Translators: weights + KV cache = total: verdict */
    g_string_append_printf (summary, _("Weights %1$s + KV cache %2$s = %3$s: %4$s."),
                            weights, kv, total, verdict);
  if (e->past_context_limit)
    {
      g_autofree char *native = hr_gui_format_context (self->spec->context_length);

      g_string_append_c (summary, ' ');
      g_string_append_printf (summary, _("The context is past the model's native limit of %s."), native);
    }
  return g_string_free (summary, FALSE);
}

/* The verdict's label, in its colour. */
static void
show_verdict (HrSpecMemory       *self,
              const HrEvaluation *e)
{
  gtk_label_set_text (self->verdict_label, hr_gui_verdict_label (e->verdict));
  for (HrVerdict v = HR_VERDICT_FITS; v <= HR_VERDICT_OVER; v++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->verdict_label), hr_gui_verdict_css_class (v));
  gtk_widget_add_css_class (GTK_WIDGET (self->verdict_label), hr_gui_verdict_css_class (e->verdict));
  gtk_widget_set_visible (GTK_WIDGET (self->verdict_label), TRUE);
}

/**
 * hr_spec_memory_refresh:
 * @self: a #HrSpecMemory
 *
 * Re-evaluates the model under the shared #HrScenario as the Models page
 * does (hr_scenario_evaluate_row(): its board, precision, context, KV cache
 * type, slots, runtime and learned overhead, so the total is the Models
 * page's for the same model) and redraws the chart and the figures, naming
 * the method that made them (hr_scenario_get_method_label()). It runs on the scenario's "changed", when the units
 * preference changes and when the widget is mapped.
 */
void
hr_spec_memory_refresh (HrSpecMemory *self)
{
  HrEvaluationInputs scenario;
  const HrEvaluation *e;
  g_autofree char *summary = NULL;

  g_return_if_fail (HR_IS_SPEC_MEMORY (self));

  update_slider_labels (self);
  update_add_button (self);

  if (self->scenario != NULL)
    hr_scenario_get_evaluation_inputs (self->scenario, &scenario);
  if (self->row == NULL || self->scenario == NULL || scenario.board == NULL)
    {
      gtk_label_set_text (self->scenario_label, "");
      gtk_label_set_text (self->summary_label, self->invalid != NULL ? self->invalid : "");
      gtk_widget_set_visible (GTK_WIDGET (self->verdict_label), FALSE);
      return;
    }

  /* The Models page's evaluation, so the same model shows the same total
   * here (the runtime's prediction and the learned overhead). */
  hr_scenario_evaluate_row (self->scenario, self->row);
  e = hr_model_row_get_evaluation (self->row);
  show_scenario_text (self, &scenario);

  hr_memory_chart_set_scenario (self->chart, &scenario);
  hr_memory_chart_set_learned_text (self->chart, hr_scenario_get_calibration_text (self->scenario));
  hr_memory_chart_update (self->chart);
  hr_model_row_changed (self->row);

  summary = summary_text (self, e);
  gtk_label_set_text (self->summary_label, summary);
  show_verdict (self, e);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->chart),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, summary, -1);
}

static void
set_unit (HrSpecMemory *self,
          HrUnit        unit)
{
  if (self->unit == unit)
    return;
  self->unit = unit;
  hr_memory_chart_set_unit (self->chart, self->unit);
  hr_spec_memory_refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
}

static void
on_map (HrSpecMemory *self)
{
  hr_spec_memory_refresh (self);
}

/* The model as the card sizes it: at the precision slider's precision the
 * weights are hr_memory_spec_weight_bytes() (parameters x bits / 8), and the
 * published files' tensor list no longer describes them. */
static HrModelSpec *
spec_as_shown (HrSpecMemory *self)
{
  const HrPrecision *precision = selected_precision (self);
  HrModelSpec *spec = hr_model_spec_copy (self->spec);
  char bits[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *source = NULL;

  if (precision == NULL || self->spec->parameters == 0 ||
      (self->spec->precision != NULL && g_ascii_strcasecmp (precision->id, self->spec->precision) == 0))
    return spec;

  spec->file_bytes = hr_memory_spec_weight_bytes (self->spec, precision);
  g_free (spec->precision);
  spec->precision = g_strdup (precision->id);
  hr_model_spec_take_tensors (spec, NULL);
  g_ascii_formatd (bits, sizeof bits, "%g", precision->bits_per_weight);
  source = g_strdup_printf ("parameters x %s bits / 8 at %s, the precision it was sized at when added",
                            bits, precision->label);
  hr_model_spec_set_source (spec, HR_SPEC_FIELD_PRECISION, "the precision slider when it was added");
  hr_model_spec_set_source (spec, HR_SPEC_FIELD_FILE_BYTES, source);
  return spec;
}

/**
 * hr_spec_memory_add_to_catalog:
 * @self: a #HrSpecMemory
 * @error: return location for a #GError
 *
 * Adds the model, with its origin, to the user's catalog through
 * hr_session_add_model(), at the precision the card sizes it at: when the
 * precision slider is not "as published", the entry's precision is the
 * slider's and its file size hr_memory_spec_weight_bytes() at it (the scenario's session saves it atomically and
 * emits "catalog-changed"), and says so under the button.
 *
 * Returns: %TRUE when added; %FALSE with @error set by
 *   hr_session_add_model(), %HR_CORE_ERROR_INVALID_DATA when the model
 *   cannot be sized (hr_model_spec_validate()), or
 *   %G_IO_ERROR_NOT_INITIALIZED when there is no model, no scenario yet,
 *   or the model cannot be added yet (the reason given to
 *   hr_spec_memory_set_can_add())
 */
gboolean
hr_spec_memory_add_to_catalog (HrSpecMemory  *self,
                               GError       **error)
{
  g_autoptr(HrModelSpec) shown = NULL;
  g_autofree char *done = NULL;

  g_return_val_if_fail (HR_IS_SPEC_MEMORY (self), FALSE);

  if (self->spec != NULL && self->invalid != NULL)
    {
      g_set_error_literal (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, self->invalid);
      return FALSE;
    }
  if (self->spec == NULL || self->scenario == NULL || !self->can_add)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           self->cannot_add_reason != NULL && self->spec != NULL
                           ? self->cannot_add_reason : _("There is no model to add yet"));
      return FALSE;
    }

  shown = spec_as_shown (self);
  if (!hr_session_add_model (hr_scenario_get_session (self->scenario), shown, error))
    return FALSE;

  /* Translators: after Add to Catalog: the model's name, then where it came from */
  done = g_strdup_printf (_("Added to the catalog as “%1$s” (origin %2$s)."),
                          self->spec->name, self->spec->origin ? self->spec->origin : _("unknown"));
  gtk_widget_remove_css_class (GTK_WIDGET (self->add_status), "error");
  gtk_label_set_text (self->add_status, done);
  return TRUE;
}

static void
on_add_clicked (HrSpecMemory *self)
{
  g_autoptr(GError) error = NULL;

  if (hr_spec_memory_add_to_catalog (self, &error))
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", gtk_label_get_text (self->add_status));
      return;
    }
  gtk_widget_add_css_class (GTK_WIDGET (self->add_status), "error");
  gtk_label_set_text (self->add_status, error->message);
}

static void
hr_spec_memory_dispose (GObject *object)
{
  HrSpecMemory *self = HR_SPEC_MEMORY (object);

  if (self->chart != NULL)
    hr_memory_chart_set_rows (self->chart, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_SPEC_MEMORY);

  G_OBJECT_CLASS (hr_spec_memory_parent_class)->dispose (object);
}

static void
hr_spec_memory_finalize (GObject *object)
{
  HrSpecMemory *self = HR_SPEC_MEMORY (object);

  g_clear_object (&self->scenario);
  g_clear_object (&self->rows);
  g_clear_object (&self->row);
  g_clear_pointer (&self->spec, hr_model_spec_free);
  g_clear_pointer (&self->cannot_add_reason, g_free);
  g_clear_pointer (&self->invalid, g_free);

  G_OBJECT_CLASS (hr_spec_memory_parent_class)->finalize (object);
}

static void
hr_spec_memory_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  HrSpecMemory *self = HR_SPEC_MEMORY (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      g_value_set_object (value, self->scenario);
      break;
    case PROP_UNIT:
      g_value_set_enum (value, self->unit);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_spec_memory_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  HrSpecMemory *self = HR_SPEC_MEMORY (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      /* A template binds it before its page has a scenario. */
      if (g_value_get_object (value) != NULL)
        hr_spec_memory_set_scenario (self, g_value_get_object (value));
      break;
    case PROP_UNIT:
      set_unit (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_spec_memory_class_init (HrSpecMemoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_spec_memory_dispose;
  object_class->finalize = hr_spec_memory_finalize;
  object_class->get_property = hr_spec_memory_get_property;
  object_class->set_property = hr_spec_memory_set_property;

  /**
   * HrSpecMemory:scenario:
   *
   * The window's scenario: the figures are computed under it, and the
   * precision and context sliders are its "precision" and
   * "context-tokens". Set once.
   */
  properties[PROP_SCENARIO] =
    g_param_spec_object ("scenario", NULL, NULL, HR_TYPE_SCENARIO,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * HrSpecMemory:unit:
   *
   * GB or GiB, the sizes are shown in: the settings' "units", bound once
   * the card has a scenario (its session's settings).
   */
  properties[PROP_UNIT] =
    g_param_spec_enum ("unit", NULL, NULL, HR_TYPE_UNIT, HR_UNIT_GB,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (HR_TYPE_MEMORY_CHART);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroom/Headroom/widgets/hr-spec-memory.ui");
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, heading);
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, scenario_label);
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, precision_scale);
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, precision_value);
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, context_scale);
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, context_value);
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, chart);
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, summary_label);
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, verdict_label);
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, add_button);
  gtk_widget_class_bind_template_child (widget_class, HrSpecMemory, add_status);
  gtk_widget_class_bind_template_callback (widget_class, on_add_clicked);
}

static void
hr_spec_memory_init (HrSpecMemory *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->can_add = TRUE;
  self->rows = g_list_store_new (HR_TYPE_MODEL_ROW);
  hr_memory_chart_set_rows (self->chart, G_LIST_MODEL (self->rows));

  hr_scenario_sliders_setup (self->precision_scale, _("as published"), self->context_scale);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);

  self->unit = HR_UNIT_GB;
  hr_memory_chart_set_unit (self->chart, self->unit);

  update_add_button (self);
  update_slider_labels (self);
}

/**
 * hr_spec_memory_new:
 *
 * Returns: (transfer floating): a new #HrSpecMemory with no model
 */
GtkWidget *
hr_spec_memory_new (void)
{
  return g_object_new (HR_TYPE_SPEC_MEMORY, NULL);
}

/**
 * hr_spec_memory_set_scenario:
 * @self: a #HrSpecMemory
 * @scenario: the window's scenario (held); set once, later calls with
 *   another scenario are refused
 *
 * Computes the figures under @scenario and follows its "changed": a board,
 * KV cache type, slot count, runtime, precision or context changed anywhere
 * (the Models page, another page's sliders) changes them here. The
 * precision and context sliders are bound to @scenario's "precision" and
 * "context-tokens", both ways (hr_scenario_sliders_bind()), so they move
 * with the Models page's. "Add to Catalog" adds to hr_scenario_get_session().
 */
void
hr_spec_memory_set_scenario (HrSpecMemory *self,
                             HrScenario   *scenario)
{
  GSettings *settings;

  g_return_if_fail (HR_IS_SPEC_MEMORY (self));
  g_return_if_fail (HR_IS_SCENARIO (scenario));

  if (self->scenario == scenario)
    return;
  g_return_if_fail (self->scenario == NULL);

  self->scenario = g_object_ref (scenario);
  settings = hr_session_get_settings (hr_scenario_get_session (scenario));
  if (settings != NULL)
    g_settings_bind (settings, "units", self, "unit", G_SETTINGS_BIND_GET | G_SETTINGS_BIND_NO_SENSITIVITY);
  hr_scenario_sliders_bind (scenario, self->precision_scale, self->context_scale);
  g_signal_connect_object (scenario, "changed", G_CALLBACK (hr_spec_memory_refresh), self,
                           G_CONNECT_SWAPPED);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
  hr_spec_memory_refresh (self);
}

/**
 * hr_spec_memory_set_spec:
 * @self: a #HrSpecMemory
 * @spec: (nullable): the model (copied), or %NULL for none
 *
 * Shows @spec's memory under the scenario as it is (the sliders are the
 * scenario's and keep their place). The status under the button is
 * cleared.
 */
void
hr_spec_memory_set_spec (HrSpecMemory      *self,
                         const HrModelSpec *spec)
{
  g_return_if_fail (HR_IS_SPEC_MEMORY (self));

  g_clear_pointer (&self->spec, hr_model_spec_free);
  g_clear_pointer (&self->invalid, g_free);
  g_clear_object (&self->row);
  g_list_store_remove_all (self->rows);
  gtk_label_set_text (self->add_status, "");
  gtk_widget_remove_css_class (GTK_WIDGET (self->add_status), "error");

  if (spec != NULL)
    {
      g_autoptr(GError) error = NULL;

      self->spec = hr_model_spec_copy (spec);
      /* A model the memory math cannot size (no layers, no KV heads ...)
       * is not charted: the reason is shown instead. */
      if (!hr_model_spec_validate (self->spec, &error))
        self->invalid = g_strdup_printf (_("Headroom cannot size this model: %s."), error->message);
      else
        self->row = hr_model_row_new (self->spec);
    }
  hr_spec_memory_refresh (self);
  if (self->row != NULL)
    g_list_store_append (self->rows, self->row);
}

/**
 * hr_spec_memory_get_spec:
 * @self: a #HrSpecMemory
 *
 * Returns: (transfer none) (nullable): the model shown
 */
const HrModelSpec *
hr_spec_memory_get_spec (HrSpecMemory *self)
{
  g_return_val_if_fail (HR_IS_SPEC_MEMORY (self), NULL);

  return self->spec;
}

/**
 * hr_spec_memory_set_can_add:
 * @self: a #HrSpecMemory
 * @can_add: whether "Add to Catalog" may be used now
 * @reason: (nullable): shown under the button while it cannot ("Computing
 *   the file's sha256 digest…")
 *
 * Enables or disables "Add to Catalog" (a file's row waits for its digest).
 */
void
hr_spec_memory_set_can_add (HrSpecMemory *self,
                            gboolean      can_add,
                            const char   *reason)
{
  g_return_if_fail (HR_IS_SPEC_MEMORY (self));

  self->can_add = !!can_add;
  g_free (self->cannot_add_reason);
  self->cannot_add_reason = g_strdup (reason);
  if (can_add)
    gtk_label_set_text (self->add_status, "");
  update_add_button (self);
}

/**
 * hr_spec_memory_get_summary:
 * @self: a #HrSpecMemory
 *
 * Returns: (transfer none): the figures in words, "Weights 6.17 GB + KV
 *   cache 0.15 GB = 6.32 GB: over by 0.22 GB.", or "" with no model
 */
const char *
hr_spec_memory_get_summary (HrSpecMemory *self)
{
  g_return_val_if_fail (HR_IS_SPEC_MEMORY (self), NULL);

  return gtk_label_get_text (self->summary_label);
}

/**
 * hr_spec_memory_get_add_status:
 * @self: a #HrSpecMemory
 *
 * Returns: (transfer none): what the line under "Add to Catalog" says
 */
const char *
hr_spec_memory_get_add_status (HrSpecMemory *self)
{
  g_return_val_if_fail (HR_IS_SPEC_MEMORY (self), NULL);

  return gtk_label_get_text (self->add_status);
}

/** hr_spec_memory_get_precision_scale: @self: a #HrSpecMemory. Returns: (transfer none): the precision slider, bound to the scenario's "precision" (0 = as published, then the Models page's ids) */
GtkRange *
hr_spec_memory_get_precision_scale (HrSpecMemory *self)
{
  g_return_val_if_fail (HR_IS_SPEC_MEMORY (self), NULL);
  return GTK_RANGE (self->precision_scale);
}

/** hr_spec_memory_get_context_scale: @self: a #HrSpecMemory. Returns: (transfer none): the context slider, log2 of the scenario's "context-tokens" (9..17) */
GtkRange *
hr_spec_memory_get_context_scale (HrSpecMemory *self)
{
  g_return_val_if_fail (HR_IS_SPEC_MEMORY (self), NULL);
  return GTK_RANGE (self->context_scale);
}

/** hr_spec_memory_get_add_button: @self: a #HrSpecMemory. Returns: (transfer none): the "Add to Catalog" button */
GtkButton *
hr_spec_memory_get_add_button (HrSpecMemory *self)
{
  g_return_val_if_fail (HR_IS_SPEC_MEMORY (self), NULL);
  return self->add_button;
}

/** hr_spec_memory_get_chart: @self: a #HrSpecMemory. Returns: (transfer none): the memory chart */
HrMemoryChart *
hr_spec_memory_get_chart (HrSpecMemory *self)
{
  g_return_val_if_fail (HR_IS_SPEC_MEMORY (self), NULL);
  return self->chart;
}

/** hr_spec_memory_get_evaluation: @self: a #HrSpecMemory. Returns: (transfer none) (nullable): the model's evaluation under the scenario (hr_scenario_evaluate_row()), %NULL without a chartable model */
const HrEvaluation *
hr_spec_memory_get_evaluation (HrSpecMemory *self)
{
  g_return_val_if_fail (HR_IS_SPEC_MEMORY (self), NULL);
  return self->row != NULL ? hr_model_row_get_evaluation (self->row) : NULL;
}

/** hr_spec_memory_get_scenario_text: @self: a #HrSpecMemory. Returns: (transfer none): the line that names the board, the settings and the method */
const char *
hr_spec_memory_get_scenario_text (HrSpecMemory *self)
{
  g_return_val_if_fail (HR_IS_SPEC_MEMORY (self), NULL);
  return gtk_label_get_text (self->scenario_label);
}
