# oracle: error=`bbox_layout` should be a permutation of `xyXY` or `xyWH`. Got: `xyXZ`
# random_bbox_crop: bbox_layout.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5], shape=[1, 4])
    return tuple(fn.random_bbox_crop(boxes, bbox_layout="xyXZ"))


pipe = oracle_pipe()
