/* hr-cli-servers.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Ollama servers the window saved, read by the command line: the
 * application's GSettings key "ollama-boards" (pairs of board id and server
 * URL, data/io.github.headroom.Headroom.gschema.xml). A headless box that
 * never installed the window has no schema; that is no error, just no
 * saved servers.
 */
#include "config.h"

#include <gio/gio.h>

#include "hr-cli.h"
#include "hr-ollama-host.h"

#define HR_SCHEMA_ID "io.github.headroom.Headroom"

/**
 * hr_cli_saved_servers:
 *
 * The servers the window saved, oldest first.
 *
 * Returns: (transfer full) (element-type GStrv): each a 2-element #GStrv
 *   { board id, server URL as saved (normalised by the window,
 *   hr_ollama_host_normalize()) }; empty when the application's schema is
 *   not installed (g_settings_schema_source_lookup() finds none), never
 *   %NULL.
 */
GPtrArray *
hr_cli_saved_servers (void)
{
  GPtrArray *servers = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GVariant) saved = NULL;
  GVariantIter iter;
  const char *board_id, *url;

  if (source == NULL)
    return servers;
  schema = g_settings_schema_source_lookup (source, HR_SCHEMA_ID, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, "ollama-boards"))
    return servers;
  settings = g_settings_new_full (schema, NULL, NULL);
  saved = g_settings_get_value (settings, "ollama-boards");
  g_variant_iter_init (&iter, saved);
  while (g_variant_iter_next (&iter, "(&s&s)", &board_id, &url))
    {
      char **pair = g_new0 (char *, 3);

      pair[0] = g_strdup (board_id);
      pair[1] = g_strdup (url);
      g_ptr_array_add (servers, pair);
    }
  return servers;
}

/**
 * hr_cli_saved_board_for_server:
 * @url: the server's URL as the command line reaches it (any form
 *   hr_ollama_host_normalize() accepts: "host", "host:port", a full URL)
 *
 * The board the window remembers for the server at @url: the last saved
 * entry whose URL is the same once both are normalised.
 *
 * Returns: (transfer full) (nullable): the board id, or %NULL when the
 *   window saved no board for that server (or its schema is not installed).
 */
char *
hr_cli_saved_board_for_server (const char *url)
{
  g_autoptr(GPtrArray) servers = hr_cli_saved_servers ();
  g_autofree char *want = hr_ollama_host_normalize (url, NULL);
  char *board = NULL;

  if (want == NULL)
    return NULL;
  for (guint i = 0; i < servers->len; i++)
    {
      char **pair = g_ptr_array_index (servers, i);
      g_autofree char *have = hr_ollama_host_normalize (pair[1], NULL);

      if (have != NULL && g_strcmp0 (have, want) == 0)
        {
          g_free (board);
          board = g_strdup (pair[0]);
        }
    }
  return board;
}
