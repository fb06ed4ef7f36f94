# oracle: error=Noise probability should be a value within [0.0, 1.0]. Got: 1.5
# noise.salt_and_pepper: prob in [0, 1].
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.noise.salt_and_pepper(fn.random.uniform(shape=[4, 4, 3]), prob=1.5)


pipe = oracle_pipe()
