/*
 * Static facts of each function body, computed when its `def` has been parsed:
 *  - the conditional-return rewrite DALI's AutoGraph applies before tracing: when one branch
 *    of an `if` always returns, the statements after the `if` move into the other branch
 *    (`if c: return a` + `return b` becomes `if c: return a else: return b`). Plain Python
 *    meaning is unchanged; for a host lowering `if` statements it decides which values get
 *    merged.
 *  - the local names (Python's rule: bound anywhere in the body, minus `global` names),
 *  - whether it returns anywhere, and the liveness of its `if` statements.
 */
#include "frontend/script/py/pyscope.h"

#include "dalic.h"

#include <stdlib.h>
#include <string.h>

static bool pyscope_block_definitely_returns(const pynode_list_t *b);

static bool pyscope_stmt_definitely_returns(const pynode_t *s)
{
	switch (s->kind) {
	case S_RETURN:
		return true;
	case S_IF:
		return pyscope_block_definitely_returns(&s->if_.body) &&
		       pyscope_block_definitely_returns(&s->if_.orelse);
	case S_WITH:
		return pyscope_block_definitely_returns(&s->with.body);
	default:
		return false;
	}
}

static bool pyscope_block_definitely_returns(const pynode_list_t *b)
{
	for (int i = 0; i < b->n; i++)
		if (pyscope_stmt_definitely_returns(b->v[i]))
			return true;
	return false;
}

static int pyscope_rewrite_block(pyarena_t *a, pynode_list_t *b);

static int pyscope_append(pyarena_t *a, pynode_list_t *l, pynode_t *n)
{
	pynode_t **v = dalic_pyarena_alloc(a, sizeof *v * (size_t)(l->n + 1));
	if (!v)
		return DALIC_ENOMEM;
	if (l->n)
		memcpy(v, l->v, sizeof *v * (size_t)l->n);
	v[l->n++] = n;
	l->v = v;
	return DALIC_OK;
}

static int pyscope_rewrite_children(pyarena_t *a, pynode_t *s)
{
	int rc = DALIC_OK;
	switch (s->kind) {
	case S_IF:
		rc = pyscope_rewrite_block(a, &s->if_.body);
		if (!rc)
			rc = pyscope_rewrite_block(a, &s->if_.orelse);
		break;
	case S_FOR:
		rc = pyscope_rewrite_block(a, &s->for_.body);
		if (!rc)
			rc = pyscope_rewrite_block(a, &s->for_.orelse);
		break;
	case S_WHILE:
		rc = pyscope_rewrite_block(a, &s->while_.body);
		if (!rc)
			rc = pyscope_rewrite_block(a, &s->while_.orelse);
		break;
	case S_WITH:
		rc = pyscope_rewrite_block(a, &s->with.body);
		break;
	case S_TRY:
		rc = pyscope_rewrite_block(a, &s->try_.body);
		for (int i = 0; !rc && i < s->try_.nhandlers; i++)
			rc = pyscope_rewrite_block(a, &s->try_.handlers[i].body);
		if (!rc)
			rc = pyscope_rewrite_block(a, &s->try_.orelse);
		if (!rc)
			rc = pyscope_rewrite_block(a, &s->try_.finalbody);
		break;
	default:
		break;
	}
	return rc;
}

/* Statements following an `if` whose one branch definitely returns go into the other
 * branch (AutoGraph's ConditionalReturnRewriter). */
static int pyscope_rewrite_block(pyarena_t *a, pynode_list_t *b)
{
	pynode_list_t out = {0};
	pynode_list_t *dest = &out;
	for (int i = 0; i < b->n; i++) {
		pynode_t *s = b->v[i];
		int rc = pyscope_rewrite_children(a, s);
		if (!rc)
			rc = pyscope_append(a, dest, s);
		if (rc)
			return rc;
		if (s->kind == S_IF && pyscope_block_definitely_returns(&s->if_.body))
			dest = &s->if_.orelse;
		else if (s->kind == S_IF && pyscope_block_definitely_returns(&s->if_.orelse))
			dest = &s->if_.body;
	}
	*b = out;
	return DALIC_OK;
}

static pynameset_t pyscope_declared(pyarena_t *a, const pynode_list_t *b, pynode_kind_t kind,
                                    pynameset_t acc, bool *ok)
{
	for (int i = 0; i < b->n; i++) {
		const pynode_t *s = b->v[i];
		if (s->kind == kind)
			for (int k = 0; k < s->global.n; k++)
				acc = dalic_pyscope_set_add(a, acc, s->global.names[k], ok);
		switch (s->kind) {
		case S_IF:
			acc = pyscope_declared(a, &s->if_.body, kind, acc, ok);
			acc = pyscope_declared(a, &s->if_.orelse, kind, acc, ok);
			break;
		case S_FOR:
			acc = pyscope_declared(a, &s->for_.body, kind, acc, ok);
			break;
		case S_WHILE:
			acc = pyscope_declared(a, &s->while_.body, kind, acc, ok);
			break;
		case S_WITH:
			acc = pyscope_declared(a, &s->with.body, kind, acc, ok);
			break;
		case S_TRY:
			acc = pyscope_declared(a, &s->try_.body, kind, acc, ok);
			break;
		default:
			break;
		}
	}
	return acc;
}

int dalic_pyscope_function(pyarena_t *a, pynode_t *def)
{
	int rc = pyscope_rewrite_block(a, &def->def.body);
	if (rc)
		return rc;
	bool ok = true;
	pynameset_t locals = dalic_pyscope_bound_names(a, &def->def.body, &ok);
	for (int i = 0; i < def->def.params.n; i++)
		locals = dalic_pyscope_set_add(a, locals, def->def.params.v[i].name, &ok);
	pynameset_t globals = pyscope_declared(a, &def->def.body, S_GLOBAL, (pynameset_t){0}, &ok);
	pynameset_t nonlocals =
	    pyscope_declared(a, &def->def.body, S_NONLOCAL, (pynameset_t){0}, &ok);
	locals = dalic_pyscope_set_minus(a, dalic_pyscope_set_minus(a, locals, globals, &ok),
	                                 nonlocals, &ok);
	pyfunc_info_t *info = dalic_pyarena_alloc(a, sizeof *info);
	if (!ok || !info)
		return DALIC_ENOMEM;
	info->locals = locals.v;
	info->nlocals = locals.n;
	info->globals = globals.v;
	info->nglobals = globals.n;
	info->uses_return = dalic_pyscope_block_has_return(&def->def.body);
	def->def.info = info;
	return dalic_pyscope_liveness(a, def);
}

int dalic_pyscope_module(pyarena_t *a, pyast_t *m)
{
	m->info = dalic_pyarena_alloc(a, sizeof *m->info);
	return m->info ? DALIC_OK : DALIC_ENOMEM;
}
