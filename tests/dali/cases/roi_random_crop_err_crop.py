# oracle: error=Cropping shape can't be bigger than the input shape. Got: crop_shape[150] and sample_shape[100] for d=0
# roi_random_crop: the window fits the input.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.roi_random_crop(crop_shape=[150, 4], roi_start=[0, 10], roi_shape=[5, 10],
                              in_shape=[100, 100])


pipe = oracle_pipe()
