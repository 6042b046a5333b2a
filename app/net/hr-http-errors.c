/* hr-http-errors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrHttp's failures in words: a transport error, a limit of ours, a bad
 * URL, too many redirects, a redirect to another origin or an answer over
 * the cap becomes one #HrNetError, worded for Ollama or for the Hub
 * (HrHttpWording). The request itself is in hr-http.c.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "hr-http-private.h"
#include "hr-json.h"
#include "hr-ndjson-reader.h"
#include "hr-net-error.h"

static char *
call_label (Call *call)
{
  g_autoptr(GUri) uri = NULL;

  if (call->http->wording == HR_HTTP_WORDING_OLLAMA && call->http->label != NULL)
    return g_strdup (call->http->label);
  uri = g_uri_parse (call->url, SOUP_HTTP_URI_FLAGS, NULL);
  return hr_http_host_label (uri);
}

static char *
format_seconds (guint ms)
{
  if (ms % 1000 == 0)
    return g_strdup_printf ("%u", ms / 1000);
  return g_strdup_printf ("%.1f", ms / 1000.0);
}

/* A limit of ours cut the request (the caller's cancellable did not). */
static GError *
error_for_limit (Call *call)
{
  g_autofree char *label = call_label (call);
  g_autofree char *limit = NULL;
  guint seconds;

  if (call->http->wording == HR_HTTP_WORDING_HUB)
    {
      seconds = (MAX (call->deadline_ms, call->connect_ms) + 999) / 1000;
      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                          g_dngettext (GETTEXT_PACKAGE,
                                       "%s did not answer within %u second: check the network or HF_ENDPOINT, then try again",
                                       "%s did not answer within %u seconds: check the network or HF_ENDPOINT, then try again",
                                       seconds),
                          label, seconds);
    }
  if (call->hit == LIMIT_CONNECT)
    {
      limit = format_seconds (call->connect_ms);
      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                          _("could not connect to %s within %s s; is the board on, and on this network?"),
                          label, limit);
    }
  limit = format_seconds (call->deadline_ms);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                      _("%s did not answer within %s s: the board may be overloaded, or something other than Ollama is listening there"),
                      label, limit);
}

static HrNetError
transport_code (GError *error)
{
  if (error->domain == G_RESOLVER_ERROR)
    return HR_NET_ERROR_RESOLVE;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    return HR_NET_ERROR_CONNECTION_REFUSED;
  if (error->domain == G_TLS_ERROR)
    return HR_NET_ERROR_TLS;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return HR_NET_ERROR_TIMEOUT;
  return HR_NET_ERROR_FAILED;
}

static GError *
error_for_ollama (const char *label,
                  HrNetError  code,
                  GError     *error)
{
  switch (code)
    {
    case HR_NET_ERROR_CONNECTION_REFUSED:
      return g_error_new (HR_NET_ERROR, code,
                          _("nothing is listening at %s; is `ollama serve` running, and bound to an address this machine can reach?"),
                          label);
    case HR_NET_ERROR_RESOLVE:
      return g_error_new (HR_NET_ERROR, code,
                          _("the host name in %s does not resolve; check its spelling, or use the board's IP address"),
                          label);
    case HR_NET_ERROR_TLS:
      return g_error_new (HR_NET_ERROR, code,
                          _("the secure connection to %s failed (%s); check the server's certificate, or use http:// if it does not speak TLS"),
                          label, error->message);
    case HR_NET_ERROR_TIMEOUT:
      return g_error_new (HR_NET_ERROR, code,
                          _("could not connect to %s in time; is the board on, and on this network?"),
                          label);
    default:
      break;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NETWORK_UNREACHABLE))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                        _("cannot reach %s (%s); is the board on, and on this network?"),
                        label, error->message);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                      _("talking to %s failed: %s"), label, error->message);
}

/* Plain HTTP to a TLS port: the server resets the connection or answers
 * with a TLS alert, which is no HTTP response (a status line read, or an
 * encoding libsoup cannot follow, is an HTTP answer: no TLS port). */
static gboolean
http_to_tls (Call   *call,
             GError *error)
{
  if (!g_str_has_prefix (call->url, "http://"))
    return FALSE;
  if (error->domain == SOUP_SESSION_ERROR)
    return g_error_matches (error, SOUP_SESSION_ERROR, SOUP_SESSION_ERROR_PARSING) &&
           (call->msg == NULL || soup_message_get_status (call->msg) == SOUP_STATUS_NONE);
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE);
}

/* A failure of sending or reading. @reading: the body had begun. */
GError *
hr_http_error_for_transport (Call     *call,
                             GError   *error,
                             gboolean  reading)
{
  g_autofree char *label = NULL;
  HrNetError code;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (call->hit != LIMIT_NONE &&
          (call->caller == NULL || !g_cancellable_is_cancelled (call->caller)))
        return error_for_limit (call);
      return g_error_copy (error);
    }
  label = call_label (call);
  g_debug ("%s: %s", call->url, error->message);
  if (call->http->wording == HR_HTTP_WORDING_HUB)
    {
      code = transport_code (error);
      if (code == HR_NET_ERROR_TIMEOUT)
        code = HR_NET_ERROR_FAILED;
      if (reading)
        return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                            _("%s broke off its answer: the connection dropped or the host stopped; try again"), label);
      if (code == HR_NET_ERROR_TLS)
        {
          g_autofree char *why = hr_json_safe_text (error->message, -1, HR_JSON_SAFE_SHORT);

          return g_error_new (HR_NET_ERROR, code,
                              _("The secure connection to %s failed (%s); check its certificate (one that is self-signed or for another name is not trusted), or use http:// if it does not speak TLS"),
                              label, why);
        }
      if (http_to_tls (call, error))
        {
          g_autofree char *why = hr_json_safe_text (error->message, -1, HR_JSON_SAFE_SHORT);

          return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TLS,
                              _("%s closed the connection without an HTTP answer (%s); if it speaks TLS, use https:// instead of http://"),
                              label, why);
        }
      return g_error_new (HR_NET_ERROR, code,
                          _("Could not reach %s; check the network or HF_ENDPOINT"), label);
    }
  if (reading)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                        _("the answer from %s ended before its last line: the connection dropped or the server stopped; try again"),
                        label);
  /* A status line was read (or the headers held an encoding libsoup
   * cannot follow, as "Content-Length: abc"): the server did answer in
   * HTTP, so it is no TLS port. */
  if (error->domain == SOUP_SESSION_ERROR &&
      (!g_error_matches (error, SOUP_SESSION_ERROR, SOUP_SESSION_ERROR_PARSING) ||
       (call->msg != NULL && soup_message_get_status (call->msg) != SOUP_STATUS_NONE)))
    {
      g_autofree char *why = hr_json_safe_text (error->message, -1, HR_JSON_SAFE_SHORT);

      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                          _("%s sent an HTTP answer Headroom could not read (%s); is it Ollama, or a proxy that mangles its answers?"),
                          label, why);
    }
  if (http_to_tls (call, error))
    {
      g_autofree char *why = hr_json_safe_text (error->message, -1, HR_JSON_SAFE_SHORT);

      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                          _("%s closed the connection without an HTTP answer (%s); if the server speaks TLS, try https:// instead of http://"),
                          label, why);
    }
  return error_for_ollama (label, transport_code (error), error);
}

GError *
hr_http_error_bad_url (Call *call)
{
  if (call->http->wording == HR_HTTP_WORDING_HUB)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_BAD_PATH,
                        _("“%s” is not an http or https address: check HF_ENDPOINT"), call->url);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_FAILED,
                      _("%s is not a valid address"), call->url);
}

GError *
hr_http_error_redirects (Call *call)
{
  g_autofree char *label = call_label (call);

  if (call->http->wording == HR_HTTP_WORDING_HUB)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                        _("%s redirected too often or without a valid Location: check HF_ENDPOINT"),
                        label);
  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                      _("%s redirected too often or without a valid Location; use the address `ollama serve` listens on"),
                      label);
}

GError *
hr_http_error_too_large (Call *call)
{
  g_autofree char *label = call_label (call);

  if (call->http->wording == HR_HTTP_WORDING_HUB)
    {
      g_autoptr(GUri) uri = g_uri_parse (call->url, SOUP_HTTP_URI_FLAGS, NULL);

      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
                          _("The Hub sent more than %" PRIu64 " bytes for %s: refusing to read further"),
                          call->cap, uri != NULL ? g_uri_get_path (uri) : call->url);
    }
  {
    g_autofree char *cap = hr_ndjson_format_cap (call->cap);

    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
                        _("%s sent more than %s in one answer; Headroom stopped reading"),
                        label, cap);
  }
}

/* A request with a body (POST, DELETE) redirected to another origin: not
 * followed (it would send the request, or a GET in its place, to a host
 * the user never named); the message says where it pointed. */
GError *
hr_http_error_cross_origin (Call  *call,
                            GUri  *to,
                            guint  status)
{
  g_autofree char *label = call_label (call);
  g_autofree char *target = to != NULL ? hr_http_host_label (to) : g_strdup (_("an address that is not a URL"));
  g_autofree char *safe = hr_json_safe_text (target, -1, HR_JSON_SAFE_SHORT);

  return g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                      _("%s answered the %s with a %u redirect to %s; Headroom does not send a %s on to another server; if the server moved, use its new address"),
                      label, call->method, status, safe, call->method);
}

