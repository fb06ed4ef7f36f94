# oracle: dali_error=Expected 1. Got 3
# oracle: dalic_error=Expected 1 channels. Got 3
# color_space_conversion from GRAY needs one channel.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    rgb = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.color_space_conversion(rgb, image_type=types.GRAY, output_type=types.RGB)


pipe = oracle_pipe()
