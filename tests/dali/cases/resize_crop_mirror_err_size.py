# oracle: error=Exactly one method of specifying size must be used
# resize_crop_mirror: one way to give the size.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.resize_crop_mirror(images, resize_x=64, resize_shorter=50, crop=[32, 32])


pipe = oracle_pipe()
