# oracle: atol=1
# resize to a random size per sample (random.uniform as argument input): DALI's sizes, so the
# same output shapes; linear resampling within 1 LSB.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=66)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    w = fn.random.uniform(range=[20.0, 60.0])
    return fn.resize(images, resize_x=w, resize_y=fn.random.uniform(range=[16.0, 40.0])), w


pipe = oracle_pipe()
