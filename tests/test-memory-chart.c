/* test-memory-chart.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrMemoryChart on its own: the accessible description in both modes and
 * both units, the tooltip's bytes and formula, rendering for export, and
 * that the widget is freed (no reference cycle) when its window goes.
 * Figures: docs/seed-figures.md, "Budget and verdicts" (llama3.2:3b on the seed
 * board at 4,096 tokens).
 */

#include "config.h"

#include <string.h>

#include "hr-catalog.h"
#include "hr-gui-format.h"
#include "hr-memory-chart.h"
#include "hr-priors.h"
#include "hr-test-wait.h"
#include "gui-test-util.h"

static HrBoard *
seed_board (void)
{
  HrBoard *board = hr_board_new ("jetson-orin-nano-super", "Jetson Orin Nano Super");

  board->pool_bytes = 8000000000;
  board->resident_bytes = 1900000000;
  board->reserve_bytes = 1000000000;
  board->bandwidth_bytes_per_s = 102e9;
  board->reply_tokens = 27;
  board->stage_ceiling_ms = 3000;
  board->prefill_allowance_ms = 350;
  return board;
}

static HrModelSpec *
llama_3b (void)
{
  HrModelSpec *spec = hr_model_spec_new ("llama3.2:3b");

  spec->parameters = 3200000000;
  spec->precision = g_strdup ("q4_K_M");
  spec->file_bytes = 2000000000;
  spec->layers = 28;
  spec->heads = 24;
  spec->kv_heads = 8;
  spec->key_length = 128;
  spec->value_length = 128;
  spec->context_length = 131072;
  return spec;
}

static void
test_memory_chart_description (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autoptr(HrModelSpec) spec = llama_3b ();
  g_autoptr(GListStore) store = g_list_store_new (HR_TYPE_MODEL_ROW);
  g_autoptr(HrModelRow) row = hr_model_row_new (spec);
  GtkWidget *chart;
  HrEvaluationInputs scenario;

  hr_evaluation_inputs_init (&scenario, board, NULL);
  hr_model_row_evaluate (row, &scenario);
  g_list_store_append (store, row);

  chart = g_object_ref_sink (hr_memory_chart_new (HR_MEMORY_CHART_MODE_MODELS));
  hr_memory_chart_set_scenario (HR_MEMORY_CHART (chart), &scenario);
  hr_memory_chart_set_rows (HR_MEMORY_CHART (chart), G_LIST_MODEL (store));
  g_assert_cmpuint (hr_memory_chart_get_n_bars (HR_MEMORY_CHART (chart)), ==, 1);
  g_assert_cmpstr (hr_memory_chart_get_description (HR_MEMORY_CHART (chart)), ==,
                   "Memory per model on Jetson Orin Nano Super: budget 5.1 GB, headroom 6.1 GB, "
                   "pool 8.0 GB. llama3.2:3b: weights 2.0 GB, KV cache 0.47 GB, total 2.47 GB, "
                   "fits with 2.63 GB to spare.");
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (chart), GTK_ACCESSIBLE_ROLE_IMG);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (chart), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       hr_memory_chart_get_description (HR_MEMORY_CHART (chart)));

  /* GiB: 2,000,000,000 bytes = 1.86 GiB, 469,762,048 = 0.44 GiB */
  hr_memory_chart_set_unit (HR_MEMORY_CHART (chart), HR_UNIT_GIB);
  g_assert_nonnull (strstr (hr_memory_chart_get_description (HR_MEMORY_CHART (chart)),
                            "llama3.2:3b: weights 1.86 GiB, KV cache 0.44 GiB, total 2.3 GiB, "
                            "fits with 2.45 GiB to spare."));

  /* Pool mode: the board's pool as one column for the selected model */
  hr_memory_chart_set_unit (HR_MEMORY_CHART (chart), HR_UNIT_GB);
  hr_memory_chart_set_mode (HR_MEMORY_CHART (chart), HR_MEMORY_CHART_MODE_POOL);
  g_assert_cmpstr (hr_memory_chart_get_description (HR_MEMORY_CHART (chart)), ==,
                   "Jetson Orin Nano Super pool 8.0 GB; no model selected");
  hr_memory_chart_set_selected (HR_MEMORY_CHART (chart), row);
  g_assert_cmpstr (hr_memory_chart_get_description (HR_MEMORY_CHART (chart)), ==,
                   "Jetson Orin Nano Super pool 8.0 GB with llama3.2:3b: Resident 1.9 GB, "
                   "Weights 2.0 GB, KV cache 0.47 GB, Overhead 0.0 GB, Reserve 1.0 GB, Free 2.63 GB");

  hr_memory_chart_set_rows (HR_MEMORY_CHART (chart), NULL);
  hr_memory_chart_set_selected (HR_MEMORY_CHART (chart), NULL);
  g_assert_finalize_object (chart);
}

static void
test_memory_chart_over_the_pool (void)
{
  g_autoptr(HrBoard) board = seed_board ();
  g_autoptr(HrModelSpec) spec = llama_3b ();
  g_autoptr(HrModelRow) row = NULL;
  GtkWidget *chart;
  HrEvaluationInputs scenario;

  /* qwen2.5:14b's shape: 9.0 GB of weights and 0.81 GB of KV cache */
  g_free (spec->name);
  spec->name = g_strdup ("qwen2.5:14b");
  spec->parameters = 14800000000;
  spec->file_bytes = 9000000000;
  spec->layers = 48;
  row = hr_model_row_new (spec);
  hr_evaluation_inputs_init (&scenario, board, NULL);
  hr_model_row_evaluate (row, &scenario);

  chart = g_object_ref_sink (hr_memory_chart_new (HR_MEMORY_CHART_MODE_POOL));
  hr_memory_chart_set_scenario (HR_MEMORY_CHART (chart), &scenario);
  hr_memory_chart_set_selected (HR_MEMORY_CHART (chart), row);
  /* 1.9 + 9.0 + 0.81 + 1.0 = 12.71 GB in an 8.0 GB pool: 4.71 GB past
   * the pool line with the reserve on top; the table's "over 3.71 GB" is
   * measured from the headroom (8.0 - 1.9 = 6.1 GB), and the chart names
   * both lines. */
  g_assert_cmpstr (hr_memory_chart_get_description (HR_MEMORY_CHART (chart)), ==,
                   "Jetson Orin Nano Super pool 8.0 GB with qwen2.5:14b: Resident 1.9 GB, "
                   "Weights 9.0 GB, KV cache 0.81 GB, Overhead 0.0 GB, Reserve 1.0 GB, Free 0.0 GB; "
                   "3.71 GB past the headroom, 4.71 GB past the pool line with the 1.00 GB reserve");
  {
    g_autofree char *pill = hr_gui_format_evaluation_verdict (hr_model_row_get_evaluation (row), HR_UNIT_GB);

    g_assert_cmpstr (pill, ==, "over 3.71 GB");
  }

  hr_memory_chart_set_selected (HR_MEMORY_CHART (chart), NULL);
  g_assert_finalize_object (chart);
}

static gboolean
find_tooltip (GtkWidget  *chart,
              const char *prefix,
              char      **out)
{
  for (int y = 0; y < gtk_widget_get_height (chart); y += 2)
    for (int x = 0; x < gtk_widget_get_width (chart); x += 2)
      {
        g_autofree char *tooltip = hr_memory_chart_get_tooltip_at (HR_MEMORY_CHART (chart), x, y);

        if (tooltip != NULL && g_str_has_prefix (tooltip, prefix))
          {
            *out = g_steal_pointer (&tooltip);
            return TRUE;
          }
      }
  return FALSE;
}

/* The on-screen cases: llama3.2:3b on the seed board in a models chart
 * in a window, shared by the cases (they only read it). */
typedef struct {
  HrBoard            *board;
  HrModelSpec        *spec;
  GListStore         *store;
  HrModelRow         *row;
  HrEvaluationInputs  scenario;
  GtkWidget          *window;
  GtkWidget          *chart;
} Screen;

static Screen screen;

static void
screen_open (gpointer data)
{
  Screen *s = data;

  s->board = seed_board ();
  s->spec = llama_3b ();
  s->store = g_list_store_new (HR_TYPE_MODEL_ROW);
  s->row = hr_model_row_new (s->spec);
  hr_evaluation_inputs_init (&s->scenario, s->board, NULL);
  hr_model_row_evaluate (s->row, &s->scenario);
  g_list_store_append (s->store, s->row);
  s->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (s->window), 600, 300);
  s->chart = g_object_ref (hr_memory_chart_new (HR_MEMORY_CHART_MODE_MODELS));
  hr_memory_chart_set_scenario (HR_MEMORY_CHART (s->chart), &s->scenario);
  hr_memory_chart_set_rows (HR_MEMORY_CHART (s->chart), G_LIST_MODEL (s->store));
  gtk_window_set_child (GTK_WINDOW (s->window), s->chart);
  gtk_window_present (GTK_WINDOW (s->window));
  while (!gtk_widget_get_mapped (s->chart))
    g_main_context_iteration (NULL, TRUE);
  hr_test_spin (200);
}

static void
screen_close (void)
{
  gtk_window_destroy (GTK_WINDOW (screen.window));
  hr_test_spin (50);
  hr_memory_chart_set_rows (HR_MEMORY_CHART (screen.chart), NULL);
  g_assert_finalize_object (screen.chart);
  g_clear_object (&screen.row);
  g_clear_object (&screen.store);
  g_clear_pointer (&screen.spec, hr_model_spec_free);
  g_clear_pointer (&screen.board, hr_board_free);
}

/* The tooltip over the weights: exact bytes, GB and GiB, the formula */
static void
test_screen_tooltip (Screen        *s,
                     gconstpointer  data)
{
  g_autofree char *tooltip = NULL;

  g_assert_true (find_tooltip (s->chart, "llama3.2:3b: Weights\n", &tooltip));
  g_assert_cmpstr (tooltip, ==,
                   "llama3.2:3b: Weights\n2,000,000,000 bytes = 2.0 GB (1.86 GiB)\n"
                   "the file as pulled (q4_K_M): 2,000,000,000 bytes = 2.0 GB (1.86 GiB)");
}

/* Rendering for export gives a tree of nodes of the size asked: the
 * background fills 800 x height; text may ink half a pixel past it. */
static void
test_screen_export (Screen        *s,
                    gconstpointer  data)
{
  int height = hr_memory_chart_get_export_height (HR_MEMORY_CHART (s->chart), 800, "inputs");
  g_autoptr(GskRenderNode) node = NULL;
  graphene_rect_t bounds;

  g_assert_cmpint (height, >, 100);
  node = hr_memory_chart_render (HR_MEMORY_CHART (s->chart), 800, height, "inputs");
  g_assert_nonnull (node);
  gsk_render_node_get_bounds (node, &bounds);
  g_assert_cmpfloat (bounds.origin.x, ==, 0);
  g_assert_cmpfloat (bounds.origin.y, ==, 0);
  g_assert_cmpfloat (bounds.size.width, >=, 800);
  g_assert_cmpfloat (bounds.size.width, <, 801);
  g_assert_cmpfloat (bounds.size.height, >=, height);
  g_assert_cmpfloat (bounds.size.height, <, height + 1);
}

static const GuiTestStep screen_steps[] = {
  { "/memory-chart/on-screen/tooltip", (GTestFixtureFunc) test_screen_tooltip },
  { "/memory-chart/on-screen/export", (GTestFixtureFunc) test_screen_export },
};

static GuiTestStory screen_story = {
  "on-screen", screen_open, screen_close, screen_steps, G_N_ELEMENTS (screen_steps), &screen, sizeof (Screen), 0
};

/* With HR_TEST_SHOTS set, the chart as exported, for a person to look at. */
static void
save_shot (GtkWidget  *chart,
           const char *name)
{
  const char *dir = g_getenv ("HR_TEST_SHOTS");
  g_autoptr(GskRenderNode) node = NULL;
  g_autofree char *path = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  int height;

  if (dir == NULL)
    return;
  height = hr_memory_chart_get_export_height (HR_MEMORY_CHART (chart), 700, "RTX 3060 12 GB, 32,768 tokens");
  node = hr_memory_chart_render (HR_MEMORY_CHART (chart), 700, height, "RTX 3060 12 GB, 32,768 tokens");
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 700, height);
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  path = g_build_filename (dir, name, NULL);
  cairo_surface_write_to_png (surface, path);
  cairo_surface_destroy (surface);
}

/* Qwen2.5:14b at 32,768 tokens on the RTX 3060 12 GB board
 * (data/boards.json) is split 34/49, 10.65 GB in VRAM and 5.27 GB in host
 * memory, as `headroom-cli fit --board rtx-3060-12gb --context 32768`
 * prints it; the chart draws and names both parts, the pool both memories. */
/* The partial story: qwen2.5:14b (split) and llama3.1:8b (fits) on the
 * RTX 3060 12 GB at 32,768 tokens, in a models chart, then in the pool. */
typedef struct {
  GPtrArray          *boards;    /* the built-in boards */
  GPtrArray          *catalog;   /* the built-in catalog */
  GListStore         *store;     /* llama3.1:8b, qwen2.5:14b */
  HrModelRow         *row;       /* qwen2.5:14b */
  HrModelRow         *small_row; /* llama3.1:8b */
  HrEvaluationInputs  scenario;
  GtkWidget          *window;
  GtkWidget          *chart;
} Partial;

static Partial partial;

static const HrModelSpec *
find_spec (GPtrArray  *catalog,
           const char *name)
{
  for (guint i = 0; i < catalog->len; i++)
    if (g_strcmp0 (((HrModelSpec *) catalog->pdata[i])->name, name) == 0)
      return catalog->pdata[i];
  return NULL;
}

static void
partial_open (gpointer data)
{
  Partial *p = data;
  g_autofree char *boards_path = g_build_filename (hr_data_builtin_dir (), "boards.json", NULL);
  g_autofree char *catalog_path = g_build_filename (hr_data_builtin_dir (), "catalog.json", NULL);
  const HrBoard *board = NULL;
  const HrModelSpec *spec, *small;

  p->boards = hr_boards_load_file (boards_path, NULL);
  p->catalog = hr_catalog_load_file (catalog_path, NULL);
  g_assert_nonnull (p->boards);
  g_assert_nonnull (p->catalog);
  for (guint i = 0; i < p->boards->len; i++)
    if (g_strcmp0 (((HrBoard *) p->boards->pdata[i])->id, "rtx-3060-12gb") == 0)
      board = p->boards->pdata[i];
  spec = find_spec (p->catalog, "qwen2.5:14b");
  small = find_spec (p->catalog, "llama3.1:8b");
  g_assert_nonnull (board);
  g_assert_nonnull (spec);
  g_assert_nonnull (small);
  hr_evaluation_inputs_init (&p->scenario, board, NULL);
  p->scenario.context_tokens = 32768;
  p->row = hr_model_row_new (spec);
  hr_model_row_evaluate (p->row, &p->scenario);
  p->small_row = hr_model_row_new (small);
  hr_model_row_evaluate (p->small_row, &p->scenario);
  p->store = g_list_store_new (HR_TYPE_MODEL_ROW);
  g_list_store_append (p->store, p->small_row);
  g_list_store_append (p->store, p->row);

  p->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (p->window), 700, 300);
  p->chart = g_object_ref (hr_memory_chart_new (HR_MEMORY_CHART_MODE_MODELS));
  hr_memory_chart_set_scenario (HR_MEMORY_CHART (p->chart), &p->scenario);
  hr_memory_chart_set_rows (HR_MEMORY_CHART (p->chart), G_LIST_MODEL (p->store));
  gtk_window_set_child (GTK_WINDOW (p->window), p->chart);
  gtk_window_present (GTK_WINDOW (p->window));
  while (!gtk_widget_get_mapped (p->chart))
    g_main_context_iteration (NULL, TRUE);
  hr_test_spin (200);
}

static void
partial_close (void)
{
  gtk_window_destroy (GTK_WINDOW (partial.window));
  hr_test_spin (50);
  hr_memory_chart_set_selected (HR_MEMORY_CHART (partial.chart), NULL);
  hr_memory_chart_set_rows (HR_MEMORY_CHART (partial.chart), NULL);
  g_assert_finalize_object (partial.chart);
  g_clear_object (&partial.row);
  g_clear_object (&partial.small_row);
  g_clear_object (&partial.store);
  g_clear_pointer (&partial.boards, g_ptr_array_unref);
  g_clear_pointer (&partial.catalog, g_ptr_array_unref);
}

static void
test_partial_verdict (Partial       *p,
                      gconstpointer  data)
{
  g_assert_cmpint (hr_model_row_get_evaluation (p->row)->verdict, ==, HR_VERDICT_PARTIAL);
}

static void
test_partial_description (Partial       *p,
                          gconstpointer  data)
{
  g_assert_nonnull (strstr (hr_memory_chart_get_description (HR_MEMORY_CHART (p->chart)),
                            "qwen2.5:14b: total 15.91 GB, partial: 34 of 49 layers on the GPU, "
                            "10.65 GB in VRAM and 5.27 GB in host memory; partial, 25.09 GB of host "
                            "memory left."));
}

/* The split model's two bars, VRAM and host memory, each with its bytes. */
static void
test_partial_split_tooltips (Partial       *p,
                             gconstpointer  data)
{
  g_autofree char *vram_tip = NULL;
  g_autofree char *host_tip = NULL;

  g_assert_true (find_tooltip (p->chart, "qwen2.5:14b: VRAM\n", &vram_tip));
  g_assert_cmpstr (vram_tip, ==, "qwen2.5:14b: VRAM\n10,645,148,128 bytes = 10.65 GB (9.91 GiB)\n"
                                 "34 of 49 layers on the GPU, with their KV cache and the GPU's compute "
                                 "buffer (PROCESSOR 33%/67% CPU/GPU); the explain panel shows each term");
  g_assert_true (find_tooltip (p->chart, "qwen2.5:14b: Host memory\n", &host_tip));
  g_assert_cmpstr (host_tip, ==, "qwen2.5:14b: Host memory\n5,267,580,960 bytes = 5.27 GB (4.91 GiB)\n"
                                 "15 layers in host memory, run by the CPU, with the token embedding, "
                                 "their KV cache and the CPU's compute buffer");
}

/* The model that fits keeps its weights, KV cache and overhead. */
static void
test_partial_fitting_model (Partial       *p,
                            gconstpointer  data)
{
  g_autofree char *tip = NULL;

  g_assert_true (find_tooltip (p->chart, "llama3.1:8b: Weights\n", &tip));
  save_shot (p->chart, "memory-chart-partial.png");
}

/* The pool: both memories, each with its budget line. */
static void
test_partial_pool_budgets (Partial       *p,
                           gconstpointer  data)
{
  g_autofree char *host = NULL;
  g_autofree char *vram = NULL;

  hr_memory_chart_set_mode (HR_MEMORY_CHART (p->chart), HR_MEMORY_CHART_MODE_POOL);
  hr_memory_chart_set_selected (HR_MEMORY_CHART (p->chart), p->row);
  gtk_widget_set_size_request (p->chart, 700, 480);
  hr_test_spin (200);
  g_assert_true (find_tooltip (p->chart, "Budget of the host memory\n", &host));
  g_assert_cmpstr (host, ==, "Budget of the host memory\n28,359,738,368 bytes = 28.36 GB (26.41 GiB)");
  g_assert_true (find_tooltip (p->chart, "Budget of the VRAM\n", &vram));
}

/* Each memory's parts: here the host's weights (15 layers and the token
 * embedding), not the models chart's bars. */
static void
test_partial_pool_parts (Partial       *p,
                         gconstpointer  data)
{
  g_autofree char *tip = NULL;

  g_assert_true (find_tooltip (p->chart, "Weights of the host memory\n", &tip));
  g_clear_pointer (&tip, g_free);
  g_assert_false (find_tooltip (p->chart, "qwen2.5:14b: Host memory\n", &tip));
  save_shot (p->chart, "pool-chart-partial.png");
}

static const GuiTestStep partial_steps[] = {
  { "/memory-chart/partial/verdict", (GTestFixtureFunc) test_partial_verdict },
  { "/memory-chart/partial/description", (GTestFixtureFunc) test_partial_description },
  { "/memory-chart/partial/split-tooltips", (GTestFixtureFunc) test_partial_split_tooltips },
  { "/memory-chart/partial/fitting-model", (GTestFixtureFunc) test_partial_fitting_model },
  { "/memory-chart/partial/pool-budgets", (GTestFixtureFunc) test_partial_pool_budgets },
  { "/memory-chart/partial/pool-parts", (GTestFixtureFunc) test_partial_pool_parts },
};

static GuiTestStory partial_story = {
  "partial", partial_open, partial_close, partial_steps, G_N_ELEMENTS (partial_steps),
  &partial, sizeof (Partial), 0
};

/* The first accessible child of @chart after @n others (its columns). */
static GtkWidget *
nth_child (GtkWidget *chart,
           guint      n)
{
  GtkWidget *child = gtk_widget_get_first_child (chart);

  for (guint i = 0; i < n && child != NULL; i++)
    child = gtk_widget_get_next_sibling (child);
  return child;
}

static guint
n_children (GtkWidget *chart)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (chart); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

/* llama3.1:70b (q4_K_M) at 8,192 tokens on the 2 x RTX 3090 preset
 * (data/boards.json), as `headroom-cli predict llama3.1:70b --board
 * 2x-rtx-3090 --context 8192` places it: GPU 0 blocks 0-40 (41 layers,
 * weights 21,418,259,529, KV 1,375,731,712, compute 318,773,248 bytes),
 * GPU 1 blocks 41-79 and the output layer (40 layers, 20,977,603,409,
 * 1,308,622,848, 318,773,248), host the token embedding (604,137,062) and
 * a 134,217,728-byte compute buffer; GPU 0 is full first. The pool chart
 * draws three columns, each one an accessible child with its figures; free
 * is the memory less resident, the three buffers and the reserve (GPU 0:
 * 25,769,803,776 - 1e9 - 21,418,259,529 - 1,375,731,712 - 318,773,248 -
 * 5e8 = 1,157,039,287 bytes). */
/* The devices story: llama3.1:70b on the 2 × RTX 3090 board at 8,192
 * tokens, its pool chart in a window, then narrow, then in models mode. */
typedef struct {
  GPtrArray          *boards;    /* the built-in boards */
  GPtrArray          *catalog;   /* the built-in catalog */
  GListStore         *store;     /* the one row */
  HrModelRow         *row;
  HrEvaluationInputs  scenario;
  GtkWidget          *window;
  GtkWidget          *chart;
} Devices;

static Devices devices;

static void
devices_open (gpointer data)
{
  Devices *d = data;
  g_autofree char *boards_path = g_build_filename (hr_data_builtin_dir (), "boards.json", NULL);
  g_autofree char *catalog_path = g_build_filename (hr_data_builtin_dir (), "catalog.json", NULL);
  const HrBoard *board = NULL;
  const HrModelSpec *spec = NULL;

  d->boards = hr_boards_load_file (boards_path, NULL);
  d->catalog = hr_catalog_load_file (catalog_path, NULL);
  for (guint i = 0; d->boards != NULL && i < d->boards->len; i++)
    if (g_strcmp0 (((HrBoard *) d->boards->pdata[i])->id, "2x-rtx-3090") == 0)
      board = d->boards->pdata[i];
  for (guint i = 0; d->catalog != NULL && i < d->catalog->len; i++)
    if (g_strcmp0 (((HrModelSpec *) d->catalog->pdata[i])->name, "llama3.1:70b") == 0)
      spec = d->catalog->pdata[i];
  g_assert_nonnull (board);
  g_assert_nonnull (spec);
  hr_evaluation_inputs_init (&d->scenario, board, NULL);
  d->scenario.context_tokens = 8192;
  d->row = hr_model_row_new (spec);
  hr_model_row_evaluate (d->row, &d->scenario);
  d->store = g_list_store_new (HR_TYPE_MODEL_ROW);
  g_list_store_append (d->store, d->row);

  d->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (d->window), 700, 500);
  d->chart = g_object_ref (hr_memory_chart_new (HR_MEMORY_CHART_MODE_POOL));
  hr_memory_chart_set_scenario (HR_MEMORY_CHART (d->chart), &d->scenario);
  hr_memory_chart_set_rows (HR_MEMORY_CHART (d->chart), G_LIST_MODEL (d->store));
  hr_memory_chart_set_selected (HR_MEMORY_CHART (d->chart), d->row);
  gtk_window_set_child (GTK_WINDOW (d->window), d->chart);
  gtk_window_present (GTK_WINDOW (d->window));
  while (!gtk_widget_get_mapped (d->chart))
    g_main_context_iteration (NULL, TRUE);
  hr_test_spin (200);
}

static void
devices_close (void)
{
  gtk_window_destroy (GTK_WINDOW (devices.window));
  hr_test_spin (50);
  hr_memory_chart_set_selected (HR_MEMORY_CHART (devices.chart), NULL);
  hr_memory_chart_set_rows (HR_MEMORY_CHART (devices.chart), NULL);
  g_assert_finalize_object (devices.chart);
  g_clear_object (&devices.row);
  g_clear_object (&devices.store);
  g_clear_pointer (&devices.boards, g_ptr_array_unref);
  g_clear_pointer (&devices.catalog, g_ptr_array_unref);
}

/* 41 layers on GPU 0, 40 on GPU 1; GPU 0 binds. */
static void
test_devices_placement (Devices       *d,
                        gconstpointer  data)
{
  const HrEvaluation *e = hr_model_row_get_evaluation (d->row);

  g_assert_cmpuint (e->n_devices, ==, 2);
  g_assert_cmpuint (e->device_layers[0], ==, 41);
  g_assert_cmpuint (e->device_layers[1], ==, 40);
  g_assert_cmpint (e->binding_device, ==, 0);
}

/* The table's verdict pill and what a screen reader hears of it. */
static void
test_devices_pill (Devices       *d,
                   gconstpointer  data)
{
  const HrEvaluation *e = hr_model_row_get_evaluation (d->row);
  g_autofree char *pill = hr_gui_format_evaluation_verdict (e, HR_UNIT_GB);
  g_autofree char *sentence = hr_gui_format_evaluation_sentence (e, HR_UNIT_GB);

  g_assert_cmpstr (pill, ==, "fits 1.16 GB · 2 GPUs 41+40 layers");
  g_assert_true (g_str_has_suffix (sentence, "; 2 GPUs 41+40 layers"));
}

/* One column per GPU and one for host memory, each named with its figures. */
static void
test_devices_columns (Devices       *d,
                      gconstpointer  data)
{
  GtkWidget *chart = d->chart;

  g_assert_cmpuint (n_children (chart), ==, 3);
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (nth_child (chart, 0)), GTK_ACCESSIBLE_ROLE_IMG);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (nth_child (chart, 0)), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "GPU 0 NVIDIA GeForce RTX 3090, full first: 41 layers; weights 21.42 GB, "
                                       "KV cache 1.38 GB, compute buffer 0.32 GB, resident 1.0 GB, reserve 0.5 GB, "
                                       "free 1.16 GB of 25.77 GB");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (nth_child (chart, 1)), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "GPU 1 NVIDIA GeForce RTX 3090: 40 layers; weights 20.98 GB, "
                                       "KV cache 1.31 GB, compute buffer 0.32 GB, resident 0.5 GB, reserve 0.5 GB, "
                                       "free 2.16 GB of 25.77 GB");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (nth_child (chart, 2)), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "host memory: 0 layers on the CPU; weights 0.6 GB, KV cache 0.0 GB, "
                                       "compute buffer 0.13 GB, resident 4.0 GB, reserve 2.0 GB, free 27.62 GB "
                                       "of 34.36 GB");
}

/* The chart's description and its tooltips' bytes, per GPU. */
static void
test_devices_description (Devices       *d,
                          gconstpointer  data)
{
  g_autofree char *weights = NULL;
  g_autofree char *compute = NULL;

  g_assert_true (g_str_has_prefix (hr_memory_chart_get_description (HR_MEMORY_CHART (d->chart)),
                                   "2 × NVIDIA GeForce RTX 3090 with llama3.1:70b: GPU 0 NVIDIA GeForce RTX 3090, "
                                   "full first: 41 layers;"));
  g_assert_true (find_tooltip (d->chart, "Weights of the GPU 1 NVIDIA GeForce RTX 3090\n", &weights));
  g_assert_cmpstr (weights, ==, "Weights of the GPU 1 NVIDIA GeForce RTX 3090\n"
                                "20,977,603,409 bytes = 20.98 GB (19.54 GiB)");
  g_assert_true (find_tooltip (d->chart, "Compute buffer of the GPU 0 NVIDIA GeForce RTX 3090\n", &compute));
  g_assert_cmpstr (compute, ==, "Compute buffer of the GPU 0 NVIDIA GeForce RTX 3090\n"
                                "318,773,248 bytes = 0.32 GB (0.3 GiB)");
  save_shot (d->chart, "pool-chart-devices.png");
}

/* At a phone's 360 px: the same three columns, the legend above them. */
static void
test_devices_narrow (Devices       *d,
                     gconstpointer  data)
{
  g_autofree char *tip = NULL;

  gtk_window_set_default_size (GTK_WINDOW (d->window), 360, 700);
  gtk_widget_set_size_request (d->chart, 360, -1);
  hr_test_spin (200);
  g_assert_cmpuint (n_children (d->chart), ==, 3);
  g_assert_cmpint (gtk_widget_get_width (d->chart), <=, 360);
  g_assert_cmpint (hr_memory_chart_get_export_height (HR_MEMORY_CHART (d->chart), 360, NULL), >, 200);
  g_assert_true (find_tooltip (d->chart, "Weights of the host memory\n", &tip));
}

/* The models chart: its lines are the sums over the GPUs (budgets
 * 24,269,803,776 + 24,769,803,776, headroom 24,769,803,776 +
 * 25,269,803,776, memory 2 x 25,769,803,776 bytes). */
static void
test_devices_models_mode (Devices       *d,
                          gconstpointer  data)
{
  g_autofree char *tip = NULL;

  hr_memory_chart_set_mode (HR_MEMORY_CHART (d->chart), HR_MEMORY_CHART_MODE_MODELS);
  hr_test_spin (100);
  g_assert_cmpuint (n_children (d->chart), ==, 0);
  g_assert_true (g_str_has_prefix (hr_memory_chart_get_description (HR_MEMORY_CHART (d->chart)),
                                   "Memory per model on 2 × NVIDIA GeForce RTX 3090: its 2 GPUs together budget "
                                   "49.04 GB, headroom 50.04 GB, pool 51.54 GB."));
  g_assert_true (find_tooltip (d->chart, "Pool\n", &tip));
  g_assert_cmpstr (tip, ==, "Pool\n51,539,607,552 bytes = 51.54 GB (48.0 GiB)\nthe sum of its GPUs' memory");
}

static const GuiTestStep devices_steps[] = {
  { "/memory-chart/devices/placement", (GTestFixtureFunc) test_devices_placement },
  { "/memory-chart/devices/pill", (GTestFixtureFunc) test_devices_pill },
  { "/memory-chart/devices/columns", (GTestFixtureFunc) test_devices_columns },
  { "/memory-chart/devices/description", (GTestFixtureFunc) test_devices_description },
  { "/memory-chart/devices/narrow", (GTestFixtureFunc) test_devices_narrow },
  { "/memory-chart/devices/models-mode", (GTestFixtureFunc) test_devices_models_mode },
};

static GuiTestStory devices_story = {
  "devices", devices_open, devices_close, devices_steps, G_N_ELEMENTS (devices_steps),
  &devices, sizeof (Devices), 0
};

int
main (int   argc,
      char *argv[])
{
  int result;

  g_setenv ("GTK_A11Y", "test", TRUE);
  /* GTK 4.8's GL renderer leaks one 16 KiB block when a second toplevel
   * (the About window) comes and goes, which LeakSanitizer cannot attribute
   * through the system libraries; what these tests check does not depend
   * on the renderer, so they draw with cairo. */
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/memory-chart/description", test_memory_chart_description);
  g_test_add_func ("/memory-chart/over-the-pool", test_memory_chart_over_the_pool);
  gui_test_story_add (&screen_story);
  gui_test_story_add (&partial_story);
  gui_test_story_add (&devices_story);

  result = g_test_run ();
  gui_test_unshare ();
  return result;
}
