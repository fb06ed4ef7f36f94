# oracle: error=should have the same number of dimensions or be a single element
# transforms.crop: arguments of lengths 3 and 2.
from nvidia.dali import pipeline_def, fn

T = fn.transforms


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    return T.crop(from_start=[1.0, 2.0, 3.0], to_end=[2.0, 3.0])


pipe = oracle_pipe()
