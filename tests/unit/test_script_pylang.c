/* Unit tests: the DALI layer on pipeline modules as repositories write them — an unknown
 * operator is an error at its own line (never a silently skipped statement), DALI's
 * deprecated names resolve to the operator and names DALI gives them, helper classes with
 * `object`, `yield` and `@property` do not stand in the pipeline's way, @pipeline_def on a
 * method, pipelines made in factories and closures, **kwargs splats, two levels of Pipeline
 * subclasses, ops.Compose. */
#include "tests/testlib/script.h"

#include "frontend/script/dali/sdalias.h"

TestSuite(script_pylang, .timeout = 20);

Test(script_pylang, an_unknown_ops_x_is_an_error_at_its_own_line)
{
	/* at module level, where failing display code is skipped: not this */
	const char *msg = tl_script_error("import nvidia.dali.ops as ops\n"
	                                  "from nvidia.dali.pipeline import Pipeline\n"
	                                  "pipe = Pipeline(batch_size=2, num_threads=1, device_id=None)\n"
	                                  "dec = ops.NoSuchDecoder(device='cpu')\n"
	                                  "x = 1\n",
	                                  DALIC_EUNKNOWN_OP);
	cr_expect(strstr(msg, "SCRIPT:4:7: unknown operator ops.NoSuchDecoder: not in the dalic "
	                      "operator registry") == msg,
	          "%s", msg);
	/* in a Pipeline subclass's __init__, the legacy style */
	msg = tl_script_error("import nvidia.dali.ops as ops\n"
	                      "from nvidia.dali.pipeline import Pipeline\n"
	                      "class P(Pipeline):\n"
	                      "    def __init__(self):\n"
	                      "        super().__init__(batch_size=2, num_threads=1, device_id=None)\n"
	                      "        self.input = ops.FileReader(file_root='/tmp')\n"
	                      "        self.decode = ops.HostDecoder(output_type=0)\n"
	                      "    def define_graph(self):\n"
	                      "        j, l = self.input()\n"
	                      "        return self.decode(j), l\n"
	                      "pipe = P()\n",
	                      DALIC_EUNKNOWN_OP);
	cr_expect(strstr(msg, "SCRIPT:7:23: AttributeError: module 'nvidia.dali.ops' has no "
	                      "attribute 'HostDecoder': DALI removed this operator name before DALI "
	                      "1.0; use ops.decoders.Image(device=\"cpu\")") == msg,
	          "%s", msg);
	/* fn alike, and namespaces of DALI are not operators */
	msg = tl_script_error("import nvidia.dali.fn as fn\n"
	                      "from nvidia.dali import pipeline_def\n"
	                      "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                      "def p():\n"
	                      "    return fn.readers.no_such_reader(file_root='/tmp')\n"
	                      "pipe = p()\n",
	                      DALIC_EUNKNOWN_OP);
	cr_expect(strstr(msg, "SCRIPT:5:12: unknown operator fn.readers.no_such_reader") == msg,
	          "%s", msg);
	/* a deprecated name of an operator dalic does not have says which */
	msg = tl_script_error("import nvidia.dali.ops as ops\n"
	                      "deb = ops.experimental.Debayer(device='cpu')\n",
	                      DALIC_EUNKNOWN_OP);
	cr_expect(strstr(msg, "SCRIPT:2:7: ops.experimental.Debayer is DALI's deprecated name of "
	                      "operator Debayer, which dalic does not implement yet") == msg,
	          "%s", msg);
	/* SSDRandomCrop is an operator of its own, not random_bbox_crop under another name */
	msg = tl_script_error("import nvidia.dali.ops as ops\n"
	                      "crop = ops.SSDRandomCrop(num_attempts=1)\n",
	                      DALIC_EUNKNOWN_OP);
	cr_expect(strstr(msg, "SCRIPT:2:8: ops.SSDRandomCrop is DALI's deprecated name of operator "
	                      "SSDRandomCrop, which dalic does not implement yet") == msg,
	          "%s", msg);
}

Test(script_pylang, removed_names_raise_attribute_error_as_in_dali)
{
	/* DALI 2.4 has no ops.nvJPEGDecoder either: version checks written for it work */
	dalic_graphdef_t *g =
	    tl_script_load("import nvidia.dali.ops as ops\n"
	                   "from nvidia.dali.pipeline import Pipeline\n"
	                   "old = hasattr(ops, 'nvJPEGDecoder')\n"
	                   "try:\n"
	                   "    dec = ops.nvJPEGDecoder(device='mixed')\n"
	                   "except AttributeError:\n"
	                   "    dec = ops.decoders.Image(device='cpu')\n"
	                   "pipe = Pipeline(batch_size=2, num_threads=1, device_id=None)\n"
	                   "with pipe:\n"
	                   "    assert not old\n"
	                   "    j, l = ops.readers.File(file_root='/tmp')()\n"
	                   "    pipe.set_outputs(dec(j), l)\n",
	                   NULL);
	cr_expect_str_eq(tl_def_ops(g), "readers__File:__File_0 decoders__Image:__Image_1");
	dalic_graphdef_free(g);
}

Test(script_pylang, deprecated_names_resolve_as_dali_resolves_them)
{
	dalic_graphdef_t *g = tl_script_load(
	    "import nvidia.dali.ops as ops\n"
	    "import nvidia.dali.fn as fn\n"
	    "from nvidia.dali.pipeline import Pipeline\n"
	    "pipe = Pipeline(batch_size=2, num_threads=1, device_id=None, seed=1)\n"
	    "with pipe:\n"
	    "    j, l = ops.FileReader(file_root='/tmp')()\n"
	    "    d = ops.ImageDecoder()(j)\n"
	    "    j2, l2 = fn.file_reader(file_root='/tmp')\n"
	    "    d2 = fn.image_decoder(j2)\n"
	    "    c = fn.coin_flip()\n"
	    "    u = ops.Uniform(range=[0, 1])()\n"
	    "    e = fn.experimental.decoders.image(j2)\n"
	    "    pipe.set_outputs(d, l, d2, l2, c, u, e)\n",
	    NULL);
	/* the operators dalic runs, under the instance names DALI gives */
	cr_expect_str_eq(tl_def_ops(g),
	                 "readers__File:__FileReader_0 decoders__Image:__ImageDecoder_1 "
	                 "readers__File:__FileReader_2 decoders__Image:__ImageDecoder_3 "
	                 "random__CoinFlip:__CoinFlip_4 random__Uniform:__Uniform_5 "
	                 "decoders__Image:__Image_6");
	/* the schema DALI serializes for each: the alias, except where it follows to the new
	 * name (FileReader) */
	static const char *serial[] = {NULL, "ImageDecoder", NULL, "ImageDecoder", "CoinFlip",
	                               "Uniform", "experimental__decoders__Image"};
	for (int i = 0; i < 7; i++) {
		const char *s = g->ops[i]->serial_name;
		cr_expect(serial[i] ? s && !strcmp(s, serial[i]) : !s, "op %d: %s", i, s ? s : "NULL");
	}
	cr_expect_str_eq(tl_def_arg(g, 1, "_display_name"), "'ImageDecoder'");
	cr_expect_str_eq(tl_def_arg(g, 3, "_display_name"), "'image_decoder'");
	dalic_graphdef_free(g);
}

Test(script_pylang, every_deprecated_name_reads_back_from_a_dali_file)
{
	/* a serialized pipeline names the schema DALI writes: for every alias whose operator
	 * dalic has, that name must find the operator (its kernel lists the alias), unless
	 * dalic has the name as an operator of its own (FastResizeCropMirror) */
	int checked = 0;
	for (const sdalias_t *a = dalic_sdalias_table(); a->legacy; a++) {
		const dalic_schema_t *t = dalic_schema_find(a->target);
		const dalic_schema_t *own = dalic_schema_find(a->serial);
		if (!t || (own && !strcmp(own->name, a->serial) && own != t))
			continue;
		cr_expect_eq(own, t, "%s (written as %s) does not find %s", a->ops, a->serial,
		             a->target);
		checked++;
	}
	cr_expect_geq(checked, 6);
	/* the legacy name resolves to that operator of its own, with its defaults */
	dalic_graphdef_t *g = tl_script_load(
	    "import nvidia.dali.ops as ops\n"
	    "import nvidia.dali.fn as fn\n"
	    "import nvidia.dali.types as types\n"
	    "from nvidia.dali.pipeline import Pipeline\n"
	    "pipe = Pipeline(batch_size=2, num_threads=1, device_id=None, seed=1)\n"
	    "with pipe:\n"
	    "    x = fn.random.uniform(shape=[8, 8, 3], dtype=types.UINT8)\n"
	    "    a = ops.FastResizeCropMirror(crop=[2, 2], resize_x=4, resize_y=4)(x)\n"
	    "    b = fn.fast_resize_crop_mirror(x, crop=[2, 2], resize_x=4, resize_y=4)\n"
	    "    c = ops.TransformTranslation(offset=[1, 2])()\n"
	    "    pipe.set_outputs(a, b, c)\n",
	    NULL);
	cr_expect_str_eq(tl_def_ops(g), "random__Uniform:__Uniform_0 "
	                                "FastResizeCropMirror:__FastResizeCropMirror_1 "
	                                "FastResizeCropMirror:__FastResizeCropMirror_2 "
	                                "transforms__Translation:__TransformTranslation_3");
	cr_expect_null(g->ops[1]->serial_name);
	cr_expect_str_eq(g->ops[3]->serial_name, "TransformTranslation");
	dalic_graphdef_free(g);
}

Test(script_pylang, a_helper_class_with_object_yield_and_property_does_not_block_the_pipeline)
{
	dalic_graphdef_t *g = tl_script_load(
	    "import nvidia.dali.ops as ops\n"
	    "import nvidia.dali.types as types\n"
	    "from nvidia.dali.pipeline import Pipeline\n"
	    "class ExternalInputIterator(object):\n"
	    "    def __init__(self, batch_size):\n"
	    "        self.batch_size = batch_size\n"
	    "        self.files = ['a.jpg', 'b.jpg', 'c.jpg']\n"
	    "    @property\n"
	    "    def size(self):\n"
	    "        return len(self.files)\n"
	    "    def __iter__(self):\n"
	    "        self.i = 0\n"
	    "        return self\n"
	    "    def __next__(self):\n"
	    "        batch = [self.files[(self.i + k) % self.size] for k in range(self.batch_size)]\n"
	    "        self.i += self.batch_size\n"
	    "        return batch\n"
	    "    def batches(self, n):\n"
	    "        for _ in range(n):\n"
	    "            yield next(self)\n"
	    "class HybridPipe(Pipeline):\n"
	    "    def __init__(self, batch_size, num_threads, device_id):\n"
	    "        super(HybridPipe, self).__init__(batch_size, num_threads, device_id, seed=12)\n"
	    "        self.input = ops.readers.File(file_root='/tmp', random_shuffle=True)\n"
	    "        self.decode = ops.decoders.Image(device='cpu', output_type=types.RGB)\n"
	    "        it = iter(ExternalInputIterator(batch_size))\n"
	    "        self.first = list(it.batches(2))\n"
	    "    def define_graph(self):\n"
	    "        jpegs, labels = self.input()\n"
	    "        return self.decode(jpegs), labels\n"
	    "pipe = HybridPipe(2, 1, None)\n"
	    "with pipe:\n"
	    "    assert pipe.first == [['a.jpg', 'b.jpg'], ['c.jpg', 'a.jpg']], pipe.first\n",
	    NULL);
	cr_expect_str_eq(tl_def_ops(g), "readers__File:__File_0 decoders__Image:__Image_1");
	cr_expect_eq(g->params.seed, 12);
	dalic_graphdef_free(g);
}

Test(script_pylang, methods_factories_closures_splats_and_subclasses)
{
	static const char *const src =
	    "import nvidia.dali.fn as fn\n"
	    "import nvidia.dali.ops as ops\n"
	    "from nvidia.dali import pipeline_def\n"
	    "from nvidia.dali.pipeline import Pipeline\n"
	    "COMMON = dict(batch_size=4, num_threads=2, device_id=None, seed=7)\n"
	    "AUG = {'probability': 0.25}\n"
	    "class Loader(object):\n"
	    "    def __init__(self, root):\n"
	    "        self.root = root\n"
	    "    @pipeline_def\n"
	    "    def pipe(self, shuffle=False):\n"
	    "        jpegs, labels = fn.readers.file(file_root=self.root, random_shuffle=shuffle)\n"
	    "        return jpegs, labels, fn.random.coin_flip(**AUG)\n"
	    "def make(root, **kw):\n"
	    "    @pipeline_def(**COMMON)\n"
	    "    def inner():\n"
	    "        jpegs, labels = fn.readers.file(file_root=root, **kw)\n"
	    "        return jpegs, labels\n"
	    "    return inner()\n"
	    "class Base(Pipeline):\n"
	    "    def __init__(self, root, **kwargs):\n"
	    "        super().__init__(**kwargs)\n"
	    "        self.reader = ops.readers.File(file_root=root)\n"
	    "class Train(Base):\n"
	    "    def __init__(self, root, **kwargs):\n"
	    "        super(Train, self).__init__(root, **kwargs)\n"
	    "        self.coin = ops.random.CoinFlip(probability=0.5)\n"
	    "    def define_graph(self):\n"
	    "        j, l = self.reader()\n"
	    "        return j, l, self.coin()\n"
	    "method_pipe = Loader('/data').pipe(shuffle=True, **COMMON)\n"
	    "factory_pipe = make('/data2', random_shuffle=True, shard_id=1, num_shards=2)\n"
	    "sub_pipe = Train('/data3', **COMMON)\n";
	dalic_graphdef_t *g = tl_script_load(src, "method_pipe");
	cr_expect_str_eq(tl_def_ops(g), "readers__File:__File_0 random__CoinFlip:__CoinFlip_1");
	cr_expect_str_eq(tl_def_arg(g, 0, "file_root"), "'/data'");
	cr_expect_str_eq(tl_def_arg(g, 0, "random_shuffle"), "True");
	cr_expect_str_eq(tl_def_arg(g, 1, "probability"), "0.25");
	cr_expect_eq(g->params.batch_size, 4);
	dalic_graphdef_free(g);
	g = tl_script_load(src, "factory_pipe");
	cr_expect_str_eq(tl_def_arg(g, 0, "file_root"), "'/data2'");
	cr_expect_str_eq(tl_def_arg(g, 0, "shard_id"), "1");
	cr_expect_str_eq(tl_def_arg(g, 0, "num_shards"), "2");
	cr_expect_eq(g->params.seed, 7);
	dalic_graphdef_free(g);
	g = tl_script_load(src, "sub_pipe");
	cr_expect_str_eq(tl_def_ops(g), "readers__File:__File_0 random__CoinFlip:__CoinFlip_1");
	cr_expect_str_eq(tl_def_arg(g, 0, "file_root"), "'/data3'");
	cr_expect_eq(g->params.num_threads, 2);
	dalic_graphdef_free(g);
}

Test(script_pylang, ops_compose_chains_operators)
{
	dalic_graphdef_t *g = tl_script_load(
	    "import nvidia.dali.ops as ops\n"
	    "import nvidia.dali.types as types\n"
	    "from nvidia.dali.pipeline import Pipeline\n"
	    "pipe = Pipeline(batch_size=2, num_threads=1, device_id=0)\n"
	    "decode_and_flip = ops.Compose([\n"
	    "    ops.decoders.Image(device='cpu', output_type=types.RGB),\n"
	    "    ops.Compose([ops.Flip(device='gpu', horizontal=1)]),\n"
	    "    ops.Resize(device='gpu', resize_x=8, resize_y=8),\n"
	    "])\n"
	    "with pipe:\n"
	    "    j, l = ops.readers.File(file_root='/tmp')()\n"
	    "    pipe.set_outputs(decode_and_flip(j), l)\n",
	    NULL);
	/* the decoded images go to the GPU before the first gpu operator */
	cr_expect_str_eq(tl_def_ops(g), "readers__File:__File_0 decoders__Image:__Image_1 "
	                                "Flip:__Flip_2 Resize:__Resize_3");
	cr_expect_str_eq(tl_def_inputs(g, 2), "__Image_1/gpu");
	cr_expect_str_eq(tl_def_inputs(g, 3), "__Flip_2/gpu");
	cr_expect_str_eq(tl_def_outputs(g), "__Resize_3/gpu __File_0[1]/cpu");
	dalic_graphdef_free(g);
}

/* The model.dali pattern of Triton's DALI backend (triton-inference-server/dali_backend,
 * docs/examples/efficientnet): a module that only defines the @autoserialize pipeline. */
static const char *const pylang_triton_model =
    "import nvidia.dali as dali\n"
    "import nvidia.dali.types as types\n"
    "from nvidia.dali.plugin.triton import autoserialize\n"
    "\n"
    "@autoserialize\n"
    "@dali.pipeline_def(batch_size=512, num_threads=1, device_id=0)\n"
    "def pipe():\n"
    "    images = dali.fn.external_source(device='cpu', name='DALI_INPUT_0')\n"
    "    images = dali.fn.decoders.image(images, device='mixed', output_type=types.RGB)\n"
    "    images = dali.fn.resize(images, resize_x=224, resize_y=224)\n"
    "    return dali.fn.crop_mirror_normalize(images, dtype=types.FLOAT16,\n"
    "                                         output_layout='CHW', crop=(224, 224),\n"
    "                                         mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],\n"
    "                                         std=[0.229 * 255, 0.224 * 255, 0.225 * 255])\n";

Test(script_pylang, triton_autoserialize_modules_make_their_pipeline)
{
	dalic_graphdef_t *g = tl_script_load(pylang_triton_model, NULL);
	/* DALI's names: the named input takes no number */
	cr_expect_str_eq(tl_def_ops(g), "ExternalSource:DALI_INPUT_0 decoders__Image:__Image_0 "
	                                "Resize:__Resize_1 CropMirrorNormalize:__CropMirrorNormalize_2");
	cr_expect_eq(g->params.batch_size, 512);
	cr_expect_eq(g->params.device_id, 0);
	cr_expect_str_eq(g->name, "pipe");
	dalic_graphdef_free(g);
	const char *msg = tl_script_error("from nvidia.dali.plugin.triton import autoserialize\n"
	                                  "def pipe():\n"
	                                  "    pass\n"
	                                  "pipe = autoserialize(pipe)\n",
	                                  DALIC_EINVAL);
	cr_expect(strstr(msg, "SCRIPT:4:8: TypeError: Only `@pipeline_def` can be decorated with "
	                      "`@triton.autoserialize`.") == msg,
	          "%s", msg);
	msg = tl_script_error("from nvidia.dali import pipeline_def, fn\n"
	                      "from nvidia.dali.plugin.triton import autoserialize\n"
	                      "@autoserialize\n"
	                      "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	                      "def a():\n"
	                      "    return fn.random.uniform()\n"
	                      "@autoserialize\n"
	                      "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	                      "def b():\n"
	                      "    return fn.random.uniform()\n",
	                      DALIC_EINVAL);
	cr_expect(strstr(msg, "SCRIPT:7:2: RuntimeError: Precisely one autoserialize function must "
	                      "exist in the module. Found 2.") == msg,
	          "%s", msg);
}

Test(script_pylang, mixed_and_gpu_operators_serialize_without_a_device)
{
	/* DALI serializes such a definition with device_id=None and refuses it only at build */
	const char *path = tl_write_temp("triton", ".py", pylang_triton_model);
	dalic_pipeline_override_t o;
	dalic_pipeline_override_init(&o);
	o.fields = DALIC_PARAM_DEVICE_ID;
	o.params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_load(path, NULL, &o, &p));
	unlink(path);
	void *buf = NULL;
	size_t len = 0;
	ASSERT_OK(dalic_pipeline_serialize(p, &buf, &len));
	EXPECT_STATUS(dalic_pipeline_build(p), DALIC_EGRAPH);
	EXPECT_ERROR_HAS("'__Image_0': Cannot add a Mixed operator with a GPU output");
	dalic_pipeline_destroy(p);
	/* the bytes hold the definition as given: CPU-only, mixed decoder, gpu resize */
	ASSERT_OK(dalic_pipeline_deserialize(buf, len, NULL, &p));
	cr_expect_eq(dalic_pipeline_params(p)->device_id, DALIC_CPU_ONLY_DEVICE_ID);
	cr_expect_eq(dalic_pipeline_num_ops(p), 4);
	cr_expect_str_eq(dalic_op_schema(dalic_pipeline_op(p, 1)), "decoders__Image");
	dalic_pipeline_destroy(p);
	free(buf);
}
