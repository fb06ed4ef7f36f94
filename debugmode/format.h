/*
 * Text formatting for debug mode (private): a small string builder and numpy's array2string,
 * which DALI's debug-mode printing is built on. An array is described by a view, so a batch of
 * same-shape samples can be printed as one stacked array without copying it: the array is cut
 * into `num_parts` equal parts (the samples), each at its own address.
 */
#ifndef DALIC_DEBUGMODE_FORMAT_H
#define DALIC_DEBUGMODE_FORMAT_H

#include "dalic.h"

#include <stdarg.h>
#include <stdbool.h>

typedef struct dalic_sb {
	char *s;
	size_t n, cap;
	bool oom; /* an append failed: the text is incomplete */
} dalic_debug_sb_t;

void dalic_debug_sb_add(dalic_debug_sb_t *b, const char *s);
void dalic_debug_sb_addn(dalic_debug_sb_t *b, const char *s, size_t n);
void dalic_debug_sb_printf(dalic_debug_sb_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dalic_debug_sb_spaces(dalic_debug_sb_t *b, int n);
/* Hands the text over (new, free()) or NULL after an allocation failure; resets b. */
char *dalic_debug_sb_take(dalic_debug_sb_t *b);

typedef struct dalic_debug_np_view {
	dalic_dtype_t dtype;
	int ndim;
	int64_t shape[DALIC_MAX_NDIM + 1];
	const void *const *parts; /* num_parts pointers, part_elems elements each */
	int num_parts;
	int64_t part_elems;
} dalic_debug_np_view_t;

enum { DALIC_NP_EDGEITEMS = 3, DALIC_NP_THRESHOLD = 1000, DALIC_NP_LINEWIDTH = 75 };

/* np.array2string(a, prefix=' ' * prefix_len, edgeitems=edgeitems) with numpy's defaults
 * (linewidth 75, threshold 1000, precision 8, floatmode 'maxprec'), appended to out. */
int dalic_debug_array2string(dalic_debug_sb_t *out, const dalic_debug_np_view_t *a, int prefix_len, int edgeitems);

/* str() of sample i of b as DALI prints a TensorCPU (malloc'd). */
int dalic_debug_format_tensor(const dalic_batch_t *b, int i, char **out);

#endif
