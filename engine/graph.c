/*
 * Graph build: graph definition -> executable graph (see graph.h for the rules). Error texts
 * follow DALI's where DALI has one, so users can search for them.
 *
 * The build works in one forward pass over the definition (which is topological: an input
 * must name an output of an earlier operator), creating data nodes (edges) keyed by
 * (name, device) and inserting transfers as consumers ask for them; then it adds one
 * MakeContiguous per pipeline output, prunes backwards from the outputs, orders the survivors
 * by stage and assigns seeds.
 */
#include "engine/graph.h"

#include "engine/error.h"
#include "engine/graph_cse.h"
#include "engine/graph_seeds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct builder {
	const dalic_graphdef_t *def;
	dalic_graph_t *g;
	int cap_nodes, cap_edges;
	bool cpu_only;
	dalic_strmap_t edges[2];      /* data node name -> edge, on cpu [0] and gpu [1] */
	dalic_strmap_t contiguous[2]; /* output data node -> its MakeContiguous result */
} builder_t;

const char *dalic_graph_stage_name(int stage)
{
	static const char *n[] = {"CPU", "MIXED", "GPU"};
	return stage >= 0 && stage < DALIC_NUM_STAGES ? n[stage] : "?";
}

static void graph_node_free(dalic_node_t *n)
{
	if (!n)
		return;
	free(n->inst);
	free(n->inputs);
	free(n->arg_inputs);
	free(n->arg_names);
	free(n->outputs);
	free(n->hints);
	free(n);
}

static void graph_edge_free(dalic_edge_t *e)
{
	if (!e)
		return;
	free(e->name);
	free(e->consumers);
	free(e->consumer_input);
	free(e);
}

void dalic_graph_free(dalic_graph_t *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->num_nodes; i++)
		graph_node_free(g->nodes[i]);
	for (int i = 0; i < g->num_edges; i++)
		graph_edge_free(g->edges[i]);
	free(g->nodes);
	free(g->edges);
	free(g->outputs);
	free(g->output_names);
	dalic_strmap_clear(&g->by_inst);
	free(g);
}

dalic_node_t *dalic_graph_find_node(const dalic_graph_t *g, const char *inst)
{
	return dalic_strmap_get(&g->by_inst, inst);
}

static dalic_edge_t *graph_find_edge(const builder_t *b, const char *name, bool gpu)
{
	return dalic_strmap_get(&b->edges[gpu], name);
}

static int graph_push_ptr(void ***arr, int *n, int *cap, void *p)
{
	if (*n == *cap) {
		int c = *cap ? *cap * 2 : 16;
		void **a = realloc(*arr, sizeof *a * (size_t)c);
		if (!a)
			return dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
		*arr = a;
		*cap = c;
	}
	(*arr)[(*n)++] = p;
	return DALIC_OK;
}

static dalic_edge_t *graph_new_edge(builder_t *b, const char *name, bool gpu,
                                    dalic_node_t *producer, int out_idx)
{
	dalic_edge_t *e = calloc(1, sizeof *e);
	if (!e || !(e->name = strdup(name))) {
		free(e);
		dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
		return NULL;
	}
	e->gpu = gpu;
	e->producer = producer;
	e->producer_output = out_idx;
	e->index = b->g->num_edges;
	if (graph_push_ptr((void ***)&b->g->edges, &b->g->num_edges, &b->cap_edges, e)) {
		graph_edge_free(e);
		return NULL;
	}
	if (dalic_strmap_put(&b->edges[gpu], e->name, e)) {
		b->g->num_edges--; /* not reachable by name: drop it again */
		graph_edge_free(e);
		return NULL;
	}
	return e;
}

static int graph_add_consumer(dalic_edge_t *e, dalic_node_t *n, int input)
{
	if (e->num_consumers == e->cap_consumers) {
		int cap = e->cap_consumers ? e->cap_consumers * 2 : 4;
		dalic_node_t **c = realloc(e->consumers, sizeof *c * (size_t)cap);
		if (!c)
			return dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
		e->consumers = c;
		int *ci = realloc(e->consumer_input, sizeof *ci * (size_t)cap);
		if (!ci)
			return dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
		e->consumer_input = ci;
		e->cap_consumers = cap;
	}
	dalic_node_t **c = e->consumers;
	int *ci = e->consumer_input;
	c[e->num_consumers] = n;
	ci[e->num_consumers] = input;
	e->num_consumers++;
	return DALIC_OK;
}

static int graph_stage_of(int device)
{
	return device == DALIC_DEV_CPU ? DALIC_STAGE_CPU
	       : device == DALIC_DEV_MIXED ? DALIC_STAGE_MIXED : DALIC_STAGE_GPU;
}

/* A node with its output edges created (device: outputs on gpu for gpu/mixed). */
static dalic_node_t *graph_new_node(builder_t *b, const dalic_schema_t *s, const dalic_opdef_t *def,
                                    const char *inst, int device, int num_outputs,
                                    const char *const *out_names)
{
	dalic_node_t *n = calloc(1, sizeof *n);
	if (!n || !(n->inst = strdup(inst))) {
		free(n);
		dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
		return NULL;
	}
	n->schema = s;
	n->def = def;
	n->internal = def == NULL;
	n->device = device;
	n->stage = graph_stage_of(device);
	n->logical_id = def ? (def->logical_id >= 0 ? def->logical_id : def->id) : -1;
	n->outputs = calloc((size_t)num_outputs + 1, sizeof *n->outputs);
	n->hints = calloc((size_t)num_outputs + 1, sizeof *n->hints);
	if (!n->outputs || !n->hints) {
		graph_node_free(n);
		dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
		return NULL;
	}
	bool gpu_out = device != DALIC_DEV_CPU;
	for (int i = 0; i < num_outputs; i++) {
		if (graph_find_edge(b, out_names[i], gpu_out)) {
			dalic_fail(DALIC_EGRAPH,
				   "Output name \"%s\" conflicts with an existing intermediate "
				   "result name.",
				   out_names[i]);
			graph_node_free(n);
			return NULL;
		}
		n->outputs[i] = graph_new_edge(b, out_names[i], gpu_out, n, i);
		if (!n->outputs[i]) {
			graph_node_free(n);
			return NULL;
		}
		n->num_outputs = i + 1;
	}
	return n;
}

static int graph_append_node(builder_t *b, dalic_node_t *n)
{
	return graph_push_ptr((void ***)&b->g->nodes, &b->g->num_nodes, &b->cap_nodes, n);
}

/* A new string (any length: data node names are the user's), or NULL. */
static char *graph_printf(const char *fmt, const char *a, const char *b)
{
	int n = snprintf(NULL, 0, fmt, a, b);
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (s)
		snprintf(s, (size_t)n + 1, fmt, a, b);
	return s;
}

/* The gpu copy of cpu data node `src`, inserting `__Copy_CpuToGpu_<name>` once. */
static dalic_edge_t *graph_gpu_copy_of(builder_t *b, dalic_edge_t *src)
{
	dalic_edge_t *e = graph_find_edge(b, src->name, true);
	if (e)
		return e;
	const dalic_schema_t *mc = dalic_schema_find("MakeContiguous");
	if (!mc) {
		dalic_fail(DALIC_EGRAPH, "internal operator MakeContiguous is not registered");
		return NULL;
	}
	char *inst = graph_printf("__Copy_CpuToGpu_%s%s", src->name, "");
	const char *name = src->name;
	dalic_node_t *n = inst ? graph_new_node(b, mc, NULL, inst, DALIC_DEV_MIXED, 1, &name) : NULL;
	if (!inst)
		dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
	free(inst);
	if (!n)
		return NULL;
	n->inputs = calloc(1, sizeof *n->inputs);
	if (!n->inputs || graph_add_consumer(src, n, 0) || graph_append_node(b, n)) {
		graph_node_free(n);
		dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
		return NULL;
	}
	n->inputs[0] = src;
	n->num_inputs = 1;
	/* a transfer inherits its producer's hint (DALI) */
	n->hints[0] = src->producer ? src->producer->hints[src->producer_output]
				    : b->def->params.bytes_per_sample;
	return n->outputs[0];
}

static int graph_resolve_device(builder_t *b, const dalic_opdef_t *op, int *device)
{
	int dev = dalic_graphdef_device_from_name(op->device);
	if (!dev) {
		dev = DALIC_DEV_CPU;
		for (int i = 0; i < op->num_regular_inputs; i++) {
			const dalic_io_t *in = &op->inputs[i];
			bool gpu = in->device ? !strcmp(in->device, "gpu")
			                      : !graph_find_edge(b, in->name, false) &&
			                            graph_find_edge(b, in->name, true);
			if (gpu)
				dev = DALIC_DEV_GPU;
		}
	}
	if (!(op->schema->devices & dev))
		return dalic_fail(DALIC_EGRAPH, "operator '%s' (%s) has no %s implementation",
		                  op->inst, op->schema->name, dalic_graphdef_device_name(dev));
	if (b->cpu_only && dev == DALIC_DEV_GPU)
		return dalic_fail(DALIC_EGRAPH,
				  "operator '%s': Cannot add a GPU operator. Pipeline 'device_id' "
				  "should not be equal to `CPU_ONLY_DEVICE_ID`.",
				  op->inst);
	if (b->cpu_only && dev == DALIC_DEV_MIXED)
		return dalic_fail(DALIC_EGRAPH,
				  "operator '%s': Cannot add a Mixed operator with a GPU output, "
				  "'device_id' should not be `CPU_ONLY_DEVICE_ID`.",
				  op->inst);
	*device = dev;
	return DALIC_OK;
}

static int graph_check_required_args(const dalic_opdef_t *op)
{
	for (const dalic_arg_schema_t *a = op->schema->args; a && a->name; a++) {
		if (a->def)
			continue;
		bool given = dalic_graphdef_op_arg(op, a->name) != NULL;
		for (int i = op->num_regular_inputs; i < op->num_inputs && !given; i++)
			given = !strcmp(op->inputs[i].arg_name, a->name);
		if (!given)
			return dalic_fail(DALIC_EMISSING_ARG,
					  "operator '%s' (%s): required argument '%s' is not set",
					  op->inst, op->schema->name, a->name);
	}
	if (op->num_regular_inputs < op->schema->min_inputs)
		return dalic_fail(DALIC_EGRAPH,
		                  "operator '%s' (%s) needs at least %d input%s, got %d", op->inst,
		                  op->schema->name, op->schema->min_inputs,
		                  op->schema->min_inputs == 1 ? "" : "s", op->num_regular_inputs);
	return DALIC_OK;
}

static int graph_unknown_node(const char *node, const dalic_opdef_t *op)
{
	return dalic_fail(DALIC_EGRAPH,
			  "Data node \"%s\" requested as input to operator \"%s\" is not known to "
			  "the pipeline.",
			  node, op->inst);
}

/* Connects regular input i of op to its edge, inserting a transfer where a gpu op needs it. */
static int graph_connect_input(builder_t *b, dalic_node_t *n, const dalic_opdef_t *op, int i)
{
	const dalic_io_t *in = &op->inputs[i];
	dalic_edge_t *cpu = graph_find_edge(b, in->name, false),
	             *gpu = graph_find_edge(b, in->name, true);
	if (!cpu && !gpu)
		return graph_unknown_node(in->name, op);
	bool want_gpu = in->device ? !strcmp(in->device, "gpu") : !cpu;
	dalic_edge_t *e;
	if (n->device == DALIC_DEV_GPU) {
		e = gpu ? gpu : graph_gpu_copy_of(b, cpu);
		if (!e)
			return DALIC_EGRAPH;
	} else if (want_gpu) {
		return dalic_fail(DALIC_EGRAPH,
		                  "Op %s of type %s has parent Op %s of incompatible type: gpu. "
		                  "Expected one of: cpu. (input '%s': cpu/mixed operators take cpu "
		                  "inputs only)",
		                  op->inst, dalic_graphdef_device_name(n->device),
		                  gpu ? gpu->producer->inst : in->name, in->name);
	} else if (!cpu) {
		return dalic_fail(
		    DALIC_EGRAPH,
		    "This pipeline doesn't support transition from GPU to CPU (operator "
		    "'%s', input '%s').\nGPU->CPU transitions require dynamic execution, "
		    "which dalic does not implement.",
		    op->inst, in->name);
	} else {
		e = cpu;
	}
	n->inputs[n->num_inputs++] = e;
	return graph_add_consumer(e, n, i);
}

static int graph_connect_arg_input(builder_t *b, dalic_node_t *n, const dalic_opdef_t *op, int i)
{
	const dalic_io_t *in = &op->inputs[i];
	dalic_edge_t *cpu = graph_find_edge(b, in->name, false);
	if (!cpu && !graph_find_edge(b, in->name, true))
		return graph_unknown_node(in->name, op);
	if (!cpu || (in->device && !strcmp(in->device, "gpu")))
		return dalic_fail(
		    DALIC_EGRAPH,
		    "Invalid device \"gpu\" for argument '%s' of operator '%s'. Named "
		    "arguments must be on CPU.",
		    in->arg_name, op->inst);
	int k = n->num_arg_inputs++;
	n->arg_inputs[k] = cpu;
	n->arg_names[k] = in->arg_name;
	return graph_add_consumer(cpu, n, -1 - k);
}

static int graph_fill_hints(dalic_node_t *n, int64_t pipeline_hint)
{
	const dalic_value_t *h =
	    n->def ? dalic_graphdef_op_arg(n->def, "bytes_per_sample_hint") : NULL;
	for (int i = 0; i < n->num_outputs; i++) {
		int64_t v = 0;
		if (h && h->n > 0)
			v = dalic_value_get_i(h, h->n == 1 ? 0 : i);
		if (h && h->n > 1 && h->n != n->num_outputs)
			return dalic_fail(
			    DALIC_EINVAL,
			    "operator '%s': bytes_per_sample_hint has %d values for %d "
			    "outputs",
			    n->inst, h->n, n->num_outputs);
		n->hints[i] = v ? v : pipeline_hint;
	}
	return DALIC_OK;
}

static int graph_add_operator(builder_t *b, const dalic_opdef_t *op)
{
	int device = DALIC_DEV_CPU, rc;
	if ((rc = graph_resolve_device(b, op, &device)) || (rc = graph_check_required_args(op)))
		return rc;
	dalic_node_t *n = graph_new_node(b, op->schema, op, op->inst, device, op->num_outputs,
	                                 (const char *const *)op->outputs);
	if (!n)
		return DALIC_EGRAPH;
	int nargs = op->num_inputs - op->num_regular_inputs;
	n->inputs = calloc((size_t)op->num_regular_inputs + 1, sizeof *n->inputs);
	n->arg_inputs = calloc((size_t)nargs + 1, sizeof *n->arg_inputs);
	n->arg_names = calloc((size_t)nargs + 1, sizeof *n->arg_names);
	if (!n->inputs || !n->arg_inputs || !n->arg_names) {
		graph_node_free(n);
		return dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
	}
	for (int i = 0; i < op->num_inputs && !rc; i++)
		rc = op->inputs[i].is_arg ? graph_connect_arg_input(b, n, op, i)
		                          : graph_connect_input(b, n, op, i);
	if (!rc)
		rc = graph_fill_hints(n, b->def->params.bytes_per_sample);
	if (!rc)
		rc = graph_append_node(b, n);
	if (rc) {
		/* the node's output edges stay in g->edges (freed with the graph), but must not
		 * point at the freed node */
		for (int i = 0; i < n->num_outputs; i++)
			n->outputs[i]->producer = NULL;
		graph_node_free(n);
	}
	return rc;
}

static int graph_add_outputs(builder_t *b)
{
	const dalic_graphdef_t *def = b->def;
	dalic_graph_t *g = b->g;
	if (def->num_outputs == 0)
		return dalic_fail(DALIC_EGRAPH, "the pipeline has no outputs (set_outputs)");
	g->outputs = calloc((size_t)def->num_outputs, sizeof *g->outputs);
	g->output_names = calloc((size_t)def->num_outputs, sizeof *g->output_names);
	if (!g->outputs || !g->output_names)
		return dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
	const dalic_schema_t *mc = dalic_schema_find("MakeContiguous");
	for (int i = 0; i < def->num_outputs; i++) {
		const dalic_io_t *o = &def->outputs[i];
		dalic_edge_t *cpu = graph_find_edge(b, o->name, false),
		             *gpu = graph_find_edge(b, o->name, true);
		if (!cpu && !gpu)
			return dalic_fail(
			    DALIC_EGRAPH,
			    "Requested output name '%s' is not known to the pipeline.", o->name);
		bool want_gpu = o->device ? !strcmp(o->device, "gpu") : !cpu;
		if (want_gpu && b->cpu_only)
			return dalic_fail(DALIC_EGRAPH,
					  "Cannot move the data node %s to the GPU in a CPU-only "
					  "pipeline. The `device_id` parameter is set to "
					  "`CPU_ONLY_DEVICE_ID`.",
					  o->name);
		dalic_edge_t *src;
		if (want_gpu && (!gpu || (gpu->producer && gpu->producer->internal))) {
			/* a transfer's result is contiguous: it is the output itself (DALI) */
			src = gpu ? gpu : graph_gpu_copy_of(b, cpu);
			if (!src)
				return DALIC_EGRAPH;
			src->is_output = true;
			g->outputs[i] = src;
			g->output_names[i] = o->name;
			g->num_outputs = i + 1;
			continue;
		}
		if (want_gpu)
			src = gpu;
		else if (cpu)
			src = cpu;
		else
			return dalic_fail(
			    DALIC_EGRAPH,
			    "This pipeline doesn't support transition from GPU to CPU "
			    "(output '%s' requested on cpu).\nGPU->CPU transitions "
			    "require dynamic execution, which dalic does not implement.",
			    o->name);
		if (!src)
			return DALIC_EGRAPH;
		/* the same data node returned again reuses its copy (DALI makes one per node) */
		dalic_edge_t *copy = dalic_strmap_get(&b->contiguous[src->gpu], src->name);
		if (copy) {
			g->outputs[i] = copy;
			g->output_names[i] = o->name;
			g->num_outputs = i + 1;
			continue;
		}
		/* named after the data node it copies, as DALI 2.4 does */
		char *inst = graph_printf("__MakeContiguous_%s_%s",
		                          want_gpu ? "GpuToGpu" : "CpuToCpu", src->name);
		char *name = graph_printf("contiguous_%s_%s",
		                          want_gpu ? "gpu_to_gpu" : "cpu_to_cpu", src->name);
		const char *nm = name;
		dalic_node_t *n = inst && name ? graph_new_node(b, mc, NULL, inst,
		                                                want_gpu ? DALIC_DEV_GPU
		                                                         : DALIC_DEV_CPU,
		                                                1, &nm)
		                               : NULL;
		free(inst);
		free(name);
		if (!n)
			return inst && name ? DALIC_EGRAPH
			                    : dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
		n->inputs = calloc(1, sizeof *n->inputs);
		if (!n->inputs || graph_add_consumer(src, n, 0) || graph_append_node(b, n)) {
			graph_node_free(n);
			return dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
		}
		n->inputs[0] = src;
		n->num_inputs = 1;
		/* MakeContiguous inherits the hint of its producer's output (DALI) */
		n->hints[0] = src->producer ? src->producer->hints[src->producer_output] : 0;
		n->outputs[0]->is_output = true;
		if (dalic_strmap_put(&b->contiguous[src->gpu], src->name, n->outputs[0]))
			return DALIC_ENOMEM;
		g->outputs[i] = n->outputs[0];
		g->output_names[i] = o->name;
		g->num_outputs = i + 1;
	}
	return DALIC_OK;
}

/* The name index of the finished graph. */
static int graph_index_nodes(dalic_graph_t *g)
{
	for (int i = 0; i < g->num_nodes; i++)
		DALIC_TRY(dalic_strmap_put(&g->by_inst, g->nodes[i]->inst, g->nodes[i]));
	return DALIC_OK;
}

/* Frees the nodes not kept and the edges they produce. */
static void graph_drop(dalic_graph_t *g, const bool *keep)
{
	/* consumers that are dropped leave their edges (while the nodes still exist to ask) */
	for (int i = 0; i < g->num_edges; i++) {
		dalic_edge_t *e = g->edges[i];
		int wc = 0;
		for (int c = 0; c < e->num_consumers; c++)
			if (keep[e->consumers[c]->index]) {
				e->consumers[wc] = e->consumers[c];
				e->consumer_input[wc++] = e->consumer_input[c];
			}
		e->num_consumers = wc;
	}
	int w = 0;
	for (int i = 0; i < g->num_nodes; i++) {
		if (keep[i]) {
			g->nodes[w] = g->nodes[i];
			g->nodes[w]->index = w;
			w++;
			continue;
		}
		dalic_node_t *n = g->nodes[i];
		for (int k = 0; k < n->num_outputs; k++)
			n->outputs[k]->producer = NULL; /* edge dropped below */
		graph_node_free(n);
	}
	g->num_nodes = w;
	/* drop edges without a producer */
	int we = 0;
	for (int i = 0; i < g->num_edges; i++) {
		dalic_edge_t *e = g->edges[i];
		if (!e->producer) {
			graph_edge_free(e);
			continue;
		}
		e->index = we;
		g->edges[we++] = e;
	}
	g->num_edges = we;
}

/* Keeps nodes reachable backwards from outputs and preserved nodes; frees the rest. */
static void graph_prune(dalic_graph_t *g)
{
	bool *keep = calloc((size_t)g->num_nodes + 1, sizeof *keep);
	if (!keep)
		return; /* pruning is an optimisation: keeping everything is still correct */
	for (int i = 0; i < g->num_nodes; i++) {
		dalic_node_t *n = g->nodes[i];
		n->index = i;
		const dalic_value_t *p = n->def ? dalic_graphdef_op_arg(n->def, "preserve") : NULL;
		keep[i] = n->schema->no_prune || (p && dalic_value_get_i(p, 0));
	}
	for (int k = 0; k < g->num_outputs; k++)
		keep[g->outputs[k]->producer->index] = true;
	/* reverse topological sweep: a kept node keeps its producers */
	for (int i = g->num_nodes - 1; i >= 0; i--) {
		if (!keep[i])
			continue;
		dalic_node_t *n = g->nodes[i];
		for (int k = 0; k < n->num_inputs; k++)
			if (n->inputs[k]->producer)
				keep[n->inputs[k]->producer->index] = true;
		for (int k = 0; k < n->num_arg_inputs; k++)
			if (n->arg_inputs[k]->producer)
				keep[n->arg_inputs[k]->producer->index] = true;
	}
	graph_drop(g, keep);
	free(keep);
}

/* Restores a topological order after folding: a survivor can come after a consumer of the
 * node folded into it (DALI keeps the first in its walk from the outputs, not in definition
 * order). Each node is placed after its producers, otherwise in its old order. */
static int graph_sort_topological(dalic_graph_t *g)
{
	int n = g->num_nodes;
	dalic_node_t **sorted = calloc((size_t)n + 1, sizeof *sorted);
	dalic_node_t **stack = calloc((size_t)n + 1, sizeof *stack);
	int *next = calloc((size_t)n + 1, sizeof *next);
	char *state = calloc((size_t)n + 1, 1); /* 0 new, 1 on the stack, 2 placed */
	if (!sorted || !stack || !next || !state) {
		free(sorted), free(stack), free(next), free(state);
		return dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
	}
	int w = 0;
	for (int r = 0; r < n; r++) {
		if (state[r])
			continue;
		int top = 0;
		stack[top++] = g->nodes[r];
		state[r] = 1;
		while (top) {
			dalic_node_t *x = stack[top - 1];
			int k = next[x->index]++;
			if (k < x->num_inputs + x->num_arg_inputs) {
				dalic_edge_t *e = k < x->num_inputs ? x->inputs[k]
				                                    : x->arg_inputs[k - x->num_inputs];
				dalic_node_t *p = e->producer;
				if (p && !state[p->index]) {
					state[p->index] = 1;
					stack[top++] = p;
				}
			} else {
				state[x->index] = 2;
				sorted[w++] = x;
				top--;
			}
		}
	}
	memcpy(g->nodes, sorted, sizeof *sorted * (size_t)n);
	for (int i = 0; i < n; i++)
		g->nodes[i]->index = i;
	free(sorted), free(stack), free(next), free(state);
	return DALIC_OK;
}

/* Folds operators that compute the same thing into one (graph_cse.c), as DALI does after
 * pruning; nodes are indexed by position. */
static int graph_fold_common(dalic_graph_t *g)
{
	if (!dalic_graph_cse_enabled())
		return DALIC_OK;
	bool *keep = calloc((size_t)g->num_nodes + 1, sizeof *keep);
	if (!keep)
		return dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
	int rc = dalic_graph_cse_mark(g, keep);
	if (!rc)
		graph_drop(g, keep);
	free(keep);
	if (!rc)
		rc = graph_sort_topological(g);
	/* the name index points at the nodes that remain */
	dalic_strmap_clear(&g->by_inst);
	return rc ? rc : graph_index_nodes(g);
}

/* Stable partition by stage; the definition order is topological and stage constraints make
 * every producer's stage <= its consumer's, so the result stays topological. */
static int graph_order_by_stage(dalic_graph_t *g)
{
	dalic_node_t **sorted = calloc((size_t)g->num_nodes + 1, sizeof *sorted);
	if (!sorted)
		return dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
	int w = 0;
	for (int s = 0; s < DALIC_NUM_STAGES; s++) {
		g->stage_begin[s] = w;
		for (int i = 0; i < g->num_nodes; i++)
			if (g->nodes[i]->stage == s)
				sorted[w++] = g->nodes[i];
	}
	g->stage_begin[DALIC_NUM_STAGES] = w;
	memcpy(g->nodes, sorted, sizeof *sorted * (size_t)w);
	free(sorted);
	for (int i = 0; i < g->num_nodes; i++) {
		g->nodes[i]->index = i;
		if (g->nodes[i]->stage != DALIC_STAGE_CPU)
			g->uses_gpu = true;
	}
	return DALIC_OK;
}

static int graph_check_names(const dalic_graphdef_t *def)
{
	dalic_strmap_t names = {0};
	int rc = DALIC_OK;
	for (int i = 0; i < def->num_ops && !rc; i++) {
		if (dalic_strmap_has(&names, def->ops[i]->inst))
			rc = dalic_fail(DALIC_EGRAPH, "Duplicate operator instance name: \"%s\".",
					def->ops[i]->inst);
		else
			rc = dalic_strmap_put(&names, def->ops[i]->inst, def->ops[i]);
	}
	dalic_strmap_clear(&names);
	return rc;
}


int dalic_graph_build(const dalic_graphdef_t *def, dalic_graph_t **out)
{
	*out = NULL;
	int rc = graph_check_names(def);
	if (rc)
		return rc;
	builder_t b = {.def = def, .cpu_only = def->params.device_id == DALIC_CPU_ONLY_DEVICE_ID};
	b.g = calloc(1, sizeof *b.g);
	if (!b.g)
		return dalic_fail(DALIC_ENOMEM, "out of memory building the graph");
	b.g->def = def;
	b.g->params = def->params;
	if (b.g->params.seed < 0)
		b.g->params.seed = (int64_t)((uint64_t)time(NULL) ^ (uint64_t)clock()) & 0x7fffffff;
	for (int i = 0; i < def->num_ops && !rc; i++)
		rc = graph_add_operator(&b, def->ops[i]);
	if (!rc)
		rc = graph_add_outputs(&b);
	if (!rc) {
		graph_prune(b.g);
		rc = graph_index_nodes(b.g);
	}
	/* seeds before folding: DALI folds random operators only when their seeds agree */
	if (!rc)
		rc = dalic_graph_assign_seeds(b.g);
	if (!rc)
		rc = graph_fold_common(b.g);
	if (!rc)
		rc = graph_order_by_stage(b.g);
	for (int d = 0; d < 2; d++) {
		dalic_strmap_clear(&b.edges[d]);
		dalic_strmap_clear(&b.contiguous[d]);
	}
	if (rc) {
		dalic_graph_free(b.g);
		return rc;
	}
	*out = b.g;
	return DALIC_OK;
}
