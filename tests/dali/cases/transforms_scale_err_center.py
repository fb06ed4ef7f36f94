# oracle: error=expected shape 2 but got 3 values
# transforms.scale: a center of another length than the scale.
from nvidia.dali import pipeline_def, fn

T = fn.transforms


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    return T.scale(scale=[1.0, 2.0], center=[1.0, 2.0, 3.0])


pipe = oracle_pipe()
