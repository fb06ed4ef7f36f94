# oracle: error=requested type: int32 current buffer type: float
# A per-sample shape must be int32.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.uniform(shape=fn.random.uniform(range=[1.0, 3.0], shape=[2]))


pipe = oracle_pipe()
