# oracle: error=Inputs to bitwise operator `&` must be of integral type.
# Bitwise operators refuse floating-point inputs.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    x = fn.random.uniform(shape=[3])
    return fn.cast(x, dtype=types.INT32) & x


pipe = oracle_pipe()
