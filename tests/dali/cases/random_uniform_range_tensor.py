# random.uniform with a per-sample range ([lo, hi) built from another operator's draws) and an
# output shape from a shape-like input.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    lo = fn.random.uniform(range=[-5.0, 5.0], shape=[2])
    rng = lo * types.Constant([1.0, 0.0]) + types.Constant([0.0, 7.0])
    like = fn.random.normal(shape=[2, 2])
    return fn.random.uniform(range=rng, shape=[6]), fn.random.uniform(like, range=rng), rng


pipe = oracle_pipe()
