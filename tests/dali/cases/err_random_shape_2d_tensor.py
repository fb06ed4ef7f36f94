# oracle: error=Shapes must be 1D tensors with extent equal to shape dimensionality (or scalar)
# A per-sample shape is 1-D (or a scalar).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.uniform(shape=fn.cast(fn.random.uniform(range=[1.0, 3.0], shape=[2, 1]), dtype=types.INT32))


pipe = oracle_pipe()
