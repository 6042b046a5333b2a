/* hr-hub-cards.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Hugging Face page's answer: four fact cards (hr-model-facts.h), one
 * per question of the seed's week 3 (architecture and size, base or
 * instruct, download, license), built from an #HrHubLookup.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-gui-format.h"
#include "gguf/hr-gguf-cards.h"
#include "hr-hub-cards.h"
#include "hr-memory.h"
#include "hr-model-facts.h"
#include "hr-precision.h"
#include "hr-units.h"

static char *
count (guint64 value)
{
  return hr_gui_format_count (value);
}

static char *
capitalized (const char *sentence)
{
  gunichar first;
  char buf[8];
  int n;

  if (sentence == NULL || *sentence == '\0')
    return g_strdup ("");
  first = g_unichar_totitle (g_utf8_get_char (sentence));
  n = g_unichar_to_utf8 (first, buf);
  return g_strdup_printf ("%.*s%s", n, buf, g_utf8_next_char (sentence));
}

static char *
format_ids (GArray *ids)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < ids->len; i++)
    {
      if (i > 0)
        /* Translators: between token ids, "151645 and 151643" */
        g_string_append (out, _(" and "));
      g_string_append_printf (out, "%" G_GINT64_FORMAT, g_array_index (ids, gint64, i));
    }
  return g_string_free (out, FALSE);
}

static void
add_bytes_fact (GtkWidget  *group,
                const char *title,
                guint64     bytes,
                const char *what)
{
  g_autofree char *exact = NULL;
  g_autofree char *value = NULL;
  g_autofree char *both = hr_gui_format_size_both_fixed (bytes);
  g_autofree char *subtitle = NULL;

  exact = count (bytes);
  /* Translators: an exact byte count, "6,183,464,935 bytes" */
  value = g_strdup_printf (_("%s bytes"), exact);
  subtitle = what != NULL ? g_strdup_printf ("%s · %s", both, what) : g_strdup (both);
  hr_model_facts_add (group, title, value, subtitle);
}

static void
add_gguf_facts (GtkWidget         *group,
                const HrHubLookup *l)
{
  const HrModelSpec *spec = l->spec;
  g_autofree char *source = g_strdup_printf (_("from the GGUF header of %s"), l->gguf_chosen);
  g_autofree char *value = NULL;

  value = g_strdup_printf ("%u", spec->layers);
  hr_model_facts_add (group, _("Layers"), value, source);
  g_clear_pointer (&value, g_free);
  value = count (spec->embedding_length);
  hr_model_facts_add (group, _("Hidden size"), value, source);
  g_clear_pointer (&value, g_free);
  value = g_strdup_printf ("%u", spec->heads);
  hr_model_facts_add (group, _("Attention heads"), value, source);
  g_clear_pointer (&value, g_free);
  value = g_strdup_printf ("%u", spec->kv_heads);
  hr_model_facts_add (group, _("Key/value heads"), value, source);
  g_clear_pointer (&value, g_free);
  value = g_strdup_printf ("%u", spec->key_length);
  hr_model_facts_add (group, _("Head dim"), value, source);
  g_clear_pointer (&value, g_free);
  if (spec->vocab_size > 0)
    {
      value = count (spec->vocab_size);
      hr_model_facts_add (group, _("Vocabulary"), value, source);
      g_clear_pointer (&value, g_free);
    }
  if (spec->context_length > 0)
    {
      g_autofree char *n = count (spec->context_length);

      value = g_strdup_printf (_("%s tokens"), n);
      hr_model_facts_add (group, _("Native context"), value, source);
      g_clear_pointer (&value, g_free);
    }
  hr_model_facts_add_layer_kinds (group, spec);
}

static void
add_config_facts (GtkWidget         *group,
                  const HrHubLookup *l)
{
  const HrHfConfig *c = l->config;
  g_autofree char *value = NULL;

  value = g_strdup_printf ("%u", c->layers);
  hr_model_facts_add (group, _("Layers"), value, "num_hidden_layers");
  g_clear_pointer (&value, g_free);
  value = count (c->hidden_size);
  hr_model_facts_add (group, _("Hidden size"), value, "hidden_size");
  g_clear_pointer (&value, g_free);
  if (c->intermediate_size > 0)
    {
      value = count (c->intermediate_size);
      hr_model_facts_add (group, _("Intermediate size"), value, "intermediate_size");
      g_clear_pointer (&value, g_free);
    }
  value = g_strdup_printf ("%u", c->heads);
  hr_model_facts_add (group, _("Attention heads"), value, "num_attention_heads");
  g_clear_pointer (&value, g_free);
  value = g_strdup_printf ("%u", c->kv_heads);
  hr_model_facts_add (group, _("Key/value heads"), value,
                      c->kv_heads < c->heads ? _("num_key_value_heads: grouped-query attention") : "num_key_value_heads");
  g_clear_pointer (&value, g_free);
  value = g_strdup_printf ("%u", c->head_dim);
  hr_model_facts_add (group, _("Head dim"), value, c->head_dim_explicit ? "head_dim" : _("hidden size / heads"));
  g_clear_pointer (&value, g_free);
  value = count (c->vocab_size);
  hr_model_facts_add (group, _("Vocabulary"), value, "vocab_size");
  g_clear_pointer (&value, g_free);

  if (c->max_position_embeddings > 0)
    {
      g_autofree char *n = count (c->max_position_embeddings);

      value = g_strdup_printf (_("%s tokens"), n);
      hr_model_facts_add (group, _("Native context"), value, "max_position_embeddings");
      g_clear_pointer (&value, g_free);
    }
  else
    hr_model_facts_add (group, _("Native context"), _("unknown"), _("config.json has no max_position_embeddings"));

  if (l->has_tokenizer_max_length)
    {
      g_autofree char *n = count (l->tokenizer_max_length);

      value = g_strdup_printf (_("%s tokens"), n);
      if (c->max_position_embeddings > 0 && l->tokenizer_max_length > c->max_position_embeddings)
        hr_model_facts_add (group, _("Tokenizer cap"), value,
                            _("model_max_length in tokenizer_config.json: not the native limit"));
      else
        hr_model_facts_add (group, _("Tokenizer cap"), value, "model_max_length");
      g_clear_pointer (&value, g_free);
    }

  if (c->sliding_window > 0)
    {
      g_autofree char *n = count (c->sliding_window);

      value = g_strdup_printf (_("%s tokens"), n);
      hr_model_facts_add (group, _("Sliding window"), value, "sliding_window");
      g_clear_pointer (&value, g_free);
    }
  hr_model_facts_add (group, _("Tied embeddings"), c->tied_embeddings ? _("yes") : _("no"), "tie_word_embeddings");
  if (c->quant_method != NULL)
    {
      if (c->quant_bits > 0)
        value = g_strdup_printf (_("%s, %u bits"), c->quant_method, c->quant_bits);
      else
        value = g_strdup (c->quant_method);
      hr_model_facts_add (group, _("Quantization"), value, "quantization_config");
      g_clear_pointer (&value, g_free);
    }
}

/* The stored parameter count, by dtype or exact, with where it came from. */
static void
add_parameters_fact (GtkWidget         *group,
                     const HrHubLookup *l)
{
  g_autoptr(GString) dtypes = g_string_new (NULL);
  g_autofree char *value = NULL;
  g_autofree char *subtitle = NULL;

  if (l->parameters == 0)
    {
      hr_model_facts_add (group, _("Parameters"), _("unknown"), _("The Hub, the index and the headers gave no count"));
      return;
    }
  for (guint i = 0; l->parameters_by_dtype != NULL && i < l->parameters_by_dtype->len; i++)
    {
      const HrSafetensorsDtype *d = g_ptr_array_index (l->parameters_by_dtype, i);
      g_autofree char *n = count (d->parameters);

      g_string_append_printf (dtypes, "%s%s %s", i ? ", " : "", d->dtype, n);
    }
  value = hr_gui_format_parameters (l->parameters);
  if (dtypes->len > 0)
    /* Translators: "BF16 3,085,938,688, from the Hub's safetensors field" */
    subtitle = g_strdup_printf (_("%1$s; from %2$s"), dtypes->str, l->parameters_source);
  else
    {
      g_autofree char *exact = count (l->parameters);

      /* Translators: the exact parameter count, then where it came from */
      subtitle = g_strdup_printf (_("%1$s, from %2$s"), exact, l->parameters_source);
    }
  hr_model_facts_add (group, _("Parameters"), value, subtitle);
}

/* The count derived from config.json's shapes, how far it is from the
 * stored one, and a mixture of experts' active part. */
static void
add_derived_facts (GtkWidget         *group,
                   const HrHubLookup *l)
{
  const HrHfConfig *c = l->config;
  g_autofree char *derived = hr_gui_format_parameters (l->derived.total);
  g_autofree char *exact = count (l->derived.total);
  g_autofree char *subtitle = NULL;

  if (l->parameters > 0)
    {
      g_autofree char *percent = hr_gui_format_decimal (l->derived_difference * 100.0, 2);

      /* Translators: the exact parameter count, then how far it is from the stored one */
      subtitle = g_strdup_printf (_("%1$s counted from config.json’s shapes: %2$s %% from the stored count"),
                                  exact, percent);
    }
  else
    /* Translators: the exact parameter count */
    subtitle = g_strdup_printf (_("%s counted from config.json’s shapes"), exact);
  hr_model_facts_add (group, _("Derived from config.json"), derived, subtitle);
  if (c != NULL && c->experts > 0)
    {
      g_autofree char *active = hr_gui_format_parameters (l->derived.active);
      g_autofree char *active_exact = count (l->derived.active);
      g_autofree char *experts = NULL;

      /* Translators: the exact active parameter count, then the experts */
      experts = g_strdup_printf (_("%1$s; %2$u of %3$u experts per token"),
                                 active_exact, c->experts_per_token, c->experts);
      hr_model_facts_add (group, _("Active per token"), active, experts);
    }
}

static GtkWidget *
architecture_card (const HrHubLookup *l)
{
  GtkWidget *group = hr_model_facts_group_new (_("1. Architecture and Size"),
                                               _("From config.json and the stored weights’ headers"));
  const HrHfConfig *c = l->config;

  if (l->architecture != NULL || l->model_type != NULL)
    {
      g_autofree char *subtitle = g_strdup_printf (_("model_type %s"), l->model_type ? l->model_type : _("unknown"));

      hr_model_facts_add (group, _("Architecture"), l->architecture ? l->architecture : _("unknown"), subtitle);
    }
  add_parameters_fact (group, l);
  if (l->has_derived)
    add_derived_facts (group, l);

  if (c == NULL && l->spec != NULL && l->gguf != NULL)
    {
      /* A GGUF repository: the figures come from the chosen file's header. */
      add_gguf_facts (group, l);
      return group;
    }
  if (c == NULL)
    {
      hr_model_facts_add_warning (group, _("config.json"),
                                  l->config_problem ? l->config_problem : _("The repository has no config.json"));
      return group;
    }

  add_config_facts (group, l);
  if (l->spec != NULL)
    hr_model_facts_add_layer_kinds (group, l->spec);
  return group;
}

static GtkWidget *
kind_card (const HrHubLookup *l)
{
  GtkWidget *group = hr_model_facts_group_new (_("2. Base or Instruct"),
                                               _("From the model card, the tags and the tokenizer and generation configs"));
  const char *kind;

  if (l->kind == NULL)
    {
      hr_model_facts_add (group, _("Kind"), _("unknown"), NULL);
      return group;
    }

  switch (l->kind->kind)
    {
    case HR_HF_KIND_BASE:
      kind = _("Base model");
      break;
    case HR_HF_KIND_INSTRUCT:
      kind = _("Instruct (chat) model");
      break;
    case HR_HF_KIND_UNKNOWN:
    default:
      kind = _("unknown");
      break;
    }
  hr_model_facts_add (group, _("Kind"), kind, NULL);
  hr_model_facts_add (group, _("Base model"),
                      l->kind->base_model ? l->kind->base_model : _("none named"),
                      _("cardData base_model"));
  if (l->bos_token_id >= 0)
    {
      g_autofree char *bos = g_strdup_printf ("%" G_GINT64_FORMAT, l->bos_token_id);

      hr_model_facts_add (group, _("BOS token"), bos, NULL);
    }
  if (l->eos_token_ids != NULL && l->eos_token_ids->len > 0)
    {
      g_autofree char *eos = format_ids (l->eos_token_ids);

      hr_model_facts_add (group, _("EOS tokens"), eos, _("generation_config.json eos_token_id"));
    }
  for (guint i = 0; i < l->kind->evidence->len; i++)
    {
      g_autofree char *sentence = capitalized (g_ptr_array_index (l->kind->evidence, i));
      GtkWidget *row = hr_model_facts_add (group, sentence, NULL, NULL);
      GtkWidget *icon = gtk_image_new_from_icon_name ("emblem-ok-symbolic");

      gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Evidence"), -1);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
    }
  return group;
}

static GtkWidget *
download_card (const HrHubLookup *l)
{
  GtkWidget *group = hr_model_facts_group_new (_("3. Download"),
                                               _("Sizes from the file tree: GB is bytes / 1e9, GiB is bytes / 1024³"));
  g_autofree char *files = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file", "%u files", l->files->len),
                                            l->files->len);
  const char *precision_id = hr_hub_lookup_weight_precision (l);
  const HrPrecision *precision = hr_precision_lookup (precision_id);

  add_bytes_fact (group, _("All files"), l->total_bytes, files);

  if (l->weight_files->len > 0)
    {
      g_autofree char *shards = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u weight file", "%u weight files",
                                                              l->weight_files->len),
                                                 l->weight_files->len);

      add_bytes_fact (group, _("Weights"), l->weight_file_bytes, shards);
      for (guint i = 0; i < l->weight_files->len; i++)
        {
          const HrHubFile *f = g_ptr_array_index (l->weight_files, i);

          add_bytes_fact (group, f->path, f->size, NULL);
        }
    }
  if (l->largest != NULL)
    {
      g_autofree char *what = g_strdup_printf (_("the largest file: %s"), l->largest->path);

      add_bytes_fact (group, _("Largest file"), l->largest->size, what);
    }
  if (l->n_tensors > 0)
    {
      g_autofree char *n = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u tensor", "%u tensors", l->n_tensors),
                                            l->n_tensors);

      add_bytes_fact (group, _("Tensor data"), l->tensor_bytes, n);
    }
  if (precision != NULL && l->parameters > 0)
    {
      guint64 bytes = hr_memory_weight_bytes (l->parameters, precision->bits_per_weight);
      g_autofree char *bits = hr_gui_format_bits (precision->bits_per_weight);
      g_autofree char *what = NULL;

      /* Translators: parameters x bits / 8 at the repository's own precision */
      what = g_strdup_printf (_("parameters × %1$s bits / 8 at %2$s"), bits, precision->label);
      add_bytes_fact (group, _("Weights at the repository’s precision"), bytes, what);
    }
  for (guint i = 0; l->gguf_files != NULL && i < l->gguf_files->len; i++)
    {
      const HrHubGgufFile *g = g_ptr_array_index (l->gguf_files, i);
      g_autofree char *title = g_strdup_printf ("%s %s", g->label ? g->label : "?", g->path);

      add_bytes_fact (group, title, g->size, g->parts > 1 ? _("split in parts, summed") : NULL);
    }
  if (l->gguf != NULL && l->spec != NULL && l->spec->parameters > 0)
    {
      g_autofree char *bits = hr_gui_format_bits (hr_memory_effective_bits (l->spec->file_bytes, l->spec->parameters));
      g_autofree char *what = g_strdup_printf (_("%s: file size × 8 / parameters, from its header"), l->gguf_chosen);

      hr_model_facts_add (group, _("Bits per parameter"), bits, what);
    }
  return group;
}

static GtkWidget *
license_card (const HrHubLookup *l)
{
  GtkWidget *group = hr_model_facts_group_new (_("4. License"),
                                               _("The badge is a label; the file is the contract."));
  g_autofree char *tag = NULL;

  if (l->license_name != NULL)
    tag = g_strdup_printf ("%s (%s)", l->license ? l->license : "?", l->license_name);
  else
    tag = g_strdup (l->license ? l->license : _("none given"));
  hr_model_facts_add (group, _("License tag"), tag, _("What the Hub’s badge shows"));

  if (l->license_file != NULL)
    hr_model_facts_add (group, _("License file"),
                        l->license_title ? l->license_title : _("(no title)"),
                        l->license_file);

  if (l->non_commercial)
    {
      g_autofree char *text = NULL;

      /* Translators: %s says where the restriction is written: 'LICENSE says “non commercial”' */
      text = g_strdup_printf (_("Not for commercial use: %s. The badge is a label; the file is the contract: read it before you ship."),
                              l->non_commercial_reason ? l->non_commercial_reason : l->license);
      hr_model_facts_add_warning (group, _("Commercial use"), text);
    }
  else if (l->license_file != NULL)
    hr_model_facts_add (group, _("Commercial use"), _("no restricting phrase found"),
                        _("Read the file before you ship: the badge is a label; the file is the contract."));
  else if (l->license != NULL && hr_hf_license_tag_is_open (l->license))
    hr_model_facts_add (group, _("Commercial use"), _("an open license tag"),
                        _("The repository’s LICENSE was not read: the tag is a known open license."));
  else
    hr_model_facts_add_warning (group, _("Commercial use"),
                                _("Unknown: no license file was found to read. Ask the authors before you ship."));
  return group;
}

/**
 * hr_hub_cards_append:
 * @box: the page's vertical box of cards
 * @lookup: the lookup to show
 *
 * Appends the four cards for @lookup to @box, in the order of the
 * questions: "1. Architecture and Size" (config.json, the weights' headers
 * or a GGUF file's header), "2. Base or Instruct", "3. Download" (sizes in
 * bytes, GB = bytes / 1e9 and GiB = bytes / 1024^3) and "4. License";
 * then, for a vision or audio model, "Vision Projector"
 * (hr_gguf_cards_projector(): the mmproj file read, or the checkpoint's
 * tower). Read them back with hr_model_facts_get_value().
 */
void
hr_hub_cards_append (GtkBox            *box,
                     const HrHubLookup *lookup)
{
  g_return_if_fail (GTK_IS_BOX (box));
  g_return_if_fail (lookup != NULL);

  gtk_box_append (box, architecture_card (lookup));
  gtk_box_append (box, kind_card (lookup));
  gtk_box_append (box, download_card (lookup));
  gtk_box_append (box, license_card (lookup));
  if (lookup->spec != NULL && lookup->spec->projector_bytes > 0)
    gtk_box_append (box, hr_gguf_cards_projector (lookup->spec, lookup->mmproj != NULL ? lookup->mmproj_chosen : NULL,
                                                  lookup->mmproj != NULL ? hr_gguf_file_get_n_tensors (lookup->mmproj) : 0));
}
