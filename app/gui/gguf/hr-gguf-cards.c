/* hr-gguf-cards.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The File page's fact cards (hr-model-facts.h) for a GGUF file read
 * header only: the file, the architecture and size, the tokenizer and the
 * tensors. The same facts as `headroom-cli gguf`.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "hr-gguf-cards.h"
#include "hr-gui-format.h"
#include "hr-memory.h"
#include "hr-mmproj.h"
#include "hr-model-facts.h"
#include "hr-units.h"


static char *
count_or_unknown (guint64 value)
{
  return value == 0 ? g_strdup (_("unknown")) : hr_gui_format_count (value);
}

static char *
token_text (gboolean    present,
            guint32     id,
            const char *text)
{
  if (!present)
    return g_strdup (_("none"));
  if (text == NULL)
    return g_strdup_printf (_("%u (not in the vocabulary)"), id);
  return g_strdup_printf ("%u %s", id, text);
}

static void
add_count (GtkWidget  *group,
           const char *title,
           guint64     value,
           const char *subtitle)
{
  g_autofree char *text = count_or_unknown (value);

  hr_model_facts_add (group, title, text, subtitle);
}

static void
add_bytes (GtkWidget  *group,
           const char *title,
           guint64     bytes,
           const char *what)
{
  g_autofree char *exact = hr_gui_format_count (bytes);
  g_autofree char *value = g_strdup_printf (_("%s bytes"), exact);
  g_autofree char *both = hr_gui_format_size_both_fixed (bytes);
  g_autofree char *subtitle = what != NULL ? g_strdup_printf ("%s · %s", both, what) : g_strdup (both);

  hr_model_facts_add (group, title, value, subtitle);
}

/**
 * hr_gguf_cards_file:
 * @file: the file read
 * @blob_digest: (nullable): "sha256:<hex>" when the file is an Ollama blob
 *   named by its digest, else %NULL (the digest is computed: the row says
 *   "computing…" and gets a progress bar)
 * @digest_row: (out) (transfer none): the sha256 row, to fill in later
 * @hash_bar: (out) (transfer none) (optional): the progress bar of the
 *   digest, or %NULL with @blob_digest
 *
 * Returns: (transfer floating): the "File" card: size in bytes, GGUF
 *   version, header bytes and the tensor data's offset and alignment, the
 *   sha256, and a warning when the file is shorter than its tensors need
 */
GtkWidget *
hr_gguf_cards_file (HrGgufFile      *file,
                    const char      *blob_digest,
                    GtkWidget      **digest_row,
                    GtkProgressBar **hash_bar)
{
  GtkWidget *group = hr_model_facts_group_new (_("File"), NULL);
  g_autofree char *version = g_strdup_printf ("%u", hr_gguf_file_get_version (file));
  g_autofree char *header = hr_gui_format_count (hr_gguf_file_get_header_bytes (file));
  g_autofree char *header_text = g_strdup_printf (_("%s bytes read"), header);
  g_autofree char *offset = hr_gui_format_count (hr_gguf_file_get_data_offset (file));
  g_autofree char *offset_text = g_strdup_printf (_("tensor data from byte %s, aligned to %u"), offset,
                                                  (guint) hr_gguf_file_get_alignment (file));

  add_bytes (group, _("File size"), hr_gguf_file_get_file_bytes (file), NULL);
  hr_model_facts_add (group, _("GGUF version"), version, NULL);
  hr_model_facts_add (group, _("Header"), header_text, offset_text);

  if (blob_digest != NULL)
    *digest_row = hr_model_facts_add (group, _("sha256"), blob_digest + 7,
                                           _("Taken from the Ollama blob’s name (blobs/sha256-…), not computed"));
  else
    {
      *digest_row = hr_model_facts_add (group, _("sha256"), _("computing…"),
                                             _("Computed over the whole file for the catalog row’s origin"));
      *hash_bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
      gtk_widget_set_valign (GTK_WIDGET (*hash_bar), GTK_ALIGN_CENTER);
      /* Short (style.css), so that at 360 px the row's title and value
       * keep their width (a 150 px bar squeezed them to a letter a line). */
      gtk_widget_add_css_class (GTK_WIDGET (*hash_bar), "hr-hash-bar");
      gtk_widget_set_size_request (GTK_WIDGET (*hash_bar), 48, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (*hash_bar),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("sha256 progress"), -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (*digest_row), GTK_WIDGET (*hash_bar));
    }

  if (hr_gguf_file_get_file_bytes (file) < hr_gguf_file_get_tensor_data_end (file))
    {
      g_autofree char *end = hr_gui_format_count (hr_gguf_file_get_tensor_data_end (file));
      g_autofree char *text = g_strdup_printf (_("The file is shorter than its tensors need (%s bytes): it is incomplete or a header-only copy."), end);

      hr_model_facts_add_warning (group, _("Incomplete file"), text);
    }
  return group;
}

/* The file type general.file_type names, or that none is stated. */
static void
add_file_type (GtkWidget  *group,
               HrGgufFile *file)
{
  guint64 file_type = 0;
  const char *label;
  g_autofree char *subtitle = NULL;

  if (!hr_gguf_file_get_uint (file, "general.file_type", &file_type))
    {
      hr_model_facts_add (group, _("File type"), _("not stated"), _("no general.file_type"));
      return;
    }
  label = file_type <= G_MAXUINT32 ? hr_ggml_file_type_label ((guint32) file_type) : NULL;
  subtitle = g_strdup_printf ("general.file_type %" G_GUINT64_FORMAT, file_type);
  hr_model_facts_add (group, _("File type"), label ? label : _("unknown"), subtitle);
}

/* The parameter count, exact, and how many tensor shapes it sums. */
static void
add_parameters (GtkWidget         *group,
                const HrModelSpec *spec,
                guint              n_tensors)
{
  g_autofree char *value = hr_gui_format_parameters (spec->parameters);
  g_autofree char *exact = hr_gui_format_count (spec->parameters);
  /* Translators: the exact parameter count, then how many tensors it sums */
  g_autofree char *subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, summed from %u tensor shape",
                                                            "%s, summed from %u tensor shapes", n_tensors),
                                               exact, n_tensors);

  hr_model_facts_add (group, _("Parameters"), value, subtitle);
}

/* Layers, heads, key/value heads (per layer where they differ), the key,
 * value and embedding lengths. */
static void
add_shape (GtkWidget         *group,
           const HrModelSpec *spec)
{
  add_count (group, _("Layers"), spec->layers, "block_count");
  add_count (group, _("Attention heads"), spec->heads, "attention.head_count");
  if (spec->layer_kv_heads != NULL)
    {
      g_autoptr(GString) list = g_string_new (NULL);
      g_autofree char *subtitle = NULL;

      for (guint i = 0; i < spec->layer_kv_heads->len; i++)
        g_string_append_printf (list, "%s%u", i > 0 ? " " : "", g_array_index (spec->layer_kv_heads, guint32, i));
      subtitle = g_strdup_printf (_("at most; per layer: %s"), list->str);
      add_count (group, _("Key/value heads"), spec->kv_heads, subtitle);
    }
  else
    add_count (group, _("Key/value heads"), spec->kv_heads, "attention.head_count_kv");
  add_count (group, _("Key length"), spec->key_length, "attention.key_length");
  add_count (group, _("Value length"), spec->value_length, "attention.value_length");
  add_count (group, _("Embedding length"), spec->embedding_length, "embedding_length");
}

/* The native context and the sliding window (on how many layers). */
static void
add_context (GtkWidget         *group,
             const HrModelSpec *spec)
{
  if (spec->context_length > 0)
    {
      g_autofree char *n = hr_gui_format_count (spec->context_length);
      g_autofree char *value = g_strdup_printf (_("%s tokens"), n);

      hr_model_facts_add (group, _("Native context"), value, "context_length");
    }
  else
    hr_model_facts_add (group, _("Native context"), _("unknown"), _("no context_length key"));
  if (spec->sliding_window > 0)
    {
      g_autofree char *n = hr_gui_format_count (spec->sliding_window);
      g_autofree char *value = g_strdup_printf (_("%s tokens"), n);
      g_autofree char *subtitle = NULL;

      if (spec->layer_sliding != NULL)
        {
          guint n_sliding = 0;

          for (guint i = 0; i < spec->layer_sliding->len; i++)
            n_sliding += g_array_index (spec->layer_sliding, guint8, i) != 0;
          subtitle = g_strdup_printf (_("on %u of %u layers"), n_sliding, spec->layers);
        }
      hr_model_facts_add (group, _("Sliding window"), value, subtitle);
    }
  else
    hr_model_facts_add (group, _("Sliding window"), _("none"), NULL);
}

/**
 * hr_gguf_cards_model:
 * @file: the file read
 * @spec: the model it describes (hr_gguf_file_to_model_spec())
 *
 * Returns: (transfer floating): the "Architecture and Size" card, each
 *   figure with the metadata key it came from
 */
GtkWidget *
hr_gguf_cards_model (HrGgufFile        *file,
                     const HrModelSpec *spec)
{
  GtkWidget *group = hr_model_facts_group_new (_("Architecture and Size"),
                                               _("From the header’s metadata and tensor shapes"));
  const char *general_name = hr_gguf_file_get_string (file, "general.name");

  hr_model_facts_add (group, _("Architecture"), spec->architecture ? spec->architecture : _("unknown"),
                      "general.architecture");
  hr_model_facts_add (group, _("Name"), general_name ? general_name : _("(none)"), "general.name");
  add_file_type (group, file);
  add_parameters (group, spec, hr_gguf_file_get_n_tensors (file));
  add_shape (group, spec);
  add_context (group, spec);
  hr_model_facts_add_layer_kinds (group, spec);
  if (spec->expert_count > 0)
    {
      g_autofree char *value = g_strdup_printf (_("%u, %u used per token"), spec->expert_count, spec->expert_used_count);

      hr_model_facts_add (group, _("Experts"), value, NULL);
    }
  hr_model_facts_add (group, _("Tied embeddings"),
                      spec->tied_embeddings ? _("yes") : _("no"),
                      spec->tied_embeddings ? _("no output.weight tensor") : NULL);
  return group;
}

/**
 * hr_gguf_cards_tokenizer:
 * @file: the file read
 *
 * Returns: (transfer floating): the "Tokenizer" card: vocabulary, merges
 *   and the special tokens the file carries
 */
GtkWidget *
hr_gguf_cards_tokenizer (HrGgufFile *file)
{
  GtkWidget *group = hr_model_facts_group_new (_("Tokenizer"),
                                               _("Which vocabulary and chat markers the file carries"));
  g_autoptr(HrGgufTokenizer) tok = hr_gguf_file_get_tokenizer (file);
  g_autofree char *vocab = hr_gui_format_count (tok->vocab_size);
  g_autofree char *merges = hr_gui_format_count (tok->merges);
  g_autofree char *merges_text = g_strdup_printf (_("%s merges"), merges);
  g_autofree char *bos = token_text (tok->has_bos, tok->bos_id, tok->bos_token);
  g_autofree char *eos = token_text (tok->has_eos, tok->eos_id, tok->eos_token);

  hr_model_facts_add (group, _("Tokenizer model"), tok->model ? tok->model : _("(none)"), "tokenizer.ggml.model");
  hr_model_facts_add (group, _("Pre-tokenizer"), tok->pre ? tok->pre : _("(none)"), "tokenizer.ggml.pre");
  hr_model_facts_add (group, _("Vocabulary"), vocab, merges_text);
  hr_model_facts_add (group, _("BOS"), bos, "tokenizer.ggml.bos_token_id");
  hr_model_facts_add (group, _("EOS"), eos, "tokenizer.ggml.eos_token_id");
  if (tok->has_chat_template)
    {
      g_autofree char *length = hr_gui_format_count (tok->chat_template_length);
      g_autofree char *value = g_strdup_printf (_("yes, %s bytes"), length);

      hr_model_facts_add (group, _("Chat template"), value, "tokenizer.chat_template");
      if (tok->chat_markers->len > 0)
        {
          g_autoptr(GString) joined = g_string_new (NULL);

          for (guint i = 0; i < tok->chat_markers->len; i++)
            g_string_append_printf (joined, "%s%s", i > 0 ? " " : "", (char *) g_ptr_array_index (tok->chat_markers, i));
          hr_model_facts_add (group, _("Chat markers"), joined->str, _("Special tokens the template uses"));
        }
      else
        hr_model_facts_add (group, _("Chat markers"), _("none found in the vocabulary"), NULL);
    }
  else
    hr_model_facts_add (group, _("Chat template"), _("no"), NULL);
  return group;
}

/**
 * hr_gguf_cards_tensors:
 * @file: the file read (with its shards summed in, for a split model)
 * @spec: the model it describes
 * @split_problem: (nullable): why the other shards of a split model could
 *   not be read, or %NULL
 *
 * Returns: (transfer floating): the "Tensors" card: bytes per ggml type
 *   (exact, from each tensor's type and shape), the bits per parameter
 *   (file size x 8 / parameters) and the split model's shards
 */
GtkWidget *
hr_gguf_cards_tensors (HrGgufFile        *file,
                       const HrModelSpec *spec,
                       const char        *split_problem)
{
  GtkWidget *group = hr_model_facts_group_new (_("Tensors"),
                                               _("Exact bytes from each tensor’s ggml type and shape"));
  guint n_types;
  const HrGgmlTypeInfo *types = hr_ggml_type_list (&n_types);
  guint64 tensor_bytes = hr_gguf_file_get_tensor_bytes (file);
  double bits = hr_memory_effective_bits (hr_gguf_file_get_file_bytes (file), spec->parameters);
  g_autofree char *n = hr_gui_format_count (hr_gguf_file_get_n_tensors (file));

  hr_model_facts_add (group, _("Tensors"), n, NULL);
  for (guint i = 0; i < n_types; i++)
    {
      guint64 bytes;
      guint count = hr_gguf_file_count_tensors_of_type (file, types[i].type, &bytes);
      g_autofree char *b = NULL;
      g_autofree char *value = NULL;

      if (count == 0)
        continue;
      b = hr_gui_format_count (bytes);
      value = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u tensor, %s bytes", "%u tensors, %s bytes", count),
                               count, b);
      hr_model_facts_add (group, types[i].name, value, NULL);
    }
  add_bytes (group, _("Tensor bytes"), tensor_bytes, NULL);
  if (bits > 0.0)
    {
      g_autofree char *text = hr_gui_format_bits (bits);

      hr_model_facts_add (group, _("Bits per parameter"), text, _("file size × 8 / parameters, over the whole file"));
    }
  else
    hr_model_facts_add (group, _("Bits per parameter"), _("unknown"), _("no parameters or no file size"));
  if (split_problem != NULL)
    hr_model_facts_add_warning (group, _("Split model"), split_problem);
  else if (hr_gguf_file_get_n_shards (file) > 1)
    {
      g_autofree char *text = g_strdup_printf (_("%u shards, summed: the tensor figures, file size and memory cover the whole model"),
                                               hr_gguf_file_get_n_shards (file));

      hr_model_facts_add (group, _("Split model"), NULL, text);
    }
  return group;
}

/**
 * hr_gguf_cards_projector:
 * @spec: the model, its projector_bytes set (a vision or audio model)
 * @file: (nullable): the projector's own file (an mmproj GGUF beside the
 *   model, a Hub repository's mmproj file), or %NULL for a projector inside
 *   the model's file or a checkpoint's vision tower (spec->projector_source
 *   says which)
 * @n_tensors: the projector's tensors, 0 when not known
 *
 * The "Vision Projector" card the File and Hub pages show: the projector's
 * bytes in GB and GiB, where they were read, the fit margin Ollama gives
 * llama-server when it offloads the projector (Ollama llm/llama_server.go
 * mmprojFitTargetMiB: ceil((projector + 1 GiB) / MiB)) and the rules for
 * --no-mmproj-offload (shouldDisableMMProjOffload), and whether `ollama
 * ps` counts it (its weights not: llama.cpp tools/mtmd/clip.cpp logs no
 * buffer line for them that Ollama's bufferSizeRegex reads).
 *
 * Returns: (transfer floating): the card
 */
GtkWidget *
hr_gguf_cards_projector (const HrModelSpec *spec,
                         const char        *file,
                         guint              n_tensors)
{
  GtkWidget *group = hr_model_facts_group_new (_("Vision Projector"),
                                               _("The image or audio encoder llama-server loads beside the model (--mmproj)"));
  g_autofree char *exact = hr_gui_format_count (spec->projector_bytes);
  g_autofree char *value = g_strdup_printf (_("%s bytes"), exact);
  g_autofree char *both = hr_gui_format_size_both_fixed (spec->projector_bytes);
  g_autofree char *where = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *mib = hr_gui_format_count (hr_mmproj_fit_target_mib (spec->projector_bytes));
  g_autofree char *margin = g_strdup_printf (_("%s MiB"), mib);

  if (file != NULL && n_tensors > 0)
    /* Translators: the projector's file and its tensor count */
    where = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: all its %u tensor, as Ollama counts a separate projector",
                                          "%s: all its %u tensors, as Ollama counts a separate projector", n_tensors),
                             file, n_tensors);
  else if (file != NULL)
    where = g_strdup_printf (_("%s: all its tensors, as Ollama counts a separate projector"), file);
  else
    where = g_strdup (spec->projector_source != NULL ? spec->projector_source : _("inside the model's file"));
  subtitle = g_strdup_printf ("%s · %s", both, where);
  hr_model_facts_add (group, _("Projector"), value, subtitle);
  hr_model_facts_add (group, _("Fit margin"), margin,
                      _("What llama.cpp's fit keeps free on each GPU, not 1,024 MiB, when Ollama offloads the projector: projector + 1 GiB (LLAMA_ARG_FIT_TARGET)"));
  hr_model_facts_add (group, _("Offload"), _("on the GPU"),
                      _("Unless Ollama passes --no-mmproj-offload, which keeps it in host memory: for num_gpu 0, for num_gpu below the model’s layers, or when a GPU has less free than projector + 1 GiB"));
  hr_model_facts_add (group, _("In ollama ps"), _("no"),
                      _("clip.cpp logs no buffer line for the projector’s weights, so Ollama’s size leaves them out; its compute buffer line is counted"));
  return group;
}
