/*
 * The device backend: one struct of callbacks (ggml-backend style). The CUDA backend is used
 * when dalic is built with CUDA and a GPU is present; otherwise the emulated backend runs gpu
 * and mixed operators on the CPU with host memory standing in for device memory, and says so
 * (`emulated`), so stats and the TUI can show it loudly.
 */
#ifndef DALIC_ENGINE_DEVICE_H
#define DALIC_ENGINE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct dalic_device_backend {
	const char *name; /* "cuda" or "emulated" */
	bool emulated;
	void *(*alloc)(size_t bytes);
	void (*free)(void *p);
	void *(*alloc_pinned)(size_t bytes);
	void (*free_pinned)(void *p);
	/* Copies in any direction between host, pinned and device memory; synchronous. */
	int (*copy)(void *dst, const void *src, size_t bytes);
} dalic_device_backend_t;

/* The backend in use by this process (chosen once). */
const dalic_device_backend_t *dalic_device_backend(void);
/* GPUs this process can use: 0 when the emulated backend stands in for them. */
int dalic_device_count(void);
/* The always-available emulated backend. */
extern const dalic_device_backend_t dalic_device_emulated;

#endif
