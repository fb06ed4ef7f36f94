/*
 * Region allocation for the pipeline-script front end. Everything a script load creates —
 * tokens, syntax tree, runtime values, interpreter frames — lives in one arena that is freed
 * at once when the load ends, so no error path has to track ownership. Allocation failure is
 * reported as NULL (the caller turns it into DALIC_ENOMEM); a configurable byte budget turns a
 * runaway script into an error instead of exhausting the machine.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYARENA_H
#define DALIC_FRONTEND_SCRIPT_PY_PYARENA_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct pyarena pyarena_t;

/* New arena; `budget` bytes at most (0 = unlimited). Free with dalic_pyarena_free. */
pyarena_t *dalic_pyarena_new(size_t budget);
void dalic_pyarena_free(pyarena_t *a);
/* Zeroed memory, aligned for any type. NULL when out of memory or budget. */
void *dalic_pyarena_alloc(pyarena_t *a, size_t n);
/* Copies; the result is NUL-terminated. */
char *dalic_pyarena_strndup(pyarena_t *a, const char *s, size_t n);
char *dalic_pyarena_strdup(pyarena_t *a, const char *s);
char *dalic_pyarena_printf(pyarena_t *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *dalic_pyarena_vprintf(pyarena_t *a, const char *fmt, va_list ap);
/* Bytes handed out so far. */
size_t dalic_pyarena_used(const pyarena_t *a);
/* Memory that never holds a pointer (string bytes, array data): kept apart from objects so
 * dalic_pyarena_release need not scan it. Zeroed, aligned. */
void *dalic_pyarena_alloc_raw(pyarena_t *a, size_t n);

/* A point in an arena's life: what is allocated after it can be told apart from what was
 * before (a sealed call's write barrier) and given back at once — unconditionally (a call
 * that must leave nothing behind: python_function), or unless a pointer into it remains in
 * older object memory or in the `roots` given (memory outside the arena that may hold arena
 * pointers, such as the interpreter struct): a conservative scan, so values a call stored
 * into older objects keep what they reference (a script function run every iteration). */
typedef struct pyarena_mark_list {
	unsigned long newest; /* chunks numbered above were made after the mark */
	unsigned long head;   /* the chunk allocations came from at the mark... */
	size_t used;          /* ...and how much of it was used */
} pyarena_mark_list_t;

typedef struct pyarena_mark {
	pyarena_mark_list_t obj, raw;
	size_t total;
} pyarena_mark_t;

typedef struct pyarena_root {
	const void *p;
	size_t n;
} pyarena_root_t;

void dalic_pyarena_mark(const pyarena_t *a, pyarena_mark_t *m);
/* Whether p lies in memory allocated after mark m (cost: the chunks added since). */
int dalic_pyarena_is_new(const pyarena_t *a, const pyarena_mark_t *m, const void *p);
/* Frees everything allocated after m; what was allocated before stays. */
void dalic_pyarena_release(pyarena_t *a, const pyarena_mark_t *m);
/* The conservative release: true when the memory was released. */
bool dalic_pyarena_release_unreferenced(pyarena_t *a, const pyarena_mark_t *m,
                                        const pyarena_root_t *roots, int nroots);

#endif
