/* test-hub-info.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * app/core/hf/hr-hub-info.c without a network: the Hub's answers for
 * Qwen/Qwen2.5-3B-Instruct (docs/hub.md shapes, the repository's own
 * config, generation and tokenizer files under tests/fixtures/hub) read
 * step by step, with exact figures; and the ways each answer can be wrong.
 */
#include "config.h"

#include <string.h>

#include "hr-error.h"
#include "hr-hub-info.h"
#include "hub-fixtures.h"

#define ENDPOINT "https://hub.example"

/* The model info as the Hub answers it at the revision (trimmed). */
static const char model_info[] =
  "{\"_id\":\"66e6d\",\"id\":\"Qwen/Qwen2.5-3B-Instruct\",\"private\":false,"
  "\"sha\":\"" QWEN_SHA "\",\"gated\":false,\"pipeline_tag\":\"text-generation\","
  "\"library_name\":\"transformers\","
  "\"tags\":[\"transformers\",\"safetensors\",\"qwen2\",\"chat\",\"license:other\",\"base_model:Qwen/Qwen2.5-3B\"],"
  "\"cardData\":{\"license\":\"other\",\"license_name\":\"qwen-research\","
  "\"base_model\":\"Qwen/Qwen2.5-3B\"},"
  "\"config\":{\"architectures\":[\"Qwen2ForCausalLM\"],\"model_type\":\"qwen2\"},"
  "\"safetensors\":{\"parameters\":{\"BF16\":3085938688},\"total\":3085938688},"
  "\"siblings\":[{\"rfilename\":\".gitattributes\"},{\"rfilename\":\"LICENSE\"},"
  "{\"rfilename\":\"config.json\"},{\"rfilename\":\"generation_config.json\"},"
  "{\"rfilename\":\"../etc/passwd\"},{\"rfilename\":\"/abs\"},{\"rfilename\":7},"
  "{\"rfilename\":\"" QWEN_SHARD1 "\"},{\"rfilename\":\"" QWEN_SHARD2 "\"}]}";

static HrHubAnswers *
answers_with_info (void)
{
  HrHubAnswers *a = hr_hub_answers_new ("qwen/qwen2.5-3b-instruct", "main");
  g_autoptr(GError) error = NULL;

  g_assert_true (hr_hub_answers_read_model_info (a, ENDPOINT, model_info, strlen (model_info), &error));
  g_assert_no_error (error);
  return a;
}

static void
test_model_info (void)
{
  g_autoptr(HrHubAnswers) a = answers_with_info ();
  HrHubLookup *r = a->result;
  const HrSafetensorsDtype *d;

  g_assert_cmpstr (r->sha, ==, QWEN_SHA);
  /* The Hub spells the name; later requests follow it. */
  g_assert_cmpstr (r->repo, ==, QWEN_REPO);
  g_assert_cmpstr (a->repo, ==, QWEN_REPO);
  g_assert_cmpstr (r->revision, ==, "main");
  g_assert_cmpstr (r->page_url, ==, ENDPOINT "/" QWEN_REPO);
  g_assert_null (r->gated);   /* false, not a string */
  g_assert_cmpstr (r->pipeline_tag, ==, "text-generation");
  g_assert_cmpstr (r->library_name, ==, "transformers");
  g_assert_cmpuint (g_strv_length (r->tags), ==, 6);
  g_assert_cmpstr (r->license, ==, "other");
  g_assert_cmpstr (r->license_name, ==, "qwen-research");
  g_assert_cmpstr (r->architecture, ==, "Qwen2ForCausalLM");
  g_assert_cmpstr (r->model_type, ==, "qwen2");
  g_assert_cmpuint (r->parameters, ==, QWEN_PARAMETERS);
  g_assert_cmpstr (r->parameters_source, ==, "the Hub API (safetensors field)");
  g_assert_true (a->api_parameters);
  g_assert_cmpuint (r->parameters_by_dtype->len, ==, 1);
  d = g_ptr_array_index (r->parameters_by_dtype, 0);
  g_assert_cmpstr (d->dtype, ==, "BF16");
  g_assert_cmpuint (d->parameters, ==, QWEN_PARAMETERS);
  /* 16 bits a parameter: 3,085,938,688 x 2 bytes. */
  g_assert_cmpuint (d->bytes, ==, QWEN_TOTAL_SIZE);

  /* Unsafe and malformed sibling paths are dropped. */
  g_assert_cmpuint (a->siblings->len, ==, 6);
  g_assert_true (hr_hub_answers_has_sibling (a, "config.json"));
  g_assert_false (hr_hub_answers_has_sibling (a, "../etc/passwd"));
  g_assert_false (hr_hub_answers_has_sibling (a, "tokenizer_config.json"));
  g_assert_cmpstr (hr_hub_answers_license_sibling (a), ==, "LICENSE");
  g_assert_null (hr_hub_answers_choose_gguf (a));
}

static void
test_model_info_errors (void)
{
  const char *no_sha = "{\"id\":\"a/b\",\"sha\":\"AA8E\"}";
  const char *upper = "{\"id\":\"a/b\",\"sha\":\"AA8E72537993BA99E69DFAAFA59ED015B17504D1\"}";
  g_autoptr(HrHubAnswers) a = hr_hub_answers_new ("a/b", "main");
  g_autoptr(HrHubAnswers) b = hr_hub_answers_new ("a/b", "main");
  g_autoptr(HrHubAnswers) c = hr_hub_answers_new ("a/b", "main");
  g_autoptr(GError) error = NULL;

  g_assert_false (hr_hub_answers_read_model_info (a, ENDPOINT, "[1,2]", 5, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "The Hub's model information for a/b is not a JSON object: check HF_ENDPOINT");
  g_clear_error (&error);
  g_assert_false (hr_hub_answers_read_model_info (b, ENDPOINT, no_sha, strlen (no_sha), &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "The Hub's model information for a/b has no commit sha: check HF_ENDPOINT");
  g_clear_error (&error);
  g_assert_false (hr_hub_answers_read_model_info (c, ENDPOINT, upper, strlen (upper), &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
}

static void
test_tree (void)
{
  const char *page1 =
    "[{\"type\":\"directory\",\"path\":\"docs\"},"
    "{\"type\":\"file\",\"path\":\"config.json\",\"size\":661},"
    "{\"type\":\"file\",\"path\":\"" QWEN_SHARD1 "\",\"size\":135,"
    "\"lfs\":{\"oid\":\"x\",\"size\":3968658944,\"pointerSize\":135}}]";
  const char *page2 =
    "[{\"type\":\"file\",\"path\":\"" QWEN_SHARD2 "\",\"lfs\":{\"size\":2203268048}},"
    "{\"type\":\"file\",\"path\":\"m-Q4_K_M-00001-of-00002.gguf\",\"size\":100},"
    "{\"type\":\"file\",\"path\":\"m-Q4_K_M-00002-of-00002.gguf\",\"size\":50},"
    "{\"type\":\"file\",\"path\":\"m-Q8_0.gguf\",\"size\":300}]";
  const char *no_size = "[{\"type\":\"file\",\"path\":\"x.bin\"}]";
  g_autoptr(HrHubAnswers) a = hr_hub_answers_new (QWEN_REPO, "main");
  g_autoptr(GError) error = NULL;
  HrHubLookup *r = a->result;
  const HrHubFile *f;
  const HrHubGgufFile *g;

  g_assert_true (hr_hub_answers_read_tree_page (a, page1, strlen (page1), &error));
  g_assert_true (hr_hub_answers_read_tree_page (a, page2, strlen (page2), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (r->files->len, ==, 6);
  /* A file's "size" is the entry's; an LFS file's pointer size is not its size. */
  f = g_ptr_array_index (r->files, 1);
  g_assert_cmpuint (f->size, ==, 135);
  g_assert_true (f->lfs);
  f = g_ptr_array_index (r->files, 2);
  g_assert_cmpuint (f->size, ==, QWEN_SHARD2_BYTES);

  hr_hub_answers_group_files (a);
  g_assert_cmpuint (r->total_bytes, ==, 661 + 135 + QWEN_SHARD2_BYTES + 100 + 50 + 300);
  g_assert_cmpstr (r->largest->path, ==, QWEN_SHARD2);
  g_assert_cmpuint (r->weight_files->len, ==, 2);
  g_assert_cmpuint (r->weight_file_bytes, ==, 135 + QWEN_SHARD2_BYTES);
  /* Two quantizations, the split one's parts summed, sorted by path. */
  g_assert_cmpuint (r->gguf_files->len, ==, 2);
  g = g_ptr_array_index (r->gguf_files, 0);
  g_assert_cmpstr (g->path, ==, "m-Q4_K_M-00001-of-00002.gguf");
  g_assert_cmpstr (g->label, ==, "Q4_K_M");
  g_assert_cmpuint (g->size, ==, 150);
  g_assert_cmpuint (g->parts, ==, 2);
  g = g_ptr_array_index (r->gguf_files, 1);
  g_assert_cmpstr (g->label, ==, "Q8_0");
  g_assert_cmpuint (g->parts, ==, 1);

  g_assert_false (hr_hub_answers_read_tree_page (a, no_size, strlen (no_size), &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "The Hub's file list for " QWEN_REPO " gives no size for x.bin");
  g_clear_error (&error);
  g_assert_false (hr_hub_answers_read_tree_page (a, "{}", 2, &error));
  g_assert_error (error, HR_CORE_ERROR, HR_CORE_ERROR_INVALID_DATA);
}

static void
test_choose_gguf (void)
{
  const char *info =
    "{\"sha\":\"" QWEN_SHA "\",\"gguf\":{\"total\":8030261248,\"architecture\":\"llama\"},"
    "\"siblings\":[{\"rfilename\":\"m-Q8_0.gguf\"},{\"rfilename\":\"m-Q4_K_M-00002-of-00002.gguf\"},"
    "{\"rfilename\":\"m-Q4_K_M-00001-of-00002.gguf\"},{\"rfilename\":\"m-IQ2_XS.gguf\"}]}";
  const char *plain =
    "{\"sha\":\"" QWEN_SHA "\",\"siblings\":[{\"rfilename\":\"b-Q8_0.gguf\"},{\"rfilename\":\"a-Q6_K.gguf\"}]}";
  g_autoptr(HrHubAnswers) a = hr_hub_answers_new ("o/m", "main");
  g_autoptr(HrHubAnswers) b = hr_hub_answers_new ("o/m", "main");
  g_autofree char *chosen = NULL;
  g_autofree char *first = NULL;

  g_assert_true (hr_hub_answers_read_model_info (a, ENDPOINT, info, strlen (info), NULL));
  chosen = hr_hub_answers_choose_gguf (a);
  g_assert_cmpstr (chosen, ==, "m-Q4_K_M-00001-of-00002.gguf");
  hr_hub_answers_read_gguf_field (a);
  g_assert_cmpuint (a->result->parameters, ==, G_GUINT64_CONSTANT (8030261248));
  g_assert_cmpstr (a->result->parameters_source, ==, "the Hub API (gguf field)");
  g_assert_cmpstr (a->result->architecture, ==, "llama");

  g_assert_true (hr_hub_answers_read_model_info (b, ENDPOINT, plain, strlen (plain), NULL));
  first = hr_hub_answers_choose_gguf (b);
  g_assert_cmpstr (first, ==, "a-Q6_K.gguf");
}

static void
test_assemble_and_finish (void)
{
  g_autoptr(HrHubAnswers) a = answers_with_info ();
  g_autoptr(HrHubLookup) l = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *index = g_strdup_printf ("{\"metadata\":{\"total_size\":%" G_GUINT64_FORMAT "},"
                                            "\"weight_map\":{\"model.norm.weight\":\"" QWEN_SHARD2 "\","
                                            "\"model.embed_tokens.weight\":\"" QWEN_SHARD1 "\"}}",
                                            QWEN_TOTAL_SIZE);

  a->config = hub_fixture ("qwen2.5-3b-instruct/config.json");
  a->generation = hub_fixture ("qwen2.5-3b-instruct/generation_config.json");
  a->tokenizer = hub_fixture ("qwen2.5-3b-instruct/tokenizer_config.json");
  a->license = hub_fixture ("qwen2.5-3b-instruct/LICENSE");
  a->license_path = g_strdup ("LICENSE");
  a->index = g_bytes_new (index, strlen (index));

  hr_hub_answers_assemble (a);
  l = hr_hub_answers_finish (a, &error);
  g_assert_no_error (error);
  g_assert_nonnull (l);
  g_assert_null (a->result);

  g_assert_nonnull (l->config);
  g_assert_null (l->config_problem);
  g_assert_true (l->has_tokenizer_max_length);
  g_assert_cmpuint (l->tokenizer_max_length, ==, 131072);
  /* generation_config.json's BOS and EOS win over config.json's. */
  g_assert_cmpint (l->bos_token_id, ==, 151643);
  g_assert_cmpuint (l->eos_token_ids->len, ==, 2);
  g_assert_cmpint (g_array_index (l->eos_token_ids, gint64, 0), ==, 151645);
  g_assert_cmpint (g_array_index (l->eos_token_ids, gint64, 1), ==, 151643);
  g_assert_cmpint (l->kind->kind, ==, HR_HF_KIND_INSTRUCT);
  g_assert_cmpstr (l->kind->base_model, ==, "Qwen/Qwen2.5-3B");
  g_assert_cmpstr (l->license_file, ==, "LICENSE");
  g_assert_cmpstr (l->license_title, ==, "Qwen RESEARCH LICENSE AGREEMENT");
  g_assert_true (l->non_commercial);
  g_assert_cmpstr (l->non_commercial_reason, ==, "LICENSE says “non commercial”");
  g_assert_cmpuint (l->n_tensors, ==, 2);
  g_assert_cmpuint (l->tensor_bytes, ==, QWEN_TOTAL_SIZE);
  /* The API's count stays; the index does not replace it. */
  g_assert_cmpuint (l->parameters, ==, QWEN_PARAMETERS);
  g_assert_cmpstr (l->parameters_source, ==, "the Hub API (safetensors field)");
  g_assert_true (l->has_derived);
  g_assert_cmpuint (l->derived.total, ==, QWEN_PARAMETERS);
  g_assert_cmpfloat (l->derived_difference, ==, 0.0);

  g_assert_nonnull (l->spec);
  g_assert_cmpstr (l->spec->origin, ==, "hf:" QWEN_REPO "@" QWEN_SHA);
  g_assert_cmpuint (l->spec->parameters, ==, QWEN_PARAMETERS);
  g_assert_cmpuint (l->spec->file_bytes, ==, QWEN_TOTAL_SIZE);
  g_assert_cmpstr (l->spec->precision, ==, "bf16");
  g_assert_cmpstr (hr_hub_lookup_weight_precision (l), ==, "bf16");
}

/* Without the API's count, bf16 weights: total_size / 2 bytes. */
static void
test_index_parameters (void)
{
  const char *info = "{\"sha\":\"" QWEN_SHA "\",\"siblings\":[]}";
  g_autoptr(HrHubAnswers) a = hr_hub_answers_new (QWEN_REPO, "main");
  g_autoptr(HrHubLookup) l = NULL;
  g_autofree char *index = g_strdup_printf ("{\"metadata\":{\"total_size\":%" G_GUINT64_FORMAT "},\"weight_map\":{}}",
                                            QWEN_TOTAL_SIZE);
  const HrSafetensorsDtype *d;

  g_assert_true (hr_hub_answers_read_model_info (a, ENDPOINT, info, strlen (info), NULL));
  a->config = hub_fixture ("qwen2.5-3b-instruct/config.json");
  a->index = g_bytes_new (index, strlen (index));
  hr_hub_answers_assemble (a);
  l = hr_hub_answers_finish (a, NULL);
  g_assert_cmpuint (l->parameters, ==, QWEN_PARAMETERS);
  g_assert_cmpstr (l->parameters_source, ==, "model.safetensors.index.json total_size / 2 bytes (bfloat16)");
  d = g_ptr_array_index (l->parameters_by_dtype, 0);
  g_assert_cmpstr (d->dtype, ==, "BF16");
  g_assert_cmpuint (d->bytes, ==, QWEN_TOTAL_SIZE);
}

static void
test_no_config (void)
{
  const char *info = "{\"sha\":\"" QWEN_SHA "\"}";
  g_autoptr(HrHubAnswers) a = hr_hub_answers_new ("o/m", "v1");
  g_autoptr(HrHubLookup) l = NULL;

  g_assert_true (hr_hub_answers_read_model_info (a, ENDPOINT, info, strlen (info), NULL));
  hr_hub_answers_assemble (a);
  l = hr_hub_answers_finish (a, NULL);
  g_assert_null (l->config);
  g_assert_cmpstr (l->config_problem, ==, "the repository has no config.json");
  g_assert_null (l->spec);
  g_assert_cmpuint (l->parameters, ==, 0);
  g_assert_cmpuint (a->siblings->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hub-info/model-info", test_model_info);
  g_test_add_func ("/hub-info/model-info-errors", test_model_info_errors);
  g_test_add_func ("/hub-info/tree", test_tree);
  g_test_add_func ("/hub-info/choose-gguf", test_choose_gguf);
  g_test_add_func ("/hub-info/assemble-and-finish", test_assemble_and_finish);
  g_test_add_func ("/hub-info/index-parameters", test_index_parameters);
  g_test_add_func ("/hub-info/no-config", test_no_config);

  return g_test_run ();
}
