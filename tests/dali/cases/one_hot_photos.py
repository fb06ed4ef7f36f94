# one_hot of a photo's pixel classes (value // 64 through a lookup table) along a new last
# axis and before H, float labels truncated, and the class axis named in the layout.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    small = fn.crop(images, crop=(6, 5))
    keys = list(range(256))
    classes = fn.lookup_table(small, keys=keys, values=[k // 64 for k in keys],
                              dtype=types.INT32)
    scaled = fn.lookup_table(small, keys=keys, values=[k / 70.0 - 0.5 for k in keys])
    return (fn.one_hot(classes, num_classes=4, axis_name="K"),
            fn.one_hot(classes, num_classes=3, axis=0, dtype=types.UINT8),
            fn.one_hot(scaled, num_classes=4, axis=2))


pipe = oracle_pipe()
