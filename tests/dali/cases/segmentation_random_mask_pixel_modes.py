# segmentation.random_mask_pixel: foreground by threshold and by value, any pixel (foreground=0),
# per-sample foreground flags, a mask without foreground (falls back to any pixel), a value the
# mask type cannot hold (uint8 and 258), float and bool masks, 3-D masks (HWC photos).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=59)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    img = fn.resize(fn.decoders.image(jpegs), size=[30, 40])
    mask = fn.reshape(img, layout="HWC")
    labels = fn.cast(img / 64, dtype=types.UINT8)
    fg = fn.cast(fn.random.coin_flip(), dtype=types.INT32)
    return (fn.segmentation.random_mask_pixel(mask, foreground=1, threshold=200.0),
            fn.segmentation.random_mask_pixel(labels, foreground=1, value=2),
            fn.segmentation.random_mask_pixel(labels, foreground=0),
            fn.segmentation.random_mask_pixel(labels, foreground=fg, value=3),
            fn.segmentation.random_mask_pixel(labels, foreground=1, value=17),
            fn.segmentation.random_mask_pixel(labels, foreground=1, value=258),
            fn.segmentation.random_mask_pixel(fn.cast(img, dtype=types.FLOAT) / 255.0,
                                              foreground=1, threshold=0.5),
            fn.segmentation.random_mask_pixel(fn.cast(labels, dtype=types.BOOL),
                                              foreground=1))


pipe = oracle_pipe()
