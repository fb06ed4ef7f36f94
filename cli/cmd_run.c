/*
 * `dalic run PIPELINE`: runs iterations with the full engine and prints throughput and the
 * outputs' names, dtypes, layouts and the sample shapes of the last batch; --json prints the
 * same as one JSON object (keys are a stable interface: iterations, samples_per_second,
 * outputs[].name/dtype/layout/shapes); --dump DIR writes every output sample.
 */
#include "cli/cli.h"
#include "cli/cmd_debug.h"
#include "cli/dump.h"
#include "engine/dtype.h"
#include "engine/pipeline.h"
#include "frontend/script_output.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *executor_mode(const dalic_pipeline_params_t *p)
{
	if (!p->exec_pipelined)
		return "simple";
	if (!p->exec_async)
		return "pipelined";
	return p->separated_queues ? "async separated pipelined" : "async pipelined";
}

static cJSON *shapes_json(const dalic_batch_t *b)
{
	cJSON *shapes = cJSON_CreateArray();
	for (int i = 0; i < dalic_batch_num_samples(b); i++) {
		cJSON *s = cJSON_CreateArray();
		for (int d = 0; d < dalic_batch_ndim(b); d++)
			cJSON_AddItemToArray(s, cJSON_CreateNumber((double)dalic_batch_shape(b, i)[d]));
		cJSON_AddItemToArray(shapes, s);
	}
	return shapes;
}

static void print_shape(const dalic_batch_t *b, int i)
{
	printf("[");
	for (int d = 0; d < dalic_batch_ndim(b); d++)
		printf("%s%lld", d ? ", " : "", (long long)dalic_batch_shape(b, i)[d]);
	printf("]");
}

static void print_text(dalic_pipeline_t *p, const char *path, long iters, double secs,
		       long samples)
{
	const dalic_pipeline_params_t *pp = dalic_pipeline_params(p);
	printf("pipeline: %s\n", path);
	printf("executor: %s, prefetch_queue_depth %d", executor_mode(pp), pp->prefetch_cpu);
	if (pp->separated_queues)
		printf("/%d", pp->prefetch_gpu);
	printf(", batch_size %d, num_threads %d, %s\n", pp->batch_size, pp->num_threads,
	       pp->device_id == DALIC_CPU_ONLY_DEVICE_ID ? "cpu-only" : "device 0");
	printf("iterations: %ld\nseconds: %.6f\n", iters, secs);
	printf("samples_per_second: %.1f\niterations_per_second: %.1f\n",
	       secs > 0 ? (double)samples / secs : 0, secs > 0 ? (double)iters / secs : 0);
	for (int o = 0; o < dalic_pipeline_num_outputs(p); o++) {
		const dalic_batch_t *b = dalic_pipeline_output(p, o);
		printf("output %d: %s dtype=%s layout=\"%s\" device=%s samples=%d\n", o,
		       dalic_pipeline_output_name(p, o), dalic_dtype_name(dalic_batch_dtype(b)),
		       dalic_batch_layout(b), dalic_batch_device(b), dalic_batch_num_samples(b));
		int n = dalic_batch_num_samples(b);
		bool uniform = true;
		for (int i = 1; i < n && uniform; i++)
			uniform = !memcmp(dalic_batch_shape(b, 0), dalic_batch_shape(b, i),
					  sizeof(int64_t) * (size_t)dalic_batch_ndim(b));
		printf("  shapes: ");
		if (uniform && n > 0) {
			print_shape(b, 0);
			printf(" x %d\n", n);
		} else {
			for (int i = 0; i < n; i++) {
				print_shape(b, i);
				printf(i + 1 < n ? " " : "\n");
			}
		}
	}
}

static void print_json(dalic_pipeline_t *p, const char *path, long iters, double secs,
		       long samples)
{
	const dalic_pipeline_params_t *pp = dalic_pipeline_params(p);
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "pipeline", path);
	cJSON_AddStringToObject(root, "executor", executor_mode(pp));
	cJSON_AddNumberToObject(root, "batch_size", pp->batch_size);
	cJSON_AddNumberToObject(root, "iterations", (double)iters);
	cJSON_AddNumberToObject(root, "seconds", secs);
	cJSON_AddNumberToObject(root, "samples_per_second", secs > 0 ? (double)samples / secs : 0);
	cJSON_AddNumberToObject(root, "iterations_per_second", secs > 0 ? (double)iters / secs : 0);
	cJSON *outs = cJSON_AddArrayToObject(root, "outputs");
	for (int o = 0; o < dalic_pipeline_num_outputs(p) && iters > 0; o++) {
		const dalic_batch_t *b = dalic_pipeline_output(p, o);
		cJSON *jo = cJSON_CreateObject();
		cJSON_AddStringToObject(jo, "name", dalic_pipeline_output_name(p, o));
		cJSON_AddStringToObject(jo, "dtype", dalic_dtype_name(dalic_batch_dtype(b)));
		cJSON_AddStringToObject(jo, "layout", dalic_batch_layout(b));
		cJSON_AddStringToObject(jo, "device", dalic_batch_device(b));
		cJSON_AddItemToObject(jo, "shapes", shapes_json(b));
		cJSON_AddItemToArray(outs, jo);
	}
	char *text = cJSON_Print(root);
	if (text)
		puts(text);
	free(text);
	cJSON_Delete(root);
}

static int run_main(int argc, char **argv)
{
	dalic_cli_pipeline_opts_t o;
	if (dalic_cli_parse_pipeline_opts(&argc, argv, &o))
		return 2;
	long iters = 10;
	bool json = false;
	const char *dump = NULL;
	for (int i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "-n") || !strcmp(argv[i], "--iterations")) && i + 1 < argc) {
			char *end;
			iters = strtol(argv[++i], &end, 10);
			if (*end || iters < 0) {
				fprintf(stderr, "dalic run: invalid iteration count '%s'\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--dump") && i + 1 < argc) {
			dump = argv[++i];
		} else {
			fprintf(stderr, "dalic run: unknown option '%s' (see dalic run --help)\n",
				argv[i]);
			return 2;
		}
	}
	if (json) /* script print() must not land inside the JSON on stdout */
		dalic_script_set_print_stream(stderr);
	/* eager, one operator at a time: debug mode's runner (cli/cmd_debug_run.c) */
	if (o.debug)
		return dalic_cli_debug_run(&o, iters, json, dump);
	dalic_pipeline_t *p;
	int rc = dalic_cli_open(&o, &p);
	if (!rc && dalic_pipeline_graphdef(p)->debug) { /* @pipeline_def(debug=True) */
		dalic_pipeline_destroy(p);
		return dalic_cli_debug_run(&o, iters, json, dump);
	}
	if (!rc)
		rc = dalic_pipeline_build(p);
	if (rc) {
		dalic_cli_error(rc);
		dalic_pipeline_destroy(p);
		return 1;
	}
	long done = 0, samples = 0;
	double t0 = now_s();
	for (; done < iters; done++) {
		rc = dalic_pipeline_run(p);
		if (rc)
			break;
		samples += dalic_pipeline_num_outputs(p)
				   ? dalic_batch_num_samples(dalic_pipeline_output(p, 0))
				   : 0;
		if (dump && (rc = dalic_dump_outputs(dump, p, done)))
			break;
	}
	double secs = now_s() - t0;
	if (rc && rc != DALIC_EEND) {
		dalic_cli_error(rc);
		dalic_pipeline_destroy(p);
		return 1;
	}
	if (json)
		print_json(p, o.path, done, secs, samples);
	else
		print_text(p, o.path, done, secs, samples);
	dalic_pipeline_destroy(p);
	return 0;
}

DALIC_COMMAND(run) = {
	.name = "run",
	.summary = "run iterations, print throughput and output shapes",
	.usage = "usage: dalic run PIPELINE [-n N] [--json] [--dump DIR] [pipeline flags]\n"
		 "  -n N             iterations to run (default 10)\n"
		 "  --json           one JSON object: iterations, samples_per_second, outputs\n"
		 "  --dump DIR       write every output sample (.npy, and .png for images)\n"
		 "pipeline flags: --batch-size N --num-threads N --device-id none|N --seed N\n"
		 "  --prefetch-queue-depth N|cpu=N,gpu=M --exec-pipelined=BOOL\n"
		 "  --exec-async=BOOL --bytes-per-sample N --set-affinity --memory-stats\n"
		 "  --pipeline NAME --max-memory SIZE (memory budget, e.g. 8G)\n",
	.main = run_main,
};
