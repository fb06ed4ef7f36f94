/* Writing output samples to files: .npy for every sample, .png too for uint8 images. */
#ifndef DALIC_CLI_DUMP_H
#define DALIC_CLI_DUMP_H

#include "dalic.h"

/* Writes sample `i` of `b` as a NumPy .npy file. Prints the error. */
int dalic_cli_dump_npy(const char *path, const dalic_batch_t *b, int i);
/* Writes sample `i` as PNG when it is a uint8 HWC image with 1, 3 or 4 channels;
 * returns DALIC_EUNSUPPORTED (and writes nothing, prints nothing) otherwise. */
int dalic_cli_dump_png(const char *path, const dalic_batch_t *b, int i);

/* Output `o` of the iteration being dumped, or NULL when it has none. */
typedef const dalic_batch_t *(*dalic_cli_output_fn)(void *ctx, int o);
/* All samples of outputs 0..num-1 of one iteration into dir:
 * i<iteration>_o<output>_s<sample>.npy (+ .png), the same names for every engine so dumps
 * compare file by file. Creates dir. Prints the error. */
int dalic_cli_dump_outputs(const char *dir, int64_t iteration, int num, dalic_cli_output_fn get,
			   void *ctx);

#endif
