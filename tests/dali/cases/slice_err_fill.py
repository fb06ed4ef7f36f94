# oracle: error=Multi-channel fill value does not match the number of channels in the output
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.slice(images, start=[440, 10], shape=[20, 20], out_of_bounds_policy="pad",
                    fill_values=[1, 2])


pipe = oracle_pipe()
