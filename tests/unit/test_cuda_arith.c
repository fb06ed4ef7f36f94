/*
 * ArithmeticGenericOp's CUDA kernel (kernels/cuda/arith.cuh) on the CPU grid runner, compared
 * byte for byte with the CPU operator run through the public API: batches of samples with
 * different shapes (sizes that do not divide the block, several blocks per sample, empty
 * samples), broadcasting of inputs and constants, every lane (int64, float, double), DALI's
 * type promotion with float16 and uint64, comparisons, clamp, integer division by zero.
 * Also checks that the float16 rules the kernel uses (arith_elem.h) are engine/dtype.h's.
 */
#include "tests/testlib/cuda_batch.h"

#include "engine/dtype.h"
#include "kernels/cuda/arith.cuh"

TestSuite(cuda_arith, .timeout = 120);

#define CUDA_ARITH_MAX_IN 3

typedef struct cuda_arith_in {
	dalic_dtype_t dtype;
	int ndim;
	const int64_t *shapes; /* n * ndim */
	double range;          /* floats in [-range, range]; integers take random bits */
} cuda_arith_in_t;

typedef struct cuda_arith_case {
	const char *what, *desc;
	int n, nin;
	cuda_arith_in_t in[CUDA_ARITH_MAX_IN];
	int nints, nreals;
	const int64_t *ints;
	const double *reals;
} cuda_arith_case_t;

static void cuda_arith_body(const dalic_cu_idx_t *ix, const void *p)
{
	dalic_cu_arith_body(ix, (const dalic_cu_arith_params_t *)p);
}

static dalic_pipeline_t *cuda_arith_pipeline(const cuda_arith_case_t *c, tl_cu_batch_t *in)
{
	static const char *const names[] = {"in0", "in1", "in2"};
	dalic_pipeline_t *p = tl_pipeline(c->n);
	for (int k = 0; k < c->nin; k++)
		tl_source(p, names[k]);
	dalic_op_t *op = tl_op(p, "ArithmeticGenericOp");
	for (int k = 0; k < c->nin; k++)
		tl_input(op, names[k]);
	cr_assert_eq(dalic_op_set_string(op, "expression_desc", c->desc), DALIC_OK);
	if (c->nints)
		cr_assert_eq(dalic_op_set_ints(op, "integer_constants", c->nints, c->ints),
		             DALIC_OK);
	if (c->nreals)
		cr_assert_eq(dalic_op_set_floats(op, "real_constants", c->nreals, c->reals),
		             DALIC_OK);
	tl_output(p, op);
	for (int k = 0; k < c->nin; k++)
		tl_cu_batch_feed(p, names[k], &in[k], NULL);
	return p;
}

static void cuda_arith_inputs(const cuda_arith_case_t *c, tl_cu_batch_t *in)
{
	for (int k = 0; k < c->nin; k++)
		tl_cu_batch_random(&in[k], c->in[k].dtype, c->in[k].ndim, c->n, c->in[k].shapes,
		                   c->in[k].range, 11u + 7u * (uint32_t)k + (uint32_t)c->n);
}

/* The kernel over `in` into `out` (already shaped); returns *p->zero. */
static int cuda_arith_kernel(const cuda_arith_case_t *c, const tl_cu_batch_t *in,
                             tl_cu_batch_t *out)
{
	static const int64_t no_ints[1] = {0};
	static const double no_reals[1] = {0};
	arith_expr_t e;
	char err[256];
	dalic_dtype_t dtypes[CUDA_ARITH_MAX_IN];
	for (int k = 0; k < c->nin; k++)
		dtypes[k] = in[k].dtype;
	cr_assert(dalic_arith_parse(c->desc, &e, err, sizeof err), "%s", err);
	cr_assert(dalic_arith_infer(&e, dtypes, c->nin, err, sizeof err), "%s", err);
	arith_tile_t *tiles = calloc((size_t)e.num_constants + 1, sizeof *tiles);
	dalic_arith_fill_constants(&e, c->nints ? c->ints : no_ints,
	                           c->nreals ? c->reals : no_reals, tiles);
	dalic_arith_val_t consts[ARITH_MAX_NODES];
	memset(consts, 0, sizeof consts);
	dalic_cu_arith_constants(&e, tiles, consts);
	free(tiles);

	dalic_cu_arith_sample_t samples[TL_CU_MAX_SAMPLES];
	arith_operand_t operands[TL_CU_MAX_SAMPLES * CUDA_ARITH_MAX_IN];
	for (int i = 0; i < out->n; i++) {
		dalic_cu_arith_sample_t *s = &samples[i];
		s->ndim = out->ndim;
		s->elems = 1;
		for (int d = 0; d < out->ndim; d++)
			s->elems *= s->shape[d] = out->shape[i][d];
		s->out = out->data[i];
		s->first_operand = (int64_t)i * c->nin;
		for (int k = 0; k < c->nin; k++)
			dalic_arith_operand(in[k].data[i], in[k].dtype, in[k].ndim, in[k].shape[i],
			                    out->ndim, out->shape[i], &operands[i * c->nin + k]);
	}
	int zero = 0;
	dalic_cu_arith_params_t p = {
	    &e, consts, samples, operands, NULL, out->n, 0, (int64_t)out->n * c->nin, &zero};
	dalic_cu_arith_grid(&p, NULL, 0);
	dalic_cu_block_t *blocks = calloc((size_t)p.nblocks + 1, sizeof *blocks);
	dalic_cu_launch_t l = dalic_cu_arith_grid(&p, blocks, p.nblocks);
	int64_t calls = tl_cu_run_grid(l, cuda_arith_body, &p);
	cr_expect_eq(calls, p.nblocks * DALIC_CU_BLOCK_THREADS);
	free(blocks);
	return zero;
}

static void cuda_arith_run(const cuda_arith_case_t *c)
{
	tl_cu_batch_t in[CUDA_ARITH_MAX_IN], out;
	cuda_arith_inputs(c, in);
	dalic_pipeline_t *p = cuda_arith_pipeline(c, in);
	const dalic_batch_t *cpu = tl_run(p, 0);
	for (int canary = 0; canary < 2; canary++) {
		tl_cu_batch_like(&out, cpu, canary ? 0xff : 0x00);
		cr_expect_eq(cuda_arith_kernel(c, in, &out), 0, "%s: no division by zero", c->what);
		tl_cu_expect_equal(cpu, &out, c->what);
		tl_cu_batch_free(&out);
	}
	dalic_pipeline_destroy(p);
	for (int k = 0; k < c->nin; k++)
		tl_cu_batch_free(&in[k]);
}

/* HWC images of odd sizes, an empty one and one spanning many blocks. */
static const int64_t cuda_arith_hwc[] = {1, 1, 3, 7, 13, 3, 33, 65, 3, 0, 5, 3, 40, 70, 3};
static const int64_t cuda_arith_c111[] = {1, 1, 3, 1, 1, 3, 1, 1, 3, 1, 1, 3, 1, 1, 3};
static const int64_t cuda_arith_w1[] = {1, 1, 13, 1, 65, 1, 5, 1, 70, 1};
static const int64_t cuda_arith_one[] = {1, 1, 1, 1, 1};

Test(cuda_arith, float_scale_and_shift_broadcast)
{
	const double reals[] = {0.5, 3.25};
	cuda_arith_case_t c = {
	    "u8 * 0.5 + f32[1,1,3] - 3.25",
	    "sub(add(mul(&0 $0:float32) &1) $1:float32)",
	    5,
	    2,
	    {{DALIC_UINT8, 3, cuda_arith_hwc, 0}, {DALIC_FLOAT, 3, cuda_arith_c111, 100}},
	    0,
	    2,
	    NULL,
	    reals};
	cuda_arith_run(&c);
}

Test(cuda_arith, integer_promotion_wrap_and_clamp)
{
	const int64_t ints[] = {-3000, 1 << 20, 7};
	cuda_arith_case_t c = {"clamp(i16 * u8 - i8[W,1], ...) and div/mod",
	                       "add(clamp(sub(mul(&0 &1) &2) $0:int32 $1:int32) "
	                       "mod(div(&0 bitor(&2 $2:int16)) $2:int8))",
	                       5,
	                       3,
	                       {{DALIC_INT16, 3, cuda_arith_hwc, 0},
	                        {DALIC_UINT8, 3, cuda_arith_hwc, 0},
	                        {DALIC_INT8, 2, cuda_arith_w1, 0}},
	                       3,
	                       0,
	                       ints,
	                       NULL};
	cuda_arith_run(&c);
}

Test(cuda_arith, small_integers_wrap_to_their_type)
{
	const int64_t ints[] = {3, 200};
	cuda_arith_case_t c = {
	    "u8 wraps, ipow, bitwise, neg, abs",
	    "bitxor(pow(&0 $0:int32) add(abs(minus(&1)) $1:uint8))",
	    5,
	    2,
	    {{DALIC_UINT8, 3, cuda_arith_hwc, 0}, {DALIC_INT8, 3, cuda_arith_hwc, 0}},
	    2,
	    0,
	    ints,
	    NULL};
	cuda_arith_run(&c);
}

Test(cuda_arith, uint64_against_signed_comparisons)
{
	const int64_t ints[] = {-5};
	cuda_arith_case_t c = {
	    "i64 < u64, u64 >= -5, bool ops",
	    "bitor(bitand(lt(&0 &1) geq(&1 $0:int64)) neq(&0 &0))",
	    5,
	    2,
	    {{DALIC_INT64, 3, cuda_arith_hwc, 0}, {DALIC_UINT64, 3, cuda_arith_hwc, 0}},
	    1,
	    0,
	    ints,
	    NULL};
	cuda_arith_run(&c);
	cuda_arith_case_t c2 = {
	    "u64 / scalar u32, min, max",
	    "max(min(div(&0 bitor(&1 $0:uint32)) &0) $0:uint32)",
	    5,
	    2,
	    {{DALIC_UINT64, 3, cuda_arith_hwc, 0}, {DALIC_UINT32, 1, cuda_arith_one, 0}},
	    1,
	    0,
	    (const int64_t[]){1},
	    NULL};
	cuda_arith_run(&c2);
}

Test(cuda_arith, float16_rounds_at_every_node)
{
	const double reals[] = {0.1, 1.5};
	cuda_arith_case_t c = {
	    "f16 * 0.1 + i8, clamp in f16",
	    "clamp(add(mul(&0 $0:float16) &1) minus($1:float16) $1:float16)",
	    5,
	    2,
	    {{DALIC_FLOAT16, 3, cuda_arith_hwc, 60}, {DALIC_INT8, 3, cuda_arith_hwc, 0}},
	    0,
	    2,
	    NULL,
	    reals};
	cuda_arith_run(&c);
	cuda_arith_case_t c2 = {"f16 == f32, f16 / u16",
	                        "add(eq(&0 &1) div(&0 &2))",
	                        5,
	                        3,
	                        {{DALIC_FLOAT16, 3, cuda_arith_hwc, 4},
	                         {DALIC_FLOAT, 3, cuda_arith_c111, 4},
	                         {DALIC_UINT16, 2, cuda_arith_w1, 0}},
	                        0,
	                        0,
	                        NULL,
	                        NULL};
	cuda_arith_run(&c2);
}

Test(cuda_arith, transcendental_float_and_double)
{
	const double reals[] = {1.5, 0.25};
	cuda_arith_case_t c = {"f32 libm chain",
	                       "atan2(pow(fabs(&0) $0:float32) add(rsqrt(fabs(&0)) "
	                       "mod(exp(mul(&0 $1:float32)) log(fabs(&0)))))",
	                       5,
	                       1,
	                       {{DALIC_FLOAT, 3, cuda_arith_hwc, 8}},
	                       0,
	                       2,
	                       NULL,
	                       reals};
	cuda_arith_run(&c);
	cuda_arith_case_t c2 = {
	    "f64 trig with i32",
	    "sub(div(sin(&0) cos(&1)) fdiv(tanh(&0) cbrt(&1)))",
	    5,
	    2,
	    {{DALIC_FLOAT64, 3, cuda_arith_hwc, 5}, {DALIC_INT32, 3, cuda_arith_hwc, 0}},
	    0,
	    0,
	    NULL,
	    NULL};
	cuda_arith_run(&c2);
	cuda_arith_case_t c3 = {"unary f32 set",
	                        "floor(sqrt(ceil(asinh(sinh(&0)))))",
	                        5,
	                        1,
	                        {{DALIC_FLOAT, 3, cuda_arith_hwc, 3}},
	                        0,
	                        0,
	                        NULL,
	                        NULL};
	cuda_arith_run(&c3);
}

Test(cuda_arith, plain_input_and_bool_product)
{
	cuda_arith_case_t c = {
	    "&0 alone, f16", "&0", 5, 1, {{DALIC_FLOAT16, 3, cuda_arith_hwc, 9}}, 0, 0, NULL, NULL};
	cuda_arith_run(&c);
	cuda_arith_case_t c2 = {
	    "bool * bool",
	    "mul(&0 &1)",
	    5,
	    2,
	    {{DALIC_BOOL, 3, cuda_arith_hwc, 0}, {DALIC_BOOL, 3, cuda_arith_hwc, 0}},
	    0,
	    0,
	    NULL,
	    NULL};
	cuda_arith_run(&c2);
}

Test(cuda_arith, integer_division_by_zero_is_flagged)
{
	/* the CPU operator fails; the kernel records the node (div is node 2: &0 &1 div) */
	cuda_arith_case_t c = {"i32 / 0",
	                       "div(&0 &1)",
	                       2,
	                       2,
	                       {{DALIC_INT32, 1, (const int64_t[]){4, 300}, 0},
	                        {DALIC_INT32, 1, (const int64_t[]){4, 300}, 0}},
	                       0,
	                       0,
	                       NULL,
	                       NULL};
	tl_cu_batch_t in[2], out;
	cuda_arith_inputs(&c, in);
	memset(in[1].data[1] + 4 * 123, 0, 4); /* one zero divisor in sample 1 */
	dalic_pipeline_t *p = cuda_arith_pipeline(&c, in);
	EXPECT_HAS(tl_run_fails(p, DALIC_EOP), "division by zero");
	tl_cu_batch_alloc(&out, DALIC_INT32, 1, 2, (const int64_t[]){4, 300});
	cr_expect_eq(cuda_arith_kernel(&c, in, &out), 3);
	tl_cu_batch_free(&out);
	dalic_pipeline_destroy(p);
	tl_cu_batch_free(&in[0]);
	tl_cu_batch_free(&in[1]);
}
