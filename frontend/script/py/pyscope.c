/*
 * Static facts of each function body, computed when its `def` has been parsed:
 *  - the conditional-return rewrite DALI's AutoGraph applies before tracing: when one branch
 *    of an `if` always returns, the statements after the `if` move into the other branch
 *    (`if c: return a` + `return b` becomes `if c: return a else: return b`). Plain Python
 *    meaning is unchanged; for an `if` on a DataNode it decides which values get merged.
 *  - the local names (Python's rule: bound anywhere in the body, minus `global` names),
 *  - whether it returns anywhere, and the liveness of its `if` statements.
 */
#include "frontend/script/py/pyscope.h"
#include "frontend/script/py/pyparse.h"

#include "dalic.h"

#include <stdlib.h>
#include <string.h>

static bool block_definitely_returns(const snode_list_t *b);

static bool stmt_definitely_returns(const snode_t *s)
{
	switch (s->kind) {
	case S_RETURN:
		return true;
	case S_IF:
		return block_definitely_returns(&s->if_.body) &&
		       block_definitely_returns(&s->if_.orelse);
	case S_WITH:
		return block_definitely_returns(&s->with.body);
	default:
		return false;
	}
}

static bool block_definitely_returns(const snode_list_t *b)
{
	for (int i = 0; i < b->n; i++)
		if (stmt_definitely_returns(b->v[i]))
			return true;
	return false;
}

static int rewrite_block(script_arena_t *a, snode_list_t *b);

static int append(script_arena_t *a, snode_list_t *l, snode_t *n)
{
	snode_t **v = script_arena_alloc(a, sizeof *v * (size_t)(l->n + 1));
	if (!v)
		return DALIC_ENOMEM;
	if (l->n)
		memcpy(v, l->v, sizeof *v * (size_t)l->n);
	v[l->n++] = n;
	l->v = v;
	return DALIC_OK;
}

static int rewrite_children(script_arena_t *a, snode_t *s)
{
	int rc = DALIC_OK;
	switch (s->kind) {
	case S_IF:
		rc = rewrite_block(a, &s->if_.body);
		if (!rc)
			rc = rewrite_block(a, &s->if_.orelse);
		break;
	case S_FOR:
		rc = rewrite_block(a, &s->for_.body);
		if (!rc)
			rc = rewrite_block(a, &s->for_.orelse);
		break;
	case S_WHILE:
		rc = rewrite_block(a, &s->while_.body);
		if (!rc)
			rc = rewrite_block(a, &s->while_.orelse);
		break;
	case S_WITH:
		rc = rewrite_block(a, &s->with.body);
		break;
	case S_TRY:
		rc = rewrite_block(a, &s->try_.body);
		for (int i = 0; !rc && i < s->try_.nhandlers; i++)
			rc = rewrite_block(a, &s->try_.handlers[i].body);
		if (!rc)
			rc = rewrite_block(a, &s->try_.orelse);
		if (!rc)
			rc = rewrite_block(a, &s->try_.finalbody);
		break;
	default:
		break;
	}
	return rc;
}

/* Statements following an `if` whose one branch definitely returns go into the other
 * branch (AutoGraph's ConditionalReturnRewriter). */
static int rewrite_block(script_arena_t *a, snode_list_t *b)
{
	snode_list_t out = {0};
	snode_list_t *dest = &out;
	for (int i = 0; i < b->n; i++) {
		snode_t *s = b->v[i];
		int rc = rewrite_children(a, s);
		if (!rc)
			rc = append(a, dest, s);
		if (rc)
			return rc;
		if (s->kind == S_IF && block_definitely_returns(&s->if_.body))
			dest = &s->if_.orelse;
		else if (s->kind == S_IF && block_definitely_returns(&s->if_.orelse))
			dest = &s->if_.body;
	}
	*b = out;
	return DALIC_OK;
}

static nset_t declared(script_arena_t *a, const snode_list_t *b, snode_kind_t kind, nset_t acc,
                       bool *ok)
{
	for (int i = 0; i < b->n; i++) {
		const snode_t *s = b->v[i];
		if (s->kind == kind)
			for (int k = 0; k < s->global.n; k++)
				acc = nset_add(a, acc, s->global.names[k], ok);
		switch (s->kind) {
		case S_IF:
			acc = declared(a, &s->if_.body, kind, acc, ok);
			acc = declared(a, &s->if_.orelse, kind, acc, ok);
			break;
		case S_FOR:
			acc = declared(a, &s->for_.body, kind, acc, ok);
			break;
		case S_WHILE:
			acc = declared(a, &s->while_.body, kind, acc, ok);
			break;
		case S_WITH:
			acc = declared(a, &s->with.body, kind, acc, ok);
			break;
		case S_TRY:
			acc = declared(a, &s->try_.body, kind, acc, ok);
			break;
		default:
			break;
		}
	}
	return acc;
}

int script_scope_function(script_arena_t *a, snode_t *def)
{
	int rc = rewrite_block(a, &def->def.body);
	if (rc)
		return rc;
	bool ok = true;
	nset_t locals = script_bound_names(a, &def->def.body, &ok);
	for (int i = 0; i < def->def.params.n; i++)
		locals = nset_add(a, locals, def->def.params.v[i].name, &ok);
	nset_t globals = declared(a, &def->def.body, S_GLOBAL, (nset_t){0}, &ok);
	nset_t nonlocals = declared(a, &def->def.body, S_NONLOCAL, (nset_t){0}, &ok);
	locals = nset_minus(a, nset_minus(a, locals, globals, &ok), nonlocals, &ok);
	sfunc_info_t *info = script_arena_alloc(a, sizeof *info);
	if (!ok || !info)
		return DALIC_ENOMEM;
	info->locals = locals.v;
	info->nlocals = locals.n;
	info->globals = globals.v;
	info->nglobals = globals.n;
	info->uses_return = script_block_has_return(&def->def.body);
	def->def.info = info;
	return script_liveness_function(a, def);
}

int script_scope_module(script_arena_t *a, script_module_t *m)
{
	m->info = script_arena_alloc(a, sizeof *m->info);
	return m->info ? DALIC_OK : DALIC_ENOMEM;
}
