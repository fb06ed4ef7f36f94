# external_source: a generator object cannot be cycled (DALI's TypeError asks for the
# generator function instead).
# oracle: error=Cannot cycle through a generator
import numpy as np
from nvidia.dali import pipeline_def, fn


def gen():
    yield [np.array([1], dtype=np.int32)]


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    return fn.external_source(source=gen(), cycle="quiet")


pipe = oracle_pipe()
