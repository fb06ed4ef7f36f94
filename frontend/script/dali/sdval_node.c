/*
 * DataNodes: the value an operator returns, standing for a whole batch. Python operators on
 * them become ArithmeticGenericOp, indexing becomes the subscript operators (sdarith.c),
 * their methods (.gpu(), .cpu(), .shape(), .property(), .source_info(), .get()) add
 * operators too; truth is an error unless the pipeline has conditionals, in which case
 * `if` / `and` / `or` / `not` and variable reads on them go to sdcond.c.
 */
#include "frontend/script/dali/sdval.h"

#include "frontend/script/dali/sdtensor.h"

#include "frontend/script/dali/sdarith.h"
#include "frontend/script/dali/sdcond.h"
#include "frontend/script/dali/sdops.h"
#include "frontend/script/dali/sdpipe.h"
#include "frontend/script/py/pybi.h"

#include <string.h>

static const char *SDVAL_BOOL_ERROR =
    "TypeError: \"DataNode\" was used in conditional context - it might have been used in "
    "truth evaluation for `if` statement, logical expression or cast to a boolean. To use "
    "conditional execution via `if` statements you need to specify `enable_conditionals=True` "
    "in `@nvidia.dali.pipeline_def` decorator. You can read more about conditional execution "
    "in specific section of the Pipeline documentation. Bool conversion can be achieved with "
    "the `cast` operator.";

/* ---- methods -------------------------------------------------------------------------- */

static int sdval_node_gpu(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	if (args->npos || args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: gpu() takes no arguments");
	return dalic_sdarith_to_device(I, at, self, "gpu", out);
}

static int sdval_node_cpu(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	if (args->npos || args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: cpu() takes no arguments");
	return dalic_sdarith_to_device(I, at, self, "cpu", out);
}

static int sdval_node_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const char *path,
                         const pyargs_t *args, const char *key, pyval_t **out)
{
	int n = args->nkw + (key ? 1 : 0);
	const char **names = dalic_pyarena_alloc(I->a, sizeof *names * (size_t)(n + 1));
	pyval_t **vals = dalic_pyarena_alloc(I->a, sizeof *vals * (size_t)(n + 1));
	if (!names || !vals)
		return dalic_pyeval_oom(I, at);
	int k = 0;
	if (key) {
		names[k] = "key";
		if (!(vals[k++] = dalic_pyval_cstr(I->a, key)))
			return dalic_pyeval_oom(I, at);
	}
	for (int i = 0; i < args->nkw; i++) {
		names[k] = args->kwnames[i];
		vals[k++] = args->kwvals[i];
	}
	pyargs_t a = {.pos = &self, .npos = 1, .kwnames = names, .kwvals = vals, .nkw = k};
	return dalic_sdops_call_fn(I, at, path, &a, out);
}

static int sdval_node_shape(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	if (args->npos)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: shape() takes keyword arguments only");
	return sdval_node_fn(I, at, self, "_shape", args, NULL, out);
}

static int sdval_node_property(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                               const pyargs_t *args, pyval_t **out)
{
	if (args->npos != 1 || args->pos[0]->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: property() takes the property name");
	pyargs_t rest = {.kwnames = args->kwnames, .kwvals = args->kwvals, .nkw = args->nkw};
	return sdval_node_fn(I, at, self, "get_property", &rest, args->pos[0]->str.s, out);
}

static int sdval_node_source_info(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                                  const pyargs_t *args, pyval_t **out)
{
	pyargs_t rest = {.kwnames = args->kwnames, .kwvals = args->kwvals, .nkw = args->nkw};
	return sdval_node_fn(I, at, self, "get_property", &rest, "source_info", out);
}

/* node.get(): in DALI's debug mode, the node's TensorList of the current iteration. dalic
 * traces once and debug mode replays print() records each iteration, so get() marks the
 * node for printing its values. */
static int sdval_node_get(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	if (args->npos || args->nkw)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: get() takes no arguments");
	sdnode_t *n = dalic_sdval_node(self);
	if (dalic_sdali_state(I)->replay) /* a print rendered by debug mode: the real batch */
		return dalic_sdtensor_get(I, at, n->name, out);
	if (!n->pipe || !n->pipe->def || !n->pipe->def->debug)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "DataNode.get() is available in debug mode only "
		                          "(@pipeline_def(debug=True))");
	pyval_t *v = dalic_sdval_new_node(I->a, n->name, n->device, n->pipe);
	if (!v)
		return dalic_pyeval_oom(I, at);
	dalic_sdval_node(v)->get = true;
	PYEVAL_RET(v);
}

/* ---- the type ------------------------------------------------------------------------- */

static void sdval_node_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	const sdnode_t *n = dalic_sdval_node(v);
	dalic_pybuf_printf(b, "DataNode(name=\"%s\", device=\"%s\")", n->name, n->device);
}

static bool sdval_node_equal(const pyval_t *x, const pyval_t *y)
{
	const sdnode_t *a = dalic_sdval_node(x), *b = dalic_sdval_node(y);
	return !strcmp(a->name, b->name) && !strcmp(a->device, b->device);
}

static uint64_t sdval_node_hash(const pyval_t *v)
{
	const sdnode_t *n = dalic_sdval_node(v);
	return dalic_pyval_hash_str(n->name, strlen(n->name)) ^ (n->device[0] == 'g');
}

static int sdval_node_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                              pyval_t **out)
{
	static const pyreg_t methods[] = {
	    {"gpu", sdval_node_gpu},
	    {"cpu", sdval_node_cpu},
	    {"shape", sdval_node_shape},
	    {"property", sdval_node_property},
	    {"source_info", sdval_node_source_info},
	    {"get", sdval_node_get},
	    {NULL, NULL},
	};
	const sdnode_t *n = dalic_sdval_node(v);
	if (!strcmp(name, "name"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, n->name));
	if (!strcmp(name, "device"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, n->device));
	for (const pyreg_t *m = methods; m->name; m++)
		if (!strcmp(m->name, name))
			PYEVAL_RET(dalic_pybi_make(I, m->name, m->fn, v, NULL));
	*out = NULL;
	return DALIC_OK;
}

static int sdval_node_iterate(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool unpack)
{
	if (unpack)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: cannot unpack non-iterable DataNode object (the "
		    "operator has a single output)");
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "TypeError: 'DataNode' object is not iterable (a DataNode "
	                          "stands for a whole batch; its samples exist only when the "
	                          "pipeline runs)");
}

static int sdval_node_truth(pyinterp_t *I, const pynode_t *at, pyval_t *v, bool *out)
{
	return dalic_pyeval_error(I, at, DALIC_EINVAL, "%s", SDVAL_BOOL_ERROR);
}

static int sdval_node_unary(pyinterp_t *I, const pynode_t *at, pyunary_t op, pyval_t *v,
                            pyval_t **out)
{
	if (op == U_POS) {
		*out = v;
		return DALIC_OK;
	}
	if (op == U_NEG)
		return dalic_sdarith_op(I, at, "minus", &v, 1, out);
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "TypeError: bad operand type for unary ~: 'DataNode'");
}

/* Also ScalarConstant op ScalarConstant (sdval.c). */
static int sdval_node_binop(pyinterp_t *I, const pynode_t *at, pyop_t op, pyval_t *l, pyval_t *r,
                            pyval_t **out)
{
	const char *name = dalic_sdarith_binop_name(op);
	if (!name)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: unsupported operand type(s) for %s: '%s' and '%s'",
		    dalic_pylex_op_text(op), dalic_pyval_type_name(l), dalic_pyval_type_name(r));
	pyval_t *in[2] = {l, r};
	return dalic_sdarith_op(I, at, name, in, 2, out);
}

static int sdval_node_compare(pyinterp_t *I, const pynode_t *at, pycmp_t op, pyval_t *l, pyval_t *r,
                              pyval_t **out)
{
	pyval_t *in[2] = {l, r};
	return dalic_sdarith_op(I, at, dalic_sdarith_cmp_name(op), in, 2, out);
}

static bool sdval_node_flow(pyinterp_t *I, const pyval_t *v)
{
	return dalic_sdcond_active(I);
}

const pytype_t dalic_sdval_node_type = {
    .name = "DataNode",
    .format = sdval_node_format,
    .equal = sdval_node_equal,
    .hash = sdval_node_hash,
    .getattr = sdval_node_getattr,
    .getitem = dalic_sdarith_subscript,
    .iterate = sdval_node_iterate,
    .truth = sdval_node_truth,
    .unary = sdval_node_unary,
    .binop = sdval_node_binop,
    .compare = sdval_node_compare,
    .flow = sdval_node_flow,
    .flow_if = dalic_sdcond_if,
    .flow_boolop = dalic_sdcond_and_or,
    .flow_not = dalic_sdcond_not,
    .flow_load = dalic_sdcond_load,
};
