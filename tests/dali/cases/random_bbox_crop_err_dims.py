# oracle: error=Unexpected number of dimensions: 4
# random_bbox_crop: dims.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5, 0.6, 0.6, 0.7, 0.7], shape=[1, 8])
    return tuple(fn.random_bbox_crop(boxes, thresholds=[0.0]))


pipe = oracle_pipe()
