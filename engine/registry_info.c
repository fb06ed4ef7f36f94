/*
 * The operator registry through the public API (dalic.h): what `dalic ops` lists, without
 * handing out the engine's schema structures. Schemas are numbered in name order, as
 * dalic_schema_all() keeps them.
 */
#include "engine/error.h"
#include "engine/schema.h"

#include <string.h>

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
