# Pattern: a custom CPU augmentation written for numba and run by DALI's numba_function
# plugin, as research repositories write one when no DALI operator fits: a `setup_fn` that
# computes the output shapes for the whole batch (here half the height and width), a
# `run_fn` of explicit element loops over the numpy views DALI hands it (a 2x2 box filter),
# and a helper compiled with `@njit` that the run function calls. The operator is imported
# from the plugin's older `fn.experimental` path, which DALI 2.4 keeps as an alias.
#     dalic run samples/scripts/real/numba_downscale.py -n 2
# oracle: checks=outputs
# (DALI cannot serialize numba_function: "Could not serialize the operator")
import numpy as np
from numba import njit
import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import pipeline_def
from nvidia.dali.plugin.numba.fn.experimental import numba_function


@njit
def box_mean(img, y, x, c):
    s = img[2 * y, 2 * x, c] + img[2 * y, 2 * x + 1, c]
    s += img[2 * y + 1, 2 * x, c] + img[2 * y + 1, 2 * x + 1, c]
    return (s + 2) // 4


def half_size_setup(outs, ins):
    out_shapes = outs[0]
    in_shapes = ins[0]
    for sample_idx in range(len(out_shapes)):
        out_shapes[sample_idx][0] = in_shapes[sample_idx][0] // 2
        out_shapes[sample_idx][1] = in_shapes[sample_idx][1] // 2
        out_shapes[sample_idx][2] = in_shapes[sample_idx][2]


def half_size_run(out0, in0):
    for y in range(out0.shape[0]):
        for x in range(out0.shape[1]):
            for c in range(out0.shape[2]):
                out0[y, x, c] = box_mean(in0, y, x, c)


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=12)
def downscale_pipe(data_dir="samples/images"):
    jpegs, labels = fn.readers.file(file_root=data_dir, random_shuffle=True, name="Reader")
    images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
    images = fn.resize(images, resize_shorter=24)
    images = fn.crop(images, crop=(20, 22))
    small = numba_function(images, run_fn=half_size_run, setup_fn=half_size_setup,
                           out_types=[types.UINT8], in_types=[types.UINT8],
                           outs_ndim=[3], ins_ndim=[3])
    return small, labels


pipe = downscale_pipe()
pipe.build()
