/*
 * ops.Compose(op_list): DALI's meta-operator that chains ops-API operators (nested
 * compositions flattened), feeding each one's outputs to the next and moving a CPU data node
 * to the GPU where a gpu operator follows a cpu one, as nvidia/dali/ops/_operators/compose.py
 * does. Keyword arguments of the call go to the first operator only. A one-element list is
 * that operator itself.
 */
#include "frontend/script/dali/sdops.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"

#include <string.h>

typedef struct sdcompose {
	pyval_t **ops;
	int n;
} sdcompose_t;

static const pytype_t sdcompose_type;

static void sdcompose_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	dalic_pybuf_printf(b, "<nvidia.dali.ops._operators.compose._CompoundOp of %d operators>",
	                   ((const sdcompose_t *)v->host.data)->n);
}

/* The device an operator of the list runs on ("cpu" unless an ops object says otherwise). */
static const char *sdcompose_device(const pyval_t *op)
{
	const sdopobj_t *o = dalic_sdval_opobj(op);
	pyval_t *d = o ? dalic_pydict_get_str(o->kwargs, "device") : NULL;
	return d && d->kind == PV_STR ? d->str.s : "cpu";
}

static int sdcompose_call(pyinterp_t *I, const pynode_t *at, pyval_t *v, const pyargs_t *args,
                          pyval_t **out)
{
	const sdcompose_t *c = v->host.data;
	pyval_t *cur = dalic_pyval_list(I->a, args->npos);
	if (!cur)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < args->npos; i++)
		if (dalic_pyval_list_append(I->a, cur, args->pos[i]))
			return dalic_pyeval_oom(I, at);
	pyargs_t a = *args;
	for (int k = 0; k < c->n; k++) {
		bool gpu = !strcmp(sdcompose_device(c->ops[k]), "gpu");
		for (int i = 0; gpu && i < cur->list->n; i++) {
			const sdnode_t *node = dalic_sdval_node(cur->list->items[i]);
			if (!node || strcmp(node->device, "cpu"))
				continue;
			pyval_t *move;
			DALIC_TRY(dalic_pyeval_getattr(I, at, cur->list->items[i], "gpu", &move));
			DALIC_TRY(dalic_pyeval_call(I, at, move, &(pyargs_t){0}, &cur->list->items[i]));
		}
		a.pos = cur->list->items;
		a.npos = cur->list->n;
		pyval_t *r;
		DALIC_TRY(dalic_pyeval_call(I, at, c->ops[k], &a, &r));
		a = (pyargs_t){0}; /* keyword arguments went to the first operator */
		if (!(cur = dalic_pyval_list(I->a, 2)))
			return dalic_pyeval_oom(I, at);
		pyval_t **items = &r;
		int n = 1;
		if (r->kind == PV_TUPLE || r->kind == PV_LIST) {
			items = r->kind == PV_TUPLE ? r->tuple.items : r->list->items;
			n = r->kind == PV_TUPLE ? r->tuple.n : r->list->n;
		}
		for (int i = 0; i < n; i++)
			if (dalic_pyval_list_append(I->a, cur, items[i]))
				return dalic_pyeval_oom(I, at);
	}
	*out = cur->list->n == 1 ? cur->list->items[0] : cur;
	return DALIC_OK;
}

static const pytype_t sdcompose_type = {
    .name = "_CompoundOp",
    .format = sdcompose_format,
    .call = sdcompose_call,
};

int dalic_sdcompose_new(pyinterp_t *I, const pynode_t *at, const pyargs_t *args, pyval_t **out)
{
	if (args->npos != 1 || args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: Compose() takes one list of operators");
	pyval_t **items;
	int n;
	DALIC_TRY(dalic_pybi_items(I, at, args->pos[0], &items, &n));
	if (!n)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "IndexError: Compose() needs at least one operator");
	if (n == 1) {
		*out = items[0];
		return DALIC_OK;
	}
	sdcompose_t *c = dalic_pyarena_alloc(I->a, sizeof *c);
	pyval_t *l = dalic_pyval_list(I->a, n);
	if (!c || !l)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < n; i++) {
		const sdcompose_t *inner =
		    dalic_pyval_is(items[i], &sdcompose_type) ? items[i]->host.data : NULL;
		for (int k = 0; k < (inner ? inner->n : 1); k++)
			if (dalic_pyval_list_append(I->a, l, inner ? inner->ops[k] : items[i]))
				return dalic_pyeval_oom(I, at);
	}
	c->ops = l->list->items;
	c->n = l->list->n;
	PYEVAL_RET(dalic_pyval_host(I->a, &sdcompose_type, c));
}
