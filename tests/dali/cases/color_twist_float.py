# color_twist on float images (grey level 0.5 for floats) to float, and int16 out of uint8.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    f = fn.cast(images, dtype=types.FLOAT)
    return (fn.color_twist(f, hue=-50.0, saturation=0.3, contrast=1.5, brightness=0.8),
            fn.color_twist(images, hue=200.0, contrast=2.5, dtype=types.INT16))


pipe = oracle_pipe()
