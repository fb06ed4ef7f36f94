/*
 * test-gpu: ArithmeticGenericOp's kernel on the GPU against the CPU operator. Expressions of
 * integer, float16 and the four basic float operations must match byte for byte (the kernel
 * uses the _rn intrinsics, so nvcc contracts nothing into an FMA). Expressions that call libm
 * (pow, exp, tanh, cbrt, log) or rsqrt cannot: CUDA's math library is not glibc's and rsqrtf
 * is not the processor's estimate; those compare within a relative tolerance (docs/gpu.md).
 */
#include "tests/gpu/gpu_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef DALIC_HAVE_CUDA
#include "kernels/cuda/arith.cuh"

#include <cuda_runtime_api.h>

#define GPU_ARITH_MAX_IN 3

typedef struct gpu_arith_case {
	const char *what, *desc;
	int n, nin, ndim;
	dalic_dtype_t dtype[GPU_ARITH_MAX_IN];
	const int64_t *shapes; /* every input has these shapes: n * ndim */
	double range;
	int nints, nreals;
	const int64_t *ints;
	const double *reals;
	double rel; /* 0: byte for byte; else |gpu - cpu| <= rel * max(|cpu|, 1) */
} gpu_arith_case_t;

static bool gpu_arith_ok(int rc, const char *what)
{
	if (rc != DALIC_OK)
		fprintf(stderr, "test-gpu: %s: %s\n", what, dalic_last_error());
	return rc == DALIC_OK;
}

/* The CPU operator over the inputs' host copies. */
static const dalic_batch_t *gpu_arith_cpu(const gpu_arith_case_t *c, const gpu_check_batch_t *in,
                                          dalic_pipeline_t **pp)
{
	static const char *const names[] = {"in0", "in1", "in2"};
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = c->n;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.exec_pipelined = params.exec_async = false;
	params.prefetch_cpu = params.prefetch_gpu = 1;
	dalic_op_t *src, *op;
	bool ok = gpu_arith_ok(dalic_pipeline_create(&params, pp), c->what);
	for (int k = 0; ok && k < c->nin; k++)
		ok = gpu_arith_ok(dalic_pipeline_add_op(*pp, "external_source", "cpu", &src),
		                  c->what) &&
		     gpu_arith_ok(dalic_op_set_name(src, names[k]), c->what);
	ok = ok &&
	     gpu_arith_ok(dalic_pipeline_add_op(*pp, "ArithmeticGenericOp", "cpu", &op), c->what);
	for (int k = 0; ok && k < c->nin; k++)
		ok = gpu_arith_ok(dalic_op_add_input(op, names[k], NULL), c->what);
	ok = ok && gpu_arith_ok(dalic_op_set_string(op, "expression_desc", c->desc), c->what) &&
	     (!c->nints ||
	      gpu_arith_ok(dalic_op_set_ints(op, "integer_constants", c->nints, c->ints),
	                   c->what)) &&
	     (!c->nreals ||
	      gpu_arith_ok(dalic_op_set_floats(op, "real_constants", c->nreals, c->reals),
	                   c->what)) &&
	     gpu_arith_ok(dalic_pipeline_add_output(*pp, dalic_op_output(op, 0), NULL), c->what);
	for (int k = 0; ok && k < c->nin; k++) {
		size_t total = 0;
		for (int i = 0; i < c->n; i++)
			total += in[k].bytes[i];
		uint8_t *all = (uint8_t *)malloc(total ? total : 1), *q = all;
		for (int i = 0; i < c->n; i++) {
			memcpy(q, in[k].host[i], in[k].bytes[i]);
			q += in[k].bytes[i];
		}
		ok = gpu_arith_ok(dalic_pipeline_feed_input(*pp, names[k], in[k].dtype, c->ndim,
		                                            c->n, c->shapes, all, NULL),
		                  c->what);
		free(all);
	}
	ok = ok && gpu_arith_ok(dalic_pipeline_run(*pp), c->what);
	return ok ? dalic_pipeline_output(*pp, 0) : NULL;
}

static double gpu_arith_value(dalic_dtype_t t, const void *base, size_t i)
{
	return t == DALIC_FLOAT ? (double)((const float *)base)[i] : ((const double *)base)[i];
}

/* Within c->rel of the CPU, element by element (float and float64 outputs). */
static int gpu_arith_compare_rel(const gpu_arith_case_t *c, const dalic_batch_t *cpu,
                                 gpu_check_batch_t *out)
{
	int bad = 0;
	if (cudaDeviceSynchronize() != cudaSuccess)
		return out->n ? out->n : 1;
	for (int i = 0; i < out->n; i++) {
		size_t es = dalic_dtype_size(out->dtype), n = out->bytes[i] / es;
		if (cudaMemcpy(out->host[i], out->dev[i], out->bytes[i], cudaMemcpyDeviceToHost) !=
		    cudaSuccess) {
			bad++;
			continue;
		}
		for (size_t k = 0; k < n; k++) {
			double a = gpu_arith_value(out->dtype, dalic_batch_data(cpu, i), k);
			double b = gpu_arith_value(out->dtype, out->host[i], k);
			double tol = c->rel * (fabs(a) > 1 ? fabs(a) : 1);
			if (!(fabs(a - b) <= tol) && !(isnan(a) && isnan(b)) && a != b) {
				fprintf(
				    stderr,
				    "test-gpu: %s: sample %d element %zu: CPU %.17g, GPU %.17g\n",
				    c->what, i, k, a, b);
				bad++;
				break;
			}
		}
	}
	printf("%-40s %s (relative tolerance %g)\n", c->what, bad ? "DIFFERS" : "matches the CPU",
	       c->rel);
	return bad;
}

static int gpu_arith_case(const gpu_arith_case_t *c)
{
	static const int64_t no_ints[1] = {0};
	static const double no_reals[1] = {0};
	gpu_check_batch_t in[GPU_ARITH_MAX_IN], out;
	memset(in, 0, sizeof in);
	memset(&out, 0, sizeof out);
	dalic_pipeline_t *p = NULL;
	int bad = 1, *zero = NULL;
	arith_expr_t e;
	char err[256];
	for (int k = 0; k < c->nin; k++)
		if (!gpu_check_batch_random(&in[k], c->dtype[k], c->ndim, c->n, c->shapes, c->range,
		                            11u + 7u * (uint32_t)k))
			goto done;
	const dalic_batch_t *cpu = gpu_arith_cpu(c, in, &p);
	if (!cpu || !gpu_check_batch_like(&out, cpu, 0xa5))
		goto done;
	if (!dalic_arith_parse(c->desc, &e, err, sizeof err) ||
	    !dalic_arith_infer(&e, c->dtype, c->nin, err, sizeof err)) {
		fprintf(stderr, "test-gpu: %s: %s\n", c->what, err);
		goto done;
	}
	arith_tile_t *tiles = (arith_tile_t *)calloc((size_t)e.num_constants + 1, sizeof *tiles);
	dalic_arith_val_t consts[ARITH_MAX_NODES];
	memset(consts, 0, sizeof consts);
	dalic_arith_fill_constants(&e, c->nints ? c->ints : no_ints,
	                           c->nreals ? c->reals : no_reals, tiles);
	dalic_cu_arith_constants(&e, tiles, consts);
	free(tiles);
	dalic_cu_arith_sample_t samples[GPU_CHECK_MAX_SAMPLES];
	arith_operand_t operands[GPU_CHECK_MAX_SAMPLES * GPU_ARITH_MAX_IN];
	for (int i = 0; i < c->n; i++) {
		dalic_cu_arith_sample_t *s = &samples[i];
		s->ndim = out.ndim;
		s->elems = 1;
		for (int d = 0; d < out.ndim; d++)
			s->elems *= s->shape[d] = out.shape[i][d];
		s->out = out.dev[i];
		s->first_operand = (int64_t)i * c->nin;
		for (int k = 0; k < c->nin; k++)
			dalic_arith_operand(in[k].dev[i], in[k].dtype, c->ndim, in[k].shape[i],
			                    out.ndim, out.shape[i], &operands[i * c->nin + k]);
	}
	if (cudaMalloc((void **)&zero, sizeof *zero) != cudaSuccess ||
	    cudaMemset(zero, 0, sizeof *zero) != cudaSuccess)
		goto done;
	dalic_cu_arith_params_t prm = {
	    &e, consts, samples, operands, NULL, c->n, 0, (int64_t)c->n * c->nin, zero};
	dalic_cu_arith_grid(&prm, NULL, 0);
	dalic_cu_block_t *blocks =
	    (dalic_cu_block_t *)calloc((size_t)prm.nblocks + 1, sizeof *blocks);
	dalic_cu_arith_grid(&prm, blocks, prm.nblocks);
	if (dalic_cu_arith_launch(&prm, 0))
		bad = c->n;
	else
		bad = c->rel ? gpu_arith_compare_rel(c, cpu, &out)
		             : gpu_check_compare(c->what, cpu, &out);
	free(blocks);
done:
	if (zero)
		cudaFree(zero);
	gpu_check_batch_free(&out);
	for (int k = 0; k < c->nin; k++)
		gpu_check_batch_free(&in[k]);
	dalic_pipeline_destroy(p);
	return bad;
}

int gpu_check_arith(void)
{
	static const int64_t hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 40, 70, 3};
	static const double r1[] = {0.5, 3.25}, r2[] = {0.1, 1.5}, r3[] = {1.5, 0.25};
	static const int64_t i1[] = {-3000, 1 << 20, 7}, i2[] = {-5}, i3[] = {3, 200};
	static const gpu_arith_case_t cases[] = {
	    {"arith u8 * 0.5 + f32 - 3.25",
	     "sub(add(mul(&0 $0:float32) &1) $1:float32)",
	     5,
	     2,
	     3,
	     {DALIC_UINT8, DALIC_FLOAT},
	     hwc,
	     100,
	     0,
	     2,
	     NULL,
	     r1,
	     0},
	    {"arith integer clamp/div/mod",
	     "add(clamp(sub(mul(&0 &1) &2) $0:int32 $1:int32) "
	     "mod(div(&0 bitor(&2 $2:int16)) $2:int8))",
	     5,
	     3,
	     3,
	     {DALIC_INT16, DALIC_UINT8, DALIC_INT8},
	     hwc,
	     0,
	     3,
	     0,
	     i1,
	     NULL,
	     0},
	    {"arith u8 ipow/bitxor/abs",
	     "bitxor(pow(&0 $0:int32) add(abs(minus(&1)) $1:uint8))",
	     5,
	     2,
	     3,
	     {DALIC_UINT8, DALIC_INT8},
	     hwc,
	     0,
	     2,
	     0,
	     i3,
	     NULL,
	     0},
	    {"arith i64/u64 comparisons",
	     "bitor(bitand(lt(&0 &1) geq(&1 $0:int64)) neq(&0 &0))",
	     5,
	     2,
	     3,
	     {DALIC_INT64, DALIC_UINT64},
	     hwc,
	     0,
	     1,
	     0,
	     i2,
	     NULL,
	     0},
	    {"arith float16",
	     "clamp(add(mul(&0 $0:float16) &1) minus($1:float16) $1:float16)",
	     5,
	     2,
	     3,
	     {DALIC_FLOAT16, DALIC_INT8},
	     hwc,
	     60,
	     0,
	     2,
	     NULL,
	     r2,
	     0},
	    {"arith f32 libm (tolerance)",
	     "add(pow(fabs(&0) $0:float32) mul(exp(mul(&0 $1:float32)) "
	     "rsqrt(add(fabs(&0) $0:float32))))",
	     5,
	     1,
	     3,
	     {DALIC_FLOAT},
	     hwc,
	     8,
	     0,
	     2,
	     NULL,
	     r3,
	     1e-5},
	    {"arith f64 libm (tolerance)",
	     "add(mul(tanh(&0) cbrt(&0)) log(add(fabs(&0) $0:float64)))",
	     5,
	     1,
	     3,
	     {DALIC_FLOAT64},
	     hwc,
	     5,
	     0,
	     1,
	     NULL,
	     r3,
	     1e-13},
	};
	int bad = 0;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
		bad += gpu_arith_case(&cases[k]);
	return bad;
}
#else
int gpu_check_arith(void)
{
	return 0;
}
#endif
