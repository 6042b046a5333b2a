/* hr-session.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrSession: the application's data, in one plain GObject (no widgets).
 * It owns the catalog (built-in merged with the user's), the boards
 * (likewise), the measurement archive and the saved Ollama servers, and
 * the network services the pages share (the Hub client, the registry
 * client, the token store); it
 * loads them once, in a worker thread, and says when any of them changes.
 * Every write goes through it, atomically (hr_file_save_atomic()), and a
 * user file that could not be read is never saved over. Pages get the
 * session from the application and never read or write files themselves.
 */
#pragma once

#include <gio/gio.h>

#include "hr-board.h"
#include "hr-catalog.h"
#include "hr-hub-client.h"
#include "hr-measurement.h"
#include "hr-model-spec.h"
#include "hr-ollama-registry.h"
#include "hr-priors.h"
#include "hr-token-store.h"

G_BEGIN_DECLS

#define HR_TYPE_SESSION (hr_session_get_type ())

G_DECLARE_FINAL_TYPE (HrSession, hr_session, HR, SESSION, GObject)

/**
 * HrSavedServer:
 * @board_id: the id of the board the server runs on ("jetson-orin-nano-super")
 * @url: the server's URL as the user typed it, normalised ("http://host:11434")
 *
 * One saved Ollama server (GSettings "ollama-boards").
 */
typedef struct {
  char *board_id;
  char *url;
} HrSavedServer;

HrSession     *hr_session_new                  (GSettings           *settings);
GSettings     *hr_session_get_settings         (HrSession           *self);

/* Loading: once, off the main thread. "loaded" turns TRUE when done. */
void           hr_session_load_async           (HrSession           *self,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean       hr_session_load_finish          (HrSession           *self,
                                                GAsyncResult        *result,
                                                GError             **error);
void           hr_session_load                 (HrSession           *self);
gboolean       hr_session_get_loaded           (HrSession           *self);
GPtrArray     *hr_session_get_problems         (HrSession           *self);

/* The catalog: HrModelSpec*, built-in merged with the user's (the user's win by name). */
GPtrArray     *hr_session_get_catalog          (HrSession           *self);
const HrModelSpec *hr_session_find_model       (HrSession           *self,
                                                const char          *name);
gboolean       hr_session_add_model            (HrSession           *self,
                                                const HrModelSpec   *spec,
                                                GError             **error);
void           hr_session_set_catalog          (HrSession           *self,
                                                GPtrArray           *specs);
gboolean       hr_session_model_is_users       (HrSession           *self,
                                                const char          *name);
gboolean       hr_session_rename_model         (HrSession           *self,
                                                const char          *name,
                                                const char          *new_name,
                                                GError             **error);

/* The boards: HrBoard*, built-in merged with the user's (the user's win by id). */
GPtrArray     *hr_session_get_boards           (HrSession           *self);
const HrBoard *hr_session_find_board           (HrSession           *self,
                                                const char          *id);
gboolean       hr_session_save_board           (HrSession           *self,
                                                const HrBoard       *board,
                                                GError             **error);
gboolean       hr_session_get_boards_writable  (HrSession           *self);

/* The prior efficiencies of data/priors.json (0 = none). */
double         hr_session_get_prior            (HrSession           *self,
                                                HrHardwareKind       kind,
                                                guint               *out_n_runs);

/* The measurement archive: HrMeasurement*, built-in then the user's. */
GPtrArray     *hr_session_get_measurements     (HrSession           *self);
char          *hr_session_dup_measurements_dir (HrSession           *self);
void           hr_session_reload_measurements  (HrSession           *self);
/* One record at a time (hr-session-measurements.c). */
HrMeasurement *hr_session_delete_measurement   (HrSession           *self,
                                                const char          *id,
                                                GError             **error);
gboolean       hr_session_restore_measurement  (HrSession           *self,
                                                const HrMeasurement *measurement,
                                                GError             **error);
gboolean       hr_session_is_measurement_deletable (HrSession           *self,
                                                    const HrMeasurement *measurement);

/* Saved Ollama servers (GSettings "ollama-boards", "last-ollama-board"). */
GArray        *hr_session_get_servers          (HrSession           *self);
const char    *hr_session_get_server_board     (HrSession           *self,
                                                const char          *url);
void           hr_session_remember_server      (HrSession           *self,
                                                const char          *url,
                                                const char          *board_id);
void           hr_session_forget_server        (HrSession           *self,
                                                const char          *url);
char          *hr_session_dup_last_server      (HrSession           *self);
const char    *hr_session_get_last_server_board (HrSession          *self);

/* The session's two signals:
 *   signal "model-added" (const char *name): after "catalog-changed" from
 *     hr_session_add_model(), so the Models page selects the new model;
 *   signal "problem" (const char *message): a file that could not be read
 *     on hr_session_reload_measurements(); the window toasts it. */

/* Models looked up in the Ollama library (hr-session-library.c): for this
 * run only, never saved; a change emits "catalog-changed" (the Models page
 * lists them with the catalog), a model joining them also "model-added". */
GPtrArray     *hr_session_get_library          (HrSession           *self);
const HrModelSpec *hr_session_find_library_model (HrSession         *self,
                                                const char          *name);
void           hr_session_add_library_model    (HrSession           *self,
                                                const HrModelSpec   *spec);
gboolean       hr_session_add_library_to_catalog (HrSession         *self,
                                                const char          *name,
                                                GError             **error);

/* The boards, the archive and the saved servers as list models
 * (hr-session-items.c: HrBoardItem, HrMeasurementItem, HrServerItem). */
GListModel    *hr_session_get_board_list       (HrSession           *self);
GListModel    *hr_session_get_measurement_list (HrSession           *self);
GListModel    *hr_session_get_server_list      (HrSession           *self);

/* The network services the pages share (hr-session-services.c), each made
 * on first use. */
HrHubClient   *hr_session_get_hub_client       (HrSession           *self);
void           hr_session_set_hub_client       (HrSession           *self,
                                                HrHubClient         *client);
HrOllamaRegistry *hr_session_get_registry      (HrSession           *self);
HrTokenStore  *hr_session_get_token_store      (HrSession           *self);

G_END_DECLS
