/*
 * Pipeline parameters as DALI's Pipeline constructor takes them (docs/dali-behaviour.md §3.2, §4):
 * batch_size, num_threads, device_id (None = CPU only), seed (None / negative = random),
 * exec_pipelined / exec_async, prefetch_queue_depth (int, or {"cpu_size", "gpu_size"} for
 * separated queues), bytes_per_sample, set_affinity, enable_memory_stats, output_dtype /
 * output_ndim (one value or one per output); the rest of DALI's list is accepted and has no
 * effect. Also whether the pipeline would use DALI's dynamic executor, which decides if
 * DataNode.cpu() may move GPU data back.
 */
#include "frontend/script/dali/sdpipe.h"

#include "engine/dtype.h"
#include "frontend/script/py/pydict.h"

#include <string.h>

/* Pipeline.__init__ parameters: positional order first, then keyword-only ones */
const char *const dalic_sdpipe_ctor_params[] = {
    "batch_size", "num_threads", "device_id", "seed", "exec_pipelined", "prefetch_queue_depth",
    "exec_async", "bytes_per_sample", "set_affinity", "max_streams", "default_cuda_stream_priority",
    /* keyword-only */
    "enable_memory_stats", "enable_checkpointing", "checkpoint", "py_num_workers",
    "py_start_method", "py_callback_pickler", "output_dtype", "output_ndim", "output_layout",
    "exec_dynamic", "experimental_exec_dynamic", NULL};

bool dalic_sdpipe_is_ctor_param(const char *name)
{
	for (int i = 0; dalic_sdpipe_ctor_params[i]; i++)
		if (!strcmp(dalic_sdpipe_ctor_params[i], name))
			return true;
	return false;
}

/* ---- parameters ----------------------------------------------------------------------- */

static int sdpipe_want_int(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t *v,
                           int64_t *out)
{
	if (v->kind == PV_INT || v->kind == PV_BOOL) {
		*out = v->kind == PV_BOOL ? v->b : v->i;
		return DALIC_OK;
	}
	if (v->kind == PV_OPAQUE)
		return dalic_pyeval_opaque_error(I, at, v, name);
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "TypeError: pipeline parameter `%s` must be an int, not %s", name,
	                          dalic_pyval_type_name(v));
}

static int sdpipe_want_bool(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t *v,
                            bool *out)
{
	if (v->kind == PV_OPAQUE)
		return dalic_pyeval_opaque_error(I, at, v, name);
	return dalic_pyeval_truth(I, at, v, out);
}

int dalic_sdpipe_dtype_param(pyinterp_t *I, const pynode_t *at, pyval_t *v, int *out)
{
	if (v->kind == PV_NONE) {
		*out = DALIC_NO_TYPE;
		return DALIC_OK;
	}
	sdenum_t *e = dalic_sdval_enum(v);
	if (!e || e->type != SDVAL_ENUM_DTYPE)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "TypeError: `output_dtype` must be either: a value from "
		    "nvidia.dali.types.DALIDataType, a list of these or None. Found type %s.",
		    dalic_pyval_type_name(v));
	if (e->value == DALIC_NO_TYPE)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "ValueError: `output_dtype` can't be a types.NO_TYPE. Found "
		    "DALIDataType.NO_TYPE.");
	*out = (int)e->value;
	return DALIC_OK;
}

int dalic_sdpipe_ndim_param(pyinterp_t *I, const pynode_t *at, pyval_t *v, int *out)
{
	if (v->kind == PV_NONE) {
		*out = -1;
		return DALIC_OK;
	}
	if (v->kind != PV_INT || v->i < 0)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "ValueError: `output_ndim` must be a non-negative int, a list of these "
		    "or None");
	*out = (int)v->i;
	return DALIC_OK;
}

static int sdpipe_set_param(pyinterp_t *I, const pynode_t *at, sdpipe_t *p, const char *name,
                            pyval_t *v, int *dynamic)
{
	dalic_pipeline_params_t *pp = &p->def->params;
	int64_t x;
	bool b;
	if (!strcmp(name, "batch_size")) {
		DALIC_TRY(sdpipe_want_int(I, at, name, v, &x));
		pp->batch_size = x > INT32_MAX ? INT32_MAX : (int)x;
	} else if (!strcmp(name, "num_threads")) {
		DALIC_TRY(sdpipe_want_int(I, at, name, v, &x));
		pp->num_threads = x > 4096 ? 4096 : (int)x;
	} else if (!strcmp(name, "device_id")) {
		if (v->kind == PV_NONE) {
			pp->device_id = DALIC_CPU_ONLY_DEVICE_ID;
		} else {
			DALIC_TRY(sdpipe_want_int(I, at, name, v, &x));
			pp->device_id = (int)x;
		}
	} else if (!strcmp(name, "seed")) {
		if (v->kind == PV_NONE) {
			pp->seed = -1;
		} else {
			DALIC_TRY(sdpipe_want_int(I, at, name, v, &x));
			pp->seed = x < 0 ? -1 : x;
		}
	} else if (!strcmp(name, "exec_pipelined")) {
		DALIC_TRY(sdpipe_want_bool(I, at, name, v, &pp->exec_pipelined));
	} else if (!strcmp(name, "exec_async")) {
		DALIC_TRY(sdpipe_want_bool(I, at, name, v, &pp->exec_async));
	} else if (!strcmp(name, "set_affinity")) {
		DALIC_TRY(sdpipe_want_bool(I, at, name, v, &pp->set_affinity));
	} else if (!strcmp(name, "enable_memory_stats")) {
		DALIC_TRY(sdpipe_want_bool(I, at, name, v, &pp->enable_memory_stats));
	} else if (!strcmp(name, "enable_checkpointing")) {
		DALIC_TRY(sdpipe_want_bool(I, at, name, v, &pp->enable_checkpointing));
	} else if (!strcmp(name, "bytes_per_sample")) {
		DALIC_TRY(sdpipe_want_int(I, at, name, v, &pp->bytes_per_sample));
	} else if (!strcmp(name, "prefetch_queue_depth")) {
		if (v->kind == PV_INT) {
			pp->separated_queues = false;
			pp->prefetch_cpu = pp->prefetch_gpu = v->i > 1024 ? 1024 : (int)v->i;
		} else if (v->kind == PV_DICT) {
			pyval_t *cpu = dalic_pydict_get_str(v->dict, "cpu_size");
			pyval_t *gpu = dalic_pydict_get_str(v->dict, "gpu_size");
			if (!cpu || !gpu)
				return dalic_pyeval_error(
				    I, at, DALIC_EINVAL,
				    "KeyError: prefetch_queue_depth needs 'cpu_size' and "
				    "'gpu_size'");
			int64_t c, g;
			DALIC_TRY(sdpipe_want_int(I, at, "cpu_size", cpu, &c));
			DALIC_TRY(sdpipe_want_int(I, at, "gpu_size", gpu, &g));
			pp->separated_queues = true;
			pp->prefetch_cpu = c > 1024 ? 1024 : (int)c;
			pp->prefetch_gpu = g > 1024 ? 1024 : (int)g;
		} else if (v->kind == PV_OPAQUE) {
			return dalic_pyeval_opaque_error(I, at, v, name);
		} else {
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: Expected prefetch_queue_depth to be either int or "
			    "Dict[int, int]");
		}
	} else if (!strcmp(name, "output_dtype")) {
		if (v->kind == PV_LIST || v->kind == PV_TUPLE) {
			int n = v->kind == PV_LIST ? v->list->n : v->tuple.n;
			pyval_t **items = v->kind == PV_LIST ? v->list->items : v->tuple.items;
			for (int i = 0; i < n; i++) {
				int d;
				DALIC_TRY(dalic_sdpipe_dtype_param(I, at, items[i], &d));
			}
			p->output_dtype = v;
			pp->output_dtype = DALIC_NO_TYPE;
		} else {
			DALIC_TRY(dalic_sdpipe_dtype_param(I, at, v, &pp->output_dtype));
			p->output_dtype = NULL;
		}
	} else if (!strcmp(name, "output_ndim")) {
		if (v->kind == PV_LIST || v->kind == PV_TUPLE) {
			int n = v->kind == PV_LIST ? v->list->n : v->tuple.n;
			pyval_t **items = v->kind == PV_LIST ? v->list->items : v->tuple.items;
			for (int i = 0; i < n; i++) {
				int d;
				DALIC_TRY(dalic_sdpipe_ndim_param(I, at, items[i], &d));
			}
			p->output_ndim = v;
			pp->output_ndim = -1;
		} else {
			DALIC_TRY(dalic_sdpipe_ndim_param(I, at, v, &pp->output_ndim));
			p->output_ndim = NULL;
		}
	} else if (!strcmp(name, "exec_dynamic") || !strcmp(name, "experimental_exec_dynamic")) {
		if (v->kind != PV_NONE) {
			DALIC_TRY(sdpipe_want_bool(I, at, name, v, &b));
			*dynamic = b;
		}
	}
	/* max_streams, checkpoint (bytes: given through dalic_pipeline_set_checkpoint), Python worker settings, output_layout: no effect here */
	return DALIC_OK;
}

/* Applies keyword parameters in order; DALI's checks on the result. */
int dalic_sdpipe_apply_params(pyinterp_t *I, const pynode_t *at, sdpipe_t *p,
                              const char *const *names, pyval_t *const *vals, int n)
{
	int dynamic = -1;
	for (int i = 0; i < n; i++) {
		if (!dalic_sdpipe_is_ctor_param(names[i]))
			return dalic_pyeval_error(
			    I, at, DALIC_EINVAL,
			    "TypeError: Pipeline.__init__() got an unexpected keyword argument "
			    "'%s'",
			    names[i]);
		DALIC_TRY(sdpipe_set_param(I, at, p, names[i], vals[i], &dynamic));
	}
	dalic_pipeline_params_t *pp = &p->def->params;
	if (pp->separated_queues && !pp->exec_async)
		return dalic_pyeval_error(
		    I, at, DALIC_EINVAL,
		    "ValueError: `exec_async` must not evaluate to `False` when using "
		    "separated queues.");
	/* DALI's dynamic executor (needed for GPU -> CPU) is the default when it can run */
	bool possible = pp->exec_async && pp->exec_pipelined && !pp->separated_queues;
	p->exec_dynamic = dynamic < 0 ? possible : dynamic && possible;
	p->dynamic_off_reason = pp->separated_queues
	                            ? "is not compatible with separated CPU/GPU queues"
	                        : !(pp->exec_async && pp->exec_pipelined)
	                            ? "requires `exec_async` and `exec_pipelined` to be enabled"
	                            : "was explicitly disabled in this pipeline";
	return DALIC_OK;
}

int dalic_sdpipe_param_attr(pyinterp_t *I, const pynode_t *at, sdpipe_t *p, const char *name,
                            pyval_t **out)
{
	const dalic_pipeline_params_t *pp = &p->def->params;
	*out = NULL;
	if (!strcmp(name, "batch_size") || !strcmp(name, "max_batch_size"))
		*out = dalic_pyval_int(I->a, pp->batch_size);
	else if (!strcmp(name, "num_threads"))
		*out = dalic_pyval_int(I->a, pp->num_threads);
	else if (!strcmp(name, "device_id"))
		*out = pp->device_id == DALIC_CPU_ONLY_DEVICE_ID
		           ? dalic_pyval_none()
		           : dalic_pyval_int(I->a, pp->device_id);
	else if (!strcmp(name, "seed"))
		*out = dalic_pyval_int(I->a, pp->seed);
	else if (!strcmp(name, "exec_pipelined"))
		*out = dalic_pyval_bool(pp->exec_pipelined);
	else if (!strcmp(name, "exec_async"))
		*out = dalic_pyval_bool(pp->exec_async);
	else if (!strcmp(name, "set_affinity"))
		*out = dalic_pyval_bool(pp->set_affinity);
	else if (!strcmp(name, "enable_memory_stats"))
		*out = dalic_pyval_bool(pp->enable_memory_stats);
	else if (!strcmp(name, "enable_checkpointing"))
		*out = dalic_pyval_bool(pp->enable_checkpointing);
	else if (!strcmp(name, "exec_dynamic"))
		*out = dalic_pyval_bool(p->exec_dynamic);
	else if (!strcmp(name, "prefetch_queue_depth"))
		*out = dalic_pyval_int(I->a, pp->prefetch_cpu);
	else
		return DALIC_OK;
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}
