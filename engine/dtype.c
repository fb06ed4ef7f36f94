/*
 * DALIDataType helpers. The numbering is DALI's and is frozen (it is serialized). Conversion
 * follows DALI's ConvertSat: float -> integer rounds half away from zero, then clamps.
 */
#include "engine/dtype.h"

#include <math.h>
#include <string.h>
#include <strings.h>

/* The table of dtype.h, checked against the public enum. */
#define DTYPE_CHECK_NUMERIC(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                        \
	_Static_assert(DALIC_##ID == NUM, "DALIC_" #ID " is not DALI's number");                  \
	_Static_assert(sizeof(CT) <= 8, #ID);
#define DTYPE_CHECK_OTHER(ID, NUM, SHORT, SIZE, CNAME)                                             \
	_Static_assert(DALIC_##ID == NUM, "DALIC_" #ID " is not DALI's number");
DALIC_DTYPES_NUMERIC(DTYPE_CHECK_NUMERIC)
DALIC_DTYPES_OTHER(DTYPE_CHECK_OTHER)

typedef struct dtype_row {
	dalic_dtype_t t;
	const char *name, *short_name, *npy, *cname;
} dtype_row_t;

static const dtype_row_t dtype_table[] = {
#define DTYPE_ROW_NUMERIC(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                          \
	{DALIC_##ID, #ID, SHORT, NPY, CNAME},
#define DTYPE_ROW_OTHER(ID, NUM, SHORT, SIZE, CNAME) {DALIC_##ID, #ID, SHORT, NULL, CNAME},
	DALIC_DTYPES_NUMERIC(DTYPE_ROW_NUMERIC) DALIC_DTYPES_OTHER(DTYPE_ROW_OTHER)
#undef DTYPE_ROW_NUMERIC
#undef DTYPE_ROW_OTHER
};
#define DTYPE_NTYPES (sizeof dtype_table / sizeof dtype_table[0])

static const dtype_row_t *dtype_row(dalic_dtype_t t)
{
	for (size_t i = 0; i < DTYPE_NTYPES; i++)
		if (dtype_table[i].t == t)
			return &dtype_table[i];
	return NULL;
}

size_t dalic_dtype_size(dalic_dtype_t t)
{
	switch (t) { /* hot: called per sample by batch sizing */
#define DTYPE_SIZE_NUMERIC(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                         \
	case DALIC_##ID: return sizeof(CT);
#define DTYPE_SIZE_OTHER(ID, NUM, SHORT, SIZE, CNAME)                                              \
	case DALIC_##ID: return SIZE;
		DALIC_DTYPES_NUMERIC(DTYPE_SIZE_NUMERIC)
		DALIC_DTYPES_OTHER(DTYPE_SIZE_OTHER)
#undef DTYPE_SIZE_NUMERIC
#undef DTYPE_SIZE_OTHER
	default: return 0;
	}
}

const char *dalic_dtype_name(dalic_dtype_t t)
{
	if (t == DALIC_NO_TYPE)
		return "NO_TYPE";
	const dtype_row_t *r = dtype_row(t);
	return r ? r->name : "UNKNOWN";
}

const char *dalic_dtype_short(dalic_dtype_t t)
{
	const dtype_row_t *r = dtype_row(t);
	return r ? r->short_name : "unknown";
}

const char *dalic_dtype_npy_descr(dalic_dtype_t t)
{
	const dtype_row_t *r = dtype_row(t);
	return r ? r->npy : NULL;
}

const char *dalic_dtype_cname(dalic_dtype_t t)
{
	const dtype_row_t *r = dtype_row(t);
	return r ? r->cname : dalic_dtype_name(t);
}

dalic_dtype_t dalic_dtype_parse(const char *name)
{
	static const char *prefixes[] = {"nvidia.dali.types.DALIDataType.", "types.DALIDataType.",
					 "DALIDataType.", "dali.types.", "types.", "np.",
					 "numpy."};
	for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++) {
		size_t n = strlen(prefixes[p]);
		if (!strncmp(name, prefixes[p], n)) {
			name += n;
			break;
		}
	}
	for (size_t i = 0; i < DTYPE_NTYPES; i++)
		if (!strcmp(name, dtype_table[i].name) || !strcmp(name, dtype_table[i].short_name))
			return dtype_table[i].t;
	if (!strcmp(name, "FLOAT32") || !strcasecmp(name, "float"))
		return DALIC_FLOAT;
	if (!strcmp(name, "float64") || !strcmp(name, "double") || !strcmp(name, "DOUBLE"))
		return DALIC_FLOAT64;
	if (!strcmp(name, "half") || !strcmp(name, "HALF"))
		return DALIC_FLOAT16;
	if (!strcmp(name, "bool_"))
		return DALIC_BOOL;
	return DALIC_NO_TYPE;
}

/* The class predicates of dtype.h per dtype; false for the non-numeric types. */
#define DTYPE_PRED(WHAT, ID, CLASS) case DALIC_##ID: return DALIC_DTYPE_IS(WHAT, CLASS);
#define DTYPE_IS_FLOAT(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME) DTYPE_PRED(FLOAT, ID, CLASS)
#define DTYPE_IS_SIGNED(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME) DTYPE_PRED(SIGNED, ID, CLASS)
#define DTYPE_IS_NUMERIC(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME) case DALIC_##ID: return true;

bool dalic_dtype_is_float(dalic_dtype_t t)
{
	switch (t) {
		DALIC_DTYPES_NUMERIC(DTYPE_IS_FLOAT)
	default: return false;
	}
}

bool dalic_dtype_is_numeric(dalic_dtype_t t)
{
	switch (t) {
		DALIC_DTYPES_NUMERIC(DTYPE_IS_NUMERIC)
	default: return false;
	}
}

bool dalic_dtype_is_integral(dalic_dtype_t t)
{
	return dalic_dtype_is_numeric(t) && !dalic_dtype_is_float(t);
}

bool dalic_dtype_is_signed(dalic_dtype_t t)
{
	switch (t) {
		DALIC_DTYPES_NUMERIC(DTYPE_IS_SIGNED)
	default: return false;
	}
}

float dalic_dtype_half_to_float(uint16_t h)
{
	return dalic_half_to_f32(h);
}

double dalic_dtype_load_f64(dalic_dtype_t t, const void *base, int64_t i)
{
	switch (t) {
#define DTYPE_LOAD_F64(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                             \
	case DALIC_##ID: return (double)DALIC_DTYPE_VALUE(CLASS, ((const CT *)base)[i]);
		DALIC_DTYPES_NUMERIC(DTYPE_LOAD_F64)
#undef DTYPE_LOAD_F64
	default: return 0;
	}
}

int64_t dalic_dtype_load_i64(dalic_dtype_t t, const void *base, int64_t i)
{
	switch (t) { /* integers directly, so 64-bit values stay exact */
#define DTYPE_LOAD_I64(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                             \
	case DALIC_##ID: return (int64_t)DALIC_DTYPE_VALUE(CLASS, ((const CT *)base)[i]);
		DALIC_DTYPES_NUMERIC(DTYPE_LOAD_I64)
#undef DTYPE_LOAD_I64
	default: return 0;
	}
}

/* NaN stored into an integer element (DALIC_NAN_TO_INT). */
static void dalic_dtype_store_nan(dalic_dtype_t t, void *base, int64_t i)
{
	switch (t) {
#define DTYPE_STORE_NAN(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                            \
	case DALIC_##ID: ((CT *)base)[i] = DALIC_NAN_TO_INT(CT, LO); break;
		DALIC_DTYPES_NUMERIC(DTYPE_STORE_NAN)
#undef DTYPE_STORE_NAN
	default: break;
	}
}

/* Stores v (already rounded, not NaN for integers) as CT, by class. */
#define DTYPE_STORE_INT(CT, LO, HI) ((CT *)base)[i] = DALIC_SAT_FROM_F64(CT, LO, HI, v)
#define DTYPE_STORE_UINT(CT, LO, HI) DTYPE_STORE_INT(CT, LO, HI)
#define DTYPE_STORE_SINT(CT, LO, HI) DTYPE_STORE_INT(CT, LO, HI)
#define DTYPE_STORE_BOOL(CT, LO, HI) ((CT *)base)[i] = v != 0
#define DTYPE_STORE_FLOAT(CT, LO, HI) ((CT *)base)[i] = (CT)v
#define DTYPE_STORE_HALF(CT, LO, HI) ((CT *)base)[i] = dalic_dtype_float_to_half((float)v)

void dalic_dtype_store_sat(dalic_dtype_t t, void *base, int64_t i, double v)
{
	if (t == DALIC_BOOL) { /* static_cast<bool>(round(v)): NaN is true */
		((uint8_t *)base)[i] = isnan(v) || round(v) != 0;
		return;
	}
	if (dalic_dtype_is_integral(t)) {
		if (isnan(v)) {
			dalic_dtype_store_nan(t, base, i);
			return;
		}
		v = round(v); /* half away from zero, as std::round */
	}
	switch (t) {
#define DTYPE_STORE(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                                \
	case DALIC_##ID: DTYPE_STORE_##CLASS(CT, LO, HI); break;
		DALIC_DTYPES_NUMERIC(DTYPE_STORE)
#undef DTYPE_STORE
	default: break;
	}
}

/* From int64: integers saturate exactly, floats convert through double as store_sat. */
#define DTYPE_STORE_I64_INT(CT, LO, HI) ((CT *)base)[i] = DALIC_SAT_FROM_I64(CT, LO, HI, v)
#define DTYPE_STORE_I64_UINT DTYPE_STORE_I64_INT
#define DTYPE_STORE_I64_SINT DTYPE_STORE_I64_INT
#define DTYPE_STORE_I64_BOOL(CT, LO, HI) ((CT *)base)[i] = v != 0
#define DTYPE_STORE_I64_FLOAT(CT, LO, HI) dalic_dtype_store_sat(t, base, i, (double)v)
#define DTYPE_STORE_I64_HALF DTYPE_STORE_I64_FLOAT

void dalic_dtype_store_i64_sat(dalic_dtype_t t, void *base, int64_t i, int64_t v)
{
	switch (t) {
#define DTYPE_STORE_I64(ID, NUM, SHORT, CT, CLASS, LO, HI, NPY, CNAME)                            \
	case DALIC_##ID: DTYPE_STORE_I64_##CLASS(CT, LO, HI); break;
		DALIC_DTYPES_NUMERIC(DTYPE_STORE_I64)
#undef DTYPE_STORE_I64
	default: break;
	}
}
