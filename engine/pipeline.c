/*
 * The pipeline object: the public API of include/dalic.h over a graph definition, the built
 * graph and the executor. It implements DALI's Python-level run loop (docs/dali-behaviour.md §3.5): the
 * first schedule_run of a pipelined pipeline fills the prefetch queue, each later one
 * schedules one iteration; outputs() hands them back in order; end of data from an input
 * stops scheduling while batches in flight still come out; mixing run() with the
 * schedule_run() family is an error; after an operator failure the pipeline refuses work.
 */
#include "engine/pipeline.h"

#include "engine/checkpoint_run.h"
#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/executor.h"
#include "engine/feed.h"
#include "stats/tracers.h"

#include <stdlib.h>
#include <string.h>

#define DALIC_MAX_THREADS 1024

enum { API_NONE, API_BASIC, API_SCHEDULED };

struct dalic_pipeline {
	dalic_graphdef_t *def;
	dalic_graph_t *graph;
	dalic_exec_t *exec;
	dalic_feed_queue_t *feeds;  /* one per ExternalSource in def */
	int num_feeds;
	dalic_feed_queue_t **node_feeds; /* per graph node */
	bool built;
	bool broken;
	char *broken_msg;
	int api;
	bool first_iter;
	bool last_iter;
	int batches_to_consume;
	dalic_observer_mux_t observers;
	void *tracers;                 /* stats/tracers.c: named tracers, a stats server */
	void (*tracers_stop)(void *); /* before the executor stops (a server thread) */
	void (*tracers_free)(void *); /* once the executor stopped */
	bool tracers_chosen;           /* set explicitly, or DALIC_TRACERS was read */
	dalic_warnlog_t *warnings; /* the operators' data-quality warnings (warnings.h) */
	bool scan;                 /* dalic_pipeline_make_scan: sample errors are logged */
	struct dalic_ckpt_run *ckpt; /* position, checkpoint traces (checkpoint_run.c) */
};

/* The size of the first dalic_pipeline_params_t that carried struct_size: every caller's
 * struct holds at least these fields. */
#define PIPELINE_PARAMS_MIN_SIZE                                                                   \
	(offsetof(dalic_pipeline_params_t, output_ndim) + sizeof(int))

static void pipeline_params_defaults(dalic_pipeline_params_t *p)
{
	memset(p, 0, sizeof *p);
	p->struct_size = sizeof *p;
	p->num_threads = 4;
	p->device_id = 0;
	p->seed = -1;
	p->exec_pipelined = true;
	p->exec_async = true;
	p->prefetch_cpu = 2;
	p->prefetch_gpu = 2;
	p->output_dtype = DALIC_NO_TYPE;
	p->output_ndim = -1;
}

void dalic_pipeline_params_init_sized(dalic_pipeline_params_t *p, size_t size)
{
	if (!p || size < sizeof p->struct_size)
		return;
	dalic_pipeline_params_t d;
	pipeline_params_defaults(&d);
	/* a caller built against newer headers: fields this library does not know stay zero */
	memcpy(p, &d, size < sizeof d ? size : sizeof d);
	if (size > sizeof d)
		memset((char *)p + sizeof d, 0, size - sizeof d);
	p->struct_size = size;
}

int dalic_pipeline_params_import(dalic_pipeline_params_t *dst, const dalic_pipeline_params_t *src)
{
	size_t n = src->struct_size;
	if (n < PIPELINE_PARAMS_MIN_SIZE)
		return dalic_fail(
		    DALIC_EINVAL,
		    "pipeline parameters not initialised (struct_size %zu): start from "
		    "dalic_pipeline_params_init()",
		    n);
	for (size_t i = sizeof *dst; i < n; i++)
		if (((const unsigned char *)src)[i])
			return dalic_fail(DALIC_EUNSUPPORTED,
					  "pipeline parameters set a field this library (dalic %s) "
					  "does not know (byte %zu of %zu)",
					  DALIC_VERSION, i, n);
	pipeline_params_defaults(dst);
	memcpy(dst, src, n < sizeof *dst ? n : sizeof *dst);
	dst->struct_size = sizeof *dst;
	return DALIC_OK;
}

const char *dalic_executor_mode_name(const dalic_pipeline_params_t *p)
{
	if (!p->exec_pipelined)
		return "simple";
	if (!p->exec_async)
		return "pipelined";
	return p->separated_queues ? "async separated pipelined" : "async pipelined";
}

static int pipeline_validate_params(const dalic_pipeline_params_t *p)
{
	if (p->batch_size <= 0)
		return dalic_fail(DALIC_EINVAL,
				  "Invalid batch size: %d. Please set a positive integer.",
				  p->batch_size);
	if (p->num_threads <= 0)
		return dalic_fail(DALIC_EINVAL,
				  "Invalid number of threads: %d. Please set a positive integer.",
				  p->num_threads);
	if (p->num_threads > DALIC_MAX_THREADS) /* a file must not make us start 2^31 threads */
		return dalic_fail(DALIC_EINVAL, "Invalid number of threads: %d (at most %d).",
				  p->num_threads, DALIC_MAX_THREADS);
	if (p->prefetch_cpu <= 0 || p->prefetch_gpu <= 0)
		return dalic_fail(DALIC_EINVAL, "The prefetch queue depth must be greater than 0.");
	if (!p->separated_queues && p->prefetch_cpu != p->prefetch_gpu)
		return dalic_fail(DALIC_EINVAL,
				  "The prefetch queue depth must be the same for CPU and GPU if "
				  "separated execution is not used.");
	if (p->separated_queues && (!p->exec_async || !p->exec_pipelined))
		return dalic_fail(DALIC_EINVAL,
				  "`prefetch_queue_depth` with separate cpu and gpu sizes requires "
				  "`exec_async=True` and `exec_pipelined=True`.");
	if (p->device_id < 0 && p->device_id != DALIC_CPU_ONLY_DEVICE_ID)
		return dalic_fail(DALIC_EINVAL, "Invalid device_id: %d", p->device_id);
	if (p->output_ndim < -1)
		return dalic_fail(DALIC_EINVAL, "output_ndim must be >= 0 or unset");
	return DALIC_OK;
}

int dalic_pipeline_from_graphdef(dalic_graphdef_t *def, dalic_pipeline_t **out)
{
	*out = NULL;
	int rc = pipeline_validate_params(&def->params);
	if (rc) {
		dalic_graphdef_free(def);
		return rc;
	}
	dalic_pipeline_t *p = calloc(1, sizeof *p);
	if (!p) {
		dalic_graphdef_free(def);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	def->params.script_args = NULL; /* borrowed by the load that made def */
	def->params.num_script_args = 0;
	p->def = def;
	p->first_iter = true;
	if (!(p->warnings = dalic_warnlog_new())) {
		dalic_pipeline_destroy(p);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	*out = p;
	return DALIC_OK;
}

int dalic_pipeline_create(const dalic_pipeline_params_t *params, dalic_pipeline_t **out)
{
	if (!params || !out)
		return dalic_fail(DALIC_EINVAL, "dalic_pipeline_create: NULL argument");
	dalic_pipeline_params_t own;
	int rc = dalic_pipeline_params_import(&own, params);
	if (!rc)
		rc = pipeline_validate_params(&own);
	if (rc)
		return rc;
	dalic_graphdef_t *def = dalic_graphdef_new(&own);
	if (!def)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	return dalic_pipeline_from_graphdef(def, out);
}

static void pipeline_teardown(dalic_pipeline_t *p)
{
	for (int i = 0; i < p->num_feeds; i++)
		dalic_feed_queue_stop(&p->feeds[i]);
	dalic_exec_destroy(p->exec);
	p->exec = NULL;
	dalic_graph_free(p->graph);
	p->graph = NULL;
	free(p->node_feeds);
	p->node_feeds = NULL;
	p->built = false;
}

void dalic_pipeline_destroy(dalic_pipeline_t *p)
{
	if (!p)
		return;
	if (p->tracers_stop)
		p->tracers_stop(p->tracers);
	pipeline_teardown(p);
	if (p->tracers_free)
		p->tracers_free(p->tracers);
	for (int i = 0; i < p->num_feeds; i++)
		dalic_feed_queue_destroy(&p->feeds[i]);
	free(p->feeds);
	free(p->broken_msg);
	dalic_graphdef_free(p->def);
	dalic_warnlog_free(p->warnings);
	dalic_ckpt_run_free(p->ckpt);
	free(p);
}

struct dalic_ckpt_run **dalic_pipeline_ckpt(dalic_pipeline_t *p)
{
	return &p->ckpt;
}

dalic_warnlog_t *dalic_pipeline_warnlog(const dalic_pipeline_t *p)
{
	return p->warnings;
}

int dalic_pipeline_set_scan(dalic_pipeline_t *p)
{
	if (p->built)
		return dalic_fail(DALIC_ESTATE, "a built pipeline cannot become a scan");
	p->scan = true;
	return DALIC_OK;
}

const dalic_pipeline_params_t *dalic_pipeline_params(const dalic_pipeline_t *p)
{
	return p->graph ? &p->graph->params : &p->def->params;
}

dalic_graphdef_t *dalic_pipeline_graphdef(dalic_pipeline_t *p)
{
	return p->def;
}

const dalic_graph_t *dalic_pipeline_graph(const dalic_pipeline_t *p)
{
	return p->graph;
}

/* ---- definition ---- */

static int pipeline_check_editable(const dalic_pipeline_t *p)
{
	if (p->built)
		return dalic_fail(DALIC_ESTATE, "the pipeline is already built; it cannot change");
	return DALIC_OK;
}

#define OPDEF(op) ((dalic_opdef_t *)(op))

int dalic_pipeline_add_op(dalic_pipeline_t *p, const char *op, const char *device,
			  dalic_op_t **out)
{
	int rc = pipeline_check_editable(p);
	dalic_opdef_t *def = NULL;
	if (!rc)
		rc = dalic_graphdef_add_op(p->def, op, device, &def);
	if (!rc)
		*out = (dalic_op_t *)def;
	return rc;
}

int dalic_op_set_name(dalic_op_t *op, const char *name)
{
	return dalic_graphdef_op_set_name(OPDEF(op), name);
}

int dalic_op_add_input(dalic_op_t *op, const char *node, const char *device)
{
	return dalic_graphdef_op_add_input(OPDEF(op), node, device);
}

int dalic_op_set_arg_input(dalic_op_t *op, const char *arg, const char *node)
{
	return dalic_graphdef_op_add_arg_input(OPDEF(op), arg, node);
}

static int pipeline_set_value(dalic_op_t *op, const char *arg, dalic_value_t *v, int rc)
{
	if (!rc)
		rc = dalic_graphdef_op_set_arg(OPDEF(op), arg, v);
	dalic_value_free(v);
	return rc;
}

int dalic_op_set_int(dalic_op_t *op, const char *arg, int64_t x)
{
	dalic_value_t v;
	return pipeline_set_value(op, arg, &v, dalic_value_int(&v, x));
}

int dalic_op_set_float(dalic_op_t *op, const char *arg, double x)
{
	dalic_value_t v;
	return pipeline_set_value(op, arg, &v, dalic_value_float(&v, x));
}

int dalic_op_set_bool(dalic_op_t *op, const char *arg, bool x)
{
	dalic_value_t v;
	return pipeline_set_value(op, arg, &v, dalic_value_bool(&v, x));
}

int dalic_op_set_string(dalic_op_t *op, const char *arg, const char *x)
{
	if (!x)
		return dalic_fail(DALIC_EINVAL, "operator '%s': NULL string for argument '%s'",
				  OPDEF(op)->inst, arg);
	dalic_value_t v;
	return pipeline_set_value(op, arg, &v, dalic_value_string(&v, x));
}

int dalic_op_set_ints(dalic_op_t *op, const char *arg, int n, const int64_t *x)
{
	dalic_value_t v;
	return pipeline_set_value(op, arg, &v, dalic_value_list(&v, DALIC_V_INT, n, x));
}

int dalic_op_set_floats(dalic_op_t *op, const char *arg, int n, const double *x)
{
	dalic_value_t v;
	return pipeline_set_value(op, arg, &v, dalic_value_list(&v, DALIC_V_FLOAT, n, x));
}

int dalic_op_set_strings(dalic_op_t *op, const char *arg, int n, const char *const *x)
{
	dalic_value_t v;
	return pipeline_set_value(op, arg, &v, dalic_value_list(&v, DALIC_V_STRING, n, x));
}

const char *dalic_op_name(const dalic_op_t *op)
{
	return ((const dalic_opdef_t *)op)->inst;
}

int dalic_op_num_outputs(const dalic_op_t *op)
{
	return ((const dalic_opdef_t *)op)->num_outputs;
}

const char *dalic_op_output(const dalic_op_t *op, int i)
{
	const dalic_opdef_t *d = (const dalic_opdef_t *)op;
	return i >= 0 && i < d->num_outputs ? d->outputs[i] : NULL;
}

int dalic_pipeline_add_output(dalic_pipeline_t *p, const char *node, const char *device)
{
	int rc = pipeline_check_editable(p);
	return rc ? rc : dalic_graphdef_add_output(p->def, node, device);
}

int dalic_pipeline_set_output_desc(dalic_pipeline_t *p, int i, dalic_dtype_t dtype, int ndim,
				   const char *layout)
{
	int rc = pipeline_check_editable(p);
	if (!rc && dtype != DALIC_NO_TYPE && !dalic_dtype_size(dtype) && dtype != DALIC_STRING)
		rc = dalic_fail(DALIC_EINVAL, "output %d: invalid dtype %d", i, (int)dtype);
	return rc ? rc : dalic_graphdef_set_output_desc(p->def, i, dtype, ndim, layout);
}

/* ---- the definition as a whole ---- */

int dalic_pipeline_clone(const dalic_pipeline_t *p, const dalic_pipeline_params_t *params,
			 dalic_pipeline_t **out)
{
	*out = NULL;
	dalic_graphdef_t *def = dalic_graphdef_clone(p->def);
	if (!def)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = params ? dalic_pipeline_params_import(&def->params, params) : DALIC_OK;
	if (rc) {
		dalic_graphdef_free(def);
		return rc;
	}
	return dalic_pipeline_from_graphdef(def, out);
}

bool dalic_pipeline_debug_requested(const dalic_pipeline_t *p)
{
	return p->def->debug;
}

int dalic_pipeline_num_ops(const dalic_pipeline_t *p)
{
	return p->def->num_ops;
}

dalic_op_t *dalic_pipeline_op(dalic_pipeline_t *p, int i)
{
	return i >= 0 && i < p->def->num_ops ? (dalic_op_t *)p->def->ops[i] : NULL;
}

dalic_op_t *dalic_pipeline_find_op(dalic_pipeline_t *p, const char *name)
{
	return name ? (dalic_op_t *)dalic_graphdef_find_op(p->def, name) : NULL;
}

const char *dalic_op_schema(const dalic_op_t *op)
{
	return ((const dalic_opdef_t *)op)->schema->name;
}

int dalic_pipeline_validate(dalic_pipeline_t *p)
{
	if (p->built)
		return DALIC_OK;
	dalic_graph_t *g = NULL;
	int rc = pipeline_validate_params(&p->def->params);
	if (!rc)
		rc = dalic_graph_build(p->def, &g);
	dalic_graph_free(g);
	return rc;
}

/* ---- build ---- */

static int pipeline_make_feeds(dalic_pipeline_t *p)
{
	int n = 0;
	for (int i = 0; i < p->def->num_ops; i++)
		n += p->def->ops[i]->schema->is_input;
	if (p->feeds) /* rebuilt after a failure: keep queues and what was fed */
		return DALIC_OK;
	p->feeds = calloc((size_t)n + 1, sizeof *p->feeds);
	if (!p->feeds)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; i < p->def->num_ops; i++) {
		const dalic_opdef_t *op = p->def->ops[i];
		if (!op->schema->is_input)
			continue;
		int rc = dalic_feed_queue_init(&p->feeds[p->num_feeds], op->inst,
					       p->def->params.batch_size);
		if (rc)
			return rc;
		dalic_feed_queue_set_def(&p->feeds[p->num_feeds], op);
		p->num_feeds++;
	}
	return DALIC_OK;
}

static dalic_feed_queue_t *pipeline_find_feed(dalic_pipeline_t *p, const char *name)
{
	for (int i = 0; i < p->num_feeds; i++)
		if (!strcmp(p->feeds[i].name, name))
			return &p->feeds[i];
	return NULL;
}

/* A source the definition's runtime feeds itself (a script's Python `source=`). A source
 * set through the API later replaces it. */
static int pipeline_install_source(void *ctx, const char *name, dalic_source_fn fn, void *user)
{
	dalic_feed_queue_t *q = pipeline_find_feed(ctx, name);
	if (q && !q->fn) {
		q->fn = fn;
		q->user = user;
	}
	return DALIC_OK;
}

static int pipeline_runtime_sources(dalic_pipeline_t *p)
{
	const dalic_graphdef_t *d = p->def;
	if (!d->runtime || !d->runtime_cls->sources)
		return DALIC_OK;
	return d->runtime_cls->sources(d->runtime, d->params.batch_size, pipeline_install_source,
					 p);
}

static void pipeline_install_observers(dalic_pipeline_t *p)
{
	dalic_observer_t fanout;
	if (p->exec)
		dalic_exec_set_observer(p->exec, dalic_observer_mux_view(&p->observers, &fanout));
}

int dalic_pipeline_build(dalic_pipeline_t *p)
{
	if (p->built)
		return DALIC_OK;
	if (p->broken)
		return dalic_fail(DALIC_EBROKEN, "%s", p->broken_msg);
	int rc = pipeline_validate_params(&p->def->params);
	if (!rc)
		rc = dalic_graph_build(p->def, &p->graph);
	if (!rc)
		rc = pipeline_make_feeds(p);
	if (!rc)
		rc = pipeline_runtime_sources(p);
	if (!rc) {
		/* the seed actually used is what gets serialized (DALI's original_seed_) */
		p->def->params.seed = p->graph->params.seed;
		p->node_feeds = calloc((size_t)p->graph->num_nodes + 1, sizeof *p->node_feeds);
		if (!p->node_feeds)
			rc = dalic_fail(DALIC_ENOMEM, "out of memory");
		for (int i = 0; !rc && i < p->graph->num_nodes; i++)
			if (p->graph->nodes[i]->schema->is_input)
				p->node_feeds[i] = pipeline_find_feed(p, p->graph->nodes[i]->inst);
	}
	if (!rc && !p->tracers_chosen)
		rc = dalic_tracers_from_env(p); /* DALIC_TRACERS, DALIC_STATS_SOCKET */
	if (!rc)
		rc = dalic_exec_create(p->graph, p->node_feeds, &p->exec);
	if (!rc)
		pipeline_install_observers(p);
	if (!rc)
		dalic_exec_set_warnings(p->exec, p->warnings, p->scan);
	if (!rc)
		rc = dalic_ckpt_run_build(p);
	if (rc) {
		pipeline_teardown(p);
		return rc;
	}
	p->built = true;
	return DALIC_OK;
}

/* ---- feeding ---- */

static int pipeline_broken(dalic_pipeline_t *p);

int dalic_pipeline_feed_input(dalic_pipeline_t *p, const char *name, dalic_dtype_t dtype,
			      int ndim, int batch, const int64_t *shapes, const void *data,
			      const char *layout)
{
	return dalic_pipeline_feed_input_sources(p, name, dtype, ndim, batch, shapes, data, layout,
						 NULL);
}

int dalic_pipeline_feed_input_sources(dalic_pipeline_t *p, const char *name, dalic_dtype_t dtype,
				      int ndim, int batch, const int64_t *shapes,
				      const void *data, const char *layout,
				      const char *const *sources)
{
	int rc = dalic_pipeline_build(p);
	if (rc)
		return rc;
	if (p->broken)
		return pipeline_broken(p);
	dalic_feed_queue_t *q = pipeline_find_feed(p, name);
	if (!q)
		return dalic_fail(DALIC_EINVAL, "no external_source named '%s' in the pipeline",
				  name);
	int k = 0;
	rc = dalic_feed_queue_push(q, dtype, ndim, batch, shapes, data, layout, sources, &k);
	/* the executor counts batches to know when callbacks must run (a streaming input's
	 * one video is several) */
	while (k-- > 0)
		dalic_exec_note_fed(p->exec, q);
	return rc;
}

int dalic_pipeline_set_source(dalic_pipeline_t *p, const char *name, dalic_source_fn fn,
			      void *user)
{
	int rc = dalic_pipeline_build(p);
	if (rc)
		return rc;
	if (p->broken)
		return pipeline_broken(p);
	dalic_feed_queue_t *q = pipeline_find_feed(p, name);
	if (!q)
		return dalic_fail(DALIC_EINVAL, "no external_source named '%s' in the pipeline",
				  name);
	q->fn = fn;
	q->user = user;
	return DALIC_OK;
}

/* ---- running ---- */

static int pipeline_broken(dalic_pipeline_t *p)
{
	return dalic_fail(DALIC_EBROKEN, "Current pipeline object is no longer valid: %s",
			  p->broken_msg ? p->broken_msg : "an earlier call failed");
}

static int pipeline_enter(dalic_pipeline_t *p, int api)
{
	if (p->broken)
		return pipeline_broken(p);
	if (p->api != API_NONE && p->api != api)
		return dalic_fail(DALIC_ESTATE,
				  "Mixing pipeline API type. Currently used: %s, but trying to use "
				  "%s.",
				  p->api == API_BASIC ? "PipelineAPIType.BASIC"
						      : "PipelineAPIType.SCHEDULED",
				  api == API_BASIC ? "PipelineAPIType.BASIC"
						   : "PipelineAPIType.SCHEDULED");
	int rc = dalic_pipeline_build(p);
	if (rc)
		return rc;
	p->api = api;
	return DALIC_OK;
}

static int pipeline_fail_broken(dalic_pipeline_t *p, int rc)
{
	p->broken = true;
	free(p->broken_msg);
	p->broken_msg = strdup(dalic_last_error());
	return dalic_fail(rc, "Critical error in pipeline:\n%s\nCurrent pipeline object is no "
			  "longer valid.",
			  p->broken_msg ? p->broken_msg : "");
}

static int pipeline_run_once(dalic_pipeline_t *p)
{
	if (p->last_iter)
		return DALIC_OK;
	int rc = dalic_exec_schedule(p->exec);
	if (rc == DALIC_EEND) {
		p->last_iter = true;
		return DALIC_OK;
	}
	if (rc)
		return rc;
	p->batches_to_consume++;
	return DALIC_OK;
}

static int pipeline_schedule(dalic_pipeline_t *p)
{
	if (p->first_iter && p->def->params.exec_pipelined) {
		p->first_iter = false;
		int n = p->graph->params.prefetch_cpu;
		for (int i = 0; i < n && !p->last_iter; i++) {
			int rc = pipeline_run_once(p);
			if (rc)
				return rc;
		}
		return DALIC_OK;
	}
	p->first_iter = false;
	return pipeline_run_once(p);
}

int dalic_pipeline_schedule_run(dalic_pipeline_t *p)
{
	int rc = pipeline_enter(p, API_SCHEDULED);
	return rc ? rc : pipeline_schedule(p);
}

static int pipeline_check_outputs(dalic_pipeline_t *p)
{
	for (int i = 0; i < p->def->num_outputs; i++) {
		const dalic_io_t *o = &p->def->outputs[i];
		const dalic_batch_t *b = dalic_exec_output(p->exec, i);
		if (o->dtype != DALIC_NO_TYPE && b->dtype != o->dtype)
			return dalic_fail(
			    DALIC_EOUTPUT,
			    "Data type in the output_idx=%d does not match. Expected: "
			    "%s. Received: %s.",
			    i, dalic_dtype_name(o->dtype), dalic_dtype_name(b->dtype));
		if (o->ndim >= 0 && b->ndim != o->ndim)
			return dalic_fail(
			    DALIC_EOUTPUT,
			    "Number of dimensions in the output_idx=%d does not match. "
			    "Expected: %d. Received: %d.",
			    i, o->ndim, b->ndim);
		if (o->layout && *o->layout && strcmp(o->layout, b->layout))
			return dalic_fail(
			    DALIC_EOUTPUT,
			    "Layout in the output_idx=%d does not match. Expected: %s. "
			    "Received: %s.",
			    i, o->layout, b->layout);
	}
	return DALIC_OK;
}

static int pipeline_share(dalic_pipeline_t *p)
{
	if (p->batches_to_consume == 0)
		return dalic_fail(DALIC_EEND, "end of data: no more scheduled iterations");
	int rc = dalic_exec_share(p->exec);
	if (rc && dalic_exec_failed(p->exec))
		return pipeline_fail_broken(p, rc); /* an iteration failed: the pipeline is done */
	if (rc)
		return rc; /* misuse (every buffer held): nothing changed */
	p->batches_to_consume--;
	if (p->ckpt)
		dalic_ckpt_run_consumed(p->ckpt, dalic_exec_shared_iteration(p->exec));
	rc = pipeline_check_outputs(p);
	if (rc) /* the iteration just shared, not an older one the caller still holds */
		dalic_exec_unshare(p->exec);
	return rc;
}

int dalic_pipeline_share_outputs(dalic_pipeline_t *p)
{
	int rc = pipeline_enter(p, API_SCHEDULED);
	return rc ? rc : pipeline_share(p);
}

int dalic_pipeline_release_outputs(dalic_pipeline_t *p)
{
	int rc = pipeline_enter(p, API_SCHEDULED);
	if (rc)
		return rc;
	if (dalic_exec_num_in_use(p->exec) == 0)
		return dalic_fail(DALIC_ESTATE,
				  "release_outputs: no outputs are shared (call share_outputs "
				  "first)");
	return dalic_exec_release(p->exec);
}

int dalic_pipeline_outputs(dalic_pipeline_t *p)
{
	int rc = pipeline_enter(p, API_SCHEDULED);
	if (rc)
		return rc;
	if (dalic_exec_num_in_use(p->exec) > 0)
		dalic_exec_release(p->exec);
	return pipeline_share(p);
}

int dalic_pipeline_run(dalic_pipeline_t *p)
{
	int rc = pipeline_enter(p, API_BASIC);
	if (rc)
		return rc;
	/* run() keeps its previous outputs only until the next run: releasing them first keeps
	 * a synchronous executor from waiting on itself (DALI's deadlock guard). */
	if (dalic_exec_num_in_use(p->exec) > 0)
		dalic_exec_release(p->exec);
	rc = pipeline_schedule(p);
	return rc ? rc : pipeline_share(p);
}

int dalic_pipeline_reset(dalic_pipeline_t *p)
{
	if (p->broken)
		return pipeline_broken(p);
	if (!p->last_iter)
		return DALIC_OK; /* DALI: reset only acts after the end of data */
	/* drain first: stages still running must not see the inputs cleared under them */
	int rc = p->exec ? dalic_exec_reset_queues(p->exec) : DALIC_OK;
	if (rc)
		return pipeline_fail_broken(p, rc);
	p->first_iter = true;
	p->last_iter = false;
	if (p->ckpt)
		dalic_ckpt_run_epoch_end(p->ckpt);
	for (int i = 0; i < p->num_feeds; i++)
		dalic_feed_queue_clear(&p->feeds[i]);
	p->batches_to_consume = 0;
	return DALIC_OK;
}

int dalic_pipeline_num_outputs(const dalic_pipeline_t *p)
{
	return p->def->num_outputs;
}

const char *dalic_pipeline_output_name(const dalic_pipeline_t *p, int i)
{
	return i >= 0 && i < p->def->num_outputs ? p->def->outputs[i].name : NULL;
}

const dalic_batch_t *dalic_pipeline_output(const dalic_pipeline_t *p, int i)
{
	return p->exec ? dalic_exec_output(p->exec, i) : NULL;
}

int dalic_pipeline_reader_meta(dalic_pipeline_t *p, const char *name, dalic_reader_meta_t *out)
{
	int rc = dalic_pipeline_build(p);
	if (rc)
		return rc;
	for (int i = 0; i < dalic_exec_num_nodes(p->exec); i++) {
		dalic_exec_node_t *x = dalic_exec_node(p->exec, i);
		if (strcmp(x->node->inst, name))
			continue;
		const dalic_kernel_t *k = x->node->schema->cpu;
		if (!x->node->schema->is_reader || !k->reader_meta)
			return dalic_fail(DALIC_EINVAL, "operator '%s' (%s) is not a reader", name,
					  x->node->schema->name);
		return k->reader_meta(x->ctx, out);
	}
	return dalic_fail(DALIC_EINVAL, "no operator named '%s' in the built pipeline", name);
}

void dalic_pipeline_set_observer(dalic_pipeline_t *p, const dalic_observer_t *obs)
{
	p->observers.n = 0;
	if (obs)
		dalic_observer_mux_add(&p->observers, obs); /* cannot fail: the mux is empty */
	pipeline_install_observers(p);
}

int dalic_pipeline_add_observer(dalic_pipeline_t *p, const dalic_observer_t *obs)
{
	int rc = dalic_observer_mux_add(&p->observers, obs);
	if (!rc)
		pipeline_install_observers(p);
	return rc;
}

void dalic_pipeline_remove_observer(dalic_pipeline_t *p, const void *user)
{
	if (dalic_observer_mux_remove(&p->observers, user))
		pipeline_install_observers(p);
}

void *dalic_pipeline_tracers(const dalic_pipeline_t *p)
{
	return p->tracers;
}

void dalic_pipeline_set_tracers(dalic_pipeline_t *p, void *tracers, void (*stop_fn)(void *),
				void (*free_fn)(void *))
{
	p->tracers = tracers;
	p->tracers_stop = stop_fn;
	p->tracers_free = free_fn;
	p->tracers_chosen = true;
}

/* Internal access for stats and debug mode. */
dalic_exec_t *dalic_pipeline_exec(dalic_pipeline_t *p)
{
	return p->exec;
}
