/* The one monotonic clock every timing in dalic reads (executor, stats, debug mode, TUI). */
#ifndef DALIC_ENGINE_CLOCK_H
#define DALIC_ENGINE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t dalic_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#endif
