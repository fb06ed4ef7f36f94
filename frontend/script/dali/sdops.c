/*
 * Operator calls, bound to the registry so a new operator needs no change here: `fn.x.y(...)`
 * resolves "x.y" with dalic_schema_find, `ops.X(...)` builds an operator object that is
 * called later with inputs. Each call adds one operator to the current pipeline's graph
 * definition following DALI's Python front end (docs/dali-behaviour.md §4): device `cpu` unless a
 * positional input is a gpu DataNode (ops API: `cpu`), non-DataNode positional inputs become
 * Constant operators first, DataNode keyword arguments become argument inputs (tensor
 * arguments only, CPU only, DALI's messages), with conditionals the inputs are split to the
 * current branch before the operator gets its id, arguments `_display_name`, `_module`,
 * user arguments in call order, then `preserve_name`. Errors from the registry (unknown
 * operator or argument, wrong value type) are located at the call.
 */
#include "frontend/script/dali/sdops.h"

#include "engine/dtype.h"
#include "frontend/script/dali/sdcond.h"
#include "frontend/script/dali/sdconst.h"
#include "frontend/script/dali/sdnp.h"
#include "frontend/script/dali/sdpipe.h"
#include "frontend/script/dali/sdtfrec.h"
#include "frontend/script/dali/sdpyfn.h"
#include "frontend/script/py/pylibmod.h"
#include "frontend/script/dali/sdsource.h"
#include "frontend/script/py/pydict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ExternalSource arguments that live only in DALI's Python layer (never serialized) */
static const char *const python_only_source_args[] = {
    "source",      "cycle",           "batch", "batch_info", "parallel", "prefetch_queue_depth",
    "cuda_stream", "use_copy_kernel", NULL};

int dalic_sdops_current_pipe(pyinterp_t *I, const pynode_t *at, const char *what, sdpipe_t **out)
{
	*out = dalic_sdali_current(I);
	if (!*out)
		return dalic_pyeval_error(
		    I, at, DALIC_EUNSUPPORTED,
		    "%s called outside a pipeline definition: create operators inside a "
		    "@pipeline_def function, a `with pipe:` block or Pipeline.define_graph",
		    what);
	return DALIC_OK;
}

static int sdops_check_node(pyinterp_t *I, const pynode_t *at, sdpipe_t *P, const pyval_t *n)
{
	if (dalic_sdval_node(n)->pipe != P)
		return dalic_pyeval_error(
		    I, at, DALIC_EGRAPH,
		    "DataNode \"%s\" belongs to another pipeline and cannot be used here",
		    dalic_sdval_node(n)->name);
	return DALIC_OK;
}

/* ---- script values -> argument values ------------------------------------------------- */

static bool sdops_scalar_kind(const pyval_t *v, dalic_vkind_t *k)
{
	if (dalic_sdval_sconst(v))
		return sdops_scalar_kind(dalic_sdval_sconst(v)->value, k);
	if (dalic_sdval_enum(v)) {
		*k = DALIC_V_INT;
		return true;
	}
	switch (v->kind) {
	case PV_BOOL:
		*k = DALIC_V_BOOL;
		return true;
	case PV_INT:
		*k = DALIC_V_INT;
		return true;
	case PV_FLOAT:
		*k = DALIC_V_FLOAT;
		return true;
	case PV_STR:
		*k = DALIC_V_STRING;
		return true;
	default:
		return false;
	}
}

static int64_t sdops_scalar_int(const pyval_t *v)
{
	if (dalic_sdval_sconst(v))
		v = dalic_sdval_sconst(v)->value;
	return v->kind == PV_BOOL ? v->b : dalic_sdval_enum(v) ? dalic_sdval_enum(v)->value : v->i;
}

static double sdops_scalar_float(const pyval_t *v)
{
	if (dalic_sdval_sconst(v))
		v = dalic_sdval_sconst(v)->value;
	return v->kind == PV_FLOAT ? v->f : (double)sdops_scalar_int(v);
}

int dalic_sdops_to_value(pyinterp_t *I, const pynode_t *at, const char *op, const char *arg,
                         pyval_t *v, dalic_value_t *out)
{
	memset(out, 0, sizeof *out);
	dalic_vkind_t k;
	if (dalic_sdnp_scalar_value(v)) /* DALI reads numpy scalars with .item() */
		v = dalic_sdnp_scalar_value(v);
	if (dalic_pynp_dtype(v))
		return dalic_sdnp_dtype_error(
		    I, at, dalic_pyarena_printf(I->a, "argument '%s' of operator %s", arg, op), v);
	if (sdops_scalar_kind(v, &k)) {
		if (dalic_sdval_sconst(v))
			v = dalic_sdval_sconst(v)->value;
		switch (k) {
		case DALIC_V_BOOL:
			return dalic_value_bool(out, v->b) ? dalic_pyeval_oom(I, at) : DALIC_OK;
		case DALIC_V_INT:
			return dalic_value_int(out, sdops_scalar_int(v)) ? dalic_pyeval_oom(I, at)
			                                                 : DALIC_OK;
		case DALIC_V_FLOAT:
			return dalic_value_float(out, v->f) ? dalic_pyeval_oom(I, at) : DALIC_OK;
		default:
			return dalic_value_string(out, v->str.s) ? dalic_pyeval_oom(I, at)
			                                         : DALIC_OK;
		}
	}
	if (v->kind != PV_LIST && v->kind != PV_TUPLE) {
		if (v->kind == PV_OPAQUE)
			return dalic_pyeval_opaque_error(I, at, v, "argument value");
		return dalic_pyeval_error(
		    I, at, DALIC_EARG_TYPE,
		    "argument '%s' of operator %s: a value of type '%s' is not supported", arg, op,
		    dalic_pyval_type_name(v));
	}
	pyval_t **items = v->kind == PV_LIST ? v->list->items : v->tuple.items;
	int n = v->kind == PV_LIST ? v->list->n : v->tuple.n;
	for (int i = 0; i < n; i++) {
		if (!dalic_sdnp_scalar_value(items[i]))
			continue;
		/* list(np.array(...) * 255): numpy scalars as their values */
		pyval_t **copy = dalic_pyarena_alloc(I->a, sizeof *copy * (size_t)n);
		if (!copy)
			return dalic_pyeval_oom(I, at);
		for (int j = 0; j < n; j++)
			copy[j] = dalic_sdnp_scalar_value(items[j]) ? dalic_sdnp_scalar_value(items[j])
			                                             : items[j];
		items = copy;
		break;
	}
	/* element kind: strings stay strings; any float makes floats; all bools stay bools */
	bool any_float = false, all_bool = n > 0, any_str = false, any_num = false;
	for (int i = 0; i < n; i++) {
		if (!sdops_scalar_kind(items[i], &k)) {
			if (items[i]->kind == PV_OPAQUE)
				return dalic_pyeval_opaque_error(I, at, items[i], "argument value");
			return dalic_pyeval_error(
			    I, at, DALIC_EARG_TYPE,
			    "argument '%s' of operator %s: list elements of type '%s' are "
			    "not supported (nested lists cannot be arguments)",
			    arg, op, dalic_pyval_type_name(items[i]));
		}
		any_float |= k == DALIC_V_FLOAT;
		all_bool &= k == DALIC_V_BOOL;
		any_str |= k == DALIC_V_STRING;
		any_num |= k != DALIC_V_STRING;
	}
	if (any_str && any_num)
		return dalic_pyeval_error(
		    I, at, DALIC_EARG_TYPE,
		    "argument '%s' of operator %s: a list mixing strings and numbers", arg, op);
	dalic_vkind_t kind = any_str     ? DALIC_V_STRING
	                     : any_float ? DALIC_V_FLOAT
	                     : all_bool  ? DALIC_V_BOOL
	                                 : DALIC_V_INT;
	void *buf = calloc((size_t)n + 1, 8);
	if (!buf)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < n; i++) {
		pyval_t *e =
		    dalic_sdval_sconst(items[i]) ? dalic_sdval_sconst(items[i])->value : items[i];
		switch (kind) {
		case DALIC_V_STRING:
			((const char **)buf)[i] = e->str.s;
			break;
		case DALIC_V_FLOAT:
			((double *)buf)[i] = sdops_scalar_float(e);
			break;
		case DALIC_V_BOOL:
			((bool *)buf)[i] = e->b;
			break;
		default:
			((int64_t *)buf)[i] = sdops_scalar_int(e);
			break;
		}
	}
	int rc = dalic_value_list(out, kind, n, buf);
	free(buf);
	return rc ? dalic_pyeval_oom(I, at) : DALIC_OK;
}

/* ---- invocation ----------------------------------------------------------------------- */

typedef struct kwsplit {
	const char *name, *device;
	const char **snames;
	pyval_t **svals;
	int ns;
	const char **anames;
	pyval_t **avals;
	int na;
	int64_t num_outputs; /* external_source(num_outputs=N), 0 when absent */
	bool python_source;  /* external_source(source=...) */
} kwsplit_t;

static int sdops_output_kwargs(pyinterp_t *I, const pynode_t *at, const kwsplit_t *k, int i,
                               kwsplit_t *out);

static bool sdops_is_python_only(const dalic_schema_t *s, const char *k)
{
	if (!s->is_input || dalic_schema_arg(s, k))
		return false;
	for (int i = 0; python_only_source_args[i]; i++)
		if (!strcmp(python_only_source_args[i], k))
			return true;
	return false;
}

static int sdops_split_kwargs(pyinterp_t *I, const pynode_t *at, const sdopcall_t *c, kwsplit_t *k)
{
	memset(k, 0, sizeof *k);
	k->snames = dalic_pyarena_alloc(I->a, sizeof(char *) * (size_t)(c->nkw + 1));
	k->svals = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(c->nkw + 1));
	k->anames = dalic_pyarena_alloc(I->a, sizeof(char *) * (size_t)(c->nkw + 1));
	k->avals = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(c->nkw + 1));
	if (!k->snames || !k->svals || !k->anames || !k->avals)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < c->nkw; i++) {
		const char *name = c->kwnames[i];
		pyval_t *v = c->kwvals[i];
		if (v->kind == PV_NONE)
			continue; /* None means "not given" for every operator argument */
		if (!strcmp(name, "name") || !strcmp(name, "device")) {
			if (v->kind != PV_STR)
				return dalic_pyeval_error(
				    I, at, DALIC_EARG_TYPE,
				    "argument '%s' of operator %s must be a string, not %s", name,
				    c->api_name, dalic_pyval_type_name(v));
			*(name[0] == 'n' ? &k->name : &k->device) = v->str.s;
		} else if (c->schema->is_input && !strcmp(name, "num_outputs") &&
		           !dalic_schema_arg(c->schema, name)) {
			if (v->kind != PV_INT || v->i < 1 || v->i > 1024)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "num_outputs of %s must be a positive integer", c->api_name);
			k->num_outputs = v->i;
		} else if (!strcmp(name, "function") && dalic_sdpyfn_is(c->schema)) {
			/* DALI's Python object argument: dalic lends the function under an id */
			pyval_t *id;
			DALIC_TRY(dalic_sdpyfn_lend(I, at, dalic_sdali_current(I), v, &id));
			k->snames[k->ns] = "function_id";
			k->svals[k->ns++] = id;
		} else if (dalic_sdnumba_is(c->schema) &&
		           (!strcmp(name, "run_fn") || !strcmp(name, "setup_fn"))) {
			/* run_fn and setup_fn are lent together; the definition says whether a
			 * setup_fn shapes the outputs */
			if (!strcmp(name, "setup_fn")) {
				k->snames[k->ns] = "setup_fn";
				k->svals[k->ns++] = dalic_pyval_true();
				continue;
			}
			pyval_t *setup = NULL, *id;
			for (int j = 0; j < c->nkw; j++)
				if (!strcmp(c->kwnames[j], "setup_fn") && c->kwvals[j]->kind != PV_NONE)
					setup = c->kwvals[j];
			DALIC_TRY(dalic_sdnumba_lend(I, at, dalic_sdali_current(I), v, setup, &id));
			k->snames[k->ns] = "function_id";
			k->svals[k->ns++] = id;
		} else if (sdops_is_python_only(c->schema, name)) {
			/* Python callbacks and their scheduling: a source= runs in the script's
			 * interpreter (sdsource.c) */
			k->python_source |= !strcmp(name, "source");
		} else if (dalic_sdval_node(v) ||
		           (dalic_sdnp_is(v) && !dalic_sdnp_scalar_value(v) && strcmp(name, "ndim"))) {
			/* numpy arrays that are not scalars become Constant argument inputs */
			k->anames[k->na] = name;
			k->avals[k->na++] = v;
		} else {
			k->snames[k->ns] = name;
			k->svals[k->ns++] = v;
		}
	}
	if (k->num_outputs && k->name)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "ExternalSource with `num_outputs` cannot have a `name`: each output "
		    "is a separate operator");
	return DALIC_OK;
}

static const char *sdops_auto_device(const sdopcall_t *c)
{
	if (c->ops_api)
		return "cpu";
	for (int i = 0; i < c->ninputs; i++) {
		const pyval_t *v = c->inputs[i];
		if (dalic_sdval_node(v) && !strcmp(dalic_sdval_node(v)->device, "gpu"))
			return "gpu";
		if (v->kind == PV_LIST)
			for (int k = 0; k < v->list->n; k++)
				if (dalic_sdval_node(v->list->items[k]) &&
				    !strcmp(dalic_sdval_node(v->list->items[k])->device, "gpu"))
					return "gpu";
	}
	return "cpu";
}

static int sdops_promote_inputs(pyinterp_t *I, const pynode_t *at, const sdopcall_t *c, sdpipe_t *P,
                                const char *device, pyval_t **nodes)
{
	const char *in_dev = !strcmp(device, "gpu") ? "gpu" : "cpu";
	for (int i = 0; i < c->ninputs; i++) {
		pyval_t *v = c->inputs[i];
		if (dalic_sdval_node(v)) {
			DALIC_TRY(sdops_check_node(I, at, P, v));
			nodes[i] = v;
		} else if (v->kind == PV_OPAQUE) {
			return dalic_pyeval_opaque_error(I, at, v, "operator input");
		} else if (v->kind == PV_LIST && v->list->n &&
		           dalic_sdval_node(v->list->items[0])) {
			return dalic_pyeval_error(
			    I, at, DALIC_EUNSUPPORTED,
			    "when calling operator `%s`: multiple input sets (a list of "
			    "DataNodes as input %d) are not supported yet",
			    c->api_name, i);
		} else if (dalic_sdval_sconst(v)) {
			DALIC_TRY(dalic_sdconst_node(I, at, dalic_sdval_sconst(v)->value,
			                             dalic_sdval_sconst(v)->dtype, in_dev,
			                             &nodes[i]));
		} else {
			dalic_vkind_t k;
			bool ok = v->kind == PV_LIST || v->kind == PV_TUPLE ||
			          (sdops_scalar_kind(v, &k) && k != DALIC_V_STRING);
			if (!ok)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: when calling operator `%s`: expected inputs of "
				    "type 'DataNode', list of 'DataNode' or convertible to "
				    "constant nodes. Received input `%d` of type '%s'.",
				    c->api_name, i, dalic_pyval_type_name(v));
			DALIC_TRY(dalic_sdconst_node(I, at, v, -1, in_dev, &nodes[i]));
		}
	}
	return DALIC_OK;
}

static int sdops_set_string_arg(pyinterp_t *I, const pynode_t *at, dalic_opdef_t *op,
                                const char *arg, const char *s)
{
	dalic_value_t v;
	if (dalic_value_string(&v, s))
		return dalic_pyeval_oom(I, at);
	int rc = dalic_graphdef_op_set_arg(op, arg, &v);
	dalic_value_free(&v);
	return rc ? dalic_pyeval_relocate(I, at, rc) : DALIC_OK;
}

/* numpy arrays given as arguments: DALI makes each a CPU Constant after the operator got its
 * id, and the Constant comes first in the graph; logical ids follow the graph order. */
static int sdops_numpy_arg_inputs(pyinterp_t *I, const pynode_t *at, sdpipe_t *P, dalic_opdef_t *op,
                                  int na, pyval_t **argins)
{
	dalic_graphdef_t *g = P->def;
	int first = g->num_ops - 1;
	for (int i = 0; i < na; i++) {
		if (!dalic_sdnp_is(argins[i]))
			continue;
		DALIC_TRY(dalic_sdnp_constant(I, at, argins[i], -1, NULL, NULL, "cpu", NULL,
		                              &argins[i]));
		if (P->cond)
			DALIC_TRY(dalic_sdcond_preprocess(I, at, argins[i], &argins[i]));
	}
	int n = g->num_ops - first;
	if (n == 1)
		return DALIC_OK;
	int ids[64], m = 0;
	for (int i = first; i < g->num_ops && m < 64; i++)
		ids[m++] = g->ops[i]->logical_id >= 0 ? g->ops[i]->logical_id : g->ops[i]->id;
	memmove(&g->ops[first], &g->ops[first + 1], sizeof *g->ops * (size_t)(n - 1));
	g->ops[g->num_ops - 1] = op;
	for (int i = 0; i < m; i++) /* ids ascend in creation order */
		g->ops[first + i]->logical_id = ids[i];
	return DALIC_OK;
}

/* An operator named by a deprecated alias gets DALI's names for it: the instance is named
 * after the alias class ("__FileReader_0"), and the schema serialized is the one DALI writes
 * for the alias ("ImageDecoder", but "readers__File" for FileReader). */
static int sdops_legacy_names(pyinterp_t *I, const pynode_t *at, const sdalias_t *legacy,
                              dalic_opdef_t *op)
{
	const char *cls = strrchr(legacy->ops, '.');
	char inst[160];
	snprintf(inst, sizeof inst, "__%s_%d", cls ? cls + 1 : legacy->ops, op->graph->next_id - 1);
	char *n = strdup(inst);
	if (!n)
		return dalic_pyeval_oom(I, at);
	free(op->inst);
	op->inst = n;
	op->serial_name = strcmp(legacy->serial, op->schema->name) ? legacy->serial : NULL;
	int rc = dalic_graphdef_op_refresh_outputs(op);
	return rc ? dalic_pyeval_relocate(I, at, rc) : DALIC_OK;
}

/* Batches an external source's Python `source` gives when that is a list or tuple without
 * `cycle` (DALI: one batch per element, or batch_size samples per batch with batch=False);
 * -1 when it cycles or is a callable or iterator (unknown). `dalic check` compares it with
 * the prefetch depth. */
static int sdops_source_batches(const sdopcall_t *c, int batch_size)
{
	pyval_t *src = NULL, *cycle = NULL, *batch = NULL;
	for (int i = 0; i < c->nkw; i++) {
		pyval_t **slot = !strcmp(c->kwnames[i], "source") ? &src
		                 : !strcmp(c->kwnames[i], "cycle") ? &cycle
		                 : !strcmp(c->kwnames[i], "batch") ? &batch
		                                                   : NULL;
		if (slot)
			*slot = c->kwvals[i];
	}
	if (!src || (src->kind != PV_LIST && src->kind != PV_TUPLE))
		return -1;
	if (cycle && cycle->kind != PV_NONE && !(cycle->kind == PV_BOOL && !cycle->b))
		return -1;
	int n = src->kind == PV_LIST ? src->list->n : src->tuple.n;
	bool per_sample = batch && batch->kind == PV_BOOL && !batch->b;
	return per_sample ? (batch_size > 0 ? n / batch_size : -1) : n;
}

/* DALI's Python front end converts an integer argument with int(): floats are truncated
 * toward zero (size=[64.5, 48] is [64, 48]); NaN and infinities are Python's errors. */
static int sdops_python_int(pyinterp_t *I, const pynode_t *at, const dalic_opdef_t *op,
                            const char *arg, dalic_value_t *v)
{
	const dalic_arg_schema_t *a = dalic_schema_arg(op->schema, arg);
	if (!a || v->kind != DALIC_V_FLOAT)
		return DALIC_OK;
	switch (a->type) {
	case DALIC_ARG_INT:
	case DALIC_ARG_INT_LIST:
	case DALIC_ARG_DTYPE:
	case DALIC_ARG_IMAGE_TYPE:
	case DALIC_ARG_INTERP_TYPE:
	case DALIC_ARG_DTYPE_LIST:
		break;
	default:
		return DALIC_OK;
	}
	int64_t *ints = calloc((size_t)v->n + 1, sizeof *ints);
	if (!ints)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < v->n; i++) {
		double f = v->f[i];
		if (f != f || f >= 0x1p63 || f < -0x1p63) {
			free(ints);
			return dalic_pyeval_error(I, at, DALIC_EARG_TYPE,
			                          "operator '%s': %s: cannot convert float %s to "
			                          "integer (argument '%s')",
			                          op->inst, f != f ? "ValueError" : "OverflowError",
			                          f != f ? "NaN" : "infinity or a value that large", arg);
		}
		ints[i] = (int64_t)f; /* C's conversion truncates toward zero, as int() does */
	}
	dalic_value_t iv;
	bool list = v->is_list;
	int rc = dalic_value_list(&iv, DALIC_V_INT, v->n, ints);
	free(ints);
	if (rc)
		return dalic_pyeval_oom(I, at);
	iv.is_list = list;
	dalic_value_free(v);
	*v = iv;
	return DALIC_OK;
}

/* One operator instance; *out the DataNode or list of DataNodes it produces. */
static int sdops_add_operator(pyinterp_t *I, const pynode_t *at, const sdopcall_t *c, sdpipe_t *P,
                              const kwsplit_t *k, const char *device, pyval_t **inputs,
                              pyval_t **out)
{
	const dalic_schema_t *s = c->schema;
	pyval_t **argins = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(k->na + 1));
	if (!argins)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < k->na; i++) {
		argins[i] = k->avals[i];
		if (!dalic_sdnp_is(argins[i]))
			DALIC_TRY(sdops_check_node(I, at, P, argins[i]));
	}
	if (P->cond) {
		/* inputs used inside a branch are split by the enclosing predicates first */
		for (int i = 0; i < c->ninputs; i++)
			DALIC_TRY(dalic_sdcond_preprocess(I, at, inputs[i], &inputs[i]));
		for (int i = 0; i < k->na; i++)
			if (!dalic_sdnp_is(argins[i]))
				DALIC_TRY(dalic_sdcond_preprocess(I, at, argins[i], &argins[i]));
	}
	dalic_opdef_t *op;
	int rc = dalic_graphdef_add_op(P->def, s->name, device, &op);
	if (rc)
		return dalic_pyeval_relocate(I, at, rc);
	DALIC_TRY(sdops_numpy_arg_inputs(I, at, P, op, k->na, argins));
	const char *path;
	const pynode_t *site = dalic_pylibmod_site(I, at, &path); /* auto_aug: the script's call */
	op->pos = (dalic_srcpos_t){.file = path, .line = site->line, .col = site->col};
	if (c->legacy)
		DALIC_TRY(sdops_legacy_names(I, at, c->legacy, op));
	if (s->is_input)
		op->source_batches = sdops_source_batches(c, P->def->params.batch_size);
	/* a named operator takes no id (DALI names it as it creates it) */
	if (k->name && (rc = dalic_graphdef_op_name_new(op, k->name, true)))
		return dalic_pyeval_relocate(I, at, rc);
	DALIC_TRY(sdops_set_string_arg(I, at, op, "_display_name", c->display));
	DALIC_TRY(sdops_set_string_arg(I, at, op, "_module", c->module));
	for (int i = 0; i < k->ns; i++) {
		dalic_value_t v;
		DALIC_TRY(dalic_sdops_to_value(I, at, c->api_name, k->snames[i], k->svals[i], &v));
		if ((rc = sdops_python_int(I, at, op, k->snames[i], &v))) {
			dalic_value_free(&v);
			return rc;
		}
		rc = dalic_graphdef_op_set_arg(op, k->snames[i], &v);
		dalic_value_free(&v);
		if (rc)
			return dalic_pyeval_relocate(I, at, rc);
	}
	dalic_value_t pn;
	if (dalic_value_bool(&pn, k->name != NULL))
		return dalic_pyeval_oom(I, at);
	rc = dalic_graphdef_op_set_arg(op, "preserve_name", &pn);
	dalic_value_free(&pn);
	if (rc)
		return dalic_pyeval_relocate(I, at, rc);
	for (int i = 0; i < c->ninputs; i++)
		if ((rc = dalic_graphdef_op_add_input(op, dalic_sdval_node(inputs[i])->name,
		                                dalic_sdval_node(inputs[i])->device)))
			return dalic_pyeval_relocate(I, at, rc);
	for (int i = 0; i < k->na; i++) {
		if (strcmp(dalic_sdval_node(argins[i])->device, "cpu"))
			return dalic_pyeval_error(
			    I, at, DALIC_EGRAPH,
			    "ValueError: Invalid device \"%s\" for argument '%s' of operator "
			    "'%s'. Named arguments must be on CPU.",
			    dalic_sdval_node(argins[i])->device, k->anames[i], c->api_name);
		if ((rc = dalic_graphdef_op_add_arg_input(op, k->anames[i],
		                                    dalic_sdval_node(argins[i])->name)))
			return dalic_pyeval_relocate(I, at, rc);
	}
	const char *out_dev = strcmp(op->device ? op->device : device, "cpu") ? "gpu" : "cpu";
	pyval_t *res;
	if (op->num_outputs == 1) {
		res = dalic_sdval_new_node(I->a, dalic_pyarena_strdup(I->a, op->outputs[0]),
		                           out_dev, P);
		if (!res || !dalic_sdval_node(res)->name)
			return dalic_pyeval_oom(I, at);
	} else {
		/* DALI returns a list for 0 or several outputs */
		res = dalic_pyval_list(I->a, op->num_outputs);
		if (!res)
			return dalic_pyeval_oom(I, at);
		for (int i = 0; i < op->num_outputs; i++) {
			pyval_t *n = dalic_sdval_new_node(
			    I->a, dalic_pyarena_strdup(I->a, op->outputs[i]), out_dev, P);
			if (!n || !dalic_sdval_node(n)->name ||
			    dalic_pyval_list_append(I->a, res, n))
				return dalic_pyeval_oom(I, at);
		}
	}
	if (P->cond)
		DALIC_TRY(dalic_sdcond_register(I, res, c->ninputs == 0 && k->na == 0));
	*out = res;
	return DALIC_OK;
}

int dalic_sdops_invoke(pyinterp_t *I, const pynode_t *at, const sdopcall_t *c, pyval_t **out)
{
	sdpipe_t *P = NULL; /* GCC cannot see dalic_sdops_current_pipe sets it */
	DALIC_TRY(dalic_sdops_current_pipe(I, at, c->api_name, &P));
	const dalic_schema_t *s = c->schema;
	if (c->ninputs < s->min_inputs || c->ninputs > s->max_inputs)
		return dalic_pyeval_error(
		    I, at, DALIC_EGRAPH,
		    "ValueError: Operator %s expects from %d to %d inputs, but received %d.",
		    c->api_name, s->min_inputs, s->max_inputs, c->ninputs);
	kwsplit_t k;
	DALIC_TRY(sdops_split_kwargs(I, at, c, &k));
	for (int i = 0; i < k.na; i++) {
		const dalic_arg_schema_t *a = dalic_schema_arg(s, k.anames[i]);
		if (!a)
			return dalic_pyeval_error(
			    I, at, DALIC_EUNKNOWN_ARG,
			    "operator %s (%s) has no argument '%s' (see `dalic ops %s`)",
			    c->api_name, s->name, k.anames[i], s->fn ? s->fn : s->name);
		if (!a->tensor)
			return dalic_pyeval_error(
			    I, at, DALIC_EARG_TYPE,
			    "TypeError: The argument `%s` for operator `%s` should not be a "
			    "'DataNode' but a '%s'.",
			    k.anames[i], c->api_name, dalic_schema_arg_type_name(a->type));
	}
	/* readers.tfrecord: DALI's Python wrapper turns the features dict into two arguments */
	pyval_t *feature_names = NULL;
	for (int i = 0; i < k.ns; i++)
		if (dalic_sdtfrec_is_features(s, k.snames[i]))
			DALIC_TRY(dalic_sdtfrec_features(I, at, &k.svals[i], &feature_names));
	if (feature_names) {
		k.snames[k.ns] = "feature_names";
		k.svals[k.ns++] = feature_names;
	}
	const char *device = k.device ? k.device : sdops_auto_device(c);
	pyval_t **inputs = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(c->ninputs + 1));
	if (!inputs)
		return dalic_pyeval_oom(I, at);
	DALIC_TRY(sdops_promote_inputs(I, at, c, P, device, inputs));
	if (!k.num_outputs) {
		DALIC_TRY(sdops_add_operator(I, at, c, P, &k, device, inputs, out));
		if (feature_names)
			return dalic_sdtfrec_outputs(I, at, feature_names, out);
		return k.python_source ? dalic_sdsource_add(I, at, P, c, *out, 0) : DALIC_OK;
	}
	/* external_source(num_outputs=N): N ExternalSource operators fed together */
	pyval_t *t = dalic_pyval_tuple(I->a, (int)k.num_outputs);
	if (!t)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < k.num_outputs; i++) {
		kwsplit_t ki;
		DALIC_TRY(sdops_output_kwargs(I, at, &k, i, &ki));
		DALIC_TRY(sdops_add_operator(I, at, c, P, &ki, device, inputs, &t->tuple.items[i]));
	}
	*out = t;
	return k.python_source ? dalic_sdsource_add(I, at, P, c, t, (int)k.num_outputs) : DALIC_OK;
}

/* Output i's arguments of external_source(num_outputs=N): DALI gives each its element of a
 * dtype / ndim / layout list (past the list's end: no dtype, no ndim, "" layout). */
static int sdops_output_kwargs(pyinterp_t *I, const pynode_t *at, const kwsplit_t *k, int i,
                               kwsplit_t *out)
{
	*out = *k;
	out->snames = dalic_pyarena_alloc(I->a, sizeof(char *) * (size_t)(k->ns + 1));
	out->svals = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(k->ns + 1));
	if (!out->snames || !out->svals)
		return dalic_pyeval_oom(I, at);
	out->ns = 0;
	for (int j = 0; j < k->ns; j++) {
		const char *name = k->snames[j];
		pyval_t *v = k->svals[j];
		bool per_output = (v->kind == PV_LIST || v->kind == PV_TUPLE) &&
		                  (!strcmp(name, "dtype") || !strcmp(name, "ndim") ||
		                   !strcmp(name, "layout"));
		if (per_output) {
			int n = v->kind == PV_LIST ? v->list->n : v->tuple.n;
			pyval_t **items = v->kind == PV_LIST ? v->list->items : v->tuple.items;
			if (i < n)
				v = items[i];
			else if (name[0] != 'l')
				continue; /* no ndim; dtype NO_TYPE, the default */
			else
				v = dalic_pyval_str(I->a, "", 0);
			if (!v)
				return dalic_pyeval_oom(I, at);
			if (v->kind == PV_NONE)
				continue;
		}
		out->snames[out->ns] = name;
		out->svals[out->ns++] = v;
	}
	return DALIC_OK;
}

/* ---- fn / ops API --------------------------------------------------------------------- */

/* Set while a plugin module's function builds its operator (dalic_sdops_plugin_call): the
 * plugins' schemas (TorchPythonFunction) are not in nvidia.dali.fn / nvidia.dali.ops. */
static _Thread_local bool sdops_in_plugin;

int dalic_sdops_plugin_call(pyinterp_t *I, const pynode_t *at, bool ops_api, const char *path,
                            const pyargs_t *args, pyval_t **out)
{
	sdops_in_plugin = true;
	int rc = ops_api ? dalic_sdops_construct(I, at, path, args, out)
	                 : dalic_sdops_call_fn(I, at, path, args, out);
	sdops_in_plugin = false;
	return rc;
}

int dalic_sdops_resolve(pyinterp_t *I, const pynode_t *at, bool ops_api, const char *path,
                        const dalic_schema_t **schema, const sdalias_t **legacy)
{
	const char *api = ops_api ? "ops" : "fn";
	*schema = NULL;
	int rc = DALIC_OK;
	if ((*legacy = dalic_sdalias_find(ops_api, path))) {
		/* the schema DALI serializes for the alias, when dalic has it: an operator of its own
		 * where DALI's defaults differ (FastResizeCropMirror: no antialias) */
		if ((*schema = dalic_schema_find((*legacy)->serial)) ||
		    (*schema = dalic_schema_find((*legacy)->target)))
			return DALIC_OK;
		rc = dalic_pyeval_error(I, at, DALIC_EUNKNOWN_OP,
		                        "%s.%s is DALI's deprecated name of operator %s, which dalic "
		                        "does not implement yet (see `dalic ops`)",
		                        api, path, (*legacy)->target);
	} else if (dalic_sdalias_removed(ops_api, path)) {
		rc = dalic_pyeval_error(I, at, DALIC_EUNKNOWN_OP,
		                        "AttributeError: module 'nvidia.dali.ops' has no attribute "
		                        "'%s': DALI removed this operator name before DALI 1.0; use "
		                        "%s",
		                        path, dalic_sdalias_removed(ops_api, path));
	} else {
		const char *full = dalic_pyarena_printf(I->a, "%s.%s", api, path);
		if (!full)
			return dalic_pyeval_oom(I, at);
		*schema = dalic_schema_find(full);
		const char *plugin = *schema && (*schema)->module &&
		                             !strncmp((*schema)->module, "nvidia.dali.plugin.", 19)
		                         ? (*schema)->module
		                         : NULL;
		if (*schema && (!plugin || sdops_in_plugin))
			return DALIC_OK;
		if (plugin)
			rc = dalic_pyeval_error(I, at, DALIC_EUNKNOWN_OP,
			                        "AttributeError: module 'nvidia.dali.%s' has no attribute "
			                        "'%s' (it is in %s)",
			                        api, path, plugin);
		else
			rc = dalic_pyeval_error(I, at, DALIC_EUNKNOWN_OP,
		                        "unknown operator %s.%s: not in the dalic operator registry "
		                        "(see `dalic ops`)",
		                        api, path);
	}
	I->keep_error = true; /* never skipped as display code: the pipeline would lose it */
	return rc;
}

/* "nvidia.dali.<api>[.<submodules>]" and the last component of path. */
static int sdops_api_names(pyinterp_t *I, const pynode_t *at, const char *api, const char *path,
                           sdopcall_t *c)
{
	const char *dot = strrchr(path, '.');
	c->display = dot ? dot + 1 : path;
	c->module =
	    dot ? dalic_pyarena_printf(I->a, "nvidia.dali.%s.%.*s", api, (int)(dot - path), path)
	        : dalic_pyarena_printf(I->a, "nvidia.dali.%s", api);
	if (!c->module)
		return dalic_pyeval_oom(I, at);
	c->api_name = dalic_pyarena_printf(I->a, "%s.%s", c->module, c->display);
	return c->api_name ? DALIC_OK : dalic_pyeval_oom(I, at);
}

int dalic_sdops_call_fn(pyinterp_t *I, const pynode_t *at, const char *path, const pyargs_t *args,
                        pyval_t **out)
{
	sdopcall_t c = {.inputs = args->pos,
	                .ninputs = args->npos,
	                .kwnames = args->kwnames,
	                .kwvals = args->kwvals,
	                .nkw = args->nkw};
	DALIC_TRY(dalic_sdops_resolve(I, at, false, path, &c.schema, &c.legacy));
	DALIC_TRY(sdops_api_names(I, at, "fn", path, &c));
	return dalic_sdops_invoke(I, at, &c, out);
}

bool dalic_sdops_is_special(bool ops_api, const char *path)
{
	return ops_api && !strcmp(path, "Compose");
}

int dalic_sdops_construct(pyinterp_t *I, const pynode_t *at, const char *path, const pyargs_t *args,
                          pyval_t **out)
{
	if (!strcmp(path, "Compose"))
		return dalic_sdcompose_new(I, at, args, out);
	const dalic_schema_t *s;
	const sdalias_t *legacy;
	DALIC_TRY(dalic_sdops_resolve(I, at, true, path, &s, &legacy));
	if (args->npos)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: __init__() takes 1 positional argument but %d were given "
		    "(ops API operators take inputs when called)",
		    args->npos + 1);
	sdopcall_t c = {0};
	DALIC_TRY(sdops_api_names(I, at, "ops", path, &c));
	pyval_t *o = dalic_sdval_new_opobj(I->a, s, c.module, c.display);
	if (!o)
		return dalic_pyeval_oom(I, at);
	sdopobj_t *obj = dalic_sdval_opobj(o);
	obj->legacy = legacy;
	for (int i = 0; i < args->nkw; i++)
		if (dalic_pydict_set_str(I->a, obj->kwargs, args->kwnames[i], args->kwvals[i]))
			return dalic_pyeval_oom(I, at);
	*out = o;
	return DALIC_OK;
}

int dalic_sdops_call_object(pyinterp_t *I, const pynode_t *at, pyval_t *o, const pyargs_t *args,
                            pyval_t **out)
{
	sdopobj_t *obj = dalic_sdval_opobj(o);
	int n = dalic_pydict_len(obj->kwargs) + args->nkw;
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)(n + 1));
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)(n + 1));
	if (!names || !vals)
		return dalic_pyeval_oom(I, at);
	int k = 0;
	pyval_t *key, *val;
	for (int it = 0; dalic_pydict_next(obj->kwargs, &it, &key, &val);) {
		names[k] = key->str.s;
		vals[k++] = val;
	}
	for (int i = 0; i < args->nkw; i++) {
		pyval_t *prev = dalic_pydict_get_str(obj->kwargs, args->kwnames[i]);
		if (args->kwvals[i]->kind == PV_NONE)
			continue;
		if (prev && prev->kind != PV_NONE)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "ValueError: The argument `%s` was already specified in __init__.",
			    args->kwnames[i]);
		names[k] = args->kwnames[i];
		vals[k++] = args->kwvals[i];
	}
	sdopcall_t c = {.schema = obj->schema,
	                .legacy = obj->legacy,
	                .module = obj->module,
	                .display = obj->display,
	                .ops_api = true,
	                .inputs = args->pos,
	                .ninputs = args->npos,
	                .kwnames = names,
	                .kwvals = vals,
	                .nkw = k};
	c.api_name = dalic_pyarena_printf(I->a, "%s.%s", c.module, c.display);
	if (!c.api_name)
		return dalic_pyeval_oom(I, at);
	return dalic_sdops_invoke(I, at, &c, out);
}
