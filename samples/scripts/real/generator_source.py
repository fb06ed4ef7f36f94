# Pattern: a generator function as the external source — the module yields batches it
# computes with numpy (here a synthetic regression set: inputs and targets, as quick
# experiments and tests in training repositories do), and `num_outputs=2` splits each
# (inputs, targets) tuple into two data nodes. DALI calls the function when the pipeline is
# defined and takes the next batch every iteration; `cycle="quiet"` starts it again at the
# end, so the data set is seen epoch after epoch.
#     dalic run samples/scripts/real/generator_source.py -n 6
# oracle: iterations=6
# oracle: checks=outputs
import numpy as np
from nvidia.dali import fn, pipeline_def, types

BATCH = 4
NUM_BATCHES = 4
weights = np.array([0.5, -1.25, 2.0], dtype=np.float32)


def regression_batches():
    for b in range(NUM_BATCHES):
        x = np.arange(BATCH * 3, dtype=np.float32).reshape(BATCH, 3) / (b + 1)
        y = (x * weights).sum(axis=1).reshape(BATCH, 1)
        yield x, y.astype(np.float32)


@pipeline_def(batch_size=BATCH, num_threads=1, device_id=None)
def regression_pipe():
    x, y = fn.external_source(source=regression_batches, num_outputs=2, cycle="quiet",
                              dtype=types.FLOAT)
    return x * 2.0, y


pipe = regression_pipe()
