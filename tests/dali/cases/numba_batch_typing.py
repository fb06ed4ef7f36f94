# oracle: checks=outputs
# numba_function on the whole batch (batch_processing=True), two inputs and two outputs, no
# setup_fn (outputs take the inputs' shapes and types), and numba's typing: an element of a
# uint8 array is an int64 scalar (no wrap before the store), an array times a literal is an
# int64 array, the store into uint8 wraps.
import numba
from nvidia.dali import pipeline_def, fn, types
from nvidia.dali.plugin.numba.fn import numba_function


@numba.njit
def halve_sum(a, b):
    return (a + b) // 2


def batch_run(out0_samples, out1_samples, in0_samples, in1_samples):
    for out0, out1, in0, in1 in zip(out0_samples, out1_samples, in0_samples, in1_samples):
        out0[:] = in0 * 3 // 4
        for i in range(in0.shape[0]):
            for j in range(in0.shape[1]):
                out1[i, j] = halve_sum(in1[i, j], in1[i, j] * 2) - 7


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=7)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    images = fn.resize(fn.decoders.image(jpegs, output_type=types.GRAY), resize_x=7, resize_y=4)
    flat = fn.reshape(images, shape=[4, 7])
    levels = fn.cast(flat, dtype=types.INT16)
    halved, shifted = numba_function(flat, levels, run_fn=batch_run, batch_processing=True,
                                     out_types=[types.UINT8, types.INT16],
                                     in_types=[types.UINT8, types.INT16], outs_ndim=[2, 2],
                                     ins_ndim=[2, 2])
    return halved, shifted


pipe = oracle_pipe()
