/* hr-session-items.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The session's boards, measurements and saved servers as GListModels
 * (hr_session_get_board_list(), hr_session_get_measurement_list(),
 * hr_session_get_server_list()), for a view to bind to: each list holds
 * one small object per entry and is spliced whenever the session's data
 * changes, after which the session emits its "*-changed" signal.
 */
#pragma once

#include <glib-object.h>

#include "hr-board.h"
#include "hr-measurement.h"

G_BEGIN_DECLS

#define HR_TYPE_BOARD_ITEM (hr_board_item_get_type ())
G_DECLARE_FINAL_TYPE (HrBoardItem, hr_board_item, HR, BOARD_ITEM, GObject)

const HrBoard       *hr_board_item_get_board             (HrBoardItem       *self);

#define HR_TYPE_MEASUREMENT_ITEM (hr_measurement_item_get_type ())
G_DECLARE_FINAL_TYPE (HrMeasurementItem, hr_measurement_item, HR, MEASUREMENT_ITEM, GObject)

const HrMeasurement *hr_measurement_item_get_measurement (HrMeasurementItem *self);

#define HR_TYPE_SERVER_ITEM (hr_server_item_get_type ())
G_DECLARE_FINAL_TYPE (HrServerItem, hr_server_item, HR, SERVER_ITEM, GObject)

const char          *hr_server_item_get_url              (HrServerItem      *self);
const char          *hr_server_item_get_board_id         (HrServerItem      *self);

G_END_DECLS
