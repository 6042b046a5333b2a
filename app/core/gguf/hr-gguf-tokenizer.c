/* hr-gguf-tokenizer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tokenizer facts of a GGUF header (the `tokenizer.*` keys): model,
 * vocabulary, merges, BOS/EOS and the chat template's special tokens.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "hr-error.h"
#include "hr-gguf-private.h"
#include "hr-precision.h"
#include "hr-units.h"

/* Tokenizer facts                                                          */

/* llama.cpp's llama_token_type (llama-vocab.h): 3 CONTROL, 4 USER_DEFINED. */
#define TOKEN_TYPE_CONTROL      3
#define TOKEN_TYPE_USER_DEFINED 4

/**
 * hr_gguf_tokenizer_free:
 * @tokenizer: (nullable): tokenizer facts
 *
 * Frees @tokenizer.
 */
void
hr_gguf_tokenizer_free (HrGgufTokenizer *tokenizer)
{
  if (tokenizer == NULL)
    return;
  g_free (tokenizer->model);
  g_free (tokenizer->pre);
  g_free (tokenizer->bos_token);
  g_free (tokenizer->eos_token);
  g_clear_pointer (&tokenizer->chat_markers, g_ptr_array_unref);
  g_free (tokenizer);
}

static char *
dup_token (const HrGgufValue *tokens,
           guint64            id)
{
  const char *text;
  gsize length;

  if (tokens == NULL)
    return NULL;
  text = hr_gguf_value_get_array_string (tokens, id, &length);
  if (text == NULL)
    return NULL;
  return g_utf8_make_valid (text, (gssize) length);
}

/* <|im_start|>, <start_of_turn>, [INST]: bracketed, short, no spaces. */
static gboolean
looks_special (const char *text,
               gsize       length)
{
  if (length < 3 || length > 64)
    return FALSE;
  if (!((text[0] == '<' && text[length - 1] == '>') ||
        (text[0] == '[' && text[length - 1] == ']')))
    return FALSE;
  for (gsize i = 1; i + 1 < length; i++)
    if (g_ascii_isspace (text[i]) || (guchar) text[i] < 0x20 || text[i] == '<' || text[i] == '[')
      return FALSE;
  return TRUE;
}

typedef struct {
  gsize  position;
  char  *text;
} Marker;

static int
compare_markers (gconstpointer a,
                 gconstpointer b)
{
  const Marker *ma = a, *mb = b;

  if (ma->position != mb->position)
    return ma->position < mb->position ? -1 : 1;
  return strcmp (ma->text, mb->text);
}

static GPtrArray *
find_chat_markers (const HrGgufValue *tokens,
                   const HrGgufValue *types,
                   const char        *template,
                   gsize              template_length)
{
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Marker));
  GPtrArray *markers = g_ptr_array_new_with_free_func (g_free);
  const guint8 *at;

  if (tokens == NULL || hr_gguf_value_get_array_type (tokens) != HR_GGUF_TYPE_STRING)
    return markers;
  if (types != NULL && (hr_gguf_type_sizes[hr_gguf_value_get_array_type (types)] == 0 ||
                        hr_gguf_value_get_array_type (types) == HR_GGUF_TYPE_BOOL ||
                        hr_gguf_value_get_array_length (types) != tokens->length))
    types = NULL;

  /* Walk the raw vocabulary once: u64 length + bytes per token. */
  at = tokens->data;
  for (guint64 id = 0; id < tokens->length; id++)
    {
      guint64 length;
      const char *text = (const char *) at + 8;
      const char *hit;
      gint64 type;
      char needle[65];

      memcpy (&length, at, 8);
      length = GUINT64_FROM_LE (length);
      at += 8 + length;

      if (!looks_special (text, (gsize) length))
        continue;
      if (types != NULL && hr_gguf_value_get_array_int64 (types, id, &type) &&
          type != TOKEN_TYPE_CONTROL && type != TOKEN_TYPE_USER_DEFINED)
        continue;

      memcpy (needle, text, (gsize) length);
      needle[length] = '\0';
      hit = g_strstr_len (template, (gssize) template_length, needle);
      if (hit != NULL)
        {
          Marker marker = { (gsize) (hit - template), g_strdup (needle) };

          g_array_append_val (found, marker);
        }
    }

  g_array_sort (found, compare_markers);
  for (guint i = 0; i < found->len; i++)
    {
      char *text = g_array_index (found, Marker, i).text;

      /* a vocabulary may hold the same text under two ids: list it once */
      if (g_ptr_array_find_with_equal_func (markers, text, g_str_equal, NULL))
        g_free (text);
      else
        g_ptr_array_add (markers, text);
    }
  return markers;
}

/**
 * hr_gguf_file_get_tokenizer:
 * @file: a parsed header
 *
 * Reads the tokenizer facts the seed's week-2 script printed: the
 * tokenizer model (`tokenizer.ggml.model`) and pre-tokenizer
 * (`tokenizer.ggml.pre`), the vocabulary size (the length of
 * `tokenizer.ggml.tokens`), the BOS and EOS ids (`tokenizer.ggml.bos_token_id`,
 * `eos_token_id`) with their strings, and whether `tokenizer.chat_template`
 * is present. The chat markers are the vocabulary's special-looking tokens
 * (bracketed like `<|im_start|>`, `<start_of_turn>` or `[INST]`, and of
 * type CONTROL or USER_DEFINED when `tokenizer.ggml.token_type` is present)
 * that occur in the template, in the order they first occur.
 *
 * Returns: (transfer full): the facts; absent keys leave their fields
 *   %NULL, 0 or %FALSE.
 */
HrGgufTokenizer *
hr_gguf_file_get_tokenizer (const HrGgufFile *file)
{
  HrGgufTokenizer *tok = g_new0 (HrGgufTokenizer, 1);
  const HrGgufValue *tokens = hr_gguf_file_lookup (file, "tokenizer.ggml.tokens");
  const HrGgufValue *merges = hr_gguf_file_lookup (file, "tokenizer.ggml.merges");
  const HrGgufValue *template = hr_gguf_file_lookup (file, "tokenizer.chat_template");
  const char *text;
  guint64 id;

  if (tokens != NULL && hr_gguf_value_get_array_type (tokens) != HR_GGUF_TYPE_STRING)
    tokens = NULL;

  if ((text = hr_gguf_file_get_string (file, "tokenizer.ggml.model")) != NULL)
    tok->model = g_utf8_make_valid (text, -1);
  if ((text = hr_gguf_file_get_string (file, "tokenizer.ggml.pre")) != NULL)
    tok->pre = g_utf8_make_valid (text, -1);
  tok->vocab_size = tokens != NULL ? tokens->length : 0;
  tok->merges = merges != NULL ? hr_gguf_value_get_array_length (merges) : 0;

  if (hr_gguf_file_get_uint (file, "tokenizer.ggml.bos_token_id", &id) && id <= G_MAXUINT32)
    {
      tok->has_bos = TRUE;
      tok->bos_id = (guint32) id;
      tok->bos_token = dup_token (tokens, id);
    }
  if (hr_gguf_file_get_uint (file, "tokenizer.ggml.eos_token_id", &id) && id <= G_MAXUINT32)
    {
      tok->has_eos = TRUE;
      tok->eos_id = (guint32) id;
      tok->eos_token = dup_token (tokens, id);
    }

  if (template != NULL && template->type == HR_GGUF_TYPE_STRING)
    {
      tok->has_chat_template = TRUE;
      tok->chat_template_length = (gsize) template->length;
      tok->chat_markers = find_chat_markers (tokens,
                                             hr_gguf_file_lookup (file, "tokenizer.ggml.token_type"),
                                             (const char *) template->data,
                                             (gsize) template->length);
    }
  else
    tok->chat_markers = g_ptr_array_new_with_free_func (g_free);

  return tok;
}
