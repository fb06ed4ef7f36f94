# oracle: error=end coordinates can't be before start coordinates
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.slice(images, rel_start=[0.5, 0.5], rel_end=[0.2, 0.9])


pipe = oracle_pipe()
