/* hr-library-lookup.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-library-lookup.h"
#include "hr-gui-format.h"
#include "hr-units.h"

struct _HrLibraryLookup
{
  AdwBin            parent_instance;

  /* template */
  GtkButton        *lookup_button;
  GtkLabel         *lookup_label;
  GtkWidget        *busy_box;
  GtkSpinner       *spinner;
  GtkLabel         *busy_label;
  GtkWidget        *result_box;
  GtkLabel         *result_label;
  GtkButton        *add_button;
  GtkLabel         *error_label;

  HrSession        *session;
  GtkEditable      *entry;
  GCancellable     *cancellable;
  char             *offer_name;    /* the text "Look up" looks up, or NULL */
  char             *offer_text;
  char             *result_name;   /* the model the result box is about, or NULL */
  char             *message;       /* what the widget last said (result or error) */
  gboolean          busy;
};

G_DEFINE_FINAL_TYPE (HrLibraryLookup, hr_library_lookup, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* A looked-up model as a spec                                         */

/**
 * hr_library_lookup_spec:
 * @model: a model looked up in the Ollama library (HrOllamaRegistry)
 * @error: return location for a #GError
 *
 * Sizes @model from its GGUF header (hr_gguf_file_to_model_spec()) with
 * the model layer's exact bytes from the manifest, as `headroom-cli
 * library` does. Its origin is "ollama:MODEL:TAG@sha256:…" (the manifest's
 * digest), the provenance "Add to Catalog" records; the file size's source
 * names the manifest (its URL and digest, the model layer's digest), the
 * parameters' source the header (GGUF version, architecture, its length
 * and the bytes this lookup read), so the explain panel can say both.
 *
 * Returns: (transfer full) (nullable): the spec, or %NULL with
 *   hr_gguf_file_to_model_spec()'s error
 */
HrModelSpec *
hr_library_lookup_spec (const HrOllamaLibraryModel  *model,
                        GError                     **error)
{
  g_autofree char *origin = NULL;
  g_autofree char *layer_bytes = NULL;
  g_autofree char *header_bytes = NULL;
  g_autofree char *read = NULL;
  g_autofree char *manifest = NULL;
  g_autofree char *header = NULL;
  HrModelSpec *spec;
  const char *arch;

  g_return_val_if_fail (model != NULL && model->manifest != NULL && model->manifest->model != NULL, NULL);

  origin = g_strdup_printf ("ollama:%s@%s", model->name, model->manifest_digest);
  spec = hr_gguf_file_to_model_spec (model->gguf, model->name, origin, error);
  if (spec == NULL)
    return NULL;

  spec->file_bytes = model->manifest->model->size;
  /* The projector layer's tensors; without one, any v./mm./a. tensors
   * inside the model's blob stay the projector (hr_mmproj_take_inline()). */
  if (model->projector_bytes > 0)
    {
      spec->projector_bytes = model->projector_bytes;
      g_free (spec->projector_source);
      spec->projector_source = g_strdup ("the manifest's projector layer: all its tensors "
                                         "(Ollama llm/llama_server.go mmprojMemoryRequirement)");
    }
  layer_bytes = hr_format_count (model->manifest->model->size);
  manifest = g_strdup_printf ("Ollama manifest %s (%s), model layer %s of %s bytes",
                              model->manifest_url, model->manifest_digest,
                              model->manifest->model->digest, layer_bytes);
  if (model->manifest->projector != NULL)
    {
      g_autofree char *projector = hr_format_count (model->manifest->projector->size);
      g_autofree char *tensors = hr_format_count (model->projector_bytes);
      g_autofree char *with = g_strdup_printf ("%s; vision projector of %s bytes, %s bytes of tensors loaded beside the weights",
                                               manifest, projector, tensors);

      g_free (manifest);
      manifest = g_steal_pointer (&with);
    }
  hr_model_spec_set_source (spec, HR_SPEC_FIELD_FILE_BYTES, manifest);

  arch = spec->architecture != NULL ? spec->architecture : "unknown";
  header_bytes = hr_format_count (model->header_bytes);
  read = hr_format_count (model->bytes_read);
  header = g_strdup_printf (model->cached
                            ? "GGUF v%u header of the model layer, architecture %s, %s bytes (from the cache; %s bytes read): tensor shapes (sum of elements)"
                            : "GGUF v%u header of the model layer, architecture %s, %s bytes (%s bytes read by Range): tensor shapes (sum of elements)",
                            hr_gguf_file_get_version (model->gguf), arch, header_bytes, read);
  hr_model_spec_set_source (spec, HR_SPEC_FIELD_PARAMETERS, header);
  return spec;
}

/**
 * hr_library_lookup_is_library:
 * @spec: a model
 *
 * Returns: whether @spec was sized from the Ollama library: its origin is
 *   "ollama:MODEL:TAG@sha256:…" (hr_library_lookup_spec()), looked up in
 *   this run or added to the catalog since
 */
gboolean
hr_library_lookup_is_library (const HrModelSpec *spec)
{
  return spec != NULL && spec->origin != NULL && g_str_has_prefix (spec->origin, "ollama:") &&
         strstr (spec->origin, "@sha256:") != NULL;
}

/**
 * hr_library_lookup_describe:
 * @spec: a model
 *
 * For the explain panel: the provenance of a model sized from the Ollama
 * library, the manifest it came from (registry URL, digest) and the header
 * that was read (GGUF version, architecture, bytes read), one a line.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL when @spec is
 *   not from the library (hr_library_lookup_is_library())
 */
char *
hr_library_lookup_describe (const HrModelSpec *spec)
{
  const char *manifest, *header;
  GString *text;

  if (!hr_library_lookup_is_library (spec))
    return NULL;

  text = g_string_new (NULL);
  /* Translators: %s is "ollama:MODEL:TAG@sha256:…" */
  g_string_append_printf (text, _("Provenance: %s"), spec->origin);
  manifest = hr_model_spec_get_source (spec, HR_SPEC_FIELD_FILE_BYTES);
  header = hr_model_spec_get_source (spec, HR_SPEC_FIELD_PARAMETERS);
  if (manifest != NULL)
    g_string_append_printf (text, "\n%s", manifest);
  if (header != NULL)
    g_string_append_printf (text, "\n%s", header);
  return g_string_free (text, FALSE);
}

/**
 * hr_library_lookup_new_badge:
 *
 * The "library" mark the Models page's table shows beside a model sized
 * from the Ollama library (hr_library_lookup_is_library()), hidden until
 * the cell shows such a model.
 *
 * Returns: (transfer floating): a new label
 */
GtkWidget *
hr_library_lookup_new_badge (void)
{
  /* Translators: a badge beside a model sized from the Ollama library */
  GtkWidget *badge = gtk_label_new (_("library"));

  gtk_widget_add_css_class (badge, "caption");
  gtk_widget_add_css_class (badge, "accent");
  gtk_accessible_update_property (GTK_ACCESSIBLE (badge),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("From the Ollama library"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Sized from its manifest and GGUF header in the Ollama library"),
                                  -1);
  gtk_widget_set_visible (badge, FALSE);
  return badge;
}

/* ------------------------------------------------------------------ */
/* What the widget shows                                               */

static void
show (GtkWidget *widget,
      gboolean   visible)
{
  if (gtk_widget_get_visible (widget) != visible)
    gtk_widget_set_visible (widget, visible);
}

static void
set_busy (HrLibraryLookup *self,
          gboolean         busy)
{
  show (self->busy_box, busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_message (HrLibraryLookup *self,
             const char      *text)
{
  g_free (self->message);
  self->message = g_strdup (text);
}

static void
show_error (HrLibraryLookup *self,
            const char      *text)
{
  set_message (self, text);
  gtk_label_set_text (self->error_label, text);
  show (GTK_WIDGET (self->error_label), TRUE);
  show (self->result_box, FALSE);
  show (GTK_WIDGET (self->lookup_button), FALSE);
}

static void
cancel (HrLibraryLookup *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_busy (self, FALSE);
}

/* The name the text stands for as the registry shows it ("phi4" ->
 * "phi4:latest"), or NULL when it is not an Ollama model name. */
static char *
display_name (const char *text)
{
  g_auto(HrOllamaName) name = { NULL };

  if (text == NULL || *text == '\0' || !hr_ollama_name_parse (text, &name, NULL))
    return NULL;
  return hr_ollama_name_display (&name);
}

static gboolean
in_catalog (HrLibraryLookup *self,
            const char      *text,
            const char      *display)
{
  g_autofree char *bare = g_str_has_suffix (display, ":latest")
                          ? g_strndup (display, strlen (display) - strlen (":latest")) : NULL;

  return hr_session_find_model (self->session, text) != NULL ||
         hr_session_find_model (self->session, display) != NULL ||
         (bare != NULL && hr_session_find_model (self->session, bare) != NULL);
}

/* The result box for a looked-up model still out of the catalog. */
static void
show_result (HrLibraryLookup   *self,
             const HrModelSpec *spec,
             const char        *read_note)
{
  g_autofree char *bytes = hr_gui_format_count (spec->file_bytes);
  g_autofree char *params = hr_gui_format_count (spec->parameters);
  g_autofree char *text = NULL;

  /* Translators: a model looked up in the Ollama library: its name, its exact file
   * size in bytes, its exact parameter count, then what was read (or nothing) */
  text = g_strdup_printf (_("%1$s from the Ollama library: %2$s bytes, %3$s parameters, listed for this run only.%4$s"),
                          spec->name, bytes, params, read_note != NULL ? read_note : "");
  g_free (self->result_name);
  self->result_name = g_strdup (spec->name);
  set_message (self, text);
  gtk_label_set_text (self->result_label, text);
  show (GTK_WIDGET (self->add_button), TRUE);
  show (self->result_box, TRUE);
  show (GTK_WIDGET (self->error_label), FALSE);
  show (GTK_WIDGET (self->lookup_button), FALSE);
}

/* New search text: what the widget offers for it. */
static void
on_entry_changed (HrLibraryLookup *self)
{
  g_autofree char *text = NULL;
  g_autofree char *display = NULL;
  const HrModelSpec *looked_up;

  cancel (self);
  show (GTK_WIDGET (self->error_label), FALSE);
  show (self->result_box, FALSE);
  g_clear_pointer (&self->offer_name, g_free);
  g_clear_pointer (&self->offer_text, g_free);
  if (self->entry == NULL || self->session == NULL)
    {
      show (GTK_WIDGET (self->lookup_button), FALSE);
      return;
    }

  text = g_strstrip (g_strdup (gtk_editable_get_text (self->entry)));
  display = display_name (text);
  looked_up = display != NULL ? hr_session_find_library_model (self->session, display) : NULL;
  if (looked_up != NULL)
    {
      show_result (self, looked_up, NULL);
      return;
    }
  if (display == NULL || in_catalog (self, text, display))
    {
      show (GTK_WIDGET (self->lookup_button), FALSE);
      return;
    }
  self->offer_name = g_steal_pointer (&text);
  /* Translators: a button under the Models page's search; %s is a model name */
  self->offer_text = g_strdup_printf (_("Look up %s in the Ollama library"), self->offer_name);
  gtk_label_set_text (self->lookup_label, self->offer_text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->lookup_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, self->offer_text, -1);
  show (GTK_WIDGET (self->lookup_button), TRUE);
}

/* Enter in the search: the offer, when there is one. */
static void
on_entry_activate (HrLibraryLookup *self)
{
  if (self->offer_name != NULL && gtk_widget_get_visible (GTK_WIDGET (self->lookup_button)))
    hr_library_lookup_look_up (self);
}

/* ------------------------------------------------------------------ */
/* The lookup                                                          */

static void
on_lookup (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(HrLibraryLookup) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaLibraryModel) model = hr_ollama_registry_lookup_finish (HR_OLLAMA_REGISTRY (source), result, &error);
  g_autoptr(HrModelSpec) spec = NULL;
  g_autofree char *read = NULL;
  g_autofree char *note = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->session == NULL)
    return;
  g_clear_object (&self->cancellable);
  set_busy (self, FALSE);
  if (model != NULL)
    spec = hr_library_lookup_spec (model, &error);
  if (spec == NULL)
    {
      /* The registry's own message, as headroom-cli library prints it
       * ("qwen9:70b is not in the Ollama library"); nothing was kept. */
      show_error (self, error->message);
      return;
    }

  read = hr_gui_format_count (model->bytes_read);
  /* Translators: after a lookup: the bytes received and the HTTP requests sent */
  note = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, " Read %s bytes in %u request.",
                                       " Read %s bytes in %u requests.", model->requests),
                          read, model->requests);
  show_result (self, spec, note);
  g_clear_pointer (&self->offer_name, g_free);
  /* The session says "catalog-changed" (the row appears) and
   * "model-added" (the page selects it). */
  hr_session_add_library_model (self->session, spec);
}

/* The registry's progress, in the busy line: the request under way and
 * the bytes read so far ("Reading the GGUF header of NAME… 1.2 MB"). */
static void
on_progress (HrOllamaRegistryStep step,
             guint                range,
             guint64              bytes_read,
             gpointer             user_data)
{
  HrLibraryLookup *self = user_data;
  g_autofree char *read = g_format_size (bytes_read);
  g_autofree char *text = NULL;

  if (!self->busy || self->offer_name == NULL)
    return;
  switch (step)
    {
    case HR_OLLAMA_REGISTRY_STEP_MANIFEST:
      /* Translators: while the registry answers; a model name, then bytes read so far ("1.2 MB") */
      text = g_strdup_printf (_("Reading the manifest of %s… %s"), self->offer_name, read);
      break;
    case HR_OLLAMA_REGISTRY_STEP_CONFIG:
      /* Translators: a model name, then bytes read so far ("1.2 MB") */
      text = g_strdup_printf (_("Reading the config blob of %s… %s"), self->offer_name, read);
      break;
    case HR_OLLAMA_REGISTRY_STEP_HEADER:
      text = range <= 1
             /* Translators: a model name, then bytes read so far ("1.2 MB") */
             ? g_strdup_printf (_("Reading the GGUF header of %s… %s"), self->offer_name, read)
             /* Translators: a model name, the HTTP Range request's number (2, 3, …), then bytes read so far */
             : g_strdup_printf (_("Reading the GGUF header of %s, part %u… %s"), self->offer_name, range, read);
      break;
    case HR_OLLAMA_REGISTRY_STEP_PROJECTOR:
      /* Translators: a model name, then bytes read so far ("1.2 MB") */
      text = g_strdup_printf (_("Reading the vision projector's GGUF header of %s… %s"), self->offer_name, read);
      break;
    case HR_OLLAMA_REGISTRY_STEP_DONE:
    default:
      /* Translators: a model name, then the bytes read ("1.2 MB") */
      text = g_strdup_printf (_("Read %2$s for %1$s"), self->offer_name, read);
      break;
    }
  gtk_label_set_text (self->busy_label, text);
}

/**
 * hr_library_lookup_look_up:
 * @self: a #HrLibraryLookup
 *
 * Looks the offered name up in the Ollama library (what "Look up NAME in
 * the Ollama library" and Enter in the search do): a spinner while the
 * registry answers, beside the request under way and the bytes read so
 * far (hr_ollama_registry_lookup_full_async()'s progress), then the model as a row of the list with exact
 * figures, or the registry's message ("NAME is not in the Ollama
 * library", a manifest without a model layer, a blob that is not GGUF, a
 * redirect loop, a stalled storage host, a header past the cap), with
 * nothing kept. Does nothing without an offer.
 */
void
hr_library_lookup_look_up (HrLibraryLookup *self)
{
  g_autofree char *busy = NULL;

  g_return_if_fail (HR_IS_LIBRARY_LOOKUP (self));

  if (self->offer_name == NULL || self->session == NULL)
    return;
  cancel (self);
  self->cancellable = g_cancellable_new ();
  show (GTK_WIDGET (self->lookup_button), FALSE);
  show (GTK_WIDGET (self->error_label), FALSE);
  /* Translators: while the registry answers; the first %s is a model name, the second the registry's URL */
  busy = g_strdup_printf (_("Reading the manifest and GGUF header of %s from %s…"),
                          self->offer_name, hr_ollama_registry_get_endpoint (hr_library_lookup_get_registry (self)));
  gtk_label_set_text (self->busy_label, busy);
  set_busy (self, TRUE);
  hr_ollama_registry_lookup_full_async (hr_library_lookup_get_registry (self), self->offer_name,
                                        on_progress, g_object_ref (self), g_object_unref,
                                        self->cancellable, on_lookup, g_object_ref (self));
}

/**
 * hr_library_lookup_add_to_catalog:
 * @self: a #HrLibraryLookup
 *
 * "Add to Catalog": the model the result is about goes into the user's
 * catalog (hr_session_add_library_to_catalog()), with its provenance
 * "ollama:MODEL:TAG@sha256:…"; an error (a catalog that could not be
 * read) is shown and the model stays looked up.
 */
void
hr_library_lookup_add_to_catalog (HrLibraryLookup *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;
  const HrModelSpec *spec;

  g_return_if_fail (HR_IS_LIBRARY_LOOKUP (self));

  if (self->result_name == NULL || self->session == NULL)
    return;
  name = g_strdup (self->result_name);
  if (!hr_session_add_library_to_catalog (self->session, name, &error))
    {
      show_error (self, error->message);
      return;
    }
  spec = hr_session_find_model (self->session, name);
  /* Translators: the model's name, then its provenance "ollama:MODEL:TAG@sha256:…" */
  text = g_strdup_printf (_("Added %1$s to the catalog, from %2$s."), name,
                          spec != NULL && spec->origin != NULL ? spec->origin : "");
  set_message (self, text);
  gtk_label_set_text (self->result_label, text);
  show (GTK_WIDGET (self->add_button), FALSE);
  show (self->result_box, TRUE);
  g_clear_pointer (&self->result_name, g_free);
}

/* ------------------------------------------------------------------ */
/* Public                                                              */

/**
 * hr_library_lookup_new:
 * @session: (nullable): where looked-up models go
 * @entry: (nullable): the search whose text is offered for lookup; its
 *   Enter looks up
 *
 * Returns: (transfer floating): a new #HrLibraryLookup
 */
GtkWidget *
hr_library_lookup_new (HrSession   *session,
                       GtkEditable *entry)
{
  HrLibraryLookup *self = g_object_new (HR_TYPE_LIBRARY_LOOKUP, "session", session, NULL);

  if (entry != NULL)
    {
      self->entry = g_object_ref (entry);
      g_signal_connect_object (entry, "changed", G_CALLBACK (on_entry_changed), self, G_CONNECT_SWAPPED);
      if (g_signal_lookup ("activate", G_OBJECT_TYPE (entry)) != 0)
        g_signal_connect_object (entry, "activate", G_CALLBACK (on_entry_activate), self, G_CONNECT_SWAPPED);
      on_entry_changed (self);
    }
  return GTK_WIDGET (self);
}

/**
 * hr_library_lookup_set_session:
 * @self: a #HrLibraryLookup
 * @session: (nullable): where looked-up models go
 */
void
hr_library_lookup_set_session (HrLibraryLookup *self,
                               HrSession       *session)
{
  g_return_if_fail (HR_IS_LIBRARY_LOOKUP (self));

  if (!g_set_object (&self->session, session))
    return;
  on_entry_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/**
 * hr_library_lookup_get_registry:
 * @self: a #HrLibraryLookup
 *
 * The registry client the lookups use: the session's, which the Board
 * page's pull check shares (hr_session_get_registry(); made on first use:
 * HEADROOM_OLLAMA_REGISTRY, else registry.ollama.ai; the cache under
 * $XDG_CACHE_HOME/headroom/); the tests set its limits.
 *
 * Returns: (transfer none): the client
 */
HrOllamaRegistry *
hr_library_lookup_get_registry (HrLibraryLookup *self)
{
  g_return_val_if_fail (HR_IS_LIBRARY_LOOKUP (self), NULL);

  return hr_session_get_registry (self->session);
}

/** hr_library_lookup_get_busy: @self: a lookup. Returns: whether a lookup is under way */
gboolean
hr_library_lookup_get_busy (HrLibraryLookup *self)
{
  g_return_val_if_fail (HR_IS_LIBRARY_LOOKUP (self), FALSE);

  return self->busy;
}

/**
 * hr_library_lookup_get_offer:
 * @self: a #HrLibraryLookup
 *
 * Returns: (nullable): the offer's text ("Look up NAME in the Ollama
 *   library") while it shows, else %NULL
 */
const char *
hr_library_lookup_get_offer (HrLibraryLookup *self)
{
  g_return_val_if_fail (HR_IS_LIBRARY_LOOKUP (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->lookup_button)) ? self->offer_text : NULL;
}

/**
 * hr_library_lookup_get_message:
 * @self: a #HrLibraryLookup
 *
 * Returns: (nullable): what the widget last said: the lookup's result, the
 *   registry's error message, or that the model was added
 */
const char *
hr_library_lookup_get_message (HrLibraryLookup *self)
{
  g_return_val_if_fail (HR_IS_LIBRARY_LOOKUP (self), NULL);

  return self->message;
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_library_lookup_dispose (GObject *object)
{
  HrLibraryLookup *self = HR_LIBRARY_LOOKUP (object);

  cancel (self);
  g_clear_object (&self->session);
  g_clear_object (&self->entry);
  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_LIBRARY_LOOKUP);

  G_OBJECT_CLASS (hr_library_lookup_parent_class)->dispose (object);
}

static void
hr_library_lookup_finalize (GObject *object)
{
  HrLibraryLookup *self = HR_LIBRARY_LOOKUP (object);

  g_free (self->offer_name);
  g_free (self->offer_text);
  g_free (self->result_name);
  g_free (self->message);

  G_OBJECT_CLASS (hr_library_lookup_parent_class)->finalize (object);
}

static void
hr_library_lookup_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  HrLibraryLookup *self = HR_LIBRARY_LOOKUP (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_library_lookup_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  HrLibraryLookup *self = HR_LIBRARY_LOOKUP (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      hr_library_lookup_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_library_lookup_class_init (HrLibraryLookupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_library_lookup_dispose;
  object_class->finalize = hr_library_lookup_finalize;
  object_class->get_property = hr_library_lookup_get_property;
  object_class->set_property = hr_library_lookup_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, HR_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/models/hr-library-lookup.ui");
  gtk_widget_class_bind_template_child (widget_class, HrLibraryLookup, lookup_button);
  gtk_widget_class_bind_template_child (widget_class, HrLibraryLookup, lookup_label);
  gtk_widget_class_bind_template_child (widget_class, HrLibraryLookup, busy_box);
  gtk_widget_class_bind_template_child (widget_class, HrLibraryLookup, spinner);
  gtk_widget_class_bind_template_child (widget_class, HrLibraryLookup, busy_label);
  gtk_widget_class_bind_template_child (widget_class, HrLibraryLookup, result_box);
  gtk_widget_class_bind_template_child (widget_class, HrLibraryLookup, result_label);
  gtk_widget_class_bind_template_child (widget_class, HrLibraryLookup, add_button);
  gtk_widget_class_bind_template_child (widget_class, HrLibraryLookup, error_label);
  gtk_widget_class_bind_template_callback (widget_class, hr_library_lookup_look_up);
  gtk_widget_class_bind_template_callback (widget_class, hr_library_lookup_add_to_catalog);
}

static void
hr_library_lookup_init (HrLibraryLookup *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
