/*
 * The memory budget (issue 24): every data allocation counts against one process-wide limit
 * (75% of physical memory by default, DALIC_MAX_MEMORY, --max-memory, dalic_mem_set_budget),
 * and a request over it is refused before any memory is touched, with a message naming the
 * operator, the sample, the file and the size. Decoders refuse from the header alone.
 */
#include "tests/testlib/hostile.h"

#include "engine/memory.h"
#include "tests/testlib.h"

#include <criterion/redirect.h>

TestSuite(hostile_memory, .timeout = 30);

Test(hostile_memory, sizes_parse_with_binary_suffixes)
{
	static const struct {
		const char *text;
		uint64_t bytes;
	} ok[] = {
	    {"0", 0},
	    {"512", 512},
	    {"1K", 1024},
	    {"1k", 1024},
	    {"3M", 3145728},
	    {"1.5G", 1610612736},
	    {"2GiB", 2147483648},
	    {"8gb", 8589934592},
	    {"1T", 1099511627776},
	    {"9223372036854775808", 9223372036854775808u},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		uint64_t v = 1;
		cr_expect_eq(dalic_mem_parse_size(ok[i].text, &v), 0, "'%s'", ok[i].text);
		cr_expect_eq(v, ok[i].bytes, "'%s' -> %llu", ok[i].text, (unsigned long long)v);
	}
	static const char *const bad[] = {"", "G", "-1", "1Q", "1GG", "0x10", " 1", "1 G",
					  "99999999999999999999", "8388609T", "inf", "nan"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint64_t v;
		cr_expect_eq(dalic_mem_parse_size(bad[i], &v), -1, "'%s' accepted", bad[i]);
	}
}

Test(hostile_memory, sizes_format_for_messages)
{
	char b[32];
	dalic_mem_format_size(1023, b, sizeof b);
	cr_expect_str_eq(b, "1023 B");
	dalic_mem_format_size(384000000, b, sizeof b);
	cr_expect_str_eq(b, "366.2 MiB");
	dalic_mem_format_size(12870750000, b, sizeof b);
	cr_expect_str_eq(b, "12.0 GiB");
}

/* The default: 75% of physical memory, or of the cgroup's limit when that is lower. */
static uint64_t hostile_cgroup_limit(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long v = 0;
	if (f && fscanf(f, "%llu", &v) != 1)
		v = 0;
	if (f)
		fclose(f);
	return v;
}

Test(hostile_memory, default_budget_is_three_quarters_of_memory)
{
	unsetenv("DALIC_MAX_MEMORY");
	dalic_mem_config_reload();
	dalic_mem_set_budget(0);
	uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGE_SIZE);
	uint64_t a = hostile_cgroup_limit("/sys/fs/cgroup/memory.max");
	uint64_t b = hostile_cgroup_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes");
	if (a && a < phys)
		phys = a;
	if (b && b < phys)
		phys = b;
	cr_expect_eq(dalic_mem_budget(), phys / 4 * 3);
}

Test(hostile_memory, environment_and_setter_replace_the_default)
{
	setenv("DALIC_MAX_MEMORY", "512M", 1);
	dalic_mem_config_reload();
	dalic_mem_set_budget(0);
	cr_expect_eq(dalic_mem_budget(), 536870912);
	dalic_mem_set_budget(1000);
	cr_expect_eq(dalic_mem_budget(), 1000, "the setter (--max-memory) wins over the variable");
	dalic_mem_set_budget(0);
	cr_expect_eq(dalic_mem_budget(), 536870912, "0 restores the variable's budget");
	unsetenv("DALIC_MAX_MEMORY");
	dalic_mem_config_reload();
}

Test(hostile_memory, malformed_environment_is_reported_and_ignored, .init = cr_redirect_stderr)
{
	setenv("DALIC_MAX_MEMORY", "12X", 1);
	dalic_mem_config_reload();
	dalic_mem_set_budget(0);
	cr_expect_gt(dalic_mem_budget(), 1 << 20, "the default stays");
	fflush(stderr);
	cr_expect_stderr_eq_str("dalic: ignoring DALIC_MAX_MEMORY='12X': expected a byte count "
				"with an optional K, M, G or T suffix\n");
	unsetenv("DALIC_MAX_MEMORY");
}

Test(hostile_memory, buffer_over_budget_is_refused_before_allocating)
{
	dalic_mem_set_budget(1 << 20);
	uint64_t before = dalic_mem_charged();
	dalic_mem_counter_t c = {0};
	dalic_buffer_t b;
	dalic_buffer_init(&b, DALIC_MEM_HOST, &c);
	cr_expect_eq(dalic_buffer_resize(&b, 2 << 20), DALIC_ENOMEM);
	hs_expect_mentions(dalic_last_error(), "2.0 MiB (2097152 bytes)",
			   "memory budget of 1.0 MiB", "--max-memory", NULL);
	cr_expect_eq(c.allocations, 0, "nothing was allocated");
	cr_expect_eq(dalic_mem_charged(), before);
	cr_expect_eq(dalic_buffer_resize(&b, 4096), DALIC_OK);
	cr_expect_eq(dalic_mem_charged(), before + 4096);
	dalic_buffer_free(&b);
	cr_expect_eq(dalic_mem_charged(), before, "freeing gives the budget back");
}

/* Growth near the budget: old + new do not fit, so the old storage goes first; a grown size
 * that does not fit falls back to the exact request. */
Test(hostile_memory, growth_near_the_budget_frees_first_then_asks_exactly)
{
	setenv("DALI_BUFFER_GROWTH_FACTOR", "2", 1);
	dalic_mem_config_reload();
	dalic_mem_set_budget(dalic_mem_charged() + 1000);
	dalic_buffer_t b;
	dalic_buffer_init(&b, DALIC_MEM_HOST, NULL);
	cr_assert_eq(dalic_buffer_resize(&b, 400), DALIC_OK);
	cr_assert_eq(dalic_buffer_resize(&b, 500), DALIC_OK, "%s", dalic_last_error());
	cr_expect_eq(b.capacity, 800, "400 * 2, alone: 400 + 800 is over 1000");
	cr_assert_eq(dalic_buffer_resize(&b, 900), DALIC_OK, "%s", dalic_last_error());
	cr_expect_eq(b.capacity, 900, "1600 does not fit: exactly 900");
	cr_expect_eq(dalic_buffer_resize(&b, 1001), DALIC_ENOMEM);
	dalic_buffer_free(&b);
	unsetenv("DALI_BUFFER_GROWTH_FACTOR");
	dalic_mem_config_reload();
}

/* The reproducer: a resize to 128 x 1,000,000 held 12.5 GB. */
Test(hostile_memory, resize_output_over_budget_names_operator_sample_and_size)
{
	dalic_mem_set_budget(256 << 20);
	dalic_pipeline_t *p = tl_pipeline(1);
	tl_source(p, "img");
	dalic_op_t *op = tl_op(p, "resize");
	tl_input(op, "img");
	cr_assert_eq(dalic_op_set_floats(op, "size", 2, (const double[]){128, 1000000}), 0);
	tl_output(p, op);
	const int64_t shape[3] = {4, 4, 3};
	uint8_t pixels[48] = {0};
	tl_feed(p, "img", DALIC_UINT8, 3, 1, shape, pixels, "HWC");
	const char *msg = tl_run_fails(p, DALIC_ENOMEM);
	hs_expect_mentions(msg, "__Resize_", "sample 0", "[128, 1000000, 3]",
			   "384000000 bytes", "memory budget of 256.0 MiB", NULL);
	dalic_pipeline_destroy(p);
}

/* A reader feeding a decoder, files given by path. */
static const char *hostile_decode(const void *file, size_t n, const char *suffix, int *rc)
{
	const char *path = hs_temp(file, n, suffix);
	dalic_pipeline_t *p = tl_pipeline(1);
	dalic_op_t *rd = tl_op(p, "readers.file");
	cr_assert_eq(dalic_op_set_strings(rd, "files", 1, &path), DALIC_OK);
	dalic_op_t *dec = tl_op(p, "decoders.image");
	tl_input(dec, dalic_op_output(rd, 0));
	tl_output(p, dec);
	*rc = dalic_pipeline_run(p);
	snprintf(hs_msg, sizeof hs_msg, "%s", dalic_last_error());
	dalic_pipeline_destroy(p);
	unlink(path);
	static char name[96];
	snprintf(name, sizeof name, "%s", strrchr(path, '/') + 1);
	return name;
}

/* The reproducer, made small: a progressive JPEG header announcing 65500 x 65500
 * (SOI, SOF2 with three components, SOS of the first DC scan, EOI; no image data). Decoding
 * it needs 12.9 GB of pixels and 25.7 GB of DCT coefficients. */
Test(hostile_memory, huge_progressive_jpeg_header_is_refused_before_decoding)
{
	static const uint8_t jpeg[] = {
	    0xff, 0xd8,                                                 /* SOI */
	    0xff, 0xc2, 0x00, 0x11, 0x08, 0xff, 0xdc, 0xff, 0xdc, 0x03, /* SOF2 65500x65500 */
	    0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,       /* Y 2x2, Cb, Cr 1x1 */
	    0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x00, 0x00,
	    0xff, 0xd9, /* SOS, EOI */
	};
	dalic_mem_set_budget(1 << 30);
	int rc;
	const char *name = hostile_decode(jpeg, sizeof jpeg, ".jpg", &rc);
	cr_expect_eq(rc, DALIC_EOP, "%s", hs_msg);
	/* out: 65500 * 65500 * 3 = 12870750000; coefficients: 65504 * 65504 * 3 * 2 */
	hs_expect_mentions(hs_msg, "__Image_", "sample 0", name, "65500x65500 progressive JPEG",
			   "38618541168 bytes", "memory budget of 1.0 GiB", NULL);
}

/* A PNG header announcing 1,000,000 x 1,000,000 RGBA (libpng's largest by default): IHDR,
 * an empty IDAT and IEND, with their CRCs. */
Test(hostile_memory, huge_png_header_is_refused_before_decoding)
{
	static const uint8_t png[] = {
	    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
	    0x44, 0x52, 0x00, 0x0f, 0x42, 0x40, 0x00, 0x0f, 0x42, 0x40, 0x08, 0x06, 0x00, 0x00,
	    0x00, 0x5c, 0x6d, 0x38, 0x7d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x44, 0x41, 0x54, 0x35,
	    0xaf, 0x06, 0x1e, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60,
	    0x82,
	};
	dalic_mem_set_budget(1 << 30);
	int rc;
	const char *name = hostile_decode(png, sizeof png, ".png", &rc);
	cr_expect_eq(rc, DALIC_EOP, "%s", hs_msg);
	/* out: 1e12 * 3 (RGB); scratch: 1e12 * 3 (alpha stripped while decoding, as OpenCV
	 * does for 3 channels) + 1e6 row pointers of 8 bytes */
	hs_expect_mentions(hs_msg, "__Image_", "sample 0", name, "1000000x1000000 PNG",
			   "6000008000000 bytes", NULL);
}

Test(hostile_memory, constant_over_budget_is_refused_at_build)
{
	dalic_mem_set_budget(1 << 30);
	const char *msg =
	    hs_script_fails(HS_PIPE("    return types.Constant(1.5, shape=[65536, 65536, 16])"));
	hs_expect_mentions(msg, "__Constant_0", "274877906944 bytes", "memory budget", NULL);
}

/* A batch size from a hostile script sizes per-sample state: it counts too. */
Test(hostile_memory, absurd_batch_size_is_refused)
{
	dalic_mem_set_budget(1 << 30);
	const char *msg = hs_script_fails(
	    "from nvidia.dali import pipeline_def, fn\n"
	    "@pipeline_def(batch_size=2**31 - 1, num_threads=1, device_id=None)\n"
	    "def p():\n"
	    "    return fn.random.coin_flip()\n"
	    "pipe = p()\n");
	hs_expect_mentions(msg, "__CoinFlip_0", "2147483647 samples", "memory budget", NULL);
}

/* A resize to 128 x `width` (uint8 RGB: 384 bytes per column). */
static const char *hostile_resize_script(int width)
{
	char text[1024];
	snprintf(text, sizeof text,
		 HS_PIPE("    img = fn.random.uniform(range=[0, 255], shape=[8, 8, 3], "
			 "dtype=types.UINT8)\n"
			 "    return fn.resize(img, size=[128, %d])"),
		 width);
	return hs_temp(text, strlen(text), ".py");
}

Test(hostile_memory, max_memory_flag_sets_the_budget)
{
	const char *path = hostile_resize_script(1000000);
	int st = hs_dalic(NULL, "run %s -n 1 --max-memory 256M", path);
	cr_expect_eq(st, 1, "%s", hs_msg);
	hs_expect_mentions(hs_msg, "__Resize_", "sample 0", "[128, 1000000, 3]",
			   "memory budget of 256.0 MiB", NULL);
	st = hs_dalic(NULL, "run %s -n 1 --max-memory 2Q", path);
	cr_expect_neq(st, 0);
	hs_expect_mentions(hs_msg, "invalid value '2Q' for --max-memory", NULL);
	unlink(path);
}

Test(hostile_memory, environment_variable_sets_the_budget_of_the_binary)
{
	const char *path = hostile_resize_script(100000); /* 38.4 MB out */
	int st = hs_dalic("DALIC_MAX_MEMORY=30M", "run %s -n 1", path);
	cr_expect_eq(st, 1, "%s", hs_msg);
	hs_expect_mentions(hs_msg, "__Resize_", "38400000 bytes", "memory budget of 30.0 MiB",
			   NULL);
	st = hs_dalic("DALIC_MAX_MEMORY=200M", "run %s -n 1", path);
	cr_expect_eq(st, 0, "200 MiB hold the 36.6 MiB output: %s", hs_msg);
	unlink(path);
}
