/*
 * Issue 27's target: seeking N iterations ÷ running N iterations on the ResNet-50-style CPU
 * pipeline (bench/resnet_seek.py), goal <= 0.02. Both pipelines are loaded and built before
 * the clock starts; the seek is dalic_pipeline_seek(N), the reference N dalic_pipeline_run
 * calls. Then both run iteration N and its outputs are compared byte for byte (a fast seek
 * to the wrong place would be worthless).
 * Usage: checkpoint_seek SCRIPT FILE_LIST [N]
 */
#include "dalic.h"
#include "bench/bench.h"

#include <string.h>

static dalic_pipeline_t *seek_open(const char *script, const char *list)
{
	char arg[1200];
	snprintf(arg, sizeof arg, "file_list='%s'", list);
	const char *args[] = {arg};
	dalic_pipeline_override_t o;
	dalic_pipeline_override_init(&o);
	o.fields = DALIC_PARAM_SCRIPT_ARGS;
	o.params.script_args = args;
	o.params.num_script_args = 1;
	dalic_pipeline_t *p;
	BENCH_CHECK(dalic_pipeline_load(script, "resnet_seek", &o, &p));
	BENCH_CHECK(dalic_pipeline_build(p));
	return p;
}

static bool seek_same(const dalic_batch_t *a, const dalic_batch_t *b)
{
	if (dalic_batch_num_samples(a) != dalic_batch_num_samples(b))
		return false;
	for (int i = 0; i < dalic_batch_num_samples(a); i++) {
		size_t na = dalic_batch_sample_bytes(a, i), nb = dalic_batch_sample_bytes(b, i);
		if (na != nb || memcmp(dalic_batch_data(a, i), dalic_batch_data(b, i), na))
			return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s SCRIPT FILE_LIST [N]\n", argv[0]);
		return 2;
	}
	long n = argc > 3 ? atol(argv[3]) : 1000;
	dalic_pipeline_t *seek = seek_open(argv[1], argv[2]);
	dalic_pipeline_t *run = seek_open(argv[1], argv[2]);
	char *why = NULL;
	double t0 = bench_now_s();
	BENCH_CHECK(dalic_pipeline_seek(seek, n, &why));
	double t_seek = bench_now_s() - t0;
	if (why)
		printf("seek ran the iterations because of %s\n", why);
	free(why);
	t0 = bench_now_s();
	for (long i = 0; i < n; i++)
		BENCH_CHECK(dalic_pipeline_run(run));
	double t_run = bench_now_s() - t0;
	BENCH_CHECK(dalic_pipeline_run(seek));
	BENCH_CHECK(dalic_pipeline_run(run));
	bool same = true;
	for (int o = 0; o < dalic_pipeline_num_outputs(run); o++)
		same = same && seek_same(dalic_pipeline_output(seek, o), dalic_pipeline_output(run, o));
	printf("N = %ld iterations (batch 64): seek %.4f s, run %.2f s, seek / run = %.2g "
	       "(goal <= 0.02); iteration %ld after the seek %s the one after running\n",
	       n, t_seek, t_run, t_seek / t_run, n, same ? "equals" : "DIFFERS FROM");
	dalic_pipeline_destroy(seek);
	dalic_pipeline_destroy(run);
	return same ? 0 : 1;
}
