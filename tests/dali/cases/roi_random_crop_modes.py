# roi_random_crop: windows smaller and larger than the ROI, unbounded, bounded by in_shape or by
# the input's shape, roi_end or roi_shape, per-sample ROIs and crop shapes, a dimension where the
# ROI is exactly the window (no draw).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=53)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    img = fn.decoders.image(jpegs)
    start = fn.cast(fn.random.uniform(range=[0, 50], shape=[2]), dtype=types.INT32)
    crop = fn.cast(fn.random.uniform(range=[20, 120], shape=[2]), dtype=types.INT32)
    return (fn.roi_random_crop(crop_shape=[10, 20, 3], roi_start=[30, 40, 0],
                               roi_shape=[50, 60, 3]),
            fn.roi_random_crop(crop_shape=[100, 200], roi_start=[30, 40], roi_end=[50, 60],
                               in_shape=[300, 250]),
            fn.roi_random_crop(img, crop_shape=[64, 64, 3], roi_start=[10, 20, 0],
                               roi_shape=[100, 30, 3]),
            fn.roi_random_crop(crop_shape=crop, roi_start=start, roi_shape=[40, 40]),
            fn.roi_random_crop(crop_shape=[5, 5], roi_start=start, roi_end=[90, 95],
                               in_shape=[100, 100]))


pipe = oracle_pipe()
