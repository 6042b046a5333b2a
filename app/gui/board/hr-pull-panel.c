/* hr-pull-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-evaluate.h"
#include "hr-board-format.h"
#include "hr-error.h"
#include "hr-gui-format.h"
#include "models/hr-library-lookup.h"
#include "hr-net-error.h"
#include "hr-ollama-host.h"
#include "hr-pull-panel-private.h"
#include "hr-window-private.h"
#include "hr-pull-progress.h"
#include "hr-units.h"

G_DEFINE_FINAL_TYPE (HrPullPanel, hr_pull_panel, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_SESSION,
  PROP_SCENARIO,
  PROP_PULLING,
  PROP_CAN_PULL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static gboolean
is_cancelled (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
toast (HrPullPanel *self,
       const char  *message)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message);
}

static void
set_label (GtkLabel   *label,
           const char *text)
{
  gtk_label_set_text (label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
}

static void
update_pulling (HrPullPanel *self)
{
  gboolean pulling = self->pull_cancellable != NULL;

  if (pulling == self->pulling)
    return;
  self->pulling = pulling;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PULLING]);
}

static void
cancel_pull (HrPullPanel *self)
{
  if (self->pull_cancellable != NULL)
    g_cancellable_cancel (self->pull_cancellable);
  g_clear_object (&self->pull_cancellable);
  update_pulling (self);
}

static void
cancel_lookup (HrPullPanel *self)
{
  if (self->lookup_cancellable != NULL)
    g_cancellable_cancel (self->lookup_cancellable);
  g_clear_object (&self->lookup_cancellable);
}

static void
set_pull_note (HrPullPanel *self,
               const char  *text,
               const char  *css_class)
{
  g_free (self->pull_note);
  self->pull_note = g_strdup (text);
  set_label (self->pull_note_label, text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->pull_note_label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->pull_note_label), "success");
  if (css_class != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->pull_note_label), css_class);
}

/* A call about one model: the panel (a reference) and the model's name. */
typedef struct {
  HrPullPanel *self;
  char        *model;
} Call;

static Call *
call_new (HrPullPanel *self,
          const char  *model)
{
  Call *call = g_new0 (Call, 1);

  call->self = g_object_ref (self);
  call->model = g_strdup (model);
  return call;
}

static void
call_free (Call *call)
{
  g_object_unref (call->self);
  g_free (call->model);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Call, call_free)

/* ------------------------------------------------------------------ */
/* Pulling                                                             */

static void
on_pull_progress (const HrPullProgress *progress,
                  gpointer              user_data)
{
  HrPullPanel *self = user_data;
  gint64 now = g_get_monotonic_time ();
  const HrPullLayer *layer = hr_pull_progress_current_layer (progress);
  double fraction = hr_pull_progress_fraction (progress);
  g_autofree char *status = hr_pull_progress_describe (progress, now);
  g_autofree char *percent = NULL;

  if (self->disposed)
    return;

  /* hr-pull-progress never moves the overall figure back; the bar
   * follows it and, should it ever, still does not jump back. */
  fraction = CLAMP (fraction, 0.0, 1.0);
  if (fraction < self->pull_fraction)
    fraction = self->pull_fraction;
  self->pull_fraction = fraction;
  gtk_progress_bar_set_fraction (self->pull_bar, fraction);
  /* Translators: the pull's overall progress in percent */
  percent = g_strdup_printf (_("%d%%"), (int) (fraction * 100));
  gtk_progress_bar_set_text (self->pull_bar, percent);
  gtk_label_set_text (self->pull_status_label, status);

  if (layer != NULL && !progress->success)
    {
      g_autofree char *digest = hr_ollama_digest_short (layer->digest);
      g_autofree char *done = hr_gui_format_ollama_size (layer->completed);
      g_autofree char *total = layer->total > 0 ? hr_gui_format_ollama_size (layer->total) : g_strdup (_("unknown size"));
      g_autofree char *text = NULL;

      if (layer->present)
        /* Translators: a layer of the model that the board already has */
        text = g_strdup_printf (_("Layer %s: already on the board (%s)"), digest, total);
      else
        /* Translators: the layer being downloaded: short digest, bytes done, its size */
        text = g_strdup_printf (_("Layer %1$s: %2$s of %3$s"), digest, done, total);
      gtk_label_set_text (self->pull_layer_label, text);
    }
  else
    {
      gtk_label_set_text (self->pull_layer_label, "");
    }
}

static void
on_pull_shown (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  HrPullPanel *self = call->self;
  const char *model = call->model;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = hr_ollama_client_show_finish (HR_OLLAMA_CLIENT (source), result, &error);
  g_autofree char *note = NULL;

  if (self->disposed || is_cancelled (error))
    return;
  if (show != NULL && add_to_catalog (self, show->spec, &error))
    {
      g_autofree char *added = hr_board_format_added (show->spec);

      note = g_strdup_printf (_("Pulled %s. %s."), model, added);
      set_pull_note (self, note, "success");
      /* A pull ends with what the calibration can learn from: load it
       * now, and /api/ps is told beside the prediction. */
      {
        GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

        if (HR_IS_WINDOW (root))
          {
            hr_window_show_toast (HR_WINDOW (root), "pulled", note, _("_Load Now"), "win.load-model",
                                  g_variant_new ("(ss)", hr_ollama_client_get_base_url (HR_OLLAMA_CLIENT (source)), model));
            hr_board_connection_end_action (self->connection);
            return;
          }
      }
    }
  else
    {
      note = g_strdup_printf (_("Pulled %s, but could not add it to the catalog: %s"), model, error->message);
      set_pull_note (self, note, "error");
    }
  toast (self, note);
  hr_board_connection_end_action (self->connection);
}

static void
on_pulled (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(HrPullPanel) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = hr_ollama_client_pull_finish (HR_OLLAMA_CLIENT (source), result, &error);
  g_autofree char *model = NULL;
  g_autofree char *note = NULL;

  if (self->disposed)
    return;
  model = g_strdup (self->pull_model);
  if (is_cancelled (error))
    {
      /* Cancelled by the person: not an error, but what happens next is worth saying. */
      if (self->pull_cancellable == NULL || g_cancellable_is_cancelled (self->pull_cancellable))
        {
          note = hr_pull_cancelled_message (model);
          set_pull_note (self, note, NULL);
          gtk_revealer_set_reveal_child (self->pull_revealer, FALSE);
          cancel_pull (self);
        }
      return;
    }
  g_clear_object (&self->pull_cancellable);
  update_pulling (self);
  gtk_revealer_set_reveal_child (self->pull_revealer, ok);
  if (!ok)
    {
      set_pull_note (self, error->message, "error");
      toast (self, error->message);
      return;
    }

  self->pull_fraction = 1.0;
  gtk_progress_bar_set_fraction (self->pull_bar, 1.0);
  gtk_progress_bar_set_text (self->pull_bar, _("100%"));
  gtk_label_set_text (self->pull_layer_label, "");
  note = g_strdup_printf (_("Pulled %s; reading its figures from /api/show…"), model);
  set_pull_note (self, note, NULL);
  hr_board_connection_refresh (self->connection);
  /* The catalog gets the exact figures of the file that is now on the board. */
  hr_ollama_client_show_async (HR_OLLAMA_CLIENT (source), model,
                               hr_board_connection_begin_action (self->connection),
                               on_pull_shown, call_new (self, model));
}

static void
start_pull (HrPullPanel *self,
            const char  *model)
{
  HrOllamaClient *client = self->connection != NULL ? hr_board_connection_get_client (self->connection) : NULL;

  if (client == NULL)
    return;
  cancel_pull (self);
  g_free (self->pull_model);
  self->pull_model = g_strdup (model);
  self->pull_cancellable = g_cancellable_new ();
  self->pull_fraction = 0.0;
  gtk_progress_bar_set_fraction (self->pull_bar, 0.0);
  gtk_progress_bar_set_text (self->pull_bar, _("0%"));
  gtk_label_set_text (self->pull_status_label, _("asking the registry for the manifest"));
  gtk_label_set_text (self->pull_layer_label, "");
  gtk_revealer_set_reveal_child (self->pull_revealer, TRUE);
  set_pull_note (self, NULL, NULL);
  hr_ollama_client_pull_async (client, model, on_pull_progress, self,
                               self->pull_cancellable, on_pulled, g_object_ref (self));
  update_pulling (self);
}

static void
on_pull_anyway (AdwMessageDialog *dialog,
                const char       *response,
                HrPullPanel      *self)
{
  const char *model = g_object_get_data (G_OBJECT (dialog), "hr-model");

  if (g_strcmp0 (response, "pull") != 0 || self->disposed)
    return;
  /* The check's reasons stay on the page; say that they were overridden. */
  if (self->check_text != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s\n%s", self->check_text, _("Pulled anyway, as you asked."));

      g_free (self->check_text);
      self->check_text = g_steal_pointer (&text);
      set_label (self->check_label, self->check_text);
    }
  start_pull (self, model);
}

static void
ask_pull_anyway (HrPullPanel *self,
                 const char  *model)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *heading = g_strdup_printf (_("Pull %s Anyway?"), model);
  GtkWidget *dialog;

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, self->check_text);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "pull", _("_Pull Anyway"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "pull", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "hr-model", g_strdup (model), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_pull_anyway), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Shows the check: @lead (what the figures came from) first, the verdict,
 * every reason and the numbers; when it passes the pull starts, when it
 * refuses a dialog offers "Pull Anyway". */
static void
show_check (HrPullPanel *self,
            const char  *model,
            GPtrArray   *reasons,
            const char  *numbers,
            const char  *lead)
{
  GString *text = g_string_new (NULL);

  if (lead != NULL)
    g_string_append_printf (text, "%s\n", lead);
  if (reasons->len == 0)
    g_string_append (text, _("The pull check passes."));
  else
    g_string_append (text, _("The pull check refuses this pull:"));
  for (guint i = 0; i < reasons->len; i++)
    g_string_append_printf (text, "\n• %s", (const char *) g_ptr_array_index (reasons, i));
  if (numbers != NULL)
    g_string_append_printf (text, "\n%s", numbers);
  g_free (self->check_text);
  self->check_text = g_string_free (text, FALSE);
  set_label (self->check_label, self->check_text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->check_label), "warning");
  gtk_widget_remove_css_class (GTK_WIDGET (self->check_label), "error");
  set_pull_note (self, NULL, NULL);

  if (reasons->len == 0)
    {
      start_pull (self, model);
      return;
    }
  gtk_widget_add_css_class (GTK_WIDGET (self->check_label), "warning");
  ask_pull_anyway (self, model);
}

static void
set_check_text (HrPullPanel *self,
                const char  *text,
                const char  *css_class)
{
  g_free (self->check_text);
  self->check_text = g_strdup (text);
  set_label (self->check_label, text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->check_label), "warning");
  gtk_widget_remove_css_class (GTK_WIDGET (self->check_label), "error");
  if (css_class != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->check_label), css_class);
}

/* The library's answer about a model the catalog lacks: the check with its
 * exact figures (as `headroom-cli ollama pull` does), or why not. */
static void
on_library_lookup (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  HrPullPanel *self = call->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaLibraryModel) found = hr_ollama_registry_lookup_finish (HR_OLLAMA_REGISTRY (source), result, &error);
  g_autoptr(HrModelSpec) spec = NULL;
  g_autoptr(GPtrArray) reasons = NULL;
  g_autofree char *numbers = NULL;
  g_autofree char *lead = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *read = NULL;

  if (self->disposed || is_cancelled (error))
    return;
  g_clear_object (&self->lookup_cancellable);
  if (found != NULL)
    spec = hr_library_lookup_spec (found, &error);
  if (spec == NULL && (g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND) ||
                       g_error_matches (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT)))
    {
      /* "qwen9:70b is not in the Ollama library", and nothing else. */
      set_check_text (self, error->message, "error");
      return;
    }
  if (spec == NULL)
    {
      /* Offline, or the library's answer could not be read: the check
       * cannot size it; a typed size can, or "Pull Anyway". */
      reasons = refuse (&numbers,
                        /* Translators: the first %s is the model, the second the lookup's error */
                        g_strdup_printf (_("\"%s\" is not in the catalog and could not be sized from the Ollama library: %s "
                                           "(give its download size in GB to check it anyway)"),
                                         call->model, error->message));
      show_check (self, call->model, reasons, NULL, NULL);
      return;
    }

  bytes = hr_gui_format_count (spec->file_bytes);
  read = hr_gui_format_count (found->bytes_read);
  /* Translators: the model typed, its manifest's digest, its model layer's exact bytes, the bytes read */
  lead = g_strdup_printf (_("%1$s is not in the catalog; it was sized from its manifest and GGUF header in the Ollama library "
                            "(manifest %2$s, model layer %3$s bytes, %4$s bytes read)."),
                          call->model, found->manifest_digest, bytes, read);
  reasons = check_pull (self, call->model, spec, &numbers);
  show_check (self, call->model, reasons, numbers, lead);
}

/* A model the catalog lacks, with no size typed: looked up first. */
static void
look_up (HrPullPanel *self,
         const char  *model)
{
  g_autofree char *text = NULL;

  cancel_lookup (self);
  self->lookup_cancellable = g_cancellable_new ();
  /* Translators: %s is a model name; said while the registry answers */
  text = g_strdup_printf (_("%s is not in the catalog: looking it up in the Ollama library…"), model);
  set_check_text (self, text, NULL);
  set_pull_note (self, NULL, NULL);
  hr_ollama_registry_lookup_async (hr_session_get_registry (self->session), model, self->lookup_cancellable,
                                   on_library_lookup, call_new (self, model));
}

/**
 * hr_pull_panel_pull:
 * @self: a #HrPullPanel
 *
 * Pulls the model whose name is typed, after the pull check: the check's
 * verdict, every reason and its figures are shown; when it passes the
 * pull starts, when it refuses a dialog offers "Pull Anyway". A model the
 * catalog lacks, with no download size typed, is first looked up in the
 * Ollama library (HrOllamaRegistry, as `headroom-cli ollama pull` does)
 * and checked with its exact figures, the check saying so; an unknown
 * model says "NAME is not in the Ollama library" only; a library that
 * cannot be reached or read refuses with its message (a typed size, or
 * "Pull Anyway"). Does nothing without a connection, while a pull or a
 * lookup is under way or without a name; a name that is not one is said
 * in the pull note.
 */
void
hr_pull_panel_pull (HrPullPanel *self)
{
  g_autofree char *model = NULL;
  g_autofree char *numbers = NULL;
  g_autoptr(GPtrArray) reasons = NULL;
  g_autoptr(GError) error = NULL;
  HrOllamaModelName parsed;

  g_return_if_fail (HR_IS_PULL_PANEL (self));

  model = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->pull_row))));
  if (self->connection == NULL || hr_board_connection_get_client (self->connection) == NULL ||
      self->pull_cancellable != NULL || self->lookup_cancellable != NULL || *model == '\0')
    return;
  if (!hr_ollama_model_name_parse (model, &parsed, &error))
    {
      set_pull_note (self, error->message, "error");
      return;
    }
  hr_ollama_model_name_clear (&parsed);

  if (find_spec (self, model) == NULL && gtk_spin_button_get_value (self->size_spin) <= 0.0 &&
      self->scenario != NULL && hr_scenario_get_board (self->scenario) != NULL)
    {
      look_up (self, model);
      return;
    }
  reasons = check_pull (self, model, NULL, &numbers);
  show_check (self, model, reasons, numbers, NULL);
}

/**
 * hr_pull_panel_cancel:
 * @self: a #HrPullPanel
 *
 * Stops the pull under way, if any; the pull note then says that pulling
 * again resumes from the partial files.
 */
void
hr_pull_panel_cancel (HrPullPanel *self)
{
  g_return_if_fail (HR_IS_PULL_PANEL (self));

  if (self->pull_cancellable != NULL)
    g_cancellable_cancel (self->pull_cancellable);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
on_name_changed (HrPullPanel *self)
{
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->pull_row));
  gboolean can_pull = name != NULL && *name != '\0';

  /* A lookup of the name before it stops, and what it said. */
  if (self->lookup_cancellable != NULL)
    {
      cancel_lookup (self);
      set_check_text (self, NULL, NULL);
    }
  if (can_pull == self->can_pull)
    return;
  self->can_pull = can_pull;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_PULL]);
}

static void
on_name_activated (HrPullPanel *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "board.pull", NULL);
}

/* A new server: the pull of the old one stops. */
static void
on_client_changed (HrPullPanel *self)
{
  cancel_pull (self);
}

static void
hr_pull_panel_dispose (GObject *object)
{
  HrPullPanel *self = HR_PULL_PANEL (object);

  self->disposed = TRUE;
  cancel_pull (self);
  cancel_lookup (self);
  g_clear_object (&self->connection);
  g_clear_object (&self->session);
  g_clear_object (&self->scenario);
  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_PULL_PANEL);

  G_OBJECT_CLASS (hr_pull_panel_parent_class)->dispose (object);
}

static void
hr_pull_panel_finalize (GObject *object)
{
  HrPullPanel *self = HR_PULL_PANEL (object);

  g_clear_pointer (&self->pull_model, g_free);
  g_clear_pointer (&self->check_text, g_free);
  g_clear_pointer (&self->pull_note, g_free);

  G_OBJECT_CLASS (hr_pull_panel_parent_class)->finalize (object);
}

static void
hr_pull_panel_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  HrPullPanel *self = HR_PULL_PANEL (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, self->connection);
      break;
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_SCENARIO:
      g_value_set_object (value, self->scenario);
      break;
    case PROP_PULLING:
      g_value_set_boolean (value, self->pulling);
      break;
    case PROP_CAN_PULL:
      g_value_set_boolean (value, self->can_pull);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_pull_panel_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  HrPullPanel *self = HR_PULL_PANEL (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      hr_pull_panel_set_connection (self, g_value_get_object (value));
      break;
    case PROP_SESSION:
      hr_pull_panel_set_session (self, g_value_get_object (value));
      break;
    case PROP_SCENARIO:
      hr_pull_panel_set_scenario (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_pull_panel_class_init (HrPullPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = hr_pull_panel_dispose;
  object_class->finalize = hr_pull_panel_finalize;
  object_class->get_property = hr_pull_panel_get_property;
  object_class->set_property = hr_pull_panel_set_property;

  properties[PROP_CONNECTION] = g_param_spec_object ("connection", NULL, NULL, HR_TYPE_BOARD_CONNECTION, rw);
  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, HR_TYPE_SESSION, rw);
  properties[PROP_SCENARIO] = g_param_spec_object ("scenario", NULL, NULL, HR_TYPE_SCENARIO, rw);
  properties[PROP_PULLING] = g_param_spec_boolean ("pulling", NULL, NULL, FALSE, ro);
  properties[PROP_CAN_PULL] = g_param_spec_boolean ("can-pull", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/board/hr-pull-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, HrPullPanel, pull_row);
  gtk_widget_class_bind_template_child (widget_class, HrPullPanel, size_spin);
  gtk_widget_class_bind_template_child (widget_class, HrPullPanel, check_label);
  gtk_widget_class_bind_template_child (widget_class, HrPullPanel, pull_revealer);
  gtk_widget_class_bind_template_child (widget_class, HrPullPanel, pull_bar);
  gtk_widget_class_bind_template_child (widget_class, HrPullPanel, pull_status_label);
  gtk_widget_class_bind_template_child (widget_class, HrPullPanel, pull_layer_label);
  gtk_widget_class_bind_template_child (widget_class, HrPullPanel, pull_note_label);
  gtk_widget_class_bind_template_callback (widget_class, on_name_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_name_activated);
}

static void
hr_pull_panel_init (HrPullPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * hr_pull_panel_new:
 *
 * Returns: (transfer floating): a new #HrPullPanel, without a connection
 */
GtkWidget *
hr_pull_panel_new (void)
{
  return g_object_new (HR_TYPE_PULL_PANEL, NULL);
}

/**
 * hr_pull_panel_set_connection:
 * @self: a #HrPullPanel
 * @connection: (nullable): the connection whose server the panel pulls to
 *
 * A new server on @connection (its "client" changes) cancels the pull.
 */
void
hr_pull_panel_set_connection (HrPullPanel       *self,
                              HrBoardConnection *connection)
{
  g_return_if_fail (HR_IS_PULL_PANEL (self));
  g_return_if_fail (connection == NULL || HR_IS_BOARD_CONNECTION (connection));

  if (self->connection == connection)
    return;
  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);
  cancel_pull (self);
  g_set_object (&self->connection, connection);
  if (connection != NULL)
    g_signal_connect_object (connection, "notify::client", G_CALLBACK (on_client_changed), self,
                             G_CONNECT_SWAPPED);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECTION]);
}

/**
 * hr_pull_panel_set_session:
 * @self: a #HrPullPanel
 * @session: (nullable): the session whose catalog the pull check looks the
 *   model up in, and a pulled model is added to (hr_session_add_model())
 */
void
hr_pull_panel_set_session (HrPullPanel *self,
                           HrSession   *session)
{
  g_return_if_fail (HR_IS_PULL_PANEL (self));
  g_return_if_fail (session == NULL || HR_IS_SESSION (session));

  if (g_set_object (&self->session, session))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* The group's caption names the board the check uses: the shared
 * scenario's, which choosing a saved server sets to the board it runs on
 * (hr-board-page-servers.c), so the caption says that too. */
static void
update_caption (HrPullPanel *self)
{
  const HrBoard *board = self->scenario != NULL ? hr_scenario_get_board (self->scenario) : NULL;
  g_autofree char *text = NULL;

  if (self->disposed || !ADW_IS_PREFERENCES_GROUP (adw_bin_get_child (ADW_BIN (self))))
    return;
  if (board == NULL)
    text = g_strdup (_("Checked against the board and scenario chosen on the Models page before anything is sent."));
  else
    /* Translators: the pull check's caption; %s is a board's name */
    text = g_strdup_printf (_("Checked against %s, the board chosen on the Models page (choosing a saved server chooses the board it runs on), and the scenario set there, before anything is sent."),
                            board->name);
  /* the bin's child, the .ui file's pull_group (not a bound template
   * child: the bin unparents its child itself) */
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (adw_bin_get_child (ADW_BIN (self))), text);
}

/**
 * hr_pull_panel_set_scenario:
 * @self: a #HrPullPanel
 * @scenario: (nullable): the shared scenario the pull check evaluates the
 *   model under (hr_scenario_evaluate(), hr_scenario_get_evaluation_inputs())
 */
void
hr_pull_panel_set_scenario (HrPullPanel *self,
                            HrScenario  *scenario)
{
  g_return_if_fail (HR_IS_PULL_PANEL (self));
  g_return_if_fail (scenario == NULL || HR_IS_SCENARIO (scenario));

  if (self->scenario == scenario)
    return;
  if (self->scenario != NULL)
    g_signal_handlers_disconnect_by_func (self->scenario, update_caption, self);
  g_set_object (&self->scenario, scenario);
  if (scenario != NULL)
    g_signal_connect_object (scenario, "changed", G_CALLBACK (update_caption), self, G_CONNECT_SWAPPED);
  update_caption (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
}

/**
 * hr_pull_panel_is_pulling:
 * @self: a #HrPullPanel
 *
 * Returns: whether a pull is under way
 */
gboolean
hr_pull_panel_is_pulling (HrPullPanel *self)
{
  g_return_val_if_fail (HR_IS_PULL_PANEL (self), FALSE);
  return self->pulling;
}

/**
 * hr_pull_panel_get_can_pull:
 * @self: a #HrPullPanel
 *
 * Returns: whether a model name is typed
 */
gboolean
hr_pull_panel_get_can_pull (HrPullPanel *self)
{
  g_return_val_if_fail (HR_IS_PULL_PANEL (self), FALSE);
  return self->can_pull;
}

/**
 * hr_pull_panel_get_check_text:
 * @self: a #HrPullPanel
 *
 * Returns: (nullable): the last pull check as shown: its verdict, every
 *   reason on its own line, and the figures
 */
const char *
hr_pull_panel_get_check_text (HrPullPanel *self)
{
  g_return_val_if_fail (HR_IS_PULL_PANEL (self), NULL);
  return self->check_text;
}

/**
 * hr_pull_panel_get_pull_note:
 * @self: a #HrPullPanel
 *
 * Returns: (nullable): what the panel said when the last pull ended
 *   (success, Ollama's error with what to do, or that it was cancelled)
 */
const char *
hr_pull_panel_get_pull_note (HrPullPanel *self)
{
  g_return_val_if_fail (HR_IS_PULL_PANEL (self), NULL);
  return self->pull_note;
}

/**
 * hr_pull_panel_get_bar:
 * @self: a #HrPullPanel
 *
 * Returns: (transfer none): the pull's overall progress bar
 */
GtkProgressBar *
hr_pull_panel_get_bar (HrPullPanel *self)
{
  g_return_val_if_fail (HR_IS_PULL_PANEL (self), NULL);
  return self->pull_bar;
}
