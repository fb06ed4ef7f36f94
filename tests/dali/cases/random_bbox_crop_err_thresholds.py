# oracle: error=Threshold value must be within the range [0.0, 1.0]. Received: 1.5
# random_bbox_crop: thresholds.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5], shape=[1, 4])
    return tuple(fn.random_bbox_crop(boxes, thresholds=[0.2, 1.5]))


pipe = oracle_pipe()
