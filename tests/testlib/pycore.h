/*
 * Running the Python core (frontend/script/py) on its own in tests, with no DALI layer:
 *
 *     tl_py_t r;
 *     tl_py_run(&r, "x = int('3') + 1\n");          asserts the run succeeds
 *     cr_expect_eq(tl_py_global(&r, "x")->i, 4);
 *     tl_py_close(&r);
 *
 * tl_py_fail runs a script that must fail and returns its message with the file name
 * "core.py" kept as is. print() output goes to a temporary file read back by tl_py_output.
 */
#ifndef DALIC_TESTS_TESTLIB_PYCORE_H
#define DALIC_TESTS_TESTLIB_PYCORE_H

#include "tests/testlib.h"

#include "frontend/script/py/pyeval.h"

typedef struct tl_py {
	pysrc_t src;
	pyinterp_t I;
	FILE *out;
} tl_py_t;

/* Opens the core on text (parse errors fail the test). */
void tl_py_open(tl_py_t *r, const char *text);
/* Opens and runs text, asserting success. */
void tl_py_run(tl_py_t *r, const char *text);
/* Opens (parses) and runs text, asserting it fails with `code`; returns dalic_last_error()
 * (the interpreter is closed). */
const char *tl_py_fail(const char *text, int code);
/* The module-level variable `name` (the test fails when it is unbound). */
pyval_t *tl_py_global(tl_py_t *r, const char *name);
/* str() of the module-level variable `name` (static buffer, valid until the next call). */
const char *tl_py_str(tl_py_t *r, const char *name);
/* What print() wrote so far (static buffer). */
const char *tl_py_output(tl_py_t *r);
void tl_py_close(tl_py_t *r);

#endif
