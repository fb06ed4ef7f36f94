# oracle: error=`scaling` range must be positive and min <= max. Got: 0.9, 0.5
# random_bbox_crop: scaling.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5], shape=[1, 4])
    return tuple(fn.random_bbox_crop(boxes, scaling=[0.9, 0.5]))


pipe = oracle_pipe()
