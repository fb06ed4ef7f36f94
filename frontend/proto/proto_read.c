/*
 * DALI PipelineDef bytes -> graph definition, following DALI's loading rules (docs/dali-behaviour.md §1.5):
 * parameters from the file where present (negative values mean "unset": device_id -99999 is
 * a CPU-only pipeline), legacy `external_inputs` turned into ExternalSource operators, the
 * legacy schema name `_ExternalSource` and every alias the registry knows, operators added in
 * file order with their instance names and logical ids (-1 takes the next free id, as DALI's
 * C++ pipeline does), then the pipeline outputs with their declared dtype / ndim / layout.
 *
 * Argument values go through dalic_graphdef_op_set_arg, so the schema validates them exactly as it
 * validates a script's. The arguments DALI's Python front end adds to every op are folded
 * back into the definition's own fields: `device` into the op's device, `preserve_name` into
 * name_given; `_module` / `_display_name` are kept only when they differ from what the
 * writer would add, so a definition survives write -> read unchanged.
 *
 * Output names: dalic derives them from the instance name (`inst`, or `inst[i]` for several
 * outputs), which is also what DALI's Python front end writes. Files from other writers (C++
 * pipelines built by hand) may use any names; since a data node's name is only a label, the
 * reader maps each file name to the derived one and resolves every later reference through
 * that map. The number of outputs and their device must match the schema and the op.
 */
#include "frontend/proto/proto_internal.h"

#include "engine/checked.h"
#include "engine/error.h"
#include "engine/strmap.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A data node the file named, and where it lives in the definition. */
typedef struct node_name {
	const char *file_name; /* borrowed from the unpacked message */
	const dalic_opdef_t *op;
	int output;
} node_name_t;

/* Every lookup below is a hash lookup, so reading is linear in the file's size. */
typedef struct reader {
	dalic_graphdef_t *g;
	node_name_t *nodes;
	int num_nodes, cap_nodes;
	dalic_strmap_t node_index; /* file name -> 1 + index into nodes */
	dalic_strmap_t insts;      /* instance name -> op */
	dalic_strmap_t lid_first;  /* logical id (text in lid_keys) -> first op with it */
	char (*lid_keys)[16];      /* per op in g */
	int next_logical_id;
} reader_t;

static const char *read_lookup(const reader_t *r, const char *file_name)
{
	uintptr_t i = (uintptr_t)dalic_strmap_get(&r->node_index, file_name);
	return i ? r->nodes[i - 1].op->outputs[r->nodes[i - 1].output] : NULL;
}

static int read_add_node(reader_t *r, const char *file_name, const dalic_opdef_t *op, int output)
{
	if (read_lookup(r, file_name))
		return dalic_fail(
		    DALIC_EGRAPH,
		    "Output name \"%s\" conflicts with an existing intermediate result "
		    "name (operator \"%s\").",
		    file_name, op->inst);
	if (r->num_nodes == r->cap_nodes) {
		int cap = r->cap_nodes ? r->cap_nodes * 2 : 32;
		node_name_t *n = realloc(r->nodes, sizeof *n * (size_t)cap);
		if (!n)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		r->nodes = n;
		r->cap_nodes = cap;
	}
	r->nodes[r->num_nodes++] = (node_name_t){file_name, op, output};
	return dalic_strmap_put(&r->node_index, file_name, (void *)(uintptr_t)r->num_nodes);
}

/* ---- parameters ------------------------------------------------------------------------ */

/* ExecutorType and ExecutorFlags bits DALI defines (docs/dali-behaviour.md §3.1): anything else is not a
 * value DALI writes, so it is refused rather than read as something it is not. */
#define PROTO_EXEC_TYPE_BITS 0xf
#define PROTO_EXEC_FLAG_CONCURRENCY 0x0e /* values 0, 2, 4, 6 */
#define PROTO_EXEC_FLAG_STREAMS 0x70     /* values 0, 16, 32, 48 */

static int read_params(const DaliProto__PipelineDef *m, dalic_pipeline_params_t *p)
{
	if (m->has_executor_type && (m->executor_type & ~PROTO_EXEC_TYPE_BITS))
		return dalic_fail(DALIC_EPARSE,
		                  "executor_type %d is not a DALI ExecutorType (bits 0x%x)",
		                  m->executor_type, PROTO_EXEC_TYPE_BITS);
	int64_t known = DALIC_EXEC_FLAG_SET_AFFINITY | PROTO_EXEC_FLAG_CONCURRENCY |
	                PROTO_EXEC_FLAG_STREAMS;
	if (m->has_executor_flags && ((m->executor_flags & ~known) ||
	                              (m->executor_flags & PROTO_EXEC_FLAG_CONCURRENCY) > 6 ||
	                              (m->executor_flags & PROTO_EXEC_FLAG_STREAMS) > 48))
		return dalic_fail(DALIC_EPARSE,
		                  "executor_flags %lld is not a set of DALI ExecutorFlags",
		                  (long long)m->executor_flags);
	dalic_pipeline_params_init(p);
	/* batch size is taken as is; validation runs after command-line overrides, at build */
	p->batch_size = m->batch_size;
	if (m->has_num_threads && m->num_threads >= 0) /* int64 on the wire, int in dalic */
		p->num_threads = m->num_threads > INT_MAX ? INT_MAX : (int)m->num_threads;
	if (m->has_device_id)
		p->device_id = m->device_id < 0 ? DALIC_CPU_ONLY_DEVICE_ID : m->device_id;
	if (m->has_seed)
		p->seed = m->seed < 0 ? -1 : m->seed;
	if (m->has_executor_type) {
		/* the dynamic executor implies pipelined + async; dalic runs it as async pipelined
		 */
		int t = m->executor_type;
		p->exec_pipelined = t & (DALIC_EXEC_PIPELINED | DALIC_EXEC_DYNAMIC);
		p->exec_async = t & (DALIC_EXEC_ASYNC | DALIC_EXEC_DYNAMIC);
		p->separated_queues = t & DALIC_EXEC_SEPARATED;
	}
	if (m->has_executor_flags)
		p->set_affinity = m->executor_flags & DALIC_EXEC_FLAG_SET_AFFINITY;
	bool cpu = m->has_prefetch_queue_depth_cpu && m->prefetch_queue_depth_cpu >= 0;
	bool gpu = m->has_prefetch_queue_depth_gpu && m->prefetch_queue_depth_gpu >= 0;
	if (cpu || gpu) { /* one depth alone is used for both queues */
		p->prefetch_cpu = cpu ? m->prefetch_queue_depth_cpu : m->prefetch_queue_depth_gpu;
		p->prefetch_gpu = gpu ? m->prefetch_queue_depth_gpu : m->prefetch_queue_depth_cpu;
	}
	if (m->has_bytes_per_sample_hint && m->bytes_per_sample_hint >= 0)
		p->bytes_per_sample = m->bytes_per_sample_hint;
	if (m->has_enable_checkpointing)
		p->enable_checkpointing = m->enable_checkpointing;
	return DALIC_OK;
}

/* ---- argument values ------------------------------------------------------------------- */

static int read_bad_arg(const char *inst, const char *schema, const char *arg, const char *why)
{
	return dalic_fail(DALIC_EPARSE, "operator '%s' (%s), argument '%s': %s", inst, schema, arg,
	                  why);
}

static dalic_vkind_t read_kind_of_tag(const char *type)
{
	if (!type)
		return DALIC_V_NONE;
	if (!strcmp(type, "int64"))
		return DALIC_V_INT;
	if (!strcmp(type, "float"))
		return DALIC_V_FLOAT;
	if (!strcmp(type, "bool"))
		return DALIC_V_BOOL;
	if (!strcmp(type, "string"))
		return DALIC_V_STRING;
	return DALIC_V_NONE;
}

static size_t read_count_of(const DaliProto__Argument *a, dalic_vkind_t k)
{
	switch (k) {
	case DALIC_V_INT:
		return a->n_ints;
	case DALIC_V_FLOAT:
		return a->n_floats;
	case DALIC_V_BOOL:
		return a->n_bools;
	default:
		return a->n_strings;
	}
}

static size_t read_other_values(const DaliProto__Argument *a, dalic_vkind_t k)
{
	return a->n_ints + a->n_floats + a->n_bools + a->n_strings - read_count_of(a, k);
}

/* Stores the single value of scalar Argument `a` of kind k into slot i of the arrays. */
static void read_take_scalar(const DaliProto__Argument *a, dalic_vkind_t k, int i, int64_t *iv,
                             double *fv, bool *bv, char **sv)
{
	switch (k) {
	case DALIC_V_INT:
		iv[i] = a->ints[0];
		break;
	case DALIC_V_FLOAT:
		fv[i] = a->floats[0];
		break;
	case DALIC_V_BOOL:
		bv[i] = a->bools[0];
		break;
	default:
		sv[i] = a->strings[0];
		break;
	}
}

static int read_decode_value(const DaliProto__Argument *a, const char *inst, const char *schema,
                             dalic_value_t *out)
{
	char why[160];
	dalic_vkind_t k = read_kind_of_tag(a->type);
	if (k == DALIC_V_NONE) {
		snprintf(why, sizeof why, "Invalid argument \"type\" in protobuf ('%.60s')",
		         a->type ? a->type : "(none)");
		return read_bad_arg(inst, schema, a->name, why);
	}
	if (!a->is_vector) {
		if (read_count_of(a, k) != 1 || read_other_values(a, k) || a->n_extra_args) {
			snprintf(why, sizeof why, "a scalar %s needs exactly one value, found %zu",
			         a->type,
			         read_count_of(a, k) + read_other_values(a, k) + a->n_extra_args);
			return read_bad_arg(inst, schema, a->name, why);
		}
	} else if (read_count_of(a, k) || read_other_values(a, k)) {
		return read_bad_arg(inst, schema, a->name,
		                    "a list keeps its values in extra_args only");
	} else if (a->n_extra_args > (1u << 24)) {
		return read_bad_arg(inst, schema, a->name, "list too long");
	}
	int n = a->is_vector ? (int)a->n_extra_args : 1;
	int64_t *iv = calloc((size_t)n + 1, sizeof *iv);
	double *fv = calloc((size_t)n + 1, sizeof *fv);
	bool *bv = calloc((size_t)n + 1, sizeof *bv);
	char **sv = calloc((size_t)n + 1, sizeof *sv);
	int rc = DALIC_OK;
	if (!iv || !fv || !bv || !sv)
		rc = dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; !rc && i < n; i++) {
		const DaliProto__Argument *e = a->is_vector ? a->extra_args[i] : a;
		if (a->is_vector && (e->is_vector || e->n_extra_args ||
		                     (e->type && read_kind_of_tag(e->type) != k) ||
		                     read_count_of(e, k) != 1 || read_other_values(e, k))) {
			snprintf(why, sizeof why,
			         "list element %d is not a single %s value (nested lists and mixed "
			         "types are not valid)",
			         i, a->type);
			rc = read_bad_arg(inst, schema, a->name, why);
			break;
		}
		read_take_scalar(e, k, i, iv, fv, bv, sv);
	}
	if (!rc) {
		const void *elems = k == DALIC_V_INT     ? (const void *)iv
		                    : k == DALIC_V_FLOAT ? (const void *)fv
		                    : k == DALIC_V_BOOL  ? (const void *)bv
		                                         : (const void *)sv;
		rc = dalic_value_list(out, k, n, elems);
		out->is_list = a->is_vector;
	}
	free(iv);
	free(fv);
	free(bv);
	free(sv);
	return rc;
}

/* ---- operators ------------------------------------------------------------------------- */

static const DaliProto__Argument *read_find_file_arg(const DaliProto__OpDef *m, const char *name)
{
	for (size_t i = 0; i < m->n_args; i++)
		if (!strcmp(m->args[i]->name, name))
			return m->args[i];
	return NULL;
}

/* The op's device from its `device` argument: DALI's OpSpec default is cpu, and the legacy
 * "support" device was rewritten to cpu. */
static int read_file_device(const DaliProto__OpDef *m, const char *schema, const char **dev)
{
	const DaliProto__Argument *a = read_find_file_arg(m, "device");
	*dev = "cpu";
	if (!a)
		return DALIC_OK;
	if (a->is_vector || read_kind_of_tag(a->type) != DALIC_V_STRING || a->n_strings != 1)
		return read_bad_arg(m->inst_name ? m->inst_name : "?", schema, "device",
		                    "expected a single string");
	if (strcmp(a->strings[0], "support"))
		*dev = a->strings[0];
	return DALIC_OK;
}

/* Arguments that are not kept as arguments of the definition. */
static bool read_skipped_arg(const char *name)
{
	/* build-time arguments DALI never serializes, should another writer include them,
	 * and DALI's tracing stacks (_origin_stack_filename / _lineno / _name / _line) */
	return !strcmp(name, "device") || !strcmp(name, "max_batch_size") ||
	       !strcmp(name, "num_threads") || !strncmp(name, "_origin_stack_", 14);
}

static bool read_is_default_string(const dalic_value_t *v, const char *def)
{
	return v->kind == DALIC_V_STRING && !v->is_list && v->n == 1 && !strcmp(v->s[0], def);
}

/* A shape the file declares must have a volume that fits 64 bits (negative extents are
 * wildcards some operators accept, so only the positive ones multiply). */
static int read_check_shape(const dalic_opdef_t *op, const char *arg, const dalic_value_t *v)
{
	if (strcmp(arg, "shape") || v->kind != DALIC_V_INT)
		return DALIC_OK;
	int64_t volume = 1;
	for (int i = 0; i < v->n; i++)
		if (v->i[i] > 0 && !dalic_ck_mul_i64(volume, v->i[i], &volume))
			return read_bad_arg(op->inst, op->schema->name, arg,
			                    "the shape's volume overflows 64 bits");
	return DALIC_OK;
}

static int read_args_with(const DaliProto__OpDef *m, dalic_opdef_t *op, dalic_strmap_t *seen)
{
	const dalic_schema_t *s = op->schema;
	for (size_t i = 0; i < m->n_args; i++) {
		const DaliProto__Argument *a = m->args[i];
		if (dalic_strmap_has(seen, a->name))
			return read_bad_arg(op->inst, s->name, a->name, "given twice");
		DALIC_TRY(dalic_strmap_put(seen, a->name, NULL));
		if (read_skipped_arg(a->name))
			continue;
		if (!dalic_schema_arg(s, a->name))
			return dalic_fail(DALIC_EUNKNOWN_ARG,
			                  "operator '%s' (%s) has no argument '%s'", op->inst,
			                  s->name, a->name);
		dalic_value_t v;
		int rc = a->type && !strcmp(a->type, "TFRecord")
		             ? dalic_proto_tfrec_decode(a, op->inst, s->name, &v)
		             : read_decode_value(a, op->inst, s->name, &v);
		if (!rc && (rc = read_check_shape(op, a->name, &v)))
			dalic_value_free(&v);
		if (rc)
			return rc;
		bool keep = true;
		if (!strcmp(a->name, "preserve_name")) {
			if (v.kind != DALIC_V_BOOL || v.is_list) {
				dalic_value_free(&v);
				return read_bad_arg(op->inst, s->name, a->name, "expected a bool");
			}
			op->name_given = v.b[0];
			keep = false;
		} else if (!strcmp(a->name, "_module")) {
			keep =
			    !read_is_default_string(&v, s->module ? s->module : "nvidia.dali.fn");
		} else if (!strcmp(a->name, "_display_name")) {
			keep = !read_is_default_string(&v, dalic_schema_display_name(s));
		} else if (!strcmp(a->name, "preserve") && s->no_prune) {
			/* the writer adds preserve=True to every no-prune op; it changes nothing */
			keep = !(v.kind == DALIC_V_BOOL && !v.is_list && v.b[0]);
		}
		rc = keep ? dalic_graphdef_op_set_arg(op, a->name, &v) : DALIC_OK;
		dalic_value_free(&v);
		if (rc)
			return rc;
	}
	return DALIC_OK;
}

static int read_args(const DaliProto__OpDef *m, dalic_opdef_t *op)
{
	dalic_strmap_t seen = {0}; /* names given so far: a hostile op may list thousands */
	int rc = read_args_with(m, op, &seen);
	dalic_strmap_clear(&seen);
	return rc;
}

static bool read_valid_device(const char *d)
{
	return d && (!strcmp(d, "cpu") || !strcmp(d, "gpu"));
}

static int read_inputs(reader_t *r, const DaliProto__OpDef *m, dalic_opdef_t *op)
{
	bool seen_arg_input = false;
	for (size_t i = 0; i < m->n_input; i++) {
		const DaliProto__InputOutput *in = m->input[i];
		if (!read_valid_device(in->device))
			return dalic_fail(
			    DALIC_EPARSE,
			    "operator '%s' (%s): input '%s' has device '%s' (expected "
			    "cpu or gpu)",
			    op->inst, op->schema->name, in->name, in->device);
		const char *node = read_lookup(r, in->name);
		if (!node)
			return dalic_fail(
			    DALIC_EGRAPH,
			    "Data node \"%s\" requested as %s to operator \"%s\" is not "
			    "known to the pipeline.",
			    in->name,
			    in->is_argument_input && in->arg_name ? in->arg_name : "input",
			    op->inst);
		int rc;
		if (in->is_argument_input) {
			if (!in->arg_name || !*in->arg_name)
				return dalic_fail(DALIC_EPARSE,
				                  "operator '%s' (%s): argument input '%s' has no "
				                  "arg_name",
				                  op->inst, op->schema->name, in->name);
			if (strcmp(in->device, "cpu"))
				return dalic_fail(
				    DALIC_EGRAPH,
				    "Error while specifying %s of operator '%s'. Named "
				    "argument inputs to operators must be CPU data nodes. "
				    "However, a GPU data node was provided.",
				    in->arg_name, op->inst);
			seen_arg_input = true;
			rc = dalic_graphdef_op_add_arg_input(op, in->arg_name, node);
		} else {
			if (seen_arg_input)
				return dalic_fail(
				    DALIC_EPARSE,
				    "operator '%s' (%s): regular input '%s' follows an "
				    "argument input",
				    op->inst, op->schema->name, in->name);
			rc = dalic_graphdef_op_add_input(op, node, in->device);
		}
		if (rc)
			return rc;
	}
	return DALIC_OK;
}

static int read_outputs(reader_t *r, const DaliProto__OpDef *m, dalic_opdef_t *op)
{
	if ((int)m->n_output != op->num_outputs)
		return dalic_fail(DALIC_EGRAPH,
		                  "operator '%s' (%s): the file lists %zu output%s, the operator "
		                  "has %d",
		                  op->inst, op->schema->name, m->n_output,
		                  m->n_output == 1 ? "" : "s", op->num_outputs);
	const char *want = strcmp(op->device, "cpu") ? "gpu" : "cpu";
	for (size_t k = 0; k < m->n_output; k++) {
		const DaliProto__InputOutput *o = m->output[k];
		if (!read_valid_device(o->device) || strcmp(o->device, want))
			return dalic_fail(DALIC_EPARSE,
			                  "operator '%s' (%s): output '%s' is on '%s', but a %s "
			                  "operator produces %s data",
			                  op->inst, op->schema->name, o->name, o->device,
			                  op->device, want);
		int rc = read_add_node(r, o->name, op, (int)k);
		if (rc)
			return rc;
	}
	return DALIC_OK;
}

static bool read_name_taken(const reader_t *r, const dalic_opdef_t *op, const char *name)
{
	const dalic_opdef_t *o = dalic_strmap_get(&r->insts, name);
	return o && o != op;
}

/* Gives op its instance name; names are unique in a pipeline. */
static int read_set_inst(reader_t *r, dalic_opdef_t *op, const char *name)
{
	if (read_name_taken(r, op, name))
		return dalic_fail(DALIC_EGRAPH, "Duplicate operator instance name: \"%s\".", name);
	int rc = dalic_graphdef_op_set_name(op, name);
	op->name_given = false; /* decided by the preserve_name argument */
	return rc ? rc : dalic_strmap_put(&r->insts, op->inst, op);
}

/* Instance name from the file, or C++'s default "__<Schema>_<logical id>" made unique. */
static int read_name(reader_t *r, const DaliProto__OpDef *m, dalic_opdef_t *op, int lid)
{
	if (m->inst_name && *m->inst_name)
		return read_set_inst(r, op, m->inst_name);
	char buf[512];
	snprintf(buf, sizeof buf, "__%s_%d", op->schema->name, lid);
	size_t base = strlen(buf);
	for (int n = 1; read_name_taken(r, op, buf) && n < 1 << 20; n++)
		snprintf(buf + base, sizeof buf - base, "_%d", n);
	return read_set_inst(r, op, buf);
}

/* The logical id from the file; `given` < 0 takes the next free one, as DALI's C++
 * pipeline assigns it. */
static int read_take_logical_id(reader_t *r, int given)
{
	int id = given >= 0 ? given : r->next_logical_id;
	if (id >= r->next_logical_id)
		r->next_logical_id = id == 0x7fffffff ? id : id + 1;
	return id;
}

/* Records the (named) op's logical id; ops sharing one must share a schema. */
static int read_set_logical_id(reader_t *r, dalic_opdef_t *op, int id)
{
	char *key = r->lid_keys[r->g->num_ops - 1];
	snprintf(key, sizeof *r->lid_keys, "%d", id);
	const dalic_opdef_t *first = dalic_strmap_get(&r->lid_first, key);
	if (first && first->schema != op->schema)
		return dalic_fail(DALIC_EGRAPH,
		                  "operator '%s' (%s): Different Operator types cannot be "
		                  "grouped with the same logical id (%d, shared with '%s').",
		                  op->inst, op->schema->name, id, first->inst);
	if (!first)
		DALIC_TRY(dalic_strmap_put(&r->lid_first, key, op));
	/* the definition says -1 for "same as the call-order id" */
	op->logical_id = id == op->id ? -1 : id;
	return DALIC_OK;
}

/* Adds an operator to the definition (its logical id's key was made room for at the start);
 * `name` as the file spells it, so a deprecated schema name is written back as it was read. */
static int read_begin_op(reader_t *r, const char *name, const char *device, dalic_opdef_t **op)
{
	return dalic_graphdef_add_op(r->g, name, device, op);
}

static int read_op(reader_t *r, const DaliProto__OpDef *m, int index)
{
	const char *name = strcmp(m->name, "_ExternalSource") ? m->name : "ExternalSource";
	const char *inst = m->inst_name && *m->inst_name ? m->inst_name : "unnamed";
	const dalic_schema_t *s = dalic_schema_find(name);
	if (!s)
		return dalic_fail(DALIC_EUNKNOWN_OP,
		                  "operator %d ('%s'): unknown operator '%s' (see `dalic ops`)",
		                  index, inst, m->name);
	const char *device;
	dalic_opdef_t *op;
	int lid, rc = read_file_device(m, s->name, &device);
	if (rc)
		return rc;
	if ((rc = read_begin_op(r, name, device, &op)))
		return dalic_fail_wrap(rc, "operator %d ('%s')", index, inst);
	lid = read_take_logical_id(r, m->has_logical_id ? m->logical_id : -1);
	if ((rc = read_name(r, m, op, lid)) || (rc = read_set_logical_id(r, op, lid)) ||
	    (rc = read_args(m, op)) || (rc = read_inputs(r, m, op)) ||
	    (rc = read_outputs(r, m, op)))
		return rc;
	return DALIC_OK;
}

/* Legacy files list external inputs by name; each is a cpu ExternalSource of that name. */
static int read_external_input(reader_t *r, const char *name)
{
	const dalic_schema_t *s = dalic_schema_find("ExternalSource");
	if (!s)
		return dalic_fail(DALIC_EUNKNOWN_OP,
		                  "legacy external input '%s': no ExternalSource operator", name);
	dalic_opdef_t *op;
	int rc = read_begin_op(r, s->name, "cpu", &op);
	if (rc)
		return dalic_fail_wrap(rc, "legacy external input '%s'", name);
	if ((rc = read_set_inst(r, op, name)) ||
	    (rc = read_set_logical_id(r, op, read_take_logical_id(r, -1))))
		return rc;
	op->name_given = true;
	if (op->num_outputs != 1)
		return dalic_fail(DALIC_EGRAPH,
		                  "legacy external input '%s': ExternalSource has %d outputs", name,
		                  op->num_outputs);
	return read_add_node(r, name, op, 0);
}

static int read_outputs_decl(reader_t *r, const DaliProto__PipelineDef *m)
{
	for (size_t i = 0; i < m->n_pipe_outputs; i++) {
		const DaliProto__InputOutput *o = m->pipe_outputs[i];
		const char *node = read_lookup(r, o->name);
		if (!node)
			return dalic_fail(
			    DALIC_EGRAPH,
			    "Requested output name '%s' is not known to the pipeline.", o->name);
		if (!read_valid_device(o->device))
			return dalic_fail(
			    DALIC_EPARSE,
			    "pipeline output '%s' has device '%s' (expected cpu or gpu)", o->name,
			    o->device);
		int dtype = o->has_dtype ? o->dtype : DALIC_NO_TYPE;
		int ndim = o->has_ndim ? o->ndim : -1;
		if (dtype != DALIC_NO_TYPE && !strcmp(dalic_dtype_name(dtype), "UNKNOWN"))
			return dalic_fail(DALIC_EPARSE,
			                  "pipeline output '%s': %d is not a DALIDataType", o->name,
			                  dtype);
		if (ndim < -1)
			return dalic_fail(
			    DALIC_EPARSE,
			    "pipeline output '%s': ndim %d (expected >= 0, or -1 for any)", o->name,
			    ndim);
		const char *layout = o->layout && *o->layout ? o->layout : NULL;
		int rc = dalic_graphdef_add_output(r->g, node, o->device);
		if (!rc)
			rc = dalic_graphdef_set_output_desc(r->g, (int)i, dtype, ndim, layout);
		if (rc)
			return rc;
	}
	return DALIC_OK;
}

int dalic_proto_read(const uint8_t *buf, size_t len, dalic_graphdef_t **out)
{
	DaliProto__PipelineDef *m;
	int rc = dalic_proto_unpack(buf, len, &m);
	if (rc)
		return rc;
	dalic_pipeline_params_t params;
	rc = read_params(m, &params);
	if (rc) {
		dali_proto__pipeline_def__free_unpacked(m, NULL);
		return rc;
	}
	size_t ops = m->n_external_inputs + m->n_op;
	reader_t r = {.g = dalic_graphdef_new(&params),
	              .lid_keys = calloc(ops + 1, sizeof *r.lid_keys)};
	if (!r.g || !r.lid_keys) {
		dalic_graphdef_free(r.g);
		free(r.lid_keys);
		dali_proto__pipeline_def__free_unpacked(m, NULL);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	for (size_t i = 0; !rc && i < m->n_external_inputs; i++)
		rc = read_external_input(&r, m->external_inputs[i]);
	for (size_t i = 0; !rc && i < m->n_op; i++)
		rc = read_op(&r, m->op[i], (int)i);
	if (!rc)
		rc = read_outputs_decl(&r, m);
	free(r.nodes);
	free(r.lid_keys);
	dalic_strmap_clear(&r.node_index);
	dalic_strmap_clear(&r.insts);
	dalic_strmap_clear(&r.lid_first);
	dali_proto__pipeline_def__free_unpacked(m, NULL);
	if (rc) {
		dalic_graphdef_free(r.g);
		return rc;
	}
	*out = r.g;
	return DALIC_OK;
}

int dalic_proto_load_file(const char *path, dalic_graphdef_t **out)
{
	uint8_t *buf;
	size_t len;
	int rc = dalic_proto_slurp(path, &buf, &len);
	if (rc)
		return rc;
	dalic_graphdef_t *g;
	rc = dalic_proto_read(buf, len, &g);
	free(buf);
	if (rc)
		return dalic_fail_wrap(rc, "%s", path);
	g->source = strdup(path);
	if (!g->source) {
		dalic_graphdef_free(g);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	*out = g;
	return DALIC_OK;
}
