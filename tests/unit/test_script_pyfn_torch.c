/* Unit tests: the PyTorch plugin's torch_python_function / TorchPythonFunction in pipeline
 * scripts — DALI's TorchPythonFunction schema and instance names, batch_processing True by
 * default (the function gets the batch as a list), per sample when asked, several outputs;
 * a body calling torch is refused at load naming the function and the construct; the name
 * is not in nvidia.dali.fn (AttributeError, as in DALI). */
#include "tests/testlib.h"

#include <unistd.h>

TestSuite(script_pyfn_torch, .timeout = 60);

static const char *const torch_module =
    "import nvidia.dali.fn as fn\n"
    "import nvidia.dali.plugin.pytorch as dalitorch\n"
    "from nvidia.dali.plugin.pytorch.fn import torch_python_function\n"
    "from nvidia.dali import pipeline_def\n"
    "def count(batch):\n"
    "    return [[len(batch), i] for i in range(len(batch))]\n"
    "def both(a, b):\n"
    "    return a + b, a * b\n"
    "@pipeline_def(batch_size=3, num_threads=1, device_id=None, seed=5)\n"
    "def pipe():\n"
    "    x = fn.constant(idata=[3, 1, 2], shape=[3])\n"
    "    n = torch_python_function(x, function=count)\n"
    "    s, m = dalitorch.fn.torch_python_function(x, x, function=both, num_outputs=2,\n"
    "                                              batch_processing=False)\n"
    "    legacy = dalitorch.TorchPythonFunction(function=count)\n"
    "    return n, s, m, legacy(x)\n"
    "p = pipe()\n";

static void torch_expect_ints(const dalic_batch_t *b, int sample, const int64_t *want, int n)
{
	cr_assert_eq(dalic_batch_shape(b, sample)[0], n);
	const void *d = dalic_batch_data(b, sample);
	for (int i = 0; i < n; i++) {
		int64_t got = dalic_batch_dtype(b) == DALIC_INT32 ? ((const int32_t *)d)[i]
		                                                  : ((const int64_t *)d)[i];
		cr_expect_eq(got, want[i], "sample %d [%d]", sample, i);
	}
}

Test(script_pyfn_torch, batch_by_default_per_sample_when_asked)
{
	const char *path = tl_write_temp("torchfn", ".py", torch_module);
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_load(path, NULL, NULL, &p));
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_str_eq(dalic_pipeline_output_name(p, 0), "__TorchPythonFunction_1");
	cr_expect_str_eq(dalic_pipeline_output_name(p, 3), "__TorchPythonFunction_3");
	for (int s = 0; s < 3; s++) {
		/* one call for the batch: it sees 3 samples */
		torch_expect_ints(dalic_pipeline_output(p, 0), s, (int64_t[]){3, s}, 2);
		torch_expect_ints(dalic_pipeline_output(p, 3), s, (int64_t[]){3, s}, 2);
		torch_expect_ints(dalic_pipeline_output(p, 1), s, (int64_t[]){6, 2, 4}, 3);
		torch_expect_ints(dalic_pipeline_output(p, 2), s, (int64_t[]){9, 1, 4}, 3);
	}
	dalic_pipeline_destroy(p);
	unlink(path);
}

static const char *torch_load_error(const char *src)
{
	static char msg[4096];
	const char *path = tl_write_temp("torchfn", ".py", src);
	dalic_pipeline_t *p = NULL;
	int rc = dalic_pipeline_load(path, NULL, NULL, &p);
	cr_expect_neq(rc, DALIC_OK);
	snprintf(msg, sizeof msg, "%s", dalic_last_error());
	dalic_pipeline_destroy(p);
	unlink(path);
	return msg;
}

Test(script_pyfn_torch, torch_calls_and_the_fn_namespace_are_refused)
{
	const char *e =
	    torch_load_error("import torch\n"
	                     "import nvidia.dali.fn as fn\n"
	                     "from nvidia.dali.plugin.pytorch.fn import torch_python_function\n"
	                     "from nvidia.dali import pipeline_def\n"
	                     "def flip(batch):\n"
	                     "    return [torch.flip(t, [0]) for t in batch]\n"
	                     "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	                     "def pipe():\n"
	                     "    return torch_python_function(fn.constant(idata=[1, 2], "
	                     "shape=[2]), function=flip)\n"
	                     "p = pipe()\n");
	EXPECT_HAS(e, "'flip'");
	EXPECT_HAS(e, "it uses 'torch'");
	e = torch_load_error(
	    "import nvidia.dali.fn as fn\n"
	    "from nvidia.dali import pipeline_def\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	    "def pipe():\n"
	    "    return fn.torch_python_function(fn.constant(idata=[1], shape=[1]),\n"
	    "                                    function=len)\n"
	    "p = pipe()\n");
	EXPECT_HAS(e, "AttributeError: module 'nvidia.dali.fn' has no attribute "
	              "'torch_python_function' (it is in nvidia.dali.plugin.pytorch.fn)");
}
