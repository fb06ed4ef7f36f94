/*
 * normalize on the GPU: one kernel body run in stages, each one launch for the whole batch.
 *
 *   PART   partial sums: item (output k, chunk j) walks chunk j of output k's reduction
 *          (x, or (x - mean[k])^2) in DALI's order and writes parts[k * nchunks + j];
 *   STAT   item k walks the top of output k's reduction tree, reading the chunks' sums in
 *          order, and writes the mean (sum times 1 / volume), the inverse deviation (the
 *          fold of normalize_px.h) or, in batch mode, the sample's raw sum; mode GIVEN turns
 *          a per-sample stddev tensor into inverse deviations;
 *   BATCH  item k adds the samples' raw sums pairwise (DALI's SumSamples order) and makes
 *          the batch's mean or inverse deviation;
 *   APPLY  item o: out[o] = ConvertSat((in[o] - mean[p]) * inv[p] + shift), p the element's
 *          parameter.
 *
 * The reduction tree (kernels/common/normalize_px.h) is the CPU's (kernels/common/reduce.c):
 * the chunks are its maximal subtrees of at most DALIC_CU_NORM_CHUNK elements, listed on the
 * host in order, so PART and STAT together add the same values in the same order as the CPU
 * and the statistics are bit-identical. No shared memory and no __syncthreads: the stages are
 * separate launches on one stream.
 *
 * dalic_cu_normalize_prepare resolves a batch on the host (per-sample plans, chunk lists,
 * scratch layout) and dalic_cu_normalize_stages lists the launches; the grid-runner test and
 * tests/gpu run the same list.
 */
#ifndef DALIC_KERNELS_CUDA_NORMALIZE_CUH
#define DALIC_KERNELS_CUDA_NORMALIZE_CUH

#include "kernels/common/normalize_px.h"
#include "kernels/cuda/cu_defs.h"

#include <stdbool.h>

/* The largest subtree one PART item walks. */
#define DALIC_CU_NORM_CHUNK 512

enum {
	DALIC_CU_NORM_PART = 0,
	DALIC_CU_NORM_STAT = 1,
	DALIC_CU_NORM_BATCH = 2,
	DALIC_CU_NORM_APPLY = 3,
};
enum { /* what STAT and BATCH write */
       DALIC_CU_NORM_MEAN = 0,
       DALIC_CU_NORM_INV = 1,
       DALIC_CU_NORM_RAW = 2,
       DALIC_CU_NORM_GIVEN = 3,
};

/* Element index -> parameter index: the sample's dims merged into runs of reduced / kept
 * ones (extent-1 dims dropped), pstr 0 on reduced runs. */
typedef struct dalic_cu_norm_map {
	int n;
	int64_t dim[DALIC_MAX_NDIM], pstr[DALIC_MAX_NDIM];
} dalic_cu_norm_map_t;

typedef struct dalic_cu_normalize_sample {
	const void *in; /* device memory (host memory under the grid runner) */
	void *out;
	int64_t volume; /* elements */
	dalic_norm_tree_t tree;
	dalic_cu_norm_map_t map;
	const dalic_norm_node_t *chunks; /* the tree's chunks, in order */
	int64_t nchunks;
	float *parts;            /* tree.nout * nchunks */
	float *sums;             /* tree.nout: the raw sums (batch mode) */
	const float *mean, *inv; /* per parameter, or NULL: mean_value / inv_value */
	float mean_value, inv_value;
	const float *stddev;       /* GIVEN: the per-sample stddev tensor */
	float *mean_out, *inv_out; /* where STAT and BATCH write */
	float factor, rdiv, mul;   /* 1 / volume; the fold's factors */
} dalic_cu_normalize_sample_t;

typedef struct dalic_cu_normalize_params {
	const dalic_cu_normalize_sample_t *samples;
	const dalic_cu_block_t *blocks;
	int64_t nsamples, nblocks;
	int stage, kind, mode; /* kind: DALIC_NORM_SUM or _VAR */
	int in_type, out_type;
	float shift, epsilon, scale;
	/* batch statistics: parameters, total volume, 1 / volume, the fold's factors */
	int64_t nparams, volume;
	float den, rdiv, mul;
} dalic_cu_normalize_params_t;

/* The operator's arguments, resolved (the reduced axes as a mask, which statistics are
 * given as scalars or per-sample tensors). */
typedef struct dalic_cu_normalize_args {
	int in_type, out_type, ndim;
	uint64_t mask;
	bool batch, tensor_mean, tensor_stddev, calc_mean, calc_stddev;
	float mean, stddev, scale, shift, epsilon;
	int ddof;
} dalic_cu_normalize_args_t;

DALIC_HOST void dalic_cu_normalize_map_make(dalic_cu_norm_map_t *m, const int64_t *shape, int ndim,
                                            uint64_t mask)
{
	int red[DALIC_MAX_NDIM];
	m->n = 0;
	for (int d = 0; d < ndim; d++) {
		int r = (mask >> d) & 1;
		if (shape[d] == 1)
			continue;
		if (m->n && red[m->n - 1] == r) {
			m->dim[m->n - 1] *= shape[d];
		} else {
			m->dim[m->n] = shape[d];
			red[m->n++] = r;
		}
	}
	int64_t pst = 1;
	for (int d = m->n - 1; d >= 0; d--) {
		m->pstr[d] = red[d] ? 0 : pst;
		if (!red[d])
			pst *= m->dim[d];
	}
}

DALIC_HD int64_t dalic_cu_normalize_param(const dalic_cu_norm_map_t *m, int64_t o)
{
	return dalic_norm_odometer(m->n, m->dim, m->pstr, o);
}

/*
 * Resolves a batch of n samples (shapes[i * a->ndim ...], data in[i], outputs out[i], and the
 * per-sample mean / stddev tensors when given) for the stages. The statistics' scratch is
 * `scratch` (device floats) and the chunk lists are written to host_nodes and live at
 * dev_nodes on the device (the same array under the grid runner). Call first with NULL
 * scratch, host_nodes and dev_nodes to get *nfloats and *nnodes, allocate, then again.
 */
DALIC_HOST void
dalic_cu_normalize_prepare(const dalic_cu_normalize_args_t *a, dalic_cu_normalize_sample_t *s,
                           int64_t n, const int64_t *shapes, const void *const *in,
                           void *const *out, const float *const *tmean, const float *const *tstddev,
                           float *scratch, dalic_norm_node_t *host_nodes,
                           const dalic_norm_node_t *dev_nodes, int64_t *nfloats, int64_t *nnodes)
{
	int64_t fl = 0, nodes = 0;
	float inv_value = dalic_norm_inv_given(a->stddev, a->epsilon, a->scale);
	for (int64_t i = 0; i < n; i++) {
		dalic_cu_normalize_sample_t *x = &s[i];
		const int64_t *shape = shapes + i * a->ndim;
		x->in = in[i];
		x->out = out[i];
		x->volume = 1;
		for (int d = 0; d < a->ndim; d++)
			x->volume *= shape[d];
		dalic_norm_tree_make(&x->tree, shape, a->ndim, a->mask);
		dalic_cu_normalize_map_make(&x->map, shape, a->ndim, a->mask);
		/* the chunks: the tree walked on the host, chunks listed (a root of at most a
		 * chunk is walked whole by STAT) */
		int64_t nc = 0;
		dalic_norm_node_t root = dalic_norm_tree_root(&x->tree);
		if (x->tree.nout && x->tree.dims &&
		    dalic_norm_node_count(&x->tree, &root) > DALIC_CU_NORM_CHUNK)
			dalic_norm_tree_eval(&x->tree, root, DALIC_NORM_SUM, a->in_type, NULL, 0, 0,
			                     DALIC_CU_NORM_CHUNK, NULL,
			                     host_nodes ? host_nodes + nodes : NULL, &nc);
		x->chunks = dev_nodes ? dev_nodes + nodes : NULL;
		x->nchunks = nc;
		nodes += nc;
		int64_t nout = x->tree.nout;
		x->parts = scratch ? scratch + fl : NULL;
		fl += nout * nc;
		x->sums = scratch ? scratch + fl : NULL;
		fl += nout;
		float *mean = scratch ? scratch + fl : NULL, *inv = mean ? mean + nout : NULL;
		fl += 2 * nout;
		x->mean = a->calc_mean ? mean : a->tensor_mean ? tmean[i] : NULL;
		x->inv = a->calc_stddev || a->tensor_stddev ? inv : NULL;
		x->stddev = a->tensor_stddev ? tstddev[i] : NULL;
		x->mean_value = a->mean;
		x->inv_value = inv_value;
		x->mean_out = mean;
		x->inv_out = inv;
		x->factor = (float)(1.0 / (double)x->tree.volume);
		dalic_norm_fold_coeffs(x->tree.volume, a->ddof, a->epsilon, a->scale, &x->rdiv,
		                       &x->mul);
	}
	if (a->batch && n) { /* one mean and inverse for the batch: every sample points at them */
		float *mean = scratch ? scratch + fl : NULL;
		fl += 2 * s[0].tree.nout;
		for (int64_t i = 0; i < n; i++) {
			s[i].mean = a->calc_mean ? mean : NULL;
			s[i].inv = a->calc_stddev && mean ? mean + s[0].tree.nout : NULL;
			s[i].mean_out = mean;
			s[i].inv_out = mean ? mean + s[0].tree.nout : NULL;
		}
	}
	*nfloats = fl;
	*nnodes = nodes;
}

/* The launches of a batch prepared by dalic_cu_normalize_prepare, in order, into st (room for
 * 8); returns how many. Each still needs its block map (dalic_cu_normalize_grid). */
DALIC_HOST int dalic_cu_normalize_stages(const dalic_cu_normalize_args_t *a,
                                         const dalic_cu_normalize_sample_t *s, int64_t n,
                                         dalic_cu_normalize_params_t *st)
{
	dalic_cu_normalize_params_t p;
	p.samples = s;
	p.blocks = NULL;
	p.nsamples = n;
	p.nblocks = 0;
	p.in_type = a->in_type;
	p.out_type = a->out_type;
	p.shift = a->shift;
	p.epsilon = a->epsilon;
	p.scale = a->scale;
	p.nparams = n ? s[0].tree.nout : 0;
	p.volume = 0;
	for (int64_t i = 0; i < n; i++)
		p.volume += s[i].tree.volume;
	p.den = p.volume ? (float)(1.0 / (double)p.volume) : 1.0f;
	dalic_norm_fold_coeffs(p.volume, a->ddof, a->epsilon, a->scale, &p.rdiv, &p.mul);
	int k = 0;
	bool batch = a->batch && n;
	for (int pass = 0; pass < 2; pass++) { /* the mean, then the deviation */
		bool calc = pass ? a->calc_stddev : a->calc_mean;
		p.kind = pass ? DALIC_NORM_VAR : DALIC_NORM_SUM;
		p.mode = pass ? DALIC_CU_NORM_INV : DALIC_CU_NORM_MEAN;
		if (!calc) {
			if (pass && a->tensor_stddev) {
				p.stage = DALIC_CU_NORM_STAT;
				p.mode = DALIC_CU_NORM_GIVEN;
				st[k++] = p;
			}
			continue;
		}
		p.stage = DALIC_CU_NORM_PART;
		st[k++] = p;
		p.stage = DALIC_CU_NORM_STAT;
		if (batch) {
			int mode = p.mode;
			p.mode = DALIC_CU_NORM_RAW;
			st[k++] = p;
			p.mode = mode;
			p.stage = DALIC_CU_NORM_BATCH;
		}
		st[k++] = p;
	}
	p.stage = DALIC_CU_NORM_APPLY;
	st[k++] = p;
	return k;
}

/* Work items of sample i in p's stage. */
DALIC_HD int64_t dalic_cu_normalize_items(const dalic_cu_normalize_params_t *p, int64_t i)
{
	const dalic_cu_normalize_sample_t *s = &p->samples[i];
	switch (p->stage) {
	case DALIC_CU_NORM_PART:
		return s->tree.nout * s->nchunks;
	case DALIC_CU_NORM_STAT:
		return s->tree.nout;
	case DALIC_CU_NORM_BATCH:
		return i == 0 ? p->nparams : 0;
	default:
		return s->volume;
	}
}

/* The grid of a stage: the block map into `blocks` (capacity cap; NULL with 0 to size it),
 * p->blocks and p->nblocks set; one item a thread for the statistics, 8 for APPLY. */
DALIC_HOST dalic_cu_launch_t dalic_cu_normalize_grid(dalic_cu_normalize_params_t *p,
                                                     dalic_cu_block_t *blocks, int64_t cap)
{
	int64_t n = 0, per = DALIC_CU_BLOCK_THREADS;
	if (p->stage == DALIC_CU_NORM_APPLY)
		per *= DALIC_CU_ITEMS_PER_THREAD;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i, dalic_cu_normalize_items(p, i), per);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

/* The mean of output k of a sample for the variance (VAR items). */
DALIC_HD float dalic_cu_normalize_mean(const dalic_cu_normalize_sample_t *s, int64_t k)
{
	return s->mean ? s->mean[k] : s->mean_value;
}

/* DALI's SumSamples: samples' raw sums of parameter k added pairwise, a[0] += a[n / 2] after
 * each half is summed the same way. */
DALIC_HD float dalic_cu_normalize_sum_samples(const dalic_cu_normalize_sample_t *s, int64_t n,
                                              int64_t k)
{
	struct {
		int64_t lo, cnt;
		int next;
		float acc;
	} st[64]; /* the depth is log2(n) + 1 */
	int top = 0;
	float v;
	st[0].lo = 0;
	st[0].cnt = n;
	st[0].next = -1;
	for (;;) {
		if (st[top].next < 0) {
			if (st[top].cnt < 2) {
				v = s[st[top].lo].sums[k];
				goto up;
			}
			st[top].next = 0;
		}
		if (st[top].next < 2) {
			int64_t mid = st[top].cnt >> 1;
			int64_t lo = st[top].lo + (st[top].next ? mid : 0);
			int64_t cnt = st[top].next ? st[top].cnt - mid : mid;
			top++;
			st[top].lo = lo;
			st[top].cnt = cnt;
			st[top].next = -1;
			continue;
		}
		v = st[top].acc;
	up:
		if (--top < 0)
			return v;
		st[top].acc = st[top].next ? DALIC_NORM_ADD(st[top].acc, v) : v;
		st[top].next++;
	}
}

/* One work item of p's stage. */
DALIC_HD void dalic_cu_normalize_item(const dalic_cu_normalize_params_t *p,
                                      const dalic_cu_normalize_sample_t *s, int64_t o)
{
	const dalic_norm_tree_t *t = &s->tree;
	int64_t next = 0;
	float v;
	switch (p->stage) {
	case DALIC_CU_NORM_PART: {
		int64_t k = o / s->nchunks, j = o - k * s->nchunks;
		float mean = p->kind == DALIC_NORM_VAR ? dalic_cu_normalize_mean(s, k) : 0.0f;
		s->parts[o] =
		    dalic_norm_tree_eval(t, s->chunks[j], p->kind, p->in_type, s->in,
		                         dalic_norm_tree_base(t, k), mean, -1, NULL, NULL, &next);
		break;
	}
	case DALIC_CU_NORM_STAT:
		if (p->mode == DALIC_CU_NORM_GIVEN) {
			s->inv_out[o] = dalic_norm_inv_given(s->stddev[o], p->epsilon, p->scale);
			break;
		}
		if (t->dims) {
			float mean =
			    p->kind == DALIC_NORM_VAR ? dalic_cu_normalize_mean(s, o) : 0.0f;
			v = dalic_norm_tree_eval(t, dalic_norm_tree_root(t), p->kind, p->in_type,
			                         s->in, dalic_norm_tree_base(t, o), mean,
			                         s->nchunks ? DALIC_CU_NORM_CHUNK : -1,
			                         s->parts + o * s->nchunks, NULL, &next);
		} else { /* nothing reduced: the element itself, as reduce.c's `one` */
			v = dalic_norm_elem(
			    p->kind, p->in_type, s->in, o,
			    p->kind == DALIC_NORM_VAR ? dalic_cu_normalize_mean(s, o) : 0.0f);
		}
		if (p->mode == DALIC_CU_NORM_MEAN)
			s->mean_out[o] = DALIC_NORM_MUL(v, s->factor);
		else if (p->mode == DALIC_CU_NORM_INV)
			s->inv_out[o] = dalic_norm_fold(v, o, t->nout, p->epsilon, s->rdiv, s->mul);
		else
			s->sums[o] = v;
		break;
	case DALIC_CU_NORM_BATCH:
		v = dalic_cu_normalize_sum_samples(p->samples, p->nsamples, o);
		if (p->mode == DALIC_CU_NORM_MEAN)
			s->mean_out[o] = p->volume ? DALIC_NORM_MUL(v, p->den) : v;
		else
			s->inv_out[o] = p->volume ? dalic_norm_fold(v, o, p->nparams, p->epsilon,
			                                            p->rdiv, p->mul)
			                          : v;
		break;
	default: {
		int64_t k = dalic_cu_normalize_param(&s->map, o);
		float m = s->mean ? s->mean[k] : s->mean_value;
		float d = s->inv ? s->inv[k] : s->inv_value;
		float x = dalic_norm_load(p->in_type, s->in, o);
		dalic_norm_store(p->out_type, s->out, o, dalic_norm_value(x, m, d, p->shift));
		break;
	}
	}
}

DALIC_HD void dalic_cu_normalize_body(const dalic_cu_idx_t *ix,
                                      const dalic_cu_normalize_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_normalize_sample_t *s = &p->samples[b->sample];
	for (int64_t o = b->start + ix->thread.x; o < b->end; o += ix->block_dim.x)
		dalic_cu_normalize_item(p, s, o);
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches one stage on `stream` (p->samples and p->blocks in host memory, the data, the
 * scratch and the chunk lists in device memory); 0, or -1 after a message on stderr. */
int dalic_cu_normalize_launch(const dalic_cu_normalize_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
