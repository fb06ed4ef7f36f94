/*
 * abc and functools (see pystdlib.h); dataclasses is in pydataclass.c. functools.partial is a
 * host type so that a partial object can be called (external sources, python_function) and
 * shows its function and arguments.
 */
#include "frontend/script/py/pystdlib.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pyexec.h"

#include <string.h>
#include <unistd.h>

/* ---- functools ---------------------------------------------------------------------------- */

typedef struct pystdlib_partial {
	pyval_t *func;
	pyargs_t args; /* bound first; keywords of the call override */
} pystdlib_partial_t;

static const pytype_t pystdlib_partial_type;

static int pystdlib_partial_call(pyinterp_t *I, const pynode_t *at, pyval_t *v,
                                 const pyargs_t *args, pyval_t **out)
{
	const pystdlib_partial_t *p = v->host.data;
	int npos = p->args.npos + args->npos, nkw = p->args.nkw + args->nkw;
	pyval_t **pos = dalic_pyarena_alloc(I->a, sizeof *pos * (size_t)(npos + 1));
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)(nkw + 1));
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)(nkw + 1));
	if (!pos || !names || !vals)
		return dalic_pyeval_oom(I, at);
	/* the copies skip empty lists: their pointers may be NULL (memcpy's contract) */
	if (p->args.npos)
		memcpy(pos, p->args.pos, sizeof *pos * (size_t)p->args.npos);
	if (args->npos)
		memcpy(pos + p->args.npos, args->pos, sizeof *pos * (size_t)args->npos);
	int k = 0;
	for (int i = 0; i < p->args.nkw; i++)
		if (!dalic_pyeval_kwarg(args, p->args.kwnames[i])) {
			names[k] = p->args.kwnames[i];
			vals[k++] = p->args.kwvals[i];
		}
	if (args->nkw) {
		memcpy(names + k, args->kwnames, sizeof *names * (size_t)args->nkw);
		memcpy(vals + k, args->kwvals, sizeof *vals * (size_t)args->nkw);
	}
	pyargs_t all = {.pos = pos, .npos = npos, .kwnames = names, .kwvals = vals,
	                .nkw = k + args->nkw};
	return dalic_pyeval_call(I, at, p->func, &all, out);
}

static int pystdlib_partial_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v,
                                    const char *name, pyval_t **out)
{
	const pystdlib_partial_t *p = v->host.data;
	*out = NULL;
	if (!strcmp(name, "func"))
		*out = p->func;
	else if (!strcmp(name, "args"))
		PYEVAL_RET(dalic_pybi_tuple(I, p->args.pos, p->args.npos));
	else if (!strcmp(name, "keywords")) {
		pyval_t *d = dalic_pyval_dict(I->a);
		for (int i = 0; d && i < p->args.nkw; i++)
			if (dalic_pydict_set_str(I->a, d->dict, p->args.kwnames[i], p->args.kwvals[i]))
				d = NULL;
		PYEVAL_RET(d);
	}
	return DALIC_OK;
}

static void pystdlib_partial_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	const pystdlib_partial_t *p = v->host.data;
	dalic_pybuf_puts(b, "functools.partial(");
	dalic_pyval_format(b, p->func, true);
	for (int i = 0; i < p->args.npos; i++) {
		dalic_pybuf_puts(b, ", ");
		dalic_pyval_format(b, p->args.pos[i], true);
	}
	for (int i = 0; i < p->args.nkw; i++) {
		dalic_pybuf_printf(b, ", %s=", p->args.kwnames[i]);
		dalic_pyval_format(b, p->args.kwvals[i], true);
	}
	dalic_pybuf_puts(b, ")");
}

static const pytype_t pystdlib_partial_type = {
    .name = "functools.partial",
    .format = pystdlib_partial_format,
    .getattr = pystdlib_partial_getattr,
    .call = pystdlib_partial_call,
};

static int pystdlib_partial(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	if (!args->npos)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: type 'partial' takes at least one argument");
	pystdlib_partial_t *p = dalic_pyarena_alloc(I->a, sizeof *p);
	int n = args->npos - 1;
	if (!p || !(p->args.pos = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(n + 1))) ||
	    !(p->args.kwnames = dalic_pyarena_alloc(I->a, sizeof(char *) * (size_t)(args->nkw + 1))) ||
	    !(p->args.kwvals = dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(args->nkw + 1))))
		return dalic_pyeval_oom(I, at);
	p->func = args->pos[0];
	memcpy(p->args.pos, args->pos + 1, sizeof(pyval_t *) * (size_t)n);
	p->args.npos = n;
	if (args->nkw) { /* NULL lists when empty */
		memcpy(p->args.kwnames, args->kwnames, sizeof(char *) * (size_t)args->nkw);
		memcpy(p->args.kwvals, args->kwvals, sizeof(pyval_t *) * (size_t)args->nkw);
	}
	p->args.nkw = args->nkw;
	PYEVAL_RET(dalic_pyval_host(I->a, &pystdlib_partial_type, p));
}

static int pystdlib_identity(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                             pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "decorator", args, 1, 1));
	*out = args->pos[0];
	return DALIC_OK;
}

/* @lru_cache, @lru_cache(maxsize=...), @cache, @wraps(f): the function itself (a cache
 * changes nothing a pipeline definition can observe) */
static int pystdlib_decorator(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	bool is_function = args->npos == 1 && !args->nkw &&
	                   (args->pos[0]->kind == PV_FUNC || args->pos[0]->kind == PV_BOUND) &&
	                   strcmp(self->builtin.name, "wraps");
	if (is_function) {
		*out = args->pos[0];
		return DALIC_OK;
	}
	PYEVAL_RET(dalic_pybi_make(I, self->builtin.name, pystdlib_identity, NULL, NULL));
}

static int pystdlib_reduce(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "reduce", args, 2, 3));
	pyval_t **items;
	int n, i = 0;
	DALIC_TRY(dalic_pybi_items(I, at, args->pos[1], &items, &n));
	pyval_t *acc = args->npos == 3 ? args->pos[2] : NULL;
	if (!acc) {
		if (!n)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "TypeError: reduce() of empty iterable with no initial "
			                          "value");
		acc = items[i++];
	}
	for (; i < n; i++) {
		pyval_t *two[2] = {acc, items[i]};
		pyargs_t a = {.pos = two, .npos = 2};
		DALIC_TRY(dalic_pyeval_call(I, at, args->pos[0], &a, &acc));
	}
	*out = acc;
	return DALIC_OK;
}

static int pystdlib_open_functools(pyinterp_t *I, const pynode_t *at, const char *name,
                                   pyval_t **out)
{
	static const pyreg_t fns[] = {{"partial", pystdlib_partial}, {"reduce", pystdlib_reduce}, {NULL, NULL}};
	static const char *const decorators[] = {"wraps", "lru_cache", "cache", "total_ordering"};
	pyval_t *m = dalic_pymod_new(I, name, true);
	if (!m || dalic_pybi_register(I, m->mod->attrs, fns, false))
		return dalic_pyeval_oom(I, at);
	for (size_t i = 0; i < sizeof decorators / sizeof *decorators; i++) {
		pyval_t *d = dalic_pybi_make_self(I, decorators[i], pystdlib_decorator, NULL);
		if (dalic_pymod_set(I, m, decorators[i], d))
			return dalic_pyeval_oom(I, at);
	}
	*out = m;
	return DALIC_OK;
}

/* ---- abc ---------------------------------------------------------------------------------- */

static int pystdlib_open_abc(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, name, false);
	if (!m)
		return dalic_pyeval_oom(I, at);
	static const char *const classes[] = {"ABC", "ABCMeta"};
	for (int i = 0; i < 2; i++) {
		pyclass_t *c = dalic_pyexec_new_class(I, classes[i], "abc");
		pyval_t *cv = dalic_pyval_new(I->a, PV_CLASS);
		if (!c || !cv)
			return dalic_pyeval_oom(I, at);
		cv->cls = c;
		if (dalic_pymod_set(I, m, classes[i], cv))
			return dalic_pyeval_oom(I, at);
	}
	pyval_t *am = dalic_pybi_make(I, "abstractmethod", pystdlib_identity, NULL, NULL);
	if (dalic_pymod_set(I, m, "abstractmethod", am))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

/* ---- multiprocessing ------------------------------------------------------------------ */

/* multiprocessing.cpu_count(): what num_threads is often computed from */
static int pystdlib_cpu_count(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                              const pyargs_t *args, pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "cpu_count", args, 0, 0));
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	PYEVAL_RET(dalic_pyval_int(I->a, n > 0 ? n : 1));
}

static int pystdlib_open_multiprocessing(pyinterp_t *I, const pynode_t *at, const char *name,
                                         pyval_t **out)
{
	/* opaque: pools and processes stay stand-ins for display code */
	pyval_t *m = dalic_pymod_new(I, name, true);
	if (!m || dalic_pymod_set(I, m, "cpu_count",
	                          dalic_pybi_make(I, "cpu_count", pystdlib_cpu_count, NULL, NULL)))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}

static const pymodreg_t pystdlib_modules[] = {
    {"multiprocessing", pystdlib_open_multiprocessing},
    {"dataclasses", dalic_pydataclass_module},
    {"functools", pystdlib_open_functools},
    {"abc", pystdlib_open_abc},
    {"argparse", dalic_pyargparse_module},
    {NULL, NULL},
};

int dalic_pystdlib_open(pyinterp_t *I)
{
	return dalic_pymod_preload(I, pystdlib_modules);
}
