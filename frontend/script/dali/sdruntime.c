/*
 * The script runtime (see sdruntime.h).
 */
#include "frontend/script/dali/sdruntime.h"

#include "frontend/script/dali/sdprint.h"
#include "frontend/script/dali/sdsource.h"
#include "frontend/script/py/pygc.h"

#include <stdlib.h>

static void sdruntime_destroy(dalic_shared_t *s)
{
	sdruntime_t *rt = (sdruntime_t *)s;
	rt->free_load(rt->load);
	pthread_mutex_destroy(&rt->mu);
	free(rt);
}

int dalic_sdruntime_new(pyinterp_t *I, void (*free_load)(void *load), void *load,
                        sdruntime_t **out)
{
	sdruntime_t *rt = calloc(1, sizeof *rt);
	if (!rt)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	dalic_shared_init(&rt->base, sdruntime_destroy);
	pthread_mutex_init(&rt->mu, NULL);
	rt->I = I;
	rt->free_load = free_load;
	rt->load = load;
	*out = rt;
	return DALIC_OK;
}

void dalic_sdruntime_begin(sdruntime_t *rt, sdcall_t *c)
{
	pthread_mutex_lock(&rt->mu);
	pyinterp_t *I = rt->I;
	c->stack_base = I->stack_base;
	/* the evaluator runs below this frame, on whichever thread calls */
	I->stack_base = (uintptr_t)__builtin_frame_address(0);
	I->steps = 0;
	I->depth = 0;
	I->fatal = false;
	I->frame = I->globals;
	dalic_sdali_state(I)->running += !c->catchable;
	dalic_pyarena_heap_enter(I->a);
}

void dalic_sdruntime_end(sdruntime_t *rt, sdcall_t *c)
{
	pyinterp_t *I = rt->I;
	sdstate_t *S = dalic_sdali_state(I);
	S->running -= !c->catchable;
	I->stack_base = c->stack_base;
	dalic_pyarena_heap_leave(I->a);
	/* the DALI state lives outside the arena and may point in (the interpreter is a root
	 * of every collection) */
	pyarena_root_t roots[] = {{S, sizeof *S}};
	dalic_pygc_collect(I, roots, 1);
	pthread_mutex_unlock(&rt->mu);
}

const dalic_runtime_class_t dalic_sdruntime_class = {
    .render_print = dalic_sdprint_render,
    .sources = dalic_sdsource_install,
};
