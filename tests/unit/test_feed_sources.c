/*
 * Source names of fed samples (dalic_pipeline_feed_input_sources, dalic_feed_batch_sources,
 * dalic_debug_feed_input_sources): they travel with the samples as a reader's file names do,
 * through operators that keep them, into errors and the outputs, in every executor mode and
 * in debug mode; the caller's strings may be freed as soon as the feed call returns.
 */
#include "tests/testlib.h"

#include <stdlib.h>
#include <string.h>

TestSuite(feed_sources, .timeout = 60);

/* external_source "jpegs" -> decoders.image; outputs: the decoded images, the fed bytes. */
static dalic_pipeline_t *feed_sources_pipe(const tl_mode_t *m)
{
	dalic_pipeline_params_t params = tl_mode_params(m, 2, 2);
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	dalic_op_t *src, *dec;
	ASSERT_OK(dalic_pipeline_add_op(p, "external_source", NULL, &src));
	ASSERT_OK(dalic_op_set_name(src, "jpegs"));
	ASSERT_OK(dalic_pipeline_add_op(p, "decoders.image", "cpu", &dec));
	ASSERT_OK(dalic_op_add_input(dec, "jpegs", NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(dec, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, "jpegs", NULL));
	return p;
}

/* Two files packed back to back; *shapes their sizes. */
static void *feed_sources_pack(const char *a, const char *b, int64_t shapes[2])
{
	size_t na, nb;
	void *da = tl_read_file(a, &na), *db = tl_read_file(b, &nb);
	unsigned char *all = malloc(na + nb);
	cr_assert_not_null(all);
	memcpy(all, da, na);
	memcpy(all + na, db, nb);
	free(da);
	free(db);
	shapes[0] = (int64_t)na;
	shapes[1] = (int64_t)nb;
	return all;
}

static void feed_sources_expect(const dalic_batch_t *b, const char *s0, const char *s1,
                                const char *what)
{
	cr_assert_not_null(b, "%s", what);
	cr_expect_str_eq(dalic_batch_source(b, 0), s0, "%s", what);
	if (s1)
		cr_expect_str_eq(dalic_batch_source(b, 1), s1, "%s", what);
	else
		cr_expect_null(dalic_batch_source(b, 1), "%s", what);
}

Test(feed_sources, names_travel_with_the_samples_in_every_mode)
{
	int64_t shapes[2];
	void *data = feed_sources_pack("samples/images/cat/chelsea.jpg",
	                               "samples/images/space/rocket.jpg", shapes);
	TL_FOR_EACH_MODE(m)
	{
		dalic_pipeline_t *p = feed_sources_pipe(m);
		for (int it = 0; it < 8; it++) { /* 4 run, the rest fills the prefetch queues */
			/* heap copies freed right after the call: the pipeline keeps its own */
			char *names[2] = {strdup(it % 2 ? "b/one.jpg" : "a/one.jpg"), NULL};
			if (it < 2)
				names[1] = strdup("two.jpg");
			ASSERT_OK(dalic_pipeline_feed_input_sources(p, "jpegs", DALIC_UINT8, 1, 2,
			                                            shapes, data, NULL,
			                                            (const char *const *)names));
			free(names[0]);
			free(names[1]);
		}
		for (int it = 0; it < 4; it++) {
			ASSERT_OK(dalic_pipeline_run(p), "%s", m->name);
			const char *s0 = it % 2 ? "b/one.jpg" : "a/one.jpg";
			const char *s1 = it < 2 ? "two.jpg" : NULL;
			feed_sources_expect(dalic_pipeline_output(p, 0), s0, s1, m->name);
			feed_sources_expect(dalic_pipeline_output(p, 1), s0, s1, m->name);
			cr_expect_eq(dalic_batch_shape(dalic_pipeline_output(p, 0), 0)[0], 300,
			             "%s: chelsea is 451x300", m->name);
		}
		dalic_pipeline_destroy(p);
	}
	free(data);
}

Test(feed_sources, a_bad_sample_is_named_by_its_file)
{
	const unsigned char junk[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	int64_t shapes[2];
	void *data = feed_sources_pack("samples/images/cat/chelsea.jpg",
	                               "samples/images/cat/chelsea.jpg", shapes);
	memcpy((unsigned char *)data + shapes[0], junk, sizeof junk);
	shapes[1] = sizeof junk;
	const char *names[2] = {"cat/chelsea.jpg", "uploads/broken.jpg"};
	dalic_pipeline_t *p = feed_sources_pipe(&tl_modes[0]);
	ASSERT_OK(dalic_pipeline_feed_input_sources(p, "jpegs", DALIC_UINT8, 1, 2, shapes, data,
	                                            NULL, names));
	EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EOP);
	EXPECT_ERROR_HAS("sample 1");
	EXPECT_ERROR_HAS("uploads/broken.jpg");
	dalic_pipeline_destroy(p);
	free(data);
}

typedef struct feed_sources_cb {
	void *data;
	int64_t shapes[2];
	int left;
} feed_sources_cb_t;

static int feed_sources_callback(void *user, int64_t iteration, dalic_feed_t *feed)
{
	feed_sources_cb_t *c = user;
	if (c->left-- <= 0)
		return DALIC_EEND;
	char n0[32], n1[32];
	snprintf(n0, sizeof n0, "it%lld/s0.jpg", (long long)iteration);
	snprintf(n1, sizeof n1, "it%lld/s1.jpg", (long long)iteration);
	const char *names[2] = {n0, n1}; /* on the stack: gone when this returns */
	return dalic_feed_batch_sources(feed, DALIC_UINT8, 1, 2, c->shapes, c->data, NULL, names);
}

Test(feed_sources, a_source_callback_names_its_samples)
{
	feed_sources_cb_t cb = {.left = 3};
	cb.data = feed_sources_pack("samples/images/cat/chelsea.jpg",
	                            "samples/images/space/rocket.jpg", cb.shapes);
	TL_FOR_EACH_MODE(m)
	{
		cb.left = 3;
		dalic_pipeline_t *p = feed_sources_pipe(m);
		ASSERT_OK(dalic_pipeline_set_source(p, "jpegs", feed_sources_callback, &cb));
		for (int it = 0; it < 3; it++) {
			ASSERT_OK(dalic_pipeline_run(p), "%s", m->name);
			char n0[32], n1[32];
			snprintf(n0, sizeof n0, "it%d/s0.jpg", it);
			snprintf(n1, sizeof n1, "it%d/s1.jpg", it);
			feed_sources_expect(dalic_pipeline_output(p, 0), n0, n1, m->name);
		}
		EXPECT_STATUS(dalic_pipeline_run(p), DALIC_EEND, "%s", m->name);
		dalic_pipeline_destroy(p);
	}
	free(cb.data);
}

Test(feed_sources, debug_mode_keeps_and_replays_the_names)
{
	int64_t shapes[2];
	void *data = feed_sources_pack("samples/images/cat/chelsea.jpg",
	                               "samples/images/space/rocket.jpg", shapes);
	dalic_pipeline_t *p = feed_sources_pipe(&tl_modes[0]);
	dalic_debug_t *s;
	ASSERT_OK(dalic_debug_open(p, &s));
	char *names[2] = {strdup("x/cat.jpg"), strdup("x/rocket.jpg")};
	ASSERT_DEBUG_OK(s, dalic_debug_feed_input_sources(s, "jpegs", DALIC_UINT8, 1, 2, shapes,
	                                                  data, NULL, (const char *const *)names));
	free(names[0]);
	free(names[1]);
	for (int round = 0; round < 2; round++) { /* restart replays what was fed */
		ASSERT_DEBUG_OK(s, dalic_debug_next(s));
		feed_sources_expect(dalic_debug_output(s, 0), "x/cat.jpg", "x/rocket.jpg",
		                    round ? "replayed" : "fed");
		if (!round)
			ASSERT_DEBUG_OK(s, dalic_debug_restart(s));
	}
	/* a callback's names are recorded with its batches */
	feed_sources_cb_t cb = {.data = data, .shapes = {shapes[0], shapes[1]}, .left = 1};
	ASSERT_DEBUG_OK(s, dalic_debug_set_source(s, "jpegs", feed_sources_callback, &cb));
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	feed_sources_expect(dalic_debug_output(s, 0), "it1/s0.jpg", "it1/s1.jpg", "callback");
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
	free(data);
}
