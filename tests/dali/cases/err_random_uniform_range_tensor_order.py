# oracle: error=Invalid range
# A per-sample range is checked too: here hi < lo in every sample.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.uniform(range=fn.random.uniform(range=[0.0, 1.0], shape=[2]) * types.Constant([-1.0, 1.0]) - types.Constant([0.0, 5.0]))


pipe = oracle_pipe()
