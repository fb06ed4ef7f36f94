/*
 * Conditionals (`enable_conditionals=True`), lowered exactly as DALI's AutoGraph-based
 * front end does (nvidia/dali/_conditionals.py, reference §5). A stack of scopes, one per
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
#include "frontend/script/py/pystate.h"

#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)

enum { BR_TRUE = 0, BR_FALSE = 1, BR_NONE = 2 };

typedef struct centry {
	sv_t *predicate;
	int branch;
	svdict_t *splits;      /* node key -> (true node, false node) tuple */
	svdict_t *produced[3]; /* node keys produced in the true / false branch / merge */
} centry_t;

struct scond {
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

static spipe_t *cur_pipe(sinterp_t *I)
{
	return I->ncurrent ? I->current[I->ncurrent - 1] : NULL;
}

static scond_t *stack_of(sinterp_t *I)
{
	spipe_t *p = cur_pipe(I);
	return p ? p->cond : NULL;
}

static const char *node_key(sinterp_t *I, const sv_t *n)
{
	return script_arena_printf(I->a, "%s\x01%s", n->node.name, n->node.device);
}

static centry_t *new_entry(sinterp_t *I, sv_t *predicate)
{
	centry_t *e = script_arena_alloc(I->a, sizeof *e);
	if (!e || !(e->splits = svdict_new(I->a)))
		return NULL;
	for (int i = 0; i < 3; i++)
		if (!(e->produced[i] = svdict_new(I->a)))
			return NULL;
	e->predicate = predicate;
	e->branch = BR_NONE;
	return e;
}

static int push_entry(sinterp_t *I, scond_t *c, centry_t *e)
{
	if (c->depth == c->cap) {
		int cap = c->cap ? c->cap * 2 : 8;
		centry_t **s = script_arena_alloc(I->a, sizeof *s * (size_t)cap);
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

int sc_new(sinterp_t *I, spipe_t *p)
{
	scond_t *c = script_arena_alloc(I->a, sizeof *c);
	centry_t *global = new_entry(I, NULL);
	if (!c || !global || push_entry(I, c, global))
		return DALIC_ENOMEM;
	c->registration_allowed = true;
	p->cond = c;
	return DALIC_OK;
}

/* ---- scope queries -------------------------------------------------------------------- */

static bool produced_has(const centry_t *e, const char *key)
{
	if (e->branch != BR_NONE)
		return svdict_get_str(e->produced[e->branch], key) != NULL;
	for (int i = 0; i < 3; i++)
		if (svdict_get_str(e->produced[i], key))
			return true;
	return false;
}

static bool entry_has(const centry_t *e, const char *key)
{
	return produced_has(e, key) || svdict_get_str(e->splits, key);
}

static sv_t *entry_get(const centry_t *e, const char *key, sv_t *node)
{
	if (produced_has(e, key))
		return node;
	sv_t *pair = svdict_get_str(e->splits, key);
	return pair->tuple.items[e->branch == BR_FALSE ? 1 : 0];
}

static int add_produced(sinterp_t *I, centry_t *e, const sv_t *node)
{
	const char *key = node_key(I, node);
	if (!key || svdict_set_str(I->a, e->produced[e->branch], key, sv_true()))
		return DALIC_ENOMEM;
	return DALIC_OK;
}

/* Nesting bound of the structures conditionals walk (branch outputs, operator results). */
#define MAX_DEPTH 100

/* Registers every DataNode inside a (possibly nested) structure. */
static int add_produced_all(sinterp_t *I, centry_t *e, sv_t *v, int depth)
{
	if (v->kind == SV_NODE)
		return add_produced(I, e, v);
	if (depth > MAX_DEPTH)
		return DALIC_OK;
	sv_t **items = NULL;
	int n = 0;
	if (v->kind == SV_LIST) {
		items = v->list->items;
		n = v->list->n;
	} else if (v->kind == SV_TUPLE) {
		items = v->tuple.items;
		n = v->tuple.n;
	} else if (v->kind == SV_DICT) {
		sv_t *k, *x;
		for (int it = 0; svdict_next(v->dict, &it, &k, &x);)
			TRY(add_produced_all(I, e, x, depth + 1));
	}
	for (int i = 0; i < n; i++)
		TRY(add_produced_all(I, e, items[i], depth + 1));
	return DALIC_OK;
}

int sc_register(sinterp_t *I, sv_t *outputs, bool global_scope)
{
	scond_t *c = stack_of(I);
	if (!c || !c->registration_allowed)
		return DALIC_OK;
	centry_t *e = c->stack[global_scope ? 0 : c->depth - 1];
	return add_produced_all(I, e, outputs, 0) ? serr_oom(I, NULL) : DALIC_OK;
}

/* ---- splitting ------------------------------------------------------------------------ */

static int op_call(sinterp_t *I, const snode_t *at, const char *schema, const char *fn,
                   sv_t **inputs, int n, const char **names, sv_t **vals, int nkw, sv_t **out)
{
	sopcall_t c = {.schema = dalic_schema_find(schema),
	               .module = "nvidia.dali.fn._conditional",
	               .display = fn,
	               .inputs = inputs,
	               .ninputs = n,
	               .kwnames = names,
	               .kwvals = vals,
	               .nkw = nkw};
	if (!c.schema)
		return serr(
		    I, at, DALIC_EUNSUPPORTED,
		    "conditionals need the %s operator, which this dalic build does not have",
		    schema);
	c.api_name = script_arena_printf(I->a, "nvidia.dali.fn._conditional.%s", fn);
	return c.api_name ? so_invoke(I, at, &c, out) : serr_oom(I, at);
}

static int realize_split(sinterp_t *I, const snode_t *at, scond_t *c, sv_t *node, const char *key,
                         int level, sv_t **out)
{
	sv_t *produced = entry_get(c->stack[level], key, node);
	int top = c->depth;
	/* walk down the scopes between `level` and the current one, splitting in each */
	c->depth = level + 1;
	for (int l = level + 1; l < top; l++) {
		centry_t *e = c->stack[l];
		const char *names[2] = {"predicate", "_if_stmt"};
		sv_t *vals[2] = {e->predicate, sv_true()}, *pair;
		c->registration_allowed = false;
		int rc = op_call(I, at, "_conditional__Split", "split", &produced, 1, names, vals,
		                 2, &pair);
		c->registration_allowed = true;
		if (rc) {
			c->depth = top;
			return rc;
		}
		const char *pkey = node_key(I, produced);
		sv_t *t = sv_tuple(I->a, 2);
		if (!t || !pkey) {
			c->depth = top;
			return serr_oom(I, at);
		}
		t->tuple.items[0] = pair->list->items[0];
		t->tuple.items[1] = pair->list->items[1];
		if (svdict_set_str(I->a, e->splits, key, t) ||
		    svdict_set_str(I->a, e->splits, pkey, t) ||
		    svdict_set_str(I->a, e->produced[BR_TRUE], node_key(I, t->tuple.items[0]),
		                   sv_true()) ||
		    svdict_set_str(I->a, e->produced[BR_FALSE], node_key(I, t->tuple.items[1]),
		                   sv_true())) {
			c->depth = top;
			return serr_oom(I, at);
		}
		produced = t->tuple.items[e->branch == BR_TRUE ? 0 : 1];
		c->depth = l + 1;
	}
	*out = produced;
	return DALIC_OK;
}

int sc_preprocess(sinterp_t *I, const snode_t *at, sv_t *node, sv_t **out)
{
	scond_t *c = stack_of(I);
	*out = node;
	if (!c || node->kind != SV_NODE)
		return DALIC_OK;
	const char *key = node_key(I, node);
	if (!key)
		return serr_oom(I, at);
	int level = c->depth - 1;
	while (level >= 0 && !entry_has(c->stack[level], key))
		level--;
	if (level < 0)
		return serr(
		    I, at, DALIC_EGRAPH,
		    "ValueError: DataNode(name=\"%s\", device=\"%s\") was not produced within "
		    "this trace.",
		    node->node.name, node->node.device);
	if (level == c->depth - 1) {
		*out = entry_get(c->stack[level], key, node);
		return DALIC_OK;
	}
	return realize_split(I, at, c, node, key, level, out);
}

int sc_load(sinterp_t *I, const snode_t *at, sv_t *v, sv_t **out)
{
	return sc_preprocess(I, at, v, out);
}

static int push_predicate(sinterp_t *I, const snode_t *at, scond_t *c, sv_t *pred, sv_t **actual)
{
	TRY(sc_preprocess(I, at, pred, actual));
	centry_t *e = new_entry(I, *actual);
	if (!e || push_entry(I, c, e))
		return serr_oom(I, at);
	return DALIC_OK;
}

static void set_branch(scond_t *c, int b)
{
	c->stack[c->depth - 1]->branch = b;
}

static int track_merge(sinterp_t *I, const snode_t *at, scond_t *c, sv_t *pred)
{
	set_branch(c, BR_NONE);
	return add_produced(I, c->stack[c->depth - 1], pred) ? serr_oom(I, at) : DALIC_OK;
}

/* ---- branch outputs ------------------------------------------------------------------- */

/* Keys of a dict in sorted order (dm-tree flattens dicts by sorted key). */
static int sorted_keys(sinterp_t *I, const snode_t *at, sv_t *d, sv_t ***keys, int *n)
{
	bool opaque;
	TRY(se_iterate(I, at, d, keys, n, &opaque));
	sv_t **k = script_arena_alloc(I->a, sizeof *k * (size_t)(*n + 1));
	if (!k)
		return serr_oom(I, at);
	memcpy(k, *keys, sizeof *k * (size_t)*n);
	for (int i = 1; i < *n; i++) {
		sv_t *x = k[i];
		int j = i;
		for (; j > 0; j--) {
			sv_t *lt;
			bool less;
			TRY(se_compare(I, at, CMP_LT, x, k[j - 1], &lt));
			TRY(se_truth(I, at, lt, &less));
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
static int too_deep(sinterp_t *I, const snode_t *at)
{
	return serr(I, at, DALIC_EUNSUPPORTED,
	            "values of a conditional branch are nested too deeply (more than %d levels)",
	            MAX_DEPTH);
}

static int branch_output(sinterp_t *I, const snode_t *at, sv_t *v, sv_t **out, int depth)
{
	if (v->kind == SV_NODE)
		return sc_preprocess(I, at, v, out);
	if (depth > MAX_DEPTH)
		return too_deep(I, at);
	if (v->kind == SV_LIST || v->kind == SV_TUPLE) {
		bool list = v->kind == SV_LIST;
		int n = list ? v->list->n : v->tuple.n;
		sv_t **items = list ? v->list->items : v->tuple.items;
		sv_t *r = list ? sv_list(I->a, n) : sv_tuple(I->a, n);
		if (!r)
			return serr_oom(I, at);
		for (int i = 0; i < n; i++) {
			sv_t *x;
			TRY(branch_output(I, at, items[i], &x, depth + 1));
			if (list ? sv_list_append(I->a, r, x) != 0 : (r->tuple.items[i] = x, false))
				return serr_oom(I, at);
		}
		*out = r;
		return DALIC_OK;
	}
	if (v->kind == SV_DICT) {
		sv_t **keys;
		int n;
		TRY(sorted_keys(I, at, v, &keys, &n));
		sv_t *tmp = sv_dict(I->a), *r = sv_dict(I->a), *k, *x;
		if (!tmp || !r)
			return serr_oom(I, at);
		for (int i = 0; i < n; i++) {
			TRY(branch_output(I, at, svdict_get(v->dict, keys[i]), &x, depth + 1));
			if (svdict_set(I->a, tmp->dict, keys[i], x))
				return serr_oom(I, at);
		}
		for (int it = 0; svdict_next(v->dict, &it, &k, NULL);)
			if (svdict_set(I->a, r->dict, k, svdict_get(tmp->dict, k)))
				return serr_oom(I, at);
		*out = r;
		return DALIC_OK;
	}
	if (v->kind == SV_UNDEF)
		return serr(I, at, DALIC_EINVAL, "NameError: '%s' is not defined", v->undef.name);
	sv_t *c;
	TRY(so_constant_node(I, at, v->kind == SV_SCONST ? v->sconst.value : v,
	                     v->kind == SV_SCONST ? v->sconst.dtype : -1, "cpu", &c));
	TRY(sc_register(I, c, true));
	return sc_preprocess(I, at, c, out);
}

static int same_structure(sinterp_t *I, const snode_t *at, sv_t *a, sv_t *b)
{
	bool seq_a = a->kind == SV_LIST || a->kind == SV_TUPLE || a->kind == SV_DICT;
	bool seq_b = b->kind == SV_LIST || b->kind == SV_TUPLE || b->kind == SV_DICT;
	if (!seq_a && !seq_b)
		return DALIC_OK;
	if (a->kind != b->kind)
		return serr(
		    I, at, DALIC_EINVAL,
		    "%sThe two structures don't have the same sequence type. Input structure "
		    "has type <class '%s'>, while shallow structure has type <class '%s'>.",
		    DIVERGENT, sv_type_name(b), sv_type_name(a));
	if (a->kind == SV_DICT) {
		sv_t *k, *x;
		bool same = svdict_len(a->dict) == svdict_len(b->dict);
		for (int it = 0; same && svdict_next(a->dict, &it, &k, &x);)
			same = svdict_get(b->dict, k) != NULL;
		if (!same)
			return serr(I, at, DALIC_EINVAL,
			            "%sThe two dictionaries don't have the same set of keys.",
			            DIVERGENT);
		for (int it = 0; svdict_next(a->dict, &it, &k, &x);)
			TRY(same_structure(I, at, x, svdict_get(b->dict, k)));
		return DALIC_OK;
	}
	int na = a->kind == SV_LIST ? a->list->n : a->tuple.n;
	int nb = b->kind == SV_LIST ? b->list->n : b->tuple.n;
	if (na != nb)
		return serr(I, at, DALIC_EINVAL,
		            "%sThe two structures don't have the same nested structure: sequences "
		            "of length %d and %d.",
		            DIVERGENT, na, nb);
	sv_t **ia = a->kind == SV_LIST ? a->list->items : a->tuple.items;
	sv_t **ib = b->kind == SV_LIST ? b->list->items : b->tuple.items;
	for (int i = 0; i < na; i++)
		TRY(same_structure(I, at, ia[i], ib[i]));
	return DALIC_OK;
}

static int merge(sinterp_t *I, const snode_t *at, sv_t *t, sv_t *f, sv_t *pred, sv_t **out)
{
	sv_t *in[2] = {t, f};
	const char *name = "predicate";
	return op_call(I, at, "_conditional__Merge", "merge", in, 2, &name, &pred, 1, out);
}

static int merge_structure(sinterp_t *I, const snode_t *at, sv_t *t, sv_t *f, sv_t *pred,
                           sv_t **out)
{
	if (t->kind == SV_NODE)
		return merge(I, at, t, f, pred, out);
	if (t->kind == SV_DICT) {
		sv_t **keys;
		int n;
		TRY(sorted_keys(I, at, t, &keys, &n));
		sv_t *tmp = sv_dict(I->a), *r = sv_dict(I->a), *k, *x;
		if (!tmp || !r)
			return serr_oom(I, at);
		for (int i = 0; i < n; i++) {
			TRY(merge_structure(I, at, svdict_get(t->dict, keys[i]),
			                    svdict_get(f->dict, keys[i]), pred, &x));
			if (svdict_set(I->a, tmp->dict, keys[i], x))
				return serr_oom(I, at);
		}
		for (int it = 0; svdict_next(t->dict, &it, &k, NULL);)
			if (svdict_set(I->a, r->dict, k, svdict_get(tmp->dict, k)))
				return serr_oom(I, at);
		*out = r;
		return DALIC_OK;
	}
	bool list = t->kind == SV_LIST;
	int n = list ? t->list->n : t->tuple.n;
	sv_t **it = list ? t->list->items : t->tuple.items;
	sv_t **iff = list ? f->list->items : f->tuple.items;
	sv_t *r = list ? sv_list(I->a, n) : sv_tuple(I->a, n);
	if (!r)
		return serr_oom(I, at);
	for (int i = 0; i < n; i++) {
		sv_t *x;
		TRY(merge_structure(I, at, it[i], iff[i], pred, &x));
		if (list ? sv_list_append(I->a, r, x) != 0 : (r->tuple.items[i] = x, false))
			return serr_oom(I, at);
	}
	*out = r;
	return DALIC_OK;
}

/* ---- the if statement ----------------------------------------------------------------- */

static sv_t *get_var(sinterp_t *I, sframe_t *F, const char *name)
{
	if (!strcmp(name, "do_return"))
		return F->do_return;
	if (!strcmp(name, "retval_"))
		return F->retval;
	sv_t *v = svdict_get_str(F->locals, name);
	if (v)
		return v;
	v = sv_new(I->a, SV_UNDEF);
	if (v)
		v->undef.name = name;
	return v;
}

static int set_var(sinterp_t *I, sframe_t *F, const snode_t *at, const char *name, sv_t *v)
{
	if (!strcmp(name, "do_return")) {
		F->do_return = v;
	} else if (!strcmp(name, "retval_")) {
		F->retval = v;
	} else if (v->kind == SV_UNDEF) {
		sv_t *k = sv_cstr(I->a, name);
		if (!k)
			return serr_oom(I, at);
		svdict_del(F->locals, k);
	} else if (svdict_set_str(I->a, F->locals, name, v)) {
		return serr_oom(I, at);
	}
	return DALIC_OK;
}

static int verify(sinterp_t *I, const snode_t *at, const char **names, sv_t **state, int n,
                  const char *branch)
{
	for (int i = 0; i < n; i++) {
		if (state[i]->kind != SV_UNDEF)
			continue;
		if (!strcmp(names[i], "retval_"))
			return serr(I, at, DALIC_EINVAL,
			            "%s The `%s` branch must also have a return "
			            "statement.",
			            INCONSISTENT, branch);
		return serr(I, at, DALIC_EINVAL,
		            "%s Variable '%s' must also be initialized in the `%s` branch.",
		            INCONSISTENT, names[i], branch);
	}
	return DALIC_OK;
}

static int run_branch(sinterp_t *I, sframe_t *F, const snode_t *s, const snode_list_t *b,
                      bool *returned)
{
	F->cond_branches++;
	int rc = sx_block(I, F, b);
	F->cond_branches--;
	*returned = rc == SX_RETURN;
	if (rc == SX_BREAK || rc == SX_CONTINUE)
		return serr(
		    I, s, DALIC_EUNSUPPORTED,
		    "'break' and 'continue' inside an `if` on a DataNode are not supported");
	return rc == SX_RETURN ? DALIC_OK : rc;
}

int sc_if(sinterp_t *I, sframe_t *F, const snode_t *s, sv_t *pred)
{
	scond_t *c = stack_of(I);
	const sif_info_t *info = s->if_.info;
	if (!c || !info || F->kind != FR_FUNCTION)
		return serr(I, s, DALIC_EUNSUPPORTED,
		            "an `if` on a DataNode is supported only inside the pipeline function "
		            "(and functions it calls)");
	int nouts = info->noutputs, n = nouts + info->ninputs_only;
	const char **names = script_arena_alloc(I->a, sizeof *names * (size_t)(n + 1));
	sv_t **init = script_arena_alloc(I->a, sizeof(sv_t *) * (size_t)(n + 1));
	sv_t **body = script_arena_alloc(I->a, sizeof(sv_t *) * (size_t)(n + 1));
	sv_t **orelse = script_arena_alloc(I->a, sizeof(sv_t *) * (size_t)(n + 1));
	if (!names || !init || !body || !orelse)
		return serr_oom(I, s);
	for (int i = 0; i < n; i++) {
		names[i] = i < nouts ? info->outputs[i] : info->inputs_only[i - nouts];
		if (!(init[i] = get_var(I, F, names[i])))
			return serr_oom(I, s);
	}
	sv_t *split_pred;
	TRY(push_predicate(I, s->if_.test, c, pred, &split_pred));
	int depth = c->depth;
	bool ret_true, ret_false;

	set_branch(c, BR_TRUE);
	TRY(run_branch(I, F, s, &s->if_.body, &ret_true));
	for (int i = 0; i < n; i++)
		if (!(body[i] = get_var(I, F, names[i])))
			return serr_oom(I, s);
	TRY(verify(I, s, names, body, n, "if"));
	for (int i = 0; i < nouts; i++)
		TRY(branch_output(I, s, body[i], &body[i], 0));
	set_branch(c, BR_NONE);

	for (int i = 0; i < n; i++)
		TRY(set_var(I, F, s, names[i], init[i]));
	set_branch(c, BR_FALSE);
	TRY(run_branch(I, F, s, &s->if_.orelse, &ret_false));
	for (int i = 0; i < n; i++)
		if (!(orelse[i] = get_var(I, F, names[i])))
			return serr_oom(I, s);
	TRY(verify(I, s, names, orelse, n, "else"));
	for (int i = 0; i < nouts; i++)
		TRY(branch_output(I, s, orelse[i], &orelse[i], 0));
	set_branch(c, BR_NONE);

	TRY(track_merge(I, s, c, split_pred));
	for (int i = 0; i < nouts; i++)
		TRY(same_structure(I, s, body[i], orelse[i]));
	sv_t **merged = script_arena_alloc(I->a, sizeof(sv_t *) * (size_t)(nouts + 1));
	if (!merged)
		return serr_oom(I, s);
	for (int i = 0; i < nouts; i++)
		TRY(merge_structure(I, s, body[i], orelse[i], split_pred, &merged[i]));
	set_branch(c, BR_NONE);
	c->depth = depth - 1;
	for (int i = 0; i < nouts; i++) {
		TRY(sc_register(I, merged[i], false));
		TRY(set_var(I, F, s, names[i], merged[i]));
	}
	for (int i = nouts; i < n; i++)
		TRY(set_var(I, F, s, names[i], init[i]));
	/* both branches returned: the function returns the merged retval_ */
	return ret_true && ret_false ? SX_RETURN : DALIC_OK;
}

/* ---- and / or / not ------------------------------------------------------------------- */

static int validate_logical(sinterp_t *I, const snode_t *at, sv_t *v, const char *expr,
                            const char *side, sv_t **out)
{
	if (v->kind == SV_NODE && strcmp(v->node.device, "cpu"))
		return serr(I, at, DALIC_EGRAPH,
		            "RuntimeError: Logical expression `%s` is restricted to scalar (0-d "
		            "tensors) inputs of `bool` type, that are placed on CPU. Got a GPU "
		            "input as the %s argument in logical expression.",
		            expr, side);
	const char *names[2] = {"expression_name", "expression_side"};
	sv_t *vals[2] = {sv_cstr(I->a, expr), sv_cstr(I->a, side)};
	if (!vals[0] || !vals[1])
		return serr_oom(I, at);
	return op_call(I, at, "_conditional__ValidateLogical", "validate_logical", &v, 1, names,
	               vals, 2, out);
}

int sc_and_or(sinterp_t *I, sframe_t *F, const snode_t *node, int next, sv_t *a, sv_t **out)
{
	scond_t *c = stack_of(I);
	bool is_and = node->boolop.op == B_AND;
	const char *expr = is_and ? "and" : "or";
	const snode_t *rhs = node->boolop.values.v[next];
	sv_t *a_valid, *split_pred, *t_out, *f_out, *b, *b_valid;
	TRY(validate_logical(I, node, a, expr, "left", &a_valid));
	TRY(push_predicate(I, node, c, a_valid, &split_pred));
	int depth = c->depth;
	set_branch(c, BR_TRUE);
	if (is_and) {
		TRY(se_boolop_from(I, F, node, next, &b));
		TRY(validate_logical(I, rhs, b, expr, "right", &b_valid));
		TRY(sc_preprocess(I, rhs, b_valid, &t_out));
	} else {
		TRY(sc_preprocess(I, node, split_pred, &t_out));
	}
	set_branch(c, BR_FALSE);
	if (is_and) {
		TRY(sc_preprocess(I, node, split_pred, &f_out));
	} else {
		TRY(se_boolop_from(I, F, node, next, &b));
		TRY(validate_logical(I, rhs, b, expr, "right", &b_valid));
		TRY(sc_preprocess(I, rhs, b_valid, &f_out));
	}
	TRY(track_merge(I, node, c, split_pred));
	sv_t *merged;
	TRY(merge(I, node, t_out, f_out, split_pred, &merged));
	set_branch(c, BR_NONE);
	c->depth = depth - 1;
	TRY(sc_register(I, merged, false));
	*out = merged;
	return DALIC_OK;
}

int sc_not(sinterp_t *I, const snode_t *at, sv_t *v, sv_t **out)
{
	return op_call(I, at, "_conditional__Not_", "not_", &v, 1, NULL, NULL, 0, out);
}
