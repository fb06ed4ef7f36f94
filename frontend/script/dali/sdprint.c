/*
 * Prints evaluated every iteration (see sdprint.h). A print whose arguments are literals,
 * names and `name.get()` keeps the cheaper record sdali.c makes (text and nodes, formatted
 * by debug mode alone); any other print is recorded here and rendered by the interpreter:
 * its arguments are evaluated in a frame holding what the names read when it was traced,
 * data nodes print as debug mode prints them, node.get() is this iteration's TensorList.
 */
#include "frontend/script/dali/sdprint.h"

#include "frontend/script/dali/sdpipe.h"
#include "frontend/script/dali/sdruntime.h"
#include "frontend/script/dali/sdtensor.h"
#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"
#include "frontend/script/py/pyscope.h"

#include <stdlib.h>
#include <string.h>

static bool sdprint_simple(const pynode_t *e)
{
	switch (e->kind) {
	case N_STR:
	case N_INT:
	case N_FLOAT:
	case N_BOOL:
	case N_NONE:
	case N_NAME:
		return true;
	case N_KEYWORD:
		return e->kw.arg && sdprint_simple(e->kw.value);
	case N_CALL: /* name.get() */
		return !e->call.args.n && !e->call.kwargs.n && e->call.func->kind == N_ATTR &&
		       !strcmp(e->call.func->attr.attr, "get") &&
		       e->call.func->attr.value->kind == N_NAME;
	default:
		return false;
	}
}

/* Data nodes held by v (in lists, tuples and dicts too), for debug mode to keep and wait for. */
static int sdprint_nodes(pyinterp_t *I, pyval_t *v, const char ***nodes, int *n, int *cap,
                         int depth)
{
	if (depth > 16)
		return DALIC_OK;
	if (dalic_sdval_node(v)) {
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 8;
			const char **nv = dalic_pyarena_alloc(I->a, sizeof *nv * (size_t)*cap);
			if (!nv)
				return DALIC_ENOMEM;
			if (*n)
				memcpy(nv, *nodes, sizeof *nv * (size_t)*n);
			*nodes = nv;
		}
		(*nodes)[(*n)++] = dalic_sdval_node(v)->name;
		return DALIC_OK;
	}
	pyval_t **items = NULL, *k, *x;
	int m = 0;
	if (v->kind == PV_LIST) {
		items = v->list->items;
		m = v->list->n;
	} else if (v->kind == PV_TUPLE) {
		items = v->tuple.items;
		m = v->tuple.n;
	} else if (v->kind == PV_DICT) {
		for (int it = 0; dalic_pydict_next(v->dict, &it, &k, &x);)
			DALIC_TRY(sdprint_nodes(I, x, nodes, n, cap, depth + 1));
	}
	for (int i = 0; i < m; i++)
		DALIC_TRY(sdprint_nodes(I, items[i], nodes, n, cap, depth + 1));
	return DALIC_OK;
}

static int sdprint_record(pyinterp_t *I, pyframe_t *F, const pynode_t *e, sdpipe_t *pipe)
{
	sdstate_t *S = dalic_sdali_state(I);
	bool ok = true;
	pynameset_t used = {0};
	for (int i = 0; i < e->call.args.n; i++)
		used = dalic_pyscope_used_names(I->a, e->call.args.v[i], used, &ok);
	for (int i = 0; i < e->call.kwargs.n; i++)
		used = dalic_pyscope_used_names(I->a, e->call.kwargs.v[i], used, &ok);
	pyframe_t *snap = dalic_pyexec_new_frame(I, FR_SCOPE, I->globals);
	if (!ok || !snap)
		return dalic_pyeval_oom(I, e);
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)(used.n + 1));
	const char **nodes = NULL;
	int nn = 0, nodecap = 0, nl = 0;
	if (!names)
		return dalic_pyeval_oom(I, e);
	for (int i = 0; i < used.n; i++) {
		pyval_t *v;
		/* a name read only through the module or built-ins is looked up when rendered */
		if (F->kind == FR_MODULE || dalic_pyeval_lookup(I, F, e, used.v[i], &v)) {
			dalic_error_clear();
			continue;
		}
		if (dalic_pydict_get_str(I->globals->locals, used.v[i]) == v)
			continue;
		names[nl++] = used.v[i]; /* used.v is sorted, so names is too */
		if (dalic_pydict_set_str(I->a, snap->locals, used.v[i], v) ||
		    sdprint_nodes(I, v, &nodes, &nn, &nodecap, 0))
			return dalic_pyeval_oom(I, e);
	}
	snap->lnames = names;
	snap->nlnames = nl;
	if (S->nprints == S->capprints) {
		int cap = S->capprints ? 2 * S->capprints : 8;
		sdprint_t *v = dalic_pyarena_alloc(I->a, sizeof *v * (size_t)cap);
		if (!v)
			return dalic_pyeval_oom(I, e);
		if (S->nprints)
			memcpy(v, S->prints, sizeof *v * (size_t)S->nprints);
		S->prints = v;
		S->capprints = cap;
	}
	S->prints[S->nprints] = (sdprint_t){.call = e, .frame = snap};
	dalic_srcpos_t pos = {.file = I->src->path, .line = e->line, .col = e->col};
	if (dalic_graphdef_add_print(pipe->def, "", nn, nodes, false, pos))
		return dalic_pyeval_relocate(I, e, DALIC_ENOMEM);
	pipe->def->prints[pipe->def->num_prints - 1].eval = S->nprints++;
	return DALIC_OK;
}

int dalic_sdprint_call(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t *fn, bool *taken,
                       pyval_t **out)
{
	sdstate_t *S = dalic_sdali_state(I);
	sdpipe_t *pipe = S->tracing ? dalic_sdali_current(I) : NULL;
	if (!pipe || !pipe->def->debug || fn->kind != PV_BUILTIN ||
	    fn != dalic_pydict_get_str(I->builtins, "print"))
		return DALIC_OK;
	bool simple = true;
	for (int i = 0; simple && i < e->call.args.n; i++)
		simple = sdprint_simple(e->call.args.v[i]);
	for (int i = 0; simple && i < e->call.kwargs.n; i++)
		simple = sdprint_simple(e->call.kwargs.v[i]);
	if (simple)
		return DALIC_OK;
	*taken = true;
	*out = dalic_pyval_none();
	return sdprint_record(I, F, e, pipe);
}

/* ---- rendering ------------------------------------------------------------------------ */

/* One argument's text: data nodes as debug mode prints them, anything else as str(). */
static int sdprint_text(pyinterp_t *I, const pynode_t *at, const dalic_print_env_t *env,
                        pyval_t *v, pybuf_t *b)
{
	sdnode_t *n = dalic_sdval_node(v);
	if (n) {
		const dalic_batch_t *batch = env->batch(env->ctx, n->name);
		char *t = batch ? env->format(env->ctx, batch, n->name) : NULL;
		if (!t)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "RuntimeError: DataNode \"%s\" has no data in this "
			                          "iteration",
			                          n->name);
		dalic_pybuf_puts(b, t);
		free(t);
		return DALIC_OK;
	}
	if (v->kind == PV_OPAQUE)
		return dalic_pyeval_opaque_error(I, at, v, "print()");
	pyval_t *s;
	DALIC_TRY(dalic_pyeval_str(I, at, v, false, &s));
	dalic_pybuf_put(b, s->str.s, s->str.len);
	return DALIC_OK;
}

/* The traced names for this iteration: a `t = node.get()` reads this iteration's TensorList. */
static int sdprint_frame(pyinterp_t *I, const sdprint_t *p, pyframe_t **out)
{
	pyframe_t *f = dalic_pyexec_new_frame(I, FR_SCOPE, I->globals);
	if (!f)
		return dalic_pyeval_oom(I, p->call);
	f->lnames = p->frame->lnames;
	f->nlnames = p->frame->nlnames;
	pyval_t *k, *v;
	for (int it = 0; dalic_pydict_next(p->frame->locals, &it, &k, &v);) {
		const sdnode_t *n = dalic_sdval_node(v);
		if (n && n->get)
			DALIC_TRY(dalic_sdtensor_get(I, p->call, n->name, &v));
		if (dalic_pydict_set(I->a, f->locals, k, v))
			return dalic_pyeval_oom(I, p->call);
	}
	*out = f;
	return DALIC_OK;
}

static int sdprint_eval(pyinterp_t *I, const sdprint_t *p, const dalic_print_env_t *env,
                        pybuf_t *b)
{
	const pynode_t *e = p->call;
	pyframe_t *frame = NULL;
	DALIC_TRY(sdprint_frame(I, p, &frame));
	pyval_t *sep = NULL, *end = NULL;
	for (int i = 0; i < e->call.kwargs.n; i++) {
		const pynode_t *k = e->call.kwargs.v[i];
		pyval_t *v;
		DALIC_TRY(dalic_pyeval_expr(I, frame, k->kw.value, &v));
		if (k->kw.arg && !strcmp(k->kw.arg, "sep"))
			sep = v;
		else if (k->kw.arg && !strcmp(k->kw.arg, "end"))
			end = v;
	}
	int count = 0;
	for (int i = 0; i < e->call.args.n; i++) {
		const pynode_t *a = e->call.args.v[i];
		pyval_t *v, **items = &v;
		int n = 1;
		DALIC_TRY(dalic_pyeval_expr(I, frame, a->kind == N_STARRED ? a->starred.value : a,
		                            &v));
		if (a->kind == N_STARRED)
			DALIC_TRY(dalic_pybi_items(I, a, v, &items, &n));
		for (int k = 0; k < n; k++, count++) {
			if (count)
				dalic_pybuf_put(b, sep && sep->kind == PV_STR ? sep->str.s : " ",
				                sep && sep->kind == PV_STR ? sep->str.len : 1);
			DALIC_TRY(sdprint_text(I, a, env, items[k], b));
		}
	}
	if (end && end->kind == PV_STR)
		dalic_pybuf_put(b, end->str.s, end->str.len);
	else
		dalic_pybuf_puts(b, "\n");
	return DALIC_OK;
}

int dalic_sdprint_render(dalic_shared_t *s, int index, const dalic_print_env_t *env, char **text)
{
	sdruntime_t *rt = (sdruntime_t *)s;
	pyinterp_t *I = rt->I;
	sdstate_t *S = dalic_sdali_state(I);
	*text = NULL;
	if (index < 0 || index >= S->nprints)
		return dalic_fail(DALIC_EINVAL, "no print record %d", index);
	sdcall_t c = {0};
	dalic_sdruntime_begin(rt, &c);
	S->replay = env;
	pybuf_t b = {0};
	int rc = sdprint_eval(I, &S->prints[index], env, &b);
	S->replay = NULL;
	if (!rc && b.oom)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	if (!rc && !(*text = malloc(b.n + 1)))
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	if (!rc) {
		if (b.n)
			memcpy(*text, b.s, b.n);
		(*text)[b.n] = 0;
	}
	dalic_pybuf_free(&b);
	dalic_sdruntime_end(rt, &c);
	return rc;
}
