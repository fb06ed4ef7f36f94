/* The run summary of `dalic run` and `dalic run --debug` (summary.h). */
#include "cli/summary.h"

#include "cli/cli.h"
#include "cli/warnings.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double summary_rate(double n, double secs)
{
	return secs > 0 ? n / secs : 0;
}

static void summary_print_shape(const dalic_batch_t *b, int i)
{
	printf("[");
	for (int d = 0; d < dalic_batch_ndim(b); d++)
		printf("%s%lld", d ? ", " : "", (long long)dalic_batch_shape(b, i)[d]);
	printf("]");
}

static void summary_print_shapes(const dalic_batch_t *b)
{
	int n = dalic_batch_num_samples(b);
	bool uniform = true;
	for (int i = 1; i < n && uniform; i++)
		uniform = !memcmp(dalic_batch_shape(b, 0), dalic_batch_shape(b, i),
		                  sizeof(int64_t) * (size_t)dalic_batch_ndim(b));
	printf("  shapes: ");
	for (int i = 0; i < (uniform ? (n > 0) : n); i++) {
		summary_print_shape(b, i);
		printf(i + 1 < n && !uniform ? " " : "");
	}
	if (uniform && n > 0)
		printf(" x %d", n);
	printf("\n");
}

void dalic_cli_summary_text(const dalic_cli_summary_t *m)
{
	const dalic_pipeline_params_t *pp = m->params;
	printf("pipeline: %s\n", m->path);
	if (m->debug) {
		printf("executor: debug (eager, one operator at a time)");
	} else {
		printf("executor: %s, prefetch_queue_depth %d", dalic_executor_mode_name(pp),
		       pp->prefetch_cpu);
		if (pp->separated_queues)
			printf("/%d", pp->prefetch_gpu);
	}
	printf(", batch_size %d, num_threads %d, %s\n", pp->batch_size, pp->num_threads,
	       pp->device_id == DALIC_CPU_ONLY_DEVICE_ID ? "cpu-only" : "device 0");
	printf("iterations: %ld\nseconds: %.6f\n", m->iterations, m->seconds);
	printf("samples_per_second: %.1f\niterations_per_second: %.1f\n",
	       summary_rate((double)m->samples, m->seconds),
	       summary_rate((double)m->iterations, m->seconds));
	if (m->debug && m->full_seconds > 0)
		printf("full_engine_seconds: %.6f\ndebug_slowdown: %.3fx\n", m->full_seconds,
		       m->seconds / m->full_seconds);
	else if (m->debug)
		printf("full_engine_seconds: n/a (the full engine could not run it alone)\n");
	for (int o = 0; o < m->num_outputs; o++) {
		const dalic_batch_t *b = m->output(m->ctx, o);
		if (!b)
			continue;
		printf("output %d: %s dtype=%s layout=\"%s\" device=%s samples=%d\n", o,
		       m->output_name(m->ctx, o), dalic_dtype_name(dalic_batch_dtype(b)),
		       dalic_batch_layout(b), dalic_batch_device(b), dalic_batch_num_samples(b));
		summary_print_shapes(b);
	}
	if (m->warnings_of) {
		dalic_cli_warn_filter_t f = {.iterations = m->iterations};
		int64_t entries, samples, refused;
		dalic_cli_warnings_tally(m->warnings_of, &f, &entries, &samples, &refused);
		printf("warnings: %lld in %lld samples%s\n", (long long)entries, (long long)samples,
		       entries && !m->list_warnings ? " (dalic run --warnings lists them)" : "");
		if (m->list_warnings)
			dalic_cli_warnings_list(stdout, m->warnings_of, &f);
	}
}

static cJSON *summary_shapes_json(const dalic_batch_t *b)
{
	cJSON *shapes = cJSON_CreateArray();
	for (int i = 0; i < dalic_batch_num_samples(b); i++) {
		cJSON *s = cJSON_CreateArray();
		for (int d = 0; d < dalic_batch_ndim(b); d++)
			cJSON_AddItemToArray(
			    s, cJSON_CreateNumber((double)dalic_batch_shape(b, i)[d]));
		cJSON_AddItemToArray(shapes, s);
	}
	return shapes;
}

int dalic_cli_summary_json(const dalic_cli_summary_t *m)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "pipeline", m->path);
	cJSON_AddStringToObject(root, "executor",
	                        m->debug ? "debug" : dalic_executor_mode_name(m->params));
	if (m->debug)
		cJSON_AddBoolToObject(root, "debug", 1);
	cJSON_AddNumberToObject(root, "batch_size", m->params->batch_size);
	cJSON_AddNumberToObject(root, "iterations", (double)m->iterations);
	cJSON_AddNumberToObject(root, "seconds", m->seconds);
	cJSON_AddNumberToObject(root, "samples_per_second",
	                        summary_rate((double)m->samples, m->seconds));
	cJSON_AddNumberToObject(root, "iterations_per_second",
	                        summary_rate((double)m->iterations, m->seconds));
	if (m->debug && m->full_seconds > 0) {
		cJSON_AddNumberToObject(root, "full_engine_seconds", m->full_seconds);
		cJSON_AddNumberToObject(root, "debug_slowdown", m->seconds / m->full_seconds);
	}
	cJSON *outs = cJSON_AddArrayToObject(root, "outputs");
	for (int o = 0; o < m->num_outputs && m->iterations > 0; o++) {
		const dalic_batch_t *b = m->output(m->ctx, o);
		if (!b)
			continue;
		cJSON *jo = cJSON_CreateObject();
		cJSON_AddStringToObject(jo, "name", m->output_name(m->ctx, o));
		cJSON_AddStringToObject(jo, "dtype", dalic_dtype_name(dalic_batch_dtype(b)));
		cJSON_AddStringToObject(jo, "layout", dalic_batch_layout(b));
		cJSON_AddStringToObject(jo, "device", dalic_batch_device(b));
		cJSON_AddItemToObject(jo, "shapes", summary_shapes_json(b));
		cJSON_AddItemToArray(outs, jo);
	}
	if (m->warnings_of) {
		dalic_cli_warn_filter_t f = {.iterations = m->iterations};
		int64_t entries, samples, refused;
		dalic_cli_warnings_tally(m->warnings_of, &f, &entries, &samples, &refused);
		cJSON_AddNumberToObject(root, "warning_count", (double)entries);
		if (m->list_warnings)
			cJSON_AddItemToObject(root, "warnings",
			                      dalic_cli_warnings_json(m->warnings_of, &f));
	}
	char *text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return dalic_cli_fail(DALIC_ENOMEM, "out of memory");
	puts(text);
	free(text);
	return DALIC_OK;
}
