# oracle: error=Argument "roi_start" expected shape 2 but got 3 values, which can't be interpreted as the expected shape.
# roi_random_crop: roi_start has one value per window dimension.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.roi_random_crop(crop_shape=[4, 4], roi_start=[0, 10, 3], roi_shape=[5, 10])


pipe = oracle_pipe()
