# oracle: error=The input describes a 2D transform but other arguments suggest a 3D transform
# An input transform of another dimensionality than the arguments.
from nvidia.dali import pipeline_def, fn

T = fn.transforms


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    return T.scale(T.translation(offset=[1.0, 2.0]), scale=[1.0, 2.0, 3.0])


pipe = oracle_pipe()
