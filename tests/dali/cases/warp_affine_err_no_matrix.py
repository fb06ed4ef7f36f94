# oracle: error=`matrix` argument must be provided when transforms are not passed as a regular input.
# warp_affine needs a matrix or a transforms input.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", files=["cat/chelsea.jpg"])
    images = fn.crop(fn.decoders.image(jpegs, output_type=types.RGB), crop=[16, 16])
    return fn.warp_affine(images)


pipe = oracle_pipe()
