/* The graph definition (see graphdef.h). */
#include "engine/graphdef.h"

#include "engine/callback.h"
#include "engine/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dalic_graphdef_device_from_name(const char *name)
{
	if (!name)
		return 0;
	if (!strcmp(name, "cpu"))
		return DALIC_DEV_CPU;
	if (!strcmp(name, "gpu"))
		return DALIC_DEV_GPU;
	if (!strcmp(name, "mixed"))
		return DALIC_DEV_MIXED;
	return 0;
}

const char *dalic_graphdef_device_name(int dev)
{
	switch (dev) {
	case DALIC_DEV_CPU: return "cpu";
	case DALIC_DEV_GPU: return "gpu";
	case DALIC_DEV_MIXED: return "mixed";
	}
	return "?";
}

dalic_graphdef_t *dalic_graphdef_new(const dalic_pipeline_params_t *params)
{
	dalic_graphdef_t *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	if (params)
		g->params = *params;
	else
		dalic_pipeline_params_init(&g->params);
	return g;
}

static void graphdef_io_free(dalic_io_t *io)
{
	free(io->name);
	free(io->device);
	free(io->arg_name);
	free(io->layout);
}

static void graphdef_op_free(dalic_opdef_t *op)
{
	if (!op)
		return;
	free(op->inst);
	free(op->device);
	for (int i = 0; i < op->num_inputs; i++)
		graphdef_io_free(&op->inputs[i]);
	free(op->inputs);
	for (int i = 0; i < op->num_args; i++) {
		free(op->args[i].name);
		dalic_value_free(&op->args[i].value);
	}
	free(op->args);
	for (int i = 0; i < op->num_outputs; i++)
		free(op->outputs[i]);
	free(op->outputs);
	free(op);
}

static void graphdef_print_free(dalic_debug_print_t *p)
{
	free(p->text);
	for (int i = 0; i < p->num_nodes; i++)
		free(p->nodes[i]);
	free(p->nodes);
}

int dalic_graphdef_add_print(dalic_graphdef_t *g, const char *text, int num_nodes,
			     const char *const *nodes, bool get, dalic_srcpos_t pos)
{
	dalic_debug_print_t *n = realloc(g->prints, sizeof *n * (size_t)(g->num_prints + 1));
	if (!n)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	g->prints = n;
	dalic_debug_print_t *p = &n[g->num_prints];
	memset(p, 0, sizeof *p);
	p->text = strdup(text ? text : "");
	p->nodes = calloc((size_t)num_nodes + 1, sizeof *p->nodes);
	p->get = get;
	p->pos = pos;
	p->eval = -1;
	bool ok = p->text && p->nodes;
	for (int i = 0; ok && i < num_nodes; i++, p->num_nodes++)
		ok = (p->nodes[i] = strdup(nodes[i])) != NULL;
	if (!ok) {
		graphdef_print_free(p);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	g->num_prints++;
	return DALIC_OK;
}

void dalic_graphdef_free(dalic_graphdef_t *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->num_ops; i++)
		graphdef_op_free(g->ops[i]);
	free(g->ops);
	for (int i = 0; i < g->num_outputs; i++)
		graphdef_io_free(&g->outputs[i]);
	free(g->outputs);
	free(g->strings_owner);
	free(g->source);
	free(g->name);
	for (int i = 0; i < g->num_prints; i++)
		graphdef_print_free(&g->prints[i]);
	free(g->prints);
	dalic_graphdef_attach_free(g);
	dalic_keep_release(g->keep);
	free(g);
}

static char *graphdef_dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int graphdef_io_copy(dalic_io_t *d, const dalic_io_t *s)
{
	*d = *s;
	d->name = graphdef_dup_or_null(s->name);
	d->device = graphdef_dup_or_null(s->device);
	d->arg_name = graphdef_dup_or_null(s->arg_name);
	d->layout = graphdef_dup_or_null(s->layout);
	return (s->name && !d->name) ? DALIC_ENOMEM : DALIC_OK;
}

int dalic_graphdef_op_refresh_outputs(dalic_opdef_t *op)
{
	int n = op->schema->outputs_for ? op->schema->outputs_for(op) : op->schema->num_outputs;
	char **outs = calloc((size_t)n + 1, sizeof *outs);
	if (!outs)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int i = 0; i < n; i++) {
		char buf[512];
		if (n == 1)
			snprintf(buf, sizeof buf, "%s", op->inst);
		else
			snprintf(buf, sizeof buf, "%s[%d]", op->inst, i);
		outs[i] = strdup(buf);
		if (!outs[i]) {
			while (i--)
				free(outs[i]);
			free(outs);
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		}
	}
	for (int i = 0; i < op->num_outputs; i++)
		free(op->outputs[i]);
	free(op->outputs);
	op->outputs = outs;
	op->num_outputs = n;
	return DALIC_OK;
}

dalic_graphdef_t *dalic_graphdef_clone(const dalic_graphdef_t *g)
{
	dalic_graphdef_t *c = dalic_graphdef_new(&g->params);
	if (!c)
		return NULL;
	c->next_id = g->next_id;
	c->keep = g->keep;
	dalic_keep_retain(c->keep);
	c->debug = g->debug;
	c->source = graphdef_dup_or_null(g->source);
	c->name = graphdef_dup_or_null(g->name);
	for (int i = 0; i < g->num_prints; i++) {
		const dalic_debug_print_t *p = &g->prints[i];
		dalic_srcpos_t pos = p->pos;
		if (pos.file && pos.file == g->source)
			pos.file = c->source;
		if (dalic_graphdef_add_print(c, p->text, p->num_nodes,
					     (const char *const *)p->nodes, p->get, pos))
			goto fail;
		c->prints[c->num_prints - 1].eval = p->eval;
	}
	if (dalic_graphdef_attach_copy(c, g))
		goto fail;
	c->ops = calloc((size_t)g->num_ops + 1, sizeof *c->ops);
	c->outputs = calloc((size_t)g->num_outputs + 1, sizeof *c->outputs);
	if (!c->ops || !c->outputs)
		goto fail;
	c->cap_ops = g->num_ops + 1;
	c->cap_outputs = g->num_outputs + 1;
	for (int i = 0; i < g->num_ops; i++) {
		const dalic_opdef_t *s = g->ops[i];
		dalic_opdef_t *d = calloc(1, sizeof *d);
		if (!d)
			goto fail;
		c->ops[c->num_ops++] = d;
		*d = *s;
		d->graph = c;
		/* positions point at the definition's own copy of the path */
		if (s->pos.file && s->pos.file == g->source)
			d->pos.file = c->source;
		d->inst = strdup(s->inst);
		d->device = graphdef_dup_or_null(s->device);
		d->inputs = calloc((size_t)s->num_inputs + 1, sizeof *d->inputs);
		d->args = calloc((size_t)s->num_args + 1, sizeof *d->args);
		d->outputs = NULL;
		d->num_outputs = 0;
		d->num_inputs = d->num_args = 0;
		if (!d->inst || !d->inputs || !d->args)
			goto fail;
		for (int k = 0; k < s->num_inputs; k++, d->num_inputs++)
			if (graphdef_io_copy(&d->inputs[k], &s->inputs[k]))
				goto fail;
		for (int k = 0; k < s->num_args; k++, d->num_args++) {
			d->args[k].name = strdup(s->args[k].name);
			if (!d->args[k].name ||
			    dalic_value_copy(&d->args[k].value, &s->args[k].value))
				goto fail;
		}
		if (dalic_graphdef_op_refresh_outputs(d))
			goto fail;
	}
	for (int i = 0; i < g->num_outputs; i++, c->num_outputs++)
		if (graphdef_io_copy(&c->outputs[i], &g->outputs[i]))
			goto fail;
	return c;
fail:
	dalic_graphdef_free(c);
	return NULL;
}

dalic_opdef_t *dalic_graphdef_find_op(const dalic_graphdef_t *g, const char *inst)
{
	for (int i = 0; i < g->num_ops; i++)
		if (!strcmp(g->ops[i]->inst, inst))
			return g->ops[i];
	return NULL;
}

dalic_opdef_t *dalic_graphdef_producer(const dalic_graphdef_t *g, const char *node, int *out_idx)
{
	for (int i = 0; i < g->num_ops; i++)
		for (int k = 0; k < g->ops[i]->num_outputs; k++)
			if (!strcmp(g->ops[i]->outputs[k], node)) {
				if (out_idx)
					*out_idx = k;
				return g->ops[i];
			}
	return NULL;
}

int dalic_graphdef_add_op(dalic_graphdef_t *g, const char *name, const char *device,
			  dalic_opdef_t **out)
{
	const dalic_schema_t *s = dalic_schema_find(name);
	if (!s)
		return dalic_fail(DALIC_EUNKNOWN_OP, "unknown operator '%s' (see `dalic ops`)",
				  name ? name : "(null)");
	if (device && !dalic_graphdef_device_from_name(device))
		return dalic_fail(DALIC_EINVAL,
				  "operator %s: invalid device '%s' (expected cpu, gpu or mixed)",
				  s->name, device);
	if (device && !(s->devices & dalic_graphdef_device_from_name(device)))
		return dalic_fail(DALIC_EINVAL, "operator %s does not support device '%s'",
				  s->name, device);
	if (g->num_ops == g->cap_ops) {
		int cap = g->cap_ops ? g->cap_ops * 2 : 16;
		void *n = realloc(g->ops, sizeof *g->ops * (size_t)cap);
		if (!n)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		g->ops = n;
		g->cap_ops = cap;
	}
	dalic_opdef_t *op = calloc(1, sizeof *op);
	if (!op)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	char shortname[128], inst[160];
	dalic_schema_short_name(s, shortname, sizeof shortname);
	op->schema = s;
	for (int i = 0; name && i < 4 && s->aliases[i]; i++)
		if (!strcmp(s->aliases[i], name))
			op->serial_name = s->aliases[i]; /* written back as it was read */
	op->graph = g;
	op->id = g->num_ops;
	op->logical_id = -1;
	op->source_batches = -1;
	snprintf(inst, sizeof inst, "__%s_%d", shortname, g->next_id);
	op->inst = strdup(inst);
	op->device = graphdef_dup_or_null(device);
	if (!op->inst || (device && !op->device) || dalic_graphdef_op_refresh_outputs(op)) {
		graphdef_op_free(op);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	g->next_id++;
	g->ops[g->num_ops++] = op;
	*out = op;
	return DALIC_OK;
}

static int graphdef_rename(dalic_opdef_t *op, const char *name, bool given, bool release)
{
	if (!name || !*name)
		return dalic_fail(DALIC_EINVAL, "operator %s: empty instance name", op->inst);
	char *n = strdup(name);
	if (!n)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	dalic_graphdef_t *g = op->graph;
	if (release && !op->name_given && g && g->num_ops > 0 && g->ops[g->num_ops - 1] == op &&
	    g->next_id > 0)
		g->next_id--;
	free(op->inst);
	op->inst = n;
	op->name_given = given;
	return dalic_graphdef_op_refresh_outputs(op);
}

int dalic_graphdef_op_set_name(dalic_opdef_t *op, const char *name)
{
	return graphdef_rename(op, name, true, false);
}

int dalic_graphdef_op_name_new(dalic_opdef_t *op, const char *name, bool given)
{
	return graphdef_rename(op, name, given, true);
}

int dalic_graphdef_op_set_device(dalic_opdef_t *op, const char *device)
{
	int dev = dalic_graphdef_device_from_name(device);
	if (!dev)
		return dalic_fail(DALIC_EINVAL,
				  "operator '%s': invalid device '%s' (expected cpu, gpu or mixed)",
				  op->inst, device ? device : "(null)");
	if (!(op->schema->devices & dev))
		return dalic_fail(DALIC_EINVAL, "operator '%s' (%s) does not support device '%s'",
				  op->inst, op->schema->name, device);
	char *d = strdup(device);
	if (!d)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	free(op->device);
	op->device = d;
	return DALIC_OK;
}

static int graphdef_insert_input(dalic_opdef_t *op, int at, const dalic_io_t *io)
{
	dalic_io_t *n = realloc(op->inputs, sizeof *n * (size_t)(op->num_inputs + 1));
	if (!n)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	op->inputs = n;
	memmove(&n[at + 1], &n[at], sizeof *n * (size_t)(op->num_inputs - at));
	n[at] = *io;
	op->num_inputs++;
	return DALIC_OK;
}

int dalic_graphdef_op_add_input(dalic_opdef_t *op, const char *node, const char *device)
{
	if (!node || !*node)
		return dalic_fail(DALIC_EINVAL, "operator '%s': empty input name", op->inst);
	if (device && strcmp(device, "cpu") && strcmp(device, "gpu"))
		return dalic_fail(DALIC_EINVAL,
				  "operator '%s': input '%s' device must be cpu or gpu, not '%s'",
				  op->inst, node, device);
	if (op->num_regular_inputs >= op->schema->max_inputs)
		return dalic_fail(DALIC_EGRAPH, "operator '%s' (%s) takes at most %d input%s",
				  op->inst, op->schema->name, op->schema->max_inputs,
				  op->schema->max_inputs == 1 ? "" : "s");
	dalic_io_t io = {
	    .name = strdup(node), .device = graphdef_dup_or_null(device), .dtype = -1, .ndim = -1};
	if (!io.name || (device && !io.device)) {
		graphdef_io_free(&io);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	int rc = graphdef_insert_input(op, op->num_regular_inputs, &io);
	if (rc) {
		graphdef_io_free(&io);
		return rc;
	}
	op->num_regular_inputs++;
	/* outputs that depend on the inputs (random_bbox_crop's labels) */
	return op->schema->outputs_for ? dalic_graphdef_op_refresh_outputs(op) : DALIC_OK;
}

static int graphdef_find_arg(const dalic_opdef_t *op, const char *arg)
{
	for (int i = 0; i < op->num_args; i++)
		if (!strcmp(op->args[i].name, arg))
			return i;
	return -1;
}

int dalic_graphdef_op_add_arg_input(dalic_opdef_t *op, const char *arg, const char *node)
{
	const dalic_arg_schema_t *a = dalic_schema_arg(op->schema, arg);
	if (!a)
		return dalic_fail(DALIC_EUNKNOWN_ARG, "operator '%s' (%s) has no argument '%s'",
				  op->inst, op->schema->name, arg);
	if (!a->tensor)
		return dalic_fail(DALIC_EARG_TYPE,
		                  "The argument `%s` for operator `%s` should not be a 'DataNode' "
		                  "but a '%s' (it cannot be given per sample)",
		                  arg, op->schema->name, dalic_schema_arg_type_name(a->type));
	if (graphdef_find_arg(op, arg) >= 0)
		return dalic_fail(
		    DALIC_EGRAPH,
		    "operator '%s': argument '%s' given both as a value and as an input", op->inst,
		    arg);
	int at = op->num_regular_inputs;
	for (; at < op->num_inputs; at++) {
		int c = strcmp(op->inputs[at].arg_name, arg);
		if (c == 0)
			return dalic_fail(DALIC_EGRAPH,
			                  "operator '%s': argument input '%s' given twice",
			                  op->inst, arg);
		if (c > 0)
			break;
	}
	dalic_io_t io = {.name = strdup(node), .device = strdup("cpu"), .is_arg = true,
			 .arg_name = strdup(arg), .dtype = -1, .ndim = -1};
	if (!io.name || !io.device || !io.arg_name) {
		graphdef_io_free(&io);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	int rc = graphdef_insert_input(op, at, &io);
	if (rc)
		graphdef_io_free(&io);
	return rc;
}

int dalic_graphdef_op_set_arg(dalic_opdef_t *op, const char *arg, const dalic_value_t *v)
{
	const dalic_arg_schema_t *a = dalic_schema_arg(op->schema, arg);
	if (!a)
		return dalic_fail(DALIC_EUNKNOWN_ARG, "operator '%s' (%s) has no argument '%s'",
				  op->inst, op->schema->name, arg);
	for (int i = op->num_regular_inputs; i < op->num_inputs; i++)
		if (!strcmp(op->inputs[i].arg_name, arg))
			return dalic_fail(DALIC_EGRAPH,
					  "operator '%s': argument '%s' given both as a value and "
					  "as an input",
					  op->inst, arg);
	if (!strcmp(arg, "device") && v->kind == DALIC_V_STRING && !v->is_list)
		return dalic_graphdef_op_set_device(op, v->s[0]);
	dalic_value_t conv;
	int rc = dalic_schema_arg_convert(op->schema, a, v, &conv);
	if (rc)
		return dalic_fail_wrap(rc, "operator '%s'", op->inst);
	int i = graphdef_find_arg(op, arg);
	if (i >= 0) {
		dalic_value_free(&op->args[i].value);
		op->args[i].value = conv;
	} else {
		dalic_arg_t *n = realloc(op->args, sizeof *n * (size_t)(op->num_args + 1));
		char *name = strdup(arg);
		if (!n || !name) {
			free(name);
			if (n)
				op->args = n;
			dalic_value_free(&conv);
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		}
		op->args = n;
		n[op->num_args].name = name;
		n[op->num_args].value = conv;
		op->num_args++;
	}
	return op->schema->outputs_for ? dalic_graphdef_op_refresh_outputs(op) : DALIC_OK;
}

const dalic_value_t *dalic_graphdef_op_arg(const dalic_opdef_t *op, const char *arg)
{
	int i = graphdef_find_arg(op, arg);
	return i >= 0 ? &op->args[i].value : NULL;
}

int dalic_graphdef_add_output(dalic_graphdef_t *g, const char *node, const char *device)
{
	if (!node || !*node)
		return dalic_fail(DALIC_EINVAL, "empty pipeline output name");
	if (device && strcmp(device, "cpu") && strcmp(device, "gpu"))
		return dalic_fail(DALIC_EINVAL, "output '%s': device must be cpu or gpu, not '%s'",
				  node, device);
	if (g->num_outputs == g->cap_outputs) {
		int cap = g->cap_outputs ? g->cap_outputs * 2 : 8;
		dalic_io_t *n = realloc(g->outputs, sizeof *n * (size_t)cap);
		if (!n)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		g->outputs = n;
		g->cap_outputs = cap;
	}
	dalic_io_t *n = g->outputs;
	dalic_io_t io = {.name = strdup(node),
	                 .device = graphdef_dup_or_null(device),
	                 .dtype = g->params.output_dtype,
	                 .ndim = g->params.output_ndim};
	if (!io.name || (device && !io.device)) {
		graphdef_io_free(&io);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	n[g->num_outputs++] = io;
	return DALIC_OK;
}

void dalic_graphdef_clear_outputs(dalic_graphdef_t *g)
{
	for (int i = 0; i < g->num_outputs; i++)
		graphdef_io_free(&g->outputs[i]);
	g->num_outputs = 0;
}

int dalic_graphdef_set_output_desc(dalic_graphdef_t *g, int i, int dtype, int ndim,
				   const char *layout)
{
	if (i < 0 || i >= g->num_outputs)
		return dalic_fail(DALIC_EINVAL, "output index %d out of range (%d outputs)", i,
				  g->num_outputs);
	if (ndim < -1)
		return dalic_fail(DALIC_EINVAL, "output %d: ndim must be >= 0 or -1 (any)", i);
	char *l = graphdef_dup_or_null(layout);
	if (layout && !l)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	free(g->outputs[i].layout);
	g->outputs[i].layout = l;
	g->outputs[i].dtype = dtype;
	g->outputs[i].ndim = ndim;
	return DALIC_OK;
}
