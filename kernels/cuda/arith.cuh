/*
 * ArithmeticGenericOp on the GPU: one launch for the batch, one thread per output element at a
 * time. The block map splits every sample's output elements into chunks of
 * DALIC_CU_BLOCK_THREADS * DALIC_CU_ITEMS_PER_THREAD; a thread walks the typed expression tree
 * (arith_expr.h, post-order) for each element it owns: inputs are read through their
 * broadcast strides, constants come from a per-slot table, and every function node converts
 * its operands to its compute type and runs the per-element rule of
 * kernels/common/arith_elem.h, which the CPU tile loops also call.
 *
 * An integer division or modulo by zero writes 0 and records the node (index + 1) in
 * *p->zero, which the caller turns into the CPU operator's error.
 *
 * A plain header: the C tests run the body on the CPU grid runner; arith.cu launches it.
 */
#ifndef DALIC_KERNELS_CUDA_ARITH_CUH
#define DALIC_KERNELS_CUDA_ARITH_CUH

#include "kernels/common/arith_elem.h"
#include "kernels/cuda/cu_defs.h"

typedef struct dalic_cu_arith_sample {
	int ndim;
	int64_t shape[DALIC_MAX_NDIM]; /* output shape */
	int64_t elems;
	void *out;             /* device memory (host memory under the grid runner) */
	int64_t first_operand; /* its operands: p->operands[first_operand + input index] */
} dalic_cu_arith_sample_t;

typedef struct dalic_cu_arith_params {
	const arith_expr_t *expr;        /* typed (dalic_arith_infer) */
	const dalic_arith_val_t *consts; /* by constant slot (dalic_cu_arith_constants) */
	const dalic_cu_arith_sample_t *samples;
	const arith_operand_t *operands; /* data pointers in device memory */
	const dalic_cu_block_t *blocks;
	int64_t nsamples, nblocks, noperands;
	int *zero; /* set to node + 1 on an integer division by zero; the caller zeroes it */
} dalic_cu_arith_params_t;

/* The constants' values by slot, from the CPU operator's constant tiles
 * (dalic_arith_fill_constants): element 0 of each, in its lane. */
DALIC_HOST void dalic_cu_arith_constants(const arith_expr_t *e, const arith_tile_t *tiles,
                                         dalic_arith_val_t *vals)
{
	for (int j = 0; j < e->num_nodes; j++) {
		const arith_node_t *n = &e->nodes[j];
		if (n->kind != ARITH_CONST)
			continue;
		const arith_tile_t *t = &tiles[n->slot];
		dalic_arith_val_t *v = &vals[n->slot];
		v->i = 0;
		switch (dalic_arith_lane_of(n->dtype)) {
		case ARITH_LANE_I64:
			v->i = t->i[0];
			break;
		case ARITH_LANE_F32:
			v->f = t->f[0];
			break;
		case ARITH_LANE_F64:
			v->d = t->d[0];
			break;
		}
	}
}

/* The grid of a batch, as dalic_cu_flip_grid: a first call with NULL/0 sizes the map. */
DALIC_HOST dalic_cu_launch_t dalic_cu_arith_grid(dalic_cu_arith_params_t *p,
                                                 dalic_cu_block_t *blocks, int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i, p->samples[i].elems,
		                           (int64_t)DALIC_CU_BLOCK_THREADS *
		                               DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

/* Offset of output element `o` in operand `op` (its broadcast strides). */
DALIC_HD int64_t dalic_cu_arith_offset(const arith_operand_t *op, const dalic_cu_arith_sample_t *s,
                                       int64_t o)
{
	if (op->mode == ARITH_SAME)
		return o;
	if (op->mode == ARITH_SCALAR)
		return 0;
	int64_t off = 0;
	for (int d = s->ndim - 1; d >= 0; d--) {
		off += o % s->shape[d] * op->strides[d];
		o /= s->shape[d];
	}
	return off;
}

/* The value of output element o of sample s. */
DALIC_HD dalic_arith_val_t dalic_cu_arith_element(const dalic_cu_arith_params_t *p,
                                                  const dalic_cu_arith_sample_t *s, int64_t o,
                                                  int *zero_node)
{
	const arith_expr_t *e = p->expr;
	const arith_operand_t *ops = p->operands + s->first_operand;
	dalic_arith_val_t vals[ARITH_MAX_NODES];
	for (int j = 0; j < e->num_nodes; j++) {
		const arith_node_t *n = &e->nodes[j];
		if (n->kind == ARITH_INPUT) {
			const arith_operand_t *op = &ops[n->index];
			vals[j] =
			    dalic_arith_load(op->dtype, op->data, dalic_cu_arith_offset(op, s, o));
			continue;
		}
		if (n->kind == ARITH_CONST) {
			vals[j] = p->consts[n->slot];
			continue;
		}
		dalic_arith_val_t v[ARITH_MAX_ARITY];
		for (int a = 0; a < n->num_args; a++)
			v[a] = dalic_arith_convert(vals[n->args[a]], e->nodes[n->args[a]].dtype,
			                           n->compute);
		bool zero = false;
		vals[j] = dalic_arith_node(n, v, &zero);
		if (zero)
			*zero_node = j + 1;
	}
	return vals[e->num_nodes - 1];
}

DALIC_HD void dalic_cu_arith_body(const dalic_cu_idx_t *ix, const dalic_cu_arith_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_arith_sample_t *s = &p->samples[b->sample];
	const dalic_dtype_t out = p->expr->nodes[p->expr->num_nodes - 1].dtype;
	int zero = 0;
	for (int64_t o = b->start + ix->thread.x; o < b->end; o += ix->block_dim.x)
		dalic_arith_store(out, s->out, o, dalic_cu_arith_element(p, s, o, &zero));
	if (zero)
		*p->zero = zero; /* any failing node will do: the sample is an error */
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches the expression on `stream` for the batch p describes (p->expr, consts, samples,
 * operands and blocks in host memory; sample data and p->zero in device memory); 0, or -1
 * after a message on stderr. */
int dalic_cu_arith_launch(const dalic_cu_arith_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
