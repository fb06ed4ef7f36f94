/* Error reporting: one status table (include/dalic.h) and a per-thread message buffer. */
#ifndef DALIC_ENGINE_ERROR_H
#define DALIC_ENGINE_ERROR_H

#include "dalic.h"

#define DALIC_ERRMSG_MAX 2048

/* Returns the status of `x` from the enclosing function when it is not DALIC_OK. */
#define DALIC_TRY(x)                                                                               \
	do {                                                                                       \
		int dalic_try_rc_ = (x);                                                           \
		if (dalic_try_rc_)                                                                 \
			return dalic_try_rc_;                                                      \
	} while (0)

/* Records a formatted message for dalic_last_error() on this thread; returns `code`. */
int dalic_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prepends "prefix: " to the current message (adds context as an error travels up). */
int dalic_fail_wrap(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dalic_error_clear(void);
/* Copies the calling thread's message into buf (used to move errors across threads). */
void dalic_error_save(char *buf, size_t n);

#endif
