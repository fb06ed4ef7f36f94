/*
 * ArithmeticGenericOp on the GPU (kernels/cuda/arith.cuh): the expression the CPU operator
 * parsed and typed in its setup, its constants as the kernel's value slots, each sample's
 * operands with the CPU's broadcast strides (dalic_arith_operand), one launch for the batch.
 * An integer division by zero sets a flag in the node's device scratch; `finish` reads it
 * after the kernels and fails as the CPU operator does (naming the operation, not the
 * sample: the flag does not say which).
 */
#include "kernels/common/arith_expr.h"
#include "kernels/cuda/arith.cuh"
#include "kernels/common/gpu_op.h"

#include "engine/error.h"

#include <string.h>

DALIC_GPU_KERNEL(arith);

static int dalic_gpu_arith_run(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const arith_tile_t *tiles;
	const arith_expr_t *e = dalic_arith_op_expr(ctx, &tiles);
	const dalic_batch_t *out = ws->outputs[0];
	int n = ws->batch_size, nin = ws->num_inputs;
	dalic_arith_val_t *consts = dalic_gpu_scratch(r, 0, sizeof *consts * ARITH_MAX_NODES);
	dalic_cu_arith_sample_t *s = dalic_gpu_scratch(r, 1, sizeof *s * (size_t)n);
	arith_operand_t *ops = dalic_gpu_scratch(r, 2, sizeof *ops * (size_t)(n * nin));
	if (!consts || !s || !ops)
		return DALIC_ENOMEM;
	memset(consts, 0, sizeof *consts * ARITH_MAX_NODES);
	memset(ops, 0, sizeof *ops * (size_t)(n * nin));
	dalic_cu_arith_constants(e, tiles, consts);
	for (int i = 0; i < n; i++) {
		s[i].ndim = out->ndim;
		memcpy(s[i].shape, dalic_batch_shape(out, i), sizeof(int64_t) * (size_t)out->ndim);
		s[i].elems = (int64_t)dalic_batch_sample_elems(out, i);
		s[i].out = out->ptrs[i];
		s[i].first_operand = (int64_t)i * nin;
		for (int j = 0; j < e->num_nodes; j++) {
			const arith_node_t *nd = &e->nodes[j];
			if (nd->kind != ARITH_INPUT)
				continue;
			const dalic_batch_t *in = ws->inputs[nd->index];
			dalic_arith_operand(in->ptrs[i], in->dtype, in->ndim,
			                    dalic_batch_shape(in, i), out->ndim,
			                    dalic_batch_shape(out, i), &ops[i * nin + nd->index]);
		}
	}
	const int zero = 0;
	int *flag = dalic_gpu_upload(r, &zero, sizeof zero);
	if (!flag)
		return DALIC_EDEVICE;
	dalic_cu_arith_params_t p = {e, consts, s, ops, NULL, n, 0, (int64_t)n * nin, flag};
	dalic_cu_arith_grid(&p, NULL, 0);
	dalic_cu_block_t *b = dalic_gpu_scratch(r, 3, sizeof *b * (size_t)p.nblocks);
	if (!b)
		return DALIC_ENOMEM;
	dalic_cu_launch_t l = dalic_cu_arith_grid(&p, b, p.nblocks);
	return dalic_gpu_launch(r, &dalic_gpu_arith_kernel, &p, &l);
}

static int dalic_gpu_arith_finish(dalic_gpu_run_t *r, dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	int zero = 0;
	if (r->dev->copy(&zero, r->scratch->dev, sizeof zero))
		return dalic_fail(DALIC_EDEVICE,
		                  "operator '%s': reading the division flag failed "
		                  "(the CUDA error is on stderr)",
		                  ctx->inst);
	if (!zero)
		return DALIC_OK;
	const arith_tile_t *tiles;
	const arith_node_t *nd = &dalic_arith_op_expr(ctx, &tiles)->nodes[zero - 1];
	return dalic_op_fail(
	    ctx, ws, -1, "integer division by zero in `%s` (position %d of \"%s\")",
	    dalic_arith_op_name(nd->op), nd->pos, dalic_arg_string(ctx, "expression_desc"));
}

const dalic_gpu_op_t dalic_gpu_op_arith = {"_ArithmeticGenericOp", dalic_gpu_arith_run,
                                           dalic_gpu_arith_finish};
