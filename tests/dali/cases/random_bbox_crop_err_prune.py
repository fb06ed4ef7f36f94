# oracle: error=`bbox_prune_threshold` must be in range `[0.0,1.0]`. Got: 1.5
# random_bbox_crop: prune.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5], shape=[1, 4])
    return tuple(fn.random_bbox_crop(boxes, bbox_prune_threshold=1.5))


pipe = oracle_pipe()
