/* hr-board-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#ifdef HAVE_LIBSECRET
#include <libsecret/secret.h>
#endif

#include "hr-board-page.h"
#include "hr-evaluate.h"
#include "hr-gui-format.h"
#include "hr-measure-window.h"
#include "hr-ollama-host.h"
#include "hr-units.h"
#include "hr-models-page-private.h"
#include "hr-window.h"

/*
 * Every call to the server is asynchronous and cancellable; a callback holds
 * a reference on the page and does nothing once the page is disposed or the
 * call was cancelled (cancelling is not an error to show). The lists are
 * refreshed by a timer that runs only while the page is mapped, i.e. while
 * it is the visible page of the window's stack.
 */

/** TOKEN_SCHEMA_NAME: the libsecret schema the tokens are stored under, keyed by URL. */
#define TOKEN_SCHEMA_NAME "io.github.headroom.Headroom.OllamaToken"
/** KEYRING_TIMEOUT_SECONDS: the keyring may need D-Bus activation; connect without it after this. */
#define KEYRING_TIMEOUT_SECONDS 5

struct _HrBoardPage
{
  AdwBin               parent_instance;

  /* template */
  AdwComboRow         *saved_row;
  GtkStringList       *saved_list;
  AdwEntryRow         *url_row;
  AdwPasswordEntryRow *token_row;
  AdwActionRow        *status_row;
  GtkImage            *status_icon;
  GtkSpinner          *busy_spinner;
  GtkLabel            *token_note;
  GtkRevealer         *error_revealer;
  GtkLabel            *error_label;
  GtkStack            *content_stack;
  AdwStatusPage       *status_page;
  GtkListBox          *models_list;
  GtkListBox          *loaded_list;
  AdwEntryRow         *pull_row;
  GtkSpinButton       *size_spin;
  GtkLabel            *check_label;
  GtkRevealer         *pull_revealer;
  GtkProgressBar      *pull_bar;
  GtkLabel            *pull_status_label;
  GtkLabel            *pull_layer_label;
  GtkLabel            *pull_note_label;
  AdwComboRow         *chat_model_row;
  GtkStringList       *chat_models;
  AdwEntryRow         *system_row;
  GtkSpinButton       *temperature_spin;
  GtkSpinButton       *seed_spin;
  AdwEntryRow         *message_row;
  GtkBox              *reply_box;
  GtkLabel            *reply_label;
  GtkLabel            *rates_label;

  GSettings           *settings;
  HrModelsPage        *models_page;      /* weak */

  HrOllamaClient      *client;
  char                *url;              /* the client's normalised URL */
  char                *version;          /* NULL until connected */
  GPtrArray           *models;           /* HrOllamaModel* (/api/tags) */
  GPtrArray           *loaded;           /* HrOllamaLoaded* (/api/ps) */
  char                *models_key;       /* names the rows were built for */
  char                *loaded_key;
  char                *error;            /* what the error banner says, or NULL */
  GHashTable          *session_tokens;   /* URL -> token, this session only */
  gboolean             use_keyring;
  gboolean             keyring_unavailable;
  GCancellable        *keyring_cancellable;
  guint                keyring_timeout;
  gboolean             keyring_timed_out;
  GPtrArray           *messages;         /* every toast the page raised */

  GCancellable        *connect_cancellable;
  GCancellable        *refresh_cancellable;
  guint                refresh_pending;
  gboolean             refresh_failed;
  guint                refresh_source;
  gboolean             auto_connected;
  GCancellable        *action_cancellable;
  guint                actions_pending;

  GCancellable        *pull_cancellable;
  char                *pull_model;
  char                *check_text;
  char                *pull_note;
  double               pull_fraction;

  GCancellable        *chat_cancellable;
  JsonArray           *history;          /* user and assistant turns */
  GString             *reply;

  GtkWindow           *measure_window;   /* weak */
  gboolean             disposed;
};

G_DEFINE_FINAL_TYPE (HrBoardPage, hr_board_page, ADW_TYPE_BIN)

static void refresh (HrBoardPage *self);
static void update_actions (HrBoardPage *self);

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static gboolean
is_cancelled (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
cancel_and_clear (GCancellable **cancellable)
{
  if (*cancellable != NULL)
    g_cancellable_cancel (*cancellable);
  g_clear_object (cancellable);
}

static void
toast (HrBoardPage *self,
       const char  *message)
{
  GtkWidget *window = gtk_widget_get_ancestor (GTK_WIDGET (self), HR_TYPE_WINDOW);

  g_ptr_array_add (self->messages, g_strdup (message));
  if (window != NULL)
    hr_window_add_toast (HR_WINDOW (window), message);
}

static void
set_label (GtkLabel   *label,
           const char *text)
{
  gtk_label_set_text (label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
}

static void
set_reply (HrBoardPage *self,
           const char  *text)
{
  gtk_label_set_text (self->reply_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->reply_box), text != NULL && *text != '\0');
}

static void
show_error (HrBoardPage *self,
            const char  *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
  /* A hidden revealer would still take the box's spacing. */
  gtk_widget_set_visible (GTK_WIDGET (self->error_revealer), message != NULL);
}

static HrModelsPage *
models_page (HrBoardPage *self)
{
  GtkWidget *window;

  if (self->models_page != NULL)
    return self->models_page;
  window = gtk_widget_get_ancestor (GTK_WIDGET (self), HR_TYPE_WINDOW);
  return window != NULL ? hr_window_get_models_page (HR_WINDOW (window)) : NULL;
}

/* The board the Models page has chosen: measurements are filed under it
 * and the pull check uses its budget. */
static const char *
board_id (HrBoardPage *self)
{
  HrModelsPage *page = models_page (self);
  const HrEvaluationInputs *scenario = page != NULL ? hr_models_page_get_scenario (page) : NULL;

  if (scenario == NULL || scenario->board == NULL || scenario->board->id == NULL)
    return "unknown";
  return scenario->board->id;
}

static HrModelRow *
find_catalog_row (HrBoardPage *self,
                  const char  *name)
{
  HrModelsPage *page = models_page (self);
  HrModelRow *row;

  if (page == NULL || name == NULL)
    return NULL;
  row = hr_models_page_find_row (page, name);
  if (row == NULL && g_str_has_suffix (name, ":latest"))
    {
      g_autofree char *bare = g_strndup (name, strlen (name) - strlen (":latest"));
      row = hr_models_page_find_row (page, bare);
    }
  else if (row == NULL && strrchr (name, ':') == NULL)
    {
      g_autofree char *tagged = g_strconcat (name, ":latest", NULL);
      row = hr_models_page_find_row (page, tagged);
    }
  return row;
}

static char *
format_modified (const char *iso)
{
  g_autoptr(GDateTime) when = NULL;
  g_autoptr(GDateTime) local = NULL;

  if (iso == NULL || *iso == '\0')
    return g_strdup (_("unknown"));
  when = g_date_time_new_from_iso8601 (iso, NULL);
  if (when == NULL)
    return g_strdup (iso);
  local = g_date_time_to_local (when);
  return g_date_time_format (local, "%Y-%m-%d %H:%M");
}

/* ------------------------------------------------------------------ */
/* The lists                                                           */

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

static GtkWidget *
empty_row (const char *title,
                 const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *t = g_markup_escape_text (title, -1);
  g_autofree char *s = g_markup_escape_text (subtitle, -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), t);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), s);
  gtk_widget_add_css_class (row, "dim-label");
  return row;
}

static char *
model_subtitle (const HrOllamaModel *model)
{
  g_autofree char *size = hr_ollama_format_size (model->size);
  g_autofree char *modified = format_modified (model->modified_at);

  /* Translators: a model on the board: size, parameters, quantization, family, when it was modified */
  return g_strdup_printf (_("%1$s · %2$s parameters · %3$s · %4$s · modified %5$s"),
                          size,
                          model->parameter_size ? model->parameter_size : _("unknown"),
                          model->quantization_level ? model->quantization_level : _("unknown"),
                          model->family ? model->family : _("unknown"),
                          modified);
}

static char *
loaded_subtitle (const HrOllamaLoaded *loaded)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *size = hr_ollama_format_size (loaded->size);
  g_autofree char *vram = hr_ollama_format_size (loaded->size_vram);
  g_autofree char *processor = hr_ollama_format_processor (loaded->size, loaded->size_vram);
  g_autofree char *until = hr_ollama_format_until (loaded->expires_at, now);
  g_autofree char *context = NULL;

  if (loaded->context_length > 0)
    context = hr_format_count (loaded->context_length);
  else
    context = g_strdup (_("not reported"));

  /* Translators: a loaded model: its size, the part on the GPU, the CPU/GPU split
   * as `ollama ps` prints it, num_ctx, and when it unloads */
  return g_strdup_printf (_("%1$s, %2$s on the GPU (%3$s) · context %4$s tokens · until: %5$s"),
                          size, vram, processor, context, until);
}

static void
set_row_text (AdwActionRow *row,
              const char   *title,
              const char   *subtitle)
{
  g_autofree char *t = g_markup_escape_text (title, -1);
  g_autofree char *s = g_markup_escape_text (subtitle, -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), t);
  adw_action_row_set_subtitle (row, s);
}

static GtkWidget *
action_button (const char *label,
               const char *action,
               const char *model,
               const char *accessible)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_string (model));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  return button;
}

static GtkWidget *
model_row_new (const HrOllamaModel *model)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *subtitle = model_subtitle (model);
  g_autofree char *measure_a11y = g_strdup_printf (_("Measure %s"), model->name);
  g_autofree char *more_a11y = g_strdup_printf (_("More actions for %s"), model->name);
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuItem) add = g_menu_item_new (_("_Add to Catalog"), NULL);
  g_autoptr(GMenuItem) unload = g_menu_item_new (_("_Unload"), NULL);
  g_autoptr(GMenuItem) delete = g_menu_item_new (_("_Delete…"), NULL);
  GtkWidget *more;

  set_row_text (ADW_ACTION_ROW (row), model->name, subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             action_button (_("_Measure…"), "board.measure", model->name, measure_a11y));

  g_menu_item_set_action_and_target_value (add, "board.add-to-catalog", g_variant_new_string (model->name));
  g_menu_item_set_action_and_target_value (unload, "board.unload", g_variant_new_string (model->name));
  g_menu_item_set_action_and_target_value (delete, "board.delete", g_variant_new_string (model->name));
  g_menu_append_item (menu, add);
  g_menu_append_item (menu, unload);
  g_menu_append_item (menu, delete);

  more = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (more), "view-more-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (more), G_MENU_MODEL (menu));
  gtk_widget_set_valign (more, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (more, more_a11y);
  gtk_widget_add_css_class (more, "flat");
  gtk_accessible_update_property (GTK_ACCESSIBLE (more),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, more_a11y,
                                  -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), more);
  return row;
}

static GtkWidget *
loaded_row_new (const HrOllamaLoaded *loaded)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *subtitle = loaded_subtitle (loaded);
  g_autofree char *a11y = g_strdup_printf (_("Unload %s"), loaded->name);

  set_row_text (ADW_ACTION_ROW (row), loaded->name, subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             action_button (_("_Unload"), "board.unload", loaded->name, a11y));
  return row;
}

static char *
names_key (GPtrArray *items,
           gsize      name_offset)
{
  GString *key = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    {
      const char *name = G_STRUCT_MEMBER (const char *, g_ptr_array_index (items, i), name_offset);
      g_string_append (key, name ? name : "");
      g_string_append_c (key, '\n');
    }
  return g_string_free (key, FALSE);
}

static void
update_models_list (HrBoardPage *self)
{
  g_autofree char *key = names_key (self->models, G_STRUCT_OFFSET (HrOllamaModel, name));
  guint selected = adw_combo_row_get_selected (self->chat_model_row);
  g_autofree char *chat_model = NULL;

  if (selected != GTK_INVALID_LIST_POSITION &&
      selected < g_list_model_get_n_items (G_LIST_MODEL (self->chat_models)))
    chat_model = g_strdup (gtk_string_list_get_string (self->chat_models, selected));

  if (g_strcmp0 (key, self->models_key) == 0 && self->models->len > 0)
    {
      /* Same models: update the rows in place, so focus and open menus stay. */
      GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->models_list));

      for (guint i = 0; i < self->models->len && child != NULL; i++)
        {
          const HrOllamaModel *model = g_ptr_array_index (self->models, i);
          g_autofree char *subtitle = model_subtitle (model);

          set_row_text (ADW_ACTION_ROW (child), model->name, subtitle);
          child = gtk_widget_get_next_sibling (child);
        }
      return;
    }

  g_free (self->models_key);
  self->models_key = g_steal_pointer (&key);
  clear_list (self->models_list);
  if (self->models->len == 0)
    gtk_list_box_append (self->models_list,
                         empty_row (_("No models on this board"),
                                          _("Pull one below; `ollama pull` on the board works too.")));
  for (guint i = 0; i < self->models->len; i++)
    gtk_list_box_append (self->models_list, model_row_new (g_ptr_array_index (self->models, i)));

  /* The chat's model choice follows the board's models. */
  gtk_string_list_splice (self->chat_models, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->chat_models)), NULL);
  selected = 0;
  for (guint i = 0; i < self->models->len; i++)
    {
      const HrOllamaModel *model = g_ptr_array_index (self->models, i);

      gtk_string_list_append (self->chat_models, model->name);
      if (g_strcmp0 (model->name, chat_model) == 0)
        selected = i;
    }
  if (self->models->len > 0)
    adw_combo_row_set_selected (self->chat_model_row, selected);
  update_actions (self);
}

static void
update_loaded_list (HrBoardPage *self)
{
  g_autofree char *key = names_key (self->loaded, G_STRUCT_OFFSET (HrOllamaLoaded, name));

  if (g_strcmp0 (key, self->loaded_key) == 0 && self->loaded->len > 0)
    {
      GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->loaded_list));

      for (guint i = 0; i < self->loaded->len && child != NULL; i++)
        {
          const HrOllamaLoaded *loaded = g_ptr_array_index (self->loaded, i);
          g_autofree char *subtitle = loaded_subtitle (loaded);

          set_row_text (ADW_ACTION_ROW (child), loaded->name, subtitle);
          child = gtk_widget_get_next_sibling (child);
        }
      return;
    }

  g_free (self->loaded_key);
  self->loaded_key = g_steal_pointer (&key);
  clear_list (self->loaded_list);
  if (self->loaded->len == 0)
    gtk_list_box_append (self->loaded_list,
                         empty_row (_("Nothing is loaded"),
                                          _("A model loads when it is first asked for, or when it is measured.")));
  for (guint i = 0; i < self->loaded->len; i++)
    gtk_list_box_append (self->loaded_list, loaded_row_new (g_ptr_array_index (self->loaded, i)));
}

/* ------------------------------------------------------------------ */
/* Refreshing                                                          */

static void
refresh_done (HrBoardPage *self)
{
  if (--self->refresh_pending > 0)
    return;
  g_clear_object (&self->refresh_cancellable);
  if (!self->refresh_failed)
    show_error (self, NULL);
  update_actions (self);
}

static void
on_tags (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(HrBoardPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = hr_ollama_client_tags_finish (HR_OLLAMA_CLIENT (source), result, &error);

  if (self->disposed || is_cancelled (error))
    return;
  if (models == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not list the models on the board: %s"),
                                                  error->message);
      self->refresh_failed = TRUE;
      show_error (self, message);
    }
  else
    {
      g_ptr_array_unref (self->models);
      self->models = g_steal_pointer (&models);
      update_models_list (self);
    }
  refresh_done (self);
}

static void
on_ps (GObject      *source,
       GAsyncResult *result,
       gpointer      user_data)
{
  g_autoptr(HrBoardPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) loaded = hr_ollama_client_ps_finish (HR_OLLAMA_CLIENT (source), result, &error);

  if (self->disposed || is_cancelled (error))
    return;
  if (loaded == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not read what is loaded (/api/ps): %s"),
                                                  error->message);
      self->refresh_failed = TRUE;
      show_error (self, message);
    }
  else
    {
      g_ptr_array_unref (self->loaded);
      self->loaded = g_steal_pointer (&loaded);
      update_loaded_list (self);
    }
  refresh_done (self);
}

static void
refresh (HrBoardPage *self)
{
  if (self->client == NULL || self->version == NULL || self->refresh_pending > 0)
    return;

  self->refresh_cancellable = g_cancellable_new ();
  self->refresh_pending = 2;
  self->refresh_failed = FALSE;
  hr_ollama_client_tags_async (self->client, self->refresh_cancellable, on_tags, g_object_ref (self));
  hr_ollama_client_ps_async (self->client, self->refresh_cancellable, on_ps, g_object_ref (self));
  update_actions (self);
}

static gboolean
on_refresh_timeout (gpointer user_data)
{
  refresh (HR_BOARD_PAGE (user_data));
  return G_SOURCE_CONTINUE;
}

static void
start_timer (HrBoardPage *self)
{
  if (self->refresh_source != 0 || self->version == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  self->refresh_source = g_timeout_add_seconds (HR_BOARD_PAGE_REFRESH_SECONDS, on_refresh_timeout, self);
}

static void
stop_timer (HrBoardPage *self)
{
  g_clear_handle_id (&self->refresh_source, g_source_remove);
}

/* ------------------------------------------------------------------ */
/* Saved servers                                                       */

static void
load_saved (HrBoardPage *self)
{
  g_autoptr(GVariant) boards = g_settings_get_value (self->settings, "ollama-boards");
  GVariantIter iter;
  const char *id, *url;
  guint selected = GTK_INVALID_LIST_POSITION;
  guint n = 0;

  /* Refilling the list moves the selection: that is not the person choosing. */
  g_signal_handlers_block_matched (self->saved_row, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_string_list_splice (self->saved_list, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->saved_list)), NULL);
  g_variant_iter_init (&iter, boards);
  while (g_variant_iter_next (&iter, "(&s&s)", &id, &url))
    {
      gtk_string_list_append (self->saved_list, url);
      if (g_strcmp0 (url, self->url) == 0)
        selected = n;
      n++;
    }
  adw_combo_row_set_selected (self->saved_row, selected);
  g_signal_handlers_unblock_matched (self->saved_row, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  /* One saved server is the one in the URL row: offer a choice from two. */
  gtk_widget_set_visible (GTK_WIDGET (self->saved_row), n > 1);
}

#ifdef HAVE_LIBSECRET
static gboolean
is_saved (HrBoardPage *self,
          const char  *url)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->saved_list));

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->saved_list, i), url) == 0)
      return TRUE;
  return FALSE;
}
#endif

static void
save_server (HrBoardPage *self)
{
  g_autoptr(GVariant) old = g_settings_get_value (self->settings, "ollama-boards");
  GVariantBuilder builder;
  GVariantIter iter;
  const char *id, *url;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ss)"));
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "(&s&s)", &id, &url))
    if (g_strcmp0 (url, self->url) != 0)
      g_variant_builder_add (&builder, "(ss)", id, url);
  g_variant_builder_add (&builder, "(ss)", board_id (self), self->url);
  g_settings_set_value (self->settings, "ollama-boards", g_variant_builder_end (&builder));
  g_settings_set_string (self->settings, "last-ollama-board", self->url);
  load_saved (self);
}

/* ------------------------------------------------------------------ */
/* The token: the keyring when there is one, else this session's memory */

#ifdef HAVE_LIBSECRET
static const SecretSchema *
token_schema (void)
{
  static const SecretSchema schema = {
    TOKEN_SCHEMA_NAME, SECRET_SCHEMA_NONE,
    {
      { "url", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    },
  };
  return &schema;
}
#endif

/* Said only once a token is in use: without one the keyring does not matter. */
static void
say_keyring_unavailable (HrBoardPage *self)
{
  const char *typed = gtk_editable_get_text (GTK_EDITABLE (self->token_row));

  self->keyring_unavailable = TRUE;
  if (g_hash_table_size (self->session_tokens) > 0 || (typed != NULL && *typed != '\0'))
    set_label (self->token_note,
               _("The keyring is not available: the token is kept in memory until Headroom closes, and asked for again next time."));
}

#ifdef HAVE_LIBSECRET
static void
on_token_stored (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(HrBoardPage) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!secret_password_store_finish (result, &error) && !is_cancelled (error) && !self->disposed)
    say_keyring_unavailable (self);
}
#endif

static void
remember_token (HrBoardPage *self,
                const char  *token)
{
  g_hash_table_replace (self->session_tokens, g_strdup (self->url), g_strdup (token));
#ifdef HAVE_LIBSECRET
  if (self->keyring_unavailable || !self->use_keyring)
    say_keyring_unavailable (self);
  else
    {
      g_autofree char *label = g_strdup_printf (_("Ollama token for %s"), self->url);

      secret_password_store (token_schema (), SECRET_COLLECTION_DEFAULT, label, token,
                             self->connect_cancellable, on_token_stored, g_object_ref (self),
                             "url", self->url, NULL);
    }
#else
  say_keyring_unavailable (self);
#endif
}

/* ------------------------------------------------------------------ */
/* Connecting                                                          */

static void
set_busy (HrBoardPage *self,
          gboolean     busy)
{
  gtk_spinner_set_spinning (self->busy_spinner, busy);
}

static void
show_disconnected (HrBoardPage *self,
                   const char  *title,
                   const char  *message)
{
  g_clear_pointer (&self->version, g_free);
  stop_timer (self);
  adw_status_page_set_title (self->status_page, title);
  adw_status_page_set_description (self->status_page, message);
  adw_status_page_set_icon_name (self->status_page, "network-offline-symbolic");
  gtk_image_set_from_icon_name (self->status_icon, "network-offline-symbolic");
  adw_action_row_set_subtitle (self->status_row, _("Not connected"));
  gtk_stack_set_visible_child_name (self->content_stack, "disconnected");
  show_error (self, NULL);
  g_free (self->error);
  self->error = g_strdup (message);
  update_actions (self);
}

static void
on_version (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(HrBoardPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *version = hr_ollama_client_version_finish (HR_OLLAMA_CLIENT (source), result, &error);
  g_autofree char *subtitle = NULL;

  if (self->disposed || is_cancelled (error))
    return;
  g_clear_object (&self->connect_cancellable);
  set_busy (self, FALSE);

  if (version == NULL)
    {
      show_disconnected (self, _("Could Not Connect"), error->message);
      return;
    }

  self->version = g_steal_pointer (&version);
  /* Translators: the server's version and its URL: "Ollama 0.31.2 at http://10.0.0.5:11434" */
  subtitle = g_strdup_printf (_("Ollama %s at %s"), self->version, self->url);
  adw_action_row_set_subtitle (self->status_row, subtitle);
  gtk_image_set_from_icon_name (self->status_icon, "network-server-symbolic");
  gtk_stack_set_visible_child_name (self->content_stack, "connected");
  show_error (self, NULL);
  save_server (self);
  refresh (self);
  start_timer (self);
}

static void
connect_now (HrBoardPage *self)
{
  hr_ollama_client_version_async (self->client, self->connect_cancellable, on_version, g_object_ref (self));
}

#ifdef HAVE_LIBSECRET
static gboolean
on_keyring_timeout (gpointer user_data)
{
  HrBoardPage *self = user_data;

  self->keyring_timeout = 0;
  self->keyring_timed_out = TRUE;
  g_cancellable_cancel (self->keyring_cancellable);
  return G_SOURCE_REMOVE;
}

static void
cancel_keyring (HrBoardPage *self)
{
  g_clear_handle_id (&self->keyring_timeout, g_source_remove);
  self->keyring_timed_out = FALSE;
  cancel_and_clear (&self->keyring_cancellable);
}

static void
on_token_looked_up (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(HrBoardPage) self = user_data;
  g_autoptr(GError) error = NULL;
  char *token = secret_password_lookup_finish (result, &error);

  if (self->disposed || (is_cancelled (error) && !self->keyring_timed_out))
    {
      secret_password_free (token);
      return;
    }
  g_clear_handle_id (&self->keyring_timeout, g_source_remove);
  g_clear_object (&self->keyring_cancellable);
  self->keyring_timed_out = FALSE;
  if (error != NULL)
    say_keyring_unavailable (self);
  if (token != NULL)
    {
      hr_ollama_client_set_token (self->client, token);
      g_hash_table_replace (self->session_tokens, g_strdup (self->url), g_strdup (token));
      gtk_editable_set_text (GTK_EDITABLE (self->token_row), token);
      secret_password_free (token);
    }
  connect_now (self);
}
#endif

/**
 * hr_board_page_connect:
 * @self: a #HrBoardPage
 * @url: (nullable): the server as a person types it ("10.0.0.5:11434",
 *   "board.local", "https://proxy/ollama"); %NULL for what the URL row holds
 *
 * Normalises @url the way Ollama's own clients do (ollama-api.md, "Known
 * quirks"), shows the normalised URL, and asks the server for its version;
 * once it answers, the server is saved (URL only, in the `ollama-boards`
 * setting) and the lists are read. The token in the token row, when there
 * is one, is sent as a bearer token and kept in the keyring (or, without
 * one, in memory for the session); never in the settings. Whatever fails
 * is said on the page in the client's words.
 */
void
hr_board_page_connect (HrBoardPage *self,
                       const char  *url)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *normalized = NULL;
  g_autoptr(HrOllamaClient) client = NULL;
  const char *token;
  const char *remembered;

  g_return_if_fail (HR_IS_BOARD_PAGE (self));

  if (url == NULL)
    url = gtk_editable_get_text (GTK_EDITABLE (self->url_row));

  normalized = hr_ollama_host_normalize (url, &error);
  if (normalized != NULL)
    client = hr_ollama_client_new (normalized, &error);
  if (client == NULL)
    {
      show_disconnected (self, _("Not a Server Address"), error->message);
      return;
    }

  /* Drop everything that belongs to the previous server. */
#ifdef HAVE_LIBSECRET
  cancel_keyring (self);
#endif
  cancel_and_clear (&self->connect_cancellable);
  cancel_and_clear (&self->refresh_cancellable);
  cancel_and_clear (&self->chat_cancellable);
  cancel_and_clear (&self->pull_cancellable);
  self->refresh_pending = 0;
  stop_timer (self);
  g_clear_pointer (&self->version, g_free);
  g_ptr_array_set_size (self->models, 0);
  g_ptr_array_set_size (self->loaded, 0);
  g_clear_pointer (&self->models_key, g_free);
  g_clear_pointer (&self->loaded_key, g_free);
  if (self->history != NULL)
    json_array_unref (self->history);
  self->history = json_array_new ();

  g_set_object (&self->client, client);
  g_free (self->url);
  self->url = g_strdup (normalized);
  gtk_editable_set_text (GTK_EDITABLE (self->url_row), normalized);
  adw_action_row_set_subtitle (self->status_row, _("Connecting…"));
  set_busy (self, TRUE);
  self->connect_cancellable = g_cancellable_new ();

  token = gtk_editable_get_text (GTK_EDITABLE (self->token_row));
  remembered = g_hash_table_lookup (self->session_tokens, normalized);
  if (token != NULL && *token != '\0')
    {
      hr_ollama_client_set_token (self->client, token);
      if (g_strcmp0 (token, remembered) != 0)
        remember_token (self, token);
    }
  else if (remembered != NULL)
    {
      hr_ollama_client_set_token (self->client, remembered);
    }
#ifdef HAVE_LIBSECRET
  else if (is_saved (self, normalized) && self->use_keyring && !self->keyring_unavailable)
    {
      /* A server connected to before may have a token in the keyring. */
      self->keyring_cancellable = g_cancellable_new ();
      self->keyring_timeout = g_timeout_add_seconds (KEYRING_TIMEOUT_SECONDS, on_keyring_timeout, self);
      secret_password_lookup (token_schema (), self->keyring_cancellable, on_token_looked_up,
                              g_object_ref (self), "url", normalized, NULL);
      update_actions (self);
      return;
    }
#endif

  update_actions (self);
  connect_now (self);
}

/* A saved server belongs to the board it was saved with: choose that board
 * on the Models page, so the pull check and the archive use it. */
static void
select_saved_board (HrBoardPage *self,
                    const char  *url)
{
  HrModelsPage *page = models_page (self);
  g_autoptr(GVariant) saved = g_settings_get_value (self->settings, "ollama-boards");
  GVariantIter iter;
  const char *id, *saved_url;
  GPtrArray *boards;

  if (page == NULL)
    return;
  boards = hr_models_page_get_boards (page);
  g_variant_iter_init (&iter, saved);
  while (g_variant_iter_next (&iter, "(&s&s)", &id, &saved_url))
    {
      if (g_strcmp0 (saved_url, url) != 0)
        continue;
      for (guint i = 0; boards != NULL && i < boards->len; i++)
        {
          const HrBoard *board = g_ptr_array_index (boards, i);

          if (g_strcmp0 (board->id, id) == 0)
            adw_combo_row_set_selected (hr_models_page_get_board_row (page), i);
        }
    }
}

static void
on_saved_selected (AdwComboRow *row,
                   GParamSpec  *pspec,
                   HrBoardPage *self)
{
  guint selected = adw_combo_row_get_selected (row);
  const char *url;

  if (selected == GTK_INVALID_LIST_POSITION ||
      selected >= g_list_model_get_n_items (G_LIST_MODEL (self->saved_list)))
    return;
  url = gtk_string_list_get_string (self->saved_list, selected);
  if (g_strcmp0 (url, self->url) == 0 && self->version != NULL)
    return;
  select_saved_board (self, url);
  /* Another server: its own token, if any, comes from the keyring. */
  gtk_editable_set_text (GTK_EDITABLE (self->token_row), "");
  hr_board_page_connect (self, url);
}

/* ------------------------------------------------------------------ */
/* Unload, delete, add to catalog                                      */

/* A call about one model: the page (a reference) and the model's name. */
typedef struct {
  HrBoardPage *self;
  char        *model;
} Call;

static Call *
call_new (HrBoardPage *self,
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

static void
action_finished (HrBoardPage *self)
{
  if (self->actions_pending > 0 && --self->actions_pending == 0)
    g_clear_object (&self->action_cancellable);
  update_actions (self);
}

static GCancellable *
action_started (HrBoardPage *self)
{
  if (self->action_cancellable == NULL)
    self->action_cancellable = g_cancellable_new ();
  self->actions_pending++;
  update_actions (self);
  return self->action_cancellable;
}

static void
on_unloaded (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  HrBoardPage *self = call->self;
  const char *model = call->model;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  hr_ollama_client_unload_finish (HR_OLLAMA_CLIENT (source), result, &error);
  if (self->disposed || is_cancelled (error))
    return;
  if (error != NULL)
    message = g_strdup_printf (_("Could not unload %s: %s"), model, error->message);
  else
    message = g_strdup_printf (_("Unloaded %s"), model);
  toast (self, message);
  action_finished (self);
  refresh (self);
}

static void
unload_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);
  const char *model = g_variant_get_string (parameter, NULL);
  GCancellable *cancellable;

  if (self->client == NULL)
    return;
  cancellable = action_started (self);
  hr_ollama_client_unload_async (self->client, model, cancellable, on_unloaded, call_new (self, model));
}

static void
on_deleted (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  HrBoardPage *self = call->self;
  const char *model = call->model;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  hr_ollama_client_delete_finish (HR_OLLAMA_CLIENT (source), result, &error);
  if (self->disposed || is_cancelled (error))
    return;
  if (error != NULL)
    message = g_strdup_printf (_("Could not delete %s: %s"), model, error->message);
  else
    message = g_strdup_printf (_("Deleted %s from the board"), model);
  toast (self, message);
  action_finished (self);
  refresh (self);
}

static void
on_delete_response (AdwMessageDialog *dialog,
                    const char       *response,
                    HrBoardPage      *self)
{
  const char *model = g_object_get_data (G_OBJECT (dialog), "hr-model");

  if (g_strcmp0 (response, "delete") != 0 || self->client == NULL || self->disposed)
    return;
  hr_ollama_client_delete_async (self->client, model, action_started (self), on_deleted, call_new (self, model));
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);
  const char *model = g_variant_get_string (parameter, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *heading = g_strdup_printf (_("Delete %s?"), model);
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  if (self->client == NULL)
    return;
  body = g_strdup_printf (_("This removes the model's files from the board at %s. A loaded copy stays loaded until it is unloaded. Using the model again means pulling it again."),
                          self->url);
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "delete", _("_Delete"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "hr-model", g_strdup (model), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_delete_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static char *
describe_added (const HrModelSpec *spec)
{
  g_autofree char *parameters = hr_format_decimal (spec->parameters / 1e9, 2);
  g_autofree char *weights = hr_ollama_format_size (spec->file_bytes);

  /* Translators: a model added to the catalog from /api/show: name, parameters in billions, precision, weights */
  return g_strdup_printf (_("Added %1$s to the catalog: %2$s B parameters, %3$s, %4$s of weights"),
                          spec->name, parameters, spec->precision ? spec->precision : _("unknown precision"),
                          weights);
}

static void
on_shown (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  HrBoardPage *self = call->self;
  const char *model = call->model;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = hr_ollama_client_show_finish (HR_OLLAMA_CLIENT (source), result, &error);
  g_autofree char *message = NULL;
  HrModelsPage *page;

  if (self->disposed || is_cancelled (error))
    return;
  page = models_page (self);
  if (show == NULL)
    message = g_strdup_printf (_("Could not add %s to the catalog: %s"), model, error->message);
  else if (page == NULL)
    message = g_strdup_printf (_("Could not add %s to the catalog: the Models page is not there"), model);
  else if (!hr_models_page_add_model (page, show->spec, &error))
    message = g_strdup_printf (_("Could not add %s to the catalog: %s"), model, error->message);
  else
    message = describe_added (show->spec);
  toast (self, message);
  action_finished (self);
}

static void
add_to_catalog (HrBoardPage *self,
                const char  *model)
{
  if (self->client == NULL)
    return;
  hr_ollama_client_show_async (self->client, model, action_started (self), on_shown, call_new (self, model));
}

static void
add_to_catalog_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  add_to_catalog (HR_BOARD_PAGE (widget), g_variant_get_string (parameter, NULL));
}

/* ------------------------------------------------------------------ */
/* Measure                                                             */

static void
on_measure_saved (HrMeasureWindow *window,
                  HrBoardPage     *self)
{
  HrModelsPage *page = models_page (self);

  if (page != NULL)
    hr_models_page_reload_measurements (page);
  refresh (self);
}

static void
measure_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);
  const char *model = g_variant_get_string (parameter, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  HrMeasureWindow *window;

  if (self->client == NULL)
    return;
  if (self->measure_window != NULL)
    gtk_window_destroy (self->measure_window);

  window = hr_measure_window_new (self->client, model, board_id (self));
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (root));
  g_signal_connect_object (window, "saved", G_CALLBACK (on_measure_saved), self, 0);
  g_set_weak_pointer (&self->measure_window, GTK_WINDOW (window));
  gtk_window_present (GTK_WINDOW (window));
}

/* ------------------------------------------------------------------ */
/* Pull                                                                */

static void
pull_finished (HrBoardPage *self)
{
  g_clear_object (&self->pull_cancellable);
  update_actions (self);
}

static void
set_pull_note (HrBoardPage *self,
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

static void
on_pull_progress (const HrPullProgress *progress,
                  gpointer              user_data)
{
  HrBoardPage *self = user_data;
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
      g_autofree char *done = hr_ollama_format_size (layer->completed);
      g_autofree char *total = layer->total > 0 ? hr_ollama_format_size (layer->total) : g_strdup (_("unknown size"));
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
  HrBoardPage *self = call->self;
  const char *model = call->model;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaShow) show = hr_ollama_client_show_finish (HR_OLLAMA_CLIENT (source), result, &error);
  g_autofree char *added = NULL;
  g_autofree char *note = NULL;
  HrModelsPage *page;

  if (self->disposed || is_cancelled (error))
    return;
  page = models_page (self);
  if (show != NULL && page != NULL && hr_models_page_add_model (page, show->spec, &error))
    {
      added = describe_added (show->spec);
      note = g_strdup_printf (_("Pulled %s. %s."), model, added);
      set_pull_note (self, note, "success");
    }
  else
    {
      note = g_strdup_printf (_("Pulled %s, but could not add it to the catalog: %s"), model,
                              error != NULL ? error->message : _("the Models page is not there"));
      set_pull_note (self, note, "error");
    }
  toast (self, note);
  action_finished (self);
}

static void
on_pulled (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(HrBoardPage) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = hr_ollama_client_pull_finish (HR_OLLAMA_CLIENT (source), result, &error);
  g_autofree char *model = NULL;

  if (self->disposed)
    return;
  model = g_strdup (self->pull_model);
  if (is_cancelled (error))
    {
      /* Cancelled by the person: not an error, but what happens next is worth saying. */
      if (self->pull_cancellable == NULL || g_cancellable_is_cancelled (self->pull_cancellable))
        {
          g_autofree char *note = hr_pull_cancelled_message (model);
          set_pull_note (self, note, NULL);
          gtk_revealer_set_reveal_child (self->pull_revealer, FALSE);
          pull_finished (self);
        }
      return;
    }
  pull_finished (self);
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
  {
    g_autofree char *note = g_strdup_printf (_("Pulled %s; reading its figures from /api/show…"), model);
    set_pull_note (self, note, NULL);
  }
  refresh (self);
  /* The catalog gets the exact figures of the file that is now on the board. */
  hr_ollama_client_show_async (self->client, model, action_started (self), on_pull_shown, call_new (self, model));
}

static void
start_pull (HrBoardPage *self,
            const char  *model)
{
  if (self->client == NULL)
    return;
  cancel_and_clear (&self->pull_cancellable);
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
  hr_ollama_client_pull_async (self->client, model, on_pull_progress, self,
                               self->pull_cancellable, on_pulled, g_object_ref (self));
  update_actions (self);
}

static void
on_pull_anyway (AdwMessageDialog *dialog,
                const char       *response,
                HrBoardPage      *self)
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

/* The pull check (hr_pull_check(), seed-facts.md "Checking a pull before it
 * starts") under the Models page's scenario, with its numbers. Returns the
 * reasons to refuse; *out_numbers says what they were checked against. */
static GPtrArray *
check_pull (HrBoardPage *self,
            const char  *model,
            char       **out_numbers)
{
  HrModelsPage *page = models_page (self);
  const HrEvaluationInputs *scenario = page != NULL ? hr_models_page_get_scenario (page) : NULL;
  HrModelRow *row = find_catalog_row (self, model);
  g_autoptr(HrModelSpec) own = NULL;
  const HrModelSpec *spec;
  HrEvaluation evaluation;
  GPtrArray *reasons;
  g_autofree char *total = NULL;
  g_autofree char *budget = NULL;
  g_autofree char *headroom = NULL;
  g_autofree char *tps = NULL;
  g_autofree char *floor_tps = NULL;
  double size_gb;

  if (scenario == NULL || scenario->board == NULL)
    {
      reasons = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (reasons, g_strdup (_("there is no board on the Models page to check the pull against")));
      *out_numbers = NULL;
      return reasons;
    }

  if (row != NULL)
    {
      spec = hr_model_row_get_spec (row);
      evaluation = *hr_model_row_get_evaluation (row);
    }
  else
    {
      size_gb = gtk_spin_button_get_value (self->size_spin);
      if (size_gb <= 0.0)
        {
          reasons = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (reasons,
                           g_strdup_printf (_("%s is not in the catalog: give its download size in GB so the pull check can work"),
                                            model));
          *out_numbers = NULL;
          return reasons;
        }
      own = hr_model_spec_new (model);
      own->file_bytes = (guint64) (size_gb * 1e9 + 0.5);
      hr_model_spec_set_source (own, HR_SPEC_FIELD_FILE_BYTES, "the download size given on the Board page");
      hr_evaluate (scenario, own, 0.0, 0, &evaluation);
      spec = own;
    }

  reasons = hr_pull_check (spec, &evaluation, scenario->floor_tps);

  total = hr_gui_format_size (evaluation.footprint.total, HR_UNIT_GB);
  budget = hr_gui_format_size (hr_board_budget_bytes (scenario->board), HR_UNIT_GB);
  headroom = hr_gui_format_size (hr_board_headroom_bytes (scenario->board), HR_UNIT_GB);
  tps = hr_format_decimal (evaluation.tps, 1);
  floor_tps = hr_format_decimal (scenario->floor_tps, 1);
  /* Translators: the pull check's figures: model, its memory at num_ctx, the board's name,
   * budget and headroom, its decode rate, the rate's source, and the board's floor */
  *out_numbers = g_strdup_printf (_("%1$s needs %2$s on %3$s, whose budget is %4$s and headroom %5$s; it decodes at %6$s t/s (%7$s) against a floor of %8$s t/s."),
                                  spec->name, total, scenario->board->name, budget, headroom, tps,
                                  hr_gui_rate_source_label (evaluation.source), floor_tps);
  return reasons;
}

static void
pull_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);
  g_autofree char *model = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->pull_row))));
  g_autofree char *numbers = NULL;
  g_autoptr(GPtrArray) reasons = NULL;
  g_autoptr(GError) error = NULL;
  HrOllamaModelName parsed;
  GString *text;
  GtkRoot *root;
  GtkWidget *dialog;
  g_autofree char *heading = NULL;

  if (self->client == NULL || self->pull_cancellable != NULL || *model == '\0')
    return;
  if (!hr_ollama_model_name_parse (model, &parsed, &error))
    {
      set_pull_note (self, error->message, "error");
      return;
    }
  hr_ollama_model_name_clear (&parsed);

  reasons = check_pull (self, model, &numbers);
  text = g_string_new (NULL);
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
  set_pull_note (self, NULL, NULL);

  if (reasons->len == 0)
    {
      start_pull (self, model);
      return;
    }

  gtk_widget_add_css_class (GTK_WIDGET (self->check_label), "warning");
  root = gtk_widget_get_root (widget);
  heading = g_strdup_printf (_("Pull %s Anyway?"), model);
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

static void
cancel_pull_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);

  if (self->pull_cancellable != NULL)
    g_cancellable_cancel (self->pull_cancellable);
}

/* ------------------------------------------------------------------ */
/* Try it                                                              */

static void
on_chat_chunk (const char *content,
               const char *thinking,
               gpointer    user_data)
{
  HrBoardPage *self = user_data;

  if (self->disposed || content == NULL || *content == '\0')
    return;
  g_string_append (self->reply, content);
  set_reply (self, self->reply->str);
}

static void
set_rates (HrBoardPage *self,
           const char  *text,
           gboolean     error)
{
  set_label (self->rates_label, text);
  if (error)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->rates_label), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->rates_label), "error");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->rates_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->rates_label), "dim-label");
    }
}

static void
on_chatted (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(HrBoardPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaReply) reply = hr_ollama_client_chat_finish (HR_OLLAMA_CLIENT (source), result, &error);
  g_autofree char *prefill = NULL;
  g_autofree char *decode = NULL;
  g_autofree char *ttft = NULL;
  g_autofree char *text = NULL;
  JsonObject *turn;

  if (self->disposed)
    return;
  if (reply == NULL)
    {
      /* The question goes unanswered: take it back out of the history. */
      guint n = self->history != NULL ? json_array_get_length (self->history) : 0;

      if (n > 0)
        json_array_remove_element (self->history, n - 1);
      g_clear_object (&self->chat_cancellable);
      update_actions (self);
      if (is_cancelled (error))
        set_rates (self, _("Stopped; the unanswered message is not kept in the conversation."), FALSE);
      else
        set_rates (self, error->message, TRUE);
      return;
    }
  g_clear_object (&self->chat_cancellable);

  turn = json_object_new ();
  json_object_set_string_member (turn, "role", "assistant");
  json_object_set_string_member (turn, "content", reply->text ? reply->text : "");
  json_array_add_object_element (self->history, turn);
  set_reply (self, reply->text && *reply->text ? reply->text : self->reply->str);

  prefill = hr_ollama_format_tps (hr_ollama_rate_tps (reply->prompt_eval_count, reply->prompt_eval_duration));
  decode = hr_ollama_format_tps (hr_ollama_rate_tps (reply->eval_count, reply->eval_duration));
  if (reply->ttft_ms >= 0)
    ttft = hr_ollama_format_ms ((gint64) (reply->ttft_ms * 1e6));
  else
    ttft = g_strdup (_("n/a"));
  /* Translators: the reply's rates: prefill t/s, decode t/s, client TTFT in ms */
  text = g_strdup_printf (_("Prefill %1$s t/s · decode %2$s t/s · TTFT %3$s ms"), prefill, decode, ttft);
  set_rates (self, text, FALSE);
  update_actions (self);
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);
  const char *message = gtk_editable_get_text (GTK_EDITABLE (self->message_row));
  const char *system = gtk_editable_get_text (GTK_EDITABLE (self->system_row));
  guint selected = adw_combo_row_get_selected (self->chat_model_row);
  g_autoptr(JsonArray) messages = json_array_new ();
  g_autoptr(JsonObject) options = json_object_new ();
  JsonObject *turn;
  const char *model;
  guint n;

  if (self->client == NULL || self->chat_cancellable != NULL || message == NULL || *message == '\0' ||
      selected == GTK_INVALID_LIST_POSITION ||
      selected >= g_list_model_get_n_items (G_LIST_MODEL (self->chat_models)))
    return;
  model = gtk_string_list_get_string (self->chat_models, selected);

  turn = json_object_new ();
  json_object_set_string_member (turn, "role", "user");
  json_object_set_string_member (turn, "content", message);
  json_array_add_object_element (self->history, turn);

  /* The server keeps no history: send the system prompt and every turn. */
  if (system != NULL && *system != '\0')
    {
      JsonObject *s = json_object_new ();

      json_object_set_string_member (s, "role", "system");
      json_object_set_string_member (s, "content", system);
      json_array_add_object_element (messages, s);
    }
  n = json_array_get_length (self->history);
  for (guint i = 0; i < n; i++)
    json_array_add_element (messages, json_node_copy (json_array_get_element (self->history, i)));

  json_object_set_double_member (options, "temperature", gtk_spin_button_get_value (self->temperature_spin));
  json_object_set_int_member (options, "seed", gtk_spin_button_get_value_as_int (self->seed_spin));

  g_string_truncate (self->reply, 0);
  set_reply (self, NULL);
  set_rates (self, _("Waiting for the first token…"), FALSE);
  gtk_editable_set_text (GTK_EDITABLE (self->message_row), "");
  self->chat_cancellable = g_cancellable_new ();
  hr_ollama_client_chat_async (self->client, model, messages, options, on_chat_chunk, self,
                               self->chat_cancellable, on_chatted, g_object_ref (self));
  update_actions (self);
}

static void
stop_chat_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);

  if (self->chat_cancellable != NULL)
    g_cancellable_cancel (self->chat_cancellable);
}

static void
new_chat_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);

  cancel_and_clear (&self->chat_cancellable);
  if (self->history != NULL)
    json_array_unref (self->history);
  self->history = json_array_new ();
  g_string_truncate (self->reply, 0);
  set_reply (self, NULL);
  set_rates (self, NULL, FALSE);
  update_actions (self);
}

/* ------------------------------------------------------------------ */
/* Actions                                                             */

static void
connect_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  hr_board_page_connect (HR_BOARD_PAGE (widget), NULL);
}

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);

  if (self->version == NULL)
    hr_board_page_connect (self, NULL);
  else
    refresh (self);
}

static void
update_actions (HrBoardPage *self)
{
  gboolean connected = self->client != NULL && self->version != NULL;
  gboolean pulling = self->pull_cancellable != NULL;
  gboolean chatting = self->chat_cancellable != NULL;
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->pull_row));
  const char *message = gtk_editable_get_text (GTK_EDITABLE (self->message_row));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "board.measure", connected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "board.unload", connected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "board.delete", connected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "board.add-to-catalog", connected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "board.pull",
                                 connected && !pulling && name != NULL && *name != '\0');
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "board.cancel-pull", pulling);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "board.send",
                                 connected && !chatting && message != NULL && *message != '\0' &&
                                 g_list_model_get_n_items (G_LIST_MODEL (self->chat_models)) > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "board.stop-chat", chatting);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "board.refresh", self->client != NULL);
}

static void
on_text_changed (HrBoardPage *self)
{
  update_actions (self);
}

static void
on_url_activated (HrBoardPage *self)
{
  hr_board_page_connect (self, NULL);
}

static void
on_pull_activated (HrBoardPage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "board.pull", NULL);
}

static void
on_message_activated (HrBoardPage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "board.send", NULL);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_board_page_map (GtkWidget *widget)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);

  GTK_WIDGET_CLASS (hr_board_page_parent_class)->map (widget);

  /* Reconnect to the last server the first time the page is shown. */
  if (!self->auto_connected && self->client == NULL)
    {
      g_autofree char *last = g_settings_get_string (self->settings, "last-ollama-board");

      self->auto_connected = TRUE;
      if (*last != '\0' || (g_getenv ("OLLAMA_HOST") != NULL && *g_getenv ("OLLAMA_HOST") != '\0'))
        hr_board_page_connect (self, NULL);
    }
  refresh (self);
  start_timer (self);
}

static void
hr_board_page_unmap (GtkWidget *widget)
{
  stop_timer (HR_BOARD_PAGE (widget));
  GTK_WIDGET_CLASS (hr_board_page_parent_class)->unmap (widget);
}

static void
hr_board_page_dispose (GObject *object)
{
  HrBoardPage *self = (HrBoardPage *)object;

  self->disposed = TRUE;
  stop_timer (self);
#ifdef HAVE_LIBSECRET
  cancel_keyring (self);
#endif
  cancel_and_clear (&self->connect_cancellable);
  cancel_and_clear (&self->refresh_cancellable);
  cancel_and_clear (&self->action_cancellable);
  cancel_and_clear (&self->pull_cancellable);
  cancel_and_clear (&self->chat_cancellable);
  if (self->measure_window != NULL)
    gtk_window_destroy (self->measure_window);
  g_clear_weak_pointer (&self->measure_window);
  g_clear_weak_pointer (&self->models_page);
  g_clear_object (&self->client);

  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_BOARD_PAGE);

  G_OBJECT_CLASS (hr_board_page_parent_class)->dispose (object);
}

static void
hr_board_page_finalize (GObject *object)
{
  HrBoardPage *self = (HrBoardPage *)object;

  g_clear_object (&self->settings);
  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->version, g_free);
  g_clear_pointer (&self->models, g_ptr_array_unref);
  g_clear_pointer (&self->loaded, g_ptr_array_unref);
  g_clear_pointer (&self->models_key, g_free);
  g_clear_pointer (&self->loaded_key, g_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->session_tokens, g_hash_table_unref);
  g_clear_pointer (&self->messages, g_ptr_array_unref);
  g_clear_pointer (&self->pull_model, g_free);
  g_clear_pointer (&self->check_text, g_free);
  g_clear_pointer (&self->pull_note, g_free);
  g_clear_pointer (&self->history, json_array_unref);
  if (self->reply != NULL)
    g_string_free (self->reply, TRUE);

  G_OBJECT_CLASS (hr_board_page_parent_class)->finalize (object);
}

static void
hr_board_page_class_init (HrBoardPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_board_page_dispose;
  object_class->finalize = hr_board_page_finalize;
  widget_class->map = hr_board_page_map;
  widget_class->unmap = hr_board_page_unmap;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/hr-board-page.ui");
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, saved_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, saved_list);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, url_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, token_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, status_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, status_icon);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, token_note);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, content_stack);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, status_page);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, models_list);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, loaded_list);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, pull_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, size_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, check_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, pull_revealer);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, pull_bar);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, pull_status_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, pull_layer_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, pull_note_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, chat_model_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, chat_models);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, system_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, temperature_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, message_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, reply_box);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, reply_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, rates_label);

  gtk_widget_class_install_action (widget_class, "board.connect", NULL, connect_action);
  gtk_widget_class_install_action (widget_class, "board.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "board.measure", "s", measure_action);
  gtk_widget_class_install_action (widget_class, "board.unload", "s", unload_action);
  gtk_widget_class_install_action (widget_class, "board.delete", "s", delete_action);
  gtk_widget_class_install_action (widget_class, "board.add-to-catalog", "s", add_to_catalog_action);
  gtk_widget_class_install_action (widget_class, "board.pull", NULL, pull_action);
  gtk_widget_class_install_action (widget_class, "board.cancel-pull", NULL, cancel_pull_action);
  gtk_widget_class_install_action (widget_class, "board.send", NULL, send_action);
  gtk_widget_class_install_action (widget_class, "board.stop-chat", NULL, stop_chat_action);
  gtk_widget_class_install_action (widget_class, "board.new-chat", NULL, new_chat_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "board.refresh", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "board.refresh", NULL);

  g_type_ensure (HR_TYPE_MEASURE_WINDOW);
}

static void
hr_board_page_init (HrBoardPage *self)
{
  g_autofree char *last = NULL;
  g_autofree char *initial = NULL;
  g_autofree char *normalized = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);
  self->models = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_ollama_model_free);
  self->loaded = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_ollama_loaded_free);
  self->session_tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->use_keyring = TRUE;
  self->messages = g_ptr_array_new_with_free_func (g_free);
  self->history = json_array_new ();
  self->reply = g_string_new (NULL);

  /* OLLAMA_HOST first, then the last server, then localhost (ollama-api.md). */
  last = g_settings_get_string (self->settings, "last-ollama-board");
  initial = hr_ollama_default_host (last);
  normalized = hr_ollama_host_normalize (initial, NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->url_row), normalized ? normalized : initial);
  load_saved (self);

  g_signal_connect (self->saved_row, "notify::selected", G_CALLBACK (on_saved_selected), self);
  g_signal_connect_swapped (self->url_row, "entry-activated", G_CALLBACK (on_url_activated), self);
  g_signal_connect_swapped (self->pull_row, "changed", G_CALLBACK (on_text_changed), self);
  g_signal_connect_swapped (self->pull_row, "entry-activated", G_CALLBACK (on_pull_activated), self);
  g_signal_connect_swapped (self->message_row, "changed", G_CALLBACK (on_text_changed), self);
  g_signal_connect_swapped (self->message_row, "entry-activated", G_CALLBACK (on_message_activated), self);

#ifndef HAVE_LIBSECRET
  say_keyring_unavailable (self);
#endif
  update_actions (self);
}

/**
 * hr_board_page_new:
 *
 * Returns: (transfer floating): a new #HrBoardPage, not connected
 */
GtkWidget *
hr_board_page_new (void)
{
  return g_object_new (HR_TYPE_BOARD_PAGE, NULL);
}

/**
 * hr_board_page_set_models_page:
 * @self: a #HrBoardPage
 * @models_page: (nullable): the Models page whose board, scenario and
 *   catalog the pull check, Measure and Add to Catalog use
 *
 * In the window the page finds the Models page itself; this is for a page
 * shown on its own.
 */
void
hr_board_page_set_models_page (HrBoardPage  *self,
                               HrModelsPage *page)
{
  g_return_if_fail (HR_IS_BOARD_PAGE (self));

  g_set_weak_pointer (&self->models_page, page);
}

/**
 * hr_board_page_set_use_keyring:
 * @self: a #HrBoardPage
 * @use_keyring: whether tokens are stored in and read from the keyring
 *   (libsecret, schema `io.github.headroom.Headroom.OllamaToken` keyed by
 *   URL); %FALSE keeps them in memory for the session only, and says so
 *
 * The tests turn the keyring off so no token reaches a real one.
 */
void
hr_board_page_set_use_keyring (HrBoardPage *self,
                               gboolean     use_keyring)
{
  g_return_if_fail (HR_IS_BOARD_PAGE (self));

  self->use_keyring = use_keyring;
}

/**
 * hr_board_page_get_client:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none) (nullable): the client of the server last asked
 *   for, connected or not
 */
HrOllamaClient *
hr_board_page_get_client (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->client;
}

/**
 * hr_board_page_get_version:
 * @self: a #HrBoardPage
 *
 * Returns: (nullable): the server's version ("0.31.2"), or %NULL when not
 *   connected
 */
const char *
hr_board_page_get_version (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->version;
}

/**
 * hr_board_page_get_models:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none) (element-type HrOllamaModel): the models on the
 *   board as /api/tags last listed them
 */
GPtrArray *
hr_board_page_get_models (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->models;
}

/**
 * hr_board_page_get_loaded:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none) (element-type HrOllamaLoaded): what /api/ps last
 *   said is loaded
 */
GPtrArray *
hr_board_page_get_loaded (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->loaded;
}

/**
 * hr_board_page_is_busy:
 * @self: a #HrBoardPage
 *
 * Returns: whether a connect, a refresh or an action (unload, delete, add
 *   to catalog) is still waiting for the server; a pull and a chat are not
 *   counted
 */
gboolean
hr_board_page_is_busy (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), FALSE);
  return self->connect_cancellable != NULL || self->refresh_pending > 0 || self->actions_pending > 0;
}

/**
 * hr_board_page_get_messages:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none) (element-type utf8): every toast the page has
 *   raised, in order
 */
GPtrArray *
hr_board_page_get_messages (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->messages;
}

/**
 * hr_board_page_get_pull_bar:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none): the pull's overall progress bar
 */
GtkProgressBar *
hr_board_page_get_pull_bar (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->pull_bar;
}

/**
 * hr_board_page_get_error:
 * @self: a #HrBoardPage
 *
 * Returns: (nullable): what the page says went wrong with the server (a
 *   failed connect, or a failed refresh), or %NULL
 */
const char *
hr_board_page_get_error (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->error;
}

/**
 * hr_board_page_get_check_text:
 * @self: a #HrBoardPage
 *
 * Returns: (nullable): the last pull check as shown: its verdict, every
 *   reason on its own line, and the figures
 */
const char *
hr_board_page_get_check_text (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->check_text;
}

/**
 * hr_board_page_get_pull_note:
 * @self: a #HrBoardPage
 *
 * Returns: (nullable): what the page said when the last pull ended
 *   (success, Ollama's error with what to do, or that it was cancelled)
 */
const char *
hr_board_page_get_pull_note (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->pull_note;
}

/**
 * hr_board_page_get_token_note:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none): what the page says about where the token is
 *   kept ("" when there is nothing to say)
 */
const char *
hr_board_page_get_token_note (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->token_note)) ? gtk_label_get_text (self->token_note) : "";
}

/**
 * hr_board_page_is_pulling:
 * @self: a #HrBoardPage
 *
 * Returns: whether a pull is under way
 */
gboolean
hr_board_page_is_pulling (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), FALSE);
  return self->pull_cancellable != NULL;
}

/**
 * hr_board_page_is_chatting:
 * @self: a #HrBoardPage
 *
 * Returns: whether a "Try it" reply is streaming
 */
gboolean
hr_board_page_is_chatting (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), FALSE);
  return self->chat_cancellable != NULL;
}

/**
 * hr_board_page_get_measure_window:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none) (nullable): the measure window Measure opened
 *   last, while it is open
 */
GtkWindow *
hr_board_page_get_measure_window (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->measure_window;
}
