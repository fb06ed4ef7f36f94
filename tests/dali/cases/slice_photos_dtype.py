# slice converting the output: photos to float and float16, normalized floats back to uint8
# (clamped and truncated, not rounded), padding cast to the output type (300.7 -> 44 in uint8).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    norm = fn.crop_mirror_normalize(images, mean=[40.25, 0, 100], std=[0.5, 0.8, 2],
                                    output_layout="HWC")
    return (fn.slice(images, start=[5, 6], shape=[20, 30], dtype=types.FLOAT),
            fn.slice(images, start=[440, 290], shape=[20, 30], dtype=types.FLOAT16,
                     out_of_bounds_policy="pad", fill_values=[300.7]),
            fn.slice(norm, start=[440, 290], shape=[20, 30], dtype=types.UINT8,
                     out_of_bounds_policy="pad", fill_values=[300.7]),
            fn.slice(norm, start=[440, 290], shape=[20, 30], out_of_bounds_policy="pad",
                     fill_values=[-1.5, 2.5, 1e10]))


pipe = oracle_pipe()
