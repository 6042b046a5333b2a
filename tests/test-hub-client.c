/* test-hub-client.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HrHubClient against a fake Hugging Face Hub inside the test (fake-hub.c): a SoupServer
 * on 127.0.0.1 (port 0) that speaks docs/hub.md (model info
 * with expand/blobs, the tree paged by Link rel="next", resolve with a 302 to
 * a second in-process server acting as the CDN with X-Linked-Size, Range and
 * 206, and X-Error-Code errors). The Qwen2.5-3B-Instruct lookup must
 * reproduce every figure of docs/seed-figures.md ("A Hugging Face lookup") while the
 * fake counts the bytes it serves.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "fake-hub.h"
#include "gguf-writer.h"
#include "hr-hub-client.h"
#include "hr-memory.h"
#include "hr-net-error.h"
#include "hub-fixtures.h"
#include "hub-test-util.h"

/* ------------------------------------------------------------------ */
/* Tests                                                               */

static void
assert_qwen_figures (HrHubLookup *l)
{
  const HrSafetensorsDtype *bf16;
  const HrHubFile *f;

  /* 1. Architecture and size (docs/seed-figures.md, "A Hugging Face lookup"). */
  g_assert_cmpstr (l->repo, ==, QWEN_REPO);
  g_assert_cmpstr (l->sha, ==, QWEN_SHA);
  g_assert_cmpstr (l->architecture, ==, "Qwen2ForCausalLM");
  g_assert_cmpstr (l->model_type, ==, "qwen2");
  g_assert_cmpuint (l->parameters, ==, 3085938688);
  g_assert_cmpuint (l->parameters_by_dtype->len, ==, 1);
  bf16 = g_ptr_array_index (l->parameters_by_dtype, 0);
  g_assert_cmpstr (bf16->dtype, ==, "BF16");
  g_assert_cmpuint (bf16->parameters, ==, 3085938688);
  g_assert_nonnull (l->config);
  g_assert_cmpuint (l->config->layers, ==, 36);
  g_assert_cmpuint (l->config->hidden_size, ==, 2048);
  g_assert_cmpuint (l->config->intermediate_size, ==, 11008);
  g_assert_cmpuint (l->config->heads, ==, 16);
  g_assert_cmpuint (l->config->kv_heads, ==, 2);
  g_assert_cmpuint (l->config->vocab_size, ==, 151936);
  g_assert_cmpuint (l->config->max_position_embeddings, ==, 32768);
  g_assert_true (l->has_tokenizer_max_length);
  g_assert_cmpuint (l->tokenizer_max_length, ==, 131072);
  g_assert_true (l->config->tied_embeddings);
  g_assert_cmpint (l->bos_token_id, ==, 151643);
  g_assert_cmpuint (l->eos_token_ids->len, ==, 2);
  g_assert_cmpint (g_array_index (l->eos_token_ids, gint64, 0), ==, 151645);
  g_assert_cmpint (g_array_index (l->eos_token_ids, gint64, 1), ==, 151643);
  g_assert_true (l->has_derived);
  g_assert_cmpuint (l->derived.total, ==, 3085938688);
  g_assert_cmpfloat (l->derived_difference, ==, 0.0);
  g_assert_cmpuint (l->n_tensors, ==, 434);
  g_assert_cmpuint (l->tensor_bytes, ==, 6171877376);

  /* 2. Base or instruct. */
  g_assert_nonnull (l->kind);
  g_assert_cmpint (l->kind->kind, ==, HR_HF_KIND_INSTRUCT);
  g_assert_cmpstr (l->kind->base_model, ==, "Qwen/Qwen2.5-3B");

  /* 3. Download. */
  g_assert_cmpuint (l->files->len, ==, 12);
  g_assert_cmpuint (l->total_bytes, ==, 6183464935);
  g_assert_cmpuint (l->weight_files->len, ==, 2);
  f = g_ptr_array_index (l->weight_files, 0);
  g_assert_cmpstr (f->path, ==, QWEN_SHARD1);
  g_assert_cmpuint (f->size, ==, 3968658944);
  f = g_ptr_array_index (l->weight_files, 1);
  g_assert_cmpstr (f->path, ==, QWEN_SHARD2);
  g_assert_cmpuint (f->size, ==, 2203268048);
  g_assert_cmpstr (l->largest->path, ==, QWEN_SHARD1);

  /* 4. License: the badge is a label; the file is the contract. */
  g_assert_cmpstr (l->license, ==, "other");
  g_assert_cmpstr (l->license_name, ==, "qwen-research");
  g_assert_cmpstr (l->license_file, ==, "LICENSE");
  g_assert_cmpstr (l->license_title, ==, "Qwen RESEARCH LICENSE AGREEMENT");
  g_assert_true (l->non_commercial);
  g_assert_cmpstr (l->non_commercial_reason, ==, "LICENSE says “non commercial”");

  /* The model spec, pinned to the commit. */
  g_assert_nonnull (l->spec);
  g_assert_cmpstr (l->spec->name, ==, QWEN_REPO);
  g_assert_cmpstr (l->spec->origin, ==, "hf:Qwen/Qwen2.5-3B-Instruct@aa8e72537993ba99e69dfaafa59ed015b17504d1");
  g_assert_cmpuint (l->spec->parameters, ==, 3085938688);
  g_assert_cmpstr (l->spec->precision, ==, "bf16");
  g_assert_cmpuint (l->spec->file_bytes, ==, 6171877376);
  g_assert_cmpuint (l->spec->layers, ==, 36);
  g_assert_cmpuint (l->spec->kv_heads, ==, 2);
  g_assert_cmpuint (l->spec->key_length, ==, 128);
  g_assert_cmpuint (l->spec->context_length, ==, 32768);
  g_assert_true (hr_model_spec_validate (l->spec, NULL));
  /* W3: 3,085,938,688 x 16 bits / 8 = 6,171,877,376 bytes = total_size. */
  g_assert_cmpuint (hr_memory_weight_bytes (l->spec->parameters, 16.0), ==, l->tensor_bytes);
  g_assert_cmpstr (hr_hub_lookup_weight_precision (l), ==, "bf16");
}

static void
test_qwen_lookup (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) json = NULL;
  JsonObject *obj;

  add_qwen (fake, QWEN_REPO, QWEN_FULL);
  fake->valid_token = g_strdup ("hf_fixture_token");
  client = client_for (fake, "hf_fixture_token");

  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (lookup);
  assert_qwen_figures (lookup);
  g_assert_cmpstr (lookup->revision, ==, "main");
  g_assert_cmpstr (lookup->parameters_source, ==, "the Hub API (safetensors field)");

  /* A few kilobytes: under 100 kB served, no weight byte at all. */
  g_test_message ("served %" G_GUINT64_FORMAT " bytes in %u requests", fake->bytes_served, fake->requests);
  g_assert_cmpuint (fake->bytes_served, <, 100000);
  g_assert_cmpuint (lookup->bytes_received, ==, fake->bytes_served);
  g_assert_false (fake->weight_body_requested);
  g_assert_cmpuint (fake->weight_range_end_max, ==, 0);
  g_assert_cmpuint (log_count (fake, ".safetensors "), ==, 0);
  g_assert_cmpuint (fake->cdn_requests, ==, 0);
  /* Model info at main; everything else pinned to the sha. */
  g_assert_cmpuint (log_count (fake, "/revision/main?expand=sha&"), ==, 1);
  g_assert_cmpuint (log_count (fake, "/resolve/main/"), ==, 0);
  g_assert_cmpuint (log_count (fake, "/resolve/" QWEN_SHA "/config.json"), ==, 1);
  g_assert_cmpuint (log_count (fake, "/resolve/" QWEN_SHA "/LICENSE"), ==, 1);
  g_assert_cmpuint (log_count (fake, "/resolve/" QWEN_SHA "/tokenizer.json"), ==, 0);
  /* 12 files at 5 a page: 3 pages by Link rel="next". */
  g_assert_cmpuint (log_count (fake, "/tree/" QWEN_SHA "?recursive=true"), ==, 3);
  g_assert_cmpuint (lookup->requests, ==, fake->requests);
  /* The token went to the Hub. */
  g_assert_cmpstr (fake->hub_authorization, ==, "Bearer hf_fixture_token");

  json = hr_hub_lookup_to_json (lookup);
  obj = json_node_get_object (json);
  g_assert_cmpint (json_object_get_int_member (obj, "parameters"), ==, 3085938688);
  g_assert_cmpint (json_object_get_int_member (obj, "total_bytes"), ==, 6183464935);
  g_assert_cmpint (json_object_get_int_member (obj, "file_count"), ==, 12);
  g_assert_cmpint (json_object_get_int_member (obj, "tokenizer_model_max_length"), ==, 131072);
  g_assert_cmpstr (json_object_get_string_member (obj, "license_title"), ==, "Qwen RESEARCH LICENSE AGREEMENT");
  g_assert_true (json_object_get_boolean_member (obj, "non_commercial"));
  g_assert_cmpstr (json_object_get_string_member (obj, "kind"), ==, "instruct");
}

static void
test_revision_encoded (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;

  add_qwen (fake, QWEN_REPO, QWEN_FULL);
  client = client_for (fake, NULL);
  lookup = run_lookup (client, QWEN_REPO, "refs/pr/1", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lookup->revision, ==, "refs/pr/1");
  g_assert_cmpstr (lookup->sha, ==, QWEN_SHA);
  g_assert_cmpuint (log_count (fake, "/revision/refs/pr/1?"), ==, 1);
  g_assert_cmpuint (log_count (fake, "/tree/" QWEN_SHA "?"), ==, 3);
  /* No token: none sent. */
  g_assert_null (fake->hub_authorization);
}

/* SoupServer decodes the path before a handler sees it, so the request
 * line itself is read here, from a plain socket. */
static gboolean
on_raw_request (GThreadedSocketService *service,
                GSocketConnection      *connection,
                GObject                *source,
                gpointer                user_data)
{
  char **line = user_data;
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autoptr(GDataInputStream) data = g_data_input_stream_new (in);
  const char *reply = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
  char *first;

  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (data), FALSE);
  first = g_data_input_stream_read_line (data, NULL, NULL, NULL);
  g_atomic_pointer_set (line, first);
  g_output_stream_write_all (out, reply, strlen (reply), NULL, NULL, NULL);
  return TRUE;
}


static void
test_revision_request_line (void)
{
  /* No thread limit: a GThreadedSocketService at its limit stops accepting
   * while a connection is handled and starts again when the handler
   * returns, which can be after the test stopped it and closed the
   * listener (GLib 2.74 then warns "fail: Listener is already closed"). */
  g_autoptr(GSocketService) service = g_threaded_socket_service_new (-1);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autofree char *endpoint = NULL;
  char *line = NULL;

  g_assert_true (g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                                G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error));
  g_signal_connect (service, "run", G_CALLBACK (on_raw_request), &line);
  g_socket_service_start (service);
  endpoint = g_strdup_printf ("http://127.0.0.1:%u", g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  client = g_object_new (HR_TYPE_HUB_CLIENT, "endpoint", endpoint, "token", "", "use-keyring", FALSE, NULL);

  lookup = run_lookup (client, QWEN_REPO, "refs/pr/1", NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_BAD_PATH);
  g_socket_service_stop (service);
  /* Let the cancelled accept finish here, before the listener closes. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  /* The revision is percent-encoded whole: refs/pr/1 -> refs%2Fpr%2F1. */
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "GET /api/models/Qwen/Qwen2.5-3B-Instruct/revision/refs%2Fpr%2F1?expand=sha&"));
  g_free (line);
}

/* A renamed repository answers 307 with a relative Location; the lookup
 * follows it once and then uses the new name, token and all (same host). */
static void
test_renamed (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;

  add_qwen (fake, QWEN_REPO, QWEN_FULL);
  fake->rename_from = g_strdup ("Qwen/Qwen2.5-3B-Chat-Old");
  fake->rename_to = g_strdup (QWEN_REPO);
  fake->valid_token = g_strdup ("hf_fixture_token");
  client = client_for (fake, "hf_fixture_token");
  lookup = run_lookup (client, "Qwen/Qwen2.5-3B-Chat-Old", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lookup->repo, ==, QWEN_REPO);
  g_assert_cmpstr (lookup->spec->origin, ==, "hf:" QWEN_REPO "@" QWEN_SHA);
  g_assert_cmpuint (fake->redirects_307, ==, 1);
  g_assert_cmpuint (log_count (fake, "hub GET /api/models/" QWEN_REPO "/revision/main?expand="), ==, 1);
  g_assert_cmpstr (fake->hub_authorization, ==, "Bearer hf_fixture_token");
  assert_qwen_figures (lookup);
}

static void
test_index_fallback (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;

  add_qwen (fake, QWEN_REPO, QWEN_NO_API_FIELD);
  client = client_for (fake, NULL);
  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_no_error (error);
  /* W4: total_size / 2 bytes per BF16 value. */
  g_assert_cmpuint (lookup->parameters, ==, 3085938688);
  g_assert_cmpstr (lookup->parameters_source, ==, "model.safetensors.index.json total_size / 2 bytes (bfloat16)");
  g_assert_cmpuint (lookup->n_tensors, ==, 434);
  g_assert_cmpuint (lookup->spec->parameters, ==, 3085938688);
  g_assert_cmpuint (fake->cdn_requests, ==, 0);
  g_assert_false (fake->weight_body_requested);
  g_assert_cmpuint (fake->bytes_served, <, 100000);
}

static void
test_header_fallback (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;

  add_qwen (fake, QWEN_REPO, QWEN_NO_INDEX);
  fake->valid_token = g_strdup ("hf_fixture_token");
  client = client_for (fake, "hf_fixture_token");
  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lookup->parameters, ==, 3085938688);
  g_assert_cmpstr (lookup->parameters_source, ==, "the safetensors headers of 2 files");
  g_assert_cmpuint (lookup->n_tensors, ==, 434);
  g_assert_cmpuint (lookup->tensor_bytes, ==, 6171877376);
  g_assert_cmpuint (lookup->files->len, ==, 11);
  g_assert_cmpuint (lookup->spec->file_bytes, ==, 6171877376);

  /* One Range read per shard, through the CDN, never past the header probe. */
  g_assert_cmpuint (log_count (fake, "hub GET /" QWEN_REPO "/resolve/" QWEN_SHA "/" QWEN_SHARD1 " bytes=0-100000"), ==, 1);
  g_assert_cmpuint (log_count (fake, "hub GET /" QWEN_REPO "/resolve/" QWEN_SHA "/" QWEN_SHARD2 " bytes=0-100000"), ==, 1);
  g_assert_cmpuint (log_count (fake, "cdn GET /repos/" QWEN_SHA "/" QWEN_SHARD1 " bytes=0-100000"), ==, 1);
  g_assert_cmpuint (fake->cdn_requests, ==, 2);
  g_assert_cmpuint (fake->weight_range_end_max, ==, 100000);
  g_assert_false (fake->weight_body_requested);
  /* The token went to the Hub and never to the redirect target. */
  g_assert_cmpstr (fake->hub_authorization, ==, "Bearer hf_fixture_token");
  g_assert_cmpuint (fake->cdn_authorization, ==, 0);
}

/* A small model whose header is over 100 kB: two Range reads. */
static GBytes *
big_header_file (guint n_tensors,
                 guint64 *out_params)
{
  GString *json = g_string_new ("{\"__metadata__\":{\"format\":\"pt\"}");
  GByteArray *out = g_byte_array_new ();
  guint64 n;
  guint8 len[8];

  for (guint i = 0; i < n_tensors; i++)
    g_string_append_printf (json, ",\"model.layers.%u.padding_for_a_long_name.weight\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[%u,%u]}",
                            i, i * 16, i * 16 + 16);
  g_string_append (json, "}");
  n = json->len;
  for (guint i = 0; i < 8; i++)
    len[i] = (guint8) (n >> (8 * i));
  g_byte_array_append (out, len, 8);
  g_byte_array_append (out, (const guint8 *) json->str, json->len);
  g_string_free (json, TRUE);
  *out_params = 4ull * n_tensors;
  return g_byte_array_free_to_bytes (out);
}

static void
run_big_header (gboolean ignore_range)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  guint64 params = 0;
  g_autoptr(GBytes) head = big_header_file (1500, &params);
  const char *config = "{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\",\"hidden_size\":64,"
                       "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"intermediate_size\":128,\"vocab_size\":100,"
                       "\"torch_dtype\":\"float32\"}";
  g_autoptr(GBytes) config_bytes = g_bytes_new_static (config, strlen (config));
  FakeRepo *repo = fake_add_repo (fake, "test-org/tiny-llama", "1111111111111111111111111111111111111111",
                                  "{\"tags\":[\"license:apache-2.0\"],\"cardData\":{\"license\":\"apache-2.0\"}}");
  guint64 size = g_bytes_get_size (head) + 1500 * 16;

  g_assert_cmpuint (g_bytes_get_size (head), >, 100001);
  fake->ignore_range = ignore_range;
  repo_add_file (repo, "config.json", strlen (config), FALSE, config_bytes, FALSE);
  repo_add_file (repo, "model.safetensors", size, TRUE, head, TRUE);

  lookup = run_lookup (client, "test-org/tiny-llama", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lookup->parameters, ==, params);
  g_assert_cmpuint (lookup->n_tensors, ==, 1500);
  g_assert_cmpstr (lookup->parameters_source, ==, "the safetensors header of 1 file");
  g_assert_cmpstr (lookup->license, ==, "apache-2.0");
  g_assert_null (lookup->license_title);
  g_assert_false (lookup->non_commercial);
  g_assert_cmpint (lookup->kind->kind, ==, HR_HF_KIND_BASE);
  if (!ignore_range)
    {
      g_autofree char *second = g_strdup_printf ("cdn GET /repos/1111111111111111111111111111111111111111/model.safetensors bytes=8-%" G_GSIZE_FORMAT,
                                                 g_bytes_get_size (head) - 1);

      g_assert_cmpuint (log_count (fake, "model.safetensors bytes=0-100000"), ==, 2);
      g_assert_cmpuint (log_count (fake, second), ==, 1);
      g_assert_false (fake->weight_body_requested);
    }
}

static void
test_big_header (void)
{
  run_big_header (FALSE);
}

static void
test_ignored_range (void)
{
  /* A server that ignores Range sends the whole file: the client reads what
   * it asked for and stops. */
  run_big_header (TRUE);
}

/* A GGUF repository: the gguf field, several quantizations (one split),
 * and the header of the Q4_K_M file read by Range for exact figures. */
static GBytes *
gguf_head (guint64 *out_file_size,
           guint64 *out_tensor_bytes)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GwTensorSpec specs[300];
  guint n = gw_llama32_3b_tensors (specs, names);
  GgufWriter *w = gw_new ();
  guint64 data_offset, tensor_end = 0;
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < 128256; i++)
    g_ptr_array_add (tokens, g_strdup_printf ("tok%u", i));

  gw_header (w, 3, n, 13);
  gw_kv_str (w, "general.architecture", "llama");
  gw_kv_str (w, "general.name", "Llama 3.2 3B Instruct");
  gw_kv_u32 (w, "general.file_type", 15);
  gw_kv_u32 (w, "llama.block_count", 28);
  gw_kv_u32 (w, "llama.context_length", 131072);
  gw_kv_u32 (w, "llama.embedding_length", 3072);
  gw_kv_u32 (w, "llama.feed_forward_length", 8192);
  gw_kv_u32 (w, "llama.attention.head_count", 24);
  gw_kv_u32 (w, "llama.attention.head_count_kv", 8);
  gw_kv_u32 (w, "llama.rope.dimension_count", 128);
  gw_kv_str (w, "tokenizer.ggml.model", "gpt2");
  gw_kv_str_array (w, "tokenizer.ggml.tokens", (const char * const *) tokens->pdata, tokens->len);
  gw_kv_u32 (w, "tokenizer.ggml.bos_token_id", 128000);
  gw_write_tensors (w, specs, n);
  data_offset = gw_align (w->len, 32);
  for (guint i = 0; i < n; i++)
    tensor_end = gw_align (tensor_end, 32) + gw_spec_bytes (&specs[i]);
  *out_tensor_bytes = 0;
  for (guint i = 0; i < n; i++)
    *out_tensor_bytes += gw_spec_bytes (&specs[i]);
  *out_file_size = data_offset + tensor_end;
  return g_byte_array_free_to_bytes (w);
}

/* A fake Hub with a GGUF repository of llama3.2:3b: the Q4_K_M file with
 * a real header, Q8_0 and F16 in two parts; its lookup. */
typedef struct {
  FakeHub     *fake;
  HrHubClient *client;
  GBytes      *head;
  guint64      file_size;
  guint64      tensor_bytes;
  HrHubLookup *lookup;
} GgufRepo;

static void
gguf_repo_set_up (GgufRepo      *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  FakeRepo *repo;

  f->fake = fake_hub_new ();
  f->client = client_for (f->fake, NULL);
  f->head = gguf_head (&f->file_size, &f->tensor_bytes);
  repo = fake_add_repo (f->fake, "test-org/Llama-3.2-3B-Instruct-GGUF", "2222222222222222222222222222222222222222",
                        "{\"tags\":[\"gguf\",\"base_model:meta-llama/Llama-3.2-3B-Instruct\",\"license:llama3.2\"],"
                        "\"cardData\":{\"license\":\"llama3.2\",\"base_model\":[\"meta-llama/Llama-3.2-3B-Instruct\"]},"
                        "\"config\":{},\"gguf\":{\"total\":3212749888,\"architecture\":\"llama\","
                        "\"context_length\":131072,\"totalFileSize\":2019377376}}");
  repo_add_file (repo, "README.md", 9000, FALSE, NULL, FALSE);
  repo_add_file (repo, "Llama-3.2-3B-Instruct-Q4_K_M.gguf", f->file_size, TRUE, f->head, TRUE);
  repo_add_file (repo, "Llama-3.2-3B-Instruct-Q8_0.gguf", 3421899136, TRUE, NULL, TRUE);
  repo_add_file (repo, "Llama-3.2-3B-Instruct-f16-00001-of-00002.gguf", 4000000000, TRUE, NULL, TRUE);
  repo_add_file (repo, "Llama-3.2-3B-Instruct-f16-00002-of-00002.gguf", 2433323456, TRUE, NULL, TRUE);
  f->lookup = run_lookup (f->client, "test-org/Llama-3.2-3B-Instruct-GGUF", NULL, NULL, &error);
  g_assert_no_error (error);
}

static void
gguf_repo_tear_down (GgufRepo      *f,
                     gconstpointer  data)
{
  g_clear_pointer (&f->lookup, hr_hub_lookup_free);
  g_bytes_unref (f->head);
  g_clear_object (&f->client);
  fake_hub_free (f->fake);
}

static void
test_gguf_repo (GgufRepo      *f,
                gconstpointer  data)
{
  const HrHubGgufFile *g;

  g_assert_cmpuint (f->lookup->gguf_files->len, ==, 3);
  g = g_ptr_array_index (f->lookup->gguf_files, 0);
  g_assert_cmpstr (g->path, ==, "Llama-3.2-3B-Instruct-Q4_K_M.gguf");
  g_assert_cmpstr (g->label, ==, "Q4_K_M");
  g_assert_cmpuint (g->size, ==, f->file_size);
  g = g_ptr_array_index (f->lookup->gguf_files, 1);
  g_assert_cmpstr (g->label, ==, "Q8_0");
  g = g_ptr_array_index (f->lookup->gguf_files, 2);
  g_assert_cmpstr (g->path, ==, "Llama-3.2-3B-Instruct-f16-00001-of-00002.gguf");
  g_assert_cmpstr (g->label, ==, "F16");
  g_assert_cmpuint (g->parts, ==, 2);
  g_assert_cmpuint (g->size, ==, 6433323456);
}

static void
test_gguf_repo_lookup (GgufRepo      *f,
                       gconstpointer  data)
{
  HrHubLookup *lookup = f->lookup;

  g_assert_cmpstr (lookup->gguf_chosen, ==, "Llama-3.2-3B-Instruct-Q4_K_M.gguf");
  g_assert_nonnull (lookup->gguf);
  g_assert_cmpuint (lookup->parameters, ==, 3212749888);
  g_assert_cmpstr (lookup->parameters_source, ==, "the Hub API (gguf field)");
  g_assert_cmpstr (lookup->architecture, ==, "llama");
  g_assert_cmpint (lookup->kind->kind, ==, HR_HF_KIND_INSTRUCT);
  g_assert_cmpstr (lookup->kind->base_model, ==, "meta-llama/Llama-3.2-3B-Instruct");
  g_assert_cmpstr (lookup->license, ==, "llama3.2");
}

/* Exact figures from the header: W6's tensor list (Q4_K x168, Q6_K x29,
 * F32 x58) and its bits per weight. */
static void
test_gguf_repo_header (GgufRepo      *f,
                       gconstpointer  data)
{
  HrHubLookup *lookup = f->lookup;
  guint64 params;

  g_assert_nonnull (lookup->spec);
  params = lookup->spec->parameters;
  g_assert_cmpuint (params, ==, hr_gguf_file_get_parameters (lookup->gguf));
  g_assert_cmpuint (hr_gguf_file_get_tensor_bytes (lookup->gguf), ==, f->tensor_bytes);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (lookup->gguf, GW_Q4_K, NULL), ==, 168);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (lookup->gguf, GW_Q6_K, NULL), ==, 29);
  g_assert_cmpuint (hr_gguf_file_count_tensors_of_type (lookup->gguf, GW_F32, NULL), ==, 58);
  g_assert_cmpuint (lookup->spec->layers, ==, 28);
  g_assert_cmpuint (lookup->spec->kv_heads, ==, 8);
  g_assert_cmpuint (lookup->spec->key_length, ==, 128);
  g_assert_cmpuint (lookup->spec->file_bytes, ==, f->file_size);
  g_assert_cmpfloat_with_epsilon (hr_memory_effective_bits (lookup->spec->file_bytes, params),
                                  (double) f->file_size * 8.0 / (double) params, 1e-12);
  g_test_message ("GGUF header read in %" G_GUINT64_FORMAT " bytes; %.4f bits per weight",
                  lookup->gguf_header_bytes_read, hr_memory_effective_bits (f->file_size, params));
}

/* The header, not the tensor data: reads stop at the header. */
static void
test_gguf_repo_header_only (GgufRepo      *f,
                            gconstpointer  data)
{
  g_assert_false (f->fake->weight_body_requested);
  g_assert_cmpuint (f->fake->weight_range_end_max, <, g_bytes_get_size (f->head) * 2);
  g_assert_cmpuint (log_count (f->fake, "Q8_0.gguf"), ==, 0);
}

typedef struct {
  const char *name;
  const char *fault_prefix;   /* NULL: no fault */
  guint       status;
  const char *code;
  const char *message;
  const char *header;
  const char *value;
  const char *repo;
  const char *revision;
  const char *token;
  gint        expected_code;
  const char *expected_message; /* %s = endpoint */
} ErrorCase;

/* Each way the Hub refuses a lookup, and what the client says. */
static const ErrorCase hub_error_cases[] = {
  { "gated", NULL, 0, NULL, NULL, NULL, NULL, "test-org/gated-model", NULL, NULL,
    HR_NET_ERROR_GATED,
    "test-org/gated-model is gated: request access on its page, %s/test-org/gated-model, then set a token that has access (HF_TOKEN or the stored token)" },
  { "gated-403", "/test-org/gated-model/resolve/", 403, "GatedRepo", "Access to model is restricted and you are not in the authorized list.",
    NULL, NULL, "test-org/gated-model", NULL, "hf_fixture_token",
    HR_NET_ERROR_GATED,
    "test-org/gated-model is gated: request access on its page, %s/test-org/gated-model, then set a token that has access (HF_TOKEN or the stored token)" },
  { "not-found", NULL, 0, NULL, NULL, NULL, NULL, "test-org/no-such-model", NULL, NULL,
    HR_NET_ERROR_NOT_FOUND,
    "No repository test-org/no-such-model: check the name; if it is private or gated, set a token that can read it" },
  { "401-no-code", "/api/models/", 401, NULL, "Unauthorized", NULL, NULL, QWEN_REPO, NULL, NULL,
    HR_NET_ERROR_NOT_FOUND,
    "No repository Qwen/Qwen2.5-3B-Instruct: check the name; if it is private or gated, set a token that can read it" },
  { "bad-token", NULL, 0, NULL, NULL, NULL, NULL, QWEN_REPO, NULL, "hf_wrong",
    HR_NET_ERROR_UNAUTHORIZED,
    "The Hub refused the token (invalid credentials): check HF_TOKEN or the stored token" },
  { "revision", NULL, 0, NULL, NULL, NULL, NULL, QWEN_REPO, "v9.9", NULL,
    HR_NET_ERROR_REVISION_NOT_FOUND,
    "Qwen/Qwen2.5-3B-Instruct has no branch, tag or commit “v9.9”" },
  { "entry", "/Qwen/Qwen2.5-3B-Instruct/resolve/" QWEN_SHA "/config.json", 404, "EntryNotFound", "Entry not found",
    NULL, NULL, QWEN_REPO, NULL, NULL,
    HR_NET_ERROR_NOT_FOUND, "config.json is not in Qwen/Qwen2.5-3B-Instruct at main" },
  { "retry-after", "/api/models/", 429, NULL, "rate limited", "Retry-After", "17", QWEN_REPO, NULL, NULL,
    HR_NET_ERROR_RATE_LIMITED, "The Hub is rate limiting requests: wait 17 seconds, then try again" },
  { "ratelimit-header", "/api/models/", 429, NULL, "rate limited", "RateLimit", "\"api\";r=0;t=55", QWEN_REPO, NULL, NULL,
    HR_NET_ERROR_RATE_LIMITED, "The Hub is rate limiting requests: wait 55 seconds, then try again" },
  { "ratelimit-one", "/api/models/", 429, NULL, "rate limited", "Retry-After", "1", QWEN_REPO, NULL, NULL,
    HR_NET_ERROR_RATE_LIMITED, "The Hub is rate limiting requests: wait 1 second, then try again" },
  { "ratelimit-unknown", "/api/models/", 429, NULL, "rate limited", NULL, NULL, QWEN_REPO, NULL, NULL,
    HR_NET_ERROR_RATE_LIMITED, "The Hub is rate limiting requests: wait a minute, then try again" },
  { "server", "/api/models/", 500, NULL, "Internal Error", NULL, NULL, QWEN_REPO, NULL, NULL,
    HR_NET_ERROR_SERVER, "The Hub failed (HTTP 500): try again later" },
  { "server-tree", "/api/models/Qwen/Qwen2.5-3B-Instruct/tree/", 503, NULL, "Service Unavailable", NULL, NULL, QWEN_REPO, NULL, NULL,
    HR_NET_ERROR_SERVER, "The Hub failed (HTTP 503): try again later" },
};

static void
test_errors (gconstpointer data)
{
  const ErrorCase *c = data;
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, c->token);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  FakeRepo *gated;

  add_qwen (fake, QWEN_REPO, QWEN_FULL);
  gated = fake_add_repo (fake, "test-org/gated-model", "3333333333333333333333333333333333333333",
                         "{\"gated\":\"manual\",\"tags\":[\"license:llama3.1\"]}");
  gated->gated = TRUE;
  {
    g_autoptr(GBytes) empty = g_bytes_new_static ("{}", 2);

    repo_add_file (gated, "config.json", 2, FALSE, empty, FALSE);
  }
  fake->valid_token = g_strdup ("hf_fixture_token");
  if (c->fault_prefix != NULL)
    {
      fake_fault (fake, c->fault_prefix, c->status, c->code, c->message);
      fake->fault_header = g_strdup (c->header);
      fake->fault_value = g_strdup (c->value);
    }

  lookup = run_lookup (client, c->repo, c->revision, NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, c->expected_code);
  expected = g_strdup_printf (c->expected_message, fake->hub_url);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_cmpuint (fake->cdn_authorization, ==, 0);
}

static void
test_offline (void)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autofree char *endpoint = NULL;
  g_autofree char *expected = NULL;
  guint16 port;

  /* A port that was free a moment ago: nothing listens there now. */
  g_assert_true (g_socket_listener_add_address (listener, address, G_SOCKET_TYPE_STREAM,
                                                G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error));
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_listener_close (listener);

  endpoint = g_strdup_printf ("http://127.0.0.1:%u", port);
  /* The endpoint comes from HF_ENDPOINT, the token from HF_TOKEN. */
  g_setenv ("HF_ENDPOINT", endpoint, TRUE);
  g_setenv ("HF_TOKEN", "hf_env_token", TRUE);
  client = g_object_new (HR_TYPE_HUB_CLIENT, "use-keyring", FALSE, NULL);
  g_unsetenv ("HF_ENDPOINT");
  g_unsetenv ("HF_TOKEN");
  g_assert_cmpstr (hr_hub_client_get_endpoint (client), ==, endpoint);

  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_CONNECTION_REFUSED);
  expected = g_strdup_printf ("Could not reach 127.0.0.1:%u; check the network or HF_ENDPOINT", port);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_default_endpoint (void)
{
  g_autoptr(HrHubClient) client = NULL;

  g_unsetenv ("HF_ENDPOINT");
  client = g_object_new (HR_TYPE_HUB_CLIENT, "use-keyring", FALSE, "token", "", NULL);
  g_assert_cmpstr (hr_hub_client_get_endpoint (client), ==, "https://huggingface.co");
}

static void
test_deadline (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = NULL;
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  gint64 start;

  add_qwen (fake, QWEN_REPO, QWEN_FULL);
  fake_fault (fake, "/api/models/Qwen/Qwen2.5-3B-Instruct/tree/", 0, NULL, NULL);
  fake->fault_stall = TRUE;
  client = g_object_new (HR_TYPE_HUB_CLIENT, "endpoint", fake->hub_url, "token", "",
                         "use-keyring", FALSE, "timeout", 300, NULL);
  start = g_get_monotonic_time ();
  lookup = run_lookup (client, QWEN_REPO, NULL, NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_TIMEOUT);
  expected = g_strdup_printf ("%s did not answer within 1 second: check the network or HF_ENDPOINT, then try again",
                              fake->hub_url + strlen ("http://"));
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

static void
test_cancel (void)
{
  for (guint when = 0; when < 3; when++)
    {
      g_autoptr(FakeHub) fake = fake_hub_new ();
      g_autoptr(HrHubClient) client = client_for (fake, NULL);
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(HrHubLookup) lookup = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *user_dir = g_build_filename (g_get_user_data_dir (), "headroom", NULL);

      add_qwen (fake, QWEN_REPO, QWEN_NO_INDEX);
      if (when == 0)
        g_cancellable_cancel (cancellable);           /* before anything is sent */
      else
        {
          /* in the middle: when the tree (1) or a shard header (2) is asked for */
          fake_fault (fake, when == 1 ? "/api/models/Qwen/Qwen2.5-3B-Instruct/tree/"
                                      : "/Qwen/Qwen2.5-3B-Instruct/resolve/" QWEN_SHA "/model-0000",
                      0, NULL, NULL);
          fake->fault_stall = TRUE;
          fake->cancel_on_request = g_object_ref (cancellable);
        }
      lookup = run_lookup (client, QWEN_REPO, NULL, cancellable, &error);
      g_assert_null (lookup);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      /* Nothing half-added: the lookup writes nothing. */
      g_assert_false (g_file_test (user_dir, G_FILE_TEST_EXISTS));
    }
}

static void
test_bad_repo_id (void)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();
  g_autoptr(HrHubClient) client = client_for (fake, NULL);
  g_autoptr(HrHubLookup) lookup = NULL;
  g_autoptr(GError) error = NULL;

  lookup = run_lookup (client, "../etc/passwd", NULL, NULL, &error);
  g_assert_null (lookup);
  g_assert_error (error, HR_NET_ERROR, HR_NET_ERROR_BAD_PATH);
  g_assert_cmpstr (error->message, ==, "“../etc/passwd” is not a repository id: write owner/name, for example Qwen/Qwen2.5-3B-Instruct");
  g_assert_cmpuint (fake->requests, ==, 0);
}

/* headroom-cli hub against the fake: the week-3 answers as text and JSON. */
/* The lines `headroom-cli hub Qwen/Qwen2.5-3B-Instruct` prints about it. */
static const char * const qwen_report_lines[] = {
  "repository          Qwen/Qwen2.5-3B-Instruct",
  "revision            main (commit aa8e72537993ba99e69dfaafa59ed015b17504d1)",
  "architecture        Qwen2ForCausalLM (model_type qwen2)",
  "parameters          3,085,938,688 (BF16 3,085,938,688), from the Hub API (safetensors field)",
  "config check        3,085,938,688 derived from config.json: the same count as the stored 3,085,938,688",
  "layers              36",
  "hidden size         2,048",
  "intermediate size   11,008",
  "attention heads     16",
  "key/value heads     2",
  "head dim            128 (hidden / heads)",
  "vocab               151,936",
  "native context      32,768 tokens (max_position_embeddings)",
  "tied embeddings     yes",
  "tokenizer cap       131,072 tokens (model_max_length; not the native limit)",
  "BOS                 151643",
  "EOS                 151645 and 151643",
  "kind                instruct",
  "base model          Qwen/Qwen2.5-3B",
  "files               12 files, 6,183,464,935 bytes, 6.18 GB (5.76 GiB)",
  "weight shards       model-00001-of-00002.safetensors, 3,968,658,944 bytes",
  "                    model-00002-of-00002.safetensors, 2,203,268,048 bytes",
  "tensors             434, 6,171,877,376 bytes of tensor data",
  "license             other (qwen-research)",
  "LICENSE             “Qwen RESEARCH LICENSE AGREEMENT”",
  "commercial use      restricted: LICENSE says “non commercial”",
  "                    The badge is a label; the file is the contract.",
  "weights (bf16)      6,171,877,376 bytes: 6.17 GB (decimal, / 1e9), 5.75 GiB (binary, / 1024^3)",
  NULL,
};

/* `headroom-cli ARGS` against a fake Hub that serves the full Qwen repository. */
static void
run_cli_on_qwen (const char * const *args,
                 CliRun             *run)
{
  g_autoptr(FakeHub) fake = fake_hub_new ();

  add_qwen (fake, QWEN_REPO, QWEN_FULL);
  run_cli (fake, args, run);
}

static void
test_cli (void)
{
  /* The seed's method, named (the runtime prediction: test-cli-paths.c). */
  const char * const text_args[] = { "hub", QWEN_REPO, "--runtime", "seed", NULL };
  CliRun run;

  run_cli_on_qwen (text_args, &run);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.status, ==, 0);
  for (guint i = 0; qwen_report_lines[i] != NULL; i++)
    {
      g_autofree char *line = g_strconcat (qwen_report_lines[i], "\n", NULL);

      if (strstr (run.out, line) == NULL)
        g_error ("missing line: %s", qwen_report_lines[i]);
    }
  /* 6.17 GB + 0.15 GB against the seed board's 6.1 GB of headroom. */
  g_assert_nonnull (strstr (run.out, "\nmemory on Jetson Orin Nano Super at 4,096 tokens (f16 KV cache, 1 slot):\n"
                                     "  method             the seed's weights + KV cache (teaching mode, not a server's figure)\n"
                                     "  Weights            6.17 GB (5.75 GiB)\n"
                                     "  KV cache           0.15 GB (0.14 GiB)\n"
                                     "  total              6.32 GB (5.89 GiB)\n"
                                     "  ollama ps          6.3 GB\n"
                                     "  verdict            over by 0.22 GB\n"));
  g_free (run.out);
  g_free (run.err);
}

static void
test_cli_json (void)
{
  const char * const json_args[] = { "hub", QWEN_REPO "@main", "--json", "--runtime", "seed", NULL };
  CliRun run;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *obj, *memory;
  JsonArray *terms;

  run_cli_on_qwen (json_args, &run);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  obj = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (obj, "parameters"), ==, 3085938688);
  g_assert_cmpstr (json_object_get_string_member (obj, "sha"), ==, QWEN_SHA);
  g_assert_cmpstr (json_object_get_string_member (obj, "weight_precision"), ==, "bf16");
  g_assert_cmpint (json_object_get_int_member (obj, "weight_bytes"), ==, 6171877376);
  memory = json_object_get_object_member (obj, "prediction");
  g_assert_nonnull (memory);
  g_assert_cmpint (json_object_get_int_member (memory, "context_tokens"), ==, 4096);
  terms = json_object_get_array_member (memory, "terms");
  /* KV cache at f16: 2 x 36 layers x 2 KV heads x 128 x 2 bytes x 4,096 tokens. */
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (terms, 1), "bytes"), ==, 150994944);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (terms, 0), "bytes"), ==, 6171877376);
  g_free (run.out);
  g_free (run.err);
}

static void
test_cli_bad_repo_id (void)
{
  const char * const bad_args[] = { "hub", "not-a-repo", NULL };
  CliRun run;

  run_cli_on_qwen (bad_args, &run);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpstr (run.err, ==, "headroom-cli: “not-a-repo” is not a repository id: write owner/name, for example Qwen/Qwen2.5-3B-Instruct\n");
  g_free (run.out);
  g_free (run.err);
}

static void
test_cli_missing_repo (void)
{
  const char * const missing_args[] = { "hub", "test-org/missing", NULL };
  CliRun run;

  run_cli_on_qwen (missing_args, &run);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_true (g_str_has_suffix (run.err, "headroom-cli: No repository test-org/missing: check the name; if it is private or gated, set a token that can read it\n"));
  g_free (run.out);
  g_free (run.err);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_unsetenv ("HF_TOKEN");
  g_unsetenv ("HF_ENDPOINT");

  g_test_add_func ("/hub/qwen", test_qwen_lookup);
  g_test_add_func ("/hub/revision-encoded", test_revision_encoded);
  g_test_add_func ("/hub/revision-request-line", test_revision_request_line);
  g_test_add_func ("/hub/renamed", test_renamed);
  g_test_add_func ("/hub/index-fallback", test_index_fallback);
  g_test_add_func ("/hub/header-fallback", test_header_fallback);
  g_test_add_func ("/hub/big-header", test_big_header);
  g_test_add_func ("/hub/ignored-range", test_ignored_range);
  g_test_add ("/hub/gguf/files", GgufRepo, NULL, gguf_repo_set_up, test_gguf_repo, gguf_repo_tear_down);
  g_test_add ("/hub/gguf/lookup", GgufRepo, NULL, gguf_repo_set_up, test_gguf_repo_lookup, gguf_repo_tear_down);
  g_test_add ("/hub/gguf/header", GgufRepo, NULL, gguf_repo_set_up, test_gguf_repo_header, gguf_repo_tear_down);
  g_test_add ("/hub/gguf/header-only", GgufRepo, NULL, gguf_repo_set_up, test_gguf_repo_header_only, gguf_repo_tear_down);
  for (guint i = 0; i < G_N_ELEMENTS (hub_error_cases); i++)
    {
      g_autofree char *path = g_strconcat ("/hub/errors/", hub_error_cases[i].name, NULL);

      g_test_add_data_func (path, &hub_error_cases[i], test_errors);
    }
  g_test_add_func ("/hub/offline", test_offline);
  g_test_add_func ("/hub/default-endpoint", test_default_endpoint);
  g_test_add_func ("/hub/deadline", test_deadline);
  g_test_add_func ("/hub/cancel", test_cancel);
  g_test_add_func ("/hub/bad-repo-id", test_bad_repo_id);
  g_test_add_func ("/hub/cli/report", test_cli);
  g_test_add_func ("/hub/cli/json", test_cli_json);
  g_test_add_func ("/hub/cli/bad-repo-id", test_cli_bad_repo_id);
  g_test_add_func ("/hub/cli/missing-repo", test_cli_missing_repo);

  return g_test_run ();
}
