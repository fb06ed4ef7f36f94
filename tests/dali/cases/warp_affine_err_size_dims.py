# oracle: error=output_size must specify same number of dimensions as the input (excluding channels)
# warp_affine: size is [H, W] for images.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    images = fn.crop(fn.decoders.image(jpegs, output_type=types.RGB), crop=[16, 16])
    return fn.warp_affine(images, matrix=[1.0, 0.0, 0.0, 0.0, 1.0, 0.0], size=[8.0])


pipe = oracle_pipe()
