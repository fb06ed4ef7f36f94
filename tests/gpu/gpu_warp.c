/*
 * test-gpu: the warp kernel on the GPU against warp_affine and rotate on the CPU, byte for byte
 * (the kernel's coordinates and samples are img_warp_px.h's, with every product and sum rounded
 * as on the CPU). The matrix and the angle are scalar arguments here (the grid-runner test
 * also feeds per-sample transforms and angles).
 */
#include "tests/gpu/gpu_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/common/img_warp.h"
#include "kernels/cuda/warp.cuh"

typedef struct gpu_warp_opts {
	const char *op; /* "warp_affine" (matrix) or "rotate" (angle) */
	const char *layout;
	int ndim, n;
	const int64_t *shapes;
	dalic_dtype_t it, ot;
	double range;
	bool nn, fill;
	double fill_value;
	float m[12]; /* warp_affine */
	float angle; /* rotate, degrees */
} gpu_warp_opts_t;

/* The CPU pipeline: external source "in" -> the operator with scalar arguments -> output. */
static bool gpu_warp_pipeline(const gpu_warp_opts_t *o, const gpu_check_batch_t *in, int sd,
                              dalic_pipeline_t **pp)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = o->n;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.exec_pipelined = params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_op_t *src, *op;
	bool ok = dalic_pipeline_create(&params, pp) == DALIC_OK &&
	          dalic_pipeline_add_op(*pp, "external_source", "cpu", &src) == DALIC_OK &&
	          dalic_op_set_name(src, "in") == DALIC_OK &&
	          dalic_pipeline_add_op(*pp, o->op, "cpu", &op) == DALIC_OK &&
	          dalic_op_add_input(op, "in", NULL) == DALIC_OK &&
	          dalic_op_set_int(op, "dtype", o->ot) == DALIC_OK;
	if (ok && !strcmp(o->op, "rotate")) {
		ok = dalic_op_set_float(op, "angle", o->angle) == DALIC_OK;
	} else if (ok) {
		double v[12];
		for (int k = 0; k < sd * (sd + 1); k++)
			v[k] = o->m[k];
		ok = dalic_op_set_floats(op, "matrix", sd * (sd + 1), v) == DALIC_OK;
	}
	if (ok && o->nn)
		ok = dalic_op_set_int(op, "interp_type", DALIC_INTERP_NN) == DALIC_OK;
	if (ok && o->fill)
		ok = dalic_op_set_float(op, "fill_value", o->fill_value) == DALIC_OK;
	size_t total = 0;
	for (int i = 0; i < o->n; i++)
		total += in->bytes[i];
	uint8_t *all = (uint8_t *)malloc(total ? total : 1), *q = all;
	for (int i = 0; i < o->n; i++) {
		memcpy(q, in->host[i], in->bytes[i]);
		q += in->bytes[i];
	}
	ok = ok && dalic_pipeline_add_output(*pp, dalic_op_output(op, 0), NULL) == DALIC_OK &&
	     dalic_pipeline_feed_input(*pp, "in", o->it, o->ndim, o->n, o->shapes, all,
	                               o->layout) == DALIC_OK &&
	     dalic_pipeline_run(*pp) == DALIC_OK;
	free(all);
	return ok;
}

static int gpu_warp_case(const char *what, const gpu_warp_opts_t *o)
{
	const int first = o->layout[0] == 'F', sd = strchr(o->layout, 'D') ? 3 : 2;
	const bool has_c = o->layout[strlen(o->layout) - 1] == 'C';
	gpu_check_batch_t in, out;
	memset(&out, 0, sizeof out);
	dalic_pipeline_t *p = NULL;
	int bad = 1;
	if (!gpu_check_batch_random(&in, o->it, o->ndim, o->n, o->shapes, o->range, 11u))
		goto done;
	if (!gpu_warp_pipeline(o, &in, sd, &p)) {
		fprintf(stderr, "test-gpu: %s: %s\n", what, dalic_last_error());
		goto done;
	}
	const dalic_batch_t *cpu = dalic_pipeline_output(p, 0);
	if (!gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	dalic_cu_warp_sample_t s[GPU_CHECK_MAX_SAMPLES];
	memset(s, 0, sizeof s);
	for (int i = 0; i < o->n; i++) {
		const int64_t *is = in.shape[i], *os = dalic_batch_shape(cpu, i);
		img_warp_job_t *j = &s[i].job;
		j->ndim = sd;
		j->in = in.dev[i];
		j->out = out.dev[i];
		j->in_type = o->it;
		j->out_type = o->ot;
		j->channels = has_c ? (int)is[o->ndim - 1] : 1;
		for (int d = 0; d < 3; d++)
			j->in_size[d] = j->out_size[d] = 1;
		for (int d = 0; d < sd; d++) {
			j->in_size[d] = is[first + sd - 1 - d];
			j->out_size[d] = os[first + sd - 1 - d];
		}
		j->linear = !o->nn;
		j->clamp = !o->fill;
		if (!strcmp(o->op, "rotate")) {
			j->fill = (float)o->fill_value;
			dalic_img_warp_rotation(dalic_img_warp_radians(o->angle), is[1], is[0],
			                        os[1], os[0], j->m);
		} else {
			j->fill = o->fill ? dalic_img_warp_fill(o->ot, o->fill_value) : 0;
			memcpy(j->m, o->m, sizeof o->m);
		}
		dalic_img_warp_prepare(j);
		s[i].frames = first ? is[0] : 1;
		s[i].in_frame = s[i].frames ? (int64_t)in.bytes[i] / s[i].frames : 0;
		s[i].out_frame = s[i].frames ? (int64_t)out.bytes[i] / s[i].frames : 0;
	}
	dalic_cu_warp_params_t prm = {s, NULL, o->n, 0};
	dalic_cu_warp_grid(&prm, NULL, 0);
	dalic_cu_block_t *blocks =
	    (dalic_cu_block_t *)calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_warp_grid(&prm, blocks, prm.nblocks);
	bad = dalic_cu_warp_launch(&prm, 0) ? o->n : gpu_check_compare(what, cpu, &out);
	free(blocks);
done:
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	dalic_pipeline_destroy(p);
	return bad;
}

int gpu_check_warp(void)
{
	static const int64_t hwc[] = {1, 1, 3, 7, 13, 3, 33, 300, 3, 5, 513, 3, 0, 5, 3};
	static const int64_t fhwc[] = {3, 9, 11, 3, 2, 20, 270, 2};
	static const int64_t dhwc[] = {5, 9, 11, 2, 3, 7, 300, 1};
	static const int64_t hw[] = {20, 31, 4, 600, 9, 9};
	const float c = cosf(0.3f) * 0.9f, sn = sinf(0.3f) * 0.9f;
	gpu_warp_opts_t a = {"warp_affine",
	                     "HWC",
	                     3,
	                     5,
	                     hwc,
	                     DALIC_UINT8,
	                     DALIC_UINT8,
	                     255,
	                     false,
	                     true,
	                     77.6,
	                     {c, -sn, 3.5f, sn, c, -2.25f},
	                     0};
	gpu_warp_opts_t b = a;
	b.layout = "FHWC", b.ndim = 4, b.n = 2, b.shapes = fhwc;
	b.it = DALIC_FLOAT, b.ot = DALIC_INT32, b.range = 1e5, b.nn = true, b.fill = false;
	gpu_warp_opts_t v = {"warp_affine",
	                     "DHWC",
	                     4,
	                     2,
	                     dhwc,
	                     DALIC_INT16,
	                     DALIC_INT16,
	                     30000,
	                     false,
	                     false,
	                     0,
	                     {c, -sn, 0.1f, 1.5f, sn, c, -0.2f, -0.75f, 0.05f, 0.1f, 0.9f, 0.5f},
	                     0};
	gpu_warp_opts_t r = {"rotate", "HWC", 3,     4, hwc, DALIC_UINT8, DALIC_UINT8,
	                     255,      false, false, 0, {0}, 30};
	gpu_warp_opts_t r2 = {"rotate", "HW", 2,    3,  hw,  DALIC_FLOAT, DALIC_FLOAT,
	                      100,      true, true, -2, {0}, -17.5f};
	return gpu_warp_case("warp_affine u8 linear fill", &a) +
	       gpu_warp_case("warp_affine FHWC NN f32 -> i32", &b) +
	       gpu_warp_case("warp_affine DHWC i16 linear", &v) +
	       gpu_warp_case("rotate u8 linear clamp", &r) +
	       gpu_warp_case("rotate HW f32 NN fill", &r2);
}
#else
int gpu_check_warp(void)
{
	return 0;
}
#endif
