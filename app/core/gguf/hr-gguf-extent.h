/* hr-gguf-extent.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How far a GGUF header reaches, from a prefix of the file: for reading a
 * header over HTTP Range requests without fetching much past its end.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean hr_gguf_header_extent (const guint8 *data,
                                gsize         length,
                                guint64      *out_end,
                                guint64      *out_need);

G_END_DECLS
