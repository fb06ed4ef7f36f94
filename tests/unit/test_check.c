/* Unit tests: `dalic check`, the pipeline linter — dalic_check_module's findings at the
 * operator's file:line:col (gpu operators and .gpu() in CPU-only pipelines, graphs that do
 * not build, operators that cannot be serialized, short external sources, random operators
 * without a seed, modules that do not load), and the command's per-module lines and
 * closing `N of M load` over a directory. */
#include "tests/testlib.h"

#include <sys/stat.h>

TestSuite(check, .timeout = 30);

/* Runs the linter on text written to a temporary module; returns the report with the
 * module's path replaced by "MOD" (static buffer). */
static const char *check_run(const char *text, int *pipelines, int *clean)
{
	static char report[8192];
	char path[256];
	snprintf(path, sizeof path, "%s", tl_write_temp("check", ".py", text));
	FILE *f = tmpfile();
	cr_assert_not_null(f);
	ASSERT_OK(dalic_check_module(path, NULL, f, pipelines, clean));
	unlink(path);
	rewind(f);
	char raw[8192];
	size_t n = fread(raw, 1, sizeof raw - 1, f);
	raw[n] = 0;
	fclose(f);
	size_t k = 0, plen = strlen(path);
	for (const char *p = raw; *p && k + 4 < sizeof report;) {
		if (!strncmp(p, path, plen)) {
			k += (size_t)snprintf(report + k, sizeof report - k, "MOD");
			p += plen;
		} else {
			report[k++] = *p++;
		}
	}
	report[k] = 0;
	return report;
}

Test(check, findings_at_their_lines)
{
	int pipes, clean;
	const char *r = check_run(
	    "import nvidia.dali.fn as fn\n"
	    "from nvidia.dali import pipeline_def\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)\n"
	    "def gpu_in_cpu():\n"
	    "    x = fn.random.uniform(shape=[4])\n"
	    "    return fn.flip(x.gpu())\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=0, seed=1)\n"
	    "def stage_order():\n"
	    "    x = fn.random.uniform(shape=[4, 4, 3])\n"
	    "    g = fn.flip(x, device='gpu')\n"
	    "    return fn.rotate(g, angle=10, device='cpu')\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None, prefetch_queue_depth=3)\n"
	    "def short_source():\n"
	    "    return fn.external_source(source=[[1, 2], [3, 4]], batch=True)\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	    "def no_seed():\n"
	    "    files, labels = fn.readers.file(file_root='/tmp')\n"
	    "    return labels, fn.random.coin_flip(), fn.random.uniform()\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=3)\n"
	    "def fine():\n"
	    "    return fn.random.coin_flip()\n"
	    "a = gpu_in_cpu()\n"
	    "b = stage_order()\n"
	    "c = short_source()\n"
	    "d = no_seed()\n"
	    "e = fine()\n",
	    &pipes, &clean);
	cr_expect_eq(pipes, 5);
	cr_expect_eq(clean, 3); /* warnings do not stop a pipeline from loading */
	cr_expect(tl_text_has(
	              r,
	              "MOD:6:12: error: pipeline 'a': operator '__Flip_1' (Flip) runs on 'gpu' in "
	              "a CPU-only pipeline (device_id=None): DALI refuses it when it builds\n",
	              false));
	/* the graph error is placed at the operator it names first, the cpu one */
	cr_expect(tl_text_has(r,
	                      "MOD:11:12: error: pipeline 'b': the graph does not build: Op "
	                      "__Rotate_2 of type cpu has parent Op __Flip_1",
	                      false));
	cr_expect(tl_text_has(r,
	                      "MOD:14:12: warning: pipeline 'c': external source "
	                      "'__ExternalSource_0' gives 2 batches but the pipeline prefetches 3",
	                      false));
	/* one seed warning per pipeline; a reader that does not shuffle draws nothing */
	cr_expect(tl_text_has(r,
	                      "MOD:18:20: warning: pipeline 'd': random operator '__CoinFlip_1' "
	                      "(random.coin_flip) and the other random operators draws from a "
	                      "seed picked from the clock",
	                      false));
	cr_expect(!strstr(r, "pipeline 'e'"), "%s", r);
	cr_expect(!strstr(r, "__File_0"), "%s", r);
}

Test(check, modules_that_do_not_load)
{
	int pipes, clean;
	const char *r = check_run("import nvidia.dali.ops as ops\n"
	                          "from nvidia.dali.pipeline import Pipeline\n"
	                          "pipe = Pipeline(batch_size=2, num_threads=1, device_id=None)\n"
	                          "dec = ops.nvJPEGDecoder(device='mixed')\n",
	                          &pipes, &clean);
	cr_expect_eq(pipes, 0);
	cr_expect_eq(clean, 0);
	cr_expect_str_eq(r, "MOD:4:7: AttributeError: module 'nvidia.dali.ops' has no attribute "
	                    "'nvJPEGDecoder': DALI removed this operator name before DALI 1.0; use "
	                    "ops.decoders.Image(device=\"mixed\")\n");
	/* a pipeline that fails while it is made: the others are still checked */
	r = check_run("import nvidia.dali.fn as fn\n"
	              "from nvidia.dali import pipeline_def\n"
	              "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)\n"
	              "def good():\n"
	              "    return fn.random.coin_flip()\n"
	              "g = good()\n",
	              &pipes, &clean);
	cr_expect_eq(pipes, 1);
	cr_expect_eq(clean, 1);
	cr_expect_str_eq(r, "");
	/* a module that makes no pipeline: the report says why, not only that it fails */
	r = check_run("import nvidia.dali.fn as fn\n"
	              "x = 1\n",
	              &pipes, &clean);
	cr_expect_eq(pipes, 0);
	cr_expect(tl_text_has(r, "MOD: the script creates no pipeline (call a @pipeline_def "
	                         "function, create a Pipeline object or a Pipeline subclass)\n",
	                      false),
	          "%s", r);
	/* ... and where the reason is a skipped statement, which one */
	r = check_run("import torch\n"
	              "import nvidia.dali.fn as fn\n"
	              "types = {'f': torch.float32}\n",
	              &pipes, &clean);
	cr_expect_eq(pipes, 0);
	cr_expect(tl_text_has(r, "MOD: the script creates no pipeline; a statement that could not "
	                         "be evaluated was skipped: MOD:3:15: torch.float32: dalic does "
	                         "not evaluate torch",
	                      false),
	          "%s", r);
}

/* the modules written in real repositories' patterns (samples/scripts/real) all load; the
 * python_function one is warned about as a pipeline that cannot become a .pb file */
Test(check, the_pattern_modules_load)
{
	tl_cmd_t c = tl_dalic(NULL, "check samples/scripts/real");
	cr_expect_eq(c.status, 0, "%s", c.out);
	static const char *const loads[] = {"helpers_and_exceptions", "legacy_subclass",
	                                    "methods_factories_compose", "numba_downscale",
	                                    "python_function_aug", "sharded_by_rank"};
	for (int i = 0; i < 6; i++) {
		char want[160];
		snprintf(want, sizeof want, "samples/scripts/real/%s.py: loads (1 pipeline)\n",
		         loads[i]);
		cr_expect(tl_text_has(c.out, want, false), "%s: %s", want, c.out);
	}
	cr_expect(tl_text_has(c.out,
	                      "samples/scripts/real/python_function_aug.py:22:15: warning: pipeline "
	                      "'pipe': operator '__PythonFunction_3' (PythonFunction) cannot be "
	                      "serialized",
	                      false),
	          "%s", c.out);
	cr_expect(tl_text_has(c.out,
	                      "samples/scripts/real/numba_downscale.py:47:13: warning: pipeline "
	                      "'pipe': operator '__NumbaFunction_3' (NumbaFunction) cannot "
	                      "be serialized",
	                      false),
	          "%s", c.out);
	/* a module that only defines its pipelines is checked on each; one whose arguments have
	 * no defaults is not built, which is a warning, not a failure */
	cr_expect(tl_text_has(c.out,
	                      "samples/scripts/real/pipelines.py: warning: pipeline 'train_pipe': "
	                      "not built: it needs arguments (samples/scripts/real/pipelines.py:20:1: "
	                      "train_pipe(data_dir, crop=224, shard_id=0, num_shards=1) needs "
	                      "'data_dir': pass --arg data_dir=VALUE)\n",
	                      false),
	          "%s", c.out);
	cr_expect(tl_text_has(c.out, "samples/scripts/real/pipelines.py: loads (2 pipelines)\n",
	                      false),
	          "%s", c.out);
	cr_expect(tl_text_has(c.out, "\n22 of 22 load\n", false), "%s", c.out);
	tl_cmd_free(&c);
}

Test(check, the_command_over_a_directory)
{
	char dir[] = "/tmp/dalic_check_XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char path[512];
	snprintf(path, sizeof path, "%s/a_good.py", dir);
	tl_write_text(path, "import nvidia.dali.fn as fn\n"
	                    "from nvidia.dali import pipeline_def\n"
	                    "print('display output stays out of the report')\n"
	                    "@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)\n"
	                    "def p():\n"
	                    "    return fn.random.coin_flip()\n"
	                    "pipe = p()\n");
	snprintf(path, sizeof path, "%s/sub", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/sub/b_bad.py", dir);
	tl_write_text(path, "import nvidia.dali.fn as fn\n"
	                    "x = fn.no_such_op()\n");
	snprintf(path, sizeof path, "%s/notes.txt", dir);
	tl_write_text(path, "not a module\n");
	tl_cmd_t c = tl_dalic(NULL, "check %s", dir);
	cr_expect_eq(c.status, 1);
	char want[2048];
	snprintf(want, sizeof want,
	         "%s/a_good.py: loads (1 pipeline)\n"
	         "%s/sub/b_bad.py:2:5: unknown operator fn.no_such_op: not in the dalic operator "
	         "registry (see `dalic ops`)\n"
	         "%s/sub/b_bad.py: does not load\n"
	         "1 of 2 load\n",
	         dir, dir, dir);
	cr_expect_str_eq(c.out, want);
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "check %s/a_good.py --seed 4", dir);
	cr_expect_eq(c.status, 0, "%s", c.out);
	cr_expect(tl_text_has(c.out, "1 of 1 load\n", false));
	tl_cmd_free(&c);
	c = tl_dalic(NULL, "check");
	cr_expect_eq(c.status, 2);
	tl_cmd_free(&c);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	cr_expect_eq(system(path), 0);
}
