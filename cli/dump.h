/* Writing output samples to files: .npy for every sample, .png too for uint8 images. */
#ifndef DALIC_CLI_DUMP_H
#define DALIC_CLI_DUMP_H

#include "dalic.h"

/* Writes sample `i` of `b` as a NumPy .npy file. */
int dalic_dump_npy(const char *path, const dalic_batch_t *b, int i);
/* Writes sample `i` as PNG when it is a uint8 HWC image with 1, 3 or 4 channels;
 * returns DALIC_EUNSUPPORTED (and writes nothing) otherwise. */
int dalic_dump_png(const char *path, const dalic_batch_t *b, int i);
/* All samples of all outputs of the current iteration into dir:
 * i<iteration>_o<output>_s<sample>.npy (+ .png). Creates dir. */
int dalic_dump_outputs(const char *dir, dalic_pipeline_t *p, int64_t iteration);

#endif
