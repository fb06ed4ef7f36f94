# oracle: error=Axis 3 out of range. Expected range is [-3, 2] for a 3D input
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.pad(images, axes=[3])


pipe = oracle_pipe()
