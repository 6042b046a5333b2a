/* hr-measure-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>

#include "hr-board-chooser.h"
#include "hr-catalog.h"
#include "hr-gui-format.h"
#include "hr-measure-window.h"
#include "hr-ollama-host.h"
#include "hr-units.h"

enum {
  COLUMN_CONTEXT,
  COLUMN_RUN,
  COLUMN_COLD,
  COLUMN_TTFT,
  COLUMN_TOTAL,
  COLUMN_LOAD,
  COLUMN_PREFILL,
  COLUMN_DECODE,
  N_COLUMNS
};

enum {
  SIGNAL_SAVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

struct _HrMeasureWindow
{
  AdwWindow        parent_instance;

  /* template */
  AdwWindowTitle  *window_title;
  AdwActionRow    *board_row;
  AdwEntryRow     *contexts_row;
  GtkSpinButton   *runs_spin;
  GtkLabel        *status_label;
  GtkGrid         *results_grid;
  HrRunChart      *chart;
  GtkListBox      *ps_list;

  HrOllamaClient  *client;
  HrSession       *session;   /* nullable: the board's name and changing it */
  char            *model;
  char            *board_id;
  char            *board_text;
  char            *archive_dir;
  HrMeasureRun    *run;
  GCancellable    *cancellable;
  GPtrArray       *rows;      /* one tab-separated line per table row */
  GPtrArray       *ps_rows;   /* one line per /api/ps row */
  char            *status;
  gboolean         disposed;
};

G_DEFINE_FINAL_TYPE (HrMeasureWindow, hr_measure_window, ADW_TYPE_WINDOW)

/* ------------------------------------------------------------------ */
/* The table                                                           */

static void
set_status (HrMeasureWindow *self,
            const char      *text,
            const char      *css_class)
{
  g_free (self->status);
  self->status = g_strdup (text);
  gtk_label_set_text (self->status_label, text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "success");
  if (css_class != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), css_class);
}

static void
add_cell (HrMeasureWindow *self,
          int              column,
          int              row,
          const char      *text,
          gboolean         header)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column <= COLUMN_COLD ? 0.0f : 1.0f);
  gtk_widget_add_css_class (label, header ? "heading" : "numeric");
  gtk_grid_attach (self->results_grid, label, column, row, 1, 1);
}

static void
reset_table (HrMeasureWindow *self)
{
  const char *titles[N_COLUMNS] = {
    _("Context"), _("Run"), _("Cold"), _("TTFT (ms)"), _("Total (ms)"),
    _("Load (ms)"), _("Prefill (t/s)"), _("Decode (t/s)"),
  };
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->results_grid))) != NULL)
    gtk_grid_remove (self->results_grid, child);
  for (int c = 0; c < N_COLUMNS; c++)
    add_cell (self, c, 0, titles[c], TRUE);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->ps_list))) != NULL)
    gtk_list_box_remove (self->ps_list, child);
  g_ptr_array_set_size (self->rows, 0);
  g_ptr_array_set_size (self->ps_rows, 0);
  hr_run_chart_clear (self->chart);
}

static char *
format_client_ms (double ms)
{
  if (ms < 0)
    return g_strdup (_("n/a"));
  return hr_gui_format_ollama_ms ((gint64) llround (ms * 1e6));
}

static void
on_run_done (HrMeasureRun          *run,
             const HrMeasureResult *result,
             HrMeasureWindow       *self)
{
  char *cells[N_COLUMNS + 1] = { NULL };
  int row = (int) self->rows->len + 1;
  g_autofree char *label = NULL;

  cells[COLUMN_CONTEXT] = hr_gui_format_count (result->context);
  cells[COLUMN_RUN] = g_strdup_printf ("%u", result->run);
  cells[COLUMN_COLD] = g_strdup (result->cold ? _("cold") : _("warm"));
  cells[COLUMN_TTFT] = format_client_ms (result->ttft_ms);
  cells[COLUMN_TOTAL] = format_client_ms (result->client_total_ms);
  cells[COLUMN_LOAD] = hr_gui_format_ollama_ms (result->load_duration);
  cells[COLUMN_PREFILL] = hr_gui_format_ollama_tps (result->prefill_tps);
  cells[COLUMN_DECODE] = hr_gui_format_ollama_tps (result->decode_tps);

  for (int c = 0; c < N_COLUMNS; c++)
    add_cell (self, c, row, cells[c], FALSE);
  g_ptr_array_add (self->rows, g_strjoinv ("\t", cells));

  label = g_strdup_printf ("%u #%u", result->context, result->run);
  hr_run_chart_add_run (self->chart, label, result->cold, result->ttft_ms, result->decode_tps);

  for (int c = 0; c < N_COLUMNS; c++)
    g_free (cells[c]);
}

static char *
describe_ps (const HrMeasurePs *ps)
{
  g_autofree char *size = NULL;
  g_autofree char *vram = NULL;
  g_autofree char *processor = NULL;
  g_autofree char *loaded = NULL;
  g_autofree char *predicted = NULL;
  g_autofree char *difference = NULL;

  if (!ps->listed)
    return g_strdup (_("The model was not in /api/ps after the runs, so there is no loaded size to compare."));

  /* Both sizes to two decimals, and the difference of the two figures as
   * shown (in hundredths of a GB), so that "2.35 GB" against "2.41 GB"
   * reads "−0.06 GB" and never a sum that does not add up. */
  size = hr_gui_format_size_fixed (ps->size, HR_UNIT_GB);
  vram = hr_gui_format_size_fixed (ps->size_vram, HR_UNIT_GB);
  processor = hr_ollama_format_processor (ps->size, ps->size_vram);
  /* Translators: what /api/ps reported: size, the part on the GPU, the CPU/GPU split */
  loaded = g_strdup_printf (_("Loaded %1$s, %2$s on the GPU (%3$s)"), size, vram, processor);
  if (ps->predicted == 0)
    return g_strdup_printf (_("%s; Headroom has no prediction for this model."), loaded);

  predicted = hr_gui_format_decimal (hr_bytes_to_gb (ps->predicted), 2);
  {
    gint64 shown = (gint64) llround (hr_bytes_to_gb (ps->size) * 100.0)
                   - (gint64) llround (hr_bytes_to_gb (ps->predicted) * 100.0);
    g_autofree char *gb = hr_gui_format_decimal (llabs (shown) / 100.0, 2);
    g_autofree char *percent = hr_gui_format_decimal (fabs (ps->difference_percent), 1);
    const char *sign = shown < 0 ? "−" : shown > 0 ? "+" : "";
    const char *percent_sign = ps->difference < 0 ? "−" : "+";

    /* Translators: the loaded size against the prediction: sign, GB, sign, percent */
    difference = g_strdup_printf (_("difference %1$s%2$s GB (%3$s%4$s%%)"), sign, gb, percent_sign, percent);
  }
  /* Translators: loaded size, predicted GB, how it was predicted, the difference */
  return g_strdup_printf (_("%1$s; predicted %2$s GB (%3$s); %4$s"),
                          loaded, predicted,
                          ps->prediction_source ? ps->prediction_source : _("unknown method"),
                          difference);
}

static void
on_ps_done (HrMeasureRun      *run,
            const HrMeasurePs *ps,
            HrMeasureWindow   *self)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *context = hr_gui_format_count (ps->context);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = describe_ps (ps);
  g_autofree char *escaped = g_markup_escape_text (subtitle, -1);

  /* Translators: a row title: num_ctx the model was measured at */
  title = g_strdup_printf (_("num_ctx %s"), context);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 3);
  gtk_list_box_append (self->ps_list, row);
  g_ptr_array_add (self->ps_rows, g_strdup_printf ("%s: %s", title, subtitle));
}

static void
on_status (HrMeasureRun    *run,
           const char      *text,
           HrMeasureWindow *self)
{
  set_status (self, text, NULL);
}

/* ------------------------------------------------------------------ */
/* The board                                                           */

/* The board's name when the session knows it, else its id. */
static const char *
board_name (HrMeasureWindow *self)
{
  const HrBoard *board = self->session != NULL ? hr_session_find_board (self->session, self->board_id) : NULL;

  return board != NULL && board->name != NULL ? board->name : self->board_id;
}

static void
update_board_row (HrMeasureWindow *self)
{
  g_autofree char *escaped = NULL;

  g_free (self->board_text);
  /* Translators: above the Start button: the board a measurement is filed under */
  self->board_text = g_strdup_printf (_("Saves to board: %s"), board_name (self));
  escaped = g_markup_escape_text (self->board_text, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->board_row), escaped);
}

static void
on_board_chosen (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(HrMeasureWindow) self = user_data;
  g_autofree char *id = hr_board_chooser_ask_finish (result, NULL);

  if (id == NULL || self->disposed || self->session == NULL)
    return;
  hr_measure_window_set_board_id (self, id);
  /* The server belongs to the board chosen for it from now on. */
  hr_session_remember_server (self->session, hr_ollama_client_get_base_url (self->client), id);
}

static void
change_board_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  HrMeasureWindow *self = HR_MEASURE_WINDOW (widget);

  if (self->session == NULL || self->cancellable != NULL)
    return;
  hr_board_chooser_ask (widget, self->session, hr_ollama_client_get_base_url (self->client),
                        self->board_id, NULL, on_board_chosen, g_object_ref (self));
}

/* ------------------------------------------------------------------ */
/* Running                                                             */

static void
update_actions (HrMeasureWindow *self)
{
  gboolean running = self->cancellable != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "measure.start", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "measure.cancel", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "measure.change-board", !running && self->session != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->contexts_row), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->runs_spin), !running);
}

static void
on_finished (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(HrMeasureWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = hr_measure_run_finish (HR_MEASURE_RUN (source), result, &error);
  g_autofree char *text = NULL;

  if (self->disposed)
    return;
  g_clear_object (&self->cancellable);
  update_actions (self);

  if (ok)
    {
      g_autofree char *mean = hr_gui_format_ollama_tps (hr_measure_run_get_decode_mean (self->run));
      const char *path = hr_measure_run_get_saved_path (self->run);

      if (path != NULL)
        /* Translators: the mean decode rate, the file the measurement was saved to, the board's name */
        text = g_strdup_printf (_("Done: decode %1$s t/s on average over the warm runs. Saved to %2$s as a measurement of %3$s."),
                                mean, path, board_name (self));
      else
        text = g_strdup_printf (_("Done: decode %s t/s on average over the warm runs."), mean);
      set_status (self, text, "success");
      if (path != NULL)
        g_signal_emit (self, signals[SIGNAL_SAVED], 0);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      set_status (self, _("Cancelled. The board was left as it was found, and nothing was saved."), NULL);
    }
  else if (hr_measure_run_get_saved_path (self->run) != NULL)
    {
      /* Cut short after some runs: the message says which were kept and where. */
      text = g_strdup_printf (_("The measurement stopped: %s."), error->message);
      set_status (self, text, "error");
      g_signal_emit (self, signals[SIGNAL_SAVED], 0);
    }
  else
    {
      text = g_strdup_printf (_("The measurement stopped: %s. Nothing was saved, and the board was left as it was found."),
                              error->message);
      set_status (self, text, "error");
    }
}

static gboolean
parse_contexts (const char  *text,
                GArray      *out,
                GError     **error)
{
  g_auto(GStrv) parts = g_strsplit_set (text, ", ;", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 value;

      if (*parts[i] == '\0')
        continue;
      if (!g_ascii_string_to_unsigned (parts[i], 10, 1, G_MAXINT32, &value, NULL))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("“%s” is not a context size in tokens: give whole numbers such as 2048, 4096"),
                       parts[i]);
          return FALSE;
        }
      guint32 context = (guint32) value;

      g_array_append_val (out, context);
    }
  if (out->len == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Give at least one context size in tokens, such as 2048"));
      return FALSE;
    }
  return TRUE;
}

/**
 * hr_measure_window_start:
 * @self: a #HrMeasureWindow
 *
 * Starts the run set with the contexts and runs the window shows. The
 * table, chart and /api/ps rows fill as it goes.
 *
 * Returns: %TRUE when it started; %FALSE when one is running already or
 *   the contexts are not numbers (the window then says why)
 */
gboolean
hr_measure_window_start (HrMeasureWindow *self)
{
  g_autoptr(GArray) contexts = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (HR_IS_MEASURE_WINDOW (self), FALSE);

  if (self->cancellable != NULL)
    return FALSE;
  if (!parse_contexts (gtk_editable_get_text (GTK_EDITABLE (self->contexts_row)), contexts, &error))
    {
      set_status (self, error->message, "error");
      return FALSE;
    }

  if (self->run != NULL)
    g_signal_handlers_disconnect_by_data (self->run, self);
  g_clear_object (&self->run);
  self->run = hr_measure_run_new (self->client, self->model, self->board_id);
  hr_measure_run_set_contexts (self->run, (const guint32 *) (gpointer) contexts->data, contexts->len);
  hr_measure_run_set_runs (self->run, (guint) gtk_spin_button_get_value_as_int (self->runs_spin));
  hr_measure_run_set_archive_dir (self->run, self->archive_dir);
  hr_measure_run_set_predictor (self->run, hr_measure_predict_runtime, NULL, NULL);
  g_signal_connect_object (self->run, "status", G_CALLBACK (on_status), self, 0);
  g_signal_connect_object (self->run, "run-done", G_CALLBACK (on_run_done), self, 0);
  g_signal_connect_object (self->run, "ps-done", G_CALLBACK (on_ps_done), self, 0);

  reset_table (self);
  self->cancellable = g_cancellable_new ();
  set_status (self, _("Starting…"), NULL);
  update_actions (self);
  hr_measure_run_start_async (self->run, self->cancellable, on_finished, g_object_ref (self));
  return TRUE;
}

/**
 * hr_measure_window_cancel:
 * @self: a #HrMeasureWindow
 *
 * Stops the run set at once; the board is restored (the model unloaded
 * again if it was not loaded before) before the window says it stopped.
 */
void
hr_measure_window_cancel (HrMeasureWindow *self)
{
  g_return_if_fail (HR_IS_MEASURE_WINDOW (self));

  if (self->cancellable == NULL)
    return;
  set_status (self, _("Cancelling: leaving the board as it was found…"), NULL);
  g_cancellable_cancel (self->cancellable);
}

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  hr_measure_window_start (HR_MEASURE_WINDOW (widget));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  hr_measure_window_cancel (HR_MEASURE_WINDOW (widget));
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_measure_window_dispose (GObject *object)
{
  HrMeasureWindow *self = (HrMeasureWindow *)object;

  self->disposed = TRUE;
  /* Closing the window stops the measurement; hr-measure still restores the board. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->run != NULL)
    g_signal_handlers_disconnect_by_data (self->run, self);
  g_clear_object (&self->run);
  g_clear_object (&self->client);
  g_clear_object (&self->session);

  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_MEASURE_WINDOW);

  G_OBJECT_CLASS (hr_measure_window_parent_class)->dispose (object);
}

static void
hr_measure_window_finalize (GObject *object)
{
  HrMeasureWindow *self = (HrMeasureWindow *)object;

  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->board_id, g_free);
  g_clear_pointer (&self->board_text, g_free);
  g_clear_pointer (&self->archive_dir, g_free);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->ps_rows, g_ptr_array_unref);
  g_clear_pointer (&self->status, g_free);

  G_OBJECT_CLASS (hr_measure_window_parent_class)->finalize (object);
}

static void
hr_measure_window_class_init (HrMeasureWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_measure_window_dispose;
  object_class->finalize = hr_measure_window_finalize;

  /**
   * HrMeasureWindow::saved:
   * @self: the window
   *
   * Emitted when a completed run set has been saved to the archive.
   */
  signals[SIGNAL_SAVED] =
    g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (HR_TYPE_RUN_CHART);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/board/hr-measure-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HrMeasureWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, HrMeasureWindow, board_row);
  gtk_widget_class_bind_template_child (widget_class, HrMeasureWindow, contexts_row);
  gtk_widget_class_bind_template_child (widget_class, HrMeasureWindow, runs_spin);
  gtk_widget_class_bind_template_child (widget_class, HrMeasureWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, HrMeasureWindow, results_grid);
  gtk_widget_class_bind_template_child (widget_class, HrMeasureWindow, chart);
  gtk_widget_class_bind_template_child (widget_class, HrMeasureWindow, ps_list);

  gtk_widget_class_install_action (widget_class, "measure.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "measure.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "measure.change-board", NULL, change_board_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
hr_measure_window_init (HrMeasureWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->rows = g_ptr_array_new_with_free_func (g_free);
  self->ps_rows = g_ptr_array_new_with_free_func (g_free);
  self->archive_dir = hr_data_measurements_dir ();
  reset_table (self);
  set_status (self, _("Choose the contexts and runs, then start. The model is unloaded first, so the first run of each context is cold."),
              NULL);
  update_actions (self);
}

/**
 * hr_measure_window_new:
 * @client: the board's client
 * @model: the model to measure, as Ollama names it
 * @board_id: the board the archive files the measurement under: the one
 *   the server belongs to (hr_session_get_server_board()), never merely the
 *   board the Models page shows
 *
 * Returns: (transfer full): a new window, not started and not shown; its
 *   archive is hr_data_measurements_dir(). It names the board above Start
 *   ("Saves to board: …"); hr_measure_window_set_session() gives it the
 *   board's name and a way to change it.
 */
HrMeasureWindow *
hr_measure_window_new (HrOllamaClient *client,
                       const char     *model,
                       const char     *board_id)
{
  HrMeasureWindow *self;
  g_autofree char *title = NULL;

  g_return_val_if_fail (HR_IS_OLLAMA_CLIENT (client), NULL);
  g_return_val_if_fail (model != NULL && board_id != NULL, NULL);

  self = g_object_new (HR_TYPE_MEASURE_WINDOW, NULL);
  self->client = g_object_ref (client);
  self->model = g_strdup (model);
  self->board_id = g_strdup (board_id);

  /* Translators: the measure window's title: the model */
  title = g_strdup_printf (_("Measure %s"), model);
  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_title (self->window_title, title);
  adw_window_title_set_subtitle (self->window_title, hr_ollama_client_get_base_url (client));
  update_board_row (self);
  return self;
}

/**
 * hr_measure_window_set_session:
 * @self: a #HrMeasureWindow
 * @session: (nullable): the session: the board is named as it names it,
 *   and "Change…" offers its boards and remembers the choice with the
 *   server (hr_session_remember_server())
 */
void
hr_measure_window_set_session (HrMeasureWindow *self,
                               HrSession       *session)
{
  g_return_if_fail (HR_IS_MEASURE_WINDOW (self));
  g_return_if_fail (session == NULL || HR_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;
  update_board_row (self);
  update_actions (self);
}

/**
 * hr_measure_window_get_board_id:
 * @self: a #HrMeasureWindow
 *
 * Returns: (transfer none): the id of the board the next run set is saved
 *   under
 */
const char *
hr_measure_window_get_board_id (HrMeasureWindow *self)
{
  g_return_val_if_fail (HR_IS_MEASURE_WINDOW (self), NULL);

  return self->board_id;
}

/**
 * hr_measure_window_set_board_id:
 * @self: a #HrMeasureWindow
 * @board_id: the board the next run set is saved under
 *
 * Changes the board (a run set under way keeps the board it started with).
 */
void
hr_measure_window_set_board_id (HrMeasureWindow *self,
                                const char      *board_id)
{
  g_return_if_fail (HR_IS_MEASURE_WINDOW (self));
  g_return_if_fail (board_id != NULL);

  g_free (self->board_id);
  self->board_id = g_strdup (board_id);
  update_board_row (self);
}

/**
 * hr_measure_window_get_board_text:
 * @self: a #HrMeasureWindow
 *
 * Returns: (transfer none): the line above Start that names the board,
 *   "Saves to board: Jetson Orin Nano Super"
 */
const char *
hr_measure_window_get_board_text (HrMeasureWindow *self)
{
  g_return_val_if_fail (HR_IS_MEASURE_WINDOW (self), NULL);

  return self->board_text;
}

/**
 * hr_measure_window_set_archive_dir:
 * @self: a #HrMeasureWindow
 * @directory: (nullable): where the run set is saved; %NULL saves nothing
 */
void
hr_measure_window_set_archive_dir (HrMeasureWindow *self,
                                   const char      *directory)
{
  g_return_if_fail (HR_IS_MEASURE_WINDOW (self));

  g_free (self->archive_dir);
  self->archive_dir = g_strdup (directory);
}

/**
 * hr_measure_window_is_running:
 * @self: a #HrMeasureWindow
 *
 * Returns: whether a run set is under way (a cancelled one counts until
 *   the board has been restored)
 */
gboolean
hr_measure_window_is_running (HrMeasureWindow *self)
{
  g_return_val_if_fail (HR_IS_MEASURE_WINDOW (self), FALSE);

  return self->cancellable != NULL;
}

/**
 * hr_measure_window_get_run:
 * @self: a #HrMeasureWindow
 *
 * Returns: (transfer none) (nullable): the last run set started
 */
HrMeasureRun *
hr_measure_window_get_run (HrMeasureWindow *self)
{
  g_return_val_if_fail (HR_IS_MEASURE_WINDOW (self), NULL);

  return self->run;
}

/**
 * hr_measure_window_get_chart:
 * @self: a #HrMeasureWindow
 *
 * Returns: (transfer none): the chart of TTFT and decode rate per run
 */
HrRunChart *
hr_measure_window_get_chart (HrMeasureWindow *self)
{
  g_return_val_if_fail (HR_IS_MEASURE_WINDOW (self), NULL);

  return self->chart;
}

/**
 * hr_measure_window_get_rows:
 * @self: a #HrMeasureWindow
 *
 * Returns: (transfer none) (element-type utf8): the table's rows as shown,
 *   cells separated by tabs: context, run, cold, TTFT ms, total ms, load ms,
 *   prefill t/s, decode t/s
 */
GPtrArray *
hr_measure_window_get_rows (HrMeasureWindow *self)
{
  g_return_val_if_fail (HR_IS_MEASURE_WINDOW (self), NULL);

  return self->rows;
}

/**
 * hr_measure_window_get_ps_rows:
 * @self: a #HrMeasureWindow
 *
 * Returns: (transfer none) (element-type utf8): per context, what /api/ps
 *   reported beside the prediction, as shown
 */
GPtrArray *
hr_measure_window_get_ps_rows (HrMeasureWindow *self)
{
  g_return_val_if_fail (HR_IS_MEASURE_WINDOW (self), NULL);

  return self->ps_rows;
}

/**
 * hr_measure_window_get_status:
 * @self: a #HrMeasureWindow
 *
 * Returns: (transfer none): what the window says it is doing, or how the
 *   run set ended
 */
const char *
hr_measure_window_get_status (HrMeasureWindow *self)
{
  g_return_val_if_fail (HR_IS_MEASURE_WINDOW (self), NULL);

  return self->status;
}
