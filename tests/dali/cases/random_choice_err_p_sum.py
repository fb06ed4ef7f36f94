# oracle: error=Sum of probabilities must be 1.0, but got 1.1 for sample: 0.
# random.choice: the probabilities sum to 1 (within 1e-4).
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.choice(fn.random.uniform(shape=[2]), p=[0.5, 0.6])


pipe = oracle_pipe()
