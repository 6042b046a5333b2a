/* hr-hub-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-accessible.h"
#include "hr-error.h"
#include "hr-hub-cards.h"
#include "hr-hub-page-private.h"
#include "hr-model-facts.h"
#include "hr-net-error.h"
#include "hr-token-store.h"

struct _HrHubPage
{
  HrPage          parent_instance;

  GtkScrolledWindow *scroller;
  GtkEntry       *repo_entry;
  GtkMenuButton  *recent_button;
  GtkButton      *lookup_button;
  GtkButton      *cancel_button;
  GtkStack       *state_stack;
  AdwStatusPage  *loading_page;
  GtkSpinner     *spinner;
  AdwStatusPage  *error_page;
  GtkLabel       *title_label;
  GtkLabel       *revision_label;
  GtkBox         *cards_box;
  HrSpecMemory   *memory;
  AdwPreferencesGroup *token_group;
  AdwExpanderRow *token_expander;
  AdwPasswordEntryRow *token_row;
  GtkLabel       *token_status;

  HrSession      *session;
  HrScenario     *scenario;
  gboolean        built;         /* the template, built on first show */
  HrHubClient    *client;        /* the one lookups use, made on first use */
  char           *session_token; /* typed in the page: used until quit, or NULL */
  GCancellable   *token_cancellable;
  GCancellable   *cancellable;  /* the lookup running, or NULL */
  char           *pending_text; /* what it looks up, as typed */
  HrHubLookup    *lookup;       /* the answer shown, or NULL */
};

G_DEFINE_FINAL_TYPE (HrHubPage, hr_hub_page, HR_TYPE_PAGE)

static void hr_hub_page_session_set  (HrPage *page);
static void hr_hub_page_scenario_set (HrPage *page);

static void ensure_built (HrHubPage *self);

/* ------------------------------------------------------------------ */
/* Recent lookups                                                      */

/* The application's settings, handed down by the session; NULL before it. */
static GSettings *
page_settings (HrHubPage *self)
{
  return self->session != NULL ? hr_session_get_settings (self->session) : NULL;
}

static void
rebuild_recent_menu (HrHubPage *self)
{
  g_auto(GStrv) recent = NULL;
  g_autoptr(GMenu) menu = NULL;

  if (!self->built)
    return;
  if (page_settings (self) != NULL)
    recent = g_settings_get_strv (page_settings (self), "recent-hf-lookups");
  else
    recent = g_new0 (char *, 1);
  menu = g_menu_new ();
  for (guint i = 0; recent[i] != NULL; i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (recent[i], NULL);

      g_menu_item_set_action_and_target (item, "hub.lookup-recent", "s", recent[i]);
      g_menu_append_item (menu, item);
    }
  gtk_menu_button_set_menu_model (self->recent_button, G_MENU_MODEL (menu));
  gtk_widget_set_sensitive (GTK_WIDGET (self->recent_button), recent[0] != NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->recent_button),
                               recent[0] != NULL ? _("Recent Lookups") : _("No recent lookups yet"));
}

static void
remember (HrHubPage  *self,
          const char *text)
{
  GSettings *settings = page_settings (self);
  g_auto(GStrv) recent = NULL;
  g_autoptr(GPtrArray) next = g_ptr_array_new ();

  if (settings == NULL)
    return;
  recent = g_settings_get_strv (settings, "recent-hf-lookups");
  g_ptr_array_add (next, (gpointer) text);
  for (guint i = 0; recent[i] != NULL && next->len < HR_HUB_PAGE_MAX_RECENT; i++)
    if (g_strcmp0 (recent[i], text) != 0)
      g_ptr_array_add (next, recent[i]);
  g_ptr_array_add (next, NULL);
  g_settings_set_strv (settings, "recent-hf-lookups", (const char * const *) next->pdata);
}

static void
show_answer (HrHubPage *self)
{
  const HrHubLookup *l = self->lookup;
  g_autofree char *revision = NULL;

  hr_model_facts_clear (self->cards_box);
  gtk_label_set_text (self->title_label, l->repo);
  if (l->gated != NULL)
    /* Translators: revision as asked, the commit it resolved to, and the gating ("manual") */
    revision = g_strdup_printf (_("%1$s at commit %2$s · gated (%3$s)"), l->revision, l->sha, l->gated);
  else
    revision = g_strdup_printf (_("%1$s at commit %2$s"), l->revision, l->sha);
  gtk_label_set_text (self->revision_label, revision);

  hr_hub_cards_append (self->cards_box, l);

  if (l->spec != NULL)
    {
      hr_spec_memory_set_spec (self->memory, l->spec);
      gtk_widget_set_visible (GTK_WIDGET (self->memory), TRUE);
    }
  else
    {
      GtkWidget *group = hr_model_facts_group_new (_("Memory"), NULL);

      hr_spec_memory_set_spec (self->memory, NULL);
      gtk_widget_set_visible (GTK_WIDGET (self->memory), FALSE);
      hr_model_facts_add_warning (group, _("No memory figures"),
                                  _("The repository gave no model description Headroom can size (no usable config.json or GGUF header), so it cannot be charted or added to the catalog."));
      gtk_box_append (self->cards_box, group);
    }
  gtk_stack_set_visible_child_name (self->state_stack, "answer");
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */

static void
show_error (HrHubPage    *self,
            const GError *error)
{
  const char *title = _("The Lookup Failed");
  const char *icon = "dialog-error-symbolic";
  const char *advice = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *description = NULL;

  if (error->domain == HR_NET_ERROR)
    {
      switch ((HrNetError) error->code)
        {
        case HR_NET_ERROR_GATED:
          title = _("Access Needed");
          icon = "dialog-password-symbolic";
          break;
        case HR_NET_ERROR_UNAUTHORIZED:
          title = _("The Token Was Refused");
          icon = "dialog-password-symbolic";
          break;
        case HR_NET_ERROR_NOT_FOUND:
        case HR_NET_ERROR_BAD_PATH:
          title = _("Repository Not Found");
          break;
        case HR_NET_ERROR_REVISION_NOT_FOUND:
          title = _("No Such Revision");
          advice = _("Give a branch, a tag or a full commit hash after “@”, or leave it out for main.");
          break;
        case HR_NET_ERROR_RATE_LIMITED:
        case HR_NET_ERROR_BUSY:
          title = _("The Hub Is Busy");
          break;
        case HR_NET_ERROR_CONNECTION_REFUSED:
        case HR_NET_ERROR_RESOLVE:
        case HR_NET_ERROR_TLS:
        case HR_NET_ERROR_TIMEOUT:
          title = _("Could Not Reach the Hub");
          icon = "network-offline-symbolic";
          break;
        case HR_NET_ERROR_SERVER:
        case HR_NET_ERROR_STREAM:
        case HR_NET_ERROR_TRUNCATED:
        case HR_NET_ERROR_INVALID_RESPONSE:
        case HR_NET_ERROR_TOO_LARGE:
        case HR_NET_ERROR_FAILED:
        default:
          break;
        }
    }
  else if (error->domain == HR_CORE_ERROR)
    {
      title = _("Not a Repository Id");
      icon = "dialog-information-symbolic";
    }

  if (advice != NULL)
    description = g_strdup_printf ("%s\n\n%s", error->message, advice);
  else
    description = g_strdup (error->message);
  escaped = g_markup_escape_text (description, -1);
  adw_status_page_set_title (self->error_page, title);
  adw_status_page_set_icon_name (self->error_page, icon);
  adw_status_page_set_description (self->error_page, escaped);
  gtk_stack_set_visible_child_name (self->state_stack, "error");
}

/* ------------------------------------------------------------------ */
/* The lookup                                                          */

static void
set_busy (HrHubPage *self,
          gboolean   busy)
{
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), busy);
  gtk_widget_set_visible (GTK_WIDGET (self->lookup_button), !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hub.cancel", busy);
  gtk_spinner_set_spinning (self->spinner, busy);
}

/* The client lookups use: the session's (HF_ENDPOINT, HF_TOKEN or the
 * keyring; a test's fake Hub); a token typed in the page replaces its
 * token, at the same endpoint, for as long as Headroom runs. */
static HrHubClient *
ensure_client (HrHubPage *self)
{
  HrHubClient *shared;

  if (self->client != NULL)
    return self->client;

  g_return_val_if_fail (self->session != NULL, NULL);
  shared = hr_session_get_hub_client (self->session);
  if (self->session_token != NULL)
    {
      guint timeout = HR_HUB_DEFAULT_TIMEOUT_MS;

      g_object_get (shared, "timeout", &timeout, NULL);
      self->client = g_object_new (HR_TYPE_HUB_CLIENT,
                                   "endpoint", hr_hub_client_get_endpoint (shared),
                                   "token", self->session_token,
                                   "use-keyring", FALSE,
                                   "timeout", timeout,
                                   NULL);
    }
  else
    self->client = g_object_ref (shared);
  return self->client;
}

typedef struct {
  HrHubPage    *self;        /* owned */
  GCancellable *cancellable; /* owned: which lookup this is */
} LookupData;

static void
lookup_data_free (LookupData *data)
{
  g_object_unref (data->self);
  g_object_unref (data->cancellable);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LookupData, lookup_data_free)

static void
on_lookup_done (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(LookupData) data = user_data;
  HrHubPage *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHubLookup) lookup = hr_hub_client_lookup_finish (HR_HUB_CLIENT (source), result, &error);

  /* A lookup that was replaced, cancelled or outlived its page. */
  if (data->cancellable != self->cancellable)
    return;

  g_clear_object (&self->cancellable);
  set_busy (self, FALSE);

  if (lookup == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_stack_set_visible_child_name (self->state_stack, self->lookup != NULL ? "answer" : "intro");
      else
        show_error (self, error);
      return;
    }

  remember (self, self->pending_text);
  g_clear_pointer (&self->lookup, hr_hub_lookup_free);
  self->lookup = g_steal_pointer (&lookup);
  show_answer (self);
}

/**
 * hr_hub_page_look_up:
 * @self: a #HrHubPage
 * @text: (nullable): `owner/name` or `owner/name@revision`; %NULL looks up
 *   what the entry holds
 *
 * Starts a lookup (hr_hub_client_lookup_async()), cancelling one that is
 * running. While it runs the page shows a spinner and a Cancel button; then
 * the four cards, or an #AdwStatusPage with the error's message and what to
 * do. Text that is not a repository id is refused on the page at once
 * (%HR_CORE_ERROR, from hr_hf_repo_parse()). A successful lookup goes to the
 * front of the GSettings key `recent-hf-lookups` (at most
 * %HR_HUB_PAGE_MAX_RECENT).
 */
void
hr_hub_page_look_up (HrHubPage  *self,
                     const char *text)
{
  g_autofree char *typed = NULL;
  g_autofree char *repo = NULL;
  g_autofree char *revision = NULL;
  g_autofree char *title = NULL;
  g_autoptr(GError) error = NULL;
  LookupData *data;

  g_return_if_fail (HR_IS_HUB_PAGE (self));

  ensure_built (self);
  if (text != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->repo_entry), text);
  typed = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->repo_entry))));
  if (*typed == '\0')
    return;

  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
    }

  if (!hr_hf_repo_parse (typed, &repo, &revision, &error))
    {
      set_busy (self, FALSE);
      show_error (self, error);
      return;
    }

  g_free (self->pending_text);
  self->pending_text = g_strdup (typed);
  self->cancellable = g_cancellable_new ();

  /* Translators: while a lookup runs; %s is the repository id */
  title = g_strdup_printf (_("Looking Up %s…"), typed);
  adw_status_page_set_title (self->loading_page, title);
  adw_status_page_set_description (self->loading_page,
                                   _("Model info, config files, the file tree and the LICENSE, pinned to one commit"));
  set_busy (self, TRUE);
  gtk_stack_set_visible_child_name (self->state_stack, "loading");

  data = g_new0 (LookupData, 1);
  data->self = g_object_ref (self);
  data->cancellable = g_object_ref (self->cancellable);
  hr_hub_client_lookup_async (ensure_client (self), repo, revision, self->cancellable, on_lookup_done, data);
}

/**
 * hr_hub_page_cancel:
 * @self: a #HrHubPage
 *
 * Cancels the running lookup, if any: the page goes back to what it showed
 * before, and nothing is added anywhere.
 */
void
hr_hub_page_cancel (HrHubPage *self)
{
  g_return_if_fail (HR_IS_HUB_PAGE (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
lookup_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  hr_hub_page_look_up (HR_HUB_PAGE (widget), NULL);
}

static void
lookup_recent_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  hr_hub_page_look_up (HR_HUB_PAGE (widget), g_variant_get_string (parameter, NULL));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  hr_hub_page_cancel (HR_HUB_PAGE (widget));
}

static void
on_entry_activate (HrHubPage *self)
{
  hr_hub_page_look_up (self, NULL);
}

static void
on_entry_changed (HrHubPage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->repo_entry));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hub.lookup", text != NULL && *text != '\0');
}

/* ------------------------------------------------------------------ */
/* The token                                                           */

/* Says @text under the token row (%NULL hides it); @warning marks a token
 * that could not be kept. */
static void
set_token_status (HrHubPage  *self,
                  const char *text,
                  gboolean    warning)
{
  gtk_label_set_text (self->token_status, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->token_status), text != NULL);
  if (warning)
    gtk_widget_add_css_class (GTK_WIDGET (self->token_status), "warning");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->token_status), "warning");
}

/* The keyring answers through HrTokenStore (the Hub schema, keyed by the
 * endpoint), the same entry HrHubClient reads. Whatever it answers, the
 * token typed is the page's for this session (ensure_client()). */
static void
on_token_saved (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(HrHubPage) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = hr_token_store_store_finish (HR_TOKEN_STORE (source), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->token_expander == NULL)
    return;
  if (!ok)
    {
      /* Translators: %s says why the keyring could not keep the token,
       * "The keyring is not available (no Secret Service is running), so
       * the token could not be remembered" */
      g_autofree char *text = g_strdup_printf (_("%s. It is used until you quit Headroom; to give a token at every start without a keyring, set HF_TOKEN in the environment."),
                                               error->message);

      adw_expander_row_set_subtitle (self->token_expander, _("Used until you quit: not remembered"));
      set_token_status (self, text, TRUE);
      return;
    }
  adw_expander_row_set_subtitle (self->token_expander, _("Stored in the keyring; the next lookup sends it to the Hub only"));
  set_token_status (self, NULL, FALSE);
}

static void
on_token_cleared (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(HrHubPage) self = user_data;
  g_autoptr(GError) error = NULL;

  hr_token_store_clear_finish (HR_TOKEN_STORE (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->token_expander == NULL)
    return;
  adw_expander_row_set_subtitle (self->token_expander,
                                 _("No token is stored: lookups are anonymous unless HF_TOKEN is set"));
  set_token_status (self, error != NULL ? error->message : NULL, error != NULL);
}

static void
on_token_apply (HrHubPage *self)
{
  const char *token = gtk_editable_get_text (GTK_EDITABLE (self->token_row));
  const char *endpoint = hr_hub_client_get_endpoint (ensure_client (self));
  HrTokenStore *store = hr_session_get_token_store (self->session);
  g_autofree char *stripped = g_strstrip (g_strdup (token));

  g_cancellable_cancel (self->token_cancellable);
  g_clear_object (&self->token_cancellable);
  self->token_cancellable = g_cancellable_new ();
  g_clear_pointer (&self->session_token, g_free);
  if (*stripped == '\0')
    hr_token_store_clear_async (store, HR_TOKEN_KIND_HUB, endpoint, self->token_cancellable,
                                on_token_cleared, g_object_ref (self));
  else
    {
      self->session_token = g_strdup (stripped);
      hr_token_store_store_async (store, HR_TOKEN_KIND_HUB, endpoint, stripped,
                                  self->token_cancellable, on_token_saved, g_object_ref (self));
    }
  gtk_editable_set_text (GTK_EDITABLE (self->token_row), "");
  /* The next lookup's client carries the token typed, or reads the
   * keyring and HF_TOKEN again when it was emptied. */
  g_clear_object (&self->client);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_hub_page_dispose (GObject *object)
{
  HrHubPage *self = HR_HUB_PAGE (object);

  g_cancellable_cancel (self->token_cancellable);
  g_clear_object (&self->token_cancellable);
  self->token_expander = NULL;
  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
    }

  G_OBJECT_CLASS (hr_hub_page_parent_class)->dispose (object);
}

static void
hr_hub_page_finalize (GObject *object)
{
  HrHubPage *self = HR_HUB_PAGE (object);

  g_clear_object (&self->client);
  g_clear_pointer (&self->session_token, g_free);
  g_clear_pointer (&self->pending_text, g_free);
  g_clear_pointer (&self->lookup, hr_hub_lookup_free);

  G_OBJECT_CLASS (hr_hub_page_parent_class)->finalize (object);
}

/* The page's widgets, built the first time it is shown (or used): a page
 * the window opens on another tab costs nothing at start-up. */
static void
ensure_built (HrHubPage *self)
{
  if (self->built)
    return;
  self->built = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* Translators: for a screen reader, the group that holds the Hugging Face access token row */
  hr_accessible_name_group (self->token_group, _("Access token"));
  /* Translators: for a screen reader, the Hugging Face page's error page before it has a title */
  hr_accessible_name_status_page (self->error_page, _("Lookup failed"));
  rebuild_recent_menu (self);
  gtk_widget_set_visible (GTK_WIDGET (self->memory), FALSE);
  if (!hr_token_store_is_built ())
    /* Without libsecret there is no keyring to keep a token in. */
    adw_expander_row_set_subtitle (self->token_expander,
                                   _("For gated and private repositories; without a keyring, a token typed here lasts until you quit"));
  else if (g_getenv ("HF_TOKEN") != NULL && *g_getenv ("HF_TOKEN") != '\0')
    adw_expander_row_set_subtitle (self->token_expander,
                                   _("HF_TOKEN is set and wins over a stored token"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->repo_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Hugging Face repository"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("owner/name, optionally followed by @ and a branch, tag or commit"),
                                  -1);
}

static void
hr_hub_page_map (GtkWidget *widget)
{
  ensure_built (HR_HUB_PAGE (widget));
  GTK_WIDGET_CLASS (hr_hub_page_parent_class)->map (widget);
}

static void
hr_hub_page_class_init (HrHubPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrPageClass *page_class = HR_PAGE_CLASS (klass);

  object_class->dispose = hr_hub_page_dispose;
  object_class->finalize = hr_hub_page_finalize;
  page_class->session_set = hr_hub_page_session_set;
  page_class->scenario_set = hr_hub_page_scenario_set;
  widget_class->map = hr_hub_page_map;


  g_type_ensure (HR_TYPE_SPEC_MEMORY);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/hub/hr-hub-page.ui");
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, scroller);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, repo_entry);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, recent_button);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, lookup_button);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, state_stack);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, loading_page);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, revision_label);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, cards_box);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, memory);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, token_group);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, token_expander);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, token_row);
  gtk_widget_class_bind_template_child (widget_class, HrHubPage, token_status);
  gtk_widget_class_bind_template_callback (widget_class, on_token_apply);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_changed);

  gtk_widget_class_install_action (widget_class, "hub.lookup", NULL, lookup_action);
  gtk_widget_class_install_action (widget_class, "hub.lookup-recent", "s", lookup_recent_action);
  gtk_widget_class_install_action (widget_class, "hub.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "hub.cancel", NULL);
}

static void
hr_hub_page_init (HrHubPage *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hub.lookup", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "hub.cancel", FALSE);
}

/**
 * hr_hub_page_new:
 *
 * Returns: (transfer floating): a new #HrHubPage
 */
GtkWidget *
hr_hub_page_new (void)
{
  return g_object_new (HR_TYPE_HUB_PAGE, NULL);
}

/* The recent lookups are the session's settings; the client and the
 * token store the session's services. */
static void
hr_hub_page_session_set (HrPage *page)
{
  HrHubPage *self = HR_HUB_PAGE (page);

  self->session = hr_page_get_session (page);
  if (page_settings (self) != NULL)
    g_signal_connect_object (page_settings (self), "changed::recent-hf-lookups",
                             G_CALLBACK (rebuild_recent_menu), self, G_CONNECT_SWAPPED);
  rebuild_recent_menu (self);
}

/* The memory cards are computed under the scenario, and "Add to Catalog"
 * adds to its session. */
static void
hr_hub_page_scenario_set (HrPage *page)
{
  HrHubPage *self = HR_HUB_PAGE (page);

  /* The memory card takes it through the template's binding. */
  self->scenario = hr_page_get_scenario (page);
}

/**
 * hr_hub_page_set_client:
 * @self: a #HrHubPage
 * @client: (nullable): the Hub client to look up with; %NULL makes one
 *   with hr_hub_client_new() (HF_ENDPOINT, HF_TOKEN or the keyring) at the
 *   next lookup. A token typed in the page replaces @client's token (a
 *   client at @client's endpoint and timeout carrying it).
 *
 * The session's client (hr_session_set_hub_client()): the page has a
 * session by then.
 */
void
hr_hub_page_set_client (HrHubPage   *self,
                        HrHubClient *client)
{
  g_return_if_fail (HR_IS_HUB_PAGE (self));
  g_return_if_fail (client == NULL || HR_IS_HUB_CLIENT (client));
  g_return_if_fail (self->session != NULL);

  hr_session_set_hub_client (self->session, client);
  g_clear_object (&self->client);
}

/**
 * hr_hub_page_get_token_status:
 * @self: a #HrHubPage
 *
 * Returns: (nullable): what the page says under the token row about the
 *   last token typed (why it could not be remembered), or %NULL when it
 *   says nothing
 */
const char *
hr_hub_page_get_token_status (HrHubPage *self)
{
  g_return_val_if_fail (HR_IS_HUB_PAGE (self), NULL);
  ensure_built (self);

  return gtk_widget_get_visible (GTK_WIDGET (self->token_status)) ? gtk_label_get_text (self->token_status) : NULL;
}

/**
 * hr_hub_page_get_token_row:
 * @self: a #HrHubPage
 *
 * Returns: (transfer none): the token's password row (type, then apply)
 */
AdwPasswordEntryRow *
hr_hub_page_get_token_row (HrHubPage *self)
{
  g_return_val_if_fail (HR_IS_HUB_PAGE (self), NULL);
  ensure_built (self);

  return self->token_row;
}

/**
 * hr_hub_page_get_state:
 * @self: a #HrHubPage
 *
 * Returns: what the page shows: "intro", "loading", "error" or "answer"
 */
const char *
hr_hub_page_get_state (HrHubPage *self)
{
  g_return_val_if_fail (HR_IS_HUB_PAGE (self), NULL);
  ensure_built (self);

  return gtk_stack_get_visible_child_name (self->state_stack);
}

/**
 * hr_hub_page_get_lookup:
 * @self: a #HrHubPage
 *
 * Returns: (transfer none) (nullable): the lookup the cards show
 */
const HrHubLookup *
hr_hub_page_get_lookup (HrHubPage *self)
{
  g_return_val_if_fail (HR_IS_HUB_PAGE (self), NULL);

  return self->lookup;
}

/**
 * hr_hub_page_get_cards:
 * @self: a #HrHubPage
 *
 * Returns: (transfer none): the box of the four cards (read them with
 *   hr_model_facts_get_value())
 */
GtkWidget *
hr_hub_page_get_cards (HrHubPage *self)
{
  g_return_val_if_fail (HR_IS_HUB_PAGE (self), NULL);
  ensure_built (self);

  return GTK_WIDGET (self->cards_box);
}

/**
 * hr_hub_page_get_error_page:
 * @self: a #HrHubPage
 *
 * Returns: (transfer none): the status page a failed lookup shows
 */
AdwStatusPage *
hr_hub_page_get_error_page (HrHubPage *self)
{
  g_return_val_if_fail (HR_IS_HUB_PAGE (self), NULL);
  ensure_built (self);

  return self->error_page;
}

/**
 * hr_hub_page_get_memory:
 * @self: a #HrHubPage
 *
 * Returns: (transfer none): the memory chart, sliders and Add to Catalog
 */
HrSpecMemory *
hr_hub_page_get_memory (HrHubPage *self)
{
  g_return_val_if_fail (HR_IS_HUB_PAGE (self), NULL);
  ensure_built (self);

  return self->memory;
}

/**
 * hr_hub_page_get_entry:
 * @self: a #HrHubPage
 *
 * Returns: (transfer none): the repository entry
 */
GtkEditable *
hr_hub_page_get_entry (HrHubPage *self)
{
  g_return_val_if_fail (HR_IS_HUB_PAGE (self), NULL);
  ensure_built (self);

  return GTK_EDITABLE (self->repo_entry);
}

/**
 * hr_hub_page_focus_entry:
 * @self: a #HrHubPage
 *
 * Moves the keyboard focus to the repository entry.
 */
void
hr_hub_page_focus_entry (HrHubPage *self)
{
  g_return_if_fail (HR_IS_HUB_PAGE (self));
  ensure_built (self);

  gtk_widget_grab_focus (GTK_WIDGET (self->repo_entry));
}
