# oracle: error=Not supported ``threshold_type`` value: "foo". Supported values are: "iou", "overlap".
# random_bbox_crop: threshold_type.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5], shape=[1, 4])
    return tuple(fn.random_bbox_crop(boxes, threshold_type="foo"))


pipe = oracle_pipe()
