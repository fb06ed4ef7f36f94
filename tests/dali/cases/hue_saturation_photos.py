# hue and saturation on decoded photos (per-sample values from the labels, 0, 1, 2), and
# float16 out (DALI rounds float to half with ties away from zero).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    k = fn.cast(labels, dtype=types.FLOAT)
    return (fn.hue(images, hue=k), fn.saturation(images, saturation=k),
            fn.hue(images, hue=-170.0, dtype=types.FLOAT16))


pipe = oracle_pipe()
