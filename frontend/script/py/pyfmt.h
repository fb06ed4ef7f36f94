/*
 * String formatting: the format specification mini-language (f-strings, str.format,
 * format()) and printf-style `%`. Widths and precisions are bounded as CPython bounds
 * them ("precision too big", "width too big") and by PY_MAX_STR_LEN; results are never cut.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYFMT_H
#define DALIC_FRONTEND_SCRIPT_PY_PYFMT_H

#include "frontend/script/py/pyeval.h"

/* Digits of a float precision dalic formats; CPython allows INT_MAX, which takes seconds
 * and a gigabyte per call. */
#define PYFMT_MAX_PRECISION (1 << 20)
/* Characters of padding dalic produces (CPython: as much as memory holds). */
#define PYFMT_MAX_WIDTH (1 << 24)

/* format(v, spec) appended to out. */
int dalic_pyfmt_spec(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *spec, pybuf_t *out);
int dalic_pyfmt_str_format(pyinterp_t *I, const pynode_t *at, pyval_t *fmt, const pyargs_t *args,
                           pyval_t **out);
int dalic_pyfmt_percent(pyinterp_t *I, const pynode_t *at, pyval_t *fmt, pyval_t *args,
                        pyval_t **out);

/* ---- shared by format() and % (pyfmt.c) ---- */

/* [[fill]align][sign][#][0][width][,|_][.precision][type]; also what a % conversion says. */
typedef struct pyfmt_spec {
	char fill, align, sign, type;
	char comma; /* ',' or '_' grouping, 0 for none */
	bool alt, zero;
	int64_t width, precision; /* precision -1: none */
} pyfmt_spec_t;

/* Decimal digits at *s (advanced past them); `what` is the ValueError when they overflow. */
int dalic_pyfmt_digits(pyinterp_t *I, const pynode_t *at, const char **s, const char *end,
                       const char *what, int64_t *out);
/* Width and precision within CPython's bounds and dalic's (`digits`: the precision is a
 * count of digits to produce, not a cut). */
int dalic_pyfmt_check(pyinterp_t *I, const pynode_t *at, const pyfmt_spec_t *sp, bool digits);
/* Appends body[0..n) padded to sp->width characters; `lead` bytes (sign, base prefix) stay
 * before '=' / zero padding; `numeric` right-aligns by default. */
void dalic_pyfmt_pad(pybuf_t *out, const pyfmt_spec_t *sp, const char *body, size_t n, size_t lead,
                     bool numeric);

#endif
