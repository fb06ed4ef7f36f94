# oracle: error=Anchor for dimension 1 (1.500000) is out of range [0.0, 1.0]
# resize_crop_mirror: crop positions within [0, 1].
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.resize_crop_mirror(images, resize_x=64, resize_y=64, crop=[32, 32], crop_pos_x=1.5)


pipe = oracle_pipe()
