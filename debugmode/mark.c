/*
 * Debug mode's `mark` / `since` (include/dalic_debug.h): the eager engine's memory counters —
 * per operator output, the buffers' bytes live, allocations and their bytes (the node's
 * dalic_mem_counter_t, the same the full engine's collector reads) and buffer growths (the
 * eager observer's count) — written as a stats document's operators, so the mark and the
 * difference are stats/growth.c's, the same as the attached and ordinary workbench use.
 */
#include "debugmode/session.h"

#include "engine/error.h"
#include "stats/growth.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

static int64_t dbgmark_load(_Atomic int64_t *v)
{
	return atomic_load_explicit(v, memory_order_relaxed);
}

/* {"iterations": N, "operators": [{"name", "outputs": [{"bytes_live", "growth_events",
 * "allocations": {"count", "bytes"}}]}]}, as `dalic stats --json` has them. */
static cJSON *dbgmark_document(const dalic_debug_t *s)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON *ops = doc ? cJSON_AddArrayToObject(doc, "operators") : NULL;
	if (!ops || !cJSON_AddNumberToObject(doc, "iterations", (double)s->iterations_total)) {
		cJSON_Delete(doc);
		return NULL;
	}
	for (int i = 0; i < s->e->g->num_nodes; i++) {
		const dalic_exec_node_t *x = &s->e->xnodes[i];
		cJSON *op = cJSON_CreateObject();
		cJSON *outs = op ? cJSON_AddArrayToObject(op, "outputs") : NULL;
		bool ok = outs && cJSON_AddStringToObject(op, "name", x->node->inst);
		cJSON_AddItemToArray(ops, op);
		for (int o = 0; ok && o < x->num_outputs; o++) {
			cJSON *out = cJSON_CreateObject(), *a = cJSON_CreateObject();
			ok = out && a && cJSON_AddItemToArray(outs, out) &&
			     cJSON_AddItemToObject(out, "allocations", a);
			ok = ok &&
			     cJSON_AddNumberToObject(out, "bytes_live",
			                             (double)dbgmark_load(&x->mem[o].bytes_live)) &&
			     cJSON_AddNumberToObject(out, "growth_events",
			                             (double)s->e->nodes[i].growths[o]) &&
			     cJSON_AddNumberToObject(
			         a, "count", (double)dbgmark_load(&x->mem[o].allocations)) &&
			     cJSON_AddNumberToObject(
			         a, "bytes", (double)dbgmark_load(&x->mem[o].bytes_allocated));
		}
		if (!ok) {
			cJSON_Delete(doc);
			return NULL;
		}
	}
	return doc;
}

void dalic_debug_mark_free(dalic_debug_t *s)
{
	if (s->mark)
		dalic_growth_free(s->mark);
	if (s->since)
		dalic_growth_free(s->since);
	free(s->mark);
	free(s->since);
	free(s->since_rows);
	s->mark = s->since = NULL;
	s->since_rows = NULL;
}

int dalic_debug_mark(dalic_debug_t *s)
{
	dalic_growth_t *g = calloc(1, sizeof *g);
	cJSON *doc = g ? dbgmark_document(s) : NULL;
	int rc = doc ? dalic_growth_mark(doc, g) : dalic_fail(DALIC_ENOMEM, "out of memory");
	cJSON_Delete(doc);
	if (rc) {
		free(g);
		dalic_debug_set_error(s, "mark: out of memory");
		return DALIC_ENOMEM;
	}
	if (s->mark)
		dalic_growth_free(s->mark);
	free(s->mark);
	s->mark = g;
	return DALIC_OK;
}

int dalic_debug_since(dalic_debug_t *s, int64_t *iterations, const dalic_debug_growth_t **rows,
                      int *num_rows)
{
	if (!s->mark) {
		int rc = dalic_fail(DALIC_ESTATE, "since: no mark yet (`mark` keeps the counters)");
		dalic_debug_set_error(s, dalic_last_error());
		return rc;
	}
	dalic_growth_t now = {0};
	cJSON *doc = dbgmark_document(s);
	int rc = doc ? dalic_growth_since(s->mark, doc, &now) : DALIC_ENOMEM;
	cJSON_Delete(doc);
	dalic_debug_growth_t *out = rc ? NULL : calloc((size_t)now.num_rows + 1, sizeof *out);
	if (rc || !out) {
		dalic_growth_free(&now);
		dalic_fail(DALIC_ENOMEM, "since: out of memory");
		dalic_debug_set_error(s, dalic_last_error());
		return DALIC_ENOMEM;
	}
	for (int i = 0; i < now.num_rows; i++)
		out[i] = (dalic_debug_growth_t){now.rows[i].name, now.rows[i].bytes_live,
		                                now.rows[i].growth_events, now.rows[i].allocations,
		                                now.rows[i].allocated_bytes};
	/* the rows borrow the names of `now`, kept until the next since */
	if (!s->since && !(s->since = calloc(1, sizeof *s->since))) {
		dalic_growth_free(&now);
		free(out);
		return dalic_fail(DALIC_ENOMEM, "since: out of memory");
	}
	dalic_growth_free(s->since);
	*s->since = now;
	free(s->since_rows);
	s->since_rows = out;
	*iterations = now.iterations;
	*rows = out;
	*num_rows = now.num_rows;
	return DALIC_OK;
}
