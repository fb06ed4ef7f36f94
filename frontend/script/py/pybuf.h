/*
 * A growable text buffer (malloc'd, NUL-terminated) for the script front end: str() and
 * repr() of values, formatting, messages. Writes after an allocation failure are dropped
 * and `oom` stays set, so callers check once at the end.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYBUF_H
#define DALIC_FRONTEND_SCRIPT_PY_PYBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct pybuf {
	char *s;
	size_t n, cap;
	bool oom;
} pybuf_t;

void dalic_pybuf_put(pybuf_t *b, const char *s, size_t n);
void dalic_pybuf_puts(pybuf_t *b, const char *s);
/* `n` copies of character c. */
void dalic_pybuf_fill(pybuf_t *b, char c, size_t n);
void dalic_pybuf_printf(pybuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dalic_pybuf_free(pybuf_t *b);

#endif
