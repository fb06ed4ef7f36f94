/* Unit tests: DALI's Python API as the DALI layer registers it into the core — Pipeline's
 * methods as built-ins of a class (bound, unbound, through super()), `with pipe:` through
 * __enter__ / __exit__, parameters as attributes, DataNode as a host type. */
#include "tests/testlib/script.h"

TestSuite(script_dali, .timeout = 20);

Test(script_dali, pipeline_methods_bound_unbound_and_through_super)
{
	dalic_graphdef_t *g = tl_script_load(
	    "from nvidia.dali import Pipeline, fn\n"
	    "class A(Pipeline):\n"
	    "    def __init__(self):\n"
	    "        Pipeline.__init__(self, batch_size=3, num_threads=1,\n"
	    "                          device_id=None)\n"
	    "    def define_graph(self):\n"
	    "        return fn.random.uniform()\n"
	    "class B(Pipeline):\n"
	    "    def __init__(self):\n"
	    "        super().__init__(batch_size=self.size(), num_threads=1,\n"
	    "                         device_id=None)\n"
	    "    def size(self):\n"
	    "        return 5\n"
	    "    def define_graph(self):\n"
	    "        return fn.random.uniform()\n"
	    "a = A()\n"
	    "Pipeline.build(a)\n"
	    "b = B()\n"
	    "b.build()\n"
	    "seen = (a.batch_size, b.batch_size, repr(Pipeline))\n"
	    /* module-level asserts would be skipped; inside `with` they stop the load */
	    "with b:\n"
	    "    assert seen == (3, 5, \"<class 'nvidia.dali.pipeline.Pipeline'>\"), seen\n",
	    "b");
	cr_expect_eq(g->params.batch_size, 5);
	cr_expect_str_eq(tl_def_ops(g), "random__Uniform:__Uniform_0");
	dalic_graphdef_free(g);
	/* an unbound method needs a Pipeline object */
	const char *msg = tl_script_error("from nvidia.dali import Pipeline, fn\n"
	                           "p = Pipeline(batch_size=1, num_threads=1, device_id=None)\n"
	                           "with p:\n"
	                           "    Pipeline.set_outputs(3, fn.random.uniform())\n",
	                           DALIC_EINVAL);
	cr_expect(strstr(msg, "SCRIPT:4:5: TypeError: a Pipeline method needs a Pipeline object, "
	                      "not int") == msg,
	          "%s", msg);
	msg = tl_script_error("from nvidia.dali import Pipeline\n"
	               "class P(Pipeline):\n"
	               "    def __init__(self):\n"
	               "        pass\n"
	               "p = P()\n"
	               "with p:\n"
	               "    pass\n",
	               DALIC_EINVAL);
	/* the failed `with p:` is display code; P is then built as a defined pipeline */
	cr_expect(strstr(msg, "RuntimeError: P.__init__() did not call Pipeline.__init__"), "%s",
	          msg);
}

Test(script_dali, with_pipe_makes_it_current_until_the_block_ends)
{
	dalic_graphdef_t *g = tl_script_load("from nvidia.dali import Pipeline, fn\n"
	                              "p = Pipeline(batch_size=2, num_threads=1, device_id=None)\n"
	                              "q = Pipeline(batch_size=4, num_threads=1, device_id=None)\n"
	                              "before = Pipeline.current()\n"
	                              "with p as inside:\n"
	                              "    assert before is None\n"
	                              "    assert inside is p and Pipeline.current() is p\n"
	                              "    with q:\n"
	                              "        assert Pipeline.current() is q\n"
	                              "        q.set_outputs(fn.random.coin_flip())\n"
	                              "    assert Pipeline.current() is p\n"
	                              "    p.set_outputs(fn.random.uniform())\n"
	                              "after = Pipeline.current()\n"
	                              "with q:\n"
	                              "    assert after is None\n",
	                              "p");
	cr_expect_str_eq(tl_def_ops(g), "random__Uniform:__Uniform_0");
	dalic_graphdef_free(g);
}

Test(script_dali, data_nodes_are_a_host_type)
{
	dalic_graphdef_t *g = tl_script_load(
	    "from nvidia.dali import pipeline_def, fn, types\n"
	    "from nvidia.dali.pipeline import DataNode\n"
	    "import nvidia.dali.data_node as dn\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	    "def pipe():\n"
	    "    x = fn.random.uniform()\n"
	    "    assert isinstance(x, DataNode) and isinstance(x, dn.DataNode)\n"
	    "    assert not isinstance(3, DataNode) and callable(fn.random.uniform)\n"
	    "    assert str(x) == 'DataNode(name=\"__Uniform_0\", device=\"cpu\")', str(x)\n"
	    "    assert {x: 1}[x] == 1 and fn.random is fn.random\n"
	    "    assert types.FLOAT is types.FLOAT and int(types.FLOAT) == 9\n"
	    "    c = types.Constant(2)\n"
	    "    assert (c + 1, c > 1, '%d' % c, float(c)) == (3, True, '2', 2.0)\n"
	    "    return -x + (c * x)\n"
	    "p = pipe()\n",
	    NULL);
	cr_expect_str_eq(tl_def_ops(g), "random__Uniform:__Uniform_0 "
	                            "_ArithmeticGenericOp:___ArithmeticGenericOp_1 "
	                            "_ArithmeticGenericOp:___ArithmeticGenericOp_2 "
	                            "_ArithmeticGenericOp:___ArithmeticGenericOp_3");
	cr_expect_str_eq(tl_def_arg(g, 2, "expression_desc"), "'mul($0:int32 &0)'");
	dalic_graphdef_free(g);
}
