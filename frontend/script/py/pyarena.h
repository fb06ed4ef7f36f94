/*
 * Region allocation for the pipeline-script front end. Everything a script load creates —
 * tokens, syntax tree, runtime values, interpreter frames — lives in one arena that is freed
 * at once when the load ends, so no error path has to track ownership. Allocation failure is
 * reported as NULL (the caller turns it into DALIC_ENOMEM); a configurable byte budget turns a
 * runaway script into an error instead of exhausting the machine.
 */
#ifndef DALIC_FRONTEND_SCRIPT_ARENA_H
#define DALIC_FRONTEND_SCRIPT_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct script_arena script_arena_t;

/* New arena; `budget` bytes at most (0 = unlimited). Free with script_arena_free. */
script_arena_t *script_arena_new(size_t budget);
void script_arena_free(script_arena_t *a);
/* Zeroed memory, aligned for any type. NULL when out of memory or budget. */
void *script_arena_alloc(script_arena_t *a, size_t n);
/* Copies; the result is NUL-terminated. */
char *script_arena_strndup(script_arena_t *a, const char *s, size_t n);
char *script_arena_strdup(script_arena_t *a, const char *s);
char *script_arena_printf(script_arena_t *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *script_arena_vprintf(script_arena_t *a, const char *fmt, va_list ap);
/* Bytes handed out so far. */
size_t script_arena_used(const script_arena_t *a);

#endif
