/*
 * Script source text and located error messages. Every error the script front end reports
 * reads
 *     path:line:col: message
 *     <the source line>
 *     <spaces up to the column>^
 * where line and column are 1-based and the column counts characters (UTF-8 aware); the
 * caret line repeats the tabs of the source line so it stays aligned in a terminal.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYSRC_H
#define DALIC_FRONTEND_SCRIPT_PY_PYSRC_H

#include "dalic.h"

#include <stdarg.h>
#include <stddef.h>

typedef struct pysrc {
	const char *path; /* as given by the caller */
	const char *text; /* whole file, NUL-terminated */
	size_t len;
} pysrc_t;

/* Records the located message for dalic_last_error(); returns `code`. */
int dalic_pysrc_error(const pysrc_t *src, int line, int col, int code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int dalic_pysrc_verror(const pysrc_t *src, int line, int col, int code, const char *fmt,
                       va_list ap);
/* Re-reports the current dalic_last_error() message (from the engine: registry, graph def)
 * located at line:col. Returns `code`. */
int dalic_pysrc_relocate(const pysrc_t *src, int line, int col, int code);
/* 1-based character column of byte `offset`, whose line starts at byte `line_start`. */
int dalic_pysrc_column(const char *text, size_t line_start, size_t offset);

#endif
