/*
 * ArithmeticGenericOp's CUDA kernel: the __global__ wrapper around dalic_cu_arith_body
 * (arith.cuh) and its host launcher, which uploads the typed tree, the constants, the
 * per-sample descriptors, the operands and the block map into stream-ordered scratch.
 */
#include "kernels/cuda/arith.cuh"
#include "kernels/cuda/cu_check.h"

__global__ void dalic_cu_arith_kernel(dalic_cu_arith_params_t p)
{
	dalic_cu_idx_t ix = dalic_cu_idx_here();
	dalic_cu_arith_body(&ix, &p);
}

extern "C" int dalic_cu_arith_launch(const dalic_cu_arith_params_t *p, cudaStream_t stream)
{
	if (p->nblocks == 0)
		return 0;
	dalic_cu_arith_params_t dev = *p;
	dev.expr = (const arith_expr_t *)dalic_cu_upload(p->expr, sizeof *p->expr, stream);
	dev.consts = (const dalic_arith_val_t *)dalic_cu_upload(
	    p->consts, sizeof *p->consts * ARITH_MAX_NODES, stream);
	dev.samples = (const dalic_cu_arith_sample_t *)dalic_cu_upload(
	    p->samples, sizeof *p->samples * (size_t)p->nsamples, stream);
	dev.operands = (const arith_operand_t *)dalic_cu_upload(
	    p->operands, sizeof *p->operands * (size_t)p->noperands, stream);
	dev.blocks = (const dalic_cu_block_t *)dalic_cu_upload(
	    p->blocks, sizeof *p->blocks * (size_t)p->nblocks, stream);
	bool ok =
	    dev.expr && dev.consts && dev.samples && (dev.operands || !p->noperands) && dev.blocks;
	if (ok) {
		dalic_cu_arith_kernel<<<(unsigned)p->nblocks, DALIC_CU_BLOCK_THREADS, 0, stream>>>(
		    dev);
		ok = DALIC_CU_LAUNCHED();
	}
	dalic_cu_scratch_free((void *)dev.expr, stream);
	dalic_cu_scratch_free((void *)dev.consts, stream);
	dalic_cu_scratch_free((void *)dev.samples, stream);
	dalic_cu_scratch_free((void *)dev.operands, stream);
	dalic_cu_scratch_free((void *)dev.blocks, stream);
	return ok ? 0 : -1;
}
