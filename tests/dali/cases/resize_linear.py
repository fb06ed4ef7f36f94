# oracle: atol=1
# Resize with the default (triangular/linear) filter; float resampling may differ by 1 LSB.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.resize(images, resize_x=64, resize_y=48)


pipe = oracle_pipe()
