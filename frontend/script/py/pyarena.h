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

/* The runtime heap: memory for a script that keeps running after its load (sdruntime.h),
 * where a call's values may outlive it — a generator suspended between iterations, an
 * iterator's `self.i`, a list the source appends to — and everything else must go, or a
 * source run every iteration would grow without end. While heap mode is on, each allocation
 * is logged and its size rounded to a class. A collection (dalic_pygc_collect drives it) marks
 * conservatively: every word of the memory made before the heap first began (the load's
 * objects: permanent) and of the roots given is a possible pointer; a heap object reached is
 * scanned in turn (raw memory never is). Objects not reached go to per-class free lists that
 * later heap allocations reuse, so a source's steady state runs in constant memory. Objects
 * never move. Outside heap mode (a sealed call, pycall.h) allocation is the plain bump, and
 * marks and releases keep their meaning. */
void dalic_pyarena_heap_enter(pyarena_t *a);
void dalic_pyarena_heap_leave(pyarena_t *a);
/* Heap objects alive after the last collection (and made since). */
size_t dalic_pyarena_heap_live(const pyarena_t *a);
/* A collection: begin (marks from the load's memory; -1 when out of memory), scan each root
 * range, ask which objects survived, sweep. */
int dalic_pyarena_gc_begin(pyarena_t *a);
void dalic_pyarena_gc_scan(pyarena_t *a, const void *p, size_t n);
/* p is not a heap object, or one marked so far. */
bool dalic_pyarena_gc_live(const pyarena_t *a, const void *p);
void dalic_pyarena_gc_sweep(pyarena_t *a);

#endif
