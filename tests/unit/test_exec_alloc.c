/*
 * Steady state allocates nothing: after warm-up, a fixed-shape pipeline runs iterations with
 * no data allocation (the accounting layer's totals, every memory kind) and — in builds
 * without a sanitizer — no malloc at all (a counting malloc for this test binary, forwarding
 * to glibc's; glibc documents replacing malloc this way). Checked in every executor mode,
 * on a cpu-only pipeline and one with mixed and gpu stages.
 */

#include "tests/testlib/exec.h"

#include <stdlib.h>

TestSuite(exec_alloc, .timeout = 60);

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define COUNT_MALLOC 0 /* the sanitizers own malloc */
#else
#define COUNT_MALLOC 1
#endif

static atomic_long mallocs;
static atomic_bool counting;

#if COUNT_MALLOC
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static void exec_alloc_count_one(void)
{
	if (atomic_load_explicit(&counting, memory_order_relaxed))
		atomic_fetch_add_explicit(&mallocs, 1, memory_order_relaxed);
}

void *malloc(size_t n)
{
	exec_alloc_count_one();
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	exec_alloc_count_one();
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	exec_alloc_count_one();
	return __libc_realloc(p, n);
}

void *aligned_alloc(size_t align, size_t n)
{
	exec_alloc_count_one();
	return __libc_memalign(align, n);
}

void *memalign(size_t align, size_t n)
{
	exec_alloc_count_one();
	return __libc_memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	exec_alloc_count_one();
	*out = __libc_memalign(align, n);
	return *out ? 0 : 12; /* ENOMEM */
}

void free(void *p)
{
	__libc_free(p);
}
#endif

static int64_t exec_alloc_data_allocations(void)
{
	int64_t n = 0;
	for (int k = 0; k < 3; k++) {
		dalic_mem_totals_t t;
		dalic_mem_totals(k, &t);
		n += t.allocations;
	}
	return n;
}

static dalic_pipeline_t *exec_alloc_pipe(const tl_mode_t *m, const char *device,
                                         tl_seq_source_t *src)
{
	dalic_pipeline_params_t params = tl_mode_params(m, 8, 2);
	dalic_pipeline_t *p = tl_sleep_pipeline(&params, device, src, NULL);
	return p;
}

Test(exec_alloc, steady_state_allocates_nothing)
{
	const char *devices[] = {"cpu", "gpu"};
	TL_FOR_EACH_MODE(m)
	for (int d = 0; d < 2; d++) {
		tl_seq_source_t src;
		tl_seq_source_init(&src, 8);
		dalic_pipeline_t *p = exec_alloc_pipe(m, devices[d], &src);
		for (int k = 0; k < 20; k++) /* warm-up: buffers reach their sizes */
			ASSERT_OK(dalic_pipeline_run(p));
		int64_t data0 = exec_alloc_data_allocations();
		atomic_store(&mallocs, 0);
		atomic_store(&counting, true);
		int rc = 0;
		for (int k = 0; k < 200 && !rc; k++)
			rc = dalic_pipeline_run(p);
		atomic_store(&counting, false);
		int64_t data1 = exec_alloc_data_allocations();
		ASSERT_OK(rc);
		tl_expect_seq_values(p, 219, 8, m->name);
		cr_expect_eq(data1 - data0, 0, "%s/%s: %lld data allocations in 200 iterations",
			     m->name, devices[d], (long long)(data1 - data0));
		cr_expect_eq(atomic_load(&mallocs), 0, "%s/%s: %ld mallocs in 200 iterations",
			     m->name, devices[d], atomic_load(&mallocs));
		dalic_pipeline_destroy(p);
	}
}

/* The counting hook sees allocations at all (so the zero above means something). */
Test(exec_alloc, the_counter_counts)
{
	atomic_store(&mallocs, 0);
	atomic_store(&counting, true);
	void *volatile p = malloc(100);
	int64_t before = exec_alloc_data_allocations();
	tl_seq_source_t src;
	tl_seq_source_init(&src, 8);
	dalic_pipeline_t *pipe = exec_alloc_pipe(&tl_modes[2], "cpu", &src);
	ASSERT_OK(dalic_pipeline_run(pipe));
	atomic_store(&counting, false);
	free(p);
	cr_expect_gt(exec_alloc_data_allocations(), before,
	             "the first iteration allocates its buffers");
	if (COUNT_MALLOC)
		cr_expect_gt(atomic_load(&mallocs), 1);
	dalic_pipeline_destroy(pipe);
}
