# copy: a deep copy of decoded photos (shape, layout and bytes kept).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.copy(images), fn.copy(labels)


pipe = oracle_pipe()
