/* hr-http-helpers.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrHttp's pure helpers (hr-http.h): origins, host labels, body excerpts,
 * Retry-After and Link headers. No request state.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-http.h"

/**
 * hr_http_same_origin:
 * @a: (nullable): a URI
 * @b: (nullable): another
 *
 * Returns: %TRUE when both have the same scheme, host (case-insensitive)
 *   and port (RFC 6454's origin); %FALSE when either is %NULL.
 */
gboolean
hr_http_same_origin (GUri *a,
                     GUri *b)
{
  if (a == NULL || b == NULL)
    return FALSE;
  return g_ascii_strcasecmp (g_uri_get_scheme (a), g_uri_get_scheme (b)) == 0 &&
         g_uri_get_host (a) != NULL && g_uri_get_host (b) != NULL &&
         g_ascii_strcasecmp (g_uri_get_host (a), g_uri_get_host (b)) == 0 &&
         g_uri_get_port (a) == g_uri_get_port (b);
}

/**
 * hr_http_host_label:
 * @uri: (nullable): a URI
 *
 * Returns: (transfer full): the host as messages name it,
 *   "huggingface.co" or "127.0.0.1:4242"; "?" without a host.
 */
char *
hr_http_host_label (GUri *uri)
{
  if (uri == NULL || g_uri_get_host (uri) == NULL)
    return g_strdup ("?");
  if (g_uri_get_port (uri) > 0)
    return g_strdup_printf ("%s:%d", g_uri_get_host (uri), g_uri_get_port (uri));
  return g_strdup (g_uri_get_host (uri));
}

/**
 * hr_http_body_excerpt:
 * @body: (nullable): a body
 *
 * Returns: (transfer full): its first 120 bytes as valid UTF-8, trimmed,
 *   control characters as spaces, in double quotes ("\"404 page not
 *   found\""); "an empty body" for none.
 */
char *
hr_http_body_excerpt (GBytes *body)
{
  g_autofree char *text = NULL;
  const char *data;
  gsize size = 0;

  data = body != NULL ? g_bytes_get_data (body, &size) : NULL;
  if (size == 0)
    return g_strdup (_("an empty body"));
  text = g_utf8_make_valid (data, MIN (size, 120));
  g_strstrip (text);
  for (char *p = text; *p != '\0'; p++)
    if ((guchar) *p < 0x20)
      *p = ' ';
  return g_strdup_printf ("\"%s\"", text);
}

/**
 * hr_http_retry_after:
 * @headers: a response's headers
 *
 * The wait a 429 asks for: `Retry-After` in seconds (RFC 9110 10.2.3; the
 * HTTP-date form is not used by the Hub), else the `t=` of a `RateLimit`
 * header (draft-ietf-httpapi-ratelimit-headers, as the Hub sends it).
 *
 * Returns: seconds to wait, at most 86400; 0 = not said.
 */
guint
hr_http_retry_after (SoupMessageHeaders *headers)
{
  const char *value = soup_message_headers_get_one (headers, "Retry-After");
  guint64 seconds;

  if (value != NULL && g_ascii_string_to_unsigned (value, 10, 0, 86400, &seconds, NULL))
    return (guint) seconds;
  value = soup_message_headers_get_one (headers, "RateLimit");
  if (value != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (value, ";", -1);

      for (guint i = 0; parts[i] != NULL; i++)
        {
          const char *p = g_strstrip (parts[i]);

          if (g_str_has_prefix (p, "t=") &&
              g_ascii_string_to_unsigned (p + 2, 10, 0, 86400, &seconds, NULL))
            return (guint) seconds;
        }
    }
  return 0;
}

/**
 * hr_http_link_next:
 * @link: (nullable): a response's `Link` header, all its values joined by ","
 * @base_url: the URL of the response, for a relative target
 *
 * RFC 8288 links, as the Hub pages its file tree: `<https://...>; rel="next"`.
 *
 * Returns: (transfer full) (nullable): the absolute URL of the next page,
 *   or %NULL for the last.
 */
char *
hr_http_link_next (const char *link,
                   const char *base_url)
{
  g_auto(GStrv) parts = NULL;

  if (link == NULL)
    return NULL;
  parts = g_strsplit (link, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *p = g_strstrip (parts[i]);
      const char *lt = strchr (p, '<');
      const char *gt = lt ? strchr (lt, '>') : NULL;

      if (lt != NULL && gt != NULL && strstr (gt, "rel=\"next\"") != NULL)
        {
          g_autofree char *target = g_strndup (lt + 1, gt - lt - 1);

          return g_uri_resolve_relative (base_url, target, SOUP_HTTP_URI_FLAGS, NULL);
        }
    }
  return NULL;
}
