/* hr-board-editor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-board-editor.h"
#include "hr-board-import.h"
#include "hr-device-list.h"
#include "hr-gui-format.h"
#include "hr-gui-widget-util.h"
#include "hr-measurements-row.h"

struct _HrBoardEditor
{
  GtkBox          parent_instance;

  /* template */
  AdwComboRow    *board_row;
  AdwExpanderRow *editor_row;
  GtkSpinButton  *pool_spin;
  GtkSpinButton  *resident_spin;
  GtkSpinButton  *reserve_spin;
  GtkSpinButton  *bandwidth_spin;
  GtkSpinButton  *reply_spin;
  GtkSpinButton  *stage_spin;
  GtkSpinButton  *prefill_spin;
  AdwComboRow    *backend_row;
  AdwActionRow   *host_pool_row;
  AdwActionRow   *host_bandwidth_row;
  AdwActionRow   *host_resident_row;
  AdwActionRow   *host_reserve_row;
  GtkSpinButton  *host_pool_spin;
  GtkSpinButton  *host_bandwidth_spin;
  GtkSpinButton  *host_resident_spin;
  GtkSpinButton  *host_reserve_spin;
  GtkButton      *save_button;
  GtkButton      *revert_button;
  GtkLabel       *board_summary;
  HrMeasurementsRow *measurements_row;
  HrDeviceList   *device_list;

  HrScenario     *scenario;
  HrSession      *session;
  GtkStringList  *board_names;
  HrBoard        *shown;              /* the board the spins show; NULL before loading */
  HrUnit          unit;
  gboolean        updating;
};

G_DEFINE_FINAL_TYPE (HrBoardEditor, hr_board_editor, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_SCENARIO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
show_message (HrBoardEditor *self,
              const char    *message)
{
  if (!gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message))
    g_message ("%s", message);
}

#define N_SPINS 11

static GtkSpinButton **
editor_spins (HrBoardEditor *self,
              GtkSpinButton *out[N_SPINS])
{
  out[0] = self->pool_spin;
  out[1] = self->resident_spin;
  out[2] = self->reserve_spin;
  out[3] = self->bandwidth_spin;
  out[4] = self->reply_spin;
  out[5] = self->stage_spin;
  out[6] = self->prefill_spin;
  out[7] = self->host_pool_spin;
  out[8] = self->host_bandwidth_spin;
  out[9] = self->host_resident_spin;
  out[10] = self->host_reserve_spin;
  return out;
}

/* ------------------------------------------------------------------ */
/* The summary and the editor                                          */

static void
update_summary (HrBoardEditor *self)
{
  const HrBoard *board = hr_scenario_get_board (self->scenario);
  const HrEfficiencyFit *fit = hr_scenario_get_fit (self->scenario);
  g_autofree char *budget = NULL;
  g_autofree char *headroom = NULL;
  g_autofree char *pool = NULL;
  g_autofree char *floor_tps = NULL;
  g_autofree char *fitted = NULL;
  g_autofree char *text = NULL;

  if (board == NULL)
    return;

  budget = hr_gui_format_size (hr_board_budget_bytes (board), self->unit);
  headroom = hr_gui_format_size (hr_board_headroom_bytes (board), self->unit);
  pool = hr_gui_format_size (board->pool_bytes, self->unit);
  floor_tps = hr_gui_format_decimal (hr_scenario_peek_evaluation_inputs (self->scenario)->floor_tps, 1);
  if (fit->n_points > 0)
    {
      g_autofree char *efficiency = hr_gui_format_decimal (fit->efficiency, 2);

      fitted = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "efficiency %s, fitted on %u measured model",
                                             "efficiency %s, fitted on %u measured models",
                                             fit->n_points),
                                efficiency, fit->n_points);
    }
  else if (hr_scenario_peek_evaluation_inputs (self->scenario)->prior_efficiency > 0.0)
    {
      g_autofree char *prior = hr_gui_format_decimal (hr_scenario_peek_evaluation_inputs (self->scenario)->prior_efficiency, 2);

      fitted = g_strdup_printf (_("no measured models on this board: rates are predicted from efficiency %s, "
                                  "the mean of published runs on its kind of hardware; measure one model to fit its own"), prior);
    }
  else
    {
      fitted = g_strdup (_("no measured models on this board and no published efficiency for its kind of hardware: no rates; measure one model to get them"));
    }

  text = g_strdup_printf (_("Budget %1$s, headroom %2$s, pool %3$s; floor %4$s t/s; %5$s."),
                          budget, headroom, pool, floor_tps, fitted);
  {
    /* A board with several GPUs and host memory is placed across its GPUs
     * (hr_offload_predict()) and the pool chart draws each of them; one
     * without host memory is sized on its first GPU alone. */
    g_autofree char *first_only = NULL;

    if (hr_board_is_multi_device (board) && hr_board_has_host (board))
      /* Translators: %u is the number of GPUs */
      first_only = g_strdup_printf (_("This board has %u GPUs: the verdicts and figures place a model across them as Ollama 0.30+ and llama.cpp's fit do, and the pool chart draws each GPU and host memory. The first GPU's figures:"),
                                    board->devices->len);
    else
      first_only = hr_board_first_device_only_text (board);
    if (first_only != NULL)
      {
        g_autofree char *both = g_strdup_printf ("%s\n%s", first_only, text);

        gtk_label_set_text (self->board_summary, both);
        return;
      }
  }
  gtk_label_set_text (self->board_summary, text);
}

static gboolean
same_devices (const HrBoard *a,
              const HrBoard *b)
{
  guint n = a->devices != NULL ? a->devices->len : 0;

  if (n != (b->devices != NULL ? b->devices->len : 0))
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (!hr_device_equal (g_ptr_array_index (a->devices, i), g_ptr_array_index (b->devices, i)))
      return FALSE;
  return TRUE;
}

static gboolean
same_board (const HrBoard *a,
            const HrBoard *b)
{
  return g_strcmp0 (a->id, b->id) == 0 &&
         a->pool_bytes == b->pool_bytes &&
         a->resident_bytes == b->resident_bytes &&
         a->reserve_bytes == b->reserve_bytes &&
         a->bandwidth_bytes_per_s == b->bandwidth_bytes_per_s &&
         a->reply_tokens == b->reply_tokens &&
         a->stage_ceiling_ms == b->stage_ceiling_ms &&
         a->prefill_allowance_ms == b->prefill_allowance_ms &&
         a->backend == b->backend &&
         a->host_pool_bytes == b->host_pool_bytes &&
         a->host_resident_bytes == b->host_resident_bytes &&
         a->host_reserve_bytes == b->host_reserve_bytes &&
         a->host_bandwidth_bytes_per_s == b->host_bandwidth_bytes_per_s &&
         same_devices (a, b);
}

static void
clear_errors (HrBoardEditor *self)
{
  GtkSpinButton *spins[N_SPINS];

  editor_spins (self, spins);
  for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (spins[i]), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->backend_row), "error");
  hr_device_list_clear_errors (self->device_list);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), TRUE);
}

/* The host side: a discrete board's system RAM and the backend; a unified
 * board has one pool, so the rows hide. Figures the built-in source calls
 * an assumption say so in their subtitle. */
static void
load_host (HrBoardEditor *self,
           const HrBoard *board)
{
  gboolean discrete = !board->unified;
  gboolean assumed = board->source != NULL && strstr (board->source, "host memory is Headroom's assumption") != NULL;
  AdwActionRow *rows[4] = { self->host_pool_row, self->host_bandwidth_row,
                            self->host_resident_row, self->host_reserve_row };

  adw_combo_row_set_selected (self->backend_row, (guint) board->backend);
  gtk_spin_button_set_value (self->host_pool_spin, hr_bytes_to_gb (board->host_pool_bytes));
  gtk_spin_button_set_value (self->host_bandwidth_spin, board->host_bandwidth_bytes_per_s / 1e9);
  gtk_spin_button_set_value (self->host_resident_spin, hr_bytes_to_gb (board->host_resident_bytes));
  gtk_spin_button_set_value (self->host_reserve_spin, hr_bytes_to_gb (board->host_reserve_bytes));
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    gtk_widget_set_visible (GTK_WIDGET (rows[i]), discrete);
  adw_action_row_set_subtitle (self->host_pool_row,
                               assumed ? _("System RAM the layers that do not fit the GPU live in: "
                                           "an assumption of a typical desktop, not a measurement; "
                                           "edit it to your machine")
                                       : _("System RAM the layers that do not fit the GPU live in"));
}

/* The spins follow the scenario's board only when it is not the one they
 * show: another board, a revert or a save; never the editor's own edit. */
static void
load_editor (HrBoardEditor *self)
{
  const HrBoard *board = hr_scenario_get_board (self->scenario);

  if (board == NULL || (self->shown != NULL && same_board (board, self->shown)))
    return;

  g_clear_pointer (&self->shown, hr_board_free);
  self->shown = hr_board_copy (board);
  self->updating = TRUE;
  gtk_spin_button_set_value (self->pool_spin, hr_bytes_to_gb (board->pool_bytes));
  gtk_spin_button_set_value (self->resident_spin, hr_bytes_to_gb (board->resident_bytes));
  gtk_spin_button_set_value (self->reserve_spin, hr_bytes_to_gb (board->reserve_bytes));
  gtk_spin_button_set_value (self->bandwidth_spin, board->bandwidth_bytes_per_s / 1e9);
  gtk_spin_button_set_value (self->reply_spin, board->reply_tokens);
  gtk_spin_button_set_value (self->stage_spin, board->stage_ceiling_ms);
  gtk_spin_button_set_value (self->prefill_spin, board->prefill_allowance_ms);
  load_host (self, board);
  hr_device_list_set_board (self->device_list, board);
  self->updating = FALSE;
  clear_errors (self);
}

/* The first GPU's figures, after the device list changed them. */
static void
load_first_device (HrBoardEditor *self,
                   const HrBoard *board)
{
  self->updating = TRUE;
  gtk_spin_button_set_value (self->pool_spin, hr_bytes_to_gb (board->pool_bytes));
  gtk_spin_button_set_value (self->resident_spin, hr_bytes_to_gb (board->resident_bytes));
  gtk_spin_button_set_value (self->reserve_spin, hr_bytes_to_gb (board->reserve_bytes));
  gtk_spin_button_set_value (self->bandwidth_spin, board->bandwidth_bytes_per_s / 1e9);
  adw_combo_row_set_selected (self->backend_row, (guint) board->backend);
  self->updating = FALSE;
}

/* A board that lists its devices keeps the first one's figures its own
 * (hr_board_set_devices()): an edit of the board's figures goes into it. */
static void
sync_first_device (HrBoard *board)
{
  HrDevice *first;

  if (board->devices == NULL || board->devices->len == 0)
    return;
  first = g_ptr_array_index (board->devices, 0);
  first->memory_bytes = board->pool_bytes;
  first->resident_bytes = board->resident_bytes;
  first->reserve_bytes = board->reserve_bytes;
  first->bandwidth_bytes_per_s = board->bandwidth_bytes_per_s;
}

static void apply_edit (HrBoardEditor *self, GtkWidget *field, HrBoard *edited);

static void
on_devices_changed (HrDeviceList  *list,
                    GtkWidget     *field,
                    HrBoardEditor *self)
{
  HrBoard *edited;

  if (self->updating || self->shown == NULL)
    return;
  edited = hr_board_copy (self->shown);
  hr_board_set_devices (edited, hr_device_list_get_devices (list));
  apply_edit (self, field, edited);
  load_first_device (self, self->shown);
}

static void
on_scenario_changed (HrBoardEditor *self)
{
  load_editor (self);
  update_summary (self);
}

static void apply_edit (HrBoardEditor *self, GtkWidget *field, HrBoard *edited);

static void
on_editor_changed (GtkSpinButton *spin,
                   HrBoardEditor *self)
{
  g_autoptr(HrBoard) edited = NULL;
  double value = gtk_spin_button_get_value (spin);

  if (self->updating || self->shown == NULL)
    return;

  /* Only the field that moved changes: the others keep their exact bytes. */
  edited = hr_board_copy (self->shown);
  if (spin == self->pool_spin)
    edited->pool_bytes = hr_bytes_from_gb (value);
  else if (spin == self->resident_spin)
    edited->resident_bytes = hr_bytes_from_gb (value);
  else if (spin == self->reserve_spin)
    edited->reserve_bytes = hr_bytes_from_gb (value);
  else if (spin == self->bandwidth_spin)
    edited->bandwidth_bytes_per_s = value * 1e9;
  else if (spin == self->reply_spin)
    edited->reply_tokens = (guint32) value;
  else if (spin == self->stage_spin)
    edited->stage_ceiling_ms = (guint32) value;
  else if (spin == self->prefill_spin)
    edited->prefill_allowance_ms = (guint32) value;
  else if (spin == self->host_pool_spin)
    edited->host_pool_bytes = hr_bytes_from_gb (value);
  else if (spin == self->host_bandwidth_spin)
    edited->host_bandwidth_bytes_per_s = value * 1e9;
  else if (spin == self->host_resident_spin)
    edited->host_resident_bytes = hr_bytes_from_gb (value);
  else if (spin == self->host_reserve_spin)
    edited->host_reserve_bytes = hr_bytes_from_gb (value);
  sync_first_device (edited);

  apply_edit (self, GTK_WIDGET (spin), g_steal_pointer (&edited));
  if (self->shown->devices != NULL && spin != self->host_pool_spin && spin != self->host_bandwidth_spin &&
      spin != self->host_resident_spin && spin != self->host_reserve_spin)
    hr_device_list_set_board (self->device_list, self->shown);
}

/* Validates @edited (owned): invalid, @field shows the error as the other
 * fields do and nothing is applied; else it becomes the scenario's board. */
static void
apply_edit (HrBoardEditor *self,
            GtkWidget     *field,
            HrBoard       *edited)
{
  g_autoptr(HrBoard) board = edited;
  g_autoptr(GError) error = NULL;

  if (!hr_board_validate (board, &error))
    {
      gtk_widget_add_css_class (field, "error");
      gtk_label_set_text (self->board_summary, error->message);
      gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), FALSE);
      return;
    }

  clear_errors (self);
  hr_board_free (self->shown);
  self->shown = hr_board_copy (board);
  hr_scenario_set_edited_board (self->scenario, board);
}

static void
on_backend_selected (AdwComboRow   *row,
                     GParamSpec    *pspec,
                     HrBoardEditor *self)
{
  HrBoard *edited;
  guint selected = adw_combo_row_get_selected (row);

  if (self->updating || self->shown == NULL || selected > HR_BOARD_BACKEND_CPU
      || (guint) self->shown->backend == selected)
    return;
  edited = hr_board_copy (self->shown);
  edited->backend = (HrBoardBackend) selected;
  /* the first GPU follows; a CPU-only board has no GPU to list */
  if (edited->devices != NULL && edited->backend == HR_BOARD_BACKEND_CPU)
    hr_board_set_devices (edited, NULL);
  else if (edited->devices != NULL)
    ((HrDevice *) g_ptr_array_index (edited->devices, 0))->backend =
      edited->backend == HR_BOARD_BACKEND_METAL ? HR_DEVICE_BACKEND_METAL : HR_DEVICE_BACKEND_CUDA;
  apply_edit (self, GTK_WIDGET (row), edited);
  hr_device_list_set_board (self->device_list, self->shown);
}

static void
on_save_clicked (HrBoardEditor *self,
                 GtkButton     *button)
{
  const HrBoard *board = hr_scenario_get_board (self->scenario);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *message = NULL;
  g_autofree char *name = NULL;

  if (board == NULL)
    return;

  name = g_strdup (board->name);
  if (!hr_session_save_board (self->session, board, &error))
    {
      show_message (self, error->message);
      return;
    }

  path = hr_data_user_file ("boards.json");
  message = g_strdup_printf (_("Saved “%s” to %s"), name, path);
  show_message (self, message);
}

/* The board list's "Detect This Computer" and "Import from Text…" */
static void
open_import (GtkWidget         *widget,
             HrBoardImportMode  mode)
{
  HrBoardEditor *self = HR_BOARD_EDITOR (widget);
  GtkRoot *root = gtk_widget_get_root (widget);

  if (self->scenario == NULL)
    return;
  gtk_window_present (GTK_WINDOW (hr_board_import_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       self->scenario, mode)));
}

static void
on_detect_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  open_import (widget, HR_BOARD_IMPORT_DETECT);
}

static void
on_import_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  open_import (widget, HR_BOARD_IMPORT_PASTE);
}

static void
on_revert_clicked (HrBoardEditor *self,
                   GtkButton     *button)
{
  hr_scenario_revert_board (self->scenario);
}

/* ------------------------------------------------------------------ */
/* The board selector: "board-id" <-> the row's selected index         */

static gboolean
board_id_to_index (GBinding     *binding,
                   const GValue *from,
                   GValue       *to,
                   gpointer      user_data)
{
  HrBoardEditor *self = user_data;
  GPtrArray *boards = hr_session_get_boards (self->session);
  const char *id = g_value_get_string (from);

  for (guint i = 0; i < boards->len; i++)
    if (g_strcmp0 (((HrBoard *) g_ptr_array_index (boards, i))->id, id) == 0)
      {
        g_value_set_uint (to, i);
        return TRUE;
      }
  g_value_set_uint (to, 0);
  return boards->len > 0;
}

static gboolean
index_to_board_id (GBinding     *binding,
                   const GValue *from,
                   GValue       *to,
                   gpointer      user_data)
{
  HrBoardEditor *self = user_data;
  GPtrArray *boards = hr_session_get_boards (self->session);
  guint index = g_value_get_uint (from);

  /* Refilling the list moves the selection: that is not the person choosing. */
  if (self->updating || index >= boards->len)
    return FALSE;
  g_value_set_string (to, ((HrBoard *) g_ptr_array_index (boards, index))->id);
  return TRUE;
}

static void
update_board_names (HrBoardEditor *self)
{
  GPtrArray *boards = hr_session_get_boards (self->session);
  const char *id = hr_scenario_get_board_id (self->scenario);
  guint selected = 0;

  self->updating = TRUE;
  gtk_string_list_splice (self->board_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->board_names)), NULL);
  for (guint i = 0; i < boards->len; i++)
    {
      const HrBoard *board = g_ptr_array_index (boards, i);

      gtk_string_list_append (self->board_names, board->name);
      if (g_strcmp0 (board->id, id) == 0)
        selected = i;
    }
  adw_combo_row_set_selected (self->board_row, selected);
  self->updating = FALSE;

  if (hr_session_get_loaded (self->session) && !hr_session_get_boards_writable (self->session))
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->save_button),
                                 _("Your boards file could not be read, so it is not saved over"));
}

/**
 * hr_board_editor_set_scenario:
 * @self: a #HrBoardEditor
 * @scenario: the scenario whose board the editor selects and edits; set once
 *
 * Offers the boards of @scenario's session, binds the selector to
 * #HrScenario:board-id and follows #HrScenario::changed.
 */
void
hr_board_editor_set_scenario (HrBoardEditor *self,
                              HrScenario    *scenario)
{
  g_return_if_fail (HR_IS_BOARD_EDITOR (self));
  g_return_if_fail (HR_IS_SCENARIO (scenario));
  if (self->scenario == scenario)
    return;
  g_return_if_fail (self->scenario == NULL);

  self->scenario = g_object_ref (scenario);
  self->session = g_object_ref (hr_scenario_get_session (scenario));
  update_board_names (self);
  g_signal_connect_object (self->session, "notify::loaded", G_CALLBACK (update_board_names), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "boards-changed", G_CALLBACK (update_board_names), self,
                           G_CONNECT_SWAPPED);
  g_object_bind_property_full (scenario, "board-id", self->board_row, "selected",
                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                               board_id_to_index, index_to_board_id, self, NULL);
  g_signal_connect_object (scenario, "changed", G_CALLBACK (on_scenario_changed), self,
                           G_CONNECT_SWAPPED);
  on_scenario_changed (self);
  hr_measurements_row_set_scenario (self->measurements_row, scenario);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
}

/**
 * hr_board_editor_set_unit:
 * @self: a #HrBoardEditor
 * @unit: the unit the summary shows sizes in
 */
void
hr_board_editor_set_unit (HrBoardEditor *self,
                          HrUnit         unit)
{
  g_return_if_fail (HR_IS_BOARD_EDITOR (self));

  self->unit = unit;
  hr_measurements_row_set_unit (self->measurements_row, unit);
  if (self->scenario != NULL)
    update_summary (self);
}

/**
 * hr_board_editor_get_measurements_row:
 * @self: a #HrBoardEditor
 *
 * Returns: (transfer none): the list of the board's measurements
 */
HrMeasurementsRow *
hr_board_editor_get_measurements_row (HrBoardEditor *self)
{
  g_return_val_if_fail (HR_IS_BOARD_EDITOR (self), NULL);

  return self->measurements_row;
}

/** hr_board_editor_get_board_row: @self: the editor. Returns: (transfer none): the board selector */
AdwComboRow *
hr_board_editor_get_board_row (HrBoardEditor *self)
{
  g_return_val_if_fail (HR_IS_BOARD_EDITOR (self), NULL);

  return self->board_row;
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_board_editor_dispose (GObject *object)
{
  HrBoardEditor *self = (HrBoardEditor *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_BOARD_EDITOR);
  g_clear_object (&self->scenario);
  g_clear_object (&self->session);
  g_clear_object (&self->board_names);

  G_OBJECT_CLASS (hr_board_editor_parent_class)->dispose (object);
}

static void
hr_board_editor_finalize (GObject *object)
{
  HrBoardEditor *self = (HrBoardEditor *)object;

  g_clear_pointer (&self->shown, hr_board_free);

  G_OBJECT_CLASS (hr_board_editor_parent_class)->finalize (object);
}

static void
hr_board_editor_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HrBoardEditor *self = HR_BOARD_EDITOR (object);

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
hr_board_editor_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  HrBoardEditor *self = HR_BOARD_EDITOR (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      /* The page's template binds it before the page has a scenario. */
      if (g_value_get_object (value) != NULL)
        hr_board_editor_set_scenario (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_board_editor_class_init (HrBoardEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_board_editor_dispose;
  object_class->finalize = hr_board_editor_finalize;
  object_class->get_property = hr_board_editor_get_property;
  object_class->set_property = hr_board_editor_set_property;

  /**
   * HrBoardEditor:scenario:
   *
   * The scenario whose board the editor selects and edits. Set once; the Models page's template binds it to the page's.
   */
  properties[PROP_SCENARIO] =
    g_param_spec_object ("scenario", NULL, NULL, HR_TYPE_SCENARIO,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/models/hr-board-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, board_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, editor_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, pool_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, resident_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, reserve_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, bandwidth_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, reply_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, stage_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, prefill_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, backend_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, host_pool_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, host_bandwidth_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, host_resident_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, host_reserve_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, host_pool_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, host_bandwidth_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, host_resident_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, host_reserve_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, save_button);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, revert_button);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, board_summary);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, measurements_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardEditor, device_list);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked);
  gtk_widget_class_install_action (widget_class, "board.detect", NULL, on_detect_action);
  gtk_widget_class_install_action (widget_class, "board.import", NULL, on_import_action);
  gtk_widget_class_bind_template_callback (widget_class, on_revert_clicked);
}

static void
hr_board_editor_init (HrBoardEditor *self)
{
  GtkSpinButton *spins[N_SPINS];
  g_autoptr(GtkListItemFactory) names = hr_gui_name_factory (20);
  g_autoptr(GtkListItemFactory) list_names = hr_gui_name_factory (0);

  g_type_ensure (HR_TYPE_MEASUREMENTS_ROW);
  g_type_ensure (HR_TYPE_DEVICE_LIST);
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->device_list, "devices-changed", G_CALLBACK (on_devices_changed), self);

  self->board_names = gtk_string_list_new (NULL);
  adw_combo_row_set_model (self->board_row, G_LIST_MODEL (self->board_names));
  /* Boards whose names share their start stay apart. */
  adw_combo_row_set_factory (self->board_row, names);
  adw_combo_row_set_list_factory (self->board_row, list_names);
  editor_spins (self, spins);
  for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
    {
      g_signal_connect (spins[i], "value-changed", G_CALLBACK (on_editor_changed), self);
      hr_gui_label_spin_by_row (spins[i]);
    }
  g_signal_connect (self->backend_row, "notify::selected", G_CALLBACK (on_backend_selected), self);
  /* Laid out when Edit Board is first opened, not at start-up. */
  hr_gui_expander_row_defer_rows (self->editor_row, GTK_WIDGET (self->backend_row));
  /* No subtitle here reaches sixteen lines, even in German beside two buttons. */
  hr_gui_rows_bound_subtitles (GTK_WIDGET (self), 16);
}

/**
 * hr_board_editor_new:
 *
 * Returns: (transfer floating): a new editor; hr_board_editor_set_scenario()
 *   gives it its boards
 */
GtkWidget *
hr_board_editor_new (void)
{
  return g_object_new (HR_TYPE_BOARD_EDITOR, NULL);
}
