/*
 * The host side of the CUDA resize kernel (kernels/cuda/resize.cuh): turns the CPU
 * resampler's jobs into the kernel's per-sample descriptors, planning each with
 * dalic_img_resample_plan (the CPU's own filter tables and pass order) and packing the
 * tables of the whole batch into two arrays, and sizes the intermediates. The grid-runner
 * tests and make test-gpu build their launches with it.
 */
#ifndef DALIC_KERNELS_IMG_RESAMPLE_CU_H
#define DALIC_KERNELS_IMG_RESAMPLE_CU_H

#include "kernels/common/img_resample.h"
#include "kernels/cuda/resize.cuh"

typedef struct img_resample_cu_batch {
	dalic_cu_resize_sample_t *samples; /* n of them */
	int64_t n, cap;
	int32_t *idx; /* the packed tables: ntab entries */
	float *w;
	int64_t ntab, tab_cap;
	int64_t ntmp;         /* floats of intermediates */
	int64_t orders[2];    /* samples resampled horizontally first [0], vertically first [1] */
	img_resample_ws_t ws; /* planning scratch */
} img_resample_cu_batch_t;

/* Appends a sample: `planes` planes of job's geometry, job->in / job->out the first (device
 * memory on a GPU), the others after it. An empty sample (no planes, or no values in or out)
 * gets a descriptor with no work. 0, or -1 with dalic_last_error() set (out of memory, or
 * the planning errors of dalic_img_resample). */
int dalic_img_resample_cu_add(img_resample_cu_batch_t *b, const img_resample_job_t *job,
                              int64_t planes);
/* The kernel parameters of pass 0 or 1 over the batch (samples and tables in b; no block map
 * yet: dalic_cu_resize_grid; tmp NULL: the caller's intermediates, ntmp floats). */
dalic_cu_resize_params_t dalic_img_resample_cu_params(const img_resample_cu_batch_t *b, int pass);
void dalic_img_resample_cu_free(img_resample_cu_batch_t *b);

#endif
