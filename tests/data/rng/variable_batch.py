# Batches of 3, 1 and 4 samples (the test feeds `data` with them): each run moves a random
# operator's generator on by the batch it produced.
from nvidia.dali import pipeline_def, fn, types
import numpy as np

SIZES = [3, 1, 4]


def rng_variable_batch_source(iteration):
    return [np.zeros([2], dtype=np.float32)] * SIZES[iteration % 3]


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=31)
def rng_variable_batch():
    data = fn.external_source(source=rng_variable_batch_source, name="data", batch=True,
                              dtype=types.FLOAT)
    return fn.random.coin_flip(data), fn.random.uniform(data), fn.random.normal(data)


pipe = rng_variable_batch()
