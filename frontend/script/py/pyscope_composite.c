/*
 * AutoGraph's composite symbols (see pyscope.h): `d['k'] = v`, `d[0] = v`, `d['a']['b'] = v`
 * in an `if` on a DataNode make `d['k']` a variable of the statement, merged like a plain
 * one — how DALI lets branches fill a dictionary that is read after the `if`. Names are
 * spelled as AutoGraph's qualified names print (`d['k']`, `d[0]`), which orders them.
 */
#include "frontend/script/py/pyscope.h"

#include "frontend/script/py/pybuf.h"

#include <string.h>

/* The name of a composite target, its root variable in *root; NULL when t is not one. */
static const char *pyscope_composite_name(pyarena_t *a, const pynode_t *t, const char **root,
                                          bool *ok)
{
	if (t->kind == N_NAME) {
		*root = t->name;
		return t->name;
	}
	if (t->kind != N_SUBSCRIPT || (t->sub.index->kind != N_STR && t->sub.index->kind != N_INT))
		return NULL;
	const char *base = pyscope_composite_name(a, t->sub.value, root, ok);
	if (!base)
		return NULL;
	pybuf_t b = {0};
	const pynode_t *k = t->sub.index;
	if (k->kind == N_STR)
		dalic_pybuf_printf(&b, "%s['%.*s']", base, (int)k->str.len, k->str.s);
	else
		dalic_pybuf_printf(&b, "%s[%lld]", base, (long long)k->i);
	const char *r = b.oom ? NULL : dalic_pyarena_strndup(a, b.s, b.n);
	dalic_pybuf_free(&b);
	if (!r)
		*ok = false;
	return r;
}

static void pyscope_composite_add(pyarena_t *a, pyscope_composites_t *c, const pynode_t *t,
                                  bool *ok)
{
	if (t->kind == N_TUPLE || t->kind == N_LIST) {
		for (int i = 0; i < t->elts.n; i++)
			pyscope_composite_add(a, c, t->elts.v[i], ok);
		return;
	}
	if (t->kind == N_STARRED) {
		pyscope_composite_add(a, c, t->starred.value, ok);
		return;
	}
	const char *root, *name;
	if (t->kind != N_SUBSCRIPT || !(name = pyscope_composite_name(a, t, &root, ok)))
		return;
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->names[i], name))
			return;
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 8;
		const char **names = dalic_pyarena_alloc(a, sizeof *names * (size_t)cap);
		const char **roots = dalic_pyarena_alloc(a, sizeof *roots * (size_t)cap);
		const pynode_t **targets = dalic_pyarena_alloc(a, sizeof *targets * (size_t)cap);
		if (!names || !roots || !targets) {
			*ok = false;
			return;
		}
		if (c->n) {
			memcpy(names, c->names, sizeof *names * (size_t)c->n);
			memcpy(roots, c->roots, sizeof *roots * (size_t)c->n);
			memcpy(targets, c->targets, sizeof *targets * (size_t)c->n);
		}
		c->names = names;
		c->roots = roots;
		c->targets = targets;
		c->cap = cap;
	}
	c->names[c->n] = name;
	c->roots[c->n] = root;
	c->targets[c->n++] = t;
}

static void pyscope_composite_block(pyarena_t *a, const pynode_list_t *b, pyscope_composites_t *c,
                                    bool *ok)
{
	for (int i = 0; i < b->n; i++) {
		const pynode_t *s = b->v[i];
		switch (s->kind) {
		case S_ASSIGN:
			for (int k = 0; k < s->assign.targets.n; k++)
				pyscope_composite_add(a, c, s->assign.targets.v[k], ok);
			break;
		case S_AUGASSIGN:
			pyscope_composite_add(a, c, s->aug.target, ok);
			break;
		case S_ANNASSIGN:
			if (s->ann.value)
				pyscope_composite_add(a, c, s->ann.target, ok);
			break;
		case S_IF:
			pyscope_composite_block(a, &s->if_.body, c, ok);
			pyscope_composite_block(a, &s->if_.orelse, c, ok);
			break;
		case S_FOR:
			pyscope_composite_add(a, c, s->for_.target, ok);
			pyscope_composite_block(a, &s->for_.body, c, ok);
			pyscope_composite_block(a, &s->for_.orelse, c, ok);
			break;
		case S_WHILE:
			pyscope_composite_block(a, &s->while_.body, c, ok);
			pyscope_composite_block(a, &s->while_.orelse, c, ok);
			break;
		case S_WITH:
			pyscope_composite_block(a, &s->with.body, c, ok);
			break;
		case S_TRY:
			pyscope_composite_block(a, &s->try_.body, c, ok);
			for (int k = 0; k < s->try_.nhandlers; k++)
				pyscope_composite_block(a, &s->try_.handlers[k].body, c, ok);
			pyscope_composite_block(a, &s->try_.orelse, c, ok);
			pyscope_composite_block(a, &s->try_.finalbody, c, ok);
			break;
		default:
			break;
		}
	}
}

void dalic_pyscope_composites(pyarena_t *a, const pynode_list_t *b, pyscope_composites_t *c,
                              bool *ok)
{
	pyscope_composite_block(a, b, c, ok);
}
