/*
 * The library's front door (include/dalic.h) as a client sees it: status and version
 * tables, the growable params struct, loading pipelines from files, samples and bytes,
 * overrides, clones, the built graph and the registry through the public API only.
 */
#include <criterion/criterion.h>

#include "dalic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TestSuite(boundary_api, .timeout = 60);

#define BOUNDARY_OK(call) cr_assert_eq((call), DALIC_OK, "%s: %s", #call, dalic_last_error())

static dalic_pipeline_t *boundary_load(const char *path, const dalic_pipeline_override_t *o)
{
	dalic_pipeline_t *p = NULL;
	BOUNDARY_OK(dalic_pipeline_load(path, NULL, o, &p));
	cr_assert_not_null(p);
	return p;
}

/* Values of output `o` after one run, as int32 (the outputs used here are int32). */
static int32_t boundary_int_at(dalic_pipeline_t *p, int o, int sample)
{
	const dalic_batch_t *b = dalic_pipeline_output(p, o);
	cr_assert_not_null(b);
	cr_assert_eq(dalic_batch_dtype(b), DALIC_INT32);
	return *(const int32_t *)dalic_batch_data(b, sample);
}

Test(boundary_api, status_table_names_every_code_once)
{
	cr_expect_str_eq(dalic_strerror(DALIC_EINVAL), "invalid argument");
	cr_expect_str_eq(dalic_strerror(DALIC_EEND), "end of data");
	cr_expect_str_eq(dalic_err_name(DALIC_OK), "DALIC_OK");
	cr_expect_str_eq(dalic_err_name(DALIC_EOUTPUT), "DALIC_EOUTPUT");
	cr_expect_str_eq(dalic_err_name(-1000), "DALIC_E?");
	cr_expect_str_eq(dalic_strerror(-1000), "unknown status");
	/* the codes are 0, -1, ..., -16 with no gap: each has its own name */
	int n = 0;
#define BOUNDARY_COUNT(name, value, text) n++;
	DALIC_STATUS_MAP(BOUNDARY_COUNT)
#undef BOUNDARY_COUNT
	cr_assert_eq(n, 17);
	for (int a = 0; a < n; a++)
		for (int b = 0; b < a; b++)
			cr_expect_str_neq(dalic_err_name(-a), dalic_err_name(-b));
}

Test(boundary_api, version_number_and_text_agree)
{
	cr_expect_eq(dalic_version(), (unsigned)DALIC_VERSION_NUMBER);
	cr_expect_eq(DALIC_MAKE_VERSION(0, 1, 0), 256);
	char text[32];
	snprintf(text, sizeof text, "%d.%d.%d", DALIC_VERSION_MAJOR, DALIC_VERSION_MINOR,
	         DALIC_VERSION_PATCH);
	cr_expect_str_eq(dalic_version_string(), text);
	cr_expect_str_eq(DALIC_VERSION, text);
}

Test(boundary_api, params_struct_size_guards_the_abi)
{
	dalic_pipeline_params_t p;
	memset(&p, 0, sizeof p);
	p.batch_size = 2;
	dalic_pipeline_t *pipe = NULL;
	/* never initialised: refused, not read as garbage */
	cr_expect_eq(dalic_pipeline_create(&p, &pipe), DALIC_EINVAL);
	cr_expect(strstr(dalic_last_error(), "dalic_pipeline_params_init"), "%s",
	          dalic_last_error());
	/* a caller built against a newer header: its extra fields must be zero */
	struct {
		dalic_pipeline_params_t p;
		unsigned char newer[24];
	} big;
	memset(&big, 0xff, sizeof big);
	dalic_pipeline_params_init_sized(&big.p, sizeof big);
	cr_expect_eq(big.p.struct_size, sizeof big);
	cr_expect_eq(big.newer[5], 0, "fields the library does not know start at zero");
	cr_expect_eq(big.p.num_threads, 4);
	big.p.batch_size = 2;
	big.p.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	BOUNDARY_OK(dalic_pipeline_create(&big.p, &pipe));
	cr_expect_eq(dalic_pipeline_params(pipe)->struct_size, sizeof(dalic_pipeline_params_t));
	cr_expect_eq(dalic_pipeline_params(pipe)->batch_size, 2);
	dalic_pipeline_destroy(pipe);
	big.newer[7] = 1;
	cr_expect_eq(dalic_pipeline_create(&big.p, &pipe), DALIC_EUNSUPPORTED);
}

Test(boundary_api, executor_mode_names)
{
	dalic_pipeline_params_t p;
	dalic_pipeline_params_init(&p);
	cr_expect_str_eq(dalic_executor_mode_name(&p), "async pipelined");
	p.separated_queues = true;
	cr_expect_str_eq(dalic_executor_mode_name(&p), "async separated pipelined");
	p.exec_async = false;
	cr_expect_str_eq(dalic_executor_mode_name(&p), "pipelined");
	p.exec_pipelined = false;
	cr_expect_str_eq(dalic_executor_mode_name(&p), "simple");
}

Test(boundary_api, samples_load_and_run_with_overrides)
{
	cr_expect_str_eq(dalic_sample_name(0), "arith");
	cr_expect_str_eq(dalic_sample_name(1), "coin");
	cr_expect_null(dalic_sample_name(2));
	cr_expect_not_null(dalic_sample_summary(1));
	dalic_pipeline_override_t o;
	dalic_pipeline_override_init(&o);
	o.params.batch_size = 5;
	o.params.num_threads = 77; /* not in `fields`: ignored */
	o.fields = DALIC_PARAM_BATCH_SIZE;
	dalic_pipeline_t *p = boundary_load("@coin", &o);
	cr_expect_eq(dalic_pipeline_params(p)->batch_size, 5);
	cr_expect_eq(dalic_pipeline_params(p)->num_threads, 4);
	cr_expect_eq(dalic_pipeline_params(p)->seed, 1234);
	BOUNDARY_OK(dalic_pipeline_run(p));
	const dalic_batch_t *b = dalic_pipeline_output(p, 0);
	cr_assert_eq(dalic_batch_num_samples(b), 5);
	for (int i = 0; i < 5; i++) {
		int32_t v = boundary_int_at(p, 0, i);
		cr_expect(v == 0 || v == 1, "coin flip %d gave %d", i, v);
	}
	dalic_pipeline_destroy(p);
}

Test(boundary_api, load_errors_name_what_is_wrong)
{
	dalic_pipeline_t *p = (dalic_pipeline_t *)1;
	cr_expect_eq(dalic_pipeline_load("@nope", NULL, NULL, &p), DALIC_EINVAL);
	cr_expect_null(p);
	cr_expect(strstr(dalic_last_error(), "@nope"), "%s", dalic_last_error());
	cr_expect_eq(dalic_pipeline_load("/nonexistent/x.pb", NULL, NULL, &p), DALIC_EIO);
	cr_expect(strstr(dalic_last_error(), "/nonexistent/x.pb"), "%s", dalic_last_error());
	/* a pipeline name only picks among a script's pipelines */
	cr_expect_eq(dalic_pipeline_load("@coin", "other", NULL, &p), DALIC_EINVAL);
	dalic_pipeline_override_t o;
	dalic_pipeline_override_init(&o);
	o.fields = 1u << 30;
	cr_expect_eq(dalic_pipeline_load("@coin", NULL, &o, &p), DALIC_EUNSUPPORTED);
	cr_expect_eq(dalic_pipeline_load(NULL, NULL, NULL, &p), DALIC_EINVAL);
}

Test(boundary_api, script_loads_with_the_flags_on_top)
{
	dalic_pipeline_override_t o;
	dalic_pipeline_override_init(&o);
	o.params.seed = 99;
	o.params.enable_memory_stats = true;
	o.fields = DALIC_PARAM_SEED | DALIC_PARAM_MEMORY_STATS;
	dalic_pipeline_t *p = boundary_load("samples/scripts/getting_started.py", &o);
	cr_expect_eq(dalic_pipeline_params(p)->seed, 99);
	cr_expect(dalic_pipeline_params(p)->enable_memory_stats);
	cr_expect_gt(dalic_pipeline_num_ops(p), 0);
	cr_expect_not(dalic_pipeline_debug_requested(p));
	dalic_pipeline_destroy(p);
}

/* serialize -> deserialize gives the same pipeline: same outputs for the same seed. */
Test(boundary_api, serialized_bytes_round_trip)
{
	dalic_pipeline_t *p = boundary_load("@arith", NULL);
	void *buf = NULL;
	size_t len = 0;
	BOUNDARY_OK(dalic_pipeline_serialize(p, &buf, &len));
	cr_assert_gt(len, 0);
	cr_expect(dalic_is_serialized_pipeline(buf, len));
	cr_expect_not(dalic_is_serialized_pipeline("hello", 5));
	dalic_pipeline_t *q = NULL;
	BOUNDARY_OK(dalic_pipeline_deserialize(buf, len, NULL, &q));
	BOUNDARY_OK(dalic_pipeline_run(p));
	BOUNDARY_OK(dalic_pipeline_run(q));
	cr_assert_eq(dalic_pipeline_num_outputs(q), 2);
	for (int i = 0; i < 32; i++)
		cr_expect_eq(boundary_int_at(p, 1, i), boundary_int_at(q, 1, i), "sample %d", i);
	/* the description names the operators the bytes hold */
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);
	BOUNDARY_OK(dalic_serialized_describe(buf, len, f));
	fclose(f);
	cr_expect(strstr(text, "random__CoinFlip"), "%s", text);
	free(text);
	free(buf);
	dalic_pipeline_destroy(p);
	dalic_pipeline_destroy(q);
}

Test(boundary_api, clone_takes_new_params_and_ops_are_reachable)
{
	dalic_pipeline_t *p = boundary_load("@arith", NULL);
	cr_assert_eq(dalic_pipeline_num_ops(p), 5);
	dalic_op_t *cast = dalic_pipeline_find_op(p, "__Cast_4");
	cr_assert_not_null(cast);
	cr_expect_eq(cast, dalic_pipeline_op(p, 4));
	cr_expect_str_eq(dalic_op_schema(cast), "Cast");
	cr_expect_null(dalic_pipeline_find_op(p, "__Cast_5"));
	cr_expect_null(dalic_pipeline_op(p, 5));
	dalic_pipeline_params_t params = *dalic_pipeline_params(p);
	params.batch_size = 3;
	dalic_pipeline_t *q = NULL;
	BOUNDARY_OK(dalic_pipeline_clone(p, &params, &q));
	BOUNDARY_OK(dalic_op_set_ints(dalic_pipeline_find_op(q, "__Cast_4"),
	                              "bytes_per_sample_hint", 1, (const int64_t[]){64}));
	BOUNDARY_OK(dalic_pipeline_run(q));
	cr_expect_eq(dalic_batch_num_samples(dalic_pipeline_output(q, 1)), 3);
	cr_expect_eq(dalic_pipeline_params(p)->batch_size, 32, "the original is untouched");
	dalic_pipeline_destroy(q);
	dalic_pipeline_destroy(p);
}

/* @arith: uniform, coin, mul, add, cast, and one MakeContiguous per output. */
Test(boundary_api, built_graph_through_the_api)
{
	dalic_pipeline_t *p = boundary_load("@arith", NULL);
	cr_expect_eq(dalic_pipeline_graph_size(p), 0, "nothing before build");
	BOUNDARY_OK(dalic_pipeline_validate(p));
	cr_expect_eq(dalic_pipeline_graph_size(p), 0, "validation builds nothing");
	BOUNDARY_OK(dalic_pipeline_build(p));
	cr_assert_eq(dalic_pipeline_graph_size(p), 7);
	int add = -1, contiguous = 0;
	for (int i = 0; i < 7; i++) {
		dalic_graph_op_t op;
		BOUNDARY_OK(dalic_pipeline_graph_op(p, i, &op));
		cr_expect_eq(op.stage, DALIC_STAGE_CPU);
		contiguous += op.internal;
		if (!strcmp(op.name, "___ArithmeticGenericOp_3"))
			add = i;
	}
	cr_expect_eq(contiguous, 2);
	cr_assert_geq(add, 0);
	dalic_graph_input_t in;
	BOUNDARY_OK(dalic_pipeline_graph_input(p, add, 1, &in));
	cr_expect_str_eq(in.node, "__CoinFlip_1");
	cr_expect_null(in.arg);
	cr_expect_not(in.gpu);
	dalic_graph_op_t producer;
	BOUNDARY_OK(dalic_pipeline_graph_op(p, in.producer, &producer));
	cr_expect_str_eq(producer.name, "__CoinFlip_1");
	cr_expect_str_eq(producer.schema, "random__CoinFlip");
	cr_expect_str_eq(dalic_pipeline_graph_output(p, in.producer, 0), "__CoinFlip_1");
	cr_expect_null(dalic_pipeline_graph_output(p, in.producer, 1));
	cr_expect_eq(dalic_pipeline_graph_input(p, add, 2, &in), DALIC_EINVAL);
	cr_expect_eq(dalic_pipeline_graph_op(p, 7, &producer), DALIC_EINVAL);
	dalic_pipeline_destroy(p);
}

Test(boundary_api, registry_through_the_api)
{
	int i = dalic_op_schema_find("fn.random.coin_flip");
	cr_assert_geq(i, 0);
	cr_expect_eq(dalic_op_schema_find("CoinFlip"), i);
	cr_expect_eq(dalic_op_schema_find("random__CoinFlip"), i);
	cr_expect_eq(dalic_op_schema_find("no.such.op"), -1);
	dalic_op_schema_t s;
	BOUNDARY_OK(dalic_op_schema_get(i, &s));
	cr_expect_str_eq(s.name, "random__CoinFlip");
	cr_expect_str_eq(s.fn, "random.coin_flip");
	cr_expect_str_eq(s.aliases[0], "CoinFlip");
	cr_expect(s.cpu);
	bool probability = false, seed = false, preserve = false;
	for (int k = 0; k < s.num_args + s.num_common_args; k++) {
		dalic_arg_info_t a;
		BOUNDARY_OK(dalic_op_schema_arg(i, k, &a));
		if (!strcmp(a.name, "probability")) {
			probability = k < s.num_args;
			cr_expect_str_eq(a.default_value, "0.5");
			cr_expect(a.per_sample);
		}
		seed |= !strcmp(a.name, "seed") && k == s.num_args - 1;
		preserve |= !strcmp(a.name, "preserve") && k >= s.num_args;
	}
	cr_expect(probability && seed && preserve);
	dalic_arg_info_t a;
	cr_expect_eq(dalic_op_schema_arg(i, s.num_args + s.num_common_args, &a), DALIC_EINVAL);
	cr_expect_eq(dalic_op_schema_get(dalic_op_schema_count(), &s), DALIC_EINVAL);
}

Test(boundary_api, graph_files_and_memory_totals)
{
	char dir[] = "/tmp/dalic_boundary_XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/g.dot", dir);
	dalic_pipeline_t *p = boundary_load("@coin", NULL);
	BOUNDARY_OK(dalic_pipeline_save_graph(p, path, DALIC_DOT_USE_COLORS));
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	char line[128] = "";
	cr_expect_not_null(fgets(line, sizeof line, f));
	fclose(f);
	cr_expect_str_eq(line, "digraph graphname {\n");
	/* a graph file that cannot be written is an error, not an empty file */
	snprintf(path, sizeof path, "%s/full.svg", dir);
	cr_assert_eq(symlink("/dev/full", path), 0);
	cr_expect_eq(dalic_pipeline_save_graph(p, path, 0), DALIC_EIO);
	cr_expect(strstr(dalic_last_error(), "full.svg"), "%s", dalic_last_error());
	unlink(path);
	snprintf(path, sizeof path, "%s/g.dot", dir);
	unlink(path);
	rmdir(dir);
	dalic_mem_totals_t t;
	BOUNDARY_OK(dalic_pipeline_run(p));
	dalic_mem_totals(DALIC_MEM_HOST, &t);
	cr_expect_gt(t.allocations, 0);
	dalic_mem_totals(DALIC_MEM_KINDS, &t);
	cr_expect_eq(t.allocations, 0);
	dalic_pipeline_destroy(p);
}
