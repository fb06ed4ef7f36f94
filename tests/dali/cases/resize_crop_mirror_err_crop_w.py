# oracle: error=`crop_w` and `crop_h` arguments must be provided together
# resize_crop_mirror: crop_w needs crop_h.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.resize_crop_mirror(images, resize_x=64, resize_y=64, crop_w=32)


pipe = oracle_pipe()
