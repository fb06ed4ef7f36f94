# oracle: error=Unsupported input type
# brightness_contrast refuses float16 input (DALI supports uint8, int16, int32, float).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.brightness_contrast(fn.cast(images, dtype=types.FLOAT16), contrast=2.0)


pipe = oracle_pipe()
