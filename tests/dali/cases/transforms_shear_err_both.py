# oracle: error=One and only one of the following arguments is expected
# transforms.shear refuses shear and angles together.
from nvidia.dali import pipeline_def, fn

T = fn.transforms


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    return T.shear(shear=[0.1, 0.2], angles=[10.0, 20.0])


pipe = oracle_pipe()
