/*
 * What front ends attach to a graph definition (see graphdef.h): a runtime that renders
 * prints. It is reference-counted, so clones of a definition (the tuner's, debug mode's)
 * share it.
 */
#include "engine/graphdef.h"

#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

void dalic_shared_init(dalic_shared_t *s, void (*destroy)(dalic_shared_t *s))
{
	atomic_init(&s->refs, 1);
	s->destroy = destroy;
}

dalic_shared_t *dalic_shared_retain(dalic_shared_t *s)
{
	if (s)
		atomic_fetch_add(&s->refs, 1);
	return s;
}

void dalic_shared_release(dalic_shared_t *s)
{
	if (s && atomic_fetch_sub(&s->refs, 1) == 1)
		s->destroy(s);
}

void dalic_graphdef_set_runtime(dalic_graphdef_t *g, dalic_shared_t *rt,
				const dalic_runtime_class_t *cls)
{
	dalic_shared_retain(rt);
	dalic_shared_release(g->runtime);
	g->runtime = rt;
	g->runtime_cls = cls;
}

void dalic_graphdef_attach_free(dalic_graphdef_t *g)
{
	dalic_shared_release(g->runtime);
	g->runtime = NULL;
}

int dalic_graphdef_attach_copy(dalic_graphdef_t *c, const dalic_graphdef_t *g)
{
	dalic_graphdef_set_runtime(c, g->runtime, g->runtime_cls);
	return DALIC_OK;
}
