/* fault-server.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A hostile Ollama inside the test process: a SoupServer on
 * 127.0.0.1, port 0, answering each path healthily (version 0.31.2, one
 * model "m:latest" on the board, nothing loaded) unless a fault is set for
 * it. One mode per fault: stalls before and after the headers, a drip of
 * one byte at a time, repeated progress that says nothing new, a line cut
 * in the middle, any status and body, a 429 with Retry-After, a redirect.
 * Its timers stop when a message finishes, so a client that gives up
 * leaves nothing writing to a dead message.
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef enum {
  FAULT_NONE,          /* the healthy answer */
  FAULT_STALL_HEADERS, /* reads the request, never answers */
  FAULT_STALL_BODY,    /* 200 and the stream's headers, then silence */
  FAULT_DRIP,          /* one byte every drip_ms of a line that never ends */
  FAULT_REPEAT,        /* @text (a line, or "" for a blank line) every drip_ms, forever */
  FAULT_CUT_LINE,      /* one line, then half of @text, then the end of the body */
  FAULT_BODY,          /* @status with @text as the JSON body */
  FAULT_RETRY_AFTER,   /* 429 with Retry-After: @text */
  FAULT_REDIRECT,      /* @status (a 3xx) with Location: @text */
} FaultMode;

typedef struct _FaultServer FaultServer;

FaultServer *fault_server_new        (void);
void         fault_server_free       (FaultServer *self);
const char  *fault_server_get_url    (FaultServer *self);
void         fault_server_set        (FaultServer *self,
                                      const char  *path,
                                      FaultMode    mode,
                                      guint        status,
                                      const char  *text);
void         fault_server_set_healthy_first (FaultServer *self,
                                             const char  *path,
                                             guint        count);
void         fault_server_set_drip_ms (FaultServer *self,
                                       guint        ms);
guint        fault_server_hits       (FaultServer *self,
                                      const char  *path);
const char  *fault_server_last_authorization (FaultServer *self);
void         fault_server_spin_until_idle (FaultServer *self);

G_END_DECLS
