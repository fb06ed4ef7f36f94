/*
 * The executor's device path on the host-grid backend (tests/testlib/cuda_hostgrid.h): a
 * pipeline of gpu operators with kernels in the dispatch table (flip, cast, transpose, copy)
 * around one without (brightness_contrast, which keeps the CPU path), run through the public
 * API in every executor mode and compared byte for byte with the same pipeline on the
 * emulated backend. Also: the stream per stage and the events per operator, the fake-clock
 * GPU time in the stats (exactly the threads the kernels ran), which outputs live in device
 * and which in pinned memory, DALI's growth rules for device and pinned buffers with their
 * DALI_* variables, the GPU_ executor_statistics keys, --device-id, and that the emulated
 * backend still says EMULATED and runs no kernel.
 */
#include "tests/testlib.h"
#include "tests/testlib/cuda_hostgrid.h"

#include "engine/device.h"
#include "engine/memory.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

TestSuite(gpu_backend, .timeout = 120);

#define GB_N 4     /* samples a batch */
#define GB_ITERS 3 /* iterations compared */
#define GB_OUTS 2  /* outputs: copy (the chain's end), flip */

/* Shapes (HWC, uint8) per iteration: not multiples of the 2048-item block, several blocks a
 * sample, one empty sample, sizes changing between iterations. */
static const int64_t gb_odd_shapes[GB_ITERS][GB_N * 3] = {
    {7, 13, 3, 33, 65, 3, 0, 5, 3, 40, 41, 3},
    {64, 64, 3, 1, 1, 3, 17, 300, 3, 9, 2, 3},
    {5, 5, 3, 6, 6, 3, 7, 7, 3, 8, 8, 3},
};
static const int32_t gb_h[GB_ITERS][GB_N] = {{1, 0, 1, 1}, {0, 1, 1, 0}, {1, 1, 0, 0}};
static const int32_t gb_v[GB_ITERS][GB_N] = {{0, 1, 1, 0}, {1, 1, 0, 0}, {0, 1, 0, 1}};

typedef struct gb_names {
	char flip[64], cast[64], bc[64], transpose[64], copy[64];
} gb_names_t;

/* in(cpu) -> flip(gpu) -> cast(gpu, float) -> brightness_contrast(gpu, no kernel) ->
 * transpose(gpu, HWC -> CHW) -> copy(gpu); outputs: copy and (when `flip_out`) flip. */
static dalic_pipeline_t *gb_pipeline(const tl_mode_t *m, int device_id, bool flip_out,
                                     gb_names_t *names)
{
	dalic_pipeline_params_t params = tl_mode_params(m, GB_N, 2);
	params.device_id = device_id;
	params.enable_memory_stats = true;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	tl_source(p, "in");
	tl_source(p, "h");
	tl_source(p, "v");
	dalic_op_t *flip = NULL, *cast = NULL, *bc = NULL, *tr = NULL, *copy = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, "flip", "gpu", &flip));
	ASSERT_OK(dalic_op_add_input(flip, "in", "gpu"));
	ASSERT_OK(dalic_op_set_arg_input(flip, "horizontal", "h"));
	ASSERT_OK(dalic_op_set_arg_input(flip, "vertical", "v"));
	ASSERT_OK(dalic_pipeline_add_op(p, "cast", "gpu", &cast));
	ASSERT_OK(dalic_op_add_input(cast, dalic_op_output(flip, 0), NULL));
	ASSERT_OK(dalic_op_set_int(cast, "dtype", DALIC_FLOAT));
	ASSERT_OK(dalic_pipeline_add_op(p, "brightness_contrast", "gpu", &bc));
	ASSERT_OK(dalic_op_add_input(bc, dalic_op_output(cast, 0), NULL));
	ASSERT_OK(dalic_op_set_float(bc, "brightness", 1.5));
	ASSERT_OK(dalic_op_set_float(bc, "contrast", 0.75));
	ASSERT_OK(dalic_pipeline_add_op(p, "transpose", "gpu", &tr));
	ASSERT_OK(dalic_op_add_input(tr, dalic_op_output(bc, 0), NULL));
	const int64_t perm[] = {2, 0, 1};
	ASSERT_OK(dalic_op_set_ints(tr, "perm", 3, perm));
	ASSERT_OK(dalic_pipeline_add_op(p, "copy", "gpu", &copy));
	ASSERT_OK(dalic_op_add_input(copy, dalic_op_output(tr, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(copy, 0), NULL));
	if (flip_out)
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(flip, 0), NULL));
	if (names) {
		snprintf(names->flip, sizeof names->flip, "%s", dalic_op_name(flip));
		snprintf(names->cast, sizeof names->cast, "%s", dalic_op_name(cast));
		snprintf(names->bc, sizeof names->bc, "%s", dalic_op_name(bc));
		snprintf(names->transpose, sizeof names->transpose, "%s", dalic_op_name(tr));
		snprintf(names->copy, sizeof names->copy, "%s", dalic_op_name(copy));
	}
	return p;
}

/* Random uint8 samples of iteration `it`'s shapes (seeded by it), fed with the flags. */
static void gb_feed(dalic_pipeline_t *p, const int64_t (*shapes)[GB_N * 3], int it)
{
	size_t total = 0;
	for (int i = 0; i < GB_N; i++)
		total += (size_t)(shapes[it][3 * i] * shapes[it][3 * i + 1] * shapes[it][3 * i + 2]);
	uint8_t *data = malloc(total + 1);
	uint32_t x = 2463534242u + (uint32_t)it * 7919u;
	for (size_t k = 0; k < total; k++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		data[k] = (uint8_t)(x >> 24);
	}
	tl_feed(p, "in", DALIC_UINT8, 3, GB_N, shapes[it], data, "HWC");
	free(data);
	int64_t one[GB_N];
	for (int i = 0; i < GB_N; i++)
		one[i] = 1;
	tl_feed(p, "h", DALIC_INT32, 1, GB_N, one, gb_h[it], NULL);
	tl_feed(p, "v", DALIC_INT32, 1, GB_N, one, gb_v[it], NULL);
}

/* Feeds every iteration, and a few more for the prefetching modes to take. */
static void gb_feed_all(dalic_pipeline_t *p, const int64_t (*shapes)[GB_N * 3])
{
	for (int it = 0; it < GB_ITERS + 3; it++)
		gb_feed(p, shapes, it < GB_ITERS ? it : GB_ITERS - 1);
}

/* The outputs of GB_ITERS iterations, copied out of the pipeline. */
typedef struct gb_result {
	int64_t shape[GB_ITERS][GB_OUTS][GB_N][3];
	dalic_dtype_t dtype[GB_ITERS][GB_OUTS];
	size_t bytes[GB_ITERS][GB_OUTS][GB_N];
	uint8_t *data[GB_ITERS][GB_OUTS][GB_N];
} gb_result_t;

static void gb_collect(dalic_pipeline_t *p, int it, gb_result_t *r)
{
	for (int o = 0; o < GB_OUTS; o++) {
		const dalic_batch_t *b = dalic_pipeline_output(p, o);
		cr_assert_not_null(b);
		cr_assert_eq(dalic_batch_num_samples(b), GB_N);
		r->dtype[it][o] = dalic_batch_dtype(b);
		for (int i = 0; i < GB_N; i++) {
			memcpy(r->shape[it][o][i], dalic_batch_shape(b, i), sizeof r->shape[it][o][i]);
			size_t n = dalic_batch_sample_bytes(b, i);
			r->bytes[it][o][i] = n;
			r->data[it][o][i] = malloc(n + 1);
			memcpy(r->data[it][o][i], dalic_batch_data(b, i), n);
		}
	}
}

static void gb_result_free(gb_result_t *r)
{
	for (int it = 0; it < GB_ITERS; it++)
		for (int o = 0; o < GB_OUTS; o++)
			for (int i = 0; i < GB_N; i++)
				free(r->data[it][o][i]);
}

/* Runs the pipeline GB_ITERS times into r; stats attached when s is given. */
static void gb_run(const tl_mode_t *m, const int64_t (*shapes)[GB_N * 3], gb_result_t *r,
                   gb_names_t *names, dalic_stats_snapshot_t **snap)
{
	dalic_pipeline_t *p = gb_pipeline(m, 0, true, names);
	ASSERT_OK(dalic_pipeline_build(p));
	dalic_stats_t *s = snap ? tl_stats_attach(p, false) : NULL;
	gb_feed_all(p, shapes);
	for (int it = 0; it < GB_ITERS; it++) {
		ASSERT_OK(dalic_pipeline_run(p), "%s: iteration %d", m->name, it);
		gb_collect(p, it, r);
	}
	if (snap)
		*snap = tl_stats_finish(s, p);
	else
		dalic_pipeline_destroy(p);
	if (s)
		dalic_stats_destroy(s);
}

static void gb_expect_same(const gb_result_t *a, const gb_result_t *b, const char *what)
{
	for (int it = 0; it < GB_ITERS; it++)
		for (int o = 0; o < GB_OUTS; o++) {
			cr_expect_eq(a->dtype[it][o], b->dtype[it][o], "%s: dtype", what);
			for (int i = 0; i < GB_N; i++) {
				cr_expect_arr_eq(a->shape[it][o][i], b->shape[it][o][i],
				                 sizeof a->shape[it][o][i],
				                 "%s: iteration %d output %d sample %d shape", what,
				                 it, o, i);
				cr_assert_eq(a->bytes[it][o][i], b->bytes[it][o][i]);
				const uint8_t *x = a->data[it][o][i], *y = b->data[it][o][i];
				for (size_t k = 0; k < a->bytes[it][o][i]; k++)
					if (x[k] != y[k]) {
						cr_expect_fail("%s: iteration %d output %d sample %d "
						               "differs first at byte %zu: %02x vs %02x",
						               what, it, o, i, k, x[k], y[k]);
						break;
					}
			}
		}
}

/* Threads a batch kernel of 256-thread blocks of 2048 items runs over `items` per sample. */
static int64_t gb_threads(const int64_t *items, int n)
{
	int64_t blocks = 0;
	for (int i = 0; i < n; i++)
		blocks += (items[i] + 2047) / 2048;
	return blocks * 256;
}

/* The GPU time the host-grid clock gives each dispatched operator over the iterations. */
static void gb_expected_gpu_ns(const int64_t (*shapes)[GB_N * 3], int64_t *flip, int64_t *cast,
                               int64_t *transpose, int64_t *copy)
{
	*flip = *cast = *transpose = *copy = 0;
	for (int it = 0; it < GB_ITERS; it++) {
		int64_t elems[GB_N], fbytes[GB_N];
		for (int i = 0; i < GB_N; i++) {
			elems[i] = shapes[it][3 * i] * shapes[it][3 * i + 1] * shapes[it][3 * i + 2];
			fbytes[i] = elems[i] * 4;
		}
		*flip += gb_threads(elems, GB_N);      /* bytes of uint8 */
		*cast += gb_threads(elems, GB_N);      /* elements */
		*transpose += gb_threads(elems, GB_N); /* elements */
		*copy += gb_threads(fbytes, GB_N);     /* bytes of float */
	}
}

Test(gpu_backend, kernels_match_the_emulated_path_in_every_mode)
{
	gb_result_t ref = {0};
	dalic_device_use(&dalic_device_emulated);
	dalic_stats_snapshot_t *snap = NULL;
	gb_run(&tl_modes[0], gb_odd_shapes, &ref, NULL, &snap);
	/* no GPU: the stats say so, and nothing ran on a device */
	cr_expect(snap->emulated_device);
	for (int i = 0; i < snap->num_operators; i++)
		cr_expect_eq(snap->operators[i].gpu_runs, 0, "%s", snap->operators[i].name);
	dalic_stats_snapshot_free(snap);

	tl_cu_hostgrid_use();
	for (int m = 0; m < TL_NUM_MODES; m++) {
		gb_result_t got = {0};
		int64_t launches = atomic_load(&tl_cu_hostgrid_counts()->launches);
		gb_run(&tl_modes[m], gb_odd_shapes, &got, NULL, NULL);
		gb_expect_same(&ref, &got, tl_modes[m].name);
		/* four kernels a batch, at least for the iterations compared */
		cr_expect_geq(atomic_load(&tl_cu_hostgrid_counts()->launches) - launches,
		              4 * GB_ITERS, "%s", tl_modes[m].name);
		gb_result_free(&got);
	}
	gb_result_free(&ref);
}

Test(gpu_backend, streams_events_and_gpu_time_in_the_stats)
{
	tl_cu_hostgrid_use();
	const tl_cu_hostgrid_counts_t *c = tl_cu_hostgrid_counts();
	gb_result_t got = {0};
	gb_names_t nm;
	dalic_stats_snapshot_t *snap = NULL;
	gb_run(&tl_modes[0], gb_odd_shapes, &got, &nm, &snap);
	gb_result_free(&got);
	/* a stream for the mixed stage (the transfer) and one for the gpu stage; two events per
	 * operator with a kernel: the four, the transfer and the two outputs' MakeContiguous;
	 * all gone with the pipeline */
	cr_expect_eq(atomic_load(&c->streams_created), 2);
	cr_expect_eq(atomic_load(&c->streams_live), 0);
	cr_expect_eq(atomic_load(&c->events_created), 2 * 7);
	cr_expect_eq(atomic_load(&c->events_live), 0);
	cr_expect_eq(atomic_load(&c->last_device), 0);
	cr_expect(!snap->emulated_device);

	int64_t flip, cast, transpose, copy;
	gb_expected_gpu_ns(gb_odd_shapes, &flip, &cast, &transpose, &copy);
	char mc_copy[96], mc_flip[96], transfer[] = "__Copy_CpuToGpu_in";
	snprintf(mc_copy, sizeof mc_copy, "__MakeContiguous_GpuToGpu_%s", nm.copy);
	snprintf(mc_flip, sizeof mc_flip, "__MakeContiguous_GpuToGpu_%s", nm.flip);
	const struct {
		const char *name, *stage;
		int64_t ns;
	} want[] = {{transfer, "MIXED", flip},   {nm.flip, "GPU", flip},
	            {nm.cast, "GPU", cast},      {nm.transpose, "GPU", transpose},
	            {nm.copy, "GPU", copy},      {mc_copy, "GPU", copy},
	            {mc_flip, "GPU", flip}};
	for (int k = 0; k < 7; k++) {
		const dalic_stats_operator_t *op = tl_stats_find(snap, want[k].name);
		cr_assert_not_null(op, "%s", want[k].name);
		cr_expect_eq(op->gpu_runs, GB_ITERS, "%s", op->name);
		cr_expect_eq(op->gpu_ns, want[k].ns, "%s: gpu_ns %lld, want %lld", op->name,
		             (long long)op->gpu_ns, (long long)want[k].ns);
		char key[128];
		snprintf(key, sizeof key, "%s_%s", want[k].stage, want[k].name);
		cr_expect_str_eq(op->key, key);
	}
	const dalic_stats_operator_t *bc = tl_stats_find(snap, nm.bc);
	cr_expect_eq(bc->gpu_runs, 0, "brightness_contrast has no kernel: the CPU path");
	cr_expect_eq(bc->gpu_ns, 0);

	/* device memory between operators that both run kernels and for outputs; pinned where
	 * the CPU path reads or writes */
	cr_expect_eq(tl_stats_find(snap, "in")->outputs[0].memory_kind, DALIC_MEM_PINNED);
	cr_expect_eq(tl_stats_find(snap, transfer)->outputs[0].memory_kind, DALIC_MEM_DEVICE);
	cr_expect_eq(tl_stats_find(snap, nm.flip)->outputs[0].memory_kind, DALIC_MEM_DEVICE);
	cr_expect_eq(tl_stats_find(snap, nm.cast)->outputs[0].memory_kind, DALIC_MEM_PINNED);
	cr_expect_eq(bc->outputs[0].memory_kind, DALIC_MEM_PINNED);
	cr_expect_eq(tl_stats_find(snap, nm.transpose)->outputs[0].memory_kind, DALIC_MEM_DEVICE);
	cr_expect_eq(tl_stats_find(snap, nm.copy)->outputs[0].memory_kind, DALIC_MEM_DEVICE);
	cr_expect_eq(tl_stats_find(snap, mc_copy)->outputs[0].memory_kind, DALIC_MEM_DEVICE);

	/* the JSON: gpu time on the operators that ran kernels, DALI's dict with GPU_ keys */
	char *js = dalic_stats_json(snap);
	cJSON *root = cJSON_Parse(js);
	cr_assert_not_null(root);
	const cJSON *ops = cJSON_GetObjectItem(root, "operators");
	int with_gpu = 0;
	const cJSON *o;
	cJSON_ArrayForEach(o, ops)
	{
		const cJSON *g = cJSON_GetObjectItem(o, "gpu_ns");
		if (!g)
			continue;
		with_gpu++;
		const char *name = cJSON_GetObjectItem(o, "name")->valuestring;
		cr_expect_eq((int64_t)g->valuedouble, tl_stats_find(snap, name)->gpu_ns, "%s", name);
	}
	cr_expect_eq(with_gpu, 7);
	char key[80];
	snprintf(key, sizeof key, "GPU_%s", nm.flip);
	const cJSON *es = cJSON_GetObjectItem(root, "executor_statistics");
	const cJSON *fe = cJSON_GetObjectItem(es, key);
	cr_assert_not_null(fe, "%s in executor_statistics", key);
	const cJSON *real = cJSON_GetObjectItem(fe, "real_memory_size");
	cr_expect_eq((int64_t)cJSON_GetArrayItem(real, 0)->valuedouble,
	             tl_stats_find(snap, nm.flip)->outputs[0].real_memory_size);
	cJSON_Delete(root);
	free(js);
	dalic_stats_snapshot_free(snap);
}

/* Samples whose sizes are multiples of 64 bytes (the batch's sample alignment), so the
 * buffer sizes are the byte counts. */
static const int64_t gb_round_shapes[GB_ITERS][GB_N * 3] = {
    {16, 8, 3, 16, 8, 3, 16, 8, 3, 16, 8, 3},   /* 4 x 384 = 1536 bytes */
    {16, 8, 3, 16, 8, 3, 16, 12, 3, 16, 12, 3}, /* 2 x 384 + 2 x 576 = 1920 */
    {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4},       /* 4 x 64 = 256 */
};

Test(gpu_backend, device_and_pinned_buffers_grow_by_dali_rules)
{
	setenv("DALI_DEVICE_BUFFER_GROWTH_FACTOR", "2", 1);
	setenv("DALI_HOST_BUFFER_GROWTH_FACTOR", "1.5", 1);
	dalic_mem_config_reload();
	tl_cu_hostgrid_use();
	gb_names_t nm;
	/* one buffer per intermediate output (simple mode), flip not an output */
	dalic_pipeline_t *p = gb_pipeline(&tl_modes[0], 0, false, &nm);
	ASSERT_OK(dalic_pipeline_build(p));
	dalic_stats_t *s = tl_stats_attach(p, false);
	for (int it = 0; it < GB_ITERS; it++) {
		gb_feed(p, gb_round_shapes, it);
		ASSERT_OK(dalic_pipeline_run(p), "iteration %d", it);
	}
	dalic_stats_snapshot_t *snap = NULL;
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	/* flip's device buffer: 1536, then max(1920, 2 x 1536); never shrinks */
	const dalic_stats_output_t *f = &tl_stats_find(snap, nm.flip)->outputs[0];
	cr_expect_eq(f->reserved_memory_size, 3072);
	cr_expect_eq(f->bytes_live, 3072, "device buffers do not shrink");
	cr_expect_eq(f->growth_events, 2); /* the first allocation, then the growth */
	cr_expect_eq(f->max_reserved_memory_size, 768); /* ceil(3072 / 4) */
	cr_expect_eq(f->real_memory_size, 1920);
	/* cast's pinned buffer (float): 6144, then max(7680, 1.5 x 6144 = 9216); never shrinks */
	const dalic_stats_output_t *c = &tl_stats_find(snap, nm.cast)->outputs[0];
	cr_expect_eq(c->memory_kind, DALIC_MEM_PINNED);
	cr_expect_eq(c->reserved_memory_size, 9216);
	cr_expect_eq(c->bytes_live, 9216, "pinned buffers do not shrink");
	dalic_stats_snapshot_free(snap);
	dalic_pipeline_destroy(p);
	dalic_stats_destroy(s);
	unsetenv("DALI_DEVICE_BUFFER_GROWTH_FACTOR");
	unsetenv("DALI_HOST_BUFFER_GROWTH_FACTOR");
	dalic_mem_config_reload();
}

Test(gpu_backend, device_id_picks_the_device)
{
	tl_cu_hostgrid_use();
	const tl_cu_hostgrid_counts_t *c = tl_cu_hostgrid_counts();
	dalic_pipeline_t *p = gb_pipeline(&tl_modes[2], 1, true, NULL);
	ASSERT_OK(dalic_pipeline_build(p));
	gb_feed_all(p, gb_odd_shapes);
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_eq(atomic_load(&c->last_device), 1);
	dalic_pipeline_destroy(p);
	cr_expect_eq(dalic_device_count(), TL_CU_HOSTGRID_DEVICES);

	/* a device the backend does not have: the build fails and says which */
	p = gb_pipeline(&tl_modes[0], 5, true, NULL);
	int rc = dalic_pipeline_build(p);
	cr_expect_eq(rc, DALIC_EDEVICE);
	cr_expect(strstr(dalic_last_error(), "device 5"), "%s", dalic_last_error());
	dalic_pipeline_destroy(p);
}
