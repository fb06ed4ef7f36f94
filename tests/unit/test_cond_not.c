/* _conditional.not_ (Python's `not` in a conditional pipeline) takes bool predicates only, as
 * DALI 2.4 does: its not_ declares the input's type for a bool output, and DALI's executor
 * refuses that for any other input. */
#include "tests/testlib/script.h"

#include "engine/pipeline.h"
#include "tests/testlib.h"

TestSuite(cond_not, .timeout = 20);

static dalic_pipeline_t *cond_not_pipeline(const char *cast)
{
	char text[1024];
	snprintf(text, sizeof text,
	         "from nvidia.dali import pipeline_def, fn, types\n"
	         "@pipeline_def(batch_size=4, num_threads=1, device_id=None, seed=1,\n"
	         "              enable_conditionals=True, exec_pipelined=False, exec_async=False)\n"
	         "def pipe():\n"
	         "    x = fn.external_source(name='x', dtype=types.INT32)\n"
	         "    y = x * 1\n"
	         "    if not %s:\n"
	         "        y = x + 10\n"
	         "    return y\n"
	         "p = pipe()\n",
	         cast);
	dalic_graphdef_t *g = tl_script_load(text, NULL);
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_from_graphdef(g, &p));
	const int64_t shapes[4] = {0, 0, 0, 0};
	const int32_t x[4] = {0, 1, 2, 0};
	ASSERT_OK(dalic_pipeline_build(p));
	tl_feed(p, "x", DALIC_INT32, 0, 4, shapes, x, NULL);
	return p;
}

Test(cond_not, negates_bool_predicates)
{
	dalic_pipeline_t *p = cond_not_pipeline("fn.cast(x, dtype=types.BOOL)");
	const dalic_batch_t *y = tl_run(p, 0);
	const double want[4] = {10, 1, 2, 10};
	for (int i = 0; i < 4; i++)
		tl_expect_values(y, i, 1, &want[i]);
	dalic_pipeline_destroy(p);
}

Test(cond_not, refuses_other_types_with_dalis_words)
{
	static const char *const casts[] = {"x", "fn.cast(x, dtype=types.UINT8)",
	                                    "fn.cast(x, dtype=types.FLOAT)"};
	static const char *const names[] = {"int32", "uint8", "float"};
	for (int k = 0; k < 3; k++) {
		dalic_pipeline_t *p = cond_not_pipeline(casts[k]);
		const char *msg = tl_run_fails(p, DALIC_EOP);
		char want[128];
		snprintf(want, sizeof want, "Unexpected data type of output 0. Got bool, expected %s",
		         names[k]);
		EXPECT_HAS(msg, want);
		EXPECT_HAS(msg, "__Not_");
		dalic_pipeline_destroy(p);
	}
}
