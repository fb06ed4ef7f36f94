/*
 * Generators: calling a function whose body holds `yield` makes a generator object; its
 * body runs on a coroutine (pycoro.h), so `yield` suspends the whole evaluation wherever it
 * stands and next() / send() / iteration resume it. A generator expression over a lazy
 * iterable (a generator, an iterator object) is a generator too; over a list or tuple it
 * is computed at once and handed out as an iterator (pyiter.c).
 *
 * The interpreter's per-run counters (call depth, loop nesting, the running frame, the
 * exception being handled, the stack budget) belong to whichever side runs: each switch
 * saves the side it leaves and restores the side it enters. Generators still suspended when
 * the interpreter closes are dropped without running their `finally` blocks (a Python
 * process exiting does not always run them either).
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYGEN_H
#define DALIC_FRONTEND_SCRIPT_PY_PYGEN_H

#include "frontend/script/py/pyeval.h"

/* Unfinished generators that hold a stack at once (a limit, like the call depth). */
#define PYGEN_MAX_LIVE 256

extern const pytype_t dalic_pygen_type;

/* A generator for a call of generator function f whose frame (arguments bound) is fr. */
int dalic_pygen_new(pyinterp_t *I, const pynode_t *at, pyfunc_t *f, pyframe_t *fr,
                    pyval_t **out);
/* A generator running generator expression e lazily in comprehension frame C, whose first
 * iterable (already evaluated, a lazy iterator) is `first`. */
int dalic_pygen_new_expr(pyinterp_t *I, const pynode_t *e, pyframe_t *C, pyval_t *first,
                         pyval_t **out);
/* Resumes generator g with `sent` (None for next()): *out the value it yields, or *done
 * when it finished (its return value in *out). Errors of the body come back as they are. */
int dalic_pygen_resume(pyinterp_t *I, const pynode_t *at, pyval_t *g, pyval_t *sent,
                       pyval_t **out, bool *done);
/* `yield v` in the running generator: *sent the value send() passes back (None). */
int dalic_pygen_yield(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t **sent);
/* `yield from it` in the running generator: *out the sub-generator's return value. */
int dalic_pygen_yield_from(pyinterp_t *I, const pynode_t *at, pyval_t *it, pyval_t **out);
/* Frees the stacks of generators left unfinished (dalic_pystate_close). */
void dalic_pygen_close_all(pyinterp_t *I);
/* The same for those made after mark m (a sealed call's, pycall.h). */
void dalic_pygen_close_new(pyinterp_t *I, const pyarena_mark_t *m);

/* The collector (pygc.c): takes the unfinished generators off the interpreter's list into
 * gens (room for I->nlive_gens) so the list does not keep them alive, returns how many;
 * marks from the stacks of those reached, to a fixpoint (done[i], zeroed by the caller:
 * generator i was reached); then frees the coroutines of those not live and puts the others
 * back. */
int dalic_pygen_gc_take(pyinterp_t *I, pygen_t **gens);
void dalic_pygen_gc_mark(pyinterp_t *I, pygen_t **gens, bool *done, int n);
void dalic_pygen_gc_give_back(pyinterp_t *I, pygen_t **gens, const bool *live, int n);

#endif
