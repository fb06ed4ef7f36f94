# segmentation.random_object_bbox on label maps made from photos (crop, then value / 64: labels
# 0..3): DALI's draws for the same seed in every format, with class output, classes and
# class_weights, ignore_class with k_largest, threshold with foreground_prob, a 3-D map whose
# classes include 0 (the background moves to -1), a nonzero background with ignore_class,
# and bool / int32 / uint16 maps.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=77)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    img = fn.crop(fn.decoders.image(jpegs), crop=(24, 32))
    labels3 = fn.cast(img / 64, dtype=types.UINT8)
    labels = labels3[:, :, 0]
    robb = fn.segmentation.random_object_bbox
    a = robb(labels)
    b = robb(labels, format="box", output_class=True)
    c = robb(labels, format="start_end", classes=[1, 3], class_weights=[0.3, 0.7],
             output_class=True)
    d = robb(labels, ignore_class=True, k_largest=2)
    e = robb(labels, threshold=[3, 3], foreground_prob=0.7, format="box", output_class=True)
    f = robb(labels3, classes=[0, 2], output_class=True, format="box")
    g = robb(labels, background=1, ignore_class=True, format="box")
    h = robb(fn.cast(labels > 1, dtype=types.BOOL), format="box")
    i = robb(fn.cast(labels, dtype=types.INT32), class_weights=[1, 0, 2], format="box",
             output_class=True)
    j = robb(fn.cast(labels, dtype=types.UINT16), k_largest=1, threshold=[2, 1], format="box")
    return (*a, *b, *c, *d, *e, *f, g, h, *i, j)


pipe = oracle_pipe()
