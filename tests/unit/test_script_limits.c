/* Unit tests: a statement the interpreter cannot complete is an error at its file:line:col,
 * never a skip or a partial value; long chains (200k-term sums, long concatenations,
 * attribute chains) evaluate in linear time and bounded stack; deep nesting is a clean
 * "nested too deeply"; absurd operator paths are an unknown-operator error at the call. */
#include "tests/testlib/script.h"

TestSuite(script_limits, .timeout = 60);

#define TAIL(batch)                                                                                \
	"from nvidia.dali import pipeline_def, fn\n"                                               \
	"@pipeline_def(batch_size=" batch ", num_threads=1, device_id=None)\n"                     \
	"def pipe():\n"                                                                            \
	"    return fn.random.uniform()\n"                                                         \
	"p = pipe()\n"

/* A script of `head`, then `n` copies of `term` joined by `sep`, then `tail` (malloc). */
static char *lim_repeat(const char *head, const char *term, const char *sep, int n,
                        const char *tail)
{
	size_t cap = strlen(head) + (strlen(term) + strlen(sep)) * (size_t)n + strlen(tail) + 1;
	char *s = malloc(cap), *p = s;
	cr_assert_not_null(s);
	p = stpcpy(p, head);
	for (int i = 0; i < n; i++)
		p = stpcpy(stpcpy(p, i ? sep : ""), term);
	strcpy(p, tail);
	return s;
}

Test(script_limits, a_module_loop_at_the_iteration_cap_is_an_error)
{
	/* was: the loop skipped and batch_size read as 100000 */
	const char *msg = tl_script_error("x = 0\n"
	                           "while True:\n"
	                           "    x += 1\n" TAIL("x"),
	                           DALIC_EUNSUPPORTED);
	cr_expect_str_eq(msg, "SCRIPT:2:1: loop runs more than 100000 iterations\n"
	                      "while True:\n"
	                      "^");
}

Test(script_limits, a_refused_range_is_an_error_not_a_zero)
{
	/* was: x stayed 0 where Python gives 10**8 */
	const char *msg = tl_script_error("x = 0\n"
	                           "for i in range(10**8):\n"
	                           "    x += 1\n" TAIL("x + 1"),
	                           DALIC_EUNSUPPORTED);
	cr_expect_str_eq(msg, "SCRIPT:2:10: range() with more than 100000 items\n"
	                      "for i in range(10**8):\n"
	                      "         ^");
}

Test(script_limits, other_limits_stop_module_level_code_too)
{
	const char *msg = tl_script_error("def f(n):\n"
	                           "    return f(n + 1)\n"
	                           "x = f(0)\n" TAIL("2"),
	                           DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg, "SCRIPT:2:12: RecursionError: maximum call depth (150) exceeded") ==
	              msg,
	          "%s", msg);
	msg = tl_script_error("x = 2 ** 62\n"
	               "y = x * 4\n" TAIL("2"),
	               DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg, "SCRIPT:2:5: integer overflow (dalic supports 64-bit integers)") ==
	              msg,
	          "%s", msg);
	msg = tl_script_error("n = 0\n"
	               "for i in range(60000):\n"
	               "    for j in range(60000):\n"
	               "        n += 1\n" TAIL("2"),
	               DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg, "the script runs too long (more than 5000000 evaluation steps)"),
	          "%s", msg);
	msg = tl_script_error("s = 'ab' * (2 ** 40)\n" TAIL("2"), DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg, "SCRIPT:1:5: string repetition too large") == msg, "%s", msg);
}

Test(script_limits, a_skipped_statement_leaves_no_stale_value)
{
	/* display code may fail and be skipped, but what it would have set is unset: the
	 * pipeline cannot read the value from before the statement */
	const char *msg = tl_script_error("x = 4\n"
	                           "x = undefined_helper()\n"
	                           "from nvidia.dali import pipeline_def, fn\n"
	                           "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                           "def pipe():\n"
	                           "    return fn.random.uniform(shape=[x])\n"
	                           "p = pipe()\n",
	                           DALIC_EINVAL);
	cr_expect(strstr(msg, "SCRIPT:6:37: NameError: name 'x' is not defined (the statement at "
	                      "line 2 that sets it failed and was skipped)") == msg,
	          "%s", msg);
	/* names the failing statement does not bind stay usable */
	dalic_graphdef_t *g = tl_script_load("x = 3\n"
	                              "y = undefined_helper()\n" TAIL("x"),
	                              NULL);
	cr_expect_eq(g->params.batch_size, 3);
	dalic_graphdef_free(g);
}

Test(script_limits, long_sums_and_concatenations_evaluate)
{
	char *s = lim_repeat("x = ", "1", "+", 200000, "\n" TAIL("x // 100000"));
	dalic_graphdef_t *g = tl_script_load(s, NULL);
	cr_expect_eq(g->params.batch_size, 2);
	dalic_graphdef_free(g);
	free(s);
	/* inside a function too (scope analysis walks the chain), with strings and lists */
	s = lim_repeat("def f():\n    return len(", "'ab'", " + ", 100000,
	               ")\n" TAIL("f() // 50000"));
	g = tl_script_load(s, NULL);
	cr_expect_eq(g->params.batch_size, 4);
	dalic_graphdef_free(g);
	free(s);
	s = lim_repeat("x = len(", "[7]", " + ", 100000, ")\n" TAIL("x // 20000"));
	g = tl_script_load(s, NULL);
	cr_expect_eq(g->params.batch_size, 5);
	dalic_graphdef_free(g);
	free(s);
	/* a concatenation chain never changes its operands */
	g = tl_script_load("a = 'x'\n"
	            "l = [1]\n"
	            "b = a + a + a\n"
	            "m = l + l + l\n"
	            "n = m + [2]\n"
	            "ok = (a, b, l, m, n) == ('x', 'xxx', [1], [1, 1, 1], [1, 1, 1, 2])\n" TAIL(
	                "7 if ok else 1"),
	            NULL);
	cr_expect_eq(g->params.batch_size, 7);
	dalic_graphdef_free(g);
}

Test(script_limits, long_attribute_subscript_and_call_chains_evaluate)
{
	char *s = lim_repeat("class C:\n    pass\nc = C()\nc.a = c\nc.n = 3\nx = c", ".a", "",
	                     100000, ".n\n" TAIL("x"));
	dalic_graphdef_t *g = tl_script_load(s, NULL);
	cr_expect_eq(g->params.batch_size, 3);
	dalic_graphdef_free(g);
	free(s);
	s = lim_repeat("l = [6]\nl.append(l)\nx = l", "[1]", "", 100000, "[0]\n" TAIL("x"));
	g = tl_script_load(s, NULL);
	cr_expect_eq(g->params.batch_size, 6);
	dalic_graphdef_free(g);
	free(s);
	s = lim_repeat("def f():\n    return f\nx = f", "()", "", 50000, "\n" TAIL("2"));
	g = tl_script_load(s, NULL);
	dalic_graphdef_free(g);
	free(s);
}

Test(script_limits, deep_nesting_is_a_clean_error)
{
	static const struct {
		const char *open, *close, *msg;
	} cases[] = {
	    {"(", ")", "brackets nested too deeply"},
	    {"[", "]", "brackets nested too deeply"},
	    {"-", "", "expression or block nested too deeply (more than 150 levels)"},
	    {"not ", "", "expression or block nested too deeply (more than 150 levels)"},
	    {"lambda: ", "", "expression or block nested too deeply (more than 150 levels)"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *head = lim_repeat("x = ", cases[i].open, "", 100000, "1");
		char *s = lim_repeat(head, cases[i].close, "", 100000, "\n" TAIL("2"));
		const char *msg = tl_script_error(s, DALIC_EUNSUPPORTED);
		cr_expect(strstr(msg, cases[i].msg), "%s: %s", cases[i].open, msg);
		cr_expect(strstr(msg, "SCRIPT:1:") == msg, "%s", msg);
		free(head);
		free(s);
	}
	char *s = lim_repeat("x = ", "1", " ** ", 100000, "\n" TAIL("2"));
	const char *msg = tl_script_error(s, DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg, "nested too deeply"), "%s", msg);
	free(s);
}

Test(script_limits, absurd_operator_paths_are_unknown_operators)
{
	static const int lengths[] = {300, 100000};
	for (int k = 0; k < 2; k++) {
		char *s = lim_repeat("from nvidia.dali import pipeline_def, fn\n"
		                     "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
		                     "def pipe():\n"
		                     "    return fn",
		                     ".a", "", lengths[k], "()\np = pipe()\n");
		const char *msg = tl_script_error(s, DALIC_EUNKNOWN_OP);
		/* the first component that names no operator or namespace is the error */
		cr_expect(strstr(msg, "SCRIPT:4:12: unknown operator fn.a: ") == msg, "%s", msg);
		/* the caret stays visible under a long line */
		cr_expect(strstr(msg, "\n    return fn.a.a.a"), "%s", msg);
		cr_expect(strstr(msg, "...\n           ^"), "%s", msg);
		free(s);
	}
}

Test(script_limits, a_long_line_keeps_its_caret)
{
	/* inside the pipeline function, where an error stops the load */
	char *s =
	    lim_repeat("from nvidia.dali import pipeline_def, fn\n"
	               "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	               "def pipe():\n"
	               "    x = ",
	               "1", "+", 3000, " + nope\n    return fn.random.uniform()\np = pipe()\n");
	const char *msg = tl_script_error(s, DALIC_EINVAL);
	cr_expect(strstr(msg, "SCRIPT:4:6011: NameError: name 'nope' is not defined\n") == msg,
	          "%s", msg);
	const char *line = strstr(msg, "\n...");
	cr_assert_not_null(line, "%s", msg);
	const char *caret = strchr(line + 1, '\n');
	cr_assert_not_null(caret);
	/* the caret sits under the 'n' of nope */
	size_t col = strlen(caret + 1) - 1;
	cr_expect_eq(line[1 + col], 'n', "%s", msg);
	free(s);
}

Test(script_limits, elif_chains_are_bounded_and_run_flat)
{
	char *s = lim_repeat("x = 900\nif x == -1:\n    x = 0\n", "elif x == 900:\n    x = 9\n",
	                     "elif x == -2:\n    x = 0\n", 450, "else:\n    x = 1\n" TAIL("x"));
	dalic_graphdef_t *g = tl_script_load(s, NULL);
	cr_expect_eq(g->params.batch_size, 9);
	dalic_graphdef_free(g);
	free(s);
	s = lim_repeat("x = 1\nif x == -1:\n    x = 0\n", "elif x == 5:\n    x = 9\n", "", 1500,
	               TAIL("x"));
	const char *msg = tl_script_error(s, DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg, "SCRIPT:2004:1: more than 1000 'elif' branches in a row") == msg,
	          "%s", msg);
	free(s);
}
