/*
 * The executor's device path on the host-grid backend (tests/testlib/cuda_hostgrid.h): a
 * pipeline of gpu operators with kernels in the dispatch table (flip, hsv, cast,
 * brightness_contrast, transpose, copy) around one without (brightness, which keeps the CPU
 * path), run through the public
 * API in every executor mode and compared byte for byte with the same pipeline on the
 * emulated backend. Also: the stream per stage and the events per operator, the fake-clock
 * GPU time in the stats (exactly the threads the kernels ran), which outputs live in device
 * and which in pinned memory, DALI's growth rules for device and pinned buffers with their
 * DALI_* variables, the GPU_ executor_statistics keys, --device-id, and that the emulated
 * backend still says EMULATED and runs no kernel.
 */
#include "tests/testlib.h"
#include "tests/testlib/cuda_hostgrid.h"

#include "dalic_debug.h"

#include "engine/device.h"
#include "engine/memory.h"
#include "engine/pipeline.h"

#include <cjson/cJSON.h>
#include <stdatomic.h>
#include <stdlib.h>

TestSuite(gpu_backend, .timeout = 120);

#define GPU_BACKEND_N 4     /* samples a batch */
#define GPU_BACKEND_ITERS 3 /* iterations compared */
#define GPU_BACKEND_OUTS 2  /* outputs: copy (the chain's end), flip */

/* Shapes (HWC, uint8) per iteration: not multiples of the 2048-item block, several blocks a
 * sample, one empty sample, sizes changing between iterations. */
static const int64_t gpu_backend_odd_shapes[GPU_BACKEND_ITERS][GPU_BACKEND_N * 3] = {
    {7, 13, 3, 33, 65, 3, 0, 5, 3, 40, 41, 3},
    {64, 64, 3, 1, 1, 3, 17, 300, 3, 9, 2, 3},
    {5, 5, 3, 6, 6, 3, 7, 7, 3, 8, 8, 3},
};
static const int32_t gpu_backend_h[GPU_BACKEND_ITERS][GPU_BACKEND_N] = {
    {1, 0, 1, 1}, {0, 1, 1, 0}, {1, 1, 0, 0}};
static const int32_t gpu_backend_v[GPU_BACKEND_ITERS][GPU_BACKEND_N] = {
    {0, 1, 1, 0}, {1, 1, 0, 0}, {0, 1, 0, 1}};

typedef struct gpu_backend_names {
	char flip[64], hsv[64], cast[64], br[64], bc[64], transpose[64], copy[64];
} gpu_backend_names_t;

/* in(cpu) -> flip(gpu) -> hsv(gpu) -> cast(gpu, float) -> brightness(gpu, no kernel) ->
 * brightness_contrast(gpu) -> transpose(gpu, HWC -> CHW) -> copy(gpu); outputs: copy and
 * (when `flip_out`) flip. */
static dalic_pipeline_t *gpu_backend_pipeline(const tl_mode_t *m, int device_id, bool flip_out,
                                              gpu_backend_names_t *names)
{
	dalic_pipeline_params_t params = tl_mode_params(m, GPU_BACKEND_N, 2);
	params.device_id = device_id;
	params.enable_memory_stats = true;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	tl_source(p, "in");
	tl_source(p, "h");
	tl_source(p, "v");
	dalic_op_t *flip = NULL, *hsv = NULL, *cast = NULL, *br = NULL, *bc = NULL, *tr = NULL,
	           *copy = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, "flip", "gpu", &flip));
	ASSERT_OK(dalic_op_add_input(flip, "in", "gpu"));
	ASSERT_OK(dalic_op_set_arg_input(flip, "horizontal", "h"));
	ASSERT_OK(dalic_op_set_arg_input(flip, "vertical", "v"));
	ASSERT_OK(dalic_pipeline_add_op(p, "hsv", "gpu", &hsv));
	ASSERT_OK(dalic_op_add_input(hsv, dalic_op_output(flip, 0), NULL));
	ASSERT_OK(dalic_op_set_float(hsv, "hue", 30));
	ASSERT_OK(dalic_op_set_float(hsv, "saturation", 1.25));
	ASSERT_OK(dalic_op_set_float(hsv, "value", 0.9));
	ASSERT_OK(dalic_pipeline_add_op(p, "cast", "gpu", &cast));
	ASSERT_OK(dalic_op_add_input(cast, dalic_op_output(hsv, 0), NULL));
	ASSERT_OK(dalic_op_set_int(cast, "dtype", DALIC_FLOAT));
	ASSERT_OK(dalic_pipeline_add_op(p, "brightness", "gpu", &br));
	ASSERT_OK(dalic_op_add_input(br, dalic_op_output(cast, 0), NULL));
	ASSERT_OK(dalic_op_set_float(br, "brightness", 1.5));
	ASSERT_OK(dalic_pipeline_add_op(p, "brightness_contrast", "gpu", &bc));
	ASSERT_OK(dalic_op_add_input(bc, dalic_op_output(br, 0), NULL));
	ASSERT_OK(dalic_op_set_float(bc, "brightness", 0.8));
	ASSERT_OK(dalic_op_set_float(bc, "brightness_shift", 0.125));
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
		snprintf(names->hsv, sizeof names->hsv, "%s", dalic_op_name(hsv));
		snprintf(names->cast, sizeof names->cast, "%s", dalic_op_name(cast));
		snprintf(names->br, sizeof names->br, "%s", dalic_op_name(br));
		snprintf(names->bc, sizeof names->bc, "%s", dalic_op_name(bc));
		snprintf(names->transpose, sizeof names->transpose, "%s", dalic_op_name(tr));
		snprintf(names->copy, sizeof names->copy, "%s", dalic_op_name(copy));
	}
	return p;
}

/* Random uint8 samples of iteration `it`'s shapes (seeded by it), fed with the flags. */
static void gpu_backend_feed(dalic_pipeline_t *p, const int64_t (*shapes)[GPU_BACKEND_N * 3],
                             int it)
{
	size_t total = 0;
	for (int i = 0; i < GPU_BACKEND_N; i++)
		total +=
		    (size_t)(shapes[it][3 * i] * shapes[it][3 * i + 1] * shapes[it][3 * i + 2]);
	uint8_t *data = malloc(total + 1);
	uint32_t x = 2463534242u + (uint32_t)it * 7919u;
	for (size_t k = 0; k < total; k++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		data[k] = (uint8_t)(x >> 24);
	}
	tl_feed(p, "in", DALIC_UINT8, 3, GPU_BACKEND_N, shapes[it], data, "HWC");
	free(data);
	int64_t one[GPU_BACKEND_N];
	for (int i = 0; i < GPU_BACKEND_N; i++)
		one[i] = 1;
	tl_feed(p, "h", DALIC_INT32, 1, GPU_BACKEND_N, one, gpu_backend_h[it], NULL);
	tl_feed(p, "v", DALIC_INT32, 1, GPU_BACKEND_N, one, gpu_backend_v[it], NULL);
}

/* Feeds every iteration, and a few more for the prefetching modes to take. */
static void gpu_backend_feed_all(dalic_pipeline_t *p, const int64_t (*shapes)[GPU_BACKEND_N * 3])
{
	for (int it = 0; it < GPU_BACKEND_ITERS + 3; it++)
		gpu_backend_feed(p, shapes, it < GPU_BACKEND_ITERS ? it : GPU_BACKEND_ITERS - 1);
}

/* The outputs of GPU_BACKEND_ITERS iterations, copied out of the pipeline. */
typedef struct gpu_backend_result {
	int nouts;
	int64_t shape[GPU_BACKEND_ITERS][GPU_BACKEND_OUTS][GPU_BACKEND_N][3];
	dalic_dtype_t dtype[GPU_BACKEND_ITERS][GPU_BACKEND_OUTS];
	size_t bytes[GPU_BACKEND_ITERS][GPU_BACKEND_OUTS][GPU_BACKEND_N];
	uint8_t *data[GPU_BACKEND_ITERS][GPU_BACKEND_OUTS][GPU_BACKEND_N];
} gpu_backend_result_t;

static void gpu_backend_collect(dalic_pipeline_t *p, int it, gpu_backend_result_t *r)
{
	for (int o = 0; o < r->nouts; o++) {
		const dalic_batch_t *b = dalic_pipeline_output(p, o);
		cr_assert_not_null(b);
		cr_assert_eq(dalic_batch_num_samples(b), GPU_BACKEND_N);
		r->dtype[it][o] = dalic_batch_dtype(b);
		for (int i = 0; i < GPU_BACKEND_N; i++) {
			memcpy(r->shape[it][o][i], dalic_batch_shape(b, i),
			       sizeof r->shape[it][o][i]);
			size_t n = dalic_batch_sample_bytes(b, i);
			r->bytes[it][o][i] = n;
			r->data[it][o][i] = malloc(n + 1);
			memcpy(r->data[it][o][i], dalic_batch_data(b, i), n);
		}
	}
}

static void gpu_backend_result_free(gpu_backend_result_t *r)
{
	for (int it = 0; it < GPU_BACKEND_ITERS; it++)
		for (int o = 0; o < r->nouts; o++)
			for (int i = 0; i < GPU_BACKEND_N; i++)
				free(r->data[it][o][i]);
}

/* Runs the pipeline GPU_BACKEND_ITERS times into r; stats attached when s is given. */
static void gpu_backend_run(const tl_mode_t *m, const int64_t (*shapes)[GPU_BACKEND_N * 3],
                            gpu_backend_result_t *r, gpu_backend_names_t *names,
                            dalic_stats_snapshot_t **snap)
{
	dalic_pipeline_t *p = gpu_backend_pipeline(m, 0, true, names);
	ASSERT_OK(dalic_pipeline_build(p));
	dalic_stats_t *s = snap ? tl_stats_attach(p, false) : NULL;
	gpu_backend_feed_all(p, shapes);
	for (int it = 0; it < GPU_BACKEND_ITERS; it++) {
		ASSERT_OK(dalic_pipeline_run(p), "%s: iteration %d", m->name, it);
		gpu_backend_collect(p, it, r);
	}
	if (snap)
		*snap = tl_stats_finish(s, p);
	else
		dalic_pipeline_destroy(p);
	if (s)
		dalic_stats_destroy(s);
}

static void gpu_backend_expect_same(const gpu_backend_result_t *a, const gpu_backend_result_t *b,
                                    const char *what)
{
	cr_assert_eq(a->nouts, b->nouts);
	for (int it = 0; it < GPU_BACKEND_ITERS; it++)
		for (int o = 0; o < a->nouts; o++) {
			cr_expect_eq(a->dtype[it][o], b->dtype[it][o], "%s: dtype", what);
			for (int i = 0; i < GPU_BACKEND_N; i++) {
				cr_expect_arr_eq(a->shape[it][o][i], b->shape[it][o][i],
				                 sizeof a->shape[it][o][i],
				                 "%s: iteration %d output %d sample %d shape", what,
				                 it, o, i);
				cr_assert_eq(a->bytes[it][o][i], b->bytes[it][o][i]);
				const uint8_t *x = a->data[it][o][i], *y = b->data[it][o][i];
				for (size_t k = 0; k < a->bytes[it][o][i]; k++)
					if (x[k] != y[k]) {
						cr_expect_fail(
						    "%s: iteration %d output %d sample %d "
						    "differs first at byte %zu: %02x vs %02x",
						    what, it, o, i, k, x[k], y[k]);
						break;
					}
			}
		}
}

/* Threads a batch kernel of 256-thread blocks of 2048 items runs over `items` per sample. */
static int64_t gpu_backend_threads(const int64_t *items, int n)
{
	int64_t blocks = 0;
	for (int i = 0; i < n; i++)
		blocks += (items[i] + 2047) / 2048;
	return blocks * 256;
}

/* The GPU time the host-grid clock gives each dispatched operator over the iterations. */
typedef struct gpu_backend_gpu_ns {
	int64_t bytes;  /* flip, the transfer, flip's output copy: the uint8 bytes */
	int64_t pixels; /* hsv: one item per pixel */
	int64_t elems;  /* cast, brightness_contrast, transpose: one item per value */
	int64_t fbytes; /* copy and its output copy: the float bytes */
} gpu_backend_gpu_ns_t;

static gpu_backend_gpu_ns_t gpu_backend_expected_gpu_ns(const int64_t (*shapes)[GPU_BACKEND_N * 3])
{
	gpu_backend_gpu_ns_t t = {0};
	for (int it = 0; it < GPU_BACKEND_ITERS; it++) {
		int64_t elems[GPU_BACKEND_N], pixels[GPU_BACKEND_N], fbytes[GPU_BACKEND_N];
		for (int i = 0; i < GPU_BACKEND_N; i++) {
			elems[i] =
			    shapes[it][3 * i] * shapes[it][3 * i + 1] * shapes[it][3 * i + 2];
			pixels[i] = elems[i] / 3;
			fbytes[i] = elems[i] * 4;
		}
		t.bytes += gpu_backend_threads(elems, GPU_BACKEND_N);
		t.pixels += gpu_backend_threads(pixels, GPU_BACKEND_N);
		t.elems += gpu_backend_threads(elems, GPU_BACKEND_N);
		t.fbytes += gpu_backend_threads(fbytes, GPU_BACKEND_N);
	}
	return t;
}

Test(gpu_backend, kernels_match_the_emulated_path_in_every_mode)
{
	gpu_backend_result_t ref = {.nouts = GPU_BACKEND_OUTS};
	dalic_device_use(&dalic_device_emulated);
	dalic_stats_snapshot_t *snap = NULL;
	gpu_backend_run(&tl_modes[0], gpu_backend_odd_shapes, &ref, NULL, &snap);
	/* no GPU: the stats say so, and nothing ran on a device */
	cr_expect(snap->emulated_device);
	for (int i = 0; i < snap->num_operators; i++) {
		const dalic_stats_operator_t *op = &snap->operators[i];
		cr_expect_eq(op->gpu_runs, 0, "%s", op->name);
		cr_expect_eq(op->emulated, op->stage != DALIC_STAGE_CPU, "%s", op->name);
	}
	dalic_stats_snapshot_free(snap);

	tl_cu_hostgrid_use();
	for (int m = 0; m < TL_NUM_MODES; m++) {
		gpu_backend_result_t got = {.nouts = GPU_BACKEND_OUTS};
		int64_t launches = atomic_load(&tl_cu_hostgrid_counts()->launches);
		gpu_backend_run(&tl_modes[m], gpu_backend_odd_shapes, &got, NULL, NULL);
		gpu_backend_expect_same(&ref, &got, tl_modes[m].name);
		/* nine kernels a batch (see the stats test), at least for the iterations
		 * compared */
		cr_expect_geq(atomic_load(&tl_cu_hostgrid_counts()->launches) - launches,
		              9 * GPU_BACKEND_ITERS, "%s", tl_modes[m].name);
		gpu_backend_result_free(&got);
	}
	gpu_backend_result_free(&ref);
}

Test(gpu_backend, streams_events_and_gpu_time_in_the_stats)
{
	tl_cu_hostgrid_use();
	const tl_cu_hostgrid_counts_t *c = tl_cu_hostgrid_counts();
	gpu_backend_result_t got = {.nouts = GPU_BACKEND_OUTS};
	gpu_backend_names_t nm;
	dalic_stats_snapshot_t *snap = NULL;
	gpu_backend_run(&tl_modes[0], gpu_backend_odd_shapes, &got, &nm, &snap);
	gpu_backend_result_free(&got);
	/* a stream for the mixed stage (the transfer) and one for the gpu stage; two events per
	 * operator with a kernel: the six, the transfer and the two outputs' MakeContiguous;
	 * all gone with the pipeline */
	cr_expect_eq(atomic_load(&c->streams_created), 2);
	cr_expect_eq(atomic_load(&c->streams_live), 0);
	cr_expect_eq(atomic_load(&c->events_created), 2 * 9);
	cr_expect_eq(atomic_load(&c->events_live), 0);
	cr_expect_eq(atomic_load(&c->last_device), 0);
	cr_expect(!snap->emulated_device);

	gpu_backend_gpu_ns_t t = gpu_backend_expected_gpu_ns(gpu_backend_odd_shapes);
	char mc_copy[96], mc_flip[96], transfer[] = "__Copy_CpuToGpu_in";
	snprintf(mc_copy, sizeof mc_copy, "__MakeContiguous_GpuToGpu_%s", nm.copy);
	snprintf(mc_flip, sizeof mc_flip, "__MakeContiguous_GpuToGpu_%s", nm.flip);
	const struct {
		const char *name, *stage;
		int64_t ns;
	} want[] = {{transfer, "MIXED", t.bytes}, {nm.flip, "GPU", t.bytes},
	            {nm.hsv, "GPU", t.pixels},    {nm.cast, "GPU", t.elems},
	            {nm.bc, "GPU", t.elems},      {nm.transpose, "GPU", t.elems},
	            {nm.copy, "GPU", t.fbytes},   {mc_copy, "GPU", t.fbytes},
	            {mc_flip, "GPU", t.bytes}};
	for (int k = 0; k < 9; k++) {
		const dalic_stats_operator_t *op = tl_stats_find(snap, want[k].name);
		cr_assert_not_null(op, "%s", want[k].name);
		cr_expect_eq(op->gpu_runs, GPU_BACKEND_ITERS, "%s", op->name);
		cr_expect_eq(op->gpu_ns, want[k].ns, "%s: gpu_ns %lld, want %lld", op->name,
		             (long long)op->gpu_ns, (long long)want[k].ns);
		char key[128];
		snprintf(key, sizeof key, "%s_%s", want[k].stage, want[k].name);
		cr_expect_str_eq(op->key, key);
	}
	const dalic_stats_operator_t *br = tl_stats_find(snap, nm.br);
	cr_expect_eq(br->gpu_runs, 0, "brightness has no kernel: the CPU path");
	cr_expect_eq(br->gpu_ns, 0);

	/* device memory between operators that both run kernels and for outputs; pinned where
	 * the CPU path reads or writes */
	cr_expect_eq(tl_stats_find(snap, "in")->outputs[0].memory_kind, DALIC_MEM_PINNED);
	cr_expect_eq(tl_stats_find(snap, transfer)->outputs[0].memory_kind, DALIC_MEM_DEVICE);
	cr_expect_eq(tl_stats_find(snap, nm.flip)->outputs[0].memory_kind, DALIC_MEM_DEVICE);
	cr_expect_eq(tl_stats_find(snap, nm.cast)->outputs[0].memory_kind, DALIC_MEM_PINNED);
	cr_expect_eq(tl_stats_find(snap, nm.hsv)->outputs[0].memory_kind, DALIC_MEM_DEVICE);
	cr_expect_eq(br->outputs[0].memory_kind, DALIC_MEM_PINNED);
	cr_expect_eq(tl_stats_find(snap, nm.bc)->outputs[0].memory_kind, DALIC_MEM_DEVICE);
	cr_expect_eq(tl_stats_find(snap, nm.transpose)->outputs[0].memory_kind, DALIC_MEM_DEVICE);
	cr_expect_eq(tl_stats_find(snap, nm.copy)->outputs[0].memory_kind, DALIC_MEM_DEVICE);
	/* pipeline outputs stay host-readable */
	cr_expect_eq(tl_stats_find(snap, mc_copy)->outputs[0].memory_kind, DALIC_MEM_PINNED);
	cr_expect_eq(tl_stats_find(snap, mc_flip)->outputs[0].memory_kind, DALIC_MEM_PINNED);

	/* the JSON: gpu time on the operators that ran kernels, DALI's dict with GPU_ keys */
	char *js = dalic_stats_json(snap);
	cJSON *root = cJSON_Parse(js);
	cr_assert_not_null(root);
	const cJSON *ops = cJSON_GetObjectItem(root, "operators");
	int with_gpu = 0;
	const cJSON *o;
	int emulated = 0;
	cJSON_ArrayForEach(o, ops)
	{
		const cJSON *em = cJSON_GetObjectItem(o, "emulated");
		if (em) { /* only brightness: a gpu operator without a kernel, on a GPU */
			emulated++;
			cr_expect(cJSON_IsTrue(em));
			cr_expect_str_eq(cJSON_GetObjectItem(o, "name")->valuestring, nm.br);
		}
		const cJSON *g = cJSON_GetObjectItem(o, "gpu_ns");
		if (!g)
			continue;
		with_gpu++;
		const char *name = cJSON_GetObjectItem(o, "name")->valuestring;
		cr_expect_eq((int64_t)g->valuedouble, tl_stats_find(snap, name)->gpu_ns, "%s",
		             name);
	}
	cr_expect_eq(with_gpu, 9);
	cr_expect_eq(emulated, 1);
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

	/* the text report: gpu_ms and gpu_runs on the operators whose kernels ran, only there */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ASSERT_OK(dalic_stats_write_report(snap, f));
	fclose(f);
	char want_line[256];
	snprintf(want_line, sizeof want_line, ",gpu_ms=%.3f,gpu_runs=%d\n", (double)t.bytes * 1e-6,
	         GPU_BACKEND_ITERS);
	char head[128];
	snprintf(head, sizeof head, "\n%s: op=Flip,stage=GPU,", nm.flip);
	const char *line = strstr(text, head);
	cr_assert_not_null(line, "%s", text);
	const char *eol = strchr(line + 1, '\n');
	const char *gpu = strstr(line, want_line);
	cr_expect(gpu && gpu + strlen(want_line) - 1 == eol, "%s lacks %s", line, want_line);
	snprintf(head, sizeof head, "\n%s: op=Brightness,", nm.br);
	line = strstr(text, head);
	cr_assert_not_null(line, "%s", text);
	eol = strchr(line + 1, '\n');
	cr_expect(!memmem(line, (size_t)(eol - line), "gpu_ms", 6), "%.*s", (int)(eol - line),
	          line);
	cr_expect(memmem(line, (size_t)(eol - line), ",emulated=yes", 13), "%.*s",
	          (int)(eol - line), line);
	cr_expect(strstr(text, "emulated_device: no"), "%s", text);
	free(text);
	dalic_stats_snapshot_free(snap);
}

/* One gpu operator `op` on "in" (uint8 HWC), configured by `set`, run GPU_BACKEND_ITERS times. */
static void gpu_backend_single_run(const char *op, void (*set)(dalic_op_t *),
                                   gpu_backend_result_t *r)
{
	dalic_pipeline_params_t params = tl_mode_params(&tl_modes[0], GPU_BACKEND_N, 2);
	params.device_id = 0;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	tl_source(p, "in");
	tl_source(p, "h");
	tl_source(p, "v");
	dalic_op_t *x = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, op, "gpu", &x));
	ASSERT_OK(dalic_op_add_input(x, "in", "gpu"));
	set(x);
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(x, 0), NULL));
	for (int it = 0; it < GPU_BACKEND_ITERS; it++) {
		gpu_backend_feed(p, gpu_backend_odd_shapes, it);
		ASSERT_OK(dalic_pipeline_run(p), "%s: iteration %d", op, it);
		gpu_backend_collect(p, it, r);
	}
	dalic_pipeline_destroy(p);
}

/* The operator on the host-grid backend equals it on the emulated backend, and ran its
 * kernel once per iteration. */
static void gpu_backend_single(const char *op, void (*set)(dalic_op_t *))
{
	gpu_backend_result_t ref = {.nouts = 1}, got = {.nouts = 1};
	dalic_device_use(&dalic_device_emulated);
	gpu_backend_single_run(op, set, &ref);
	tl_cu_hostgrid_use();
	gpu_backend_single_run(op, set, &got);
	gpu_backend_expect_same(&ref, &got, op);
	/* the transfer's copy, the operator's kernel, the output's copy */
	cr_expect_eq(atomic_load(&tl_cu_hostgrid_counts()->launches), 3 * GPU_BACKEND_ITERS, "%s",
	             op);
	gpu_backend_result_free(&ref);
	gpu_backend_result_free(&got);
}

static void gpu_backend_set_twist(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "hue", -45));
	ASSERT_OK(dalic_op_set_float(op, "saturation", 0.7));
	ASSERT_OK(dalic_op_set_float(op, "contrast", 1.3));
	ASSERT_OK(dalic_op_set_float(op, "brightness", 1.1));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT));
}

static void gpu_backend_set_bc_int16(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "brightness", 2.5));
	ASSERT_OK(dalic_op_set_float(op, "contrast", 1.7));
	ASSERT_OK(dalic_op_set_float(op, "contrast_center", 100));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT16));
}

static void gpu_backend_set_transpose_default(dalic_op_t *op)
{
	(void)op; /* the dims reversed */
}

static void gpu_backend_set_flip_flags(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_arg_input(op, "horizontal", "h"));
	ASSERT_OK(dalic_op_set_arg_input(op, "vertical", "v"));
}

/* water's shifts go through the node's device scratch; mask 0 copies a sample */
static void gpu_backend_set_water(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "ampl_x", 3.5));
	ASSERT_OK(dalic_op_set_float(op, "ampl_y", 2.25));
	ASSERT_OK(dalic_op_set_float(op, "freq_x", 0.3));
	ASSERT_OK(dalic_op_set_float(op, "phase_y", 0.7));
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_LINEAR));
	ASSERT_OK(dalic_op_set_float(op, "fill_value", 42));
	ASSERT_OK(dalic_op_set_arg_input(op, "mask", "h"));
}

static void gpu_backend_set_sphere(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_arg_input(op, "mask", "v"));
}

/* the phased tile kernel (tl_cu_run_grid_phased on the host-grid backend) */
static void gpu_backend_set_warp(dalic_op_t *op)
{
	const double m[6] = {0.9, -0.35, 4.5, 0.3, 1.1, -2.25};
	ASSERT_OK(dalic_op_set_floats(op, "matrix", 6, m));
	ASSERT_OK(dalic_op_set_float(op, "fill_value", 7));
}

static void gpu_backend_set_rotate(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "angle", 33));
	ASSERT_OK(dalic_op_set_float(op, "fill_value", 0.5)); /* the empty sample */
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_LINEAR));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT));
}

/* the two-pass kernel: a float intermediate in the node's device scratch */
static void gpu_backend_set_resize(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "resize_x", 19));
	ASSERT_OK(dalic_op_set_float(op, "resize_y", 11));
}

static void gpu_backend_set_resize_nn_float(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "resize_x", 70));
	ASSERT_OK(dalic_op_set_int(op, "interp_type", DALIC_INTERP_NN));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT));
}

/* uint8 x int32 constant -> int32, minus a float constant -> float */
static void gpu_backend_set_arith(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_string(op, "expression_desc", "sub(mul(&0 $0:int32) $0:float32)"));
	const int64_t ints[] = {-3};
	const double reals[] = {0.3};
	ASSERT_OK(dalic_op_set_ints(op, "integer_constants", 1, ints));
	ASSERT_OK(dalic_op_set_floats(op, "real_constants", 1, reals));
}

Test(gpu_backend, each_dispatched_operator_alone_matches_the_emulated_path)
{
	gpu_backend_single("arithmetic_generic_op", gpu_backend_set_arith);
	gpu_backend_single("resize", gpu_backend_set_resize);
	gpu_backend_single("resize", gpu_backend_set_resize_nn_float);
	gpu_backend_single("warp_affine", gpu_backend_set_warp);
	gpu_backend_single("rotate", gpu_backend_set_rotate);
	gpu_backend_single("water", gpu_backend_set_water);
	gpu_backend_single("sphere", gpu_backend_set_sphere);
	gpu_backend_single("color_twist", gpu_backend_set_twist);
	gpu_backend_single("brightness_contrast", gpu_backend_set_bc_int16);
	gpu_backend_single("transpose", gpu_backend_set_transpose_default);
	gpu_backend_single("flip", gpu_backend_set_flip_flags);
}

/* Samples whose sizes are multiples of 64 bytes (the batch's sample alignment), so the
 * buffer sizes are the byte counts. */
static const int64_t gpu_backend_round_shapes[GPU_BACKEND_ITERS][GPU_BACKEND_N * 3] = {
    {16, 8, 3, 16, 8, 3, 16, 8, 3, 16, 8, 3},   /* 4 x 384 = 1536 bytes */
    {16, 8, 3, 16, 8, 3, 16, 12, 3, 16, 12, 3}, /* 2 x 384 + 2 x 576 = 1920 */
    {4, 16, 3, 4, 16, 3, 4, 16, 3, 4, 16, 3},   /* 4 x 192 = 768 */
};

Test(gpu_backend, device_and_pinned_buffers_grow_by_dali_rules)
{
	setenv("DALI_DEVICE_BUFFER_GROWTH_FACTOR", "2", 1);
	setenv("DALI_HOST_BUFFER_GROWTH_FACTOR", "1.5", 1);
	dalic_mem_config_reload();
	tl_cu_hostgrid_use();
	gpu_backend_names_t nm;
	/* one buffer per intermediate output (simple mode), flip not an output */
	dalic_pipeline_t *p = gpu_backend_pipeline(&tl_modes[0], 0, false, &nm);
	ASSERT_OK(dalic_pipeline_build(p));
	dalic_stats_t *s = tl_stats_attach(p, false);
	for (int it = 0; it < GPU_BACKEND_ITERS; it++) {
		gpu_backend_feed(p, gpu_backend_round_shapes, it);
		ASSERT_OK(dalic_pipeline_run(p), "iteration %d", it);
	}
	dalic_stats_snapshot_t *snap = NULL;
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	/* flip's device buffer: 1536, then max(1920, 2 x 1536); never shrinks */
	const dalic_stats_output_t *f = &tl_stats_find(snap, nm.flip)->outputs[0];
	cr_expect_eq(f->reserved_memory_size, 3072);
	cr_expect_eq(f->bytes_live, 3072, "device buffers do not shrink");
	cr_expect_eq(f->growth_events, 2);              /* the first allocation, then the growth */
	cr_expect_eq(f->max_reserved_memory_size, 768); /* ceil(3072 / 4) */
	cr_expect_eq(f->real_memory_size, 1920);
	/* cast's pinned buffer (float): 6144, then max(7680, 1.5 x 6144 = 9216); never shrinks */
	const dalic_stats_output_t *c = &tl_stats_find(snap, nm.cast)->outputs[0];
	cr_expect_eq(c->memory_kind, DALIC_MEM_PINNED);
	cr_expect_eq(c->reserved_memory_size, 9216);
	cr_expect_eq(c->bytes_live, 9216, "pinned buffers do not shrink");
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(s); /* simple executor, between runs: allowed */
	dalic_pipeline_destroy(p);
	unsetenv("DALI_DEVICE_BUFFER_GROWTH_FACTOR");
	unsetenv("DALI_HOST_BUFFER_GROWTH_FACTOR");
	dalic_mem_config_reload();
}

Test(gpu_backend, device_id_picks_the_device)
{
	tl_cu_hostgrid_use();
	const tl_cu_hostgrid_counts_t *c = tl_cu_hostgrid_counts();
	dalic_pipeline_t *p = gpu_backend_pipeline(&tl_modes[2], 1, true, NULL);
	ASSERT_OK(dalic_pipeline_build(p));
	gpu_backend_feed_all(p, gpu_backend_odd_shapes);
	ASSERT_OK(dalic_pipeline_run(p));
	cr_expect_eq(atomic_load(&c->last_device), 1);
	dalic_pipeline_destroy(p);
	cr_expect_eq(dalic_device_count(), TL_CU_HOSTGRID_DEVICES);

	/* a device the backend does not have: the build fails and says which */
	p = gpu_backend_pipeline(&tl_modes[0], 5, true, NULL);
	int rc = dalic_pipeline_build(p);
	cr_expect_eq(rc, DALIC_EDEVICE);
	cr_expect(strstr(dalic_last_error(), "device 5"), "%s", dalic_last_error());
	dalic_pipeline_destroy(p);
}

/* NVTX (engine/observer_nvtx.c) draws its operator ranges from node_begin / node_end: every
 * kernel run must fall inside its operator's range, on the thread that opened it. */
typedef struct gpu_backend_spans {
	atomic_int begins, ends, gpu_runs, gpu_outside;
} gpu_backend_spans_t;

static __thread const dalic_node_t *gpu_backend_open_node;

static void gpu_backend_on_begin(void *u, const dalic_node_t *n, int64_t it)
{
	atomic_fetch_add(&((gpu_backend_spans_t *)u)->begins, 1);
	gpu_backend_open_node = n;
}

static void gpu_backend_on_end(void *u, const dalic_node_t *n, int64_t it, int status)
{
	atomic_fetch_add(&((gpu_backend_spans_t *)u)->ends, 1);
	gpu_backend_open_node = NULL;
}

static void gpu_backend_on_gpu(void *u, const dalic_node_t *n, int64_t it, int64_t ns)
{
	atomic_fetch_add(&((gpu_backend_spans_t *)u)->gpu_runs, 1);
	if (gpu_backend_open_node != n)
		atomic_fetch_add(&((gpu_backend_spans_t *)u)->gpu_outside, 1);
}

Test(gpu_backend, kernel_runs_fall_inside_the_operator_ranges)
{
	tl_cu_hostgrid_use();
	TL_FOR_EACH_MODE(m)
	{
		dalic_pipeline_t *p = gpu_backend_pipeline(m, 0, true, NULL);
		gpu_backend_spans_t c = {0};
		dalic_observer_t o = {.user = &c,
		                      .node_begin = gpu_backend_on_begin,
		                      .node_end = gpu_backend_on_end,
		                      .node_gpu = gpu_backend_on_gpu};
		ASSERT_OK(dalic_pipeline_add_observer(p, &o));
		/* the NVTX tracer beside it where the CUDA toolkit was found */
		int rc = dalic_tracers_attach(p, "nvtx");
		cr_expect(rc == DALIC_OK || rc == DALIC_EUNSUPPORTED, "%s", dalic_last_error());
		ASSERT_OK(dalic_pipeline_build(p));
		gpu_backend_feed_all(p, gpu_backend_odd_shapes);
		for (int it = 0; it < GPU_BACKEND_ITERS; it++)
			ASSERT_OK(dalic_pipeline_run(p), "%s", m->name);
		dalic_pipeline_destroy(p);
		/* nine operators run kernels (see the stats test); prefetching modes may run
		 * more iterations than were taken, the last cut short at destroy */
		int runs = atomic_load(&c.gpu_runs);
		cr_expect(runs >= 9 * GPU_BACKEND_ITERS, "%s: %d kernel runs", m->name, runs);
		cr_expect_eq(atomic_load(&c.gpu_outside), 0, "%s", m->name);
		cr_expect_eq(atomic_load(&c.begins), atomic_load(&c.ends), "%s", m->name);
	}
}

/* The kernel's division flag, read after the kernels, fails the run as the CPU does. */
static void gpu_backend_set_div_zero(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_string(op, "expression_desc", "div(&0 $0:uint8)"));
	const int64_t ints[] = {0};
	ASSERT_OK(dalic_op_set_ints(op, "integer_constants", 1, ints));
}

Test(gpu_backend, integer_division_by_zero_fails_on_both_paths)
{
	for (int k = 0; k < 2; k++) {
		if (k)
			tl_cu_hostgrid_use();
		else
			dalic_device_use(&dalic_device_emulated);
		dalic_pipeline_params_t params = tl_mode_params(&tl_modes[0], GPU_BACKEND_N, 2);
		params.device_id = 0;
		dalic_pipeline_t *p = NULL;
		ASSERT_OK(dalic_pipeline_create(&params, &p));
		tl_source(p, "in");
		tl_source(p, "h");
		tl_source(p, "v");
		dalic_op_t *x = NULL;
		ASSERT_OK(dalic_pipeline_add_op(p, "arithmetic_generic_op", "gpu", &x));
		ASSERT_OK(dalic_op_add_input(x, "in", "gpu"));
		gpu_backend_set_div_zero(x);
		ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(x, 0), NULL));
		gpu_backend_feed(p, gpu_backend_odd_shapes, 0);
		EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "integer division by zero in `div`");
		dalic_pipeline_destroy(p);
	}
	cr_expect_eq(atomic_load(&tl_cu_hostgrid_counts()->launches), 2, "transfer, arith");
}

/* Debug mode runs the same node path eagerly, on the default stream: the same bytes. */
Test(gpu_backend, debug_mode_runs_the_kernels_too)
{
	gpu_backend_result_t ref = {.nouts = GPU_BACKEND_OUTS};
	dalic_device_use(&dalic_device_emulated);
	gpu_backend_run(&tl_modes[0], gpu_backend_odd_shapes, &ref, NULL, NULL);
	tl_cu_hostgrid_use();
	dalic_pipeline_t *p = gpu_backend_pipeline(&tl_modes[0], 0, true, NULL);
	dalic_debug_t *d = NULL;
	cr_assert_eq(dalic_debug_open(p, &d), DALIC_OK, "%s", dalic_last_error());
	for (int it = 0; it < GPU_BACKEND_ITERS; it++) {
		int64_t sh[GPU_BACKEND_N * 3], one[GPU_BACKEND_N];
		size_t total = 0;
		memcpy(sh, gpu_backend_odd_shapes[it], sizeof sh);
		for (int i = 0; i < GPU_BACKEND_N; i++) {
			one[i] = 1;
			total += (size_t)(sh[3 * i] * sh[3 * i + 1] * sh[3 * i + 2]);
		}
		/* the same bytes gpu_backend_feed gives iteration it */
		uint8_t *data = malloc(total + 1);
		uint32_t x = 2463534242u + (uint32_t)it * 7919u;
		for (size_t k = 0; k < total; k++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			data[k] = (uint8_t)(x >> 24);
		}
		ASSERT_OK(dalic_debug_feed_input(d, "in", DALIC_UINT8, 3, GPU_BACKEND_N, sh, data,
		                                 "HWC"));
		ASSERT_OK(dalic_debug_feed_input(d, "h", DALIC_INT32, 1, GPU_BACKEND_N, one,
		                                 gpu_backend_h[it], NULL));
		ASSERT_OK(dalic_debug_feed_input(d, "v", DALIC_INT32, 1, GPU_BACKEND_N, one,
		                                 gpu_backend_v[it], NULL));
		free(data);
	}
	gpu_backend_result_t got = {.nouts = GPU_BACKEND_OUTS};
	for (int it = 0; it < GPU_BACKEND_ITERS; it++) {
		cr_assert_eq(dalic_debug_next(d), DALIC_OK, "%s", dalic_debug_last_error(d));
		for (int o = 0; o < GPU_BACKEND_OUTS; o++) {
			const dalic_batch_t *b = dalic_debug_output(d, o);
			cr_assert_not_null(b);
			got.dtype[it][o] = dalic_batch_dtype(b);
			for (int i = 0; i < GPU_BACKEND_N; i++) {
				memcpy(got.shape[it][o][i], dalic_batch_shape(b, i),
				       sizeof got.shape[it][o][i]);
				size_t n = dalic_batch_sample_bytes(b, i);
				got.bytes[it][o][i] = n;
				got.data[it][o][i] = malloc(n + 1);
				memcpy(got.data[it][o][i], dalic_batch_data(b, i), n);
			}
		}
	}
	gpu_backend_expect_same(&ref, &got, "debug mode");
	cr_expect_geq(atomic_load(&tl_cu_hostgrid_counts()->launches), 9 * GPU_BACKEND_ITERS);
	cr_expect_eq(atomic_load(&tl_cu_hostgrid_counts()->streams_created), 0,
	             "eager runs use the default stream");
	dalic_debug_close(d);
	dalic_pipeline_destroy(p);
	gpu_backend_result_free(&ref);
	gpu_backend_result_free(&got);
}
