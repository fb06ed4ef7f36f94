# oracle: error=Argument `crop_shape` must be a 2D vector. Got 3 elements.
# random_bbox_crop: crop_dims.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5], shape=[1, 4])
    return tuple(fn.random_bbox_crop(boxes, crop_shape=[10, 10, 3], input_shape=[20, 20]))


pipe = oracle_pipe()
