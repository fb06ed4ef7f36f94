/* What every benchmark program shares: stop on a failed call (with dalic's message), and the
 * library's one monotonic clock in seconds. Benchmarks use the public API only. */
#ifndef DALIC_BENCH_BENCH_H
#define DALIC_BENCH_BENCH_H

#include "dalic.h"

#include <stdio.h>
#include <stdlib.h>

#define BENCH_CHECK(x)                                                                             \
	do {                                                                                       \
		if ((x)) {                                                                         \
			fprintf(stderr, "bench: %s: %s\n", #x, dalic_last_error());                \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

static inline double bench_now_s(void)
{
	return (double)dalic_clock_ns() * 1e-9;
}

#endif
