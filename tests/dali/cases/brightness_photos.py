# brightness and contrast on decoded photos, per-sample factors from the labels; float input.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    k = fn.cast(labels, dtype=types.FLOAT)
    f = fn.cast(images, dtype=types.FLOAT)
    return (fn.brightness(images, brightness=k, brightness_shift=0.05),
            fn.contrast(images, contrast=k), fn.contrast(f, contrast=0.4, contrast_center=k),
            fn.brightness(f, brightness=0.003, dtype=types.UINT8))


pipe = oracle_pipe()
