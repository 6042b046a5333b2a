/* hr-gguf-page.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrGgufPage: the File page. A local GGUF file (a llama.cpp download, an
 * Ollama blob) read header only, in a thread: the same facts as
 * `headroom-cli gguf` as cards, its memory under the window's shared
 * scenario, and "Add to Catalog" with the file's sha256 digest as the row's
 * origin. Its widgets are built the first time it is shown.
 */
#pragma once

#include <adwaita.h>

#include "hr-page.h"

#include "hr-gguf.h"
#include "hr-scenario.h"
#include "hr-session.h"
#include "hr-spec-memory.h"

G_BEGIN_DECLS

#define HR_TYPE_GGUF_PAGE (hr_gguf_page_get_type ())

G_DECLARE_FINAL_TYPE (HrGgufPage, hr_gguf_page, HR, GGUF_PAGE, HrPage)

GtkWidget        *hr_gguf_page_new             (void);
void              hr_gguf_page_open            (HrGgufPage   *self,
                                                GFile        *file);
void              hr_gguf_page_choose_file     (HrGgufPage   *self,
                                                GtkWindow    *parent);
void              hr_gguf_page_cancel          (HrGgufPage   *self);
void              hr_gguf_page_focus_open      (HrGgufPage   *self);

G_END_DECLS
