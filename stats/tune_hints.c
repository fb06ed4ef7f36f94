/*
 * Suggested bytes_per_sample_hint as Python to paste (stats/tune.h): one line per user
 * operator with its fn name and a value per output — the largest bytes per sample the
 * calibration run saw (DALI's own advice, max_real_memory_size) — then the pipeline-wide
 * --bytes-per-sample flag with the largest of them.
 */
#include "stats/tune.h"

#include <string.h>

int dalic_tune_write_hints(const dalic_tune_t *t, FILE *f)
{
	const dalic_stats_snapshot_t *b = t->base;
	int64_t largest = 0;
	int written = 0;
	for (int i = 0; b && i < b->num_operators; i++) {
		const dalic_stats_operator_t *op = &b->operators[i];
		if (op->internal || op->num_outputs == 0 || op->outputs[0].suggested_hint <= 0)
			continue;
		if (!written)
			fprintf(f, "# bytes_per_sample_hint per operator (largest bytes per sample "
			           "measured), to paste into the calls:\n");
		dalic_op_schema_t sc;
		int k = dalic_op_schema_find(op->op);
		const char *fn = k >= 0 && !dalic_op_schema_get(k, &sc) && sc.fn ? sc.fn : op->op;
		char line[512];
		int w = snprintf(line, sizeof line, "fn.%s(..., bytes_per_sample_hint=", fn);
		if (op->num_outputs > 1)
			w += snprintf(line + w, sizeof line - (size_t)w, "[");
		for (int o = 0; o < op->num_outputs && w < (int)sizeof line; o++) {
			int64_t h = op->outputs[o].suggested_hint;
			largest = h > largest ? h : largest;
			w += snprintf(line + w, sizeof line - (size_t)w, "%s%lld", o ? ", " : "",
			              (long long)h);
		}
		if (w < (int)sizeof line)
			snprintf(line + w, sizeof line - (size_t)w, "%s)", op->num_outputs > 1 ? "]" : "");
		fprintf(f, "%-72s # %s\n", line, op->name);
		written++;
	}
	if (written)
		fprintf(f, "# or pipeline-wide (every output presized to the largest): "
		           "--bytes-per-sample %lld, pipeline_def(..., bytes_per_sample=%lld)\n",
		        (long long)largest, (long long)largest);
	return written;
}
