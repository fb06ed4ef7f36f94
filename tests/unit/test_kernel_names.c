/*
 * Names profilers can read: perf, gdb and nsys show a static function by its bare name, so a
 * kernel callback called `setup` or `run_sample` hides which operator runs. Every function a
 * kernel defines carries its operator's prefix: this reads the kernel sources (the tests run
 * from the repository root) and names any definition of a bare callback name.
 */
#include "tests/testlib.h"

#include <glob.h>
#include <regex.h>
#include <stdio.h>

TestSuite(kernel_names, .timeout = 30);

Test(kernel_names, no_kernel_callback_has_a_bare_name)
{
	regex_t re;
	cr_assert_eq(regcomp(&re,
			     "^static[^;=(]*[^A-Za-z0-9_](init|fini|setup|run|run_sample|"
			     "reader_meta|destroy|reset)\\(",
			     REG_EXTENDED | REG_NOSUB),
		     0);
	glob_t g;
	cr_assert_eq(glob("kernels/*/*/*.c", 0, NULL, &g), 0, "kernel sources not found");
	cr_assert_eq(glob("kernels/common/*.c", GLOB_APPEND, NULL, &g), 0);
	int files = 0, bare = 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		cr_assert(f, "%s", g.gl_pathv[i]);
		files++;
		char line[1024];
		for (int n = 1; fgets(line, sizeof line, f); n++) {
			if (!regexec(&re, line, 0, NULL, 0)) {
				cr_expect_fail("%s:%d: a bare callback name (give it the operator's "
					       "prefix): %s",
					       g.gl_pathv[i], n, line);
				bare++;
			}
		}
		fclose(f);
	}
	globfree(&g);
	regfree(&re);
	cr_expect_gt(files, 100, "only %d kernel sources read", files);
	cr_expect_eq(bare, 0);
}
