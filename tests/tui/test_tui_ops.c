/*
 * OPERATORS pane: a row per operator with time, share and memory (executor_statistics are
 * on in the workbench), the slowest operator named, all columns when zoomed, sortable.
 */
#include "tests/testlib/tui.h"

#include <math.h>

TestSuite(tui_ops, .timeout = 60);

/* "123.4us" -> nanoseconds; -1 when s is not a time. */
static double tui_ops_parse_ns(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s)
		return -1;
	if (!strncmp(end, "ns", 2))
		return v;
	if (!strncmp(end, "us", 2))
		return v * 1e3;
	if (!strncmp(end, "ms", 2))
		return v * 1e6;
	if (*end == 's')
		return v * 1e9;
	return -1;
}

/* Mean times of the table rows, top to bottom (the first time on each row). */
static int tui_ops_row_means(const char *dump, double *means, int max)
{
	int n = 0;
	for (const char *p = dump; (p = strstr(p, "\xe2\x94\x82__")) && n < max; p++) {
		const char *eol = strchr(p, '\n');
		for (const char *q = p + 3; q && q < eol; q++) {
			if (q[-1] != ' ' || *q == ' ')
				continue;
			double ns = tui_ops_parse_ns(q);
			if (ns >= 0) {
				means[n++] = ns;
				break;
			}
		}
	}
	return n;
}

Test(tui_ops, rows_have_time_share_and_memory)
{
	tl_tui_t r = tl_tui_run("@arith", "dump\nn\nn\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	for (const char *p = "OPERATORS\0mean\0p99\0share\0real\0reserved\0__Uniform_0\0__Cast_4\0"
	                     "__MakeContiguous\0";
	     *p; p += strlen(p) + 1)
		tl_tui_expect_has(&r, 2, p);
	tl_tui_expect_has(&r, 1, "no timings yet");
	tl_tui_expect_has(&r, 2, "slowest: __");
	tl_tui_expect_has(&r, 2, "128B"); /* 32 x 4-byte scalars per output */
	double means[16];
	int n = tui_ops_row_means(tl_tui_dump(&r, 2), means, 16);
	cr_expect_eq(n, 7, "%d timed rows:\n%s", n, tl_tui_dump(&r, 2));
	for (int i = 0; i < n; i++)
		cr_expect_gt(means[i], 0);
	tl_tui_free(&r);
}

Test(tui_ops, zoom_shows_every_column)
{
	tl_tui_t r = tl_tui_run("@arith", "n\n<Tab>\nz\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	for (const char *p = "schema\0dev\0hint\0allocs\0"; *p; p += strlen(p) + 1)
		tl_tui_expect_has(&r, 1, p);
	/* schema names, cut with an ellipsis where the column is too narrow */
	tl_tui_expect_has(&r, 1, "__Cast_4            Cast ");
	tl_tui_expect_has(&r, 1, "random__Unifo\xe2\x80\xa6");
	tl_tui_free(&r);
}

Test(tui_ops, sort_by_mean_time)
{
	tl_tui_t r =
	    tl_tui_run("samples/scripts/getting_started.py", "n\nn\no\ndump\nO\ndump\nq\n", NULL);
	cr_expect_eq(r.status, 0, "%s", r.out);
	tl_tui_expect_has(&r, 1, "mean\xe2\x96\xbc");
	tl_tui_expect_has(&r, 2, "mean\xe2\x96\xb2");
	double m[16];
	int n = tui_ops_row_means(tl_tui_dump(&r, 1), m, 16);
	cr_expect_geq(n, 5, "%s", tl_tui_dump(&r, 1));
	for (int i = 1; i < n; i++)
		cr_expect_geq(m[i - 1], m[i], "row %d not sorted:\n%s", i, tl_tui_dump(&r, 1));
	n = tui_ops_row_means(tl_tui_dump(&r, 2), m, 16);
	for (int i = 1; i < n; i++)
		cr_expect_leq(m[i - 1], m[i], "row %d not sorted up:\n%s", i, tl_tui_dump(&r, 2));
	tl_tui_free(&r);
}
