/*
 * numba_function in pipeline scripts (see sdpyfn.h): nvidia.dali.plugin.numba's
 * numba_function / NumbaFunction and the `numba` module's decorators. DALI compiles `run_fn`
 * and `setup_fn` with numba; dalic lends them to the NumbaFunction operator
 * (kernels/cpu/python/numba_function.c) and runs them in the script's interpreter with
 * numba's typing (pystate.h, `numba`): setup_fn(outs, ins) fills one int64 shape array per
 * output and sample, run_fn(out0.., in0..) writes into zeroed output arrays, per sample or
 * per batch (lists of arrays) as batch_processing says. Without setup_fn each output takes
 * its input's shape and type. `@numba.njit` and friends are the identity.
 */
#include "frontend/script/dali/sdpyfn.h"

#include "engine/dtype.h"
#include "frontend/script/dali/sdops.h"
#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pymod.h"
#include "frontend/script/py/pynp.h"

#include <stdlib.h>
#include <string.h>

bool dalic_sdnumba_is(const dalic_schema_t *s)
{
	return s && !strcmp(s->name, "NumbaFunction");
}

/* ---- a call while the pipeline runs ---------------------------------------------------- */

typedef struct sdnumba_io {
	const sdpyfn_t *f;
	const dalic_ws_t *ws;
	int n, nout;
	int sample;                       /* -1: the whole batch */
	const dalic_dtype_t *types;       /* the outputs' */
	const int *ndim;                  /* the outputs' */
	int64_t (*shape)[DALIC_MAX_NDIM]; /* [o * n + s] */
	pyval_t **arrs;                   /* what the call's arguments hold: [o * n + s] */
	dalic_cb_sample_t *out;
} sdnumba_io_t;

/* A list of the batch's samples of one output or input, or the one sample. */
static int sdnumba_list(pyinterp_t *I, int n, pyval_t **items, pyval_t **out)
{
	if (!(*out = dalic_pyval_list(I->a, n)))
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int s = 0; s < n; s++)
		if (dalic_pyval_list_append(I->a, *out, items[s]))
			return dalic_fail(DALIC_ENOMEM, "out of memory");
	return DALIC_OK;
}

static pyval_t **sdnumba_slots(pyinterp_t *I, int n)
{
	return dalic_pyarena_alloc(I->a, sizeof(pyval_t *) * (size_t)(n + 1));
}

/* setup_fn(outs, ins): outs[o][s] zeroed int64 arrays of outs_ndim[o], ins[k][s] the input
 * shapes. */
static int sdnumba_setup_args(pyinterp_t *I, void *ctx, pyargs_t *args)
{
	sdnumba_io_t *io = ctx;
	const dalic_ws_t *ws = io->ws;
	int n = io->n;
	pyval_t **outs = sdnumba_slots(I, io->nout), **ins = sdnumba_slots(I, ws->num_inputs);
	pyval_t **tmp = sdnumba_slots(I, n), **pos = sdnumba_slots(I, 2);
	if (!(io->arrs = sdnumba_slots(I, io->nout * n)) || !outs || !ins || !tmp || !pos)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int o = 0; o < io->nout; o++) {
		for (int s = 0; s < n; s++) {
			int64_t len = io->ndim[o];
			DALIC_TRY(dalic_pynp_new(I, NULL, DALIC_INT64, 1, &len, &tmp[s]));
			io->arrs[o * n + s] = tmp[s];
		}
		DALIC_TRY(sdnumba_list(I, n, tmp, &outs[o]));
	}
	for (int k = 0; k < ws->num_inputs; k++) {
		const dalic_batch_t *b = ws->inputs[k];
		for (int s = 0; s < n; s++) {
			int64_t len = b->ndim;
			DALIC_TRY(dalic_pynp_new(I, NULL, DALIC_INT64, 1, &len, &tmp[s]));
			memcpy(dalic_pynp_array(tmp[s])->data,
			       b->shapes + (size_t)s * DALIC_MAX_NDIM,
			       sizeof(int64_t) * (size_t)b->ndim);
			DALIC_TRY(dalic_pynp_refresh(I, dalic_pynp_array(tmp[s])));
		}
		DALIC_TRY(sdnumba_list(I, n, tmp, &ins[k]));
	}
	DALIC_TRY(sdnumba_list(I, io->nout, outs, &pos[0]));
	DALIC_TRY(sdnumba_list(I, ws->num_inputs, ins, &pos[1]));
	args->pos = pos;
	args->npos = 2;
	return DALIC_OK;
}

/* The shapes setup_fn wrote (into the arrays it was given, as DALI reads its buffers). */
static int sdnumba_setup_take(pyinterp_t *I, void *ctx, pyval_t *r)
{
	(void)I;
	(void)r;
	sdnumba_io_t *io = ctx;
	for (int o = 0; o < io->nout; o++)
		for (int s = 0; s < io->n; s++) {
			const pynp_array_t *a = dalic_pynp_array(io->arrs[o * io->n + s]);
			for (int d = 0; d < io->ndim[o]; d++) {
				int64_t v = ((const int64_t *)a->data)[d];
				if (v < 0)
					return dalic_fail(
					    DALIC_EINVAL,
					    "Shape of data should be non negative. After "
					    "setup function shape for output number %d in "
					    "sample %d at dimension %d is negative.",
					    o, s, d);
				io->shape[o * io->n + s][d] = v;
			}
		}
	return DALIC_OK;
}

/* run_fn(out0.., in0..): zeroed output arrays, then the inputs; lists of them per batch. */
static int sdnumba_run_args(pyinterp_t *I, void *ctx, pyargs_t *args)
{
	sdnumba_io_t *io = ctx;
	const dalic_ws_t *ws = io->ws;
	int n = io->n, first = io->sample < 0 ? 0 : io->sample, cnt = io->sample < 0 ? n : 1;
	pyval_t **pos = sdnumba_slots(I, io->nout + ws->num_inputs), **tmp = sdnumba_slots(I, n);
	if (!(io->arrs = sdnumba_slots(I, io->nout * n)) || !pos || !tmp)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int o = 0; o < io->nout; o++) {
		for (int s = first; s < first + cnt; s++) {
			DALIC_TRY(dalic_pynp_new(I, NULL, io->types[o], io->ndim[o],
			                         io->shape[o * n + s], &io->arrs[o * n + s]));
			tmp[s - first] = io->arrs[o * n + s];
		}
		if (io->sample >= 0)
			pos[o] = tmp[0];
		else
			DALIC_TRY(sdnumba_list(I, n, tmp, &pos[o]));
	}
	for (int k = 0; k < ws->num_inputs; k++) {
		for (int s = first; s < first + cnt; s++)
			DALIC_TRY(dalic_sdpyfn_to_py(I, NULL, ws->inputs[k], s, &tmp[s - first]));
		if (io->sample >= 0)
			pos[io->nout + k] = tmp[0];
		else
			DALIC_TRY(sdnumba_list(I, n, tmp, &pos[io->nout + k]));
	}
	args->pos = pos;
	args->npos = io->nout + ws->num_inputs;
	return DALIC_OK;
}

/* What run_fn wrote into the output arrays (its return value is ignored, as numba's is). */
static int sdnumba_run_take(pyinterp_t *I, void *ctx, pyval_t *r)
{
	(void)I;
	(void)r;
	sdnumba_io_t *io = ctx;
	int n = io->n, first = io->sample < 0 ? 0 : io->sample, cnt = io->sample < 0 ? n : 1;
	for (int o = 0; o < io->nout; o++)
		for (int s = first; s < first + cnt; s++) {
			const pynp_array_t *a = dalic_pynp_array(io->arrs[o * n + s]);
			dalic_cb_sample_t *x = &io->out[o * n + s];
			size_t bytes = (size_t)a->size * dalic_dtype_size(a->dtype);
			if (!(x->data = malloc(bytes ? bytes : 1)))
				return dalic_fail(DALIC_ENOMEM, "%s: out of memory for the result",
				                  io->f->what);
			memcpy(x->data, a->data, bytes);
			x->bytes = bytes;
			x->dtype = a->dtype;
			x->ndim = a->ndim;
			memcpy(x->shape, a->shape, sizeof x->shape);
		}
	return DALIC_OK;
}

/* DALI's NumbaFuncImpl::SetupImpl checks of the inputs against in_types / ins_ndim. */
static int sdnumba_check_inputs(const dalic_op_ctx_t *ctx, const dalic_ws_t *ws)
{
	const dalic_value_t *it = dalic_arg(ctx, "in_types"), *in = dalic_arg(ctx, "ins_ndim");
	if (it->n != ws->num_inputs)
		return dalic_fail(DALIC_EINVAL,
		                  "Expected %d inputs (basing on `in_types`), but got %d", it->n,
		                  ws->num_inputs);
	for (int k = 0; k < ws->num_inputs; k++) {
		const dalic_batch_t *b = ws->inputs[k];
		if (b->ndim != in->i[k])
			return dalic_fail(
			    DALIC_EINVAL,
			    "Number of dimensions passed in `ins_ndim` at index %d doesn't "
			    "match the number of dimensions of the input data: %d != %d",
			    k, b->ndim, (int)in->i[k]);
		if ((int64_t)b->dtype != it->i[k])
			return dalic_fail(
			    DALIC_EINVAL,
			    "Data type passed in `in_types` at index %d doesn't match type "
			    "of the input data: %s != %s",
			    k, dalic_dtype_cname(b->dtype),
			    dalic_dtype_cname((dalic_dtype_t)it->i[k]));
	}
	return DALIC_OK;
}

/* The outputs' types and dimensions: out_types / outs_ndim with a setup_fn, else the
 * inputs'. */
static int sdnumba_out_meta(const sdpyfn_t *f, const dalic_op_ctx_t *ctx, const dalic_ws_t *ws,
                            sdnumba_io_t *io, dalic_dtype_t *types, int *ndim)
{
	const dalic_value_t *ot = dalic_arg(ctx, "out_types"), *on = dalic_arg(ctx, "outs_ndim");
	for (int o = 0; o < io->nout; o++) {
		if (f->setup) {
			types[o] = (dalic_dtype_t)ot->i[o];
			ndim[o] = (int)on->i[o];
			if (!dalic_dtype_is_numeric(types[o]) && types[o] != DALIC_BOOL)
				return dalic_fail(DALIC_EINVAL,
				                  "%s: out_types[%d] is %s, not a numeric type",
				                  f->what, o, dalic_dtype_short(types[o]));
			continue;
		}
		const dalic_batch_t *b = ws->inputs[o];
		if ((int64_t)b->dtype != ot->i[o])
			return dalic_fail(
			    DALIC_EUNSUPPORTED,
			    "%s: without setup_fn output %d takes input %d's type %s, but "
			    "out_types[%d] is %s (DALI would view the memory as another "
			    "type); give matching types or a setup_fn",
			    f->what, o, o, dalic_dtype_short(b->dtype), o,
			    dalic_dtype_short((dalic_dtype_t)ot->i[o]));
		types[o] = b->dtype;
		ndim[o] = b->ndim;
		for (int s = 0; s < io->n; s++)
			memcpy(io->shape[o * io->n + s], b->shapes + (size_t)s * DALIC_MAX_NDIM,
			       sizeof io->shape[0]);
	}
	return DALIC_OK;
}

int dalic_sdnumba_call(void *obj, const dalic_op_ctx_t *ctx, const dalic_ws_t *ws, int num_outputs,
                       dalic_cb_sample_t *out)
{
	const sdpyfn_t *f = obj;
	DALIC_TRY(sdnumba_check_inputs(ctx, ws));
	int n = ws->batch_size;
	dalic_dtype_t types[6];
	int ndim[6];
	sdnumba_io_t io = {.f = f,
	                   .ws = ws,
	                   .n = n,
	                   .nout = num_outputs,
	                   .types = types,
	                   .ndim = ndim,
	                   .out = out};
	if (num_outputs > 6 ||
	    !(io.shape = calloc((size_t)(num_outputs * n) + 1, sizeof *io.shape)))
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = sdnumba_out_meta(f, ctx, ws, &io, types, ndim);
	pyinterp_t *I = rc ? NULL : dalic_sdpyfn_enter(f);
	if (!rc && !I)
		rc = dalic_fail(DALIC_EUNSUPPORTED, "%s: the script's interpreter is not kept",
		                f->what);
	if (I) {
		I->numba = true;
		if (f->setup) {
			io.sample = -1;
			char what[200];
			snprintf(what, sizeof what, "%s (setup_fn)", f->what);
			rc = dalic_pycall_run(I, f->setup, what, sdnumba_setup_args,
			                      sdnumba_setup_take, &io);
		}
		bool batch = dalic_arg_bool(ctx, "batch_processing");
		for (int s = batch ? -1 : 0; !rc && s < (batch ? 0 : n); s++) {
			io.sample = s;
			rc = dalic_pycall_run(I, f->func, f->what, sdnumba_run_args,
			                      sdnumba_run_take, &io);
			if (rc && s >= 0)
				dalic_fail_wrap(rc, "sample %d", s);
		}
		I->numba = false;
		dalic_sdpyfn_leave(f);
	}
	free(io.shape);
	return rc;
}

/* ---- the plugin's functions -------------------------------------------------------------- */

static pyval_t *sdnumba_kw(const pyargs_t *args, const char *name)
{
	for (int i = 0; i < args->nkw; i++)
		if (!strcmp(args->kwnames[i], name))
			return args->kwvals[i];
	return NULL;
}

/* NumbaFunction.__init__'s checks, which DALI's Python makes before the operator exists. */
static int sdnumba_precheck(pyinterp_t *I, const pynode_t *at, const pyargs_t *args)
{
	static const char *const required[] = {"run_fn", "out_types", "in_types", "outs_ndim",
	                                       "ins_ndim"};
	char missing[128] = "";
	int nmissing = 0;
	for (int i = 0; i < 5; i++)
		if (!sdnumba_kw(args, required[i])) {
			size_t l = strlen(missing);
			snprintf(missing + l, sizeof missing - l, "%s'%s'", nmissing ? ", " : "",
			         required[i]);
			nmissing++;
		}
	if (nmissing)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: NumbaFunction.__init__() missing %d required "
		                          "keyword argument%s: %s",
		                          nmissing, nmissing > 1 ? "s" : "", missing);
	static const char *const pairs[2][3] = {
	    {"in_types", "ins_ndim", "Number of input types and input dimensions should match."},
	    {"out_types", "outs_ndim",
	     "Number of output types and output dimensions should match."}};
	for (int p = 0; p < 2; p++) {
		int len[2];
		for (int j = 0; j < 2; j++) {
			pyval_t *v = sdnumba_kw(args, pairs[p][j]);
			if (v->kind != PV_LIST && v->kind != PV_TUPLE)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "TypeError: object of type '%s' has no len() "
				    "(numba_function's `%s` is a list)",
				    dalic_pyval_type_name(v), pairs[p][j]);
			len[j] = v->kind == PV_LIST ? v->list->n : v->tuple.n;
			for (int k = 0; j == 0 && k < len[0]; k++) {
				pyval_t *t =
				    v->kind == PV_LIST ? v->list->items[k] : v->tuple.items[k];
				const sdenum_t *e = dalic_sdval_enum(t);
				if (e && e->value == DALIC_FLOAT16)
					return dalic_pyeval_error(
					    I, at, DALIC_EINVAL,
					    "RuntimeError: Numba does not support float16 "
					    "for current Python version. Python 3.7 or "
					    "newer is required");
			}
		}
		if (len[0] != len[1])
			return dalic_pyeval_error(I, at, DALIC_EINVAL, "AssertionError: %s",
			                          pairs[p][2]);
	}
	pyval_t *dev = sdnumba_kw(args, "device");
	if (dev && dev->kind == PV_STR && !strcmp(dev->str.s, "gpu"))
		return dalic_pyeval_error(
		    I, at, DALIC_EUNSUPPORTED,
		    "numba_function: device='gpu' compiles run_fn into a CUDA "
		    "kernel with numba; dalic runs numba_function on the CPU only");
	return DALIC_OK;
}

static int sdnumba_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	(void)self;
	int rc = sdnumba_precheck(I, at, args);
	if (!rc)
		rc = dalic_sdops_plugin_call(I, at, false, "numba_function", args, out);
	if (rc)
		I->keep_error = true;
	return rc;
}

static int sdnumba_class(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	(void)self;
	int rc = sdnumba_precheck(I, at, args);
	if (!rc)
		rc = dalic_sdops_plugin_call(I, at, true, "NumbaFunction", args, out);
	if (rc)
		I->keep_error = true;
	return rc;
}

/* ---- the numba module: decorators as the identity, prange as range ---------------------- */

static int sdnumba_identity(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	(void)self;
	if (args->npos != 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: a numba decorator takes the function");
	*out = args->pos[0];
	return DALIC_OK;
}

/* @njit, @njit(cache=True), @njit("void(uint8[:])"), njit(f): the function itself. */
static int sdnumba_jit(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	(void)self;
	if (args->npos == 1 && !args->nkw &&
	    (args->pos[0]->kind == PV_FUNC || args->pos[0]->kind == PV_BOUND)) {
		*out = args->pos[0];
		return DALIC_OK;
	}
	PYEVAL_RET(dalic_pybi_make(I, "numba.njit.<decorator>", sdnumba_identity, NULL, NULL));
}

static int sdnumba_numba(pyinterp_t *I, const pynode_t *at, pyval_t *m)
{
	static const char *const jits[] = {"njit", "jit"};
	for (int i = 0; i < 2; i++)
		DALIC_TRY(dalic_pymod_set(I, m, jits[i],
		                          dalic_pybi_make(I, jits[i], sdnumba_jit, NULL, NULL)));
	pyval_t *range = dalic_pydict_get_str(I->builtins, "range");
	return range ? dalic_pymod_set(I, m, "prange", range) : dalic_pyeval_oom(I, at);
}

int dalic_sdnumba_module(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t *m)
{
	pyval_t *sub;
	if (!strcmp(name, "numba"))
		return sdnumba_numba(I, at, m);
	if (!strcmp(name, "nvidia.dali.plugin.numba") ||
	    !strcmp(name, "nvidia.dali.plugin.numba.experimental"))
		DALIC_TRY(dalic_pymod_set(
		    I, m, "NumbaFunction",
		    dalic_pybi_make(I, "NumbaFunction", sdnumba_class, NULL, NULL)));
	else
		DALIC_TRY(
		    dalic_pymod_set(I, m, "numba_function",
		                    dalic_pybi_make(I, "numba_function", sdnumba_fn, NULL, NULL)));
	if (!strcmp(name, "nvidia.dali.plugin.numba")) {
		DALIC_TRY(dalic_pymod_get(I, at, "nvidia.dali.plugin.numba.fn", &sub));
		DALIC_TRY(dalic_pymod_set(I, m, "fn", sub));
		DALIC_TRY(dalic_pymod_get(I, at, "nvidia.dali.plugin.numba.experimental", &sub));
		DALIC_TRY(dalic_pymod_set(I, m, "experimental", sub));
	} else if (!strcmp(name, "nvidia.dali.plugin.numba.fn")) {
		DALIC_TRY(dalic_pymod_get(I, at, "nvidia.dali.plugin.numba.fn.experimental", &sub));
		DALIC_TRY(dalic_pymod_set(I, m, "experimental", sub));
	}
	return DALIC_OK;
}
