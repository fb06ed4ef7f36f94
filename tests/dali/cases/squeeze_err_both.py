# oracle: error=Provided both ``axes`` and ``axis_names`` arguments
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.GRAY)
    return fn.squeeze(images, axes=[2], axis_names="C")


pipe = oracle_pipe()
