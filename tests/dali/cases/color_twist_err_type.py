# oracle: error=Unsupported output type
# color_twist refuses an int8 output.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.color_twist(images, hue=10.0, dtype=types.INT8)


pipe = oracle_pipe()
