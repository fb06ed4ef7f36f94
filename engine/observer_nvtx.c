/*
 * NVTX ranges (observer_nvtx.h). Ranges are pushed and popped on the thread that runs the
 * node or stage; the executor pairs begin and end on that thread, failures included, so
 * the per-thread NVTX stack stays balanced. The payload is the iteration.
 */
#include "engine/observer_nvtx.h"

#include "engine/error.h"

#ifdef DALIC_HAVE_CUDA
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>

static nvtxDomainHandle_t nvtx_domain;
static pthread_once_t nvtx_once = PTHREAD_ONCE_INIT;

static void nvtx_make_domain(void)
{
	nvtx_domain = nvtxDomainCreateA("dalic");
}

static const char *const nvtx_stage_names[] = {"dalic CPU stage", "dalic MIXED stage",
					       "dalic GPU stage"};
static const uint32_t nvtx_stage_colors[] = {0xff4c9be8, 0xffe8a04c, 0xff76b900};

static void nvtx_push(const char *name, uint32_t color, int64_t iteration)
{
	nvtxEventAttributes_t a = {0};
	a.version = NVTX_VERSION;
	a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	a.colorType = NVTX_COLOR_ARGB;
	a.color = color;
	a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
	a.payload.llValue = iteration;
	a.messageType = NVTX_MESSAGE_TYPE_ASCII;
	a.message.ascii = name;
	nvtxDomainRangePushEx(nvtx_domain, &a);
}

static void nvtx_node_begin(void *user, const dalic_node_t *node, int64_t iteration)
{
	nvtx_push(node->inst, 0xff9e9e9e, iteration);
}

static void nvtx_node_end(void *user, const dalic_node_t *node, int64_t iteration, int status)
{
	nvtxDomainRangePop(nvtx_domain);
}

static void nvtx_stage_begin(void *user, int stage, int64_t iteration)
{
	int s = stage >= 0 && stage < 3 ? stage : 0;
	nvtx_push(nvtx_stage_names[s], nvtx_stage_colors[s], iteration);
}

static void nvtx_stage_end(void *user, int stage, int64_t iteration, int status)
{
	nvtxDomainRangePop(nvtx_domain);
}

int dalic_observer_nvtx(dalic_observer_t *out)
{
	pthread_once(&nvtx_once, nvtx_make_domain);
	*out = (dalic_observer_t){
		.user = &nvtx_domain,
		.node_begin = nvtx_node_begin,
		.node_end = nvtx_node_end,
		.stage_begin = nvtx_stage_begin,
		.stage_end = nvtx_stage_end,
	};
	return DALIC_OK;
}

#else

int dalic_observer_nvtx(dalic_observer_t *out)
{
	return dalic_fail(DALIC_EUNSUPPORTED,
			  "tracer 'nvtx': dalic was built without the CUDA toolkit (no NVTX "
			  "headers); install it and rebuild");
}

#endif
