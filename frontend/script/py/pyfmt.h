/*
 * String formatting: the format specification mini-language (f-strings, str.format,
 * format()) and printf-style `%`. Widths and precisions are bounded as CPython bounds
 * them ("precision too big", "width too big") and by PY_MAX_STR_LEN; results are never cut.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYFMT_H
#define DALIC_FRONTEND_SCRIPT_PY_PYFMT_H

#include "frontend/script/py/pyeval.h"

/* format(v, spec) appended to out. */
int dalic_pyfmt_spec(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *spec, pybuf_t *out);
int dalic_pyfmt_str_format(pyinterp_t *I, const pynode_t *at, pyval_t *fmt, const pyargs_t *args,
                           pyval_t **out);
int dalic_pyfmt_percent(pyinterp_t *I, const pynode_t *at, pyval_t *fmt, pyval_t *args,
                        pyval_t **out);

#endif
