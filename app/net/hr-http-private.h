/* hr-http-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What hr-http.c (the request) and hr-http-errors.c (its failures in
 * words) share: the layer's fields and one request's state. Not installed;
 * include only from app/net/hr-http*.c.
 */
#pragma once

#include "hr-http.h"

G_BEGIN_DECLS

struct _HrHttp
{
  GObject        parent_instance;

  SoupSession   *session;
  HrHttpWording  wording;
  char          *label;    /* the service as messages name it (Ollama's base URL) */
  char          *token;    /* NULL = none */
  char          *basic;    /* "Basic ..." for the origin when no token; NULL = none */
  GUri          *origin;   /* where the token may go */
};

typedef enum {
  LIMIT_NONE,
  LIMIT_CONNECT,
  LIMIT_DEADLINE,
} LimitHit;

typedef struct {
  HrHttp        *http;
  char          *method;
  char          *url;           /* the current one, after redirects */
  GBytes        *body;
  char          *content_type;
  char          *accept;
  gint64         range_start;
  gint64         range_end;
  guint64        cap;
  guint          deadline_ms;
  guint          connect_ms;
  gboolean       stream;
  guint64       *bytes_counter;
  char         **failed_url;

  guint          redirects;
  SoupMessage   *msg;
  GInputStream  *input;
  GByteArray    *received;
  gboolean       ignored_range; /* a 200 to a Range request */
  GCancellable  *internal;      /* cancelled by the caller's, the deadline or the connect timer */
  GCancellable  *caller;
  gulong         caller_handler;
  GSource       *connect_timer;
  GSource       *deadline_timer;
  LimitHit       hit;
} Call;

/* Each returns (transfer full) one HR_NET_ERROR worded for
 * call->http->wording; hr-http-errors.c says when each applies. */
GError *hr_http_error_for_transport  (Call     *call,
                                      GError   *error,
                                      gboolean  reading);
GError *hr_http_error_bad_url        (Call     *call);
GError *hr_http_error_redirects      (Call     *call);
GError *hr_http_error_too_large      (Call     *call);
GError *hr_http_error_cross_origin   (Call     *call,
                                      GUri     *to,
                                      guint     status);

G_END_DECLS
