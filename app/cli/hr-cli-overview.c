/* hr-cli-overview.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `headroom-cli ollama ps --all`: every Ollama server the window saved
 * (GSettings "ollama-boards"), asked at once: its board, its version,
 * whether it answered, what it has loaded (/api/ps), and what is left of
 * its board's budget. Each server gets bounded waits of its own, so one
 * that does not answer never holds up the others.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "hr-cli.h"
#include "hr-ollama-client.h"
#include "hr-ollama-host.h"
#include "hr-ollama-status.h"
#include "hr-units.h"

/* The waits of the overview: a server that does not answer in these is
 * reported as unreachable (hr_ollama_client_set_timeouts(): the deadline,
 * the connection, the silence between lines). */
#define OVERVIEW_ANSWER_MS  10000
#define OVERVIEW_CONNECT_MS  5000

typedef struct {
  char           *board_id;
  char           *url;
  HrOllamaClient *client;
  char           *version;
  GPtrArray      *loaded;   /* HrOllamaLoaded*, NULL until answered */
  GError         *error;    /* the first failure, or NULL */
} Server;

typedef struct {
  GMainLoop *loop;
  guint      pending;
} Overview;

typedef struct {
  Overview *overview;
  Server   *server;
} Call;

static void
server_free (Server *s)
{
  g_free (s->board_id);
  g_free (s->url);
  g_clear_object (&s->client);
  g_free (s->version);
  g_clear_pointer (&s->loaded, g_ptr_array_unref);
  g_clear_error (&s->error);
  g_free (s);
}

static void
call_done (Call *call)
{
  if (--call->overview->pending == 0)
    g_main_loop_quit (call->overview->loop);
  g_free (call);
}

static void
on_status (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Call *call = user_data;
  g_autoptr(HrOllamaStatus) status = hr_ollama_client_status_finish (HR_OLLAMA_CLIENT (source), result,
                                                                     &call->server->error);

  if (status != NULL)
    {
      call->server->version = g_steal_pointer (&status->version);
      call->server->loaded = g_steal_pointer (&status->loaded);
    }
  call_done (call);
}

static Call *
call_new (Overview *overview,
          Server   *server)
{
  Call *call = g_new0 (Call, 1);

  call->overview = overview;
  call->server = server;
  overview->pending++;
  return call;
}

/* What is left of the board's budget (pool − resident − reserve) once
 * what the server reports on the GPU is taken out; FALSE when the board is
 * not one this computer knows. */
static gboolean
free_of_budget (HrCliContext *ctx,
                const Server *s,
                gint64       *out_bytes)
{
  const HrBoard *board = NULL;
  guint64 used = 0;

  for (guint i = 0; i < ctx->boards->len && board == NULL; i++)
    {
      const HrBoard *b = g_ptr_array_index (ctx->boards, i);

      if (g_strcmp0 (b->id, s->board_id) == 0)
        board = b;
    }
  if (board == NULL || s->loaded == NULL)
    return FALSE;
  for (guint i = 0; i < s->loaded->len; i++)
    used += ((const HrOllamaLoaded *) g_ptr_array_index (s->loaded, i))->size_vram;
  *out_bytes = (gint64) hr_board_budget_bytes (board) - (gint64) used;
  return TRUE;
}

static void
print_json (HrCliContext *ctx,
            GPtrArray    *servers)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_array (b);
  for (guint i = 0; i < servers->len; i++)
    {
      const Server *s = g_ptr_array_index (servers, i);
      gint64 free_bytes;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "board");
      json_builder_add_string_value (b, s->board_id);
      json_builder_set_member_name (b, "url");
      json_builder_add_string_value (b, s->url);
      json_builder_set_member_name (b, "reachable");
      json_builder_add_boolean_value (b, s->error == NULL);
      json_builder_set_member_name (b, "version");
      if (s->version != NULL)
        json_builder_add_string_value (b, s->version);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "error");
      if (s->error != NULL)
        json_builder_add_string_value (b, s->error->message);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "loaded");
      json_builder_begin_array (b);
      for (guint j = 0; s->loaded != NULL && j < s->loaded->len; j++)
        {
          const HrOllamaLoaded *l = g_ptr_array_index (s->loaded, j);
          g_autofree char *processor = hr_ollama_format_processor (l->size, l->size_vram);
          g_autofree char *expires = l->expires_at != NULL ? g_date_time_format_iso8601 (l->expires_at) : NULL;

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, l->name);
          json_builder_set_member_name (b, "size");
          json_builder_add_int_value (b, (gint64) l->size);
          json_builder_set_member_name (b, "size_vram");
          json_builder_add_int_value (b, (gint64) l->size_vram);
          json_builder_set_member_name (b, "processor");
          json_builder_add_string_value (b, processor);
          json_builder_set_member_name (b, "expires_at");
          if (expires != NULL)
            json_builder_add_string_value (b, expires);
          else
            json_builder_add_null_value (b);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "free_of_budget_bytes");
      if (free_of_budget (ctx, s, &free_bytes))
        json_builder_add_int_value (b, free_bytes);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  hr_cli_print_json (json_builder_get_root (b));
}

static void
print_text (HrCliContext *ctx,
            GPtrArray    *servers)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  for (guint i = 0; i < servers->len; i++)
    {
      const Server *s = g_ptr_array_index (servers, i);
      gint64 free_bytes;

      if (s->error != NULL)
        {
          /* TRANSLATORS: board id, server URL, the error */
          printf (_("%s  %s  unreachable: %s\n"), s->board_id, s->url, s->error->message);
          continue;
        }
      if (free_of_budget (ctx, s, &free_bytes))
        {
          g_autofree char *free_text = hr_format_bytes ((guint64) ABS (free_bytes), HR_UNIT_GB, 2);

          /* TRANSLATORS: board id, URL, Ollama version, GB left of the budget */
          printf (free_bytes >= 0 ? _("%s  %s  Ollama %s  %s of the budget free\n")
                                  : _("%s  %s  Ollama %s  %s over the budget\n"),
                  s->board_id, s->url, s->version, free_text);
        }
      else
        printf (_("%s  %s  Ollama %s  (a board this computer does not know)\n"), s->board_id, s->url, s->version);
      if (s->loaded->len == 0)
        printf ("  %s\n", _("nothing loaded"));
      for (guint j = 0; j < s->loaded->len; j++)
        {
          const HrOllamaLoaded *l = g_ptr_array_index (s->loaded, j);
          g_autofree char *size = hr_ollama_format_size (l->size);
          g_autofree char *processor = hr_ollama_format_processor (l->size, l->size_vram);
          g_autofree char *until = hr_ollama_format_until (l->expires_at, now);

          printf ("  %-30s %8s  %-16s  %s\n", l->name, size, processor, until);
        }
    }
}

/**
 * hr_cli_ollama_ps_all:
 * @json: print JSON instead of text
 *
 * `headroom-cli ollama ps --all`: each server the window saved, asked at
 * once (/api/version and /api/ps, with waits of 5 s to connect and 10 s
 * for an answer), in the order saved. Text: a line per server (board,
 * URL, version, GB of the board's budget left after what /api/ps puts on
 * the GPU, or why it did not answer), then its loaded models as `ollama
 * ps` lists them. JSON: an array of {"board", "url", "reachable",
 * "version", "error", "loaded": [{"name", "size", "size_vram",
 * "processor", "expires_at"}], "free_of_budget_bytes"}.
 *
 * Returns: 0 when every server answered, 1 when one did not (the others
 *   are still listed), 2 when the window saved no server.
 */
int
hr_cli_ollama_ps_all (gboolean json)
{
  g_autoptr(GPtrArray) saved = hr_cli_saved_servers ();
  g_autoptr(GPtrArray) servers = g_ptr_array_new_with_free_func ((GDestroyNotify) server_free);
  g_auto(HrCliContext) ctx = { 0 };
  g_autoptr(GError) error = NULL;
  Overview overview = { g_main_loop_new (NULL, FALSE), 0 };
  gboolean all_answered = TRUE;

  if (saved->len == 0)
    {
      g_main_loop_unref (overview.loop);
      return hr_cli_usage_error ("%s", _("the window has saved no Ollama server (its Board page saves each one it connects to); "
                                         "use headroom-cli ollama --host URL ps for one server"));
    }
  if (!hr_cli_context_load (&ctx, NULL, NULL, NULL, &error))
    {
      g_main_loop_unref (overview.loop);
      return hr_cli_fail (g_steal_pointer (&error));
    }
  for (guint i = 0; i < saved->len; i++)
    {
      char **pair = g_ptr_array_index (saved, i);
      Server *s = g_new0 (Server, 1);

      s->board_id = g_strdup (pair[0]);
      s->url = g_strdup (pair[1]);
      g_ptr_array_add (servers, s);
      s->client = hr_ollama_client_new (s->url, &s->error);
      if (s->client == NULL)
        continue;
      hr_ollama_client_set_token (s->client, g_getenv ("HEADROOM_OLLAMA_TOKEN"));
      hr_ollama_client_set_timeouts (s->client, OVERVIEW_ANSWER_MS, OVERVIEW_CONNECT_MS, OVERVIEW_ANSWER_MS);
      hr_ollama_client_status_async (s->client, NULL, on_status, call_new (&overview, s));
    }
  if (overview.pending > 0)
    g_main_loop_run (overview.loop);
  g_main_loop_unref (overview.loop);

  for (guint i = 0; i < servers->len; i++)
    if (((Server *) g_ptr_array_index (servers, i))->error != NULL)
      all_answered = FALSE;
  if (json)
    print_json (&ctx, servers);
  else
    print_text (&ctx, servers);
  return all_answered ? HR_CLI_EXIT_OK : HR_CLI_EXIT_FAILED;
}
