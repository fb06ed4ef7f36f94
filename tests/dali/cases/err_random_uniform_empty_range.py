# oracle: error=Invalid range [1, 1).
# random.uniform needs range[1] > range[0].
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.uniform(range=[1.0, 1.0])


pipe = oracle_pipe()
