/* llama-draft-checks.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Part of test-llama.c, included after its server helpers (free_port(),
 * parse_line(), stop_server(), the suite): a draft model (-md) and the
 * MTP heads of a model's own file (--spec-type draft-mtp) against the
 * real llama-server, in a file of their own to keep test-llama.c short.
 */
#pragma once

/* A draft model (-md) beside its target: two small qwen2 shapes with the
 * same 4,096-token vocabulary (lm_tiny_qwen2()), llama-server with its
 * own defaults plus -c, -np where given, --flash-attn and the target's
 * cache type, against the draft terms of %HR_RUNTIME_ERA_LLAMA_SERVER
 * (app/core/runtime/hr-runtime-draft.c): the buffer lines logged after
 * "loading draft model" are the draft's. Its weights, KV and output to
 * the log's resolution, its compute within max(1 MiB, 3 %). */
typedef struct {
  guint32     n_ctx;   /* -c */
  guint32     slots;   /* -np, 0 = not given (auto: 4, unified) */
  gboolean    flash;
  const char *kv;      /* the target's -ctk / -ctv; the draft keeps f16 */
} DraftSetting;

static const DraftSetting draft_settings[] = {
  { 4096, 2, TRUE, "q8_0" },
  { 8192, 0, FALSE, "f16" },
};

static void
run_server_draft (const DraftSetting *s,
                  const char         *target,
                  const char         *draft,
                  Logged             *logged_target,
                  Logged             *logged_draft)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  Logged *into = logged_target;
  char *line;

  memset (logged_target, 0, sizeof *logged_target);
  memset (logged_draft, 0, sizeof *logged_draft);
  logged_target->log = g_string_new (NULL);
  logged_draft->log = g_string_new (NULL);
  for (const char *const *a = (const char *const[]) { suite.server, "--model", target,
                                                     "--host", "127.0.0.1", "--no-webui",
                                                     "--log-verbosity", "4", "--no-log-prefix",
                                                     "--no-log-timestamps", "--no-repack", "--no-warmup",
                                                     "-t", "2", "--cache-type-k", s->kv, "--cache-type-v", s->kv,
                                                     "--flash-attn", s->flash ? "on" : "off", NULL };
       *a != NULL; a++)
    g_ptr_array_add (args, g_strdup (*a));
  /* A draft model, or (NULL) the model's own MTP heads. */
  g_ptr_array_add (args, g_strdup (draft != NULL ? "-md" : "--spec-type"));
  g_ptr_array_add (args, g_strdup (draft != NULL ? draft : "draft-mtp"));
  g_ptr_array_add (args, g_strdup ("--port"));
  g_ptr_array_add (args, g_strdup_printf ("%u", free_port ()));
  g_ptr_array_add (args, g_strdup ("-c"));
  g_ptr_array_add (args, g_strdup_printf ("%u", s->n_ctx));
  if (s->slots > 0)
    {
      g_ptr_array_add (args, g_strdup ("-np"));
      g_ptr_array_add (args, g_strdup_printf ("%u", s->slots));
    }
  g_ptr_array_add (args, NULL);
  server = g_subprocess_launcher_spawnv (launcher, (const char *const *) args->pdata, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server));
  while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error)) != NULL)
    {
      /* common/speculative.cpp common_speculative_init_result */
      if (strstr (line, "loading draft model") != NULL || strstr (line, "creating MTP draft context") != NULL)
        into = logged_draft;
      parse_line (into, line);
      g_free (line);
      if (into->listening)
        break;
    }
  g_assert_no_error (error);
  g_input_stream_close (G_INPUT_STREAM (lines), NULL, NULL);
  stop_server (server);
}

static const HrModelSpec *
tiny_spec (LmModel     *m,
           const char **out_path)
{
  HrModelSpec *spec = g_hash_table_lookup (suite.specs, m->id);

  if (spec == NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HrGgufFile) file = NULL;
      char *path = g_strdup_printf ("%s/%s.gguf", suite.dir, m->id);

      lm_model_write (m, path);
      file = hr_gguf_file_load (path, NULL, &error);
      g_assert_no_error (error);
      spec = hr_gguf_file_to_model_spec (file, m->like, NULL, &error);
      g_assert_no_error (error);
      g_hash_table_insert (suite.paths, g_strdup (m->id), path);
      g_hash_table_insert (suite.specs, g_strdup (m->id), spec);
    }
  lm_model_free (m);
  *out_path = g_hash_table_lookup (suite.paths, spec->name);
  return spec;
}

static void
test_draft (gconstpointer data)
{
  const DraftSetting *s = data;
  const char *target_path = NULL, *draft_path = NULL;
  const HrModelSpec *target = tiny_spec (lm_tiny_qwen2 ("tiny-target", 8, 1024, 2816, 16, 4, 4096), &target_path);
  const HrModelSpec *draft = tiny_spec (lm_tiny_qwen2 ("tiny-draft", 4, 512, 1408, 8, 2, 4096), &draft_path);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  Logged lt, ld;
  double w, kv, c, out;
  HrKvCacheType kv_type;

  g_assert_true (hr_kv_cache_type_from_string (s->kv, &kv_type));
  hr_runtime_inputs_init (&in, target, s->n_ctx);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = s->slots;
  in.kv_type = kv_type;
  in.flash_attention = s->flash ? HR_FLASH_ATTENTION_ON : HR_FLASH_ATTENTION_OFF;
  in.batch = 0;
  in.ubatch = 0;
  in.draft_spec = draft;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);

  run_server_draft (s, target_path, draft_path, &lt, &ld);
  if (!ld.listening)
    g_printerr ("%s%s", lt.log->str, ld.log->str);
  g_assert_true (ld.listening);
  g_assert_cmpuint (lt.n_model, ==, 1);
  g_assert_cmpuint (ld.n_model, ==, 1);
  g_assert_cmpuint (ld.n_kv, ==, 1);
  g_assert_cmpuint (ld.n_compute, ==, 1);
  g_assert_cmpuint (ld.n_output, ==, 1);

  w = (double) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_WEIGHTS) / MIB - ld.model;
  kv = (double) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_KV) / MIB - ld.kv;
  c = (double) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_COMPUTE) / MIB - ld.compute;
  out = (double) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_OUTPUT) / MIB - ld.output;
  g_test_message ("| draft c%u np%u fa%s %s | %.2f / %+.4f | %.2f / %+.4f | %.2f / %+.2f | %.2f / %+.4f |",
                  s->n_ctx, s->slots, s->flash ? "on" : "off", s->kv, ld.model, w, ld.kv, kv, ld.compute, c,
                  ld.output, out);
  /* The target's own buffers do not move with the draft beside it. */
  g_assert_cmpfloat (ABS ((double) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_KV_CACHE) / MIB - lt.kv), <=, 0.0051);
  g_assert_cmpfloat (ABS ((double) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_WEIGHTS) / MIB - lt.model), <=, 0.0051);
  g_assert_cmpfloat (ABS (w), <=, 0.0051);
  g_assert_cmpfloat (ABS (kv), <=, 0.0051);
  g_assert_cmpfloat (ABS (out), <=, 0.0051);
  g_assert_cmpfloat (ABS (c), <=, MAX (1.0, 0.03 * ld.compute));
  g_string_free (lt.log, TRUE);
  g_string_free (ld.log, TRUE);
}

/* --spec-type draft-mtp on that model: the MTP context's KV (the nextn
 * layer alone, f16) and output to the log's resolution; its compute is
 * an estimate on the high side (the model's own buffer), asserted as an
 * upper bound within 2x. */
static void
test_mtp (gconstpointer data)
{
  const DraftSetting *s = data;
  const char *path = NULL;
  const HrModelSpec *spec = tiny_spec (lm_tiny_glm4moe_mtp (), &path);
  g_autoptr(GError) error = NULL;
  HrRuntimeInputs in;
  HrRuntimePrediction p;
  Logged lt, ld;
  double kv, out, c;
  HrKvCacheType kv_type;

  g_assert_true (hr_kv_cache_type_from_string (s->kv, &kv_type));
  hr_runtime_inputs_init (&in, spec, s->n_ctx);
  in.era = HR_RUNTIME_ERA_LLAMA_SERVER;
  in.backend = HR_RUNTIME_BACKEND_CPU;
  in.parallel_slots = s->slots;
  in.kv_type = kv_type;
  in.flash_attention = s->flash ? HR_FLASH_ATTENTION_ON : HR_FLASH_ATTENTION_OFF;
  in.batch = 0;
  in.ubatch = 0;
  in.mtp_layers = 1;
  g_assert_true (hr_runtime_predict (&in, &p, &error));
  g_assert_no_error (error);

  run_server_draft (s, path, NULL, &lt, &ld);
  if (!ld.listening)
    g_printerr ("%s%s", lt.log->str, ld.log->str);
  g_assert_true (ld.listening);
  g_assert_cmpuint (ld.n_model, ==, 0);
  g_assert_cmpuint (ld.n_kv, ==, 1);
  g_assert_cmpuint (ld.n_compute, >=, 1);
  g_assert_cmpuint (ld.n_output, ==, 1);
  kv = (double) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_KV) / MIB - ld.kv;
  out = (double) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_OUTPUT) / MIB - ld.output;
  /* The MTP context reserves its graph again once speculation starts:
   * the same size, logged twice. */
  c = (double) hr_runtime_prediction_term_bytes (&p, HR_RUNTIME_TERM_DRAFT_COMPUTE) / MIB;
  g_test_message ("| mtp c%u np%u fa%s %s | KV %.2f / %+.4f | output %.2f / %+.4f | compute %.2f logged (x%u) / %.2f estimated |",
                  s->n_ctx, s->slots, s->flash ? "on" : "off", s->kv, ld.kv, kv, ld.output, out,
                  ld.compute / ld.n_compute, ld.n_compute, c);
  g_assert_cmpfloat (ABS (kv), <=, 0.0051);
  g_assert_cmpfloat (ABS (out), <=, 0.0051);
  g_assert_cmpfloat (c, >=, ld.compute / ld.n_compute);
  g_assert_cmpfloat (c, <=, 2.0 * ld.compute / ld.n_compute);
  g_string_free (lt.log, TRUE);
  g_string_free (ld.log, TRUE);
}

