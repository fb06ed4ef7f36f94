/* Unit tests: errors in pipeline scripts are located (file:line:col, source line, caret),
 * use DALI's wording where DALI has one, and never crash. */
#include "tests/testlib/script.h"

#include "engine/schema.h"

TestSuite(script_errors, .timeout = 20);

#define PIPE                                                                                       \
	"from nvidia.dali import pipeline_def, fn, types\n"                                        \
	"import numpy as np\n"                                                                     \
	"@pipeline_def(batch_size=2, num_threads=1, device_id=0)\n"                                \
	"def pipe():\n"

Test(script_errors, unknown_operator_at_the_call)
{
	const char *msg = tl_script_error(PIPE "    jpegs, labels = fn.readers.fil(file_root='x')\n"
	                                       "    return jpegs\n"
	                                       "p = pipe()\n",
	                                  DALIC_EUNKNOWN_OP);
	cr_expect_str_eq(msg, "SCRIPT:5:21: unknown operator fn.readers.fil: not in the dalic "
	                      "operator registry (see `dalic ops`)\n"
	                      "    jpegs, labels = fn.readers.fil(file_root='x')\n"
	                      "                    ^");
}

Test(script_errors, unknown_argument_from_the_registry)
{
	const char *msg = tl_script_error(PIPE "    return fn.random.uniform(rnage=[0, 1])\n"
	                                       "p = pipe()\n",
	                                  DALIC_EUNKNOWN_ARG);
	cr_expect_str_eq(msg, "SCRIPT:5:12: operator '__Uniform_0' (random__Uniform) has no "
	                      "argument 'rnage'\n"
	                      "    return fn.random.uniform(rnage=[0, 1])\n"
	                      "           ^");
}

Test(script_errors, argument_of_the_wrong_type)
{
	const char *msg = tl_script_error(PIPE "    x = 1\n"
	                                       "    return fn.random.uniform(range='wide')\n"
	                                       "p = pipe()\n",
	                                  DALIC_EARG_TYPE);
	EXPECT_STARTS(msg, "SCRIPT:6:12: ");
	EXPECT_HAS(msg, "argument 'range'");
}

Test(script_errors, datanode_for_a_scalar_argument)
{
	const char *msg = tl_script_error(PIPE "    x = fn.random.uniform()\n"
	                                       "    return fn.cast(x, dtype=x)\n"
	                                       "p = pipe()\n",
	                                  DALIC_EARG_TYPE);
	cr_expect_str_eq(msg, "SCRIPT:6:12: TypeError: The argument `dtype` for operator "
	                      "`nvidia.dali.fn.cast` should not be a 'DataNode' but a "
	                      "'DALIDataType'.\n"
	                      "    return fn.cast(x, dtype=x)\n"
	                      "           ^");
}

Test(script_errors, gpu_argument_input)
{
	const char *msg = tl_script_error(PIPE "    x = fn.random.uniform(shape=[4, 4, 3])\n"
	                                       "    a = fn.random.uniform(range=[0, 90])\n"
	                                       "    return fn.rotate(x, angle=a.gpu())\n"
	                                       "p = pipe()\n",
	                                  DALIC_EGRAPH);
	cr_expect_str_eq(msg,
	                 "SCRIPT:7:12: ValueError: Invalid device \"gpu\" for argument "
	                 "'angle' of operator 'nvidia.dali.fn.rotate'. Named arguments must be "
	                 "on CPU.\n"
	                 "    return fn.rotate(x, angle=a.gpu())\n"
	                 "           ^");
}

Test(script_errors, wrong_number_of_inputs)
{
	const char *msg = tl_script_error(PIPE "    return fn.cast(dtype=types.FLOAT)\n"
	                                       "p = pipe()\n",
	                                  DALIC_EGRAPH);
	EXPECT_STARTS(msg, "SCRIPT:5:12: ValueError: Operator nvidia.dali.fn.cast expects from "
	                   "1 to 1 inputs, but received 0.");
}

Test(script_errors, unmodelled_value_inside_a_pipeline)
{
	const char *msg =
	    tl_script_error(PIPE "    return fn.random.uniform(range=np.random.rand(2))\n"
	                         "p = pipe()\n",
	                    DALIC_EUNSUPPORTED);
	EXPECT_STARTS(msg, "SCRIPT:5:36: AttributeError: module 'numpy' has no attribute "
	                   "'random' (dalic's numpy subset models part of it");
}

Test(script_errors, name_error_inside_a_pipeline_stops_the_load)
{
	const char *msg = tl_script_error(PIPE "    x = fn.random.uniform()\n"
	                                       "    return x + offset\n"
	                                       "p = pipe()\n",
	                                  DALIC_EINVAL);
	cr_expect_str_eq(msg, "SCRIPT:6:16: NameError: name 'offset' is not defined\n"
	                      "    return x + offset\n"
	                      "               ^");
}

Test(script_errors, syntax_errors)
{
	const char *msg = tl_script_error("def f()\n    return 1\n", DALIC_EPARSE);
	cr_expect_str_eq(msg, "SCRIPT:1:8: invalid syntax: expected ':', found end of line\n"
	                      "def f()\n"
	                      "       ^");
	msg = tl_script_error("x = 'abc\n", DALIC_EPARSE);
	cr_expect_str_eq(msg, "SCRIPT:1:5: unterminated string literal\nx = 'abc\n    ^");
	msg = tl_script_error("if True:\n        x = 1\n    y = 2\n", DALIC_EPARSE);
	cr_expect_str_eq(msg, "SCRIPT:3:5: unindent does not match any outer indentation level\n"
	                      "    y = 2\n"
	                      "    ^");
	msg = tl_script_error("x = (1,\ny = 2\n", DALIC_EPARSE);
	cr_expect_str_eq(msg, "SCRIPT:1:5: '(' was never closed\nx = (1,\n    ^");
	msg = tl_script_error("if x:\npass\n", DALIC_EPARSE);
	EXPECT_STARTS(msg, "SCRIPT:2:1: expected an indented block after 'if' statement on "
	                   "line 1");
	msg = tl_script_error("x = 1 $ 2\n", DALIC_EPARSE);
	EXPECT_STARTS(msg, "SCRIPT:1:7: invalid character '$' in script");
	msg = tl_script_error("\tx = f(a=1, 2)\n", DALIC_EPARSE);
	cr_expect_str_eq(msg, "SCRIPT:1:2: unexpected indent\n\tx = f(a=1, 2)\n\t^");
	msg = tl_script_error("y = f(a=1, 2)\n", DALIC_EPARSE);
	cr_expect_str_eq(msg, "SCRIPT:1:12: positional argument follows keyword argument\n"
	                      "y = f(a=1, 2)\n"
	                      "           ^");
	msg = tl_script_error("x = f'{a'\n", DALIC_EPARSE);
	EXPECT_STARTS(msg, "SCRIPT:1:8: f-string: expecting '}'");
	msg = tl_script_error("x = 1\nyield x\n", DALIC_EPARSE);
	EXPECT_STARTS(msg, "SCRIPT:2:1: 'yield' outside function");
	msg = tl_script_error("return 5\n", DALIC_EPARSE);
	EXPECT_STARTS(msg, "SCRIPT:1:1: 'return' outside function");
}

Test(script_errors, caret_counts_characters_and_keeps_tabs)
{
	const char *msg = tl_script_error("s = 'é'\nif 1:\n\tx = ééé + $\n", DALIC_EPARSE);
	cr_expect_str_eq(msg, "SCRIPT:3:12: invalid character '$' in script\n"
	                      "\tx = ééé + $\n"
	                      "\t          ^");
}

Test(script_errors, operator_outside_a_pipeline)
{
	const char *msg = tl_script_error("import nvidia.dali.fn as fn\n"
	                                  "x = fn.random.uniform()\n",
	                                  DALIC_EINVAL);
	EXPECT_STARTS(msg, "SCRIPT: the script creates no pipeline; a statement that could not "
	                   "be evaluated was skipped:\n"
	                   "SCRIPT:2:5: nvidia.dali.fn.random.uniform called outside a "
	                   "pipeline definition");
}

Test(script_errors, pipeline_without_outputs_and_unknown_name)
{
	const char *msg =
	    tl_script_error("from nvidia.dali import Pipeline\n"
	                    "pipe = Pipeline(batch_size=1, num_threads=1, device_id=None)\n",
	                    DALIC_EGRAPH);
	EXPECT_STARTS(msg, "SCRIPT:2:8: pipeline 'pipe' has no outputs");
	const char *path =
	    tl_write_temp("script", ".py",
	                  "from nvidia.dali import pipeline_def, fn\n"
	                  "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	                  "def f():\n"
	                  "    return fn.random.uniform()\n"
	                  "a = f()\n");
	dalic_graphdef_t *g = NULL;
	EXPECT_STATUS(dalic_script_load(path, "missing", &g), DALIC_EINVAL);
	EXPECT_ERROR_HAS("no pipeline named 'missing' (the script creates: a)");
	unlink(path);
	EXPECT_STATUS(dalic_script_load("/nonexistent/x.py", NULL, &g), DALIC_EIO);
	cr_expect_null(g);
}

Test(script_errors, pipeline_parameters_are_checked)
{
	const char *msg = tl_script_error(
	    "from nvidia.dali import pipeline_def, fn\n"
	    "@pipeline_def\n"
	    "def f():\n"
	    "    return fn.random.uniform()\n"
	    "a = f(batch_size=2, prefetch_queue_depth={'cpu_size': 2, 'gpu_size': 1},\n"
	    "      exec_async=False)\n",
	    DALIC_EINVAL);
	EXPECT_STARTS(msg, "SCRIPT:5:5: ValueError: `exec_async` must not evaluate to `False` "
	                   "when using separated queues.");
	msg = tl_script_error("from nvidia.dali import pipeline_def, fn\n"
	                      "@pipeline_def\n"
	                      "def f():\n"
	                      "    return fn.random.uniform()\n"
	                      "a = f(batch_size=2, batchsize=3)\n",
	                      DALIC_EINVAL);
	EXPECT_STARTS(msg, "SCRIPT:5:5: TypeError: f() got an unexpected keyword argument "
	                   "'batchsize'");
}

Test(script_errors, indexing_needs_the_subscript_operator)
{
	if (dalic_schema_find("TensorSubscript"))
		return; /* covered by the graph tests once the operator exists */
	const char *msg = tl_script_error(PIPE "    x = fn.random.uniform(shape=[4])\n"
	                                       "    return x[1:3]\n"
	                                       "p = pipe()\n",
	                                  DALIC_EUNSUPPORTED);
	cr_expect_str_eq(msg, "SCRIPT:6:12: indexing a DataNode needs the TensorSubscript "
	                      "operator, which dalic does not support yet\n"
	                      "    return x[1:3]\n"
	                      "           ^");
}

Test(script_errors, runaway_scripts_are_stopped)
{
	const char *msg = tl_script_error(PIPE "    def f(n):\n"
	                                       "        return f(n + 1)\n"
	                                       "    return f(0)\n"
	                                       "p = pipe()\n",
	                                  DALIC_EUNSUPPORTED);
	EXPECT_HAS(msg, "RecursionError: maximum call depth");
	msg = tl_script_error(PIPE "    while True:\n"
	                           "        pass\n"
	                           "p = pipe()\n",
	                      DALIC_EUNSUPPORTED);
	EXPECT_HAS(msg, "SCRIPT:5:5: loop runs more than");
	char deep[2000] = "x = ";
	for (int i = 0; i < 180; i++)
		strcat(deep, "(");
	strcat(deep, "1");
	for (int i = 0; i < 180; i++)
		strcat(deep, ")");
	msg = tl_script_error(deep, DALIC_EUNSUPPORTED);
	EXPECT_HAS(msg, "nested too deeply");
}

Test(script_errors, hostile_values_and_loops_do_not_crash_or_hang)
{
	/* a display loop that cannot progress is skipped as a whole; self-referencing and very
	 * deep containers print, compare and hash without exhausting the stack */
	dalic_graphdef_t *g =
	    tl_script_load("l = [1]\n"
	                   "while l:\n"
	                   "    l.nope()\n"
	                   "r = []\n"
	                   "r.append(r)\n"
	                   "s = str(r)\n"
	                   "t = ()\n"
	                   "for i in range(500):\n"
	                   "    t = (t,)\n"
	                   "same = (t == t, str(t)[:3], {t: 1} if False else 0)\n"
	                   "from nvidia.dali import pipeline_def, fn\n"
	                   "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	                   "def pipe():\n"
	                   "    assert s.startswith('[[[') and s.endswith(']]]'), s\n"
	                   "    assert same[0] and same[1] == '(((', same\n"
	                   "    return fn.random.uniform()\n"
	                   "p = pipe()\n",
	                   NULL);
	cr_expect_eq(g->num_ops, 1);
	dalic_graphdef_free(g);
}
