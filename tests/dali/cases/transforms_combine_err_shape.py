# oracle: error=All input transforms are expected to have the same shape
# transforms.combine: a 2-D and a 3-D transform.
from nvidia.dali import pipeline_def, fn

T = fn.transforms


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    return T.combine(T.translation(offset=[1.0, 2.0]), T.scale(scale=[2.0, 3.0, 4.0]))


pipe = oracle_pipe()
