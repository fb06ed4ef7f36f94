/*
 * executor_statistics against sizes computed by hand, in every executor mode: DALI's keys
 * ("<STAGE>_<instance>", internal MakeContiguous included), one integer per output, running
 * maxima, and the per-sample rule (contiguous: ceil(bytes / samples); a CPU operator's packed
 * batch: the largest sample). A MakeContiguous that passes its producer's batch through
 * reports the producer's figures, as DALI 2.4 does (recorded with real DALI 2.4, CPU,
 * exec_dynamic=False, enable_memory_stats: every `CPU___MakeContiguous_CpuToCpu_X` entry
 * equals `CPU_X`'s). Also: nothing is collected without enable_memory_stats, the hint
 * suggestion, allocation counts reaching a steady state, and buffer growth events.
 */
#include "tests/testlib.h"

#include <cjson/cJSON.h>

TestSuite(stats_memory, .timeout = 60);

static void stats_memory_expect_sizes(const dalic_stats_output_t *o, int64_t real, int64_t max_real,
                                      int64_t reserved, int64_t max_reserved, const char *what)
{
	cr_expect_eq(o->real_memory_size, real, "%s real_memory_size %lld != %lld", what,
	             (long long)o->real_memory_size, (long long)real);
	cr_expect_eq(o->max_real_memory_size, max_real, "%s max_real_memory_size %lld != %lld",
	             what, (long long)o->max_real_memory_size, (long long)max_real);
	cr_expect_eq(o->reserved_memory_size, reserved, "%s reserved_memory_size %lld != %lld",
	             what, (long long)o->reserved_memory_size, (long long)reserved);
	cr_expect_eq(o->max_reserved_memory_size, max_reserved,
	             "%s max_reserved_memory_size %lld != %lld", what,
	             (long long)o->max_reserved_memory_size, (long long)max_reserved);
}

Test(stats_memory, coin_flip_batch_10_is_40_bytes_in_every_mode)
{
	for (int m = 0; m < TL_NUM_MODES; m++) {
		dalic_pipeline_t *p = tl_stats_pipeline(&tl_modes[m], 10, true);
		dalic_op_t *coin = tl_stats_op(p, "random.coin_flip", NULL);
		char name[64];
		snprintf(name, sizeof name, "%s", dalic_op_name(coin));
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(coin, 0), NULL));
		dalic_stats_t *s = tl_stats_attach(p, false);
		tl_stats_run(p, 4);
		dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
		const dalic_stats_operator_t *op = tl_stats_find(snap, name);
		char key[80];
		snprintf(key, sizeof key, "CPU_%s", name);
		cr_expect_str_eq(op->key, key, "%s", tl_modes[m].name);
		cr_assert_eq(op->num_outputs, 1);
		/* INT32 per sample, per-sample storage on the cpu: the largest sample is 4 */
		stats_memory_expect_sizes(&op->outputs[0], 40, 4, 40, 4, tl_modes[m].name);
		cr_expect_eq(op->outputs[0].suggested_hint, 4);
		/* the output's MakeContiguous passes coin_flip's packed 40 bytes through: ceil(40 /
		 * 10), and the producer's 40 reserved bytes, which it holds none of itself */
		const dalic_stats_operator_t *mc = tl_stats_find_prefix(snap, "__MakeContiguous");
		cr_expect(mc->internal);
		cr_expect(!strncmp(mc->key, "CPU___MakeContiguous", 20), "%s", mc->key);
		stats_memory_expect_sizes(&mc->outputs[0], 40, 4, 40, 4, tl_modes[m].name);
		cr_expect_eq(mc->outputs[0].allocations, 0, "%s", tl_modes[m].name);
		cr_expect_eq(mc->outputs[0].bytes_live, 0, "%s", tl_modes[m].name);
		/* DALI's dict: exactly these two operators, one integer per output */
		char *js = dalic_stats_executor_statistics_json(snap);
		cJSON *es = cJSON_Parse(js);
		cr_assert(es, "%s", js);
		cr_expect_eq(cJSON_GetArraySize(es), 2, "%s", js);
		cJSON *entry = cJSON_GetObjectItemCaseSensitive(es, key);
		cr_assert(entry, "%s missing from %s", key, js);
		cJSON *real = cJSON_GetObjectItemCaseSensitive(entry, "real_memory_size");
		cr_assert_eq(cJSON_GetArraySize(real), 1);
		cr_expect_eq(cJSON_GetArrayItem(real, 0)->valuedouble, 40.0);
		cr_expect_eq(cJSON_GetArraySize(entry), 4);
		cJSON_Delete(es);
		free(js);
		dalic_stats_snapshot_free(snap);
		dalic_stats_destroy(s);
	}
}

/* Feeds uint8 samples whose sizes come from the table row of the iteration. */
typedef struct stats_memory_sized_feed {
	int rows, batch;
	const int64_t *sizes; /* rows x batch */
} stats_memory_sized_feed_t;

static int stats_memory_sized_source(void *user, int64_t iteration, dalic_feed_t *feed)
{
	const stats_memory_sized_feed_t *f = user;
	const int64_t *row = f->sizes + (iteration % f->rows) * f->batch;
	static uint8_t data[4096];
	int64_t total = 0;
	for (int i = 0; i < f->batch; i++)
		total += row[i];
	cr_assert(total <= (int64_t)sizeof data);
	return dalic_feed_batch(feed, DALIC_UINT8, 1, f->batch, row, data, "X");
}

static dalic_pipeline_t *stats_memory_sized_pipeline(const tl_mode_t *m,
                                                     stats_memory_sized_feed_t *f, bool mem,
                                                     char *src_name)
{
	dalic_pipeline_t *p = tl_stats_pipeline(m, f->batch, mem);
	dalic_op_t *src = tl_stats_op(p, "external_source", NULL);
	ASSERT_OK(dalic_op_set_name(src, "src"));
	ASSERT_OK(dalic_op_set_int(src, "dtype", DALIC_UINT8));
	ASSERT_OK(dalic_pipeline_add_output(p, "src", NULL));
	ASSERT_OK(dalic_pipeline_set_source(p, "src", stats_memory_sized_source, f));
	strcpy(src_name, "src");
	return p;
}

Test(stats_memory, contiguous_and_per_sample_rules_with_running_maxima)
{
	/* iteration 0: 10+30+20 = 60 bytes; later iterations smaller: maxima stay */
	static const int64_t sizes[] = {10, 30, 20, 5, 5, 5};
	for (int m = 0; m < TL_NUM_MODES; m++) {
		stats_memory_sized_feed_t f = {.rows = 2, .batch = 3, .sizes = sizes};
		char name[16];
		dalic_pipeline_t *p = stats_memory_sized_pipeline(&tl_modes[m], &f, true, name);
		dalic_stats_t *s = tl_stats_attach(p, false);
		tl_stats_run(p, 4);
		dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
		const dalic_stats_operator_t *src = tl_stats_find(snap, "src");
		const dalic_stats_output_t *o = &src->outputs[0];
		/* one packed buffer, reported per sample: the largest tensor */
		cr_expect(o->contiguous, "%s", tl_modes[m].name);
		cr_expect_eq(o->real_memory_size, 60, "%s", tl_modes[m].name);
		cr_expect_eq(o->max_real_memory_size, 30, "%s", tl_modes[m].name);
		cr_expect_geq(o->reserved_memory_size, 60, "%s", tl_modes[m].name);
		cr_expect_geq(o->max_reserved_memory_size, 30, "%s", tl_modes[m].name);
		const dalic_stats_operator_t *mc = tl_stats_find_prefix(snap, "__MakeContiguous");
		cr_expect(mc->outputs[0].contiguous);
		/* contiguous: ceil(60 / 3) = 20, not the largest sample */
		cr_expect_eq(mc->outputs[0].real_memory_size, 60, "%s", tl_modes[m].name);
		cr_expect_eq(mc->outputs[0].max_real_memory_size, 20, "%s", tl_modes[m].name);
		/* passed through: src's buffer, 60 bytes exactly in iteration 0 (then 15 < 60 / 2
		 * shrinks it and 60 grows it back), ceil(60 / 3) per sample */
		cr_expect_eq(mc->outputs[0].reserved_memory_size, 60, "%s", tl_modes[m].name);
		cr_expect_eq(mc->outputs[0].max_reserved_memory_size, 20, "%s", tl_modes[m].name);
		cr_expect_eq(mc->outputs[0].suggested_hint, 20);
		/* DALI 2.4 reports the average for the packed batch too: ceil(60 / 3) */
		cr_expect_eq(o->max_real_memory_size_dali24, 20, "%s", tl_modes[m].name);
		cr_expect_eq(mc->outputs[0].max_real_memory_size_dali24, 20, "%s", tl_modes[m].name);
		cr_expect_eq(mc->outputs[0].max_reserved_memory_size_dali24, 20, "%s",
		             tl_modes[m].name);
		dalic_stats_snapshot_free(snap);
		dalic_stats_destroy(s);
	}
}

Test(stats_memory, ceil_of_uneven_contiguous_batch)
{
	/* 7 + 2 + 1 = 10 bytes in 3 samples: ceil(10 / 3) = 4 (not the largest sample, 7) */
	static const int64_t sizes[] = {7, 2, 1};
	stats_memory_sized_feed_t f = {.rows = 1, .batch = 3, .sizes = sizes};
	char name[16];
	dalic_pipeline_t *p = stats_memory_sized_pipeline(&tl_modes[0], &f, true, name);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 2);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	const dalic_stats_operator_t *mc = tl_stats_find_prefix(snap, "__MakeContiguous");
	cr_expect_eq(mc->outputs[0].real_memory_size, 10);
	cr_expect_eq(mc->outputs[0].max_real_memory_size, 4);
	cr_expect_eq(tl_stats_find(snap, "src")->outputs[0].max_real_memory_size, 7);
	/* DALI 2.4's figure is the average for both: ceil(10 / 3) */
	cr_expect_eq(tl_stats_find(snap, "src")->outputs[0].max_real_memory_size_dali24, 4);
	cr_expect_eq(mc->outputs[0].max_real_memory_size_dali24, 4);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

static int stats_memory_float_source(void *user, int64_t iteration, dalic_feed_t *feed)
{
	static float data[4 * 3 * 5];
	const int64_t shapes[] = {3, 5, 3, 5, 3, 5, 3, 5};
	return dalic_feed_batch(feed, DALIC_FLOAT, 2, 4, shapes, data, "HW");
}

Test(stats_memory, cast_to_float64_counts_eight_bytes_per_element)
{
	for (int m = 0; m < TL_NUM_MODES; m++) {
		dalic_pipeline_t *p = tl_stats_pipeline(&tl_modes[m], 4, true);
		dalic_op_t *src = tl_stats_op(p, "external_source", NULL);
		ASSERT_OK(dalic_op_set_name(src, "x"));
		dalic_op_t *cast = tl_stats_op(p, "cast", "x");
		ASSERT_OK(dalic_op_set_int(cast, "dtype", DALIC_FLOAT64));
		char name[64];
		snprintf(name, sizeof name, "%s", dalic_op_name(cast));
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(cast, 0), NULL));
		ASSERT_OK(dalic_pipeline_set_source(p, "x", stats_memory_float_source, NULL));
		dalic_stats_t *s = tl_stats_attach(p, false);
		tl_stats_run(p, 3);
		dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
		/* 4 samples x 3x5 x 8 bytes */
		const dalic_stats_operator_t *c = tl_stats_find(snap, name);
		cr_expect_eq(c->outputs[0].real_memory_size, 4 * 15 * 8, "%s", tl_modes[m].name);
		cr_expect_eq(c->outputs[0].max_real_memory_size, 15 * 8, "%s", tl_modes[m].name);
		/* the float input: 4 bytes per element */
		cr_expect_eq(tl_stats_find(snap, "x")->outputs[0].real_memory_size, 4 * 15 * 4);
		cr_expect_eq(snap->num_operators, 3); /* x, cast, MakeContiguous */
		dalic_stats_snapshot_free(snap);
		dalic_stats_destroy(s);
	}
}

Test(stats_memory, nothing_without_enable_memory_stats)
{
	dalic_pipeline_t *p = tl_stats_pipeline(&tl_modes[1], 10, false);
	dalic_op_t *coin = tl_stats_op(p, "random.coin_flip", NULL);
	ASSERT_OK(dalic_op_set_name(coin, "coin"));
	ASSERT_OK(dalic_pipeline_add_output(p, "coin", NULL));
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 3);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	cr_expect(!snap->memory_stats);
	char *js = dalic_stats_executor_statistics_json(snap);
	cr_expect_str_eq(js, "{\n}", "DALI returns {} without memory stats, got %s", js);
	free(js);
	const dalic_stats_operator_t *op = tl_stats_find(snap, "coin");
	cr_expect_eq(op->outputs[0].real_memory_size, 0);
	/* timings and allocations are dalic's own and always on */
	cr_expect_eq(op->time.count, 3 + 1); /* 3 runs; pipelined prefetch ran one more */
	cr_expect_gt(snap->allocations, 0);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_memory, fixed_shapes_reach_zero_allocations_per_iteration)
{
	for (int m = 0; m < TL_NUM_MODES; m++) {
		dalic_pipeline_t *p = tl_stats_pipeline(&tl_modes[m], 8, true);
		dalic_op_t *coin = tl_stats_op(p, "random.coin_flip", NULL);
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(coin, 0), NULL));
		dalic_stats_t *s = tl_stats_attach(p, false);
		tl_stats_run(p, 20);
		dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
		cr_expect_gt(snap->allocations, 0, "%s", tl_modes[m].name);
		cr_expect_eq(snap->last_iteration_allocations, 0, "%s", tl_modes[m].name);
		/* every queue slot allocates once, in its first use */
		cr_expect_geq(snap->last_allocation_iteration, 0);
		cr_expect_lt(snap->last_allocation_iteration, tl_modes[m].cpu + 1, "%s: %lld",
		             tl_modes[m].name, (long long)snap->last_allocation_iteration);
		cr_expect_gt(snap->bytes_live, 0);
		dalic_stats_snapshot_free(snap);
		dalic_stats_destroy(s);
	}
}

Test(stats_memory, growth_events_name_iteration_and_sample)
{
	/* sample 1 grows at iterations 1 and 2 */
	static const int64_t sizes[] = {8, 8, 8, 8, 64, 8, 8, 512, 8, 8, 8, 8};
	stats_memory_sized_feed_t f = {.rows = 4, .batch = 3, .sizes = sizes};
	char name[16];
	dalic_pipeline_t *p = stats_memory_sized_pipeline(&tl_modes[0], &f, true, name);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 4);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	int found = 0;
	for (int i = 0; i < snap->num_growth; i++) {
		const dalic_stats_growth_t *g = &snap->growth[i];
		cr_expect_gt(g->new_capacity, g->old_capacity);
		if (strcmp(g->op, "src") || g->iteration == 0)
			continue;
		cr_expect_eq(g->sample, 1, "growth at iteration %lld blamed sample %d",
		             (long long)g->iteration, g->sample);
		cr_expect(g->iteration == 1 || g->iteration == 2);
		found++;
	}
	cr_expect_eq(found, 2, "expected the two growths of src after iteration 0");
	cr_expect_geq(snap->growth_events, snap->num_growth);
	cr_expect_gt(tl_stats_find(snap, "src")->outputs[0].growth_events, 2);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_memory, reader_growth_names_the_source_file)
{
	dalic_pipeline_t *p = tl_stats_pipeline(&tl_modes[0], 2, true);
	dalic_op_t *rd = tl_stats_op(p, "readers.file", NULL);
	ASSERT_OK(dalic_op_set_name(rd, "reader"));
	ASSERT_OK(dalic_op_set_string(rd, "file_root", "samples/images"));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(rd, 0), NULL));
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 6);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	int with_source = 0;
	for (int i = 0; i < snap->num_growth; i++)
		if (!strcmp(snap->growth[i].op, "reader") && snap->growth[i].source) {
			with_source++;
			/* the largest file of the batch, as the reader named it */
			cr_expect(strstr(snap->growth[i].source, ".jpg") ||
			              strstr(snap->growth[i].source, ".png"),
			          "%s", snap->growth[i].source);
		}
	cr_expect_gt(with_source, 0, "no growth event of the reader names its file");
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

/* src -> output on the gpu: the copy and the output's MakeContiguous hold device memory and
 * src's buffers are pinned, the buffers DALI's hints presize. */
static dalic_pipeline_t *stats_memory_gpu_sized_pipeline(stats_memory_sized_feed_t *f, int64_t hint)
{
	dalic_pipeline_params_t prm;
	dalic_pipeline_params_init(&prm);
	prm.batch_size = f->batch;
	prm.num_threads = 1;
	prm.device_id = 0; /* emulated without a GPU */
	prm.exec_pipelined = prm.exec_async = false;
	prm.prefetch_cpu = prm.prefetch_gpu = 1;
	prm.enable_memory_stats = true;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	dalic_op_t *src = tl_stats_op(p, "external_source", NULL);
	ASSERT_OK(dalic_op_set_name(src, "src"));
	ASSERT_OK(dalic_op_set_int(src, "dtype", DALIC_UINT8));
	if (hint)
		ASSERT_OK(dalic_op_set_ints(src, "bytes_per_sample_hint", 1, &hint));
	ASSERT_OK(dalic_pipeline_add_output(p, "src", "gpu"));
	ASSERT_OK(dalic_pipeline_set_source(p, "src", stats_memory_sized_source, f));
	return p;
}

Test(stats_memory, suggested_hint_removes_buffer_growth)
{
	/* the largest sample arrives late: src's pinned buffers grow for it without a hint */
	static const int64_t sizes[] = {8, 8, 8, 8, 64, 8, 8, 8, 512, 8, 8, 8};
	stats_memory_sized_feed_t f = {.rows = 4, .batch = 3, .sizes = sizes};
	dalic_pipeline_t *p = stats_memory_gpu_sized_pipeline(&f, 0);
	dalic_stats_t *s = tl_stats_attach(p, false);
	tl_stats_run(p, 4);
	dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
	const dalic_stats_output_t *o = &tl_stats_find(snap, "src")->outputs[0];
	cr_expect_eq(o->memory_kind, 1, "src feeds a mixed operator: pinned");
	cr_expect_gt(o->growth_events, 0);
	cr_expect_eq(o->last_allocation_iteration, 2);
	int64_t hint = o->suggested_hint;
	cr_expect_eq(hint, 512);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);

	/* with the suggestion as src's bytes_per_sample_hint its buffers are presized at build
	 * (DALI reserves pinned and device buffers) and never grow or allocate again */
	p = stats_memory_gpu_sized_pipeline(&f, hint);
	s = tl_stats_attach(p, false);
	tl_stats_run(p, 4);
	snap = tl_stats_finish(s, p);
	o = &tl_stats_find(snap, "src")->outputs[0];
	cr_expect_eq(o->hint, 512);
	cr_expect_eq(o->growth_events, 0, "%lld growth events with the hint",
	             (long long)o->growth_events);
	cr_expect_leq(o->last_allocation_iteration, 0, "allocated in iteration %lld",
	              (long long)o->last_allocation_iteration);
	cr_expect_eq(o->reserved_memory_size, 3 * 512);
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s);
}

Test(stats_memory, sizes_that_move_between_samples_stop_allocating)
{
	/* every sample's size changes each iteration, the batch's total (60) does not: the
	 * packed batch is one buffer sized for the total, so each queue slot allocates once.
	 * One buffer per sample would grow and shrink (30 -> 10 is below half) every time. */
	static const int64_t sizes[] = {10, 30, 20, 30, 20, 10, 20, 10, 30};
	for (int m = 0; m < TL_NUM_MODES; m++) {
		stats_memory_sized_feed_t f = {.rows = 3, .batch = 3, .sizes = sizes};
		char name[16];
		dalic_pipeline_t *p = stats_memory_sized_pipeline(&tl_modes[m], &f, true, name);
		dalic_stats_t *s = tl_stats_attach(p, false);
		tl_stats_run(p, 12);
		dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
		const dalic_stats_output_t *o = &tl_stats_find(snap, "src")->outputs[0];
		cr_expect_eq(o->last_allocations, 0, "%s", tl_modes[m].name);
		cr_expect_leq(o->allocations, tl_modes[m].cpu, "%s: %lld allocations",
		              tl_modes[m].name, (long long)o->allocations);
		cr_expect_lt(o->last_allocation_iteration, tl_modes[m].cpu, "%s: %lld",
		             tl_modes[m].name, (long long)o->last_allocation_iteration);
		dalic_stats_snapshot_free(snap);
		dalic_stats_destroy(s);
	}
}

/* Three 2-frame sequences of 4 bytes per frame. */
static int stats_memory_frames_source(void *user, int64_t iteration, dalic_feed_t *feed)
{
	(void)user;
	(void)iteration;
	static const uint8_t data[24] = {0};
	const int64_t shapes[] = {2, 4, 2, 4, 2, 4};
	return dalic_feed_batch(feed, DALIC_UINT8, 2, 3, shapes, data, "FW");
}

Test(stats_memory, make_contiguous_copies_borrowed_samples)
{
	/* element_extract's frames borrow src's samples 8 bytes apart: not one buffer, so the
	 * output's MakeContiguous copies them into its own (at 64-byte boundaries); a reshape of
	 * src would lie back to back and pass through */
	for (int m = 0; m < TL_NUM_MODES; m++) {
		dalic_pipeline_t *p = tl_stats_pipeline(&tl_modes[m], 3, true);
		dalic_op_t *src = tl_stats_op(p, "external_source", NULL), *ex;
		ASSERT_OK(dalic_op_set_name(src, "src"));
		ASSERT_OK(dalic_op_set_int(src, "dtype", DALIC_UINT8));
		ASSERT_OK(dalic_pipeline_add_op(p, "element_extract", "cpu", &ex));
		ASSERT_OK(dalic_op_set_name(ex, "ex"));
		ASSERT_OK(dalic_op_add_input(ex, "src", NULL));
		ASSERT_OK(dalic_op_set_ints(ex, "element_map", 1, (int64_t[]){1}));
		ASSERT_OK(dalic_pipeline_add_output(p, "ex", NULL));
		ASSERT_OK(dalic_pipeline_set_source(p, "src", stats_memory_frames_source, NULL));
		dalic_stats_t *s = tl_stats_attach(p, false);
		tl_stats_run(p, 3);
		dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
		const dalic_stats_operator_t *mc = tl_stats_find_prefix(snap, "__MakeContiguous");
		cr_expect_gt(mc->outputs[0].allocations, 0, "%s", tl_modes[m].name);
		cr_expect_gt(mc->outputs[0].bytes_live, 0, "%s", tl_modes[m].name);
		stats_memory_expect_sizes(&mc->outputs[0], 12, 4, 192, 64, tl_modes[m].name);
		dalic_stats_snapshot_free(snap);
		dalic_stats_destroy(s);
	}
}
