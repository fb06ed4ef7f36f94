# external_source(source=gen): a generator function defined in the module, called once when
# the pipeline is defined; every iteration takes its next batch (a list of arrays of varying
# shapes, ints and floats computed with numpy).
# oracle: checks=outputs
# oracle: iterations=4
import numpy as np
from nvidia.dali import pipeline_def, fn


def batches():
    for i in range(6):
        yield [np.arange(i + 1, dtype=np.int32) * (k + 1) for k in range(3)]


def floats():
    scale = np.float32(0.5)
    while True:
        yield np.ones((3, 2, 2), dtype=np.float32) * scale
        scale = scale * 2


@pipeline_def(batch_size=3, num_threads=1, device_id=None)
def oracle_pipe():
    a = fn.external_source(source=batches)
    b = fn.external_source(source=floats, layout="HW")
    return a * 2, b + 1


pipe = oracle_pipe()
