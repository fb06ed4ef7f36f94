# water on decoded photos: defaults (NN), LINEAR with other waves and a fill value, float
# input, a per-sample mask (exact: sinf/cosf and the sampler in float, as DALI).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return (fn.water(im), fn.water(im, ampl_x=4.5, ampl_y=17.0, freq_x=0.11, freq_y=0.023,
                                   phase_x=1.5, phase_y=-0.3, interp_type=types.INTERP_LINEAR,
                                   fill_value=99.0),
            fn.water(fn.cast(im, dtype=types.FLOAT), interp_type=types.INTERP_LINEAR),
            fn.water(im, mask=labels))


pipe = oracle_pipe()
