/* hr-chat-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-chat-panel.h"
#include "hr-gui-format.h"
#include "hr-ollama-host.h"

struct _HrChatPanel
{
  AdwBin             parent_instance;

  /* template */
  AdwComboRow       *chat_model_row;
  GtkStringList     *chat_models;
  AdwEntryRow       *system_row;
  GtkSpinButton     *temperature_spin;
  GtkSpinButton     *seed_spin;
  AdwEntryRow       *message_row;
  GtkScrolledWindow *transcript_scroller;
  GtkBox            *transcript;
  GtkLabel          *rates_label;

  HrBoardConnection *connection;
  char              *models_key;       /* the names the model choice was built for */
  GCancellable      *chat_cancellable;
  JsonArray         *history;          /* user and assistant turns */
  GString           *reply;
  GtkWidget         *asked;            /* the turn of the message waiting for its reply */
  GtkWidget         *answer;           /* the turn its reply streams into */
  GtkLabel          *answer_label;
  guint              scroll_tick;
  gboolean           chatting;
  gboolean           can_send;
  gboolean           disposed;
};

G_DEFINE_FINAL_TYPE (HrChatPanel, hr_chat_panel, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_CHATTING,
  PROP_CAN_SEND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* State                                                               */

static void
update_state (HrChatPanel *self)
{
  const char *message = gtk_editable_get_text (GTK_EDITABLE (self->message_row));
  gboolean chatting = self->chat_cancellable != NULL;
  gboolean can_send = message != NULL && *message != '\0' &&
                      g_list_model_get_n_items (G_LIST_MODEL (self->chat_models)) > 0;

  if (chatting != self->chatting)
    {
      self->chatting = chatting;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHATTING]);
    }
  if (can_send != self->can_send)
    {
      self->can_send = can_send;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_SEND]);
    }
}

static void
set_label (GtkLabel   *label,
           const char *text)
{
  gtk_label_set_text (label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
}

/* ------------------------------------------------------------------ */
/* The transcript                                                      */

static gboolean
scroll_to_end (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       user_data)
{
  HrChatPanel *self = user_data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->transcript_scroller);

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
  self->scroll_tick = 0;
  return G_SOURCE_REMOVE;
}

/* Shows the transcript's end once the new text is laid out. */
static void
follow_end (HrChatPanel *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->transcript_scroller),
                          gtk_widget_get_first_child (GTK_WIDGET (self->transcript)) != NULL);
  if (self->scroll_tick == 0)
    self->scroll_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->transcript_scroller), scroll_to_end, self, NULL);
}

static GtkWidget *
turn_label (const char *text,
            const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* One turn of the transcript: who said it (the person, or the model), and
 * what; its text label is returned in @text_label. */
static GtkWidget *
add_turn (HrChatPanel  *self,
          const char   *who,
          const char   *text,
          GtkLabel    **text_label)
{
  GtkWidget *turn = g_object_new (GTK_TYPE_BOX,
                                  "orientation", GTK_ORIENTATION_VERTICAL,
                                  "spacing", 3,
                                  "accessible-role", GTK_ACCESSIBLE_ROLE_LIST_ITEM,
                                  NULL);
  GtkWidget *heading = turn_label (who, "heading");
  GtkWidget *body = turn_label (text, NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (body), GTK_ACCESSIBLE_PROPERTY_LABEL, who, -1);
  gtk_label_set_selectable (GTK_LABEL (heading), FALSE);
  gtk_box_append (GTK_BOX (turn), heading);
  gtk_box_append (GTK_BOX (turn), body);
  gtk_box_append (self->transcript, turn);
  if (text_label != NULL)
    *text_label = GTK_LABEL (body);
  follow_end (self);
  return turn;
}

/* The message that got no reply leaves the transcript, as it leaves the
 * conversation. */
static void
drop_pending (HrChatPanel *self)
{
  if (self->asked != NULL)
    gtk_box_remove (self->transcript, self->asked);
  if (self->answer != NULL)
    gtk_box_remove (self->transcript, self->answer);
  self->asked = self->answer = NULL;
  self->answer_label = NULL;
  follow_end (self);
}

static void
clear_transcript (HrChatPanel *self)
{
  GtkWidget *child;

  self->asked = self->answer = NULL;
  self->answer_label = NULL;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->transcript))) != NULL)
    gtk_box_remove (self->transcript, child);
  gtk_widget_set_visible (GTK_WIDGET (self->transcript_scroller), FALSE);
}

static void
set_rates (HrChatPanel *self,
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
cancel_chat (HrChatPanel *self)
{
  if (self->chat_cancellable != NULL)
    g_cancellable_cancel (self->chat_cancellable);
  g_clear_object (&self->chat_cancellable);
}

static void
forget_history (HrChatPanel *self)
{
  if (self->history != NULL)
    json_array_unref (self->history);
  self->history = json_array_new ();
}

/* ------------------------------------------------------------------ */
/* Chatting                                                            */

static void
on_chat_chunk (const char *content,
               const char *thinking,
               gpointer    user_data)
{
  HrChatPanel *self = user_data;

  if (self->disposed || content == NULL || *content == '\0')
    return;
  g_string_append (self->reply, content);
  if (self->answer_label != NULL)
    gtk_label_set_text (self->answer_label, self->reply->str);
  follow_end (self);
}

static void
show_rates (HrChatPanel         *self,
            const HrOllamaReply *reply)
{
  g_autofree char *prefill = hr_gui_format_ollama_tps (hr_ollama_rate_tps (reply->prompt_eval_count,
                                                                       reply->prompt_eval_duration));
  g_autofree char *decode = hr_gui_format_ollama_tps (hr_ollama_rate_tps (reply->eval_count, reply->eval_duration));
  g_autofree char *ttft = NULL;
  g_autofree char *text = NULL;

  if (reply->ttft_ms >= 0)
    ttft = hr_gui_format_ollama_ms ((gint64) (reply->ttft_ms * 1e6));
  else
    ttft = g_strdup (_("n/a"));
  /* Translators: the reply's rates: prefill t/s, decode t/s, client TTFT in ms */
  text = g_strdup_printf (_("Prefill %1$s t/s · decode %2$s t/s · TTFT %3$s ms"), prefill, decode, ttft);
  if (self->answer != NULL)
    gtk_box_append (GTK_BOX (self->answer), turn_label (text, "dim-label"));
  set_rates (self, NULL, FALSE);
}

static void
on_chatted (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(HrChatPanel) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrOllamaReply) reply = hr_ollama_client_chat_finish (HR_OLLAMA_CLIENT (source), result, &error);
  JsonObject *turn;

  if (self->disposed)
    return;
  if (reply == NULL)
    {
      /* The question goes unanswered: take it back out of the history. */
      guint n = self->history != NULL ? json_array_get_length (self->history) : 0;

      if (n > 0)
        json_array_remove_element (self->history, n - 1);
      drop_pending (self);
      g_clear_object (&self->chat_cancellable);
      update_state (self);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
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
  if (self->answer_label != NULL)
    gtk_label_set_text (self->answer_label, reply->text && *reply->text ? reply->text : self->reply->str);
  show_rates (self, reply);
  self->asked = self->answer = NULL;
  self->answer_label = NULL;
  follow_end (self);
  update_state (self);
}

/* The server keeps no history: the system prompt and every turn. */
static JsonArray *
build_messages (HrChatPanel *self)
{
  const char *system = gtk_editable_get_text (GTK_EDITABLE (self->system_row));
  JsonArray *messages = json_array_new ();
  guint n;

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
  return messages;
}

/**
 * hr_chat_panel_send:
 * @self: a #HrChatPanel
 *
 * Sends the typed message, after the system prompt and the conversation
 * so far, to the chosen model with the temperature and seed given; the
 * reply streams into the panel. Does nothing without a connected server,
 * while a reply is streaming, or without a message or a model.
 */
void
hr_chat_panel_send (HrChatPanel *self)
{
  const char *message;
  guint selected;
  HrOllamaClient *client;
  g_autoptr(JsonArray) messages = NULL;
  g_autoptr(JsonObject) options = json_object_new ();
  JsonObject *turn;
  const char *model;

  g_return_if_fail (HR_IS_CHAT_PANEL (self));

  message = gtk_editable_get_text (GTK_EDITABLE (self->message_row));
  selected = adw_combo_row_get_selected (self->chat_model_row);
  client = self->connection != NULL ? hr_board_connection_get_client (self->connection) : NULL;
  if (client == NULL || self->chat_cancellable != NULL || message == NULL || *message == '\0' ||
      selected == GTK_INVALID_LIST_POSITION ||
      selected >= g_list_model_get_n_items (G_LIST_MODEL (self->chat_models)))
    return;
  model = gtk_string_list_get_string (self->chat_models, selected);

  turn = json_object_new ();
  json_object_set_string_member (turn, "role", "user");
  json_object_set_string_member (turn, "content", message);
  json_array_add_object_element (self->history, turn);
  messages = build_messages (self);

  json_object_set_double_member (options, "temperature", gtk_spin_button_get_value (self->temperature_spin));
  json_object_set_int_member (options, "seed", gtk_spin_button_get_value_as_int (self->seed_spin));

  g_string_truncate (self->reply, 0);
  self->asked = add_turn (self, _("You"), message, NULL);
  self->answer = add_turn (self, model, "", &self->answer_label);
  set_rates (self, _("Waiting for the first token…"), FALSE);
  self->chat_cancellable = g_cancellable_new ();
  gtk_editable_set_text (GTK_EDITABLE (self->message_row), "");
  hr_ollama_client_chat_async (client, model, messages, options, on_chat_chunk, self,
                               self->chat_cancellable, on_chatted, g_object_ref (self));
  update_state (self);
}

/**
 * hr_chat_panel_stop:
 * @self: a #HrChatPanel
 *
 * Stops the reply that is streaming, if any; the unanswered message then
 * leaves the conversation.
 */
void
hr_chat_panel_stop (HrChatPanel *self)
{
  g_return_if_fail (HR_IS_CHAT_PANEL (self));

  if (self->chat_cancellable != NULL)
    g_cancellable_cancel (self->chat_cancellable);
}

/**
 * hr_chat_panel_new_conversation:
 * @self: a #HrChatPanel
 *
 * Stops a streaming reply and forgets the conversation.
 */
void
hr_chat_panel_new_conversation (HrChatPanel *self)
{
  g_return_if_fail (HR_IS_CHAT_PANEL (self));

  cancel_chat (self);
  forget_history (self);
  g_string_truncate (self->reply, 0);
  clear_transcript (self);
  set_rates (self, NULL, FALSE);
  update_state (self);
}

/* ------------------------------------------------------------------ */
/* Following the connection                                            */

static char *
names_key (GPtrArray *models)
{
  GString *key = g_string_new (NULL);

  for (guint i = 0; i < models->len; i++)
    {
      const HrOllamaModel *model = g_ptr_array_index (models, i);

      g_string_append (key, model->name ? model->name : "");
      g_string_append_c (key, '\n');
    }
  return g_string_free (key, FALSE);
}

/* The model choice follows the board's models, keeping the one chosen. */
static void
on_models_changed (HrChatPanel *self)
{
  GPtrArray *models = hr_board_connection_get_models (self->connection);
  g_autofree char *key = names_key (models);
  guint selected = adw_combo_row_get_selected (self->chat_model_row);
  g_autofree char *chosen = NULL;

  if (g_strcmp0 (key, self->models_key) == 0)
    return;
  g_free (self->models_key);
  self->models_key = g_steal_pointer (&key);
  if (selected != GTK_INVALID_LIST_POSITION &&
      selected < g_list_model_get_n_items (G_LIST_MODEL (self->chat_models)))
    chosen = g_strdup (gtk_string_list_get_string (self->chat_models, selected));

  gtk_string_list_splice (self->chat_models, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->chat_models)), NULL);
  selected = 0;
  for (guint i = 0; i < models->len; i++)
    {
      const HrOllamaModel *model = g_ptr_array_index (models, i);

      gtk_string_list_append (self->chat_models, model->name);
      if (g_strcmp0 (model->name, chosen) == 0)
        selected = i;
    }
  if (models->len > 0)
    adw_combo_row_set_selected (self->chat_model_row, selected);
  update_state (self);
}

/* A new server: the conversation with the old one ends. */
static void
on_client_changed (HrChatPanel *self)
{
  cancel_chat (self);
  forget_history (self);
  clear_transcript (self);
  set_rates (self, NULL, FALSE);
  update_state (self);
}

static void
on_message_changed (HrChatPanel *self)
{
  update_state (self);
}

static void
on_message_activated (HrChatPanel *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "board.send", NULL);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_chat_panel_dispose (GObject *object)
{
  HrChatPanel *self = HR_CHAT_PANEL (object);

  self->disposed = TRUE;
  cancel_chat (self);
  if (self->scroll_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->transcript_scroller), self->scroll_tick);
  self->scroll_tick = 0;
  self->asked = self->answer = NULL;
  self->answer_label = NULL;
  g_clear_object (&self->connection);
  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_CHAT_PANEL);

  G_OBJECT_CLASS (hr_chat_panel_parent_class)->dispose (object);
}

static void
hr_chat_panel_finalize (GObject *object)
{
  HrChatPanel *self = HR_CHAT_PANEL (object);

  g_clear_pointer (&self->models_key, g_free);
  g_clear_pointer (&self->history, json_array_unref);
  if (self->reply != NULL)
    g_string_free (self->reply, TRUE);

  G_OBJECT_CLASS (hr_chat_panel_parent_class)->finalize (object);
}

static void
hr_chat_panel_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  HrChatPanel *self = HR_CHAT_PANEL (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, self->connection);
      break;
    case PROP_CHATTING:
      g_value_set_boolean (value, self->chatting);
      break;
    case PROP_CAN_SEND:
      g_value_set_boolean (value, self->can_send);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_chat_panel_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  HrChatPanel *self = HR_CHAT_PANEL (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      hr_chat_panel_set_connection (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_chat_panel_class_init (HrChatPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = hr_chat_panel_dispose;
  object_class->finalize = hr_chat_panel_finalize;
  object_class->get_property = hr_chat_panel_get_property;
  object_class->set_property = hr_chat_panel_set_property;

  properties[PROP_CONNECTION] = g_param_spec_object ("connection", NULL, NULL, HR_TYPE_BOARD_CONNECTION, rw);
  properties[PROP_CHATTING] = g_param_spec_boolean ("chatting", NULL, NULL, FALSE, ro);
  properties[PROP_CAN_SEND] = g_param_spec_boolean ("can-send", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/headroom/Headroom/board/hr-chat-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, HrChatPanel, chat_model_row);
  gtk_widget_class_bind_template_child (widget_class, HrChatPanel, chat_models);
  gtk_widget_class_bind_template_child (widget_class, HrChatPanel, system_row);
  gtk_widget_class_bind_template_child (widget_class, HrChatPanel, temperature_spin);
  gtk_widget_class_bind_template_child (widget_class, HrChatPanel, seed_spin);
  gtk_widget_class_bind_template_child (widget_class, HrChatPanel, message_row);
  gtk_widget_class_bind_template_child (widget_class, HrChatPanel, transcript_scroller);
  gtk_widget_class_bind_template_child (widget_class, HrChatPanel, transcript);
  gtk_widget_class_bind_template_child (widget_class, HrChatPanel, rates_label);
  gtk_widget_class_bind_template_callback (widget_class, on_message_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_message_activated);
}

static void
hr_chat_panel_init (HrChatPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->history = json_array_new ();
  self->reply = g_string_new (NULL);
}

/**
 * hr_chat_panel_new:
 *
 * Returns: (transfer floating): a new #HrChatPanel, without a connection
 */
GtkWidget *
hr_chat_panel_new (void)
{
  return g_object_new (HR_TYPE_CHAT_PANEL, NULL);
}

/**
 * hr_chat_panel_set_connection:
 * @self: a #HrChatPanel
 * @connection: (nullable): the connection whose server the panel talks to
 *
 * The model choice follows @connection's ::models-changed; a new server
 * (its "client" changes) ends the conversation.
 */
void
hr_chat_panel_set_connection (HrChatPanel       *self,
                              HrBoardConnection *connection)
{
  g_return_if_fail (HR_IS_CHAT_PANEL (self));
  g_return_if_fail (connection == NULL || HR_IS_BOARD_CONNECTION (connection));

  if (self->connection == connection)
    return;
  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);
  on_client_changed (self);
  g_set_object (&self->connection, connection);
  if (connection != NULL)
    {
      g_signal_connect_object (connection, "notify::client", G_CALLBACK (on_client_changed), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (connection, "models-changed", G_CALLBACK (on_models_changed), self,
                               G_CONNECT_SWAPPED);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECTION]);
}

/**
 * hr_chat_panel_is_chatting:
 * @self: a #HrChatPanel
 *
 * Returns: whether a reply is streaming
 */
gboolean
hr_chat_panel_is_chatting (HrChatPanel *self)
{
  g_return_val_if_fail (HR_IS_CHAT_PANEL (self), FALSE);
  return self->chatting;
}

/**
 * hr_chat_panel_get_can_send:
 * @self: a #HrChatPanel
 *
 * Returns: whether a message is typed and the board has a model to send
 *   it to
 */
gboolean
hr_chat_panel_get_can_send (HrChatPanel *self)
{
  g_return_val_if_fail (HR_IS_CHAT_PANEL (self), FALSE);
  return self->can_send;
}

/**
 * hr_chat_panel_get_transcript:
 * @self: a #HrChatPanel
 *
 * Returns: (transfer none): the transcript: a vertical #GtkBox with one
 *   child per turn, in order, each a box of labels: who spoke ("You", or
 *   the model's name) and what was said, and after a reply its rates
 *   (prefill and decode tokens/s, time to first token)
 */
GtkWidget *
hr_chat_panel_get_transcript (HrChatPanel *self)
{
  g_return_val_if_fail (HR_IS_CHAT_PANEL (self), NULL);
  return GTK_WIDGET (self->transcript);
}

/**
 * hr_chat_panel_get_n_turns:
 * @self: a #HrChatPanel
 *
 * Returns: the turns kept in the conversation (the person's messages that
 *   were answered, and the answers), which the next message is sent after
 */
guint
hr_chat_panel_get_n_turns (HrChatPanel *self)
{
  g_return_val_if_fail (HR_IS_CHAT_PANEL (self), 0);
  return json_array_get_length (self->history);
}
