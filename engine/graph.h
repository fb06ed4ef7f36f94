/*
 * The built graph: what the executor runs, the DOT writer draws and stats reports on.
 * Produced from a graph definition by dalic_graph_build(), which
 *  - resolves devices (automatic: gpu if any positional input is requested on gpu),
 *  - checks stage order (cpu <- cpu; mixed <- cpu; gpu <- anything), argument inputs on cpu,
 *    CPU-only pipelines, unknown data nodes, duplicate names, required arguments,
 *  - inserts transfers (`__Copy_CpuToGpu_<node>` producing <node> on gpu) and one
 *    `__MakeContiguous_<CpuToCpu|GpuToGpu>_<node>` (output `contiguous_<cpu_to_cpu|
 *    gpu_to_gpu>_<node>`) per distinct pipeline output node, as DALI 2.4 names them; a gpu
 *    output that a transfer made is contiguous already and gets none; the same node
 *    returned twice is copied once (docs/dali-behaviour.md §4),
 *  - prunes operators that reach no output unless preserve=True / no_prune,
 *  - orders nodes by stage (cpu, mixed, gpu), topologically within each stage, and
 *  - assigns seeds from the pipeline seed (std::seed_seq, in DALI's operator order;
 *    graph_seeds.h).
 * Every step is linear (or n log n) in the size of the definition: names are hashed.
 * Data nodes are identified by (name, device); DOT ids append "_cpu"/"_gpu".
 */
#ifndef DALIC_ENGINE_GRAPH_H
#define DALIC_ENGINE_GRAPH_H

#include "engine/graphdef.h"
#include "engine/kernel.h"
#include "engine/strmap.h"

typedef struct dalic_node dalic_node_t;

typedef struct dalic_edge {
	char *name;
	bool gpu;              /* device of this data node */
	dalic_node_t *producer;
	int producer_output;
	dalic_node_t **consumers; /* one entry per (consumer, input) use */
	int *consumer_input;      /* input index at the consumer; -1-k for argument input k */
	int num_consumers, cap_consumers;
	bool is_output;        /* feeds a pipeline output */
	int index;             /* position in graph->edges */
} dalic_edge_t;

struct dalic_node {
	const dalic_schema_t *schema;
	const dalic_opdef_t *def; /* NULL for nodes inserted by the build */
	char *inst;
	int device;               /* DALIC_DEV_* */
	int stage;                /* DALIC_STAGE_* */
	bool internal;            /* inserted by the build (copies, MakeContiguous) */
	int logical_id;
	uint64_t seed;
	dalic_edge_t **inputs;
	int num_inputs;
	dalic_edge_t **arg_inputs;
	const char **arg_names;   /* borrowed from the definition */
	int num_arg_inputs;
	dalic_edge_t **outputs;
	int num_outputs;
	int64_t *hints;           /* bytes_per_sample_hint per output, pipeline value filled in */
	int index;                /* position in graph->nodes (execution order) */
};

typedef struct dalic_graph {
	const dalic_graphdef_t *def; /* borrowed */
	dalic_pipeline_params_t params; /* resolved (seed chosen) */
	dalic_node_t **nodes;        /* execution order: by stage, topological within */
	int num_nodes;
	int stage_begin[DALIC_NUM_STAGES + 1]; /* nodes[stage_begin[s] .. stage_begin[s+1]) */
	dalic_edge_t **edges;
	int num_edges;
	dalic_edge_t **outputs;      /* pipeline outputs (MakeContiguous or transfer results) */
	int num_outputs;
	const char **output_names;   /* the names the user declared (borrowed from def) */
	bool uses_gpu;               /* any mixed/gpu node */
	dalic_strmap_t by_inst;      /* instance name -> node */
} dalic_graph_t;

/* Builds from `def` (borrowed: must outlive the graph). New: free with dalic_graph_free. */
int dalic_graph_build(const dalic_graphdef_t *def, dalic_graph_t **out);
void dalic_graph_free(dalic_graph_t *g);
/* The node with that instance name, or NULL (a hash lookup). */
dalic_node_t *dalic_graph_find_node(const dalic_graph_t *g, const char *inst);
/* "CPU" / "MIXED" / "GPU" (executor_statistics key prefixes). */
const char *dalic_graph_stage_name(int stage);

#endif
