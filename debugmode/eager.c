/*
 * The eager executor (see eager.h). Nodes run in definition order: the order in which the
 * definition added its operators (always topological, since an input must exist before it is
 * used), with each node the build inserted (transfers, MakeContiguous) placed right after the
 * nodes it reads. The full engine orders by stage instead; both orders are topological and the
 * kernels depend only on their inputs, seeds and the iteration, so the outputs are the same.
 *
 * Creating, binding and running a node is the full engine's code (dalic_exec_node_*): this
 * file only adds what debug mode needs around it — the order, input queues that replay the
 * session's logs, and per-node run counts for inspection.
 */
#include "debugmode/eager.h"

#include "engine/error.h"
#include "engine/opctx.h"

#include <stdlib.h>
#include <string.h>

static int eager_init_names(dalic_eager_node_t *x)
{
	const dalic_node_t *n = x->x->node;
	int ni = n->num_inputs + n->num_arg_inputs;
	x->input_names = calloc((size_t)ni + 1, sizeof *x->input_names);
	x->input_args = calloc((size_t)ni + 1, sizeof *x->input_args);
	x->output_names = calloc((size_t)n->num_outputs + 1, sizeof *x->output_names);
	if (!x->input_names || !x->input_args || !x->output_names)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int k = 0; k < n->num_inputs; k++)
		x->input_names[k] = n->inputs[k]->name;
	for (int k = 0; k < n->num_arg_inputs; k++) {
		x->input_names[n->num_inputs + k] = n->arg_inputs[k]->name;
		x->input_args[n->num_inputs + k] = n->arg_names[k];
	}
	for (int o = 0; o < n->num_outputs; o++)
		x->output_names[o] = n->outputs[o]->name;
	return DALIC_OK;
}

static int eager_init_node(dalic_eager_t *e, int i, dalic_source_log_t *logs, int num_logs)
{
	dalic_eager_node_t *x = &e->nodes[i];
	dalic_node_t *n = e->g->nodes[i];
	x->x = &e->xnodes[i];
	x->last_iteration = -1;
	if (n->schema->is_input) {
		x->feed = calloc(1, sizeof *x->feed);
		if (!x->feed)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		int rc = dalic_feed_queue_init(x->feed, n->inst, e->g->params.batch_size);
		if (rc)
			return rc;
		dalic_feed_queue_set_def(x->feed, n->def);
		for (int l = 0; l < num_logs; l++)
			if (!strcmp(logs[l].name, n->inst))
				x->reader.log = &logs[l];
		if (x->reader.log) {
			x->feed->fn = dalic_debug_source_log_callback;
			x->feed->user = &x->reader;
		}
	}
	int rc = dalic_exec_node_init(x->x, e->g, n, x->feed);
	if (!rc) /* one buffer per output */
		rc = dalic_exec_node_alloc(x->x, e->g, e->g->params.batch_size);
	return rc ? rc : eager_init_names(x);
}

static bool eager_inputs_placed(const dalic_node_t *n, const bool *placed)
{
	for (int k = 0; k < n->num_inputs; k++)
		if (n->inputs[k]->producer && !placed[n->inputs[k]->producer->index])
			return false;
	for (int k = 0; k < n->num_arg_inputs; k++)
		if (n->arg_inputs[k]->producer && !placed[n->arg_inputs[k]->producer->index])
			return false;
	return true;
}

/* Definition order, inserted nodes right after what they read (see the top of the file). */
static int eager_make_order(dalic_eager_t *e)
{
	const dalic_graph_t *g = e->g;
	bool *placed = calloc((size_t)g->num_nodes + 1, sizeof *placed);
	e->order = calloc((size_t)g->num_nodes + 1, sizeof *e->order);
	if (!placed || !e->order) {
		free(placed);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	int w = 0;
	for (int d = 0; d <= e->def->num_ops; d++) {
		if (d < e->def->num_ops) {
			const dalic_node_t *n = dalic_graph_find_node(g, e->def->ops[d]->inst);
			if (!n || placed[n->index])
				continue;
			if (!eager_inputs_placed(n, placed))
				break; /* not topological after all: use the engine's order */
			placed[n->index] = true;
			e->order[w++] = n->index;
		}
		for (bool more = true; more;) {
			more = false;
			for (int i = 0; i < g->num_nodes; i++) {
				const dalic_node_t *n = g->nodes[i];
				if (placed[i] || n->def || !eager_inputs_placed(n, placed))
					continue;
				placed[i] = true;
				e->order[w++] = i;
				more = true;
			}
		}
	}
	if (w != g->num_nodes)
		for (w = 0; w < g->num_nodes; w++)
			e->order[w] = w;
	e->num_ops = g->num_nodes;
	free(placed);
	return DALIC_OK;
}

/* An output buffer grew: counted for `since` (the only hook the eager engine installs). */
static void eager_on_growth(void *user, const dalic_node_t *node, int output, int64_t iteration,
                            int sample, const char *source, size_t old_capacity,
                            size_t new_capacity)
{
	dalic_eager_t *e = user;
	e->nodes[node->index].growths[output]++;
}

int dalic_eager_create(const dalic_graphdef_t *def, dalic_source_log_t *logs, int num_logs,
                       dalic_eager_t **out)
{
	*out = NULL;
	dalic_eager_t *e = calloc(1, sizeof *e);
	if (!e)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int rc = DALIC_OK;
	e->def = dalic_graphdef_clone(def);
	if (!e->def)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	if (!rc)
		rc = dalic_graph_build(e->def, &e->g);
	if (!rc) {
		/* the seed actually used, so a measurement or a re-open reproduces this run */
		e->def->params.seed = e->g->params.seed;
		e->nodes = calloc((size_t)e->g->num_nodes + 1, sizeof *e->nodes);
		e->xnodes = calloc((size_t)e->g->num_nodes + 1, sizeof *e->xnodes);
		if (!e->nodes || !e->xnodes)
			rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	for (int i = 0; !rc && i < e->g->num_nodes; i++)
		rc = eager_init_node(e, i, logs, num_logs);
	for (int i = 0; !rc && i < e->g->num_nodes; i++) {
		e->nodes[i].growths = calloc((size_t)e->xnodes[i].num_outputs + 1, sizeof(int64_t));
		if (!e->nodes[i].growths)
			rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	e->obs = (dalic_observer_t){.user = e, .buffer_growth = eager_on_growth};
	if (!rc)
		rc = eager_make_order(e);
	if (!rc)
		rc = dalic_exec_pool_create(e->g, &e->pool);
	if (rc) {
		dalic_eager_destroy(e);
		return rc;
	}
	*out = e;
	return DALIC_OK;
}

void dalic_eager_destroy(dalic_eager_t *e)
{
	if (!e)
		return;
	dalic_pool_destroy(e->pool);
	for (int i = 0; e->nodes && e->xnodes && i < e->g->num_nodes; i++) {
		dalic_eager_node_t *x = &e->nodes[i];
		dalic_exec_node_free(&e->xnodes[i]);
		if (x->feed) {
			dalic_feed_queue_destroy(x->feed);
			free(x->feed);
		}
		free(x->input_names);
		free(x->input_args);
		free(x->output_names);
		free(x->growths);
	}
	free(e->nodes);
	free(e->xnodes);
	free(e->order);
	dalic_graph_free(e->g);
	dalic_graphdef_free(e->def);
	free(e);
}

int dalic_eager_begin(dalic_eager_t *e, int64_t iteration)
{
	int found = -1;
	const char *first = NULL;
	for (int i = 0; i < e->g->num_nodes; i++) {
		dalic_eager_node_t *x = &e->nodes[i];
		if (!x->feed)
			continue;
		const dalic_batch_t *b;
		int rc = dalic_feed_queue_front(x->feed, iteration, false, &b);
		if (rc)
			return rc;
		if (found >= 0 && b->num_samples != found)
			return dalic_fail(DALIC_EOP,
			                  "Batch size must be uniform across an iteration: input "
			                  "'%s' has %d samples, input '%s' has %d",
			                  x->x->node->inst, b->num_samples, first, found);
		found = b->num_samples;
		first = x->x->node->inst;
	}
	e->batch = found >= 0 ? found : e->g->params.batch_size;
	return DALIC_OK;
}

int dalic_eager_run_op(dalic_eager_t *e, int k, int64_t iteration, int *failed_sample)
{
	dalic_eager_node_t *x = &e->nodes[e->order[k]];
	dalic_exec_node_bind(e->xnodes, x->x, NULL);
	dalic_exec_run_t r = {.pool = e->pool,
	                      .obs = &e->obs,
	                      .iteration = iteration,
	                      .batch = e->batch,
	                      .warnings = e->warnings,
	                      .device = e->g->params.device_id};
	int rc = dalic_exec_node_run(x->x, &r, failed_sample);
	x->total_ns += x->x->last_ns;
	x->runs++;
	if (!rc)
		x->last_iteration = iteration;
	return rc;
}

int dalic_eager_reset(dalic_eager_t *e)
{
	e->batch = 0;
	for (int i = 0; i < e->g->num_nodes; i++) {
		dalic_eager_node_t *x = &e->nodes[i];
		int rc = dalic_op_ctx_reset(x->x->ctx);
		if (rc)
			return dalic_fail_wrap(rc, "restart: operator '%s'", x->x->node->inst);
		if (x->feed)
			dalic_feed_queue_clear(x->feed);
		x->reader.cursor = 0;
		x->last_iteration = -1;
		x->x->last_ns = x->x->work_ns = x->total_ns = x->runs = 0;
	}
	return DALIC_OK;
}

void dalic_eager_resume_inputs(dalic_eager_t *e)
{
	for (int i = 0; i < e->g->num_nodes; i++) {
		dalic_feed_queue_t *q = e->nodes[i].feed;
		if (q && q->ended && dalic_feed_queue_size(q) == 0)
			dalic_feed_queue_clear(q);
	}
}

int dalic_eager_find_node(const dalic_eager_t *e, const char *inst)
{
	const dalic_node_t *n = dalic_graph_find_node(e->g, inst);
	return n ? n->index : -1;
}
