/* Data types: DALI's numbering (include/dalic.h), names, classes, element conversion. */
#ifndef DALIC_ENGINE_DTYPE_H
#define DALIC_ENGINE_DTYPE_H

#include "dalic.h"

/* Parses "FLOAT", "float32", "types.FLOAT", "DALIDataType.UINT8", "uint8"... -> NO_TYPE if
 * not a dtype name. */
dalic_dtype_t dalic_dtype_parse(const char *name);
/* numpy-style short name: "uint8", "float32", "bool" ... (used in .npy and expressions). */
const char *dalic_dtype_short(dalic_dtype_t t);
bool dalic_dtype_is_numeric(dalic_dtype_t t);
bool dalic_dtype_is_float(dalic_dtype_t t);
bool dalic_dtype_is_signed(dalic_dtype_t t);   /* signed integers and floats */
bool dalic_dtype_is_integral(dalic_dtype_t t); /* integers and bool */

/* Element i of a numeric array of type t, as double / int64 (exact for integers). */
double dalic_load_f64(dalic_dtype_t t, const void *base, int64_t i);
int64_t dalic_load_i64(dalic_dtype_t t, const void *base, int64_t i);
/* Stores v into element i converting like DALI's ConvertSat: floats to integers round half
 * away from zero and saturate; NaN becomes 0. */
void dalic_store_sat(dalic_dtype_t t, void *base, int64_t i, double v);
void dalic_store_i64_sat(dalic_dtype_t t, void *base, int64_t i, int64_t v);

/* float16 <-> float32 (IEEE half, round to nearest even). */
float dalic_half_to_float(uint16_t h);
uint16_t dalic_float_to_half(float f);

#endif
