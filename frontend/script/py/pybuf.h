/*
 * A growable text buffer (malloc'd, NUL-terminated) for the script front end: str() and
 * repr() of values, formatting, messages. Writes after an allocation failure are dropped
 * and `oom` stays set, so callers check once at the end. Also the UTF-8 helpers text needs
 * (strings are UTF-8; lengths, slices and widths count characters).
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYBUF_H
#define DALIC_FRONTEND_SCRIPT_PY_PYBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pybuf pybuf_t;
struct pybuf {
	char *s;
	size_t n, cap;
	bool oom;
	/* Optional: formats an instance of a user class (its __str__ / __repr__) where the
	 * formatter reaches one inside a container; returns false after an error, which
	 * `failed` then keeps (the interpreter's error is pending). */
	bool (*user_format)(pybuf_t *b, const void *v, bool repr);
	void *user_ctx;
	int failed;
};

void dalic_pybuf_put(pybuf_t *b, const char *s, size_t n);
void dalic_pybuf_puts(pybuf_t *b, const char *s);
/* `n` copies of character c. */
void dalic_pybuf_fill(pybuf_t *b, char c, size_t n);
void dalic_pybuf_printf(pybuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dalic_pybuf_free(pybuf_t *b);

/* UTF-8 bytes of code point cp (< 0x110000) into out[0..4); returns how many. */
int dalic_pybuf_utf8_encode(char *out, uint32_t cp);
/* Characters of UTF-8 text s[0..n). */
size_t dalic_pybuf_utf8_chars(const char *s, size_t n);
/* Bytes of the first `chars` characters of s[0..n) (all of it when shorter). */
size_t dalic_pybuf_utf8_prefix(const char *s, size_t n, int64_t chars);

#endif
