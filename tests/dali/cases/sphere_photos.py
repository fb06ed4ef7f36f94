# sphere on decoded photos: NN, LINEAR with a fill value, float input, per-sample mask.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return (fn.sphere(im), fn.sphere(im, interp_type=types.INTERP_LINEAR, fill_value=200.0),
            fn.sphere(fn.cast(im, dtype=types.FLOAT), interp_type=types.INTERP_LINEAR),
            fn.sphere(im, mask=labels))


pipe = oracle_pipe()
