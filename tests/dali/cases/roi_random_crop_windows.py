# roi_random_crop: windows placed around ROIs given per sample (argument inputs) and as
# constants, bounded by in_shape, by an input's shape, and unbounded; DALI's draws for the seed.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=1234)
def roi_pipe():
    start = fn.random.uniform(range=[0, 40], shape=[2], dtype=types.INT32)
    a = fn.roi_random_crop(crop_shape=[20, 20], roi_start=start, roi_shape=[30, 5],
                           in_shape=[100, 100])
    b = fn.roi_random_crop(crop_shape=[8, 30], roi_start=[10, 10], roi_shape=[40, 20])
    img = fn.random.uniform(shape=[64, 96, 3], dtype=types.UINT8)
    c = fn.roi_random_crop(img, crop_shape=[32, 32, 3], roi_start=[10, 20, 0],
                           roi_end=[30, 70, 3], seed=99)
    return a, b, c, start


pipe = roi_pipe()
