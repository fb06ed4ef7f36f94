/*
 * Debug mode and data-quality warnings (issue 20): the eager engine logs them like the full
 * engine, and `break warning` stops after the first operator that warns, at the sample and
 * file it warned about. Files from the damaged set (tests/testlib/damage.c).
 */
#include "tests/testlib.h"
#include "tests/testlib/damage.h"

#include <sys/stat.h>

TestSuite(debug_warnings, .timeout = 60, .fini = tl_tmpdir_remove);

static const char *dbgw_set(void)
{
	const char *set = tl_tmp_path("set");
	cr_assert_eq(mkdir(set, 0755), 0);
	cr_assert_gt(tl_damage_write_set("samples/images", set), 0);
	return set;
}

Test(debug_warnings, break_warning_stops_at_the_damaged_sample)
{
	const char *files[] = {"arith.jpg", "arith_flip3.jpg"};
	dalic_pipeline_t *p = tl_pipeline(2);
	dalic_op_t *rd = tl_op(p, "readers.file");
	ASSERT_OK(dalic_op_set_string(rd, "file_root", dbgw_set()));
	ASSERT_OK(dalic_op_set_strings(rd, "files", 2, files));
	dalic_op_t *dec = tl_op(p, "decoders.image");
	ASSERT_OK(dalic_op_set_name(dec, "dec"));
	tl_input(dec, dalic_op_output(rd, 0));
	dalic_op_t *rs = tl_op(p, "resize");
	ASSERT_OK(dalic_op_set_float(rs, "resize_x", 8));
	ASSERT_OK(dalic_op_set_float(rs, "resize_y", 8));
	tl_input(rs, dalic_op_output(dec, 0));
	tl_output(p, rs);
	dalic_debug_t *s = tl_debug_open(p);
	int id;
	ASSERT_DEBUG_OK(s, dalic_debug_break_warning(s, &id));
	dalic_debug_status_t st;
	EXPECT_STATUS(dalic_debug_continue(s, -1), DALIC_OK);
	dalic_debug_status(s, &st);
	cr_assert_eq(st.stop, DALIC_DEBUG_STOP_WARNING);
	cr_expect_eq(st.break_id, id);
	cr_expect_str_eq(st.stop_op, "dec");
	cr_expect_eq(st.stop_sample, 1);
	cr_expect_str_eq(st.stop_source, "arith_flip3.jpg");
	cr_expect_str_eq(st.stop_message, "Corrupt JPEG data: bad arithmetic code");
	cr_expect_str_eq(st.next_op_name, dalic_op_name(rs), "stopped after the decoder");
	cr_expect_eq(dalic_debug_num_warnings(s), 2);
	dalic_warning_t w;
	ASSERT_DEBUG_OK(s, dalic_debug_warning(s, 1, &w));
	cr_expect_eq(w.iteration, 0);
	cr_expect_eq(dalic_debug_warning(s, 2, &w), DALIC_EINVAL);
	/* without the breakpoint the session runs on and keeps logging */
	ASSERT_DEBUG_OK(s, dalic_debug_delete(s, id));
	ASSERT_DEBUG_OK(s, dalic_debug_continue(s, 2)); /* the rest of 0, then 1 */
	dalic_debug_status(s, &st);
	cr_expect_eq(st.stop, DALIC_DEBUG_STOP_LIMIT);
	cr_expect_eq(dalic_debug_num_warnings(s), 4);
	dalic_debug_close(s);
	dalic_pipeline_destroy(p);
}

Test(debug_warnings, cli_break_warning)
{
	char script[1024];
	snprintf(script, sizeof script,
	         "from nvidia.dali import pipeline_def\n"
	         "import nvidia.dali.fn as fn\n"
	         "@pipeline_def\n"
	         "def damaged():\n"
	         "    jpegs, labels = fn.readers.file(file_root='%s',\n"
	         "                                    files=['arith.jpg', 'gray_flip1.jpg'])\n"
	         "    return fn.decoders.image(jpegs, name='dec')\n"
	         "pipe = damaged(batch_size=2, num_threads=1, device_id=None)\n",
	         dbgw_set());
	const char *path = tl_tmp_path("damaged.py");
	tl_write_text(path, script);
	tl_cmd_t c = tl_dalic("break warning\ncontinue\ninfo break\n", "debug %s", path);
	cr_expect_eq(c.status, 0, "%s", c.out);
	EXPECT_HAS(c.out, "breakpoint 1: after an operator warns");
	EXPECT_HAS(c.out, "breakpoint 1: dec warned about sample 1, file 'gray_flip1.jpg': Corrupt "
	                  "JPEG data: 3 extraneous bytes before marker 0xd9\n");
	tl_cmd_free(&c);
}
