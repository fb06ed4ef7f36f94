# oracle: error=Input size less than zero not supported
# A negative extent.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.uniform(shape=[2, -1])


pipe = oracle_pipe()
