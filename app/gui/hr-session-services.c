/* hr-session-services.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The network services the pages share, owned by the session: the Hugging
 * Face Hub client, the Ollama registry client (one for the Models page's
 * library lookup and the Board page's pull check, so both share its
 * deadline, limits and blob cache) and the token store (the keyring). Each
 * is made on first use and kept for the session's life; a page asks the
 * session for them and owns none. They hang on the session as one qdata,
 * so HrSession's struct and its loading are untouched.
 */

#include "config.h"

#include "hr-session.h"

typedef struct {
  HrHubClient      *hub_client;
  HrOllamaRegistry *registry;
  HrTokenStore     *token_store;
} Services;

static void
services_free (gpointer data)
{
  Services *services = data;

  g_clear_object (&services->hub_client);
  g_clear_object (&services->registry);
  g_clear_object (&services->token_store);
  g_free (services);
}

static Services *
services_of (HrSession *self)
{
  static GQuark quark;
  Services *services;

  if (quark == 0)
    quark = g_quark_from_static_string ("hr-session-services");
  services = g_object_get_qdata (G_OBJECT (self), quark);
  if (services == NULL)
    {
      services = g_new0 (Services, 1);
      g_object_set_qdata_full (G_OBJECT (self), quark, services, services_free);
    }
  return services;
}

/**
 * hr_session_get_hub_client:
 * @self: a #HrSession
 *
 * The Hub client every lookup of the Hugging Face page uses; made on first
 * use with hr_hub_client_new() (HF_ENDPOINT, else huggingface.co; HF_TOKEN
 * or the keyring's token), unless hr_session_set_hub_client() gave one.
 *
 * Returns: (transfer none): the client
 */
HrHubClient *
hr_session_get_hub_client (HrSession *self)
{
  Services *services;

  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  services = services_of (self);
  if (services->hub_client == NULL)
    services->hub_client = hr_hub_client_new ();
  return services->hub_client;
}

/**
 * hr_session_set_hub_client:
 * @self: a #HrSession
 * @client: (nullable): the Hub client to use from now on (a test's, on a
 *   fake Hub); %NULL: one is made again on next use
 *
 * Replaces the session's Hub client; a lookup under way keeps the client
 * it started with.
 */
void
hr_session_set_hub_client (HrSession   *self,
                           HrHubClient *client)
{
  g_return_if_fail (HR_IS_SESSION (self));
  g_return_if_fail (client == NULL || HR_IS_HUB_CLIENT (client));

  g_set_object (&services_of (self)->hub_client, client);
}

/**
 * hr_session_get_registry:
 * @self: a #HrSession
 *
 * The one Ollama registry client, shared by the library lookup and the
 * pull check; made on first use with hr_ollama_registry_new()
 * (HEADROOM_OLLAMA_REGISTRY, else registry.ollama.ai; its blob cache under
 * $XDG_CACHE_HOME/headroom/).
 *
 * Returns: (transfer none): the client
 */
HrOllamaRegistry *
hr_session_get_registry (HrSession *self)
{
  Services *services;

  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  services = services_of (self);
  if (services->registry == NULL)
    services->registry = hr_ollama_registry_new (NULL, NULL);
  return services->registry;
}

/**
 * hr_session_get_token_store:
 * @self: a #HrSession
 *
 * The token store (the keyring, through libsecret where Headroom was
 * built with it; hr_token_store_is_built()) the pages remember typed
 * tokens in; made on first use.
 *
 * Returns: (transfer none): the store
 */
HrTokenStore *
hr_session_get_token_store (HrSession *self)
{
  Services *services;

  g_return_val_if_fail (HR_IS_SESSION (self), NULL);

  services = services_of (self);
  if (services->token_store == NULL)
    services->token_store = hr_token_store_new ();
  return services->token_store;
}
