/*
 * Typed argument values: what an operator argument holds in the graph definition and the
 * protobuf. Kinds mirror the protobuf's element tags (int64 / float / string / bool); enums
 * (dtype, image type, interp type) are stored as int64, layouts as strings. A value is a
 * scalar (n == 1, !is_list) or a list (is_list, any n).
 */
#ifndef DALIC_ENGINE_VALUE_H
#define DALIC_ENGINE_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	DALIC_V_NONE = 0,
	DALIC_V_INT,
	DALIC_V_FLOAT,
	DALIC_V_BOOL,
	DALIC_V_STRING,
} dalic_vkind_t;

typedef struct dalic_value {
	dalic_vkind_t kind;
	bool is_list;
	int n;
	union {
		int64_t *i;
		double *f;
		bool *b;
		char **s;
		void *p;
	};
} dalic_value_t;

/* Constructors: fill *v with a new value (owned; free with dalic_value_free). */
int dalic_value_int(dalic_value_t *v, int64_t x);
int dalic_value_float(dalic_value_t *v, double x);
int dalic_value_bool(dalic_value_t *v, bool x);
int dalic_value_string(dalic_value_t *v, const char *x);
/* Lists: copies n elements; `kind` gives the element kind of an empty list. */
int dalic_value_list(dalic_value_t *v, dalic_vkind_t kind, int n, const void *elems);
int dalic_value_copy(dalic_value_t *dst, const dalic_value_t *src);
void dalic_value_free(dalic_value_t *v);
bool dalic_value_equal(const dalic_value_t *a, const dalic_value_t *b);

/* Element i as a number (ints, floats and bools convert; strings give 0). */
double dalic_value_get_f(const dalic_value_t *v, int i);
int64_t dalic_value_get_i(const dalic_value_t *v, int i);

/* Python-literal text: 3, 0.5, True, 'abc', [1, 2], None. Returns chars that would be
 * written (like snprintf). */
int dalic_value_format(const dalic_value_t *v, char *buf, size_t n);

#endif
