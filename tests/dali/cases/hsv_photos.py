# hsv on decoded photos: per-sample value from the labels (0, 1, 2); a float input still gives uint8 (hsv's
# dtype defaults to UINT8 in DALI).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    k = fn.cast(labels, dtype=types.FLOAT)
    a = fn.hsv(images, hue=-45.0, saturation=1.6, value=k)
    b = fn.hsv(fn.cast(images, dtype=types.FLOAT), hue=120.0, saturation=0.5, value=1.1)
    c = fn.hsv(images, saturation=0.0, dtype=types.FLOAT)
    return a, b, c


pipe = oracle_pipe()
