/* hr-cli-gguf.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * headroom-cli gguf FILE [--mmproj FILE] [sizing options] [--json]
 * headroom-cli gguf --ollama-models DIR MODEL[:TAG] [--verify] [--json]
 *
 * Reads a GGUF file's header (never its tensor data) and prints what the
 * seed's week-2 author read with a Python script, plus the exact tensor
 * bytes, the effective bits per parameter (docs/seed-figures.md W6: 5.03 for
 * llama3.2:3b) and the memory on the board, by the same prediction as
 * `headroom-cli predict` (hr-cli-predict.c).
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hr-cli.h"
#include "hr-json.h"
#include "hr-cli-predict.h"
#include "hr-error.h"
#include "hr-gguf-report.h"
#include "hr-memory.h"
#include "hr-mmproj.h"
#include "hr-ollama-store.h"
#include "hr-precision.h"
#include "hr-units.h"

typedef struct {
  gboolean tty;
  int      last_step; /* tenths printed so far, plain mode */
} VerifyProgress;

static void
on_verify_progress (guint64  done,
                    guint64  total,
                    gpointer user_data)
{
  VerifyProgress *vp = user_data;
  int percent = total > 0 ? (int) (done * 100 / total) : 100;

  if (vp->tty)
    {
      g_autofree char *d = hr_format_bytes (done, HR_UNIT_GB, 2);
      g_autofree char *t = hr_format_bytes (total, HR_UNIT_GB, 2);

      /* TRANSLATORS: progress while hashing a model blob: percent, done, total */
      fprintf (stderr, _("\rverifying sha256: %3d%% (%s of %s)"), percent, d, t);
      if (done >= total)
        fputc ('\n', stderr);
      fflush (stderr);
    }
  else if (percent / 10 > vp->last_step)
    {
      vp->last_step = percent / 10;
      fprintf (stderr, _("verifying sha256: %d%%\n"), vp->last_step * 10);
    }
}

static void
row (const char *label,
     const char *format,
     ...) G_GNUC_PRINTF (2, 3);

static void
row (const char *label,
     const char *format,
     ...)
{
  g_autofree char *value = NULL;
  g_autofree char *safe = NULL;
  va_list args;

  va_start (args, format);
  value = g_strdup_vprintf (format, args);
  va_end (args);
  /* Every value may hold the file's own text (its architecture, name,
   * tokens): control characters never reach the terminal raw. */
  safe = hr_json_safe_text (value, -1, 65536);
  printf ("%-20s%s\n", label, safe);
}

static char *
count_or_unknown (guint64 value)
{
  if (value == 0)
    return g_strdup (_("unknown"));
  return hr_format_count (value);
}

static JsonNode *
string_or_null (const char *text)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  if (text == NULL)
    {
      json_node_free (node);
      return json_node_new (JSON_NODE_NULL);
    }
  json_node_set_string (node, text);
  return node;
}

static void
add_token (JsonObject *object,
           const char *member,
           gboolean    present,
           guint32     id,
           const char *text)
{
  JsonObject *token;

  if (!present)
    {
      json_object_set_null_member (object, member);
      return;
    }
  token = json_object_new ();
  json_object_set_int_member (token, "id", id);
  json_object_set_member (token, "token", string_or_null (text));
  json_object_set_object_member (object, member, token);
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

static JsonObject *
tokenizer_json (const HrGgufTokenizer *tok)
{
  JsonObject *t = json_object_new ();
  JsonArray *markers = json_array_new ();

  json_object_set_member (t, "model", string_or_null (tok->model));
  json_object_set_member (t, "pre", string_or_null (tok->pre));
  json_object_set_int_member (t, "vocab_size", (gint64) tok->vocab_size);
  json_object_set_int_member (t, "merges", (gint64) tok->merges);
  add_token (t, "bos", tok->has_bos, tok->bos_id, tok->bos_token);
  add_token (t, "eos", tok->has_eos, tok->eos_id, tok->eos_token);
  json_object_set_boolean_member (t, "chat_template", tok->has_chat_template);
  for (guint i = 0; i < tok->chat_markers->len; i++)
    json_array_add_string_element (markers, g_ptr_array_index (tok->chat_markers, i));
  json_object_set_array_member (t, "chat_markers", markers);
  return t;
}

/* Tensors of a ggml type this version does not know. */
static JsonObject *
unknown_types_json (const HrGgufReport *r)
{
  JsonObject *o = json_object_new ();
  JsonArray *types = json_array_new ();
  JsonArray *unsized = json_array_new ();

  json_object_set_int_member (o, "count", r->n_unknown_types);
  for (guint i = 0; i < r->unknown_types->len; i++)
    json_array_add_int_element (types, g_array_index (r->unknown_types, guint32, i));
  json_object_set_array_member (o, "types", types);
  json_object_set_int_member (o, "bytes", (gint64) r->unknown_bytes);
  json_object_set_int_member (o, "unsized", r->n_unsized);
  for (guint i = 0; i < r->unsized_names->len; i++)
    json_array_add_string_element (unsized, g_ptr_array_index (r->unsized_names, i));
  json_object_set_array_member (o, "unsized_names", unsized);
  return o;
}

static JsonObject *
tensors_json (const HrGgufReport *r)
{
  JsonObject *tensors = json_object_new ();
  JsonArray *by_type = json_array_new ();

  json_object_set_int_member (tensors, "count", r->n_tensors);
  json_object_set_int_member (tensors, "bytes", (gint64) r->tensor_bytes);
  for (guint i = 0; i < r->types->len; i++)
    {
      const HrGgufReportType *type = &g_array_index (r->types, HrGgufReportType, i);
      JsonObject *entry = json_object_new ();

      json_object_set_string_member (entry, "type", type->name);
      json_object_set_int_member (entry, "count", type->count);
      json_object_set_int_member (entry, "bytes", (gint64) type->bytes);
      json_array_add_object_element (by_type, entry);
    }
  json_object_set_array_member (tensors, "by_type", by_type);
  json_object_set_object_member (tensors, "unknown_types", unknown_types_json (r));
  return tensors;
}

/* The recurrent state of a recurrent or hybrid model (hr-gguf-recurrent.c):
 * which layers keep it and its f32 bytes per slot, n_recurrent x
 * (n_embd_r + n_embd_s) x 4 (llama.cpp src/llama-memory-recurrent.cpp). */
static guint64
recurrent_bytes_per_slot (const HrModelSpec *spec)
{
  return (guint64) hr_model_spec_recurrent_layers (spec) *
         ((guint64) spec->recurrent_r + spec->recurrent_s) * 4;
}

static void
print_recurrent (const HrModelSpec *spec)
{
  g_autoptr(GString) list = NULL;
  g_autofree char *r = NULL, *st = NULL, *bytes = NULL, *mib = NULL;
  guint n = hr_model_spec_recurrent_layers (spec);

  if (spec->layer_recurrent == NULL)
    return;
  list = g_string_new (NULL);
  for (guint i = 0; i < spec->layers; i++)
    if (hr_model_spec_layer_is_recurrent (spec, i))
      g_string_append_printf (list, "%s%u", list->len > 0 ? " " : "", i);
  row (_("recurrent layers"), _("%u of %u: %s"), n, spec->layers, n > 0 ? list->str : _("none"));
  r = hr_format_count (spec->recurrent_r);
  st = hr_format_count (spec->recurrent_s);
  bytes = hr_format_count (recurrent_bytes_per_slot (spec));
  mib = hr_format_decimal ((double) recurrent_bytes_per_slot (spec) / 1048576.0, 2);
  row (_("recurrent state"), _("n_embd_r %s + n_embd_s %s values per layer, f32: %s bytes (%s MiB) per slot"),
       r, st, bytes, mib);
  if (spec->recurrent_source != NULL)
    row (_("  from"), "%s", spec->recurrent_source);
}

static JsonNode *
recurrent_json (const HrModelSpec *spec)
{
  JsonObject *o;
  JsonArray *layers;
  JsonNode *node;

  if (spec->layer_recurrent == NULL)
    return json_node_new (JSON_NODE_NULL);
  o = json_object_new ();
  layers = json_array_new ();
  for (guint i = 0; i < spec->layers; i++)
    if (hr_model_spec_layer_is_recurrent (spec, i))
      json_array_add_int_element (layers, i);
  json_object_set_array_member (o, "layers", layers);
  json_object_set_int_member (o, "n_embd_r", spec->recurrent_r);
  json_object_set_int_member (o, "n_embd_s", spec->recurrent_s);
  json_object_set_int_member (o, "bytes_per_slot", (gint64) recurrent_bytes_per_slot (spec));
  json_object_set_member (o, "source", spec->recurrent_source != NULL
                          ? json_node_init_string (json_node_alloc (), spec->recurrent_source)
                          : json_node_new (JSON_NODE_NULL));
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, o);
  return node;
}

static void
print_json (const HrGgufReport *r,
            const char         *path,
            const HrOllamaBlob *blob,
            gboolean            verified,
            JsonNode           *prediction,
            const char         *prediction_problem,
            JsonNode           *projector)
{
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  const HrModelSpec *spec = r->spec;
  JsonObject *o = json_object_new ();

  json_node_take_object (root, o);
  json_object_set_string_member (o, "file", path);
  if (blob != NULL)
    {
      JsonObject *ol = json_object_new ();

      json_object_set_string_member (ol, "model", blob->name);
      json_object_set_string_member (ol, "manifest", blob->manifest_file);
      json_object_set_string_member (ol, "digest", blob->digest);
      json_object_set_string_member (ol, "blob", blob->blob_file);
      json_object_set_int_member (ol, "size", (gint64) blob->size);
      json_object_set_boolean_member (ol, "size_matches", TRUE);
      json_object_set_boolean_member (ol, "sha256_verified", verified);
      json_object_set_object_member (o, "ollama", ol);
    }
  json_object_set_int_member (o, "gguf_version", hr_gguf_file_get_version (r->file));
  json_object_set_string_member (o, "architecture", spec->architecture);
  json_object_set_member (o, "name", string_or_null (r->general_name));
  if (r->has_file_type)
    json_object_set_int_member (o, "file_type", (gint64) r->file_type);
  else
    json_object_set_null_member (o, "file_type");
  json_object_set_member (o, "file_type_label", string_or_null (r->file_type_label));
  json_object_set_int_member (o, "parameters", (gint64) spec->parameters);
  json_object_set_int_member (o, "layers", spec->layers);
  json_object_set_int_member (o, "heads", spec->heads);
  json_object_set_int_member (o, "kv_heads", spec->kv_heads);
  if (spec->layer_kv_heads != NULL)
    {
      JsonArray *per_layer = json_array_new ();

      for (guint i = 0; i < spec->layer_kv_heads->len; i++)
        json_array_add_int_element (per_layer, g_array_index (spec->layer_kv_heads, guint32, i));
      json_object_set_array_member (o, "layer_kv_heads", per_layer);
    }
  else
    json_object_set_null_member (o, "layer_kv_heads");
  json_object_set_int_member (o, "key_length", spec->key_length);
  json_object_set_int_member (o, "value_length", spec->value_length);
  json_object_set_int_member (o, "embedding_length", spec->embedding_length);
  json_object_set_int_member (o, "context_length", spec->context_length);
  json_object_set_int_member (o, "sliding_window", spec->sliding_window);
  json_object_set_int_member (o, "expert_count", spec->expert_count);
  json_object_set_int_member (o, "expert_used_count", spec->expert_used_count);
  json_object_set_boolean_member (o, "tied_embeddings", spec->tied_embeddings);
  json_object_set_member (o, "recurrent", recurrent_json (spec));
  json_object_set_object_member (o, "tokenizer", tokenizer_json (r->tokenizer));
  json_object_set_object_member (o, "tensors", tensors_json (r));

  json_object_set_int_member (o, "header_bytes", (gint64) r->header_bytes);
  json_object_set_int_member (o, "alignment", (gint64) r->alignment);
  json_object_set_int_member (o, "data_offset", (gint64) r->data_offset);
  json_object_set_int_member (o, "file_bytes", (gint64) r->file_bytes);
  json_object_set_double_member (o, "bits_per_parameter", r->bits_per_parameter);
  if (r->split)
    {
      JsonObject *s = json_object_new ();

      json_object_set_int_member (s, "index", r->split_index);
      json_object_set_int_member (s, "count", r->split_count);
      json_object_set_int_member (s, "shards_summed", r->n_shards);
      json_object_set_member (s, "problem", string_or_null (r->split_problem));
      json_object_set_object_member (o, "split", s);
    }
  else
    json_object_set_null_member (o, "split");
  json_object_set_member (o, "projector", projector);
  json_object_set_member (o, "prediction", prediction);
  if (prediction_problem != NULL)
    json_object_set_string_member (o, "prediction_problem", prediction_problem);

  hr_cli_print_json (root);
}

/* The rows from the file type to the tied embeddings. */
static void
print_model (const HrGgufReport *r)
{
  const HrModelSpec *spec = r->spec;
  g_autofree char *params = hr_format_count (spec->parameters);
  g_autofree char *n = hr_format_count (r->n_tensors);
  g_autofree char *layers = count_or_unknown (spec->layers);
  g_autofree char *heads = count_or_unknown (spec->heads);
  g_autofree char *kv = count_or_unknown (spec->kv_heads);
  g_autofree char *kl = count_or_unknown (spec->key_length);
  g_autofree char *vl = count_or_unknown (spec->value_length);
  g_autofree char *emb = count_or_unknown (spec->embedding_length);
  g_autofree char *ctx_len = count_or_unknown (spec->context_length);

  if (r->file_type_label != NULL)
    row (_("file type"), _("%s (general.file_type %u)"), r->file_type_label, (guint) r->file_type);
  else if (r->has_file_type)
    row (_("file type"), _("unknown (general.file_type %" PRIu64 ")"), r->file_type);
  else
    row (_("file type"), "%s", _("not stated (no general.file_type)"));

  row (_("parameters"),
       g_dngettext (GETTEXT_PACKAGE, "%s (summed from %s tensor shape)", "%s (summed from %s tensor shapes)",
                    r->n_tensors),
       params, n);
  row (_("layers"), "%s", layers);
  row (_("heads"), "%s", heads);
  if (hr_model_spec_recurrent_only (spec))
    row (_("KV heads"), "%s", _("none: llama.cpp keeps no attention KV cache for a recurrent model"));
  else if (spec->layer_kv_heads != NULL)
    {
      g_autoptr(GString) list = g_string_new (NULL);

      for (guint i = 0; i < spec->layer_kv_heads->len; i++)
        g_string_append_printf (list, "%s%u", i > 0 ? " " : "", g_array_index (spec->layer_kv_heads, guint32, i));
      row (_("KV heads"), _("%s at most; per layer: %s"), kv, list->str);
    }
  else
    row (_("KV heads"), "%s", kv);
  row (_("key length"), "%s", kl);
  row (_("value length"), "%s", vl);
  row (_("embedding length"), "%s", emb);
  if (spec->context_length > 0)
    row (_("native context"), _("%s tokens"), ctx_len);
  else
    row (_("native context"), "%s", _("unknown (no context_length key)"));

  if (spec->sliding_window > 0)
    {
      g_autofree char *window = hr_format_count (spec->sliding_window);

      if (spec->layer_sliding != NULL)
        {
          guint n_sliding = 0;

          for (guint i = 0; i < spec->layer_sliding->len; i++)
            n_sliding += g_array_index (spec->layer_sliding, guint8, i) != 0;
          row (_("sliding window"), _("%s tokens, on %u of %u layers"), window, n_sliding, spec->layers);
        }
      else
        row (_("sliding window"), _("%s tokens"), window);
    }
  else
    row (_("sliding window"), "%s", _("none"));
  if (spec->expert_count > 0)
    row (_("experts"), _("%u, %u used per token"), spec->expert_count, spec->expert_used_count);
  row (_("tied embeddings"), "%s", spec->tied_embeddings ? _("yes (no output.weight tensor)") : _("no"));
  print_recurrent (spec);
}

static void
print_tokenizer (const HrGgufTokenizer *tok)
{
  g_autofree char *vocab = hr_format_count (tok->vocab_size);
  g_autofree char *merges = hr_format_count (tok->merges);
  g_autofree char *bos = token_text (tok->has_bos, tok->bos_id, tok->bos_token);
  g_autofree char *eos = token_text (tok->has_eos, tok->eos_id, tok->eos_token);

  row (_("tokenizer"), "%s", tok->model != NULL ? tok->model : _("(none)"));
  row (_("pre-tokenizer"), "%s", tok->pre != NULL ? tok->pre : _("(none)"));
  row (_("vocabulary"), _("%s tokens, %s merges"), vocab, merges);
  row (_("BOS"), "%s", bos);
  row (_("EOS"), "%s", eos);
  if (!tok->has_chat_template)
    {
      row (_("chat template"), "%s", _("no"));
      return;
    }

  {
    g_autofree char *length = hr_format_count (tok->chat_template_length);

    row (_("chat template"), _("yes (%s bytes)"), length);
  }
  if (tok->chat_markers->len > 0)
    {
      g_autoptr(GString) joined = g_string_new (NULL);

      for (guint i = 0; i < tok->chat_markers->len; i++)
        g_string_append_printf (joined, "%s%s", i > 0 ? " " : "",
                                (const char *) g_ptr_array_index (tok->chat_markers, i));
      row (_("chat markers"), "%s", joined->str);
    }
  else
    row (_("chat markers"), "%s", _("none found in the vocabulary"));
}

/* The tensors, the layout, the file size and the split. */
/* Tensors of a ggml type this version does not know: sized
 * from the layout, the unsized ones named. */
static void
print_unknown_types (const HrGgufReport *r)
{
  g_autoptr(GString) ids = g_string_new (NULL);
  g_autofree char *b = hr_format_count (r->unknown_bytes);
  g_autofree char *names = NULL;

  for (guint i = 0; i < r->unknown_types->len; i++)
    g_string_append_printf (ids, "%s%u", i > 0 ? ", " : "", g_array_index (r->unknown_types, guint32, i));
  row (_("  unknown types"), g_dngettext (GETTEXT_PACKAGE,
                                          "%u tensor of ggml type %s, which this version does not know: %s bytes, from the layout (the next tensor's offset or the file's end)",
                                          "%u tensors of ggml types %s, which this version does not know: %s bytes, from the layout (the next tensor's offset or the file's end)",
                                          r->n_unknown_types),
       r->n_unknown_types, ids->str, b);
  if (r->n_unsized == 0)
    return;
  g_ptr_array_add (r->unsized_names, NULL);
  names = g_strjoinv (", ", (char **) r->unsized_names->pdata);
  g_ptr_array_remove_index (r->unsized_names, r->unsized_names->len - 1);
  row (_("  unknown size"), _("%s (nothing after it tells its size; not in the tensor bytes)"), names);
}

/* "2,011,539,712 bytes (2.01 GB, 1.87 GiB)": one pair of parentheses. */
static char *
bytes_gb_gib (guint64 bytes)
{
  g_autofree char *count = hr_format_count (bytes);
  g_autofree char *gb = hr_format_decimal (hr_bytes_to_gb (bytes), 2);
  g_autofree char *gib = hr_format_decimal (hr_bytes_to_gib (bytes), 2);

  /* Translators: a byte count, then the same in GB (/ 1e9) and GiB (/ 1024^3) */
  return g_strdup_printf (_("%s bytes (%s GB, %s GiB)"), count, gb, gib);
}

static void
print_tensors (const HrGgufReport *r)
{
  g_autofree char *n = hr_format_count (r->n_tensors);
  g_autofree char *bytes = bytes_gb_gib (r->tensor_bytes);
  g_autofree char *header = hr_format_count (r->header_bytes);
  g_autofree char *offset = hr_format_count (r->data_offset);
  g_autofree char *fbytes = bytes_gb_gib (r->file_bytes);
  g_autofree char *bits_text = hr_format_decimal (r->bits_per_parameter, 2);

  row (_("tensors"), "%s", n);
  for (guint i = 0; i < r->types->len; i++)
    {
      const HrGgufReportType *type = &g_array_index (r->types, HrGgufReportType, i);
      g_autofree char *label = g_strdup_printf ("  %s", type->name);
      g_autofree char *b = hr_format_count (type->bytes);

      row (label, g_dngettext (GETTEXT_PACKAGE, "%u tensor, %s bytes", "%u tensors, %s bytes", type->count),
           type->count, b);
    }
  if (r->n_unknown_types > 0)
    print_unknown_types (r);
  row (_("tensor bytes"), "%s", bytes);
  row (_("header bytes"), _("%s (tensor data from byte %s, aligned to %u)"),
       header, offset, (guint) r->alignment);
  row (_("file size"), "%s", fbytes);
  if (r->bits_per_parameter > 0.0)
    row (_("bits per parameter"), _("%s (file size x 8 / parameters)"), bits_text);
  else
    row (_("bits per parameter"), "%s", _("unknown (no parameters or no file size)"));
  if (r->file_bytes < r->tensor_data_end)
    {
      g_autofree char *end = hr_format_count (r->tensor_data_end);

      row (_("warning"), _("the file is shorter than its tensors need (%s bytes): it is incomplete or a header-only copy"),
           end);
    }
  if (r->split && r->n_shards == r->split_count)
    row (_("split"), _("%u shards, summed: the tensor figures, file size and memory cover the whole model"),
         r->split_count);
  else if (r->split)
    row (_("split"), _("shard 1 of %u: the tensor figures above cover this shard only (%s)"),
         r->split_count, r->split_problem);
}

static void
print_text (const HrGgufReport *r,
            const char         *display_path,
            const HrOllamaBlob *blob,
            gboolean            verified)
{
  if (blob != NULL)
    {
      g_autofree char *size = hr_format_count (blob->size);

      row (_("model"), "%s", blob->name);
      row (_("manifest"), "%s", blob->manifest_file);
      row (_("model digest"), "%s", blob->digest);
      row (_("GGUF file"), "%s", blob->blob_file);
      row (_("size check"), _("%s bytes, as the manifest says"), size);
      row (_("sha256 check"), "%s", verified ? _("matches the manifest's digest")
                                             : _("not checked (add --verify)"));
    }
  else
    row (_("file"), "%s", display_path);

  row (_("GGUF version"), "%u", hr_gguf_file_get_version (r->file));
  row (_("architecture"), "%s", r->spec->architecture);
  row (_("name"), "%s", r->general_name != NULL ? r->general_name : _("(none)"));
  print_model (r);
  print_tokenizer (r->tokenizer);
  print_tensors (r);
}

/* The projector a model is sized with: a separate file (--mmproj, or the
 * manifest's projector layer), or the model's own v./mm./a. tensors. */
typedef struct {
  const char *display;   /* the file, for a person; NULL = inside the model's file */
  guint       tensors;
  char       *architecture;
} Projector;

/* Reads a separate projector GGUF's header and puts all its tensor bytes
 * in the spec (Ollama llm/llama_server.go mmprojMemoryRequirement). */
static gboolean
load_projector (const char   *path,
                const char   *display,
                HrModelSpec  *spec,
                Projector    *pj,
                GError      **error)
{
  g_autoptr(HrGgufFile) file = hr_gguf_file_load (path, NULL, error);
  g_autoptr(GError) local_error = NULL;
  guint64 bytes;

  if (file == NULL)
    {
      g_prefix_error (error, _("the projector %s: "), display);
      return FALSE;
    }
  bytes = hr_mmproj_file_bytes (file, &local_error);
  if (bytes == 0)
    {
      g_set_error (error, local_error->domain, local_error->code, _("the projector %s: %s"), display, local_error->message);
      return FALSE;
    }
  /* llama.cpp's projector loader (tools/mtmd/clip.cpp) reads clip files:
   * their tensors are named v., mm. and a.; a language model given as
   * --mmproj has none of them (the model and its projector swapped). */
  if (hr_mmproj_inline_bytes (file, NULL) == 0)
    {
      const char *arch = hr_gguf_file_get_string (file, "general.architecture");
      g_autofree char *safe = hr_json_safe_text (arch != NULL ? arch : "?", -1, 80);

      g_set_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA,
                   _("the projector %s is not a projector: it has no v., mm. or a. tensors (general.architecture is %s, where llama.cpp's --mmproj reads clip files); were the model and its projector swapped?"),
                   display, safe);
      return FALSE;
    }
  /* Its own file wins over tensors inside the model's (Ollama passes
   * projectors[0] only); those were moved out of the weights already. */
  spec->projector_bytes = bytes;
  g_free (spec->projector_source);
  spec->projector_source = g_strdup_printf ("%s: all its tensors (Ollama llm/llama_server.go mmprojMemoryRequirement)",
                                            display);
  pj->display = display;
  pj->tensors = hr_gguf_file_get_n_tensors (file);
  pj->architecture = g_strdup (hr_gguf_file_get_string (file, "general.architecture"));
  return TRUE;
}

/* "projector  FILE (clip): 3 tensors, N bytes (x GB, y GiB), all its tensors". */
static void
print_projector (const HrModelSpec *spec,
                 const Projector   *pj,
                 const HrGgufFile  *model)
{
  g_autofree char *bytes = bytes_gb_gib (spec->projector_bytes);

  if (spec->projector_bytes == 0)
    return;
  if (pj->display != NULL)
    row (_("projector"),
         g_dngettext (GETTEXT_PACKAGE, "%s (%s): %u tensor, %s: all of it, as Ollama counts a separate projector (mmprojMemoryRequirement)",
                      "%s (%s): %u tensors, %s: all of them, as Ollama counts a separate projector (mmprojMemoryRequirement)",
                      pj->tensors),
         pj->display, pj->architecture != NULL ? pj->architecture : _("no architecture"), pj->tensors, bytes);
  else
    {
      guint n = 0;

      hr_mmproj_inline_bytes (model, &n);
      row (_("projector"),
           g_dngettext (GETTEXT_PACKAGE, "inside the model's file: %u v./mm./a. tensor, %s, a term of its own and out of the weights (Ollama gives %s its own file as --mmproj)",
                        "inside the model's file: %u v./mm./a. tensors, %s, a term of their own and out of the weights (Ollama gives %s its own file as --mmproj)",
                        n),
           n, bytes, spec->architecture);
    }
}

static int
inspect (const char                *path,
         const char                *display_path,
         const HrOllamaBlob        *blob,
         gboolean                   verified,
         const char                *mmproj_path,
         HrCliContext              *ctx,
         const HrCliPredictOptions *o)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HrGgufReport) report = NULL;
  g_autofree char *mmproj_display = NULL;
  Projector pj = { 0 };
  g_autofree char *origin = g_strconcat ("gguf:", blob != NULL ? blob->digest : path, NULL);
  HrRuntimeInputs in;
  HrRuntimePrediction p;

  report = hr_gguf_report_build (path, display_path, blob != NULL ? blob->name : NULL, origin,
                                 ctx->board, o->context, NULL, &error);
  if (report == NULL)
    return hr_cli_fail (g_steal_pointer (&error));
  if (mmproj_path != NULL)
    {
      mmproj_display = g_filename_display_name (mmproj_path);
      if (!load_projector (mmproj_path, mmproj_display, report->spec, &pj, &error))
        return hr_cli_fail (g_steal_pointer (&error));
    }
  /* A header without the counts the KV cache needs has no memory and no
   * verdict, rather than a KV cache of 0 bytes that "fits". */
  if (report->memory_problem != NULL)
    {
      if (o->json)
        {
          g_autoptr(JsonNode) none = json_node_new (JSON_NODE_NULL);

          print_json (report, path, blob, verified, g_steal_pointer (&none), report->memory_problem,
                      hr_cli_projector_json (ctx, report->spec, mmproj_display));
        }
      else
        {
          print_text (report, display_path, blob, verified);
          print_projector (report->spec, &pj, report->file);
          printf ("%s\n", _("memory:"));
          row (_("  not sized"), "%s", report->memory_problem);
        }
      g_free (pj.architecture);
      return HR_CLI_EXIT_OK;
    }
  /* The memory: the same prediction as `headroom-cli predict FILE`. */
  if (!hr_cli_predict_spec (ctx, o, report->spec, &in, &p, &error))
    {
      g_free (pj.architecture);
      return hr_cli_fail (g_steal_pointer (&error));
    }
  if (o->json)
    {
      JsonNode *memory = hr_cli_prediction_json (ctx, report->spec, &p);

      /* the placement inputs' split (hr_cli_sizing_split()) */
      if (!hr_cli_sizing_split (ctx, o, &in, &p, json_node_get_object (memory), &error))
        {
          json_node_unref (memory);
          g_free (pj.architecture);
          return hr_cli_fail (g_steal_pointer (&error));
        }
      print_json (report, path, blob, verified, memory, NULL,
                  hr_cli_projector_json (ctx, report->spec, mmproj_display));
    }
  else
    {
      print_text (report, display_path, blob, verified);
      print_projector (report->spec, &pj, report->file);
      hr_cli_print_memory (ctx, &p);
      hr_cli_print_projector (ctx, report->spec, -1);
      if (!hr_cli_sizing_split (ctx, o, &in, &p, NULL, &error))
        {
          g_free (pj.architecture);
          return hr_cli_fail (g_steal_pointer (&error));
        }
    }
  g_free (pj.architecture);
  return HR_CLI_EXIT_OK;
}

/**
 * hr_cli_cmd_gguf:
 * @argc: arguments after "headroom-cli"
 * @argv: (array length=argc): argv[0] is "gguf"
 *
 * `headroom-cli gguf FILE [--mmproj FILE] [sizing options] [--json]` and
 * `headroom-cli gguf --ollama-models DIR MODEL[:TAG] [--verify] ...`: the
 * header's facts, the projector (--mmproj's file, the manifest's
 * projector layer, or v./mm./a. tensors inside the model's file, as Ollama
 * counts each: hr-mmproj.h), then the memory as `predict` sizes it
 * (hr_cli_predict_spec()), with the options every sizing command takes
 * (%HR_CLI_SIZING_OPTIONS: --runtime, --context, --parallel, --kv-type,
 * --flash-attention, --batch, --backend, --board, --server-version).
 *
 * Returns: 0 when the header was read, 1 when the file cannot be opened
 *   ("cannot open FILE: REASON", hr_cli_check_readable()), the file, the
 *   manifest or the digest is bad or the prediction fails (one line on
 *   stderr), 2 for bad arguments.
 */
int
hr_cli_cmd_gguf (int    argc,
                 char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *models_dir = NULL;
  g_autofree char *display = NULL;
  g_autoptr(HrOllamaBlob) blob = NULL;
  g_auto(HrCliPredictOptions) o = { 0 };
  g_auto(HrCliContext) ctx = { 0 };
  gboolean verify = FALSE;
  g_autofree char *mmproj = NULL;
  const char *path;
  int status = HR_CLI_EXIT_OK;
  GOptionEntry entries[] = {
    { "ollama-models", 0, 0, G_OPTION_ARG_FILENAME, &models_dir,
      N_("Follow MODEL[:TAG] through this Ollama models directory"), N_("DIR") },
    { "verify", 0, 0, G_OPTION_ARG_NONE, &verify,
      N_("Also check the blob's sha256 digest against the manifest"), NULL },
    { "mmproj", 0, 0, G_OPTION_ARG_FILENAME, &mmproj,
      N_("The model's vision or audio projector GGUF, sized as Ollama counts it (all its tensors)"), N_("FILE") },
    HR_CLI_SIZING_OPTIONS,
    OPT_JSON,
    { NULL }
  };

  if (!hr_cli_parse_options ("gguf", _("FILE | --ollama-models DIR MODEL[:TAG]"), entries, &argc, &argv))
    return HR_CLI_EXIT_USAGE;
  if (argc != 2)
    return hr_cli_usage_error ("%s", models_dir != NULL
                               ? _("gguf --ollama-models DIR takes one MODEL[:TAG]")
                               : _("gguf takes one FILE (or --ollama-models DIR MODEL[:TAG])"));
  if (verify && models_dir == NULL)
    return hr_cli_usage_error ("%s", _("--verify needs --ollama-models: a plain file has no manifest digest to check against"));
  if (mmproj != NULL && models_dir != NULL)
    return hr_cli_usage_error ("%s", _("--mmproj goes with a FILE: with --ollama-models the manifest's projector layer is read"));
  if (!hr_cli_predict_options_resolve (&o, NULL))
    return HR_CLI_EXIT_USAGE;
  if (!hr_cli_predict_load_context (&ctx, &o, &status))
    return status;

  if (models_dir != NULL)
    {
      blob = hr_ollama_store_find_model (models_dir, argv[1], &error);
      if (blob == NULL)
        return hr_cli_fail (g_steal_pointer (&error));
      if (verify)
        {
          VerifyProgress vp = { isatty (fileno (stderr)), 0 };

          if (!hr_ollama_blob_verify (blob, on_verify_progress, &vp, NULL, &error))
            return hr_cli_fail (g_steal_pointer (&error));
        }
      path = blob->blob_path;
    }
  else if (!hr_cli_check_readable (argv[1], &error))
    {
      /* A missing file may be a model Ollama pulled: say how to find it. */
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          char *message = g_strdup_printf (_("%s; check the path, or find a model Ollama pulled with --ollama-models DIR MODEL[:TAG]"),
                                           error->message);

          g_free (error->message);
          error->message = message;
        }
      return hr_cli_fail (g_steal_pointer (&error));
    }
  else
    path = argv[1];

  if (mmproj != NULL && !hr_cli_check_readable (mmproj, &error))
    return hr_cli_fail (g_steal_pointer (&error));

  display = g_filename_display_name (path);
  return inspect (path, display, blob, verify,
                  mmproj != NULL ? mmproj : blob != NULL ? blob->projector_path : NULL, &ctx, &o);
}
