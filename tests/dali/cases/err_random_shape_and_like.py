# oracle: error=Providing argument "shape" is incompatible with providing a shape-like input
# A shape and a shape-like input together.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.normal(fn.random.uniform(shape=[2]), shape=[3])


pipe = oracle_pipe()
