/* The runtime heap of the script arena (frontend/script/py/pyarena.h): what the load made is
 * permanent, heap objects live while a root or a live object points into them, the others go
 * to free lists that later heap allocations take first (big ones are freed). */
#include "tests/testlib.h"

#include "frontend/script/py/pyarena.h"

#include <stdint.h>
#include <string.h>

TestSuite(script_heap, .timeout = 20);

static void heap_collect(pyarena_t *a, const void *root, size_t n)
{
	cr_assert_eq(dalic_pyarena_gc_begin(a), 0);
	if (root)
		dalic_pyarena_gc_scan(a, root, n);
	dalic_pyarena_gc_sweep(a);
}

Test(script_heap, reached_objects_stay_and_the_rest_is_reused)
{
	pyarena_t *a = dalic_pyarena_new(0);
	void **load = dalic_pyarena_alloc(a, 4 * sizeof(void *)); /* made by the load */
	dalic_pyarena_heap_enter(a);
	void **kept = dalic_pyarena_alloc(a, 64);
	unsigned char *big = dalic_pyarena_alloc_raw(a, 200 * 1024);
	void *dropped = dalic_pyarena_alloc(a, 48);
	unsigned char *dropped_big = dalic_pyarena_alloc_raw(a, 300 * 1024);
	cr_assert(kept && big && dropped && dropped_big);
	memset(dropped, 0xab, 48);
	load[0] = kept;       /* the load's object reaches `kept`... */
	kept[1] = big + 1000; /* ...which reaches into the middle of `big` */
	dalic_pyarena_heap_leave(a);
	size_t before = dalic_pyarena_used(a);
	heap_collect(a, NULL, 0);
	cr_expect_eq(dalic_pyarena_heap_live(a), 2);
	cr_expect_eq(dalic_pyarena_used(a), before - 48 - 300 * 1024);
	cr_expect_eq(big[0], 0); /* still ours: written below without a fault */
	big[0] = 1;
	/* the next heap object of that size takes the dropped one's place, zeroed */
	dalic_pyarena_heap_enter(a);
	unsigned char *again = dalic_pyarena_alloc(a, 40); /* rounds to 48 */
	dalic_pyarena_heap_leave(a);
	cr_expect_eq((void *)again, dropped);
	cr_expect_eq(again[40], 0);
	/* unreachable from the load once the load's pointer is gone; a root keeps it */
	load[0] = NULL;
	uintptr_t root = (uintptr_t)kept;
	heap_collect(a, &root, sizeof root);
	cr_expect_eq(dalic_pyarena_heap_live(a), 2); /* kept (from the root) and big */
	heap_collect(a, NULL, 0);
	cr_expect_eq(dalic_pyarena_heap_live(a), 0);
	dalic_pyarena_free(a);
}

Test(script_heap, outside_heap_mode_nothing_is_logged)
{
	pyarena_t *a = dalic_pyarena_new(0);
	dalic_pyarena_heap_enter(a);
	dalic_pyarena_heap_leave(a);
	void *p = dalic_pyarena_alloc(a, 32);
	cr_assert_not_null(p);
	heap_collect(a, NULL, 0);
	cr_expect_eq(dalic_pyarena_heap_live(a), 0);
	cr_expect_geq(dalic_pyarena_used(a), 32); /* plain bump memory is never collected */
	dalic_pyarena_free(a);
}
