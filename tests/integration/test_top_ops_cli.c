/*
 * `dalic top` on a live pipeline this test serves (the server thread answers while the test
 * waits for the command): --once prints the numbers of the iterations run, --json -n 2 two
 * versioned lines; a socket nobody serves is a clear error. `dalic ops` says which device
 * variants are emulated and links DALI's page, in text and --json.
 */
#include "tests/testlib.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

TestSuite(top_ops_cli, .timeout = 120);

Test(top_ops_cli, top_shows_a_live_pipeline)
{
	setenv("DALIC_STATS_INTERVAL_MS", "50", 1);
	const char *path = tl_tmp_path("top.sock");
	dalic_pipeline_t *p = tl_stats_pipeline(&tl_modes[0], 4, false); /* simple: exact counts */
	dalic_op_t *coin = tl_stats_op(p, "random.coin_flip", NULL);
	ASSERT_OK(dalic_op_set_name(coin, "coin"));
	ASSERT_OK(dalic_pipeline_add_output(p, "coin", NULL));
	ASSERT_OK(dalic_stats_serve(p, path));
	tl_stats_run(p, 3);
	tl_cmd_t c = tl_dalic(NULL, "top %s --once", path);
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "iterations: 3  samples: 12");
	EXPECT_HAS(c.out, "executor: simple  batch 4");
	EXPECT_HAS(c.out, "coin");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "top %s --json -n 2", path);
	cr_expect_eq(c.status, 0, "%s", c.out);
	int lines = 0;
	for (char *line = strtok(c.out, "\n"); line; line = strtok(NULL, "\n"), lines++) {
		cJSON *env = cJSON_Parse(line);
		cr_assert(env, "not JSON: %.200s", line);
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(env, "attach_version");
		cr_expect(cJSON_IsNumber(v) && v->valueint == DALIC_STATS_ATTACH_VERSION);
		cJSON_Delete(env);
	}
	cr_expect_eq(lines, 2);
	tl_cmd_free(&c);
	dalic_pipeline_destroy(p);
	c = tl_dalic(NULL, "top %s --once", path);
	cr_expect_eq(c.status, 1);
	EXPECT_HAS(c.out, "cannot connect to");
	tl_cmd_free(&c);
}

Test(top_ops_cli, ops_says_which_variants_are_emulated)
{
	tl_cmd_t c = tl_dalic(NULL, "ops Cast");
	cr_expect_eq(c.status, 0);
	/* no operator of this tree has a CUDA kernel (kernels/cuda is empty) */
	EXPECT_HAS(c.out, "devices: cpu, gpu (emulated: runs the cpu kernel)");
	EXPECT_HAS(c.out, "DALI documentation: https://docs.nvidia.com/deeplearning/dali/"
			  "user-guide/docs/operations/nvidia.dali.fn.cast.html");
	tl_cmd_free(&c);
	/* a plugin's operator is documented under its module */
	c = tl_dalic(NULL, "ops numba_function");
	cr_expect_eq(c.status, 0);
	EXPECT_HAS(c.out, "user-guide/docs/operations/nvidia.dali.plugin.numba.fn.numba_function.html");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "ops --json");
	cr_expect_eq(c.status, 0);
	cJSON *doc = cJSON_Parse(c.out);
	cr_assert(cJSON_IsArray(doc), "not a JSON list");
	bool found = false;
	const cJSON *op;
	cJSON_ArrayForEach(op, doc)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(op, "name");
		if (!cJSON_IsString(name) || strcmp(name->valuestring, "Cast"))
			continue;
		found = true;
		const cJSON *dev = cJSON_GetObjectItemCaseSensitive(op, "devices");
		const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(dev, "cpu");
		const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(dev, "gpu");
		cr_expect(cJSON_IsString(cpu) && !strcmp(cpu->valuestring, "kernel"));
		cr_expect(cJSON_IsString(gpu) && !strcmp(gpu->valuestring, "emulated"));
		cr_expect_null(cJSON_GetObjectItemCaseSensitive(dev, "mixed"));
	}
	cr_expect(found, "Cast is listed");
	cJSON_Delete(doc);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "ops Cast --json");
	cr_expect_eq(c.status, 0);
	doc = cJSON_Parse(c.out);
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(doc, "arguments");
	const cJSON *first = cJSON_GetArrayItem(args, 0);
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(first, "name");
	cr_expect(cJSON_IsString(n) && !strcmp(n->valuestring, "dtype"));
	cJSON_Delete(doc);
	tl_cmd_free(&c);
}
