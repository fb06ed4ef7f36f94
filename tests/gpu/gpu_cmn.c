/*
 * test-gpu: the crop_mirror_normalize kernel on the GPU against the CPU operator, byte for
 * byte (a cross-section of test_cuda_cmn's cases; tests/testlib/cuda_slice.h builds the plans
 * for both). The products and sums use the _rn intrinsics (kernels/common/cmn_px.h), so
 * nothing is fused into an FMA and the values are the CPU's bit for bit.
 */
#include "tests/gpu/gpu_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/cuda/cmn.cuh"
#include "tests/testlib/cuda_slice.h"

static int gpu_cmn_set_args(dalic_op_t *op, const void *ctx)
{
	return tl_cu_cmn_set_args(op, (const tl_cu_cmn_case_t *)ctx);
}

static int gpu_cmn_case(const tl_cu_cmn_case_t *c)
{
	static const char *const names[] = {"mirror", NULL};
	int32_t mirror[1][GPU_CHECK_MAX_SAMPLES];
	gpu_check_batch_t in, out;
	dalic_pipeline_t *p = NULL;
	dalic_cu_block_t *blocks = NULL;
	dalic_cu_cmn_sample_t *samples = NULL;
	int bad = c->n;
	memset(&out, 0, sizeof out);
	memset(mirror, 0, sizeof mirror);
	memcpy(mirror[0], c->mirror, sizeof(int32_t) * (size_t)c->n);
	double range = c->in_type == DALIC_FLOAT || c->in_type == DALIC_FLOAT16 ? 300 : 1000;
	if (!gpu_check_batch_random(&in, c->in_type, c->ndim, c->n, c->shapes, range,
	                            3u + (uint32_t)c->n))
		goto done;
	gpu_check_op_t op = {"crop_mirror_normalize", c->layout, names,
	                     (const int32_t(*)[GPU_CHECK_MAX_SAMPLES])mirror, NULL, NULL,
	                     gpu_cmn_set_args, c};
	const dalic_batch_t *cpu = gpu_check_cpu(&op, &in, &p);
	if (!cpu || !gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	samples = (dalic_cu_cmn_sample_t *)calloc((size_t)c->n, sizeof *samples);
	if (!samples)
		goto done;
	for (int i = 0; i < c->n; i++) {
		dalic_cu_cmn_sample_t *s = &samples[i];
		tl_cu_cmn_plan(c, i, &s->plan, s->mul, s->add, s->fill);
		s->in = in.dev[i];
		s->out = out.dev[i];
	}
	dalic_cu_cmn_params_t prm = {samples, NULL, c->n, 0};
	dalic_cu_cmn_grid(&prm, NULL, 0);
	blocks = (dalic_cu_block_t *)calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_cmn_grid(&prm, blocks, prm.nblocks);
	bad = dalic_cu_cmn_launch(&prm, 0) ? c->n : gpu_check_compare(c->what, cpu, &out);
done:
	free(blocks);
	free(samples);
	gpu_check_batch_free(&out);
	gpu_check_batch_free(&in);
	dalic_pipeline_destroy(p);
	return bad;
}

int gpu_check_cmn(void)
{
	static const int64_t hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 17, 300, 3, 64, 64, 3};
	static const int32_t mir[] = {1, 0, 1, 1, 0, 1, 0, 1};
	static const double mean[] = {0.485 * 255, 0.456 * 255, 0.406 * 255, 17, 3};
	static const double std[] = {0.229 * 255, 0.224 * 255, 0.225 * 255, 2.5, 0.5};
	static const double fill[] = {5, -7, 100};
	static const int64_t chw[] = {3, 31, 47, 5, 5, 1, 5, 129, 33};
	static const int64_t fhwc[] = {3, 9, 11, 3, 2, 40, 17, 3};
	const tl_cu_cmn_case_t cases[] = {
	    {"cmn u8 HWC->CHW f32", DALIC_UINT8, DALIC_NO_TYPE, "HWC", NULL, 3, 6, hwc, mir, "pad",
	     0, 3, 3, NULL, mean, std, 0, 0, false, 0, 0, 0.5, 0.5},
	    {"cmn u8 pad_output pad -> f16", DALIC_UINT8, DALIC_FLOAT16, "HWC", "CHW", 3, 6, hwc,
	     mir, "pad", 3, 3, 3, fill, mean, std, 0.5, 3, true, 20, 70, 0.2, 0.9},
	    {"cmn u8 HWC->HWC pad -> u8", DALIC_UINT8, DALIC_UINT8, "HWC", "HWC", 3, 6, hwc, mir + 2,
	     "pad", 1, 1, 1, fill, mean, std, 0, 0, true, 40, 9, 0.7, 0.3},
	    {"cmn f32 HWC trim -> i8", DALIC_FLOAT, DALIC_INT8, "HWC", "CHW", 3, 6, hwc, mir,
	     "trim_to_shape", 0, 3, 1, NULL, mean, std + 3, 2, 1, false, 21, 70, 1.0, 0.0},
	    {"cmn i16 CHW->HWC f16 pad", DALIC_INT16, DALIC_FLOAT16, "CHW", "HWC", 3, 3, chw, mir,
	     "pad", 0, 1, 1, NULL, mean + 3, std + 4, 0, 0, true, 20, 40, 0.5, 0.5},
	    {"cmn u8 FHWC->CFHW f32", DALIC_UINT8, DALIC_NO_TYPE, "FHWC", "CFHW", 4, 2, fhwc,
	     mir + 1, "pad", 0, 3, 3, NULL, mean, std, 0, 0, false, 12, 15, 0.5, 0.5},
	};
	int bad = 0;
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
		bad += gpu_cmn_case(&cases[k]);
	return bad;
}
#else
int gpu_check_cmn(void)
{
	return 0;
}
#endif
