# oracle: error=Either ROI end or ROI shape should be defined, but not both
# roi_random_crop: roi_end and roi_shape exclude each other.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.roi_random_crop(crop_shape=[4, 4], roi_start=[0, 0], roi_end=[5, 5],
                              roi_shape=[5, 5])


pipe = oracle_pipe()
