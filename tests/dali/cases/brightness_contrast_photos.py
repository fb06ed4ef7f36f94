# brightness_contrast on decoded photos: per-sample contrast and brightness from the labels,
# int16 and float outputs, a given contrast_center (exact: one float multiply-add, ConvertSat).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    k = fn.cast(labels, dtype=types.FLOAT)
    a = fn.brightness_contrast(images, contrast=k, brightness=1.3, brightness_shift=-0.1)
    b = fn.brightness_contrast(images, contrast=1.7, contrast_center=100.0, dtype=types.INT16)
    c = fn.brightness_contrast(images, brightness=k, brightness_shift=0.25, dtype=types.FLOAT)
    return a, b, c


pipe = oracle_pipe()
