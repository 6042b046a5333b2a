/* hr-test-wait.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "hr-test-wait.h"

/* The longest the loop sleeps between two looks at the condition: what a
 * condition set by another thread (nothing on the main context wakes the
 * loop for it) waits at most before it is seen. */
#define LOOK_AGAIN_MS 10

static gboolean
on_deadline (gpointer data)
{
  gboolean *passed = data;

  *passed = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
on_look_again (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/**
 * hr_test_wait_until:
 * @done: (nullable): the condition; %NULL waits for the whole @timeout_ms
 * @data: what @done is given
 * @timeout_ms: the deadline, in milliseconds from now
 *
 * Runs the thread-default main context, blocking in its poll between
 * events (no busy wait: a timer wakes it at the deadline, and every
 * 10 ms for a condition another thread sets), until @done returns %TRUE
 * or @timeout_ms passes. @done is asked before the first iteration and
 * after each.
 *
 * Returns: @done's answer at the end (%TRUE for %NULL): %FALSE when the
 *   deadline passed first
 */
gboolean
hr_test_wait_until (HrTestCondition done,
                    gpointer        data,
                    guint           timeout_ms)
{
  GMainContext *context = g_main_context_ref_thread_default ();
  gboolean passed = FALSE;
  GSource *deadline = g_timeout_source_new (timeout_ms);
  GSource *look = g_timeout_source_new (LOOK_AGAIN_MS);
  gboolean result;

  g_source_set_callback (deadline, on_deadline, &passed, NULL);
  g_source_attach (deadline, context);
  g_source_set_callback (look, on_look_again, NULL, NULL);
  g_source_attach (look, context);

  while (!passed && (done == NULL || !done (data)))
    g_main_context_iteration (context, TRUE);
  result = done == NULL || done (data);

  g_source_destroy (deadline);
  g_source_unref (deadline);
  g_source_destroy (look);
  g_source_unref (look);
  g_main_context_unref (context);
  return result;
}

/**
 * hr_test_spin:
 * @ms: how long, in milliseconds
 *
 * Runs the thread-default main context for @ms: hr_test_wait_until()
 * with no condition.
 */
void
hr_test_spin (guint ms)
{
  hr_test_wait_until (NULL, NULL, ms);
}
