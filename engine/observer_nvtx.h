/*
 * The nvtx tracer: NVTX ranges in a "dalic" domain for every stage iteration and operator
 * run, so Nsight Systems shows dalic's operators on the timeline beside the model's kernels.
 * NVTX3 is header-only and a no-op until a tool (nsys) injects itself, so no GPU is needed.
 * Built only when the CUDA toolkit was found (DALIC_HAVE_CUDA).
 */
#ifndef DALIC_ENGINE_OBSERVER_NVTX_H
#define DALIC_ENGINE_OBSERVER_NVTX_H

#include "engine/observer.h"

/* Fills *out with the NVTX hooks. DALIC_EUNSUPPORTED (with a message) in a build without the
 * CUDA toolkit. */
int dalic_observer_nvtx(dalic_observer_t *out);

#endif
