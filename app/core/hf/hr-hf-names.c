/* hr-hf-names.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Names and kinds: base or instruct from a repository's evidence, repository
 * ids, and the quantization and split part in a GGUF file's name.
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "hr-error.h"
#include "hr-hf-config-private.h"
#include "hr-json.h"
#include "hr-precision.h"
#include "hr-units.h"

/* Base or instruct */

/**
 * hr_hf_kind_to_string:
 * @kind: a kind
 *
 * Returns: "base", "instruct" or "unknown".
 */
const char *
hr_hf_kind_to_string (HrHfKind kind)
{
  switch (kind)
    {
    case HR_HF_KIND_BASE:
      return "base";
    case HR_HF_KIND_INSTRUCT:
      return "instruct";
    case HR_HF_KIND_UNKNOWN:
    default:
      return "unknown";
    }
}

/**
 * hr_hf_kind_evidence_free:
 * @evidence: (nullable): evidence
 *
 * Frees @evidence.
 */
void
hr_hf_kind_evidence_free (HrHfKindEvidence *evidence)
{
  if (evidence == NULL)
    return;
  g_free (evidence->base_model);
  g_clear_pointer (&evidence->evidence, g_ptr_array_unref);
  g_free (evidence);
}

/* Token texts that end a chat turn in the common chat formats (ChatML,
 * Llama 3, Gemma, Phi-3). A base model's generation_config ends only on its
 * end-of-text token. */
static const char * const end_of_turn_tokens[] = {
  "<|im_end|>", "<|eot_id|>", "<end_of_turn>", "<|end|>", "<|eom_id|>",
  "<|end_of_turn|>", "<|END_OF_TURN_TOKEN|>", NULL,
};

static gboolean
name_says_instruct (const char *repo)
{
  const char *slash = repo != NULL ? strrchr (repo, '/') : NULL;
  g_autofree char *lower = g_ascii_strdown (slash ? slash + 1 : (repo ? repo : ""), -1);
  g_auto(GStrv) words = g_strsplit_set (lower, "-_.", -1);

  for (guint i = 0; words[i] != NULL; i++)
    if (strcmp (words[i], "instruct") == 0 || strcmp (words[i], "chat") == 0 ||
        strcmp (words[i], "it") == 0)
      return TRUE;
  return FALSE;
}

/**
 * hr_hf_kind_evidence:
 * @repo: the repository id ("Qwen/Qwen2.5-3B-Instruct")
 * @tags: (nullable) (array zero-terminated=1): the Hub's tags
 * @card_base_model: (nullable): cardData base_model (the first when a list)
 * @tokenizer: (nullable): tokenizer_config.json, parsed
 * @generation: (nullable): generation_config.json, parsed
 *
 * Weighs the evidence the seed's week 3 uses (there is no is_instruct
 * field): an end-of-turn token among generation_config's EOS ids (a token
 * whose text, from tokenizer_config's added tokens, is <|im_end|>,
 * <|eot_id|>, <end_of_turn>, <|end|>, <|eom_id|>...), the repository name
 * ("Instruct", "Chat", "it" as a word), a chat template, the "conversational"
 * tag, and the base model named in the card data (or a `base_model:` tag).
 * Instruct when the end-of-turn token or the name says so; base when none
 * of those holds and no base model is named; otherwise unknown (a fine-tune
 * with no instruct evidence).
 *
 * Returns: (transfer full): the kind, the base model and the evidence.
 */
HrHfKindEvidence *
hr_hf_kind_evidence (const char                 *repo,
                     const char * const         *tags,
                     const char                 *card_base_model,
                     const HrHfTokenizerConfig  *tokenizer,
                     const HrHfGenerationConfig *generation)
{
  HrHfKindEvidence *ev = g_new0 (HrHfKindEvidence, 1);
  gboolean strong = FALSE;
  gboolean conversational = FALSE;

  ev->evidence = g_ptr_array_new_with_free_func (g_free);

  if (card_base_model != NULL && card_base_model[0] != '\0')
    ev->base_model = g_strdup (card_base_model);
  for (guint i = 0; tags != NULL && tags[i] != NULL; i++)
    {
      if (strcmp (tags[i], "conversational") == 0 || strcmp (tags[i], "chat") == 0)
        conversational = TRUE;
      if (ev->base_model == NULL && g_str_has_prefix (tags[i], "base_model:"))
        {
          const char *rest = tags[i] + strlen ("base_model:");
          const char *colon = strchr (rest, ':');

          /* "base_model:finetune:Owner/Name" or "base_model:Owner/Name" */
          ev->base_model = g_strdup (colon != NULL && strchr (rest, '/') > colon ? colon + 1 : rest);
        }
    }

  if (generation != NULL && tokenizer != NULL)
    for (guint i = 0; i < generation->eos_token_ids->len; i++)
      {
        gint64 id = g_array_index (generation->eos_token_ids, gint64, i);
        const char *text = id <= G_MAXINT32 ?
          g_hash_table_lookup (tokenizer->added_tokens, GINT_TO_POINTER ((gint) id)) : NULL;

        if (text != NULL && g_strv_contains (end_of_turn_tokens, text))
          {
            g_ptr_array_add (ev->evidence,
                             g_strdup_printf (_("generation_config.json ends a turn on token %" PRId64 " “%s”, a chat end-of-turn token"),
                                              id, text));
            strong = TRUE;
            break;
          }
      }

  if (name_says_instruct (repo))
    {
      g_ptr_array_add (ev->evidence, g_strdup (_("the repository name says it is instruction-tuned")));
      strong = TRUE;
    }
  if (ev->base_model != NULL && g_strcmp0 (ev->base_model, repo) != 0)
    g_ptr_array_add (ev->evidence, g_strdup_printf (_("the model card names %s as its base model"), ev->base_model));
  if (tokenizer != NULL && tokenizer->has_chat_template)
    g_ptr_array_add (ev->evidence, g_strdup (_("tokenizer_config.json carries a chat template")));
  if (conversational)
    g_ptr_array_add (ev->evidence, g_strdup (_("the Hub tags it conversational")));

  if (strong)
    ev->kind = HR_HF_KIND_INSTRUCT;
  else if (ev->base_model == NULL || g_strcmp0 (ev->base_model, repo) == 0)
    {
      ev->kind = HR_HF_KIND_BASE;
      g_ptr_array_add (ev->evidence, g_strdup (_("no end-of-turn token, no instruct name and no base model: a base model")));
    }
  else
    ev->kind = HR_HF_KIND_UNKNOWN;

  return ev;
}

/* Names */

static gboolean
repo_part_valid (const char *part,
                 gsize       length)
{
  if (length == 0 || length > 96)
    return FALSE;
  if (part[0] == '-' || part[0] == '.' || part[length - 1] == '-' || part[length - 1] == '.')
    return FALSE;
  for (gsize i = 0; i < length; i++)
    {
      char c = part[i];

      if (!g_ascii_isalnum (c) && c != '-' && c != '_' && c != '.')
        return FALSE;
      if (i > 0 && ((c == '.' && part[i - 1] == '.') || (c == '-' && part[i - 1] == '-')))
        return FALSE;
    }
  return TRUE;
}

/**
 * hr_hf_repo_parse:
 * @text: what a person typed: "owner/name" or "owner/name@revision"
 *   (a leading "https://huggingface.co/" is accepted)
 * @out_repo: (out) (transfer full): "owner/name"
 * @out_revision: (out) (transfer full) (nullable): the revision after '@', or
 *   %NULL when none was given (the caller uses "main")
 * @error: return location for a #GError
 *
 * Checks a repository id the way the Hub names them: two parts of letters,
 * digits, '-', '_' and '.', at most 96 characters each, not starting or
 * ending with '-' or '.', without "--" or "..". A revision may be any
 * printable text without spaces up to 256 bytes ("main", "v1.0",
 * "refs/pr/1", a commit sha); it is percent-encoded whole when used.
 *
 * Returns: %TRUE, or %FALSE with %HR_CORE_ERROR_INVALID_ARGUMENT naming
 *   what is wrong.
 */
gboolean
hr_hf_repo_parse (const char  *text,
                  char       **out_repo,
                  char       **out_revision,
                  GError     **error)
{
  g_autofree char *copy = NULL;
  const char *t, *at, *slash;
  char *s;

  g_return_val_if_fail (out_repo != NULL, FALSE);
  g_return_val_if_fail (out_revision != NULL, FALSE);

  copy = g_strstrip (g_strdup (text != NULL ? text : ""));
  t = copy;
  if (g_str_has_prefix (t, "https://huggingface.co/"))
    t += strlen ("https://huggingface.co/");
  s = (char *) t;
  at = strchr (t, '@');
  if (at != NULL)
    {
      const char *rev = at + 1;

      if (rev[0] == '\0' || strlen (rev) > 256)
        {
          g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                       _("“%s”: the revision after “@” must be 1 to 256 characters"), text);
          return FALSE;
        }
      for (const char *c = rev; *c != '\0'; c++)
        if ((guchar) *c <= ' ' || *c == 0x7f)
          {
            g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                         _("“%s”: the revision after “@” cannot contain spaces or control characters"), text);
            return FALSE;
          }
      s[at - t] = '\0';
    }
  slash = strchr (t, '/');
  if (slash == NULL || strchr (slash + 1, '/') != NULL ||
      !repo_part_valid (t, slash - t) || !repo_part_valid (slash + 1, strlen (slash + 1)))
    {
      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a repository id: write owner/name, for example Qwen/Qwen2.5-3B-Instruct"),
                   text);
      return FALSE;
    }
  *out_repo = g_strdup (t);
  *out_revision = at != NULL ? g_strdup (at + 1) : NULL;
  return TRUE;
}

/* Quantization labels as llama.cpp names its file types, longest first so
 * "Q4_K_M" wins over "Q4_K". */
static const char * const quant_labels[] = {
  "IQ2_XXS", "IQ3_XXS", "IQ1_S", "IQ1_M", "IQ2_XS", "IQ2_S", "IQ2_M", "IQ3_XS",
  "IQ3_S", "IQ3_M", "IQ4_NL", "IQ4_XS",
  "Q2_K_S", "Q2_K_L", "Q3_K_S", "Q3_K_M", "Q3_K_L", "Q3_K_XL", "Q4_K_S", "Q4_K_M", "Q4_K_L",
  "Q5_K_S", "Q5_K_M", "Q5_K_L", "Q6_K_L", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "Q8_K",
  "Q4_0_4_4", "Q4_0_4_8", "Q4_0_8_8", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0",
  "TQ1_0", "TQ2_0", "MXFP4", "BF16", "F16", "F32", "FP16", "FP32", NULL,
};

/**
 * hr_hf_gguf_quant_label:
 * @filename: a .gguf file name ("qwen2.5-3b-instruct-q4_k_m.gguf")
 *
 * Finds the quantization label in a GGUF file name as llama.cpp's quantize
 * tool names them (Q4_K_M, Q8_0, IQ4_XS, F16, BF16 ...), case-insensitively,
 * as a whole word (delimited by '-', '_', '.' or the ends; the last match in
 * the name wins).
 *
 * Returns: (transfer full) (nullable): the label in upper case ("Q4_K_M"),
 *   or %NULL when the name carries none.
 */
char *
hr_hf_gguf_quant_label (const char *filename)
{
  const char *base;
  g_autofree char *upper = NULL;
  const char *best = NULL;
  gsize best_pos = 0;

  if (filename == NULL)
    return NULL;
  base = strrchr (filename, '/');
  base = base != NULL ? base + 1 : filename;
  upper = g_ascii_strup (base, -1);

  for (guint i = 0; quant_labels[i] != NULL; i++)
    {
      gsize len = strlen (quant_labels[i]);

      for (const char *p = strstr (upper, quant_labels[i]); p != NULL; p = strstr (p + 1, quant_labels[i]))
        {
          gsize pos = p - upper;
          char before = pos > 0 ? upper[pos - 1] : '-';
          char after = p[len];

          if ((before == '-' || before == '_' || before == '.') &&
              (after == '-' || after == '.' || after == '\0') &&
              (best == NULL || pos > best_pos))
            {
              best = quant_labels[i];
              best_pos = pos;
            }
        }
    }
  if (best == NULL)
    return NULL;
  if (strcmp (best, "FP16") == 0)
    best = "F16";
  else if (strcmp (best, "FP32") == 0)
    best = "F32";
  return g_strdup (best);
}

/**
 * hr_hf_gguf_split_part:
 * @filename: a .gguf file name
 * @out_index: (out): the part number, from 1
 * @out_count: (out): the number of parts
 *
 * Recognises llama.cpp's split files, "-00001-of-00003.gguf".
 *
 * Returns: %TRUE when @filename is one part of a split model (1 <= index <=
 *   count <= 99999).
 */
gboolean
hr_hf_gguf_split_part (const char *filename,
                       guint      *out_index,
                       guint      *out_count)
{
  gsize len;
  const char *p;
  guint64 index, count;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  if (filename == NULL)
    return FALSE;
  len = strlen (filename);
  /* "-NNNNN-of-NNNNN.gguf" is 20 characters. */
  if (len < 20 || !g_str_has_suffix (filename, ".gguf"))
    return FALSE;
  p = filename + len - 20;
  if (p[0] != '-' || strncmp (p + 6, "-of-", 4) != 0)
    return FALSE;
  a = g_strndup (p + 1, 5);
  b = g_strndup (p + 10, 5);
  if (!g_ascii_string_to_unsigned (a, 10, 1, 99999, &index, NULL) ||
      !g_ascii_string_to_unsigned (b, 10, 1, 99999, &count, NULL) ||
      index > count)
    return FALSE;
  *out_index = (guint) index;
  *out_count = (guint) count;
  return TRUE;
}

/**
 * hr_hf_gguf_group_free:
 * @group: (nullable): a group from hr_hf_gguf_group_files()
 */
void
hr_hf_gguf_group_free (HrHfGgufGroup *group)
{
  if (group == NULL)
    return;
  g_free (group->label);
  g_free (group->first_path);
  g_free (group->problem);
  g_free (group);
}

typedef struct {
  HrHfGgufGroup *group;
  char          *key;
  GArray        *seen;  /* gboolean per part, from 1 */
  gboolean       unsized;
} Building;

static void
building_free (Building *b)
{
  hr_hf_gguf_group_free (b->group);
  g_free (b->key);
  g_clear_pointer (&b->seen, g_array_unref);
  g_free (b);
}

static gint
compare_group (gconstpointer a,
               gconstpointer b)
{
  const HrHfGgufGroup *ga = *(HrHfGgufGroup * const *) a;
  const HrHfGgufGroup *gb = *(HrHfGgufGroup * const *) b;
  gint c = g_strcmp0 (ga->label, gb->label);

  return c != 0 ? c : g_strcmp0 (ga->first_path, gb->first_path);
}

/* The sentence for a split whose parts are not all listed (at most ten
 * part numbers are named). */
static char *
missing_parts (const Building *b)
{
  g_autoptr(GString) list = g_string_new (NULL);
  guint missing = 0;

  for (guint i = 1; i <= b->group->parts; i++)
    if (!g_array_index (b->seen, gboolean, i))
      {
        if (missing < 10)
          g_string_append_printf (list, "%s%u", missing > 0 ? ", " : "", i);
        missing++;
      }
  if (missing > 10)
    g_string_append (list, ", …");
  if (missing == 0)
    return b->unsized ? g_strdup (_("a part of the split has no size in the file list")) : NULL;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "part %s of %u is missing from the repository; the size covers %u parts",
                                       "parts %s of %u are missing from the repository; the size covers %u parts",
                                       missing),
                          list->str, b->group->parts, b->group->parts_found);
}

static void
add_file (GHashTable  *groups,
          const char  *path,
          guint64      size)
{
  guint part = 1, parts = 1;
  g_autofree char *key = NULL;
  Building *b;

  if (hr_hf_gguf_split_part (path, &part, &parts))
    key = g_strdup_printf ("%.*s/%u", (int) (strlen (path) - 20), path, parts);
  else
    key = g_strdup (path);
  b = g_hash_table_lookup (groups, key);
  if (b == NULL)
    {
      b = g_new0 (Building, 1);
      b->key = g_strdup (key);
      b->group = g_new0 (HrHfGgufGroup, 1);
      b->group->parts = parts;
      b->seen = g_array_new (FALSE, TRUE, sizeof (gboolean));
      g_array_set_size (b->seen, parts + 1);
      g_hash_table_insert (groups, b->key, b);
    }
  if (g_array_index (b->seen, gboolean, part))
    return;  /* listed twice */
  g_array_index (b->seen, gboolean, part) = TRUE;
  b->group->parts_found++;
  if (size == 0)
    b->unsized = TRUE;
  b->group->bytes = b->group->bytes + size < b->group->bytes ? G_MAXUINT64 : b->group->bytes + size;
  if (part == 1)
    b->group->first_path = g_strdup (path);
  if (b->group->label == NULL)
    b->group->label = hr_hf_gguf_quant_label (path);
}

/**
 * hr_hf_gguf_group_files:
 * @paths: (array length=n_files): a repository's file paths (others than
 *   .gguf are skipped)
 * @sizes: (array length=n_files): each file's size in bytes (0 = unknown)
 * @n_files: entries in @paths and @sizes
 *
 * Groups a GGUF repository's files by quantization: a single file is one
 * group; the shards of a split model (llama.cpp's gguf-split names,
 * `PREFIX-00001-of-00009.gguf`, hr_hf_gguf_split_part()) are one group per
 * prefix and part count, their sizes summed, so a 9-part model is sized
 * from all 9 parts, not from the first. A split with a part missing (or
 * without a size) is kept, with complete %FALSE and a problem sentence
 * naming the missing parts; one whose first part is missing has
 * first_path %NULL (its header cannot be read).
 *
 * Returns: (transfer full) (element-type HrHfGgufGroup): the groups,
 *   sorted by label then path.
 */
GPtrArray *
hr_hf_gguf_group_files (const char * const *paths,
                        const guint64      *sizes,
                        guint               n_files)
{
  g_autoptr(GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                        (GDestroyNotify) building_free);
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) hr_hf_gguf_group_free);
  GHashTableIter iter;
  Building *b;

  for (guint i = 0; i < n_files; i++)
    if (paths[i] != NULL && g_str_has_suffix (paths[i], ".gguf"))
      add_file (groups, paths[i], sizes != NULL ? sizes[i] : 0);

  g_hash_table_iter_init (&iter, groups);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &b))
    {
      b->group->problem = missing_parts (b);
      b->group->complete = b->group->problem == NULL;
      if (b->group->first_path == NULL)
        {
          g_autofree char *problem = b->group->problem;

          b->group->problem = g_strdup_printf (_("%s; part 1, which holds the metadata, is missing"), problem);
        }
      g_ptr_array_add (out, g_steal_pointer (&b->group));
    }
  g_ptr_array_sort (out, compare_group);
  return out;
}
