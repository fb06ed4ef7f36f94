/*
 * Liveness of variables around `if` statements, as AutoGraph computes it before DALI lowers
 * an `if` on a DataNode (docs/dali-behaviour.md §5): the variables merged after the `if` are those
 * modified in either branch and live after it, in name order; variables modified and live
 * into the `if` but dead after it are restored, not merged. A classic backward data-flow over
 * the structured body: loops iterate to a fixpoint, `break` / `continue` jump to the loop's
 * exit / header, and a function that returns anywhere has AutoGraph's two return variables
 * (`do_return`, `retval_`) live at its end — a `return` inside a branch modifies them.
 */
#include "frontend/script/py/pyscope.h"

#include "dalic.h"

#include <string.h>

#define DO_RETURN "do_return"
#define RETVAL "retval_"

typedef struct loop_ctx {
	pynameset_t exit, header;
	struct loop_ctx *up;
} loop_ctx_t;

typedef struct live {
	pyarena_t *a;
	bool ok;
	pynameset_t exit;    /* live at function end */
	pynameset_t globals; /* never merged */
	loop_ctx_t *loop;
} live_t;

static pynameset_t pyscope_block_in(live_t *L, pynode_list_t *b, pynameset_t out);

static pynameset_t pyscope_uses(live_t *L, const pynode_t *e, pynameset_t acc)
{
	return dalic_pyscope_used_names(L->a, e, acc, &L->ok);
}

/* Reads inside assignment targets: subscript and attribute bases, index expressions. */
static pynameset_t pyscope_target_uses(live_t *L, const pynode_t *t, pynameset_t acc)
{
	if (!t)
		return acc;
	switch (t->kind) {
	case N_ATTR:
		return pyscope_uses(L, t->attr.value, acc);
	case N_SUBSCRIPT:
		return pyscope_uses(L, t->sub.index, pyscope_uses(L, t->sub.value, acc));
	case N_STARRED:
		return pyscope_target_uses(L, t->starred.value, acc);
	case N_TUPLE:
	case N_LIST:
		for (int i = 0; i < t->elts.n; i++)
			acc = pyscope_target_uses(L, t->elts.v[i], acc);
		return acc;
	default:
		return acc;
	}
}

static pynameset_t pyscope_defs(live_t *L, const pynode_t *t)
{
	return dalic_pyscope_target_names(L->a, t, (pynameset_t){0}, &L->ok);
}

static int pyscope_record_if(live_t *L, pynode_t *s, pynameset_t live_in, pynameset_t live_out)
{
	pynameset_t modified = dalic_pyscope_bound_names(L->a, &s->if_.body, &L->ok);
	modified = dalic_pyscope_set_union(
	    L->a, modified, dalic_pyscope_bound_names(L->a, &s->if_.orelse, &L->ok), &L->ok);
	bool has_return = dalic_pyscope_block_has_return(&s->if_.body) ||
	                  dalic_pyscope_block_has_return(&s->if_.orelse);
	if (has_return) {
		modified = dalic_pyscope_set_add(L->a, modified, DO_RETURN, &L->ok);
		modified = dalic_pyscope_set_add(L->a, modified, RETVAL, &L->ok);
	}
	modified = dalic_pyscope_set_minus(L->a, modified, L->globals, &L->ok);
	pynameset_t outputs = dalic_pyscope_set_inter(L->a, modified, live_out, &L->ok);
	pynameset_t inputs_only = dalic_pyscope_set_minus(
	    L->a, dalic_pyscope_set_inter(L->a, modified, live_in, &L->ok), live_out, &L->ok);
	/* composites are outputs whenever their root is live into the if (AutoGraph) */
	pyscope_composites_t comp = {0};
	dalic_pyscope_composites(L->a, &s->if_.body, &comp, &L->ok);
	dalic_pyscope_composites(L->a, &s->if_.orelse, &comp, &L->ok);
	for (int i = 0; i < comp.n; i++)
		if (dalic_pyscope_set_has(live_in, comp.roots[i]) &&
		    !dalic_pyscope_set_has(L->globals, comp.roots[i]))
			outputs = dalic_pyscope_set_add(L->a, outputs, comp.names[i], &L->ok);
	const pynode_t **targets =
	    dalic_pyarena_alloc(L->a, sizeof *targets * (size_t)(outputs.n + 1));
	if (!targets)
		return DALIC_ENOMEM;
	for (int i = 0; i < outputs.n; i++) {
		targets[i] = NULL;
		for (int k = 0; k < comp.n && !targets[i]; k++)
			if (!strcmp(comp.names[k], outputs.v[i]))
				targets[i] = comp.targets[k];
	}
	pyif_info_t *info = s->if_.info;
	if (!info)
		info = s->if_.info = dalic_pyarena_alloc(L->a, sizeof *info);
	if (!info || !L->ok)
		return DALIC_ENOMEM;
	info->outputs = outputs.v;
	info->noutputs = outputs.n;
	info->output_targets = targets;
	info->inputs_only = inputs_only.v;
	info->ninputs_only = inputs_only.n;
	info->has_return = has_return;
	return DALIC_OK;
}

static pynameset_t pyscope_loop_in(live_t *L, pynode_list_t *body, pynode_list_t *orelse,
                                   pynameset_t out, const pynode_t *target, const pynode_t *test)
{
	/* header = (orelse entry) + (body entry - target) + test reads; iterate to fixpoint */
	pynameset_t after_loop = pyscope_block_in(L, orelse, out);
	pynameset_t header = after_loop;
	if (test)
		header = pyscope_uses(L, test, header);
	for (int iter = 0; iter < 16 && L->ok; iter++) {
		loop_ctx_t ctx = {.exit = out, .header = header, .up = L->loop};
		L->loop = &ctx;
		pynameset_t body_in = pyscope_block_in(L, body, header);
		L->loop = ctx.up;
		if (target)
			body_in = pyscope_target_uses(
			    L, target,
			    dalic_pyscope_set_minus(L->a, body_in, pyscope_defs(L, target),
			                            &L->ok));
		pynameset_t next = dalic_pyscope_set_union(L->a, after_loop, body_in, &L->ok);
		if (test)
			next = pyscope_uses(L, test, next);
		if (dalic_pyscope_set_equal(next, header))
			break;
		header = next;
	}
	return header;
}

static pynameset_t pyscope_stmt_in(live_t *L, pynode_t *s, pynameset_t out)
{
	pyarena_t *a = L->a;
	bool *ok = &L->ok;
	switch (s->kind) {
	case S_EXPR:
		return pyscope_uses(L, s->expr.value, out);
	case S_ASSIGN: {
		pynameset_t killed = {0};
		for (int i = 0; i < s->assign.targets.n; i++)
			killed = dalic_pyscope_set_union(
			    a, killed, pyscope_defs(L, s->assign.targets.v[i]), ok);
		pynameset_t r = dalic_pyscope_set_minus(a, out, killed, ok);
		for (int i = 0; i < s->assign.targets.n; i++)
			r = pyscope_target_uses(L, s->assign.targets.v[i], r);
		return pyscope_uses(L, s->assign.value, r);
	}
	case S_AUGASSIGN:
		return pyscope_uses(L, s->aug.value, pyscope_uses(L, s->aug.target, out));
	case S_ANNASSIGN:
		if (!s->ann.value)
			return out;
		return pyscope_uses(
		    L, s->ann.value,
		    pyscope_target_uses(
		        L, s->ann.target,
		        dalic_pyscope_set_minus(a, out, pyscope_defs(L, s->ann.target), ok)));
	case S_IF: {
		pynameset_t body = pyscope_block_in(L, &s->if_.body, out);
		pynameset_t orelse = pyscope_block_in(L, &s->if_.orelse, out);
		pynameset_t in =
		    pyscope_uses(L, s->if_.test, dalic_pyscope_set_union(a, body, orelse, ok));
		if (pyscope_record_if(L, s, in, out))
			L->ok = false;
		return in;
	}
	case S_FOR:
		return pyscope_uses(
		    L, s->for_.iter,
		    pyscope_loop_in(L, &s->for_.body, &s->for_.orelse, out, s->for_.target, NULL));
	case S_WHILE:
		return pyscope_loop_in(L, &s->while_.body, &s->while_.orelse, out, NULL,
		                       s->while_.test);
	case S_BREAK:
		return L->loop ? L->loop->exit : out;
	case S_CONTINUE:
		return L->loop ? L->loop->header : out;
	case S_RETURN:
		return pyscope_uses(L, s->ret.value, (pynameset_t){0});
	case S_RAISE:
		return pyscope_uses(L, s->raise.cause,
		                    pyscope_uses(L, s->raise.exc, (pynameset_t){0}));
	case S_DEF: {
		/* a nested function reads (at call time) whatever its body mentions */
		pynameset_t r = dalic_pyscope_set_minus(
		    a, out, dalic_pyscope_set_add(a, (pynameset_t){0}, s->def.name, ok), ok);
		for (int i = 0; i < s->def.params.n; i++)
			r = pyscope_uses(L, s->def.params.v[i].def, r);
		for (int i = 0; i < s->def.decorators.n; i++)
			r = pyscope_uses(L, s->def.decorators.v[i], r);
		pynameset_t params = {0};
		for (int i = 0; i < s->def.params.n; i++)
			params = dalic_pyscope_set_add(a, params, s->def.params.v[i].name, ok);
		pynameset_t body_reads =
		    dalic_pyscope_block_used_names(a, &s->def.body, (pynameset_t){0}, ok);
		return dalic_pyscope_set_union(
		    a, r, dalic_pyscope_set_minus(a, body_reads, params, ok), ok);
	}
	case S_CLASS: {
		pynameset_t r = dalic_pyscope_set_minus(
		    a, out, dalic_pyscope_set_add(a, (pynameset_t){0}, s->cls.name, ok), ok);
		for (int i = 0; i < s->cls.bases.n; i++)
			r = pyscope_uses(L, s->cls.bases.v[i], r);
		for (int i = 0; i < s->cls.decorators.n; i++)
			r = pyscope_uses(L, s->cls.decorators.v[i], r);
		return r;
	}
	case S_IMPORT:
	case S_IMPORTFROM: {
		pynode_list_t one = {&s, 1};
		return dalic_pyscope_set_minus(a, out, dalic_pyscope_bound_names(a, &one, ok), ok);
	}
	case S_WITH: {
		pynameset_t r = pyscope_block_in(L, &s->with.body, out);
		for (int i = s->with.vars.n - 1; i >= 0; i--)
			r = pyscope_target_uses(
			    L, s->with.vars.v[i],
			    dalic_pyscope_set_minus(a, r, pyscope_defs(L, s->with.vars.v[i]), ok));
		for (int i = 0; i < s->with.items.n; i++)
			r = pyscope_uses(L, s->with.items.v[i], r);
		return r;
	}
	case S_TRY: {
		pynameset_t fin = pyscope_block_in(L, &s->try_.finalbody, out);
		pynameset_t r =
		    pyscope_block_in(L, &s->try_.body, pyscope_block_in(L, &s->try_.orelse, fin));
		for (int i = 0; i < s->try_.nhandlers; i++) {
			const pyhandler_t *h = &s->try_.handlers[i];
			pynameset_t hin = pyscope_block_in(L, (pynode_list_t *)&h->body, fin);
			if (h->name)
				hin = dalic_pyscope_set_minus(
				    a, hin, dalic_pyscope_set_add(a, (pynameset_t){0}, h->name, ok),
				    ok);
			r = pyscope_uses(L, h->type, dalic_pyscope_set_union(a, r, hin, ok));
		}
		return r;
	}
	case S_DEL: {
		pynameset_t r = out;
		for (int i = 0; i < s->del.targets.n; i++)
			r = pyscope_target_uses(
			    L, s->del.targets.v[i],
			    dalic_pyscope_set_minus(a, r, pyscope_defs(L, s->del.targets.v[i]),
			                            ok));
		return r;
	}
	case S_ASSERT:
		return pyscope_uses(L, s->assert_.msg, pyscope_uses(L, s->assert_.test, out));
	default:
		return out;
	}
}

static pynameset_t pyscope_block_in(live_t *L, pynode_list_t *b, pynameset_t out)
{
	pynameset_t live = out;
	for (int i = b->n - 1; i >= 0 && L->ok; i--)
		live = pyscope_stmt_in(L, b->v[i], live);
	return live;
}

int dalic_pyscope_liveness(pyarena_t *a, pynode_t *def)
{
	live_t L = {.a = a, .ok = true};
	pyfunc_info_t *info = def->def.info;
	L.globals.v = info->globals;
	L.globals.n = info->nglobals;
	if (info->uses_return) {
		L.exit = dalic_pyscope_set_add(a, L.exit, DO_RETURN, &L.ok);
		L.exit = dalic_pyscope_set_add(a, L.exit, RETVAL, &L.ok);
	}
	pyscope_block_in(&L, &def->def.body, L.exit);
	return L.ok ? DALIC_OK : DALIC_ENOMEM;
}
