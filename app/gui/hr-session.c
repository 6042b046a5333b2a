/* hr-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-error.h"
#include "hr-session.h"

struct _HrSession
{
  GObject     parent_instance;

  GSettings  *settings;            /* nullable: no saved servers then */
  gboolean    loaded;
  gboolean    loading;
  GPtrArray  *problems;            /* char*, in the order they were found */

  GPtrArray  *catalog;             /* HrModelSpec*, built-in merged with the user's */
  GPtrArray  *boards;              /* HrBoard*, built-in merged with the user's */
  GPtrArray  *user_boards;         /* the user's boards file as read; NULL if unreadable */
  char       *user_boards_path;
  char       *user_boards_problem;
  GPtrArray  *measurements;        /* HrMeasurement*, built-in then the user's */
  GArray     *servers;             /* HrSavedServer */
  HrPriors   *priors;              /* NULL: none read */
};

G_DEFINE_FINAL_TYPE (HrSession, hr_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_LOADED,
  N_PROPS
};

enum {
  CATALOG_CHANGED,
  MODEL_ADDED,
  BOARDS_CHANGED,
  MEASUREMENTS_CHANGED,
  SERVERS_CHANGED,
  PROBLEM,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

#include "hr-session-private.h"

/* Back on the main thread: what was read becomes the session's. */
static void
apply_load (HrSession *self,
            LoadData  *data)
{
  for (guint i = 0; i < data->problems->len; i++)
    {
      g_warning ("%s", (const char *) g_ptr_array_index (data->problems, i));
      g_ptr_array_add (self->problems, g_strdup (g_ptr_array_index (data->problems, i)));
    }

  g_ptr_array_unref (self->catalog);
  self->catalog = g_steal_pointer (&data->catalog);
  g_ptr_array_unref (self->boards);
  self->boards = g_steal_pointer (&data->boards);
  g_clear_pointer (&self->user_boards, g_ptr_array_unref);
  self->user_boards = g_steal_pointer (&data->user_boards);
  g_free (self->user_boards_path);
  self->user_boards_path = g_strdup (data->user_boards_path);
  g_free (self->user_boards_problem);
  self->user_boards_problem = g_steal_pointer (&data->user_boards_problem);
  g_ptr_array_unref (self->measurements);
  self->measurements = g_steal_pointer (&data->measurements);
  g_clear_pointer (&self->priors, hr_priors_free);
  self->priors = g_steal_pointer (&data->priors);

  self->loading = FALSE;
  self->loaded = TRUE;
  _hr_session_sync_list (self, HR_SESSION_LIST_BOARDS);
  _hr_session_sync_list (self, HR_SESSION_LIST_MEASUREMENTS);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  _hr_session_load_data_run (task_data);
  g_task_return_boolean (task, TRUE);
}

static void
on_load_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  HrSession *self = HR_SESSION (source);
  g_autoptr(GTask) outer = user_data;
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      self->loading = FALSE;
      g_task_return_error (outer, error);
      return;
    }
  apply_load (self, g_task_get_task_data (G_TASK (result)));
  g_task_return_boolean (outer, TRUE);
}

/**
 * hr_session_load_async:
 * @self: a #HrSession
 * @cancellable: (nullable): a #GCancellable; cancelled, nothing read is kept
 * @callback: called on the thread-default main context when done
 * @user_data: data for @callback
 *
 * Reads the built-in catalog, boards and measurements (hr_data_builtin_dir())
 * and the user's copies (hr_data_user_dir()), which win by name or id, in a
 * worker thread. Back on the main context, each file that could not be read
 * is logged with g_warning() and kept in hr_session_get_problems() ("Could
 * not read PATH: REASON. It was left as it is."), and #HrSession:loaded
 * turns %TRUE (the only signal of the first load: listeners read the data
 * then). With no board file at all, one board "none" ("No board") is
 * offered. A session loads once: later calls complete at once.
 */
void
hr_session_load_async (HrSession           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) outer = NULL;
  g_autoptr(GTask) inner = NULL;

  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, hr_session_load_async);
  if (self->loaded || self->loading)
    {
      g_task_return_boolean (outer, TRUE);
      return;
    }

  self->loading = TRUE;
  inner = g_task_new (self, cancellable, on_load_done, g_steal_pointer (&outer));
  g_task_set_return_on_cancel (inner, FALSE);
  g_task_set_task_data (inner, _hr_session_load_data_new (), (GDestroyNotify) _hr_session_load_data_free);
  g_task_run_in_thread (inner, load_thread);
}

/**
 * hr_session_load_finish:
 * @self: a #HrSession
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE when the session is loaded (files that could not be read
 *   are problems, not errors); %FALSE with %G_IO_ERROR_CANCELLED when the
 *   load was cancelled
 */
gboolean
hr_session_load_finish (HrSession     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * hr_session_load:
 * @self: a #HrSession
 *
 * hr_session_load_async() on the calling thread, for the tests and the
 * benchmark: returns once #HrSession:loaded is %TRUE. Does nothing once
 * the session is loaded.
 */
void
hr_session_load (HrSession *self)
{
  g_autoptr(LoadData) data = NULL;

  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (!self->loading);

  if (self->loaded)
    return;
  data = _hr_session_load_data_new ();
  _hr_session_load_data_run (data);
  apply_load (self, data);
}

/**
 * hr_session_get_settings:
 * @self: a #HrSession
 *
 * The application's one #GSettings (io.github.headroom.Headroom), handed
 * down to every page through the session: a page binds its keys
 * ("units", "hidden-catalog-columns", "recent-hf-lookups") to it instead
 * of opening settings of its own.
 *
 * Returns: (transfer none) (nullable): the settings the session was made
 *   with; %NULL for a session without settings (the tests')
 */
GSettings *
hr_session_get_settings (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return self->settings;
}

/**
 * hr_session_get_loaded:
 * @self: a #HrSession
 *
 * Returns: whether the files were read (#HrSession:loaded)
 */
gboolean
hr_session_get_loaded (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);

  return self->loaded;
}

/**
 * hr_session_get_problems:
 * @self: a #HrSession
 *
 * Returns: (transfer none) (element-type utf8): a message a person can act
 *   on for each file that could not be read, at load and at each
 *   hr_session_reload_measurements(), in order
 */
GPtrArray *
hr_session_get_problems (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return self->problems;
}

/* ------------------------------------------------------------------ */
/* The catalog                                                         */

/**
 * hr_session_get_catalog:
 * @self: a #HrSession
 *
 * Returns: (transfer none) (element-type HrModelSpec): the catalog, built-in
 *   merged with the user's; empty until loaded
 */
GPtrArray *
hr_session_get_catalog (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return self->catalog;
}

/**
 * hr_session_find_model:
 * @self: a #HrSession
 * @name: a model name ("llama3.2:3b")
 *
 * Returns: (transfer none) (nullable): the catalog's model named @name
 */
const HrModelSpec *
hr_session_find_model (HrSession  *self,
                       const char *name)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  for (guint i = 0; name != NULL && i < self->catalog->len; i++)
    {
      const HrModelSpec *spec = g_ptr_array_index (self->catalog, i);

      if (g_strcmp0 (spec->name, name) == 0)
        return spec;
    }
  return NULL;
}

/**
 * hr_session_set_catalog:
 * @self: a #HrSession
 * @specs: (element-type HrModelSpec): the models to list; copied
 *
 * Replaces the catalog in memory only (the benchmark and the tests list a
 * catalog of their own) and emits #HrSession::catalog-changed.
 */
void
hr_session_set_catalog (HrSession *self,
                        GPtrArray *specs)
{
  g_autoptr(GPtrArray) catalog = NULL;

  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (specs != NULL);

  catalog = g_ptr_array_new_full (specs->len, (GDestroyNotify) hr_model_spec_free);
  for (guint i = 0; i < specs->len; i++)
    g_ptr_array_add (catalog, hr_model_spec_copy (g_ptr_array_index (specs, i)));
  g_ptr_array_unref (self->catalog);
  self->catalog = g_steal_pointer (&catalog);
  g_signal_emit (self, signals[CATALOG_CHANGED], 0);
}

/**
 * hr_session_add_model:
 * @self: a #HrSession
 * @spec: the model to add (copied); its name is the catalog key and its
 *   origin ("hf:owner/name@sha", "gguf:sha256:...") is kept
 * @error: return location for a #GError
 *
 * Adds @spec to the user's catalog file (hr_data_user_file()
 * "catalog.json"), replacing a model of the same name, saved atomically
 * (hr_file_save_atomic()), then to the catalog, and emits
 * #HrSession::catalog-changed then #HrSession::model-added with its name.
 * Nothing changes when any step fails.
 *
 * Returns: %TRUE when the model was saved; %FALSE with @error set:
 *   %HR_CORE_ERROR_INVALID_DATA when @spec is not a usable model
 *   (hr_model_spec_validate()), the error of reading the user's catalog
 *   prefixed "Your catalog PATH could not be read, so it was not saved
 *   over: " (the file is then left as it is), or that of writing it
 */
gboolean
hr_session_add_model (HrSession          *self,
                      const HrModelSpec  *spec,
                      GError            **error)
{
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;
  g_autoptr(GPtrArray) user = NULL;
  g_autoptr(GPtrArray) one = NULL;

  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!hr_model_spec_validate (spec, error))
    return FALSE;

  path = hr_data_user_file ("catalog.json");
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      user = hr_catalog_load_file (path, error);
      if (user == NULL)
        {
          g_prefix_error (error, _("Your catalog %s could not be read, so it was not saved over: "), path);
          return FALSE;
        }
    }
  else
    user = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);

  one = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  g_ptr_array_add (one, hr_model_spec_copy (spec));
  hr_catalog_merge (user, one);
  if (!hr_catalog_save_file (user, path, error))
    return FALSE;

  name = g_strdup (spec->name);
  hr_catalog_merge (self->catalog, one);
  g_signal_emit (self, signals[CATALOG_CHANGED], 0);
  g_signal_emit (self, signals[MODEL_ADDED], 0, name);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The boards                                                          */

/**
 * hr_session_get_boards:
 * @self: a #HrSession
 *
 * Returns: (transfer none) (element-type HrBoard): the boards, built-in
 *   merged with the user's; at least one once loaded
 */
GPtrArray *
hr_session_get_boards (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return self->boards;
}

/**
 * hr_session_find_board:
 * @self: a #HrSession
 * @id: a board id ("jetson-orin-nano-super")
 *
 * Returns: (transfer none) (nullable): the board with @id
 */
const HrBoard *
hr_session_find_board (HrSession  *self,
                       const char *id)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  for (guint i = 0; id != NULL && i < self->boards->len; i++)
    {
      const HrBoard *board = g_ptr_array_index (self->boards, i);

      if (g_strcmp0 (board->id, id) == 0)
        return board;
    }
  return NULL;
}

/**
 * hr_session_get_prior:
 * @self: a #HrSession
 * @kind: a kind of hardware
 * @out_n_runs: (out) (optional): how many published runs the prior is the
 *   mean of
 *
 * The prior decode efficiency of @kind, from the built-in priors
 * (data/priors.json, hr_priors_efficiency()): what a board without a
 * measurement of its own rates its models with.
 *
 * Returns: the efficiency (measured / ceiling), or 0 when the priors were
 *   not read or none is known for @kind
 */
double
hr_session_get_prior (HrSession      *self,
                      HrHardwareKind  kind,
                      guint          *out_n_runs)
{
  g_return_val_if_fail (HR_IS_SESSION (self), 0.0);

  if (out_n_runs != NULL)
    *out_n_runs = 0;
  if (self->priors == NULL)
    return 0.0;
  return hr_priors_efficiency (self->priors, kind, out_n_runs);
}

/**
 * hr_session_get_boards_writable:
 * @self: a #HrSession
 *
 * Returns: %FALSE when the user's boards file could not be read (it is then
 *   never saved over); %TRUE otherwise
 */
gboolean
hr_session_get_boards_writable (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);

  return self->user_boards != NULL;
}

static void
replace_or_add_board (GPtrArray     *boards,
                      const HrBoard *board)
{
  for (guint i = 0; i < boards->len; i++)
    {
      HrBoard **slot = (HrBoard **) &boards->pdata[i];

      if (g_strcmp0 ((*slot)->id, board->id) == 0)
        {
          hr_board_free (*slot);
          *slot = hr_board_copy (board);
          return;
        }
    }
  g_ptr_array_add (boards, hr_board_copy (board));
}

/**
 * hr_session_save_board:
 * @self: a #HrSession
 * @board: the board to save (copied), by its id
 * @error: return location for a #GError
 *
 * Writes @board into the user's boards file (hr_data_user_file()
 * "boards.json"), replacing the board of the same id, atomically, then into
 * the boards, and emits #HrSession::boards-changed.
 *
 * Returns: %TRUE when saved; %FALSE with @error set:
 *   %HR_CORE_ERROR_INVALID_DATA "Not saving: PATH could not be read
 *   (REASON). Fix or move it, then open Headroom again." when the user's
 *   boards file could not be read at load (it is never saved over), or the
 *   error of writing it
 */
gboolean
hr_session_save_board (HrSession      *self,
                       const HrBoard  *board,
                       GError        **error)
{
  g_autoptr(GPtrArray) user = NULL;

  g_return_val_if_fail (HR_IS_SESSION (self), FALSE);
  g_return_val_if_fail (board != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->user_boards == NULL)
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("Not saving: %s could not be read (%s). Fix or move it, then open Headroom again."),
                   self->user_boards_path, self->user_boards_problem);
      return FALSE;
    }

  user = g_ptr_array_new_full (self->user_boards->len + 1, (GDestroyNotify) hr_board_free);
  for (guint i = 0; i < self->user_boards->len; i++)
    g_ptr_array_add (user, hr_board_copy (g_ptr_array_index (self->user_boards, i)));
  replace_or_add_board (user, board);
  if (!hr_boards_save_file (user, self->user_boards_path, error))
    return FALSE;

  g_ptr_array_unref (self->user_boards);
  self->user_boards = g_steal_pointer (&user);
  replace_or_add_board (self->boards, board);
  _hr_session_sync_list (self, HR_SESSION_LIST_BOARDS);
  g_signal_emit (self, signals[BOARDS_CHANGED], 0);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* The measurement archive                                             */

/**
 * hr_session_get_measurements:
 * @self: a #HrSession
 *
 * Returns: (transfer none) (element-type HrMeasurement): the archive,
 *   built-in then the user's
 */
GPtrArray *
hr_session_get_measurements (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return self->measurements;
}

/**
 * hr_session_dup_measurements_dir:
 * @self: a #HrSession
 *
 * Returns: (transfer full): the folder a measure run saves into
 *   (hr_data_measurements_dir())
 */
char *
hr_session_dup_measurements_dir (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return hr_data_measurements_dir ();
}

/**
 * hr_session_reload_measurements:
 * @self: a #HrSession
 *
 * Reads the measurement archive again (after a measurement was saved) and
 * emits #HrSession::measurements-changed. Each file that could not be read
 * is appended to hr_session_get_problems() and emitted as
 * #HrSession::problem.
 */
void
hr_session_reload_measurements (HrSession *self)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  char *dirs[2];

  g_return_if_fail (HR_IS_SESSION (self));

  dirs[0] = g_build_filename (hr_data_builtin_dir (), "measurements", NULL);
  dirs[1] = hr_data_measurements_dir ();
  g_ptr_array_unref (self->measurements);
  self->measurements = _hr_session_load_measurements (dirs, G_N_ELEMENTS (dirs), problems);
  g_free (dirs[0]);
  g_free (dirs[1]);

  _hr_session_sync_list (self, HR_SESSION_LIST_MEASUREMENTS);
  g_signal_emit (self, signals[MEASUREMENTS_CHANGED], 0);
  for (guint i = 0; i < problems->len; i++)
    {
      g_ptr_array_add (self->problems, g_strdup (g_ptr_array_index (problems, i)));
      g_signal_emit (self, signals[PROBLEM], 0, g_ptr_array_index (problems, i));
    }
}

/* ------------------------------------------------------------------ */
/* Saved servers                                                       */

static void
saved_server_clear (gpointer data)
{
  HrSavedServer *server = data;

  g_free (server->board_id);
  g_free (server->url);
}

static void
read_servers (HrSession *self)
{
  g_autoptr(GVariant) saved = NULL;
  GVariantIter iter;
  const char *id, *url;

  g_array_set_size (self->servers, 0);
  if (self->settings == NULL)
    return;

  saved = g_settings_get_value (self->settings, "ollama-boards");
  g_variant_iter_init (&iter, saved);
  while (g_variant_iter_next (&iter, "(&s&s)", &id, &url))
    {
      HrSavedServer server = { g_strdup (id), g_strdup (url) };

      g_array_append_val (self->servers, server);
    }
}

static void
on_servers_setting_changed (GSettings  *settings,
                            const char *key,
                            HrSession  *self)
{
  read_servers (self);
  _hr_session_sync_list (self, HR_SESSION_LIST_SERVERS);
  g_signal_emit (self, signals[SERVERS_CHANGED], 0);
}

/* Writes the servers but @skip_url, then (@url, @board_id) when not NULL. */
static void
write_servers (HrSession  *self,
               const char *skip_url,
               const char *url,
               const char *board_id)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ss)"));
  for (guint i = 0; i < self->servers->len; i++)
    {
      const HrSavedServer *server = &g_array_index (self->servers, HrSavedServer, i);

      if (g_strcmp0 (server->url, skip_url) != 0)
        g_variant_builder_add (&builder, "(ss)", server->board_id, server->url);
    }
  if (url != NULL)
    g_variant_builder_add (&builder, "(ss)", board_id, url);
  /* "changed::ollama-boards" rereads them and emits servers-changed. */
  g_settings_set_value (self->settings, "ollama-boards", g_variant_builder_end (&builder));
}

/**
 * hr_session_get_servers:
 * @self: a #HrSession
 *
 * Returns: (transfer none) (element-type HrSavedServer): the saved Ollama
 *   servers (GSettings "ollama-boards"), oldest first
 */
GArray *
hr_session_get_servers (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  return self->servers;
}

/**
 * hr_session_get_server_board:
 * @self: a #HrSession
 * @url: a saved server's URL
 *
 * Returns: (transfer none) (nullable): the id of the board @url was saved
 *   with, or %NULL when @url is not saved
 */
const char *
hr_session_get_server_board (HrSession  *self,
                             const char *url)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  for (guint i = 0; url != NULL && i < self->servers->len; i++)
    {
      const HrSavedServer *server = &g_array_index (self->servers, HrSavedServer, i);

      if (g_strcmp0 (server->url, url) == 0)
        return server->board_id;
    }
  return NULL;
}

/**
 * hr_session_dup_last_server:
 * @self: a #HrSession
 *
 * Returns: (transfer full): the URL of the server connected to last
 *   (GSettings "last-ollama-board"), "" for none
 */
char *
hr_session_dup_last_server (HrSession *self)
{
  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  if (self->settings == NULL)
    return g_strdup ("");
  return g_settings_get_string (self->settings, "last-ollama-board");
}

/**
 * hr_session_remember_server:
 * @self: a #HrSession
 * @url: the server's URL, normalised (hr_ollama_host_normalize())
 * @board_id: the board it runs on
 *
 * Saves (@board_id, @url) last in "ollama-boards" (replacing an entry of
 * the same URL), makes @url "last-ollama-board", and emits
 * #HrSession::servers-changed. Tokens are never stored here.
 */
void
hr_session_remember_server (HrSession  *self,
                            const char *url,
                            const char *board_id)
{
  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (url != NULL && board_id != NULL);

  if (self->settings == NULL)
    return;
  write_servers (self, url, url, board_id);
  g_settings_set_string (self->settings, "last-ollama-board", url);
}

/**
 * hr_session_forget_server:
 * @self: a #HrSession
 * @url: a saved server's URL
 *
 * Removes @url from "ollama-boards" (and from "last-ollama-board" when it
 * was the last) and emits #HrSession::servers-changed.
 */
void
hr_session_forget_server (HrSession  *self,
                          const char *url)
{
  g_autofree char *last = NULL;

  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (url != NULL);

  if (self->settings == NULL || hr_session_get_server_board (self, url) == NULL)
    return;
  write_servers (self, url, NULL, NULL);
  last = g_settings_get_string (self->settings, "last-ollama-board");
  if (g_strcmp0 (last, url) == 0)
    g_settings_set_string (self->settings, "last-ollama-board", "");
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
hr_session_dispose (GObject *object)
{
  HrSession *self = (HrSession *)object;

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (hr_session_parent_class)->dispose (object);
}

static void
hr_session_finalize (GObject *object)
{
  HrSession *self = (HrSession *)object;

  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->catalog, g_ptr_array_unref);
  g_clear_pointer (&self->boards, g_ptr_array_unref);
  g_clear_pointer (&self->user_boards, g_ptr_array_unref);
  g_clear_pointer (&self->user_boards_path, g_free);
  g_clear_pointer (&self->user_boards_problem, g_free);
  g_clear_pointer (&self->measurements, g_ptr_array_unref);
  g_clear_pointer (&self->servers, g_array_unref);
  g_clear_pointer (&self->priors, hr_priors_free);

  G_OBJECT_CLASS (hr_session_parent_class)->finalize (object);
}

static void
hr_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  HrSession *self = HR_SESSION (object);

  switch (prop_id)
    {
    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_session_class_init (HrSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_session_dispose;
  object_class->finalize = hr_session_finalize;
  object_class->get_property = hr_session_get_property;

  /**
   * HrSession:loaded:
   *
   * Whether the files were read (once, by hr_session_load_async()).
   */
  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * HrSession::catalog-changed:
   *
   * The catalog changed (hr_session_add_model(), hr_session_set_catalog()).
   */
  signals[CATALOG_CHANGED] =
    g_signal_new ("catalog-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * HrSession::model-added:
   * @name: the model's name
   *
   * A model was added by hr_session_add_model(), after
   * #HrSession::catalog-changed: the Models page selects it.
   */
  signals[MODEL_ADDED] =
    g_signal_new ("model-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * HrSession::boards-changed:
   *
   * A board was saved (hr_session_save_board()).
   */
  signals[BOARDS_CHANGED] =
    g_signal_new ("boards-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * HrSession::measurements-changed:
   *
   * The archive was read again (hr_session_reload_measurements()).
   */
  signals[MEASUREMENTS_CHANGED] =
    g_signal_new ("measurements-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * HrSession::servers-changed:
   *
   * The saved Ollama servers changed (here or in GSettings).
   */
  signals[SERVERS_CHANGED] =
    g_signal_new ("servers-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * HrSession::problem:
   * @message: what could not be read, for a person
   *
   * A file could not be read after the first load (a reload of the
   * archive); the window shows it in a toast.
   */
  signals[PROBLEM] =
    g_signal_new ("problem", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
hr_session_init (HrSession *self)
{
  self->problems = g_ptr_array_new_with_free_func (g_free);
  self->catalog = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  self->boards = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_board_free);
  self->measurements = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_measurement_free);
  self->servers = g_array_new (FALSE, TRUE, sizeof (HrSavedServer));
  g_array_set_clear_func (self->servers, saved_server_clear);
}

/**
 * hr_session_new:
 * @settings: (nullable): the app's settings (io.github.headroom.Headroom),
 *   for the saved servers; %NULL: none
 *
 * Returns: (transfer full): a session, not loaded yet
 *   (hr_session_load_async())
 */
HrSession *
hr_session_new (GSettings *settings)
{
  HrSession *self;

  g_return_val_if_fail (settings == NULL || G_IS_SETTINGS (settings), NULL);

  self = g_object_new (HR_TYPE_SESSION, NULL);
  if (settings != NULL)
    {
      self->settings = g_object_ref (settings);
      read_servers (self);
      g_signal_connect (settings, "changed::ollama-boards",
                        G_CALLBACK (on_servers_setting_changed), self);
    }
  return self;
}
