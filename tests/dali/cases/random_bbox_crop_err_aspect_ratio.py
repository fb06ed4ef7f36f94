# oracle: error=`aspect_ratio` range argument should have 2 elements, or 6 elements in case of 3D bounding boxes. Got 3 elements
# random_bbox_crop: aspect_ratio.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5], shape=[1, 4])
    return tuple(fn.random_bbox_crop(boxes, aspect_ratio=[0.5, 1.0, 2.0]))


pipe = oracle_pipe()
