# oracle: error=The input describes a 3D transform but other arguments suggest a 2D transform
# A 2-D rotation (no axis) applied to a 3-D transform.
from nvidia.dali import pipeline_def, fn

T = fn.transforms


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    return T.rotation(T.translation(offset=[1.0, 2.0, 3.0]), angle=10.0)


pipe = oracle_pipe()
