/*
 * Device backend selection and the emulated backend. A CUDA backend (kernels/cuda) registers
 * itself through dalic_device_cuda() when built with DALIC_HAVE_CUDA; it returns NULL when
 * no GPU is present at run time, and the emulated backend is used instead.
 */
#include "engine/device.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static void *emu_alloc(size_t n)
{
	return aligned_alloc(256, (n + 255) & ~(size_t)255);
}

static int emu_copy(void *dst, const void *src, size_t n)
{
	if (n)
		memcpy(dst, src, n);
	return 0;
}

const dalic_device_backend_t dalic_device_emulated = {
	.name = "emulated",
	.emulated = true,
	.alloc = emu_alloc,
	.free = free,
	.alloc_pinned = emu_alloc,
	.free_pinned = free,
	.copy = emu_copy,
};

#ifdef DALIC_HAVE_CUDA
const dalic_device_backend_t *dalic_device_cuda(void);
#endif

static const dalic_device_backend_t *chosen;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static const dalic_device_backend_t *device_forced;

static void choose(void)
{
	chosen = &dalic_device_emulated;
	if (device_forced) {
		chosen = device_forced;
		return;
	}
#ifdef DALIC_HAVE_CUDA
	const dalic_device_backend_t *cuda = dalic_device_cuda();
	if (cuda)
		chosen = cuda;
#endif
}

const dalic_device_backend_t *dalic_device_backend(void)
{
	pthread_once(&once, choose);
	return chosen;
}

int dalic_device_count(void)
{
	const dalic_device_backend_t *b = dalic_device_backend();
	return b->emulated || !b->count ? 0 : b->count();
}

void dalic_device_use(const dalic_device_backend_t *backend)
{
	device_forced = backend;
	pthread_once(&once, choose); /* a no-op when it already ran */
	chosen = backend;
}
