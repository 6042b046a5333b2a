/* hr-net-error.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The network clients' error domain. Every message says what went wrong and
 * what to do next, in words a person can act on. Cancelling is reported as
 * G_IO_ERROR_CANCELLED, never as one of these: it is not an error to show.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HR_NET_ERROR (hr_net_error_quark ())

typedef enum {
  HR_NET_ERROR_CONNECTION_REFUSED, /* nothing listening at the address */
  HR_NET_ERROR_RESOLVE,            /* DNS: the host name does not resolve */
  HR_NET_ERROR_TLS,                /* certificate or handshake failure */
  HR_NET_ERROR_UNAUTHORIZED,       /* 401/403: a token is missing or wrong */
  HR_NET_ERROR_NOT_FOUND,          /* 404 with the service's JSON error: the thing is missing */
  HR_NET_ERROR_BAD_PATH,           /* 404 without it: wrong URL or path prefix */
  HR_NET_ERROR_SERVER,             /* 5xx with the service's own message */
  HR_NET_ERROR_BUSY,               /* 503 busy / 429 rate limited: try again later */
  HR_NET_ERROR_STREAM,             /* an {"error": ...} line mid-stream */
  HR_NET_ERROR_TRUNCATED,          /* a stream that ends without its final line */
  HR_NET_ERROR_INVALID_RESPONSE,   /* invalid JSON or an unexpected shape */
  HR_NET_ERROR_TOO_LARGE,          /* a line or response over the cap */
  HR_NET_ERROR_TIMEOUT,            /* the deadline or inactivity limit passed */
  HR_NET_ERROR_GATED,              /* Hub: gated repository */
  HR_NET_ERROR_REVISION_NOT_FOUND, /* Hub: no such branch, tag or commit */
  HR_NET_ERROR_RATE_LIMITED,       /* Hub: 429 */
  HR_NET_ERROR_FAILED,             /* anything else, with the server's text */
} HrNetError;

GQuark hr_net_error_quark (void);

G_END_DECLS
