/*
 * The random operators on the GPU: random.uniform (range and values), random.normal,
 * random.coin_flip, noise.gaussian, noise.salt_and_pepper and noise.shot, one launch per batch.
 *
 * Every work item (an element, or a pixel of all its channels for salt_and_pepper with
 * per_channel=False) draws from its own generator, the sample's moved item * 257 outputs on
 * (dalic_rng_for_element), whatever thread computes it: that is DALI's per-sample Philox
 * scheme (kernels/common/philox.h), the one the CPU operators follow, so a kernel given the
 * operator's master state writes the CPU operator's values. The host gives each sample its
 * generator (dalic_rng_for_sample on the master) and its distribution, built with the CPU
 * operator's rules; the values go through the shared draws (philox.h), the noise operators'
 * per-element functions (rng_elem.h) and ConvertSat (convert_elem.h).
 *
 * A plain header: the C tests run the body on the CPU grid runner; random.cu wraps it.
 */
#ifndef DALIC_KERNELS_CUDA_RANDOM_CUH
#define DALIC_KERNELS_CUDA_RANDOM_CUH

#include "kernels/common/convert_elem.h"
#include "kernels/common/philox.h"
#include "kernels/common/rng_elem.h"
#include "kernels/cuda/cu_defs.h"

/* What a launch computes; one kind per launch. */
typedef enum dalic_cu_random_kind {
	DALIC_CU_RANDOM_UNIFORM_F32, /* random.uniform, range, outputs up to 16 bits and float */
	DALIC_CU_RANDOM_UNIFORM_F64, /* random.uniform, range, 32/64-bit integers and double */
	DALIC_CU_RANDOM_PICK,        /* random.uniform with `values` */
	DALIC_CU_RANDOM_NORMAL_F32,  /* random.normal, arithmetic in float */
	DALIC_CU_RANDOM_NORMAL_F64,  /* random.normal, arithmetic in double */
	DALIC_CU_RANDOM_COIN_FLIP,
	DALIC_CU_RANDOM_GAUSSIAN,    /* noise.gaussian */
	DALIC_CU_RANDOM_SALT_AND_PEPPER,
	DALIC_CU_RANDOM_SHOT,        /* noise.shot */
} dalic_cu_random_kind_t;

typedef struct dalic_cu_random_sample {
	const void *in; /* noise operators' input (device memory; host under the grid runner) */
	void *out;
	dalic_philox_t rng; /* the sample's generator: dalic_rng_for_sample(master, i) */
	int64_t items;      /* elements; pixels for salt_and_pepper */
	/* salt_and_pepper's pixel geometry (rng_noise.h): item p is element p * p_stride, its
	 * channels c_stride apart */
	int64_t channels, p_stride, c_stride;
	/* the distribution, by kind */
	dalic_rng_uniform_f32_t uniform_f32;
	dalic_rng_uniform_f64_t uniform_f64;
	const float *values; /* PICK: device memory */
	int64_t num_values;
	float mean, stddev;   /* NORMAL_*, GAUSSIAN */
	uint32_t threshold;   /* COIN_FLIP: dalic_rng_bernoulli_threshold */
	float prob, salt_prob; /* SALT_AND_PEPPER */
	double salt, pepper;
	float factor, inv_factor; /* SHOT */
} dalic_cu_random_sample_t;

typedef struct dalic_cu_random_params {
	const dalic_cu_random_sample_t *samples;
	const dalic_cu_block_t *blocks;
	int64_t nsamples, nblocks;
	int kind;  /* dalic_cu_random_kind_t */
	int dtype; /* output type (= input type for the noise operators) */
	int64_t elem_bytes;
	int *bad;  /* SHOT: set to 1 when a mean reaches 2^32 (the CPU operator fails there) */
} dalic_cu_random_params_t;

/* The grid: DALIC_CU_BLOCK_THREADS * DALIC_CU_ITEMS_PER_THREAD items a block (see flip.cuh). */
DALIC_HOST dalic_cu_launch_t dalic_cu_random_grid(dalic_cu_random_params_t *p,
                                                  dalic_cu_block_t *blocks, int64_t cap)
{
	int64_t n = 0;
	for (int64_t i = 0; i < p->nsamples; i++)
		n = dalic_cu_block_map_add(blocks, cap, n, i, p->samples[i].items,
		                           (int64_t)DALIC_CU_BLOCK_THREADS *
		                               DALIC_CU_ITEMS_PER_THREAD);
	p->blocks = blocks;
	p->nblocks = n;
	return dalic_cu_launch_1d(n, DALIC_CU_BLOCK_THREADS);
}

/* Element k of `dst` = element k of `src`, bit for bit. */
DALIC_HD void dalic_cu_random_copy_elem(void *dst, const void *src, int64_t k, int64_t bytes)
{
	uint8_t *d = (uint8_t *)dst + k * bytes;
	const uint8_t *s = (const uint8_t *)src + k * bytes;
	for (int64_t b = 0; b < bytes; b++)
		d[b] = s[b];
}

/* salt_and_pepper's pixel p: one draw for its channels. */
DALIC_HD void dalic_cu_random_salt_and_pepper(const dalic_cu_random_params_t *p,
                                              const dalic_cu_random_sample_t *s, int64_t px,
                                              dalic_philox_t *e)
{
	int draw = dalic_rng_salt_and_pepper_draw(s->prob, s->salt_prob, e);
	for (int64_t c = 0; c < s->channels; c++) {
		int64_t k = px * s->p_stride + c * s->c_stride;
		if (draw)
			dalic_cvt_store_f64(p->dtype, s->out, k, draw == 1 ? s->salt : s->pepper);
		else
			dalic_cu_random_copy_elem(s->out, s->in, k, p->elem_bytes);
	}
}

/* The value of item k of sample s before the store. */
DALIC_HD double dalic_cu_random_value(const dalic_cu_random_params_t *p,
                                      const dalic_cu_random_sample_t *s, int64_t k,
                                      dalic_philox_t *e)
{
	switch (p->kind) {
	case DALIC_CU_RANDOM_UNIFORM_F32:
		return dalic_rng_uniform_f32(&s->uniform_f32, e);
	case DALIC_CU_RANDOM_UNIFORM_F64:
		return dalic_rng_uniform_f64(&s->uniform_f64, e);
	case DALIC_CU_RANDOM_PICK:
		return s->values[dalic_rng_pick(e, s->num_values)];
	case DALIC_CU_RANDOM_NORMAL_F32:
		return dalic_rng_normal_f32(e, s->mean, s->stddev);
	case DALIC_CU_RANDOM_NORMAL_F64:
		return dalic_rng_normal_f64(e, s->mean, s->stddev);
	case DALIC_CU_RANDOM_COIN_FLIP:
		return dalic_rng_bernoulli(s->threshold, e) ? 1.0 : 0.0;
	case DALIC_CU_RANDOM_GAUSSIAN:
		return dalic_rng_gaussian_value(dalic_rng_load_f64(p->dtype, s->in, k),
		                                dalic_rng_gaussian_wide(p->dtype), s->mean,
		                                s->stddev, e);
	case DALIC_CU_RANDOM_SHOT: {
		bool bad = false;
		double v = dalic_rng_shot_value(dalic_rng_load_f32(p->dtype, s->in, k), s->factor,
		                                s->inv_factor, e, &bad);
		if (bad && p->bad)
			*p->bad = 1;
		return v;
	}
	default:
		return 0;
	}
}

DALIC_HD void dalic_cu_random_body(const dalic_cu_idx_t *ix, const dalic_cu_random_params_t *p)
{
	const dalic_cu_block_t *b = &p->blocks[ix->block.x];
	const dalic_cu_random_sample_t *s = &p->samples[b->sample];
	for (int64_t k = b->start + ix->thread.x; k < b->end; k += ix->block_dim.x) {
		dalic_philox_t e = dalic_rng_for_element(&s->rng, k);
		if (p->kind == DALIC_CU_RANDOM_SALT_AND_PEPPER)
			dalic_cu_random_salt_and_pepper(p, s, k, &e);
		else
			dalic_cvt_store_f64(p->dtype, s->out, k, dalic_cu_random_value(p, s, k, &e));
	}
}

#ifdef DALIC_HAVE_CUDA
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Launches the random kernel on `stream` for the batch p describes (p->samples and p->blocks
 * in host memory; data, `values` and p->bad in device memory); 0, or -1 after a message on
 * stderr. */
int dalic_cu_random_launch(const dalic_cu_random_params_t *p, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
#endif

#endif
