/*
 * Shared helpers of the image operator tests (tests/unit/test_img_*.c): libjpeg-turbo's
 * djpeg as the reference decoder, reader -> decoder pipelines, small image comparisons.
 */
#ifndef DALIC_TESTS_TESTLIB_IMAGE_H
#define DALIC_TESTS_TESTLIB_IMAGE_H

#include "tests/testlib.h"

typedef struct tl_image {
	int w, h, c;
	uint8_t *px; /* HWC */
} tl_image_t;

bool tl_have_djpeg(void);
/* Runs `djpeg <args> <path>` (PNM output) and parses the P5/P6 result. New px: free(). */
tl_image_t tl_djpeg(const char *args, const char *path);

/* A pipeline: readers.file over `files` (relative to `root`) -> `decoder` with output_type.
 * The decoder is named "Decoder"; output 0 is its output, output 1 the reader's bytes. */
dalic_pipeline_t *tl_decode_pipeline(const char *root, int n, const char **files,
                                     const char *decoder, int output_type, dalic_op_t **dec_out);

/* Sample i of a uint8 HWC batch as an image (borrowed pixels). */
tl_image_t tl_image_sample(const dalic_batch_t *b, int i);

/* The w x h window of `full` at (x, y), a new image (free its px). */
tl_image_t tl_image_cut(const tl_image_t *full, int x, int y, int w, int h);

/* Sample i of a uint8 HWC batch equals djpeg's RGB decode of samples/images/<file> cut to the
 * w x h window at (x, y), byte for byte (skips the test without djpeg). */
void tl_expect_djpeg_window(const dalic_batch_t *b, int i, const char *file, int x, int y, int w,
                            int h);

/* Largest absolute difference of two same-shaped images; counts pixels differing by more
 * than `tol` into *over (may be NULL). */
int tl_image_max_diff(const tl_image_t *a, const tl_image_t *b, int tol, long *over);

#endif
