# oracle: error=`allow_no_crop` is incompatible with providing the crop shape explicitly
# random_bbox_crop: crop_no_crop.
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    boxes = fn.constant(fdata=[0.1, 0.1, 0.5, 0.5], shape=[1, 4])
    return tuple(fn.random_bbox_crop(boxes, crop_shape=[10, 10], input_shape=[20, 20], allow_no_crop=True))


pipe = oracle_pipe()
