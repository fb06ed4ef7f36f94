# external_source: a callable source takes 0 or 1 positional arguments (DALI's TypeError).
# oracle: error=Found more than one positional argument
import numpy as np
from nvidia.dali import pipeline_def, fn


def two(info, extra):
    return [np.array([1], dtype=np.int32)]


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    return fn.external_source(source=two)


pipe = oracle_pipe()
