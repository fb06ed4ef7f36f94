/*
 * The built graph through the public API (dalic.h): what the TUI draws and tools list,
 * without handing out the engine's graph structures.
 */
#include "engine/error.h"
#include "engine/pipeline.h"

static const dalic_node_t *pipeline_graph_node(const dalic_pipeline_t *p, int i)
{
	const dalic_graph_t *g = p ? dalic_pipeline_graph(p) : NULL;
	return g && i >= 0 && i < g->num_nodes ? g->nodes[i] : NULL;
}

int dalic_pipeline_graph_size(const dalic_pipeline_t *p)
{
	const dalic_graph_t *g = p ? dalic_pipeline_graph(p) : NULL;
	return g ? g->num_nodes : 0;
}

int dalic_pipeline_graph_op(const dalic_pipeline_t *p, int i, dalic_graph_op_t *out)
{
	const dalic_node_t *n = pipeline_graph_node(p, i);
	if (!n || !out)
		return dalic_fail(DALIC_EINVAL, "graph operator %d: no such operator%s", i,
		                  p && dalic_pipeline_graph(p) ? ""
		                                               : " (the pipeline is not built)");
	*out = (dalic_graph_op_t){
	    .name = n->inst,
	    .schema = n->schema ? n->schema->name : "",
	    .stage = (dalic_stage_t)n->stage,
	    .internal = n->internal,
	    .num_inputs = n->num_inputs + n->num_arg_inputs,
	    .num_arg_inputs = n->num_arg_inputs,
	    .num_outputs = n->num_outputs,
	};
	return DALIC_OK;
}

int dalic_pipeline_graph_input(const dalic_pipeline_t *p, int i, int k, dalic_graph_input_t *out)
{
	const dalic_node_t *n = pipeline_graph_node(p, i);
	if (!n || !out || k < 0 || k >= n->num_inputs + n->num_arg_inputs)
		return dalic_fail(DALIC_EINVAL, "graph operator %d: no input %d", i, k);
	bool arg = k >= n->num_inputs;
	const dalic_edge_t *e = arg ? n->arg_inputs[k - n->num_inputs] : n->inputs[k];
	*out = (dalic_graph_input_t){
	    .node = e->name,
	    .arg = arg ? n->arg_names[k - n->num_inputs] : NULL,
	    .gpu = e->gpu,
	    .producer = e->producer ? e->producer->index : -1,
	};
	return DALIC_OK;
}

const char *dalic_pipeline_graph_output(const dalic_pipeline_t *p, int i, int k)
{
	const dalic_node_t *n = pipeline_graph_node(p, i);
	return n && k >= 0 && k < n->num_outputs ? n->outputs[k]->name : NULL;
}
