# oracle: error=Probabilities must be in range [0, 1], but got: 1.5 for sample: 0 at index 1.
# random.choice: each probability in [0, 1].
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.choice(fn.random.uniform(shape=[3]), p=[0.0, 1.5, -0.5])


pipe = oracle_pipe()
