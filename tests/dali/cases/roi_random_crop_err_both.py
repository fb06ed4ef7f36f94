# oracle: error=Either ROI end or ROI shape should be defined, but not both
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def roi_pipe():
    return fn.roi_random_crop(crop_shape=[4], roi_start=[1], roi_end=[3], roi_shape=[2])


pipe = roi_pipe()
