/*
 * `dalic run --debug`: the whole pipeline run eagerly by a debug session, with the summary of
 * `dalic run` (same lines and JSON keys, so scripts read both alike) plus what debug mode
 * costs: the same pipeline is then run by the full engine for as many iterations and both
 * times are printed with their ratio. --dump writes the same file names as the full engine's
 * dump, so the two can be compared file by file. Print records of debug=True scripts are
 * replayed to stdout as the iterations run.
 */
#include "cli/cmd_debug.h"

#include "cli/dump.h"
#include "engine/pipeline.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int dump_outputs(dalic_debug_t *s, const char *dir, long iteration)
{
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "dalic: %s: %s\n", dir, strerror(errno));
		return DALIC_EIO;
	}
	char path[4096];
	for (int o = 0; o < dalic_debug_num_outputs(s); o++) {
		const dalic_batch_t *b = dalic_debug_output(s, o);
		for (int i = 0; b && i < dalic_batch_num_samples(b); i++) {
			snprintf(path, sizeof path, "%s/i%06ld_o%d_s%03d.npy", dir, iteration, o,
			         i);
			int rc = dalic_dump_npy(path, b, i);
			snprintf(path, sizeof path, "%s/i%06ld_o%d_s%03d.png", dir, iteration, o,
			         i);
			if (!rc && (rc = dalic_dump_png(path, b, i)) == DALIC_EUNSUPPORTED)
				rc = DALIC_OK;
			if (rc)
				return dalic_cli_error(rc);
		}
	}
	return DALIC_OK;
}

/* The full engine on the same definition: seconds for `iterations`, or < 0 if it fails. */
static double time_full_engine(const dalic_graphdef_t *def, long iterations)
{
	dalic_graphdef_t *copy = dalic_graphdef_clone(def);
	dalic_pipeline_t *p;
	if (!copy || dalic_pipeline_from_graphdef(copy, &p))
		return -1;
	copy->debug = false;
	double t0 = 0, secs = -1;
	if (!dalic_pipeline_build(p)) {
		t0 = now_s();
		long k = 0;
		while (k < iterations && !dalic_pipeline_run(p))
			k++;
		secs = k == iterations ? now_s() - t0 : -1;
	}
	dalic_pipeline_destroy(p);
	return secs;
}

static void print_shape(const dalic_batch_t *b, int i)
{
	printf("[");
	for (int d = 0; d < dalic_batch_ndim(b); d++)
		printf("%s%lld", d ? ", " : "", (long long)dalic_batch_shape(b, i)[d]);
	printf("]");
}

typedef struct summary {
	const char *path;
	const dalic_pipeline_params_t *params;
	long iterations, samples;
	double secs, full_secs;
} summary_t;

static void print_text(dalic_debug_t *s, const summary_t *m)
{
	const dalic_pipeline_params_t *pp = m->params;
	printf("pipeline: %s\n", m->path);
	printf("executor: debug (eager, one operator at a time), batch_size %d, num_threads %d, "
	       "%s\n",
	       pp->batch_size, pp->num_threads,
	       pp->device_id == DALIC_CPU_ONLY_DEVICE_ID ? "cpu-only" : "device 0");
	printf("iterations: %ld\nseconds: %.6f\n", m->iterations, m->secs);
	printf("samples_per_second: %.1f\niterations_per_second: %.1f\n",
	       m->secs > 0 ? (double)m->samples / m->secs : 0,
	       m->secs > 0 ? (double)m->iterations / m->secs : 0);
	if (m->full_secs > 0)
		printf("full_engine_seconds: %.6f\ndebug_slowdown: %.3fx\n", m->full_secs,
		       m->secs / m->full_secs);
	else
		printf("full_engine_seconds: n/a (the full engine could not run it alone)\n");
	for (int o = 0; o < dalic_debug_num_outputs(s); o++) {
		const dalic_batch_t *b = dalic_debug_output(s, o);
		if (!b)
			continue;
		printf("output %d: %s dtype=%s layout=\"%s\" device=%s samples=%d\n", o,
		       dalic_debug_output_name(s, o), dalic_dtype_name(dalic_batch_dtype(b)),
		       dalic_batch_layout(b), dalic_batch_device(b), dalic_batch_num_samples(b));
		int n = dalic_batch_num_samples(b);
		bool uniform = true;
		for (int i = 1; i < n && uniform; i++)
			uniform = !memcmp(dalic_batch_shape(b, 0), dalic_batch_shape(b, i),
			                  sizeof(int64_t) * (size_t)dalic_batch_ndim(b));
		printf("  shapes: ");
		for (int i = 0; i < (uniform ? (n > 0) : n); i++) {
			print_shape(b, i);
			printf(i + 1 < n && !uniform ? " " : "");
		}
		if (uniform && n > 0)
			printf(" x %d", n);
		printf("\n");
	}
}

static void print_json(dalic_debug_t *s, const summary_t *m)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "pipeline", m->path);
	cJSON_AddStringToObject(root, "executor", "debug");
	cJSON_AddBoolToObject(root, "debug", 1);
	cJSON_AddNumberToObject(root, "batch_size", m->params->batch_size);
	cJSON_AddNumberToObject(root, "iterations", (double)m->iterations);
	cJSON_AddNumberToObject(root, "seconds", m->secs);
	cJSON_AddNumberToObject(root, "samples_per_second",
	                        m->secs > 0 ? (double)m->samples / m->secs : 0);
	cJSON_AddNumberToObject(root, "iterations_per_second",
	                        m->secs > 0 ? (double)m->iterations / m->secs : 0);
	if (m->full_secs > 0) {
		cJSON_AddNumberToObject(root, "full_engine_seconds", m->full_secs);
		cJSON_AddNumberToObject(root, "debug_slowdown", m->secs / m->full_secs);
	}
	cJSON *outs = cJSON_AddArrayToObject(root, "outputs");
	for (int o = 0; o < dalic_debug_num_outputs(s) && m->iterations > 0; o++) {
		const dalic_batch_t *b = dalic_debug_output(s, o);
		if (!b)
			continue;
		cJSON *jo = cJSON_CreateObject();
		cJSON_AddStringToObject(jo, "name", dalic_debug_output_name(s, o));
		cJSON_AddStringToObject(jo, "dtype", dalic_dtype_name(dalic_batch_dtype(b)));
		cJSON_AddStringToObject(jo, "layout", dalic_batch_layout(b));
		cJSON_AddStringToObject(jo, "device", dalic_batch_device(b));
		cJSON *shapes = cJSON_AddArrayToObject(jo, "shapes");
		for (int i = 0; i < dalic_batch_num_samples(b); i++) {
			cJSON *sh = cJSON_CreateArray();
			for (int d = 0; d < dalic_batch_ndim(b); d++)
				cJSON_AddItemToArray(
				    sh, cJSON_CreateNumber((double)dalic_batch_shape(b, i)[d]));
			cJSON_AddItemToArray(shapes, sh);
		}
		cJSON_AddItemToArray(outs, jo);
	}
	char *text = cJSON_Print(root);
	if (text)
		puts(text);
	free(text);
	cJSON_Delete(root);
}

int dalic_cli_debug_run(const dalic_cli_pipeline_opts_t *o, long iterations, bool json,
                        const char *dump)
{
	dalic_graphdef_t *def;
	dalic_debug_t *s = NULL;
	int rc = dalic_cli_load(o, &def);
	if (!rc && (rc = dalic_debug_open_def(def, &s)))
		dalic_graphdef_free(def);
	if (rc) {
		dalic_cli_error(rc);
		return 1;
	}
	summary_t m = {.path = o->path, .params = &def->params};
	for (; m.iterations < iterations; m.iterations++) {
		double t0 = now_s();
		rc = dalic_debug_next(s);
		m.secs += now_s() - t0;
		if (rc)
			break;
		if (dalic_debug_num_outputs(s))
			m.samples += dalic_batch_num_samples(dalic_debug_output(s, 0));
		if (dump && (rc = dump_outputs(s, dump, m.iterations)))
			break;
	}
	if (rc && rc != DALIC_EEND) {
		if (rc == DALIC_EOP)
			dalic_cli_debug_show_stop(s, rc);
		else
			dalic_cli_error(rc);
		dalic_debug_close(s);
		dalic_graphdef_free(def);
		return 1;
	}
	m.full_secs = m.iterations > 0 ? time_full_engine(def, m.iterations) : -1;
	if (json)
		print_json(s, &m);
	else
		print_text(s, &m);
	dalic_debug_close(s);
	dalic_graphdef_free(def);
	return 0;
}
