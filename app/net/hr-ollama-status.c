/* hr-ollama-status.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One server's status: its version and what it has loaded, asked at once
 * (GET /api/version and GET /api/ps, docs/ollama.md), each under the
 * client's own waits (hr_ollama_client_set_timeouts()).
 */
#include "config.h"

#include "hr-ollama-status.h"

/**
 * hr_ollama_status_free:
 * @status: (nullable): a status
 *
 * Frees @status and what it holds.
 */
void
hr_ollama_status_free (HrOllamaStatus *status)
{
  if (status == NULL)
    return;
  g_free (status->version);
  g_clear_pointer (&status->loaded, g_ptr_array_unref);
  g_free (status);
}

typedef struct {
  HrOllamaStatus *status;
  GError         *error;    /* the first of the two calls to fail */
  guint           pending;
} StatusCall;

static void
status_call_free (StatusCall *call)
{
  hr_ollama_status_free (call->status);
  g_clear_error (&call->error);
  g_free (call);
}

/* One of the two calls ended, with @error or not: the task ends with the
 * second. */
static void
status_part_done (GTask  *task,
                  GError *error)
{
  StatusCall *call = g_task_get_task_data (task);

  if (error != NULL && call->error == NULL)
    call->error = error;
  else
    g_clear_error (&error);
  if (--call->pending > 0)
    {
      g_object_unref (task);
      return;
    }
  if (call->error != NULL)
    g_task_return_error (task, g_steal_pointer (&call->error));
  else
    g_task_return_pointer (task, g_steal_pointer (&call->status), (GDestroyNotify) hr_ollama_status_free);
  g_object_unref (task);
}

static void
on_version (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  StatusCall *call = g_task_get_task_data (task);
  GError *error = NULL;

  call->status->version = hr_ollama_client_version_finish (HR_OLLAMA_CLIENT (source), result, &error);
  status_part_done (task, error);
}

static void
on_ps (GObject      *source,
       GAsyncResult *result,
       gpointer      user_data)
{
  GTask *task = user_data;
  StatusCall *call = g_task_get_task_data (task);
  GError *error = NULL;

  call->status->loaded = hr_ollama_client_ps_finish (HR_OLLAMA_CLIENT (source), result, &error);
  status_part_done (task, error);
}

/**
 * hr_ollama_client_status_async:
 * @self: a client
 * @cancellable: (nullable): cancels both calls
 * @callback: called once both have answered or failed
 * @user_data: for @callback
 *
 * Asks GET /api/version and GET /api/ps at once; a server that does not
 * answer is given up on after the client's waits, the two calls' at the
 * same time.
 */
void
hr_ollama_client_status_async (HrOllamaClient      *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;
  StatusCall *call;

  g_return_if_fail (HR_IS_OLLAMA_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, hr_ollama_client_status_async);
  call = g_new0 (StatusCall, 1);
  call->status = g_new0 (HrOllamaStatus, 1);
  call->pending = 2;
  g_task_set_task_data (task, call, (GDestroyNotify) status_call_free);
  hr_ollama_client_version_async (self, cancellable, on_version, g_object_ref (task));
  hr_ollama_client_ps_async (self, cancellable, on_ps, task);
}

/**
 * hr_ollama_client_status_finish:
 * @self: a client
 * @result: the result given to the callback
 * @error: the first of the two calls' errors: #HR_NET_ERROR (the server's
 *   answer, an address nothing listens at, a wait that ran out) or
 *   %G_IO_ERROR_CANCELLED
 *
 * Returns: (transfer full) (nullable): the version and the loaded models,
 *   or %NULL with @error set
 */
HrOllamaStatus *
hr_ollama_client_status_finish (HrOllamaClient  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
