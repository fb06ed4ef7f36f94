/*
 * The thread-local error message (status codes: engine/status.c). Every failing path in
 * dalic goes through dalic_fail(), so the message a user sees always comes from the place
 * that knew the details (operator, sample, file); callers up the stack may add context with
 * dalic_fail_wrap().
 */
#include "engine/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[DALIC_ERRMSG_MAX];

const char *dalic_last_error(void)
{
	return last_error;
}

int dalic_fail(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof last_error, fmt, ap);
	va_end(ap);
	return code;
}

int dalic_fail_wrap(int code, const char *fmt, ...)
{
	char prefix[512], old[DALIC_ERRMSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof prefix, fmt, ap);
	va_end(ap);
	memcpy(old, last_error, sizeof old);
	size_t n = strlen(prefix);
	if (n + 2 < sizeof last_error) {
		memcpy(last_error, prefix, n);
		memcpy(last_error + n, ": ", 2);
		size_t room = sizeof last_error - n - 3;
		size_t m = strlen(old);
		if (m > room)
			m = room;
		memcpy(last_error + n + 2, old, m);
		last_error[n + 2 + m] = 0;
	}
	return code;
}

void dalic_error_clear(void)
{
	last_error[0] = 0;
}

void dalic_error_save(char *buf, size_t n)
{
	snprintf(buf, n, "%s", last_error);
}
