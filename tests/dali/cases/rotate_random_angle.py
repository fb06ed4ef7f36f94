# oracle: atol=1
# rotate by angles from random.uniform: the same seed gives DALI's angles, so the same output
# shapes and pixels (float resampling may differ by 1 LSB).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=21)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    small = fn.resize(images, resize_x=60, resize_y=40)
    angle = fn.random.uniform(range=[-45.0, 45.0])
    return fn.rotate(small, angle=angle, fill_value=0), angle


pipe = oracle_pipe()
