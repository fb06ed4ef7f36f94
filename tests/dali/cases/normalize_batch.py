# normalize with batch statistics: per-channel mean and deviation across the whole batch of
# equally-sized images (crops), folded pairwise across samples as DALI does.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=5, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    im = fn.crop(im, crop=(120, 160))
    return (fn.normalize(im, batch=True, axis_names="HW"), fn.normalize(im, batch=True),
            fn.normalize(im, batch=True, axes=[0, 1, 2], mean=90.0, epsilon=0.5))


pipe = oracle_pipe()
