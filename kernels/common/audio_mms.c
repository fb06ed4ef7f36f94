/* nonsilent_region's float moving mean square, several reset segments at a time (see
 * audio_mms.h). Each lane repeats the one-segment loop's operations in its order; lanes only
 * interleave them. */
#include "kernels/common/audio_mms.h"

#define AUDIO_MMS_L DALIC_AUDIO_MMS_LANES

/* One running step of lane j: position p[j] + 1 enters, the square leaving the window goes. */
static inline void audio_mms_step(const float *x, int64_t window, float mean, float *out,
                                  float *sum, int64_t *p)
{
	int64_t at = ++*p, wb = at - window + 1;
	if (wb > 0)
		*sum -= x[wb - 1] * x[wb - 1];
	*sum += x[at] * x[at];
	out[at] = *sum * mean;
}

void dalic_audio_mms_f32(const float *x, int64_t n, int64_t window, int64_t reset, float mean,
                         float *out, int lanes)
{
	float sum[AUDIO_MMS_L];
	int64_t q[AUDIO_MMS_L], qend[AUDIO_MMS_L], p[AUDIO_MMS_L], pend[AUDIO_MMS_L];
	if (lanes < 1 || lanes > AUDIO_MMS_L)
		lanes = AUDIO_MMS_L;
	for (int64_t g = 0; g < n;) {
		int used = 0;
		for (; used < lanes && g < n; used++) { /* segment starts: g, then past each end */
			int64_t wb = g - window + 1;
			sum[used] = 0;
			q[used] = wb > 0 ? wb : 0;
			qend[used] = g + 1;
			p[used] = g;
			pend[used] = g + reset < n - 1 ? g + reset : n - 1;
			g = pend[used] + 1;
		}
		/* each window's sum from scratch; four full lanes in registers while all run */
		if (used == AUDIO_MMS_L) {
			float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
			int64_t common = qend[0] - q[0];
			for (int j = 1; j < AUDIO_MMS_L; j++)
				common = qend[j] - q[j] < common ? qend[j] - q[j] : common;
			const float *x0 = x + q[0], *x1 = x + q[1], *x2 = x + q[2], *x3 = x + q[3];
			for (int64_t k = 0; k < common; k++) {
				s0 += x0[k] * x0[k];
				s1 += x1[k] * x1[k];
				s2 += x2[k] * x2[k];
				s3 += x3[k] * x3[k];
			}
			sum[0] = s0, sum[1] = s1, sum[2] = s2, sum[3] = s3;
			for (int j = 0; j < AUDIO_MMS_L; j++)
				q[j] += common;
		}
		for (int j = 0; j < used; j++) {
			for (; q[j] < qend[j]; q[j]++)
				sum[j] += x[q[j]] * x[q[j]];
			out[p[j]] = sum[j] * mean;
		}
		/* the running sums */
		if (used == AUDIO_MMS_L) {
			float s0 = sum[0], s1 = sum[1], s2 = sum[2], s3 = sum[3];
			int64_t common = pend[0] - p[0];
			for (int j = 1; j < AUDIO_MMS_L; j++)
				common = pend[j] - p[j] < common ? pend[j] - p[j] : common;
			for (int64_t k = 0; k < common; k++) {
				audio_mms_step(x, window, mean, out, &s0, &p[0]);
				audio_mms_step(x, window, mean, out, &s1, &p[1]);
				audio_mms_step(x, window, mean, out, &s2, &p[2]);
				audio_mms_step(x, window, mean, out, &s3, &p[3]);
			}
			sum[0] = s0, sum[1] = s1, sum[2] = s2, sum[3] = s3;
		}
		for (int j = 0; j < used; j++)
			while (p[j] < pend[j])
				audio_mms_step(x, window, mean, out, &sum[j], &p[j]);
	}
}
