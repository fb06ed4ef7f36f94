# oracle: error=Argument "p" expected shape 4 but got 3 values, which can't be interpreted as the expected shape.
# random.choice: one probability per candidate.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.random.choice(fn.random.uniform(shape=[4]), p=[0.5, 0.25, 0.25])


pipe = oracle_pipe()
