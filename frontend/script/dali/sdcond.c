/*
 * Conditionals (`enable_conditionals=True`), lowered exactly as DALI's AutoGraph-based
 * front end does (nvidia/dali/_conditionals.py, docs/dali-behaviour.md §5). A stack of scopes, one per
 * `if` on a DataNode, records which data nodes each branch produced and which outer nodes
 * were already split for it. Reading a DataNode (a variable load, an operator input) from an
 * outer scope inserts `_conditional__Split` operators down to the current branch, cached per
 * scope; operators without inputs count as produced in the global scope. After both
 * branches ran, the variables the `if` modifies that are live afterwards (name order, plus
 * AutoGraph's do_return / retval_ when a branch returns) are merged with
 * `_conditional__Merge` — nested tuples / lists / dicts element by element, Python constants
 * first promoted to CPU Constant operators. `and` / `or` become a split / merge around the
 * lazily evaluated right operand with `_conditional__ValidateLogical` on both sides; `not`
 * is an eager `_conditional__Not_`.
 */
#include "frontend/script/dali/sdcond.h"

#include "frontend/script/dali/sdconst.h"
#include "frontend/script/dali/sdops.h"
#include "frontend/script/dali/sdpipe.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"

#include <string.h>

enum { BR_TRUE = 0, BR_FALSE = 1, BR_NONE = 2 };

typedef struct centry {
	pyval_t *predicate;
	int branch;
	pydict_t *splits;      /* node key -> (true node, false node) tuple */
	pydict_t *produced[3]; /* node keys produced in the true / false branch / merge */
} centry_t;

struct sdcond {
	centry_t **stack;
	int depth, cap;
	bool registration_allowed;
};

static const char *const INCONSISTENT =
    "RuntimeError: Encountered inconsistent outputs out of the `if/else` control flow "
    "statement. Variables need to be initialized in every code path (both `if` branches).";

static const char *const DIVERGENT =
    "ValueError: Divergent data found in different branches of `if/else` control flow "
    "statement. Variables in all code paths are merged into common output batches. The values "
    "assigned to a given variable need to have the same nesting structure in every code path "
    "(both `if` branches).\nFor example, if we define a variable as a tuple in one branch, it "
    "must be defined as a tuple of the same length in the other branch - the contents of the "
    "tuples may be different. If we define a variable as a dictionary, the other branch must "
    "define it as a dictionary with the same set of keys, the values may be different.\n";

bool dalic_sdcond_active(pyinterp_t *I)
{
	sdpipe_t *p = dalic_sdali_current(I);
	return dalic_sdali_state(I)->tracing && p && p->conditionals;
}

static sdcond_t *sdcond_stack_of(pyinterp_t *I)
{
	sdpipe_t *p = dalic_sdali_current(I);
	return p ? p->cond : NULL;
}

static const char *sdcond_node_key(pyinterp_t *I, const pyval_t *n)
{
	return dalic_pyarena_printf(I->a, "%s\x01%s", dalic_sdval_node(n)->name,
	                            dalic_sdval_node(n)->device);
}

static centry_t *sdcond_new_entry(pyinterp_t *I, pyval_t *predicate)
{
	centry_t *e = dalic_pyarena_alloc(I->a, sizeof *e);
	if (!e || !(e->splits = dalic_pydict_new(I->a)))
		return NULL;
	for (int i = 0; i < 3; i++)
		if (!(e->produced[i] = dalic_pydict_new(I->a)))
			return NULL;
	e->predicate = predicate;
	e->branch = BR_NONE;
	return e;
}

static int sdcond_push_entry(pyinterp_t *I, sdcond_t *c, centry_t *e)
{
	if (c->depth == c->cap) {
		int cap = c->cap ? c->cap * 2 : 8;
		centry_t **s = dalic_pyarena_alloc(I->a, sizeof *s * (size_t)cap);
		if (!s)
			return DALIC_ENOMEM;
		if (c->depth)
			memcpy(s, c->stack, sizeof *s * (size_t)c->depth);
		c->stack = s;
		c->cap = cap;
	}
	c->stack[c->depth++] = e;
	return DALIC_OK;
}

int dalic_sdcond_new(pyinterp_t *I, sdpipe_t *p)
{
	sdcond_t *c = dalic_pyarena_alloc(I->a, sizeof *c);
	centry_t *global = sdcond_new_entry(I, NULL);
	if (!c || !global || sdcond_push_entry(I, c, global))
		return DALIC_ENOMEM;
	c->registration_allowed = true;
	p->cond = c;
	return DALIC_OK;
}

/* ---- scope queries -------------------------------------------------------------------- */

static bool sdcond_produced_has(const centry_t *e, const char *key)
{
	if (e->branch != BR_NONE)
		return dalic_pydict_get_str(e->produced[e->branch], key) != NULL;
	for (int i = 0; i < 3; i++)
		if (dalic_pydict_get_str(e->produced[i], key))
			return true;
	return false;
}

static bool sdcond_entry_has(const centry_t *e, const char *key)
{
	return sdcond_produced_has(e, key) || dalic_pydict_get_str(e->splits, key);
}

static pyval_t *sdcond_entry_get(const centry_t *e, const char *key, pyval_t *node)
{
	if (sdcond_produced_has(e, key))
		return node;
	pyval_t *pair = dalic_pydict_get_str(e->splits, key);
	return pair->tuple.items[e->branch == BR_FALSE ? 1 : 0];
}

static int sdcond_add_produced(pyinterp_t *I, centry_t *e, const pyval_t *node)
{
	const char *key = sdcond_node_key(I, node);
	if (!key || dalic_pydict_set_str(I->a, e->produced[e->branch], key, dalic_pyval_true()))
		return DALIC_ENOMEM;
	return DALIC_OK;
}

/* Nesting bound of the structures conditionals walk (branch outputs, operator results). */
#define MAX_DEPTH 100

/* Registers every DataNode inside a (possibly nested) structure. */
static int sdcond_add_produced_all(pyinterp_t *I, centry_t *e, pyval_t *v, int depth)
{
	if (dalic_sdval_node(v))
		return sdcond_add_produced(I, e, v);
	if (depth > MAX_DEPTH)
		return DALIC_OK;
	pyval_t **items = NULL;
	int n = 0;
	if (v->kind == PV_LIST) {
		items = v->list->items;
		n = v->list->n;
	} else if (v->kind == PV_TUPLE) {
		items = v->tuple.items;
		n = v->tuple.n;
	} else if (v->kind == PV_DICT) {
		pyval_t *k, *x;
		for (int it = 0; dalic_pydict_next(v->dict, &it, &k, &x);)
			DALIC_TRY(sdcond_add_produced_all(I, e, x, depth + 1));
	}
	for (int i = 0; i < n; i++)
		DALIC_TRY(sdcond_add_produced_all(I, e, items[i], depth + 1));
	return DALIC_OK;
}

int dalic_sdcond_register(pyinterp_t *I, pyval_t *outputs, bool global_scope)
{
	sdcond_t *c = sdcond_stack_of(I);
	if (!c || !c->registration_allowed)
		return DALIC_OK;
	centry_t *e = c->stack[global_scope ? 0 : c->depth - 1];
	return sdcond_add_produced_all(I, e, outputs, 0) ? dalic_pyeval_oom(I, NULL) : DALIC_OK;
}

/* ---- splitting ------------------------------------------------------------------------ */

static int sdcond_op_call(pyinterp_t *I, const pynode_t *at, const char *schema, const char *fn,
                          pyval_t **inputs, int n, const char **names, pyval_t **vals, int nkw,
                          pyval_t **out)
{
	sdopcall_t c = {.schema = dalic_schema_find(schema),
	                .module = "nvidia.dali.fn._conditional",
	                .display = fn,
	                .inputs = inputs,
	                .ninputs = n,
	                .kwnames = names,
	                .kwvals = vals,
	                .nkw = nkw};
	if (!c.schema)
		return dalic_pyeval_error(
		    I, at, DALIC_EUNSUPPORTED,
		    "conditionals need the %s operator, which this dalic build does not have",
		    schema);
	c.api_name = dalic_pyarena_printf(I->a, "nvidia.dali.fn._conditional.%s", fn);
	return c.api_name ? dalic_sdops_invoke(I, at, &c, out) : dalic_pyeval_oom(I, at);
}

static int sdcond_realize_split(pyinterp_t *I, const pynode_t *at, sdcond_t *c, pyval_t *node,
                                const char *key, int level, pyval_t **out)
{
	pyval_t *produced = sdcond_entry_get(c->stack[level], key, node);
	int top = c->depth;
	/* walk down the scopes between `level` and the current one, splitting in each */
	c->depth = level + 1;
	for (int l = level + 1; l < top; l++) {
		centry_t *e = c->stack[l];
		const char *names[2] = {"predicate", "_if_stmt"};
		pyval_t *vals[2] = {e->predicate, dalic_pyval_true()}, *pair;
		c->registration_allowed = false;
		int rc = sdcond_op_call(I, at, "_conditional__Split", "split", &produced, 1, names,
		                        vals, 2, &pair);
		c->registration_allowed = true;
		if (rc) {
			c->depth = top;
			return rc;
		}
		const char *pkey = sdcond_node_key(I, produced);
		pyval_t *t = dalic_pyval_tuple(I->a, 2);
		if (!t || !pkey) {
			c->depth = top;
			return dalic_pyeval_oom(I, at);
		}
		t->tuple.items[0] = pair->list->items[0];
		t->tuple.items[1] = pair->list->items[1];
		if (dalic_pydict_set_str(I->a, e->splits, key, t) ||
		    dalic_pydict_set_str(I->a, e->splits, pkey, t) ||
		    dalic_pydict_set_str(I->a, e->produced[BR_TRUE],
		                         sdcond_node_key(I, t->tuple.items[0]),
		                         dalic_pyval_true()) ||
		    dalic_pydict_set_str(I->a, e->produced[BR_FALSE],
		                         sdcond_node_key(I, t->tuple.items[1]),
		                         dalic_pyval_true())) {
			c->depth = top;
			return dalic_pyeval_oom(I, at);
		}
		produced = t->tuple.items[e->branch == BR_TRUE ? 0 : 1];
		c->depth = l + 1;
	}
	*out = produced;
	return DALIC_OK;
}

int dalic_sdcond_preprocess(pyinterp_t *I, const pynode_t *at, pyval_t *node, pyval_t **out)
{
	sdcond_t *c = sdcond_stack_of(I);
	*out = node;
	if (!c || !dalic_sdval_node(node))
		return DALIC_OK;
	const char *key = sdcond_node_key(I, node);
	if (!key)
		return dalic_pyeval_oom(I, at);
	int level = c->depth - 1;
	while (level >= 0 && !sdcond_entry_has(c->stack[level], key))
		level--;
	if (level < 0)
		return dalic_pyeval_error(
		    I, at, DALIC_EGRAPH,
		    "ValueError: DataNode(name=\"%s\", device=\"%s\") was not produced within "
		    "this trace.",
		    dalic_sdval_node(node)->name, dalic_sdval_node(node)->device);
	if (level == c->depth - 1) {
		*out = sdcond_entry_get(c->stack[level], key, node);
		return DALIC_OK;
	}
	return sdcond_realize_split(I, at, c, node, key, level, out);
}

int dalic_sdcond_load(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out)
{
	return dalic_sdcond_preprocess(I, at, v, out);
}

static int sdcond_push_predicate(pyinterp_t *I, const pynode_t *at, sdcond_t *c, pyval_t *pred,
                                 pyval_t **actual)
{
	DALIC_TRY(dalic_sdcond_preprocess(I, at, pred, actual));
	centry_t *e = sdcond_new_entry(I, *actual);
	if (!e || sdcond_push_entry(I, c, e))
		return dalic_pyeval_oom(I, at);
	return DALIC_OK;
}

static void sdcond_set_branch(sdcond_t *c, int b)
{
	c->stack[c->depth - 1]->branch = b;
}

static int sdcond_track_merge(pyinterp_t *I, const pynode_t *at, sdcond_t *c, pyval_t *pred)
{
	sdcond_set_branch(c, BR_NONE);
	return sdcond_add_produced(I, c->stack[c->depth - 1], pred) ? dalic_pyeval_oom(I, at)
	                                                            : DALIC_OK;
}

/* ---- branch outputs ------------------------------------------------------------------- */

/* Keys of a dict in sorted order (dm-tree flattens dicts by sorted key). */
static int sdcond_sorted_keys(pyinterp_t *I, const pynode_t *at, pyval_t *d, pyval_t ***keys,
                              int *n)
{
	bool opaque;
	DALIC_TRY(dalic_pyeval_iterate(I, at, d, false, keys, n, &opaque));
	pyval_t **k = dalic_pyarena_alloc(I->a, sizeof *k * (size_t)(*n + 1));
	if (!k)
		return dalic_pyeval_oom(I, at);
	memcpy(k, *keys, sizeof *k * (size_t)*n);
	for (int i = 1; i < *n; i++) {
		pyval_t *x = k[i];
		int j = i;
		for (; j > 0; j--) {
			pyval_t *lt;
			bool less;
			DALIC_TRY(dalic_pyeval_compare(I, at, CMP_LT, x, k[j - 1], &lt));
			DALIC_TRY(dalic_pyeval_truth(I, at, lt, &less));
			if (!less)
				break;
			k[j] = k[j - 1];
		}
		k[j] = x;
	}
	*keys = k;
	return DALIC_OK;
}

/* apply_conditional_split_to_branch_outputs: DataNodes split to the branch, constants
 * promoted to CPU Constant operators (produced in the global scope) and split too. */
static int sdcond_too_deep(pyinterp_t *I, const pynode_t *at)
{
	return dalic_pyeval_error(
	    I, at, DALIC_EUNSUPPORTED,
	    "values of a conditional branch are nested too deeply (more than %d levels)",
	    MAX_DEPTH);
}

static int sdcond_branch_output(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out,
                                int depth)
{
	if (dalic_sdval_node(v))
		return dalic_sdcond_preprocess(I, at, v, out);
	if (depth > MAX_DEPTH)
		return sdcond_too_deep(I, at);
	if (v->kind == PV_LIST || v->kind == PV_TUPLE) {
		bool list = v->kind == PV_LIST;
		int n = list ? v->list->n : v->tuple.n;
		pyval_t **items = list ? v->list->items : v->tuple.items;
		pyval_t *r = list ? dalic_pyval_list(I->a, n) : dalic_pyval_tuple(I->a, n);
		if (!r)
			return dalic_pyeval_oom(I, at);
		for (int i = 0; i < n; i++) {
			pyval_t *x;
			DALIC_TRY(sdcond_branch_output(I, at, items[i], &x, depth + 1));
			if (list ? dalic_pyval_list_append(I->a, r, x) != 0
			         : (r->tuple.items[i] = x, false))
				return dalic_pyeval_oom(I, at);
		}
		*out = r;
		return DALIC_OK;
	}
	if (v->kind == PV_DICT) {
		pyval_t **keys;
		int n;
		DALIC_TRY(sdcond_sorted_keys(I, at, v, &keys, &n));
		pyval_t *tmp = dalic_pyval_dict(I->a), *r = dalic_pyval_dict(I->a), *k, *x;
		if (!tmp || !r)
			return dalic_pyeval_oom(I, at);
		for (int i = 0; i < n; i++) {
			DALIC_TRY(sdcond_branch_output(I, at, dalic_pydict_get(v->dict, keys[i]),
			                               &x, depth + 1));
			if (dalic_pydict_set(I->a, tmp->dict, keys[i], x))
				return dalic_pyeval_oom(I, at);
		}
		for (int it = 0; dalic_pydict_next(v->dict, &it, &k, NULL);)
			if (dalic_pydict_set(I->a, r->dict, k, dalic_pydict_get(tmp->dict, k)))
				return dalic_pyeval_oom(I, at);
		*out = r;
		return DALIC_OK;
	}
	if (v->kind == PV_UNDEF)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "NameError: '%s' is not defined",
		                          v->undef.name);
	pyval_t *c;
	DALIC_TRY(dalic_sdconst_node(
	    I, at, dalic_sdval_sconst(v) ? dalic_sdval_sconst(v)->value : v,
	    dalic_sdval_sconst(v) ? dalic_sdval_sconst(v)->dtype : -1, "cpu", &c));
	DALIC_TRY(dalic_sdcond_register(I, c, true));
	return dalic_sdcond_preprocess(I, at, c, out);
}

static int sdcond_same_structure(pyinterp_t *I, const pynode_t *at, pyval_t *a, pyval_t *b)
{
	bool seq_a = a->kind == PV_LIST || a->kind == PV_TUPLE || a->kind == PV_DICT;
	bool seq_b = b->kind == PV_LIST || b->kind == PV_TUPLE || b->kind == PV_DICT;
	if (!seq_a && !seq_b)
		return DALIC_OK;
	if (a->kind != b->kind)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "%sThe two structures don't have the same sequence type. Input structure "
		    "has type <class '%s'>, while shallow structure has type <class '%s'>.",
		    DIVERGENT, dalic_pyval_type_name(b), dalic_pyval_type_name(a));
	if (a->kind == PV_DICT) {
		pyval_t *k, *x;
		bool same = dalic_pydict_len(a->dict) == dalic_pydict_len(b->dict);
		for (int it = 0; same && dalic_pydict_next(a->dict, &it, &k, &x);)
			same = dalic_pydict_get(b->dict, k) != NULL;
		if (!same)
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "%sThe two dictionaries don't have the same set of keys.", DIVERGENT);
		for (int it = 0; dalic_pydict_next(a->dict, &it, &k, &x);)
			DALIC_TRY(sdcond_same_structure(I, at, x, dalic_pydict_get(b->dict, k)));
		return DALIC_OK;
	}
	int na = a->kind == PV_LIST ? a->list->n : a->tuple.n;
	int nb = b->kind == PV_LIST ? b->list->n : b->tuple.n;
	if (na != nb)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "%sThe two structures don't have the same nested structure: sequences "
		    "of length %d and %d.",
		    DIVERGENT, na, nb);
	pyval_t **ia = a->kind == PV_LIST ? a->list->items : a->tuple.items;
	pyval_t **ib = b->kind == PV_LIST ? b->list->items : b->tuple.items;
	for (int i = 0; i < na; i++)
		DALIC_TRY(sdcond_same_structure(I, at, ia[i], ib[i]));
	return DALIC_OK;
}

static int sdcond_merge(pyinterp_t *I, const pynode_t *at, pyval_t *t, pyval_t *f, pyval_t *pred,
                        pyval_t **out)
{
	pyval_t *in[2] = {t, f};
	const char *name = "predicate";
	return sdcond_op_call(I, at, "_conditional__Merge", "merge", in, 2, &name, &pred, 1, out);
}

static int sdcond_merge_structure(pyinterp_t *I, const pynode_t *at, pyval_t *t, pyval_t *f,
                                  pyval_t *pred, pyval_t **out)
{
	if (dalic_sdval_node(t))
		return sdcond_merge(I, at, t, f, pred, out);
	if (t->kind == PV_DICT) {
		pyval_t **keys;
		int n;
		DALIC_TRY(sdcond_sorted_keys(I, at, t, &keys, &n));
		pyval_t *tmp = dalic_pyval_dict(I->a), *r = dalic_pyval_dict(I->a), *k, *x;
		if (!tmp || !r)
			return dalic_pyeval_oom(I, at);
		for (int i = 0; i < n; i++) {
			DALIC_TRY(sdcond_merge_structure(I, at, dalic_pydict_get(t->dict, keys[i]),
			                                 dalic_pydict_get(f->dict, keys[i]), pred,
			                                 &x));
			if (dalic_pydict_set(I->a, tmp->dict, keys[i], x))
				return dalic_pyeval_oom(I, at);
		}
		for (int it = 0; dalic_pydict_next(t->dict, &it, &k, NULL);)
			if (dalic_pydict_set(I->a, r->dict, k, dalic_pydict_get(tmp->dict, k)))
				return dalic_pyeval_oom(I, at);
		*out = r;
		return DALIC_OK;
	}
	bool list = t->kind == PV_LIST;
	int n = list ? t->list->n : t->tuple.n;
	pyval_t **it = list ? t->list->items : t->tuple.items;
	pyval_t **iff = list ? f->list->items : f->tuple.items;
	pyval_t *r = list ? dalic_pyval_list(I->a, n) : dalic_pyval_tuple(I->a, n);
	if (!r)
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < n; i++) {
		pyval_t *x;
		DALIC_TRY(sdcond_merge_structure(I, at, it[i], iff[i], pred, &x));
		if (list ? dalic_pyval_list_append(I->a, r, x) != 0
		         : (r->tuple.items[i] = x, false))
			return dalic_pyeval_oom(I, at);
	}
	*out = r;
	return DALIC_OK;
}

/* ---- the if statement ----------------------------------------------------------------- */

/* The container and key of a composite target (`d['k']`, `d[0]`), or NULL. */
static pyval_t *sdcond_composite_base(pyinterp_t *I, pyframe_t *F, const pynode_t *t,
                                      pyval_t **key);

static pyval_t *sdcond_composite_get(pyinterp_t *I, pyframe_t *F, const pynode_t *t)
{
	if (t->kind == N_NAME)
		return dalic_pydict_get_str(F->locals, t->name);
	pyval_t *key, *base = sdcond_composite_base(I, F, t, &key);
	if (!base)
		return NULL;
	if (base->kind == PV_DICT)
		return dalic_pydict_get(base->dict, key);
	if (base->kind == PV_LIST && key->kind == PV_INT) {
		int64_t i = key->i < 0 ? key->i + base->list->n : key->i;
		return i >= 0 && i < base->list->n ? base->list->items[i] : NULL;
	}
	return NULL;
}

static pyval_t *sdcond_composite_base(pyinterp_t *I, pyframe_t *F, const pynode_t *t,
                                      pyval_t **key)
{
	const pynode_t *k = t->sub.index;
	*key = k->kind == N_STR ? dalic_pyval_str(I->a, k->str.s, k->str.len)
	                        : dalic_pyval_int(I->a, k->i);
	return *key ? sdcond_composite_get(I, F, t->sub.value) : NULL;
}

/* A variable of the if: a name, AutoGraph's do_return / retval_, or a composite (target t). */
static pyval_t *sdcond_get_var(pyinterp_t *I, pyframe_t *F, const char *name, const pynode_t *t)
{
	if (!strcmp(name, "do_return"))
		return F->do_return;
	if (!strcmp(name, "retval_"))
		return F->retval;
	pyval_t *v = t ? sdcond_composite_get(I, F, t) : dalic_pydict_get_str(F->locals, name);
	if (v)
		return v;
	v = dalic_pyval_new(I->a, PV_UNDEF);
	if (v)
		v->undef.name = name;
	return v;
}

static int sdcond_set_composite(pyinterp_t *I, pyframe_t *F, const pynode_t *at,
                                const pynode_t *t, pyval_t *v)
{
	pyval_t *key, *base = sdcond_composite_base(I, F, t, &key);
	if (base && base->kind == PV_DICT) {
		if (v->kind == PV_UNDEF)
			dalic_pydict_del(base->dict, key);
		else if (dalic_pydict_set(I->a, base->dict, key, v))
			return dalic_pyeval_oom(I, at);
		return DALIC_OK;
	}
	if (base && base->kind == PV_LIST && key->kind == PV_INT && v->kind != PV_UNDEF) {
		int64_t i = key->i < 0 ? key->i + base->list->n : key->i;
		if (i >= 0 && i < base->list->n) {
			base->list->items[i] = v;
			return DALIC_OK;
		}
	}
	return dalic_pyeval_error(I, t, DALIC_EINVAL,
	                          "the `if` on a DataNode cannot restore this item of a dict or "
	                          "list");
}

static int sdcond_set_var(pyinterp_t *I, pyframe_t *F, const pynode_t *at, const char *name,
                          const pynode_t *t, pyval_t *v)
{
	if (t)
		return sdcond_set_composite(I, F, at, t, v);
	if (!strcmp(name, "do_return")) {
		F->do_return = v;
	} else if (!strcmp(name, "retval_")) {
		F->retval = v;
	} else if (v->kind == PV_UNDEF) {
		pyval_t *k = dalic_pyval_cstr(I->a, name);
		if (!k)
			return dalic_pyeval_oom(I, at);
		dalic_pydict_del(F->locals, k);
	} else if (dalic_pydict_set_str(I->a, F->locals, name, v)) {
		return dalic_pyeval_oom(I, at);
	}
	return DALIC_OK;
}

static int sdcond_verify(pyinterp_t *I, const pynode_t *at, const char **names, pyval_t **state,
                         int n, const char *branch)
{
	for (int i = 0; i < n; i++) {
		if (state[i]->kind != PV_UNDEF)
			continue;
		if (!strcmp(names[i], "retval_"))
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "%s The `%s` branch must also have a return "
			                          "statement.",
			                          INCONSISTENT, branch);
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "%s Variable '%s' must also be initialized in the `%s` branch.", INCONSISTENT,
		    names[i], branch);
	}
	return DALIC_OK;
}

static int sdcond_run_branch(pyinterp_t *I, pyframe_t *F, const pynode_t *s, const pynode_list_t *b,
                             bool *returned)
{
	int rc = dalic_pyexec_block(I, F, b);
	*returned = rc == PYEXEC_RETURN;
	if (rc == PYEXEC_BREAK || rc == PYEXEC_CONTINUE)
		return dalic_pyeval_error(
		    I, s, DALIC_EUNSUPPORTED,
		    "'break' and 'continue' inside an `if` on a DataNode are not supported");
	return rc == PYEXEC_RETURN ? DALIC_OK : rc;
}

int dalic_sdcond_if(pyinterp_t *I, pyframe_t *F, const pynode_t *s, pyval_t *pred)
{
	sdcond_t *c = sdcond_stack_of(I);
	const pyif_info_t *info = s->if_.info;
	if (!c || !info || F->kind != FR_FUNCTION)
		return dalic_pyeval_error(
		    I, s, DALIC_EUNSUPPORTED,
		    "an `if` on a DataNode is supported only inside the pipeline function "
		    "(and functions it calls)");
	int nouts = info->noutputs, n = nouts + info->ninputs_only;
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)(n + 1));
	pyval_t **init = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(n + 1));
	pyval_t **body = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(n + 1));
	pyval_t **orelse = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(n + 1));
	if (!names || !init || !body || !orelse)
		return dalic_pyeval_oom(I, s);
	const pynode_t **targets = dalic_pyarena_alloc(I->a, sizeof *targets * (size_t)(n + 1));
	if (!targets)
		return dalic_pyeval_oom(I, s);
	for (int i = 0; i < n; i++) {
		names[i] = i < nouts ? info->outputs[i] : info->inputs_only[i - nouts];
		targets[i] = i < nouts && info->output_targets ? info->output_targets[i] : NULL;
		if (!(init[i] = sdcond_get_var(I, F, names[i], targets[i])))
			return dalic_pyeval_oom(I, s);
	}
	pyval_t *split_pred;
	DALIC_TRY(sdcond_push_predicate(I, s->if_.test, c, pred, &split_pred));
	int depth = c->depth;
	bool ret_true, ret_false;

	sdcond_set_branch(c, BR_TRUE);
	DALIC_TRY(sdcond_run_branch(I, F, s, &s->if_.body, &ret_true));
	for (int i = 0; i < n; i++)
		if (!(body[i] = sdcond_get_var(I, F, names[i], targets[i])))
			return dalic_pyeval_oom(I, s);
	DALIC_TRY(sdcond_verify(I, s, names, body, n, "if"));
	for (int i = 0; i < nouts; i++)
		DALIC_TRY(sdcond_branch_output(I, s, body[i], &body[i], 0));
	sdcond_set_branch(c, BR_NONE);

	for (int i = 0; i < n; i++)
		DALIC_TRY(sdcond_set_var(I, F, s, names[i], targets[i], init[i]));
	sdcond_set_branch(c, BR_FALSE);
	DALIC_TRY(sdcond_run_branch(I, F, s, &s->if_.orelse, &ret_false));
	for (int i = 0; i < n; i++)
		if (!(orelse[i] = sdcond_get_var(I, F, names[i], targets[i])))
			return dalic_pyeval_oom(I, s);
	DALIC_TRY(sdcond_verify(I, s, names, orelse, n, "else"));
	for (int i = 0; i < nouts; i++)
		DALIC_TRY(sdcond_branch_output(I, s, orelse[i], &orelse[i], 0));
	sdcond_set_branch(c, BR_NONE);

	DALIC_TRY(sdcond_track_merge(I, s, c, split_pred));
	for (int i = 0; i < nouts; i++)
		DALIC_TRY(sdcond_same_structure(I, s, body[i], orelse[i]));
	pyval_t **merged = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(nouts + 1));
	if (!merged)
		return dalic_pyeval_oom(I, s);
	for (int i = 0; i < nouts; i++)
		DALIC_TRY(sdcond_merge_structure(I, s, body[i], orelse[i], split_pred, &merged[i]));
	sdcond_set_branch(c, BR_NONE);
	c->depth = depth - 1;
	for (int i = 0; i < nouts; i++) {
		DALIC_TRY(dalic_sdcond_register(I, merged[i], false));
		DALIC_TRY(sdcond_set_var(I, F, s, names[i], targets[i], merged[i]));
	}
	for (int i = nouts; i < n; i++)
		DALIC_TRY(sdcond_set_var(I, F, s, names[i], NULL, init[i]));
	/* both branches returned: the function returns the merged retval_ */
	return ret_true && ret_false ? PYEXEC_RETURN : DALIC_OK;
}

/* ---- and / or / not ------------------------------------------------------------------- */

static int sdcond_validate_logical(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *expr,
                                   const char *side, pyval_t **out)
{
	if (dalic_sdval_node(v) && strcmp(dalic_sdval_node(v)->device, "cpu"))
		return dalic_pyeval_error(
		    I, at, DALIC_EGRAPH,
		    "RuntimeError: Logical expression `%s` is restricted to scalar (0-d "
		    "tensors) inputs of `bool` type, that are placed on CPU. Got a GPU "
		    "input as the %s argument in logical expression.",
		    expr, side);
	const char *names[2] = {"expression_name", "expression_side"};
	pyval_t *vals[2] = {dalic_pyval_cstr(I->a, expr), dalic_pyval_cstr(I->a, side)};
	if (!vals[0] || !vals[1])
		return dalic_pyeval_oom(I, at);
	return sdcond_op_call(I, at, "_conditional__ValidateLogical", "validate_logical", &v, 1,
	                      names, vals, 2, out);
}

int dalic_sdcond_and_or(pyinterp_t *I, pyframe_t *F, const pynode_t *node, int next, pyval_t *a,
                        pyval_t **out)
{
	sdcond_t *c = sdcond_stack_of(I);
	bool is_and = node->boolop.op == B_AND;
	const char *expr = is_and ? "and" : "or";
	const pynode_t *rhs = node->boolop.values.v[next];
	pyval_t *a_valid, *split_pred, *t_out, *f_out, *b, *b_valid;
	DALIC_TRY(sdcond_validate_logical(I, node, a, expr, "left", &a_valid));
	DALIC_TRY(sdcond_push_predicate(I, node, c, a_valid, &split_pred));
	int depth = c->depth;
	sdcond_set_branch(c, BR_TRUE);
	if (is_and) {
		DALIC_TRY(dalic_pyeval_boolop_from(I, F, node, next, &b));
		DALIC_TRY(sdcond_validate_logical(I, rhs, b, expr, "right", &b_valid));
		DALIC_TRY(dalic_sdcond_preprocess(I, rhs, b_valid, &t_out));
	} else {
		DALIC_TRY(dalic_sdcond_preprocess(I, node, split_pred, &t_out));
	}
	sdcond_set_branch(c, BR_FALSE);
	if (is_and) {
		DALIC_TRY(dalic_sdcond_preprocess(I, node, split_pred, &f_out));
	} else {
		DALIC_TRY(dalic_pyeval_boolop_from(I, F, node, next, &b));
		DALIC_TRY(sdcond_validate_logical(I, rhs, b, expr, "right", &b_valid));
		DALIC_TRY(dalic_sdcond_preprocess(I, rhs, b_valid, &f_out));
	}
	DALIC_TRY(sdcond_track_merge(I, node, c, split_pred));
	pyval_t *merged;
	DALIC_TRY(sdcond_merge(I, node, t_out, f_out, split_pred, &merged));
	sdcond_set_branch(c, BR_NONE);
	c->depth = depth - 1;
	DALIC_TRY(dalic_sdcond_register(I, merged, false));
	*out = merged;
	return DALIC_OK;
}

int dalic_sdcond_not(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **out)
{
	return sdcond_op_call(I, at, "_conditional__Not_", "not_", &v, 1, NULL, NULL, 0, out);
}
