/*
 * Same seed, same samples: dalic's random operators against values recorded from real DALI
 * 2.4 (tests/data/rng/, made by make_golden.py; see its README). Each pipeline script there is
 * loaded as a user would load it and run in the four executor modes; every sample of every
 * output must equal DALI's bit for bit. crop_windows.golden pins DALI's RandomCropGenerator
 * (the windows of decoders.image_random_crop and random_resized_crop).
 */
#include "tests/testlib.h"

#include "engine/dtype.h"
#include "engine/pipeline.h"
#include "frontend/proto/proto.h"
#include "frontend/script.h"
#include "kernels/common/img_crop_window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(rng_golden, .timeout = 120);

#define RNG_GOLDEN_DIR "tests/data/rng/"
#define RNG_GOLDEN_MAX_VALUES 64

/* The golden line of one sample (make_golden.py's golden_line). */
static void rng_golden_line(const dalic_batch_t *b, int it, int o, int s, char *out, size_t n)
{
	dalic_dtype_t t = dalic_batch_dtype(b);
	int ndim = dalic_batch_ndim(b);
	const int64_t *shape = dalic_batch_shape(b, s);
	int64_t count = 1;
	size_t k = (size_t)snprintf(out, n, "i%d o%d s%d %s [", it, o, s, dalic_dtype_short(t));
	for (int d = 0; d < ndim; d++) {
		k += (size_t)snprintf(out + k, n - k, "%s%lld", d ? "," : "", (long long)shape[d]);
		count *= shape[d];
	}
	k += (size_t)snprintf(out + k, n - k, "]");
	if (count > RNG_GOLDEN_MAX_VALUES) {
		snprintf(out + k, n - k, " -");
		return;
	}
	const void *data = dalic_batch_data(b, s);
	for (int64_t e = 0; e < count && k < n; e++) {
		if (t == DALIC_FLOAT)
			k += (size_t)snprintf(out + k, n - k, " 0x%08x",
			                      ((const uint32_t *)data)[e]);
		else if (t == DALIC_FLOAT64)
			k += (size_t)snprintf(out + k, n - k, " 0x%016llx",
			                      (unsigned long long)((const uint64_t *)data)[e]);
		else if (t == DALIC_UINT64)
			k += (size_t)snprintf(out + k, n - k, " %llu",
			                      (unsigned long long)((const uint64_t *)data)[e]);
		else
			k += (size_t)snprintf(out + k, n - k, " %lld",
			                      (long long)dalic_dtype_load_i64(t, data, e));
	}
}

/* The golden file's lines, comments dropped; NULL-terminated, free with rng_golden_free. */
static char **rng_golden_read(const char *name, int *count)
{
	char path[256];
	snprintf(path, sizeof path, RNG_GOLDEN_DIR "%s.golden", name);
	size_t size;
	char *text = tl_read_file(path, &size);
	int cap = 16, n = 0;
	char **lines = malloc(sizeof *lines * (size_t)cap);
	cr_assert_not_null(lines);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] == '#')
			continue;
		if (n + 2 > cap) {
			cap *= 2;
			lines = realloc(lines, sizeof *lines * (size_t)cap);
			cr_assert_not_null(lines);
		}
		lines[n++] = strdup(line);
	}
	lines[n] = NULL;
	free(text);
	*count = n;
	cr_assert_gt(n, 0, "%s has no values", path);
	return lines;
}

static void rng_golden_free(char **lines)
{
	for (char **l = lines; *l; l++)
		free(*l);
	free(lines);
}

/* variable_batch.py's source: batches of 3, 1 and 4 float32 [2] zeros. */
static int rng_golden_source(void *user, int64_t iteration, dalic_feed_t *feed)
{
	static const int sizes[3] = {3, 1, 4};
	int n = sizes[iteration % 3];
	const float zeros[8] = {0};
	int64_t shapes[4] = {2, 2, 2, 2};
	return dalic_feed_batch(feed, DALIC_FLOAT, 1, n, shapes, zeros, NULL);
}

/* Runs tests/data/rng/NAME.py in mode m and compares with NAME.golden. */
static void rng_golden_run(const char *name, const tl_mode_t *m)
{
	int count;
	char **want = rng_golden_read(name, &count);
	char path[256];
	snprintf(path, sizeof path, RNG_GOLDEN_DIR "%s.py", name);
	dalic_graphdef_t *def = NULL;
	if (!strcmp(name, "multiple_input_sets")) { /* DALI's .pb: scripts take no input sets */
		snprintf(path, sizeof path, RNG_GOLDEN_DIR "%s.pb", name);
		ASSERT_OK(dalic_proto_load_file(path, &def), "%s", path);
	} else {
		ASSERT_OK(dalic_script_load(path, NULL, &def), "%s", path);
	}
	def->params.exec_pipelined = m->pipelined;
	def->params.exec_async = m->async;
	def->params.separated_queues = m->separated;
	def->params.prefetch_cpu = m->cpu;
	def->params.prefetch_gpu = m->gpu;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_from_graphdef(def, &p));
	ASSERT_OK(dalic_pipeline_build(p));
	if (!strcmp(name, "variable_batch"))
		ASSERT_OK(dalic_pipeline_set_source(p, "data", rng_golden_source, NULL));
	int line = 0;
	char got[2048];
	for (int it = 0; line < count; it++) {
		ASSERT_OK(dalic_pipeline_run(p), "%s (%s), iteration %d", name, m->name, it);
		for (int o = 0; o < dalic_pipeline_num_outputs(p); o++) {
			const dalic_batch_t *b = dalic_pipeline_output(p, o);
			for (int s = 0; s < dalic_batch_num_samples(b); s++) {
				rng_golden_line(b, it, o, s, got, sizeof got);
				cr_assert_lt(line, count, "%s: more samples than DALI's: %s", name,
				             got);
				cr_assert_str_eq(got, want[line],
				                 "%s (%s mode):\n  dalic %s\n  DALI  %s", name,
				                 m->name, got, want[line]);
				line++;
			}
		}
	}
	dalic_pipeline_destroy(p);
	rng_golden_free(want);
}

static void rng_golden_all_modes(const char *name)
{
	TL_FOR_EACH_MODE(m)
	rng_golden_run(name, m);
}

Test(rng_golden, uniform)
{
	rng_golden_all_modes("uniform");
}

Test(rng_golden, normal)
{
	rng_golden_all_modes("normal");
}

Test(rng_golden, coin_flip)
{
	rng_golden_all_modes("coin_flip");
}

Test(rng_golden, shapes_from_tensors)
{
	rng_golden_all_modes("shapes");
}

Test(rng_golden, seeds_in_dali_operator_order)
{
	rng_golden_all_modes("seeds");
}

Test(rng_golden, variable_batch_sizes)
{
	rng_golden_all_modes("variable_batch");
}

Test(rng_golden, multiple_input_sets_share_a_seed)
{
	rng_golden_all_modes("multiple_input_sets");
}

Test(rng_golden, image_random_crop_windows)
{
	rng_golden_all_modes("image_random_crop");
}

Test(rng_golden, random_crop_generator_windows)
{
	int count;
	char **lines = rng_golden_read("crop_windows", &count);
	for (int i = 0; i < count; i++) {
		unsigned long long key, ctr_hi;
		img_crop_params_t p;
		int H, W;
		long long want[4];
		int n = sscanf(lines[i],
		               "crop key=%llu ctr_hi=%llu area=%f %f ratio=%f %f attempts=%d "
		               "image=%dx%d -> %lld %lld %lld %lld",
		               &key, &ctr_hi, &p.area_min, &p.area_max, &p.ratio_min, &p.ratio_max,
		               &p.num_attempts, &H, &W, &want[0], &want[1], &want[2], &want[3]);
		cr_assert_eq(n, 13, "unreadable line: %s", lines[i]);
		dalic_philox_t g;
		dalic_philox_init(&g, key, ctr_hi, 0, 0);
		int64_t win[4];
		dalic_img_crop_window_draw(&g, H, W, &p, win);
		char got[128];
		snprintf(got, sizeof got, "%lld %lld %lld %lld", (long long)win[0],
		         (long long)win[1], (long long)win[2], (long long)win[3]);
		cr_expect_str_eq(strstr(lines[i], "-> ") + 3, got, "%s", lines[i]);
	}
	rng_golden_free(lines);
}
