/* hr-device-list.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The board editor's list of GPUs (hr-device.h): one expandable row a
 * device with its name, memory, bandwidth, kind and backend, a button to
 * remove it, and one to add a GPU. It edits its own copy of the list and
 * says so with ::devices-changed; the editor validates and applies it.
 */
#pragma once

#include <adwaita.h>

#include "hr-board.h"

G_BEGIN_DECLS

#define HR_TYPE_DEVICE_LIST (hr_device_list_get_type ())

G_DECLARE_FINAL_TYPE (HrDeviceList, hr_device_list, HR, DEVICE_LIST, GtkBox)

GtkWidget *hr_device_list_new       (void);
void       hr_device_list_set_board (HrDeviceList  *self,
                                     const HrBoard *board);
GPtrArray *hr_device_list_get_devices (HrDeviceList *self);
void       hr_device_list_clear_errors (HrDeviceList *self);

G_END_DECLS
