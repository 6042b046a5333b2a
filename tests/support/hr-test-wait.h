/* hr-test-wait.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one way Headroom's tests wait: on the thread-default main context,
 * until a condition holds or a deadline passes.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a wait waits for: TRUE when done. */
typedef gboolean (*HrTestCondition) (gpointer data);

gboolean hr_test_wait_until (HrTestCondition  done,
                             gpointer         data,
                             guint            timeout_ms);
void     hr_test_spin       (guint            ms);

G_END_DECLS
