/*
 * `dalic debug` driven through stdin and --commands, and `dalic run --debug`, through the
 * dalic binary ($DALIC_BIN, set by `make test`; skipped without it). The built-in @arith
 * pipeline (uniform -> x*2 + coin_flip -> cast INT32, seed 1234) is the subject.
 */
#include "tests/testlib.h"

TestSuite(debug_cli, .timeout = 60, .fini = tl_tmpdir_remove);

Test(debug_cli, stdin_drives_stepping_breakpoints_and_inspection)
{
	tl_cmd_t r = tl_dalic("help\n"
	                      "info graph\n"
	                      "step\n"
	                      "\n" /* repeats step */
	                      "print __Uniform_0[0]\n"
	                      "break Cast\n"
	                      "continue\n"
	                      "print ___ArithmeticGenericOp_3\n"
	                      "info node ___ArithmeticGenericOp_3[1]\n"
	                      "next\n"
	                      "info stats\n"
	                      "iter\n"
	                      "quit\n",
	                      "%s", "debug @arith --batch-size 4");
	cr_expect_eq(r.status, 0, "%s", r.out);
	EXPECT_HAS(r.out, "step|s [N]");
	EXPECT_HAS(r.out, "goto N");
	EXPECT_HAS(r.out, "=>  0  __Uniform_0");
	EXPECT_HAS(r.out, "iteration 0, next operator 1/7: __MakeContiguous_CpuToCpu___Uniform_0");
	EXPECT_HAS(r.out, "iteration 0, next operator 2/7: __CoinFlip_1");
	EXPECT_HAS(r.out, "__Uniform_0[0]: shape (), FLOAT");
	EXPECT_HAS(r.out, "breakpoint 1: before Cast");
	EXPECT_HAS(r.out,
	           "breakpoint 1: before __Cast_4\niteration 0, next operator 5/7: __Cast_4");
	EXPECT_HAS(r.out, "DataNodeDebug(\n    name=\"___ArithmeticGenericOp_3\",\n"
	                  "    data=TensorListCPU(\n");
	EXPECT_HAS(r.out, "num_samples=4,\n             shape=[(), (), (), ()]))");
	EXPECT_HAS(r.out, "node ___ArithmeticGenericOp_3: output of ___ArithmeticGenericOp_3 "
	                  "(_ArithmeticGenericOp, cpu), iteration 0");
	EXPECT_HAS(r.out, "sample 1: shape () min ");
	EXPECT_HAS(r.out, "iteration 0 complete; next: iteration 1");
	EXPECT_HAS(r.out, "__Cast_4                       Cast");
	EXPECT_HAS(r.out, "iterations done: 1");
	tl_cmd_free(&r);
}

Test(debug_cli, restart_reproduces_and_goto_jumps)
{
	tl_cmd_t r = tl_dalic("next\nprint __Cast_4\nnext\nrestart\nnext\nprint __Cast_4\n"
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
	EXPECT_HAS(r.out, "iteration 3, next operator 0/7: __Uniform_0");
	tl_cmd_free(&r);
}

Test(debug_cli, malformed_commands_fail_the_script_and_commands_file_runs_first)
{
	tl_cmd_t r = tl_dalic("print nothing_here\nbogus\ncond max >\n", "debug @arith");
	cr_expect_eq(r.status, 1, "%s", r.out);
	EXPECT_HAS(r.out, "no data node or operator named 'nothing_here'");
	EXPECT_HAS(r.out, "unknown command 'bogus'");
	EXPECT_HAS(r.out, "cond: expected a number");
	tl_cmd_free(&r);

	const char *path = tl_write_temp("debug_cmds", "", "break iter 2\ncontinue\niter\n");
	r = tl_dalic("quit\n", "debug @coin --commands %s", path);
	unlink(path);
	cr_expect_eq(r.status, 0, "%s", r.out);
	EXPECT_HAS(r.out, "breakpoint 1: iteration 2 starts");
	EXPECT_HAS(r.out, "iterations done: 2");
	tl_cmd_free(&r);
}

Test(debug_cli, run_debug_writes_the_same_outputs_as_the_full_engine)
{
	const char *dir = tl_tmpdir();
	tl_cmd_t full = tl_dalic(NULL, "run @arith -n 3 --dump %s/full", dir);
	cr_expect_eq(full.status, 0, "%s", full.out);
	tl_cmd_t dbg = tl_dalic(NULL, "run @arith -n 3 --debug --dump %s/debug", dir);
	cr_expect_eq(dbg.status, 0, "%s", dbg.out);
	EXPECT_HAS(dbg.out, "executor: debug (eager");
	EXPECT_HAS(dbg.out, "iterations: 3");
	EXPECT_HAS(dbg.out, "debug_slowdown: ");
	EXPECT_HAS(dbg.out, "output 1: __Cast_4 dtype=INT32");
	char cmd[1024];
	snprintf(cmd, sizeof cmd,
	         "test $(ls %s/full | wc -l) -eq 192 && diff -r %s/full %s/debug >/dev/null", dir,
	         dir, dir);
	cr_expect_eq(system(cmd), 0, "3 iterations x 2 outputs x 32 samples, byte for byte");
	tl_cmd_t js = tl_dalic(NULL, "run @arith -n 2 --debug --json");
	cr_expect_eq(js.status, 0, "%s", js.out);
	EXPECT_HAS(js.out, "\"debug\":\ttrue");
	EXPECT_HAS(js.out, "\"iterations\":\t2");
	tl_cmd_free(&full);
	tl_cmd_free(&dbg);
	tl_cmd_free(&js);
}
