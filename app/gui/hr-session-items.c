/* hr-session-items.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The items of the session's list models, and the lists themselves, which
 * hang on the session as qdata so that HrSession's struct and its loading
 * stay as they are; hr-session.c calls _hr_session_sync_lists() after each
 * change of its data, before it emits the change.
 */

#include "config.h"

#include "hr-session-items.h"
#include "hr-session-private.h"

/* ------------------------------------------------------------------ */
/* HrBoardItem: a copy of one board                                    */

struct _HrBoardItem
{
  GObject  parent_instance;
  HrBoard *board;
};

G_DEFINE_FINAL_TYPE (HrBoardItem, hr_board_item, G_TYPE_OBJECT)

static void
hr_board_item_finalize (GObject *object)
{
  g_clear_pointer (&HR_BOARD_ITEM (object)->board, hr_board_free);
  G_OBJECT_CLASS (hr_board_item_parent_class)->finalize (object);
}

static void
hr_board_item_class_init (HrBoardItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_board_item_finalize;
}

static void
hr_board_item_init (HrBoardItem *self)
{
}

/** hr_board_item_get_board: @self: an item. Returns: (transfer none): its board, as the session had it when the list was made */
const HrBoard *
hr_board_item_get_board (HrBoardItem *self)
{
  g_return_val_if_fail (HR_IS_BOARD_ITEM (self), NULL);

  return self->board;
}

/* ------------------------------------------------------------------ */
/* HrMeasurementItem: one record of the archive as read                */

struct _HrMeasurementItem
{
  GObject              parent_instance;
  GPtrArray           *archive;      /* owned ref: the array the record is in */
  const HrMeasurement *measurement;  /* in archive */
};

G_DEFINE_FINAL_TYPE (HrMeasurementItem, hr_measurement_item, G_TYPE_OBJECT)

static void
hr_measurement_item_finalize (GObject *object)
{
  g_clear_pointer (&HR_MEASUREMENT_ITEM (object)->archive, g_ptr_array_unref);
  G_OBJECT_CLASS (hr_measurement_item_parent_class)->finalize (object);
}

static void
hr_measurement_item_class_init (HrMeasurementItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_measurement_item_finalize;
}

static void
hr_measurement_item_init (HrMeasurementItem *self)
{
}

/** hr_measurement_item_get_measurement: @self: an item. Returns: (transfer none): its record, valid as long as the item */
const HrMeasurement *
hr_measurement_item_get_measurement (HrMeasurementItem *self)
{
  g_return_val_if_fail (HR_IS_MEASUREMENT_ITEM (self), NULL);

  return self->measurement;
}

/* ------------------------------------------------------------------ */
/* HrServerItem: one saved server                                      */

struct _HrServerItem
{
  GObject  parent_instance;
  char    *url;
  char    *board_id;
};

G_DEFINE_FINAL_TYPE (HrServerItem, hr_server_item, G_TYPE_OBJECT)

static void
hr_server_item_finalize (GObject *object)
{
  HrServerItem *self = HR_SERVER_ITEM (object);

  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->board_id, g_free);
  G_OBJECT_CLASS (hr_server_item_parent_class)->finalize (object);
}

static void
hr_server_item_class_init (HrServerItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hr_server_item_finalize;
}

static void
hr_server_item_init (HrServerItem *self)
{
}

/** hr_server_item_get_url: @self: an item. Returns: (transfer none): the server's URL ("http://host:11434") */
const char *
hr_server_item_get_url (HrServerItem *self)
{
  g_return_val_if_fail (HR_IS_SERVER_ITEM (self), NULL);

  return self->url;
}

/** hr_server_item_get_board_id: @self: an item. Returns: (transfer none): the id of the board it runs on */
const char *
hr_server_item_get_board_id (HrServerItem *self)
{
  g_return_val_if_fail (HR_IS_SERVER_ITEM (self), NULL);

  return self->board_id;
}

/* ------------------------------------------------------------------ */
/* The lists                                                           */

static const char * const list_keys[] = {
  [HR_SESSION_LIST_BOARDS] = "hr-session-board-list",
  [HR_SESSION_LIST_MEASUREMENTS] = "hr-session-measurement-list",
  [HR_SESSION_LIST_SERVERS] = "hr-session-server-list",
};

static GListStore *
session_list (HrSession     *self,
              HrSessionList  which)
{
  GListStore *store = g_object_get_data (G_OBJECT (self), list_keys[which]);

  if (store == NULL)
    {
      GType type = which == HR_SESSION_LIST_BOARDS ? HR_TYPE_BOARD_ITEM
                 : which == HR_SESSION_LIST_MEASUREMENTS ? HR_TYPE_MEASUREMENT_ITEM
                 : HR_TYPE_SERVER_ITEM;

      store = g_list_store_new (type);
      g_object_set_data_full (G_OBJECT (self), list_keys[which], store, g_object_unref);
      _hr_session_sync_list (self, which);
    }
  return store;
}

/**
 * _hr_session_sync_list:
 * @self: a #HrSession
 * @which: which list
 *
 * Makes the list @which (if it was asked for already) what the session
 * holds now, in one splice.
 */
void
_hr_session_sync_list (HrSession     *self,
                       HrSessionList  which)
{
  GListStore *store = g_object_get_data (G_OBJECT (self), list_keys[which]);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  if (store == NULL)
    return;
  if (which == HR_SESSION_LIST_BOARDS)
    {
      GPtrArray *boards = hr_session_get_boards (self);

      for (guint i = 0; i < boards->len; i++)
        {
          HrBoardItem *item = g_object_new (HR_TYPE_BOARD_ITEM, NULL);

          item->board = hr_board_copy (g_ptr_array_index (boards, i));
          g_ptr_array_add (items, item);
        }
    }
  else if (which == HR_SESSION_LIST_MEASUREMENTS)
    {
      GPtrArray *archive = hr_session_get_measurements (self);

      for (guint i = 0; i < archive->len; i++)
        {
          HrMeasurementItem *item = g_object_new (HR_TYPE_MEASUREMENT_ITEM, NULL);

          item->archive = g_ptr_array_ref (archive);
          item->measurement = g_ptr_array_index (archive, i);
          g_ptr_array_add (items, item);
        }
    }
  else
    {
      GArray *servers = hr_session_get_servers (self);

      for (guint i = 0; i < servers->len; i++)
        {
          const HrSavedServer *server = &g_array_index (servers, HrSavedServer, i);
          HrServerItem *item = g_object_new (HR_TYPE_SERVER_ITEM, NULL);

          item->url = g_strdup (server->url);
          item->board_id = g_strdup (server->board_id);
          g_ptr_array_add (items, item);
        }
    }
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)), items->pdata, items->len);
}

/**
 * hr_session_get_board_list:
 * @self: a #HrSession
 *
 * Returns: (transfer none): hr_session_get_boards() as a list of
 *   #HrBoardItem, spliced before each #HrSession::boards-changed (and at load)
 */
GListModel *
hr_session_get_board_list (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return G_LIST_MODEL (session_list (self, HR_SESSION_LIST_BOARDS));
}

/**
 * hr_session_get_measurement_list:
 * @self: a #HrSession
 *
 * Returns: (transfer none): hr_session_get_measurements() as a list of
 *   #HrMeasurementItem, spliced before each #HrSession::measurements-changed
 */
GListModel *
hr_session_get_measurement_list (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return G_LIST_MODEL (session_list (self, HR_SESSION_LIST_MEASUREMENTS));
}

/**
 * hr_session_get_server_list:
 * @self: a #HrSession
 *
 * Returns: (transfer none): hr_session_get_servers() as a list of
 *   #HrServerItem, spliced before each #HrSession::servers-changed
 */
GListModel *
hr_session_get_server_list (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return G_LIST_MODEL (session_list (self, HR_SESSION_LIST_SERVERS));
}
