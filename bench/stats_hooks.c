/*
 * The cost of stats collection measured from its parts, which a busy machine cannot blur the
 * way it blurs an end-to-end A/B: runs the image pipeline with everything on (memory stats,
 * collector, tracing) to count the hook calls per iteration and the iteration time, then
 * times each hook alone — with the pipeline's own nodes and its crop_mirror_normalize batch —
 * and prints the hooks' time per iteration as a share of the iteration.
 *
 *   stats_hooks [iterations [batch [threads]]]
 */
#include "dalic.h"
#include "bench/bench.h"
#include "dalic_stats.h"
#include "bench/stats_pipeline.h"
#include "engine/executor.h"
#include "engine/pipeline.h"
#include "stats/collector.h"

#include <string.h>
#include <time.h>

enum { CALLS = 200000 };

typedef struct hook_args {
	const dalic_observer_t *obs;
	const dalic_node_t *node;
	const dalic_batch_t *batch;
} hook_args_t;

/* ns per call of hook `k`, the best of three runs of CALLS calls. */
static double time_hook(const hook_args_t *a, int k)
{
	double best = 1e30;
	for (int rep = 0; rep < 3; rep++) {
		int64_t t0 = dalic_clock_ns();
		for (int i = 0; i < CALLS; i++) {
			int64_t t = t0 + i;
			switch (k) {
			case 0:
				a->obs->node_run(a->obs->user, a->node, i, 16, t, t + 1000, 900);
				break;
			case 1:
				a->obs->work_chunk(a->obs->user, a->node, i, i & 1, 0, 1, t,
				                   t + 1000, 900);
				break;
			case 2:
				a->obs->output_memory(a->obs->user, a->node, 0, a->batch, i);
				break;
			case 3:
				a->obs->stage_run(a->obs->user, 0, i, t, t + 1000);
				break;
			case 4:
				a->obs->queue_level(a->obs->user, 0, i & 1, 2, t);
				break;
			case 5:
				a->obs->wait(a->obs->user, 0, t, t + 100);
				break;
			case 6:
				a->obs->iteration_ready(a->obs->user, i, t, t + 1000);
				break;
			}
		}
		double ns = (double)(dalic_clock_ns() - t0) / CALLS;
		if (ns < best)
			best = ns;
	}
	return best;
}

int main(int argc, char **argv)
{
	int iterations = argc > 1 ? atoi(argv[1]) : 30;
	int batch = argc > 2 ? atoi(argv[2]) : 16;
	int threads = argc > 3 ? atoi(argv[3]) : 2;
	/* synchronous: nothing is in flight between run() calls, so the buffers can be read */
	dalic_pipeline_t *p = bench_image_pipeline(batch, threads, true, false, true);
	dalic_stats_options_t o;
	dalic_stats_options_init(&o);
	o.trace = true;
	dalic_stats_t *s;
	BENCH_CHECK(dalic_stats_create(p, &o, &s));
	for (int i = 0; i < 5; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	dalic_stats_reset(s);
	for (int i = 0; i < iterations; i++)
		BENCH_CHECK(dalic_pipeline_run(p));
	dalic_stats_snapshot_t *snap;
	BENCH_CHECK(dalic_stats_snapshot(s, &snap));
	double its = (double)snap->iterations;
	double traced = (double)snap->trace_events / its; /* every hook but output_memory */
	int outputs = 0, cmn = -1;
	for (int i = 0; i < snap->num_operators; i++) {
		outputs += snap->operators[i].num_outputs;
		if (!strcmp(snap->operators[i].op, "CropMirrorNormalize"))
			cmn = i;
	}
	double iteration_ns = snap->iteration_interval.mean_ns;
	/* the hooks alone, on a collector of their own over a second built copy of the graph */
	dalic_pipeline_t *p2 = bench_image_pipeline(batch, threads, true, false, true);
	BENCH_CHECK(dalic_pipeline_build(p2));
	dalic_stats_t *bench;
	BENCH_CHECK(dalic_stats_create(p2, &o, &bench));
	dalic_observer_t obs;
	dalic_stats_observer(bench, &obs);
	const dalic_graph_t *g = dalic_pipeline_graph(p2);
	dalic_exec_node_t *x = dalic_exec_node(dalic_pipeline_exec(p), cmn);
	hook_args_t a = {.obs = &obs, .node = g->nodes[cmn], .batch = &x->bufs[0][0]};
	static const char *const names[] = {"node_run",       "work_chunk",  "output_memory",
	                                    "stage_run",      "queue_level", "wait",
	                                    "iteration_ready"};
	double ns[7], traced_max = 0;
	for (int k = 0; k < 7; k++) {
		ns[k] = time_hook(&a, k);
		if (k != 2 && ns[k] > traced_max)
			traced_max = ns[k];
	}
	double per_iteration = traced * traced_max + outputs * ns[2];
	printf("# stats_hooks\nbatch_size: %d\nnum_threads: %d\niterations: %.0f\n", batch, threads,
	       its);
	for (int k = 0; k < 7; k++)
		printf("%s_ns: %.1f\n", names[k], ns[k]);
	printf("traced_events_per_iteration: %.1f\noutput_memory_calls_per_iteration: %d\n", traced,
	       outputs);
	printf("hook_ns_per_iteration: %.0f\niteration_ns: %.0f\n", per_iteration, iteration_ns);
	printf("hook_share_of_iteration: %.4f%%\n", 100 * per_iteration / iteration_ns);
	printf("hook_cpu_share_of_work: %.4f%%\n",
	       100 * per_iteration / (iteration_ns * (threads > 0 ? threads : 1)));
	dalic_stats_snapshot_free(snap);
	dalic_stats_destroy(bench);
	dalic_pipeline_destroy(p2);
	dalic_stats_destroy(s);
	dalic_pipeline_destroy(p);
	return 0;
}
