/* hr-measurements-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "hr-gui-format.h"
#include "hr-gui-widget-util.h"
#include "hr-measurements-row.h"
#include "hr-session-items.h"

struct _HrMeasurementsRow
{
  AdwExpanderRow   parent_instance;

  HrScenario      *scenario;
  HrSession       *session;
  HrUnit           unit;
  GPtrArray       *rows;         /* GtkWidget*, added to the expander */
  GPtrArray       *ids;          /* char*, one per row */
  GPtrArray       *texts;        /* char*, "title — subtitle" per row */
  HrMeasurement   *deleted;      /* the last one deleted, for undo */
  AdwToast        *toast;        /* its toast, while shown (weak) */
  char            *toast_title;
  char            *board_id;     /* the board the rows were built for */
  GtkCustomFilter *board_filter; /* the session's measurement list: this board's, from files */
  GListModel      *records;      /* that list filtered, newest first (HrMeasurementItem) */
};

G_DEFINE_FINAL_TYPE (HrMeasurementsRow, hr_measurements_row, ADW_TYPE_EXPANDER_ROW)

/**
 * hr_measurements_format_date:
 * @iso8601: (nullable): a record's date: "2026-12-01T10:15:00Z" or
 *   "2026-07-19"
 *
 * Returns: (transfer full): the date (and time, in local time) in the
 *   locale's format ("%x %X"; "%x" for a date alone), the text itself when
 *   it is neither, "unknown date" for %NULL
 */
char *
hr_measurements_format_date (const char *iso8601)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) when = NULL;
  int y, m, d;
  char end;

  if (iso8601 == NULL)
    return g_strdup (_("unknown date"));
  when = g_date_time_new_from_iso8601 (iso8601, utc);
  if (when != NULL)
    {
      g_autoptr(GDateTime) local = g_date_time_to_local (when);
      return g_date_time_format (local, "%x %X");
    }
  if (sscanf (iso8601, "%4d-%2d-%2d%c", &y, &m, &d, &end) == 3)
    {
      g_autoptr(GDateTime) day = g_date_time_new_local (y, m, d, 0, 0, 0);

      if (day != NULL)
        return g_date_time_format (day, "%x");
    }
  return g_strdup (iso8601);
}

/* "2,048 tokens: 2.35 GB · 4,096 tokens: 2.59 GB" */
static char *
format_sizes (HrMeasurementsRow   *self,
              const HrMeasurement *m)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < m->sizes->len; i++)
    {
      const HrMeasuredSize *s = &g_array_index (m->sizes, HrMeasuredSize, i);
      g_autofree char *context = hr_gui_format_count (s->context_tokens);
      g_autofree char *size = hr_gui_format_decimal (self->unit == HR_UNIT_GIB ? hr_bytes_to_gib (s->reported_bytes)
                                                                               : hr_bytes_to_gb (s->reported_bytes), 2);

      if (i > 0)
        g_string_append (text, " · ");
      /* Translators: a context size in tokens, the loaded size, its unit */
      g_string_append_printf (text, _("%1$s tokens: %2$s %3$s"), context, size, hr_gui_unit_label (self->unit));
    }
  return g_string_free (text, FALSE);
}

/* The records the row lists: the board's, read from a file (the built-in
 * archive's too), newest first. */
static gboolean
on_this_board (gpointer item,
               gpointer user_data)
{
  HrMeasurementsRow *self = user_data;
  const HrMeasurement *m = hr_measurement_item_get_measurement (item);

  return g_strcmp0 (m->board, self->board_id) == 0 && m->path != NULL;
}

static int
newest_first (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const HrMeasurement *ma = hr_measurement_item_get_measurement ((HrMeasurementItem *) a);
  const HrMeasurement *mb = hr_measurement_item_get_measurement ((HrMeasurementItem *) b);

  return -g_strcmp0 (ma->date, mb->date);
}

static GtkWidget *
build_row (HrMeasurementsRow   *self,
           const HrMeasurement *m,
           const char          *id)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *tps = hr_gui_format_decimal (m->decode_tps_mean, 1);
  g_autofree char *date = hr_measurements_format_date (m->date);
  g_autofree char *sizes = format_sizes (self, m);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *escaped_title = NULL;
  g_autofree char *escaped_subtitle = NULL;
  const char *server = m->runtime_version != NULL ? m->runtime_version : _("server version not recorded");

  /* Translators: a measurement: the model, its decode rate */
  title = g_strdup_printf (_("%1$s · %2$s t/s"), m->model, tps);
  if (*sizes != '\0')
    /* Translators: when, on which server version, the loaded sizes */
    subtitle = g_strdup_printf (_("%1$s · %2$s · %3$s"), date, server, sizes);
  else
    subtitle = g_strdup_printf (_("%1$s · %2$s"), date, server);
  escaped_title = g_markup_escape_text (title, -1);
  escaped_subtitle = g_markup_escape_text (subtitle, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped_title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped_subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 3);

  if (hr_session_is_measurement_deletable (self->session, m))
    {
      GtkWidget *button = gtk_button_new_from_icon_name ("user-trash-symbolic");
      g_autofree char *label = NULL;

      /* Translators: the delete button's accessible name: the model and the date */
      label = g_strdup_printf (_("Delete the measurement of %1$s from %2$s"), m->model, date);
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_tooltip_text (button, _("Delete This Measurement"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "measurements.delete");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", id);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
    }
  else
    {
      GtkWidget *builtin = gtk_label_new (_("Built-in"));

      gtk_widget_add_css_class (builtin, "dim-label");
      gtk_widget_set_tooltip_text (builtin, _("Part of Headroom's data: it cannot be deleted"));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), builtin);
    }
  g_ptr_array_add (self->texts, g_strdup_printf ("%s — %s", title, subtitle));
  return row;
}

static void
rebuild (HrMeasurementsRow *self)
{
  guint n = self->records != NULL ? g_list_model_get_n_items (self->records) : 0;
  g_autofree char *subtitle = NULL;

  for (guint i = 0; i < self->rows->len; i++)
    adw_expander_row_remove (ADW_EXPANDER_ROW (self), g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);
  g_ptr_array_set_size (self->ids, 0);
  g_ptr_array_set_size (self->texts, 0);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrMeasurementItem) item = g_list_model_get_item (self->records, i);
      const HrMeasurement *m = hr_measurement_item_get_measurement (item);
      char *id = hr_measurement_dup_id (m);
      GtkWidget *row;

      g_ptr_array_add (self->ids, id);
      row = build_row (self, m, id);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (self), row);
      g_ptr_array_add (self->rows, row);
    }
  /* Laid out when the list is first opened, not at start-up. */
  if (self->rows->len > 0)
    hr_gui_expander_row_defer_rows (ADW_EXPANDER_ROW (self), g_ptr_array_index (self->rows, 0));

  if (n == 0)
    subtitle = g_strdup (_("None on this board yet: measure a model on the Board page"));
  else
    subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%u run set on this board; its rates come from the newest of each model",
                                             "%u run sets on this board; its rates come from the newest of each model",
                                             n),
                                n);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self), subtitle);
  adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (self), n > 0);
}

/* The board the scenario is on; NULL before it has one. */
static const char *
scenario_board_id (HrMeasurementsRow *self)
{
  const HrBoard *board = hr_scenario_get_board (self->scenario);

  return board != NULL ? board->id : hr_scenario_get_board_id (self->scenario);
}

static void
on_scenario_changed (HrMeasurementsRow *self)
{
  const char *id = scenario_board_id (self);

  /* The scenario changes for every slider: filter again only for another
   * board (the filtered list's items-changed rebuilds the rows). */
  if (g_strcmp0 (id, self->board_id) == 0)
    return;
  g_free (self->board_id);
  self->board_id = g_strdup (id);
  gtk_filter_changed (GTK_FILTER (self->board_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
on_records_changed (GListModel        *records,
                    guint              position,
                    guint              removed,
                    guint              added,
                    HrMeasurementsRow *self)
{
  rebuild (self);
}

/* ------------------------------------------------------------------ */
/* Deleting and undoing                                                */

static void
on_undo_clicked (AdwToast          *toast,
                 HrMeasurementsRow *self)
{
  hr_measurements_row_undo (self);
}

/* A toast in the window's overlay (full width, above everything), with
 * Undo when @undoable; "win.toast" without one. */
static void
show_text (HrMeasurementsRow *self,
           const char        *text,
           gboolean           undoable)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
  AdwToast *toast;

  g_free (self->toast_title);
  self->toast_title = g_strdup (text);
  if (self->toast != NULL)
    adw_toast_dismiss (self->toast);
  if (overlay == NULL)
    {
      if (!gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", text))
        g_message ("%s", text);
      return;
    }
  {
    g_autofree char *escaped = g_markup_escape_text (text, -1);

    toast = adw_toast_new (escaped);
  }
  adw_toast_set_timeout (toast, 10);
  if (undoable)
    {
      adw_toast_set_button_label (toast, _("_Undo"));
      g_signal_connect_object (toast, "button-clicked", G_CALLBACK (on_undo_clicked), self, 0);
    }
  g_set_weak_pointer (&self->toast, toast);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), toast);
}

/**
 * hr_measurements_row_delete:
 * @self: a #HrMeasurementsRow
 * @id: a shown record's id (hr_measurement_dup_id())
 *
 * Deletes the record (hr_session_delete_measurement()) and says so in a
 * toast with Undo; what went wrong, if anything, in a toast too.
 *
 * Returns: whether it was deleted
 */
gboolean
hr_measurements_row_delete (HrMeasurementsRow *self,
                            const char        *id)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *date = NULL;
  HrMeasurement *removed;

  g_return_val_if_fail (HR_IS_MEASUREMENTS_ROW (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  if (self->session == NULL)
    return FALSE;
  removed = hr_session_delete_measurement (self->session, id, &error);
  if (removed == NULL)
    {
      show_text (self, error->message, FALSE);
      return FALSE;
    }
  g_clear_pointer (&self->deleted, hr_measurement_free);
  self->deleted = removed;
  date = hr_measurements_format_date (removed->date);
  /* Translators: a toast: the model and the date of the deleted measurement */
  text = g_strdup_printf (_("Deleted the measurement of %1$s from %2$s"), removed->model, date);
  show_text (self, text, TRUE);
  return TRUE;
}

/**
 * hr_measurements_row_undo:
 * @self: a #HrMeasurementsRow
 *
 * Puts the record deleted last back (hr_session_restore_measurement()).
 *
 * Returns: whether one was put back
 */
gboolean
hr_measurements_row_undo (HrMeasurementsRow *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrMeasurement) deleted = NULL;

  g_return_val_if_fail (HR_IS_MEASUREMENTS_ROW (self), FALSE);

  if (self->deleted == NULL || self->session == NULL)
    return FALSE;
  deleted = g_steal_pointer (&self->deleted);
  if (!hr_session_restore_measurement (self->session, deleted, &error))
    {
      show_text (self, error->message, FALSE);
      return FALSE;
    }
  if (self->toast != NULL)
    adw_toast_dismiss (self->toast);
  return TRUE;
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  hr_measurements_row_delete (HR_MEASUREMENTS_ROW (widget), g_variant_get_string (parameter, NULL));
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_measurements_row_dispose (GObject *object)
{
  HrMeasurementsRow *self = HR_MEASUREMENTS_ROW (object);

  if (self->records != NULL)
    g_signal_handlers_disconnect_by_data (self->records, self);
  g_clear_object (&self->records);
  g_clear_object (&self->board_filter);
  g_clear_object (&self->scenario);
  g_clear_object (&self->session);
  g_clear_weak_pointer (&self->toast);

  G_OBJECT_CLASS (hr_measurements_row_parent_class)->dispose (object);
}

static void
hr_measurements_row_finalize (GObject *object)
{
  HrMeasurementsRow *self = HR_MEASUREMENTS_ROW (object);

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->ids, g_ptr_array_unref);
  g_clear_pointer (&self->texts, g_ptr_array_unref);
  g_clear_pointer (&self->deleted, hr_measurement_free);
  g_clear_pointer (&self->toast_title, g_free);
  g_clear_pointer (&self->board_id, g_free);

  G_OBJECT_CLASS (hr_measurements_row_parent_class)->finalize (object);
}

static void
hr_measurements_row_class_init (HrMeasurementsRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_measurements_row_dispose;
  object_class->finalize = hr_measurements_row_finalize;

  gtk_widget_class_install_action (widget_class, "measurements.delete", "s", delete_action);
}

static void
hr_measurements_row_init (HrMeasurementsRow *self)
{
  self->rows = g_ptr_array_new ();
  self->ids = g_ptr_array_new_with_free_func (g_free);
  self->texts = g_ptr_array_new_with_free_func (g_free);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("_Measurements"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (self), TRUE);
}

/**
 * hr_measurements_row_new:
 *
 * Returns: (transfer floating): a new row; hr_measurements_row_set_scenario()
 *   gives it its board and records
 */
GtkWidget *
hr_measurements_row_new (void)
{
  return g_object_new (HR_TYPE_MEASUREMENTS_ROW, NULL);
}

/**
 * hr_measurements_row_set_scenario:
 * @self: a #HrMeasurementsRow
 * @scenario: the scenario whose board's records are listed; set once
 *
 * Lists the session's measurement list (hr_session_get_measurement_list())
 * filtered to the scenario's board, newest first, and follows both.
 */
void
hr_measurements_row_set_scenario (HrMeasurementsRow *self,
                                  HrScenario        *scenario)
{
  g_return_if_fail (HR_IS_MEASUREMENTS_ROW (self));
  g_return_if_fail (HR_IS_SCENARIO (scenario));
  g_return_if_fail (self->scenario == NULL);

  self->scenario = g_object_ref (scenario);
  self->session = g_object_ref (hr_scenario_get_session (scenario));
  self->board_id = g_strdup (scenario_board_id (self));
  {
    GListModel *all = hr_session_get_measurement_list (self->session);
    GtkFilterListModel *filtered;

    self->board_filter = gtk_custom_filter_new (on_this_board, self, NULL);
    filtered = gtk_filter_list_model_new (g_object_ref (all), GTK_FILTER (g_object_ref (self->board_filter)));
    self->records = G_LIST_MODEL (gtk_sort_list_model_new (G_LIST_MODEL (filtered),
                                                           GTK_SORTER (gtk_custom_sorter_new (newest_first, NULL, NULL))));
  }
  g_signal_connect (self->records, "items-changed", G_CALLBACK (on_records_changed), self);
  g_signal_connect_object (scenario, "changed", G_CALLBACK (on_scenario_changed), self, G_CONNECT_SWAPPED);
  rebuild (self);
}

/**
 * hr_measurements_row_set_unit:
 * @self: a #HrMeasurementsRow
 * @unit: the unit the sizes are shown in
 */
void
hr_measurements_row_set_unit (HrMeasurementsRow *self,
                              HrUnit             unit)
{
  g_return_if_fail (HR_IS_MEASUREMENTS_ROW (self));

  if (self->unit == unit)
    return;
  self->unit = unit;
  if (self->scenario != NULL)
    rebuild (self);
}

/**
 * hr_measurements_row_get_ids:
 * @self: a #HrMeasurementsRow
 *
 * Returns: (transfer none) (element-type utf8): the ids of the records
 *   shown, in order (newest first)
 */
GPtrArray *
hr_measurements_row_get_ids (HrMeasurementsRow *self)
{
  g_return_val_if_fail (HR_IS_MEASUREMENTS_ROW (self), NULL);

  return self->ids;
}

/**
 * hr_measurements_row_get_texts:
 * @self: a #HrMeasurementsRow
 *
 * Returns: (transfer none) (element-type utf8): each row as shown, title
 *   and subtitle joined by " — "
 */
GPtrArray *
hr_measurements_row_get_texts (HrMeasurementsRow *self)
{
  g_return_val_if_fail (HR_IS_MEASUREMENTS_ROW (self), NULL);

  return self->texts;
}

/**
 * hr_measurements_row_get_toast:
 * @self: a #HrMeasurementsRow
 *
 * Returns: (transfer none) (nullable): the toast shown last, while it is
 *   shown
 */
AdwToast *
hr_measurements_row_get_toast (HrMeasurementsRow *self)
{
  g_return_val_if_fail (HR_IS_MEASUREMENTS_ROW (self), NULL);

  return self->toast;
}

/**
 * hr_measurements_row_get_toast_title:
 * @self: a #HrMeasurementsRow
 *
 * Returns: (transfer none) (nullable): what the last toast said
 */
const char *
hr_measurements_row_get_toast_title (HrMeasurementsRow *self)
{
  g_return_val_if_fail (HR_IS_MEASUREMENTS_ROW (self), NULL);

  return self->toast_title;
}
