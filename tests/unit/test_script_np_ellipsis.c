/* numpy's Ellipsis in the numpy subset (frontend/script/py/pynp_array.c): `...` stands for
 * as many full slices as the other indices leave, reading and writing. Expected values are
 * worked out by hand on np.arange(24).reshape(2, 3, 4) (element [i, j, k] = 12 i + 4 j + k). */
#include "tests/testlib/pycore.h"

TestSuite(script_np_ellipsis, .timeout = 20);

#define NP_A "import numpy as np\na = np.arange(24).reshape(2, 3, 4)\n"

Test(script_np_ellipsis, leading_and_trailing_ellipsis)
{
	tl_py_t r;
	tl_py_run(&r, NP_A "x = a[..., 0].tolist()\n"
	                   "y = a[1, ...].tolist()\n"
	                   "z = a[..., 1:3].shape\n"
	                   "w = a[0, ..., 2].tolist()\n"
	                   "v = a[...].shape\n"
	                   "u = a[None, ..., 0].shape\n"
	                   "t = a[1, ..., 3].tolist()\n");
	cr_expect_str_eq(tl_py_str(&r, "x"), "[[0, 4, 8], [12, 16, 20]]");
	cr_expect_str_eq(tl_py_str(&r, "y"),
	                 "[[12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]");
	cr_expect_str_eq(tl_py_str(&r, "z"), "(2, 3, 2)");
	cr_expect_str_eq(tl_py_str(&r, "w"), "[2, 6, 10]");
	cr_expect_str_eq(tl_py_str(&r, "v"), "(2, 3, 4)");
	cr_expect_str_eq(tl_py_str(&r, "u"), "(1, 2, 3)");
	cr_expect_str_eq(tl_py_str(&r, "t"), "[15, 19, 23]");
	tl_py_close(&r);
}

Test(script_np_ellipsis, assignment_through_ellipsis)
{
	tl_py_t r;
	tl_py_run(&r, NP_A "b = a.copy()\n"
	                   "b[..., 0] = 7\n"
	                   "b[1, ...] = b[1, ...] * 0 - 1\n"
	                   "x = b[0].tolist()\n"
	                   "y = int(b[1].sum())\n");
	cr_expect_str_eq(tl_py_str(&r, "x"), "[[7, 1, 2, 3], [7, 5, 6, 7], [7, 9, 10, 11]]");
	cr_expect_str_eq(tl_py_str(&r, "y"), "-12");
	tl_py_close(&r);
}

Test(script_np_ellipsis, two_ellipses_and_too_many_indices_are_numpys_errors)
{
	tl_py_t r;
	tl_py_run(&r, NP_A "try:\n"
	                   "    a[..., 0, ...]\n"
	                   "except IndexError as e:\n"
	                   "    two = str(e)\n"
	                   "try:\n"
	                   "    a[0, 1, 2, ..., 0]\n"
	                   "except IndexError as e:\n"
	                   "    many = str(e)\n");
	cr_expect_str_eq(tl_py_str(&r, "two"), "an index can only have a single ellipsis ('...')");
	cr_expect_str_eq(tl_py_str(&r, "many"),
	                 "too many indices for array: array is 3-dimensional, but 4 were indexed");
	tl_py_close(&r);
}
