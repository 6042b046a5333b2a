/* hr-servers-overview.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Servers page: every Ollama server the window saved (the session's
 * "ollama-boards"), asked at once in the background, each with waits of
 * its own (5 s to connect, 10 s for an answer), so one that is down holds
 * up none of the others. A row per server says its board, its version and
 * what is left of the board's budget (pool − resident − reserve, less what
 * /api/ps puts on the GPU), or why it did not answer; it expands to what
 * the server has loaded, each with an Unload button. The page asks again
 * every 30 s while it is shown, and on overview.refresh.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-accessible.h"
#include "hr-ollama-client.h"
#include "hr-ollama-host.h"
#include "hr-ollama-status.h"
#include "hr-servers-overview.h"
#include "hr-session-items.h"
#include "hr-token-store.h"
#include "hr-units.h"

#define ANSWER_MS        10000
#define CONNECT_MS        5000
#define REFRESH_SECONDS     30

struct _HrServersOverview {
  HrPage        parent_instance;

  GtkStack     *stack;
  GtkListBox   *list;
  GtkLabel     *status_label;
  GtkSpinner   *spinner;

  HrSession    *session;        /* hr_page_get_session(), borrowed */
  HrTokenStore *token_store;     /* the session's (held), or NULL: no keyring */
  gboolean      use_keyring;
  GCancellable *cancellable;     /* the round of questions under way */
  guint         pending;         /* servers of this round not yet answered */
  guint         timer_id;        /* the next round while shown */
  GListModel   *servers;         /* the session's server list (HrServerItem), bound to the list */
};

G_DEFINE_FINAL_TYPE (HrServersOverview, hr_servers_overview, HR_TYPE_PAGE)

/* One server's round: its client, then its version and loaded models. */
typedef struct {
  GWeakRef        overview;
  GCancellable   *cancellable;   /* the round's: cancelled when a new one starts */
  AdwExpanderRow *row;           /* owned */
  char           *url;
  char           *board_id;
  HrOllamaClient *client;
  char           *version;
  GPtrArray      *loaded;
  GError         *error;
} Query;

static void
query_free (Query *q)
{
  g_weak_ref_clear (&q->overview);
  g_clear_object (&q->cancellable);
  g_clear_object (&q->row);
  g_free (q->url);
  g_free (q->board_id);
  g_clear_object (&q->client);
  g_free (q->version);
  g_clear_pointer (&q->loaded, g_ptr_array_unref);
  g_clear_error (&q->error);
  g_free (q);
}

/* ------------------------------------------------------------------ */
/* What a row says                                                     */

static guint64
vram_of (GPtrArray *loaded)
{
  guint64 sum = 0;

  for (guint i = 0; loaded != NULL && i < loaded->len; i++)
    sum += ((const HrOllamaLoaded *) g_ptr_array_index (loaded, i))->size_vram;
  return sum;
}

static void
clear_children (AdwExpanderRow *row)
{
  GPtrArray *children = g_object_get_data (G_OBJECT (row), "hr-children");

  for (guint i = 0; children != NULL && i < children->len; i++)
    adw_expander_row_remove (row, g_ptr_array_index (children, i));
  if (children != NULL)
    g_ptr_array_set_size (children, 0);
}

static void
add_child (AdwExpanderRow *row,
           GtkWidget      *child)
{
  GPtrArray *children = g_object_get_data (G_OBJECT (row), "hr-children");

  if (children == NULL)
    {
      children = g_ptr_array_new ();
      g_object_set_data_full (G_OBJECT (row), "hr-children", children, (GDestroyNotify) g_ptr_array_unref);
    }
  adw_expander_row_add_row (row, child);
  g_ptr_array_add (children, child);
}

static void
show_answer (HrServersOverview *self,
             Query             *q)
{
  const HrBoard *board = self->session != NULL ? hr_session_find_board (self->session, q->board_id) : NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *subtitle = NULL;

  clear_children (q->row);
  if (q->error != NULL)
    {
      /* TRANSLATORS: a server's URL, then why it did not answer */
      subtitle = g_strdup_printf (_("%s · unreachable: %s"), q->url, q->error->message);
      adw_expander_row_set_subtitle (q->row, subtitle);
      adw_expander_row_set_enable_expansion (q->row, FALSE);
      gtk_widget_add_css_class (GTK_WIDGET (q->row), "error");
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (q->row), "error");
  if (board != NULL)
    {
      gint64 free_bytes = (gint64) hr_board_budget_bytes (board) - (gint64) vram_of (q->loaded);
      g_autofree char *free_text = hr_format_gb_gib ((guint64) ABS (free_bytes), 2);

      /* TRANSLATORS: URL, Ollama version, the number of loaded models, what
       * is left of the board's budget, e.g. "8.80 GB (8.20 GiB)" */
      subtitle = g_strdup_printf (free_bytes >= 0 ? ngettext ("%s · Ollama %s · %u model loaded · %s of the budget free",
                                                              "%s · Ollama %s · %u models loaded · %s of the budget free",
                                                              q->loaded->len)
                                                  : ngettext ("%s · Ollama %s · %u model loaded · %s over the budget",
                                                              "%s · Ollama %s · %u models loaded · %s over the budget",
                                                              q->loaded->len),
                                  q->url, q->version, q->loaded->len, free_text);
    }
  else
    subtitle = g_strdup_printf (ngettext ("%s · Ollama %s · %u model loaded · on a board this computer does not know",
                                          "%s · Ollama %s · %u models loaded · on a board this computer does not know",
                                          q->loaded->len),
                                q->url, q->version, q->loaded->len);
  adw_expander_row_set_subtitle (q->row, subtitle);
  adw_expander_row_set_enable_expansion (q->row, q->loaded->len > 0);
  if (g_object_get_data (G_OBJECT (q->row), "hr-variant-button") == NULL)
    {
      GtkWidget *button = gtk_button_new_with_mnemonic (_("New _Variant…"));
      g_autofree char *button_label = g_strdup_printf (_("New variant on %s"), q->url);

      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (button, _("Make a model on this server that carries a context and GPU layers of your choice"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, button_label, -1);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.create-variant");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "(ss)", q->url, "");
      adw_expander_row_add_action (q->row, button);
      g_object_set_data (G_OBJECT (q->row), "hr-variant-button", button);
    }

  for (guint i = 0; i < q->loaded->len; i++)
    {
      const HrOllamaLoaded *l = g_ptr_array_index (q->loaded, i);
      g_autofree char *size = hr_ollama_format_size (l->size);
      g_autofree char *processor = hr_ollama_format_processor (l->size, l->size_vram);
      g_autofree char *until = hr_ollama_format_until (l->expires_at, now);
      g_autofree char *text = NULL;
      g_autofree char *button_label = NULL;
      GtkWidget *child = adw_action_row_new ();
      GtkWidget *button = gtk_button_new_with_label (_("Unload"));

      /* TRANSLATORS: /api/ps's SIZE, PROCESSOR and UNTIL, e.g. "2.6 GB · 100% GPU · 4 minutes from now" */
      text = g_strdup_printf (_("%s · %s · %s"), size, processor, until);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (child), l->name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (child), text);
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "overview.unload");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "(ss)", q->url, l->name);
      /* TRANSLATORS: the Unload button's name for a screen reader: model, server */
      button_label = g_strdup_printf (_("Unload %s from %s"), l->name, q->url);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, button_label, -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (child), button);
      add_child (q->row, child);
    }
}

static void
round_done (HrServersOverview *self)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *time_text = g_date_time_format (now, "%X");
  g_autofree char *text = NULL;

  gtk_spinner_stop (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  /* TRANSLATORS: %s is the local time the servers were last asked */
  text = g_strdup_printf (_("Every saved server, asked at %s"), time_text);
  gtk_label_set_text (self->status_label, text);
}

static void
query_answered (Query *q)
{
  g_autoptr(HrServersOverview) self = NULL;

  self = g_weak_ref_get (&q->overview);
  /* A round that a newer one replaced says nothing: its rows are gone. */
  if (self != NULL && !g_cancellable_is_cancelled (q->cancellable))
    {
      show_answer (self, q);
      if (--self->pending == 0)
        round_done (self);
    }
  query_free (q);
}

static void
on_status (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Query *q = user_data;
  g_autoptr(HrOllamaStatus) status = hr_ollama_client_status_finish (HR_OLLAMA_CLIENT (source), result, &q->error);

  if (status != NULL)
    {
      q->version = g_steal_pointer (&status->version);
      q->loaded = g_steal_pointer (&status->loaded);
    }
  query_answered (q);
}

static void
ask (Query        *q,
     const char   *token,
     GCancellable *cancellable)
{
  hr_ollama_client_set_token (q->client, token);
  hr_ollama_client_status_async (q->client, cancellable, on_status, q);
}

static void
on_token (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Query *q = user_data;
  g_autoptr(HrServersOverview) self = g_weak_ref_get (&q->overview);
  g_autofree char *token = hr_token_store_lookup_finish (HR_TOKEN_STORE (source), result, NULL);

  if (self == NULL || g_cancellable_is_cancelled (q->cancellable))
    {
      query_free (q);
      return;
    }
  /* No keyring, or no token saved: ask without one (a proxy then says 401). */
  ask (q, token, q->cancellable);
}

/* ------------------------------------------------------------------ */
/* Rounds                                                              */

/* A row as it is before its server answers: the board's name, the URL,
 * nothing to expand. */
static void
reset_row (HrServersOverview *self,
           AdwExpanderRow    *row,
           HrServerItem      *item)
{
  const char *board_id = hr_server_item_get_board_id (item);
  const HrBoard *board = self->session != NULL ? hr_session_find_board (self->session, board_id) : NULL;

  clear_children (row);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), board != NULL ? board->name : board_id);
  adw_expander_row_set_subtitle (row, hr_server_item_get_url (item));
  adw_expander_row_set_enable_expansion (row, FALSE);
}

/* gtk_list_box_bind_model()'s row for one saved server. */
static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  HrServersOverview *self = user_data;
  GtkWidget *row = adw_expander_row_new ();

  reset_row (self, ADW_EXPANDER_ROW (row), HR_SERVER_ITEM (item));
  hr_accessible_name_expander_row (ADW_EXPANDER_ROW (row));
  return row;
}

static void
show_list_or_empty (HrServersOverview *self)
{
  guint n = self->servers != NULL ? g_list_model_get_n_items (self->servers) : 0;

  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "list" : "empty");
}

/**
 * hr_servers_overview_refresh:
 * @self: a #HrServersOverview
 *
 * Asks every saved server again, all at once (a round still under way is
 * cancelled): its version and /api/ps, with the token the keyring keeps
 * for it. Each row says "asking" until its server answers or its wait
 * (5 s to connect, 10 s for an answer) runs out.
 */
void
hr_servers_overview_refresh (HrServersOverview *self)
{
  guint n;

  g_return_if_fail (HR_IS_SERVERS_OVERVIEW (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->pending = 0;
  show_list_or_empty (self);
  n = self->servers != NULL ? g_list_model_get_n_items (self->servers) : 0;
  if (n == 0)
    return;

  gtk_label_set_text (self->status_label, _("Asking every saved server…"));
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  gtk_spinner_start (self->spinner);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(HrServerItem) item = g_list_model_get_item (self->servers, i);
      const char *url = hr_server_item_get_url (item);
      AdwExpanderRow *row = ADW_EXPANDER_ROW (gtk_list_box_get_row_at_index (self->list, i));
      Query *q = g_new0 (Query, 1);
      g_autofree char *asking = g_strdup_printf (_("%s · asking…"), url);

      reset_row (self, row, item);
      g_weak_ref_init (&q->overview, self);
      q->cancellable = g_object_ref (self->cancellable);
      q->row = g_object_ref (row);
      q->url = g_strdup (url);
      q->board_id = g_strdup (hr_server_item_get_board_id (item));
      adw_expander_row_set_subtitle (row, asking);
      self->pending++;
      q->client = hr_ollama_client_new (url, &q->error);
      if (q->client == NULL)
        {
          query_answered (q);
          continue;
        }
      hr_ollama_client_set_timeouts (q->client, ANSWER_MS, CONNECT_MS, ANSWER_MS);
      if (self->token_store != NULL)
        hr_token_store_lookup_async (self->token_store, HR_TOKEN_KIND_OLLAMA, url, self->cancellable, on_token, q);
      else
        ask (q, NULL, q->cancellable);
    }
}

/**
 * hr_servers_overview_set_use_keyring:
 * @self: a #HrServersOverview
 * @use_keyring: %FALSE to ask every server without a token (the tests,
 *   which must not reach a real keyring)
 *
 * Whether the page looks each server's token up in the keyring first.
 */
void
hr_servers_overview_set_use_keyring (HrServersOverview *self,
                                     gboolean           use_keyring)
{
  g_return_if_fail (HR_IS_SERVERS_OVERVIEW (self));

  self->use_keyring = use_keyring;
  if (!use_keyring)
    g_clear_object (&self->token_store);
  else if (self->token_store == NULL && self->session != NULL && hr_token_store_is_built ())
    self->token_store = g_object_ref (hr_session_get_token_store (self->session));
}

/**
 * hr_servers_overview_is_busy:
 * @self: a #HrServersOverview
 *
 * Returns: %TRUE while a round of questions has servers still to answer.
 */
gboolean
hr_servers_overview_is_busy (HrServersOverview *self)
{
  g_return_val_if_fail (HR_IS_SERVERS_OVERVIEW (self), FALSE);

  return self->pending > 0;
}

static gboolean
on_timer (gpointer user_data)
{
  HrServersOverview *self = user_data;

  if (self->pending == 0)
    hr_servers_overview_refresh (self);
  return G_SOURCE_CONTINUE;
}

static void
on_unloaded (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr(HrServersOverview) self = g_weak_ref_get (ref);
  g_autoptr(GError) error = NULL;

  hr_ollama_client_unload_finish (HR_OLLAMA_CLIENT (source), result, &error);
  g_object_unref (source);
  g_weak_ref_clear (ref);
  g_free (ref);
  if (self == NULL)
    return;
  if (error != NULL)
    {
      /* TRANSLATORS: why an unload failed */
      g_autofree char *text = g_strdup_printf (_("Could not unload: %s"), error->message);
      gtk_label_set_text (self->status_label, text);
      return;
    }
  hr_servers_overview_refresh (self);
}

static void
unload_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HrServersOverview *self = HR_SERVERS_OVERVIEW (widget);
  const char *url, *model;
  HrOllamaClient *client;
  GWeakRef *ref;

  g_variant_get (parameter, "(&s&s)", &url, &model);
  client = hr_ollama_client_new (url, NULL);
  if (client == NULL)
    return;
  hr_ollama_client_set_timeouts (client, ANSWER_MS, CONNECT_MS, ANSWER_MS);
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  hr_ollama_client_unload_async (client, model, NULL, on_unloaded, ref);
}

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  hr_servers_overview_refresh (HR_SERVERS_OVERVIEW (widget));
}

/* ------------------------------------------------------------------ */
/* The object                                                          */

/* The session's server list changed (its rows were made again by the
 * binding): ask the new list's servers when the page is shown. */
static void
on_servers_changed (GListModel        *servers,
                    guint              position,
                    guint              removed,
                    guint              added,
                    HrServersOverview *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    hr_servers_overview_refresh (self);
  else
    show_list_or_empty (self);
}

/* The session whose saved servers are listed (HrPage:session, set once):
 * the list shows its server list model, one row per saved server. */
static void
hr_servers_overview_session_set (HrPage *page)
{
  HrServersOverview *self = HR_SERVERS_OVERVIEW (page);

  self->session = hr_page_get_session (page);
  /* The session's token store, which the Board page shares. */
  if (self->use_keyring && hr_token_store_is_built ())
    self->token_store = g_object_ref (hr_session_get_token_store (self->session));
  self->servers = g_object_ref (hr_session_get_server_list (self->session));
  gtk_list_box_bind_model (self->list, self->servers, create_row, self, NULL);
  g_signal_connect_object (self->servers, "items-changed", G_CALLBACK (on_servers_changed), self, 0);
  show_list_or_empty (self);
}

static void
hr_servers_overview_map (GtkWidget *widget)
{
  HrServersOverview *self = HR_SERVERS_OVERVIEW (widget);

  GTK_WIDGET_CLASS (hr_servers_overview_parent_class)->map (widget);
  hr_servers_overview_refresh (self);
  if (self->timer_id == 0)
    self->timer_id = g_timeout_add_seconds (REFRESH_SECONDS, on_timer, self);
}

static void
hr_servers_overview_unmap (GtkWidget *widget)
{
  HrServersOverview *self = HR_SERVERS_OVERVIEW (widget);

  g_clear_handle_id (&self->timer_id, g_source_remove);
  GTK_WIDGET_CLASS (hr_servers_overview_parent_class)->unmap (widget);
}

static void
hr_servers_overview_dispose (GObject *object)
{
  HrServersOverview *self = HR_SERVERS_OVERVIEW (object);

  g_clear_handle_id (&self->timer_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->token_store);
  if (self->servers != NULL)
    gtk_list_box_bind_model (self->list, NULL, NULL, NULL, NULL);
  g_clear_object (&self->servers);
  /* AdwBin's dispose unparents the template's child (the stack). */
  G_OBJECT_CLASS (hr_servers_overview_parent_class)->dispose (object);
}

static void
hr_servers_overview_class_init (HrServersOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hr_servers_overview_dispose;
  HR_PAGE_CLASS (klass)->session_set = hr_servers_overview_session_set;
  widget_class->map = hr_servers_overview_map;
  widget_class->unmap = hr_servers_overview_unmap;


  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroom/Headroom/board/hr-servers-overview.ui");
  gtk_widget_class_bind_template_child (widget_class, HrServersOverview, stack);
  gtk_widget_class_bind_template_child (widget_class, HrServersOverview, list);
  gtk_widget_class_bind_template_child (widget_class, HrServersOverview, status_label);
  gtk_widget_class_bind_template_child (widget_class, HrServersOverview, spinner);
  gtk_widget_class_install_action (widget_class, "overview.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "overview.unload", "(ss)", unload_action);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
hr_servers_overview_init (HrServersOverview *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  self->use_keyring = TRUE;
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/**
 * hr_servers_overview_new:
 *
 * Returns: (transfer full): a new Servers page; give it a session.
 */
GtkWidget *
hr_servers_overview_new (void)
{
  return g_object_new (HR_TYPE_SERVERS_OVERVIEW, NULL);
}
