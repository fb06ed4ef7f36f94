/*
 * Liveness of variables around `if` statements, as AutoGraph computes it before DALI lowers
 * an `if` on a DataNode (reference §5): the variables merged after the `if` are those
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
	nset_t exit, header;
	struct loop_ctx *up;
} loop_ctx_t;

typedef struct live {
	script_arena_t *a;
	bool ok;
	nset_t exit;    /* live at function end */
	nset_t globals; /* never merged */
	loop_ctx_t *loop;
} live_t;

static nset_t block_in(live_t *L, snode_list_t *b, nset_t out);

static nset_t uses(live_t *L, const snode_t *e, nset_t acc)
{
	return script_used_names(L->a, e, acc, &L->ok);
}

/* Reads inside assignment targets: subscript and attribute bases, index expressions. */
static nset_t target_uses(live_t *L, const snode_t *t, nset_t acc)
{
	if (!t)
		return acc;
	switch (t->kind) {
	case N_ATTR:
		return uses(L, t->attr.value, acc);
	case N_SUBSCRIPT:
		return uses(L, t->sub.index, uses(L, t->sub.value, acc));
	case N_STARRED:
		return target_uses(L, t->starred.value, acc);
	case N_TUPLE:
	case N_LIST:
		for (int i = 0; i < t->elts.n; i++)
			acc = target_uses(L, t->elts.v[i], acc);
		return acc;
	default:
		return acc;
	}
}

static nset_t defs(live_t *L, const snode_t *t)
{
	return script_target_names(L->a, t, (nset_t){0}, &L->ok);
}

static int record_if(live_t *L, snode_t *s, nset_t live_in, nset_t live_out)
{
	nset_t modified = script_bound_names(L->a, &s->if_.body, &L->ok);
	modified =
	    nset_union(L->a, modified, script_bound_names(L->a, &s->if_.orelse, &L->ok), &L->ok);
	bool has_return =
	    script_block_has_return(&s->if_.body) || script_block_has_return(&s->if_.orelse);
	if (has_return) {
		modified = nset_add(L->a, modified, DO_RETURN, &L->ok);
		modified = nset_add(L->a, modified, RETVAL, &L->ok);
	}
	modified = nset_minus(L->a, modified, L->globals, &L->ok);
	nset_t outputs = nset_inter(L->a, modified, live_out, &L->ok);
	nset_t inputs_only =
	    nset_minus(L->a, nset_inter(L->a, modified, live_in, &L->ok), live_out, &L->ok);
	sif_info_t *info = s->if_.info;
	if (!info)
		info = s->if_.info = script_arena_alloc(L->a, sizeof *info);
	if (!info || !L->ok)
		return DALIC_ENOMEM;
	info->outputs = outputs.v;
	info->noutputs = outputs.n;
	info->inputs_only = inputs_only.v;
	info->ninputs_only = inputs_only.n;
	info->has_return = has_return;
	return DALIC_OK;
}

static nset_t loop_in(live_t *L, snode_list_t *body, snode_list_t *orelse, nset_t out,
                      const snode_t *target, const snode_t *test)
{
	/* header = (orelse entry) + (body entry - target) + test reads; iterate to fixpoint */
	nset_t after_loop = block_in(L, orelse, out);
	nset_t header = after_loop;
	if (test)
		header = uses(L, test, header);
	for (int iter = 0; iter < 16 && L->ok; iter++) {
		loop_ctx_t ctx = {.exit = out, .header = header, .up = L->loop};
		L->loop = &ctx;
		nset_t body_in = block_in(L, body, header);
		L->loop = ctx.up;
		if (target)
			body_in = target_uses(L, target,
			                      nset_minus(L->a, body_in, defs(L, target), &L->ok));
		nset_t next = nset_union(L->a, after_loop, body_in, &L->ok);
		if (test)
			next = uses(L, test, next);
		if (nset_equal(next, header))
			break;
		header = next;
	}
	return header;
}

static nset_t stmt_in(live_t *L, snode_t *s, nset_t out)
{
	script_arena_t *a = L->a;
	bool *ok = &L->ok;
	switch (s->kind) {
	case S_EXPR:
		return uses(L, s->expr.value, out);
	case S_ASSIGN: {
		nset_t killed = {0};
		for (int i = 0; i < s->assign.targets.n; i++)
			killed = nset_union(a, killed, defs(L, s->assign.targets.v[i]), ok);
		nset_t r = nset_minus(a, out, killed, ok);
		for (int i = 0; i < s->assign.targets.n; i++)
			r = target_uses(L, s->assign.targets.v[i], r);
		return uses(L, s->assign.value, r);
	}
	case S_AUGASSIGN:
		return uses(L, s->aug.value, uses(L, s->aug.target, out));
	case S_ANNASSIGN:
		if (!s->ann.value)
			return out;
		return uses(
		    L, s->ann.value,
		    target_uses(L, s->ann.target, nset_minus(a, out, defs(L, s->ann.target), ok)));
	case S_IF: {
		nset_t body = block_in(L, &s->if_.body, out);
		nset_t orelse = block_in(L, &s->if_.orelse, out);
		nset_t in = uses(L, s->if_.test, nset_union(a, body, orelse, ok));
		if (record_if(L, s, in, out))
			L->ok = false;
		return in;
	}
	case S_FOR:
		return uses(L, s->for_.iter,
		            loop_in(L, &s->for_.body, &s->for_.orelse, out, s->for_.target, NULL));
	case S_WHILE:
		return loop_in(L, &s->while_.body, &s->while_.orelse, out, NULL, s->while_.test);
	case S_BREAK:
		return L->loop ? L->loop->exit : out;
	case S_CONTINUE:
		return L->loop ? L->loop->header : out;
	case S_RETURN:
		return uses(L, s->ret.value, (nset_t){0});
	case S_RAISE:
		return uses(L, s->raise.cause, uses(L, s->raise.exc, (nset_t){0}));
	case S_DEF: {
		/* a nested function reads (at call time) whatever its body mentions */
		nset_t r = nset_minus(a, out, nset_add(a, (nset_t){0}, s->def.name, ok), ok);
		for (int i = 0; i < s->def.params.n; i++)
			r = uses(L, s->def.params.v[i].def, r);
		for (int i = 0; i < s->def.decorators.n; i++)
			r = uses(L, s->def.decorators.v[i], r);
		nset_t params = {0};
		for (int i = 0; i < s->def.params.n; i++)
			params = nset_add(a, params, s->def.params.v[i].name, ok);
		nset_t body_reads = script_block_used_names(a, &s->def.body, (nset_t){0}, ok);
		return nset_union(a, r, nset_minus(a, body_reads, params, ok), ok);
	}
	case S_CLASS: {
		nset_t r = nset_minus(a, out, nset_add(a, (nset_t){0}, s->cls.name, ok), ok);
		for (int i = 0; i < s->cls.bases.n; i++)
			r = uses(L, s->cls.bases.v[i], r);
		for (int i = 0; i < s->cls.decorators.n; i++)
			r = uses(L, s->cls.decorators.v[i], r);
		return r;
	}
	case S_IMPORT:
	case S_IMPORTFROM: {
		snode_list_t one = {&s, 1};
		return nset_minus(a, out, script_bound_names(a, &one, ok), ok);
	}
	case S_WITH: {
		nset_t r = block_in(L, &s->with.body, out);
		for (int i = s->with.vars.n - 1; i >= 0; i--)
			r = target_uses(L, s->with.vars.v[i],
			                nset_minus(a, r, defs(L, s->with.vars.v[i]), ok));
		for (int i = 0; i < s->with.items.n; i++)
			r = uses(L, s->with.items.v[i], r);
		return r;
	}
	case S_TRY: {
		nset_t fin = block_in(L, &s->try_.finalbody, out);
		nset_t r = block_in(L, &s->try_.body, block_in(L, &s->try_.orelse, fin));
		for (int i = 0; i < s->try_.nhandlers; i++) {
			const shandler_t *h = &s->try_.handlers[i];
			nset_t hin = block_in(L, (snode_list_t *)&h->body, fin);
			if (h->name)
				hin = nset_minus(a, hin, nset_add(a, (nset_t){0}, h->name, ok), ok);
			r = uses(L, h->type, nset_union(a, r, hin, ok));
		}
		return r;
	}
	case S_DEL: {
		nset_t r = out;
		for (int i = 0; i < s->del.targets.n; i++)
			r = target_uses(L, s->del.targets.v[i],
			                nset_minus(a, r, defs(L, s->del.targets.v[i]), ok));
		return r;
	}
	case S_ASSERT:
		return uses(L, s->assert_.msg, uses(L, s->assert_.test, out));
	default:
		return out;
	}
}

static nset_t block_in(live_t *L, snode_list_t *b, nset_t out)
{
	nset_t live = out;
	for (int i = b->n - 1; i >= 0 && L->ok; i--)
		live = stmt_in(L, b->v[i], live);
	return live;
}

int script_liveness_function(script_arena_t *a, snode_t *def)
{
	live_t L = {.a = a, .ok = true};
	sfunc_info_t *info = def->def.info;
	L.globals.v = info->globals;
	L.globals.n = info->nglobals;
	if (info->uses_return) {
		L.exit = nset_add(a, L.exit, DO_RETURN, &L.ok);
		L.exit = nset_add(a, L.exit, RETVAL, &L.ok);
	}
	block_in(&L, &def->def.body, L.exit);
	return L.ok ? DALIC_OK : DALIC_ENOMEM;
}
