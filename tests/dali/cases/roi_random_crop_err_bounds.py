# oracle: error=ROI can't be out of bounds. Got roi_start[10], roi_end[120], sample_shape[100], for d=1
# roi_random_crop: the ROI lies within in_shape.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.roi_random_crop(crop_shape=[4, 4], roi_start=[0, 10], roi_shape=[5, 110],
                              in_shape=[100, 100])


pipe = oracle_pipe()
