# cat: photos joined with their flips along W (axis_name), H (axis=0) and C (axis=-1); a
# batch of empty tensors is left out.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    flipped = fn.flip(images, horizontal=1)
    empty = fn.crop(images, crop_h=0, crop_w=0)
    return (fn.cat(images, flipped, axis_name="W"), fn.cat(flipped, images, images),
            fn.cat(images, flipped, axis=-1), fn.cat(images, empty, flipped, axis=1))


pipe = oracle_pipe()
