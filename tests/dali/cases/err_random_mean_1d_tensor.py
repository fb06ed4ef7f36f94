# oracle: error=Input with dimension (1) cannot be converted to dimension (0)
# A per-sample mean is a scalar, not a 1-element list.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.normal(mean=fn.random.uniform(shape=[1]))


pipe = oracle_pipe()
