# oracle: atol=1
# random_resized_crop with narrow ranges (fallback windows), two attempts, an explicit seed and
# the cubic filter: DALI's windows (a wrong window differs by far more than the 1 LSB that
# float resampling may).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=8)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return (fn.random_resized_crop(images, size=[32, 32]),
            fn.random_resized_crop(images, size=[20, 30], interp_type=types.INTERP_CUBIC,
                                   random_area=[0.2, 0.3], random_aspect_ratio=[0.5, 0.6],
                                   num_attempts=2, seed=99))


pipe = oracle_pipe()
