# oracle: dali_error=cannot be converted to dimension (0)
# oracle: dalic_error=cannot be converted to dimension (0)
# pad's per-sample fill_value must be a scalar; the labels are 1-element vectors.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.pad(images, fill_value=fn.cast(labels, dtype=types.FLOAT))


pipe = oracle_pipe()
