/*
 * Debug sessions: opening and closing, feeding external sources, the status, and the read
 * side — operators, data nodes, outputs. Running lives in run.c, breakpoints in breaks.c.
 *
 * A session owns a copy of the definition in which every operator whose output a print()
 * record shows is marked preserve=True: DALI's debug mode runs every operator the function
 * calls, while a built graph drops what reaches no output, and a printed node must exist.
 * Preserving changes no seed (seeds are handed out over the whole definition).
 */
#include "debugmode/session.h"

#include "engine/device.h"
#include "engine/error.h"
#include "engine/pipeline.h"

#include <stdlib.h>
#include <string.h>

void dalic_debug_set_error(dalic_debug_t *s, const char *msg)
{
	char *copy = strdup(msg ? msg : "");
	if (!copy)
		return;
	free(s->error);
	s->error = copy;
}

static int session_preserve_printed(dalic_graphdef_t *def)
{
	dalic_value_t yes;
	int rc = dalic_value_bool(&yes, true);
	for (int p = 0; !rc && p < def->num_prints; p++) {
		const dalic_debug_print_t *r = &def->prints[p];
		for (int k = 0; !rc && k < r->num_nodes; k++) {
			int out;
			dalic_opdef_t *op = dalic_graphdef_producer(def, r->nodes[k], &out);
			if (!op)
				rc = dalic_fail(
				    DALIC_EGRAPH,
				    "print(): data node \"%s\" is not known to the pipeline",
				    r->nodes[k]);
			else
				rc = dalic_graphdef_op_set_arg(op, "preserve", &yes);
		}
	}
	dalic_value_free(&yes);
	return rc;
}

static int session_make_logs(dalic_debug_t *s)
{
	int n = 0;
	for (int i = 0; i < s->def->num_ops; i++)
		n += s->def->ops[i]->schema->is_input;
	s->logs = calloc((size_t)n + 1, sizeof *s->logs);
	if (!s->logs)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; i < s->def->num_ops; i++) {
		if (!s->def->ops[i]->schema->is_input)
			continue;
		s->logs[s->num_logs].name = strdup(s->def->ops[i]->inst);
		if (!s->logs[s->num_logs++].name)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	return DALIC_OK;
}

/* A source the definition's runtime feeds (a script's Python `source=`): recorded. */
static int session_install_source(void *ctx, const char *name, dalic_source_fn fn, void *user)
{
	dalic_debug_t *s = ctx;
	for (int i = 0; i < s->num_logs; i++)
		if (!strcmp(s->logs[i].name, name) && !s->logs[i].fn) {
			s->logs[i].fn = fn;
			s->logs[i].user = user;
			s->logs[i].record = true;
		}
	return DALIC_OK;
}

static int session_open(dalic_debug_t *s)
{
	int rc = session_preserve_printed(s->def);
	if (!rc)
		rc = session_make_logs(s);
	if (!rc && s->def->runtime && s->def->runtime_cls->sources)
		rc = s->def->runtime_cls->sources(s->def->runtime, s->def->params.batch_size,
						  session_install_source, s);
	if (!rc)
		rc = dalic_eager_create(s->def, s->logs, s->num_logs, &s->e);
	if (rc)
		return rc;
	s->def->params.seed = s->e->def->params.seed;
	int nn = s->e->g->num_nodes, ne = s->e->g->num_edges;
	s->pos_of = calloc((size_t)nn + 1, sizeof *s->pos_of);
	s->host = calloc((size_t)ne + 1, sizeof *s->host);
	s->host_runs = calloc((size_t)ne + 1, sizeof *s->host_runs);
	if (!s->pos_of || !s->host || !s->host_runs)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int k = 0; k < s->e->num_ops; k++)
		s->pos_of[s->e->order[k]] = k;
	for (int i = 0; i < ne; i++) {
		dalic_batch_init(&s->host[i], DALIC_MEM_HOST, true, NULL);
		s->host_runs[i] = -1;
	}
	s->stop_break = -1;
	s->stop_sample = -1;
	s->next_break_id = 1;
	if (!(s->warnings = dalic_warnlog_new()))
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	s->e->warnings = s->warnings;
	return dalic_debug_prints_init(s);
}

int dalic_debug_open_def(const dalic_graphdef_t *def, dalic_debug_t **out)
{
	if (!def || !out)
		return dalic_fail(DALIC_EINVAL, "dalic_debug_open_def: NULL argument");
	*out = NULL;
	dalic_debug_t *s = calloc(1, sizeof *s);
	if (!s)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	s->def = dalic_graphdef_clone(def);
	s->pristine = true;
	int rc = s->def ? session_open(s) : dalic_fail(DALIC_ENOMEM, "out of memory");
	if (rc) {
		dalic_debug_close(s);
		return rc;
	}
	*out = s;
	return DALIC_OK;
}

int dalic_debug_open(dalic_pipeline_t *p, dalic_debug_t **out)
{
	if (!p || !out)
		return dalic_fail(DALIC_EINVAL, "dalic_debug_open: NULL argument");
	return dalic_debug_open_def(dalic_pipeline_graphdef(p), out);
}

void dalic_debug_close(dalic_debug_t *s)
{
	if (!s)
		return;
	for (int i = 0; s->host && s->e && i < s->e->g->num_edges; i++)
		dalic_batch_free(&s->host[i]);
	dalic_eager_destroy(s->e);
	for (int i = 0; i < s->num_logs; i++)
		dalic_debug_source_log_free(&s->logs[i]);
	free(s->logs);
	dalic_debug_breaks_free(s);
	dalic_graphdef_free(s->def);
	free(s->pos_of);
	free(s->host);
	free(s->host_runs);
	free(s->print_after);
	free(s->stop_source);
	free(s->iterator_data);
	dalic_debug_mark_free(s);
	free(s->stop_message);
	dalic_warnlog_free(s->warnings);
	free(s->error);
	free(s);
}

static dalic_source_log_t *session_find_log(dalic_debug_t *s, const char *name)
{
	for (int i = 0; i < s->num_logs; i++)
		if (!strcmp(s->logs[i].name, name))
			return &s->logs[i];
	dalic_fail(DALIC_EINVAL, "no external_source named '%s' in the pipeline", name ? name : "");
	return NULL;
}

/* More data after the end: the session can go on from where it stopped. */
static void session_resume_after_end(dalic_debug_t *s)
{
	if (!s->ended)
		return;
	s->ended = false;
	s->epoch_idx++; /* DALI's reset after StopIteration starts the next epoch */
	dalic_eager_resume_inputs(s->e);
}

int dalic_debug_feed_input(dalic_debug_t *s, const char *name, dalic_dtype_t dtype, int ndim,
                           int batch, const int64_t *shapes, const void *data, const char *layout)
{
	return dalic_debug_feed_input_sources(s, name, dtype, ndim, batch, shapes, data, layout,
	                                      NULL);
}

int dalic_debug_feed_input_sources(dalic_debug_t *s, const char *name, dalic_dtype_t dtype,
                                   int ndim, int batch, const int64_t *shapes, const void *data,
                                   const char *layout, const char *const *sources)
{
	dalic_source_log_t *log = session_find_log(s, name);
	if (!log)
		return DALIC_EINVAL;
	if (batch > s->e->g->params.batch_size)
		return dalic_fail(DALIC_EINVAL,
		                  "external_source '%s': batch of %d samples, max batch size is %d",
		                  name, batch, s->e->g->params.batch_size);
	int rc = dalic_debug_source_log_add(log, dtype, ndim, batch, shapes, data, layout, sources);
	if (!rc)
		session_resume_after_end(s);
	return rc;
}

int dalic_debug_set_source(dalic_debug_t *s, const char *name, dalic_source_fn fn, void *user)
{
	dalic_source_log_t *log = session_find_log(s, name);
	if (!log)
		return DALIC_EINVAL;
	log->fn = fn;
	log->user = user;
	log->record = false;
	session_resume_after_end(s);
	return DALIC_OK;
}

void dalic_debug_set_print(dalic_debug_t *s, dalic_debug_print_fn fn, void *user)
{
	s->print_fn = fn;
	s->print_user = user;
}

void dalic_debug_status(const dalic_debug_t *s, dalic_debug_status_t *out)
{
	memset(out, 0, sizeof *out);
	out->iteration = s->iteration;
	out->next_op = s->pos;
	out->num_ops = s->e->num_ops;
	out->next_op_name =
	    s->pos < s->e->num_ops ? s->e->g->nodes[s->e->order[s->pos]]->inst : NULL;
	out->iterations_done = s->iterations_done;
	out->epoch_idx = s->epoch_idx;
	out->batch_size = s->begun ? s->e->batch : 0;
	out->stop = s->stop;
	out->break_id = s->stop_break;
	out->stop_op = s->stop_op;
	out->stop_node = s->stop_node;
	out->stop_sample = s->stop_sample;
	out->stop_source = s->stop_source;
	out->stop_message = s->stop_message;
}

const char *dalic_debug_last_error(const dalic_debug_t *s)
{
	return s->error ? s->error : "";
}

/* ---- graph ---- */

int dalic_debug_num_ops(const dalic_debug_t *s)
{
	return s->e->num_ops;
}

int dalic_debug_op_info(const dalic_debug_t *s, int i, dalic_debug_op_info_t *out)
{
	if (i < 0 || i >= s->e->num_ops)
		return dalic_fail(DALIC_EINVAL, "operator index %d out of range [0, %d)", i,
		                  s->e->num_ops);
	const dalic_eager_node_t *x = &s->e->nodes[s->e->order[i]];
	const dalic_node_t *n = x->x->node;
	*out = (dalic_debug_op_info_t){
	    .name = n->inst,
	    .schema = n->schema->name,
	    .device = dalic_graphdef_device_name(n->device),
	    .internal = n->internal,
	    .emulated = x->x->ctx->emulated,
	    .num_inputs = n->num_inputs + n->num_arg_inputs,
	    .inputs = x->input_names,
	    .input_args = x->input_args,
	    .num_outputs = n->num_outputs,
	    .outputs = x->output_names,
	    .last_iteration = x->last_iteration,
	    .last_ns = x->x->last_ns,
	    .total_ns = x->total_ns,
	    .runs = x->runs,
	};
	return DALIC_OK;
}

int dalic_debug_find_op(const dalic_debug_t *s, const char *name)
{
	int i = name ? dalic_eager_find_node(s->e, name) : -1;
	return i < 0 ? -1 : s->pos_of[i];
}

int dalic_debug_num_nodes(const dalic_debug_t *s)
{
	return s->e->g->num_edges;
}

const char *dalic_debug_node_name(const dalic_debug_t *s, int i)
{
	return i >= 0 && i < s->e->g->num_edges ? s->e->g->edges[i]->name : NULL;
}

static bool session_ends_with(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);
	return n > m && !memcmp(s + n - m, suffix, m);
}

const dalic_edge_t *dalic_debug_find_edge(const dalic_debug_t *s, const char *name)
{
	const dalic_graph_t *g = s->e->g;
	const dalic_edge_t *best = NULL;
	/* a node on both devices: the one produced first is the original, the other a copy */
	for (int i = 0; i < g->num_edges; i++)
		if (!strcmp(g->edges[i]->name, name) &&
		    (!best ||
		     s->pos_of[g->edges[i]->producer->index] < s->pos_of[best->producer->index]))
			best = g->edges[i];
	if (best)
		return best;
	size_t n = strlen(name);
	bool gpu = session_ends_with(name, n, "_gpu");
	if (gpu || session_ends_with(name, n, "_cpu"))
		for (int i = 0; i < g->num_edges; i++)
			if (strlen(g->edges[i]->name) == n - 4 &&
			    !strncmp(g->edges[i]->name, name, n - 4) && g->edges[i]->gpu == gpu)
				return g->edges[i];
	const dalic_node_t *op = dalic_graph_find_node(g, name);
	return op && op->num_outputs > 0 ? op->outputs[0] : NULL;
}

const dalic_batch_t *dalic_debug_edge_batch(dalic_debug_t *s, const dalic_edge_t *edge)
{
	const dalic_eager_node_t *x = &s->e->nodes[edge->producer->index];
	const dalic_batch_t *b = dalic_eager_output(s->e, edge->producer->index, edge->producer_output);
	if (b->mem != DALIC_MEM_DEVICE || dalic_device_backend()->emulated)
		return b;
	/* device memory is not readable from the host: read a copy, refreshed per run */
	dalic_batch_t *h = &s->host[edge->index];
	if (s->host_runs[edge->index] != x->runs) {
		if (dalic_batch_copy(h, b))
			return NULL;
		h->gpu = b->gpu;
		s->host_runs[edge->index] = x->runs;
	}
	return h;
}

const dalic_batch_t *dalic_debug_node(dalic_debug_t *s, const char *name, int64_t *iteration)
{
	const dalic_edge_t *edge = name ? dalic_debug_find_edge(s, name) : NULL;
	if (!edge) {
		dalic_fail(DALIC_EINVAL, "no data node named '%s' in the pipeline",
		           name ? name : "");
		return NULL;
	}
	int64_t it = s->e->nodes[edge->producer->index].last_iteration;
	if (iteration)
		*iteration = it;
	if (it < 0) {
		dalic_fail(DALIC_ESTATE, "data node '%s' has not been produced yet", name);
		return NULL;
	}
	return dalic_debug_edge_batch(s, edge);
}

int dalic_debug_num_outputs(const dalic_debug_t *s)
{
	return s->e->g->num_outputs;
}

const char *dalic_debug_output_name(const dalic_debug_t *s, int i)
{
	return i >= 0 && i < s->e->g->num_outputs ? s->e->g->output_names[i] : NULL;
}

const dalic_batch_t *dalic_debug_output(dalic_debug_t *s, int i)
{
	if (i < 0 || i >= s->e->g->num_outputs)
		return NULL;
	const dalic_edge_t *edge = s->e->g->outputs[i];
	if (s->e->nodes[edge->producer->index].last_iteration < 0)
		return NULL;
	return dalic_debug_edge_batch(s, edge);
}
