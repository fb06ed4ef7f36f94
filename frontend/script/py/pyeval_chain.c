/*
 * Chains: `a + b + c`, `fn.a.b.c(x)`, `x[0][1].y` are left-nested trees as deep as they are
 * long. They are evaluated with an explicit list of their links instead of recursion along
 * the chain, so a 200k-term sum costs 200k steps and no C stack; only the operands hanging
 * off the chain (bounded by the parser's nesting limit) recurse. A chain of `+` on strings
 * or lists builds its result in place (the intermediate values are nobody else's), so long
 * concatenations stay linear as they do in CPython.
 */
#include "frontend/script/py/pyeval.h"

#include <stdlib.h>
#include <string.h>

/* The link a chain continues through, or NULL when e does not continue a chain. */
static const pynode_t *pyeval_chain_inner(const pynode_t *e)
{
	switch (e->kind) {
	case N_BINOP:
		return e->bin.left;
	case N_ATTR:
		return e->attr.value;
	case N_CALL:
		return e->call.func;
	case N_SUBSCRIPT:
		return e->sub.value;
	default:
		return NULL;
	}
}

/* A `+` result this chain made and may still grow: its text has room for `cap` bytes. */
typedef struct pyeval_grow {
	pyval_t *v;
	size_t cap;
} pyeval_grow_t;

/* acc + r for strings / lists, appending in place when acc is the chain's own result.
 * Returns PY_NOT_HANDLED for every other case. */
static int pyeval_chain_concat(pyinterp_t *I, const pynode_t *at, pyeval_grow_t *g, pyval_t *acc,
                               pyval_t *r, pyval_t **out)
{
	if (acc->kind != r->kind || (acc->kind != PV_STR && acc->kind != PV_LIST))
		return PY_NOT_HANDLED;
	if (acc->kind == PV_LIST) {
		pyval_t *res = acc;
		if (g->v != acc && !(res = dalic_pyval_list(I->a, acc->list->n + r->list->n)))
			return dalic_pyeval_oom(I, at);
		int nr = r->list->n;
		if (res != acc)
			for (int i = 0; i < acc->list->n; i++)
				if (dalic_pyval_list_append(I->a, res, acc->list->items[i]))
					return dalic_pyeval_oom(I, at);
		for (int i = 0; i < nr; i++)
			if (dalic_pyval_list_append(I->a, res, r->list->items[i]))
				return dalic_pyeval_oom(I, at);
		g->v = res;
		*out = res;
		return DALIC_OK;
	}
	size_t n = acc->str.len + r->str.len;
	if (n > PY_MAX_STR_LEN)
		return dalic_pyeval_limit(I, at,
		                          "MemoryError: string of %zu bytes (dalic's limit: %zu)",
		                          n, PY_MAX_STR_LEN);
	if (g->v == acc && n < g->cap) {
		memcpy((char *)acc->str.s + acc->str.len, r->str.s, r->str.len);
		((char *)acc->str.s)[n] = 0;
		acc->str.len = n;
		*out = acc;
		return DALIC_OK;
	}
	size_t cap = n < 32 ? 64 : 2 * n;
	char *s = dalic_pyarena_alloc(I->a, cap);
	pyval_t *res = g->v == acc ? acc : dalic_pyval_new(I->a, PV_STR);
	if (!s || !res)
		return dalic_pyeval_oom(I, at);
	memcpy(s, acc->str.s, acc->str.len);
	memcpy(s + acc->str.len, r->str.s, r->str.len);
	s[n] = 0;
	res->str.s = s;
	res->str.len = n;
	g->v = res;
	g->cap = cap;
	*out = res;
	return DALIC_OK;
}

/* Applies one link of the chain to acc. */
static int pyeval_chain_link(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyeval_grow_t *g,
                             pyval_t *acc, pyval_t **out)
{
	pyval_t *v;
	switch (e->kind) {
	case N_BINOP:
		DALIC_TRY(dalic_pyeval_expr(I, F, e->bin.right, &v));
		if (e->bin.op == OP_PLUS) {
			int rc = pyeval_chain_concat(I, e, g, acc, v, out);
			if (rc != PY_NOT_HANDLED)
				return rc;
		}
		g->v = NULL; /* any other result may be shared */
		return dalic_pyeval_binop(I, e, e->bin.op, acc, v, out);
	case N_ATTR:
		g->v = NULL;
		return dalic_pyeval_getattr(I, e, acc, e->attr.attr, out);
	case N_CALL:
		g->v = NULL;
		return dalic_pyeval_call_expr(I, F, e, acc, out);
	default: /* N_SUBSCRIPT */
		g->v = NULL;
		DALIC_TRY(dalic_pyeval_subscript_index(I, F, e->sub.index, &v));
		return dalic_pyeval_getitem(I, e, acc, v, out);
	}
}

int dalic_pyeval_chain(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t **out)
{
	const pynode_t *fixed[32], **links = fixed;
	int n = 0, cap = 32, rc = DALIC_OK;
	const pynode_t *leaf = e;
	for (const pynode_t *inner; (inner = pyeval_chain_inner(leaf)); leaf = inner) {
		if (n == cap) {
			const pynode_t **grown = malloc(sizeof *grown * (size_t)cap * 2);
			if (!grown) {
				rc = dalic_pyeval_oom(I, e);
				goto done;
			}
			memcpy(grown, links, sizeof *grown * (size_t)n);
			if (links != fixed)
				free(links);
			links = grown;
			cap *= 2;
		}
		links[n++] = leaf;
	}
	pyval_t *acc;
	pyeval_grow_t g = {0};
	rc = dalic_pyeval_expr(I, F, leaf, &acc);
	/* links[0] is e, whose step dalic_pyeval_expr counted already */
	for (int i = n - 1; !rc && i >= 0; i--)
		if (!(rc = i ? dalic_pyeval_step(I, links[i]) : DALIC_OK))
			rc = pyeval_chain_link(I, F, links[i], &g, acc, &acc);
	if (!rc)
		*out = acc;
done:
	if (links != fixed)
		free(links);
	return rc;
}
