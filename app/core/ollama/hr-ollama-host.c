/* hr-ollama-host.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "hr-error.h"
#include "hr-ollama-host.h"

/* Splits "host:port" or "[v6]:port" the way Go's net.SplitHostPort does;
 * FALSE when there is no port or the colons are ambiguous. */
static gboolean
split_host_port (const char  *hostport,
                 char       **out_host,
                 char       **out_port)
{
  const char *colon;

  if (hostport[0] == '[')
    {
      const char *close = strchr (hostport, ']');

      if (close == NULL || close[1] != ':')
        return FALSE;
      *out_host = g_strndup (hostport + 1, close - hostport - 1);
      *out_port = g_strdup (close + 2);
      return TRUE;
    }

  colon = strchr (hostport, ':');
  if (colon == NULL || strchr (colon + 1, ':') != NULL)
    return FALSE;
  *out_host = g_strndup (hostport, colon - hostport);
  *out_port = g_strdup (colon + 1);
  return TRUE;
}

static gboolean
parse_port (const char *text,
            guint      *out_port)
{
  guint64 value;

  if (text == NULL || *text == '\0')
    return FALSE;
  if (!g_ascii_string_to_unsigned (text, 10, 0, 65535, &value, NULL))
    return FALSE;
  *out_port = (guint) value;
  return TRUE;
}

/**
 * hr_ollama_host_normalize:
 * @text: (nullable): what a person typed or `OLLAMA_HOST` holds:
 *   "", "10.0.0.5", "10.0.0.5:11434", "board.local", "::1",
 *   "https://spark.example", "h:56789/path/"
 * @error: return location for a #GError
 *
 * Turns a host string into the base URL a client uses, by the rules Ollama's
 * own clients follow (Ollama's envconfig.Host; docs/ollama.md,
 * "Known quirks"): empty means `http://127.0.0.1:11434`; no scheme means http; a
 * missing port is 11434 without a scheme, 80 for `http://` and 443 for
 * `https://`; an IPv6 address gets brackets; a path prefix (a reverse proxy
 * mounting Ollama under one) is kept and its trailing slashes trimmed; a port
 * that is not a number from 0 to 65535 is replaced by the default, as Ollama
 * does; white space and then quotes around the text are dropped (envconfig.Var);
 * a bare `ollama.com` is `https://ollama.com:443`; an empty host (`:11434`)
 * is this machine. `0.0.0.0` and `[::]` are listening addresses, not
 * targets: they mean this machine (`127.0.0.1`, `[::1]`, as
 * envconfig.ConnectableHost does).
 *
 * Userinfo (`http://admin:secret@h:11434`, for a reverse proxy's basic
 * auth) is dropped from the URL: hr_ollama_host_normalize_full() hands it
 * out. Messages never show the password.
 *
 * Returns: (transfer full): the base URL without a trailing slash, such as
 *   "http://10.0.0.5:11434" or "http://h:56789/path"; %NULL with
 *   %HR_CORE_ERROR_INVALID_ARGUMENT when the scheme is neither http nor https
 *   or the host contains characters no host name has.
 */
static char *normalize (const char *text, char **user, char **password, GError **error);

char *
hr_ollama_host_normalize (const char  *text,
                          GError     **error)
{
  return hr_ollama_host_normalize_full (text, NULL, NULL, error);
}

/* Takes `user[:password]@` off the front of @hostport (the part before the
 * first '/' that follows the last '@' of the authority); percent-escapes
 * are decoded. Returns whether there was userinfo. */
static gboolean
take_userinfo (char  *hostport,
               char **out_user,
               char **out_password)
{
  char *slash = strchr (hostport, '/');
  char *at = NULL;
  char *colon;

  for (char *p = hostport; *p != '\0' && (slash == NULL || p < slash); p++)
    if (*p == '@')
      at = p;
  if (at == NULL)
    return FALSE;
  *at = '\0';
  colon = strchr (hostport, ':');
  if (colon != NULL)
    *colon = '\0';
  *out_user = g_uri_unescape_string (hostport, NULL);
  *out_password = colon != NULL ? g_uri_unescape_string (colon + 1, NULL) : NULL;
  if (*out_user == NULL)
    *out_user = g_strdup (hostport);
  if (colon != NULL && *out_password == NULL)
    *out_password = g_strdup (colon + 1);
  memmove (hostport, at + 1, strlen (at + 1) + 1);
  return TRUE;
}

/**
 * hr_url_hide_password:
 * @text: a URL or host as a person typed it ("http://user:pw@host:port")
 *
 * For messages and anything else shown: the password of a
 * `user:password@` shown as "***"; text without one is copied.
 *
 * Returns: (transfer full): the text to show.
 */
char *
hr_url_hide_password (const char *text)
{
  const char *start = strstr (text, "://");
  const char *at, *colon;

  start = start != NULL ? start + 3 : text;
  at = strchr (start, '@');
  if (at == NULL)
    return g_strdup (text);
  colon = memchr (start, ':', at - start);
  if (colon == NULL)
    return g_strdup (text);
  return g_strdup_printf ("%.*s***%s", (int) (colon + 1 - text), text, at);
}

/**
 * hr_ollama_host_normalize_full:
 * @text: (nullable): as for hr_ollama_host_normalize()
 * @out_user: (out) (optional) (transfer full) (nullable): the userinfo's
 *   user, percent-decoded; %NULL when the text has no userinfo
 * @out_password: (out) (optional) (transfer full) (nullable): its password,
 *   or %NULL
 * @error: return location for a #GError
 *
 * hr_ollama_host_normalize(), handing out the userinfo it drops from the
 * URL (HTTP basic auth for a reverse proxy: the client sends it to that
 * origin only). Error messages show a password as `***`.
 *
 * Returns: (transfer full): the base URL, without userinfo; %NULL with
 *   %HR_CORE_ERROR_INVALID_ARGUMENT.
 */
char *
hr_ollama_host_normalize_full (const char  *text,
                               char       **out_user,
                               char       **out_password,
                               GError     **error)
{
  g_autofree char *user = NULL;
  g_autofree char *password = NULL;
  g_autofree char *url = NULL;

  url = normalize (text, &user, &password, error);
  if (url == NULL)
    return NULL;
  if (out_user != NULL)
    *out_user = g_steal_pointer (&user);
  if (out_password != NULL)
    *out_password = g_steal_pointer (&password);
  return g_steal_pointer (&url);
}

/* @text without surrounding white space and then without the quotes
 * around it, as envconfig.Var reads every variable
 * (strings.Trim (strings.TrimSpace (v), "\"'")): OLLAMA_HOST="'h:1'". */
static char *
trim_value (const char *text)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));
  const char *start = stripped;
  gsize len;

  while (*start == '"' || *start == '\'')
    start++;
  len = strlen (start);
  while (len > 0 && (start[len - 1] == '"' || start[len - 1] == '\''))
    len--;
  return g_strndup (start, len);
}

/* The scheme of @trimmed (http without one; https for bare "ollama.com",
 * Ollama's cloud: envconfig.Host) and what follows it, with the scheme's
 * default port; only http and https are Ollama addresses. */
static gboolean
split_scheme (const char  *trimmed,
              char       **out_scheme,
              char       **out_hostport,
              guint       *out_default_port,
              GError     **error)
{
  const char *sep = strstr (trimmed, "://");
  g_autofree char *scheme = NULL;

  *out_default_port = HR_OLLAMA_DEFAULT_PORT;
  if (sep == NULL && g_ascii_strcasecmp (trimmed, "ollama.com") == 0)
    {
      *out_scheme = g_strdup ("https");
      *out_hostport = g_strdup ("ollama.com:443");
      return TRUE;
    }
  if (sep == NULL)
    {
      *out_scheme = g_strdup ("http");
      *out_hostport = g_strdup (trimmed);
      return TRUE;
    }
  scheme = g_ascii_strdown (trimmed, sep - trimmed);
  if (g_str_equal (scheme, "http"))
    *out_default_port = 80;
  else if (g_str_equal (scheme, "https"))
    *out_default_port = 443;
  else
    {
      g_autofree char *shown = hr_url_hide_password (trimmed);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("\"%s\" is not an Ollama address: use http:// or https://, or just host:port"),
                   shown);
      return FALSE;
    }
  *out_scheme = g_steal_pointer (&scheme);
  *out_hostport = g_strdup (sep + 3);
  return TRUE;
}

/* Cuts the path off @hostport and returns it without trailing slashes,
 * or %NULL when there is none. */
static char *
take_path (char *hostport)
{
  char *slash = strchr (hostport, '/');
  char *path;
  gsize len;

  if (slash == NULL)
    return NULL;
  path = g_strdup (slash);
  *slash = '\0';
  len = strlen (path);
  while (len > 0 && path[len - 1] == '/')
    path[--len] = '\0';
  return path;
}

/* The host (127.0.0.1 when empty; brackets around IPv6 taken off) and the
 * port of @hostport, @default_port without a valid one. */
static char *
take_host_port (const char *hostport,
                guint       default_port,
                guint      *out_port)
{
  g_autofree char *host = NULL;
  g_autofree char *port_text = NULL;

  if (!split_host_port (hostport, &host, &port_text))
    {
      gsize len = strlen (hostport);

      /* No port: the whole thing is the host. */
      if (len >= 2 && hostport[0] == '[' && hostport[len - 1] == ']')
        host = g_strndup (hostport + 1, len - 2);
      else
        host = g_strdup (hostport);
      *out_port = default_port;
    }
  else if (!parse_port (port_text, out_port))
    *out_port = default_port;

  if (*host == '\0')
    {
      g_free (host);
      host = g_strdup ("127.0.0.1");
    }
  return g_steal_pointer (&host);
}

/* "scheme://host:port/path": an IPv6 address canonical in brackets, a
 * listening address (0.0.0.0, ::) as this machine's loopback, a name in
 * lower case. */
static char *
format_url (const char *scheme,
            const char *host,
            guint       port,
            const char *path)
{
  g_autoptr(GInetAddress) address = g_inet_address_new_from_string (host);
  GString *url = g_string_new (scheme);

  if (address != NULL && g_inet_address_get_is_any (address))
    {
      /* A listening address: as a target it means this machine. */
      host = g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV6 ? "::1" : "127.0.0.1";
      g_clear_object (&address);
      address = g_inet_address_new_from_string (host);
    }

  g_string_append (url, "://");
  if (address != NULL && g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV6)
    {
      g_autofree char *canonical = g_inet_address_to_string (address);
      g_string_append_printf (url, "[%s]", canonical);
    }
  else
    {
      g_autofree char *lower = g_ascii_strdown (host, -1);
      g_string_append (url, lower);
    }
  g_string_append_printf (url, ":%u", port);
  if (path != NULL)
    g_string_append (url, path);
  return g_string_free (url, FALSE);
}

/* @text as a base URL (see hr_ollama_host_normalize_full()), with the
 * user and password it carried in *@user and *@password. */
static char *
normalize (const char  *text,
           char       **user,
           char       **password,
           GError     **error)
{
  g_autofree char *trimmed = trim_value (text);
  g_autofree char *scheme = NULL;
  g_autofree char *hostport = NULL;
  g_autofree char *path = NULL;
  g_autofree char *host = NULL;
  guint default_port, port;

  if (!split_scheme (trimmed, &scheme, &hostport, &default_port, error))
    return NULL;
  take_userinfo (hostport, user, password);
  path = take_path (hostport);
  host = take_host_port (hostport, default_port, &port);

  for (const char *p = host; *p != '\0'; p++)
    if (g_ascii_isspace (*p) || strchr ("/?#@[]\\\"<>", *p) != NULL)
      {
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                     _("\"%s\" is not a host name or an IP address"), host);
        return NULL;
      }

  return format_url (scheme, host, port, path);
}

/**
 * hr_ollama_model_name_parse:
 * @text: a model name as Ollama takes it: `[host/][namespace/]model[:tag]`
 * @out: (out caller-allocates): the parts; clear with
 *   hr_ollama_model_name_clear()
 * @error: return location for a #GError
 *
 * Splits a model name. The tag is the text after the last ':' only when that
 * colon comes after the last '/', because a host may carry a port
 * (`host:5000/ns/m` has no tag; `hf.co/org/repo:Q4_K_M` has one); it is
 * "latest" when absent (docs/ollama.md, "Known quirks").
 *
 * Returns: %TRUE, or %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT for an empty
 *   name, an empty part, more than three '/'-separated parts, or whitespace.
 */
gboolean
hr_ollama_model_name_parse (const char        *text,
                            HrOllamaModelName *out,
                            GError           **error)
{
  g_autofree char *rest = NULL;
  g_auto(GStrv) parts = NULL;
  const char *last_slash;
  const char *last_colon;
  char *tag = NULL;
  guint n;

  memset (out, 0, sizeof *out);

  if (text == NULL || *text == '\0')
    {
      g_set_error_literal (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                           _("the model name is empty"));
      return FALSE;
    }
  for (const char *p = text; *p != '\0'; p++)
    if (g_ascii_isspace (*p))
      {
        g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                     _("\"%s\" is not a model name: it contains a space"), text);
        return FALSE;
      }

  last_slash = strrchr (text, '/');
  last_colon = strrchr (text, ':');
  if (last_colon != NULL && (last_slash == NULL || last_colon > last_slash))
    {
      rest = g_strndup (text, last_colon - text);
      tag = g_strdup (last_colon + 1);
    }
  else
    rest = g_strdup (text);

  parts = g_strsplit (rest, "/", -1);
  n = g_strv_length (parts);
  if (n > 3 || (tag != NULL && *tag == '\0'))
    goto invalid;
  for (guint i = 0; i < n; i++)
    if (*parts[i] == '\0')
      goto invalid;

  out->model = g_strdup (parts[n - 1]);
  if (n >= 2)
    out->namespace_ = g_strdup (parts[n - 2]);
  if (n == 3)
    out->host = g_strdup (parts[0]);
  out->tag = tag != NULL ? tag : g_strdup ("latest");
  return TRUE;

invalid:
  g_free (tag);
  g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
               _("\"%s\" is not a model name: write [host/][namespace/]model[:tag]"), text);
  return FALSE;
}

/**
 * hr_ollama_model_name_clear:
 * @name: parts filled by hr_ollama_model_name_parse()
 *
 * Frees the parts and zeroes the struct.
 */
void
hr_ollama_model_name_clear (HrOllamaModelName *name)
{
  g_clear_pointer (&name->host, g_free);
  g_clear_pointer (&name->namespace_, g_free);
  g_clear_pointer (&name->model, g_free);
  g_clear_pointer (&name->tag, g_free);
}

/**
 * hr_ollama_model_name_to_string:
 * @name: parsed parts
 *
 * Returns: (transfer full): the name as `ollama list` shows it: host and
 *   namespace only when given, the tag always ("llama3.2:latest").
 */
char *
hr_ollama_model_name_to_string (const HrOllamaModelName *name)
{
  GString *s = g_string_new (NULL);

  if (name->host != NULL)
    g_string_append_printf (s, "%s/", name->host);
  if (name->namespace_ != NULL)
    g_string_append_printf (s, "%s/", name->namespace_);
  g_string_append_printf (s, "%s:%s", name->model, name->tag != NULL ? name->tag : "latest");
  return g_string_free (s, FALSE);
}

static gboolean
part_equal (const char *a,
            const char *b,
            const char *fallback)
{
  return g_ascii_strcasecmp (a != NULL ? a : fallback, b != NULL ? b : fallback) == 0;
}

/**
 * hr_ollama_model_name_equal:
 * @a: a model name
 * @b: another model name
 *
 * Compares two names as Ollama does: case-insensitively, with the defaults
 * filled in (registry.ollama.ai, library, latest), so "llama3.2" equals
 * "llama3.2:latest" and "registry.ollama.ai/library/llama3.2:latest".
 *
 * Returns: %TRUE when both name the same model; %FALSE when they differ or
 *   either is not a model name.
 */
gboolean
hr_ollama_model_name_equal (const char *a,
                            const char *b)
{
  HrOllamaModelName na, nb;
  gboolean equal = FALSE;

  if (!hr_ollama_model_name_parse (a, &na, NULL))
    return FALSE;
  if (hr_ollama_model_name_parse (b, &nb, NULL))
    {
      equal = part_equal (na.host, nb.host, "registry.ollama.ai") &&
              part_equal (na.namespace_, nb.namespace_, "library") &&
              part_equal (na.model, nb.model, NULL) &&
              part_equal (na.tag, nb.tag, "latest");
      hr_ollama_model_name_clear (&nb);
    }
  hr_ollama_model_name_clear (&na);
  return equal;
}

/**
 * hr_ollama_digest_bare:
 * @digest: (nullable): "sha256:<64 hex>", "sha256-<64 hex>" (a blob's file
 *   name) or the bare 64 hex digits
 *
 * Returns: (transfer full) (nullable): the 64 hex digits in lower case with
 *   no prefix, as /api/tags and /api/ps carry them; %NULL when @digest is
 *   not a sha256 digest.
 */
char *
hr_ollama_digest_bare (const char *digest)
{
  if (digest == NULL)
    return NULL;
  if (g_ascii_strncasecmp (digest, "sha256:", 7) == 0 ||
      g_ascii_strncasecmp (digest, "sha256-", 7) == 0)
    digest += 7;
  if (strlen (digest) != 64)
    return NULL;
  for (guint i = 0; i < 64; i++)
    if (!g_ascii_isxdigit (digest[i]))
      return NULL;
  return g_ascii_strdown (digest, 64);
}

/**
 * hr_ollama_digest_prefixed:
 * @digest: (nullable): a digest with or without its "sha256:" prefix
 *
 * Returns: (transfer full) (nullable): "sha256:<64 hex>", the form pull
 *   progress uses, with the prefix exactly once; %NULL when @digest is not a
 *   sha256 digest.
 */
char *
hr_ollama_digest_prefixed (const char *digest)
{
  g_autofree char *bare = hr_ollama_digest_bare (digest);

  if (bare == NULL)
    return NULL;
  return g_strconcat ("sha256:", bare, NULL);
}

/**
 * hr_ollama_digest_short:
 * @digest: (nullable): a digest with or without its "sha256:" prefix
 *
 * Returns: (transfer full) (nullable): its first 12 hex digits, the ID
 *   `ollama list` and `ollama ps` print; %NULL when not a sha256 digest.
 */
char *
hr_ollama_digest_short (const char *digest)
{
  g_autofree char *bare = hr_ollama_digest_bare (digest);

  if (bare == NULL)
    return NULL;
  return g_strndup (bare, 12);
}

/**
 * hr_ollama_format_size:
 * @bytes: a size in bytes
 *
 * Formats a size the way the Ollama CLI prints SIZE (Ollama's
 * format.HumanBytes): decimal units (1 GB = 1e9 bytes); below 10 one decimal
 * unless the value is whole; from 10 up the integer part, truncated.
 * 9,053,114,464 -> "9.1 GB", 6,591,830,464 -> "6.6 GB", 2,000,000,000 ->
 * "2 GB", 19,000,000,000 -> "19 GB", 999 -> "999 B".
 *
 * Returns: (transfer full): the text.
 */
char *
hr_ollama_format_size (guint64 bytes)
{
  static const struct { double scale; const char *unit; } units[] = {
    { 1e12, "TB" }, { 1e9, "GB" }, { 1e6, "MB" }, { 1e3, "KB" },
  };
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      double value;

      if ((double) bytes < units[i].scale)
        continue;
      value = (double) bytes / units[i].scale;
      if (value >= 10 || value == trunc (value))
        return g_strdup_printf ("%" G_GUINT64_FORMAT " %s", (guint64) value, units[i].unit);
      g_ascii_formatd (buf, sizeof buf, "%.1f", value);
      return g_strdup_printf ("%s %s", buf, units[i].unit);
    }
  return g_strdup_printf ("%" G_GUINT64_FORMAT " B", bytes);
}

/**
 * hr_ollama_format_processor:
 * @size: /api/ps `size`, bytes of the loaded model
 * @size_vram: /api/ps `size_vram`, bytes of it on the GPU
 *
 * Formats where a loaded model lives the way `ollama ps` prints PROCESSOR
 * (Ollama's cmd/cmd.go): "100% CPU" when nothing is on the GPU, "100% GPU"
 * when all of it is, else round((size - size_vram) / size x 100) percent on
 * the CPU and the rest on the GPU, as "19%/81% CPU/GPU"; "Unknown" when
 * @size_vram exceeds @size or @size is 0 (the server gave no size).
 *
 * Returns: (transfer full): the text.
 */
char *
hr_ollama_format_processor (guint64 size,
                            guint64 size_vram)
{
  double cpu;

  /* A size of 0: /api/ps said nothing, so no share can be told. */
  if (size == 0 || size_vram > size)
    return g_strdup (_("Unknown"));
  if (size_vram == 0)
    return g_strdup (_("100% CPU"));
  if (size_vram == size)
    return g_strdup (_("100% GPU"));

  cpu = round ((double) (size - size_vram) / (double) size * 100.0);
  /* TRANSLATORS: the CPU and GPU shares of a loaded model, as `ollama ps` prints them */
  return g_strdup_printf (_("%d%%/%d%% CPU/GPU"), (int) cpu, 100 - (int) cpu);
}

static char *
human_duration (GTimeSpan span)
{
  gint64 seconds = span / G_TIME_SPAN_SECOND;
  gint64 minutes = span / G_TIME_SPAN_MINUTE;
  gint64 hours = (gint64) round ((double) span / G_TIME_SPAN_HOUR);

  if (seconds < 1)
    return g_strdup (_("Less than a second"));
  if (seconds == 1)
    return g_strdup (_("1 second"));
  if (seconds < 60)
    return g_strdup_printf (_("%d seconds"), (int) seconds);
  if (minutes == 1)
    return g_strdup (_("About a minute"));
  if (minutes < 60)
    return g_strdup_printf (_("%d minutes"), (int) minutes);
  if (hours == 1)
    return g_strdup (_("About an hour"));
  if (hours < 48)
    return g_strdup_printf (_("%d hours"), (int) hours);
  if (hours < 24 * 7 * 2)
    return g_strdup_printf (_("%d days"), (int) (hours / 24));
  if (hours < 24 * 30 * 2)
    return g_strdup_printf (_("%d weeks"), (int) (hours / 24 / 7));
  if (hours < 24 * 365 * 2)
    return g_strdup_printf (_("%d months"), (int) (hours / 24 / 30));
  return g_strdup_printf (_("%d years"), (int) (span / G_TIME_SPAN_DAY / 365));
}

/**
 * hr_ollama_format_until:
 * @expires_at: (nullable): /api/ps `expires_at`
 * @now: the current time
 *
 * Formats UNTIL the way `ollama ps` does (Ollama's format.HumanTime):
 * "Stopping..." once the time has passed, "Forever" when it is more than 20
 * years ahead (a negative `keep_alive` gives a date centuries ahead), else
 * "4 minutes from now", "About a minute from now", "3 hours from now" ...
 *
 * Returns: (transfer full): the text; "Never" when @expires_at is %NULL.
 */
char *
hr_ollama_format_until (GDateTime *expires_at,
                        GDateTime *now)
{
  GTimeSpan ahead;
  g_autofree char *duration = NULL;

  if (expires_at == NULL)
    return g_strdup (_("Never"));

  ahead = g_date_time_difference (expires_at, now);
  if (ahead < 0)
    return g_strdup (_("Stopping..."));
  if (ahead / G_TIME_SPAN_DAY / 365 > 20)
    return g_strdup (_("Forever"));

  duration = human_duration (ahead);
  /* TRANSLATORS: %s is a duration such as "4 minutes" */
  return g_strdup_printf (_("%s from now"), duration);
}

/**
 * hr_ollama_variant_name:
 * @source: the model the variant is made from ("llama3.1:8b")
 * @context: its num_ctx, tokens; 0 for none
 * @num_gpu: its num_gpu; negative for none
 *
 * A name that says what the variant is: the source's tag with
 * "-ctx24k" (the context in units of 1,024 tokens when it is a multiple,
 * else in tokens: "-ctx5000") and "-gpu20" appended; a source without a
 * tag gets them as its tag ("llama3.1:ctx24k").
 *
 * Returns: (transfer full): the name.
 */
char *
hr_ollama_variant_name (const char *source,
                     guint32     context,
                     gint32      num_gpu)
{
  GString *name = g_string_new (source);
  const char *colon = strrchr (source, ':');
  const char *slash = strrchr (source, '/');
  /* A colon before the last slash is a host's port, not a tag. */
  gboolean has_tag = colon != NULL && (slash == NULL || colon > slash);

  if (context > 0)
    {
      g_string_append (name, has_tag ? "-" : ":");
      has_tag = TRUE;
      if (context % 1024 == 0)
        g_string_append_printf (name, "ctx%uk", context / 1024);
      else
        g_string_append_printf (name, "ctx%u", context);
    }
  if (num_gpu >= 0)
    {
      g_string_append (name, has_tag ? "-" : ":");
      g_string_append_printf (name, "gpu%d", num_gpu);
    }
  return g_string_free (name, FALSE);
}
