/*
 * The operator registry through the public API (dalic.h): what `dalic ops` lists, without
 * handing out the engine's schema structures. Schemas are numbered in name order, as
 * dalic_schema_all() keeps them.
 */
#include "engine/error.h"
#include "engine/schema.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGISTRY_INFO_DOC_BASE "https://docs.nvidia.com/deeplearning/dali/user-guide/docs/operations/"

static char **registry_info_urls; /* per schema, made once; NULL entries: no fn name */
static pthread_once_t registry_info_urls_once = PTHREAD_ONCE_INIT;

static void registry_info_make_urls(void)
{
	int n = dalic_op_schema_count();
	registry_info_urls = calloc((size_t)n + 1, sizeof *registry_info_urls);
	for (int i = 0; registry_info_urls && i < n; i++) {
		const dalic_schema_t *s = dalic_schema_all()[i];
		/* internal and private (_conditional.*) operators have no page */
		if (!s->fn || s->internal || s->fn[0] == '_' || strstr(s->fn, "._"))
			continue;
		/* a plugin's operator is documented under its module
		 * (nvidia.dali.plugin.pytorch.fn.torch_python_function) */
		bool plugin = s->module && !strncmp(s->module, "nvidia.dali.plugin.", 19);
		const char *dot = strrchr(s->fn, '.');
		size_t len = sizeof REGISTRY_INFO_DOC_BASE + strlen(s->fn) +
			     (plugin ? strlen(s->module) : 0) + 32;
		if (!(registry_info_urls[i] = malloc(len)))
			continue;
		if (plugin)
			snprintf(registry_info_urls[i], len, "%s%s.%s.html", REGISTRY_INFO_DOC_BASE,
				 s->module, dot ? dot + 1 : s->fn);
		else
			snprintf(registry_info_urls[i], len, "%snvidia.dali.fn.%s.html",
				 REGISTRY_INFO_DOC_BASE, s->fn);
	}
}


static const dalic_schema_t *registry_info_schema(int i)
{
	if (i < 0 || i >= dalic_op_schema_count())
		return NULL;
	return dalic_schema_all()[i];
}

static int registry_info_own_args(const dalic_schema_t *s)
{
	int n = 0;
	for (const dalic_arg_schema_t *a = s->args; a && a->name; a++)
		n++;
	return n + (s->random ? 1 : 0);
}

/* The common arguments a user sees (those starting with '_' are the front ends' own). */
static const dalic_arg_schema_t *registry_info_common(int k)
{
	for (const dalic_arg_schema_t *a = dalic_schema_common_args(); a->name; a++)
		if (a->name[0] != '_' && k-- == 0)
			return a;
	return NULL;
}

int dalic_op_schema_count(void)
{
	int n = 0;
	for (const dalic_schema_t *const *all = dalic_schema_all(); all[n];)
		n++;
	return n;
}

int dalic_op_schema_find(const char *name)
{
	const dalic_schema_t *s = dalic_schema_find(name);
	const dalic_schema_t *const *all = dalic_schema_all();
	for (int i = 0; s && all[i]; i++)
		if (all[i] == s)
			return i;
	return -1;
}

int dalic_op_schema_get(int i, dalic_op_schema_t *out)
{
	const dalic_schema_t *s = registry_info_schema(i);
	if (!s || !out)
		return dalic_fail(DALIC_EINVAL, "no operator schema %d", i);
	int common = 0;
	while (registry_info_common(common))
		common++;
	*out = (dalic_op_schema_t){
	    .name = s->name,
	    .fn = s->fn,
	    .doc = s->doc,
	    .cpu = s->devices & DALIC_DEV_CPU,
	    .gpu = s->devices & DALIC_DEV_GPU,
	    .mixed = s->devices & DALIC_DEV_MIXED,
	    .min_inputs = s->min_inputs,
	    .max_inputs = s->max_inputs,
	    .num_outputs = s->num_outputs,
	    .outputs_vary = s->outputs_for != NULL,
	    .internal = s->internal,
	    .num_args = registry_info_own_args(s),
	    .num_common_args = common,
	};
	memcpy(out->aliases, s->aliases, sizeof out->aliases);
	return DALIC_OK;
}

int dalic_op_schema_arg(int i, int k, dalic_arg_info_t *out)
{
	const dalic_schema_t *s = registry_info_schema(i);
	if (!s || !out)
		return dalic_fail(DALIC_EINVAL, "no operator schema %d", i);
	int own = registry_info_own_args(s);
	const dalic_arg_schema_t *a = NULL;
	if (k >= 0 && k < own)
		a = s->random && k == own - 1 ? dalic_schema_arg(s, "seed") : &s->args[k];
	else if (k >= own)
		a = registry_info_common(k - own);
	if (!a)
		return dalic_fail(DALIC_EINVAL, "operator %s has no argument %d", s->name, k);
	*out = (dalic_arg_info_t){
	    .name = a->name,
	    .type = dalic_schema_arg_type_name(a->type),
	    .default_value = a->def,
	    .help = a->help,
	    .per_sample = a->tensor,
	};
	return DALIC_OK;
}

const char *dalic_op_schema_doc_url(int i)
{
	if (!registry_info_schema(i))
		return NULL;
	pthread_once(&registry_info_urls_once, registry_info_make_urls);
	return registry_info_urls ? registry_info_urls[i] : NULL;
}

bool dalic_op_schema_has_kernel(int i, dalic_stage_t device)
{
	const dalic_schema_t *s = registry_info_schema(i);
	if (!s)
		return false;
	switch (device) {
	case DALIC_STAGE_CPU:
		return (s->devices & DALIC_DEV_CPU) && s->cpu;
	case DALIC_STAGE_MIXED:
		return (s->devices & DALIC_DEV_MIXED) && s->cuda;
	case DALIC_STAGE_GPU:
		return (s->devices & DALIC_DEV_GPU) && s->cuda;
	default:
		return false;
	}
}
