/* hr-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "hr-error.h"

G_DEFINE_QUARK (hr-core-error-quark, hr_core_error)
