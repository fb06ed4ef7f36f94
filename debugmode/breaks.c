/*
 * Breakpoints of a debug session: operator (by instance, schema, fn name or alias), iteration
 * and condition. Operator names are checked against the built graph when the breakpoint is
 * set, so a typo fails at once instead of never stopping. Conditions are checked only on the
 * outputs of the operator that just ran, so an idle session (no conditions) computes nothing;
 * the outputs of nodes the build inserted (copies, MakeContiguous) are skipped unless the
 * condition names them, since they repeat what the previous operator produced.
 */
#include "debugmode/session.h"

#include "engine/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool breaks_op_matches(const dalic_node_t *n, const char *name)
{
	if (!strcmp(n->inst, name))
		return true;
	return !n->internal && dalic_schema_find(name) == n->schema;
}

static int breaks_add_break(dalic_debug_t *s, dalic_debug_break_kind_t kind, const char *text,
                     dalic_breakpoint_t **out)
{
	if (s->num_breaks == s->cap_breaks) {
		int cap = s->cap_breaks ? 2 * s->cap_breaks : 8;
		dalic_breakpoint_t *b = realloc(s->breaks, sizeof *b * (size_t)cap);
		if (!b)
			return dalic_fail(DALIC_ENOMEM, "out of memory");
		s->breaks = b;
		s->cap_breaks = cap;
	}
	dalic_breakpoint_t *b = &s->breaks[s->num_breaks];
	memset(b, 0, sizeof *b);
	b->text = strdup(text);
	if (!b->text)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	b->kind = kind;
	b->id = s->next_break_id++;
	s->num_breaks++;
	*out = b;
	return DALIC_OK;
}

static int breaks_failed(dalic_debug_t *s, int rc)
{
	dalic_debug_set_error(s, dalic_last_error());
	return rc;
}

int dalic_debug_break_op(dalic_debug_t *s, const char *op, int *id)
{
	bool known = false;
	for (int i = 0; op && i < s->e->g->num_nodes && !known; i++)
		known = breaks_op_matches(s->e->g->nodes[i], op);
	if (!known)
		return breaks_failed(s, dalic_fail(DALIC_EINVAL,
		                            "break: no operator '%s' in the pipeline (give an "
		                            "instance name such as __Rotate_6 or an operator name)",
		                            op ? op : ""));
	dalic_breakpoint_t *b;
	int rc = breaks_add_break(s, DALIC_DEBUG_BREAK_OP, op, &b);
	if (rc)
		return breaks_failed(s, rc);
	if (id)
		*id = b->id;
	return DALIC_OK;
}

int dalic_debug_break_iter(dalic_debug_t *s, int64_t iteration, int *id)
{
	if (iteration < 0)
		return breaks_failed(s, dalic_fail(DALIC_EINVAL, "break iter: iteration %lld is negative",
		                            (long long)iteration));
	char text[32];
	snprintf(text, sizeof text, "%lld", (long long)iteration);
	dalic_breakpoint_t *b;
	int rc = breaks_add_break(s, DALIC_DEBUG_BREAK_ITER, text, &b);
	if (rc)
		return breaks_failed(s, rc);
	b->iteration = iteration;
	if (id)
		*id = b->id;
	return DALIC_OK;
}

int dalic_debug_break_cond(dalic_debug_t *s, const char *expr, int *id)
{
	dalic_debug_cond_t *c;
	int rc = dalic_debug_cond_parse(expr ? expr : "", &c);
	if (rc)
		return breaks_failed(s, rc);
	const char *node = dalic_debug_cond_node(c);
	if (node && !dalic_debug_find_edge(s, node)) {
		rc = dalic_fail(DALIC_EINVAL, "cond: no data node '%s' in the pipeline", node);
		dalic_debug_cond_free(c);
		return breaks_failed(s, rc);
	}
	dalic_breakpoint_t *b;
	rc = breaks_add_break(s, DALIC_DEBUG_BREAK_COND, expr, &b);
	if (rc) {
		dalic_debug_cond_free(c);
		return breaks_failed(s, rc);
	}
	b->cond = c;
	if (id)
		*id = b->id;
	return DALIC_OK;
}

int dalic_debug_break_warning(dalic_debug_t *s, int *id)
{
	dalic_breakpoint_t *b;
	int rc = breaks_add_break(s, DALIC_DEBUG_BREAK_WARNING, "warning", &b);
	if (rc)
		return breaks_failed(s, rc);
	s->break_warnings = true;
	if (id)
		*id = b->id;
	return DALIC_OK;
}

static void breaks_free_one(dalic_breakpoint_t *b)
{
	free(b->text);
	dalic_debug_cond_free(b->cond);
}

int dalic_debug_delete(dalic_debug_t *s, int id)
{
	if (id <= 0) {
		dalic_debug_breaks_free(s);
		return DALIC_OK;
	}
	for (int i = 0; i < s->num_breaks; i++) {
		if (s->breaks[i].id != id)
			continue;
		breaks_free_one(&s->breaks[i]);
		memmove(&s->breaks[i], &s->breaks[i + 1],
		        sizeof *s->breaks * (size_t)(s->num_breaks - i - 1));
		s->num_breaks--;
		s->break_warnings = false;
		for (int k = 0; k < s->num_breaks; k++)
			s->break_warnings |= s->breaks[k].kind == DALIC_DEBUG_BREAK_WARNING;
		return DALIC_OK;
	}
	return breaks_failed(s, dalic_fail(DALIC_EINVAL, "delete: no breakpoint %d", id));
}

void dalic_debug_breaks_free(dalic_debug_t *s)
{
	for (int i = 0; i < s->num_breaks; i++)
		breaks_free_one(&s->breaks[i]);
	free(s->breaks);
	s->breaks = NULL;
	s->num_breaks = s->cap_breaks = 0;
	s->break_warnings = false;
}

int dalic_debug_num_breaks(const dalic_debug_t *s)
{
	return s->num_breaks;
}

int dalic_debug_break_get(const dalic_debug_t *s, int i, dalic_debug_break_t *out)
{
	if (i < 0 || i >= s->num_breaks)
		return dalic_fail(DALIC_EINVAL, "breakpoint index %d out of range", i);
	const dalic_breakpoint_t *b = &s->breaks[i];
	*out =
	    (dalic_debug_break_t){.id = b->id, .kind = b->kind, .text = b->text, .hits = b->hits};
	return DALIC_OK;
}

int64_t dalic_debug_num_warnings(const dalic_debug_t *s)
{
	return s && s->warnings ? dalic_warnlog_count(s->warnings) : 0;
}

int dalic_debug_warning(const dalic_debug_t *s, int64_t i, dalic_warning_t *out)
{
	if (!s || !out || !s->warnings || !dalic_warnlog_get(s->warnings, i, out))
		return dalic_fail(DALIC_EINVAL, "warning %lld out of range (%lld kept)",
		                  (long long)i, (long long)dalic_debug_num_warnings(s));
	return DALIC_OK;
}

dalic_breakpoint_t *dalic_debug_break_before(dalic_debug_t *s)
{
	const dalic_node_t *n = s->e->g->nodes[s->e->order[s->pos]];
	for (int i = 0; i < s->num_breaks; i++) {
		dalic_breakpoint_t *b = &s->breaks[i];
		if (b->kind == DALIC_DEBUG_BREAK_ITER && s->pos == 0 && !s->begun &&
		    b->iteration == s->iteration)
			return b;
		if (b->kind == DALIC_DEBUG_BREAK_OP && breaks_op_matches(n, b->text))
			return b;
	}
	return NULL;
}

dalic_breakpoint_t *dalic_debug_break_after(dalic_debug_t *s, int node_index,
                                            const dalic_edge_t **edge, int *sample)
{
	const dalic_node_t *n = s->e->g->nodes[node_index];
	for (int i = 0; i < s->num_breaks; i++) {
		dalic_breakpoint_t *b = &s->breaks[i];
		if (b->kind != DALIC_DEBUG_BREAK_COND)
			continue;
		const char *only = dalic_debug_cond_node(b->cond);
		/* copies inserted by the build hold what their input held: a stop there is
		 * noise, unless asked for by name */
		if (!only && n->internal)
			continue;
		const dalic_edge_t *target = only ? dalic_debug_find_edge(s, only) : NULL;
		for (int o = 0; o < n->num_outputs; o++) {
			if (only && target != n->outputs[o])
				continue;
			const dalic_batch_t *batch = dalic_debug_edge_batch(s, n->outputs[o]);
			int hit = batch ? dalic_debug_cond_eval(b->cond, batch) : -1;
			if (hit >= 0) {
				*edge = n->outputs[o];
				*sample = hit;
				return b;
			}
		}
	}
	return NULL;
}
