# random.uniform with a pipeline seed: DALI's per-sample Philox streams.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=5, num_threads=1, device_id=None, seed=1234)
def oracle_pipe():
    return fn.random.uniform(range=[-1.0, 1.0], shape=[3])


pipe = oracle_pipe()
