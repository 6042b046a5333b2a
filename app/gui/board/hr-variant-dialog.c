/* hr-variant-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Run It Like This": makes the board run a model the way Headroom sized
 * it. The dialog asks the chosen saved server for its version and models,
 * names the variant for what it changes (hr_ollama_variant_name():
 * "llama3.1:8b-ctx24k"), shows the exact `POST /api/create` request
 * (hr_ollama_create_request()), and refuses, with the reason under the
 * request, a server before Ollama 0.5.5, a source the server does not
 * have, and a name it already has. Created, it offers to load the variant
 * now; loaded, it sets what /api/ps reports beside Headroom's prediction.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-measure-window.h"
#include "hr-measure.h"
#include "hr-ollama-client.h"
#include "hr-ollama-host.h"
#include "hr-ollama-show.h"
#include "hr-runtime.h"
#include "hr-token-store.h"
#include "hr-units.h"
#include "hr-variant-dialog.h"

#define ANSWER_MS  10000
#define CONNECT_MS  5000

struct _HrVariantDialog {
  AdwMessageDialog  parent_instance;

  AdwComboRow      *server_row;
  AdwComboRow      *source_row;
  GtkSpinButton    *context_spin;
  AdwExpanderRow   *gpu_row;
  GtkSpinButton    *num_gpu_spin;
  AdwEntryRow      *name_row;
  GtkLabel         *request_label;
  GtkLabel         *status_label;

  HrSession        *session;
  GtkWindow        *parent;         /* weak: where the results are told */
  GtkStringList    *servers;        /* the saved servers' URLs */
  GtkStringList    *models;         /* the chosen server's models */
  char             *wanted_source;
  char             *auto_name;      /* the name last filled in for the person */
  HrOllamaClient   *client;
  HrTokenStore     *token_store;
  GCancellable     *cancellable;    /* the questions to the chosen server */
  char             *version;
  gboolean          answered;       /* the chosen server's version and models are in */
  gboolean          too_old;
  GError           *error;          /* why the chosen server did not answer */
  char             *request;        /* the request as shown */
  gboolean          ready;
  gboolean          updating;       /* update() is filling the name in */
};

G_DEFINE_FINAL_TYPE (HrVariantDialog, hr_variant_dialog, ADW_TYPE_MESSAGE_DIALOG)

/* Ollama 0.5.5: /api/create takes {"from", "parameters"} from then on. */
#define CREATE_FROM_KEY (0 * 1000000 + 5 * 1000 + 5)

static const char *
chosen_url (HrVariantDialog *self)
{
  guint i = adw_combo_row_get_selected (self->server_row);

  return i != GTK_INVALID_LIST_POSITION ? gtk_string_list_get_string (self->servers, i) : NULL;
}

static const char *
chosen_source (HrVariantDialog *self)
{
  guint i = adw_combo_row_get_selected (self->source_row);

  return i != GTK_INVALID_LIST_POSITION && self->models != NULL ?
         gtk_string_list_get_string (self->models, i) : NULL;
}

static gint32
chosen_num_gpu (HrVariantDialog *self)
{
  return adw_expander_row_get_enable_expansion (self->gpu_row) ?
         gtk_spin_button_get_value_as_int (self->num_gpu_spin) : -1;
}

static guint32
chosen_context (HrVariantDialog *self)
{
  return (guint32) gtk_spin_button_get_value_as_int (self->context_spin);
}

static JsonObject *
parameters_of (HrVariantDialog *self)
{
  JsonObject *parameters = json_object_new ();

  json_object_set_int_member (parameters, "num_ctx", chosen_context (self));
  if (chosen_num_gpu (self) >= 0)
    json_object_set_int_member (parameters, "num_gpu", chosen_num_gpu (self));
  return parameters;
}

static gboolean
server_has (HrVariantDialog *self,
            const char      *name)
{
  guint n = self->models != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->models)) : 0;

  for (guint i = 0; i < n; i++)
    if (hr_ollama_model_name_equal (gtk_string_list_get_string (self->models, i), name))
      return TRUE;
  return FALSE;
}

/* The request, the name, and whether Create may be pressed. */
static void
update (HrVariantDialog *self)
{
  const char *url = chosen_url (self);
  const char *source = chosen_source (self);
  const char *name;
  g_autofree char *auto_name = NULL;
  g_autofree char *status = NULL;
  g_autoptr(JsonObject) parameters = NULL;
  g_autoptr(JsonNode) request = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autofree char *body = NULL;
  HrOllamaModelName parsed;

  if (self->updating)
    return;
  self->updating = TRUE;
  /* The name follows the settings until the person types one. */
  if (source != NULL)
    {
      auto_name = hr_ollama_variant_name (source, chosen_context (self), chosen_num_gpu (self));
      if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->name_row)), self->auto_name) == 0 ||
          *gtk_editable_get_text (GTK_EDITABLE (self->name_row)) == '\0')
        {
          g_free (self->auto_name);
          self->auto_name = g_strdup (auto_name);
          gtk_editable_set_text (GTK_EDITABLE (self->name_row), auto_name);
        }
    }
  name = gtk_editable_get_text (GTK_EDITABLE (self->name_row));

  parameters = parameters_of (self);
  request = hr_ollama_create_request (name, source != NULL ? source : "", parameters);
  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, request);
  body = json_generator_to_data (generator, NULL);
  g_free (self->request);
  self->request = g_strdup_printf ("POST %s/api/create\n%s", url != NULL ? url : "", body);
  gtk_label_set_text (self->request_label, self->request);

  self->ready = FALSE;
  if (url == NULL)
    status = g_strdup (_("No saved server: connect to one on the Board page first."));
  else if (self->error != NULL)
    status = g_strdup_printf (_("%s did not answer: %s"), url, self->error->message);
  else if (!self->answered)
    status = g_strdup_printf (_("Asking %s for its version and models…"), url);
  else if (self->too_old)
    status = g_strdup_printf (_("%s runs Ollama %s, whose /api/create does not take “from” and “parameters”: variants need Ollama 0.5.5 or newer."),
                              url, self->version);
  else if (source == NULL)
    status = self->wanted_source != NULL ?
             g_strdup_printf (_("%s has no model “%s” to make a variant from: pull it first."), url, self->wanted_source) :
             g_strdup_printf (_("%s has no models to make a variant from: pull one first."), url);
  else if (!hr_ollama_model_name_parse (name, &parsed, NULL))
    status = g_strdup_printf (_("“%s” is not a model name Ollama accepts."), name);
  else
    {
      hr_ollama_model_name_clear (&parsed);
      if (server_has (self, name))
        status = g_strdup_printf (_("%s already has a model “%s”: choose another name."), url, name);
      else
        self->ready = TRUE;
    }
  gtk_label_set_text (self->status_label, status != NULL ? status : "");
  if (self->ready)
    gtk_widget_remove_css_class (GTK_WIDGET (self->name_row), "error");
  else if (self->answered && source != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->name_row), "error");
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self), "create", self->ready);
  self->updating = FALSE;
}

/* ------------------------------------------------------------------ */
/* Asking the chosen server                                            */

static void
on_tags (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(HrVariantDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = hr_ollama_client_tags_finish (HR_OLLAMA_CLIENT (source), result, &error);
  guint select = GTK_INVALID_LIST_POSITION;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || HR_OLLAMA_CLIENT (source) != self->client)
    return;
  if (models == NULL)
    {
      if (self->error == NULL)
        self->error = g_steal_pointer (&error);
      update (self);
      return;
    }
  g_clear_object (&self->models);
  self->models = gtk_string_list_new (NULL);
  for (guint i = 0; i < models->len; i++)
    {
      const HrOllamaModel *m = g_ptr_array_index (models, i);

      gtk_string_list_append (self->models, m->name);
      if (self->wanted_source != NULL && hr_ollama_model_name_equal (m->name, self->wanted_source))
        select = i;
    }
  adw_combo_row_set_model (self->source_row, G_LIST_MODEL (self->models));
  if (select == GTK_INVALID_LIST_POSITION && self->wanted_source == NULL && models->len > 0)
    select = 0;
  adw_combo_row_set_selected (self->source_row, select);
  self->answered = self->version != NULL;
  update (self);
}

static void
on_version (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(HrVariantDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  char *version = hr_ollama_client_version_finish (HR_OLLAMA_CLIENT (source), result, &error);
  guint major, minor, patch;

  /* An answer from a server chosen before: its round was replaced. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || HR_OLLAMA_CLIENT (source) != self->client)
    {
      g_free (version);
      return;
    }
  if (version == NULL)
    {
      if (self->error == NULL)
        self->error = g_steal_pointer (&error);
      update (self);
      return;
    }
  g_free (self->version);
  self->version = version;
  self->too_old = hr_runtime_parse_version (version, &major, &minor, &patch) &&
                  !(major == 0 && minor == 0 && patch == 0) &&
                  (guint64) major * 1000000 + minor * 1000 + patch < CREATE_FROM_KEY;
  self->answered = self->models != NULL;
  update (self);
}

static void
ask_server (HrVariantDialog *self,
            const char      *token)
{
  hr_ollama_client_set_token (self->client, token);
  hr_ollama_client_version_async (self->client, self->cancellable, on_version, g_object_ref (self));
  hr_ollama_client_tags_async (self->client, self->cancellable, on_tags, g_object_ref (self));
}

static void
on_token (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(HrVariantDialog) self = user_data;
  g_autofree char *token = hr_token_store_lookup_finish (HR_TOKEN_STORE (source), result, NULL);

  if (!g_cancellable_is_cancelled (self->cancellable))
    ask_server (self, token);
}

static void
on_server_chosen (HrVariantDialog *self)
{
  const char *url = chosen_url (self);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_object (&self->client);
  g_clear_object (&self->models);
  g_clear_pointer (&self->version, g_free);
  g_clear_error (&self->error);
  self->answered = FALSE;
  self->too_old = FALSE;
  adw_combo_row_set_model (self->source_row, NULL);
  if (url != NULL)
    {
      self->client = hr_ollama_client_new (url, &self->error);
      if (self->client != NULL)
        {
          hr_ollama_client_set_timeouts (self->client, ANSWER_MS, CONNECT_MS, ANSWER_MS);
          if (self->token_store != NULL)
            hr_token_store_lookup_async (self->token_store, HR_TOKEN_KIND_OLLAMA, url, self->cancellable,
                                         on_token, g_object_ref (self));
          else
            ask_server (self, NULL);
        }
    }
  update (self);
}

/* ------------------------------------------------------------------ */
/* After Create: the result, then loading it                           */

typedef struct {
  GtkWindow      *parent;   /* weak pointer target, may go */
  HrSession      *session;  /* nullable: where a measurement is saved */
  HrOllamaClient *client;
  char           *url;
  char           *name;
  char           *version;
  guint64         loaded_size;    /* /api/ps SIZE, bytes */
  guint32         loaded_context; /* /api/ps context_length */
  char           *loaded_text;    /* what /api/ps said, as a sentence */
} Outcome;

static void
outcome_free (Outcome *o)
{
  g_clear_weak_pointer (&o->parent);
  g_clear_object (&o->session);
  g_clear_object (&o->client);
  g_free (o->url);
  g_free (o->name);
  g_free (o->version);
  g_free (o->loaded_text);
  g_free (o);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Outcome, outcome_free)

static void
tell (Outcome    *o,
      const char *heading,
      const char *body)
{
  GtkWidget *dialog = adw_message_dialog_new (o->parent, heading, body);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_loaded_show (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data);

typedef struct {
  HrSession      *session;
  HrOllamaClient *client;
  char           *model;
  char           *board_id;
} MeasureOffer;

static void
measure_offer_free (MeasureOffer *m)
{
  g_clear_object (&m->session);
  g_clear_object (&m->client);
  g_free (m->model);
  g_free (m->board_id);
  g_free (m);
}

static void
on_loaded_answer (AdwMessageDialog *dialog,
                  const char       *response,
                  MeasureOffer     *m)
{
  g_autofree char *archive = NULL;
  HrMeasureWindow *window;

  if (g_strcmp0 (response, "measure") != 0)
    return;
  /* A measurement records the rate too: the measure run times the model
   * it just loaded, then saves size and rate on the server's board. */
  window = hr_measure_window_new (m->client, m->model, m->board_id);
  archive = hr_session_dup_measurements_dir (m->session);
  hr_measure_window_set_archive_dir (window, archive);
  hr_measure_window_set_session (window, m->session);
  gtk_window_set_transient_for (GTK_WINDOW (window), gtk_window_get_transient_for (GTK_WINDOW (dialog)));
  gtk_window_present (GTK_WINDOW (window));
}

/* The loaded result; with the server's board known, an offer to measure
 * it and save that on the board. */
static void
tell_loaded (Outcome    *o,
             const char *heading,
             const char *body)
{
  const char *board_id = o->session != NULL ? hr_session_get_server_board (o->session, o->url) : NULL;
  GtkWidget *dialog = adw_message_dialog_new (o->parent, heading, body);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  if (board_id != NULL && hr_session_find_board (o->session, board_id) != NULL)
    {
      MeasureOffer *m = g_new0 (MeasureOffer, 1);

      m->session = g_object_ref (o->session);
      m->client = g_object_ref (o->client);
      m->model = g_strdup (o->name);
      m->board_id = g_strdup (board_id);
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "measure", _("_Measure and Save…"));
      adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "measure", ADW_RESPONSE_SUGGESTED);
      g_signal_connect_data (dialog, "response", G_CALLBACK (on_loaded_answer), m,
                             (GClosureNotify) (void (*) (void)) measure_offer_free, 0);
    }
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_loaded_ps (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Outcome *o = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) loaded = hr_ollama_client_ps_finish (o->client, result, &error);
  const HrOllamaLoaded *found = NULL;

  for (guint i = 0; loaded != NULL && i < loaded->len && found == NULL; i++)
    if (hr_ollama_model_name_equal (((const HrOllamaLoaded *) g_ptr_array_index (loaded, i))->name, o->name))
      found = g_ptr_array_index (loaded, i);
  if (found == NULL)
    {
      g_autofree char *body = error != NULL ?
        g_strdup_printf (_("%s loaded %s, but /api/ps could not be read: %s"), o->url, o->name, error->message) :
        g_strdup_printf (_("%s loaded %s, but /api/ps does not list it."), o->url, o->name);

      tell (o, _("Loaded"), body);
      outcome_free (o);
      return;
    }
  {
    g_autofree char *size = hr_ollama_format_size (found->size);
    g_autofree char *processor = hr_ollama_format_processor (found->size, found->size_vram);

    o->loaded_size = found->size;
    o->loaded_context = found->context_length;
    /* TRANSLATORS: /api/ps's SIZE, PROCESSOR and context of a model just loaded */
    o->loaded_text = g_strdup_printf (_("/api/ps: %s, %s, context %u."), size, processor, found->context_length);
  }
  hr_ollama_client_show_async (o->client, o->name, NULL, on_loaded_show, o);
}

static void
on_loaded_show (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Outcome) o = user_data;
  g_autoptr(HrOllamaShow) show = hr_ollama_client_show_finish (o->client, result, NULL);
  g_autofree char *body = NULL;
  g_autofree char *heading = g_strdup_printf (_("%s Is Loaded"), o->name);
  guint64 predicted = 0;
  g_autofree char *method = NULL;

  if (show != NULL && o->loaded_context > 0 &&
      hr_measure_predict_runtime (show->spec, o->loaded_context, o->version, &predicted, &method, NULL))
    {
      g_autofree char *predicted_text = hr_format_gb_gib (predicted, 2);
      char diff[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (diff, sizeof diff, "%+.2f", ((double) o->loaded_size - (double) predicted) / 1e9);
      /* TRANSLATORS: what /api/ps says, then Headroom's prediction, its method and the difference in GB */
      body = g_strdup_printf (_("%s Headroom predicted %s (%s): a difference of %s GB. A measurement on the server's board teaches its calibration."),
                              o->loaded_text, predicted_text, method, diff);
    }
  else
    body = g_strdup (o->loaded_text);
  tell_loaded (o, heading, body);
}

static void
on_preloaded (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Outcome *o = user_data;
  g_autoptr(GError) error = NULL;

  if (!hr_ollama_client_preload_finish (o->client, result, &error))
    {
      g_autofree char *body = g_strdup_printf (_("%s could not load %s: %s"), o->url, o->name, error->message);

      tell (o, _("Not Loaded"), body);
      outcome_free (o);
      return;
    }
  hr_ollama_client_ps_async (o->client, NULL, on_loaded_ps, o);
}

static void
on_load_answer (AdwMessageDialog *dialog,
                const char       *response,
                gpointer          user_data)
{
  Outcome *o = user_data;

  /* One answer: closing the dialog after it emits its close response too. */
  g_signal_handlers_disconnect_by_func (dialog, on_load_answer, o);
  if (g_strcmp0 (response, "load") != 0)
    {
      outcome_free (o);
      return;
    }
  hr_ollama_client_preload_async (o->client, o->name, NULL, NULL, on_preloaded, o);
}

/* The server's version first (it picks the era the prediction follows;
 * none, the newest), then the load. */
static void
on_version_then_load (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  Outcome *o = user_data;

  o->version = hr_ollama_client_version_finish (o->client, result, NULL);
  hr_ollama_client_preload_async (o->client, o->name, NULL, NULL, on_preloaded, o);
}

/**
 * hr_variant_load_and_compare:
 * @parent: (nullable): the window the result is told over
 * @session: (nullable): the session whose saved servers give the server's
 *   board; with one, the result offers to measure the model and save that
 *   on the board (HrMeasureWindow)
 * @client: the server's client (a reference is taken)
 * @model: the model to load, with its own parameters
 * @version: (nullable): the server's version, which picks the era the
 *   prediction follows; %NULL to ask the server first
 *
 * Loads @model now (`POST /api/generate` with no prompt and the server's
 * keep-alive), then tells in a dialog what /api/ps reports (SIZE,
 * PROCESSOR, context) beside Headroom's runtime prediction at that context
 * (hr_measure_predict_runtime()) and the difference, so that a pull, a
 * create or a load each ends with what the calibration can learn from.
 */
void
hr_variant_load_and_compare (GtkWindow      *parent,
                             HrSession      *session,
                             HrOllamaClient *client,
                             const char     *model,
                             const char     *version)
{
  Outcome *o = g_new0 (Outcome, 1);

  g_return_if_fail (HR_IS_OLLAMA_CLIENT (client));
  g_return_if_fail (model != NULL);

  g_set_weak_pointer (&o->parent, parent);
  o->session = session != NULL ? g_object_ref (session) : NULL;
  o->client = g_object_ref (client);
  o->url = g_strdup (hr_ollama_client_get_base_url (client));
  o->name = g_strdup (model);
  o->version = g_strdup (version);
  if (version != NULL)
    hr_ollama_client_preload_async (o->client, o->name, NULL, NULL, on_preloaded, o);
  else
    hr_ollama_client_version_async (o->client, NULL, on_version_then_load, o);
}

static void
on_created (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Outcome *o = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  if (!hr_ollama_client_create_finish (o->client, result, &error))
    {
      body = g_strdup_printf (_("%s did not create %s: %s"), o->url, o->name, error->message);
      tell (o, _("Not Created"), body);
      outcome_free (o);
      return;
    }
  body = g_strdup_printf (_("%s now has %s. Load it now, to see what /api/ps reports beside the prediction?"),
                          o->url, o->name);
  dialog = adw_message_dialog_new (o->parent, _("Variant Created"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "later", _("_Later"), "load", _("_Load Now"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "load", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "load");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "later");
  g_signal_connect (dialog, "response", G_CALLBACK (on_load_answer), o);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
hr_variant_dialog_response (AdwMessageDialog *dialog,
                            const char       *response)
{
  HrVariantDialog *self = HR_VARIANT_DIALOG (dialog);

  if (g_strcmp0 (response, "create") == 0 && self->ready && self->client != NULL)
    {
      g_autoptr(JsonObject) parameters = parameters_of (self);
      Outcome *o = g_new0 (Outcome, 1);

      g_set_weak_pointer (&o->parent, self->parent);
      o->session = g_object_ref (self->session);
      o->client = g_object_ref (self->client);
      o->url = g_strdup (chosen_url (self));
      o->name = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name_row)));
      o->version = g_strdup (self->version);
      hr_ollama_client_create_async (o->client, o->name, chosen_source (self), parameters, NULL, on_created, o);
    }
  /* AdwMessageDialog has no default handler of its own: it closes itself. */
  if (ADW_MESSAGE_DIALOG_CLASS (hr_variant_dialog_parent_class)->response != NULL)
    ADW_MESSAGE_DIALOG_CLASS (hr_variant_dialog_parent_class)->response (dialog, response);
}

/* ------------------------------------------------------------------ */
/* The object                                                          */

static void
hr_variant_dialog_dispose (GObject *object)
{
  HrVariantDialog *self = HR_VARIANT_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->client);
  g_clear_object (&self->token_store);
  g_clear_object (&self->session);
  g_clear_object (&self->servers);
  g_clear_object (&self->models);
  g_clear_weak_pointer (&self->parent);
  G_OBJECT_CLASS (hr_variant_dialog_parent_class)->dispose (object);
}

static void
hr_variant_dialog_finalize (GObject *object)
{
  HrVariantDialog *self = HR_VARIANT_DIALOG (object);

  g_free (self->wanted_source);
  g_free (self->auto_name);
  g_free (self->version);
  g_free (self->request);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (hr_variant_dialog_parent_class)->finalize (object);
}

static void
hr_variant_dialog_class_init (HrVariantDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwMessageDialogClass *dialog_class = ADW_MESSAGE_DIALOG_CLASS (klass);

  object_class->dispose = hr_variant_dialog_dispose;
  object_class->finalize = hr_variant_dialog_finalize;
  dialog_class->response = hr_variant_dialog_response;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroom/Headroom/board/hr-variant-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, HrVariantDialog, server_row);
  gtk_widget_class_bind_template_child (widget_class, HrVariantDialog, source_row);
  gtk_widget_class_bind_template_child (widget_class, HrVariantDialog, context_spin);
  gtk_widget_class_bind_template_child (widget_class, HrVariantDialog, gpu_row);
  gtk_widget_class_bind_template_child (widget_class, HrVariantDialog, num_gpu_spin);
  gtk_widget_class_bind_template_child (widget_class, HrVariantDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, HrVariantDialog, request_label);
  gtk_widget_class_bind_template_child (widget_class, HrVariantDialog, status_label);
}

static void
hr_variant_dialog_init (HrVariantDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
}

/**
 * hr_variant_dialog_new:
 * @parent: (nullable): the window it belongs to, where the results are told
 * @session: the session whose saved servers are offered
 * @url: (nullable): the server to choose first; %NULL for the first saved
 * @source: (nullable): the model to make the variant from, as the server
 *   names it ("llama3.2:3b"); %NULL for the server's first
 * @context: the variant's num_ctx, tokens (rounded to 256)
 * @num_gpu: its num_gpu; negative for none (the server places the layers)
 *
 * Returns: (transfer full): the dialog, not yet shown; present it.
 */
HrVariantDialog *
hr_variant_dialog_new (GtkWindow  *parent,
                       HrSession  *session,
                       const char *url,
                       const char *source,
                       guint32     context,
                       gint32      num_gpu)
{
  HrVariantDialog *self = g_object_new (HR_TYPE_VARIANT_DIALOG,
                                        "transient-for", parent, "modal", TRUE, NULL);
  GArray *saved = hr_session_get_servers (session);
  guint select = 0;

  self->session = g_object_ref (session);
  /* The session's token store, which the Board page and the servers
   * overview share (hr_session_get_token_store()). */
  if (hr_token_store_is_built ())
    self->token_store = g_object_ref (hr_session_get_token_store (session));
  g_set_weak_pointer (&self->parent, parent);
  self->wanted_source = g_strdup (source);
  self->servers = gtk_string_list_new (NULL);
  for (guint i = 0; saved != NULL && i < saved->len; i++)
    {
      const HrSavedServer *s = &g_array_index (saved, HrSavedServer, i);

      gtk_string_list_append (self->servers, s->url);
      if (url != NULL && g_strcmp0 (s->url, url) == 0)
        select = i;
    }
  adw_combo_row_set_model (self->server_row, G_LIST_MODEL (self->servers));
  adw_combo_row_set_selected (self->server_row, saved != NULL && saved->len > 0 ? select : GTK_INVALID_LIST_POSITION);
  gtk_spin_button_set_value (self->context_spin, (double) (MAX (context, 256u) / 256 * 256));
  if (num_gpu >= 0)
    {
      adw_expander_row_set_enable_expansion (self->gpu_row, TRUE);
      gtk_spin_button_set_value (self->num_gpu_spin, num_gpu);
    }

  g_signal_connect_object (self->server_row, "notify::selected", G_CALLBACK (on_server_chosen), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->source_row, "notify::selected", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->context_spin, "value-changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->num_gpu_spin, "value-changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->gpu_row, "notify::enable-expansion", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->name_row, "changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  on_server_chosen (self);
  return self;
}

/**
 * hr_variant_dialog_is_ready:
 * @self: a #HrVariantDialog
 *
 * Returns: %TRUE when Create may be pressed: the server answered, is new
 *   enough, has the source, and lacks the name.
 */
gboolean
hr_variant_dialog_is_ready (HrVariantDialog *self)
{
  g_return_val_if_fail (HR_IS_VARIANT_DIALOG (self), FALSE);
  return self->ready;
}

/**
 * hr_variant_dialog_get_request:
 * @self: a #HrVariantDialog
 *
 * Returns: (transfer none): the request as the dialog shows it:
 *   "POST URL/api/create" and the body, pretty-printed.
 */
const char *
hr_variant_dialog_get_request (HrVariantDialog *self)
{
  g_return_val_if_fail (HR_IS_VARIANT_DIALOG (self), NULL);
  return self->request;
}

/**
 * hr_variant_dialog_get_status:
 * @self: a #HrVariantDialog
 *
 * Returns: (transfer none): why Create cannot be pressed, or "".
 */
const char *
hr_variant_dialog_get_status (HrVariantDialog *self)
{
  g_return_val_if_fail (HR_IS_VARIANT_DIALOG (self), NULL);
  return gtk_label_get_text (self->status_label);
}

/**
 * hr_variant_dialog_set_use_keyring:
 * @self: a #HrVariantDialog
 * @use_keyring: %FALSE to ask the server without a token (the tests)
 *
 * Asks the chosen server again, without its token.
 */
void
hr_variant_dialog_set_use_keyring (HrVariantDialog *self,
                                   gboolean         use_keyring)
{
  g_return_if_fail (HR_IS_VARIANT_DIALOG (self));
  if (use_keyring || self->token_store == NULL)
    return;
  g_clear_object (&self->token_store);
  on_server_chosen (self);
}
