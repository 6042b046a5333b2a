/* hr-scenario-controls.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-accessible.h"
#include "hr-catalog.h"
#include "hr-gui-format.h"
#include "hr-gui-widget-util.h"
#include "hr-precision.h"
#include "hr-scenario-controls.h"
#include "hr-scenario-sliders.h"

/* The precisions the slider offers, in bits order; NULL is "as pulled":
 * the marks hr_scenario_sliders_setup() puts on it, in the same order. */
static const char * const precision_ids[] = {
  NULL, "int4", "q4_K_M", "q5_K_M", "q6_K", "q8_0", "fp16", "fp32",
};

#define CONTEXT_MIN_LOG2 9   /* 512 tokens */
#define CONTEXT_MAX_LOG2 17  /* 131,072 tokens */

/* The KV cache and runtime rows list HrKvCacheType's and
 * HrScenarioRuntime's values in order: an item's position is its value. */
#define N_KV_TYPES (HR_KV_CACHE_Q4_0 + 1)
#define N_RUNTIMES (HR_SCENARIO_RUNTIME_LLAMA_SERVER + 1)

struct _HrScenarioControls
{
  GtkBox              parent_instance;

  /* template */
  GtkScale           *precision_scale;
  GtkScale           *context_scale;
  GtkLabel           *precision_value;
  GtkLabel           *context_value;
  AdwComboRow        *kv_row;
  GtkSpinButton      *slots_spin;
  AdwComboRow        *runtime_row;
  GtkSwitch          *flash_switch;
  GtkSpinButton      *cpu_moe_spin;
  AdwComboRow        *draft_row;

  HrScenario         *scenario;
  GtkStringList      *draft_names;      /* "None", then the catalog's names */
  GPtrArray          *draft_catalog;    /* the catalog the names are of (not owned) */
  guint               draft_catalog_len;
  GtkStringList      *runtime_names;
  char               *runtime_version;  /* the version the fourth item names */
  gboolean            runtime_named;
  gboolean            updating;         /* refilling the runtime items */
  const HrPrecision  *precisions[G_N_ELEMENTS (precision_ids)];
  guint               n_precisions;
};

G_DEFINE_FINAL_TYPE (HrScenarioControls, hr_scenario_controls, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_SCENARIO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* Sliders                                                             */

static char *
format_precision_value (GtkScale *scale,
                        double    value,
                        gpointer  user_data)
{
  HrScenarioControls *self = user_data;
  guint index = (guint) value;
  const HrPrecision *precision;
  g_autofree char *bits = NULL;

  if (index >= self->n_precisions || self->precisions[index] == NULL)
    return g_strdup (_("as pulled"));

  precision = self->precisions[index];
  bits = hr_gui_format_plain (precision->bits_per_weight);
  /* Translators: the precision slider's value, "Q4_K_M, 4.6 bits per weight" */
  return g_strdup_printf (_("%1$s, %2$s bits per weight"), precision->label, bits);
}

static char *
format_context_value (GtkScale *scale,
                      double    value,
                      gpointer  user_data)
{
  int log2 = CLAMP ((int) value, CONTEXT_MIN_LOG2, CONTEXT_MAX_LOG2);

  return hr_gui_format_context ((guint32) 1 << log2);
}

/* The value beside each slider's heading, and what a screen reader says
 * for it (the scale's own value is an index or a power of two). */
static void
update_slider_labels (HrScenarioControls *self)
{
  g_autofree char *precision = format_precision_value (self->precision_scale,
                                                       gtk_range_get_value (GTK_RANGE (self->precision_scale)),
                                                       self);
  g_autofree char *context = format_context_value (self->context_scale,
                                                   gtk_range_get_value (GTK_RANGE (self->context_scale)),
                                                   self);

  gtk_label_set_text (self->precision_value, precision);
  gtk_label_set_text (self->context_value, context);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->precision_scale),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, precision,
                                  -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->context_scale),
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, context,
                                  -1);
}

/* The sliders' marks and ranges, as every page that shows memory has them
 * (hr-scenario-sliders.c); the controls keep the precisions of the marks
 * for the value they say beside the heading. */
static void
setup_sliders (HrScenarioControls *self)
{
  self->n_precisions = 0;
  for (guint i = 0; i < G_N_ELEMENTS (precision_ids); i++)
    {
      const HrPrecision *precision = precision_ids[i] ? hr_precision_lookup (precision_ids[i]) : NULL;

      if (precision_ids[i] == NULL || precision != NULL)
        self->precisions[self->n_precisions++] = precision;
    }
  hr_scenario_sliders_setup (self->precision_scale, _("as pulled"), self->context_scale);
}

static void
on_slider_changed (HrScenarioControls *self)
{
  update_slider_labels (self);
}

/* ------------------------------------------------------------------ */
/* Bindings: scenario property <-> control                             */

static gboolean
kv_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  g_value_set_uint (to, (guint) g_value_get_enum (from));
  return TRUE;
}

static gboolean
index_to_kv (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  guint index = g_value_get_uint (from);

  if (index >= N_KV_TYPES)
    return FALSE;
  g_value_set_enum (to, (HrKvCacheType) index);
  return TRUE;
}

static gboolean
runtime_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  g_value_set_uint (to, (guint) g_value_get_enum (from));
  return TRUE;
}

static gboolean
index_to_runtime (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  HrScenarioControls *self = user_data;
  guint index = g_value_get_uint (from);

  /* Refilling the items moves the selection: that is not the person choosing. */
  if (self->updating || index >= N_RUNTIMES)
    return FALSE;
  g_value_set_enum (to, (HrScenarioRuntime) index);
  return TRUE;
}

static gboolean
runtime_to_sensitive (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  g_value_set_boolean (to, g_value_get_enum (from) != HR_SCENARIO_RUNTIME_NONE);
  return TRUE;
}

/* llama-server's slots are its own (-np auto): the setting does not apply. */
static gboolean
runtime_to_slots_sensitive (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  g_value_set_boolean (to, g_value_get_enum (from) != HR_SCENARIO_RUNTIME_LLAMA_SERVER);
  return TRUE;
}

/* The draft model only counts under llama-server (hr-runtime-draft.c). */
static gboolean
runtime_to_draft_sensitive (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  g_value_set_boolean (to, g_value_get_enum (from) == HR_SCENARIO_RUNTIME_LLAMA_SERVER);
  return TRUE;
}

/* #HrScenario:draft-model <-> the draft row: item 0 is "None" (""), item
 * i the catalog's model i - 1. */
static gboolean
draft_to_index (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  HrScenarioControls *self = user_data;
  const char *name = g_value_get_string (from);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->draft_names));

  g_value_set_uint (to, 0);
  for (guint i = 1; name != NULL && name[0] != '\0' && i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->draft_names, i), name) == 0)
      {
        g_value_set_uint (to, i);
        break;
      }
  return TRUE;
}

static gboolean
index_to_draft (GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
  HrScenarioControls *self = user_data;
  guint index = g_value_get_uint (from);

  if (self->updating || index >= g_list_model_get_n_items (G_LIST_MODEL (self->draft_names)))
    return FALSE;
  g_value_set_string (to, index == 0 ? "" : gtk_string_list_get_string (self->draft_names, index));
  return TRUE;
}

/* The draft row's items: refilled only when the session's catalog changed. */
static void
update_draft_names (HrScenarioControls *self)
{
  GPtrArray *catalog = self->scenario ? hr_session_get_catalog (hr_scenario_get_session (self->scenario)) : NULL;
  guint n = catalog != NULL ? catalog->len : 0;
  g_autofree const char **items = NULL;
  GValue name = G_VALUE_INIT, index = G_VALUE_INIT;

  if (self->draft_names == NULL || (catalog == self->draft_catalog && n == self->draft_catalog_len &&
                                    g_list_model_get_n_items (G_LIST_MODEL (self->draft_names)) > 0))
    return;
  self->draft_catalog = catalog;
  self->draft_catalog_len = n;
  items = g_new0 (const char *, n + 2);
  /* Translators: the draft model row's first item: no draft model */
  items[0] = _("None");
  for (guint i = 0; i < n; i++)
    items[i + 1] = ((const HrModelSpec *) g_ptr_array_index (catalog, i))->name;
  self->updating = TRUE;
  gtk_string_list_splice (self->draft_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->draft_names)), items);
  if (self->scenario != NULL)
    {
      g_value_init (&name, G_TYPE_STRING);
      g_value_set_string (&name, hr_scenario_get_draft_model (self->scenario));
      g_value_init (&index, G_TYPE_UINT);
      draft_to_index (NULL, &name, &index, self);
      adw_combo_row_set_selected (self->draft_row, g_value_get_uint (&index));
      g_value_unset (&name);
      /* A combo row makes itself sensitive again when its model fills. */
      gtk_widget_set_sensitive (GTK_WIDGET (self->draft_row),
                                hr_scenario_get_runtime (self->scenario) == HR_SCENARIO_RUNTIME_LLAMA_SERVER);
    }
  self->updating = FALSE;
}

/* The fourth runtime item names the version it models, or says none is
 * known: refilled only when the board's version changes. */
static void
update_runtime_names (HrScenarioControls *self)
{
  g_autofree char *board_item = NULL;
  const char *items[N_RUNTIMES + 1];
  const char *version = self->scenario ? hr_scenario_get_server_version (self->scenario) : NULL;

  if (self->runtime_named && g_strcmp0 (version, self->runtime_version) == 0)
    return;
  self->runtime_named = TRUE;
  g_free (self->runtime_version);
  self->runtime_version = g_strdup (version);

  if (version != NULL)
    /* Translators: a Runtime item, "From the board's server version (ollama 0.31.2)" */
    board_item = g_strdup_printf (_("From the board's server version (%s)"), version);
  else
    board_item = g_strdup (_("From the board's server version (none measured yet: the newest)"));

  /* Translators: the plain math's Runtime item; "seed" is the command
   * line's word for it (--runtime seed) */
  items[HR_SCENARIO_RUNTIME_NONE] = _("Seed: weights + KV only");
  items[HR_SCENARIO_RUNTIME_OLLAMA_0_30] = _("Ollama 0.30+ (llama-server)");
  items[HR_SCENARIO_RUNTIME_OLLAMA_0_12] = _("Ollama up to 0.12");
  items[HR_SCENARIO_RUNTIME_BOARD] = board_item;
  items[HR_SCENARIO_RUNTIME_LLAMA_SERVER] = _("llama-server, its own defaults (4 slots share the context)");
  items[N_RUNTIMES] = NULL;

  self->updating = TRUE;
  gtk_string_list_splice (self->runtime_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->runtime_names)), items);
  if (self->scenario != NULL)
    adw_combo_row_set_selected (self->runtime_row, hr_scenario_get_runtime (self->scenario));
  self->updating = FALSE;
}

/**
 * hr_scenario_controls_set_scenario:
 * @self: a #HrScenarioControls
 * @scenario: the scenario the controls show and change; set once
 *
 * Binds every control to its property of @scenario, both ways.
 */
void
hr_scenario_controls_set_scenario (HrScenarioControls *self,
                                   HrScenario         *scenario)
{
  GBindingFlags flags = G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE;

  g_return_if_fail (HR_IS_SCENARIO_CONTROLS (self));
  g_return_if_fail (HR_IS_SCENARIO (scenario));
  if (self->scenario == scenario)
    return;
  g_return_if_fail (self->scenario == NULL);

  self->scenario = g_object_ref (scenario);
  update_runtime_names (self);
  hr_scenario_sliders_bind (scenario, self->precision_scale, self->context_scale);
  g_object_bind_property_full (scenario, "kv-cache-type", self->kv_row, "selected",
                               flags, kv_to_index, index_to_kv, NULL, NULL);
  g_object_bind_property (scenario, "parallel-slots",
                          gtk_spin_button_get_adjustment (self->slots_spin), "value", flags);
  g_object_bind_property_full (scenario, "runtime", self->runtime_row, "selected",
                               flags, runtime_to_index, index_to_runtime, self, NULL);
  g_object_bind_property_full (scenario, "runtime", self->flash_switch, "sensitive",
                               G_BINDING_SYNC_CREATE, runtime_to_sensitive, NULL, NULL, NULL);
  g_object_bind_property (scenario, "flash-attention", self->flash_switch, "active", flags);
  g_object_bind_property (scenario, "n-cpu-moe",
                          gtk_spin_button_get_adjustment (self->cpu_moe_spin), "value", flags);
  g_object_bind_property_full (scenario, "runtime", self->slots_spin, "sensitive",
                               G_BINDING_SYNC_CREATE, runtime_to_slots_sensitive, NULL, NULL, NULL);
  g_signal_connect_object (scenario, "changed", G_CALLBACK (update_runtime_names), self,
                           G_CONNECT_SWAPPED);
  update_draft_names (self);
  g_object_bind_property_full (scenario, "draft-model", self->draft_row, "selected",
                               flags, draft_to_index, index_to_draft, self, NULL);
  g_object_bind_property_full (scenario, "runtime", self->draft_row, "sensitive",
                               G_BINDING_SYNC_CREATE, runtime_to_draft_sensitive, NULL, NULL, NULL);
  g_signal_connect_object (scenario, "changed", G_CALLBACK (update_draft_names), self,
                           G_CONNECT_SWAPPED);
  update_slider_labels (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
}

/* Accessors for the page and the tests */

/** hr_scenario_controls_get_precision_scale: @self: the controls. Returns: (transfer none): the precision slider (0 = as pulled) */
GtkRange *
hr_scenario_controls_get_precision_scale (HrScenarioControls *self)
{
  return GTK_RANGE (self->precision_scale);
}

/** hr_scenario_controls_get_context_scale: @self: the controls. Returns: (transfer none): the context slider (log2 of tokens, 9..17) */
GtkRange *
hr_scenario_controls_get_context_scale (HrScenarioControls *self)
{
  return GTK_RANGE (self->context_scale);
}

/** hr_scenario_controls_get_runtime_row: @self: the controls. Returns: (transfer none): the Runtime control */
AdwComboRow *
hr_scenario_controls_get_runtime_row (HrScenarioControls *self)
{
  return self->runtime_row;
}

/** hr_scenario_controls_get_draft_row: @self: the controls. Returns: (transfer none): the Draft model control (item 0 = none) */
AdwComboRow *
hr_scenario_controls_get_draft_row (HrScenarioControls *self)
{
  return self->draft_row;
}

/** hr_scenario_controls_get_flash_switch: @self: the controls. Returns: (transfer none): the flash attention switch */
GtkSwitch *
hr_scenario_controls_get_flash_switch (HrScenarioControls *self)
{
  return self->flash_switch;
}

/** hr_scenario_controls_get_cpu_moe_spin: @self: the controls. Returns: (transfer none): the --n-cpu-moe control (0 = none) */
GtkSpinButton *
hr_scenario_controls_get_cpu_moe_spin (HrScenarioControls *self)
{
  return self->cpu_moe_spin;
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_scenario_controls_dispose (GObject *object)
{
  HrScenarioControls *self = (HrScenarioControls *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_SCENARIO_CONTROLS);
  g_clear_object (&self->scenario);
  g_clear_object (&self->runtime_names);
  g_clear_object (&self->draft_names);

  G_OBJECT_CLASS (hr_scenario_controls_parent_class)->dispose (object);
}

static void
hr_scenario_controls_finalize (GObject *object)
{
  HrScenarioControls *self = (HrScenarioControls *)object;

  g_clear_pointer (&self->runtime_version, g_free);

  G_OBJECT_CLASS (hr_scenario_controls_parent_class)->finalize (object);
}

static void
hr_scenario_controls_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  HrScenarioControls *self = HR_SCENARIO_CONTROLS (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      g_value_set_object (value, self->scenario);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_scenario_controls_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  HrScenarioControls *self = HR_SCENARIO_CONTROLS (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      /* The page's template binds it before the page has a scenario. */
      if (g_value_get_object (value) != NULL)
        hr_scenario_controls_set_scenario (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_scenario_controls_class_init (HrScenarioControlsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_scenario_controls_dispose;
  object_class->finalize = hr_scenario_controls_finalize;
  object_class->get_property = hr_scenario_controls_get_property;
  object_class->set_property = hr_scenario_controls_set_property;

  /**
   * HrScenarioControls:scenario:
   *
   * The scenario whose properties the controls are bound to. Set once; the Models page's template binds it to the page's.
   */
  properties[PROP_SCENARIO] =
    g_param_spec_object ("scenario", NULL, NULL, HR_TYPE_SCENARIO,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/models/hr-scenario-controls.ui");
  gtk_widget_class_bind_template_child (widget_class, HrScenarioControls, precision_scale);
  gtk_widget_class_bind_template_child (widget_class, HrScenarioControls, context_scale);
  gtk_widget_class_bind_template_child (widget_class, HrScenarioControls, precision_value);
  gtk_widget_class_bind_template_child (widget_class, HrScenarioControls, context_value);
  gtk_widget_class_bind_template_child (widget_class, HrScenarioControls, kv_row);
  gtk_widget_class_bind_template_child (widget_class, HrScenarioControls, slots_spin);
  gtk_widget_class_bind_template_child (widget_class, HrScenarioControls, runtime_row);
  gtk_widget_class_bind_template_child (widget_class, HrScenarioControls, flash_switch);
  gtk_widget_class_bind_template_child (widget_class, HrScenarioControls, cpu_moe_spin);
  gtk_widget_class_bind_template_child (widget_class, HrScenarioControls, draft_row);
}

/* The popover's items wrap: libadwaita 1.2's own cut them at 20
 * characters ("Ollama 0.30+ (llama-…", "From the board's serv…"). */
static void
setup_wrapping_item (GtkSignalListItemFactory *factory,
                     GtkListItem              *item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), check);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 36);
  gtk_label_set_width_chars (GTK_LABEL (label), 20);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, box);
}

/* The item's text, and the check mark on the row's choice, as
 * libadwaita's own items have. */
static void
bind_wrapping_item (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    AdwComboRow              *row)
{
  GtkStringObject *string = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (gtk_widget_get_first_child (box)),
                      string != NULL ? gtk_string_object_get_string (string) : "");
  gtk_widget_set_opacity (gtk_widget_get_last_child (box),
                          adw_combo_row_get_selected (row) == gtk_list_item_get_position (item) ? 1 : 0);
}

static void
set_wrapping_factory (AdwComboRow *row)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_wrapping_item), NULL);
  g_signal_connect_object (factory, "bind", G_CALLBACK (bind_wrapping_item), row, 0);
  adw_combo_row_set_list_factory (row, factory);
}

static void
hr_scenario_controls_init (HrScenarioControls *self)
{

  gtk_widget_init_template (GTK_WIDGET (self));
  /* Translators: for a screen reader, the untitled group of the KV cache type, runtime, flash attention and draft model rows */
  hr_accessible_name_group (ADW_PREFERENCES_GROUP (gtk_widget_get_ancestor (GTK_WIDGET (self->kv_row),
                                                                            ADW_TYPE_PREFERENCES_GROUP)),
                            _("Runtime settings"));

  self->runtime_names = gtk_string_list_new (NULL);
  adw_combo_row_set_model (self->runtime_row, G_LIST_MODEL (self->runtime_names));
  self->draft_names = gtk_string_list_new (NULL);
  adw_combo_row_set_model (self->draft_row, G_LIST_MODEL (self->draft_names));
  set_wrapping_factory (self->runtime_row);
  set_wrapping_factory (self->draft_row);
  update_runtime_names (self);
  setup_sliders (self);
  update_slider_labels (self);
  g_signal_connect_swapped (self->precision_scale, "value-changed", G_CALLBACK (on_slider_changed), self);
  g_signal_connect_swapped (self->context_scale, "value-changed", G_CALLBACK (on_slider_changed), self);
  hr_gui_label_spin_by_row (self->slots_spin);
  hr_gui_label_spin_by_row (self->cpu_moe_spin);
  /* No subtitle here reaches sixteen lines, even in German beside two buttons. */
  hr_gui_rows_bound_subtitles (GTK_WIDGET (self), 16);
}

/**
 * hr_scenario_controls_new:
 *
 * Returns: (transfer floating): new controls; hr_scenario_controls_set_scenario()
 *   binds them
 */
GtkWidget *
hr_scenario_controls_new (void)
{
  return g_object_new (HR_TYPE_SCENARIO_CONTROLS, NULL);
}
