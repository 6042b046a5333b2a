/* hr-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-application.h"
#include "board/hr-board-page.h"
#include "board/hr-servers-overview.h"
#include "hub/hr-hub-page.h"
#include "hr-window-private.h"
#include "hr-accessible.h"
#include "hr-wrap-labels.h"

struct _HrWindow
{
  AdwApplicationWindow  parent_instance;

  AdwToastOverlay      *toast_overlay;
  AdwViewStack         *stack;
  AdwViewSwitcherTitle *switcher_title;
  GtkToggleButton      *sidebar_button;
  GtkWidget            *export_button;
  GtkToggleButton      *explain_button;
  AdwViewSwitcherBar   *switcher_bar;
  guint                 sync_buttons_id;
  guint                 build_id;       /* the idle that builds the pages */
  gulong                after_paint_id; /* on the frame clock, until the first frame */
  gboolean              pages_built;
  HrModelsPage         *models_page;
  HrHubPage            *hub_page;
  HrGgufPage           *gguf_page;

  GSettings            *settings;
  HrSession            *session;
  HrScenario           *scenario;
  GPtrArray            *messages;   /* every toast shown, in order */
};

G_DEFINE_FINAL_TYPE (HrWindow, hr_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_PAGES_BUILT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/**
 * hr_window_add_toast:
 * @self: a #HrWindow
 * @message: what to tell the person, plain text
 *
 * Shows @message in a toast and keeps it in hr_window_get_messages().
 */
void
hr_window_add_toast (HrWindow   *self,
                     const char *message)
{
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  g_return_if_fail (HR_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  g_ptr_array_add (self->messages, g_strdup (message));

  escaped = g_markup_escape_text (message, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/**
 * hr_window_get_toast_overlay:
 * @self: a #HrWindow
 *
 * Returns: (transfer none): the overlay the window's toasts show in
 *   (hr_window_show_toast())
 */
AdwToastOverlay *
hr_window_get_toast_overlay (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);

  return self->toast_overlay;
}

/**
 * hr_window_get_messages:
 * @self: a #HrWindow
 *
 * Returns: (transfer none) (element-type utf8): every message shown in a
 *   toast since the window opened
 */
GPtrArray *
hr_window_get_messages (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);

  return self->messages;
}

/* ------------------------------------------------------------------ */
/* The session and the scenario                                        */

static void
show_problems (HrWindow *self)
{
  GPtrArray *problems = hr_session_get_problems (self->session);

  for (guint i = 0; i < problems->len; i++)
    hr_window_add_toast (self, g_ptr_array_index (problems, i));
}

static void
on_problem (HrSession  *session,
            const char *message,
            HrWindow   *self)
{
  hr_window_add_toast (self, message);
}

/* Every page is an HrPage: it gets the session and the scenario once. */
static void
give_page (HrWindow  *self,
           GtkWidget *page)
{
  hr_page_set_session (HR_PAGE (page), self->session);
  hr_page_set_scenario (HR_PAGE (page), self->scenario);
}

/* Every page, once they are built. */
static void
give_pages (HrWindow *self)
{
  if (!self->pages_built)
    return;
  for (GtkWidget *slot = gtk_widget_get_first_child (GTK_WIDGET (self->stack));
       slot != NULL;
       slot = gtk_widget_get_next_sibling (slot))
    give_page (self, adw_bin_get_child (ADW_BIN (slot)));
}

/* The application's settings, once the window belongs to it (a window
 * made without an application, the page tests', opens its own when it is
 * first shown), and the window's size restored from them. */
static void
ensure_settings (HrWindow *self,
                 gboolean  own)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  if (self->settings != NULL)
    return;
  if (HR_IS_APPLICATION (application))
    self->settings = g_object_ref (hr_application_get_settings (HR_APPLICATION (application)));
  else if (own)
    self->settings = g_settings_new (APPLICATION_ID);
  else
    return;

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-is-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

/* The application's session and scenario, once the window belongs to it;
 * a window shown without an application (the page tests) has its own. */
static void
ensure_session (HrWindow *self,
                gboolean  own)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  ensure_settings (self, own);
  if (self->session != NULL)
    return;

  if (HR_IS_APPLICATION (application))
    {
      self->session = g_object_ref (hr_application_get_session (HR_APPLICATION (application)));
      self->scenario = g_object_ref (hr_application_get_scenario (HR_APPLICATION (application)));
    }
  else if (own)
    {
      self->session = hr_session_new (self->settings);
      self->scenario = hr_scenario_new (self->session);
      hr_scenario_bind_settings (self->scenario, self->settings);
    }
  else
    {
      return;
    }
  give_pages (self);

  /* What could not be read is told once the session is loaded. */
  g_signal_connect_object (self->session, "problem", G_CALLBACK (on_problem), self, 0);
  if (hr_session_get_loaded (self->session))
    show_problems (self);
  else
    g_signal_connect_object (self->session, "notify::loaded", G_CALLBACK (show_problems), self,
                             G_CONNECT_SWAPPED);
  hr_session_load_async (self->session, NULL, NULL, NULL);
}

static void
on_application_set (HrWindow *self)
{
  ensure_session (self, FALSE);
}

/* ------------------------------------------------------------------ */
/* The pages, built after the first frame                              */

/* A flap folds while it is being allocated: showing a header bar button
 * right then would change the header bar after its own allocation, so the
 * buttons follow the flaps from an idle, before the next frame. The
 * sidebar's button shows at every width while the Models page does (F9
 * and the button hide and show the sidebar both ways); the explain
 * panel's only while its flap is folded (unfolded, the panel is always
 * beside the charts). */
static gboolean
sync_flap_buttons (gpointer user_data)
{
  HrWindow *self = user_data;
  gboolean on_models;

  self->sync_buttons_id = 0;
  on_models = self->pages_built &&
              g_strcmp0 (adw_view_stack_get_visible_child_name (self->stack), "models") == 0;
  gtk_widget_set_visible (GTK_WIDGET (self->sidebar_button), on_models);
  /* What the Export menu exports is the Models page's chart and table:
   * elsewhere it is hidden, and its keys do nothing. */
  gtk_widget_set_visible (self->export_button, on_models);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-png", on_models);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-svg", on_models);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-csv", on_models);
  gtk_widget_set_visible (GTK_WIDGET (self->explain_button),
                          on_models && adw_flap_get_folded (hr_models_page_get_explain_flap (self->models_page)));
  return G_SOURCE_REMOVE;
}

static void
queue_sync_flap_buttons (HrWindow *self)
{
  if (self->sync_buttons_id == 0)
    self->sync_buttons_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, sync_flap_buttons, self, NULL);
}

/* The template's stack holds an empty AdwBin under each page's name,
 * title and icon, so the first frame shows the header bar and the view
 * switchers at once; each page is put into its bin, in the stack's order.
 * The stack's pages stay as they are: removing and adding them would make
 * both view switchers destroy and rebuild their buttons. */
static void
fill_page_slots (HrWindow   *self,
                 GtkWidget **pages,
                 guint       n_pages)
{
  GtkWidget *slot = gtk_widget_get_first_child (GTK_WIDGET (self->stack));

  for (guint i = 0; i < n_pages; i++, slot = gtk_widget_get_next_sibling (slot))
    {
      g_return_if_fail (ADW_IS_BIN (slot));
      adw_bin_set_child (ADW_BIN (slot), pages[i]);
    }
}

/* Builds the five pages (once): from an idle after the first frame, or at
 * once when something asks for a page before that. */
static void
build_pages (HrWindow *self)
{
  GtkWidget *pages[5];
  AdwFlap *flap;

  if (self->pages_built)
    return;
  self->pages_built = TRUE;
  g_clear_handle_id (&self->build_id, g_source_remove);

  pages[0] = hr_models_page_new ();
  pages[1] = hr_hub_page_new ();
  pages[2] = hr_board_page_new ();
  pages[3] = hr_servers_overview_new ();
  pages[4] = hr_gguf_page_new ();
  self->models_page = HR_MODELS_PAGE (pages[0]);
  self->hub_page = HR_HUB_PAGE (pages[1]);
  self->gguf_page = HR_GGUF_PAGE (pages[4]);
  /* Given the session before they are in the window: the rows are set on
   * a table that is not yet mapped, laid out once. */
  for (guint i = 0; i < G_N_ELEMENTS (pages) && self->session != NULL; i++)
    give_page (self, pages[i]);
  fill_page_slots (self, pages, G_N_ELEMENTS (pages));
  /* Names for the parts libadwaita builds unnamed inside its rows and
   * status pages, for a screen reader (hr-accessible.c). */
  hr_accessible_name_parts (GTK_WIDGET (self->stack));
  /* A page may build parts of itself when first shown. */
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    g_signal_connect (pages[i], "map", G_CALLBACK (hr_accessible_name_parts), NULL);
  /* The Models page's long wrapping labels measured at a few characters a
   * line, not one: what most of its first frame cost (hr-wrap-labels.c). */
  hr_wrap_labels_set_min_chars (pages[0]);
  g_signal_connect (pages[0], "map", G_CALLBACK (hr_wrap_labels_set_min_chars), NULL);

  flap = hr_models_page_get_flap (self->models_page);
  g_object_bind_property (flap, "reveal-flap", self->sidebar_button, "active",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  flap = hr_models_page_get_explain_flap (self->models_page);
  g_signal_connect_object (flap, "notify::folded", G_CALLBACK (queue_sync_flap_buttons), self,
                           G_CONNECT_SWAPPED);
  g_object_bind_property (flap, "reveal-flap", self->explain_button, "active",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_signal_connect_object (self->stack, "notify::visible-child-name", G_CALLBACK (queue_sync_flap_buttons),
                           self, G_CONNECT_SWAPPED);
  sync_flap_buttons (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGES_BUILT]);
}

static gboolean
build_pages_idle (gpointer user_data)
{
  HrWindow *self = user_data;

  self->build_id = 0;
  build_pages (self);
  return G_SOURCE_REMOVE;
}

/* The first frame is painted: the pages are built from the next idle, so
 * the frame reaches the screen first. */
static void
on_after_paint (GdkFrameClock *clock,
                HrWindow      *self)
{
  g_clear_signal_handler (&self->after_paint_id, clock);
  if (!self->pages_built && self->build_id == 0)
    self->build_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, build_pages_idle, self, NULL);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static gboolean
hr_window_close_request (GtkWindow *window)
{
  HrWindow *self = HR_WINDOW (window);
  int width, height;

  ensure_settings (self, TRUE);
  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_boolean (self->settings, "window-is-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }

  return GTK_WINDOW_CLASS (hr_window_parent_class)->close_request (window);
}

static void
hr_window_realize (GtkWidget *widget)
{
  ensure_session (HR_WINDOW (widget), TRUE);
  GTK_WIDGET_CLASS (hr_window_parent_class)->realize (widget);
}

static void
hr_window_map (GtkWidget *widget)
{
  HrWindow *self = HR_WINDOW (widget);
  GdkFrameClock *clock;

  GTK_WIDGET_CLASS (hr_window_parent_class)->map (widget);

  clock = gtk_widget_get_frame_clock (widget);
  if (!self->pages_built && self->after_paint_id == 0 && clock != NULL)
    self->after_paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), self);
}

static void
hr_window_unmap (GtkWidget *widget)
{
  HrWindow *self = HR_WINDOW (widget);

  if (self->after_paint_id != 0)
    g_clear_signal_handler (&self->after_paint_id, gtk_widget_get_frame_clock (widget));
  GTK_WIDGET_CLASS (hr_window_parent_class)->unmap (widget);
}

static void
hr_window_dispose (GObject *object)
{
  HrWindow *self = (HrWindow *)object;

  g_clear_handle_id (&self->sync_buttons_id, g_source_remove);
  g_clear_handle_id (&self->build_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (object), HR_TYPE_WINDOW);

  G_OBJECT_CLASS (hr_window_parent_class)->dispose (object);
}

static void
hr_window_finalize (GObject *object)
{
  HrWindow *self = (HrWindow *)object;

  g_clear_object (&self->settings);
  g_clear_object (&self->scenario);
  g_clear_object (&self->session);
  g_clear_pointer (&self->messages, g_ptr_array_unref);

  G_OBJECT_CLASS (hr_window_parent_class)->finalize (object);
}

static void
hr_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  HrWindow *self = HR_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PAGES_BUILT:
      g_value_set_boolean (value, self->pages_built);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_window_class_init (HrWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = hr_window_dispose;
  object_class->finalize = hr_window_finalize;
  object_class->get_property = hr_window_get_property;
  window_class->close_request = hr_window_close_request;
  widget_class->realize = hr_window_realize;
  widget_class->map = hr_window_map;
  widget_class->unmap = hr_window_unmap;

  /**
   * HrWindow:pages-built:
   *
   * Whether the four pages are built: %FALSE until the idle after the
   * window's first painted frame (or the first hr_window_get_models_page(),
   * hr_window_get_stack() or hr_window_get_gguf_page()); then %TRUE for good.
   */
  properties[PROP_PAGES_BUILT] =
    g_param_spec_boolean ("pages-built", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/headroom/Headroom/hr-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HrWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, sidebar_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, explain_button);
  gtk_widget_class_bind_template_child (widget_class, HrWindow, switcher_bar);

  _hr_window_class_actions_init (widget_class);
}

static void
hr_window_init (HrWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->messages = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (self, "notify::application", G_CALLBACK (on_application_set), NULL);
}

/**
 * hr_window_new:
 * @application: the #HrApplication
 *
 * Opens a window on @application's session and scenario; it starts
 * loading the session (hr_session_load_async()).
 *
 * Returns: (transfer full): a new #HrWindow
 */
HrWindow *
hr_window_new (GtkApplication *application)
{
  return g_object_new (HR_TYPE_WINDOW, "application", application, NULL);
}

/**
 * hr_window_get_models_page:
 * @self: a #HrWindow
 *
 * The pages are built after the window's first frame; asking for one
 * earlier builds them at once.
 *
 * Returns: (transfer none): the Models page
 */
HrModelsPage *
hr_window_get_models_page (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  build_pages (self);

  return self->models_page;
}

/**
 * hr_window_get_stack:
 * @self: a #HrWindow
 *
 * Builds the pages first if the window has not yet (see
 * hr_window_get_models_page()).
 *
 * Returns: (transfer none): the view stack whose children "models",
 *   "hub", "board" and "file" are the bins the pages sit in (see
 *   hr_window_get_page())
 */
AdwViewStack *
hr_window_get_stack (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  build_pages (self);

  return self->stack;
}

/**
 * hr_window_get_session:
 * @self: a #HrWindow
 *
 * Returns: (transfer none) (nullable): the session the window shows, %NULL
 *   before it has one
 */
HrSession *
hr_window_get_session (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return self->session;
}

/**
 * hr_window_get_scenario:
 * @self: a #HrWindow
 *
 * Returns: (transfer none) (nullable): the window's scenario, %NULL before
 *   it has one
 */
HrScenario *
hr_window_get_scenario (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  return self->scenario;
}

/**
 * hr_window_get_page:
 * @self: a #HrWindow
 * @name: a page's name in the view stack: "models", "hub", "board" or "file"
 *
 * The page itself: the view stack's child under @name is the bin it sits
 * in. Builds the pages first if the window has not yet (see
 * hr_window_get_models_page()).
 *
 * Returns: (transfer none) (nullable): the page, or %NULL if no page has
 *   that name
 */
GtkWidget *
hr_window_get_page (HrWindow   *self,
                    const char *name)
{
  GtkWidget *slot;

  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  build_pages (self);

  slot = adw_view_stack_get_child_by_name (self->stack, name);
  return slot != NULL ? adw_bin_get_child (ADW_BIN (slot)) : NULL;
}

/**
 * hr_window_get_gguf_page:
 * @self: a #HrWindow
 *
 * Builds the pages first if the window has not yet (see
 * hr_window_get_models_page()).
 *
 * Returns: (transfer none): the File page
 */
HrGgufPage *
hr_window_get_gguf_page (HrWindow *self)
{
  g_return_val_if_fail (HR_IS_WINDOW (self), NULL);
  build_pages (self);

  return self->gguf_page;
}
