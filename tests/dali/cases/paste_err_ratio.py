# oracle: error=ratio of less than 1 is not supported
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.paste(images, ratio=0.5, fill_value=0)


pipe = oracle_pipe()
