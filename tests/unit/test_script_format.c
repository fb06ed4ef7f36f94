/* Unit tests: string formatting in pipeline scripts follows CPython — %-formatting, format()
 * and f-strings give CPython's text (expected values below are CPython 3.11's), results are
 * never cut, and widths / precisions beyond CPython's bounds raise its errors; beyond dalic's
 * own limits they stop the load at the expression. */
#include "tests/testlib/script.h"

TestSuite(script_format, .timeout = 30);

/* A pipeline whose function asserts `expr == expected` (so a mismatch stops the load with
 * both values in the message). */
static void fmt_check(const char *expr, const char *expected)
{
	char src[4096];
	snprintf(src, sizeof src,
	         "from nvidia.dali import pipeline_def, fn\n"
	         "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	         "def pipe():\n"
	         "    got = %s\n"
	         "    assert got == %s, repr(got)\n"
	         "    return fn.random.uniform()\n"
	         "p = pipe()\n",
	         expr, expected);
	const char *path = tl_write_temp("script", ".py", src);
	dalic_graphdef_t *g = NULL;
	int rc = dalic_script_load(path, NULL, &g);
	unlink(path);
	cr_expect_eq(rc, DALIC_OK, "%s: %s", expr, dalic_last_error());
	dalic_graphdef_free(g);
}

/* The error message of evaluating `expr` inside the pipeline function. */
static const char *fmt_error(const char *expr, int code)
{
	static char src[4096];
	snprintf(src, sizeof src,
	         "from nvidia.dali import pipeline_def, fn\n"
	         "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	         "def pipe():\n"
	         "    got = %s\n"
	         "    return fn.random.uniform()\n"
	         "p = pipe()\n",
	         expr);
	return tl_script_error(src, code);
}

Test(script_format, percent_formatting_is_cpythons)
{
	static const char *const cases[][2] = {
	    {"'%.3d' % 5", "'005'"},
	    {"'%5.1s|' % 'abc'", "'    a|'"},
	    {"'%-5d|' % 3", "'3    |'"},
	    {"'%+05d' % 3", "'+0003'"},
	    {"'%#x' % 255", "'0xff'"},
	    {"'%#o' % 8", "'0o10'"},
	    {"'%#08x' % 255", "'0x0000ff'"},
	    {"'%x' % -255", "'-ff'"},
	    {"'% d' % 5", "' 5'"},
	    {"'%c%c' % (65, 'b')", "'Ab'"},
	    {"'%c' % 233", "'\\xe9'"},
	    {"'%.0e' % 12345.0", "'1e+04'"},
	    {"'%#.0f' % 3", "'3.'"},
	    {"'%+.2e' % 0.000123", "'+1.23e-04'"},
	    {"'%d %i %u' % (3.7, True, 3)", "'3 1 3'"},
	    {"'%s %r' % (None, 'a')", "\"None 'a'\""},
	    {"'%5s|%.1s|' % ('\\xe9', '\\xe9a')", "'    \\xe9|\\xe9|'"},
	    {"'%*d|%-*d|' % (4, 2, 3, 1)", "'   2|1  |'"},
	    {"'%.*f' % (2, 1.2345)", "'1.23'"},
	    {"'%(a)s-%(b)05.1f' % {'a': 1, 'b': 2.25}", "'1-002.2'"},
	    {"'%5.2f|%05.1f' % (-1.5, -2.25)", "'-1.50|-02.2'"},
	    {"'%ld %%' % 5", "'5 %'"},
	    {"'%05f %f' % (float('inf'), float('nan'))", "'00inf nan'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		fmt_check(cases[i][0], cases[i][1]);
}

Test(script_format, format_specs_are_cpythons)
{
	static const char *const cases[][2] = {
	    {"format(255, '#08x')", "'0x0000ff'"},
	    {"format(255, '#010b')", "'0b11111111'"},
	    {"format(-255, '08x')", "'-00000ff'"},
	    {"format(1234567, ',') + format(1234567, '_')", "'1,234,5671_234_567'"},
	    {"format(-1234567.891, '015,.2f')", "'-001,234,567.89'"},
	    {"format(0.5, '%') + format(0.5, '.1%')", "'50.000000%50.0%'"},
	    {"format(3, '*^9')", "'****3****'"},
	    {"format('h\\xe9llo', '.2') + format('\\xe9', '>3')", "'h\\xe9  \\xe9'"},
	    {"format(True, '>6') + format(True, '')", "'     1True'"},
	    {"format(65, 'c') + format(233, 'c')", "'A\\xe9'"},
	    {"format(1.0, '.3') + format(1e16, '')", "'1.01e+16'"},
	    {"format(5, '=+5') + format(-5, '05')", "'+   5-0005'"},
	    {"f'{3.14159:8.3f}|{\"ab\":*<6}|'", "'   3.142|ab****|'"},
	    {"'{0:.2f} {1:>4} {2:,} {3:#o} {4:#X}'.format(3.14159, 'x', 10**9, 8, 255)",
	     "'3.14    x 1,000,000,000 0o10 0XFF'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		fmt_check(cases[i][0], cases[i][1]);
}

Test(script_format, long_results_are_never_cut)
{
	/* the old 512-byte buffers cut these silently */
	fmt_check("len('%s' % ('x' * 1000))", "1000");
	fmt_check("len('%.400f' % 1e300)", "702");
	fmt_check("len(format(1e300, '.10f'))", "312");
	fmt_check("len('%.100000f' % 1.5) + len(format(1.5, '.100000f'))", "200004");
	fmt_check("len('%2000000d|' % 1)", "2000001");
	fmt_check("('%s|' % ('ab' * 300))[-3:]", "'ab|'");
	fmt_check("len('{:>5000}'.format('x'))", "5000");
}

Test(script_format, huge_widths_and_precisions_are_cpythons_errors)
{
	static const struct {
		const char *expr, *msg;
	} cases[] = {
	    {"'%.2147483648f' % 1.5", "ValueError: precision too big"},
	    {"'%.99999999999999999999s' % 'x'", "ValueError: precision too big"},
	    {"'%99999999999999999999d' % 1", "ValueError: width too big"},
	    {"format(1.5, '.2147483648f')", "ValueError: precision too big"},
	    {"'{:.99999999999}'.format(1.5)", "ValueError: precision too big"},
	    {"format(1, '99999999999999999999d')",
	     "ValueError: Too many decimal digits in format string"},
	    {"format(5, '.3d')", "ValueError: Precision not allowed in integer format specifier"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *msg = fmt_error(cases[i].expr, DALIC_EINVAL);
		char want[256];
		snprintf(want, sizeof want, "SCRIPT:4:11: %s\n", cases[i].msg);
		cr_expect(strstr(msg, want) == msg, "%s: %s", cases[i].expr, msg);
	}
	/* within CPython's bounds: huge but accepted there, beyond what dalic builds */
	const char *msg = fmt_error("'%.999999999f' % 1.5", DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg,
	                 "SCRIPT:4:11: MemoryError: format precision 999999999 (dalic's limit: "
	                 "1048576)\n") == msg,
	          "%s", msg);
	/* found by the fuzzer: a 60M-character pad then repr() ran past its timeout */
	msg = fmt_error("repr(format(float('inf'), '059999999f'))", DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg, "SCRIPT:4:16: MemoryError: format width 59999999 (dalic's limit: "
	                      "16777216)\n") == msg,
	          "%s", msg);
	msg = fmt_error("'%2147483648d' % 1", DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg, "SCRIPT:4:11: MemoryError: format width 2147483648") == msg, "%s",
	          msg);
	/* a limit stops module-level code too: no silently missing value */
	msg = tl_script_error("s = '%.999999999f' % 1.5\n"
	               "from nvidia.dali import pipeline_def, fn\n"
	               "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	               "def pipe():\n"
	               "    return fn.random.uniform()\n"
	               "p = pipe()\n",
	               DALIC_EUNSUPPORTED);
	cr_expect(strstr(msg, "SCRIPT:1:5: MemoryError: format precision") == msg, "%s", msg);
}

Test(script_format, chr_ord_and_field_names)
{
	fmt_check("chr(233) + chr(0x20ac) + chr(65)", "'\\xe9\\u20acA'");
	fmt_check("(ord('\\xe9'), ord('\\u20ac'), ord('A'))", "(233, 8364, 65)");
	/* field names longer than the old 128-byte buffers */
	fmt_check("('{' + 'k' * 200 + '}').format(**{'k' * 200: 7})", "'7'");
	fmt_check("('%(' + 'k' * 200 + ')d') % {'k' * 200: 8}", "'8'");
	const char *msg = fmt_error("ord('ab')", DALIC_EINVAL);
	cr_expect(
	    strstr(msg, "TypeError: ord() expected a character, but string of length 2 found"),
	    "%s", msg);
}
