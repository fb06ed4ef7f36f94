# oracle: error=Unsupported number of dimensions 7
# Transforms have at most 6 dimensions.
from nvidia.dali import pipeline_def, fn

T = fn.transforms


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    return T.translation(offset=[1, 2, 3, 4, 5, 6, 7])


pipe = oracle_pipe()
