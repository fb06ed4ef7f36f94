/*
 * Operator seeds as DALI 2.4 assigns them (engine/graph_seeds.h). The expected seeds are the
 * keys DALI's checkpoints showed for the same scripts (pipeline seed 1234, whose seed_seq
 * starts 0x7D46DC03 0x34BE6725 0xB1552E18 0x334EFAB1 0xA209230C).
 */
#include "tests/testlib.h"
#include "tests/testlib/script.h"

#include "engine/graph.h"
#include "engine/pipeline.h"
#include "engine/rng.h"

TestSuite(rng_seeds, .timeout = 20);

#define RNG_SEEDS_HEAD                                                                             \
	"from nvidia.dali import pipeline_def, fn, types\n"                                        \
	"@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1234)\n"                  \
	"def pipe():\n"

static uint32_t rng_seeds_seq[1024]; /* DALI generates 1024 (the values depend on the count) */

static dalic_pipeline_t *rng_seeds_build(const char *body)
{
	char text[2048];
	snprintf(text, sizeof text, RNG_SEEDS_HEAD "%sp = pipe()\n", body);
	dalic_graphdef_t *def = tl_script_load(text, NULL);
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_from_graphdef(def, &p));
	ASSERT_OK(dalic_pipeline_build(p));
	dalic_seed_seq_generate(1234, rng_seeds_seq, 1024);
	return p;
}

static uint64_t rng_seeds_of(dalic_pipeline_t *p, const char *inst)
{
	const dalic_node_t *n = dalic_graph_find_node(dalic_pipeline_graph(p), inst);
	cr_assert_not_null(n, "%s is in the graph", inst);
	return n->seed;
}

Test(rng_seeds, dali_operator_order_not_call_order)
{
	dalic_pipeline_t *p = rng_seeds_build("    a = fn.random.uniform()\n"
	                                      "    b = fn.random.normal()\n"
	                                      "    z = fn.random.coin_flip()\n"
	                                      "    c = fn.random.coin_flip(probability=b)\n"
	                                      "    return c, a\n");
	cr_expect_eq(rng_seeds_seq[0], 0x7D46DC03u);
	cr_expect_eq(rng_seeds_of(p, "__Normal_1"), 0x7D46DC03u, "c's input comes first");
	cr_expect_eq(rng_seeds_of(p, "__CoinFlip_3"), 0x34BE6725u);
	cr_expect_eq(rng_seeds_of(p, "__Uniform_0"), 0xB1552E18u, "the second output last");
	cr_expect_null(dalic_graph_find_node(dalic_pipeline_graph(p), "__CoinFlip_2"),
	               "pruned: it takes no seed");
	dalic_pipeline_destroy(p);
}

Test(rng_seeds, preserved_operators_follow_the_outputs)
{
	dalic_pipeline_t *p = rng_seeds_build("    q = fn.random.uniform(preserve=True)\n"
	                                      "    a = fn.random.normal()\n"
	                                      "    r = fn.random.coin_flip(preserve=True)\n"
	                                      "    return a\n");
	cr_expect_eq(rng_seeds_of(p, "__Normal_1"), rng_seeds_seq[0]);
	cr_expect_eq(rng_seeds_of(p, "__Uniform_0"), rng_seeds_seq[1]);
	cr_expect_eq(rng_seeds_of(p, "__CoinFlip_2"), rng_seeds_seq[2]);
	dalic_pipeline_destroy(p);
}

Test(rng_seeds, given_seeds_are_keys_and_use_up_nothing)
{
	dalic_pipeline_t *p = rng_seeds_build("    a = fn.random.uniform(seed=-1)\n"
	                                      "    b = fn.random.uniform(seed=7)\n"
	                                      "    c = fn.random.uniform()\n"
	                                      "    d = fn.random.uniform(seed=3000000000)\n"
	                                      "    return a, b, c, d\n");
	cr_expect_eq(rng_seeds_of(p, "__Uniform_0"), 0xFFFFFFFFFFFFFFFFull, "-1 is a seed");
	cr_expect_eq(rng_seeds_of(p, "__Uniform_1"), 7);
	cr_expect_eq(rng_seeds_of(p, "__Uniform_2"), rng_seeds_seq[0]);
	cr_expect_eq(rng_seeds_of(p, "__Uniform_3"), 3000000000ull);
	dalic_pipeline_destroy(p);
}

Test(rng_seeds, readers_and_crops_take_seeds_decoders_do_not)
{
	dalic_pipeline_t *p =
	    rng_seeds_build("    j, l = fn.readers.file(file_root='samples/images')\n"
	                    "    i = fn.decoders.image(j)\n"
	                    "    r = fn.decoders.image_random_crop(j)\n"
	                    "    rr = fn.random_resized_crop(i, size=[4, 4])\n"
	                    "    return rr, r, l\n");
	cr_expect_eq(rng_seeds_of(p, "__File_0"), rng_seeds_seq[0]);
	cr_expect_eq(rng_seeds_of(p, "__RandomResizedCrop_3"), rng_seeds_seq[1]);
	cr_expect_eq(rng_seeds_of(p, "__ImageRandomCrop_2"), rng_seeds_seq[2]);
	dalic_pipeline_destroy(p);
}
