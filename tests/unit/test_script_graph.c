/* Unit tests: pipeline scripts -> graph definitions (operators, names, inputs, arguments,
 * devices, constants, arithmetic expression_desc, parameters, the three definition styles). */
#include "tests/testlib/script.h"

TestSuite(script_graph, .timeout = 20);

Test(script_graph, pipeline_def_ops_names_and_args)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali import pipeline_def, fn, types\n"
	                   "@pipeline_def(batch_size=8, num_threads=3, device_id=None)\n"
	                   "def pipe():\n"
	                   "    jpegs, labels = fn.readers.file(file_root='samples/images')\n"
	                   "    images = fn.decoders.image(jpegs, device='mixed',\n"
	                   "                               output_type=types.RGB)\n"
	                   "    return images, labels\n"
	                   "p = pipe(seed=5)\n",
	                   NULL);
	cr_expect_str_eq(tl_def_ops(g), "readers__File:__File_0 decoders__Image:__Image_1");
	cr_expect_str_eq(tl_def_inputs(g, 1), "__File_0[0]/cpu");
	cr_expect_str_eq(g->ops[0]->device, "cpu");
	cr_expect_str_eq(g->ops[1]->device, "mixed");
	cr_expect_str_eq(tl_def_arg(g, 0, "file_root"), "'samples/images'");
	cr_expect_str_eq(tl_def_arg(g, 0, "_display_name"), "'file'");
	cr_expect_str_eq(tl_def_arg(g, 0, "_module"), "'nvidia.dali.fn.readers'");
	cr_expect_str_eq(tl_def_arg(g, 0, "preserve_name"), "False");
	cr_expect_str_eq(tl_def_arg(g, 1, "output_type"), "0");
	cr_expect_str_eq(tl_def_outputs(g), "__Image_1/gpu __File_0[1]/cpu");
	cr_expect_eq(g->params.batch_size, 8);
	cr_expect_eq(g->params.num_threads, 3);
	cr_expect_eq(g->params.device_id, DALIC_CPU_ONLY_DEVICE_ID);
	cr_expect_eq(g->params.seed, 5);
	cr_expect_str_eq(g->name, "p");
	cr_expect_eq(g->ops[1]->pos.line, 5);
	cr_expect_eq(g->ops[1]->pos.col, 14);
	cr_expect_eq(g->ops[1]->pos.file, g->source, "owned by the definition");
	EXPECT_STARTS(g->source, "/tmp/dalic_script_");
	dalic_graphdef_free(g);
}

Test(script_graph, arithmetic_expression_desc_and_constants)
{
	dalic_graphdef_t *g =
	    tl_script_load("import nvidia.dali.fn as fn\n"
	                   "import nvidia.dali.types as types\n"
	                   "from nvidia.dali import pipeline_def\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                   "def pipe():\n"
	                   "    x = fn.random.uniform()\n"
	                   "    a = x + 1\n"
	                   "    b = 2.5 * x\n"
	                   "    c = -x\n"
	                   "    d = x // 3 / x\n"
	                   "    e = (x ** 2) % 7\n"
	                   "    f = (x < 1) & (x >= 0.5) | True\n"
	                   "    g = x == types.Constant(3, dtype=types.UINT8)\n"
	                   "    return a, b, c, d, e, f, g\n"
	                   "p = pipe()\n",
	                   NULL);
	const char *want[][3] = {
	    {"'add(&0 $0:int32)'", "[1]", "<unset>"},
	    {"'mul($0:float32 &0)'", "<unset>", "[2.5]"},
	    {"'minus(&0)'", "<unset>", "<unset>"},
	    {"'div(&0 $0:int32)'", "[3]", "<unset>"},
	    {"'fdiv(&0 &1)'", "<unset>", "<unset>"},
	    {"'pow(&0 $0:int32)'", "[2]", "<unset>"},
	    {"'mod(&0 $0:int32)'", "[7]", "<unset>"},
	    {"'lt(&0 $0:int32)'", "[1]", "<unset>"},
	    {"'geq(&0 $0:float32)'", "<unset>", "[0.5]"},
	    {"'bitand(&0 &1)'", "<unset>", "<unset>"},
	    {"'bitor(&0 $0:bool)'", "[1]", "<unset>"},
	    {"'eq(&0 $0:uint8)'", "[3]", "<unset>"},
	};
	cr_assert_eq(g->num_ops, 13);
	for (int i = 0; i < 12; i++) {
		cr_expect_str_eq(g->ops[i + 1]->schema->name, "_ArithmeticGenericOp");
		cr_expect_str_eq(tl_def_arg(g, i + 1, "expression_desc"), want[i][0], "op %d",
		                 i + 1);
		cr_expect_str_eq(tl_def_arg(g, i + 1, "integer_constants"), want[i][1], "op %d",
		                 i + 1);
		cr_expect_str_eq(tl_def_arg(g, i + 1, "real_constants"), want[i][2], "op %d",
		                 i + 1);
		cr_expect_str_eq(tl_def_arg(g, i + 1, "_module"), "'nvidia.dali.math'");
	}
	cr_expect_str_eq(tl_def_inputs(g, 5), "___ArithmeticGenericOp_4/cpu __Uniform_0/cpu");
	dalic_graphdef_free(g);
}

Test(script_graph, dali_math_functions)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali import pipeline_def, fn, math\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                   "def pipe():\n"
	                   "    x = fn.random.uniform()\n"
	                   "    return math.clamp(math.abs(x), 0.25, 1), math.atan2(x, x)\n"
	                   "p = pipe()\n",
	                   NULL);
	cr_expect_str_eq(tl_def_arg(g, 1, "expression_desc"), "'abs(&0)'");
	cr_expect_str_eq(tl_def_arg(g, 2, "expression_desc"), "'clamp(&0 $0:float32 $0:int32)'");
	cr_expect_str_eq(tl_def_arg(g, 2, "real_constants"), "[0.25]");
	cr_expect_str_eq(tl_def_arg(g, 2, "integer_constants"), "[1]");
	cr_expect_str_eq(tl_def_arg(g, 3, "expression_desc"), "'atan2(&0 &1)'");
	dalic_graphdef_free(g);
}

Test(script_graph, gpu_data_nodes_pick_the_device)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali import pipeline_def, fn, types\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=0)\n"
	                   "def pipe():\n"
	                   "    x = fn.random.uniform()\n"
	                   "    y = fn.random.uniform()\n"
	                   "    s = x.gpu() + y\n"
	                   "    c = fn.cast(s, dtype=types.FLOAT)\n"
	                   "    return s, c, y.gpu()\n"
	                   "p = pipe()\n",
	                   NULL);
	cr_expect_str_eq(g->ops[2]->device, "gpu");
	cr_expect_str_eq(tl_def_inputs(g, 2), "__Uniform_0/gpu __Uniform_1/gpu");
	cr_expect_str_eq(g->ops[3]->device, "gpu", "automatic: a gpu input");
	cr_expect_str_eq(tl_def_inputs(g, 3), "___ArithmeticGenericOp_2/gpu");
	cr_expect_str_eq(tl_def_outputs(g),
	                 "___ArithmeticGenericOp_2/gpu __Cast_3/gpu __Uniform_1/gpu");
	dalic_graphdef_free(g);
}

Test(script_graph, constant_promotion_and_types_constant)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali import pipeline_def, fn, types\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                   "def pipe():\n"
	                   "    a = fn.cast([1, 2, 3], dtype=types.FLOAT)\n"
	                   "    b = types.Constant([1.5, 2], shape=[2, 1], layout='HW')\n"
	                   "    c = types.Constant(7, device='cpu')\n"
	                   "    return a, b, c, 5\n"
	                   "p = pipe()\n",
	                   NULL);
	cr_expect_str_eq(tl_def_ops(g), "Constant:__Constant_0 Cast:__Cast_1 Constant:__Constant_2 "
	                                "Constant:__Constant_3 Constant:__Constant_detached_0");
	cr_expect_str_eq(tl_def_arg(g, 0, "idata"), "[1, 2, 3]");
	cr_expect_str_eq(tl_def_arg(g, 0, "shape"), "[3]");
	cr_expect_str_eq(tl_def_arg(g, 0, "dtype"), "6");
	cr_expect_str_eq(tl_def_inputs(g, 1), "__Constant_0/cpu");
	cr_expect_str_eq(tl_def_arg(g, 2, "fdata"), "[1.5, 2.0]");
	cr_expect_str_eq(tl_def_arg(g, 2, "shape"), "[2, 1]");
	cr_expect_str_eq(tl_def_arg(g, 2, "layout"), "'HW'");
	cr_expect_str_eq(tl_def_arg(g, 2, "dtype"), "9");
	cr_expect_str_eq(tl_def_arg(g, 3, "idata"), "[7]");
	cr_expect_str_eq(tl_def_arg(g, 3, "shape"), "[]");
	/* a Python value returned as an output is made outside the pipeline (DALI) */
	cr_expect_str_eq(tl_def_outputs(g), "__Cast_1/cpu __Constant_2/cpu __Constant_3/cpu "
	                                    "__Constant_detached_0/cpu");
	dalic_graphdef_free(g);
}

Test(script_graph, argument_inputs_and_names)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali import pipeline_def, fn\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                   "def pipe():\n"
	                   "    angle = fn.random.uniform(range=[-10, 10], name='Angle')\n"
	                   "    m = fn.random.coin_flip()\n"
	                   "    x = fn.random.uniform(shape=[4, 4, 3])\n"
	                   "    return fn.rotate(x, angle=angle, size=[4, 4], name='Rot'),\\\n"
	                   "        fn.flip(x, vertical=m, horizontal=0)\n"
	                   "p = pipe()\n",
	                   NULL);
	/* named operators take no id (DALI) */
	cr_expect_str_eq(tl_def_ops(g), "random__Uniform:Angle random__CoinFlip:__CoinFlip_0 "
	                                "random__Uniform:__Uniform_1 Rotate:Rot Flip:__Flip_2");
	cr_expect_str_eq(tl_def_inputs(g, 3), "__Uniform_1/cpu angle=Angle");
	cr_expect_str_eq(tl_def_arg(g, 3, "preserve_name"), "True");
	cr_expect_str_eq(tl_def_arg(g, 0, "preserve_name"), "True");
	cr_expect_str_eq(tl_def_inputs(g, 4), "__Uniform_1/cpu vertical=__CoinFlip_0");
	cr_expect_str_eq(tl_def_arg(g, 4, "horizontal"), "0");
	dalic_graphdef_free(g);
}

Test(script_graph, external_source_drops_python_arguments)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali import pipeline_def, fn, types\n"
	                   "def gen():\n"
	                   "    yield [1]\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                   "def pipe():\n"
	                   "    a = fn.external_source(source=gen, name='A', dtype=types.UINT8,\n"
	                   "                           cycle='quiet', batch=True, layout='HWC')\n"
	                   "    b, c = fn.external_source(source=gen, num_outputs=2)\n"
	                   "    return a, b, c\n"
	                   "p = pipe()\n",
	                   NULL);
	cr_expect_str_eq(tl_def_ops(g), "ExternalSource:A ExternalSource:__ExternalSource_0 "
	                                "ExternalSource:__ExternalSource_1");
	cr_expect_str_eq(tl_def_arg(g, 0, "dtype"), "0");
	cr_expect_str_eq(tl_def_arg(g, 0, "layout"), "'HWC'");
	cr_expect_str_eq(tl_def_arg(g, 0, "source"), "<unset>");
	cr_expect_str_eq(tl_def_outputs(g), "A/cpu __ExternalSource_0/cpu __ExternalSource_1/cpu");
	dalic_graphdef_free(g);
}

Test(script_graph, parameters_decorator_then_call)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali import pipeline_def, fn, types\n"
	                   "@pipeline_def(batch_size=4, num_threads=2, prefetch_queue_depth=3,\n"
	                   "              exec_async=True, output_dtype=types.FLOAT)\n"
	                   "def pipe(scale):\n"
	                   "    return fn.random.uniform() * scale\n"
	                   "p = pipe(2, batch_size=16, prefetch_queue_depth={'cpu_size': 4,\n"
	                   "         'gpu_size': 1}, bytes_per_sample=100, set_affinity=True,\n"
	                   "         enable_memory_stats=True, exec_pipelined=False, seed=None)\n",
	                   NULL);
	cr_expect_eq(g->params.batch_size, 16);
	cr_expect_eq(g->params.num_threads, 2);
	cr_expect(g->params.separated_queues);
	cr_expect_eq(g->params.prefetch_cpu, 4);
	cr_expect_eq(g->params.prefetch_gpu, 1);
	cr_expect_eq(g->params.bytes_per_sample, 100);
	cr_expect(g->params.set_affinity);
	cr_expect(g->params.enable_memory_stats);
	cr_expect(!g->params.exec_pipelined);
	cr_expect_eq(g->params.seed, -1);
	cr_expect_eq(g->params.device_id, 0, "DALI's default device");
	cr_expect_eq(g->outputs[0].dtype, DALIC_FLOAT);
	cr_expect_str_eq(tl_def_arg(g, 1, "integer_constants"), "[2]");
	dalic_graphdef_free(g);
}

Test(script_graph, with_pipeline_and_set_outputs)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali.pipeline import Pipeline\n"
	                   "import nvidia.dali.fn as fn\n"
	                   "pipe = Pipeline(batch_size=4, num_threads=2, device_id=None)\n"
	                   "with pipe:\n"
	                   "    x = fn.random.uniform()\n"
	                   "    pipe.set_outputs(x, x.gpu())\n"
	                   "pipe.build()\n",
	                   NULL);
	cr_expect_str_eq(g->name, "pipe");
	cr_expect_eq(g->params.batch_size, 4);
	cr_expect_str_eq(tl_def_ops(g), "random__Uniform:__Uniform_0");
	cr_expect_str_eq(tl_def_outputs(g), "__Uniform_0/cpu __Uniform_0/gpu");
	dalic_graphdef_free(g);
}

Test(script_graph, define_graph_subclass_with_ops_api)
{
	dalic_graphdef_t *g = tl_script_load("from nvidia.dali.pipeline import Pipeline\n"
	                                     "import nvidia.dali.ops as ops\n"
	                                     "class P(Pipeline):\n"
	                                     "    def __init__(self, bs):\n"
	                                     "        super().__init__(bs, 3, None, seed=9)\n"
	                                     "        self.rng = ops.random.Uniform(range=[0, 1])\n"
	                                     "        self.flip = ops.Flip(vertical=1)\n"
	                                     "    def define_graph(self):\n"
	                                     "        return self.flip(self.rng(shape=[2, 2, 1]))\n"
	                                     "pipe = P(7)\n",
	                                     NULL);
	cr_expect_eq(g->params.batch_size, 7);
	cr_expect_eq(g->params.num_threads, 3);
	cr_expect_eq(g->params.seed, 9);
	cr_expect_str_eq(tl_def_ops(g), "random__Uniform:__Uniform_0 Flip:__Flip_1");
	cr_expect_str_eq(tl_def_arg(g, 0, "_module"), "'nvidia.dali.ops.random'");
	cr_expect_str_eq(tl_def_arg(g, 0, "_display_name"), "'Uniform'");
	cr_expect_str_eq(tl_def_arg(g, 0, "shape"), "[2, 2, 1]");
	cr_expect_str_eq(tl_def_arg(g, 1, "vertical"), "1");
	cr_expect_str_eq(tl_def_outputs(g), "__Flip_1/cpu");
	dalic_graphdef_free(g);
}

static const char *script_graph_two_pipelines =
    "from nvidia.dali import pipeline_def, fn\n"
    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
    "def first():\n"
    "    return fn.random.uniform()\n"
    "@pipeline_def(num_threads=1, device_id=None)\n"
    "def second(n):\n"
    "    return fn.random.normal(shape=[n])\n"
    "a = first()\n"
    "b = second(3, batch_size=5)\n"
    "second(4, batch_size=6)\n";

Test(script_graph, several_pipelines_pick_by_variable_or_function)
{
	dalic_graphdef_t *g = tl_script_load(script_graph_two_pipelines, NULL);
	cr_expect_str_eq(g->name, "a");
	dalic_graphdef_free(g);
	g = tl_script_load(script_graph_two_pipelines, "b");
	cr_expect_eq(g->params.batch_size, 5);
	cr_expect_str_eq(tl_def_arg(g, 0, "shape"), "[3]");
	dalic_graphdef_free(g);
	g = tl_script_load(script_graph_two_pipelines, "second");
	cr_expect_eq(g->params.batch_size, 5, "the first pipeline of that function");
	dalic_graphdef_free(g);
	const char *path = tl_write_temp("script", ".py", script_graph_two_pipelines);
	char **names;
	int n;
	ASSERT_OK(dalic_script_list(path, &names, &n));
	unlink(path);
	cr_assert_eq(n, 3);
	cr_expect_str_eq(names[0], "a");
	cr_expect_str_eq(names[1], "b");
	cr_expect_str_eq(names[2], "second");
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

Test(script_graph, experimental_pipeline_def_sets_debug)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali.pipeline.experimental import pipeline_def\n"
	                   "import nvidia.dali.fn as fn\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=None,\n"
	                   "              debug=True)\n"
	                   "def pipe():\n"
	                   "    return fn.random.uniform()\n"
	                   "p = pipe()\n",
	                   NULL);
	cr_expect(g->debug);
	dalic_graphdef_free(g);
}

Test(script_graph, display_code_is_skipped)
{
	dalic_graphdef_t *g =
	    tl_script_load("import matplotlib.pyplot as plt\n"
	                   "import numpy as np\n"
	                   "from nvidia.dali import pipeline_def, fn\n"
	                   "from nvidia.dali.plugin.pytorch import DALIGenericIterator\n"
	                   "def show(batch):\n"
	                   "    fig = plt.figure(figsize=(10, 10))\n"
	                   "    for i in range(len(batch)):\n"
	                   "        plt.imshow(np.transpose(batch.at(i)))\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                   "def pipe():\n"
	                   "    return fn.random.uniform()\n"
	                   "if __name__ == '__main__':\n"
	                   "    p = pipe()\n"
	                   "    p.build()\n"
	                   "    out, = p.run()\n"
	                   "    show(out.as_cpu())\n"
	                   "    it = DALIGenericIterator([p], ['x'])\n"
	                   "    for data in it:\n"
	                   "        print(data[0]['x'].shape)\n"
	                   "    print(undefined_name)\n",
	                   NULL);
	cr_expect_str_eq(g->name, "p");
	cr_expect_str_eq(tl_def_ops(g), "random__Uniform:__Uniform_0");
	dalic_graphdef_free(g);
}

Test(script_graph, python_subset_helpers_loops_and_comprehensions)
{
	dalic_graphdef_t *g =
	    tl_script_load("from nvidia.dali import pipeline_def, fn\n"
	                   "import os\n"
	                   "SIZES = {'small': 2, 'big': 4}\n"
	                   "root = os.path.join('samples', 'images')\n"
	                   "def noise(n, *, scale=1.0, **kw):\n"
	                   "    return fn.random.normal(shape=[n], **kw) * scale\n"
	                   "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                   "def pipe(kind='small'):\n"
	                   "    outs = [noise(SIZES[kind] * i, scale=i) for i in range(1, 3)]\n"
	                   "    total = sum(outs[1:], outs[0])\n"
	                   "    extra = []\n"
	                   "    for k, v in sorted(SIZES.items()):\n"
	                   "        if v > 2:\n"
	                   "            extra.append(fn.random.uniform(shape=[v], seed=v))\n"
	                   "    name = f'{root}/{kind!r:>9}'\n"
	                   "    assert name == 'samples/images/  \\'small\\'', name\n"
	                   "    return (total, *extra)\n"
	                   "p = pipe()\n",
	                   NULL);
	cr_expect_str_eq(tl_def_ops(g),
	                 "random__Normal:__Normal_0 _ArithmeticGenericOp:___ArithmeticGenericOp_1 "
	                 "random__Normal:__Normal_2 _ArithmeticGenericOp:___ArithmeticGenericOp_3 "
	                 "_ArithmeticGenericOp:___ArithmeticGenericOp_4 random__Uniform:__Uniform_5");
	cr_expect_str_eq(tl_def_arg(g, 0, "shape"), "[2]");
	cr_expect_str_eq(tl_def_arg(g, 2, "shape"), "[4]");
	cr_expect_str_eq(tl_def_arg(g, 4, "expression_desc"), "'add(&0 &1)'");
	cr_expect_str_eq(tl_def_inputs(g, 4),
	                 "___ArithmeticGenericOp_1/cpu ___ArithmeticGenericOp_3/cpu");
	cr_expect_str_eq(tl_def_arg(g, 5, "seed"), "4");
	cr_expect_str_eq(tl_def_outputs(g), "___ArithmeticGenericOp_4/cpu __Uniform_5/cpu");
	dalic_graphdef_free(g);
}
