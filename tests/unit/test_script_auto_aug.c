/* Unit tests: nvidia.dali.auto_aug as dalic provides it — embedded Python modules run on
 * import (py/pylibmod.c), their errors told at the script's call, and the inspect /
 * warnings modules they use. The graphs themselves are compared with DALI's by the oracle
 * cases tests/dali/cases/auto_aug_*.py. */
#include "tests/testlib/pycore.h"
#include "tests/testlib/script.h"

#include <stdio.h>
#include <string.h>

TestSuite(script_auto_aug, .timeout = 30);

Test(script_auto_aug, inspect_signature_lists_parameters)
{
	tl_py_t r;
	tl_py_run(&r, "import inspect\n"
	              "def f(a, b=2, *c, d, e=3, **g):\n"
	              "    pass\n"
	              "class K:\n"
	              "    def m(self, x, y=1):\n"
	              "        pass\n"
	              "ps = inspect.signature(f).parameters\n"
	              "names = list(ps.keys())\n"
	              "kinds = [p.kind for p in ps.values()]\n"
	              "empty = [p.default is inspect.Parameter.empty for p in ps.values()]\n"
	              "defaults = [ps['b'].default, ps['e'].default]\n"
	              "pk = inspect.Parameter.POSITIONAL_OR_KEYWORD == 1 and "
	              "inspect.Parameter.KEYWORD_ONLY == 3\n"
	              "bound = list(inspect.signature(K().m).parameters)\n"
	              "try:\n"
	              "    inspect.signature(len)\n"
	              "except ValueError as e:\n"
	              "    nosig = str(e)\n");
	cr_expect_str_eq(tl_py_str(&r, "names"), "['a', 'b', 'c', 'd', 'e', 'g']");
	cr_expect_str_eq(tl_py_str(&r, "kinds"), "[1, 1, 2, 3, 3, 4]");
	cr_expect_str_eq(tl_py_str(&r, "empty"), "[True, False, True, True, False, True]");
	cr_expect_str_eq(tl_py_str(&r, "defaults"), "[2, 3]");
	cr_expect_eq(tl_py_global(&r, "pk")->b, true);
	cr_expect_str_eq(tl_py_str(&r, "bound"), "['x', 'y']");
	cr_expect_str_eq(tl_py_str(&r, "nosig"),
	                 "no signature found for builtin_function_or_method");
	tl_py_close(&r);
}

Test(script_auto_aug, warnings_warn_names_the_line)
{
	tl_py_t r;
	tl_py_open(&r, "import warnings\n"
	               "x = 1\n"
	               "warnings.warn('careful', DeprecationWarning)\n"
	               "warnings.warn(f'x is {x}')\n");
	FILE *w = tmpfile();
	cr_assert_not_null(w);
	r.I.warn = w;
	ASSERT_OK(dalic_pystate_run(&r.I));
	char buf[256] = {0};
	rewind(w);
	size_t n = fread(buf, 1, sizeof buf - 1, w);
	buf[n] = 0;
	cr_expect_str_eq(buf, "dalic: warning: core.py:3:1: DeprecationWarning: careful\n"
	                      "dalic: warning: core.py:4:1: UserWarning: x is 1\n");
	fclose(w);
	tl_py_close(&r);
}

/* The head of a pipeline script over the sample photos; `body` adds lines to it. */
#define SCRIPT_AUTO_AUG_HEAD                                                                       \
	"from nvidia.dali import pipeline_def, fn, types\n"                                        \
	"@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1,\n"                     \
	"              enable_conditionals=True)\n"                                                \
	"def p():\n"                                                                               \
	"    jpegs, labels = fn.readers.file(file_root='samples/images')\n"                        \
	"    images = fn.decoders.image(jpegs, output_type=types.RGB)\n"

Test(script_auto_aug, module_errors_are_told_at_the_scripts_call)
{
	const char *msg =
	    tl_script_error("from nvidia.dali.auto_aug import rand_augment\n" SCRIPT_AUTO_AUG_HEAD
	                    "    return rand_augment.rand_augment(images, n=2, m=40)\n"
	                    "pipe = p()\n",
	                    DALIC_EINVAL);
	/* the script's line first, then where the module raised it, with both lines shown */
	EXPECT_HAS(msg, "SCRIPT:8:12: nvidia/dali/auto_aug/rand_augment.py:");
	EXPECT_HAS(msg, "Exception: The magnitude bin `m` must be an integer from `[0, 30]` "
	                "range. Got 40.");
	EXPECT_HAS(msg, "    return rand_augment.rand_augment(images, n=2, m=40)\n");
	msg = tl_script_error(
	    "import nvidia.dali.auto_aug.trivial_augment as ta\n" SCRIPT_AUTO_AUG_HEAD
	    "    return ta.trivial_augment_wide(images, excluded=['blur'])\n"
	    "pipe = p()\n",
	    DALIC_EINVAL);
	EXPECT_HAS(msg, "SCRIPT:8:12: ");
	EXPECT_HAS(msg, "The `blur` was specified in `excluded`, but the TrivialAugmentWide suite "
	                "does not contain augmentation with this name.");
}

Test(script_auto_aug, imports_bind_submodules_and_exceptions_are_catchable)
{
	/* module-level code outside the definition: a Policy error is an Exception the script
	 * catches; the submodules are attributes of their packages once imported */
	dalic_graphdef_t *g = tl_script_load(
	    "import nvidia.dali.auto_aug.augmentations\n"
	    "import nvidia.dali.auto_aug.auto_augment as aa\n"
	    "from nvidia.dali.auto_aug.core import Policy, augmentation\n"
	    "from nvidia.dali.auto_aug import core\n"
	    "a = nvidia.dali.auto_aug.augmentations\n"
	    "assert a.rotate.name == 'rotate' and a.translate_x_no_shape.name == 'translate_x'\n"
	    "assert core.Policy is Policy\n"
	    "try:\n"
	    "    Policy('p', 3, [[(a.rotate, 0.5, 7)]])\n"
	    "    caught = None\n"
	    "except Exception as e:\n"
	    "    caught = str(e)\n"
	    "assert caught == 'Magnitude of the augmentation must be an integer from `[0, 2]` "
	    "range. Got `7` for augmentation `rotate`.', caught\n"
	    "pol = aa.get_image_net_policy()\n"
	    "assert len(pol.sub_policies) == 25 and pol.num_magnitude_bins == 11\n"
	    "assert list(pol.augmentations)[:3] == ['auto_contrast', 'color', 'equalize']\n"
	    "@augmentation(mag_range=(0, 1))\n"
	    "def scale(data, s):\n"
	    "    return data * s\n"
	    "assert scale.name == 'scale' and scale.mag_range == (0, 1)\n"
	    "assert scale.augmentation(name='other').name == 'other'\n" SCRIPT_AUTO_AUG_HEAD
	    "    return aa.auto_augment_image_net(images)\n"
	    "pipe = p()\n",
	    NULL);
	/* the policy's random draws come first, as in DALI */
	EXPECT_HAS(tl_def_ops(g), "random__Uniform:__Uniform_2 random__Uniform:__Uniform_3");
	dalic_graphdef_free(g);
}
