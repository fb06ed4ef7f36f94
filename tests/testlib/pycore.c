/* Running the Python core alone in tests (see tests/testlib/pycore.h). */
#include "tests/testlib/pycore.h"

#include "frontend/script/py/pydict.h"
#include "frontend/script/py/pystate.h"

static char tl_py_text[8192];

void tl_py_open(tl_py_t *r, const char *text)
{
	memset(r, 0, sizeof *r);
	r->src = (pysrc_t){"core.py", text, strlen(text)};
	r->out = tmpfile();
	cr_assert_not_null(r->out);
	ASSERT_OK(dalic_pystate_open(&r->I, &r->src, r->out));
}

void tl_py_run(tl_py_t *r, const char *text)
{
	tl_py_open(r, text);
	ASSERT_OK(dalic_pystate_run(&r->I));
}

const char *tl_py_fail(const char *text, int code)
{
	tl_py_t r;
	memset(&r, 0, sizeof r);
	r.src = (pysrc_t){"core.py", text, strlen(text)};
	r.out = tmpfile();
	cr_assert_not_null(r.out);
	int rc = dalic_pystate_open(&r.I, &r.src, r.out);
	if (!rc)
		rc = dalic_pystate_run(&r.I);
	snprintf(tl_py_text, sizeof tl_py_text, "%s", dalic_last_error());
	tl_py_close(&r);
	ASSERT_STATUS(rc, code);
	return tl_py_text;
}

pyval_t *tl_py_global(tl_py_t *r, const char *name)
{
	pyval_t *v = dalic_pydict_get_str(r->I.globals->locals, name);
	cr_assert_not_null(v, "no global '%s'", name);
	return v;
}

const char *tl_py_str(tl_py_t *r, const char *name)
{
	pyval_t *s;
	ASSERT_OK(dalic_pyeval_str(&r->I, NULL, tl_py_global(r, name), false, &s));
	snprintf(tl_py_text, sizeof tl_py_text, "%s", s->str.s);
	return tl_py_text;
}

const char *tl_py_output(tl_py_t *r)
{
	fflush(r->out);
	long n = ftell(r->out);
	rewind(r->out);
	size_t got = fread(tl_py_text, 1, n > 0 && (size_t)n < sizeof tl_py_text
	                                      ? (size_t)n
	                                      : sizeof tl_py_text - 1,
	                   r->out);
	tl_py_text[got] = 0;
	fseek(r->out, 0, SEEK_END);
	return tl_py_text;
}

void tl_py_close(tl_py_t *r)
{
	dalic_pystate_close(&r->I);
	if (r->out)
		fclose(r->out);
	r->out = NULL;
}
