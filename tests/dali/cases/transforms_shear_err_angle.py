# oracle: error=Angle is expected to be in the range [-90, 90]
# transforms.shear refuses a shear angle outside [-90, 90].
from nvidia.dali import pipeline_def, fn

T = fn.transforms


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    return T.shear(angles=[91.0, 0.0])


pipe = oracle_pipe()
