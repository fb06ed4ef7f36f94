/*
 * Name sets and the syntactic name collectors behind the scope and liveness analyses (see
 * pyscope.h). Sets are sorted arrays, so union / difference are linear merges.
 */
#include "frontend/script/py/pyscope.h"

#include <string.h>

static pynameset_t pyscope_fail(bool *ok)
{
	*ok = false;
	return (pynameset_t){0};
}

static const char **pyscope_alloc_names(pyarena_t *a, int n)
{
	return dalic_pyarena_alloc(a, sizeof(const char *) * (size_t)(n ? n : 1));
}

bool dalic_pyscope_set_has(pynameset_t s, const char *name)
{
	int lo = 0, hi = s.n;
	while (lo < hi) {
		int mid = (lo + hi) / 2, c = strcmp(s.v[mid], name);
		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool dalic_pyscope_set_equal(pynameset_t x, pynameset_t y)
{
	if (x.n != y.n)
		return false;
	for (int i = 0; i < x.n; i++)
		if (strcmp(x.v[i], y.v[i]))
			return false;
	return true;
}

pynameset_t dalic_pyscope_set_add(pyarena_t *a, pynameset_t s, const char *name, bool *ok)
{
	if (dalic_pyscope_set_has(s, name))
		return s;
	pynameset_t r = {pyscope_alloc_names(a, s.n + 1), 0};
	if (!r.v)
		return pyscope_fail(ok);
	int i = 0;
	while (i < s.n && strcmp(s.v[i], name) < 0)
		r.v[r.n++] = s.v[i++];
	r.v[r.n++] = name;
	while (i < s.n)
		r.v[r.n++] = s.v[i++];
	return r;
}

/* mode 0: union, 1: x minus y, 2: intersection */
static pynameset_t pyscope_merge(pyarena_t *a, pynameset_t x, pynameset_t y, int mode, bool *ok)
{
	if (mode == 0 && !y.n)
		return x;
	if (mode == 0 && !x.n)
		return y;
	if (mode == 1 && (!y.n || !x.n))
		return x;
	pynameset_t r = {pyscope_alloc_names(a, x.n + y.n), 0};
	if (!r.v)
		return pyscope_fail(ok);
	int i = 0, j = 0;
	while (i < x.n || j < y.n) {
		int c = i >= x.n ? 1 : j >= y.n ? -1 : strcmp(x.v[i], y.v[j]);
		if (c < 0) {
			if (mode != 2)
				r.v[r.n++] = x.v[i];
			i++;
		} else if (c > 0) {
			if (mode == 0)
				r.v[r.n++] = y.v[j];
			j++;
		} else {
			if (mode != 1)
				r.v[r.n++] = x.v[i];
			i++;
			j++;
		}
	}
	return r;
}

pynameset_t dalic_pyscope_set_union(pyarena_t *a, pynameset_t x, pynameset_t y, bool *ok)
{
	return pyscope_merge(a, x, y, 0, ok);
}

pynameset_t dalic_pyscope_set_minus(pyarena_t *a, pynameset_t x, pynameset_t y, bool *ok)
{
	return pyscope_merge(a, x, y, 1, ok);
}

pynameset_t dalic_pyscope_set_inter(pyarena_t *a, pynameset_t x, pynameset_t y, bool *ok)
{
	return pyscope_merge(a, x, y, 2, ok);
}

pynameset_t dalic_pyscope_target_names(pyarena_t *a, const pynode_t *t, pynameset_t acc, bool *ok)
{
	if (!t)
		return acc;
	switch (t->kind) {
	case N_NAME:
		return dalic_pyscope_set_add(a, acc, t->name, ok);
	case N_STARRED:
		return dalic_pyscope_target_names(a, t->starred.value, acc, ok);
	case N_TUPLE:
	case N_LIST:
		for (int i = 0; i < t->elts.n; i++)
			acc = dalic_pyscope_target_names(a, t->elts.v[i], acc, ok);
		return acc;
	default:
		return acc;
	}
}

static pynameset_t pyscope_bound_stmt(pyarena_t *a, const pynode_t *s, pynameset_t acc, bool *ok);

static pynameset_t pyscope_bound_block(pyarena_t *a, const pynode_list_t *b, pynameset_t acc,
                                       bool *ok)
{
	for (int i = 0; i < b->n; i++)
		acc = pyscope_bound_stmt(a, b->v[i], acc, ok);
	return acc;
}

static const char *pyscope_first_component(pyarena_t *a, const char *dotted, bool *ok)
{
	const char *dot = strchr(dotted, '.');
	if (!dot)
		return dotted;
	const char *r = dalic_pyarena_strndup(a, dotted, (size_t)(dot - dotted));
	if (!r)
		*ok = false;
	return r ? r : "";
}

static pynameset_t pyscope_bound_stmt(pyarena_t *a, const pynode_t *s, pynameset_t acc, bool *ok)
{
	switch (s->kind) {
	case S_ASSIGN:
		for (int i = 0; i < s->assign.targets.n; i++)
			acc = dalic_pyscope_target_names(a, s->assign.targets.v[i], acc, ok);
		return acc;
	case S_AUGASSIGN:
		return dalic_pyscope_target_names(a, s->aug.target, acc, ok);
	case S_ANNASSIGN:
		return dalic_pyscope_target_names(a, s->ann.target, acc, ok);
	case S_FOR:
		acc = dalic_pyscope_target_names(a, s->for_.target, acc, ok);
		acc = pyscope_bound_block(a, &s->for_.body, acc, ok);
		return pyscope_bound_block(a, &s->for_.orelse, acc, ok);
	case S_WHILE:
		acc = pyscope_bound_block(a, &s->while_.body, acc, ok);
		return pyscope_bound_block(a, &s->while_.orelse, acc, ok);
	case S_IF:
		acc = pyscope_bound_block(a, &s->if_.body, acc, ok);
		return pyscope_bound_block(a, &s->if_.orelse, acc, ok);
	case S_WITH:
		for (int i = 0; i < s->with.vars.n; i++)
			acc = dalic_pyscope_target_names(a, s->with.vars.v[i], acc, ok);
		return pyscope_bound_block(a, &s->with.body, acc, ok);
	case S_TRY:
		acc = pyscope_bound_block(a, &s->try_.body, acc, ok);
		for (int i = 0; i < s->try_.nhandlers; i++) {
			if (s->try_.handlers[i].name)
				acc = dalic_pyscope_set_add(a, acc, s->try_.handlers[i].name, ok);
			acc = pyscope_bound_block(a, &s->try_.handlers[i].body, acc, ok);
		}
		acc = pyscope_bound_block(a, &s->try_.orelse, acc, ok);
		return pyscope_bound_block(a, &s->try_.finalbody, acc, ok);
	case S_DEF:
		return dalic_pyscope_set_add(a, acc, s->def.name, ok);
	case S_CLASS:
		return dalic_pyscope_set_add(a, acc, s->cls.name, ok);
	case S_IMPORT:
		for (int i = 0; i < s->import.n; i++) {
			const pyalias_t *al = &s->import.names[i];
			acc = dalic_pyscope_set_add(
			    a, acc,
			    al->asname ? al->asname : pyscope_first_component(a, al->name, ok), ok);
		}
		return acc;
	case S_IMPORTFROM:
		for (int i = 0; i < s->from.n; i++) {
			const pyalias_t *al = &s->from.names[i];
			acc = dalic_pyscope_set_add(a, acc, al->asname ? al->asname : al->name, ok);
		}
		return acc;
	case S_DEL:
		for (int i = 0; i < s->del.targets.n; i++)
			acc = dalic_pyscope_target_names(a, s->del.targets.v[i], acc, ok);
		return acc;
	default:
		return acc;
	}
}

pynameset_t dalic_pyscope_bound_names(pyarena_t *a, const pynode_list_t *body, bool *ok)
{
	return pyscope_bound_block(a, body, (pynameset_t){0}, ok);
}

static pynameset_t pyscope_uses_list(pyarena_t *a, const pynode_list_t *l, pynameset_t acc,
                                     bool *ok)
{
	for (int i = 0; i < l->n; i++)
		acc = dalic_pyscope_used_names(a, l->v[i], acc, ok);
	return acc;
}

static pynameset_t pyscope_uses_stmt_list(pyarena_t *a, const pynode_list_t *b, pynameset_t acc,
                                          bool *ok);

pynameset_t dalic_pyscope_block_used_names(pyarena_t *a, const pynode_list_t *b, pynameset_t acc,
                                           bool *ok)
{
	return pyscope_uses_stmt_list(a, b, acc, ok);
}

/* Names read anywhere in a statement (used for nested function and class bodies, where
 * precision does not matter: they are treated as reading everything they mention). */
static pynameset_t pyscope_uses_stmt(pyarena_t *a, const pynode_t *s, pynameset_t acc, bool *ok)
{
	switch (s->kind) {
	case S_EXPR:
		return dalic_pyscope_used_names(a, s->expr.value, acc, ok);
	case S_ASSIGN:
		acc = pyscope_uses_list(a, &s->assign.targets, acc, ok);
		return dalic_pyscope_used_names(a, s->assign.value, acc, ok);
	case S_AUGASSIGN:
		acc = dalic_pyscope_used_names(a, s->aug.target, acc, ok);
		return dalic_pyscope_used_names(a, s->aug.value, acc, ok);
	case S_ANNASSIGN:
		return dalic_pyscope_used_names(a, s->ann.value, acc, ok);
	case S_IF:
		acc = dalic_pyscope_used_names(a, s->if_.test, acc, ok);
		acc = pyscope_uses_stmt_list(a, &s->if_.body, acc, ok);
		return pyscope_uses_stmt_list(a, &s->if_.orelse, acc, ok);
	case S_FOR:
		acc = dalic_pyscope_used_names(a, s->for_.iter, acc, ok);
		acc = pyscope_uses_stmt_list(a, &s->for_.body, acc, ok);
		return pyscope_uses_stmt_list(a, &s->for_.orelse, acc, ok);
	case S_WHILE:
		acc = dalic_pyscope_used_names(a, s->while_.test, acc, ok);
		acc = pyscope_uses_stmt_list(a, &s->while_.body, acc, ok);
		return pyscope_uses_stmt_list(a, &s->while_.orelse, acc, ok);
	case S_RETURN:
		return dalic_pyscope_used_names(a, s->ret.value, acc, ok);
	case S_DEF:
		acc = pyscope_uses_list(a, &s->def.decorators, acc, ok);
		for (int i = 0; i < s->def.params.n; i++)
			acc = dalic_pyscope_used_names(a, s->def.params.v[i].def, acc, ok);
		return pyscope_uses_stmt_list(a, &s->def.body, acc, ok);
	case S_CLASS:
		acc = pyscope_uses_list(a, &s->cls.bases, acc, ok);
		acc = pyscope_uses_list(a, &s->cls.decorators, acc, ok);
		return pyscope_uses_stmt_list(a, &s->cls.body, acc, ok);
	case S_WITH:
		acc = pyscope_uses_list(a, &s->with.items, acc, ok);
		return pyscope_uses_stmt_list(a, &s->with.body, acc, ok);
	case S_ASSERT:
		acc = dalic_pyscope_used_names(a, s->assert_.test, acc, ok);
		return dalic_pyscope_used_names(a, s->assert_.msg, acc, ok);
	case S_RAISE:
		acc = dalic_pyscope_used_names(a, s->raise.exc, acc, ok);
		return dalic_pyscope_used_names(a, s->raise.cause, acc, ok);
	case S_TRY:
		acc = pyscope_uses_stmt_list(a, &s->try_.body, acc, ok);
		for (int i = 0; i < s->try_.nhandlers; i++) {
			acc = dalic_pyscope_used_names(a, s->try_.handlers[i].type, acc, ok);
			acc = pyscope_uses_stmt_list(a, &s->try_.handlers[i].body, acc, ok);
		}
		acc = pyscope_uses_stmt_list(a, &s->try_.orelse, acc, ok);
		return pyscope_uses_stmt_list(a, &s->try_.finalbody, acc, ok);
	default:
		return acc;
	}
}

static pynameset_t pyscope_uses_stmt_list(pyarena_t *a, const pynode_list_t *b, pynameset_t acc,
                                          bool *ok)
{
	for (int i = 0; i < b->n; i++)
		acc = pyscope_uses_stmt(a, b->v[i], acc, ok);
	return acc;
}

static pynameset_t pyscope_used_other(pyarena_t *a, const pynode_t *e, pynameset_t acc, bool *ok);

pynameset_t dalic_pyscope_used_names(pyarena_t *a, const pynode_t *e, pynameset_t acc, bool *ok)
{
	/* chains (a + b + c, a.b.c, f()()) go along their spine in a loop: a script may hold
	 * 200k-term sums, and only the nesting off the spine is bounded by the parser */
	for (; e;) {
		switch (e->kind) {
		case N_BINOP:
			acc = dalic_pyscope_used_names(a, e->bin.right, acc, ok);
			e = e->bin.left;
			break;
		case N_CALL:
			acc = pyscope_uses_list(a, &e->call.args, acc, ok);
			acc = pyscope_uses_list(a, &e->call.kwargs, acc, ok);
			e = e->call.func;
			break;
		case N_ATTR:
			e = e->attr.value;
			break;
		case N_SUBSCRIPT:
			acc = dalic_pyscope_used_names(a, e->sub.index, acc, ok);
			e = e->sub.value;
			break;
		default:
			return pyscope_used_other(a, e, acc, ok);
		}
	}
	return acc;
}

static pynameset_t pyscope_used_other(pyarena_t *a, const pynode_t *e, pynameset_t acc, bool *ok)
{
	switch (e->kind) {
	case N_NAME:
		return dalic_pyscope_set_add(a, acc, e->name, ok);
	case N_FSTRING:
		return pyscope_uses_list(a, &e->parts, acc, ok);
	case N_FVALUE:
		acc = dalic_pyscope_used_names(a, e->fvalue.value, acc, ok);
		return dalic_pyscope_used_names(a, e->fvalue.spec, acc, ok);
	case N_TUPLE:
	case N_LIST:
	case N_SET:
		return pyscope_uses_list(a, &e->elts, acc, ok);
	case N_DICT:
		for (int i = 0; i < e->dict.keys.n; i++)
			acc = dalic_pyscope_used_names(a, e->dict.keys.v[i], acc, ok);
		return pyscope_uses_list(a, &e->dict.values, acc, ok);
	case N_UNARY:
		return dalic_pyscope_used_names(a, e->unary.operand, acc, ok);
	case N_BOOLOP:
		return pyscope_uses_list(a, &e->boolop.values, acc, ok);
	case N_COMPARE:
		acc = dalic_pyscope_used_names(a, e->cmp.left, acc, ok);
		return pyscope_uses_list(a, &e->cmp.rest, acc, ok);
	case N_KEYWORD:
		return dalic_pyscope_used_names(a, e->kw.value, acc, ok);
	case N_SLICE:
		acc = dalic_pyscope_used_names(a, e->slice.lo, acc, ok);
		acc = dalic_pyscope_used_names(a, e->slice.hi, acc, ok);
		return dalic_pyscope_used_names(a, e->slice.step, acc, ok);
	case N_STARRED:
		return dalic_pyscope_used_names(a, e->starred.value, acc, ok);
	case N_IFEXP:
		acc = dalic_pyscope_used_names(a, e->ifexp.test, acc, ok);
		acc = dalic_pyscope_used_names(a, e->ifexp.body, acc, ok);
		return dalic_pyscope_used_names(a, e->ifexp.orelse, acc, ok);
	case N_NAMEDEXPR:
		return dalic_pyscope_used_names(a, e->named.value, acc, ok);
	case N_YIELD:
	case N_YIELDFROM:
		return dalic_pyscope_used_names(a, e->yield.value, acc, ok);
	case N_LAMBDA: {
		pynameset_t params = {0}, inner = {0};
		for (int i = 0; i < e->lambda.params.n; i++) {
			acc = dalic_pyscope_used_names(a, e->lambda.params.v[i].def, acc, ok);
			params = dalic_pyscope_set_add(a, params, e->lambda.params.v[i].name, ok);
		}
		inner = dalic_pyscope_used_names(a, e->lambda.body, inner, ok);
		return dalic_pyscope_set_union(a, acc,
		                               dalic_pyscope_set_minus(a, inner, params, ok), ok);
	}
	case N_LISTCOMP:
	case N_SETCOMP:
	case N_DICTCOMP:
	case N_GENEXP: {
		/* the first iterable is evaluated outside; the rest sees the targets */
		pynameset_t targets = {0}, inner = {0};
		for (int i = 0; i < e->comp.ngens; i++) {
			const pycomp_t *g = &e->comp.gens[i];
			if (i == 0)
				acc = dalic_pyscope_used_names(a, g->iter, acc, ok);
			else
				inner = dalic_pyscope_used_names(a, g->iter, inner, ok);
			targets = dalic_pyscope_target_names(a, g->target, targets, ok);
			inner = pyscope_uses_list(a, &g->ifs, inner, ok);
		}
		inner = dalic_pyscope_used_names(a, e->comp.elt, inner, ok);
		inner = dalic_pyscope_used_names(a, e->comp.value, inner, ok);
		return dalic_pyscope_set_union(a, acc,
		                               dalic_pyscope_set_minus(a, inner, targets, ok), ok);
	}
	default:
		return acc;
	}
}

static bool pyscope_stmt_has_return(const pynode_t *s)
{
	switch (s->kind) {
	case S_RETURN:
		return true;
	case S_IF:
		return dalic_pyscope_block_has_return(&s->if_.body) ||
		       dalic_pyscope_block_has_return(&s->if_.orelse);
	case S_FOR:
		return dalic_pyscope_block_has_return(&s->for_.body) ||
		       dalic_pyscope_block_has_return(&s->for_.orelse);
	case S_WHILE:
		return dalic_pyscope_block_has_return(&s->while_.body) ||
		       dalic_pyscope_block_has_return(&s->while_.orelse);
	case S_WITH:
		return dalic_pyscope_block_has_return(&s->with.body);
	case S_TRY:
		if (dalic_pyscope_block_has_return(&s->try_.body) ||
		    dalic_pyscope_block_has_return(&s->try_.orelse) ||
		    dalic_pyscope_block_has_return(&s->try_.finalbody))
			return true;
		for (int i = 0; i < s->try_.nhandlers; i++)
			if (dalic_pyscope_block_has_return(&s->try_.handlers[i].body))
				return true;
		return false;
	default:
		return false;
	}
}

bool dalic_pyscope_block_has_return(const pynode_list_t *body)
{
	for (int i = 0; i < body->n; i++)
		if (pyscope_stmt_has_return(body->v[i]))
			return true;
	return false;
}
