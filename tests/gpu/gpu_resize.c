/*
 * test-gpu: the resize kernel on the GPU against resize on the CPU, byte for byte (the kernel
 * uses the CPU's filter tables and pass order and rounds every product and sum as the CPU
 * does: img_resample_px.h). The cases are a cross-section of the grid-runner suite's
 * (tests/testlib/cuda_resize.h builds the jobs for both).
 */
#include "tests/gpu/gpu_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/common/img_resample_cu.h"
#include "tests/testlib/cuda_resize.h"

/* resize on the CPU: "in" and argument inputs resize_x / resize_y, one float per sample. */
static const dalic_batch_t *gpu_resize_cpu(const tl_cu_resize_case_t *c,
                                           const gpu_check_batch_t *in, dalic_pipeline_t **pp)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = c->n;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.exec_pipelined = params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_pipeline_t *p = NULL;
	dalic_op_t *src, *sx, *sy, *op;
	size_t total = 0;
	for (int i = 0; i < c->n; i++)
		total += in->bytes[i];
	uint8_t *all = (uint8_t *)malloc(total ? total : 1), *q = all;
	int64_t ones[GPU_CHECK_MAX_SAMPLES];
	for (int i = 0; i < c->n; i++) {
		memcpy(q, in->host[i], in->bytes[i]);
		q += in->bytes[i];
		ones[i] = 1;
	}
	bool ok = dalic_pipeline_create(&params, &p) == DALIC_OK &&
	          dalic_pipeline_add_op(p, "external_source", "cpu", &src) == DALIC_OK &&
	          dalic_op_set_name(src, "in") == DALIC_OK &&
	          dalic_pipeline_add_op(p, "external_source", "cpu", &sx) == DALIC_OK &&
	          dalic_op_set_name(sx, "resize_x") == DALIC_OK &&
	          dalic_pipeline_add_op(p, "external_source", "cpu", &sy) == DALIC_OK &&
	          dalic_op_set_name(sy, "resize_y") == DALIC_OK &&
	          dalic_pipeline_add_op(p, "resize", "cpu", &op) == DALIC_OK &&
	          dalic_op_add_input(op, "in", NULL) == DALIC_OK &&
	          dalic_op_set_arg_input(op, "resize_x", "resize_x") == DALIC_OK &&
	          dalic_op_set_arg_input(op, "resize_y", "resize_y") == DALIC_OK &&
	          tl_cu_resize_set_args(op, c) == DALIC_OK &&
	          dalic_pipeline_add_output(p, dalic_op_output(op, 0), NULL) == DALIC_OK &&
	          dalic_pipeline_feed_input(p, "in", c->in_type, c->ndim, c->n, c->shapes, all,
	                                    c->layout) == DALIC_OK &&
	          dalic_pipeline_feed_input(p, "resize_x", DALIC_FLOAT, 1, c->n, ones, c->rx,
	                                    NULL) == DALIC_OK &&
	          dalic_pipeline_feed_input(p, "resize_y", DALIC_FLOAT, 1, c->n, ones, c->ry,
	                                    NULL) == DALIC_OK &&
	          dalic_pipeline_run(p) == DALIC_OK;
	free(all);
	*pp = p;
	if (!ok) {
		fprintf(stderr, "test-gpu: %s: %s\n", c->what, dalic_last_error());
		return NULL;
	}
	return dalic_pipeline_output(p, 0);
}

static int gpu_resize_case(const tl_cu_resize_case_t *c)
{
	gpu_check_batch_t in, out;
	memset(&out, 0, sizeof out);
	img_resample_cu_batch_t b;
	memset(&b, 0, sizeof b);
	dalic_pipeline_t *p = NULL;
	dalic_cu_block_t *blocks[2] = {NULL, NULL};
	int bad = c->n;
	const dalic_batch_t *cpu = NULL;
	if (!gpu_check_batch_random(&in, c->in_type, c->ndim, c->n, c->shapes, 100,
	                            7u + (uint32_t)c->n) ||
	    !(cpu = gpu_resize_cpu(c, &in, &p)) || !gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	for (int i = 0; i < c->n; i++) {
		img_resample_job_t job;
		int64_t planes;
		char err[256];
		if (!tl_cu_resize_job(c, i, in.dev[i], out.dev[i], &job, &planes, err,
		                      sizeof err)) {
			fprintf(stderr, "test-gpu: %s: sample %d: %s\n", c->what, i, err);
			goto done;
		}
		if (dalic_img_resample_cu_add(&b, &job, planes)) {
			fprintf(stderr, "test-gpu: %s: sample %d: %s\n", c->what, i,
			        dalic_last_error());
			goto done;
		}
	}
	dalic_cu_resize_params_t prm[2];
	for (int pass = 0; pass < 2; pass++) {
		prm[pass] = dalic_img_resample_cu_params(&b, pass);
		dalic_cu_resize_grid(&prm[pass], NULL, 0);
		blocks[pass] =
		    (dalic_cu_block_t *)calloc((size_t)prm[pass].nblocks + 1, sizeof *blocks[pass]);
		dalic_cu_resize_grid(&prm[pass], blocks[pass], prm[pass].nblocks);
	}
	bad = dalic_cu_resize_launch(prm, 0) ? c->n : gpu_check_compare(c->what, cpu, &out);
done:
	free(blocks[0]);
	free(blocks[1]);
	dalic_img_resample_cu_free(&b);
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	dalic_pipeline_destroy(p);
	return bad;
}

int gpu_check_resize(void)
{
	static const int64_t hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 40, 70, 3, 50, 9, 3};
	static const float rx[] = {3, 20, 17, 7, 131, 4}, ry[] = {5, 3, 70, 0, 21, 90};
	static const int64_t fhwc[] = {3, 17, 23, 3, 2, 30, 8, 4};
	static const float frx[] = {40, 5.5f}, fry[] = {8.2f, 45};
	static const double start[] = {30.5, 3.25}, end[] = {2.5, 50.75};
	static const int filters[] = {DALIC_INTERP_NN,         DALIC_INTERP_LINEAR,
	                              DALIC_INTERP_TRIANGULAR, DALIC_INTERP_CUBIC,
	                              DALIC_INTERP_LANCZOS3,   DALIC_INTERP_GAUSSIAN};
	static const char *const names[] = {"resize u8 NN",         "resize u8 linear",
	                                    "resize u8 triangular", "resize u8 cubic",
	                                    "resize u8 lanczos3",   "resize u8 gaussian"};
	tl_cu_resize_case_t c;
	memset(&c, 0, sizeof c);
	c.in_type = c.out_type = DALIC_UINT8;
	c.layout = "HWC", c.ndim = 3, c.n = 6, c.shapes = hwc, c.rx = rx, c.ry = ry;
	c.min_filter = c.mag_filter = -1;
	c.antialias = c.subpixel = true;
	int bad = 0;
	for (int f = 0; f < 6; f++) {
		c.what = names[f];
		c.interp = filters[f];
		bad += gpu_resize_case(&c);
	}
	c.what = "resize i16 lanczos3 no antialias", c.in_type = c.out_type = DALIC_INT16;
	c.interp = DALIC_INTERP_LANCZOS3, c.antialias = false;
	bad += gpu_resize_case(&c);
	c.what = "resize u16 -> f32 min cubic mag nn", c.in_type = DALIC_UINT16;
	c.out_type = DALIC_FLOAT, c.interp = -1, c.antialias = true;
	c.min_filter = DALIC_INTERP_CUBIC, c.mag_filter = DALIC_INTERP_NN;
	bad += gpu_resize_case(&c);
	c.what = "resize FHWC f32 roi flipped, subpixel", c.in_type = c.out_type = DALIC_FLOAT;
	c.layout = "FHWC", c.ndim = 4, c.n = 2, c.shapes = fhwc, c.rx = frx, c.ry = fry;
	c.min_filter = c.mag_filter = -1, c.interp = DALIC_INTERP_GAUSSIAN;
	c.roi_start = start, c.roi_end = end;
	bad += gpu_resize_case(&c);
	return bad;
}
#else
int gpu_check_resize(void)
{
	return 0;
}
#endif
