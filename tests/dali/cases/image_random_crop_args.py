# decoders.image_random_crop with narrow area and ratio ranges (fallback windows), a single
# attempt, no attempts at all, an explicit seed, BGR output.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=77)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=True)
    a = fn.decoders.image_random_crop(jpegs, random_area=[0.5, 0.6],
                                      random_aspect_ratio=[2.0, 3.0], num_attempts=1)
    b = fn.decoders.image_random_crop(jpegs, random_area=[0.1], num_attempts=0, seed=31337,
                                      output_type=types.BGR)
    c = fn.decoders.image_random_crop(jpegs, random_aspect_ratio=[0.2, 5.0], seed=5)
    return a, b, c


pipe = oracle_pipe()
