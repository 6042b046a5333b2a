/* hr-gguf-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-cards.h"
#include "hr-mmproj.h"
#include "hr-gguf-page-private.h"
#include "hr-json.h"
#include "hr-model-facts.h"

/* Bytes read per step while hashing. */
#define HASH_CHUNK (1024 * 1024)

/* Characters of general.name kept in a catalog name. */
#define CATALOG_NAME_MAX 80

struct _HrGgufPage
{
  HrPage          parent_instance;

  GtkStack       *state_stack;
  AdwStatusPage  *loading_page;
  GtkSpinner     *spinner;
  AdwStatusPage  *error_page;
  GtkLabel       *title_label;
  GtkLabel       *path_label;
  GtkBox         *cards_box;
  HrSpecMemory   *memory;
  GtkWidget      *open_button;          /* on the intro */
  GtkWidget      *reopen_button;        /* on the error page */
  GtkWidget      *open_another_button;  /* beside a file's name */

  HrSession      *session;
  HrScenario     *scenario;
  gboolean        built;         /* the template, built on first show */
  GtkFileChooserNative *chooser;
  GCancellable   *cancellable;   /* header read and hashing of the file shown */
  HrGgufFile     *file;
  HrModelSpec    *spec;          /* origin "gguf:sha256:<hex>" once known */
  char           *digest;        /* "sha256:<hex>", or NULL while hashing */
  GTask          *hash_task;     /* while hashing */
  guint           hash_timeout;
  GtkWidget      *digest_row;
  GtkProgressBar *hash_bar;
};

G_DEFINE_FINAL_TYPE (HrGgufPage, hr_gguf_page, HR_TYPE_PAGE)

static void hr_gguf_page_session_set  (HrPage *page);
static void hr_gguf_page_scenario_set (HrPage *page);

static void ensure_built (HrGgufPage *self);

/* ------------------------------------------------------------------ */
/* Reading the header, in a thread                                     */

typedef struct {
  char        *path;
  char        *display;
  char        *blob_digest;   /* "sha256:<hex>" from an Ollama blob's name, or NULL */
  HrGgufFile  *file;
  HrModelSpec *spec;
  char        *split_problem;
  char        *projector;         /* the mmproj file beside the model, its name, or NULL */
  guint        projector_tensors;
} Header;

static void
header_free (Header *h)
{
  g_free (h->path);
  g_free (h->display);
  g_free (h->blob_digest);
  g_clear_pointer (&h->file, hr_gguf_file_unref);
  g_clear_pointer (&h->spec, hr_model_spec_free);
  g_free (h->split_problem);
  g_free (h->projector);
  g_free (h);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Header, header_free)

/* Ollama stores a model as blobs/sha256-<64 hex>: the name is the digest. */
static char *
digest_from_blob_name (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  if (!g_str_has_prefix (base, "sha256-") || strlen (base) != 7 + 64)
    return NULL;
  for (const char *p = base + 7; *p != '\0'; p++)
    if (!g_ascii_isxdigit (*p) || g_ascii_isupper (*p))
      return NULL;
  return g_strconcat ("sha256:", base + 7, NULL);
}

/* The header's general.name made safe for a catalog name
 * (hr_json_safe_text(): control characters escaped, cut at
 * CATALOG_NAME_MAX characters with an ellipsis, spaces at the ends
 * dropped), or %NULL when the header names none. */
static char *
catalog_name (HrGgufFile *file)
{
  const char *general_name = hr_gguf_file_get_string (file, "general.name");
  g_autofree char *safe = NULL;

  if (general_name == NULL)
    return NULL;
  safe = g_strstrip (hr_json_safe_text (general_name, -1, CATALOG_NAME_MAX));
  return *safe != '\0' ? g_steal_pointer (&safe) : NULL;
}

/* The projector llama.cpp's -hf would take beside @path in its folder
 * (hr_mmproj_choose_sibling()): its header's tensors become the spec's
 * projector, as Ollama counts a separate file. Nothing when the folder
 * has none or @path is a projector itself; an unreadable one is skipped. */
static void
read_sibling_projector (Header       *h,
                        GCancellable *cancellable)
{
  g_autofree char *dir = g_path_get_dirname (h->path);
  g_autofree char *base = g_path_get_basename (h->path);
  g_autoptr(GDir) folder = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *chosen = NULL;
  g_autofree char *chosen_path = NULL;
  g_autoptr(HrGgufFile) file = NULL;
  const char *name;

  if (hr_mmproj_path_is_projector (base) || (folder = g_dir_open (dir, 0, NULL)) == NULL)
    return;
  while ((name = g_dir_read_name (folder)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  chosen = hr_mmproj_choose_sibling ((const char * const *) names->pdata, names->len, base);
  if (chosen == NULL)
    return;
  chosen_path = g_build_filename (dir, chosen, NULL);
  file = hr_gguf_file_load (chosen_path, cancellable, NULL);
  if (file == NULL || hr_gguf_file_get_tensor_bytes (file) == 0)
    return;
  h->projector = g_filename_display_name (chosen);
  h->projector_tensors = hr_gguf_file_get_n_tensors (file);
  h->spec->projector_bytes = hr_gguf_file_get_tensor_bytes (file);
  g_free (h->spec->projector_source);
  h->spec->projector_source = g_strdup_printf ("%s beside the model: all its tensors "
                                               "(Ollama llm/llama_server.go mmprojMemoryRequirement)", h->projector);
}

static void
read_header_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  const char *path = task_data;
  g_autoptr(Header) h = g_new0 (Header, 1);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *origin = NULL;

  h->path = g_strdup (path);
  h->display = g_filename_display_name (path);
  h->blob_digest = digest_from_blob_name (path);

  /* A split model: the first shard holds the metadata, the others are
   * summed in (as headroom-cli gguf). */
  h->file = hr_gguf_file_load_model (path, h->display, cancellable, &h->split_problem, &error);
  if (h->file == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The catalog row is named by general.name; without one, by the file's
   * name (a blob's name is a digest: the architecture then). */
  name = catalog_name (h->file);
  if (h->blob_digest == NULL)
    {
      g_autofree char *base = g_path_get_basename (h->display);

      if (name == NULL)
        name = g_str_has_suffix (base, ".gguf") ? g_strndup (base, strlen (base) - 5) : g_strdup (base);
      origin = g_strconcat ("gguf:", path, NULL);
    }
  else
    origin = g_strconcat ("gguf:", h->blob_digest, NULL);

  h->spec = hr_gguf_file_to_model_spec (h->file, name, origin, &error);
  if (h->spec == NULL)
    {
      g_prefix_error (&error, "%s: ", h->display);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (h->blob_digest == NULL)
    read_sibling_projector (h, cancellable);
  g_task_return_pointer (task, g_steal_pointer (&h), (GDestroyNotify) header_free);
}

/* ------------------------------------------------------------------ */
/* Hashing the whole file, in a thread                                 */

typedef struct {
  char   *path;
  gint    permille;  /* atomic: progress for the bar */
} HashJob;

static void
hash_job_free (HashJob *job)
{
  g_free (job->path);
  g_free (job);
}

static void
hash_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  HashJob *job = task_data;
  g_autoptr(GFile) file = g_file_new_for_path (job->path);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *buffer = g_malloc (HASH_CHUNK);
  guint64 total, done = 0;
  gssize n;

  stream = g_file_read (file, cancellable, &error);
  if (stream == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, &error);
  if (info == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  total = (guint64) g_file_info_get_size (info);

  while ((n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, HASH_CHUNK, cancellable, &error)) > 0)
    {
      g_checksum_update (checksum, buffer, (gsize) n);
      done += (guint64) n;
      g_atomic_int_set (&job->permille, total > 0 ? (gint) MIN (1000, done * 1000 / total) : 1000);
    }
  if (n < 0)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_pointer (task, g_strconcat ("sha256:", g_checksum_get_string (checksum), NULL), g_free);
}

/* ------------------------------------------------------------------ */
/* Digest                                                              */

static void
set_origin (HrGgufPage *self)
{
  g_autofree char *origin = g_strconcat ("gguf:", self->digest, NULL);

  g_free (self->spec->origin);
  self->spec->origin = g_steal_pointer (&origin);
  hr_spec_memory_set_spec (self->memory, self->spec);
  hr_spec_memory_set_can_add (self->memory, TRUE, NULL);
}

static void
stop_hash_timeout (HrGgufPage *self)
{
  g_clear_handle_id (&self->hash_timeout, g_source_remove);
}

static gboolean
on_hash_tick (gpointer user_data)
{
  HrGgufPage *self = user_data;
  HashJob *job;
  gint permille;
  g_autofree char *text = NULL;

  if (self->hash_task == NULL || self->hash_bar == NULL)
    return G_SOURCE_CONTINUE;
  job = g_task_get_task_data (self->hash_task);
  permille = g_atomic_int_get (&job->permille);
  gtk_progress_bar_set_fraction (self->hash_bar, permille / 1000.0);
  /* Translators: the sha256 digest being computed, "computing… 42 %" */
  text = g_strdup_printf (_("computing… %d %%"), permille / 10);
  hr_model_facts_set_value (self->digest_row, text);
  return G_SOURCE_CONTINUE;
}

static void
on_hash_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(HrGgufPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *digest = g_task_propagate_pointer (G_TASK (result), &error);

  if (G_TASK (result) != self->hash_task)
    return;
  g_clear_object (&self->hash_task);
  stop_hash_timeout (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "gguf.cancel", FALSE);
  if (digest == NULL)
    {
      gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

      hr_model_facts_set_value (self->digest_row, _("not computed"));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->digest_row),
                                   cancelled ? _("Cancelled") : error->message);
      hr_spec_memory_set_can_add (self->memory, FALSE,
                                  _("The file’s digest was not computed, so it cannot be added to the catalog: open the file again to compute it."));
      if (self->hash_bar != NULL)
        gtk_widget_set_visible (GTK_WIDGET (self->hash_bar), FALSE);
      return;
    }

  self->digest = g_steal_pointer (&digest);
  if (self->hash_bar != NULL)
    gtk_widget_set_visible (GTK_WIDGET (self->hash_bar), FALSE);
  hr_model_facts_set_value (self->digest_row, self->digest + 7);
  set_origin (self);
}

static void
start_hash (HrGgufPage *self,
            const char *path)
{
  HashJob *job = g_new0 (HashJob, 1);

  job->path = g_strdup (path);
  self->hash_task = g_task_new (self, self->cancellable, on_hash_done, g_object_ref (self));
  g_task_set_source_tag (self->hash_task, start_hash);
  g_task_set_task_data (self->hash_task, job, (GDestroyNotify) hash_job_free);
  g_task_run_in_thread (self->hash_task, hash_thread);
  self->hash_timeout = g_timeout_add (100, on_hash_tick, self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "gguf.cancel", TRUE);
  hr_spec_memory_set_can_add (self->memory, FALSE,
                              _("Computing the file’s sha256 digest for the catalog row’s origin…"));
}

/* ------------------------------------------------------------------ */
/* Opening                                                             */

static void
set_busy (HrGgufPage *self,
          gboolean    busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "gguf.cancel", busy);
}

static void
show_header (HrGgufPage *self,
             Header     *h)
{
  const char *general_name = hr_gguf_file_get_string (h->file, "general.name");

  g_clear_pointer (&self->file, hr_gguf_file_unref);
  g_clear_pointer (&self->spec, hr_model_spec_free);
  g_clear_pointer (&self->digest, g_free);
  self->file = hr_gguf_file_ref (h->file);
  self->spec = hr_model_spec_copy (h->spec);
  self->digest_row = NULL;
  self->hash_bar = NULL;

  hr_model_facts_clear (self->cards_box);
  gtk_label_set_text (self->title_label, general_name ? general_name : self->spec->name);
  gtk_label_set_text (self->path_label, h->display);
  gtk_box_append (self->cards_box, hr_gguf_cards_file (h->file, h->blob_digest, &self->digest_row, &self->hash_bar));
  gtk_box_append (self->cards_box, hr_gguf_cards_model (h->file, h->spec));
  gtk_box_append (self->cards_box, hr_gguf_cards_tokenizer (h->file));
  gtk_box_append (self->cards_box, hr_gguf_cards_tensors (h->file, h->spec, h->split_problem));
  if (h->spec->projector_bytes > 0)
    gtk_box_append (self->cards_box, hr_gguf_cards_projector (h->spec, h->projector, h->projector_tensors));

  hr_spec_memory_set_spec (self->memory, self->spec);
  if (h->blob_digest != NULL)
    {
      self->digest = g_strdup (h->blob_digest);
      set_origin (self);
    }
  else
    start_hash (self, h->path);
  gtk_stack_set_visible_child_name (self->state_stack, "answer");
}

static void
on_header_read (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(HrGgufPage) self = user_data;
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(Header) h = g_task_propagate_pointer (G_TASK (result), &error);

  if (cancellable != self->cancellable || g_cancellable_is_cancelled (cancellable))
    {
      if (cancellable == self->cancellable)
        {
          set_busy (self, FALSE);
          gtk_stack_set_visible_child_name (self->state_stack, self->file != NULL ? "answer" : "intro");
        }
      return;
    }
  set_busy (self, FALSE);

  if (h == NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);

      adw_status_page_set_description (self->error_page, escaped);
      gtk_stack_set_visible_child_name (self->state_stack, "error");
      return;
    }
  show_header (self, h);
}

static void
cancel_work (HrGgufPage *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->hash_task);
  stop_hash_timeout (self);
}

/**
 * hr_gguf_page_open:
 * @self: a #HrGgufPage
 * @file: a local GGUF file
 *
 * Reads @file's header in a thread (hr_gguf_file_load(): never the tensor
 * data) and shows its facts, the memory chart and "Add to Catalog"; a file
 * that is not a usable GGUF shows the parser's message (%HR_CORE_ERROR or
 * a #GIOError naming the file). Then computes the file's sha256 in a thread
 * with a progress bar, unless the file is an Ollama blob named
 * `sha256-<hex>`, whose name is its digest; the catalog row's origin is
 * "gguf:sha256:<hex>", and "Add to Catalog" waits for it. The row is named
 * by the header's `general.name` (control characters escaped, cut at 80
 * characters with an ellipsis, hr_json_safe_text()), else by the file's name without
 * ".gguf". Whatever the page was reading or hashing before is cancelled.
 */
void
hr_gguf_page_open (HrGgufPage *self,
                   GFile      *file)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  g_autofree char *display = NULL;
  g_autofree char *title = NULL;

  g_return_if_fail (HR_IS_GGUF_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  ensure_built (self);
  cancel_work (self);
  path = g_file_get_path (file);
  if (path == NULL)
    {
      adw_status_page_set_description (self->error_page, _("Headroom reads local files only: this one has no local path."));
      gtk_stack_set_visible_child_name (self->state_stack, "error");
      return;
    }

  self->cancellable = g_cancellable_new ();
  display = g_filename_display_basename (path);
  /* Translators: while a GGUF header is read; %s is the file name */
  title = g_strdup_printf (_("Reading the Header of %s…"), display);
  adw_status_page_set_title (self->loading_page, title);
  set_busy (self, TRUE);
  gtk_stack_set_visible_child_name (self->state_stack, "loading");

  task = g_task_new (self, self->cancellable, on_header_read, g_object_ref (self));
  g_task_set_source_tag (task, hr_gguf_page_open);
  g_task_set_task_data (task, g_steal_pointer (&path), g_free);
  g_task_run_in_thread (task, read_header_thread);
}

/**
 * hr_gguf_page_cancel:
 * @self: a #HrGgufPage
 *
 * Stops reading a header or hashing a file. A cancelled hash leaves the
 * facts shown and "Add to Catalog" off (there is no digest to record).
 */
void
hr_gguf_page_cancel (HrGgufPage *self)
{
  g_return_if_fail (HR_IS_GGUF_PAGE (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  hr_gguf_page_cancel (HR_GGUF_PAGE (widget));
}

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     HrGgufPage      *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        hr_gguf_page_open (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);
}

/**
 * hr_gguf_page_choose_file:
 * @self: a #HrGgufPage
 * @parent: (nullable): the window the chooser is modal for
 *
 * Asks for a GGUF file with a #GtkFileChooserNative (GGUF files, or any
 * file: Ollama's blobs have no extension) and opens it with
 * hr_gguf_page_open().
 */
void
hr_gguf_page_choose_file (HrGgufPage *self,
                          GtkWindow  *parent)
{
  g_autoptr(GtkFileFilter) gguf = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) any = gtk_file_filter_new ();

  g_return_if_fail (HR_IS_GGUF_PAGE (self));

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }
  self->chooser = gtk_file_chooser_native_new (_("Open GGUF File"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_filter_set_name (gguf, _("GGUF files"));
  gtk_file_filter_add_pattern (gguf, "*.gguf");
  gtk_file_filter_add_pattern (gguf, "sha256-*");
  gtk_file_filter_set_name (any, _("All files"));
  gtk_file_filter_add_pattern (any, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), gguf);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), any);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_gguf_page_dispose (GObject *object)
{
  HrGgufPage *self = HR_GGUF_PAGE (object);

  cancel_work (self);
  if (self->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->chooser, on_chooser_response, self);
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }

  G_OBJECT_CLASS (hr_gguf_page_parent_class)->dispose (object);
}

static void
hr_gguf_page_finalize (GObject *object)
{
  HrGgufPage *self = HR_GGUF_PAGE (object);

  g_clear_pointer (&self->file, hr_gguf_file_unref);
  g_clear_pointer (&self->spec, hr_model_spec_free);
  g_clear_pointer (&self->digest, g_free);

  G_OBJECT_CLASS (hr_gguf_page_parent_class)->finalize (object);
}

/* The page's widgets, built the first time it is shown (or used): a page
 * the window opens on another tab costs nothing at start-up. */
static void
ensure_built (HrGgufPage *self)
{
  if (self->built)
    return;
  self->built = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));
}

static void
hr_gguf_page_map (GtkWidget *widget)
{
  ensure_built (HR_GGUF_PAGE (widget));
  GTK_WIDGET_CLASS (hr_gguf_page_parent_class)->map (widget);
}

static void
hr_gguf_page_class_init (HrGgufPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrPageClass *page_class = HR_PAGE_CLASS (klass);

  object_class->dispose = hr_gguf_page_dispose;
  object_class->finalize = hr_gguf_page_finalize;
  page_class->session_set = hr_gguf_page_session_set;
  page_class->scenario_set = hr_gguf_page_scenario_set;
  widget_class->map = hr_gguf_page_map;


  g_type_ensure (HR_TYPE_SPEC_MEMORY);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroom/Headroom/gguf/hr-gguf-page.ui");
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, state_stack);
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, loading_page);
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, path_label);
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, cards_box);
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, memory);
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, open_button);
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, reopen_button);
  gtk_widget_class_bind_template_child (widget_class, HrGgufPage, open_another_button);

  gtk_widget_class_install_action (widget_class, "gguf.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "gguf.cancel", NULL);
}

static void
hr_gguf_page_init (HrGgufPage *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "gguf.cancel", FALSE);
}

/**
 * hr_gguf_page_new:
 *
 * Returns: (transfer floating): a new #HrGgufPage
 */
GtkWidget *
hr_gguf_page_new (void)
{
  return g_object_new (HR_TYPE_GGUF_PAGE, NULL);
}

static void
hr_gguf_page_session_set (HrPage *page)
{
  HR_GGUF_PAGE (page)->session = hr_page_get_session (page);
}

/* The memory cards are computed under the scenario, and "Add to Catalog"
 * adds to its session. */
static void
hr_gguf_page_scenario_set (HrPage *page)
{
  HrGgufPage *self = HR_GGUF_PAGE (page);

  /* The memory card takes it through the template's binding. */
  self->scenario = hr_page_get_scenario (page);
}

/**
 * hr_gguf_page_get_state:
 * @self: a #HrGgufPage
 *
 * Returns: "intro", "loading", "error" or "answer"
 */
const char *
hr_gguf_page_get_state (HrGgufPage *self)
{
  g_return_val_if_fail (HR_IS_GGUF_PAGE (self), NULL);
  ensure_built (self);

  return gtk_stack_get_visible_child_name (self->state_stack);
}

/**
 * hr_gguf_page_get_digest:
 * @self: a #HrGgufPage
 *
 * Returns: (nullable): the file's digest, "sha256:<64 hex>", or %NULL
 *   while it is computed (or when it could not be)
 */
const char *
hr_gguf_page_get_digest (HrGgufPage *self)
{
  g_return_val_if_fail (HR_IS_GGUF_PAGE (self), NULL);

  return self->digest;
}

/**
 * hr_gguf_page_is_hashing:
 * @self: a #HrGgufPage
 *
 * Returns: %TRUE while the file's sha256 is being computed
 */
gboolean
hr_gguf_page_is_hashing (HrGgufPage *self)
{
  g_return_val_if_fail (HR_IS_GGUF_PAGE (self), FALSE);

  return self->hash_task != NULL;
}

/**
 * hr_gguf_page_get_spec:
 * @self: a #HrGgufPage
 *
 * Returns: (transfer none) (nullable): the model the file describes
 */
const HrModelSpec *
hr_gguf_page_get_spec (HrGgufPage *self)
{
  g_return_val_if_fail (HR_IS_GGUF_PAGE (self), NULL);

  return self->spec;
}

/**
 * hr_gguf_page_get_cards:
 * @self: a #HrGgufPage
 *
 * Returns: (transfer none): the box of fact cards
 */
GtkWidget *
hr_gguf_page_get_cards (HrGgufPage *self)
{
  g_return_val_if_fail (HR_IS_GGUF_PAGE (self), NULL);
  ensure_built (self);

  return GTK_WIDGET (self->cards_box);
}

/**
 * hr_gguf_page_get_error_page:
 * @self: a #HrGgufPage
 *
 * Returns: (transfer none): the status page a bad file shows
 */
AdwStatusPage *
hr_gguf_page_get_error_page (HrGgufPage *self)
{
  g_return_val_if_fail (HR_IS_GGUF_PAGE (self), NULL);
  ensure_built (self);

  return self->error_page;
}

/**
 * hr_gguf_page_get_memory:
 * @self: a #HrGgufPage
 *
 * Returns: (transfer none): the memory chart, sliders and Add to Catalog
 */
HrSpecMemory *
hr_gguf_page_get_memory (HrGgufPage *self)
{
  g_return_val_if_fail (HR_IS_GGUF_PAGE (self), NULL);
  ensure_built (self);

  return self->memory;
}

/**
 * hr_gguf_page_focus_open:
 * @self: a #HrGgufPage
 *
 * Moves the keyboard focus to the page's button that opens a file (the
 * intro's "Open GGUF File…", the error page's "Open Another File…" or the
 * "Open…" beside the file shown), so Enter opens the file chooser.
 */
void
hr_gguf_page_focus_open (HrGgufPage *self)
{
  const char *state;

  g_return_if_fail (HR_IS_GGUF_PAGE (self));
  ensure_built (self);

  state = gtk_stack_get_visible_child_name (self->state_stack);
  if (g_strcmp0 (state, "error") == 0)
    gtk_widget_grab_focus (self->reopen_button);
  else if (g_strcmp0 (state, "answer") == 0)
    gtk_widget_grab_focus (self->open_another_button);
  else
    gtk_widget_grab_focus (self->open_button);
}
