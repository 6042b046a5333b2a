/* hr-board-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-board-page-private.h"
#include "hr-ollama-host.h"

/*
 * The page shows what its HrBoardConnection says: the server row and the
 * status page follow "state", "version" and "error", the lists follow
 * ::models-changed and ::loaded-changed, and the refresh timer runs while
 * the page is mapped (the visible page of the window's stack) by turning
 * the connection's "auto-refresh" on and off. The lists are filled in
 * hr-board-page-lists.c, the actions are in hr-board-page-actions.c.
 */

G_DEFINE_FINAL_TYPE (HrBoardPage, hr_board_page, HR_TYPE_PAGE)

static void hr_board_page_session_set  (HrPage *page);
static void hr_board_page_scenario_set (HrPage *page);

/* ------------------------------------------------------------------ */
/* The server rows                                                     */

static void
set_label (GtkLabel   *label,
           const char *text)
{
  gtk_label_set_text (label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
}

/* The status row names the board the server was saved with (what its
 * measurements are filed under), once it has one. */
static void
show_connected (HrBoardPage *self)
{
  const char *url = hr_board_connection_get_url (self->connection);
  const char *id = self->session != NULL ? hr_session_get_server_board (self->session, url) : NULL;
  const HrBoard *board = id != NULL ? hr_session_find_board (self->session, id) : NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *escaped = NULL;

  if (board != NULL)
    /* Translators: the server's version, its URL and the board it runs on:
       "Ollama 0.31.2 at http://10.0.0.5:11434, on NVIDIA DGX Spark (GB10)" */
    subtitle = g_strdup_printf (_("Ollama %s at %s, on %s"),
                                hr_board_connection_get_version (self->connection), url, board->name);
  else
    /* Translators: the server's version and its URL: "Ollama 0.31.2 at http://10.0.0.5:11434" */
    subtitle = g_strdup_printf (_("Ollama %s at %s"), hr_board_connection_get_version (self->connection), url);
  /* A row's subtitle is markup; the version is the server's text. */
  escaped = g_markup_escape_text (subtitle, -1);

  adw_action_row_set_subtitle (self->status_row, escaped);
  gtk_image_set_from_icon_name (self->status_icon, "network-server-symbolic");
  gtk_stack_set_visible_child_name (self->content_stack, "connected");
}

/* The lists of the old server are gone at once (the connection emptied
 * them); until the new one answers, say whom the page waits for. */
static void
show_connecting (HrBoardPage *self)
{
  /* Translators: while the page waits for a server's version: "Connecting to http://10.0.0.5:11434…" */
  g_autofree char *text = g_strdup_printf (_("Connecting to %s…"), hr_board_connection_get_url (self->connection));
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  adw_action_row_set_subtitle (self->status_row, escaped);
  gtk_label_set_text (self->connecting_label, text);
  gtk_image_set_from_icon_name (self->status_icon, "network-offline-symbolic");
  gtk_stack_set_visible_child_name (self->content_stack, "connecting");
}

/* A failed connect, or a server lost after it answered: its error in the
 * client's words (the same as `headroom-cli ollama` prints) and Retry. */
static void
show_failed (HrBoardPage *self)
{
  /* The description is markup; the error may hold the server's text. */
  const char *said = hr_board_connection_get_error (self->connection);
  g_autofree char *error = g_markup_escape_text (said != NULL ? said : "", -1);

  adw_status_page_set_title (self->status_page, hr_board_connection_get_failure_title (self->connection));
  adw_status_page_set_description (self->status_page, error);
  adw_status_page_set_icon_name (self->status_page, "network-offline-symbolic");
  gtk_widget_set_visible (GTK_WIDGET (self->retry_button), hr_board_connection_get_client (self->connection) != NULL);
  gtk_image_set_from_icon_name (self->status_icon, "network-offline-symbolic");
  adw_action_row_set_subtitle (self->status_row, _("Not connected"));
  gtk_stack_set_visible_child_name (self->content_stack, "disconnected");
}

/* Disconnected by the person: the page as it was before the first
 * connect, the URL kept for Connect. */
static void
show_disconnected (HrBoardPage *self)
{
  adw_status_page_set_title (self->status_page, _("Not Connected"));
  adw_status_page_set_description (self->status_page,
                                   _("Connect again to list the models on the server and what is loaded now."));
  adw_status_page_set_icon_name (self->status_page, "network-server-symbolic");
  gtk_widget_set_visible (GTK_WIDGET (self->retry_button), FALSE);
  gtk_image_set_from_icon_name (self->status_icon, "network-server-symbolic");
  adw_action_row_set_subtitle (self->status_row, _("Not connected"));
  gtk_stack_set_visible_child_name (self->content_stack, "disconnected");
}

/* Connect is the suggested action until the server answers (or is being
 * asked); then the button disconnects, in the plain style. */
static void
update_connect_button (HrBoardPage            *self,
                       HrBoardConnectionState  state)
{
  gboolean on = state == HR_BOARD_CONNECTION_CONNECTED || state == HR_BOARD_CONNECTION_CONNECTING;

  gtk_button_set_label (self->connect_button, on ? _("_Disconnect") : _("_Connect"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->connect_button), on ? "board.disconnect" : "board.connect");
  if (on)
    gtk_widget_remove_css_class (GTK_WIDGET (self->connect_button), "suggested-action");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->connect_button), "suggested-action");
}

/* The server row and the page below it, from the connection. */
static void
on_status_changed (HrBoardPage *self)
{
  HrBoardConnectionState state = hr_board_connection_get_state (self->connection);

  update_connect_button (self, state);
  gtk_spinner_set_spinning (self->busy_spinner, state == HR_BOARD_CONNECTION_CONNECTING);
  gtk_spinner_set_spinning (self->connecting_spinner, state == HR_BOARD_CONNECTION_CONNECTING);
  switch (state)
    {
    case HR_BOARD_CONNECTION_CONNECTING:
      show_connecting (self);
      break;
    case HR_BOARD_CONNECTION_CONNECTED:
      show_connected (self);
      break;
    case HR_BOARD_CONNECTION_FAILED:
      show_failed (self);
      break;
    case HR_BOARD_CONNECTION_DISCONNECTED:
      if (hr_board_connection_get_url (self->connection) != NULL)
        show_disconnected (self);
      break;
    default:
      break;
    }
  _hr_board_page_update_actions (self);
}

static void
on_token_note_changed (HrBoardPage *self)
{
  set_label (self->token_note, hr_board_connection_get_token_note (self->connection));
}

static void
on_token_found (HrBoardPage *self,
                const char  *token)
{
  gtk_editable_set_text (GTK_EDITABLE (self->token_row), token);
}

/* ------------------------------------------------------------------ */
/* Saved servers                                                       */

static void
load_saved (HrBoardPage *self)
{
  GArray *servers = self->session != NULL ? hr_session_get_servers (self->session) : NULL;
  const char *current = hr_board_connection_get_url (self->connection);
  guint selected = GTK_INVALID_LIST_POSITION;
  guint n = servers != NULL ? servers->len : 0;

  if (!self->built)
    return;
  if (hr_board_connection_get_state (self->connection) == HR_BOARD_CONNECTION_CONNECTED)
    show_connected (self);
  /* Refilling the list moves the selection: that is not the person choosing. */
  g_signal_handlers_block_matched (self->saved_row, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_string_list_splice (self->saved_list, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->saved_list)), NULL);
  for (guint i = 0; i < n; i++)
    {
      const HrSavedServer *server = &g_array_index (servers, HrSavedServer, i);

      gtk_string_list_append (self->saved_list, server->url);
      if (g_strcmp0 (server->url, current) == 0)
        selected = i;
    }
  adw_combo_row_set_selected (self->saved_row, selected);
  g_signal_handlers_unblock_matched (self->saved_row, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  /* One saved server is the one in the URL row: offer a choice from two. */
  gtk_widget_set_visible (GTK_WIDGET (self->saved_row), n > 1);
}

static gboolean
is_saved (HrBoardPage *self,
          const char  *url)
{
  return self->session != NULL && hr_session_get_server_board (self->session, url) != NULL;
}

/* A server that answered is saved (URL only) with the board it runs on:
 * the one remembered for it, else the one the person chooses now (never
 * merely the board the Models page shows). The session's
 * ::servers-changed then refills the list. */
static void
on_state_changed (HrBoardPage *self)
{
  const char *url;
  const char *board;

  if (self->session == NULL ||
      hr_board_connection_get_state (self->connection) != HR_BOARD_CONNECTION_CONNECTED)
    return;
  url = hr_board_connection_get_url (self->connection);
  board = _hr_board_page_get_server_board (self);
  if (board == NULL)
    {
      _hr_board_page_ask_server_board (self, NULL);
      return;
    }
  hr_session_remember_server (self->session, url, board);
  load_saved (self);
}

/* A saved server belongs to the board it was saved with: choose that
 * board, so the pull check and the archive use it. */
static void
select_saved_board (HrBoardPage *self,
                    const char  *url)
{
  const char *id;

  if (self->session == NULL || self->scenario == NULL)
    return;
  id = hr_session_get_server_board (self->session, url);
  if (id != NULL && hr_session_find_board (self->session, id) != NULL)
    hr_scenario_set_board_id (self->scenario, id);
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
  if (g_strcmp0 (url, hr_board_connection_get_url (self->connection)) == 0 &&
      hr_board_connection_is_connected (self->connection))
    return;
  select_saved_board (self, url);
  /* Another server: its own token, if any, comes from the keyring. */
  gtk_editable_set_text (GTK_EDITABLE (self->token_row), "");
  hr_board_page_connect (self, url);
}

/**
 * hr_board_page_connect:
 * @self: a #HrBoardPage
 * @url: (nullable): the server as a person types it ("10.0.0.5:11434",
 *   "board.local", "https://proxy/ollama"); %NULL for what the URL row holds
 *
 * Connects the page's HrBoardConnection (hr_board_connection_connect())
 * to @url with the token in the token row, and shows the normalised URL
 * (without the userinfo of "http://user:pass@host"); once the server
 * answers it is saved (URL only, with the board chosen now) and the lists
 * are read. A @url that is the one shown for the server last asked for
 * (Retry, or Connect with the URL row as it was) connects again with the
 * URL as it was given, so a proxy's basic auth goes with it. A token is kept in the keyring (or, without
 * one, in memory for the session); never in the settings. Whatever fails
 * is said on the page in the client's words.
 */
void
hr_board_page_connect (HrBoardPage *self,
                       const char  *url)
{
  g_autofree char *normalized = NULL;
  const char *token;
  gboolean again;

  g_return_if_fail (HR_IS_BOARD_PAGE (self));

  _hr_board_page_ensure_built (self);
  if (url == NULL)
    url = gtk_editable_get_text (GTK_EDITABLE (self->url_row));
  normalized = hr_ollama_host_normalize (url, NULL);
  token = gtk_editable_get_text (GTK_EDITABLE (self->token_row));
  /* The URL row still shows the server last asked for: that server again,
   * with the URL as it was given (a password in it is not shown). */
  again = hr_board_connection_get_client (self->connection) != NULL &&
          g_strcmp0 (url, hr_board_connection_get_url (self->connection)) == 0;
  hr_board_connection_connect (self->connection, again ? NULL : url, token,
                               normalized != NULL && is_saved (self, normalized));
  if (hr_board_connection_get_state (self->connection) == HR_BOARD_CONNECTION_CONNECTING)
    gtk_editable_set_text (GTK_EDITABLE (self->url_row), hr_board_connection_get_url (self->connection));
}

static void
on_url_activated (HrBoardPage *self)
{
  hr_board_page_connect (self, NULL);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_board_page_map (GtkWidget *widget)
{
  HrBoardPage *self = HR_BOARD_PAGE (widget);

  _hr_board_page_ensure_built (self);
  GTK_WIDGET_CLASS (hr_board_page_parent_class)->map (widget);

  /* Reconnect to the last server the first time the page is shown. */
  if (!self->auto_connected && hr_board_connection_get_client (self->connection) == NULL)
    {
      g_autofree char *last = self->session != NULL ? hr_session_dup_last_server (self->session) : g_strdup ("");
      const char *host = g_getenv ("OLLAMA_HOST");

      self->auto_connected = TRUE;
      /* As given, not as the URL row shows it: OLLAMA_HOST's userinfo is
       * a proxy's basic auth. */
      if (*last != '\0' || (host != NULL && *host != '\0'))
        {
          g_autofree char *initial = hr_ollama_default_host (last);

          hr_board_page_connect (self, initial);
        }
    }
  hr_board_connection_set_auto_refresh (self->connection, TRUE);
}

static void
hr_board_page_unmap (GtkWidget *widget)
{
  hr_board_connection_set_auto_refresh (HR_BOARD_PAGE (widget)->connection, FALSE);
  GTK_WIDGET_CLASS (hr_board_page_parent_class)->unmap (widget);
}

static void
hr_board_page_dispose (GObject *object)
{
  HrBoardPage *self = HR_BOARD_PAGE (object);

  if (self->measure_window != NULL)
    gtk_window_destroy (self->measure_window);
  g_clear_weak_pointer (&self->measure_window);
  if (self->board_chooser != NULL)
    gtk_window_destroy (self->board_chooser);
  g_clear_weak_pointer (&self->board_chooser);
  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);

  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_BOARD_PAGE);
  /* After the panels: they let go of it in their own dispose. */
  if (self->connection != NULL)
    g_object_run_dispose (G_OBJECT (self->connection));
  g_clear_object (&self->connection);


  G_OBJECT_CLASS (hr_board_page_parent_class)->dispose (object);
}

static void
hr_board_page_finalize (GObject *object)
{
  HrBoardPage *self = HR_BOARD_PAGE (object);

  g_clear_pointer (&self->models_key, g_free);
  g_clear_pointer (&self->loaded_key, g_free);

  G_OBJECT_CLASS (hr_board_page_parent_class)->finalize (object);
}

static void
hr_board_page_class_init (HrBoardPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  HrPageClass *page_class = HR_PAGE_CLASS (klass);

  object_class->dispose = hr_board_page_dispose;
  object_class->finalize = hr_board_page_finalize;
  page_class->session_set = hr_board_page_session_set;
  page_class->scenario_set = hr_board_page_scenario_set;

  widget_class->map = hr_board_page_map;
  widget_class->unmap = hr_board_page_unmap;

  g_type_ensure (HR_TYPE_PULL_PANEL);
  g_type_ensure (HR_TYPE_CHAT_PANEL);
  g_type_ensure (HR_TYPE_MEASURE_WINDOW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/board/hr-board-page.ui");
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, saved_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, saved_list);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, url_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, token_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, status_row);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, status_icon);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, token_note);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, content_stack);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, status_page);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, retry_button);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, connect_button);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, connecting_spinner);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, connecting_label);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, models_list);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, loaded_list);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, pull_panel);
  gtk_widget_class_bind_template_child (widget_class, HrBoardPage, chat_panel);
  gtk_widget_class_bind_template_callback (widget_class, on_url_activated);

  _hr_board_page_class_actions_init (widget_class);
}

static void
observe_connection (HrBoardPage *self)
{
  g_signal_connect_object (self->connection, "notify::state", G_CALLBACK (on_status_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "notify::error", G_CALLBACK (on_status_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "notify::url", G_CALLBACK (on_status_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "notify::state", G_CALLBACK (on_state_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "notify::client", G_CALLBACK (_hr_board_page_update_actions), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "notify::token-note", G_CALLBACK (on_token_note_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "token-found", G_CALLBACK (on_token_found), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "models-changed", G_CALLBACK (_hr_board_page_on_models_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->connection, "loaded-changed", G_CALLBACK (_hr_board_page_on_loaded_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->pull_panel, "notify::pulling", G_CALLBACK (_hr_board_page_update_actions), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->pull_panel, "notify::can-pull", G_CALLBACK (_hr_board_page_update_actions), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->chat_panel, "notify::chatting", G_CALLBACK (_hr_board_page_update_actions), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->chat_panel, "notify::can-send", G_CALLBACK (_hr_board_page_update_actions), self,
                           G_CONNECT_SWAPPED);
}

/* OLLAMA_HOST first, then the last server, then localhost (docs/ollama.md). */
static void
show_default_url (HrBoardPage *self)
{
  g_autofree char *last = self->session != NULL ? hr_session_dup_last_server (self->session) : NULL;
  g_autofree char *initial = hr_ollama_default_host (last);
  g_autofree char *normalized = hr_ollama_host_normalize (initial, NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->url_row), normalized ? normalized : initial);
}

/* The status rows and the lists as the connection says now: the page may
 * be built after the connection was used (a test, or an action). */
static void
sync_connection (HrBoardPage *self)
{
  on_status_changed (self);
  on_token_note_changed (self);
  if (hr_board_connection_is_connected (self->connection))
    {
      _hr_board_page_on_models_changed (self);
      _hr_board_page_on_loaded_changed (self);
    }
}

/**
 * _hr_board_page_ensure_built:
 * @self: a #HrBoardPage
 *
 * Builds the page's widgets from its template the first time it is shown
 * (or used): the window opens on another page, so the Board page costs
 * nothing at start-up. Does nothing once built.
 */
void
_hr_board_page_ensure_built (HrBoardPage *self)
{
  if (self->built)
    return;
  self->built = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));
  hr_pull_panel_set_connection (self->pull_panel, self->connection);
  hr_chat_panel_set_connection (self->chat_panel, self->connection);
  observe_connection (self);

  if (hr_board_connection_get_client (self->connection) == NULL)
    show_default_url (self);
  else
    gtk_editable_set_text (GTK_EDITABLE (self->url_row), hr_board_connection_get_url (self->connection));
  load_saved (self);
  g_signal_connect (self->saved_row, "notify::selected", G_CALLBACK (on_saved_selected), self);
  sync_connection (self);
}

static void
hr_board_page_init (HrBoardPage *self)
{
  self->connection = hr_board_connection_new ();
  _hr_board_page_update_actions (self);
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

/* The saved servers the page offers and remembers
 * (hr_session_get_servers(), hr_session_remember_server()), the catalog
 * Add to Catalog and a pull add to, the archive Measure saves into, and
 * the token store. Until the page connects, the URL row shows the default
 * server: OLLAMA_HOST, else the last one connected to, else localhost. */
static void
hr_board_page_session_set (HrPage *page)
{
  HrBoardPage *self = HR_BOARD_PAGE (page);
  HrSession *session = hr_page_get_session (page);

  self->session = session;
  g_signal_connect_object (session, "servers-changed", G_CALLBACK (load_saved), self, G_CONNECT_SWAPPED);
  hr_board_connection_set_token_store (self->connection, hr_session_get_token_store (session));
  if (self->built && hr_board_connection_get_client (self->connection) == NULL)
    show_default_url (self);
  load_saved (self);
}

/* The shared scenario: its board is the one a measurement is filed under
 * and a saved server is remembered with, and the pull check evaluates
 * under it; choosing a saved server chooses its board
 * (hr_scenario_set_board_id()). */
static void
hr_board_page_scenario_set (HrPage *page)
{
  HR_BOARD_PAGE (page)->scenario = hr_page_get_scenario (page);
}

/* The board chosen now: measurements are filed under it and a server is
 * saved with it. Before the session has loaded, the scenario's setting. */
const char *
_hr_board_page_get_board_id (HrBoardPage *self)
{
  const HrBoard *board = self->scenario != NULL ? hr_scenario_get_board (self->scenario) : NULL;
  const char *id = self->scenario != NULL ? hr_scenario_get_board_id (self->scenario) : NULL;

  if (board != NULL && board->id != NULL)
    return board->id;
  return id != NULL && *id != '\0' ? id : "unknown";
}

/**
 * _hr_board_page_get_connection:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none): the page's connection
 */
HrBoardConnection *
_hr_board_page_get_connection (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->connection;
}

/**
 * _hr_board_page_get_pull_panel:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none): the page's "Pull a Model"
 */
HrPullPanel *
_hr_board_page_get_pull_panel (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  _hr_board_page_ensure_built (self);
  return self->pull_panel;
}

/**
 * _hr_board_page_get_chat_panel:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none): the page's "Try It"
 */
HrChatPanel *
_hr_board_page_get_chat_panel (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  _hr_board_page_ensure_built (self);
  return self->chat_panel;
}

/**
 * _hr_board_page_get_token_note:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none): what the page says about where the token is
 *   kept ("" when there is nothing to say)
 */
const char *
_hr_board_page_get_token_note (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  _hr_board_page_ensure_built (self);
  return gtk_widget_get_visible (GTK_WIDGET (self->token_note)) ? gtk_label_get_text (self->token_note) : "";
}

/**
 * _hr_board_page_get_measure_window:
 * @self: a #HrBoardPage
 *
 * Returns: (transfer none) (nullable): the measure window Measure opened
 *   last, while it is open
 */
HrMeasureWindow *
_hr_board_page_get_measure_window (HrBoardPage *self)
{
  g_return_val_if_fail (HR_IS_BOARD_PAGE (self), NULL);
  return self->measure_window != NULL ? HR_MEASURE_WINDOW (self->measure_window) : NULL;
}
