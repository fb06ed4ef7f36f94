/* Unit tests: conditionals in pipeline scripts lower to DALI's split / merge structure
 * (docs/dali-behaviour.md §5) — scopes, nested ifs, returns, and / or / not, merged structures, errors. */
#include "tests/testlib/script.h"

#include <criterion/redirect.h>

TestSuite(script_cond, .timeout = 20);

#define HEADER                                                                                     \
	"from nvidia.dali import pipeline_def, fn, types\n"                                        \
	"@pipeline_def(batch_size=4, num_threads=1, device_id=None, enable_conditionals=True)\n"   \
	"def pipe():\n"                                                                            \
	"    x = fn.random.uniform()\n"                                                            \
	"    p = fn.random.coin_flip(dtype=types.BOOL)\n"

Test(script_cond, if_else_splits_outer_values_and_merges)
{
	dalic_graphdef_t *g = tl_script_load(HEADER "    if p:\n"
	                                            "        y = x + 1\n"
	                                            "    else:\n"
	                                            "        y = x\n"
	                                            "    return y\n"
	                                            "q = pipe()\n",
	                                     NULL);
	cr_expect_str_eq(tl_def_ops(g), "random__Uniform:__Uniform_0 random__CoinFlip:__CoinFlip_1 "
	                                "_conditional__Split:__Split_2 "
	                                "_ArithmeticGenericOp:___ArithmeticGenericOp_3 "
	                                "_conditional__Merge:__Merge_4");
	cr_expect_str_eq(tl_def_inputs(g, 2), "__Uniform_0/cpu predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_arg(g, 2, "_if_stmt"), "True");
	cr_expect_str_eq(tl_def_arg(g, 2, "_module"), "'nvidia.dali.fn._conditional'");
	cr_expect_str_eq(tl_def_inputs(g, 3), "__Split_2[0]/cpu");
	cr_expect_str_eq(tl_def_inputs(g, 4),
	                 "___ArithmeticGenericOp_3/cpu __Split_2[1]/cpu predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_outputs(g), "__Merge_4/cpu");
	dalic_graphdef_free(g);
}

Test(script_cond, nested_if_splits_the_predicate_and_caches_splits)
{
	dalic_graphdef_t *g =
	    tl_script_load(HEADER "    p2 = fn.random.coin_flip(dtype=types.BOOL)\n"
	                          "    if p:\n"
	                          "        if p2:\n"
	                          "            y = x + 1\n"
	                          "        else:\n"
	                          "            y = x\n"
	                          "        unused = 5\n"
	                          "    else:\n"
	                          "        y = x - 1\n"
	                          "    return y\n"
	                          "q = pipe()\n",
	                   NULL);
	cr_expect_str_eq(
	    tl_def_ops(g),
	    "random__Uniform:__Uniform_0 random__CoinFlip:__CoinFlip_1 "
	    "random__CoinFlip:__CoinFlip_2 _conditional__Split:__Split_3 "
	    "_conditional__Split:__Split_4 _conditional__Split:__Split_5 "
	    "_ArithmeticGenericOp:___ArithmeticGenericOp_6 _conditional__Merge:__Merge_7 "
	    "_ArithmeticGenericOp:___ArithmeticGenericOp_8 _conditional__Merge:__Merge_9");
	cr_expect_str_eq(tl_def_inputs(g, 3), "__CoinFlip_2/cpu predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_inputs(g, 4), "__Uniform_0/cpu predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_inputs(g, 5), "__Split_4[0]/cpu predicate=__Split_3[0]");
	cr_expect_str_eq(tl_def_inputs(g, 7), "___ArithmeticGenericOp_6/cpu __Split_5[1]/cpu "
	                                      "predicate=__Split_3[0]");
	cr_expect_str_eq(tl_def_inputs(g, 8), "__Split_4[1]/cpu");
	cr_expect_str_eq(tl_def_inputs(g, 9),
	                 "__Merge_7/cpu ___ArithmeticGenericOp_8/cpu predicate=__CoinFlip_1");
	dalic_graphdef_free(g);
}

Test(script_cond, and_or_not_lower_to_validate_split_merge)
{
	dalic_graphdef_t *g =
	    tl_script_load(HEADER "    b = fn.random.coin_flip(dtype=types.BOOL)\n"
	                          "    return p and b, p or not b\n"
	                          "q = pipe()\n",
	                   NULL);
	cr_expect_str_eq(
	    tl_def_ops(g),
	    "random__Uniform:__Uniform_0 random__CoinFlip:__CoinFlip_1 "
	    "random__CoinFlip:__CoinFlip_2 _conditional__ValidateLogical:__ValidateLogical_3 "
	    "_conditional__Split:__Split_4 _conditional__ValidateLogical:__ValidateLogical_5 "
	    "_conditional__Split:__Split_6 _conditional__Merge:__Merge_7 "
	    "_conditional__ValidateLogical:__ValidateLogical_8 _conditional__Split:__Split_9 "
	    "_conditional__Split:__Split_10 _conditional__Not_:__Not__11 "
	    "_conditional__ValidateLogical:__ValidateLogical_12 _conditional__Merge:__Merge_13");
	cr_expect_str_eq(tl_def_arg(g, 3, "expression_name"), "'and'");
	cr_expect_str_eq(tl_def_arg(g, 3, "expression_side"), "'left'");
	cr_expect_str_eq(tl_def_inputs(g, 4), "__CoinFlip_2/cpu predicate=__ValidateLogical_3");
	cr_expect_str_eq(tl_def_arg(g, 5, "expression_side"), "'right'");
	cr_expect_str_eq(tl_def_inputs(g, 6),
	                 "__ValidateLogical_3/cpu predicate=__ValidateLogical_3");
	cr_expect_str_eq(tl_def_inputs(g, 7), "__ValidateLogical_5/cpu __Split_6[1]/cpu "
	                                      "predicate=__ValidateLogical_3");
	cr_expect_str_eq(tl_def_inputs(g, 13), "__Split_9[0]/cpu __ValidateLogical_12/cpu "
	                                       "predicate=__ValidateLogical_8");
	cr_expect_str_eq(tl_def_outputs(g), "__Merge_7/cpu __Merge_13/cpu");
	dalic_graphdef_free(g);
}

Test(script_cond, returns_in_both_branches_merge_do_return_and_retval)
{
	dalic_graphdef_t *g = tl_script_load(HEADER "    if p:\n"
	                                            "        return x + 1\n"
	                                            "    return x\n"
	                                            "q = pipe()\n",
	                                     NULL);
	cr_expect_str_eq(
	    tl_def_ops(g),
	    "random__Uniform:__Uniform_0 random__CoinFlip:__CoinFlip_1 "
	    "_conditional__Split:__Split_2 _ArithmeticGenericOp:___ArithmeticGenericOp_3 "
	    "Constant:__Constant_4 _conditional__Split:__Split_5 Constant:__Constant_6 "
	    "_conditional__Split:__Split_7 _conditional__Merge:__Merge_8 "
	    "_conditional__Merge:__Merge_9");
	cr_expect_str_eq(tl_def_arg(g, 4, "idata"), "[1]");
	cr_expect_str_eq(tl_def_arg(g, 4, "dtype"), "11");
	cr_expect_str_eq(tl_def_inputs(g, 8),
	                 "__Split_5[0]/cpu __Split_7[1]/cpu predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_inputs(g, 9), "___ArithmeticGenericOp_3/cpu __Split_2[1]/cpu "
	                                      "predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_outputs(g), "__Merge_9/cpu");
	dalic_graphdef_free(g);
}

Test(script_cond, nested_structures_merge_by_sorted_keys_and_constants_promote)
{
	dalic_graphdef_t *g = tl_script_load(HEADER "    if p:\n"
	                                            "        out = {'b': (x, 1.5), 'a': x * 2}\n"
	                                            "    else:\n"
	                                            "        out = {'a': x, 'b': (x, 2.5)}\n"
	                                            "    return out['a'], out['b'][1]\n"
	                                            "q = pipe()\n",
	                                     NULL);
	/* keys in sorted order: 'a' then 'b' (x, then the constant) */
	cr_expect_str_eq(
	    tl_def_ops(g),
	    "random__Uniform:__Uniform_0 random__CoinFlip:__CoinFlip_1 "
	    "_conditional__Split:__Split_2 _ArithmeticGenericOp:___ArithmeticGenericOp_3 "
	    "Constant:__Constant_4 _conditional__Split:__Split_5 Constant:__Constant_6 "
	    "_conditional__Split:__Split_7 _conditional__Merge:__Merge_8 "
	    "_conditional__Merge:__Merge_9 _conditional__Merge:__Merge_10");
	cr_expect_str_eq(tl_def_arg(g, 4, "fdata"), "[1.5]");
	cr_expect_str_eq(tl_def_arg(g, 6, "fdata"), "[2.5]");
	cr_expect_str_eq(tl_def_inputs(g, 8), "___ArithmeticGenericOp_3/cpu __Split_2[1]/cpu "
	                                      "predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_inputs(g, 9),
	                 "__Split_2[0]/cpu __Split_2[1]/cpu predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_inputs(g, 10),
	                 "__Split_5[0]/cpu __Split_7[1]/cpu predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_outputs(g), "__Merge_8/cpu __Merge_10/cpu");
	dalic_graphdef_free(g);
}

Test(script_cond, inputless_operator_in_a_branch_is_split)
{
	dalic_graphdef_t *g = tl_script_load(HEADER "    if p:\n"
	                                            "        y = fn.random.uniform(range=[5, 6])\n"
	                                            "    else:\n"
	                                            "        y = x\n"
	                                            "    return y\n"
	                                            "q = pipe()\n",
	                                     NULL);
	cr_expect_str_eq(tl_def_ops(g),
	                 "random__Uniform:__Uniform_0 random__CoinFlip:__CoinFlip_1 "
	                 "random__Uniform:__Uniform_2 _conditional__Split:__Split_3 "
	                 "_conditional__Split:__Split_4 _conditional__Merge:__Merge_5");
	cr_expect_str_eq(tl_def_inputs(g, 3), "__Uniform_2/cpu predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_inputs(g, 4), "__Uniform_0/cpu predicate=__CoinFlip_1");
	cr_expect_str_eq(tl_def_inputs(g, 5),
	                 "__Split_3[0]/cpu __Split_4[1]/cpu predicate=__CoinFlip_1");
	dalic_graphdef_free(g);
}

Test(script_cond, python_if_takes_one_branch)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali import pipeline_def, fn\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=None,\n"
	                   "              enable_conditionals=True)\n"
	                   "def pipe(flag):\n"
	                   "    x = fn.random.uniform()\n"
	                   "    if flag and x is not None:\n"
	                   "        x = x * 3\n"
	                   "    elif not flag:\n"
	                   "        x = x - 3\n"
	                   "    return x\n"
	                   "q = pipe(True)\n",
	                   NULL);
	cr_expect_str_eq(tl_def_ops(g), "random__Uniform:__Uniform_0 "
	                                "_ArithmeticGenericOp:___ArithmeticGenericOp_1");
	cr_expect_str_eq(tl_def_arg(g, 1, "expression_desc"), "'mul(&0 $0:int32)'");
	dalic_graphdef_free(g);
}

Test(script_cond, branches_print_split_nodes, .init = cr_redirect_stdout)
{
	dalic_graphdef_t *g = tl_script_load(HEADER "    if p:\n"
	                                            "        print('true', x)\n"
	                                            "        y = x\n"
	                                            "    else:\n"
	                                            "        print('false', x)\n"
	                                            "        y = x\n"
	                                            "    print(y)\n"
	                                            "    return y\n"
	                                            "q = pipe()\n",
	                                     NULL);
	dalic_graphdef_free(g);
	fflush(stdout);
	cr_expect_stdout_eq_str("true DataNode(name=\"__Split_2[0]\", device=\"cpu\")\n"
	                        "false DataNode(name=\"__Split_2[1]\", device=\"cpu\")\n"
	                        "DataNode(name=\"__Merge_3\", device=\"cpu\")\n");
}

Test(script_cond, variable_missing_in_a_branch_is_dalis_error)
{
	const char *msg = tl_script_error(HEADER "    if p:\n"
	                                         "        y = x\n"
	                                         "        z = 1\n"
	                                         "    else:\n"
	                                         "        z = 2\n"
	                                         "    return z, y\n"
	                                         "q = pipe()\n",
	                                  DALIC_EINVAL);
	cr_expect_str_eq(msg, "SCRIPT:6:5: RuntimeError: Encountered inconsistent outputs out of "
	                      "the `if/else` control flow statement. Variables need to be "
	                      "initialized in every code path (both `if` branches). Variable 'y' "
	                      "must also be initialized in the `else` branch.\n"
	                      "    if p:\n"
	                      "    ^");
}

Test(script_cond, return_in_one_branch_only_is_dalis_error)
{
	/* a return after an always-returning branch moves into the other branch (AutoGraph's
	 * rewrite), so this one is fine... */
	dalic_graphdef_t *g = tl_script_load(HEADER "    y = x\n"
	                                            "    if p:\n"
	                                            "        y = x + 1\n"
	                                            "    else:\n"
	                                            "        return x\n"
	                                            "    return y\n"
	                                            "q = pipe()\n",
	                                     NULL);
	cr_expect_eq(g->num_outputs, 1);
	dalic_graphdef_free(g);
	/* ...but a branch that falls off the end of the function has no return value */
	const char *msg = tl_script_error(HEADER "    if p:\n"
	                                         "        return x\n"
	                                         "q = pipe()\n",
	                                  DALIC_EINVAL);
	EXPECT_STARTS(msg, "SCRIPT:6:5: RuntimeError: Encountered inconsistent outputs");
	EXPECT_HAS(msg, "The `else` branch must also have a return statement.");
}

Test(script_cond, divergent_structures_are_an_error)
{
	const char *msg = tl_script_error(HEADER "    if p:\n"
	                                         "        y = (x, x)\n"
	                                         "    else:\n"
	                                         "        y = [x, x]\n"
	                                         "    return y[0]\n"
	                                         "q = pipe()\n",
	                                  DALIC_EINVAL);
	EXPECT_STARTS(msg, "SCRIPT:6:5: ValueError: Divergent data found in different branches "
	                   "of `if/else` control flow statement.");
	EXPECT_HAS(msg, "same sequence type");
}

Test(script_cond, datanode_in_if_without_conditionals_is_dalis_type_error)
{
	const char *msg =
	    tl_script_error("from nvidia.dali import pipeline_def, fn\n"
	                    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                    "def pipe():\n"
	                    "    x = fn.random.coin_flip()\n"
	                    "    if x:\n"
	                    "        x = x + 1\n"
	                    "    return x\n"
	                    "q = pipe()\n",
	                    DALIC_EINVAL);
	cr_expect_str_eq(msg,
	                 "SCRIPT:5:8: TypeError: \"DataNode\" was used in conditional context "
	                 "- it might have been used in truth evaluation for `if` statement, "
	                 "logical expression or cast to a boolean. To use conditional execution "
	                 "via `if` statements you need to specify `enable_conditionals=True` in "
	                 "`@nvidia.dali.pipeline_def` decorator. You can read more about "
	                 "conditional execution in specific section of the Pipeline "
	                 "documentation. Bool conversion can be achieved with the `cast` "
	                 "operator.\n"
	                 "    if x:\n"
	                 "       ^");
}

Test(script_cond, logical_operators_on_gpu_nodes_fail_like_dali)
{
	const char *msg =
	    tl_script_error("from nvidia.dali import pipeline_def, fn, types\n"
	                    "@pipeline_def(batch_size=2, num_threads=1, device_id=0,\n"
	                    "              enable_conditionals=True)\n"
	                    "def pipe():\n"
	                    "    x = fn.random.coin_flip(dtype=types.BOOL).gpu()\n"
	                    "    return x or x\n"
	                    "q = pipe()\n",
	                    DALIC_EGRAPH);
	EXPECT_STARTS(msg, "SCRIPT:6:12: RuntimeError: Logical expression `or` is restricted to "
	                   "scalar (0-d tensors) inputs of `bool` type, that are placed on CPU. "
	                   "Got a GPU input as the left argument in logical expression.");
}
