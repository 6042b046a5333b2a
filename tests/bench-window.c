/* bench-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How fast the window follows the context slider with a 10,000-row
 * catalog: 100 slider steps, each timed from the value change to the end
 * of the frame that shows it (GdkFrameClock::after-paint). The catalog is
 * synthetic ("bench-00001" ...): shapes spread over the range real models
 * have, so sorting and drawing see realistic figures. Aim: median under
 * 8 ms, worst under 16 ms. The rows are sized as the window's default
 * does, by the runtime prediction (the board's server era;
 * HEADROOM_BENCH_RUNTIME=seed, ollama-0.30, ollama-0.12 or llama-server
 * picks another). The app's own work per step (re-evaluating the rows,
 * sorting, the chart: what the value change runs before the frame) is
 * also timed in CPU time of the main thread, so other work on the machine
 * does not inflate it, against the aim of 2 ms, split where the catalog
 * model emits HrCatalogModel::evaluated: before it the pass over the rows
 * and the cells shown for the rows that changed, after it the
 * recommendation's and the table's listeners and the scenario's "changed"
 * (the charts, the explain panel), the pass itself split at the first
 * HrModelRow::changed (the loop over the rows, then the cells of the
 * rows that changed); and, for comparison, the
 * evaluation of every row whole (each row's hr_model_row_evaluate_runtime()
 * under the scenario with the same context steps, nothing told): what the
 * catalog model's pass would cost without its context step
 * (hr_evaluate_context_step(), hr_runtime_predict_context_step(), the
 * clamped rows' kept predictions) and
 * without the cells, charts and panels that follow. Prints the figures; it is
 * a benchmark, not a timed test. Needs a display (build-aux/test runs it
 * under Xvfb).
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <time.h>

#include "hr-application.h"
#include "hr-models-page-private.h"
#include "hr-test-wait.h"
#include "hr-window-private.h"

#define N_ROWS  10000
#define N_STEPS 100
#define AIM_APP_MS 2.0

/* CPU time of the calling thread in microseconds (the renderer's threads,
 * llvmpipe's under GL, are not the app's work). */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* Our handlers run after GTK's own on each frame clock signal, so "layout"
 * stamps the end of the size allocation and "paint" the end of the
 * snapshot and the rendering. */
typedef struct {
  gboolean waiting;
  gint64   before;
  gint64   layout;
  gint64   paint;
  gint64   painted;
} Frame;

static void
on_before_paint (GdkFrameClock *clock,
                 Frame         *frame)
{
  if (frame->waiting && frame->before == 0)
    frame->before = g_get_monotonic_time ();
}

static void
on_layout (GdkFrameClock *clock,
           Frame         *frame)
{
  if (frame->waiting && frame->layout == 0)
    frame->layout = g_get_monotonic_time ();
}

static void
on_paint (GdkFrameClock *clock,
          Frame         *frame)
{
  if (frame->waiting && frame->paint == 0)
    frame->paint = g_get_monotonic_time ();
}

static void
on_after_paint (GdkFrameClock *clock,
                Frame         *frame)
{
  if (frame->waiting)
    {
      frame->painted = g_get_monotonic_time ();
      frame->waiting = FALSE;
    }
}

/* The thread's CPU time when the catalog model finished its pass: an
 * emission hook, which runs before any handler of "evaluated". */
static gboolean
on_evaluated (GSignalInvocationHint *hint,
              guint                  n_values,
              const GValue          *values,
              gpointer               data)
{
  *(gint64 *) data = thread_cpu_us ();
  return TRUE;
}

/* The thread's CPU time at the first HrModelRow::changed of a step: where
 * the catalog model's pass ends its loop over the rows and starts telling
 * the cells of the rows that changed (a row nobody watches emits nothing). */
static gboolean
on_row_changed (GSignalInvocationHint *hint,
                guint                  n_values,
                const GValue          *values,
                gpointer               data)
{
  gint64 *first = data;

  if (*first == 0)
    *first = thread_cpu_us ();
  return TRUE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return da < db ? -1 : da > db;
}

static GPtrArray *
synthetic_catalog (void)
{
  static const guint32 head_dims[] = { 64, 128, 128, 256 };
  GPtrArray *specs = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_model_spec_free);
  GRand *rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < N_ROWS; i++)
    {
      g_autofree char *name = g_strdup_printf ("bench-%05u", i + 1);
      HrModelSpec *spec = hr_model_spec_new (name);
      double billions = 0.1 * pow (700.0, g_rand_double (rand)); /* 0.1B .. 70B */

      spec->parameters = (guint64) (billions * 1e9);
      spec->precision = g_strdup ("q4_K_M");
      spec->file_bytes = spec->parameters * 46 / 80;             /* 4.6 bits per weight */
      spec->layers = 16 + g_rand_int_range (rand, 0, 65);
      spec->heads = 32;
      spec->kv_heads = 1u << g_rand_int_range (rand, 0, 5);
      spec->key_length = spec->value_length = head_dims[g_rand_int_range (rand, 0, 4)];
      spec->context_length = 1u << g_rand_int_range (rand, 13, 18);
      spec->origin = g_strdup ("bench-window: synthetic");
      g_ptr_array_add (specs, spec);
    }

  g_rand_free (rand);
  return specs;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) catalog = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autofree char *tmp = NULL;
  HrApplication *app;
  HrWindow *window;
  HrModelsPage *page;
  GtkRange *context;
  GdkFrameClock *clock;
  Frame frame = { 0 };
  double frame_ms[N_STEPS];
  double evaluate_ms[N_STEPS];
  double app_cpu_ms[N_STEPS];
  double pass_ms[N_STEPS];
  double pass_rows_ms[N_STEPS];
  gint64 evaluated_cpu = 0, changed_cpu = 0;
  double rows_ms[N_STEPS];
  double wait_ms[N_STEPS];
  double work_ms[N_STEPS];
  double layout_ms[N_STEPS];
  double paint_ms[N_STEPS];
  double value = 12;
  double direction = 1;

  /* The user's files: a directory of this run's own, never the real one. */
  tmp = g_dir_make_tmp ("headroom-bench-window-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_DATA_HOME", tmp, TRUE);
  g_setenv ("XDG_CONFIG_HOME", tmp, TRUE);
  g_setenv ("XDG_CACHE_HOME", tmp, TRUE);

  gtk_init ();
  adw_init ();

  settings = g_settings_new (APPLICATION_ID);
  g_settings_set_int (settings, "window-width", 1280);
  g_settings_set_int (settings, "window-height", 800);
  /* The window's default runtime, the board's server era; or
   * HEADROOM_BENCH_RUNTIME (the Runtime control's nicks). */
  if (!g_settings_set_string (settings, "runtime",
                              g_getenv ("HEADROOM_BENCH_RUNTIME") ? g_getenv ("HEADROOM_BENCH_RUNTIME") : "board"))
    g_error ("HEADROOM_BENCH_RUNTIME must be seed, ollama-0.30, ollama-0.12, board or llama-server");

  app = hr_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("Could not register the application: %s", error->message);
  g_application_activate (G_APPLICATION (app));

  window = HR_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  page = hr_window_get_models_page (window);
  /* The session loads off the main thread; the synthetic catalog replaces
   * what it read. */
  while (!hr_session_get_loaded (hr_page_get_session (HR_PAGE (page))))
    g_main_context_iteration (NULL, TRUE);
  catalog = synthetic_catalog ();
  hr_models_page_set_catalog (page, catalog);
  context = hr_models_page_get_context_scale (page);

  while (!gtk_widget_get_mapped (GTK_WIDGET (page)))
    g_main_context_iteration (NULL, TRUE);
  hr_test_spin (500);

  g_signal_add_emission_hook (g_signal_lookup ("evaluated", HR_TYPE_CATALOG_MODEL), 0,
                              on_evaluated, &evaluated_cpu, NULL);
  g_signal_add_emission_hook (g_signal_lookup ("changed", HR_TYPE_MODEL_ROW), 0,
                              on_row_changed, &changed_cpu, NULL);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (clock, "before-paint", G_CALLBACK (on_before_paint), &frame);
  g_signal_connect (clock, "layout", G_CALLBACK (on_layout), &frame);
  g_signal_connect (clock, "paint", G_CALLBACK (on_paint), &frame);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &frame);

  for (guint i = 0; i < N_STEPS; i++)
    {
      gint64 start, evaluated, cpu_start;

      /* Up and down the slider: 4K, 8K ... 128K, 64K ... 512, ... */
      if (value + direction > 17 || value + direction < 9)
        direction = -direction;
      value += direction;

      /* Let the frame clock go idle, so the frame starts when asked. */
      hr_test_spin (30);

      frame.waiting = TRUE;
      frame.before = frame.layout = frame.paint = 0;
      start = g_get_monotonic_time ();
      changed_cpu = 0;
      cpu_start = evaluated_cpu = thread_cpu_us ();
      gtk_range_set_value (context, value);
      app_cpu_ms[i] = (thread_cpu_us () - cpu_start) / 1000.0;
      pass_ms[i] = (evaluated_cpu - cpu_start) / 1000.0;
      pass_rows_ms[i] = ((changed_cpu != 0 && changed_cpu < evaluated_cpu ? changed_cpu : evaluated_cpu) - cpu_start) / 1000.0;
      evaluated = g_get_monotonic_time ();
      while (frame.waiting)
        g_main_context_iteration (NULL, TRUE);

      evaluate_ms[i] = (evaluated - start) / 1000.0;
      frame_ms[i] = (frame.painted - start) / 1000.0;
      wait_ms[i] = (frame.before - evaluated) / 1000.0;
      layout_ms[i] = (frame.layout - frame.before) / 1000.0;
      paint_ms[i] = (frame.paint - frame.layout) / 1000.0;
    }

  /* The evaluation alone, as the catalog model's pass does it per row. */
  {
    HrScenario *scenario = hr_page_get_scenario (HR_PAGE (page));
    GListModel *rows = G_LIST_MODEL (hr_scenario_get_catalog_model (scenario));
    guint n = g_list_model_get_n_items (rows);
    g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);

    for (guint r = 0; r < n; r++)
      g_ptr_array_add (all, g_list_model_get_item (rows, r));
    HrEvaluationInputs inputs = *hr_scenario_peek_evaluation_inputs (scenario);
    guint32 context = inputs.context_tokens;

    for (guint i = 0; i < N_STEPS; i++)
      {
        gint64 cpu_start;

        /* The slider's steps again, each a new context (the row's caches
         * keep what does not depend on it); the last one the scenario's. */
        if (value + direction > 17 || value + direction < 9)
          direction = -direction;
        value += direction;
        inputs.context_tokens = i + 1 < N_STEPS ? 1u << (guint) value : context;
        cpu_start = thread_cpu_us ();
        for (guint r = 0; r < all->len; r++)
          hr_model_row_evaluate_runtime (g_ptr_array_index (all, r), &inputs,
                                         hr_scenario_get_runtime_template (scenario),
                                         hr_scenario_get_calibration (scenario));
        rows_ms[i] = (thread_cpu_us () - cpu_start) / 1000.0;
      }
  }

  for (guint i = 0; i < N_STEPS; i++)
    work_ms[i] = frame_ms[i] - wait_ms[i];
  qsort (work_ms, N_STEPS, sizeof (double), compare_doubles);
  qsort (frame_ms, N_STEPS, sizeof (double), compare_doubles);
  qsort (evaluate_ms, N_STEPS, sizeof (double), compare_doubles);
  qsort (app_cpu_ms, N_STEPS, sizeof (double), compare_doubles);
  qsort (pass_ms, N_STEPS, sizeof (double), compare_doubles);
  qsort (pass_rows_ms, N_STEPS, sizeof (double), compare_doubles);
  qsort (rows_ms, N_STEPS, sizeof (double), compare_doubles);
  qsort (wait_ms, N_STEPS, sizeof (double), compare_doubles);
  qsort (layout_ms, N_STEPS, sizeof (double), compare_doubles);
  qsort (paint_ms, N_STEPS, sizeof (double), compare_doubles);

  {
    g_autofree char *runtime = g_settings_get_string (settings, "runtime");

    g_print ("bench-window: %u rows, %u context-slider steps (renderer %s, runtime %s)\n",
             N_ROWS, N_STEPS, G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))), runtime);
  }
  g_print ("  value change to painted frame: median %.2f ms, worst %.2f ms (aim: < 8, < 16)\n",
           frame_ms[N_STEPS / 2], frame_ms[N_STEPS - 1]);
  g_print ("  of which re-evaluating the rows, sorting and the chart: median %.2f ms, worst %.2f ms\n",
           evaluate_ms[N_STEPS / 2], evaluate_ms[N_STEPS - 1]);
  g_print ("  the app's work per step in CPU time: median %.2f ms, worst %.2f ms "
           "(aim <= %.0f ms; ratio to aim %.2f)\n",
           app_cpu_ms[N_STEPS / 2], app_cpu_ms[N_STEPS - 1], AIM_APP_MS, app_cpu_ms[N_STEPS / 2] / AIM_APP_MS);
  g_print ("  of which the catalog model's pass over the rows and the cells of the rows that changed: "
           "median %.2f ms; the rest (the listeners of \"evaluated\" and \"changed\": the charts, "
           "the explain panel): about %.2f ms\n",
           pass_ms[N_STEPS / 2], app_cpu_ms[N_STEPS / 2] - pass_ms[N_STEPS / 2]);
  g_print ("  of the pass, from the value change to the end of its loop over the %u rows: median %.2f ms; "
           "the cells of the rows that changed: about %.2f ms\n",
           N_ROWS, pass_rows_ms[N_STEPS / 2], pass_ms[N_STEPS / 2] - pass_rows_ms[N_STEPS / 2]);
  g_print ("  for comparison, each of the %u rows evaluated whole, as without the pass's context step "
           "(and nothing shown): median %.2f ms\n",
           N_ROWS, rows_ms[N_STEPS / 2]);
  g_print ("  the same without the wait for the frame clock's next frame slot: median %.2f ms, worst %.2f ms\n",
           work_ms[N_STEPS / 2], work_ms[N_STEPS - 1]);
  g_print ("  waiting for the frame clock to start the frame: median %.2f ms, worst %.2f ms\n",
           wait_ms[N_STEPS / 2], wait_ms[N_STEPS - 1]);
  g_print ("  the frame's size allocation: median %.2f ms, worst %.2f ms; its snapshot and "
           "rendering: median %.2f ms, worst %.2f ms\n",
           layout_ms[N_STEPS / 2], layout_ms[N_STEPS - 1], paint_ms[N_STEPS / 2], paint_ms[N_STEPS - 1]);

  gtk_window_destroy (GTK_WINDOW (window));
  hr_test_spin (50);
  g_object_unref (app);

  {
    g_autofree char *saved = g_build_filename (tmp, "glib-2.0", NULL);

    g_rmdir (saved);
    g_rmdir (tmp);
  }

  return 0;
}
