/* hr-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "hr-page.h"

typedef struct
{
  HrSession  *session;
  HrScenario *scenario;
} HrPagePrivate;

G_DEFINE_TYPE_WITH_PRIVATE (HrPage, hr_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_SCENARIO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/**
 * hr_page_get_session:
 * @self: a #HrPage
 *
 * Returns: (transfer none) (nullable): the page's session, %NULL until the
 *   window gives it
 */
HrSession *
hr_page_get_session (HrPage *self)
{
  HrPagePrivate *priv = hr_page_get_instance_private (self);

  g_return_val_if_fail (HR_IS_PAGE (self), NULL);

  return priv->session;
}

/**
 * hr_page_set_session:
 * @self: a #HrPage
 * @session: the application's session (held); set once: another session
 *   later is refused
 *
 * Notifies #HrPage:session, after the page's session_set().
 */
void
hr_page_set_session (HrPage    *self,
                     HrSession *session)
{
  HrPagePrivate *priv = hr_page_get_instance_private (self);

  g_return_if_fail (HR_IS_PAGE (self));
  g_return_if_fail (HR_IS_SESSION (session));

  if (priv->session == session)
    return;
  g_return_if_fail (priv->session == NULL);

  priv->session = g_object_ref (session);
  if (HR_PAGE_GET_CLASS (self)->session_set != NULL)
    HR_PAGE_GET_CLASS (self)->session_set (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/**
 * hr_page_get_scenario:
 * @self: a #HrPage
 *
 * Returns: (transfer none) (nullable): the page's scenario, %NULL until the
 *   window gives it
 */
HrScenario *
hr_page_get_scenario (HrPage *self)
{
  HrPagePrivate *priv = hr_page_get_instance_private (self);

  g_return_val_if_fail (HR_IS_PAGE (self), NULL);

  return priv->scenario;
}

/**
 * hr_page_set_scenario:
 * @self: a #HrPage
 * @scenario: the application's scenario, on the page's session (held);
 *   set once: another scenario later is refused
 *
 * Notifies #HrPage:scenario, after the page's scenario_set(): the
 * template's bindings then hand it to the children.
 */
void
hr_page_set_scenario (HrPage     *self,
                      HrScenario *scenario)
{
  HrPagePrivate *priv = hr_page_get_instance_private (self);

  g_return_if_fail (HR_IS_PAGE (self));
  g_return_if_fail (HR_IS_SCENARIO (scenario));

  if (priv->scenario == scenario)
    return;
  g_return_if_fail (priv->scenario == NULL);

  priv->scenario = g_object_ref (scenario);
  if (HR_PAGE_GET_CLASS (self)->scenario_set != NULL)
    HR_PAGE_GET_CLASS (self)->scenario_set (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
}

static void
hr_page_dispose (GObject *object)
{
  HrPagePrivate *priv = hr_page_get_instance_private (HR_PAGE (object));

  g_clear_object (&priv->scenario);
  g_clear_object (&priv->session);

  G_OBJECT_CLASS (hr_page_parent_class)->dispose (object);
}

static void
hr_page_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  HrPage *self = HR_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, hr_page_get_session (self));
      break;
    case PROP_SCENARIO:
      g_value_set_object (value, hr_page_get_scenario (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_page_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  HrPage *self = HR_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      if (g_value_get_object (value) != NULL)
        hr_page_set_session (self, g_value_get_object (value));
      break;
    case PROP_SCENARIO:
      if (g_value_get_object (value) != NULL)
        hr_page_set_scenario (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hr_page_class_init (HrPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hr_page_dispose;
  object_class->get_property = hr_page_get_property;
  object_class->set_property = hr_page_set_property;

  /**
   * HrPage:session:
   *
   * The application's session: its data, files and network services.
   * Set once.
   */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, HR_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * HrPage:scenario:
   *
   * The application's scenario, every figure of the page is computed
   * under. Set once.
   */
  properties[PROP_SCENARIO] =
    g_param_spec_object ("scenario", NULL, NULL, HR_TYPE_SCENARIO,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
hr_page_init (HrPage *self)
{
}
