/*
 * The warp kernel (kernels/cuda/warp.cuh) on the CPU grid runner, phase by phase, compared byte
 * for byte with warp_affine and rotate run through the public API: batches of odd sizes (an
 * empty image with a fill, rows wider than one 256-pixel tile, single pixels), NN and LINEAR,
 * clamped and filled borders, every input type and DALI's output types (to float, from float,
 * saturating), inverse_map, `size`, per-sample matrices (the transforms input), sequences
 * (FHWC), volumes (DHWC), and rotate's canvases (per-sample angles, keep_size, size, HW).
 * Each sample's matrix is made as the operator makes it (as given, inverted with
 * dalic_xform_affine_inv, or dalic_img_warp_rotation); the output extents are the CPU's.
 */
#include "tests/testlib/cuda_batch.h"
#include "tests/testlib/oneop.h"

#include "kernels/common/img_warp.h"
#include "kernels/common/xform.h"
#include "kernels/cuda/warp.cuh"

#include <math.h>

TestSuite(cuda_warp, .timeout = 120);

static void cuda_warp_phase(const dalic_cu_idx_t *ix, int phase, void *shared, const void *p)
{
	dalic_cu_warp_body(ix, phase, (float *)shared, (const dalic_cu_warp_params_t *)p);
}

/* Spatial dims of a layout ("HWC", "HW", "FHWC", "DHWC", "FDHWC") and whether F leads. */
static int cuda_warp_spatial(const char *layout, int *first)
{
	*first = layout[0] == 'F';
	return strchr(layout, 'D') ? 3 : 2;
}

/*
 * Runs the kernel on `in` (layout `layout`) with jobs[i] giving each sample's matrix, linear,
 * clamp and fill (as the operator sets them) and compares with the CPU output, twice (canaries
 * 0x00 and 0xff).
 */
static void cuda_warp_compare(const char *what, const tl_cu_batch_t *in, const char *layout,
                              const dalic_batch_t *cpu, const img_warp_job_t *jobs)
{
	int first, sd = cuda_warp_spatial(layout, &first);
	bool has_c = layout[strlen(layout) - 1] == 'C';
	dalic_cu_warp_sample_t s[TL_CU_MAX_SAMPLES];
	memset(s, 0, sizeof s);
	for (int canary = 0; canary < 2; canary++) {
		tl_cu_batch_t out;
		tl_cu_batch_like(&out, cpu, canary ? 0xff : 0x00);
		for (int i = 0; i < in->n; i++) {
			const int64_t *is = in->shape[i], *os = dalic_batch_shape(cpu, i);
			img_warp_job_t *j = &s[i].job;
			*j = jobs[i];
			j->ndim = sd;
			j->in_type = in->dtype;
			j->out_type = dalic_batch_dtype(cpu);
			j->channels = has_c ? (int)is[in->ndim - 1] : 1;
			for (int d = 0; d < 3; d++)
				j->in_size[d] = j->out_size[d] = 1;
			for (int d = 0; d < sd; d++) {
				j->in_size[d] = is[first + sd - 1 - d];
				j->out_size[d] = os[first + sd - 1 - d];
			}
			s[i].frames = first ? is[0] : 1;
			s[i].in_frame = s[i].frames ? (int64_t)in->bytes[i] / s[i].frames : 0;
			s[i].out_frame = s[i].frames ? (int64_t)out.bytes[i] / s[i].frames : 0;
			j->in = in->data[i];
			j->out = out.data[i];
			dalic_img_warp_prepare(j);
		}
		dalic_cu_warp_params_t p = {s, NULL, in->n, 0};
		dalic_cu_warp_grid(&p, NULL, 0);
		dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
		dalic_cu_launch_t l = dalic_cu_warp_grid(&p, blocks, p.nblocks);
		cr_assert_eq(l.block.x, DALIC_IMG_WARP_TILE);
		int64_t calls = tl_cu_run_grid_phased(l, DALIC_CU_WARP_PHASES, cuda_warp_phase, &p);
		cr_expect_eq(calls, p.nblocks * DALIC_IMG_WARP_TILE * DALIC_CU_WARP_PHASES);
		tl_cu_expect_equal(cpu, &out, what);
		free(blocks);
		tl_cu_batch_free(&out);
	}
}

/* warp_affine's options in a case; a zero `matrix` uses per-sample transforms (in1). */
typedef struct cuda_warp_opts {
	bool nn, fill, invert, per_sample;
	double fill_value;
	dalic_dtype_t dtype; /* DALIC_NO_TYPE: the input's */
	int nsize;
	double size[3];
} cuda_warp_opts_t;

/* A 2-D or 3-D matrix for sample i: a rotation, a scale and a shift varying with i. */
static void cuda_warp_matrix(int sd, int i, float *m)
{
	float a = 0.3f + 0.4f * (float)i, c = cosf(a), sn = sinf(a), sc = 0.8f + 0.15f * (float)i;
	if (sd == 2) {
		float v[6] = {c * sc,  -sn * sc, 3.5f - (float)i,
		              sn * sc, c * sc,   -2.25f + (float)i};
		memcpy(m, v, sizeof v);
	} else {
		float v[12] = {c * sc, -sn,    0.1f,  1.5f, sn, c * sc,
		               -0.2f,  -0.75f, 0.05f, 0.1f, sc, 0.5f};
		memcpy(m, v, sizeof v);
	}
}

static void cuda_warp_affine_case(const char *what, dalic_dtype_t it, const char *layout, int ndim,
                                  int n, const int64_t *shapes, double range,
                                  const cuda_warp_opts_t *o)
{
	int first, sd = cuda_warp_spatial(layout, &first);
	const int count = sd * (sd + 1);
	tl_cu_batch_t in;
	tl_cu_batch_random(&in, it, ndim, n, shapes, range, 11u + (uint32_t)n);
	tl_oneop_t t = tl_oneop("warp_affine", n, o->per_sample ? 2 : 1, NULL);
	float m[TL_CU_MAX_SAMPLES][12];
	for (int i = 0; i < n; i++)
		cuda_warp_matrix(sd, o->per_sample ? i : 0, m[i]);
	if (!o->per_sample) {
		double v[12];
		for (int k = 0; k < count; k++)
			v[k] = m[0][k];
		cr_assert_eq(dalic_op_set_floats(t.op, "matrix", count, v), DALIC_OK);
	}
	if (o->nn)
		cr_assert_eq(dalic_op_set_int(t.op, "interp_type", DALIC_INTERP_NN), DALIC_OK);
	if (o->fill)
		cr_assert_eq(dalic_op_set_float(t.op, "fill_value", o->fill_value), DALIC_OK);
	if (o->invert)
		cr_assert_eq(dalic_op_set_bool(t.op, "inverse_map", false), DALIC_OK);
	if (o->dtype != DALIC_NO_TYPE)
		cr_assert_eq(dalic_op_set_int(t.op, "dtype", o->dtype), DALIC_OK);
	if (o->nsize)
		cr_assert_eq(dalic_op_set_floats(t.op, "size", o->nsize, o->size), DALIC_OK);
	tl_cu_batch_feed(t.p, "in", &in, layout);
	if (o->per_sample) {
		float packed[TL_CU_MAX_SAMPLES * 12];
		for (int i = 0; i < n; i++)
			memcpy(packed + i * count, m[i], sizeof(float) * (size_t)count);
		tl_oneop_feed_f32(&t, "in1", n, 2, (int64_t[]){sd, sd + 1}, packed, NULL);
	}
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	img_warp_job_t jobs[TL_CU_MAX_SAMPLES];
	memset(jobs, 0, sizeof jobs);
	dalic_dtype_t ot = o->dtype != DALIC_NO_TYPE ? o->dtype : it;
	for (int i = 0; i < n; i++) {
		jobs[i].linear = !o->nn;
		jobs[i].clamp = !o->fill;
		jobs[i].fill = o->fill ? dalic_img_warp_fill(ot, o->fill_value) : 0;
		if (o->invert)
			cr_assert(dalic_xform_affine_inv(sd, m[i], jobs[i].m));
		else
			memcpy(jobs[i].m, m[i], sizeof m[i]);
	}
	cuda_warp_compare(what, &in, layout, cpu, jobs);
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}

/* 1x1, 7x13, 33x300 (two tiles), an empty image, 40x70 single-channel, 5x513 (three tiles). */
static const int64_t cuda_warp_hwc[] = {1, 1, 3, 7, 13, 3, 33, 300, 3, 0, 5, 3, 5, 513, 3};
static const int64_t cuda_warp_hw1[] = {40, 70, 1, 3, 260, 1};

Test(cuda_warp, affine_linear_and_nn_every_type)
{
	static const dalic_dtype_t types[] = {DALIC_UINT8, DALIC_INT16, DALIC_INT32, DALIC_FLOAT};
	static const double ranges[] = {255, 30000, 2e9, 300};
	for (int k = 0; k < 4; k++) {
		cuda_warp_opts_t lin = {.fill = true, .fill_value = 77.6, .dtype = DALIC_NO_TYPE};
		cuda_warp_affine_case("affine linear fill", types[k], "HWC", 3, 5, cuda_warp_hwc,
		                      ranges[k], &lin);
		cuda_warp_opts_t nn = {.nn = true, .dtype = DALIC_NO_TYPE};
		cuda_warp_affine_case("affine NN clamp", types[k], "HWC", 3, 4, cuda_warp_hwc,
		                      ranges[k], &nn);
	}
	cuda_warp_opts_t nnfill = {
	    .nn = true, .fill = true, .fill_value = -3, .dtype = DALIC_NO_TYPE};
	cuda_warp_affine_case("affine NN fill 1 channel", DALIC_UINT8, "HWC", 3, 2, cuda_warp_hw1,
	                      255, &nnfill);
}

Test(cuda_warp, affine_output_types_and_saturation)
{
	static const dalic_dtype_t outs[] = {DALIC_UINT8, DALIC_INT16, DALIC_INT32};
	for (int k = 0; k < 3; k++) {
		/* float values past every integer range: the stores saturate */
		cuda_warp_opts_t o = {.fill = true, .fill_value = 1e10, .dtype = outs[k]};
		cuda_warp_affine_case("affine f32 -> int", DALIC_FLOAT, "HWC", 3, 5, cuda_warp_hwc,
		                      3e9, &o);
		cuda_warp_opts_t nn = {.nn = true, .dtype = outs[k]};
		cuda_warp_affine_case("affine NN f32 -> int", DALIC_FLOAT, "HWC", 3, 4,
		                      cuda_warp_hwc, 300, &nn);
		cuda_warp_opts_t to_f = {.fill = true, .fill_value = -1e6, .dtype = DALIC_FLOAT};
		cuda_warp_affine_case("affine int -> f32", outs[k], "HWC", 3, 5, cuda_warp_hwc,
		                      outs[k] == DALIC_UINT8 ? 255 : 30000, &to_f);
	}
}

Test(cuda_warp, affine_inverse_map_size_and_per_sample_matrices)
{
	cuda_warp_opts_t inv = {
	    .invert = true, .fill = true, .fill_value = 9, .dtype = DALIC_NO_TYPE};
	cuda_warp_affine_case("affine inverse_map=False", DALIC_UINT8, "HWC", 3, 5, cuda_warp_hwc,
	                      255, &inv);
	cuda_warp_opts_t size = {.fill = true,
	                         .fill_value = -0.5,
	                         .dtype = DALIC_FLOAT,
	                         .nsize = 2,
	                         .size = {21.4, 600.5}};
	cuda_warp_affine_case("affine size [21, 600]", DALIC_UINT8, "HWC", 3, 5, cuda_warp_hwc, 255,
	                      &size);
	cuda_warp_opts_t per = {
	    .per_sample = true, .fill = true, .fill_value = 200, .dtype = DALIC_NO_TYPE};
	cuda_warp_affine_case("affine transforms input", DALIC_UINT8, "HWC", 3, 5, cuda_warp_hwc,
	                      255, &per);
}

Test(cuda_warp, affine_sequences_and_volumes)
{
	const int64_t fhwc[] = {3, 9, 11, 3, 2, 20, 270, 2, 0, 4, 4, 3};
	cuda_warp_opts_t seq = {.fill = true, .fill_value = 5, .dtype = DALIC_NO_TYPE};
	cuda_warp_affine_case("affine FHWC u8", DALIC_UINT8, "FHWC", 4, 3, fhwc, 255, &seq);
	cuda_warp_opts_t seqnn = {.nn = true, .dtype = DALIC_INT32};
	cuda_warp_affine_case("affine FHWC NN f32 -> i32", DALIC_FLOAT, "FHWC", 4, 3, fhwc, 1e5,
	                      &seqnn);
	const int64_t dhwc[] = {5, 9, 11, 2, 3, 7, 300, 1, 1, 1, 1, 3};
	cuda_warp_opts_t vol = {.dtype = DALIC_NO_TYPE};
	cuda_warp_affine_case("affine DHWC linear clamp", DALIC_INT16, "DHWC", 4, 3, dhwc, 30000,
	                      &vol);
	cuda_warp_opts_t volnn = {
	    .nn = true, .fill = true, .fill_value = 0.5, .dtype = DALIC_FLOAT};
	cuda_warp_affine_case("affine DHWC NN fill u8 -> f32", DALIC_UINT8, "DHWC", 4, 3, dhwc, 255,
	                      &volnn);
	cuda_warp_opts_t vsize = {
	    .fill = true, .fill_value = 3, .dtype = DALIC_NO_TYPE, .nsize = 3, .size = {4, 6, 290}};
	const int64_t fdhwc[] = {2, 3, 5, 6, 2, 1, 4, 4, 4, 3};
	cuda_warp_affine_case("affine FDHWC size", DALIC_FLOAT, "FDHWC", 5, 2, fdhwc, 10, &vsize);
}

/* rotate: angles per sample; `fill` < -1e30 means no fill_value. */
static void cuda_warp_rotate_case(const char *what, dalic_dtype_t it, dalic_dtype_t ot,
                                  const char *layout, int ndim, int n, const int64_t *shapes,
                                  double range, const float *angles, bool nn, double fill,
                                  bool keep, const double *size)
{
	static const char *const names[] = {"angle", NULL};
	tl_cu_batch_t in;
	tl_cu_batch_random(&in, it, ndim, n, shapes, range, 3u + (uint32_t)n);
	tl_oneop_t t = tl_oneop("rotate", n, 1, names);
	cr_assert_eq(dalic_op_set_int(t.op, "dtype", ot), DALIC_OK);
	if (nn)
		cr_assert_eq(dalic_op_set_int(t.op, "interp_type", DALIC_INTERP_NN), DALIC_OK);
	if (fill > -1e30)
		cr_assert_eq(dalic_op_set_float(t.op, "fill_value", fill), DALIC_OK);
	if (keep)
		cr_assert_eq(dalic_op_set_bool(t.op, "keep_size", true), DALIC_OK);
	if (size)
		cr_assert_eq(dalic_op_set_floats(t.op, "size", 2, size), DALIC_OK);
	tl_cu_batch_feed(t.p, "in", &in, layout);
	tl_oneop_feed_scalars(&t, "angle", n, angles);
	const dalic_batch_t *cpu = tl_run(t.p, 0);
	img_warp_job_t jobs[TL_CU_MAX_SAMPLES];
	memset(jobs, 0, sizeof jobs);
	for (int i = 0; i < n; i++) {
		const int64_t *is = in.shape[i], *os = dalic_batch_shape(cpu, i);
		jobs[i].linear = !nn;
		jobs[i].clamp = !(fill > -1e30);
		jobs[i].fill = (float)fill;
		dalic_img_warp_rotation(dalic_img_warp_radians(angles[i]), is[1], is[0], os[1],
		                        os[0], jobs[i].m);
	}
	cuda_warp_compare(what, &in, layout, cpu, jobs);
	dalic_pipeline_destroy(t.p);
	tl_cu_batch_free(&in);
}

Test(cuda_warp, rotate_canvases_and_borders)
{
	const float angles[] = {30, -45, 90, 17.5f, 200};
	/* the empty image last: only the filled cases take it */
	const int64_t hwc[] = {1, 1, 3, 7, 13, 3, 33, 300, 3, 5, 213, 3, 0, 5, 3};
	cuda_warp_rotate_case("rotate u8 linear clamp", DALIC_UINT8, DALIC_UINT8, "HWC", 3, 4, hwc,
	                      255, angles, false, -1e31, false, NULL);
	cuda_warp_rotate_case("rotate u8 NN fill", DALIC_UINT8, DALIC_UINT8, "HWC", 3, 5, hwc, 255,
	                      angles, true, 300, false, NULL);
	cuda_warp_rotate_case("rotate i16 -> f32 keep_size", DALIC_INT16, DALIC_FLOAT, "HWC", 3, 4,
	                      hwc, 30000, angles, false, 7.5, true, NULL);
	const int64_t hw[] = {20, 31, 4, 600, 9, 9};
	const double size[] = {40, 270};
	cuda_warp_rotate_case("rotate HW f32 size", DALIC_FLOAT, DALIC_FLOAT, "HW", 2, 3, hw, 100,
	                      angles, false, -2, false, size);
	cuda_warp_rotate_case("rotate HW i32 NN clamp", DALIC_INT32, DALIC_INT32, "HW", 2, 3, hw,
	                      2e9, angles, true, -1e31, false, NULL);
}

/* The coordinates of pixel x of a row (tile k, offset x mod 256) chain from the row start as
 * DALI's loop adds them: checked against the sums written out for a matrix whose steps round. */
Test(cuda_warp, tile_coordinates_chain_as_the_cpu_loop)
{
	img_warp_job_t j;
	memset(&j, 0, sizeof j);
	j.ndim = 2;
	const float m[6] = {0.1f, 0.3f, 1.7f, -0.7f, 1.1f, 0.2f};
	memcpy(j.m, m, sizeof m);
	float got[300], want[600];
	for (int r = 0; r < 2; r++) {
		float s = m[r * 3 + 2];
		s += m[r * 3] * 0.5f;
		s += m[r * 3 + 1] * 5.5f; /* y = 5 */
		float tile = s;
		for (int x = 0; x < 600; x++) {
			if (x % 256 == 0) {
				tile = x ? tile + 256.0f * m[r * 3] : s;
				s = tile;
			}
			want[x] = s;
			s += m[r * 3];
		}
		for (int k = 0; k < 3; k++) {
			int64_t cnt = k < 2 ? 256 : 600 - 512;
			dalic_img_warp_tile_src(&j, r, 5, 0, k, cnt, got, 1);
			for (int64_t x = 0; x < cnt; x++)
				cr_assert(got[x] == want[k * 256 + x], "r %d x %lld: %a, want %a",
				          r, (long long)(k * 256 + x), (double)got[x],
				          (double)want[k * 256 + x]);
		}
	}
}
