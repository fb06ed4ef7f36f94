/*
 * The subcommands over serialized pipelines, driven through the dalic binary ($DALIC_BIN,
 * set by `make test`; skipped without it): serialize, show and dot accept a .pb wherever they
 * accept a pipeline, flags override the file's parameters, and errors exit non-zero with a
 * message.
 */
#include "frontend/proto/proto.h"
#include "tests/testlib/proto.h"

#include <criterion/parameterized.h>

TestSuite(proto_cli, .timeout = 20, .fini = tl_tmpdir_remove);

#define GOLDEN "tests/data/proto/coin_cast.pb"

Test(proto_cli, serialize_a_pb_with_overrides)
{
	const char *out = tl_tmp_path("a.pb");
	tl_cmd_t c = tl_dalic(NULL, "serialize " GOLDEN " --seed 5 --batch-size 16 -o %s", out);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	dalic_graphdef_t *g;
	ASSERT_OK(dalic_proto_load_file(out, &g));
	cr_expect_eq(g->params.seed, 5, "flags override the file");
	cr_expect_eq(g->params.batch_size, 16);
	cr_expect_eq(g->params.num_threads, 2, "the file's value where no flag is given");
	dalic_graphdef_t *want = tl_proto_coin_cast();
	want->params.seed = 5;
	want->params.batch_size = 16;
	free(g->source);
	g->source = NULL;
	tl_expect_same_def(want, g);
	dalic_graphdef_free(want);
	dalic_graphdef_free(g);
}

Test(proto_cli, show_prints_the_file)
{
	tl_cmd_t c = tl_dalic(NULL, "show " GOLDEN);
	cr_assert_eq(c.status, 0, "%s", c.out);
	const char *text = c.out;
	EXPECT_HAS(text, "batch_size 4\n");
	EXPECT_HAS(text, "device_id -99999 (CPU only)");
	EXPECT_HAS(text, "op 0: 'random__CoinFlip'  inst_name '__CoinFlip_0'  logical_id 0");
	EXPECT_HAS(text, "'shape' = [2, 3]  (list of int64)");
	EXPECT_HAS(text, "'probability' = 0.25  (float)");
	EXPECT_HAS(text, "input 0: '__CoinFlip_0' on 'cpu'");
	EXPECT_HAS(text, "1: 'to_float' on 'cpu'  dtype 9 (FLOAT)  ndim 2");
	tl_cmd_free(&c);
}

Test(proto_cli, show_reports_a_broken_file)
{
	const char *cut = tl_tmp_path("cut.pb");
	size_t len;
	uint8_t *buf = tl_read_file(GOLDEN, &len);
	cr_assert_gt(len, 100);
	tl_write_file(cut, buf, 100);
	tl_cmd_t c = tl_dalic(NULL, "show %s", cut);
	cr_expect_eq(c.status, 1);
	EXPECT_HAS(c.out, "Error parsing serialized pipeline: op[0]: length");
	tl_cmd_free(&c);
	free(buf);
}

Test(proto_cli, dot_from_a_pb)
{
	const char *out = tl_tmp_path("g.dot");
	tl_cmd_t c = tl_dalic(NULL, "dot " GOLDEN " -o %s --use-colors", out);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	char *text = tl_read_file(out, NULL);
	cr_expect(!strncmp(text, "digraph graphname {\n__CoinFlip_0[color=\"blue\"];\n", 48), "%s",
	          text);
	EXPECT_HAS(text, "__CoinFlip_0 -> to_float;\n");
	free(text);
	c = tl_dalic(NULL, "dot " GOLDEN " -o %s", tl_tmp_path("g.pdf"));
	cr_expect_eq(c.status, 1);
	EXPECT_HAS(c.out, ".svg");
	tl_cmd_free(&c);
}

Test(proto_cli, usage_errors)
{
	tl_cmd_t c = tl_dalic(NULL, "serialize " GOLDEN);
	cr_expect_eq(c.status, 2, "no -o");
	EXPECT_HAS(c.out, "-o FILE");
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "dot " GOLDEN " -o x.dot --frobnicate");
	cr_expect_eq(c.status, 2);
	EXPECT_HAS(c.out, "--frobnicate");
	tl_cmd_free(&c);
}

/* Script -> proto -> pipeline: the DALI docs examples in samples/scripts run from their
 * serialized form give exactly the outputs the script gives (same seed, every sample dumped). */
struct script {
	char name[64];
};

ParameterizedTestParameters(proto_cli, script_and_serialized_outputs_match)
{
	static struct script scripts[] = {
	    {"argument_input_flip"},
	    {"arithmetic"},
	    {"conditional_rotate"},
	    {"define_graph"},
	    {"getting_started"},
	    {"helper_conditional"},
	    {"manual_split_merge"},
	    {"nested_dict_conditional"},
	    {"tracing"},
	    {"with_pipeline"},
	};
	return cr_make_param_array(struct script, scripts, sizeof scripts / sizeof *scripts);
}

ParameterizedTest(struct script *s, proto_cli, script_and_serialized_outputs_match)
{
	char script[128];
	snprintf(script, sizeof script, "samples/scripts/%s.py", s->name);
	if (access(script, R_OK))
		cr_skip_test("%s is not there", script);
	const char *pb = tl_tmp_path("script.pb"), *d1 = tl_tmp_path("dump_script"),
	           *d2 = tl_tmp_path("dump_pb");
	tl_cmd_t c = tl_dalic(NULL, "serialize %s --seed 3 -o %s", script, pb);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run %s --seed 3 -n 2 --dump %s", script, d1);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "run %s -n 2 --dump %s", pb, d2);
	cr_assert_eq(c.status, 0, "%s", c.out);
	tl_cmd_free(&c);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "test -n \"$(ls %s)\" && diff -r %s %s >/dev/null", d1, d1, d2);
	cr_expect_eq(system(cmd), 0, "%s: outputs differ between the script and its .pb", script);
}
