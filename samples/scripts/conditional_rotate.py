# Conditional execution (enable_conditionals=True): each sample is rotated only when its
# coin flip says so; the other samples pass through untouched and the batch keeps its
# order. dalic lowers the `if` to _conditional split / merge operators as DALI does.
from nvidia.dali import pipeline_def, fn, types

image_dir = "samples/images"


@pipeline_def(batch_size=6, num_threads=2, device_id=None, seed=5, enable_conditionals=True)
def conditional_rotate_pipeline():
    jpegs, labels = fn.readers.file(file_root=image_dir)
    images = fn.decoders.image(jpegs, device="cpu")
    images = fn.resize(images, size=[128, 128])
    do_rotate = fn.random.coin_flip(probability=0.5, dtype=types.BOOL)
    if do_rotate:
        out = fn.rotate(images, angle=90, keep_size=True)
    else:
        out = images
    return out, images, do_rotate, labels


pipe = conditional_rotate_pipeline()
