/* Pipeline factories (frontend/script/dali/sdfactory.c): plain classes and functions that make
 * a pipeline when called — samples/scripts/real/loader_class.py, builder_method.py and
 * factory_function.py — and modules whose __main__ block uses argparse or writes files.
 * Run from the source root (samples/images: 12 files sorted, the first 4 in class 0). */
#include "tests/testlib.h"

#include "engine/pipeline.h"
#include "frontend/script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TestSuite(real_factories, .timeout = 60);

static dalic_pipeline_t *factories_load(const char *path, const char *pipeline,
                                        const char *const *args, int nargs)
{
	dalic_script_opts_t o = {.pipeline = pipeline, .args = args, .num_args = nargs};
	dalic_graphdef_t *g = NULL;
	ASSERT_OK(dalic_script_load_opts(path, &o, &g));
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_from_graphdef(g, &p));
	ASSERT_OK(dalic_pipeline_build(p));
	ASSERT_OK(dalic_pipeline_run(p));
	return p;
}

static int factories_load_fails(const char *path, const char *pipeline, const char *const *args,
                                int nargs)
{
	dalic_script_opts_t o = {.pipeline = pipeline, .args = args, .num_args = nargs};
	dalic_graphdef_t *g = NULL;
	int rc = dalic_script_load_opts(path, &o, &g);
	dalic_graphdef_free(g);
	return rc;
}

static void factories_expect_labels_zero(dalic_pipeline_t *p, int out, int n)
{
	const dalic_batch_t *b = dalic_pipeline_output(p, out);
	cr_assert_eq(dalic_batch_num_samples(b), n);
	for (int i = 0; i < n; i++)
		cr_expect_eq(*(const int32_t *)dalic_batch_data(b, i), 0, "label %d", i);
}

Test(real_factories, loader_class_builds_its_pipeline_in_init_with_args_and_flags)
{
	const char *args[] = {"data_dir='samples/images'", "batch_size=3", "num_threads=1",
	                      "device_id=None"};
	dalic_pipeline_t *p = factories_load("samples/scripts/real/loader_class.py", NULL, args, 4);
	const dalic_batch_t *img = dalic_pipeline_output(p, 0);
	tl_expect_shape(img, 2, 3, (const int64_t[]){40, 40, 3});
	factories_expect_labels_zero(p, 1, 3);
	/* train=False skips the flip: the same image, mirrored */
	const char *plain_args[] = {"data_dir='samples/images'",
	                            "batch_size=3",
	                            "num_threads=1",
	                            "device_id=None",
	                            "train=False",
	                            "crop=40"};
	dalic_pipeline_t *q =
	    factories_load("samples/scripts/real/loader_class.py", "DaliLoader", plain_args, 6);
	const dalic_batch_t *plain = dalic_pipeline_output(q, 0);
	for (int x = 0; x < 40; x++)
		for (int c = 0; c < 3; c++)
			cr_expect_eq(tl_at(img, 0, (5 * 40 + x) * 3 + c),
			             tl_at(plain, 0, (5 * 40 + 39 - x) * 3 + c), "row 5 x %d c %d",
			             x, c);
	dalic_pipeline_destroy(q);
	dalic_pipeline_destroy(p);
}

Test(real_factories, loader_class_names_a_missing_keyword_only_argument)
{
	const char *args[] = {"batch_size=3", "num_threads=1", "device_id=None"};
	cr_expect_neq(factories_load_fails("samples/scripts/real/loader_class.py", NULL, args, 3),
	              0);
	EXPECT_ERROR_HAS(
	    "loader_class.py:16:5: DaliLoader.__init__(data_dir, batch_size, "
	    "num_threads, device_id, crop=40, train=True) needs 'data_dir': pass --arg "
	    "data_dir=VALUE");
}

Test(real_factories, builder_method_is_listed_as_class_dot_method_and_built)
{
	char **names = NULL;
	int n = 0, created = 0;
	ASSERT_OK(dalic_script_list_created("samples/scripts/real/builder_method.py", &names, &n,
	                                    &created));
	cr_assert_eq(n, 1);
	cr_expect_eq(created, 0);
	cr_expect_str_eq(names[0], "ImageDataset.build");
	free(names[0]);
	free(names);
	const char *args[] = {"data_dir='samples/images'", "image_size=36"};
	dalic_pipeline_t *p =
	    factories_load("samples/scripts/real/builder_method.py", "ImageDataset.build", args, 2);
	const dalic_batch_t *img = dalic_pipeline_output(p, 0);
	cr_expect_eq(dalic_batch_dtype(img), DALIC_FLOAT);
	tl_expect_shape(img, 1, 3, (const int64_t[]){36, 36, 3});
	factories_expect_labels_zero(p, 1, 2);
	dalic_pipeline_destroy(p);
	/* __init__'s own check runs: a directory that is not there */
	const char *bad[] = {"data_dir='samples/no_such_dir'"};
	cr_expect_neq(factories_load_fails("samples/scripts/real/builder_method.py", NULL, bad, 1),
	              0);
	EXPECT_ERROR_HAS("FileNotFoundError: Cannot find data dir: samples/no_such_dir");
}

Test(real_factories, factory_function_passes_the_other_args_to_the_function_it_returns)
{
	const char *args[] = {"data_dir='samples/images'", "device='cpu'"};
	dalic_pipeline_t *p =
	    factories_load("samples/scripts/real/factory_function.py", NULL, args, 2);
	tl_expect_shape(dalic_pipeline_output(p, 0), 2, 3, (const int64_t[]){32, 32, 1});
	factories_expect_labels_zero(p, 1, 3);
	dalic_pipeline_destroy(p);
	const char *size[] = {"data_dir='samples/images'", "device='cpu'", "size=20"};
	p = factories_load("samples/scripts/real/factory_function.py", NULL, size, 3);
	tl_expect_shape(dalic_pipeline_output(p, 0), 0, 3, (const int64_t[]){20, 20, 1});
	dalic_pipeline_destroy(p);
	const char *no_device[] = {"data_dir='samples/images'"};
	cr_expect_neq(
	    factories_load_fails("samples/scripts/real/factory_function.py", NULL, no_device, 1),
	    0);
	EXPECT_ERROR_HAS("single_gpu_pipeline(device) needs 'device': pass --arg device=VALUE");
	const char *unknown[] = {"data_dir='samples/images'", "device='cpu'", "colour=1"};
	cr_expect_neq(
	    factories_load_fails("samples/scripts/real/factory_function.py", NULL, unknown, 3), 0);
	EXPECT_ERROR_HAS("--arg colour: single_gpu_pipeline(device) has no parameter 'colour'");
}

static const char factories_mixed[] =
    "import nvidia.dali.fn as fn\n"
    "from nvidia.dali import pipeline_def, Pipeline\n"
    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
    "def direct(value=1):\n"
    "    return fn.constant(idata=[value])\n"
    "class Loader(object):\n"
    "    def __init__(self, value=5):\n"
    "        self.pipe = direct(value=value)\n"
    "def make_plain(value=7):\n"
    "    pipe = Pipeline(batch_size=2, num_threads=1, device_id=None)\n"
    "    with pipe:\n"
    "        pipe.set_outputs(fn.constant(idata=[value]))\n"
    "    return pipe\n"
    "def unrelated(x):\n"
    "    return x + 1\n"
    "class Base:\n"
    "    def __init__(self, *, size):\n"
    "        self.pipe = direct(value=size)\n"
    "class Derived(Base):\n"
    "    def __init__(self, **kwargs):\n"
    "        super().__init__(**kwargs)\n"
    "class Maker:\n"
    "    def build(self, v=2):\n"
    "        return direct(value=v)\n";

static int32_t factories_first_value(const char *path, const char *name, const char *arg)
{
	const char *args[] = {arg};
	dalic_pipeline_t *p = factories_load(path, name, args, arg ? 1 : 0);
	int32_t v = *(const int32_t *)dalic_batch_data(dalic_pipeline_output(p, 0), 0);
	dalic_pipeline_destroy(p);
	return v;
}

Test(real_factories, direct_definitions_come_first_and_factories_build_by_name)
{
	const char *path = tl_write_temp("factories_mixed", ".py", factories_mixed);
	/* the one @pipeline_def is the default; the factories are there by name */
	cr_expect_eq(factories_first_value(path, NULL, NULL), 1);
	cr_expect_eq(factories_first_value(path, "Loader", NULL), 5);
	cr_expect_eq(factories_first_value(path, "Loader", "value=9"), 9);
	cr_expect_eq(factories_first_value(path, "make_plain", NULL), 7);
	cr_expect_eq(factories_first_value(path, "Derived", "size=4"), 4);
	/* the base's keyword-only parameter, named before Derived runs */
	cr_expect_neq(factories_load_fails(path, "Derived", NULL, 0), 0);
	EXPECT_ERROR_HAS(":17:5: Base.__init__(size) needs 'size': pass --arg size=VALUE");
	/* a plain function that makes no pipeline is not one */
	cr_expect_neq(factories_load_fails(path, "unrelated", NULL, 0), 0);
	EXPECT_ERROR_HAS("no pipeline named 'unrelated' (the script defines: direct, Loader, "
	                 "make_plain, Base, Derived, Maker.build)");
	/* a class without __init__: the method takes the arguments, an unknown one is named */
	cr_expect_eq(factories_first_value(path, "Maker.build", "v=4"), 4);
	cr_expect_neq(factories_load_fails(path, "Maker.build", (const char *[]){"zz=1"}, 1), 0);
	EXPECT_ERROR_HAS("--arg zz: Maker.build has no parameter 'zz'");
	unlink(path);
}

Test(real_factories, check_builds_factories_only_when_nothing_else_is_defined)
{
	tl_cmd_t c = tl_dalic(NULL, "check samples/scripts/real/loader_class.py "
	                            "samples/scripts/real/factory_function.py");
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "loader_class.py: warning: pipeline 'DaliLoader': not built: it needs "
	                  "arguments");
	EXPECT_HAS(c.out, "factory_function.py: warning: pipeline 'data_generator_pipeline': not "
	                  "built: it needs arguments");
	EXPECT_HAS(c.out, "2 of 2 load");
	tl_cmd_free(&c);
	const char *path = tl_write_temp("factories_mixed", ".py", factories_mixed);
	c = tl_dalic(NULL, "check %s", path);
	EXPECT_HAS(c.out, ": loads (1 pipeline)");
	tl_cmd_free(&c);
	unlink(path);
}

/* ---- the __main__ block ---------------------------------------------------------------- */

static const char factories_argparse[] =
    "import argparse\n"
    "import nvidia.dali as dali\n"
    "import nvidia.dali.fn as fn\n"
    "def parse_args():\n"
    "    parser = argparse.ArgumentParser(description='serialize it')\n"
    "    parser.add_argument('file_path', type=str, help='where to save')\n"
    "    parser.add_argument('--add-value', type=int, default='3')\n"
    "    return parser.parse_args()\n"
    "@dali.pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
    "def pipe(add_value=1):\n"
    "    return fn.constant(idata=[10]) + add_value\n"
    "if __name__ == '__main__':\n"
    "    args = parse_args()\n"
    "    pipe(add_value=args.add_value).serialize(filename=args.file_path)\n";

Test(real_factories, argparse_with_a_required_argument_ends_the_main_block)
{
	const char *path = tl_write_temp("factories_argparse", ".py", factories_argparse);
	tl_cmd_t c = tl_dalic(NULL, "run %s --arg add_value=5 -n 1 --dump %s", path, tl_tmpdir());
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, ":8:12: SystemExit: 2 (argparse: the following arguments are required: "
	                  "file_path; dalic gives the script no command-line arguments)");
	EXPECT_HAS(c.out, "the `if __name__ == \"__main__\":` block of line 12 ends at ");
	EXPECT_HAS(c.out, "the block created no pipeline: dalic uses those the module defines");
	tl_cmd_free(&c);
	cr_expect_eq(factories_first_value(path, NULL, "add_value=5"), 15);
	unlink(path);
}

Test(real_factories, argparse_defaults_reach_the_main_block)
{
	/* no required argument: parse_args() gives the defaults, a string one through `type` */
	const char *path =
	    tl_write_temp("factories_defaults", ".py",
	                  "import argparse\n"
	                  "import nvidia.dali as dali\n"
	                  "import nvidia.dali.fn as fn\n"
	                  "@dali.pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                  "def pipe(add_value):\n"
	                  "    return fn.constant(idata=[10]) + add_value\n"
	                  "if __name__ == '__main__':\n"
	                  "    parser = argparse.ArgumentParser()\n"
	                  "    group = parser.add_argument_group('numbers')\n"
	                  "    group.add_argument('--add-value', type=int, default='3')\n"
	                  "    parser.add_argument('--verbose', action='store_true')\n"
	                  "    parser.set_defaults(scale=2)\n"
	                  "    args = parser.parse_args()\n"
	                  "    assert args.verbose is False and args.scale == 2\n"
	                  "    p = pipe(args.add_value * args.scale)\n");
	cr_expect_eq(factories_first_value(path, NULL, NULL), 16);
	unlink(path);
}

Test(real_factories, a_refused_write_ends_the_main_block_not_the_load)
{
	const char *path = tl_write_temp(
	    "factories_write", ".py",
	    "import os\n"
	    "import nvidia.dali as dali\n"
	    "import nvidia.dali.fn as fn\n"
	    "@dali.pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	    "def pipe():\n"
	    "    return fn.constant(idata=[4])\n"
	    "if __name__ == '__main__':\n"
	    "    os.makedirs('./model_repository/dali/1', exist_ok=True)\n"
	    "    pipe().serialize(filename='./model_repository/dali/1/model.dali')\n");
	tl_cmd_t c = tl_dalic(NULL, "run %s -n 1", path);
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, ":8:5: os.makedirs is refused");
	EXPECT_HAS(c.out, "the `if __name__ == \"__main__\":` block of line 7 ends at ");
	tl_cmd_free(&c);
	cr_expect_eq(access("model_repository", F_OK), -1, "nothing was written");
	cr_expect_eq(factories_first_value(path, NULL, NULL), 4);
	unlink(path);
}

Test(real_factories, a_pipeline_error_in_the_main_block_still_stops_the_load)
{
	const char *path =
	    tl_write_temp("factories_strict", ".py",
	                  "import nvidia.dali as dali\n"
	                  "import nvidia.dali.fn as fn\n"
	                  "@dali.pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                  "def pipe():\n"
	                  "    return fn.no_such_operator()\n"
	                  "if __name__ == '__main__':\n"
	                  "    p = pipe()\n");
	cr_expect_neq(factories_load_fails(path, NULL, NULL, 0), 0);
	EXPECT_ERROR_HAS(":5:12: unknown operator fn.no_such_operator");
	unlink(path);
}

Test(real_factories, each_function_body_is_read_once, .timeout = 20)
{
	/* f0 calls f1 three times, f1 f2...: read once per path, 3^24 bodies (the depth cap) */
	char text[8192];
	size_t n = (size_t)snprintf(text, sizeof text,
	                            "import nvidia.dali.fn as fn\n"
	                            "from nvidia.dali import pipeline_def\n"
	                            "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	                            "def direct():\n    return fn.constant(idata=[3])\n");
	for (int i = 0; i < 30; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
		                      "def f%d(x):\n    return f%d(x) + f%d(x + 1) + f%d(x)\n", i,
		                      i + 1, i + 1, i + 1);
	snprintf(text + n, sizeof text - n, "def f30(x):\n    return x\n");
	const char *path = tl_write_temp("factories_chain", ".py", text);
	cr_expect_eq(factories_first_value(path, NULL, NULL), 3);
	unlink(path);
}

Test(real_factories, a_pipeline_of_another_file_is_named_with_its_line)
{
	/* TensorFlow2 ConvNets' dataset_factory.py: Dataset.build() uses dataloader/Dali.py */
	const char *path =
	    tl_write_temp("factories_foreign", ".py",
	                  "import nvidia.dali.plugin.tf as dali_tf\n"
	                  "from dataloader import Dali\n"
	                  "class Dataset:\n"
	                  "    def __init__(self, data_dir):\n"
	                  "        self.data_dir = data_dir\n"
	                  "    def build(self):\n"
	                  "        pipe = Dali.DaliPipeline(data_dir=self.data_dir)\n"
	                  "        return dali_tf.DALIDataset(pipeline=pipe)\n");
	cr_expect_neq(factories_load_fails(path, NULL, NULL, 0), 0);
	EXPECT_ERROR_HAS(": the script creates no pipeline; ");
	EXPECT_ERROR_HAS(".py:7:16 calls Dali.DaliPipeline of a module dalic cannot import (a "
	                 "pipeline of another file: run dalic on that file)");
	unlink(path);
}
