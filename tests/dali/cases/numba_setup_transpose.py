# oracle: checks=outputs
# numba_function with a setup_fn that swaps H and W and a per-sample run_fn written as
# element loops (DALI's docstring example); numba cannot be serialized.
from nvidia.dali import pipeline_def, fn, types
from nvidia.dali.plugin.numba.fn.experimental import numba_function


def swap_hw_setup(outs, ins):
    out0 = outs[0]
    in0 = ins[0]
    perm = [1, 0, 2]
    for sample_idx in range(len(out0)):
        for d in range(len(perm)):
            out0[sample_idx][d] = in0[sample_idx][perm[d]]


def transpose_run(out0, in0):
    for i in range(in0.shape[0]):
        for j in range(in0.shape[1]):
            for c in range(in0.shape[2]):
                out0[j, i, c] = in0[i, j, c]


@pipeline_def(batch_size=3, num_threads=1, device_id=None, seed=7)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images", random_shuffle=True)
    images = fn.resize(fn.decoders.image(jpegs), resize_x=9, resize_y=5)
    return numba_function(images, run_fn=transpose_run, setup_fn=swap_hw_setup,
                          out_types=[types.UINT8], in_types=[types.UINT8],
                          outs_ndim=[3], ins_ndim=[3])


pipe = oracle_pipe()
