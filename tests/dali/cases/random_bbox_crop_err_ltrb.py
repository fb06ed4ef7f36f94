# oracle: error=`ltrb` and `bbox_layout` can't be provided at the same time.
# random_bbox_crop: ltrb.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5], shape=[1, 4])
    return tuple(fn.random_bbox_crop(boxes, ltrb=True, bbox_layout="xyXY"))


pipe = oracle_pipe()
