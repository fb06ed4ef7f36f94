/*
 * DALIDataType helpers. The numbering is DALI's and is frozen (it is serialized). Conversion
 * follows DALI's ConvertSat: float -> integer rounds half away from zero, then clamps.
 */
#include "engine/dtype.h"

#include <math.h>
#include <string.h>
#include <strings.h>

static const struct {
	dalic_dtype_t t;
	const char *name, *short_name;
	size_t size;
} table[] = {
	{DALIC_UINT8, "UINT8", "uint8", 1},       {DALIC_UINT16, "UINT16", "uint16", 2},
	{DALIC_UINT32, "UINT32", "uint32", 4},    {DALIC_UINT64, "UINT64", "uint64", 8},
	{DALIC_INT8, "INT8", "int8", 1},          {DALIC_INT16, "INT16", "int16", 2},
	{DALIC_INT32, "INT32", "int32", 4},       {DALIC_INT64, "INT64", "int64", 8},
	{DALIC_FLOAT16, "FLOAT16", "float16", 2}, {DALIC_FLOAT, "FLOAT", "float32", 4},
	{DALIC_FLOAT64, "FLOAT64", "float64", 8}, {DALIC_BOOL, "BOOL", "bool", 1},
	{DALIC_STRING, "STRING", "string", 0},    {DALIC_IMAGE_TYPE, "IMAGE_TYPE", "image_type", 4},
	{DALIC_DATA_TYPE, "DATA_TYPE", "data_type", 4},
	{DALIC_INTERP_TYPE, "INTERP_TYPE", "interp_type", 4},
	{DALIC_TENSOR_LAYOUT, "TENSOR_LAYOUT", "tensor_layout", 0},
};
#define NTYPES (sizeof table / sizeof table[0])

size_t dalic_dtype_size(dalic_dtype_t t)
{
	switch (t) { /* hot: called per sample by batch sizing */
	case DALIC_UINT8:
	case DALIC_INT8:
	case DALIC_BOOL: return 1;
	case DALIC_UINT16:
	case DALIC_INT16:
	case DALIC_FLOAT16: return 2;
	case DALIC_UINT32:
	case DALIC_INT32:
	case DALIC_FLOAT:
	case DALIC_IMAGE_TYPE:
	case DALIC_DATA_TYPE:
	case DALIC_INTERP_TYPE: return 4;
	case DALIC_UINT64:
	case DALIC_INT64:
	case DALIC_FLOAT64: return 8;
	default: return 0;
	}
}

const char *dalic_dtype_name(dalic_dtype_t t)
{
	if (t == DALIC_NO_TYPE)
		return "NO_TYPE";
	for (size_t i = 0; i < NTYPES; i++)
		if (table[i].t == t)
			return table[i].name;
	return "UNKNOWN";
}

const char *dalic_dtype_short(dalic_dtype_t t)
{
	for (size_t i = 0; i < NTYPES; i++)
		if (table[i].t == t)
			return table[i].short_name;
	return "unknown";
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
	for (size_t i = 0; i < NTYPES; i++)
		if (!strcmp(name, table[i].name) || !strcmp(name, table[i].short_name))
			return table[i].t;
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

bool dalic_dtype_is_float(dalic_dtype_t t)
{
	return t == DALIC_FLOAT16 || t == DALIC_FLOAT || t == DALIC_FLOAT64;
}

bool dalic_dtype_is_integral(dalic_dtype_t t)
{
	return (t >= DALIC_UINT8 && t <= DALIC_INT64) || t == DALIC_BOOL;
}

bool dalic_dtype_is_numeric(dalic_dtype_t t)
{
	return dalic_dtype_is_integral(t) || dalic_dtype_is_float(t);
}

bool dalic_dtype_is_signed(dalic_dtype_t t)
{
	return (t >= DALIC_INT8 && t <= DALIC_INT64) || dalic_dtype_is_float(t);
}

float dalic_half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
	if (exp == 0) {
		if (man == 0) {
			bits = sign;
		} else { /* subnormal: normalise */
			exp = 127 - 15 + 1;
			while (!(man & 0x400)) {
				man <<= 1;
				exp--;
			}
			man &= 0x3ff;
			bits = sign | exp << 23 | man << 13;
		}
	} else if (exp == 31) {
		bits = sign | 0x7f800000 | man << 13;
	} else {
		bits = sign | (exp + 127 - 15) << 23 | man << 13;
	}
	float f;
	memcpy(&f, &bits, 4);
	return f;
}

uint16_t dalic_float_to_half(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000;
	int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
	uint32_t man = x & 0x7fffff;
	if (((x >> 23) & 0xff) == 0xff)
		return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (exp <= 0) {
		if (exp < -10)
			return (uint16_t)sign;
		man |= 0x800000;
		uint32_t shift = (uint32_t)(14 - exp);
		uint32_t half = man >> shift, rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
		if (rem > mid || (rem == mid && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
	uint32_t half = sign | (uint32_t)exp << 10 | man >> 13, rem = man & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
		half++;
	return (uint16_t)half;
}

double dalic_load_f64(dalic_dtype_t t, const void *base, int64_t i)
{
	switch (t) {
	case DALIC_UINT8: return ((const uint8_t *)base)[i];
	case DALIC_UINT16: return ((const uint16_t *)base)[i];
	case DALIC_UINT32: return ((const uint32_t *)base)[i];
	case DALIC_UINT64: return (double)((const uint64_t *)base)[i];
	case DALIC_INT8: return ((const int8_t *)base)[i];
	case DALIC_INT16: return ((const int16_t *)base)[i];
	case DALIC_INT32: return ((const int32_t *)base)[i];
	case DALIC_INT64: return (double)((const int64_t *)base)[i];
	case DALIC_FLOAT16: return dalic_half_to_float(((const uint16_t *)base)[i]);
	case DALIC_FLOAT: return ((const float *)base)[i];
	case DALIC_FLOAT64: return ((const double *)base)[i];
	case DALIC_BOOL: return ((const uint8_t *)base)[i] != 0;
	default: return 0;
	}
}

int64_t dalic_load_i64(dalic_dtype_t t, const void *base, int64_t i)
{
	switch (t) {
	case DALIC_UINT64: return (int64_t)((const uint64_t *)base)[i];
	case DALIC_INT64: return ((const int64_t *)base)[i];
	case DALIC_FLOAT16:
	case DALIC_FLOAT:
	case DALIC_FLOAT64: return (int64_t)dalic_load_f64(t, base, i);
	default: return (int64_t)dalic_load_f64(t, base, i);
	}
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void dalic_store_sat(dalic_dtype_t t, void *base, int64_t i, double v)
{
	if (t == DALIC_BOOL) { /* static_cast<bool>: any non-zero, NaN included, is true */
		((uint8_t *)base)[i] = v != 0;
		return;
	}
	if (dalic_dtype_is_integral(t)) {
		if (isnan(v))
			v = 0;
		v = round(v); /* half away from zero, as std::round */
	}
	switch (t) {
	case DALIC_UINT8: ((uint8_t *)base)[i] = (uint8_t)clampd(v, 0, 255); break;
	case DALIC_UINT16: ((uint16_t *)base)[i] = (uint16_t)clampd(v, 0, 65535); break;
	case DALIC_UINT32: ((uint32_t *)base)[i] = (uint32_t)clampd(v, 0, 4294967295.0); break;
	case DALIC_UINT64:
		((uint64_t *)base)[i] = v <= 0 ? 0 : v >= 18446744073709551615.0 ? UINT64_MAX
										: (uint64_t)v;
		break;
	case DALIC_INT8: ((int8_t *)base)[i] = (int8_t)clampd(v, -128, 127); break;
	case DALIC_INT16: ((int16_t *)base)[i] = (int16_t)clampd(v, -32768, 32767); break;
	case DALIC_INT32:
		((int32_t *)base)[i] = (int32_t)clampd(v, -2147483648.0, 2147483647.0);
		break;
	case DALIC_INT64:
		((int64_t *)base)[i] = v <= -9223372036854775808.0 ? INT64_MIN
				       : v >= 9223372036854775807.0 ? INT64_MAX
								     : (int64_t)v;
		break;
	case DALIC_FLOAT16: ((uint16_t *)base)[i] = dalic_float_to_half((float)v); break;
	case DALIC_FLOAT: ((float *)base)[i] = (float)v; break;
	case DALIC_FLOAT64: ((double *)base)[i] = v; break;
	case DALIC_BOOL: ((uint8_t *)base)[i] = v != 0; break;
	default: break;
	}
}

void dalic_store_i64_sat(dalic_dtype_t t, void *base, int64_t i, int64_t v)
{
	switch (t) {
	case DALIC_INT64: ((int64_t *)base)[i] = v; break;
	case DALIC_UINT64: ((uint64_t *)base)[i] = v < 0 ? 0 : (uint64_t)v; break;
	case DALIC_BOOL: ((uint8_t *)base)[i] = v != 0; break;
	default: dalic_store_sat(t, base, i, (double)v); break;
	}
}
