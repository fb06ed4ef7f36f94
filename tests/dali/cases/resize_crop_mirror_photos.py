# resize_crop_mirror and FastResizeCropMirror: sample photos resized (sizes, resize_shorter,
# not_smaller with max_size), cropped at several positions, mirrored per sample, with the
# default filters, NN magnification and float output; a crop larger than the resized image.
# oracle: iterations=3
# oracle: atol=1
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    flip = fn.cast(fn.reshape(labels, shape=[]), dtype=types.INT32)  # 0, 1, 2 by folder
    return (fn.resize_crop_mirror(images, resize_x=96, resize_y=80, crop=[64, 72]),
            fn.resize_crop_mirror(images, resize_shorter=70, crop=[48, 40], crop_pos_x=0.2,
                                  crop_pos_y=0.9, mirror=flip),
            fn.resize_crop_mirror(images, size=[60, 0], mode="not_smaller", max_size=[90, 90],
                                  crop_w=50, crop_h=30, mirror=3, dtype=types.FLOAT),
            fn.resize_crop_mirror(images, resize_x=40, resize_y=30, crop=[36, 50]),
            fn.fast_resize_crop_mirror(images, resize_x=64, resize_y=64, crop=[32, 32],
                                       mirror=1, rounding="truncate", crop_pos_x=0.3))


pipe = oracle_pipe()
