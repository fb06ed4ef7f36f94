/* DALI's normalizing audio conversions (see audio_convert.h). */
#include "kernels/common/audio_convert.h"

#include "kernels/common/sat_cast.h"

#include <string.h>

bool dalic_audio_norm_type(dalic_dtype_t t)
{
	switch (t) {
	case DALIC_INT8:
	case DALIC_UINT8:
	case DALIC_INT16:
	case DALIC_UINT16:
	case DALIC_INT32:
	case DALIC_UINT32:
	case DALIC_FLOAT:
		return true;
	default:
		return false;
	}
}

/* value * (float(1) / max) with max converted to float first, as C++ does. */
#define AUDIO_CONVERT_IN(CT, MAX)                                                                  \
	do {                                                                                       \
		const CT *s = src;                                                                 \
		const float k = 1.0f / (float)(MAX);                                               \
		for (int64_t i = 0; i < n; i++)                                                    \
			dst[i] = (float)s[i] * k;                                                  \
	} while (0)

void dalic_audio_to_float_norm(float *dst, dalic_dtype_t from, const void *src, int64_t n)
{
	switch (from) {
	case DALIC_INT8:
		AUDIO_CONVERT_IN(int8_t, INT8_MAX);
		break;
	case DALIC_UINT8:
		AUDIO_CONVERT_IN(uint8_t, UINT8_MAX);
		break;
	case DALIC_INT16:
		AUDIO_CONVERT_IN(int16_t, INT16_MAX);
		break;
	case DALIC_UINT16:
		AUDIO_CONVERT_IN(uint16_t, UINT16_MAX);
		break;
	case DALIC_INT32:
		AUDIO_CONVERT_IN(int32_t, INT32_MAX);
		break;
	case DALIC_UINT32:
		AUDIO_CONVERT_IN(uint32_t, UINT32_MAX);
		break;
	case DALIC_FLOAT:
		memcpy(dst, src, (size_t)n * sizeof *dst);
		break;
	default:
		break;
	}
}

#define AUDIO_CONVERT_OUT(CT, STORE)                                                               \
	do {                                                                                       \
		CT *d = dst;                                                                       \
		for (int64_t i = 0; i < n; i++)                                                    \
			d[i] = STORE;                                                              \
	} while (0)

void dalic_audio_from_float_norm(dalic_dtype_t to, void *dst, const float *src, int64_t n)
{
	switch (to) {
	case DALIC_INT8:
		AUDIO_CONVERT_OUT(int8_t, dalic_sat_f2i8(src[i] * 127.0f));
		break;
	case DALIC_UINT8:
		AUDIO_CONVERT_OUT(uint8_t, dalic_sat_f2u8(src[i] * 255.0f));
		break;
	case DALIC_INT16:
		AUDIO_CONVERT_OUT(int16_t, dalic_sat_f2i16(src[i] * 32767.0f));
		break;
	case DALIC_UINT16:
		AUDIO_CONVERT_OUT(uint16_t, dalic_sat_f2u16(src[i] * 65535.0f));
		break;
	case DALIC_INT32:
		AUDIO_CONVERT_OUT(int32_t, dalic_sat_f2i32(src[i] * (float)INT32_MAX));
		break;
	case DALIC_UINT32:
		AUDIO_CONVERT_OUT(uint32_t,
		                  DALIC_SAT_F2WIDE(uint32_t, 0, UINT32_MAX, src[i] * (float)UINT32_MAX));
		break;
	case DALIC_FLOAT:
		memcpy(dst, src, (size_t)n * sizeof *src);
		break;
	default:
		break;
	}
}

void dalic_audio_downmix(float *out, const float *in, int64_t frames, int channels)
{
	const float w = 1.0f / (float)channels;
	for (int64_t f = 0; f < frames; f++, in += channels) {
		float sum = in[0] * w;
		for (int c = 1; c < channels; c++)
			sum += in[c] * w;
		out[f] = sum;
	}
}
