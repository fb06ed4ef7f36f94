/* Unit tests: the accounting allocation layer, DALI's growth/shrink rule, batches. */
#include "tests/testlib.h"

#include "engine/batch.h"
#include "engine/memory.h"

#include <stdlib.h>
#include <string.h>

TestSuite(core_memory, .timeout = 10);

Test(core_memory, growth_uses_factor_and_counts)
{
	setenv("DALI_BUFFER_GROWTH_FACTOR", "2", 1);
	unsetenv("DALI_HOST_BUFFER_GROWTH_FACTOR");
	unsetenv("DALI_HOST_BUFFER_SHRINK_THRESHOLD");
	dalic_mem_config_reload();
	dalic_mem_counter_t c = {0};
	dalic_buffer_t b;
	dalic_buffer_init(&b, DALIC_MEM_HOST, &c);
	ASSERT_OK(dalic_buffer_resize(&b, 100));
	cr_expect_eq(b.capacity, 100);
	ASSERT_OK(dalic_buffer_resize(&b, 150));
	cr_expect_eq(b.capacity, 200, "max(150, 100*2)");
	ASSERT_OK(dalic_buffer_resize(&b, 120));
	cr_expect_eq(b.capacity, 200, "above the shrink threshold: kept");
	cr_expect_eq(c.allocations, 2);
	cr_expect_eq(c.bytes_live, 200);
	ASSERT_OK(dalic_buffer_resize(&b, 50));
	cr_expect_eq(b.capacity, 50, "below capacity*0.5: host buffers shrink to exact");
	ASSERT_OK(dalic_buffer_resize(&b, 0));
	cr_expect_eq(b.capacity, 50, "size 0 never frees");
	dalic_buffer_free(&b);
	cr_expect_eq(c.bytes_live, 0);
	cr_expect_eq(c.frees, 3);
	cr_expect_eq(c.bytes_peak, 300, "old and new buffer coexist while growing");
}

Test(core_memory, growth_factor_is_clamped_and_pinned_never_shrinks)
{
	setenv("DALI_BUFFER_GROWTH_FACTOR", "10", 1);
	dalic_mem_config_reload();
	cr_expect_float_eq(dalic_mem_config()->host_growth_factor, 4.0, 1e-9);
	setenv("DALI_BUFFER_GROWTH_FACTOR", "0.5", 1);
	dalic_mem_config_reload();
	cr_expect_float_eq(dalic_mem_config()->host_growth_factor, 1.0, 1e-9);
	unsetenv("DALI_BUFFER_GROWTH_FACTOR");
	dalic_mem_config_reload();
	cr_expect_float_eq(dalic_mem_config()->host_growth_factor, 1.1, 1e-9);
	cr_expect_float_eq(dalic_mem_config()->host_shrink_threshold, 0.5, 1e-9);

	dalic_buffer_t b;
	dalic_buffer_init(&b, DALIC_MEM_PINNED, NULL);
	ASSERT_OK(dalic_buffer_resize(&b, 1000));
	ASSERT_OK(dalic_buffer_resize(&b, 10));
	cr_expect_eq(b.capacity, 1000);
	dalic_buffer_free(&b);
}

Test(core_memory, batch_contiguous_and_per_sample)
{
	dalic_mem_counter_t c = {0};
	dalic_batch_t b;
	for (int contiguous = 0; contiguous < 2; contiguous++) {
		dalic_batch_init(&b, DALIC_MEM_HOST, contiguous, &c);
		ASSERT_OK(dalic_batch_set_meta(&b, 3, DALIC_FLOAT, 2));
		dalic_batch_set_layout(&b, "HW");
		for (int i = 0; i < 3; i++)
			dalic_batch_set_shape(&b, i, (const int64_t[]){i + 1, 4});
		ASSERT_OK(dalic_batch_alloc(&b));
		cr_expect_eq(dalic_batch_nbytes(&b), (1 + 2 + 3) * 4 * 4);
		cr_expect_eq(dalic_batch_max_sample_bytes(&b), 3 * 4 * 4);
		cr_expect_not(dalic_batch_uniform_shape(&b));
		for (int i = 0; i < 3; i++)
			memset(b.ptrs[i], i + 1, dalic_batch_sample_bytes(&b, i));
		cr_expect_eq(((unsigned char *)dalic_batch_data(&b, 2))[47], 3);
		cr_expect_str_eq(dalic_batch_layout(&b), "HW");
		int64_t allocs = c.allocations;
		ASSERT_OK(dalic_batch_alloc(&b));
		cr_expect_eq(c.allocations, allocs, "same shapes: no new allocation");
		dalic_batch_free(&b);
	}
	cr_expect_eq(c.bytes_live, 0);
}

Test(core_memory, batch_share_borrows_without_allocating)
{
	dalic_batch_t src, dst;
	dalic_batch_init(&src, DALIC_MEM_HOST, false, NULL);
	dalic_batch_init(&dst, DALIC_MEM_HOST, false, NULL);
	ASSERT_OK(dalic_batch_set_meta(&src, 2, DALIC_INT32, 1));
	dalic_batch_set_uniform_shape(&src, (const int64_t[]){5});
	ASSERT_OK(dalic_batch_alloc(&src));
	src.sources[1] = "dir/file.jpg";
	ASSERT_OK(dalic_batch_set_meta(&dst, 1, DALIC_INT32, 1));
	dalic_batch_share_sample(&dst, 0, &src, 1);
	ASSERT_OK(dalic_batch_alloc(&dst));
	cr_expect_eq(dalic_batch_data(&dst, 0), dalic_batch_data(&src, 1));
	cr_expect_eq(dalic_batch_capacity(&dst), 0);
	cr_expect_str_eq(dalic_batch_source(&dst, 0), "dir/file.jpg");
	dalic_batch_free(&dst);
	dalic_batch_free(&src);
}
