/* hr-board-import.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-board-import.h"
#include "hr-error.h"
#include "hr-hardware.h"

struct _HrBoardImport
{
  AdwWindow          parent_instance;

  /* template */
  GtkButton         *save_button;
  GtkLabel          *intro_label;
  GtkWidget         *paste_box;
  GtkTextView       *text_view;
  GtkWidget         *busy_box;
  GtkSpinner        *spinner;
  GtkLabel          *status_label;
  GtkWidget         *read_group;
  GtkLabel          *read_label;
  GtkWidget         *confirm_group;
  GtkLabel          *confirm_label;
  AdwPreferencesGroup *board_group;
  AdwEntryRow       *name_row;
  GtkSpinButton     *host_bandwidth_spin;

  HrBoardImportMode  mode;
  HrScenario        *scenario;
  GCancellable      *cancellable;     /* the detection or the file read under way */
  HrHardwareReading *reading;         /* NULL until something was read */
  guint              n_confirm_read;  /* reading->confirm's lines from the tools alone */
  GPtrArray         *bandwidth_rows;  /* AdwActionRow*, one per GPU read */
  GPtrArray         *bandwidth_spins; /* GtkSpinButton*, in them */
  HrBoard           *board;           /* made from the reading and the inputs; NULL: none */
  char              *board_id;
  gboolean           complete;
  gboolean           busy;
  gboolean           filling;         /* setting the inputs: no rebuild per value */
};

G_DEFINE_FINAL_TYPE (HrBoardImport, hr_board_import, ADW_TYPE_WINDOW)

static void
set_status (HrBoardImport *self,
            const char    *text,
            gboolean       error)
{
  gtk_label_set_text (self->status_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
}

/* Nothing read (or what was read is dropped): no board, nothing to save. */
static void
forget_reading (HrBoardImport *self)
{
  g_clear_pointer (&self->reading, hr_hardware_reading_free);
  g_clear_pointer (&self->board, hr_board_free);
  self->complete = FALSE;
  for (guint i = 0; i < self->bandwidth_rows->len; i++)
    adw_preferences_group_remove (self->board_group, g_ptr_array_index (self->bandwidth_rows, i));
  g_ptr_array_set_size (self->bandwidth_rows, 0);
  g_ptr_array_set_size (self->bandwidth_spins, 0);
  gtk_widget_set_visible (self->read_group, FALSE);
  gtk_widget_set_visible (self->confirm_group, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->board_group), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), FALSE);
}

/* A failure: its message and what to do, and no half-made board. */
static void
show_error (HrBoardImport *self,
            const GError  *error)
{
  g_autofree char *text = NULL;

  forget_reading (self);
  if (self->mode == HR_BOARD_IMPORT_DETECT && g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_NOT_FOUND))
    /* Translators: why no board was made from this computer, then where to read it instead */
    text = g_strdup_printf (_("No board was made: %s. Run Headroom on the computer with the GPUs, or paste "
                              "its tools' output into Import from Text…"), error->message);
  else
    /* Translators: why no board was made from the tools' output */
    text = g_strdup_printf (_("No board was made: %s"), error->message);
  set_status (self, text, TRUE);
}

static char *
join_lines (GPtrArray  *lines,
            guint       from,
            const char *bullet)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = from; i < lines->len; i++)
    g_string_append_printf (text, "%s%s%s", text->len > 0 ? "\n" : "", bullet, (char *) g_ptr_array_index (lines, i));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The board from the reading and what the user gave; whether it is
 * complete (hr_board_validate()) decides whether it can be saved. */
static void
rebuild (HrBoardImport *self)
{
  g_autoptr(GArray) bandwidths = g_array_new (FALSE, TRUE, sizeof (double));
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) invalid = NULL;
  g_autofree char *confirm = NULL;
  g_autofree char *status = NULL;
  const char *name;

  if (self->reading == NULL || self->filling)
    return;
  for (guint i = 0; i < self->bandwidth_spins->len; i++)
    {
      double v = gtk_spin_button_get_value (g_ptr_array_index (self->bandwidth_spins, i));

      g_array_append_val (bandwidths, v);
    }
  name = gtk_editable_get_text (GTK_EDITABLE (self->name_row));
  /* hr_hardware_make_board() adds what is still to confirm each time */
  g_ptr_array_set_size (self->reading->confirm, self->n_confirm_read);
  g_clear_pointer (&self->board, hr_board_free);
  self->board = hr_hardware_make_board (self->reading, self->board_id,
                                        name != NULL && name[0] != '\0' ? name : _("This computer"),
                                        hr_session_get_boards (hr_scenario_get_session (self->scenario)),
                                        (const double *) (gconstpointer) bandwidths->data, bandwidths->len,
                                        gtk_spin_button_get_value (self->host_bandwidth_spin), &error);
  if (self->board == NULL)
    {
      show_error (self, error);
      return;
    }
  confirm = join_lines (self->reading->confirm, 0, "• ");
  gtk_label_set_text (self->confirm_label, confirm);
  gtk_widget_set_visible (self->confirm_group, confirm[0] != '\0');
  self->complete = hr_board_validate (self->board, &invalid);
  if (self->complete)
    /* Translators: the board can be saved; %s is its id */
    status = g_strdup_printf (_("Complete: Save Board puts it into your boards file as “%s” and selects it."),
                              self->board_id);
  else
    /* Translators: what is missing before the board can be saved */
    status = g_strdup_printf (_("Not complete, so not saved yet: %s"), invalid->message);
  set_status (self, status, FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), self->complete);
}

static void
on_input_changed (HrBoardImport *self)
{
  rebuild (self);
}

/* An id no board of the session has: @base, else @base-2, -3, ... */
static char *
free_board_id (HrBoardImport *self,
               const char    *base)
{
  HrSession *session = hr_scenario_get_session (self->scenario);

  if (hr_session_find_board (session, base) == NULL)
    return g_strdup (base);
  for (guint n = 2; n < 1000; n++)
    {
      g_autofree char *id = g_strdup_printf ("%s-%u", base, n);

      if (hr_session_find_board (session, id) == NULL)
        return g_steal_pointer (&id);
    }
  return g_strdup (base);
}

/* What was read: its lines, one input per GPU for its bandwidth (filled
 * with what a built-in board of that name knows), then the board. */
static void
show_reading (HrBoardImport     *self,
              HrHardwareReading *reading)
{
  g_autofree char *read = NULL;
  g_autoptr(HrBoard) first = NULL;
  g_autoptr(GError) error = NULL;

  forget_reading (self);
  self->reading = reading;
  self->n_confirm_read = reading->confirm->len;
  first = hr_hardware_make_board (reading, self->board_id, _("This computer"),
                                  hr_session_get_boards (hr_scenario_get_session (self->scenario)),
                                  NULL, 0, 0.0, &error);
  g_ptr_array_set_size (reading->confirm, self->n_confirm_read);
  if (first == NULL)
    {
      show_error (self, error);
      return;
    }
  read = join_lines (reading->read, 0, "");
  gtk_label_set_text (self->read_label, read);
  gtk_widget_set_visible (self->read_group, TRUE);

  self->filling = TRUE;
  for (guint i = 0; i < first->devices->len; i++)
    {
      const HrDevice *d = g_ptr_array_index (first->devices, i);
      GtkAdjustment *adjustment = gtk_adjustment_new (d->bandwidth_bytes_per_s / 1e9, 0, 100000, 1, 10, 0);
      GtkWidget *spin = gtk_spin_button_new (adjustment, 1, 1);
      GtkWidget *row = adw_action_row_new ();
      /* Translators: a bandwidth input of the board being imported: GPU number (from 1, as read), its name */
      g_autofree char *title = g_strdup_printf (_("GPU %1$u %2$s bandwidth (GB/s)"), i + 1, d->name);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                   d->bandwidth_bytes_per_s > 0.0 ? _("From the built-in board of this GPU")
                                                                  : _("From the GPU's spec sheet: no tool prints it"));
      gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
      gtk_accessible_update_relation (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_RELATION_LABELLED_BY, row, NULL, -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
      g_signal_connect_swapped (spin, "value-changed", G_CALLBACK (on_input_changed), self);
      adw_preferences_group_add (self->board_group, row);
      g_ptr_array_add (self->bandwidth_rows, row);
      g_ptr_array_add (self->bandwidth_spins, spin);
    }
  if (gtk_editable_get_text (GTK_EDITABLE (self->name_row))[0] == '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->name_row), _("This computer"));
  self->filling = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->board_group), TRUE);
  rebuild (self);
}

static void
set_busy (HrBoardImport *self,
          gboolean       busy)
{
  self->busy = busy;
  gtk_widget_set_visible (self->busy_box, busy);
  gtk_spinner_set_spinning (self->spinner, busy);
}

static void
on_detected (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(HrBoardImport) self = user_data;
  g_autoptr(GError) error = NULL;
  HrHardwareReading *reading = hr_hardware_detect_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  set_busy (self, FALSE);
  if (reading == NULL)
    show_error (self, error);
  else
    show_reading (self, reading);
}

/**
 * hr_board_import_read_text:
 * @self: a #HrBoardImport
 * @text: the tools' output, as pasted (hr_hardware_parse_paste())
 *
 * Reads @text, as the Read button does: on success the board and what to
 * confirm show; on a line no parser reads, its message and no board.
 */
void
hr_board_import_read_text (HrBoardImport *self,
                           const char    *text)
{
  g_autoptr(HrHardwareReading) reading = hr_hardware_reading_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));

  if (stripped[0] == '\0')
    {
      forget_reading (self);
      set_status (self, _("Paste what the tools printed on the computer with the GPUs first, or open a file."), TRUE);
      return;
    }
  if (!hr_hardware_parse_paste (text, reading, &error))
    {
      show_error (self, error);
      return;
    }
  show_reading (self, g_steal_pointer (&reading));
}

static void
on_read_clicked (HrBoardImport *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  hr_board_import_read_text (self, text);
}

static void
on_file_loaded (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(HrBoardImport) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (G_FILE (source), result, &contents, &length, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error);
      return;
    }
  if (!g_utf8_validate (contents, (gssize) length, NULL))
    {
      g_autoptr(GError) text_error = g_error_new (HR_CORE_ERROR, HR_CORE_ERROR_PARSE,
                                                  _("the file is not text (not UTF-8)"));

      show_error (self, text_error);
      return;
    }
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), contents, (int) length);
  hr_board_import_read_text (self, contents);
}

static void
on_file_chosen (GtkNativeDialog *dialog,
                int              response,
                gpointer         user_data)
{
  g_autoptr(HrBoardImport) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      g_file_load_contents_async (file, self->cancellable, on_file_loaded, g_object_ref (self));
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
on_open_clicked (HrBoardImport *self)
{
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (_("Open the Tools' Output"), GTK_WINDOW (self),
                                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_file_chosen), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/**
 * hr_board_import_save:
 * @self: a #HrBoardImport with a complete board
 * @error: return location for a #GError
 *
 * Saves the board into the user's boards file (hr_session_save_board()),
 * selects it in the scenario and closes the window, as Save Board does.
 *
 * Returns: %TRUE when saved; %FALSE with %HR_CORE_ERROR_INVALID_DATA when
 *   the board is not complete (nothing is written), or the session's error
 */
gboolean
hr_board_import_save (HrBoardImport  *self,
                      GError        **error)
{
  g_autofree char *id = NULL;

  g_return_val_if_fail (HR_IS_BOARD_IMPORT (self), FALSE);

  if (self->board == NULL || !self->complete)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA, _("the board is not complete, so it is not saved"));
      return FALSE;
    }
  if (!hr_session_save_board (hr_scenario_get_session (self->scenario), self->board, error))
    return FALSE;
  id = g_strdup (self->board->id);
  hr_scenario_set_board_id (self->scenario, id);
  gtk_window_close (GTK_WINDOW (self));
  return TRUE;
}

static void
on_save_clicked (HrBoardImport *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = self->board != NULL ? g_strdup (self->board->name) : NULL;
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  if (!hr_board_import_save (self, &error))
    {
      show_error (self, error);
      return;
    }
  if (parent != NULL)
    {
      /* Translators: a toast after a board was read and saved */
      g_autofree char *message = g_strdup_printf (_("Saved “%s” and selected it"), name);

      gtk_widget_activate_action (GTK_WIDGET (parent), "win.toast", "s", message);
    }
}

static void
hr_board_import_dispose (GObject *object)
{
  HrBoardImport *self = HR_BOARD_IMPORT (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->scenario);
  gtk_widget_dispose_template (GTK_WIDGET (self), HR_TYPE_BOARD_IMPORT);

  G_OBJECT_CLASS (hr_board_import_parent_class)->dispose (object);
}

static void
hr_board_import_finalize (GObject *object)
{
  HrBoardImport *self = HR_BOARD_IMPORT (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->reading, hr_hardware_reading_free);
  g_clear_pointer (&self->board, hr_board_free);
  g_clear_pointer (&self->bandwidth_rows, g_ptr_array_unref);
  g_clear_pointer (&self->bandwidth_spins, g_ptr_array_unref);
  g_free (self->board_id);

  G_OBJECT_CLASS (hr_board_import_parent_class)->finalize (object);
}

static void
hr_board_import_class_init (HrBoardImportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_board_import_dispose;
  object_class->finalize = hr_board_import_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/models/hr-board-import.ui");
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, save_button);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, intro_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, paste_box);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, text_view);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, busy_box);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, spinner);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, status_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, read_group);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, read_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, confirm_group);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, confirm_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, board_group);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, name_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardImport, host_bandwidth_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_open_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_read_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_input_changed);
}

static void
hr_board_import_init (HrBoardImport *self)
{
  self->cancellable = g_cancellable_new ();
  self->bandwidth_rows = g_ptr_array_new ();
  self->bandwidth_spins = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * hr_board_import_new:
 * @parent: (nullable): the window it is over
 * @scenario: the scenario whose session saves the board and which selects it
 * @mode: %HR_BOARD_IMPORT_DETECT reads this computer at once (in a
 *   thread); %HR_BOARD_IMPORT_PASTE waits for the tools' output
 *
 * Returns: (transfer floating): a new #HrBoardImport window, not yet shown
 */
GtkWidget *
hr_board_import_new (GtkWindow         *parent,
                     HrScenario        *scenario,
                     HrBoardImportMode  mode)
{
  HrBoardImport *self;

  g_return_val_if_fail (HR_IS_SCENARIO (scenario), NULL);

  self = g_object_new (HR_TYPE_BOARD_IMPORT, "transient-for", parent, NULL);
  self->scenario = g_object_ref (scenario);
  self->mode = mode;
  self->board_id = free_board_id (self, mode == HR_BOARD_IMPORT_DETECT ? "this-computer" : "imported-board");
  if (mode == HR_BOARD_IMPORT_DETECT)
    {
      gtk_window_set_title (GTK_WINDOW (self), _("Detect This Computer"));
      gtk_label_set_text (self->intro_label,
                          _("Headroom asks nvidia-smi, rocm-smi, the DRM memory files, vulkaninfo and "
                            "/proc/meminfo what this computer has. Nothing is saved until you confirm it."));
      set_busy (self, TRUE);
      hr_hardware_detect_async (self->cancellable, on_detected, g_object_ref (self));
    }
  else
    {
      gtk_window_set_title (GTK_WINDOW (self), _("Import a Board from Text"));
      gtk_label_set_text (self->intro_label,
                          _("Paste what these commands printed on the computer with the GPUs (over ssh, say), "
                            "or open a file holding it:\n"
                            "nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv,noheader,nounits\n"
                            "rocm-smi --showproductname --showmeminfo vram\n"
                            "cat /proc/meminfo"));
      gtk_label_set_selectable (self->intro_label, TRUE);
      gtk_widget_set_visible (self->paste_box, TRUE);
    }
  return GTK_WIDGET (self);
}

/** hr_board_import_get_busy: @self: a window. Returns: whether the detection is still running */
gboolean
hr_board_import_get_busy (HrBoardImport *self)
{
  g_return_val_if_fail (HR_IS_BOARD_IMPORT (self), FALSE);
  return self->busy;
}

/** hr_board_import_get_status: @self: a window. Returns: (transfer none): the status line ("" when hidden) */
const char *
hr_board_import_get_status (HrBoardImport *self)
{
  g_return_val_if_fail (HR_IS_BOARD_IMPORT (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->status_label)) ? gtk_label_get_text (self->status_label) : "";
}

/** hr_board_import_get_read_text: @self: a window. Returns: (transfer none): what was read, one line each ("" when hidden) */
const char *
hr_board_import_get_read_text (HrBoardImport *self)
{
  g_return_val_if_fail (HR_IS_BOARD_IMPORT (self), NULL);
  return gtk_widget_get_visible (self->read_group) ? gtk_label_get_text (self->read_label) : "";
}

/** hr_board_import_get_confirm_text: @self: a window. Returns: (transfer none): what to confirm, "• " lines ("" when hidden) */
const char *
hr_board_import_get_confirm_text (HrBoardImport *self)
{
  g_return_val_if_fail (HR_IS_BOARD_IMPORT (self), NULL);
  return gtk_widget_get_visible (self->confirm_group) ? gtk_label_get_text (self->confirm_label) : "";
}

/** hr_board_import_get_board: @self: a window. Returns: (transfer none) (nullable): the board made so far */
const HrBoard *
hr_board_import_get_board (HrBoardImport *self)
{
  g_return_val_if_fail (HR_IS_BOARD_IMPORT (self), NULL);
  return self->board;
}

/** hr_board_import_get_complete: @self: a window. Returns: whether the board can be saved (Save Board is on) */
gboolean
hr_board_import_get_complete (HrBoardImport *self)
{
  g_return_val_if_fail (HR_IS_BOARD_IMPORT (self), FALSE);
  return self->complete && gtk_widget_get_sensitive (GTK_WIDGET (self->save_button));
}

/**
 * hr_board_import_get_bandwidth_spin:
 * @self: a window with a reading
 * @gpu: a GPU in the order read (0 first), or G_MAXUINT for host memory
 *
 * Returns: (transfer none) (nullable): its bandwidth input, GB/s
 */
GtkSpinButton *
hr_board_import_get_bandwidth_spin (HrBoardImport *self,
                                    guint          gpu)
{
  g_return_val_if_fail (HR_IS_BOARD_IMPORT (self), NULL);
  if (gpu == G_MAXUINT)
    return self->host_bandwidth_spin;
  return gpu < self->bandwidth_spins->len ? g_ptr_array_index (self->bandwidth_spins, gpu) : NULL;
}
