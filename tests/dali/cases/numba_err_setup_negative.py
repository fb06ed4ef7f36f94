# oracle: error=is negative
# oracle: checks=outputs
from nvidia.dali import pipeline_def, fn, types
from nvidia.dali.plugin.numba.fn import numba_function


def bad_setup(outs, ins):
    for i in range(len(outs[0])):
        outs[0][i][0] = -1


def noop_run(out0, in0):
    pass


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    jpegs, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return numba_function(jpegs, run_fn=noop_run, setup_fn=bad_setup, out_types=[types.UINT8],
                          in_types=[types.UINT8], outs_ndim=[1], ins_ndim=[1])


pipe = oracle_pipe()
