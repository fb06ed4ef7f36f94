# stack: photos and their flips along a new outer axis (named F), interleaved at axis=3 (C
# after C), and at -2 (a new axis before W, unnamed); labels stacked into pairs.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    flipped = fn.flip(images, horizontal=1)
    return (fn.stack(images, flipped, axis_name="F"), fn.stack(images, flipped, axis=3,
                                                              axis_name="D"),
            fn.stack(flipped, images, images, axis=-2), fn.stack(labels, labels))


pipe = oracle_pipe()
