/* hr-gguf-page-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the tests of the File page read (tests/test-gguf-page.c): not for
 * other pages.
 */
#pragma once

#include "hr-gguf-page.h"

G_BEGIN_DECLS

const char       *hr_gguf_page_get_state       (HrGgufPage   *self);
const char       *hr_gguf_page_get_digest      (HrGgufPage   *self);
gboolean          hr_gguf_page_is_hashing      (HrGgufPage   *self);
const HrModelSpec *hr_gguf_page_get_spec       (HrGgufPage   *self);
GtkWidget        *hr_gguf_page_get_cards       (HrGgufPage   *self);
AdwStatusPage    *hr_gguf_page_get_error_page  (HrGgufPage   *self);
HrSpecMemory     *hr_gguf_page_get_memory      (HrGgufPage   *self);

G_END_DECLS
