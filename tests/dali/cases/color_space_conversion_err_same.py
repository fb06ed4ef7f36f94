# oracle: error=conversion not supported
# color_space_conversion from RGB to RGB is not a conversion DALI supports.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    rgb = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.color_space_conversion(rgb, image_type=types.RGB, output_type=types.RGB)


pipe = oracle_pipe()
