/* hr-net-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "hr-net-error.h"

G_DEFINE_QUARK (hr-net-error-quark, hr_net_error)
