# oracle: error=Expected positive number of elements for sampling, got: 0 for sample: 0.
# random.choice needs at least one candidate.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.choice(fn.cast(fn.random.uniform(range=[0, 0.25]), dtype=types.INT32))


pipe = oracle_pipe()
