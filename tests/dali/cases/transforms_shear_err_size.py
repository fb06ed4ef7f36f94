# oracle: error=Shear matrix must have D*(D-1) elements
# transforms.shear needs 2 (2-D) or 6 (3-D) factors.
from nvidia.dali import pipeline_def, fn

T = fn.transforms


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    return T.shear(shear=[0.1, 0.2, 0.3, 0.4])


pipe = oracle_pipe()
