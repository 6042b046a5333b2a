/* fuzz-ollama-api.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libFuzzer harness for Ollama's answer mapping (hr-ollama-api.c): the
 * input as an error body, and, when it is JSON, as the answers of
 * /api/version, /api/tags, /api/ps and as a generate and a chat stream
 * line. Any bytes must give a result or an HR_CORE_ERROR, never a crash, a
 * leak or undefined behaviour. Built with clang only when -Dfuzzing=true;
 * the seeds are corpus-ollama-api/.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "hr-error.h"
#include "hr-ollama-api.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
expect_core_error (GError **error)
{
  g_assert_true (*error != NULL && (*error)->domain == HR_CORE_ERROR);
  g_clear_error (error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = hr_ollama_api_error_text ((const char *) data, size);
  g_autofree char *signin = hr_ollama_api_signin_url ((const char *) data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tags = NULL;
  g_autoptr(GPtrArray) ps = NULL;
  g_autofree char *version = NULL;
  g_autoptr(HrOllamaReply) reply = g_new0 (HrOllamaReply, 1);
  HrOllamaReplyLine line;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, (const char *) data, (gssize) size, NULL))
    return 0;
  root = json_parser_get_root (parser);
  if ((version = hr_ollama_api_parse_version (root, &error)) == NULL)
    expect_core_error (&error);
  if ((tags = hr_ollama_api_parse_tags (root, &error)) == NULL)
    expect_core_error (&error);
  if ((ps = hr_ollama_api_parse_ps (root, &error)) == NULL)
    expect_core_error (&error);
  for (int chat = 0; chat < 2; chat++)
    {
      if (!hr_ollama_api_reply_line (root, chat, &line, &error))
        expect_core_error (&error);
      else if (line.done)
        hr_ollama_api_reply_done (json_node_get_object (root), reply);
    }
  return 0;
}
