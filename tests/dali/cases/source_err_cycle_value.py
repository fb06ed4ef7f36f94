# external_source: an unknown `cycle` value is DALI's ValueError when the pipeline is defined.
# oracle: error=Invalid value 'sometimes' for the argument `cycle`
import numpy as np
from nvidia.dali import pipeline_def, fn


def gen():
    yield [np.array([1], dtype=np.int32)]


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    return fn.external_source(source=gen, cycle="sometimes")


pipe = oracle_pipe()
