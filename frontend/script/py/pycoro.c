/*
 * Coroutines on ucontext (see pycoro.h). makecontext passes only ints to the entry
 * function, so the coroutine being started travels through a thread-local variable. Every
 * switch is bracketed by the sanitizers' fiber annotations: AddressSanitizer must know which
 * stack is live (otherwise it reports the other stack's frames), ThreadSanitizer keeps one
 * shadow state per fiber.
 */
#include "frontend/script/py/pycoro.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define PYCORO_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define PYCORO_TSAN 1
#endif

struct pycoro {
	ucontext_t ctx, caller;
	unsigned char *map; /* guard page + stack */
	size_t map_size;
	pycoro_fn_t fn;
	void *arg;
	bool finished;
#ifdef PYCORO_ASAN
	void *fake;              /* ASan's fake stack of the side being left */
	const void *caller_base; /* the resumer's stack, to switch back to */
	size_t caller_size;
#endif
#ifdef PYCORO_TSAN
	void *fiber, *caller_fiber;
#endif
};

static _Thread_local pycoro_t *pycoro_starting;

static size_t pycoro_page(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

static unsigned char *pycoro_stack_base(const pycoro_t *co)
{
	return co->map + pycoro_page();
}

/* Leaves the coroutine for its resumer (`last`: it will never be resumed again). */
static void pycoro_to_caller(pycoro_t *co, bool last)
{
#ifdef PYCORO_ASAN
	__sanitizer_start_switch_fiber(last ? NULL : &co->fake, co->caller_base, co->caller_size);
#endif
#ifdef PYCORO_TSAN
	__tsan_switch_to_fiber(co->caller_fiber, 0);
#endif
	if (last) {
		setcontext(&co->caller);
		abort(); /* setcontext does not return */
	}
	swapcontext(&co->ctx, &co->caller);
#ifdef PYCORO_ASAN
	__sanitizer_finish_switch_fiber(co->fake, &co->caller_base, &co->caller_size);
#endif
}

static void pycoro_entry(void)
{
	pycoro_t *co = pycoro_starting;
#ifdef PYCORO_ASAN
	__sanitizer_finish_switch_fiber(NULL, &co->caller_base, &co->caller_size);
#endif
	co->fn(co->arg);
	co->finished = true;
	pycoro_to_caller(co, true);
}

/* getcontext returns twice in principle: kept apart so no caller's local is at stake */
static __attribute__((noinline)) int pycoro_prepare(pycoro_t *co)
{
	if (getcontext(&co->ctx))
		return -1;
	co->ctx.uc_stack.ss_sp = pycoro_stack_base(co);
	co->ctx.uc_stack.ss_size = PYCORO_STACK_BYTES;
	co->ctx.uc_link = NULL;
	makecontext(&co->ctx, pycoro_entry, 0);
	return 0;
}

pycoro_t *dalic_pycoro_new(pycoro_fn_t fn, void *arg)
{
	pycoro_t *co = calloc(1, sizeof *co);
	if (!co)
		return NULL;
	size_t page = pycoro_page();
	co->map_size = PYCORO_STACK_BYTES + page;
	void *m = mmap(NULL, co->map_size, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (m == MAP_FAILED) {
		free(co);
		return NULL;
	}
	co->map = m;
	/* the guard page turns a stack overflow into a fault instead of silent corruption */
	mprotect(co->map, page, PROT_NONE);
	co->fn = fn;
	co->arg = arg;
	if (pycoro_prepare(co)) {
		dalic_pycoro_free(co);
		return NULL;
	}
#ifdef PYCORO_TSAN
	co->fiber = __tsan_create_fiber(0);
#endif
	return co;
}

bool dalic_pycoro_resume(pycoro_t *co)
{
	if (co->finished)
		return true;
	pycoro_starting = co;
#ifdef PYCORO_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, pycoro_stack_base(co), PYCORO_STACK_BYTES);
#endif
#ifdef PYCORO_TSAN
	co->caller_fiber = __tsan_get_current_fiber();
	__tsan_switch_to_fiber(co->fiber, 0);
#endif
	swapcontext(&co->caller, &co->ctx);
#ifdef PYCORO_ASAN
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
	return co->finished;
}

void dalic_pycoro_yield(pycoro_t *co)
{
	pycoro_to_caller(co, false);
}

uintptr_t dalic_pycoro_stack_top(const pycoro_t *co)
{
	return (uintptr_t)(pycoro_stack_base(co) + PYCORO_STACK_BYTES);
}

void dalic_pycoro_scan(const pycoro_t *co, void (*fn)(void *ctx, const void *p, size_t n),
                       void *ctx)
{
	if (co->finished)
		return;
	fn(ctx, &co->ctx, sizeof co->ctx);
	uintptr_t base = (uintptr_t)pycoro_stack_base(co), top = dalic_pycoro_stack_top(co);
	uintptr_t sp = base;
#if defined(__x86_64__)
	sp = (uintptr_t)co->ctx.uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
	sp = (uintptr_t)co->ctx.uc_mcontext.sp;
#endif
	/* below the stack pointer: the x86-64 red zone (128 bytes), which a leaf may use */
	sp = sp >= base + 128 ? sp - 128 : base;
	if (sp < base || sp >= top) /* not switched out yet: the whole stack */
		sp = base;
	sp &= ~(uintptr_t)(sizeof(void *) - 1);
	fn(ctx, (const void *)sp, top - sp);
}

void dalic_pycoro_free(pycoro_t *co)
{
	if (!co)
		return;
#ifdef PYCORO_TSAN
	if (co->fiber)
		__tsan_destroy_fiber(co->fiber);
#endif
	if (co->map)
		munmap(co->map, co->map_size);
	free(co);
}
