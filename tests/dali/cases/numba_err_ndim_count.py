# oracle: error=Number of input types and input dimensions should match.
from nvidia.dali import pipeline_def, fn, types
from nvidia.dali.plugin.numba.fn import numba_function


def copy_run(out0, in0):
    out0[:] = in0


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    jpegs, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return numba_function(fn.decoders.image(jpegs), run_fn=copy_run, out_types=[types.UINT8],
                          in_types=[types.UINT8], outs_ndim=[3], ins_ndim=[3, 3])


pipe = oracle_pipe()
