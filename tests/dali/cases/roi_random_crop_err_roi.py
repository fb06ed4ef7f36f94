# oracle: error=ROI can't be out of bounds
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def roi_pipe():
    return fn.roi_random_crop(crop_shape=[4, 4], roi_start=[1, 1], roi_shape=[50, 3],
                              in_shape=[30, 30])


pipe = roi_pipe()
