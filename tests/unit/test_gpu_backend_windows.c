/*
 * The window operators' dispatch entries (kernels/common/gpu_slice.c, gpu_cmn.c) on the
 * host-grid backend (tests/testlib/cuda_hostgrid.h): slice, crop and crop_mirror_normalize,
 * each alone on the gpu, run through the public API and compared byte for byte with the same
 * pipeline on the emulated backend (the CPU operator), over three iterations of odd shapes
 * (sizes that do not divide the block, several blocks a sample, an empty sample). The cases
 * take per-sample argument inputs (slice's start, crop positions, mirror, mean), windows
 * reaching outside the input (pad with per-channel fill values, trim_to_shape, slice's border
 * modes), pad_output, other output layouts and float16, int8 and uint8 outputs from uint8,
 * int16 and float inputs; each iteration must run the operator's kernel (three launches: the
 * input's transfer, the kernel, the output's copy).
 */
#include "tests/testlib.h"
#include "tests/testlib/cuda_hostgrid.h"

#include "engine/device.h"

#include <stdatomic.h>
#include <stdlib.h>

TestSuite(gpu_backend_windows, .timeout = 120);

#define GBW_N 4     /* samples a batch */
#define GBW_ITERS 3 /* iterations compared */

typedef const int64_t gbw_shapes_t[GBW_ITERS][GBW_N * 3];

/* HWC shapes per iteration, one empty sample in the first. */
static gbw_shapes_t gbw_odd = {
    {7, 13, 3, 33, 65, 3, 0, 5, 3, 40, 41, 3},
    {64, 64, 3, 1, 1, 3, 17, 300, 3, 9, 2, 3},
    {5, 5, 3, 6, 6, 3, 7, 7, 3, 8, 8, 3},
};
/* No empty sample (border modes need one element), none smaller than 5 x 5. */
static gbw_shapes_t gbw_full = {
    {7, 13, 3, 33, 65, 3, 5, 6, 3, 40, 41, 3},
    {64, 64, 3, 5, 5, 3, 17, 300, 3, 9, 12, 3},
    {5, 5, 3, 6, 6, 3, 7, 7, 3, 8, 8, 3},
};

typedef struct gbw_case {
	const char *what, *op;
	dalic_dtype_t in_type;
	gbw_shapes_t *shapes;
	void (*set)(dalic_op_t *op);
	const char *args[4]; /* argument inputs, fed by feed_args from sources of that name */
	void (*feed_args)(dalic_pipeline_t *p, int it);
	const char *inputs[2]; /* cpu inputs after the data (slice's anchor and shape), fed there */
} gbw_case_t;

typedef struct gbw_result {
	dalic_dtype_t dtype[GBW_ITERS];
	int64_t shape[GBW_ITERS][GBW_N][3];
	size_t bytes[GBW_ITERS][GBW_N];
	uint8_t *data[GBW_ITERS][GBW_N];
} gbw_result_t;

/* Random samples of type t: integers any bits, floats in [-50, 300) with a few halves. */
static void gbw_random(dalic_dtype_t t, void *data, size_t elems, uint32_t x)
{
	for (size_t k = 0; k < elems; k++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		if (t == DALIC_FLOAT)
			((float *)data)[k] = (x & 7) == 0
			                         ? (float)(x >> 24) + 0.5f
			                         : (float)(x >> 8) / 16777216.0f * 350 - 50;
		else if (t == DALIC_INT16)
			((int16_t *)data)[k] = (int16_t)(x >> 16);
		else
			((uint8_t *)data)[k] = (uint8_t)(x >> 24);
	}
}

static void gbw_feed(dalic_pipeline_t *p, const gbw_case_t *c, int it)
{
	const int64_t *sh = (*c->shapes)[it];
	size_t elems = 0;
	for (int i = 0; i < GBW_N; i++)
		elems += (size_t)(sh[3 * i] * sh[3 * i + 1] * sh[3 * i + 2]);
	void *data = malloc(elems * 4 + 1);
	cr_assert(data);
	gbw_random(c->in_type, data, elems, 2463534242u + (uint32_t)it * 7919u);
	tl_feed(p, "in", c->in_type, 3, GBW_N, sh, data, "HWC");
	free(data);
	if (c->feed_args)
		c->feed_args(p, it);
}

static void gbw_collect(dalic_pipeline_t *p, int it, gbw_result_t *r)
{
	const dalic_batch_t *b = dalic_pipeline_output(p, 0);
	cr_assert_not_null(b);
	cr_assert_eq(dalic_batch_num_samples(b), GBW_N);
	r->dtype[it] = dalic_batch_dtype(b);
	for (int i = 0; i < GBW_N; i++) {
		cr_assert_eq(dalic_batch_ndim(b), 3);
		memcpy(r->shape[it][i], dalic_batch_shape(b, i), sizeof r->shape[it][i]);
		size_t n = dalic_batch_sample_bytes(b, i);
		r->bytes[it][i] = n;
		r->data[it][i] = malloc(n + 1);
		memcpy(r->data[it][i], dalic_batch_data(b, i), n);
	}
}

static void gbw_result_free(gbw_result_t *r)
{
	for (int it = 0; it < GBW_ITERS; it++)
		for (int i = 0; i < GBW_N; i++)
			free(r->data[it][i]);
}

/* The case's operator on the gpu, alone, GBW_ITERS iterations into r; with `snap`, the
 * statistics (memory kinds) too. */
static void gbw_run(const gbw_case_t *c, gbw_result_t *r, dalic_stats_snapshot_t **snap)
{
	dalic_pipeline_params_t params = tl_mode_params(&tl_modes[0], GBW_N, 2);
	params.device_id = 0;
	params.enable_memory_stats = true;
	dalic_pipeline_t *p = NULL;
	ASSERT_OK(dalic_pipeline_create(&params, &p));
	tl_source(p, "in");
	for (int k = 0; k < 4 && c->args[k]; k++) /* the sources before their consumer */
		tl_source(p, c->args[k]);
	for (int k = 0; k < 2 && c->inputs[k]; k++)
		tl_source(p, c->inputs[k]);
	dalic_op_t *x = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, c->op, "gpu", &x));
	ASSERT_OK(dalic_op_add_input(x, "in", "gpu"));
	for (int k = 0; k < 2 && c->inputs[k]; k++)
		ASSERT_OK(dalic_op_add_input(x, c->inputs[k], "cpu"));
	for (int k = 0; k < 4 && c->args[k]; k++)
		ASSERT_OK(dalic_op_set_arg_input(x, c->args[k], c->args[k]));
	c->set(x);
	ASSERT_OK(dalic_pipeline_add_output(p, dalic_op_output(x, 0), NULL));
	dalic_stats_t *s = snap ? tl_stats_attach(p, false) : NULL;
	for (int it = 0; it < GBW_ITERS; it++) {
		gbw_feed(p, c, it);
		ASSERT_OK(dalic_pipeline_run(p), "%s: iteration %d", c->what, it);
		gbw_collect(p, it, r);
	}
	if (snap) {
		*snap = tl_stats_finish(s, p);
		dalic_stats_destroy(s);
	} else {
		dalic_pipeline_destroy(p);
	}
}

/* The case on the host-grid backend equals it on the emulated one, byte for byte, and ran
 * its kernel every iteration (besides the transfers of its inputs and the output's copy);
 * returns the host-grid run's statistics when `snap` is given. */
static void gbw_check_stats(const gbw_case_t *c, dalic_stats_snapshot_t **snap)
{
	gbw_result_t ref = {0}, got = {0};
	dalic_device_use(&dalic_device_emulated);
	gbw_run(c, &ref, NULL);
	tl_cu_hostgrid_use();
	gbw_run(c, &got, snap);
	int64_t launches = atomic_load(&tl_cu_hostgrid_counts()->launches);
	int transfers = 1 + (c->inputs[0] != NULL) + (c->inputs[1] != NULL);
	cr_expect_eq(launches, (transfers + 2) * GBW_ITERS, "%s: %lld launches", c->what,
	             (long long)launches);
	for (int it = 0; it < GBW_ITERS; it++) {
		cr_expect_eq(ref.dtype[it], got.dtype[it], "%s: dtype", c->what);
		for (int i = 0; i < GBW_N; i++) {
			cr_expect_arr_eq(ref.shape[it][i], got.shape[it][i],
			                 sizeof ref.shape[it][i],
			                 "%s: iteration %d sample %d shape", c->what, it, i);
			cr_assert_eq(ref.bytes[it][i], got.bytes[it][i]);
			const uint8_t *a = ref.data[it][i], *b = got.data[it][i];
			for (size_t k = 0; k < ref.bytes[it][i]; k++)
				if (a[k] != b[k]) {
					cr_expect_fail(
					    "%s: iteration %d sample %d differs first at "
					    "byte %zu of %zu: %02x vs %02x",
					    c->what, it, i, k, ref.bytes[it][i], a[k], b[k]);
					break;
				}
		}
	}
	gbw_result_free(&ref);
	gbw_result_free(&got);
}

static void gbw_check(const gbw_case_t *c)
{
	gbw_check_stats(c, NULL);
}

/* Per-sample scalars of type t (INT32 or FLOAT) for source `name`. */
static void gbw_feed_scalars(dalic_pipeline_t *p, const char *name, dalic_dtype_t t,
                             const double *v)
{
	int32_t iv[GBW_N];
	float fv[GBW_N];
	for (int i = 0; i < GBW_N; i++) {
		iv[i] = (int32_t)v[i];
		fv[i] = (float)v[i];
	}
	const int64_t no_dims[1] = {0};
	tl_feed(p, name, t, 0, GBW_N, no_dims, t == DALIC_FLOAT ? (const void *)fv : iv, NULL);
}

/* Per-iteration crop positions: the corners, the centre and in between. */
static const double gbw_pos_x[GBW_ITERS][GBW_N] = {
    {0, 1, 0.25, 0.5}, {1, 0.7, 0, 0.125}, {0.5, 0, 1, 0.33}};
static const double gbw_pos_y[GBW_ITERS][GBW_N] = {
    {1, 0, 0.5, 0.9}, {0, 0.5, 1, 0.375}, {0.2, 1, 0, 0.5}};
static const double gbw_mirror[GBW_ITERS][GBW_N] = {{1, 0, 1, 1}, {0, 1, 1, 0}, {1, 1, 0, 0}};

static void gbw_feed_positions(dalic_pipeline_t *p, int it)
{
	gbw_feed_scalars(p, "crop_pos_x", DALIC_FLOAT, gbw_pos_x[it]);
	gbw_feed_scalars(p, "crop_pos_y", DALIC_FLOAT, gbw_pos_y[it]);
}

static void gbw_feed_positions_mirror(dalic_pipeline_t *p, int it)
{
	gbw_feed_positions(p, it);
	gbw_feed_scalars(p, "mirror", DALIC_INT32, gbw_mirror[it]);
}

/* ---- slice -------------------------------------------------------------------------------- */

/* slice's start per sample over axes (0, 1): inside, before the origin, past the end. */
static void gbw_feed_slice_start(dalic_pipeline_t *p, int it)
{
	static const int32_t start[GBW_ITERS][GBW_N * 2] = {
	    {-2, -3, 20, 50, 0, 0, 35, 38},
	    {30, 60, -4, 0, 10, 290, 3, -1},
	    {1, 1, 0, 3, -6, -6, 7, 7}};
	const int64_t two[GBW_N] = {2, 2, 2, 2};
	tl_feed(p, "start", DALIC_INT32, 1, GBW_N, two, start[it], NULL);
}

static void gbw_set_slice_pad_f16(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 2, (const int64_t[]){0, 1}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (const int64_t[]){10, 12}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 3, (const double[]){300.7, -1, 7.5}));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT16));
}

static void gbw_set_slice_reflect_u8(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 2, (const int64_t[]){0, 1}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 2, (const int64_t[]){-2, -3}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (const int64_t[]){9, 11}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "reflect_101"));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
}

static void gbw_set_slice_wrap(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 1, (const int64_t[]){1}));
	ASSERT_OK(dalic_op_set_ints(op, "start", 1, (const int64_t[]){-7}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 1, (const int64_t[]){20}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "wrap"));
}

static void gbw_set_slice_trim(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_ints(op, "axes", 2, (const int64_t[]){0, 1}));
	ASSERT_OK(dalic_op_set_ints(op, "shape", 2, (const int64_t[]){10, 12}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "trim_to_shape"));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT));
}

Test(gpu_backend_windows, slice_pad_with_per_sample_start_to_float16)
{
	gbw_check(&(gbw_case_t){"slice pad, fill per channel, uint8 -> float16", "slice",
	                        DALIC_UINT8, &gbw_odd, gbw_set_slice_pad_f16, {"start"},
	                        gbw_feed_slice_start});
}

Test(gpu_backend_windows, slice_border_modes_and_truncation)
{
	gbw_check(&(gbw_case_t){"slice reflect_101, float -> uint8", "slice", DALIC_FLOAT,
	                        &gbw_full, gbw_set_slice_reflect_u8, {NULL}, NULL});
	gbw_check(&(gbw_case_t){"slice wrap, int16 as is", "slice", DALIC_INT16, &gbw_full,
	                        gbw_set_slice_wrap, {NULL}, NULL});
}

Test(gpu_backend_windows, slice_trim_to_shape_with_per_sample_start)
{
	gbw_check(&(gbw_case_t){"slice trim_to_shape, int16 -> float", "slice", DALIC_INT16,
	                        &gbw_odd, gbw_set_slice_trim, {"start"}, gbw_feed_slice_start});
}

/* slice's anchor and shape as cpu inputs, float fractions of (W, H) (axis_names "WH"). */
static void gbw_feed_slice_anchor_shape(dalic_pipeline_t *p, int it)
{
	static const float anchor[GBW_ITERS][GBW_N * 2] = {
	    {0.1f, 0.2f, -0.25f, 0, 0.5f, 0.5f, 0.9f, 0.3f},
	    {0, 0, 0.75f, 0.6f, 0.33f, -0.1f, 0.2f, 0.4f},
	    {0.4f, 0.4f, 0, 0, 1, 1, 0.25f, 0.75f}};
	static const float shape[GBW_ITERS][GBW_N * 2] = {
	    {0.5f, 0.5f, 1, 0.75f, 0.25f, 1.5f, 0.3f, 0.9f},
	    {1, 1, 0.5f, 0.7f, 0.6f, 0.35f, 1.2f, 0.5f},
	    {0.6f, 0.6f, 1, 1, 0.2f, 0.2f, 0.5f, 0.5f}};
	const int64_t two[GBW_N] = {2, 2, 2, 2};
	tl_feed(p, "anchor", DALIC_FLOAT, 1, GBW_N, two, anchor[it], NULL);
	tl_feed(p, "shape", DALIC_FLOAT, 1, GBW_N, two, shape[it], NULL);
}

static void gbw_set_slice_inputs(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 1, (const double[]){42}));
}

/* slice's setup reads its anchor and shape on the host: their transfers write pinned memory,
 * the data's device memory. */
Test(gpu_backend_windows, slice_anchor_and_shape_inputs_stay_on_the_host)
{
	dalic_stats_snapshot_t *snap = NULL;
	gbw_check_stats(&(gbw_case_t){"slice, relative anchor and shape inputs, pad", "slice",
	                              DALIC_UINT8, &gbw_odd, gbw_set_slice_inputs, {NULL},
	                              gbw_feed_slice_anchor_shape, {"anchor", "shape"}},
	                &snap);
	cr_assert_not_null(snap);
	static const char *const names[3] = {"__Copy_CpuToGpu_in", "__Copy_CpuToGpu_anchor",
	                                     "__Copy_CpuToGpu_shape"};
	for (int k = 0; k < 3; k++) {
		const dalic_stats_operator_t *o = tl_stats_find(snap, names[k]);
		cr_assert_not_null(o, "%s", names[k]);
		cr_expect_eq(o->outputs[0].memory_kind, k ? DALIC_MEM_PINNED : DALIC_MEM_DEVICE,
		             "%s", names[k]);
	}
	dalic_stats_snapshot_free(snap);
}

/* ---- crop --------------------------------------------------------------------------------- */

static void gbw_set_crop_pad_f16(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "crop_h", 9));
	ASSERT_OK(dalic_op_set_float(op, "crop_w", 20));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 3, (const double[]){-3.5, 250.25, 1000}));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT16));
}

static void gbw_set_crop_trim_i8(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "crop_h", 6));
	ASSERT_OK(dalic_op_set_float(op, "crop_w", 50));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "trim_to_shape"));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT8));
}

static void gbw_set_crop_pad_same(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){11, 7}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 1, (const double[]){-77}));
}

Test(gpu_backend_windows, crop_pad_with_per_sample_positions_to_float16)
{
	gbw_check(&(gbw_case_t){"crop pad, fill per channel, uint8 -> float16", "crop",
	                        DALIC_UINT8, &gbw_odd, gbw_set_crop_pad_f16,
	                        {"crop_pos_x", "crop_pos_y"}, gbw_feed_positions});
	gbw_check(&(gbw_case_t){"crop pad, one fill, int16 as is", "crop", DALIC_INT16, &gbw_odd,
	                        gbw_set_crop_pad_same, {"crop_pos_x", "crop_pos_y"},
	                        gbw_feed_positions});
}

Test(gpu_backend_windows, crop_trim_to_shape_saturates_to_int8)
{
	gbw_check(&(gbw_case_t){"crop trim_to_shape, float -> int8", "crop", DALIC_FLOAT,
	                        &gbw_odd, gbw_set_crop_trim_i8, {"crop_pos_x", "crop_pos_y"},
	                        gbw_feed_positions});
}

/* ---- crop_mirror_normalize ------------------------------------------------------------------ */

static void gbw_set_cmn_pad_f16(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "crop_h", 9));
	ASSERT_OK(dalic_op_set_float(op, "crop_w", 20));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 4, (const double[]){1.5, -2, 3, 9}));
	ASSERT_OK(dalic_op_set_floats(op, "mean", 3, (const double[]){123.675, 116.28, 103.53}));
	ASSERT_OK(dalic_op_set_floats(op, "std", 3, (const double[]){58.395, 57.12, 57.375}));
	ASSERT_OK(dalic_op_set_bool(op, "pad_output", true));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_FLOAT16));
}

/* mean per sample (three values each). */
static void gbw_feed_cmn_mean(dalic_pipeline_t *p, int it)
{
	gbw_feed_positions_mirror(p, it);
	float mean[GBW_N * 3];
	for (int k = 0; k < GBW_N * 3; k++)
		mean[k] = (float)(17 * k + 5 * it) - 40.25f;
	const int64_t three[GBW_N] = {3, 3, 3, 3};
	tl_feed(p, "mean", DALIC_FLOAT, 1, GBW_N, three, mean, NULL);
}

static void gbw_set_cmn_hwc_i8(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_float(op, "crop_h", 6));
	ASSERT_OK(dalic_op_set_float(op, "crop_w", 50));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "trim_to_shape"));
	ASSERT_OK(dalic_op_set_floats(op, "std", 1, (const double[]){2.5}));
	ASSERT_OK(dalic_op_set_float(op, "scale", 0.5));
	ASSERT_OK(dalic_op_set_float(op, "shift", 10));
	ASSERT_OK(dalic_op_set_string(op, "output_layout", "HWC"));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_INT8));
}

static void gbw_set_cmn_resnet(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){5, 5}));
	ASSERT_OK(dalic_op_set_floats(op, "mean", 3,
	                              (const double[]){0.485 * 255, 0.456 * 255, 0.406 * 255}));
	ASSERT_OK(dalic_op_set_floats(op, "std", 3,
	                              (const double[]){0.229 * 255, 0.224 * 255, 0.225 * 255}));
}

static void gbw_set_cmn_wc_u8(dalic_op_t *op)
{
	ASSERT_OK(dalic_op_set_floats(op, "crop", 2, (const double[]){4, 30}));
	ASSERT_OK(dalic_op_set_string(op, "out_of_bounds_policy", "pad"));
	ASSERT_OK(dalic_op_set_floats(op, "fill_values", 1, (const double[]){200.5}));
	ASSERT_OK(dalic_op_set_floats(op, "mean", 1, (const double[]){-20}));
	ASSERT_OK(dalic_op_set_string(op, "output_layout", "WCH"));
	ASSERT_OK(dalic_op_set_bool(op, "pad_output", true));
	ASSERT_OK(dalic_op_set_int(op, "dtype", DALIC_UINT8));
}

Test(gpu_backend_windows, cmn_pad_output_with_per_sample_mirror_to_float16)
{
	gbw_check(&(gbw_case_t){"crop_mirror_normalize pad, pad_output, uint8 -> float16 CHW",
	                        "crop_mirror_normalize", DALIC_UINT8, &gbw_odd, gbw_set_cmn_pad_f16,
	                        {"crop_pos_x", "crop_pos_y", "mirror"},
	                        gbw_feed_positions_mirror});
	gbw_check(&(gbw_case_t){"crop_mirror_normalize pad, pad_output, int16 -> uint8 WCH",
	                        "crop_mirror_normalize", DALIC_INT16, &gbw_odd, gbw_set_cmn_wc_u8,
	                        {"crop_pos_x", "crop_pos_y", "mirror"},
	                        gbw_feed_positions_mirror});
}

Test(gpu_backend_windows, cmn_per_sample_mean_trim_to_int8_hwc)
{
	gbw_check(&(gbw_case_t){"crop_mirror_normalize trim, per-sample mean, float -> int8 HWC",
	                        "crop_mirror_normalize", DALIC_FLOAT, &gbw_odd, gbw_set_cmn_hwc_i8,
	                        {"crop_pos_x", "crop_pos_y", "mirror", "mean"},
	                        gbw_feed_cmn_mean});
}

/* uint8 HWC windows inside the image to float CHW: the CPU's SIMD rows against the kernel. */
Test(gpu_backend_windows, cmn_resnet_case_matches_the_simd_rows)
{
	gbw_check(&(gbw_case_t){"crop_mirror_normalize uint8 -> float CHW", "crop_mirror_normalize",
	                        DALIC_UINT8, &gbw_full, gbw_set_cmn_resnet,
	                        {"crop_pos_x", "crop_pos_y", "mirror"},
	                        gbw_feed_positions_mirror});
}
