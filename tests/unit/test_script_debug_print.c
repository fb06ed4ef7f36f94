/* print() in a debug=True pipeline: recorded when traced, replayed by debug mode with the
 * values of every iteration (DALI's debug-mode behaviour). */
#include "tests/testlib.h"

#include "debugmode/session.h"
#include "engine/graphdef.h"
#include "frontend/script.h"

#include <stdlib.h>
#include <string.h>

TestSuite(script_debug_print, .timeout = 20);

static void script_debug_print_capture(void *user, const char *text)
{
	char *buf = user;
	strncat(buf, text, 8191 - strlen(buf));
}

Test(script_debug_print, prints_are_recorded_and_replayed_each_iteration)
{
	dalic_graphdef_t *def;
	ASSERT_OK(dalic_script_load("samples/scripts/debug_print.py", NULL, &def));
	cr_expect(def->debug);
	cr_assert_eq(def->num_prints, 2);
	cr_expect_str_eq(def->prints[0].text, "y:");
	cr_assert_eq(def->prints[0].num_nodes, 1);
	cr_expect_str_eq(def->prints[0].nodes[0], "___ArithmeticGenericOp_2");
	cr_expect(def->prints[0].get);
	cr_expect_eq(def->prints[0].pos.line, 13);
	cr_expect_not(def->prints[1].get);

	dalic_debug_t *s;
	ASSERT_OK(dalic_debug_open_def(def, &s));
	static char out[8192];
	out[0] = 0;
	dalic_debug_set_print(s, script_debug_print_capture, out);
	ASSERT_DEBUG_OK(s, dalic_debug_next(s));
	EXPECT_HAS(out, "y: TensorListCPU(");
	EXPECT_HAS(out, "DataNodeDebug(\n    name=\"__CoinFlip_3\"");
	char *first = strdup(out);
	ASSERT_OK(dalic_debug_next(s));
	cr_expect_gt(strlen(out), strlen(first) + 10, "printed again in iteration 1");
	free(first);
	dalic_debug_close(s);
	dalic_graphdef_free(def);
}

Test(script_debug_print, get_outside_debug_mode_is_an_error)
{
	const char *path = tl_write_temp(
	    "get_not_debug", ".py",
	    "from nvidia.dali import pipeline_def\nimport nvidia.dali.fn as fn\n"
	    "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
	    "def p():\n    x = fn.random.uniform()\n    print(x.get())\n    return x\n"
	    "pipe = p()\n");
	dalic_graphdef_t *def = NULL;
	cr_expect_neq(dalic_script_load(path, NULL, &def), 0);
	unlink(path);
	EXPECT_ERROR_HAS(":6:");
	EXPECT_ERROR_HAS("debug mode");
	dalic_graphdef_free(def);
}
