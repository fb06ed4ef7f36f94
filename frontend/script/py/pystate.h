/*
 * The Python core's interpreter state (Lua's lstate): the arena, the parsed script, the
 * module frame, built-ins and imported modules, the limits that keep a hostile script from
 * hanging or exhausting memory and stack, and the hooks through which a host (the DALI
 * layer) takes part without the core knowing it. A host opens the core, registers its
 * modules (pymod.h), types (pyval.h) and hooks, then runs the script.
 *
 * Status convention of the core: functions return DALIC_OK, a negative DALIC_E* code after a
 * located error was recorded (file:line:col, caret), or (statements only) a positive
 * control-flow signal (pyexec.h).
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYSTATE_H
#define DALIC_FRONTEND_SCRIPT_PY_PYSTATE_H

#include "frontend/script/py/pyval.h"

#include <stdint.h>
#include <stdio.h>

#define PY_MAX_CALL_DEPTH 150
#define PY_MAX_LOOP_ITERATIONS 100000
#define PY_MAX_STEPS 5000000L
#define PY_ARENA_BUDGET ((size_t)1 << 30)
/* Longest str / list the core builds (repetition, formatting). */
#define PY_MAX_STR_LEN ((size_t)1 << 28)
/* C stack the evaluator may use below its entry point (deep calls of deeply nested
 * expressions); well inside the 8 MiB main-thread and default pthread stacks */
#define PY_STACK_BUDGET ((size_t)3 << 20)

typedef enum { FR_MODULE, FR_FUNCTION, FR_CLASS, FR_SCOPE } pyframe_kind_t;

struct pyframe {
	pyframe_kind_t kind;
	pydict_t *locals;
	/* which names are local (functions: from the def's facts; lambdas and comprehensions:
	 * their parameters / targets) and which are declared global */
	const char *const *lnames;
	int nlnames;
	const char *const *gnames;
	int ngnames;
	pyframe_t *parent; /* lexically enclosing frame */
	pyfunc_t *func;    /* function being run (super()) */
	pyval_t *self;     /* its first argument (super()) */
	pyclass_t *cls;    /* class being defined (FR_CLASS) */
	/* the return value (PV_UNDEF until set) and whether a return ran: AutoGraph's retval_
	 * and do_return, which a host lowering `if` statements merges like variables */
	pyval_t *retval;
	pyval_t *do_return;
};

/* What a host adds to the core's behaviour; every member may be NULL. */
typedef struct pyhooks {
	/* Whether an error now stops the whole load instead of only the module-level statement
	 * that raised it (the host is in the middle of building something). */
	bool (*strict)(pyinterp_t *I);
	/* `name` was bound to v in frame F. */
	void (*bind)(pyinterp_t *I, pyframe_t *F, const char *name, pyval_t *v);
	/* print(...) with checked arguments: *taken = true when the host handled it. */
	int (*print)(pyinterp_t *I, const pynode_t *at, const pyargs_t *args, bool *taken);
	/* A call `e` of fn in frame F, before its arguments are evaluated: *taken = true when
	 * the host handled it (and set *out). */
	int (*call)(pyinterp_t *I, pyframe_t *F, const pynode_t *e, pyval_t *fn, bool *taken,
	            pyval_t **out);
} pyhooks_t;

typedef struct pymodreg pymodreg_t;
typedef struct pygen pygen_t;

struct pyinterp {
	pyarena_t *a;
	const pysrc_t *src;      /* source of the code running now */
	const pysrc_t *main_src; /* the script's; src differs inside embedded modules */
	const pynode_t *lib_site; /* the script's call that entered embedded code (pylibmod.h) */
	FILE *warn;               /* warnings.warn() destination */
	pyast_t *mod;
	pyframe_t *globals;
	pydict_t *builtins;
	pydict_t *modules;            /* imported module values by dotted name */
	const pymodreg_t *preload[16]; /* module tables: name -> opener (pymod.h) */
	int npreload;
	const pyhooks_t *hooks;
	void *host;           /* the host's state */
	int depth;            /* call depth */
	int loops;            /* loop and try bodies being run (no statement skipping inside) */
	uintptr_t stack_base; /* C stack address when the run started */
	long steps;
	bool star_opaque;    /* `from <unknown module> import *` happened */
	bool fatal;          /* an error that stops the load happened */
	bool keep_error;     /* the pending error may be caught, but never skipped as display
	                      * code (an unknown operator: dalic would drop the pipeline part) */
	bool refused;        /* the fatal error is a refused effect (pyio.c: a write...) */
	pyframe_t *frame;    /* frame running now (super()) */
	char *main_skipped;  /* why the `if __name__ == "__main__":` block was skipped (malloc) */
	int main_line;       /* ... and its line */
	int in_main;         /* running that block */
	char *first_skipped; /* first error of a skipped module-level statement (malloc) */
	pydict_t *skipped;   /* names skipped statements would have bound -> their line */
	FILE *out;           /* print() destination */
	/* exceptions (pyexc.h): the pending error's exception object, the hash of the message
	 * it belongs to, and the exception of the innermost running except block */
	pyval_t *exc;
	uint64_t exc_hash;
	pyval_t *handling;
	/* generators (pygen.h): the one running now, and those holding a stack */
	pygen_t *gen;
	pygen_t *live_gens;
	int nlive_gens;
	/* sealed calls from outside the run (pycall.h): whether one runs, the arena as it was
	 * when it began, what it calls (messages), and the coroutine it runs on */
	bool sealed;
	/* numba's typing for the call (numba_function): an array's element reads as a Python
	 * number and Python scalars next to arrays are int64 / float64, not NEP 50's weak ones */
	bool numba;
	pyarena_mark_t seal;
	const char *sealed_what;
	struct pycall *call;
};

/* Parses src (which must outlive I) and sets up the built-ins, the module machinery and
 * the module frame (__name__ "__main__", __file__). print() writes to `out`. Free with
 * dalic_pystate_close, also after an error. */
int dalic_pystate_open(pyinterp_t *I, const pysrc_t *src, FILE *out);
/* Runs the module body. */
int dalic_pystate_run(pyinterp_t *I);
void dalic_pystate_close(pyinterp_t *I);

#endif
