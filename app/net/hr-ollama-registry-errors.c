/* hr-ollama-registry-errors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrOllamaRegistry's failures in words: a transport failure or an answer
 * that is not a success, from the registry or from the storage host a
 * blob's redirect went to, becomes one HR_NET_ERROR naming the step (the
 * manifest, the config blob, the GGUF header) and the model. The lookup
 * that meets them is in hr-ollama-registry.c.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "hr-json.h"
#include "hr-net-error.h"
#include "hr-ollama-registry-private.h"

/* The host of @url ("cdn.example:443") when it is not the registry's, the
 * storage host a blob's redirect went to; else %NULL. */
static char *
storage_host (Lookup     *lk,
              const char *url)
{
  g_autoptr(GUri) at = url != NULL ? g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL) : NULL;
  g_autoptr(GUri) base = g_uri_parse (lk->base, SOUP_HTTP_URI_FLAGS, NULL);

  if (at == NULL || base == NULL || hr_http_same_origin (at, base))
    return NULL;
  return hr_http_host_label (at);
}

GError *
hr_ollama_registry_transport_error (Lookup     *lk,
                                    const char *what,
                                    GError     *error)
{
  g_autofree char *name = hr_ollama_name_display (&lk->name);
  g_autofree char *storage = NULL;
  guint seconds = (lk->registry->deadline_ms + 999) / 1000;

  /* A redirect to something that is no http address (file://, ftp://):
   * the registry sent Headroom there, HEADROOM_OLLAMA_REGISTRY is fine. */
  if (g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_BAD_PATH) && lk->failed_url != NULL &&
      !g_str_has_prefix (lk->failed_url, lk->base))
    {
      g_autofree char *to = hr_json_safe_text (lk->failed_url, -1, HR_JSON_SAFE_SHORT);

      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_BAD_PATH,
                          _("The registry at %s sent Headroom to %s for %s of %s, which is not an http or https address"),
                          lk->shown, to, what, name);
    }
  storage = storage_host (lk, lk->failed_url);
  /* A certificate nobody trusts, or http:// to a TLS port: HrHttp's
   * message has the cause and the way out. */
  if (g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_TLS))
    {
      if (storage != NULL)
        return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TLS,
                            _("Could not read %s of %s from the storage host %s (the registry at %s sent Headroom there). %s"),
                            what, name, storage, lk->shown, error->message);
      return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TLS,
                          _("Could not read %s of %s from the registry at %s. %s"),
                          what, name, lk->shown, error->message);
    }
  if (storage != NULL && g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_TRUNCATED))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                        _("The storage host %s broke off %s of %s: the connection dropped or the host stopped; try again (the registry at %s sent Headroom there)"),
                        storage, what, name, lk->shown);
  if (g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_TRUNCATED))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TRUNCATED,
                        _("The registry at %s broke off %s of %s: the connection dropped or the registry stopped; try again"),
                        lk->shown, what, name);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (error);
  if (g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TIMEOUT,
                        g_dngettext (GETTEXT_PACKAGE,
                                     "Reading %s of %s stalled: the registry or its storage host sent nothing more within %u second; try again later",
                                     "Reading %s of %s stalled: the registry or its storage host sent nothing more within %u seconds; try again later",
                                     seconds),
                        what, name, seconds);
  if (g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_INVALID_RESPONSE,
                        _("Reading %s of %s went round in redirects (more than %u, or one without a Location): the registry or a proxy is misconfigured"),
                        what, name, HR_HTTP_MAX_REDIRECTS);
  if (g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_TOO_LARGE,
                        _("The registry sent more than Headroom reads for %s of %s"), what, name);
  if (g_error_matches (error, HR_NET_ERROR, HR_NET_ERROR_BAD_PATH))
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_BAD_PATH,
                        _("%s is not an http or https address: check HEADROOM_OLLAMA_REGISTRY"), lk->shown);
  if (storage != NULL)
    return g_error_new (HR_NET_ERROR, error->domain == HR_NET_ERROR ? error->code : HR_NET_ERROR_FAILED,
                        _("Could not reach the storage host %s for %s of %s (the registry at %s sent Headroom there): check the network"),
                        storage, what, name, lk->shown);
  return g_error_new (error->domain == HR_NET_ERROR ? error->domain : HR_NET_ERROR,
                      error->domain == HR_NET_ERROR ? error->code : HR_NET_ERROR_FAILED,
                      _("Could not reach the Ollama registry at %s for %s of %s: check the network or HEADROOM_OLLAMA_REGISTRY"),
                      lk->shown, what, name);
}

/* A manifest or blob answer that is not a success. */
GError *
hr_ollama_registry_status_error (Lookup         *lk,
                                 const char     *what,
                                 HrHttpResponse *resp,
                                 gboolean        manifest)
{
  g_autofree char *name = hr_ollama_name_display (&lk->name);
  gsize size = 0;
  const char *data = resp->body != NULL ? g_bytes_get_data (resp->body, &size) : NULL;
  g_autofree char *code = hr_ollama_registry_error_code (data, size);
  g_autofree char *storage = storage_host (lk, resp->url);
  guint wait = resp->status == 429 ? hr_http_retry_after (resp->headers) : 0;

  if (storage != NULL && wait > 0)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_RATE_LIMITED,
                        g_dngettext (GETTEXT_PACKAGE,
                                     "The storage host %s is rate-limiting requests (HTTP 429) for %s of %s; it asks to try again in %u second (the registry at %s sent Headroom there)",
                                     "The storage host %s is rate-limiting requests (HTTP 429) for %s of %s; it asks to try again in %u seconds (the registry at %s sent Headroom there)",
                                     wait),
                        storage, what, name, wait, lk->shown);
  if (storage != NULL)
    return g_error_new (HR_NET_ERROR,
                        resp->status == 404 ? HR_NET_ERROR_NOT_FOUND
                        : resp->status == 401 || resp->status == 403 ? HR_NET_ERROR_UNAUTHORIZED
                        : resp->status == 429 ? HR_NET_ERROR_RATE_LIMITED
                        : resp->status >= 500 ? HR_NET_ERROR_SERVER : HR_NET_ERROR_FAILED,
                        _("The storage host %s answered HTTP %u (%s) for %s of %s; the registry at %s sent Headroom there"),
                        storage, resp->status, resp->reason, what, name, lk->shown);
  if (resp->status == 404 && code != NULL && manifest)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                        _("%s is not in the Ollama library"), name);
  if (resp->status == 404 && code != NULL)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_NOT_FOUND,
                        _("The registry lists %s of %s but does not have it (%s)"), what, name, code);
  if (resp->status == 404)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_BAD_PATH,
                        _("%s answered 404 without a registry error for %s of %s: is HEADROOM_OLLAMA_REGISTRY an Ollama registry?"),
                        lk->shown, what, name);
  if (resp->status == 401 || resp->status == 403)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_UNAUTHORIZED,
                        _("The registry refused %s of %s (HTTP %u): Headroom sends no credentials to a registry, so only public models can be looked up"),
                        what, name, resp->status);
  if (resp->status == 429 && wait > 0)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_RATE_LIMITED,
                        g_dngettext (GETTEXT_PACKAGE,
                                     "The registry is rate-limiting requests (HTTP 429) for %s of %s; it asks to try again in %u second",
                                     "The registry is rate-limiting requests (HTTP 429) for %s of %s; it asks to try again in %u seconds",
                                     wait),
                        what, name, wait);
  if (resp->status == 429)
    return g_error_new (HR_NET_ERROR, HR_NET_ERROR_RATE_LIMITED,
                        _("The registry is rate-limiting requests (HTTP 429) for %s of %s; try again later"), what, name);
  return g_error_new (HR_NET_ERROR, resp->status >= 500 ? HR_NET_ERROR_SERVER : HR_NET_ERROR_FAILED,
                      _("The registry answered HTTP %u (%s) for %s of %s"), resp->status, resp->reason, what, name);
}
