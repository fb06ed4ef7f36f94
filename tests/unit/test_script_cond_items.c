/* Conditionals: dict and list items assigned in the branches of an `if` on a DataNode
 * (`params["k"] = ...` in both branches, read after the `if`) are merged like variables, as
 * AutoGraph's composite symbols make DALI do. */
#include "tests/testlib/script.h"

#include "engine/pipeline.h"

#include <unistd.h>

TestSuite(script_cond_items, .timeout = 20);

#define COND_ITEMS_HEADER                                                                          \
	"from nvidia.dali import pipeline_def, fn, types\n"                                        \
	"@pipeline_def(batch_size=4, num_threads=1, device_id=None, enable_conditionals=True)\n"   \
	"def pipe():\n"                                                                            \
	"    x = fn.external_source(name='x', dtype=types.INT32)\n"

static const char *const COND_ITEMS_SCRIPT =
    COND_ITEMS_HEADER "    params = {}\n"
                      "    cfg = {'aug': {'s': 0}}\n"
                      "    if x > 2:\n"
                      "        params['k'] = x * 10\n"
                      "        cfg['aug']['s'] = x + 1\n"
                      "        vals = [x, x + 1]\n"
                      "    else:\n"
                      "        params['k'] = x - 100\n"
                      "        cfg['aug']['s'] = x\n"
                      "        vals = [x, x]\n"
                      "    return params['k'], cfg['aug']['s'], vals[1]\n"
                      "q = pipe()\n";

Test(script_cond_items, items_merge_in_autograph_name_order)
{
	dalic_graphdef_t *g = tl_script_load(COND_ITEMS_SCRIPT, NULL);
	/* outputs of the if, sorted as AutoGraph prints them: cfg['aug']['s'], params['k'], vals */
	const char *ops = tl_def_ops(g);
	/* the same instance names as DALI 2.4 gives this script */
	EXPECT_HAS(ops, "_conditional__Split:__Split_1 ");
	EXPECT_HAS(ops, "_conditional__Merge:__Merge_6 _conditional__Merge:__Merge_7 "
	                "_conditional__Merge:__Merge_8 _conditional__Merge:__Merge_9");
	cr_expect_str_eq(tl_def_outputs(g), "__Merge_7/cpu __Merge_6/cpu __Merge_9/cpu");
	dalic_graphdef_free(g);
}

Test(script_cond_items, merged_items_carry_each_samples_branch)
{
	const char *path = tl_write_temp("cond_items", ".py", COND_ITEMS_SCRIPT);
	dalic_graphdef_t *g = NULL;
	ASSERT_OK(dalic_script_load(path, NULL, &g));
	unlink(path);
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_from_graphdef(g, &p));
	ASSERT_OK(dalic_pipeline_build(p));
	const int32_t x[4] = {1, 2, 3, 4};
	const int64_t shapes[4] = {0};
	for (int i = 0; i < 2; i++) /* the prefetch queue's depth */
		tl_feed(p, "x", DALIC_INT32, 0, 4, shapes, x, NULL);
	const int32_t k[4] = {-99, -98, 30, 40}, s[4] = {1, 2, 4, 5}, v[4] = {1, 2, 4, 5};
	const dalic_batch_t *bk = tl_run(p, 0);
	const dalic_batch_t *bs = dalic_pipeline_output(p, 1), *bv = dalic_pipeline_output(p, 2);
	for (int i = 0; i < 4; i++) {
		cr_expect_eq(*(const int32_t *)dalic_batch_data(bk, i), k[i], "k sample %d", i);
		cr_expect_eq(*(const int32_t *)dalic_batch_data(bs, i), s[i], "s sample %d", i);
		cr_expect_eq(*(const int32_t *)dalic_batch_data(bv, i), v[i], "vals[1] sample %d", i);
	}
	dalic_pipeline_destroy(p);
}

Test(script_cond_items, an_item_set_in_one_branch_only_keeps_its_old_value)
{
	dalic_graphdef_t *g = tl_script_load(COND_ITEMS_HEADER "    d = {'k': x}\n"
	                                                       "    if x > 2:\n"
	                                                       "        d['k'] = x + 1\n"
	                                                       "    return d['k']\n"
	                                                       "q = pipe()\n",
	                                     NULL);
	EXPECT_HAS(tl_def_ops(g), "_conditional__Merge:");
	dalic_graphdef_free(g);
}

Test(script_cond_items, a_new_key_in_one_branch_only_is_dalis_error)
{
	const char *msg = tl_script_error(COND_ITEMS_HEADER "    d = {}\n"
	                                                    "    if x > 2:\n"
	                                                    "        d['k'] = x + 1\n"
	                                                    "    return d['k']\n"
	                                                    "q = pipe()\n",
	                                  DALIC_EINVAL);
	EXPECT_HAS(msg, "SCRIPT:6:5: RuntimeError: Encountered inconsistent outputs");
	EXPECT_HAS(msg, "Variable 'd['k']' must also be initialized in the `else` branch.");
}
