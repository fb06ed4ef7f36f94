/*
 * `dalic debug` driven through stdin and --commands, and `dalic run --debug`, through the
 * dalic binary ($DALIC_BIN, set by `make test`; skipped without it). The built-in @arith
 * pipeline (uniform -> x*2 + coin_flip -> cast INT32, seed 1234) is the subject.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

TestSuite(debug_cli, .timeout = 60);

typedef struct result {
	char *out;
	int status;
} result_t;

/* Runs `dalic ARGS` with `input` on stdin; output is stdout and stderr together. */
static result_t run(const char *input, const char *args)
{
	const char *bin = getenv("DALIC_BIN");
	if (!bin)
		cr_skip_test("DALIC_BIN is not set (run through `make test`)");
	char in_path[] = "/tmp/dalic_debug_in_XXXXXX";
	int fd = mkstemp(in_path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, input, strlen(input)), (ssize_t)strlen(input));
	close(fd);
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s %s < %s 2>&1", bin, args, in_path);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	result_t r = {calloc(1, 1), 0};
	size_t n = 0;
	char buf[4096];
	size_t k;
	while ((k = fread(buf, 1, sizeof buf, p)) > 0) {
		r.out = realloc(r.out, n + k + 1);
		memcpy(r.out + n, buf, k);
		n += k;
		r.out[n] = 0;
	}
	int st = pclose(p);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	unlink(in_path);
	return r;
}

static void expect_has(const result_t *r, const char *needle)
{
	cr_expect(strstr(r->out, needle), "missing \"%s\" in:\n%s", needle, r->out);
}

Test(debug_cli, stdin_drives_stepping_breakpoints_and_inspection)
{
	result_t r = run("help\n"
	                 "info graph\n"
	                 "step\n"
	                 "\n" /* repeats step */
	                 "print __Uniform_0[0]\n"
	                 "break Cast\n"
	                 "continue\n"
	                 "print __ArithmeticGenericOp_3\n"
	                 "info node __ArithmeticGenericOp_3[1]\n"
	                 "next\n"
	                 "info stats\n"
	                 "iter\n"
	                 "quit\n",
	                 "debug @arith --batch-size 4");
	cr_expect_eq(r.status, 0, "%s", r.out);
	expect_has(&r, "step|s [N]");
	expect_has(&r, "goto N");
	expect_has(&r, "=>  0  __Uniform_0");
	expect_has(&r, "iteration 0, next operator 1/7: __MakeContiguous_CpuToCpu_0");
	expect_has(&r, "iteration 0, next operator 2/7: __CoinFlip_1");
	expect_has(&r, "__Uniform_0[0]: shape (), FLOAT");
	expect_has(&r, "breakpoint 1: before Cast");
	expect_has(&r, "breakpoint 1: before __Cast_4\niteration 0, next operator 5/7: __Cast_4");
	expect_has(&r, "DataNodeDebug(\n    name=\"__ArithmeticGenericOp_3\",\n"
	               "    data=TensorListCPU(\n");
	expect_has(&r, "num_samples=4,\n             shape=[(), (), (), ()]))");
	expect_has(&r, "node __ArithmeticGenericOp_3: output of __ArithmeticGenericOp_3 "
	               "(ArithmeticGenericOp, cpu), iteration 0");
	expect_has(&r, "sample 1: shape () min ");
	expect_has(&r, "iteration 0 complete; next: iteration 1");
	expect_has(&r, "__Cast_4                       Cast");
	expect_has(&r, "iterations done: 1");
	free(r.out);
}

Test(debug_cli, restart_reproduces_and_goto_jumps)
{
	result_t r = run("next\nprint __Cast_4\nnext\nrestart\nnext\nprint __Cast_4\n"
	                 "goto 3\niter\nnext\nprint __Cast_4\ngoto 3\nnext\nprint __Cast_4\n",
	                 "debug @arith --batch-size 6 --seed 7");
	cr_expect_eq(r.status, 0, "%s", r.out);
	/* the four prints: iteration 0 twice, then iteration 3 twice */
	char *first = strstr(r.out, "DataNodeDebug(");
	cr_assert_not_null(first, "%s", r.out);
	char *second = strstr(strstr(r.out, "restarted"), "DataNodeDebug(");
	cr_assert_not_null(second);
	size_t len = strstr(first, "]))") - first;
	cr_expect_eq(strncmp(first, second, len), 0, "iteration 0 after restart:\n%s", r.out);
	char *third = strstr(second + 1, "DataNodeDebug(");
	cr_assert_not_null(third);
	char *fourth = strstr(third + 1, "DataNodeDebug(");
	cr_assert_not_null(fourth);
	len = strstr(third, "]))") - third;
	cr_expect_eq(strncmp(third, fourth, len), 0, "iteration 3 twice:\n%s", r.out);
	cr_expect_neq(strncmp(first, third, len), 0, "iterations 0 and 3 differ");
	expect_has(&r, "iteration 3, next operator 0/7: __Uniform_0");
	free(r.out);
}

Test(debug_cli, malformed_commands_fail_the_script_and_commands_file_runs_first)
{
	result_t r = run("print nothing_here\nbogus\ncond max >\n", "debug @arith");
	cr_expect_eq(r.status, 1, "%s", r.out);
	expect_has(&r, "no data node or operator named 'nothing_here'");
	expect_has(&r, "unknown command 'bogus'");
	expect_has(&r, "cond: expected a number");
	free(r.out);

	char path[] = "/tmp/dalic_debug_cmds_XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	const char *cmds = "break iter 2\ncontinue\niter\n";
	cr_assert_eq(write(fd, cmds, strlen(cmds)), (ssize_t)strlen(cmds));
	close(fd);
	char args[256];
	snprintf(args, sizeof args, "debug @coin --commands %s", path);
	r = run("quit\n", args);
	unlink(path);
	cr_expect_eq(r.status, 0, "%s", r.out);
	expect_has(&r, "breakpoint 1: iteration 2 starts");
	expect_has(&r, "iterations done: 2");
	free(r.out);
}

Test(debug_cli, run_debug_writes_the_same_outputs_as_the_full_engine)
{
	char dir[] = "/tmp/dalic_debug_run_XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char args[512];
	snprintf(args, sizeof args, "run @arith -n 3 --dump %s/full", dir);
	result_t full = run("", args);
	cr_expect_eq(full.status, 0, "%s", full.out);
	snprintf(args, sizeof args, "run @arith -n 3 --debug --dump %s/debug", dir);
	result_t dbg = run("", args);
	cr_expect_eq(dbg.status, 0, "%s", dbg.out);
	expect_has(&dbg, "executor: debug (eager");
	expect_has(&dbg, "iterations: 3");
	expect_has(&dbg, "debug_slowdown: ");
	expect_has(&dbg, "output 1: __Cast_4 dtype=INT32");
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
	         "test $(ls %s/full | wc -l) -eq 192 && diff -r %s/full %s/debug >/dev/null", dir,
	         dir, dir);
	cr_expect_eq(system(cmd), 0, "3 iterations x 2 outputs x 32 samples, byte for byte");
	snprintf(args, sizeof args, "run @arith -n 2 --debug --json");
	result_t js = run("", args);
	cr_expect_eq(js.status, 0, "%s", js.out);
	cr_expect(strstr(js.out, "\"debug\":\ttrue") && strstr(js.out, "\"iterations\":\t2"), "%s",
	          js.out);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
	free(full.out);
	free(dbg.out);
	free(js.out);
}
