/* hr-gguf-parser-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GGUF reader's window over a memory buffer or a GInputStream and its
 * primitives (hr-gguf-parser.c), used by the header parser (hr-gguf.c).
 * Every read checks the header cap, every length its own cap, before
 * anything is allocated. Not installed.
 */
#pragma once

#include "hr-gguf-private.h"

G_BEGIN_DECLS

/* Growable byte storage. */
typedef struct {
  guint8 *data;
  gsize   len;
  gsize   cap;
} Buf;

typedef enum {
  STAGE_MAGIC,
  STAGE_COUNTS,
  STAGE_KEY,
  STAGE_VALUE,
  STAGE_TENSOR,
} Stage;

typedef struct {
  GInputStream *stream;
  GCancellable *cancellable;
  const guint8 *buf;
  gsize         len;
  gsize         pos;
  guint8       *owned;
  guint64       base;     /* file offset of buf[0] */
  gboolean      eof;

  /* where we are, for messages */
  Stage         stage;
  guint64       entry;    /* metadata entry or tensor, 0-based */
  guint64       n_entries;
  const char   *key;      /* metadata key or tensor name being read */
} Parser;

guint64      hr_gguf_parser_offset       (const Parser  *p);
gboolean     hr_gguf_parser_refill       (Parser        *p,
                                          GError       **error);
gboolean     hr_gguf_read_u32            (Parser        *p,
                                          guint32       *out,
                                          GError       **error);
gboolean     hr_gguf_read_u64            (Parser        *p,
                                          guint64       *out,
                                          GError       **error);
char        *hr_gguf_read_string         (Parser        *p,
                                          guint64        cap,
                                          gsize         *out_length,
                                          GError       **error);
gboolean     hr_gguf_check_value_type    (Parser        *p,
                                          guint32        type,
                                          GError       **error);
HrGgufValue *hr_gguf_read_value          (Parser        *p,
                                          guint32        type,
                                          GError       **error);

G_END_DECLS
