/*
 * The subcommands over serialized pipelines, driven through the dalic binary ($DALIC_BIN,
 * set by `make test`; skipped without it): serialize, show and dot accept a .pb wherever they
 * accept a pipeline, flags override the file's parameters, and errors exit non-zero with a
 * message.
 */
#include "frontend/proto/proto.h"
#include "tests/unit/test_proto_util.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

TestSuite(proto_cli, .timeout = 20);

#define GOLDEN "tests/data/proto/coin_cast.pb"

/* Runs `dalic <args>` with stdout+stderr captured; returns the exit status. */
static int dalic(char **output, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int dalic(char **output, const char *fmt, ...)
{
	const char *bin = getenv("DALIC_BIN");
	if (!bin)
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	char args[1024], cmd[1536];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "%s %s 2>&1", bin, args);
	FILE *p = popen(cmd, "r");
	cr_assert(p);
	size_t cap = 1 << 16, n = 0;
	char *out = malloc(cap);
	while ((n += fread(out + n, 1, cap - n - 1, p)) == cap - 1)
		out = realloc(out, cap *= 2);
	out[n] = 0;
	int st = pclose(p);
	if (output)
		*output = out;
	else
		free(out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *tmp(const char *name)
{
	static char buf[4][128];
	static int k;
	char *b = buf[k++ % 4];
	snprintf(b, 128, "/tmp/dalic_cli_%d_%s", (int)getpid(), name);
	return b;
}

Test(proto_cli, serialize_a_pb_with_overrides)
{
	const char *out = tmp("a.pb");
	char *msg;
	cr_assert_eq(dalic(&msg, "serialize " GOLDEN " --seed 5 --batch-size 16 -o %s", out), 0,
	             "%s", msg);
	free(msg);
	dalic_graphdef_t *g;
	cr_assert_eq(dalic_proto_load_file(out, &g), DALIC_OK, "%s", dalic_last_error());
	cr_expect_eq(g->params.seed, 5, "flags override the file");
	cr_expect_eq(g->params.batch_size, 16);
	cr_expect_eq(g->params.num_threads, 2, "the file's value where no flag is given");
	dalic_graphdef_t *want = proto_test_coin_cast();
	want->params.seed = 5;
	want->params.batch_size = 16;
	free(g->source);
	g->source = NULL;
	proto_test_expect_same(want, g);
	dalic_graphdef_free(want);
	dalic_graphdef_free(g);
	unlink(out);
}

Test(proto_cli, show_prints_the_file)
{
	char *text;
	cr_assert_eq(dalic(&text, "show " GOLDEN), 0, "%s", text);
	cr_expect(strstr(text, "batch_size 4\n"), "%s", text);
	cr_expect(strstr(text, "device_id -99999 (CPU only)"), "%s", text);
	cr_expect(strstr(text, "op 0: 'random__CoinFlip'  inst_name '__CoinFlip_0'  logical_id 0"),
	          "%s", text);
	cr_expect(strstr(text, "'shape' = [2, 3]  (list of int64)"), "%s", text);
	cr_expect(strstr(text, "'probability' = 0.25  (float)"), "%s", text);
	cr_expect(strstr(text, "input 0: '__CoinFlip_0' on 'cpu'"), "%s", text);
	cr_expect(strstr(text, "1: 'to_float' on 'cpu'  dtype 9 (FLOAT)  ndim 2"), "%s", text);
	free(text);
}

Test(proto_cli, show_reports_a_broken_file)
{
	const char *cut = tmp("cut.pb");
	size_t len;
	uint8_t *buf = proto_test_read_file(GOLDEN, &len);
	FILE *f = fopen(cut, "wb");
	fwrite(buf, 1, 100, f);
	fclose(f);
	char *text;
	cr_expect_eq(dalic(&text, "show %s", cut), 1);
	cr_expect(strstr(text, "Error parsing serialized pipeline: op[0]: length"), "%s", text);
	free(text);
	free(buf);
	unlink(cut);
}

Test(proto_cli, dot_from_a_pb)
{
	const char *out = tmp("g.dot");
	char *msg;
	cr_assert_eq(dalic(&msg, "dot " GOLDEN " -o %s --use-colors", out), 0, "%s", msg);
	free(msg);
	size_t len;
	char *text = (char *)proto_test_read_file(out, &len);
	text = realloc(text, len + 1);
	text[len] = 0;
	cr_expect(!strncmp(text, "digraph graphname {\n__CoinFlip_0[color=\"blue\"];\n", 48), "%s",
	          text);
	cr_expect(strstr(text, "__CoinFlip_0 -> to_float;\n"), "%s", text);
	free(text);
	unlink(out);
	cr_expect_eq(dalic(&msg, "dot " GOLDEN " -o %s", tmp("g.pdf")), 1);
	cr_expect(strstr(msg, ".svg"), "%s", msg);
	free(msg);
}

Test(proto_cli, usage_errors)
{
	char *msg;
	cr_expect_eq(dalic(&msg, "serialize " GOLDEN), 2, "no -o");
	cr_expect(strstr(msg, "-o FILE"), "%s", msg);
	free(msg);
	cr_expect_eq(dalic(&msg, "dot " GOLDEN " -o x.dot --frobnicate"), 2);
	cr_expect(strstr(msg, "--frobnicate"), "%s", msg);
	free(msg);
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
	char script[128], *msg;
	snprintf(script, sizeof script, "samples/scripts/%s.py", s->name);
	if (access(script, R_OK))
		cr_skip_test("%s is not there", script);
	const char *pb = tmp("script.pb"), *d1 = tmp("dump_script"), *d2 = tmp("dump_pb");
	cr_assert_eq(dalic(&msg, "serialize %s --seed 3 -o %s", script, pb), 0, "%s", msg);
	free(msg);
	cr_assert_eq(dalic(&msg, "run %s --seed 3 -n 2 --dump %s", script, d1), 0, "%s", msg);
	free(msg);
	cr_assert_eq(dalic(&msg, "run %s -n 2 --dump %s", pb, d2), 0, "%s", msg);
	free(msg);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "test -n \"$(ls %s)\" && diff -r %s %s >/dev/null", d1, d1, d2);
	cr_expect_eq(system(cmd), 0, "%s: outputs differ between the script and its .pb", script);
	snprintf(cmd, sizeof cmd, "rm -rf %s %s %s", pb, d1, d2);
	cr_expect_eq(system(cmd), 0);
}
