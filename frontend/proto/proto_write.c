/*
 * Graph definition -> DALI PipelineDef bytes, writing exactly what DALI's
 * Pipeline.serialize() writes (docs/dali-behaviour.md §1.2-1.4):
 *  - pipeline parameters, with the concrete seed, device_id -99999 for CPU-only pipelines,
 *    executor_type built from the exec flags (dalic has no dynamic executor, so only the
 *    legacy pipelined / async / separated bits are ever set) and both queue depths;
 *  - the operators in definition order, minus those that reach no output and are not
 *    preserved (DALI's Python front end collects ops from the outputs, so it never sees
 *    them); each with its schema name, instance name, logical id, inputs with their
 *    requested devices and argument-input flags, outputs, and arguments;
 *  - every argument the user set, plus the ones the Python front end always adds (`device`,
 *    `_module`, `_display_name`, `preserve_name`; `preserve` for no-prune schemas), but never
 *    the build-time ones (`max_batch_size`, `num_threads`, `bytes_per_sample_hint`);
 *  - pipe_outputs with declared dtype and ndim (DALI's writer leaves layout out).
 * Automatic devices (NULL in the definition) are resolved here the way DALI's fn API resolves
 * them before serializing: an op is gpu when any positional input is requested on gpu, and
 * an input with no device is requested where its producer puts it.
 *
 * The protobuf-c structures point at strings owned by the definition (protobuf-c's packer
 * only reads them); everything allocated for them lives in one arena freed after packing.
 */
#include "frontend/proto/proto_internal.h"

#include "engine/error.h"
#include "engine/graphdef_order.h"
#include "engine/strmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct arena {
	void **blocks;
	size_t n, cap;
	bool oom;
} arena_t;

static void *write_arena_calloc(arena_t *a, size_t count, size_t size)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		void **b = realloc(a->blocks, cap * sizeof *b);
		if (!b) {
			a->oom = true;
			return NULL;
		}
		a->blocks = b;
		a->cap = cap;
	}
	void *p = calloc(count ? count : 1, size);
	if (!p) {
		a->oom = true;
		return NULL;
	}
	a->blocks[a->n++] = p;
	return p;
}

static void *write_arena_alloc(void *a, size_t count, size_t size)
{
	return write_arena_calloc(a, count, size);
}

static char *write_arena_strdup(arena_t *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = write_arena_calloc(a, n, 1);
	if (d)
		memcpy(d, s, n);
	return d;
}

static void write_arena_free(arena_t *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->blocks[i]);
	free(a->blocks);
}

/* protobuf-c declares message strings as char *; the packer never writes through them. */
static char *write_borrow(const char *s)
{
	return (char *)s;
}

/* Devices and producers resolved once for the whole definition. */
typedef struct resolved {
	const char **op_dev;  /* per op: "cpu" / "gpu" / "mixed" */
	const char ***in_dev; /* per op, per input: "cpu" / "gpu" requested */
	int **producer;       /* per op, per input: index of the producing op */
	const char **out_dev; /* per pipeline output */
	int *out_producer;
} resolved_t;

static const char *write_produced_on(const char *op_dev)
{
	return strcmp(op_dev, "cpu") ? "gpu" : "cpu";
}

/* Index of the first op among those added to `producers` that produces `node`, or -1. */
static int write_find_producer(const dalic_strmap_t *producers, const char *node)
{
	return (int)(intptr_t)dalic_strmap_get(producers, node) - 1;
}

/* Makes op i's outputs known to write_find_producer (an earlier producer keeps a name). */
static int write_add_producer(dalic_strmap_t *producers, const dalic_opdef_t *op, int i)
{
	for (int k = 0; k < op->num_outputs; k++)
		if (!dalic_strmap_has(producers, op->outputs[k]))
			DALIC_TRY(
			    dalic_strmap_put(producers, op->outputs[k], (void *)(intptr_t)(i + 1)));
	return DALIC_OK;
}

static bool write_arg_true(const dalic_opdef_t *op, const char *name)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(op, name);
	return v && v->kind != DALIC_V_NONE && dalic_value_get_i(v, 0) != 0;
}

static int write_resolve_with(const dalic_graphdef_t *g, arena_t *a, resolved_t *r,
                              dalic_strmap_t *producers)
{
	int n = g->num_ops;
	r->op_dev = write_arena_calloc(a, (size_t)n, sizeof *r->op_dev);
	r->in_dev = write_arena_calloc(a, (size_t)n, sizeof *r->in_dev);
	r->producer = write_arena_calloc(a, (size_t)n, sizeof *r->producer);
	r->out_dev = write_arena_calloc(a, (size_t)g->num_outputs, sizeof *r->out_dev);
	r->out_producer = write_arena_calloc(a, (size_t)g->num_outputs, sizeof *r->out_producer);
	if (a->oom)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; i < n; i++) {
		const dalic_opdef_t *op = g->ops[i];
		if (op->schema->internal)
			return dalic_fail(DALIC_EUNSUPPORTED,
			                  "Could not serialize the operator: `%s`.",
			                  op->schema->name);
		r->in_dev[i] = write_arena_calloc(a, (size_t)op->num_inputs, sizeof **r->in_dev);
		r->producer[i] =
		    write_arena_calloc(a, (size_t)op->num_inputs, sizeof **r->producer);
		if (a->oom)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		bool any_gpu = false;
		for (int k = 0; k < op->num_inputs; k++) {
			const dalic_io_t *in = &op->inputs[k];
			int p = write_find_producer(producers, in->name);
			if (p < 0)
				return dalic_fail(
				    DALIC_EGRAPH,
				    "Data node \"%s\" requested as %s to operator \"%s\" "
				    "is not known to the pipeline.",
				    in->name, in->is_arg ? in->arg_name : "input", op->inst);
			r->producer[i][k] = p;
			r->in_dev[i][k] = in->device ? in->device : write_produced_on(r->op_dev[p]);
			if (!in->is_arg && !strcmp(r->in_dev[i][k], "gpu"))
				any_gpu = true;
		}
		r->op_dev[i] = op->device ? op->device : any_gpu ? "gpu" : "cpu";
		DALIC_TRY(write_add_producer(producers, op, i));
	}
	for (int o = 0; o < g->num_outputs; o++) {
		const dalic_io_t *out = &g->outputs[o];
		int p = write_find_producer(producers, out->name);
		if (p < 0)
			return dalic_fail(
			    DALIC_EGRAPH,
			    "Requested output name '%s' is not known to the pipeline.", out->name);
		r->out_producer[o] = p;
		r->out_dev[o] = out->device ? out->device : write_produced_on(r->op_dev[p]);
	}
	return DALIC_OK;
}

static int write_resolve(const dalic_graphdef_t *g, arena_t *a, resolved_t *r)
{
	dalic_strmap_t producers = {0};
	int rc = write_resolve_with(g, a, r, &producers);
	dalic_strmap_clear(&producers);
	return rc;
}

static DaliProto__Argument *write_new_arg(arena_t *a, const char *name)
{
	DaliProto__Argument *m = write_arena_calloc(a, 1, sizeof *m);
	if (!m)
		return NULL;
	dali_proto__argument__init(m);
	m->name = write_borrow(name);
	return m;
}

static const char *write_type_tag(dalic_vkind_t k)
{
	switch (k) {
	case DALIC_V_INT:
		return "int64";
	case DALIC_V_FLOAT:
		return "float";
	case DALIC_V_BOOL:
		return "bool";
	default:
		return "string";
	}
}

/* Element i of v as the scalar Argument `m`. */
static void write_set_scalar(arena_t *a, DaliProto__Argument *m, const dalic_value_t *v, int i)
{
	m->type = write_borrow(write_type_tag(v->kind));
	switch (v->kind) {
	case DALIC_V_INT:
		if ((m->ints = write_arena_calloc(a, 1, sizeof *m->ints))) {
			m->ints[0] = v->i[i];
			m->n_ints = 1;
		}
		break;
	case DALIC_V_FLOAT: /* DALI keeps float arguments in 32 bits */
		if ((m->floats = write_arena_calloc(a, 1, sizeof *m->floats))) {
			m->floats[0] = (float)v->f[i];
			m->n_floats = 1;
		}
		break;
	case DALIC_V_BOOL:
		if ((m->bools = write_arena_calloc(a, 1, sizeof *m->bools))) {
			m->bools[0] = v->b[i];
			m->n_bools = 1;
		}
		break;
	default:
		if ((m->strings = write_arena_calloc(a, 1, sizeof *m->strings))) {
			m->strings[0] = write_borrow(v->s[i]);
			m->n_strings = 1;
		}
		break;
	}
}

static DaliProto__Argument *write_encode_value(arena_t *a, const char *name, const dalic_value_t *v)
{
	DaliProto__Argument *m = write_new_arg(a, name);
	if (!m)
		return NULL;
	if (!v->is_list) {
		write_set_scalar(a, m, v, 0);
		return m;
	}
	m->type = write_borrow(write_type_tag(v->kind));
	m->is_vector = true;
	m->extra_args = write_arena_calloc(a, (size_t)v->n, sizeof *m->extra_args);
	if (!m->extra_args)
		return NULL;
	for (int i = 0; i < v->n; i++) {
		char ename[32];
		snprintf(ename, sizeof ename, "element %d", i);
		DaliProto__Argument *e = write_new_arg(a, write_arena_strdup(a, ename));
		if (!e || !e->name)
			return NULL;
		write_set_scalar(a, e, v, i);
		m->extra_args[m->n_extra_args++] = e;
	}
	return m;
}

static DaliProto__Argument *write_string_arg(arena_t *a, const char *name, const char *s)
{
	dalic_value_t v = {.kind = DALIC_V_STRING, .n = 1, .s = (char **)&s};
	return write_encode_value(a, name, &v);
}

static DaliProto__Argument *write_bool_arg(arena_t *a, const char *name, bool b)
{
	dalic_value_t v = {.kind = DALIC_V_BOOL, .n = 1, .b = &b};
	return write_encode_value(a, name, &v);
}

/* Arguments the writer adds itself, or that DALI adds at build and never serializes. */
static bool write_written_separately(const char *name)
{
	static const char *const names[] = {
	    "device",      "preserve_name",         "_module", "_display_name", "max_batch_size",
	    "num_threads", "bytes_per_sample_hint", NULL};
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static const char *write_given_string(const dalic_opdef_t *op, const char *name, const char *def)
{
	const dalic_value_t *v = dalic_graphdef_op_arg(op, name);
	return v && v->kind == DALIC_V_STRING && !v->is_list && v->n == 1 ? v->s[0] : def;
}

static int write_encode_args(arena_t *a, const dalic_opdef_t *op, const char *device,
                             DaliProto__OpDef *m)
{
	m->args = write_arena_calloc(a, (size_t)op->num_args + 5, sizeof *m->args);
	if (!m->args)
		return DALIC_ENOMEM;
	m->args[m->n_args++] = write_string_arg(a, "device", device);
	for (int k = 0; k < op->num_args; k++) {
		const dalic_arg_t *arg = &op->args[k];
		if (write_written_separately(arg->name) || arg->value.kind == DALIC_V_NONE)
			continue;
		const dalic_arg_schema_t *as = dalic_schema_arg(op->schema, arg->name);
		if (as && as->type == DALIC_ARG_TF_FEATURE_LIST) {
			DaliProto__Argument *f = write_new_arg(a, arg->name);
			if (!f)
				return DALIC_ENOMEM;
			DALIC_TRY(dalic_proto_tfrec_encode(&arg->value, f, write_arena_alloc, a));
			m->args[m->n_args++] = f;
			continue;
		}
		m->args[m->n_args++] = write_encode_value(a, arg->name, &arg->value);
	}
	if (op->schema->no_prune && !dalic_graphdef_op_arg(op, "preserve"))
		m->args[m->n_args++] = write_bool_arg(a, "preserve", true);
	/* DALI forces preserve_name for ExternalSource: its name is how inputs are fed */
	bool preserve_name = op->name_given || write_arg_true(op, "preserve_name") ||
	                     !strcmp(op->schema->name, "ExternalSource");
	m->args[m->n_args++] = write_bool_arg(a, "preserve_name", preserve_name);
	m->args[m->n_args++] = write_string_arg(
	    a, "_module",
	    write_given_string(op, "_module",
	                       op->schema->module ? op->schema->module : "nvidia.dali.fn"));
	m->args[m->n_args++] = write_string_arg(
	    a, "_display_name",
	    write_given_string(op, "_display_name", dalic_schema_display_name(op->schema)));
	return a->oom ? DALIC_ENOMEM : DALIC_OK;
}

static DaliProto__InputOutput *write_new_io(arena_t *a, const char *name, const char *device)
{
	DaliProto__InputOutput *m = write_arena_calloc(a, 1, sizeof *m);
	if (!m)
		return NULL;
	dali_proto__input_output__init(m);
	m->name = write_borrow(name);
	m->device = write_borrow(device);
	return m;
}

static int write_encode_op(arena_t *a, const resolved_t *r, const dalic_graphdef_t *g, int i,
                           int logical_id, DaliProto__OpDef *m)
{
	const dalic_opdef_t *op = g->ops[i];
	if (op->schema->not_serializable) /* DALI's IsSerializable(): a Python object inside */
		return dalic_fail(DALIC_EUNSUPPORTED,
		                  "Could not serialize the operator: `%s.%s` (instance '%s')",
		                  write_given_string(op, "_module", "nvidia.dali.fn"),
		                  write_given_string(op, "_display_name",
		                                     dalic_schema_display_name(op->schema)),
		                  op->inst);
	dali_proto__op_def__init(m);
	m->name = write_borrow(op->serial_name ? op->serial_name : op->schema->name);
	m->inst_name = write_borrow(op->inst);
	m->has_logical_id = true;
	m->logical_id = logical_id;
	m->input = write_arena_calloc(a, (size_t)op->num_inputs, sizeof *m->input);
	m->output = write_arena_calloc(a, (size_t)op->num_outputs, sizeof *m->output);
	if (!m->input || !m->output)
		return DALIC_ENOMEM;
	/* the definition keeps regular inputs first, then argument inputs: DALI's order */
	for (int k = 0; k < op->num_inputs; k++) {
		const dalic_io_t *in = &op->inputs[k];
		DaliProto__InputOutput *io = write_new_io(a, in->name, r->in_dev[i][k]);
		if (!io)
			return DALIC_ENOMEM;
		io->is_argument_input = in->is_arg;
		if (in->is_arg)
			io->arg_name = write_borrow(in->arg_name);
		m->input[m->n_input++] = io;
	}
	for (int k = 0; k < op->num_outputs; k++) {
		DaliProto__InputOutput *io =
		    write_new_io(a, op->outputs[k], write_produced_on(r->op_dev[i]));
		if (!io)
			return DALIC_ENOMEM;
		m->output[m->n_output++] = io;
	}
	return write_encode_args(a, op, r->op_dev[i], m);
}

static int64_t write_clock_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((int64_t)ts.tv_sec * 1000000007 + ts.tv_nsec) & 0x7fffffff;
}

static void write_encode_params(const dalic_pipeline_params_t *p, DaliProto__PipelineDef *m)
{
	m->batch_size = p->batch_size;
	m->has_num_threads = true;
	m->num_threads = p->num_threads;
	m->has_device_id = true;
	m->device_id = p->device_id;
	m->has_seed = true;
	m->seed = p->seed >= 0 ? p->seed : write_clock_seed();
	m->has_enable_checkpointing = true;
	m->enable_checkpointing = p->enable_checkpointing;
	bool pipelined = p->exec_pipelined || p->exec_async; /* async implies pipelined */
	m->has_executor_type = true;
	m->executor_type = (pipelined ? DALIC_EXEC_PIPELINED : 0) |
	                   (p->exec_async ? DALIC_EXEC_ASYNC : 0) |
	                   (p->separated_queues ? DALIC_EXEC_SEPARATED : 0);
	m->has_executor_flags = true;
	m->executor_flags = p->set_affinity ? DALIC_EXEC_FLAG_SET_AFFINITY : 0;
	m->has_prefetch_queue_depth_cpu = m->has_prefetch_queue_depth_gpu = true;
	m->prefetch_queue_depth_cpu = p->prefetch_cpu;
	m->prefetch_queue_depth_gpu = p->separated_queues ? p->prefetch_gpu : p->prefetch_cpu;
	m->has_bytes_per_sample_hint = true;
	m->bytes_per_sample_hint = p->bytes_per_sample;
}

/* Logical ids as DALI's C++ pipeline hands them out while Python adds the operators in
 * `order`: a given id is kept (and moves the counter past it), the others take the next one. */
static void write_logical_ids(const dalic_graphdef_t *g, const int *order, int n, int *lids)
{
	int next = 0;
	for (int k = 0; k < n; k++) {
		int given = g->ops[order[k]]->logical_id;
		lids[k] = given >= 0 ? given : next++;
		if (given > next)
			next = given + 1;
	}
}

static int write_encode(arena_t *a, const dalic_graphdef_t *g, DaliProto__PipelineDef *m)
{
	if (g->params.batch_size <= 0)
		return dalic_fail(DALIC_EINVAL,
		                  "Invalid batch size: %d. Please set a positive integer.",
		                  g->params.batch_size);
	resolved_t r;
	int rc = write_resolve(g, a, &r);
	if (rc)
		return rc;
	write_encode_params(&g->params, m);
	m->op = write_arena_calloc(a, (size_t)g->num_ops, sizeof *m->op);
	m->pipe_outputs = write_arena_calloc(a, (size_t)g->num_outputs, sizeof *m->pipe_outputs);
	if (!m->op || !m->pipe_outputs)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int *order = write_arena_calloc(a, (size_t)g->num_ops, sizeof *order);
	int *lids = write_arena_calloc(a, (size_t)g->num_ops, sizeof *lids);
	if (!order || !lids)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	int n = dalic_graphdef_dali_order(g, order);
	if (n < 0)
		return DALIC_ENOMEM;
	write_logical_ids(g, order, n, lids);
	for (int k = 0; k < n; k++) {
		DaliProto__OpDef *op = write_arena_calloc(a, 1, sizeof *op);
		if (!op)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		int rc = write_encode_op(a, &r, g, order[k], lids[k], op);
		if (rc)
			return rc == DALIC_ENOMEM ? dalic_fail(rc, "out of memory") : rc;
		m->op[m->n_op++] = op;
	}
	for (int o = 0; o < g->num_outputs; o++) {
		const dalic_io_t *out = &g->outputs[o];
		DaliProto__InputOutput *io = write_new_io(a, out->name, r.out_dev[o]);
		if (!io)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		io->has_dtype = io->has_ndim = true;
		io->dtype = out->dtype;
		io->ndim = out->ndim;
		m->pipe_outputs[m->n_pipe_outputs++] = io;
	}
	return DALIC_OK;
}

int dalic_proto_write(const dalic_graphdef_t *g, uint8_t **buf, size_t *len)
{
	arena_t a = {0};
	DaliProto__PipelineDef m;
	dali_proto__pipeline_def__init(&m);
	int rc = write_encode(&a, g, &m);
	if (!rc) {
		size_t n = dali_proto__pipeline_def__get_packed_size(&m);
		uint8_t *b = malloc(n ? n : 1);
		if (!b) {
			rc = dalic_fail(DALIC_ENOMEM, "out of memory for %zu serialized bytes", n);
		} else {
			dali_proto__pipeline_def__pack(&m, b);
			*buf = b;
			*len = n;
		}
	}
	write_arena_free(&a);
	return rc;
}
