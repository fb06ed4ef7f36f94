/* Memory counters per operator at a mark, and their growth since (stats/growth.h). */
#include "stats/growth.h"

#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

static int64_t growth_int(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : 0;
}

void dalic_growth_free(dalic_growth_t *g)
{
	for (int i = 0; i < g->num_rows; i++)
		free(g->rows[i].name);
	free(g->rows);
	*g = (dalic_growth_t){0};
}

/* One operator's outputs summed into row. */
static int growth_row(const cJSON *op, dalic_growth_row_t *row)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(op, "name");
	const cJSON *outs = cJSON_GetObjectItemCaseSensitive(op, "outputs");
	if (!cJSON_IsString(name) || (outs && !cJSON_IsArray(outs)))
		return DALIC_EPARSE;
	row->name = strdup(name->valuestring);
	if (!row->name)
		return DALIC_ENOMEM;
	const cJSON *o;
	cJSON_ArrayForEach(o, outs)
	{
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "allocations");
		row->bytes_live += growth_int(o, "bytes_live");
		row->growth_events += growth_int(o, "growth_events");
		row->allocations += growth_int(a, "count");
		row->allocated_bytes += growth_int(a, "bytes");
	}
	return 0;
}

int dalic_growth_mark(const cJSON *stats, dalic_growth_t *out)
{
	*out = (dalic_growth_t){0};
	const cJSON *ops = cJSON_GetObjectItemCaseSensitive(stats, "operators");
	if (!cJSON_IsArray(ops))
		return DALIC_EPARSE;
	int n = cJSON_GetArraySize(ops);
	out->rows = calloc(n ? (size_t)n : 1, sizeof *out->rows);
	if (!out->rows)
		return DALIC_ENOMEM;
	out->iterations = growth_int(stats, "iterations");
	const cJSON *op;
	cJSON_ArrayForEach(op, ops)
	{
		int rc = growth_row(op, &out->rows[out->num_rows]);
		out->num_rows += out->rows[out->num_rows].name != NULL;
		if (rc) {
			dalic_growth_free(out);
			return rc;
		}
	}
	return 0;
}

int dalic_growth_since(const dalic_growth_t *mark, const cJSON *now, dalic_growth_t *out)
{
	DALIC_TRY(dalic_growth_mark(now, out));
	out->iterations -= mark->iterations;
	for (int i = 0; i < out->num_rows; i++) {
		dalic_growth_row_t *r = &out->rows[i];
		for (int j = 0; j < mark->num_rows; j++) {
			const dalic_growth_row_t *m = &mark->rows[j];
			if (strcmp(m->name, r->name))
				continue;
			r->bytes_live -= m->bytes_live;
			r->growth_events -= m->growth_events;
			r->allocations -= m->allocations;
			r->allocated_bytes -= m->allocated_bytes;
			break;
		}
	}
	return 0;
}
