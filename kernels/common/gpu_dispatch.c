/*
 * The dispatch table: gpu/mixed operators whose CUDA kernel is wired to the executor. Adding
 * one is one line X(<op>) below, naming `dalic_gpu_op_<op>` (a dalic_gpu_op_t defined in
 * kernels/common/gpu_<op>.c); everything not listed keeps the CPU-emulated path. Also the scratch
 * and launch helpers every entry uses (gpu_op.h).
 */
#include "kernels/common/gpu_op.h"

#include "engine/error.h"
#include "engine/memory.h"

#include <stdlib.h>
#include <string.h>

#define DALIC_GPU_OPS(X)                                                                           \
	X(flip)                                                                                    \
	X(cast)                                                                                    \
	X(copy)                                                                                    \
	X(make_contiguous)                                                                         \
	X(transpose)                                                                               \
	X(brightness_contrast)                                                                     \
	X(hsv)                                                                                     \
	X(color_twist)                                                                             \
	X(water)                                                                                   \
	X(sphere)                                                                                  \
	X(warp_affine)                                                                             \
	X(rotate)                                                                                  \
	X(resize)                                                                                  \
	X(arith)                                                                                   \
	X(slice)                                                                                   \
	X(crop)                                                                                    \
	X(crop_mirror_normalize)                                                                   \
	X(normalize)                                                                               \
	X(random_uniform)                                                                          \
	X(random_normal)                                                                           \
	X(random_coin_flip)                                                                        \
	X(noise_gaussian)                                                                          \
	X(noise_salt_and_pepper)                                                                   \
	X(noise_shot)

#define DALIC_GPU_DECLARE(op) extern const dalic_gpu_op_t dalic_gpu_op_##op;
DALIC_GPU_OPS(DALIC_GPU_DECLARE)
#define DALIC_GPU_ENTRY(op) &dalic_gpu_op_##op,
static const dalic_gpu_op_t *const dalic_gpu_ops[] = {DALIC_GPU_OPS(DALIC_GPU_ENTRY) NULL};

const dalic_gpu_op_t *dalic_gpu_op_find(const char *schema)
{
	for (int i = 0; schema && dalic_gpu_ops[i]; i++)
		if (!strcmp(dalic_gpu_ops[i]->schema, schema))
			return dalic_gpu_ops[i];
	return NULL;
}

void *dalic_gpu_scratch(dalic_gpu_run_t *r, int slot, size_t bytes)
{
	dalic_gpu_scratch_t *s = r->scratch;
	if (bytes < 1)
		bytes = 1;
	if (s->cap[slot] < bytes) {
		/* grown by half again, so batches of slowly growing size do not realloc each time
		 */
		size_t cap = bytes + bytes / 2;
		void *p = realloc(s->p[slot], cap);
		if (!p) {
			dalic_fail(DALIC_ENOMEM, "out of memory (%zu bytes of kernel descriptors)",
			           cap);
			return NULL;
		}
		s->p[slot] = p;
		s->cap[slot] = cap;
	}
	return s->p[slot];
}

void dalic_gpu_scratch_free(dalic_gpu_scratch_t *s)
{
	for (int i = 0; i < DALIC_GPU_SCRATCH_SLOTS; i++)
		free(s->p[i]);
	dalic_mem_free(DALIC_MEM_DEVICE, s->dev, s->dev_cap, NULL);
	memset(s, 0, sizeof *s);
}

void *dalic_gpu_device_scratch(dalic_gpu_run_t *r, size_t bytes)
{
	dalic_gpu_scratch_t *s = r->scratch;
	if (s->dev_cap < bytes || !s->dev) {
		size_t cap = bytes + bytes / 2 + 256;
		void *p = dalic_mem_alloc(DALIC_MEM_DEVICE, cap, NULL);
		if (!p)
			return NULL;
		dalic_mem_free(DALIC_MEM_DEVICE, s->dev, s->dev_cap, NULL);
		s->dev = p;
		s->dev_cap = cap;
	}
	return s->dev;
}

void *dalic_gpu_upload(dalic_gpu_run_t *r, const void *host, size_t bytes)
{
	dalic_gpu_scratch_t *s = r->scratch;
	if (!dalic_gpu_device_scratch(r, bytes))
		return NULL;
	if (bytes && r->dev->copy(s->dev, host, bytes)) {
		dalic_fail(DALIC_EDEVICE,
		           "uploading %zu bytes of kernel tables failed (the CUDA "
		           "error is on stderr)",
		           bytes);
		return NULL;
	}
	return s->dev;
}

int dalic_gpu_launch(dalic_gpu_run_t *r, const dalic_gpu_kernel_t *k, const void *params,
                     const dalic_cu_launch_t *cfg)
{
	bool work = false;
	for (int i = 0; i < k->passes; i++)
		work |= cfg[i].grid.x > 0 && cfg[i].grid.y > 0 && cfg[i].grid.z > 0;
	if (!work)
		return DALIC_OK; /* an empty batch: nothing to launch */
	if (!r->dev->launch || r->dev->launch(k, params, cfg, r->stream))
		return dalic_fail(DALIC_EDEVICE,
		                  "kernel '%s' failed to launch on the %s backend "
		                  "(the CUDA error is on stderr)",
		                  k->name, r->dev->name);
	r->launches++;
	return DALIC_OK;
}
