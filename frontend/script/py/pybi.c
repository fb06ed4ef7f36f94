/*
 * Python built-in functions that pipeline scripts use: print (runs while the definition is
 * traced, as in DALI), len, range, enumerate, zip, min / max / sum / abs / round, sorted /
 * reversed / any / all / map / filter. Types, introspection and exceptions are in
 * script_types.c, methods of built-in types in script_methods.c. print() skips calls whose
 * arguments dalic does not model (display of run results).
 */
#include "frontend/script/py/pystate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                                     \
	do {                                                                                       \
		int rc_ = (x);                                                                     \
		if (rc_)                                                                           \
			return rc_;                                                                \
	} while (0)
#define RET(v)                                                                                     \
	do {                                                                                       \
		*out = (v);                                                                        \
		return *out ? DALIC_OK : serr_oom(I, at);                                          \
	} while (0)

sv_t *sb_make(sinterp_t *I, const char *name, sbuiltin_fn fn, sv_t *self, void *data)
{
	sv_t *v = sv_new(I->a, SV_BUILTIN);
	if (v) {
		v->builtin.name = name;
		v->builtin.fn = fn;
		v->builtin.self = self;
		v->builtin.data = data;
	}
	return v;
}

int sb_no_kwargs(sinterp_t *I, const snode_t *at, const char *f, const sargs_t *args)
{
	if (args->nkw)
		return serr(I, at, DALIC_EINVAL, "TypeError: %s() takes no keyword arguments", f);
	return DALIC_OK;
}

int sb_nargs(sinterp_t *I, const snode_t *at, const char *f, const sargs_t *args, int lo, int hi)
{
	TRY(sb_no_kwargs(I, at, f, args));
	if (args->npos < lo || args->npos > hi)
		return serr(I, at, DALIC_EINVAL, "TypeError: %s() takes %s%d argument%s (%d given)",
		            f,
		            lo == hi          ? "exactly "
		            : args->npos < lo ? "at least "
		                              : "at most ",
		            args->npos < lo ? lo : hi, (args->npos < lo ? lo : hi) == 1 ? "" : "s",
		            args->npos);
	return DALIC_OK;
}

bool sb_any_opaque(const sargs_t *args)
{
	for (int i = 0; i < args->npos; i++)
		if (args->pos[i]->kind == SV_OPAQUE)
			return true;
	for (int i = 0; i < args->nkw; i++)
		if (args->kwvals[i]->kind == SV_OPAQUE)
			return true;
	return false;
}

int sb_opaque_result(sinterp_t *I, const snode_t *at, const char *f, sv_t **out)
{
	RET(sv_opaque(I->a, script_arena_printf(I->a, "%s(...)", f)));
}

/* ---- print ---------------------------------------------------------------------------- */

/* print() while a debug=True pipeline is traced: DALI's debug mode runs the function every
 * iteration, so the print is recorded (literal text before the first data node, the nodes)
 * and debug mode replays it with each iteration's values. */
static int record_debug_print(sinterp_t *I, const snode_t *at, spipe_t *pipe,
                              const sargs_t *args, const sv_t *sep)
{
	sbuf_t b = {0};
	const char **nodes = script_arena_alloc(I->a, sizeof *nodes * (size_t)(args->npos + 1));
	if (!nodes)
		return serr_oom(I, at);
	int n = 0;
	bool get = false;
	for (int i = 0; i < args->npos; i++) {
		const sv_t *v = args->pos[i];
		if (v->kind == SV_NODE) {
			nodes[n++] = v->node.name;
			get |= v->node.get;
		} else if (n == 0) {
			if (i)
				sv_format(&b,
				          sep && sep->kind == SV_STR
				              ? sep
				              : &(sv_t){.kind = SV_STR, .str = {" ", 1}},
				          false);
			sv_format(&b, v, false);
		}
	}
	if (b.oom) {
		sbuf_free(&b);
		return serr_oom(I, at);
	}
	sbuf_put(&b, "", 1); /* NUL-terminate */
	dalic_srcpos_t pos = {.file = I->src->path, .line = at->line, .col = at->col};
	int rc = dalic_graphdef_add_print(pipe->def, b.oom ? "" : b.s, n, nodes, get, pos);
	sbuf_free(&b);
	return rc ? serr_relocate(I, at, rc) : DALIC_OK;
}

static int b_print(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	*out = sv_none();
	sv_t *sep = sargs_kw(args, "sep"), *end = sargs_kw(args, "end"),
	     *file = sargs_kw(args, "file");
	for (int i = 0; i < args->nkw; i++)
		if (strcmp(args->kwnames[i], "sep") && strcmp(args->kwnames[i], "end") &&
		    strcmp(args->kwnames[i], "file") && strcmp(args->kwnames[i], "flush"))
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: '%s' is an invalid keyword argument for print()",
			            args->kwnames[i]);
	for (int i = 0; i < args->npos; i++)
		if (args->pos[i]->kind == SV_OPAQUE)
			return DALIC_OK; /* shows results dalic does not compute */
	spipe_t *pipe = I->tracing && I->ncurrent ? I->current[I->ncurrent - 1] : NULL;
	if (pipe && pipe->def->debug)
		return record_debug_print(I, at, pipe, args, sep);
	FILE *f = file && file->kind != SV_NONE ? stderr : I->out;
	sbuf_t b = {0};
	for (int i = 0; i < args->npos; i++) {
		if (i)
			sv_format(&b,
			          sep && sep->kind == SV_STR
			              ? sep
			              : &(sv_t){.kind = SV_STR, .str = {" ", 1}},
			          false);
		sv_format(&b, args->pos[i], false);
	}
	if (end && end->kind == SV_STR)
		sbuf_put(&b, end->str.s, end->str.len);
	else
		sbuf_puts(&b, "\n");
	if (b.oom) {
		sbuf_free(&b);
		return serr_oom(I, at);
	}
	fwrite(b.s, 1, b.n, f);
	fflush(f);
	sbuf_free(&b);
	return DALIC_OK;
}

/* ---- sequences ------------------------------------------------------------------------ */

static int b_len(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "len", args, 1, 1));
	sv_t *v = args->pos[0];
	int64_t n;
	switch (v->kind) {
	case SV_STR:
		n = 0;
		for (size_t i = 0; i < v->str.len; i++)
			n += ((unsigned char)v->str.s[i] & 0xC0) != 0x80;
		break;
	case SV_LIST:
		n = v->list->n;
		break;
	case SV_TUPLE:
		n = v->tuple.n;
		break;
	case SV_DICT:
		n = svdict_len(v->dict);
		break;
	case SV_OPAQUE:
		return sb_opaque_result(I, at, "len", out);
	default:
		return serr(I, at, DALIC_EINVAL, "TypeError: object of type '%s' has no len()",
		            sv_type_name(v));
	}
	RET(sv_int(I->a, n));
}

static bool as_i64(const sv_t *v, int64_t *x)
{
	if (v->kind == SV_INT)
		*x = v->i;
	else if (v->kind == SV_BOOL)
		*x = v->b;
	else
		return false;
	return true;
}

static int b_range(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "range", args, 1, 3));
	if (sb_any_opaque(args))
		return sb_opaque_result(I, at, "range", out);
	int64_t v[3] = {0, 0, 1};
	for (int i = 0; i < args->npos; i++)
		if (!as_i64(args->pos[i], &v[args->npos == 1 ? 1 : i]))
			return serr(I, at, DALIC_EINVAL,
			            "TypeError: '%s' object cannot be interpreted as an integer",
			            sv_type_name(args->pos[i]));
	if (v[2] == 0)
		return serr(I, at, DALIC_EINVAL, "ValueError: range() arg 3 must not be zero");
	int64_t count = v[2] > 0 ? (v[1] > v[0] ? (v[1] - v[0] + v[2] - 1) / v[2] : 0)
	                         : (v[0] > v[1] ? (v[0] - v[1] - v[2] - 1) / -v[2] : 0);
	if (count > SCRIPT_MAX_LOOP_ITERATIONS)
		return serr(I, at, DALIC_EUNSUPPORTED, "range() with more than %d items",
		            SCRIPT_MAX_LOOP_ITERATIONS);
	sv_t *l = sv_list(I->a, (int)count);
	if (!l)
		return serr_oom(I, at);
	for (int64_t i = 0; i < count; i++) {
		sv_t *x = sv_int(I->a, v[0] + i * v[2]);
		if (!x || sv_list_append(I->a, l, x))
			return serr_oom(I, at);
	}
	RET(l);
}

int sb_items(sinterp_t *I, const snode_t *at, sv_t *v, sv_t ***items, int *n)
{
	bool opaque;
	TRY(se_iterate(I, at, v, items, n, &opaque));
	if (opaque)
		return serr_opaque(I, at, v, "cannot iterate");
	return DALIC_OK;
}

sv_t *sb_tuple(sinterp_t *I, sv_t **items, int n)
{
	sv_t *t = sv_tuple(I->a, n);
	if (t && n)
		memcpy(t->tuple.items, items, sizeof(sv_t *) * (size_t)n);
	return t;
}

static int b_enumerate(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	const char *names[] = {"iterable", "start"};
	sv_t *v[2];
	TRY(sargs_parse(I, at, "enumerate", args, names, 1, 2, v));
	if (v[0]->kind == SV_OPAQUE)
		RET(v[0]);
	int64_t start = 0;
	if (v[1] && !as_i64(v[1], &start))
		return serr(I, at, DALIC_EINVAL, "TypeError: enumerate() start must be an integer");
	sv_t **items;
	int n;
	TRY(sb_items(I, at, v[0], &items, &n));
	sv_t *l = sv_list(I->a, n);
	if (!l)
		return serr_oom(I, at);
	for (int i = 0; i < n; i++) {
		sv_t *pair[2] = {sv_int(I->a, start + i), items[i]};
		sv_t *t = pair[0] ? sb_tuple(I, pair, 2) : NULL;
		if (!t || sv_list_append(I->a, l, t))
			return serr_oom(I, at);
	}
	RET(l);
}

static int b_zip(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_no_kwargs(I, at, "zip", args));
	if (sb_any_opaque(args))
		return sb_opaque_result(I, at, "zip", out);
	int k = args->npos, len = -1;
	sv_t ***items = script_arena_alloc(I->a, sizeof *items * (size_t)(k + 1));
	int *ns = script_arena_alloc(I->a, sizeof *ns * (size_t)(k + 1));
	if (!items || !ns)
		return serr_oom(I, at);
	for (int i = 0; i < k; i++) {
		TRY(sb_items(I, at, args->pos[i], &items[i], &ns[i]));
		if (len < 0 || ns[i] < len)
			len = ns[i];
	}
	sv_t *l = sv_list(I->a, len < 0 ? 0 : len);
	if (!l)
		return serr_oom(I, at);
	for (int j = 0; j < len; j++) {
		sv_t *t = sv_tuple(I->a, k);
		if (!t)
			return serr_oom(I, at);
		for (int i = 0; i < k; i++)
			t->tuple.items[i] = items[i][j];
		if (sv_list_append(I->a, l, t))
			return serr_oom(I, at);
	}
	RET(l);
}

static int call_key(sinterp_t *I, const snode_t *at, sv_t *key, sv_t *v, sv_t **out)
{
	if (!key || key->kind == SV_NONE) {
		*out = v;
		return DALIC_OK;
	}
	return se_call1(I, at, key, v, out);
}

static int less(sinterp_t *I, const snode_t *at, sv_t *a, sv_t *b, bool *lt)
{
	sv_t *r;
	TRY(se_compare(I, at, CMP_LT, a, b, &r));
	return se_truth(I, at, r, lt);
}

static int minmax(sinterp_t *I, const snode_t *at, const sargs_t *args, bool want_max, sv_t **out)
{
	const char *f = want_max ? "max" : "min";
	sv_t *key = sargs_kw(args, "key"), *def = sargs_kw(args, "default");
	if (sb_any_opaque(args))
		return sb_opaque_result(I, at, f, out);
	sv_t **items = args->pos;
	int n = args->npos;
	if (n == 1)
		TRY(sb_items(I, at, args->pos[0], &items, &n));
	if (n == 0) {
		if (def)
			RET(def);
		return serr(I, at, DALIC_EINVAL, "ValueError: %s() arg is an empty sequence", f);
	}
	sv_t *best = items[0], *best_key;
	TRY(call_key(I, at, key, best, &best_key));
	for (int i = 1; i < n; i++) {
		sv_t *k;
		TRY(call_key(I, at, key, items[i], &k));
		bool lt;
		TRY(want_max ? less(I, at, best_key, k, &lt) : less(I, at, k, best_key, &lt));
		if (lt) {
			best = items[i];
			best_key = k;
		}
	}
	RET(best);
}

static int b_min(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return minmax(I, at, args, false, out);
}

static int b_max(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return minmax(I, at, args, true, out);
}

static int b_sum(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	const char *names[] = {"iterable", "start"};
	sv_t *v[2];
	TRY(sargs_parse(I, at, "sum", args, names, 1, 2, v));
	if (v[0]->kind == SV_OPAQUE)
		RET(v[0]);
	sv_t **items;
	int n;
	TRY(sb_items(I, at, v[0], &items, &n));
	sv_t *acc = v[1] ? v[1] : sv_int(I->a, 0);
	if (!acc)
		return serr_oom(I, at);
	for (int i = 0; i < n; i++)
		TRY(se_binop(I, at, OP_PLUS, acc, items[i], &acc));
	RET(acc);
}

static int b_abs(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "abs", args, 1, 1));
	sv_t *v = args->pos[0];
	if (v->kind == SV_OPAQUE)
		RET(v);
	if (v->kind == SV_INT || v->kind == SV_BOOL) {
		int64_t x = v->kind == SV_BOOL ? v->b : v->i;
		if (x == INT64_MIN)
			return serr(I, at, DALIC_EUNSUPPORTED, "integer overflow");
		RET(sv_int(I->a, x < 0 ? -x : x));
	}
	if (v->kind == SV_FLOAT)
		RET(sv_float(I->a, fabs(v->f)));
	return serr(I, at, DALIC_EINVAL, "TypeError: bad operand type for abs(): '%s'",
	            sv_type_name(v));
}

static int b_round(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	const char *names[] = {"number", "ndigits"};
	sv_t *v[2];
	TRY(sargs_parse(I, at, "round", args, names, 1, 2, v));
	if (v[0]->kind == SV_OPAQUE)
		RET(v[0]);
	if (!sv_is_number(v[0]))
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: type %s doesn't define __round__ method",
		            sv_type_name(v[0]));
	if (!v[1] || v[1]->kind == SV_NONE) {
		double r = nearbyint(sv_as_double(v[0])); /* round half to even, like Python */
		if (!(fabs(r) < 9.2e18))
			return serr(I, at, DALIC_EINVAL,
			            "OverflowError: cannot convert to integer");
		RET(sv_int(I->a, (int64_t)r));
	}
	int64_t nd;
	if (!as_i64(v[1], &nd))
		return serr(I, at, DALIC_EINVAL, "TypeError: ndigits must be an integer");
	if (v[0]->kind != SV_FLOAT)
		RET(v[0]);
	char buf[64];
	snprintf(buf, sizeof buf, "%.*f", (int)(nd < 0 ? 0 : nd > 30 ? 30 : nd), v[0]->f);
	RET(sv_float(I->a, strtod(buf, NULL)));
}

static int b_sorted(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	const char *names[] = {"iterable", "key", "reverse"};
	sv_t *v[3];
	TRY(sargs_parse(I, at, "sorted", args, names, 1, 3, v));
	if (v[0]->kind == SV_OPAQUE)
		RET(v[0]);
	sv_t **items;
	int n;
	TRY(sb_items(I, at, v[0], &items, &n));
	bool rev = false;
	if (v[2])
		TRY(se_truth(I, at, v[2], &rev));
	sv_t *l = sv_list(I->a, n);
	sv_t **keys = script_arena_alloc(I->a, sizeof *keys * (size_t)(n + 1));
	if (!l || !keys)
		return serr_oom(I, at);
	/* stable insertion sort: script lists are short */
	for (int i = 0; i < n; i++) {
		sv_t *k;
		TRY(call_key(I, at, v[1], items[i], &k));
		if (sv_list_append(I->a, l, items[i]))
			return serr_oom(I, at);
		int j = i;
		while (j > 0) {
			bool lt;
			TRY(rev ? less(I, at, keys[j - 1], k, &lt)
			        : less(I, at, k, keys[j - 1], &lt));
			if (!lt)
				break;
			keys[j] = keys[j - 1];
			l->list->items[j] = l->list->items[j - 1];
			j--;
		}
		keys[j] = k;
		l->list->items[j] = items[i];
	}
	RET(l);
}

static int b_reversed(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "reversed", args, 1, 1));
	if (args->pos[0]->kind == SV_OPAQUE)
		RET(args->pos[0]);
	sv_t **items;
	int n;
	TRY(sb_items(I, at, args->pos[0], &items, &n));
	sv_t *l = sv_list(I->a, n);
	if (!l)
		return serr_oom(I, at);
	for (int i = n - 1; i >= 0; i--)
		if (sv_list_append(I->a, l, items[i]))
			return serr_oom(I, at);
	RET(l);
}

static int any_all(sinterp_t *I, const snode_t *at, const sargs_t *args, bool all, sv_t **out)
{
	TRY(sb_nargs(I, at, all ? "all" : "any", args, 1, 1));
	if (args->pos[0]->kind == SV_OPAQUE)
		RET(args->pos[0]);
	sv_t **items;
	int n;
	TRY(sb_items(I, at, args->pos[0], &items, &n));
	for (int i = 0; i < n; i++) {
		bool t;
		TRY(se_truth(I, at, items[i], &t));
		if (t != all)
			RET(sv_bool(!all));
	}
	RET(sv_bool(all));
}

static int b_any(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return any_all(I, at, args, false, out);
}

static int b_all(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	return any_all(I, at, args, true, out);
}

static int b_map(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	if (args->npos < 2)
		return serr(I, at, DALIC_EINVAL,
		            "TypeError: map() must have at least two arguments.");
	if (sb_any_opaque(args))
		return sb_opaque_result(I, at, "map", out);
	sargs_t rest = {.pos = args->pos + 1, .npos = args->npos - 1};
	sv_t *zipped;
	TRY(b_zip(I, at, NULL, &rest, &zipped));
	sv_t *l = sv_list(I->a, zipped->list->n);
	if (!l)
		return serr_oom(I, at);
	for (int i = 0; i < zipped->list->n; i++) {
		sv_t *t = zipped->list->items[i], *r;
		sargs_t a = {.pos = t->tuple.items, .npos = t->tuple.n};
		TRY(se_call(I, at, args->pos[0], &a, &r));
		if (sv_list_append(I->a, l, r))
			return serr_oom(I, at);
	}
	RET(l);
}

static int b_filter(sinterp_t *I, const snode_t *at, sv_t *self, const sargs_t *args, sv_t **out)
{
	TRY(sb_nargs(I, at, "filter", args, 2, 2));
	if (sb_any_opaque(args))
		return sb_opaque_result(I, at, "filter", out);
	sv_t **items;
	int n;
	TRY(sb_items(I, at, args->pos[1], &items, &n));
	sv_t *l = sv_list(I->a, n);
	if (!l)
		return serr_oom(I, at);
	for (int i = 0; i < n; i++) {
		sv_t *r = items[i];
		if (args->pos[0]->kind != SV_NONE)
			TRY(se_call1(I, at, args->pos[0], items[i], &r));
		bool keep;
		TRY(se_truth(I, at, r, &keep));
		if (keep && sv_list_append(I->a, l, items[i]))
			return serr_oom(I, at);
	}
	RET(l);
}

/* ---- registration --------------------------------------------------------------------- */

int sb_init(sinterp_t *I)
{
	static const struct {
		const char *name;
		sbuiltin_fn fn;
	} fns[] = {
	    {"print", b_print},   {"len", b_len},
	    {"range", b_range},   {"enumerate", b_enumerate},
	    {"zip", b_zip},       {"min", b_min},
	    {"max", b_max},       {"sum", b_sum},
	    {"abs", b_abs},       {"round", b_round},
	    {"sorted", b_sorted}, {"reversed", b_reversed},
	    {"any", b_any},       {"all", b_all},
	    {"map", b_map},       {"filter", b_filter},
	};
	I->builtins = svdict_new(I->a);
	if (!I->builtins)
		return DALIC_ENOMEM;
	for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
		sv_t *v = sb_make(I, fns[i].name, fns[i].fn, NULL, NULL);
		if (!v || svdict_set_str(I->a, I->builtins, fns[i].name, v))
			return DALIC_ENOMEM;
	}
	return sb_init_types(I);
}
