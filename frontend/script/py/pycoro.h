/*
 * Coroutines for the script core: a function running on its own C stack that can suspend
 * itself (yield) and be resumed later, so a generator's body — any statement, any depth of
 * the evaluator — stops at `yield` and goes on at next(). Built on ucontext, with the
 * annotations AddressSanitizer and ThreadSanitizer need to follow stack switches.
 *
 * One coroutine runs at a time per interpreter; a coroutine may be resumed from any thread
 * as long as its resumptions never overlap (callers serialize). A stack is mapped with a
 * guard page below it and committed lazily by the kernel; freeing a suspended coroutine
 * drops its stack without unwinding it, so code that may suspend must not hold memory
 * outside the interpreter's arena across a yield.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYCORO_H
#define DALIC_FRONTEND_SCRIPT_PY_PYCORO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Stack of each coroutine: the evaluator's own budget (PY_STACK_BUDGET) plus a margin. */
#define PYCORO_STACK_BYTES ((size_t)4 << 20)

typedef struct pycoro pycoro_t;
typedef void (*pycoro_fn_t)(void *arg);

/* A new coroutine that will run fn(arg) on its first resume; NULL when out of memory. */
pycoro_t *dalic_pycoro_new(pycoro_fn_t fn, void *arg);
/* Runs co until it yields or fn returns; true when fn has returned (co is finished). */
bool dalic_pycoro_resume(pycoro_t *co);
/* From inside co: back to the resumer, until the next resume. */
void dalic_pycoro_yield(pycoro_t *co);
/* Highest address of co's stack (where its evaluator's stack budget counts from). */
uintptr_t dalic_pycoro_stack_top(const pycoro_t *co);
/* The memory of a suspended coroutine that may hold pointers (a conservative collector's
 * roots, pyarena.h): its saved registers, then its stack from the saved stack pointer up.
 * Calls fn(ctx, p, n) for each range; nothing for one not started or finished. */
void dalic_pycoro_scan(const pycoro_t *co, void (*fn)(void *ctx, const void *p, size_t n),
                       void *ctx);
/* Frees a coroutine that is not running (finished or suspended). NULL is ignored. */
void dalic_pycoro_free(pycoro_t *co);

#endif
